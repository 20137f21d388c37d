"""Evidence recall@10 on the Mem-Gallery development split: flat baselines vs adamm.

    python benchmarks/bench_recall.py [--data DIR|FILE] [--limit N] [--questions N] [--rounds N]
                                      [--systems dense,bm25,hybrid,adamm] [--json OUT]
                                      [--no-query-caption] [--no-sessions] [--home DIR] [--no-progress]

Every scenario file is its own memory (memory id = file stem), ingested once through the ingest
graph (analytic steps off) into a fresh temporary data directory that all systems then share, so
every system ranks the same rounds with the same MiniLM encoder:

- ``dense``  -- the rounds' MiniLM vectors alone (flat dense top-k, "MM-RAG");
- ``bm25``   -- BM25 alone;
- ``hybrid`` -- dense + BM25 fused by RRF (the default round search);
- ``adamm``  -- ``adamm.nodes.retrieval.event_locate`` (the hierarchy), its units' round ids
  concatenated best unit first. Skipped, with a note, while that module does not exist.

Every question with at least one clue round is asked; the query is the question, plus
``"\\n[image] <caption>"`` when the question comes with an image (``--no-query-caption``: the
question alone; that text-only setting is where flat dense gets ~67 % and BM25 ~55 %, captioned
queries lift them to ~80 % / ~76 %, mostly on TTL "what is shown in the picture" questions).
Per question and system: recall@10 = |clues ∩ top-10 rounds| / |clues| and hit@10 = any clue
in the top 10; reported as means overall and per question type, with the median query latency
(each system is warmed up once per memory, untimed, so index loading is not counted, and the
query's vector is dropped from the encoder's cache before every timed call, so each system pays
for embedding it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from adamm.memory import DEFAULT_BATCH  # the batch a user's ingestion runs in

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mem_gallery" / "dialog"
SYSTEMS = ("dense", "bm25", "hybrid", "adamm")
#: Mem-Gallery question types ("point"), in the order the table shows them.
CATEGORIES = ("FR", "TTL", "VS", "MR", "AR", "VR", "TR", "CD", "KR")
K = 10

Searcher = Callable[[str, str], list[str]]  # (memory_id, query) -> ranked round ids


# -- metric: small pure functions -------------------------------------------------------------


def top_k(ranked: Iterable[str], k: int) -> list[str]:
    """The first ``k`` distinct ids of a ranking, in order."""
    return list(dict.fromkeys(ranked))[:k]


def recall_at_k(ranked: Sequence[str], gold: Iterable[str], k: int = K) -> float:
    """|gold ∩ top-k| / |gold|. A question without gold has no recall: ValueError."""
    gold_set = set(gold)
    if not gold_set:
        raise ValueError("recall@k needs at least one gold id")
    return len(gold_set & set(top_k(ranked, k))) / len(gold_set)


def hit_at_k(ranked: Sequence[str], gold: Iterable[str], k: int = K) -> float:
    """1.0 when any gold id is in the top k, else 0.0."""
    gold_set = set(gold)
    if not gold_set:
        raise ValueError("hit@k needs at least one gold id")
    return 1.0 if gold_set & set(top_k(ranked, k)) else 0.0


def category_order(categories: Iterable[str]) -> list[str]:
    """Known Mem-Gallery types first, in their usual order, then any others alphabetically."""
    present = set(categories)
    return [c for c in CATEGORIES if c in present] + sorted(present - set(CATEGORIES))


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def aggregate(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per system: mean recall and hit overall and per category, with counts, and the median
    latency. Each record has ``system``, ``category``, ``recall``, ``hit`` and optionally
    ``latency_ms``. Systems keep the order they first appear in."""
    grouped: dict[str, list[Mapping[str, Any]]] = {}
    for r in records:
        grouped.setdefault(r["system"], []).append(r)
    out: dict[str, dict[str, Any]] = {}
    for system, rows in grouped.items():
        by_cat: dict[str, dict[str, Any]] = {}
        for cat in category_order(r["category"] for r in rows):
            sub = [r for r in rows if r["category"] == cat]
            by_cat[cat] = {"n": len(sub), "recall": _mean([r["recall"] for r in sub]),
                           "hit": _mean([r["hit"] for r in sub])}
        lat = [r["latency_ms"] for r in rows if r.get("latency_ms") is not None]
        out[system] = {
            "n": len(rows),
            "recall": _mean([r["recall"] for r in rows]),
            "hit": _mean([r["hit"] for r in rows]),
            "latency_ms_median": statistics.median(lat) if lat else None,
            "by_category": by_cat,
        }
    return out


def rounds_of_units(units: Iterable[Any], k: int = K) -> list[str]:
    """A ranked round list from ranked units that each cover rounds (``round_ids``): the
    units' round ids concatenated best unit first, de-duplicated, cut at ``k``."""
    ranked: list[str] = []
    for u in units:
        ids = u.get("round_ids") if isinstance(u, Mapping) else getattr(u, "round_ids", None)
        ranked.extend(ids or [])
    return top_k(ranked, k)


def query_text(question: Any, with_caption: bool = True) -> str:
    """The question, with the caption of its image appended when it has one (and
    ``with_caption``)."""
    text = question.question
    image = getattr(question, "image", None) if with_caption else None
    caption = getattr(image, "caption", None) if image is not None else None
    if caption and caption.strip():
        text += "\n[image] " + caption.strip()
    return text


# -- report -------------------------------------------------------------------------------------


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:5.1f}"


def format_table(summary: Mapping[str, Mapping[str, Any]], k: int = K) -> str:
    """Question types as rows, systems as columns; each cell ``recall@k  hit@k`` in percent."""
    systems = list(summary)
    cats = category_order(c for s in summary.values() for c in s["by_category"])
    cell = 13
    head = f"{'type':<6}{'n':>5}  " + "".join(f"{s:>{cell}}" for s in systems)
    sub = f"{'':<6}{'':>5}  " + "".join(f"{'R@' + str(k) + '  H@' + str(k):>{cell}}" for _ in systems)
    lines = [head, sub, "-" * len(head)]

    def row(label: str, n: int, cells: list[tuple[float | None, float | None]]) -> str:
        return f"{label:<6}{n:>5}  " + "".join(f"{_pct(r) + ' ' + _pct(h):>{cell}}" for r, h in cells)

    for cat in cats:
        stats = [summary[s]["by_category"].get(cat) for s in systems]
        n = max((st["n"] for st in stats if st), default=0)
        lines.append(row(cat, n, [(st["recall"], st["hit"]) if st else (None, None) for st in stats]))
    lines.append("-" * len(head))
    n_all = max((summary[s]["n"] for s in systems), default=0)
    lines.append(row("all", n_all, [(summary[s]["recall"], summary[s]["hit"]) for s in systems]))
    lat = [summary[s]["latency_ms_median"] for s in systems]
    lines.append(f"{'ms p50':<6}{'':>5}  " + "".join(
        f"{'-' if v is None else f'{v:.1f}':>{cell}}" for v in lat))
    return "\n".join(lines)


# -- running ------------------------------------------------------------------------------------


def scenario_files(data: Path, limit: int = 0) -> list[Path]:
    """The scenario files: ``data`` itself when it is a file, else its ``*.json``, sorted."""
    files = [data] if data.is_file() else sorted(data.glob("*.json"))
    return files[:limit] if limit > 0 else files


def make_searchers(ctx: Any, systems: Sequence[str], k: int = K) -> tuple[dict[str, Searcher], dict[str, str]]:
    """The runnable systems, and a note for each one that cannot run (why)."""
    from adamm.nodes.backends import backends  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.nodes.ingest import ROUNDS_SPACE  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

    units = backends(ctx).units
    searchers: dict[str, Searcher] = {}
    skipped: dict[str, str] = {}
    for name in systems:
        if name in ("dense", "bm25", "hybrid"):
            def flat(memory_id: str, query: str, mode: str = name) -> list[str]:
                return [u.unit_id for u in units.search(memory_id, ROUNDS_SPACE, query, k, mode=mode)]
            searchers[name] = flat
        elif name == "adamm":
            try:
                from adamm.nodes.retrieval import event_locate  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
            except ImportError as exc:
                skipped[name] = f"adamm.nodes.retrieval.event_locate not importable ({exc})"
                continue

            def hierarchical(memory_id: str, query: str) -> list[str]:
                return rounds_of_units(event_locate(ctx, memory_id, query, result_budget=k, window=0), k)
            searchers[name] = hierarchical
        else:
            raise ValueError(f"unknown system {name!r}; expected some of {', '.join(SYSTEMS)}")
    return searchers, skipped


def ingest(ctx: Any, scenarios: Sequence[Any], progress: bool) -> list[dict[str, Any]]:
    """Each scenario into its own memory, in batches of DEFAULT_BATCH rounds; per-scenario timings."""
    from tqdm import tqdm  # noqa: PLC0415 - progress bars only

    from adamm.graphs.ingest import graph  # noqa: PLC0415 - builds the graphs (seconds): only where they run

    out = []
    total = sum(len(s.rounds) for s in scenarios)
    with tqdm(total=total, desc="ingest", unit="round", file=sys.stderr, disable=not progress) as bar:
        for s in scenarios:
            t = time.perf_counter()
            for start in range(0, len(s.rounds), DEFAULT_BATCH):
                batch = [r.model_dump(mode="json") for r in s.rounds[start:start + DEFAULT_BATCH]]
                graph.invoke({"memory_id": s.name, "rounds": batch}, context=ctx)
                bar.update(len(batch))
            out.append({"memory_id": s.name, "rounds": len(s.rounds), "ingest_s": time.perf_counter() - t})
    return out


def forget_query(encoder: Any, text: str) -> None:
    """Drop one text's vector from the text encoder's LRU cache, so every system pays for
    embedding the query (else the systems asked after the first one get it for free)."""
    cache, lock = getattr(encoder, "_cache", None), getattr(encoder, "_cache_lock", None)
    if cache is None or lock is None:
        return
    with lock:
        cache.pop(hashlib.sha256(text.encode("utf-8")).hexdigest(), None)


def evaluate(searchers: Mapping[str, Searcher], scenarios: Sequence[Any], max_questions: int,
             progress: bool, k: int = K, encoder: Any = None,
             query_caption: bool = True) -> list[dict[str, Any]]:
    """One record per (question with clues, system). With ``encoder``, the query's cached
    vector is dropped before each timed call."""
    from tqdm import tqdm  # noqa: PLC0415 - progress bars only

    work = []
    for s in scenarios:
        qs = [q for q in s.questions if q.evidence]
        work.append((s, qs[:max_questions] if max_questions > 0 else qs))
    records: list[dict[str, Any]] = []
    with tqdm(total=sum(len(qs) for _, qs in work), desc="questions", unit="q", file=sys.stderr,
              disable=not progress) as bar:
        for s, qs in work:
            for search in searchers.values():  # warm-up: index loading is not query latency
                search(s.name, "warm up")
            for q in qs:
                query = query_text(q, query_caption)
                has_caption = query_text(q) != q.question
                gold = list(dict.fromkeys(q.evidence))
                for name, search in searchers.items():
                    if encoder is not None:
                        forget_query(encoder, query)
                    t = time.perf_counter()
                    ranked = top_k(search(s.name, query), k)
                    ms = 1000 * (time.perf_counter() - t)
                    records.append({
                        "question_id": q.question_id, "memory_id": s.name, "category": q.category,
                        "system": name, "query": query, "image_caption": has_caption, "gold": gold, "ranked": ranked,
                        "recall": recall_at_k(ranked, gold, k), "hit": hit_at_k(ranked, gold, k),
                        "latency_ms": ms,
                    })
                bar.update(1)
    return records


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default=str(DEFAULT_DATA), help="scenario directory (*.json) or one file")
    p.add_argument("--limit", type=int, default=0, help="scenario files to use (0 = all)")
    p.add_argument("--questions", type=int, default=0, help="questions per scenario (0 = all)")
    p.add_argument("--rounds", type=int, default=0,
                   help="quick runs: ingest only the first N rounds of each scenario and ask only the "
                        "questions whose clues all lie in them (0 = all; numbers then not comparable)")
    p.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated, from: " + ", ".join(SYSTEMS))
    p.add_argument("--json", dest="json_out", help="write config, per-scenario, summary and per-question records")
    p.add_argument("--no-query-caption", action="store_true",
                   help="text-only queries: do not append the question image's caption")
    p.add_argument("--no-sessions", action="store_true",
                   help="withhold the rounds' session ids (as a history logged without them): EventLocate's "
                        "context then comes from the hierarchy's episodes")
    p.add_argument("--home", help="data directory to use and keep (default: a temporary one, removed)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    args = p.parse_args(argv)
    args.systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    bad = [s for s in args.systems if s not in SYSTEMS]
    if bad or not args.systems:
        p.error(f"--systems: unknown {', '.join(bad) or '(none given)'}; expected some of {', '.join(SYSTEMS)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    data = Path(args.data)
    if not data.exists():
        print(f"bench_recall: no data at {data}", file=sys.stderr)
        return 2

    from adamm.formats import load  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.nodes.backends import backends  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.nodes.context import Context  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.stores.records import DEFAULT_SESSION  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

    files = scenario_files(data, args.limit)
    if not files:
        print(f"bench_recall: no *.json scenario files in {data}", file=sys.stderr)
        return 2
    scenarios = [load(f).scenarios[0] for f in files]
    for s, f in zip(scenarios, files):
        s.name = f.stem  # memory id = file stem
        if args.no_sessions:
            s.rounds = [r.model_copy(update={"session_id": DEFAULT_SESSION}) for r in s.rounds]
        if args.rounds > 0:
            s.rounds = s.rounds[:args.rounds]
            kept = {r.round_id for r in s.rounds}
            s.questions = [q for q in s.questions if set(q.evidence) <= kept]

    own_home = args.home is None
    home = tempfile.mkdtemp(prefix="adamm-bench-recall-") if own_home else args.home
    ctx = Context(home=home, use_analytic=False)
    progress = not args.no_progress
    try:
        t = time.perf_counter()
        backends(ctx).text_encoder.encode(["warm up"])
        load_s = time.perf_counter() - t
        per_scenario = ingest(ctx, scenarios, progress)
        searchers, skipped = make_searchers(ctx, args.systems)
        for name, why in skipped.items():
            print(f"note: system {name!r} skipped: {why}", file=sys.stderr)
        if not searchers:
            print("bench_recall: no system to run", file=sys.stderr)
            return 1
        records = evaluate(searchers, scenarios, args.questions, progress, encoder=backends(ctx).text_encoder,
                           query_caption=not args.no_query_caption)
    finally:
        if own_home:
            from adamm.nodes.backends import reset_backends  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

            reset_backends()
            shutil.rmtree(home, ignore_errors=True)

    summary = aggregate(records)
    n_rounds = sum(p["rounds"] for p in per_scenario)
    n_q = len({r["question_id"] for r in records})
    with_image = len({r["question_id"] for r in records if r["image_caption"]})
    print(f"\nevidence recall@{K} / hit@{K} (%) -- {len(scenarios)} scenario(s), {n_rounds} rounds, "
          f"{n_q} questions with clues ({with_image} with an image caption"
          f"{' appended' if not args.no_query_caption else '; text-only queries'})")
    print(f"model load {load_s:.1f} s, ingest {sum(p['ingest_s'] for p in per_scenario):.1f} s")
    print(format_table(summary))
    for name, why in skipped.items():
        print(f"({name}: skipped -- {why})")
    if args.json_out:
        doc = {
            "config": {"data": str(data), "files": [f.name for f in files], "k": K, "batch": DEFAULT_BATCH,
                       "session_ids": not args.no_sessions,
                       "systems": list(searchers), "skipped": skipped,
                       "query_image_caption": not args.no_query_caption,
                       "questions_per_scenario": args.questions or None,
                       "rounds_per_scenario": args.rounds or None,
                       "text_encoder": ctx.text_encoder or "packaged all-MiniLM-L6-v2"},
            "scenarios": per_scenario,
            "timing": {"model_load_s": load_s},
            "summary": summary,
            "records": records,
        }
        Path(args.json_out).write_text(json.dumps(doc, indent=1, ensure_ascii=False), encoding="utf-8")
        print(f"wrote {args.json_out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
