"""The fixed SQL tables of adamm (SQLModel). Induced analytic tables are built at run time in
``stores/sql_tables.py``; everything here exists from the first start.

Every table carries ``memory_id`` and every unique key starts with it: one user's ids can never
collide with, or be read through, another's.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, Column, Index, LargeBinary, Text, UniqueConstraint
from pydantic import NaiveDatetime
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


class RoundRecord(SQLModel, table=True):
    """A raw round, stored before anything is derived from it, so nothing accepted is lost."""

    __tablename__ = "adamm_rounds"
    __table_args__ = (
        UniqueConstraint("memory_id", "round_id", name="uq_rounds_memory_round"),
        Index("ix_rounds_memory_order", "memory_id", "order"),
        Index("ix_rounds_memory_session", "memory_id", "session_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    memory_id: str = Field(index=True, max_length=256)
    round_id: str = Field(max_length=256)
    session_id: str = Field(max_length=256)
    order: int
    timestamp: NaiveDatetime | None = None
    user_text: str = Field(default="", sa_column=Column(Text, nullable=False))
    assistant_text: str = Field(default="", sa_column=Column(Text, nullable=False))
    images: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    meta: dict[str, Any] = Field(default_factory=dict, sa_column=Column("metadata", JSON, nullable=False))
    content_hash: str = Field(max_length=64)
    ingested_at: NaiveDatetime = Field(default_factory=utcnow)
    attributes: list[str] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    """The round's canonical attribute set as last counted in the attribute-set counts (None:
    not counted yet), so re-deriving a round moves its count instead of adding a second one."""
    derived: bool = False
    """True once every derived structure (observations, tables, vectors, hierarchy) is written;
    a round left False by a crash is picked up again by the next ingestion."""
    stage: int = 0
    """The ingest steps done for the round's current content, each committed atomically with
    its writes (``nodes/locking.py``: 1 extracted, 2 tables induced, 3 in the hierarchy); 0 when
    stored or updated. A resumed run does each step once per round, never again over its own
    committed output."""


class ObservationRecord(SQLModel, table=True):
    """One grounded attribute-value observation with its provenance."""

    __tablename__ = "adamm_observations"
    __table_args__ = (
        Index("ix_obs_memory_round", "memory_id", "round_id"),
        Index("ix_obs_memory_attr", "memory_id", "attribute"),
    )

    id: int | None = Field(default=None, primary_key=True)
    memory_id: str = Field(max_length=256)
    round_id: str = Field(max_length=256)
    attribute: str = Field(max_length=64)
    value_num: float | None = None
    value_text: str | None = Field(default=None, sa_column=Column(Text))
    unit: str | None = Field(default=None, max_length=32)
    raw: str = Field(default="", sa_column=Column(Text, nullable=False))
    source: str = Field(default="", max_length=300)
    """Where in the round: ``user_text[12:31]``, ``assistant_text[...]``, ``image:<id>``, ``metadata:<key>``."""
    observed_at: NaiveDatetime | None = None
    """The date the value is about, when it differs from the round time ("yesterday I slept 5 h")."""
    record: int = 0
    """Which record of the round the value belongs to: an app export of three days is three."""
    context: str | None = Field(default=None, sa_column=Column(Text))
    """The record's own words (its sentences, rows and the round's context), kept on its table row."""
    label: str | None = Field(default=None, max_length=64)
    """The label the value was written under (``deadlift`` of "Deadlift 165 kg"), snake_case; kept
    when the attribute is merged, for labels that turn out to be a category's values."""


class AttributeSetRecord(SQLModel, table=True):
    """How many rounds had exactly this attribute set: the sufficient statistic for supports.

    Supports of any candidate are sums over these distinct sets, so a new round costs one
    upsert here, whatever the history length.
    """

    __tablename__ = "adamm_attribute_sets"
    __table_args__ = (UniqueConstraint("memory_id", "key", name="uq_attrsets_memory_key"),)

    id: int | None = Field(default=None, primary_key=True)
    memory_id: str = Field(max_length=256)
    key: str = Field(sa_column=Column(Text, nullable=False))
    attributes: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    count: int = 0


class SchemaRecord(SQLModel, table=True):
    """A discovered schema (attribute set) and the table that materializes it."""

    __tablename__ = "adamm_schemas"
    __table_args__ = (UniqueConstraint("memory_id", "key", name="uq_schemas_memory_key"),)

    id: int | None = Field(default=None, primary_key=True)
    memory_id: str = Field(max_length=256)
    key: str = Field(sa_column=Column(Text, nullable=False))
    attributes: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    support: int = 0
    status: str = Field(default="active", max_length=16)
    table_name: str | None = Field(default=None, max_length=64)
    created_at: NaiveDatetime = Field(default_factory=utcnow)
    updated_at: NaiveDatetime = Field(default_factory=utcnow)


class TableRecord(SQLModel, table=True):
    """Metadata of an induced analytic table: what the planner reads to pick tables."""

    __tablename__ = "adamm_tables"
    __table_args__ = (UniqueConstraint("memory_id", "name", name="uq_tables_memory_name"),)

    id: int | None = Field(default=None, primary_key=True)
    memory_id: str = Field(max_length=256)
    name: str = Field(max_length=64)
    physical_name: str = Field(max_length=64, unique=True)
    description: str = Field(default="", sa_column=Column(Text, nullable=False))
    columns: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    schema_key: str | None = Field(default=None, sa_column=Column(Text))
    created_at: NaiveDatetime = Field(default_factory=utcnow)


class NodeRecord(SQLModel, table=True):
    """A node of the retrieval hierarchy: an event (one round), an episode or a topic."""

    __tablename__ = "adamm_nodes"
    __table_args__ = (
        UniqueConstraint("memory_id", "node_id", name="uq_nodes_memory_node"),
        Index("ix_nodes_memory_level", "memory_id", "level"),
        Index("ix_nodes_memory_parent", "memory_id", "parent_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    memory_id: str = Field(max_length=256)
    node_id: str = Field(max_length=300)
    level: str = Field(max_length=8)  # event | episode | topic
    parent_id: str | None = Field(default=None, max_length=300)
    round_id: str | None = Field(default=None, max_length=256)
    description: str = Field(default="", sa_column=Column(Text, nullable=False))
    start_time: NaiveDatetime | None = None
    end_time: NaiveDatetime | None = None
    first_order: int | None = None
    last_order: int | None = None
    image_ids: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    is_open: bool = False
    has_visual: bool = False
    stale: bool = False
    """A descendant was removed and this node is not rebuilt yet (set before the removal, cleared
    after the rebuild), so a forget that died in between rebuilds it when rerun."""
    updated_at: NaiveDatetime = Field(default_factory=utcnow)


class UnitRecord(SQLModel, table=True):
    """A retrievable text unit (a round, an event, an episode, a table description ...).

    The source of truth for the keyword index and the key of the vectors: BM25 is rebuilt from
    here, and vectors are keyed by ``unit_id`` within ``space``.
    """

    __tablename__ = "adamm_units"
    __table_args__ = (
        UniqueConstraint("memory_id", "space", "unit_id", name="uq_units_memory_space_unit"),
    )

    id: int | None = Field(default=None, primary_key=True)
    memory_id: str = Field(max_length=256)
    space: str = Field(max_length=48)
    unit_id: str = Field(max_length=300)
    text: str = Field(default="", sa_column=Column(Text, nullable=False))
    meta: dict[str, Any] = Field(default_factory=dict, sa_column=Column("metadata", JSON, nullable=False))
    updated_at: NaiveDatetime = Field(default_factory=utcnow)


class UnitVersionRecord(SQLModel, table=True):
    """A token rewritten by every write to a space's units, so a reader can tell in one
    primary-key lookup whether its BM25 index is stale (counting 20k units took 10 ms)."""

    __tablename__ = "adamm_unit_versions"
    __table_args__ = (UniqueConstraint("memory_id", "space", name="uq_unit_versions_memory_space"),)

    id: int | None = Field(default=None, primary_key=True)
    memory_id: str = Field(max_length=256)
    space: str = Field(max_length=48)
    token: str = Field(max_length=32)


class AttributeRecord(SQLModel, table=True):
    """A canonical attribute of a memory: its unit and kind, fixed by its first observation.

    New attribute names are merged into these (synonyms), and new values are converted to the
    attribute's unit, so one column never mixes hours and minutes.
    """

    __tablename__ = "adamm_attributes"
    __table_args__ = (UniqueConstraint("memory_id", "name", name="uq_attributes_memory_name"),)

    id: int | None = Field(default=None, primary_key=True)
    memory_id: str = Field(max_length=256)
    name: str = Field(max_length=64)
    unit: str | None = Field(default=None, max_length=32)
    dimension: str | None = Field(default=None, max_length=32)
    kind: str = Field(default="float", max_length=8)  # float | int | text
    aliases: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    observations: int = 0
    created_at: NaiveDatetime = Field(default_factory=utcnow)


class ModelUseRecord(SQLModel, table=True):
    """What model roles cost a memory's ingestion, summed per role and model - and how many of
    their calls fell back to the rules, so a memory partly read by the rules says so later
    (``adamm stats``: ``model_fallbacks``), not only in the run's output."""

    __tablename__ = "adamm_model_use"
    __table_args__ = (UniqueConstraint("memory_id", "role", "model", name="uq_model_use_memory_role_model"),)

    id: int | None = Field(default=None, primary_key=True)
    memory_id: str = Field(max_length=256)
    role: str = Field(max_length=32)
    model: str = Field(max_length=256)
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    fallbacks: int = 0
    updated_at: NaiveDatetime = Field(default_factory=utcnow)


class VectorJournalRecord(SQLModel, table=True):
    """A vector write committed with the SQL rows it belongs to, before it is made.

    The vector store (Chroma) has no transactions, so a step that writes rows and vectors
    commits the vectors here, with its rows, and makes them afterwards; a process killed in
    between leaves the entry, and the next step on the memory makes it (``nodes/locking.py``).
    An entry exists only between those two moments.
    """

    __tablename__ = "adamm_vector_journal"
    __table_args__ = (Index("ix_vector_journal_memory", "memory_id", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    memory_id: str = Field(max_length=256)
    op: str = Field(max_length=8)  # upsert | delete
    space: str = Field(max_length=48)
    ids: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    dim: int = 0
    vectors: bytes | None = Field(default=None, sa_column=Column(LargeBinary))  # float32, row-major (len(ids), dim)
    metadatas: list[dict[str, Any] | None] | None = Field(default=None, sa_column=Column(JSON))
