"""Hierarchy nodes (topics, episodes, events) in SQL.

Besides whole records, the reads here return only ids, parents or round ids: retrieval narrows
and drills down through thousands of nodes per query, and reading their descriptions for that
would cost more than the search itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, func, or_, select, update

from adamm.stores.sql_base import StoreBase
from adamm.stores.sql_models import NodeRecord, utcnow


#: What ``put_nodes`` writes of a node (NodeRecord's attributes are named as its columns).
_NODE_COLUMNS = tuple(c.name for c in NodeRecord.__table__.columns if c.name not in ("id", "memory_id", "updated_at"))  # type: ignore[attr-defined]


class NodeStore(StoreBase):
    """Topic, episode and event records of every memory."""

    def put_nodes(self, memory_id: str, nodes: Sequence[NodeRecord]) -> None:
        """Insert or update hierarchy nodes by ``node_id``, in one transaction."""
        if not nodes:
            return
        now = utcnow()
        rows = {n.node_id: {**{c: getattr(n, c) for c in _NODE_COLUMNS}, "updated_at": now} for n in nodes}  # the last wins
        with self.session() as s:
            self._upsert_rows(s, NodeRecord, {"memory_id": memory_id}, "node_id", list(rows.values()))

    def nodes(
        self,
        memory_id: str,
        level: str | None = None,
        *,
        node_ids: Sequence[str] | None = None,
        parent_id: str | None = None,
        parent_ids: Sequence[str] | None = None,
        open_only: bool = False,
        newest: int | None = None,
    ) -> list[NodeRecord]:
        """Node records in history order, optionally narrowed; ``newest``: only the last that
        many (a topic's description reads its recent episodes, not all of them)."""
        q = select(NodeRecord).where(NodeRecord.memory_id == memory_id)
        if parent_ids is not None:
            q = q.where(NodeRecord.parent_id.in_(list(parent_ids)))  # type: ignore[attr-defined]
        level_in_sql = level is not None and (node_ids is None or newest is not None)
        if level_in_sql:
            q = q.where(NodeRecord.level == level)
        if node_ids is not None:
            # by id alone, so the (memory, node id) index is used, not a scan of the level
            q = q.where(NodeRecord.node_id.in_(list(node_ids)))  # type: ignore[attr-defined]
        if parent_id is not None:
            q = q.where(NodeRecord.parent_id == parent_id)
        if open_only:
            q = q.where(NodeRecord.is_open == True)  # noqa: E712
        if newest is not None:
            q = q.order_by(NodeRecord.first_order.desc(), NodeRecord.id.desc()).limit(max(0, int(newest)))  # type: ignore[union-attr]
        else:
            q = q.order_by(NodeRecord.first_order, NodeRecord.id)
        with self.session() as s:
            found = list(s.execute(q).scalars())
        if newest is not None:
            found.reverse()
        return found if level is None or level_in_sql else [n for n in found if n.level == level]

    def node_ids(self, memory_id: str, level: str, *, parent_ids: Sequence[str] | None = None,
                 starts_by: datetime | None = None, ends_from: datetime | None = None) -> list[str]:
        """Ids of a level's nodes, optionally under given parents and overlapping a time range
        (starting by ``starts_by``, ending from ``ends_from``; a node without times overlaps
        everything) - the light read that narrows a search, without the nodes' text."""
        q = select(NodeRecord.node_id).where(NodeRecord.memory_id == memory_id, NodeRecord.level == level)
        if parent_ids is not None:
            q = q.where(NodeRecord.parent_id.in_(list(parent_ids)))  # type: ignore[attr-defined]
        if starts_by is not None:
            q = q.where(or_(NodeRecord.start_time.is_(None), NodeRecord.start_time <= starts_by))  # type: ignore[union-attr]
        if ends_from is not None:
            q = q.where(or_(NodeRecord.end_time.is_(None), NodeRecord.end_time >= ends_from))  # type: ignore[union-attr]
        with self.session() as s:
            return list(s.execute(q).scalars())

    def child_counts(self, memory_id: str, parent_id: str) -> tuple[int, int]:
        """How many children a node has, and how many of them have a visual vector: what a
        topic's running means need, without reading its episodes."""
        q = select(func.count(NodeRecord.id), func.count(NodeRecord.id).filter(NodeRecord.has_visual == True)).where(  # noqa: E712
            NodeRecord.memory_id == memory_id, NodeRecord.parent_id == parent_id)
        with self.session() as s:
            n, visual = s.execute(q).one()
        return int(n or 0), int(visual or 0)

    def parents(self, memory_id: str, node_ids: Sequence[str]) -> dict[str, str | None]:
        """``node_id -> parent_id`` for the given nodes."""
        q = select(NodeRecord.node_id, NodeRecord.parent_id).where(
            NodeRecord.memory_id == memory_id, NodeRecord.node_id.in_(list(node_ids)))  # type: ignore[attr-defined]
        with self.session() as s:
            return {n: p for n, p in s.execute(q)}

    def child_rounds(self, memory_id: str, parent_ids: Sequence[str], limit: int) -> list[str]:
        """Round ids of the events under the given episodes, the first ``limit`` in history
        order - the light read a retrieved episode or topic unit needs."""
        q = (select(NodeRecord.round_id).where(NodeRecord.memory_id == memory_id,
                                               NodeRecord.parent_id.in_(list(parent_ids)),  # type: ignore[attr-defined]
                                               NodeRecord.round_id.is_not(None))  # type: ignore[union-attr]
             .order_by(NodeRecord.first_order, NodeRecord.id).limit(max(0, int(limit))))
        with self.session() as s:
            return list(s.execute(q).scalars())

    def delete_nodes(self, memory_id: str, node_ids: Sequence[str]) -> int:
        """Delete node records by id (their units and vectors are the caller's to remove)."""
        with self.session() as s:
            return s.execute(delete(NodeRecord).where(NodeRecord.memory_id == memory_id, NodeRecord.node_id.in_(list(node_ids)))).rowcount  # type: ignore[attr-defined]

    def set_stale(self, memory_id: str, node_ids: Sequence[str], stale: bool = True) -> None:
        """Mark nodes as having lost a descendant that they still describe (before the loss),
        or as rebuilt (after every write of the rebuild): what ``forget`` finishes when rerun."""
        if not node_ids:
            return
        with self.session() as s:
            s.execute(update(NodeRecord).where(NodeRecord.memory_id == memory_id, NodeRecord.node_id.in_(list(node_ids)))  # type: ignore[attr-defined]
                      .values(stale=stale))

    def stale_node_ids(self, memory_id: str) -> list[str]:
        """Ids of the nodes marked stale and not rebuilt yet."""
        with self.session() as s:
            return list(s.execute(select(NodeRecord.node_id).where(NodeRecord.memory_id == memory_id, NodeRecord.stale == True)  # noqa: E712
                                  .order_by(NodeRecord.id)).scalars())
