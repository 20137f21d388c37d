"""A scenario's questions: every candidate the families support, then a varied pick per type.

The quotas follow analytic_dev's proportions scaled to ~36 questions (AVG 5, SUM 4, CNT 4,
MAX 4, MIN 3, LAT 3, RNG 3, CMP 3, TRD 2, RET one per stated fact). The pick prefers a family,
then a field, not yet used, so one scenario asks about most of its fields in several ways.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from adamm.eval.invented import q_aggregate, q_compare, q_extremes
from adamm.eval.invented.dates import periods
from adamm.eval.invented.history import Scenario
from adamm.eval.invented.phrasing import vary_all
from adamm.eval.invented.qbase import Ctx, qa

TYPES = ("AVG", "SUM", "CNT", "MAX", "MIN", "LAT", "RNG", "CMP", "TRD", "RET")
QUOTAS = {"AVG": 5, "SUM": 4, "CNT": 4, "MAX": 4, "MIN": 3, "LAT": 3, "RNG": 3, "CMP": 3, "TRD": 2}


def select(cands: list[dict[str, Any]], k: int, rng: random.Random) -> list[dict[str, Any]]:
    """``k`` candidates with distinct questions, spreading over families, period kinds and fields."""
    pool = list(cands)
    rng.shuffle(pool)
    order = {id(c): i for i, c in enumerate(pool)}
    fams: Counter[str] = Counter()
    fields: Counter[str] = Counter()
    scopes: Counter[str] = Counter({"all": -1})  # whole-history questions (many clue rounds) twice as often
    chosen: list[dict[str, Any]] = []
    seen: set[str] = set()
    while pool and len(chosen) < k:
        best = min(pool, key=lambda c: (fams[c["_fam"]], scopes[c["_scope"]], fields[c["_field"]], order[id(c)]))
        pool.remove(best)
        if best["question"] in seen:
            continue
        seen.add(best["question"])
        chosen.append(best)
        fams[best["_fam"]] += 1
        fields[best["_field"]] += 1
        scopes[best["_scope"]] += 1
    return chosen


def _retrieval(scn: Scenario) -> list[dict[str, Any]]:
    out = []
    for f in scn.facts:
        q = qa("RET", f.question, f.answer, f.value, f.atype, (), f.tolerance, f.unit, fam=f.kind, extra_rounds=[f.round])
        out.append(q)
    return out


def build_questions(scn: Scenario, rng: random.Random, varied: random.Random | None = None) -> list[dict[str, Any]]:
    """The QAs of one scenario, grouped by type, without the selection's private keys; with
    ``varied``, each question in another wording (:mod:`~adamm.eval.invented.phrasing`)."""
    ctx = Ctx(scn, periods([r.day for r in scn.records], rng), rng)
    cands: dict[str, list[dict[str, Any]]] = {t: [] for t in TYPES}
    for family in (q_aggregate.avg, q_aggregate.sums, q_aggregate.counts, q_extremes.extremes, q_extremes.latest,
                   q_extremes.ranges, q_compare.compare, q_compare.trends):
        for q in family(ctx):
            cands[q["point"]].append(q)
    out: list[dict[str, Any]] = []
    for t in TYPES:
        out += _retrieval(scn) if t == "RET" else select(cands[t], QUOTAS[t], rng)
    for q in out:
        for private in ("_fam", "_field", "_scope"):
            q.pop(private)
    return vary_all(out, ctx.periods, varied) if varied is not None else out
