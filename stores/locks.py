"""One writer per memory at a time, across processes.

Deriving a memory is sequential by nature: attribute-set counts are read, changed and written
back, schemas are discovered against the counts so far, and every new event joins *the* open
episode. Two processes deriving the same memory at once would lose count updates or both grow
the same episode. So every step that writes a memory runs under that memory's lock:

* with the embedded SQLite file, a lock file per memory in the data directory (``filelock``:
  ``flock`` on POSIX, released by the kernel when the holder dies - a SIGKILLed ingestion never
  leaves a stale lock);
* with PostgreSQL, a session advisory lock keyed by the memory, so processes on different
  machines sharing the database also take turns (also released when the connection dies).

Different memories never wait for each other. The lock is reentrant within a thread.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock

from adamm.stores.sql import SqlStore, memory_key

#: How long a writer waits for another one before giving up (a stuck peer, not a slow one).
LOCK_TIMEOUT_S = 1800.0

_held = threading.local()


def _advisory_key(memory_id: str) -> int:
    """A signed 64-bit key for ``pg_advisory_lock`` (namespaced, so other apps' keys differ)."""
    digest = hashlib.sha256(f"adamm-memory:{memory_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@contextmanager
def memory_lock(sql: SqlStore, home: str | Path, memory_id: str, timeout: float = LOCK_TIMEOUT_S) -> Iterator[None]:
    """Hold the write lock of one memory for the duration of the block."""
    token = (sql.url, memory_id)
    depth: dict[tuple[str, str], int] = getattr(_held, "depth", None) or {}
    _held.depth = depth
    if depth.get(token):
        depth[token] += 1
        try:
            yield
        finally:
            depth[token] -= 1
        return
    if sql.engine.dialect.name == "postgresql":
        with _advisory(sql, memory_id, timeout):
            depth[token] = 1
            try:
                yield
            finally:
                depth.pop(token, None)
        return
    directory = Path(home).expanduser() / "locks"
    directory.mkdir(parents=True, exist_ok=True)
    with FileLock(str(directory / f"{memory_key(memory_id)}.lock"), timeout=timeout):
        depth[token] = 1
        try:
            yield
        finally:
            depth.pop(token, None)


@contextmanager
def _advisory(sql: SqlStore, memory_id: str, timeout: float) -> Iterator[None]:
    from sqlalchemy import text  # noqa: PLC0415 - PostgreSQL advisory locks only

    key = _advisory_key(memory_id)
    with sql.engine.connect() as conn:
        conn.exec_driver_sql(f"SET LOCAL lock_timeout = {int(timeout * 1000)}")  # this wait only, not the pooled connection
        conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": key})
        conn.commit()  # a session lock: held past the commit, until unlocked or the connection dies
        try:
            yield
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
            conn.commit()
