"""Dense vectors in Chroma, one collection per (memory_id, space).

Why a collection per tenant and space: a ``where`` filter on a shared collection is one
forgotten argument away from leaking another user's memories; separate collections make
isolation physical, keep each HNSW graph small, and let ``drop_memory`` delete a user for
real. Collection names come from a hash of the memory id, because memory ids are arbitrary
user text ("../", quotes, 5000 characters, emoji) and Chroma names are not; the memory id is
also kept in the collection metadata and checked on every open, so a hash collision fails
loudly instead of silently mixing two tenants.

We always pass our own embeddings: collections are opened with ``embedding_function=None``
so Chroma never builds its default embedder (which would try to download a model).

Several processes may share one embedded directory (two ``adamm ingest`` runs, a server and a
CLI). Chroma's ``PersistentClient`` is not multi-process safe: each process keeps its own HNSW
index in memory, so a process that does not reload misses the others' vectors, and when it
persists its stale index it overwrites theirs. So every call holds an inter-process file lock
next to the directory (``<dir>.lock``), every write records a new generation token
(``<dir>.generation``), and a process that finds a token it did not write drops its cached
Chroma system and reopens it from disk before doing anything. Writes are thereby serialized and
every read sees every committed write. A Chroma server (``url=``) does its own locking.

The same class serves the embedded default (``PersistentClient`` on a directory) and the
scale-out deployment (``HttpClient`` to a Chroma server): pass ``path`` or ``url``.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import re
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Sequence
from urllib.parse import urlparse

import numpy as np
from filelock import FileLock

from adamm.stores import crash

if TYPE_CHECKING:  # chromadb is imported lazily: it is slow to import and only needed on use
    from chromadb.api import ClientAPI
    from chromadb.api.models.Collection import Collection

__all__ = ["Hit", "VectorStore", "VectorWrite", "check_space", "memory_key"]

#: Space names end up in Chroma collection names (and in BM25 file names), whose rules are
#: [a-zA-Z0-9._-], alphanumeric at both ends, no "..". We accept the lowercase subset.
_SPACE_RE = re.compile(r"[a-z0-9](?:[a-z0-9_.-]{0,39}[a-z0-9])?")

#: Used when the client cannot tell us its limit (older clients).
DEFAULT_MAX_BATCH = 5000

#: How long a call waits for another process's vector call (a stuck peer, not a slow one).
PROCESS_LOCK_TIMEOUT_S = 600.0

#: Per directory, the generation this process's cached Chroma system was last known current
#: at. Chroma shares one system per directory among all clients of a process, so a new
#: ``VectorStore`` must not trust a system that an earlier one left behind.
_SYSTEM_GENERATION: dict[str, str] = {}


def _exclusive(write: bool) -> Any:
    """Run a public method under the directory's inter-process lock, on a fresh view of it."""

    def wrap(method: Any) -> Any:
        @functools.wraps(method)
        def run(self: "VectorStore", *args: Any, **kwargs: Any) -> Any:
            if self._process_lock is None:
                out = method(self, *args, **kwargs)
            else:
                with self._process_lock:
                    self._refresh()
                    try:
                        out = method(self, *args, **kwargs)
                    finally:
                        if write:
                            self._bump()
            if write:
                crash.vectors_written(method.__name__.lstrip("_"))
            return out

        return run

    return wrap


def check_space(space: str) -> str:
    """Return ``space`` if it is a valid space name, else raise ``ValueError``.

    1-41 characters of ``[a-z0-9_.-]``, starting and ending with a letter or digit, no "..".
    """
    if not isinstance(space, str) or not _SPACE_RE.fullmatch(space) or ".." in space:
        raise ValueError(
            f"invalid space {space!r}: use 1-41 characters of [a-z0-9_.-], starting and ending "
            "with a letter or digit, without '..'"
        )
    return space


def memory_key(memory_id: str) -> str:
    """A short, filesystem- and Chroma-safe key for an arbitrary memory id (sha1, 20 hex).

    Raises ``ValueError`` for a non-string or empty id: an empty id is always a caller bug.
    """
    if not isinstance(memory_id, str) or not memory_id:
        raise ValueError(f"memory_id must be a non-empty string, got {memory_id!r}")
    return hashlib.sha1(memory_id.encode("utf-8")).hexdigest()[:20]


@dataclass(frozen=True)
class VectorWrite:
    """One upsert or delete, checked and ready to be made (``VectorStore.deferred``, ``apply``).

    ``vectors`` is float32 (n, dim) for an upsert, None for a delete; ``metadatas`` are the
    cleaned ones (scalars only), so a write kept as data and made later is the same write.
    """

    op: Literal["upsert", "delete"]
    memory_id: str
    space: str
    ids: list[str]
    vectors: np.ndarray | None = None
    metadatas: list[dict[str, Any] | None] | None = None


@dataclass(frozen=True)
class Hit:
    """One query result: the unit id, its cosine similarity to the query and its metadata."""

    id: str
    score: float
    metadata: dict[str, Any] = field(default_factory=dict)


class VectorStore:
    """Per-tenant, per-space vector collections in Chroma, with cosine similarity scores.

    >>> store = VectorStore(path="data/chroma")
    >>> store.upsert("alice", "event", ["r1"], [[0.1, 0.9]], [{"session": "s1"}])
    >>> store.query("alice", "event", [0.1, 0.8], k=5)
    [Hit(id='r1', score=0.99..., metadata={'session': 's1'})]

    The client is created on first use, so constructing a store is free and cannot fail on
    an unreachable server. Collections are looked up on every call instead of being cached:
    another process (or another ``VectorStore`` on the same path) may delete and recreate them.
    """

    #: Override to force smaller batches (tests do); ``None`` asks the client.
    max_batch_size: int | None = None

    def __init__(self, path: str | Path | None = None, url: str | None = None):
        if (path is None) == (url is None):
            raise ValueError("pass exactly one of path= (embedded Chroma) or url= (Chroma server)")
        if url is not None:
            parsed = urlparse(url)
            if parsed.scheme not in ("http", "https") or not parsed.hostname:
                raise ValueError(f"Chroma url must look like http://host:port, got {url!r}")
        self.path = Path(path) if path is not None else None
        self.url = url
        self._client: ClientAPI | None = None
        self._lock = threading.Lock()
        self._process_lock: FileLock | None = None
        self._generation: str | None = None
        #: The writes of the ``deferred`` block this context is in, if any.
        self._deferred: ContextVar[list[VectorWrite] | None] = ContextVar(f"adamm_deferred_{id(self)}", default=None)
        if self.path is not None:
            self._process_lock = FileLock(str(self.path.with_name(self.path.name + ".lock")), timeout=PROCESS_LOCK_TIMEOUT_S)

    def __repr__(self) -> str:
        where = f"url={self.url!r}" if self.url else f"path={str(self.path)!r}"
        return f"VectorStore({where})"

    # ----------------------------------------------------------------------------- public API

    def upsert(
        self,
        memory_id: str,
        space: str,
        ids: Sequence[str],
        vectors: np.ndarray | Sequence[Sequence[float]],
        metadatas: Sequence[dict] | None = None,
    ) -> None:
        """Insert or replace vectors (and their metadata) by id.

        All vectors of a space share one dimension, fixed by the first upsert; another
        dimension raises ``ValueError``. Large inputs are sent in batches below Chroma's limit.
        Inside ``deferred``, the checked write is collected instead of made.
        """
        ids = _check_ids(ids)
        matrix = _as_matrix(vectors, space)
        if matrix.shape[0] != len(ids):
            raise ValueError(f"{len(ids)} ids but {matrix.shape[0]} vectors for space {space!r}")
        if metadatas is not None and len(metadatas) != len(ids):
            raise ValueError(f"{len(ids)} ids but {len(metadatas)} metadatas for space {space!r}")
        if not ids:
            return
        clean = [_clean_metadata(m) for m in metadatas] if metadatas is not None else None
        self._make(VectorWrite("upsert", memory_id, check_space(space), ids, matrix, clean))

    def apply(self, writes: Sequence[VectorWrite]) -> None:
        """Make writes collected by ``deferred``, in order (making them again is harmless: an
        upsert sets the same vectors, a delete removes the same ids)."""
        for w in writes:
            if w.op == "upsert":
                assert w.vectors is not None
                self._upsert(w.memory_id, w.space, w.ids, w.vectors, w.metadatas)
            else:
                self._delete(w.memory_id, w.space, w.ids)

    @contextmanager
    def deferred(self) -> Iterator[list[VectorWrite]]:
        """Collect the block's upserts and deletes (checked, in order) instead of making them.

        Chroma has no transactions: a caller that must write vectors together with SQL rows
        collects them here, commits them as data with the rows, then makes them (``apply``) -
        and a process killed in between makes them on its next run (``nodes/locking.py``).
        Reading a space the block has written raises, since the read could not see the write.
        """
        writes: list[VectorWrite] = []
        token = self._deferred.set(writes)
        try:
            yield writes
        finally:
            self._deferred.reset(token)

    def _make(self, write: VectorWrite) -> None:
        pending = self._deferred.get()
        if pending is not None:
            pending.append(write)
        else:
            self.apply([write])

    def _not_deferred(self, memory_id: str, space: str) -> None:
        pending = self._deferred.get()
        if pending and any(w.memory_id == memory_id and w.space == space for w in pending):
            raise RuntimeError(f"space {space!r} read inside a deferred block that wrote it: the read cannot see the write")

    @_exclusive(write=True)
    def _upsert(self, memory_id: str, space: str, ids: list[str], matrix: np.ndarray, clean: list[dict[str, Any] | None] | None) -> None:
        col = self._collection(memory_id, space, create_dim=matrix.shape[1])
        dim = _collection_dim(col)
        if dim is not None and dim != matrix.shape[1]:
            raise ValueError(
                f"space {space!r} holds vectors of dimension {dim}, got dimension {matrix.shape[1]}"
            )
        step = self._batch_size()
        for start in range(0, len(ids), step):
            stop = start + step
            col.upsert(
                ids=ids[start:stop],
                embeddings=matrix[start:stop],
                metadatas=clean[start:stop] if clean is not None else None,
            )

    @_exclusive(write=False)
    def query(
        self, memory_id: str, space: str, vector, k: int, where: dict | None = None
    ) -> list[Hit]:
        """The ``k`` nearest vectors, best first, scored by cosine similarity in [-1, 1].

        ``k`` larger than the space is fine; a space that does not exist yet gives ``[]``.
        ``where`` is a Chroma metadata filter, e.g. ``{"session": "s1"}`` or
        ``{"$and": [{"day": {"$gte": 3}}, {"kind": "photo"}]}``.
        """
        self._not_deferred(memory_id, space)
        col = self._collection(memory_id, space)
        if col is None or k <= 0:
            return []
        n = int(k)  # Chroma caps it at the collection's size (no count() round trip per query)
        q = _as_matrix([vector] if np.ndim(vector) == 1 else vector, space)
        if q.shape[0] != 1:
            raise ValueError(f"query takes one vector, got {q.shape[0]} for space {space!r}")
        dim = _collection_dim(col)
        if dim is not None and dim != q.shape[1]:
            raise ValueError(
                f"space {space!r} holds vectors of dimension {dim}, "
                f"got a query of dimension {q.shape[1]}"
            )
        res = col.query(
            query_embeddings=q,
            n_results=n,
            where=where or None,  # Chroma rejects an empty filter
            include=["distances", "metadatas"],
        )
        ids, dists = res["ids"][0], res["distances"][0]
        metas = (res.get("metadatas") or [[None] * len(ids)])[0]
        hits = [
            Hit(id=i, score=max(-1.0, min(1.0, 1.0 - float(d))), metadata=dict(m or {}))
            for i, d, m in zip(ids, dists, metas)
        ]
        hits.sort(key=lambda h: (-h.score, h.id))  # deterministic order among equal scores
        return hits

    @_exclusive(write=False)
    def get(self, memory_id: str, space: str, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors by id (float32); ids that are not stored are simply absent."""
        self._not_deferred(memory_id, space)
        ids = _check_ids(ids)
        col = self._collection(memory_id, space)
        if col is None or not ids:
            return {}
        out: dict[str, np.ndarray] = {}
        step = self._batch_size()
        for start in range(0, len(ids), step):
            res = col.get(ids=ids[start : start + step], include=["embeddings"])
            for i, emb in zip(res["ids"], res["embeddings"]):
                out[i] = np.asarray(emb, dtype=np.float32)
        return out

    @_exclusive(write=False)
    def get_where(self, memory_id: str, space: str, where: dict) -> dict[str, tuple[np.ndarray, dict[str, Any]]]:
        """Stored vectors, with their metadata, whose metadata match a Chroma filter
        (e.g. ``{"event": {"$in": ids}}``)."""
        self._not_deferred(memory_id, space)
        col = self._collection(memory_id, space)
        if col is None or not where:
            return {}
        res = col.get(where=where, include=["embeddings", "metadatas"])
        metas = res.get("metadatas") or [None] * len(res["ids"])
        return {i: (np.asarray(e, dtype=np.float32), dict(m or {})) for i, e, m in zip(res["ids"], res["embeddings"], metas)}

    @_exclusive(write=False)
    def items(self, memory_id: str, space: str) -> dict[str, tuple[np.ndarray, dict[str, Any]]]:
        """Every vector of a space with its metadata, by id: what a check that two memories
        hold the same vectors compares (a resumed ingest against a clean one)."""
        self._not_deferred(memory_id, space)
        col = self._collection(memory_id, space)
        if col is None:
            return {}
        out: dict[str, tuple[np.ndarray, dict[str, Any]]] = {}
        step = self._batch_size()
        while True:
            res = col.get(include=["embeddings", "metadatas"], limit=step, offset=len(out))
            metas = res.get("metadatas") or [None] * len(res["ids"])
            out.update({i: (np.asarray(e, dtype=np.float32), dict(m or {})) for i, e, m in zip(res["ids"], res["embeddings"], metas)})
            if len(res["ids"]) < step:
                return out

    def delete(self, memory_id: str, space: str, ids: Sequence[str] | None = None) -> None:
        """Delete vectors by id, or the whole space of that memory when ``ids`` is None.

        Deleting the whole space drops the collection, which also frees its dimension (never
        inside ``deferred``; a delete by id there is collected like an upsert).
        """
        if ids is None:
            if self._deferred.get() is not None:
                raise RuntimeError("a whole space cannot be dropped inside a deferred block")
            self._drop_space(memory_id, space)
            return
        ids = _check_ids(ids)
        if ids:  # never call Chroma with ids=[]: it rejects it
            self._make(VectorWrite("delete", memory_id, check_space(space), ids))

    @_exclusive(write=True)
    def _drop_space(self, memory_id: str, space: str) -> None:
        name = self._name(memory_id, space)
        if self._collection(memory_id, space) is not None:  # also checks the owner
            self._delete_collection(name)

    @_exclusive(write=True)
    def _delete(self, memory_id: str, space: str, ids: list[str]) -> None:
        col = self._collection(memory_id, space)
        if col is None:
            return
        step = self._batch_size()
        for start in range(0, len(ids), step):
            col.delete(ids=ids[start : start + step])

    @_exclusive(write=False)
    def count(self, memory_id: str, space: str) -> int:
        """Number of vectors in the space (0 if it does not exist)."""
        self._not_deferred(memory_id, space)
        col = self._collection(memory_id, space)
        return 0 if col is None else col.count()

    @_exclusive(write=True)
    def drop_memory(self, memory_id: str) -> None:
        """Delete every space of a memory: the user's vectors are gone, not just hidden."""
        for space in self.spaces(memory_id):
            self.delete(memory_id, space)  # checks each collection's owner before dropping it

    @_exclusive(write=False)
    def spaces(self, memory_id: str) -> list[str]:
        """The spaces that exist for a memory, sorted."""
        prefix = f"m{memory_key(memory_id)}_"
        return sorted(n[len(prefix) :] for n in self._collection_names() if n.startswith(prefix))

    def close(self) -> None:
        """Let go of the Chroma client; the store stays usable (its next call connects again).

        Embedded, the client's system for the directory (its threads, its SQLite connection,
        the index in memory) is stopped once no other client of this process uses it. A system
        another process has written since this one last looked is only forgotten, as
        ``_reopen`` does, never stopped: stopping may persist its outdated index over the
        current one. A server's client closes its connections.
        """
        with self._lock:
            client, self._client = self._client, None
        if client is None:
            return
        if self._process_lock is None:
            client.close()
            return
        from chromadb.api.shared_system_client import SharedSystemClient  # noqa: PLC0415 - loaded: a client exists

        identifier = getattr(client, "_identifier", None) or str(self.path)
        registered = SharedSystemClient._identifier_to_system.get(identifier)
        if registered is None or registered is not getattr(getattr(client, "_server", None), "_system", None):
            return  # already forgotten (a reopen); what replaced it belongs to other clients
        if not self.path.is_dir():  # its files are gone: nothing to keep current (and no lock file to make again)
            client.close()
            return
        with self._process_lock:
            if self._read_generation() != self._generation:
                self._forget_system(identifier)
            else:
                client.close()

    # ------------------------------------------------------------------------------ internals

    def _generation_file(self) -> Path:
        assert self.path is not None
        return self.path.with_name(self.path.name + ".generation")

    def _read_generation(self) -> str:
        try:
            return self._generation_file().read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""

    def _refresh(self) -> None:
        """Under the process lock: reopen Chroma if another process wrote since we last looked."""
        current = self._read_generation()
        if self._client is not None and current != self._generation:
            self._reopen()
        if self._client is None and _SYSTEM_GENERATION.get(str(self.path)) != current:
            self._forget_system(str(self.path))
        self._generation = _SYSTEM_GENERATION[str(self.path)] = current

    def _bump(self) -> None:
        """Under the process lock, after a write: a new token tells other processes to reopen."""
        token = f"{os.getpid()}-{uuid.uuid4().hex}"
        target = self._generation_file()
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f"{target.name}.{token}.tmp")
        tmp.write_text(token, encoding="utf-8")
        os.replace(tmp, target)
        self._generation = _SYSTEM_GENERATION[str(self.path)] = token

    def _reopen(self) -> None:
        """Forget this process's Chroma system for the directory, so the next call loads it
        from disk. The stale system is not stopped: stopping may persist its outdated index
        over the current one."""
        with self._lock:
            old, self._client = self._client, None
        self._forget_system(getattr(old, "_identifier", None) or str(self.path))

    @staticmethod
    def _forget_system(identifier: str) -> None:
        from chromadb.api.shared_system_client import SharedSystemClient  # noqa: PLC0415 - heavy: opened on first vector use

        SharedSystemClient._identifier_to_system.pop(identifier, None)
        SharedSystemClient._identifier_to_refcount.pop(identifier, None)

    @property
    def client(self) -> ClientAPI:
        """The Chroma client, created on first use (thread-safe)."""
        with self._lock:
            if self._client is None:
                self._client = self._connect()
            return self._client

    def _connect(self) -> ClientAPI:
        import chromadb  # noqa: PLC0415 - heavy: opened on first vector use
        from chromadb.config import Settings  # noqa: PLC0415 - heavy: opened on first vector use

        if self.url is not None:
            parsed = urlparse(self.url)
            ssl = parsed.scheme == "https"
            return chromadb.HttpClient(
                host=parsed.hostname,
                port=parsed.port or (443 if ssl else 8000),
                ssl=ssl,
                settings=Settings(anonymized_telemetry=False),
            )
        self.path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(
            path=str(self.path), settings=Settings(anonymized_telemetry=False, allow_reset=False)
        )

    @staticmethod
    def _name(memory_id: str, space: str) -> str:
        return f"m{memory_key(memory_id)}_{check_space(space)}"

    def _collection(
        self, memory_id: str, space: str, create_dim: int | None = None
    ) -> Collection | None:
        """Open the collection of (memory_id, space); create it only when ``create_dim`` is set.

        Returns None for a missing collection that is not to be created. Raises
        ``RuntimeError`` if the collection belongs to another memory id (hash collision).
        """
        from chromadb.errors import NotFoundError  # noqa: PLC0415 - heavy: opened on first vector use

        name = self._name(memory_id, space)
        try:
            col = self.client.get_collection(name, embedding_function=None)
        except NotFoundError:
            if create_dim is None:
                return None
            # get_or_create: another process may create it between our get and this call;
            # an existing collection keeps its own metadata, which we check below.
            col = self.client.get_or_create_collection(
                name,
                embedding_function=None,
                configuration={"hnsw": {"space": "cosine"}},
                metadata={"memory_id": memory_id, "space": space, "dim": int(create_dim)},
            )
        owner = (col.metadata or {}).get("memory_id")
        if owner != memory_id:
            raise RuntimeError(
                f"Chroma collection {name!r} belongs to another memory id; refusing to mix tenants"
            )
        return col

    def _collection_names(self) -> list[str]:
        # Chroma 1.x returns Collection objects, 0.5 returned names; accept both.
        return [getattr(c, "name", c) for c in self.client.list_collections()]

    def _delete_collection(self, name: str) -> None:
        from chromadb.errors import NotFoundError  # noqa: PLC0415 - heavy: opened on first vector use

        try:
            self.client.delete_collection(name)
        except NotFoundError:  # someone else deleted it first: the goal is reached
            pass

    def _batch_size(self) -> int:
        if self.max_batch_size is not None:
            return max(1, int(self.max_batch_size))
        getter = getattr(self.client, "get_max_batch_size", None)
        try:
            return max(1, int(getter())) if getter else DEFAULT_MAX_BATCH
        except Exception:  # an old server without the endpoint
            return DEFAULT_MAX_BATCH


# ---------------------------------------------------------------------------------- helpers


def _collection_dim(col: Collection) -> int | None:
    dim = (col.metadata or {}).get("dim")
    return int(dim) if dim is not None else None


def _check_ids(ids: Sequence[str]) -> list[str]:
    if isinstance(ids, str):  # a lone string would be split into characters
        raise ValueError("ids must be a sequence of strings, not a string")
    ids = list(ids)
    for i in ids:
        if not isinstance(i, str) or not i:
            raise ValueError(f"ids must be non-empty strings, got {i!r}")
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        dups = sorted({i for i in ids if i in seen or seen.add(i)})
        raise ValueError(f"duplicate ids: {dups[:5]}")
    return ids


def _as_matrix(vectors, space: str) -> np.ndarray:
    """Vectors as a finite, non-zero float32 matrix of shape (n, dim).

    Zero vectors are rejected because their cosine similarity is undefined (Chroma would
    silently score them 0 against everything).
    """
    try:
        matrix = np.asarray(vectors, dtype=np.float32)
    except (ValueError, TypeError):
        raise ValueError(f"vectors for space {space!r} must all have the same dimension") from None
    if matrix.ndim == 1 and matrix.size == 0:
        return matrix.reshape(0, 0)
    if matrix.ndim != 2 or matrix.shape[1] == 0:
        raise ValueError(
            f"vectors for space {space!r} must be a 2-D array, got shape {matrix.shape}"
        )
    if not np.isfinite(matrix).all():
        raise ValueError(f"vectors for space {space!r} contain NaN or infinity")
    if matrix.shape[0] and not np.linalg.norm(matrix, axis=1).all():
        raise ValueError(f"vectors for space {space!r} include a zero vector (no direction)")
    return matrix


def _clean_metadata(meta: dict | None) -> dict | None:
    """Drop None values; keep str/int/float/bool; reject the rest with the key named.

    Returns None for an empty result, because Chroma rejects empty metadata dicts.
    """
    if meta is None:
        return None
    if not isinstance(meta, dict):
        raise ValueError(f"metadata must be a dict, got {type(meta).__name__}")
    out: dict[str, str | int | float | bool] = {}
    for key, value in meta.items():
        if not isinstance(key, str) or not key:
            raise ValueError(f"metadata keys must be non-empty strings, got {key!r}")
        if value is None:
            continue
        if isinstance(value, np.generic):  # numpy scalars from computed scores
            value = value.item()
        if not isinstance(value, (str, int, float, bool)):
            raise ValueError(
                f"metadata {key!r} must be str, int, float or bool, got {type(value).__name__}"
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"metadata {key!r} is not a finite number: {value}")
        out[key] = value
    return out or None
