"""The offline planner: intents to tools, names by similarity, dates and conditions by pattern.

It reads a question the way the tool table (DESIGN.md) is organized:

* the **intent** decides the tool and operator - average / total / median / count -> Compute;
  highest / lowest -> Compute max / min (Rank when the question asks *which day*); most recent /
  first -> Compute last / first; "which days ... less than" -> Filter; "A or B" -> two
  Computes; "go up or down" -> Compute trend; anything else -> EventLocate;
* the **target** is the (table, column) of the planning context whose words, units and sampled
  values best match the question's remaining words (MiniLM cosine plus word overlap);
* **filters** come from the normalized periods (``stores.timeexpr``), comparisons with a
  quantity ("less than 6 hours", converted into the column's unit), and sampled text values
  named in the question ("on groceries", "against the Ravens").

When no column matches well the question goes to retrieval: the rules backend does not guess a
table. Each function returns plain data (plan steps, call arguments), and instantiation reads
earlier results, so the progressive loop works the same way as with a model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from adamm.stores.bm25 import tokenize
from adamm.stores.quantities import canonical_unit, convert, dimension_of, find_quantities
from adamm.nodes.rules.facets import PLACE_NOUNS, vocabulary_values
from adamm.stores.timeexpr import Period, find_periods

#: Below this match score a column is not trusted to be what the question is about.
MIN_COLUMN_SCORE = 0.42

# -- intents ----------------------------------------------------------------------------------------

_TREND = re.compile(r"\b(trend\w*|go(?:ing|ne)?\s+up\s+or\s+down|went\s+up\s+or\s+down|up\s+or\s+down|increas\w*\s+or\s+decreas\w*|"
                    r"decreas\w*\s+or\s+increas\w*|improv\w*\s+or\s+(?:get|got|gotten)\s+worse|ris\w*\s+or\s+f[ae]ll\w*)\b", re.I)
_MORE_LESS = r"(?:more|less|higher|lower|better|worse|fewer|longer|shorter|bigger|smaller|greater)"
_COMPARE = re.compile(rf"\b(?:{_MORE_LESS}\b.*\bor\b|compare\w*|versus|vs\.?|(?:which|what)\s+(?:was|is|were)\s+{_MORE_LESS})", re.I)
_COUNT = re.compile(r"\b(how\s+many|how\s+often|number\s+of|count\s+of|how\s+many\s+times)\b", re.I)
_AVERAGE = re.compile(r"\b(average|avg|mean|typical(?:ly)?|per\s+day|on\s+a\s+typical)\b", re.I)
_MEDIAN = re.compile(r"\bmedian\b", re.I)
_SUM = re.compile(r"\b(total|in\s+total|altogether|combined|sum|overall|how\s+much\s+(?:did|does|has|have)\s+(?:[\w-]+\s+){0,3}cost|what\s+did\s+(?:i|we)\s+(?:pay|spend)\s+(?:for|on)|how\s+much\s+(?:did|have|had)\s+(?:i|we)\s+(?:spend|spent|pay|paid|earn|earned|run|ran|walk|walked|cycle|cycled|drive|drove))\b", re.I)
#: "net change", "how much did my weight change (since I started)", "how much weight did I lose":
#: the last value minus the first (Compute delta), over one period at most.
_DELTA = re.compile(
    r"\bnet\s+(?:change|gain|loss)\b|\b(?:change[ds]?|difference)\s+(?:since|from\s+(?:the\s+)?(?:first|start|beginning))\b"
    r"|\bhow\s+much\s+(?:did|has|have|had)\s+(?:my\s+|the\s+|our\s+)?(?:[a-z-]+\s+){0,3}?"
    r"(?:change[d]?|drop(?:ped)?|rise[n]?|rose|go(?:ne)?\s+(?:up|down)|went\s+(?:up|down)|fall(?:en)?|fell|increase[d]?|decrease[d]?|improve[d]?)\b"
    r"|\bhow\s+much\s+(?:[a-z]+\s+)?(?:did|have|had)\s+(?:i|we)\s+(?:lose|lost|gain|gained|drop|dropped|put\s+on)\b", re.I)
_WHICH_DAY = re.compile(r"\b(?:(?:which|what)\s+(?:day|date|night|morning|evening)|on\s+which\s+day|when)\b", re.I)
_WHICH_DAYS = re.compile(r"\b(?:(?:which|what)\s+(?:days|dates|nights)|on\s+which\s+days|list\s+(?:the\s+)?days)\b", re.I)
_FIRST = re.compile(r"\b(first|earliest)\b", re.I)
_MAX = re.compile(r"\b(highest|most|max(?:imum)?|best|longest|largest|biggest|top|peak|greatest|farthest|furthest|heaviest|fastest|quickest|warmest|hottest|record)\b", re.I)
_MIN = re.compile(r"\b(lowest|least|min(?:imum)?|worst|shortest|smallest|fewest|lightest|slowest|weakest|cheapest|coldest)\b", re.I)
_DAY_OF = re.compile(r"\bon\s+the\s+(?:day|night)\s+(?:when\s+|that\s+)?(?:i|my|we)\b(?P<clause>[^,?]*)", re.I)

_COMPARATORS = [
    (re.compile(r"\b(?:less|fewer|lower|shorter|smaller)\s+than\b|\bunder\b|\bbelow\b|\bbeneath\b", re.I), "<"),
    (re.compile(r"\b(?:more|greater|higher|longer|bigger|larger)\s+than\b|\bover\b|\babove\b|\bexceed(?:ing|ed)?\b", re.I), ">"),
    (re.compile(r"\bat\s+least\b|\bno\s+less\s+than\b|\bor\s+(?:more|higher|greater|above|longer|over)\b", re.I), ">="),
    (re.compile(r"\bat\s+most\b|\bno\s+more\s+than\b|\bor\s+(?:less|lower|fewer|below|shorter|under)\b|\bup\s+to\b", re.I), "<="),
]

#: Words that say what the question is about when names are abbreviated or implied by units.
_UNIT_WORDS = {
    "duration": "time duration hours minutes long slept",
    "distance": "distance far km kilometers miles",
    "rate": "heart rate bpm pulse",
    "percent": "percent percentage share",
    "concentration": "glucose blood sugar level",
    "mass": "weight weigh",
    "energy": "calories energy electricity power kwh",
    "temperature": "temperature cold colder coldest warm warmer warmest hot hotter hottest degrees",
    "speed": "speed fast",
    "pace": "pace",
    "count": "count number",
}
_ABBREVIATIONS = {"hr": "heart rate", "avg": "average", "bp": "blood pressure", "temp": "temperature", "dist": "distance",
                  "qty": "quantity", "amt": "amount", "hrv": "heart rate variability", "kcal": "calories", "bpm": "heart rate"}
#: Column-name words that qualify rather than name a quantity (total_sleep is "sleep").
_QUALIFIERS = {"total", "avg", "average", "mean", "daily", "overall", "net"}
#: Irregular forms, so "slept" finds the sleep column and "ran" the run table.
_LEMMAS = {"slept": "sleep", "ran": "run", "spent": "spend", "paid": "pay", "swam": "swim", "rode": "ride", "ate": "eat",
           "drank": "drink", "drove": "drive", "bought": "buy", "weighed": "weigh", "walked": "walk", "goals": "score",
           "goal": "score", "points": "score"}
_VALUE_LEMMAS = {"won": ("win", "won", "wins", "winning", "beat", "victory"), "lost": ("lose", "lost", "loss", "losses", "losing"),
                 "draw": ("draw", "drew", "tie", "tied", "draws")}
_STOP = set("""a an the my our me i we you your is was were are be been did do does have has had of on in at to for with by from across
and or what which when how many much times day days date dates that this it its there their they log logged record
recorded reading readings value values track tracked get got during per than over under less more ever all""".split())
_INTENT_WORDS = set("""average avg mean typical total sum altogether combined overall median highest lowest most least max
maximum min minimum best worst longest shortest largest smallest biggest top peak greatest recent latest last first
earliest trend up down increase decrease go going went compare versus vs often number count which list""".split())


@dataclass
class Intent:
    """What the question asks, as the rules backend reads it."""

    kind: str  # compute | rank | filter_days | compare | trend | day_of | lookup | values | share | group | retrieve
    operator: str | None = None  # Compute operator, or Rank order
    asks_day: bool = False
    wants_less: bool = False
    trend: bool = False  #: a comparison of an earlier and a later period: increased or decreased


def detect_intent(question: str, periods: list[Period], tables: list[dict[str, Any]] | None = None) -> Intent:
    """The intent of a question whose time phrases are already found (they are masked first:
    "the first week of March" is a period, not a *first* question). With the planning
    context's ``tables``, "how many minutes / lows" (a unit or a column) is a sum, not a count,
    and "when did I shop at X" (a named value) lists days."""
    text = _mask(question, [p.span for p in periods])
    text_nc = _strip_comparisons(text)
    value_named = any(value_filters(question, t) for t in tables or [])
    wants_less = bool(re.search(r"\b(less|lower|fewer|worse|shorter|smaller)\b", text, re.I))
    bound = event_bound(question, periods)
    probe = question[:bound.start()] + question[bound.end():] if bound else question  # "since my GP raised the dose, ..."
    if tables and _about_something_else(probe, find_periods(probe, None) if bound else periods, tables):
        return Intent("retrieve")
    if _DAY_OF.search(text):
        return Intent("day_of")
    if _SHARE.search(text) and (_SHARE_SPLIT.search(text) or re.search(r"\bwin\s+rate\b", text, re.I)):
        return Intent("share", "share")  # "what share of my rides were commutes", not "what % was in range"
    listed = lists_values(question, periods)
    if listed and any(named_text_column(t, listed) for t in tables or []):
        return Intent("values", "count")  # "which routes did I ride that week": the distinct values
    two_sides = " or " in f" {text.lower()} " and (
        len([p for p in periods if p.start or p.end]) >= 2 or _COMPARE.search(text) or re.search(r"\b\w{3,}er\b", text))
    group = None if two_sides else (_GROUP.search(text) or _GROUP_MONTH.search(text))
    if group:
        low = text.lower()
        counted = re.search(r"\b(?:most|fewest|least)\s+(?:[a-z-]+\s+){0,4}?(?P<noun>[a-z-]+s)\b", low)
        counted_records = counted is not None and not _names_a_quantity(counted.group("noun"), tables or [])
        op = "count" if (re.search(r"\b(?:often|frequently|times)\b", low) or counted_records) and not _AVERAGE.search(text) else (
            "avg" if _AVERAGE.search(text) or re.search(r"\bon\s+average\b", low) else "sum" if (
                _SUM.search(text) or re.search(r"\badd(?:ed)?\s+up|\bcost\b|\bspen[dt]\b", low)) else "avg")
        least = bool(re.search(r"\b(least|lowest|fewest|smallest|shortest|slowest|cheapest|weakest|worst)\b", low))
        return Intent("group", op, wants_less=least)
    if _DELTA.search(text) and len([p for p in periods if p.start or p.end]) < 2 and " or " not in f" {text.lower()} ":
        return Intent("compute", "delta")
    if _TREND.search(text):
        if len([p for p in periods if p.start or p.end]) >= 2 or any(_RANGE_WORDS.match(p.phrase) for p in periods):
            op = "sum" if re.search(r"\b(?:in\s+total|total|weekly|monthly|per\s+(?:week|month)|number\s+of|how\s+much)\b", text, re.I) else "avg"
            return Intent("compare", op, trend=True)
        return Intent("trend", "trend")
    if (_COMPARE.search(text) or len([p for p in periods if p.start or p.end]) >= 2) and " or " in f" {text.lower()} ":
        more_of = re.search(r"\b(?:more|less|fewer)\s+([a-z]+)", text, re.I)
        op = "count" if _COUNT.search(text) or re.search(r"\bmore\s+often\b", text, re.I) else (
            "sum" if _SUM.search(text) or re.search(r"\bspen[dt]\b", text, re.I)
            or (more_of and canonical_unit(more_of.group(1).lower()) and not _AVERAGE.search(text)) else "avg")
            # "did I run more kilometres in March or April": the totals
        return Intent("compare", op, wants_less=wants_less)
    if _WHICH_DAYS.search(text) and (_has_comparison(text) or value_named or stated_fact(question)):
        return Intent("filter_days")
    extreme_of_average = _EXTREME_AVERAGE.search(text)
    latest = _is_latest(text_nc)
    if _AVERAGE.search(text) and not extreme_of_average and not latest:
        return Intent("compute", "avg")
    if _MEDIAN.search(text):
        return Intent("compute", "median")
    many = re.search(r"\bhow\s+many\s+(\w+)", text, re.I)
    if many and _names_a_quantity(many.group(1), tables or []) and not latest:
        return Intent("compute", "sum")
    if _COUNT.search(text) and not (latest and many and _names_a_quantity(many.group(1), tables or [])):
        return Intent("compute", "count")  # "how many stars did I give the last book": the latest value
    asks_day = bool(_WHICH_DAY.search(text))
    which = WHICH_NOUN.search(text_nc)
    if which and (_MAX.search(text_nc) or _MIN.search(text_nc)) and not latest and any(
            named_text_column(t, which.group("noun")) for t in tables or []):
        # "on which route did I ride my slowest average speed": the extreme row, told by its route
        return Intent("rank", "max" if _MAX.search(text_nc) else "min")
    if latest:
        return Intent("rank" if asks_day else "compute", "last", asks_day=asks_day)
    if _FIRST.search(text_nc):
        return Intent("rank" if asks_day else "compute", "first", asks_day=asks_day)
    if _MAX.search(text_nc):
        return Intent("rank" if asks_day else "compute", "max", asks_day=asks_day)
    if _MIN.search(text_nc):
        return Intent("rank" if asks_day else "compute", "min", asks_day=asks_day)
    if _SUM.search(text):
        return Intent("compute", "sum")
    if _WHICH_DAYS.search(text) or (asks_day and (_has_comparison(text) or value_named)):
        return Intent("filter_days")
    if re.search(r"\bhow\s+(?:much|far|long)\b.*\b(?:use|used|spend|spent|consume|consumed|burn|burned|burnt|drink|drank|"
                 r"drive|drove|run|ran|walk|walked|ride|rode|cycle|cycled|read|swim|swam)\b", text, re.I) \
            and any(p.start and p.end and p.start != p.end for p in periods):
        return Intent("compute", "sum")  # "how much electricity did I use in February": all of it
    if any(p.start and p.start == p.end for p in periods) or re.search(r"\bhow\s+(much|long|far|many)\b", text, re.I):
        return Intent("lookup", "last")
    return Intent("retrieve")


#: "which route / team / station ...": the noun whose column the answer is read from
WHICH_NOUN = re.compile(r"\b(?:which|what)\s+(?P<noun>(?!(?:day|date|days|dates|month|week|year|time)\b)[a-z][\w-]*)\b", re.I)
_VALUES = re.compile(r"\b(?:which|what)\s+(?:of\s+(?:the|my)\s+)?(?P<noun>(?!(?:days|dates|months|weeks|years|times|nights)\b)[a-z][\w-]*s)\s+(?:did|do|have|had|were|was)\b", re.I)
_SHARE = re.compile(r"\b(?:what|which)\s+(?:share|percentage|percent|proportion|fraction|part)\b|\bwin\s+rate\b"
                    r"|\bhow\s+(?:many|much)\s+percent", re.I)
_GROUP = re.compile(r"\bwhich\s+(?:kind\s+of\s+|type\s+of\s+)?(?!(?:day|days|date|dates|night|nights|time|times|one|of)\b)(?P<noun>[a-z][\w-]*)\b(?:(?!\bor\b).)*?\b(?:most(?!\s+recent)|least|"
                    r"highest|lowest|more|fewer)\b(?:\s+(?:often|frequently))?", re.I)
_GROUP_MONTH = re.compile(r"\bwhich\s+(?P<noun>month|week|weekday|day\s+of\s+the\s+week|year)\s+(?:had|has|was|did|saw|brought)\b"
                          r"(?:(?!\bor\b).)*$", re.I)
_RANGE_WORDS = re.compile(r"^(?:between|from)\b", re.I)
_FACT_WORDS = re.compile(r"\b(?:goal|target|cap|limit|allowance|budget|tank|dose|appointment|name|called|model|brand|club|"
                         r"policy|insurance|coach|doctor|gp|dietitian|employer|advice|told|recommend\w*|set\s+as)\b", re.I)
_GENERIC = set("""across spend spent time times take took get got make made have overall logged log record records total
value values number amount long much many often ever each every single whole altogether rise fall rose fell went go up down
increase increased decrease decreased higher lower more less month months week weeks weekly monthly day days year pay paid
apart including included""".split())
def _is_latest(text: str) -> bool:
    """"most recent", "latest", "the / my last X", "when did I last": the newest record. "last" as
    a verb ("how long did my sessions last") or a period ("last week") is not."""
    if re.search(r"\b(?:most\s+recent(?:ly)?|latest|recently)\b", text, re.I):
        return True
    if re.search(r"\b(?:did|do|have)\s+(?:i|we)\s+\w+\s+last\s*(?:[?.!]|$|during\b|in\b|on\b|at\b)", text, re.I):
        return True  # "which team did we play last (during March)?"
    return bool(re.search(r"\b(?:the|my|i|we|your)\s+last\b(?!\s+(?:week|month|year|night)\b)", text, re.I))


_COMPARISON_WORDS = re.compile(r"\b(?:than|above|over|under|below|within|miss(?:ed)?|meet|met|exceed\w*|beyond|until)\b", re.I)


def _about_something_else(question: str, periods: list[Period], tables: list[dict[str, Any]]) -> bool:
    """Honest routing: is the question about something the tables' records do not talk about
    ("the cap my coach set", "my reading goal", "the dietitian's sodium limit")? True when
    fewer than half of its content words occur in any table's columns, their aliases and
    values, or the records' own words - the answer is a fact said once in conversation, and
    retrieval should find it rather than a table compute something beside the point."""
    focus = [w for w in focus_words(question, periods) if canonical_unit(w) is None and len(w) > 2 and w not in _GENERIC]
    if len(focus) < 2 or _COMPARISON_WORDS.search(_mask(question, [p.span for p in periods])):
        return False
    if not _FACT_WORDS.search(question):
        return False  # only a question about a stated fact (a goal, a cap, someone's advice) leaves the tables
    best = 0.0
    for t in tables:
        known = {_stem(w) for c in t["columns"] for n in [c["name"], *(c.get("aliases") or [])] for w in n.split("_")}
        for c in t["columns"]:  # "pressure" for mmHg, "time" for a duration: what the unit measures
            dim = (dimension_of(c.get("unit")) or "").split(":")[0]
            known |= {_stem(w) for w in [dim, *_UNIT_WORDS.get(dim, "").split()] if w}
        known |= {_stem(str(v).lower()) for c in t["columns"] for v in c.get("values") or []}
        vocab = t.get("vocabulary") or {}
        stems = {_stem(k) for k in vocab}
        said = [w for w in focus if _stem(w) in known or _stem(w) in stems or vocab.get(w) or vocab.get(_stem(w) + "e")]
        best = max(best, len(said) / len(focus))
    return best < 0.5


_EXTREME_AVERAGE = re.compile(r"\b(?:highest|lowest|best|worst|max(?:imum)?|min(?:imum)?|peak|top|weakest|strongest|fastest|slowest)\s+(?:average|avg|mean)\b", re.I)


def _names_a_quantity(word: str, tables: list[dict[str, Any]]) -> bool:
    """"minutes", "kilometers", "dollars", or a numeric column's own word ("lows", "goals")."""
    w = _LEMMAS.get(word.lower(), word.lower())
    if w in ("times", "time", "days", "day", "nights", "weeks", "months", "years", "d", "wk"):
        return False  # "how many days ..." counts rows
    if canonical_unit(w) is not None:
        return True
    # a column counted by its own word ("lows", "goals" -> score_for); a column measured in a
    # unit (run_time [min]) is summed by the unit's word instead, so "how many runs" counts rows
    stem = _stem(w)
    return any(stem in {_stem(x) for x in c["name"].split("_")} for t in tables for c in t["columns"]
               if c["type"] in ("int", "float") and dimension_of(c.get("unit")) in (None, "count"))


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    out = list(text)
    for a, b in spans:
        out[a:b] = " " * (b - a)
    return "".join(out)


def _has_comparison(text: str) -> bool:
    return any(p.search(text) for p, _ in _COMPARATORS) and bool(find_quantities(text))


def _strip_comparisons(text: str) -> str:
    for pattern, _ in _COMPARATORS:
        text = pattern.sub(" ", text)
    return text


# -- targets --------------------------------------------------------------------------------------


@dataclass
class Target:
    table: str
    column: str | None
    unit: str | None
    score: float
    columns: list[dict[str, Any]] = field(default_factory=list)


def _stem(word: str) -> str:
    for suffix in ("ings", "ing", "ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            if suffix in ("ings", "ing", "ed") and len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
                stem = stem[:-1]  # "running" / "shopped": the doubled consonant of the stem
            return stem
    return word


def focus_words(question: str, periods: list[Period], named: list[str] | None = None) -> list[str]:
    """The question's content words: time phrases, comparisons, intent and stop words removed,
    and values named as filters ("against the Wolves") with their preposition."""
    text = _strip_comparisons(_mask(question, [p.span for p in periods]))
    for value in named or []:
        text = re.sub(rf"(?:\b(?:against|vs\.?|versus|at|on|from|with|to|for)\s+(?:the\s+)?)?(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])",
                      " ", text, flags=re.I)
    for _, _, q in find_quantities(text):
        text = text.replace(q.raw, " ")
    return [_LEMMAS.get(w, w) for w in tokenize(text) if w not in _STOP and w not in _INTENT_WORDS and not w.isdigit()]


def _column_phrase(table: dict[str, Any], col: dict[str, Any]) -> str:
    words = [_ABBREVIATIONS.get(w, w) for w in col["name"].split("_")]
    words += [_ABBREVIATIONS.get(w, w) for a in col.get("aliases") or [] for w in a.split("_")]
    table_words = [w for w in table["name"].split("_") if w not in ("log", "table")] + list(table.get("keywords") or [])[:4]
    dim = dimension_of(col.get("unit"))
    extra = _UNIT_WORDS.get((dim or "").split(":")[0], "") if dim else ""
    if dim and dim.startswith("currency"):
        extra = "money amount spent spend cost paid price expense expenses purchase bought buy shopping"
    return " ".join([*words, *table_words, extra, col.get("unit") or ""]).strip()


_LENGTHY = re.compile(r"\b(?P<how>how\s+)?(?:long(?:er|est)?|short(?:er|est)?)\b", re.I)


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
    return {_stem(w) for w in words if len(w) > 2}


def choose_target(encoder: Any, question: str, periods: list[Period], tables: list[dict[str, Any]], *,
                  numeric: bool = True) -> Target | None:
    """The (table, column) the question is about, or None when nothing matches well enough."""
    named = [str(f["value"]) for t in tables for f in value_filters(question, t)]
    focus = focus_words(question, periods, named)
    if not focus or not tables:
        return None
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = [
        (t, c) for t in tables for c in t["columns"] if not numeric or c["type"] in ("int", "float")]
    if not pairs:
        return None
    phrases = [_column_phrase(t, c) for t, c in pairs]
    asked_units = _asked_units(question)
    money = _MONEY_WORDS.search(question) is not None
    paid = re.search(r"\b(?:cost|costs|spen[dt]|pa(?:y|id)|price[ds]?)\b", question, re.I) is not None  # what it cost, whatever it was of
    length = _length_bonus(question)
    vecs = encoder.encode([" ".join(focus), *phrases])
    q = vecs[0]
    fstems = {_stem(w) for w in focus}
    said = {t["name"]: len(fstems & _table_stems(t)) / len(fstems) for t in tables}
    best: Target | None = None
    for (t, c), phrase, v in zip(pairs, phrases, vecs[1:]):
        pstems = {_stem(w) for w in tokenize(phrase)}
        overlap = len(fstems & pstems) / len(fstems)
        name = {_stem(w) for w in tokenize(" ".join(_ABBREVIATIONS.get(w, w) for w in c["name"].split("_")))}
        name -= _QUALIFIERS
        raw = {_stem(w) for w in c["name"].split("_")} - _QUALIFIERS
        if len(fstems & raw) > len(fstems & name):
            name = raw
        name_hit = len(fstems & name) / len(fstems)
        # "sleep" means the column named sleep, not sleep_score: name words the question does
        # not say count against a column
        name_precision = len(fstems & name) / len(name) if name else 0.0
        for alias in c.get("aliases") or []:  # a label the values were written under ("pulse" for heart_rate)
            words_ = {_stem(w) for w in tokenize(" ".join(_ABBREVIATIONS.get(w, w) for w in alias.split("_")))} - _QUALIFIERS
            if words_ and len(fstems & words_) / len(fstems) > name_hit:
                name_hit, name_precision = len(fstems & words_) / len(fstems), len(fstems & words_) / len(words_)
        score = (float(np.dot(q, v)) + 0.35 * overlap + 0.25 * name_hit + 0.25 * name_precision + 0.2 * said[t["name"]]
                 + _value_bonus(question, t) + _unit_bonus(asked_units, c.get("unit"))
                 + ((0.3 if paid else 0.15) if money and (dimension_of(c.get("unit")) or "").startswith("currency:") else 0.0)
                 + length(t, c))
        if best is None or score > best.score:
            best = Target(t["name"], c["name"], c.get("unit"), score, t["columns"])
    if best is not None and paid and not (dimension_of(best.unit) or "").startswith(("currency:", "price:")):
        # "how much did electricity cost me": the money paid, in the table of what it was paid for
        money_col = next((c for c in best.columns if c["type"] != "text" and (dimension_of(c.get("unit")) or "").startswith("currency:")), None)
        if money_col is not None:
            best = Target(best.table, money_col["name"], money_col.get("unit"), best.score, best.columns)
    return best


def _asked_units(question: str) -> set[str]:
    """Units the question names in words ("how many kilometres", "in minutes", "metres of climbing"),
    not quantities it compares against ("shorter than 32 km")."""
    text = question
    for _, _, q in find_quantities(question):
        text = text.replace(q.raw, " ")
    out = set()
    words = re.findall(r"[A-Za-z/€$£%]+", text)
    for i, w in enumerate(words):
        unit = canonical_unit(w.lower()) if len(w) > 1 or w in "%€$£" else None
        if i and (words[i - 1].lower() in ("per", "a", "an", "each") or _PRICED.fullmatch(words[i - 1].lower())):
            # "price per litre", "€1.80 a litre", "my cheapest litre": a price per that unit
            out |= {u for u in _PRICE_UNITS if unit and u.endswith("/" + unit)}
            continue
        if unit and w.lower() not in ("in", "m", "s", "d", "h", "min", "l", "g", "time", "times", "day", "days", "week",
                                      "weeks", "month", "months", "year", "years", "night", "nights"):
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
    return 0.3 if dimension_of(unit) in {dimension_of(u) for u in asked} else -0.2


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
    fstems = {_stem(w) for w in focus}
    money = _MONEY_WORDS.search(question) is not None
    group = _GROUP.search(question)
    best: Target | None = None
    for t, doc, v in zip(tables, docs, vecs[1:]):
        overlap = len(fstems & {_stem(w) for w in tokenize(doc)}) / len(fstems)
        vocab = t.get("vocabulary") or {}
        stems = {_stem(k) for k in vocab}
        said = len([w for w in focus if _stem(w.lower()) in stems or vocab.get(w.lower().rstrip("s"))]) / len(focus)
        score = float(np.dot(vecs[0], v)) + 0.35 * overlap + _value_bonus(question, t) + 0.45 * said
        if money and any((dimension_of(c.get("unit")) or "").startswith("currency:") for c in t["columns"]):
            score += 0.2  # "my purchases", "which store did I shop at": the records of what was paid
        if group and named_text_column(t, group.group("noun")):
            score += 0.2  # "which store ... most often": the table with a store (merchant) column
        if best is None or score > best.score:
            best = Target(t["name"], None, None, score, t["columns"])
    return best


def _value_bonus(question: str, table: dict[str, Any]) -> float:
    return 0.3 if value_filters(question, table) else 0.0


def value_filters(question: str, table: dict[str, Any]) -> list[dict[str, Any]]:
    """Text values of the table's columns that the question names ("groceries", "the Ravens", "win").

    Longer values are matched first and their words taken out, so "Whole Foods" does not also
    name the category "food"."""
    rows = table.get("rows") or 0
    candidates = [(str(value).strip(), c["name"]) for c in table["columns"] if c["type"] == "text"
                  and not (rows and c.get("filled") is not None and c["filled"] < 0.5 * rows)  # a sparse column undercounts
                  for value in (c.get("values") or c.get("samples") or [])]
    candidates = sorted({(v, col) for v, col in candidates if v and len(v) <= 60}, key=lambda vc: (-len(vc[0]), vc))
    low = f" {question.lower()} "
    out: list[dict[str, Any]] = []
    done: set[str] = set()
    for v, col in candidates:
        if col in done:
            continue
        lv = v.lower()
        pattern = rf"(?<![a-z0-9]){re.escape(lv)}(?![a-z0-9])"
        named = re.search(pattern, low) is not None
        if named:
            low = re.sub(pattern, " ", low)
        else:
            words = set(tokenize(low))
            if lv in _VALUE_LEMMAS:
                named = bool(words & set(_VALUE_LEMMAS[lv]))
            if not named and " " not in lv and len(lv) >= 4:
                named = _stem(lv) in {_stem(w) for w in words}
        if named:
            out.append({"column": col, "op": "=", "value": v})
            done.add(col)
    for f in vocabulary_values(question):  # "audiobooks", "on the e-reader": a stored value in other words
        for v, col in candidates:
            if col not in done and v.lower() == f.value.lower():
                out.append({"column": col, "op": "=", "value": v})
                done.add(col)
                break
    return out


#: Words that join or scope a phrase: a run of question words ends at them.
_PREPOSITIONS = {"on", "at", "in", "with", "for", "from", "by", "of", "to", "during", "about"}
_RUN_BREAKS = _PREPOSITIONS | {"and", "or", "did", "do", "does", "was", "were", "is", "are", "i", "my", "me", "the", "a", "an",
                               "what", "which", "how", "many", "much", "when", "that", "than", "had", "have", "has",
                               "log", "logged", "take", "took", "get", "got", "any", "all", "across", "overall", "per",
                               "each", "every", "single", "one", "time", "times", "day", "days", "month", "months", "week",
                               "weeks", "share", "percentage", "percent", "proportion", "average", "total", "most", "least",
                               "often", "last", "first", "recent", "longest", "shortest", "highest", "lowest", "biggest",
                               "smallest", "more", "less", "higher", "lower", "list", "value", "values", "number", "kind"}


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
                               "buy", "bought", "purchase", "purchased", "something", "anything", "play", "played"}


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
    text = _mask(question, [p.span for p in periods])
    for _, _, q in find_quantities(text):
        text = text.replace(q.raw, " ")
    # "spent on the car": what the money went to is the memory's subject, named as a subset
    # only by a stored value (value_filters), never by the records' words
    text = _mask(text, [m.span("obj") for m in _SPENT_ON.finditer(text)])
    tokens = [t for t in re.findall(r"[A-Za-z][A-Za-z0-9'’]*(?:-[A-Za-z][A-Za-z0-9'’]*)*|\d+[A-Za-z]*|[.,;:?!]", text)
              if len(t) > 1 or t in ".,;:?!"]
    column_words = {_stem(w) for c in table["columns"] for n in [c["name"], *(c.get("aliases") or [])]
                    for w in " ".join(_ABBREVIATIONS.get(x, x) for x in n.split("_")).split()} | {_stem(w) for w in skip}
    # "on runs" over ``run_log``: what every row is, no subset of them
    column_words |= {_stem(w) for w in str(table.get("name") or "").split("_") if w not in ("log", "") and not w.isdigit()}
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
        names = [w for w in words if w[0].isupper() or any(ch.isdigit() for ch in w)]
        if prep == "population" and not whole:
            if _stem(words[-1].lower()) in column_words or canonical_unit(words[-1].lower()) is not None \
                    or words[-1].lower() in _MEASURE_NOUNS:
                continue  # "my run distance": what is measured, of the table's own records
            chosen = words[:-1] if len(words) > 1 else names  # "my gravel-bike rides": the modifier still names a subset
        elif whole or (prep in _PREPOSITIONS and prep != "of") or names == words or (
                prep == "of" and _after_unit(text, words[0])):
            measured_at = next((i for i, w in enumerate(words) if _stem(w.lower()) in column_words), None)
            # "with a systolic reading of 140": the words after what is measured name the record
            chosen = words if measured_at is None or whole else words[:measured_at]
        else:
            chosen = words[:-1] or names
        chosen = [w for w in chosen if _stem(w.lower()) not in column_words and canonical_unit(w.lower()) is None]
        if not chosen:
            continue
        counts = []
        for w in [part for word in chosen for part in word.split("-") if len(part) > 1]:
            low = w.lower().replace("’", "'")
            keys = {low, low.rstrip("s"), _stem(low)} | {k for k in (low.split("'")[0],) if k}
            counts.append(max((vocab.get(k, 0) for k in keys), default=0))
        if not counts:
            continue
        if min(counts) == 0 or min(counts) >= 0.9 * total:
            continue
        out.append({"column": "captions", "op": "mentions", "value": " ".join(w.lower() for w in chosen)})
    return out


_SPENT_ON = re.compile(r"\b(?:spen[dt]|spending|pa(?:y|id)|paying|cost)\s+(?:\w+\s+)?(?:on|for)\s+(?:the\s+|my\s+|a\s+)?(?P<obj>[\w-]+)", re.I)


#: Nouns that name what is measured of a record, whatever the column is called ("my average
#: fill-up size": the size of my fill-ups, not the fill-ups that mention a fill-up).
_MEASURE_NOUNS = frozenset("""size amount cost price length duration distance time number count value weight speed
pace total sum level reading score""".split())


def _after_unit(text: str, word: str) -> bool:
    """Does ``word`` follow "<unit> of" ("minutes of audiobooks")? Then its run names a subset."""
    m = re.search(rf"\b(\w+)\s+of\s+(?:the\s+|my\s+)?{re.escape(word)}", text)
    return bool(m and canonical_unit(m.group(1).lower()))


def subset_filters(question: str, periods: list[Period], table: dict[str, Any], column: str | None = None) -> list[dict[str, Any]]:
    """The rows a question is about: values of text columns it names, then subsets named by the
    records' own words (see :func:`mention_filters`)."""
    named = value_filters(question, table)
    if column:
        # "how much electricity did I use / did electricity cost": the word names what the table
        # measures (its kWh column), not the rows whose category it is
        dims = {dimension_of(c.get("unit")) for c in table["columns"] if c["type"] != "text"}
        measured = {w for d in dims for w in _UNIT_WORDS.get(d or "", "").split()}
        naming = {v.value.lower() for v in vocabulary_values(question) if set(tokenize(question[v.start:v.end])) & measured}
        named = [f for f in named if str(f["value"]).lower() not in naming]
    skip = {w for f in named for w in tokenize(str(f["value"]))} | set((column or "").split("_"))
    values = {str(f["value"]).lower() for f in named}
    skip |= {w for f in vocabulary_values(question) if f.value.lower() in values for w in tokenize(question[f.start:f.end])}
    return named + mention_filters(question, periods, table, skip=skip)


#: "€1.80 or more a litre": a price per litre, not one litre
_PER_UNIT = re.compile(r"[$€£]\s?\d[\d.,]*(?:\s?(?:EUR|USD|GBP))?(?:\s+(?:or\s+)?(?:more|less|above|below|over|under|higher|lower))?\s+"
                       r"(?P<a>an?)\s+(?:litre|liter|gallon)\b", re.I)
_ONE_UNIT = re.compile(r"(\b(?:an?|one))\s+(hour|minute|kilometre|kilometer|km|mile|litre|liter|day|week)\b", re.I)


def condition_filters(question: str, periods: list[Period], target: Target) -> list[dict[str, Any]]:
    """Comparisons with a quantity, as filters on the column of matching dimension (in its unit)."""
    text = _PER_UNIT.sub(lambda m: m.group().replace(m.group("a"), "per"), _mask(question, [p.span for p in periods]))
    text = _ONE_UNIT.sub(lambda m: f"{m.group(1)[:-len(m.group(1).split()[-1])]}1 {m.group(2)}", text)
    quantities = find_quantities(text)
    out = []
    for pattern, op in _COMPARATORS:
        for m in pattern.finditer(text):
            after = [(s, q) for s, _, q in quantities if 0 <= s - m.end() <= 3] or \
                    [(s, q) for s, e, q in quantities if 0 <= m.start() - e <= 3 and op in (">=", "<=")]
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


# -- plan + instantiate ------------------------------------------------------------------------------


def retrieval_query(question: str, periods: list[Period]) -> str:
    """The question without its time phrases (the dates go into the scope instead)."""
    text = " ".join(_mask(question, [p.span for p in periods]).split())
    return text or question


def make_plan(question: str, periods: list[Period], intent: Intent, tools: tuple[str, ...], max_steps: int) -> list[dict[str, Any]]:
    """High-level steps ``{goal, tool}`` without arguments."""
    analytic = "Compute" in tools
    retrieval = "EventLocate" in tools
    steps: list[dict[str, Any]] = []
    if analytic and intent.kind == "compute":
        steps = [{"goal": f"compute the {intent.operator} the question asks for", "tool": "Compute"}]
    elif analytic and intent.kind == "lookup":
        steps = [{"goal": "read the logged value", "tool": "Compute"}]
    elif analytic and intent.kind == "rank":
        steps = [{"goal": f"find the row with the {intent.operator} value and its day", "tool": "Rank" if intent.operator in ("max", "min") else "Compute"}]
    elif analytic and intent.kind == "filter_days":
        steps = [{"goal": "list the days that satisfy the condition", "tool": "Filter"}]
    elif analytic and intent.kind == "compare":
        steps = [{"goal": "compute the first side of the comparison", "tool": "Compute"},
                 {"goal": "compute the second side of the comparison", "tool": "Compute"}]
    elif analytic and intent.kind == "values":
        steps = [{"goal": "list the values the question asks for", "tool": "Compute"}]
    elif analytic and intent.kind in ("share", "group"):
        steps = [{"goal": "compute the share the question asks for" if intent.kind == "share"
                  else "compute the value per group and rank the groups", "tool": "Compute"}]
    elif analytic and intent.kind == "trend":
        steps = [{"goal": "compute the trend over the period", "tool": "Compute"}]
    elif analytic and intent.kind == "day_of":
        steps = [{"goal": "find the day the clause describes", "tool": "Rank"},
                 {"goal": "read the asked value on that day", "tool": "Compute"}]
    if steps and retrieval and stated_fact(question):
        # "more power than the cap my coach set": find the cap first, then compare with it
        steps = [{"goal": "find the value the question compares with, where it was said", "tool": "EventLocate"}, *steps]
    elif steps and retrieval and event_bound(question, periods) and (intent.kind != "compare" or _AROUND.search(question)):
        # "since my GP raised the dose": find when that happened, then bound the records by it
        steps = [{"goal": "find when the event the question is bounded by happened", "tool": "EventLocate"}, *steps]
    if not steps and retrieval:
        steps = [{"goal": "find the rounds that talk about it", "tool": "EventLocate"}]
    return steps[:max_steps]


_FACT_REF = re.compile(
    r"\b(?P<cmp>(?:more|less|higher|lower)\s+(?:\w+\s+)?than|above|below|over|under|within|exceed\w*|beyond|past|"
    r"miss(?:ed|es)?|outside(?:\s+of)?|inside|meet|met|hit)\s+"
    r"(?P<fact>(?:the\s+|my\s+)?(?:[\w'’-]+\s+){0,3}?(?:cap|target|goal|limit|allowance|budget|threshold|maximum|minimum))\b"
    r"(?P<tail>(?:\s+(?:that\s+)?(?:my|the)\s+[\w'’]+\s+(?:set|sets|gave|gives|pays|wants|recommended|suggested))?)", re.I)


_EVENT_BOUND = re.compile(r"\b(?P<rel>since|after|before)\s+(?P<clause>(?:my|the|i|we|our)\b[^,?;]*?\b(?:[a-z]+ed|began|begun|"
                          r"went|got|took|made|set|gave|began|put|left|moved|switched|changed|broke|won|lost|came)\b[^,?;]*)", re.I)


_AROUND = re.compile(r"\bbefore\s+or\s+after\b|\bafter\s+or\s+before\b", re.I)


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


def event_bound(question: str, periods: list[Period]) -> re.Match[str] | None:
    """"since my GP raised my dose", "before I switched bikes": records bounded by the day of an
    event said once in conversation (not a date the question gives: "since March" is a period)."""
    m = _EVENT_BOUND.search(_mask(question, [p.span for p in periods]))
    if m and _SINCE_THE_START.match(m.group("clause").strip()):
        return None  # "since I started (logging)": every record, no event to find
    return m if m and not m.group("clause").strip().isdigit() else None


_SINCE_THE_START = re.compile(r"(?:i|we)\s+(?:first\s+)?(?:started|began|begun)(?:\s+(?:logging|tracking|recording|keeping\s+track|"
                              r"noting|writing\s+(?:it|them)\s+down|this|here|the\s+log)(?:\s+(?:it|them|this|that|my\s+[a-z-]+))?)?\s*[?.!]?$|the\s+(?:start|beginning)\b", re.I)


def stated_fact(question: str) -> re.Match[str] | None:
    """A comparison with a value said elsewhere, not in the question ("above the target my
    doctor set", "over my coach's cap"): the value must be looked up first."""
    m = _FACT_REF.search(question)
    if m is None or re.search(r"\d", m.group(0)):
        return None
    return m


def fact_conditions(question: str, texts: list[str], table: dict[str, Any]) -> list[dict[str, Any]]:
    """The comparison with a stated value as filters: the value read from the retrieved words
    (the first quantity whose unit a column of the table has; a blood-pressure pair sets both
    columns of the pair), the operator from the question's words."""
    m = stated_fact(question)
    if m is None:
        return []
    word = m.group("cmp").lower()
    op = "<=" if word.startswith(("within", "meet", "met", "hit", "inside")) else "<" if word.startswith(("less", "lower", "below", "under")) else ">"
    # "within the target" is every value under it; "over the cap" / "missed the target" any value past it
    from adamm.nodes.rules.spans import find_spans  # noqa: PLC0415 - the extractor's span model reads the fact
    for text in texts:
        spans = [sp for sp in find_spans(text) if sp.num is not None]
        pair = [sp for sp in spans if sp.role in ("first", "second")]
        if pair:
            cols = {c["name"]: c for c in table["columns"] if dimension_of(c.get("unit")) == "pressure"}
            named = [n for n in ("systolic", "diastolic") if n in cols]
            if len(named) == 2 and len(pair) >= 2:
                if word.startswith(("within", "meet", "met", "hit", "inside", "miss", "outside")):
                    # "under 135/85": within is below it, a miss is 135 or more; "at most 135/85":
                    # within is up to it, a miss is above
                    strict = re.search(r"\b(?:under|below|less\s+than|lower\s+than)\s*$", text[:pair[0].start], re.I) is not None
                    within = word.startswith(("within", "meet", "met", "hit", "inside"))
                    op = ("<" if strict else "<=") if within else (">=" if strict else ">")
                both = [{"column": named[0], "op": op, "value": pair[0].num}, {"column": named[1], "op": op, "value": pair[1].num}]
                # within a "135/85" target is both under it; past it is either over it
                return both if op.startswith("<") else [{"any": both}]
        for sp in spans:
            for c in table["columns"]:
                if sp.unit and c.get("unit") and dimension_of(c["unit"]) == sp.dimension:
                    value = sp.num
                    if sp.unit != c["unit"]:
                        try:
                            value = convert(sp.num, sp.unit, c["unit"])
                        except (ValueError, KeyError):
                            continue
                    return [{"column": c["name"], "op": op, "value": round(value, 6)}]
    return []


def instantiate(step: int, tool: str, question: str, periods: list[Period], intent: Intent,
                context: dict[str, Any], results: list[dict[str, Any]], encoder: Any) -> tuple[str, dict[str, Any]] | None:
    """Arguments for ``tool``, step ``step`` of the question's plan, from the question, the
    context and earlier results; None when the rules backend cannot fill them (the step is then
    skipped and reflection decides)."""
    tables = context.get("tables") or []
    fact = stated_fact(question)
    if tool == "EventLocate" and fact is not None and step == 0 and intent.kind != "retrieve":
        return tool, {"query": f"{fact.group('fact')}{fact.group('tail')}", "result_budget": 3, "window": 0}
    bound = event_bound(question, periods) if fact is None and intent.kind != "retrieve" and (
        intent.kind != "compare" or _AROUND.search(question)) else None
    if bound is not None and tool == "EventLocate" and step == 0:
        return tool, {"query": bound.group("clause"), "result_budget": 3, "window": 0}
    if bound is not None and tool != "EventLocate":
        day = next((d for r in results for d in r.get("days") or [] if d), None)
        if day is None:
            return None
        rest = question[:bound.start()] + question[bound.end():]
        if intent.kind == "compare":  # "lower before or after my GP raised my dose": the two sides of that day
            target = choose_target(encoder, rest, periods, tables)
            if target is None or target.score < MIN_COLUMN_SCORE:
                return None
            side = {"column": "date", "op": "<=" if step <= 1 else ">", "value": day}
            return "Compute", {"table": target.table, "target": target.column if intent.operator != "count" else "*",
                               "operator": intent.operator, "column_filters": [*period_filters(periods), side]}
        call = instantiate(max(step - 1, 0), tool, rest, periods, intent, context, [], encoder)
        if call is None:
            return None
        name, args = call
        op = {"since": ">", "after": ">", "before": "<"}[bound.group("rel").lower()]  # what was said that day takes effect after it
        args["column_filters"] = [*(args.get("column_filters") or []), {"column": "date", "op": op, "value": day}]
        return name, args
    if fact is not None and tool != "EventLocate" and intent.kind != "retrieve":
        texts = [t for r in results for t in r.get("texts") or []]
        if intent.kind == "share":  # the whole condition is the stated value: its table has the value's columns
            table = next((t for t in tables if fact_conditions(question, texts, t)), None)
            if table is None:
                return None
            scope = _SHARE_SPLIT.search(_mask(question, [p.span for p in periods]))
            call = ("Compute", {"table": table["name"], "target": "*", "operator": "share", "column_filters":
                                period_filters(periods) + (subset_filters(scope.group("scope"), [], table) if scope else []),
                                "condition": []})
        elif tool == "Filter":  # "on which days did my power go over my coach's cap": the days past the stated value
            asked = _FACT_REF.sub(" ", question)
            target = choose_target(encoder, asked, periods, tables)
            good = target is not None and target.score >= MIN_COLUMN_SCORE
            # the table the question names, else the one whose columns take the stated value's unit
            table = next((t for t in tables if good and t["name"] == target.table), None) or next(
                (t for t in tables if fact_conditions(question, texts, t)), None)
            if table is None:
                return None
            call = ("Filter", {"table": table["name"], "result_budget": 10, "column_filters": period_filters(periods)
                               + subset_filters(asked, periods, table, target.column if good and target else None)})
        else:
            call = instantiate(max(step - 1, 0), tool, _FACT_REF.sub(" ", question), periods, intent, context, [], encoder)
        if call is None or not texts:
            return None
        name, args = call
        table = next((t for t in tables if t["name"] == args.get("table")), None)
        extra = fact_conditions(question, texts, table) if table else []
        if not extra:
            return None
        key = "condition" if args.get("operator") == "share" else "column_filters"
        args[key] = [*(args.get(key) or []), *extra]
        return name, args
    if tool in ("EventLocate", "SemanticMatch"):
        args: dict[str, Any] = {"query": retrieval_query(question, periods), "result_budget": 10}
        bounded = [p for p in periods if p.start or p.end]
        if bounded:
            args["start"] = bounded[0].start.isoformat() if bounded[0].start else None
            args["end"] = bounded[0].end.isoformat() if bounded[0].end else None
        if tool == "EventLocate":
            args["window"] = 1
        else:
            args["scope"] = "episode"
        return tool, args
    kind = intent.kind
    if kind == "compute" and intent.operator == "count":
        target = choose_table(encoder, question, periods, tables)
        if target is None or target.score < MIN_COLUMN_SCORE:
            return None
        table = next(t for t in tables if t["name"] == target.table)
        numeric = choose_target(encoder, question, periods, [table])
        filters = period_filters(periods) + subset_filters(question, periods, table)
        if numeric is not None:
            filters += condition_filters(question, periods, numeric)
        return "Compute", {"table": target.table, "target": "*", "operator": "count", "column_filters": filters}
    if kind == "day_of":
        return _instantiate_day_of(step, question, periods, tables, results, encoder)
    if kind == "share":
        return _instantiate_share(question, periods, tables, encoder)
    if kind == "group":
        return _instantiate_group(question, periods, intent, tables, encoder)
    if kind == "values":
        return _instantiate_values(question, periods, tables, encoder)
    qstems = {_stem(w) for w in tokenize(question)}
    names_text = any(_stem(w) in qstems for t in tables for c in t["columns"] if c["type"] == "text"
                     for n in [c["name"], *(c.get("aliases") or [])] for w in n.split("_"))
    target = choose_target(encoder, question, periods, tables, numeric=not (intent.operator in ("last", "first") and names_text))
    which = WHICH_NOUN.search(_mask(question, [p.span for p in periods]))
    if intent.operator in ("last", "first") and which and not intent.asks_day:
        named = [(t, c) for t in tables for c in [named_text_column(t, which.group("noun"))] if c]
        if named:  # "which team did we play last": the opponent of the latest row
            target = Target(named[0][0]["name"], named[0][1], None, 1.0, named[0][0]["columns"])
    valued = [t for t in tables if value_filters(question, t)]
    lists_days = intent.asks_day or kind == "filter_days"
    if valued and lists_days and (target is None or target.score < MIN_COLUMN_SCORE or target.table not in {t["name"] for t in valued}):
        target = Target(valued[0]["name"], "date", None, MIN_COLUMN_SCORE, valued[0]["columns"])  # "when did I shop at X"
    if target is None or target.score < MIN_COLUMN_SCORE:
        return None
    table = next(t for t in tables if t["name"] == target.table)
    if kind in ("rank", "compute") and intent.operator in ("max", "min") and (speed := speed_expression(question, table)):
        target = Target(target.table, speed, "km/h", target.score, target.columns)  # "my fastest run": distance over time
    base = period_filters(periods) + subset_filters(question, periods, table, target.column)
    if kind in ("compute", "lookup"):
        return "Compute", {"table": target.table, "target": target.column, "operator": intent.operator,
                           "column_filters": base + condition_filters(question, periods, target)}
    if kind == "rank":
        if intent.operator in ("max", "min"):
            return "Rank", {"table": target.table, "target": target.column, "order": "desc" if intent.operator == "max" else "asc",
                            "column_filters": base + condition_filters(question, periods, target), "result_budget": 3}
        return "Compute", {"table": target.table, "target": target.column, "operator": intent.operator,
                           "column_filters": base + condition_filters(question, periods, target)}
    if kind == "filter_days":
        conditions = condition_filters(question, periods, target) if target.column != "date" else []
        if not conditions and not subset_filters(question, periods, table):
            return None
        return "Filter", {"table": target.table, "column_filters": base + conditions, "result_budget": 10}
    if kind == "trend":
        return "Compute", {"table": target.table, "target": target.column, "operator": "trend", "column_filters": base}
    if kind == "compare":
        sides = compare_sides(question, periods, table)
        if sides is None:
            return None
        side = sides[min(step, 1)][0]
        side_words = {w for side, label in sides for w in tokenize(label)}
        shared = [f for f in subset_filters(question, periods, table, target.column)
                  if f not in sides[0][0] + sides[1][0] and not set(tokenize(str(f["value"]))) & side_words]
        return "Compute", {"table": target.table, "target": target.column if intent.operator != "count" else "*",
                           "operator": intent.operator, "column_filters": side + shared}
    return None


_SHARE_SPLIT = re.compile(r"\b(?:share|percentage|percent|proportion|fraction|part)\s+of\s+(?P<scope>.*?)\s+"
                          r"(?P<verb>were|was|had|did|showed|came|went|took|happened|fell|landed|got|ended|used)\s+(?P<pred>.+?)\W*$",
                          re.I)


def _instantiate_share(question: str, periods: list[Period], tables: list[dict[str, Any]],
                       encoder: Any) -> tuple[str, dict[str, Any]] | None:
    """"What share of my rides were commutes?": Compute share, the scope from the periods and
    the population, the condition from the predicate (a value, a subset, a comparison)."""
    m = _SHARE_SPLIT.search(_mask(question, [p.span for p in periods]))
    pred = m.group("pred") if m else question
    scope_text = m.group("scope") if m else ""
    target = choose_table(encoder, question, periods, tables)
    if target is None or target.score < MIN_COLUMN_SCORE:
        return None
    table = next(t for t in tables if t["name"] == target.table)
    condition = value_filters(pred, table)
    numeric = choose_target(encoder, pred, [], [table]) if re.search(r"\d", pred) else None
    if numeric is None and re.search(r"\d", pred):
        numeric = column_by_unit(pred, table)  # "were over $50": the one money column
    if numeric is not None:
        condition += condition_filters(pred, [], numeric)
    skip = {w for f in condition for w in tokenize(str(f.get("value", "")))} | {_stem(w) for w in tokenize(scope_text)}
    values = {str(f.get("value", "")).lower() for f in condition}
    skip |= {w for f in vocabulary_values(pred) if f.value.lower() in values for w in tokenize(pred[f.start:f.end])}
    condition += mention_filters(pred, [], table, skip=skip, whole=True)
    if not condition:
        return None
    scope = period_filters(periods) + (subset_filters(scope_text, [], table) if scope_text else [])
    return "Compute", {"table": table["name"], "target": "*", "operator": "share", "column_filters": scope,
                       "condition": condition}


def column_by_unit(text: str, table: dict[str, Any]) -> Target | None:
    """The one numeric column whose unit is of the dimension of a quantity the text states."""
    for _, _, q in find_quantities(text):
        if not q.dimension:
            continue
        cols = [c for c in table["columns"] if c["type"] != "text" and dimension_of(c.get("unit")) == q.dimension]
        if len(cols) == 1:
            return Target(table["name"], cols[0]["name"], cols[0].get("unit"), 1.0, table["columns"])
    return None


_VIRTUAL_GROUPS = {"month": "month", "week": "week", "weekday": "weekday", "year": "year"}


def lists_values(question: str, periods: list[Period]) -> str | None:
    """"Which routes did I ride ...?", "At which stations did I fill up ...?": the plural noun
    whose distinct values the question lists (None for "which route did I ride most")."""
    text = _mask(question, [p.span for p in periods])
    text_nc = _strip_comparisons(text)
    m = _VALUES.search(text_nc)
    if m is None or _MAX.search(text_nc) or _MIN.search(text_nc) or _COUNT.search(text) or _is_latest(text_nc):
        return None
    return m.group("noun")


def named_text_column(table: dict[str, Any], noun: str) -> str | None:
    """The text column a noun names ("station" -> merchant, whose values were written "at the X
    station"), by its name or an alias, if it holds values."""
    stem = _stem(noun.lower().rstrip("s")) if noun.lower().endswith("s") and not noun.lower().endswith("ss") else _stem(noun.lower())
    for c in table["columns"]:
        if c["type"] == "text" and stem and (c.get("values") or c.get("samples")) and any(
                stem in {_stem(w) for w in n.split("_")} for n in [c["name"], *(c.get("aliases") or [])]):
            return c["name"]
    if stem in ("team", "club", "side", "player", "rival"):  # "which team did we play": the opponent
        return next((c["name"] for c in table["columns"] if c["name"] == "opponent" and (c.get("values") or c.get("samples"))), None)
    if stem in PLACE_NOUNS:  # "which stations", "which shops": where money was paid
        return next((c["name"] for c in table["columns"] if c["name"] == "merchant" and (c.get("values") or c.get("samples"))), None)
    return None


def text_column(table: dict[str, Any], noun: str) -> str | None:
    """The text column a noun names (:func:`named_text_column`), else the text column holding
    the most values."""
    texts = [c for c in table["columns"] if c["type"] == "text"]
    named = named_text_column(table, noun)
    if named:
        return named
    filled = sorted((c for c in texts if c.get("values") or c.get("samples")),
                    key=lambda c: -len(c.get("values") or c.get("samples") or []))
    return filled[0]["name"] if filled else None


def _instantiate_values(question: str, periods: list[Period], tables: list[dict[str, Any]],
                        encoder: Any) -> tuple[str, dict[str, Any]] | None:
    """"Which routes did I ride in June?": the column's distinct values in scope, as groups
    counted (every group is listed), from the table the question's words fit best."""
    noun = lists_values(question, periods) or ""
    holders = [t for t in tables if named_text_column(t, noun)]
    if not holders:
        return None
    target = choose_table(encoder, question, periods, holders)
    table = next((t for t in holders if target and t["name"] == target.table), holders[0])
    group = named_text_column(table, noun)
    filters = period_filters(periods) + [f for f in subset_filters(question, periods, table, group) if f.get("column") != group]
    return "Compute", {"table": table["name"], "target": "*", "operator": "count", "group_by": group,
                       "order": "desc", "column_filters": filters}


def _instantiate_group(question: str, periods: list[Period], intent: Intent, tables: list[dict[str, Any]],
                       encoder: Any) -> tuple[str, dict[str, Any]] | None:
    """"Which station did I fill up at most often?", "Which month had my lowest average
    systolic?": Compute per group, ranked; the group is a column named like the question's
    noun, a calendar unit, else the table's text column of names."""
    m = _GROUP_MONTH.search(question) or _GROUP.search(question)
    noun = (m.group("noun") if m else "").lower().split()[0] if m else ""
    if intent.operator == "count":
        target = choose_table(encoder, question, periods, tables)
        column = "*"
    else:
        target = choose_target(encoder, question, periods, tables)
        column = target.column if target else None
    if target is None or target.score < MIN_COLUMN_SCORE:
        return None
    table = next(t for t in tables if t["name"] == target.table)
    if noun in _VIRTUAL_GROUPS:
        group = _VIRTUAL_GROUPS[noun]
    else:
        found = text_column(table, noun)
        if found is None:
            return None
        group = found
    filters = period_filters(periods) + [f for f in subset_filters(question, periods, table, column)
                                         if f.get("column") != group]
    return "Compute", {"table": table["name"], "target": column, "operator": intent.operator, "group_by": group,
                       "order": "asc" if intent.wants_less else "desc", "column_filters": filters}


def compare_sides(question: str, periods: list[Period], table: dict[str, Any]) -> list[tuple[list[dict[str, Any]], str]] | None:
    """The two things compared, each as (filters, label): two periods, or two text values of
    one column. The label is the question's own words for the side."""
    bounded = [p for p in periods if p.start or p.end]
    if len(bounded) == 1 and _RANGE_WORDS.match(bounded[0].phrase) and _TREND.search(question):
        # "rise or fall between February and April": February against April, not one span
        ends = [q for q in find_periods(re.sub(r"^(?:between|from)\s+", "", bounded[0].phrase, flags=re.I),
                                        bounded[0].end or bounded[0].start) if q.start]
        if len(ends) >= 2:
            bounded = ends[:2]
    if len(bounded) >= 2:
        return [([p.to_filter()], _phrase(p.phrase)) for p in bounded[:2]]
    named = []
    for c in table["columns"]:
        if c["type"] != "text":
            continue
        for value in c.get("values") or c.get("samples") or []:
            if re.search(rf"(?<![a-z0-9]){re.escape(str(value).lower())}(?![a-z0-9])", question.lower()):
                named.append(([{"column": c["name"], "op": "=", "value": value}], str(value)))
    if len(named) < 2:  # "paperbacks or ebooks": the stored values in other words
        for f in vocabulary_values(question):
            for c in table["columns"]:
                hit = next((v for v in c.get("values") or c.get("samples") or [] if c["type"] == "text"
                            and str(v).lower() == f.value.lower()), None)
                if hit is not None and all(hit != side[0][0]["value"] for side in named):
                    named.append(([{"column": c["name"], "op": "=", "value": hit}], question[f.start:f.end]))
                    break
    if len(named) >= 2:
        return named[:2]
    m = _EITHER.search(_mask(question, [p.span for p in periods]))
    if m and table.get("vocabulary"):
        sides = []
        for part in (m.group("a"), m.group("b")):
            found = mention_filters(part, [], table, whole=True)
            if found:
                sides.append((found[:1], part.strip()))
        if len(sides) == 2:
            return sides
    if len(bounded) == 1:  # "the first week of March or the second": the elided side is the next ordinal
        p = bounded[0]
        m = re.search(r"\bor\s+(?:in\s+)?(?:the\s+)?(first|second|third|fourth|last)(?:\s+(week|half))?\b", question, re.I)
        unit = re.search(r"\b(week|half)\s+(?:of|in)\s+(.+)$", p.phrase, re.I)
        if m and unit and p.end:
            phrase = f"the {m.group(1).lower()} {unit.group(1).lower()} of {unit.group(2)}"
            other = find_periods(phrase, p.end)
            if other and other[0].start:
                return [([p.to_filter()], _phrase(p.phrase)), ([other[0].to_filter()], phrase)]
    return None


_EITHER = re.compile(r"(?:\b(?:on|at|for|in|of|with)\s+)?(?:the\s+|my\s+)?(?P<a>[\w'’ -]{2,40}?)\s+or\s+(?:on\s+|at\s+|for\s+|in\s+|of\s+|with\s+)?"
                     r"(?:the\s+|my\s+)?(?P<b>[\w'’ ()-]{2,60}?)\s*\??$", re.I)


def _phrase(text: str) -> str:
    return re.sub(r"^(?:in|on|during)\s+", "", text.strip())


def _instantiate_day_of(step: int, question: str, periods: list[Period], tables: list[dict[str, Any]],
                        results: list[dict[str, Any]], encoder: Any) -> tuple[str, dict[str, Any]] | None:
    """"What was X on the day I slept the least?": find the day first, then read X on it."""
    m = _DAY_OF.search(question)
    if m is None:
        return None
    clause = m.group("clause")
    if step == 0:
        target = choose_target(encoder, clause, [], tables)
        if target is None or target.score < MIN_COLUMN_SCORE:
            return None
        order = "asc" if _MIN.search(clause) else "desc"
        return "Rank", {"table": target.table, "target": target.column, "order": order,
                        "column_filters": period_filters(periods), "result_budget": 1}
    days = [d for r in results for d in r.get("dates", [])]
    if not days:
        return None
    asked = question[: m.start()] + question[m.end():]
    target = choose_target(encoder, asked, [], tables)
    if target is None or target.score < MIN_COLUMN_SCORE:
        return None
    return "Compute", {"table": target.table, "target": target.column, "operator": "last",
                       "column_filters": [{"column": "date", "op": "=", "value": days[0]}]}


def reflect(results: list[dict[str, Any]], tools: tuple[str, ...]) -> dict[str, Any]:
    """Sufficient when some step produced evidence; otherwise fall back to retrieval once."""
    # a count or total of nothing is an answer ("0"); a missing average or maximum is not
    useful = any(r.get("units") and not r.get("error") and (r.get("value", 0) is not None or r.get("operator") in ("count", "sum"))
                 for r in results)
    tried_retrieval = any(r.get("tool") in ("EventLocate", "SemanticMatch") for r in results)
    if useful:
        return {"verdict": "sufficient", "reason": "the executed steps produced evidence"}
    if "EventLocate" in tools and not tried_retrieval:
        return {"verdict": "add_step", "goal": "find the rounds that talk about it", "tool": "EventLocate",
                "reason": "no analytic evidence; look in the conversation itself"}
    return {"verdict": "sufficient", "reason": "nothing more the available tools can add"}
