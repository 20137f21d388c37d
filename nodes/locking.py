"""Ingestion steps run under their memory's write lock (see ``adamm.stores.locks``), each
committed once.

The ingest graph wraps each of its nodes with ``locked``: a step of one process never
interleaves with a step of another process on the same memory, and steps on different memories
run side by side. ``pending`` is re-read under the lock, so a step never re-derives rounds that
another process finished while this one waited.

A resumed ingest must end exactly where an uninterrupted one ends, wherever the first run was
killed. Each step derives from state accumulated over the whole history - the known attributes a
round is canonicalized against, the supports schemas are discovered with, the open episode an
event joins - so a step run again over its own committed output, or over part of it, derives
differently (issue 30: a resumed run grew extra columns and lost rows). So every deriving step
is one commit (``committed``):

* all its SQL writes - attributes, observations, counts, schemas, tables (DDL included), rows,
  descriptions, hierarchy nodes, units - are one transaction, which also records that the step
  is done for its rounds (``RoundRecord.stage``; ``derived`` after the last step). A crash inside
  leaves the state before the step; a crash after leaves the step done, and ``pending`` no
  longer lists its rounds for it;
* its vector writes (Chroma has no transactions) are collected, journaled in that transaction
  and made after it. A crash before they are all made leaves the journal, and the next step on
  the memory makes them first - the same writes, so making one twice is harmless.

The analytic steps (``STAGES``) are wrapped here; the hierarchy and the round index commit the
same way inside their nodes (the hierarchy first repairs what an older version left behind).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from langgraph.runtime import Runtime

from adamm.nodes.backends import Backends, backends
from adamm.nodes.context import Context
from adamm.nodes.state import STAGES  # re-exported: the hierarchy imports it from here
from adamm.stores import crash
from adamm.stores.locks import memory_lock

#: The steps ``locked`` commits in one transaction with their stage (the others do it themselves).
WRAPPED = ("extract_attributes", "induce_tables")


@contextmanager
def lock_memory(ctx: Context, memory_id: str) -> Iterator[None]:
    """Hold ``memory_id``'s write lock for the storage ``ctx`` points at."""
    with memory_lock(backends(ctx).sql, ctx.home_path, memory_id):
        yield


@contextmanager
def committed(b: Backends, memory_id: str) -> Iterator[None]:
    """The block's SQL writes in one transaction and its vector writes made once it committed
    (journaled in it, so a crash in between loses none). Under the memory's lock."""
    make_journaled(b, memory_id)  # what a killed run committed but did not make comes first
    with b.sql.atomic():
        with b.vectors.deferred() as writes:
            yield
        b.sql.add_vector_writes(memory_id, writes)
    if writes:
        b.vectors.apply(writes)
        b.sql.clear_vector_writes(memory_id)


def make_journaled(b: Backends, memory_id: str) -> None:
    """Make the journaled vector writes of a memory (left by a run killed after its commit)."""
    entries = b.sql.vector_writes(memory_id)
    if entries:
        b.vectors.apply([w for _, w in entries])
        b.sql.clear_vector_writes(memory_id, upto=entries[-1][0])


def locked(node: Callable[[Any, Runtime[Context]], dict[str, Any]]) -> Callable[[Any, Runtime[Context]], dict[str, Any]]:
    """``node`` run under the memory's lock (the memory id is checked by the node itself)."""
    name = node.__name__
    stage = STAGES.get(name)

    @functools.wraps(node)
    def run(state: Any, runtime: Runtime[Context]) -> dict[str, Any]:
        memory_id = state.get("memory_id")
        if not isinstance(memory_id, str) or not memory_id.strip():
            return node(state, runtime)  # the node rejects it with its own message
        ctx = Context.coerce(runtime)
        with crash.step(name), lock_memory(ctx, memory_id):
            b = backends(ctx)
            pending = state.get("pending")
            if pending:
                still = set(b.sql.pending_round_ids(memory_id, pending, before_stage=stage))
                state = {**state, "pending": [rid for rid in pending if rid in still]}
            if name not in WRAPPED:
                return node(state, runtime)
            with committed(b, memory_id):
                out = node(state, runtime)
                b.sql.set_stage(memory_id, state.get("pending") or [], stage or 0)
            return out

    return run
