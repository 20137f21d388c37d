"""The span model of the offline extractor: every value a text states, with its unit and label.

One scan, several small *pattern families*, each a regex over the same text and each producing
:class:`Span` objects of one shape (start, end, number or text, unit, dimension, label):

* **numbers** as people and apps write them - ``1,250.50``, ``1.250,50``, ``61,40`` (a decimal
  comma: two digits after it, or three in a price per unit such as ``1,890 €/L``), ``58 117``
  (a space as thousands separator), signed deltas ``(+26)``;
* **money** - ``$12.40``, ``USD 12.40``, ``EUR 61.40``, ``€61,40``, ``61.40 €``, ``12 dollars``;
  a price per unit - ``1,890 €/L``, ``1.765 EUR/L``, ``1,755 €/l``, ``$3.59/gal``;
* **durations** - ``8h22m``, ``6 hours 5 minutes``, ``1 h 18 min``, ``1:13:32``, ``110 minutes``, in
  the largest unit written (hours when there is an hour part);
* **paces** - ``5:04 /km``, ``5:04 min/km``, ``8:40 per mile`` (minutes:seconds per distance, read
  before dates and clock times are masked: ``05:04 /km`` is no time of day);
* **pairs** - ``135/97 mmHg`` and ``141 over 92`` (a blood-pressure pair: two values);
* **ratings** - ``★★★★☆``, ``4/5``, ``2 out of 5``, ``4 stars``;
* **quantities** - a number with any unit :mod:`adamm.stores.quantities` knows (``17.4 mi``,
  ``72 %``, ``78 percent``, ``145 W``, ``23 pp``, ``66/min``), or a bare number after a label
  (``odometer 62,117``, ``pulse 69``, ``KM 58869``);
* **missing** - a label followed by ``--``, ``—``, ``n/a``, ``unavailable``, ``not measured``,
  ``no data``, ``blank``: the field is present but has no value (a NULL cell, never a zero);
* **categorical** - ``Label: short text`` (``bike: Gravel``, ``meds: yes``, ``Result: WIN``).

A value's *label* is the words in front of it within its cell (``moving time 1 h 18 min``,
``pulse of 66``), else the words right after it (``133 m elevation gain``, ``165 m climbed``,
``1:14:40 moving``, ``179 m of climbing``). Cells are cut at the separators dashboards use
(``·`` ``|`` `` — `` ``;`` ``,`` newlines) and at sentence ends, so a label never reaches across
two fields.

The families are deliberately about *forms*, not about domains: nothing here knows what a
fill-up or a blood-pressure reading is, except that ``N/M mmHg`` and ``N over M`` are pairs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adamm.nodes.rules.dates import MONTHS, clock_time, minutes_and_seconds
from adamm.stores.quantities import (
    FRACTIONS,
    PART_GAP,
    WORD_NUMBERS,
    canonical_unit,
    dimension_of,
    minutes_after_hours,
    mixed_units,
    pace_unit,
    vulgar_fraction,
)

__all__ = ["Span", "find_spans", "parse_number", "cells"]


@dataclass
class Span:
    """One stated value. ``num`` for numbers, ``text`` for categorical values; both None for a
    field the text marks as missing (``missing`` True)."""

    start: int
    end: int
    num: float | None
    text: str | None
    unit: str | None
    dimension: str | None
    label: str
    raw: str
    missing: bool = False
    label_after: bool = False  #: the label follows the value ("133 m elevation gain")
    colon: bool = False  #: "Label: value" - a field label, whatever its case
    leads: bool = False  #: the value opens its cell ("427 brox glevsu score"): a label after it is the cell's field
    role: str = ""  #: "first" / "second" of a pair, "rating", "money", "price", "duration", "delta"
    of: bool = False  #: the label after is what the value measures ("6h of sleep", "4 pips of skep")
    changes: Span | None = None  #: for a "delta", the value whose change it states


# -- numbers ---------------------------------------------------------------------------------

_NUMBER = (r"(?<![\w.,/:#№])(?:[+\-\u2212])?(?:"
           r"\d{0,4}[" + "".join(FRACTIONS) + r"]"  # 3½ / ½
           r"|"
           r"\d{1,3}(?:[.,]\d{3})+(?:[.,]\d{1,2})?"  # 1,234.50 / 1.234,50 / 62,117
           r"|\d{1,3}(?: \d{3})+(?!\d|[.,]\d)"  # 58 117 (space thousands)
           r"|\d+(?:[.,]\d+)?"  # 61,40 / 17.4 / 145
           r")(?![\d])")


def parse_number(raw: str, *, price: bool = False) -> float | None:
    """Read one number as written; decimal comma and thousands separators resolved.

    ``price``: a comma before exactly three digits is a decimal comma (``1,890 €/L``), as in a
    price per unit; elsewhere it separates thousands (``62,117`` km).
    """
    s = raw.strip().replace("\u2212", "-").replace("\u202f", " ").replace("\u00a0", " ")
    sign = -1.0 if s.startswith("-") else 1.0
    s = s.lstrip("+-")
    if s and s[-1] in FRACTIONS:  # "3½"
        fraction = vulgar_fraction(s)
        return None if fraction is None else sign * fraction
    if " " in s:
        s = s.replace(" ", "")
    if "," in s and "." in s:
        if s.rfind(",") > s.rfind("."):
            s = s.replace(".", "").replace(",", ".")
        else:
            s = s.replace(",", "")
    elif "," in s:
        head, _, tail = s.rpartition(",")
        if s.count(",") == 1 and (len(tail) != 3 or price):
            s = head + "." + tail
        else:
            s = s.replace(",", "")
    elif s.count(".") > 1:
        s = s.replace(".", "")
    # a single dot stays a decimal point ("1.234"): thousands dots without a comma are rare in logs
    try:
        return sign * float(s)
    except ValueError:
        return None


# -- cells -----------------------------------------------------------------------------------

_CELL_SEP = re.compile(r"[ \t]*(?:[·•|;¦\n\r]|\s[—–/]\s|\s-\s|,\s|:\s(?=')|(?<=[a-z%)])\.\s+(?=[A-Z'\"(])|'\s*;\s*')[ \t]*")


def between(separator: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    """The (start, end) of every non-empty stretch of the text between matches of ``separator``."""
    out = []
    pos = 0
    for m in separator.finditer(text):
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = m.end()
    if pos < len(text):
        out.append((pos, len(text)))
    return out


def cells(text: str) -> list[tuple[int, int]]:
    """Spans of the text between field separators and sentence ends."""
    return between(_CELL_SEP, text)


# -- families --------------------------------------------------------------------------------

_CUR_SYM = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR"}
_CUR_CODE = r"(?:USD|EUR|GBP|CHF|CAD|AUD|JPY|INR|usd|eur|gbp)"
_CUR_WORD = {"dollar": "USD", "dollars": "USD", "bucks": "USD", "euro": "EUR", "euros": "EUR", "pounds sterling": "GBP",
             "quid": "GBP"}
_NUM_IN = _NUMBER[len(r"(?<![\w.,/:#№])"):-len(r"(?![\w])")]

_PRICE = re.compile(
    r"(?P<a>[$€£]\s?)?(?P<n>" + _NUM_IN + r")\s?(?P<b>[$€£]|" + _CUR_CODE + r")?\s?(?:/|per\s|an?\s)\s?"
    r"(?P<per>l|L|litre|liter|gal|gallon|kg|kWh|lb|h|hr|hour)\b")
_MONEY_PRE = re.compile(r"(?P<c>[$€£¥₹]|" + _CUR_CODE + r"\b)\s?(?P<n>" + _NUM_IN + r")(?![\w/])")
_MONEY_POST = re.compile(r"(?<![\w.,])(?P<n>" + _NUM_IN + r")\s?(?P<c>[$€£]|" + _CUR_CODE + r"\b|euros?\b|dollars?\b|bucks\b)(?!\s?/)")
_DURATION = re.compile(
    r"(?<![\w:.,])(?:"
    r"(?P<h>\d{1,3})\s?(?:h|hr|hrs|hours?)\.?\s?(?:(?P<hm>\d{1,2})\s?(?:m|min|mins|minutes?)\b\.?|(?<=h)(?P<hg>[0-5]\d)(?!\d))?"
    r"|(?P<mn>\d{1,3})\s?(?:m|min|mins|minutes?)\.?,?\s?(?:and\s+)?(?P<ms>\d{1,2})\s?(?:s|sec|secs|seconds?)\b\.?"
    r"|(?P<cl>\d{1,2}):(?P<cm>\d{2})(?::(?P<cs>\d{2}))?(?!\s?(?:[ap]\.?m\b|AM|PM|h\b|/))"
    r")(?![\w:])", re.I)
#: Durations in words: "half an hour", "an hour and a half", "a quarter of an hour", and "an
#: hour" after a word that makes it a duration ("for an hour", "took an hour", "in an hour").
_WORD_DURATION = re.compile(
    r"\b(?:(?P<half>half\s+an\s+hour)|(?P<oneandhalf>an?\s+hour\s+and\s+a\s+half|one\s+and\s+a\s+half\s+hours)"
    r"|(?P<quarter>a\s+quarter\s+of\s+an\s+hour)|(?:(?<=\bfor\s)|(?<=\btook\s)|(?<=\blasted\s)|(?<=\bin\s)|(?<=\babout\s))an\s+hour)\b(?!\s+(?:ago|later|before|after|earlier))",
    re.I)
#: A pace: minutes:seconds (or decimal minutes with "min") per kilometre or per mile.
_PACE = re.compile(r"(?<![\w:.])(?P<a>\d{1,2}):(?P<b>[0-5]\d)(?![\d:])\s?(?:min(?:utes?)?\.?\s?)?(?:/|per\s)\s?"
                   r"(?:km|kilomet(?:er|re)|mi|mile)(?![A-Za-z])", re.I)
_PAIR = re.compile(r"(?<![\w./:])(?P<a>\d{2,3})\s?(?:/|\s+over\s+)(?P<b>\d{2,3})(?![\w/:]|\.\d)(?:\s?(?P<u>mm\s?Hg))?", re.I)
_STARS = re.compile(r"[★☆]{3,10}")
_RATING = re.compile(r"(?<![\w./])(?P<a>\d(?:[.,]5)?)\s?(?:/|out\s+of)\s?(?P<b>5|10)(?![\w/]|\.\d)(?:\s+stars?)?", re.I)
_UNIT_AFTER = re.compile(
    r"(?:\s?|-)(?P<u>/\s?min\b|mm\s?Hg|mg\s?/\s?d[lL]\b|mmol\s?/\s?[lL]\b|km/h|m/s|mph|kph|bpm|kcal|cal\b|°\s?[CF]|℃|%|percent\b|per\s+cent\b|pp\b|pgs?\b|"
    r"[a-zA-Zµ]+(?:\s(?:per|of)\s[a-z]+)?)")
_MISSING_WORDS = (r"(?:--+|—|–|-{1,3}|n/?a|N/?A|unavailable|not\s+(?:measured|available|recorded|shown)|no\s+(?:data|reading|sensor\s+data)|"
                  r"blank|none|missing|error)")
_MISSING = re.compile(r"(?P<label>[A-Za-z][A-Za-z ]{0,30}?)\s*:?\s*" + _MISSING_WORDS + r"(?=\s*(?:[·•|;,.)]|$|\s[—–]\s))")
_CATEGORICAL = re.compile(r"(?P<label>[A-Za-z][A-Za-z ]{0,24}?)\s?:\s?(?P<v>[A-Za-z][\w'’&+ \-]{0,40}?)\s*(?=[·•|;,.)\n]|$|\s[—–/]\s)")

#: Categorical fields apps write as "Label Value" without a colon ("category food",
#: "Merchant Whole Foods", "Result won", "Opponent Wolves").
_LABELLED_WORD = re.compile(
    r"\b(?P<label>category|merchant|result|opponent|payment method|payment|method|store|vendor|payee|weather|mood)"
    r"\s+(?P<v>[A-Za-z][\w'’&.\-]*(?:\s+(?!for\b|against\b)[A-Za-z&][\w'’&.\-]*){0,3}?)\.?\s*(?=[·•|;,.!)\n]|$|\s[—–/]\s)", re.I)
#: What a payment was made with: "paid by card", "Paid with Zeno Pay", "paid via my Visa" - the
#: grammar of paying, whatever the instrument is called (one word, or a name of capitalised words).
_PAID_WITH = re.compile(r"\b(?P<label>(?i:paid\s+(?:by|with|via|using)))\s+(?:(?:my|a|the|our)\s+)?"
                        r"(?P<v>[A-Z][\w'’&\-]*(?:\s+[A-Z][\w'’&\-]*){0,2}|[a-z][\w'’\-]*)(?=\s*(?:[·•|;,.!)\n]|$|\s[—–/]\s))")
_WIN = frozenset("won win wins beat beats defeated victory".split())
_LOSS = frozenset("lost loss loses defeat".split())
#: A side's name: up to three capitalised words, none of them a label of a number after it
#: ("vs Ember Tide Turns 11" faced Ember Tide).
_SIDE_WORD = r"[A-Z][\w'’&\-]*(?![\w'’&\-])(?!\s*:?\s*[\d+\-−])"
_SIDE = r"(?P<opp>" + _SIDE_WORD + r"(?:\s+" + _SIDE_WORD + r"){0,2})"


def _side(m: re.Match[str]) -> tuple[int, int, str]:
    """(start, end, name) of the side a game was played against: up to a possessive ("lost to
    Qaldo's Thornak" was against Qaldo, whatever Thornak of theirs is)."""
    opp = m.group("opp")
    cut = re.search(r"['’]s\b", opp)
    opp = (opp[:cut.start()] if cut else opp).strip()
    return m.start("opp"), m.start("opp") + len(opp), opp


#: Verbs whose object is the side beaten ("beat Qaldo", "defeated the Hawks").
_BEATING = frozenset({"beat", "beats", "defeated"})
_BEATEN = re.compile(r"[ \t]+(?:the\s+)?" + _SIDE)
_GAME = re.compile(
    r"\b(?P<w>(?i:won|win|beat|beats|defeated|victory|lost|loss|defeat|drew|tied))\b"
    r"(?:[^.!?;\n\d]{0,20}?(?P<a>\d{1,2})\s?[-–:]\s?(?P<b>\d{1,2})(?![\d:]))?"
    r"(?:[^.!?;\n]{0,15}?\b(?:against|vs\.?|versus|to|over)\s+(?:the\s+)?" + _SIDE + r")?")
_TIMED = re.compile(r"(?i)sleep|deep|rem\b|light|awake|nap|time|duration|moving|elapsed|\d\s?h\s*$")
_TIMED_AFTER = re.compile(r"\s*(?:of\s+)?(?:deep|rem|light|sleep|nap|awake)\b", re.I)
_GAME_NOUN = re.compile(r"(?<![\d:])(?P<a>\d{1,2})\s?[-–]\s?(?P<b>\d{1,2})\s+(?:[a-z]+\s+)?(?P<w>win|victory|loss|defeat|draw|tie)\b", re.I)
_PLAYED = re.compile(r"\b(?:played|against|vs\.?|versus|faced)\s+(?:the\s+)?" + _SIDE)
_SCORE = re.compile(r"\bscore\s*:?\s*(?P<a>\d{1,2})\s?[-–:]\s?(?P<b>\d{1,2})(?![\d:])", re.I)

#: A word that may stand between a value and its unit-less label (``pulse of 66``).
_LABEL_STOP = frozenset("""a an the my his her their our your its this that these those of at on in to for with by
from and or but was were is are be been has had have got did do does it i me we you he she they
about around approx approx. roughly nearly almost just only over under than then so also too though again anyway still said says
while whilst because since until till although unless whereas
reads read shows show showed shown showing came went took take makes made gave give get
today yesterday tonight morning evening afternoon night last this next week weekend day
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri""".split())
_QUALIFIER_ONLY = frozenset({"avg", "average", "mean", "total", "today", "daily", "overall"})


#: Words after a number that are no unit of any kind: function words, and the words that make the
#: number a rank, a time or a count of people ("3 of us", "2 more", "5 times").
_NOT_A_UNIT = _LABEL_STOP | frozenset("""more less times time x th st nd rd am pm ago later before after left
remaining people persons us them each per percent new old vs versus against""".split()) | _QUALIFIER_ONLY | frozenset(
    """max maximum min minimum peak mean net weekly high low best worst top so far up down off out""".split())


#: A number written as a word, or "N and a half", before its unit ("seven hours", "two and a
#: half km"): the grammar of every domain.
_WORDED = re.compile(r"(?<![\w.,])(?P<n>" + "|".join(sorted(WORD_NUMBERS, key=len, reverse=True)) + r"|\d+)"
                     r"(?P<half>\s+and\s+(?:a\s+half|a\s+quarter|three\s+quarters))?\s+(?P<u>[A-Za-z]+)\b", re.I)
#: A label's value that is a count written in words and its noun ("three coffees").
_COUNTED_WORDS = re.compile(r"\s*(?P<n>" + "|".join(sorted(WORD_NUMBERS, key=len, reverse=True)) + r")\s+(?P<u>[A-Za-z]+)\b", re.I)
#: "and a half", "and a quarter", "and three quarters" after a number
_PART_WORDS = {"half": 0.5, "quarter": 0.25, "quarters": 0.75}


#: After a word that follows a number: a number that ends its clause, with no unit of its own
#: ("125 rpe 9", "14 qz drom 3."): the word is that number's label, not the first one's unit.
_LABELS_NEXT = re.compile(r"[ \t]*:?[ \t]*\d+(?:[.,]\d+)?(?=[ \t]*(?:$|[\n.,;!?)]|\s[—–-]\s))")


def coined_unit(word: str, text: str = "", start: int = 0) -> str | None:
    """A word written right after a number that no unit registry knows ("14 qz", "3 trabs"): the
    memory's own unit, singular and lower case - or None when the word is a function word, a
    capitalised name ("14 Ashvel" is no unit) or too long to be a unit.

    Whether it is a unit or a counted noun does not matter: both say what the number measures,
    and recurrence across the memory's rounds (the attribute sets mined later) decides whether
    it is a field at all.
    """
    w = word.strip()
    if not re.fullmatch(r"[A-Za-z]{1,10}", w) or (w[0].isupper() and not w.isupper()) or (w.isupper() and len(w) > 4):
        return None
    low = w.lower()
    if low in _NOT_A_UNIT or low in MONTHS or low.endswith("ly") or low.endswith("ing"):
        return None
    if start > 0 and re.search(r"(?:\b(?:a|an|one)\s+)$", text[:start].lower()):
        return None
    return low[:-1] if len(low) > 3 and low.endswith("s") and not low.endswith("ss") else low



def _unit_of(raw_unit: str) -> tuple[str | None, str | None]:
    t = raw_unit.strip()
    low = t.lower().replace(" ", "")
    if low in ("/min",):
        return "bpm", "rate"
    if low in ("pp", "pg", "pgs"):
        return "pages", "count"
    if low in ("℃",):
        return "°C", "temperature"
    unit = canonical_unit(t)
    if unit is None:
        return None, None
    return unit, dimension_of(unit)


def _label_before(text: str, start: int, floor: int) -> str:
    """The label words in front of a value: after the cell start or the previous value."""
    seg = text[floor:start]
    if ":" in seg:
        pieces = [p for p in seg.split(":") if re.search(r"[A-Za-z]", p)]
        seg = pieces[-1] if pieces else ""
        if not re.search(r"[A-Za-z]", text[floor:start].rpartition(":")[2]) and len(seg.split()) > 3:
            return ""  # "Commute today on the road bike: 30.6 km" - a sentence, not a label
        # else "Dashboard photo: odometer 56694 km" or "Sleep log for Mar 1: sleep: 7 h"
    seg = seg.replace("’", "'")
    tokens = [t.strip("()'\"‘“”,.;=") for t in seg.split()]
    first = True
    words: list[str] = []
    # "Sleep Score 65", "Resting Heart Rate 58": an app's Title Case label, not a name in prose
    title = 0 < len([t for t in tokens if t]) <= 3 and all(t[:1].isupper() for t in tokens if t)
    for t in tokens:
        t = t[:-2] if t.endswith("'s") else t
        ok = bool(re.fullmatch(r"[A-Za-z][A-Za-z\-]*", t))
        if ok and t[0].isupper() and not t.isupper() and not first and not title:
            ok = False  # a name inside the cell ("Listened to ... Bells for 1 h")
        words.append(t if ok else "")
        first = False
    if len(words) >= 2 and words[-1].lower() in ("for", "against") and words[-2] and words[-2].lower() not in _LABEL_STOP \
            and (words[-2].lower().endswith("s") or words[-2].lower() == "score"):  # not "swam for 40 minutes"
        return f"{words[-2]} {words[-1]}"  # "Goals for 5" / "Goals against 1"
    words = words[-4:]
    # Drop leading filler ("with a pulse of" -> "pulse"): keep the last run of label words.
    out: list[str] = []
    rev = list(reversed(words))
    for i, w in enumerate(rev):
        if not w or w.lower() in _LABEL_STOP:
            if out and w.lower() in ("in", "of", "per") and i + 1 < len(rev) and rev[i + 1] \
                    and rev[i + 1].lower() not in _LABEL_STOP:
                out.append(w)  # "time in range", "rate of climb"
                continue
            if out:
                break
            continue
        out.append(w)
    return " ".join(reversed(out))


def _label_after(text: str, end: int, ceil: int) -> str:
    seg = text[end:ceil]
    m = re.match(r"\s*(?:of\s+|in\s+)?((?:[A-Za-z][A-Za-z\-]*(?![\w'’])\s?){1,3})", seg)
    if not m:
        return ""
    words = m.group(1).split()
    out = []
    for w in words:
        if w.lower() in _LABEL_STOP or w[0].isupper() and out:
            break
        out.append(w)
    return " ".join(out)


#: Letters joined by a hyphen to the digits that follow: an identifier's parts ("INV-2025-008").
_CODE_BEFORE = re.compile(r"[A-Za-z]-(?:\d+-)*$")


#: After a length of time, words that make it an offset from now or from an event.
_OFFSET_AFTER = re.compile(r"\s*(?:ago|later|earlier|from\s+now)\b", re.I)


def find_spans(text: str, masked: list[tuple[int, int]] | None = None) -> list[Span]:
    """Every value the text states, in text order, with labels (see the module docstring).

    ``masked`` regions (dates and clock times found by :mod:`.dates`) hold no value."""
    spans: list[Span] = []
    paces = list(_PACE.finditer(text))
    # A pace's "05:04" looks like a clock time to the date finder: the pace wins.
    taken: list[tuple[int, int]] = [(a, b) for a, b in masked or ()
                                    if all(b <= m.start() or a >= m.end() for m in paces)]

    def free(s: int, e: int) -> bool:
        return all(e <= a or s >= b for a, b in taken)

    def add(sp: Span) -> None:
        if sp.dimension == "duration" and _OFFSET_AFTER.match(text, sp.end):
            taken.append((sp.start, sp.end))  # "3h 12m ago", "an hour later": when, not how long
            return
        spans.append(sp)
        taken.append((sp.start, sp.end))

    for m in _WORDED.finditer(text):  # "seven and a half hours", "5 and a half km", "five km"
        unit = canonical_unit(m.group("u"))
        if unit is None or unit in ("d", "wk", "mo", "yr") or dimension_of(unit) in (None, "count") and unit not in ("steps", "pages"):
            continue  # "two days", "three weeks": how long ago or how often, no logged value
        n = m.group("n").lower()
        if n.isdigit() and not m.group("half"):
            continue  # "5 km": the scanner below reads it, with its special cases
        value = float(WORD_NUMBERS[n]) if n in WORD_NUMBERS else parse_number(n)
        if value is None:
            continue
        value += _PART_WORDS[m.group("half").split()[-1].lower()] if m.group("half") else 0.0
        dim = dimension_of(unit)
        add(Span(m.start(), m.end(), value, None, unit, dim, "", m.group(0), role="duration" if dim == "duration" else ""))
    for m in paces:
        unit = pace_unit(m.group(0))
        add(Span(m.start(), m.end(), int(m.group("a")) + int(m.group("b")) / 60, None, unit,
                 dimension_of(unit), "", m.group(0), role="pace"))
    for m in _PRICE.finditer(text):
        cur = (m.group("a") or m.group("b") or "").strip()
        code = _CUR_SYM.get(cur, cur.upper() if cur else None)
        if code is None:
            # "1.770 a litre" has no currency sign: the memory's other prices decide; EUR is a guess.
            if not re.match(r"\s?(?:/|per\s|a\s)", text[m.end("n"):m.end("n") + 4]) or "a " not in text[m.end("n"):m.end("n") + 4]:
                continue
            code = "EUR"
        per = m.group("per").lower()
        per_unit = "gal" if per.startswith("gal") else "L" if per in ("l", "litre", "liter") else None
        if per in ("h", "hr", "hour") and cur:
            per_unit = "h"  # "85 USD/h", "$95 an hour": a rate for time, not an amount paid
        if per_unit is None:
            continue
        value = parse_number(m.group("n"), price=True)
        if value is None:
            continue
        unit = f"{code}/{per_unit}"
        add(Span(m.start(), m.end(), value, None, unit, dimension_of(unit), "", m.group(0), role="price"))
    for rx in (_MONEY_PRE, _MONEY_POST):
        for m in rx.finditer(text):
            if not free(m.start(), m.end()):
                continue
            c = m.group("c").strip()
            code = _CUR_SYM.get(c) or _CUR_WORD.get(c.lower()) or c.upper()
            value = parse_number(m.group("n"))
            if value is None:
                continue
            add(Span(m.start(), m.end(), value, None, code, f"currency:{code}", "", m.group(0), role="money"))
    for m in _LABELLED_WORD.finditer(text):
        if free(m.start(), m.end()):
            value = m.group("v").strip().rstrip(".")
            add(Span(m.start(), m.end(), None, value, None, None, m.group("label").lower(), m.group(0)))
    for m in _PAID_WITH.finditer(text):
        if free(m.start("v"), m.end("v")):
            add(Span(m.start("v"), m.end("v"), None, m.group("v"), None, None, "paid with", m.group("v")))
    for m in _GAME.finditer(text):
        if not free(m.start("w"), m.end("w")):
            continue
        word = m.group("w").lower()
        result = "won" if word in _WIN else "lost" if word in _LOSS else "draw"
        add(Span(m.start("w"), m.end("w"), None, result, None, None, "result", m.group("w")))
        if m.group("a") and free(m.start("a"), m.end("b")):
            a, b = float(m.group("a")), float(m.group("b"))
            hi, lo = max(a, b), min(a, b)
            ours, theirs = (hi, lo) if result == "won" else (lo, hi) if result == "lost" else (a, b)
            add(Span(m.start("a"), m.start("b"), ours, None, None, None, "score for", m.group("a")))
            add(Span(m.start("b"), m.end("b"), theirs, None, None, None, "score against", m.group("b")))
        side = m if m.group("opp") else _BEATEN.match(text, m.end("w")) if m.group("w").lower() in _BEATING else None
        if side is not None and free(side.start("opp"), side.end("opp")):  # "beat Qaldo", "lost to Qaldo"
            a, b, opp = _side(side)
            add(Span(a, b, None, opp, None, None, "opponent", opp))
    for m in _GAME_NOUN.finditer(text):
        if free(m.start("a"), m.end("w")):
            word = m.group("w").lower()
            result = "won" if word in ("win", "victory") else "lost" if word in ("loss", "defeat") else "draw"
            a, b = float(m.group("a")), float(m.group("b"))
            ours, theirs = (max(a, b), min(a, b)) if result == "won" else (min(a, b), max(a, b)) if result == "lost" else (a, b)
            add(Span(m.start("a"), m.start("b"), ours, None, None, None, "score for", m.group("a")))
            add(Span(m.start("b"), m.end("b"), theirs, None, None, None, "score against", m.group("b")))
            add(Span(m.start("w"), m.end("w"), None, result, None, None, "result", m.group("w")))
            opp = _PLAYED.search(text)
            if opp and free(opp.start("opp"), opp.end("opp")):
                a, b, side = _side(opp)
                add(Span(a, b, None, side, None, None, "opponent", side))
    for m in _SCORE.finditer(text):
        if free(m.start("a"), m.end("b")):
            add(Span(m.start("a"), m.start("b"), float(m.group("a")), None, None, None, "score for", m.group("a")))
            add(Span(m.start("b"), m.end("b"), float(m.group("b")), None, None, None, "score against", m.group("b")))
    for m in _PAIR.finditer(text):
        if not free(m.start(), m.end()):
            continue
        a, b = int(m.group("a")), int(m.group("b"))
        if not (a > b and 60 <= a <= 260 and 30 <= b <= 160):
            continue  # not a blood-pressure pair (a date, a score, a fraction)
        unit = "mmHg"
        mid = m.start("b")
        add(Span(m.start(), mid, float(a), None, unit, "pressure", "", m.group(0), role="first"))
        add(Span(mid, m.end(), float(b), None, unit, "pressure", "", m.group(0), role="second"))
    for m in _STARS.finditer(text):
        n = m.group(0).count("★")
        add(Span(m.start(), m.end(), float(n), None, "stars", "rating", "rating", m.group(0), role="rating"))
    for m in _RATING.finditer(text):
        if not free(m.start(), m.end()):
            continue
        before = text[max(0, m.start() - 30):m.start()].lower()
        after = text[m.end():m.end() + 20].lower()
        if m.group("b") == "5" or "star" in after or re.search(r"rat|give|gave|scor|\bit\b", before):
            value = parse_number(m.group("a"), price=True)
            add(Span(m.start(), m.end(), value, None, "stars", "rating", "rating", m.group(0), role="rating"))
        else:  # "effort 4 out of 10", "RPE 6/10": one value on a scale; the scale's top is no field
            add(Span(m.start(), m.end(), parse_number(m.group("a"), price=True), None, None, None, "", m.group(0)))
    for m in _DURATION.finditer(text):
        if not free(m.start(), m.end()):
            continue
        # A duration keeps the largest unit it was written in ("6 h 50 min" is 6.83 h, "1:13:32"
        # 1.23 h, "28:30 min" 28.5 min): an attribute's unit is its first value's, later values
        # are converted to it.
        unit = "h"
        if m.group("h"):
            value = int(m.group("h")) + int(m.group("hm") or m.group("hg") or 0) / 60  # "1h05" too
        elif m.group("mn"):
            value, unit = int(m.group("mn")) + int(m.group("ms")) / 60, "min"  # "32 minutes 9 seconds"
        else:
            a, b, c = int(m.group("cl")), int(m.group("cm")), m.group("cs")
            if c is not None:
                value = a + b / 60 + int(c) / 3600
            else:
                after = text[m.end():m.end() + 12].lower()
                if re.match(r"\s*(?:min|/km|/mi|pace)", after):
                    value, unit = a + b / 60, "min"
                elif re.match(r"\s*(?:h|hours?)\b", after):
                    value = a + b / 60
                elif re.search(r"\b(?:at|by|around|from|until|till|shows|clock)\s*$", text[max(0, m.start() - 12):m.start()].lower()):
                    continue  # a clock time of day
                elif minutes_and_seconds(text, a, b):
                    value, unit = a + b / 60, "min"
                elif clock_time(text, m.start(), m.end(), a, b):
                    continue  # "07:05 Breastfeed", "overnight: 1:30 right 10 min": when, not how long
                else:
                    value = a + b / 60
        add(Span(m.start(), m.end(), float(value), None, unit, "duration", "", m.group(0), role="duration"))
    for m in _WORD_DURATION.finditer(text):
        if free(m.start(), m.end()):
            value = 1.5 if m.group("oneandhalf") else 0.5 if m.group("half") else 0.25 if m.group("quarter") else 1.0
            add(Span(m.start(), m.end(), value, None, "h", "duration", "", m.group(0), role="duration"))
    for m in re.finditer(_NUMBER, text):
        digits = m.start() + (m.group(0)[:1] in "+-\u2212")  # a hyphen read as a minus sign is the code's own
        if not free(m.start(), m.end()) or _CODE_BEFORE.search(text, 0, digits):
            continue  # "INV-2025-008", "room B-12": the digits of an identifier, no value
        raw = m.group(0)
        um = _UNIT_AFTER.match(text, m.end())
        unit = dim = None
        end = m.end()
        if um:
            unit, dim = _unit_of(um.group("u"))
            end = um.end()
            if unit is not None and um.start("u") == m.end() and len(um.group("u")) == 1 and um.group("u").isupper():
                unit = dim = None  # "3D": a glued capital letter is no unit
            if unit is None and " " in um.group("u"):
                first = um.group("u").split()[0]
                unit, dim = _unit_of(first)
                end = um.start("u") + len(first)
            if unit == "m" and um.start("u") == m.end() and (_TIMED.search(text[max(0, m.start() - 30):m.start()])
                                                              or _TIMED_AFTER.match(text, end)):
                unit, dim = "min", "duration"  # "Deep sleep: 57m", "43m of deep sleep": minutes, as sleep apps write them
            if unit == "ms":
                dim = "interval"  # HRV, latency: milliseconds are no activity duration
            if unit is not None:
                # "6 h 50 min" was a duration above; "44 min" or "2 hours" alone land here.
                if dim == "duration" and unit in ("h", "min", "s"):
                    value = parse_number(raw)
                    if value is None:
                        continue
                    add(Span(m.start(), end, value, None, unit, "duration", "", text[m.start():end], role="duration"))
                    continue
            else:
                end = m.end()
                if um.group("u").split()[0] in ("k", "K") and um.start("u") == m.end() and (value := parse_number(raw)) is not None:
                    # "10.2k steps": thousands, as people shorten them; the unit, if any, follows
                    after = re.match(r"\s?([A-Za-z]+)", text[m.end() + 1:])
                    known = canonical_unit(after.group(1)) if after else None
                    stop = m.end() + 1 + (after.end() if known else 0)
                    add(Span(m.start(), stop, value * 1000, None, known, dimension_of(known) if known else None, "",
                             text[m.start():stop]))
                    continue
                word = um.group("u").split()[0]
                coined = coined_unit(word, text, m.start()) if um.start("u") <= m.end() + 1 else None
                if coined is not None and _LABELS_NEXT.match(text, um.start("u") + len(word)):
                    coined = None  # "@125 rpe 9": the word labels the number after it, which has no unit of its own
                if coined is not None:  # "14 qz", "3.2 plim": a unit of the memory's own, named as written
                    unit, dim = coined, f"unit:{coined}"
                    end = um.start("u") + len(um.group("u").split()[0])
        if unit is None and m.end() < len(text) and text[m.end()].isalpha():
            continue  # "3D", "4th", "2x": a number glued to a word that is no unit
        value = parse_number(raw)
        if value is None:
            continue
        add(Span(m.start(), end, value, None, unit, dim, "", text[m.start():end]))
    for m in _MISSING.finditer(text):
        if not free(m.start(), m.end()):
            continue
        label = _label_before(m.group("label") + " ", len(m.group("label")) + 1, 0)
        if label:
            add(Span(m.start(), m.end(), None, None, None, None, label, m.group(0), missing=True))
    for m in _CATEGORICAL.finditer(text):
        if not free(m.start(), m.end()):
            continue
        label = _label_before(m.group("label") + " ", len(m.group("label")) + 1, 0)
        value = m.group("v").strip().strip("'\"’‘”“")
        counted = _COUNTED_WORDS.match(text, m.start("v"))
        if label and counted and counted.end() <= m.end():
            # "Caffeine situation: three coffees": a count written in words, as "3 coffees" is in digits
            noun = counted.group("u")
            unit = canonical_unit(noun) or coined_unit(noun)
            if unit is not None:
                dim = dimension_of(unit) or f"unit:{unit}"
                add(Span(counted.start("n"), counted.end(), float(WORD_NUMBERS[counted.group("n").lower()]), None, unit, dim, "",
                         counted.group(0).strip()))
                continue
        if label and value and len(value.split()) <= 4 and not re.search(r"\d", value):
            add(Span(m.start(), m.end(), None, value, None, None, label, m.group(0)))
    spans.sort(key=lambda s: (s.start, s.role != "first"))
    spans = _mixed_units(text, spans)
    # a written date ("Mar 3 Vrell 14 qz") is no word of the label after it
    labelled = text
    for a, b in masked or []:
        if re.search(r"\d", text[a:b]):
            labelled = labelled[:a] + " " * (b - a) + labelled[b:]
    _spent(text, spans)
    owners = _delta_owners(labelled, spans)
    _attach_labels(labelled, spans)
    _label_deltas(labelled, spans, owners)
    return spans


def _mixed_units(text: str, spans: list[Span]) -> list[Span]:
    """One value written in two units ("9 lb 11 oz", "5 ft 11 in", "1h 10" - the minutes' unit
    left out, or read as inches by the "in" after them) becomes one span in the larger unit."""
    out: list[Span] = []
    for sp in spans:
        prev = out[-1] if out else None
        if prev is not None and prev.num is not None and sp.num is not None and prev.role in ("", "duration") \
                and sp.role in ("", "duration") and not sp.label and PART_GAP.fullmatch(text[prev.end:sp.start]):
            unit, end = sp.unit, sp.end
            if minutes_after_hours(prev.unit, sp.raw, sp.unit):
                unit, end = "min", sp.start + 2  # "1h 10", "1h 10 in the car"
            value = mixed_units(prev.num, prev.unit, sp.num, unit)
            if value is not None:
                prev.end, prev.num, prev.raw = end, value, text[prev.start:end]
                prev.role = "duration" if prev.dimension == "duration" else prev.role
                continue
        out.append(sp)
    return out


#: A verb of paying right before a plain number: the number is money ("Spent 23.10 at ...").
_SPENT = re.compile(r"\b(?:spent|spend|paid|pay|cost|costs|costing|charged|came\s+to|totall?ed|total\s+of)\s+(?:about\s+|around\s+|roughly\s+|~\s?)?$", re.I)


def _spent(text: str, spans: list[Span]) -> None:
    """"Spent 23.10 at Kroger": a plain number a paying verb governs is an amount of money, in the
    currency the text names elsewhere, else in none it says."""
    codes = [sp.unit for sp in spans if (sp.dimension or "").startswith("currency:") and sp.unit]
    for sp in spans:
        plain = sp.unit is None and sp.num is not None and sp.num >= 0 and sp.role == "" and sp.text is None
        if plain and _AMOUNT.fullmatch(sp.raw) and _SPENT.search(text, 0, sp.start) and _NO_UNIT_AFTER.match(text, sp.end):
            code = codes[0] if codes else None
            sp.role, sp.unit, sp.dimension = "money", code, f"currency:{code or ''}"


_AMOUNT = re.compile(r"\d{1,3}(?:,\d{3})*(?:\.\d{2})?|\d+(?:\.\d{2})?")
_NO_UNIT_AFTER = re.compile(r"(?!\s*(?:[A-Za-z%°/]|[.,]\d))|(?=\s+(?:at|on|for|to|in|with|by|via|from)\b)")


#: A signed change beside the value it changed: "1,244 (−8)", "+14, now 1,257", "-9 -> 1,248".
_DELTA_AFTER = re.compile(r"\s*\(\s*$")
_DELTA_CLOSE = re.compile(r"\s*\)")
#: Words between a change and the value it led to ("+14, now 1,257"): no label of that value.
_ADJACENT_WORDS = frozenset({"now", "to", "so now", "making it"})
_DELTA_BEFORE = re.compile(r"\s*\)?\s*(?:,\s*)?(?:->|→|=>|" + "|".join(w.replace(" ", r"\s+") for w in sorted(_ADJACENT_WORDS))
                           + r")\s*:?\s*$", re.I)
_DELTA_WORD = re.compile(r"\s*[,;(]?\s*(?P<dir>up|down)\s+(?:by\s+)?", re.I)


#: What ends a range's first half ("-3 to +4"): its signed second half is no change.
_RANGE_END = re.compile(r"(?:\d\s*(?:to|and|or|through)|[-\u2013\u2014~/])\s*$", re.I)


def _signed(sp: Span) -> bool:
    return sp.num is not None and sp.raw[:1] in "+-\u2212" and sp.role == "" and sp.text is None


def _delta_owners(text: str, spans: list[Span]) -> dict[int, int]:
    """Signed numbers that state how much another value changed (delta index -> owner index),
    marked ``role="delta"``: a sign written out in front of a number beside another number of
    the same unit is a change, whatever is measured (a score, a weight, a balance)."""
    owners: dict[int, int] = {}
    for i, sp in enumerate(spans):
        prev = spans[i - 1] if i > 0 else None
        nxt = spans[i + 1] if i + 1 < len(spans) else None
        worded = _DELTA_WORD.fullmatch(text[prev.end:sp.start]) if prev is not None and prev.num is not None else None
        if worded and sp.num is not None and sp.role == "" and sp.unit in (None, prev.unit) and prev.role != "delta":
            if worded.group("dir").lower() == "down":  # "81.4 kg, down 0.6": the change of the value in front
                sp.num = -sp.num
            owners[i] = i - 1
            continue
        if not _signed(sp):
            continue
        if prev is not None and prev.num is not None and prev.role != "delta" \
                and _DELTA_AFTER.fullmatch(text[prev.end:sp.start]) and _DELTA_CLOSE.match(text, sp.end) \
                and sp.unit in (None, prev.unit):
            owners[i] = i - 1  # "1,244 (−8)": the change of the value in front
        elif nxt is not None and nxt.num is not None and not _signed(nxt) \
                and _DELTA_BEFORE.fullmatch(text[sp.end:nxt.start]) and (sp.unit is None or sp.unit == nxt.unit):
            owners[i] = i + 1  # "+14, now 1,257", "(-9) -> 1,248 RP": the change that led to the value after
    for i, j in owners.items():
        spans[i].role, spans[i].changes = "delta", spans[j]
    for sp in spans:
        if _signed(sp) and sp.role == "" and (sp.dimension or "").startswith("unit:"):
            # "+12 rank", "-11 rank": a sign written out before a word of the memory's own is a change of it
            sp.role, sp.label, sp.unit, sp.dimension = "delta", f"{sp.unit} change", None, None
    return owners


def _label_deltas(text: str, spans: list[Span], owners: dict[int, int]) -> None:
    """A change is named after its value ("rank points change"); a label written in front of the
    change ("Rank points +14, now 1,257") is the value's, as "now" is no field. A plus written
    out on a labelled plain number with no value beside it ("Rank +14") is a change too."""
    for i, sp in enumerate(spans):
        if i not in owners and _signed(sp) and sp.raw[:1] == "+" and sp.unit is None and sp.label \
                and not sp.label.lower().endswith("change"):
            sp.role, sp.label, sp.label_after = "delta", f"{sp.label} change", False
    for i, sp in enumerate(spans):
        if i not in owners and _signed(sp) and sp.unit is None and not sp.label and not _RANGE_END.search(text, 0, sp.start):
            # "lost, 10t, -11": a sign written out on a number no label names is a change, the
            # change its record always carries ("change" meets the memory's own "rank change")
            sp.role, sp.label, sp.label_after = "delta", "change", False
    for i, j in owners.items():
        delta, owner = spans[i], spans[j]
        if j > i and delta.label and (not owner.label or owner.label.lower() in _ADJACENT_WORDS):
            owner.label, owner.label_after, owner.colon = delta.label, False, delta.colon
        base = owner.label or owner.unit or ""
        delta.label, delta.label_after = (f"{base} change" if base else "change"), False
        if delta.unit is None and owner.unit is not None:
            delta.unit, delta.dimension = owner.unit, owner.dimension


def _attach_labels(text: str, spans: list[Span]) -> None:
    bounds = cells(text)

    def cell_of(pos: int) -> tuple[int, int]:
        for a, b in bounds:
            if a <= pos < b:
                return a, b
        return pos, pos

    headed: dict[int, str] = {}  # span index -> the label after it, where a colon heading stood before
    for i, sp in enumerate(spans):
        if sp.label or sp.role == "second":
            continue
        a, b = cell_of(sp.start)
        prev_end = max([s.end for s in spans[:i] if s.end <= sp.start] + [a])
        next_start = min([s.start for s in spans[i + 1:] if s.start >= sp.end and s.role not in ("second", "delta")] + [b])
        floor = max(a, prev_end)
        sp.leads = not re.search(r"[A-Za-z]", text[floor:sp.start].rpartition(":")[2])
        before = _label_before(text, sp.start, floor)
        if before and sp.unit is None and not _ADJACENT.fullmatch(_gap_after_label(text, floor, sp.start, before)):
            before = ""  # "preview with 3 rows": a plain number needs its label right in front
        if before and prev_end > a and _OPENS_ASIDE.search(text, floor, sp.start):
            before = ""  # "8.5 mile long sollow this morning (1:16:43)": an aside on the clause's record, named by its unit
        if before and sp.dimension == "duration" and _TOOK_IN.search(text, floor, sp.start):
            before = ""  # "5.1 km (Drag) in 31:12": the time it took, whatever the words before "in"
        if before and ":" in text[floor:sp.start] and _heading(text, sp, spans[i + 1:]):
            before = ""  # "Yesterday's walk: 1 h 4 min, about 5.3 km": a heading, not a field label
        after = _label_after(text, sp.end, min(b, next_start))
        if after and next_start < b and re.fullmatch(rf"\s*{re.escape(after)}\s*:?\s*", text[sp.end:next_start]):
            after = ""  # "@125 rpe 9": the word is the label of the number right after it
        sp.colon = bool(before) and ":" in text[floor:sp.start]
        if after and sp.unit and _OF_AFTER.match(text, sp.end) and (
                not sp.colon or _DAY_HEADING.fullmatch(text[floor:sp.start].rpartition(":")[0].strip())):
            sp.label, sp.label_after, sp.of = after, True, True  # "Barely 5 hours of sleep": what it measures
        elif before and before.lower() not in _QUALIFIER_ONLY:
            sp.label = before
            if sp.colon and after and sp.leads:
                headed[i] = after
        elif after:
            sp.label = (before + " " + after).strip() if before else after
            sp.label_after = not before
        else:
            sp.label = before
    # "Run summary: 5.01 km · 21:44 · 5:20 /km": a colon heading over a line of tiles whose next
    # tile carries no label names the card, not its first value (the unit does)
    tiled = [sp for sp in spans if sp.role not in ("second", "delta")]
    if len(tiled) >= 3 and tiled[0].colon and tiled[0].unit and not tiled[1].label \
            and len(re.findall(r"\s[·|•]\s", text[tiled[0].end:tiled[-1].start])) >= 2:
        tiled[0].label, tiled[0].colon = "", False
    # "Monday's batch: $56.41 tralliss · 427 brox glevsu score": where the text's other cells put
    # the label after the value, the first cell's colon is the heading of them all
    following = sum(1 for sp in spans if sp.label_after and sp.leads)
    if following >= 2 and following > sum(1 for sp in spans if sp.colon) - len(headed):
        for i, after in headed.items():
            spans[i].label, spans[i].label_after, spans[i].colon = after, True, False


#: A value opening a parenthesis.
_OPENS_ASIDE = re.compile(r"\(\s*$")
#: "in" right before a length of time: the time something took ("... in 31:12").
_TOOK_IN = re.compile(r"\bin\s*$", re.I)
#: "of" and a word right after a value's unit: the thing the value measures ("6h of sleep").
_OF_AFTER = re.compile(r"\s*of\s+[A-Za-z]")
#: A colon heading that only dates what follows ("Re yesterday: 7h15 of sleep").
_DAY_HEADING = re.compile(r"(?:\w+\s+)?(?:yesterday|today|tonight|last\s+night|this\s+morning|(?:mon|tues|wednes|thurs|fri|satur|sun)day)", re.I)


#: What may stand between a label and a plain number: "pulse 69", "odometer was at 59,567".
_ADJACENT = re.compile(r"[\s:=]*(?:\d+\s?[x×]\s?\d+\s*(?:@|at\b|with\b)?)?"  # "SQ 5x3 @125": a count of counts between
                       r"(?:(?:was|is|were|said|says|read|reads|showed|shows|at|of|now|today|yesterday|tonight|"
                       r"this\s+morning|this\s+evening|last\s+night)[\s:=]+)*[\s:=@]*")  # "Step count today: 14,312"


def _gap_after_label(text: str, floor: int, start: int, label: str) -> str:
    seg = text[floor:start]
    at = seg.rfind(label.split()[-1])
    return seg[at + len(label.split()[-1]):] if at >= 0 else seg


def _heading(text: str, sp: Span, later: list[Span]) -> bool:
    """Is the colon label in front of ``sp`` the heading of several values of one sentence?"""
    colon = text.rfind(":", 0, sp.start)
    if colon < 0 or re.search(r"[A-Za-z|·]", text[colon:sp.start]):
        return False  # a label of its own after the colon ("photo: odometer 56694 km")
    for nxt in later:
        if nxt.role in ("second", "delta"):
            continue
        between = text[sp.end:nxt.start]
        return ":" not in between and not re.search(r"[.!?;|·]\s", between)
    return False
