"""Compute with ``group_by``: every group's value in one query, ranked, with the top group's rows.

Grouping is where "which month", "which weekday", "which category" questions are answered, and
it must stay one query on large tables: window functions count the groups and rows alongside
the ranked values, a text column is grouped by its stored spellings first (an index serves
that) and merged by the folded spelling after, and the virtual date keys (month, day, weekday,
year) are expressions each backend evaluates natively.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Float, Integer, and_, case, cast, func, select
from sqlalchemy.sql.elements import ColumnElement

from adamm.stores.analytic_filters import date_period
from adamm.stores.analytic_query import Target, ToolResult, as_value, fetch_rows, row_select
from adamm.stores.analytic_scope import Scope, ToolError, check_name, fixed, norm, resolve_column, singular, weekday_of

#: Operators Compute can apply per group (``group_by``).
GROUP_OPS = ("count", "count_distinct", "sum", "avg", "median", "min", "max", "share")
#: Virtual group_by keys over the effective ``date``: year-month, calendar day, weekday, year.
GROUP_VIRTUAL = ("month", "day", "weekday", "year")
_GROUP_ALIASES = {"month": "month", "year_month": "month", "day": "day", "calendar_day": "day", "calendar_date": "day",
                  "weekday": "weekday", "day_of_week": "weekday", "dow": "weekday", "week_day": "weekday", "year": "year"}
_GROUP_TYPES = ("text", "int", "bool", "datetime")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass
class Group:
    name: str  # resolved column name or a GROUP_VIRTUAL key
    key: ColumnElement[Any]  # what rows are grouped by (text: lower(trim(column)))
    label: ColumnElement[Any] | None  # an aggregate that names the group (text: min(column)), else the key
    show: Callable[[Any], Any]  # key or label as shown in the result
    present: ColumnElement[bool]  # the rows that have a group (key not NULL), cheaply
    text: ColumnElement[Any] | None = None  # a text column: grouped in two steps (see grouped)
    period: Callable[[Any], tuple[datetime, datetime] | None] | None = None  # a date group as a date range
    fold: dict[str, str] | None = None  # a text column: values that mean another (:func:`folded_values`)


def _year_period(v: Any) -> tuple[datetime, datetime] | None:
    year = int(v)
    return (datetime(year, 1, 1), datetime(year + 1, 1, 1)) if 1 <= year < 9999 else None


def _virtual_group(scope: Scope, name: str) -> Group:
    d = scope.date
    if name == "weekday":
        key = weekday_of(d, scope.dialect)
    elif scope.dialect == "postgresql":
        key = func.to_char(d, fixed({"month": "YYYY-MM", "day": "YYYY-MM-DD", "year": "YYYY"}[name]))
    else:  # SQLite keeps datetimes as ISO text "YYYY-MM-DD HH:MM:SS.ffffff": a prefix is the period, cheaply
        key = func.substr(d, fixed(1), fixed({"month": 7, "day": 10, "year": 4}[name]))
    present = d.is_not(None)
    if name == "weekday":
        return Group(name, key, None, lambda v: _WEEKDAYS[int(v)] if v is not None else None, present)
    if name == "year":
        return Group(name, key, None, lambda v: int(v) if v is not None else None, present, period=_year_period)
    return Group(name, key, None, lambda v: v, present, period=date_period)


#: The most distinct values of a text column read to fold its values (:func:`folded_values`);
#: a column with more is no category and is grouped by spelling alone.
FOLD_LIMIT = 500


def folded_values(keys: Any) -> dict[str, str]:
    """Values of one category (lower case) -> the value they mean, for those that mean another:
    "recovery run" is "recovery" when the column also holds "recovery" alone - the memory's own
    evidence that the noun after it adds nothing ("tempo run", "tempo"). A value never written
    alone keeps its noun; chains fold to the shortest ("easy long run" -> "easy long" ->
    "easy"). Pure."""
    present = {" ".join(str(k).split()) for k in keys if k is not None and str(k).strip()}
    out = {}
    for k in sorted(present):
        short = k
        while len(short.split()) >= 2 and " ".join(short.split()[:-1]) in present:
            short = " ".join(short.split()[:-1])
        if short != k:
            out[k] = short
    return out


def _folded(expr: ColumnElement[Any], fold: dict[str, str]) -> ColumnElement[Any]:
    """``lower(trim(expr))`` with the values of :func:`folded_values` replaced by what they mean."""
    key = func.lower(func.trim(expr))
    if not fold:
        return key
    return case(*((key == fixed(a), fixed(b)) for a, b in sorted(fold.items())), else_=key)


def _fold_of(scope: Scope, col: ColumnElement[Any]) -> dict[str, str]:
    """The folding of a text column's values, read from its distinct values in this memory."""
    q = (select(func.lower(func.trim(col))).select_from(scope.table).where(scope.tenant(), col.is_not(None))
         .distinct().limit(FOLD_LIMIT + 1))
    with scope.sql.engine.connect() as conn:
        keys = [r[0] for r in conn.execute(q)]
    return folded_values(keys) if len(keys) <= FOLD_LIMIT else {}


def group_key(scope: Scope, group_by: Any) -> Group:
    """What ``group_by`` means: a column of the table (text, int, bool or datetime), or the
    month (YYYY-MM), day (YYYY-MM-DD), weekday (Monday..Sunday) or year of the effective date.
    A column of the table named like one of those wins over the virtual key."""
    check_name(group_by, "group_by")
    spelled = singular(norm(group_by))
    virtual = _GROUP_ALIASES.get(spelled, _GROUP_ALIASES.get(norm(group_by)))
    if virtual is not None and spelled not in {singular(norm(c)) for c in scope.info.column_names}:
        return _virtual_group(scope, virtual)
    valid = [n for n, t in scope.types.items() if t in _GROUP_TYPES and n != "captions"] + list(GROUP_VIRTUAL)
    try:
        name = resolve_column(scope.info, group_by)
    except ToolError as exc:
        if not str(exc).startswith("unknown column"):
            raise ToolError(f"group_by: {exc}") from None
        raise ToolError(f"unknown group_by column {group_by!r} in table {scope.info.name!r}; group_by can be: {', '.join(valid)}") from None
    ctype = scope.types[name]
    if ctype not in _GROUP_TYPES or name == "captions":
        raise ToolError(f"group_by needs a text, int, bool or datetime column, {name!r} is {ctype}; group_by can be: {', '.join(valid)}")
    col = scope.col(name)
    present = col.is_not(None)
    if ctype == "text":
        fold = _fold_of(scope, col)
        return Group(name, _folded(col, fold), func.min(col), lambda v: v.strip() if isinstance(v, str) else v, present, text=col,
                     fold=fold)
    if ctype == "bool":
        return Group(name, col, None, lambda v: bool(v) if v is not None else None, present)
    if ctype == "datetime":
        return Group(name, col, None, lambda v: as_value(datetime.fromisoformat(v) if isinstance(v, str) else v), present)
    return Group(name, col, None, lambda v: v, present)


_MERGEABLE = ("count", "sum", "avg", "min", "max", "share")


def grouped(scope: Scope, op: str, tgt: Target | None, where: ColumnElement[bool], group: Group, direction: str,
             budget: int, cond: list[ColumnElement[bool]], res: Callable[..., ToolResult]) -> ToolResult:
    """One query: the groups ranked by value, with the number of groups and of contributing
    rows over all of them (window functions over the grouped rows).

    A text column is grouped in two steps inside that query: by its stored spellings first -
    which an index on the column serves without sorting the table - then by the spelling
    folded to lower case without outer spaces, merging partial counts / sums / extremes.
    count_distinct and median cannot be merged and group by the folded spelling at once."""
    where = and_(where, group.present)
    x = tgt.element if tgt is not None else None
    expression = "*" if tgt is None else tgt.text
    if op == "median":
        assert tgt is not None
        return _grouped_median(scope, tgt, where, group, direction, budget, res)
    n = func.count(x) if x is not None else func.count()
    meet = func.sum(case((and_(*cond), 1), else_=0)) if op == "share" else None
    xk = cast(x, Integer) if x is not None and tgt is not None and tgt.ctype == "bool" else x  # PostgreSQL: no min(bool)
    if group.text is not None and op in _MERGEABLE:
        # the raw spelling where an index can serve it (count of rows), else trim(): a plan
        # walking the index would fetch every row in index order, slower than one sort
        raw = group.text if (op == "count" and x is None) else func.trim(group.text)
        parts: list[Any] = [raw.label("k"), n.label("n")]
        if op in ("sum", "avg"):
            parts.append(func.sum(x).label("s"))
        elif op in ("min", "max"):
            parts.append((func.min(xk) if op == "min" else func.max(xk)).label("s"))
        elif op == "share":
            parts.append(meet.label("m"))  # type: ignore[union-attr]
        inner = select(*parts).select_from(scope.table).where(where).group_by(raw).subquery()
        key = _folded(inner.c.k, group.fold or {})
        total = func.sum(inner.c.n)
        agg = {"count": total, "sum": func.sum(inner.c.s) if "s" in inner.c else None,
               "avg": cast(func.sum(inner.c.s), Float) / total if "s" in inner.c else None,
               "min": func.min(inner.c.s) if "s" in inner.c else None, "max": func.max(inner.c.s) if "s" in inner.c else None,
               "share": cast(func.sum(inner.c.m), Float) * fixed(100.0) / total if "m" in inner.c else None}[op]
        cols: list[Any] = [key.label("g"), agg.label("v"), total.label("n"), func.count().over().label("ngroups"),
                           func.sum(total).over().label("nrows"), func.min(inner.c.k).label("label")]
        if op == "share":
            cols.append(func.sum(inner.c.m).label("m"))
        v = cols[1]
        q = (select(*cols).group_by(key)
             .order_by(v.desc() if direction == "desc" else v.asc(), total.desc(), key.asc()).limit(budget))
    else:
        if op == "count":
            agg = n
        elif op == "count_distinct":
            agg = func.count(x.distinct())  # type: ignore[union-attr]
        elif op == "sum":
            agg = func.sum(x)
        elif op == "avg":
            agg = func.avg(x)
        elif op in ("min", "max"):
            agg = func.min(xk) if op == "min" else func.max(xk)
        else:  # share
            agg = cast(meet, Float) * fixed(100.0) / n
        g = group.key.label("g")
        v = agg.label("v")
        cols = [g, v, n.label("n"), func.count().over().label("ngroups"), func.sum(n).over().label("nrows")]
        if group.label is not None:
            cols.append(group.label.label("label"))
        if op == "share":
            cols.append(meet.label("m"))  # type: ignore[union-attr]
        q = (select(*cols).select_from(scope.table).where(where).group_by(group.key)
             .order_by(v.desc() if direction == "desc" else v.asc(), n.desc(), group.key.asc()).limit(budget))
    with scope.sql.engine.connect() as conn:
        fetched = [dict(r) for r in conn.execute(q).mappings()]
    return _group_result(scope, op, tgt, where, group, budget, cond, res, fetched, expression)


def _grouped_median(scope: Scope, tgt: Target, where: ColumnElement[bool], group: Group, direction: str,
                    budget: int, res: Callable[..., ToolResult]) -> ToolResult:
    """The median per group in one query: each group's values numbered in order (window
    functions), then the one or two middle ones averaged."""
    x = tgt.element
    cols: list[Any] = [group.key.label("g"), x.label("x"),
                       func.row_number().over(partition_by=group.key, order_by=x).label("rn"),
                       func.count().over(partition_by=group.key).label("cnt")]
    if group.label is not None:
        cols.append(func.min(scope.col(group.name)).over(partition_by=group.key).label("label"))
    inner = select(*cols).select_from(scope.table).where(where).subquery()
    middle = and_(inner.c.rn >= (inner.c.cnt + fixed(1)) // fixed(2), inner.c.rn <= (inner.c.cnt + fixed(2)) // fixed(2))
    v = func.avg(cast(inner.c.x, Float)).label("v")
    n = func.max(inner.c.cnt)
    out: list[Any] = [inner.c.g, v, n.label("n"), func.count().over().label("ngroups"), func.sum(n).over().label("nrows")]
    if group.label is not None:
        out.append(func.min(inner.c.label).label("label"))
    q = (select(*out).where(middle).group_by(inner.c.g)
         .order_by(v.desc() if direction == "desc" else v.asc(), n.desc(), inner.c.g.asc()).limit(budget))
    with scope.sql.engine.connect() as conn:
        fetched = [dict(r) for r in conn.execute(q).mappings()]
    if tgt.ctype == "int":  # the median of whole numbers stays whole when it is
        for r in fetched:
            if r["v"] is not None and float(r["v"]).is_integer():
                r["v"] = int(r["v"])
    return _group_result(scope, "median", tgt, where, group, budget, [], res, fetched, tgt.text)


def _group_result(scope: Scope, op: str, tgt: Target | None, where: ColumnElement[bool], group: Group, budget: int,
                  cond: list[ColumnElement[bool]], res: Callable[..., ToolResult], fetched: list[dict[str, Any]],
                  expression: str) -> ToolResult:
    if not fetched:
        return res([], 0, None, expression, groups=[], top_group=None, group_count=0,
                   note=f"no rows with a {group.name} value match column_filters")
    groups = []
    for r in fetched:
        value = r["v"]
        if op in ("count", "count_distinct"):
            value = int(value or 0)
        elif op == "avg" and value is not None:
            value = float(value)
        elif op in ("min", "max") and tgt is not None and tgt.ctype == "bool" and value is not None:
            value = bool(value)
        elif op in ("min", "max") and tgt is not None and tgt.ctype == "datetime" and isinstance(value, str):
            value = datetime.fromisoformat(value)
        shown = r["label"] if "label" in r else r["g"]
        if group.fold and isinstance(shown, str) and " ".join(shown.lower().split()) != r["g"]:
            shown = r["g"]  # "Recovery run" and "recovery" are one group: called by the value they mean
        entry = {"group": group.show(shown), "value": as_value(value), "rows": int(r["n"] or 0)}
        if op == "share":
            entry["meeting"] = int(r["m"] or 0)
        groups.append(entry)
    top = fetched[0]
    span = group.period(top["g"]) if group.period is not None else None
    if span is not None:  # a month / day / year: a date range, which the index on the date serves
        in_top = and_(where, scope.date >= span[0], scope.date < span[1])
    else:
        in_top = and_(where, group.key == top["g"])
    if op == "share":
        in_top = and_(in_top, *cond)
    elif op in ("min", "max") and tgt is not None and tgt.ctype != "bool":
        in_top = and_(in_top, tgt.element == top["v"])
    rows = fetch_rows(scope, row_select(scope, tgt).where(in_top).order_by(*scope.chronological()).limit(budget), tgt)
    extra: dict[str, Any] = {}
    if op == "share":
        extra = {"in_scope": int(top["n"] or 0), "meeting": groups[0]["meeting"]}
    return res(rows, int(fetched[0]["nrows"] or 0), groups[0]["value"], expression, groups=groups,
               top_group=groups[0]["group"], group_count=int(fetched[0]["ngroups"] or 0), **extra)
