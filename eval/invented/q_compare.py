"""CMP and TRD candidates: which of two months or two categories is higher, and whether a
quantity rose or fell - asked only where the gap is clear (3 % relative, or 2 for counts).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from adamm.eval.invented.qbase import Ctx, clear_gap, exact_spec, mean, mean_spec, month_label, qa, qty, total, vals

_TREND = ["increased", "decreased"]


def compare(ctx: Ctx) -> list[dict[str, Any]]:
    out = []
    dom = ctx.dom
    months = ctx.month_periods()
    for f in dom.nums:
        places, _ = mean_spec(f.measure)
        for a, b in combinations(months, 2):
            ra, rb = ctx.scoped(a, f.key), ctx.scoped(b, f.key)
            if len(ra) < 3 or len(rb) < 3:
                continue
            ma, mb = mean(vals(ra, f.key)), mean(vals(rb, f.key))
            if clear_gap(ma, mb):
                for word, higher in (("higher", True), ("lower", False)):
                    win, lose = (a, b) if (ma > mb) == higher else (b, a)
                    wm, lm = (ma, mb) if win is a else (mb, ma)
                    x, y = (a, b) if ctx.rng.random() < 0.5 else (b, a)
                    out.append(qa("CMP", f"Which month had the {word} average {f.label}, {month_label(x)} or {month_label(y)}?",
                                  f"{win.month} ({qty(f.measure, wm, places)} vs {qty(f.measure, lm, places)} in {lose.month}).",
                                  win.month, "string", ra + rb, cands=[x.month, y.month], fam="cmp-month-mean", field=f.key))
            sp, _ = exact_spec(f.measure)
            sa, sb = total(vals(ra, f.key)), total(vals(rb, f.key))
            if clear_gap(sa, sb):
                win, lose, wv, lv = (a, b, sa, sb) if sa > sb else (b, a, sb, sa)
                out.append(qa("CMP", f"In which month was my total {f.label} higher, {month_label(a)} or {month_label(b)}?",
                              f"{win.month} ({qty(f.measure, wv, sp)} vs {qty(f.measure, lv, sp)} in {lose.month}).",
                              win.month, "string", ra + rb, cands=[a.month, b.month], fam="cmp-month-total", field=f.key))
        for c in dom.cats:
            for va, vb in combinations(c.values, 2):
                ra = ctx.scoped(ctx.everything(), f.key, lambda r, k=c.key, v=va: r.values.get(k) == v)
                rb = ctx.scoped(ctx.everything(), f.key, lambda r, k=c.key, v=vb: r.values.get(k) == v)
                if len(ra) < 3 or len(rb) < 3:
                    continue
                ma, mb = mean(vals(ra, f.key)), mean(vals(rb, f.key))
                if clear_gap(ma, mb):
                    win, lose, wm, lm = (va, vb, ma, mb) if ma > mb else (vb, va, mb, ma)
                    out.append(qa("CMP", f"Was my average {f.label} higher on {va} {dom.things} or on {vb} {dom.things}?",
                                  f"{win} ({qty(f.measure, wm, places)} vs {qty(f.measure, lm, places)} for {lose}).",
                                  win, "string", ra + rb, cands=[va, vb], fam="cmp-cat", field=f.key))
    for a, b in combinations(months, 2):
        ra, rb = ctx.scoped(a), ctx.scoped(b)
        if abs(len(ra) - len(rb)) >= 2:
            win, lose, wn, ln = (a, b, len(ra), len(rb)) if len(ra) > len(rb) else (b, a, len(rb), len(ra))
            out.append(qa("CMP", f"Did I log more {dom.things} in {month_label(a)} or in {month_label(b)}?",
                          f"{win.month} ({wn} vs {ln} in {lose.month}).", win.month, "string", ra + rb,
                          cands=[a.month, b.month], fam="cmp-month-count"))
    return out


def trends(ctx: Ctx) -> list[dict[str, Any]]:
    out = []
    dom = ctx.dom
    months = [p for p in ctx.month_periods()]
    for f in dom.nums:
        places, _ = mean_spec(f.measure)
        full = [p for p in months if len(ctx.scoped(p, f.key)) >= 3]
        if len(full) >= 2:
            a, b = full[0], full[-1]
            out += _trend(f, places, ctx.scoped(a, f.key), ctx.scoped(b, f.key), "trend-month",
                          f"Did my average {f.label} rise or fall between {month_label(a)} and {month_label(b)}?")
        recs = ctx.scoped(ctx.everything(), f.key)
        if len(recs) >= 15:
            out += _trend(f, places, recs[:5], recs[-5:], "trend-firstlast",
                          f"Did my {f.label} go up or down from my first five {dom.things} to my last five?")
    return out


def _trend(f: Any, places: int, ra: list[Any], rb: list[Any], fam: str, question: str) -> list[dict[str, Any]]:
    """The trend question between two sets of records, when their means differ clearly (else none)."""
    ma, mb = mean(vals(ra, f.key)), mean(vals(rb, f.key))
    if not clear_gap(ma, mb):
        return []
    word = _TREND[0] if mb > ma else _TREND[1]
    return [qa("TRD", question, f"{word.capitalize()}: from {qty(f.measure, ma, places)} to {qty(f.measure, mb, places)} on average.",
               word, "string", ra + rb, cands=_TREND, fam=fam, field=f.key)]
