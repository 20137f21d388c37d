"""Question families over many records: ``average``, ``sum`` and ``count``.

Split from :mod:`adamm.eval.devset.questions`: the questions whose gold folds a period's records
into one number (a mean, a total, how many match a condition or a result), each asked only where
that number is unambiguous (see the golds' rules in the questions module's docstring).
"""

from __future__ import annotations

from adamm.eval.devset.question_base import (
    ALL_SCOPES,
    AVG_REL,
    MEASURES,
    NO_FILTER,
    WIDE_SCOPES,
    Cond,
    DevQuestion,
    QuestionGen,
    draw_condition,
    fmt_value,
    make_question,
)


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


def average_question(g: QuestionGen) -> DevQuestion | None:
    fname, templates, fkinds = g.rng.choice(_AVG_TEMPLATES)
    m = MEASURES[fname]
    flt = g.text_filter(m.domain, fkinds)
    scope = g.pick_scope(WIDE_SCOPES if flt is NO_FILTER else ("whole", "month", "whole"))
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
    gold = f"{fmt_value(value, m.unit)} (average {m.noun}{' ' + flt.label if flt.label else ''} {scope.label}, " \
           f"{len(recs)} records)"
    return make_question(g, "average", text, gold, value, "number", scope=scope, evidence=g.evidence(recs), unit=m.unit,
                         tolerance=m.avg_tol, rel_tolerance=AVG_REL)


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


def sum_question(g: QuestionGen) -> DevQuestion | None:
    fname, templates, fkinds = g.rng.choice(_SUM_TEMPLATES)
    m = MEASURES[fname]
    flt = g.text_filter(m.domain, fkinds)
    styles = ALL_SCOPES + (("yesterday", "yesterday") if fname in ("amount", "distance") else ())
    if flt is not NO_FILTER or fname == "score_for":
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
    gold = f"{fmt_value(value, m.unit)} (total {m.noun}{' ' + flt.label if flt.label else ''} {scope.label}, " \
           f"{len(recs)} records)"
    return make_question(g, "sum", text, gold, value, "number", scope=scope, evidence=g.evidence(recs), unit=m.unit,
                         tolerance=m.sum_tol)


# -- count --------------------------------------------------------------------------------------


_COUNT_CONDS = (
    Cond("sleep", "total_sleep", ("On how many nights{s} did I sleep less than {t}?",
                                  "How many nights{s} did I get under {t} of sleep?"),
         (6.0, 6.5, 7.0), "<", lambda t: f"{t:g} hours", "nights under {t}"),
    Cond("sleep", "total_sleep", ("How many nights{s} did I get more than {t} of sleep?",),
         (7.0, 7.5, 8.0), ">", lambda t: f"{t:g} hours", "nights over {t}"),
    Cond("sleep", "sleep_score", ("How many days{s} did my sleep score reach {t} or more?",),
         (75, 80, 85), ">=", lambda t: f"{t:g}", "sleep score >= {t}"),
    Cond("glucose", "time_in_range", ("How many days{s} was my time in range below {t}?",),
         (65, 70, 75), "<", lambda t: f"{t:g}%", "time in range < {t}"),
    Cond("expenses", "amount",
         ("How many expenses over {t} did I have{s}?", "How many purchases{s} cost more than {t}?"),
         (50, 100, 200), ">", lambda t: f"${t:g}", "expenses over {t}"),
    Cond("workouts", "distance", ("How many runs longer than {t} did I do{s}?",),
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


def count_question(g: QuestionGen) -> DevQuestion | None:
    roll = g.rng.random()
    if roll < 0.45:
        drawn = draw_condition(g, _COUNT_CONDS, WIDE_SCOPES + ("last_week",))
        if drawn is None:
            return None
        cond, thr, scope, hits, text = drawn
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
        scope = g.pick_scope(ALL_SCOPES if flt is NO_FILTER else ("whole", "month"))
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
    return make_question(g, "count", text, gold, float(n), "number", scope=scope, evidence=g.evidence(hits))

