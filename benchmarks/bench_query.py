"""Query-graph latency with the rules backend (model calls and tokens per question:
``benchmarks/bench_query_cost.py``, counted by a server).

    python benchmarks/bench_query.py [--days 60] [--seed 0] [--questions N] [--home DIR] [--tools]

Builds the synthetic analytic development history (``adamm.eval.devset``, ``--days`` days; 60 days
is 222 rounds, 5,400 days about 20k) in ``--home`` (reused when it already holds it), asks the
development questions (``adamm.eval.devset.questions``) through the ``query`` graph and prints:

* latency with ``rules`` everywhere (no model time exists to exclude): median / p90 per
  question and the median per node;
* with ``--tools``: the median latency of EventLocate and SemanticMatch (event, episode,
  topic scope) on the same memory, 20 calls each, query embedding included (each call a text
  the encoder has not seen).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from adamm.eval.devset.history import generate
from adamm.eval.devset.questions import generate_questions
from adamm.graphs.query import graph
from adamm.memory import Memory
from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.cost import summarize

MEMORY = "bench"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--days", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--questions", type=int, default=0, help="ask at most this many (0: all)")
    ap.add_argument("--home", help="data directory to build or reuse (default: a temporary one)")
    ap.add_argument("--tools", action="store_true", help="also time the retrieval tools on the same memory")
    args = ap.parse_args(argv)

    home = Path(args.home or tempfile.mkdtemp(prefix="adamm-bench-query-"))
    ctx = Context(home=str(home))
    dev = generate(seed=args.seed, days=args.days)
    if backends(ctx).sql.count_rounds(MEMORY) < len(dev.rounds):
        t = time.perf_counter()
        Memory(MEMORY, context=ctx).ingest(dev.rounds, progress="ingest")
        print(f"ingested {len(dev.rounds)} rounds in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    questions = generate_questions(dev)
    if args.questions:
        questions = questions[: args.questions]
    rounds = backends(ctx).sql.count_rounds(MEMORY)

    graph.invoke({"memory_id": MEMORY, "question": "warm-up: average sleep?"}, context=ctx)
    latencies, by_node = [], {}
    for q in questions:
        t = time.perf_counter()
        out = graph.invoke({"memory_id": MEMORY, "question": q.question, "now": q.now}, context=ctx)
        latencies.append(time.perf_counter() - t)
        for node, s in summarize(out["cost"])["by_node"].items():
            by_node.setdefault(node, []).append(s["seconds"])
    lat = sorted(latencies)
    print(f"rules backend, {rounds} rounds, {len(questions)} questions")
    print(f"latency per question: median {statistics.median(lat) * 1000:.0f} ms, p90 {lat[int(0.9 * (len(lat) - 1))] * 1000:.0f} ms")
    print("median per node: " + ", ".join(f"{n} {statistics.median(v) * 1000:.1f} ms" for n, v in by_node.items()))

    if args.tools:
        from adamm.nodes.retrieval import event_locate, semantic_match  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

        texts = [f"{q.question} (timing {i})" for i, q in enumerate(questions[:20])]
        tools = {"EventLocate": lambda t: event_locate(ctx, MEMORY, t, 10),
                 **{f"SemanticMatch {scope}": (lambda t, scope=scope: semantic_match(ctx, MEMORY, t, scope, 10))
                    for scope in ("event", "episode", "topic")}}
        for name, call in tools.items():
            times = []
            for text in texts:
                t = time.perf_counter()
                call(text)
                times.append(time.perf_counter() - t)
            print(f"{name:<22} median {statistics.median(times) * 1000:.0f} ms")

    return 0


if __name__ == "__main__":
    raise SystemExit(main())
