"""The text a ``labels`` scan reads, prepared once for every pattern family, and its drafts.

Records, prose and games all look at the same things, so they are found once per text: the
quantities (:func:`adamm.stores.quantities.find_quantities`, plus blood-pressure pairs such as
``BP 128/82``), the dates, the sentences and their clauses. Values that can never be one are
marked here - a range (``15-20 minutes``), a hyphenated adjective (``a 30-minute walk``), a
clock time of day (``at 7:30``, ``7 pm``), a list marker (``1.``), a spelled-out number (only a
logging verb takes one) - and a masked copy of the text (dates and values blanked) lets the
word scans and hedge checks step over them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from adamm.nodes.rules.labels_dates import DateHit, find_date_hits
from adamm.nodes.rules.labels_words import ABBREV, NUMBER_WORDS
from adamm.stores.quantities import Quantity, find_quantities


@dataclass
class Draft:
    """One observation before canonicalization against the memory's known attributes."""

    attribute: str  #: snake_case name, as written (no synonym merging here)
    value_num: float | None
    value_text: str | None  #: categorical values ("won", "rainy"), ISO dates, or no number
    unit: str | None  #: canonical unit symbol (see :mod:`adamm.stores.quantities`)
    dimension: str | None  #: "duration", "currency:USD", "date", "time_of_day", ...
    raw: str  #: the source text of the whole pair, e.g. "Deep sleep: 1 h 10 min"
    source: str  #: "user_text[12:31]", "image:<id>[5:30]", "ocr:<id>[..]", "metadata:<key>"
    observed_at: date | None = None  #: the day the value is about, when the text says so


_SENT_BREAK = re.compile(r"[.!?。！？]+[\"'”’)\]]*(?=\s|$)")
_CLAUSE_SEP = re.compile(r"[ \t]*(?:[·•|;¦]|(?<=\s)[-–—](?=\s)|\t|(?<=\S)\s{3,}(?=\S)|,(?=\s))[ \t]*")
_QUESTION_START = re.compile(
    r"^[\W_]*(?:how|what|when|where|which|who|whom|whose|why)\b"
    r"|^[\W_]*(?:should|can|could|would|will|do|does|did|is|are|am|was|were|have|has|may|might|"
    r"shall|must)\s+(?:i|you|we|it|they|he|she|there|the|my|your|our|this|that|these|those|"
    r"anyone|someone|a|an)\b", re.I)
#: What comes before a clock that is a time of day: "at 7:30", "from 6:00 to 7:30".
_TIME_PREP = re.compile(r"(?:(?:\b(?:at|by|around|until|till|from|since|before|after|between)|@)\s*"
                        r"|\d{1,2}:\d{2}\s*(?:-|–|to|and|until|till)\s*)$", re.I)
#: A clock, h:mm or m:ss: its label decides which (and whether it is a time of day).
CLOCK_RAW = re.compile(r"\d{1,2}:\d{2}")
_BP = re.compile(r"(?<![\w./])(?P<s>\d{2,3})\s?/\s?(?P<d>\d{2,3})(?:[ \t]?(?P<u>mm ?Hg))?(?![\w/])")
_BP_CONTEXT = re.compile(r"\b(?:blood pressure|pressure|bp)\b", re.I)
_HYPHEN_COMPOUND = re.compile(r"\d[-‐‑‒–][A-Za-z]")
#: A number glued to a word by a dash right after it: "7-day", "a 3‑item list".
_DASH_WORD = re.compile(r"[-‐‑‒–][A-Za-z]")
_RANGE_GAP = re.compile(r"\s*(?:-|–|—|~|to)\s*", re.I)
_LIST_MARKER = re.compile(r"[\s*•·>#-]*$")


@dataclass
class QuantityHit:
    """A quantity of the text, and whether a pattern used it or why it can never be a value."""

    start: int
    end: int
    q: Quantity
    used: bool = False
    bad: str | None = None  # why it can never be a value: "range", "compound", "tod", "marker"
    diastolic: float | None = None  # "128/82 mmHg": q holds 128, this 82


@dataclass
class Found:
    """A draft and where it was found (position, sentence), for its date and its order."""

    draft: Draft
    pos: int
    sentence: int


class TextScan:
    """One text, prepared for the pattern families (subclasses) that scan it."""

    def __init__(self, text: str, source: str, ref_time: datetime | None) -> None:
        self.text = text
        self.source = source
        self.kind = source.split(":", 1)[0].split("[", 1)[0]
        self.ref = ref_time.date() if isinstance(ref_time, datetime) else (
            ref_time if isinstance(ref_time, date) else None)
        self.out: list[Found] = []
        self.dates = find_date_hits(text, self.ref)
        self.qs: list[QuantityHit] = []
        self._prepare_quantities()
        #: The text with dates (\x01) and values (\x02) blanked out, for word scans and hedge
        #: checks; same length as the text. The spans never overlap (values inside dates go).
        spans = sorted([(d.start, d.end, "\x01") for d in self.dates]
                       + [(q.start, q.end, "\x02") for q in self.qs])
        parts, pos = [], 0
        for a, b, c in spans:
            if a < pos:  # defensive: keep the first span
                continue
            parts.append(text[pos:a])
            parts.append(c * (b - a))
            pos = b
        parts.append(text[pos:])
        self.masked = "".join(parts)
        self.sentences: list[tuple[int, int]] = []
        self.date_values: list[tuple[Draft, DateHit]] = []

    # .. preparation ..................................................................

    def _prepare_quantities(self) -> None:
        text = self.text
        spans = [(d.start, d.end) for d in self.dates]
        qs = []
        for s, e, q in find_quantities(text):
            if any(s < de and ds < e for ds, de in spans):
                continue
            qs.append(QuantityHit(s, e, q))
        if "/" in text:
            for m in _BP.finditer(text):
                if not (m.group("u") or _BP_CONTEXT.search(text, max(0, m.start() - 30), m.start())):
                    continue
                s, e = m.span()
                qs = [x for x in qs if x.end <= s or x.start >= e]
                qs.append(QuantityHit(s, e, Quantity(float(m.group("s")), "mmHg", "pressure", m.group(0)),
                                      diastolic=float(m.group("d"))))
            qs.sort(key=lambda x: x.start)
        for i, item in enumerate(qs):
            raw = item.q.raw
            if raw[:1].isalpha() and re.match(r"[A-Za-z]+", raw).group(0).lower() in NUMBER_WORDS:
                item.bad = "word"  # "one day", "one step closer": only after a logging verb
            if _HYPHEN_COMPOUND.search(raw) or _DASH_WORD.match(text, item.end):
                item.bad = "compound"
            if CLOCK_RAW.fullmatch(raw):
                before = text[max(0, item.start - 12):item.start]
                if _TIME_PREP.search(before) and int(raw.split(":")[0]) < 24:
                    item.bad = "tod"
            # "1." / "2)" at the start of a line: a list marker
            if item.q.unit is None and re.fullmatch(r"\d{1,2}", raw):
                line_start = text.rfind("\n", 0, item.start) + 1
                if (_LIST_MARKER.fullmatch(text[line_start:item.start])
                        and re.match(r"[.)]\s", text[item.end:item.end + 2])):
                    item.bad = "marker"
            if i and _RANGE_GAP.fullmatch(text[qs[i - 1].end:item.start]):
                prev = qs[i - 1]
                if prev.q.unit is None or prev.q.unit == item.q.unit:
                    prev.bad = prev.bad or "range"
                    item.bad = item.bad or "range"
        self.qs = qs

    # .. segmentation .................................................................

    def _sentences(self, a: int, b: int) -> list[tuple[int, int]]:
        out = []
        start = a
        line = self.text[a:b]
        for m in _SENT_BREAK.finditer(line):
            end = a + m.end()
            punct = m.group(0)
            if "." in punct and not any(c in punct for c in "!?。！？"):
                tok = line[:m.start() + 1].rsplit(None, 1)[-1].lower() if line[:m.start() + 1].split() else ""
                nxt = line[m.end():].lstrip()[:1]
                if tok in ABBREV or (nxt and not (nxt.isupper() or nxt in "\"'“‘([*•-")):
                    continue
                if self.masked[a + m.start()] in "\x01\x02":
                    continue
            if self.text[start:end].strip():
                out.append((start, end))
            start = end
        if self.text[start:b].strip():
            out.append((start, b))
        return out

    def _clauses(self, a: int, b: int) -> list[tuple[int, int, bool, bool]]:
        """Clauses of a sentence: (start, end, strong left boundary, strong right boundary)."""
        out = []
        start, left_strong = a, True
        seg = self.masked[a:b]
        for m in _CLAUSE_SEP.finditer(seg):
            if m.start() == 0 and not m.group(0).strip(" \t"):
                continue
            strong = not any(c in m.group(0) for c in ",-–—")
            end = a + m.start()
            if self.text[start:end].strip():
                out.append((start, end, left_strong, strong))
            start, left_strong = a + m.end(), strong
        if self.text[start:b].strip():
            out.append((start, b, left_strong, True))
        return out

    def _is_question(self, a: int, b: int) -> bool:
        s = self.text[a:b].strip()
        if s.endswith(("?", "？")) or "?" in self.masked[a:b]:
            return True
        # "How many hours should I sleep" (no "?") is a question; "Did a run today: 5 km." is not
        return bool(_QUESTION_START.match(s)) and not s.endswith((".", "!"))

    def _sentence_is_question(self, idx: int) -> bool:
        a, b = self.sentences[idx]
        return self._is_question(a, b)

    def _date_at(self, pos: int) -> DateHit | None:
        for d in self.dates:
            if d.start <= pos < d.end:
                return d
        return None

    # .. output .......................................................................

    def _draft(self, name: str, v: Quantity, start: int, end: int, day: date | None) -> Draft:
        return Draft(name, v.value, None, v.unit, v.dimension, self.text[start:end],
                     self._src(start, end), day)

    def _src(self, start: int, end: int) -> str:
        return f"{self.source}[{start}:{end}]"

    def _emit(self, d: Draft, pos: int, sent: int) -> None:
        self.out.append(Found(d, pos, sent))

    def _sentence_of(self, pos: int) -> int:
        for i, (a, b) in enumerate(self.sentences):
            if a <= pos < b:
                return i
        return -1
