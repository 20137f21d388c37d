"""Values with units: parse, find in free text, convert; and the snake_case of attribute names.

Pure functions over strings: no model, no I/O, regexes compiled once at import.

A :class:`Quantity` is one number with its canonical unit symbol and the dimension the unit
belongs to, plus ``raw``, the exact source text it was read from (kept always, so a value can be
shown to the user as written and re-read later).

Canonical units (``canonical_unit`` maps the spellings people use onto these):

=================  ==========================================================================
dimension          units
=================  ==========================================================================
duration           ``ms s min h d wk mo yr`` (mo = 1/12 of a Gregorian year, yr = 365.2425 d)
distance           ``mm cm m km in ft yd mi``
area               ``mm2 cm2 m2 km2 ft2 ha acre`` (``m²``, ``sq ft``, ``square meters`` ...)
mass               ``mg g kg oz lb``
volume             ``mL L fl oz gal``
percent            ``%``
rate               ``bpm``
speed              ``m/s km/h mph``
pace               ``min/km min/mi`` (a clock ``5:42 /km`` is minutes:seconds)
energy             ``kcal kJ kWh`` ("calories"/"cal" in everyday text mean kcal)
temperature        ``°C °F K``
concentration      ``mg/dL``; ``mmol/L`` is its own dimension (``molar_concentration``): the
                   factor between them depends on the substance, so they never convert
pressure           ``mmHg``
charge             ``mAh``
data               ``KB MB GB TB`` (decimal)
count              ``steps reps laps floors pages points`` (no conversion between them)
currency:<CODE>    ``USD EUR GBP JPY CNY INR KRW RUB CAD AUD CHF`` - each code is its own
                   dimension (no exchange rates here)
=================  ==========================================================================

Choices worth knowing:

* Durations are reduced to ONE number in the largest unit present: ``6 h 45 min`` is 6.75 h,
  ``45 min 30 s`` is 45.5 min, ``1:05:30`` is 1.0917 h. A two-part clock ``7:05`` is read as
  h:mm (``clock_as="hm"``, the default, right for sleep) or m:ss (``clock_as="ms"``, right for a
  run time ``28:30``); a clock followed by ``h``/``min`` or ``/km`` says which by itself.
* A clock followed by am/pm (``7:30 pm``, ``7 am``), ISO and slashed dates, and dotted version
  numbers (``3.10.2``) are not quantities: :func:`find_quantities` skips them.
* A bare ``m`` after a number is metres; after an hours part (``1h 10m``) it is minutes
  (``canonical_unit("m", in_duration=True)`` gives ``"min"``).
* ``pound(s)`` is the mass unit ``lb``; the currency is only ``£`` / ``GBP``. ``$`` is USD and
  ``¥`` is JPY (``RMB``/``CNY``/``yuan``/``元`` are CNY).
* Numbers use ``.`` as the decimal point and ``,`` only as a thousands separator (``1,250.50``);
  suffixes ``k``/``K`` (thousand), ``M`` (million), ``B``/``bn`` (billion) attach to the number
  (``12k``, ``$2.6B``), the words thousand / million / billion may follow it.
* ``"1990s"`` (a decade) is not 1990 seconds; a digit glued to a letter (``R15``, ``3D``,
  ``4th``, ``COVID-19``) is not a number.
* A number joined to a unit word by a hyphen (``30-minute``) is still found - ``raw`` keeps the
  hyphen, so callers can tell the adjective form apart.
* A value never spans lines: ``"82\nsteps"`` is 82 and a word, not 82 steps.
* Spelled-out numbers (one to twelve, fifteen, twenty, thirty ... ninety) count only with a unit
  (``seven hours``).
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "Quantity",
    "canonical_unit",
    "convert",
    "converted",
    "converted_span",
    "dimension_of",
    "find_quantities",
    "minutes_after_hours",
    "mixed_units",
    "vulgar_fraction",
    "OTHER_READING",
    "parse_quantity",
    "snake_case",
]


@dataclass(frozen=True)
class Quantity:
    """One value: the number, its canonical unit (None for a plain number), the unit's
    dimension, and the exact source text."""

    value: float
    unit: str | None
    dimension: str | None
    raw: str


# -- unit table ---------------------------------------------------------------------------

_CURRENCIES = ("USD", "EUR", "GBP", "JPY", "CNY", "INR", "KRW", "RUB", "CAD", "AUD", "CHF")

#: canonical unit -> (dimension, factor to the dimension's base unit). Temperature is special.
_UNITS: dict[str, tuple[str, float]] = {
    "ms": ("duration", 0.001), "s": ("duration", 1.0), "min": ("duration", 60.0),
    "h": ("duration", 3600.0), "d": ("duration", 86400.0), "wk": ("duration", 604800.0),
    "mo": ("duration", 2629746.0), "yr": ("duration", 31556952.0),
    "mm": ("distance", 0.001), "cm": ("distance", 0.01), "m": ("distance", 1.0),
    "km": ("distance", 1000.0), "in": ("distance", 0.0254), "ft": ("distance", 0.3048),
    "yd": ("distance", 0.9144), "mi": ("distance", 1609.344),
    "mg": ("mass", 0.001), "g": ("mass", 1.0), "kg": ("mass", 1000.0),
    "oz": ("mass", 28.349523125), "lb": ("mass", 453.59237),
    "mm2": ("area", 1e-6), "cm2": ("area", 1e-4), "m2": ("area", 1.0), "km2": ("area", 1e6),
    "ft2": ("area", 0.09290304), "ha": ("area", 1e4), "acre": ("area", 4046.8564224),
    "mL": ("volume", 0.001), "L": ("volume", 1.0), "fl oz": ("volume", 0.0295735295625),
    "gal": ("volume", 3.785411784),
    "%": ("percent", 1.0),
    "bpm": ("rate", 1.0),
    "m/s": ("speed", 1.0), "km/h": ("speed", 1000.0 / 3600.0), "mph": ("speed", 1609.344 / 3600.0),
    "min/km": ("pace", 1.0), "min/mi": ("pace", 1.0 / 1.609344),
    "kcal": ("energy", 1.0), "kJ": ("energy", 1.0 / 4.184), "kWh": ("energy", 3.6e6 / 4184.0),
    "°C": ("temperature", 1.0), "°F": ("temperature", 1.0), "K": ("temperature", 1.0),
    "mg/dL": ("concentration", 1.0), "mmol/L": ("molar_concentration", 1.0),
    "mmHg": ("pressure", 1.0),
    "mAh": ("charge", 1.0),
    "W": ("power", 1.0), "kW": ("power", 1000.0),
    "stars": ("rating", 1.0),
    "KB": ("data", 1e3), "MB": ("data", 1e6), "GB": ("data", 1e9), "TB": ("data", 1e12),
    "steps": ("count", 1.0), "reps": ("count", 1.0), "laps": ("count", 1.0),
    "floors": ("count", 1.0), "pages": ("count", 1.0), "points": ("count", 1.0),
}
for _code in _CURRENCIES:
    _UNITS[_code] = (f"currency:{_code}", 1.0)
    # A price per volume (fuel: "1,890 €/L", "$3.59/gal") is its own dimension per currency.
    _UNITS[f"{_code}/L"] = (f"price:{_code}/volume", 1.0)
    _UNITS[f"{_code}/gal"] = (f"price:{_code}/volume", 1.0 / 3.785411784)
    # A rate per hour of work or hire ("85 USD/h", "$95 an hour"): money per duration.
    _UNITS[f"{_code}/h"] = (f"price:{_code}/duration", 1.0)

#: Spellings (lower-cased, single spaces) -> canonical unit. Case-sensitive spellings follow.
_ALIASES: dict[str, str] = {}


def _alias(canonical: str, *spellings: str) -> None:
    for s in spellings:
        _ALIASES[s] = canonical


_alias("ms", "ms", "msec", "msecs", "millisecond", "milliseconds")
_alias("s", "s", "sec", "secs", "second", "seconds")
_alias("min", "min", "mins", "minute", "minutes", "mn")
_alias("h", "h", "hr", "hrs", "hour", "hours")
_alias("d", "d", "day", "days")
_alias("wk", "wk", "wks", "week", "weeks")
_alias("mo", "mo", "mos", "month", "months")
_alias("yr", "yr", "yrs", "year", "years")
_alias("mm", "mm", "millimeter", "millimeters", "millimetre", "millimetres")
_alias("cm", "cm", "centimeter", "centimeters", "centimetre", "centimetres")
_alias("m", "m", "meter", "meters", "metre", "metres")
_alias("km", "km", "kms", "kilometer", "kilometers", "kilometre", "kilometres", "k.m.")
_alias("in", "in", "inch", "inches", '"')
_alias("ft", "ft", "foot", "feet")
_alias("yd", "yd", "yds", "yard", "yards")
_alias("mi", "mi", "mile", "miles")
_alias("mg", "mg", "milligram", "milligrams")
_alias("m2", "m2", "m²", "sq m", "sqm", "square meter", "square meters", "square metre", "square metres")
_alias("cm2", "cm2", "cm²", "square centimeter", "square centimeters")
_alias("mm2", "mm2", "mm²")
_alias("km2", "km2", "km²", "sq km", "square kilometer", "square kilometers", "square kilometre",
       "square kilometres")
_alias("ft2", "ft2", "ft²", "sq ft", "sqft", "square foot", "square feet")
_alias("ha", "ha", "hectare", "hectares")
_alias("acre", "acre", "acres")
_alias("g", "g", "gr", "gram", "grams", "gramme", "grammes")
_alias("kg", "kg", "kgs", "kilo", "kilos", "kilogram", "kilograms")
_alias("oz", "oz", "ounce", "ounces")
_alias("lb", "lb", "lbs", "pound", "pounds")
_alias("mL", "ml", "milliliter", "milliliters", "millilitre", "millilitres")
_alias("L", "l", "liter", "liters", "litre", "litres")
_alias("fl oz", "fl oz", "fl. oz", "fl. oz.", "fluid ounce", "fluid ounces")
_alias("gal", "gal", "gallon", "gallons")
_alias("%", "%", "percent", "per cent", "pct", "percentage points")
_alias("bpm", "bpm", "beats per minute", "beats/min", "beats / min")
_alias("m/s", "m/s")
_alias("km/h", "km/h", "kph", "kmh", "kilometers per hour", "kilometres per hour")
_alias("mph", "mph", "miles per hour")
_alias("min/km", "min/km", "/km", "per km")
_alias("min/mi", "min/mi", "/mi", "per mile")
_alias("kcal", "kcal", "kcals", "cal", "cals", "calorie", "calories", "kilocalorie", "kilocalories")
_alias("kJ", "kj", "kilojoule", "kilojoules")
_alias("kWh", "kwh")
_alias("°C", "°c", "ºc", "℃", "° c", "degc", "celsius", "degrees celsius", "degree celsius",
       "degrees c", "deg c")
_alias("°F", "°f", "ºf", "℉", "° f", "degf", "fahrenheit", "degrees fahrenheit",
       "degree fahrenheit", "degrees f", "deg f")
_alias("K", "kelvin")
_alias("mg/dL", "mg/dl", "mg / dl")
_alias("mmol/L", "mmol/l", "mmol / l")
_alias("mmHg", "mmhg", "mm hg")
_alias("mAh", "mah")
_alias("W", "w", "watt", "watts")
_alias("kW", "kw", "kilowatt", "kilowatts")
_alias("stars", "star", "stars")
_alias("KB", "kb")
_alias("MB", "mb")
_alias("GB", "gb")
_alias("TB", "tb")
_alias("steps", "step", "steps")
_alias("reps", "rep", "reps", "repetitions")
_alias("laps", "lap", "laps")
_alias("floors", "floor", "floors")
_alias("pages", "page", "pages")
_alias("points", "point", "points", "pt", "pts")
_alias("USD", "usd", "$", "us$", "dollar", "dollars", "buck", "bucks", "us dollars")
_alias("EUR", "eur", "€", "euro", "euros")
_alias("GBP", "gbp", "£", "pounds sterling", "sterling")
_alias("JPY", "jpy", "¥", "yen", "円")
_alias("CNY", "cny", "rmb", "yuan", "元", "renminbi")
_alias("INR", "inr", "₹", "rupee", "rupees", "rs", "rs.")
_alias("KRW", "krw", "₩", "won")
_alias("RUB", "rub", "₽", "ruble", "rubles", "rouble", "roubles")
_alias("CAD", "cad", "c$", "ca$")
_alias("AUD", "aud", "a$", "au$")
_alias("CHF", "chf")

#: Case matters for these spellings (K = kelvin, not "k"; the rest are canonical as written).
_CASED = {"W": "W", "kW": "kW", "K": "K", "mL": "mL", "L": "L", "kJ": "kJ", "kWh": "kWh", "mAh": "mAh", "mmHg": "mmHg",
          "mg/dL": "mg/dL", "mmol/L": "mmol/L", "KB": "KB", "MB": "MB", "GB": "GB", "TB": "TB"}


@lru_cache(maxsize=4096)
def canonical_unit(unit_text: str, *, in_duration: bool = False) -> str | None:
    """The canonical symbol for a unit as written, or None when it is not a unit we know.

    ``in_duration`` reads a bare ``m`` as minutes (``1h 10m``) instead of metres.
    """
    if not unit_text or not isinstance(unit_text, str):
        return None
    t = " ".join(unit_text.strip().split())
    if t in _CASED:
        return _CASED[t]
    low = t.lower()
    if low == "m" and in_duration:
        return "min"
    if low.endswith(".") and low not in _ALIASES:
        low = low[:-1]
    return _ALIASES.get(low)


def dimension_of(unit: str | None) -> str | None:
    """The dimension of a unit (canonical or any known spelling); None for None or unknown."""
    if unit is None:
        return None
    if unit not in _UNITS:
        unit = canonical_unit(unit) or ""
    entry = _UNITS.get(unit)
    return entry[0] if entry else None


def convert(value: float, from_unit: str, to_unit: str) -> float:
    """Convert ``value`` between two units of one dimension; ValueError otherwise.

    Units may be canonical symbols or any spelling :func:`canonical_unit` knows. Counts and
    currencies only convert to themselves (no exchange rates, no steps-to-pages).
    """
    a = from_unit if from_unit in _UNITS else canonical_unit(from_unit)
    b = to_unit if to_unit in _UNITS else canonical_unit(to_unit)
    if a is None or b is None:
        raise ValueError(f"unknown unit: {from_unit if a is None else to_unit!r}")
    if a == b:
        return float(value)
    dim_a, fa = _UNITS[a]
    dim_b, fb = _UNITS[b]
    if dim_a != dim_b:
        raise ValueError(f"cannot convert {a} ({dim_a}) to {b} ({dim_b})")
    if dim_a == "count":
        raise ValueError(f"cannot convert {a} to {b}: different things counted")
    if dim_a == "temperature":
        kelvin = {"°C": lambda v: v + 273.15, "°F": lambda v: (v - 32.0) * 5.0 / 9.0 + 273.15,
                  "K": lambda v: v}[a](float(value))
        return {"°C": lambda k: k - 273.15, "°F": lambda k: (k - 273.15) * 9.0 / 5.0 + 32.0,
                "K": lambda k: k}[b](kelvin)
    return float(value) * fa / fb


def converted(value: float, unit: str | None, to: str | None) -> float:
    """``value`` in ``unit`` expressed in ``to``; as it was when either unit is missing, they are
    one, or they measure different things - for values merged into a field of another unit. Pure."""
    if unit and to and unit != to:
        try:
            return convert(value, unit, to)
        except ValueError:
            return value
    return value


def converted_span(span: tuple[float, float] | None, unit: str | None, to: str | None) -> tuple[float, float] | None:
    """A (low, high) range of values in ``unit`` expressed in ``to`` (see :func:`converted`). Pure."""
    return None if span is None else (converted(span[0], unit, to), converted(span[1], unit, to))


#: Units written alike for two quantities: an ounce of weight or of liquid ("4 oz" of milk), a
#: bare "m" of metres or of minutes ("35m" on a timer). The first reading is the default; the
#: memory's own fields decide when the other one is meant (``nodes/extract.py``).
OTHER_READING = {"oz": "fl oz", "m": "min"}


# -- the scanner --------------------------------------------------------------------------

#: Vulgar fractions written as one character ("3½ oz", "½ hour"), and their values.
FRACTIONS = {"½": 0.5, "¼": 0.25, "¾": 0.75, "⅓": 1 / 3, "⅔": 2 / 3, "⅛": 0.125, "⅜": 0.375, "⅝": 0.625, "⅞": 0.875}
_NUM = (r"(?:\d{0,4}[" + "".join(FRACTIONS) + r"]|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)")
_SIGN = r"[+\-\u2212]"
#: Numbers written as words, read by the question scanner and the span model alike.
WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "ninety": 90,
}
_MULT = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "bn": 1e9,
         "thousand": 1e3, "million": 1e6, "billion": 1e9}


def _alt(words: list[str]) -> str:
    """An alternation of literal spellings as a character trie ("h(?:ours?|rs?)?" ...): the
    engine then rejects a non-unit after one test per first letter instead of one per
    spelling, and still prefers the longest spelling (optional tails are greedy). A space in a
    spelling matches one optional space."""
    trie: dict = {}
    for w in set(words):
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        parts = [(r"\s?" if ch == " " else re.escape(ch)) + emit(child)
                 for ch, child in sorted(node.items()) if ch != ""]
        if not parts:
            return ""
        body = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
        return "(?:" + body + ")?" if "" in node else body

    return emit(trie)


# Spellings that may follow a number. Case-insensitive except the short ones listed in
# _CASED_AFTER, which must be written as they are (so "3D", "5G", "4K" are not units).
_SUFFIX_SKIP = {"$", "us$", "c$", "ca$", "a$", "au$", "in", '"', "won", "rs", "rs.", "mn", "mo",
                "mos", "d", "l", "k.m.", "cal", "cals", "gr", "per km", "per mile", "m/s", "kj",
                "kwh", "kb", "mb", "gb", "tb", "mah", "mmhg", "mg/dl", "mmol/l", "ml",
                "percentage points", "w", "kw"}
_SUFFIX_WORDS = [s for s in _ALIASES if s not in _SUFFIX_SKIP and len(s) > 1 or s == "%"]
_CASED_AFTER = ["d", "h", "s", "m", "g", "L", "l", "mL", "ml", "kJ", "kWh", "mAh", "mmHg", "mg/dL",
                "mg/dl", "mmol/L", "mmol/l", "KB", "MB", "GB", "TB", "Cal", "cal", "cals", "m/s", "gr",
                "Rs", "W", "kW"]
_UNIT_RE = (r"(?:" + _alt(_CASED_AFTER) + r"|(?i:" + _alt(_SUFFIX_WORDS) + r"))")
_PREFIX_CUR = (r"(?:US\$|CA?\$|AU?\$|HK\$|[$€£¥₹₩₽]|(?:USD|EUR|GBP|JPY|CNY|RMB|INR|CAD|AUD|CHF|KRW)"
               r"(?=\s?\d))")
_H = r"(?i:h|hrs?|hours?)"
_MN = r"(?i:m|mins?|minutes?)"
_SC = r"(?i:s|secs?|seconds?)"
_AND = r"(?:\s*(?:and\s+)?)"

_WORD_ALT = (r"""(?P<word>(?<![\w-])(?=[A-Za-z])(?P<w_num>(?i:"""
             + "|".join(sorted(WORD_NUMBERS, key=len, reverse=True)) + r"""))
        (?:\s|[-‐‑])(?P<w_unit>""" + _UNIT_RE + r""")(?![A-Za-z0-9]))""")

# The lookahead gate in front lets most positions fail on one character test.
# A value never spans lines: "\s" in these patterns is horizontal space only (_horizontal).
_SCAN_SOURCE = (
    r"""
    (?:(?=[\d$€£¥₹₩₽+\-\u2212.UCAH½¼¾⅓⅔⅛⅜⅝⅞])|(?<![\w])(?=[UEGJCRIAKHotfsenOTFSEN]))
    (?:
    (?P<skip_date>(?<![\w.])\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?:[T\ ]\d{1,2}:\d{2}(?::\d{2})?)?(?![\w])
        |(?<![\w.])\d{1,2}/\d{1,2}/\d{2,4}(?![\w/])
        |(?<![\w.])\d{1,2}\.\d{1,2}\.\d{4}(?![\w.]))
   |(?P<skip_tod>(?<![\w.:])\d{1,2}(?::\d{2}){0,2}\s?(?i:[ap]\.?m\.?)(?![A-Za-z]))
   |(?P<skip_version>(?<![\w.])v?\d+\.\d+\.\d+(?:\.\d+)*(?![\w]))
   |(?P<hms>(?<![\w.:])(?P<hms_h>\d{1,3}):(?P<hms_m>[0-5]\d):(?P<hms_s>[0-5]\d(?:\.\d+)?)(?![\d:]))
   |(?P<clock>(?<![\w.:])(?P<c_a>\d{1,3}):(?P<c_b>[0-5]\d)(?![\d:])
        (?:\s?(?P<c_pace>(?i:(?:min)?\s?/\s?(?:km|mi)|per\s(?:km|mile)))(?![A-Za-z])
          |\s?(?P<c_unit>(?i:hours|hour|hrs|hr|h|minutes|minute|mins|min))(?![A-Za-z]))?)
   |(?P<dur>(?<![\w.,])
        (?:(?P<d_h>""" + _NUM + r""")\s?""" + _H + r"""(?![A-Za-z])""" + _AND + r"""
           (?P<d_hm>\d{1,3}(?:\.\d+)?)\s?""" + _MN + r"""(?![A-Za-z])
           (?:""" + _AND + r"""(?P<d_hs>\d{1,3}(?:\.\d+)?)\s?""" + _SC + r""")?(?![A-Za-z])
        |(?P<d_h2>\d{1,3})[hH](?P<d_hm2>[0-5]\d)(?![\w.:])
        |(?P<d_m>""" + _NUM + r""")\s?(?i:mins?|minutes?|m)(?![A-Za-z])""" + _AND + r"""
           (?P<d_ms>\d{1,3}(?:\.\d+)?)\s?""" + _SC + r"""(?![A-Za-z])))
   |(?P<cur>(?<![\w.,])(?P<cur_sign>""" + _SIGN + r""")?(?P<cur_sym>""" + _PREFIX_CUR + r""")\s?
        (?P<cur_num>""" + _NUM + r""")(?:(?P<cur_mult>k|K|M|B|bn)(?![A-Za-z])
        |\s(?P<cur_mword>thousand|million|billion)\b)?(?![\w]))
   |(?P<gen>(?<![\w.,])(?<![A-Za-z]-)(?P<g_sign>""" + _SIGN + r""")?(?P<g_num>""" + _NUM + r""")
        (?:(?P<g_mult>k|K|M|B|bn)(?![A-Za-z])|\s(?P<g_mword>thousand|million|billion)\b)?
        (?:(?P<g_sep>\s?|[-‐‑])(?P<g_unit>""" + _UNIT_RE + r""")(?![A-Za-z0-9])
          |(?P<g_pct>\s?%)|(?P<g_cur>\s?[€£¥₹₩₽元円]))?
        (?![\w]))
   |""" + _WORD_ALT + r"""
    )""")


def _horizontal(pattern: str) -> str:
    return pattern.replace(r"\s", r"[ \t\u00a0\u202f]")


_SCAN = re.compile(_horizontal(_SCAN_SOURCE), re.VERBOSE)
#: Texts with no digit and no currency sign can only hold spelled-out numbers.
_ANY_NUMERIC = re.compile(r"[\d$€£¥₹₩₽元円½¼¾⅓⅔⅛⅜⅝⅞]")
_WORDS_ONLY = re.compile(_horizontal(_WORD_ALT), re.VERBOSE)


def _num(text: str) -> float:
    if (fraction := vulgar_fraction(text)) is not None:
        return fraction
    return float(text.replace(",", ""))


def _mk(value: float, unit: str | None, raw: str) -> Quantity:
    return Quantity(float(value), unit, dimension_of(unit), raw)


def _duration(parts: list[tuple[float, str]], raw: str) -> Quantity:
    """Several (value, unit) duration parts as one value in the largest unit present."""
    big = max(parts, key=lambda p: _UNITS[p[1]][1])[1]
    total = sum(v * _UNITS[u][1] for v, u in parts) / _UNITS[big][1]
    return _mk(total, big, raw)


def pace_unit(text: str) -> str:
    """``min/mi`` or ``min/km`` for a written pace ("5:04 /km", "8:40 per mile"): the distance is
    the word after "/" or "per" - "min/km" holds the letters "mi" too."""
    return "min/mi" if re.search(r"(?:/|per)\s?mi", text.lower()) else "min/km"


def _from_match(m: re.Match[str], clock_as: str) -> Quantity | None:
    kind = m.lastgroup  # the top-level alternative that matched
    g = m.group
    raw = g(0)
    if kind == "hms":
        return _duration([(float(g("hms_h")), "h"), (float(g("hms_m")), "min"),
                          (float(g("hms_s")), "s")], raw)
    if kind == "clock":
        a, b = float(g("c_a")), float(g("c_b"))
        if g("c_pace"):
            return _mk(a + b / 60.0, pace_unit(g("c_pace")), raw)
        mode = clock_as
        if g("c_unit"):
            mode = "hm" if g("c_unit").lower().startswith("h") else "ms"
        if mode == "ms":
            return _duration([(a, "min"), (b, "s")], raw)
        return _duration([(a, "h"), (b, "min")], raw)
    if kind == "dur":
        if g("d_h2") is not None:
            return _duration([(float(g("d_h2")), "h"), (float(g("d_hm2")), "min")], raw)
        if g("d_h") is not None:
            parts = [(_num(g("d_h")), "h"), (float(g("d_hm")), "min")]
            if g("d_hs") is not None:
                parts.append((float(g("d_hs")), "s"))
            return _duration(parts, raw)
        return _duration([(_num(g("d_m")), "min"), (float(g("d_ms")), "s")], raw)
    if kind == "cur":
        sym = g("cur_sym").strip()
        unit = canonical_unit(sym) or ("USD" if sym.endswith("$") else None)
        if sym.upper() == "HK$":
            unit = None  # no HKD in the table: keep the number, say nothing about the unit
        value = _num(g("cur_num"))
        mult = g("cur_mult") or g("cur_mword")
        if mult:
            value *= _MULT[mult]
        if g("cur_sign") and g("cur_sign") != "+":
            value = -value
        return _mk(value, unit, raw)
    if kind == "gen":
        value = _num(g("g_num"))
        mult = g("g_mult") or g("g_mword")
        if mult:
            value *= _MULT[mult]
        if g("g_sign") and g("g_sign") != "+":
            value = -value
        unit = None
        if g("g_unit") is not None:
            u = g("g_unit")
            if u == "s" and not g("g_sep") and re.fullmatch(r"\d*0", g("g_num")) and len(g("g_num")) >= 2:
                return None  # "1990s", "80s": a decade, not seconds
            unit = canonical_unit(u)
        elif g("g_pct") is not None:
            unit = "%"
        elif g("g_cur") is not None:
            unit = canonical_unit(g("g_cur").strip())
        return _mk(value, unit, raw)
    if kind == "word":
        return _mk(float(WORD_NUMBERS[" ".join(g("w_num").lower().split())]),
                   canonical_unit(g("w_unit")), raw)
    return None


def find_quantities(text: str, *, clock_as: str = "hm") -> list[tuple[int, int, Quantity]]:
    """Every value in free text as ``(start, end, Quantity)``, with ``text[start:end] == raw``.

    Dates, times of day and version numbers are skipped, not returned.
    """
    if clock_as not in ("hm", "ms"):
        raise ValueError("clock_as must be 'hm' or 'ms'")
    out = []
    scan = _SCAN if _ANY_NUMERIC.search(text) else _WORDS_ONLY
    for m in scan.finditer(text):
        if m.lastgroup is not None and m.lastgroup.startswith("skip_"):
            continue
        q = _from_match(m, clock_as)
        if q is not None and math.isfinite(q.value):
            out.append((m.start(), m.end(), q))
    return _join_parts(text, out) if len(out) > 1 else out


#: Dimensions whose values are written in two units at once ("9 lb 11 oz", "5 ft 11 in",
#: "2 days 3 hours"); counts, currencies, percentages and temperatures never are.
_MIXED_DIMENSIONS = frozenset({"mass", "distance", "duration", "volume"})
PART_GAP = re.compile(r"[ \t\u00a0\u202f]{0,2}(?:and[ \t]+)?")
_INCHES_AFTER = re.compile(r"[ \t]?(?:in\b|\")")


def _join_parts(text: str, found: list[tuple[int, int, Quantity]]) -> list[tuple[int, int, Quantity]]:
    """Values written in two units of one dimension, the larger first, as ONE value: "9 lb 11
    oz" is 9.6875 lb, "5 ft 11 in" 5.917 ft, "1h 10" 1.167 h (minutes after the hours, their
    unit left out). The second part must be less than one of the first's unit and the first a
    whole number - "2 kg 300 g" is one weight, "2.5 kg 300 g" two."""
    out: list[tuple[int, int, Quantity]] = []
    for start, end, q in found:
        if out:
            p_start, p_end, p = out[-1]
            joined = _joined(text, p, q, p_end, start, end)
            if joined is not None:
                out[-1] = (p_start, joined[0], _mk(joined[1], p.unit, text[p_start:joined[0]]))
                continue
        out.append((start, end, q))
    return out


def _joined(text: str, big: Quantity, small: Quantity, gap_start: int, start: int, end: int) -> tuple[int, float] | None:
    """(end, value) of ``big`` followed by ``small`` read as one value, else None."""
    if big.unit is None or big.dimension not in _MIXED_DIMENSIONS or not PART_GAP.fullmatch(text[gap_start:start]):
        return None
    unit = small.unit
    if unit is None:
        if big.unit == "ft" and _INCHES_AFTER.match(text, end):
            unit, end = "in", _INCHES_AFTER.match(text, end).end()  # type: ignore[union-attr]
        elif minutes_after_hours(big.unit, small.raw, None):
            unit = "min"
        else:
            return None
    value = mixed_units(big.value, big.unit, small.value, unit)
    return None if value is None else (end, value)


def vulgar_fraction(text: str) -> float | None:
    """"3½" -> 3.5, "½" -> 0.5: digits (or none) and one fraction character, else None."""
    if not text or text[-1] not in FRACTIONS or not (text[:-1].isdigit() or not text[:-1]):
        return None
    return int(text[:-1] or 0) + FRACTIONS[text[-1]]


_MINUTES_PART = re.compile(r"[0-5]\d(?![\d.,])")


def minutes_after_hours(unit: str | None, part_raw: str, part_unit: str | None) -> bool:
    """"1h 10": two digits right after hours, their unit left out (or "in" after them, read as
    inches: "1h 10 in the car"), are minutes, as a clock writes them."""
    return unit == "h" and part_unit in (None, "in") and _MINUTES_PART.match(part_raw) is not None


def mixed_units(value: float, unit: str | None, part: float, part_unit: str | None) -> float | None:
    """``value unit`` and ``part part_unit`` read as one value in ``unit`` ("9 lb" and "11 oz"),
    or None when they are two values: the first a whole number of a unit larger than the
    second's, in a dimension people write that way, the second less than one of the first's."""
    if unit is None or part_unit is None or unit == part_unit or value != int(value) or value < 0 or part < 0:
        return None
    dimension = dimension_of(unit)
    if dimension not in _MIXED_DIMENSIONS or dimension_of(part_unit) != dimension:
        return None
    try:
        rest = convert(part, part_unit, unit)
    except ValueError:
        return None
    return value + rest if 0 <= rest < 1 else None


def parse_quantity(text: str, *, clock_as: str = "hm") -> Quantity | None:
    """The whole string read as ONE value, or None (``"6 h 45 min"``, ``"$12.40"``, ``"82%"``).

    Surrounding whitespace and quotes are ignored; ``raw`` is the stripped text.
    """
    if not isinstance(text, str):
        return None
    s = text.strip().strip("\"'“”‘’").strip()
    if not s or len(s) > 64:
        return None
    found = find_quantities(s, clock_as=clock_as)
    if len(found) == 1 and found[0][0] == 0 and found[0][1] == len(s):
        return found[0][2]
    return None




# -- names --------------------------------------------------------------------------------

_PARENS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z][a-z])|(?<=[a-z])(?=[A-Z])")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")
MAX_NAME = 48


@lru_cache(maxsize=8192)
def _snake_full(name: str) -> str:
    """snake_case without the length cap (callers use it to reject over-long labels)."""
    if not isinstance(name, str):
        return ""
    s = unicodedata.normalize("NFKD", name)
    s = s.replace("%", " pct ").replace("&", " and ").replace("#", " num ")
    s = s.encode("ascii", "ignore").decode("ascii")
    s = _PARENS.sub(" ", s)
    s = _CAMEL.sub("_", s)
    s = _NON_ALNUM.sub("_", s.lower()).strip("_")
    if not s:
        return ""
    if s[0].isdigit():
        s = "n_" + s
    return s


def snake_case(name: str) -> str:
    """An attribute or column name: ``^[a-z][a-z0-9_]{0,47}$``, or ``""`` when nothing is left.

    Unicode is folded to ASCII (NFKD: ``"Café"`` -> ``cafe``; scripts with no ASCII form, such
    as Chinese, vanish), parenthesized parts are dropped (``"Total sleep (h)"`` ->
    ``total_sleep``), camelCase is split (``deepSleep`` -> ``deep_sleep``), ``%`` becomes
    ``pct``, ``&`` ``and`` and ``#`` ``num``. A name that would start with a digit gets an
    ``n_`` prefix (``"5k time"`` -> ``n_5k_time``). Longer than 48 characters, the name is cut
    at the last ``_`` that fits (or at 48).
    """
    if not isinstance(name, str):
        return ""
    s = _snake_full(name)
    if len(s) > MAX_NAME:
        cut = s[:MAX_NAME + 1].rfind("_")
        s = s[:cut] if cut > 0 else s[:MAX_NAME]
        s = s.strip("_")
    return s
