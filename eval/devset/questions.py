"""Analytic questions with exact answers for the development history, and their scorer.

:func:`generate_questions` turns a :class:`~adamm.devset.DevSet` into questions a real user
would type about their own logs, each with a typed gold answer computed from the ground truth
(``TruthRecord.values``, dated by the record's *observed* day), so a query planner is measured
against arithmetic, not against another model's opinion. :func:`is_correct` scores one
prediction; it reads answers the way the design asks them to be written: leading with the
value.

Categories: ``average``, ``sum``, ``count``, ``extreme`` (a value, or the day it happened),
``latest``, ``date_filter`` (the days matching a condition), ``comparison`` (which of two
periods / groups is larger), ``trend`` (up or down), ``retrieval`` (what the assistant said in
ordinary conversation, plus unanswerable questions whose gold is "Not mentioned").

Time phrases, resolved against the question's ``now`` (always given with the question)
-------------------------------------------------------------------------------------
* no phrase / "overall" / "so far": the whole history; ``now`` is one minute after the last
  round.
* "in March" (or "in March 2025"): the calendar month. "between March 3 and March 9", "from
  Mar 3 to Mar 9", "from March 3 through March 9": both ends included.
* "the first week of March": March 1-7; the second week 8-14, the third 15-21, the fourth 22-28.
* "yesterday": the day before ``now``'s date. "last week": the calendar week (Monday-Sunday)
  before the one holding ``now``; "this week": Monday of ``now``'s week through ``now``'s date.
  "in the last N days" / "over the past N days": the N days ending with ``now``'s date,
  inclusive. "this month": the 1st of ``now``'s month through ``now``'s date; "last month": the
  previous calendar month.
* A relative question is only asked at a ``now`` by which every record of its period has been
  shared, so its gold does not depend on whether rounds after ``now`` are consulted.

Golds that need a rule
----------------------
* Every record counts once on its observed day (a run logged late counts on the day it was run).
* ``latest`` is by observed day; it is only asked where the latest-dated record was also the
  last one shared, so "most recent" has one meaning.
* ``extreme`` questions that ask for the day have a unique extreme; ``date_filter`` golds hold
  1-6 days, and no value sits exactly on the threshold.
* ``comparison``: the larger period's average (or total) wins; only asked when the two differ by
  at least 3 % (and 5 USD for money), so rounding in an answer cannot flip it.
* ``trend``: ``up``/``down`` is the sign of the least-squares slope of the value over the
  observed day; only asked when the mean of the period's first seven days and that of its last
  seven days differ in the same direction by at least 2 % of the period mean, so "compare the
  first and last week" gives the same answer.

Scoring (:func:`is_correct`)
----------------------------
* ``number``: the first quantity of the prediction, after dates ("March 4", "2025-03-04") are
  set aside, converted to the question's unit ("6 h 36 min", "6:36", "396 minutes" -> 6.6 h;
  "$1,250.00", "USD 1,250" -> 1250; for unit-less counts "three" -> 3, "no" / "none" -> 0), within
  ``max(tolerance, rel_tolerance * |gold|)``.
* ``days``: written dates ("2025-03-04", "March 4", "Mar 4, 2025", "4 March", "3/4/2025", and
  lists such as "March 4, 9 and 12"); a year left out is the most recent such date not after
  ``now``. One gold day: the first date in the prediction must be it; several: the set of dates
  must equal the gold set.
* ``text`` with ``choices`` (comparison, trend, results, opponents): the choice whose alias
  appears first in the prediction must be the gold - an answer naming both periods is judged by
  the one it leads with. ``text`` without choices: SQuAD-style normalization (lower case, no
  punctuation, accents or articles), then the gold contained in the prediction, or token F1
  >= 0.8.
* ``refusal``: the prediction says the thing was not mentioned / is not known.

CLI: ``python -m adamm.devset_questions --seed 0 --days 60 --out questions.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import unicodedata
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, Callable, Iterable

from adamm.devset import DevSet, TruthRecord, generate

__all__ = [
    "AGGREGATE_CATEGORIES",
    "CATEGORIES",
    "DevQuestion",
    "NOT_MENTIONED",
    "generate_questions",
    "is_correct",
    "main",
    "parse_days",
    "parse_quantity",
]

CATEGORIES: tuple[str, ...] = (
    "average", "sum", "count", "extreme", "latest", "date_filter", "comparison", "trend", "retrieval",
)
#: The categories only analytic memory can answer exactly.
AGGREGATE_CATEGORIES: tuple[str, ...] = CATEGORIES[:-1]
KINDS = ("number", "text", "days", "refusal")
NOT_MENTIONED = "Not mentioned"

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_ORDINALS = ("first", "second", "third", "fourth")


@dataclass
class DevQuestion:
    question_id: str
    question: str
    category: str
    gold: str  #: display answer, leading with the value
    gold_value: float | str | list[str]  #: number, text, or ISO days
    kind: str  #: "number" | "text" | "days" | "refusal"
    tolerance: float = 0.0  #: absolute, in ``unit``
    unit: str = ""
    evidence_round_ids: list[str] = field(default_factory=list)
    now: str = ""  #: ISO datetime the question is asked at
    rel_tolerance: float = 0.0  #: relative tolerance (averages of rounded values)
    choices: dict[str, list[str]] = field(default_factory=dict)  #: option -> aliases, for text golds
    scope: str = ""  #: time-scoping style: whole, month, range, week_of_month, yesterday, ...
    period: list[str] | None = None  #: [first day, last day] the question covers, ISO

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> "DevQuestion":
        return cls(**obj)


# -- time scopes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scope:
    style: str
    phrase: str  #: inserted into a template, with its leading space ("" for the whole history)
    start: date | None
    end: date | None
    now: datetime
    label: str  #: for the gold display ("in March")

    @property
    def relative(self) -> bool:
        return self.style in _RELATIVE

    def holds(self, day: date) -> bool:
        return (self.start is None or day >= self.start) and (self.end is None or day <= self.end)


_RELATIVE = ("yesterday", "last_week", "this_week", "last_n_days", "this_month", "last_month")


def _short(d: date) -> str:
    return f"{_MONTHS[d.month - 1][:3]} {d.day}"


def _long(d: date) -> str:
    return f"{_MONTHS[d.month - 1]} {d.day}"


def _month_end(d: date) -> date:
    nxt = date(d.year + (d.month == 12), d.month % 12 + 1, 1)
    return nxt - timedelta(days=1)


# -- values ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Measure:
    domain: str
    field: str
    unit: str
    noun: str  #: for gold displays
    single_tol: float  #: one stored value
    avg_tol: float  #: an average of values
    sum_tol: float  #: a total


_MEASURES = {m.field: m for m in (
    _Measure("sleep", "total_sleep", "h", "total sleep", 0.05, 0.05, 0.1),
    _Measure("sleep", "deep_sleep", "h", "deep sleep", 0.05, 0.05, 0.1),
    _Measure("sleep", "resting_heart_rate", "bpm", "resting heart rate", 0.5, 1.0, 0.5),
    _Measure("sleep", "sleep_score", "", "sleep score", 0.5, 1.0, 0.5),
    _Measure("sleep", "hrv", "ms", "HRV", 0.5, 1.0, 0.5),
    _Measure("glucose", "time_in_range", "%", "time in range", 0.5, 1.0, 0.5),
    _Measure("glucose", "average_glucose", "mg/dL", "average glucose", 0.5, 1.0, 0.5),
    _Measure("glucose", "lows", "", "lows", 0.5, 0.1, 0.5),
    _Measure("expenses", "amount", "USD", "amount", 0.5, 0.5, 0.5),
    _Measure("workouts", "distance", "km", "distance", 0.05, 0.1, 0.1),
    _Measure("workouts", "duration", "min", "duration", 0.5, 1.0, 1.0),
    _Measure("workouts", "average_heart_rate", "bpm", "average heart rate", 0.5, 1.0, 0.5),
    _Measure("games", "score_for", "", "goals scored", 0.5, 0.1, 0.5),
)}
_AVG_REL = 0.01  #: averages may be shown rounded to two or three significant digits


def _fmt(value: float, unit: str) -> str:
    if unit == "USD":
        return f"${value:,.2f}"
    if unit == "h":
        return f"{value:.2f} h"
    if unit == "%":
        return f"{value:g}%"
    text = f"{value:.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)
    return f"{text} {unit}" if unit else text


# -- a text filter on a domain ----------------------------------------------------------------


@dataclass(frozen=True)
class _Filter:
    phrase: str  #: " on groceries", " at Whole Foods", " against the Ravens", ""
    label: str
    test: Callable[[dict[str, Any]], bool]


_NO_FILTER = _Filter("", "", lambda v: True)

_CATEGORY_PHRASE = {"food": "on food", "groceries": "on groceries", "transport": "on transport",
                    "entertainment": "on entertainment", "utilities": "on utilities", "health": "on health",
                    "housing": "on housing", "electronics": "on electronics"}


# -- the generator -----------------------------------------------------------------------------


class _Gen:
    def __init__(self, devset: DevSet, rng: random.Random) -> None:
        self.ds = devset
        self.rng = rng
        self.per_category = 12
        self.used: Counter[str] = Counter()
        self.ts = {r.round_id: r.timestamp for r in devset.rounds}
        self.order = {r.round_id: r.order for r in devset.rounds}
        self.text = {r.round_id: _round_text(r) for r in devset.rounds}
        self.by_domain: dict[str, list[TruthRecord]] = {}
        for t in sorted(devset.truth, key=lambda t: (t.day, self.order[t.round_id])):
            self.by_domain.setdefault(t.domain, []).append(t)
        days = [t.day for t in devset.truth]
        self.first = min(days) if days else devset.start
        self.last = max(days) if days else devset.start
        last_ts = max((r.timestamp for r in devset.rounds), default=datetime.combine(devset.start, time()))
        self.end_now = (last_ts + timedelta(minutes=1)).replace(second=0, microsecond=0)
        self.months = sorted({(d.year, d.month) for d in (self.first + timedelta(days=i)
                                                           for i in range((self.last - self.first).days + 1))})

    # -- scopes ------------------------------------------------------------------------------

    def scope(self, style: str, whole: tuple[str, ...] = ("", "", " overall", " so far")) -> _Scope | None:
        rng = self.rng
        if style == "whole":
            phrase = rng.choice(whole)
            return _Scope(style, phrase, None, None, self.end_now, "overall")
        if style == "month":
            y, m = rng.choice(self.months)
            start, end = date(y, m, 1), _month_end(date(y, m, 1))
            if (min(end, self.last) - max(start, self.first)).days < 6:
                return None
            name = _MONTHS[m - 1]
            phrase = rng.choice((f" in {name}", f" during {name}", f" in {name} {y}"))
            return _Scope(style, phrase, start, end, self.end_now, f"in {name}")
        if style == "range":
            span = (self.last - self.first).days
            if span < 5:
                return None
            length = rng.randint(5, min(14, span))
            start = self.first + timedelta(days=rng.randint(0, span - length))
            end = start + timedelta(days=length - 1)
            phrase = rng.choice((f" between {_long(start)} and {_long(end)}", f" from {_short(start)} to {_short(end)}",
                                 f" from {_long(start)} through {_long(end)}",
                                 f" between {start.isoformat()} and {end.isoformat()}"))
            return _Scope(style, phrase, start, end, self.end_now, f"{_short(start)}-{_short(end)}")
        if style == "week_of_month":
            y, m = rng.choice(self.months)
            k = rng.randrange(4)
            start = date(y, m, 1 + 7 * k)
            end = start + timedelta(days=6)
            if (min(end, self.last) - max(start, self.first)).days < 3:
                return None
            name = _MONTHS[m - 1]
            phrase = rng.choice((f" in the {_ORDINALS[k]} week of {name}",
                                 f" during the {_ORDINALS[k]} week of {name}"))
            return _Scope(style, phrase, start, end, self.end_now, f"{_ORDINALS[k]} week of {name}")
        return self._relative(style)

    def _relative(self, style: str) -> _Scope | None:
        rng = self.rng
        span = (self.last - self.first).days
        if span < 2:
            return None
        today = self.first + timedelta(days=rng.randint(1, span))
        now = datetime.combine(today, time(23, 0))
        if style == "yesterday":
            y = today - timedelta(days=1)
            return _Scope(style, " yesterday", y, y, now, "yesterday")
        monday = today - timedelta(days=today.weekday())
        if style == "last_week":
            if monday - timedelta(days=7) < self.first - timedelta(days=2):
                return None
            return _Scope(style, " last week", monday - timedelta(days=7), monday - timedelta(days=1), now, "last week")
        if style == "this_week":
            if today.weekday() < 3 or monday < self.first:
                return None
            return _Scope(style, rng.choice((" this week", " so far this week")), monday, today, now, "this week")
        if style == "last_n_days":
            n = rng.choice((7, 10, 14, 30))
            start = today - timedelta(days=n - 1)
            if start < self.first:
                return None
            phrase = rng.choice((f" in the last {n} days", f" over the past {n} days"))
            return _Scope(style, phrase, start, today, now, f"last {n} days")
        if style == "this_month":
            if today.day < 8:
                return None
            return _Scope(style, rng.choice((" this month", " so far this month")), today.replace(day=1), today, now,
                          "this month")
        if style == "last_month":
            prev_end = today.replace(day=1) - timedelta(days=1)
            start = prev_end.replace(day=1)
            if (prev_end - max(start, self.first)).days < 6:
                return None
            return _Scope(style, " last month", start, prev_end, now, "last month")
        raise ValueError(style)

    # -- records ------------------------------------------------------------------------------

    def records(self, domain: str, scope: _Scope | None, flt: _Filter = _NO_FILTER,
                field_name: str | None = None) -> list[TruthRecord] | None:
        """Records of a domain in scope; ``None`` when a relative scope would see the future."""
        out = []
        for t in self.by_domain.get(domain, []):
            if scope is not None and not scope.holds(t.day):
                continue
            if scope is not None and scope.relative and self.ts[t.round_id] > scope.now:
                return None
            if field_name is not None and field_name not in t.values:
                continue
            if flt.test(t.values):
                out.append(t)
        return out

    def evidence(self, recs: Iterable[TruthRecord]) -> list[str]:
        return sorted({t.round_id for t in recs}, key=self.order.__getitem__)

    def text_filter(self, domain: str, kinds: tuple[str, ...]) -> _Filter:
        """A filter on a text column, drawn from values that occur in the history."""
        recs = self.by_domain.get(domain, [])
        kind = self.rng.choice(kinds)
        if kind == "none" or not recs:
            return _NO_FILTER
        if kind == "category":
            cat = self.rng.choice(sorted({str(t.values["category"]) for t in recs if "category" in t.values}))
            return _Filter(" " + _CATEGORY_PHRASE.get(cat, f"on {cat}"), cat, lambda v, c=cat: v.get("category") == c)
        if kind == "merchant":
            mer = self.rng.choice(sorted({str(t.values["merchant"]) for t in recs if "merchant" in t.values}))
            return _Filter(f" at {mer}", f"at {mer}", lambda v, m=mer: v.get("merchant") == m)
        if kind == "opponent":
            opp = self.rng.choice(sorted({str(t.values["opponent"]) for t in recs if "opponent" in t.values}))
            return _Filter(f" against the {opp}", f"against the {opp}", lambda v, o=opp: v.get("opponent") == o)
        raise ValueError(kind)

    def pick_scope(self, styles: tuple[str, ...], bare: bool = False) -> _Scope | None:
        """A scope of one of ``styles``; ``bare``: the whole history goes unsaid (it reads oddly
        after "most recent" or "on which days")."""
        return self.scope(self.rng.choice(styles), ("",) if bare else ("", "", " overall", " so far"))


def _round_text(r: Any) -> str:
    parts = [r.user_text or "", r.assistant_text or ""] + [i.caption or "" for i in r.images]
    return "\n".join(p for p in parts if p)


def _q(g: _Gen, category: str, question: str, gold: str, gold_value: Any, kind: str, *,
       scope: _Scope | None, evidence: list[str], unit: str = "", tolerance: float = 0.0,
       rel_tolerance: float = 0.0, choices: dict[str, list[str]] | None = None,
       period: tuple[date, date] | None = None) -> DevQuestion:
    question = question[0].upper() + question[1:]
    if period is None and scope is not None and scope.start and scope.end:
        period = (scope.start, scope.end)
    return DevQuestion(
        question_id="", question=question, category=category, gold=gold, gold_value=gold_value, kind=kind,
        tolerance=tolerance, unit=unit, evidence_round_ids=evidence,
        now=(scope.now if scope else g.end_now).isoformat(timespec="seconds"), rel_tolerance=rel_tolerance,
        choices=choices or {}, scope=scope.style if scope else "whole",
        period=[period[0].isoformat(), period[1].isoformat()] if period else None,
    )


_ALL_SCOPES = ("whole", "month", "month", "range", "range", "week_of_month", "last_week", "last_n_days",
               "this_month", "last_month", "this_week")
_WIDE_SCOPES = ("whole", "month", "range", "week_of_month", "last_n_days", "this_month", "last_month")

# -- average ------------------------------------------------------------------------------------

_AVG_TEMPLATES: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    # (field, templates with {s} scope / {f} filter, filter kinds)
    ("total_sleep", ("What was my average total sleep{s}?", "On average, how many hours did I sleep{s}?",
                     "How long did I sleep per night on average{s}?"), ("none",)),
    ("deep_sleep", ("How much deep sleep did I get on average{s}?", "What was my average deep sleep{s}?"), ("none",)),
    ("resting_heart_rate", ("What was my average resting heart rate{s}?", "What was my mean resting HR{s}?"),
     ("none",)),
    ("sleep_score", ("What was my average sleep score{s}?", "What did my sleep score average{s}?"), ("none",)),
    ("hrv", ("What was my average HRV{s}?",), ("none",)),
    ("time_in_range", ("What was my average time in range{s}?",
                       "On average, what percentage of the time was my glucose in range{s}?"), ("none",)),
    ("average_glucose", ("What was the mean of my daily average glucose{s}?",
                         "Averaged over the days I logged, what was my average glucose{s}?"), ("none",)),
    ("amount", ("What was my average expense{f}{s}?", "How much did I spend per purchase on average{f}{s}?"),
     ("none", "category", "merchant")),
    ("distance", ("How far did I run on average{s}?", "What was my average run distance{s}?"), ("none",)),
    ("duration", ("How long were my runs on average{s}?", "What was the average duration of my runs{s}?"), ("none",)),
    ("average_heart_rate", ("What was my average heart rate on runs{s}?",), ("none",)),
    ("score_for", ("How many goals did we score per game on average{f}{s}?",), ("none", "opponent")),
)


def _average(g: _Gen) -> DevQuestion | None:
    fname, templates, fkinds = g.rng.choice(_AVG_TEMPLATES)
    m = _MEASURES[fname]
    flt = g.text_filter(m.domain, fkinds)
    scope = g.pick_scope(_WIDE_SCOPES if flt is _NO_FILTER else ("whole", "month", "whole"))
    if scope is None:
        return None
    recs = g.records(m.domain, scope, flt, fname)
    if not recs or len(recs) < 2:
        return None
    total = 0.0
    for t in recs:
        total += float(t.values[fname])
    value = round(total / len(recs), 4)
    text = g.rng.choice(templates).format(s=scope.phrase, f=flt.phrase)
    gold = f"{_fmt(value, m.unit)} (average {m.noun}{' ' + flt.label if flt.label else ''} {scope.label}, " \
           f"{len(recs)} records)"
    return _q(g, "average", text, gold, value, "number", scope=scope, evidence=g.evidence(recs), unit=m.unit,
              tolerance=m.avg_tol, rel_tolerance=_AVG_REL)


# -- sum ----------------------------------------------------------------------------------------

_SUM_TEMPLATES = (
    ("amount", ("How much did I spend{f}{s}?", "What did I spend in total{f}{s}?", "What was my total spending{f}{s}?"),
     ("none", "category", "category", "merchant")),
    ("distance", ("How many kilometers did I run{s}?", "What was my total running distance{s}?",
                  "How far did I run in total{s}?"), ("none",)),
    ("duration", ("How many minutes did I spend running{s}?",), ("none",)),
    ("total_sleep", ("How many hours did I sleep in total{s}?",), ("none",)),
    ("lows", ("How many lows did I have in total{s}?", "How many low events did I have{s}?"), ("none",)),
    ("score_for", ("How many goals did we score{f}{s}?",), ("none", "opponent")),
)


def _sum(g: _Gen) -> DevQuestion | None:
    fname, templates, fkinds = g.rng.choice(_SUM_TEMPLATES)
    m = _MEASURES[fname]
    flt = g.text_filter(m.domain, fkinds)
    styles = _ALL_SCOPES + (("yesterday", "yesterday") if fname in ("amount", "distance") else ())
    if flt is not _NO_FILTER or fname == "score_for":
        styles = ("whole", "month", "whole")
    if fname == "total_sleep":
        styles = ("week_of_month", "range", "last_week")
    scope = g.pick_scope(styles)
    if scope is None:
        return None
    recs = g.records(m.domain, scope, flt, fname)
    if not recs:
        return None
    value = round(sum(float(t.values[fname]) for t in recs), 4)
    if fname in ("lows", "score_for") and value == 0:
        return None
    text = g.rng.choice(templates).format(s=scope.phrase, f=flt.phrase)
    gold = f"{_fmt(value, m.unit)} (total {m.noun}{' ' + flt.label if flt.label else ''} {scope.label}, " \
           f"{len(recs)} records)"
    return _q(g, "sum", text, gold, value, "number", scope=scope, evidence=g.evidence(recs), unit=m.unit,
              tolerance=m.sum_tol)


# -- count --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Cond:
    """A condition on one record, with the threshold kept clear of every value."""

    domain: str
    field: str
    templates: tuple[str, ...]  #: {t} threshold as written, {s} scope
    thresholds: tuple[float, ...]
    op: str  #: "<", ">", ">="
    written: Callable[[float], str]
    label: str

    def holds(self, v: float, thr: float) -> bool:
        return v < thr if self.op == "<" else v > thr if self.op == ">" else v >= thr


_COUNT_CONDS = (
    _Cond("sleep", "total_sleep", ("On how many nights{s} did I sleep less than {t}?",
                                   "How many nights{s} did I get under {t} of sleep?"),
          (6.0, 6.5, 7.0), "<", lambda t: f"{t:g} hours", "nights under {t}"),
    _Cond("sleep", "total_sleep", ("How many nights{s} did I get more than {t} of sleep?",),
          (7.0, 7.5, 8.0), ">", lambda t: f"{t:g} hours", "nights over {t}"),
    _Cond("sleep", "sleep_score", ("How many days{s} did my sleep score reach {t} or more?",),
          (75, 80, 85), ">=", lambda t: f"{t:g}", "sleep score >= {t}"),
    _Cond("glucose", "time_in_range", ("How many days{s} was my time in range below {t}?",),
          (65, 70, 75), "<", lambda t: f"{t:g}%", "time in range < {t}"),
    _Cond("expenses", "amount",
          ("How many expenses over {t} did I have{s}?", "How many purchases{s} cost more than {t}?"),
          (50, 100, 200), ">", lambda t: f"${t:g}", "expenses over {t}"),
    _Cond("workouts", "distance", ("How many runs longer than {t} did I do{s}?",),
          (8, 10, 12), ">", lambda t: f"{t:g} km", "runs over {t}"),
)

_COUNT_PLAIN = (
    ("workouts", ("How many runs did I log{s}?", "How many times did I go running{s}?"), ("none",)),
    ("expenses", ("How many purchases did I make{f}{s}?", "How many expenses did I log{f}{s}?"),
     ("none", "category", "merchant")),
    ("expenses", ("How many times did I shop{f}{s}?",), ("merchant",)),
    ("games", ("How many games did we play{f}{s}?",), ("none", "opponent")),
    ("glucose", ("On how many days did I log my CGM numbers{s}?",), ("none",)),
)

_RESULT_WORDS = {"won": ("win", "won"), "lost": ("lose", "lost"), "draw": ("draw", "drew")}


def _clear(values: list[float], thr: float) -> bool:
    return all(abs(v - thr) > 1e-6 for v in values)


def _count(g: _Gen) -> DevQuestion | None:
    roll = g.rng.random()
    if roll < 0.45:
        cond = g.rng.choice(_COUNT_CONDS)
        thr = float(g.rng.choice(cond.thresholds))
        scope = g.pick_scope(_WIDE_SCOPES + ("last_week",))
        if scope is None:
            return None
        recs = g.records(cond.domain, scope, field_name=cond.field)
        if not recs or not _clear([float(t.values[cond.field]) for t in recs], thr):
            return None
        hits = [t for t in recs if cond.holds(float(t.values[cond.field]), thr)]
        text = g.rng.choice(cond.templates).format(s=scope.phrase, t=cond.written(thr))
        label = cond.label.format(t=cond.written(thr))
    elif roll < 0.6:
        res = g.rng.choice(sorted(_RESULT_WORDS))
        scope = g.pick_scope(("whole", "month", "whole"))
        if scope is None:
            return None
        recs = g.records("games", scope)
        if recs is None:
            return None
        hits = [t for t in recs if t.values.get("result") == res]
        if res == "draw":
            text = f"How many games ended in a draw{scope.phrase}?"
        else:
            text = g.rng.choice((f"How many games did we {_RESULT_WORDS[res][0]}{scope.phrase}?",
                                 f"How many times did we {_RESULT_WORDS[res][0]}{scope.phrase}?"))
        label = f"games {res}"
    else:
        domain, templates, fkinds = g.rng.choice(_COUNT_PLAIN)
        flt = g.text_filter(domain, fkinds)
        scope = g.pick_scope(_ALL_SCOPES if flt is _NO_FILTER else ("whole", "month"))
        if scope is None:
            return None
        hits = g.records(domain, scope, flt)
        if hits is None:
            return None
        text = g.rng.choice(templates).format(s=scope.phrase, f=flt.phrase)
        label = f"{domain}{' ' + flt.label if flt.label else ''}"
    if not hits:
        return None
    n = len(hits)
    gold = f"{n} ({label} {scope.label})"
    return _q(g, "count", text, gold, float(n), "number", scope=scope, evidence=g.evidence(hits))


# -- extreme ------------------------------------------------------------------------------------

_EXTREME_VALUE = (
    ("average_glucose", max, ("What was my highest glucose reading{s}?", "What was my highest average glucose{s}?")),
    ("average_glucose", min, ("What was my lowest average glucose{s}?",)),
    ("distance", max, ("What was my longest run{s}?", "How far did I go on my longest run{s}?")),
    ("amount", max, ("What was my biggest expense{s}?", "What was the most I spent on a single purchase{s}?")),
    ("resting_heart_rate", min, ("What was my lowest resting heart rate{s}?",)),
    ("resting_heart_rate", max, ("What was my highest resting heart rate{s}?",)),
    ("sleep_score", max, ("What was my best sleep score{s}?",)),
    ("total_sleep", min, ("What was the least I slept in one night{s}?", "What was my shortest night of sleep{s}?")),
    ("total_sleep", max, ("What was the most I slept in one night{s}?",)),
    ("time_in_range", min, ("What was my worst time in range{s}?",)),
    ("duration", max, ("How long was my longest run{s}, in minutes?",)),
)
_EXTREME_DAY = (
    ("total_sleep", min, ("On which day{s} did I sleep the least?", "Which night{s} did I get the least sleep?")),
    ("total_sleep", max, ("On which day{s} did I sleep the most?",)),
    ("resting_heart_rate", max, ("Which day{s} had my highest resting heart rate?",)),
    ("distance", max, ("On which day{s} did I run the farthest?", "When did I do my longest run{s}?")),
    ("amount", max, ("On which day{s} did I make my biggest purchase?",)),
    ("time_in_range", max, ("Which day{s} had my best time in range?",)),
    ("sleep_score", min, ("On which day{s} was my sleep score the lowest?",)),
    ("average_glucose", max, ("On which day{s} was my average glucose the highest?",)),
)


def _extreme(g: _Gen) -> DevQuestion | None:
    by_day = g.rng.random() < 0.45
    fname, fn, templates = g.rng.choice(_EXTREME_DAY if by_day else _EXTREME_VALUE)
    m = _MEASURES[fname]
    scope = g.pick_scope(("whole", "whole", "month", "range", "week_of_month", "last_week", "last_n_days"),
                         bare=by_day)
    if scope is None:
        return None
    recs = g.records(m.domain, scope, field_name=fname)
    if not recs or len(recs) < 3:
        return None
    best = fn(float(t.values[fname]) for t in recs)
    winners = [t for t in recs if float(t.values[fname]) == best]
    word = "highest" if fn is max else "lowest"
    text = g.rng.choice(templates).format(s=scope.phrase)
    if by_day:
        if len(winners) != 1:
            return None
        day = winners[0].day
        gold = f"{_long(day)}, {day.year} ({word} {m.noun} {scope.label}: {_fmt(best, m.unit)})"
        return _q(g, "extreme", text, gold, [day.isoformat()], "days", scope=scope, evidence=g.evidence(winners))
    gold = f"{_fmt(best, m.unit)} ({word} {m.noun} {scope.label}, on " \
           f"{', '.join(_long(t.day) for t in winners)})"
    return _q(g, "extreme", text, gold, best, "number", scope=scope, evidence=g.evidence(winners), unit=m.unit,
              tolerance=m.single_tol)


# -- latest -------------------------------------------------------------------------------------

_LATEST_VALUE = (
    ("resting_heart_rate", ("What was my most recent resting heart rate{s}?", "What was my latest resting HR{s}?"),
     ("none",)),
    ("sleep_score", ("What was my latest sleep score{s}?",), ("none",)),
    ("total_sleep", ("How long did I sleep the last time I logged my sleep{s}?",), ("none",)),
    ("distance", ("How far was my last run{s}?", "What distance did I cover on my most recent run{s}?"), ("none",)),
    ("duration", ("How long did my last run{s} take?",), ("none",)),
    ("time_in_range", ("What was my most recent time in range{s}?",), ("none",)),
    ("amount", ("How much was my last expense{f}{s}?", "What did my most recent purchase{f}{s} cost?"),
     ("none", "merchant", "category")),
    ("amount", ("How much did I spend the last time I shopped{f}{s}?",), ("merchant",)),
)


def _latest(g: _Gen) -> DevQuestion | None:
    roll = g.rng.random()
    scope = g.pick_scope(("whole", "whole", "month"), bare=True)
    if scope is None:
        return None
    if roll < 0.55:
        fname, templates, fkinds = g.rng.choice(_LATEST_VALUE)
        m = _MEASURES[fname]
        flt = g.text_filter(m.domain, fkinds)
        template = g.rng.choice(templates)
        recs = g.records(m.domain, scope, flt, fname)
        rec = _unambiguous_latest(g, recs)
        if rec is None:
            return None
        value = float(rec.values[fname])
        text = template.format(s=scope.phrase, f=flt.phrase)
        gold = f"{_fmt(value, m.unit)} (latest {m.noun}{' ' + flt.label if flt.label else ''} {scope.label}, " \
               f"{_long(rec.day)})"
        return _q(g, "latest", text, gold, value, "number", scope=scope, evidence=[rec.round_id], unit=m.unit,
                  tolerance=m.single_tol)
    if roll < 0.8:
        recs = g.records("games", scope)
        rec = _unambiguous_latest(g, recs)
        if rec is None:
            return None
        if g.rng.random() < 0.5:
            res = str(rec.values["result"])
            text = g.rng.choice(("What was the result of our last game{s}?",
                                 "What was the result of our most recent game{s}?",
                                 "How did our latest match{s} end?")).format(s=scope.phrase)
            gold = f"{res} ({rec.values['score_for']}-{rec.values['score_against']} against the " \
                   f"{rec.values['opponent']}, {_long(rec.day)})"
            return _q(g, "latest", text, gold, res, "text", scope=scope, evidence=[rec.round_id],
                      choices=dict(_RESULT_CHOICES))
        opp = str(rec.values["opponent"])
        seen = sorted({str(t.values["opponent"]) for t in g.by_domain.get("games", [])})
        text = g.rng.choice(("Who did we play in our most recent game{s}?", "Which team did we play last{s}?")).format(
            s=scope.phrase)
        gold = f"{opp} ({_long(rec.day)})"
        return _q(g, "latest", text, gold, opp, "text", scope=scope, evidence=[rec.round_id],
                  choices={o: [o] for o in seen})
    flt = g.text_filter("expenses", ("merchant",))
    domain, recs = ("expenses", g.records("expenses", scope, flt)) if g.rng.random() < 0.6 else \
        ("workouts", g.records("workouts", scope))
    rec = _unambiguous_latest(g, recs)
    if rec is None:
        return None
    if domain == "expenses":
        text = f"When did I last shop{flt.phrase}{scope.phrase}?"
    else:
        text = g.rng.choice(("When was my last run{s}?", "When did I last go for a run{s}?")).format(s=scope.phrase)
    gold = f"{_long(rec.day)}, {rec.day.year}"
    return _q(g, "latest", text, gold, [rec.day.isoformat()], "days", scope=scope, evidence=[rec.round_id])


_RESULT_CHOICES = {"won": ["won", "win", "victory", "beat"], "lost": ["lost", "loss", "lose", "defeat"],
                   "draw": ["draw", "drew", "tie", "tied"]}


def _unambiguous_latest(g: _Gen, recs: list[TruthRecord] | None) -> TruthRecord | None:
    """The latest record by observed day, if it was also the last one shared."""
    if not recs:
        return None
    by_day = max(recs, key=lambda t: (t.day, g.order[t.round_id]))
    by_round = max(recs, key=lambda t: g.order[t.round_id])
    return by_day if by_day is by_round and sum(t.day == by_day.day for t in recs) == 1 else None


# -- date filter --------------------------------------------------------------------------------

_DAY_CONDS = (
    _Cond("sleep", "total_sleep", ("On which days{s} did I sleep less than {t}?",
                                   "Which nights{s} did I get under {t} of sleep?"),
          (5.5, 6.0, 6.5), "<", lambda t: f"{t:g} hours", ""),
    _Cond("sleep", "total_sleep", ("On which days{s} did I sleep more than {t}?",), (7.5, 8.0, 8.5), ">",
          lambda t: f"{t:g} hours", ""),
    _Cond("expenses", "amount", ("On which days{s} did I have an expense over {t}?",
                                 "When did I spend more than {t} on a single purchase{s}?"),
          (100, 200, 500), ">", lambda t: f"${t:g}", ""),
    _Cond("workouts", "distance", ("On which days{s} did I run more than {t}?",), (10, 11, 12, 13), ">",
          lambda t: f"{t:g} km", ""),
    _Cond("glucose", "time_in_range", ("On which days{s} was my time in range below {t}?",), (60, 65, 70), "<",
          lambda t: f"{t:g}%", ""),
    _Cond("glucose", "lows", ("Which days{s} did I have {t} or more lows?",), (2, 3), ">=", lambda t: f"{t:g}", ""),
    _Cond("sleep", "resting_heart_rate", ("On which days{s} was my resting heart rate {t} or higher?",),
          (59, 60, 61), ">=", lambda t: f"{t:g} bpm", ""),
)


def _date_filter(g: _Gen) -> DevQuestion | None:
    roll = g.rng.random()
    if roll < 0.7:
        cond = g.rng.choice(_DAY_CONDS)
        thr = float(g.rng.choice(cond.thresholds))
        scope = g.pick_scope(("whole", "month", "month", "range", "last_week", "last_n_days", "last_month"), bare=True)
        if scope is None:
            return None
        recs = g.records(cond.domain, scope, field_name=cond.field)
        if not recs or not _clear([float(t.values[cond.field]) for t in recs], thr):
            return None
        hits = [t for t in recs if cond.holds(float(t.values[cond.field]), thr)]
        text = g.rng.choice(cond.templates).format(s=scope.phrase, t=cond.written(thr))
    else:
        domain = g.rng.choice(("games", "expenses"))
        flt = g.text_filter(domain, ("opponent",) if domain == "games" else ("merchant",))
        scope = g.pick_scope(("whole", "month"), bare=True)
        if scope is None:
            return None
        hits = g.records(domain, scope, flt)
        if hits is None:
            return None
        if domain == "games":
            text = g.rng.choice(("When did we play{f}{s}?", "On which days{s} did we play{f}?"))
        else:
            text = g.rng.choice(("When did I shop{f}{s}?", "On which days{s} did I buy something{f}?"))
        text = text.format(s=scope.phrase, f=flt.phrase)
    if not hits or len(hits) > 6 or len({t.day for t in hits}) != len(hits):
        return None
    days = sorted(t.day for t in hits)
    gold = ", ".join(_long(d) for d in days) + f" ({days[0].year})"
    return _q(g, "date_filter", text, gold, [d.isoformat() for d in days], "days", scope=scope,
              evidence=g.evidence(hits))


# -- comparison -------------------------------------------------------------------------------

_CMP_AVG = (
    ("total_sleep", "Did I sleep more on average {a} or {b}?"),
    ("resting_heart_rate", "Was my average resting heart rate higher {a} or {b}?"),
    ("time_in_range", "Was my time in range better on average {a} or {b}?"),
    ("sleep_score", "Were my sleep scores higher {a} or {b}?"),
    ("distance", "Were my runs longer on average {a} or {b}?"),
)
_CMP_SUM = (
    ("distance", "Did I run more kilometers {a} or {b}?"),
    ("amount", "Did I spend more money {a} or {b}?"),
)


def _period_pair(g: _Gen) -> tuple[_Scope, _Scope, str, str, dict[str, list[str]]] | None:
    """Two periods, their phrases in a question, and the aliases that name each in an answer."""
    full = [(y, m) for (y, m) in g.months
            if (min(_month_end(date(y, m, 1)), g.last) - max(date(y, m, 1), g.first)).days >= 20]
    if len(full) >= 2 and g.rng.random() < 0.4:
        (y1, m1), (y2, m2) = sorted(g.rng.sample(full, 2))
        a = _Scope("month", "", date(y1, m1, 1), _month_end(date(y1, m1, 1)), g.end_now, _MONTHS[m1 - 1])
        b = _Scope("month", "", date(y2, m2, 1), _month_end(date(y2, m2, 1)), g.end_now, _MONTHS[m2 - 1])
        aliases = {a.label: [a.label, a.label[:3]], b.label: [b.label, b.label[:3]]}
        return a, b, f"in {a.label}", f"in {b.label}", aliases
    y, m = g.rng.choice(g.months)
    i, j = sorted(g.rng.sample(range(4), 2))
    scopes = []
    for k in (i, j):
        start = date(y, m, 1 + 7 * k)
        if (min(start + timedelta(days=6), g.last) - max(start, g.first)).days < 3:
            return None
        scopes.append(_Scope("week_of_month", "", start, start + timedelta(days=6), g.end_now,
                             f"the {_ORDINALS[k]} week of {_MONTHS[m - 1]}"))
    name = _MONTHS[m - 1]
    return (scopes[0], scopes[1], f"in the {_ORDINALS[i]} week of {name}", f"the {_ORDINALS[j]}",
            {scopes[0].label: [_ORDINALS[i]], scopes[1].label: [_ORDINALS[j]]})


def _comparison(g: _Gen) -> DevQuestion | None:
    if g.rng.random() < 0.25 and g.used["category_comparison"] < max(1, g.per_category // 3):
        q = _category_comparison(g)  # easy when one category dwarfs the other: a third at most
        g.used["category_comparison"] += q is not None
        return q
    use_sum = g.rng.random() < 0.35
    fname, template = g.rng.choice(_CMP_SUM if use_sum else _CMP_AVG)
    m = _MEASURES[fname]
    pair = _period_pair(g)
    if pair is None:
        return None
    a, b, pa, pb, choices = pair
    ra, rb = g.records(m.domain, a, field_name=fname), g.records(m.domain, b, field_name=fname)
    if not ra or not rb or len(ra) < 2 or len(rb) < 2:
        return None
    va = sum(float(t.values[fname]) for t in ra)
    vb = sum(float(t.values[fname]) for t in rb)
    if not use_sum:
        va, vb = va / len(ra), vb / len(rb)
    if not _separated(va, vb, m.unit):
        return None
    win = a if va > vb else b
    text = template.format(a=pa, b=pb)
    how = "total" if use_sum else "average"
    gold = f"{win.label} ({how} {m.noun}: {_fmt(round(va, 2), m.unit)} {a.label} vs {_fmt(round(vb, 2), m.unit)} " \
           f"{b.label})"
    return _q(g, "comparison", text, gold, win.label, "text", scope=a, evidence=g.evidence(ra + rb),
              choices=choices, period=(a.start, b.end))  # type: ignore[arg-type]


def _category_comparison(g: _Gen) -> DevQuestion | None:
    recs0 = g.by_domain.get("expenses", [])
    cats = sorted({str(t.values["category"]) for t in recs0})
    if len(cats) < 2:
        return None
    c1, c2 = g.rng.sample(cats, 2)
    scope = g.pick_scope(("whole", "month"))
    if scope is None:
        return None
    recs = g.records("expenses", scope, field_name="amount") or []
    r1 = [t for t in recs if t.values.get("category") == c1]
    r2 = [t for t in recs if t.values.get("category") == c2]
    if not r1 or not r2:
        return None
    v1, v2 = sum(float(t.values["amount"]) for t in r1), sum(float(t.values["amount"]) for t in r2)
    if not _separated(v1, v2, "USD"):
        return None
    win = c1 if v1 > v2 else c2
    text = f"Did I spend more {_CATEGORY_PHRASE.get(c1, 'on ' + c1)} or {_CATEGORY_PHRASE.get(c2, 'on ' + c2)}" \
           f"{scope.phrase}?"
    gold = f"{win} ({c1} {_fmt(v1, 'USD')} vs {c2} {_fmt(v2, 'USD')} {scope.label})"
    return _q(g, "comparison", text, gold, win, "text", scope=scope, evidence=g.evidence(r1 + r2),
              choices={c1: [c1], c2: [c2]})


def _separated(a: float, b: float, unit: str) -> bool:
    gap = abs(a - b)
    return gap >= 0.03 * max(abs(a), abs(b)) and (unit != "USD" or gap >= 5.0)


# -- trend --------------------------------------------------------------------------------------

_TREND = (
    ("resting_heart_rate", ("Did my resting heart rate go up or down{s}?",
                            "Was my resting HR trending up or down{s}?")),
    ("sleep_score", ("Was my sleep score trending up or down{s}?",)),
    ("time_in_range", ("Did my time in range increase or decrease{s}?",)),
    ("total_sleep", ("Did my total sleep go up or down{s}?", "Was my sleep time trending up or down{s}?")),
    ("average_glucose", ("Has my average glucose been going up or down{s}?",)),
    ("deep_sleep", ("Did my deep sleep increase or decrease{s}?",)),
)
_TREND_CHOICES = {
    "up": ["up", "upward", "increase", "increased", "increasing", "rose", "rising", "risen", "higher", "more"],
    "down": ["down", "downward", "decrease", "decreased", "decreasing", "fell", "falling", "dropped", "declined",
             "lower", "less"],
}


def _trend(g: _Gen) -> DevQuestion | None:
    fname, templates = g.rng.choice(_TREND)
    m = _MEASURES[fname]
    scope = g.pick_scope(("month", "month", "whole", "last_n_days", "last_month"))
    if scope is None:
        return None
    recs = g.records(m.domain, scope, field_name=fname)
    if not recs or len(recs) < 8 or (recs[-1].day - recs[0].day).days < 13:
        return None
    slope = _slope([((t.day - recs[0].day).days, float(t.values[fname])) for t in recs])
    head = [float(t.values[fname]) for t in recs if (t.day - recs[0].day).days < 7]
    tail = [float(t.values[fname]) for t in recs if (recs[-1].day - t.day).days < 7]
    mean = sum(float(t.values[fname]) for t in recs) / len(recs)
    diff = sum(tail) / len(tail) - sum(head) / len(head)
    if slope == 0 or diff * slope <= 0 or abs(diff) < 0.02 * abs(mean):
        return None
    word = "up" if slope > 0 else "down"
    phrase = scope.phrase
    if scope.style == "month":
        phrase = phrase.replace(" in ", " over ", 1).replace(" during ", " over ", 1)
    elif scope.style == "whole":
        phrase = " over time"
    text = g.rng.choice(templates).format(s=phrase)
    choices = dict(_TREND_CHOICES)
    gold = f"{word} ({m.noun} {scope.label if scope.style != 'whole' else 'over the whole history'}: " \
           f"slope {slope:+.3g} per day; first week {_fmt(round(sum(head) / len(head), 2), m.unit)}, " \
           f"last week {_fmt(round(sum(tail) / len(tail), 2), m.unit)})"
    return _q(g, "trend", text, gold, word, "text", scope=scope, evidence=g.evidence(recs), choices=choices)


def _slope(points: list[tuple[float, float]]) -> float:
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return 0.0 if sxx == 0 else sum((x - mx) * (y - my) for x, y in points) / sxx


# -- retrieval ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Recall:
    """A chatter exchange, recognized by its user text, and a question about the reply.

    ``key`` names the groups that must agree across rounds for the question to have one answer
    (every round with the same key is evidence); ``gold`` is a regex over the reply whose first
    group is the answer span, so the gold is always verbatim text of the round.
    """

    user: str
    questions: tuple[str, ...]
    gold: str
    key: tuple[str, ...] = ()


_RECALLS = (
    _Recall(r"weekend in (?P<city>[^.?]+)\. What should we not miss", (
        "What did you say we shouldn't miss in {city}?", "What's the one sight you told me not to miss in {city}?"),
        r"Don't miss (.+?), and save", ("city",)),
    _Recall(r"weekend in (?P<city>[^.?]+)\. What should we not miss", (
        "What food did you say to save an afternoon for in {city}?",),
        r"save an afternoon for (.+?)\.", ("city",)),
    _Recall(r"Is (?P<city>[^?]+?) walkable", ("Do we need a car in {city}, or can we walk?",),
            r"(very walkable)", ("city",)),
    _Recall(r"2 eggs instead of 3 eggs", ("What should I add to banana bread if I use one egg less?",),
            r"Add (a spoon of yogurt)"),
    _Recall(r"keep pancakes fluffy", ("What was your advice for fluffy pancakes?",), r"(Don't overmix the batter)"),
    _Recall(r"cloves of garlic", ("How should I cook the garlic for my tomato sauce?",),
            r"(slice them thinly)"),
    _Recall(r"200 g of flour", ("What do I need to add to my leftover flour for a pizza dough?",),
            r"(water, salt and a little yeast)"),
    _Recall(r"4 of us", ("Which vegetarian main did you suggest for our dinner party?",),
            r"(roasted .+? tart with feta and herbs)"),
    _Recall(r"cook for dinner with (?P<veg>.+?) and chickpeas",
            ("What did you suggest I make with {veg} and chickpeas?",),
            r"Try (an? .+? curry)", ("veg",)),
    _Recall(r"packing light", ("What did you tell me to pack for a light city break?",),
            r"(One pair of comfortable shoes)"),
    _Recall(r"the (?P<project>\w+) deadline is unrealistic",
            ("How did you suggest I push back on the {project} deadline?",),
            r"(Bring a concrete alternative)", ("project",)),
    _Recall(r"update for the team about the (?P<project>\w+) project",
            ("In the team update about {project}, what did we name as the main risk?",),
            r"main risk is (.+?)\.'", ("project",)),
    _Recall(r"shorter weekly meeting", ("How can I make our weekly meeting shorter?",),
            r"(Share the agenda in advance)"),
    _Recall(r"chapter 7 of (?P<book>.+?)\. Is it", ("Is {book} worth finishing, according to you?",),
            r"(the second half pulls the threads together)", ("book",)),
    _Recall(r"basil keeps wilting", ("Why does my basil keep wilting?",),
            r"(too much afternoon sun and too little water)"),
    _Recall(r"podcast for my commute", ("What kind of podcast did you recommend for my commute?",),
            r"(a narrative history podcast)"),
    _Recall(r"sleeping badly", ("What did you suggest when I told you I was sleeping badly?",),
            r"(Keep a regular wake time)"),
    _Recall(r"half marathon", ("How did you say I should train for a half marathon?",),
            r"(one long run a week)"),
    _Recall(r"budget for eating out", ("How did you suggest I budget for restaurants?",),
            r"(A monthly envelope for restaurants)"),
    _Recall(r"CGM sensor itches", ("What helps when my CGM sensor itches?",),
            r"(an adhesive barrier wipe)"),
    _Recall(r"new goalkeeper", ("How can our team find a new goalkeeper?",),
            r"(Post in the league's group chat)"),
    _Recall(r"stretch after a long day", ("What stretch did you recommend after sitting at a desk all day?",),
            r"(A doorway chest stretch)"),
)

#: Questions about things this history never discusses, with the words whose absence proves it.
_NEVER = (
    ("What's my dog's name?", ("dog", "dogs", "puppy")),
    ("How much do I weigh these days?", ("weigh", "weight", "kg", "pounds")),
    ("What was my blood pressure last week?", ("blood", "pressure")),
    ("When is my dentist appointment?", ("dentist", "appointment")),
    ("How many steps did I walk yesterday?", ("steps", "step", "walked")),
    ("What's my sister's name?", ("sister",)),
    ("How much is my gym membership?", ("gym", "membership")),
    ("What did I name my sourdough starter?", ("sourdough", "starter")),
    ("What was my cholesterol level at the last checkup?", ("cholesterol", "checkup")),
    ("Which airline did we book for the trip?", ("airline", "flight", "book", "booked")),
    ("What's my favourite colour?", ("colour", "color", "favourite", "favorite")),
    ("How many hours did I spend playing piano?", ("piano",)),
)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def _retrieval_questions(g: _Gen, n_answerable: int, n_refusal: int) -> list[DevQuestion]:
    chatter = set(g.ds.chatter_round_ids)
    rounds = [r for r in g.ds.rounds if r.round_id in chatter]
    candidates: list[DevQuestion] = []
    for rec in _RECALLS:
        groups: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        for r in rounds:
            mu = re.search(rec.user, r.user_text or "")
            if not mu:
                continue
            mg = re.search(rec.gold, r.assistant_text or "")
            if not mg:
                continue
            key = tuple(mu.group(k) for k in rec.key)
            groups.setdefault(key, []).append((r.round_id, mg.group(1)))
        for key, hits in sorted(groups.items()):
            spans = {span for _, span in hits}
            if len(spans) != 1:  # the same question would have two answers
                continue
            span = spans.pop()
            values = dict(zip(rec.key, key))
            for template in rec.questions:
                candidates.append(_q(g, "retrieval", template.format(**values), span, span, "text", scope=None,
                                     evidence=[rid for rid, _ in hits]))
    g.rng.shuffle(candidates)
    # one question per exchange type first, so a short history still gets varied recall
    seen: set[str] = set()
    firsts, rest = [], []
    for c in candidates:
        (rest if c.evidence_round_ids[0] in seen else firsts).append(c)
        seen.update(c.evidence_round_ids)
    out = (firsts + rest)[:n_answerable]
    history = set()
    for text in g.text.values():
        history |= _words(text)
    never = [(q, words) for q, words in _NEVER if not set(words) & history]
    g.rng.shuffle(never)
    for q, _ in never[:n_refusal]:
        out.append(_q(g, "retrieval", q, NOT_MENTIONED, NOT_MENTIONED, "refusal", scope=None, evidence=[]))
    return out


# -- assembly -----------------------------------------------------------------------------------

_BUILDERS: dict[str, Callable[[_Gen], DevQuestion | None]] = {
    "average": _average, "sum": _sum, "count": _count, "extreme": _extreme, "latest": _latest,
    "date_filter": _date_filter, "comparison": _comparison, "trend": _trend,
}


def generate_questions(devset: DevSet, per_category: int = 12, seed: int = 0) -> list[DevQuestion]:
    """Up to ``per_category`` questions per aggregate category, ``per_category`` recall
    questions plus ``ceil(per_category / 4)`` unanswerable ones, all fully determined by the
    dev set and ``seed``.

    A short history may yield fewer (a category is never padded with duplicates or with
    questions whose gold would be ambiguous).
    """
    if per_category < 1:
        raise ValueError("per_category must be at least 1")
    rng = random.Random(f"adamm-devset-questions:{devset.seed}:{devset.days}:{seed}")
    g = _Gen(devset, rng)
    g.per_category = per_category
    out: list[DevQuestion] = []
    for category, build in _BUILDERS.items():
        got: list[DevQuestion] = []
        seen: set[Any] = set()
        for _ in range(60 * per_category):
            if len(got) >= per_category:
                break
            q = build(g)
            if q is None:
                continue
            # a reworded question with the same answer from the same records measures nothing new
            keys = {(q.question, q.now), (q.scope, str(q.gold_value), tuple(q.evidence_round_ids))}
            if keys & seen:
                continue
            seen |= keys
            got.append(q)
        out.extend(got)
    out.extend(_retrieval_questions(g, per_category, math.ceil(per_category / 4)))
    for i, q in enumerate(out):
        q.question_id = f"seed{devset.seed}#{i}"
    return out


# -- scoring ------------------------------------------------------------------------------------

_MONTH_RE = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
             r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_MONTH_INDEX = {m[:3].lower(): i + 1 for i, m in enumerate(_MONTHS)}
_DAY_TAIL = r"(?:st|nd|rd|th)?"
#: A bare day continuing a list ("March 4, 9 and 12"), not a quantity ("March 4, 6.5 hours").
_MORE_DAY = (r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)(\d{1,2})" + _DAY_TAIL +
             r"\b(?![.:]?\d)(?!\s*(?:%|h\b|hours?|hrs?|min|minutes?|km|bpm|ms|mg|usd|dollars|-|–))")
_DATE_RES = (
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    ("md", re.compile(r"\b" + _MONTH_RE + r"\.?\s+(\d{1,2})" + _DAY_TAIL + r"\b(?:,?\s+(\d{4})\b)?"
                      + r"((?:" + _MORE_DAY + r")*)", re.I)),
    ("dm", re.compile(r"\b(\d{1,2})" + _DAY_TAIL + r"\s+(?:of\s+)?" + _MONTH_RE + r"\b\.?(?:,?\s+(\d{4})\b)?", re.I)),
    ("us", re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")),
)
_MONTH_YEAR = re.compile(r"\b" + _MONTH_RE + r"\.?\s+(\d{4})\b", re.I)


def _mk_date(year: int | None, month: int, day: int, now: date) -> date | None:
    try:
        if year is not None:
            return date(year, month, day)
        d = date(now.year, month, day)
        return d if d <= now else date(now.year - 1, month, day)
    except ValueError:
        return None


def _date_spans(text: str, now: date) -> list[tuple[int, int, list[date]]]:
    """(start, end, dates) of every date mention, in order of position."""
    spans: list[tuple[int, int, list[date]]] = []
    for kind, rx in _DATE_RES:
        for m in rx.finditer(text):
            if any(s <= m.start() < e or m.start() <= s < m.end() for s, e, _ in spans):
                continue
            if kind == "iso":
                found = [_mk_date(int(m[1]), int(m[2]), int(m[3]), now)]
            elif kind == "md":
                month, year = _MONTH_INDEX[m[1][:3].lower()], int(m[3]) if m[3] else None
                found = [_mk_date(year, month, int(m[2]), now)]
                found += [_mk_date(year, month, int(d), now) for d in re.findall(_MORE_DAY, m[4] or "", re.I)]
            elif kind == "dm":
                found = [_mk_date(int(m[3]) if m[3] else None, _MONTH_INDEX[m[2][:3].lower()], int(m[1]), now)]
            else:
                found = [_mk_date(int(m[3]), int(m[1]), int(m[2]), now)]
            days = [d for d in found if d is not None]
            if days:
                spans.append((m.start(), m.end(), days))
    return sorted(spans, key=lambda s: s[0])


def parse_days(text: str, now: date | datetime | str | None = None) -> list[date]:
    """Dates mentioned in ``text``, in order (a year left out: the latest such date <= now)."""
    ref = _as_date(now) if now is not None else date.today()
    return [d for _, _, days in _date_spans(text, ref) for d in days]


def _as_date(value: date | datetime | str) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return datetime.fromisoformat(value).date()


_NUMBER_WORDS = {w: i for i, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"))}
_NUM = r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
_H = r"(?:hours?|hrs?|h)(?![a-z])"
_MIN = r"(?:minutes?|mins?|min|m)(?![a-z])"
_QTY = re.compile(
    r"(?P<hm>(?P<h1>" + _NUM + r")\s*" + _H + r"\.?,?\s*(?:and\s+)?(?P<m1>\d+(?:\.\d+)?)\s*" + _MIN + r")"
    r"|(?P<colon>\b(?P<h2>\d{1,2}):(?P<m2>[0-5]\d)\b)"
    r"|(?P<num>(?P<n>" + _NUM + r")\s*(?P<unit>" + _H + "|" + _MIN + r"|(?:km|kilomet(?:er|re)s?)\b|"
    r"(?:met(?:er|re)s?)\b)?)"
    r"|(?P<word>\b(?:" + "|".join(_NUMBER_WORDS) + r"|no|none)\b)",
    re.I,
)


def parse_quantity(text: str, unit: str = "", now: date | datetime | str | None = None) -> float | None:
    """The first quantity of ``text`` in ``unit`` ("h", "min", "km", "USD", ...), dates set aside."""
    ref = _as_date(now) if now is not None else date.today()
    masked = list(text)
    for s, e, _ in _date_spans(text, ref):
        masked[s:e] = " " * (e - s)
    clean = _MONTH_YEAR.sub(lambda m: " " * len(m.group(0)), "".join(masked))
    for m in _QTY.finditer(clean):
        if m["hm"]:
            hours = float(m["h1"].replace(",", "")) + float(m["m1"]) / 60
            return hours * 60 if unit == "min" else hours
        if m["colon"]:
            if unit == "h":
                return int(m["h2"]) + int(m["m2"]) / 60
            if unit == "min":
                return int(m["h2"]) * 60 + int(m["m2"])
            continue  # a time of day, not a quantity of this unit
        if m["word"]:
            if unit:  # "no lows" is a count, never a duration or an amount
                continue
            return float(_NUMBER_WORDS.get(m["word"].lower(), 0))
        value = float(m["n"].replace(",", ""))
        suffix = (m["unit"] or "").lower()
        if unit in ("h", "min") and suffix:
            is_hours = bool(re.fullmatch(_H, suffix))
            if unit == "h" and not is_hours and re.fullmatch(_MIN, suffix):
                return value / 60
            if unit == "min" and is_hours:
                return value * 60
        if unit == "km" and suffix.startswith("met"):
            return value / 1000
        return value
    return None


def _normalize(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = re.sub(r"['’`]", "", text)
    text = re.sub(r"[^a-z0-9]+", " ", text)
    return " ".join(w for w in text.split() if w not in ("a", "an", "the"))


def _f1(gold: str, pred: str) -> float:
    g, p = _normalize(gold).split(), _normalize(pred).split()
    common = sum((Counter(g) & Counter(p)).values())
    if not common:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


_REFUSAL = re.compile(
    r"not mentioned|never mentioned|no mention|not (?:been )?(?:discussed|recorded|logged|found|stated|"
    r"specified|available)|no (?:information|record|records|data|details|evidence)|"
    r"(?:don'?t|do not|cannot|can'?t|couldn'?t|could not) (?:know|find|tell|say|recall|determine)|"
    r"(?:i|you) (?:have|had) no|nothing (?:about|on|in)|unknown|no idea|not sure", re.I)


def _first_choice(q: DevQuestion, prediction: str) -> str | None:
    norm = " " + _normalize(prediction) + " "
    best: tuple[int, str] | None = None
    for option, aliases in q.choices.items():
        for alias in aliases or [option]:
            a = _normalize(alias)
            if not a:
                continue
            i = norm.find(" " + a + " ")
            if i >= 0 and (best is None or i < best[0]):
                best = (i, option)
    return best[1] if best else None


def is_correct(q: DevQuestion, prediction: str) -> bool:
    """Whether ``prediction`` answers ``q`` (see the module docstring for the rules)."""
    prediction = prediction or ""
    if q.kind == "refusal":
        return bool(_REFUSAL.search(prediction))
    if q.kind == "number":
        got = parse_quantity(prediction, q.unit, q.now or None)
        if got is None:
            return False
        gold = float(q.gold_value)  # type: ignore[arg-type]
        return abs(got - gold) <= max(q.tolerance, q.rel_tolerance * abs(gold)) + 1e-9
    if q.kind == "days":
        gold_days = {date.fromisoformat(d) for d in q.gold_value}  # type: ignore[union-attr]
        found = parse_days(prediction, q.now or None)
        if not found:
            return False
        if len(gold_days) == 1:
            return found[0] in gold_days
        return set(found) == gold_days
    if q.kind == "text":
        if q.choices:
            return _first_choice(q, prediction) == q.gold_value
        gold = _normalize(str(q.gold_value))
        pred = _normalize(prediction)
        if gold and f" {gold} " in f" {pred} ":
            return True
        return _f1(str(q.gold_value), prediction) >= 0.8
    raise ValueError(f"unknown kind {q.kind!r}")


# -- files and CLI ------------------------------------------------------------------------------


def write_jsonl(questions: Iterable[DevQuestion], path: str) -> int:
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(q.to_dict(), ensure_ascii=False) + "\n")
            n += 1
    return n


def load_jsonl(path: str) -> list[DevQuestion]:
    with open(path, encoding="utf-8") as fh:
        return [DevQuestion.from_dict(json.loads(line)) for line in fh if line.strip()]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m adamm.devset_questions", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=0, help="dev-set seed (the question draw uses it too)")
    p.add_argument("--days", type=int, default=60)
    p.add_argument("--per-category", type=int, default=12)
    p.add_argument("--question-seed", type=int, default=0)
    p.add_argument("--out", required=True, help="questions JSONL file to write")
    args = p.parse_args(argv)
    ds = generate(args.seed, args.days)
    qs = generate_questions(ds, per_category=args.per_category, seed=args.question_seed)
    n = write_jsonl(qs, args.out)
    counts = Counter(q.category for q in qs)
    print(f"{n} questions ({', '.join(f'{c} {counts[c]}' for c in CATEGORIES)}) -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
