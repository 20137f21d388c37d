"""Per-round cost of pattern mining + schema induction as history grows (not a test).

    python benchmarks/bench_mining.py [--rounds 1000 10000 100000] [--measure 1000]

For each history size N a synthetic history (a few domains of 3-8 attributes, optional
attributes present with probability 0.9, ``date`` in 95% of rounds, fixed seed) is loaded into
a :class:`SupportIndex`; the schemas are induced over the first rounds the way the ingestion graph
does (add + update_schemas per round), the rest is only counted. Then ``--measure`` further
rounds are timed, each one ``index.add`` + ``update_schemas``:

* steady - with the induced schemas active (the normal case: most rounds fit a schema),
* cold   - with no active schema, so every round runs the full candidate mining,
* noisy  - steady, on a history where 10% of rounds carry a one-off attribute and 5% one of 50
           rarely repeated attributes (extraction noise; every such round is a new distinct set).

A 40-attribute round is then timed on top of the largest history: five exact repeats (the 4th
discovers it) and twenty repeats where each attribute is present with probability 0.9 (every
round a new distinct set, the closure has real work).

Targets (issue): median ≤ 2 ms per round, flat (N=100k / N=1k ≤ 1.5), 40-attribute round ≤ 20 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from adamm.stores.mining import AttrSet, SchemaUpdate, SupportIndex, update_schemas

DOMAINS: list[tuple[str, list[str], list[str], float]] = [
    # name, always-present attributes, optional attributes (p = 0.9), share of rounds
    ("sleep", ["sleep_hours", "deep_sleep", "rem_sleep"], ["resting_hr", "hrv"], 0.25),
    ("expense", ["amount", "merchant"], ["category"], 0.25),
    ("glucose", ["time_range", "meal_variability", "morning_response", "evening_drift", "late_window"],
     ["movement_goal", "steps", "carbs"], 0.2),
    ("workout", ["activity", "duration_min", "calories"], ["avg_hr", "distance_km"], 0.15),
    ("weight", ["weight_kg"], ["body_fat", "bmi"], 0.15),
]
WARMUP = 2000  # rounds run through update_schemas to induce the schemas


class History:
    def __init__(self, seed: int, noisy: bool = False) -> None:
        self.rng = random.Random(seed)
        self.noisy = noisy
        self.t = 0
        self.pool = [f"extra_{i:02d}" for i in range(50)]
        self.weights = [d[3] for d in DOMAINS]

    def next(self) -> AttrSet:
        rng = self.rng
        self.t += 1
        _, core, optional, _ = rng.choices(DOMAINS, weights=self.weights)[0]
        attrs = set(core) | {a for a in optional if rng.random() < 0.9}
        if rng.random() < 0.95:
            attrs.add("date")
        if self.noisy:
            if rng.random() < 0.10:
                attrs.add(f"oneoff_{self.t}")
            if rng.random() < 0.05:
                attrs.add(rng.choice(self.pool))
        return frozenset(attrs)


def apply(schemas: list[AttrSet], up: SchemaUpdate) -> None:
    for old, new in up.evolved:
        schemas[schemas.index(old)] = new
    schemas.extend(up.discovered)


def build(n: int, seed: int, noisy: bool) -> tuple[SupportIndex, list[AttrSet], History]:
    hist = History(seed, noisy)
    index = SupportIndex()
    schemas: list[AttrSet] = []
    for i in range(n):
        r = hist.next()
        index.add(r)
        if i < WARMUP:
            apply(schemas, update_schemas(index, schemas, r))
    return index, schemas, hist


def time_rounds(index: SupportIndex, schemas: list[AttrSet] | None, hist: History, m: int) -> list[float]:
    """Milliseconds per round (add + update); ``schemas=None`` means no active schema (cold)."""
    out = []
    for _ in range(m):
        r = hist.next()
        t0 = time.perf_counter()
        index.add(r)
        up = update_schemas(index, schemas if schemas is not None else [], r)
        out.append((time.perf_counter() - t0) * 1e3)
        if schemas is not None:
            apply(schemas, up)
    return out


def wide_round(index: SupportIndex, schemas: list[AttrSet], seed: int) -> tuple[list[float], list[float], int]:
    wide = frozenset(f"panel_{i:02d}" for i in range(40))
    exact = []
    for _ in range(5):
        t0 = time.perf_counter()
        index.add(wide)
        up = update_schemas(index, schemas, wide)
        exact.append((time.perf_counter() - t0) * 1e3)
        apply(schemas, up)
    rng = random.Random(seed)
    wide2 = [f"screen_{i:02d}" for i in range(40)]
    varied = []
    for _ in range(20):
        r = frozenset(a for a in wide2 if rng.random() < 0.9)
        t0 = time.perf_counter()
        index.add(r)
        up = update_schemas(index, schemas, r)
        varied.append((time.perf_counter() - t0) * 1e3)
        apply(schemas, up)
    return exact, varied, len(index.distinct_sets())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    ap.add_argument("--measure", type=int, default=1000, help="timed rounds per history size")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()

    rows = []
    last: tuple[SupportIndex, list[AttrSet]] | None = None
    for n in args.rounds:
        row = {"n": n}
        index, schemas, hist = build(n, args.seed, noisy=False)
        row["schemas"] = len(schemas)
        row["distinct"] = len(index.distinct_sets())
        row["steady"] = statistics.median(time_rounds(index, schemas, hist, args.measure))
        row["cold"] = statistics.median(time_rounds(index, None, hist, args.measure))
        last = (index, schemas)
        nindex, nschemas, nhist = build(n, args.seed, noisy=True)
        row["noisy_distinct"] = len(nindex.distinct_sets())
        row["noisy_view"] = len(nindex._view(4).counts)  # distinct sets projected on frequent attributes
        row["noisy"] = statistics.median(time_rounds(nindex, nschemas, nhist, args.measure))
        row["noisy_cold"] = statistics.median(time_rounds(nindex, None, nhist, args.measure))
        rows.append(row)

    print(f"median ms per round (index.add + update_schemas), {args.measure} timed rounds per size")
    print(f"{'rounds':>8} {'schemas':>7} {'distinct':>8} {'steady':>8} {'cold':>8} "
          f"{'noisy':>8} {'noisy-cold':>10} {'noisy-distinct':>14} {'noisy-view':>10}")
    for r in rows:
        print(f"{r['n']:>8} {r['schemas']:>7} {r['distinct']:>8} {r['steady']:>8.3f} {r['cold']:>8.3f} "
              f"{r['noisy']:>8.3f} {r['noisy_cold']:>10.3f} {r['noisy_distinct']:>14} {r['noisy_view']:>10}")
    if len(rows) > 1:
        first, lastrow = rows[0], rows[-1]
        print(f"ratio {lastrow['n']}/{first['n']}: steady {lastrow['steady'] / first['steady']:.2f}  "
              f"cold {lastrow['cold'] / first['cold']:.2f}  noisy {lastrow['noisy'] / first['noisy']:.2f}  "
              f"noisy-cold {lastrow['noisy_cold'] / first['noisy_cold']:.2f}")

    assert last is not None
    index, schemas = last
    exact, varied, distinct = wide_round(index, schemas, args.seed)
    print(f"40-attribute round on {args.rounds[-1]} rounds: exact repeats ms "
          f"{' '.join(f'{x:.2f}' for x in exact)} (max {max(exact):.2f})")
    print(f"40-attribute round, attributes p=0.9 (20 rounds, all distinct): median {statistics.median(varied):.2f} "
          f"max {max(varied):.2f} ms; distinct sets now {distinct}")
    panel = [s for s in schemas if any(a.startswith("panel_") for a in s)]
    screen = [s for s in schemas if any(a.startswith("screen_") for a in s)]
    print(f"schemas induced: exact 40-attribute round -> {len(panel)} ({[len(s) for s in panel]} attributes); "
          f"p=0.9 round -> {len(screen)} overlapping schemas of "
          f"{min(map(len, screen), default=0)}-{max(map(len, screen), default=0)} attributes")


if __name__ == "__main__":
    main()
