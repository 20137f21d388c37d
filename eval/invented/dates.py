"""Days as the rounds name them, and the periods questions ask about.

A record's observed day must be recoverable from its round alone (the data README's rule): an
explicit date ("March 4", "2025-03-04", "4 Mar", "Mar 4"), a weekday of the past six days,
"yesterday" for the day before the session, and "today" or no cue at all for the session's own
day. :func:`cue` picks one of the forms that is true for a (day, session day) pair; the
validator re-derives the day with :func:`recoverable`. :class:`Period` is a closed interval
with the phrase questions use for it.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import date, timedelta

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
TODAY_CUES = ("today", "this morning", "this evening", "tonight")


def md(d: date) -> str:
    return f"{MONTHS[d.month - 1]} {d.day}"


def mdy(d: date) -> str:
    return f"{md(d)}, {d.year}"


def mon_d(d: date) -> str:
    return f"{MONTHS[d.month - 1][:3]} {d.day}"


def d_mon(d: date) -> str:
    return f"{d.day} {MONTHS[d.month - 1][:3]}"


def month_end(d: date) -> date:
    nxt = date(d.year + (d.month == 12), d.month % 12 + 1, 1)
    return nxt - timedelta(days=1)


def explicit(d: date, rng: random.Random) -> str:
    """One explicit spelling of ``d`` (no year except in ISO form)."""
    return rng.choice((md(d), d.isoformat(), d_mon(d), mon_d(d)))


def date_forms(d: date) -> list[str]:
    return [md(d), d.isoformat(), d_mon(d), mon_d(d)]


@dataclass(frozen=True)
class Cue:
    kind: str  #: "today" | "none" | "yesterday" | "weekday" | "explicit"
    text: str  #: "today", "", "yesterday", "Tuesday", "March 4"


def cue(d: date, session_day: date, rng: random.Random) -> Cue:
    """A true way for a round of ``session_day`` to name ``d`` (at most six days back for a
    weekday; explicit dates for anything older)."""
    back = (session_day - d).days
    assert back >= 0, (d, session_day)
    r = rng.random()
    if back == 0:
        return Cue("today", rng.choice(TODAY_CUES)) if r < 0.45 else Cue("none", "") if r < 0.8 else Cue("explicit", explicit(d, rng))
    if back == 1 and r < 0.6:
        return Cue("yesterday", "yesterday")
    if 2 <= back <= 6 and r < 0.55:
        return Cue("weekday", WEEKDAYS[d.weekday()])
    return Cue("explicit", explicit(d, rng))


def _has(text: str, form: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", text) is not None


def recoverable(d: date, session_day: date, text: str) -> bool:
    """Whether a round of ``session_day`` reading ``text`` names the day ``d``."""
    back = (session_day - d).days
    low = text.lower()
    other = (any(w in text for w in WEEKDAYS) or "yesterday" in low or re.search(r"\d{4}-\d{2}-\d{2}", text)
             or any(_has(text, f"{m[:3]} {k}") or _has(text, f"{k} {m[:3]}") for m in MONTHS for k in range(1, 32)))
    if any(_has(text, f) for f in date_forms(d)):
        return True
    if 0 <= back <= 6 and (WEEKDAYS[d.weekday()] in text or _has(text, WEEKDAYS[d.weekday()][:3])):
        return True  # "Thursday", or "Thu" heading a column
    if back == 1 and "yesterday" in low:
        return True
    return back == 0 and (not other or any(c in low for c in TODAY_CUES))


@dataclass(frozen=True)
class Period:
    """A closed interval of observed days and how a question names it."""

    kind: str  #: "all" | "month" | "half" | "week1" | "window"
    start: date
    end: date
    phrase: str  #: "in March 2025", "" for the whole history (the question words it itself)
    month: str = ""  #: the month name of a "month" period

    def has(self, d: date) -> bool:
        return self.start <= d <= self.end


def periods(days: list[date], rng: random.Random) -> list[Period]:
    """The whole history, each calendar month, its halves and first week, and two windows."""
    lo, hi = min(days), max(days)
    out = [Period("all", lo, hi, "")]
    months = sorted({(d.year, d.month) for d in days})
    for y, m in months:
        name, first = MONTHS[m - 1], date(y, m, 1)
        end = month_end(first)
        out.append(Period("month", first, end, f"in {name} {y}", name))
        out.append(Period("half", first, date(y, m, 15), rng.choice(
            (f"between {name} 1 and {name} 15, {y}", f"in the first half of {name} {y} ({name} 1–15)"))))
        out.append(Period("half", date(y, m, 16), end, f"between {name} 16 and {name} {end.day}, {y}"))
        out.append(Period("week1", first, date(y, m, 7), f"in the first week of {name} {y}"))
    for _ in range(2):
        a = rng.choice(sorted(days))
        b = a + timedelta(days=rng.randint(10, 21))
        if b.year == a.year and b <= hi:
            out.append(Period("window", a, b, f"from {md(a)} to {md(b)}, {a.year}"))
    return out
