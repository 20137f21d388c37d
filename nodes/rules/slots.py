"""Categorical fields discovered from the memory's recurring layouts, not from lists of words.

A categorical value rarely carries a colon. Its *slot* is a word it stands next to that the
memory writes again and again - "the gravel bike", "the road bike" (the slot ``_ bike``);
``brosk ashvel``, ``brosk tirn`` (the slot ``brosk _``) - and a slot is a field when what
fills it varies over a small set of values that recur: two records are chance, a word that is
always the same is part of a phrase ("heart rate"), and a word that is different every time is
no category ("a long walk", "a quick walk", "a nice walk" ... over many records may still be one
if the words recur). ``SlotModel`` is fitted on the texts of the memory's records, like an
estimator: ``fit(texts)`` learns the slots and the values seen in them; ``transform(text)``
reads a record's values, each named by its slot's word.

The only built-in knowledge is English grammar: function words, calendar words, numbers and
units never are a slot nor a value.

The fitted values also read a record that writes a value bare ("an Ashvel one"): a value seen
in exactly one field, often enough, is that field's wherever the text names it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from adamm.stores.bm25 import STOPWORDS
from adamm.stores.quantities import canonical_unit

__all__ = ["Slot", "SlotModel", "candidates", "content_stem", "is_content_word"]

#: A slot needs this many records, and values that recur (each counted at least twice) must
#: fill at least this share of them; at most this share of its records may hold a value seen
#: once (a category has few values).
MIN_RECORDS = 3
RECURRING_SHARE = 0.5
MAX_DISTINCT_SHARE = 0.6
#: A bare value is read as its field's when it was seen at least this often in that field.
MIN_BARE_COUNT = 2

#: English words that never fill a slot nor name one (function words, calendar, day parts,
#: document words).
_GRAMMAR = STOPWORDS | frozenset("""not no yes also just only very too again another other same some any all each every
more most less least much many few one two three four five six seven eight nine ten first second third last next
new old today yesterday tonight now then later earlier ago week weekend day days month months year years time times
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun january february
march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec
morning afternoon evening night noon midnight am pm about around over under up down out off into onto per after before
while since until got get had did done went made log logged logging noted saved added entry screenshot photo picture
image card app view summary here there it's i'm i've that's let's like well so ok okay thanks please came went
comes come goes go one ones vs versus""".split())
#: A short parenthesized phrase without digits: the slot of a tag ("(paperback)"). The text
#: names no field for it, so it is called ``tag``.
_PAREN = re.compile(r"\(((?:[^\W\d_])(?:[^\W\d_]|['’\- ]){1,30})\)")
PAREN_KEY = "paren:tag"
#: A word: letters of any script ("Café", "Zoë"), inner digits, apostrophes and hyphens.
_WORD = re.compile(r"[^\W\d_](?:[^\W_]|['’\-])*[^\W_]|[^\W\d_]")
#: A cell of a layout: text between separators (" · ", " | ", " — ", ";"). A cell that is only a
#: word or a name fills the slot of its place in the layout ("Trek card · Zelk · 8 km", "Zelk — 8
#: km"); the text names no field for it, so it is called ``kind``, like a tag. A heading colon
#: ("Zelk: 8 km") is no separator: "Expense: $15.75 ...", "Payment: ..." are layouts' own titles.
_CELL_SEP = re.compile(r"\s[—–-]\s|\s?[·•|;]\s?")
CELL_PREFIX = "cell:"
CELL_NAME = "kind"
#: Between two words of one phrase: spaces only, or a label's colon ("brosk: Ashvel").
_JOINED = re.compile(r"[ \t]+|[ \t]*:[ \t]*")


def _norm(word: str) -> str:
    w = re.sub(r"['’]s$", "", word.lower()).strip("'’-")
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")) else w


def content_stem(word: str) -> str:
    """A word as fields and values are compared: lower case, no possessive, no plural."""
    return _norm(word)


def is_content_word(word: str) -> bool:
    """Can the word name or fill a field (not a function, calendar or document word, no unit)?"""
    return _usable(word)


def _usable(word: str) -> bool:
    low = word.lower().strip("'’-")
    if len(low) < 2 or low in _GRAMMAR or _norm(word) in _GRAMMAR:
        return False
    return canonical_unit(word) is None and canonical_unit(low) is None


@dataclass(frozen=True)
class Candidate:
    """One possible slot filling: ``key`` ("before:bike" - the word after the value; "after:brosk"
    - the word before it), the value as written, and where it stands."""

    key: str
    value: str
    start: int
    end: int
    plain: bool = True  #: the slot's word is written as a label is (lower-case, capitals, before a colon), not as a name


def _plain(word: str, colon: bool) -> bool:
    return colon or word.islower() or (word.isupper() and len(word) > 1)


@lru_cache(maxsize=16384)
def candidates(text: str, exclude: frozenset[str] = frozenset(), stops: frozenset[str] = frozenset()) -> tuple[Candidate, ...]:
    """Every (slot, value) pair a text could hold: each two neighbouring words of one phrase
    give the left one as the value of the right one's ``before`` slot and the right one as the
    value of the left one's ``after`` slot. A capitalised value extends over its name ("at
    Orla Venn") and stops before a word of ``exclude`` (the memory's own labels and units: a
    measured field's name is no category's value). Pure: the statistics decide which of them
    are fields. Cached: every batch re-fits the model on the memory's texts, which rarely
    change, under the same ``exclude`` and ``stops``."""
    words = list(_WORD.finditer(text))
    out: list[Candidate] = []
    for m in _PAREN.finditer(text):  # "(paperback)", "(Ashvel)": a value set apart, its field unnamed
        value = m.group(1).strip()
        if all(_usable(w) and _norm(w) not in exclude for w in value.split()):
            out.append(Candidate(PAREN_KEY, value, m.start(1), m.start(1) + len(value)))
    out.extend(_cells(text, exclude))
    for i in range(len(words) - 1):
        a, b = words[i], words[i + 1]
        if not _JOINED.fullmatch(text[a.end():b.start()]) or not _usable(a.group()) or not _usable(b.group()):
            continue
        if _norm(a.group()) in exclude or _norm(b.group()) in exclude:
            continue
        colon = ":" in text[a.end():b.start()]
        # the right word fills "after:<left>"; a name runs on over capitalised words
        j = i + 1
        while b.group()[0].isupper() and j + 1 < len(words) and words[j + 1].group()[0].isupper() \
                and re.fullmatch(r"[ \t]+", text[words[j].end():words[j + 1].start()]) and _usable(words[j + 1].group()) \
                and _norm(words[j + 1].group()) not in exclude | stops:
            j += 1
        out.append(Candidate(f"after:{_norm(a.group())}", text[b.start():words[j].end()], b.start(), words[j].end(),
                             _plain(a.group(), colon)))
        if colon:
            continue  # "brosk: Ashvel": the label is never a value of what follows it
        k = i
        while a.group()[0].isupper() and k - 1 >= 0 and words[k - 1].group()[0].isupper() \
                and re.fullmatch(r"[ \t]+", text[words[k - 1].end():words[k].start()]) and _usable(words[k - 1].group()) \
                and _norm(words[k - 1].group()) not in exclude | stops:
            k -= 1
        out.append(Candidate(f"before:{_norm(b.group())}", text[words[k].start():a.end()], words[k].start(), a.end(),
                             _plain(b.group(), False)))
    return tuple(out)


def _cells(text: str, exclude: frozenset[str]) -> list[Candidate]:
    """The word-only cells of a text laid out in cells, keyed by their place in the layout."""
    if not _CELL_SEP.search(text):
        return []
    out, pos, i = [], 0, 0
    for m in [*_CELL_SEP.finditer(text), None]:
        end = m.start() if m is not None else len(text)
        raw = text[pos:end]
        value = raw.strip().rstrip(".!,")
        start = pos + len(raw) - len(raw.lstrip())
        words = value.split()
        if value and 1 <= len(words) <= 3 and all(_WORD.fullmatch(w) and _usable(w) and _norm(w) not in exclude for w in words):
            out.append(Candidate(f"{CELL_PREFIX}{i}", value, start, start + len(value)))
        if value:
            i += 1
        if m is not None:
            pos = m.end()
    return out if i > 1 else []


@dataclass
class Slot:
    """A discovered categorical field: its name (the slot's word), where its value stands, and
    the values seen in it (lower-case -> count)."""

    name: str
    key: str
    values: Counter = field(default_factory=Counter)
    records: int = 0
    head: str = ""  #: the noun the values are written with, kept in the value ("tempo run")


def is_field(values: Counter, records: int) -> bool:
    """Do the values a slot held over ``records`` records make a categorical field? Pure."""
    if records < MIN_RECORDS or sum(1 for n in values.values() if n >= 2) < 2:
        return False  # a word always the same is part of a phrase; a category has values that recur
    recurring = sum(n for n in values.values() if n >= 2)
    once = sum(1 for n in values.values() if n == 1)
    return recurring >= RECURRING_SHARE * records and once <= MAX_DISTINCT_SHARE * records


class SlotModel:
    """Slots learnt from a memory's record texts (``fit``), read from one record (``transform``).

    ``known`` names attributes the records already state with a label of their own (``brosk:
    Ashvel`` gave ``brosk``); a slot of the same name is the same field, and their values are
    pooled for reading bare values.
    """

    def __init__(self) -> None:
        self.slots_: dict[str, Slot] = {}
        self.values_: dict[str, str] = {}  #: lower-case value -> the one field it was seen in
        self._bare: re.Pattern[str] | None = None
        self.exclude_: frozenset[str] = frozenset()
        self.filled_: frozenset[str] = frozenset()  #: single-word labelled values: never a slot's word
        self._phrases: re.Pattern[str] | None = None  #: labelled values of several words
        self.owners_: dict[str, set[str]] = {}  #: labelled value -> the attributes it was stated for
        self.stops_: frozenset[str] = frozenset()
        self.labels_: frozenset[str] = frozenset()  #: the memory's field names: a cell holding one is a label
        self._labelled: list[tuple[str, str]] = []

    def fit(self, texts: Iterable[str], labelled: Iterable[tuple[str, str]] = (), exclude: Iterable[str] = ()) -> SlotModel:
        """Learn slots from record texts (one text per record) and the labelled categorical
        values already extracted, as (attribute, value) pairs; ``exclude``: the words of the
        memory's measured fields and units, which neither name nor fill a category."""
        self.exclude_ = frozenset(_norm(w) for w in exclude)
        labelled = list(labelled)
        self.filled_ = frozenset(_norm(v) for _, v in labelled if " " not in v.strip()) - {a for a, _ in labelled}
        self.owners_ = defaultdict(set)
        self.labels_ = frozenset(self.exclude_ | {"_".join(_norm(w) for w in a.split("_")) for a, _ in labelled})
        for attribute, value in labelled:
            self.owners_[_norm(value.strip())].add(attribute)
        phrases = sorted({v.strip().lower() for _, v in labelled if " " in v.strip()}, key=lambda v: (-len(v), v))
        self._phrases = re.compile(r"(?<![\w'’-])(?:" + "|".join(re.escape(v) for v in phrases) + r")(?![\w'’-])", re.I) if phrases else None
        texts = list(texts)
        self._labelled = labelled
        self.stops_ = frozenset()
        self._fit(texts)
        # a second pass, with names that run on into the next field's label cut there ("Vroule koum")
        self.stops_ = frozenset(s.name for s in self.slots_.values())
        if self.stops_:
            self._fit(texts)
        self._values(labelled)
        return self

    def drop(self, names: Iterable[str]) -> SlotModel:
        """The model without the slots of ``names`` (a slot that turned out to be named by
        another field's value), nor the bare values they taught."""
        names = set(names)
        self.slots_ = {key: s for key, s in self.slots_.items() if s.name not in names}
        self._values(self._labelled)
        return self

    def _fit(self, texts: list[str]) -> None:
        seen: dict[str, Counter] = defaultdict(Counter)
        records: Counter = Counter()
        plain: Counter = Counter()
        for text in texts:
            first: dict[str, Candidate] = {}
            # a labelled value of several words ("car wash", "group ride") is one value: its words
            # are not a slot and its filling
            inside = [m.span() for m in self._phrases.finditer(text)] if self._phrases is not None else []
            for c in candidates(text, self.exclude_, self.stops_):
                if c.key.startswith(CELL_PREFIX):
                    if self._label_cell(c):
                        continue  # a cell holding a stated value still shows the layout's slot (and names it)
                elif any(a <= c.start and c.end <= b for a, b in inside):
                    continue
                first.setdefault(c.key, c)
            for key, c in first.items():
                seen[key][c.value.lower()] += 1
                records[key] += 1
                plain[key] += c.plain
        slots = {}
        for key, values in seen.items():
            if plain[key] * 2 < records[key]:
                continue  # a word mostly written as a name ("Zotir Wummi"): a name's first word, no label
            if is_field(values, records[key]):
                name = self._cell_name(values) if key.startswith(CELL_PREFIX) else key.split(":", 1)[1]
                slots[key] = Slot(name, key, values, records[key])
        slots.update(self._head_slots(seen, records))
        # one field per name: the slot that held more records ("before:bike" over a rarer "after:bike")
        by_name: dict[str, Slot] = {}
        for s in sorted(slots.values(), key=lambda s: (-s.records, s.key)):
            by_name.setdefault(s.name, s)
        self.slots_ = {s.key: s for s in by_name.values() if not self._is_a_value(s, by_name)}
        # a layout's cell named by the values the memory states for a field elsewhere is that
        # field too, in that layout (one record still takes one value per field)
        for s in slots.values():
            if s.key.startswith(CELL_PREFIX) and s.name != CELL_NAME and s.key not in self.slots_ \
                    and any(o.name == s.name for o in self.slots_.values()):
                self.slots_[s.key] = s

    def _cell_name(self, values: Counter) -> str:
        """A layout cell's field: the one the memory states most of its values for elsewhere
        ("Category: Fuel" names the cell that holds "fuel" and "groceries"), else ``kind``."""
        votes: Counter = Counter()
        for value, n in values.items():
            for attribute in self.owners_.get(_norm(value), ()):
                votes[attribute] += n
        if votes:
            attribute, n = sorted(votes.items(), key=lambda av: (-av[1], av[0]))[0]
            if n * 2 >= sum(votes.values()):
                return attribute
        return CELL_NAME

    def _head_slots(self, seen: dict[str, Counter], records: Counter) -> dict[str, Slot]:
        """Slots the labelled values teach: when a field's stated values are two-word phrases
        ending in one noun ("Activity: Recovery run", "Activity: Long run"), the noun's slot is
        that field's - so "logged a tempo run" holds its "tempo run" though no label says so."""
        heads: dict[tuple[str, str], Counter] = defaultdict(Counter)
        for attribute, value in self._labelled:
            words = value.split()
            if len(words) == 2 and all(_usable(w) and _norm(w) not in self.exclude_ for w in words):
                heads[(attribute, _norm(words[1]))][words[0].lower()] += 1
        out = {}
        for (attribute, head), modifiers in sorted(heads.items()):
            key = f"before:{head}"
            if len(modifiers) < 2 or head in self.filled_:
                continue
            out[key] = Slot(attribute, key, modifiers + seen.get(key, Counter()), records.get(key, 0) + sum(modifiers.values()), head)
        return out

    def _label_cell(self, c: Candidate) -> bool:
        """Is a layout cell a field's label ("BERESH" of "BERESH: Slelmyl")?"""
        return "_".join(_norm(w) for w in c.value.split()) in self.labels_

    def _stated_cell(self, c: Candidate) -> bool:
        """Does a layout cell hold a value the memory states for a field of its own ("· Right
        arm ·" holds the arm's "right", "· Lazet ·" a labelled name)? Then it is that field's."""
        if not c.key.startswith(CELL_PREFIX):
            return False
        if any(_norm(w) in self.filled_ or _norm(w) in self.owners_ for w in c.value.split()):
            return True
        if self._label_cell(c):
            return True  # "BERESH: Slelmyl": the cell is a field's label
        return self._phrases is not None and self._phrases.search(c.value) is not None

    def _is_a_value(self, slot: Slot, slots: dict[str, Slot]) -> bool:
        """Is a slot's word itself a value of another field ("left arm", "right arm": ``left`` is
        what fills ``arm``, not a field whose values are "arm" and "upper")? When two slots fill
        each other, the one over more records is the field."""
        if slot.name in self.filled_:
            return True
        for value, n in slot.values.items():  # "training ride", "group ride": values of a labelled field, under another word
            if n >= 2 and self.owners_.get(_norm(value)) and slot.name not in self.owners_[_norm(value)]:
                return True
        for other in slots.values():
            if other is slot or not any(_norm(v) == slot.name and n >= 2 for v, n in other.values.items()):
                continue
            mutual = any(_norm(v) == other.name for v in slot.values)
            if not mutual or (other.records, other.key) > (slot.records, slot.key):
                return True
        return False

    def _values(self, labelled: Iterable[tuple[str, str]]) -> None:
        pooled: dict[str, Counter] = defaultdict(Counter)
        for s in self.slots_.values():
            pooled[s.name].update(s.values)
        for attribute, value in labelled:
            pooled[attribute][value.lower()] += 1
        owners: dict[str, Counter] = defaultdict(Counter)
        for attribute, values in pooled.items():
            for value, n in values.items():
                if all(_usable(w) for w in value.split()) and len(value) >= 3:
                    owners[value][attribute] += n
        # a value seen in two fields belongs to the one that holds it at least twice as often
        # (a name once misread as a payee is still the companion's)
        self.values_ = {}
        for v, held in owners.items():
            (best, n), *rest = held.most_common()
            if n >= MIN_BARE_COUNT and (not rest or n >= 2 * rest[0][1]):
                self.values_[v] = best
        alts = sorted(self.values_, key=lambda v: (-len(v), v))
        self._bare = re.compile(r"(?<![\w'’-])(?:" + "|".join(re.escape(v) for v in alts) + r")(?![\w'’-])", re.I) if alts else None

    def _likelier(self, slot: Slot, word: str, value: str) -> bool:
        """Is ``word`` rather than ``value`` the slot's value: filling it more often, or written
        with the slot's noun as a value of its own elsewhere ("· right arm ·") where ``value``
        never is ("right upper arm": "upper" only says where on the arm)?"""
        if slot.values.get(word, 0) > slot.values.get(value, 0):
            return True
        noun = slot.key.split(":", 1)[1]
        return f"{word} {noun}" in self.values_ and f"{value} {noun}" not in self.values_

    def transform(self, text: str, have: Sequence[str] = ()) -> list[tuple[str, str, int, int]]:
        """(attribute, value, start, end) of the slot values a record's text holds, none for an
        attribute in ``have`` (the record states it already)."""
        out: list[tuple[str, str, int, int]] = []
        taken = set(have)
        for c in candidates(text, self.exclude_, self.stops_):
            slot = self.slots_.get(c.key)
            if slot is None or slot.name in taken or self._stated_cell(c):
                continue
            if any(c.start < e and s < c.end for _, _, s, e in out):
                continue
            value, start, end = c.value, c.start, c.end
            if c.key.startswith("before:") and (prior := re.search(r"([^\W\d_][\w'’-]*)[ \t]+$", text[:start])) \
                    and self._likelier(slot, prior.group(1).lower(), value.lower()):
                # "his right upper arm": of two words before the slot's noun, the one its records hold more often
                value, start, end = prior.group(1), prior.start(1), prior.end(1)
            if slot.head:  # "tempo run": the value with its noun, as the field's stated values are written
                after = re.match(r"[ \t]+([A-Za-z][\w'’-]*)", text[end:])
                if after is None or _norm(after.group(1)) != slot.head:
                    continue
                value, end = f"{value} {after.group(1)}", end + after.end()
            taken.add(slot.name)
            out.append((slot.name, value, start, end))
        if self._bare is not None:
            for m in self._bare.finditer(text):
                attribute = self.values_[m.group().lower()]
                if attribute in taken or any(m.start() < e and s < m.end() for _, _, s, e in out):
                    continue
                taken.add(attribute)
                out.append((attribute, m.group(), m.start(), m.end()))
        return out
