"""The offline (``rules``) extractor: grounded attribute-value observations from one round.

What it reads: the user text, the assistant text, every image caption, the OCR text of the
images (when given) and the round's scalar metadata. What it returns: :class:`Draft`
observations - an attribute name (snake_case, as written: synonyms are merged later against the
memory's known attributes), a value (a number with its canonical unit, or a short text), the
exact source text of the pair and a provenance span, and the day the value is about when the
text says so.

Precision over recall. Observations that recur across rounds become SQL tables, so a junk
attribute costs more than a missed one. The extractor therefore says nothing unless a value is
*labelled*:

* **records** - ``key: value``, ``key = value``, ``key value [unit]`` in a list of such pairs
  separated by ``·`` ``•`` ``|`` ``;`` tabs, newlines or commas, a label line followed by a value
  line (OCR of a dashboard tile; a unit alone on the next line joins the value), a ``| label |
  value |`` table row. Here a plain number is fine (``Score 82``) and, after a colon, a short
  categorical value (``Weather: rainy``, at most 4 words), a date (``due: 2025-04-01``) or a
  time of day (``Bedtime: 11:40 pm`` -> ``23:40``). ``BP 128/82`` gives ``bp_systolic`` and
  ``bp_diastolic``. A few labels of categorical fields take a word value with no colon
  (``Category groceries · Merchant Whole Foods``, ``Result won``, ``Opponent Wolves``), and
  ``Score 2-1`` gives ``score_for`` / ``score_against``.
* **prose** - a sentence that is not a record. Only values *with a unit* count, and only in
  these forms: ``key value unit`` (``resting HR 54 bpm``), a copula (``my weight was 72 kg``,
  ``a capacity of 30 L``, ``my HRV dropped to 32 ms``), ``value unit [of] key`` (``6.5 hours
  of sleep``, ``82% time in range``, ``1,250 kcal burned`` -> ``calories_burned``, ``178 cm
  tall`` -> ``height``, ``34 years old`` -> ``age``), a logging verb (table below), a game
  result. Plain numbers only after a score-like key (``my score was 82``); money only after a
  money word (``budget``, ``cost``, ``total`` ...: "Herschel Backpack $55" names no attribute).
  Spelled-out numbers (``seven hours``) only after a logging verb. A payment followed by "at /
  to <Capitalized Name>" adds ``merchant``; "Evening run: 6.2 km in 35 min" adds
  ``evening_run_time``; a bare count of a noun ("... and 2 lows") only in a sentence that holds
  two other values (never "I have 2 eggs"); "I have 200 g of flour" (possession) is no value.

  A prose sentence says nothing when it is a question (``?``, or opens with how / what / should
  I ...), when it is hedged, habitual, conditional, advisory or negated (should, can, if, maybe,
  usually, every, per, a day, at least, not ... - general advice and plans are not
  observations), and, in the assistant's text, unless it talks about the user (you / your):
  the assistant restating "you slept 6 h 45 min" is an observation, an essay on baking
  temperatures is not.

Logging verbs (a deliberately small map; the attribute depends on the value's dimension):

==========================  ===============================================================
verb                        attribute
==========================  ===============================================================
slept / napped              ``sleep`` / ``nap`` (duration)
ran, jogged                 ``run_distance`` (distance), ``run_time`` (duration); a later
                            "in 28:30" adds ``run_time`` read as m:ss
walked / hiked / cycled,    ``walk_*`` / ``hike_*`` / ``ride_*`` / ``swim_*`` / ``drive_*``;
biked, rode / swam / drove  ``walked 10,523 steps`` -> ``steps``; "did a run: 5 km", "went
                            for a walk: 3 km" read like the verb
spent / paid                ``amount`` (money) plus ``category`` from "on X" / "for X";
                            ``spent 2 h`` -> ``time_spent``
earned                      ``earned`` (money)
weighed, weigh(s)           ``weight`` (mass)
lost / gained               ``weight_lost`` / ``weight_gained`` (mass)
scored                      ``score`` (plain number, points or %); ``scored 3 goals`` ->
                            ``goals``
burned, burnt               ``calories_burned`` (energy)
meditated / studied /       ``meditation`` / ``study_time`` / ``practice_time`` /
practiced / worked out      ``workout`` (duration)
==========================  ===============================================================

Game results: ``won`` / ``beat`` / ``victory`` -> ``result=won``, ``lost`` / ``defeat`` ->
``lost``, ``drew`` / ``tied`` / ``draw`` -> ``draw``, with ``score_for`` / ``score_against``
(the winner's score is the larger one, whatever order it is written in: "we lost 2-0" is 0-2)
and ``opponent`` (after against / vs / versus / over / to / beat).

Label clean-up: leading articles and possessives go (``my``, ``the``, ``today's`` - the last
one also dates the value), abbreviations stay (``avg``), a unit in parentheses (``Total sleep
(h)``) becomes the value's unit when the value has none. A key longer than 4 words or 48
characters, a key that is only a stopword, pronoun or verb, an ordinal label with a plain
number (``Step 2``, ``Chapter 3``), a bare year in prose, a list marker (``1.``), a clock time
of day (``at 7:30``, ``7 pm``), a range (``15-20 minutes``) and a hyphenated adjective
(``a 30-minute walk``) are all rejected.

Dates: ``observed_at`` is set when the text names the day the value is about - an explicit date
(``Sleep for Mar 4``, ``2025-03-04``, ``3/4/2025`` (US order unless the first part is > 12),
``4 March``), or a relative one resolved against the round time (``yesterday``, ``this
morning``, ``today``, ``tonight``, ``3 days ago``, ``on Monday`` / ``last Monday`` = the latest
such day on or before / strictly before the round; ``last night`` is the night before the
round: the day before, except for sleep - a night's sleep is dated by the day one wakes up, as
sleep apps and :mod:`adamm.devset` do, so "last night I slept 6 h" is the round's day). A
pair takes the date of its own sentence, else of the nearest earlier header (a sentence or line
with a date and no values), else the only date of the text; a date heading a record ("Apple
Watch Sleep: Mar 4, 2025 · Time asleep 7 h ...") is its day, not a value. Image and assistant
values with no date take the only date of the user's text ("Here's yesterday's sleep" + a
dashboard screenshot). A date without a year takes the round's year (the year before when that
would put it more than two days after the round).

Speed (``python -m adamm.nodes.rules.extractor`` measures it; CPU time, one core of a shared
machine that runs a plain 10M-iteration Python loop in 0.87 s): about 7,000 rounds/s on the
2,775 Mem-Gallery rounds (0.14 ms a round - prose without a digit or a colon leaves after two
regex scans) and about 1,700 rounds/s on dense synthetic rounds (a caption with 8 dashboard
values, a log line with 3 more and a reply: 0.6 ms a round).

Measured quality: on the 2,775 Mem-Gallery rounds (conversation about baking, travel, tech
...) 7 rounds yield 10 drafts (``budget`` x4 from "my budget is around $300", a battery app's
``design_capacity`` / ``current_capacity``, a caption's ``math`` / ``science`` / ``stem`` scores,
``incoming_energy`` 100%); on :mod:`adamm.devset` (seeds 0-8) every logged value but the
ambiguous "Score 1 · Score 2" renderings is found with its observed day, and its chatter
rounds yield nothing.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache

from adamm.stores.quantities import (
    Quantity,
    _snake_full,
    canonical_unit,
    dimension_of,
    find_quantities,
    parse_quantity,
    snake_case,
)
from adamm.stores.records import Round

__all__ = ["Draft", "extract_round", "extract_text"]


@dataclass
class Draft:
    """One observation before canonicalization against the memory's known attributes."""

    attribute: str  #: snake_case name, as written (no synonym merging here)
    value_num: float | None
    value_text: str | None  #: categorical values ("won", "rainy"), ISO dates, or no number
    unit: str | None  #: canonical unit symbol (see :mod:`adamm.stores.quantities`)
    dimension: str | None  #: "duration", "currency:USD", "date", "time_of_day", ...
    raw: str  #: the source text of the whole pair, e.g. "Deep sleep: 1 h 10 min"
    source: str  #: "user_text[12:31]", "image:<id>[5:30]", "ocr:<id>[..]", "metadata:<key>"
    observed_at: date | None = None  #: the day the value is about, when the text says so


# -- vocabulary ---------------------------------------------------------------------------

_DETERMINERS = frozenset("""a an the my your our his her their its this that these those
today's yesterday's tonight's todays yesterdays one's""".split())
_DAY_POSSESSIVE = {"today's": 0, "todays": 0, "tonight's": 0, "yesterday's": -1, "yesterdays": -1}
_PREPOSITIONS = frozenset("""at in on of for with by from to into onto over under about around after
before during since until till than via per within without between among through across above
below near like as vs vs. versus against upon toward towards along beside besides off out up
down""".split())
_CONJUNCTIONS = frozenset("and or but so if because while when then whether nor yet though although".split())
_PRONOUNS = frozenset("""i me you he she it we they him us them myself yourself ourselves themselves
there here who whom what which whose that this these those it's i'm i've i'd i'll you're you've
we're we've they're he's she's that's there's what's mine yours ours theirs someone something
anyone anything everyone everything nobody nothing""".split())
_AUX_VERBS = frozenset("""is are was were be been being am 's has have had having do does did done
get gets got gotten getting can could will would shall should may might must need needs needed
want wants wanted feel feels felt think thinks thought know knows knew see sees saw seen say
says said go goes went gone going take takes took taken make makes made give gives gave given
put keep keeps kept let lets try tries tried use uses used show shows showed shown showing
display displays displayed displaying read reads reading include includes included including
contain contains contained containing feature features featured featuring list lists listing
label labeled labelled titled mark marks marked indicate indicates indicating reach reached
hit hits buy bought sell sold bring brought find found came come comes become became seem
seems seemed look looks looked looking add adds added adding set sets bake bakes baking
preheat cook cooks cooking heat heats mix mixes stir cut cuts boil fry roast grill cool chill
freeze store leave leaves left wait rest pour place spread whip whisk knead fold sift beat
serve serves served pays lasts lasted last reach reaches ate eat eats drank drink drinks play
plays played""".split())
_QUANT_WORDS = frozenset("""about around approximately approx approx. roughly nearly almost only
just least most more less some all each every any no not both few many much several another
other such very too also even still again ever never always already ~ over under extra plus
minus""".split())
_TIME_WORDS = frozenset("""today yesterday tonight tomorrow now then later earlier ago soon
recently currently monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu
thur thurs fri sat sun weekend weekday""".split())
_HEDGE_WORDS = frozenset("""maybe perhaps probably possibly usually typically generally normally often
sometimes ideally really actually basically definitely likely unlikely roughly literally
honestly""".split())
_NUMBER_WORDS = frozenset("""zero one two three four five six seven eight nine ten eleven twelve
twenty thirty forty fifty sixty hundred thousand million billion half quarter dozen
first second third""".split())
_COMPARATIVES = frozenset("""longer shorter faster slower higher lower heavier lighter earlier later
more less fewer bigger smaller better worse older younger warmer colder cheaper away long late
early straight overall each apiece total extra ahead behind back complete completed done full
empty correct accurate chance likely sure certain off new old free cheaper faster""".split())
#: Hard stops: a key never contains these words, and a key-before scan stops at them.
_KEY_STOP = (_PREPOSITIONS | _CONJUNCTIONS | _PRONOUNS | _AUX_VERBS | _QUANT_WORDS | _TIME_WORDS
             | _NUMBER_WORDS | _HEDGE_WORDS | frozenset({"not", "no", "n't", "yes", "ok", "okay", "please",
                                          "thanks", "thank", "hi", "hello", "well", "oh", "wow"}))
#: Words ending in -ed that are not verbs.
_ED_NOUNS = frozenset("speed bed red hundred sacred kindred naked wicked beloved shed seed need "
                      "feed bleed weed deed breed greed shred sled".split())
#: Labels that number things rather than measure them: "Step 2", "Chapter 3", "Fig 7".
_ORDINAL_LABELS = frozenset("""step part chapter section item no no. nr number num question q
page day week month year round level phase stage lesson unit fig fig. figure table slide option
tip episode season volume vol issue version v gate room floor row seat line class session test
task exercise problem example note rule point reason method way track lane bus route platform
terminal door apartment apt building block plot grid group team player hole court channel
aisle box case bay zone tier rank image img photo picture pic screenshot shot frame clip video
slide panel tab card""".split())
#: In prose, a money value labels something only after one of these (else "Herschel Backpack
#: $55" would make a product name an attribute).
_MONEY_WORDS = frozenset("""cost costs price prices total budget bill fee fees rent salary income
spend spending amount balance tip fare charge subtotal tax payment expense expenses revenue profit
savings deposit refund fine wage wages allowance pay""".split())
#: Score-like keys: a plain number after them is a value even in prose.
_SCORE_WORDS = frozenset("score rating readiness grade".split())
#: Keys that label text rather than name an attribute; never given a categorical value.
_GENERIC_KEYS = frozenset("""note notes tip tips example examples e.g question questions answer
summary warning hint source caption figure fig image photo picture link url update edit ps nb
re subject from to cc title subtitle heading text label description comment comments reply
user assistant q a step reason tl;dr tldr""".split())
#: Labels of categorical fields that take a word value with no colon: "Category groceries".
_LABEL_CLAUSE = re.compile(
    r"[ \t*_•·>#-]*(?P<key>(?i:category|merchant|store|shop|vendor|payee|opponent|result|outcome|"
    r"location|venue|weather|mood|activity|sport|meal|payment method|status|symptoms?|medication|"
    r"brand|team))[ \t]+(?P<val>[^\s\x01\x02:=][^\x01\x02:=]*?)[ \t.!,;]*")
#: Labels of dates that are values in their own right (not the day a record is about).
_DATE_VALUE_WORDS = frozenset("""due deadline birthday born birth appointment expires expiry
expiration next start starts started end ends ended from until since departure arrival depart
arrive check release renewal anniversary delivery delivered shipped ordered purchased bought
visit exam test interview flight trip meeting last first opened closed joined""".split())
#: Keys whose clock value is a time of day, not a duration.
_TIME_OF_DAY_KEY = re.compile(
    r"bed ?time|bedtime|wake|woke|alarm|sunrise|sunset|start|end|departure|arrival|depart|arriv"
    r"|lights ?out|asleep|got up|check.?in|check.?out|opens?|closes?|kick.?off|tip.?off", re.I)
#: Keys in which a clock reads m:ss (a run time, a pace, a lap), not h:mm.
_MS_KEY = re.compile(r"pace|run|jog|split|lap|swim|mile|race|5k|10k|km|sprint|plank|song|track", re.I)
#: Keys in which a bare "m" after a number means minutes.
_DURATION_KEY = re.compile(r"sleep|nap|rem\b|deep|light|awake|time|duration|exercise|workout|"
                           r"meditat|active|zone|stand|yoga|study|commute", re.I)

#: verb -> {dimension (or unit for counts, None for a plain number): attribute}
_VERB_MAP: dict[str, dict[str | None, str]] = {
    "slept": {"duration": "sleep"},
    "napped": {"duration": "nap"},
    "ran": {"distance": "run_distance", "duration": "run_time"},
    "jogged": {"distance": "run_distance", "duration": "run_time"},
    "walked": {"distance": "walk_distance", "duration": "walk_time", "steps": "steps"},
    "hiked": {"distance": "hike_distance", "duration": "hike_time"},
    "cycled": {"distance": "ride_distance", "duration": "ride_time"},
    "biked": {"distance": "ride_distance", "duration": "ride_time"},
    "rode": {"distance": "ride_distance", "duration": "ride_time"},
    "swam": {"distance": "swim_distance", "duration": "swim_time"},
    "drove": {"distance": "drive_distance", "duration": "drive_time"},
    "spent": {"currency": "amount", "duration": "time_spent"},
    "paid": {"currency": "amount"},
    "earned": {"currency": "earned"},
    "weighed": {"mass": "weight"},
    "weigh": {"mass": "weight"},
    "weighs": {"mass": "weight"},
    "scored": {None: "score", "points": "score", "percent": "score"},
    "lost": {"mass": "weight_lost"},
    "gained": {"mass": "weight_gained"},
    "burned": {"energy": "calories_burned"},
    "burnt": {"energy": "calories_burned"},
    "meditated": {"duration": "meditation"},
    "studied": {"duration": "study_time"},
    "practiced": {"duration": "practice_time"},
    "practised": {"duration": "practice_time"},
    "worked out": {"duration": "workout"},
}
for _noun, _verb in (("run", "ran"), ("jog", "ran"), ("walk", "walked"), ("hike", "hiked"),
                     ("ride", "rode"), ("bike ride", "rode"), ("swim", "swam"), ("drive", "drove")):
    _VERB_MAP[f"a {_noun}"] = _VERB_MAP[_verb]  # "did a run: 5 km in 28 min", "went for a walk"
_MOTION_VERBS = frozenset("ran jogged walked hiked cycled biked rode swam drove".split()) | {
    k for k in _VERB_MAP if k.startswith("a ")}
_MONEY_VERBS = frozenset({"spent", "paid"})
#: Labels of a moving workout: "Evening run: 6.2 km in 35 min" adds evening_run_time.
_MOTION_NOUNS = frozenset("run jog walk hike ride swim cycle row".split())
#: Fillers allowed between a verb and its value: "slept for about 7 h", "paid a total of $40".
_VERB_FILLERS = frozenset("myself in at for about around approximately approx approx. roughly nearly almost "
                          "only just ~ a total of over".split())
#: "1,250 kcal burned" -> "<noun of the unit>_burned".
_PARTICIPLES = {"burned": "burned", "burnt": "burned", "consumed": "consumed", "eaten": "eaten",
                "walked": "walked", "climbed": "climbed", "left": "left", "remaining": "remaining",
                "spent": "spent", "saved": "saved", "earned": "earned", "lost": "lost",
                "gained": "gained", "logged": "logged", "tracked": "tracked"}
#: "178 cm tall" -> height: an adjective of measure names the attribute (with the right dimension).
_ADJ_DIM = {"tall": ("height", "distance"), "high": ("height", "distance"),
            "long": ("length", "distance"), "wide": ("width", "distance"),
            "deep": ("depth", "distance"), "thick": ("thickness", "distance"),
            "old": ("age", "duration"), "heavy": ("weight", "mass")}
#: "my HRV dropped to 32 ms": a change verb + "to" works like a copula.
_CHANGE_VERBS = frozenset("dropped fell rose increased decreased climbed jumped improved went got "
                          "came reached".split())
_UNIT_NOUN = {"energy": "calories", "duration": "time", "distance": "distance", "mass": "weight",
              "percent": "percent", "volume": "volume", "currency": "amount", "steps": "steps",
              "floors": "floors", "laps": "laps", "pages": "pages", "points": "points",
              "reps": "reps"}
_COUNT_UNITS = frozenset({"steps", "reps", "laps", "floors", "pages", "points"})

#: Metric phrases that contain a preposition but are one name.
_KNOWN_PHRASES = re.compile(
    r"\b(?:time in (?:range|bed|zone(?: \d)?)|time (?:above|below) range|time out of range"
    r"|(?<!time )(?:in|out of|above|below) range"
    r"|minutes? of (?:exercise|activity)|hours? of sleep|cost of living|blood oxygen|out of pocket"
    r"|(?:wake|woke|get|got|wake-) up|lights out|check(?:ed)? (?:in|out)|sign(?:ed)? in"
    r"|(?:goals?|score|points|runs) (?:for|against))\b",
    re.I)

#: How far back from a value a label is looked for (4 words and their punctuation fit easily).
_MAX_GAP = 120

#: A unit in brackets after a label: "Total sleep (h)".
_PAREN_UNIT = re.compile(r"[(\[]([^()\[\]]{1,12})[)\]]")
#: A cheap test before the phrase substitution: every known phrase has one of these words.
_PHRASE_HINT = re.compile(r"(?:^|\s)(?:in|of|above|below|out|up|oxygen|for|against)\b", re.I)

_ABBREV = frozenset({"avg.", "approx.", "est.", "temp.", "max.", "min.", "no.", "vs.", "e.g.",
                     "i.e.", "etc.", "mr.", "mrs.", "ms.", "dr.", "st.", "fig.", "vol.", "qu.",
                     "approx", "incl.", "excl.", "wt.", "ht.", "dist.", "dur.", "cal.", "hr.",
                     "sys.", "dia.", "tot.", "amt.", "qty.", "pts.", "elev.", "bal.", "avg"})

# -- regexes ------------------------------------------------------------------------------

_LINE = re.compile(r"[^\r\n]+")
_COLON_ANY = re.compile(r"[:=：]")
_SENT_BREAK = re.compile(r"[.!?。！？]+[\"'”’)\]]*(?=\s|$)")
_CLAUSE_SEP = re.compile(r"[ \t]*(?:[·•|;¦]|(?<=\s)[-–—](?=\s)|\t|(?<=\S)\s{3,}(?=\S)|,(?=\s))[ \t]*")
_TOKEN = re.compile(r"[^ \t\r\n\f\v]+")
_LETTER = re.compile(r"[A-Za-z\u00c0-\u024f]")
_QUESTION_START = re.compile(
    r"^[\W_]*(?:how|what|when|where|which|who|whom|whose|why)\b"
    r"|^[\W_]*(?:should|can|could|would|will|do|does|did|is|are|am|was|were|have|has|may|might|"
    r"shall|must)\s+(?:i|you|we|it|they|he|she|there|the|my|your|our|this|that|these|those|"
    r"anyone|someone|a|an)\b", re.I)
_HEDGE = re.compile(
    r"\b(?:should|shouldn[’']?t|could|couldn[’']?t|would|wouldn[’']?t|might|must|ought|can|cannot|"
    r"can[’']?t|if|unless|whether|maybe|perhaps|probably|possibly|usually|typically|generally|"
    r"normally|often|sometimes|ideally|recommend\w*|suggest\w*|advis\w*|aim(?:ing)?\s+(?:for|to)|"
    r"try(?:ing)?\s+to|plan(?:ning)?\s+to|going\s+to|gonna|want(?:s|ed)?\s+to|wish|hope|hoping|"
    r"expect\w*|per|every|each|daily|weekly|nightly|or\s+(?:more|less|so)|at\s+(?:least|most)|"
    r"up\s+to|no\s+more\s+than|on\s+average|not|never|a\s+(?:day|week|month|night|year)|"
    r"will|need\s+to|needs\s+to|imagine|suppose|assume|say|something\s+like|anything\s+like|"
    r"kind\s+of|sort\s+of|somewhere|some\s+\w+\s+like)\b"
    r"|n[’']t\b", re.I)
#: The modal "may" (the month is capitalized: "May 4").
_MAY = re.compile(r"\bmay\b")
_YOU = re.compile(r"\b(?:you|your|you're|you’re|you've|yours)\b", re.I)
_NEGATION = frozenset({"not", "never", "no", "didn't", "didn’t", "don't", "don’t", "haven't",
                       "hasn't", "wasn't", "couldn't", "won't", "cannot", "can't", "without"})

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
#: What comes before a clock that is a time of day: "at 7:30", "from 6:00 to 7:30".
_TIME_PREP = re.compile(r"(?:(?:\b(?:at|by|around|until|till|from|since|before|after|between)|@)\s*"
                        r"|\d{1,2}:\d{2}\s*(?:-|–|to|and|until|till)\s*)$", re.I)
_CLOCK_RAW = re.compile(r"\d{1,2}:\d{2}")
#: Source code in a caption ("`linewidth=3`", "plt.plot(x)"): assignments are not observations.
_CODE = re.compile(r"`|\w\(|\w=\w|==|=\s*\[|\w\.\w+\(|[{}]")
_BP = re.compile(r"(?<![\w./])(?P<s>\d{2,3})\s?/\s?(?P<d>\d{2,3})(?:[ \t]?(?P<u>mm ?Hg))?(?![\w/])")
_BP_CONTEXT = re.compile(r"\b(?:blood pressure|pressure|bp)\b", re.I)
_HYPHEN_COMPOUND = re.compile(r"\d[-‐‑‒–][A-Za-z]")
#: A number glued to a word by a dash right after it: "7-day", "a 3‑item list".
_DASH_WORD = re.compile(r"[-‐‑‒–][A-Za-z]")
_RANGE_GAP = re.compile(r"\s*(?:-|–|—|~|to)\s*", re.I)
_LIST_MARKER = re.compile(r"[\s*•·>#-]*$")
_SCORE_PAIR = r"(?<![\w.:/$€£])(?P<a>\d{1,3})\s*(?:-|–|—|:)\s*(?P<b>\d{1,3})(?![\w.:/%])"
_GAME_VERB = re.compile(r"\b(?P<w>won|beat|beats|defeated|lost|drew|tied)\b[^.!?;\n\d]{0,30}?"
                        + _SCORE_PAIR, re.I)
_GAME_NOUN = re.compile(_SCORE_PAIR + r"\s+(?:[A-Za-z]+\s+)?(?P<w>win|victory|loss|defeat|draw|tie)\b",
                        re.I)
_KEY_SCORE = re.compile(r"\b(?:final\s+)?score\s*:?\s*" + _SCORE_PAIR, re.I)
_WON = frozenset("won win beat beats defeated victory".split())
_LOST = frozenset("lost loss defeat".split())
_OPPONENT = re.compile(
    r"\b(?P<prep>against|vs\.?|versus|over|to|beat|beats|defeated|beating|defeating|played|playing)\s+"
    r"(?:the\s+|team\s+)?(?P<opp>[A-Z][\w'’&.\-]*(?:\s+[A-Z][\w'’&.\-]*){0,2}"
    r"|(?:my\s+|our\s+)?[a-z][\w'’\-]*(?:\s+[a-z][\w'’\-]*)?)")
_US_BEAT = re.compile(r"(?P<opp>[A-Z][\w'’&\-]*(?:\s+[A-Z][\w'’&\-]*){0,2})\s+(?:beat|defeated)"
                      r"\s+(?:us|me)\b")
_CATEGORY = re.compile(r"^\s*(?:on|for)\s+(?:(?:a|an|the|my|our|some)\s+)?(?P<np>[A-Za-z][\w'’\-]*"
                       r"(?:\s+[A-Za-z][\w'’\-]*){0,2})")
#: "at Whole Foods", "to Trader Joe's": a capitalized name after a payment.
_MERCHANT = re.compile(r"(?<![\w])(?:at|to|from|@)[ \t]+(?P<np>[A-Z][\w'’&.\-]*(?:[ \t]+(?:[A-Z][\w'’&.\-]*|&))"
                       r"{0,3})(?<![.,])")
#: Possession or purchase right before a value: "I have 200 g of flour", "bought 2 kg of".
_POSSESSION = re.compile(r"\b(?:have|has|had|got|need|needs|want|bought|buy|use|used|add|added|"
                         r"left|still|bake|make|made)\s+(?:\w+\s+)?$", re.I)
_COUNT_NOUN = re.compile(r"[ \t]+([A-Za-z]{3,})[ \t]*[.!;,]?[ \t]*$")
_IN_DURATION = re.compile(r"^\s*in\s+(?:about\s+|around\s+|just\s+|under\s+)?$", re.I)
_OLD = re.compile(r"^\s*old\b", re.I)


# -- small helpers ------------------------------------------------------------------------

_STRIP_LEAD = "\"'“”‘’*_([{<`«"
_STRIP_TRAIL = "\"'“”‘’*_)]}>`»"


@lru_cache(maxsize=16384)
def _norm_token(tok: str) -> tuple[str, bool]:
    """A token's word (markdown and quotes stripped) and whether punctuation ends it."""
    core = tok.lstrip(_STRIP_LEAD).rstrip(_STRIP_TRAIL)
    boundary = False
    low = core.lower()
    if low in _ABBREV:
        return core.rstrip("."), False
    while core and core[-1] in ",.;:!?…":
        core = core[:-1]
        boundary = True
    core = core.rstrip(_STRIP_TRAIL)
    return core, boundary


@lru_cache(maxsize=16384)
def _verbish(low: str) -> bool:
    if low in _AUX_VERBS:
        return True
    return len(low) >= 5 and low.endswith("ed") and not low.endswith("eed") and low not in _ED_NOUNS


@lru_cache(maxsize=16384)
def _keyish(core: str) -> bool:
    if not core or not _LETTER.search(core):
        return False
    low = core.lower().replace("\u00a0", " ")
    return low not in _KEY_STOP


def _key_name(words: list[str]) -> str | None:
    """The snake_case attribute for key words, or None when they do not make a usable key."""
    if not 1 <= len(words) <= 4:
        return None
    return _key_name_cached(tuple(words))


@lru_cache(maxsize=8192)
def _key_name_cached(words: tuple[str, ...]) -> str | None:
    low = [w.lower().replace("\u00a0", " ") for w in words]
    if any(w in _KEY_STOP for w in low):
        return None
    if len(low) == 1 and (_verbish(low[0]) or low[0] in _DETERMINERS):
        return None
    full = _snake_full(" ".join(words).replace("\u00a0", " "))
    if not full or len(full) > 48 or len(full) < 2 or not full[0].isalpha() or full.startswith("n_"):
        return None
    return snake_case(full)


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
class _DateHit:
    start: int
    end: int
    kind: str  # "day" (a calendar day), "rel" (relative to the round), "month" (no day)
    anchor: date | None  # resolved as the day a record is about (year-less: never in the future)
    value: date | None  # resolved as a date value (year-less: the round's year)
    used: bool = False


def _find_dates(text: str, ref: date | None) -> list[_DateHit]:
    hits: list[_DateHit] = []
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
                hits.append(_DateHit(s, e, "day", d, d))
        elif g["us"]:
            a, b, y = int(g["um"]), int(g["ud"]), int(g["uy"])
            if y < 100:
                y += 2000
            if a > 12 and b <= 12:
                a, b = b, a
            d = _resolve_day(a, b, y, ref, past=True)
            if d is not None:
                hits.append(_DateHit(s, e, "day", d, d))
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
                hits.append(_DateHit(s, e, "day", anchor, value))
        elif g["my"]:
            if g["mym"] == "may":
                continue
            hits.append(_DateHit(s, e, "month", None, None))
        elif g["rel"]:
            d = _relative(m, ref)
            if d is not None and ref is not None and d < ref and _LAST_NIGHT.fullmatch(g["rel"]) \
                    and _SLEEP_WORDS.search(text, max(0, s - 80), min(len(text), e + 120)):
                d = ref  # a night's sleep is dated by the day one wakes up, as sleep apps do
            hits.append(_DateHit(s, e, "rel", d, d))
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


def _day_hint(word: str, ref: date | None) -> date | None:
    if ref is None:
        return None
    off = _DAY_POSSESSIVE.get(word.lower().replace("’", "'"))
    return None if off is None else ref + timedelta(days=off)


# -- scanning state -----------------------------------------------------------------------

@dataclass
class _Q:
    start: int
    end: int
    q: Quantity
    used: bool = False
    bad: str | None = None  # why it can never be a value: "range", "compound", "tod", "marker"
    diastolic: float | None = None  # "128/82 mmHg": q holds 128, this 82


class _Key:
    """The label found before a value (a plain class: made once per value, kept cheap)."""

    __slots__ = ("words", "start", "covers", "colon", "copula", "verb", "negated", "paren_unit",
                 "day", "too_long", "owned")

    def __init__(self) -> None:
        self.words: list[str] = []
        self.start = -1  # absolute start of the key (or of the verb)
        self.covers = False  # nothing but determiners / punctuation before the key in the gap
        self.colon = False
        self.copula = False
        self.verb: str | None = None
        self.negated = False
        self.paren_unit: str | None = None
        self.day: date | None = None  # from "today's" / "yesterday's"
        self.too_long = False
        self.owned = False  # a possessive right before the label: "... yesterday's run:"


@dataclass
class _Out:
    draft: Draft
    pos: int
    sentence: int


class _Scanner:
    """Extraction over one text; see :func:`extract_text`."""

    def __init__(self, text: str, source: str, ref_time: datetime | None) -> None:
        self.text = text
        self.source = source
        self.kind = source.split(":", 1)[0].split("[", 1)[0]
        self.ref = ref_time.date() if isinstance(ref_time, datetime) else (
            ref_time if isinstance(ref_time, date) else None)
        self.out: list[_Out] = []
        self.dates = _find_dates(text, self.ref)
        self.qs: list[_Q] = []
        self._prepare_quantities()
        #: The text with dates (\x01) and values (\x02) blanked out, for word scans and hedge
        #: checks; same length as the text. The spans never overlap (values inside dates go).
        spans = sorted([(d.start, d.end, "\x01") for d in self.dates]
                       + [(q.start, q.end, "\x02") for q in self.qs])
        parts, pos = [], 0
        for a, b, c in spans:
            if a < pos:  # defensive: keep the first span
                continue
            parts.append(text[pos:a])
            parts.append(c * (b - a))
            pos = b
        parts.append(text[pos:])
        self.masked = "".join(parts)
        self.sentences: list[tuple[int, int]] = []
        self.date_values: list[tuple[Draft, _DateHit]] = []

    # .. preparation ..................................................................

    def _prepare_quantities(self) -> None:
        text = self.text
        spans = [(d.start, d.end) for d in self.dates]
        qs = []
        for s, e, q in find_quantities(text):
            if any(s < de and ds < e for ds, de in spans):
                continue
            qs.append(_Q(s, e, q))
        if "/" in text:
            for m in _BP.finditer(text):
                if not (m.group("u") or _BP_CONTEXT.search(text, max(0, m.start() - 30), m.start())):
                    continue
                s, e = m.span()
                qs = [x for x in qs if x.end <= s or x.start >= e]
                qs.append(_Q(s, e, Quantity(float(m.group("s")), "mmHg", "pressure", m.group(0)),
                             diastolic=float(m.group("d"))))
            qs.sort(key=lambda x: x.start)
        for i, item in enumerate(qs):
            raw = item.q.raw
            if raw[:1].isalpha() and re.match(r"[A-Za-z]+", raw).group(0).lower() in _NUMBER_WORDS:
                item.bad = "word"  # "one day", "one step closer": only after a logging verb
            if _HYPHEN_COMPOUND.search(raw) or _DASH_WORD.match(text, item.end):
                item.bad = "compound"
            if _CLOCK_RAW.fullmatch(raw):
                before = text[max(0, item.start - 12):item.start]
                if _TIME_PREP.search(before) and int(raw.split(":")[0]) < 24:
                    item.bad = "tod"
            # "1." / "2)" at the start of a line: a list marker
            if item.q.unit is None and re.fullmatch(r"\d{1,2}", raw):
                line_start = text.rfind("\n", 0, item.start) + 1
                if (_LIST_MARKER.fullmatch(text[line_start:item.start])
                        and re.match(r"[.)]\s", text[item.end:item.end + 2])):
                    item.bad = "marker"
            if i and _RANGE_GAP.fullmatch(text[qs[i - 1].end:item.start]):
                prev = qs[i - 1]
                if prev.q.unit is None or prev.q.unit == item.q.unit:
                    prev.bad = prev.bad or "range"
                    item.bad = item.bad or "range"
        self.qs = qs

    # .. segmentation .................................................................

    def _sentences(self, a: int, b: int) -> list[tuple[int, int]]:
        out = []
        start = a
        line = self.text[a:b]
        for m in _SENT_BREAK.finditer(line):
            end = a + m.end()
            punct = m.group(0)
            if "." in punct and not any(c in punct for c in "!?。！？"):
                tok = line[:m.start() + 1].rsplit(None, 1)[-1].lower() if line[:m.start() + 1].split() else ""
                nxt = line[m.end():].lstrip()[:1]
                if tok in _ABBREV or (nxt and not (nxt.isupper() or nxt in "\"'“‘([*•-")):
                    continue
                if self.masked[a + m.start()] in "\x01\x02":
                    continue
            if self.text[start:end].strip():
                out.append((start, end))
            start = end
        if self.text[start:b].strip():
            out.append((start, b))
        return out

    def _clauses(self, a: int, b: int) -> list[tuple[int, int, bool, bool]]:
        """Clauses of a sentence: (start, end, strong left boundary, strong right boundary)."""
        out = []
        start, left_strong = a, True
        seg = self.masked[a:b]
        for m in _CLAUSE_SEP.finditer(seg):
            if m.start() == 0 and not m.group(0).strip(" \t"):
                continue
            strong = not any(c in m.group(0) for c in ",-–—")
            end = a + m.start()
            if self.text[start:end].strip():
                out.append((start, end, left_strong, strong))
            start, left_strong = a + m.end(), strong
        if self.text[start:b].strip():
            out.append((start, b, left_strong, True))
        return out

    # .. the scan .....................................................................

    def run(self) -> list[Draft]:
        text = self.text
        has_colon = bool(_COLON_ANY.search(self.masked))
        if not self.qs and not has_colon:
            return []  # nothing can be a value (and this is most prose)
        lines = [(m.start(), m.end()) for m in _LINE.finditer(text)]
        units: list[tuple[int, int, int, bool, bool]] = []  # clause spans + sentence index
        sent_idx = -1
        starts = self.starts = [q.start for q in self.qs]
        for la, lb in lines:
            for sa, sb in self._sentences(la, lb):
                sent_idx += 1
                self.sentences.append((sa, sb))
                k = bisect_left(starts, sa)
                has_q = k < len(starts) and starts[k] < sb
                if not has_q and not (has_colon and _COLON_ANY.search(self.masked, sa, sb)):
                    if self.qs and sb - sa <= 60:  # may be the label line of a value line
                        for ca, cb, ls, rs in self._clauses(sa, sb):
                            units.append((ca, cb, sent_idx, ls, rs))
                    continue
                if self._is_question(sa, sb):
                    for q in self.qs:
                        if sa <= q.start < sb:
                            q.used = True
                    continue
                if _CODE.search(text[sa:sb]):
                    continue
                hedged = bool(_HEDGE.search(self.masked, sa, sb) or _MAY.search(self.masked, sa, sb))
                prose_ok = not hedged and (self.kind != "assistant_text"
                                           or bool(_YOU.search(self.masked, sa, sb)))
                if prose_ok:
                    self._games(sa, sb, sent_idx)
                clauses = self._clauses(sa, sb)
                units.extend((ca, cb, sent_idx, ls, rs) for ca, cb, ls, rs in clauses)
                self._scan_sentence(sent_idx, prose_ok, clauses)
        self._pair_label_lines(units)
        return self._finish()

    def _is_question(self, a: int, b: int) -> bool:
        s = self.text[a:b].strip()
        if s.endswith(("?", "？")) or "?" in self.masked[a:b]:
            return True
        # "How many hours should I sleep" (no "?") is a question; "Did a run today: 5 km." is not
        return bool(_QUESTION_START.match(s)) and not s.endswith((".", "!"))

    def _scan_sentence(self, sent: int, prose_ok: bool,
                       clauses: list[tuple[int, int, bool, bool]]) -> None:
        """Pairs of one sentence. ``prose_ok``: prose forms are allowed (not hedged, not a
        question, about the user); a clause is ``listy`` when strong separators (or the
        sentence's ends) bound it on both sides."""
        pending: list[tuple[bool, bool, Draft, int]] = []  # (record, accept alone, draft, pos)
        for ca, cb, ls, rs in clauses:
            listy = ls and rs
            if self._colon_clause(ca, cb, sent, prose_ok, listy, pending):
                continue
            if self._label_clause(ca, cb, pending):
                continue
            self._scan_region(ca, cb, sent, prose_ok, listy, pending)
        records = sum(1 for r, _, _, _ in pending if r is True)
        keep = [p for p in pending if p[1] is True or (p[0] is True and records >= 2)]
        for _, _, draft, pos in keep:
            self._emit(draft, pos, sent)
        if len(keep) >= 2:  # counts of nouns ride on a sentence of other values
            for _, ok, draft, pos in pending:
                if ok == "count":
                    self._emit(draft, pos, sent)

    # .. key: value ...................................................................

    def _colon_clause(self, ca: int, cb: int, sent: int, prose_ok: bool, listy: bool,
                      pending: list) -> bool:
        """``key: value`` / ``key = value``. False when the clause is not one (scan it as usual);
        when the part before the colon is no label ("Receipt from Joe's, 03/04: Milk $3.49"),
        the two sides are scanned on their own."""
        seg = self.masked[ca:cb]
        m = _COLON_ANY.search(seg)
        if not m:
            return False
        cpos = ca + m.start()
        kstart = ca
        for q in self.qs:
            if ca <= q.start and q.end <= cpos:
                kstart = q.end  # "avg glucose 149 mg/dL and lows: 0": the label starts after 149
        key = self._key_before(kstart, cpos + 1)
        name = None
        if key.words and (key.covers or key.owned) and not key.verb and not key.too_long:
            name = _key_name(key.words)
        if name is None:
            if key.verb:
                return False  # "Slept: 7 h" - the verb reads the value itself
            self._scan_region(ca, cpos, sent, prose_ok, False, pending)
            if not self._label_clause(cpos + 1, cb, pending):
                self._scan_region(cpos + 1, cb, sent, prose_ok, listy, pending)
            return True
        if kstart > ca:
            self._scan_region(ca, kstart, sent, prose_ok, False, pending)
        vstart = cpos + 1
        vtext = self.text[vstart:cb]
        lead = len(vtext) - len(vtext.lstrip(" \t\"'“‘*_"))
        vs = vstart + lead
        inner = [q for q in self.qs if vs <= q.start < cb and not q.used]
        # a value that starts right after the colon
        if inner and inner[0].start == vs:
            q = inner[0]
            tail = self.masked[q.end:cb]
            whole = not tail.strip(" \t\"'”’*_.,)")
            if q.bad or not (whole or tail[:1] in " (\t"):
                return False
            if not whole and (inner[1:] and any(not x.bad for x in inner[1:])):
                # "Sleep: 6h 45m deep 1h 10m" - the rest holds more pairs; scan them too
                self._add_pair(name, key, q, sent, record=True, plain_ok=True, pending=pending,
                               raw_start=key.start)
                self._scan_region(q.end, cb, sent, prose_ok, listy, pending)
                return True
            self._add_pair(name, key, q, sent, record=True, plain_ok=True, pending=pending,
                           raw_start=key.start)
            return True
        # a date value ("due: 2025-04-01"); "Date: Mar 4" names the day of the record instead
        for d in self.dates:
            if d.start == vs and d.kind == "day" and not self.masked[d.end:cb].strip(" \t.\"'”’*_"):
                if name in ("date", "day", "for", "as_of", "dated", "recorded", "log_date"):
                    return True  # stays an anchor
                d.used = True
                value = d.value
                draft = Draft(name, None, value.isoformat() if value else self.text[d.start:d.end].strip(),
                              None, "date", self.text[key.start:d.end], self._src(key.start, d.end),
                              key.day)
                pending.append((True, True, draft, key.start))
                self.date_values.append((draft, d))
                return True
        if inner:
            return False
        if self._label_clause(vs, cb, pending):
            return True  # "League match for Mar 4: Result lost" - the value is itself a labelled pair
        # a short categorical value
        vt = self.text[vs:cb].strip().strip("\"'“”‘’*_").strip()
        vt = vt.rstrip(".,;!").strip("\"'“”‘’*_ ")
        words = vt.split()
        if (not vt or len(words) > 4 or len(vt) > 40 or not _LETTER.search(vt)
                or self.kind == "assistant_text" or name.endswith("_text")
                or name in _GENERIC_KEYS or key.words[-1].lower() in _GENERIC_KEYS or "\x01" in self.masked[vs:cb]
                or words[0].lower() in _PRONOUNS or words[0].lower() in _AUX_VERBS
                or re.search(r"[.!?…]\s", vt) or vt.lower() in _KEY_STOP):
            return False
        end = self.text.index(vt, vs) + len(vt) if vt in self.text[vs:cb] else cb
        tod = _clock_text(vt)  # "Bedtime: 11:40 pm" is a time of day, as 23:40
        pending.append((True, True, Draft(
            name, None, tod or vt, None, "time_of_day" if tod else None, self.text[key.start:end],
            self._src(key.start, end), key.day), key.start))
        return True

    def _label_clause(self, ca: int, cb: int, pending: list) -> bool:
        """``Category groceries`` / ``Opponent Wolves`` / ``Result won``: a clause that is one of a
        few labels of categorical fields followed by a short value, no colon needed."""
        if self.kind == "assistant_text":
            return False
        m = _LABEL_CLAUSE.fullmatch(self.masked, ca, cb)
        if not m:
            return False
        words = m.group("val").split()
        first = words[0].lower().strip("\"'“”‘’*_")
        if (len(words) > 3 or len(m.group("val")) > 40 or first in _KEY_STOP or first in _DETERMINERS
                or _verbish(first) or not _LETTER.search(m.group("val"))):
            return False
        value = self.text[m.start("val"):m.end("val")].strip("\"'“”‘’*_ ")
        start, end = m.start("key"), m.end("val")
        pending.append((True, True, Draft(snake_case(m.group("key")), None, value, None, None,
                                          self.text[start:end], self._src(start, end)), start))
        return True

    # .. key value unit / value unit key / verbs ......................................

    def _scan_region(self, ra: int, rb: int, sent: int, prose_ok: bool, listy: bool,
                     pending: list) -> None:
        k = bisect_left(self.starts, ra)
        qlist = []
        while k < len(self.qs) and self.qs[k].start < rb:
            q = self.qs[k]
            if q.end <= rb and not q.used:
                qlist.append(q)
            k += 1
        if not qlist:
            return
        keys = []
        prev = ra
        for q in qlist:
            keys.append(self._key_before(prev, q.start))
            prev = q.end
        assistant = self.kind == "assistant_text"
        for i, q in enumerate(qlist):
            key = keys[i]
            if q.used or (q.bad and not (q.bad == "word" and key.verb)):
                continue
            # The assistant's prose counts only where it speaks of the user ("you slept 6 h",
            # "your resting HR was 54 bpm"), not in advice ("keep easy runs at a pace of 6:30").
            prose = prose_ok and not (assistant and not _YOU.search(self.masked, ra, q.start))
            tail_end = qlist[i + 1].start if i + 1 < len(qlist) else rb
            tail = self.masked[q.end:tail_end]
            if i + 1 < len(qlist):
                nk = keys[i + 1]
                tail_clean = bool(nk.words) and nk.covers and not nk.copula and not nk.verb
            else:
                tail_clean = not tail.strip(" \t\"'”’*_.,;:!)(]")
            if key.negated:
                continue
            if key.verb:
                if prose or (key.covers and tail_clean):
                    self._verb_pair(key, q, qlist[i + 1:], tail_end, rb, sent, pending)
                continue
            if key.words and not key.too_long:
                name = _key_name(key.words)
                if name is None:
                    continue
                plain = q.q.unit is None and key.paren_unit is None
                old = _OLD.match(tail) if q.q.dimension == "duration" else None
                if old:
                    name = snake_case(name + "_age")
                    tail_clean = True
                raw_end = q.end + old.end() if old else None
                record = key.covers and not key.copula and tail_clean
                if plain and key.words[-1].lower().rstrip(".") in _ORDINAL_LABELS:
                    continue
                if plain and _is_year(q.q) and not (key.colon and "year" in name):
                    continue
                if record and (listy or key.colon):
                    self._add_pair(name, key, q, sent, record=True, plain_ok=True, pending=pending, raw_end=raw_end)
                elif key.colon and key.covers:
                    self._add_pair(name, key, q, sent, record=True, plain_ok=True, pending=pending, raw_end=raw_end)
                elif prose and (not plain or key.words[-1].lower() in _SCORE_WORDS) and not (
                        (q.q.dimension or "").startswith("currency")
                        and key.words[-1].lower() not in _MONEY_WORDS):
                    self._add_pair(name, key, q, sent, record=record, plain_ok=True, pending=pending, raw_end=raw_end)
                elif record:
                    # a label-value pair inside a sentence: kept when the sentence is a list of them
                    self._add_pair(name, key, q, sent, record=True, plain_ok=False, pending=pending, raw_end=raw_end)
                continue
            if q.q.unit is None:
                # "... avg glucose 119 mg/dL and 0 lows": a count of a noun, kept only when the
                # sentence holds two other values (never "I have 2 eggs")
                cm = _COUNT_NOUN.match(self.masked, q.end, tail_end)
                if (cm and prose and not assistant and q.q.value.is_integer() and not _is_year(q.q)
                        and self.masked[qlist[i - 1].end if i else ra:q.start].strip(" \t").lower()
                        in ("", "and", "&", "plus")):
                    noun = cm.group(1)
                    low = noun.lower()
                    if (_keyish(noun) and not _verbish(low) and low not in _ORDINAL_LABELS
                            and low not in _COMPARATIVES and canonical_unit(noun) is None):
                        q.used = True
                        pending.append((None, "count", self._draft(snake_case(noun), q.q, q.start,
                                                                    cm.end(1), key.day), q.start))
                continue
            # "$32.34 at Walgreens": an amount paid to a named place
            if (q.q.dimension or "").startswith("currency") and prose:
                mm = _MERCHANT.match(self.masked, q.end + len(tail) - len(tail.lstrip()), tail_end)
                if mm and tail[:1].isspace():
                    q.used = True
                    pending.append((False, True, self._draft("amount", q.q, q.start, q.end, key.day), q.start))
                    pending.append((False, True, Draft("merchant", None, mm.group("np"), None, None,
                                                       self.text[q.start:mm.end("np")],
                                                       self._src(q.start, mm.end("np")), key.day), q.start))
                    continue
            # value unit [of] key
            after = self._key_after(q, tail_end)
            if after is not None and _POSSESSION.search(self.masked, max(ra, q.start - 24), q.start):
                after = None  # "I have 200 g of flour left": an inventory, not a measurement
            if after is not None and not (prose or (
                    listy and not self.masked[ra:q.start].strip(" \t\"'“‘*_-•·")
                    and not self.masked[after[1]:tail_end].strip(" \t\"'”’*_.,;:!)"))):
                after = None
            if after is not None:
                name, end = after
                value = self._contextual(name, q) or q.q  # "43m of deep sleep": minutes
                if value.dimension != "time_of_day":
                    pending.append((False, True, self._draft(name, value, q.start, end, key.day), q.start))
                    q.used = True
                    continue
            # a lone count ("10,523 steps" as a list item, or after a logging verb)
            if q.q.unit in _COUNT_UNITS:
                alone = (not self.masked[ra:q.start].strip(" \t\"'“‘*_-•·")
                         and not tail.strip(" \t\"'”’*_.,;:!)"))
                if (alone and listy) or (q.q.unit == "steps" and prose):
                    pending.append((alone, True, self._draft(q.q.unit, q.q, q.start, q.end, key.day),
                                    q.start))
                    q.used = True

    def _add_pair(self, name: str, key: _Key, q: _Q, sent: int, *, record: bool, plain_ok: bool,
                  pending: list, raw_start: int | None = None, raw_end: int | None = None) -> None:
        value = self._contextual(name, q)
        if value is None:
            return
        if value.unit is None and key.paren_unit:
            value = Quantity(value.value, key.paren_unit, dimension_of(key.paren_unit), value.raw)
        start = key.start if raw_start is None else raw_start
        end = q.end if raw_end is None else raw_end
        extra: list[tuple] = []
        if (value.dimension or "").startswith("currency"):
            mm = _MERCHANT.match(self.masked, q.end + 1, min(len(self.text), q.end + 60))
            if mm and self.text[q.end:q.end + 1].isspace():  # "Expense: $52.96 at Spotify"
                extra.append((record, plain_ok, Draft("merchant", None, mm.group("np"), None, None,
                                                      self.text[start:mm.end("np")],
                                                      self._src(start, mm.end("np")), key.day), start))
        if value.dimension == "distance" and key.words and key.words[-1].lower() in _MOTION_NOUNS:
            nxt = next((x for x in self.qs if x.start > q.end), None)
            if (nxt is not None and not nxt.used and not nxt.bad
                    and _IN_DURATION.match(self.masked[q.end:nxt.start])):
                t = parse_quantity(nxt.q.raw, clock_as="ms") if _CLOCK_RAW.fullmatch(nxt.q.raw) else nxt.q
                if t is not None and t.dimension == "duration":  # "Evening run: 6.2 km in 35 min"
                    nxt.used = True
                    extra.append((record, plain_ok, self._draft(snake_case(name + "_time"), t,
                                                                nxt.start, nxt.end, key.day), nxt.start))
        q.used = True
        if q.diastolic is not None:  # "BP 128/82": two columns
            base = name if name.endswith(("pressure", "bp")) else name + "_bp"
            for part, v in (("systolic", value.value), ("diastolic", q.diastolic)):
                pending.append((record, plain_ok, Draft(
                    snake_case(f"{base}_{part}"), v, None, "mmHg", "pressure", self.text[start:end],
                    self._src(start, end), key.day), start))
        elif value.dimension == "time_of_day":
            pending.append((record, plain_ok, Draft(
                name, None, _clock_text(value.raw) or value.raw, None, "time_of_day",
                self.text[start:end], self._src(start, end), key.day), start))
        else:
            pending.append((record, plain_ok, self._draft(name, value, start, end, key.day), start))
        pending.extend(extra)

    def _contextual(self, name: str, q: _Q) -> Quantity | None:
        """Re-read a value in the light of its key: clocks as m:ss or times of day, m as min."""
        v = q.q
        if _CLOCK_RAW.fullmatch(v.raw):
            if _TIME_OF_DAY_KEY.search(name.replace("_", " ")):
                return Quantity(float("nan"), None, "time_of_day", v.raw)
            if _MS_KEY.search(name):
                return parse_quantity(v.raw, clock_as="ms")
        if v.unit == "m" and re.search(r"\d\s?m$", v.raw) and _DURATION_KEY.search(name):
            return Quantity(v.value, "min", "duration", v.raw)
        return v

    def _verb_pair(self, key: _Key, q: _Q, rest: list[_Q], tail_end: int, rb: int, sent: int,
                   pending: list) -> None:
        verb = key.verb or ""
        table = _VERB_MAP[verb]
        v = q.q
        if verb in _MOTION_VERBS and _CLOCK_RAW.fullmatch(v.raw):
            v = parse_quantity(v.raw, clock_as="ms") or v
        dim = (v.dimension or "").split(":")[0] if v.dimension else None
        attr = table.get(v.unit) if v.unit in table else table.get(dim)
        if attr is None:
            return
        q.used = True
        end = q.end
        if verb == "scored" and v.unit is None:
            # "scored 3 goals": the thing counted names the attribute
            m = re.match(r"[ \t]+([A-Za-z]+)\b", self.masked[q.end:rb])
            if m and _keyish(m.group(1)) and not _verbish(m.group(1).lower()):
                attr = snake_case(m.group(1)) or attr
                end = q.end + m.end()
        extra: list[tuple[Draft, int]] = []
        if verb in _MOTION_VERBS and dim == "distance" and rest:
            nxt = rest[0]
            if (not nxt.used and not nxt.bad and _IN_DURATION.match(self.masked[q.end:nxt.start])):
                t = nxt.q
                if _CLOCK_RAW.fullmatch(t.raw):
                    t = parse_quantity(t.raw, clock_as="ms") or t
                if t.dimension == "duration":
                    nxt.used = True
                    time_attr = table.get("duration")
                    if time_attr:
                        extra.append((self._draft(time_attr, t, nxt.start, nxt.end, key.day), nxt.start))
        if verb in _MONEY_VERBS and dim == "currency":
            mm = _MERCHANT.search(self.masked, q.end, min(rb, q.end + 60))
            if mm:
                extra.append((Draft("merchant", None, mm.group("np"), None, None,
                                    self.text[key.start:mm.end("np")], self._src(key.start, mm.end("np")),
                                    key.day), key.start))
            m = _CATEGORY.match(self.masked[q.end:rb])
            if m:
                words = []
                for w in m.group("np").split():
                    low = w.lower()
                    if low in _KEY_STOP or _verbish(low) or not _LETTER.search(w):
                        break
                    words.append(w)
                if words:
                    cat_end = q.end + m.start("np") + len(" ".join(words))
                    cat = self.text[q.end + m.start("np"):cat_end]
                    end = cat_end
                    extra.append((Draft("category", None, cat, None, None,
                                        self.text[key.start:cat_end], self._src(key.start, cat_end),
                                        key.day), key.start))
        pending.append((False, True, self._draft(attr, v, key.start, q.end if verb in _MONEY_VERBS
                                                 else end, key.day), key.start))
        for d, pos in extra:
            pending.append((False, True, d, pos))

    # .. games ........................................................................

    def _games(self, sa: int, sb: int, sent: int) -> None:
        raw_seg = self.text[sa:sb]
        m = None
        for pat in (_GAME_VERB, _GAME_NOUN):
            for cand in pat.finditer(raw_seg):
                nxt = raw_seg[cand.end():].split(None, 1)
                if nxt and canonical_unit(nxt[0].strip(".,;:!)")) is not None:
                    continue  # "lost 2-3 kg": a range of a quantity, not a score
                m = cand
                break
            if m is not None:
                break
        if m is None:
            km = _KEY_SCORE.search(raw_seg)  # "Result draw · Score 0-0": the score alone, as written
            if km:
                raw = self.text[sa + km.start():sa + km.end()]
                src = self._src(sa + km.start(), sa + km.end())
                for q in self.qs:
                    if sa + km.start("a") <= q.start < sa + km.end("b"):
                        q.used = True
                for attr, v in (("score_for", km.group("a")), ("score_against", km.group("b"))):
                    self.out.append(_Out(Draft(attr, float(v), None, None, None, raw, src),
                                         sa + km.start(), sent))
            return
        word = m.group("w").lower()
        a, b = int(m.group("a")), int(m.group("b"))
        us = _US_BEAT.search(raw_seg)
        opponent = None
        start, end = m.start(), m.end()
        if us and word in ("beat", "beats", "defeated") and us.end() >= m.start():
            result = "lost"
            opponent = re.sub(r"^(?:the|The)\s+", "", us.group("opp"))
            start = min(start, us.start())
        elif word in _WON:
            result = "won"
        elif word in _LOST:
            result = "lost"
        else:
            result = "draw"
        if result == "won":
            s_for, s_against = max(a, b), min(a, b)
        elif result == "lost":
            s_for, s_against = min(a, b), max(a, b)
        else:
            s_for, s_against = a, b
        if opponent is None:
            for om in _OPPONENT.finditer(raw_seg):
                if om.start() < start - 60 or om.start() > end + 40:
                    continue
                words = []
                for w in om.group("opp").split():
                    lw = w.lower().strip(".,;:")
                    if lw in ("my", "our") and not words:
                        continue
                    if lw in _KEY_STOP or not _LETTER.search(w) or lw in _TIME_WORDS:
                        break
                    words.append(w.rstrip(".,;:"))
                if words:
                    opponent = " ".join(words)
                    opp_end = raw_seg.index(words[-1], om.start("opp")) + len(words[-1])
                    start, end = min(start, om.start()), max(end, opp_end)
                    break
        raw = self.text[sa + start:sa + end]
        src = self._src(sa + start, sa + end)
        for q in self.qs:  # the two numbers of the score are not values of their own
            if sa + m.start("a") <= q.start < sa + m.end("b"):
                q.used = True
        drafts = [Draft("result", None, result, None, None, raw, src),
                  Draft("score_for", float(s_for), None, None, None, raw, src),
                  Draft("score_against", float(s_against), None, None, None, raw, src)]
        if opponent:
            drafts.append(Draft("opponent", None, opponent, None, None, raw, src))
        for d in drafts:
            self.out.append(_Out(d, sa + start, sent))

    # .. label line / value line ......................................................

    def _pair_label_lines(self, units: list[tuple[int, int, int, bool, bool]]) -> None:
        """A label-only unit followed by a value-only unit across a strong boundary (OCR of a
        dashboard tile: "Resting HR\n54\nbpm" - a unit alone on the next line joins the value)."""
        skip = -1
        for i, ((a1, b1, s1, _, r1), (a2, b2, s2, l2, r2)) in enumerate(zip(units, units[1:])):
            if i <= skip or not (r1 and l2) or s2 - s1 > 1:
                continue
            if any(a1 <= q.start < b1 for q in self.qs):
                continue
            inner = [q for q in self.qs if a2 <= q.start < b2]
            if len(inner) != 1 or inner[0].used or inner[0].bad:
                continue
            q = inner[0]
            if self.masked[a2:q.start].strip(" \t\"'“‘*_") or self.masked[q.end:b2].strip(" \t\"'”’*_.,"):
                continue
            if self._sentence_is_question(s1) or self._sentence_is_question(s2):
                continue
            key = self._key_before(a1, b1)
            if not key.words or not key.covers or key.verb or key.copula or key.too_long:
                continue
            if self.masked[key.start:b1].count("\x01"):
                continue
            name = _key_name(key.words)
            if name is None:
                continue
            plain = q.q.unit is None and key.paren_unit is None
            if plain and (key.words[-1].lower() in _ORDINAL_LABELS or _is_year(q.q)):
                continue
            raw_end = None
            if q.q.unit is None and key.paren_unit is None and i + 2 < len(units) and r2:
                a3, b3 = units[i + 2][0], units[i + 2][1]
                unit = canonical_unit(self.text[a3:b3].strip(" \t.:"))
                if unit is not None and not any(a3 <= x.start < b3 for x in self.qs):
                    q.q = Quantity(q.q.value, unit, dimension_of(unit), q.q.raw)
                    raw_end, skip = b3, i + 2
            pending: list = []
            self._add_pair(name, key, q, s2, record=True, plain_ok=True, pending=pending,
                           raw_end=raw_end)
            for _, _, d, pos in pending:
                self._emit(d, pos, s2)

    def _sentence_is_question(self, idx: int) -> bool:
        a, b = self.sentences[idx]
        return self._is_question(a, b)

    # .. word scans ...................................................................

    def _key_before(self, a: int, b: int) -> _Key:
        """The label that ends right before ``b`` (the value), scanning back to ``a``."""
        key = _Key()
        far = b - a > _MAX_GAP  # a label never sits that far back: only its tail matters
        if far:
            a = b - _MAX_GAP
        seg = self.masked[a:b]
        if _PHRASE_HINT.search(seg):
            seg = _KNOWN_PHRASES.sub(lambda m: m.group(0).replace(" ", "\u00a0"), seg)
        toks = [(a + m.start(), a + m.end(), m.group(0)) for m in _TOKEN.finditer(seg)]
        # separators right before the value
        while toks:
            t = toks[-1][2]
            if t in (":", "=", "：", "-", "–", "—", "~", "≈", "|"):
                key.colon = key.colon or t in (":", "=", "：")
                toks.pop()
                continue
            if not t.strip("\"'“”‘’*_`«»"):
                toks.pop()  # a quote or markdown mark around the value: "capacity “3750 mAh”"
                continue
            if t[-1] in ":=：" and len(t) > 1:
                key.colon = True
                s, e, _ = toks[-1]
                toks[-1] = (s, e - 1, t[:-1])
                continue
            break
        # "Steps for Dec 30: 9,000": the date names the day of the record
        if toks and not toks[-1][2].strip("\x01"):
            hit = self._date_at(toks[-1][0])
            while toks and not toks[-1][2].strip("\x01"):
                toks.pop()
            if toks and toks[-1][2].lower() in ("for", "on", "of"):
                toks.pop()
                if hit is not None:
                    key.day = hit.anchor
        if toks:
            s, e, t = toks[-1]
            pm = _PAREN_UNIT.fullmatch(t)
            if pm:
                unit = canonical_unit(pm.group(1))
                if unit is not None:
                    key.paren_unit = unit
                    toks.pop()
                    while toks and toks[-1][2] in (":", "="):
                        key.colon = True
                        toks.pop()
        # a logging verb, possibly followed by fillers ("slept for about 7 h")
        j = len(toks)
        while j > 0 and toks[j - 1][2].lower() in _VERB_FILLERS:
            j -= 1
        if j > 0:
            w1 = _norm_token(toks[j - 1][2])[0].lower()
            w2 = (_norm_token(toks[j - 2][2])[0].lower() + " " + w1) if j > 1 else ""
            verb, vi = (w2, j - 2) if w2 in _VERB_MAP else ((w1, j - 1) if w1 in _VERB_MAP else (None, 0))
            if verb is not None and not toks[vi][2].endswith((",", ".", ";")):
                key.verb = verb
                key.start = toks[vi][0]
                before = [_norm_token(t[2])[0].lower() for t in toks[max(0, vi - 3):vi]]
                key.negated = any(w in _NEGATION or w.endswith(("n't", "n’t")) for w in before)
                key.covers = not far and all(
                    w.lower() in _PRONOUNS or w in _DETERMINERS or not _LETTER.search(w)
                    for w in (_norm_token(t[2])[0] for t in toks[:vi]))
                return key
        # approximate fillers do not break a label: "resting HR ~54 bpm", "weight about 72 kg"
        while toks and toks[-1][2].lower() in ("~", "≈", "about", "around", "approx.", "approx",
                                               "approximately", "roughly", "nearly", "almost"):
            toks.pop()
        if toks and toks[-1][2].lower() in ("is", "was", "were", "are", "of", "at:"):
            key.copula = True
            toks.pop()
        elif (len(toks) >= 2 and toks[-1][2].lower() in ("to", "at")
              and toks[-2][2].lower() in _CHANGE_VERBS):
            key.copula = True
            toks.pop()
            toks.pop()
        words: list[str] = []
        i = len(toks)
        while i > 0:
            s, e, t = toks[i - 1]
            core, boundary = _norm_token(t)
            if boundary and words:
                break
            if boundary and not words and not key.colon:
                break
            low = core.lower()
            if t[-1:] in ")]" and (words or t[:1] not in "(["):
                break  # the end of an earlier parenthetical
            if t[:1] in "([" and t[-1:] in ")]":
                i -= 1  # "(avg)": an aside inside the label
                continue
            if not _keyish(core) or low.replace("’", "'") in _DETERMINERS:
                break
            if _verbish(low) and i > 1:
                break
            if len(words) == 4:
                key.too_long = True
                break
            words.insert(0, core)
            i -= 1
            if t[:1] in "([{“\"'‘":
                break  # an opening bracket or quote starts the label
        if not words:
            return key
        key.words = words
        key.start = toks[i][0] + (len(toks[i][2]) - len(toks[i][2].lstrip(_STRIP_LEAD)))
        prefix = toks[:i]
        if prefix:
            last = prefix[-1][2]
            low_last = _norm_token(last)[0].lower().replace("’", "'")
            key.owned = (low_last in _DETERMINERS and low_last not in ("a", "an", "the", "this", "that")
                         or ("\x01" in last and self.text[prefix[-1][0]:prefix[-1][1]].lower()
                             .endswith(("'s", "’s"))))
        cover = True
        for k, (_, _, t) in enumerate(prefix):
            core, _ = _norm_token(t)
            low = core.lower().replace("’", "'")
            if not core or not _LETTER.search(core):
                if "\x01" in core and self.text[prefix[k][0]:prefix[k][1]].lower().endswith(("'s", "’s")):
                    hit = self._date_at(prefix[k][0])  # "Yesterday's steps", "Mar 4's sleep"
                    if hit is not None:
                        key.day = hit.anchor
                    continue
                if "\x01" in core or "\x02" in core:
                    cover = False
                continue
            if low in _DAY_POSSESSIVE:
                key.day = _day_hint(low, self.ref)
                continue
            if low == "last" and k + 1 < len(prefix) and _norm_token(prefix[k + 1][2])[0].lower().replace("’", "'") == "night's":
                key.day = self.ref - timedelta(days=1) if self.ref else None
                continue
            if low == "night's" and k > 0:
                continue
            if low in _DETERMINERS:
                continue
            if low in ("and", "&", "plus") and (k == 0 or "\x02" in prefix[k - 1][2]):
                continue  # "... 149 mg/dL and lows: 0": the list goes on
            cover = False
        key.covers = cover and not far
        return key

    def _date_at(self, pos: int) -> _DateHit | None:
        for d in self.dates:
            if d.start <= pos < d.end:
                return d
        return None

    def _key_after(self, q: _Q, limit: int) -> tuple[str, int] | None:
        """``6.5 hours of sleep`` / ``82% time in range`` / ``1,250 kcal burned``."""
        seg = self.masked[q.end:limit]
        if _PHRASE_HINT.search(seg):
            seg = _KNOWN_PHRASES.sub(lambda m: m.group(0).replace(" ", "\u00a0"), seg)
        if not seg[:1].isspace():
            return None
        toks = [(q.end + m.start(), q.end + m.end(), m.group(0)) for m in _TOKEN.finditer(seg)]
        i = 0
        if toks and toks[0][2].lower() == "of":
            i = 1
            if len(toks) > 1 and toks[1][2].lower() in ("the", "my", "your", "our"):
                i = 2
        elif toks:
            core, _ = _norm_token(toks[0][2])
            adj = _ADJ_DIM.get(core.lower())
            if adj is not None and (q.q.dimension or "") == adj[1]:
                return adj[0], toks[0][0] + len(core)  # "178 cm tall", "34 years old"
            part = _PARTICIPLES.get(core.lower())
            if part is not None:
                dim = (q.q.dimension or "").split(":")[0]
                noun = _UNIT_NOUN.get(q.q.unit or "") or _UNIT_NOUN.get(dim)
                if noun:
                    return snake_case(f"{noun}_{part}"), toks[0][0] + len(core)
                return None
        words: list[str] = []
        end = q.end
        while i < len(toks) and len(words) <= 4:
            s, e, t = toks[i]
            core, boundary = _norm_token(t)
            low = core.lower()
            if not _keyish(core) or (_verbish(low) and low not in _PARTICIPLES):
                break
            if t[:1] in _STRIP_LEAD and words:
                break
            words.append(core)
            end = s + (len(t) - len(t.lstrip(_STRIP_LEAD))) + len(core)
            i += 1
            if boundary:
                break
        if not words or len(words) > 4 or (len(words) == 1 and words[0].lower() in _COMPARATIVES):
            return None
        if q.q.unit in _COUNT_UNITS:
            return None  # "3 floors of art", "10 pages of notes": counts of things, not labels
        if i < len(toks) and len(words) == 4 and _keyish(_norm_token(toks[i][2])[0]):
            return None
        name = _key_name(words)
        if name is None or words[-1].lower() in _ORDINAL_LABELS:
            return None
        return name, end

    # .. output .......................................................................

    def _draft(self, name: str, v: Quantity, start: int, end: int, day: date | None) -> Draft:
        return Draft(name, v.value, None, v.unit, v.dimension, self.text[start:end],
                     self._src(start, end), day)

    def _src(self, start: int, end: int) -> str:
        return f"{self.source}[{start}:{end}]"

    def _emit(self, d: Draft, pos: int, sent: int) -> None:
        self.out.append(_Out(d, pos, sent))

    def _finish(self) -> list[Draft]:
        # "Apple Watch Sleep: Mar 4, 2025 · Time asleep 7 h 12 min ...": a date heading a record
        # names the record's day, unless its label says it is a date of its own (due, birthday)
        if self.date_values and len(self.out) > 1:
            first = min(self.out, key=lambda o: o.pos)
            for draft, hit in self.date_values:
                if (first.draft is draft and not set(draft.attribute.split("_")) & _DATE_VALUE_WORDS
                        and any(o.draft.dimension != "date" for o in self.out)):
                    self.out.remove(first)
                    hit.used = False
        anchors = [(d.start, d.anchor, self._sentence_of(d.start)) for d in self.dates
                   if not d.used and d.kind in ("day", "rel") and d.anchor is not None]
        pair_sents = {o.sentence for o in self.out}
        distinct = {a for _, a, _ in anchors}
        only = next(iter(distinct)) if len(distinct) == 1 else None
        result: list[Draft] = []
        seen: set[tuple[str, date | None]] = set()
        for o in sorted(self.out, key=lambda o: o.pos):
            d = o.draft
            if d.observed_at is None and anchors:
                own = [(p, a) for p, a, s in anchors if s == o.sentence]
                before = [x for x in own if x[0] <= o.pos]
                if before:
                    d.observed_at = before[-1][1]
                elif own:
                    d.observed_at = own[0][1]
                else:
                    header = [a for p, a, s in anchors if p < o.pos and s not in pair_sents]
                    d.observed_at = header[-1] if header else only
            k = (d.attribute, d.observed_at)
            if k in seen:
                continue
            seen.add(k)
            result.append(d)
        return result

    def _sentence_of(self, pos: int) -> int:
        for i, (a, b) in enumerate(self.sentences):
            if a <= pos < b:
                return i
        return -1


_TOD_TEXT = re.compile(r"(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s?(?:([ap])\.?m\.?)?", re.I)


def _clock_text(text: str) -> str | None:
    """A time of day as 24-hour "HH:MM" ("11:40 pm" -> "23:40", "6:55" -> "06:55"), or None."""
    m = _TOD_TEXT.fullmatch(text.strip())
    if not m or (m.group(2) is None and m.group(3) is None):
        return None
    h, mi, ap = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
    if ap:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if ap == "p" else 0)
    if h > 23 or mi > 59:
        return None
    return f"{h:02d}:{mi:02d}"


def _is_year(q: Quantity) -> bool:
    return q.unit is None and q.value.is_integer() and 1800 <= q.value <= 2100 and re.fullmatch(r"\d{4}", q.raw) is not None


# -- public API ---------------------------------------------------------------------------

def extract_text(text: str, source: str, ref_time: datetime | None) -> list[Draft]:
    """Observations in one text. ``source`` names it ("user_text", "image:<id>", ...); each
    draft's source is ``source[start:end]``, with ``text[start:end] == draft.raw``.
    ``ref_time`` (the round's time) resolves relative and year-less dates."""
    if not isinstance(text, str) or not text.strip():
        return []
    return _Scanner(text, source, ref_time).run()


def _metadata_draft(key: str, value: object) -> Draft | None:
    if value is None or isinstance(value, (list, dict, tuple, set)):
        return None
    name = snake_case(key)
    if not name:
        return None
    src = f"metadata:{key}"
    raw = f"{key}: {value}"
    paren = re.search(r"\(([^()]{1,12})\)", key)
    paren_unit = canonical_unit(paren.group(1)) if paren else None
    if isinstance(value, bool):
        return Draft(name, None, "true" if value else "false", None, None, raw, src)
    if isinstance(value, (int, float)):
        v = float(value)
        if not math.isfinite(v):
            return None
        return Draft(name, v, None, paren_unit, dimension_of(paren_unit), raw, src)
    s = str(value).strip()
    if not s or len(s) > 120:
        return None
    q = parse_quantity(s)
    if q is not None:
        unit = q.unit or paren_unit
        return Draft(name, q.value, None, unit, q.dimension or dimension_of(unit), raw, src)
    hits = _find_dates(s, None)
    if len(hits) == 1 and hits[0].start == 0 and hits[0].end == len(s) and hits[0].value:
        return Draft(name, None, hits[0].value.isoformat(), None, "date", raw, src)
    return Draft(name, None, s, None, None, raw, src)


def _same_value(a: Draft, b: Draft) -> bool:
    if a.value_num is not None and b.value_num is not None:
        if a.unit == b.unit or a.unit is None or b.unit is None:
            return math.isclose(a.value_num, b.value_num, rel_tol=1e-6, abs_tol=1e-9)
        return False
    if a.value_text is not None and b.value_text is not None:
        return a.value_text.strip().lower() == b.value_text.strip().lower()
    return False


def _field(source: str) -> str:
    return source.split("[", 1)[0]


def extract_round(rnd: Round, ocr: dict[str, str] | None = None, *,
                  include_assistant: bool = True) -> list[Draft]:
    """All observations of one round: images (caption, then OCR text, image by image), then the
    user's text, the assistant's text and the metadata.

    Image and assistant values with no date of their own take the only date the user's text
    names, if it names exactly one ("Here's yesterday's sleep" + a screenshot).

    Duplicates go: the same attribute (for the same day) twice from one source keeps the first;
    the same value from two sources keeps the earlier one in that order (an image beats the
    text that repeats it). Different values from different sources are all kept, the preferred
    one first.
    """
    ref = rnd.timestamp
    found: list[Draft] = []
    user: list[Draft] = []
    user_anchor = None
    if rnd.user_text.strip():
        scan = _Scanner(rnd.user_text, "user_text", ref)
        user = scan.run()
        days = {h.anchor for h in scan.dates
                if not h.used and h.kind in ("day", "rel") and h.anchor is not None}
        if len(days) == 1:
            user_anchor = next(iter(days))
    for im in rnd.images:
        texts = []
        if im.caption and im.caption.strip():
            texts.append((im.caption, f"image:{im.image_id}"))
        if ocr and ocr.get(im.image_id):
            texts.append((ocr[im.image_id], f"ocr:{im.image_id}"))
        for text, source in texts:
            for d in extract_text(text, source, ref):
                if d.observed_at is None:
                    d.observed_at = user_anchor
                found.append(d)
    found.extend(user)
    if include_assistant and rnd.assistant_text:
        for d in extract_text(rnd.assistant_text, "assistant_text", ref):
            if d.observed_at is None:
                d.observed_at = user_anchor  # the assistant speaks of what the user showed
            found.append(d)
    for key, value in rnd.metadata.items():
        d = _metadata_draft(key, value)
        if d is not None:
            found.append(d)
    kept: list[Draft] = []
    by_key: dict[tuple[str, date | None], list[Draft]] = {}
    for d in found:
        group = by_key.setdefault((d.attribute, d.observed_at), [])
        if any(_field(g.source) == _field(d.source) or _same_value(g, d) for g in group):
            continue
        group.append(d)
        kept.append(d)
    return kept


# -- speed check --------------------------------------------------------------------------

def _dashboard_rounds(n: int) -> list[Round]:
    """Dense synthetic rounds (a dashboard caption with 8 values, a log line, a reply)."""
    users = ["Here's last night's sleep.", "Logged my run: ran 5.2 km in 28:30 this morning, avg HR 148 bpm.",
             "Spent $12.40 on lunch and $4.50 on coffee today.", "We won 3-1 against the Hawks!",
             "How did I sleep this week?"]
    replies = ["You slept 6 h 45 min, a nice improvement over yesterday's 6 h 10 min.",
               "Great run! Your pace of 5:29 /km is faster than last week.", "Noted."]
    out = []
    for i in range(n):
        day = i % 28 + 1
        caption = (f"Sleep dashboard for Mar {day}: Total sleep {6 + i % 3}h {i % 60}m · Deep 1h 10m "
                   f"· REM 1h 32m · Resting HR {50 + i % 9} bpm · HRV 42 ms · Sleep score {70 + i % 25}")
        out.append(Round(round_id=f"r{i}", timestamp=datetime(2025, 3, day, 8), user_text=users[i % 5],
                         assistant_text=replies[i % 3],
                         images=[{"image_id": f"img{i}", "caption": caption}]))  # type: ignore[list-item]
    return out


if __name__ == "__main__":  # pragma: no cover - a manual measurement, not a test
    import glob
    import os
    import time

    from adamm.formats.mem_gallery import load_mem_gallery

    here = os.path.dirname(os.path.abspath(__file__))
    pattern = os.path.join(here, "..", "..", "..", "shared", "data", "mem_gallery", "dialog", "*.json")
    sets = {"Mem-Gallery dialogues": [r for f in sorted(glob.glob(pattern))
                                      for r in load_mem_gallery(f).scenarios[0].rounds],
            "dense dashboard rounds": _dashboard_rounds(2000)}
    for label, rounds in sets.items():
        if not rounds:
            continue
        best, n = float("inf"), 0
        for _ in range(3):
            t0 = time.process_time()
            n = sum(len(extract_round(r)) for r in rounds)
            best = min(best, time.process_time() - t0)
        print(f"{label}: {len(rounds)} rounds, {n} drafts, {len(rounds) / best:,.0f} rounds/s "
              f"({best / len(rounds) * 1e3:.3f} ms a round, best of 3, CPU time)")
