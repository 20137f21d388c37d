"""Facets of a record that hold in every domain: what part of the day it was, who was paid.

Numbers carry labels and units; a few categorical values are known without the memory's help
because they are about time or money, not about any one kind of log:

1. **the part of the day** - "this morning", "(afternoon)", a clock time "06:40" or "9:15 PM";
2. **the payee** - in a text about money, a name paid "at / from" ("at the Orvak kreel": the
   word after it, "kreel", is what the memory calls such places, kept as an alias).

Everything else categorical - a book's format, a fuel grade, a payment method, a meal, which
arm, the kind of an outing ("tempo run", "commute") - is discovered from the memory's own recurrences (``slots``: words beside a value and
cells of a layout; ``terms``: recurring terms that take turns), never listed here. A name in
a naming position (quoted, in parentheses, after "of / to / at") outside a payment says that a
text is about a thing (:func:`names_something`), which separates records; which field it
fills is again the memory's to find.

A facet never makes a record on its own: the caller attaches facets to records made of
measured values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from adamm.nodes.rules.slots import is_content_word

__all__ = ["Facet", "find_facets", "clock_part_of_day", "names_something", "vocabulary_values"]


@dataclass(frozen=True)
class Facet:
    """One categorical value of a record: ``attribute`` = ``value`` read at text[start:end]."""

    attribute: str
    value: str
    start: int
    end: int
    label: str = ""  #: a word the text used for the field ("station"), kept as an alias
    rank: int = 0  #: lower is surer; the caller keeps the surest facet per attribute


# -- 1. the part of the day ----------------------------------------------------------------------

def _key(raw: str) -> str:
    return re.sub(r"[\s-]+", " ", raw.lower()).strip()


def _vocab(spec: dict[str, str]) -> tuple[re.Pattern[str], dict[str, str]]:
    """A regex over every surface form (longest first) and surface -> canonical value."""
    table: dict[str, str] = {}
    for canonical, forms in spec.items():
        for form in forms.split("|"):
            table[form.lower()] = canonical
            table.setdefault(_key(form).replace(" ", ""), canonical)  # "e-book", "e book", "ebook"
    alts = sorted(table, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(a).replace(r"\ ", r"[\s-]?") for a in alts) + r")s?(?![\w-])", re.I)
    return pattern, table


def _lookup(table: dict[str, str], raw: str) -> str | None:
    k = _key(raw)
    for cand in (k, k[:-1] if k.endswith("s") else k):  # "paperbacks", "mornings"
        found = table.get(cand) or table.get(cand.replace(" ", ""))
        if found:
            return found
    return None


#: "night" is left out: "last night" dates a record (a night's sleep, last night's reading)
#: more often than it places it in the day.
_PART_OF_DAY = _vocab({"morning": "morning|this morning", "afternoon": "afternoon", "evening": "evening|tonight"})
_VOCABULARIES = (_PART_OF_DAY,)
_VOCABULARY_NAMES = ("time_of_day",)
VOCABULARY_NAMES = frozenset(_VOCABULARY_NAMES)
_MONEY = re.compile(r"[$€£¥₹]|\b(?:EUR|USD|GBP|CHF|euros?|dollars?|paid|cost|charged|receipt|invoice|bill)\b", re.I)


# -- 2. names -----------------------------------------------------------------------------------

_CAP = r"(?:[A-Z][\w'’\-]*|[A-Z]\.)"
_JOIN = r"(?:of|the|to|and|in|on|de|du|la|le|von|van|&|a|an|at|for|del|da)"
_TITLE = re.compile(_CAP + r"(?:\s+(?:" + _JOIN + r"\s+)*" + _CAP + r")*")
_QUOTED = re.compile(r"(?<!\w)['‘\"“](?P<q>(?:[^'’\"”\n]|['’](?=\w)){2,80}?)['’\"”](?!\w)")
_PAREN = re.compile(r"\((?P<q>[A-Z][\w'’\-]*(?:\s+[\w'’\-]+){0,4})\)")
_COLON_TAIL = re.compile(r":\s+(?:the\s+)?(?P<q>[A-Z][\w'’\-]*(?:\s+[\w'’\-]+){0,4})\s*[.!]?\s*$")
_NAMING_WORD = re.compile(r"(?:\b(?:of|to|tracing|started|starting|finished|finishing|reading|read|did|at|from|the)\s+"
                          r"(?:the\s+)?)$", re.I)
_CELL_SPLIT = re.compile(r"\s[—–-]\s|\s?[·•|;]\s?")
_CALENDAR = frozenset("""mon monday tue tues tuesday wed wednesday thu thur thurs thursday fri friday sat saturday sun
sunday jan january feb february mar march apr april may jun june jul july aug august sep sept september oct october nov
november dec december today yesterday tonight i i'm i've i'd""".split())
_OPENERS = frozenset("""here here's this that these those just got took paid filled picked listening listened reading
read started finished progress stats photo screenshot receipt dashboard oh and but so also then today yesterday tonight
another""".split())


def clock_part_of_day(hour: int) -> str:
    """The part of the day an hour (0-23) falls in, as people say it."""
    if 5 <= hour < 12:
        return "morning"
    if 12 <= hour < 17:
        return "afternoon"
    if 17 <= hour < 22:
        return "evening"
    return "night"


_CLOCK = re.compile(r"(?<![\w:.])(?P<h>\d{1,2}):(?P<m>[0-5]\d)(?::\d{2})?(?![\d:])(?!\s?(?:h|min|moving|long|elapsed|km|mi|pages?)\b)"
                    r"(?:\s?(?P<ap>[ap]\.?m\.?|AM|PM)(?!\w))?"
                    r"|(?<![\w:.])(?P<h2>\d{1,2})\s?(?P<ap2>[ap]\.m\.|AM|PM|am|pm)(?!\w)")


def _clock_hour(m: re.Match[str]) -> int | None:
    h = int(m.group("h") or m.group("h2"))
    ap = (m.group("ap") or m.group("ap2") or "").lower().replace(".", "")
    if ap:
        if not 1 <= h <= 12:
            return None
        return (h % 12) + (12 if ap.startswith("p") else 0)
    if m.group("h") and len(m.group("h")) == 2 and h <= 23:
        return h  # "06:24", "21:01": a 24-hour clock; "1:13" without am/pm may be a duration
    return None


def _is_vocabulary_word(text: str) -> bool:
    """Is the text one value of a closed vocabulary ("Lunch", 'Commute', "Group ride")?"""
    return any(_lookup(table, text) for _, table in _VOCABULARIES)


def _is_name(words: list[str]) -> bool:
    """A name has a word that is not a calendar word, no digits ("E10", "pump 3"), and is not an
    abbreviation alone ("SYS", "EUR", "TOTAL EUR": labels and units on a display)."""
    core = [w for w in words if w.lower() not in ("the", "a", "an")]
    if not core or all(re.sub(r"['’]s$", "", w.lower()).strip("'’.") in _CALENDAR for w in core):
        return False
    if any(re.search(r"\d", w) for w in core):
        return False
    return not all(w.isupper() and len(w) <= 5 for w in core)


def _trim_title(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop a sentence-opening verb or opener swept into a Title-Case match ("Started Orchards
    of Mars" -> "Orchards of Mars") and connectors left at either end."""
    words = list(re.finditer(r"\S+", text[start:end]))
    while words and (words[0].group().lower() in _OPENERS or re.fullmatch(r"[A-Z][a-z]+(?:ed|ing)", words[0].group())
                     or words[0].group().lower() in ("of", "to", "and", "in", "on", "at", "for", "&", "from", "with", "by")
                     or words[0].group().lower().strip(".,:;") in _CALENDAR
                     or _is_vocabulary_word(words[0].group())
                     or len(words) > 2 and words[1].group() in ("at", "from")):  # "Lunch at Sweetgreen": the place
        words.pop(0)
    while words and (words[-1].group().lower() in ("of", "the", "to", "and", "in", "on", "a", "an", "at", "for", "&")
                     or words[-1].group().lower().strip(".,:;") in _CALENDAR):  # "From Tuesday"
        words.pop()
    if not words:
        return start, start
    return start + words[0].start(), start + words[-1].end()


def _names(text: str) -> list[tuple[int, int, int]]:
    """(start, end, rank) of the names in a text, surest first by rank (0 quoted, 1 in
    parentheses or cells, 2 after a naming word, 3 a colon's tail, 4 a sentence's subject)."""
    out: list[tuple[int, int, int]] = []

    def add(a: int, b: int, rank: int) -> None:
        m = re.search(r"(?:\s+(?:on|at|in|of|the|for)\s+(?:the\s+)?\S+)$", text[a:b])
        if m and re.sub(r"['’]s$", "", m.group().split()[-1].lower()).strip(".,") in _CALENDAR:
            b = a + m.start()  # "PetroLux on Tuesday": the name ends before the day
        b = a + len(text[a:b].rstrip(" .,:;'’\"”"))
        value = text[a:b]
        if len(value) < 2 or not _is_name(value.split()):
            return
        if value.isupper() and re.match(r"\s*(?::|[$€£]?\d)", text[b:]):
            return  # "GLEVSU SCORE 359 brox": an app's upper-case label in front of its value, no name
        if re.search(r"\bby\s+$", text[:a]):
            return  # "by Harriet Quill": an author, not the thing logged
        if any(a < e and s < b for s, e, _ in out):
            return
        out.append((a, b, rank))

    for m in _QUOTED.finditer(text):
        q = m.group("q")
        for c in _cells(q):
            a, b = m.start("q") + c[0], m.start("q") + c[1]
            if _TITLE.fullmatch(text[a:b]) or (text[a].isupper() and not re.search(r"\d", text[a:b]) and len(text[a:b].split()) <= 5):
                add(a, b, 0)
    for m in _PAREN.finditer(text):
        if not re.search(r"\d", m.group("q")):
            add(m.start("q"), m.end("q"), 1)
    if _CELL_SPLIT.search(text):
        for a, b in _cells(text):
            cell = text[a:b]
            if _TITLE.fullmatch(cell) and len(cell.split()) >= 2 and not re.search(r"\d", cell):
                a, b = _trim_title(text, a, b)  # "Started The Copper Hour — ...": the title without the verb
                if b > a:
                    add(a, b, 1)
    for m in _TITLE.finditer(text):
        a, b = _trim_title(text, m.start(), m.end())
        if b <= a:
            continue
        before = text[:a]
        sentence_start = not before.strip() or re.search(r"[.!?:;—–]\s*$|^\W*$", before) is not None
        if _NAMING_WORD.search(before):
            add(a, b, 2)
        elif not sentence_start:
            if len(text[a:b].split()) >= 2 or re.search(r"[a-z][A-Z]", text[a:b]) or text[a:b].isupper() and len(text[a:b]) >= 3:
                add(a, b, 3)
        else:
            words = [w for w in text[a:b].split() if w.lower() not in ("the", "a", "an")]
            after = text[b:b + 12]
            named = len(words) >= 2 or re.search(r"[a-z][A-Z]", text[a:b]) is not None
            if named and re.match(r"\s*(?:\(|on\b|is\b|was\b|—|–|:|,)", after):
                add(a, b, 4)
    for m in _COLON_TAIL.finditer(text):
        head = re.split(r"[—–|·•;]|\s-\s", text[:m.start()])[-1]
        if len(head.split()) >= 3:  # "...this evening: Studio commute." - not "bike: Road"
            add(m.start("q"), m.end("q"), 3)
    return sorted(out, key=lambda t: (t[2], t[0]))


def _cells(text: str) -> list[tuple[int, int]]:
    out, pos = [], 0
    for m in _CELL_SPLIT.finditer(text):
        out.append((pos, m.start()))
        pos = m.end()
    out.append((pos, len(text)))
    return [(a + len(text[a:b]) - len(text[a:b].lstrip()), b - (len(text[a:b]) - len(text[a:b].rstrip())))
            for a, b in out if text[a:b].strip()]


def _name_field(text: str, a: int, b: int, money: bool) -> tuple[str, str, bool] | None:
    """The field a name fills, from what surrounds it, the word that said so, and whether its
    position says it for sure: in a payment, the name paid "at / from" is the ``merchant`` (the
    word written after it, "the Ventra station", is what people call the place: an alias the
    planner can link "which station" to). Any other name is left to the fields the memory
    discovers (``terms``: recurring names that take turns)."""
    if re.match(r"\s+app(?:['’]s|s)?\b", text[b:], re.I):
        return None  # "the Glasast app's card": the app that shows the record, nobody paid
    if not money:
        return None
    before = text[max(0, a - 12):a].lower()
    if re.search(r"\b(?:at|from)\s+(?:the\s+)?$", before):
        after = re.match(r"\s+([a-z][a-z'’-]+)\b", text[b:])
        return "merchant", after.group(1) if after and is_content_word(after.group(1)) else "", True
    if not re.search(r"\b(?:by|with|from)\s+(?:the\s+)?$", before):
        return "merchant", "", False
    return None


# -- all together -------------------------------------------------------------------------------

def vocabulary_values(text: str) -> list[Facet]:
    """The closed-vocabulary values a text names, in text order ("paperbacks" -> format paper,
    "on the e-reader" -> format ebook): how a question names a subset in other words than the
    stored value."""
    return list(_vocabulary_values(text))


@lru_cache(maxsize=4096)
def _vocabulary_values(text: str) -> tuple[Facet, ...]:
    out = []
    for attribute, (pattern, table) in zip(_VOCABULARY_NAMES, _VOCABULARIES):
        for m in pattern.finditer(text):
            value = _lookup(table, m.group())
            if value:
                out.append(Facet(attribute, value, m.start(), m.end()))
    return tuple(sorted(out, key=lambda f: f.start))


def names_something(text: str) -> bool:
    """Does the text name a thing for sure - a quoted name, one in parentheses or a layout's
    cell, or one after a naming word ("of", "to", "at")? What a record is about ("Reading app
    card: 'Harbour Lights'"), whatever field the memory later finds for it."""
    return any(rank <= 2 for _a, _b, rank in _names(text))


def find_facets(text: str) -> list[Facet]:
    """The categorical and entity facets of one record's text, surest first per attribute."""
    return list(_facets(text))


@lru_cache(maxsize=4096)
def _facets(text: str) -> tuple[Facet, ...]:
    """:func:`find_facets`, cached: a round's units are read again for each of its records."""
    out: list[Facet] = []
    names = [(a, b, r) for a, b, r in _names(text) if not _is_vocabulary_word(text[a:b])]
    name_spans = [(a, b) for a, b, _ in names]
    for attribute, (pattern, table) in zip(_VOCABULARY_NAMES, _VOCABULARIES):
        for m in pattern.finditer(text):
            cell = _whole_cell(text, m.start(), m.end())
            if not cell and any(s <= m.start() and m.end() <= e for s, e in name_spans):
                continue
            if attribute == "time_of_day" and m.group()[0].isupper() and not cell and not _sentence_start(text, m.start()):
                continue  # "Morning Glory": part of a name
            value = _lookup(table, m.group())
            if value:
                out.append(Facet(attribute, value, m.start(), m.end(), rank=5))
    for m in _CLOCK.finditer(text):
        hour = _clock_hour(m)
        if hour is not None:
            out.append(Facet("time_of_day", clock_part_of_day(hour), m.start(), m.end(), rank=8))
    money = _MONEY.search(text) is not None
    for a, b, rank in names:
        got = _name_field(text, a, b, money)
        if got is not None:
            out.append(Facet(got[0], text[a:b], a, b, label=got[1], rank=rank - (2 if got[2] else 0)))
    out.sort(key=lambda f: (f.rank, f.start))
    return tuple(out)


def _whole_cell(text: str, a: int, b: int) -> bool:
    """Is text[a:b] a whole cell of an app row or a whole quoted string ('Commute', — Training —)?"""
    before, after = text[:a].rstrip(), text[b:].lstrip()
    return bool(re.search(r"(?:^|[—–|·•;'‘\"“(])$", before)) and bool(re.match(r"(?:$|[—–|·•;'’\"”)])", after))


def _sentence_start(text: str, a: int) -> bool:
    return not text[:a].strip() or re.search(r"[.!?:]\s*$", text[:a]) is not None
