"""Day cues (the ``labels`` extractor): the day a value is about, and dates that are values.

``observed_at`` is set when the text names the day the value is about - an explicit date
(``Sleep for Mar 4``, ``2025-03-04``, ``3/4/2025`` (US order unless the first part is > 12),
``4 March``), or a relative one resolved against the round time (``yesterday``, ``this
morning``, ``today``, ``tonight``, ``3 days ago``, ``on Monday`` / ``last Monday`` = the latest
such day on or before / strictly before the round; ``last night`` is the night before the
round: the day before, except for sleep - a night's sleep is dated by the day one wakes up, as
sleep apps and :mod:`adamm.eval.devset` do, so "last night I slept 6 h" is the round's day). A
date without a year takes the round's year (the year before when that would put it more than
two days after the round). Which value a date dates is the scan's business
(:mod:`adamm.nodes.rules.labels_scan`); the ``records`` extractor reads its dates with
:mod:`adamm.nodes.rules.dates` instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

DAY_POSSESSIVE = {"today's": 0, "todays": 0, "tonight's": 0, "yesterday's": -1, "yesterdays": -1}

_MONTHS = {"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4,
           "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8,
           "sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11,
           "november": 11, "dec": 12, "december": 12}
_WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
             "sunday": 6}
_MONTH_RE = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
             r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_WD_RE = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|rsday|urday)?"
_SMALL_NUM = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_REL_RE = (r"(?P<rel>\b(?:the\s+day\s+before\s+yesterday|yesterday|last\s+night|tonight|today|"
           r"this\s+(?:morning|afternoon|evening)|(?P<ago>\d{1,2}|one|two|three|four|five|six|seven)"
           r"\s+days?\s+ago|(?P<wdmode>last|this\s+past|on)\s+(?P<wd>monday|tuesday|wednesday|"
           r"thursday|friday|saturday|sunday))(?:'s|’s)?\b)")
# Every date starts a word: the gate in front skips the other positions on one test.
_DATE = re.compile(
    r"(?<![\w])(?=[\dJjFfMmAaSsOoNnDdTtWwYyLl])(?:(?P<iso>(?<![\w.])(?P<iy>\d{4})[-/.](?P<im>\d{1,2})[-/.](?P<id>\d{1,2})"
    r"(?:[T ]\d{1,2}:\d{2}(?::\d{2})?)?(?!\w))"
    r"|(?P<us>(?<![\w./])(?P<um>\d{1,2})/(?P<ud>\d{1,2})/(?P<uy>\d{4}|\d{2})(?![\w/]))"
    r"|(?P<md>(?<!\w)(?:" + _WD_RE + r"\.?,?\s+)?(?P<mdm>" + _MONTH_RE + r")\.?\s+(?P<mdd>\d{1,2})"
    r"(?:st|nd|rd|th)?(?:,?\s+(?P<mdy>\d{4}))?(?!\d))"
    r"|(?P<dm>(?<![\w.])(?P<dmd>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dmm>" + _MONTH_RE + r")"
    r"\.?(?:,?\s+(?P<dmy>\d{4}))?(?!\w))"
    r"|(?P<my>(?<!\w)(?P<mym>" + _MONTH_RE + r")\.?,?\s+(?P<myy>\d{4})(?!\w))"
    r"|" + _REL_RE + ")",
    re.I)
_LAST_NIGHT = re.compile(r"last\s+night(?:'s|’s)?", re.I)
_SLEEP_WORDS = re.compile(r"sleep|slept|asleep|\bnap|\bbed\b|bedtime|\brem\b|\bhrv\b", re.I)
#: Without a digit, only relative dates are possible.
_DATE_REL = re.compile(r"(?<![\w])" + _REL_RE, re.I)
_DIGIT = re.compile(r"\d")
#: Every date has one of these (a cheap test before the full pattern).
_DATE_HINT = re.compile(r"\d[-/.]\d|(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|yesterday|"
                        r"today|tonight|night|morning|afternoon|evening|ago\b|day\b)")


def _resolve_day(month: int, day: int, year: int | None, ref: date | None, *,
                 past: bool) -> date | None:
    if year is None:
        if ref is None:
            return None
        year = ref.year
        try:
            d = date(year, month, day)
        except ValueError:
            return None
        if past and d > ref + timedelta(days=2):
            try:
                d = date(year - 1, month, day)
            except ValueError:
                return None
        return d
    try:
        return date(year, month, day)
    except ValueError:
        return None


@dataclass
class DateHit:
    start: int
    end: int
    kind: str  # "day" (a calendar day), "rel" (relative to the round), "month" (no day)
    anchor: date | None  # resolved as the day a record is about (year-less: never in the future)
    value: date | None  # resolved as a date value (year-less: the round's year)
    used: bool = False


def find_date_hits(text: str, ref: date | None) -> list[DateHit]:
    hits: list[DateHit] = []
    if not _DATE_HINT.search(text):
        return hits
    scan = _DATE if _DIGIT.search(text) else _DATE_REL
    for m in scan.finditer(text):
        g = dict.fromkeys(("iso", "us", "md", "dm", "my", "rel"))
        g.update(m.groupdict())
        s, e = m.span()
        if g["iso"]:
            d = _resolve_day(int(g["im"]), int(g["id"]), int(g["iy"]), ref, past=True)
            if d is not None:
                hits.append(DateHit(s, e, "day", d, d))
        elif g["us"]:
            a, b, y = int(g["um"]), int(g["ud"]), int(g["uy"])
            if y < 100:
                y += 2000
            if a > 12 and b <= 12:
                a, b = b, a
            d = _resolve_day(a, b, y, ref, past=True)
            if d is not None:
                hits.append(DateHit(s, e, "day", d, d))
        elif g["md"] or g["dm"]:
            mon = g["mdm"] or g["dmm"]
            if mon == "may":
                continue  # the modal verb "may"
            month = _MONTHS[mon.lower()]
            day = int(g["mdd"] or g["dmd"])
            ytext = g["mdy"] or g["dmy"]
            year = int(ytext) if ytext else None
            anchor = _resolve_day(month, day, year, ref, past=True)
            value = _resolve_day(month, day, year, ref, past=False)
            if anchor is not None or (year is None and ref is None and 1 <= day <= 31):
                hits.append(DateHit(s, e, "day", anchor, value))
        elif g["my"]:
            if g["mym"] == "may":
                continue
            hits.append(DateHit(s, e, "month", None, None))
        elif g["rel"]:
            d = _relative(m, ref)
            if d is not None and ref is not None and d < ref and _LAST_NIGHT.fullmatch(g["rel"]) \
                    and _SLEEP_WORDS.search(text, max(0, s - 80), min(len(text), e + 120)):
                d = ref  # a night's sleep is dated by the day one wakes up, as sleep apps do
            hits.append(DateHit(s, e, "rel", d, d))
    return hits


def _relative(m: re.Match[str], ref: date | None) -> date | None:
    if ref is None:
        return None
    low = " ".join(m.group("rel").lower().replace("’", "'").split())
    if low.endswith("'s"):
        low = low[:-2]
    if low == "the day before yesterday":
        return ref - timedelta(days=2)
    if low in ("yesterday", "last night"):
        return ref - timedelta(days=1)
    if low in ("today", "tonight", "this morning", "this afternoon", "this evening"):
        return ref
    if m.group("ago"):
        n = m.group("ago").lower()
        k = int(n) if n.isdigit() else _SMALL_NUM[n]
        return ref - timedelta(days=k)
    if m.group("wd"):
        wd = _WEEKDAYS[m.group("wd").lower()]
        back = (ref.weekday() - wd) % 7
        if back == 0 and m.group("wdmode").lower() != "on":
            back = 7
        return ref - timedelta(days=back)
    return None


def day_hint(word: str, ref: date | None) -> date | None:
    if ref is None:
        return None
    off = DAY_POSSESSIVE.get(word.lower().replace("’", "'"))
    return None if off is None else ref + timedelta(days=off)
