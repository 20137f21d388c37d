"""Retrieval-hierarchy scaling: insertion cost per round at 1k vs N rounds, tool latency at N.

    python benchmarks/bench_hierarchy.py [--rounds 20000] [--batch 256] [--window 1000] [--queries 40]

A synthetic history (deterministic, no data files): one session (with its id) every 1-3 days, 8-24 turns on one of
60 themes (80 % of a turn's words from the theme's 8), themes recurring, every turn distinct text
of 30-50 words, so events, episodes and
topics all grow. Ingested through the ``ingest`` graph (analytic steps off, ``rules``
describer) into a fresh temporary directory. Printed:

- ``insert_hierarchy`` rounds/s over the first and the last ``--window`` rounds, from the
  node's own timer (round and description embeddings included: the node embeds the batch's
  rounds itself), and their per-round cost ratio (target: last / first <= 1.5);
- whole-graph ingest rounds/s (store, hierarchy, round index);
- median latency of SemanticMatch (event / episode / topic scope) and EventLocate (window 1;
  also scoped to one month of the history) at the final size: each query text new to the
  encoder's cache (its embedding counted), and again with the query vectors cached (the
  retrieval side alone: Chroma, BM25, SQL). On a loaded machine one MiniLM query embedding
  alone can take hundreds of ms.

The machine's other load shows up in every figure; compare ratios on one run.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta

THEMES = 60
WORDS = ("oven dough flour sugar butter bake cookie cake bread yeast train ticket station platform trip "
         "hotel museum bridge river hike trail summit flower bird camera lens photo garden soil seed "
         "water plant lamp wire circuit battery code bug test server query table budget rent salary "
         "invoice tax loan stock market coffee tea milk bean roast cup paint canvas brush color gallery "
         "sketch violin piano chord song concert ticket guitar drum rhythm lesson exam essay thesis "
         "lecture campus library paper chapter novel poem author library fabric dress shirt shoe "
         "jacket scarf wool cotton stitch pattern puppy kitten vet leash walk park ball toy bark").split()


def synthetic_rounds(n: int, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    themes = [rng.sample(WORDS, 8) for _ in range(THEMES)]
    out: list[dict] = []
    day = datetime(2024, 1, 1, 9)
    while len(out) < n:
        theme = themes[rng.randrange(THEMES)]
        for turn in range(rng.randint(8, 24)):
            words = [rng.choice(theme) if rng.random() < 0.8 else rng.choice(WORDS) for _ in range(rng.randint(30, 50))]
            i = len(out)
            out.append({"round_id": f"r{i}", "session_id": f"s{day:%Y%m%d}",
                        "timestamp": (day + timedelta(minutes=5 * turn)).isoformat(),
                        "user_text": f"Turn {i}: " + " ".join(words[:20]) + ".",
                        "assistant_text": " ".join(words[20:]) + "."})
            if len(out) >= n:
                break
        day += timedelta(days=rng.randint(1, 3))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=20_000)
    p.add_argument("--batch", type=int, default=256, help="rounds per graph invocation (the product default)")
    p.add_argument("--window", type=int, default=1000, help="rounds in the first / last measurement window")
    p.add_argument("--queries", type=int, default=40)
    p.add_argument("--home", help="data directory to build in and keep (default: a temporary one, removed); "
                                  "if it already holds the history, only the queries run")
    args = p.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

    from adamm.graphs.ingest import graph  # noqa: PLC0415 - builds the graphs (seconds): only where they run
    from adamm.nodes.backends import backends, reset_backends  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.nodes.context import Context  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.nodes.retrieval import event_locate, semantic_match  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

    home = args.home or tempfile.mkdtemp(prefix="adamm-bench-hierarchy-")
    ctx = Context(home=home, use_analytic=False)
    try:
        backends(ctx).text_encoder.encode(["warm up"])
        history = synthetic_rounds(args.rounds)
        if backends(ctx).sql.count_rounds("bench") >= len(history):
            history_built = True
        else:
            history_built = False
        per_batch: list[tuple[int, float]] = []  # (rounds, insert_hierarchy seconds)
        t0 = time.perf_counter()
        for start in range(0, 0 if history_built else len(history), args.batch):
            batch = history[start:start + args.batch]
            out = graph.invoke({"memory_id": "bench", "rounds": batch}, context=ctx)
            secs = sum(c.get("seconds", 0.0) for c in out["cost"] if c.get("node") == "insert_hierarchy")
            per_batch.append((len(batch), secs))
            done = start + len(batch)
            if done % (args.batch * 16) < args.batch:
                recent = per_batch[-16:]
                print(f"  {done} rounds, {time.perf_counter() - t0:.0f} s, insert_hierarchy over the last "
                      f"{sum(n for n, _ in recent)}: {sum(n for n, _ in recent) / max(1e-9, sum(x for _, x in recent)):.1f} "
                      "rounds/s", file=sys.stderr, flush=True)
        total_s = time.perf_counter() - t0

        def rate(batches: list[tuple[int, float]]) -> float:
            return sum(n for n, _ in batches) / max(1e-9, sum(s for _, s in batches))

        w = max(1, args.window // args.batch)
        sql = backends(ctx).sql
        levels = {lv: len(sql.nodes("bench", lv)) for lv in ("event", "episode", "topic")}
        print(f"rounds               {len(history)}  (events {levels['event']}, episodes {levels['episode']}, "
              f"topics {levels['topic']})")
        if per_batch:
            first, last = rate(per_batch[:w]), rate(per_batch[-w:])
            print(f"insert_hierarchy     first {w * args.batch}: {first:.1f} rounds/s   last {w * args.batch}: "
                  f"{last:.1f} rounds/s   per-round cost ratio last/first {first / last:.2f}")
            print(f"insert_hierarchy     overall {rate(per_batch):.1f} rounds/s")
            print(f"ingest graph         overall {len(history) / total_s:.1f} rounds/s")
        else:
            print(f"(history already in {home}: queries only)")

        rng = random.Random(1)
        lat: dict[str, list[float]] = {"SemanticMatch event": [], "SemanticMatch episode": [],
                                       "SemanticMatch topic": [], "EventLocate": [], "EventLocate one month": []}
        mid = datetime.fromisoformat(history[len(history) // 2]["timestamp"])
        month = (mid.replace(day=1, hour=0, minute=0), (mid.replace(day=28) + timedelta(days=4)).replace(day=1, hour=0, minute=0))
        semantic_match(ctx, "bench", "warm up", "event")  # index loading is not query latency
        semantic_match(ctx, "bench", "warm up", "episode")
        semantic_match(ctx, "bench", "warm up", "topic")
        queries = {name: [f"query {i} {name}: " + " ".join(rng.sample(WORDS, 5)) for i in range(args.queries)]
                   for name in lat}
        cached: dict[str, list[float]] = {name: [] for name in lat}

        def ask(name: str, q: str) -> float:
            t = time.perf_counter()
            if name == "EventLocate":
                event_locate(ctx, "bench", q, result_budget=10, window=1)
            elif name == "EventLocate one month":  # a time-scoped search (a question naming a month)
                event_locate(ctx, "bench", q, result_budget=10, window=1, time_range=month)
            else:
                semantic_match(ctx, "bench", q, name.split()[1], result_budget=10)
            return 1000 * (time.perf_counter() - t)

        for i in range(args.queries):
            for name in lat:
                lat[name].append(ask(name, queries[name][i]))  # new text: embedding counted
        for i in range(args.queries):
            for name in lat:
                cached[name].append(ask(name, queries[name][i]))  # query vectors now cached
        for name in lat:
            print(f"{name:<22}median {statistics.median(lat[name]):6.1f} ms (query vector cached: "
                  f"{statistics.median(cached[name]):5.1f} ms)  at {len(history)} rounds")
    finally:
        reset_backends()
        if not args.home:
            shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
