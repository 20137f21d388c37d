"""Analytic-memory ingestion, step 2 (AdaMM §3.3): extract attributes.

``extract_attributes`` turns each pending round into grounded observations with canonical
names and units - by the extractor role (a model, several rounds a call, behind the rules
gate) or by the offline rules - and ``canonicalize`` merges them into the memory's attribute
vocabulary, so one column never mixes names or units. Re-running it over the same rounds
rewrites the same observations.
"""

from __future__ import annotations

import base64
import dataclasses
import logging
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from adamm.nodes.backends import Backends, backends
from adamm.nodes.context import Context
from adamm.nodes.cost import timed
from adamm.nodes.discover import SLOT_SOURCE, fill_slots, merge_value_labels, rename_category_fields
from adamm.nodes.models import ModelOutputError, ModelUnavailableError, invoke
from adamm.nodes.ocr import ocr_images
from adamm.nodes.rules.labels import extract_round as extract_labels
from adamm.nodes.rules.gate import may_hold_observation
from adamm.nodes.rules.observe import DIMENSION_NAMES, Draft, extract_round
from adamm.nodes.state import IngestState
from adamm.prompts.extract import EXTRACT_BATCH_ROUND, EXTRACT_BATCH_USER, EXTRACT_SYSTEM, EXTRACT_USER
from adamm.stores.attributes import AttributeResolver, Known, consolidation, context_profiles
from adamm.stores.mining import DEFAULT_CONTEXT_ATTRIBUTES
from adamm.stores.quantities import OTHER_READING, canonical_unit, convert, converted, dimension_of, parse_quantity, snake_case
from adamm.stores.records import Round
from adamm.stores.sql import SqlStore, is_identifier
from adamm.stores.sql_models import ObservationRecord

log = logging.getLogger(__name__)

#: Bounds on what one round may contribute, whoever extracted it.
MAX_OBSERVATIONS_PER_ROUND = 200
MAX_VALUE_CHARS = 200


# -- step 2: extract attributes --------------------------------------------------------------


class ExtractedObservation(BaseModel):
    attribute: str = Field(max_length=64)
    value: float | str
    unit: str | None = Field(default=None, max_length=24)
    source: str = Field(default="user", max_length=300)
    evidence: str = Field(default="", max_length=400)
    observed_date: date | None = None
    record: int = Field(default=0, ge=0, le=MAX_OBSERVATIONS_PER_ROUND)  #: which record of the round (an export of 3 days: 0, 1, 2)


class ExtractionOut(BaseModel):
    """The extractor model's answer for one round."""

    observations: list[ExtractedObservation] = Field(default_factory=list, max_length=MAX_OBSERVATIONS_PER_ROUND)


class RoundExtraction(ExtractionOut):
    round: int = Field(ge=1, le=64)
    """The ROUND number of the prompt this item answers."""


class BatchExtractionOut(BaseModel):
    """The extractor model's answer for several rounds: one item per round."""

    rounds: list[RoundExtraction] = Field(default_factory=list, max_length=64)


def extract_attributes(state: IngestState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Observations for every pending round, by the extractor role (a model, or ``rules``)."""
    ctx = Context.coerce(runtime)
    if not ctx.use_analytic:
        return {}
    memory_id, pending = state["memory_id"], state.get("pending") or []
    b = backends(ctx)
    entries: list[dict[str, Any]] = []
    failures = 0
    with timed("extract_attributes") as cost:
        rounds = b.sql.get_rounds(memory_id, pending) if pending else []
        resolver = _resolver(b, memory_id, ctx.attribute_merge_threshold)
        known_before = set(resolver.known)
        fields_before = {a.name for a in b.sql.attributes(memory_id)}
        records: list[ObservationRecord] = []
        ocr = {r.round_id: ocr_images(r) if ctx.ocr else {} for r in rounds}
        asked = {r.round_id for r in rounds
                 if ctx.extractor != "rules" and (not ctx.extract_gate or may_hold_observation(r))}
        for chunk in _chunks(rounds, asked, ctx.extract_batch):
            to_ask = [r for r in chunk if r.round_id in asked]
            found: dict[str, list[Draft]] = {}
            if to_ask:  # the names canonicalized so far are the model's known attributes
                found, call_entries = _model_extract_batch(ctx, to_ask, ocr, sorted(resolver.known))
                entries.extend(call_entries)
                failures += len(to_ask) - len(found)
            for rnd in chunk:
                drafts = found.get(rnd.round_id)
                if drafts is None:  # rules backend, gated out (nothing a model could find), or failed
                    drafts = _rules_extract(ctx, rnd, ocr[rnd.round_id])
                records.extend(canonicalize(b.sql, memory_id, resolver, rnd, drafts))
        gated = len(rounds) - len(asked) if ctx.extractor != "rules" else 0
        records = _fill_and_store(b, memory_id, resolver, rounds, records)
        # labels of one field are merged when a new label appears; a batch of known labels has none
        # ... or a field discovered over the records ("brandle" of "ossic brandle")
        fresh = bool(set(resolver.known) - known_before) or bool({a.name for a in b.sql.attributes(memory_id)} - fields_before)
        merged = consolidate_attributes(b.sql, memory_id, rounds) if fresh else 0
        # "Oremko thr 14.0": a label that is a category's value and a field's label is that
        # field - looked for when a batch brings a new label, as consolidation is
        merged += merge_value_labels(b.sql, memory_id) if fresh else 0
        pending_merge = merged
        for _ in range(3):
            if not pending_merge:
                break
            # labels merged into one field may be a category's values ("Squat 115 kg", "Bench 90 kg"): read again
            rename_category_fields(b.sql, memory_id)
            resolver = _resolver(b, memory_id, ctx.attribute_merge_threshold)
            stated = [o for o in b.sql.observations(memory_id, [r.round_id for r in rounds]) if not o.source.startswith(SLOT_SOURCE + ":")]
            records = _fill_and_store(b, memory_id, resolver, rounds, stated)
            # ... and a category found on that reading ("brandle" of "ossic brandle") may show a
            # measured field named after one of its values
            pending_merge = merge_value_labels(b.sql, memory_id)
            merged += pending_merge
        b.sql.add_model_use(memory_id, entries)  # this run's calls only: `adamm stats` shows model_fallbacks
    return {"stored": {"observations": len(records), "extraction_failures": failures, "attributes_merged": merged,
                       "extractor_skipped": gated},
            "cost": [cost.to_dict(), *entries]}


def _fill_and_store(b: Backends, memory_id: str, resolver: AttributeResolver, rounds: Sequence[Round],
                    records: list[ObservationRecord]) -> list[ObservationRecord]:
    """The batch's observations with the discovered fields' values (``fill_slots``), stored, and
    the earlier rounds they now describe rewritten (``induce_tables`` re-counts them)."""
    records, earlier = fill_slots(b.sql, memory_id, resolver, rounds, records)
    b.sql.add_observations(memory_id, records, round_ids=[r.round_id for r in rounds])
    if earlier:
        b.sql.add_observations(memory_id, [o for obs in earlier.values() for o in obs], round_ids=sorted(earlier))
    return records


def consolidate_attributes(sql: SqlStore, memory_id: str, rounds: Sequence[Round]) -> int:
    """Merge attributes that are one quantity under two labels, to a fixed point: once two
    layouts' labels of one field are one ("pwr" - "power"), their other fields share more
    companions and may merge in turn."""
    merged = 0
    for _ in range(4):
        n = _consolidate_once(sql, memory_id, rounds)
        merged += n
        if not n:
            break
    return merged


def _consolidate_once(sql: SqlStore, memory_id: str, rounds: Sequence[Round]) -> int:
    """Merge attributes that turned out to be one quantity under two labels (see
    ``stores.attributes.consolidation``), table columns included."""
    known = [Known(a.name, a.unit, a.dimension, a.kind) for a in sql.attributes(memory_id)]
    if len(known) < 2:
        return 0
    # The batch's rounds are counted by induce_tables, after this: include them here.
    sets = sql.attribute_sets(memory_id)
    counted = sql.counted_attributes(memory_id, [r.round_id for r in rounds])
    fresh: dict[str, set[str]] = defaultdict(set)
    for o in sql.observations(memory_id, [r.round_id for r in rounds]):
        fresh[o.round_id].add(o.attribute)
    sets = sets + [(frozenset(a), 1) for rid, a in fresh.items() if counted.get(rid) is None]
    # Columns of existing tables may merge too: induce_tables folds a table whose column was
    # merged away into the table of the same record type (``_Induction._reconcile``).
    contexts, spans, records = _record_contexts(sql.observations(memory_id))
    plan = consolidation(known, sets, ranges=sql.value_ranges(memory_id), contexts=contexts, spans=spans, records=records)
    units = {k.name: k.unit for k in known}
    for source, target in plan.items():
        while target in plan:  # chains: a -> b -> c
            target = plan[target]
        sql.merge_attribute(memory_id, source, target, lambda value, unit, to=units[target]: converted(value, unit, to))
    return len(plan)


def _record_contexts(observations: Sequence[ObservationRecord]
                     ) -> tuple[dict[str, dict[str, float]], dict[str, tuple[float, float]], list[frozenset[str]]]:
    """What each attribute's records say (``context_profiles``), the middle of its values (20th
    to 80th percentile) and the attribute set of every record: the evidence that two labels
    with no companion in common are one field."""
    records: dict[tuple[str, int], tuple[set[str], str]] = {}
    values: dict[str, list[float]] = defaultdict(list)
    for o in observations:
        attrs, text = records.setdefault((o.round_id, o.record), (set(), o.context or ""))
        attrs.add(o.attribute)
        if o.value_num is not None and math.isfinite(o.value_num):
            values[o.attribute].append(o.value_num)
    spans = {}
    for a, vs in values.items():
        vs.sort()
        spans[a] = (vs[int(0.2 * (len(vs) - 1))], vs[math.ceil(0.8 * (len(vs) - 1))])
    return context_profiles(records.values()), spans, [frozenset(attrs) for attrs, _ in records.values()]


def _resolver(b: Backends, memory_id: str, threshold: float) -> AttributeResolver:
    known = [Known(a.name, a.unit, a.dimension, a.kind, aliases=set(a.aliases)) for a in b.sql.attributes(memory_id)]
    return AttributeResolver(known, lambda texts: b.text_encoder.encode(texts), threshold, b.sql.attribute_sets(memory_id))


def canonicalize(sql: SqlStore, memory_id: str, resolver: AttributeResolver, rnd: Round, drafts: Iterable[Draft]) -> list[ObservationRecord]:
    """Drafts -> observations with canonical names, in the attribute's unit; one per attribute
    and record.

    Each record of the round is resolved on its own: names already known exactly are placed
    first, so they form the context that disambiguates the bare labels of the same record. A
    field shown without a value ("PUL --") is kept as an empty observation of a known
    attribute, so the record still matches its table and the cell is NULL, never a zero.
    """
    usable = [_as_duration(d) for d in drafts if is_identifier(d.attribute) and (d.value_num is None or math.isfinite(d.value_num))]
    if len(usable) > MAX_OBSERVATIONS_PER_ROUND:
        log.warning("round %s: %d observations, only the first %d kept", rnd.round_id, len(usable), MAX_OBSERVATIONS_PER_ROUND)
        usable = usable[:MAX_OBSERVATIONS_PER_ROUND]
    records: dict[int, list[Draft]] = defaultdict(list)
    for d in usable:
        records[getattr(d, "record", 0)].append(d)
    result: list[ObservationRecord] = []
    for index in sorted(records):
        records[index] = _read_units(resolver, records[index])
        # Labelled values first, then known names: they are the context that places the rest.
        group = sorted(records[index], key=lambda d: (getattr(d, "bare", None) is not None, not resolver.is_known(d.attribute)))
        out: dict[str, ObservationRecord] = {}
        for d in group:
            if getattr(d, "missing", False):
                continue
            kind = "text" if d.value_num is None else "float"
            known_as = resolver.known.get(d.attribute)
            if (d.dimension or "").startswith("unit:") and d.unit and snake_case(d.unit) == d.attribute \
                    and known_as is not None and known_as.dimension is None and known_as.kind == kind:
                d = dataclasses.replace(d, unit=None, dimension=None, bare=None)  # "25 slest": the label, as "Slest 27" writes it
            if d.value_num is not None and _echo(out, d, resolver):
                continue  # a value another part of the round already gave (a reply restating a caption)
            bare = getattr(d, "bare", None)
            # A value named only by its unit ("Total: 7:54", "31.2 km") takes the known attribute
            # of that very unit, else of its dimension, that its record's companions are recorded
            # with - as a bare "Total" label would.
            own = resolver.known.get(d.attribute)
            if bare is not None:
                # Named by its unit alone: the attribute recorded in that unit with the record's
                # companions, else its own default name - never a look-alike of another unit
                # ("76.4 km" is no elevation in metres).
                name = resolver.by_unit(d.dimension, d.unit, frozenset(out), frozenset(out), prefer=d.attribute)
                if name is not None and name != d.attribute and own is not None and own.dimension == d.dimension \
                        and d.attribute not in out and resolver.seen_with(d.attribute, frozenset(out)) > resolver.seen_with(name, frozenset(out)):
                    # "1 h 16 min" beside a book: the session's duration its companions always
                    # have, not the audiobook's length that happens to be recorded in hours
                    name = d.attribute
                if name is None and out:  # as a bare "Total" label would: the unit's attribute its companions have
                    name = resolver.resolve(bare or "total", d.dimension, frozenset(out), exclude=frozenset(out))
                    known = resolver.known.get(name) if name else None
                    if known is None or known.dimension != d.dimension or sum(
                            n for s, n in resolver.sets if name in s and s & frozenset(out)) < 2:
                        name = None  # one record beside it is no habit ("6 h 50 min long" is no session length)
                if name is None and own is not None and own.dimension == d.dimension and d.attribute not in out:
                    name = d.attribute
                if name is None and d.attribute not in resolver.known and d.attribute not in out:
                    name = d.attribute
                    resolver.add(name, d.unit, d.dimension, kind)
                    sql.put_attribute(memory_id, name, unit=d.unit, dimension=d.dimension, kind=kind)
                if name is None:
                    continue
                out[name] = _observation(memory_id, rnd, d, name, resolver.known[name])
                continue
            name = resolver.resolve(d.attribute, d.dimension, frozenset(out), strict=kind == "text" or getattr(d, "strict", False))
            if name in out:
                if _same_value(out[name], d, resolver.known[name]):
                    continue  # the same quantity reported twice (a caption and its echo in the reply)
                name = resolver.resolve(d.attribute, d.dimension, frozenset(out), exclude=frozenset(out), strict=kind == "text" or getattr(d, "strict", False))
            if name is None:
                if d.attribute in out or _echo(out, d, resolver):
                    continue  # one label twice, or a value another part of the round already gave
                name = d.attribute
                resolver.add(name, d.unit, d.dimension, kind)
                sql.put_attribute(memory_id, name, unit=d.unit, dimension=d.dimension, kind=kind)
            elif name != d.attribute and d.attribute not in resolver.known[name].aliases:
                resolver.known[name].aliases.add(d.attribute)
                sql.put_attribute(memory_id, name, unit=None, dimension=None, kind=kind, alias=d.attribute)
            if name in out:
                continue
            label = snake_case(getattr(d, "label", "") or "")
            if label and label != name and label not in resolver.known[name].aliases and len(label) <= 40:
                resolver.known[name].aliases.add(label)  # "pul", "moving_time": what questions may call it
                sql.put_attribute(memory_id, name, unit=None, dimension=None, kind=kind, alias=label)
            out[name] = _observation(memory_id, rnd, d, name, resolver.known[name])
        for d in group:
            if not getattr(d, "missing", False):
                continue
            name = d.attribute if d.attribute in resolver.known else next(
                (k.name for k in resolver.known.values() if d.attribute in k.aliases), None)
            if name is not None and name not in out:
                out[name] = _observation(memory_id, rnd, d, name, resolver.known[name])
        resolver.observe(frozenset(out))
        result.extend(out.values())
    return result


#: "35m" is read as minutes only as a count of minutes people log (under ten hours).
MAX_BARE_MINUTES = 600


def _read_units(resolver: AttributeResolver, group: list[Draft]) -> list[Draft]:
    """A record's values in a unit written alike for two quantities (``OTHER_READING``: "4 oz",
    "35m") take the other reading when the memory's fields say so: fields of the other
    dimension are recorded with the record's other values more often than fields of the
    default one ("35m" beside a threnn and a murl that always come with a duration in minutes)
    - or, for a value alone, the memory has more fields of the other dimension than of its own
    ("took 4 oz" in a log of millilitres)."""
    if not any(d.unit in OTHER_READING and d.value_num is not None for d in group):
        return group
    names = frozenset(resolver.resolve(d.attribute, d.dimension, strict=True) or d.attribute for d in group)

    def fit(dimension: str | None, others: frozenset[str]) -> int:
        fields = [k for k in resolver.known.values() if k.dimension == dimension and k.name not in others]
        if not others:
            return len(fields)
        return max((resolver.seen_with(k.name, others) for k in fields), default=0)

    out = []
    for d in group:
        other = OTHER_READING.get(d.unit or "")
        if other is not None and d.value_num is not None and not (other == "min" and d.value_num > MAX_BARE_MINUTES):
            own = frozenset(n for n in names if n != d.attribute)
            if fit(dimension_of(other), own) > fit(d.dimension, own):
                default = DIMENSION_NAMES.get(d.dimension or "")
                attribute = DIMENSION_NAMES.get(dimension_of(other) or "", d.attribute) if d.attribute == default else d.attribute
                d = dataclasses.replace(d, unit=other, dimension=dimension_of(other), attribute=attribute)
        out.append(d)
    return out


def _echo(out: dict[str, ObservationRecord], d: Draft, resolver: AttributeResolver) -> bool:
    """Is ``d`` a value another part of the round (caption, user, reply) already reported under
    another label? Same unit and value, different part: "61 % in range" and "time in range 61 %"."""
    part = d.source.split("[", 1)[0]
    return any(
        resolver.known[o.attribute].dimension == d.dimension and o.source.split("[", 1)[0] != part
        and _same_value(o, d, resolver.known[o.attribute])
        for o in out.values()
    )


def _same_value(obs: ObservationRecord, d: Draft, known: Known) -> bool:
    if d.value_num is None or obs.value_num is None:
        return (d.value_text or "").strip().lower() == (obs.value_text or "").strip().lower()
    return math.isclose(_observation(obs.memory_id, None, d, known.name, known).value_num or 0.0, obs.value_num,
                        rel_tol=0.02, abs_tol=1e-6)


def _as_duration(d: Draft) -> Draft:
    """"Time 44 min" is a duration, not the round's time: keep it out of the context names."""
    if d.attribute in DEFAULT_CONTEXT_ATTRIBUTES and d.dimension == "duration":
        return dataclasses.replace(d, attribute="duration")
    return d


def _observation(memory_id: str, rnd: Round | None, d: Draft, name: str, known: Known) -> ObservationRecord:
    value_num, unit = d.value_num, d.unit
    if value_num is not None and d.unit and known.unit and d.unit != known.unit:
        try:
            value_num, unit = convert(value_num, d.unit, known.unit), known.unit
        except ValueError:
            pass
    return ObservationRecord.model_construct(  # built by us from checked values: no validation pass (11x faster)
        memory_id=memory_id, round_id=rnd.round_id if rnd else "", attribute=name, value_num=value_num,
        value_text=d.value_text[:MAX_VALUE_CHARS] if d.value_text else None, unit=unit,
        raw=d.raw[:MAX_VALUE_CHARS * 2], source=d.source[:300],
        observed_at=datetime(d.observed_at.year, d.observed_at.month, d.observed_at.day) if d.observed_at else None,
        record=getattr(d, "record", 0), context=getattr(d, "text", "") or None,
        label=snake_case(d.label)[:64] or None if d.label else None,
    )


def _chunks(rounds: list[Round], asked: set[str], size: int) -> Iterator[list[Round]]:
    """Consecutive runs of rounds, each holding at most ``size`` rounds to ask the model about:
    one call per run, and the run canonicalized before the next call is written."""
    chunk: list[Round] = []
    n = 0
    for rnd in rounds:
        if rnd.round_id in asked and n == size:
            yield chunk
            chunk, n = [], 0
        chunk.append(rnd)
        n += rnd.round_id in asked
    if chunk:
        yield chunk


def _rules_extract(ctx: Context, rnd: Round, ocr: dict[str, str]) -> list[Draft]:
    return extract_round(rnd, ocr) if ctx.rules_extractor == "records" else extract_labels(rnd, ocr)


def _images_text(rnd: Round, ocr: dict[str, str]) -> str:
    """A round's images as the extractor reads them: caption and the text read in the image."""
    return "\n".join(
        f"IMAGE {im.image_id}: caption: {im.caption or '-'}" + (f"; text in image: {ocr[im.image_id]}" if im.image_id in ocr else "")
        for im in rnd.images
    )


def _image_part(im: Any) -> dict[str, Any] | None:
    """An image's pixels as a chat content part; None when there are none to read."""
    blob = _image_bytes(im)
    if blob is None:
        return None
    return {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(blob).decode()}}


def _round_block(i: int, rnd: Round, ocr: dict[str, str]) -> str:
    return EXTRACT_BATCH_ROUND.format(n=i, time=rnd.timestamp.isoformat() if rnd.timestamp else "unknown",
                                      user=rnd.user_text, assistant=rnd.assistant_text, images=_images_text(rnd, ocr),
                                      metadata=rnd.metadata or "none")


def _model_extract_batch(ctx: Context, rounds: list[Round], ocr: dict[str, dict[str, str]],
                         known: list[str]) -> tuple[dict[str, list[Draft]], list[dict[str, Any]]]:
    """Several rounds in one structured call; each item is mapped back to its round by number.

    A round the answer leaves out or garbles costs only that round a call of its own; when the
    server is down, no round is retried (the rules read them all). Returns drafts per round id
    for the rounds the model answered, and the calls' ledger entries.
    """
    if len(rounds) == 1:
        drafts, entry, ok = _model_extract(ctx, rounds[0], ocr[rounds[0].round_id], known)
        return ({rounds[0].round_id: drafts} if ok else {}), [entry]
    text = EXTRACT_BATCH_USER.format(known=", ".join(known[:200]) or "none", count=len(rounds),
                                     rounds="\n\n".join(_round_block(i + 1, r, ocr[r.round_id]) for i, r in enumerate(rounds)))
    content: list[dict[str, Any]] = [{"type": "text", "text": text}]
    for i, rnd in enumerate(rounds):
        for im in rnd.images:
            part = _image_part(im)
            if part is not None:
                content += [{"type": "text", "text": f"ROUND {i + 1}, IMAGE {im.image_id}:"}, part]
    messages = [("system", EXTRACT_SYSTEM), {"role": "user", "content": content if len(content) > 1 else text}]
    try:
        out, entry = invoke(ctx, "extractor", "extract_attributes", messages, schema=BatchExtractionOut)
    except ModelUnavailableError as exc:
        log.warning("extractor unavailable for %d rounds (%s); the rules extractor reads them", len(rounds), exc)
        return {}, [exc.cost.to_dict()]
    except ModelOutputError as exc:
        entries, answered = [exc.cost.to_dict()], {}
        out = None
    else:
        entries, answered = [entry.to_dict()], {}
    items = {item.round: item for item in (out.rounds if out is not None else [])}
    for i, rnd in enumerate(rounds):
        item = items.get(i + 1)
        if item is not None:
            answered[rnd.round_id] = [d for d in (_draft_from_model(o, rnd) for o in item.observations) if d is not None]
            continue
        drafts, single, ok = _model_extract(ctx, rnd, ocr[rnd.round_id], known)  # this round alone, once more
        entries.append(single)
        if ok:
            answered[rnd.round_id] = drafts
    return answered, entries


def _model_extract(ctx: Context, rnd: Round, ocr: dict[str, str], known: list[str]) -> tuple[list[Draft], dict[str, Any], bool]:
    """One structured call for one round; ``ok`` is False when the answer was unusable (the
    caller then lets the rules extractor read the round)."""
    text = EXTRACT_USER.format(time=rnd.timestamp.isoformat() if rnd.timestamp else "unknown", known=", ".join(known[:200]) or "none",
                               user=rnd.user_text, assistant=rnd.assistant_text, images=_images_text(rnd, ocr),
                               metadata=rnd.metadata or "none")
    content: list[dict[str, Any]] = [{"type": "text", "text": text}]
    content += [p for p in (_image_part(im) for im in rnd.images) if p is not None]
    messages = [("system", EXTRACT_SYSTEM), {"role": "user", "content": content if len(content) > 1 else text}]
    try:
        out, entry = invoke(ctx, "extractor", "extract_attributes", messages, schema=ExtractionOut)
    except ModelOutputError as exc:
        log.warning("round %s: extractor gave nothing usable (%s); the rules extractor reads it", rnd.round_id, exc)
        return [], exc.cost.to_dict(), False
    return [d for d in (_draft_from_model(o, rnd) for o in out.observations) if d is not None], entry.to_dict(), True


def _image_bytes(im: Any) -> bytes | None:
    if im.data:
        return im.data
    if im.path and Path(im.path).is_file():
        return Path(im.path).read_bytes()
    return None


def _draft_from_model(o: ExtractedObservation, rnd: Round) -> Draft | None:
    """Validate one model observation: a clean name, a bounded value, a provenance that exists."""
    name = snake_case(o.attribute)
    if not name:
        return None
    value_num: float | None = None
    value_text: str | None = None
    unit = canonical_unit(o.unit) if o.unit else None
    if isinstance(o.value, (int, float)) and not isinstance(o.value, bool):
        value_num = float(o.value)
    else:
        q = parse_quantity(str(o.value))
        if q is not None:
            value_num, unit = q.value, q.unit or unit
        else:
            value_text = str(o.value).strip()[:MAX_VALUE_CHARS] or None
    if value_num is None and value_text is None:
        return None
    return Draft(attribute=name, value_num=value_num, value_text=value_text, unit=unit, dimension=dimension_of(unit),
                 raw=(o.evidence or str(o.value))[:MAX_VALUE_CHARS * 2], source=_provenance(o, rnd), observed_at=o.observed_date,
                 record=o.record)


def _provenance(o: ExtractedObservation, rnd: Round) -> str:
    """Locate the model's evidence in the round; an unverifiable source is named coarsely."""
    fields = {"user": ("user_text", rnd.user_text), "assistant": ("assistant_text", rnd.assistant_text)}
    for im in rnd.images:
        fields[f"image:{im.image_id}"] = (f"image:{im.image_id}", im.caption or "")
    label, text = fields.get(o.source, ("user_text", rnd.user_text))
    if o.evidence and text:
        at = text.find(o.evidence)
        if at >= 0:
            return f"{label}[{at}:{at + len(o.evidence)}]"
    return label if o.source in fields else "round"
