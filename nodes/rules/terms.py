"""Categorical fields whose values stand alone: recurring terms that take turns.

A slot (:mod:`adamm.nodes.rules.slots`) needs a word beside its value ("the gravel *bike*").
Many logs write a category bare - "Picked 3 courgettes", "potatoes from the bottom bed",
"Oremko — threnn 13.9", "Squat at Iron Yard" - and only the memory as a whole says that
"courgettes", "potatoes" and "raspberries" are values of one field. Four things a field's values
do over the records, and that chance words do not:

* each **recurs** (a category has values that come back; a word said once is no value);
* they **take turns**: two values of one field are seldom in one record;
* they are **alike** - the text encoder puts "courgettes" near "potatoes" and a name near a name
  - so that a record's other recurring words (its verbs, the scale it was weighed on) are not
  drawn in;
* together they **cover** a good share of the records.

``TermFields`` is fitted like an estimator on the texts of the memory's records:
``fit(texts, embed)`` clusters the recurring terms under those constraints (average-linkage over
the mean of encoder similarity and the likeness of the tokens written around them, never joining
two terms that share records, nor two whose taking turns chance would explain), ``transform(text)``
reads the values a record holds. Values are written with the record's numbers: a term mostly
said in clauses without a number (the chat around a log), or mostly right before a number (a
label) or after one (a unit), is no candidate. A field takes the name the memory gives its
values elsewhere - a label ("Crop: French beans"), a slot ("raised bed") or a label's values
(:func:`labels_as_values`) seen with one of them - and then keeps those values and the ones
like them; a field nothing names is kept only when its values are names (capitalised), as
``name``: lower-case words that take turns unnamed are too often "back", "through", "paid".

``labels_as_values`` is the other half: a measured field written under several labels that take
turns ("Squat 115 kg", "Deadlift 165 kg", "Bench 90 kg") holds a category in its labels.

The only built-in knowledge is English grammar (function and calendar words, verb endings),
numbers and units: no word of any domain.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from adamm.nodes.rules.dates import MONTHS, WEEKDAYS
from adamm.nodes.rules.slots import _WORD, content_stem, is_content_word
from adamm.stores.bm25 import STOPWORDS
from adamm.stores.quantities import canonical_unit

__all__ = ["TermField", "TermFields", "fold_head", "label_head", "labels_as_values", "layout_shape", "terms_of", "value_spread"]

#: A value must be in at least this many records; a term in more than this share of them is
#: what every record says (the layout's own words), no value that tells records apart.
MIN_COUNT = 2
MAX_SHARE = 0.5
#: Two terms are one field's values only when they share at most this share of the rarer one's
#: records (a record naming two crops happens; a crop and its bed together every time do not).
TOGETHER = 0.2
#: Mean likeness (the average of encoder cosine and the cosine of the words written around them)
#: at which two groups of terms are one field.
SIMILARITY = 0.35
#: Taking turns is evidence only when chance would have put the two groups together: at least
#: this many shared records expected from their counts alone (two rare words apart say nothing).
MIN_EXPECTED = 1.5
#: A value is written with the record's numbers: at least this share of a term's occurrences
#: are in a clause that states one (chat around a log - "that streak", "back through" - is not).
WITH_VALUES = 0.5
#: A term written right after a number (or right before one) in at least this share of its
#: records is a unit (a label) of the memory, no category value.
NEXT_TO_NUMBER = 0.8
#: A field's values together are in at least this many records and this share of all records.
MIN_RECORDS = 4
MIN_COVER = 0.08
#: A term inside longer recurring terms in at least this share of its records is only part of
#: them ("bed" of "top bed" / "raised bed"): the longer terms are the values.
PART_SHARE = 0.8
#: The most terms clustered (by record count): a bound on the work of one fit.
MAX_TERMS = 300
#: Generic English nouns for a field of names (capitalised values) the memory does not name: a
#: field of lower-case words needs a name from the memory (a label, a slot, a label's values).
NAME_WORDS = ("name",)
KIND_WORDS = ("kind", "type")
GENERIC_NAMES = frozenset((*NAME_WORDS, *KIND_WORDS, "tag"))
#: A field names a cluster when at least this share of the values it is stated with are the cluster's.
VOTE_SHARE = 0.5
#: A field the memory does not name needs three values recurring at least this often, this mean
#: likeness and this share of the records.
STRONG_COUNT = 3
UNNAMED_COHESION = 0.45
UNNAMED_COVER = 0.15
MAX_WORDS = 3
#: A field nothing names whose values are written, at least this share of the time, right after
#: an amount of money and "on" / "for" ("$42.10 on groceries", "paid €2.80 for parking") is what
#: the money went on: the memory's spending categories, named so by the grammar of a payment.
SPENT_ON_SHARE = 0.4
PURPOSE_NAME = "category"
_SPENT_ON = re.compile(r"(?:[$€£¥₹]\s?\d[\d.,]*|\d[\d.,]*\s?(?:[$€£¥₹]|[A-Z]{3}\b|dollars?|euros?|pounds?))"
                       r"\s+(?:\w+\s+)?(?:on|for)\s+(?:the\s+|a\s+|an\s+|some\s+|my\s+)?")


@lru_cache(maxsize=16384)
def _spent_on_ends(text: str) -> frozenset[int]:
    """Where the words money went on start in a text (after "$42.10 on", "€2.80 for the").
    Cached: every batch re-fits on texts that rarely change."""
    return frozenset(m.end() for m in _SPENT_ON.finditer(text)) if re.search(r"\d", text) else frozenset()


@dataclass(frozen=True)
class Term:
    """One occurrence of a candidate value: its key (lower case, singular), as written, where."""

    key: str
    surface: str
    start: int
    end: int


def _verb_like(word: str) -> bool:
    """A lower-case word with a verb's ending ("picked", "watering"): an action, never a category
    on its own (it may still be part of one, "raised bed")."""
    low = word.lower()
    return len(low) >= 5 and low.endswith(("ed", "ing")) and word[0].islower()


@lru_cache(maxsize=16384)
def terms_of(text: str, exclude: frozenset[str] = frozenset()) -> tuple[Term, ...]:
    """Every run of one to three content words of a text (no digits, no units, no function,
    calendar or excluded words, one phrase: spaces or hyphens between them), as terms. Pure;
    cached, for every batch re-fits on texts that rarely change."""
    words = list(_WORD.finditer(text))
    runs: list[list[re.Match[str]]] = []
    current: list[re.Match[str]] = []
    for w in words:
        ok = is_content_word(w.group()) and content_stem(w.group()) not in exclude and not any(ch.isdigit() for ch in w.group())
        joined = bool(current) and re.fullmatch(r"[ \t]+|-", text[current[-1].end():w.start()]) is not None
        if ok and (not current or joined):
            current.append(w)
            continue
        if current:
            runs.append(current)
        current = [w] if ok else []
    if current:
        runs.append(current)
    out: list[Term] = list(_titles(text, words, exclude))
    spans, titled = {(t.start, t.end) for t in out}, {t.key for t in out}
    for run in runs:
        for n in range(1, MAX_WORDS + 1):
            for i in range(len(run) - n + 1):
                part = run[i:i + n]
                if n == 1 and (_verb_like(part[0].group()) or _opening_verb(text, part[0])):
                    continue  # "Played Qaldo with ...": the sentence's verb, never a value
                if n > 1 and _opening_verb(text, part[0]):
                    continue  # "Tended Pim": the sentence's verb and a name, no phrase of one field
                a, b = part[0].start(), part[-1].end()
                key = " ".join(content_stem(w.group()) for w in part)
                if (a, b) in spans or key in titled:
                    continue  # the name itself, read whole above
                out.append(Term(key, text[a:b], a, b))
    return tuple(out)


#: Lower-case words a name may hold between its capitalised words ("A Brief History of Bells",
#: "Hugo de Vries"; never "and", which joins two names), and the articles a name may open with,
#: which its key leaves out.
_TITLE_JOIN = frozenset({"of", "the", "de", "del", "la", "le", "da", "du", "von", "van"})
_ARTICLES = frozenset({"the", "a", "an"})
MAX_TITLE_WORDS = 8


def is_title(surface: str) -> bool:
    """Is a term written as a name: two or more words, every one but the joining words
    capitalised ("Ashby Café Run", "The Sunken Throne of Veyra"; not "Group ride")? Pure."""
    words = surface.split()
    capital = [w for w in words if w.lower() not in _TITLE_JOIN]
    return len(capital) >= 2 and all(w[:1].isupper() for w in capital)


def _opening_verb(text: str, word: re.Match[str]) -> bool:
    """Is the word a verb ("Started", "Tended") that opens a sentence or a cell?"""
    return _verb_like(word.group().lower()) and re.search(r"(?:^|[.!?:;·|•—–(\n])\s*$", text[:word.start()]) is not None


def _title_word(word: str, inside: bool) -> bool:
    """Can a capitalised word be part of a name? Its first word is a content word; later ones
    only need to be no function or calendar word, no unit ("Orchards of Mars", "Night Trains")."""
    if not inside:
        return is_content_word(word)
    low = word.lower().strip("'’-")
    return low not in STOPWORDS and low not in MONTHS and low not in WEEKDAYS and canonical_unit(word) is None


def _titles(text: str, words: list[re.Match[str]], exclude: frozenset[str]) -> Iterable[Term]:
    """Names of several capitalised words, the joining words between them included - longer
    than the content-word runs of :func:`terms_of` and crossing "of" / "the". The key leaves
    out an opening article, so "The Ferryman's Ledger" and "Ferryman's Ledger" are one value."""
    i = 0
    while i < len(words):
        run: list[re.Match[str]] = []
        j = i
        while j < len(words) and len(run) < MAX_TITLE_WORDS:
            w = words[j]
            if run and re.fullmatch(r"[ \t]+|-", text[run[-1].end():w.start()]) is None:
                break
            word = w.group()
            low = word.lower()
            if word[:1].isupper() and not any(ch.isdigit() for ch in word) and (
                    low in _ARTICLES and not run or _title_word(word, bool(run)) and content_stem(word) not in exclude):
                run.append(w)
            elif run and low in _TITLE_JOIN and word[:1].islower():
                run.append(w)
            else:
                break
            j += 1
        while run and run[-1].group().lower() in _TITLE_JOIN:
            run.pop()
        # "Started Orchards of Mars": a verb that opens the sentence is no part of the name
        if run and _opening_verb(text, run[0]):
            run = run[1:]
        named = [w for w in run if w.group().lower() not in _ARTICLES or w is not run[0]]
        if is_title(" ".join(w.group() for w in run)) and len([w for w in named if w.group().lower() not in _TITLE_JOIN]) >= 2:
            start = run[0].start()
            key = " ".join(content_stem(w.group()) for w in named)
            yield Term(key, text[run[0].start():run[-1].end()], start, run[-1].end())
        i = max(j, i + 1)


@dataclass
class TermField:
    """A discovered field: its name, its values (key -> the form most often written), and how
    many records each value is in."""

    name: str
    values: dict[str, str]
    counts: dict[str, int]


def _cluster(likeness: np.ndarray, expected: np.ndarray, apart: np.ndarray) -> list[list[int]]:
    """Average-linkage clusters whose mean ``likeness`` is at least :data:`SIMILARITY`, never
    joining two groups with a pair marked ``apart`` nor two whose shared records expected by
    chance (``expected``, summed over their pairs) are below :data:`MIN_EXPECTED`. Pure,
    deterministic (ties by index)."""
    n = len(likeness)
    sums = likeness.astype(np.float64).copy()
    chance = expected.astype(np.float64).copy()
    size = np.ones(n)
    blocked = apart.copy()
    alive = np.ones(n, dtype=bool)
    members = [[i] for i in range(n)]
    np.fill_diagonal(blocked, True)
    while True:
        mean = sums / np.outer(size, size)
        mean[blocked | (chance < MIN_EXPECTED) | ~alive[:, None] | ~alive[None, :]] = -np.inf
        flat = int(np.argmax(mean))
        i, j = divmod(flat, n)
        if not np.isfinite(mean[i, j]) or mean[i, j] < SIMILARITY:
            break
        i, j = min(i, j), max(i, j)
        members[i].extend(members[j])
        members[j] = []
        alive[j] = False
        for m in (sums, chance):
            m[i, :] += m[j, :]
            m[:, i] = m[i, :]
        size[i] += size[j]
        blocked[i, :] |= blocked[j, :]
        blocked[:, i] = blocked[i, :]
        blocked[i, i] = True
    return [sorted(m) for m in members if len(m) > 1]


def _cohesion(group: list[int], likeness: np.ndarray) -> float:
    """Mean likeness of a group's pairs. Pure."""
    if len(group) < 2:
        return 0.0
    sub = likeness[np.ix_(group, group)]
    return float((sub.sum() - np.trace(sub)) / (len(group) * (len(group) - 1)))


def _pruned(group: list[int], likeness: np.ndarray, counts: np.ndarray) -> list[int]:
    """A group without its rare hangers-on: a value seen fewer than :data:`STRONG_COUNT` times
    that is less like the others than they are on average. Pure."""
    if len(group) < 3:
        return group
    mean = _cohesion(group, likeness)
    keep = []
    for i in group:
        others = [j for j in group if j != i]
        if counts[i] >= STRONG_COUNT or float(likeness[i, others].mean()) >= mean:
            keep.append(i)
    return keep


_TOKEN_BEFORE = re.compile(r"(\d[\d.,]*|[A-Za-z][\w'’\-]*|\S)\s*$")
_TOKEN_AFTER = re.compile(r"^\s*(\d[\d.,]*|[A-Za-z][\w'’\-]*|\S)")


def _neighbour(token: str | None, edge: str) -> str:
    """A neighbouring token as context: a word's stem, ``#`` for a number, a punctuation mark,
    or ``edge`` at the start or end of the text."""
    if not token:
        return edge
    if token[0].isdigit():
        return "#"
    return content_stem(token) if token[0].isalpha() else token


#: Where a sentence or a quoted row ends (a decimal point is none); the cells of one row
#: (" · ", " — ", " | ") are one clause.
_CLAUSE_END = re.compile(r"(?<!\d)\.|\.(?!\d)|[;!?\n\"“”]|,\s(?:and|but|so)\s")


def _beside_a_number(text: str, start: int, end: int) -> bool:
    """Does the clause around text[start:end] state a number?"""
    before = [m.end() for m in _CLAUSE_END.finditer(text, 0, start)]
    after = _CLAUSE_END.search(text, end)
    clause = text[before[-1] if before else 0:after.start() if after else len(text)]
    return re.search(r"\d", clause) is not None


def _shape(text: str, term: Term) -> str:
    """How a term is written: ``title`` a name of several capitalised words wherever it stands,
    ``name`` capitalised inside a sentence, ``word`` in lower case, ``open`` capitalised where a
    sentence or cell opens (no evidence either way)."""
    if term.surface[:1].islower():
        return "word"
    if is_title(term.surface):
        return "title"
    return "open" if re.search(r"(?:^|[.!?:;·|•—–\-(\[\n\"'‘“])\s*$", text[:term.start]) else "name"


def _context(text: str, start: int, end: int) -> tuple[str, str]:
    """The tokens written just before and after text[start:end]."""
    b = _TOKEN_BEFORE.search(text[max(0, start - 40):start])
    a = _TOKEN_AFTER.search(text[end:end + 40])
    return _neighbour(b.group(1) if b else None, "^"), _neighbour(a.group(1) if a else None, "$")


class TermFields:
    """Categorical fields read from the recurring terms of a memory's records (see the module
    docstring). ``fields_`` after :meth:`fit`."""

    def __init__(self) -> None:
        self.fields_: list[TermField] = []
        self.exclude_: frozenset[str] = frozenset()
        self._field_of: dict[str, int] = {}

    def fit(self, texts: Sequence[str], embed: Callable[[list[str]], np.ndarray] | None,
            exclude: Iterable[str] = (), named: Iterable[tuple[str, str]] = (), reserved: Iterable[str] = ()) -> TermFields:
        """Learn fields from one text per record. ``embed``: phrases -> unit vectors (the text
        encoder; without one no field is learnt, for likeness is half the evidence);
        ``exclude``: words that neither name nor fill a category (the memory's measured field
        names and units); ``named``: (attribute, value) pairs the memory states or slots,
        which name a field holding one of the values; ``reserved``: names taken by other fields,
        never given to an unnamed one."""
        self.exclude_ = frozenset(content_stem(w) for w in exclude)
        self.fields_, self._field_of = [], {}
        texts = [t for t in texts if t]
        if embed is None or len(texts) < MIN_RECORDS:
            return self
        occurs: dict[str, set[int]] = defaultdict(set)
        forms: dict[str, Counter] = defaultdict(Counter)
        around: dict[str, Counter] = defaultdict(Counter)  # the tokens written next to the term
        spent_on: Counter = Counter()  # occurrences as what money went on ("$42 on groceries")
        numbered: Counter = Counter()  # occurrences right after or before a number
        measured: Counter = Counter()  # occurrences in a clause that states a number
        for r, text in enumerate(texts):
            paid_for = _spent_on_ends(text)
            for t in terms_of(text, self.exclude_):
                occurs[t.key].add(r)
                forms[t.key][t.surface] += 1
                left, right = _context(text, t.start, t.end)
                around[t.key]["L:" + left] += 1
                around[t.key]["R:" + right] += 1
                around[t.key]["S:" + _shape(text, t)] += 2  # a name is written as one wherever it stands
                numbered[t.key] += left == "#" or right == "#" or (right == ":" and re.match(r"\s*:\s*\d", text[t.end:]) is not None)
                measured[t.key] += _beside_a_number(text, t.start, t.end)
                spent_on[t.key] += t.start in paid_for
        limit = MAX_SHARE * len(texts)
        recurring = {k for k, rs in occurs.items() if MIN_COUNT <= len(rs) <= limit
                     and numbered[k] < NEXT_TO_NUMBER * sum(forms[k].values())
                     and measured[k] >= WITH_VALUES * sum(forms[k].values())}
        inside: dict[str, set[int]] = defaultdict(set)  # records where the term is part of a longer one
        for r, text in enumerate(texts):
            found = [t for t in terms_of(text, self.exclude_) if t.key in recurring]
            for t in found:
                if any(o.key != t.key and o.start <= t.start and t.end <= o.end for o in found):
                    inside[t.key].add(r)
        keys = sorted((k for k in recurring if len(inside[k]) < PART_SHARE * len(occurs[k])),
                      key=lambda k: (-len(occurs[k]), k))[:MAX_TERMS]
        if len(keys) < 2:
            return self
        surfaces = [forms[k].most_common(1)[0][0] for k in keys]
        vectors = np.asarray(embed(surfaces), dtype=np.float64)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        features = sorted({f for k in keys for f in around[k]})
        column = {f: i for i, f in enumerate(features)}
        profiles = np.zeros((len(keys), len(features)))
        for i, k in enumerate(keys):
            for f, n in around[k].items():
                profiles[i, column[f]] = n
        profiles /= np.maximum(np.linalg.norm(profiles, axis=1, keepdims=True), 1e-12)
        likeness = (vectors @ vectors.T + profiles @ profiles.T) / 2
        counts = np.array([len(occurs[k]) for k in keys], dtype=np.float64)
        expected = np.outer(counts, counts) / len(texts)
        # names written as names (:func:`is_title`) are evidence by their form: two of them that
        # take turns are a field's values however rarely chance would have put them together
        titled = np.array([is_title(s) for s in surfaces])
        expected[np.outer(titled, titled)] = np.maximum(expected[np.outer(titled, titled)], MIN_EXPECTED)
        owners: dict[str, Counter] = defaultdict(Counter)
        generic: dict[str, set[str]] = defaultdict(set)  # a generic name -> the values stated under it
        for attribute, value in named:
            stem = " ".join(content_stem(w) for w in value.split())
            if attribute not in GENERIC_NAMES:  # a layout's unnamed cell ("kind") names nothing
                owners[stem][attribute] += 1
            else:
                generic[attribute].add(stem)
        owner = np.array([owners[k].most_common(1)[0][0] if owners.get(k) else "" for k in keys], dtype=object)
        sets = [occurs[k] for k in keys]
        incidence = np.zeros((len(keys), len(texts)), dtype=np.float32)
        for i, rs in enumerate(sets):
            incidence[i, sorted(rs)] = 1.0
        both = incidence @ incidence.T  # records two terms share
        apart = both > TOGETHER * np.minimum.outer(counts, counts)
        # values the memory states for two different fields are never one field's
        stated = owner != ""
        apart |= stated[:, None] & stated[None, :] & (owner[:, None] != owner[None, :])
        kept = []
        for group in _cluster(likeness, expected, apart):
            group = _pruned(group, likeness, counts)
            covered = set().union(*(sets[i] for i in group))
            if len(group) >= 2 and len(covered) >= max(MIN_RECORDS, MIN_COVER * len(texts)):
                kept.append(({keys[i]: surfaces[i] for i in group}, {keys[i]: len(sets[i]) for i in group}, len(covered),
                             _cohesion(group, likeness)))
        # fields the memory names come first; unnamed ones need stronger evidence (at least three
        # values that recur thrice, alike) and take the free generic names, widest first
        index = {k: i for i, k in enumerate(keys)}
        totals: Counter = Counter()
        for counts_of in owners.values():
            totals.update(counts_of)
        voted = [(self._voted(values, owners, totals), values, n, cover, cohesion) for values, n, cover, cohesion in kept]
        used = {name for name, *_ in voted if name} | set(reserved)
        # among unnamed fields, one of names written as names claims ``name`` before a wider one
        # of words that are capitalised only where a cell opens ("Training", "Group ride")
        titles = {id(v[1]): sum(is_title(s) for s in v[1].values()) / len(v[1]) for v in voted}
        for name, values, n, cover, cohesion in sorted(voted, key=lambda v: (v[0] is None, -titles[id(v[1])] if v[0] is None else 0,
                                                                               -v[3], sorted(v[1]))):
            if name is not None and any(f.name == name for f in self.fields_):
                name = None  # a name an earlier (wider) field took: this one is unnamed
            if name is not None:
                # a field the memory names keeps its stated values and the values like them, not
                # whatever else took turns with them
                owned = [index[k] for k in values if self._voted({k: values[k]}, owners) == name]
                if owned:
                    values = {k: v for k, v in values.items() if index[k] in owned
                              or float(likeness[index[k], owned].mean()) >= UNNAMED_COHESION}
                    n = {k: c for k, c in n.items() if k in values}
                if len(values) < 2:
                    continue
            if name is None:
                if sum(1 for c in n.values() if c >= STRONG_COUNT) < 3 or cover < UNNAMED_COVER * len(texts):
                    continue
                if cohesion < UNNAMED_COHESION and sum(spent_on[k] for k in values) < SPENT_ON_SHARE * sum(
                        sum(forms[k].values()) for k in values):
                    continue  # unlike words need the evidence of their place (see ``purpose`` below)
                purpose = sum(spent_on[k] for k in values) >= SPENT_ON_SHARE * sum(sum(forms[k].values()) for k in values)
                if purpose and PURPOSE_NAME not in used:
                    # lower-case words written as what money went on: the grammar of a payment names them
                    used.add(PURPOSE_NAME)
                    self.fields_.append(TermField(PURPOSE_NAME, values, n))
                    continue
                if not self._capitalised(values, forms):
                    continue  # lower-case words nothing names: too often the chat around a log ("back", "through")
                # a generic name stated only for values of this field ("four of them: Vashti")
                # is this field's, though the statement reserved it
                free = [c for c in NAME_WORDS if c not in used or (
                    generic.get(c) and generic[c] <= set(values) and all(f.name != c for f in self.fields_))]
                if not free:
                    continue
                name = free[0]
                used.add(name)
            self.fields_.append(TermField(name, values, n))
        self._field_of = {k: i for i, f in enumerate(self.fields_) for k in f.values}
        return self

    @staticmethod
    def _voted(values: dict[str, str], owners: dict[str, Counter], totals: Counter | None = None) -> str | None:
        """The field a label or slot of the memory gives one of the values, if any; with
        ``totals`` (attribute -> how many values the memory states for it) only a field whose
        stated values mostly are these: one "lost" of a game's result does not make a column of
        names a ``result``."""
        votes: Counter = Counter()
        for k in values:
            votes.update(owners.get(k, Counter()))
            words = k.split()
            for i, w in enumerate(words):  # "top bed" where a slot read "top" as a ``bed``
                for attribute, n in owners.get(" ".join(words[:i] + words[i + 1:]), Counter()).items():
                    if content_stem(attribute) == w:
                        votes[attribute] += n
        if totals is not None:
            votes = Counter({a: n for a, n in votes.items() if n >= VOTE_SHARE * totals[a]})
        return sorted(votes.items(), key=lambda av: (-av[1], av[0]))[0][0] if votes else None

    @staticmethod
    def _capitalised(values: dict[str, str], forms: dict[str, Counter]) -> bool:
        """Are the values mostly written capitalised (names)?"""
        capital = sum(n for k in values for s, n in forms[k].items() if s[:1].isupper())
        return capital * 2 > sum(n for k in values for n in forms[k].values())

    def transform(self, text: str, have: Sequence[str] = ()) -> list[tuple[str, str, int, int]]:
        """(attribute, value, start, end) of the field values a record's text holds: per field the
        first, longest term of it; none for an attribute in ``have``."""
        out: list[tuple[str, str, int, int]] = []
        taken = set(have)
        found = sorted(terms_of(text, self.exclude_), key=lambda t: (t.start, -(t.end - t.start)))
        for t in found:
            i = self._field_of.get(t.key)
            if i is None:
                continue
            f = self.fields_[i]
            if f.name in taken or any(t.start < e and s < t.end for _, _, s, e in out):
                continue
            taken.add(f.name)
            out.append((f.name, f.values[t.key], t.start, t.end))
        return out


#: A measured field whose labels are a category's values is written under at least this many
#: labels that recur, none in more than this share of its labelled values, and the recurring ones
#: are at least this share of them.
LABEL_VALUES = 3
LABEL_TOP_SHARE = 0.6
LABEL_COVER = 0.5
#: ... and the labels explain at least this share of the values' variance (:func:`value_spread`).
LABEL_SPREAD = 0.3


def _root(word: str) -> str:
    """A word without its inflection ("climbing", "climbed" -> "climb"), for comparing labels."""
    w = content_stem(word)
    for suffix in ("ing", "ed", "er"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            return w[:-len(suffix)]
    return w


def _akin(a: str, b: str) -> bool:
    """One word, or one cut short from the other ("elev" / "elevation")? Pure."""
    short, long_ = sorted((a, b), key=len)
    return a == b or (len(short) >= 3 and long_.startswith(short))


def label_head(labels: Sequence[str]) -> str:
    """The noun at least two labels end in, each with a different word before it
    ("brisk_sollow", "drag_sollow" -> "sollow"), as its stem; else "". Pure."""
    kinds: dict[str, set[str]] = defaultdict(set)
    for label in labels:
        parts = label.split("_")
        if len(parts) == 2 and parts[0] and parts[1]:
            kinds[content_stem(parts[1])].add(parts[0])
    best = max(sorted(kinds), key=lambda h: len(kinds[h]), default="")
    return best if best and len(kinds[best]) >= 2 else ""


def fold_head(label: str, head: str) -> str:
    """A label without the record noun it ends in ("brisk_sollow" -> "brisk"); the noun alone
    stays itself. Pure."""
    parts = label.split("_")
    return parts[0] if head and len(parts) == 2 and content_stem(parts[1]) == head else label


def value_spread(values: Mapping[str, Sequence[float]]) -> float:
    """Share of the variance of the values explained by their group (eta squared): near 1 when
    each group has its own range (a squat's 120 kg, a deadlift's 170 kg), near 0 when the groups
    are one quantity written under several names (a night's sleep as "slept", "sleep",
    "watch"). Pure."""
    groups = [np.asarray(v, dtype=np.float64) for v in values.values() if len(v)]
    if len(groups) < 2:
        return 0.0
    every = np.concatenate(groups)
    total = float(((every - every.mean()) ** 2).sum())
    if total <= 0:
        return 0.0
    between = sum(len(g) * float((g.mean() - every.mean()) ** 2) for g in groups)
    return between / total


_SHAPE_NUMBER = re.compile(r"[$€£¥]?\d[\d.,:]*[^\W\d_]*")
_SHAPE_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_SHAPE_WORDS = re.compile(r"w(?:\s+w)+")


@lru_cache(maxsize=65536)
def layout_shape(text: str, label: str) -> str:
    """The layout a label is written in: the record's text with the label as ``L``, each number
    as ``#`` and each run of other words as one ``w``, punctuation kept ("flinkery: $29.55 (Tesk,
    Zeno Pay)" -> ``L: # (w, w)``); "" when the text does not say the label. Pure; cached, for
    every batch re-reads the memory's records."""
    words = [re.escape(w) for w in label.split("_") if w]
    m = re.search(r"(?<![\w'’-])" + r"[\s_-]+".join(words) + r"(?![\w'’-])", text, re.I) if words else None
    if m is None:
        return ""
    shape = _SHAPE_WORD.sub("w", _SHAPE_NUMBER.sub("#", text[:m.start()] + "\x00" + text[m.end():]))
    return re.sub(r"\s+", " ", _SHAPE_WORDS.sub("w", shape)).strip().replace("\x00", "L")


def _taking_turns(shapes: Mapping[str, Counter], recurring: Sequence[str]) -> list[str]:
    """The recurring labels that take turns in one layout with another recurring label: a
    category's values, where a label always alone in its layout is the layout's own wording
    ("Just dropped $76 at ..." names no kind of purchase)."""
    by_shape: dict[str, set[str]] = defaultdict(set)
    for label in recurring:
        for shape in shapes.get(label, ()):
            if shape:
                by_shape[shape].add(label)
    return sorted({label for held in by_shape.values() if len(held) > 1 for label in held})


def labels_as_values(labels: Counter, records: int, ignore: frozenset[str] = frozenset(),
                     values: Mapping[str, Sequence[float]] | None = None,
                     shapes: Mapping[str, Counter] | None = None) -> list[str]:
    """The labels one measured field was written under, when they are the values of a category
    ("Squat 115 kg", "Deadlift 165 kg", "Bench 90 kg": one weight, three lifts) rather than ways
    to write its name (one label most of the time, a variant now and then, or labels that share
    words: "time", "moving time", "moving"); else []. Labels that end in one noun with a
    different word before it ("brisk sollow", "drag sollow", also written "Brisk: 6 km") are the
    kinds of that noun's record: they count as their first word (:func:`label_head`).
    ``ignore``: words that qualify a value without naming anything ("total", "average"). Pure."""
    # "6.1 km after work": a phrase opened by a function word says when or where, no kind
    labels = Counter({label: n for label, n in labels.items() if label not in ignore and is_content_word(label.split("_")[0])})
    head = label_head(list(labels))
    folded: Counter = Counter()
    members: dict[str, list[str]] = defaultdict(list)
    for label, n in labels.items():
        kind = fold_head(label, head)
        if kind != head:  # the noun alone names the record, no kind of it
            folded[kind] += n
            members[kind].append(label)
    recurring = sorted(label for label, n in folded.items() if n >= 2)
    words = [{_root(w) for w in label.split("_")} for label in recurring]
    if any(_akin(a, b) for i in range(len(words)) for j in range(i + 1, len(words)) for a in words[i] for b in words[j]):
        return []
    total = sum(labels.values())
    if len(recurring) < LABEL_VALUES or not total or max(folded.values()) > LABEL_TOP_SHARE * total:
        return []
    if sum(folded[label] for label in recurring) < LABEL_COVER * total:
        return []  # mostly labels said once: a field written every which way, no category
    if values is not None and value_spread({k: [v for m in members[k] for v in values.get(m, ())] for k in recurring}) < LABEL_SPREAD:
        # the same quantity whatever the label: names of one field - unless the labels take
        # turns in one layout, as a category's values do ("flinkery: $29.55", "tolls: $31.10")
        turns = _taking_turns({k: Counter(sh for m in members[k] for sh in (shapes or {}).get(m, ())) for k in recurring}, recurring)
        if len(turns) < LABEL_VALUES:
            return []
        recurring = turns
    return sorted(m for k in recurring for m in members[k])
