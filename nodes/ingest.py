"""Ingestion nodes: accept and store raw rounds, then derive what the memory is built from.

The order matters for durability: ``store_rounds`` commits every accepted round before anything
is derived from it, and a round is flagged ``derived`` only once its derived structures are
written. A run that dies in between leaves rounds flagged pending, and the next run (of any
input) picks them up - nothing accepted is lost, nothing is done twice: each step between
commits once with its stage (``nodes/locking.py``), and ``index_rounds`` commits the round
units with the ``derived`` flag.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from pydantic import ValidationError

from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.cost import timed
from adamm.nodes.inputs import InputError, check_memory_id  # re-exported: callers import them from here too
from adamm.nodes.locking import committed
from adamm.nodes.models import probe_servers
from adamm.nodes.state import IngestState
from adamm.stores.records import Round
from adamm.stores.units import ROUNDS_SPACE, Unit  # ROUNDS_SPACE re-exported: callers import it from here too


def parse_rounds(raw: Any) -> list[Round]:
    """Validate every round before storing any, so a bad record rejects the whole batch."""
    if not isinstance(raw, list):
        raise InputError("rounds: must be a list of rounds")
    out: list[Round] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        try:
            rnd = item if isinstance(item, Round) else Round.model_validate(item)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "round"
            rid = item.get("round_id") if isinstance(item, dict) else None
            shown = rid if isinstance(rid, str) and rid.isprintable() and len(rid) <= 80 else repr(rid)[:80] if isinstance(rid, str) else None
            label = f"rounds[{i}]" + (f" ({shown})" if shown is not None else "")
            raise InputError(f"{label}: field {where}: {err['msg']}") from None
        if rnd.round_id in seen:
            raise InputError(f"rounds[{i}] ({rnd.round_id}): field round_id: duplicate in this input")
        seen.add(rnd.round_id)
        out.append(rnd)
    return out


def store_rounds(state: IngestState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Step 1 (validate / normalize / store raw): commit accepted rounds before deriving."""
    ctx = Context.coerce(runtime)
    with timed("store_rounds") as cost:
        memory_id = check_memory_id(state.get("memory_id"))
        rounds = parse_rounds(state.get("rounds", []))
        probe_servers(ctx, ("extractor", "describer"))  # an unreachable server fails the run before anything is stored
        sql = backends(ctx).sql
        result = sql.add_rounds(memory_id, rounds)
        pending = sql.pending_round_ids(memory_id)
    return {
        "memory_id": memory_id,
        "pending": pending,
        "stored": {"rounds_added": len(result.added), "rounds_unchanged": len(result.unchanged),
                   "rounds_updated": len(result.updated)},
        "cost": [cost.to_dict()],
    }


def index_rounds(state: IngestState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Make pending rounds retrievable: one text unit per round, embedded and keyword-indexed."""
    ctx = Context.coerce(runtime)
    with timed("index_rounds") as cost:
        memory_id = state["memory_id"]
        pending = state.get("pending") or []
        b = backends(ctx)
        rounds = b.sql.get_rounds(memory_id, pending) if pending else []
        n = 0
        if rounds:
            with committed(b, memory_id):  # units, vectors and the derived mark: all or none
                if ctx.use_retrieval:  # the no-retrieval ablation keeps rounds out of the vector index
                    n = b.units.add(memory_id, ROUNDS_SPACE, [round_unit(r) for r in rounds])
                b.sql.mark_derived(memory_id, [r.round_id for r in rounds])
    return {"stored": {"units_indexed": n}, "cost": [cost.to_dict()]}


def round_unit(rnd: Round) -> Unit:
    """A round as a retrievable unit: its dialogue and captions, with where it sits in time."""
    meta: dict[str, Any] = {
        "round_id": rnd.round_id,
        "session_id": rnd.session_id,
        "order": rnd.order if rnd.order is not None else -1,
        "image_ids": ",".join(im.image_id for im in rnd.images),
    }
    if rnd.timestamp is not None:
        meta["time"] = rnd.timestamp.isoformat()
    return Unit(rnd.round_id, rnd.text, meta)
