"""The SQL store: raw rounds, observations, schemas, hierarchy nodes, text units and the analytic
tables induced at run time.

One class, ``SqlStore(url)``, over SQLAlchemy, so the embedded SQLite file and a PostgreSQL
server run the same code. Three rules hold everywhere:

* every read and write takes a ``memory_id`` and filters on it - no method crosses tenants;
* every write of one call is one transaction - a failure leaves nothing half-written;
* identifiers of induced tables and columns are validated against a strict pattern and quoted
  by SQLAlchemy; values are always bound parameters. Text from a model or a user never becomes
  SQL.
"""

from __future__ import annotations

import hashlib
import re
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any, Literal

from filelock import FileLock
from sqlalchemy import (
    Boolean,
    Index,
    Column,
    DateTime,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    and_,
    create_engine,
    or_,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.schema import CreateIndex
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel

from adamm.stores.records import ImageRef, Round
from adamm.stores.sql_models import (
    AttributeRecord,
    AttributeSetRecord,
    ModelUseRecord,
    NodeRecord,
    ObservationRecord,
    RoundRecord,
    SchemaRecord,
    TableRecord,
    UnitRecord,
    UnitVersionRecord,
    utcnow,
)

#: Column types an induced table may have, and how each is stored.
ColumnType = Literal["float", "int", "text", "datetime", "bool"]
_SA_TYPES = {"float": Float, "int": Integer, "text": Text, "datetime": DateTime, "bool": Boolean}

#: Columns every induced table has besides its attributes.
SYSTEM_COLUMNS = ("row_id", "memory_id", "source", "record", "order", "time", "observed_at", "captions")
#: Names attribute columns may not take: the system columns and ``date``, the tools' virtual
#: column (the observed date, else the round time).
RESERVED_COLUMNS = (*SYSTEM_COLUMNS, "date")

#: After writing this many rows in one call, refresh SQLite's planner statistics: without them
#: it scans whole tables through the memory_id-led indexes.
ANALYZE_AFTER_ROWS = 500

_IDENT = re.compile(r"^[a-z][a-z0-9_]{0,47}$")

Operator = Literal["=", "!=", "<", "<=", ">", ">=", "in", "between", "contains", "is_null", "not_null"]
OPERATORS: tuple[str, ...] = ("=", "!=", "<", "<=", ">", ">=", "in", "between", "contains", "is_null", "not_null")


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


@dataclass(frozen=True)
class Condition:
    """One validated filter on a column of an induced table."""

    column: str
    op: Operator
    value: Any = None


@dataclass
class AddRoundsResult:
    added: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)


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


def _add_missing_indexes(conn: Any) -> None:
    """Indexes and columns added after a database was created (``create_all`` only creates
    new tables)."""
    for index in RoundRecord.__table__.indexes:  # type: ignore[attr-defined]
        index.create(conn, checkfirst=True)
    have = {c["name"] for c in inspect(conn).get_columns(ObservationRecord.__tablename__)}
    quote = conn.dialect.identifier_preparer.quote
    for name, ddl in (("record", "INTEGER NOT NULL DEFAULT 0"), ("context", "TEXT")):
        if name not in have:
            conn.exec_driver_sql(f"ALTER TABLE {quote(ObservationRecord.__tablename__)} ADD COLUMN {quote(name)} {ddl}")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL lets readers and one writer work at once; the busy timeout makes a second writer
    process wait for the lock instead of failing."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=60000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class SqlStore:
    """All relational state of adamm, for every memory, behind one SQLAlchemy engine."""

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
        self._induced = MetaData()
        self._lock = threading.RLock()
        self._table_cache: dict[tuple[str, str], TableInfo] = {}
        self._checked: set[str] = set()

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction: committed on success, rolled back on any error."""
        with Session(self.engine, expire_on_commit=False) as s:
            try:
                yield s
                s.commit()
            except BaseException:
                s.rollback()
                raise

    # -- rounds -------------------------------------------------------------------------

    def add_rounds(self, memory_id: str, rounds: Sequence[Round]) -> AddRoundsResult:
        """Store raw rounds in one transaction, idempotently.

        A round already stored with the same content is left alone; one with the same id and
        different content is an explicit update (its ``derived`` flag is cleared so derived
        structures are rebuilt). Rounds without ``order`` are appended after the newest one.
        """
        result = AddRoundsResult()
        with self._lock, self.session() as s:
            existing = {
                r.round_id: r
                for r in s.execute(
                    select(RoundRecord).where(
                        RoundRecord.memory_id == memory_id,
                        RoundRecord.round_id.in_([r.round_id for r in rounds]),  # type: ignore[attr-defined]
                    )
                ).scalars()
            } if rounds else {}
            next_order = (s.execute(select(func.max(RoundRecord.order)).where(RoundRecord.memory_id == memory_id)).scalar() or -1) + 1
            for rnd in rounds:
                digest = rnd.content_hash()
                old = existing.get(rnd.round_id)
                if old is not None and old.content_hash == digest:
                    result.unchanged.append(rnd.round_id)
                    continue
                payload = _round_columns(rnd)
                if old is not None:
                    for key, value in payload.items():
                        setattr(old, key, value)
                    old.content_hash = digest
                    old.derived = False
                    old.ingested_at = utcnow()
                    s.add(old)
                    result.updated.append(rnd.round_id)
                    continue
                order = rnd.order if rnd.order is not None else next_order
                next_order = max(next_order, order + 1)
                rec = RoundRecord(memory_id=memory_id, round_id=rnd.round_id, order=order, content_hash=digest, **payload)
                s.add(rec)
                existing[rnd.round_id] = rec
                result.added.append(rnd.round_id)
        return result

    def get_rounds(
        self,
        memory_id: str,
        round_ids: Sequence[str] | None = None,
        *,
        session_id: str | None = None,
        order_range: tuple[int, int] | None = None,
        orders: Sequence[int] | None = None,
        only_pending: bool = False,
    ) -> list[Round]:
        """Rounds of one memory in history order, optionally narrowed."""
        q = select(RoundRecord).where(RoundRecord.memory_id == memory_id)
        if round_ids is not None:
            q = q.where(RoundRecord.round_id.in_(list(round_ids)))  # type: ignore[attr-defined]
        if orders is not None:
            q = q.where(RoundRecord.order.in_(list(orders)))  # type: ignore[attr-defined]
        if session_id is not None:
            q = q.where(RoundRecord.session_id == session_id)
        if order_range is not None:
            q = q.where(RoundRecord.order >= order_range[0], RoundRecord.order <= order_range[1])
        if only_pending:
            q = q.where(RoundRecord.derived == False)  # noqa: E712
        q = q.order_by(RoundRecord.order)
        with self.session() as s:
            return [_to_round(r) for r in s.execute(q).scalars()]

    def round_sessions(self, memory_id: str, round_ids: Sequence[str] | None = None, *,
                       session_ids: Sequence[str] | None = None) -> dict[str, tuple[str, int]]:
        """``round_id -> (session_id, order)`` for the given rounds or for every round of the
        given sessions: the light read EventLocate groups events by, without the rounds' text."""
        q = select(RoundRecord.round_id, RoundRecord.session_id, RoundRecord.order).where(RoundRecord.memory_id == memory_id)
        if round_ids is not None:
            q = q.where(RoundRecord.round_id.in_(list(round_ids)))  # type: ignore[attr-defined]
        if session_ids is not None:
            q = q.where(RoundRecord.session_id.in_(list(session_ids)))  # type: ignore[attr-defined]
        with self.session() as s:
            return {r: (sid, order) for r, sid, order in s.execute(q)}

    def mark_derived(self, memory_id: str, round_ids: Sequence[str]) -> None:
        if not round_ids:
            return
        with self.session() as s:
            for rec in s.execute(
                select(RoundRecord).where(RoundRecord.memory_id == memory_id, RoundRecord.round_id.in_(list(round_ids)))  # type: ignore[attr-defined]
            ).scalars():
                rec.derived = True
                s.add(rec)

    def count_rounds(self, memory_id: str) -> int:
        return self._count(RoundRecord, memory_id)

    def newest_time(self, memory_id: str) -> datetime | None:
        with self.session() as s:
            return s.execute(select(func.max(RoundRecord.timestamp)).where(RoundRecord.memory_id == memory_id)).scalar()

    def memories(self) -> list[str]:
        with self.session() as s:
            return list(s.execute(select(RoundRecord.memory_id).distinct().order_by(RoundRecord.memory_id)).scalars())

    # -- observations ---------------------------------------------------------------------

    def add_observations(
        self, memory_id: str, observations: Sequence[ObservationRecord], *, round_ids: Sequence[str] | None = None
    ) -> int:
        """Store observations, replacing those already stored for the same rounds.

        ``round_ids`` names every round being (re-)extracted, including rounds that now yield no
        observation at all, so their stale observations go too.
        """
        round_ids = sorted({o.round_id for o in observations} | set(round_ids or ()))
        if not round_ids:
            return 0
        fields = [f for f in ObservationRecord.model_fields if f not in ("id", "memory_id")]
        rows = [{**{f: getattr(o, f) for f in fields}, "memory_id": memory_id} for o in observations]
        with self.session() as s:
            s.execute(delete(ObservationRecord).where(ObservationRecord.memory_id == memory_id, ObservationRecord.round_id.in_(round_ids)))  # type: ignore[attr-defined]
            if rows:  # one executemany, not an ORM object per observation
                s.execute(insert(ObservationRecord), rows)
        return len(observations)

    def observations(
        self, memory_id: str, round_ids: Sequence[str] | None = None, *, attributes: Sequence[str] | None = None
    ) -> list[ObservationRecord]:
        q = select(ObservationRecord).where(ObservationRecord.memory_id == memory_id)
        if round_ids is not None:
            q = q.where(ObservationRecord.round_id.in_(list(round_ids)))  # type: ignore[attr-defined]
        if attributes is not None:
            q = q.where(ObservationRecord.attribute.in_(list(attributes)))  # type: ignore[attr-defined]
        with self.session() as s:
            return list(s.execute(q.order_by(ObservationRecord.id)).scalars())

    # -- text units (source of truth for BM25, keys of the vectors) -----------------------

    def put_units(self, memory_id: str, space: str, units: Sequence[tuple[str, str, dict[str, Any]]]) -> None:
        """Insert or replace ``(unit_id, text, metadata)`` units of one space."""
        if not units:
            return
        ids = [u[0] for u in units]
        with self.session() as s:
            old = {
                u.unit_id: u
                for u in s.execute(
                    select(UnitRecord).where(UnitRecord.memory_id == memory_id, UnitRecord.space == space, UnitRecord.unit_id.in_(ids))  # type: ignore[attr-defined]
                ).scalars()
            }
            for unit_id, text, meta in units:
                rec = old.get(unit_id) or UnitRecord(memory_id=memory_id, space=space, unit_id=unit_id)
                rec.text, rec.meta, rec.updated_at = text, dict(meta), utcnow()
                s.add(rec)
            self._touch_units(s, memory_id, space)

    def delete_units(self, memory_id: str, space: str, unit_ids: Sequence[str] | None = None) -> None:
        q = delete(UnitRecord).where(UnitRecord.memory_id == memory_id, UnitRecord.space == space)
        if unit_ids is not None:
            q = q.where(UnitRecord.unit_id.in_(list(unit_ids)))  # type: ignore[attr-defined]
        with self.session() as s:
            s.execute(q)
            self._touch_units(s, memory_id, space)

    def _touch_units(self, s: Session, memory_id: str, space: str) -> None:
        """A new version token for the space, in the writer's transaction (an upsert, so two
        writers creating the first token at once do not collide)."""
        token = uuid.uuid4().hex
        dialect = self.engine.dialect.name
        if dialect in ("sqlite", "postgresql"):
            insert = (sqlite if dialect == "sqlite" else postgresql).insert(UnitVersionRecord)
            s.execute(insert.values(memory_id=memory_id, space=space, token=token).on_conflict_do_update(
                index_elements=["memory_id", "space"], set_={"token": token}))
            return
        done = s.execute(update(UnitVersionRecord).where(UnitVersionRecord.memory_id == memory_id, UnitVersionRecord.space == space)
                         .values(token=token)).rowcount
        if not done:
            s.add(UnitVersionRecord(memory_id=memory_id, space=space, token=token))

    def units(self, memory_id: str, space: str, unit_ids: Sequence[str] | None = None) -> list[UnitRecord]:
        q = select(UnitRecord).where(UnitRecord.memory_id == memory_id, UnitRecord.space == space)
        if unit_ids is not None:
            q = q.where(UnitRecord.unit_id.in_(list(unit_ids)))  # type: ignore[attr-defined]
        with self.session() as s:
            return list(s.execute(q.order_by(UnitRecord.id)).scalars())

    def unit_corpus(self, memory_id: str, space: str) -> list[tuple[str, str]]:
        return [(u.unit_id, u.text) for u in self.units(memory_id, space)]

    def units_version(self, memory_id: str, space: str) -> str:
        """A cheap fingerprint that changes whenever a unit of the space is added, changed or removed."""
        with self.session() as s:
            token = s.execute(select(UnitVersionRecord.token).where(
                UnitVersionRecord.memory_id == memory_id, UnitVersionRecord.space == space)).scalar_one_or_none()
            if token is not None:
                return token
            # a space last written before version tokens existed: count it (slow, until its next write)
            n, last, newest = s.execute(
                select(func.count(UnitRecord.id), func.max(UnitRecord.id), func.max(UnitRecord.updated_at)).where(
                    UnitRecord.memory_id == memory_id, UnitRecord.space == space
                )
            ).one()
        return f"{n}:{last}:{newest}"

    def count_units(self, memory_id: str, space: str | None = None) -> int:
        q = select(func.count(UnitRecord.id)).where(UnitRecord.memory_id == memory_id)
        if space is not None:
            q = q.where(UnitRecord.space == space)
        with self.session() as s:
            return int(s.execute(q).scalar() or 0)

    def unit_spaces(self, memory_id: str) -> list[str]:
        """The unit spaces a memory has units in, sorted."""
        with self.session() as s:
            return list(s.execute(select(UnitRecord.space).where(UnitRecord.memory_id == memory_id).distinct().order_by(UnitRecord.space)).scalars())

    # -- hierarchy nodes -------------------------------------------------------------------

    def put_nodes(self, memory_id: str, nodes: Sequence[NodeRecord]) -> None:
        """Insert or update hierarchy nodes by ``node_id``, in one transaction."""
        if not nodes:
            return
        with self.session() as s:
            old = {
                n.node_id: n
                for n in s.execute(
                    select(NodeRecord).where(NodeRecord.memory_id == memory_id, NodeRecord.node_id.in_([n.node_id for n in nodes]))  # type: ignore[attr-defined]
                ).scalars()
            }
            for node in nodes:
                data = node.model_dump(exclude={"id", "memory_id"})
                rec = old.get(node.node_id) or NodeRecord(memory_id=memory_id, node_id=node.node_id, level=node.level)
                for key, value in data.items():
                    setattr(rec, key, value)
                rec.updated_at = utcnow()
                s.add(rec)

    def nodes(
        self,
        memory_id: str,
        level: str | None = None,
        *,
        node_ids: Sequence[str] | None = None,
        parent_id: str | None = None,
        parent_ids: Sequence[str] | None = None,
        open_only: bool = False,
        limit: int | None = None,
    ) -> list[NodeRecord]:
        q = select(NodeRecord).where(NodeRecord.memory_id == memory_id)
        if parent_ids is not None:
            q = q.where(NodeRecord.parent_id.in_(list(parent_ids)))  # type: ignore[attr-defined]
        level_in_sql = level is not None and (node_ids is None or limit is not None)
        if level_in_sql:
            q = q.where(NodeRecord.level == level)
        if node_ids is not None:
            # by id alone, so the (memory, node id) index is used, not a scan of the level
            q = q.where(NodeRecord.node_id.in_(list(node_ids)))  # type: ignore[attr-defined]
        if parent_id is not None:
            q = q.where(NodeRecord.parent_id == parent_id)
        if open_only:
            q = q.where(NodeRecord.is_open == True)  # noqa: E712
        q = q.order_by(NodeRecord.first_order, NodeRecord.id)
        if limit is not None:
            q = q.limit(max(0, int(limit)))
        with self.session() as s:
            found = list(s.execute(q).scalars())
        return found if level is None or level_in_sql else [n for n in found if n.level == level]

    def node_ids(self, memory_id: str, level: str, *, parent_ids: Sequence[str] | None = None,
                 starts_by: datetime | None = None, ends_from: datetime | None = None) -> list[str]:
        """Ids of a level's nodes, optionally under given parents and overlapping a time range
        (starting by ``starts_by``, ending from ``ends_from``; a node without times overlaps
        everything) - the light read that narrows a search, without the nodes' text."""
        q = select(NodeRecord.node_id).where(NodeRecord.memory_id == memory_id, NodeRecord.level == level)
        if parent_ids is not None:
            q = q.where(NodeRecord.parent_id.in_(list(parent_ids)))  # type: ignore[attr-defined]
        if starts_by is not None:
            q = q.where(or_(NodeRecord.start_time.is_(None), NodeRecord.start_time <= starts_by))  # type: ignore[union-attr]
        if ends_from is not None:
            q = q.where(or_(NodeRecord.end_time.is_(None), NodeRecord.end_time >= ends_from))  # type: ignore[union-attr]
        with self.session() as s:
            return list(s.execute(q).scalars())

    def parents(self, memory_id: str, node_ids: Sequence[str]) -> dict[str, str | None]:
        """``node_id -> parent_id`` for the given nodes."""
        q = select(NodeRecord.node_id, NodeRecord.parent_id).where(
            NodeRecord.memory_id == memory_id, NodeRecord.node_id.in_(list(node_ids)))  # type: ignore[attr-defined]
        with self.session() as s:
            return {n: p for n, p in s.execute(q)}

    def child_rounds(self, memory_id: str, parent_ids: Sequence[str], limit: int) -> list[str]:
        """Round ids of the events under the given episodes, the first ``limit`` in history
        order - the light read a retrieved episode or topic unit needs."""
        q = (select(NodeRecord.round_id).where(NodeRecord.memory_id == memory_id,
                                               NodeRecord.parent_id.in_(list(parent_ids)),  # type: ignore[attr-defined]
                                               NodeRecord.round_id.is_not(None))  # type: ignore[union-attr]
             .order_by(NodeRecord.first_order, NodeRecord.id).limit(max(0, int(limit))))
        with self.session() as s:
            return list(s.execute(q).scalars())

    # -- schemas and attribute-set counts ----------------------------------------------------

    def count_round_attributes_many(self, memory_id: str, changes: Sequence[tuple[str, Sequence[str]]]) -> None:
        """Record rounds' attribute sets in the counts, once each, in one transaction.

        A round counted before has its old set uncounted first, so re-deriving a round moves its
        count instead of adding a second one. ``changes`` are ``(round_id, attributes)``."""
        if not changes:
            return
        with self._lock, self.session() as s:
            rounds = {
                r.round_id: r
                for r in s.execute(select(RoundRecord).where(
                    RoundRecord.memory_id == memory_id, RoundRecord.round_id.in_([rid for rid, _ in changes])  # type: ignore[attr-defined]
                )).scalars()
            }
            delta: dict[tuple[str, ...], int] = {}
            for rid, attributes in changes:
                rnd = rounds.get(rid)
                if rnd is None:
                    raise StoreError(f"unknown round {rid!r}")
                new = sorted(set(attributes))
                if rnd.attributes == new:
                    continue
                if rnd.attributes is not None:
                    delta[tuple(rnd.attributes)] = delta.get(tuple(rnd.attributes), 0) - 1
                delta[tuple(new)] = delta.get(tuple(new), 0) + 1
                rnd.attributes = new
                s.add(rnd)
            keys = ["|".join(k) for k in delta]
            existing = {
                r.key: r for r in s.execute(select(AttributeSetRecord).where(
                    AttributeSetRecord.memory_id == memory_id, AttributeSetRecord.key.in_(keys)  # type: ignore[attr-defined]
                )).scalars()
            } if keys else {}
            for attrs, by in delta.items():
                if by == 0:
                    continue
                key = "|".join(attrs)
                rec = existing.get(key) or AttributeSetRecord(memory_id=memory_id, key=key, attributes=list(attrs), count=0)
                rec.count = max(0, rec.count + by)
                s.add(rec)

    def counted_attributes(self, memory_id: str, round_ids: Sequence[str]) -> dict[str, frozenset[str] | None]:
        """The attribute set each round was last counted with (None: not counted yet)."""
        with self.session() as s:
            rows = s.execute(select(RoundRecord.round_id, RoundRecord.attributes).where(
                RoundRecord.memory_id == memory_id, RoundRecord.round_id.in_(list(round_ids))  # type: ignore[attr-defined]
            )).all()
        return {rid: (None if attrs is None else frozenset(attrs)) for rid, attrs in rows}

    def round_attributes(self, memory_id: str) -> dict[str, tuple[frozenset[str], int, datetime | None]]:
        """Every counted round's attribute set, order and time: what back-filling a table reads."""
        with self.session() as s:
            rows = s.execute(
                select(RoundRecord.round_id, RoundRecord.attributes, RoundRecord.order, RoundRecord.timestamp)
                .where(RoundRecord.memory_id == memory_id, RoundRecord.attributes.is_not(None))  # type: ignore[union-attr]
                .order_by(RoundRecord.order)
            ).all()
        return {rid: (frozenset(attrs or ()), order, ts) for rid, attrs, order, ts in rows}

    # -- canonical attributes ---------------------------------------------------------------

    def attributes(self, memory_id: str) -> list[AttributeRecord]:
        with self.session() as s:
            return list(s.execute(select(AttributeRecord).where(AttributeRecord.memory_id == memory_id).order_by(AttributeRecord.id)).scalars())

    def put_attribute(self, memory_id: str, name: str, *, unit: str | None, dimension: str | None, kind: str,
                      alias: str | None = None, observations: int = 0) -> AttributeRecord:
        """Create a canonical attribute, or add an alias / observation count to an existing one."""
        check_identifier(name, "attribute name")
        with self._lock, self.session() as s:
            rec = s.execute(select(AttributeRecord).where(AttributeRecord.memory_id == memory_id, AttributeRecord.name == name)).scalar()
            if rec is None:
                rec = AttributeRecord(memory_id=memory_id, name=name, unit=unit, dimension=dimension, kind=kind, aliases=[])
            if alias and alias != name and alias not in rec.aliases:
                rec.aliases = [*rec.aliases, alias]
            rec.observations += observations
            s.add(rec)
            return rec

    def merge_attribute(self, memory_id: str, source: str, target: str, convert: Any = None) -> int:
        """Fold attribute ``source`` into ``target``: its observations (values passed through
        ``convert(value, from_unit)``), its aliases, and the counted attribute sets, in one
        transaction. Returns the number of observations moved."""
        with self._lock, self.session() as s:
            recs = {r.name: r for r in s.execute(select(AttributeRecord).where(
                AttributeRecord.memory_id == memory_id, AttributeRecord.name.in_([source, target]))).scalars()}  # type: ignore[attr-defined]
            if source not in recs or target not in recs:
                raise StoreError(f"cannot merge {source!r} into {target!r}: unknown attribute")
            moved = 0
            for o in s.execute(select(ObservationRecord).where(
                    ObservationRecord.memory_id == memory_id, ObservationRecord.attribute == source)).scalars():
                if o.value_num is not None and convert is not None:
                    o.value_num, o.unit = convert(o.value_num, o.unit), recs[target].unit
                o.attribute = target
                s.add(o)
                moved += 1
            dst, src = recs[target], recs[source]
            dst.aliases = sorted({*dst.aliases, source, *src.aliases} - {target})
            dst.observations += src.observations
            s.add(dst)
            s.delete(src)
            counts: dict[tuple[str, ...], int] = {}
            for rnd in s.execute(select(RoundRecord).where(RoundRecord.memory_id == memory_id, RoundRecord.attributes.is_not(None))).scalars():  # type: ignore[union-attr]
                attrs = rnd.attributes or []
                if source in attrs:
                    attrs = sorted({*attrs, target} - {source})
                    rnd.attributes = attrs
                    s.add(rnd)
                counts[tuple(attrs)] = counts.get(tuple(attrs), 0) + 1
            s.execute(delete(AttributeSetRecord).where(AttributeSetRecord.memory_id == memory_id))
            for attrs, n in counts.items():
                s.add(AttributeSetRecord(memory_id=memory_id, key="|".join(attrs), attributes=list(attrs), count=n))
            return moved

    def value_ranges(self, memory_id: str) -> dict[str, tuple[float, float]]:
        """Smallest and largest numeric value of every attribute (one grouped query)."""
        with self.session() as s:
            rows = s.execute(
                select(ObservationRecord.attribute, func.min(ObservationRecord.value_num), func.max(ObservationRecord.value_num))
                .where(ObservationRecord.memory_id == memory_id, ObservationRecord.value_num.is_not(None))  # type: ignore[union-attr]
                .group_by(ObservationRecord.attribute)
            ).all()
        return {a: (float(lo), float(hi)) for a, lo, hi in rows}

    def attribute_sets(self, memory_id: str) -> list[tuple[frozenset[str], int]]:
        with self.session() as s:
            rows = s.execute(select(AttributeSetRecord).where(AttributeSetRecord.memory_id == memory_id, AttributeSetRecord.count > 0)).scalars()
            return [(frozenset(r.attributes), r.count) for r in rows]

    def put_schema(self, memory_id: str, attributes: Sequence[str], *, support: int, status: str = "active", table_name: str | None = None) -> SchemaRecord:
        attrs = sorted(set(attributes))
        key = "|".join(attrs)
        with self.session() as s:
            rec = s.execute(select(SchemaRecord).where(SchemaRecord.memory_id == memory_id, SchemaRecord.key == key)).scalar()
            if rec is None:
                rec = SchemaRecord(memory_id=memory_id, key=key, attributes=attrs)
            rec.support, rec.status, rec.updated_at = support, status, utcnow()
            if table_name is not None:
                rec.table_name = table_name
            s.add(rec)
            return rec

    def schemas(self, memory_id: str, status: str | None = "active") -> list[SchemaRecord]:
        q = select(SchemaRecord).where(SchemaRecord.memory_id == memory_id)
        if status is not None:
            q = q.where(SchemaRecord.status == status)
        with self.session() as s:
            return list(s.execute(q.order_by(SchemaRecord.id)).scalars())

    # -- induced analytic tables -------------------------------------------------------------

    def create_table(self, memory_id: str, name: str, columns: Sequence[ColumnSpec], *, description: str = "", schema_key: str | None = None) -> TableInfo:
        """Create an analytic table with typed attribute columns plus the system columns.

        The physical name is derived from the memory and the table name, so two memories may
        both have a ``sleep_log`` without ever sharing a table.
        """
        check_identifier(name, "table name")
        cols = _check_columns(columns)
        physical = f"t_{memory_key(memory_id)}_{name}"
        with self._lock:
            if self.table(memory_id, name, missing_ok=True) is not None:
                raise StoreError(f"table {name!r} already exists in this memory")
            table = self._build_table(physical, cols)
            table.create(self.engine, checkfirst=True)
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
        with self._lock:
            with self.engine.begin() as conn:
                for col in new:
                    ddl_col = Column(col.name, _SA_TYPES[col.type]())
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
        with self._lock:
            self._sa_table(info).drop(self.engine, checkfirst=True)
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
        with self.engine.begin() as conn:
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
        with self.engine.begin() as conn:
            for start in range(0, len(keys), 400):
                chunk = keys[start:start + 400]
                cond = or_(*[and_(table.c.source == src, table.c.record == rec) for src, rec in chunk])
                deleted += conn.execute(delete(table).where(table.c.memory_id == memory_id, cond)).rowcount
        return deleted

    def delete_rows(self, memory_id: str, name: str, sources: Sequence[str]) -> int:
        info = self._require_table(memory_id, name)
        table = self._sa_table(info)
        with self.engine.begin() as conn:
            return conn.execute(delete(table).where(table.c.memory_id == memory_id, table.c.source.in_(list(sources)))).rowcount

    def select_rows(
        self,
        memory_id: str,
        name: str,
        conditions: Sequence[Condition] = (),
        *,
        order_by: str | None = None,
        descending: bool = False,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """Rows of an induced table matching every condition, in history order by default."""
        info = self._require_table(memory_id, name)
        table = self._sa_table(info)
        q = select(table).where(self._where(info, table, memory_id, conditions))
        if order_by is not None:
            col = self._column(info, table, order_by)
            q = q.order_by(col.desc().nulls_last() if descending else col.asc().nulls_last(), table.c.order)
        else:
            q = q.order_by(table.c.order)
        if limit is not None:
            q = q.limit(max(0, int(limit)))
        with self.engine.connect() as conn:
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
        with self.engine.connect() as conn:
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
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(table).where(where)).scalar() or 0)

    # -- stats and removal ----------------------------------------------------------------

    def stats(self, memory_id: str) -> dict[str, int]:
        """Counts of everything stored for a memory, so nothing lost or duplicated goes unseen."""
        with self.session() as s:
            levels = dict(
                s.execute(select(NodeRecord.level, func.count(NodeRecord.id)).where(NodeRecord.memory_id == memory_id).group_by(NodeRecord.level)).all()
            )
        tables = self.tables(memory_id)
        return {
            "rounds": self.count_rounds(memory_id),
            "observations": self._count(ObservationRecord, memory_id),
            "schemas": len(self.schemas(memory_id)),
            "tables": len(tables),
            "table_rows": sum(self.count_rows(memory_id, t.name) for t in tables),
            "events": int(levels.get("event", 0)),
            "episodes": int(levels.get("episode", 0)),
            "topics": int(levels.get("topic", 0)),
            "units": self.count_units(memory_id),
            **self._model_use_totals(memory_id),
        }

    def add_model_use(self, memory_id: str, entries: Sequence[dict[str, Any]]) -> None:
        """Add a run's model calls (cost-ledger entries with a role) to the memory's totals."""
        totals: dict[tuple[str, str], list[int]] = {}
        for e in entries:
            if e.get("role") and e.get("model"):
                t = totals.setdefault((e["role"], e["model"]), [0, 0, 0, 0])
                for i, name in enumerate(("calls", "tokens_in", "tokens_out", "fallbacks")):
                    t[i] += int(e.get(name) or 0)
        if not totals:
            return
        with self.session() as s:
            for (role, model), (calls, tokens_in, tokens_out, fallbacks) in totals.items():
                row = s.execute(select(ModelUseRecord).where(
                    ModelUseRecord.memory_id == memory_id, ModelUseRecord.role == role, ModelUseRecord.model == model)).scalar_one_or_none()
                if row is None:
                    row = ModelUseRecord(memory_id=memory_id, role=role, model=model)
                    s.add(row)
                row.calls += calls
                row.tokens_in += tokens_in
                row.tokens_out += tokens_out
                row.fallbacks += fallbacks
                row.updated_at = utcnow()

    def model_use(self, memory_id: str) -> list[ModelUseRecord]:
        with self.session() as s:
            return list(s.execute(select(ModelUseRecord).where(ModelUseRecord.memory_id == memory_id)
                                  .order_by(ModelUseRecord.role, ModelUseRecord.model)).scalars())

    def _model_use_totals(self, memory_id: str) -> dict[str, int]:
        rows = self.model_use(memory_id)
        return {"model_calls": sum(r.calls for r in rows), "model_fallbacks": sum(r.fallbacks for r in rows)}

    def drop_memory(self, memory_id: str) -> None:
        """Remove every trace of a memory from SQL (vectors live elsewhere)."""
        for info in self.tables(memory_id):
            self.drop_table(memory_id, info.name)
        with self.session() as s:
            for model in (RoundRecord, ObservationRecord, AttributeSetRecord, AttributeRecord, SchemaRecord, NodeRecord, UnitRecord,
                          UnitVersionRecord, ModelUseRecord):
                s.execute(delete(model).where(model.memory_id == memory_id))

    # -- internals --------------------------------------------------------------------------

    def _count(self, model: type[SQLModel], memory_id: str) -> int:
        with self.session() as s:
            return int(s.execute(select(func.count(model.id)).where(model.memory_id == memory_id)).scalar() or 0)  # type: ignore[attr-defined]

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
            *[Column(c.name, _SA_TYPES[c.type]()) for c in cols],
            UniqueConstraint("memory_id", "source", "record", name=f"uq_{physical}_source"[:63]),
        )

    def _create_indexes(self, table: Table, cols: Sequence[ColumnSpec]) -> None:
        """Indexes the analytic tools need: by date (observed, else round time) and per
        column (numeric, time and text: a group_by or a categorical filter reads a text column's
        values), so Compute / Rank / Filter stay fast on 100k-row tables."""
        wanted = [Index(_index_name(table.name, "date"), table.c.memory_id, func.coalesce(table.c.observed_at, table.c.time))]
        wanted += [Index(_index_name(table.name, c.name), table.c.memory_id, table.c[c.name])
                   for c in cols if c.type in ("float", "int", "datetime", "text")]
        with self.engine.begin() as conn:  # reflection misses expression indexes: IF NOT EXISTS
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
        with self._lock, self.engine.begin() as conn:
            insp = inspect(conn)
            if insp.has_table(physical) and "record" not in {c["name"] for c in insp.get_columns(physical)}:
                quote = self.engine.dialect.identifier_preparer.quote
                conn.exec_driver_sql(f"ALTER TABLE {quote(physical)} ADD COLUMN {quote('record')} INTEGER NOT NULL DEFAULT 0")
        self._checked.add(physical)

    def _column(self, info: TableInfo, table: Table, name: str) -> Any:
        if name not in table.c or name in ("row_id", "memory_id"):
            raise StoreError(f"table {info.name!r} has no column {name!r} (columns: {', '.join(info.column_names + ['source', 'order', 'time', 'observed_at'])})")
        return table.c[name]

    def _where(self, info: TableInfo, table: Table, memory_id: str, conditions: Sequence[Condition]) -> Any:
        types = {c.name: c.type for c in info.columns} | {"order": "int", "record": "int", "time": "datetime", "observed_at": "datetime", "source": "text", "captions": "text"}
        clauses = [table.c.memory_id == memory_id]
        for cond in conditions:
            col = self._column(info, table, cond.column)
            ctype = types[cond.column]
            clauses.append(_condition_clause(col, ctype, cond))
        return and_(*clauses)

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
        if col.type not in _SA_TYPES:
            raise StoreError(f"column {col.name!r}: unknown type {col.type!r} (use {', '.join(_SA_TYPES)})")
        if col.name in seen:
            raise StoreError(f"duplicate column {col.name!r}")
        seen.add(col.name)
        out.append(col)
    return out


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
            from adamm.stores.records import parse_time

            return parse_time(value)
        if ctype == "text":
            if isinstance(value, (dict, list, bytes)):
                raise ValueError
            return str(value)
    except (TypeError, ValueError):
        raise StoreError(f"column {column!r} expects {ctype}, got {value!r}") from None
    raise StoreError(f"column {column!r} has unknown type {ctype!r}")


def contains_clause(col: Any, text: str) -> Any:
    """Case-insensitive substring match with LIKE wildcards in ``text`` taken literally."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return func.lower(col).like(f"%{escaped}%", escape="\\")


def _condition_clause(col: Any, ctype: str, cond: Condition) -> Any:
    op = cond.op
    if op not in OPERATORS:
        raise StoreError(f"unknown operator {op!r} (use {', '.join(OPERATORS)})")
    if op == "is_null":
        return col.is_(None)
    if op == "not_null":
        return col.is_not(None)
    if op == "contains":
        if ctype != "text":
            raise StoreError(f"operator 'contains' needs a text column, {cond.column!r} is {ctype}")
        return contains_clause(col, str(cond.value))
    if op in ("<", "<=", ">", ">=") and ctype in ("text", "bool"):
        raise StoreError(f"operator {op!r} needs a numeric or time column, {cond.column!r} is {ctype}")
    if op == "in":
        values = cond.value if isinstance(cond.value, (list, tuple, set)) else [cond.value]
        return col.in_([cast_value(v, ctype, cond.column) for v in values])
    if op == "between":
        if not isinstance(cond.value, (list, tuple)) or len(cond.value) != 2:
            raise StoreError(f"operator 'between' on {cond.column!r} needs [low, high]")
        low, high = (cast_value(v, ctype, cond.column) for v in cond.value)
        return col.between(low, high)
    value = cast_value(cond.value, ctype, cond.column)
    return {"=": col == value, "!=": col != value, "<": col < value, "<=": col <= value, ">": col > value, ">=": col >= value}[op]


def _round_columns(rnd: Round) -> dict[str, Any]:
    return {
        "session_id": rnd.session_id,
        "timestamp": rnd.timestamp,
        "user_text": rnd.user_text,
        "assistant_text": rnd.assistant_text,
        "images": [im.model_dump(mode="json") for im in rnd.images],
        "meta": dict(rnd.metadata),
    }


def _to_round(rec: RoundRecord) -> Round:
    return Round(
        round_id=rec.round_id,
        session_id=rec.session_id,
        order=rec.order,
        timestamp=rec.timestamp,
        user_text=rec.user_text,
        assistant_text=rec.assistant_text,
        images=[ImageRef.model_validate(im) for im in rec.images],
        metadata=dict(rec.meta),
    )


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
