"""Graph state schemas: narrow public inputs and outputs, private working keys in between.

The input and output schemas are what LangGraph Studio shows as forms and what a host graph
shares keys with, so they hold only the documented public keys. List fields that several nodes
append to (the cost ledger) carry explicit reducers.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

from typing_extensions import NotRequired, TypedDict


def merge_counts(left: dict[str, int] | None, right: dict[str, int] | None) -> dict[str, int]:
    """Reducer: counts reported by several nodes add up key by key."""
    out = dict(left or {})
    for key, value in (right or {}).items():
        out[key] = out.get(key, 0) + value
    return out


# -- ingest -------------------------------------------------------------------------------

#: The stage (``RoundRecord.stage``) each ingest step reaches; ``pending`` of a step lists only
#: rounds below its stage. ``index_rounds`` ends derivation by marking rounds ``derived``.
#: (Here, not in ``nodes/locking.py`` which commits them, so that ``adamm explain`` reads
#: a round's progress without importing the graph stack.)
STAGES = {"extract_attributes": 1, "induce_tables": 2, "insert_hierarchy": 3}


class IngestInput(TypedDict):
    """Rounds to remember for one memory (a user, a tenant)."""

    memory_id: str
    rounds: list[dict[str, Any]]
    """Rounds in the documented JSONL round format (see README, "Round format")."""


class IngestOutput(TypedDict):
    """What one ingestion stored and derived (the stable public output of ``ingest``)."""

    memory_id: str
    stored: Annotated[dict[str, int], merge_counts]
    """What was stored and derived: rounds_added, rounds_unchanged, rounds_updated, units_indexed ..."""
    cost: Annotated[list[dict[str, Any]], operator.add]
    """Cost ledger entries (model calls, tokens, wall time per node)."""


class IngestState(IngestInput, IngestOutput):
    pending: NotRequired[list[str]]
    """Round ids whose derived structures still have to be built (new, updated, or left over
    by an interrupted earlier run)."""


# -- query --------------------------------------------------------------------------------


class QueryInput(TypedDict):
    """A question about one memory."""

    memory_id: str
    question: str
    now: NotRequired[str]
    """ISO time that relative dates ("last week") are resolved against; default: newest memory time."""
    image: NotRequired[dict[str, Any]]
    """An image asked about: {"path" | "url" | "data": ..., "caption"?: ...}."""


class QueryOutput(TypedDict):
    """A cited answer (the stable public output of ``query``; ``plan``, ``calls`` and ``notes``
    are present when the planner ran)."""

    answer: str
    citations: list[dict[str, Any]]
    """Sources of the answer: {"round_id": ..., "image_ids": [...]}."""
    evidence: list[dict[str, Any]]
    """Every unit put in front of the answerer, each with ``unit_id``, ``kind`` (row, aggregate,
    event, episode, topic, round), ``text``, ``round_ids`` (provenance) and ``image_ids``."""
    cost: Annotated[list[dict[str, Any]], operator.add]
    """Cost ledger: model calls, tokens, wall time and raw rounds read, per node."""
    plan: NotRequired[list[dict[str, Any]]]
    """The executed plan: steps {goal, tool, status, origin} (origin "reflection" for added steps)."""
    calls: NotRequired[Annotated[list[dict[str, Any]], operator.add]]
    """Every tool call in order: step, tool, validated args, ok / error, result summary, evidence ids."""
    notes: NotRequired[dict[str, Any]]
    """Organized notes: facts, timeline, contradictions, counts, answer_hint."""


class QueryState(QueryInput, QueryOutput):
    normalized: NotRequired[dict[str, Any]]
    """The question with resolved periods, ``now`` and sub-questions."""
    planning_context: NotRequired[dict[str, Any]]
    """Top tables and episodes with tool specs (Eq. 8 ranking)."""
    plan_step: NotRequired[int]
    """Index of the next plan step to instantiate."""
    pending: NotRequired[list[dict[str, Any]]]
    """Calls instantiated and not yet executed."""
    steps_run: NotRequired[int]
    reflections: NotRequired[int]
    evidence_at_reflect: NotRequired[int]
    new_evidence: NotRequired[bool]
    verdict: NotRequired[dict[str, Any]]
    draft: NotRequired[dict[str, Any]]
    """The rules answer composed by the notes step ({answer, cited}): the answer hint, the
    rules answerer's answer, and the fallback when a model answerer fails."""


class ForgetInput(TypedDict):
    """Rounds to remove from one memory, with everything derived from them: exactly one of
    ``round_ids``, ``session_id`` or ``everything: true``."""

    memory_id: str
    round_ids: NotRequired[list[str]]
    session_id: NotRequired[str]
    everything: NotRequired[bool]


class ForgetOutput(TypedDict):
    """What was removed, per kind (``adamm.nodes.forget.ForgetReport``)."""

    memory_id: str
    forgotten: dict[str, Any]


class ForgetState(ForgetInput, ForgetOutput):
    pass
