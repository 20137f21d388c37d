"""Time expressions in questions, resolved to calendar periods (the query graph's *normalize* step).

A question like "what was my average sleep last week?" means a fixed range of days only
relative to when it is asked. ``find_periods`` resolves every time phrase of a question
against ``now`` into inclusive day ranges, so a planner - rules or model - can bound a Filter
or a Compute with plain ISO dates instead of re-deriving the calendar (models get relative
dates wrong often enough to matter; APDMem §3.2 normalizes dates for the same reason).

Conventions (documented because "last week" has more than one reading):

* Periods are inclusive day ranges ``[start, end]``; either end may be open (``None``).
* "today", "yesterday", "N days ago", "on Monday" (the most recent Monday up to today),
  "last Monday" (the most recent Monday before today).
* "this week" = Monday of the current week up to today; "last week" / "the previous week" =
  the previous calendar week, Monday to Sunday; likewise "this/last month" and "this/last year".
* "the last / past / previous N days|weeks|fortnights|months", "the past week|month" and "the
  last fortnight" = the N units ending today, today included (7 days = today and the 6 days
  before); "the N days|weeks before <day>" = the N units ending the day before it.
* A month named without a year ("in March") is the most recent March that has begun; a day
  without a year ("on March 4") the most recent March 4 up to today (else a year earlier).
* "the first / second / third / fourth / last week of March" = days 1-7, 8-14, 15-21, 22-28,
  and the month's last 7 days; "the first / second half of March" = 1-15 and 16-end.
* "between A and B", "from A to/until/through B", "A - B": A's start to B's end.
  "since A" = A's start to today, "after A" = the day after A's end onwards, "before A" =
  up to the day before A's start, "until / through / up to A" = up to A's end.
* A question that states its own day ("(today is 23 March 2025)", "asked on 2025-03-23", "as of
  March 23") is resolved against that day, not ``now``; the clause itself names no period. A
  stated day without a year is the one nearest ``now`` (a question may be asked after the last
  round, so "the most recent March 23" would be a year off).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

__all__ = ["Period", "find_periods", "split_question", "describe_period", "stated_today"]


@dataclass(frozen=True)
class Period:
    """An inclusive range of days named by a phrase of the question."""

    start: date | None
    end: date | None
    phrase: str
    span: tuple[int, int] = (0, 0)

    def to_filter(self, column: str = "date") -> dict[str, Any]:
        """The analytic-tool filter selecting rows dated in this period."""
        if self.start is not None and self.end is not None:
            if self.start == self.end:
                return {"column": column, "op": "=", "value": self.start.isoformat()}
            return {"column": column, "op": "between", "value": [self.start.isoformat(), self.end.isoformat()]}
        if self.start is not None:
            return {"column": column, "op": ">=", "value": self.start.isoformat()}
        if self.end is not None:
            return {"column": column, "op": "<=", "value": self.end.isoformat()}
        raise ValueError("an unbounded period selects everything; no filter needed")

    def to_dict(self) -> dict[str, Any]:
        return {"phrase": self.phrase, "start": self.start.isoformat() if self.start else None,
                "end": self.end.isoformat() if self.end else None}

    def time_range(self) -> tuple[datetime | None, datetime | None]:
        """As datetimes for the retrieval tools' ``time_range`` (the end day included whole)."""
        lo = datetime.combine(self.start, datetime.min.time()) if self.start else None
        hi = datetime.combine(self.end, datetime.max.time()) if self.end else None
        return lo, hi


def describe_period(p: Period) -> str:
    """Readable form of a period, for answers ("2025-03-03 to 2025-03-09")."""
    if p.start and p.end:
        return p.start.isoformat() if p.start == p.end else f"{p.start.isoformat()} to {p.end.isoformat()}"
    if p.start:
        return f"since {p.start.isoformat()}"
    return f"until {p.end.isoformat()}" if p.end else "all time"


# -- vocabulary ---------------------------------------------------------------------------------

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
_WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_ORDINAL_WEEK = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3}
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fourteen": 14, "thirty": 30}
_UNIT_DAYS = {"day": 1, "week": 7, "fortnight": 14}

_MONTH_NAMES = "|".join(sorted(_MONTHS, key=len, reverse=True))
# "May" is also a verb: only the capitalized word, or one next to a day number, names the month.
_MONTH = rf"(?:(?i:{_MONTH_NAMES.replace('|may', '')})\.?|May(?!\s+(?:I|we|you|he|she|they|it)\b))"
_DAYNUM = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d{2}"
_ISO = r"\d{4}-\d{2}-\d{2}"
# one point in time: a day or a month, in the ways people write them
_POINT = (rf"(?:{_ISO}|{_MONTH}\s+{_DAYNUM}(?:,?\s+{_YEAR})?|{_DAYNUM}\s+(?:of\s+)?{_MONTH}(?:,?\s+{_YEAR})?"
          rf"|{_MONTH}(?:,?\s+{_YEAR})?)")
_COUNT = rf"(?:\d+|{'|'.join(_NUMBER_WORDS)})"

_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("days", re.compile(rf"\b(?P<m>{_MONTH})\s+(?P<a>{_DAYNUM})\s*(?:-|–|—|\bto\b)\s*(?P<b>{_DAYNUM})(?!\s*(?:{_MONTH}))(?:,?\s+(?P<y>{_YEAR}))?\b")),
    ("range", re.compile(rf"\b(?:between\s+(?P<a>{_POINT})\s+and\s+(?P<b>{_POINT})"
                         rf"|from\s+(?P<c>{_POINT})\s+(?:to|until|till|through|thru)\s+(?P<d>{_POINT})"
                         rf"|(?P<e>{_POINT})\s*(?:-|–|—|\bto\b|\bthrough\b)\s*(?P<f>{_POINT}))\b", re.I)),
    ("week_of", re.compile(rf"\b(?:the\s+)?(?P<n>first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+week\s+(?:of|in)\s+(?P<m>{_MONTH}(?:,?\s+{_YEAR})?)\b", re.I)),
    ("half_of", re.compile(rf"\b(?:the\s+)?(?P<n>first|second|1st|2nd)\s+half\s+(?:of|in)\s+(?P<m>{_MONTH}(?:,?\s+{_YEAR})?)\b", re.I)),
    ("n_before", re.compile(rf"\b(?:the\s+)?(?P<n>{_COUNT})\s+(?P<u>days?|weeks?|fortnights?)\s+(?:before|leading\s+up\s+to|prior\s+to)\s+"
                            rf"(?P<p>{_POINT})\b", re.I)),
    ("open", re.compile(rf"\b(?P<w>since|after|before|until|till|through|up\s+to|prior\s+to)\s+(?P<p>{_POINT}|today|yesterday)\b", re.I)),
    ("last_n", re.compile(rf"\b(?:the\s+)?(?:last|past|previous|preceding)\s+(?P<n>{_COUNT})\s+(?P<u>days?|weeks?|fortnights?|months?)\b", re.I)),
    ("past_unit", re.compile(r"\b(?:the\s+)?(?:past|last|previous)\s+(?P<u>fortnight)\b|\b(?:the\s+)?past\s+(?P<v>week|month|year)\b", re.I)),
    ("this_last", re.compile(r"\b(?P<w>this|last|previous|the\s+previous)\s+(?P<u>week|month|year)\b", re.I)),
    ("ago", re.compile(rf"\b(?P<n>{_COUNT})\s+(?P<u>days?|weeks?)\s+ago\b", re.I)),
    ("weekday", re.compile(rf"\b(?P<w>on|last)\s+(?P<d>{'|'.join(_WEEKDAYS)})\b", re.I)),
    ("relday", re.compile(r"\b(?P<d>today|yesterday|the\s+day\s+before\s+yesterday)\b", re.I)),
    ("point", re.compile(rf"\b(?P<p>{_POINT})\b")),
    ("year", re.compile(rf"\b(?:in|during|of)\s+(?P<y>{_YEAR})\b", re.I)),
]


# -- resolution ---------------------------------------------------------------------------------


def _count(text: str) -> int:
    text = text.lower()
    return int(text) if text.isdigit() else _NUMBER_WORDS[text]


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _add_months(d: date, months: int) -> date:
    y, m = divmod(d.month - 1 + months, 12)
    return date(d.year + y, m + 1, min(d.day, calendar.monthrange(d.year + y, m + 1)[1]))


def _point(text: str, today: date) -> tuple[date, date] | None:
    """A day or a month as an inclusive (start, end)."""
    t = text.strip().rstrip(",")
    if re.fullmatch(_ISO, t):
        try:
            d = date.fromisoformat(t)
        except ValueError:
            return None
        return d, d
    low = t.lower()
    if low == "today":
        return today, today
    if low == "yesterday":
        return today - timedelta(days=1), today - timedelta(days=1)
    year_m = re.search(rf"\b({_YEAR})\b", t)
    year = int(year_m.group(1)) if year_m else None
    t_wo_year = re.sub(rf",?\s*\b{_YEAR}\b", "", t).strip()
    words = re.findall(r"[A-Za-z]+|\d+", t_wo_year)
    month = next((_MONTHS[w.lower()] for w in words if w.lower() in _MONTHS), None)
    day_m = re.search(r"\d+", t_wo_year)
    if month is None:
        return None
    if day_m is None:  # a whole month
        y = year if year is not None else (today.year if month <= today.month else today.year - 1)
        return date(y, month, 1), _month_end(y, month)
    day = int(day_m.group(0))
    try:
        if year is not None:
            d = date(year, month, day)
        else:
            d = date(today.year, month, day)
            if d > today:
                d = date(today.year - 1, month, day)
    except ValueError:
        return None
    return d, d


def _resolve(kind: str, m: re.Match[str], today: date) -> tuple[date | None, date | None] | None:
    g = m.groupdict()
    if kind == "days":  # "April 7–13, 2025", "the week of June 2-8"
        year = f" {g['y']}" if g["y"] else ""
        a = _point(f"{g['m']} {g['a']}{year}", today)
        b = _point(f"{g['m']} {g['b']}{year}", today)
        return (a[0], b[1]) if a and b and a[0] <= b[1] else None
    if kind == "range":
        a_text, b_text = g["a"] or g["c"] or g["e"], g["b"] or g["d"] or g["f"]
        a = _point(a_text, today)
        b = _point(b_text, today)
        if a is None or b is None:
            return None
        if re.search(_YEAR, b_text) and not re.search(_YEAR, a_text):
            # "between May 1 and May 15, 2025": the year written once is both ends'
            a = _point(f"{a_text}, {b[1].year}", today) or a
            if a[0] > b[1]:  # "Dec 20 to Jan 5, 2025": the start is in the year before
                a = _point(f"{a_text}, {b[1].year - 1}", today) or a
        start, end = a[0], b[1]
        if end < start and not re.search(_YEAR, m.group(0)):  # "Dec 20 to Jan 5": the range crosses a year end
            start = date(start.year - 1, start.month, start.day) if not (start.month == 2 and start.day == 29) else start
        return (start, end) if start <= end else None
    if kind in ("week_of", "half_of"):
        month = _point(g["m"], today)
        if month is None:
            return None
        first, last = month[0].replace(day=1), _month_end(month[0].year, month[0].month)
        n = g["n"].lower()
        if kind == "half_of":
            return (first, first.replace(day=15)) if n in ("first", "1st") else (first.replace(day=16), last)
        if n in ("last", "final"):
            return last - timedelta(days=6), last
        k = _ORDINAL_WEEK[n]
        return first + timedelta(days=7 * k), first + timedelta(days=7 * k + 6)
    if kind == "open":
        p = _point(g["p"], today)
        if p is None:
            return None
        word = re.sub(r"\s+", " ", g["w"].lower())
        if word == "since":
            return p[0], today
        if word == "after":
            return p[1] + timedelta(days=1), None
        if word in ("before", "prior to"):
            return None, p[0] - timedelta(days=1)
        return None, p[1]
    if kind == "last_n":
        n, unit = _count(g["n"]), g["u"].lower().rstrip("s")
        if n <= 0:
            return None
        if unit == "month":
            return _add_months(today, -n) + timedelta(days=1), today
        return today - timedelta(days=n * _UNIT_DAYS[unit] - 1), today
    if kind == "n_before":  # "the 30 days before March 23": up to the day before
        n, unit = _count(g["n"]), g["u"].lower().rstrip("s")
        p = _point(g["p"], today)
        if n <= 0 or p is None:
            return None
        return p[0] - timedelta(days=n * _UNIT_DAYS[unit]), p[0] - timedelta(days=1)
    if kind == "past_unit":
        unit = (g["u"] or g["v"]).lower()
        if unit == "fortnight":
            return today - timedelta(days=13), today
        if unit == "week":
            return today - timedelta(days=6), today
        if unit == "month":
            return _add_months(today, -1) + timedelta(days=1), today
        return date(today.year - 1, today.month, min(today.day, 28)) + timedelta(days=1), today
    if kind == "this_last":
        which = "this" if g["w"].lower() == "this" else "last"
        unit = g["u"].lower()
        if unit == "week":
            monday = today - timedelta(days=today.weekday())
            return (monday, today) if which == "this" else (monday - timedelta(days=7), monday - timedelta(days=1))
        if unit == "month":
            if which == "this":
                return today.replace(day=1), today
            prev = _add_months(today.replace(day=1), -1)
            return prev, _month_end(prev.year, prev.month)
        if which == "this":
            return date(today.year, 1, 1), today
        return date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)
    if kind == "ago":
        n, unit = _count(g["n"]), g["u"].lower().rstrip("s")
        d = today - timedelta(days=n * _UNIT_DAYS[unit])
        return d, d
    if kind == "weekday":
        target = _WEEKDAYS[g["d"].lower()]
        back = (today.weekday() - target) % 7
        if g["w"].lower() == "last" and back == 0:
            back = 7
        d = today - timedelta(days=back)
        return d, d
    if kind == "relday":
        word = re.sub(r"\s+", " ", g["d"].lower())
        back = {"today": 0, "yesterday": 1, "the day before yesterday": 2}[word]
        d = today - timedelta(days=back)
        return d, d
    if kind == "point":
        return _point(g["p"], today)
    if kind == "year":
        y = int(g["y"])
        return date(y, 1, 1), min(date(y, 12, 31), today) if y == today.year else date(y, 12, 31)
    return None


_STATED = re.compile(rf"(?:\(\s*)?\b(?:today\s+is|today's\s+date\s+is|the\s+date\s+(?:today\s+)?is|(?:i'm\s+|i\s+am\s+)?asking\s+on"
                     rf"|asked\s+on|as\s+of|it\s+is(?:\s+now)?|it's(?:\s+now)?|current\s+date:?|date\s+today:?)\s+"
                     rf"(?:\w+day,?\s+)?(?P<p>{_ISO}|{_MONTH}\s+{_DAYNUM}(?:,?\s+{_YEAR})?|{_DAYNUM}\s+(?:of\s+)?{_MONTH}(?:,?\s+{_YEAR})?)"
                     rf"(?:\s*\))?", re.I)


def stated_today(question: str, now: datetime | date | None = None) -> tuple[date, tuple[int, int]] | None:
    """The day a question says it is asked on, and the clause's span; None when it states none."""
    m = _STATED.search(question)
    if m is None:
        return None
    ref = (now.date() if isinstance(now, datetime) else now) or date.today()
    text = m.group("p")
    has_year = re.search(rf"\b{_YEAR}\b|{_ISO}", text) is not None
    got = _point(text, ref if has_year else date(ref.year, 12, 31))
    if got is None:
        return None
    d = got[0]
    if not has_year:  # the year nearest the reference day
        d = min((d.replace(year=y) for y in (ref.year - 1, ref.year, ref.year + 1) if _valid(d, y)), key=lambda x: abs((x - ref).days))
    return d, m.span()


def _valid(d: date, year: int) -> bool:
    try:
        d.replace(year=year)
    except ValueError:
        return False
    return True


def find_periods(question: str, now: datetime | date) -> list[Period]:
    """Every time phrase of ``question`` as a period, in reading order; phrases do not overlap
    (the longer, more specific reading wins: "the first week of March" is one period)."""
    if not isinstance(question, str):
        raise TypeError("question: must be a string")
    today = now.date() if isinstance(now, datetime) else now
    taken: list[tuple[int, int]] = []
    stated = stated_today(question, today)
    if stated is not None:
        today = stated[0]
        taken.append(stated[1])
    found: list[Period] = []
    for kind, pattern in _RULES:
        for m in pattern.finditer(question):
            lo, hi = m.span()
            if any(lo < b and a < hi for a, b in taken):
                continue
            resolved = _resolve(kind, m, today)
            if resolved is None:
                continue
            same = next((i for i, p in enumerate(found) if (p.start, p.end) == resolved), None)
            if same is not None:
                taken.append((lo, hi))  # "the first half of March (March 1–15)": one period, said twice
                p = found[same]
                a, b = min(lo, p.span[0]), max(hi, p.span[1])
                if not question[min(hi, p.span[1]):max(lo, p.span[0])].strip(" \t(),;:-–—"):
                    if "(" in question[a:b] and question[b:b + 1] == ")":
                        b += 1
                    found[same] = Period(p.start, p.end, question[a:b].strip(), (a, b))  # the two phrases, one span
                continue
            taken.append((lo, hi))
            found.append(Period(resolved[0], resolved[1], m.group(0).strip(), (lo, hi)))
    return sorted(found, key=lambda p: p.span)


_WH = r"(?:what|when|which|who|where|how|did|do|does|was|were|is|are|has|have)"


def split_question(question: str) -> list[str]:
    """A compound question as its sub-questions ("What was X? And how many Y?" -> two);
    a simple one as itself."""
    text = " ".join(question.split())
    parts = [p.strip() for p in re.split(r"(?<=\?)\s+", text) if p.strip()]
    out: list[str] = []
    for part in parts:
        pieces = re.split(rf",?\s+and\s+(?={_WH}\b)", part, flags=re.I)
        out.extend(p.strip() for p in pieces if p.strip())
    out = [re.sub(r"^(?:and|also)\s+", "", p, flags=re.I) for p in out]
    return [p[0].upper() + p[1:] if p else p for p in out] or [question]
