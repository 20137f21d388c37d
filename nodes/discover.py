"""Analytic-memory ingestion, step 2b: discover categorical fields over the whole memory.

A round alone cannot tell a field from a phrase: "the gravel bike" is a bike's kind only
because other records say "the road bike". After a batch is extracted, the slots of the
memory's records (:class:`adamm.nodes.rules.slots.SlotModel`, fitted on every record's text and
the labelled text values so far) are read into every record that lacks them - the batch's and,
when a slot is new or a value newly known, earlier ones too, so what a table holds does not
depend on where batches were cut. Earlier rounds whose observations change are re-induced by
``induce_tables``, which compares each round's stored observations with the attribute set it
was counted with (durable state: a resumed run finds them too).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from adamm.nodes.rules.slots import SlotModel
from adamm.stores.attributes import AttributeResolver
from adamm.stores.mining import DEFAULT_CONTEXT_ATTRIBUTES
from adamm.stores.quantities import snake_case
from adamm.stores.records import Round
from adamm.stores.sql import SqlStore, is_identifier
from adamm.stores.sql_models import ObservationRecord

__all__ = ["fill_slots"]

#: Marks an observation read from a discovered slot: its source names the slot's field.
SLOT_SOURCE = "slot"


def fill_slots(sql: SqlStore, memory_id: str, resolver: AttributeResolver, rounds: Sequence[Round],
               batch: list[ObservationRecord]) -> tuple[list[ObservationRecord], dict[str, list[ObservationRecord]]]:
    """The batch's observations with their slot values added, and the earlier rounds whose
    observations change (round id -> all its observations, the new ones included)."""
    batch_ids = {r.round_id for r in rounds}
    stored = [o for o in sql.observations(memory_id) if o.round_id not in batch_ids]
    by_record: dict[tuple[str, int], list[ObservationRecord]] = defaultdict(list)
    for o in stored:
        if not o.source.startswith(SLOT_SOURCE + ":"):  # what the round states itself; slot values are re-read
            by_record[(o.round_id, o.record)].append(o)
    for o in batch:
        by_record[(o.round_id, o.record)].append(o)
    # "Seelvin €20.12" read as paid to Seelvin: a text value that is the name a measured field is
    # known by is that field's label, no category value
    measured = [k for k in resolver.known.values() if k.kind != "text"]
    measured_names = {n for k in measured for n in (k.name, *k.aliases)}
    unlabelled = {key[0] for key, group in by_record.items() if key[0] not in batch_ids
                  and any(_is_label(o, measured_names) for o in group)}
    by_record = {key: [o for o in group if not _is_label(o, measured_names)] for key, group in by_record.items()}
    batch = [o for o in batch if not _is_label(o, measured_names)]
    texts = {key: next((o.context for o in group if o.context), "") for key, group in by_record.items()}
    labelled = [(o.attribute, o.value_text) for group in by_record.values() for o in group
                if o.value_text and o.value_num is None and o.attribute not in DEFAULT_CONTEXT_ATTRIBUTES]
    exclude = {w for name in measured_names for w in name.split("_")}
    exclude |= {k.unit for k in measured if k.unit and k.unit.isalpha()}
    exclude |= _app_names(texts.values())
    model = SlotModel().fit([t for t in texts.values() if t], labelled, exclude)
    if not model.slots_ and not model.values_:
        return batch, {}
    found: dict[tuple[str, int], list[ObservationRecord]] = {}
    for key, group in by_record.items():
        text = texts[key]
        if not text or not any(o.value_num is not None for o in group):
            continue  # a slot describes a record of measured values; it makes none
        have = [o.attribute for o in group]
        new = []
        stated = {(o.value_text or "").strip().lower() for o in group if o.value_text}
        for name, value, _a, _b in model.transform(text, have):
            if value.strip().lower() in stated:
                continue  # a value the record states under a name of its own (merged below, by values)
            attr = _attribute(sql, memory_id, resolver, name)
            if attr is None or attr in have:
                continue
            have.append(attr)
            first = group[0]
            new.append(ObservationRecord.model_construct(
                memory_id=memory_id, round_id=first.round_id, attribute=attr, value_num=None, value_text=value[:200],
                unit=None, raw=value[:400], source=f"{SLOT_SOURCE}:{name}", observed_at=first.observed_at,
                record=first.record, context=first.context))
        if new:
            found[key] = new
    labels = _constant_labels(by_record, found)
    if labels:  # "Stetvy $24.47" read as paid to Stetvy in every record: the label of the amount
        by_record = {key: [o for o in group if o.attribute not in labels] for key, group in by_record.items()}
        found = {key: [o for o in group if o.attribute not in labels] for key, group in found.items()}
        batch = [o for o in batch if o.attribute not in labels]
        for attribute, (value, measured) in labels.items():
            alias = snake_case(value)
            known = resolver.known.get(measured)
            if alias and known is not None and alias not in known.aliases and is_identifier(alias):
                known.aliases.add(alias)
                sql.put_attribute(memory_id, measured, unit=None, dimension=None, kind=known.kind, alias=alias)
    renamed = _merge_by_values(by_record, found)
    if renamed:
        batch = [_renamed(o, renamed) for o in batch]
        by_record = {key: [_renamed(o, renamed) for o in group] for key, group in by_record.items()}
        found = {key: [_renamed(o, renamed) for o in group] for key, group in found.items()}
    out = list(batch) + [o for key, obs in found.items() if key[0] in batch_ids for o in obs]
    before: dict[str, set[tuple[int, str, str | None]]] = defaultdict(set)
    for o in stored:
        before[o.round_id].add((o.record, o.attribute, o.value_text))
    slotted = {o.round_id for o in stored if o.source.startswith(SLOT_SOURCE + ":")}
    keys_of: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for key in by_record:
        keys_of[key[0]].append(key)
    old: dict[str, list[ObservationRecord]] = {}
    merged = {key[0] for key, group in by_record.items() if key[0] not in batch_ids and any(o.attribute in renamed.values() for o in group)}
    merged |= {o.round_id for o in stored if o.attribute in labels} | unlabelled
    for rid in sorted({key[0] for key in found if key[0] not in batch_ids} | slotted | merged):
        obs = [o for key in keys_of[rid] for o in (*by_record[key], *found.get(key, ()))]
        if {(o.record, o.attribute, o.value_text) for o in obs} != before[rid]:
            old[rid] = obs
    return out, old


_FIELDS = ("memory_id", "round_id", "attribute", "value_num", "value_text", "unit", "raw", "source", "observed_at", "record", "context")


_APP = re.compile(r"\b([A-Z][\w'’\-]*)\s+app(?:['’]s|s)?\b")


def _app_names(texts: Iterable[str]) -> set[str]:
    """Names the memory gives an app ("the Renme app's card"): the screenshot's source, no
    category of a record ("Screenshot of the Renme outing table" holds no outing kind)."""
    return {m.group(1).lower() for t in texts for m in _APP.finditer(t)}


def _is_label(o: ObservationRecord, measured_names: set[str]) -> bool:
    return o.value_num is None and bool(o.value_text) and o.attribute not in DEFAULT_CONTEXT_ATTRIBUTES \
        and snake_case(o.value_text) in measured_names


def _renamed(o: ObservationRecord, names: dict[str, str]) -> ObservationRecord:
    if o.attribute not in names:
        return o
    return ObservationRecord.model_construct(**{**{f: getattr(o, f) for f in _FIELDS}, "attribute": names[o.attribute]})


#: A text field with one value in at least this share of its (at least ``LABEL_MIN``) records is
#: no category: it is a word every record writes - a label mistaken for a value.
LABEL_SHARE = 0.9
LABEL_MIN = 5


def _constant_labels(by_record: dict[tuple[str, int], list[ObservationRecord]],
                     found: dict[tuple[str, int], list[ObservationRecord]]) -> dict[str, tuple[str, str]]:
    """Text fields whose value is the same word in (nearly) every record - the label of a measured
    value written before it ("Stetvy $24.47", read as paid to Stetvy). Returns attribute ->
    (the word, the measured attribute it stands before most often)."""
    values: dict[str, Counter] = defaultdict(Counter)
    before: dict[str, Counter] = defaultdict(Counter)
    for key in set(by_record) | set(found):
        group = [*by_record.get(key, ()), *found.get(key, ())]
        for o in group:
            if o.value_num is None and o.value_text and o.attribute not in DEFAULT_CONTEXT_ATTRIBUTES:
                v = o.value_text.strip().lower()
                values[o.attribute][v] += 1
                text = (o.context or "").lower()
                for m in (x for x in group if x.value_num is not None and x.raw):
                    at = text.find(m.raw.lower())
                    if at >= 0 and v in text[max(0, at - len(v) - 4):at]:
                        before[o.attribute][m.attribute] += 1
    out = {}
    for attribute, counts in values.items():
        total = sum(counts.values())
        value, n = counts.most_common(1)[0]
        if total >= LABEL_MIN and n >= LABEL_SHARE * total:
            out[attribute] = (value, before[attribute].most_common(1)[0][0] if before[attribute] else "")
    return out


#: A text field whose values are mostly another's (at least this share of its values), and
#: which never shares a record with it, is that field written another way.
MERGE_SHARE = 0.6
#: ... and shares at most this share of its records with it (misread neighbours).
TOGETHER_SLACK = 0.15


def _merge_by_values(by_record: dict[tuple[str, int], list[ObservationRecord]],
                     found: dict[tuple[str, int], list[ObservationRecord]]) -> dict[str, str]:
    """Text fields that are one field under two names ("with Zotir Wummi" read as a
    ``companion``, "Skeekom: Zotir Wummi" as ``skeekom``): the evidence is the memory's own -
    the same values, never in one record together. Returns old name -> the better-supported
    name."""
    values: dict[str, Counter] = defaultdict(Counter)
    together: dict[str, Counter] = defaultdict(Counter)
    for key in set(by_record) | set(found):
        group = [*by_record.get(key, ()), *found.get(key, ())]
        said = {o.attribute: o.value_text.strip().lower() for o in group if o.value_num is None and o.value_text}
        for o in group:
            if o.value_num is None and o.value_text:
                values[o.attribute][o.value_text.strip().lower()] += 1
        for a, va in said.items():  # the same value under both names is one field read twice, not two
            together[a].update(b for b, vb in said.items() if b != a and vb != va)
    out: dict[str, str] = {}
    for a, va in values.items():
        total = sum(va.values())
        best, best_shared = None, 0
        for b, vb in values.items():
            # together in a record or two of many (a week view whose name was read into the next
            # day's record) does not make two fields; together often does
            if b == a or together[a][b] > TOGETHER_SLACK * total or sum(vb.values()) <= total or b in DEFAULT_CONTEXT_ATTRIBUTES:
                continue
            shared = sum(n for v, n in va.items() if v in vb)
            if shared >= MERGE_SHARE * total and shared > best_shared:
                best, best_shared = b, shared
        if best is not None and a not in DEFAULT_CONTEXT_ATTRIBUTES:
            out[a] = best
    for a in list(out):  # chains: a -> b -> c
        seen = {a}
        while out[a] in out and out[a] not in seen:
            seen.add(out[a])
            out[a] = out[out[a]]
    return out


def _attribute(sql: SqlStore, memory_id: str, resolver: AttributeResolver, name: str) -> str | None:
    """The canonical text attribute a slot's word names (created when new), or None when the
    name is taken by a measured attribute or no valid identifier."""
    attr = snake_case(name)
    if not attr or not is_identifier(attr) or attr in DEFAULT_CONTEXT_ATTRIBUTES:
        return None
    known = resolver.known.get(attr)
    if known is None:
        resolved = resolver.resolve(attr, None, strict=True)
        known = resolver.known.get(resolved) if resolved else None
    if known is not None:
        return known.name if known.kind == "text" else None
    resolver.add(attr, None, None, "text")
    sql.put_attribute(memory_id, attr, unit=None, dimension=None, kind="text")
    return attr
