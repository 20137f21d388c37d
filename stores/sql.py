"""The SQL store: raw rounds, observations, schemas, hierarchy nodes, text units and the analytic
tables induced at run time.

One class, ``SqlStore(url)``, over SQLAlchemy, so the embedded SQLite file and a PostgreSQL
server run the same code. Three rules hold everywhere:

* every read and write takes a ``memory_id`` and filters on it - no method crosses tenants;
* every write of one call is one transaction - a failure leaves nothing half-written;
* identifiers of induced tables and columns are validated against a strict pattern and quoted
  by SQLAlchemy; values are always bound parameters. Text from a model or a user never becomes
  SQL.

Each concern lives in its own module (``sql_rounds``, ``sql_units``, ``sql_nodes``,
``sql_schemas``, ``sql_tables``, ``sql_journal`` over ``sql_base``) so it can be read and
changed alone; callers see one store, composed here, with what spans every concern: counts and
removal of a memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, func, select

from adamm.stores.sql_base import (
    RESERVED_COLUMNS,
    SYSTEM_COLUMNS,
    ColumnSpec,
    ColumnType,
    StoreError,
    TableInfo,
    cast_value,
    check_identifier,
    column_of,
    is_identifier,
    memory_key,
)
from adamm.stores.sql_models import (
    AttributeRecord,
    AttributeSetRecord,
    ModelUseRecord,
    NodeRecord,
    ObservationRecord,
    RoundRecord,
    SchemaRecord,
    UnitRecord,
    UnitVersionRecord,
    VectorJournalRecord,
    utcnow,
)
from adamm.stores.sql_journal import JournalStore
from adamm.stores.sql_nodes import NodeStore
from adamm.stores.sql_rounds import AddRoundsResult, RoundStore
from adamm.stores.sql_schemas import SchemaStore
from adamm.stores.sql_tables import ANALYZE_AFTER_ROWS, TableStore
from adamm.stores.sql_units import UnitStore

__all__ = [
    "ANALYZE_AFTER_ROWS",
    "RESERVED_COLUMNS",
    "SYSTEM_COLUMNS",
    "AddRoundsResult",
    "ColumnSpec",
    "ColumnType",
    "SqlStore",
    "StoreError",
    "TableInfo",
    "cast_value",
    "check_identifier",
    "column_of",
    "is_identifier",
    "memory_key",
]


class SqlStore(RoundStore, UnitStore, NodeStore, SchemaStore, TableStore, JournalStore):
    """All relational state of adamm, for every memory, behind one SQLAlchemy engine."""

    # -- stats and removal ----------------------------------------------------------------

    def stats(self, memory_id: str) -> dict[str, int]:
        """Counts of everything stored for a memory, so nothing lost or duplicated goes unseen."""
        with self.session() as s:
            levels = dict(
                s.execute(select(NodeRecord.level, func.count(NodeRecord.id)).where(NodeRecord.memory_id == memory_id).group_by(NodeRecord.level)).all()
            )
        tables = self.tables(memory_id)
        return {
            "rounds": self.count_rounds(memory_id),
            "observations": self._count(ObservationRecord, memory_id),
            "schemas": len(self.schemas(memory_id)),
            "tables": len(tables),
            "table_rows": sum(self.count_rows(memory_id, t.name) for t in tables),
            "events": int(levels.get("event", 0)),
            "episodes": int(levels.get("episode", 0)),
            "topics": int(levels.get("topic", 0)),
            "units": self.count_units(memory_id),
            **self._model_use_totals(memory_id),
        }

    def add_model_use(self, memory_id: str, entries: Sequence[dict[str, Any]]) -> None:
        """Add one node's model calls (cost-ledger entries with a role) to the memory's totals."""
        totals: dict[tuple[str, str], list[int]] = {}
        for e in entries:
            if e.get("role") and e.get("model"):
                t = totals.setdefault((e["role"], e["model"]), [0, 0, 0, 0])
                for i, name in enumerate(("calls", "tokens_in", "tokens_out", "fallbacks")):
                    t[i] += int(e.get(name) or 0)
        if not totals:
            return
        with self.session() as s:
            for (role, model), (calls, tokens_in, tokens_out, fallbacks) in totals.items():
                row = s.execute(select(ModelUseRecord).where(
                    ModelUseRecord.memory_id == memory_id, ModelUseRecord.role == role, ModelUseRecord.model == model)).scalar_one_or_none()
                if row is None:
                    row = ModelUseRecord(memory_id=memory_id, role=role, model=model)
                    s.add(row)
                row.calls += calls
                row.tokens_in += tokens_in
                row.tokens_out += tokens_out
                row.fallbacks += fallbacks
                row.updated_at = utcnow()

    def model_use(self, memory_id: str) -> list[ModelUseRecord]:
        with self.session() as s:
            return list(s.execute(select(ModelUseRecord).where(ModelUseRecord.memory_id == memory_id)
                                  .order_by(ModelUseRecord.role, ModelUseRecord.model)).scalars())

    def _model_use_totals(self, memory_id: str) -> dict[str, int]:
        rows = self.model_use(memory_id)
        return {"model_calls": sum(r.calls for r in rows), "model_fallbacks": sum(r.fallbacks for r in rows)}

    def drop_memory(self, memory_id: str) -> None:
        """Remove every trace of a memory from SQL (vectors live elsewhere), in one transaction."""
        with self.atomic():
            for info in self.tables(memory_id):
                self.drop_table(memory_id, info.name)
            with self.session() as s:
                for model in (RoundRecord, ObservationRecord, AttributeSetRecord, AttributeRecord, SchemaRecord, NodeRecord, UnitRecord,
                              UnitVersionRecord, ModelUseRecord, VectorJournalRecord):
                    s.execute(delete(model).where(model.memory_id == memory_id))
