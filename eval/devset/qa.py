"""Question answering on the development history: accuracy per question category and system.

This is the measuring stick for the query planner. The dev set (``adamm.eval.devset.history``)
is ingested into a fresh memory with the offline ``rules`` backend, every question of
``adamm.eval.devset.questions`` is asked through each system, and answers are scored with
``is_correct``. Systems are query graphs: ``query`` (the planner) and ``flat`` (top-k rounds, the
baseline the planner has to beat). Both read the same memory, so a difference in accuracy is
the graph's doing.

    python -m adamm.eval.devset.qa --seed 0 [--days 60] [--systems query,flat] [--limit N] [--json]
                                   [--show-failures]
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
import time
from collections import defaultdict
from typing import Any, Sequence

from tqdm import tqdm

from adamm.eval.devset.history import generate
from adamm.eval.devset.questions import AGGREGATE_CATEGORIES, CATEGORIES, DevQuestion, generate_questions, is_correct
from adamm.memory import Memory
from adamm.nodes.context import Context

SYSTEMS = {"query": "adamm.graphs.query", "flat": "adamm.graphs.flat"}


def spread(questions: Sequence[DevQuestion], limit: int | None) -> list[DevQuestion]:
    """At most ``limit`` questions, taken round-robin over categories (in generation order), so a
    small run still touches every category instead of only the first one."""
    if limit is None or limit >= len(questions):
        return list(questions)
    by_cat: dict[str, list[DevQuestion]] = defaultdict(list)
    for q in questions:
        by_cat[q.category].append(q)
    picked: set[str] = set()
    depth = 0
    while len(picked) < limit:
        for cat in CATEGORIES:
            if depth < len(by_cat[cat]) and len(picked) < limit:
                picked.add(by_cat[cat][depth].question_id)
        depth += 1
    return [q for q in questions if q.question_id in picked]


def _accuracy(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    good = sum(r["correct"] for r in rows)
    return {"correct": good, "total": n, "accuracy": good / n if n else None}


def summarize(results: list[dict[str, Any]], systems: Sequence[str]) -> dict[str, Any]:
    """Accuracy per system: per category, over the aggregate categories, and overall."""
    out: dict[str, Any] = {}
    for system in systems:
        mine = [r for r in results if r["system"] == system]
        out[system] = {
            "by_category": {c: _accuracy([r for r in mine if r["category"] == c]) for c in CATEGORIES},
            "aggregate": _accuracy([r for r in mine if r["category"] in AGGREGATE_CATEGORIES]),
            "overall": _accuracy(mine),
            "errors": sum(1 for r in mine if r.get("error")),
            "seconds_per_question": (sum(r["seconds"] for r in mine) / len(mine)) if mine else None,
        }
    return out


def run(seed: int = 0, days: int = 60, systems: Sequence[str] = ("query", "flat"), limit: int | None = None,
        per_category: int = 12, question_seed: int = 0, home: str | None = None) -> dict[str, Any]:
    """Generate, ingest, ask, score. ``home`` keeps the memory there (default: a temporary one)."""
    from adamm.nodes.backends import reset_backends  # noqa: PLC0415 - heavy: the stores' code, only for a run

    unknown = [s for s in systems if s not in SYSTEMS]
    if unknown:
        raise ValueError(f"unknown system(s) {', '.join(unknown)}; choose from {', '.join(SYSTEMS)}")
    graphs = {s: importlib.import_module(SYSTEMS[s]).graph for s in systems}
    devset = generate(seed, days)
    questions = spread(generate_questions(devset, per_category=per_category, seed=question_seed), limit)

    tmp = None if home else tempfile.TemporaryDirectory(prefix="adamm-devset-qa-")
    # The documented offline default, whatever the caller's shell says: the numbers must be
    # comparable between runs and machines.
    ctx = Context(home=home or tmp.name, database_url=None, chroma_url=None,  # type: ignore[union-attr]
                  extractor="rules", describer="rules", planner="rules", answerer="rules", judge="rules")
    memory_id = f"devset-{seed}-{days}"
    results: list[dict[str, Any]] = []
    try:
        stored = Memory(memory_id, context=ctx).ingest(devset.rounds, progress="ingest").counts
        with tqdm(total=len(questions) * len(systems), desc="ask", unit="q", file=sys.stderr, disable=None) as bar:
            for system, graph in graphs.items():
                for q in questions:
                    results.append(_ask(graph, ctx, memory_id, q, system))
                    bar.update(1)
    finally:
        reset_backends()
        if tmp is not None:
            tmp.cleanup()
    return {
        "seed": seed,
        "days": days,
        "rounds": len(devset.rounds),
        "rounds_stored": stored.get("rounds_added", 0) + stored.get("rounds_unchanged", 0),
        "questions": len(questions),
        "systems": list(systems),
        "summary": summarize(results, systems),
        "results": results,
    }


def _ask(graph: Any, ctx: Any, memory_id: str, q: DevQuestion, system: str) -> dict[str, Any]:
    """One question through one graph; a crash is a wrong answer with its error kept, so a
    half-built planner still yields a table."""
    t0 = time.perf_counter()
    answer, citations, error = "", [], None
    try:
        out = graph.invoke({"memory_id": memory_id, "question": q.question, "now": q.now}, context=ctx)
        answer = str(out.get("answer") or "")
        citations = [c.get("round_id") for c in out.get("citations") or []]
    except Exception as exc:  # noqa: BLE001 - reported per question
        error = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    return {
        "system": system, "question_id": q.question_id, "category": q.category, "kind": q.kind,
        "question": q.question, "now": q.now, "gold": q.gold, "answer": answer, "citations": citations,
        "evidence_round_ids": q.evidence_round_ids, "correct": error is None and is_correct(q, answer),
        "error": error, "seconds": round(time.perf_counter() - t0, 4),
    }


def _pct(acc: dict[str, Any]) -> str:
    return "-" if acc["accuracy"] is None else f"{100 * acc['accuracy']:5.1f}% ({acc['correct']}/{acc['total']})"


def format_table(report: dict[str, Any]) -> str:
    systems = report["systems"]
    summary = report["summary"]
    width = max(len(_pct(summary[s]["overall"])) for s in systems) + 2
    lines = [f"dev set seed {report['seed']}, {report['days']} days, {report['rounds']} rounds, "
             f"{report['questions']} questions",
             f"{'category':<12}" + "".join(f"{s:>{width}}" for s in systems)]
    rows = [(c, lambda s, c=c: summary[s]["by_category"][c]) for c in CATEGORIES]
    rows += [("aggregate", lambda s: summary[s]["aggregate"]), ("overall", lambda s: summary[s]["overall"])]
    for name, get in rows:
        if name == "aggregate":
            lines.append("-" * (12 + width * len(systems)))
        if all(get(s)["total"] == 0 for s in systems):
            continue
        lines.append(f"{name:<12}" + "".join(f"{_pct(get(s)):>{width}}" for s in systems))
    errors = {s: summary[s]["errors"] for s in systems if summary[s]["errors"]}
    if errors:
        lines.append("errors: " + ", ".join(f"{s} {n}" for s, n in errors.items()))
    timed = [s for s in systems if summary[s]["seconds_per_question"] is not None]
    lines.append("seconds per question: " + ", ".join(f"{s} {summary[s]['seconds_per_question']:.3f}" for s in timed))
    return "\n".join(lines)


def format_failures(report: dict[str, Any]) -> str:
    out = []
    for r in report["results"]:
        if r["correct"]:
            continue
        out.append(f"[{r['system']}] {r['question_id']} {r['category']} (now {r['now']})\n"
                   f"  Q: {r['question']}\n  gold: {r['gold']}\n"
                   f"  got:  {r['error'] or r['answer'] or '(empty)'}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m adamm.eval.devset.qa", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--days", type=int, default=60)
    p.add_argument("--systems", default="query,flat", help=f"comma-separated, from {', '.join(SYSTEMS)}")
    p.add_argument("--limit", type=int, help="ask at most N questions, spread over the categories")
    p.add_argument("--per-category", type=int, default=12)
    p.add_argument("--question-seed", type=int, default=0)
    p.add_argument("--home", help="keep the ingested memory in this directory (default: a temporary one)")
    p.add_argument("--json", action="store_true", help="print the report (summary and every answer) as JSON")
    p.add_argument("--show-failures", action="store_true", help="print every wrong answer")
    args = p.parse_args(argv)
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    if not systems or any(s not in SYSTEMS for s in systems):
        p.error(f"--systems: choose from {', '.join(SYSTEMS)}")
    if args.limit is not None and args.limit < 1:
        p.error("--limit must be at least 1")
    report = run(args.seed, args.days, systems, args.limit, args.per_category, args.question_seed, args.home)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False, default=str))
    else:
        print(format_table(report))
    if args.show_failures:
        failures = format_failures(report)
        print(failures or "no failures", file=sys.stderr if args.json else sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
