"""MAX, MIN, LAT and RNG candidates: extremes and their days or entities, the most recent
matching record, and filtered lists of days or entities.

Only unambiguous ones are offered: a unique extreme, a winner ahead of the runner-up (by at
least 3 % for means), a most recent record without a tie on its day.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from adamm.eval.invented.dates import Period
from adamm.eval.invented.qbase import (Ctx, clear_gap, exact_spec, field_words, iso_list, json_value, mean, qa, qty,
                                       threshold, threshold_splits, threshold_text, vals)
from adamm.eval.invented.render import Record

_DIRS = (("MAX", "highest", max), ("MIN", "lowest", min))


def _unique_extreme(recs: list[Record], key: str, pick: Any) -> Record | None:
    best = pick(r.values[key] for r in recs)
    hits = [r for r in recs if r.values[key] == best]
    return hits[0] if len(hits) == 1 else None


def _suffix(p: Period) -> str:
    return "across all my logs" if p.kind == "all" else p.phrase


def extremes(ctx: Ctx) -> list[dict[str, Any]]:
    out = []
    dom = ctx.dom
    for point, word, pick in _DIRS:
        for f in dom.nums:
            places, tol = exact_spec(f.measure)
            for p in ctx.periods:
                if p.kind not in ("all", "month", "half", "window"):
                    continue
                recs = ctx.scoped(p, f.key)
                if len(recs) < 3 or (best := _unique_extreme(recs, f.key, pick)) is None:
                    continue
                v = best.values[f.key]
                out.append(qa(point, f"What was my {word} {f.label} {_suffix(p)}{field_words(f)}?",
                              f"{qty(f.measure, v, places)}, on {best.day.isoformat()}.", json_value(v, places),
                              "number", recs, tol, f.measure.qa_unit, fam="extreme-value", scope=p.kind, field=f.key))
                out.append(qa(point, f"On which day did I log my {word} {f.label} {_suffix(p)}?",
                              f"{best.day.isoformat()} ({qty(f.measure, v, places)}).", best.day.isoformat(), "date",
                              recs, fam="extreme-day", scope=p.kind, field=f.key))
                if dom.entity and p.kind == "all" and dom.entity.key in best.values:
                    e = dom.entity
                    er = [r for r in recs if e.key in r.values]
                    if _unique_extreme(er, f.key, pick) is best:
                        out.append(qa(point, f"Which {e.label} had my {word} {f.label}?",
                                      f"{best.values[e.key]} ({qty(f.measure, v, places)} on {best.day.isoformat()}).",
                                      best.values[e.key], "string", er, cands=e.values, fam="extreme-entity",
                                      field=f.key))
            for c in dom.cats:
                groups = {v: ctx.scoped(ctx.everything(), f.key, lambda r, v=v, k=c.key: r.values.get(k) == v)
                          for v in c.values}
                # every group that has the field takes part: a group of one or two records left out
                # would make the question ambiguous ("which month": the one with a single record counts)
                if any(0 < len(rs) < 3 for rs in groups.values()):
                    continue
                means = {v: mean(vals(rs, f.key)) for v, rs in groups.items() if rs}
                if len(means) < 2:
                    continue
                ranked = sorted(means, key=lambda v: means[v], reverse=point == "MAX")
                if clear_gap(means[ranked[0]], means[ranked[1]]):
                    win = ranked[0]
                    recs = [r for v in means for r in groups[v]]
                    out.append(qa(point, f"Which {c.label} had my {word} average {f.label}?",
                                  f"{win} ({qty(f.measure, means[win], 1 if f.measure.kind != 'money' else 2)} on average).",
                                  win, "string", recs, cands=sorted(means), fam="extreme-cat", field=f.key))
            months = {p.month: p for p in ctx.month_periods() if ctx.scoped(p, f.key)}
            if len(months) >= 2 and all(len(ctx.scoped(p, f.key)) >= 3 for p in months.values()):
                means = {m: mean(vals(ctx.scoped(p, f.key), f.key)) for m, p in months.items()}
                ranked = sorted(means, key=lambda m: means[m], reverse=point == "MAX")
                if clear_gap(means[ranked[0]], means[ranked[1]]):
                    recs = [r for p in months.values() for r in ctx.scoped(p, f.key)]
                    out.append(qa(point, f"Which month had my {word} average {f.label}?",
                                  f"{ranked[0]} ({qty(f.measure, means[ranked[0]], 2 if f.measure.kind == 'money' else 1)}"
                                  " on average).", ranked[0], "string", recs, cands=list(months), fam="extreme-month",
                                  field=f.key))
    if dom.entity:
        e = dom.entity
        for p in ctx.periods:
            if p.kind not in ("all", "month"):
                continue
            recs = ctx.scoped(p, e.key)
            freq = Counter(r.values[e.key] for r in recs).most_common()
            if len(recs) >= 4 and (len(freq) == 1 or freq[0][1] > freq[1][1]):
                win, n = freq[0]
                out.append(qa("MAX", f"Which {e.label} did I log most often {_suffix(p)}?",
                              f"{win} ({n} {dom.nouns}).", win, "string", recs, cands=e.values, fam="entity-most", scope=p.kind,
                              field=e.key))
    return out


def latest(ctx: Ctx) -> list[dict[str, Any]]:
    out = []
    dom, every = ctx.dom, ctx.everything()

    def last(recs: list[Record]) -> Record | None:
        if not recs or (len(recs) > 1 and recs[-1].day == recs[-2].day):
            return None
        return recs[-1]

    for f in dom.nums:
        places, tol = exact_spec(f.measure)
        if (r := last(ctx.scoped(every, f.key))) is not None:
            v = r.values[f.key]
            out.append(qa("LAT", f"What was my most recent {f.label}{field_words(f)}?",
                          f"{qty(f.measure, v, places)}, logged for {r.day.isoformat()}.", json_value(v, places),
                          "number", [r], tol, f.measure.qa_unit, fam="last-value", field=f.key))
        for c in dom.cats:
            for cv in c.values:
                r = last(ctx.scoped(every, f.key, lambda x, k=c.key, cv=cv: x.values.get(k) == cv))
                if r is not None:
                    v = r.values[f.key]
                    out.append(qa("LAT", f"What {f.label} did my most recent {cv} {dom.thing} have{field_words(f)}?",
                                  f"{qty(f.measure, v, places)}, on {r.day.isoformat()}.", json_value(v, places),
                                  "number", [r], tol, f.measure.qa_unit, fam="last-value-cat", field=f.key))
        t = threshold(vals(ctx.scoped(every, f.key), f.key), ctx.rng, 0.55, 0.85)
        if t is not None:
            r = last(ctx.scoped(every, f.key, lambda x, k=f.key: x.values[k] > t))
            if r is not None:
                out.append(qa("LAT", f"When did I last log more than {threshold_text(f.measure, t)} of {f.label}?",
                              f"{r.day.isoformat()} ({qty(f.measure, r.values[f.key], places)}).", r.day.isoformat(),
                              "date", [r], fam="last-day-threshold", field=f.key))
    for c in dom.cats:
        for cv in c.values:
            r = last(ctx.scoped(every, None, lambda x, k=c.key, cv=cv: x.values.get(k) == cv))
            if r is not None:
                out.append(qa("LAT", f"When did I last log {'an' if cv[0] in 'AEIOU' else 'a'} {cv} {dom.thing}?",
                              f"{r.day.isoformat()}.", r.day.isoformat(), "date", [r], fam="last-day-cat", field=cv))
        r = last(ctx.scoped(every, c.key))
        if r is not None:
            out.append(qa("LAT", f"What was the {c.label} of my most recent {dom.thing}?", f"{r.values[c.key]}, on {r.day.isoformat()}.",
                          r.values[c.key], "string", [r], cands=c.values, fam="last-cat", field=c.key))
    if dom.entity:
        e = dom.entity
        r = last(ctx.scoped(every, e.key))
        if r is not None:
            out.append(qa("LAT", f"What was the {e.label} of my most recent {dom.thing}?",
                          f"{r.values[e.key]}, on {r.day.isoformat()}.", r.values[e.key], "string", [r], cands=e.values,
                          fam="last-entity", field=e.key))
    return out


def ranges(ctx: Ctx) -> list[dict[str, Any]]:
    out = []
    dom = ctx.dom
    for p in ctx.periods:
        if p.kind not in ("month", "half", "window", "week1"):
            continue
        for f in dom.nums:
            for word, t, recs, n in threshold_splits(ctx, p, f, ("above", "below")):
                if 2 <= len(recs) <= 7 and len(recs) < n:
                    days = sorted({r.day.isoformat() for r in recs})
                    q = f"{p.phrase[:1].upper()}{p.phrase[1:]}, on which days did I log {f.label} {word} {threshold_text(f.measure, t)}?"
                    out.append(qa("RNG", q, f"{iso_list(recs)}.", days, "list", recs, fam="days-threshold", scope=p.kind, field=f.key))
        for c in dom.cats:
            for cv in c.values:
                recs = ctx.scoped(p, None, lambda r, k=c.key, cv=cv: r.values.get(k) == cv)
                if 2 <= len(recs) <= 7 and len(recs) < len(ctx.scoped(p)):
                    out.append(qa("RNG", f"List the days {p.phrase} with {'an' if cv[0] in 'AEIOU' else 'a'} {cv} {dom.thing}.",
                                  f"{iso_list(recs)}.", sorted({r.day.isoformat() for r in recs}), "list", recs,
                                  fam="days-cat", scope=p.kind, field=cv))
        if dom.entity:
            e = dom.entity
            recs = ctx.scoped(p, e.key)
            got = sorted({r.values[e.key] for r in recs})
            if recs and 1 <= len(got) < len(e.values) and p.kind != "week1":
                out.append(qa("RNG", f"Which {e.label}s appear in my {dom.things} {p.phrase}?",
                              ", ".join(got) + ".", got, "list", recs, cands=e.values, fam="entity-list", scope=p.kind, field=e.key))
    return out
