"""Ingestion and query throughput of the current pipeline on the Mem-Gallery development split.

    python benchmarks/bench_ingest.py [DATA_DIR] [--limit N]

Ingests every scenario file into its own memory in a fresh temporary data directory (one
process, so model loading is paid once and reported separately), then asks each scenario's
first questions, and prints rounds/s, per-round and per-question latencies.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mem_gallery" / "dialog"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--limit", type=int, default=0, help="scenario files to use (0 = all)")
    parser.add_argument("--questions", type=int, default=10, help="questions asked per scenario")
    args = parser.parse_args()

    home = tempfile.mkdtemp(prefix="adamm-bench-")
    os.environ["ADAMM_HOME"] = home
    from adamm.cli import ask, ingest_rounds
    from adamm.formats import load
    from adamm.nodes.backends import backends
    from adamm.nodes.context import Context

    ctx = Context()
    t0 = time.perf_counter()
    backends(ctx).text_encoder.encode(["warm up"])
    load_s = time.perf_counter() - t0

    files = sorted(Path(args.data).glob("*.json"))[: args.limit or None]
    n_rounds, ingest_s, q_lat = 0, 0.0, []
    for f in files:
        scenario = load(f).scenarios[0]
        t = time.perf_counter()
        ingest_rounds(ctx, scenario.name, scenario.rounds, label=scenario.name)
        ingest_s += time.perf_counter() - t
        n_rounds += len(scenario.rounds)
        for q in scenario.questions[: args.questions]:
            t = time.perf_counter()
            ask(ctx, scenario.name, q.question)
            q_lat.append(time.perf_counter() - t)
    print(f"scenarios            {len(files)}")
    print(f"rounds ingested      {n_rounds}")
    print(f"model load (s)       {load_s:.2f}")
    print(f"ingest (s)           {ingest_s:.2f}")
    print(f"ingest rounds/s      {n_rounds / ingest_s:.1f}")
    print(f"questions            {len(q_lat)}")
    if q_lat:
        print(f"query median (ms)    {1000 * statistics.median(q_lat):.1f}")
        print(f"query p95 (ms)       {1000 * sorted(q_lat)[int(0.95 * (len(q_lat) - 1))]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
