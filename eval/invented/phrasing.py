"""Other people's wordings of the same questions (``--varied``): one gold answer, another sentence.

A planner tuned on one author's templates links that author's phrasing, not the question; the
test split showed it (cells present, aggregates unanswered). :func:`vary` rewrites a generated
question with an operator paraphrase ("average" -> "mean", "on average, ...", "what did X
average"; "total" -> "altogether", "combined", "add up"; "how many" -> "count", "what number
of"; "highest" -> "peak", "max", "biggest") and a period phrase as people say it when they
state the day they ask on ("last month (today is 9 April 2025)", "in the past 15 days (asked on
March 18)", "March 1-15, 2025"). The gold answer, clue rounds and tolerance do not change; a
rewrite that could change the meaning (a relative period whose stated day would move the
period) is not offered.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from datetime import date, timedelta
from typing import Any

from adamm.eval.invented.dates import MONTHS, Period, md

Rule = tuple[re.Pattern[str], Sequence[str]]

_U = r"(?P<U>, in [\w ]+)?"
#: (pattern, templates): the templates use the pattern's named groups; every question family's
#: wording appears once (see q_aggregate, q_extremes, q_compare).
_RULES: list[Rule] = [
    (re.compile(rf"^What was my average (?P<L>.+?) (?P<S>across all my .+?|on my .+?){_U}\?$"),
     ("On average, what was my {L} {S}{U}?", "What was the mean {L} {S}{U}?", "What did my {L} average {S}{U}?",
      "What's my typical {L} {S}{U}?")),
    (re.compile(r"^What share of all my (?P<T>.+?) were (?P<V>.+?)\?$"),
     ("What percentage of my {T} were {V}?", "What percent of all my {T} were {V}?",
      "Of all my {T}, what fraction were {V} (as a percentage)?")),
    (re.compile(r"^(?P<P>[A-Z].+?), what percentage of my (?P<T>.+?) were (?P<V>.+?)\?$"),
     ("What percent of my {T} {p} were {V}?", "What share of my {T} {p} were {V}?")),
    (re.compile(rf"^What was my total (?P<L>.+?) across all my (?P<T>.+?){_U}\?$"),
     ("How much {L} did I log altogether across all my {T}{U}?", "What is the sum of my {L} over all my {T}{U}?",
      "What was my combined {L} for all my {T}{U}?", "Add up the {L} of all my {T}{U}.")),
    (re.compile(rf"^How much (?P<L>.+?) did I log in total on (?P<T>.+?){_U}\?$"),
     ("What was my total {L} on {T}{U}?", "What did my {L} add up to on {T}{U}?",
      "How much {L} altogether on {T}{U}?", "Sum of my {L} on {T}{U}?")),
    (re.compile(r"^How many (?P<T>.+?) did I log (?P<W>.+?)\?$"),
     ("How many {T} did I have {W}?", "Count my {T} {W}.", "What number of {T} did I record {W}?",
      "How many {T} are there {W}?")),
    (re.compile(r"^How many (?P<T>.+?) had (?P<C>more|less) than (?P<X>.+?) of (?P<L>.+?)\?$"),
     ("How many {T} had {L} {c} {X}?", "On how many {T} was my {L} {c} {X}?", "Count the {T} with {L} {c} {X}.")),
    (re.compile(r"^How many of my (?P<T>.+?) reached my (?P<L>.+?) goal\?$"),
     ("How many {T} hit my {L} goal?", "On how many {T} did I meet my {L} goal?")),
    (re.compile(rf"^What was my (?P<M>highest|lowest) (?P<L>.+?) (?P<S>across all my logs|[a-z].+?){_U}\?$"),
     ("What was the {m} {L} I logged {S}{U}?", "What's my {m} {L} {S}{U}?", "Tell me my {m} {L} {S}{U}.")),
    (re.compile(r"^On which day did I log my (?P<M>highest|lowest) (?P<L>.+?) (?P<S>across all my logs|[a-z].+?)\?$"),
     ("When did I log my {m} {L} {S}?", "What date had my {m} {L} {S}?", "Which day saw my {m} {L} {S}?")),
    (re.compile(r"^Which (?!month )(?P<E>.+?) had my (?P<M>highest|lowest) (?!average )(?P<L>.+?)\?$"),
     ("Which {E} was my {m} {L} with?", "My {m} {L} - which {E} was that?")),
    (re.compile(r"^Which (?!month )(?P<E>.+?) had my (?P<M>highest|lowest) average (?P<L>.+?)\?$"),
     ("Which {E} had the {m} mean {L}?", "For which {E} was my average {L} {m}?")),
    (re.compile(r"^Which month had my (?P<M>highest|lowest) average (?P<L>.+?)\?$"),
     ("In which month was my average {L} {M}?", "Which month saw the {m} mean {L}?")),
    (re.compile(r"^Which (?P<E>.+?) did I log most often (?P<S>.+?)\?$"),
     ("Which {E} came up most frequently {S}?", "What was my most common {E} {S}?")),
    (re.compile(rf"^What was my most recent (?P<L>.+?){_U}\?$"),
     ("What was my latest {L}{U}?", "What {L} did I log last{U}?", "What was the last {L} I recorded{U}?")),
    (re.compile(rf"^What (?P<L>.+?) did my most recent (?P<V>.+?) have{_U}\?$"),
     ("What {L} did my latest {V} have{U}?", "My last {V}: what was its {L}{U}?")),
    (re.compile(r"^When did I last log more than (?P<X>.+?) of (?P<L>.+?)\?$"),
     ("What was the most recent day my {L} was above {X}?", "When was the last time I logged over {X} of {L}?")),
    (re.compile(r"^When did I last log (?P<V>an? .+?)\?$"),
     ("What was the most recent day with {V}?", "When was my last {v}?")),
    (re.compile(r"^What was the (?P<L>.+?) of my most recent (?P<T>.+?)\?$"),
     ("What {L} did my latest {T} have?", "My last {T} - what was its {L}?")),
    (re.compile(r"^(?P<P>[A-Z].+?), on which days did I log (?P<L>.+?) (?P<C>more|less) than (?P<X>.+?)\?$"),
     ("Which dates {p} had {L} {c} {X}?", "List the days {p} when my {L} was {c} {X}.")),
    (re.compile(r"^List the days (?P<P>.+?) with (?P<V>an? .+?)\.$"),
     ("On which days {P} did I log {V}?", "Which dates {P} had {V}?")),
    (re.compile(r"^Which (?P<E>.+?)s appear in my (?P<T>.+?)\?$"),
     ("Which different {E}s show up in my {T}?", "List every {E} in my {T}.")),
    (re.compile(r"^Which month had the (?P<M>higher|lower) average (?P<L>.+?), (?P<A>.+?) or (?P<B>.+?)\?$"),
     ("Was my average {L} {M} in {A} or in {B}?", "{A} vs {B}: which had the {M} mean {L}?")),
    (re.compile(r"^In which month was my total (?P<L>.+?) higher, (?P<A>.+?) or (?P<B>.+?)\?$"),
     ("Did I log more {L} in total in {A} or in {B}?", "Which month had the bigger total {L}, {A} or {B}?")),
    (re.compile(r"^Was my average (?P<L>.+?) higher on (?P<A>.+?) or on (?P<B>.+?)\?$"),
     ("Which had the higher mean {L}, {A} or {B}?", "Is my {L} higher on average for {A} or for {B}?")),
    (re.compile(r"^Did I log more (?P<T>.+?) in (?P<A>.+?) or in (?P<B>.+?)\?$"),
     ("Were there more {T} in {A} or in {B}?", "Which month had more {T}, {A} or {B}?")),
    (re.compile(r"^Did my average (?P<L>.+?) rise or fall between (?P<A>.+?) and (?P<B>.+?)\?$"),
     ("Did my average {L} go up or down from {A} to {B}?", "Between {A} and {B}, did my mean {L} increase or decrease?")),
    (re.compile(r"^Did my (?P<L>.+?) go up or down from my first five (?P<T>.+?) to my last five\?$"),
     ("Comparing my first five {T} with my last five, did my {L} increase or decrease?",
      "From my first five {T} to the last five, did {L} rise or fall?")),
]

_SYNONYM = {"highest": ("peak", "maximum", "biggest", "top"), "lowest": ("minimum", "smallest", "lowest"),
            "more": ("above", "over", "greater than"), "less": ("below", "under", "lower than"),
            "higher": ("higher", "bigger", "greater"), "lower": ("lower", "smaller")}


def _fill(template: str, m: re.Match[str], rng: random.Random) -> str:
    groups = {k: (v or "") for k, v in m.groupdict().items()}
    if groups.get("M"):
        groups["m"] = rng.choice(_SYNONYM.get(groups["M"], (groups["M"],)))
    if groups.get("C"):
        groups["c"] = rng.choice(_SYNONYM[groups["C"]])
    if groups.get("P"):
        groups["p"] = groups["P"][:1].lower() + groups["P"][1:]
    if groups.get("V"):
        groups["v"] = re.sub(r"^an?\s+", "", groups["V"])
    out = template.format(**groups)
    return " ".join(out.split()).replace(" ,", ",").replace(" ?", "?")


def _day_text(d: date, rng: random.Random, year: bool) -> str:
    forms = [f"{md(d)}, {d.year}", f"{d.day} {MONTHS[d.month - 1]} {d.year}", d.isoformat()] if year else \
        [md(d), f"{d.day} {MONTHS[d.month - 1]}"]
    return rng.choice(forms)


def _stated(d: date, rng: random.Random) -> str:
    day = _day_text(d, rng, year=rng.random() < 0.5)
    return rng.choice((f"(today is {day})", f"(asked on {day})", f"- today is {day}", f"(it's {day})"))


def relative(p: Period, rng: random.Random) -> tuple[str, str] | None:
    """A period as people say it relative to the day they ask, and that day's clause:
    ("last month", "(today is April 9, 2025)"); None when the period has no such wording."""
    if p.kind == "month":
        nxt = date(p.end.year + (p.end.month == 12), p.end.month % 12 + 1, rng.randint(1, 27))
        return rng.choice(("last month", "during the last month", "over last month")), _stated(nxt, rng)
    if p.kind == "window":
        n = (p.end - p.start).days + 1
        return rng.choice((f"in the past {n} days", f"over the last {n} days", f"during the previous {n} days")), \
            _stated(p.end, rng)
    return None


def absolute(p: Period, rng: random.Random) -> str | None:
    """Another absolute wording of the same days ("March 1-15, 2025" for a first half)."""
    name, y = MONTHS[p.start.month - 1], p.start.year
    if p.kind == "month":
        return rng.choice((f"during {name} {y}", f"for {name} {y}", f"in {name[:3]} {y}"))
    if p.kind in ("half", "week1"):
        return rng.choice((f"from {name} {p.start.day} to {name} {p.end.day}, {y}", f"{name} {p.start.day}-{p.end.day}, {y}",
                           f"between {p.start.isoformat()} and {p.end.isoformat()}"))
    if p.kind == "window":
        return f"between {p.start.isoformat()} and {p.end.isoformat()}"
    return None


def vary(question: str, periods: Sequence[Period], rng: random.Random) -> str:
    """``question`` in another wording: an operator paraphrase when a rule knows its template,
    and its period (if it names one) relative to a stated day or spelled another way."""
    out = question
    for pattern, templates in _RULES:
        m = pattern.match(out)
        if m:
            out = _fill(rng.choice(templates), m, rng)
            break
    named = [p for p in periods if p.phrase and p.phrase in out]
    if len(named) == 1:  # two periods in one question (a comparison) keep their absolute names
        p = named[0]
        rel = relative(p, rng) if rng.random() < 0.6 else None
        if rel is not None:
            phrase, clause = rel
            out = out.replace(p.phrase, phrase)
            out = out[:-1] + f" {clause}" + out[-1] if out[-1] in "?." else f"{out} {clause}"
        elif (alt := absolute(p, rng)) is not None:
            out = out.replace(p.phrase, alt)
        out = out[:1].upper() + out[1:]
    return out


def vary_all(qas: list[dict[str, Any]], periods: Sequence[Period], rng: random.Random,
             keep: Callable[[dict[str, Any]], bool] = lambda q: q["point"] == "RET") -> list[dict[str, Any]]:
    """Every QA's question varied (facts' questions kept: they are already free text); a
    rewrite that collides with another question is dropped for the original."""
    seen: set[str] = set()
    for q in qas:
        if not keep(q):
            new = vary(q["question"], periods, rng)
            if new not in seen:
                q["question"] = new
        seen.add(q["question"])
    return qas
