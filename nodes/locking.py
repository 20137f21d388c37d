"""Ingestion steps run under their memory's write lock (see ``adamm.stores.locks``).

The ingest graph wraps each of its nodes with ``locked``: a step of one process never
interleaves with a step of another process on the same memory, and steps on different memories
run side by side. ``pending`` is re-read under the lock, so a step never re-derives rounds that
another process finished while this one waited.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from langgraph.runtime import Runtime

from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.stores.locks import memory_lock


@contextmanager
def lock_memory(ctx: Context, memory_id: str) -> Iterator[None]:
    """Hold ``memory_id``'s write lock for the storage ``ctx`` points at."""
    with memory_lock(backends(ctx).sql, ctx.home_path, memory_id):
        yield


def locked(node: Callable[[Any, Runtime[Context]], dict[str, Any]]) -> Callable[[Any, Runtime[Context]], dict[str, Any]]:
    """``node`` run under the memory's lock (the memory id is checked by the node itself)."""

    @functools.wraps(node)
    def run(state: Any, runtime: Runtime[Context]) -> dict[str, Any]:
        memory_id = state.get("memory_id")
        if not isinstance(memory_id, str) or not memory_id.strip():
            return node(state, runtime)  # the node rejects it with its own message
        ctx = Context.coerce(runtime)
        with lock_memory(ctx, memory_id):
            pending = state.get("pending")
            if pending:
                still = set(backends(ctx).sql.pending_round_ids(memory_id, pending))
                state = {**state, "pending": [rid for rid in pending if rid in still]}
            return node(state, runtime)

    return run
