"""Retrieval tools over the hierarchy: SemanticMatch, EventLocate, and drill-down.

Scoring is hybrid (APDMem appendix G): a dense ranking - text similarity fused with visual
similarity by Eq. 13 where the node has images (the query reaches image vectors through the
image encoder's text branch) - and a BM25 ranking, combined by Reciprocal Rank Fusion.
``retrieval_mode`` selects dense or BM25 alone for ablations.

EventLocate ranks events (rounds) in three steps; each was kept because recall@10 on the
Mem-Gallery split (``benchmarks/bench_recall.py`` measures it) fell without it, and
EventLocate beats flat hybrid RRF over the same rounds.

1. *Own relevance*: RRF of the dense ranking - the whole round and, at half weight, its best
   part (the user's words or one image caption, ``PARTS_SPACE``), so a question about one
   photo is not diluted by the dialogue around it -, BM25, and for a query that carries an
   image, its caption against stored captions. Answer-format instructions ("Return in the
   format YYYY-MM-DD.") are dropped from the query first.
2. *Conversation context* (``context_boost``): each event gains ``context_weight`` times the
   best own score in its conversation, and every round of the ``CONTEXT_GROUPS`` best
   conversations is scored, matched or not. Evidence clusters - knowing the right
   conversation would lift flat hybrid well above either - and follow-ups ("here's another
   photo of it") share no words with the question. The hierarchy's episodes, which split a
   conversation further, did worse as the context, as did every softer use of them tried
   before (episode centroid in the dense score, episode ranking as a third RRF list,
   neighbour smoothing) - but for rounds logged without a session id, their episode is the
   context (better than no context, when the split's session ids are withheld).
3. *Sequence questions* ("did A happen before B?") are also located side by side and the
   three rankings fused, so the second event's conversation is not crowded out.

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
from adamm.nodes.hierarchy import EPISODES, EVENTS, PARTS_SPACE, SPACE_OF_LEVEL, visual_space
from adamm.stores.fusion import context_boost, late_fusion, part_similarity, rrf
from adamm.stores.querytext import IMAGE_MARK, sequence_sides, split_image_caption, strip_answer_format
from adamm.stores.records import DEFAULT_SESSION, Round
from adamm.stores.units import text_space

Scope = Literal["topic", "episode", "event"]

#: Candidates each ranking contributes before fusion.
POOL = 50
#: Round ids an episode or topic unit carries (its first ones, in history order).
MAX_UNIT_ROUNDS = 100
#: Conversations whose every round EventLocate scores: the best-matching ones by own score.
CONTEXT_GROUPS = 5
#: Rounds of one conversation scored at most (those nearest its best match).
MAX_GROUP_ROUNDS = 200
#: A scope (time range, episode) of at most this many events is scored whole.
DIRECT_SCORE_LIMIT = 1000
#: RRF constant fusing a sequence question's whole ranking with its two sides' rankings.
SIDES_RRF_K = 10
EVENT_PREFIX = "ev:"


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
    _add_context(b, memory_id, units, window)
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
    if scope == "event":
        return _rank_events(ctx, b, memory_id, query, allowed, mode)
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


# -- events: own relevance, raised by the conversation's --------------------------------------


def _rank_events(ctx: Context, b: Backends, memory_id: str, query: str, allowed: set[str] | None,
                 mode: str) -> list[tuple[str, float]]:
    """Events for a query: answer-format instructions dropped, the query image's caption
    matched against stored captions, and a "did A before B" question located side by side
    (the whole question's ranking and each side's, fused by RRF)."""
    text, caption = split_image_caption(query)
    text = strip_answer_format(text)
    whole = _score_events(ctx, b, memory_id, text + (IMAGE_MARK + caption if caption else ""), caption, allowed, mode)
    sides = sequence_sides(text)
    if not sides:
        return whole
    rankings = [whole, *(_score_events(ctx, b, memory_id, side, None, allowed, mode) for side in sides)]
    return rrf([[i for i, _ in r] for r in rankings], k=SIDES_RRF_K)


def _score_events(ctx: Context, b: Backends, memory_id: str, query: str, caption: str | None,
                  allowed: set[str] | None, mode: str) -> list[tuple[str, float]]:
    """Own relevance - RRF of the dense ranking (whole round and its best part, fused with the
    visual similarity where there are images), BM25 and, for a query image, caption-to-caption
    similarity - then each event raised by the best score in its conversation
    (``context_boost``). Candidates are the rankings' pools plus every round of the
    ``CONTEXT_GROUPS`` best conversations, which the pools alone would miss."""
    dense_on, bm25_on = mode in ("hybrid", "dense"), mode in ("hybrid", "bm25")
    qv = b.text_encoder.encode_one(query) if dense_on else None
    cv = b.text_encoder.encode_one(caption) if dense_on and caption else None
    index = b.keywords.get(memory_id, EVENTS) if bm25_on else None
    scored_whole = allowed is not None and len(allowed) <= DIRECT_SCORE_LIMIT
    if scored_whole:
        # a narrow scope (a month, an episode) is scored whole: cheaper than searching the
        # memory for the few of its nearest that fall inside
        prelim = _own_scores(ctx, b, memory_id, sorted(allowed), query, qv, cv, index)
    else:
        pools: list[list[str]] = []
        # a wide scope reads deeper, so about POOL of each ranking still fall inside
        size = len(index if index is not None else b.keywords.get(memory_id, EVENTS))
        depth = POOL if allowed is None else POOL * max(1, -(-size // max(1, len(allowed))))
        if qv is not None:
            pools.append([h.id for h in b.vectors.query(memory_id, text_space(EVENTS), qv, depth)])
            for v in (qv, cv):
                if v is not None:
                    hits = b.vectors.query(memory_id, PARTS_SPACE, v, depth)
                    pools.append(list(dict.fromkeys(h.metadata["event"] for h in hits if h.metadata.get("event"))))
        if index is not None:
            pools.append([i for i, _ in index.search(query, depth)])
        if allowed is not None:
            pools = [[i for i in pool if i in allowed][:POOL] for pool in pools]
        # the pools' own fusion picks the conversations to read whole; scores come after, once
        prelim = dict(rrf(pools, k=ctx.rrf_k))
    if not prelim:
        return []
    group_of, orders = _conversations(b, memory_id, list(prelim))
    events = set(prelim)
    if ctx.context_weight > 0 and not scored_whole:
        best: dict[str, tuple[float, str]] = {}
        for event, score in prelim.items():
            g = group_of.get(event)
            if g is not None and score > best.get(g, (float("-inf"), ""))[0]:
                best[g] = (score, event)
        top = sorted(best, key=lambda g: (-best[g][0], g))[:CONTEXT_GROUPS]
        members = _members(b, memory_id, {g: orders.get(best[g][1], 0) for g in top})
        extra = set(members) - events
        if allowed is not None:
            extra &= allowed
        group_of.update({e: members[e] for e in extra})
        events |= extra
    own = prelim if scored_whole else _own_scores(ctx, b, memory_id, sorted(events), query, qv, cv, index)
    final = context_boost(own, {e: g for e, g in group_of.items() if e in own}, ctx.context_weight)
    return sorted(final.items(), key=lambda kv: (-kv[1], kv[0]))


def _conversations(b: Backends, memory_id: str, events: list[str]) -> tuple[dict[str, str], dict[str, int]]:
    """Each event's conversation - its session (``s:<id>``), or for a round logged without
    one, its episode (``e:<id>``) - and each event's order in the history."""
    rounds = b.sql.round_sessions(memory_id, [e[len(EVENT_PREFIX):] for e in events])
    group_of: dict[str, str] = {}
    lonely: list[str] = []
    for e in events:
        sid = rounds.get(e[len(EVENT_PREFIX):], (None,))[0]
        if sid is not None and sid != DEFAULT_SESSION:  # no conversation logged: the episode stands in
            group_of[e] = f"s:{sid}"
        else:
            lonely.append(e)
    if lonely:
        group_of.update({e: f"e:{p}" for e, p in b.sql.parents(memory_id, lonely).items() if p})
    orders = {EVENT_PREFIX + r: order for r, (_, order) in rounds.items()}
    return group_of, orders


def _members(b: Backends, memory_id: str, anchors: dict[str, int]) -> dict[str, str]:
    """Every event of the given conversations (``group -> order of its best match``), at most
    ``MAX_GROUP_ROUNDS`` of each - a session's nearest its best match, an episode's first - so
    a history logged as one endless session stays cheap."""
    out: dict[str, str] = {}
    sessions = [g[2:] for g in anchors if g.startswith("s:")]
    by_session: dict[str, list[tuple[str, int]]] = {}
    for rid, (sid, order) in (b.sql.round_sessions(memory_id, session_ids=sessions).items() if sessions else ()):
        by_session.setdefault(sid, []).append((rid, order))
    for sid, rounds in by_session.items():
        at = anchors[f"s:{sid}"]
        rounds.sort(key=lambda ro: (abs(ro[1] - at), ro[1]))
        out.update({EVENT_PREFIX + rid: f"s:{sid}" for rid, _ in rounds[:MAX_GROUP_ROUNDS]})
    for g in anchors:
        if g.startswith("e:"):
            out.update({EVENT_PREFIX + rid: g for rid in b.sql.child_rounds(memory_id, [g[2:]], MAX_GROUP_ROUNDS)})
    return out


def _own_scores(ctx: Context, b: Backends, memory_id: str, events: list[str], query: str, qv: np.ndarray | None,
                cv: np.ndarray | None, index: Any) -> dict[str, float]:
    """RRF (over ``events`` only) of the dense, BM25 and caption rankings."""
    if not events:
        return {}
    rankings: list[list[str]] = []
    if qv is not None:
        whole = {i: float(v @ qv) for i, v in b.vectors.get(memory_id, text_space(EVENTS), events).items()}
        parts: dict[str, list[float]] = {}
        captions: dict[str, float] = {}
        for pid, (v, meta) in b.vectors.get_where(memory_id, PARTS_SPACE, {"event": {"$in": events}}).items():
            event = meta.get("event")
            parts.setdefault(event, []).append(float(v @ qv))
            if cv is not None and "#c" in pid:
                captions[event] = max(captions.get(event, -1.0), float(v @ cv))
        visual: dict[str, float] = {}
        if b.image_encoder is not None and b.vectors.count(memory_id, visual_space(EVENTS)):
            vq = b.image_encoder.encode_texts([query])[0]
            visual = {i: float(np.dot(v, vq)) for i, v in b.vectors.get(memory_id, visual_space(EVENTS), events).items()}
        dense = {i: late_fusion(part_similarity(t, parts.get(i, [])), visual.get(i), ctx.weight_text, ctx.weight_visual)
                 for i, t in whole.items()}
        rankings.append(sorted(dense, key=lambda i: (-dense[i], i)))
        if captions:
            rankings.append(sorted(captions, key=lambda i: (-captions[i], i)))
    if index is not None:
        keyword = {i: s for i, s in index.scores_for(query, events).items() if s > 0}
        rankings.append(sorted(keyword, key=lambda i: (-keyword[i], i)))
    return dict(rrf(rankings, k=ctx.rrf_k))


def _allowed(b: Backends, memory_id: str, scope: str, time_range: tuple[datetime | None, datetime | None] | None,
             within: str | None) -> set[str] | None:
    """Node ids a narrowed search may return, or None for no narrowing."""
    if time_range is None and within is None:
        return None
    parents = None
    if within is not None:
        parents = [within]
        if scope == "event" and within.startswith("tp:"):
            parents = b.sql.node_ids(memory_id, "episode", parent_ids=[within])
    lo, hi = time_range if time_range is not None else (None, None)
    return set(b.sql.node_ids(memory_id, scope, parent_ids=parents, starts_by=hi, ends_from=lo))


# -- shaping results --------------------------------------------------------------------------


def _units(b: Backends, memory_id: str, scope: str, ranked: list[tuple[str, float]]) -> list[RetrievedUnit]:
    if not ranked:
        return []
    recs = {n.node_id: n for n in b.sql.nodes(memory_id, scope, node_ids=[i for i, _ in ranked])}
    # an event's unit text is its description; an episode's or topic's may be longer (its events' text)
    texts = {} if scope == "event" else {
        u.unit_id: u.text for u in b.sql.units(memory_id, SPACE_OF_LEVEL[scope], [i for i, _ in ranked])}
    out = []
    for node_id, score in ranked:
        rec = recs.get(node_id)
        if rec is None:
            continue
        unit = _unit(rec, score, texts.get(node_id))
        if scope != "event":
            unit.round_ids = _rounds_under(b, memory_id, rec)
        out.append(unit)
    return out


def _rounds_under(b: Backends, memory_id: str, rec: Any) -> list[str]:
    """The first ``MAX_UNIT_ROUNDS`` round ids under an episode or topic, in history order: a
    topic of a long history holds thousands, which no reader cites and reading cost seconds."""
    if rec.level == "episode":
        return b.sql.child_rounds(memory_id, [rec.node_id], MAX_UNIT_ROUNDS)
    episodes = b.sql.node_ids(memory_id, "episode", parent_ids=[rec.node_id])
    return b.sql.child_rounds(memory_id, episodes, MAX_UNIT_ROUNDS) if episodes else []


def _unit(rec: Any, score: float, text: str | None = None) -> RetrievedUnit:
    return RetrievedUnit(
        node_id=rec.node_id, level=rec.level, score=round(float(score), 6), text=text if text is not None else rec.description,
        start=rec.start_time.isoformat() if rec.start_time else None, end=rec.end_time.isoformat() if rec.end_time else None,
        first_order=rec.first_order, last_order=rec.last_order, round_ids=[rec.round_id] if rec.round_id else [],
        image_ids=list(rec.image_ids),
    )


def _add_context(b: Backends, memory_id: str, units: list[RetrievedUnit], window: int) -> None:
    """Each unit's surrounding rounds, all read in one query."""
    orders = [u.first_order for u in units if u.first_order is not None]
    if window == 0 or not orders:
        return
    lo, hi = min(orders) - window, max(orders) + window
    wanted = {o for u in units if u.first_order is not None for o in range(u.first_order - window, u.first_order + window + 1)}
    if len(wanted) * 4 < hi - lo:  # scattered units: only their windows, not the span between
        rounds = b.sql.get_rounds(memory_id, orders=sorted(wanted))
    else:
        rounds = b.sql.get_rounds(memory_id, order_range=(lo, hi))
    by_order = {r.order: r for r in rounds}
    for unit in units:
        if unit.first_order is None:
            continue
        unit.context = [{"round_id": r.round_id, "order": r.order, "time": r.timestamp.isoformat() if r.timestamp else None,
                         "text": r.text}
                        for o in range(unit.first_order - window, unit.first_order + window + 1)
                        if o != unit.first_order and (r := by_order.get(o)) is not None]


__all__ = ["RetrievedUnit", "children", "event_locate", "raw_rounds", "semantic_match", "EVENTS", "EPISODES"]
