"""When something happened, said as people write it, from a sentence and the day it was said.

A turn says "yesterday", "last week", "last Friday", "two weeks ago"; the conversation knows
the day the turn was said. The answer to "when did ..." is that day's reading: "7 May 2023"
for "yesterday" said on 8 May 2023, "The week before 9 June 2023" for "last week", "The
Friday before 15 July 2023" for "last Friday", "2022" for "last year". A sentence that names
no time of its own happened on the day it was said. Only calendar words are built in.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from adamm.nodes.rules.dates import WEEKDAYS, find_dates

__all__ = ["say_day", "when_said"]

_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")
_WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "a couple of": 2, "a few": 3}
_COUNT = r"(?P<n>\d{1,2}|an?|one|two|three|four|five|six|a\s+couple\s+of|a\s+few)"
_WD = r"(?P<wd>mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:r|rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)"

#: Relative expressions, most specific first; each maps to how the answer says it.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [(kind, re.compile(p, re.I)) for kind, p in (
    ("day_before_yesterday", r"\bthe\s+day\s+before\s+yesterday\b"),
    ("yesterday", r"\byesterday\b|\blast\s+night\b"),
    ("today", r"\btoday\b|\btonight\b|\bthis\s+(?:morning|afternoon|evening)\b|\bjust\s+now\b"),
    ("units_ago", _COUNT + r"\s+(?P<unit>days?|weeks?|weekends?|months?|years?)\s+ago\b"),
    ("last_weekday", r"\b(?:last|this\s+past|on|this)\s+" + _WD + r"\b"),
    ("last_weekend", r"\b(?:last|this\s+past)\s+weekend\b"),
    ("last_week", r"\blast\s+week\b|\bthe\s+other\s+week\b|\bthis\s+past\s+week\b"),
    ("next_week", r"\bnext\s+week\b"),
    ("last_month", r"\blast\s+month\b"),
    ("this_month", r"\bthis\s+month\b|\bearlier\s+this\s+month\b"),
    ("next_month", r"\bnext\s+month\b"),
    ("last_year", r"\blast\s+year\b"),
    ("this_year", r"\bthis\s+year\b"),
    ("year", r"\b(?P<since>since\s+|in\s+)?(?P<y>(?:19|20)\d{2})\b"),
)]


#: How each kind of expression is said: days back from the day it was said, a span around that
#: day, months or years on from it.
_DAYS_BACK = {"day_before_yesterday": 2, "yesterday": 1, "today": 0}
_AROUND = {"last_weekend": "The weekend before", "last_week": "The week before", "next_week": "The week after"}
_MONTHS_ON = {"last_month": -1, "this_month": 0, "next_month": 1}
_YEARS_ON = {"last_year": -1, "this_year": 0}


def say_day(day: date) -> str:
    """A day as people write it: "7 May 2023". Pure."""
    return f"{day.day} {_MONTH_NAMES[day.month - 1]} {day.year}"


def _month(year: int, month: int) -> str:
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return f"{_MONTH_NAMES[month - 1]} {year}"


def when_said(sentence: str, said_on: date) -> str | None:
    """When the sentence says its event happened, resolved against the day it was said
    (``said_on``); None when it names no time (the event is then of ``said_on`` itself). Pure."""
    for hit in find_dates(sentence, said_on):
        if hit.kind == "day" and hit.day is not None:
            return say_day(hit.day)  # "on 4 March", "March 4, 2023"
    for kind, pattern in _PATTERNS:
        m = pattern.search(sentence)
        if m is None:
            continue
        said = say_day(said_on)
        if kind in _DAYS_BACK:
            return say_day(said_on - timedelta(days=_DAYS_BACK[kind]))
        if kind in _AROUND:
            return f"{_AROUND[kind]} {said}"
        if kind in _MONTHS_ON:
            return _month(said_on.year, said_on.month + _MONTHS_ON[kind])
        if kind in _YEARS_ON:
            return str(said_on.year + _YEARS_ON[kind])
        if kind == "units_ago":
            raw = re.sub(r"\s+", " ", m.group("n").lower())
            n = int(raw) if raw.isdigit() else _COUNTS.get(raw, 1)
            unit = m.group("unit").lower().rstrip("s")
            if unit == "day":
                return say_day(said_on - timedelta(days=n))
            if unit == "year":
                return m.group(0)  # "10 years ago", "a few years ago": as said, a year is no day
            return f"{m.group('n')} {m.group('unit').lower()} before {said}"
        if kind == "last_weekday":
            wd = WEEKDAYS[m.group("wd").lower().rstrip(".")]
            return f"The {_WEEKDAY_NAMES[wd]} before {said}"
        if kind == "year" and int(m.group("y")) <= said_on.year:
            return f"Since {m.group('y')}" if (m.group("since") or "").lower().startswith("since") else m.group("y")
    return None

