"""The (table, column) a question is about: the column of the planning context whose words, units
and sampled values best match the question's remaining words (MiniLM cosine plus word overlap).

Besides column names, the words matched are the labels values were written under (``pul``,
``moving time``), units (a unit the question names in words picks the column of that unit; "per
litre" a price) and sampled values, since a question uses the words of the records, not of the
induced schema.

When no column matches well (:data:`adamm.nodes.rules.plan_columns.MIN_COLUMN_SCORE`) the
question goes to retrieval: the rules backend does not guess a table.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from adamm.nodes.rules.plan_columns import Target, called_text_column
from adamm.nodes.rules.plan_filters import value_filters
from adamm.nodes.rules.plan_words import ABBREVIATIONS, GROUP, UNIT_WORDS, focus_words, unit_word, word_stem
from adamm.stores.bm25 import tokenize
from adamm.stores.quantities import canonical_unit, dimension_of, find_quantities
from adamm.stores.timeexpr import Period

#: Column-name words that qualify rather than name a quantity (total_sleep is "sleep").
_QUALIFIERS = {"total", "avg", "average", "mean", "daily", "overall", "net"}


def _column_phrase(table: dict[str, Any], col: dict[str, Any]) -> str:
    words = [ABBREVIATIONS.get(w, w) for w in col["name"].split("_")]
    words += [ABBREVIATIONS.get(w, w) for a in col.get("aliases") or [] for w in a.split("_")]
    table_words = [w for w in table["name"].split("_") if w not in ("log", "table")] + list(table.get("keywords") or [])[:4]
    dim = dimension_of(col.get("unit"))
    extra = UNIT_WORDS.get((dim or "").split(":")[0], "") if dim else ""
    if dim and dim.startswith("currency"):
        extra = "money amount spent spend cost paid price expense expenses purchase bought buy shopping"
    return " ".join([*words, *table_words, extra, col.get("unit") or ""]).strip()


_LENGTHY = re.compile(r"\b(?P<how>how\s+)?(?:long(?:er|est)?|short(?:er|est)?)\b", re.I)
#: "how much time": the question names its answer's dimension, as "how many hours" names a unit.
_TIME_ASKED = re.compile(r"\bhow\s+much\s+time\b", re.I)


def _length_bonus(question: str) -> Any:
    """"longer rides", "my shortest walk": a length - the distance where the records have one,
    else the duration; "how long" is a duration. Returns a scorer of (table, column)."""
    m = _LENGTHY.search(question)
    if m is None or re.search(r"\b(?:time|minutes?|hours?|km|kilomet\w+|miles?|metres?|meters?)\b", question, re.I):
        return lambda table, column: 0.0
    dims = ("duration",) if m.group("how") else ("distance", "duration")

    def bonus(table: dict[str, Any], column: dict[str, Any]) -> float:
        present = {dimension_of(c.get("unit")) for c in table["columns"]}
        wanted = next((d for d in dims if d in present), None)
        return 0.2 if wanted and dimension_of(column.get("unit")) == wanted else 0.0
    return bonus


def _table_stems(table: dict[str, Any]) -> set[str]:
    """What a table's records are about, in words: its columns' names and aliases, its keywords,
    and the words common in its records' own text ("fuel" for the amount of a record with a fuel
    grade, "fill" for records that say "filled up")."""
    words = {w for c in table["columns"] for n in [c["name"], *(c.get("aliases") or [])] for w in n.split("_")}
    words |= set(table.get("keywords") or [])
    vocab = table.get("vocabulary") or {}
    floor = max(2, 0.1 * (table.get("rows") or 0))
    words |= {w for w, n in vocab.items() if n >= floor}
    return {word_stem(w) for w in words if len(w) > 2}


def choose_target(encoder: Any, question: str, periods: list[Period], tables: list[dict[str, Any]], *,
                  numeric: bool = True) -> Target | None:
    """The (table, column) the question is about, or None when nothing matches well enough."""
    # a value that is also a measured column's name ("sleep" of a ``kind`` column beside a
    # ``sleep`` column) stays a word of the question: "my longest sleep" asks for the column
    # - but not an alias that is one of the table's names ("Tasko: 11.1 pelts" gave the measured
    # column the alias "tasko"; "how much time did I put into Tasko" names the vorlet). A
    # lower-case category value stays: "freestyle 400 m" labels the distance as well
    held = {str(v).strip().lower() for t in tables for c in t["columns"] if c["type"] == "text"
            for v in c.get("values") or [] if str(v).strip()[:1].isupper()}
    measured = {n.replace("_", " ").lower() for t in tables for c in t["columns"] if c["type"] in ("int", "float")
                for n in [c["name"], *(a for a in c.get("aliases") or [] if a.replace("_", " ").lower() not in held)]}
    named = [str(f["value"]) for t in tables for f in value_filters(question, t) if str(f["value"]).lower() not in measured]
    focus = focus_words(question, periods, named)
    if not focus or not tables:
        return None
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = [
        (t, c) for t in tables for c in t["columns"] if not numeric or c["type"] in ("int", "float")]
    if not pairs:
        return None
    phrases = [_column_phrase(t, c) for t, c in pairs]
    asked_units = _asked_units(question)
    # a name the question filters on says nothing of what is asked ("the Marlowe shop migration")
    asked = re.sub("|".join(re.escape(n) for n in sorted(set(named), key=len, reverse=True)), " ", question, flags=re.I) if named else question
    money = _MONEY_WORDS.search(asked) is not None
    paid = re.search(r"\b(?:cost|costs|spen[dt]|pa(?:y|id)|price[ds]?)\b", asked, re.I) is not None  # what it cost, whatever it was of
    length = _length_bonus(question)
    vecs = encoder.encode([" ".join(focus), *phrases])
    q = vecs[0]
    fstems = {word_stem(w) for w in focus}
    said = {t["name"]: len(fstems & _table_stems(t)) / len(fstems) for t in tables}
    # "how many coffees did I have on average, on days I slept under 6 hours": what "how many"
    # counts is the target, whatever the condition names
    many = _HOW_MANY.search(question)
    counted = {word_stem(w.lower()) for w in many.groups() if w} if many else set()
    best: Target | None = None
    for (t, c), phrase, v in zip(pairs, phrases, vecs[1:]):
        pstems = {word_stem(w) for w in tokenize(phrase)}
        overlap = len(fstems & pstems) / len(fstems)
        name = {word_stem(w) for w in tokenize(" ".join(ABBREVIATIONS.get(w, w) for w in c["name"].split("_")))}
        name -= _QUALIFIERS
        raw = {word_stem(w) for w in c["name"].split("_")} - _QUALIFIERS
        if len(fstems & raw) > len(fstems & name):
            name = raw
        name_hit = len(fstems & name) / len(fstems)
        # "sleep" means the column named sleep, not sleep_score: name words the question does
        # not say count against a column
        name_precision = len(fstems & name) / len(name) if name else 0.0
        for alias in c.get("aliases") or []:  # a label the values were written under ("pulse" for heart_rate)
            words_ = {word_stem(w) for w in tokenize(" ".join(ABBREVIATIONS.get(w, w) for w in alias.split("_")))} - _QUALIFIERS
            if words_ and len(fstems & words_) / len(fstems) > name_hit:
                name_hit, name_precision = len(fstems & words_) / len(fstems), len(fstems & words_) / len(words_)
        score = (float(np.dot(q, v)) + 0.35 * overlap + 0.25 * name_hit + 0.25 * name_precision + 0.2 * said[t["name"]]
                 + _value_bonus(question, t) + _unit_bonus(asked_units, c.get("unit"))
                 + ((0.3 if paid else 0.15) if money and (dimension_of(c.get("unit")) or "").startswith("currency:") else 0.0)
                 + length(t, c) + (HOW_MANY_BONUS if counted & name else 0.0))
        if best is None or score > best.score:
            best = Target(t["name"], c["name"], c.get("unit"), score, t["columns"])
    if best is not None and paid and not (dimension_of(best.unit) or "").startswith(("currency:", "price:")):
        # "how much did electricity cost me": the money paid, in the table of what it was paid for
        money_col = next((c for c in best.columns if c["type"] != "text" and (dimension_of(c.get("unit")) or "").startswith("currency:")), None)
        if money_col is not None:
            best = Target(best.table, money_col["name"], money_col.get("unit"), best.score, best.columns)
    return best


#: "how many <noun>" / "how many <word> <noun>"
_HOW_MANY = re.compile(r"\bhow\s+many\s+([A-Za-z-]+)(?:\s+([A-Za-z-]+))?", re.I)
#: The score a column gains when "how many" counts its name.
HOW_MANY_BONUS = 0.4


def _asked_units(question: str) -> set[str]:
    """Units the question names in words ("how many kilometres", "in minutes", "metres of climbing"),
    not quantities it compares against ("shorter than 32 km")."""
    text = question
    for _, _, q in find_quantities(question):
        text = text.replace(q.raw, " ")
    out = {"h", "min", "s"} if _TIME_ASKED.search(text) else set()
    words = re.findall(r"[A-Za-z/€$£%]+", text)
    for i, w in enumerate(words):
        unit = canonical_unit(w.lower()) if len(w) > 1 or w in "%€$£" else None
        if i and (words[i - 1].lower() in ("per", "a", "an", "each") or _PRICED.fullmatch(words[i - 1].lower())):
            # "price per litre", "€1.80 a litre", "my cheapest litre": a price per that unit
            out |= {u for u in _PRICE_UNITS if unit and u.endswith("/" + unit)}
            continue
        if unit_word(w):
            out.add(unit)
    return out


_PRICED = re.compile(r"cheap(?:er|est)?|(?:more\s+)?expensive|pric(?:ey|ier|iest)|dear(?:er|est)?")
_MONEY_WORDS = re.compile(r"\b(?:cheap(?:er|est)?|expensive|pric(?:ey|ier|iest)|cost(?:s|ly)?|paid|pay|spen[dt]|spending|"
                          r"money|bill|fee|purchases?|bought|buy|shop(?:ped|ping)?|transactions?|expenses?)\b|[$€£]\s?\d", re.I)
_PRICE_UNITS = [f"{c}/{u}" for c in ("USD", "EUR", "GBP", "CHF", "CAD", "AUD", "JPY", "CNY", "INR", "KRW", "RUB") for u in ("L", "gal")]


def _unit_bonus(asked: set[str], unit: str | None) -> float:
    if not asked or not unit:
        return 0.0
    if unit in asked:
        return 0.5
    # "how many billable hours": a question that names its answer's unit never sums money
    return 0.3 if dimension_of(unit) in {dimension_of(u) for u in asked} else -0.5


def choose_table(encoder: Any, question: str, periods: list[Period], tables: list[dict[str, Any]]) -> Target | None:
    """For counting: the table whose rows are the things counted ("runs", "games")."""
    focus = focus_words(question, periods)
    if not tables:
        return None
    if not focus:
        return None
    docs = [" ".join([*(w for w in t["name"].split("_") if w != "log"), *(t.get("keywords") or []),
                      *(_column_phrase(t, c) for c in t["columns"])]) for t in tables]
    vecs = encoder.encode([" ".join(focus), *docs])
    fstems = {word_stem(w) for w in focus}
    money = _MONEY_WORDS.search(question) is not None
    group = GROUP.search(question)
    # "how many lasted 45 minutes or longer": the records counted hold a value of that dimension
    compared = {q.dimension for _, _, q in find_quantities(question) if q.dimension and not q.dimension.startswith("currency:")}
    best: Target | None = None
    for t, doc, v in zip(tables, docs, vecs[1:]):
        overlap = len(fstems & {word_stem(w) for w in tokenize(doc)}) / len(fstems)
        vocab = t.get("vocabulary") or {}
        stems = {word_stem(k) for k in vocab}
        said = len([w for w in focus if word_stem(w.lower()) in stems or vocab.get(w.lower().rstrip("s"))]) / len(focus)
        score = float(np.dot(vecs[0], v)) + 0.35 * overlap + _value_bonus(question, t) + 0.45 * said
        if money and any((dimension_of(c.get("unit")) or "").startswith("currency:") for c in t["columns"]):
            score += 0.2  # "my purchases", "which store did I shop at": the records of what was paid
        if group and called_text_column(t, group.group("noun")):
            score += 0.2  # "which store ... most often": the table with a store (merchant) column
        if compared and not compared & {dimension_of(c.get("unit")) for c in t["columns"]}:
            score -= 0.3
        if best is None or score > best.score:
            best = Target(t["name"], None, None, score, t["columns"])
    return best


def _value_bonus(question: str, table: dict[str, Any]) -> float:
    return 0.3 if value_filters(question, table) else 0.0
