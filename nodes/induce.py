"""Analytic-memory ingestion, steps 3-5 (AdaMM §3.3): mine patterns -> update schemas ->
materialize tables.

``induce_tables`` walks the pending rounds in history order: it counts the round's attribute
set (Eq. 3-4), lets ``update_schemas`` decide discoveries and evolutions (Eq. 5-7), creates or
widens the tables those imply, back-fills them from earlier rounds, and writes the round's own
row into every table it matches. Idempotent: re-running it over the same rounds moves counts
and rewrites rows, never duplicates them.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from langgraph.runtime import Runtime
from pydantic import BaseModel, Field, ValidationError

from adamm.nodes.backends import Backends, backends
from adamm.nodes.context import Context
from adamm.nodes.cost import timed
from adamm.nodes.models import ModelOutputError, invoke
from adamm.nodes.rules.describer import RULES_PREFIX, ColumnSample, TableDescription, describe_table, infer_type, rules_description, with_span
from adamm.nodes.state import IngestState
from adamm.prompts.describe import DESCRIBE_TABLE_SYSTEM, DESCRIBE_TABLE_USER
from adamm.stores.mining import DEFAULT_CONTEXT_ATTRIBUTES, SupportIndex, update_schemas
from adamm.stores.quantities import snake_case
from adamm.stores.records import Round
from adamm.stores.sql import ColumnSpec, StoreError, cast_value, check_identifier, column_of
from adamm.stores.sql_models import ObservationRecord

log = logging.getLogger(__name__)

# -- steps 3-5: mine patterns, update schemas, materialize tables ------------------------------


#: A categorical field seen in more than this many times as many rounds as a schema's most common
#: measured field is shared with other record types: it does not decide which records fit.
SHARED_FIELD_FACTOR = 2.0


def matches(attributes: frozenset[str], schema: frozenset[str], ratio: float) -> bool:
    """Does a round with these attributes hold a record of this schema?

    Not strict containment: a schema grown by evolution keeps its older rows (the new column is
    NULL there), and a record missing one optional field is still a record.
    """
    return bool(schema) and len(attributes & schema) / len(schema) >= ratio


def induce_tables(state: IngestState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Count each pending round's attribute set, update schemas, and write table rows."""
    ctx = Context.coerce(runtime)
    if not ctx.use_analytic:
        return {}
    memory_id, pending = state["memory_id"], state.get("pending") or []
    b = backends(ctx)
    counts: dict[str, int] = defaultdict(int)
    entries: list[dict[str, Any]] = []
    with timed("induce_tables") as cost:
        if pending:
            pending = [*pending, *_recounted(b.sql, memory_id, set(pending))]
            run = _Induction(ctx, b, memory_id, entries, pending)
            counts["table_rows"] += run.reconcile()
            for rnd in b.sql.get_rounds(memory_id, pending):
                for key, n in run.add_round(rnd).items():
                    counts[key] += n
            counts["table_rows"] += run.fold_variants()
            counts["table_rows"] += run.flush()
        b.sql.add_model_use(memory_id, entries)
    return {"stored": dict(counts), "cost": [cost.to_dict(), *entries]}


def _recounted(sql: Any, memory_id: str, pending: set[str]) -> list[str]:
    """Earlier rounds whose stored observations no longer match the attribute set they were
    counted with - a field discovered later (``nodes/discover.py``) now describes them - so they
    are counted and materialized again. Read from durable state, so a run resumed after a crash
    between extraction and induction finds them as well."""
    current: dict[str, set[str]] = defaultdict(set)
    for rid, attribute in sql.observation_attributes(memory_id):
        current[rid].add(attribute)
    return [rid for rid, (attrs, _order, _ts) in sql.round_attributes(memory_id).items()
            if rid not in pending and frozenset(current.get(rid, ())) != attrs]


#: Mean pairwise all-confidence between a candidate schema's extra fields and an active
#: schema's at which the candidate is that schema's variant: fields shown in at least a third of
#: one record type's records co-occur at least this often; fields of two types do not.
VARIANT_COOCCURRENCE = 0.3


class _Induction:
    """One pass of induction over a batch of rounds, in history order.

    Supports, schemas and discoveries are decided round by round in memory (the support index
    is exact at every step); the batch's own writes - attribute-set counts and table rows - are
    collected and flushed together, so a batch costs a handful of transactions, not several per
    round. Back-fills of tables discovered mid-batch see the batch's earlier rounds through
    ``self.batch_attrs``.
    """

    def __init__(self, ctx: Context, b: Backends, memory_id: str, entries: list[dict[str, Any]], pending: Sequence[str]) -> None:
        self.ctx, self.b, self.sql, self.memory_id, self.entries = ctx, b, b.sql, memory_id, entries
        self.index = SupportIndex(self.sql.attribute_sets(memory_id))
        self.active: dict[frozenset[str], str] = {
            frozenset(s.attributes): s.table_name for s in self.sql.schemas(memory_id) if s.table_name
        }
        # Categorical attributes describe a record without making one: schemas are discovered
        # over the measured attributes, and text fields ride along (``_widen_by_facets``), so a
        # record type is not split by which of its categories a round happened to state.
        self.context = DEFAULT_CONTEXT_ATTRIBUTES | frozenset(a.name for a in self.sql.attributes(memory_id) if a.kind == "text")
        self.obs: dict[str, list[ObservationRecord]] = defaultdict(list)
        for o in self.sql.observations(memory_id, list(pending)):
            self.obs[o.round_id].append(o)
        self.counted = self.sql.counted_attributes(memory_id, list(pending))
        self.batch_attrs: dict[str, tuple[frozenset[str], int | None, datetime | None]] = {}
        self.changes: list[tuple[str, list[str]]] = []
        self.rows: dict[str, dict[tuple[str, int], dict[str, Any]]] = defaultdict(dict)  # table -> (source, record) -> row
        self.deletes: dict[str, list[str]] = defaultdict(list)
        self._units: dict[str, str | None] | None = None
        self._kinds: dict[str, str] = {}
        self.captions: dict[str, str | None] = {}
        self.touched: set[str] = set()  # tables created or widened in this batch

    def add_round(self, rnd: Round) -> dict[str, int]:
        obs = self.obs.get(rnd.round_id, [])
        attrs = frozenset(o.attribute for o in obs)  # the round's records together: what supports count
        old = self.counted.get(rnd.round_id)
        if old != attrs:
            if old is not None:
                self.index.add(old, by=-1)
            self.index.add(attrs)
            self.changes.append((rnd.round_id, sorted(attrs)))
        self.batch_attrs[rnd.round_id] = (attrs, rnd.order, rnd.timestamp)
        self.captions[rnd.round_id] = _captions(rnd)
        counts = {"schemas_discovered": 0, "schemas_evolved": 0, "table_rows": 0}
        if attrs - self.context:
            update = update_schemas(self.index, list(self.active), attrs, theta_s=self.ctx.theta_support,
                                    theta_a=self.ctx.theta_all_conf, theta_e=self.ctx.theta_ext_conf,
                                    context_attributes=self.context, optional_fields=self.ctx.optional_fields)
            for old_schema, new_schema in update.evolved:
                counts["table_rows"] += self._evolve(old_schema, new_schema)
                counts["schemas_evolved"] += 1
            for schema in update.discovered:
                if all(t == "text" for t in self._types(sorted(schema - self.context)).values()):
                    continue  # categorical fields alone ("time_of_day") describe a record, they are none
                variant = self._variant_of(schema) if self.ctx.optional_fields else None
                if variant is not None:
                    # A near-copy of an active schema (the same record with other optional
                    # fields present) widens that table instead of forking a second one.
                    counts["table_rows"] += self._evolve(variant, variant | schema)
                    counts["schemas_evolved"] += 1
                    continue
                counts["table_rows"] += self._discover(schema)
                counts["schemas_discovered"] += 1
        best = self._best_by_record(obs)  # once per round, not once per table
        written, widened = self._widen_by_facets(obs, best)
        counts["table_rows"] += written
        if widened:
            best = self._best_by_record(obs)  # a widened table may now fit a record better
        for schema, table in self.active.items():
            rows = self._rows(rnd.round_id, rnd.order, rnd.timestamp, obs, schema, best)
            for key in [k for k in self.rows[table] if k[0] == rnd.round_id]:
                del self.rows[table][key]
            for row in rows:
                self.rows[table][(rnd.round_id, row["record"])] = row
            if not rows and old is not None and old != attrs:  # an updated round that no longer holds this record
                self.deletes[table].append(rnd.round_id)
        return counts

    def reconcile(self) -> int:
        """Tables whose schema names an attribute merged away since (two labels of one field,
        ``consolidate_attributes``): the schema is renamed, and when it is then a variant of
        another table's the two become one table - one record type, one table. Returns rows
        written."""
        known = self.sql.attributes(self.memory_id)
        names = {a.name for a in known}
        target = {alias: a.name for a in known for alias in a.aliases}
        written = 0
        for schema, table in sorted(self.active.items(), key=lambda st: st[1]):
            if schema <= names or schema not in self.active:
                continue
            renamed = frozenset(a if a in names else target.get(a, "") for a in schema) - {""}
            if not renamed - self.context:
                continue
            self.active.pop(schema)
            into = self._variant_of(renamed)
            if into is not None:
                written += self._fold(schema, table, into, renamed)
                continue
            self.active[schema] = table
            written += self._evolve(schema, renamed)
        return written

    def fold_variants(self) -> int:
        """Tables that are one record type with other optional fields become one table.

        A sparse dashboard shows each record with a different handful of its fields; schemas
        discovered early from such records overlap without one containing the other, and each
        blocks the others' merge at discovery (:meth:`_variant_of` wants a union that holds no
        third schema). Two tables whose *measured* fields are mostly the same (at least two,
        and three quarters of the smaller table's) hold one record type: the table with fewer
        records folds into the one with more. So do two sharing at least two measured fields
        when the smaller's other fields co-occur with the larger's (:meth:`_cooccurrence`, as
        :meth:`_variant_of` judges them). Categorical fields do not count - they ride along
        with any record. Returns rows written."""
        written = 0
        while len(self.active) > 1:
            measured = {schema: self._numeric(schema) for schema in self.active}

            def alike(small: frozenset[str], big: frozenset[str]) -> bool:
                a, b = measured[small], measured[big]
                return _overlaps(a, b) or len(a & b) >= 2 and self._cooccurrence(a - b, b) >= 0.6

            schemas = list(self.active)
            if not any(alike(a, b) or alike(b, a) for i, a in enumerate(schemas) for b in schemas[i + 1:]):
                return written  # the usual case: no history to read
            history = {**self.sql.round_attributes(self.memory_id), **self.batch_attrs}
            held: Counter[frozenset[str]] = Counter(self._best(attrs) for attrs, _, _ in history.values())
            pair = _fold_pair(schemas, held, alike)
            if pair is None:
                return written
            small, big = pair
            written += self._fold(small, self.active.pop(small), big, small)
        return written

    def _fold(self, schema: frozenset[str], table: str, into: frozenset[str], fields: frozenset[str]) -> int:
        """Fold the table of ``schema`` (already out of ``self.active``) into the active schema
        ``into``, widened by ``fields``: one record type, one table. Returns rows written."""
        self.sql.put_schema(self.memory_id, sorted(schema), support=self.index.support(schema), status="merged")
        written = self._evolve(into, into | fields)
        self.sql.drop_table(self.memory_id, table)  # its records are rows of the other table now
        self.rows.pop(table, None)
        self.deletes.pop(table, None)
        self.touched.discard(table)
        return written

    def flush(self) -> int:
        """Write the batch's counts and rows: one transaction for counts, one statement per table."""
        self.sql.count_round_attributes_many(self.memory_id, self.changes)
        written = 0
        for table, sources in self.deletes.items():
            self.sql.delete_rows(self.memory_id, table, sources)
        for table, rows in self.rows.items():
            written += self._upsert(table, list(rows.values()))
        for table in {*self.rows, *self.deletes, *self.touched}:
            self._refresh_description(table)
        return written

    def _refresh_description(self, table: str) -> None:
        """Keep a table's description true as rows arrive: its columns (for the rules
        describer's text) and its live size and date range."""
        info = self.sql.table(self.memory_id, table, missing_ok=True)
        if info is None:
            return
        rows, first, last = self.sql.table_span(self.memory_id, table)
        base = info.description
        if not base or base.startswith(RULES_PREFIX):
            base = rules_description([(c.name, c.unit) for c in info.columns])
        text = with_span(base, rows, first, last)
        if text != info.description:
            self.sql.set_description(self.memory_id, table, text)

    # -- schema changes ------------------------------------------------------------------

    def _discover(self, schema: frozenset[str]) -> int:
        key = "|".join(sorted(schema))
        for orphan in [t for t in self.sql.tables(self.memory_id) if t.schema_key == key]:
            self.sql.drop_table(self.memory_id, orphan.name)  # created by a run that died before recording its schema
        taken = {t.name for t in self.sql.tables(self.memory_id)}
        holders = self._holders(schema)
        desc = self._describe(schema, taken, _first_day(holders))
        columns = [ColumnSpec(column_of(a), desc.types.get(a, "float"), self._unit(a)) for a in sorted(schema)]
        self.sql.create_table(self.memory_id, desc.name, columns, description=desc.description, schema_key="|".join(sorted(schema)))
        self.sql.put_schema(self.memory_id, sorted(schema), support=self.index.support(schema), table_name=desc.name)
        self.active[schema] = desc.name
        self.touched.add(desc.name)
        return self._backfill(schema, desc.name, holders)

    def _evolve(self, old: frozenset[str], new: frozenset[str]) -> int:
        table = self.active.pop(old)
        self.sql.put_schema(self.memory_id, sorted(old), support=self.index.support(old), status="evolved")
        added = sorted(new - old)
        types = self._types(added)
        self.sql.add_columns(self.memory_id, table, [ColumnSpec(column_of(a), types[a], self._unit(a)) for a in added])
        self.sql.put_schema(self.memory_id, sorted(new), support=self.index.support(new), table_name=table)
        self.active[new] = table
        self.touched.add(table)
        return self._backfill(new, table, self._holders(new))

    def _describe(self, schema: frozenset[str], taken: set[str], first_seen: str | None) -> TableDescription:
        samples, texts = self._samples(schema)
        labels = frozenset(n for a in self.sql.attributes(self.memory_id) for n in (a.name, *a.aliases))
        rules = describe_table(samples, taken, first_seen, self.index.support(schema), texts, labels)
        if self.ctx.describer == "rules":
            return rules
        return self._model_describe(samples, taken, rules)

    def _model_describe(self, samples: list[ColumnSample], taken: set[str], fallback: TableDescription) -> TableDescription:
        columns = "\n".join(f"- {s.name}" + (f" [{s.unit}]" if s.unit else "") + f": {s.values[:5]}" for s in samples)
        messages = [("system", DESCRIBE_TABLE_SYSTEM), ("human", DESCRIBE_TABLE_USER.format(columns=columns, examples="-"))]
        try:
            out, entry = invoke(self.ctx, "describer", "induce_tables", messages, schema=DescribeOut)
        except ModelOutputError as exc:
            self.entries.append(exc.cost.to_dict())
            return fallback
        self.entries.append(entry.to_dict())
        return validate_description(out, {s.name for s in samples}, taken, fallback)

    def _samples(self, schema: frozenset[str]) -> tuple[list[ColumnSample], list[str]]:
        """Sampled values per column, and the own words of the sampled records (that name the table)."""
        obs = self.sql.observations(self.memory_id, attributes=sorted(schema))
        values: dict[str, list[float | str]] = defaultdict(list)
        texts: dict[tuple[str, int], str] = {}
        for o in obs[-200:]:
            v = o.value_num if o.value_num is not None else o.value_text
            if v is not None and len(values[o.attribute]) < 20:
                values[o.attribute].append(v)
            texts.setdefault((o.round_id, o.record), o.context or "")
        samples = [ColumnSample(a, self._unit(a), values.get(a, []), self.index.single_support(a)) for a in sorted(schema)]
        return samples, list(texts.values())

    def _types(self, attrs: Sequence[str]) -> dict[str, str]:
        samples = {s.name: s for s in self._samples(frozenset(attrs))[0]}
        return {a: infer_type(samples[a].values) if a in samples else "float" for a in attrs}

    def _unit(self, attribute: str) -> str | None:
        if self._units is None or attribute not in self._units:
            known = self.sql.attributes(self.memory_id)
            self._units = {a.name: a.unit for a in known}
            self._kinds = {a.name: a.kind for a in known}
        return self._units.get(attribute)

    def _numeric(self, schema: frozenset[str]) -> frozenset[str]:
        """The schema's measured attributes (not its categorical ones)."""
        if any(a not in self._kinds for a in schema):
            self._units = None  # an attribute newer than the cache: reload once
            self._unit(next(iter(schema)))
        return frozenset(a for a in schema if self._kinds.get(a) != "text")

    # -- rows ------------------------------------------------------------------------------

    def _holders(self, schema: frozenset[str]) -> dict[str, tuple[int | None, datetime | None]]:
        """Order and time of every round so far that holds a record of the schema: the stored
        history (read once per schema change) plus the batch's own rounds as decided so far."""
        history = {**self.sql.round_attributes(self.memory_id), **self.batch_attrs}
        return {rid: (order, ts) for rid, (attrs, order, ts) in history.items()
                if self._fits(attrs, schema)}

    def _backfill(self, schema: frozenset[str], table: str, rounds: dict[str, tuple[int | None, datetime | None]]) -> int:
        """(Re-)materialize one row per earlier round that holds a record of the schema."""
        if not rounds:
            return 0
        by_round: dict[str, list[ObservationRecord]] = defaultdict(list)
        for start in range(0, len(rounds), 500):  # every attribute: which table a record fits best needs them all
            for o in self.sql.observations(self.memory_id, list(rounds)[start:start + 500]):
                by_round[o.round_id].append(o)
        missing = [rid for rid in rounds if rid not in self.captions]
        for start in range(0, len(missing), 500):
            for r in self.sql.get_rounds(self.memory_id, missing[start:start + 500]):
                self.captions[r.round_id] = _captions(r)
        placed: dict[tuple[str, int], list[frozenset[str]]] = {}
        rows = []
        for rid, (order, ts) in rounds.items():
            best = self._best_by_record(by_round[rid])
            placed.update({(rid, record): schemas for record, schemas in best.items()})
            rows += self._rows(rid, order, ts, by_round[rid], schema, best)
        moved = {(r["source"], r["record"]) for r in rows}
        for other, name in self.active.items():  # a record now better placed here leaves its old table
            if other != schema:
                gone = sorted(k for k in moved if other not in placed.get(k, ()))
                for key in [k for k in self.rows[name] if k in gone]:
                    del self.rows[name][key]
                self.sql.delete_records(self.memory_id, name, gone)
        self.rows[table].update({(r["source"], r["record"]): r for r in rows if r["source"] in self.batch_attrs})
        return self._upsert(table, [r for r in rows if r["source"] not in self.batch_attrs])

    def _best_by_record(self, obs: list[ObservationRecord]) -> dict[int, list[frozenset[str]]]:
        """The schemas each record of a round writes a row to (:meth:`_placements`)."""
        return {r: self._placements(frozenset(o.attribute for o in g), _measured(g)) for r, g in _by_record(obs).items()}

    def _placements(self, attrs: frozenset[str], measured: frozenset[str]) -> list[frozenset[str]]:
        """The schema a record belongs to (:meth:`_best`) and, when it also reports measured
        fields that schema leaves out and those fit another table on their own, that table's:
        one message often tells two kinds of record of one day ("slept 7 hours, 12 min of
        meditation - and lunch at Nando's, £14.20"), which the text did not split. Text fields
        ride along with both."""
        first = self._best(attrs, measured)
        if first is None:
            return []
        rest_measured = measured - first
        if not rest_measured:
            return [first]
        second = self._best(attrs - (measured & first), rest_measured,
                            among=[s for s in self.active if s != first and s & rest_measured])
        return [first] if second is None else [first, second]

    def _rows(self, round_id: str, order: int | None, ts: datetime | None, obs: list[ObservationRecord],
              schema: frozenset[str], best: dict[int, list[frozenset[str]]] | None = None) -> list[dict[str, Any]]:
        """One row per record of the round that holds a record of the schema (``best``: each
        record's schemas, when the caller has it); a record's second table takes only the
        measured fields its first one leaves out."""
        if best is None:
            best = self._best_by_record(obs)
        rows = []
        for record, group in sorted(_by_record(obs).items()):
            placed = best.get(record) or []
            if schema not in placed:
                continue
            taken = frozenset() if schema == placed[0] else _measured(group) & placed[0]
            row: dict[str, Any] = {"source": round_id, "record": record, "order": order, "time": ts, "observed_at": None,
                                   "captions": next((o.context for o in group if o.context), None) or self.captions.get(round_id)}
            for o in group:
                if o.attribute in schema and o.attribute not in taken:
                    row[column_of(o.attribute)] = o.value_num if o.value_num is not None else o.value_text
                    row["observed_at"] = row["observed_at"] or o.observed_at
            rows.append(row)
        return rows

    def _widen_by_facets(self, obs: list[ObservationRecord], best: dict[int, list[frozenset[str]]]) -> tuple[int, bool]:
        """Categorical fields ride along with the record they describe: a record's text values
        (its book, route, station) become columns of the table its measured values chose
        (``best``), once the field has been seen twice - Apriori support alone would never join
        a field shared by several record types (a started book's genre) to the rarer type's
        table. Returns the rows back-filled and whether a table was widened."""
        written, widened = 0, False
        for record, group in _by_record(obs).items():
            attrs, measured = frozenset(o.attribute for o in group), _measured(group)
            schema = (best.get(record) or [None])[0]
            if schema is not None and schema not in self.active:  # widened for an earlier record: place it anew
                schema = self._best(attrs, measured)
            if schema is None or len(measured & schema) < 0.5 * len(self._numeric(schema)):
                continue  # a bare amount in the fill-up table until a table of its own kind appears
            extra = frozenset(o.attribute for o in group if o.value_num is None and o.value_text and o.attribute not in schema
                              and o.attribute not in DEFAULT_CONTEXT_ATTRIBUTES and self.index.single_support(o.attribute) >= 2)
            if extra and schema in self.active:
                written += self._evolve(schema, schema | extra)
                widened = True
        return written, widened

    def _variant_of(self, schema: frozenset[str]) -> frozenset[str] | None:
        """The active schema ``schema`` is a variant of, if any: they share at least three
        quarters of the smaller one's attributes (at least two), or the rounds holding
        ``schema`` mostly (≥ θa) hold three quarters of the active one too (a field such as
        "bike: Gravel" that only one app card shows); the union may contain no other schema."""
        best, best_score = None, 0.0
        supp = self.index.support(schema)
        sets = self.index.distinct_sets()
        for active in self.active:
            shared = len(active & schema)
            score = shared / min(len(active), len(schema)) if shared >= 2 else 0.0
            if score < 0.75 and supp:
                near = sum(n for s, n in sets if schema <= s and len(s & active) >= 0.75 * len(active))
                score = near / supp if near / supp >= self.ctx.theta_all_conf else 0.0
            if score < 0.6 and shared >= 2:
                score = max(score, self._cooccurrence(schema - active, active))
            if score < 0.6:
                continue
            union = active | schema
            if not any(other != active and other <= union for other in self.active) and score > best_score:
                best, best_score = active, score
        return best

    def _cooccurrence(self, extra: frozenset[str], active: frozenset[str]) -> float:
        """How surely the fields ``extra`` belong to the record type of ``active``: a dashboard's
        optional fields, each missing from many records, still appear *with* that type's fields
        (pairwise all-confidence about their presence rates), while another record type's
        fields never do. Scaled so that :data:`VARIANT_COOCCURRENCE` scores as a variant (0.6)."""
        if not extra:
            return 0.0
        pairs = [self.index.all_conf((a, b)) for a in extra for b in active]
        return 0.6 * (sum(pairs) / len(pairs)) / VARIANT_COOCCURRENCE if pairs else 0.0

    def _fits(self, attrs: frozenset[str], schema: frozenset[str]) -> bool:
        """Does a record with these attributes hold a record of the schema? It reports enough
        (``table_match_ratio``) of the schema's *usual* fields - those nearly as common as its
        most common measured one (within θe) - so optional columns (a pulse not always shown,
        pages only for print) never keep a record out of its table, and a lone pulse is no
        reading."""
        if not attrs & schema:
            return False
        singles = {a: self.index.single_support(a) for a in schema}
        measured = [singles[a] for a in self._numeric(schema)]
        top = max(measured or singles.values(), default=0)
        # a categorical field far more common than the schema's measured ones is written by other
        # record types too ("screen"): it rides along, and would otherwise be the only usual field
        ceiling = SHARED_FIELD_FACTOR * top if measured else float("inf")
        usual = frozenset(a for a, n in singles.items() if self.ctx.theta_ext_conf * top <= n <= ceiling) or schema
        if matches(attrs, usual, self.ctx.table_match_ratio):
            return True
        # a record holding every usual measured field and one of the table's categories is one,
        # whichever categories it states: a photo of one picking with its weight and crop, not
        # its bed (a value alone still is none)
        numeric = self._numeric(schema)
        usual_measured = usual & numeric
        return bool(usual_measured) and usual_measured <= attrs and bool(attrs & (schema - numeric))

    def _best(self, attrs: frozenset[str], measured: frozenset[str] | None = None,
              among: Sequence[frozenset[str]] | None = None) -> frozenset[str] | None:
        """The one schema a record belongs to: of those it matches (of ``among``, default every
        active one), the one sharing most of its measured attributes, then most of all its
        attributes (then the one it fills best, then the most supported) - a fill-up with an
        amount goes to the fill-up table, not also to a table of bare amounts, and a started
        book's size is no reading session for sharing the session's book and format."""
        fits = [s for s in (self.active if among is None else among) if self._fits(attrs, s)]
        if not fits:
            return None
        if measured is None:
            return max(fits, key=lambda s: (len(attrs & s), len(attrs & s) / len(s), self.index.support(s), sorted(s)))
        return max(fits, key=lambda s: (len(measured & s), len(measured & s) / max(1, len(self._numeric(s))),
                                        len(attrs & s), len(attrs & s) / len(s), self.index.support(s), sorted(s)))

    def _upsert(self, table: str, rows: list[dict[str, Any]]) -> int:
        """Write rows; a cell that cannot take its column's type is left empty, not fatal."""
        try:
            return self.sql.upsert_rows(self.memory_id, table, rows)
        except StoreError:
            info = self.sql.table(self.memory_id, table)
            assert info is not None
            types = {c.name: c.type for c in info.columns}
            clean = []
            for row in rows:
                fixed = dict(row)
                for key, value in row.items():
                    if key in types and value is not None and not _castable(value, types[key], key):
                        fixed[key] = None
                clean.append(fixed)
            return self.sql.upsert_rows(self.memory_id, table, clean)


#: Two tables whose measured fields overlap by this share of the smaller one's are one type.
FOLD_SHARE = 0.75


def _fold_pair(schemas: Sequence[frozenset[str]], held: Mapping[frozenset[str], int],
               alike: Callable[[frozenset[str], frozenset[str]], bool]) -> tuple[frozenset[str], frozenset[str]] | None:
    """The (smaller, larger) pair of schemas to fold first, or None: of the pairs that are
    ``alike``, the schema holding the fewest records folds into its partner holding the most
    (ties by name, so a rerun folds the same way)."""
    order = sorted(schemas, key=lambda s: (held.get(s, 0), sorted(s)))
    for i, small in enumerate(order):
        partners = [big for big in order[i + 1:] if alike(small, big)]
        if partners:
            return small, partners[-1]
    return None


def _overlaps(a: frozenset[str], b: frozenset[str]) -> bool:
    shared = len(a & b)
    return shared >= 2 and shared >= FOLD_SHARE * min(len(a), len(b))


def _by_record(obs: Sequence[ObservationRecord]) -> dict[int, list[ObservationRecord]]:
    """A round's observations per record of the round."""
    out: dict[int, list[ObservationRecord]] = defaultdict(list)
    for o in obs:
        out[o.record].append(o)
    return out


def _measured(group: Sequence[ObservationRecord]) -> frozenset[str]:
    """The record's measured fields: numbers, and fields shown without a value ("PUL --")."""
    return frozenset(o.attribute for o in group if o.value_num is not None or not o.value_text)


def _first_day(holders: dict[str, tuple[int | None, datetime | None]]) -> str | None:
    """The date of the earliest round holding a record, for the table's description."""
    if not holders:
        return None
    _, ts = min(holders.values(), key=lambda v: v[0] or 0)
    return ts.date().isoformat() if ts else None


def _captions(rnd: Round) -> str | None:
    """The round's image captions, kept on its table row: what the numbers were read from."""
    text = " | ".join(im.caption.strip() for im in rnd.images if im.caption and im.caption.strip())
    return text or None


def _castable(value: Any, ctype: str, column: str) -> bool:
    try:
        cast_value(value, ctype, column)
        return True
    except StoreError:
        return False


# -- describer output validation ---------------------------------------------------------------


class DescribedColumn(BaseModel):
    name: str = Field(max_length=64)
    type: str = Field(max_length=16)


class DescribeOut(BaseModel):
    """The describer model's answer for a discovered schema."""

    name: str = Field(max_length=64)
    description: str = Field(max_length=600)
    columns: list[DescribedColumn] = Field(default_factory=list, max_length=100)


def validate_description(out: DescribeOut, attributes: set[str], taken: set[str], fallback: TableDescription) -> TableDescription:
    """Keep what the model got right; anything invalid falls back to the rules description."""
    name = snake_case(out.name)[:40]
    try:
        check_identifier(name, "table name")
    except (StoreError, ValidationError):
        name = fallback.name
    if name in taken:
        name = fallback.name
    types = dict(fallback.types)
    for col in out.columns:
        # The data decides numeric vs text (a wrong guess would empty the column); within text
        # the model may say a column holds dates.
        if col.name in attributes and fallback.types.get(col.name) == "text" and col.type == "datetime":
            types[col.name] = "datetime"
    description = " ".join(out.description.split()) or fallback.description
    return TableDescription(name, description, types)
