"""The offline (``rules``) extractor: the records a round reports, as attribute-value drafts.

A round can report one record ("This evening: 155/93, pulse 68"), several of one kind (an app
export listing three days), several of different kinds ("Started a 248-page novel. Read 48
pages of it on Saturday, 62 minutes"), or nothing (chit-chat, someone else's numbers). The
steps:

1. **Units.** The user's text and every image caption (and OCR text) are cut into units:
   sentences, and the quoted rows of an export or weekly log (``'...'; '...'``). The
   assistant's reply is not read: a reply restating the user's numbers is no new observation.
2. **Values.** :func:`adamm.nodes.rules.spans.find_spans` finds every stated value with its
   unit and label; :func:`adamm.nodes.rules.dates.find_dates` finds the day cues (and clock
   times, which are never values).
3. **Not observations.** A unit says nothing when it is a question or about someone else ("my
   brother tried my monitor: 152 over 96", "She says her car does 4.1 litres"); its values in a
   hedged, planned, habitual or target clause, and the clauses after it, are none ("should",
   "every", "at least", "a month", "target", "due at"; "if" holds for the whole sentence); a
   value labelled as what is *left* or *remaining* is not one either, nor are a receipt's parts
   (labour, VAT, a tip): what was paid is its total.
4. **Names.** A value's attribute is its label, read through a small table of the
   abbreviations and synonyms apps use (``SYS``, ``PUL``/``pulse``/``heart rate``, ``DIST``,
   ``ASC``/``climbed``/``elevation gain``, ``PWR``, ``moving time``) - or, with no label or a
   bare qualifier (``avg``, ``total``, ``paid``), the name of its unit's dimension
   (``distance``, ``duration``, ``amount``, ``price_per_litre`` ...). A blood-pressure pair
   gives ``systolic`` and ``diastolic``; a rating ``rating``. Two values of one name in a
   record keep them apart by unit (``distance`` and ``distance_m``).
5. **Records.** Units are walked in order (user text, then images); a unit's values join the
   current record unless it already has one of their names, or the unit names another day -
   then a new record starts. Units without values are the round's *context*: their day cues
   and words belong to every record of the round.
6. **Dates.** A record's day is its own units' cue, else the context's, else the only day the
   round names, else the round's own time (``observed_at`` None).

What each draft carries: attribute, value (number in its unit, or text), the record index
within the round, the record's day, the exact source text, and the record's text (its units
plus the context: what mention filters search, "on the right arm", "at PetroLux").
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from functools import lru_cache

from adamm.nodes.rules.dates import MONTHS, WEEKDAYS, find_dates
from adamm.nodes.rules.facets import VOCABULARY_NAMES, find_facets, names_something, vocabulary_values
from adamm.nodes.rules.labels_words import ED_NOUNS
from adamm.nodes.rules.spans import _LABEL_STOP, Span, between, find_spans
from adamm.stores.bm25 import STOPWORDS
from adamm.stores.quantities import canonical_unit, convert, dimension_of, parse_quantity, snake_case
from adamm.stores.records import Round

__all__ = ["Draft", "extract_round", "extract_text"]

MAX_RECORD_TEXT = 600


@dataclass
class Draft:
    """One observation before canonicalization against the memory's known attributes."""

    attribute: str  #: snake_case name (synonyms across formats are merged later)
    value_num: float | None
    value_text: str | None  #: categorical values ("gravel", "yes")
    unit: str | None  #: canonical unit symbol (see :mod:`adamm.stores.quantities`)
    dimension: str | None
    raw: str  #: the source text of the value
    source: str  #: "user_text[12:31]", "image:<id>[5:30]", "metadata:<key>"
    observed_at: date | None = None  #: the day the record is about, when the text says so
    record: int = 0  #: which record of the round (an export of three days gives 0, 1, 2)
    text: str = ""  #: the record's text: its sentences or rows plus the round's context
    missing: bool = False  #: the field is shown without a value ("PUL --"): a NULL cell
    bare: str | None = None  #: named after its unit only; the label it had ("total", "avg", "")
    label: str = ""  #: the label as written ("PUL", "moving time"), kept as an alias of the attribute
    strict: bool = False  #: the name is chosen on purpose (a started book's ``size``): never merged by likeness


# -- names -----------------------------------------------------------------------------------

#: Labels apps and people write for common measurements -> one attribute name.
LABELS: dict[str, str] = {
    "sys": "systolic", "systolic": "systolic", "dia": "diastolic", "diastolic": "diastolic",
    "pul": "heart_rate", "pulse": "heart_rate", "hr": "heart_rate", "heart rate": "heart_rate", "heart": "heart_rate",
    "heartrate": "heart_rate", "bpm": "heart_rate",
    "dist": "distance", "distance": "distance",
    "asc": "elevation_gain", "ascent": "elevation_gain", "climb": "elevation_gain", "climbed": "elevation_gain",
    "climbing": "elevation_gain", "elevation": "elevation_gain", "elevation gain": "elevation_gain", "elev": "elevation_gain",
    "elev gain": "elevation_gain", "gain": "elevation_gain",
    "time": "duration", "moving": "duration", "moving time": "duration", "duration": "duration", "elapsed": "duration",
    "elapsed time": "duration", "listened": "duration", "session": "duration", "session timer": "duration",
    "pwr": "power", "power": "power", "watts": "power",
    "spd": "speed", "speed": "speed",
    "cal": "calories", "kcal": "calories", "calories": "calories", "energy": "calories",
    "odo": "odometer", "odometer": "odometer", "mileage": "odometer",
    "wt": "weight", "weight": "weight",
    "temp": "temperature", "page": "page", "long": "length", "score for": "score_for", "score against": "score_against",
    "method": "payment_method", "payment": "payment_method", "payment method": "payment_method", "paid with": "payment_method",
    "paid by": "payment_method", "pay": "payment_method",
    "goals for": "score_for", "goals against": "score_against", "points for": "score_for", "points against": "score_against", "slept": "sleep", "sleep": "sleep", "total sleep": "sleep",
}
_PRONOUNS = frozenset("us them you we they those these me him her it".split())
#: Words about the picture or document itself ("Transaction card: Target", "Receipt: Shell"):
#: never a field name; the value after them is what the document is from.
DOCUMENT_WORDS = frozenset("""card transaction receipt screenshot screen photo picture image app display notification entry
statement summary banner tile widget header panel view page bill invoice e-receipt email""".split())
#: The unit a known field has when it is written without one ("HR 152").
_DEFAULT_UNITS = {"heart_rate": "bpm", "avg_heart_rate": "bpm", "calories": "kcal"}
#: Nouns that name a whole activity record, not one of its fields ("my run was 12 km").
ACTIVITY_NOUNS = frozenset("run runs jog ride rides walk walks hike swim row commute trip drive workout outing race".split())
#: Labels of a plain number that is an identifier, not a measurement ("pump 3", "zone 2").
ID_LABELS = frozenset("""pump zone chapter step part section item no number room gate table seat bus line track platform
level lane door episode season week day round row rows id code version model""".split())
#: Irregular logging verbs that stand where a label would ("ran 8 km", "swam 1,500 m").
VERBS = frozenset("ran rode swam drove did went got took ate drank spent paid made began won lost hit".split())
#: Words around a label that add nothing to it ("Daily usage 12 kWh": the unit says what).
GENERIC_WORDS = frozenset("field value reading readout number figure data display usage use used consumption consumed".split())
#: Where a value was measured, not what it is ("Outside -5 °C" is a temperature).
PLACE_WORDS = frozenset("outside outdoor outdoors inside indoor indoors room ambient".split())
#: Words that qualify a value without naming it.
QUALIFIERS = frozenset("avg average averaged mean total overall daily today current my the altogether".split())
#: Money labels that only say it was paid.
MONEY_WORDS = frozenset("total paid pay charged charge cost costs price amount spent spend spending sum bill fee due came expense expenses "
                        "purchase payment".split())
#: A value so labelled is not an observation of the record (what is left, a goal).
NOT_OBSERVED = frozenset("left remaining remain togo goal target cap limit budget allowance due streak".split())

_ELECTRIC = frozenset({"kWh", "Wh", "MWh", "J", "kJ", "MJ"})
DIMENSION_NAMES = {
    "duration": "duration", "distance": "distance", "speed": "speed", "power": "power", "pressure": "pressure",
    "rate": "heart_rate", "percent": "percent", "energy": "calories", "mass": "weight", "volume": "volume",
    "temperature": "temperature", "rating": "rating", "pace": "pace", "concentration": "concentration",
    "molar_concentration": "concentration", "area": "area", "data": "data", "charge": "charge",
}


def _only_facets(label: str) -> bool:
    """Is a label nothing but words of the facet vocabularies ("dinner", "this evening")?"""
    rest = list(label)
    for f in vocabulary_values(label):
        rest[f.start:f.end] = " " * (f.end - f.start)
    return not re.search(r"[a-z]", "".join(rest).replace("this", ""))


def _a_side(words: list[str]) -> bool:
    """"on the left", "left side", "fed left": "left" is a side there, not what remains ("time
    left", "12 km left"), and nothing else in the label says it is not observed."""
    hits = [i for i, w in enumerate(words) if w in NOT_OBSERVED]
    if [words[i] for i in hits] != ["left"]:
        return False
    i = hits[0]
    before = words[i - 1] if i else ""
    # "Fed left 19 min": after a verb of what was done, the side it was done on
    return not before or before in STOPWORDS or before in VERBS or bool(re.fullmatch(r"[a-z]+ed", before)) and before not in ED_NOUNS


def _name(sp: Span) -> str | None:
    """The attribute a value names (see the module docstring, step 4)."""
    if sp.role == "first" and sp.dimension == "pressure":
        return "systolic"
    if sp.role == "second" and sp.dimension == "pressure":
        return "diastolic"
    if sp.role == "rating":
        return "rating"
    label = " ".join(w for w in sp.label.lower().replace("-", " ").split())
    words = [w for w in label.split() if w not in QUALIFIERS]
    if len(words) == 1 and words[0] not in LABELS and (re.fullmatch(r"[a-z]+ed", words[0]) and words[0] not in ED_NOUNS
                                                       or words[0] in VERBS):
        words = []  # a logging verb ("Rowed 5.2 km", "ran 8 km"), not a field name
    if words and set(words) & NOT_OBSERVED and (sp.label_after or not _a_side(words)):
        return None  # what is left, a goal, a streak: not the record's value
    if words and set(words) <= _PRONOUNS:
        return None  # "4 of us", "two of them": people, not a measurement
    if sp.label_after and words == ["old"] and sp.unit in ("d", "wk", "mo", "yr"):
        return "age"  # "7 weeks old": how old someone is, no length of anything done
    if sp.label_after and sp.unit and not sp.leads and not sp.of and " ".join(words) not in LABELS and not any(w in LABELS for w in words):
        words = []  # "a 52-minute walk": the activity, not a field; the unit names the value
        # (a value opening its cell, "15.5 kg dron", is the field the words after it name)
    if words and _only_facets(" ".join(words)):
        words = []  # "Dinner was about 670 calories": the meal is a facet, the unit names the value
    if words and set(words) <= ACTIVITY_NOUNS | GENERIC_WORDS | PLACE_WORDS and sp.unit:
        words = []  # "Saturday run was 12.0 km", "Daily usage 12 kWh", "Outside -5 °C": the unit names the value
    if sp.dimension in ("rate", None) and words and LABELS.get(" ".join(words)) == "heart_rate" and set(label.split()) & {"avg", "average", "averaged", "mean"}:
        return "avg_heart_rate"  # a session's average heart rate is not a resting pulse reading
    core = " ".join(words)
    if words and set(words) & NOT_OBSERVED - {"left"}:
        return None
    dim = sp.dimension or ""
    if dim.startswith("currency:") and (not words or set(words) <= MONEY_WORDS or sp.label_after):
        return "amount"
    if core in LABELS:
        return LABELS[core]
    known = [w for w in words if w in LABELS]
    if len(known) == 1 and set(words) - {known[0]} <= GENERIC_WORDS:
        return LABELS[known[0]]  # "pulse field", "power reading"
    if core and canonical_unit(core) is not None and sp.unit is None:
        return None  # handled by the caller as a unit ("KM 58869")
    if core:
        name = snake_case(core)
        if name and len(words) <= 4:
            return name
    if dim.startswith("currency:"):
        return "amount"
    if dim.startswith("price:"):
        per = (sp.unit or "").split("/")[-1]
        return "price_per_litre" if per == "L" else "price_per_gallon" if per == "gal" else "price"
    if dim == "count" and sp.unit:
        return sp.unit
    if dim.startswith("unit:") and sp.unit:
        return snake_case(sp.unit)
    if dim == "energy" and sp.unit in _ELECTRIC:
        return "energy"  # kWh a meter reads, not the calories of a meal
    return DIMENSION_NAMES.get(dim)


# -- units of text ---------------------------------------------------------------------------

_SENTENCE = re.compile(r"(?<![\s(][A-Z]\.)(?<=[.!?])[\"'”’)]*\s+(?=[A-Z0-9'\"(‘“€$£])")  # not after an initial ("M. J. Tollan")
_QUOTED_ROWS = re.compile(r"'([^']{8,})'\s*(?:;|$|\.)")
#: Quoted rows of a log page listed as a sentence lists things ("Lines: 'Squat 4x4 - 120 kg -
#: RPE 8.5', 'Bench 4x6 - 82,5 kg'", "'...' / '...'", "'...' and '...'"): rows only when each
#: holds two numbers or more - quoted names in a sentence ("to 'Marlowe Books', subject
#: 'Invoice INV-2025-009'") are no rows.
_LISTED_ROWS = re.compile(r"'([^']{8,})'\s*(?:[;,/]|\band\b|$|\.)")
_NUMBER_TOKEN = re.compile(r"(?<!\S)[^\s]*\d[^\s]*")
_QUESTION = re.compile(r"\?\s*$|^\s*(?:how|what|why|when|which|should|does|do|is it|can|could|would|will|any)\b", re.I)
_OTHER_PERSON = re.compile(
    r"\b(?:my|a|his|her|our|their|the)\s+(?:[\w-]+\s+)?(?:brother|sister|wife|husband|partner|neighbou?r|colleague|friend|son|"
    r"daughter|mother|father|mum|mom|dad|coach|doctor|gp|dietitian|boss|employer|patient|sister-in-law|brother-in-law|"
    r"nephew|niece|cousin|uncle|aunt|grandma|grandpa|kid|kids|team-?mate|trainer|physio|nurse)(?:'s)?\b"
    r"|\b(?:she|he|they)\s+(?:says|said|reckons|reckoned|thinks|thought|told|tells|claims|claimed|swears)\b", re.I)
#: A third person in a sentence ("she was brask", "he napped 40 minutes") is whoever the log is
#: about - a pet, a baby, a plant - unless the sentence before was about someone else ("My
#: brother tried my monitor. He got 148/92."): a pronoun continues its round's last person.
_PRONOUN = re.compile(r"^\s*(?:her|his|their)\b|\b(?:she|he|they|she's|he's|they're|them)\b", re.I)
_NOT_A_LOG = re.compile(
    r"\b(?:if|should|could|would|might|maybe|perhaps|planning|plan to|thinking about|going to|want to|wants|hope|"
    r"usually|typically|every|each|per day|a day|a week|a month|a year|at least|target|goal|aim|resolution|"
    r"allowance|budget|due|next|cap|capped|limit|tomorrow|entered|i have|i've got|something like|last year|last season|"
    r"crossed\s+out|struck\s+through|scribbled\s+out)\b", re.I)


@dataclass
class _Unit:
    part: str  #: "user_text", "image:<id>", "ocr:<id>"
    start: int
    text: str
    spans: list[Span] = field(default_factory=list)
    days: list[date] = field(default_factory=list)
    observing: bool = True
    dates: list[tuple[int, int, date | None]] = field(default_factory=list)  #: (start, end, day) of each date written
    entry: bool = False  #: a timed or bulleted row of a list of entries: a record of its own (:func:`_entries`)


#: A row that opens with a clock time ("07:05 Breastfeed · Right · 21 min", "- 3pm: ...") or
#: with a bullet and holds at least three cells ("- Tue: courgette, top bed, x1, 412 g") is one
#: entry of a list - a timeline, a log page - not one line of a record told over several lines.
_ENTRY_CLOCK = re.compile(r"^\s*(?:[-•*–]\s*)?(?:\d{1,2}[:.]\d{2}(?!\d)(?:\s?[ap]\.?m\.?)?|\d{1,2}\s?[ap]\.?m\.?)(?![\w/])", re.I)
_ENTRY_BULLET = re.compile(r"^\s*(?:[-•*–]|\d{1,2}[.)])\s+\S")
_ENTRY_CELLS = re.compile(r"\s*(?:[·|;•\t]|\s[—–-]\s|,\s)\s*")


def _entries(units: list[_Unit]) -> None:
    """Mark the units of one part that are entries of a list (:data:`_ENTRY_CLOCK`) - when the
    part has at least two - so that each starts a record of its own, whatever fields it has."""
    def entry(u: _Unit) -> bool:
        if _ENTRY_CLOCK.match(u.text):
            return True
        return bool(_ENTRY_BULLET.match(u.text)) and len([c for c in _ENTRY_CELLS.split(u.text) if c.strip()]) >= 3
    marked = [u for u in units if entry(u)]
    if len(marked) >= 2:
        for u in marked:
            u.entry = True


#: "Rows: Mon 21 Jul · Tomatoes · 227 g | Tue 22 Jul · Courgette · 263 g": a caption's rows,
#: one after another, each of cells.
_ROWS_LABEL = re.compile(r"\brows?\s*:\s*", re.I)
_ROW_CELL = re.compile(r"\s[·•]\s|\s*,\s")


def _inline_rows(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each row a caption lists after "Rows:" separated by " | " or "; ",
    when there are two or more and each holds cells and a digit."""
    m = _ROWS_LABEL.search(text)
    if m is None:
        return []
    end = re.search(r"\.(?:\s+(?=[A-Z'\"‘“])|\s*$)", text[m.end():])
    seg_end = m.end() + end.start() if end else len(text)
    for sep in (" | ", "; "):
        out = [(m.end() + a, m.end() + b) for a, b in _cells_of(text[m.end():seg_end], sep)]
        if len(out) >= 2 and all(_ROW_CELL.search(text[a:b]) and re.search(r"\d", text[a:b]) for a, b in out):
            return out
    return []


def _units(part: str, text: str) -> list[_Unit]:
    rows = list(_QUOTED_ROWS.finditer(text))
    if len(rows) < 2:
        listed = list(_LISTED_ROWS.finditer(text))
        if len(listed) >= 2 and all(len(_NUMBER_TOKEN.findall(m.group(1))) >= 2 for m in listed):
            rows = listed
    # each row as (start, end of what it takes up, start, end of its own text)
    spans = [(m.start(), m.end(), m.start(1), m.end(1)) for m in rows] if len(rows) >= 2 else []
    if not spans and (inline := _inline_rows(text)):
        # a row takes up the " | " before the next one: no unit of its own
        spans = [(a, inline[i + 1][0] if i + 1 < len(inline) else b, a, b) for i, (a, b) in enumerate(inline)]
    if not spans:
        return _pieces_units(part, text, [(0, len(text))])
    pieces: list[tuple[int, int]] = []
    pos = 0
    for start, end, a, b in spans:
        if start > pos:
            pieces.append((pos, start))
        pieces.append((a, b))
        pos = end
    if pos < len(text):
        pieces.append((pos, len(text)))
    return _pieces_units(part, text, pieces)


def _pieces_units(part: str, text: str, pieces: list[tuple[int, int]]) -> list[_Unit]:
    lines = []
    for a, b in pieces:  # one line, one unit at least: a week view lists a record per line
        for m in re.finditer(r"[^\n]+", text[a:b]):
            lines.append((a + m.start(), a + m.end()))
    out: list[_Unit] = []
    whole: list[_Unit] = []  # units that are a whole line or quoted row
    for a, b in lines:
        chunk = text[a:b]
        starts = [0] + [m.end() for m in _SENTENCE.finditer(chunk)]
        for i, s in enumerate(starts):
            e = starts[i + 1] if i + 1 < len(starts) else len(chunk)
            piece = chunk[s:e]
            if piece.strip():
                out.append(_Unit(part, a + s, piece))
                if len(starts) == 1:
                    whole.append(out[-1])
    _entries(whole)
    return out


def _about_other(text: str, before: bool) -> bool:
    """Is the sentence about someone else's values? ``before``: the round's previous sentence was."""
    return bool(_OTHER_PERSON.search(text)) or (before and bool(_PRONOUN.search(text)))


def _observing(unit: _Unit, other: bool = False) -> bool:
    """Can the unit report a value at all: no question, not about someone else. Whether a hedge
    leaves it one is decided on its values (see ``extract_round``)."""
    return not (_QUESTION.search(unit.text.strip()) or other)


#: Between two tiles of a dashboard line: a hedge ("Target: 10,000") holds for its own tile.
_TILE = re.compile(r"\s[·|;•]\s|\s[—–]\s")
#: Where a clause of a sentence ends: a comma, a colon, a dash, or a word that opens a clause of
#: its own ("..., then Dan did a 90 ml bottle so I could shower").
#: A clause opened by one of ``_OPENERS`` is a purpose, a reason, a contrast or what came next:
#: never about the value before it; one opened by a contrast ends a hedge.
_CONTRASTS = ("but", "though", "although")
_OPENERS = ("so", "because", "while", "then", "until", *_CONTRASTS)
_CLAUSE = re.compile(rf"[,:]\s+|\s[-—–]\s|\s(?=(?:{'|'.join(_OPENERS)})\s)", re.I)
_SUBORDINATE = re.compile(rf"(?:{'|'.join(_OPENERS)})\b", re.I)
_CONTRAST = re.compile(rf"(?:{'|'.join(_CONTRASTS)})\b", re.I)
#: A hedge that holds for the whole sentence, what came before it too ("40 km if it stays dry").
_WHOLE_SENTENCE = frozenset(("if", "crossed out", "struck through", "scribbled out"))


@lru_cache(maxsize=4096)
def _hedged_cells(text: str) -> tuple[tuple[int, int], ...]:
    """The stretches of a unit that state a goal, a plan, a habit or a wish, not a measurement.

    A dashboard line's tiles are judged one by one ("Steps 8,412 · Target: 10,000"). In a
    sentence a hedge holds from its own clause to the sentence's end, not for what was already
    stated: "fed him 18 min, then Dan did 90 ml so I could shower" still logs both values, "slept
    7 h, would love 8" logs the 7; only "if" holds for the whole sentence. Cached: a line is
    judged once for being a log and once for its spans."""
    out, pos = [], 0
    for piece in _TILE.split(text):
        a = text.index(piece, pos)
        pos = a + len(piece)
        hedges = [m for m in _NOT_A_LOG.finditer(piece) if not _is_name(piece, m)]
        if not hedges:
            continue
        if any(" ".join(m.group(0).lower().split()) in _WHOLE_SENTENCE for m in hedges):
            out.append((a, pos))
            continue
        on = False
        clauses = between(_CLAUSE, piece)
        for k, (ca, cb) in enumerate(clauses):
            if any(ca <= m.start() < cb for m in hedges):
                on = True
                if k and not re.search(r"\d", piece[ca:cb]) and not _SUBORDINATE.match(piece, ca):
                    # "10,000 steps, that's my goal": a hedge without a value of its own is about the one before
                    pa, pb = clauses[k - 1]
                    out.append((a + pa, a + pb))
            elif _CONTRAST.match(piece, ca):
                on = False  # "usually 40 km, but today 30 km"
            if on:
                out.append((a + ca, a + cb))
    return tuple(out)


def _is_name(text: str, m: re.Match[str]) -> bool:
    """A capitalized word inside a sentence is a name ("paid at Target", "Goal Zero"), not the
    word ("my target")."""
    before = text[:m.start()].rstrip()
    if not m.group(0)[:1].isupper():
        return False
    if before.endswith(("·", "|", ";", "—")):  # a cell of its own without a number ("· Target ·"): a name
        rest = re.split(r"[·|;—\n]", text[m.end():], maxsplit=1)[0]
        return not re.search(r"\d|:", rest)
    return bool(before) and not before.endswith((".", "!", "?"))


# -- records ---------------------------------------------------------------------------------


@dataclass
class _Field:
    name: str
    span: Span
    unit_ref: _Unit
    repeat: bool = False  #: the same field again in its line, in the same unit: the next record's


@dataclass
class _Record:
    fields: dict[str, _Field] = field(default_factory=dict)
    units: list[_Unit] = field(default_factory=list)
    days: list[date] = field(default_factory=list)
    event: bool = False  #: a start or an end ("Started X, 248 pages", "Finished it! 4/5"), not a session


#: A sentence about starting or finishing something: its values describe that event (the book's
#: length, the rating given at the end), not the session logged beside it.
_EVENT = re.compile(r"\b(?:started|starting|began|begun|finished|finishing|completed)\b", re.I)
_STARTED = re.compile(r"\b(?:started|starting|began|begun)\b", re.I)
#: Facets that name what a record is about; a record without one borrows its round's.
IDENTITY_FACETS = ("merchant",)


def _fields(unit: _Unit) -> list[_Field]:
    out: list[_Field] = []
    names: dict[str, int] = {}
    # "parts EUR 103.15, labour EUR 209.60, total EUR 312.75": the total is what was paid
    totals = [sp for sp in unit.spans if (sp.dimension or "").startswith("currency:") and "total" in sp.label.lower()]
    # "the bill was £58.00 and we split it, so £29.00 for me": what the user paid is their share
    money = [sp for sp in unit.spans if (sp.dimension or "").startswith("currency:")]
    shares = [sp for sp in money if _MY_SHARE_AFTER.match(unit.text, sp.end) or _MY_SHARE_BEFORE.search(unit.text[:sp.start])]
    if len(money) >= 2 and len(shares) == 1:
        totals = shares
    for sp in totals + [sp for sp in unit.spans if sp not in totals]:
        if (sp.dimension or "").startswith("unit:") and {sp.unit, f"{sp.unit}s"} & ID_LABELS:
            continue  # "4 rows", "2 rounds": a count of parts, no measurement
        if sp.num is not None and _TOTAL_WORDS & set(sp.label.lower().split()) and _LONG_PERIOD.search(unit.text[:sp.start]):
            continue  # "a chart labelled 'This week' with the total '1 h 05 min'": a week's sum, no record of a day
        if totals and sp not in totals and (sp.dimension or "").startswith("currency:"):
            continue  # its parts (labour, VAT, a tip): the record's amount is the total
        if totals and sp.unit is None and sp.num is not None and re.fullmatch(r"\d+[.,]\d{2}", sp.raw):
            continue  # "milk 3.49, bread 2.99 ... TOTAL $10.73": a line item's price
        if sp.unit is None and not sp.missing and sp.text is None:
            if not sp.label or (sp.label_after and sp.label.lower() not in LABELS and not _count_of(unit.text, sp)
                                and not _labelled_cell(unit, sp)):
                continue  # a bare number ("with 3 rows"): no label in front, no unit
            *lead, last = sp.label.split()
            if last.lower() in ID_LABELS and not [w for w in lead if w.lower() not in _LABEL_STOP | QUALIFIERS]:
                continue  # "pump 3": an identifier ("Shat level 8", named by a word of its own, is a field)
            if last[0].isupper() and not last.isupper() and last.lower() not in LABELS and not sp.colon \
                    and not _FIELDS.search(unit.text) and not _opens_sentence(unit.text, sp) and not _labelled_cell(unit, sp):
                continue  # "Super 95" in prose: a name; "Score 63" on a dashboard card is a field
            unit_word = canonical_unit(sp.label) if sp.label.isupper() and sp.label.lower() not in LABELS else None
            if unit_word is not None:  # "KM 58869": the label is the unit
                sp.unit, sp.dimension, sp.label = unit_word, dimension_of(unit_word), ""
        if sp.label and sp.dimension in DIMENSION_NAMES and unit.part == "user_text" and _is_heading(unit.text, sp):
            sp.label = ""  # "Audiobook last night: 61 minutes": what the sentence is about, not a field
        of = re.match(r"\s+of\s+([a-z]+(?:\s+[a-z]+){0,2})", unit.text[sp.end:]) if sp.unit and sp.num is not None else None
        if of and not sp.label_after and (not sp.label or _logging_verb(sp.label)) \
                and sp.dimension not in ("duration", "distance", "speed", "pace"):  # "30 minutes of yoga" is a duration
            words = list(itertools.takewhile(lambda w: w not in _OF_NOT_A_NAME and w not in QUALIFIERS, of.group(1).split()))
            if words:  # "Drank 2.1 L of water today": what was measured, not the verb
                sp.label, sp.label_after = " ".join(words), False
        payee = _payee_before(unit.text, sp) if sp.role == "money" and sp.label else None
        if payee and "merchant" not in names:
            # "Trader Joe's: 72.67 USD, groceries": paid to a merchant, named where a label would stand
            out.append(_Field("merchant", Span(sp.start, sp.start, None, payee, None, None, "merchant", payee), unit))
            names["merchant"] = 1
            sp.label = ""
        if sp.text is not None and sp.label and set(sp.label.lower().replace("-", " ").split()) <= DOCUMENT_WORDS | QUALIFIERS:
            # "Transaction card: Target · -$76.70": the card is from a merchant, it is no field
            if not (sp.text[:1].isupper() and any(o.role == "money" for o in unit.spans)):
                continue
            sp.label = "merchant"
        words = sp.label.lower().split()
        counted = [canonical_unit(w) for w in words if w.endswith("s") or {"count", "total"} & set(words)] \
            if sp.unit is None and sp.num is not None else []  # "page 174" is a place in the book, no count
        counted = [u for u in counted if u and dimension_of(u) == "count"]
        if counted:  # "Step count today: 14,312": steps, as "walked 15,713 steps" says
            sp.unit, sp.dimension = counted[0], "count"
        name = _name(sp)
        if name is None:
            continue
        if (sp.dimension or "").startswith("unit:") and name == snake_case(sp.unit or "") \
                and re.search(re.escape(sp.unit or "") + r"e?s\W*$", sp.raw.lower()):
            sp.unit, sp.dimension = None, None  # "2 lows": a plural noun counts what it names, as "Lows: 2" writes it
        if sp.text is not None and name in VOCABULARY_NAMES:
            # "Method: Visa" is a credit card, as the same words elsewhere in the memory say
            canonical = [f.value for f in vocabulary_values(sp.text) if f.attribute == name]
            if canonical:
                sp.text = canonical[0]
        if name in _DEFAULT_UNITS and sp.unit is None and sp.num is not None:
            sp.unit = _DEFAULT_UNITS[name]  # "HR 152", "avg heart rate 131": beats per minute
            sp.dimension = dimension_of(sp.unit)
        if name in names:
            segment = out[max((i for i, f in enumerate(out) if f.repeat), default=0):]
            earlier = next((f for f in segment if f.name == name), None)
            if earlier is not None and earlier.span.unit == sp.unit and len({f.name for f in segment}) >= 2 \
                    and sp.role not in ("first", "second"):
                # "Mon 6h 10m / 60 bpm / 6,120 steps; Tue 7h 30m / ...": the layout may repeat - a new record
                out.append(_Field(name, sp, unit, repeat=True))
                names = {name: 1}
                continue
            alt = _unit_named(name, sp.unit)
            if not alt or alt in names:
                continue
            name = alt
        names[name] = 1
        out.append(_Field(name, sp, unit))
    # a change is named after the field it changed, whatever that field was named by
    named = {id(f.span): f.name for f in out}
    for f in out:
        owner = f.span.changes
        if f.span.role == "delta" and owner is not None and id(owner) in named and f"{named[id(owner)]}_change" not in names:
            names.pop(f.name, None)
            f.name = f"{named[id(owner)]}_change"
            names[f.name] = 1
    return out


#: A sum said to be the user's part of a shared one ("£29 for me", "my share was £16.40").
_MY_SHARE_AFTER = re.compile(r"\s*(?:\(|,)?\s*(?:for\s+me|is\s+mine|was\s+mine|each|apiece|per\s+head|as\s+my\s+(?:share|half|part|cut))\b", re.I)
_MY_SHARE_BEFORE = re.compile(r"\bmy\s+(?:share|half|part|cut|bit)\b(?:\s+\S+){0,6}?\s*(?:was|is|came\s+to|:|of)?\s*(?:actually\s+)?$", re.I)


#: Words after "of" that name no measured thing ("2 h of my time", "40 km of the route").
_OF_NOT_A_NAME = frozenset("""the my a an this that it them his her our their your which what today yesterday tonight
this last and or in on at for with to from""".split())


def _logging_verb(label: str) -> bool:
    words = label.lower().split()
    return len(words) == 1 and words[0] not in LABELS and (bool(re.fullmatch(r"[a-z]+ed", words[0])) or words[0] in VERBS)


def _opens_sentence(text: str, sp: Span) -> bool:
    """Is the value's one-word label the first word of its sentence or of a cell ("Mood today
    8/10", "Feb 16 — Gask 1,164")?"""
    head = text[:sp.start]
    at = head.rfind(sp.label.split()[-1])
    return len(sp.label.split()) == 1 and at >= 0 and not re.search(
        r"[A-Za-z0-9]", re.split(r"[.!?]\s|\s[—–]\s|[·|;:]\s*", head[:at])[-1])


def _payee_before(text: str, sp: Span) -> str | None:
    """The name a money value is labelled with at the start of its cell ("Trader Joe's: 72.67
    USD", "Shell - $24.61"): capitalized words, not an all-caps field code nor a known label."""
    head = re.split(r"[·•|;\n]|\s[—–]\s", text[:sp.start])[-1]
    m = re.fullmatch(r"\s*(?P<n>[A-Z][\w'’&.\-]*(?:\s+(?:[A-Z&][\w'’&.\-]*)){0,3})\s*[:\-–—]?\s*", head)
    if m is None:
        return None
    name = m.group("n").rstrip(".")
    words = name.lower().replace("’", "'").split()
    low = set(words)
    if name.isupper() or name.lower() in LABELS or low & (MONEY_WORDS | QUALIFIERS | DOCUMENT_WORDS | NOT_OBSERVED):
        return None
    if words[0] in STOPWORDS or low & (MONTHS.keys() | WEEKDAYS.keys()):
        return None  # "From Tuesday: USD 49.96": a day cue in front of the amount, no one paid
    return name


_FIELDS = re.compile(r"[·•|]|\s/\s|\n")


def _bare(sp: Span, name: str) -> str | None:
    """The qualifier a value named only after its unit had ("Total: 7:54" -> "total"), "" for
    none; None for a value whose label named it."""
    if sp.role in ("first", "second", "rating") or sp.text is not None:
        return None
    words = sp.label.lower().split()
    if words and not set(words) <= QUALIFIERS | MONEY_WORDS:
        return None
    default = DIMENSION_NAMES.get(sp.dimension or "")
    if (sp.dimension or "").startswith("unit:") and not words and sp.unit and name == snake_case(sp.unit):
        return ""  # "704 kn" alone: named by a unit of the memory's own, as "31.2 km" by a known one
    if name != default and not name.startswith(("amount", "price")) and not (default and name.startswith(default + "_")):
        return None  # ("distance_m": the second distance of a record, named by its unit too)
    return words[0] if words else ""


#: Cell separators of a table written as text: one per line, the same on every line.
_TABLE_SEPARATORS = ("|", ";", "\t", " · ", ",")


def _cells_of(text: str, sep: str) -> list[tuple[int, int]]:
    """The (start, end) of every non-empty cell of a line split at ``sep``, stripped."""
    out, pos = [], 0
    for piece in text.split(sep):
        a = pos + len(piece) - len(piece.lstrip())
        b = pos + len(piece.rstrip())
        pos += len(piece) + len(sep)
        if b > a:
            out.append((a, b))
    return out


def _header_of(unit: _Unit) -> tuple[str, list[tuple[int, int]]] | None:
    """A line of labels only (no digits), split by one separator into >= 2 cells: a header."""
    if re.search(r"\d", unit.text) or _day_header_of(unit) is not None:
        return None  # digits are values; a line of days heads columns of days, not fields
    for sep in _TABLE_SEPARATORS:
        cells = _cells_of(unit.text, sep)
        if sum(unit.text[a:b].strip(" .:").lower() in WEEKDAYS for a, b in cells) >= 2:
            return None  # "Mon | Tue | Wed"
        if len(cells) >= 2 and unit.text.count(sep) == len(cells) - 1 and all(
                len(unit.text[a:b].split()) <= 4 for a, b in cells):
            return sep, cells
    return None


#: A caption that describes a table's header: "columns headed 'day', 'who', 'thr'", "a table
#: with columns Date · Crop · Weight".
_DESCRIBED_HEADER = re.compile(
    r"\bcolumns?\s+(?:(?:are|were|headed|labell?ed|named|titled|called|reading|read)\s+|:\s*)?"
    r"(?P<names>(?:[\'\"‘“][^\'\"’”\d]{1,30}[\'\"’”]\s*(?:,\s*(?:and\s+)?|and\s+|[·|]\s*)?){2,}"
    r"|[A-Za-z][^.;:\d]{0,120}?(?:\s[·|]\s[A-Za-z](?:[^.;:·|\d]{0,30}[^.;:·|\d\s])?){1,})", re.I)


def _described_header(unit: _Unit) -> list[str] | None:
    """The column names a caption's sentence gives a table in words (``_DESCRIBED_HEADER``)."""
    m = _DESCRIBED_HEADER.search(unit.text)
    if m is None:
        return None
    raw = m.group("names")
    quoted = re.findall(r"[\'\"‘“]([^\'\"’”]+)[\'\"’”]", raw)
    names = quoted if len(quoted) >= 2 else [c.strip(" .") for c in re.split(r"\s[·|]\s", raw)]
    names = [n for n in names if n]
    return names if len(names) >= 2 and all(len(n.split()) <= 4 for n in names) else None


def _read_header_tables(units: list[_Unit]) -> None:
    """"Date | Vrell | Brosk" over "Mar 4 | 14 qz | Ashvel": every row's cell takes its column's
    header as its label, by position - the layout says what each value is, not the words next
    to it (there are none). Rows are the lines right under the header with as many cells. A
    caption may say the header in words ("columns headed 'day', 'who', 'thr'. Rows: '9 Mar ·
    Vashti · 13.2'; ..."): the rows after it split by whichever separator gives as many cells."""
    i = 0
    while i < len(units):
        described = _described_header(units[i])  # "Columns Day | Client | ...": the words say it is a header
        head = _header_of(units[i]) if described is None else None
        if described is not None:
            j = i + 1
            while j < len(units) and units[j].part == units[i].part and not re.search(r"\d", units[j].text) \
                    and len(units[j].text.split()) <= 2:
                j += 1  # "Rows:"
            # the first row may leave a cell blank: a row of the block shows the full width
            sep = next((x for x in _TABLE_SEPARATORS if j < len(units) and units[j].part == units[i].part
                        and len(described) - 1 <= len(_cells_of(units[j].text, x)) <= len(described)
                        and any(len(_cells_of(units[k].text, x)) == len(described)
                                for k in range(j, len(units)) if units[k].part == units[i].part)), None)
            if sep is None:
                i += 1
                continue
            names = described
        elif head is None:
            i += 1
            continue
        else:
            sep, labels = head
            names = [units[i].text[a:b].strip(" :") for a, b in labels]
            j = i + 1
        first = j
        # what each column holds, from the first full row (a row before it may be a cell short)
        kinds = next(([_cell_kind(units[k], a, b) for a, b in _cells_of(units[k].text, sep)]
                      for k in range(j, len(units)) if units[k].part == units[i].part and units[k].observing
                      and len(_cells_of(units[k].text, sep)) == len(names)), None)
        while j < len(units) and units[j].part == units[i].part and units[j].observing:
            row = units[j]
            cells = _cells_of(row.text, sep)
            if not re.search(r"\d", row.text):
                break
            if len(cells) == len(names):
                named = names
            elif len(cells) == len(names) - 1 and kinds is not None \
                    and (gap := _missing_column([_cell_kind(row, a, b) for a, b in cells], kinds)) is not None:
                named = names[:gap] + names[gap + 1:]  # a blank cell: the others by what they hold
            else:
                break
            cells, named = _compound_cells(row.text, cells, named)
            row.spans = [sp for (a, b), name in zip(cells, named) for sp in _cell_spans(row, a, b, name)]
            j += 1
        i = j if j > first else i + 1


#: Inside one header cell, two columns shown together ("Client › Project" over "Marlowe Books ›
#: Shop Migration").
_COMPOUND = re.compile(r"\s[›>/»]\s")


def _compound_cells(text: str, cells: list[tuple[int, int]], names: list[str]) -> tuple[list[tuple[int, int]], list[str]]:
    """Cells and names with every compound header cell split in its parts, where the row's cell
    is split the same way."""
    out_cells, out_names = [], []
    for (a, b), name in zip(cells, names):
        parts = _COMPOUND.split(name)
        seps = list(_COMPOUND.finditer(text, a, b))
        if len(parts) >= 2 and len(seps) == len(parts) - 1:
            bounds = [a] + [x for m in seps for x in (m.start(), m.end())] + [b]
            for k, part in enumerate(parts):
                out_cells.append((bounds[2 * k], bounds[2 * k + 1]))
                out_names.append(part.strip())
        else:
            out_cells.append((a, b))
            out_names.append(name)
    return out_cells, out_names


def _cell_kind(row: _Unit, a: int, b: int) -> str:
    """What a table cell holds: a date, a number in a unit's dimension, a bare number, or text."""
    if any(a <= s and e <= b for s, e, _ in row.dates):
        return "date"
    found = find_spans(row.text[a:b])
    if found and found[0].num is not None:
        return found[0].dimension or "number"
    return "number" if re.search(r"\d", row.text[a:b]) else "text"


def _missing_column(kinds: list[str], columns: list[str]) -> int | None:
    """Which column a row one cell short left blank: the only one whose removal lines the row's
    cells up with what the columns hold ("Raspberries · Fruit cage · 400 g" under Crop · Bed ·
    Qty · Weight leaves out Qty, not Weight). Pure."""
    fits = [k for k in range(len(columns)) if columns[:k] + columns[k + 1:] == kinds]
    return fits[0] if len(fits) == 1 else None


def _weekday_run(names: list[str], ref: date | None) -> list[date | None]:
    """"Mon | Tue | Wed" sent on ``ref``: the latest run of those weekdays, in order, ending on
    or before ``ref``."""
    wds = [WEEKDAYS.get(n.strip(" .:").lower()) for n in names]
    if ref is None or any(w is None for w in wds):
        return [None] * len(names)
    out: list[date] = []
    day = ref - timedelta(days=(ref.weekday() - wds[-1]) % 7)  # type: ignore[operator]
    out.append(day)
    for w in reversed(wds[:-1]):
        day = day - timedelta(days=(day.weekday() - w) % 7 or 7)  # type: ignore[operator]
        out.append(day)
    return list(reversed(out))


def _day_header_of(unit: _Unit, ref: date | None = None) -> tuple[str, list[tuple[int, int]], list[date], bool] | None:
    """A line of days only ("Mon | Tue | Wed", "Field | Mar 3 | Mar 4"): the header of a table
    whose columns are days. Returns the separator, the day cells, their days, and whether a first
    cell names the rows' labels instead of a day."""
    for sep in _TABLE_SEPARATORS:
        cells = _cells_of(unit.text, sep)
        if len(cells) < 2:
            continue
        days: list[date] = []
        for a, b in cells:
            day = next((d for s, e, d in unit.dates if d is not None and s <= a + 1 and e >= b - 1), None)
            days.append(day)  # type: ignore[arg-type]
        lead = days[0] is None and not re.search(r"\d", unit.text[cells[0][0]:cells[0][1]]) and \
            unit.text[cells[0][0]:cells[0][1]].strip(" .:").lower() not in WEEKDAYS
        body, found = (cells[1:], days[1:]) if lead else (cells, days)
        if all(d is None for d in found):  # weekday names alone
            found = _weekday_run([unit.text[a:b] for a, b in body], ref)
        if len(body) >= 2 and all(d is not None for d in found) and len(set(found)) == len(found):
            return sep, body, found, lead
    return None


def _read_day_columns(units: list[_Unit], ref: date | None) -> list[_Unit]:
    """"Mon | Tue | Wed" over "Steps 8,012 | 9,230 | 4,410": a table whose columns are days holds
    one record per column. Each value cell becomes a unit of its own, labelled by its row's
    first words and dated by its column, in column order, so the records are the columns."""
    out: list[_Unit] = []
    i = 0
    while i < len(units):
        head = _day_header_of(units[i], ref) if units[i].observing else None
        if head is None:
            out.append(units[i])
            i += 1
            continue
        sep, _, days, lead = head
        columns: list[list[_Unit]] = [[] for _ in days]
        j = i + 1
        while j < len(units) and units[j].part == units[i].part and units[j].observing:
            row = units[j]
            cells = _cells_of(row.text, sep)
            if len(cells) != len(days) + lead or not re.search(r"\d", row.text) and any(
                    len(row.text[a:b].split()) > 3 for a, b in cells[1:]):
                break
            if lead:
                label, values = row.text[cells[0][0]:cells[0][1]].strip(" :"), cells[1:]
            else:  # "Steps 8,012 | 9,230": the first cell is the label and the first day's value
                a, b = cells[0]
                m = re.match(r"\s*([A-Za-z][A-Za-z .'’/\-]*?)(?:\s*:\s*|\s+)(?=[\d$€£+\-−]|\S+$)", row.text[a:b])
                if m is None:
                    break
                label, values = m.group(1).strip(), [(a + m.end(), b), *cells[1:]]
            if not re.search(r"[A-Za-z]", label):
                break
            for k, (a, b) in enumerate(values):
                spans = [replace(sp, start=sp.start - a, end=sp.end - a) for sp in _cell_spans(row, a, b, label)]
                columns[k].append(_Unit(row.part, row.start + a, row.text[a:b], spans, [days[k]], True, []))
            j += 1
        if j == i + 1:
            out.append(units[i])
            i += 1
            continue
        units[i].days = []  # the header's days are the columns', no day of a record of its own
        out.append(units[i])
        out.extend(u for col in columns for u in col)
        i = j
    return out


#: Words of a series' heading that name its period, not its field ("Steps this week:").
_SERIES_WORDS = frozenset("week weekly day daily days by per this last past so far view summary".split())


def _read_day_series(units: list[_Unit], ref: date | None) -> list[_Unit]:
    """"Steps this week: Mon 8,012 · Tue 9,230 · Wed 4,410", "Mar 3: 14 qz vrell; Mar 4: 12 qz
    vrell": a line whose parts each open with a day of their own holds a record per part, even
    of one field. A heading in front names the values that carry no label. Each part becomes a
    unit of its own, dated by its day; several such lines in a row over the same days ("Vrell:
    Mon 14 qz, Tue 12 qz" / "Drom: Mon 30 min, Tue 25 min", a day left out of a line where the
    field was not taken) are one record per day."""
    out: list[_Unit] = []
    block: list[tuple[_Unit, list[_Unit]]] = []  # consecutive series lines: (heading unit, part units)

    def flush() -> None:
        if not block:
            return
        if len(block) > 1:  # day-major: the records are the days, whichever lines name each
            out.extend(head for head, _ in block)
            out.extend(sorted((u for _, parts in block for u in parts), key=lambda u: u.days[0]))
        else:
            for head, parts in block:
                out.append(head)
                out.extend(parts)
        block.clear()

    gots = [_series_parts(unit, ref) if unit.observing else None for unit in units]
    # a line of one day ("Slirn: 23 Feb 95 brex") belongs to the series lines around it, else it is no series
    accepted = [g is not None and len(g[2]) > 1 for g in gots]
    changed = True
    while changed:
        changed = False
        for i, g in enumerate(gots):
            if g is not None and not accepted[i] and g[0] and any(
                    0 <= j < len(units) and accepted[j] and units[j].part == units[i].part for j in (i - 1, i + 1)):
                accepted[i] = changed = True
    for unit, got, ok in zip(units, gots, accepted):
        if got is None or not ok:
            flush()
            out.append(unit)
            continue
        label, head, parts = got
        if block and block[-1][0].part != unit.part:
            flush()
        pieces = []
        for a, b, day in parts:
            if re.search(r"\d", unit.text[a:b]):
                spans = find_spans(unit.text[a:b])
            else:  # "Tremfai: Thu Krepar, Fri Gemven": a category per day
                spans = [Span(0, b - a, None, unit.text[a:b], None, None, label, unit.text[a:b], colon=True)] if label else []
            if label:
                for sp in spans:
                    if not sp.label:
                        sp.label, sp.label_after, sp.colon = label, False, True
            pieces.append(_Unit(unit.part, unit.start + a, unit.text[a:b], spans, [day], True, []))
        block.append((_Unit(unit.part, unit.start, unit.text[:head], [], [], True, []), pieces))
    flush()
    return out


_WEEKDAY_OPENER = re.compile(r"(?:^|(?<=[,;·|•:—–]))\s*(?P<w>[A-Za-z]{3,9})\.?(?=\s*:?\s+[\d$€£+\-−A-Z])")


def _series_parts(unit: _Unit, ref: date | None) -> tuple[str, int, list[tuple[int, int, date]]] | None:
    """The heading's label, where the first day opens, and each part's (start, end, day)."""
    text = unit.text
    openers: list[tuple[int, int, date | None, str]] = []
    for s, e, d in unit.dates:
        if d is not None and re.search(r"(?:^|[,;·|•:—–])\s*$", text[:s]):
            openers.append((s, e, d, ""))
    for m in _WEEKDAY_OPENER.finditer(text):
        if m.group("w").lower() in WEEKDAYS and not any(s <= m.start("w") < e for s, e, _, _ in openers):
            openers.append((m.start("w"), m.end("w"), None, m.group("w")))
    openers.sort()
    if not openers or (any(o[3] for o in openers) and not all(o[3] for o in openers)):
        return None
    head = text[:openers[0][0]]
    if re.search(r"\d", head) or not (not head.strip() or re.search(r"(?::|[—–])\s*$", head)):
        return None  # the first day opens the line or follows its heading
    if all(o[3] for o in openers):
        run = _weekday_run([o[3] for o in openers], ref)
        if any(d is None for d in run):
            return None
        openers = [(s, e, d, w) for (s, e, _, w), d in zip(openers, run)]
    parts = []
    for k, (s, e, d, _) in enumerate(openers):
        end = openers[k + 1][0] if k + 1 < len(openers) else len(text)
        a = e + len(text[e:end]) - len(text[e:end].lstrip(" :.,"))
        b = a + len(text[a:end].rstrip(" ,;·|•.—–"))
        if not re.search(r"\d", text[a:b]) and not re.fullmatch(r"[A-Z][\w'’\-]*(?: [\w'’\-]+){0,2}", text[a:b]):
            return None  # a value per day: a number, or a short name of a category
        parts.append((a, b, d))
    if len({d for _, _, d in parts}) != len(parts):
        return None
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’\-]*", re.split(r":|\s[—–]\s", head.rstrip(" :—–"))[-1])
             if w.lower() not in _SERIES_WORDS and w.lower() not in _LABEL_STOP]
    return (" ".join(words) if 0 < len(words) <= 4 else ""), openers[0][0], parts  # type: ignore[return-value]


_HEADER_UNIT = re.compile(r"^(?P<label>.*?[A-Za-z].*?)(?:\s*[(\[](?P<a>[^()\[\]]{1,8})[)\]]|[_\s](?P<b>[A-Za-z$€£%/]{1,6}))\s*$")


_HEADER_GLUE = frozenset({"of", "per", "a", "an", "the", "in", "at", "by", "for", "to", "on"})


def unit_in_header(label: str) -> tuple[str, str] | None:
    """A column header that names its unit ("duration_h", "rate_usd", "weight (kg)", "cost [€]"):
    the label without it and the unit, else None. Pure."""
    m = _HEADER_UNIT.match(label.strip())
    if m is None:
        return None
    unit = canonical_unit(m.group("a") or m.group("b"))
    rest = m.group("label").strip(" _")
    if unit is None or dimension_of(unit) == "count" or re.split(r"[_\s]+", rest)[-1].lower() in _HEADER_GLUE:
        return None  # "time_of_day": a phrase, not a label and its unit
    return rest, unit


_CLOCK_CELL = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?")


def _cell_spans(row: _Unit, a: int, b: int, label: str) -> list[Span]:
    """The value of one table cell, labelled by its column's header; a date cell names the
    row's day (already read) and a dash an empty cell."""
    cell = row.text[a:b]
    if any(a <= s and e <= b for s, e, _ in row.dates) or re.fullmatch(r"[—–\-]+|n/?a", cell, re.I):
        return []
    found = [sp for sp in find_spans(cell) if not (sp.label and sp.label_after and sp.unit is None)]
    if _CLOCK_CELL.fullmatch(cell.strip()) and LABELS.get(label.strip().lower()) == "duration":
        # "3:15" under "Duration": a length of time written as a clock is, not a time of day
        lead = len(cell) - len(cell.lstrip())
        found = [replace(sp, start=sp.start - len(label) - 1 + lead, end=sp.end - len(label) - 1 + lead)
                 for sp in find_spans(f"{label} {cell.strip()}") if sp.start > len(label)] or found
    if found:
        sp = max(found, key=lambda x: x.end - x.start)
        unit, dimension = sp.unit, sp.dimension
        if unit is None and sp.num is not None and (headed := unit_in_header(label)) is not None:
            label, unit = headed  # "duration_h" over "1.75": 1.75 h of duration
            dimension = dimension_of(unit)
        elif unit is None and sp.num is not None and (own := canonical_unit(label.strip().lower())) is not None \
                and dimension_of(own) not in (None, "count"):
            label, unit, dimension = "", own, dimension_of(own)  # "min" over "30": 30 minutes, named by its unit
        return [Span(a + sp.start, a + sp.end, sp.num, sp.text, unit, dimension, label, sp.raw, sp.missing,
                     False, True, True, sp.role)]
    if re.search(r"\d", cell) or len(cell.split()) > 4:
        return []
    return [Span(a, b, None, cell, None, None, label, cell, colon=True)]


def _labelled_cell(unit: _Unit, sp: Span) -> bool:
    """"85.7 qv Shask vrend, 32.40 USD Stetvy, 17 Farr": a value followed by its label filling a
    cell of a list whose other cells are written the same way (value, unit, label) - the label
    after is the layout's, not a noun the number counts ("with 3 rows")."""
    before = unit.text[:sp.start].rstrip()
    if before and not before.endswith((",", ":", "·", "•", "|", ";", "/", "—", "–")):
        return False
    rest = unit.text[sp.end:]
    m = re.match(r"\s*" + re.escape(sp.label) + r"\s*(?=[,;·•|/—–.]|$)", rest)
    if m is None:
        return False
    return sum(1 for o in unit.spans if o is not sp and o.label_after and o.label and o.unit) >= 2


def _count_of(text: str, sp: Span) -> bool:
    """"... and 2 lows": a count of a plural noun in a list of values, not "with 3 rows"."""
    before = text[:sp.start].rstrip().lower()
    return (len(sp.label.split()) == 1 and sp.label.lower().endswith("s") and not sp.label.lower().endswith("ss")
            and (before.endswith((",", "and", ":", "·", "|")) or not before))


def _is_heading(text: str, sp: Span) -> bool:
    """Is the value's label the opening words of a prose sentence, before a colon?"""
    head = text[:sp.start]
    colon = head.rfind(":")
    if colon < 0 or re.search(r"[A-Za-z]", head[colon + 1:]):
        return False
    return sp.label.lower() not in LABELS and not re.search(r"[|·•;]", head)


#: What may follow a day that heads a section of a message ("Tuesday: Was in the office.").
_HEADING_END = re.compile(r"\s*(?:[:—–]|\s-\s)")


def _day_heading(unit: _Unit) -> list[date]:
    """The day a unit opens with as a heading ("Yesterday: Six hours of sleep", "Tuesday - ..."):
    the day of everything after it until the next such heading, which a message telling several
    days in a row ("Tuesday: ... Wednesday: ...") writes once per day; [] when it opens with none."""
    lead = len(unit.text) - len(unit.text.lstrip(" \t\"'‘“*#"))
    for a, b, day in unit.dates:
        if a == lead and day is not None and _HEADING_END.match(unit.text, b):
            return [day]
    return []


def _records(units: list[_Unit]) -> tuple[list[_Record], list[_Unit]]:
    records: list[_Record] = []
    context: list[_Unit] = []
    current: _Record | None = None
    pending_event = False
    section: list[date] = []  # the day the last day heading names: its section's records have it
    for unit in units:
        if heading := _day_heading(unit):
            if section and heading != section or current is not None and current.days and current.days != heading:
                current = None  # the next day's section: none of its fields join the last day's record
            section = heading
            if current is not None and not current.days:
                current = None  # "Saturday: ..." after an undated record is a new day of its own
        fields = _fields(unit) if unit.observing else []
        if any(f.repeat for f in fields) and not _repeats_layout(unit, fields):
            fields = _one_record(fields)
        if any(f.repeat for f in fields):
            segments = _segments(unit, fields)
            for k, (seg, days) in enumerate(segments):
                if k == 0 and current is not None and not any(f.name in current.fields for f in seg) and not (
                        days and current.days and days[0] != current.days[0]):
                    rec = current
                else:
                    rec = current = _Record()
                    records.append(rec)
                for f in seg:
                    rec.fields[f.name] = f
                rec.units.append(unit)
                rec.days.extend(d for d in days if d not in rec.days)
            pending_event = False
            continue
        event = unit.observing and _EVENT.search(unit.text) is not None
        if not fields:
            context.append(unit)
            pending_event = pending_event or event
            continue
        event = event or pending_event
        pending_event = False
        conflict = current is None or unit.entry or any(f.name in current.fields for f in fields) or (
            unit.days and current.days and unit.days[0] != current.days[0]) or event or (
            current.event and names_something(unit.text))
        if conflict:
            current = _Record(event=event)
            records.append(current)
        assert current is not None
        for f in fields:
            current.fields[f.name] = f
        current.units.append(unit)
        for d in unit.days or section:
            if d not in current.days:
                current.days.append(d)
    return records, context


def _unit_named(name: str, unit: str | None) -> str:
    """The name a second value of one field takes in a record: with its unit ("distance_m"), or
    none when it has no unit."""
    return snake_case(f"{name}_{unit}") if unit else ""


def _groups(fields: list[_Field]) -> list[list[_Field]]:
    groups: list[list[_Field]] = [[]]
    for f in fields:
        if f.repeat and groups[-1]:
            groups.append([])
        groups[-1].append(f)
    return groups


def _repeats_layout(unit: _Unit, fields: list[_Field]) -> bool:
    """Does every later part of the line repeat at least two fields of the first ("6h 10m /
    60 bpm / 6,120 steps; 7h 30m / 58 bpm / ..."), or does every part open with a day of its own
    ("Mar 3: $6.50 ...; Mar 4: $42.10 ...")? One field said twice in prose ("from x=1 to 8 ...
    from x=1") is no second record."""
    groups = _groups(fields)
    first = [f.name for f in groups[0]]
    if all(len([f.name for f in g if f.name in first]) >= 2 for g in groups[1:]):
        return True
    return all(days for _, days in _dated_groups(unit, groups))


def _one_record(fields: list[_Field]) -> list[_Field]:
    """A line that holds one record after all: a repeated field keeps its unit-named second
    name, or is left out (as a second value of one field always was)."""
    out: list[_Field] = []
    taken: set[str] = set()
    for f in fields:
        if f.name not in taken:
            out.append(_Field(f.name, f.span, f.unit_ref))
            taken.add(f.name)
            continue
        alt = _unit_named(f.name, f.span.unit)
        if alt and alt not in taken:
            out.append(_Field(alt, f.span, f.unit_ref))
            taken.add(alt)
    return out


def _dated_groups(unit: _Unit, groups: list[list[_Field]]) -> list[tuple[list[_Field], list[date]]]:
    """Each group with the days written between the previous group and its first field."""
    starts = [min(f.span.start for f in g) for g in groups]
    out = []
    for k, g in enumerate(groups):
        lo = max(f.span.end for f in groups[k - 1]) if k else 0
        out.append((g, [d for a, _, d in unit.dates if lo <= a < starts[k] and d is not None]))
    return out


def _segments(unit: _Unit, fields: list[_Field]) -> list[tuple[list[_Field], list[date]]]:
    """A line holding several records (the same fields over and over) as one field list per
    record, each with the days written in front of its first field."""
    out = _dated_groups(unit, _groups(fields))
    if not any(days for _, days in out):
        return [(g, unit.days[:1]) for g, _ in out]
    return out


def extract_text(text: str, source: str, ref_time: object) -> list[Draft]:
    """Observations in one text (``source`` names it: "user_text", "image:<id>" ...)."""
    from adamm.stores.records import Round as _R  # noqa: PLC0415 - a throwaway round

    if not isinstance(text, str) or not text.strip():
        return []
    rnd = _R(round_id="x", user_text=text, timestamp=ref_time)  # type: ignore[arg-type]
    drafts = extract_round(rnd)
    for d in drafts:
        d.source = d.source.replace("user_text", source, 1)
    return drafts


def extract_round(rnd: Round, ocr: dict[str, str] | None = None) -> list[Draft]:
    """The records of one round as drafts (see the module docstring)."""
    ref = rnd.timestamp.date() if rnd.timestamp else None
    parts: list[tuple[str, str]] = []
    if rnd.user_text.strip():
        parts.append(("user_text", rnd.user_text))
    for im in rnd.images:
        if im.caption and im.caption.strip():
            parts.append((f"image:{im.image_id}", im.caption))
        if ocr and ocr.get(im.image_id):
            parts.append((f"ocr:{im.image_id}", ocr[im.image_id]))
    units: list[_Unit] = []
    other = False
    for part, text in parts:
        for unit in _units(part, text):
            dates = find_dates(unit.text, ref)
            # "Today: 68 min" on an app card is the screenshot's day, which the user's words date.
            unit.days = [d.day for d in dates if d.day is not None and (d.kind == "day" or part == "user_text")]
            other = _about_other(unit.text, other)
            unit.observing = _observing(unit, other)
            if unit.observing and _SLEEP.search(unit.text) and ref is not None:
                # A night's sleep is dated by the day one wakes up, as sleep apps do.
                unit.days = [ref if d == ref - timedelta(days=1) and _LAST_NIGHT.search(unit.text) else d for d in unit.days]
            unit.spans = find_spans(unit.text, [(d.start, d.end) for d in dates]) if unit.observing else []
            if unit.observing and (hedged := _hedged_cells(unit.text)):
                unit.spans = [sp for sp in unit.spans if not any(a <= sp.start < b for a, b in hedged)]
                # a plan, a goal or a habit with no value stated outside it: the unit reports nothing
                unit.observing = bool(unit.spans)
            unit.dates = [(d.start, d.end, d.day) for d in dates]
            if unit.spans and any(sp.role == "money" for sp in unit.spans):
                unit.spans.extend(_merchant(unit.text, unit.spans))
                unit.spans.sort(key=lambda sp: (sp.start, sp.role != "first"))
            units.append(unit)
    _read_header_tables(units)
    units = _read_day_columns(units, ref)
    units = _read_day_series(units, ref)
    records, context = _records(units)
    shared = [(u, f) for u in context if u.observing for f in find_facets(u.text)]
    drafts: list[Draft] = []
    context_days = [d for u in context for d in u.days]
    all_days = {d for u in units for d in u.days}
    context_text = " ".join(u.text.strip() for u in context)
    position = {id(u): i for i, u in enumerate(units)}
    undated = [rec for rec in records if not rec.days]
    distinct_context = list(dict.fromkeys(context_days))
    # "Monday and Tuesday:" over two screenshots: the days the words name, one per record in order
    in_order = {id(rec): d for rec, d in zip(undated, distinct_context)} if len(undated) > 1 and len(distinct_context) == len(undated) else {}
    # a name a record states under a label of its own ("Client: Marlowe Books") is no payee to lend
    stated = {f.span.text.lower() for rec in records for f in rec.fields.values() if f.span.text}
    for i, rec in enumerate(records):
        day = rec.days[0] if rec.days else in_order.get(id(rec)) or (context_days[0] if context_days else (
            next(iter(all_days)) if len(all_days) == 1 else None))
        # in reading order where it fits: a heading line over the record's lines stays in front
        # ("Sleep summary for Mar 4" / "Total: 7:54"); else the record's own text first
        own = {u.part for u in rec.units}
        inline = sorted([*rec.units, *(u for u in context if u.part in own)], key=lambda u: position[id(u)])
        text = " ".join([*(u.text.strip() for u in inline), *(u.text.strip() for u in context if u.part not in own)]).strip()
        if len(text) > MAX_RECORD_TEXT:
            text = " ".join([*(u.text.strip() for u in rec.units), context_text]).strip()[:MAX_RECORD_TEXT]
        starts = rec.event and any(_STARTED.search(u.text) for u in rec.units)
        for f in rec.fields.values():
            sp = f.span
            a, b = f.unit_ref.start + sp.start, f.unit_ref.start + sp.end
            name, strict = f.name, False
            if starts and sp.dimension == "count" and name == sp.unit:
                name, strict = "size", True  # "Started X - 248 pages": the thing's size, not pages read
            drafts.append(Draft(attribute=name, value_num=sp.num if sp.num is None or math.isfinite(sp.num) else None,
                                value_text=sp.text, unit=sp.unit, dimension=sp.dimension, raw=sp.raw,
                                source=f"{f.unit_ref.part}[{a}:{b}]", observed_at=day, record=i, text=text,
                                missing=sp.missing, bare=_bare(sp, name), label=sp.label, strict=strict))
        own = [(u, f) for u in rec.units for f in find_facets(u.text) if _within(rec, records, u, f.start)]
        seen = set(rec.fields)
        borrowed = [(u, f) for other in records if other is not rec for u in other.units for f in find_facets(u.text)
                    if f.attribute in IDENTITY_FACETS and u not in rec.units
                    and (f.value or "").lower() not in stated] if len(records) > 1 else []
        for u, fc in sorted(own, key=lambda uf: uf[1].rank) + sorted(shared, key=lambda uf: uf[1].rank) + borrowed:
            if fc.attribute in seen or (fc.attribute == "time_of_day" and _SLEEP.search(text)):
                continue  # the surest reading of a field wins ("bike: Gravel"); sleep spans the night
            if fc.attribute == "time_of_day" and any(f.unit_ref is u and f.span.start < fc.end and fc.start < f.span.end
                                                     for f in rec.fields.values()):
                continue  # "5.01 km · 21:44": a value read as a duration is no time of day
            if fc.value and any(d.record == i and (d.value_text or "").lower() == fc.value.lower() for d in drafts):
                continue  # "Vrell: Kretan Apyss" read again as a payee: one value, its labelled field
            seen.add(fc.attribute)
            drafts.append(Draft(attribute=fc.attribute, value_num=None, value_text=fc.value, unit=None, dimension=None,
                                raw=u.text[fc.start:fc.end], source=f"{u.part}[{u.start + fc.start}:{u.start + fc.end}]",
                                observed_at=day, record=i, text=text, label=fc.label))
    drafts = _without_totals(drafts)
    drafts.extend(_metadata(rnd, len(records)))
    return drafts


#: Label words that make a value the sum of others ("Week total 4.03 kg").
_TOTAL_WORDS = frozenset({"total", "totals", "sum", "altogether"})
#: A span of time longer than the day a record is about: a total over it sums many records.
_LONG_PERIOD = re.compile(r"\b(?:(?:this|last|past|the|a|per|that)\s+(?:week|month|year|fortnight)|weekly|monthly|yearly|year-to-date)\b", re.I)


def _without_totals(drafts: list[Draft]) -> list[Draft]:
    """Drop a value labelled a total that is the sum of the same field in the round's other
    records (a table's footer, "Week total 4.03 kg" under five pickings), or that repeats the one
    other value of its dimension ("Day total 2:30" under a 02:30:00 timer), with the record it
    alone made: the rows are the records, their sum is no further one. A record's own parts and
    their total ("Deep 1:10 · REM 1:40 · Total 7:54") stay."""
    drop: set[int] = set()
    for n, d in enumerate(drafts):
        if d.value_num is None or not _TOTAL_WORDS & set(re.findall(r"[a-z]+", (d.label or "").lower())):
            continue
        others = [e for e in drafts if e is not d and e.value_num is not None
                  and (e.attribute == d.attribute or d.dimension is not None and e.dimension == d.dimension)]
        held = {e.record for e in others}
        if not others or (len(held) < 2 and d.record in held and len(others) > 1):
            continue  # a record's own parts and their total ("Deep 1:10 · REM 1:40 ... Total 7:54") are its fields
        # a total equal to one other value says it again ("Day total 2:30" under a 02:30:00 timer)
        try:
            total = sum(convert(e.value_num, e.unit, d.unit) if e.unit and d.unit and e.unit != d.unit else e.value_num
                        for e in others)  # type: ignore[misc]
        except ValueError:
            continue
        if math.isclose(total, d.value_num, rel_tol=0.02):
            drop.add(n)
    if not drop:
        return drafts
    gone = {drafts[n].record for n in drop}
    left = {d.record for n, d in enumerate(drafts) if n not in drop and d.value_num is not None}
    return [d for n, d in enumerate(drafts) if n not in drop and not (d.record in gone and d.record not in left)]


def _within(rec: _Record, records: list[_Record], unit: _Unit, pos: int) -> bool:
    """Is a position of a unit that several records share inside ``rec``'s part of it? Parts are
    cut at the first comma, semicolon or "then" between one record's last value and the next
    one's first ("Coffee $4.50 cash, then lunch at Panera $12.80 on my Amex")."""
    sharing = sorted((min(f.span.start for f in r.fields.values() if f.unit_ref is unit),
                      max(f.span.end for f in r.fields.values() if f.unit_ref is unit), id(r))
                     for r in records if any(f.unit_ref is unit for f in r.fields.values()))
    if len(sharing) < 2:
        return True
    cuts = []
    for (_, end, _), (start, _, _) in zip(sharing, sharing[1:]):
        m = re.search(r"[,;]|\s(?:then|and)\s", unit.text[end:start])
        cuts.append(end + m.start() if m else (end + start) // 2)
    k = next((j for j, (_, _, rid) in enumerate(sharing) if rid == id(rec)), None)
    if k is None:
        return True
    lo = cuts[k - 1] if k > 0 else 0
    hi = cuts[k] if k < len(cuts) else len(unit.text)
    return lo <= pos < hi


_SLEEP = re.compile(r"\b(?:sleep|slept|asleep|nap)\b", re.I)
_LAST_NIGHT = re.compile(r"last\s+night", re.I)
_PAYEE = re.compile(r"\b(?:at|to|from)\s+(?P<np>(?:[A-Z][\w'’&.\-]*|&)(?:\s+(?:[A-Z][\w'’&.\-]*|&)){0,3})")


def _merchant(text: str, spans: list[Span]) -> list[Span]:
    """A payment's "at / to / from <Name>" is its merchant ("Spent $55.12 at Uber"); a line of
    several payments has one each."""
    if any(sp.label in ("merchant", "payee", "store", "vendor") for sp in spans):
        return []
    out = []
    for m in _PAYEE.finditer(text):
        name = m.group("np").rstrip(".,")
        if canonical_unit(name) is not None or canonical_unit(name.split()[0]) is not None:
            continue  # "came to EUR 35.39": the amount's currency, no one paid
        out.append(Span(m.start("np"), m.start("np") + len(name), None, name, None, None, "merchant", name))
        if len(out) >= sum(1 for sp in spans if sp.role == "money"):
            break
    return out


def _metadata(rnd: Round, record: int) -> list[Draft]:
    """Numeric metadata are observations of their own record; text metadata (a speaker, a
    session name) are context, never a measured field."""
    out = []
    for key, value in rnd.metadata.items():
        name = snake_case(key)
        if not name or isinstance(value, bool) or value is None:
            continue
        if isinstance(value, (int, float)):
            v = float(value)
            if math.isfinite(v):
                out.append(Draft(name, v, None, None, None, f"{key}: {value}", f"metadata:{key}", record=record))
        elif isinstance(value, str):
            q = parse_quantity(value.strip()) if len(value) < 40 else None
            if q is not None and q.unit is not None:
                out.append(Draft(name, q.value, None, q.unit, q.dimension, f"{key}: {value}", f"metadata:{key}", record=record))
    return out
