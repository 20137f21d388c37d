"""Canonical attribute names: one name per meaning within a memory.

The same quantity is written many ways ("Resting HR", "resting heart rate", "Sleep", "Total
sleep"); a schema can only recur if those become one attribute. A new name is merged into a
known attribute when, in this order:

1. the names are equal after snake_case;
2. their *cores* are equal - plurals folded, generic qualifiers dropped (``total``, ``average``
   ...), a word standing for the initials or a shortening of the other's (``hr`` - ``heart
   rate``, ``dist`` - ``distance``: the grammar of abbreviations, no table) - and the units agree;
3. one name's content words contain the other's (a dashboard's bare ``Deep`` next to a known
   ``deep_sleep``) and the units agree;
4. *slot filling*: the round lacks an attribute that records with the same companions nearly
   always carry (≥ 80 % of the rounds sharing attributes with this one), and exactly one such
   attribute has the new name's unit - a dashboard field under another label;
5. their embeddings (of the expanded phrases) are at least ``threshold`` similar and the units
   agree. Embeddings of short labels are a weak signal (MiniLM scores "average heart rate" vs
   "resting heart rate" 0.72, "resting hr" vs "resting heart rate" 0.61), so this comes last
   and with a high threshold.

Several candidates (rules 2-3) are told apart by which of them is usually recorded together with
the round's other attributes. An attribute the round already reported is never a target.

"Units agree" means the same dimension (both durations, both USD ...), or both unit-less.
Values are then converted to the known attribute's unit, which its first observation fixed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from adamm.stores.bm25 import tokenize
from adamm.stores.quantities import converted_span

#: Words that qualify a quantity without changing what it measures.
QUALIFIERS = frozenset({"total", "average", "avg", "mean", "daily", "overall", "net", "my", "today", "todays", "last", "night", "current", "now", "altogether"})


#: Slot filling: a known attribute present in at least this share of the rounds that share
#: attributes with the current one, over at least this many rounds.
SLOT_SHARE = 0.8
SLOT_MIN_ROUNDS = 2


def expand(name: str) -> str:
    """``resting_hr`` -> ``resting hr``: the name as words (abbreviations are matched against
    the memory's own names by :func:`abbreviates`, never looked up in a table)."""
    return " ".join(tok for tok in name.split("_") if tok)


def _letters_in_order(short: str, word: str) -> bool:
    """``word``'s first letter, then ``short``'s other letters in ``word``'s order ("dv" - "dov")."""
    rest = iter(word[1:])
    return bool(short) and short[0] == word[:1] and all(c in rest for c in short[1:])


def abbreviates(short: str, phrase: Sequence[str]) -> bool:
    """Is ``short`` an abbreviation of the words ``phrase``, by the grammar of abbreviations
    alone: their initials (``hr`` - heart rate, ``bp``), or a shortening of one word that keeps
    its first letter and the order of its letters (``dist``, ``temp``, ``qty``, ``wt``)."""
    if not (2 <= len(short) <= 4 and short.isalpha()) or not phrase:
        return False
    if len(phrase) >= 2:
        return short == "".join(w[:1] for w in phrase)
    word = phrase[0]
    return len(word) >= len(short) + 2 and word.isalpha() and _letters_in_order(short, word)


def same_words(a: Sequence[str], b: Sequence[str], _after_same: bool = False) -> bool:
    """Do two names say the same words, a word of one standing for one or more words of the
    other by :func:`abbreviates` (``resting hr`` - ``resting heart rate``)? The last word of a
    name whose first words are the other's may be cut short by a letter or more, as a narrow
    app tile cuts it (``loskar len`` - ``loskar length``, ``drormust fas`` - ``drormust fask``)."""
    if not a or not b:
        return not a and not b
    if a[0] == b[0]:
        return same_words(a[1:], b[1:], True)
    if _after_same and len(a) == 1 and len(b) == 1 and min(len(a[0]), len(b[0])) >= 3 \
            and (a[0].startswith(b[0]) or b[0].startswith(a[0])):
        return True
    return any(abbreviates(a[0], b[:k]) and same_words(a[1:], b[k:]) for k in range(1, len(b) + 1)) or \
        any(abbreviates(b[0], a[:k]) and same_words(a[k:], b[1:]) for k in range(1, len(a) + 1))


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def content_words(name: str) -> list[str]:
    """A name's words in order - abbreviations of the table expanded, plurals folded - without
    its qualifiers (``total``, ``avg`` ...); empty for a name that is only a qualifier."""
    return [w for w in (_singular(x) for x in expand(name).split()) if w not in QUALIFIERS]


def tokens(name: str) -> frozenset[str]:
    """Content words of a name: abbreviations expanded, plurals folded, qualifiers dropped."""
    return frozenset(content_words(name)) or words(name)


def words(name: str) -> frozenset[str]:
    """All words of a name, qualifiers included (``total`` alone is a label too)."""
    return frozenset(_singular(w) for w in expand(name).split())


def core(name: str) -> str:
    """The expanded name without generic qualifiers (``average_hr`` -> ``heart rate``)."""
    return " ".join(sorted(tokens(name)))


def shortened(short: str, name: str) -> bool:
    """Is ``short`` the one-word ``name`` with letters left out ("mrl" - "murl", "thr" - "thrn")?
    Its first letter, then its other letters in order - looser than :func:`abbreviates`, so
    only for a name that agrees in unit with one known field alone. Pure."""
    return short.isalpha() and name.replace("_", "").isalpha() and 2 <= len(short) < len(name) and _letters_in_order(short, name)


def units_agree(a_dimension: str | None, b_dimension: str | None) -> bool:
    """The same dimension, or two units the memory coined where one is the other shortened
    ("14 q" and "14 qelts", "3 dv" and "3 dovs": a narrow display cuts its unit as it cuts a
    label, by the grammar of abbreviations, with no table of units)."""
    if a_dimension == b_dimension:
        return True
    if not (a_dimension or "").startswith("unit:") or not (b_dimension or "").startswith("unit:"):
        return False
    a, b = sorted((a_dimension[5:].lower(), b_dimension[5:].lower()), key=len)  # type: ignore[index]
    return a.isalpha() and b.isalpha() and len(a) < len(b) and _letters_in_order(a, b)  # "q" - "qelt", "dv" - "dov"


@dataclass
class Known:
    name: str
    unit: str | None
    dimension: str | None
    kind: str
    vector: np.ndarray | None = None
    aliases: set[str] = field(default_factory=set)


class AttributeResolver:
    """Maps raw attribute names of one memory onto its canonical attributes.

    ``embed`` turns phrases into unit vectors (the text encoder); it is called only for names
    the structural rules cannot place. ``sets`` are the memory's attribute-set counts, used to
    tell apart candidates of a bare label by what they are recorded with ("score" next to
    ``deep_sleep`` is ``sleep_score``; next to ``opponent`` it is a game's score).
    """

    def __init__(self, known: Sequence[Known], embed: Callable[[list[str]], np.ndarray], threshold: float = 0.85,
                 sets: Sequence[tuple[frozenset[str], int]] = ()) -> None:
        self.known: dict[str, Known] = {k.name: k for k in known}
        self.embed = embed
        self.threshold = threshold
        self.sets = list(sets)

    def resolve(self, name: str, dimension: str | None, context: frozenset[str] = frozenset(), *, exclude: frozenset[str] = frozenset(),
                strict: bool = False) -> str | None:
        """The known attribute ``name`` means, or None when it is new.

        ``context`` holds the canonical attributes already resolved in the same round; they rank
        ambiguous candidates by co-occurrence. ``exclude`` names attributes that may not be the
        answer (the caller's: those of the round whose values differ from this one's).
        ``strict``: matched by its name's words only, for a text value (without a unit to agree
        on, the slot a record lacks or the nearest name would put a genre under ``time_of_day``)
        and for a name the extractor chose on purpose (a started book's ``size`` is no ``pages``).
        """
        exact = name in self.known and name not in exclude
        # a number without a unit under a name the memory knows ("thr" heading a whiteboard
        # column) is that field's, in the field's own unit
        bare_number = dimension is None and not strict
        if exact and (units_agree(self.known[name].dimension, dimension) or bare_number and self.known[name].kind != "text"):
            return name
        for k in self.known.values():
            if name in k.aliases and k.name not in exclude and (
                    units_agree(k.dimension, dimension) or bare_number and k.kind != "text"):
                # "Threnn 18.6 qelts" is the threnn of every other round, even after an aside
                # ("the breed's threnn is 3 dovs") coined a ``threnn`` of another unit
                return k.name
        if exact:
            return name
        if not strict:
            # "mrl", "sk" heading columns: a name shortened as a narrow layout shortens it
            short = [k for k in self.known.values() if k.name not in exclude and k.kind != "text"
                     and (units_agree(k.dimension, dimension) or bare_number)
                     and any(shortened(name, n) for n in (k.name, *k.aliases))]
            if len(short) == 1:
                return short[0].name
        compatible = [k for k in self.known.values() if units_agree(k.dimension, dimension) and k.name not in exclude]
        if not compatible:
            return None
        # A known attribute that has been recorded, but never with anything this round
        # reports, belongs to another kind of record ("avg HR" of a run is not the sleep
        # dashboard's "resting HR"), whatever the names share.
        others = context - {k.name for k in compatible}
        plausible = [k for k in compatible if not others or k.name in context or self._seen_with(k.name, others) != 0]
        mine, mine_words = tokens(name), words(name)
        by_core = [k for k in plausible if tokens(k.name) == mine]
        if not by_core:
            mine_seq = content_words(name)
            by_core = [k for k in plausible if mine_seq and same_words(mine_seq, content_words(k.name))]
        if by_core:
            return self._pick(by_core, context)
        if mine_words <= QUALIFIERS:
            # A bare "Total" / "Average" names whatever quantity its record is about: any
            # plausible candidate of the right unit, told apart by co-occurrence.
            related = plausible
        else:
            related = [k for k in plausible if mine_words <= words(k.name) or words(k.name) <= mine_words]
        if len(related) > 1 and len(mine_words) > 1:
            # "deep sleep" next to a known bare "Deep" and "Sleep": its modifier, the word that
            # sets it apart, decides ("deep sleep" is the dashboard's "Deep", not its "Sleep").
            first = [w for w in expand(name).split() if w not in QUALIFIERS][:1]
            narrowed = [k for k in related if first and _singular(first[0]) in words(k.name)]
            related = narrowed or related
        if related:
            return self._pick(related, context)
        if strict:
            return None
        slot = self._slot(plausible, context)
        if slot is not None:
            return slot
        return self._nearest(name, plausible) if plausible else None

    def _slot(self, candidates: list[Known], context: frozenset[str]) -> str | None:
        """The one known attribute that records like this round nearly always carry, when the
        round lacks it: a dashboard's field under another label ("CGM 82 %" where rounds with
        the same companions always had ``time_in_range``). Needs a context to judge from."""
        missing = [k for k in candidates if k.name not in context]
        if not context or not missing:
            return None
        rounds_with_context = sum(n for s, n in self.sets if s & context)
        if rounds_with_context < SLOT_MIN_ROUNDS:
            return None
        strong = [k for k in missing
                  if sum(n for s, n in self.sets if k.name in s and s & context) >= SLOT_SHARE * rounds_with_context]
        return strong[0].name if len(strong) == 1 else None

    def by_unit(self, dimension: str | None, unit: str | None, context: frozenset[str], exclude: frozenset[str],
                prefer: str | None = None) -> str | None:
        """For a value named only by its unit ("76.4 km" in a log row): the known attribute
        recorded in exactly that unit, the one most often recorded with the record's other
        attributes when several are - "677 m" beside "76.4 km" is the climb in metres, not the
        distance in kilometres. None when no known attribute has the unit."""
        if dimension is None or unit is None:
            return None
        pool = [k for k in self.known.values() if k.dimension == dimension and k.unit == unit and k.name not in exclude]
        if not pool:
            return None
        if context:
            # with companions to judge by, only an attribute recorded with them will do
            pool = [k for k in pool if (self._seen_with(k.name, context) or 0) > 0]
            if not pool:
                return None
        if len(pool) == 1:
            return pool[0].name
        scored = sorted(pool, key=lambda k: (-(self._seen_with(k.name, context) or 0) if context else 0, k.name != prefer,
                                             -sum(n for s, n in self.sets if k.name in s), k.name))
        return scored[0].name

    def seen_with(self, name: str, context: frozenset[str]) -> int:
        """How often ``name`` was recorded with attributes of ``context`` (0: never)."""
        return self._seen_with(name, context) or 0

    def is_known(self, name: str) -> bool:
        """A canonical name or one of its recorded aliases."""
        return name in self.known or any(name in k.aliases for k in self.known.values())

    def _seen_with(self, name: str, context: frozenset[str]) -> int | None:
        """Rounds recording ``name`` with the context (weighted), None if never recorded."""
        seen = [(s, n) for s, n in self.sets if name in s]
        if not seen:
            return None
        return sum(n * len(s & context) for s, n in seen)

    def _pick(self, candidates: list[Known], context: frozenset[str]) -> str:
        """One candidate: alone, or the one most often recorded with this round's attributes."""
        if len(candidates) == 1:
            return candidates[0].name

        def score(k: Known) -> tuple[int, int, str]:
            overall = sum(n for s, n in self.sets if k.name in s)
            return (self._seen_with(k.name, context) or 0, overall, k.name)

        return max(candidates, key=score).name

    def _nearest(self, name: str, compatible: list[Known]) -> str | None:
        missing = [k for k in compatible if k.vector is None]
        if missing:
            for k, vec in zip(missing, self.embed([expand(k.name) for k in missing])):
                k.vector = np.asarray(vec, dtype=np.float32)
        query = np.asarray(self.embed([expand(name)])[0], dtype=np.float32)
        best = max(compatible, key=lambda k: float(k.vector @ query))  # type: ignore[operator]
        return best.name if float(best.vector @ query) >= self.threshold else None  # type: ignore[operator]

    def add(self, name: str, unit: str | None, dimension: str | None, kind: str) -> Known:
        known = Known(name, unit, dimension, kind)
        self.known[name] = known
        return known

    def observe(self, attributes: frozenset[str]) -> None:
        """Count a round's canonical attribute set, so later rounds of the batch see it."""
        self.sets.append((attributes, 1))


# -- consolidation -----------------------------------------------------------------------------


def _profile(name: str, sets: Sequence[tuple[frozenset[str], int]], dims: dict[str, str | None]) -> tuple[Counter, Counter]:
    """What an attribute is recorded with: companion names and companion units (dimensions)."""
    names: Counter = Counter()
    units: Counter = Counter()
    for s, n in sets:
        if name in s:
            for other in s - {name}:
                names[other] += n
                units[dims.get(other)] += n
    return names, units


def _aligned(mine: Counter, theirs: Counter, dims: dict[str, str | None], together: set[tuple[str, str]]) -> Counter:
    """``mine`` with each companion the other profile lacks renamed to the one companion of the
    other profile, of the same unit, that mine lacks and that never shares a round with it:
    two layouts of one record label every field their own way, so their other fields are
    compared as the same too ("tamb" beside "skel", "durn" beside "climb")."""
    only_mine = sorted(c for c in mine if c not in theirs)  # sorted: a set's order is the process's hash seed
    only_theirs = sorted(c for c in theirs if c not in mine)
    out = Counter(mine)
    for c in only_mine:
        match = [t for t in only_theirs if dims.get(t) == dims.get(c) and (c, t) not in together]
        if len(match) == 1:
            out[match[0]] += out.pop(c)
            only_theirs.remove(match[0])
    return out


def _cosine(a: Counter, b: Counter) -> float:
    keys = set(a) | set(b)
    dot = sum(a[k] * b[k] for k in keys)
    na = sum(v * v for v in a.values()) ** 0.5
    nb = sum(v * v for v in b.values()) ** 0.5
    return dot / (na * nb) if na and nb else 0.0


#: Two value ranges are alike when the gap between them is under this factor: a few weigh-ins
#: at 79.8-80.8 kg and the weights at 80.9-82.3 kg are one series; a book's 250-450 pages and a
#: session's 20-60 are not.
RANGE_GAP = 1.5


def _range_in(k: Known, other: Known, ranges: dict[str, tuple[float, float]] | None) -> tuple[float, float] | None:
    """``k``'s value range in ``other``'s unit: "1 h 53 min" stored in hours and "105 min" in
    minutes are compared as one duration."""
    return converted_span((ranges or {}).get(k.name), k.unit, other.unit)


def ranges_overlap(a: tuple[float, float] | None, b: tuple[float, float] | None) -> bool:
    """Are two attributes' value ranges alike (overlapping, or apart by less than ``RANGE_GAP``)?"""
    if a is None or b is None:
        return False
    low, high = max(a[0], b[0]), min(a[1], b[1])
    if low <= high:
        return True
    return high > 0 and low <= RANGE_GAP * high


def same_sign(a: tuple[float, float] | None, b: tuple[float, float] | None) -> bool:
    """Do two value ranges agree on sign - both holding negatives, or neither? Pure."""
    return a is None or b is None or (a[0] < 0) == (b[0] < 0)


#: Two labels of one field whose layouts share no companion attribute (a journal that says
#: "slept 7 hours" one day and "watch says 6h45 asleep" another): the records of each say the
#: same other things - cosine of their word profiles at least this.
CONTEXT_SIMILARITY = 0.4


def context_profiles(records: Iterable[tuple[Iterable[str], str]]) -> dict[str, dict[str, float]]:
    """What the records holding each attribute say: ``{attribute: {word: weight}}``.

    ``records``: (attribute names, the record's text) per record. A word's weight is its
    inverse document frequency over all records (words every record says, "today", weigh
    nothing) times ``p (1 - p)`` for the share ``p`` of the attribute's records that say it: a
    word *every* one of them says is the layout's own wording ("Close-up of the kitchen scale's
    display reading ..."), which differs between two layouts of one field, while the words
    that vary from record to record are what the records are about (which crop, which bed),
    which two layouts of one field share. Numbers are no words here.
    """
    rows = [(frozenset(a), {w for w in tokenize(t or "") if len(w) > 2 and not any(c.isdigit() for c in w)}) for a, t in records]
    if not rows:
        return {}
    df: Counter = Counter(w for _, ws in rows for w in ws)
    n = len(rows)
    idf = {w: math.log(n / c) for w, c in df.items()}
    tf: dict[str, Counter] = {}
    held: Counter = Counter()
    for attrs, ws in rows:
        for a in attrs:
            held[a] += 1
            tf.setdefault(a, Counter()).update(ws)
    return {a: {w: c / held[a] * (1 - c / held[a]) * idf[w] for w, c in counts.items() if idf[w] > 0 and c < held[a]}
            for a, counts in tf.items()}


def context_similarity(profiles: Mapping[str, Mapping[str, float]], a: str, b: str) -> float:
    """Cosine of two attributes' word profiles, their own names' words left out (each layout
    says its own label)."""
    pa, pb = profiles.get(a), profiles.get(b)
    if not pa or not pb:
        return 0.0
    own = {v for name in (a, b) for w in expand(name).split() for v in (w, _singular(w))}
    return _cosine(Counter({k: v for k, v in pa.items() if k not in own}), Counter({k: v for k, v in pb.items() if k not in own}))


#: Companions by name, for two labels with no word in common: most of them the same (two
#: layouts of one record type write the other fields under their own labels too).
NAMED_SIMILARITY = 0.7


def abbreviated(a: str, b: str) -> bool:
    """Is one name the other's words abbreviated (``pwr`` - ``power``, ``avg_hr`` - ``heart_rate``)?"""
    sa, sb = content_words(a), content_words(b)
    return bool(sa and sb) and same_words(sa, sb)


def _unit_word_of_label(k: Known, other: Known) -> bool:
    """Is ``k``'s coined unit a word of ``other``'s label, ``other`` written without a unit?
    "36 glorsha thak" reads "glorsha" as a unit of the memory's own and names the value "thak";
    "Glorsha thak 36" in another layout names the same field "glorsha_thak". Likewise "galbair 12
    slol" (``galbair`` in ``slol``) and "Galbair slol: 12". The word sits where a label's word
    sits, so it is one: the unit-less label survives. A value counted in the very word another
    field is named ("Caffeine situation: three coffees" beside the ``coffee`` of "4 coffees") is
    that field's too."""
    if not (k.dimension or "").startswith("unit:") or not k.unit or other.dimension is not None or other.kind != k.kind:
        return False
    unit, mine, theirs = _singular(k.unit.lower()), content_words(k.name), content_words(other.name)
    if mine == [unit]:  # "26 galbair slol" named by its unit alone: "galbair" is "galbair slol"
        return len(theirs) == 2 and unit in (theirs[0], theirs[-1])
    if theirs == [unit]:  # "Caffeine situation: three coffees" counts what "4 coffees" made the field "coffee"
        return True
    return bool(mine) and theirs in ([unit, *mine], [*mine, unit])


def _self_named(k: Known) -> bool:
    """Is ``k``'s coined unit its own name ("25 gerrsan" read as 25 of a unit "gerrsan")? Then
    the word is the label, and the value has no unit: "Gerr 25" elsewhere is the same field."""
    return (k.dimension or "").startswith("unit:") and bool(k.unit) and content_words(k.name) == [_singular(k.unit.lower())]


def _dimension(k: Known) -> str | None:
    return None if _self_named(k) else k.dimension


def _unit_left_out(k: Known, other: Known, ranges: dict[str, tuple[float, float]] | None) -> bool:
    """"Resting HR 58" beside "resting heart rate 58 bpm": one label written without the unit
    the other carries - the same words (or their abbreviation) and the same values."""
    if (_dimension(k) is None) == (_dimension(other) is None) or k.kind != "float":
        return False
    if not (words(k.name) & words(other.name) and len(words(k.name) | words(other.name)) > 1 or abbreviated(k.name, other.name)):
        return False
    return ranges is not None and ranges_overlap(ranges.get(k.name), ranges.get(other.name))


def consolidation(known: Sequence[Known], sets: Sequence[tuple[frozenset[str], int]], *, frozen: frozenset[str] = frozenset(),
                  min_similarity: float = 0.9, ranges: dict[str, tuple[float, float]] | None = None,
                  contexts: Mapping[str, Mapping[str, float]] | None = None,
                  spans: dict[str, tuple[float, float]] | None = None,
                  records: Sequence[frozenset[str]] = ()) -> dict[str, str]:
    """Pairs of attributes that are one quantity under two labels: ``{merged: survivor}``.

    Early in a memory the first rounds of a new record type arrive before there is any history
    to resolve their labels against ("Run distance" and "Evening run" both become attributes). Two
    attributes are one when they have the same unit and kind, never appear in the same round,
    share at least one companion attribute, and are recorded with the same *kinds* of companions
    (cosine of companion-unit profiles ≥ ``min_similarity``), and either their names share a
    word ("evening run" / "run distance") or they are recorded with the same *named* companions
    and their values overlap ("Scale says 82.2 kg" / "weight 81.4 kg" beside a night's sleep;
    a started book's 320-page ``size`` never overlaps a session's 25 ``pages``, an odometer's
    56,694 km never a ride's 30 km). The survivor is the one seen in
    more rounds; ``frozen`` attributes (already table columns) are never merged away. Several
    candidate partners (a game's "goals for" vs "score for" / "score against") are told apart
    by shared words, else left alone.

    Failing those, two numeric labels with no companion in common are one field when their
    records say the same other things (``contexts``: :func:`context_profiles`, cosine at least
    :data:`CONTEXT_SIMILARITY`), with the same dimension, seldom together in one of the
    ``records`` (attribute sets per record; :data:`CONTEXT_TOGETHER`), and the
    middle of their values (``spans``, e.g. the 20th-80th percentile) alike - "watch says 6h45
    asleep" and "slept 7 hours" in one journal; a bodyweight and a lift's weight are not, for
    their records say other things. The most similar such partner is taken.
    """
    dims = {k.name: k.dimension for k in known}
    support = {k.name: sum(n for s, n in sets if k.name in s) for k in known}
    profiles = {k.name: _profile(k.name, sets, dims) for k in known}
    if records:
        # together in a record, not merely in a round: a week's table and a photo of one
        # picking in one message are two records, whose labels may be one field's; a record
        # that says one value twice ("1056 g altogether", the scale reading 1056 g) is rare
        held = Counter(a for r in records for a in r)
        pairs = Counter((a, b) for r in records for a in r for b in r if a != b)
        together = {p for p, n in pairs.items() if n > CONTEXT_TOGETHER * min(held[p[0]], held[p[1]])}
        # a label whose unit is the other's name: one record holding both is a record read wrong
        # (two days' text in one), not two fields
        worded_together = {p for p in together if pairs[p] > 1}
    else:
        together = {(a, b) for s, _ in sets for a in s for b in s if a != b}
        worded_together = together
    merged: dict[str, str] = {}
    for k in sorted(known, key=lambda k: (support[k.name], k.name)):
        if k.name in frozen or support[k.name] == 0 or k.kind == "text":
            continue  # categorical fields: without a unit, "never together" would make a genre a time of day
        worded = [o for o in known if o.name not in merged and o.name not in frozen and (k.name, o.name) not in worded_together
                  and support[o.name] and _unit_word_of_label(k, o)]
        if len(worded) == 1:
            merged[k.name] = worded[0].name
            continue
        partners = []
        for other in known:
            if other.name == k.name or other.name in merged or other.kind != k.kind:
                continue
            if not units_agree(other.dimension, k.dimension) and _dimension(other) != _dimension(k) and not _unit_left_out(k, other, ranges):
                continue
            if (k.name, other.name) in together or support[other.name] < support[k.name]:
                continue
            names_k, units_k = profiles[k.name]
            names_o, units_o = profiles[other.name]
            if not set(names_k) & set(names_o) - {k.name, other.name}:
                continue
            if _cosine(units_k, units_o) < min_similarity:
                continue
            if words(k.name) & words(other.name) or abbreviated(k.name, other.name) or (
                    _cosine(_aligned(names_k, names_o, dims, together), names_o) >= NAMED_SIMILARITY and ranges_overlap(_range_in(k, other, ranges), (ranges or {}).get(other.name))):
                partners.append(other)
        if len(partners) > 1:
            mine = words(k.name)
            partners = [p for p in partners if words(p.name) & mine] or partners
        if len(partners) > 1 and ranges:
            # a game's "score for" (0-4) is no sleep "score" (50-90), whatever their names share
            partners = [p for p in partners if ranges_overlap(_range_in(k, p, ranges), ranges.get(p.name))]
            # a shorthand's turns ("10t", 6-16) beside a signed change (-14..+15) and the turns:
            # a quantity that never went below zero is no signed one
            partners = [p for p in partners if same_sign(ranges.get(k.name), ranges.get(p.name))] or partners
            if len(partners) > 1 and not any((a.name, b.name) in together for a in partners for b in partners):
                # "scale", "weigh in" and "weight" beside a night's sleep: three labels of one
                # quantity (none recorded with another); all go to the most recorded one.
                partners = [max(partners, key=lambda p: (support[p.name], p.name))]
        if not partners and contexts:
            partners = _context_partners(k, known, merged, records, contexts, spans or ranges)
        if len(partners) == 1:
            merged[k.name] = partners[0].name
    for src, dst in list(merged.items()):  # "power" names the field better than its "pwr"
        if src in merged and len(dst) < len(src) and abbreviated(src, dst) and dst not in merged \
                and not any(d == dst for s2, d in merged.items() if s2 != src):
            del merged[src]
            merged[dst] = src
    return merged


#: Two labels of one field may be together in this share of the commoner one's records (their
#: all-confidence as a pair): a note that corrects itself ("slept five hours - the watch says 6
#: hours") holds both; two fields of one record type are together in most records.
CONTEXT_TOGETHER = 0.15


def _context_partners(k: Known, known: Sequence[Known], merged: Mapping[str, str], records: Sequence[frozenset[str]],
                      contexts: Mapping[str, Mapping[str, float]], spans: dict[str, tuple[float, float]] | None) -> list[Known]:
    """The one attribute ``k`` is another label of by what their records say (see
    :func:`consolidation`), as a list of zero or one."""
    held = Counter(a for r in records for a in r)
    best: tuple[float, str, Known] | None = None
    for other in known:
        if other.name == k.name or other.name in merged or other.kind != k.kind or not units_agree(_dimension(other), _dimension(k)):
            continue
        if held[other.name] < held[k.name] or not held[k.name]:
            continue
        both = sum(1 for r in records if k.name in r and other.name in r)
        if both > CONTEXT_TOGETHER * held[other.name]:
            continue
        if not ranges_overlap(_range_in(k, other, spans), (spans or {}).get(other.name)):
            continue
        sim = context_similarity(contexts, k.name, other.name)
        if sim >= CONTEXT_SIMILARITY and (best is None or (sim, other.name) > best[:2]):
            best = (sim, other.name, other)
    return [best[2]] if best else []
