"""Attribute-set counts, canonical attributes and schemas: the evidence tables are induced from.

A schema's support is the number of rounds whose attribute set covers it, so every round's set
is counted exactly once - recounting a re-derived round moves its count instead of adding one -
and forgetting a round uncounts it. These writes hold the store's lock and one transaction:
two batches counting at once must not lose an update.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, null, select, update

from adamm.stores.sql_base import StoreBase, StoreError, check_identifier
from adamm.stores.sql_models import AttributeRecord, AttributeSetRecord, ObservationRecord, RoundRecord, SchemaRecord, utcnow


class SchemaStore(StoreBase):
    """Attribute counts, canonical attributes and schemas of every memory."""

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

    # -- forgetting ----------------------------------------------------------------------------

    def forget_observations(self, memory_id: str, round_ids: Sequence[str]) -> tuple[int, int, int]:
        """Take rounds out of the analytic evidence in one transaction: uncount their attribute
        sets, delete their observations, and remove the canonical attributes no remaining
        observation reports. Returns (rounds uncounted, observations deleted, attributes removed)."""
        ids = list(round_ids)
        removed = 0
        with self.session() as s:
            counted = s.execute(select(RoundRecord.attributes).where(
                RoundRecord.memory_id == memory_id, RoundRecord.round_id.in_(ids), RoundRecord.attributes.is_not(None))).scalars().all()  # type: ignore[attr-defined,union-attr]
            delta: dict[str, int] = defaultdict(int)
            for attrs in counted:
                delta["|".join(sorted(set(attrs or [])))] += 1
            for rec in s.execute(select(AttributeSetRecord).where(
                    AttributeSetRecord.memory_id == memory_id, AttributeSetRecord.key.in_(list(delta)))).scalars():  # type: ignore[attr-defined]
                rec.count = max(0, rec.count - delta[rec.key])
                if rec.count == 0:
                    s.delete(rec)
                else:
                    s.add(rec)
            # uncounted for good: a rerun of a forget that died before deleting the rounds
            # must not uncount them a second time (SQL NULL: "not counted", not JSON null)
            s.execute(update(RoundRecord).where(RoundRecord.memory_id == memory_id, RoundRecord.round_id.in_(ids))  # type: ignore[attr-defined]
                      .values(attributes=null()))
            observations = s.execute(delete(ObservationRecord).where(
                ObservationRecord.memory_id == memory_id, ObservationRecord.round_id.in_(ids))).rowcount  # type: ignore[attr-defined]
            left = set(s.execute(select(ObservationRecord.attribute).where(ObservationRecord.memory_id == memory_id).distinct()).scalars())
            for rec in s.execute(select(AttributeRecord).where(AttributeRecord.memory_id == memory_id)).scalars():
                if rec.name not in left:
                    s.delete(rec)
                    removed += 1
        return len(counted), observations, removed

    def delete_table_schema(self, memory_id: str, table_name: str) -> None:
        """Delete the schema a (dropped) table was induced from."""
        with self.session() as s:
            s.execute(delete(SchemaRecord).where(SchemaRecord.memory_id == memory_id, SchemaRecord.table_name == table_name))

    def delete_unsupported_schemas(self, memory_id: str) -> None:
        """Delete the inactive (evolved-from) schemas no round supports any more."""
        with self.session() as s:
            s.execute(delete(SchemaRecord).where(SchemaRecord.memory_id == memory_id, SchemaRecord.status != "active", SchemaRecord.support == 0))
