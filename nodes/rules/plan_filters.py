"""The rows a question is about, as filters: periods, text values it names, subsets named by the
records' own words, and comparisons with a quantity.

* periods come from the normalized time phrases (``stores.timeexpr``);
* text values are the sampled values of the table's text columns the question names ("on
  groceries", "against the Ravens");
* subsets are runs of question words that occur in some rows' own text but not in nearly all
  ("evening readings", "on the gravel bike", "at PetroLux"), as ``mentions`` filters;
* comparisons ("less than 6 hours") become filters on the column of matching dimension,
  converted into its unit.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from adamm.nodes.rules.facets import vocabulary_values
from adamm.nodes.rules.plan_columns import Target
from adamm.nodes.rules.plan_words import ABBREVIATIONS, COMPARATORS, UNIT_WORDS, mask, word_stem
from adamm.stores.bm25 import tokenize
from adamm.stores.quantities import canonical_unit, convert, dimension_of, find_quantities
from adamm.stores.timeexpr import Period

_VALUE_LEMMAS = {"won": ("win", "won", "wins", "winning", "beat", "victory"), "lost": ("lose", "lost", "loss", "losses", "losing"),
                 "draw": ("draw", "drew", "tie", "tied", "draws")}


def value_pattern(value: Any) -> str:
    """A stored value as whole words of lower-cased text, its plural too: "the ravens" in
    "against the ravens?", not in "ravenscroft"; "paperback" in "in paperbacks"."""
    return rf"(?<![a-z0-9]){re.escape(str(value).lower())}(?:e?s)?(?![a-z0-9])"


def first_words(values: Iterable[Any]) -> Counter:
    """How many distinct stored values open with each first word (lower case); a possessive is
    the same value ("Halvorsen Dental's" is "Halvorsen Dental"). For :func:`short_name`."""
    distinct = {re.sub(r"['’]s$", "", str(v).strip().lower()) for v in values}
    return Counter(v.split()[0] for v in distinct if v.split())


def short_name(value: str, question: str, values: Iterable[str] | Counter) -> re.Match[str] | None:
    """Where the question calls a stored name of several words by its first word alone, as
    people do ("Bluefin" for "Bluefin Logistics"): written capitalised, at least four letters,
    in the question (not as its first word), and the first word of no other stored value.
    ``values``: the stored values, or their :func:`first_words` counted once for many calls."""
    words = str(value).split()
    if len(words) < 2 or not words[0][:1].isupper() or len(words[0]) < 4 or not words[0].isalpha() or words[0] not in question:
        return None
    firsts = values if isinstance(values, Counter) else first_words(values)
    if firsts.get(words[0].lower(), 0) > 1:
        return None
    m = re.search(rf"(?<![\w'’-]){re.escape(words[0])}(?:['’]s)?(?![\w'’-])", question)
    return m if m is not None and question[:m.start()].strip() else None  # a question's first word is capitalised anyway


def _constant(column: dict[str, Any]) -> bool:
    """A text column that holds one value in every row that has it ("gosting" from "Tuesday's
    gosting sitting: ..."): it says what the records are, not which of them - no subset."""
    values = column.get("values")
    return values is not None and len({str(v).lower() for v in values}) == 1


def names_the_records(question: str, value: str, column: str, table: dict[str, Any]) -> bool:
    """"my gosting sittings" where a sparse column ``sitting`` holds "gosting" for many rows (or
    "my sheeling outings" where ``sheeling`` holds "outing"): the words are what the records are
    called (written "Tuesday's gosting sitting: ..." in one layout, not at all in another), not a
    subset - a column a layout fills, not every record."""
    c = next((c for c in table["columns"] if c["name"] == column), None)
    rows = table.get("rows") or 0
    if c is None or not rows or c.get("filled") is None or c["filled"] >= 0.9 * rows:
        return False
    share = (c.get("counts") or {}).get(value.lower(), 0)
    if share < 0.3 * c["filled"]:
        return False
    noun = re.escape(column.replace("_", " "))
    v = re.escape(value.lower())
    return re.search(rf"\b{v}\s+{noun}(?:e?s)?\b|\b{noun}\s+{v}(?:e?s)?\b", question.lower()) is not None


def value_filters(question: str, table: dict[str, Any]) -> list[dict[str, Any]]:
    """Text values of the table's columns that the question names ("groceries", "the Ravens", "win").

    Longer values are matched first and their words taken out, so "Whole Foods" does not also
    name the category "food"."""
    rows = table.get("rows") or 0
    candidates = [(str(value).strip(), c["name"]) for c in table["columns"] if c["type"] == "text"
                  and not (rows and c.get("filled") is not None and c["filled"] < 0.5 * rows)  # a sparse column undercounts
                  and not _constant(c)
                  for value in (c.get("values") or c.get("samples") or [])]
    # a value stored in several columns ("Balsyn" as a plask, and once misread as a merchant)
    # is the value of the column where it is most often
    counts = {c["name"]: c.get("counts") or {} for c in table["columns"]}
    candidates = sorted({(v, col) for v, col in candidates if v and len(v) <= 60},
                        key=lambda vc: (-len(vc[0]), vc[0].lower(), -counts.get(vc[1], {}).get(vc[0].lower(), 0), vc[1]))
    low = f" {question.lower()} "
    firsts = first_words(v for v, _ in candidates)
    out: list[dict[str, Any]] = []
    done: set[str] = set()
    asked = question.lower()
    for v, col in candidates:
        lv = v.lower()
        pattern = value_pattern(lv)
        if col in done:
            # "stressed or anxious": two values of one column, either of them
            either = next((f for f in out if f["column"] == col and f["op"] in ("=", "in")), None)
            if either is not None and any(_alternatives(asked, str(w), lv) for w in _listed(either["value"])):
                either["op"], either["value"] = "in", [*_listed(either["value"]), v]
            continue
        named = re.search(pattern, low) is not None
        if named:
            low = re.sub(pattern, " ", low)
        elif short_name(v, question, firsts):
            named = True
        else:
            words = set(tokenize(low))
            if lv in _VALUE_LEMMAS:
                named = bool(words & set(_VALUE_LEMMAS[lv]))
            if not named and " " not in lv and len(lv) >= 4:
                named = word_stem(lv) in {word_stem(w) for w in words}
        if named and names_the_records(question, v, col, table):
            continue
        if named and undercounts(v, counts.get(col, {}).get(lv, 0), table):
            out.append({"column": "captions", "op": "mentions", "value": lv})
            done.add(col)
        elif named:
            out.append({"column": col, "op": "=", "value": v})
            done.add(col)
    for f in vocabulary_values(question):  # "audiobooks", "on the e-reader": a stored value in other words
        for v, col in candidates:
            if col not in done and v.lower() == f.value.lower():
                out.append({"column": col, "op": "=", "value": v})
                done.add(col)
                break
    return out


def _listed(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _alternatives(question: str, a: str, b: str) -> bool:
    """Does the (lower-case) question name ``a`` and ``b`` side by side as alternatives ("stressed
    or anxious", "tomatoes, beans or peas")? Pure."""
    sep = r"(?:e?s)?\s*(?:,\s*|\s)(?:(?:and|or)\s+)?(?:(?:the|a|an|my)\s+)?"
    x, y = re.escape(a.lower()), re.escape(b.lower())
    return re.search(rf"(?<![a-z0-9]){x}{sep}{y}(?![a-z0-9])|(?<![a-z0-9]){y}{sep}{x}(?![a-z0-9])", question) is not None


#: A column undercounts a value when the rows' own text says it at least this many times as
#: often as the column holds it (and in at least :data:`MIN_SUBSET_ROWS` more rows).
UNDERCOUNT_RATIO = 2.0


def undercounts(value: str, held: int, table: dict[str, Any]) -> bool:
    """Does the column hold ``value`` for far fewer rows than write it? "Crop: Courgettes" in one
    app screenshot fills the column once, while ten notes say "picked 3 courgettes": the
    question's subset is then the rows that say the word, not the one row that filled the
    column. Judged on the table's own vocabulary; a value of several words by its rarest."""
    vocab: dict[str, int] = table.get("vocabulary") or {}
    words = [w for w in re.findall(r"[a-z0-9]+", value.lower()) if len(w) > 1]
    if not vocab or not words:
        return False
    said = min(_rows_saying(vocab, w) for w in words)
    return said >= UNDERCOUNT_RATIO * max(held, 1) and said >= held + MIN_SUBSET_ROWS


#: Words that join or scope a phrase: a run of question words ends at them.
_PREPOSITIONS = {"on", "at", "in", "with", "for", "from", "by", "of", "to", "during", "about", "into", "onto", "inside",
                 "outside", "near", "around", "through", "toward", "towards"}
_RUN_BREAKS = _PREPOSITIONS | {"and", "or", "did", "do", "does", "was", "were", "is", "are", "i", "my", "me", "the", "a", "an",
                               "what", "which", "how", "many", "much", "when", "that", "than", "had", "have", "has",
                               "log", "logged", "take", "took", "get", "got", "any", "all", "across", "overall", "per",
                               "each", "every", "single", "one", "time", "times", "day", "days", "month", "months", "week",
                               "weeks", "share", "percentage", "percent", "proportion", "average", "total", "most", "least",
                               "often", "last", "first", "recent", "longest", "shortest", "highest", "lowest", "biggest",
                               "smallest", "more", "less", "higher", "lower", "list", "value", "values", "number", "kind"}


#: Subject pronouns: the word right after one in a question is its verb ("did I *pick*", "have we *sent*").
_SUBJECTS = {"i", "we", "you", "he", "she", "they"}
_POPULATION = {"a", "an", "any", "each", "every", "per", "my", "one", "single", "mine", "all"}
#: Comparatives and common verbs of questions end a run of words ("a ride *shorter* than", "a reading *show*").
_COMPARATIVE_VERBS = set("""shorter longer higher lower bigger smaller faster slower cheaper pricier heavier lighter greater
fewer earlier later better worse show shows take takes go goes reach reaches hit hits cost costs pay pays spend spends give
gives read reads keep keeps""".split())
_ARTICLES = {"the", "a", "an", "my", "our", "his", "her", "their", "your", "this", "these", "those"}
_FUNCTION_WORDS = _ARTICLES | {"i", "we", "you", "it", "be", "been", "being", "am", "so", "if", "then", "there", "where", "who",
                               "whom", "whose", "into", "onto", "up", "down", "out", "over", "under", "after", "before",
                               "since", "until", "between", "within", "without", "ever", "also", "just", "only", "still",
                               "counting", "where", "noted", "spend", "spent", "get", "go", "went", "put", "give", "gave",
                               "buy", "bought", "purchase", "purchased", "something", "anything", "play", "played",
                               "above", "below", "beneath", "exceed", "exceeding", "exceeded"}  # comparators: what a value is, no subset


def mention_filters(question: str, periods: list[Period], table: dict[str, Any], *, skip: set[str] = frozenset(),
                    whole: bool = False) -> list[dict[str, Any]]:
    """Subsets the question names by words of the records themselves, as ``mentions`` filters
    on the rows' own text: "evening readings", "on the gravel bike", "at PetroLux", "group rides".

    The question is cut into runs of content words. A run after a preposition names a subset
    whole ("on the gravel bike"); otherwise its last word is the thing counted or measured
    ("evening *readings*") and the words before it name the subset; a capitalized name always
    counts. Words of the table's columns and units, of ``skip`` (the target, values already
    used), and runs joined by "and"/"or" ("reading and listening sessions": all of them) are
    left out. A phrase is kept when every word occurs in some rows of the table but not in
    nearly all of them (then it names no subset). ``whole``: the question part is a predicate
    ("were commutes"), every word of it counts.
    """
    vocab: dict[str, int] = table.get("vocabulary") or {}
    total = max(int(table.get("rows") or 0), 1)
    if not vocab:
        return []
    text = mask(question, [p.span for p in periods])
    for _, _, q in find_quantities(text):
        text = text.replace(q.raw, " ")
    # "spent on the car": what the money went to is the memory's subject, named as a subset
    # only by a stored value (value_filters), never by the records' words
    text = mask(text, [m.span("obj") for m in _SPENT_ON.finditer(text)])
    tokens = [t for t in re.findall(r"[A-Za-z][A-Za-z0-9'’]*(?:-[A-Za-z][A-Za-z0-9'’]*)*|\d+[A-Za-z]*|[.,;:?!]", text)
              if len(t) > 1 or t in ".,;:?!" or t == "I"]
    column_words = {word_stem(w) for c in table["columns"] for n in [c["name"], *(c.get("aliases") or [])]
                    for w in " ".join(ABBREVIATIONS.get(x, x) for x in n.split("_")).split()} | {word_stem(w) for w in skip}
    # "on runs" over ``run_log``: what every row is, no subset of them
    column_words |= {word_stem(w) for w in str(table.get("name") or "").split("_") if w not in ("log", "") and not w.isdigit()}
    runs: list[tuple[list[str], str | None, bool]] = []  # (words, word before the run, joined by and/or)
    current: list[str] = []
    before: str | None = None
    start_before: str | None = None
    breaks: list[str] = []
    population = False
    for tok in tokens + ["."]:
        low = tok.lower().replace("’", "'")
        if low in _RUN_BREAKS or low in _FUNCTION_WORDS or low in _COMPARATIVE_VERBS or not tok[0].isalnum() \
                or re.fullmatch(r"[a-z]+ed", low):
            if current:
                runs.append((current, "population" if population else start_before,
                             start_before in ("and", "or") or low in ("and", "or")))
                current = []
            if low not in _ARTICLES or before is None:
                before = low  # "on the gravel bike": the preposition, not the article, scopes the run
            breaks.append(low)
            continue
        if not current:
            start_before = before
            # "my readings", "a ride", "any session", "per fill-up": the records themselves
            population = bool(set(breaks) & _POPULATION)
            breaks = []
        current.append(tok)
    out: list[dict[str, Any]] = []
    for words, prep, joined in runs:
        if joined:
            continue
        if prep in _SUBJECTS and not words[0][0].isupper():
            words = words[1:]  # "have I sent Halvorsen": the word after the subject is its verb
            if not words:
                continue
        names = [w for w in words if w[0].isupper() or any(ch.isdigit() for ch in w)]
        if prep == "population" and not whole:
            # "a single tending run to an hour": a word no record says ends the run as a verb
            # would, and the record's noun is the word before it
            while len(words) > 1 and not words[-1][0].isupper() and _rows_saying(vocab, words[-1]) == 0:
                words = words[:-1]
            if word_stem(words[-1].lower()) in column_words or canonical_unit(words[-1].lower()) is not None \
                    or words[-1].lower() in _MEASURE_NOUNS:
                continue  # "my run distance": what is measured, of the table's own records
            chosen = words[:-1] if len(words) > 1 else names  # "my gravel-bike rides": the modifier still names a subset
        elif whole or (prep in _PREPOSITIONS and prep != "of") or names == words or (
                prep == "of" and _after_unit(text, words[0])):
            measured_at = next((i for i, w in enumerate(words) if word_stem(w.lower()) in column_words), None)
            # "with a systolic reading of 140": the words after what is measured name the record
            chosen = words if measured_at is None or whole else words[:measured_at]
        else:
            chosen = words[:-1] or names
        chosen = [w for w in chosen if word_stem(w.lower()) not in column_words and canonical_unit(w.lower()) is None]
        # "my golgoking sessions", "on deening shifts": a modifier the records always write
        # before their noun ("golgoking session", never "<another word> session") is, with the
        # noun, what they are called - no subset of them
        called = {w for a, b in zip(words, words[1:]) if not a[0].isupper()
                  and _constant_modifier(table.get("pairs") or {}, a, b) for w in (a, b)}
        chosen = [w for w in chosen if w not in called]
        if not chosen:
            continue
        counts = [_rows_saying(vocab, w) for w in [part for word in chosen for part in word.split("-") if len(part) > 1]]
        if not counts:
            continue
        if min(counts) == 0 or min(counts) >= 0.9 * total:
            continue
        if min(counts) < MIN_SUBSET_ROWS and not any(w[0].isupper() or any(ch.isdigit() for ch in w) for w in chosen):
            continue  # "my cheapest litre of fuel" where one record says "fuel": a word, no subset
        out.append({"column": "captions", "op": "mentions", "value": " ".join(w.lower() for w in chosen)})
    return out


#: A subset named by lower-case words holds at least this many rows: a common word one record
#: happens to say ("fuel", "today") names no part of the log; a name or a number may.
MIN_SUBSET_ROWS = 2


#: A modifier written in at least this share of the pairs "<word> <noun>" of a table's rows
#: is part of what the records are called, no subset of them.
CONSTANT_MODIFIER_SHARE = 0.8


def _constant_modifier(pairs: dict[str, int], modifier: str, noun: str) -> bool:
    """Do the records write ``modifier`` (nearly) every time they write ``noun``? Pure."""
    nouns = {noun.lower(), word_stem(noun.lower())}
    mod = {modifier.lower(), word_stem(modifier.lower())}
    before: dict[str, int] = {}
    for pair, n in pairs.items():
        a, _, b = pair.partition(" ")
        if len(a) < 2 or a.isdigit() or a in _RUN_BREAKS or a in _FUNCTION_WORDS:
            continue  # "Tuesday's batch" tokenized, "one row per session": no modifier
        if b in nouns or word_stem(b) in nouns:
            before[a] = before.get(a, 0) + n
    total = sum(before.values())
    said = sum(n for a, n in before.items() if a in mod or word_stem(a) in mod)
    return total >= 2 and said >= CONSTANT_MODIFIER_SHARE * total


def _rows_saying(vocab: dict[str, int], word: str) -> int:
    """How many of a table's rows say ``word`` (or its singular or stem)."""
    low = word.lower().replace("’", "'")
    keys = {low, low.rstrip("s"), word_stem(low)} | {k for k in (low.split("'")[0],) if k}
    return max((vocab.get(k, 0) for k in keys), default=0)


_SPENT_ON = re.compile(r"\b(?:spen[dt]|spending|pa(?:y|id)|paying|cost)\s+(?:\w+\s+)?(?:on|for)\s+(?:the\s+|my\s+|a\s+)?(?P<obj>[\w-]+)", re.I)


#: Nouns that name what is measured of a record, whatever the column is called ("my average
#: fill-up size": the size of my fill-ups, not the fill-ups that mention a fill-up).
_MEASURE_NOUNS = frozenset("""size amount cost price length duration distance time number count value weight speed
pace total sum level reading score""".split())


def _after_unit(text: str, word: str) -> bool:
    """Does ``word`` follow "<unit> of" ("minutes of audiobooks")? Then its run names a subset."""
    m = re.search(rf"\b(\w+)\s+of\s+(?:the\s+|my\s+)?{re.escape(word)}", text)
    return bool(m and canonical_unit(m.group(1).lower()))


def linked_filters(question: str, table: dict[str, Any], tables: list[dict[str, Any]], *,
                   skip: set[str] = frozenset()) -> list[dict[str, Any]]:
    """Values the question names that another table holds, as conditions on that table linked
    to ``table`` by a column both have: "pages of memoir" over reading sessions is the sessions
    whose book was started as a memoir.

    The link is the shared text column that identifies the other table's rows best (most
    distinct values per filled row - a title, not a format), and only when the two tables
    share some of its values; a value whose words ``skip`` holds (already a filter) or whose
    column ``table`` itself has is left alone."""
    mine = {c["name"]: c for c in table["columns"]}
    out: list[dict[str, Any]] = []
    for other in tables:
        if other["name"] == table["name"]:
            continue
        named = [f for f in value_filters(question, other) if f["column"] not in mine
                 and not set(tokenize(str(f["value"]))) <= skip]
        via = link_column(table, other, {f["column"] for f in named}) if named else None
        if via is not None:
            out.extend({**f, "table": other["name"], "via": via} for f in named if f["column"] != via)
    return out


def link_column(table: dict[str, Any], other: dict[str, Any], exclude: set[str]) -> str | None:
    """The text column of both tables that identifies ``other``'s rows, or None."""
    mine = {c["name"]: c for c in table["columns"] if c["type"] == "text"}
    best, best_score = None, 0.8  # nearly a value per row: an identifier (a title), not a category (a format)
    for c in other["columns"]:
        if c["type"] != "text" or c["name"] not in mine or c["name"] in exclude:
            continue
        values = c.get("values") or []
        theirs = {str(v).strip().lower() for v in values}
        ours = {str(v).strip().lower() for v in mine[c["name"]].get("values") or []}
        # fifty distinct values is no category either, whatever the rows (the planner's value
        # lists are cut, so a long one undercounts)
        score = 1.0 if len(theirs) >= 50 else len(theirs) / max(int(c.get("filled") or 0), 1)
        if theirs & ours and score > best_score:
            best, best_score = c["name"], score
    return best


def subset_filters(question: str, periods: list[Period], table: dict[str, Any], column: str | None = None,
                   tables: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The rows a question is about: values of text columns it names, then values of a linked
    table's columns (``tables``: the memory's other tables, see :func:`linked_filters`), then
    subsets named by the records' own words (see :func:`mention_filters`)."""
    named = value_filters(question, table)
    if column:
        # "how much electricity did I use / did electricity cost": the word names what the table
        # measures (its kWh column), not the rows whose category it is
        dims = {dimension_of(c.get("unit")) for c in table["columns"] if c["type"] != "text"}
        measured = {w for d in dims for w in UNIT_WORDS.get(d or "", "").split()}
        naming = {v.value.lower() for v in vocabulary_values(question) if set(tokenize(question[v.start:v.end])) & measured}
        named = [f for f in named if str(f["value"]).lower() not in naming]
        # "my longest sleep" beside a ``kind`` column holding "sleep": the word is the column asked for
        named = [f for f in named if str(f["value"]).lower().replace(" ", "_") != column.lower()]
    skip = {w for f in named for w in tokenize(str(f["value"]))} | set((column or "").split("_"))
    values = {str(f["value"]).lower() for f in named}
    skip |= {w for f in vocabulary_values(question) if f.value.lower() in values for w in tokenize(question[f.start:f.end])}
    if tables:
        named += linked_filters(question, table, tables, skip=skip)
        skip |= {w for f in named for w in tokenize(str(f["value"]))}
    return named + mention_filters(question, periods, table, skip=skip)


#: "€1.80 or more a litre": a price per litre, not one litre
_PER_UNIT = re.compile(r"[$€£]\s?\d[\d.,]*(?:\s?(?:EUR|USD|GBP))?(?:\s+(?:or\s+)?(?:more|less|above|below|over|under|higher|lower))?\s+"
                       r"(?P<a>an?)\s+(?:litre|liter|gallon)\b", re.I)
_ONE_UNIT = re.compile(r"(\b(?:an?|one))\s+([a-z]{2,})\b", re.I)


def _one_unit(m: re.Match[str]) -> str:
    """"more than a kilo", "over an hour": one of the unit ("1 kilo"); other words stay."""
    if canonical_unit(m.group(2).lower()) is not None and m.group(2).lower() != "in":
        return f"{m.group(1)[:-len(m.group(1).split()[-1])]}1 {m.group(2)}"
    return m.group(0)


def with_one_units(text: str) -> str:
    """"over an hour" -> "over 1 hour": a unit word after "a" / "an" / "one" as one of it."""
    return _ONE_UNIT.sub(_one_unit, text)


#: Between a quantity and "or more" / "or less": what it is of ("8 hours of sleep or more").
_OF_THING = re.compile(r"\s+of\s+(?:[A-Za-z'’-]+\s+){1,3}")


def condition_filters(question: str, periods: list[Period], target: Target) -> list[dict[str, Any]]:
    """Comparisons with a quantity, as filters on the column of matching dimension (in its unit)."""
    text = _PER_UNIT.sub(lambda m: m.group().replace(m.group("a"), "per"), mask(question, [p.span for p in periods]))
    text = _ONE_UNIT.sub(_one_unit, text)
    quantities = find_quantities(text)
    out = []
    for pattern, op in COMPARATORS:
        for m in pattern.finditer(text):
            after = [(s, q) for s, _, q in quantities if 0 <= s - m.end() <= 3] or \
                    [(s, q) for s, e, q in quantities if op in (">=", "<=") and (
                        0 <= m.start() - e <= 3 or _OF_THING.fullmatch(text, e, m.start()))]
            if not after:
                continue
            q = after[0][1]
            column, unit = target.column, target.unit
            start = after[0][0]
            per = re.match(r"[^\s]*(?:\s+(?:or\s+)?(?:more|less|above|below|over|under|higher|lower))?\s*(?:a|per|/|each)\s*"
                           r"(litre|liter|l|gallon|gal)\b", text[start:start + len(q.raw) + 28], re.I)
            if q.dimension and q.dimension.startswith("currency:") and per:
                priced = [c for c in target.columns if (c.get("unit") or "").startswith(q.unit or "") and "/" in (c.get("unit") or "")]
                if priced:
                    out.append({"column": priced[0]["name"], "op": op, "value": round(q.value, 6)})
                    continue
            if q.unit is not None:
                same = [c for c in target.columns if c.get("unit") and dimension_of(c["unit"]) == q.dimension]
                if target.unit and dimension_of(target.unit) == q.dimension:
                    same = [c for c in target.columns if c["name"] == target.column]
                if same:
                    column, unit = same[0]["name"], same[0]["unit"]
            if column is None:
                continue
            value = q.value
            if q.unit and unit and q.unit != unit:
                try:
                    value = convert(q.value, q.unit, unit)
                except (ValueError, KeyError):
                    pass
            out.append({"column": column, "op": op, "value": round(value, 6)})
    return out


def period_filters(periods: list[Period]) -> list[dict[str, Any]]:
    return [p.to_filter() for p in periods if p.start is not None or p.end is not None]
