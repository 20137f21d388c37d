"""Filters to SQL: the one translation of ``{column, op, value}`` filters into predicates.

Filters come from a planner model, so each is validated before any SQL exists - the column
resolved, the operator checked against the column's type, the value cast to it - and becomes a
SQLAlchemy predicate over bound parameters. Values are matched the way people say them: a date
means the whole day (or month), text equality ignores case, and a categorical text value also
matches the stored spellings that carry the same words ("debit card" ~ "DEBIT CARD ****7730"),
because a planner only ever sees a sample of a column's values.

Three forms reach past one column's value, because questions name subsets the columns do not
hold: ``mentions`` searches the words each record was read from (``captions``: "evening
readings", "on the gravel bike"); ``{any: [filter, ...]}`` keeps rows meeting one of its filters
("systolic or diastolic past the target"); and a filter with ``table`` and ``via`` is a condition
on another table's rows linked by a column both have (``{column: genre, value: memoir, table:
book_log, via: book}`` over reading sessions: the sessions of memoirs).
"""

from __future__ import annotations

import operator as _ops
import re
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import and_, false, func, not_, or_, select
from sqlalchemy.sql.elements import ColumnElement

from adamm.stores.analytic_scope import Scope, ToolError, open_scope, resolve_column, singular_word
from adamm.stores.sql import StoreError, cast_value

MAX_FILTERS = 20
MAX_IN_VALUES = 200
#: Distinct values of a text column read to match a categorical filter value (see ``_text_in``).
MAX_DISTINCT = 2000

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

_COMPARE = {"=": _ops.eq, "!=": _ops.ne, "<": _ops.lt, "<=": _ops.le, ">": _ops.gt, ">=": _ops.ge}
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MONTH = re.compile(r"^\d{4}-\d{2}$")
#: Words of a filter value or a cell: letters and digits, any script.
_WORD = re.compile(r"[^\W_]+")


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


def date_period(value: Any) -> tuple[datetime, datetime] | None:
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


def _clause(scope: Scope, column: str, op: str, value: Any) -> ColumnElement[bool]:
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
            lo_p, hi_p = date_period(low), date_period(high)
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
        period = date_period(value)
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


def _categorical(scope: Scope, column: str) -> bool:
    """A text attribute column (not source / captions): its = / != / in match loosely."""
    return scope.types[column] == "text" and column in scope.info.column_names


def _tokens(text: str) -> frozenset[str]:
    """Lower-case alphanumeric words with a letter (a card mask like ****7730 drops out), a
    trailing plural folded: "DEBIT CARD ****7730" -> {debit, card}, "Debit cards" -> the same."""
    return frozenset(singular_word(w) for w in _WORD.findall(text.lower()) if any(ch.isalpha() for ch in w))


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


def _text_in(scope: Scope, column: str, values: list[str]) -> ColumnElement[bool]:
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


def _distinct_text(scope: Scope, col: ColumnElement[Any], where: ColumnElement[bool] | None) -> list[str] | None:
    """The column's distinct non-null values in this memory, None when more than MAX_DISTINCT."""
    q = select(col).where(scope.tenant(), col.is_not(None))
    if where is not None:
        q = q.where(where)
    with scope.sql.engine.connect() as conn:
        cells = list(conn.execute(q.distinct().limit(MAX_DISTINCT + 1)).scalars())
    return None if len(cells) > MAX_DISTINCT else [c for c in cells if isinstance(c, str)]


def build_filters(scope: Scope, column_filters: Any, arg: str = "column_filters") -> tuple[list[ColumnElement[bool]], list[dict[str, Any]]]:
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
            inner, inner_norm = build_filters(scope, list(f["any"]), f"{where}.any")
            clauses.append(or_(*inner))
            normalized.append({"any": inner_norm})
            continue
        if not isinstance(f, dict):
            raise ToolError(f"{where} must be an object with keys column, op, value; got {f!r}")
        extra = set(f) - {"column", "op", "operator", "value", "table", "via"}
        if extra:
            raise ToolError(f"{where} has unknown keys {sorted(map(str, extra))}; keys: column, op, value (table, via)")
        if "column" not in f:
            raise ToolError(f"{where} needs a 'column'")
        if ("table" in f) != ("via" in f):
            raise ToolError(f"{where}: a condition on a linked table needs both 'table' and 'via'")
        on = open_scope(scope.sql, scope.memory_id, f["table"]) if "table" in f else scope
        column = resolve_column(on.info, f["column"])
        raw_op = f.get("op", f.get("operator", "=" if "value" in f else None))
        op = _op(raw_op, f"{where}.op")
        value = f.get("value")
        value = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        clause = _clause(on, column, op, value)
        entry = {"column": column, "op": op, "value": value} if op not in ("is_null", "not_null") else {"column": column, "op": op}
        if on is not scope:
            via = _link(scope, on, f["via"], where)
            clause = _linked(scope, on, via, clause)
            entry.update(table=on.info.name, via=via)
        clauses.append(clause)
        normalized.append(entry)
    return clauses, normalized


# -- conditions on a linked table: a semi-join through a shared column --------------------------------


def _link(scope: Scope, other: Scope, via: Any, where: str) -> str:
    """The column both tables have that links their rows ("book" of reading sessions and of
    books started), checked on both sides."""
    if not isinstance(via, str):
        raise ToolError(f"{where}.via must be a column name, got {via!r}")
    here = resolve_column(scope.info, via)
    there = resolve_column(other.info, via)
    if here != there or here not in scope.info.column_names or there not in other.info.column_names:
        raise ToolError(f"{where}.via: {via!r} must be an attribute column of both {scope.info.name!r} and {other.info.name!r}")
    if scope.types[here] != other.types[there]:
        raise ToolError(f"{where}.via: {via!r} is {scope.types[here]} in {scope.info.name!r} but "
                        f"{other.types[there]} in {other.info.name!r}")
    return here


def _linked(scope: Scope, other: Scope, via: str, condition: ColumnElement[bool]) -> ColumnElement[bool]:
    """Rows whose ``via`` value is one of the ``via`` values of ``other``'s rows meeting
    ``condition``: "pages of memoir" counts the sessions of the books started as memoirs.
    Text values link ignoring case and outer spaces, as people write a title twice."""
    mine, theirs = scope.col(via), other.col(via)
    if scope.types[via] == "text":
        mine, theirs = func.lower(func.trim(mine)), func.lower(func.trim(theirs))
    linked = select(theirs).where(other.tenant(), condition, other.col(via).is_not(None))
    return mine.in_(linked)
