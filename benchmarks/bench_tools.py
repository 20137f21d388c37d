"""Latency of the analytic tools (Compute, Rank, Filter) over a 100k-row induced table.

    python benchmarks/bench_tools.py [--rows N] [--runs N] [--no-index] [--url URL]

Builds one induced table in a temporary SQLite file (ingested through ``SqlStore.upsert_rows``
in chunks), then times each tool call - median of ``--runs`` runs after one warm-up - and prints
a table against the 50 ms target. Runs first without and then with the suggested indexes on
the induced table (``--no-index`` stops after the first pass):

* ``(memory_id, COALESCE(observed_at, time))`` - the effective date, used by date filters and
  by the chronological order of every tool ("by date, then order");
* ``(memory_id, <numeric column>)`` - range filters, Rank and min / max / median on a column;
* ``(memory_id, <text column>)`` - the distinct values read by the case- and alias-insensitive
  ``=`` / ``!=`` / ``in`` filters on text columns, and Compute ``group_by`` a text column (count
  of rows walks the index instead of sorting the table);

and finally after ``ANALYZE``: without statistics SQLite takes any index that starts with
``memory_id`` for the (always true, one memory per physical table) ``memory_id = ?`` clause and
walks the whole table through it in index order, which makes full scans several times slower.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import warnings

from sqlalchemy import Index, func
from sqlalchemy.exc import SAWarning

from adamm.stores import analytic
from adamm.stores.sql import ColumnSpec, SqlStore

MEMORY = "bench"
TABLE = "sleep_log"
START = datetime(2020, 1, 1)
TARGET_MS = 50.0
#: A text column with 20 distinct values (some differing only in case) for group_by / share.
PLACES = ["Home", "home", "Hotel", "Parents", "Cabin", "Tent", "Couch", "Office", "Train", "Plane",
          "Friend's place", "Hostel", "Boat", "Car", "Hospital", "Airbnb", "Dorm", "Guest room", "Bunk bed", "Van"]


def build(sql: SqlStore, n: int, chunk: int = 5000) -> float:
    sql.create_table(MEMORY, TABLE, [
        ColumnSpec("total_sleep", "float", "h"), ColumnSpec("deep_sleep", "float", "h"),
        ColumnSpec("steps", "int"), ColumnSpec("mood", "text"), ColumnSpec("nap", "bool"),
        ColumnSpec("place", "text"),
    ], description="nightly sleep")
    rng = random.Random(7)
    moods = ["good", "ok", "tired", "great", "bad"]
    places = PLACES
    t0 = time.perf_counter()
    for lo in range(0, n, chunk):
        rows: list[dict[str, Any]] = []
        for i in range(lo, min(n, lo + chunk)):
            t = START + timedelta(minutes=30 * i)
            rows.append({
                "source": f"r{i}", "order": i, "time": t,
                "observed_at": (t - timedelta(days=2)).replace(hour=0, minute=0) if i % 10 == 0 else None,
                "total_sleep": round(rng.uniform(4, 9), 2) if i % 50 else None,
                "deep_sleep": round(rng.uniform(0.5, 2.5), 2), "steps": rng.randint(0, 20000),
                "mood": rng.choice(moods), "nap": i % 3 == 0, "place": rng.choice(places),
            })
        sql.upsert_rows(MEMORY, TABLE, rows)
    return time.perf_counter() - t0


def add_indexes(sql: SqlStore) -> list[str]:
    """The indexes this benchmark suggests for every induced table (see the module docstring)."""
    _, table = sql.table_handle(MEMORY, TABLE)
    name = table.name
    indexes = [
        Index(f"ix_{name}_date", table.c.memory_id, func.coalesce(table.c.observed_at, table.c.time)),
        Index(f"ix_{name}_total_sleep", table.c.memory_id, table.c.total_sleep),
        # text columns: the distinct values a categorical filter (= / != / in) reads, and the
        # first step of group_by on a text column, come from the index without a sort
        Index(f"ix_{name}_mood", table.c.memory_id, table.c.mood),
        Index(f"ix_{name}_place", table.c.memory_id, table.c.place),
    ]
    with warnings.catch_warnings():  # SQLAlchemy cannot reflect expression indexes; harmless here
        warnings.simplefilter("ignore", SAWarning)
        for ix in indexes:
            ix.create(sql.engine, checkfirst=True)
    table.indexes.difference_update(indexes)  # keep the shared metadata as sql.py built it
    return [str(ix.name) for ix in indexes]


def analyze(sql: SqlStore) -> None:
    """Planner statistics (PostgreSQL's autovacuum gathers them by itself)."""
    _, table = sql.table_handle(MEMORY, TABLE)
    with sql.engine.begin() as conn:
        conn.exec_driver_sql(f"ANALYZE {sql.engine.dialect.identifier_preparer.quote(table.name)}")


def calls(sql: SqlStore) -> list[tuple[str, Callable[[], analytic.ToolResult]]]:
    month = [{"column": "date", "op": "between", "value": ["2022-03-01", "2022-03-31"]}]
    return [
        ("Compute avg, 1-month date range", lambda: analytic.compute(sql, MEMORY, TABLE, "total_sleep", "avg", month)),
        ("Compute avg, whole table", lambda: analytic.compute(sql, MEMORY, TABLE, "total_sleep", "avg")),
        ("Compute median, whole table", lambda: analytic.compute(sql, MEMORY, TABLE, "total_sleep", "median")),
        ("Compute median, 1-month date range", lambda: analytic.compute(sql, MEMORY, TABLE, "total_sleep", "median", month)),
        ("Compute stddev, whole table", lambda: analytic.compute(sql, MEMORY, TABLE, "total_sleep", "stddev")),
        ("Compute last, whole table", lambda: analytic.compute(sql, MEMORY, TABLE, "total_sleep", "last")),
        ("Rank top-10 desc, column", lambda: analytic.rank(sql, MEMORY, TABLE, "total_sleep", "desc")),
        ("Rank top-10 desc, expression", lambda: analytic.rank(sql, MEMORY, TABLE, "deep_sleep / total_sleep * 100", "desc")),
        ("Filter numeric range, budget 10", lambda: analytic.filter_rows(
            sql, MEMORY, TABLE, [{"column": "total_sleep", "op": "between", "value": [7.5, 8.0]}], 10)),
        ("Filter date + text, budget 10", lambda: analytic.filter_rows(
            sql, MEMORY, TABLE, month + [{"column": "mood", "op": "=", "value": "Good"}], 10)),
        ("Compute count group_by text (20 values)", lambda: analytic.compute(sql, MEMORY, TABLE, "*", "count", group_by="place")),
        ("Compute sum group_by text (20 values)", lambda: analytic.compute(
            sql, MEMORY, TABLE, "total_sleep", "sum", group_by="place")),
        ("Compute avg group_by month", lambda: analytic.compute(sql, MEMORY, TABLE, "total_sleep", "avg", group_by="month")),
        ("Compute share, whole table", lambda: analytic.compute(
            sql, MEMORY, TABLE, "*", "share", condition=[{"column": "mood", "op": "=", "value": "good"}])),
        ("Compute share, text scope", lambda: analytic.compute(
            sql, MEMORY, TABLE, "*", "share", [{"column": "place", "op": "=", "value": "home"}],
            condition=[{"column": "total_sleep", "op": ">=", "value": 7}])),
        ("Compute share group_by text", lambda: analytic.compute(
            sql, MEMORY, TABLE, "*", "share", group_by="place", condition=[{"column": "nap", "op": "=", "value": True}])),
    ]


def measure(fn: Callable[[], analytic.ToolResult], runs: int) -> tuple[float, float, float, analytic.ToolResult]:
    """Median and max wall ms, and median CPU ms of this process - SQLite runs in-process, so on a
    machine busy with other work the CPU time shows what the call costs by itself."""
    result = fn()  # warm-up
    times, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        result = fn()
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return statistics.median(times), max(times), statistics.median(cpu), result


def report(title: str, sql: SqlStore, runs: int) -> bool:
    print(f"\n{title}")
    print(f"{'call':<42} {'median ms':>10} {'max ms':>8} {'cpu ms':>7} {'matched':>8} {'rows':>5}  value")
    ok = True
    for name, fn in calls(sql):
        med, worst, cpu, res = measure(fn, runs)
        ok &= med <= TARGET_MS
        flag = "" if med <= TARGET_MS else "  > target"
        value = "" if res.value is None else res.value
        if res.top_group is not None:
            value = f"{res.top_group}: {value}"
        print(f"{name:<42} {med:>10.2f} {worst:>8.2f} {cpu:>7.2f} {res.matched:>8} {len(res.rows):>5}  {value}{flag}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--no-index", action="store_true", help="only the pass without extra indexes")
    parser.add_argument("--url", default=None, help="database URL (default: a temporary SQLite file)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="adamm-bench-tools-") as tmp:
        url = args.url or f"sqlite:///{Path(tmp) / 'bench.db'}"
        sql = SqlStore(url)
        try:
            ingest_s = build(sql, args.rows)
            print(f"backend      {sql.engine.dialect.name}")
            print(f"rows         {args.rows} ({args.rows / ingest_s:,.0f} rows/s through upsert_rows)")
            print(f"runs         {args.runs} per call (median), target <= {TARGET_MS:.0f} ms")
            ok = report("1. as sql.py creates the table (no extra index)", sql, args.runs)
            if not args.no_index:
                names = add_indexes(sql)
                report(f"2. with indexes {', '.join(names)}", sql, args.runs)
                analyze(sql)
                ok = report("3. with those indexes, after ANALYZE", sql, args.runs)
        finally:
            sql.drop_memory(MEMORY)
            sql.close()
    print("\nall calls within target (last pass)" if ok else "\nsome calls above target (last pass)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
