"""Analytic ingestion throughput: extraction (rules) + schema induction + materialization.

    python benchmarks/bench_analytic.py [--days 365] [--batch 64]

Generates the dashboard dev set, ingests it into a fresh SQLite memory with the retrieval index
switched off (hierarchy/vectors excluded, as the target states), and prints rounds/s, the per-node
time split and the resulting tables' score against the ground truth.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.environ["ADAMM_HOME"] = tempfile.mkdtemp(prefix="adamm-bench-analytic-")

    from adamm.memory import Memory  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.eval.devset.history import generate  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.eval.devset.score import score  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.graphs.ingest import graph  # noqa: PLC0415 - builds the graphs (seconds): only where they run
    from adamm.nodes.context import Context  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.nodes.cost import summarize  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

    from adamm.nodes.backends import backends  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

    ctx = Context(use_retrieval=False)
    t = time.perf_counter()
    backends(ctx).text_encoder.encode(["warm up"])  # attribute names may need embeddings: load once
    print(f"model load (s)      {time.perf_counter() - t:.2f}  (not counted below)")
    devset = generate(seed=args.seed, days=args.days)
    payload = [r.model_dump(mode="json") for r in devset.rounds]
    cost: list[dict] = []
    t0 = time.perf_counter()
    for start in range(0, len(payload), args.batch):
        out = graph.invoke({"memory_id": "bench", "rounds": payload[start:start + args.batch]}, context=ctx)
        cost += out["cost"]
    wall = time.perf_counter() - t0
    s = summarize(cost)
    result = score(devset, Memory("bench", context=ctx).table_documents())
    print(f"rounds              {len(payload)}")
    print(f"wall (s)            {wall:.2f}")
    print(f"rounds/s            {len(payload) / wall:.0f}")
    for node, v in s["by_node"].items():
        print(f"  {node:<18}{1000 * v['seconds'] / len(payload):.2f} ms/round")
    print(f"tables              {result.tables} (spurious: {result.spurious_tables})")
    print(f"rows lost           {result.rows_lost}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
