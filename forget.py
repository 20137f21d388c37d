"""Forgetting with provenance: remove rounds and everything derived from them.

Everything adamm derives records the round it came from - observations and table rows by
``round_id`` / ``source``, attribute-set supports through the round's counted set, events by
``round_id``, round units and vectors by id, image vectors as ``<round_id>/<image_id>`` - so a
round can be taken out completely:

* the round records, their observations, their rows in every induced table;
* their attribute sets are uncounted; every schema's support is recomputed, and a table whose
  support falls below θs is reported in ``tables_below_support`` (its remaining rows are still
  true records, so it is kept, but the caller is told); a table left without rows is dropped
  with its schema; canonical attributes no round reports any more are removed;
* round units (SQL, vectors, BM25), events (nodes, units, text and visual vectors), image vectors;
* every episode and topic that lost a descendant is rebuilt from what remains - dates, orders,
  images, centroid and visual vectors replayed in history order, description regenerated and
  re-embedded - and removed when nothing remains under it.

Other memories are never read or written. The same hierarchy rollback also repairs a run that
died half-way through writing the hierarchy (``repair_interrupted``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import delete, select

from adamm.nodes.backends import Backends, backends
from adamm.nodes.context import Context
from adamm.nodes.ingest import ROUNDS_SPACE, InputError, check_memory_id
from adamm.nodes.locking import lock_memory
from adamm.stores.mining import SupportIndex
from adamm.stores.sql_models import AttributeRecord, AttributeSetRecord, NodeRecord, ObservationRecord, RoundRecord, SchemaRecord
from adamm.stores.units import text_space

__all__ = ["ForgetReport", "forget", "repair_interrupted"]


@dataclass
class ForgetReport:
    """What one ``forget`` removed, per kind, and the tables it left under-supported."""

    memory_id: str
    rounds: int = 0
    observations: int = 0
    table_rows: int = 0
    supports: int = 0
    tables_dropped: list[str] = field(default_factory=list)
    tables_below_support: list[str] = field(default_factory=list)
    attributes: int = 0
    events: int = 0
    episodes: int = 0
    topics: int = 0
    episodes_rebuilt: int = 0
    topics_rebuilt: int = 0
    units: int = 0
    vectors: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def forget(ctx: Context | Any, memory_id: str, *, round_ids: list[str] | None = None, session_id: str | None = None,
           everything: bool = False) -> ForgetReport:
    """Remove the given rounds (by id, by session, or all of them) and everything derived.

    Exactly one of ``round_ids``, ``session_id`` and ``everything`` selects the rounds; ids that
    the memory does not hold are ignored (forgetting is idempotent).
    """
    ctx = Context.coerce(ctx)
    check_memory_id(memory_id)
    chosen = sum([round_ids is not None, session_id is not None, bool(everything)])
    if chosen != 1:
        raise InputError("forget: name exactly one of round ids, a session or everything")
    if round_ids is not None and (not isinstance(round_ids, list) or not all(isinstance(r, str) and r for r in round_ids)):
        raise InputError("forget: round_ids must be a list of non-empty strings")
    if session_id is not None and (not isinstance(session_id, str) or not session_id):
        raise InputError("forget: session_id must be a non-empty string")
    b = backends(ctx)
    report = ForgetReport(memory_id)
    with lock_memory(ctx, memory_id):
        if everything:
            return _forget_all(b, memory_id, report)
        if session_id is not None:
            ids = [r.round_id for r in b.sql.get_rounds(memory_id, session_id=session_id)]
        else:
            ids = [r.round_id for r in b.sql.get_rounds(memory_id, sorted(set(round_ids or [])))]
        if not ids:
            return report
        _forget_analytic(ctx, b, memory_id, ids, report)
        _forget_retrieval(ctx, b, memory_id, ids, report)
        with b.sql.session() as s:
            report.rounds = s.execute(delete(RoundRecord).where(RoundRecord.memory_id == memory_id, RoundRecord.round_id.in_(ids))).rowcount  # type: ignore[attr-defined]
    return report


def _forget_all(b: Backends, memory_id: str, report: ForgetReport) -> ForgetReport:
    stats = b.sql.stats(memory_id)
    report.rounds, report.observations, report.table_rows = stats["rounds"], stats["observations"], stats["table_rows"]
    report.events, report.episodes, report.topics, report.units = stats["events"], stats["episodes"], stats["topics"], stats["units"]
    report.supports = sum(n for _, n in b.sql.attribute_sets(memory_id))
    report.tables_dropped = [t.name for t in b.sql.tables(memory_id)]
    report.vectors = sum(b.vectors.count(memory_id, space) for space in b.vectors.spaces(memory_id))
    b.sql.drop_memory(memory_id)
    b.vectors.drop_memory(memory_id)
    b.keywords.invalidate(memory_id)
    return report


# -- analytic memory -------------------------------------------------------------------------


def _forget_analytic(ctx: Context, b: Backends, memory_id: str, ids: list[str], report: ForgetReport) -> None:
    sql = b.sql
    for info in sql.tables(memory_id):
        report.table_rows += sql.delete_rows(memory_id, info.name, ids)
    with sql.session() as s:
        counted = s.execute(select(RoundRecord.attributes).where(
            RoundRecord.memory_id == memory_id, RoundRecord.round_id.in_(ids), RoundRecord.attributes.is_not(None))).scalars().all()  # type: ignore[attr-defined,union-attr]
        delta: dict[str, int] = defaultdict(int)
        for attrs in counted:
            delta["|".join(sorted(set(attrs or [])))] += 1
        for rec in s.execute(select(AttributeSetRecord).where(
                AttributeSetRecord.memory_id == memory_id, AttributeSetRecord.key.in_(list(delta)))).scalars():  # type: ignore[attr-defined]
            rec.count = max(0, rec.count - delta[rec.key])
            if rec.count == 0:
                s.delete(rec)
            else:
                s.add(rec)
        report.supports = len(counted)
        report.observations = s.execute(delete(ObservationRecord).where(
            ObservationRecord.memory_id == memory_id, ObservationRecord.round_id.in_(ids))).rowcount  # type: ignore[attr-defined]
        left = set(s.execute(select(ObservationRecord.attribute).where(ObservationRecord.memory_id == memory_id).distinct()).scalars())
        for rec in s.execute(select(AttributeRecord).where(AttributeRecord.memory_id == memory_id)).scalars():
            if rec.name not in left:
                s.delete(rec)
                report.attributes += 1
    # Schemas re-evaluated against the remaining supports.
    index = SupportIndex(sql.attribute_sets(memory_id))
    tables = {t.name: t for t in sql.tables(memory_id)}
    for schema in sql.schemas(memory_id, status=None):
        support = index.support(frozenset(schema.attributes))
        table = schema.table_name if schema.status == "active" else None
        if table in tables and sql.count_rows(memory_id, table) == 0:
            sql.drop_table(memory_id, table)
            report.tables_dropped.append(table)
            with sql.session() as s:
                s.execute(delete(SchemaRecord).where(SchemaRecord.memory_id == memory_id, SchemaRecord.table_name == table))
            continue
        if support == schema.support:
            continue
        if schema.status == "active" or support == 0:
            sql.put_schema(memory_id, schema.attributes, support=support, status=schema.status)
        if table in tables and support < ctx.theta_support:
            report.tables_below_support.append(table)
    with sql.session() as s:  # evolved-from schemas no round supports any more
        s.execute(delete(SchemaRecord).where(SchemaRecord.memory_id == memory_id, SchemaRecord.status != "active", SchemaRecord.support == 0))


# -- retrieval memory ------------------------------------------------------------------------


def _forget_retrieval(ctx: Context, b: Backends, memory_id: str, ids: list[str], report: ForgetReport) -> None:
    rounds = b.sql.get_rounds(memory_id, ids)
    image_ids = [f"{r.round_id}/{im.image_id}" for r in rounds for im in r.images]
    report.vectors += _count_present(b, memory_id, text_space(ROUNDS_SPACE), ids)
    report.units += len(b.sql.units(memory_id, ROUNDS_SPACE, ids))
    b.units.remove(memory_id, ROUNDS_SPACE, ids)
    if image_ids:
        from adamm.nodes.hierarchy import IMAGES_VISUAL_SPACE  # noqa: PLC0415 - keeps import light

        report.vectors += _count_present(b, memory_id, IMAGES_VISUAL_SPACE, image_ids)
        b.vectors.delete(memory_id, IMAGES_VISUAL_SPACE, image_ids)
    events = b.sql.nodes(memory_id, "event", node_ids=[f"ev:{rid}" for rid in ids])
    if not events:
        return
    parents = {e.parent_id for e in events if e.parent_id}
    report.events = len(events)
    _remove_nodes(b, memory_id, events, report)
    _rebuild(ctx, b, memory_id, parents, report, reopen_latest=False)


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
    with b.sql.session() as s:
        last_derived = s.execute(select(RoundRecord.order).where(
            RoundRecord.memory_id == memory_id, RoundRecord.derived == True).order_by(RoundRecord.order.desc()).limit(1)).scalar()  # noqa: E712
        since = min(s.execute(select(RoundRecord.ingested_at).where(
            RoundRecord.memory_id == memory_id, RoundRecord.round_id.in_(list(pending)))).scalars())  # type: ignore[attr-defined]
    tail = [e for e in events if last_derived is None or (e.first_order is not None and e.first_order > last_derived)]
    if not tail:
        return 0
    report = ForgetReport(memory_id)
    touched = {e.parent_id for e in tail if e.parent_id}
    touched |= {n.node_id for n in b.sql.nodes(memory_id) if n.level != "event" and n.updated_at >= since}
    _remove_nodes(b, memory_id, tail, report)
    _rebuild(ctx, b, memory_id, touched, report, reopen_latest=True)
    return len(tail)


def _count_present(b: Backends, memory_id: str, space: str, ids: Sequence[str]) -> int:
    return len(b.vectors.get(memory_id, space, list(ids))) if ids else 0


def _remove_nodes(b: Backends, memory_id: str, nodes: Sequence[NodeRecord], report: ForgetReport) -> None:
    """Delete nodes of any level: SQL record, unit (BM25), text / visual / centroid vectors."""
    from adamm.nodes.hierarchy import PARTS_SPACE, SPACE_OF_LEVEL, centroid_space, part_ids, visual_space  # noqa: PLC0415

    by_level: dict[str, list[str]] = defaultdict(list)
    for n in nodes:
        by_level[n.level].append(n.node_id)
    for level, node_ids in by_level.items():
        space = SPACE_OF_LEVEL[level]
        for vspace in (text_space(space), visual_space(space), centroid_space(space)):
            report.vectors += _count_present(b, memory_id, vspace, node_ids)
            b.vectors.delete(memory_id, vspace, node_ids)
        if level == "event":
            event_parts = [pid for n in nodes if n.level == "event" for pid in part_ids(n)]
            report.vectors += _count_present(b, memory_id, PARTS_SPACE, event_parts)
            b.vectors.delete(memory_id, PARTS_SPACE, event_parts)
        report.units += len(b.sql.units(memory_id, space, node_ids))
        b.units.remove(memory_id, space, node_ids)
        with b.sql.session() as s:
            s.execute(delete(NodeRecord).where(NodeRecord.memory_id == memory_id, NodeRecord.node_id.in_(node_ids)))  # type: ignore[attr-defined]


def _rebuild(ctx: Context, b: Backends, memory_id: str, node_ids: set[str], report: ForgetReport, *, reopen_latest: bool) -> None:
    """Recompute episodes (then their topics) from their remaining children, or remove them."""
    from adamm.nodes.hierarchy import EPISODES, EVENTS, _Hierarchy, _join, _Node, centroid_space, visual_space  # noqa: PLC0415

    nodes = b.sql.nodes(memory_id, node_ids=sorted(node_ids)) if node_ids else []
    episodes = [n for n in nodes if n.level == "episode"]
    topics = {n.node_id for n in nodes if n.level == "topic"} | {e.parent_id for e in episodes if e.parent_id}
    entries: list[dict[str, Any]] = []
    h = _Hierarchy(ctx, b, memory_id, entries)
    h.dirty.clear()
    if reopen_latest:  # the state before the interrupted batch: the latest episode open, in no topic
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
    empty: list[NodeRecord] = []
    for ep in sorted(episodes, key=lambda n: n.first_order if n.first_order is not None else -1):
        kids = b.sql.nodes(memory_id, "event", parent_id=ep.node_id)
        if not kids:
            empty.append(ep)
            report.episodes += 1
            continue
        ids = [k.node_id for k in kids]
        texts = b.vectors.get(memory_id, text_space(EVENTS), ids)
        visuals = b.vectors.get(memory_id, visual_space(EVENTS), ids)
        node = _Node(ep, None, None)
        _recompute(ep, kids)
        centroid, visual, nv = _pool(b, kids, texts, visuals)
        node.centroid, node.visual, node.children, node.visual_children = centroid, visual, len(kids), nv
        ep.has_visual = visual is not None
        node.unit_text = ""
        for k in kids:
            node.unit_text = _join(node.unit_text, k.description)
        if not ep.is_open or ctx.describe_mode == "eager":
            h._describe(node, level="episode", texts=[k.description for k in kids])
        else:
            ep.description = ""
        h.dirty[ep.node_id] = node
        report.episodes_rebuilt += 1
    _flush(b, memory_id, h, empty, report)
    h = _Hierarchy(ctx, b, memory_id, entries)
    h.dirty.clear()
    empty = []
    for tp in b.sql.nodes(memory_id, "topic", node_ids=sorted(t for t in topics if t)):
        kids = b.sql.nodes(memory_id, "episode", parent_id=tp.node_id)
        if not kids:
            empty.append(tp)
            report.topics += 1
            continue
        ids = [k.node_id for k in kids]
        cents = b.vectors.get(memory_id, centroid_space(EPISODES), ids)
        visuals = b.vectors.get(memory_id, visual_space(EPISODES), ids)
        node = _Node(tp, None, None)
        _recompute(tp, kids)
        centroid, visual, nv = _pool(b, kids, cents, visuals)
        node.centroid, node.visual, node.children, node.visual_children = centroid, visual, len(kids), nv
        tp.has_visual = visual is not None
        h._describe(node, level="topic", texts=[k.description for k in kids])
        h.dirty[tp.node_id] = node
        report.topics_rebuilt += 1
    _flush(b, memory_id, h, empty, report)


def _recompute(rec: NodeRecord, kids: Sequence[NodeRecord]) -> None:
    """Dates, orders and images of a node from its children (in history order)."""
    starts = [k.start_time for k in kids if k.start_time is not None]
    ends = [k.end_time for k in kids if k.end_time is not None]
    firsts = [k.first_order for k in kids if k.first_order is not None]
    lasts = [k.last_order for k in kids if k.last_order is not None]
    rec.start_time, rec.end_time = (min(starts) if starts else None), (max(ends) if ends else None)
    rec.first_order, rec.last_order = (min(firsts) if firsts else None), (max(lasts) if lasts else None)
    rec.image_ids = [i for k in kids for i in k.image_ids]


def _pool(b: Any, kids: list[NodeRecord], texts: dict[str, Any], visuals: dict[str, Any]) -> tuple[Any, Any, int]:
    """A parent's text centroid and visual mean from its children's stored vectors (text or
    centroid, and visual where a child has one); a child whose text vector is missing is
    embedded from its description. Returns (centroid, visual, children with a visual)."""
    from adamm.nodes.hierarchy import _running_mean  # noqa: PLC0415 - nodes.hierarchy imports this module

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


def _flush(b: Backends, memory_id: str, h: Any, empty: list[NodeRecord], report: ForgetReport) -> None:
    from adamm.nodes.hierarchy import SPACE_OF_LEVEL, visual_space  # noqa: PLC0415

    if empty:
        _remove_nodes(b, memory_id, empty, report)
    if h.dirty:
        h.flush()
        for n in h.dirty.values():  # a node whose images were all forgotten loses its visual vector
            if n.visual is None:
                b.vectors.delete(memory_id, visual_space(SPACE_OF_LEVEL[n.rec.level]), [n.rec.node_id])
