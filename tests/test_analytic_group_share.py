"""Compute with group_by, the share operator, delta / count_distinct / first / last, and the
case- and alias-insensitive categorical filters - every value checked against one computed
here in plain Python from the inserted rows, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import re
import statistics
from collections import defaultdict
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from adamm.stores import analytic, analytic_filters
from adamm.stores.analytic import ToolError, compute, filter_rows, lookup, rank
from adamm.stores.sql import ColumnSpec, SqlStore

MEM = "ada"
_E = ("source", "time", "observed_at", "amount", "category", "payee", "method")
EXPENSES = [dict(zip(_E, r, strict=True)) for r in [
    ("e0", datetime(2025, 1, 3, 9), None, 2.50, "transit", "Ventra", "DEBIT CARD ****7730"),
    ("e1", datetime(2025, 1, 5, 12), None, 54.20, "groceries", "Jewel-Osco", "Debit card"),
    ("e2", datetime(2025, 1, 9, 8), None, 2.50, "Transit", "ventra", "debit"),
    ("e3", datetime(2025, 1, 20, 19), None, 38.00, "dining", "Sushi Place", "credit card"),
    ("e4", datetime(2025, 2, 2, 9), datetime(2025, 1, 31), 2.50, "transit", "Ventra", "DEBIT CARD ****7730"),  # about Jan 31
    ("e5", datetime(2025, 2, 4, 18), None, 71.35, "groceries", "Jewel-Osco", "Credit Card"),
    ("e6", datetime(2025, 2, 10, 13), None, 12.00, "dining", "Chipotle", "cash"),
    ("e7", datetime(2025, 2, 14, 20), None, 95.00, "dining", "Sushi Place", "credit card"),
    ("e8", datetime(2025, 2, 21, 9), None, 5.00, "transit", "Uber", "Debit Card"),
    ("e9", datetime(2025, 3, 1, 10), None, 2.50, "transit", "Ventra ", "debit card ****1234"),
    ("e10", datetime(2025, 3, 3, 11), None, None, "groceries", "Jewel-Osco", "debit"),  # amount not said
    ("e11", datetime(2025, 3, 7, 17), None, 40.10, None, "Target", None),
]]
_M = ("source", "time", "observed_at", "opponent", "result", "duration_min", "surface")
MATCHES = [dict(zip(_M, r, strict=True)) for r in [
    ("m0", datetime(2025, 4, 1, 18), None, "Alex", "WIN", 62, "clay"),
    ("m1", datetime(2025, 4, 3, 18), datetime(2025, 3, 31), "Sam", "loss", 95, "hard"),  # told on Apr 3 about Mar 31
    ("m2", datetime(2025, 4, 6, 18), None, "Alex", "Win", 48, "hard"),
    ("m3", datetime(2025, 4, 10, 18), None, "Jordan", "win", 131, "clay"),
    ("m4", datetime(2025, 4, 12, 18), None, "Sam", "LOSS", 77, "clay"),
    ("m5", datetime(2025, 4, 15, 18), None, "Taylor", "win", 55, "grass"),
    ("m6", datetime(2025, 4, 20, 18), None, "Jordan", "draw", 120, "hard"),
    ("m7", datetime(2025, 4, 22, 18), None, "Sam", "win", None, "hard"),
]]


def build(sql: SqlStore) -> SqlStore:
    sql.create_table(MEM, "expenses", [ColumnSpec("amount", "float", "USD"), ColumnSpec("category", "text"),
                                       ColumnSpec("payee", "text"), ColumnSpec("method", "text")])
    sql.upsert_rows(MEM, "expenses", [{**r, "order": i} for i, r in enumerate(EXPENSES)])
    sql.create_table(MEM, "tennis_matches", [ColumnSpec("opponent", "text"), ColumnSpec("result", "text"),
                                             ColumnSpec("duration_min", "int", "min"), ColumnSpec("surface", "text")])
    sql.upsert_rows(MEM, "tennis_matches", [{**r, "order": 100 + i} for i, r in enumerate(MATCHES)])
    # another memory, same table names, values that would win every ranking if they leaked
    sql.create_table("bob", "expenses", [ColumnSpec("amount", "float"), ColumnSpec("payee", "text"), ColumnSpec("method", "text")])
    sql.upsert_rows("bob", "expenses", [{"source": f"b{i}", "order": i, "time": datetime(2025, 1, 4), "amount": 1e6,
                                         "payee": "Ventra", "method": "debit card"} for i in range(20)])
    return sql


@pytest.fixture
def both(db_url: str) -> Iterator[SqlStore]:
    s = build(SqlStore(db_url))
    yield s
    s.close()


# -- the semantics, written independently of the tools ----------------------------------------------


def eff(row: dict[str, Any]) -> datetime:
    return row["observed_at"] or row["time"]


def chrono(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    order = {r["source"]: i for i, r in enumerate(EXPENSES + MATCHES)}
    return sorted(rows, key=lambda r: (eff(r), order[r["source"]]))


def sources(rows: list[dict[str, Any]]) -> list[str]:
    return [r["source"] for r in rows]


def words(text: str) -> set[str]:
    out = set()
    for w in re.split(r"[^0-9a-z]+", text.lower()):
        if w and re.search("[a-z]", w):
            out.add(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")) else w)
    return out


def loose(value: str, cell: str | None) -> bool:
    if cell is None:
        return False
    v, c = words(value), words(cell)
    return cell.strip().lower() == value.strip().lower() or bool(v and v <= c) or bool(c and c <= v)


def grouped(rows: list[dict[str, Any]], key: Any) -> dict[Any, list[dict[str, Any]]]:
    out: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        k = key(r)
        if k is not None:
            out[k].append(r)
    return out


def text_key(column: str) -> Any:
    return lambda r: r[column].strip().lower() if r[column] is not None else None


def label(rows: list[dict[str, Any]], column: str) -> str:
    return min(r[column] for r in rows).strip()


# -- group_by -----------------------------------------------------------------------------------------


def test_group_by_count_ranks_most_often(both: SqlStore) -> None:
    """'Which payee did I pay most often?'"""
    groups = grouped(EXPENSES, text_key("payee"))
    want = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    res = compute(both, MEM, "expenses", "*", "count", group_by="payee")
    assert res.top_group == label(want[0][1], "payee") == "Ventra"  # Ventra, ventra, "Ventra " are one payee
    assert res.value == len(want[0][1]) == 4
    assert res.groups == [{"group": label(rows, "payee"), "value": len(rows), "rows": len(rows)} for _, rows in want]
    assert res.group_count == len(groups) and res.matched == len(EXPENSES)
    assert res.sources == sources(chrono(want[0][1])) == ["e0", "e2", "e4", "e9"]  # e4 is about Jan 31
    assert res.group_by == "payee" and res.order == "desc" and res.operator == "count" and res.units == 1
    # the budget bounds the groups; a spelled-differently column name resolves
    top2 = compute(both, MEM, "expenses", "*", "count", group_by="Payees", result_budget=2)
    assert [g["group"] for g in top2.groups] == ["Ventra", "Jewel-Osco"] and top2.group_count == len(groups)
    assert len(top2.rows) == 2 and top2.matched == len(EXPENSES)
    # ascending: the least often (ties by name)
    least = compute(both, MEM, "expenses", "*", "count", group_by="payee", order="asc", result_budget=3)
    assert [g["group"] for g in least.groups] == ["Chipotle", "Target", "Uber"] and least.value == 1
    data = json.loads(json.dumps(res.to_dict()))
    assert data["top_group"] == "Ventra" and data["groups"][0] == {"group": "Ventra", "value": 4, "rows": 4}


def test_group_by_sum_which_category_cost_the_most(both: SqlStore) -> None:
    valued = [r for r in EXPENSES if r["amount"] is not None]
    groups = grouped(valued, text_key("category"))
    totals = {k: sum(r["amount"] for r in rows) for k, rows in groups.items()}
    want = sorted(totals, key=lambda k: -totals[k])
    res = compute(both, MEM, "expenses", "amount", "sum", group_by="category")
    assert res.top_group == "dining" and res.value == pytest.approx(totals["dining"]) == 145.0
    assert [g["group"] for g in res.groups] == [label(groups[k], "category") for k in want] == ["dining", "groceries", "Transit"]
    assert [g["value"] for g in res.groups] == pytest.approx([totals[k] for k in want])
    assert [g["rows"] for g in res.groups] == [len(groups[k]) for k in want]
    assert res.matched == sum(len(v) for v in groups.values()) == 10  # no amount (e10) or no category (e11): out
    assert res.sources == sources(chrono(groups["dining"]))
    # with a scope filter: only what was paid by debit card
    debit = [r for r in valued if loose("debit card", r["method"])]
    dgroups = grouped(debit, text_key("category"))
    dres = compute(both, MEM, "expenses", "amount", "sum", [{"column": "method", "op": "=", "value": "debit card"}], group_by="category")
    dtotals = {k: sum(r["amount"] for r in rows) for k, rows in dgroups.items()}
    assert dres.top_group == max(dtotals, key=dtotals.get) == "groceries" and dres.value == pytest.approx(54.2)
    assert {g["group"].lower(): g["value"] for g in dres.groups} == pytest.approx(dtotals)


def test_group_by_avg_per_month(both: SqlStore) -> None:
    valued = [r for r in EXPENSES if r["amount"] is not None]
    groups = grouped(valued, lambda r: eff(r).strftime("%Y-%m"))
    avgs = {k: statistics.fmean(r["amount"] for r in rows) for k, rows in groups.items()}
    res = compute(both, MEM, "expenses", "amount", "avg", group_by="month")
    assert [g["group"] for g in res.groups] == sorted(avgs, key=lambda k: -avgs[k]) == ["2025-02", "2025-03", "2025-01"]
    assert [g["value"] for g in res.groups] == pytest.approx([avgs[g["group"]] for g in res.groups], abs=1e-6)
    assert [g["rows"] for g in res.groups] == [len(groups[g["group"]]) for g in res.groups] == [4, 2, 5]  # e4 counts for January
    assert res.top_group == "2025-02" and res.value == pytest.approx(avgs["2025-02"], abs=1e-6)
    low = compute(both, MEM, "expenses", "amount", "avg", group_by="month", order="asc", result_budget=1)
    assert low.top_group == "2025-01" and len(low.groups) == 1 and low.group_count == 3


def test_group_by_other_operators_and_keys(both: SqlStore) -> None:
    played = [r for r in MATCHES if r["duration_min"] is not None]
    by_opp = grouped(played, text_key("opponent"))
    med = compute(both, MEM, "tennis_matches", "duration_min", "median", group_by="opponent")
    medians = {k: statistics.median(r["duration_min"] for r in rows) for k, rows in by_opp.items()}
    assert med.groups == [{"group": label(by_opp[k], "opponent"), "value": medians[k], "rows": len(by_opp[k])}
                          for k in sorted(medians, key=lambda k: (-medians[k], -len(by_opp[k]), k))]
    assert med.top_group == "Jordan" and med.value == 125.5
    longest = compute(both, MEM, "tennis_matches", "duration_min", "max", group_by="opponent")
    assert longest.top_group == "Jordan" and longest.value == 131 and longest.sources == ["m3"]  # the row holding the max
    shortest = compute(both, MEM, "tennis_matches", "duration_min", "min", group_by="opponent", order="asc")
    assert shortest.top_group == "Alex" and shortest.value == 48 and shortest.sources == ["m2"]
    surfaces = compute(both, MEM, "tennis_matches", "surface", "count_distinct", group_by="opponent")
    want = {k: len({r["surface"] for r in rows}) for k, rows in grouped(MATCHES, text_key("opponent")).items()}
    assert {g["group"].lower(): g["value"] for g in surfaces.groups} == want and surfaces.value == max(want.values()) == 2
    days = compute(both, MEM, "tennis_matches", "*", "count", group_by="weekday")
    by_day = grouped(MATCHES, lambda r: eff(r).strftime("%A"))
    assert {g["group"]: g["value"] for g in days.groups} == {k: len(v) for k, v in by_day.items()}
    assert days.groups[0]["group"] == "Tuesday" and days.value == 3 and days.sources == ["m0", "m5", "m7"]
    per_day = compute(both, MEM, "tennis_matches", "*", "count", group_by="day", order="asc", result_budget=2)
    assert [g["group"] for g in per_day.groups] == ["2025-03-31", "2025-04-01"]  # ties by name: the observed day first
    years = compute(both, MEM, "expenses", "amount", "sum", group_by="year")
    assert years.groups == [{"group": 2025, "value": pytest.approx(sum(r["amount"] for r in EXPENSES if r["amount"])), "rows": 11}]


def test_the_virtual_weekday_column_filters_rows_by_their_day_of_the_week(both: SqlStore) -> None:
    # 0 = Monday ... 6 = Sunday, as date.weekday(): the same rows on SQLite and PostgreSQL
    for days in ([5, 6], [0, 1, 2, 3, 4], [1]):
        got = compute(both, MEM, "tennis_matches", "*", "count", [{"column": "weekday", "op": "in", "value": days}])
        want = [r for r in MATCHES if eff(r).weekday() in days]
        assert got.value == len(want) and set(got.sources) == {r["source"] for r in want}
    tuesdays = compute(both, MEM, "tennis_matches", "*", "count", [{"column": "weekday", "op": "=", "value": 1}])
    assert tuesdays.value == 3


def test_group_by_tenant_isolation(both: SqlStore) -> None:
    res = compute(both, MEM, "expenses", "amount", "sum", group_by="payee")
    assert res.value < 1000 and "b0" not in res.sources
    assert compute(both, "bob", "expenses", "amount", "sum", group_by="payee").value == 2e7


# -- share --------------------------------------------------------------------------------------------


WIN = [{"column": "result", "op": "=", "value": "win"}]


def test_share_win_rate(both: SqlStore) -> None:
    wins = [r for r in MATCHES if r["result"].lower() == "win"]
    res = compute(both, MEM, "tennis_matches", "*", "share", condition=WIN)
    assert res.value == 100 * len(wins) / len(MATCHES) == 62.5
    assert res.in_scope == res.matched == len(MATCHES) and res.meeting == len(wins) == 5
    assert res.sources == sources(chrono(wins)) and res.operator == "share" and res.condition == WIN
    data = json.loads(json.dumps(res.to_dict()))
    assert data["in_scope"] == 8 and data["meeting"] == 5 and data["condition"][0]["column"] == "result"
    # "percent of my matches on clay that I won": column_filters choose the scope
    clay = [r for r in MATCHES if r["surface"] == "clay"]
    on_clay = compute(both, MEM, "tennis_matches", "*", "share", [{"column": "surface", "op": "=", "value": "Clay"}], condition=WIN)
    assert on_clay.value == pytest.approx(100 * sum(r["result"].lower() == "win" for r in clay) / len(clay), abs=1e-6)
    assert (on_clay.in_scope, on_clay.meeting) == (3, 2)
    # a column target narrows the scope to rows where it is known; aliases of the operator
    timed = [r for r in MATCHES if r["duration_min"] is not None]
    pct = compute(both, MEM, "tennis_matches", "duration_min", "percentage", condition=WIN + [{"column": "duration_min", "op": "<", "value": 60}])
    assert pct.in_scope == len(timed) and pct.meeting == sum(r["result"].lower() == "win" and r["duration_min"] < 60 for r in timed) == 2
    assert pct.value == pytest.approx(200 / 7, abs=1e-6)


def test_share_of_sum_weighs_rows_by_the_target(both: SqlStore) -> None:
    # "what share of my spending went to dining": the amount's sum, not the rows, is shared
    paid = [r for r in EXPENSES if r["amount"] is not None]
    dining = [r for r in paid if (r["category"] or "").lower() == "dining"]
    cond = [{"column": "category", "op": "=", "value": "dining"}]
    res = compute(both, MEM, "expenses", "amount", "share_of_sum", condition=cond)
    assert res.value == pytest.approx(100 * sum(r["amount"] for r in dining) / sum(r["amount"] for r in paid), abs=1e-6)
    assert res.operator == "share" and res.to_dict()["weighted"] is True and (res.in_scope, res.meeting) == (len(paid), len(dining))
    rows = compute(both, MEM, "expenses", "*", "share", condition=cond)  # of the rows: another number
    assert rows.value == pytest.approx(100 * len(dining) / len(EXPENSES), abs=1e-6) and "weighted" not in rows.to_dict()
    with pytest.raises(ToolError, match="numeric target"):
        compute(both, MEM, "expenses", "payee", "share_of_sum", condition=cond)


def test_share_per_group(both: SqlStore) -> None:
    groups = grouped(MATCHES, text_key("opponent"))
    rate = {k: 100 * sum(r["result"].lower() == "win" for r in rows) / len(rows) for k, rows in groups.items()}
    res = compute(both, MEM, "tennis_matches", "*", "share", condition=WIN, group_by="opponent")
    want = sorted(groups, key=lambda k: (-rate[k], -len(groups[k]), k))
    assert [g["group"] for g in res.groups] == [label(groups[k], "opponent") for k in want] == ["Alex", "Taylor", "Jordan", "Sam"]
    assert [g["value"] for g in res.groups] == pytest.approx([rate[k] for k in want], abs=1e-6)
    assert [(g["rows"], g["meeting"]) for g in res.groups] == [(2, 2), (1, 1), (2, 1), (3, 1)]
    assert res.top_group == "Alex" and res.value == 100.0 and (res.in_scope, res.meeting) == (2, 2)
    assert res.sources == ["m0", "m2"]  # the top group's rows that meet the condition
    worst = compute(both, MEM, "tennis_matches", "*", "share", condition=WIN, group_by="opponent", order="asc", result_budget=1)
    assert worst.top_group == "Sam" and worst.value == pytest.approx(100 / 3, abs=1e-5)


def test_share_on_an_empty_scope_is_a_clear_result(both: SqlStore) -> None:
    res = compute(both, MEM, "tennis_matches", "*", "share", [{"column": "surface", "op": "=", "value": "carpet"}], condition=WIN)
    assert res.value is None and res.in_scope == 0 and res.meeting == 0 and res.matched == 0 and res.rows == []
    assert "column_filters" in (res.note or "")
    assert json.loads(json.dumps(res.to_dict()))["note"] == res.note
    none = compute(both, MEM, "tennis_matches", "*", "count", [{"column": "surface", "op": "=", "value": "carpet"}], group_by="opponent")
    assert none.value is None and none.groups == [] and none.top_group is None and none.group_count == 0


# -- delta, count_distinct, first, last by hand ----------------------------------------------------------


def test_delta_first_last_count_distinct_by_hand(both: SqlStore) -> None:
    timed = chrono([r for r in MATCHES if r["duration_min"] is not None])
    assert timed[0]["source"] == "m1"  # about Mar 31: first by the date, though told after m0
    delta = compute(both, MEM, "tennis_matches", "duration_min", "delta")
    assert delta.value == timed[-1]["duration_min"] - timed[0]["duration_min"] == 120 - 95
    assert delta.sources == ["m1", "m6"] and delta.matched == len(timed) and isinstance(delta.value, int)
    first = compute(both, MEM, "tennis_matches", "opponent", "first")
    assert first.value == chrono(MATCHES)[0]["opponent"] == "Sam" and first.sources == ["m1"]
    last = compute(both, MEM, "tennis_matches", "result", "last")
    assert last.value == chrono(MATCHES)[-1]["result"] == "win" and last.sources == ["m7"]
    assert compute(both, MEM, "tennis_matches", "duration_min", "last").value == 120  # m7 has no duration
    in_april = [{"column": "date", "op": "between", "value": ["2025-04-01", "2025-04-12"]}]
    window = [r for r in timed if date(2025, 4, 1) <= eff(r).date() <= date(2025, 4, 12)]
    assert compute(both, MEM, "tennis_matches", "duration_min", "change", in_april).value == window[-1]["duration_min"] - window[0]["duration_min"] == 15
    spent = chrono([r for r in EXPENSES if r["amount"] is not None])
    assert compute(both, MEM, "expenses", "amount", "delta").value == pytest.approx(spent[-1]["amount"] - spent[0]["amount"])
    # count_distinct counts distinct stored values (exact spelling), NULLs aside
    assert compute(both, MEM, "tennis_matches", "opponent", "count_distinct").value == len({r["opponent"] for r in MATCHES}) == 4
    assert compute(both, MEM, "tennis_matches", "result", "count_distinct").value == len({r["result"] for r in MATCHES}) == 6
    assert compute(both, MEM, "expenses", "category", "nunique").value == len({r["category"] for r in EXPENSES if r["category"]}) == 4
    clay = compute(both, MEM, "tennis_matches", "opponent", "count_distinct", [{"column": "surface", "op": "=", "value": "clay"}])
    assert clay.value == len({r["opponent"] for r in MATCHES if r["surface"] == "clay"}) == 3 and clay.matched == 3


# -- categorical filters ------------------------------------------------------------------------------------


def test_any_keeps_rows_meeting_one_of_its_filters(both: SqlStore) -> None:
    """"systolic or diastolic above the target": an ``any`` group is OR, beside the other filters' AND."""
    either = [{"any": [{"column": "amount", "op": ">", "value": 50}, {"column": "payee", "op": "=", "value": "ventra"}]}]
    want = sources(chrono([r for r in EXPENSES if (r["amount"] or 0) > 50 or r["payee"].strip().lower() == "ventra"]))
    assert filter_rows(both, MEM, "expenses", either, 100).sources == want and len(want) == 7
    in_feb = either + [{"column": "date", "op": "between", "value": ["2025-02-01", "2025-02-28"]}]
    assert filter_rows(both, MEM, "expenses", in_feb, 100).sources == ["e5", "e7"]
    share = compute(both, MEM, "expenses", "*", "share", condition=either)
    assert share.value == pytest.approx(100 * len(want) / len(EXPENSES))


def test_categorical_filters_ignore_case_and_extra_words(both: SqlStore) -> None:
    def want(pred: Any) -> list[str]:
        return sources(chrono([r for r in EXPENSES if pred(r)]))

    def got(flt: list[dict[str, Any]]) -> list[str]:
        return filter_rows(both, MEM, "expenses", flt, 100).sources

    debit = want(lambda r: loose("debit card", r["method"]))
    assert debit == ["e0", "e1", "e2", "e4", "e8", "e9", "e10"]  # "DEBIT CARD ****7730", "Debit card", "debit", ...
    assert got([{"column": "method", "op": "=", "value": "debit card"}]) == debit
    assert got([{"column": "method", "op": "=", "value": "Debit Cards"}]) == debit
    assert got([{"column": "method", "op": "in", "value": ["cash", "credit card"]}]) == want(
        lambda r: loose("cash", r["method"]) or loose("credit card", r["method"])) == ["e3", "e5", "e6", "e7"]
    assert got([{"column": "method", "op": "!=", "value": "debit card"}]) == want(
        lambda r: r["method"] is not None and not loose("debit card", r["method"])) == ["e3", "e5", "e6", "e7"]
    assert got([{"column": "method", "op": "!=", "value": "paypal"}]) == want(lambda r: r["method"] is not None)
    assert got([{"column": "method", "op": "=", "value": "paypal"}]) == []
    assert got([{"column": "payee", "op": "=", "value": "jewel osco"}]) == ["e1", "e5", "e10"]
    # Lookup and Compute take the same filters
    assert lookup(both, MEM, "expenses", {"payee": "VENTRA"}).sources == ["e0", "e2", "e4", "e9"]
    assert lookup(both, MEM, "expenses", {"method": ["cash", "debit card"]}, 100).sources == want(
        lambda r: loose("cash", r["method"]) or loose("debit card", r["method"]))
    spent = compute(both, MEM, "expenses", "amount", "sum", [{"column": "method", "op": "=", "value": "debit card"}])
    assert spent.value == pytest.approx(sum(r["amount"] for r in EXPENSES if loose("debit card", r["method"]) and r["amount"]))
    # other columns keep their exact semantics: numbers, source, contains
    assert got([{"column": "amount", "op": "=", "value": 2.5}]) == ["e0", "e2", "e4", "e9"]
    assert got([{"column": "source", "op": "=", "value": "e1"}]) == ["e1"]
    assert got([{"column": "method", "op": "contains", "value": "card ****"}]) == ["e0", "e4", "e9"]
    assert lookup(both, "bob", "expenses", {"method": "DEBIT"}, 100).matched == 20  # and only this memory's values


def test_categorical_filters_on_columns_with_many_values(both: SqlStore, monkeypatch: pytest.MonkeyPatch) -> None:
    debit = ["e0", "e1", "e2", "e4", "e8", "e9", "e10"]
    flt = [{"column": "method", "op": "=", "value": "debit card"}]
    monkeypatch.setattr(analytic_filters, "MAX_DISTINCT", 7)  # 8 distinct methods: read only those sharing a word
    assert filter_rows(both, MEM, "expenses", flt, 100).sources == debit
    assert filter_rows(both, MEM, "expenses", [{"column": "method", "op": "in", "value": ["cash"]}], 100).sources == ["e6"]
    monkeypatch.setattr(analytic_filters, "MAX_DISTINCT", 3)  # too many even so: SQL only, every word of the value
    assert filter_rows(both, MEM, "expenses", flt, 100).sources == ["e0", "e1", "e4", "e8", "e9"]
    assert filter_rows(both, MEM, "expenses", [{"column": "method", "op": "!=", "value": "debit card"}], 100).sources == [
        "e2", "e3", "e5", "e6", "e7", "e10"]


# -- Rank and Lookup return whole rows -----------------------------------------------------------------


def test_rank_and_lookup_rows_carry_every_column(both: SqlStore) -> None:
    longest = max((r for r in MATCHES if r["duration_min"] is not None), key=lambda r: r["duration_min"])
    top = rank(both, MEM, "tennis_matches", "duration_min", "desc", result_budget=1)
    assert top.rows[0]["opponent"] == longest["opponent"] == "Jordan"
    assert {k: top.rows[0][k] for k in ("source", "result", "duration_min", "surface")} == {
        "source": "m3", "result": "win", "duration_min": 131, "surface": "clay"}
    row = lookup(both, MEM, "tennis_matches", {"opponent": "taylor"}).rows[0]
    assert set(row) >= {"source", "order", "time", "observed_at", "date", "opponent", "result", "duration_min", "surface"}
    assert row["result"] == "win" and row["surface"] == "grass"
    expensive = rank(both, MEM, "expenses", "amount", "desc", [{"column": "category", "op": "=", "value": "Dining"}], 1)
    assert expensive.rows[0]["payee"] == "Sushi Place" and expensive.rows[0]["method"] == "credit card"


# -- bad arguments ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "message"), [
    (lambda s: compute(s, MEM, "expenses", "*", "count", group_by="colour"),
     r"unknown group_by column 'colour' in table 'expenses'; group_by can be: .*payee.*month, day, weekday, year"),
    (lambda s: compute(s, MEM, "expenses", "*", "count", group_by=""), r"group_by must be a non-empty string"),
    (lambda s: compute(s, MEM, "expenses", "*", "count", group_by="amount"), r"group_by needs a text, int, bool or datetime column, 'amount' is float"),
    (lambda s: compute(s, MEM, "expenses", "amount", "delta", group_by="payee"), r"group_by does not work with operator 'delta'; operators with group_by: count"),
    (lambda s: compute(s, MEM, "expenses", "amount", "sum", group_by="payee", order="sideways"), r"order must be 'desc' or 'asc'"),
    (lambda s: compute(s, MEM, "tennis_matches", "*", "share"), r"operator 'share' needs a condition"),
    (lambda s: compute(s, MEM, "tennis_matches", "*", "share", condition=[]), r"operator 'share' needs a condition"),
    (lambda s: compute(s, MEM, "tennis_matches", "*", "count", condition=WIN), r"condition only works with operator 'share'"),
    (lambda s: compute(s, MEM, "tennis_matches", "*", "share", condition=[{"column": "colour", "value": "red"}]), r"unknown column 'colour'"),
    (lambda s: compute(s, MEM, "tennis_matches", "*", "share", condition=["result = win"]), r"condition\[0\] must be an object"),
    (lambda s: compute(s, MEM, "tennis_matches", "*", "share", condition="result = win"), r"condition must be a list"),
    (lambda s: compute(s, MEM, "tennis_matches", "*", "avg"), r"target '\*' only works with operator 'count' or 'share'"),
    (lambda s: compute(s, MEM, "tennis_matches", "x; DROP TABLE adamm_rounds", "count", group_by="opponent"), r"target"),
    (lambda s: compute(s, MEM, "tennis_matches", "*", "count", group_by="x; DROP TABLE adamm_rounds"), r"unknown group_by column"),
    (lambda s: filter_rows(s, MEM, "expenses", [{"any": [{"column": "amount", "op": ">", "value": 1}]}]), r"'any' takes a list of 2"),
    (lambda s: filter_rows(s, MEM, "expenses", [{"any": [{"any": []}, {"column": "amount", "op": ">", "value": 1}]}]), r"cannot be nested"),
    (lambda s: filter_rows(s, MEM, "expenses", [{"any": [{"column": "amount", "op": ">", "value": 1}] * 2, "column": "x"}]), r"nothing else"),
])
def test_bad_arguments_name_the_argument(both: SqlStore, call: Any, message: str) -> None:
    with pytest.raises(ToolError, match=message):
        call(both)
    assert both.count_rows(MEM, "tennis_matches") == len(MATCHES)


# -- the planner-facing layers ------------------------------------------------------------------------------


def test_toolbox_and_langchain_tools_pass_the_new_arguments(tmp_path: Path) -> None:
    from adamm.nodes.backends import backends, reset_backends
    from adamm.nodes.context import Context
    from adamm.nodes.toolbox import TOOL_SPECS, run_call, validate_call
    from adamm.tools import memory_tools

    reset_backends()
    try:
        ctx = Context(home=str(tmp_path / "home"))
        build(backends(ctx).sql)
        args = validate_call(ctx, "Compute", {"table": "expenses", "target": "*", "operator": "count", "group_by": "payee"})
        units, summary = run_call(ctx, MEM, "Compute", args, 10)
        assert summary["top_group"] == "Ventra" and summary["value"] == 4 and summary["groups"][0]["rows"] == 4
        assert "per payee" in units[0]["text"] and "Ventra = 4" in units[0]["text"] and units[0]["round_ids"] == ["e0", "e2", "e4", "e9"]
        args = validate_call(ctx, "Compute", {"table": "tennis_matches", "target": "*", "operator": "share",
                                              "condition": [{"column": "result", "value": "win"}]})
        units, summary = run_call(ctx, MEM, "Compute", args, 10)
        assert summary["value"] == 62.5 and summary["in_scope"] == 8 and summary["meeting"] == 5
        assert "62.5 %" in units[0]["text"] and "(5 of 8)" in units[0]["text"]
        with pytest.raises(ToolError, match="order"):
            validate_call(ctx, "Compute", {"table": "expenses", "target": "*", "operator": "count", "order": "up"})
        assert "group_by" in TOOL_SPECS["Compute"] and "share" in TOOL_SPECS["Compute"] and "delta" in TOOL_SPECS["Compute"]

        tools = {t.name: t for t in memory_tools(MEM, ctx)}
        content = tools["Compute"].invoke({"table": "expenses", "target": "amount", "operator": "sum", "group_by": "category"})
        data = json.loads(content)
        assert data["top_group"] == "dining" and data["value"] == 145.0
        content = tools["Compute"].invoke({"table": "tennis_matches", "target": "*", "operator": "share"})
        assert content.startswith("error:") and "condition" in content
    finally:
        reset_backends()


def test_mentions_finds_every_word_at_a_word_start(tmp_path) -> None:
    """'right arm' finds 'his right upper arm' and 'Right arm', not 'bright' or 'farm'."""
    from adamm.stores.sql import ColumnSpec, SqlStore

    sql = SqlStore(f"sqlite:///{tmp_path / 'm.db'}")
    sql.create_table("m", "bp_log", [ColumnSpec("systolic", "float", "mmHg")])
    texts = ["cuff around his right upper arm", "Right arm. Morning.", "a bright farm", "left arm", None]
    sql.upsert_rows("m", "bp_log", [{"source": f"r{i}", "order": i, "captions": t, "systolic": 120 + i} for i, t in enumerate(texts)])
    res = analytic.filter_rows(sql, "m", "bp_log", [{"column": "captions", "op": "mentions", "value": "right arm"}])
    assert sorted(res.sources) == ["r0", "r1"]
    res = analytic.compute(sql, "m", "bp_log", "systolic", "count", [{"column": "captions", "op": "mentions", "value": "arms"}])
    assert res.value == 3  # a plural in the question finds the singular in the record
    with pytest.raises(analytic.ToolError, match="mentions"):
        analytic.filter_rows(sql, "m", "bp_log", [{"column": "systolic", "op": "mentions", "value": "x"}])


def test_the_toolbox_validates_any_groups() -> None:
    from pydantic import ValidationError

    from adamm.nodes.toolbox import FilterSpec

    spec = FilterSpec.model_validate({"any": [{"column": "systolic", "op": ">=", "value": 135}, {"column": "diastolic", "op": ">=", "value": 85}]})
    assert spec.to_dict() == {"any": [{"column": "systolic", "op": ">=", "value": 135}, {"column": "diastolic", "op": ">=", "value": 85}]}
    for bad in ({"column": "a", "any": [{"column": "b"}, {"column": "c"}]}, {"op": ">"}, {"any": [{"column": "b"}]},
                {"any": [{"any": [{"column": "a"}, {"column": "b"}]}, {"column": "c"}]}):
        with pytest.raises(ValidationError):
            FilterSpec.model_validate(bad)


# -- one category written with and without its noun ---------------------------------------------------

#: (source, kind as the memory wrote it, km): "Recovery run" and "recovery" are one kind - the
#: memory writes "recovery" alone too; "long run" is never written alone and keeps its noun.
SESSIONS = [("s0", "Recovery run", 4.0), ("s1", "recovery", 5.0), ("s2", "tempo run", 9.0), ("s3", "Tempo", 10.0),
            ("s4", "intervals", 8.0), ("s5", "long run", 18.0), ("s6", "RECOVERY", 3.5), ("s7", "long run", 20.0),
            ("s8", "easy long run", 12.0)]


def test_folded_values_need_the_value_written_alone() -> None:
    from adamm.stores.analytic_groups import folded_values
    assert folded_values(["recovery run", "recovery", "tempo", "tempo run", "long run", "long  run"]) == {
        "recovery run": "recovery", "tempo run": "tempo"}
    assert folded_values(["easy long run", "easy long", "easy"]) == {"easy long run": "easy", "easy long": "easy"}
    assert folded_values(["brisk zarn", "flont zarn", None, " "]) == {}


def test_group_by_folds_a_value_written_with_its_noun(both: SqlStore) -> None:
    both.create_table(MEM, "sessions", [ColumnSpec("kind", "text"), ColumnSpec("km", "float", "km")])
    both.upsert_rows(MEM, "sessions", [{"source": src, "order": 200 + i, "time": datetime(2025, 5, 1 + i), "kind": kind, "km": km}
                                       for i, (src, kind, km) in enumerate(SESSIONS)])
    res = compute(both, MEM, "sessions", "*", "count", group_by="kind")
    assert {g["group"].lower(): g["value"] for g in res.groups} == {"recovery": 3, "tempo": 2, "long run": 2, "intervals": 1,
                                                                    "easy long run": 1}
    assert res.top_group.lower() == "recovery" and res.sources == ["s0", "s1", "s6"]
    total = compute(both, MEM, "sessions", "km", "sum", group_by="kind")
    assert total.top_group == "long run" and total.value == 38.0
    assert {g["group"].lower(): g["value"] for g in total.groups}["recovery"] == 12.5
    # the operators that group in one step fold the same way
    spread = compute(both, MEM, "sessions", "km", "count_distinct", group_by="kind")
    assert {g["group"].lower(): g["value"] for g in spread.groups}["recovery"] == 3
