"""adamm.eval.invented: reproducible invented-vocabulary histories in analytic_dev's format, their
values present in the rounds, the standalone scorer, and a benchmark run on them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from adamm.eval.invented import score
from adamm.eval.invented.generate import scenarios, write
from adamm.eval.invented.words import ENGLISH

REPO = Path(__file__).resolve().parents[1]
TYPES = {"AVG", "SUM", "CNT", "MAX", "MIN", "LAT", "RNG", "CMP", "TRD", "RET"}
#: Common English words, independent of the generator's own list: no invented label may be one.
COMMON = set("""time person year way day thing man world life hand part child eye woman place work week case point
number group problem fact distance speed weight height length count level score depth pace rate total value amount
weight heart sleep steps run ride walk swim lift set rep sets reps kind type mode style grade class route place
station book page minute hour mile pound euro dollar cost price fee note log entry shift batch session outing""".split())


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("invented") / "seed0"
    write(out, seed=0, count=4)
    return out


def _dialogs(d: Path) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((d / "dialog").glob("*.json"))}


def _records(d: Path, name: str) -> list[dict]:
    return [json.loads(x) for x in (d / "records" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]


def _generate(out: Path, hash_seed: str, seed: int = 5, count: int = 2) -> None:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    subprocess.run([sys.executable, "-m", "adamm.eval.invented", "--out", str(out), "--seed", str(seed),
                    "--scenarios", str(count)], check=True, capture_output=True, env=env)


def test_output_is_byte_identical_whatever_the_hash_seed(tmp_path: Path):
    _generate(tmp_path / "a", "1")
    _generate(tmp_path / "b", "2")
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    assert len([f for f in files if f.parts[0] == "dialog"]) == 2
    for f in files:
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f
    assert (tmp_path / "a" / "score.py").read_bytes() == (REPO / "eval" / "invented" / "score.py").read_bytes()


def _vocabulary(seed: int) -> set[str]:
    words = set()
    for scn, _ in scenarios(seed, 4):
        dom = scn.domain
        words |= {f.label for f in dom.nums} | {c.label for c in dom.cats} | {v for c in dom.cats for v in c.values}
        words.add(dom.kind)
    return words


def test_two_seeds_invent_different_words():
    a, b = _vocabulary(0), _vocabulary(1)
    assert len(a) >= 25 and len(b) >= 25
    assert len(a & b) <= len(a) // 10, a & b


def test_labels_are_not_english_and_not_snake_case(data: Path):
    docs = _dialogs(data)
    made = scenarios(0, 4)
    assert sorted(scn.name for scn, _ in made) == sorted(docs)
    for scn, _ in made:
        dom = scn.domain
        assert dom.kind.removesuffix("ing") not in ENGLISH | COMMON
        labels = [f.label for f in dom.nums] + [c.label for c in dom.cats] + ([dom.entity.label] if dom.entity else [])
        assert 3 <= len(dom.nums) <= 6 and 1 <= len(dom.cats) <= 2
        for label in labels:
            head = label.split()[0]
            assert head not in ENGLISH and head not in COMMON and label not in COMMON, label
        for c in dom.cats:
            assert 2 <= len(c.values) <= 5 and all(v[0].isupper() and v.lower() not in ENGLISH for v in c.values)
        if dom.entity:
            assert 3 <= len(dom.entity.values) <= 8
        keys = {k for r in _records(data, scn.name) for k in r["fields"]}
        assert any(k.endswith(("_km", "_min", "_kg")) for k in keys), keys  # the real two-unit field
        for q in docs[scn.name]["human-annotated QAs"]:
            assert not any(k in q["question"] for k in keys if "_" in k), q["question"]


_UNIT_FACTOR = {"mi": Decimal("1.609344"), "lb": Decimal("0.45359237"), "h": Decimal(60)}
_NUMBER = re.compile(r"(\d+) h(?: (\d+) min)?|(\d{1,3}(?:,\d{3})+|\d+)(?:([.,])(\d+))?(?: ?(mi|lb|h)\b)?")


def _readings(text: str) -> set[Decimal]:
    """Every value a round's text states, in every reading it allows (miles, pounds and hours
    converted; a decimal comma or a thousands separator)."""
    out = set()
    for m in _NUMBER.finditer(text):
        if m.group(1):
            out.add(Decimal(int(m.group(1)) * 60 + int(m.group(2) or 0)))
            continue
        whole, sep, frac, unit = m.group(3), m.group(4), m.group(5), m.group(6)
        value = Decimal(whole.replace(",", "") + ("." + frac if sep == "." else ""))
        values = {value}
        if sep == ",":
            values = {Decimal(whole.replace(",", "") + "." + frac), Decimal(whole.replace(",", "") + frac)}
        for v in values:
            out.add(v * _UNIT_FACTOR[unit] if unit else v)
    return out


def test_every_record_value_is_written_in_its_round(data: Path):
    for name, doc in _dialogs(data).items():
        texts = {r["round"]: " || ".join([r["user"], *r["image_caption"]])
                 for s in doc["multi_session_dialogues"] for r in s["dialogues"]}
        sessions = doc["multi_session_dialogues"]
        assert 8 <= len(sessions) <= 12 and all(6 <= len(s["dialogues"]) <= 10 for s in sessions)
        recs = _records(data, name)
        assert 25 <= len(recs) <= 45
        months = {r["observed"][:7] for r in recs}
        assert len(months) >= 3, months
        for rec in recs:
            text = texts[rec["round"]]
            assert rec["record_type"] == name
            for key, value in rec["fields"].items():
                if isinstance(value, str):
                    assert value in text, (rec, key)
                else:
                    want = Decimal(str(value))
                    assert any(abs(v - want) < Decimal("1e-9") for v in _readings(text)), (rec["round"], key, value, text)
        qas = doc["human-annotated QAs"]
        assert 30 <= len(qas) <= 40 and {q["point"] for q in qas} == TYPES
        for q in qas:
            assert q["clue"] and all(c in texts for c in q["clue"]), q["question"]
            assert q["session_id"] == sorted({c.split(":")[0] for c in q["clue"]}, key=lambda s: int(s[1:]))


def test_the_copied_scorer_scores_gold_answers_full_and_empty_predictions_zero(data: Path, tmp_path: Path):
    oracle, empty = tmp_path / "oracle.jsonl", tmp_path / "empty.jsonl"
    run = [sys.executable, "-S", str(data / "score.py"), str(data / "dialog")]  # -S: no site-packages, stdlib only
    subprocess.run([*run, "--make-oracle", str(oracle)], check=True)
    rows = [json.loads(x) for x in oracle.read_text(encoding="utf-8").splitlines()]
    empty.write_text("".join(json.dumps({**r, "prediction": ""}) + "\n" for r in rows), encoding="utf-8")
    full = json.loads(subprocess.run([*run, str(oracle)], check=True, capture_output=True, text=True).stdout)
    zero = json.loads(subprocess.run([*run, str(empty), "--details", str(tmp_path / "d.jsonl")], check=True,
                                     capture_output=True, text=True).stdout)
    assert full["overall"]["accuracy"] == 1.0 and full["overall"]["n"] == len(rows)
    assert zero["overall"]["correct"] == 0 and zero["missing_predictions"] == 0
    assert set(full) == {"overall", "by_type", "by_scenario", "by_scenario_type", "missing_predictions",
                         "unmatched_predictions"}
    assert len((tmp_path / "d.jsonl").read_text(encoding="utf-8").splitlines()) == len(rows)


def test_scorer_rules_on_hand_made_answers():
    num = {"answer_type": "number", "answer_value": 72, "tolerance": 0.5, "unit": "minutes"}
    assert score.judge(num, "1 h 12 min on average, over 30 sessions")[0]
    assert not score.judge(num, "Over 30 sessions: 72 minutes")[0]  # the earliest number counts
    assert score.judge({**num, "answer_value": 61.4, "unit": "EUR", "tolerance": 0.01}, "61,40 € in total")[0]
    assert score.judge({**num, "answer_value": 14.3, "unit": "qz", "tolerance": 0.05}, "In March 2025 it was 14.3 qz")[0]
    day = {"answer_type": "date", "answer_value": "2025-03-04", "tolerance": 0}
    assert score.judge(day, "On March 4.")[0] and not score.judge(day, "March 5, then March 4")[0]
    trend = {"answer_type": "string", "answer_value": "increased", "candidates": ["increased", "decreased"], "tolerance": 0}
    assert score.judge(trend, "It went up a little.")[0] and not score.judge(trend, "It fell.")[0]
    month = {"answer_type": "string", "answer_value": "April", "candidates": ["March", "April"], "tolerance": 0}
    assert score.judge(month, "April (14.3 qz vs 12.1 qz in March)")[0] and not score.judge(month, "May")[0]
    dates = {"answer_type": "list", "answer_value": ["2025-03-04", "2025-03-09"], "tolerance": 0}
    assert score.judge(dates, "2025-03-04 and 2025-03-09")[0] and not score.judge(dates, "2025-03-04")[0]
    names = {"answer_type": "list", "answer_value": ["Ashvel", "Morrin"], "candidates": ["Ashvel", "Morrin", "Quon"],
             "tolerance": 0}
    assert score.judge(names, "Morrin, Ashvel.")[0] and not score.judge(names, "Morrin, Ashvel and Quon")[0]
    ret = {"answer_type": "string", "answer_value": "Vanmoor", "tolerance": 0}
    assert score.judge(ret, "Ostrel Vanmoor.")[0] and not score.judge(ret, "Ostrel.")[0]


@pytest.mark.slow
def test_bench_analytic_dev_runs_on_an_invented_scenario(tmp_path: Path):
    data = tmp_path / "data"
    write(data, seed=2, count=1)
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, str(REPO / "benchmarks" / "bench_analytic_dev.py"), "--data", str(data),
                           "--systems", "adamm", "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    (name,) = summary["scenarios"]
    assert summary["scorer"]["adamm"]["overall"]["n"] == len(_dialogs(data)[name]["human-annotated QAs"])
    assert summary["tables"][name]["records"] == len(_records(data, name))
    assert summary["scorer"]["adamm"]["unmatched_predictions"] == 0


def test_varied_questions_keep_every_gold_answer_and_change_the_wording():
    """``--varied`` is the same data set asked in other words: the answers, clues and types
    stay, most questions read differently, and relative periods state the day they are asked."""
    plain = scenarios(2, 2)
    varied = scenarios(2, 2, varied=True)
    changed = stated = 0
    for (scn_a, qa_a), (scn_b, qa_b) in zip(plain, varied):
        assert scn_a.sessions == scn_b.sessions
        assert [(q["answer_value"], q["clue"], q["point"]) for q in qa_a] == [(q["answer_value"], q["clue"], q["point"]) for q in qa_b]
        for a, b in zip(qa_a, qa_b):
            changed += a["question"] != b["question"]
            stated += bool(re.search(r"\b(?:today is|asked on|it's)\b", b["question"]))
            assert "{" not in b["question"] and "  " not in b["question"], b["question"]
    total = sum(len(q) for _, q in plain)
    retrieval = sum(q["point"] == "RET" for _, qs in plain for q in qs)
    assert changed >= 0.9 * (total - retrieval), (changed, total)
    assert stated >= 3


def test_a_relative_period_covers_the_same_days_as_the_absolute_one():
    """"in the past N days (asked on D)" and "last month (today is ...)" mean the generator's
    period under adamm's documented reading, so a varied question has the same gold answer."""
    import random
    from datetime import date

    from adamm.eval.invented.dates import Period
    from adamm.eval.invented.phrasing import relative
    from adamm.stores.timeexpr import find_periods

    rng = random.Random(5)
    for p in (Period("window", date(2025, 3, 4), date(2025, 3, 17), "from March 4 to March 17, 2025"),
              Period("month", date(2025, 2, 1), date(2025, 2, 28), "in February 2025", "February"),
              Period("month", date(2024, 12, 1), date(2024, 12, 31), "in December 2024", "December")):
        for _ in range(6):
            phrase, clause = relative(p, rng)
            (got,) = find_periods(f"What did I log {phrase} {clause}?", date(2025, 4, 30))
            assert (got.start, got.end) == (p.start, p.end), (phrase, clause)


def test_styles_add_header_tables_terse_notes_and_one_card_per_record():
    """``--styles`` writes other authors' layouts into the same kind of history (validated like
    the rest): header rows over value rows, notes of bare values, several undated cards in one
    round whose words name the days."""
    made = scenarios(7, 2, styles=True)
    rounds = [r for scn, _ in made for s in scn.sessions for r in s["dialogues"]]
    texts = [" || ".join([r["user"], *r["image_caption"]]) for r in rounds]
    assert any(re.search(r"\n[^\n|;]+(?: \| | ; )[^\n]+\n\S", t) for t in texts)  # a header line, then a row
    assert any(len(r["image_caption"]) > 1 for r in rounds)
    day = r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|[A-Z][a-z]{2} \d{1,2}|\d{1,2} [A-Z][a-z]{2})"
    assert any(re.search(r"\n(?:\w+(?: \| | ; ))?" + day + r"(?:(?: \| | ; )" + day + ")+\n", t) for t in texts)  # days as columns
    assert any(re.search(r"\n[^\n:]+: " + day + r" [^\n]+(?:, |· )" + day + " ", t) for t in texts)  # a day before each value
    layouts = {rec.layout for scn, _ in made for rec in scn.records}
    assert {"table", "terse"} & {lay.split("-")[0] for lay in layouts}
