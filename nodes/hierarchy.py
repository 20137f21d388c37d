"""Retrieval memory: incremental topic -> episode -> event insertion (AdaMM §3.4, Eq. 11-13).

Every round becomes an event. The event joins the open episode when the time gap is at most
``episode_max_gap_hours`` and the fused similarity is at least θepi; else the open episode
closes - its description is written and embedded, and it joins the best topic found through
the topic vector index (fused similarity ≥ θtopic) or founds one - and a new episode opens.
The thresholds keep the paper's values; the text cosine is put on their scale first by a
per-encoder offset (``Context.similarity_offset``): small sentence encoders give related texts
lower cosines than the paper's encoder, and without the offset nearly every event would found
its own episode and nearly every episode its own topic (MiniLM's offset is +0.25: at its raw
cosine, θepi = 0.60 left one or two turns per episode).

Representations: each node has a text vector and, when it or its children have images, a
visual vector (the L2-normalized mean over image-bearing children). While an episode is open its
text vector is the mean of its events' vectors; in ``describe_mode="eager"`` its description is
regenerated and re-embedded at every insertion, in ``on_close`` (default) when it closes, so
describer calls stay one per episode. Only the new event's ancestors change.

Units live in three spaces, ``events``, ``episodes`` and ``topics`` (SQL text for BM25, text
vectors in ``<space>.text``, visual vectors in ``<space>.visual``).

A batch's hierarchy is one commit: its nodes and units in one transaction with the rounds'
stage, its vectors journaled in it and made after it (``nodes/locking.py``), so a crash never
leaves part of a batch and the rerun inserts the batch into exactly the hierarchy the crashed
run started from.

Removing events (forgetting rounds, or rolling back a batch an older version left half
written) is hierarchy code too: the episodes and topics above them are rebuilt from what
remains with the same pooling and descriptions insertion uses. A forget marks them ``stale``
first and clears the mark once rebuilt, so a forget killed in between is finished when rerun.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
from langgraph.runtime import Runtime

from adamm.nodes.backends import Backends, backends
from adamm.nodes.context import Context
from adamm.nodes.cost import timed
from adamm.nodes.locking import STAGES, committed
from adamm.nodes.models import ModelOutputError, invoke
from adamm.nodes.state import IngestState
from adamm.prompts.describe import DESCRIBE_NODE_SYSTEM, DESCRIBE_NODE_USER
from adamm.stores.fusion import mean_pool
from adamm.stores.hierarchy import fused_similarity, gap_hours, joins_episode, joins_topic, similarity_offset, summarize
from adamm.stores.records import Round
from adamm.stores.sql_models import NodeRecord
from adamm.stores.units import Unit, text_space

EVENTS, EPISODES, TOPICS = "events", "episodes", "topics"
SPACE_OF_LEVEL = {"event": EVENTS, "episode": EPISODES, "topic": TOPICS}
#: Visual vectors of single images, keyed ``<round_id>/<image_id>``.
IMAGES_VISUAL_SPACE = "images.visual"
#: Text vectors of an event's parts - the user's words and each image caption - keyed
#: ``<event id>#u`` and ``<event id>#c<i>``, so EventLocate can score a round by its best part.
PARTS_SPACE = "events.parts"

#: Topics compared with a closing episode (found by the topic vector index, then fused).
TOPIC_CANDIDATES = 5
#: A topic's description is regenerated from its most recent episodes only, so closing an
#: episode costs the same however long the history (a long-lived topic can hold thousands).
TOPIC_DESCRIBE_EPISODES = 24


def visual_space(space: str) -> str:
    return f"{space}.visual"


def centroid_space(space: str) -> str:
    return f"{space}.centroid"


def insert_hierarchy(state: IngestState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Insert every pending round as an event, in history order."""
    ctx = Context.coerce(runtime)
    if not ctx.use_retrieval:
        return {}
    memory_id, pending = state["memory_id"], state.get("pending") or []
    entries: list[dict[str, Any]] = []
    b = backends(ctx)
    with timed("insert_hierarchy") as cost:
        counts = {"events": 0, "episodes_opened": 0, "topics_founded": 0, "images_embedded": 0}
        if pending:
            rebuild_stale(ctx, b, memory_id)  # never extend a node a killed forget left describing removed rounds
            repair_interrupted(ctx, b, memory_id, pending)  # a batch an older version left half-written
            # Nodes, units and the rounds' stage in one transaction, vectors made after it: a
            # crash never leaves part of a batch's hierarchy, so a rerun inserts the batch into
            # exactly the hierarchy the crashed run started from (``nodes/locking.py``).
            with committed(b, memory_id):
                h = _Hierarchy(ctx, b, memory_id, entries)
                rounds = b.sql.get_rounds(memory_id, pending)
                counts["images_embedded"] = h.embed_images(rounds)
                # one batch for events and their parts; add_event then hits the encoder's cache
                b.text_encoder.encode([*(_event_text(r) for r in rounds), *(t for r in rounds for _, t in event_parts(r))])
                h.known_events = {n.node_id: n for n in h.sql.nodes(memory_id, "event", node_ids=[f"ev:{r.round_id}" for r in rounds])}
                for rnd in rounds:
                    for key, n in h.add_event(rnd).items():
                        counts[key] += n
                h.flush()
                b.sql.add_model_use(memory_id, entries)
                b.sql.set_stage(memory_id, pending, STAGES["insert_hierarchy"])
    return {"stored": counts, "cost": [cost.to_dict(), *entries]}


class _Node:
    """A node being edited in this batch: its record and its vectors.

    ``centroid`` (mean of the children's vectors) drives the structural decisions - joining an
    episode, finding a topic - and is exact and cheap to update; ``text`` is the embedding of
    the description, what retrieval scores against, computed for all changed nodes in one batch
    at flush (an open episode, with no description yet, is retrieved by its centroid).
    """

    def __init__(self, rec: NodeRecord, text: np.ndarray | None, visual: np.ndarray | None, children: int = 0,
                 visual_children: int = 0, centroid: np.ndarray | None = None) -> None:
        self.rec, self.text, self.visual = rec, text, visual
        self.centroid = centroid if centroid is not None else text
        self.children, self.visual_children = children, visual_children
        self.unit_text = rec.description
        self.needs_embedding = False
        #: An event's part vectors, ``(part id, vector)`` (PARTS_SPACE).
        self.parts: list[tuple[str, np.ndarray]] = []


class _Hierarchy:
    def __init__(self, ctx: Context, b: Backends, memory_id: str, entries: list[dict[str, Any]]) -> None:
        self.ctx, self.b, self.sql, self.memory_id, self.entries = ctx, b, b.sql, memory_id, entries
        self.image_vectors: dict[str, list[np.ndarray]] = {}
        self.dirty: dict[str, _Node] = {}
        self.loaded: dict[str, _Node] = {}
        self.open = self._load_open_episode()
        self.offset = similarity_offset(ctx.similarity_offset, b.text_encoder.name)
        #: Stored events among this batch's rounds, read in one query (re-derivation).
        self.known_events: dict[str, NodeRecord] | None = None
        #: Part ids of re-derived events, deleted in one call before their new parts are written.
        self.stale_parts: list[str] = []

    # -- images ---------------------------------------------------------------------------------

    def embed_images(self, rounds: Sequence[Round]) -> int:
        """Visual vectors of every image with pixels, once per image, when an encoder is set."""
        if self.b.image_encoder is None:
            return 0
        items = [(r, im) for r in rounds for im in r.images if im.data or im.path]
        if not items:
            return 0
        vectors = self.b.image_encoder.encode_images([im.data or im.path for _, im in items])
        ids = [f"{r.round_id}/{im.image_id}" for r, im in items]
        metas = [{"round_id": r.round_id, "image_id": im.image_id} for r, im in items]
        self.b.vectors.upsert(self.memory_id, IMAGES_VISUAL_SPACE, ids, vectors, metas)
        for (r, _), v in zip(items, vectors):
            self.image_vectors.setdefault(r.round_id, []).append(v)
        return len(ids)

    # -- insertion ------------------------------------------------------------------------------

    def add_event(self, rnd: Round) -> dict[str, int]:
        counts = {"events": 1, "episodes_opened": 0, "topics_founded": 0}
        node_id = f"ev:{rnd.round_id}"
        text_vec = self.b.text_encoder.encode_one(_event_text(rnd))
        visual = mean_pool(self.image_vectors.get(rnd.round_id, []))
        if self.known_events is not None:
            existing = [self.known_events[node_id]] if node_id in self.known_events else []
        else:
            existing = self.sql.nodes(self.memory_id, "event", node_ids=[node_id])
        parts = event_parts(rnd)
        part_vecs = [(f"{node_id}{suffix}", v) for (suffix, _), v in
                     zip(parts, self.b.text_encoder.encode([t for _, t in parts]) if parts else [])]
        if existing:  # re-derivation of a stored round: refresh its event in place, keep its place
            ev = _Node(existing[0], text_vec, visual)
            ev.rec.description = ev.unit_text = _event_text(rnd)
            ev.parts = part_vecs
            self.stale_parts.extend(part_ids(existing[0]))  # a removed caption's part goes at flush
            self.dirty[node_id] = ev
            return {"events": 0, "episodes_opened": 0, "topics_founded": 0}
        rec = NodeRecord(memory_id=self.memory_id, node_id=node_id, level="event", round_id=rnd.round_id,
                         description=_event_text(rnd), start_time=rnd.timestamp, end_time=rnd.timestamp,
                         first_order=rnd.order, last_order=rnd.order, image_ids=[im.image_id for im in rnd.images],
                         has_visual=visual is not None)
        ev = _Node(rec, text_vec, visual)
        ev.parts = part_vecs
        ep = self.open
        if ep is not None:
            sim = fused_similarity(ev.centroid, ep.centroid, ev.visual, ep.visual, self.ctx.weight_text, self.ctx.weight_visual,
                                   self.offset)
            if not joins_episode(gap_hours(ep.rec.end_time, rnd.timestamp), sim, self.ctx.theta_episode, self.ctx.episode_max_gap_hours):
                counts["topics_founded"] += self._close(ep)
                ep = None
        if ep is None:
            ep = self._open_episode(rnd)
            counts["episodes_opened"] = 1
        rec.parent_id = ep.rec.node_id
        self._grow(ep, ev, rnd)
        self.dirty[node_id] = ev
        if self.ctx.describe_mode == "eager":
            self._describe(ep, level="episode")
            if ep.rec.parent_id:
                topic = self._load(ep.rec.parent_id, "topic")
                self._grow_topic(topic, ep, regrow=True)
        return counts

    def _open_episode(self, rnd: Round) -> _Node:
        rec = NodeRecord(memory_id=self.memory_id, node_id=f"ep:{rnd.round_id}", level="episode", is_open=True,
                         start_time=rnd.timestamp, end_time=rnd.timestamp, first_order=rnd.order, last_order=rnd.order)
        self.open = _Node(rec, None, None)
        self.dirty[rec.node_id] = self.open
        return self.open

    def _grow(self, ep: _Node, ev: _Node, rnd: Round) -> None:
        """Add an event to an episode: running means of text and (image-bearing) visual vectors."""
        ep.centroid = _running_mean(ep.centroid, ev.centroid, ep.children)
        ep.children += 1
        if ev.visual is not None:
            ep.visual = _running_mean(ep.visual, ev.visual, ep.visual_children)
            ep.visual_children += 1
        r = ep.rec
        r.end_time = max((t for t in (r.end_time, rnd.timestamp) if t is not None), default=None)
        r.start_time = r.start_time or rnd.timestamp
        r.last_order = rnd.order if r.last_order is None else max(r.last_order, rnd.order or 0)
        r.image_ids = [*r.image_ids, *ev.rec.image_ids]
        r.has_visual = ep.visual is not None
        ep.unit_text = _join(ep.unit_text, ev.unit_text)
        self.dirty[r.node_id] = ep

    def _close(self, ep: _Node) -> int:
        """Close an episode: describe it, then join the best topic or found one."""
        ep.rec.is_open = False
        if self.ctx.describe_mode != "eager" or not ep.rec.description:
            self._describe(ep, level="episode")
        self.open = None
        best, best_sim = None, -1.0
        hits = [h.id for h in self.b.vectors.query(self.memory_id, centroid_space(TOPICS), ep.centroid, TOPIC_CANDIDATES)]
        fresh = [n.rec.node_id for n in self.dirty.values() if n.rec.level == "topic" and n.rec.node_id not in hits]
        for topic_id in [*hits, *fresh]:  # topics founded in this batch are not in the index yet
            topic = self._load(topic_id, "topic")
            if topic.centroid is None:
                continue
            sim = fused_similarity(ep.centroid, topic.centroid, ep.visual, topic.visual, self.ctx.weight_text,
                                   self.ctx.weight_visual, self.offset)
            if sim > best_sim:
                best, best_sim = topic, sim
        founded = 0
        if best is None or not joins_topic(best_sim, self.ctx.theta_topic):
            rec = NodeRecord(memory_id=self.memory_id, node_id=f"tp:{ep.rec.node_id[3:]}", level="topic",
                             start_time=ep.rec.start_time, end_time=ep.rec.end_time,
                             first_order=ep.rec.first_order, last_order=ep.rec.last_order)
            best = _Node(rec, None, None)
            founded = 1
        ep.rec.parent_id = best.rec.node_id
        self._grow_topic(best, ep)
        return founded

    def _grow_topic(self, topic: _Node, ep: _Node, regrow: bool = False) -> None:
        r = topic.rec
        if not regrow:
            topic.centroid = _running_mean(topic.centroid, ep.centroid, topic.children)
            topic.children += 1
            if ep.visual is not None:
                topic.visual = _running_mean(topic.visual, ep.visual, topic.visual_children)
                topic.visual_children += 1
        r.start_time = min((t for t in (r.start_time, ep.rec.start_time) if t is not None), default=None)
        r.end_time = max((t for t in (r.end_time, ep.rec.end_time) if t is not None), default=None)
        r.first_order = min(x for x in (r.first_order, ep.rec.first_order) if x is not None) if ep.rec.first_order is not None else r.first_order
        r.last_order = max(x for x in (r.last_order, ep.rec.last_order) if x is not None) if ep.rec.last_order is not None else r.last_order
        r.has_visual = topic.visual is not None
        self.dirty[r.node_id] = topic
        mine = [n.rec for n in self.dirty.values() if n.rec.level == "episode" and n.rec.parent_id == r.node_id]
        # the newest stored ones suffice: a dirty episode replaces its stored self
        stored = self.sql.nodes(self.memory_id, "episode", parent_id=r.node_id, newest=TOPIC_DESCRIBE_EPISODES + len(mine))
        episodes = [n for n in stored if n.node_id not in self.dirty] + mine
        episodes.sort(key=lambda e: e.first_order if e.first_order is not None else -1)
        self._describe(topic, level="topic", texts=[e.description for e in episodes[-TOPIC_DESCRIBE_EPISODES:]])

    def _describe(self, node: _Node, level: str, texts: list[str] | None = None) -> None:
        """Regenerate a description (describer role) and re-embed it: the node's text vector."""
        if texts is None:
            texts = [n.rec.description for n in self.dirty.values() if n.rec.level == "event" and n.rec.parent_id == node.rec.node_id]
            stored = [e.description for e in self.sql.nodes(self.memory_id, "event", parent_id=node.rec.node_id)
                      if f"ev:{e.round_id}" not in self.dirty]
            texts = stored + texts
        fallback = summarize(texts, node.rec.start_time, node.rec.end_time)
        description = fallback if self.ctx.describer == "rules" else self._model_description(level, texts, fallback)
        # An unchanged description keeps its vector: a topic whose recent episodes say the
        # same is not embedded again.
        unchanged = description == node.rec.description and node.text is not None and not node.rec.is_open
        node.rec.description = node.unit_text = description
        node.needs_embedding = node.needs_embedding or not unchanged
        self.dirty[node.rec.node_id] = node

    def _model_description(self, level: str, texts: list[str], fallback: str) -> str:
        joined = "\n".join(t[:600] for t in texts[:40])
        messages = [("system", DESCRIBE_NODE_SYSTEM), ("human", DESCRIBE_NODE_USER.format(level=level, texts=joined))]
        try:
            reply, entry = invoke(self.ctx, "describer", "insert_hierarchy", messages)
        except ModelOutputError as exc:
            self.entries.append(exc.cost.to_dict())
            return fallback
        self.entries.append(entry.to_dict())
        text = " ".join(str(getattr(reply, "content", "")).split())[:1000]
        return text or fallback

    # -- loading and writing ----------------------------------------------------------------------

    def _load_open_episode(self) -> _Node | None:
        found = self.sql.nodes(self.memory_id, "episode", open_only=True)
        return self._load(found[-1].node_id, "episode", found[-1]) if found else None

    def _load(self, node_id: str, level: str, rec: NodeRecord | None = None) -> _Node:
        if node_id in self.dirty:
            return self.dirty[node_id]
        if node_id in self.loaded:  # read once per batch: topics are compared again and again
            return self.loaded[node_id]
        node = self._read(node_id, level, rec)
        self.loaded[node_id] = node
        return node

    def _read(self, node_id: str, level: str, rec: NodeRecord | None) -> _Node:
        rec = rec or self.sql.nodes(self.memory_id, level, node_ids=[node_id])[0]
        space = SPACE_OF_LEVEL[level]
        text = self.b.vectors.get(self.memory_id, text_space(space), [node_id]).get(node_id)
        visual = self.b.vectors.get(self.memory_id, visual_space(space), [node_id]).get(node_id)
        centroid = self.b.vectors.get(self.memory_id, centroid_space(space), [node_id]).get(node_id)
        if level == "episode" and rec.is_open:  # its unit text is its events' text
            children = self.sql.nodes(self.memory_id, "event", parent_id=node_id)
            node = _Node(rec, text, visual, len(children), sum(1 for c in children if c.has_visual), centroid)
            node.unit_text = self._open_text(children)
            return node
        return _Node(rec, text, visual, *self.sql.child_counts(self.memory_id, node_id), centroid=centroid)

    @staticmethod
    def _open_text(children: list[NodeRecord]) -> str:
        text = ""
        for c in children:
            text = _join(text, c.description)
        return text

    def flush(self) -> None:
        """Write every changed node: SQL records, text units (BM25) and vectors, per level."""
        nodes = list(self.dirty.values())
        stale = [n for n in nodes if n.needs_embedding]
        if stale:  # every regenerated description of the batch, embedded in one call
            for n, vec in zip(stale, self.b.text_encoder.encode([n.rec.description for n in stale])):
                n.text = vec
        for n in nodes:
            if n.text is None or (n.rec.is_open and not n.needs_embedding):
                n.text = n.centroid  # an open episode: retrieved by its centroid until described
        self.sql.put_nodes(self.memory_id, [n.rec for n in nodes])
        if self.stale_parts:
            self.b.vectors.delete(self.memory_id, PARTS_SPACE, sorted(set(self.stale_parts)))
            self.stale_parts = []
        for level, space in SPACE_OF_LEVEL.items():
            mine = [n for n in nodes if n.rec.level == level and n.text is not None]
            if not mine:
                continue
            units = [Unit(n.rec.node_id, n.unit_text or n.rec.description, _meta(n.rec)) for n in mine]
            self.b.units.add(self.memory_id, space, units, np.stack([n.text for n in mine]))
            if level != "event":
                self.b.vectors.upsert(self.memory_id, centroid_space(space), [n.rec.node_id for n in mine],
                                      np.stack([n.centroid if n.centroid is not None else n.text for n in mine]),
                                      [_meta(n.rec) for n in mine])
            parts = [(pid, vec, n.rec.node_id) for n in mine for pid, vec in n.parts]
            if parts:
                self.b.vectors.upsert(self.memory_id, PARTS_SPACE, [p for p, _, _ in parts], np.stack([v for _, v, _ in parts]),
                                      [{"event": e} for _, _, e in parts])
            seen = [n for n in mine if n.visual is not None]
            if seen:
                self.b.vectors.upsert(self.memory_id, visual_space(space), [n.rec.node_id for n in seen],
                                      np.stack([n.visual for n in seen]), [_meta(n.rec) for n in seen])


# -- removal, rebuilding and repair ---------------------------------------------------------------


def count_vectors(b: Backends, memory_id: str, space: str, ids: Sequence[str]) -> int:
    """How many of ``ids`` have a vector in ``space``."""
    return len(b.vectors.get(memory_id, space, list(ids))) if ids else 0


def remove_nodes(b: Backends, memory_id: str, nodes: Sequence[NodeRecord]) -> Counter[str]:
    """Delete nodes of any level: SQL record, unit (BM25), text / visual / centroid vectors.
    Returns the units and vectors removed."""
    removed: Counter[str] = Counter()
    by_level: dict[str, list[str]] = {}
    for n in nodes:
        by_level.setdefault(n.level, []).append(n.node_id)
    for level, node_ids in by_level.items():
        space = SPACE_OF_LEVEL[level]
        for vspace in (text_space(space), visual_space(space), centroid_space(space)):
            removed["vectors"] += count_vectors(b, memory_id, vspace, node_ids)
            b.vectors.delete(memory_id, vspace, node_ids)
        if level == "event":
            event_parts = [pid for n in nodes if n.level == "event" for pid in part_ids(n)]
            removed["vectors"] += count_vectors(b, memory_id, PARTS_SPACE, event_parts)
            b.vectors.delete(memory_id, PARTS_SPACE, event_parts)
        removed["units"] += len(b.sql.units(memory_id, space, node_ids))
        b.units.remove(memory_id, space, node_ids)
        b.sql.delete_nodes(memory_id, node_ids)
    return removed


def rebuild(ctx: Context, b: Backends, memory_id: str, node_ids: set[str]) -> Counter[str]:
    """Recompute the given episodes and topics (and the topics above those episodes) from their
    remaining children, removing those left without any. Returns what was rebuilt and removed,
    per level (``episodes``, ``episodes_rebuilt``, ``topics``, ``topics_rebuilt``), and the
    units and vectors removed."""
    episodes, topics = _rebuild_scope(b, memory_id, node_ids)
    return _rebuild_levels(ctx, b, memory_id, episodes, topics)


def rebuild_stale(ctx: Context, b: Backends, memory_id: str) -> Counter[str]:
    """Rebuild the episodes and topics a forget marked stale and was killed before rebuilding
    (``nodes/forget.py``): the same rebuild, from the same remaining children."""
    stale = set(b.sql.stale_node_ids(memory_id))
    return rebuild(ctx, b, memory_id, stale) if stale else Counter()


def repair_interrupted(ctx: Context, b: Backends, memory_id: str, pending: Sequence[str]) -> int:
    """Roll back the hierarchy of a batch that died while writing it, so it is inserted again.

    Pending rounds that already have events, at the end of the history (after every derived
    round), are what an interrupted run leaves: their events are removed, the episodes and
    topics that run touched are rebuilt from what remains, and the latest episode is reopened -
    the state before that batch. Pending rounds in the middle of the history (updated rounds)
    are left to the hierarchy's refresh-in-place. Returns the number of events rolled back.
    """
    if not pending:
        return 0
    events = b.sql.nodes(memory_id, "event", node_ids=[f"ev:{rid}" for rid in pending])
    if not events:
        return 0
    last_derived = b.sql.last_derived_order(memory_id)
    since = b.sql.first_ingested(memory_id, pending)
    tail = [e for e in events if last_derived is None or (e.first_order is not None and e.first_order > last_derived)]
    if not tail:
        return 0
    touched = {e.parent_id for e in tail if e.parent_id}
    touched |= {n.node_id for n in b.sql.nodes(memory_id) if n.level != "event" and since is not None and n.updated_at >= since}
    remove_nodes(b, memory_id, tail)
    episodes, topics = _rebuild_scope(b, memory_id, touched)
    _reopen_latest(b, memory_id, episodes, topics)
    _rebuild_levels(ctx, b, memory_id, episodes, topics)
    return len(tail)


def _rebuild_scope(b: Backends, memory_id: str, node_ids: set[str]) -> tuple[list[NodeRecord], set[str]]:
    """The episodes among ``node_ids``, and the topics among them or above those episodes."""
    nodes = b.sql.nodes(memory_id, node_ids=sorted(node_ids)) if node_ids else []
    episodes = [n for n in nodes if n.level == "episode"]
    topics = {n.node_id for n in nodes if n.level == "topic"} | {e.parent_id for e in episodes if e.parent_id}
    return episodes, topics


def _reopen_latest(b: Backends, memory_id: str, episodes: list[NodeRecord], topics: set[str]) -> None:
    """The state before an interrupted batch: the latest episode with events open and in no
    topic (added to ``episodes``, its former topic to ``topics``); any other open one closed."""
    with_events = [n for n in b.sql.nodes(memory_id, "episode") if b.sql.nodes(memory_id, "event", parent_id=n.node_id)]
    latest = max(with_events, key=lambda n: (n.last_order if n.last_order is not None else -1), default=None)
    if latest is not None and (not latest.is_open or latest.parent_id):
        mine = next((e for e in episodes if e.node_id == latest.node_id), None)
        if mine is None:
            episodes.append(latest)
            mine = latest
        if mine.parent_id:
            topics.add(mine.parent_id)
        mine.is_open, mine.parent_id = True, None
    for ep in episodes:  # any other open episode closes (only one is ever open)
        if latest is not None and ep.node_id != latest.node_id and ep.is_open:
            ep.is_open = False


def _rebuild_levels(ctx: Context, b: Backends, memory_id: str, episodes: list[NodeRecord], topics: set[str]) -> Counter[str]:
    """Episodes first, in history order, then the topics - which read their episodes back."""
    counts: Counter[str] = Counter()
    _rebuild_level(ctx, b, memory_id, "episode", sorted(episodes, key=lambda n: n.first_order if n.first_order is not None else -1), counts)
    _rebuild_level(ctx, b, memory_id, "topic", b.sql.nodes(memory_id, "topic", node_ids=sorted(t for t in topics if t)), counts)
    return counts


def _rebuild_level(ctx: Context, b: Backends, memory_id: str, level: str, parents: Sequence[NodeRecord], counts: Counter[str]) -> None:
    """Recompute episodes or topics from their remaining children, or remove those left without
    any: dates, orders and images, centroid and visual vectors replayed in history order, the
    description regenerated (an open episode's only in ``describe_mode="eager"``)."""
    child_level = "event" if level == "episode" else "episode"
    child_space = SPACE_OF_LEVEL[child_level]
    # a child's contribution to the centroid: an event's text vector, an episode's centroid
    pooled_space = text_space(child_space) if child_level == "event" else centroid_space(child_space)
    h = _Hierarchy(ctx, b, memory_id, [])
    h.dirty.clear()
    empty: list[NodeRecord] = []
    for rec in parents:
        kids = b.sql.nodes(memory_id, child_level, parent_id=rec.node_id)
        if not kids:
            empty.append(rec)
            counts[f"{level}s"] += 1
            continue
        ids = [k.node_id for k in kids]
        vectors = b.vectors.get(memory_id, pooled_space, ids)
        visuals = b.vectors.get(memory_id, visual_space(child_space), ids)
        node = _Node(rec, None, None)
        _recompute(rec, kids)
        centroid, visual, nv = _pool(b, kids, vectors, visuals)
        node.centroid, node.visual, node.children, node.visual_children = centroid, visual, len(kids), nv
        rec.has_visual = visual is not None
        if level == "episode":
            node.unit_text = _Hierarchy._open_text(kids)
        if level == "topic" or not rec.is_open or ctx.describe_mode == "eager":
            h._describe(node, level=level, texts=[k.description for k in kids])
        else:
            rec.description = ""
        h.dirty[rec.node_id] = node
        counts[f"{level}s_rebuilt"] += 1
    if empty:
        counts.update(remove_nodes(b, memory_id, empty))
    if h.dirty:
        h.flush()
        for n in h.dirty.values():  # a node whose images were all forgotten loses its visual vector
            if n.visual is None:
                b.vectors.delete(memory_id, visual_space(SPACE_OF_LEVEL[n.rec.level]), [n.rec.node_id])
        b.sql.set_stale(memory_id, [n.rec.node_id for n in h.dirty.values() if n.rec.stale], False)  # after every write of it


def _recompute(rec: NodeRecord, kids: Sequence[NodeRecord]) -> None:
    """Dates, orders and images of a node from its children (in history order)."""
    starts = [k.start_time for k in kids if k.start_time is not None]
    ends = [k.end_time for k in kids if k.end_time is not None]
    firsts = [k.first_order for k in kids if k.first_order is not None]
    lasts = [k.last_order for k in kids if k.last_order is not None]
    rec.start_time, rec.end_time = (min(starts) if starts else None), (max(ends) if ends else None)
    rec.first_order, rec.last_order = (min(firsts) if firsts else None), (max(lasts) if lasts else None)
    rec.image_ids = [i for k in kids for i in k.image_ids]


def _pool(b: Backends, kids: list[NodeRecord], texts: dict[str, Any], visuals: dict[str, Any]) -> tuple[Any, Any, int]:
    """A parent's text centroid and visual mean from its children's stored vectors (text or
    centroid, and visual where a child has one); a child whose text vector is missing is
    embedded from its description. Returns (centroid, visual, children with a visual)."""
    centroid, visual, nv = None, None, 0
    for i, k in enumerate(kids):
        vec = texts.get(k.node_id)
        if vec is None:
            vec = b.text_encoder.encode_one(k.description)
        centroid = _running_mean(centroid, vec, i)
        if k.node_id in visuals:
            visual = _running_mean(visual, visuals[k.node_id], nv)
            nv += 1
    return centroid, visual, nv


def _event_text(rnd: Round) -> str:
    return rnd.text or f"(round {rnd.round_id})"


def event_parts(rnd: Round) -> list[tuple[str, str]]:
    """``(suffix, text)`` of a round's parts: the user's words when the round has more than
    them, and each image caption. A question about one photo or one remark then matches that
    part instead of the whole round's blend."""
    parts: list[tuple[str, str]] = []
    if rnd.user_text.strip() and (rnd.assistant_text.strip() or rnd.images):
        parts.append(("#u", f"{rnd.user_label}: {rnd.user_text.strip()}"))
    for i, im in enumerate(rnd.images):
        if im.caption and im.caption.strip():
            parts.append((f"#c{i}", im.caption.strip()))
    return parts


def part_ids(event: NodeRecord) -> list[str]:
    """Every id the event's parts can have (its user part and one per image)."""
    return [f"{event.node_id}#u", *(f"{event.node_id}#c{i}" for i in range(len(event.image_ids)))]


def _join(a: str, b: str, limit: int = 20_000) -> str:
    joined = f"{a}\n{b}" if a else b
    return joined[-limit:]


def _running_mean(mean: np.ndarray | None, x: np.ndarray, n: int) -> np.ndarray:
    """L2-normalized running mean of unit vectors (n = vectors already in the mean)."""
    if mean is None or n <= 0:
        return x
    m = (mean * n + x) / (n + 1)
    norm = np.linalg.norm(m)
    return m / norm if norm > 0 else m


def _meta(rec: NodeRecord) -> dict[str, Any]:
    meta: dict[str, Any] = {"level": rec.level, "first_order": rec.first_order if rec.first_order is not None else -1,
                            "last_order": rec.last_order if rec.last_order is not None else -1}
    if rec.parent_id:
        meta["parent_id"] = rec.parent_id
    if rec.round_id:
        meta["round_id"] = rec.round_id
    if rec.start_time:
        meta["start"] = rec.start_time.isoformat()
    if rec.end_time:
        meta["end"] = rec.end_time.isoformat()
    if rec.image_ids:
        meta["image_ids"] = ",".join(rec.image_ids[:50])
    return meta
