"""What the tables of the planning context can answer: the column a question is about, a text
column named by a noun, a column told by a quantity's unit, a speed from distance and time.

These read only the planning context's table descriptions (columns, units, sampled values), so
intent detection, filters and instantiation can all ask them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from adamm.nodes.rules.plan_words import word_stem
from adamm.nodes.rules.terms import is_title
from adamm.stores.bm25 import STOPWORDS
from adamm.stores.quantities import dimension_of, find_quantities

#: Below this match score a column is not trusted to be what the question is about.
MIN_COLUMN_SCORE = 0.42


@dataclass
class Target:
    """The (table, column) a question is about, how well it matched, and the table's columns."""

    table: str
    column: str | None
    unit: str | None
    score: float
    columns: list[dict[str, Any]] = field(default_factory=list)


def column_by_unit(text: str, table: dict[str, Any]) -> Target | None:
    """The one numeric column whose unit is of the dimension of a quantity the text states."""
    for _, _, q in find_quantities(text):
        if not q.dimension:
            continue
        cols = [c for c in table["columns"] if c["type"] != "text" and dimension_of(c.get("unit")) == q.dimension]
        if len(cols) == 1:
            return Target(table["name"], cols[0]["name"], cols[0].get("unit"), 1.0, table["columns"])
    return None


def named_text_column(table: dict[str, Any], noun: str) -> str | None:
    """The text column a noun names ("station" -> merchant, whose values were written "at the X
    station"), by its name or an alias, if it holds values."""
    stem = word_stem(noun.lower().rstrip("s")) if noun.lower().endswith("s") and not noun.lower().endswith("ss") else word_stem(noun.lower())
    for c in table["columns"]:
        if c["type"] == "text" and stem and (c.get("values") or c.get("samples")) and any(
                stem in {word_stem(w) for w in n.split("_")} for n in [c["name"], *(c.get("aliases") or [])]):
            return c["name"]
    return None


def said_text_column(table: dict[str, Any], noun: str) -> str | None:
    """The text column whose values the memory says ``noun`` with most (``said_with``, see
    ``nodes/planning.py``), when one does clearly more than the others - unless the noun names
    one of the table's measured columns ("what reesh did my Staitmin session have": the reesh)."""
    if not noun:
        return None
    stem = word_stem(noun.lower())
    if names_measured_column(table, noun):
        return None
    said = sorted(((c.get("said_with") or {}).get(stem, 0), c["name"]) for c in table["columns"]
                  if c["type"] == "text" and (c.get("values") or c.get("samples")))
    if said and said[-1][0] > 0 and (len(said) == 1 or said[-1][0] > said[-2][0]):
        return said[-1][1]
    return None


def names_measured_column(table: dict[str, Any], noun: str) -> bool:
    """Is ``noun`` a word of one of the table's numeric columns' names or aliases ("skep", "sleep")?"""
    stem = word_stem(noun.lower())
    return any(stem in {word_stem(w) for n in [c["name"], *(c.get("aliases") or [])] for w in n.lower().split("_")}
               for c in table["columns"] if c["type"] in ("int", "float"))


#: Nouns that ask for a category, not for a thing by its name ("which kind of ride").
KIND_NOUNS = frozenset({"kind", "type", "sort", "category", "variety", "style", "class"})
#: A column of names: at least this share of its values written as names (:func:`is_title`).
NAMES_SHARE = 0.6


def asks_for_a_name(noun: str) -> bool:
    """Does "which <noun>" ask for a thing by its name - not for a category ("which kind"), and
    with a noun at all ("what was ...")? Pure."""
    low = noun.lower()
    return bool(low) and low not in KIND_NOUNS and low not in STOPWORDS


def names_column(table: dict[str, Any], noun: str) -> str | None:
    """The one text column whose values are names written as names ("Ashby Café Run", "The
    Sunken Throne of Veyra"), for "which <noun>" when no column is called so: a route, a book, a
    client is asked for by its name, whatever the memory calls the thing. None for a noun that
    asks for a category ("which kind"), names a measured column, or is a function word ("what
    was ...")."""
    if not asks_for_a_name(noun) or names_measured_column(table, noun):
        return None
    found = []
    for c in table["columns"]:
        values = {str(v).strip() for v in c.get("values") or c.get("samples") or [] if str(v).strip()}
        if c["type"] == "text" and len(values) >= 2 and sum(is_title(v) for v in values) >= NAMES_SHARE * len(values):
            found.append(c["name"])
    return found[0] if len(found) == 1 else None


def called_text_column(table: dict[str, Any], noun: str) -> str | None:
    """The text column the noun names (:func:`named_text_column`), else the one whose values
    the memory calls so (:func:`said_text_column`)."""
    return named_text_column(table, noun) or said_text_column(table, noun)


def text_column(table: dict[str, Any], noun: str) -> str | None:
    """The text column a noun names (:func:`named_text_column`), else the one column of names
    (:func:`names_column`), else the one whose values the memory says that noun with most
    (``said_with``: "my glimmets: Vashti, Oremko ..."), else the text column holding the most
    values."""
    texts = [c for c in table["columns"] if c["type"] == "text"]
    called = named_text_column(table, noun) or names_column(table, noun) or said_text_column(table, noun)
    if called:
        return called
    filled = [c for c in texts if c.get("values") or c.get("samples")]
    filled.sort(key=lambda c: -len({str(v).strip().lower() for v in c.get("values") or c.get("samples") or []}))
    return filled[0]["name"] if filled else None


_SPEED_WORDS = re.compile(r"\b(?:fastest|slowest|quickest|speediest)\b", re.I)


def speed_expression(question: str, table: dict[str, Any]) -> str | None:
    """"my fastest run" over a table of distances and durations with no speed or pace column:
    the speed of each row, distance over time, in km/h (or mph) - a Rank / Compute expression."""
    if not _SPEED_WORDS.search(question):
        return None
    cols = {c["name"]: c for c in table["columns"] if c["type"] != "text"}
    dims = {n: dimension_of(c.get("unit")) for n, c in cols.items()}
    if any(d in ("speed", "pace") for d in dims.values()):
        return None  # the table says its speed itself
    dist = next((n for n, d in dims.items() if d == "distance" and cols[n].get("unit") in ("km", "mi")), None)
    time = next((n for n, d in dims.items() if d == "duration" and cols[n].get("unit") in ("h", "min", "s")), None)
    if dist is None or time is None:
        return None
    per_hour = {"h": "", "min": " * 60", "s": " * 3600"}[cols[time]["unit"]]
    return f"{dist} / {time}{per_hour}"
