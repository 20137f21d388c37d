"""A deterministic development set for analytic memory: a long personal chat with ground truth.

:func:`generate` writes the history of one (fictional) person who logs a few recurring record
types -- sleep, glucose (CGM), expenses, workouts, games -- in varied ways, mixed with ordinary
conversation, and returns the exact values behind every logged record, so that what adamm
extracts, mines and materializes can be checked, and questions answered independently.

Conventions (what a perfect extractor + normalizer is expected to produce)
-------------------------------------------------------------------------
* One observing round holds exactly one record (one :class:`TruthRecord`); the other rounds
  (``chatter_round_ids``) hold no observation at all.
* ``TruthRecord.values`` maps canonical field names to values in the canonical unit; a field a
  record does not log (before its ``starts_at``, or an omitted optional field) is *absent* from
  the dict, never ``None``.
* Durations: ``h`` fields are ``round(minutes / 60, 4)`` (compare with a tolerance of 1e-3 h);
  ``min`` fields are whole minutes. Money is in USD with 2 decimals; distances in km with 1
  decimal; percentages, heart rates, HRV, glucose and counts are integers.
* Text values are written exactly as stored (categories in lower case, ``result`` is one of
  ``won`` / ``lost`` / ``draw``, ``opponent`` without "the").
* Observed date (``TruthRecord.day``): the day the values are about. A record shared later says
  so in its round: "yesterday" (exactly one day before the round's date) or an explicit date
  ("for Mar 4", "on March 4", year omitted: the most recent such date before the round). A
  sleep record is dated by the wake-up day, as sleep apps do ("last night" = the round's day).
* Game scores are always written "ours-theirs" ("We lost 0-2 to the Ravens").
* Assistant acknowledgements either contain no value, restate a value of the record, or claim
  "X is your best <label> of the past week" only when it is true: X is strictly larger than
  the value of every other record of that domain with observed day in ``[day - 6, day]``
  (including records of that week shared later), and at least two of those were logged before.

Chatter rounds never contain quantities of the logged kinds (durations, money, distances, heart
rates, percentages, glucose, scores, dates). The only digits they contain are the harmless
phrases listed in :data:`CHATTER_NUMBERS` ("2 eggs", "3 cloves of garlic", ...). Some chatter
talks *about* the logged topics without numbers (sleeping badly, a half marathon, a budget),
as hard negatives for retrieval.

Rendering styles (one per record, chosen at random): a dashboard screenshot (an ``ImageRef``
with only an ``image_id`` and a caption) laid out as ``label value · label value``, as
``Title — label: value | ...``, as newline-separated ``label: value`` lines, or as a sentence
with a date header; or a sentence in the user's text. The style of every record is kept in
``TruthRecord.style`` (``caption-dots``, ``caption-pipes``, ``caption-lines``,
``caption-sentence`` or ``sentence``).

CLI: ``python -m adamm.devset --seed 0 --days 60 --out rounds.jsonl --truth truth.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any, Callable

from adamm.stores.records import ImageRef, Round

__all__ = [
    "CHATTER_NUMBERS",
    "DEFAULT_START",
    "DevSet",
    "Domain",
    "Field",
    "TruthRecord",
    "default_domains",
    "format_day",
    "generate",
    "load_truth",
    "main",
    "rows",
    "truth_to_json",
    "write_jsonl",
    "write_truth",
]

DEFAULT_START = date(2025, 3, 3)

#: The only phrases with digits that chatter rounds contain (all harmless: not a logged kind).
CHATTER_NUMBERS: tuple[str, ...] = (
    "2 eggs",
    "3 eggs",
    "3 cloves of garlic",
    "200 g of flour",
    "chapter 7",
    "4 of us",
)

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


# -- data model ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One attribute of a domain, as the extractor should end up naming it."""

    name: str  #: canonical snake_case name, e.g. "total_sleep"
    unit: str | None  #: canonical unit ("h", "bpm", "%", "USD", "km", "min", ...) or None
    kind: str  #: "float" | "int" | "text"
    labels: tuple[str, ...]  #: the ways the label is written (mild variants only)
    starts_at: int = 0  #: index of the domain's first record (by observed day) logging it
    optional: float = 0.0  #: probability that a record omits this field


@dataclass(frozen=True)
class Domain:
    name: str
    fields: tuple[Field, ...]
    every_days: float  #: cadence: one record every ``every_days`` days

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"domain {self.name!r} has no field {name!r}")


@dataclass
class TruthRecord:
    round_id: str
    domain: str
    day: date  #: observed date (may be before the round's date)
    values: dict[str, float | int | str]  #: canonical field name -> canonical value
    style: str = ""  #: how the record was rendered (see the module docstring)


@dataclass
class DevSet:
    rounds: list[Round]  #: time order, ``order`` 0..n-1
    truth: list[TruthRecord]  #: one per observing round, in round order
    domains: tuple[Domain, ...]
    chatter_round_ids: list[str]
    seed: int = 0
    days: int = 0
    start: date = DEFAULT_START

    def round(self, round_id: str) -> Round:
        for r in self.rounds:
            if r.round_id == round_id:
                return r
        raise KeyError(round_id)

    def domain(self, name: str) -> Domain:
        for d in self.domains:
            if d.name == name:
                return d
        raise KeyError(name)


def default_domains(days: int = 60, hrv_from: float = 0.5) -> tuple[Domain, ...]:
    """The five built-in record types for a history of ``days`` days.

    ``hrv`` joins the sleep records at ``hrv_from`` of the sleep history (the middle, by
    default). With all-time supports, schema evolution needs ``ext-conf = (n - starts_at) / n
    >= θe = 0.8``, so a field starting mid-history never joins its schema; pass
    ``hrv_from <= 0.2`` for a history in which it should.
    """
    sleep_every = 1.0
    return (
        Domain("sleep", (
            Field("total_sleep", "h", "float", ("Total sleep", "total sleep", "Total", "Sleep")),
            Field("deep_sleep", "h", "float", ("Deep sleep", "deep sleep", "Deep")),
            Field("resting_heart_rate", "bpm", "int",
                  ("Resting heart rate", "resting heart rate", "Resting HR", "resting HR")),
            Field("sleep_score", None, "int", ("Sleep score", "sleep score", "Score", "score")),
            Field("hrv", "ms", "int", ("HRV", "hrv", "Heart rate variability"),
                  starts_at=max(1, int(int(days / sleep_every) * hrv_from))),
        ), sleep_every),
        Domain("glucose", (
            Field("time_in_range", "%", "int", ("Time in range", "time in range", "TIR", "In range", "in range")),
            Field("average_glucose", "mg/dL", "int",
                  ("Average glucose", "average glucose", "Avg glucose", "avg glucose", "Avg. glucose")),
            Field("lows", None, "int", ("Lows", "lows", "Low events", "low events")),
        ), 2.0),
        Domain("expenses", (
            Field("amount", "USD", "float", ("Amount", "amount")),
            Field("category", None, "text", ("Category", "category")),
            Field("merchant", None, "text", ("Merchant", "merchant")),
        ), 1.5),
        Domain("workouts", (
            Field("distance", "km", "float", ("Distance", "distance", "Dist.")),
            Field("duration", "min", "int", ("Duration", "duration", "Time", "time")),
            Field("average_heart_rate", "bpm", "int",
                  ("Average heart rate", "average heart rate", "Avg HR", "avg HR", "Average HR", "avg heart rate"),
                  optional=0.15),
        ), 2.5),
        Domain("games", (
            Field("result", None, "text", ("Result", "result")),
            Field("score_for", None, "int", ("Score for", "score for", "Goals for", "Score", "score")),
            Field("score_against", None, "int",
                  ("Score against", "score against", "Goals against", "Score", "score")),
            Field("opponent", None, "text", ("Opponent", "opponent")),
        ), 7.0),
    )


# -- values ---------------------------------------------------------------------------------

_MERCHANTS: dict[str, tuple[tuple[str, ...], float, float]] = {
    # category: (merchants, min amount, max amount)
    "food": (("Joe's Diner", "Blue Bottle Cafe", "Sakura Sushi", "Luigi's Pizzeria"), 6.0, 48.0),
    "groceries": (("Trader Joe's", "Whole Foods", "Safeway"), 18.0, 165.0),
    "transport": (("Shell", "Uber", "BART"), 3.0, 72.0),
    "entertainment": (("AMC Theatres", "Steam", "Spotify"), 9.0, 60.0),
    "utilities": (("PG&E", "Comcast"), 45.0, 180.0),
    "health": (("CVS Pharmacy", "Walgreens"), 5.0, 62.0),
    "housing": (("Acme Property",), 1250.0, 1250.0),
    "electronics": (("Best Buy", "Apple Store"), 120.0, 1499.0),
}
_CATEGORY_WEIGHTS = {"food": 30, "groceries": 22, "transport": 16, "entertainment": 10,
                     "utilities": 6, "health": 8, "housing": 3, "electronics": 5}
_OPPONENTS = ("Hawks", "Ravens", "Tigers", "Falcons", "Wolves", "Sharks")


def _clamp(x: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, x))


def _sleep_values(rng: random.Random) -> dict[str, Any]:
    total = int(_clamp(round(rng.gauss(415, 48)), 270, 565))
    deep = int(_clamp(round(total * rng.uniform(0.12, 0.24)), 25, 140))
    score = int(_clamp(round(45 + (total - 300) * 0.2 + (deep - 60) * 0.15 + rng.gauss(0, 5)), 35, 98))
    return {
        "total_sleep": round(total / 60, 4),
        "deep_sleep": round(deep / 60, 4),
        "resting_heart_rate": int(round(rng.gauss(56, 2.5))),
        "sleep_score": score,
        "hrv": int(_clamp(round(rng.gauss(50, 9)), 25, 95)),
    }


def _glucose_values(rng: random.Random) -> dict[str, Any]:
    tir = int(_clamp(round(rng.gauss(76, 9)), 45, 98))
    lows = rng.choices((0, 1, 2, 3, 4), weights=(50, 28, 14, 6, 2))[0]
    return {
        "time_in_range": tir,
        "average_glucose": int(round(200 - tir * 0.9 + rng.gauss(0, 6))),
        "lows": lows,
    }


def _expense_values(rng: random.Random) -> dict[str, Any]:
    cats = list(_CATEGORY_WEIGHTS)
    cat = rng.choices(cats, weights=[_CATEGORY_WEIGHTS[c] for c in cats])[0]
    merchants, lo, hi = _MERCHANTS[cat]
    return {"amount": round(rng.uniform(lo, hi), 2), "category": cat, "merchant": rng.choice(merchants)}


def _workout_values(rng: random.Random) -> dict[str, Any]:
    dist = round(rng.uniform(3.0, 14.0), 1)
    return {
        "distance": dist,
        "duration": int(round(dist * rng.uniform(4.8, 6.6))),
        "average_heart_rate": int(round(rng.gauss(150, 7))),
    }


def _game_values(rng: random.Random) -> dict[str, Any]:
    goals = (0, 1, 2, 3, 4, 5)
    weights = (18, 28, 26, 16, 8, 4)
    sf, sa = rng.choices(goals, weights)[0], rng.choices(goals, weights)[0]
    result = "won" if sf > sa else "lost" if sf < sa else "draw"
    return {"result": result, "score_for": sf, "score_against": sa, "opponent": rng.choice(_OPPONENTS)}


_VALUES: dict[str, Callable[[random.Random], dict[str, Any]]] = {
    "sleep": _sleep_values, "glucose": _glucose_values, "expenses": _expense_values,
    "workouts": _workout_values, "games": _game_values,
}

_WORDS = ("alpha", "bravo", "cedar", "delta", "ember", "fjord", "grove", "harbor")


def _generic_value(rng: random.Random, f: Field) -> float | int | str:
    if f.kind == "int":
        return rng.randint(1, 120)
    if f.kind == "float":
        return round(rng.uniform(1.0, 120.0), 1)
    return rng.choice(_WORDS)


def _record_values(rng: random.Random, dom: Domain, k: int) -> dict[str, Any]:
    base = _VALUES[dom.name](rng) if dom.name in _VALUES else {}
    out: dict[str, Any] = {}
    for f in dom.fields:
        value = base[f.name] if f.name in base else _generic_value(rng, f)
        if k < f.starts_at:
            continue
        if f.optional and rng.random() < f.optional:
            continue
        out[f.name] = value
    return out


# -- surface forms ------------------------------------------------------------------------


def format_day(d: date, long: bool = False) -> str:
    """``Mar 4`` (or ``March 4``): how records name an observed date."""
    month = _MONTHS[d.month - 1]
    return f"{month if long else month[:3]} {d.day}"


def _hours(minutes: int, style: str) -> str:
    h, m = divmod(minutes, 60)
    if style == "minutes":
        return f"{minutes} min"
    if style == "colon":
        return f"{h}:{m:02d}"
    if style == "decimal" and minutes % 3 == 0:
        return f"{minutes / 60:.2f}".rstrip("0").rstrip(".") + " h"
    if style == "compact":
        return f"{h}h{m:02d}m" if h and m else f"{h}h" if h else f"{m}m"
    return f"{h} h {m} min" if h and m else f"{h} h" if h else f"{m} min"


def _minutes(minutes: int, style: str) -> str:
    h, m = divmod(minutes, 60)
    if style == "compact" and h:
        return f"{h}h{m:02d}m" if m else f"{h}h"
    if style in ("spaced", "colon", "decimal") and h:  # h:mm is ambiguous for workouts
        return f"{h} h {m} min" if m else f"{h} h"
    return f"{minutes} min"


def _money(amount: float, rng: random.Random) -> str:
    num = f"{amount:,.2f}" if amount >= 1000 and rng.random() < 0.7 else f"{amount:.2f}"
    return rng.choice((f"${num}", f"USD {num}", f"{num} dollars", f"${num}"))


class _Fmt:
    """Formats values of one record; one duration style for the whole record."""

    def __init__(self, rng: random.Random, allow_colon: bool) -> None:
        self.rng = rng
        styles = ["spaced", "compact", "minutes", "decimal"] + (["colon"] if allow_colon else [])
        self.duration = rng.choice(styles)
        self.pct_space = rng.random() < 0.3

    def __call__(self, f: Field, value: Any) -> str:
        if f.kind == "text":
            return str(value)
        if f.unit == "h":
            return _hours(int(round(float(value) * 60)), self.duration)
        if f.unit == "min":
            return _minutes(int(value), self.duration)
        if f.unit == "USD":
            return _money(float(value), self.rng)
        if f.unit == "%":
            return f"{value} %" if self.pct_space else f"{value}%"
        number = f"{value:.1f}" if f.kind == "float" else str(value)
        if f.unit is None:
            return number
        if f.unit == "km" and self.rng.random() < 0.3:
            return f"{number}km"
        return f"{number} {f.unit}"


def _caption_label(rng: random.Random, f: Field) -> str:
    choices = [lab for lab in f.labels if lab[:1].isupper()] or list(f.labels)
    return rng.choice(choices)


_TITLES = {
    "sleep": ("Sleep", "Sleep summary", "Sleep report"),
    "glucose": ("CGM daily summary", "Glucose", "Glucose summary"),
    "expenses": ("Card payment", "Payment", "Transaction"),
    "workouts": ("Run summary", "Workout", "Outdoor run"),
    "games": ("Match result", "League match", "Game summary"),
}


def _items(rng: random.Random, dom: Domain, values: dict[str, Any], fmt: _Fmt) -> list[tuple[str, str]]:
    """(label, formatted value) pairs of a caption; a game score may be one "Score 3-1" item."""
    items: list[tuple[str, str]] = []
    merge_score = dom.name == "games" and "score_for" in values and "score_against" in values \
        and rng.random() < 0.5
    for f in dom.fields:
        if f.name not in values:
            continue
        if merge_score and f.name == "score_against":
            continue
        if merge_score and f.name == "score_for":
            dash = rng.choice(("-", "–"))
            items.append(("Score", f"{values['score_for']}{dash}{values['score_against']}"))
            continue
        items.append((_caption_label(rng, f), fmt(f, values[f.name])))
    return items


def _lower(label: str) -> str:
    """``Resting HR`` -> ``resting HR``; acronyms (``HRV``) stay as they are."""
    return label[0].lower() + label[1:] if label[1:2].islower() else label


def _caption(rng: random.Random, dom: Domain, values: dict[str, Any], day: date, dated: bool) -> tuple[str, str]:
    """(style, caption text) of a dashboard screenshot."""
    fmt = _Fmt(rng, allow_colon=True)
    items = _items(rng, dom, values, fmt)
    title = rng.choice(_TITLES.get(dom.name, (dom.name.replace("_", " ").capitalize(),)))
    when = format_day(day, long=rng.random() < 0.3)
    styles = ["caption-dots", "caption-pipes", "caption-lines"] + (["caption-sentence"] if dated else [])
    style = rng.choice(styles)
    if style == "caption-dots":
        body = " · ".join(f"{lab} {val}" for lab, val in items)
        head = f"{title} for {when} · " if dated else ""
        return style, head + body
    if style == "caption-pipes":
        head = f"{title} for {when}" if dated else title
        return style, f"{head} — " + " | ".join(f"{lab}: {val}" for lab, val in items)
    if style == "caption-lines":
        head = f"{title} for {when}" if dated else title
        return style, "\n".join([head] + [f"{lab}: {val}" for lab, val in items])
    body = ", ".join(f"{_lower(lab) if i else lab} {val}" for i, (lab, val) in enumerate(items))
    return style, f"Screenshot of a {title.lower()} screen for {when}: {body}"


def _join(parts: list[str]) -> str:
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _sleep_sentence(rng: random.Random, v: dict[str, Any], f: Callable[[str], str], when: str | None) -> str:
    total = f("total_sleep") if "total_sleep" in v else None
    if when is None:
        lead = rng.choice(("Slept {t} last night", "Last night I slept {t}", "Total sleep last night: {t}"))
    elif when == "yesterday":
        lead = rng.choice(("Forgot to log yesterday's sleep: {t} total", "Yesterday's sleep: total sleep {t}"))
    else:
        lead = rng.choice(("Catching up: on {d} I slept {t}", "Sleep for {d}: total {t}"))
    lead = lead.format(t=total, d=when) if total else f"Sleep for {when or 'today'}:"
    rest = []
    if "deep_sleep" in v:
        rest.append(rng.choice(("deep sleep {}", "{} of deep sleep")).format(f("deep_sleep")))
    if "resting_heart_rate" in v:
        rest.append(rng.choice(("resting HR {}", "resting heart rate {}")).format(f("resting_heart_rate")))
    if "sleep_score" in v:
        rest.append(rng.choice(("score {}", "sleep score {}")).format(f("sleep_score")))
    if "hrv" in v:
        rest.append(f"HRV {f('hrv')}")
    return f"{lead}, {_join(rest)}." if rest else f"{lead}."


def _glucose_sentence(rng: random.Random, v: dict[str, Any], f: Callable[[str], str], when: str | None) -> str:
    lead = ("CGM today" if when is None else "Yesterday's CGM" if when == "yesterday" else f"CGM for {when}")
    parts = []
    if "time_in_range" in v:
        parts.append(rng.choice(("{} in range", "time in range {}")).format(f("time_in_range")))
    if "average_glucose" in v:
        parts.append(rng.choice(("average glucose {}", "avg glucose {}")).format(f("average_glucose")))
    if "lows" in v:
        parts.append(rng.choice(("{} lows", "lows: {}")).format(f("lows")))
    return f"{lead}: {_join(parts)}."


def _expense_sentence(rng: random.Random, v: dict[str, Any], f: Callable[[str], str], when: str | None) -> str:
    amt, cat, mer = f("amount"), v.get("category"), v.get("merchant")
    at = f" at {mer}" if mer else ""
    to = f" to {mer}" if mer else ""
    catp = f", category {cat}" if cat else ""
    if when is None:
        return rng.choice((
            f"Spent {amt}{at}{catp}.",
            f"Paid {amt}{to}{catp}.",
            f"Expense: {amt}{at}{catp}.",
        ))
    if when == "yesterday":
        return rng.choice((f"Yesterday I spent {amt}{at}{catp}.", f"Forgot one from yesterday: {amt}{at}{catp}."))
    return rng.choice((f"On {when} I paid {amt}{to}{catp}.", f"Missed an expense from {when}: {amt}{at}{catp}."))


def _workout_sentence(rng: random.Random, v: dict[str, Any], f: Callable[[str], str], when: str | None) -> str:
    dist, dur = f("distance"), f("duration")
    hr = ""
    if "average_heart_rate" in v:
        hr = rng.choice((", avg HR {}", ", average heart rate {}", "; avg heart rate was {}")).format(
            f("average_heart_rate"))
    if when is None:
        lead = rng.choice((f"Ran {dist} in {dur}", f"Evening run: {dist} in {dur}",
                           f"Did a run today: {dist} in {dur}"))
    elif when == "yesterday":
        lead = rng.choice((f"Yesterday I ran {dist} in {dur}", f"Forgot to log yesterday's run: {dist} in {dur}"))
    else:
        lead = f"On {when} I ran {dist} in {dur}"
    return f"{lead}{hr}."


def _game_sentence(rng: random.Random, v: dict[str, Any], f: Callable[[str], str], when: str | None) -> str:
    res, sf, sa, opp = v["result"], v["score_for"], v["score_against"], v["opponent"]
    score = f"{sf}-{sa}"
    if when is None:
        tail = rng.choice((" today", " tonight", ""))
        pre = ""
    elif when == "yesterday":
        tail, pre = "", "Yesterday "
    else:
        tail, pre = "", f"On {when} "
    if res == "won":
        s = rng.choice((f"we won {score} against the {opp}{tail}!", f"we won {score} vs the {opp}{tail}."))
    elif res == "lost":
        s = rng.choice((f"we lost {score} to the {opp}{tail}.", f"we lost {score} against the {opp}{tail}."))
    else:
        s = f"we played the {opp}{tail}, it ended in a {score} draw."
    text = pre + s
    return text[0].upper() + text[1:]


_SENTENCES = {
    "sleep": _sleep_sentence, "glucose": _glucose_sentence, "expenses": _expense_sentence,
    "workouts": _workout_sentence, "games": _game_sentence,
}


def _generic_sentence(dom: Domain, v: dict[str, Any], f: Callable[[str], str], when: str | None) -> str:
    lead = dom.name.replace("_", " ").capitalize()
    lead += " today" if when is None else " yesterday" if when == "yesterday" else f" for {when}"
    return f"{lead}: " + ", ".join(f"{fd.labels[0].lower()} {f(fd.name)}" for fd in dom.fields if fd.name in v) + "."


def _sentence(rng: random.Random, dom: Domain, values: dict[str, Any], when: str | None) -> str:
    fmt = _Fmt(rng, allow_colon=False)  # "slept 6:45" carries neither label nor unit
    by_name = {fd.name: fd for fd in dom.fields}

    def f(name: str) -> str:
        return fmt(by_name[name], values[name])

    # the hand-written sentences know the built-in fields; a changed field set gets the generic one
    if _BUILTIN_FIELDS.get(dom.name) == frozenset(by_name):
        return _SENTENCES[dom.name](rng, values, f, when)
    return _generic_sentence(dom, values, f, when)


_BUILTIN_FIELDS = {d.name: frozenset(f.name for f in d.fields) for d in default_domains()}


_SCREENSHOT_TEXT = {
    "sleep": ("Here's last night's sleep.", "Morning sleep report.", "Sleep screenshot.", ""),
    "glucose": ("Today's CGM summary.", "Glucose for today.", ""),
    "expenses": ("Receipt from today.", "Another expense.", ""),
    "workouts": ("Run summary from my watch.", "Today's run.", ""),
    "games": ("League app result.", "Tonight's game.", ""),
}
_LATE_TEXT = ("Found this in my screenshots.", "Catching up on my logs.", "Forgot to share this one.", "")
_ACKS = ("Logged.", "Got it, saved to your log.", "Noted.", "Thanks, recorded.")
_HIGHLIGHT = {"sleep": "sleep_score", "glucose": "time_in_range", "workouts": "distance"}
_RESTATE = {"sleep": "total_sleep", "glucose": "time_in_range", "expenses": "amount",
            "workouts": "distance"}


# -- chatter --------------------------------------------------------------------------------

_CITIES = {
    "Lisbon": ("the Belém Tower", "pastéis de nata"),
    "Kyoto": ("Fushimi Inari", "matcha sweets in Gion"),
    "Barcelona": ("the Sagrada Família", "tapas in El Born"),
    "Montreal": ("the Old Port", "wood-fired bagels"),
    "Edinburgh": ("Arthur's Seat", "a proper Scotch pie"),
    "Vienna": ("Schönbrunn Palace", "Sachertorte at a coffee house"),
}
_VEG = ("spinach", "cauliflower", "sweet potato", "zucchini", "eggplant")
_PROJECTS = ("billing", "onboarding", "search", "reporting")
_BOOKS = ("Middlemarch", "The Overstory", "Piranesi", "The Name of the Rose")


def _chatter(rng: random.Random, deck: list[int]) -> tuple[str, str]:
    """One exchange of ordinary conversation; ``deck`` deals the topics without repeats."""
    veg, project, book = rng.choice(_VEG), rng.choice(_PROJECTS), rng.choice(_BOOKS)
    city = rng.choice(list(_CITIES))
    sight, food = _CITIES[city]
    bank = [
        (f"What can I cook for dinner with {veg} and chickpeas?",
         f"Try a {veg} and chickpea curry: soften onion and ginger, add spices, then simmer with coconut milk."),
        ("Can I use 2 eggs instead of 3 eggs in banana bread?",
         "Yes. Add a spoon of yogurt to make up for the moisture and it will bake just fine."),
        ("How do I keep pancakes fluffy?",
         "Don't overmix the batter, let it rest, and make sure your baking powder is fresh."),
        ("Is 3 cloves of garlic too much for a simple tomato sauce?",
         "Not at all; slice them thinly and let them sizzle gently so they turn sweet, not bitter."),
        ("I have 200 g of flour left. Enough for a pizza dough?",
         "Enough for one thin pizza: add water, salt and a little yeast, and give it a long rise."),
        ("We're hosting dinner, 4 of us. Any easy vegetarian main?",
         f"A roasted {veg} tart with feta and herbs is easy to prepare ahead and looks great."),
        (f"We're thinking about a weekend in {city}. What should we not miss?",
         f"Don't miss {sight}, and save an afternoon for {food}."),
        (f"Is {city} walkable or should we rent a car?",
         f"The centre of {city} is very walkable; public transport covers the rest."),
        ("Any tips for packing light for a city break?",
         "One pair of comfortable shoes, layers in neutral colours, and a small toiletry bag."),
        (f"How do I tell my manager the {project} deadline is unrealistic?",
         "Bring a concrete alternative: what can ship by the date, and what needs more time and why."),
        (f"Can you help me write a short update for the team about the {project} project?",
         f"Sure: 'The {project} work is on track; the main risk is review capacity next week.'"),
        ("Any tips for running a shorter weekly meeting?",
         "Share the agenda in advance, timebox each topic and move status updates to a written note."),
        (f"I just finished chapter 7 of {book}. Is it worth pushing through?",
         f"Most readers say {book} rewards patience; the second half pulls the threads together."),
        ("My basil keeps wilting on the balcony. What am I doing wrong?",
         "Probably too much afternoon sun and too little water; move it to morning light and water deeply."),
        ("Can you recommend a podcast for my commute?",
         "Try a narrative history podcast; episodes are self-contained and easy to pick up."),
        ("I've been sleeping badly this week. Any tips?",
         "Keep a regular wake time, cut caffeine after lunch and keep the bedroom cool and dark."),
        ("Thinking about signing up for a half marathon in the autumn. Good idea?",
         "If you already run regularly, a gradual plan with one long run a week gets you there comfortably."),
        ("Should I set a budget for eating out?",
         "A monthly envelope for restaurants works well: you see the remainder and adjust without guilt."),
        ("My CGM sensor itches after a few days. Is that normal?",
         "Mild irritation is common; an adhesive barrier wipe under the patch often helps."),
        ("Our team needs a new goalkeeper for the league. How do we recruit one?",
         "Post in the league's group chat and invite people to a friendly practice session."),
        ("What's a good stretch after a long day at the desk?",
         "A doorway chest stretch and a slow forward fold both undo a lot of sitting."),
    ]
    if not deck:
        deck.extend(range(len(bank)))
        rng.shuffle(deck)
    return bank[deck.pop()]


# -- generation ---------------------------------------------------------------------------


_TIME_OF_DAY = {  # (earliest, latest) minute of the day for same-day logging
    "sleep": (6 * 60 + 30, 9 * 60 + 30),
    "glucose": (20 * 60, 22 * 60 + 30),
    "expenses": (11 * 60, 21 * 60),
    "workouts": (17 * 60 + 30, 20 * 60 + 30),
    "games": (19 * 60, 22 * 60),
}


def _at(day: date, minute: int) -> datetime:
    return datetime.combine(day, time(minute // 60, minute % 60))


@dataclass
class _Draft:
    ts: datetime
    tiebreak: float
    user_text: str
    assistant_text: str
    caption: str | None
    record: TruthRecord | None = None
    late: bool = False


def generate(
    seed: int = 0,
    days: int = 60,
    domains: tuple[Domain, ...] | None = None,
    chatter_per_day: float = 1.0,
    *,
    start: date = DEFAULT_START,
    late_rate: float = 0.15,
) -> DevSet:
    """A chat history of ``days`` days starting on ``start``, fully determined by ``seed``.

    Each domain logs one record every ``every_days`` days (``ceil`` or ``floor`` of
    ``days / every_days`` records, from a random phase); about ``late_rate`` of the records are
    shared one to three days after the day they are about. ``chatter_per_day`` rounds of
    ordinary conversation are mixed in (the fractional part is a probability per day).
    """
    if days < 1:
        raise ValueError("days must be at least 1")
    if chatter_per_day < 0:
        raise ValueError("chatter_per_day must not be negative")
    domains = default_domains(days) if domains is None else tuple(domains)
    names = [d.name for d in domains]
    if len(set(names)) != len(names):
        raise ValueError("domain names must be unique")
    for dom in domains:
        if dom.every_days <= 0:
            raise ValueError(f"domain {dom.name!r}: every_days must be positive")
    rng = random.Random(seed)
    drafts: list[_Draft] = []

    for dom in domains:
        phase = rng.uniform(0, min(dom.every_days, days))
        k = 0
        while True:
            offset = int(k * dom.every_days + phase)
            if offset >= days:
                break
            day = start + timedelta(days=offset)
            values = _record_values(rng, dom, k)
            delay = 0
            if rng.random() < late_rate:
                delay = 1 if rng.random() < 0.5 else rng.randint(2, 3)
            if delay:
                ts = _at(day + timedelta(days=delay), rng.randint(9 * 60, 22 * 60))
            else:
                lo, hi = _TIME_OF_DAY.get(dom.name, (9 * 60, 22 * 60))
                ts = _at(day, rng.randint(lo, hi))
            drafts.append(_render(rng, dom, values, day, delay, ts))
            k += 1

    whole, frac = int(chatter_per_day), chatter_per_day - int(chatter_per_day)
    deck: list[int] = []
    for offset in range(days):
        n = whole + (1 if rng.random() < frac else 0)
        for _ in range(n):
            user, assistant = _chatter(rng, deck)
            ts = _at(start + timedelta(days=offset), rng.randint(8 * 60, 23 * 60))
            drafts.append(_Draft(ts, rng.random(), user, assistant, None))

    drafts.sort(key=lambda d: (d.ts, d.tiebreak))
    rounds: list[Round] = []
    truth: list[TruthRecord] = []
    chatter: list[str] = []
    logged: dict[str, list[TruthRecord]] = {}
    every: dict[str, list[TruthRecord]] = {}
    for d in drafts:
        if d.record is not None:
            every.setdefault(d.record.domain, []).append(d.record)
    for order, d in enumerate(drafts):
        rid = f"r{order:04d}"
        images = [ImageRef(image_id=f"img{order:04d}", caption=d.caption)] if d.caption else []
        assistant = d.assistant_text
        if d.record is not None:
            d.record.round_id = rid
            logged.setdefault(d.record.domain, []).append(d.record)
            dom = next(x for x in domains if x.name == d.record.domain)
            assistant = _ack(rng, d, logged[dom.name], every[dom.name], dom)
            truth.append(d.record)
        else:
            chatter.append(rid)
        rounds.append(Round(
            round_id=rid, session_id=f"s-{d.ts.date().isoformat()}", order=order, timestamp=d.ts,
            user_text=d.user_text, assistant_text=assistant, images=images,
        ))
    return DevSet(rounds, truth, domains, chatter, seed=seed, days=days, start=start)


def _render(rng: random.Random, dom: Domain, values: dict[str, Any], day: date, delay: int, ts: datetime) -> _Draft:
    record = TruthRecord("", dom.name, day, dict(values))
    if not values:  # every field omitted: nothing to log, but keep the record honest
        raise ValueError(f"domain {dom.name!r} produced a record with no values")
    if rng.random() < 0.55:
        # a dated header when late (always) or, sometimes, on the same day
        dated = delay > 0 or rng.random() < 0.25
        style, caption = _caption(rng, dom, values, day, dated)
        if delay:
            user = rng.choice(_LATE_TEXT)
        else:
            user = rng.choice(_SCREENSHOT_TEXT.get(dom.name, ("Today's numbers.", "")))
        record.style = style
        return _Draft(ts, rng.random(), user, "", caption, record, late=delay > 0)
    if delay == 0:
        when = None
    elif delay == 1 and rng.random() < 0.7:
        when = "yesterday"
    else:
        when = format_day(day, long=rng.random() < 0.3)
    record.style = "sentence"
    return _Draft(ts, rng.random(), _sentence(rng, dom, values, when), "", None, record, late=delay > 0)


def _ack(rng: random.Random, draft: _Draft, so_far: list[TruthRecord], every: list[TruthRecord],
         dom: Domain) -> str:
    """The assistant's reply: a plain ack, a restated value, or a true "best of the week".

    "Best of the past week" is claimed only when it holds both for what was logged so far and
    for the final history (a record of that week shared later does not beat it either), and the
    week holds at least two other records.
    """
    rec = draft.record
    assert rec is not None
    v = rec.values
    if dom.name == "games" and "result" in v and rng.random() < 0.6:
        return {"won": "Congrats on the win!", "lost": "Tough one. Next game!", "draw": "A draw, fair enough."}.get(
            str(v["result"]), rng.choice(_ACKS))
    roll = rng.random()
    hl = _HIGHLIGHT.get(dom.name)
    if hl and hl in v and roll < 0.35:
        f = dom.field(hl)
        window = [r for r in every if r is not rec and hl in r.values and 0 <= (rec.day - r.day).days <= 6]
        known = [r for r in window if any(r is x for x in so_far)]
        if len(known) >= 2 and all(v[hl] > r.values[hl] for r in window):
            label = f.labels[0].lower()
            return f"Nice, {_Fmt(rng, allow_colon=False)(f, v[hl])} is your best {label} of the past week."
    restate = _RESTATE.get(dom.name)
    if restate and restate in v and roll < 0.7:
        f = dom.field(restate)
        label = f.labels[0].lower()
        when = f" for {format_day(rec.day)}" if draft.late else ""
        return f"Logged{when}: {label} {_Fmt(rng, allow_colon=False)(f, v[restate])}."
    return rng.choice(_ACKS)


# -- ground-truth views and files ---------------------------------------------------------


def rows(devset: DevSet, domain: str) -> list[dict[str, Any]]:
    """The domain's records as table rows (``round_id``, ``day``, ``timestamp``, values), by day.

    This is the table a perfect ingestion would materialize; use it to compute exact answers.
    """
    ts = {r.round_id: r.timestamp for r in devset.rounds}
    order = {r.round_id: r.order for r in devset.rounds}
    recs = sorted((t for t in devset.truth if t.domain == domain), key=lambda t: (t.day, order[t.round_id]))
    return [{"round_id": t.round_id, "day": t.day, "timestamp": ts[t.round_id], **t.values} for t in recs]


def _domain_json(d: Domain) -> dict[str, Any]:
    return {"name": d.name, "every_days": d.every_days, "fields": [
        {"name": f.name, "unit": f.unit, "kind": f.kind, "labels": list(f.labels),
         "starts_at": f.starts_at, "optional": f.optional} for f in d.fields]}


def truth_to_json(devset: DevSet) -> dict[str, Any]:
    return {
        "seed": devset.seed,
        "days": devset.days,
        "start": devset.start.isoformat(),
        "domains": [_domain_json(d) for d in devset.domains],
        "records": [{"round_id": t.round_id, "domain": t.domain, "day": t.day.isoformat(),
                     "values": t.values, "style": t.style} for t in devset.truth],
        "chatter_round_ids": list(devset.chatter_round_ids),
    }


def write_truth(devset: DevSet, path: str | os.PathLike[str]) -> None:
    Path(path).write_text(json.dumps(truth_to_json(devset), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def load_truth(path: str | os.PathLike[str]) -> tuple[tuple[Domain, ...], list[TruthRecord], list[str]]:
    """Read a truth file written by :func:`write_truth`: (domains, records, chatter round ids)."""
    obj = json.loads(Path(path).read_text(encoding="utf-8"))
    domains = tuple(
        Domain(d["name"], tuple(Field(f["name"], f["unit"], f["kind"], tuple(f["labels"]), f["starts_at"],
                                      f["optional"]) for f in d["fields"]), d["every_days"])
        for d in obj["domains"])
    records = [TruthRecord(r["round_id"], r["domain"], date.fromisoformat(r["day"]), r["values"], r.get("style", ""))
               for r in obj["records"]]
    return domains, records, list(obj["chatter_round_ids"])


def write_jsonl(devset: DevSet, path: str | os.PathLike[str]) -> int:
    """Write the rounds in adamm's JSONL format (loadable with ``adamm.formats.load``)."""
    from adamm.formats import dump_rounds

    return dump_rounds(devset.rounds, path)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m adamm.devset", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--days", type=int, default=60)
    p.add_argument("--chatter-per-day", type=float, default=1.0)
    p.add_argument("--out", required=True, help="rounds JSONL file to write")
    p.add_argument("--truth", help="ground-truth JSON file to write")
    args = p.parse_args(argv)
    ds = generate(args.seed, args.days, chatter_per_day=args.chatter_per_day)
    n = write_jsonl(ds, args.out)
    if args.truth:
        write_truth(ds, args.truth)
    print(f"{n} rounds ({len(ds.truth)} records, {len(ds.chatter_round_ids)} chatter) -> {args.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
