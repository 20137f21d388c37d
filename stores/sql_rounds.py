"""Rounds and their observations: the raw history, kept first and exactly as given.

Rounds are written before anything is derived from them, so nothing accepted is ever lost; a
round's ``derived`` flag says whether its derived structures are complete, which is how an
interrupted run is found and resumed. Observations are replaced per round, never appended, so
re-extracting a round cannot double its facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update

from adamm.stores.records import ImageRef, Round
from adamm.stores.sql_base import StoreBase
from adamm.stores.sql_models import ObservationRecord, RoundRecord, utcnow


@dataclass
class AddRoundsResult:
    added: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)


class RoundStore(StoreBase):
    """Rounds and observations of every memory."""

    # -- rounds -------------------------------------------------------------------------

    def add_rounds(self, memory_id: str, rounds: Sequence[Round]) -> AddRoundsResult:
        """Store raw rounds in one transaction, idempotently.

        A round already stored with the same content is left alone; one with the same id and
        different content is an explicit update (its ``derived`` flag is cleared so derived
        structures are rebuilt). Rounds without ``order`` are appended, in the given order, after
        the memory's last round (and after any explicit order given before them); a round stored
        before keeps its place, so re-sending one - a resumed ingest - changes nothing. The
        callers hold the memory's write lock, so two writers never number the same place.
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
            last = s.execute(select(func.max(RoundRecord.order)).where(RoundRecord.memory_id == memory_id)).scalar()
            next_order = 0 if last is None else last + 1  # read in the transaction that stores the rounds
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
                    old.stage = 0
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
        q = q.order_by(RoundRecord.order)
        with self.session() as s:
            return [_to_round(r) for r in s.execute(q).scalars()]

    def pending_round_ids(self, memory_id: str, round_ids: Sequence[str] | None = None, *, before_stage: int | None = None) -> list[str]:
        """Ids of rounds not yet fully derived, in history order, optionally among ``round_ids``
        and only those whose ``stage`` is below ``before_stage``: the check every ingestion step
        makes under the lock, so it reads ids, not texts."""
        q = select(RoundRecord.round_id).where(RoundRecord.memory_id == memory_id, RoundRecord.derived == False)  # noqa: E712
        if round_ids is not None:
            q = q.where(RoundRecord.round_id.in_(list(round_ids)))  # type: ignore[attr-defined]
        if before_stage is not None:
            q = q.where(RoundRecord.stage < before_stage)
        with self.session() as s:
            return list(s.execute(q.order_by(RoundRecord.order)).scalars())

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
            s.execute(update(RoundRecord).where(RoundRecord.memory_id == memory_id, RoundRecord.round_id.in_(list(round_ids)))  # type: ignore[attr-defined]
                      .values(derived=True))

    def set_stage(self, memory_id: str, round_ids: Sequence[str], stage: int) -> None:
        """Record that ingest step ``stage`` is done for these rounds (inside the step's own
        transaction, so the step's writes and this mark commit together)."""
        if not round_ids:
            return
        with self.session() as s:
            s.execute(update(RoundRecord).where(RoundRecord.memory_id == memory_id, RoundRecord.round_id.in_(list(round_ids)),  # type: ignore[attr-defined]
                                                RoundRecord.stage < stage).values(stage=stage))

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
        table = ObservationRecord.__table__  # type: ignore[attr-defined]
        q = select(*table.columns).where(table.c.memory_id == memory_id)
        if round_ids is not None:
            q = q.where(table.c.round_id.in_(list(round_ids)))
        if attributes is not None:
            q = q.where(table.c.attribute.in_(list(attributes)))
        # plain rows, not ORM instances: every batch of an ingest reads the memory's observations,
        # and the identity map's bookkeeping cost more than the query (they are read, never updated)
        with self.session() as s:
            return [ObservationRecord.model_construct(**row._mapping) for row in s.execute(q.order_by(table.c.id))]

    def text_values(self, memory_id: str) -> list[tuple[str, str]]:
        """The distinct (attribute, text value) pairs of the memory's categorical observations:
        one grouped query, for rules that ask which words are some field's values."""
        q = (select(ObservationRecord.attribute, ObservationRecord.value_text)
             .where(ObservationRecord.memory_id == memory_id, ObservationRecord.value_num.is_(None),  # type: ignore[union-attr]
                    ObservationRecord.value_text.is_not(None))  # type: ignore[union-attr]
             .distinct())
        with self.session() as s:
            return [(a, v) for a, v in s.execute(q).all()]

    def observation_attributes(self, memory_id: str) -> list[tuple[str, str]]:
        """(round id, attribute) of every stored observation: how induction finds rounds whose
        observations changed since they were counted, without reading their values."""
        q = select(ObservationRecord.round_id, ObservationRecord.attribute).where(ObservationRecord.memory_id == memory_id)
        with self.session() as s:
            return [(r, a) for r, a in s.execute(q).all()]

    # -- forgetting and repair ----------------------------------------------------------------

    def delete_rounds(self, memory_id: str, round_ids: Sequence[str]) -> int:
        """Delete the round records themselves (what was derived from them goes first)."""
        with self.session() as s:
            return s.execute(delete(RoundRecord).where(RoundRecord.memory_id == memory_id, RoundRecord.round_id.in_(list(round_ids)))).rowcount  # type: ignore[attr-defined]

    def last_derived_order(self, memory_id: str) -> int | None:
        """The order of the newest round whose derived structures are complete."""
        with self.session() as s:
            return s.execute(select(RoundRecord.order).where(
                RoundRecord.memory_id == memory_id, RoundRecord.derived == True).order_by(RoundRecord.order.desc()).limit(1)).scalar()  # noqa: E712

    def first_ingested(self, memory_id: str, round_ids: Sequence[str]) -> datetime | None:
        """When the earliest of these rounds was stored (None when none is)."""
        with self.session() as s:
            return min(s.execute(select(RoundRecord.ingested_at).where(
                RoundRecord.memory_id == memory_id, RoundRecord.round_id.in_(list(round_ids)))).scalars(), default=None)  # type: ignore[attr-defined]


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

