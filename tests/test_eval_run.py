"""adamm eval end to end on a tiny LoCoMo-format file: every system, resume, broken ids, report,
compare; and the Mem-Gallery side of loading.

One run directory is built per module (ingestion is the slow part: the memories are ingested
once and every later run reuses the cache), first interrupted, then resumed, then completed.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from adamm.eval import run as run_mod
from adamm.eval.datasets import EvalError, load_dataset
from adamm.eval.report import compare_runs, write_report
from adamm.eval.run import RECORD_FIELDS, read_records, run_eval
from adamm.eval.systems import SYSTEMS, ingest_key

FIXTURE = Path(__file__).parent / "data" / "locomo_tiny.json"
N_QUESTIONS = 9  # 6 in conv-a, 3 in conv-b


class Interrupted(BaseException):
    """Stands for Ctrl-C / a killed process in the middle of a run."""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> dict:
    import os

    from adamm.nodes.backends import reset_backends
    from adamm.nodes.context import Context

    saved = {k: os.environ.pop(k) for k in list(os.environ) if k.startswith("ADAMM_") and not k.startswith("ADAMM_TEST_")}
    out = tmp_path_factory.mktemp("eval") / "run"
    ctx = Context(home=str(out.parent / "unused-home"))
    info: dict = {"out": out, "ctx": ctx}

    # 1. a run limited to the first question of each conversation, killed after 5 answers
    real = run_mod.answer_record
    calls = {"n": 0}

    def dying(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] > 5:
            raise Interrupted
        return real(*args, **kwargs)

    run_mod.answer_record = dying
    try:
        with pytest.raises(Interrupted):
            run_eval("locomo", str(FIXTURE), out, ctx, limit=1, progress=False)
    finally:
        run_mod.answer_record = real
    info["after_kill"] = read_records(out)
    # a process killed mid-write leaves half a line behind
    with open(out / "records.jsonl", "a", encoding="utf-8") as fh:
        fh.write('{"dataset": "locomo", "system": "bm25", "quest')

    # 2. the same limited run, resumed; 3. the full run through the command line
    info["limited"] = run_eval("locomo", str(FIXTURE), out, ctx, limit=1, progress=False)
    info["after_limited"] = read_records(out)
    from adamm.cli import main

    info["exit"] = main(["eval", "--dataset", "locomo", "--data", str(FIXTURE), "--out", str(out), "--no-progress"])
    info["full"] = read_records(out)
    info["again"] = run_eval("locomo", str(FIXTURE), out, ctx, progress=False)
    yield info
    reset_backends()
    os.environ.update(saved)


def test_every_system_answers_every_question_once(run_dir):
    records = run_dir["full"]
    assert run_dir["exit"] == 0
    keys = Counter((r["system"], r["question_id"]) for r in records)
    assert max(keys.values()) == 1, "a resumed run duplicated records"
    assert {s for s, _ in keys} == set(SYSTEMS)
    assert len(keys) == len(SYSTEMS) * N_QUESTIONS
    assert {q for _, q in keys} == {f"conv-a#{i}" for i in range(6)} | {f"conv-b#{i}" for i in range(3)}
    for r in records:
        assert tuple(r) == RECORD_FIELDS
        assert isinstance(r["retrieved"], list) and isinstance(r["metrics"], dict)
        assert "error" not in r["metrics"], r["metrics"].get("error")
        assert r["latency_s"] >= 0 and r["calls"] == 0  # rules everywhere: no model calls


def test_scores_clear_a_floor(run_dir):
    """The harness scores what the systems retrieved and answered (a floor, so a harness that
    loses the ids or the answers fails). Offline rules everywhere: the run is deterministic."""
    by_system: dict[str, list[dict]] = {}
    for r in run_dir["full"]:
        by_system.setdefault(r["system"], []).append(r)

    def mean(system: str, metric: str) -> float:
        values = [r["metrics"][metric] for r in by_system[system] if r["metrics"][metric] is not None]
        assert len(values) == (6 if metric == "recall@10" else N_QUESTIONS), (system, metric)  # 6 questions keep a gold id
        return sum(values) / len(values)

    # The memories hold 7 and 5 rounds, so every round a dense ranking returns fits in its top
    # 10: recall@10 is exactly 1 unless the harness lost the mapping from rounds to gold ids.
    for system in ("rag-dense", "hybrid", "adamm"):
        assert mean(system, "recall@10") == 1.0, system
    assert mean("no-retrieval", "recall@10") == 0.0  # nothing retrieved, nothing recalled
    # Both adversarial questions (category 5) are refused, and the refusal scored, by every system.
    adversarial = [r for r in run_dir["full"] if r["question_id"] in ("conv-a#5", "conv-b#2")]
    assert len(adversarial) == 2 * len(SYSTEMS)
    assert all(r["metrics"]["refused"] and r["metrics"]["refusal_correct"] == 1.0 and r["metrics"]["f1"] == 1.0
               for r in adversarial)
    # adamm's token F1 over the 9 questions measures 0.356 (the two refusals score 1 each, its
    # answers to five more score 0.11-0.36). The floor, 0.25, is above the 2/9 = 0.222 that the
    # refusals alone give, so a harness that drops or mis-scores the answers fails, and leaves a
    # margin of about one answer's F1 below the measured value.
    assert mean("adamm", "f1") >= 0.25
    assert mean("adamm", "f1") > mean("no-retrieval", "f1")


def test_interrupted_run_resumes_without_duplicates(run_dir):
    assert len(run_dir["after_kill"]) == 5
    limited = run_dir["after_limited"]
    # one question per conversation, every system, the half-written line gone
    assert len(limited) == 2 * len(SYSTEMS)
    assert len({(r["system"], r["question_id"]) for r in limited}) == len(limited)
    assert run_dir["limited"].skipped == 5 and run_dir["limited"].answered == 2 * len(SYSTEMS) - 5
    # the records of the first two runs are kept as they were, in the same order
    assert limited[:5] == run_dir["after_kill"]
    assert run_dir["full"][: len(limited)] == limited
    assert run_dir["again"].answered == 0 and run_dir["again"].skipped == len(SYSTEMS) * N_QUESTIONS


def test_broken_evidence_ids_are_split_dropped_and_counted(run_dir):
    datasets = json.loads((run_dir["out"] / "datasets.json").read_text())
    assert datasets["locomo"]["broken_evidence_ids"] == {"split": 1, "dropped": 2, "unknown": 1}
    by_q = {r["question_id"]: r for r in run_dir["full"] if r["system"] == "hybrid"}
    assert by_q["conv-a#1"]["metrics"]["evidence"] == 2  # "D1:2; D2:2" -> two gold rounds
    assert by_q["conv-a#4"]["metrics"]["recall@10"] is None  # "D" and "" -> no gold left
    assert by_q["conv-b#0"]["metrics"]["evidence"] == 1  # D9:9 names no turn


def test_baselines_retrieve_top_10_rounds_with_their_own_ranking(run_dir):
    by = {(r["system"], r["question_id"]): r for r in run_dir["full"]}
    for q in ("conv-a#0", "conv-b#1"):
        for system in ("rag-dense", "bm25", "hybrid"):
            assert len(by[system, q]["retrieved"]) <= 10
        # dense ranks every round of the small memory; BM25 only those sharing a word
        assert len(by["rag-dense", q]["retrieved"]) >= len(by["bm25", q]["retrieved"])
    assert by["rag-dense", "conv-b#1"]["retrieved"] != by["bm25", "conv-b#1"]["retrieved"]


def test_report_files_and_tables(run_dir):
    out = run_dir["out"]
    text = (out / "report.md").read_text()
    for title in ("## locomo", "### Overview", "Evidence recall@10 by question type", "Token F1 by question type",
                  "BLEU-1 by question type", "Exact match by question type"):
        assert title in text
    assert "LLM-judge accuracy skipped" in text
    assert "1 entries holding several ids split" in text
    for system in SYSTEMS:
        assert f"| {system} | {N_QUESTIONS} |" in text
    assert "| 5 (adversarial) | 2 |" in text
    for png in ("locomo-accuracy-by-type.png", "locomo-cost-vs-accuracy.png"):
        data = (out / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000


def test_compare_two_runs(run_dir, tmp_path):
    out = run_dir["out"]
    other = tmp_path / "other"
    other.mkdir()
    lines = (out / "records.jsonl").read_text().splitlines()
    changed = []
    for line in lines:  # run B: bm25 got every conv-a question right
        rec = json.loads(line)
        if rec["system"] == "bm25" and rec["scenario"] == "conv-a":
            rec["metrics"]["f1"] = 1.0
        changed.append(json.dumps(rec))
    (other / "records.jsonl").write_text("\n".join(changed) + "\n")
    text = compare_runs(out, other)
    row = next(line for line in text.splitlines() if line.startswith("| bm25 |"))
    before = sum(json.loads(x)["metrics"]["f1"] < 1.0 for x in lines
                 if json.loads(x)["system"] == "bm25" and json.loads(x)["scenario"] == "conv-a")
    assert f"| {before} / 0 |" in row
    assert "(+0.0)" in next(line for line in text.splitlines() if line.startswith("| hybrid |"))


def test_a_directory_refuses_another_configuration(run_dir):
    ctx = run_dir["ctx"].replace(evidence_budget=3)
    with pytest.raises(EvalError, match="other configuration"):
        run_eval("locomo", str(FIXTURE), run_dir["out"], ctx, progress=False)


def test_ingest_key_ignores_query_time_settings(run_dir):
    ctx = run_dir["ctx"]
    assert ingest_key(ctx) == ingest_key(ctx.replace(use_analytic=False, retrieval_mode="bm25", answerer="rules"))
    assert ingest_key(ctx) != ingest_key(ctx.replace(theta_support=7))


def test_report_rebuilds_from_records_alone(run_dir, tmp_path):
    (tmp_path / "records.jsonl").write_text((run_dir["out"] / "records.jsonl").read_text())
    text = write_report(tmp_path).read_text()
    assert "### Overview" in text and "| hybrid |" in text


def test_mem_gallery_loading(tmp_path):
    doc = {
        "multi_session_dialogues": [{"session_id": "D1", "date": "2024-06-24", "dialogues": [
            {"round": "D1:1", "user": "I baked cookies at 180 C.", "assistant": "Nice."},
            {"round": "D1:2", "user": "Look at my cat.", "assistant": "Cute!", "image_id": ["D1:IMG_1"],
             "input_image": ["../image/x/D1_IMG_1.jpg"], "image_caption": ["a grey cat on a sofa"]}]}],
        "human-annotated QAs": [
            {"point": "FR", "question": "At what temperature?", "answer": "180 C", "clue": ["D1:1", "D7:7"]},
            {"point": "AR", "question": "Did she bake bread?", "answer": "Not mentioned.", "clue": []},
            {"point": "VS", "question": "Whose pet is this?", "answer": "the user's cat", "clue": ["D1:2"],
             "question_image": "../image/x/q.jpg", "image_caption": "a grey cat"}]}
    (tmp_path / "Cats_Baking.json").write_text(json.dumps(doc))
    ds = load_dataset("mem-gallery", str(tmp_path))
    (scen,) = ds.scenarios
    fr, ar, vs = scen.questions
    assert [q.question_id for q in scen.questions] == ["Cats_Baking#0", "Cats_Baking#1", "Cats_Baking#2"]
    assert fr.evidence == ["D1:1"] and ds.broken["unknown"] == 1
    assert ar.unanswerable and not fr.unanswerable and not vs.unanswerable
    assert vs.caption == "a grey cat" and vs.image == {"caption": "a grey cat"}  # file absent: caption only
    assert load_dataset("mem-gallery", str(tmp_path), limit=1).scenarios[0].questions == [fr]
    with pytest.raises(EvalError):
        load_dataset("mem-gallery", str(tmp_path / "missing"))


def test_command_line_report_compare_and_usage_errors(run_dir, capsys):
    from adamm.cli import main

    out = str(run_dir["out"])
    assert main(["eval", "--compare", out, out]) == 0
    assert "# Comparison" in capsys.readouterr().out
    assert main(["eval", "--report", out]) == 0
    assert main(["eval"]) == 2
    assert main(["eval", "--dataset", "locomo", "--data", str(FIXTURE), "--systems", "adamm,gpt5", "--out", out]) == 2
    assert "gpt5" in capsys.readouterr().err
    assert main(["eval", "--compare", out, str(run_dir["out"].parent / "nothing")]) == 2
