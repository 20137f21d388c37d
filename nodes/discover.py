"""Analytic-memory ingestion, step 2b: discover categorical fields over the whole memory.

A round alone cannot tell a field from a phrase: "the gravel bike" is a bike's kind only
because other records say "the road bike". After a batch is extracted, the memory's records
are read for three kinds of categorical field, each fitted on every record so far:

* slots (:class:`adamm.nodes.rules.slots.SlotModel`): a word the values stand next to;
* bare terms that take turns (:class:`adamm.nodes.rules.terms.TermFields`): "courgettes",
  "potatoes", "Oremko" with no word beside them that repeats;
* labels that are a category's values (:func:`adamm.nodes.rules.terms.labels_as_values`): one
  measured field written as "Squat 115 kg", "Deadlift 165 kg" - the label each value was
  written under is kept on its observation, so this holds after labels are merged.

Their values are read into every record that lacks them - the batch's and, when a field is new
or a value newly known, earlier ones too, so what a table holds does not depend on where
batches were cut. Earlier rounds whose observations change are re-induced by
``induce_tables``, which compares each round's stored observations with the attribute set it
was counted with (durable state: a resumed run finds them too).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from adamm.nodes.rules.observe import DIMENSION_NAMES, GENERIC_WORDS, MONEY_WORDS, QUALIFIERS
from adamm.nodes.rules.slots import SlotModel, content_stem
from adamm.nodes.rules.terms import GENERIC_NAMES, KIND_WORDS, TermFields, label_head, labels_as_values, layout_shape
from adamm.stores.attributes import AttributeResolver, Known, abbreviated, ranges_overlap
from adamm.stores.mining import DEFAULT_CONTEXT_ATTRIBUTES
from adamm.stores.quantities import WORD_NUMBERS, converted, converted_span, snake_case
from adamm.stores.records import Round
from adamm.stores.sql import SqlStore, is_identifier
from adamm.stores.sql_models import ObservationRecord

__all__ = ["fill_slots"]

#: A measured field's name recorded in at least this many records is the memory's label, never a
#: category value; a rarer one may be a category word read as a label.
FIELD_SUPPORT = 5
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
    labelled = _stated(by_record.values())
    # "Squat 115 kg", "Deadlift 165 kg": labels of one measured field that are a category's values
    categories = _label_categories(by_record, labelled, measured_names)
    labelled += _category_values(categories)
    # units and app names neither name nor fill a category; nor, for slots, any measured field's name
    units = {k.unit for k in measured if k.unit and k.unit.isalpha()} | _app_names(texts.values())
    # nor a qualifier ("Week total", "Season total bar"): it says what a value sums, no category
    exclude = {w for name in measured_names for w in name.split("_")} | units | QUALIFIERS
    # ... except the words of labels that are a category's values, which are read bare too:
    # "brisk" of "brisk sollow" in "Sollow done: 8.1 km, brisk.", "flinkery" of "flinkery:
    # $29.55" in "Tesk 6.32 USD flinkery cash"
    exclude -= {w for category, value in _category_values(categories) for w in (*value.split(), category)}
    model = SlotModel().fit([t for t in texts.values() if t], labelled, exclude)
    terms = _term_fields(sql, memory_id, resolver, rounds, by_record, texts, model, labelled, categories,
                         measured, measured_names, units)
    # a slot named by a value of a discovered field ("looked ollun", "rather ollun") is no field
    values = {k for f in terms.fields_ for k in f.values}
    model.drop([s.name for s in model.slots_.values() if content_stem(s.name) in values])
    counted = _counted_categories(by_record.values())
    worded = _counted_in_digits(by_record.values())
    if not model.slots_ and not model.values_ and not terms.fields_ and not categories and not counted and not worded:
        return batch, {}
    found: dict[tuple[str, int], list[ObservationRecord]] = {}
    for key, group in by_record.items():
        text = texts[key]
        if not text or not any(o.value_num is not None for o in group):
            continue  # a slot describes a record of measured values; it makes none
        have = [o.attribute for o in group]
        new = []
        stated = {(o.value_text or "").strip().lower() for o in group if o.value_text}
        read = [(categories[o.attribute][0], without_name(o.label.replace("_", " "), categories[o.attribute][0])) for o in group
                if o.value_num is not None and o.attribute in categories and o.label in categories[o.attribute][1]]
        read += [(name, without_name(value, name)) for name, value, _a, _b in [*model.transform(text, have), *terms.transform(text, have)]]
        # "picked 3 courgettes" made a count named after the courgettes: where "Crop: Courgettes" is
        # stated elsewhere, the noun is the record's crop
        read += [counted[_counted_noun(o)] for o in group if o.value_num is not None and not o.unit and _counted_noun(o) in counted]
        for name, value in read:
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
        # "three coffees" where the memory writes "4 coffees" as a count of coffee
        said = {(o.raw or "").strip().lower() for o in group}
        for attr, value, raw in _worded_counts(text, worded):
            if attr not in have and raw.strip().lower() not in said:  # not what a label of the record already read
                have.append(attr)
                first = group[0]
                new.append(ObservationRecord.model_construct(
                    memory_id=memory_id, round_id=first.round_id, attribute=attr, value_num=value, value_text=None,
                    unit=None, raw=raw, source=f"{SLOT_SOURCE}:{attr}", observed_at=first.observed_at,
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
        # a record that held the field under both names keeps one reading of it
        batch = _one_each(batch)
        by_record = {key: _one_each(group) for key, group in by_record.items()}
        found = {key: [o for o in _one_each([*by_record.get(key, ()), *group]) if o in group] for key, group in found.items()}
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


_FIELDS = ("memory_id", "round_id", "attribute", "value_num", "value_text", "unit", "raw", "source", "observed_at", "record", "context",
           "label")


_APP = re.compile(r"\b([A-Z][\w'’\-]*)\s+app(?:['’]s|s)?\b")


def without_name(value: str, name: str) -> str:
    """A category's value without the field's own noun: "long zarn" of the field ``zarn`` is
    "long", as "the long zarn" fills the slot ``_ zarn`` with "long" - one value, however it is
    written. A value that is only the noun stays. Pure."""
    words, named = value.split(), name.replace("_", " ").split()
    if named and len(words) > len(named) and [content_stem(w) for w in words[-len(named):]] == [content_stem(w) for w in named]:
        return " ".join(words[:-len(named)])
    return value


def _app_names(texts: Iterable[str]) -> set[str]:
    """Names the memory gives an app ("the Renme app's card"): the screenshot's source, no
    category of a record ("Screenshot of the Renme outing table" holds no outing kind)."""
    return {m.group(1).lower() for t in texts for m in _APP.finditer(t)}


def _is_label(o: ObservationRecord, measured_names: set[str]) -> bool:
    """A text value that is the name of a measured field, read as a value by mistake - unless the
    text states it under a label of its own ("Crop: Runner beans" is a crop even where "picked 31
    runner beans" made a count named after it)."""
    return o.value_num is None and bool(o.value_text) and o.attribute not in DEFAULT_CONTEXT_ATTRIBUTES \
        and snake_case(o.value_text) in measured_names and not _stated_under_label(o)


def _stated_under_label(o: ObservationRecord) -> bool:
    """Is the value written under its own label - "Crop: Runner beans", or a table whose header
    says "Crop"? An inferred name ("merchant" of "Seelvin €20.12") is written nowhere."""
    names = {(o.label or "").replace("_", " ").strip().lower(), o.attribute.replace("_", " ").lower()} - {""}
    return any(_says_word(o.raw or "", n) or _says_word(o.context or "", n) for n in names)


@lru_cache(maxsize=65536)
def _says_word(text: str, word: str) -> bool:
    """Does ``text`` hold ``word`` (lower case) as whole words, case-insensitively? Cached: the
    same record texts are asked about on every batch."""
    low = text.lower()
    at = low.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not (low[at - 1].isalnum() or low[at - 1] in "_-")) and \
                (end == len(low) or not (low[end].isalnum() or low[end] in "_-")):
            return True
        at = low.find(word, at + 1)
    return False


def _phrase_stem(name: str) -> str:
    return " ".join(content_stem(w) for w in re.split(r"[_\s]+", name.strip()) if w)


_NUMBER_THEN_WORDS = re.compile(r"^\s*[x×]?\s*\d[\d.,]*\s+([A-Za-z][A-Za-z'’ -]{0,40})$")


def _counted_noun(o: ObservationRecord) -> str:
    """What a count read as "3 courgettes" counts, as a stem ("courgette"), else ""."""
    m = _NUMBER_THEN_WORDS.match(o.raw or "")
    return _phrase_stem(m.group(1)) if m else ""


#: A noun is counted by the memory when at least this many records write "<digits> <noun>" as
#: a unitless value of one measured field.
WORDED_MIN = 2
_DIGITS_THEN_NOUN = re.compile(r"^\s*\d+\s+([A-Za-z][A-Za-z'’-]+)\s*$")
_WORDED = re.compile(r"(?<![\w-])(" + "|".join(sorted(WORD_NUMBERS, key=len, reverse=True)) + r"|zero|no)\s+([A-Za-z][A-Za-z'’-]+)", re.I)


def _counted_in_digits(groups: Iterable[list[ObservationRecord]]) -> dict[str, str]:
    """Nouns the memory counts in digits ("4 coffees" read as ``coffee`` = 4), by stem: {"coffee":
    "coffee"} - the measured field each count belongs to."""
    seen: dict[str, Counter] = defaultdict(Counter)
    for group in groups:
        for o in group:
            if o.value_num is not None and not o.unit and not o.source.startswith(SLOT_SOURCE + ":"):
                m = _DIGITS_THEN_NOUN.match(o.raw or "")
                if m:
                    seen[content_stem(m.group(1))][o.attribute] += 1
    return {stem: attrs.most_common(1)[0][0] for stem, attrs in seen.items()
            if sum(attrs.values()) >= WORDED_MIN and attrs.most_common(1)[0][1] >= 0.8 * sum(attrs.values())}


def _worded_counts(text: str, counted: dict[str, str]) -> list[tuple[str, float, str]]:
    """The counts a record's text writes in words of nouns the memory counts in digits ("three
    coffees", "no coffee"): (field, value, raw), each field once - a field said twice in words is
    left alone (which of the two is the record's is not told)."""
    if not counted or not text:
        return []
    found: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for m in _WORDED.finditer(text):
        attr = counted.get(content_stem(m.group(2)))
        if attr is not None:
            word = m.group(1).lower()
            found[attr].append((float(WORD_NUMBERS.get(word, 0)), m.group(0)))
    return [(attr, hits[0][0], hits[0][1]) for attr, hits in found.items() if len(hits) == 1]


#: A categorical field whose values can name counts holds at least this many distinct values.
COUNTED_MIN_VALUES = 2


def _counted_categories(groups: Iterable[list[ObservationRecord]]) -> dict[str, tuple[str, str]]:
    """Values of text fields that the memory states under their own label ("Crop: Courgettes"),
    by stem: {"courgette": ("crop", "Courgettes")}, each with the form written most often. A count
    named after one of them ("picked 3 courgettes" read as ``courgette`` = 3) is a record of that
    value."""
    forms: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for group in groups:
        for o in group:
            if o.value_num is None and o.value_text and o.attribute not in DEFAULT_CONTEXT_ATTRIBUTES \
                    and not o.source.startswith(SLOT_SOURCE + ":") and _stated_under_label(o):
                value = o.value_text.strip()
                if 0 < len(value) <= 40 and not any(ch.isdigit() for ch in value):
                    forms[o.attribute][_phrase_stem(value)][value] += 1
    out: dict[str, tuple[str, str]] = {}
    for field, stems in forms.items():
        if len(stems) < COUNTED_MIN_VALUES:
            continue
        for stem, written in stems.items():
            if stem and stem not in out:
                out[stem] = (field, written.most_common(1)[0][0])
    return out


def _one_each(group: list[ObservationRecord]) -> list[ObservationRecord]:
    """The observations with the first of each (round, record, attribute) only."""
    seen: set[tuple[str, int, str]] = set()
    out = []
    for o in group:
        key = (o.round_id, o.record, o.attribute)
        if key not in seen:
            seen.add(key)
            out.append(o)
    return out


def _renamed(o: ObservationRecord, names: dict[str, str]) -> ObservationRecord:
    if o.attribute not in names:
        return o
    name = names[o.attribute]
    value = without_name(o.value_text, name) if o.value_text else o.value_text  # "vennick sollow" as a sollow: "vennick"
    return ObservationRecord.model_construct(**{**{f: getattr(o, f) for f in _FIELDS}, "attribute": name, "value_text": value})


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
    stated: Counter = Counter()  # "Type: billable" in every row of a timesheet: a value under its own label
    for key in set(by_record) | set(found):
        group = [*by_record.get(key, ()), *found.get(key, ())]
        for o in group:
            if o.value_num is None and o.value_text and o.attribute not in DEFAULT_CONTEXT_ATTRIBUTES:
                v = o.value_text.strip().lower()
                values[o.attribute][v] += 1
                stated[o.attribute] += _stated_under_label(o)
                text = (o.context or "").lower()
                for m in (x for x in group if x.value_num is not None and x.raw):
                    at = text.find(m.raw.lower())
                    if at >= 0 and v in text[max(0, at - len(v) - 4):at]:
                        before[o.attribute][m.attribute] += 1
    out = {}
    for attribute, counts in values.items():
        total = sum(counts.values())
        value, n = counts.most_common(1)[0]
        if total >= LABEL_MIN and n >= LABEL_SHARE * total and stated[attribute] < 0.5 * total:
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
            together[a].update(b for b, vb in said.items() if b != a and vb != va and without_name(va, b) != vb
                               and without_name(vb, a) != va)
    out: dict[str, str] = {}
    for a, va in values.items():
        total = sum(va.values())
        best, best_shared = None, 0
        for b, vb in values.items():
            # together in a record or two of many (a week view whose name was read into the next
            # day's record) does not make two fields; together often does
            if b == a or together[a][b] > TOGETHER_SLACK * total or b in DEFAULT_CONTEXT_ATTRIBUTES:
                continue
            # "vennick sollow" in a layout's cell is "vennick" of the field ``sollow``, whichever is held more
            named = sum(n for v, n in va.items() if without_name(v, b) != v and without_name(v, b) in vb)
            if sum(vb.values()) <= total and named < MERGE_SHARE * total:
                continue
            shared = sum(n for v, n in va.items() if v in vb or without_name(v, b) in vb)
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


def _stated(groups: Iterable[list[ObservationRecord]]) -> list[tuple[str, str]]:
    """The (attribute, value) pairs of the text values records state themselves."""
    return [(o.attribute, o.value_text) for group in groups for o in group
            if o.value_text and o.value_num is None and o.attribute not in DEFAULT_CONTEXT_ATTRIBUTES]


def _category_values(categories: dict[str, tuple[str, list[str]]]) -> list[tuple[str, str]]:
    """The (category, value) pairs of labels that are a category's values, as words."""
    return [(category, without_name(value.replace("_", " "), category)) for category, values in categories.values() for value in values]


#: Labels that qualify a value or name its dimension, never a category's value.
_IGNORED_LABELS = QUALIFIERS | GENERIC_WORDS | MONEY_WORDS | frozenset(DIMENSION_NAMES.values())


#: Memories up to this many records fit their term fields on every record.
FIT_ALL = 64


def fit_prefix(n: int) -> int:
    """How many of a memory's first ``n`` records the term fields are fitted on: all of a small
    memory, else the largest power of two not above ``n``. Pure."""
    return n if n <= FIT_ALL else 1 << (n.bit_length() - 1)


def _term_fields(sql: SqlStore, memory_id: str, resolver: AttributeResolver, rounds: Sequence[Round],
                 by_record: dict[tuple[str, int], list[ObservationRecord]], texts: dict[tuple[str, int], str],
                 model: SlotModel, labelled: list[tuple[str, str]], categories: dict[str, tuple[str, list[str]]],
                 measured: list[Known], measured_names: set[str], units: set[str]) -> TermFields:
    """Bare recurring terms that take turns ("courgettes", "potatoes"; :class:`TermFields`) over the
    records of measured values, named by what the memory states or slots with one of them.

    Fitted on the memory's first records, a prefix that doubles (:func:`fit_prefix`): the fields
    are refitted - and earlier records rewritten - a logarithmic number of times, not every batch,
    and the prefix is read from durable state (round order), so a resumed run fits the same."""
    order = {rid: o for rid, (_a, o, _t) in sql.round_attributes(memory_id).items()}
    order.update({r.round_id: r.order for r in rounds})
    keys = sorted((key for key in by_record if texts[key] and any(o.value_num is not None for o in by_record[key])),
                  key=lambda k: (order.get(k[0]) is None, order.get(k[0]) or 0, k))
    prefix = keys[:fit_prefix(len(keys))]
    fitted = [texts[key] for key in prefix]
    # named from the same records, so the fields change only when the prefix does
    slotted = [(name, value) for t in fitted for name, value, _a, _b in model.transform(t)]
    stated = _stated(by_record[key] for key in prefix) + _category_values(categories)
    # a generic name the memory states anywhere ("There are four of them: Vashti, ...") reserves
    # that name (below), so its values come along: a field holding only them may still take it
    stated += sorted({(a, v) for a, v in labelled if a in GENERIC_NAMES} - set(stated))
    # a field's label is known by standing next to its numbers (``terms`` leaves those out), so
    # the memory's rarer field names are not left out as such: a category word read as a label
    # ("Oremko thr 14.9") is still that category's value
    held = Counter(o.attribute for group in by_record.values() for o in group if o.value_num is not None)
    values = {v for _, vs in categories.values() for v in vs}
    exclude = units | QUALIFIERS | {w for k in measured if held[k.name] >= FIELD_SUPPORT and k.name not in values and k.dimension is not None
                       for w in k.name.split("_")}
    reserved = frozenset({s.name for s in model.slots_.values()} | {a for a, _ in labelled} | measured_names)
    key = (tuple(fitted), frozenset(exclude), tuple(sorted(set(stated + slotted))), reserved)
    found = _FITTED.get(key)
    if found is None:
        found = TermFields().fit(fitted, resolver.embed, exclude, [*stated, *slotted], reserved=reserved)
        _FITTED[key] = found
        while len(_FITTED) > 8:
            _FITTED.pop(next(iter(_FITTED)))
    return found


#: The last term fields fitted, by everything a fit reads (a pure function of them: the same
#: prefix of the same memory is fitted once, not once per batch).
_FITTED: dict[tuple, TermFields] = {}


def _label_categories(by_record: dict[tuple[str, int], list[ObservationRecord]], labelled: list[tuple[str, str]],
                      reserved: set[str]) -> dict[str, tuple[str, list[str]]]:
    """Measured attributes whose labels are a category's values (``labels_as_values``): attribute
    -> (the category's name, its values). The name is the field the memory states one of the
    values for, else the first free generic one."""
    labels: dict[str, Counter] = defaultdict(Counter)
    values: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    shapes: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    records: Counter = Counter()
    for group in by_record.values():
        for o in group:
            if o.value_num is not None:
                records[o.attribute] += 1
                if o.label:
                    labels[o.attribute][o.label] += 1
                    values[o.attribute][o.label].append(o.value_num)
                    shapes[o.attribute][o.label][layout_shape(o.context or "", o.label)] += 1
    owners: dict[str, Counter] = defaultdict(Counter)
    for attribute, value in labelled:
        owners[snake_case(value)][attribute] += 1
    used = set(reserved) | {a for a, _ in labelled}
    out: dict[str, tuple[str, list[str]]] = {}
    for attribute in sorted(labels):
        found = labels_as_values(labels[attribute], records[attribute], _IGNORED_LABELS, values[attribute], shapes[attribute])
        if not found:
            continue
        votes: Counter = Counter()
        for v in found:
            votes.update(owners.get(v, Counter()))
        head = label_head(found)
        # the labels' shared noun names the field, as the slot "_ sollow" is named: "brisk" fills it
        name = sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] if votes else \
            head if head and head not in used else next((w for w in KIND_WORDS if w not in used), None)
        if name is None:
            continue
        used.add(name)
        out[attribute] = (name, found)
    return out


def merge_value_labels(sql: SqlStore, memory_id: str) -> int:
    """A measured attribute whose label is a category's value and another field's label
    ("Oremko thr 14.0" read as ``oremko_thr``, beside ``thr`` of ``thrn``) is that field: its
    values move there, the value stays what it was (the record's ``who`` is read apart). The
    evidence is the memory's own - the value stored for a text field, the rest of the label a
    measured field's name or alias, their values' ranges alike. Returns how many merged."""
    kinds = merge_kind_named(sql, memory_id)
    attributes = {a.name: a for a in sql.attributes(memory_id)}
    measured = {n: a for n, a in attributes.items() if a.kind != "text"}
    if len(measured) < 2:
        return kinds
    called: dict[str, str] = {}
    for name, a in measured.items():
        for label in (name, *a.aliases):
            called.setdefault(label, name)
    values: set[str] = set()
    holders: dict[str, set[str]] = defaultdict(set)  # a stored value -> the text fields holding it
    for attribute, text in sql.text_values(memory_id):
        if text and attribute not in DEFAULT_CONTEXT_ATTRIBUTES:
            value = snake_case(text)
            if value and value not in measured:
                values.add(value)
            if value:
                holders[value].add(attribute)
    if not values:
        return kinds
    ranges: dict[str, tuple[float, float]] | None = None
    sets: list[frozenset[str]] | None = None
    categories = {content_stem(n): n for n, a in attributes.items() if a.kind == "text"}
    merged = kinds  # counted, so the caller reads the merged labels again
    for name in sorted(measured):
        a = measured[name]
        target = _field_behind(name, (name, *a.aliases), values, called)
        if target is None and (kind := _kind_named(name, values, categories) or _kind_valued(name, holders, attributes)) is not None:
            sets = _record_sets(sql.observations(memory_id)) if sets is None else sets
            # ... never another attribute named after a kind ("raised_bed" is no "fruit_cage")
            named = {n for n in measured if n in values or _kind_named(n, values, categories)}
            target = _measured_with(kind, name, {n: m for n, m in measured.items() if n == name or n not in named}, sets)
        if target is None and len(name.split("_")) == 2:
            sets = _record_sets(sql.observations(memory_id)) if sets is None else sets
            target = _kind_sibling(name, measured, sets)
        if target is None:
            continue
        b = attributes[target]
        ranges = sql.value_ranges(memory_id) if ranges is None else ranges
        if a.dimension and b.dimension and a.dimension != b.dimension \
                or not ranges_overlap(converted_span(ranges.get(name), a.unit, b.unit), ranges.get(target)):
            continue  # "Oremko weight 3 kg" is no threnn
        # "5.7 km long run" joining a distance kept in miles: the values in the field's unit
        sql.merge_attribute(memory_id, name, target, lambda v, u, to=b.unit: converted(v, u, to))
        attributes.pop(name)
        measured.pop(name)
        called = {k: v for k, v in called.items() if v != name}
        merged += 1
    return merged


def merge_kind_named(sql: SqlStore, memory_id: str) -> int:
    """Measured attributes of one dimension, each named after one of its own labels, never in one
    record together, whose labels taken together are a category's values (``labels_as_values``):
    one field written under its kinds. "8.0 km tempo", "4.1 km easy" opening a message made
    ``tempo`` and ``easy``, and each took some of the other kinds' labels since; they merge into
    the one held most (values in its unit), whose labels the next reading makes a category.
    Returns how many merged."""
    attributes = {a.name: a for a in sql.attributes(memory_id)}
    by_dimension: dict[str, list[str]] = defaultdict(list)
    for name, a in attributes.items():
        if a.kind != "text" and a.dimension:
            by_dimension[a.dimension].append(name)
    if not any(len(names) > 1 for names in by_dimension.values()):
        return 0
    observations = [o for o in sql.observations(memory_id) if o.value_num is not None and not o.source.startswith(SLOT_SOURCE + ":")]
    sets = _record_sets(observations)
    merged = 0
    for names in by_dimension.values():
        if len(names) < 2:
            continue
        held = Counter(o.attribute for o in observations if o.attribute in names)
        survivor = max(names, key=lambda n: (held[n], n))
        unit = attributes[survivor].unit
        own = {o.attribute for o in observations if o.attribute in names and o.label == o.attribute}
        members = [n for n in names if n == survivor or n in own and not any(n in s and survivor in s for s in sets)]
        labels: Counter = Counter()
        values: dict[str, list[float]] = defaultdict(list)
        for o in observations:
            if o.attribute in members and o.label:
                labels[o.label] += 1
                values[o.label].append(converted(o.value_num, o.unit, unit))
        found = labels_as_values(labels, sum(held[n] for n in members), _IGNORED_LABELS, values)
        members = [n for n in members if n != survivor and n in found]
        if survivor not in found or not members:
            continue
        for name in members:
            sql.merge_attribute(memory_id, name, survivor, lambda v, u, to=unit: converted(v, u, to))
            merged += 1
    return merged


def _kind_named(name: str, values: set[str], categories: dict[str, str]) -> str | None:
    """The category a measured attribute is named after one value of: ``ossic_brandle`` where
    "ossic" is stored for the field ``brandle`` ("4.5 km ossic brandle": a kind of brandle, its
    distance) - the category's name, else None."""
    words = name.split("_")
    if len(words) < 2 or "_".join(words[:-1]) not in values:
        return None
    return categories.get(content_stem(words[-1]))


def _kind_valued(name: str, holders: dict[str, set[str]], attributes: dict[str, Any]) -> str | None:
    """The category a measured attribute is named after as a whole: ``drag`` where "Drag" is
    stored for the one text field ``type`` ("Drag 5.9km 36:53" beside "Type: Drag | Distance:
    5.9 km") - the value labels the record's kind, not a field - else None."""
    held = {a for a in holders.get(name, ()) if a != name and getattr(attributes.get(a), "kind", None) == "text"}
    return held.pop() if len(held) == 1 else None


def _kind_sibling(name: str, measured: dict[str, Any], sets: Sequence[frozenset[str]]) -> str | None:
    """The measured field of ``name``'s dimension written under two or more other kinds of the
    noun ``name`` ends in, never in one record with it: ``long_run`` ("Did a 12.5 km long run")
    beside a distance labelled "tempo run" and "recovery run" is that distance, of a long run."""
    kind, head = name.split("_")
    found = []
    for other, a in _apart_of_its_dimension(name, measured, sets):
        kinds = {p[0] for p in (label.split("_") for label in (other, *a.aliases))
                 if len(p) == 2 and p[0] != kind and content_stem(p[1]) == content_stem(head)}
        if len(kinds) >= 2:
            found.append(other)
    return found[0] if len(found) == 1 else None


def _record_sets(observations: Iterable[ObservationRecord]) -> list[frozenset[str]]:
    """The attribute set of every record (the batch's too: rounds are counted only later)."""
    out: dict[tuple[str, int], set[str]] = defaultdict(set)
    for o in observations:
        out[(o.round_id, o.record)].add(o.attribute)
    return [frozenset(s) for s in out.values()]


def _apart_of_its_dimension(name: str, measured: dict[str, Any], sets: Sequence[frozenset[str]]) -> Iterable[tuple[str, Any]]:
    """The other measured attributes of ``name``'s dimension never in one record with it: the
    fields a kind-named attribute may be the same quantity as."""
    dimension = measured[name].dimension
    for other, a in measured.items():
        if other != name and a.dimension == dimension and not any(name in s and other in s for s in sets):
            yield other, a


def _measured_with(category: str, name: str, measured: dict[str, Any], sets: Sequence[frozenset[str]]) -> str | None:
    """The measured field of ``name``'s dimension that the category's records hold most often,
    never in one record with ``name``: what the kind-named attribute measures under its own name."""
    best: tuple[int, str] | None = None
    for other, _a in _apart_of_its_dimension(name, measured, sets):
        held = sum(1 for s in sets if other in s and category in s)
        if held and (best is None or (held, other) > best):
            best = (held, other)
    return best[1] if best else None


def _field_behind(name: str, labels: Iterable[str], values: set[str], called: dict[str, str]) -> str | None:
    """The other measured field one of ``labels`` names once a category's value (first or last
    words) is taken off it: ``oremko_thr`` -> the field called ``thr`` (or what it abbreviates)."""
    for label in labels:
        words = label.split("_")
        for cut in range(1, len(words)):
            for value, rest in (("_".join(words[:cut]), "_".join(words[cut:])), ("_".join(words[-cut:]), "_".join(words[:-cut]))):
                if value not in values:
                    continue  # the value first: looking for an abbreviation costs a pass over every label
                other = called.get(rest) or _abbreviation_of(rest, called, name)
                if other and other != name:
                    return other
    return None


def _abbreviation_of(rest: str, called: dict[str, str], name: str) -> str | None:
    """The one other measured field ``rest`` abbreviates ("thr" of ``threnn``), if one."""
    found = {field for label, field in called.items() if field != name and abbreviated(rest, label)}
    return found.pop() if len(found) == 1 else None


def rename_category_fields(sql: SqlStore, memory_id: str) -> int:
    """A measured attribute named after one of its own category values ("pleck" holding the
    weights of plecks, vorns and skarrows) takes its dimension's name (``weight``) when no other
    attribute has it. Returns how many."""
    by_record: dict[tuple[str, int], list[ObservationRecord]] = defaultdict(list)
    for o in sql.observations(memory_id):
        if not o.source.startswith(SLOT_SOURCE + ":"):
            by_record[(o.round_id, o.record)].append(o)
    attributes = {a.name: a for a in sql.attributes(memory_id)}
    renamed = 0
    for attribute, (_category, values) in sorted(_label_categories(by_record, [], set()).items()):
        a = attributes.get(attribute)
        if a is None or attribute not in values or not a.dimension:
            continue
        target = DIMENSION_NAMES.get(a.dimension)
        if not target or target == attribute or target in values:
            continue
        if target in attributes:
            continue  # the dimension's name is another field's ("duration" of a night's sleep, not of a meditation)
        sql.put_attribute(memory_id, target, unit=a.unit, dimension=a.dimension, kind=a.kind)
        sql.merge_attribute(memory_id, attribute, target)
        attributes[target] = a
        renamed += 1
    return renamed
