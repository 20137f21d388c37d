"""The analytic tables induced at run time, one physical table per memory and table name.

Their names and columns come from a model, so every name passes ``check_identifier`` and every
value ``cast_value`` before SQLAlchemy sees it, and the physical name is derived from a digest of
the memory id: two memories may both have a ``sleep_log`` without ever sharing one. Each table
gets the indexes the analytic tools filter and sort by when it is created or grows a column, so
the tools stay fast on large tables. Filtered reads are the analytic tools'
(``stores/analytic_filters.py``); ``select_rows`` here reads whole tables for listings and samples.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import Column, DateTime, Index, Integer, MetaData, String, Table, Text, UniqueConstraint, and_, delete, func, inspect, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.schema import CreateIndex

from adamm.stores.sql_base import (
    RESERVED_COLUMNS,
    SA_TYPES,
    SYSTEM_COLUMNS,
    ColumnSpec,
    StoreBase,
    StoreError,
    TableInfo,
    cast_value,
    check_identifier,
    memory_key,
)
from adamm.stores.sql_models import TableRecord

#: After writing this many rows in one call, refresh SQLite's planner statistics: without them
#: it scans whole tables through the memory_id-led indexes.
ANALYZE_AFTER_ROWS = 500


class TableStore(StoreBase):
    """Induced tables of every memory: DDL, rows, and the handles the analytic tools query."""

    def __init__(self, url: str, *, echo: bool = False) -> None:
        super().__init__(url, echo=echo)
        self._induced = MetaData()
        self._table_cache: dict[tuple[str, str], TableInfo] = {}
        self._checked: set[str] = set()

    def create_table(self, memory_id: str, name: str, columns: Sequence[ColumnSpec], *, description: str = "", schema_key: str | None = None) -> TableInfo:
        """Create an analytic table with typed attribute columns plus the system columns.

        The physical name is derived from the memory and the table name, so two memories may
        both have a ``sleep_log`` without ever sharing a table.
        """
        check_identifier(name, "table name")
        cols = _check_columns(columns)
        physical = f"t_{memory_key(memory_id)}_{name}"
        with self._lock, self.atomic():  # the table exists with its record, or neither does
            if self.table(memory_id, name, missing_ok=True) is not None:
                raise StoreError(f"table {name!r} already exists in this memory")
            table = self._build_table(physical, cols)
            with self._write() as conn:
                table.create(conn, checkfirst=True)
            self._create_indexes(table, cols)
            try:
                with self.session() as s:
                    s.add(TableRecord(memory_id=memory_id, name=name, physical_name=physical, description=description,
                                      columns=[c.to_dict() for c in cols], schema_key=schema_key))
            except IntegrityError:
                raise StoreError(f"table {name!r} already exists in this memory") from None
        return TableInfo(name, physical, description, list(cols), schema_key)

    def add_columns(self, memory_id: str, name: str, columns: Sequence[ColumnSpec]) -> TableInfo:
        """Evolve a table: add new typed columns (existing rows get NULL until re-materialized)."""
        self._forget_table(memory_id, name)
        info = self._require_table(memory_id, name)
        new = [c for c in _check_columns(columns) if c.name not in info.column_names]
        if not new:
            return info
        with self._lock, self.atomic():  # the columns exist with their record, or neither does
            with self._write() as conn:
                for col in new:
                    ddl_col = Column(col.name, SA_TYPES[col.type]())
                    coltype = ddl_col.type.compile(dialect=self.engine.dialect)
                    quote = self.engine.dialect.identifier_preparer.quote
                    conn.exec_driver_sql(f"ALTER TABLE {quote(info.physical_name)} ADD COLUMN {quote(col.name)} {coltype}")
            with self.session() as s:
                rec = s.execute(select(TableRecord).where(TableRecord.memory_id == memory_id, TableRecord.name == name)).scalar_one()
                rec.columns = [c.to_dict() for c in info.columns + new]
                s.add(rec)
            self._induced.remove(self._induced.tables[info.physical_name]) if info.physical_name in self._induced.tables else None
            self._forget_table(memory_id, name)
            evolved = self._require_table(memory_id, name)
            self._create_indexes(self._sa_table(evolved), new)
        return evolved

    def table(self, memory_id: str, name: str, *, missing_ok: bool = False) -> TableInfo | None:
        cached = self._table_cache.get((memory_id, name))
        if cached is not None:
            return cached
        with self.session() as s:
            rec = s.execute(select(TableRecord).where(TableRecord.memory_id == memory_id, TableRecord.name == name)).scalar()
        if rec is None:
            if missing_ok:
                return None
            raise StoreError(f"unknown table {name!r}")
        info = TableInfo(rec.name, rec.physical_name, rec.description, [ColumnSpec.from_dict(c) for c in rec.columns], rec.schema_key)
        self._table_cache[(memory_id, name)] = info
        return info

    def _forget_table(self, memory_id: str, name: str) -> None:
        """Drop cached metadata after DDL (metadata of tables changed by another process is
        refreshed when a write names a column the cache does not know)."""
        self._table_cache.pop((memory_id, name), None)

    def tables(self, memory_id: str) -> list[TableInfo]:
        with self.session() as s:
            recs = list(s.execute(select(TableRecord).where(TableRecord.memory_id == memory_id).order_by(TableRecord.id)).scalars())
        return [TableInfo(r.name, r.physical_name, r.description, [ColumnSpec.from_dict(c) for c in r.columns], r.schema_key) for r in recs]

    def drop_table(self, memory_id: str, name: str) -> None:
        info = self._require_table(memory_id, name)
        with self._lock, self.atomic():  # the table goes with its record, or neither does
            with self._write() as conn:
                self._sa_table(info).drop(conn, checkfirst=True)
            self._induced.remove(self._induced.tables[info.physical_name])
            with self.session() as s:
                s.execute(delete(TableRecord).where(TableRecord.memory_id == memory_id, TableRecord.name == name))
            self._forget_table(memory_id, name)

    def upsert_rows(self, memory_id: str, name: str, rows: Sequence[dict[str, Any]], *, _refreshed: bool = False) -> int:
        """Insert rows keyed by ``source`` (round id), replacing an existing row of the same round.

        Values are cast to the column types here; a value that cannot be cast is an error that
        names the column, never a silently wrong row.
        """
        info = self._require_table(memory_id, name)
        table = self._sa_table(info)
        types = {c.name: c.type for c in info.columns}
        clean: list[dict[str, Any]] = []
        for row in rows:
            if "source" not in row:
                raise StoreError("a table row needs its source round id")
            # Every row names every column (missing ones NULL): one executemany needs one shape.
            out: dict[str, Any] = {"memory_id": memory_id, "source": str(row["source"]), "record": int(row.get("record") or 0),
                                   "order": cast_value(row.get("order"), "int", "order"),
                                   "time": cast_value(row.get("time"), "datetime", "time"),
                                   "observed_at": cast_value(row.get("observed_at"), "datetime", "observed_at"),
                                   "captions": cast_value(row.get("captions"), "text", "captions")}
            out.update(dict.fromkeys(types))
            for key, value in row.items():
                if key in SYSTEM_COLUMNS:
                    continue
                if key not in types and not _refreshed:
                    self._forget_table(memory_id, name)  # another process may have added it
                    return self.upsert_rows(memory_id, name, rows, _refreshed=True)
                if key not in types:
                    raise StoreError(f"table {name!r} has no column {key!r}")
                out[key] = cast_value(value, types[key], key)
            clean.append(out)
        if not clean:
            return 0
        with self._write() as conn:
            conn.execute(delete(table).where(table.c.memory_id == memory_id, table.c.source.in_([r["source"] for r in clean])))
            conn.execute(table.insert(), clean)
            if len(clean) >= ANALYZE_AFTER_ROWS and self.engine.dialect.name == "sqlite":
                conn.exec_driver_sql(f"ANALYZE {self.engine.dialect.identifier_preparer.quote(table.name)}")
        return len(clean)

    def delete_records(self, memory_id: str, name: str, keys: Sequence[tuple[str, int]]) -> int:
        """Delete the rows of these ``(source, record)`` pairs, leaving the rounds' other records."""
        if not keys:
            return 0
        info = self._require_table(memory_id, name)
        table = self._sa_table(info)
        deleted = 0
        with self._write() as conn:
            for start in range(0, len(keys), 400):
                chunk = keys[start:start + 400]
                cond = or_(*[and_(table.c.source == src, table.c.record == rec) for src, rec in chunk])
                deleted += conn.execute(delete(table).where(table.c.memory_id == memory_id, cond)).rowcount
        return deleted

    def delete_rows(self, memory_id: str, name: str, sources: Sequence[str]) -> int:
        info = self._require_table(memory_id, name)
        table = self._sa_table(info)
        with self._write() as conn:
            return conn.execute(delete(table).where(table.c.memory_id == memory_id, table.c.source.in_(list(sources)))).rowcount

    def select_rows(
        self,
        memory_id: str,
        name: str,
        *,
        order_by: str | None = None,
        descending: bool = False,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """Rows of an induced table, in history order by default."""
        info = self._require_table(memory_id, name)
        table = self._sa_table(info)
        q = select(table).where(table.c.memory_id == memory_id)
        if order_by is not None:
            col = self._column(info, table, order_by)
            q = q.order_by(col.desc().nulls_last() if descending else col.asc().nulls_last(), table.c.order)
        else:
            q = q.order_by(table.c.order)
        if limit is not None:
            q = q.limit(max(0, int(limit)))
        with self._read() as conn:
            return [_row_dict(r) for r in conn.execute(q).mappings()]

    def table_handle(self, memory_id: str, name: str) -> tuple[TableInfo, Table]:
        """Metadata and the SQLAlchemy ``Table`` of an induced table, for building validated queries.

        Every query built on the handle must filter ``table.c.memory_id == memory_id``;
        ``tenant_filter`` returns that clause.
        """
        info = self._require_table(memory_id, name)
        return info, self._sa_table(info)

    @staticmethod
    def tenant_filter(table: Table, memory_id: str) -> Any:
        return table.c.memory_id == memory_id

    def table_span(self, memory_id: str, name: str) -> tuple[int, str | None, str | None]:
        """Rows of a table and the first and last day they are about (observed, else round time)."""
        info = self._require_table(memory_id, name)
        table = self._sa_table(info)
        day = func.coalesce(table.c.observed_at, table.c.time)
        with self._read() as conn:
            n, lo, hi = conn.execute(select(func.count(), func.min(day), func.max(day)).where(table.c.memory_id == memory_id)).one()
        as_day = lambda v: str(v)[:10] if v is not None else None  # noqa: E731 - SQLite gives text, PostgreSQL datetimes
        return int(n or 0), as_day(lo), as_day(hi)

    def set_description(self, memory_id: str, name: str, description: str) -> None:
        with self.session() as s:
            rec = s.execute(select(TableRecord).where(TableRecord.memory_id == memory_id, TableRecord.name == name)).scalar()
            if rec is not None:
                rec.description = description
                s.add(rec)
        self._forget_table(memory_id, name)

    def count_rows(self, memory_id: str, name: str, *, not_null: str | None = None) -> int:
        """Rows of a table (with ``not_null``: those where that column has a value)."""
        info = self._require_table(memory_id, name)
        table = self._sa_table(info)
        where = table.c.memory_id == memory_id
        if not_null is not None:
            where = and_(where, self._column(info, table, not_null).is_not(None))
        with self._read() as conn:
            return int(conn.execute(select(func.count()).select_from(table).where(where)).scalar() or 0)

    # -- internals --------------------------------------------------------------------------

    def _rolled_back(self) -> None:
        """A rolled-back ``atomic`` block may have created, widened or dropped tables: what this
        process cached about induced tables is read again."""
        self._induced = MetaData()
        self._table_cache.clear()
        self._checked.clear()

    def _require_table(self, memory_id: str, name: str) -> TableInfo:
        check_identifier(name, "table name")
        info = self.table(memory_id, name)
        assert info is not None
        return info

    def _build_table(self, physical: str, cols: Sequence[ColumnSpec]) -> Table:
        if physical in self._induced.tables:
            self._induced.remove(self._induced.tables[physical])
        return Table(
            physical,
            self._induced,
            Column("row_id", Integer, primary_key=True, autoincrement=True),
            Column("memory_id", String(256), nullable=False),
            Column("source", String(256), nullable=False),
            Column("record", Integer, nullable=False, default=0),
            Column("order", Integer),
            Column("time", DateTime),
            Column("observed_at", DateTime),
            Column("captions", Text),
            *[Column(c.name, SA_TYPES[c.type]()) for c in cols],
            UniqueConstraint("memory_id", "source", "record", name=f"uq_{physical}_source"[:63]),
        )

    def _create_indexes(self, table: Table, cols: Sequence[ColumnSpec]) -> None:
        """Indexes the analytic tools need: by date (observed, else round time) and per
        column (numeric, time and text: a group_by or a categorical filter reads a text column's
        values), so Compute / Rank / Filter stay fast on 100k-row tables."""
        wanted = [Index(_index_name(table.name, "date"), table.c.memory_id, func.coalesce(table.c.observed_at, table.c.time))]
        wanted += [Index(_index_name(table.name, c.name), table.c.memory_id, table.c[c.name])
                   for c in cols if c.type in ("float", "int", "datetime", "text")]
        with self._write() as conn:  # reflection misses expression indexes: IF NOT EXISTS
            for ix in wanted:
                conn.execute(CreateIndex(ix, if_not_exists=True))

    def _sa_table(self, info: TableInfo) -> Table:
        table = self._induced.tables.get(info.physical_name)
        if table is None or set(table.c.keys()) != set(SYSTEM_COLUMNS) | set(info.column_names):
            self._add_record_column(info.physical_name)
            table = self._build_table(info.physical_name, info.columns)
        return table

    def _add_record_column(self, physical: str) -> None:
        """Tables made before rows were per record get the ``record`` column (0: the round's
        one row); their unique key stays one row per round."""
        if physical in self._checked:
            return
        with self._lock, self._write() as conn:
            insp = inspect(conn)
            if insp.has_table(physical) and "record" not in {c["name"] for c in insp.get_columns(physical)}:
                quote = self.engine.dialect.identifier_preparer.quote
                conn.exec_driver_sql(f"ALTER TABLE {quote(physical)} ADD COLUMN {quote('record')} INTEGER NOT NULL DEFAULT 0")
        self._checked.add(physical)

    def _column(self, info: TableInfo, table: Table, name: str) -> Any:
        if name not in table.c or name in ("row_id", "memory_id"):
            raise StoreError(f"table {info.name!r} has no column {name!r} (columns: {', '.join(info.column_names + ['source', 'order', 'time', 'observed_at'])})")
        return table.c[name]

    def has_physical_table(self, physical_name: str) -> bool:
        return inspect(self.engine).has_table(physical_name)


# -- helpers -------------------------------------------------------------------------------


def _check_columns(columns: Sequence[ColumnSpec]) -> list[ColumnSpec]:
    seen: set[str] = set()
    out = []
    for col in columns:
        check_identifier(col.name, "column name")
        if col.name in RESERVED_COLUMNS:
            raise StoreError(f"column name {col.name!r} is reserved")
        if col.type not in SA_TYPES:
            raise StoreError(f"column {col.name!r}: unknown type {col.type!r} (use {', '.join(SA_TYPES)})")
        if col.name in seen:
            raise StoreError(f"duplicate column {col.name!r}")
        seen.add(col.name)
        out.append(col)
    return out


def _row_dict(row: Any) -> dict[str, Any]:
    out = dict(row)
    out.pop("memory_id", None)
    out.pop("row_id", None)
    for key, value in out.items():
        if isinstance(value, date) and not isinstance(value, datetime):
            out[key] = datetime(value.year, value.month, value.day)
    return out


def _index_name(table: str, what: str) -> str:
    """Index names are global in PostgreSQL and at most 63 bytes: derive a short unique one."""
    return f"ix_{hashlib.sha1(f'{table}.{what}'.encode()).hexdigest()[:16]}"
