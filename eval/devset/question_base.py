"""What every question family shares: the question record, time scopes, measures, filters.

Split from :mod:`adamm.eval.devset.questions` (whose docstring states the rules these pieces
implement): :class:`QuestionGen` indexes a dev set's ground truth and resolves time phrases
("in March", "last week", "in the last 14 days") to periods and a ``now``, so each family module
(totals, records, periods, recall) only chooses a template, computes its gold and calls
:func:`make_question`.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, Callable, Iterable

from adamm.eval.devset.model import MONTHS, DevSet, TruthRecord, format_day

NOT_MENTIONED = "Not mentioned"
ORDINALS = ("first", "second", "third", "fourth")


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
class Scope:
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


def month_end(d: date) -> date:
    nxt = date(d.year + (d.month == 12), d.month % 12 + 1, 1)
    return nxt - timedelta(days=1)


# -- values ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measure:
    domain: str
    field: str
    unit: str
    noun: str  #: for gold displays
    single_tol: float  #: one stored value
    avg_tol: float  #: an average of values
    sum_tol: float  #: a total


MEASURES = {m.field: m for m in (
    Measure("sleep", "total_sleep", "h", "total sleep", 0.05, 0.05, 0.1),
    Measure("sleep", "deep_sleep", "h", "deep sleep", 0.05, 0.05, 0.1),
    Measure("sleep", "resting_heart_rate", "bpm", "resting heart rate", 0.5, 1.0, 0.5),
    Measure("sleep", "sleep_score", "", "sleep score", 0.5, 1.0, 0.5),
    Measure("sleep", "hrv", "ms", "HRV", 0.5, 1.0, 0.5),
    Measure("glucose", "time_in_range", "%", "time in range", 0.5, 1.0, 0.5),
    Measure("glucose", "average_glucose", "mg/dL", "average glucose", 0.5, 1.0, 0.5),
    Measure("glucose", "lows", "", "lows", 0.5, 0.1, 0.5),
    Measure("expenses", "amount", "USD", "amount", 0.5, 0.5, 0.5),
    Measure("workouts", "distance", "km", "distance", 0.05, 0.1, 0.1),
    Measure("workouts", "duration", "min", "duration", 0.5, 1.0, 1.0),
    Measure("workouts", "average_heart_rate", "bpm", "average heart rate", 0.5, 1.0, 0.5),
    Measure("games", "score_for", "", "goals scored", 0.5, 0.1, 0.5),
)}
AVG_REL = 0.01  #: averages may be shown rounded to two or three significant digits


def fmt_value(value: float, unit: str) -> str:
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
class Filter:
    phrase: str  #: " on groceries", " at Whole Foods", " against the Ravens", ""
    label: str
    test: Callable[[dict[str, Any]], bool]


NO_FILTER = Filter("", "", lambda v: True)

CATEGORY_PHRASE = {"food": "on food", "groceries": "on groceries", "transport": "on transport",
                   "entertainment": "on entertainment", "utilities": "on utilities", "health": "on health",
                   "housing": "on housing", "electronics": "on electronics"}


# -- the generator -----------------------------------------------------------------------------


class QuestionGen:
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

    def scope(self, style: str, whole: tuple[str, ...] = ("", "", " overall", " so far")) -> Scope | None:
        rng = self.rng
        if style == "whole":
            phrase = rng.choice(whole)
            return Scope(style, phrase, None, None, self.end_now, "overall")
        if style == "month":
            y, m = rng.choice(self.months)
            start, end = date(y, m, 1), month_end(date(y, m, 1))
            if (min(end, self.last) - max(start, self.first)).days < 6:
                return None
            name = MONTHS[m - 1]
            phrase = rng.choice((f" in {name}", f" during {name}", f" in {name} {y}"))
            return Scope(style, phrase, start, end, self.end_now, f"in {name}")
        if style == "range":
            span = (self.last - self.first).days
            if span < 5:
                return None
            length = rng.randint(5, min(14, span))
            start = self.first + timedelta(days=rng.randint(0, span - length))
            end = start + timedelta(days=length - 1)
            phrase = rng.choice((f" between {format_day(start, long=True)} and {format_day(end, long=True)}",
                                 f" from {format_day(start)} to {format_day(end)}",
                                 f" from {format_day(start, long=True)} through {format_day(end, long=True)}",
                                 f" between {start.isoformat()} and {end.isoformat()}"))
            return Scope(style, phrase, start, end, self.end_now, f"{format_day(start)}-{format_day(end)}")
        if style == "week_of_month":
            y, m = rng.choice(self.months)
            k = rng.randrange(4)
            start = date(y, m, 1 + 7 * k)
            end = start + timedelta(days=6)
            if (min(end, self.last) - max(start, self.first)).days < 3:
                return None
            name = MONTHS[m - 1]
            phrase = rng.choice((f" in the {ORDINALS[k]} week of {name}",
                                 f" during the {ORDINALS[k]} week of {name}"))
            return Scope(style, phrase, start, end, self.end_now, f"{ORDINALS[k]} week of {name}")
        return self._relative(style)

    def _relative(self, style: str) -> Scope | None:
        rng = self.rng
        span = (self.last - self.first).days
        if span < 2:
            return None
        today = self.first + timedelta(days=rng.randint(1, span))
        now = datetime.combine(today, time(23, 0))
        if style == "yesterday":
            y = today - timedelta(days=1)
            return Scope(style, " yesterday", y, y, now, "yesterday")
        monday = today - timedelta(days=today.weekday())
        if style == "last_week":
            if monday - timedelta(days=7) < self.first - timedelta(days=2):
                return None
            return Scope(style, " last week", monday - timedelta(days=7), monday - timedelta(days=1), now, "last week")
        if style == "this_week":
            if today.weekday() < 3 or monday < self.first:
                return None
            return Scope(style, rng.choice((" this week", " so far this week")), monday, today, now, "this week")
        if style == "last_n_days":
            n = rng.choice((7, 10, 14, 30))
            start = today - timedelta(days=n - 1)
            if start < self.first:
                return None
            phrase = rng.choice((f" in the last {n} days", f" over the past {n} days"))
            return Scope(style, phrase, start, today, now, f"last {n} days")
        if style == "this_month":
            if today.day < 8:
                return None
            return Scope(style, rng.choice((" this month", " so far this month")), today.replace(day=1), today, now,
                         "this month")
        if style == "last_month":
            prev_end = today.replace(day=1) - timedelta(days=1)
            start = prev_end.replace(day=1)
            if (prev_end - max(start, self.first)).days < 6:
                return None
            return Scope(style, " last month", start, prev_end, now, "last month")
        raise ValueError(style)

    # -- records ------------------------------------------------------------------------------

    def records(self, domain: str, scope: Scope | None, flt: Filter = NO_FILTER,
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

    def text_filter(self, domain: str, kinds: tuple[str, ...]) -> Filter:
        """A filter on a text column, drawn from values that occur in the history."""
        recs = self.by_domain.get(domain, [])
        kind = self.rng.choice(kinds)
        if kind == "none" or not recs:
            return NO_FILTER
        if kind == "category":
            cat = self.rng.choice(sorted({str(t.values["category"]) for t in recs if "category" in t.values}))
            return Filter(" " + CATEGORY_PHRASE.get(cat, f"on {cat}"), cat, lambda v, c=cat: v.get("category") == c)
        if kind == "merchant":
            mer = self.rng.choice(sorted({str(t.values["merchant"]) for t in recs if "merchant" in t.values}))
            return Filter(f" at {mer}", f"at {mer}", lambda v, m=mer: v.get("merchant") == m)
        if kind == "opponent":
            opp = self.rng.choice(sorted({str(t.values["opponent"]) for t in recs if "opponent" in t.values}))
            return Filter(f" against the {opp}", f"against the {opp}", lambda v, o=opp: v.get("opponent") == o)
        raise ValueError(kind)

    def pick_scope(self, styles: tuple[str, ...], bare: bool = False) -> Scope | None:
        """A scope of one of ``styles``; ``bare``: the whole history goes unsaid (it reads oddly
        after "most recent" or "on which days")."""
        return self.scope(self.rng.choice(styles), ("",) if bare else ("", "", " overall", " so far"))


def _round_text(r: Any) -> str:
    parts = [r.user_text or "", r.assistant_text or ""] + [i.caption or "" for i in r.images]
    return "\n".join(p for p in parts if p)


def make_question(g: QuestionGen, category: str, question: str, gold: str, gold_value: Any, kind: str, *,
                  scope: Scope | None, evidence: list[str], unit: str = "", tolerance: float = 0.0,
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


ALL_SCOPES = ("whole", "month", "month", "range", "range", "week_of_month", "last_week", "last_n_days",
              "this_month", "last_month", "this_week")
WIDE_SCOPES = ("whole", "month", "range", "week_of_month", "last_n_days", "this_month", "last_month")


# -- a condition on a value (counts and date filters) ---------------------------------------


@dataclass(frozen=True)
class Cond:
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


def _clear(values: list[float], thr: float) -> bool:
    return all(abs(v - thr) > 1e-6 for v in values)


def draw_condition(g: QuestionGen, conds: tuple[Cond, ...], styles: tuple[str, ...], bare: bool = False
                   ) -> tuple[Cond, float, Scope, list[TruthRecord], str] | None:
    """A condition and threshold from ``conds``, a scope of ``styles``, the records in scope that
    meet it and the question text; ``None`` when the scope is unusable or a value sits on the
    threshold (so the gold never hinges on "less than" against "at most")."""
    cond = g.rng.choice(conds)
    thr = float(g.rng.choice(cond.thresholds))
    scope = g.pick_scope(styles, bare=bare)
    if scope is None:
        return None
    recs = g.records(cond.domain, scope, field_name=cond.field)
    if not recs or not _clear([float(t.values[cond.field]) for t in recs], thr):
        return None
    hits = [t for t in recs if cond.holds(float(t.values[cond.field]), thr)]
    return cond, thr, scope, hits, g.rng.choice(cond.templates).format(s=scope.phrase, t=cond.written(thr))

