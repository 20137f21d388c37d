"""Measures of the invented fields: how a value is written, in which unit, and read back exactly.

Invented units ("14 qz") carry no conversion, but each domain also has one field in real units
that the user writes two ways (km or mi, minutes or hours, kg or lb), and sometimes money
(€ or $, never converted between them: an exchange rate would be invented truth). The records
keep every value in one canonical unit, named in the field's key (``glorp_km``). Values are
:class:`~decimal.Decimal` throughout, so a mile reading converts to kilometres exactly and the
validator can read every written form back to the stored value.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

MI_KM = Decimal("1.609344")  #: exact, by definition
LB_KG = Decimal("0.45359237")  #: exact, by definition


@dataclass(frozen=True)
class Measure:
    """The unit side of a numeric field."""

    kind: str  #: "invented" | "bare" | "distance" | "duration" | "mass" | "money"
    symbol: str  #: canonical unit as written: "qz", "km", "min", "kg", "EUR", "USD"; "" for bare
    decimals: int  #: decimals of a value written in the canonical unit

    @property
    def key_suffix(self) -> str:
        """The unit part of a record key (``_km``, ``_min``, ``_eur``, ``_qz``), "" for bare."""
        return f"_{self.symbol.lower()}" if self.symbol else ""

    @property
    def qa_unit(self) -> str | None:
        """The ``unit`` of a numeric QA on this field (the scorer reads durations for "minutes")."""
        return {"min": "minutes"}.get(self.symbol, self.symbol or None)

    @property
    def converted(self) -> bool:
        """Whether some records are written in a second unit and converted (km/mi, kg/lb)."""
        return self.kind in ("distance", "mass")

    def spoken(self) -> str:
        """The unit as a question names it ("in km", "in minutes")."""
        return {"min": "minutes", "EUR": "euros", "USD": "dollars"}.get(self.symbol, self.symbol)


def quantize(x: Decimal | Fraction | int, places: int) -> Decimal:
    """Round half-up (away from zero) to ``places`` decimals, exactly: via a Fraction, so a
    mean whose decimal expansion does not terminate is rounded from its true value."""
    fr = Fraction(x)
    sign = -1 if fr < 0 else 1
    scaled = abs(fr) * 10 ** places
    whole, rest = divmod(scaled.numerator, scaled.denominator)
    if 2 * rest >= scaled.denominator:
        whole += 1
    return Decimal(sign * whole).scaleb(-places)


def number(x: Decimal, places: int, thousands: bool = False) -> str:
    """``x`` with exactly ``places`` decimals, optionally with "," thousands separators."""
    q = quantize(x, places)
    return f"{q:,.{places}f}" if thousands else f"{q:.{places}f}"


def to_json(x: Decimal) -> int | float:
    """A canonical value as a JSON number: int when whole, else the shortest float."""
    if x == x.to_integral_value():
        return int(x)
    return float(str(x.normalize()))


def hm(minutes: int) -> str:
    """Whole minutes as "1 h 12 min" (or "45 min", "2 h")."""
    h, m = divmod(minutes, 60)
    if not h:
        return f"{m} min"
    return f"{h} h {m} min" if m else f"{h} h"


@dataclass(frozen=True)
class Shown:
    """One value as a round writes it, and the canonical value it stands for."""

    text: str  #: e.g. "17.4 mi", "1 h 12 min", "€12.40", "14 qz", "Ashvel"
    value: Decimal | str  #: canonical (km, minutes, kg, the currency, the invented unit)


def show(measure: Measure, canonical: Decimal, rng: random.Random, alt_share: float) -> Shown:
    """Write a drawn canonical value; with probability ``alt_share`` in the field's second unit
    (then the canonical value becomes the exact conversion of what is written)."""
    k = measure.kind
    if k == "distance" and rng.random() < alt_share:
        mi = quantize(canonical / MI_KM, 1)
        return Shown(f"{mi} mi", mi * MI_KM)
    if k == "mass" and rng.random() < alt_share:
        lb = quantize(canonical / LB_KG, 1)
        return Shown(f"{lb} lb", lb * LB_KG)
    if k == "duration":
        minutes = int(canonical)
        r = rng.random()
        if r < alt_share and minutes % 6 == 0 and minutes >= 60:
            return Shown(f"{Decimal(minutes) / 60:.1f} h", Decimal(minutes))
        if r < 0.6 and minutes >= 60:
            return Shown(hm(minutes), Decimal(minutes))
        return Shown(f"{minutes} min", Decimal(minutes))
    value = quantize(canonical, measure.decimals)
    if k == "money":
        amount = f"{value:.2f}"
        if measure.symbol == "EUR":
            text = rng.choice((f"€{amount}", f"{amount} €", f"EUR {amount}", f"{amount.replace('.', ',')} €"))
        else:
            text = rng.choice((f"${amount}", f"{amount} USD", f"USD {amount}"))
        return Shown(text, value)
    digits = number(value, measure.decimals, thousands=value >= 1000 and rng.random() < 0.6)
    return Shown(f"{digits} {measure.symbol}" if measure.symbol else digits, value)


_READ = re.compile(r"^(?:(?P<pre>€|\$|EUR |USD ))?(?P<num>\d{1,3}(?:,\d{3})+|\d+(?:[.,]\d+)?)"
                   r"(?: ?(?P<post>.*))?$")


def read_back(measure: Measure, text: str) -> Decimal:
    """The canonical value a written form stands for: the validator's independent reading."""
    m = re.fullmatch(r"(\d+) h(?: (\d+) min)?", text)
    if measure.kind == "duration" and m:
        return Decimal(int(m.group(1)) * 60 + int(m.group(2) or 0))
    found = _READ.match(text)
    if not found:
        raise ValueError(f"unreadable value {text!r}")
    raw, post = found.group("num"), (found.group("post") or "").strip()
    if measure.kind == "money" and re.fullmatch(r"\d+,\d{2}", raw):
        raw = raw.replace(",", ".")
    value = Decimal(raw.replace(",", ""))
    if post not in {measure.symbol, "mi", "lb", "h", "min", "€", "USD", ""}:
        raise ValueError(f"{text!r} is not in a unit of {measure.symbol or 'a bare field'}")
    factor = {"mi": MI_KM, "lb": LB_KG, "h": Decimal(60)}.get(post, Decimal(1))
    return value * factor
