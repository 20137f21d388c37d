"""Retrieval tools over the hierarchy: SemanticMatch, EventLocate, and drill-down.

Scoring is hybrid (APDMem appendix G): a dense ranking - text similarity fused with visual
similarity by Eq. 13 where the node has images (the query reaches image vectors through the
image encoder's text branch) - and a BM25 ranking, combined by Reciprocal Rank Fusion.
``retrieval_mode`` selects dense or BM25 alone for ablations.

EventLocate ranks events the same way and returns each with the rounds around it (``window``),
read from SQL. The hierarchy is used for scoping and drill-down, not as a score: on the
Mem-Gallery split (recall@10, 1,016 questions, hybrid 82.6) every way of letting episodes into
event scores that was measured gained at most a point overall and lost on some question type -
the episode ranking as a third RRF list (0.818 -> 0.741 on Baking, near-singleton episodes),
0.2 of the episode centroid's similarity mixed into the dense score (82.7; TR 78.7 -> 76.9),
neighbour or window smoothing, episode-description keywords in BM25, pseudo-relevance feedback.

Progressive disclosure: ``children`` opens a topic into episodes and an episode into events;
``raw_rounds`` reads the rounds themselves - the only call that touches raw text, so the query
side can count it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

import numpy as np

from adamm.nodes.backends import Backends, backends
from adamm.nodes.context import Context
from adamm.nodes.hierarchy import EPISODES, EVENTS, SPACE_OF_LEVEL, text_space, visual_space
from adamm.stores.fusion import late_fusion, rrf
from adamm.stores.records import Round

Scope = Literal["topic", "episode", "event"]

#: Candidates each ranking contributes before fusion.
POOL = 50
#: Round ids an episode or topic unit carries (its first ones, in history order).
MAX_UNIT_ROUNDS = 100


@dataclass
class RetrievedUnit:
    """One retrieved node, ready to be shown to a planner or answerer."""

    node_id: str
    level: str
    score: float
    text: str
    start: str | None = None
    end: str | None = None
    first_order: int | None = None
    last_order: int | None = None
    round_ids: list[str] = field(default_factory=list)
    """The event's round; for an episode or topic its first ``MAX_UNIT_ROUNDS`` rounds in history order."""
    image_ids: list[str] = field(default_factory=list)
    context: list[dict[str, Any]] = field(default_factory=list)
    """EventLocate only: the surrounding rounds (round_id, order, time, text)."""

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


def semantic_match(ctx: Context | Any, memory_id: str, query: str, scope: Scope = "event", result_budget: int = 10, *,
                   time_range: tuple[datetime | None, datetime | None] | None = None, within: str | None = None,
                   mode: str | None = None) -> list[RetrievedUnit]:
    """SemanticMatch(query_content, retrieval_scope, result_budget), optionally narrowed by a
    time range and to the descendants of one topic or episode."""
    ctx = Context.coerce(ctx)
    _check(scope, result_budget)
    b = backends(ctx)
    allowed = _allowed(b, memory_id, scope, time_range, within)
    ranked = _rank(ctx, b, memory_id, scope, query, allowed, mode or ctx.retrieval_mode)
    return _units(b, memory_id, scope, ranked[:result_budget])


def event_locate(ctx: Context | Any, memory_id: str, query: str, result_budget: int = 10, window: int = 1, *,
                 time_range: tuple[datetime | None, datetime | None] | None = None, within: str | None = None,
                 mode: str | None = None) -> list[RetrievedUnit]:
    """EventLocate(query_content, result_budget, window): events with their surrounding rounds."""
    ctx = Context.coerce(ctx)
    _check("event", result_budget)
    if window < 0 or window > 20:
        raise ValueError("window: must be between 0 and 20")
    b = backends(ctx)
    allowed = _allowed(b, memory_id, "event", time_range, within)
    ranked = _rank(ctx, b, memory_id, "event", query, allowed, mode or ctx.retrieval_mode)
    units = _units(b, memory_id, "event", ranked[:result_budget])
    for unit in units:
        unit.context = _around(b, memory_id, unit, window)
    return units


def children(ctx: Context | Any, memory_id: str, node_id: str) -> list[RetrievedUnit]:
    """Drill down one level: a topic's episodes, an episode's events (in time order)."""
    b = backends(Context.coerce(ctx))
    kids = b.sql.nodes(memory_id, parent_id=node_id)
    return [_unit(n, 0.0) for n in kids]


def raw_rounds(ctx: Context | Any, memory_id: str, round_ids: list[str]) -> list[Round]:
    """The bottom of the drill-down: the rounds themselves."""
    return backends(Context.coerce(ctx)).sql.get_rounds(memory_id, round_ids)


# -- ranking -------------------------------------------------------------------------------------


def _check(scope: str, budget: int) -> None:
    if scope not in SPACE_OF_LEVEL:
        raise ValueError(f"retrieval_scope: must be topic, episode or event, got {scope!r}")
    if not isinstance(budget, int) or not 1 <= budget <= 100:
        raise ValueError("result_budget: must be an integer between 1 and 100")


def _rank(ctx: Context, b: Backends, memory_id: str, scope: str, query: str, allowed: set[str] | None, mode: str) -> list[tuple[str, float]]:
    space = SPACE_OF_LEVEL[scope]
    keyword = [] if mode == "dense" else [
        (u.unit_id, u.score) for u in b.units.search(memory_id, space, query, POOL, mode="bm25", allowed=allowed)]
    if mode == "bm25":
        return keyword
    dense = _dense(ctx, b, memory_id, space, query, allowed)
    if mode == "dense":
        return dense
    return rrf([[i for i, _ in dense], [i for i, _ in keyword]], k=ctx.rrf_k)


def _dense(ctx: Context, b: Backends, memory_id: str, space: str, query: str, allowed: set[str] | None) -> list[tuple[str, float]]:
    """Text similarity, fused with visual similarity (Eq. 13) where the node has images."""
    qv = b.text_encoder.encode_one(query)
    n = b.vectors.count(memory_id, text_space(space)) if allowed is not None else POOL * 2
    hits = [h for h in b.vectors.query(memory_id, text_space(space), qv, n) if allowed is None or h.id in allowed]
    text = {h.id: h.score for h in hits}
    visual: dict[str, float] = {}
    if b.image_encoder is not None and b.vectors.count(memory_id, visual_space(space)):
        vq = b.image_encoder.encode_texts([query])[0]
        stored = b.vectors.get(memory_id, visual_space(space), list(text))
        visual = {i: float(np.dot(v, vq)) for i, v in stored.items()}
    scored = [(i, late_fusion(t, visual.get(i), ctx.weight_text, ctx.weight_visual)) for i, t in text.items()]
    return sorted(scored, key=lambda x: (-x[1], x[0]))[:POOL]


def _allowed(b: Backends, memory_id: str, scope: str, time_range: tuple[datetime | None, datetime | None] | None,
             within: str | None) -> set[str] | None:
    """Node ids a narrowed search may return, or None for no narrowing."""
    if time_range is None and within is None:
        return None
    nodes = b.sql.nodes(memory_id, scope)
    if within is not None:
        parents = {within}
        if scope == "event" and within.startswith("tp:"):
            parents = {n.node_id for n in b.sql.nodes(memory_id, "episode", parent_id=within)}
        nodes = [n for n in nodes if n.parent_id in parents]
    if time_range is not None:
        lo, hi = time_range
        nodes = [n for n in nodes if (hi is None or (n.start_time or datetime.min) <= hi) and (lo is None or (n.end_time or datetime.max) >= lo)]
    return {n.node_id for n in nodes}


# -- shaping results --------------------------------------------------------------------------


def _units(b: Backends, memory_id: str, scope: str, ranked: list[tuple[str, float]]) -> list[RetrievedUnit]:
    if not ranked:
        return []
    recs = {n.node_id: n for n in b.sql.nodes(memory_id, scope, node_ids=[i for i, _ in ranked])}
    texts = {u.unit_id: u.text for u in b.sql.units(memory_id, SPACE_OF_LEVEL[scope], [i for i, _ in ranked])}
    out = []
    for node_id, score in ranked:
        rec = recs.get(node_id)
        if rec is None:
            continue
        unit = _unit(rec, score, texts.get(node_id))
        if scope != "event":
            unit.round_ids = [e.round_id for e in _events_under(b, memory_id, rec) if e.round_id]
        out.append(unit)
    return out


def _events_under(b: Backends, memory_id: str, rec: Any) -> list[Any]:
    """The first ``MAX_UNIT_ROUNDS`` events under an episode or topic, in history order: a
    topic of a long history holds thousands, which no reader cites and reading cost seconds."""
    if rec.level == "episode":
        return b.sql.nodes(memory_id, "event", parent_id=rec.node_id, limit=MAX_UNIT_ROUNDS)
    episodes = b.sql.nodes(memory_id, "episode", parent_id=rec.node_id)
    return b.sql.nodes(memory_id, "event", parent_ids=[ep.node_id for ep in episodes], limit=MAX_UNIT_ROUNDS) if episodes else []


def _unit(rec: Any, score: float, text: str | None = None) -> RetrievedUnit:
    return RetrievedUnit(
        node_id=rec.node_id, level=rec.level, score=round(float(score), 6), text=text if text is not None else rec.description,
        start=rec.start_time.isoformat() if rec.start_time else None, end=rec.end_time.isoformat() if rec.end_time else None,
        first_order=rec.first_order, last_order=rec.last_order, round_ids=[rec.round_id] if rec.round_id else [],
        image_ids=list(rec.image_ids),
    )


def _around(b: Backends, memory_id: str, unit: RetrievedUnit, window: int) -> list[dict[str, Any]]:
    if unit.first_order is None or window == 0:
        return []
    rounds = b.sql.get_rounds(memory_id, order_range=(unit.first_order - window, unit.first_order + window))
    return [{"round_id": r.round_id, "order": r.order, "time": r.timestamp.isoformat() if r.timestamp else None,
             "text": r.text} for r in rounds if r.order != unit.first_order]


__all__ = ["RetrievedUnit", "children", "event_locate", "raw_rounds", "semantic_match", "EVENTS", "EPISODES"]
