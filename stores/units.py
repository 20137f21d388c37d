"""Retrievable text units kept in step across the three places they live.

A unit (a round, an event, an episode, a table's metadata ...) is written to SQL first - the
source of truth - then its vector to Chroma; the BM25 index is derived from SQL on demand
(``KeywordIndexes`` notices the change through ``units_version``). A crash between the two
writes leaves a unit without a vector, which the next ``add`` of the same unit repairs (the
round stays pending until its units are written). Ingestion adds units inside
``nodes.locking.committed``, where the vectors are journaled with the SQL rows and made once
they commit.

Search is hybrid by default: a dense ranking and a BM25 ranking fused with RRF; either one
alone is selectable for ablations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from adamm.stores.bm25 import KeywordIndexes
from adamm.stores.encoders import TextEncoder
from adamm.stores.fusion import rrf
from adamm.stores.sql import SqlStore
from adamm.stores.vectors import VectorStore

SearchMode = Literal["hybrid", "dense", "bm25"]

#: The space every round is indexed in as one unit of its own (``nodes.ingest.index_rounds``).
ROUNDS_SPACE = "rounds"


@dataclass(frozen=True)
class Unit:
    unit_id: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass
class ScoredUnit:
    unit_id: str
    score: float
    text: str
    metadata: dict[str, Any]
    dense_rank: int | None = None
    bm25_rank: int | None = None
    dense_score: float | None = None
    bm25_score: float | None = None


def text_space(space: str) -> str:
    return f"{space}.text"


class UnitIndex:
    """Write and search units of one memory and space; SQL, vectors and BM25 together."""

    def __init__(self, sql: SqlStore, vectors: VectorStore, keywords: KeywordIndexes, encoder: TextEncoder) -> None:
        self.sql, self.vectors, self.keywords, self.encoder = sql, vectors, keywords, encoder

    def add(self, memory_id: str, space: str, units: Sequence[Unit], embeddings: np.ndarray | None = None) -> int:
        """Insert or replace units; embeddings are computed when not given."""
        if not units:
            return 0
        self.sql.put_units(memory_id, space, [(u.unit_id, u.text, u.metadata) for u in units])
        vecs = embeddings if embeddings is not None else self.encoder.encode([u.text for u in units])
        self.vectors.upsert(memory_id, text_space(space), [u.unit_id for u in units], vecs,
                            [_chroma_meta(u.metadata) for u in units])
        return len(units)

    def remove(self, memory_id: str, space: str, unit_ids: Sequence[str] | None = None) -> None:
        self.sql.delete_units(memory_id, space, unit_ids)
        self.vectors.delete(memory_id, text_space(space), unit_ids)
        self.keywords.invalidate(memory_id, space)

    def search(
        self,
        memory_id: str,
        space: str,
        query: str,
        k: int,
        *,
        mode: SearchMode = "hybrid",
        rrf_k: int = 60,
        allowed: set[str] | None = None,
        query_vector: np.ndarray | None = None,
    ) -> list[ScoredUnit]:
        """Top-``k`` units for a text query; ``allowed`` narrows to given unit ids (scopes)."""
        if k <= 0 or not query.strip():
            return []
        pool = max(4 * k, 50)
        dense: list[tuple[str, float]] = []
        keyword: list[tuple[str, float]] = []
        if mode in ("hybrid", "dense"):
            qv = query_vector if query_vector is not None else self.encoder.encode_one(query)
            n = self.vectors.count(memory_id, text_space(space))
            hits = self.vectors.query(memory_id, text_space(space), qv, n if allowed is not None else pool)
            dense = [(h.id, h.score) for h in hits if allowed is None or h.id in allowed][:pool]
        if mode in ("hybrid", "bm25"):
            index = self.keywords.get(memory_id, space)
            scored = index.search(query, len(index) if allowed is not None else pool)
            keyword = [(i, s) for i, s in scored if allowed is None or i in allowed][:pool]
        if mode == "dense":
            fused = dense
        elif mode == "bm25":
            fused = keyword
        else:
            fused = rrf([[i for i, _ in dense], [i for i, _ in keyword]], k=rrf_k)
        top = fused[:k]
        if not top:
            return []
        dense_pos = {i: (r, s) for r, (i, s) in enumerate(dense, start=1)}
        kw_pos = {i: (r, s) for r, (i, s) in enumerate(keyword, start=1)}
        records = {u.unit_id: u for u in self.sql.units(memory_id, space, [i for i, _ in top])}
        out = []
        for unit_id, score in top:
            rec = records.get(unit_id)
            if rec is None:  # vector without a SQL unit: the SQL side is the truth
                continue
            d, b = dense_pos.get(unit_id), kw_pos.get(unit_id)
            out.append(ScoredUnit(unit_id, float(score), rec.text, dict(rec.meta),
                                  d[0] if d else None, b[0] if b else None, d[1] if d else None, b[1] if b else None))
        return out


def _chroma_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """Chroma takes only scalar metadata: keep scalars, drop the rest (SQL has the full copy)."""
    return {k: v for k, v in meta.items() if isinstance(v, (str, int, float, bool))}
