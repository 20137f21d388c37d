"""Date cues in text: the day an observation is about, and clock times that are not values.

``find_dates(text, ref)`` returns :class:`DateSpan` s in text order:

* ``day`` - a calendar day as written: ``2025-03-04``, ``2025.03.04``, ``04.03.2025``, ``3/4/2025``, ``04-03-2025``
  (with dots day first; with / or - the reading a written weekday agrees with, else the one not
  after the round, else US order), ``4 March``, ``Mar 4``, ``March 4, 2025``, with or without a
  weekday in front (``Mon 3 Feb``, ``Tue, Apr 1``); after a weekday also a short numeric day
  (``Tue, 04/03``, ``Sat 08.03.``, ``Tue 4th``, ``Sun 9:`` heading a line) when the weekday fits
  it ("Thu 27" alone is a value logged on a Thursday). Without a year the round's year is taken,
  or the year before when that would put the day more than two days after the round (a log is
  about the past).
* ``rel`` - relative to the round: ``today``, ``tonight``, ``this morning/afternoon/evening``,
  ``yesterday``, ``last night``, ``the day before yesterday``, ``N days ago``, and a weekday
  (``on Tuesday``, ``Monday evening``, ``Saturday's walk``, ``last Friday``): the latest such
  day before the round.
* ``clock`` - a time of day (``9:55 PM``, ``06:24``, ``at 7:30``): no day, but never a value.

Only what the text names is returned; the caller decides which cue dates which record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from adamm.stores.quantities import canonical_unit

__all__ = ["DateSpan", "find_dates", "MONTHS"]

MONTHS = {"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4, "may": 5,
          "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9,
          "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12}
WEEKDAYS = {"mon": 0, "monday": 0, "tue": 1, "tues": 1, "tuesday": 1, "wed": 2, "weds": 2, "wednesday": 2, "thu": 3, "thur": 3,
            "thurs": 3, "thursday": 3, "fri": 4, "friday": 4, "sat": 5, "saturday": 5, "sun": 6, "sunday": 6}
_SMALL = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "a": 1}

_MON = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_WD = r"(?:mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:r|rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\.?"
_WD_FULL = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"

_DAY = re.compile(
    r"(?<![\w/.:-])(?:(?P<wd>" + _WD + r"),?\s+)?(?:"
    r"(?P<iy>\d{4})(?P<isep>[-./])(?P<im>\d{1,2})(?P=isep)(?P<id>\d{1,2})"
    r"|(?P<ua>\d{1,2})(?P<usep>[/.-])(?P<ub>\d{1,2})(?P=usep)(?P<uy>\d{4}|\d{2})"
    r"|(?P<dd>\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<dm>" + _MON + r")(?:,?\s+(?P<dy>\d{4}))?"
    r"|(?P<mm>" + _MON + r")\s+(?P<md>\d{1,2})(?:st|nd|rd|th)?(?!\d|:\d)(?:,?\s+(?P<my>\d{4}))?"
    r")(?![\w/-])", re.I)
#: A weekday in front makes a short numeric day a date ("Tue, 04/03", "Sat 08.03.", "Tue 4th", "Sun 9: ..."):
#: alone they are ratios and counts.
_WD_NUMERIC = re.compile(
    r"(?<![\w/.:-])(?P<wd>" + _WD + r"),?\s+(?:the\s+)?(?:(?P<a>\d{1,2})[/.](?P<b>\d{1,2})\.?|(?P<n>\d{1,2})(?:st|nd|rd|th|(?=\s*[:—–]\s)))"
    r"(?![\w/%-]|[.,]\d|:\d|\s*(?:[a-zA-Z%°]|/\s*\d))", re.I)
#: A short numeric day opening a line or row of a log ("9/7 courgette ... 887g", "W 22/7 hose
#: 60L", "3/6 Thu - ...") before a word or a colon: a date when some reading of it falls in the
#: last three months (a log is about the recent past); inside a sentence, before a unit ("4/5
#: stars") or a dash ("8/10 - a good one") it is a ratio or a score, and with a dot a decimal
#: ("6.4 dv").
_HEAD_NUMERIC = re.compile(r"(?m:^)[ \t'‘\"]*(?:[-•*][ \t]*)?(?:[A-Za-z]{1,2}[ \t]+)?(?P<a>\d{1,2})/(?P<b>\d{1,2})"
                           r"(?=[ \t]+[A-Za-z(]|[ \t]*:)")
#: A short numeric day followed by a weekday that one of its readings falls on ("'5/1 Thu — ...'",
#: "then 5/2 Fri — ..."): the weekday is the evidence, so it is a date anywhere in a line.
_NUMERIC_WD = re.compile(r"(?<![\w/.:-])(?P<a>\d{1,2})/(?P<b>\d{1,2})[ \t,]+(?P<wd>" + _WD + r")(?![\w/])", re.I)
#: How far back a short numeric day heading a line may lie.
HEAD_DAYS_BACK = 92
_REL = re.compile(
    r"\b(?:(?P<dby>the\s+day\s+before\s+yesterday)|(?P<yest>yesterday(?:'s|’s)?|y['’]?day|last\s+night(?:'s|’s)?)"
    r"|(?P<today>today(?:'s|’s)?|tonight(?:'s|’s)?|this\s+(?:morning|afternoon|evening)(?:'s|’s)?)"
    r"|(?P<ago>\d{1,2}|one|two|three|four|five|six|seven|a)\s+days?\s+ago"
    r"|(?:(?P<wdmode>on|last|this|past)\s+)?(?P<wd>" + _WD_FULL + r")(?:'s|’s)?"
    r"|(?P<abmode>on|last|this|past)\s+(?P<wdab>mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\.?(?![\w-])"
    # "Vashti Mon: 15.4q": a capitalised short weekday heading its line's values after a name
    r"|(?<=[A-Za-z] )(?-i:(?P<wdcap>Mon|Tues?|Weds?|Thu(?:rs?)?|Fri|Sat|Sun))\.?(?=[ \t]*:)"
    r"|on\s+the\s+(?P<nth>\d{1,2})(?:st|nd|rd|th)(?!\s+(?:of\s+)?" + _MON + r")"
    r")\b"
    # "- Tue: courgette ...": a short weekday heading its line, after a bullet too (no word boundary before "-")
    r"|(?m:^)[ \t]*(?:[-•*][ \t]*)?(?P<wdhead>mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)\.?(?=[ \t]*(?:[:—–]|-[ \t]))", re.I)
_CLOCK = re.compile(r"(?<![\w:.])(?:\d{1,2}:\d{2}(?::\d{2})?\s?(?:[ap]\.?m\.?|AM|PM)(?!\w)|\d{1,2}\s?(?:[ap]\.m\.|AM|PM|am|pm)(?!\w)"
                    r"|(?<=at\s)\d{1,2}:\d{2}(?![\d:])|\b(?:[01]\d|2[0-3]):[0-5]\d(?![\d:])(?!\s?(?:h|min|moving|long|elapsed)\b))")


_DISTANCE_TEXT = r"(?<![\w.,])(\d{1,3}(?:[.,]\d{1,2})?)\s?(km|kilomet(?:er|re)s?|mi|miles?)"
_DISTANCE = re.compile(_DISTANCE_TEXT + r"\b", re.I)
#: Speeds a person covers a distance at (walking to cycling), in km/h.
_HUMAN_SPEED = (1.5, 80.0)
_DURATION_LABEL = re.compile(r"(?i)\b(?:time|duration|moving|elapsed|took|in)\s*:?\s*$")


def _whole_tile(text: str, a: int, b: int) -> bool:
    """Is text[a:b] a tile of its own on a dashboard line ("5.01 km · 21:44 · 5:20 /km",
    "Vennick — 4.0 km — 23:02")?"""
    return bool(re.search(r"(?:[·|•]|\s[—–-])\s*$", text[:a])) and bool(re.match(r"\s*(?:[·|•]|[—–-]\s|$)", text[b:]))


#: A distance written right before a value ("4.2km 22:58"): the value is the time it took.
_AFTER_DISTANCE = re.compile(_DISTANCE_TEXT + r"[ \t,]+$", re.I)


def minutes_and_seconds(text: str, a: int, b: int) -> bool:
    """Is "a:b" minutes and seconds rather than hours and minutes?

    No day has 24 hours of anything, so "44:50" is minutes; under that the distance in the
    same text decides: "Distance 3.7 km · Time 18:47" is a run of 18 minutes, not 18 hours
    (0.2 km/h), while "42 km ... 1:45" is a ride of an hour and three quarters."""
    if a >= 24:
        return True
    m = _DISTANCE.search(text)
    if m is None or a + b == 0:
        return False
    km = float(m.group(1).replace(",", "."))
    if m.group(2).lower().startswith("mi"):
        km *= 1.609344
    lo, hi = _HUMAN_SPEED
    as_hours, as_minutes = km / (a + b / 60), km / ((a + b / 60) / 60)
    return not lo <= as_hours <= hi and lo <= as_minutes <= hi


#: Where an entry opens (the text, a line or a sentence starts): a clock time written here says
#: when the entry happened. A table's cell ("| 3:15 |" under "Duration") opens none.
_ENTRY_OPENS = re.compile(r"(?:^|[\n.;])\s*$")
#: Words after "h:mm" that make it a length of time ("1:45 moving", "2:10 long").
_LENGTH_AFTER = re.compile(r"\s*(?:moving|elapsed|long|total|time|duration|asleep|of\b)", re.I)
#: A length of time with its unit ("10 min", "1h 05m", "2 hours").
_TIMED = re.compile(r"\d\s*(?:h|hrs?|hours?|m|mins?|minutes?|s|secs?|seconds?)\b", re.I)


def clock_time(text: str, start: int, end: int, a: int, b: int) -> bool:
    """Is the bare "a:b" at text[start:end] a time of day rather than a length of time?

    When nothing labels it and no distance makes it a pace or a race time: written where an
    entry opens ("3:05. right.", "07:05 Vrask at the top of a line") or after
    a heading's colon with a length of time of its own later in the clause ("overnight: 1:30
    right 10 min"). "Sleep 7:30", "Sleep: 7:30", "took 1:45" and "1:45 moving" stay lengths.
    Pure."""
    if a >= 24 or b >= 60 or _DISTANCE.search(text) or _LENGTH_AFTER.match(text, end):
        return False
    before = text[max(0, start - 40):start]
    if _ENTRY_OPENS.search(before):
        return True
    if re.search(r":\s*$", before):
        clause = re.split(r"[.;\n]", text[end:end + 60], maxsplit=1)[0]
        return _TIMED.search(clause) is not None
    return False


@dataclass
class DateSpan:
    start: int
    end: int
    kind: str  #: "day", "rel" or "clock"
    day: date | None  #: None for a clock, or when there is no reference for a relative cue


def _year_less(month: int, day: int, ref: date | None) -> date | None:
    if ref is None:
        return None
    try:
        d = date(ref.year, month, day)
    except ValueError:
        return None
    if d > ref + timedelta(days=2):
        try:
            d = date(ref.year - 1, month, day)
        except ValueError:
            return None
    return d


def _make(y: int | None, m: int, d: int, ref: date | None) -> date | None:
    if y is None:
        return _year_less(m, d, ref)
    if y < 100:
        y += 2000
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _pick(readings: list[date | None], weekday: int | None, ref: date | None) -> date | None:
    """Of the readings of a numeric day (in order of preference), the one its weekday names, else
    the first not after the round (a log is about the past), else the first."""
    valid = [d for d in readings if d is not None]
    if weekday is not None and any(d.weekday() == weekday for d in valid):
        return next(d for d in valid if d.weekday() == weekday)
    if ref is not None and any(d <= ref + timedelta(days=2) for d in valid):
        return next(d for d in valid if d <= ref + timedelta(days=2))
    return valid[0] if valid else None


def find_dates(text: str, ref: date | None) -> list[DateSpan]:
    out: list[DateSpan] = []
    for m in _DAY.finditer(text):
        g = m.groupdict()
        wd = WEEKDAYS.get((g["wd"] or "").lower().rstrip("."))
        if g["iy"]:
            d = _make(int(g["iy"]), int(g["im"]), int(g["id"]), ref)
        elif g["uy"]:
            a, b = int(g["ua"]), int(g["ub"])
            y = int(g["uy"])
            # day-first with dots ("04.03.2025"); with / or -, the reading the weekday or the past agrees with
            readings = [(b, a), (a, b)] if g["usep"] == "." else [(a, b), (b, a)]  # (month, day)
            d = _pick([_make(y, mm, dd, ref) for mm, dd in readings], wd, ref)
        elif g["dm"]:
            if g["dm"].lower().rstrip(".") == "may" and not text[m.start("dm")].isupper():
                continue  # the verb "may"
            d = _make(int(g["dy"]) if g["dy"] else None, MONTHS[g["dm"].lower().rstrip(".")], int(g["dd"]), ref)
        else:
            if g["mm"].lower().rstrip(".") == "may" and not text[m.start("mm")].isupper():
                continue
            d = _make(int(g["my"]) if g["my"] else None, MONTHS[g["mm"].lower().rstrip(".")], int(g["md"]), ref)
        if d is not None or ref is None:
            out.append(DateSpan(m.start(), m.end(), "day", d))
    for m in _WD_NUMERIC.finditer(text):
        if any(s.start <= m.start() < s.end for s in out) or ref is None:
            continue
        wd = WEEKDAYS[m.group("wd").lower().rstrip(".")]
        if m.group("n"):
            n = int(m.group("n"))
            cands = [_year_less(month, n, ref) for month in (ref.month, (ref.month - 2) % 12 + 1)]
            d = next((c for c in cands if c is not None and c.weekday() == wd), None)
        else:
            a, b = int(m.group("a")), int(m.group("b"))
            d = next((c for c in (_year_less(b, a, ref), _year_less(a, b, ref)) if c is not None and c.weekday() == wd), None)
        if d is not None:
            out.append(DateSpan(m.start(), m.end(), "day", d))
    for m in _NUMERIC_WD.finditer(text):
        if any(s.start <= m.start() < s.end for s in out) or ref is None:
            continue
        a, b = int(m.group("a")), int(m.group("b"))
        wd = WEEKDAYS[m.group("wd").lower().rstrip(".")]
        agree = [c for c in (_year_less(a, b, ref), _year_less(b, a, ref))
                 if c is not None and c.weekday() == wd and ref - timedelta(days=HEAD_DAYS_BACK) <= c]
        if agree:
            out.append(DateSpan(m.start(), m.start() + len(m.group("a")) + 1 + len(m.group("b")), "day", max(agree)))
    for m in _HEAD_NUMERIC.finditer(text):
        if any(s.start <= m.start("a") < s.end for s in out) or ref is None:
            continue
        word = re.match(r"[ \t]*([A-Za-z]+)", text[m.end():])
        if word and canonical_unit(word.group(1)) is not None:
            continue  # "4/5 stars": a rating, "3/4 done" a share - a quantity, no day
        a, b = int(m.group("a")), int(m.group("b"))
        after = re.match(r"[ \t,]*(" + _WD + r")(?!\w)", text[m.end():], re.I)
        wd = WEEKDAYS.get(after.group(1).lower().rstrip(".")) if after else None
        recent = [c for c in (_year_less(b, a, ref), _year_less(a, b, ref))
                  if c is not None and ref - timedelta(days=HEAD_DAYS_BACK) <= c <= ref + timedelta(days=2)]
        if wd is not None:
            recent = [c for c in recent if c.weekday() == wd]
        if recent:
            out.append(DateSpan(m.start("a"), m.end(), "day", max(recent)))
    taken = [(s.start, s.end) for s in out]
    for m in _REL.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        out.append(DateSpan(m.start(), m.end(), "rel", _relative(m, ref)))
    taken = [(s.start, s.end) for s in out]
    for m in _CLOCK.finditer(text):
        bare = re.fullmatch(r"(\d\d):(\d\d)", m.group(0))
        if bare and (_DURATION_LABEL.search(text, 0, m.start()) or _whole_tile(text, m.start(), m.end())
                     or _AFTER_DISTANCE.search(text, 0, m.start())) \
                and minutes_and_seconds(text, int(bare[1]), int(bare[2])):
            continue  # "Distance 3.7 km · Time 18:47", "5.01 km · 21:44": a run of 21 minutes, not a time of day
        if not any(a <= m.start() < b for a, b in taken):
            out.append(DateSpan(m.start(), m.end(), "clock", None))
    out.sort(key=lambda s: s.start)
    return out


def _relative(m: re.Match[str], ref: date | None) -> date | None:
    if ref is None:
        return None
    if m.group("dby"):
        return ref - timedelta(days=2)
    if m.group("yest"):
        return ref - timedelta(days=1)
    if m.group("today"):
        return ref
    if m.group("ago"):
        n = m.group("ago").lower()
        return ref - timedelta(days=int(n) if n.isdigit() else _SMALL[n])
    if m.group("nth"):
        # "on the 4th": this month's 4th, or last month's when this month's is still to come
        day, month, year = int(m.group("nth")), ref.month, ref.year
        if day > ref.day:
            month, year = (12, year - 1) if month == 1 else (month - 1, year)
        try:
            return date(year, month, day)
        except ValueError:
            return None
    wd = WEEKDAYS[(m.group("wd") or m.group("wdab") or m.group("wdhead") or m.group("wdcap")).lower()]
    back = (ref.weekday() - wd) % 7
    mode = (m.group("wdmode") or m.group("abmode") or "").lower()
    if back == 0 and mode != "this":
        back = 7
    return ref - timedelta(days=back)
