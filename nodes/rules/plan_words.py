"""A question's words, as every step of the offline planner reads them.

Intent detection, column matching and filters all look past the same things: the time phrases
(masked: the periods scope the records instead), comparisons with a quantity ("less than 6
hours": a condition, not a word about the column), stop and intent words, and the irregular
forms and abbreviations records and questions write differently ("slept" / ``sleep``, ``hr`` /
"heart rate"). "Which X ... most" (a group question) is read both by intent detection and by
table choice, so its phrases live here too.
"""

from __future__ import annotations

import re

from adamm.stores.bm25 import tokenize
from adamm.stores.quantities import canonical_unit, find_quantities
from adamm.stores.timeexpr import Period

#: Words that spell a unit but in a question are something else: a preposition ("runs *in*
#: March"), a letter, or a calendar word that counts or dates rows ("how many days").
_NOT_UNIT_WORDS = frozenset({"in", "m", "s", "d", "h", "min", "l", "g", "time", "times", "day", "days", "week",
                             "weeks", "month", "months", "year", "years", "night", "nights"})


def unit_word(word: str) -> str | None:
    """The unit a word of a question names ("hours", "kilo", "litres"), None for a word that only
    spells one (:data:`_NOT_UNIT_WORDS`)."""
    w = word.lower()
    if w in _NOT_UNIT_WORDS or (len(w) <= 1 and w not in "%€$£"):
        return None
    return canonical_unit(w)


#: Comparison phrases, and the operator of the filter each makes.
COMPARATORS = [
    (re.compile(r"\b(?:less|fewer|lower|shorter|smaller)\s+than\b|\bunder\b|\bbelow\b|\bbeneath\b", re.I), "<"),
    (re.compile(r"\b(?:more|greater|higher|longer|bigger|larger)\s+than\b|\bover\b|\babove\b|\bexceed(?:ing|ed)?\b", re.I), ">"),
    (re.compile(r"\bat\s+least\b|\bno\s+less\s+than\b|\bor\s+(?:more|higher|greater|above|longer|over)\b", re.I), ">="),
    (re.compile(r"\bat\s+most\b|\bno\s+more\s+than\b|\bor\s+(?:less|lower|fewer|below|shorter|under)\b|\bup\s+to\b", re.I), "<="),
]

#: Words that say what the question is about when names are abbreviated or implied by units.
UNIT_WORDS = {
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
ABBREVIATIONS = {"hr": "heart rate", "avg": "average", "bp": "blood pressure", "temp": "temperature", "dist": "distance",
                 "qty": "quantity", "amt": "amount", "hrv": "heart rate variability", "kcal": "calories", "bpm": "heart rate"}
#: Irregular forms, so "slept" finds the sleep column and "ran" the run table.
LEMMAS = {"slept": "sleep", "ran": "run", "spent": "spend", "paid": "pay", "swam": "swim", "rode": "ride", "ate": "eat",
          "drank": "drink", "drove": "drive", "bought": "buy", "weighed": "weigh", "walked": "walk", "goals": "score",
          "goal": "score", "points": "score"}
_STOP = set("""a an the my our me i we you your is was were are be been did do does have has had of on in at to for with by from across
and or what which when how many much times day days date dates that this it its there their they log logged record
recorded reading readings value values track tracked get got during per than over under less more ever all one""".split())
_INTENT_WORDS = set("""average avg mean typical total sum altogether combined overall median highest lowest most least max
maximum min minimum best worst longest shortest largest smallest biggest top peak greatest recent latest last first
earliest trend up down increase decrease go going went compare versus vs often number count which list
different distinct separate unique""".split())

#: "which store ... most often", "which month had my lowest average": values per group, ranked
#: The words that ask for a name ("my coach's *name*", "*the name of* the dog", "what is the
#: club *called*"): they say what kind of answer is wanted, not what it is about - searched for,
#: they find rounds about names in general ("I'm bad at remembering names").
ASKS_NAME = re.compile(r"(?<=['’]s)\s+name\b|\b(?:the\s+)?name\s+of\b|\s+called(?=\s*\?|\s*$)", re.I)
_GROUP_WHICH = re.compile(r"\bwhich\s+(?:of\s+(?:my|the|our|these|those|all\s+(?:my|the))\s+)?(?:kind\s+of\s+|type\s+of\s+)?(?!(?:day|days|date|dates|night|nights|time|times|one|of)\b)(?P<noun>[a-z][\w-]*)\b(?:(?!\bor\b).)*?\b(?:most(?!\s+recent)|least|"
                   r"highest|lowest|more|fewer|top|peak|max(?:imum)?|min(?:imum)?|biggest|smallest|largest|greatest)\b(?:\s+(?:often|frequently))?", re.I)
#: "what was my most common X": the X whose group holds the most records
_GROUP_COMMON = re.compile(r"\b(?:the|my|our)\s+most\s+(?:common|frequent|usual|popular|typical)\s+(?P<noun>[a-z][\w-]*)\b", re.I)


class FirstMatch:
    """Several wordings of one phrase, searched as one pattern: the first that matches (each
    names the same groups), since a regular expression cannot repeat a group name."""

    def __init__(self, *patterns: re.Pattern[str]) -> None:
        self.patterns = patterns

    def search(self, text: str) -> re.Match[str] | None:
        return next((m for p in self.patterns if (m := p.search(text))), None)


#: "Which X ... most / highest ...", "my most common X": a question about values per group.
GROUP = FirstMatch(_GROUP_WHICH, _GROUP_COMMON)
_GROUP_CALENDAR = re.compile(r"\bwhich\s+(?P<noun>month|week|weekday|day\s+of\s+the\s+week|year)\s+(?:had|has|was|did|saw|brought)\b"
                             r"(?:(?!\bor\b).)*$", re.I)
#: "which day did I log the most hours in total": a total per day, not the largest record
_GROUP_DAY_TOTAL = re.compile(r"\b(?:which|what)\s+(?P<noun>day|date)\b(?:(?!\bor\b).)*\b(?:most|least|fewest)\b"
                              r"(?:(?!\bor\b).)*\b(?:in\s+total|altogether|combined|all\s+told|all\s+together)\b", re.I)
GROUP_MONTH = FirstMatch(_GROUP_CALENDAR, _GROUP_DAY_TOTAL)
#: "Which month had the highest average threnn - March, April or May?": a calendar unit asked
#: about over the periods the question lists.
WHICH_CALENDAR = re.compile(r"\b(?:which|what)\s+(?P<noun>month|week|year)\b", re.I)


def mask(text: str, spans: list[tuple[int, int]]) -> str:
    """The text with the spans blanked out (same length: positions still hold)."""
    out = list(text)
    for a, b in spans:
        out[a:b] = " " * (b - a)
    return "".join(out)


def has_comparison(text: str) -> bool:
    """Does the text compare with a quantity ("less than 6 hours")?"""
    return any(p.search(text) for p, _ in COMPARATORS) and bool(find_quantities(text))


def strip_comparisons(text: str) -> str:
    """The text without its comparison words ("more than" is no "most")."""
    for pattern, _ in COMPARATORS:
        text = pattern.sub(" ", text)
    return text


def word_stem(word: str) -> str:
    """A word without its inflection, so question words meet column names ("readings" -> "read"),
    and without a final silent "e" on a longer stem, so a singular meets its plural ("coffee" /
    "coffees", "ride" / "rides"; "riding" still stems to "rid")."""
    stem = word
    for suffix in ("ings", "ing", "ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith("ss"):
                break  # "glass", "class": no plural
            if suffix == "es" and not word[:-2].endswith(("s", "x", "z", "ch", "sh", "o")):
                suffix = "s"  # "coffees", "rides": the plural of a word ending in "e"
            stem = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            if suffix in ("ings", "ing", "ed") and len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
                stem = stem[:-1]  # "running" / "shopped": the doubled consonant of the stem
            break
    return stem[:-1] if len(stem) > 4 and stem.endswith("e") else stem  # not "wine" -> "win"


def focus_words(question: str, periods: list[Period], named: list[str] | None = None) -> list[str]:
    """The question's content words: time phrases, comparisons, intent and stop words removed,
    and values named as filters ("against the Wolves") with their preposition."""
    text = strip_comparisons(mask(question, [p.span for p in periods]))
    for value in named or []:
        text = re.sub(rf"(?:\b(?:against|vs\.?|versus|at|on|from|with|to|for)\s+(?:the\s+)?)?(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])",
                      " ", text, flags=re.I)
    for _, _, q in find_quantities(text):
        text = text.replace(q.raw, " ")
    return [LEMMAS.get(w, w) for w in tokenize(text) if w not in _STOP and w not in _INTENT_WORDS and not w.isdigit()]
