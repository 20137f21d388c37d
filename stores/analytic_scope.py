"""Which table and column a tool call means, and the one validated table it then works on.

Table and column names come from a planner model or a user, who say "sleep logs" for
``sleep_log`` or "round" for ``source``: they are resolved tolerantly (case, separators, plural,
affixes, then a close spelling) but never guessed between two candidates, and an unknown name
raises ``ToolError`` listing the valid ones, which the planner can act on. Everything the SQL
building needs afterwards - the SQLAlchemy table, the column types, the effective date and the
tenant filter - is gathered once per call in a ``Scope``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Integer, Table, cast, func, literal
from sqlalchemy.sql.elements import ColumnElement

from adamm.stores.sql import SqlStore, StoreError, TableInfo

MAX_BUDGET = 1000
MAX_NAME_CHARS = 100
FUZZY_CUTOFF = 0.75

#: System columns a tool may name, with their types; ``date`` is virtual: COALESCE(observed_at, time).
#: ``weekday`` is virtual too: the day of the week of ``date``, 0 = Monday ... 6 = Sunday.
SYSTEM_TYPES: dict[str, str] = {"source": "text", "order": "int", "time": "datetime", "observed_at": "datetime", "date": "datetime",
                                "captions": "text", "weekday": "int"}
_COLUMN_ALIASES = {"round_id": "source", "round": "source", "source_round": "source", "round_order": "order",
                   "timestamp": "time", "round_time": "time", "observed_date": "observed_at", "observed": "observed_at",
                   "effective_date": "date"}


class ToolError(ValueError):
    """Invalid tool arguments; the message names the argument and lists the valid options."""


# -- name resolution ----------------------------------------------------------------------------


def norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")


def singular_word(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def singular(name: str) -> str:
    return "_".join(singular_word(w) for w in name.split("_"))


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


def check_name(name: Any, arg: str) -> str:
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
    check_name(name, "table")
    infos = {info.name: info for info in sql.tables(memory_id)}
    stages = (lambda s: s, norm, lambda s: singular(norm(s)), lambda s: _strip_affixes(singular(norm(s))))
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
    virtual ``date`` (= COALESCE(observed_at, time)) and ``weekday`` of it (0 = Monday).
    """
    check_name(name, "column")
    types = _column_types(info)
    stages = (lambda s: s, norm, lambda s: singular(norm(s)))
    hit = _match(name, {n: n for n in types}, stages, "column")
    if hit is None:
        alias = _COLUMN_ALIASES.get(singular(norm(name)))
        if alias is not None and alias in types:
            return alias
        raise ToolError(f"unknown column {name!r} in table {info.name!r}; columns: {', '.join(types)}")
    return hit


# -- scope: one validated table of one memory ----------------------------------------------------


@dataclass
class Scope:
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


def open_scope(sql: SqlStore, memory_id: str, table: str) -> Scope:
    info = resolve_table(sql, memory_id, table)
    try:
        info, sa_table = sql.table_handle(memory_id, info.name)
    except StoreError as exc:  # dropped between the two reads
        raise ToolError(str(exc)) from None
    columns: dict[str, ColumnElement[Any]] = {name: sa_table.c[name] for name in ("source", "order", "time", "observed_at", "captions")}
    columns["date"] = func.coalesce(sa_table.c.observed_at, sa_table.c.time)
    effective = columns["date"]
    columns["weekday"] = weekday_of(effective, sql.engine.dialect.name)
    for c in info.columns:
        columns[c.name] = sa_table.c[c.name]
    return Scope(sql, memory_id, info, sa_table, _column_types(info), columns, sql.engine.dialect.name, effective)


def fixed(value: Any) -> Any:
    """A constant of our own rendered inline, so that the same expression in SELECT and GROUP BY
    compiles to the same SQL on PostgreSQL (two bound parameters would be two expressions)."""
    return literal(value, literal_execute=True)


def weekday_of(day: ColumnElement[Any], dialect: str) -> ColumnElement[Any]:
    """The day of the week of a date column as an integer, 0 = Monday ... 6 = Sunday (Python's
    ``date.weekday()``), on either backend."""
    if dialect == "postgresql":
        return cast(func.extract("isodow", day), Integer) - fixed(1)
    # SQLite: %w is 0 = Sunday
    return (cast(func.strftime(fixed("%w"), day), Integer) + fixed(6)) % fixed(7)


def check_budget(result_budget: Any) -> int:
    if isinstance(result_budget, bool) or not isinstance(result_budget, int) or not 1 <= result_budget <= MAX_BUDGET:
        raise ToolError(f"result_budget must be an integer from 1 to {MAX_BUDGET}, got {result_budget!r}")
    return result_budget
