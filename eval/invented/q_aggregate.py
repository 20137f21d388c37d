"""AVG, SUM and CNT candidates: means, shares, totals and counts over periods and filters.

Each function returns every question of its family that the scenario supports (enough records
in scope, a threshold that splits the values); :mod:`~.questions` picks among them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from adamm.eval.invented.dates import Period
from adamm.eval.invented.qbase import (Ctx, exact_spec, field_words, iso_list, json_value, mean, mean_spec, qa, qty,
                                       threshold_splits, threshold_text, total, vals)
from adamm.eval.invented.units import quantize

_SHARE_PERIODS = ("all", "month", "window")
_MEAN_PERIODS = ("all", "month", "half")


def _scope_words(ctx: Ctx, p: Period, subset: str = "") -> str:
    """"across all my Ashvel trabbing sessions" or "on my Ashvel trabbing sessions in March 2025"."""
    things = f"{subset} {ctx.dom.things}".strip()
    return f"across all my {things}" if p.kind == "all" else f"on my {things} {p.phrase}"


def _subsets(ctx: Ctx) -> list[tuple[str, str, Any]]:
    """(words before the noun, words after it, predicate): no filter, each category value, each entity."""
    out: list[tuple[str, str, Any]] = [("", "", None)]
    for c in ctx.dom.cats:
        out += [(v, "", (lambda r, k=c.key, v=v: r.values.get(k) == v)) for v in c.values]
    if ctx.dom.entity:
        e = ctx.dom.entity
        prep = "with" if e.role == "person" else "at"
        out += [("", f" {prep} {v}", (lambda r, k=e.key, v=v: r.values.get(k) == v)) for v in e.values]
    return out


def avg(ctx: Ctx) -> list[dict[str, Any]]:
    out = []
    for f in ctx.dom.nums:
        places, tol = mean_spec(f.measure)
        for p in ctx.periods:
            if p.kind not in _MEAN_PERIODS:
                continue
            for pre, post, where in _subsets(ctx)[: 1 + sum(len(c.values) for c in ctx.dom.cats)]:
                recs = ctx.scoped(p, f.key, where)
                if len(recs) < (6 if p.kind == "all" and not where else 3):
                    continue
                m = mean(vals(recs, f.key))
                things = f"{pre} {ctx.dom.things}".strip()
                q = f"What was my average {f.label} {_scope_words(ctx, p, pre)}{post}{field_words(f)}?"
                out.append(qa("AVG", q, f"{qty(f.measure, m, places)} on average, over {len(recs)} {things}.",
                              json_value(m, places), "number", recs, tol, f.measure.qa_unit,
                              fam="mean-cat" if where else "mean", scope=p.kind, field=f.key))
    cat = ctx.dom.cats[0]
    for p in ctx.periods:
        if p.kind not in _SHARE_PERIODS:
            continue
        recs = ctx.scoped(p)
        if len(recs) < 5:
            continue
        for v in cat.values:
            k = sum(1 for r in recs if r.values.get(cat.key) == v)
            if 0 < k < len(recs):
                share = quantize(100 * Fraction(k, len(recs)), 1)
                q = (f"What share of all my {ctx.dom.things} were {v}?" if p.kind == "all"
                     else f"{p.phrase[:1].upper()}{p.phrase[1:]}, what percentage of my {ctx.dom.things} were {v}?")
                out.append(qa("AVG", q, f"{share}% ({k} of {len(recs)} {ctx.dom.things}).", float(share), "number",
                              recs, 0.05, "%", fam="share", scope=p.kind, field=cat.key))
    return out


def sums(ctx: Ctx) -> list[dict[str, Any]]:
    out = []
    for f in ctx.dom.nums:
        places, tol = exact_spec(f.measure)
        for p in ctx.periods:
            if p.kind not in ("all", "month", "half", "week1", "window"):
                continue
            for pre, post, where in _subsets(ctx):
                recs = ctx.scoped(p, f.key, where)
                if len(recs) < (2 if where or p.kind in ("week1", "window") else 3):
                    continue
                s = total(vals(recs, f.key))
                things = f"{pre} {ctx.dom.things}".strip()
                if p.kind == "all":
                    q = f"What was my total {f.label} across all my {things}{post}{field_words(f)}?"
                else:
                    q = f"How much {f.label} did I log in total on {things}{post} {p.phrase}{field_words(f)}?"
                out.append(qa("SUM", q, f"{qty(f.measure, s, places)} in total, over {len(recs)} {things}.",
                              json_value(s, places), "number", recs, tol, f.measure.qa_unit,
                              fam="total-sub" if where else "total", scope=p.kind, field=f.key))
    return out


def counts(ctx: Ctx) -> list[dict[str, Any]]:
    out = []
    dom, unit = ctx.dom, ctx.dom.nouns
    for p in ctx.periods:
        if p.kind == "week1":
            continue
        when = "in total" if p.kind == "all" else p.phrase
        for pre, post, where in _subsets(ctx)[1:]:
            recs = ctx.scoped(p, None, where)
            if len(recs) < 2 or len(recs) == len(ctx.scoped(p)):
                continue
            things = f"{pre} {dom.things}".strip()
            q = f"How many {things}{post} did I log {when}?"
            out.append(qa("CNT", q, f"{len(recs)} {things}: {iso_list(recs)}.", len(recs), "number", recs, 0, unit,
                          fam="count-sub", scope=p.kind, field=pre or post))
        for f in dom.nums:
            for word, t, recs, n in threshold_splits(ctx, p, f, ("more than", "less than")):
                if len(recs) < 2 or len(recs) == n:
                    continue
                scope = "" if p.kind == "all" else f" {p.phrase}"
                q = f"How many {dom.things}{scope} had {word} {threshold_text(f.measure, t)} of {f.label}?"
                out.append(qa("CNT", q, f"{len(recs)} {dom.things}: {iso_list(recs)}.", len(recs), "number", recs, 0,
                              unit, fam="count-threshold", scope=p.kind, field=f.key))
    for fact in ctx.scn.facts:
        if fact.kind != "target" or fact.target is None:
            continue
        f = dom.num(fact.field)
        recs = ctx.scoped(ctx.everything(), f.key, lambda r: r.values[f.key] >= fact.target)
        if 2 <= len(recs) < len(ctx.scoped(ctx.everything(), f.key)):
            q = f"How many of my {dom.things} reached my {f.label} goal?"
            goal = threshold_text(f.measure, fact.target) if f.measure.kind != "money" else str(fact.target)
            out.append(qa("CNT", q, f"{len(recs)} {dom.things} (goal {goal}): {iso_list(recs)}.", len(recs), "number",
                          recs, 0, unit, fam="count-goal", field=f.key, extra_rounds=[fact.round]))
    return out
