"""What every part of the SQL store stands on: the engine, one transaction per call, and the gate
between model-chosen names and DDL.

The engine is set up here once so the embedded SQLite file and a PostgreSQL server run the same
code (SQLite gets WAL and a busy timeout so a second process waits instead of failing; the fixed
tables are created under a lock because several processes may open a fresh database at once).
Identifiers and values are checked here because each part of the store (rounds, schemas, tables)
needs the same rules: a name that passes ``check_identifier`` contains nothing SQL could read as
syntax, and ``cast_value`` turns every value into its column's type or an error naming the
column - never a silently wrong row.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from filelock import FileLock
from sqlalchemy import Boolean, DateTime, Float, Integer, Text, bindparam, create_engine, event, func, insert, inspect, select, update
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session, SQLModel

from adamm.stores import crash
from adamm.stores.records import parse_time
from adamm.stores.sql_models import NodeRecord, ObservationRecord, RoundRecord

#: Column types an induced table may have, and how each is stored.
ColumnType = Literal["float", "int", "text", "datetime", "bool"]
SA_TYPES = {"float": Float, "int": Integer, "text": Text, "datetime": DateTime, "bool": Boolean}

#: Columns every induced table has besides its attributes.
SYSTEM_COLUMNS = ("row_id", "memory_id", "source", "record", "order", "time", "observed_at", "captions")
#: Names attribute columns may not take: the system columns and ``date``, the tools' virtual
#: column (the observed date, else the round time).
RESERVED_COLUMNS = (*SYSTEM_COLUMNS, "date")


def column_of(attribute: str) -> str:
    """Column name of an attribute; the system column names stay reserved."""
    return f"{attribute}_value"[:48] if attribute in RESERVED_COLUMNS else attribute


_IDENT = re.compile(r"^[a-z][a-z0-9_]{0,47}$")


class StoreError(ValueError):
    """A request the store refuses (bad identifier, unknown table or column, bad value)."""


def is_identifier(name: object) -> bool:
    """A lower snake_case name of at most 48 characters, safe as a table or column name."""
    return isinstance(name, str) and bool(_IDENT.match(name))


def check_identifier(name: str, what: str = "identifier") -> str:
    """Accept only lower snake_case names of at most 48 characters.

    This is the gate between model output and DDL: a name that passes contains no quote,
    space, dot or unicode trick, and is then still quoted by SQLAlchemy.
    """
    if not is_identifier(name):
        raise StoreError(f"invalid {what} {name!r}: use lower snake_case, start with a letter, at most 48 characters")
    return name


def memory_key(memory_id: str) -> str:
    """A short, identifier-safe digest of a memory id (hostile ids become harmless)."""
    return hashlib.sha1(memory_id.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class ColumnSpec:
    name: str
    type: ColumnType = "float"
    unit: str | None = None
    description: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "unit": self.unit, "description": self.description}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ColumnSpec":
        return cls(name=d["name"], type=d.get("type", "float"), unit=d.get("unit"), description=d.get("description", ""))


@dataclass
class TableInfo:
    name: str
    physical_name: str
    description: str
    columns: list[ColumnSpec]
    schema_key: str | None = None

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]


def cast_value(value: Any, ctype: str, column: str) -> Any:
    """Cast a value to a column type, or raise StoreError naming the column."""
    if value is None:
        return None
    try:
        if ctype == "float":
            if isinstance(value, bool):
                raise ValueError
            out = float(value)
            if out != out or out in (float("inf"), float("-inf")):
                raise ValueError
            return out
        if ctype == "int":
            if isinstance(value, bool):
                raise ValueError
            f = float(value)
            if not f.is_integer():
                raise ValueError
            return int(f)
        if ctype == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in {"true", "yes", "1", "false", "no", "0"}:
                return value.strip().lower() in {"true", "yes", "1"}
            if isinstance(value, (int, float)) and value in (0, 1):
                return bool(value)
            raise ValueError
        if ctype == "datetime":
            return parse_time(value)
        if ctype == "text":
            if isinstance(value, (dict, list, bytes)):
                raise ValueError
            return str(value)
    except (TypeError, ValueError):
        raise StoreError(f"column {column!r} expects {ctype}, got {value!r}") from None
    raise StoreError(f"column {column!r} has unknown type {ctype!r}")


def _add_missing_indexes(conn: Any) -> None:
    """Indexes and columns added after a database was created (``create_all`` only creates
    new tables)."""
    for index in RoundRecord.__table__.indexes:  # type: ignore[attr-defined]
        index.create(conn, checkfirst=True)
    quote = conn.dialect.identifier_preparer.quote
    for model, columns in ((ObservationRecord, (("record", "INTEGER NOT NULL DEFAULT 0"), ("context", "TEXT"),
                                                ("label", "VARCHAR(64)"))),
                           (RoundRecord, (("stage", "INTEGER NOT NULL DEFAULT 0"),)),
                           (NodeRecord, (("stale", "BOOLEAN NOT NULL DEFAULT FALSE"),))):
        have = {c["name"] for c in inspect(conn).get_columns(model.__tablename__)}
        for name, ddl in columns:
            if name not in have:
                conn.exec_driver_sql(f"ALTER TABLE {quote(model.__tablename__)} ADD COLUMN {quote(name)} {ddl}")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL lets readers and one writer work at once; the busy timeout makes a second writer
    process wait for the lock instead of failing."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=60000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class StoreBase:
    """The engine and the transaction every part of ``SqlStore`` writes through."""

    def __init__(self, url: str, *, echo: bool = False) -> None:
        self.url = url
        if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
            Path(url[len("sqlite:///"):]).expanduser().parent.mkdir(parents=True, exist_ok=True)
        kwargs: dict[str, Any] = {"echo": echo}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 60}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        if self.engine.dialect.name == "postgresql":
            # Server workers opening a fresh database at once race on CREATE TABLE (duplicate
            # pg_type rows); under one transaction-scoped advisory lock, one creates, the rest wait.
            with self.engine.begin() as conn:
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7236115905231004001)")
                SQLModel.metadata.create_all(conn)
                _add_missing_indexes(conn)
        elif url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
            # Processes opening a fresh SQLite file at once race the same way ("table already
            # exists"): a lock file beside the database lets one create while the rest wait.
            with FileLock(str(Path(url[len("sqlite:///"):]).expanduser()) + ".schema.lock", timeout=120):
                with self.engine.begin() as conn:
                    SQLModel.metadata.create_all(conn)
                    _add_missing_indexes(conn)
        else:
            with self.engine.begin() as conn:
                SQLModel.metadata.create_all(conn)
                _add_missing_indexes(conn)
        self._lock = threading.RLock()
        #: The connection of the ``atomic`` block this thread is in, if any.
        self._atomic: ContextVar[Connection | None] = ContextVar(f"adamm_atomic_{id(self)}", default=None)
        crash.watch(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction: committed on success, rolled back on any error. Inside ``atomic``,
        a part of the block's transaction (flushed, committed with the block)."""
        conn = self._atomic.get()
        if conn is not None:
            with Session(bind=conn, expire_on_commit=False, join_transaction_mode="rollback_only") as s:
                yield s
                s.commit()  # a flush: the block's transaction commits at its end
            return
        with Session(self.engine, expire_on_commit=False) as s:
            try:
                yield s
                s.commit()
            except BaseException:
                s.rollback()
                raise
        crash.committed()

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """Every write of the block - rows, DDL, any method of the store - in one transaction:
        all of it committed at the end, or none of it (an exception, a crash). Reads inside see
        the block's own writes. Nested blocks join the outer one.

        With SQLite the transaction takes the write lock at its first write and holds it to the
        end, so other writers of the same file (other memories) wait for the block.
        """
        if self._atomic.get() is not None:
            yield
            return
        with self.engine.connect() as conn:
            token = self._atomic.set(conn)
            conn.info["adamm_atomic"] = True  # (the crash hook's: a write here is mid-transaction)
            try:
                with conn.begin():
                    yield
            except BaseException:
                self._rolled_back()
                raise
            finally:
                conn.info.pop("adamm_atomic", None)
                self._atomic.reset(token)
        crash.committed()

    def _rolled_back(self) -> None:
        """Caches of what a rolled-back block wrote are forgotten (the table store's)."""

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A connection to write through outside the ORM (DDL, induced tables' rows): the
        ``atomic`` block's, else a transaction of its own, committed at the end."""
        conn = self._atomic.get()
        if conn is not None:
            if self.engine.dialect.name == "sqlite" and not conn.connection.dbapi_connection.in_transaction:  # type: ignore[union-attr]
                # pysqlite opens a transaction only before INSERT / UPDATE / DELETE: DDL first in
                # a block would be committed on its own
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            yield conn
            return
        with self.engine.begin() as conn:
            yield conn
        crash.committed()

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """A connection to read induced tables through: the ``atomic`` block's (which sees its
        uncommitted tables), else a fresh one."""
        conn = self._atomic.get()
        if conn is not None:
            yield conn
            return
        with self.engine.connect() as conn:
            yield conn

    @staticmethod
    def _upsert_rows(s: Session, model: type[SQLModel], owner: dict[str, Any], key: str, rows: list[dict[str, Any]]) -> None:
        """Insert or update ``rows`` (column name -> value) of ``model``, identified by the
        ``owner`` columns plus ``key``, as two executemany statements.

        Why not ORM objects: ingestion writes thousands of events and units per batch, and
        building, validating and flushing an ORM object per row cost more than the SQL itself.
        """
        if not rows:
            return
        table = model.__table__  # type: ignore[attr-defined]
        where = [table.c[col] == value for col, value in owner.items()]
        keys = [r[key] for r in rows]
        existing: set[Any] = set()
        for start in range(0, len(keys), 500):  # well below any backend's bound-parameter limit
            existing.update(s.execute(select(table.c[key]).where(*where, table.c[key].in_(keys[start:start + 500]))).scalars())
        new = [{**owner, **r} for r in rows if r[key] not in existing]
        old = [r for r in rows if r[key] in existing]
        if new:
            s.execute(insert(table), new)
        if old:
            cols = [c for c in old[0] if c != key]
            stmt = (update(table).where(*where, table.c[key] == bindparam("key_"))
                    .values({c: bindparam(f"set_{c}") for c in cols}))
            s.execute(stmt, [{"key_": r[key], **{f"set_{c}": r[c] for c in cols}} for r in old])

    def _count(self, model: type[SQLModel], memory_id: str) -> int:
        with self.session() as s:
            return int(s.execute(select(func.count(model.id)).where(model.memory_id == memory_id)).scalar() or 0)  # type: ignore[attr-defined]
