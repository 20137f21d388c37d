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
"""

from __future__ import annotations

import difflib
import functools
import math
import operator as _ops
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import Float, Integer, Table, and_, case, cast, false, func, literal, not_, or_, select
from sqlalchemy.exc import DataError
from sqlalchemy.sql.elements import ColumnElement

from adamm.stores.expressions import (
    NUMERIC_TYPES,
    BinOp,
    Call,
    Col,
    Expr,
    ExpressionError,
    Neg,
    compile_expression,
    expression_type,
    parse_expression,
)
from adamm.stores.sql import SqlStore, StoreError, TableInfo, cast_value

MAX_BUDGET = 1000
MAX_NAME_CHARS = 100
MAX_FILTERS = 20
MAX_IN_VALUES = 200
FUZZY_CUTOFF = 0.75
MEDIAN_FETCH = 5000

#: System columns a tool may name, with their types; ``date`` is virtual: COALESCE(observed_at, time).
SYSTEM_TYPES: dict[str, str] = {"source": "text", "order": "int", "time": "datetime", "observed_at": "datetime", "date": "datetime", "captions": "text"}
_COLUMN_ALIASES = {"round_id": "source", "round": "source", "source_round": "source", "round_order": "order",
                   "timestamp": "time", "round_time": "time", "observed_date": "observed_at", "observed": "observed_at",
                   "effective_date": "date"}

FILTER_OPS = ("=", "!=", "<", "<=", ">", ">=", "between", "in", "contains", "mentions", "is_null", "not_null")
_OP_ALIASES = {
    "=": "=", "==": "=", "eq": "=", "equals": "=", "is": "=",
    "!=": "!=", "≠": "!=", "<>": "!=", "ne": "!=", "neq": "!=", "not_equal": "!=", "is_not": "!=",
    "<": "<", "lt": "<", "less_than": "<",
    "<=": "<=", "≤": "<=", "=<": "<=", "le": "<=", "lte": "<=",
    ">": ">", "gt": ">", "greater_than": ">",
    ">=": ">=", "≥": ">=", "=>": ">=", "ge": ">=", "gte": ">=",
    "between": "between", "in": "in", "contains": "contains", "mentions": "mentions", "mention": "mentions",
    "is_null": "is_null", "isnull": "is_null", "null": "is_null",
    "not_null": "not_null", "notnull": "not_null", "is_not_null": "not_null",
}

COMPUTE_OPS = ("count", "count_distinct", "sum", "avg", "median", "min", "max", "stddev", "first", "last", "delta", "trend", "share")
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
}
#: Operators Compute can apply per group (``group_by``).
GROUP_OPS = ("count", "count_distinct", "sum", "avg", "median", "min", "max", "share")
#: Virtual group_by keys over the effective ``date``: year-month, calendar day, weekday, year.
GROUP_VIRTUAL = ("month", "day", "weekday", "year")
_GROUP_ALIASES = {"month": "month", "year_month": "month", "day": "day", "calendar_day": "day", "calendar_date": "day",
                  "weekday": "weekday", "day_of_week": "weekday", "dow": "weekday", "week_day": "weekday", "year": "year"}
_GROUP_TYPES = ("text", "int", "bool", "datetime")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
#: Distinct values of a text column read to match a categorical filter value (see ``_text_in``).
MAX_DISTINCT = 2000
_NUMERIC_OPS = {"sum", "avg", "median", "stddev", "delta", "trend"}
_ORDER_ALIASES = {"desc": "desc", "descending": "desc", "highest": "desc", "top": "desc", "max": "desc", "largest": "desc",
                  "asc": "asc", "ascending": "asc", "lowest": "asc", "bottom": "asc", "min": "asc", "smallest": "asc"}

_COMPARE = {"=": _ops.eq, "!=": _ops.ne, "<": _ops.lt, "<=": _ops.le, ">": _ops.gt, ">=": _ops.ge}
_TARGET_LABEL = "_target"
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MONTH = re.compile(r"^\d{4}-\d{2}$")
_NAMEISH = re.compile(r"^[A-Za-z][A-Za-z0-9 _-]*$")


class ToolError(ValueError):
    """Invalid tool arguments; the message names the argument and lists the valid options."""


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
    note: str | None = None  # why value is None, when it is

    def to_dict(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.group_by is not None:
            extra.update(group_by=self.group_by, order=self.order, top_group=_jsonable(self.top_group),
                         group_count=self.group_count,
                         groups=[{k: _jsonable(v) for k, v in g.items()} for g in self.groups or []])
        if self.condition is not None:
            extra.update(condition=[{k: _jsonable(v) for k, v in f.items()} for f in self.condition],
                         in_scope=self.in_scope, meeting=self.meeting)
        if self.note is not None:
            extra["note"] = self.note
        return {
            "tool": self.tool,
            "table": self.table,
            "rows": [{k: _jsonable(v) for k, v in row.items()} for row in self.rows],
            "value": _jsonable(self.value),
            "operator": self.operator,
            "expression": self.expression,
            "matched": self.matched,
            "units": self.units,
            "sources": list(self.sources),
            "filters": [{k: _jsonable(v) for k, v in f.items()} for f in self.filters],
        } | extra


def _jsonable(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


# -- name resolution ----------------------------------------------------------------------------


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")


def _singular_word(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _singular(name: str) -> str:
    return "_".join(_singular_word(w) for w in name.split("_"))


_AFFIXES = {"table", "tbl", "log"}


def _strip_affixes(name: str) -> str:
    words = name.split("_")
    while len(words) > 1 and words[-1] in _AFFIXES:
        words.pop()
    while len(words) > 1 and words[0] in _AFFIXES:
        words.pop(0)
    return "_".join(words)


def _match(query: str, candidates: dict[str, str], stages: Sequence[Callable[[str], str]], what: str) -> str | None:
    """Resolve ``query`` against ``candidates`` (spelling -> target) stage by stage, then fuzzily.

    Returns the target, None when nothing matches; raises ToolError when a stage matches two
    different targets.
    """
    for key in stages:
        q = key(query)
        hits = sorted({target for spelling, target in candidates.items() if key(spelling) == q})
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise ToolError(f"ambiguous {what} {query!r}: could be {', '.join(hits)}")
    best: dict[str, float] = {}
    for spelling, target in candidates.items():
        score = max(difflib.SequenceMatcher(None, key(query), key(spelling)).ratio() for key in stages[1:])
        best[target] = max(best.get(target, 0.0), score)
    ranked = sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))
    if not ranked or ranked[0][1] < FUZZY_CUTOFF:
        return None
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        raise ToolError(f"ambiguous {what} {query!r}: could be {ranked[0][0]}, {ranked[1][0]}")
    return ranked[0][0]


def _check_name(name: Any, arg: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ToolError(f"{arg} must be a non-empty string, got {name!r}")
    if len(name) > MAX_NAME_CHARS:
        raise ToolError(f"{arg} is longer than {MAX_NAME_CHARS} characters")
    return name


def resolve_table(sql: SqlStore, memory_id: str, name: str) -> TableInfo:
    """The table of this memory that ``name`` means.

    Tolerant of case, spaces / hyphens for underscores, plural for singular ("sleep logs" ->
    ``sleep_log``), a ``table`` / ``log`` prefix or suffix, then a close spelling (difflib,
    cutoff 0.75). Raises ``ToolError("unknown table 'x'; tables: a, b")`` otherwise.
    """
    _check_memory(memory_id)
    _check_name(name, "table")
    infos = {info.name: info for info in sql.tables(memory_id)}
    stages = (lambda s: s, _norm, lambda s: _singular(_norm(s)), lambda s: _strip_affixes(_singular(_norm(s))))
    hit = _match(name, {n: n for n in infos}, stages, "table")
    if hit is None:
        raise ToolError(f"unknown table {name!r}; tables: {', '.join(infos) or '(none)'}")
    return infos[hit]


def _column_types(info: TableInfo) -> dict[str, str]:
    """Types of the names a tool may use: attribute columns, then the system columns.

    An attribute column named like a system column (only ``date`` can be) shadows it.
    """
    types = {c.name: c.type for c in info.columns}
    for name, ctype in SYSTEM_TYPES.items():
        types.setdefault(name, ctype)
    return types


def resolve_column(info: TableInfo, name: str) -> str:
    """The column of ``info`` that ``name`` means (same tolerance as ``resolve_table``).

    Besides the attribute columns: ``source``, ``order``, ``time``, ``observed_at`` and the
    virtual ``date`` (= COALESCE(observed_at, time)).
    """
    _check_name(name, "column")
    types = _column_types(info)
    stages = (lambda s: s, _norm, lambda s: _singular(_norm(s)))
    hit = _match(name, {n: n for n in types}, stages, "column")
    if hit is None:
        alias = _COLUMN_ALIASES.get(_singular(_norm(name)))
        if alias is not None and alias in types:
            return alias
        raise ToolError(f"unknown column {name!r} in table {info.name!r}; columns: {', '.join(types)}")
    return hit


# -- scope: one validated table of one memory ----------------------------------------------------


@dataclass
class _Scope:
    sql: SqlStore
    memory_id: str
    info: TableInfo
    table: Table
    types: dict[str, str]
    columns: dict[str, ColumnElement[Any]]
    dialect: str
    date: ColumnElement[Any]  # effective date COALESCE(observed_at, time), even if an attribute is named "date"
    distinct: dict[str, list[str] | None] = field(default_factory=dict)  # per call: text column -> its values

    def col(self, name: str) -> ColumnElement[Any]:
        return self.columns[name]

    def tenant(self) -> ColumnElement[bool]:
        return self.sql.tenant_filter(self.table, self.memory_id)

    def row_columns(self) -> list[ColumnElement[Any]]:
        t = self.table
        cols: list[ColumnElement[Any]] = [t.c.source, t.c.order, t.c.time, t.c.observed_at]
        if "date" not in self.info.column_names:
            cols.append(self.date.label("date"))
        cols.extend(t.c[c.name] for c in self.info.columns)
        return cols

    def chronological(self) -> list[Any]:
        """By date, then order (then insertion); undated rows after dated ones, on both backends."""
        t = self.table
        return [self.date.asc().nulls_last(), t.c.order.asc().nulls_last(), t.c.row_id.asc()]


def _check_memory(memory_id: Any) -> str:
    if not isinstance(memory_id, str) or not memory_id:
        raise ToolError(f"memory_id must be a non-empty string, got {memory_id!r}")
    return memory_id


def _scope(sql: SqlStore, memory_id: str, table: str) -> _Scope:
    info = resolve_table(sql, memory_id, table)
    try:
        info, sa_table = sql.table_handle(memory_id, info.name)
    except StoreError as exc:  # dropped between the two reads
        raise ToolError(str(exc)) from None
    columns: dict[str, ColumnElement[Any]] = {name: sa_table.c[name] for name in ("source", "order", "time", "observed_at", "captions")}
    columns["date"] = func.coalesce(sa_table.c.observed_at, sa_table.c.time)
    effective = columns["date"]
    for c in info.columns:
        columns[c.name] = sa_table.c[c.name]
    return _Scope(sql, memory_id, info, sa_table, _column_types(info), columns, sql.engine.dialect.name, effective)


def _budget(result_budget: Any) -> int:
    if isinstance(result_budget, bool) or not isinstance(result_budget, int) or not 1 <= result_budget <= MAX_BUDGET:
        raise ToolError(f"result_budget must be an integer from 1 to {MAX_BUDGET}, got {result_budget!r}")
    return result_budget


# -- values and filters -------------------------------------------------------------------------


def _cast(value: Any, ctype: str, column: str) -> Any:
    """A value cast to a column type, or ToolError naming the column."""
    if ctype == "int":  # an int column compares with any number; 7.5 simply matches no row
        if isinstance(value, int) and not isinstance(value, bool):
            return value if abs(value) < 2**63 else float(value)
        try:
            out = _cast(value, "float", column)
        except ToolError:
            raise ToolError(f"column {column!r} expects int, got {value!r}") from None
        return int(out) if out.is_integer() and abs(out) < 2**62 else out
    if ctype == "datetime" and isinstance(value, (int, float)) and not isinstance(value, bool):
        raise ToolError(f"column {column!r} expects datetime, got {value!r}")
    try:
        out = cast_value(value, ctype, column)
    except StoreError as exc:
        raise ToolError(str(exc)) from None
    except (OverflowError, ArithmeticError):
        raise ToolError(f"column {column!r} expects {ctype}, got {value!r} (out of range)") from None
    if isinstance(out, str):
        _check_text(out, column)
    return out


def _check_text(text: str, column: str) -> str:
    if "\x00" in text or len(text) > 10_000:
        raise ToolError(f"value for column {column!r} contains a NUL character or is longer than 10000 characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ToolError(f"value for column {column!r} is not valid unicode text") from None
    return text


def _period(value: Any) -> tuple[datetime, datetime] | None:
    """A whole day ("2025-03-04", a ``date``) or month ("2025-03") as [start, end)."""
    if isinstance(value, date) and not isinstance(value, datetime):
        start = datetime(value.year, value.month, value.day)
        return start, _next_day(start)
    if isinstance(value, str):
        text = value.strip()
        try:
            if _DAY.match(text):
                start = datetime.fromisoformat(text)
                return start, _next_day(start)
            if _MONTH.match(text):
                start = datetime.fromisoformat(text + "-01")
                if start.year == 9999 and start.month == 12:
                    return start, datetime.max
                return start, datetime(start.year + start.month // 12, start.month % 12 + 1, 1)
        except ValueError:
            return None
    return None


def _next_day(start: datetime) -> datetime:
    try:
        return start + timedelta(days=1)
    except OverflowError:
        return datetime.max


def _op(op: Any, arg: str) -> str:
    if not isinstance(op, str):
        raise ToolError(f"{arg} must be one of {', '.join(FILTER_OPS)}, got {op!r}")
    key = op.strip().lower()
    key = re.sub(r"[\s-]+", "_", key) if not set(key) <= set("=!<>≤≥≠") else key
    if key not in _OP_ALIASES:
        raise ToolError(f"unknown operator {op!r} in {arg}; operators: {', '.join(FILTER_OPS)}")
    return _OP_ALIASES[key]


def _scalar(value: Any, column: str, op: str) -> Any:
    if value is None:
        hint = " (use is_null / not_null for missing values)" if op in ("=", "!=") else ""
        raise ToolError(f"operator {op!r} on {column!r} needs a value{hint}")
    if isinstance(value, (dict, list, tuple, set)):
        raise ToolError(f"operator {op!r} on {column!r} needs a single value, got {value!r}")
    return value


_WORD = re.compile(r"[a-z0-9]+")


def contains_clause(col: Any, text: str) -> Any:
    """Case-insensitive substring match with LIKE wildcards in ``text`` taken literally."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return func.lower(col).like(f"%{escaped}%", escape="\\")


def mentions_clause(col: Any, text: str) -> ColumnElement[bool]:
    """Every word of ``text`` starts a word of the cell, case-insensitively ("right arm" finds
    "his right upper arm", "group ride" finds "Group rides"): how a record's own words are
    searched for a subset the question names ("on the gravel bike", "evening readings")."""
    words = [w for w in _WORD.findall(text.lower()) if len(w) > 1][:8]
    if not words:
        raise ToolError("operator 'mentions' needs at least one word")
    low = func.lower(col)
    clauses = []
    for w in words:
        stem = (w[:-2] if w.endswith(("shes", "ches", "xes", "sses")) else w[:-1]) \
            if len(w) >= 4 and w.endswith("s") and not w.endswith("ss") else w
        esc = stem.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        clauses.append(or_(*[low.like(p, escape="\\") for p in (f"{esc}%", f"% {esc}%", f"%({esc}%", f"%'{esc}%", f"%-{esc}%",
                                                                 f"%‘{esc}%", f"%\"{esc}%")]))
    return and_(*clauses)


def _clause(scope: _Scope, column: str, op: str, value: Any) -> ColumnElement[bool]:
    """One validated predicate. Text equality is case-insensitive; a date-only value on a
    datetime column means the whole day (or month)."""
    col = scope.col(column)
    ctype = scope.types[column]
    if op == "is_null":
        return col.is_(None)
    if op == "not_null":
        return col.is_not(None)
    if op == "contains":
        if ctype != "text":
            raise ToolError(f"operator 'contains' needs a text column, {column!r} is {ctype}")
        return contains_clause(col, _check_text(str(_scalar(value, column, op)), column))
    if op == "mentions":
        if ctype != "text":
            raise ToolError(f"operator 'mentions' needs a text column, {column!r} is {ctype}")
        return mentions_clause(col, _check_text(str(_scalar(value, column, op)), column))
    if op in ("<", "<=", ">", ">=", "between") and ctype not in ("int", "float", "datetime"):
        raise ToolError(f"operator {op!r} needs a numeric or datetime column, {column!r} is {ctype}")
    if op == "in":
        values = list(value) if isinstance(value, (list, tuple, set)) else [value]
        if len(values) > MAX_IN_VALUES:
            raise ToolError(f"operator 'in' on {column!r} takes at most {MAX_IN_VALUES} values")
        if not values:
            return false()
        if _categorical(scope, column):
            return _text_in(scope, column, [_cast(_scalar(v, column, op), ctype, column) for v in values])
        return or_(*[_clause(scope, column, "=", v) for v in values])
    if op == "between":
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise ToolError(f"operator 'between' on {column!r} needs [low, high], got {value!r}")
        low, high = (_scalar(v, column, op) for v in value)
        if ctype == "datetime":
            lo_p, hi_p = _period(low), _period(high)
            lo = lo_p[0] if lo_p else _cast(low, ctype, column)
            hi = hi_p[1] if hi_p else _cast(high, ctype, column)
            if lo > (hi_p[0] if hi_p else hi):
                raise ToolError(f"operator 'between' on {column!r} needs low <= high, got {value!r}")
            return and_(col >= lo, col < hi) if hi_p else and_(col >= lo, col <= hi)
        lo, hi = _cast(low, ctype, column), _cast(high, ctype, column)
        if lo > hi:
            raise ToolError(f"operator 'between' on {column!r} needs low <= high, got {value!r}")
        return and_(col >= lo, col <= hi)
    value = _scalar(value, column, op)
    if ctype == "datetime":
        period = _period(value)
        if period is not None:
            start, end = period
            if op == "=":
                return and_(col >= start, col < end)
            if op == "!=":
                return or_(col < start, col >= end)
            return {"<": _ops.lt(col, start), "<=": _ops.lt(col, end), ">": _ops.ge(col, end), ">=": _ops.ge(col, start)}[op]
    v = _cast(value, ctype, column)
    if op in ("=", "!=") and _categorical(scope, column):
        matched = _text_in(scope, column, [v])
        return matched if op == "=" else and_(col.is_not(None), not_(matched))
    if ctype == "text":
        col, v = func.lower(col), v.strip().lower()
    return _COMPARE[op](col, v)


# -- categorical text values: case- and alias-insensitive = / != / in ---------------------------------


def _categorical(scope: _Scope, column: str) -> bool:
    """A text attribute column (not source / captions): its = / != / in match loosely."""
    return scope.types[column] == "text" and column in scope.info.column_names


_WORD = re.compile(r"[^\W_]+")


def _tokens(text: str) -> frozenset[str]:
    """Lower-case alphanumeric words with a letter (a card mask like ****7730 drops out), a
    trailing plural folded: "DEBIT CARD ****7730" -> {debit, card}, "Debit cards" -> the same."""
    return frozenset(_singular_word(w) for w in _WORD.findall(text.lower()) if any(ch.isalpha() for ch in w))


def _loose_match(wanted: str, wanted_tokens: frozenset[str], cell: str) -> bool:
    """A cell matches a filter value when equal ignoring case and outer spaces, when the value's
    words are all among the cell's ("debit card" ~ "DEBIT CARD ****7730"), or the cell's words
    all among the value's ("debit card" ~ "debit")."""
    if cell.strip().lower() == wanted:
        return True
    cell_tokens = _tokens(cell)
    return bool(wanted_tokens and wanted_tokens <= cell_tokens) or bool(cell_tokens and cell_tokens <= wanted_tokens)


def _stem(token: str) -> str:
    """A substring every spelling folding to ``token`` contains ("battery" <- "batteries")."""
    return token[:-1] if token.endswith("y") and len(token) > 1 else token


def _text_in(scope: _Scope, column: str, values: list[str]) -> ColumnElement[bool]:
    """``column IN (the stored values matching any of values)``, as bound parameters.

    The column's distinct values in this memory are read once per call (up to MAX_DISTINCT);
    a column with more is read again restricted to the values sharing a word with the filter,
    and if even those are too many the filter falls back to SQL: equal ignoring case, or
    containing every word of the value.
    """
    col = scope.col(column)
    wanted = [(v.strip().lower(), _tokens(v)) for v in values]
    if column not in scope.distinct:
        scope.distinct[column] = _distinct_text(scope, col, None)
    cells = scope.distinct[column]
    if cells is None:
        near = [func.lower(col) == w for w, _ in wanted]
        near += [contains_clause(col, _stem(t)) for _, toks in wanted for t in toks]
        cells = _distinct_text(scope, col, or_(*near))
    if cells is None:
        loose = [or_(func.lower(col) == w, and_(*[contains_clause(col, _stem(t)) for t in toks]) if toks else false())
                 for w, toks in wanted]
        return or_(*loose)
    hits = sorted({c for c in cells if any(_loose_match(w, toks, c) for w, toks in wanted)})
    return col.in_(hits) if hits else false()


def _distinct_text(scope: _Scope, col: ColumnElement[Any], where: ColumnElement[bool] | None) -> list[str] | None:
    """The column's distinct non-null values in this memory, None when more than MAX_DISTINCT."""
    q = select(col).where(scope.tenant(), col.is_not(None))
    if where is not None:
        q = q.where(where)
    with scope.sql.engine.connect() as conn:
        cells = list(conn.execute(q.distinct().limit(MAX_DISTINCT + 1)).scalars())
    return None if len(cells) > MAX_DISTINCT else [c for c in cells if isinstance(c, str)]


def _filters(scope: _Scope, column_filters: Any, arg: str = "column_filters") -> tuple[list[ColumnElement[bool]], list[dict[str, Any]]]:
    if column_filters is None:
        return [], []
    if isinstance(column_filters, dict) and "column" in column_filters:
        column_filters = [column_filters]
    if not isinstance(column_filters, (list, tuple)):
        raise ToolError(f"{arg} must be a list of {{column, op, value}} objects, got {type(column_filters).__name__}")
    if len(column_filters) > MAX_FILTERS:
        raise ToolError(f"{arg} has {len(column_filters)} filters, at most {MAX_FILTERS} are allowed")
    clauses, normalized = [], []
    for i, f in enumerate(column_filters):
        where = f"{arg}[{i}]"
        if isinstance(f, dict) and "any" in f:
            # {"any": [...]}: rows meeting at least one ("systolic or diastolic above the target")
            if set(f) != {"any"} or not isinstance(f["any"], (list, tuple)) or not 2 <= len(f["any"]) <= MAX_FILTERS:
                raise ToolError(f"{where}: 'any' takes a list of 2 to {MAX_FILTERS} filters and nothing else")
            if any(isinstance(g, dict) and "any" in g for g in f["any"]):
                raise ToolError(f"{where}: 'any' filters cannot be nested")
            inner, inner_norm = _filters(scope, list(f["any"]), f"{where}.any")
            clauses.append(or_(*inner))
            normalized.append({"any": inner_norm})
            continue
        if not isinstance(f, dict):
            raise ToolError(f"{where} must be an object with keys column, op, value; got {f!r}")
        extra = set(f) - {"column", "op", "operator", "value"}
        if extra:
            raise ToolError(f"{where} has unknown keys {sorted(map(str, extra))}; keys: column, op, value")
        if "column" not in f:
            raise ToolError(f"{where} needs a 'column'")
        column = resolve_column(scope.info, f["column"])
        raw_op = f.get("op", f.get("operator", "=" if "value" in f else None))
        op = _op(raw_op, f"{where}.op")
        value = f.get("value")
        value = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        clauses.append(_clause(scope, column, op, value))
        normalized.append({"column": column, "op": op, "value": value} if op not in ("is_null", "not_null") else {"column": column, "op": op})
    return clauses, normalized


# -- targets ---------------------------------------------------------------------------------------


@dataclass
class _Target:
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


def _target(scope: _Scope, target: Any) -> _Target:
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
        return _Target(element, ctype, str(canon), bare)
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
            return _Target(scope.col(name), scope.types[name], name, name)
    raise error


# -- execution helpers -----------------------------------------------------------------------------


def _rows(scope: _Scope, query: Any, target: _Target | None = None) -> list[dict[str, Any]]:
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
            row[target.text] = _tidy(value)
        out.append(row)
    return out


def _select_rows(scope: _Scope, target: _Target | None = None) -> Any:
    cols = scope.row_columns()
    if target is not None:
        cols.append(target.element.label(_TARGET_LABEL))
    return select(*cols)


def _scalar_query(scope: _Scope, query: Any) -> Any:
    with scope.sql.engine.connect() as conn:
        return conn.execute(query).one()


def _count(scope: _Scope, where: ColumnElement[bool]) -> int:
    return int(_scalar_query(scope, select(func.count()).select_from(scope.table).where(where))[0] or 0)


def _tidy(value: Any) -> Any:
    """Numbers without float noise: 6 decimals, at least 6 significant digits."""
    if isinstance(value, Decimal):
        value = float(value) if value != value.to_integral_value() else int(value)
    if isinstance(value, float):
        if not math.isfinite(value) or value == 0:
            return value
        digits = max(6, 5 - math.floor(math.log10(abs(value))))
        return round(value, digits)
    return value


def _value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return _tidy(value)


def _result(tool: str, scope: _Scope, rows: list[dict[str, Any]], matched: int, filters: list[dict[str, Any]], **kw: Any) -> ToolResult:
    return ToolResult(tool=tool, table=scope.info.name, rows=rows, matched=matched, filters=filters,
                      units=1 if tool == "Compute" else len(rows), sources=[str(r["source"]) for r in rows], **kw)


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
    budget = _budget(result_budget)
    scope = _scope(sql, memory_id, table)
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
    clauses, normalized = _filters(scope, filters, "key_values")
    where = and_(scope.tenant(), *clauses)
    rows = _rows(scope, _select_rows(scope).where(where).order_by(*scope.chronological()).limit(budget))
    matched = len(rows) if len(rows) < budget else _count(scope, where)
    return _result("Lookup", scope, rows, matched, normalized)


@_guarded
def filter_rows(sql: SqlStore, memory_id: str, table: str, column_filters: list[dict[str, Any]], result_budget: int = 10) -> ToolResult:
    """Rows satisfying every filter ``{"column", "op", "value"}``, in chronological order."""
    budget = _budget(result_budget)
    scope = _scope(sql, memory_id, table)
    clauses, normalized = _filters(scope, column_filters)
    where = and_(scope.tenant(), *clauses)
    rows = _rows(scope, _select_rows(scope).where(where).order_by(*scope.chronological()).limit(budget))
    matched = len(rows) if len(rows) < budget else _count(scope, where)
    return _result("Filter", scope, rows, matched, normalized)


def _direction(order: Any, arg: str) -> str:
    if not isinstance(order, str) or _norm(order) not in _ORDER_ALIASES:
        raise ToolError(f"{arg} must be 'desc' or 'asc', got {order!r}")
    return _ORDER_ALIASES[_norm(order)]


# -- group_by ----------------------------------------------------------------------------------------


@dataclass
class _Group:
    name: str  # resolved column name or a GROUP_VIRTUAL key
    key: ColumnElement[Any]  # what rows are grouped by (text: lower(trim(column)))
    label: ColumnElement[Any] | None  # an aggregate that names the group (text: min(column)), else the key
    show: Callable[[Any], Any]  # key or label as shown in the result
    present: ColumnElement[bool]  # the rows that have a group (key not NULL), cheaply
    text: ColumnElement[Any] | None = None  # a text column: grouped in two steps (see _grouped)
    period: Callable[[Any], tuple[datetime, datetime] | None] | None = None  # a date group as a date range


def _fixed(value: Any) -> Any:
    """A constant of our own rendered inline, so that the same expression in SELECT and GROUP BY
    compiles to the same SQL on PostgreSQL (two bound parameters would be two expressions)."""
    return literal(value, literal_execute=True)


def _year_period(v: Any) -> tuple[datetime, datetime] | None:
    year = int(v)
    return (datetime(year, 1, 1), datetime(year + 1, 1, 1)) if 1 <= year < 9999 else None


def _virtual_group(scope: _Scope, name: str) -> _Group:
    d = scope.date
    if scope.dialect == "postgresql":
        if name == "weekday":
            key = cast(func.extract("isodow", d), Integer) - _fixed(1)
        else:
            key = func.to_char(d, _fixed({"month": "YYYY-MM", "day": "YYYY-MM-DD", "year": "YYYY"}[name]))
    elif name == "weekday":  # SQLite: %w is 0 = Sunday; make 0 = Monday as weekday() does
        key = (cast(func.strftime(_fixed("%w"), d), Integer) + _fixed(6)) % _fixed(7)
    else:  # SQLite keeps datetimes as ISO text "YYYY-MM-DD HH:MM:SS.ffffff": a prefix is the period, cheaply
        key = func.substr(d, _fixed(1), _fixed({"month": 7, "day": 10, "year": 4}[name]))
    present = d.is_not(None)
    if name == "weekday":
        return _Group(name, key, None, lambda v: _WEEKDAYS[int(v)] if v is not None else None, present)
    if name == "year":
        return _Group(name, key, None, lambda v: int(v) if v is not None else None, present, period=_year_period)
    return _Group(name, key, None, lambda v: v, present, period=_period)


def _group_key(scope: _Scope, group_by: Any) -> _Group:
    """What ``group_by`` means: a column of the table (text, int, bool or datetime), or the
    month (YYYY-MM), day (YYYY-MM-DD), weekday (Monday..Sunday) or year of the effective date.
    A column of the table named like one of those wins over the virtual key."""
    _check_name(group_by, "group_by")
    spelled = _singular(_norm(group_by))
    virtual = _GROUP_ALIASES.get(spelled, _GROUP_ALIASES.get(_norm(group_by)))
    if virtual is not None and spelled not in {_singular(_norm(c)) for c in scope.info.column_names}:
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
        return _Group(name, func.lower(func.trim(col)), func.min(col), lambda v: v.strip() if isinstance(v, str) else v, present, text=col)
    if ctype == "bool":
        return _Group(name, col, None, lambda v: bool(v) if v is not None else None, present)
    if ctype == "datetime":
        return _Group(name, col, None, lambda v: _value(datetime.fromisoformat(v) if isinstance(v, str) else v), present)
    return _Group(name, col, None, lambda v: v, present)


_MERGEABLE = ("count", "sum", "avg", "min", "max", "share")


def _grouped(scope: _Scope, op: str, tgt: _Target | None, where: ColumnElement[bool], group: _Group, direction: str,
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
        key = func.lower(func.trim(inner.c.k))
        total = func.sum(inner.c.n)
        agg = {"count": total, "sum": func.sum(inner.c.s) if "s" in inner.c else None,
               "avg": cast(func.sum(inner.c.s), Float) / total if "s" in inner.c else None,
               "min": func.min(inner.c.s) if "s" in inner.c else None, "max": func.max(inner.c.s) if "s" in inner.c else None,
               "share": cast(func.sum(inner.c.m), Float) * _fixed(100.0) / total if "m" in inner.c else None}[op]
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
            agg = cast(meet, Float) * _fixed(100.0) / n
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


def _grouped_median(scope: _Scope, tgt: _Target, where: ColumnElement[bool], group: _Group, direction: str,
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
    middle = and_(inner.c.rn >= (inner.c.cnt + _fixed(1)) // _fixed(2), inner.c.rn <= (inner.c.cnt + _fixed(2)) // _fixed(2))
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


def _group_result(scope: _Scope, op: str, tgt: _Target | None, where: ColumnElement[bool], group: _Group, budget: int,
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
        entry = {"group": group.show(r["label"] if "label" in r else r["g"]), "value": _value(value), "rows": int(r["n"] or 0)}
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
    rows = _rows(scope, _select_rows(scope, tgt).where(in_top).order_by(*scope.chronological()).limit(budget), tgt)
    extra: dict[str, Any] = {}
    if op == "share":
        extra = {"in_scope": int(top["n"] or 0), "meeting": groups[0]["meeting"]}
    return res(rows, int(fetched[0]["nrows"] or 0), groups[0]["value"], expression, groups=groups,
               top_group=groups[0]["group"], group_count=int(fetched[0]["ngroups"] or 0), **extra)


def _compute_op(operator: Any) -> str:
    if not isinstance(operator, str) or _norm(operator) not in _COMPUTE_ALIASES:
        raise ToolError(f"unknown operator {operator!r}; operators: {', '.join(COMPUTE_OPS)}")
    return _COMPUTE_ALIASES[_norm(operator)]


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
    budget = _budget(result_budget)
    op = _compute_op(operator)
    direction = _direction(order, "order")
    scope = _scope(sql, memory_id, table)
    clauses, normalized = _filters(scope, column_filters)
    base = and_(scope.tenant(), *clauses)
    cond: list[ColumnElement[bool]] = []
    cond_normalized: list[dict[str, Any]] | None = None
    if op == "share":
        if condition is None or (isinstance(condition, (list, tuple)) and not condition):
            raise ToolError("operator 'share' needs a condition: a list of {column, op, value} filters that the counted rows "
                            "must meet (column_filters choose the rows in scope); e.g. condition "
                            "[{\"column\": \"result\", \"op\": \"=\", \"value\": \"win\"}]")
        cond, cond_normalized = _filters(scope, condition, "condition")
    elif condition is not None and not (isinstance(condition, (list, tuple)) and not condition):
        raise ToolError(f"condition only works with operator 'share'; operator {op!r} takes its conditions in column_filters")
    group = _group_key(scope, group_by) if group_by is not None else None
    if group is not None and op not in GROUP_OPS:
        raise ToolError(f"group_by does not work with operator {op!r}; operators with group_by: {', '.join(GROUP_OPS)}")

    def res(rows: list[dict[str, Any]], matched: int, value: Any, expression: str, **kw: Any) -> ToolResult:
        if group is not None:
            kw.setdefault("group_by", group.name)
            kw.setdefault("order", direction)
        if cond_normalized is not None:
            kw.setdefault("condition", cond_normalized)
        return _result("Compute", scope, rows, matched, normalized, value=value, operator=op, expression=expression, **kw)

    star = isinstance(target, str) and target.strip() == "*"
    if star and op not in ("count", "share"):
        raise ToolError(f"target '*' only works with operator 'count' or 'share'; operator {op!r} needs a column; "
                        f"columns: {', '.join(scope.types)}")
    tgt = None if star else _target(scope, target)
    if tgt is not None and op in _NUMERIC_OPS and tgt.ctype not in NUMERIC_TYPES:
        raise ToolError(f"operator {op!r} needs a numeric target, {tgt.text!r} is {tgt.ctype}; "
                        f"numeric columns: {', '.join(n for n, t in scope.types.items() if t in NUMERIC_TYPES)}")
    expression = "*" if tgt is None else tgt.text
    where = base if tgt is None else and_(base, tgt.element.is_not(None))

    if group is not None:
        return _grouped(scope, op, tgt, where, group, direction, budget, cond, res)

    if op == "share":
        meet = func.sum(case((and_(*cond), 1), else_=0))
        n, m = _scalar_query(scope, select(func.count(), meet).select_from(scope.table).where(where))
        n, m = int(n or 0), int(m or 0)
        if n == 0:
            return res([], 0, None, expression, in_scope=0, meeting=0,
                       note="no rows match column_filters, so the share is undefined")
        rows = _rows(scope, _select_rows(scope, tgt).where(where, *cond).order_by(*scope.chronological()).limit(budget), tgt)
        return res(rows, n, _tidy(100.0 * m / n), expression, in_scope=n, meeting=m)

    if tgt is None:  # count(*)
        n = _count(scope, base)
        rows = _rows(scope, _select_rows(scope).where(base).order_by(*scope.chronological()).limit(budget))
        return res(rows, n, n, "*")

    x = tgt.element
    chrono = _select_rows(scope, tgt).where(where).order_by(*scope.chronological())

    if op in ("count", "count_distinct", "sum", "avg"):
        agg = {"count": func.count(x), "count_distinct": func.count(x.distinct()),
               "sum": func.sum(x), "avg": func.avg(x)}[op]
        value, n = _scalar_query(scope, select(agg, func.count(x)).select_from(scope.table).where(where))
        n = int(n or 0)
        if op in ("count", "count_distinct"):
            value = int(value or 0)
        elif op == "avg" and value is not None:
            value = float(value)
        elif n == 0:
            value = None
        rows = _rows(scope, chrono.limit(budget), tgt) if n else []
        return res(rows, n, _value(value), tgt.text)

    if op == "stddev":
        # one pass over values shifted by one of them (K), which keeps the sums small:
        # var = (sum (x-K)^2 - (sum (x-K))^2 / n) / (n - 1)
        with scope.sql.engine.connect() as conn:
            shift = conn.execute(select(cast(x, Float)).select_from(scope.table).where(where).limit(1)).scalar()
        if shift is None:
            return res([], 0, None, tgt.text)
        dev = cast(x, Float) - float(shift)
        n, s1, s2 = _scalar_query(scope, select(func.count(x), func.sum(dev), func.sum(dev * dev)).select_from(scope.table).where(where))
        n = int(n or 0)
        value = None
        if n >= 2:
            s1, s2 = float(s1 or 0.0), float(s2 or 0.0)
            value = math.sqrt(max(s2 - s1 * s1 / n, 0.0) / (n - 1))
        rows = _rows(scope, chrono.limit(budget), tgt)
        return res(rows, n, _value(value), tgt.text)

    if op == "trend":
        return res(*_trend(scope, where, tgt, chrono, budget), tgt.text)

    if op in ("min", "max"):
        n = _count(scope, where)
        if n == 0:
            return res([], 0, None, tgt.text)
        key = cast(x, Integer) if tgt.ctype == "bool" else x  # PostgreSQL has no min/max of boolean
        q = _select_rows(scope, tgt).where(where).order_by(key.desc() if op == "max" else key.asc(), *scope.chronological())
        rows = _rows(scope, q.limit(budget), tgt)
        extreme = _row_target(rows[0], tgt)
        rows = [r for r in rows if _row_target(r, tgt) == extreme]
        return res(rows, n, _value(extreme), tgt.text)

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
        rows = _rows(scope, chrono.where(x.in_(sorted(set(middle)))).limit(budget), tgt)
        return res(rows, n, _value(value), tgt.text)

    # first / last / delta: by date, then order
    n = _count(scope, where)
    if n == 0:
        return res([], 0, None, tgt.text)
    if op == "first":
        first = _rows(scope, chrono.limit(1), tgt)[0]
        return res([first], n, _value(_row_target(first, tgt)), tgt.text)
    last = _last_row(scope, where, tgt)
    if op == "last":
        return res([last], n, _value(_row_target(last, tgt)), tgt.text)
    first = _rows(scope, chrono.limit(1), tgt)[0]
    rows = [first] if first["source"] == last["source"] else [first, last][:budget]
    return res(rows, n, _value(_row_target(last, tgt) - _row_target(first, tgt)), tgt.text)


def _trend(scope: _Scope, where: ColumnElement[bool], tgt: _Target, chrono: Any, budget: int) -> tuple[list[dict[str, Any]], int, Any]:
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
    n, sx, sy, sxy, sxx = _scalar_query(scope, select(func.count(), func.sum(x), func.sum(y), func.sum(x * y), func.sum(x * x))
                                        .select_from(scope.table).where(dated))
    n = int(n or 0)
    value = None
    if n >= 2:
        sx, sy, sxy, sxx = (float(v or 0.0) for v in (sx, sy, sxy, sxx))
        denom = n * sxx - sx * sx
        if abs(denom) > 1e-12:
            value = (n * sxy - sx * sy) / denom
    rows = _rows(scope, chrono.where(scope.date.is_not(None)).limit(budget), tgt)
    return rows, n, _value(value)


def _last_row(scope: _Scope, where: ColumnElement[bool], tgt: _Target) -> dict[str, Any]:
    """The last row by date, then order. Rows with a date first, in plain DESC order - so that
    PostgreSQL can walk an index on the date backwards - and an undated row only when no row
    has a date (it would sort last among nulls-last anyway)."""
    t = scope.table
    dated = _select_rows(scope, tgt).where(where, scope.date.is_not(None))
    rows = _rows(scope, dated.order_by(scope.date.desc(), t.c.order.desc().nulls_last(), t.c.row_id.desc()).limit(1), tgt)
    if not rows:
        undated = _select_rows(scope, tgt).where(where, scope.date.is_(None))
        rows = _rows(scope, undated.order_by(t.c.order.desc().nulls_last(), t.c.row_id.desc()).limit(1), tgt)
    return rows[0]


def _row_target(row: dict[str, Any], tgt: _Target) -> Any:
    return row[tgt.bare if tgt.bare is not None else tgt.text]


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
    budget = _budget(result_budget)
    direction = _direction(order, "order")
    scope = _scope(sql, memory_id, table)
    clauses, normalized = _filters(scope, column_filters)
    tgt = _target(scope, target)
    where = and_(scope.tenant(), *clauses, tgt.element.is_not(None))
    key = tgt.element.desc() if direction == "desc" else tgt.element.asc()
    rows = _rows(scope, _select_rows(scope, tgt).where(where).order_by(key, *scope.chronological()).limit(budget), tgt)
    matched = len(rows) if len(rows) < budget else _count(scope, where)
    return _result("Rank", scope, rows, matched, normalized, operator=direction, expression=tgt.text)


def distinct_values(sql: SqlStore, memory_id: str, table: str, column: str, limit: int = 20) -> list[Any]:
    """Up to ``limit`` distinct non-null values of a column, most frequent first - the sampled
    values a planner sees, so it can turn "on groceries" into ``category = 'groceries'``."""
    scope = _scope(sql, memory_id, table)
    name = resolve_column(scope.info, column)
    col = scope.col(name)
    q = (select(col, func.count().label("n")).select_from(scope.table)
         .where(scope.tenant(), col.is_not(None)).group_by(col).order_by(func.count().desc(), col).limit(max(1, min(limit, 200))))
    with sql.engine.connect() as conn:
        return [_value(v) for v, _ in conn.execute(q)]
