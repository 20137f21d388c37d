"""Running an evaluation: ingest each memory once, ask every question of every system, record.

Output directory layout (``--out DIR``)::

    DIR/records.jsonl    one JSON object per (question, system), appended as answered
    DIR/runs.json        per dataset: data hash, ingestion key, answer configuration, systems
    DIR/datasets.json    per dataset: sizes, broken evidence ids, loader notes
    DIR/cache/<key>/     the ingested memories (adamm data directory), one per ingestion key
    DIR/report.md, DIR/*.png

Records are appended and flushed one at a time, so an interrupted run loses at most the
question in flight; the next run skips every (dataset, system, question_id) already recorded
without an error. A record whose system raised is kept (the report counts it) and retried by
the next run; the newest record of a key wins.

A directory holds one configuration per dataset: rerunning a dataset with other data or other
answer settings into the same directory is refused, because resumed records would silently mix
two configurations.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adamm.eval import metrics as m
from adamm.eval.datasets import EvalDataset, EvalError, EvalQuestion, EvalScenario, load_dataset
from adamm.eval.devset.questions import is_correct
from adamm.eval.judge import judge
from adamm.eval.systems import SYSTEMS, ingest_key, query_config

__all__ = ["K", "RECORD_FIELDS", "RunResult", "answer_record", "read_records", "run_eval", "score"]

K = 10
RECORD_FIELDS = (
    "dataset", "scenario", "system", "question_id", "question", "category", "gold", "prediction", "retrieved",
    "citations", "metrics", "calls", "tokens_in", "tokens_out", "latency_s",
)


@dataclass
class RunResult:
    dataset: str
    answered: int = 0
    skipped: int = 0  #: already recorded by an earlier run
    errors: int = 0
    ingest_s: float = 0.0
    answer_s: float = 0.0
    notes: list[str] = field(default_factory=list)


# -- records file ---------------------------------------------------------------------------


def _repair_tail(path: Path) -> None:
    """Cut a half-written last line (a run killed mid-write) so appends start on a fresh line."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with open(path, "rb+") as fh:
        fh.seek(-1, os.SEEK_END)
        if fh.read(1) == b"\n":
            return
        data = path.read_bytes()
        fh.truncate(data.rfind(b"\n") + 1)


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Every complete record of a records file, in file order (unparsable lines skipped)."""
    p = Path(path)
    if p.is_dir():
        p = p / "records.jsonl"
    if not p.exists():
        return []
    out = []
    with open(p, encoding="utf-8") as fh:
        for line in fh:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict) and "question_id" in rec:
                out.append(rec)
    return out


def record_key(rec: dict[str, Any]) -> tuple[str, str, str]:
    return rec["dataset"], rec["system"], rec["question_id"]


def latest(records: Iterable[dict[str, Any]]) -> dict[tuple[str, str, str], dict[str, Any]]:
    """The newest record of each (dataset, system, question_id)."""
    out: dict[tuple[str, str, str], dict[str, Any]] = {}
    for rec in records:
        out[record_key(rec)] = rec
    return out


# -- scoring --------------------------------------------------------------------------------


def retrieved_rounds(evidence: Sequence[dict[str, Any]]) -> list[str]:
    """Round ids of every evidence unit, best unit first, each once."""
    ids: list[str] = []
    for unit in evidence or []:
        ids.extend(str(r) for r in unit.get("round_ids") or ([unit["round_id"]] if unit.get("round_id") else []))
    return list(dict.fromkeys(ids))


def _text_scores(q: EvalQuestion, prediction: str) -> dict[str, float]:
    if q.scoring == "locomo" and q.unanswerable:
        # LoCoMo scores an adversarial question by whether the answer declines; its gold
        # ("adversarial_answer") is the trap, not the answer.
        v = 1.0 if m.is_refusal(prediction) else 0.0
        return {"em": v, "f1": v, "bleu1": v}
    f1 = m.multi_answer_f1(prediction, q.gold) if q.scoring == "locomo" and q.category == "1" else m.token_f1(prediction, q.gold)
    return {"em": m.exact_match(prediction, q.gold), "f1": f1, "bleu1": m.bleu1(prediction, q.gold)}


def _analytic_scores(q: EvalQuestion, prediction: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    dev = q.dev
    gold_value = getattr(dev, "gold_value", None)
    if getattr(dev, "kind", "number") == "number" and isinstance(gold_value, (int, float)) \
            and not isinstance(gold_value, bool):
        gold = float(gold_value)
        tol = max(float(getattr(dev, "tolerance", 0.0) or 0.0), float(getattr(dev, "rel_tolerance", 0.0) or 0.0) * abs(gold))
        out["numeric"] = m.numeric_match(prediction, gold, tol)
    if dev is not None:
        out["correct"] = 1.0 if is_correct(dev, prediction) else 0.0
    return out


def score(q: EvalQuestion, prediction: str, retrieved: Sequence[str], scenario: EvalScenario, k: int = K) -> dict[str, Any]:
    """Every model-free metric of one answer (see the README's "Evaluation" section)."""
    refused = m.is_refusal(prediction)
    sessions = {scenario.session_of[r] for r in retrieved if r in scenario.session_of}
    out: dict[str, Any] = {
        **_text_scores(q, prediction),
        "refused": refused,
        "unanswerable": q.unanswerable,
        "refusal_correct": (1.0 if refused else 0.0) if q.unanswerable else None,
        f"recall@{k}": m.recall_at_k(retrieved, q.evidence, k),
        f"hit@{k}": m.hit_at_k(retrieved, q.evidence, k),
        "evidence": len(q.evidence),
        "rounds_accessed": len(retrieved),
        "sessions_accessed": len(sessions),
        "sessions_total": scenario.n_sessions,
    }
    if q.scoring == "analytic":
        out.update(_analytic_scores(q, prediction))
    return out


# -- answering ------------------------------------------------------------------------------


def query_text(q: EvalQuestion, with_caption: bool) -> str:
    """The question as asked; with its image's caption appended (``[image] ...``) when it has
    one and ``with_caption``, since without image weights the caption is the image."""
    if with_caption and q.caption:
        return f"{q.question}\n[image] {q.caption}"
    return q.question


def answer_record(dataset: str, scenario: EvalScenario, q: EvalQuestion, system_name: str, ctx: Any,
                  *, with_caption: bool = True, k: int = K) -> dict[str, Any]:
    """Ask one system one question and build its record. A system that raises gives a record
    with an empty prediction and ``metrics.error``, so one failure does not end a long run."""
    from adamm.nodes.cost import summarize  # noqa: PLC0415 - heavy: loaded only by the commands that need it

    system = SYSTEMS[system_name]
    payload: dict[str, Any] = {"memory_id": scenario.memory_id, "question": query_text(q, with_caption)}
    if q.now:
        payload["now"] = q.now
    if q.image:
        payload["image"] = q.image
    start = time.perf_counter()
    error = None
    try:
        out = system.compiled().invoke(payload, context=system.context(ctx))
    except Exception as exc:  # noqa: BLE001 - recorded and counted, see docstring
        out, error = {}, f"{type(exc).__name__}: {' '.join(str(exc).split())[:500]}"
    latency = time.perf_counter() - start
    prediction = str(out.get("answer") or "")
    retrieved = retrieved_rounds(out.get("evidence") or [])
    cost = summarize(out.get("cost") or [])
    metrics = score(q, prediction, retrieved, scenario, k)
    if error:
        metrics["error"] = error
    else:
        verdict, judge_cost = judge(ctx, q.question, q.gold, prediction)
        metrics["judge"] = verdict
        if judge_cost:
            metrics["judge_calls"] = judge_cost["calls"]
            metrics["judge_tokens_in"] = judge_cost["tokens_in"]
            metrics["judge_tokens_out"] = judge_cost["tokens_out"]
    return {
        "dataset": dataset,
        "scenario": scenario.name,
        "system": system_name,
        "question_id": q.question_id,
        "question": q.question,
        "category": q.category,
        "gold": q.gold,
        "prediction": prediction,
        "retrieved": retrieved,
        "citations": [{"round_id": c.get("round_id"), "image_ids": list(c.get("image_ids") or [])}
                      for c in out.get("citations") or []],
        "metrics": metrics,
        "calls": int(cost["calls"]),
        "tokens_in": int(cost["tokens_in"]),
        "tokens_out": int(cost["tokens_out"]),
        "latency_s": round(latency, 6),
    }


# -- the run --------------------------------------------------------------------------------


def _read_json(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _write_json(path: Path, doc: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=1, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _check_manifest(out: Path, ds: EvalDataset, ctx: Any, key: str, systems: Sequence[str]) -> None:
    """Record this run's configuration, refusing one that contradicts what ``out`` holds."""
    runs_path = out / "runs.json"
    runs = _read_json(runs_path)
    config = json.loads(json.dumps(query_config(ctx), default=str))
    scenarios = {s.name: s.data_hash for s in ds.scenarios}
    previous = runs.get(ds.name) or {}
    if previous:
        changed = [s for s, h in scenarios.items() if previous.get("scenarios", {}).get(s, h) != h]
        if previous.get("config") != config or previous.get("ingest_key") != key or changed:
            what = f"scenario data ({', '.join(changed[:3])})" if changed else "configuration"
            raise EvalError(f"{out} already holds a {ds.name} run with other {what}; use another --out "
                            "(resumed records must not mix two configurations)")
    runs[ds.name] = {
        "source": ds.source,
        "ingest_key": key,
        "config": config,
        "systems": list(dict.fromkeys([*previous.get("systems", []), *systems])),
        "scenarios": {**previous.get("scenarios", {}), **scenarios},
    }
    _write_json(runs_path, runs)
    datasets = _read_json(out / "datasets.json")
    datasets[ds.name] = ds.summary()
    _write_json(out / "datasets.json", datasets)


def _ensure_ingested(ctx: Any, cache: Path, scenario: EvalScenario) -> float:
    """Ingest a scenario into the cache unless a finished ingestion of it is recorded there."""
    marker = cache / "ingested" / (scenario.memory_id.replace("/", "_") + ".json")
    if marker.exists():
        return 0.0
    from adamm.memory import Memory  # noqa: PLC0415 - the graphs load only when a run ingests

    start = time.perf_counter()
    stored = Memory(scenario.memory_id, context=ctx).ingest(scenario.rounds, progress=scenario.name[:30]).counts
    seconds = time.perf_counter() - start
    marker.parent.mkdir(parents=True, exist_ok=True)
    _write_json(marker, {"memory_id": scenario.memory_id, "rounds": len(scenario.rounds), "stored": stored,
                         "seconds": round(seconds, 3)})
    return seconds


def _warm_up(ctx: Any, memory_id: str) -> None:
    """Load the memory's indexes before timing anything: index loading is not query latency."""
    from adamm.nodes.backends import backends  # noqa: PLC0415 - heavy: loaded only by the commands that need it
    from adamm.nodes.ingest import ROUNDS_SPACE  # noqa: PLC0415 - heavy: loaded only by the commands that need it

    backends(ctx).units.search(memory_id, ROUNDS_SPACE, "warm up", 1, mode="hybrid")


def _embed_query(ctx: Any, text: str) -> None:
    """Embed the question once before any system is timed. The encoder caches vectors, so
    otherwise the first system asked would pay for embedding it and the others would not;
    this way latency compares the systems' own work."""
    from adamm.nodes.backends import backends  # noqa: PLC0415 - heavy: loaded only by the commands that need it

    backends(ctx).text_encoder.encode([text])


def eval_context(base: Any, out: Path, key: str) -> Any:
    """The run's context: the caller's settings, memories in the cache of this ingestion key."""
    home = (out / "cache" / key).resolve()
    home.mkdir(parents=True, exist_ok=True)
    return base.replace(home=str(home), database_url=None, chroma_url=None)


def _pending(ds: EvalDataset, systems: Sequence[str], done: set[tuple[str, str, str]]) -> Iterator[tuple[EvalScenario, list[tuple[EvalQuestion, list[str]]]]]:
    for s in ds.scenarios:
        work = [(q, [n for n in systems if (ds.name, n, q.question_id) not in done]) for q in s.questions]
        yield s, [(q, names) for q, names in work if names]


def run_eval(dataset: str, data: str | None, out: str | os.PathLike[str], base_ctx: Any, *,
             systems: Sequence[str] | None = None, limit: int = 0, max_scenarios: int = 0,
             with_caption: bool = True, progress: bool | None = None, k: int = K) -> RunResult:
    """Evaluate ``systems`` on a dataset, appending to ``out/records.jsonl``; resumable."""
    from tqdm import tqdm  # noqa: PLC0415 - progress bars only

    systems = list(systems or SYSTEMS)
    ds = load_dataset(dataset, data, limit=limit, max_scenarios=max_scenarios)
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    ingest_ctx = base_ctx.replace(use_analytic=True, use_retrieval=True)  # build everything once
    key = ingest_key(ingest_ctx)
    ctx = eval_context(base_ctx, out_dir, key)
    ingest_ctx = eval_context(ingest_ctx, out_dir, key)
    _check_manifest(out_dir, ds, ctx, key, systems)

    records_path = out_dir / "records.jsonl"
    _repair_tail(records_path)
    done = {k_ for k_, rec in latest(read_records(records_path)).items() if not rec["metrics"].get("error")}
    work = list(_pending(ds, systems, done))
    total = sum(len(names) for _, qs in work for _, names in qs)
    result = RunResult(dataset, skipped=sum(len(s.questions) for s in ds.scenarios) * len(systems) - total)
    disable = None if progress is None else not progress
    with open(records_path, "a", encoding="utf-8") as sink, \
            tqdm(total=total, desc=f"{dataset} answers", unit="q", file=sys.stderr, disable=disable) as bar:
        for scenario, questions in work:
            if not questions:
                continue
            result.ingest_s += _ensure_ingested(ingest_ctx, out_dir / "cache" / key, scenario)
            _warm_up(ctx, scenario.memory_id)
            start = time.perf_counter()
            for q, names in questions:
                _embed_query(ctx, query_text(q, with_caption))
                for name in names:
                    rec = answer_record(ds.name, scenario, q, name, ctx, with_caption=with_caption, k=k)
                    sink.write(json.dumps(rec, ensure_ascii=False, default=str) + "\n")
                    sink.flush()
                    result.answered += 1
                    if rec["metrics"].get("error"):
                        result.errors += 1
                        bar.write(f"adamm eval: {name} failed on {q.question_id}: {rec['metrics']['error']}")
                    bar.update(1)
            result.answer_s += time.perf_counter() - start
    return result
