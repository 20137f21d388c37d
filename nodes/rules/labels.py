"""The offline ``labels`` extractor (``rules_extractor = "labels"``): grounded attribute-value
observations from one round, from labelled values of dashboards, log lines and prose.

What it reads: the user text, the assistant text, every image caption, the OCR text of the
images (when given) and the round's scalar metadata. What it returns: :class:`Draft`
observations - an attribute name (snake_case, as written: synonyms are merged later against the
memory's known attributes), a value (a number with its canonical unit, or a short text), the
exact source text of the pair and a provenance span, and the day the value is about when the
text says so.

Precision over recall. Observations that recur across rounds become SQL tables, so a junk
attribute costs more than a missed one. The extractor therefore says nothing unless a value is
*labelled*. Each family of patterns has its module, all scanning one prepared text
(:mod:`~adamm.nodes.rules.labels_text`) and combined by :mod:`~adamm.nodes.rules.labels_scan`
(which sentences count, the dates of the drafts):

* :mod:`~adamm.nodes.rules.labels_records` - ``key: value`` records, label clauses, a label line
  followed by a value line;
* :mod:`~adamm.nodes.rules.labels_prose` - ``key value unit``, ``value unit of key``, logging
  verbs and counts, in sentences and lists;
* :mod:`~adamm.nodes.rules.labels_games` - game results;
* :mod:`~adamm.nodes.rules.labels_keys` and :mod:`~adamm.nodes.rules.labels_pairs` - the label
  of a value and the drafts of a pair; :mod:`~adamm.nodes.rules.labels_words` - their
  vocabulary; :mod:`~adamm.nodes.rules.labels_dates` - day cues.

This module reads a round: each text, then the metadata, and keeps one draft per attribute
and day (see :func:`extract_round`).

Speed and precision on the Mem-Gallery rounds (prose without a digit or a colon leaves after
two regex scans; few of its rounds yield a draft at all) are what
``benchmarks/bench_rules_extractor.py`` prints; on :mod:`adamm.eval.devset` every logged value
but the ambiguous "Score 1 · Score 2" renderings is found with its observed day, and its chatter
rounds yield nothing.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime

from adamm.nodes.rules.labels_dates import find_date_hits
from adamm.nodes.rules.labels_scan import Scanner
from adamm.nodes.rules.labels_text import Draft
from adamm.stores.quantities import canonical_unit, dimension_of, parse_quantity, snake_case
from adamm.stores.records import Round

__all__ = ["Draft", "extract_round", "extract_text"]


def extract_text(text: str, source: str, ref_time: datetime | None) -> list[Draft]:
    """Observations in one text. ``source`` names it ("user_text", "image:<id>", ...); each
    draft's source is ``source[start:end]``, with ``text[start:end] == draft.raw``.
    ``ref_time`` (the round's time) resolves relative and year-less dates."""
    if not isinstance(text, str) or not text.strip():
        return []
    return Scanner(text, source, ref_time).run()


def _metadata_draft(key: str, value: object) -> Draft | None:
    if value is None or isinstance(value, (list, dict, tuple, set)):
        return None
    name = snake_case(key)
    if not name:
        return None
    src = f"metadata:{key}"
    raw = f"{key}: {value}"
    paren = re.search(r"\(([^()]{1,12})\)", key)
    paren_unit = canonical_unit(paren.group(1)) if paren else None
    if isinstance(value, bool):
        return Draft(name, None, "true" if value else "false", None, None, raw, src)
    if isinstance(value, (int, float)):
        v = float(value)
        if not math.isfinite(v):
            return None
        return Draft(name, v, None, paren_unit, dimension_of(paren_unit), raw, src)
    s = str(value).strip()
    if not s or len(s) > 120:
        return None
    q = parse_quantity(s)
    if q is not None:
        unit = q.unit or paren_unit
        return Draft(name, q.value, None, unit, q.dimension or dimension_of(unit), raw, src)
    hits = find_date_hits(s, None)
    if len(hits) == 1 and hits[0].start == 0 and hits[0].end == len(s) and hits[0].value:
        return Draft(name, None, hits[0].value.isoformat(), None, "date", raw, src)
    return Draft(name, None, s, None, None, raw, src)


def _same_value(a: Draft, b: Draft) -> bool:
    if a.value_num is not None and b.value_num is not None:
        if a.unit == b.unit or a.unit is None or b.unit is None:
            return math.isclose(a.value_num, b.value_num, rel_tol=1e-6, abs_tol=1e-9)
        return False
    if a.value_text is not None and b.value_text is not None:
        return a.value_text.strip().lower() == b.value_text.strip().lower()
    return False


def _field(source: str) -> str:
    return source.split("[", 1)[0]


def extract_round(rnd: Round, ocr: dict[str, str] | None = None, *,
                  include_assistant: bool = True) -> list[Draft]:
    """All observations of one round: images (caption, then OCR text, image by image), then the
    user's text, the assistant's text and the metadata.

    Image and assistant values with no date of their own take the only date the user's text
    names, if it names exactly one ("Here's yesterday's sleep" + a screenshot).

    Duplicates go: the same attribute (for the same day) twice from one source keeps the first;
    the same value from two sources keeps the earlier one in that order (an image beats the
    text that repeats it). Different values from different sources are all kept, the preferred
    one first.
    """
    ref = rnd.timestamp
    found: list[Draft] = []
    user: list[Draft] = []
    user_anchor = None
    if rnd.user_text.strip():
        scan = Scanner(rnd.user_text, "user_text", ref)
        user = scan.run()
        days = {h.anchor for h in scan.dates
                if not h.used and h.kind in ("day", "rel") and h.anchor is not None}
        if len(days) == 1:
            user_anchor = next(iter(days))
    for im in rnd.images:
        texts = []
        if im.caption and im.caption.strip():
            texts.append((im.caption, f"image:{im.image_id}"))
        if ocr and ocr.get(im.image_id):
            texts.append((ocr[im.image_id], f"ocr:{im.image_id}"))
        for text, source in texts:
            for d in extract_text(text, source, ref):
                if d.observed_at is None:
                    d.observed_at = user_anchor
                found.append(d)
    found.extend(user)
    if include_assistant and rnd.assistant_text:
        for d in extract_text(rnd.assistant_text, "assistant_text", ref):
            if d.observed_at is None:
                d.observed_at = user_anchor  # the assistant speaks of what the user showed
            found.append(d)
    for key, value in rnd.metadata.items():
        d = _metadata_draft(key, value)
        if d is not None:
            found.append(d)
    kept: list[Draft] = []
    by_key: dict[tuple[str, date | None], list[Draft]] = {}
    for d in found:
        group = by_key.setdefault((d.attribute, d.observed_at), [])
        if any(_field(g.source) == _field(d.source) or _same_value(g, d) for g in group):
            continue
        group.append(d)
        kept.append(d)
    return kept
