"""Targets, row reads and results: the SQL every analytic tool shares around its filters.

A target ("sleep_hours", "distance_km / duration_h") comes from a model, so it is parsed by the
safe grammar of ``stores/expressions.py`` and compiled over resolved columns - never pasted into
SQL. Rows are read in one shape for every tool (the system columns, the effective ``date``, the
attributes and, for an expression, its value), and numbers are tidied of float noise here, so
that every tool reports the same value the same way.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Float, and_, cast, func, select
from sqlalchemy.sql.elements import ColumnElement

from adamm.stores.analytic_scope import Scope, ToolError, resolve_column
from adamm.stores.expressions import BinOp, Call, Col, Expr, ExpressionError, Neg, compile_expression, expression_type, parse_expression

_TARGET_LABEL = "_target"
_NAMEISH = re.compile(r"^[A-Za-z][A-Za-z0-9 _-]*$")


@dataclass
class ToolResult:
    tool: str  # "Lookup" | "Filter" | "Compute" | "Rank"
    table: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    value: float | int | str | None = None
    operator: str | None = None  # Compute: the operator; Rank: "desc" / "asc"
    expression: str | None = None  # Compute / Rank: the target, with resolved column names
    matched: int = 0
    units: int = 0
    sources: list[str] = field(default_factory=list)
    filters: list[dict[str, Any]] = field(default_factory=list)  # the validated filters, resolved names
    # Compute with group_by: the groups ranked by value, best first (bounded by result_budget)
    group_by: str | None = None  # resolved column name, or month / day / weekday / year
    order: str | None = None  # "desc" / "asc": how the groups are ranked
    groups: list[dict[str, Any]] | None = None  # [{"group", "value", "rows"(, "meeting")}]
    top_group: Any = None  # groups[0]["group"]; ``value`` is its value
    group_count: int | None = None  # groups before the budget cut
    # Compute share: the condition, and the counts behind value = 100 * meeting / in_scope
    condition: list[dict[str, Any]] | None = None
    in_scope: int | None = None
    meeting: int | None = None
    weighted: bool = False  # share of a numeric target's sum (value = 100 * its sum meeting / its sum), not of rows
    note: str | None = None  # why value is None, when it is

    def to_dict(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.group_by is not None:
            extra.update(group_by=self.group_by, order=self.order, top_group=jsonable(self.top_group),
                         group_count=self.group_count,
                         groups=[{k: jsonable(v) for k, v in g.items()} for g in self.groups or []])
        if self.condition is not None:
            extra.update(condition=[{k: jsonable(v) for k, v in f.items()} for f in self.condition],
                         in_scope=self.in_scope, meeting=self.meeting)
            if self.weighted:
                extra["weighted"] = True
        if self.note is not None:
            extra["note"] = self.note
        return {
            "tool": self.tool,
            "table": self.table,
            "rows": [{k: jsonable(v) for k, v in row.items()} for row in self.rows],
            "value": jsonable(self.value),
            "operator": self.operator,
            "expression": self.expression,
            "matched": self.matched,
            "units": self.units,
            "sources": list(self.sources),
            "filters": [{k: jsonable(v) for k, v in f.items()} for f in self.filters],
        } | extra


def jsonable(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


@dataclass
class Target:
    element: ColumnElement[Any]
    ctype: str
    text: str  # canonical, resolved names
    bare: str | None  # the column name when the target is a bare column


def _rename(expr: Expr, names: dict[str, str]) -> Expr:
    if isinstance(expr, Col):
        return replace(expr, name=names.get(expr.name, expr.name))
    if isinstance(expr, Neg):
        return replace(expr, operand=_rename(expr.operand, names))
    if isinstance(expr, BinOp):
        return replace(expr, left=_rename(expr.left, names), right=_rename(expr.right, names))
    if isinstance(expr, Call):
        return replace(expr, args=tuple(_rename(a, names) for a in expr.args))
    return expr


def parse_target(scope: Scope, target: Any) -> Target:
    if not isinstance(target, str) or not target.strip():
        raise ToolError(f"target must be a column name or an expression over columns, got {target!r}; columns: {', '.join(scope.types)}")
    text = target.strip()
    parsed = False
    try:
        expr = parse_expression(text)
        parsed = True
        names: dict[str, str] = {}

        def resolve(name: str) -> str:
            names[name] = resolve_column(scope.info, name)
            return names[name]

        ctype = expression_type(expr, scope.types, resolve)
        if not names:
            raise ToolError(f"target {text!r} must refer to a column; columns: {', '.join(scope.types)}")
        element = compile_expression(expr, scope.table, scope.types, scope.dialect, resolve=resolve, columns=scope.columns)
        canon = _rename(expr, names)
        bare = canon.name if isinstance(canon, Col) else None
        return Target(element, ctype, str(canon), bare)
    except ExpressionError as exc:
        error = ToolError(f"target {text!r}: {exc}")
    except ToolError as exc:
        error = exc
    # "Total Sleep", "sleep-hours": a column name that is not an expression
    if _NAMEISH.match(text):
        try:
            name = resolve_column(scope.info, text)
        except ToolError as exc:
            if not parsed:  # not an expression at all: report the name
                error = exc
        else:
            return Target(scope.col(name), scope.types[name], name, name)
    raise error


# -- execution helpers -----------------------------------------------------------------------------


def fetch_rows(scope: Scope, query: Any, target: Target | None = None) -> list[dict[str, Any]]:
    with scope.sql.engine.connect() as conn:
        fetched = [dict(r) for r in conn.execute(query).mappings()]
    out = []
    for row in fetched:
        value = row.pop(_TARGET_LABEL, None)
        for key, v in row.items():
            if isinstance(v, date) and not isinstance(v, datetime):
                row[key] = datetime(v.year, v.month, v.day)
            elif isinstance(v, Decimal):
                row[key] = float(v)
        if target is not None and target.bare is None:
            row[target.text] = tidy(value)
        out.append(row)
    return out


def row_select(scope: Scope, target: Target | None = None) -> Any:
    cols = scope.row_columns()
    if target is not None:
        cols.append(target.element.label(_TARGET_LABEL))
    return select(*cols)


def scalar_query(scope: Scope, query: Any) -> Any:
    with scope.sql.engine.connect() as conn:
        return conn.execute(query).one()


def count_where(scope: Scope, where: ColumnElement[bool]) -> int:
    return int(scalar_query(scope, select(func.count()).select_from(scope.table).where(where))[0] or 0)


def tidy(value: Any) -> Any:
    """Numbers without float noise: 6 decimals, at least 6 significant digits."""
    if isinstance(value, Decimal):
        value = float(value) if value != value.to_integral_value() else int(value)
    if isinstance(value, float):
        if not math.isfinite(value) or value == 0:
            return value
        digits = max(6, 5 - math.floor(math.log10(abs(value))))
        return round(value, digits)
    return value


def as_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return tidy(value)


def tool_result(tool: str, scope: Scope, rows: list[dict[str, Any]], matched: int, filters: list[dict[str, Any]], **kw: Any) -> ToolResult:
    return ToolResult(tool=tool, table=scope.info.name, rows=rows, matched=matched, filters=filters,
                      units=1 if tool == "Compute" else len(rows), sources=[str(r["source"]) for r in rows], **kw)


def trend(scope: Scope, where: ColumnElement[bool], tgt: Target, chrono: Any, budget: int) -> tuple[list[dict[str, Any]], int, Any]:
    """Least-squares slope of the target per day of the effective date (rows without a date do
    not count): the sign says up or down, robust to one odd first or last value, unlike delta.
    Days are shifted by the first one so the sums stay small on both backends."""
    dated = and_(where, scope.date.is_not(None))
    with scope.sql.engine.connect() as conn:
        first = conn.execute(select(func.min(scope.date)).select_from(scope.table).where(dated)).scalar()
    if first is None:
        return [], 0, None
    if isinstance(first, str):
        first = datetime.fromisoformat(first)
    if scope.dialect == "sqlite":
        day = func.julianday(scope.date) - func.julianday(first)
    else:
        day = func.extract("epoch", scope.date - first) / 86400.0
    x, y = cast(day, Float), cast(tgt.element, Float)
    n, sx, sy, sxy, sxx = scalar_query(scope, select(func.count(), func.sum(x), func.sum(y), func.sum(x * y), func.sum(x * x))
                                        .select_from(scope.table).where(dated))
    n = int(n or 0)
    value = None
    if n >= 2:
        sx, sy, sxy, sxx = (float(v or 0.0) for v in (sx, sy, sxy, sxx))
        denom = n * sxx - sx * sx
        if abs(denom) > 1e-12:
            value = (n * sxy - sx * sy) / denom
    rows = fetch_rows(scope, chrono.where(scope.date.is_not(None)).limit(budget), tgt)
    return rows, n, as_value(value)

def last_row(scope: Scope, where: ColumnElement[bool], tgt: Target) -> dict[str, Any]:
    """The last row by date, then order. Rows with a date first, in plain DESC order - so that
    PostgreSQL can walk an index on the date backwards - and an undated row only when no row
    has a date (it would sort last among nulls-last anyway)."""
    t = scope.table
    dated = row_select(scope, tgt).where(where, scope.date.is_not(None))
    rows = fetch_rows(scope, dated.order_by(scope.date.desc(), t.c.order.desc().nulls_last(), t.c.row_id.desc()).limit(1), tgt)
    if not rows:
        undated = row_select(scope, tgt).where(where, scope.date.is_(None))
        rows = fetch_rows(scope, undated.order_by(t.c.order.desc().nulls_last(), t.c.row_id.desc()).limit(1), tgt)
    return rows[0]

def row_target(row: dict[str, Any], tgt: Target) -> Any:
    return row[tgt.bare if tgt.bare is not None else tgt.text]
