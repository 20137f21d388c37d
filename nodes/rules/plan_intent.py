"""What a question asks, read the way the tools are organized: the intent decides
the tool and operator.

average / total / median / count -> Compute; highest / lowest -> Compute max / min (Rank when
the question asks *which day*); most recent / first -> Compute last / first; "which days ...
less than" -> Filter; "A or B" -> two Computes; "go up or down" -> Compute trend; anything else
-> EventLocate. The phrases that tell an intent (which day, the extreme, the plural noun whose
values are listed, the predicate of a share) are read again when the steps are instantiated.

Intents past the paper's, each because a question of the development sets asks it and no
combination of the above answers it:

* "what share of my rides were commutes" -> Compute share with the condition;
* "which station most often", "which month had the lowest average", "the most sessions" ->
  Compute group_by (a column, or month / day / weekday / year), counting groups when the noun
  is the records themselves;
* "did it rise or fall between February and April" -> the two periods compared, answered
  increased / decreased; "did I run more kilometres in March or April" -> their totals compared;
* "net change", "how much did my weight change since I started" -> Compute delta (last - first);
* "which routes did I ride that week" -> the column's distinct values; "on which route was my
  slowest ride", "which team did we play last" -> the named column of the extreme or latest row;
* "go up or down" -> Compute trend, a least-squares slope (robust to one odd first or last value);
  "on the day I slept the least, ..." -> Rank, then a Compute bounded by the day it found;
* a value the question compares with but does not state ("more power than the cap my coach
  set") is found by EventLocate first and becomes the filter value; a question about a fact
  said once ("my reading goal") goes to retrieval, since no table's records talk about it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from adamm.nodes.rules.plan_columns import called_text_column, named_text_column, names_column, names_measured_column
from adamm.nodes.rules.plan_events import event_bound, stated_fact
from adamm.nodes.rules.plan_filters import value_filters
from adamm.nodes.rules.plan_words import (
    GROUP,
    GROUP_MONTH,
    LEMMAS,
    UNIT_WORDS,
    WHICH_CALENDAR,
    FirstMatch,
    focus_words,
    has_comparison,
    mask,
    strip_comparisons,
    unit_word,
    word_stem,
)
from adamm.stores.quantities import canonical_unit, dimension_of
from adamm.stores.timeexpr import Period, find_periods

_MORE_LESS = (r"(?:more|less|higher|lower|better|worse|fewer|longer|shorter|bigger|smaller|greater|heavier|lighter|faster|slower"
              r"|cheaper|pricier|costlier|warmer|colder|hotter|cooler)")
#: A change over time asked for: "go up or down", "rise or fall", "grow or shrink", and any two
#: opposite comparatives side by side ("got longer or shorter", "heavier or lighter").
TREND = re.compile(r"\b(trend\w*|go(?:ing|ne)?\s+up\s+or\s+down|went\s+up\s+or\s+down|up\s+or\s+down|increas\w*\s+or\s+decreas\w*|"
                   r"decreas\w*\s+or\s+increas\w*|improv\w*\s+or\s+(?:get|got|gotten)\s+worse|ris\w*\s+or\s+f[ae]ll\w*|"
                   r"gr[eo]w\w*\s+or\s+shr[iau]nk\w*|shr[iau]nk\w*\s+or\s+gr[eo]w\w*|"
                   rf"(?:got|get|gotten|getting|become|became|grown)\s+{_MORE_LESS}\s+or\s+{_MORE_LESS})\b", re.I)
_COMPARE = re.compile(rf"\b(?:{_MORE_LESS}\b.*\bor\b|compare\w*|versus|vs\.?|(?:which|what)\s+(?:was|is|were)\s+{_MORE_LESS}"
                      rf"|(?:are|were|is|was|did|do)\s+(?:my\s+|the\s+)?\S.*\bor\s+(?!{_MORE_LESS}\b)\S.*\b{_MORE_LESS}\b)", re.I)
# ... and "are my X or my Y longer", not "50 pages or more" (a threshold)
_COUNT = re.compile(r"\b(how\s+many|how\s+often|number\s+of|count\s+of|how\s+many\s+times)\b"
                    r"|^\W*(?:please\s+)?count\b|\bcount\s+(?:up\s+)?(?:my|the|all|every|each|how)\b", re.I)
_AVERAGE = re.compile(r"\b(average|avg|mean|typical(?:ly)?|per\s+day|on\s+a\s+typical)\b", re.I)
_MEDIAN = re.compile(r"\bmedian\b", re.I)
_SUM = re.compile(r"\b(total|in\s+total|altogether|combined|sum|overall|add(?:s|ed)?\s+up|added\s+together|how\s+much\s+(?:did|does|has|have)\s+(?:[\w-]+\s+){0,3}cost|what\s+did\s+(?:i|we)\s+(?:pay|spend)\s+(?:for|on)|how\s+much\s+(?:did|have|had)\s+(?:i|we)\s+(?:spend|spent|pay|paid|earn|earned|run|ran|walk|walked|cycle|cycled|drive|drove))\b", re.I)
#: "net change", "how much did my weight change (since I started)", "how much weight did I lose":
#: the last value minus the first (Compute delta), over one period at most.
_DELTA = re.compile(
    r"\bnet\s+(?:change|gain|loss)\b|\b(?:change[ds]?|difference)\s+(?:since|from\s+(?:the\s+)?(?:first|start|beginning))\b"
    r"|\bhow\s+much\s+(?:did|has|have|had)\s+(?:my\s+|the\s+|our\s+)?(?:[a-z-]+\s+){0,3}?"
    r"(?:change[d]?|drop(?:ped)?|rise[n]?|rose|go(?:ne)?\s+(?:up|down)|went\s+(?:up|down)|fall(?:en)?|fell|increase[d]?|decrease[d]?|improve[d]?)\b"
    r"|\bhow\s+much\s+(?:[a-z]+\s+)?(?:did|have|had)\s+(?:i|we)\s+(?:lose|lost|gain|gained|drop|dropped|put\s+on(?!\s+(?:the|a|an|my|his|her|their|our|some|each|every)\b))\b", re.I)
#: "how many kilos did I put on": a change in that unit (a count of games lost is no change)
_DELTA_UNIT = re.compile(r"\bhow\s+many\s+(?P<u>[a-z]+)\s+(?:did|have|had)\s+(?:i|we)\s+(?:lose|lost|gain|gained|put\s+on)\b"
                         r"(?!\s+(?:the|a|an|my|his|her|their|our|some|each|every)\b)", re.I)


def _asks_delta(text: str) -> bool:
    m = _DELTA_UNIT.search(text)
    return _DELTA.search(text) is not None or (m is not None and canonical_unit(m.group("u").lower()) is not None)


_WHICH_DAY = re.compile(r"\b(?:(?:which|what)\s+(?:day|date|night|morning|evening)|on\s+which\s+day|when)\b", re.I)
_WHICH_DAYS = re.compile(r"\b(?:(?:which|what)\s+(?:days|dates|nights)|on\s+which\s+days|list\s+(?:the\s+)?days)\b", re.I)
_FIRST = re.compile(r"\b(first|earliest)\b", re.I)
MAX = re.compile(r"\b(highest|most|max(?:imum)?|best|longest|largest|biggest|top|peak|greatest|farthest|furthest|heaviest|fastest|quickest|warmest|hottest|record)\b", re.I)
MIN = re.compile(r"\b(lowest|least|min(?:imum)?|worst|shortest|smallest|fewest|lightest|slowest|weakest|cheapest|coldest)\b", re.I)
DAY_OF = re.compile(r"\bon\s+the\s+(?:day|night)\s+(?:when\s+|that\s+)?(?:i|my|we)\b(?P<clause>[^,?]*)", re.I)


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
    text = re.sub(r"\s(?:vs\.?|versus)\s", " or ", mask(question, [p.span for p in periods]), flags=re.I)  # "A vs B": two sides
    text_nc = strip_comparisons(text)
    named = [f for t in tables or [] for f in value_filters(question, t)]
    value_named = bool(named)
    wants_less = bool(re.search(r"\b(less|lower|fewer|worse|shorter|smaller)\b", text, re.I))
    bound = event_bound(question, periods)
    probe = question[:bound.start()] + question[bound.end():] if bound else question  # "since my GP raised the dose, ..."
    if tables and _about_something_else(probe, find_periods(probe, None) if bound else periods, tables):
        return Intent("retrieve")
    if DAY_OF.search(text):
        return Intent("day_of")
    if _SHARE.search(text) and (SHARE_SPLIT.search(text) or re.search(r"\bwin\s+rate\b", text, re.I)):
        return Intent("share", "share")  # "what share of my rides were commutes", not "what % was in range"
    # "which crops have I picked from the top bed": a stored value ("top bed") is no extreme
    listed = lists_values(without_values(question, named), periods)
    if listed and any(called_text_column(t, listed) or names_column(t, listed) for t in tables or []):
        return Intent("values", "count")  # "which routes did I ride that week": the distinct values
    two_sides = " or " in f" {text.lower()} " and (
        len([p for p in periods if p.start or p.end]) >= 2 or _COMPARE.search(text) or re.search(r"\b\w{3,}er\b", text))
    group = None if two_sides else (GROUP.search(text) or GROUP_MONTH.search(text))
    if group is None and len([p for p in periods if p.start or p.end]) >= 3:
        group = WHICH_CALENDAR.search(text)  # "which month ... - March, April or May": one value per month
    if group:
        low = text.lower()
        counted = re.search(r"\b(?:most|fewest|least)\s+(?:[a-z-]+\s+){0,4}?(?P<noun>[a-z-]+s)\b", low)
        counted_records = counted is not None and not _names_a_quantity(counted.group("noun"), tables or [])
        # "the most hours", "the fewest pages": a quantity named after most / fewest adds up
        most_of_quantity = counted is not None and not counted_records
        op = "count" if (re.search(r"\b(?:often|frequently|times|common|usual|popular)\b", low) or counted_records) and not _AVERAGE.search(text) else (
            "avg" if _AVERAGE.search(text) or re.search(r"\bon\s+average\b", low) else "sum" if (
                _SUM.search(text) or re.search(r"\bcost\b|\bspen[dt]\b", low) or most_of_quantity) else "avg")
        least = bool(re.search(r"\b(least|lowest|fewest|smallest|shortest|slowest|cheapest|weakest|worst|min(?:imum)?)\b", low))
        return Intent("group", op, wants_less=least)
    if _asks_delta(text) and len([p for p in periods if p.start or p.end]) < 2 and " or " not in f" {text.lower()} ":
        return Intent("compute", "delta")
    if TREND.search(text):
        if len([p for p in periods if p.start or p.end]) >= 2 or any(RANGE_WORDS.match(p.phrase) for p in periods):
            op = "sum" if re.search(r"\b(?:in\s+total|total|weekly|monthly|per\s+(?:week|month)|number\s+of|how\s+much)\b", text, re.I) else "avg"
            number_of = re.search(r"\bnumber\s+of\s+(?:my\s+|the\s+)?([a-z-]+)", text, re.I)
            if number_of and not _names_a_quantity(number_of.group(1), tables or []):
                op = "count"  # "the number of tendings": records, counted; "the number of hours" is a total
            return Intent("compare", op, trend=True)
        return Intent("trend", "trend")
    if (_COMPARE.search(text) or len([p for p in periods if p.start or p.end]) >= 2) and " or " in f" {text.lower()} ":
        more_of = re.search(r"\b(?:more|less|fewer)\s+([a-z]+)", text, re.I)
        op = "count" if _COUNT.search(text) or re.search(r"\bmore\s+often\b", text, re.I) else (
            "sum" if _SUM.search(text) or re.search(r"\bspen[dt]\b", text, re.I)
            or (more_of and canonical_unit(more_of.group(1).lower()) and not _AVERAGE.search(text)) else "count" if (
                more_of and not _AVERAGE.search(text) and _counts_records(more_of.group(1), tables or [])) else "avg")
            # "did I run more kilometres in March or April": the totals
        return Intent("compare", op, wants_less=wants_less)
    if _WHICH_DAYS.search(text) and (has_comparison(text) or value_named or stated_fact(question)):
        return Intent("filter_days")
    extreme_of_average = _EXTREME_AVERAGE.search(text)
    latest = is_latest(text_nc)
    if _AVERAGE.search(text) and not extreme_of_average and not latest:
        return Intent("compute", "avg")
    if _MEDIAN.search(text):
        return Intent("compute", "median")
    many = re.search(r"\bhow\s+many\s+(\w+)(?:\s+(\w+))?", text, re.I)
    counted = many.group(1) if many else ""
    if many and many.group(2) and not _names_a_quantity(counted, tables or []) \
            and dimension_of(unit_word(many.group(2))) not in (None, "count"):
        counted = many.group(2)  # "how many billable hours": the hours, summed
    if counted and _names_a_quantity(counted, tables or []) and not latest:
        return Intent("compute", "sum")
    of = re.search(r"\bhow\s+many\s+(\w+)\s+of\s+(?:my\s+|the\s+)?(\w+)", text, re.I)
    if of and not latest and LEMMAS.get(of.group(1).lower(), of.group(1).lower()) not in _ROW_WORDS \
            and any(names_measured_column(t, LEMMAS.get(of.group(2).lower(), of.group(2).lower())) for t in tables or []):
        return Intent("compute", "sum")  # "how many pips of skep": the skep, summed in its unit
    if _COUNT.search(text) and not (latest and counted and _names_a_quantity(counted, tables or [])):
        return Intent("compute", "count")  # "how many stars did I give the last book": the latest value
    asks_day = bool(_WHICH_DAY.search(text))
    which = WHICH_NOUN.search(text_nc)
    if which and (MAX.search(text_nc) or MIN.search(text_nc)) and not latest and any(
            named_text_column(t, which.group("noun")) or names_column(t, which.group("noun")) for t in tables or []):
        # "on which route did I ride my slowest average speed": the extreme row, told by its route
        return Intent("rank", "max" if MAX.search(text_nc) else "min")
    if latest:
        return Intent("rank" if asks_day else "compute", "last", asks_day=asks_day)
    if _FIRST.search(text_nc):
        return Intent("rank" if asks_day else "compute", "first", asks_day=asks_day)
    if MAX.search(text_nc):
        return Intent("rank" if asks_day else "compute", "max", asks_day=asks_day)
    if MIN.search(text_nc):
        return Intent("rank" if asks_day else "compute", "min", asks_day=asks_day)
    if _SUM.search(text):
        return Intent("compute", "sum")
    if _WHICH_DAYS.search(text) or (asks_day and (has_comparison(text) or value_named)):
        return Intent("filter_days")
    if re.search(r"\bhow\s+(?:much|far|long)\b.*\b(?:use|used|spend|spent|consume|consumed|burn|burned|burnt|drink|drank|"
                 r"drive|drove|run|ran|walk|walked|ride|rode|cycle|cycled|read|swim|swam)\b"
                 r"|\bhow\s+much\s+(?:\w+\s+)?time\b"
                 r"|\bhow\s+much\s+(?!did\b|do\b|does\b|have\b|had\b|was\b|is\b)[a-z-]+\s+(?:did|have|had)\s+(?:i|we)\b", text, re.I) \
            and any(p.start and p.end and p.start != p.end for p in periods):  # time adds up, whatever was done with it
        return Intent("compute", "sum")  # "how much electricity did I use in February": all of it
    if any(p.start and p.start == p.end for p in periods) or re.search(r"\bhow\s+(much|long|far|many)\b", text, re.I):
        return Intent("lookup", "last")
    return Intent("retrieve")


#: "which route / team / station ...": the noun whose column the answer is read from
WHICH_NOUN = re.compile(r"\b(?:which|what)\s+(?P<noun>(?!(?:day|date|days|dates|month|week|year|time)\b)[a-z][\w-]*)\b", re.I)
_VALUES = re.compile(r"\b(?:(?:which|what)\s+(?:of\s+(?:the|my)\s+)?(?:different\s+|distinct\s+|unique\s+|other\s+)?"
                     r"(?P<noun>(?!(?:days|dates|months|weeks|years|times|nights)\b)[a-z][\w-]*s)\s+(?:did|do|have|had|were|was|"
                     r"show(?:ed)?\s+up|show(?:ed)?|appear(?:ed)?|came\s+up|come\s+up|turn(?:ed)?\s+up|are|occur(?:red)?)\b"
                     r"|\blist\s+(?:every|each|all(?:\s+the|\s+my)?|the|my)\s+(?:different\s+|distinct\s+|unique\s+)?"
                     r"(?P<noun2>(?!(?:days?|dates?|months?|weeks?|years?|times?|nights?)\b)[a-z][\w-]*))", re.I)
_SHARE = re.compile(r"\b(?:what|which)\s+(?:share|percentage|percent|proportion|fraction|part)\b|\bwin\s+rate\b"
                    r"|\bhow\s+(?:many|much)\s+percent", re.I)
RANGE_WORDS = re.compile(r"^(?:between|from)\b", re.I)
_FACT_WORDS = re.compile(r"\b(?:goal|target|cap|limit|allowance|budget|tank|dose|appointment|name|called|model|brand|club|"
                         r"policy|insurance|coach|doctor|gp|dietitian|employer|advice|told|recommend\w*|set\s+as)\b", re.I)
_GENERIC = set("""across spend spent time times take took get got make made have overall logged log record records total
value values number amount long much many often ever each every single whole altogether rise fall rose fell went go up down
increase increased decrease decreased higher lower more less month months week weeks weekly monthly day days year pay paid
apart including included""".split())


def is_latest(text: str) -> bool:
    """"most recent", "latest", "the / my last X", "when did I last": the newest record. "last" as
    a verb ("how long did my sessions last") or a period ("last week") is not."""
    if re.search(r"\b(?:most\s+recent(?:ly)?|latest|recently)\b", text, re.I):
        return True
    if re.search(r"\b(?:did|do|have)\s+(?:i|we)\s+\w+\s+last\s*(?:[?.!,]|$|during\b|in\b|on\b|at\b)", text, re.I):
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
    if len(focus) < 2 or _COMPARISON_WORDS.search(mask(question, [p.span for p in periods])):
        return False
    if not _FACT_WORDS.search(question):
        return False  # only a question about a stated fact (a goal, a cap, someone's advice) leaves the tables
    best = 0.0
    for t in tables:
        known = {word_stem(w) for c in t["columns"] for n in [c["name"], *(c.get("aliases") or [])] for w in n.split("_")}
        for c in t["columns"]:  # "pressure" for mmHg, "time" for a duration: what the unit measures
            dim = (dimension_of(c.get("unit")) or "").split(":")[0]
            known |= {word_stem(w) for w in [dim, *UNIT_WORDS.get(dim, "").split()] if w}
        known |= {word_stem(str(v).lower()) for c in t["columns"] for v in c.get("values") or []}
        vocab = t.get("vocabulary") or {}
        stems = {word_stem(k) for k in vocab}
        said = [w for w in focus if word_stem(w) in known or word_stem(w) in stems or vocab.get(w) or vocab.get(word_stem(w) + "e")]
        best = max(best, len(said) / len(focus))
    return best < 0.5


_EXTREME_AVERAGE = re.compile(r"\b(?:highest|lowest|best|worst|max(?:imum)?|min(?:imum)?|peak|top|weakest|strongest|fastest|slowest)\s+(?:average|avg|mean)\b", re.I)


def _counts_records(word: str, tables: list[dict[str, Any]]) -> bool:
    """"more *praiting* sessions in March or April": the word after "more" names the records
    (a word of a table's name), not one of their numeric columns - the sides are counts."""
    stem = word_stem(LEMMAS.get(word.lower(), word.lower()))
    if stem in ("often", "than", "time") or canonical_unit(word.lower()) is not None:
        return False
    numeric = {word_stem(w) for t in tables for c in t["columns"] if c["type"] in ("int", "float")
               for n in [c["name"], *(c.get("aliases") or [])] for w in n.lower().replace(" ", "_").split("_")}
    if stem in numeric:
        return False
    named = {word_stem(w) for t in tables for w in re.split(r"[_\s]+", f"{t.get('name', '')} {t.get('description', '')}".lower()) if w}
    said = any((t.get("vocabulary") or {}).get(word.lower(), 0) >= 2 for t in tables)  # the rows' own word for themselves
    return stem in named or said


#: Words that count rows however they are followed ("how many days ...", "how many days of rain").
_ROW_WORDS = frozenset({"times", "time", "days", "day", "nights", "weeks", "months", "years", "d", "wk"})


def _names_a_quantity(word: str, tables: list[dict[str, Any]]) -> bool:
    """"minutes", "kilometers", "dollars", or a numeric column's own word ("lows", "goals")."""
    w = LEMMAS.get(word.lower(), word.lower())
    if w in _ROW_WORDS:
        return False  # "how many days ..." counts rows
    if canonical_unit(w) is not None:
        return True
    if any(str(c.get("unit") or "").lower() in (w, w.rstrip("s")) for t in tables for c in t["columns"] if c.get("unit")):
        return True  # "pelts": the unit the memory coined for a column
    # a column counted by its own word ("lows", "goals" -> score_for); a column measured in a
    # unit (run_time [min]) is summed by the unit's word instead, so "how many runs" counts rows
    stem = word_stem(w)
    return any(stem in {word_stem(x) for x in c["name"].split("_")} for t in tables for c in t["columns"]
               if c["type"] in ("int", "float") and dimension_of(c.get("unit")) in (None, "count"))


_SHARE_NOUN = r"(?:share|percentage|percent|proportion|fraction|part)"
_SHARE_VERB = r"(?P<verb>were|was|had|did|showed|came|went|took|happened|fell|landed|got|ended|used|found|saw|made|kept|felt|became|ran|turned)"
_AS_PERCENT = r"(?:\s*,?\s*\(?\s*(?:as\s+a\s+percentage|in\s+percent|as\s+a\s+percent|in\s+%)\s*\)?)?"
_SHARE_BACK = re.compile(rf"\b{_SHARE_NOUN}\s+of\s+(?P<scope>.*?)\s+{_SHARE_VERB}\s+(?P<pred>.+?){_AS_PERCENT}\W*$", re.I)
#: "Of all my batches, what fraction were Rembai?": the population first
_SHARE_FRONT = re.compile(rf"\bof\s+(?P<scope>(?:all\s+)?(?:my|the|our|those|these)\b[^,]*?)\s*,\s*(?:what|which)\s+{_SHARE_NOUN}\s+"
                          rf"(?:of\s+them\s+)?{_SHARE_VERB}\s+(?P<pred>.+?){_AS_PERCENT}\W*$", re.I)


#: The population, verb and predicate of a share question, in either order.
SHARE_SPLIT = FirstMatch(_SHARE_BACK, _SHARE_FRONT)


def without_values(question: str, named: Iterable[dict[str, Any]]) -> str:
    """The question with the stored values it names (``named``: its value filters) blanked out
    (same length, so time-phrase spans still hold)."""
    out = question
    for f in named:
        for v in (f["value"] if isinstance(f["value"], list) else [f["value"]]):
            out = re.sub(re.escape(str(v)), lambda m: " " * len(m.group(0)), out, flags=re.I)
    return out


def lists_values(question: str, periods: list[Period]) -> str | None:
    """"Which routes did I ride ...?", "At which stations did I fill up ...?": the plural noun
    whose distinct values the question lists (None for "which route did I ride most")."""
    text = mask(question, [p.span for p in periods])
    text_nc = strip_comparisons(text)
    m = _VALUES.search(text_nc)
    if m is None or MAX.search(text_nc) or MIN.search(text_nc) or _COUNT.search(text) or is_latest(text_nc):
        return None
    return m.group("noun") or m.group("noun2")
