"""An invented logging domain: the record kind, its numeric, categorical and entity fields.

Split from the history generator so that what a domain *is* (labels as people type them, the
canonical record keys, how values are drawn) is decided once per scenario, before anything is
rendered or asked. Every label's first word comes from the :class:`~.words.Lexicon`, so it is
not English; a two-word label may end in a plain qualifier ("dask height"), and one field per
domain has a second spelling (an abbreviation: "dask ht") that some rounds use instead.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import Decimal

from adamm.eval.invented.units import Measure
from adamm.eval.invented.words import Lexicon, is_english

_QUALIFIERS = {"height": "ht", "length": "len", "count": "cnt", "level": "lvl", "score": None, "depth": None}
_NOUNS = ("session", "batch", "outing", "shift", "sitting")
_ROLES = ("place", "person")


@dataclass(frozen=True)
class NumField:
    key: str  #: record key, canonical unit included: "dask_height_plim"
    label: str  #: as people type it: "dask height"
    alias: str | None  #: a second spelling some rounds use ("dask ht"), or None
    measure: Measure
    mean: Decimal  #: typical canonical value
    spread: float  #: relative noise of one record
    drift: float  #: relative change of the mean from the first to the last day
    optional: float  #: probability that a record omits the field
    alt_share: float = 0.0  #: share of records written in the second unit (km/mi, kg/lb, min/h)


@dataclass(frozen=True)
class CatField:
    key: str
    label: str
    values: tuple[str, ...]  #: title-case invented values
    weights: tuple[float, ...]
    effect: tuple[float, ...]  #: multiplier of the first numeric fields' means, per value
    optional: float


@dataclass(frozen=True)
class EntityField:
    key: str
    label: str
    values: tuple[str, ...]
    role: str  #: "place" ("at Morrindle") or "person" ("with Ostrel Vanmoor")
    weights: tuple[float, ...]


@dataclass(frozen=True)
class Domain:
    name: str  #: scenario file stem and record_type: the kind word, "trabbing"
    kind: str  #: prose only: "trabbing"
    noun: str  #: "session"
    app: str  #: the app whose screenshots the user sends
    nums: tuple[NumField, ...]
    cats: tuple[CatField, ...]
    entity: EntityField | None
    person: tuple[str, str] = field(default=("", ""))  #: the user (first name, surname)

    @property
    def thing(self) -> str:
        return f"{self.kind} {self.noun}"

    @property
    def nouns(self) -> str:
        return self.noun + ("es" if self.noun.endswith(("ch", "sh")) else "s")

    @property
    def things(self) -> str:
        return f"{self.kind} {self.nouns}"

    def num(self, key: str) -> NumField:
        return next(f for f in self.nums if f.key == key)

    def cat_of(self, value: str) -> CatField:
        return next(c for c in self.cats if value in c.values)


def _snake(label: str) -> str:
    return "_".join(label.lower().split())


def _label(rng: random.Random, lex: Lexicon, two_words: float) -> tuple[str, str | None]:
    """A label and (sometimes) its abbreviated second spelling."""
    head = lex.word(rng, (1, 2), (4, 8))
    r = rng.random()
    if r < two_words / 2:
        q = rng.choice(sorted(_QUALIFIERS))
        return f"{head} {q}", (f"{head} {_QUALIFIERS[q]}" if _QUALIFIERS[q] else None)
    if r < two_words:
        tail = lex.word(rng, (1, 2), (4, 7))
        return f"{head} {tail}", f"{head} {tail[:3]}"
    short = head[:4]
    return head, (short if len(head) >= 7 and not is_english(short) else None)


def _measures(rng: random.Random, lex: Lexicon, n: int) -> list[tuple[Measure, Decimal]]:
    """``n`` measures with a typical value each: one real two-unit field, maybe money, the rest
    invented units (or bare counts); in random order."""
    real = rng.choice(("distance", "duration", "mass"))
    out: list[tuple[Measure, Decimal]] = []
    if real == "distance":
        out.append((Measure("distance", "km", 1), Decimal(rng.randint(6, 45))))
    elif real == "duration":
        out.append((Measure("duration", "min", 0), Decimal(rng.randint(30, 110))))
    else:
        out.append((Measure("mass", "kg", 1), Decimal(rng.randint(4, 60))))
    if n >= 4 and rng.random() < 0.6:
        out.append((Measure("money", rng.choice(("EUR", "USD")), 2), Decimal(rng.randint(9, 90))))
    while len(out) < n:
        if rng.random() < 0.18 and not any(m.kind == "bare" for m, _ in out):
            out.append((Measure("bare", "", 0), Decimal(rng.randint(8, 40))))
            continue
        scale = rng.choice(("small", "medium", "large"))
        if scale == "small":
            out.append((Measure("invented", lex.unit(rng), 1), Decimal(rng.randint(20, 95)) / 10))
        elif scale == "medium":
            out.append((Measure("invented", lex.unit(rng), rng.choice((0, 1))), Decimal(rng.randint(12, 95))))
        else:
            out.append((Measure("invented", lex.unit(rng), 0), Decimal(rng.randint(150, 1400))))
    rng.shuffle(out)
    return out


def _weights(rng: random.Random, n: int) -> tuple[float, ...]:
    w = [rng.uniform(0.6, 1.6) for _ in range(n)]
    return tuple(round(x / sum(w), 4) for x in w)


def invent_domain(rng: random.Random, lex: Lexicon, sparse: bool = False) -> Domain:
    """A new domain drawn from ``rng`` with words from ``lex`` (3-6 numeric fields, 1-2
    categorical fields of 2-5 values, an entity field more often than not). ``sparse``: a
    dashboard's day - 5-8 numeric fields, each but the first missing from up to half the
    records, so one record type shows many different subsets of its fields."""
    kind = lex.verb(rng)
    n_num = rng.randint(5, 8) if sparse else rng.randint(3, 6)
    omit = (0.0, 0.2, 0.35, 0.5) if sparse else (0.0, 0.08, 0.15)
    labels: list[tuple[str, str | None]] = [_label(rng, lex, 0.35) for _ in range(n_num)]
    alias_at = rng.choice([i for i, (_, a) in enumerate(labels) if a] or [-1])
    nums = []
    for i, ((label, alias), (measure, mean)) in enumerate(zip(labels, _measures(rng, lex, n_num))):
        nums.append(NumField(
            key=_snake(label) + measure.key_suffix, label=label, alias=alias if i == alias_at else None,
            measure=measure, mean=mean, spread=rng.uniform(0.07, 0.16),
            drift=rng.choice((-1, 1)) * rng.uniform(0.12, 0.3), optional=0.0 if i == 0 else rng.choice(omit),
            alt_share=rng.uniform(0.25, 0.4) if measure.kind in ("distance", "mass", "duration") else 0.0))
    cats = []
    for j in range(rng.choice((1, 1, 2))):
        n_vals = rng.randint(2, 5) if j == 0 else rng.randint(2, 3)
        values = tuple(lex.name(rng) for _ in range(n_vals))
        effect = [1.0 + 0.07 * (k - (n_vals - 1) / 2) * rng.choice((1.5, 2.0)) for k in range(n_vals)]
        rng.shuffle(effect)
        label = lex.word(rng, (1, 2), (4, 7))
        cats.append(CatField(key=_snake(label), label=label, values=values, weights=_weights(rng, n_vals),
                             effect=tuple(effect) if j == 0 else (1.0,) * n_vals, optional=0.0 if j == 0 else 0.12))
    entity = None
    if rng.random() < 0.65:
        role = rng.choice(_ROLES)
        n_ent = rng.randint(3, 8)
        if role == "person":
            values = tuple(" ".join(lex.person(rng)) for _ in range(n_ent))
        else:
            values = tuple(lex.name(rng) if rng.random() < 0.7 else f"{lex.name(rng)} {lex.name(rng)}"
                           for _ in range(n_ent))
        label = lex.word(rng, (1, 2), (4, 7))
        entity = EntityField(key=_snake(label), label=label, values=values, role=role, weights=_weights(rng, n_ent))
    app = lex.name(rng)
    return Domain(name=kind, kind=kind, noun=rng.choice(_NOUNS), app=app, nums=tuple(nums), cats=tuple(cats),
                  entity=entity, person=lex.person(rng))
