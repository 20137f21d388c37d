"""Write outing logs whose record kind is written in many layouts, for bench_analytic_dev.py.

    python benchmarks/kinds_log.py OUT [--seed N]... [--noun WORD] [--kinds A,B,C,D]
    python benchmarks/bench_analytic_dev.py --systems adamm --data OUT

Each scenario is a log of outings (a distance in km, a time) of four kinds, and the kind is
written the way people write it - before the record's noun ("a brisk sollow", "Brisk sollow
today: ..."), after the values ("6.2 km brisk sollow", "..., brisk."), in parentheses, in an
app card's quoted cell, in a sentence of its own ("Did my brisk sollow this morning. 6.2 km in
31:10."). The default words are invented, so only discovered structure can answer; ``--noun``
and ``--kinds`` give other words (``--noun run --kinds tempo,easy,long,recovery``: a running
log in everyday English). Layout families by seed: 0-1 the noun phrase, 2-3 labels, cells and
bare words, 4-5 sentences around the values, 6-7 an app's fields and a notebook's shorthand, 8-9 the
kind in a clause of its own without the noun, 10-11 miles beside kilometres among plans and
other people's outings, 12 and up several outings in one message half the time. Questions: the average, count, April total
and longest of each kind, the most frequent kind, the share of one kind. Scored by
``eval/invented/score.py``.
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from log_sets import Entry, history, write  # noqa: E402
LAYOUTS = [
    ["Did a {d} km {k} {noun} this morning, {t}.", "{K} {noun} today: {d} km in {t}.", "{K} {noun}, {d} km, {t}. Legs fine.",
     "Got out for a {k} {noun} after work - {d} km, {t}.", "Yesterday's {k} {noun}: {d} km in {t}, felt good."],
    ["{d} km {k} {noun} this morning, {t}.", "{K} today: {d} km in {t}.", "Did {d} km after work ({k}), {t}.",
     "{Noun} done: {d} km, {t}, {k}.", "Screenshot of the Pellow app card: '{K} {noun}' — {d} km · {t} · avg pace shown."],
    ["Did my {k} {noun} this morning. {d} km in {t}.", "{d} km in {t} - {k} {noun}.", "{K} {noun} with the club! {d} km, {t}.",
     "Another {k} {noun}. Watch says {d} km, {t}.", "Morning {noun} ({k}): {d} km / {t}"],
    # an app's fields and a notebook's shorthand
    ["Type: {K} | Distance: {d} km | Time: {t}", "{K} — {d} km — {t}", "Logged {d} km ({K}) in {t}.",
     "{K} {d}km {t}", "Watch summary: {Noun} · {K} · {d} km · {t} · 412 kcal"],
    # the kind in a clause of its own, the noun left out
    ["Kept it {k} today: {d} km in {t}.", "{t} for {d} km, {k} effort.", "Went out for {d} km this morning, {k}. Took {t}.",
     "Today was a {k} one - {d} km, {t}.", "{d} km in {t}. It was {k}."],
    # miles beside kilometres, among plans and other people's outings that are no records
    ["{K} {noun}, {mi} mi, {t}.", "{d} km {k} {noun} in {t}.", "Did a {mi} mile {k} {noun} this morning ({t}).",
     "{K} {noun} today: {d} km, {t}.", "Logged a {k} {noun}: {mi} miles in {t}."],
]
#: Several outings in one message (seeds 12 and up): a catch-up of earlier days, each on its own
#: line or clause under its weekday, or yesterday's and today's in one sentence. ``{W}`` is a
#: weekday's short name, ``{Wd}`` its full name.
RECAPS = ["Catch-up from the last few days:\n{lines}", "{clauses}.", "Yesterday a {k} {noun} of {d} km ({t}), today a {k2} one, {d2} km in {t2}."]
RECAP_LINE = "- {W}: {K} {noun}, {d} km, {t}"
RECAP_CLAUSE = "{Wd} {d} km {k} in {t}"
#: Rounds of the last family that hold no record of the user's: a plan, a goal, someone else's.
DISTRACTORS = ["Tomorrow's plan: a {k} {noun} of {d} km.", "My sister did a {d} km {k} {noun} in {t}, faster than me!",
               "Goal for next month: a {d} km {k} {noun} every week."]
#: The invented record nouns and kinds, by seed parity.
NOUNS = ("sollow", "brandle")
KINDS = (["brisk", "drag", "long", "vennick"], ["tarry", "quell", "wide", "ossic"])
MILE_KM = 1.609344
#: Each kind's distance range (km) and pace (min/km): the kinds differ, as real ones do.
SHAPES = [((6, 9), 4.6), ((4, 6), 6.0), ((12, 18), 5.4), ((3, 5), 5.6)]
CHAT = ["Any tips for sore calves?", "Rained all day, stayed in.", "New shoes arrived, bright orange.",
        "My neighbour Tolle asked about the route again."]


def _clock(minutes: float) -> str:
    whole = int(minutes)
    seconds = int((minutes % 1) * 60)
    return f"{whole}:{seconds:02d}" if minutes < 60 else f"{whole // 60}:{whole % 60:02d}:{seconds:02d}"


def _outing(rng: random.Random, kinds: list[str], shape: dict) -> tuple[str, float, float]:
    k = rng.choice(kinds)
    (lo, hi), pace = shape[k]
    km = round(rng.uniform(lo, hi), 1)
    return k, km, km * pace * rng.uniform(0.95, 1.05)


def _recap(rng: random.Random, day: date, kinds: list[str], shape: dict, noun: str) -> tuple[str, list[tuple[date, str, float, float]]]:
    """(text, [(day, kind, km, minutes)]) of one message holding several outings."""
    form = rng.choice(RECAPS)
    if form.startswith("Yesterday"):
        (k, km, m), (k2, km2, m2) = _outing(rng, kinds, shape), _outing(rng, kinds, shape)
        text = form.format(k=k, noun=noun, d=km, t=_clock(m), k2=k2, d2=km2, t2=_clock(m2))
        return text, [(day - timedelta(days=1), k, km, m), (day, k2, km2, m2)]
    back = sorted(rng.sample(range(1, 6), rng.randint(2, 3)), reverse=True)
    outings = [(day - timedelta(days=b), *_outing(rng, kinds, shape)) for b in back]
    parts = [(RECAP_LINE if "{lines}" in form else RECAP_CLAUSE).format(
        W=d.strftime("%a"), Wd=d.strftime("%A"), K=k.capitalize(), k=k, noun=noun, d=km, t=_clock(m)) for d, k, km, m in outings]
    text = form.format(lines="\n".join(parts), clauses="; ".join(parts))
    return text, outings


def scenario(seed: int, noun: str, kinds: list[str]) -> tuple[dict, list[dict]]:
    """(dialog, records) of one log."""
    rng = random.Random(seed)
    layouts = LAYOUTS[min(seed // 2, len(LAYOUTS) - 1)]
    shape = dict(zip(kinds, SHAPES))
    nouns = noun + ("es" if noun.endswith("s") else "s")

    def outing(rng: random.Random, day: date) -> Entry:
        k = rng.choice(kinds)
        (lo, hi), pace = shape[k]
        km = round(rng.uniform(lo, hi), 1)
        minutes = km * pace * rng.uniform(0.95, 1.05)
        if seed >= 12 and rng.random() < 0.5:
            text, outings = _recap(rng, day, kinds, shape, noun)
            return text, [(d, "outing", {"kind": k, "distance_km": km, "duration_min": round(m, 2)}) for d, k, km, m in outings], "Logged."
        if layouts is LAYOUTS[-1] and rng.random() < 0.15:
            return rng.choice(DISTRACTORS).format(d=km, k=k, noun=noun, t=_clock(minutes)), [], "Noted."
        layout = rng.choice(layouts)
        miles = round(km / MILE_KM, 1)
        if "{mi}" in layout:
            km = round(miles * MILE_KM, 3)
        text = layout.format(d=km, mi=miles, k=k, K=k.capitalize(), noun=noun, Noun=noun.capitalize(), t=_clock(minutes))
        observed = day - timedelta(days=1) if layout.startswith("Yesterday") else day
        return text, [(observed, "outing", {"kind": k, "distance_km": km, "duration_min": round(minutes, 2)})], "Logged."

    sessions, records = history(rng, date(2025, 3, 1), date(2025, 6, 1), CHAT, 0.25, outing)
    qas = []
    for k in kinds:
        mine = [r for r in records if r["fields"]["kind"] == k]
        km = [r["fields"]["distance_km"] for r in mine]
        april = [r["fields"]["distance_km"] for r in mine if r["observed"].startswith("2025-04")]
        qas += [
            {"point": "AVG", "question": f"What was my average distance on {k} {nouns}?", "answer_value": round(sum(km) / len(km), 2),
             "answer_type": "number", "tolerance": 0.05, "unit": "km"},
            {"point": "CNT", "question": f"How many {k} {nouns} did I log?", "answer_value": len(km), "answer_type": "number", "tolerance": 0},
            {"point": "SUM", "question": f"How many km of {k} {nouns} did I do in April?", "answer_value": round(sum(april), 1),
             "answer_type": "number", "tolerance": 0.05, "unit": "km"},
            {"point": "MAX", "question": f"What was my longest {k} {noun}, in km?", "answer_value": max(km), "answer_type": "number",
             "tolerance": 0.05, "unit": "km"},
        ]
    count = {k: sum(1 for r in records if r["fields"]["kind"] == k) for k in kinds}
    qas.append({"point": "MAX", "question": f"Which kind of {noun} did I do most often?", "answer_value": max(count, key=count.get),
                "answer_type": "string", "tolerance": 0, "candidates": kinds})
    qas.append({"point": "AVG", "question": f"What share of my {nouns} were {kinds[2]} {nouns}, as a percentage?",
                "answer_value": round(100 * count[kinds[2]] / len(records), 1), "answer_type": "number", "tolerance": 0.5})
    return {"character_profile": {"name": "outings"}, "multi_session_dialogues": sessions, "human-annotated QAs": qas}, records


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", help="directory to write dialog/, records/ and score.py into")
    p.add_argument("--seed", type=int, action="append", help="one scenario per seed (default: 0 to 13)")
    p.add_argument("--noun", default="", help="the record's noun (default: an invented word per seed)")
    p.add_argument("--kinds", default="", help="four comma-separated kinds (default: invented words per seed)")
    args = p.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    if kinds and len(kinds) != 4:
        print("error: --kinds takes four comma-separated words", file=sys.stderr)
        return 2
    seeds = args.seed or range(14)
    write(args.out, ((f"outings{seed}", *scenario(seed, args.noun or NOUNS[seed % 2], kinds or KINDS[seed % 2])) for seed in seeds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
