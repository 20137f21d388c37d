"""Wall-clock kill check: an ingest SIGKILLed at seeded moments, rerun, compared with a clean one.

    python benchmarks/bench_kill.py [--file FILE] [--points 8] [--seed 0] [--runs 1]

The deterministic kill matrix (``tests/test_kill_matrix.py``) kills at chosen writes; this is
the check a user's crash is: a real ``adamm ingest`` of FILE (default: the car-fuel scenario of
``analytic_dev``) into a fresh data directory, killed by SIGKILL after a seeded fraction of a
clean run's wall time, then the same command run again, and the memory compared with the clean
one in ``stats``, every induced table (schema, rows, cells) and the answers to fixed questions.
Prints one line per kill point and ``identical: K of N`` per run; exits 1 when any differs.
The text model is exported once into a shared cache (``ADAMM_MODEL_CACHE``), not per directory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_FILE = Path(__file__).resolve().parents[2] / "shared" / "data" / "analytic_dev" / "dialog" / "car_fuel.json"
MEMORY = "bench-kill"
QUESTIONS = ["How much did I spend on fuel in total?", "When did I last fill up?",
             "What was the average price per litre?", "How many times did I fill up?"]

#: Everything a user can see of the memory, as JSON: stats, every table with its rows, answers.
SNAPSHOT = r"""
import json, sys
from adamm.memory import Memory
from adamm.nodes.context import Context
home, memory_id, questions = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
mem = Memory(memory_id, context=Context(home=home))
out = {"stats": mem.stats(), "tables": {}, "answers": []}
for info in mem.tables():
    rows = [{k: v for k, v in r.items() if k not in ("id", "created_at", "updated_at")} for r in mem.rows(info.name)]
    out["tables"][info.name] = {"columns": [[c.name, c.type, c.unit] for c in info.columns],
                                "rows": sorted(rows, key=lambda r: json.dumps(r, sort_keys=True, default=str))}
for q in questions:
    a = mem.ask(q, now="2025-07-01")
    out["answers"].append([q, a.answer, sorted(a.round_ids)])
print(json.dumps(out, sort_keys=True, default=str))
"""


def _ingest_argv(home: Path, file: Path) -> list[str]:
    return [sys.executable, "-m", "adamm.cli", "--home", str(home), "ingest", str(file), "--memory-id", MEMORY]


def _snapshot(home: Path, env: dict[str, str]) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", SNAPSHOT, str(home), MEMORY, json.dumps(QUESTIONS)],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _differences(a: Any, b: Any, path: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b)) for d in
                (_differences(a[k], b[k], f"{path}.{k}") if k in a and k in b else [f"{path}.{k}: only in one"])]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r:.120} != {b!r:.120}"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--points", type=int, default=8, help="kill points per run (default 8)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runs", type=int, default=1, help="consecutive runs of the whole check (default 1)")
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="adamm-kill-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADAMM_")}
    env["ADAMM_MODEL_CACHE"] = str(root / "models")
    try:
        warm = root / "warm"  # the one-time model export, not timed
        subprocess.run(_ingest_argv(warm, args.file), env=env, check=True, capture_output=True)
        clean_home = root / "clean"
        t0 = time.perf_counter()
        subprocess.run(_ingest_argv(clean_home, args.file), env=env, check=True, capture_output=True)
        wall = time.perf_counter() - t0
        clean = _snapshot(clean_home, env)
        print(f"clean ingest: {wall:.1f} s, {clean['stats'].get('rounds')} rounds, {len(clean['tables'])} tables, "
              f"{sum(len(t['rows']) for t in clean['tables'].values())} rows")
        failed = 0
        for run in range(args.runs):
            rng = random.Random(args.seed * 1000 + run)
            moments = sorted(rng.uniform(0.05, 0.97) * wall for _ in range(args.points))
            same = 0
            for i, at in enumerate(moments):
                home = root / f"run{run}-kill{i}"
                proc = subprocess.Popen(_ingest_argv(home, args.file), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(at)
                finished = proc.poll() is not None
                if not finished:
                    os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
                subprocess.run(_ingest_argv(home, args.file), env=env, check=True, capture_output=True)
                found = _differences(clean, _snapshot(home, env))
                same += not found
                what = "finished before the kill" if finished else f"killed at {at:5.1f} s ({at / wall:4.0%})"
                print(f"  run {run} point {i}: {what}: {'identical' if not found else 'DIFFERS'}")
                for d in found[:6]:
                    print(f"      {d}")
                shutil.rmtree(home, ignore_errors=True)
            print(f"run {run}: identical: {same} of {len(moments)}")
            failed += len(moments) - same
        return 1 if failed else 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
