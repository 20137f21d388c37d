"""The offline answerer: template answers from tool results, extractive answers from rounds.

It writes what the evidence says and nothing more, leading with the value (people skim, and
benchmark scorers read the first number or date): a computed value with its unit and how many
records it rests on; the day of an extreme when the question asks "which day"; the days of a
Filter; the winner of a comparison; up or down for a trend; otherwise the best sentence of the
retrieved rounds - or "Not mentioned." when nothing answers.
"""

from __future__ import annotations

import re
from typing import Any

from adamm.nodes.questions import NOT_MENTIONED
from adamm.nodes.rules.best_sentence import is_phatic
from adamm.nodes.rules.reader import answer_type, read_answer
from adamm.nodes.rules.plan_instantiate import compare_sides
from adamm.nodes.rules.plan_columns import asks_for_a_name
from adamm.nodes.rules.terms import is_title
from adamm.nodes.rules.plan_intent import WHICH_NOUN, Intent, detect_intent, lists_values
from adamm.stores.quantities import canonical_unit, convert, dimension_of
from adamm.stores.timeexpr import Period, describe_period

_MONEY = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}
_UNIT_WORDS = {"h": "hours", "min": "minutes", "s": "seconds", "d": "days"}


def format_value(value: Any, unit: str | None) -> str:
    """A number as a person writes it: 2 decimals at most (3 below 10, where a price per litre
    of 1.846 would lose a digit that matters), money with its sign, units spelled."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    places = 3 if abs(value) < 10 and unit not in _MONEY else 2
    number = f"{value:,.{places}f}".rstrip("0").rstrip(".") if isinstance(value, float) else f"{value:,}"
    if number in ("-0", ""):
        number = "0"
    if unit in _MONEY:
        return f"-{_MONEY[unit]}{number.lstrip('-')}" if value < 0 else f"{_MONEY[unit]}{number}"
    if unit in ("%",):
        return f"{number}%"
    if unit:
        return f"{number} {_UNIT_WORDS.get(unit, unit)}"
    return number


_ASKED_UNIT = re.compile(r"\b(?:in|as|into)\s+(?P<u>[A-Za-z$€£°/]+(?:\s+[a-z]+)?)\s*(?=[?.,;:)!]|$|\s+(?:please|instead)\b)", re.I)
_HOW_MANY_UNIT = re.compile(r"\bhow\s+many\s+(?P<u>[A-Za-z$€£°/]+)", re.I)


def asked_unit(question: str) -> str | None:
    """The unit a question wants its answer in ("..., in km?", "in minutes", "how many miles"),
    as a canonical symbol; None when it names none."""
    for pattern in (_ASKED_UNIT, _HOW_MANY_UNIT):
        for m in pattern.finditer(question):
            words = m.group("u").split()
            for k in (len(words), 1):
                u = canonical_unit(" ".join(words[:k]))
                if u is not None and dimension_of(u) not in (None, "count"):
                    return u
    return None


#: Durations said in a smaller unit when under one of their own.
_SMALLER = {"wk": ("d", "h", "min"), "d": ("h", "min")}


def in_asked_unit(value: Any, unit: str | None, question: str) -> tuple[Any, str | None]:
    """``value`` (in ``unit``) converted to the unit the question asks for, when both measure
    the same thing: a column kept in miles answers "how far, in km?" in km."""
    want = asked_unit(question) if question else None
    if want is None and unit in _SMALLER and isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < abs(value) < 1:
        # "0.007 wk on average": a column kept in a large unit (an age of "6 weeks 5 days" came
        # first) says a short time in the largest unit it is at least one of
        for smaller in _SMALLER[unit]:
            value, unit = convert(float(value), unit, smaller), smaller
            if abs(value) >= 1:
                break
        return value, unit
    if want is None or unit is None or want == unit or isinstance(value, bool) or not isinstance(value, (int, float)):
        return value, unit
    try:
        return convert(float(value), unit, want), want
    except ValueError:
        return value, unit


def _in_asked(agg: dict[str, Any], question: str) -> dict[str, Any]:
    """An aggregate's value and unit in the unit the question asks for."""
    value, unit = in_asked_unit(agg["value"], agg.get("unit"), question)
    return {**agg, "value": value, "unit": unit}


def compose(question: str, periods: list[Period], evidence: list[dict[str, Any]], calls: list[dict[str, Any]], *,
            known: frozenset[str] | None = None) -> tuple[str, list[str]]:
    """(answer, cited unit ids) from the evidence of the executed calls; ``known`` is the
    memory's vocabulary (see :func:`adamm.nodes.rules.reader.read_answer`)."""
    if not evidence:
        return NOT_MENTIONED, []
    intent = detect_intent(question, periods)
    aggregates = [u for u in evidence if u["kind"] == "aggregate"]
    rows = [u for u in evidence if u["kind"] == "row"]
    retrieved = [u for u in evidence if u["kind"] not in ("aggregate", "row")]
    if intent.kind == "compare" and len(aggregates) >= 2:
        return _compare(question, periods, intent, aggregates[:2])
    if aggregates:
        agg = aggregates[-1]
        if agg["value"] is not None and agg["matched"]:
            return _aggregate(intent, agg, periods, question), [agg["unit_id"]]
        if agg["operator"] in ("count", "sum"):
            # nothing logged that matches is itself the answer to "how many / how much"
            return f"0 ({agg['table']} has no matching records{_period_note(periods)})", [agg["unit_id"]]
    if rows:
        return _rows(intent, rows, calls, question), [u["unit_id"] for u in rows]
    empty = next((c for c in reversed(calls) if c.get("ok") and c.get("tool") == "Filter"
                  and (c.get("summary") or {}).get("matched") == 0), None)
    if empty is not None and intent.kind == "filter_days":
        # "on which days did I ...": a table was searched and no logged day matches - that is
        # the answer, not the nearest sentence of the chat
        table = (empty.get("summary") or {}).get("table") or (empty.get("args") or {}).get("table") or "the log"
        return f"None: no logged day matches ({table} has no matching records{_period_note(periods)})", []
    if retrieved:
        answer, cited = read_answer(question, retrieved, known=known)
        dated = any(p.start or p.end for p in periods)
        if answer != NOT_MENTIONED and (intent.kind == "trend" or intent.kind == "compare" and dated):
            # "did it rise or fall from February to April", "which month had bigger fill-ups, March
            # or April": a comparison of logged periods no table answered; a sentence is no side
            return f"{NOT_COMPUTED} The nearest round says: \u201c{answer}\u201d", cited
        if intent.kind in COMPUTED and intent.operator in AGGREGATES and answer != NOT_MENTIONED \
                and answer_type(question) in ("span", "yesno", "quantity") \
                and not _answers_a_computation(answer):
            # no table answered a question that asks for a computation: the rounds' best
            # sentence is no total nor average ("Got it, invoice noted."), so say what was read
            # (a date, count or name the reader found itself is its own answer, left as it is)
            return f"{NOT_COMPUTED} The nearest round says: \u201c{answer}\u201d", cited
        return answer, cited
    return NOT_MENTIONED, []


#: Intents and operators whose answer is an aggregate over records: an average, a total, a
#: count, a share. "The first / the latest / the longest" is no aggregate: a round can tell it
#: ("the first documentary he mentioned"); nor "which X is more ...", which the rules read as
#: a group whose operator they guess (on Mem-Gallery: "which dessert is more suitable").
COMPUTED = frozenset({"compute", "share"})
AGGREGATES = frozenset({"avg", "median", "sum", "count", "share", "delta"})
#: What the answerer says when a computation found no records to run on (the tables hold none).
NOT_COMPUTED = "Not computed: no table holds the records this asks about."


def _answers_a_computation(sentence: str) -> bool:
    """Could a sentence answer a computed question by itself - does it state a number, and
    is it more than a social remark ("Thanks!", "Got it, noted.")?"""
    return bool(re.search(r"\d", sentence)) and not is_phatic(sentence)


def _period_note(periods: list[Period]) -> str:
    bounded = [p for p in periods if p.start or p.end]
    return f", {describe_period(bounded[0])}" if bounded else ""


def _aggregate(intent: Intent, agg: dict[str, Any], periods: list[Period], question: str = "") -> str:
    op, value, unit, n = agg["operator"], agg["value"], agg.get("unit"), agg["matched"]
    if op not in ("count", "share", "trend") and not agg.get("groups"):
        value, unit = in_asked_unit(value, unit, question)
    records = f"{n} logged record{'s' if n != 1 else ''}"
    days = [r["date"] for r in agg.get("rows", []) if r.get("date")]
    when = f" on {days[-1] if op == 'last' else days[0]}" if days else ""
    if op == "share":
        if agg.get("weighted"):
            return f"{value:.1f}% of the {agg.get('expression')} ({agg.get('meeting')} of {agg.get('in_scope')} records{_period_note(periods)})"
        return f"{value:.1f}% ({agg.get('meeting')} of {agg.get('in_scope')} records{_period_note(periods)})"
    if agg.get("groups") and lists_values(question, periods):
        names = sorted(str(g["group"]) for g in agg["groups"])
        return ", ".join(names) + f" ({len(names)}{_period_note(periods)})"
    if agg.get("top_group") is not None:
        return f"{_group_name(agg['top_group'])} ({format_value(value, unit)}{' ' + op if op != 'count' else ' records'})"
    if op == "count":
        listed = ", ".join(days[:10]) + (" ..." if len(days) > 10 or n > len(days) else "")
        return f"{value}{_period_note(periods)}" + (f": {listed}" if listed else "")
    if op == "count_distinct":
        what = "days" if agg.get("expression") == "date" else f"different {agg.get('expression')} values"
        return f"{value} {what} over {records}{_period_note(periods)}"
    if op == "avg":
        return f"{format_value(value, unit)} on average over {records}{_period_note(periods)}"
    if op == "sum":
        return f"{format_value(value, unit)} in total over {records}{_period_note(periods)}"
    if op == "median":
        return f"{format_value(value, unit)} (median of {records}{_period_note(periods)})"
    if op == "trend":
        direction = "up" if value > 0 else "down" if value < 0 else "flat"
        return (f"{direction.capitalize()}: {format_value(round(value, 4), unit)} per day over {records}"
                f"{_period_note(periods)} (least-squares trend)")
    if op == "delta":
        return f"{format_value(value, unit)} change from the first to the last of {records}"
    if intent.asks_day and days:
        day = days[-1] if op == "last" else days[0]
        return day if agg["expression"] == "date" else f"{day} ({agg['expression']} {format_value(value, unit)})"
    return f"{format_value(value, unit)}{when}"


_MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December"]


def _group_name(group: Any) -> str:
    """A group as people say it: "2025-04" is April 2025."""
    text = str(group)
    if len(text) == 7 and text[4] == "-" and text[:4].isdigit() and text[5:].isdigit() and 1 <= int(text[5:]) <= 12:
        return f"{_MONTH_NAMES[int(text[5:]) - 1]} {text[:4]}"
    return text


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _rows(intent: Intent, rows: list[dict[str, Any]], calls: list[dict[str, Any]], question: str = "") -> str:
    last = next((c for c in reversed(calls) if c.get("ok") and c.get("tool") in ("Rank", "Filter", "Lookup")), None)
    matched = (last or {}).get("summary", {}).get("matched", len(rows))
    if last and last["tool"] == "Rank":
        expr = last["summary"].get("expression")
        top = rows[0]
        value, unit = in_asked_unit(top["values"].get(expr), top["units"].get(expr), question)
        label = "speed" if unit and unit.endswith("/h") and " / " in str(expr) else expr
        tied = [r for r in rows if r["values"].get(expr) == top["values"].get(expr)]
        days = ", ".join(r["date"] or "undated" for r in tied)
        which = WHICH_NOUN.search(question)
        named = [k for k in top["values"] if which and isinstance(top["values"][k], str)
                 and _singular(which.group("noun").lower()) in k.lower().split("_")]
        if which and not named and asks_for_a_name(which.group("noun")):
            # no column called so: the row's one name written as a name ("Quarry Lane Track")
            named = [k for k, v in top["values"].items() if isinstance(v, str) and is_title(v)][:2]
            named = named if len(named) == 1 else []
        if named and not intent.asks_day:  # "on which route ...": the row's route
            return f"{top['values'][named[0]]} ({label} {format_value(value, unit)} on {days})"
        if intent.asks_day or intent.kind in ("rank", "day_of"):
            return f"{days} ({label} {format_value(value, unit)})"
        return f"{format_value(value, unit)} on {days}"
    days = list(dict.fromkeys(r["date"] for r in rows if r.get("date")))  # two readings on one day: one day
    listed = ", ".join(days)
    if matched > len(rows):
        return f"{matched} records on {listed} ... (showing {len(rows)} of {matched})" if days else rows[0]["text"]
    return f"{len(days)} day{'s' if len(days) != 1 else ''}: {listed}" if days else rows[0]["text"]


def _compare(question: str, periods: list[Period], intent: Intent, aggs: list[dict[str, Any]]) -> tuple[str, list[str]]:
    a, b = aggs
    if a["value"] is None or b["value"] is None:
        missing = a if a["value"] is None else b
        return f"Not enough data: no records for {_label(missing, question, periods)}", [u["unit_id"] for u in aggs if u["value"] is not None]
    if a["value"] == b["value"]:
        return f"Neither: both {format_value(a['value'], a.get('unit'))}", [a["unit_id"], b["unit_id"]]
    if intent.trend:  # "did it rise or fall from A to B": the later side against the earlier
        first, later = sorted((a, b), key=lambda x: _start(x))
        word = "Increased" if later["value"] > first["value"] else "Decreased"
        what = {"avg": "on average", "sum": "in total", "count": "records"}.get(a["operator"], a["operator"])
        return (f"{word}: from {format_value(first['value'], first.get('unit'))} ({_label(first, question, periods)}) to "
                f"{format_value(later['value'], later.get('unit'))} ({_label(later, question, periods)}) {what}"), [a["unit_id"], b["unit_id"]]
    pick_less = intent.wants_less
    a, b = (_in_asked(x, question) for x in (a, b))
    win, lose = (a, b) if (a["value"] < b["value"]) == pick_less else (b, a)
    what = {"avg": "on average", "sum": "in total", "count": "records"}.get(a["operator"], a["operator"])
    return (f"{_label(win, question, periods)} ({format_value(win['value'], win.get('unit'))} vs "
            f"{format_value(lose['value'], lose.get('unit'))} {what} for {_label(lose, question, periods)})"), [win["unit_id"], lose["unit_id"]]


def _start(agg: dict[str, Any]) -> str:
    dates = [f.get("value") for f in agg.get("filters", []) if f.get("column") == "date"]
    v = dates[0] if dates else ""
    return str(v[0] if isinstance(v, list) else v)


def _label(agg: dict[str, Any], question: str, periods: list[Period]) -> str:
    """What one side of a comparison is, in the question's own words where they name it."""
    filters = [{k: f.get(k) for k in ("column", "op", "value")} for f in agg.get("filters", [])]
    mentioned = [str(f["value"]) for f in filters if f["op"] == "mentions"]
    if mentioned and not any(f["column"] == "date" for f in filters):
        return mentioned[0]
    tables = [{"columns": [{"name": f["column"], "type": "text", "samples": [f["value"]]}
                           for f in filters if f["op"] == "=" and f["column"] != "date"]}]
    for side_filters, label in (compare_sides(question, periods, tables[0]) or []):
        if all(f in filters for f in side_filters):
            return label
    dates = [f for f in filters if f["column"] == "date"]
    if dates and dates[0]["op"] in ("<", "<=", ">", ">=") and re.search(r"\bbefore\b.*\bafter\b|\bafter\b.*\bbefore\b", question, re.I):
        return "before" if dates[0]["op"].startswith("<") else "after"  # "before or after my GP raised the dose"
    if dates:
        v = dates[0]["value"]
        return " to ".join(v) if isinstance(v, list) else str(v)
    texts = [str(f["value"]) for f in filters if f["op"] == "="]
    return texts[0] if texts else agg["table"]
