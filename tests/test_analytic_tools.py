"""The analytic tools (Lookup, Filter, Compute, Rank) against answers computed here in plain
Python over the same rows; SQLite always, PostgreSQL for a representative subset."""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect, select

from adamm.stores import analytic
from adamm.stores.analytic import ToolError, ToolResult, compute, filter_rows, lookup, rank, resolve_column, resolve_table
from adamm.stores.records import parse_time
from adamm.stores.sql import StoreError, ColumnSpec, SqlStore, cast_value

ALICE, BOB = "alice", "bob"
COLUMNS = [
    ColumnSpec("total_sleep", "float", "h", "hours slept"),
    ColumnSpec("deep_sleep", "float", "h"),
    ColumnSpec("steps", "int"),
    ColumnSpec("mood", "text"),
    ColumnSpec("nap", "bool"),
    ColumnSpec("bedtime", "datetime"),
]
TYPES = {c.name: c.type for c in COLUMNS} | {"source": "text", "order": "int", "time": "datetime", "observed_at": "datetime", "date": "datetime"}


def _data() -> list[dict[str, Any]]:
    totals = [7.2, 6.5, 8.4, 5.9, 7.0, 6.1, 7.7, None, 0.0, 6.8, 7.3, 8.4, 6.6, 7.1]
    deeps = [1.4, 1.1, 2.0, 0.9, 1.3, 1.0, 1.6, 1.2, 0.0, 1.2, None, 1.9, 1.1, 1.5]
    moods = ["good", "Tired", "great", "bad", "good", "okay", "GOOD", "tired", "bad", "good", "okay", "great", "good", None]
    rows = []
    for i in range(14):
        logged = datetime(2025, 3, 1 + i, 8, 0)
        rows.append({
            "source": f"r{i}", "order": i, "time": logged, "observed_at": None,
            "total_sleep": totals[i], "deep_sleep": deeps[i], "steps": 4000 + 750 * i - (1200 if i % 4 == 0 else 0),
            "mood": moods[i], "nap": i % 3 == 0, "bedtime": logged - timedelta(hours=9, minutes=5 * i),
        })
    rows[5]["observed_at"] = datetime(2025, 3, 4)  # logged on Mar 6, about Mar 4
    rows[12]["observed_at"] = datetime(2025, 2, 27)  # logged on Mar 13, about Feb 27
    return rows


DATA = _data()


def eff(row: dict[str, Any]) -> datetime | None:
    return row["observed_at"] or row["time"]


def chrono(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: (eff(r) is None, eff(r) or datetime.min, r["order"]))


def on_days(lo: date, hi: date) -> list[dict[str, Any]]:
    return [r for r in DATA if lo <= eff(r).date() <= hi]


def build(sql: SqlStore) -> SqlStore:
    sql.create_table(ALICE, "sleep_log", COLUMNS, description="nightly sleep")
    sql.upsert_rows(ALICE, "sleep_log", DATA)
    sql.create_table(ALICE, "water_intake", [ColumnSpec("glasses", "int")])
    sql.upsert_rows(ALICE, "water_intake", [{"source": "w0", "order": 20, "time": datetime(2025, 3, 2, 12), "glasses": 6}])
    # another memory with a table of the same name, same round ids, wildly different values
    sql.create_table(BOB, "sleep_log", COLUMNS)
    sql.upsert_rows(BOB, "sleep_log", [{**r, "total_sleep": 100.0 + i, "mood": "bob", "steps": 10**6} for i, r in enumerate(DATA)])
    return sql


@pytest.fixture(scope="module")
def sql(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SqlStore]:
    """One SQLite store for the read-only tests of this module (the tools never write)."""
    s = build(SqlStore(f"sqlite:///{tmp_path_factory.mktemp('db') / 'adamm.db'}"))
    yield s
    s.close()


@pytest.fixture
def both(db_url: str) -> Iterator[SqlStore]:
    s = build(SqlStore(db_url))
    yield s
    s.close()


def sources(rows: list[dict[str, Any]]) -> list[str]:
    return [r["source"] for r in rows]


# -- Compute ----------------------------------------------------------------------------------------


def test_average_over_a_date_range(both: SqlStore) -> None:
    flt = [{"column": "date", "op": "between", "value": ["2025-03-03", "2025-03-09"]}]
    res = compute(both, ALICE, "sleep_log", "total_sleep", "avg", flt)
    contributing = [r for r in on_days(date(2025, 3, 3), date(2025, 3, 9)) if r["total_sleep"] is not None]
    assert res.value == pytest.approx(statistics.fmean(r["total_sleep"] for r in contributing), abs=1e-6)
    assert res.matched == len(contributing) == 6  # the end day counts whole; r5 (about Mar 4) is in, r7 (NULL) out
    assert "r5" in res.sources and "r8" in res.sources
    assert res.sources == sources(chrono(contributing))
    assert res.units == 1 and res.tool == "Compute" and res.operator == "avg" and res.expression == "total_sleep"
    assert res.value == round(res.value, 6)  # no float noise
    # the same window written with comparison operators and with "mean"
    alt = compute(both, ALICE, "sleep_log", "Total Sleep", "mean",
                  [{"column": "date", "op": ">=", "value": "2025-03-03"}, {"column": "date", "op": "<=", "value": "2025-03-09"}])
    assert alt.value == res.value and alt.matched == res.matched


def test_observed_at_overrides_time_in_date_filters(both: SqlStore) -> None:
    # r5 was logged on Mar 6 about Mar 4: it counts for Mar 4, not for Mar 6
    mar4 = lookup(both, ALICE, "sleep_log", {"date": "2025-03-04"})
    assert mar4.sources == ["r5", "r3"] and mar4.matched == 2  # Mar 4 00:00 (observed) before Mar 4 08:00
    assert lookup(both, ALICE, "sleep_log", {"date": "2025-03-06"}).rows == []
    assert compute(both, ALICE, "sleep_log", "*", "count", [{"column": "date", "op": "=", "value": "2025-03-04"}]).value == 2
    # the round time itself stays available
    assert lookup(both, ALICE, "sleep_log", {"time": "2025-03-06"}).sources == ["r5"]
    row = mar4.rows[0]
    assert row["time"] == datetime(2025, 3, 6, 8) and row["observed_at"] == datetime(2025, 3, 4) and row["date"] == datetime(2025, 3, 4)
    # a month as a period
    march = filter_rows(both, ALICE, "sleep_log", [{"column": "date", "op": "=", "value": "2025-03"}], result_budget=100)
    assert sorted(march.sources) == sorted(r["source"] for r in DATA if eff(r).month == 3)


def test_count_with_a_condition(sql: SqlStore) -> None:
    good = [r for r in DATA if (r["mood"] or "").lower() == "good"]
    res = compute(sql, ALICE, "sleep_log", "*", "count", [{"column": "mood", "op": "=", "value": "Good"}])
    assert res.value == res.matched == len(good) == 5  # text equality ignores case
    assert res.sources == sources(chrono(good))
    # count of a column counts its non-null values
    assert compute(sql, ALICE, "sleep_log", "total_sleep", "count").value == sum(r["total_sleep"] is not None for r in DATA)
    assert compute(sql, ALICE, "sleep_log", "mood", "count").value == 13
    assert compute(sql, ALICE, "sleep_log", "mood", "count_distinct").value == len({r["mood"] for r in DATA if r["mood"]})
    naps = compute(sql, ALICE, "sleep_log", "*", "count", [{"column": "nap", "op": "=", "value": "yes"},
                                                             {"column": "steps", "op": ">", "value": 5000}])
    assert naps.value == sum(1 for r in DATA if r["nap"] and r["steps"] > 5000)
    empty = compute(sql, ALICE, "sleep_log", "*", "count", [{"column": "mood", "op": "contains", "value": "zzz"}])
    assert empty.value == 0 and empty.rows == [] and empty.units == 1


def test_extreme_value_and_its_date(both: SqlStore) -> None:
    best = max(r["total_sleep"] for r in DATA if r["total_sleep"] is not None)
    holders = chrono([r for r in DATA if r["total_sleep"] == best])
    top = rank(both, ALICE, "sleep_log", "total_sleep", "desc", result_budget=1)
    assert top.rows[0]["total_sleep"] == best == 8.4
    assert top.rows[0]["date"] == eff(holders[0]) == datetime(2025, 3, 3, 8)  # ties: earliest date first
    assert top.matched == 13 and top.units == 1 and top.operator == "desc"
    mx = compute(both, ALICE, "sleep_log", "total_sleep", "max")
    assert mx.value == best and mx.sources == sources(holders) == ["r2", "r11"]
    low = compute(both, ALICE, "sleep_log", "total_sleep", "min", [{"column": "total_sleep", "op": ">", "value": 0}])
    assert low.value == 5.9 and low.sources == ["r3"]


def test_rank_order_ties_and_budget(sql: SqlStore) -> None:
    valued = [r for r in DATA if r["total_sleep"] is not None]
    want_desc = sorted(chrono(valued), key=lambda r: -r["total_sleep"])  # stable: ties keep date order
    res = rank(sql, ALICE, "sleep_log", "total_sleep", "highest", result_budget=5)
    assert res.sources == sources(want_desc[:5]) and res.matched == len(valued) and res.units == 5
    want_asc = sorted(chrono(valued), key=lambda r: r["total_sleep"])
    assert rank(sql, ALICE, "sleep_log", "total_sleep", "asc", result_budget=3).sources == sources(want_asc[:3])
    in_march = rank(sql, ALICE, "sleep_log", "steps", "desc", [{"column": "date", "op": "between", "value": ["2025-03-01", "2025-03-05"]}], 2)
    window = chrono(on_days(date(2025, 3, 1), date(2025, 3, 5)))
    assert in_march.sources == sources(sorted(window, key=lambda r: -r["steps"])[:2])
    # rank by a datetime and by a text column
    assert rank(sql, ALICE, "sleep_log", "bedtime", "asc", result_budget=1).sources == [min(DATA, key=lambda r: r["bedtime"])["source"]]
    assert rank(sql, ALICE, "sleep_log", "mood", "desc", result_budget=1).rows[0]["mood"] == max(r["mood"] for r in DATA if r["mood"]) == "tired"


def test_latest_first_and_delta(both: SqlStore) -> None:
    valued = chrono([r for r in DATA if r["total_sleep"] is not None])
    last = compute(both, ALICE, "sleep_log", "total_sleep", "last")
    assert last.value == valued[-1]["total_sleep"] and last.sources == [valued[-1]["source"]] == ["r13"]
    first = compute(both, ALICE, "sleep_log", "total_sleep", "first")
    assert first.sources == ["r12"] and first.value == 6.6  # about Feb 27: the earliest by date, not by log order
    delta = compute(both, ALICE, "sleep_log", "total_sleep", "delta")
    assert delta.value == pytest.approx(7.1 - 6.6) and delta.sources == ["r12", "r13"] and delta.matched == len(valued)
    steps_delta = compute(both, ALICE, "sleep_log", "steps", "delta", [{"column": "date", "op": "between", "value": ["2025-03-02", "2025-03-05"]}])
    window = chrono(on_days(date(2025, 3, 2), date(2025, 3, 5)))
    assert steps_delta.value == window[-1]["steps"] - window[0]["steps"] and isinstance(steps_delta.value, int)
    latest_mood = compute(both, ALICE, "sleep_log", "mood", "latest")
    assert latest_mood.value == chrono([r for r in DATA if r["mood"]])[-1]["mood"]
    assert compute(both, ALICE, "sleep_log", "bedtime", "last").value == chrono(DATA)[-1]["bedtime"].isoformat()


def test_sum_median_stddev(both: SqlStore) -> None:
    vals = [r["total_sleep"] for r in DATA if r["total_sleep"] is not None]
    assert compute(both, ALICE, "sleep_log", "total_sleep", "sum").value == pytest.approx(sum(vals))
    med = compute(both, ALICE, "sleep_log", "total_sleep", "median")
    assert med.value == statistics.median(vals)
    assert all(r["total_sleep"] in (sorted(vals)[6],) for r in med.rows)  # the rows holding the middle value
    sd = compute(both, ALICE, "sleep_log", "total_sleep", "stddev")
    assert sd.value == pytest.approx(statistics.stdev(vals), abs=1e-6) and sd.matched == len(vals)
    steps = [r["steps"] for r in DATA]
    assert compute(both, ALICE, "sleep_log", "steps", "median").value == statistics.median(steps)
    assert compute(both, ALICE, "sleep_log", "steps", "sum").value == sum(steps)
    assert isinstance(compute(both, ALICE, "sleep_log", "steps", "sum").value, int)
    assert compute(both, ALICE, "sleep_log", "steps", "avg").value == pytest.approx(statistics.fmean(steps), abs=1e-6)
    even = [r["total_sleep"] for r in on_days(date(2025, 3, 1), date(2025, 3, 5)) if r["total_sleep"] is not None]
    assert len(even) % 2 == 0
    res = compute(both, ALICE, "sleep_log", "total_sleep", "median", [{"column": "date", "op": "between", "value": ["2025-03-01", "2025-03-05"]}])
    assert res.value == pytest.approx(statistics.median(even)) and res.matched == len(even)
    one = compute(both, ALICE, "sleep_log", "total_sleep", "stddev", [{"column": "source", "op": "=", "value": "r0"}])
    assert one.value is None and one.matched == 1
    none = compute(both, ALICE, "sleep_log", "total_sleep", "avg", [{"column": "date", "op": "=", "value": "2030-01-01"}])
    assert none.value is None and none.matched == 0 and none.rows == []


def test_median_beyond_the_in_memory_limit(sql: SqlStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analytic, "MEDIAN_FETCH", 3)  # force the count + offset path
    for flt, rows in [(None, DATA), ([{"column": "date", "op": "between", "value": ["2025-03-01", "2025-03-04"]}],
                                     on_days(date(2025, 3, 1), date(2025, 3, 4)))]:
        vals = [r["total_sleep"] for r in rows if r["total_sleep"] is not None]
        assert compute(sql, ALICE, "sleep_log", "total_sleep", "median", flt).value == pytest.approx(statistics.median(vals))


def test_expressions_as_targets(both: SqlStore) -> None:
    ratio = {r["source"]: r["deep_sleep"] / r["total_sleep"] * 100 for r in DATA
             if r["deep_sleep"] is not None and r["total_sleep"]}  # NULLs and 0/0 drop out
    res = compute(both, ALICE, "sleep_log", "deep_sleep / total_sleep * 100", "max")
    best = max(ratio, key=ratio.get)
    assert res.value == pytest.approx(ratio[best], abs=1e-6) and res.sources == [best]
    assert res.expression == "deep_sleep / total_sleep * 100" and res.matched == len(ratio)
    assert res.rows[0]["deep_sleep / total_sleep * 100"] == pytest.approx(ratio[best], abs=1e-6)
    avg = compute(both, ALICE, "sleep_log", "Deep_Sleep / Total_Sleep * 100", "avg")
    assert avg.value == pytest.approx(statistics.fmean(ratio.values()), abs=1e-6) and avg.expression == "deep_sleep / total_sleep * 100"
    rounded = rank(both, ALICE, "sleep_log", "round(deep_sleep / total_sleep * 100, 1)", "asc", result_budget=3)
    want = sorted(chrono([r for r in DATA if r["source"] in ratio]), key=lambda r: round(ratio[r["source"]], 1))[:3]
    assert rounded.sources == sources(want)
    assert [r["round(deep_sleep / total_sleep * 100, 1)"] for r in rounded.rows] == [round(ratio[s], 1) for s in sources(want)]
    months = compute(both, ALICE, "sleep_log", "month(date)", "count_distinct")
    assert months.value == len({eff(r).month for r in DATA}) == 2
    mondays = compute(both, ALICE, "sleep_log", "weekday(date)", "count", [{"column": "date", "op": "between", "value": ["2025-03-01", "2025-03-14"]}])
    assert mondays.value == len(on_days(date(2025, 3, 1), date(2025, 3, 14)))
    late = rank(both, ALICE, "sleep_log", "hour(bedtime) * 60", "desc", result_budget=1)
    assert late.rows[0]["hour(bedtime) * 60"] == max(r["bedtime"].hour * 60 for r in DATA)


# -- name tolerance and unknown names ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sleep_log", "Sleep Log", "sleep-logs", "sleep logs", "SLEEP_LOG_TABLE", "sleep_table",
                                  "sleep", "table sleep log", "sleep_lgo", "Sleep-Log "])
def test_table_name_tolerance(sql: SqlStore, name: str) -> None:
    assert resolve_table(sql, ALICE, name).name == "sleep_log"


@pytest.mark.parametrize(("name", "want"), [
    ("total_sleep", "total_sleep"), ("Total Sleep", "total_sleep"), ("total-sleep", "total_sleep"), ("TOTAL_SLEEPS", "total_sleep"),
    ("totl_sleep", "total_sleep"), ("Date", "date"), ("observed at", "observed_at"), ("round_id", "source"), ("Order", "order"),
    ("naps", "nap"), ("timestamp", "time"),
])
def test_column_name_tolerance(sql: SqlStore, name: str, want: str) -> None:
    assert resolve_column(resolve_table(sql, ALICE, "sleep_log"), name) == want


def test_unknown_names_list_the_valid_ones(sql: SqlStore) -> None:
    with pytest.raises(ToolError, match=r"unknown table 'weather'; tables: sleep_log, water_intake"):
        compute(sql, ALICE, "weather", "x", "avg")
    with pytest.raises(ToolError, match=r"unknown column 'rem_sleep'.*columns: total_sleep, deep_sleep, steps, mood, nap, bedtime, source, order, time, observed_at, date"):
        compute(sql, ALICE, "sleep_log", "rem_sleep", "avg")
    with pytest.raises(ToolError, match=r"unknown column 'memory_id'"):
        filter_rows(sql, ALICE, "sleep_log", [{"column": "memory_id", "op": "=", "value": BOB}])
    with pytest.raises(ToolError, match=r"unknown column 'row_id'"):
        rank(sql, ALICE, "sleep_log", "row_id")
    with pytest.raises(ToolError, match=r"unknown operator 'mode'; operators: count, count_distinct, sum, avg, median, min, max, stddev, first, last, delta"):
        compute(sql, ALICE, "sleep_log", "total_sleep", "mode")
    with pytest.raises(ToolError, match=r"unknown operator 'like'.*operators: =, !=, <, <=, >, >=, between, in, contains, mentions, is_null, not_null"):
        filter_rows(sql, ALICE, "sleep_log", [{"column": "mood", "op": "like", "value": "g%"}])
    with pytest.raises(ToolError, match=r"order must be 'desc' or 'asc'"):
        rank(sql, ALICE, "sleep_log", "total_sleep", "sideways")
    with pytest.raises(ToolError, match=r"tables: \(none\)"):
        lookup(sql, "carol", "sleep_log", {"mood": "good"})


def test_target_names_with_spaces(sql: SqlStore) -> None:
    assert compute(sql, ALICE, "sleep_log", "Totl Slep", "max").expression == "total_sleep"
    assert compute(sql, ALICE, "sleep_log", "deep-sleep", "max").expression == "deep_sleep"
    with pytest.raises(ToolError, match=r"unknown column 'rem sleep' in table 'sleep_log'; columns: total_sleep"):
        compute(sql, ALICE, "sleep_log", "rem sleep", "max")
    with pytest.raises(ToolError, match=r"unknown column 'rem'"):
        compute(sql, ALICE, "sleep_log", "rem / total_sleep", "max")


def test_operator_aliases(sql: SqlStore) -> None:
    def n(op: str, value: Any, column: str = "total_sleep") -> int:
        return filter_rows(sql, ALICE, "sleep_log", [{"column": column, "op": op, "value": value}], 100).matched

    valued = [r["total_sleep"] for r in DATA if r["total_sleep"] is not None]
    assert n("≥", 7) == n(">=", 7) == n("gte", 7) == sum(v >= 7 for v in valued)
    assert n("≤", 7) == n("<=", 7) == sum(v <= 7 for v in valued)
    assert n("≠", 7.0) == n("!=", 7.0) == sum(v != 7 for v in valued)
    assert n("in", [7.0, 8.4]) == 3
    assert n("is null", None) == n("is_null", None) == 1 and n("not_null", None) == 13
    assert n("contains", "OOD", "mood") == sum("ood" in (r["mood"] or "").lower() for r in DATA)
    assert filter_rows(sql, ALICE, "sleep_log", [{"column": "mood", "operator": "=", "value": "great"}]).sources == ["r2", "r11"]
    assert filter_rows(sql, ALICE, "sleep_log", {"column": "mood", "value": "great"}).sources == ["r2", "r11"]


# -- type errors and invalid arguments ---------------------------------------------------------------------


@pytest.mark.parametrize(("call", "message"), [
    (lambda s: compute(s, ALICE, "sleep_log", "mood", "avg"), r"'avg' needs a numeric target, 'mood' is text"),
    (lambda s: compute(s, ALICE, "sleep_log", "bedtime", "sum"), r"'sum' needs a numeric target, 'bedtime' is datetime"),
    (lambda s: compute(s, ALICE, "sleep_log", "nap", "median"), r"'median' needs a numeric target, 'nap' is bool"),
    (lambda s: compute(s, ALICE, "sleep_log", "mood", "delta"), r"'delta' needs a numeric target"),
    (lambda s: compute(s, ALICE, "sleep_log", "time * 2", "max"), r"column 'time' is datetime"),
    (lambda s: compute(s, ALICE, "sleep_log", "mood + 1", "max"), r"column 'mood' is text"),
    (lambda s: compute(s, ALICE, "sleep_log", "year(steps)", "max"), r"needs a datetime column, column 'steps' is int"),
    (lambda s: compute(s, ALICE, "sleep_log", "*", "avg"), r"target '\*' only works with operator 'count'"),
    (lambda s: compute(s, ALICE, "sleep_log", "1 + 2", "sum"), r"must refer to a column"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", [{"column": "steps", "op": "contains", "value": "4"}]), r"'contains' needs a text column, 'steps' is int"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", [{"column": "mood", "op": ">", "value": "a"}]), r"'>' needs a numeric or datetime column, 'mood' is text"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", [{"column": "nap", "op": "between", "value": [0, 1]}]), r"'nap' is bool"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", [{"column": "total_sleep", "op": "=", "value": "lots"}]), r"column 'total_sleep' expects float, got 'lots'"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", [{"column": "date", "op": ">", "value": "last week"}]), r"column 'date' expects datetime"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", [{"column": "bedtime", "op": ">", "value": 5}]), r"column 'bedtime' expects datetime"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", [{"column": "nap", "op": "=", "value": "maybe"}]), r"column 'nap' expects bool"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", [{"column": "steps", "op": "between", "value": [10, 1]}]), r"low <= high"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", [{"column": "steps", "op": "between", "value": 5}]), r"needs \[low, high\]"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", [{"column": "mood", "op": "=", "value": None}]), r"use is_null"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", [{"column": "mood", "op": "=", "value": ["a"]}]), r"single value"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", [{"column": "mood", "op": "=", "values": "a"}]), r"unknown keys \['values'\]"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", ["mood = good"]), r"column_filters\[0\] must be an object"),
    (lambda s: filter_rows(s, ALICE, "sleep_log", "mood = good"), r"column_filters must be a list"),
    (lambda s: lookup(s, ALICE, "sleep_log", {}), r"key_values must be a non-empty object"),
    (lambda s: lookup(s, ALICE, "sleep_log", {"mood": {"$ne": 1}}), r"single value"),
])
def test_invalid_arguments(sql: SqlStore, call: Any, message: str) -> None:
    with pytest.raises(ToolError, match=message):
        call(sql)


@pytest.mark.parametrize("budget", [0, -1, 1001, "10", 2.5, True, None])
def test_result_budget_is_validated(sql: SqlStore, budget: Any) -> None:
    with pytest.raises(ToolError, match="result_budget must be an integer from 1 to 1000"):
        filter_rows(sql, ALICE, "sleep_log", [], result_budget=budget)
    with pytest.raises(ToolError, match="result_budget"):
        compute(sql, ALICE, "sleep_log", "total_sleep", "avg", result_budget=budget)


def test_budget_cut_keeps_the_match_count(sql: SqlStore) -> None:
    flt = [{"column": "total_sleep", "op": ">", "value": 6.5}]
    want = chrono([r for r in DATA if r["total_sleep"] is not None and r["total_sleep"] > 6.5])
    res = filter_rows(sql, ALICE, "sleep_log", flt, result_budget=3)
    assert res.matched == len(want) == 9 and res.sources == sources(want[:3]) and res.units == 3
    assert filter_rows(sql, ALICE, "sleep_log", flt, result_budget=1000).sources == sources(want)
    avg = compute(sql, ALICE, "sleep_log", "total_sleep", "avg", flt, result_budget=2)
    assert avg.units == 1 and avg.matched == 9 and len(avg.rows) == 2
    assert avg.value == pytest.approx(statistics.fmean(r["total_sleep"] for r in want), abs=1e-6)
    everything = filter_rows(sql, ALICE, "sleep_log", [], result_budget=1000)
    assert everything.sources == sources(chrono(DATA))


def test_lookup_keys(sql: SqlStore) -> None:
    assert lookup(sql, ALICE, "sleep_log", {"mood": "GREAT"}).sources == ["r2", "r11"]
    assert lookup(sql, ALICE, "sleep_log", {"mood": "great", "date": "2025-03-12"}).sources == ["r11"]
    assert lookup(sql, ALICE, "sleep_log", {"source": ["r1", "r4", "nope"]}).sources == ["r1", "r4"]
    assert lookup(sql, ALICE, "sleep_log", {"total_sleep": None}).sources == ["r7"]
    assert lookup(sql, ALICE, "sleep_log", {"bedtime": DATA[3]["bedtime"].isoformat()}).sources == ["r3"]
    assert lookup(sql, ALICE, "sleep_log", {"date": date(2025, 3, 4)}).sources == ["r5", "r3"]
    res = lookup(sql, ALICE, "sleep_log", {"nap": True}, result_budget=2)
    assert res.matched == sum(r["nap"] for r in DATA) and len(res.rows) == 2
    row = lookup(sql, ALICE, "sleep_log", {"source": "r0"}).rows[0]
    assert list(row) == ["source", "order", "time", "observed_at", "date", "total_sleep", "deep_sleep", "steps", "mood", "nap", "bedtime"]
    assert row == {**{k: v for k, v in DATA[0].items()}, "date": DATA[0]["time"]}


def test_result_is_json_serializable(sql: SqlStore) -> None:
    res = compute(sql, ALICE, "sleep_log", "bedtime", "max", [{"column": "date", "op": "between", "value": ["2025-03-01", "2025-03-05"]}])
    data = json.loads(json.dumps(res.to_dict()))
    assert data["tool"] == "Compute" and data["value"] == res.value and isinstance(data["value"], str)
    assert data["rows"][0]["time"] == res.rows[0]["time"].isoformat()
    assert data["sources"] == res.sources and data["filters"][0]["column"] == "date"
    assert isinstance(res, ToolResult)


def test_undated_rows_come_after_dated_ones(tmp_path: Path) -> None:
    s = SqlStore(f"sqlite:///{tmp_path / 'u.db'}")
    s.create_table("m", "notes", [ColumnSpec("score", "int")])
    s.upsert_rows("m", "notes", [{"source": "a", "order": 0, "score": 1}, {"source": "b", "order": 1, "time": datetime(2025, 3, 1), "score": 5},
                                 {"source": "c", "order": 2, "time": datetime(2025, 2, 1), "score": 3}, {"source": "d", "order": 3, "score": 9}])
    assert filter_rows(s, "m", "notes", []).sources == ["c", "b", "a", "d"]
    assert compute(s, "m", "notes", "score", "first").sources == ["c"]
    assert compute(s, "m", "notes", "score", "last").sources == ["b"]
    assert compute(s, "m", "notes", "score", "delta").value == 2
    assert compute(s, "m", "notes", "score", "last", [{"column": "date", "op": "is_null"}]).sources == ["d"]
    assert rank(s, "m", "notes", "order", "asc").sources == ["a", "b", "c", "d"]
    s.close()


def test_an_attribute_cannot_be_named_date(tmp_path: Path) -> None:
    """``date`` is the tools' virtual column (observed date, else round time): reserved."""
    s = SqlStore(f"sqlite:///{tmp_path / 'd.db'}")
    with pytest.raises(StoreError, match="reserved"):
        s.create_table("m", "visits", [ColumnSpec("date", "text"), ColumnSpec("cost", "float")])
    assert s.tables("m") == []
    s.close()


# -- tenants and hostile arguments ----------------------------------------------------------------------------


def test_tenant_isolation(both: SqlStore) -> None:
    assert compute(both, ALICE, "sleep_log", "total_sleep", "max").value == 8.4
    assert compute(both, BOB, "sleep_log", "total_sleep", "max").value == 113.0
    assert compute(both, ALICE, "sleep_log", "*", "count").value == len(DATA)
    assert lookup(both, ALICE, "sleep_log", {"mood": "bob"}).rows == []
    with pytest.raises(ToolError, match="tables: sleep_log$"):
        lookup(both, BOB, "water_intake", {"glasses": 6})
    # even rows of another memory inside this memory's physical table are never read
    info, table = both.table_handle(ALICE, "sleep_log")
    with both.engine.begin() as conn:
        conn.execute(table.insert(), [{"memory_id": BOB, "source": "intruder", "order": 99, "time": datetime(2025, 3, 20),
                                       "total_sleep": 99.0, "deep_sleep": 9.0, "steps": 1, "mood": "good"}])
    assert compute(both, ALICE, "sleep_log", "total_sleep", "max").value == 8.4
    assert compute(both, ALICE, "sleep_log", "*", "count").value == len(DATA)
    assert "intruder" not in rank(both, ALICE, "sleep_log", "total_sleep", result_budget=100).sources
    assert "intruder" not in filter_rows(both, ALICE, "sleep_log", [{"column": "mood", "op": "=", "value": "good"}], 100).sources
    assert compute(both, ALICE, "sleep_log", "total_sleep", "last").sources == ["r13"]
    assert compute(both, ALICE, "sleep_log", "total_sleep", "median").value == statistics.median(
        r["total_sleep"] for r in DATA if r["total_sleep"] is not None)


HOSTILE = "x; DROP TABLE adamm_rounds"


def test_hostile_arguments_are_refused_or_bound(both: SqlStore) -> None:
    before = compute(both, ALICE, "sleep_log", "*", "count").value
    refused = [
        lambda: compute(both, ALICE, HOSTILE, "total_sleep", "avg"),
        lambda: compute(both, ALICE, "sleep_log", HOSTILE, "avg"),
        lambda: compute(both, ALICE, "sleep_log", "total_sleep", HOSTILE),
        lambda: compute(both, ALICE, "sleep_log", "total_sleep); DROP TABLE adamm_rounds; --", "max"),
        lambda: rank(both, ALICE, "sleep_log", "total_sleep", HOSTILE),
        lambda: rank(both, ALICE, "sleep_log", "__import__('os').system('rm -rf /')"),
        lambda: filter_rows(both, ALICE, "sleep_log", [{"column": HOSTILE, "op": "=", "value": 1}]),
        lambda: filter_rows(both, ALICE, "sleep_log", [{"column": "mood", "op": HOSTILE, "value": 1}]),
        lambda: filter_rows(both, ALICE, "sleep_log", [{"column": "total_sleep", "op": "=", "value": HOSTILE}]),
        lambda: filter_rows(both, ALICE, "sleep_log", [{"column": "date", "op": "<", "value": HOSTILE}]),
        lambda: lookup(both, ALICE, "sleep_log", {HOSTILE: 1}),
        lambda: lookup(both, ALICE, "sleep_log", {"mood": "a\x00b"}),
        lambda: lookup(both, HOSTILE, HOSTILE, {"mood": 1}),
    ]
    for call in refused:
        with pytest.raises(ToolError):
            call()
    # as a text value it is just a value: bound, compared, matched by nothing
    assert lookup(both, ALICE, "sleep_log", {"mood": HOSTILE}).rows == []
    assert lookup(both, ALICE, "sleep_log", {"mood": "' OR '1'='1"}).rows == []
    assert filter_rows(both, ALICE, "sleep_log", [{"column": "mood", "op": "contains", "value": "%"}]).rows == []
    assert filter_rows(both, ALICE, "sleep_log", [{"column": "mood", "op": "contains", "value": "_"}]).rows == []
    assert filter_rows(both, ALICE, "sleep_log", [{"column": "mood", "op": "in", "value": [HOSTILE, "great"]}]).sources == ["r2", "r11"]
    # a hostile memory id is a bound value too
    assert compute(both, ALICE, "sleep_log", "*", "count").value == before
    names = set(inspect(both.engine).get_table_names())
    assert {"adamm_rounds", "adamm_tables"} <= names
    assert both.has_physical_table(both.table(ALICE, "sleep_log").physical_name)
    assert both.count_rows(ALICE, "sleep_log") == len(DATA) and both.count_rows(BOB, "sleep_log") == len(DATA)


def test_tools_are_read_only(sql: SqlStore) -> None:
    info, table = sql.table_handle(ALICE, "sleep_log")
    with sql.engine.connect() as conn:
        snapshot = conn.execute(select(table).order_by(table.c.row_id)).all()
    compute(sql, ALICE, "sleep_log", "total_sleep", "median")
    rank(sql, ALICE, "sleep_log", "deep_sleep / total_sleep", "desc")
    filter_rows(sql, ALICE, "sleep_log", [{"column": "date", "op": "between", "value": ["2025-03-01", "2025-03-03"]}])
    lookup(sql, ALICE, "sleep_log", {"mood": "good"})
    with sql.engine.connect() as conn:
        assert conn.execute(select(table).order_by(table.c.row_id)).all() == snapshot


# -- property: any filter either is refused or returns only rows that satisfy it ---------------------------------


_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MONTH = re.compile(r"^\d{4}-\d{2}$")


def _period(value: Any) -> tuple[datetime, datetime] | None:
    if isinstance(value, date) and not isinstance(value, datetime):
        start = datetime(value.year, value.month, value.day)
    elif isinstance(value, str) and _DAY.match(value.strip()):
        start = datetime.fromisoformat(value.strip())
    elif isinstance(value, str) and _MONTH.match(value.strip()):
        start = datetime.fromisoformat(value.strip() + "-01")
        if start.year == 9999 and start.month == 12:
            return start, datetime.max
        return start, datetime(start.year + 1, 1, 1) if start.month == 12 else datetime(start.year, start.month + 1, 1)
    else:
        return None
    return start, (start + timedelta(days=1) if start.date() < date.max else datetime.max)


def _words(text: str) -> set[str]:
    """Words with a letter, lower case, a trailing plural s (or ies) folded."""
    out = set()
    for w in re.findall(r"[^\W_]+", text.lower()):
        if any(ch.isalpha() for ch in w):
            if len(w) > 4 and w.endswith("ies"):
                w = w[:-3] + "y"
            elif len(w) > 4 and w.endswith(("sses", "shes", "ches", "xes")):
                w = w[:-2]
            elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
                w = w[:-1]
            out.add(w)
    return out


def _equal(actual: Any, value: Any, ctype: str, column: str = "") -> bool:
    if ctype == "datetime":
        period = _period(value)
        if period:
            return period[0] <= actual < period[1]
        return actual == parse_time(value)
    if ctype == "text" and column == "mood":  # a categorical attribute: case- and alias-insensitive
        if actual.strip().lower() == str(value).strip().lower():
            return True
        want, have = _words(str(value)), _words(actual)
        return bool(want and want <= have) or bool(have and have <= want)
    if ctype == "text":
        return actual.lower() == str(value).strip().lower()
    if ctype in ("int", "float"):
        return actual == float(value)
    return actual == cast_value(value, "bool", "x")


def satisfies(row: dict[str, Any], f: dict[str, Any]) -> bool:
    """The filter semantics, written independently of the tool."""
    column, op, value = f["column"], f["op"], f.get("value")
    actual, ctype = row[column] if column != "date" else eff(row), TYPES[column]
    if op == "is_null":
        return actual is None
    if op == "not_null":
        return actual is not None
    if actual is None:
        return False
    if op == "=":
        return _equal(actual, value, ctype, column)
    if op == "!=":
        return not _equal(actual, value, ctype, column)
    if op == "in":
        values = list(value) if isinstance(value, (list, tuple, set)) else [value]
        return any(_equal(actual, v, ctype, column) for v in values)
    if op == "contains":
        return str(value).lower() in actual.lower()
    if op == "mentions":  # every word (plural folded) starts a word of the cell
        cell = actual.lower()
        for w in (w for w in re.findall(r"[a-z0-9]+", str(value).lower()) if len(w) > 1):
            stem = (w[:-2] if w.endswith(("shes", "ches", "xes", "sses")) else w[:-1]) if len(w) >= 4 and w.endswith("s") and not w.endswith("ss") else w
            if not re.search(r"(?:^|[ ('\-‘\"])" + re.escape(stem), cell):
                return False
        return True
    if op == "between":
        lo, hi = value
        if ctype == "datetime":
            lo_p, hi_p = _period(lo), _period(hi)
            lo_v = lo_p[0] if lo_p else parse_time(lo)
            return lo_v <= actual < hi_p[1] if hi_p else lo_v <= actual <= parse_time(hi)
        return float(lo) <= actual <= float(hi)
    if ctype == "datetime":
        period = _period(value)
        if period:
            return {"<": actual < period[0], "<=": actual < period[1], ">": actual >= period[1], ">=": actual >= period[0]}[op]
        value = parse_time(value)
    else:
        value = float(value)
    return {"<": actual < value, "<=": actual <= value, ">": actual > value, ">=": actual >= value}[op]


_dates = st.sampled_from(["2025-03-04", "2025-03-01", "2025-02-27", "2025-03", "2025-02", "2025-03-06T08:00:00", "2025-03-10 08:00",
                          "2025-13-01", "yesterday", "2025-03-04T00:00:00+02:00", "0001-01-01", "9999-12-31"])
_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["good", "GREAT", " okay ", "r5", "7.0", "8.4", "yes", "no", "1", "0", "%", "_", HOSTILE]),
    st.text(max_size=8), _dates, st.dates(), st.datetimes(min_value=datetime(2025, 2, 20), max_value=datetime(2025, 3, 20)),
)
_values = st.one_of(_scalars, st.lists(_scalars, max_size=3), st.dictionaries(st.text(max_size=3), _scalars, max_size=2))
_columns = st.one_of(st.sampled_from(list(TYPES) + ["Total Sleep", "DATE", "moods", "memory_id", "row_id", "", "x; DROP"]),
                     st.text(max_size=12), st.integers(), st.none())
_ops = st.one_of(st.sampled_from(analytic.FILTER_OPS + ("≥", "≤", "≠", "==", "is null", "gte", "like", "", "; --")),
                 st.text(max_size=4), st.none(), st.integers())
_garbage = st.one_of(
    st.fixed_dictionaries({"column": _columns, "op": _ops, "value": _values}),
    st.fixed_dictionaries({"column": _columns, "op": _ops}),
    st.dictionaries(st.sampled_from(["column", "op", "value", "operator", "values"]), st.one_of(_columns, _ops, _values), max_size=3),
    _scalars,
)
_typed = {
    "float": st.one_of(st.sampled_from([r["total_sleep"] for r in DATA if r["total_sleep"] is not None] + [0, 1.2, "7.0"]),
                       st.floats(-1, 10), st.integers(-2, 20000)),
    "int": st.one_of(st.sampled_from([r["steps"] for r in DATA] + [3, "4000", 7.5]), st.integers(-2, 20000), st.floats(0, 15000)),
    "text": st.one_of(st.sampled_from(["good", "GREAT", " okay ", "r5", "r12", "ired", "o", "%", "_", HOSTILE, "Goods",
                                       "good great", "TIRED ****7730", "not good", "bad-okay", "okays"]), st.text(max_size=4)),
    "bool": st.sampled_from([True, False, "yes", "no", 1, 0, "true", "maybe"]),
    "datetime": st.one_of(_dates, st.sampled_from([r["time"] for r in DATA] + [r["bedtime"] for r in DATA]),
                          st.dates(min_value=date(2025, 2, 25), max_value=date(2025, 3, 16)),
                          st.datetimes(min_value=datetime(2025, 2, 25), max_value=datetime(2025, 3, 16))),
}


def _well_formed(column: str) -> st.SearchStrategy[dict[str, Any]]:
    one = _typed[TYPES[column]]
    spelled = st.sampled_from([column, column.upper(), column.replace("_", " ")])
    return st.one_of(
        st.fixed_dictionaries({"column": spelled, "op": st.sampled_from(analytic.FILTER_OPS + ("≥", "≤", "≠")), "value": one}),
        st.fixed_dictionaries({"column": spelled, "op": st.just("between"), "value": st.lists(one, min_size=2, max_size=2)}),
        st.fixed_dictionaries({"column": spelled, "op": st.just("in"), "value": st.lists(one, min_size=0, max_size=3)}),
    )


_valid = st.sampled_from(list(TYPES)).flatmap(_well_formed)
_filter = st.integers(0, 7).flatmap(lambda i: _garbage if i == 0 else _valid)  # mostly well-formed, some garbage


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(filters=st.lists(_filter, max_size=3), budget=st.one_of(st.integers(1, 20), st.integers(-2, 1002)))
def test_any_filter_is_refused_or_exact(sql: SqlStore, filters: list[Any], budget: int) -> None:
    try:
        res = filter_rows(sql, ALICE, "sleep_log", filters, result_budget=budget)
    except ToolError:
        return
    assert 1 <= budget <= 1000
    want = [r for r in chrono(DATA) if all(satisfies(r, f) for f in res.filters)]
    assert res.matched == len(want)
    assert res.sources == sources(want[:budget])
    for row in res.rows:
        assert row["mood"] != "bob"
        assert all(satisfies(row, f) for f in res.filters)
    assert not any(math.isnan(v) for r in res.rows for v in r.values() if isinstance(v, float))


def test_overflow_is_a_tool_error_or_a_number(both: SqlStore) -> None:
    target = "steps * steps * steps * steps * steps"
    want = float(max(r["steps"] for r in DATA)) ** 5
    if both.engine.dialect.name == "sqlite":  # SQLite turns an integer overflow into a float
        assert compute(both, ALICE, "sleep_log", target, "max").value == pytest.approx(want)
    else:  # PostgreSQL refuses it; the tool says so instead of leaking a driver error
        with pytest.raises(ToolError, match="could not evaluate"):
            compute(both, ALICE, "sleep_log", target, "max")
    assert compute(both, ALICE, "sleep_log", "steps * steps * steps", "max").value == max(r["steps"] for r in DATA) ** 3


_targets = st.one_of(
    st.sampled_from(list(TYPES) + ["*", "Total Sleep", "deep_sleep / total_sleep * 100", "round(steps / 1000, 1)", "month(date)",
                                   "weekday(bedtime)", "hour(time) - 8", "-total_sleep", "abs(order - 7)", "mood + 1", HOSTILE]),
    st.text(alphabet="abcdeglopstr_ ()+-*/,.0123456789", max_size=25),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(target=_targets, op=st.sampled_from(analytic.COMPUTE_OPS + ("mean", "latest", "mode", "")), direction=st.sampled_from(["desc", "asc", "up"]))
def test_any_target_is_refused_or_computed(sql: SqlStore, target: str, op: str, direction: str) -> None:
    try:
        res = compute(sql, ALICE, "sleep_log", target, op, result_budget=5)
    except ToolError:
        pass
    else:
        assert res.units == 1 and len(res.rows) <= 5 and res.matched >= len(res.rows)
        if res.operator in ("count", "count_distinct"):
            assert isinstance(res.value, int) and res.value <= res.matched
        json.dumps(res.to_dict())
    try:
        ranked = rank(sql, ALICE, "sleep_log", target, direction, result_budget=5)
    except ToolError:
        return
    assert ranked.units == len(ranked.rows) <= 5 and ranked.matched >= len(ranked.rows)
    values = [r[ranked.expression] for r in ranked.rows]  # the target column, or the expression's value
    assert None not in values
    assert values == sorted(values, reverse=ranked.operator == "desc")


def test_a_condition_on_a_linked_table(both: SqlStore) -> None:
    """"Pages of memoir": reading sessions narrowed by the genre their book was started with,
    through the column both tables have (a semi-join), never across memories."""
    t0 = datetime(2025, 1, 1)
    both.create_table(ALICE, "book_log", [ColumnSpec("book", "text"), ColumnSpec("genre", "text")])
    both.upsert_rows(ALICE, "book_log", [
        {"source": "b0", "order": 0, "time": t0, "book": "The Ledger", "genre": "memoir"},
        {"source": "b1", "order": 1, "time": t0, "book": "Orchards", "genre": "science fiction"},
        {"source": "b2", "order": 2, "time": t0, "book": "Bells", "genre": "Memoir"},
    ])
    both.create_table(ALICE, "session_log", [ColumnSpec("book", "text"), ColumnSpec("pages", "int")])
    sessions = [("the ledger ", 10), ("Orchards", 20), ("Bells", 5), ("Unknown", 7), (None, 3), ("The Ledger", 1)]
    both.upsert_rows(ALICE, "session_log", [{"source": f"s{i}", "order": 10 + i, "time": t0 + timedelta(days=i), "book": b, "pages": p}
                                            for i, (b, p) in enumerate(sessions)])
    # another memory calls a book of the same title a memoir: it must not count for alice
    both.create_table(BOB, "book_log", [ColumnSpec("book", "text"), ColumnSpec("genre", "text")])
    both.upsert_rows(BOB, "book_log", [{"source": "x", "order": 0, "time": t0, "book": "Orchards", "genre": "memoir"}])

    memoir = {"column": "genre", "op": "=", "value": "memoir", "table": "book_log", "via": "book"}
    assert compute(both, ALICE, "session_log", "pages", "sum", [memoir]).value == 16
    assert compute(both, ALICE, "session_log", "*", "count", [memoir]).value == 3
    assert compute(both, ALICE, "session_log", "pages", "sum", [{**memoir, "value": "science fiction"}]).value == 20
    days = filter_rows(both, ALICE, "session_log", [memoir, {"column": "pages", "op": ">", "value": 4}], 10)
    assert days.sources == ["s0", "s2"]
    assert days.filters[0] == {"column": "genre", "op": "=", "value": "memoir", "table": "book_log", "via": "book"}
    with pytest.raises(ToolError, match="needs both 'table' and 'via'"):
        compute(both, ALICE, "session_log", "pages", "sum", [{"column": "genre", "value": "memoir", "table": "book_log"}])
    with pytest.raises(ToolError, match="attribute column of both"):
        compute(both, ALICE, "session_log", "pages", "sum", [{**memoir, "via": "source"}])
    with pytest.raises(ToolError, match="unknown column 'genre' in table 'sleep_log'"):
        compute(both, ALICE, "session_log", "pages", "sum", [{**memoir, "table": "sleep_log"}])
    with pytest.raises(ToolError, match="tables:"):
        compute(both, ALICE, "session_log", "pages", "sum", [{**memoir, "table": "no_such_log"}])
