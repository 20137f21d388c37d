#!/usr/bin/env python3
"""Score predictions on an invented analytic data set (written by ``python -m adamm.eval.invented``).

    python3 score.py DIALOG_DIR PREDICTIONS.jsonl [--details OUT.jsonl]
    python3 score.py DIALOG_DIR --make-oracle OUT.jsonl [--from answer|value]

PREDICTIONS.jsonl holds one JSON object per line, ``{"scenario": "<file stem>", "question":
"<verbatim>", "prediction": "<free text>"}``, matched to the QAs of DIALOG_DIR/*.json by
scenario and exact question text; a question without a prediction counts as wrong. The JSON
report on stdout gives ``overall``, ``by_type``, ``by_scenario``, ``by_scenario_type``,
``missing_predictions`` and ``unmatched_predictions``.

The judging rules are analytic_dev's (its README, "Scoring"), so figures on the two data sets
compare: the *earliest* number / date in the prediction counts; lists are compared as sets;
a string with candidates is the candidate named first (trend paraphrases such as "went up" or
"fell" count as increased / decreased; capitalised month names, and any month named first);
a string without candidates needs every content word of the gold value. This file is a
standalone copy of ``adamm/eval/invented/score.py`` (Python 3.11 standard library only), so a
data set directory can be scored without adamm installed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

POINTS = ("AVG", "SUM", "CNT", "MAX", "MIN", "LAT", "RNG", "CMP", "TRD", "RET")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_MON = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
        r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_ORD = r"(?:st|nd|rd|th)?"
_DATE_RULES = (
    ("ymd", re.compile(r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")),
    ("mdy", re.compile(r"(?<!\d)(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?!\d)")),
    ("md", re.compile(r"\b(" + _MON + r")\.?\s+(\d{1,2})" + _ORD + r"\b(?:,?\s+(\d{4})\b)?", re.I)),
    ("dm", re.compile(r"\b(\d{1,2})" + _ORD + r"\s+(?:of\s+)?(" + _MON + r")\b\.?(?:,?\s+(\d{4})\b)?", re.I)),
)
_MONTH_YEAR = re.compile(r"\b" + _MON + r"\.?\s+\d{4}\b", re.I)
_ROUND_ID = re.compile(r"\bD\d+:(?:IMG_)?\d+\b|\bIMG_\d+\b")
_PLAIN = re.compile(r"(?<![\w.])(?P<sign>[-+]?)\s?[$€]?\s?(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?"
                    r"(?:\s?(?P<k>[kK])\b)?")
_COMMA = re.compile(r"(?<![\w.,])(?P<sign>[-+]?)\s?(?:€\s?)?(?P<int>\d{1,3}(?:\.\d{3})+|\d+),(?P<frac>\d{1,3})(?![\d,])")
DECIMAL_COMMA_UNITS = ("EUR", "EUR/L", "L", "L/100 km")  #: units whose answers may use a decimal comma
_NUMBER_WORDS = {w: float(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_NUMBER_WORDS.update(once=1.0, twice=2.0, thrice=3.0, none=0.0, never=0.0)
_HOURS = r"(?:h|hr|hrs|hour|hours)\b"
_MINS = r"(?:m|min|mins|minute|minutes)\b"
_SECS = r"(?:s|sec|secs|second|seconds)\b"
TREND_WORDS = {
    "increased": ("increased", "increase", "increasing", "went up", "gone up", "go up", "goes up", "up", "rose",
                  "risen", "rising", "higher", "grew", "climbed"),
    "decreased": ("decreased", "decrease", "decreasing", "went down", "gone down", "go down", "goes down", "down",
                  "dropped", "fell", "fallen", "lower", "declined", "reduced"),
}
STOP_WORDS = frozenset("a an the of to in on at for and or my your with is was by from his her their it its this that "
                       "be been are were mr mrs ms dr".split())


def normalise(text: Any) -> str:
    """Unicode minus and dashes, no-break and thin spaces, Markdown bold and code ticks made plain."""
    t = str(text)
    for old, new in (("\u2212", "-"), ("\u2013", "-"), ("\u2014", " - "), ("\u00a0", " "), ("\u2009", " "),
                     ("\u202f", " "), ("**", ""), ("`", "")):
        t = t.replace(old, new)
    return t


def _month(token: str) -> int:
    low = token.lower()
    return MONTHS.index(next(m for m in MONTHS if m.startswith(low[:3]))) + 1


# -- dates --------------------------------------------------------------------------------------

def dates_in(text: str, year: int) -> list[tuple[int, int, dt.date]]:
    """(start, end, date) of every date in ``text``, left to right, without overlaps (a longer
    reading wins at the same start). Without a year, ``year`` is assumed."""
    found = []
    for rule, rx in _DATE_RULES:
        for m in rx.finditer(text):
            g = m.groups()
            try:
                if rule == "ymd":
                    d = dt.date(int(g[0]), int(g[1]), int(g[2]))
                elif rule == "mdy":
                    y = int(g[2])
                    d = dt.date(y + 2000 if y < 100 else y, int(g[0]), int(g[1]))
                elif rule == "md":
                    d = dt.date(int(g[2]) if g[2] else year, _month(g[0]), int(g[1]))
                else:
                    d = dt.date(int(g[2]) if g[2] else year, _month(g[1]), int(g[0]))
            except ValueError:
                continue
            found.append((m.start(), m.end(), d))
    found.sort(key=lambda x: (x[0], x[0] - x[1]))
    out: list[tuple[int, int, dt.date]] = []
    for hit in found:
        if not out or hit[0] >= out[-1][1]:
            out.append(hit)
    return out


# -- numbers ------------------------------------------------------------------------------------

def _blank_non_numbers(text: str, year: int) -> str:
    """Dates, "Month YYYY" and round ids replaced by spaces, so their digits are not read."""
    chars = list(text)
    spans = [(s, e) for s, e, _ in dates_in(text, year)]
    spans += [m.span() for m in _MONTH_YEAR.finditer(text)] + [m.span() for m in _ROUND_ID.finditer(text)]
    for s, e in spans:
        chars[s:e] = " " * (e - s)
    return "".join(chars)


def _durations(text: str) -> list[tuple[int, int, float]]:
    """Durations read in minutes: 1:42:10, 1 h 42 min (and seconds), 1:42, 12 min 30 s, 1.5 h, 90 min."""
    num = r"(\d+(?:\.\d+)?)"
    rules = (
        (r"(?<![\d:])(\d+):(\d{2}):(\d{2})(?![\d:])", lambda g: int(g[0]) * 60 + int(g[1]) + int(g[2]) / 60),
        (r"(\d+)\s*" + _HOURS + r",?\s*(?:and\s+)?(\d+)\s*" + _MINS + r"(?:,?\s*(?:and\s+)?(\d+)\s*" + _SECS + ")?",
         lambda g: int(g[0]) * 60 + int(g[1]) + (int(g[2]) / 60 if g[2] else 0)),
        (r"(?<![\d:])(\d+):(\d{2})(?![\d:])", lambda g: int(g[0]) + int(g[1]) / 60),
        (num + r"\s*" + _MINS + r",?\s*(?:and\s+)?(\d+)\s*" + _SECS, lambda g: float(g[0]) + int(g[1]) / 60),
        (num + r"\s*" + _HOURS, lambda g: float(g[0]) * 60),
        (num + r"\s*" + _MINS, lambda g: float(g[0])),
    )
    return [(m.start(), m.end(), fn(m.groups())) for rx, fn in rules for m in re.finditer(rx, text, re.I)]


def _decimal_commas(text: str, unit: str | None) -> list[tuple[int, int, float]]:
    out: list[tuple[int, int, float]] = []
    if unit not in DECIMAL_COMMA_UNITS:
        return out
    for m in _COMMA.finditer(text):
        whole, frac = m.group("int"), m.group("frac")
        if len(frac) == 3 and not (unit == "EUR/L" and len(whole) == 1):
            continue  # "1,234": a thousands separator, read by the plain rule
        value = float(whole.replace(".", "") + "." + frac)
        out.append((m.start(), m.end(), -value if m.group("sign") == "-" else value))
    return out


def read_number(text: str, unit: str | None, year: int) -> float | None:
    """The earliest quantity of ``text`` as ``unit`` reads it (see the module docstring)."""
    t = _blank_non_numbers(normalise(text), year)
    commas = _decimal_commas(t, unit)
    hits = commas + (_durations(t) if unit == "minutes" else [])
    for m in _PLAIN.finditer(t):
        if any(m.start() < e and s < m.end() for s, e, _ in commas):
            continue  # the digits of a decimal-comma amount already read
        value = float(m.group("int").replace(",", "") + (m.group("frac") or ""))
        value *= 1000 if m.group("k") else 1
        hits.append((m.start(), m.end(), -value if m.group("sign") == "-" else value))
    if hits:
        return min(hits, key=lambda h: (h[0], h[0] - h[1]))[2]
    words = re.search(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b", t, re.I)
    return _NUMBER_WORDS[words.group(1).lower()] if words else None


# -- strings ------------------------------------------------------------------------------------

def mentions(text: str, candidates: list[str]) -> dict[str, int]:
    """{candidate: position of its first mention}; whole words, trend paraphrases included,
    month names only capitalised (also as "Mar" / "Mar."); on overlaps the longer mention wins."""
    text = normalise(text)
    spans = []
    for cand in candidates:
        forms = [cand, *[w for w in TREND_WORDS.get(cand.lower(), ()) if w != cand.lower()]]
        for form in forms:
            month = form.lower() in MONTHS and form[:1].isupper()
            pats = [re.escape(form)] + ([re.escape(form[:3]) + r"\.?"] if month and len(form) > 3 else [])
            for pat in pats:
                for m in re.finditer(r"(?<!\w)" + pat + r"(?!\w)", text, 0 if month else re.I):
                    spans.append((m.start(), m.end(), cand))
    spans.sort(key=lambda s: (s[0] - s[1], s[0]))
    taken: list[tuple[int, int]] = []
    first: dict[str, int] = {}
    for s, e, cand in spans:
        if any(s < b and a < e for a, b in taken):
            continue
        taken.append((s, e))
        first[cand] = min(first.get(cand, s), s)
    return first


def content_words(text: str) -> set[str]:
    words = re.sub(r"[^0-9a-z]+", " ", normalise(text).lower()).split()
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words if w not in STOP_WORDS}


# -- judging ------------------------------------------------------------------------------------

def judge(qa: dict[str, Any], prediction: str | None) -> tuple[bool, Any]:
    """(correct, what was read from the prediction) for one QA."""
    pred = normalise(prediction or "")
    gold, kind = qa["answer_value"], qa["answer_type"]
    y = re.search(r"\b(?:19|20)\d{2}\b", json.dumps(gold))
    year = int(y.group(0)) if y else 2025
    if kind == "number":
        got = read_number(pred, qa.get("unit"), year)
        return got is not None and abs(got - float(gold)) <= float(qa.get("tolerance") or 0) + 1e-9, got
    if kind == "date":
        ds = dates_in(pred, year)
        got = ds[0][2].isoformat() if ds else None
        return got == gold, got
    if kind == "list":
        if all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(g)) for g in gold):
            got = sorted({d.isoformat() for _, _, d in dates_in(pred, year)})
        else:
            got = sorted(mentions(pred, list(qa.get("candidates") or gold)))
        return got == sorted(gold), got
    if qa.get("candidates"):
        cands = list(qa["candidates"])
        if all(c.lower() in MONTHS for c in cands):
            cands = [m.capitalize() for m in MONTHS]  # a month answer: whichever month comes first
        found = mentions(pred, cands)
        got = min(found, key=lambda c: found[c]) if found else None
        return got == gold, got
    want = content_words(str(gold))
    return bool(want) and want <= content_words(pred), None


# -- the command --------------------------------------------------------------------------------

def load_qas(directory: str) -> dict[str, list[dict[str, Any]]]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8"))["human-annotated QAs"]
            for p in sorted(Path(directory).glob("*.json"))}


def _cell(hit: list[int]) -> dict[str, Any]:
    return {"correct": hit[0], "n": hit[1], "accuracy": round(hit[0] / hit[1], 4) if hit[1] else None}


def report(data: dict[str, list[dict[str, Any]]], preds: dict[tuple[str, str], str], unmatched: int,
           details: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    overall = [0, 0]
    by_type: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_sc: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_sc_type: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    missing = 0
    for sc, qas in data.items():
        for q in qas:
            key = (sc, q["question"].strip())
            if key in preds:
                ok, parsed = judge(q, preds[key])
            else:
                ok, parsed, missing = False, None, missing + 1
            for cell in (overall, by_type[q["point"]], by_sc[sc], by_sc_type[f"{sc}/{q['point']}"]):
                cell[0] += int(ok)
                cell[1] += 1
            if details is not None:
                details.append({"scenario": sc, "point": q["point"], "question": q["question"], "gold": q["answer_value"],
                                "parsed": parsed, "prediction": preds.get(key), "correct": ok})
    return {"overall": _cell(overall), "by_type": {t: _cell(by_type[t]) for t in POINTS if t in by_type},
            "by_scenario": {s: _cell(c) for s, c in sorted(by_sc.items())},
            "by_scenario_type": {s: _cell(c) for s, c in sorted(by_sc_type.items())},
            "missing_predictions": missing, "unmatched_predictions": unmatched}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dataset_dir", help="the dialog/ directory of a data set")
    ap.add_argument("predictions", nargs="?")
    ap.add_argument("--details", help="write one judgement per question (JSONL) here")
    ap.add_argument("--make-oracle", help="write predictions made from the gold answers (JSONL) here, and stop")
    ap.add_argument("--from", dest="source", choices=("answer", "value"), default="answer",
                    help="the oracle's text: the gold answer sentence (default) or answer_value")
    a = ap.parse_args(argv)
    data = load_qas(a.dataset_dir)
    if a.make_oracle:
        with open(a.make_oracle, "w", encoding="utf-8") as fh:
            for sc, qas in data.items():
                for q in qas:
                    v = q["answer_value"]
                    text = q["answer"] if a.source == "answer" else (", ".join(map(str, v)) if isinstance(v, list) else str(v))
                    fh.write(json.dumps({"scenario": sc, "question": q["question"], "prediction": text}, ensure_ascii=False) + "\n")
        return 0
    if not a.predictions:
        ap.error("PREDICTIONS.jsonl is required unless --make-oracle is given")
    known = {(sc, q["question"].strip()) for sc, qas in data.items() for q in qas}
    preds: dict[tuple[str, str], str] = {}
    unmatched = 0
    with open(a.predictions, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            key = (str(row.get("scenario", "")).removesuffix(".json"), str(row.get("question", "")).strip())
            if key in known:
                preds[key] = row.get("prediction") or ""
            else:
                unmatched += 1
    details: list[dict[str, Any]] | None = [] if a.details else None
    out = report(data, preds, unmatched, details)
    if a.details and details is not None:
        with open(a.details, "w", encoding="utf-8") as fh:
            for d in details:
                fh.write(json.dumps(d, ensure_ascii=False, default=str) + "\n")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
