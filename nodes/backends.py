"""The stores and encoders one Context points at, opened once per process and shared.

Opening a SQLAlchemy engine, a Chroma client or a sentence-transformers model costs seconds; a
graph invoked a thousand times must not pay it a thousand times. ``backends(ctx)`` caches by
the context's storage and encoder settings, so two contexts that differ only in thresholds
share one set of stores, and two memories (``memory_id``) share the same stores, kept apart by
the stores themselves.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from adamm.nodes.context import Context
from adamm.stores.bm25 import KeywordIndexes
from adamm.stores.encoders import ImageEncoder, TextEncoder, build_image_encoder
from adamm.stores.sql import SqlStore
from adamm.stores.units import UnitIndex
from adamm.stores.vectors import VectorStore


@dataclass
class Backends:
    sql: SqlStore
    vectors: VectorStore
    keywords: KeywordIndexes
    text_encoder: TextEncoder
    image_encoder: ImageEncoder | None
    units: UnitIndex

    def close(self) -> None:
        self.sql.close()
        self.vectors.close()


_CACHE: dict[tuple[Any, ...], Backends] = {}
_ENCODERS: dict[tuple[Any, ...], Any] = {}
_LOCK = threading.Lock()


def _key(ctx: Context) -> tuple[Any, ...]:
    return (ctx.resolved_database_url(), ctx.chroma_url or str(ctx.chroma_path()), str(ctx.home_path),
            ctx.text_encoder, ctx.text_encoder_backend, str(ctx.model_cache_path()), ctx.image_model, ctx.image_weights)


def backends(ctx: Context) -> Backends:
    """The shared backends for this context's storage and encoder settings."""
    key = _key(ctx)
    with _LOCK:
        found = _CACHE.get(key)
        if found is not None:
            return found
        sql = SqlStore(ctx.resolved_database_url())
        vectors = VectorStore(url=ctx.chroma_url) if ctx.chroma_url else VectorStore(path=ctx.chroma_path())
        # BM25 pickles sit next to the embedded stores; with a database server the index lives
        # in memory only, since several server processes may not share a disk.
        directory = ctx.home_path / "bm25" if ctx.database_url is None else None
        keywords = KeywordIndexes(directory, corpus=sql.unit_corpus, version=sql.units_version)
        text_key = ("text", ctx.text_encoder, ctx.text_encoder_backend, str(ctx.model_cache_path()))
        if text_key not in _ENCODERS:
            _ENCODERS[text_key] = TextEncoder(ctx.text_encoder, backend=ctx.text_encoder_backend,
                                              cache_dir=ctx.model_cache_path())
        image_key = ("image", ctx.image_model, ctx.image_weights)
        if image_key not in _ENCODERS:
            _ENCODERS[image_key] = build_image_encoder(ctx.image_model, ctx.image_weights)
        text = _ENCODERS[text_key]
        found = Backends(sql, vectors, keywords, text, _ENCODERS[image_key], UnitIndex(sql, vectors, keywords, text))
        _CACHE[key] = found
        return found


def reset_backends() -> None:
    """Close and forget every cached backend (tests, and hosts that change ADAMM_HOME): the
    SQL engines, and the embedded Chroma systems no other client of the process still uses
    (their threads and open files; a store opened again loads its directory from disk)."""
    with _LOCK:
        for b in _CACHE.values():
            b.close()
        _CACHE.clear()
