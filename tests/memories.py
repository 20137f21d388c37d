"""A memory ingested for a test module: the body its fixtures share."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from adamm.graphs.ingest import graph as ingest
from adamm.nodes.backends import reset_backends
from adamm.nodes.context import Context


def ingested(rounds: Sequence[dict[str, Any]], memory_id: str = "m", **settings: Any) -> Iterator[Context]:
    """Ingest ``rounds`` into ``memory_id`` under a context of ``settings`` and yield it; backends
    are reset before and after, so no store outlives the fixture. ``yield from`` it in a fixture."""
    reset_backends()
    context = Context(**settings)
    ingest.invoke({"memory_id": memory_id, "rounds": list(rounds)}, context=context)
    yield context
    reset_backends()
