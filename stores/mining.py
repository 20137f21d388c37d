"""Incremental pattern mining and schema induction (AdaMM §3.3.2, Eq. 3-7), as pure functions.

No I/O, no SQL, no LangGraph: the ingestion graph loads the per-memory *attribute-set counts*
(``SqlStore.attribute_sets``) into a :class:`SupportIndex`, adds the new round, calls
:func:`update_schemas` and persists what it returns.

Definitions, with ``A_t`` the attribute set of round ``t``:

* ``supp(C)``          = number of rounds whose attribute set contains ``C``            (Eq. 3)
* ``all-conf(C)``      = ``supp(C) / max_{a∈C} supp({a})``                               (Eq. 5)
* ``ext-conf(C | A)``  = ``supp(C) / supp(A)`` for ``C ⊃ A``                             (Eq. 7)

An *admissible* set is a set ``C`` of non-context attributes with ``supp(C) ≥ θs`` (Eq. 4) and
``all-conf(C) ≥ θa`` (Eq. 6). All-confidence is anti-monotone, so admissible sets are closed
under subsets and only the inclusion-maximal ones are schema material.

Why supports never need a rescan
--------------------------------
The sufficient statistic is the multiset of *distinct* attribute sets (how many rounds had
exactly ``S``), which the SQL store keeps in ``adamm_attribute_sets``. A round is one counter
update; ``supp(C) = Σ_{S ⊇ C} count(S)`` is a sum over distinct sets, found through an inverted
index (attribute -> distinct sets holding it). Dashboards repeat, so the number of distinct sets
saturates and the cost per round stays flat as history grows. One-off attributes (extraction
noise) would make every round a new distinct set; :class:`SupportIndex` therefore also keeps,
per support threshold, a *frequent view* in which every set is projected onto the attributes
with ``supp({a}) ≥ θs``. Only frequent attributes can be in a candidate, so mining reads the view,
where noisy variants of a dashboard collapse into one key. The view is maintained incrementally
(an attribute crossing the threshold moves only the sets that contain it).

Why candidates never enumerate subsets
--------------------------------------
Only sets ``C ⊆ A_t`` change support when round ``t`` arrives, and a set not contained in
``A_t`` can only *lose* all-confidence, so every newly admissible set lies inside the new
round. Let ``F_t`` be ``A_t`` minus context attributes and minus infrequent attributes, and
project every stored distinct set onto it (``S ∩ F_t``, with counts). The *closed* sets of that
small weighted database (all non-empty intersections of projections, the closure of
``{S ∩ F_t}`` under intersection) are the candidates (:func:`candidate_sets`).

*Pairwise intersections with the new round are not enough*: with history ``{a,b,c}×2,
{a,b,d}×2`` and new round ``{a,b,c,d}``, ``supp({a,b}) = 5`` but ``{a,b}`` is only the
intersection of the two stored sets, never of one of them with the new round. Closing under
intersection fixes this; the closure is computed incrementally (each projection is intersected
with the closed sets found so far) and bounded by ``max_candidates`` (the most frequent
projections are processed first, so truncation only drops rare structures).

Closed sets cover both decisions exactly:

* *Evolution.* Among supersets of a schema ``A``, ``ext-conf(·|A) ≥ θe`` and ``supp ≥ θs`` are
  anti-monotone and a set has the support of its closure, so the largest qualifying ``C`` is
  closed.
* *Discovery.* A maximal admissible ``C`` need not be closed: a frequent attribute ``x`` that
  is present whenever ``C`` is (so ``x`` is in the closure) but much more often elsewhere lowers
  all-conf of the closure. Let ``s = supp(C)`` and ``X = closure(C)``; ``supp(X) = s`` and
  ``X ∩ {a : s / supp({a}) ≥ θa}`` is admissible, contains ``C``, hence equals it. So
  :func:`update_schemas` tests, for each closed ``X``, its *all-conf core*
  ``{a ∈ X : supp(X) / supp({a}) ≥ θa}`` - every maximal admissible set inside the round is one
  of those cores. Maximality is then checked against *all* admissible sets, not only those
  inside the round, by testing one-attribute extensions ``C + x`` (enough, by anti-monotonicity).

Context attributes
------------------
``date``, ``time``, ``timestamp`` and ``day`` (configurable) are excluded from candidates. They
are recorded by nearly every round of every domain, and every analytic table already carries the
round time and the observed date as system columns. All-confidence penalises them only when
several domains are balanced: in a history where one domain dominates, ``date`` would pass
``θa`` and be welded into that domain's schema (and later evolve into the others); and on its
own a ubiquitous attribute is always admissible, so when domains interleave it reaches θs first
and becomes a one-column ``{date}`` table. Which of these happens depends on arrival order.
Attributes listed here are ignored in active schemas too (treated as system columns); pass
``context_attributes=frozenset()`` for the paper's literal behaviour.

Rules beyond the paper's text (all documented on :func:`update_schemas`)
------------------------------------------------------------------------
The paper decides on θs = 4 rounds, so small-sample accidents are frequent: a field that
starts appearing in a long-running dashboard, or an optional field present in 3 of the first 4
rounds, would each fork a new table next to the schema it belongs to. On a synthetic history of
5 record types with optional fields present with probability 0.9 (the benchmark's), the literal
rules (maximal + not subset/superset) gave 69 extra schemas over 40 seeds (23 seeds affected);
with the rules below, 4 extra schemas (4 seeds), each a near-duplicate pair.

* A candidate that is a superset of (or equal to, or a subset of) an active schema is never
  discovered: supersets are handled by evolution only.
* *Anchoring*: a maximal admissible ``C`` that mostly occurs together with an active schema
  ``A`` is part of ``A``'s record type and is left to evolution instead of forking a table whose
  rows would mostly be rows of ``A``'s table. The bar is ``supp(C ∪ A) / supp(C) ≥ θa`` when
  ``C`` shares attributes with ``A`` (a variant: a fork would duplicate the shared columns) and
  ``≥ θe`` when it shares none (a new field: ``c`` appearing in a long-running ``{a, b}``
  dashboard has low ``all-conf({a,b,c})`` because ``{a,b}`` has the longer history, so ``{c}``
  alone is admissible after θs rounds, long before ``ext-conf({a,b,c}|{a,b})`` reaches θe).
  Exception - *hubs*: ``A`` does not anchor ``C`` when some attribute occurs in θs rounds of ``A``
  without ``C`` but almost never with ``C`` (``supp(C + x) / supp(C) < 1 - θe``): then ``A``
  (say ``duration``) is shared by mutually exclusive record types (walks and sleep), and each
  of them is a domain of its own.
* An evolution never grows a schema over another active schema (the target may not contain or
  equal another active schema's attributes): merging two tables is not an extension.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

AttrSet = frozenset[str]

DEFAULT_CONTEXT_ATTRIBUTES: AttrSet = frozenset({"date", "time", "timestamp", "day"})
"""Attributes recorded by nearly every round of every domain; system columns of every table."""

DEFAULT_MAX_CANDIDATES = 512
"""Bound on the closed sets examined per round. Clean histories stay far below it; it is
reached by wide rounds whose attributes are missed at random (a 40-field dashboard with 10%
misses per field: see ``benchmarks/bench_mining.py``), where it caps the cost per round."""

__all__ = [
    "AttrSet",
    "DEFAULT_CONTEXT_ATTRIBUTES",
    "DEFAULT_MAX_CANDIDATES",
    "SchemaUpdate",
    "SupportIndex",
    "all_confidence",
    "candidate_sets",
    "extension_confidence",
    "update_schemas",
]


def _attrset(attrs: Iterable[str]) -> AttrSet:
    """A frozenset of attribute names; a bare string is refused (it would become its letters)."""
    if isinstance(attrs, (str, bytes)):
        raise TypeError(f"expected an iterable of attribute names, got the string {attrs!r}")
    out = frozenset(attrs)
    for a in out:
        if not isinstance(a, str):
            raise TypeError(f"attribute names must be str, got {a!r}")
    return out


def _order(s: AttrSet) -> tuple[str, ...]:
    return tuple(sorted(s))


# -- pure measures --------------------------------------------------------------------------------


def all_confidence(supp_c: int, single_supports: Iterable[int]) -> float:
    """Eq. 5: ``supp(C) / max_{a∈C} supp({a})``; 0.0 when every attribute has support 0.

    Raises ValueError for an empty candidate (no attribute to take the maximum over).
    """
    singles = list(single_supports)
    if not singles:
        raise ValueError("all-confidence of an empty attribute set is undefined")
    top = max(singles)
    return supp_c / top if top > 0 else 0.0


def extension_confidence(supp_c: int, supp_a: int) -> float:
    """Eq. 7: ``supp(C) / supp(A)``; 0.0 when ``supp(A) == 0`` (nothing to extend yet)."""
    return supp_c / supp_a if supp_a > 0 else 0.0


# -- support index --------------------------------------------------------------------------------


class _FrequentView:
    """Distinct-set counts projected onto the attributes with ``supp({a}) ≥ threshold``.

    Exact for every ``C`` made of frequent attributes: ``C ⊆ S`` iff ``C ⊆ S ∩ frequent``.
    """

    __slots__ = ("threshold", "frequent", "counts", "postings")

    def __init__(self, index: SupportIndex, threshold: int) -> None:
        self.threshold = threshold
        self.frequent: set[str] = {a for a, n in index._single.items() if n >= threshold}
        self.counts: dict[AttrSet, int] = {}
        self.postings: dict[str, set[AttrSet]] = {}
        for s, n in index._counts.items():
            self._bump(s & self.frequent, n)

    def _bump(self, key: AttrSet, by: int) -> None:
        old = self.counts.get(key, 0)
        new = old + by
        if new:
            if not old:
                for a in key:
                    self.postings.setdefault(a, set()).add(key)
            self.counts[key] = new
        elif old:
            del self.counts[key]
            for a in key:
                keys = self.postings[a]
                keys.discard(key)
                if not keys:
                    del self.postings[a]

    def on_add(self, index: SupportIndex, s: AttrSet, by: int) -> None:
        """``index`` already counts the change; move counts of attributes crossing the threshold."""
        self._bump(s & self.frequent, by)
        for a in s:
            now = index._single.get(a, 0) >= self.threshold
            if now == (a in self.frequent):
                continue
            for full in index._postings.get(a, ()):
                n = index._counts[full]
                old_key = full & self.frequent
                self._bump(old_key, -n)
                self._bump(old_key | {a} if now else old_key - {a}, n)
            if now:
                self.frequent.add(a)
            else:
                self.frequent.discard(a)


class SupportIndex:
    """Supports derived from distinct attribute-set counts (``SqlStore.attribute_sets``).

    Adding a round is O(|A_t|) dictionary updates; ``supp(C)`` is a sum over the distinct sets
    holding the rarest attribute of ``C`` (few in practice: dashboards repeat), and
    ``supp({a})`` is a dictionary lookup. Rounds with no attribute count in ``n_rounds`` (the
    support of the empty set). ``add(x, by=-1)`` forgets a round exactly.
    """

    def __init__(self, counts: Iterable[tuple[AttrSet, int]] = ()) -> None:
        self._counts: dict[AttrSet, int] = {}
        self._single: dict[str, int] = {}
        self._postings: dict[str, set[AttrSet]] = {}
        self._views: dict[int, _FrequentView] = {}
        self.n_rounds: int = 0
        for attrs, n in counts:
            if n < 0:
                raise ValueError(f"negative count {n} for attribute set {sorted(attrs)}")
            self.add(attrs, by=n)

    def add(self, attrs: Iterable[str], by: int = 1) -> None:
        """Count ``by`` more rounds with exactly this attribute set (``by=-1`` forgets one).

        Raises ValueError, changing nothing, when the count would become negative.
        """
        s = _attrset(attrs)
        by = int(by)
        if by == 0:
            return
        old = self._counts.get(s, 0)
        new = old + by
        if new < 0:
            raise ValueError(f"cannot remove {-by} round(s) with attribute set {sorted(s)}: only {old} counted")
        if new:
            if not old:
                for a in s:
                    self._postings.setdefault(a, set()).add(s)
            self._counts[s] = new
        else:
            del self._counts[s]
            for a in s:
                keys = self._postings[a]
                keys.discard(s)
                if not keys:
                    del self._postings[a]
        for a in s:
            n = self._single.get(a, 0) + by
            if n:
                self._single[a] = n
            else:
                del self._single[a]
        self.n_rounds += by
        for view in self._views.values():
            view.on_add(self, s, by)

    def _view(self, threshold: int) -> _FrequentView:
        """The frequent view for ``θs = threshold``, built once then maintained by ``add``."""
        threshold = max(int(threshold), 1)
        view = self._views.get(threshold)
        if view is None:
            view = self._views[threshold] = _FrequentView(self, threshold)
        return view

    def support(self, c: Iterable[str]) -> int:
        """Eq. 3: the number of rounds whose attribute set contains ``c`` (``n_rounds`` for ∅)."""
        cs = _attrset(c)
        if not cs:
            return self.n_rounds
        if len(cs) == 1:
            return self._single.get(next(iter(cs)), 0)
        counts, postings = self._counts, self._postings
        for view in self._views.values():  # a projected view is exact and has fewer keys
            if cs <= view.frequent:
                counts, postings = view.counts, view.postings
                break
        rarest = min(cs, key=lambda a: len(postings.get(a, ())))
        return sum(counts[s] for s in postings.get(rarest, ()) if cs <= s)

    def single_support(self, a: str) -> int:
        """``supp({a})``, maintained incrementally: O(1)."""
        return self._single.get(a, 0)

    def all_conf(self, c: Iterable[str]) -> float:
        """Eq. 5 for ``c`` (non-empty)."""
        cs = _attrset(c)
        return all_confidence(self.support(cs), (self.single_support(a) for a in cs))

    def ext_conf(self, c: Iterable[str], a: Iterable[str]) -> float:
        """Eq. 7: ``supp(c) / supp(a)``; raises ValueError unless ``a`` is a strict subset of ``c``."""
        cs, as_ = _attrset(c), _attrset(a)
        if not as_ < cs:
            raise ValueError(f"ext-conf needs A ⊂ C, got A={sorted(as_)} C={sorted(cs)}")
        return extension_confidence(self.support(cs), self.support(as_))

    def distinct_sets(self) -> list[tuple[AttrSet, int]]:
        """Every distinct attribute set with its round count, most frequent first (deterministic)."""
        return sorted(self._counts.items(), key=lambda kv: (-kv[1], len(kv[0]), _order(kv[0])))

    def count(self, attrs: Iterable[str]) -> int:
        """How many rounds had exactly this attribute set."""
        return self._counts.get(_attrset(attrs), 0)

    def __repr__(self) -> str:
        return f"SupportIndex(n_rounds={self.n_rounds}, distinct_sets={len(self._counts)}, attributes={len(self._single)})"


# -- candidates -----------------------------------------------------------------------------------


class _Projection:
    """The history projected onto the mined part of the new round, as bitmasks.

    Bit ``i`` stands for ``attrs[i]`` (the round's core: new round minus context and infrequent
    attributes); sets inside the core are ints, so intersection and inclusion are single
    integer operations - what keeps closure computation cheap for wide rounds.
    """

    __slots__ = ("core", "attrs", "bit", "weights", "closed", "truncated")

    def __init__(self, core: AttrSet) -> None:
        self.core = core
        self.attrs: tuple[str, ...] = _order(core)
        self.bit: dict[str, int] = {a: 1 << i for i, a in enumerate(self.attrs)}
        self.weights: dict[int, int] = {}  # projection S ∩ core -> rounds
        self.closed: dict[int, int] = {}  # closed sets with supp >= θs -> support
        self.truncated = False

    def mask(self, c: Iterable[str]) -> int:
        """The mask of ``c ∩ core``."""
        bit = self.bit
        m = 0
        for a in c:
            m |= bit.get(a, 0)
        return m

    def to_set(self, m: int) -> AttrSet:
        return frozenset(a for i, a in enumerate(self.attrs) if m >> i & 1)

    def support(self, m: int) -> int:
        """``supp(c)`` for ``c ⊆ core`` given as a mask (a round contains c iff its projection does)."""
        return sum(w for p, w in self.weights.items() if p & m == m)


def _round_core(index: SupportIndex, new_round: AttrSet, theta_s: int, context: AttrSet) -> AttrSet:
    frequent = index._view(theta_s).frequent
    return frozenset(a for a in new_round if a not in context and a in frequent)


def _project(index: SupportIndex, core: AttrSet, theta_s: int, max_candidates: int) -> _Projection:
    proj = _Projection(core)
    if not core:
        return proj
    view = index._view(theta_s)
    keys: set[AttrSet] = set()
    for a in core:
        keys.update(view.postings.get(a, ()))
    weights = proj.weights
    for k in keys:
        p = proj.mask(k)
        weights[p] = weights.get(p, 0) + view.counts[k]
    # Closure under intersection, most frequent projections first; stop (all-or-nothing per
    # projection, so the result is deterministic) when the bound would be exceeded.
    closed: set[int] = set()
    for p in sorted(weights, key=lambda q: (-weights[q], -q.bit_count(), q)):
        fresh = {x & p for x in closed}
        fresh.add(p)
        fresh.discard(0)
        fresh -= closed
        if len(closed) + len(fresh) > max_candidates:
            proj.truncated = True
            break
        closed |= fresh
    for x in closed:
        s = proj.support(x)
        if s >= theta_s:
            proj.closed[x] = s
    return proj


def candidate_sets(
    index: SupportIndex,
    new_round: AttrSet,
    theta_s: int,
    *,
    context_attributes: Iterable[str] = DEFAULT_CONTEXT_ATTRIBUTES,
    max_candidates: int = DEFAULT_MAX_CANDIDATES,
) -> list[AttrSet]:
    """Candidates worth checking after a round with attribute set ``new_round`` arrived.

    These are the closed sets inside the round: every non-empty intersection of ``new_round``
    (minus context and infrequent attributes) with one *or several* stored distinct sets, plus
    the round itself, that has ``supp ≥ θs``. No subset of the round is enumerated; the work is
    bounded by the number of distinct sets sharing an attribute with the round and by
    ``max_candidates``. See the module docstring for why these suffice (and why pairwise
    intersections alone do not). Largest first, then alphabetical.
    """
    s = _attrset(new_round)
    ctx = _attrset(context_attributes)
    proj = _project(index, _round_core(index, s, theta_s, ctx), theta_s, max_candidates)
    return sorted((proj.to_set(m) for m in proj.closed), key=lambda c: (-len(c), _order(c)))


# -- schema discovery and evolution ---------------------------------------------------------------


@dataclass(frozen=True)
class SchemaUpdate:
    """What the round changed: schemas to create and schemas to widen.

    ``discovered`` and the new side of ``evolved`` never contain context attributes other than
    those an evolved schema already had.
    """

    discovered: list[AttrSet]  # new schemas to create
    evolved: list[tuple[AttrSet, AttrSet]]  # (old schema, new larger schema)


def _neighbourhood(view: _FrequentView, c: AttrSet) -> list[tuple[AttrSet, int]]:
    """The frequent-view keys containing ``c`` (``c`` made of frequent attributes), with counts."""
    rarest = min(c, key=lambda a: len(view.postings.get(a, ())))
    return [(k, view.counts[k]) for k in view.postings.get(rarest, ()) if c <= k]


def _is_hub(
    view: _FrequentView, b: AttrSet, c: AttrSet, with_c: dict[str, int], supp_c: int,
    theta_s: int, theta_e: float, ctx: AttrSet,
) -> bool:
    """Is ``b`` shared by ``c`` and another record type rather than extended by ``c``?

    True when some attribute ``x`` occurs in at least θs rounds that contain ``b`` but not
    ``c``, while almost never occurring with ``c`` (``supp(c + x) / supp(c) < 1 - θe``): the
    rounds of ``b`` split into mutually exclusive structures (``duration`` shared by walks and
    sleep), so ``c`` is a domain of its own, not a field arriving in ``b``'s record type. An
    optional field of ``b``'s own record type occurs with ``c`` as often as without it, so it
    does not make ``b`` a hub. ``with_c[x] = supp(c + x)``.
    """
    without: dict[str, int] = {}
    for k, n in _neighbourhood(view, b):
        if c <= k:
            continue
        for x in k - b - c:
            if x not in ctx:
                without[x] = without.get(x, 0) + n
    return any(n >= theta_s and with_c.get(x, 0) / supp_c < 1 - theta_e for x, n in without.items())


def update_schemas(
    index: SupportIndex,
    active: Iterable[AttrSet],
    new_round: AttrSet,
    *,
    theta_s: int = 4,
    theta_a: float = 0.6,
    theta_e: float = 0.8,
    context_attributes: Iterable[str] = DEFAULT_CONTEXT_ATTRIBUTES,
    max_candidates: int = DEFAULT_MAX_CANDIDATES,
    optional_fields: bool = False,
) -> SchemaUpdate:
    """Schema evolution then discovery after ``index.add(new_round)`` (paper Table 5 defaults).

    Context attributes are ignored everywhere (in the round and in active schemas); below,
    "schema" means its non-context attributes.

    1. *Evolution* - for each active schema ``A`` inside the round (the only ones whose
       ext-conf can rise), in sorted order: among candidates ``C ⊃ A`` inside the round with
       ``supp(C) ≥ θs`` and ``ext-conf(C|A) ≥ θe`` that do not contain (or equal) another active
       schema, take the largest (ties: higher support, then alphabetical). ``A`` grows to ``C``
       (keeping any context attributes it had); later schemas see the grown one.
    2. *Discovery* - among admissible sets (``supp ≥ θs``, ``all-conf ≥ θa``) inside the round,
       keep those that are inclusion-maximal among *all* admissible sets, are neither a subset
       nor a superset of (nor equal to) an active schema (after step 1; supersets are left to
       evolution), and are not anchored to an active schema ``A``: ``C`` is anchored when
       ``supp(C ∪ A) / supp(C)`` reaches θa (``C`` shares attributes with ``A``) or θe (it
       shares none), unless ``A`` is a hub for ``C`` (see the module docstring); an anchored
       ``C`` is part of ``A``'s record type and is left to evolution instead of forking a
       near-duplicate table.

    Only sets inside the round are examined: anything else kept its support and can only have
    lost all-confidence, so it was decided when its own last round arrived (an anchored set
    whose anchor has since become a hub is discovered with its next round). Raises ValueError
    when ``new_round`` was not added to the index.
    """
    s = _attrset(new_round)
    if index.count(s) <= 0:
        raise ValueError(f"call index.add(new_round) before update_schemas: {sorted(s)} has no rounds")
    ctx = _attrset(context_attributes)
    theta_s = max(int(theta_s), 1)
    current: list[AttrSet] = list(dict.fromkeys(_attrset(a) for a in active))
    core = _round_core(index, s, theta_s, ctx)
    if not core:
        return SchemaUpdate([], [])

    def cores(schemas: list[AttrSet]) -> list[AttrSet]:
        return [b for b in (x - ctx for x in schemas) if b]

    touched = sorted((a for a in current if (a - ctx) and (a - ctx) < core), key=_order)
    # Fast path: the round fits inside an active schema and contains no smaller schema, so
    # nothing inside it can be novel and no schema inside it can grow (the common steady state).
    if not touched and any(core <= b for b in cores(current)):
        return SchemaUpdate([], [])

    proj = _project(index, core, theta_s, max_candidates)

    # 1. evolution
    evolved: list[tuple[AttrSet, AttrSet]] = []
    for old in touched:
        a_mask = proj.mask(old - ctx)
        # another schema not inside the round cannot be inside a candidate
        others = [proj.mask(b) for b in cores([x for x in current if x != old]) if b <= core]
        supp_a = proj.support(a_mask)
        best: tuple[tuple[int, int, tuple[str, ...]], AttrSet] | None = None
        for c, supp_c in proj.closed.items():
            if c == a_mask or c & a_mask != a_mask or extension_confidence(supp_c, supp_a) < theta_e:
                continue
            if any(c & b == b for b in others):
                continue
            cs = proj.to_set(c)
            key = (-len(cs), -supp_c, _order(cs))
            if best is None or key < best[0]:
                best = (key, cs)
        if best is not None:
            grown = best[1] | (old & ctx)
            evolved.append((old, grown))
            current = list(dict.fromkeys(grown if x == old else x for x in current))

    # 1b. optional fields (``optional_fields``, beyond the paper): an attribute that occurs in
    # θs rounds of A and mostly with A
    # (supp(A + x) / supp({x}) >= θa) is a field of A's record type that is often left out
    # (a pulse not shown, power only on one bike): A grows to take it as a nullable column,
    # although ext-conf(A + x | A) stays below θe.
    for old in [a for a in current if optional_fields and (a - ctx) and (a - ctx) < core]:
        extra = sorted(x for x in core - old if x not in ctx)
        grown = set(old)
        for x in extra:
            both = index.support((old - ctx) | {x})
            if both >= theta_s and both / max(index.single_support(x), 1) >= theta_a:
                grown.add(x)
        new = frozenset(grown)
        if new != old and not any(b != old and b <= new for b in current):
            evolved.append((old, new))
            current = list(dict.fromkeys(new if y == old else y for y in current))

    # 2. discovery: the all-conf core of each closed x (its attributes a with
    # supp(x) / supp({a}) >= θa). Such a core c is always admissible: supp(c) >= supp(x) >= θs,
    # and supp(c) / supp({a}) >= supp(x) / supp({a}) >= θa for every a in c.
    single = index.single_support
    singles = [single(a) for a in proj.attrs]  # all >= θs >= 1: core attributes are frequent
    allowed: dict[int, int] = {}
    admitted: dict[int, int] = {}
    for x, supp_x in proj.closed.items():
        ok = allowed.get(supp_x)
        if ok is None:
            ok = allowed[supp_x] = sum(1 << i for i, n in enumerate(singles) if supp_x / n >= theta_a)
        c = x & ok
        if c and c not in admitted:
            admitted[c] = supp_x if c == x else proj.support(c)
    local_max: list[int] = []  # larger first: a superset is always examined before c
    for c in sorted(admitted, key=lambda m: (-m.bit_count(), m)):
        if not any(c & d == c for d in local_max):
            local_max.append(c)

    active_cores = cores(current)
    view = index._view(theta_s)
    discovered: list[AttrSet] = []
    for cm in local_max:
        c = proj.to_set(cm)
        if any(c <= b or b <= c for b in active_cores):
            continue  # not novel: inside a schema, or a (failed) extension of one
        supp_c = admitted[cm]
        top = max(single(a) for a in c)
        hood = _neighbourhood(view, c)
        tally: dict[str, int] = {}
        for k, n in hood:
            for a in k - c:
                if a not in ctx:
                    tally[a] = tally.get(a, 0) + n
        if any(n >= theta_s and all_confidence(n, (top, single(a))) >= theta_a for a, n in tally.items()):
            continue  # some admissible superset exists outside the round: c is not maximal
        anchored = False
        for b in active_cores:
            # With optional fields a new field that mostly occurs with b waits to become b's
            # column (step 1b) instead of forking a table of its own.
            bar = theta_a if (b & c or optional_fields) else theta_e
            # quick bound: every attribute of b must co-occur with c often enough
            if any(a in view.frequent and tally.get(a, 0) / supp_c < bar for a in b - c):
                continue
            if b <= view.frequent:
                both = sum(n for k, n in hood if b <= k)
            else:
                both = index.support(c | b)
            if extension_confidence(both, supp_c) < bar:
                continue
            if b <= view.frequent and _is_hub(view, b, c, tally, supp_c, theta_s, theta_e, ctx):
                continue
            anchored = True
            break
        if not anchored:
            discovered.append(c)

    discovered.sort(key=_order)
    return SchemaUpdate(discovered, evolved)
