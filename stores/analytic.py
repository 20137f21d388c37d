"""The four analytic tools of AdaMM (Appendix B): Lookup, Filter, Compute and Rank.

Deterministic, read-only operations over one memory's induced tables. Every call

1. validates its arguments - table and column names are resolved tolerantly against the
   table metadata, values are cast to the column types, operator-type compatibility is
   checked, the result budget is bounded - and raises ``ToolError`` naming the argument and
   listing the valid options otherwise;
2. builds its SQL only from validated arguments as SQLAlchemy expressions (values are bound
   parameters, names are ``Table`` columns, target expressions go through the safe grammar of
   :mod:`adamm.stores.expressions`), always filtered to the calling memory;
3. returns a ``ToolResult`` with the rows (evidence), their round ids (provenance), the number
   of rows matched before the budget cut, and for Compute the value.

Every row carries ``source`` (round id), ``order``, ``time`` (round time), ``observed_at`` (the
day the values are about, if the round said so) and ``date`` = ``observed_at`` or else ``time``
- the effective date. Date filters and the chronological order ("by date then order") use
``date``; ``time`` and ``observed_at`` stay available as they are.

The tools run here; what they share is built apart, each for one reason to change: names and
the validated table (``analytic_scope``), filters to SQL (``analytic_filters``), targets, row
reads and results (``analytic_query``) and group_by (``analytic_groups``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from sqlalchemy import Float, Integer, and_, case, cast, func, select
from sqlalchemy.exc import DataError
from sqlalchemy.sql.elements import ColumnElement

from adamm.stores.analytic_filters import FILTER_OPS, MAX_FILTERS, build_filters
from adamm.stores.analytic_groups import GROUP_OPS, GROUP_VIRTUAL, group_key, grouped
from adamm.stores.analytic_query import (
    ToolResult,
    as_value,
    count_where,
    fetch_rows,
    last_row,
    parse_target,
    row_select,
    row_target,
    scalar_query,
    tidy,
    tool_result,
    trend,
)
from adamm.stores.analytic_scope import ToolError, check_budget, norm, open_scope, resolve_column, resolve_table
from adamm.stores.expressions import NUMERIC_TYPES
from adamm.stores.sql import SqlStore

__all__ = [
    "COMPUTE_OPS",
    "FILTER_OPS",
    "GROUP_OPS",
    "GROUP_VIRTUAL",
    "ToolError",
    "ToolResult",
    "compute",
    "compute_operator",
    "distinct_values",
    "filter_rows",
    "lookup",
    "rank",
    "resolve_column",
    "resolve_table",
]

MEDIAN_FETCH = 5000

COMPUTE_OPS = ("count", "count_distinct", "sum", "avg", "median", "min", "max", "stddev", "first", "last", "delta", "trend", "share",
               "share_of_sum")
_COMPUTE_ALIASES = {
    "count": "count", "count_distinct": "count_distinct", "distinct_count": "count_distinct", "nunique": "count_distinct",
    "sum": "sum", "total": "sum",
    "avg": "avg", "mean": "avg", "average": "avg",
    "median": "median",
    "min": "min", "minimum": "min", "max": "max", "maximum": "max",
    "stddev": "stddev", "std": "stddev", "stdev": "stddev", "std_dev": "stddev", "stddev_samp": "stddev",
    "first": "first", "earliest": "first", "last": "last", "latest": "last",
    "delta": "delta", "change": "delta", "difference": "delta",
    "trend": "trend", "slope": "trend",
    "share": "share", "percent": "share", "percentage": "share", "pct": "share", "rate": "share", "proportion": "share",
    "ratio": "share", "fraction": "share",
    "share_of_sum": "share_of_sum", "weighted_share": "share_of_sum", "share_of_total": "share_of_sum",
}
_NUMERIC_OPS = {"sum", "avg", "median", "stddev", "delta", "trend"}
_ORDER_ALIASES = {"desc": "desc", "descending": "desc", "highest": "desc", "top": "desc", "max": "desc", "largest": "desc",
                  "asc": "asc", "ascending": "asc", "lowest": "asc", "bottom": "asc", "min": "asc", "smallest": "asc"}


# -- the tools -------------------------------------------------------------------------------------


def _guarded(tool: Callable[..., ToolResult]) -> Callable[..., ToolResult]:
    """A value the database cannot compute (PostgreSQL numeric overflow in a target
    expression, ...) is reported as a ToolError, like every other bad argument."""

    @functools.wraps(tool)
    def run(*args: Any, **kwargs: Any) -> ToolResult:
        try:
            return tool(*args, **kwargs)
        except DataError as exc:
            raise ToolError(f"{tool.__name__}: the database could not evaluate the request ({str(exc.orig).strip().splitlines()[0]})") from None

    return run


@_guarded
def lookup(sql: SqlStore, memory_id: str, table: str, key_values: dict[str, Any], result_budget: int = 10) -> ToolResult:
    """Rows whose columns equal the given values (a date-only value matches the whole day; a
    list matches any of its values; None matches missing values), in chronological order."""
    budget = check_budget(result_budget)
    scope = open_scope(sql, memory_id, table)
    if not isinstance(key_values, dict) or not key_values:
        raise ToolError(f"key_values must be a non-empty object of column: value; columns: {', '.join(scope.types)}")
    if len(key_values) > MAX_FILTERS:
        raise ToolError(f"key_values has {len(key_values)} keys, at most {MAX_FILTERS} are allowed")
    filters = []
    for key, value in key_values.items():
        if value is None:
            filters.append({"column": key, "op": "is_null"})
        elif isinstance(value, (list, tuple, set)):
            filters.append({"column": key, "op": "in", "value": list(value)})
        else:
            filters.append({"column": key, "op": "=", "value": value})
    clauses, normalized = build_filters(scope, filters, "key_values")
    where = and_(scope.tenant(), *clauses)
    rows = fetch_rows(scope, row_select(scope).where(where).order_by(*scope.chronological()).limit(budget))
    matched = len(rows) if len(rows) < budget else count_where(scope, where)
    return tool_result("Lookup", scope, rows, matched, normalized)


@_guarded
def filter_rows(sql: SqlStore, memory_id: str, table: str, column_filters: list[dict[str, Any]], result_budget: int = 10) -> ToolResult:
    """Rows satisfying every filter ``{"column", "op", "value"}``, in chronological order."""
    budget = check_budget(result_budget)
    scope = open_scope(sql, memory_id, table)
    clauses, normalized = build_filters(scope, column_filters)
    where = and_(scope.tenant(), *clauses)
    rows = fetch_rows(scope, row_select(scope).where(where).order_by(*scope.chronological()).limit(budget))
    matched = len(rows) if len(rows) < budget else count_where(scope, where)
    return tool_result("Filter", scope, rows, matched, normalized)


def _direction(order: Any, arg: str) -> str:
    if not isinstance(order, str) or norm(order) not in _ORDER_ALIASES:
        raise ToolError(f"{arg} must be 'desc' or 'asc', got {order!r}")
    return _ORDER_ALIASES[norm(order)]


def compute_operator(operator: Any) -> str:
    """The operator's canonical name ("average" -> avg, "total" -> sum), or ToolError listing them."""
    if not isinstance(operator, str) or norm(operator) not in _COMPUTE_ALIASES:
        raise ToolError(f"unknown operator {operator!r}; operators: {', '.join(COMPUTE_OPS)}")
    return _COMPUTE_ALIASES[norm(operator)]

@_guarded
def compute(
    sql: SqlStore,
    memory_id: str,
    table: str,
    target: str,
    operator: str,
    column_filters: list[dict[str, Any]] | None = None,
    result_budget: int = 10,
    group_by: str | None = None,
    order: str = "desc",
    condition: list[dict[str, Any]] | None = None,
) -> ToolResult:
    """Apply ``operator`` to ``target`` (a column or expression) over the filtered rows.

    Rows with a NULL target do not contribute (``count`` with target ``"*"`` counts rows).
    ``rows`` are the contributing rows up to the budget: chronological for count / sum / avg /
    stddev, and the rows that determine the value for min / max / median / first / last /
    delta. ``matched`` counts every contributing row.

    ``share`` is the percentage (0-100) of the rows in scope (``column_filters``; with a column
    target, rows where it is not NULL) that also meet ``condition`` (filters in the same form);
    ``in_scope`` and ``meeting`` are the two counts, ``rows`` the meeting rows. No row in scope
    gives value None with a ``note``.

    ``group_by`` (a column, or ``month`` / ``day`` / ``weekday`` / ``year`` of the effective
    date) applies count / count_distinct / sum / avg / median / min / max / share per group in
    one query, ranks the groups by value (``order`` "desc" or "asc") and keeps
    ``result_budget`` of them in ``groups`` ([{"group", "value", "rows"}], share adds
    "meeting"); ``value`` and ``top_group`` are the first group's, ``rows`` its contributing
    rows, ``matched`` the contributing rows of all groups, ``group_count`` all groups. Rows
    whose group value is NULL do not count; text groups ignore case.
    """
    budget = check_budget(result_budget)
    op = compute_operator(operator)
    # "what share of my spending went to dining": the share of the target's sum, not of the rows
    weighted = op == "share_of_sum"
    op = "share" if weighted else op
    direction = _direction(order, "order")
    scope = open_scope(sql, memory_id, table)
    clauses, normalized = build_filters(scope, column_filters)
    base = and_(scope.tenant(), *clauses)
    cond: list[ColumnElement[bool]] = []
    cond_normalized: list[dict[str, Any]] | None = None
    if op == "share":
        if condition is None or (isinstance(condition, (list, tuple)) and not condition):
            raise ToolError("operator 'share' needs a condition: a list of {column, op, value} filters that the counted rows "
                            "must meet (column_filters choose the rows in scope); e.g. condition "
                            "[{\"column\": \"result\", \"op\": \"=\", \"value\": \"win\"}]")
        cond, cond_normalized = build_filters(scope, condition, "condition")
    elif condition is not None and not (isinstance(condition, (list, tuple)) and not condition):
        raise ToolError(f"condition only works with operator 'share'; operator {op!r} takes its conditions in column_filters")
    group = group_key(scope, group_by) if group_by is not None else None
    if group is not None and op not in GROUP_OPS:
        raise ToolError(f"group_by does not work with operator {op!r}; operators with group_by: {', '.join(GROUP_OPS)}")

    def res(rows: list[dict[str, Any]], matched: int, value: Any, expression: str, **kw: Any) -> ToolResult:
        if group is not None:
            kw.setdefault("group_by", group.name)
            kw.setdefault("order", direction)
        if cond_normalized is not None:
            kw.setdefault("condition", cond_normalized)
        return tool_result("Compute", scope, rows, matched, normalized, value=value, operator=op, expression=expression, **kw)

    star = isinstance(target, str) and target.strip() == "*"
    if star and op not in ("count", "share"):
        raise ToolError(f"target '*' only works with operator 'count' or 'share'; operator {op!r} needs a column; "
                        f"columns: {', '.join(scope.types)}")
    tgt = None if star else parse_target(scope, target)
    if weighted and (tgt is None or tgt.ctype not in NUMERIC_TYPES):
        raise ToolError("operator 'share_of_sum' needs a numeric target, whose sum is shared; numeric columns: "
                        + ", ".join(n for n, t in scope.types.items() if t in NUMERIC_TYPES))
    if weighted and group is not None:
        raise ToolError("operator 'share_of_sum' does not work with group_by")
    if tgt is not None and op in _NUMERIC_OPS and tgt.ctype not in NUMERIC_TYPES:
        raise ToolError(f"operator {op!r} needs a numeric target, {tgt.text!r} is {tgt.ctype}; "
                        f"numeric columns: {', '.join(n for n, t in scope.types.items() if t in NUMERIC_TYPES)}")
    expression = "*" if tgt is None else tgt.text
    where = base if tgt is None else and_(base, tgt.element.is_not(None))

    if group is not None:
        return grouped(scope, op, tgt, where, group, direction, budget, cond, res)

    if op == "share":
        meet = func.sum(case((and_(*cond), 1), else_=0))
        n, m = scalar_query(scope, select(func.count(), meet).select_from(scope.table).where(where))
        n, m = int(n or 0), int(m or 0)
        if n == 0:
            return res([], 0, None, expression, in_scope=0, meeting=0,
                       note="no rows match column_filters, so the share is undefined")
        rows = fetch_rows(scope, row_select(scope, tgt).where(where, *cond).order_by(*scope.chronological()).limit(budget), tgt)
        if weighted:
            total, part = scalar_query(scope, select(func.sum(tgt.element), func.sum(case((and_(*cond), tgt.element), else_=0)))
                                       .select_from(scope.table).where(where))
            if not total:
                return res(rows, n, None, expression, in_scope=n, meeting=m, note="the target sums to zero, so its share is undefined")
            return res(rows, n, tidy(100.0 * float(part or 0) / float(total)), expression, in_scope=n, meeting=m, weighted=True)
        return res(rows, n, tidy(100.0 * m / n), expression, in_scope=n, meeting=m)

    if tgt is None:  # count(*)
        n = count_where(scope, base)
        rows = fetch_rows(scope, row_select(scope).where(base).order_by(*scope.chronological()).limit(budget))
        return res(rows, n, n, "*")

    x = tgt.element
    chrono = row_select(scope, tgt).where(where).order_by(*scope.chronological())

    if op in ("count", "count_distinct", "sum", "avg"):
        agg = {"count": func.count(x), "count_distinct": func.count(x.distinct()),
               "sum": func.sum(x), "avg": func.avg(x)}[op]
        value, n = scalar_query(scope, select(agg, func.count(x)).select_from(scope.table).where(where))
        n = int(n or 0)
        if op in ("count", "count_distinct"):
            value = int(value or 0)
        elif op == "avg" and value is not None:
            value = float(value)
        elif n == 0:
            value = None
        rows = fetch_rows(scope, chrono.limit(budget), tgt) if n else []
        return res(rows, n, as_value(value), tgt.text)

    if op == "stddev":
        # one pass over values shifted by one of them (K), which keeps the sums small:
        # var = (sum (x-K)^2 - (sum (x-K))^2 / n) / (n - 1)
        with scope.sql.engine.connect() as conn:
            shift = conn.execute(select(cast(x, Float)).select_from(scope.table).where(where).limit(1)).scalar()
        if shift is None:
            return res([], 0, None, tgt.text)
        dev = cast(x, Float) - float(shift)
        n, s1, s2 = scalar_query(scope, select(func.count(x), func.sum(dev), func.sum(dev * dev)).select_from(scope.table).where(where))
        n = int(n or 0)
        value = None
        if n >= 2:
            s1, s2 = float(s1 or 0.0), float(s2 or 0.0)
            value = math.sqrt(max(s2 - s1 * s1 / n, 0.0) / (n - 1))
        rows = fetch_rows(scope, chrono.limit(budget), tgt)
        return res(rows, n, as_value(value), tgt.text)

    if op == "trend":
        return res(*trend(scope, where, tgt, chrono, budget), tgt.text)

    if op in ("min", "max"):
        n = count_where(scope, where)
        if n == 0:
            return res([], 0, None, tgt.text)
        key = cast(x, Integer) if tgt.ctype == "bool" else x  # PostgreSQL has no min/max of boolean
        q = row_select(scope, tgt).where(where).order_by(key.desc() if op == "max" else key.asc(), *scope.chronological())
        rows = fetch_rows(scope, q.limit(budget), tgt)
        extreme = row_target(rows[0], tgt)
        rows = [r for r in rows if row_target(r, tgt) == extreme]
        return res(rows, n, as_value(extreme), tgt.text)

    if op == "median":
        # The middle value(s) alone first, then the rows holding them. Up to MEDIAN_FETCH values
        # are fetched and sorted here (one pass); beyond that the database counts and walks to
        # the middle (with an index on the column, a short index walk).
        values_q = select(x).select_from(scope.table).where(where)
        with scope.sql.engine.connect() as conn:
            values = list(conn.execute(values_q.limit(MEDIAN_FETCH + 1)).scalars())
            if len(values) <= MEDIAN_FETCH:
                n = len(values)
                values.sort()
                middle = values[(n - 1) // 2: n // 2 + 1]
            else:
                n = int(conn.execute(select(func.count()).select_from(scope.table).where(where)).scalar() or 0)
                middle = list(conn.execute(values_q.order_by(x.asc()).offset((n - 1) // 2).limit(1 if n % 2 else 2)).scalars())
        if n == 0:
            return res([], 0, None, tgt.text)
        take = len(middle)
        middle = [float(v) if isinstance(v, Decimal) else v for v in middle]
        value = middle[0] if take == 1 else (middle[0] + middle[1]) / 2
        if isinstance(value, float) and value.is_integer() and all(isinstance(v, int) for v in middle):
            value = int(value)
        rows = fetch_rows(scope, chrono.where(x.in_(sorted(set(middle)))).limit(budget), tgt)
        return res(rows, n, as_value(value), tgt.text)

    # first / last / delta: by date, then order
    n = count_where(scope, where)
    if n == 0:
        return res([], 0, None, tgt.text)
    if op == "first":
        first = fetch_rows(scope, chrono.limit(1), tgt)[0]
        return res([first], n, as_value(row_target(first, tgt)), tgt.text)
    last = last_row(scope, where, tgt)
    if op == "last":
        return res([last], n, as_value(row_target(last, tgt)), tgt.text)
    first = fetch_rows(scope, chrono.limit(1), tgt)[0]
    rows = [first] if first["source"] == last["source"] else [first, last][:budget]
    return res(rows, n, as_value(row_target(last, tgt) - row_target(first, tgt)), tgt.text)

@_guarded
def rank(
    sql: SqlStore,
    memory_id: str,
    table: str,
    target: str,
    order: str = "desc",
    column_filters: list[dict[str, Any]] | None = None,
    result_budget: int = 10,
) -> ToolResult:
    """The rows with the highest (``desc``) or lowest (``asc``) target, NULL targets excluded;
    ties are broken by date, then order."""
    budget = check_budget(result_budget)
    direction = _direction(order, "order")
    scope = open_scope(sql, memory_id, table)
    clauses, normalized = build_filters(scope, column_filters)
    tgt = parse_target(scope, target)
    where = and_(scope.tenant(), *clauses, tgt.element.is_not(None))
    key = tgt.element.desc() if direction == "desc" else tgt.element.asc()
    rows = fetch_rows(scope, row_select(scope, tgt).where(where).order_by(key, *scope.chronological()).limit(budget), tgt)
    matched = len(rows) if len(rows) < budget else count_where(scope, where)
    return tool_result("Rank", scope, rows, matched, normalized, operator=direction, expression=tgt.text)

def distinct_values(sql: SqlStore, memory_id: str, table: str, column: str, limit: int = 20) -> list[Any]:
    """Up to ``limit`` distinct non-null values of a column, most frequent first - the sampled
    values a planner sees, so it can turn "on groceries" into ``category = 'groceries'``."""
    return [v for v, _ in value_counts(sql, memory_id, table, column, limit)]


def value_counts(sql: SqlStore, memory_id: str, table: str, column: str, limit: int = 20) -> list[tuple[Any, int]]:
    """(value, rows) of up to ``limit`` distinct non-null values of a column, most frequent first."""
    scope = open_scope(sql, memory_id, table)
    name = resolve_column(scope.info, column)
    col = scope.col(name)
    q = (select(col, func.count().label("n")).select_from(scope.table)
         .where(scope.tenant(), col.is_not(None)).group_by(col).order_by(func.count().desc(), col).limit(max(1, min(limit, 200))))
    with sql.engine.connect() as conn:
        return [(as_value(v), int(n)) for v, n in conn.execute(q)]
