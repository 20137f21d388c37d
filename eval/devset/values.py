"""The values behind each logged record: one draw per built-in domain, generic ones otherwise.

Split from :mod:`adamm.eval.devset.history`: what a record *says* (plausible sleep, glucose,
expense, run and game figures, consistent within a record) is independent of how the history
is laid out in time and of how a record is written down.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from adamm.eval.devset.model import Domain, Field

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


def record_values(rng: random.Random, dom: Domain, k: int) -> dict[str, Any]:
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

