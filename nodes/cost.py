"""The cost ledger: what each model call and each node cost, as plain data.

Graphs keep a list of entries in their state (with an ``operator.add`` reducer), and LangGraph's
server serializes state, so an entry must survive a JSON round trip: ``CostEntry.to_dict`` /
``CostEntry.from_dict`` and ``summarize`` accepting either form. No LangChain here, so the
ledger can be read (and summarized) by anything, including code that never calls a model.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields
from typing import Any

@dataclass
class CostEntry:
    """One model call (with its retries), or one node's wall time (``role is None``)."""

    node: str
    """Graph node name, e.g. ``"extract"``."""
    role: str | None
    """Model role (``"extractor"``, ...), or None for a pure wall-time entry."""
    model: str | None
    """``"provider:model"`` (or a registered model's name), None for a wall-time entry."""
    calls: int = 0
    """Model requests made, every retry included."""
    tokens_in: int = 0
    """Input tokens as reported by the provider (0 when it reports none: never estimated)."""
    tokens_out: int = 0
    seconds: float = 0.0
    rounds_read: int = 0
    """Raw rounds whose text a query node read (progressive disclosure: the fewer, the better)."""
    fallbacks: int = 0
    """1 when the model gave nothing usable (server down, output invalid after retries) and the
    node went on with its offline (``rules``) implementation instead."""

    @property
    def is_wall_time(self) -> bool:
        return self.role is None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CostEntry:
        """Rebuild an entry from ``to_dict`` output; unknown keys are ignored (newer writers)."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})

    @classmethod
    def coerce(cls, value: CostEntry | dict[str, Any]) -> CostEntry:
        return value if isinstance(value, cls) else cls.from_dict(value)


@contextmanager
def timed(node: str) -> Iterator[CostEntry]:
    """Measure a node's wall time: ``with timed("extract") as entry: ...``.

    ``entry.seconds`` is filled on exit, also when the body raises, so a failing node still
    shows what it cost.
    """
    entry = CostEntry(node=node, role=None, model=None)
    start = time.perf_counter()
    try:
        yield entry
    finally:
        entry.seconds = time.perf_counter() - start


def _zero() -> dict[str, Any]:
    return {"calls": 0, "tokens_in": 0, "tokens_out": 0, "seconds": 0.0, "model_seconds": 0.0, "rounds_read": 0,
            "fallbacks": 0}


def summarize(entries: Iterable[CostEntry | dict[str, Any]]) -> dict[str, Any]:
    """Totals, per node and per role.

    Returns ``{"calls", "tokens_in", "tokens_out", "seconds", "model_seconds", "by_node":
    {node: {...}}, "by_role": {role: {...}}}``, each inner dict with the same five keys.

    ``seconds`` is wall time. A node's model calls run inside its timed span, so when a node
    has wall-time entries its model time is already in them and is not added a second time;
    for a node that was never timed, its model time is the best wall time we have.
    ``model_seconds`` is always the time spent waiting on models alone. ``by_role`` holds model
    entries only, so there both are the model time.
    """
    items = [CostEntry.coerce(e) for e in entries]
    timed_nodes = {e.node for e in items if e.is_wall_time}
    total: dict[str, Any] = _zero()
    by_node: dict[str, dict[str, Any]] = {}
    by_role: dict[str, dict[str, Any]] = {}
    for e in items:
        model = 0.0 if e.is_wall_time else e.seconds
        wall = e.seconds if e.is_wall_time or e.node not in timed_nodes else 0.0
        _add(total, e, wall, model)
        _add(by_node.setdefault(e.node, _zero()), e, wall, model)
        if not e.is_wall_time:
            _add(by_role.setdefault(e.role, _zero()), e, model, model)
    total["by_node"] = by_node
    total["by_role"] = by_role
    return total


def _add(group: dict[str, Any], e: CostEntry, wall: float, model: float) -> None:
    group["calls"] += e.calls
    group["tokens_in"] += e.tokens_in
    group["tokens_out"] += e.tokens_out
    group["seconds"] += wall
    group["model_seconds"] += model
    group["rounds_read"] += e.rounds_read
    group["fallbacks"] += e.fallbacks
