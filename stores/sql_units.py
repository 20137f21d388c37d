"""Text units in SQL: the source of truth the BM25 indexes are built from and the keys of the
vectors.

Each write also replaces the space's version token inside the same transaction, so a keyword
index in any process can tell in one cheap read that its space changed, without counting or
hashing the units.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session

from adamm.stores.sql_base import StoreBase
from adamm.stores.sql_models import UnitRecord, UnitVersionRecord, utcnow


class UnitStore(StoreBase):
    """Retrievable text units of every memory, per space."""

    def put_units(self, memory_id: str, space: str, units: Sequence[tuple[str, str, dict[str, Any]]]) -> None:
        """Insert or replace ``(unit_id, text, metadata)`` units of one space."""
        if not units:
            return
        now = utcnow()
        rows = {unit_id: {"unit_id": unit_id, "text": text, "metadata": dict(meta), "updated_at": now} for unit_id, text, meta in units}
        with self.session() as s:
            self._upsert_rows(s, UnitRecord, {"memory_id": memory_id, "space": space}, "unit_id", list(rows.values()))
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
