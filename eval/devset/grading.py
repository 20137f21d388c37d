"""Scoring a prediction against a dev-set question: :func:`is_correct` and its readers.

Split from :mod:`adamm.eval.devset.questions` (whose docstring, "Scoring", states the rules):
reading dates, quantities with units, choices and refusals out of free text is the scorer's
half of the question set, used by the QA harness and ``adamm eval`` without the generator.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from datetime import date, datetime

from adamm.eval.devset.model import MONTHS
from adamm.eval.devset.question_base import DevQuestion

__all__ = ["is_correct", "parse_days", "parse_quantity"]

_MONTH_RE = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
             r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_MONTH_INDEX = {m[:3].lower(): i + 1 for i, m in enumerate(MONTHS)}
_DAY_TAIL = r"(?:st|nd|rd|th)?"
#: A bare day continuing a list ("March 4, 9 and 12"), not a quantity ("March 4, 6.5 hours").
_MORE_DAY = (r"(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)(\d{1,2})" + _DAY_TAIL +
             r"\b(?![.:]?\d)(?!\s*(?:%|h\b|hours?|hrs?|min|minutes?|km|bpm|ms|mg|usd|dollars|-|–))")
_DATE_RES = (
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    ("md", re.compile(r"\b" + _MONTH_RE + r"\.?\s+(\d{1,2})" + _DAY_TAIL + r"\b(?:,?\s+(\d{4})\b)?"
                      + r"((?:" + _MORE_DAY + r")*)", re.I)),
    ("dm", re.compile(r"\b(\d{1,2})" + _DAY_TAIL + r"\s+(?:of\s+)?" + _MONTH_RE + r"\b\.?(?:,?\s+(\d{4})\b)?", re.I)),
    ("us", re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")),
)
_MONTH_YEAR = re.compile(r"\b" + _MONTH_RE + r"\.?\s+(\d{4})\b", re.I)


def _mk_date(year: int | None, month: int, day: int, now: date) -> date | None:
    try:
        if year is not None:
            return date(year, month, day)
        d = date(now.year, month, day)
        return d if d <= now else date(now.year - 1, month, day)
    except ValueError:
        return None


def _date_spans(text: str, now: date) -> list[tuple[int, int, list[date]]]:
    """(start, end, dates) of every date mention, in order of position."""
    spans: list[tuple[int, int, list[date]]] = []
    for kind, rx in _DATE_RES:
        for m in rx.finditer(text):
            if any(s <= m.start() < e or m.start() <= s < m.end() for s, e, _ in spans):
                continue
            if kind == "iso":
                found = [_mk_date(int(m[1]), int(m[2]), int(m[3]), now)]
            elif kind == "md":
                month, year = _MONTH_INDEX[m[1][:3].lower()], int(m[3]) if m[3] else None
                found = [_mk_date(year, month, int(m[2]), now)]
                found += [_mk_date(year, month, int(d), now) for d in re.findall(_MORE_DAY, m[4] or "", re.I)]
            elif kind == "dm":
                found = [_mk_date(int(m[3]) if m[3] else None, _MONTH_INDEX[m[2][:3].lower()], int(m[1]), now)]
            else:
                found = [_mk_date(int(m[3]), int(m[1]), int(m[2]), now)]
            days = [d for d in found if d is not None]
            if days:
                spans.append((m.start(), m.end(), days))
    return sorted(spans, key=lambda s: s[0])


def parse_days(text: str, now: date | datetime | str | None = None) -> list[date]:
    """Dates mentioned in ``text``, in order (a year left out: the latest such date <= now)."""
    ref = _as_date(now) if now is not None else date.today()
    return [d for _, _, days in _date_spans(text, ref) for d in days]


def _as_date(value: date | datetime | str) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return datetime.fromisoformat(value).date()


_NUMBER_WORDS = {w: i for i, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"))}
_NUM = r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
_H = r"(?:hours?|hrs?|h)(?![a-z])"
_MIN = r"(?:minutes?|mins?|min|m)(?![a-z])"
_QTY = re.compile(
    r"(?P<hm>(?P<h1>" + _NUM + r")\s*" + _H + r"\.?,?\s*(?:and\s+)?(?P<m1>\d+(?:\.\d+)?)\s*" + _MIN + r")"
    r"|(?P<colon>\b(?P<h2>\d{1,2}):(?P<m2>[0-5]\d)\b)"
    r"|(?P<num>(?P<n>" + _NUM + r")\s*(?P<unit>" + _H + "|" + _MIN + r"|(?:km|kilomet(?:er|re)s?)\b|"
    r"(?:met(?:er|re)s?)\b)?)"
    r"|(?P<word>\b(?:" + "|".join(_NUMBER_WORDS) + r"|no|none)\b)",
    re.I,
)


def parse_quantity(text: str, unit: str = "", now: date | datetime | str | None = None) -> float | None:
    """The first quantity of ``text`` in ``unit`` ("h", "min", "km", "USD", ...), dates set aside."""
    ref = _as_date(now) if now is not None else date.today()
    masked = list(text)
    for s, e, _ in _date_spans(text, ref):
        masked[s:e] = " " * (e - s)
    clean = _MONTH_YEAR.sub(lambda m: " " * len(m.group(0)), "".join(masked))
    for m in _QTY.finditer(clean):
        if m["hm"]:
            hours = float(m["h1"].replace(",", "")) + float(m["m1"]) / 60
            return hours * 60 if unit == "min" else hours
        if m["colon"]:
            if unit == "h":
                return int(m["h2"]) + int(m["m2"]) / 60
            if unit == "min":
                return int(m["h2"]) * 60 + int(m["m2"])
            continue  # a time of day, not a quantity of this unit
        if m["word"]:
            if unit:  # "no lows" is a count, never a duration or an amount
                continue
            return float(_NUMBER_WORDS.get(m["word"].lower(), 0))
        value = float(m["n"].replace(",", ""))
        suffix = (m["unit"] or "").lower()
        if unit in ("h", "min") and suffix:
            is_hours = bool(re.fullmatch(_H, suffix))
            if unit == "h" and not is_hours and re.fullmatch(_MIN, suffix):
                return value / 60
            if unit == "min" and is_hours:
                return value * 60
        if unit == "km" and suffix.startswith("met"):
            return value / 1000
        return value
    return None


def _normalize(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = re.sub(r"['’`]", "", text)
    text = re.sub(r"[^a-z0-9]+", " ", text)
    return " ".join(w for w in text.split() if w not in ("a", "an", "the"))


def _f1(gold: str, pred: str) -> float:
    g, p = _normalize(gold).split(), _normalize(pred).split()
    common = sum((Counter(g) & Counter(p)).values())
    if not common:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


_REFUSAL = re.compile(
    r"not mentioned|never mentioned|no mention|not (?:been )?(?:discussed|recorded|logged|found|stated|"
    r"specified|available)|no (?:information|record|records|data|details|evidence)|"
    r"(?:don'?t|do not|cannot|can'?t|couldn'?t|could not) (?:know|find|tell|say|recall|determine)|"
    r"(?:i|you) (?:have|had) no|nothing (?:about|on|in)|unknown|no idea|not sure", re.I)


def _first_choice(q: DevQuestion, prediction: str) -> str | None:
    norm = " " + _normalize(prediction) + " "
    best: tuple[int, str] | None = None
    for option, aliases in q.choices.items():
        for alias in aliases or [option]:
            a = _normalize(alias)
            if not a:
                continue
            i = norm.find(" " + a + " ")
            if i >= 0 and (best is None or i < best[0]):
                best = (i, option)
    return best[1] if best else None


def is_correct(q: DevQuestion, prediction: str) -> bool:
    """Whether ``prediction`` answers ``q`` (see the module docstring for the rules)."""
    prediction = prediction or ""
    if q.kind == "refusal":
        return bool(_REFUSAL.search(prediction))
    if q.kind == "number":
        got = parse_quantity(prediction, q.unit, q.now or None)
        if got is None:
            return False
        gold = float(q.gold_value)  # type: ignore[arg-type]
        return abs(got - gold) <= max(q.tolerance, q.rel_tolerance * abs(gold)) + 1e-9
    if q.kind == "days":
        gold_days = {date.fromisoformat(d) for d in q.gold_value}  # type: ignore[union-attr]
        found = parse_days(prediction, q.now or None)
        if not found:
            return False
        if len(gold_days) == 1:
            return found[0] in gold_days
        return set(found) == gold_days
    if q.kind == "text":
        if q.choices:
            return _first_choice(q, prediction) == q.gold_value
        gold = _normalize(str(q.gold_value))
        pred = _normalize(prediction)
        if gold and f" {gold} " in f" {pred} ":
            return True
        return _f1(str(q.gold_value), prediction) >= 0.8
    raise ValueError(f"unknown kind {q.kind!r}")
