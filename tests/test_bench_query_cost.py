"""benchmarks/bench_query_cost.py: its percentile, and a run whose counts come from the server."""

from __future__ import annotations

import re
import subprocess
import sys

from adamm.tests.needs import ANALYTIC_DEV, require
from adamm.tests.scripts import REPO, load_script

bq = load_script("benchmarks/bench_query_cost.py")


def test_nearest_rank_percentile() -> None:
    values = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10]
    assert bq.percentile(values, 50) == 5 and bq.percentile(values, 90) == 9 and bq.percentile(values, 100) == 10
    assert bq.percentile([3], 90) == 3
    assert bq.percentile([1, 2], 50) == 1  # nearest rank: the first value at or above the share


def test_wordpiece_counter_counts_subwords() -> None:
    from adamm.tests.openai_stub import wordpiece_counter

    count = wordpiece_counter()
    assert count("") == 0 and count("sleep well tonight") == 3
    assert count("2025-03-04") >= 5  # dashes and digit groups are tokens of their own, unlike a word count


def test_a_run_counts_calls_and_tokens_from_the_server(tmp_path) -> None:
    """Questions of one analytic_dev scenario, the planner and answerer over the wire: every
    answer is the replayed rules answer, and the per-question cost stays within the budget
    (at most 6 calls and 6,000 tokens at p90) - a prompt that bloats fails here."""
    require(ANALYTIC_DEV.is_dir(), f"no analytic_dev data at {ANALYTIC_DEV}", shared_data=True)
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "bench_query_cost.py"), "--data", str(ANALYTIC_DEV),
                           "--scenarios", "car_fuel", "--limit", "8"], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "replay check: wired answer == rules answer on 8/8 questions" in out, out
    calls = re.search(r"^model calls\s+(\d+)\s+(\d+)\s+(\d+)", out, flags=re.M)
    tokens = re.search(r"^tokens \(in \+ out\)\s+(\d+)\s+(\d+)\s+(\d+)", out, flags=re.M)
    assert calls and tokens, out
    assert 3 <= int(calls.group(1)) and int(calls.group(2)) <= 6  # plan, >= 1 call, answer; p90 within budget
    assert 1000 < int(tokens.group(1)) and int(tokens.group(2)) <= 6000, out
