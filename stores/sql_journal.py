"""The vector journal: vector writes committed with SQL rows, kept until they are made.

A step that writes rows and vectors (the hierarchy, the round index) collects its vector writes
(``VectorStore.deferred``), adds them here inside the transaction of its rows, and makes them
after the commit; a process killed before they are all made leaves them here, and the next
step on the memory makes them again (``nodes/locking.py``). So the vectors are exactly those
of the committed rows, whatever the moment of the crash.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sqlalchemy import delete, insert, select

from adamm.stores.sql_base import StoreBase
from adamm.stores.sql_models import VectorJournalRecord
from adamm.stores.vectors import VectorWrite


class JournalStore(StoreBase):
    """Vector writes of every memory that are committed but perhaps not made yet."""

    def add_vector_writes(self, memory_id: str, writes: Sequence[VectorWrite]) -> None:
        """Journal ``writes`` (in order) in the caller's transaction."""
        rows = []
        for w in writes:
            matrix = None if w.vectors is None else np.ascontiguousarray(w.vectors, dtype=np.float32)
            rows.append({"memory_id": memory_id, "op": w.op, "space": w.space, "ids": list(w.ids),
                         "dim": 0 if matrix is None else int(matrix.shape[1]),
                         "vectors": None if matrix is None else matrix.tobytes(), "metadatas": w.metadatas})
        if rows:
            with self.session() as s:
                s.execute(insert(VectorJournalRecord), rows)

    def vector_writes(self, memory_id: str) -> list[tuple[int, VectorWrite]]:
        """The journaled writes of a memory, oldest first, with their journal ids."""
        with self.session() as s:
            recs = list(s.execute(select(VectorJournalRecord).where(VectorJournalRecord.memory_id == memory_id)
                                  .order_by(VectorJournalRecord.id)).scalars())
        out = []
        for r in recs:
            vectors = None if r.vectors is None else np.frombuffer(r.vectors, dtype=np.float32).reshape(len(r.ids), r.dim)
            out.append((int(r.id or 0), VectorWrite(r.op, r.memory_id, r.space, list(r.ids), vectors, r.metadatas)))  # type: ignore[arg-type]
        return out

    def clear_vector_writes(self, memory_id: str, upto: int | None = None) -> None:
        """Forget the journaled writes of a memory (up to id ``upto``): they are made."""
        q = delete(VectorJournalRecord).where(VectorJournalRecord.memory_id == memory_id)
        if upto is not None:
            q = q.where(VectorJournalRecord.id <= upto)
        with self.session() as s:
            s.execute(q)
