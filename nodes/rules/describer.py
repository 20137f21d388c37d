"""The ``rules`` describer: names, descriptions and column types of discovered tables.

A table is named after the word its measured attributes' names share most (``total_sleep``,
``deep_sleep``, ``sleep_score`` -> ``sleep_log``); with no shared word, after its most
frequently observed measured attribute (a categorical column - a book, a time of day - names
no table). Types come from the sampled values: all numbers -> float, else
text. The description says what a row holds, with units, so planners (and people) can pick the
table from its metadata alone.
"""

from __future__ import annotations

import re

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from adamm.nodes.rules.slots import content_stem, is_content_word
from adamm.stores.attributes import QUALIFIERS
from adamm.stores.quantities import snake_case

#: Words too generic to name a table after.
GENERIC = QUALIFIERS | {"score", "count", "rate", "time", "value", "amount", "number", "level", "of", "in", "per", "min", "max",
                        "for", "against"}


@dataclass
class ColumnSample:
    name: str
    unit: str | None
    values: list[float | str]  # sampled values (numbers or texts)
    observations: int


@dataclass
class TableDescription:
    name: str
    description: str
    types: dict[str, str]  # column -> float | int | text | datetime


def infer_type(values: Sequence[float | str]) -> str:
    numeric = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return "float" if values and len(numeric) == len(values) else "text"


#: Share of a table's rows whose own text must say a word for the word to name the table.
RECORD_WORD_SHARE = 0.6
#: A word of the text, not a piece of a unit or a code ("mg/dL", "E10", "x2").
_WORD = re.compile(r"(?<![/\w'’-])[A-Za-z][A-Za-z'’-]*[A-Za-z](?![/\w])")


def record_word(texts: Sequence[str], skip: frozenset[str] = frozenset()) -> str | None:
    """The content word most of a table's rows say themselves ("run" for rows that read "Watch
    photo after the run", "Run done!"), or None. Function words, calendar words, units and the
    words of ``skip`` (field names and qualifiers: "Category: groceries" is in every row of
    payments) name nothing: the word comes from the memory's text, not from a list of
    activities."""
    if not texts:
        return None
    seen: Counter = Counter()
    for t in texts:
        seen.update({content_stem(w) for w in _WORD.findall(t) if is_content_word(w)} - skip)
    if not seen:
        return None
    word, n = min(seen.items(), key=lambda kv: (-kv[1], kv[0]))
    return word if n >= RECORD_WORD_SHARE * len(texts) else None


#: Share of a table's rows whose text writes a field's name as their noun, for that name to be
#: the rows' noun rather than a label.
KIND_SHARE = 0.3


def _noun_of_rows(name: str, texts: Sequence[str]) -> bool:
    """Is a one-word field name the noun most rows are written with, after words that vary ("a
    training ride", "a group ride", "Zarkel ride card") - no label, which a colon follows
    ("Category: groceries")? Pure."""
    if "_" in name or not texts:
        return False
    before: Counter = Counter()
    colon = said = 0
    for t in texts:
        for m in re.finditer(rf"(\w+)\s+{re.escape(name)}s?\b(\s*:)?", t, re.I):
            said += 1
            colon += bool(m.group(2))
            if is_content_word(m.group(1)):
                before[m.group(1).lower()] += 1
    return said >= KIND_SHARE * len(texts) and colon * 2 < said and sum(1 for n in before.values() if n >= 2) >= 2


def table_name(columns: Sequence[ColumnSample], taken: set[str], texts: Sequence[str] = (),
               labels: frozenset[str] = frozenset()) -> str:
    """``labels``: the memory's attribute names and aliases ("Category groceries" in every row of
    payments is a label, not what a row is), left out of the record word with the columns' own."""
    # "a training ride", "a group ride": a field of kinds named after the rows' own noun leaves
    # that noun to name the rows ("ride_log"), as it would without the field (every column is
    # one of the memory's attributes, so ``labels`` holds its name)
    kinds = {n for n in labels if _noun_of_rows(n, texts)}
    named = frozenset(content_stem(w) for n in (*(c.name for c in columns), *labels) if n not in kinds for w in n.split("_")) | GENERIC
    measured = [c for c in columns if infer_type(c.values) != "text"]
    if measured and any(w not in GENERIC for c in measured for w in c.name.split("_")):
        columns = measured  # a row is named by what it measures, not by its book or time of day
    words = Counter(w for c in columns for w in set(c.name.split("_")) if w not in GENERIC and not w.isdigit())
    shared = [w for w, n in words.most_common() if n >= 2]
    word = record_word(texts, named)
    if shared:
        base = shared[0]  # total_sleep, deep_sleep -> sleep
    elif word:
        base = word  # deep, rem, sleep_score of rows that say "sleep"; distance, duration of runs
    else:
        top = max(measured or columns, key=lambda c: (c.observations, c.name))  # a category names no table
        base = next((w for w in top.name.split("_") if w not in GENERIC), top.name.split("_")[0])
    base = snake_case(base) or "record"  # a word of the memory's own ("dram-vel") as an identifier
    base = (base if base[0].isalpha() else f"t_{base}")[:36] + "_log"
    name, i = base, 2
    while name in taken:
        name, i = f"{base}_{i}", i + 1
    return name


def describe_table(columns: Sequence[ColumnSample], taken: set[str], first_seen: str | None, rounds: int,
                   texts: Sequence[str] = (), labels: frozenset[str] = frozenset()) -> TableDescription:
    name = table_name(columns, taken, texts, labels)
    description = rules_description([(c.name, c.unit) for c in columns])
    return TableDescription(name, description, {c.name: infer_type(c.values) for c in columns})


RULES_PREFIX = "One row per logged record of "


def rules_description(columns: Sequence[tuple[str, str | None]]) -> str:
    """What a row is, from the columns; the live size and date range are appended by
    :func:`with_span` whenever rows change."""
    parts = [name.replace("_", " ") + (f" ({unit})" if unit else "") for name, unit in columns]
    return f"{RULES_PREFIX}{', '.join(parts)}."


_SPAN = re.compile(r"\s*\(\d+ records?(?:, [^()]*)?\)\s*$")


def with_span(description: str, rows: int, first: str | None, last: str | None) -> str:
    """The description with its live size and date range: "(48 records, 2025-02-03 to 2025-04-24)"."""
    span = f"{rows} record{'s' if rows != 1 else ''}" + (f", {first} to {last}" if first and last else "")
    return f"{_SPAN.sub('', description).rstrip()} ({span})"
