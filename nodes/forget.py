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
* every episode and topic that lost a descendant is rebuilt from what remains by the hierarchy
  (``nodes/hierarchy.py``), which also uses that rebuild to repair a run that died half-way
  through writing it - and removed when nothing remains under it.

A forget killed part-way is finished by running it again: the analytic part is one
transaction; units, vectors and events are removed by id (again is harmless); the episodes and
topics above the events are marked ``stale`` before the events go and cleared once rebuilt, so
the rerun rebuilds them though the events are gone; the rounds themselves go last, so the rerun
still finds them.

Other memories are never read or written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from adamm.nodes.backends import Backends, backends
from adamm.nodes.context import Context
from adamm.nodes.hierarchy import IMAGES_VISUAL_SPACE, count_vectors, rebuild_stale, remove_nodes
from adamm.nodes.ingest import ROUNDS_SPACE, InputError, check_memory_id
from adamm.nodes.locking import lock_memory, make_journaled
from adamm.stores import crash
from adamm.stores.mining import SupportIndex
from adamm.stores.units import text_space

__all__ = ["ForgetReport", "forget"]


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

    def add(self, counts: Mapping[str, int]) -> None:
        """Add counts of removed or rebuilt things, keyed by field name."""
        for name, n in counts.items():
            setattr(self, name, getattr(self, name) + n)


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
    with crash.step("forget"), lock_memory(ctx, memory_id):
        make_journaled(b, memory_id)  # an ingest killed after its commit: its vectors first, then their removal
        if everything:
            return _forget_all(b, memory_id, report)
        if session_id is not None:
            ids = [r.round_id for r in b.sql.get_rounds(memory_id, session_id=session_id)]
        else:
            ids = [r.round_id for r in b.sql.get_rounds(memory_id, sorted(set(round_ids or [])))]
        if ids:
            with b.sql.atomic():  # rows, counts, schemas and tables: all of it or none
                _forget_analytic(ctx, b, memory_id, ids, report)
            _forget_retrieval(ctx, b, memory_id, ids, report)
        report.add(rebuild_stale(ctx, b, memory_id))  # what a forget killed before its rebuild left
        if ids:
            report.rounds = b.sql.delete_rounds(memory_id, ids)  # last: a rerun finds the rounds again
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
    report.supports, report.observations, report.attributes = sql.forget_observations(memory_id, ids)
    # Schemas re-evaluated against the remaining supports.
    index = SupportIndex(sql.attribute_sets(memory_id))
    tables = {t.name: t for t in sql.tables(memory_id)}
    for schema in sql.schemas(memory_id, status=None):
        support = index.support(frozenset(schema.attributes))
        table = schema.table_name if schema.status == "active" else None
        if table in tables and sql.count_rows(memory_id, table) == 0:
            sql.drop_table(memory_id, table)
            report.tables_dropped.append(table)
            sql.delete_table_schema(memory_id, table)
            continue
        if support == schema.support:
            continue
        if schema.status == "active" or support == 0:
            sql.put_schema(memory_id, schema.attributes, support=support, status=schema.status)
        if table in tables and support < ctx.theta_support:
            report.tables_below_support.append(table)
    sql.delete_unsupported_schemas(memory_id)  # evolved-from schemas no round supports any more


# -- retrieval memory ------------------------------------------------------------------------


def _forget_retrieval(ctx: Context, b: Backends, memory_id: str, ids: list[str], report: ForgetReport) -> None:
    rounds = b.sql.get_rounds(memory_id, ids)
    image_ids = [f"{r.round_id}/{im.image_id}" for r in rounds for im in r.images]
    report.vectors += count_vectors(b, memory_id, text_space(ROUNDS_SPACE), ids)
    report.units += len(b.sql.units(memory_id, ROUNDS_SPACE, ids))
    b.units.remove(memory_id, ROUNDS_SPACE, ids)
    if image_ids:
        report.vectors += count_vectors(b, memory_id, IMAGES_VISUAL_SPACE, image_ids)
        b.vectors.delete(memory_id, IMAGES_VISUAL_SPACE, image_ids)
    events = b.sql.nodes(memory_id, "event", node_ids=[f"ev:{rid}" for rid in ids])
    if not events:
        return
    # The episodes and topics above are marked before their events go and cleared once rebuilt,
    # so a forget killed in between rebuilds them when rerun (``rebuild_stale``) - the events
    # are gone by then, and nothing else would say which nodes still describe them.
    parents = {e.parent_id for e in events if e.parent_id}
    above = {p for p in b.sql.parents(memory_id, sorted(parents)).values() if p}
    b.sql.set_stale(memory_id, sorted(parents | above))
    report.events = len(events)
    report.add(remove_nodes(b, memory_id, events))
