"""Question families about single records: ``extreme``, ``latest`` and ``date_filter``.

Split from :mod:`adamm.eval.devset.questions`: the questions whose gold is one record (the
highest or lowest value, the most recent one) or the days of the records matching a condition,
asked only where that record or set of days is unique.
"""

from __future__ import annotations

from adamm.eval.devset.model import TruthRecord, format_day
from adamm.eval.devset.question_base import (
    MEASURES,
    Cond,
    DevQuestion,
    QuestionGen,
    draw_condition,
    fmt_value,
    make_question,
)


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


def extreme_question(g: QuestionGen) -> DevQuestion | None:
    by_day = g.rng.random() < 0.45
    fname, fn, templates = g.rng.choice(_EXTREME_DAY if by_day else _EXTREME_VALUE)
    m = MEASURES[fname]
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
        gold = f"{format_day(day, long=True)}, {day.year} ({word} {m.noun} {scope.label}: {fmt_value(best, m.unit)})"
        return make_question(g, "extreme", text, gold, [day.isoformat()], "days", scope=scope,
                             evidence=g.evidence(winners))
    gold = f"{fmt_value(best, m.unit)} ({word} {m.noun} {scope.label}, on " \
           f"{', '.join(format_day(t.day, long=True) for t in winners)})"
    return make_question(g, "extreme", text, gold, best, "number", scope=scope, evidence=g.evidence(winners),
                         unit=m.unit, tolerance=m.single_tol)


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


def latest_question(g: QuestionGen) -> DevQuestion | None:
    roll = g.rng.random()
    scope = g.pick_scope(("whole", "whole", "month"), bare=True)
    if scope is None:
        return None
    if roll < 0.55:
        fname, templates, fkinds = g.rng.choice(_LATEST_VALUE)
        m = MEASURES[fname]
        flt = g.text_filter(m.domain, fkinds)
        template = g.rng.choice(templates)
        recs = g.records(m.domain, scope, flt, fname)
        rec = _unambiguous_latest(g, recs)
        if rec is None:
            return None
        value = float(rec.values[fname])
        text = template.format(s=scope.phrase, f=flt.phrase)
        gold = f"{fmt_value(value, m.unit)} (latest {m.noun}{' ' + flt.label if flt.label else ''} {scope.label}, " \
               f"{format_day(rec.day, long=True)})"
        return make_question(g, "latest", text, gold, value, "number", scope=scope, evidence=[rec.round_id],
                             unit=m.unit, tolerance=m.single_tol)
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
                   f"{rec.values['opponent']}, {format_day(rec.day, long=True)})"
            return make_question(g, "latest", text, gold, res, "text", scope=scope, evidence=[rec.round_id],
                                 choices=dict(_RESULT_CHOICES))
        opp = str(rec.values["opponent"])
        seen = sorted({str(t.values["opponent"]) for t in g.by_domain.get("games", [])})
        text = g.rng.choice(("Who did we play in our most recent game{s}?", "Which team did we play last{s}?")).format(
            s=scope.phrase)
        gold = f"{opp} ({format_day(rec.day, long=True)})"
        return make_question(g, "latest", text, gold, opp, "text", scope=scope, evidence=[rec.round_id],
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
    gold = f"{format_day(rec.day, long=True)}, {rec.day.year}"
    return make_question(g, "latest", text, gold, [rec.day.isoformat()], "days", scope=scope, evidence=[rec.round_id])


_RESULT_CHOICES = {"won": ["won", "win", "victory", "beat"], "lost": ["lost", "loss", "lose", "defeat"],
                   "draw": ["draw", "drew", "tie", "tied"]}


def _unambiguous_latest(g: QuestionGen, recs: list[TruthRecord] | None) -> TruthRecord | None:
    """The latest record by observed day, if it was also the last one shared."""
    if not recs:
        return None
    by_day = max(recs, key=lambda t: (t.day, g.order[t.round_id]))
    by_round = max(recs, key=lambda t: g.order[t.round_id])
    return by_day if by_day is by_round and sum(t.day == by_day.day for t in recs) == 1 else None


# -- date filter --------------------------------------------------------------------------------

_DAY_CONDS = (
    Cond("sleep", "total_sleep", ("On which days{s} did I sleep less than {t}?",
                                  "Which nights{s} did I get under {t} of sleep?"),
         (5.5, 6.0, 6.5), "<", lambda t: f"{t:g} hours", ""),
    Cond("sleep", "total_sleep", ("On which days{s} did I sleep more than {t}?",), (7.5, 8.0, 8.5), ">",
         lambda t: f"{t:g} hours", ""),
    Cond("expenses", "amount", ("On which days{s} did I have an expense over {t}?",
                                "When did I spend more than {t} on a single purchase{s}?"),
         (100, 200, 500), ">", lambda t: f"${t:g}", ""),
    Cond("workouts", "distance", ("On which days{s} did I run more than {t}?",), (10, 11, 12, 13), ">",
         lambda t: f"{t:g} km", ""),
    Cond("glucose", "time_in_range", ("On which days{s} was my time in range below {t}?",), (60, 65, 70), "<",
         lambda t: f"{t:g}%", ""),
    Cond("glucose", "lows", ("Which days{s} did I have {t} or more lows?",), (2, 3), ">=", lambda t: f"{t:g}", ""),
    Cond("sleep", "resting_heart_rate", ("On which days{s} was my resting heart rate {t} or higher?",),
         (59, 60, 61), ">=", lambda t: f"{t:g} bpm", ""),
)


def date_filter_question(g: QuestionGen) -> DevQuestion | None:
    roll = g.rng.random()
    if roll < 0.7:
        drawn = draw_condition(g, _DAY_CONDS, ("whole", "month", "month", "range", "last_week", "last_n_days",
                                               "last_month"), bare=True)
        if drawn is None:
            return None
        _, _, scope, hits, text = drawn
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
    gold = ", ".join(format_day(d, long=True) for d in days) + f" ({days[0].year})"
    return make_question(g, "date_filter", text, gold, [d.isoformat() for d in days], "days", scope=scope,
                         evidence=g.evidence(hits))

