"""The words a label is made of, and the words that stop one (the ``labels`` extractor).

A label is the few words right before (or after) a value, and what may be part of one decides
most of the extractor's precision: a key never holds a preposition, pronoun, auxiliary, hedge,
time or number word (:data:`KEY_STOP`), a lone verb or determiner is no key, and a key longer
than 4 words or 48 characters is none either (:func:`key_name`).

Logging verbs (:data:`VERB_MAP`, a deliberately small map; the attribute depends on the
value's dimension):

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
"""

from __future__ import annotations

import re
from functools import lru_cache

from adamm.stores.quantities import _snake_full, snake_case


# -- vocabulary ---------------------------------------------------------------------------

DETERMINERS = frozenset("""a an the my your our his her their its this that these those
today's yesterday's tonight's todays yesterdays one's""".split())
_PREPOSITIONS = frozenset("""at in on of for with by from to into onto over under about around after
before during since until till than via per within without between among through across above
below near like as vs vs. versus against upon toward towards along beside besides off out up
down""".split())
_CONJUNCTIONS = frozenset("and or but so if because while when then whether nor yet though although".split())
PRONOUNS = frozenset("""i me you he she it we they him us them myself yourself ourselves themselves
there here who whom what which whose that this these those it's i'm i've i'd i'll you're you've
we're we've they're he's she's that's there's what's mine yours ours theirs someone something
anyone anything everyone everything nobody nothing""".split())
AUX_VERBS = frozenset("""is are was were be been being am 's has have had having do does did done
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
TIME_WORDS = frozenset("""today yesterday tonight tomorrow now then later earlier ago soon
recently currently monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu
thur thurs fri sat sun weekend weekday""".split())
_HEDGE_WORDS = frozenset("""maybe perhaps probably possibly usually typically generally normally often
sometimes ideally really actually basically definitely likely unlikely roughly literally
honestly""".split())
NUMBER_WORDS = frozenset("""zero one two three four five six seven eight nine ten eleven twelve
twenty thirty forty fifty sixty hundred thousand million billion half quarter dozen
first second third""".split())
COMPARATIVES = frozenset("""longer shorter faster slower higher lower heavier lighter earlier later
more less fewer bigger smaller better worse older younger warmer colder cheaper away long late
early straight overall each apiece total extra ahead behind back complete completed done full
empty correct accurate chance likely sure certain off new old free cheaper faster""".split())
#: Hard stops: a key never contains these words, and a key-before scan stops at them.
KEY_STOP = (_PREPOSITIONS | _CONJUNCTIONS | PRONOUNS | AUX_VERBS | _QUANT_WORDS | TIME_WORDS
            | NUMBER_WORDS | _HEDGE_WORDS | frozenset({"not", "no", "n't", "yes", "ok", "okay", "please",
                                          "thanks", "thank", "hi", "hello", "well", "oh", "wow"}))
#: Words ending in -ed that are not verbs.
ED_NOUNS = frozenset("speed bed red hundred sacred kindred naked wicked beloved shed seed need "
                      "feed bleed weed deed breed greed shred sled".split())
#: Labels that number things rather than measure them: "Step 2", "Chapter 3", "Fig 7".
ORDINAL_LABELS = frozenset("""step part chapter section item no no. nr number num question q
page day week month year round level phase stage lesson unit fig fig. figure table slide option
tip episode season volume vol issue version v gate room floor row seat line class session test
task exercise problem example note rule point reason method way track lane bus route platform
terminal door apartment apt building block plot grid group team player hole court channel
aisle box case bay zone tier rank image img photo picture pic screenshot shot frame clip video
slide panel tab card""".split())

#: verb -> {dimension (or unit for counts, None for a plain number): attribute}
VERB_MAP: dict[str, dict[str | None, str]] = {
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
    VERB_MAP[f"a {_noun}"] = VERB_MAP[_verb]  # "did a run: 5 km in 28 min", "went for a walk"
MOTION_VERBS = frozenset("ran jogged walked hiked cycled biked rode swam drove".split()) | {
    k for k in VERB_MAP if k.startswith("a ")}
MONEY_VERBS = frozenset({"spent", "paid"})
#: Fillers allowed between a verb and its value: "slept for about 7 h", "paid a total of $40".
VERB_FILLERS = frozenset("myself in at for about around approximately approx approx. roughly nearly almost "
                         "only just ~ a total of over".split())
COUNT_UNITS = frozenset({"steps", "reps", "laps", "floors", "pages", "points"})

ABBREV = frozenset({"avg.", "approx.", "est.", "temp.", "max.", "min.", "no.", "vs.", "e.g.",
                    "i.e.", "etc.", "mr.", "mrs.", "ms.", "dr.", "st.", "fig.", "vol.", "qu.",
                    "approx", "incl.", "excl.", "wt.", "ht.", "dist.", "dur.", "cal.", "hr.",
                    "sys.", "dia.", "tot.", "amt.", "qty.", "pts.", "elev.", "bal.", "avg"})

#: A letter of a word (a key has at least one).
LETTER = re.compile(r"[A-Za-z\u00c0-\u024f]")


# -- tokens and keys -----------------------------------------------------------------------

STRIP_LEAD = "\"'“”‘’*_([{<`«"
_STRIP_TRAIL = "\"'“”‘’*_)]}>`»"


@lru_cache(maxsize=16384)
def norm_token(tok: str) -> tuple[str, bool]:
    """A token's word (markdown and quotes stripped) and whether punctuation ends it."""
    core = tok.lstrip(STRIP_LEAD).rstrip(_STRIP_TRAIL)
    boundary = False
    low = core.lower()
    if low in ABBREV:
        return core.rstrip("."), False
    while core and core[-1] in ",.;:!?…":
        core = core[:-1]
        boundary = True
    core = core.rstrip(_STRIP_TRAIL)
    return core, boundary


@lru_cache(maxsize=16384)
def verbish(low: str) -> bool:
    if low in AUX_VERBS:
        return True
    return len(low) >= 5 and low.endswith("ed") and not low.endswith("eed") and low not in ED_NOUNS


@lru_cache(maxsize=16384)
def keyish(core: str) -> bool:
    if not core or not LETTER.search(core):
        return False
    low = core.lower().replace("\u00a0", " ")
    return low not in KEY_STOP


def key_name(words: list[str]) -> str | None:
    """The snake_case attribute for key words, or None when they do not make a usable key."""
    if not 1 <= len(words) <= 4:
        return None
    return _key_name_cached(tuple(words))


@lru_cache(maxsize=8192)
def _key_name_cached(words: tuple[str, ...]) -> str | None:
    low = [w.lower().replace("\u00a0", " ") for w in words]
    if any(w in KEY_STOP for w in low):
        return None
    if len(low) == 1 and (verbish(low[0]) or low[0] in DETERMINERS):
        return None
    full = _snake_full(" ".join(words).replace("\u00a0", " "))
    if not full or len(full) > 48 or len(full) < 2 or not full[0].isalpha() or full.startswith("n_"):
        return None
    return snake_case(full)
