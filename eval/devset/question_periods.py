"""Question families that set periods or groups side by side: ``comparison`` and ``trend``.

Split from :mod:`adamm.eval.devset.questions`: the questions whose gold is a direction (which of
two months, weeks or expense categories is larger; whether a value went up or down), asked only
when the margin keeps rounding in an answer from flipping it.
"""

from __future__ import annotations

from datetime import date, timedelta

from adamm.eval.devset.model import MONTHS
from adamm.eval.devset.question_base import (
    CATEGORY_PHRASE,
    MEASURES,
    ORDINALS,
    DevQuestion,
    QuestionGen,
    Scope,
    fmt_value,
    make_question,
    month_end,
)


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


def _period_pair(g: QuestionGen) -> tuple[Scope, Scope, str, str, dict[str, list[str]]] | None:
    """Two periods, their phrases in a question, and the aliases that name each in an answer."""
    full = [(y, m) for (y, m) in g.months
            if (min(month_end(date(y, m, 1)), g.last) - max(date(y, m, 1), g.first)).days >= 20]
    if len(full) >= 2 and g.rng.random() < 0.4:
        (y1, m1), (y2, m2) = sorted(g.rng.sample(full, 2))
        a = Scope("month", "", date(y1, m1, 1), month_end(date(y1, m1, 1)), g.end_now, MONTHS[m1 - 1])
        b = Scope("month", "", date(y2, m2, 1), month_end(date(y2, m2, 1)), g.end_now, MONTHS[m2 - 1])
        aliases = {a.label: [a.label, a.label[:3]], b.label: [b.label, b.label[:3]]}
        return a, b, f"in {a.label}", f"in {b.label}", aliases
    y, m = g.rng.choice(g.months)
    i, j = sorted(g.rng.sample(range(4), 2))
    scopes = []
    for k in (i, j):
        start = date(y, m, 1 + 7 * k)
        if (min(start + timedelta(days=6), g.last) - max(start, g.first)).days < 3:
            return None
        scopes.append(Scope("week_of_month", "", start, start + timedelta(days=6), g.end_now,
                            f"the {ORDINALS[k]} week of {MONTHS[m - 1]}"))
    name = MONTHS[m - 1]
    return (scopes[0], scopes[1], f"in the {ORDINALS[i]} week of {name}", f"the {ORDINALS[j]}",
            {scopes[0].label: [ORDINALS[i]], scopes[1].label: [ORDINALS[j]]})


def comparison_question(g: QuestionGen) -> DevQuestion | None:
    if g.rng.random() < 0.25 and g.used["category_comparison"] < max(1, g.per_category // 3):
        q = _category_comparison(g)  # easy when one category dwarfs the other: a third at most
        g.used["category_comparison"] += q is not None
        return q
    use_sum = g.rng.random() < 0.35
    fname, template = g.rng.choice(_CMP_SUM if use_sum else _CMP_AVG)
    m = MEASURES[fname]
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
    gold = f"{win.label} ({how} {m.noun}: {fmt_value(round(va, 2), m.unit)} {a.label} vs " \
           f"{fmt_value(round(vb, 2), m.unit)} {b.label})"
    return make_question(g, "comparison", text, gold, win.label, "text", scope=a, evidence=g.evidence(ra + rb),
                         choices=choices, period=(a.start, b.end))  # type: ignore[arg-type]


def _category_comparison(g: QuestionGen) -> DevQuestion | None:
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
    text = f"Did I spend more {CATEGORY_PHRASE.get(c1, 'on ' + c1)} or {CATEGORY_PHRASE.get(c2, 'on ' + c2)}" \
           f"{scope.phrase}?"
    gold = f"{win} ({c1} {fmt_value(v1, 'USD')} vs {c2} {fmt_value(v2, 'USD')} {scope.label})"
    return make_question(g, "comparison", text, gold, win, "text", scope=scope, evidence=g.evidence(r1 + r2),
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


def trend_question(g: QuestionGen) -> DevQuestion | None:
    fname, templates = g.rng.choice(_TREND)
    m = MEASURES[fname]
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
           f"slope {slope:+.3g} per day; first week {fmt_value(round(sum(head) / len(head), 2), m.unit)}, " \
           f"last week {fmt_value(round(sum(tail) / len(tail), 2), m.unit)})"
    return make_question(g, "trend", text, gold, word, "text", scope=scope, evidence=g.evidence(recs), choices=choices)


def _slope(points: list[tuple[float, float]]) -> float:
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return 0.0 if sxx == 0 else sum((x - mx) * (y - my) for x, y in points) / sxx

