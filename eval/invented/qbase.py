"""What every question family shares: the records in scope, exact statistics, rounding rules,
answer wording and the QA dict.

Gold values come from the records' Decimal values through Fractions, rounded half-up as the
analytic_dev README documents (means 1 decimal ±0.05, money to cents, minutes ±0.5; sums exact
or to 2 decimals where miles or pounds were converted; single values as shown). Answer
sentences start with the value or the choice, because the scorer reads the first one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from adamm.eval.invented.dates import MONTHS, Period
from adamm.eval.invented.domain import Domain, NumField
from adamm.eval.invented.history import Scenario
from adamm.eval.invented.render import Record
from adamm.eval.invented.units import Measure, number, quantize, to_json

REL_GAP = Fraction(3, 100)  #: CMP/TRD (and "which ... highest average") need a 3 % relative lead


@dataclass
class Ctx:
    """One scenario as the question families see it."""

    scn: Scenario
    periods: list[Period]
    rng: random.Random

    @property
    def dom(self) -> Domain:
        return self.scn.domain

    @property
    def recs(self) -> list[Record]:
        return self.scn.records

    def scoped(self, period: Period, key: str | None = None, where: Callable[[Record], bool] | None = None) -> list[Record]:
        """Records of ``period`` that have ``key`` (if given) and satisfy ``where``, by day."""
        out = [r for r in self.recs if period.has(r.day) and (key is None or key in r.values)
               and (where is None or where(r))]
        return sorted(out, key=lambda r: (r.day, r.seq))

    def month_periods(self) -> list[Period]:
        return [p for p in self.periods if p.kind == "month"]

    def everything(self) -> Period:
        return next(p for p in self.periods if p.kind == "all")


def mean(xs: Iterable[Decimal]) -> Fraction:
    xs = [Fraction(x) for x in xs]
    return sum(xs, Fraction(0)) / len(xs)


def total(xs: Iterable[Decimal]) -> Fraction:
    return sum((Fraction(x) for x in xs), Fraction(0))


def vals(recs: Sequence[Record], key: str) -> list[Decimal]:
    return [r.values[key] for r in recs]  # type: ignore[misc]


def clear_gap(a: Fraction, b: Fraction) -> bool:
    """Whether two positive statistics differ by at least :data:`REL_GAP` of the smaller."""
    lo = min(abs(a), abs(b))
    return lo > 0 and abs(a - b) >= REL_GAP * lo


# -- rounding per statistic ---------------------------------------------------------------------

def mean_spec(m: Measure) -> tuple[int, float]:
    if m.kind == "money":
        return 2, 0.05
    if m.kind == "duration":
        return 1, 0.5
    return 1, 0.05


def exact_spec(m: Measure) -> tuple[int, float]:
    """Decimals and tolerance of a total or of one stored value: exact to the cent, to the
    measure's own decimals, or to two places after a unit conversion."""
    if m.kind == "money":
        return 2, 0.01
    if m.converted:
        return 2, 0.05
    return (1, 0.05) if m.decimals else (0, 0)


def qty(m: Measure, x: Decimal | Fraction, places: int) -> str:
    """A value as an answer writes it: "14.3 qz", "€12.40", "72.5 minutes", "1,240 trabs"."""
    q = quantize(x, places)
    if m.kind == "money":
        return f"{'€' if m.symbol == 'EUR' else '$'}{q:,.{places}f}"
    if m.kind == "duration":
        return f"{number(q, places)} minutes"
    digits = number(q, places, thousands=abs(q) >= 1000)
    return f"{digits} {m.symbol}" if m.symbol else digits


def threshold_text(m: Measure, t: Decimal) -> str:
    if m.kind == "money":
        return f"{'€' if m.symbol == 'EUR' else '$'}{t:.0f}"
    if m.kind == "duration":
        return f"{t:.0f} minutes"
    return f"{number(t, 0 if t == t.to_integral_value() else 1)} {m.symbol}".strip()


def threshold_splits(ctx: Ctx, p: Period, f: NumField, words: tuple[str, str]) -> Iterator[tuple[str, Decimal, list[Record], int]]:
    """The records of period ``p`` above and below a round threshold of field ``f``, each side
    with its word ("more than" / "less than"): (word, threshold, records, records holding the
    field). Nothing when the values have no such threshold."""
    xs = vals(ctx.scoped(p, f.key), f.key)
    t = threshold(xs, ctx.rng)
    if t is None:
        return
    for word, above in zip(words, (True, False)):
        yield word, t, ctx.scoped(p, f.key, lambda r, above=above: r.values[f.key] > t if above else r.values[f.key] < t), len(xs)


def threshold(xs: Sequence[Decimal], rng: random.Random, lo: float = 0.3, hi: float = 0.7) -> Decimal | None:
    """A round number among the values (not equal to any), splitting them roughly ``lo``-``hi``."""
    s = sorted(xs)
    if len(s) < 4:
        return None
    pick = s[min(len(s) - 1, int(len(s) * rng.uniform(lo, hi)))]
    mag = Decimal(10) ** math.floor(math.log10(float(pick)))
    step = mag / (2 if pick / mag < 3 else 1)
    if step < 1 and not any(x != x.to_integral_value() for x in s):
        step = Decimal(1)
    t = (pick / step).quantize(Decimal(1)) * step
    if t in s or t <= 0:
        return None
    return t.normalize() if t != t.to_integral_value() else t.quantize(Decimal(1))


def field_words(f: NumField) -> str:
    """", in km" for a field kept in a real unit, so the question fixes the answer's unit."""
    return f", in {f.measure.spoken()}" if f.measure.kind in ("distance", "mass", "duration", "money") else ""


def month_label(p: Period) -> str:
    return f"{p.month} {p.start.year}"


def iso_list(recs: Iterable[Record]) -> str:
    return ", ".join(sorted({r.day.isoformat() for r in recs}))


def rkey(round_id: str) -> tuple[int, int]:
    s, k = round_id[1:].split(":")
    return int(s), int(k)


def qa(point: str, question: str, answer: str, value: Any, atype: str, recs: Iterable[Record] = (),
       tol: float = 0, unit: str | None = None, cands: Sequence[str] | None = None, fam: str = "",
       field: str = "", extra_rounds: Iterable[str] = (), scope: str = "all") -> dict[str, Any]:
    """A QA in the data set's schema; ``_fam``, ``_field`` and ``_scope`` (the period kind;
    stripped before writing) steer the selection towards variety."""
    rounds = sorted({r.round for r in recs} | set(extra_rounds), key=rkey)
    out: dict[str, Any] = {
        "point": point, "question": question, "answer": answer,
        "session_id": sorted({r.split(":")[0] for r in rounds}, key=lambda s: int(s[1:])), "clue": rounds,
        "answer_value": value, "answer_type": atype, "tolerance": tol}
    if unit:
        out["unit"] = unit
    if cands:
        out["candidates"] = list(cands)
    out["_fam"], out["_field"], out["_scope"] = fam or point, field, scope
    return out


def month_name(d: date) -> str:
    return MONTHS[d.month - 1]


def json_value(x: Decimal | Fraction, places: int) -> int | float:
    return to_json(quantize(x, places))
