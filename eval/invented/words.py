"""Pseudo-words from syllables: the invented vocabulary of the histories.

The point of the invented set is that no field, unit, category or name can be recognised from
a known domain, so every word the generator puts in a label has to be pronounceable (people
type such labels) yet not English. :class:`Lexicon` draws words from onset + vowel + coda
syllables, rejects the common English words of :data:`ENGLISH` and every token the scorer or
the date parser gives a meaning to (months, weekdays, "up", unit abbreviations), and never
hands out a word twice within one generated data set.
"""

from __future__ import annotations

import random

from adamm.eval.invented.english import ENGLISH

_ONSETS = ("b", "br", "d", "dr", "f", "fl", "g", "gl", "gr", "k", "kr", "l", "m", "n", "p", "pl", "pr", "qu",
           "r", "s", "sk", "sl", "sn", "st", "t", "tr", "v", "vr", "z", "sh", "th", "ch", "w", "j", "", "", "")
_VOWELS = ("a", "e", "i", "o", "u", "a", "e", "o", "ai", "ee", "ou")
_CODAS = ("ll", "rr", "nk", "sk", "sh", "rn", "nd", "st", "m", "n", "k", "t", "l", "r", "v", "sk", "", "", "")
_ONSETS2 = tuple("bdfgklmnprstvz") + ("sh", "th", "qu", "", "")
_VOWELS2 = ("a", "e", "i", "o", "u", "a", "e", "i", "ai", "ee", "y")
_CODAS2 = ("n", "l", "r", "t", "k", "sh", "ss", "x", "m", "st", "", "", "", "", "")
_UNIT_C = "bdfgklmnpqrstvxz"
_UNIT_V = "aeiou"

#: Tokens that mean something to the scorer or the date parser (months, weekdays, trend words,
#: duration and count units): an invented word equal to one would change how answers are read.
RESERVED: frozenset[str] = frozenset("""
jan january feb february mar march apr april may jun june jul july aug august sep sept september
oct october nov november dec december mon tue tues wed thu thur thurs fri sat sun monday tuesday
wednesday thursday friday saturday sunday today yesterday tonight h hr hrs hour hours m min mins
minute minutes s sec secs second seconds km mi kg lb lbs eur usd st nd rd th k up down rose fell
lower higher rising risen grew climbed dropped fallen declined reduced increased decreased once
twice thrice none never zero one two three four five six seven eight nine ten eleven twelve
an the of to in on at for and or my your with is was by from his her their it its this that be
been are were mr mrs ms dr am pm cm mm ml dl cl mg g oz ft yd mph kph kmh hz kw kwh mw lx db hp rpm bpm
pa kpa bar psi cal kcal kj gb mb kb tb ph ok vs
""".split())


_LONG_ENGLISH = tuple(sorted(w for w in ENGLISH if len(w) >= 4))


def is_english(word: str) -> bool:
    """Whether ``word`` (any case, one token) is a listed English or reserved word, also with a
    plural "s" or "es" taken off."""
    w = word.lower()
    stems = {w, w[:-1] if w.endswith("s") else w, w[:-2] if w.endswith("es") else w}
    return any(s in ENGLISH or s in RESERVED for s in stems)


def _syllable(rng: random.Random, first: bool) -> str:
    """A first syllable may be heavy ("vrell", "quonk"); later ones are light ("in", "dle")."""
    if first:
        return rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
    return rng.choice(_ONSETS2) + rng.choice(_VOWELS2) + rng.choice(_CODAS2)


_DIGRAPHS = ("sh", "th", "ch", "qu", "ll", "rr", "ss", "ck")


def _pronounceable(word: str) -> bool:
    """No letter three times in a row, no run of more than two consonants (a digraph counts as
    one), no vowel clash other than "ai", "ou", "ee", no word opening on two vowels or a "y"."""
    vowels = set("aeiouy")
    if any(word[i] == word[i + 1] == word[i + 2] for i in range(len(word) - 2)):
        return False
    if any(d in word for d in ("aa", "ii", "uu", "yy", "yi", "iy")):
        return False
    if word[0] == "y" or (word[0] in vowels and word[1:2] in vowels):
        return False
    collapsed = word
    for dg in _DIGRAPHS:
        collapsed = collapsed.replace(dg, "C")
    run = 0
    for ch in collapsed:
        run = 0 if ch in vowels else run + 1
        if run > 2:
            return False
    return not any(a in vowels and b in vowels and a != b and a + b not in ("ai", "ou", "ee")
                   for a, b in zip(word, word[1:]))


class Lexicon:
    """Draws invented words, each at most once per data set (one lexicon for every scenario of
    a seed, so two scenarios never share a label, a unit or a name)."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def _take(self, word: str) -> bool:
        if word in self.used or is_english(word) or not _pronounceable(word):
            return False
        if any(word.startswith(e) for e in _LONG_ENGLISH):  # "roundfe", "treesh": read as English
            return False
        # a plural or a prefix of a word already handed out would blur two labels into one
        if any(word.startswith(u) or u.startswith(word) for u in self.used if min(len(u), len(word)) >= 4):
            return False
        self.used.add(word)
        return True

    def word(self, rng: random.Random, syllables: tuple[int, int] = (2, 3), length: tuple[int, int] = (5, 9)) -> str:
        """A lower-case pseudo-word of ``syllables`` syllables and ``length`` letters."""
        while True:
            n = rng.randint(*syllables)
            w = "".join(_syllable(rng, i == 0) for i in range(n))
            if length[0] <= len(w) <= length[1] and self._take(w):
                return w

    def verb(self, rng: random.Random) -> str:
        """An invented activity in "-ing" ("trabbing", "quonking"): a stem ending in a consonant."""
        while True:
            stem = self.word(rng, (1, 2), (4, 6))
            if stem[-1] not in "aeiouy":
                kind = stem + ("" if stem.endswith("ing") else "ing")
                if not is_english(kind) and _pronounceable(kind):
                    return kind

    def unit(self, rng: random.Random) -> str:
        """A short invented unit symbol: two consonants ("qz") or a light syllable ("plim", "zek")."""
        while True:
            if rng.random() < 0.35:
                a, b = rng.sample(_UNIT_C, 2)
                w = a + b
            else:
                onset = rng.choice([o for o in _ONSETS if o and o != "qu"])
                w = onset + rng.choice(_UNIT_V) + rng.choice(_UNIT_C.replace("q", ""))
            if self._take(w):
                return w

    def name(self, rng: random.Random) -> str:
        """A title-case proper name (a place or a person's surname)."""
        return self.word(rng, (2, 2), (5, 8)).capitalize()

    def person(self, rng: random.Random) -> tuple[str, str]:
        """An invented (first name, surname)."""
        return self.word(rng, (2, 2), (4, 7)).capitalize(), self.name(rng)
