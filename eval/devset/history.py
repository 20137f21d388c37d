"""A deterministic development set for analytic memory: a long personal chat with ground truth.

:func:`generate` writes the history of one (fictional) person who logs a few recurring record
types -- sleep, glucose (CGM), expenses, workouts, games -- in varied ways, mixed with ordinary
conversation, and returns the exact values behind every logged record, so that what adamm
extracts, mines and materializes can be checked, and questions answered independently.

Conventions (what a perfect extractor + normalizer is expected to produce)
-------------------------------------------------------------------------
* One observing round holds exactly one record (one :class:`TruthRecord`); the other rounds
  (``chatter_round_ids``) hold no observation at all.
* ``TruthRecord.values`` maps canonical field names to values in the canonical unit; a field a
  record does not log (before its ``starts_at``, or an omitted optional field) is *absent* from
  the dict, never ``None``.
* Durations: ``h`` fields are ``round(minutes / 60, 4)`` (compare with a tolerance of 1e-3 h);
  ``min`` fields are whole minutes. Money is in USD with 2 decimals; distances in km with 1
  decimal; percentages, heart rates, HRV, glucose and counts are integers.
* Text values are written exactly as stored (categories in lower case, ``result`` is one of
  ``won`` / ``lost`` / ``draw``, ``opponent`` without "the").
* Observed date (``TruthRecord.day``): the day the values are about. A record shared later says
  so in its round: "yesterday" (exactly one day before the round's date) or an explicit date
  ("for Mar 4", "on March 4", year omitted: the most recent such date before the round). A
  sleep record is dated by the wake-up day, as sleep apps do ("last night" = the round's day).
* Game scores are always written "ours-theirs" ("We lost 0-2 to the Ravens").
* Assistant acknowledgements either contain no value, restate a value of the record, or claim
  "X is your best <label> of the past week" only when it is true: X is strictly larger than
  the value of every other record of that domain with observed day in ``[day - 6, day]``
  (including records of that week shared later), and at least two of those were logged before.

Chatter rounds never contain quantities of the logged kinds (durations, money, distances, heart
rates, percentages, glucose, scores, dates). The only digits they contain are the harmless
phrases listed in :data:`CHATTER_NUMBERS` ("2 eggs", "3 cloves of garlic", ...). Some chatter
talks *about* the logged topics without numbers (sleeping badly, a half marathon, a budget),
as hard negatives for retrieval.

Rendering styles (one per record, chosen at random): a dashboard screenshot (an ``ImageRef``
with only an ``image_id`` and a caption) laid out as ``label value · label value``, as
``Title — label: value | ...``, as newline-separated ``label: value`` lines, or as a sentence
with a date header; or a sentence in the user's text. The style of every record is kept in
``TruthRecord.style`` (``caption-dots``, ``caption-pipes``, ``caption-lines``,
``caption-sentence`` or ``sentence``).

This module lays the history out in time (when each record is logged, late or not, between
which chatter) and writes the ground-truth files; the pieces it assembles live beside it:
:mod:`~adamm.eval.devset.model` (the types), :mod:`~adamm.eval.devset.values` (what a record
says), :mod:`~adamm.eval.devset.surface` (how it is written) and
:mod:`~adamm.eval.devset.chatter` (the rounds without a record).

CLI: ``python -m adamm.eval.devset --seed 0 --days 60 --out rounds.jsonl --truth truth.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from adamm.eval.devset.chatter import CHATTER_NUMBERS, chatter_exchange
from adamm.eval.devset.model import (
    DEFAULT_START,
    DevSet,
    Domain,
    Field,
    TruthRecord,
    default_domains,
    format_day,
)
from adamm.eval.devset.surface import Fmt, render_caption, render_sentence
from adamm.eval.devset.values import record_values
from adamm.formats import dump_rounds
from adamm.stores.records import ImageRef, Round

__all__ = [
    "CHATTER_NUMBERS",
    "DEFAULT_START",
    "DevSet",
    "Domain",
    "Field",
    "TruthRecord",
    "default_domains",
    "format_day",
    "generate",
    "load_truth",
    "main",
    "rows",
    "truth_to_json",
    "write_jsonl",
    "write_truth",
]

# -- what the user and the assistant say around a record -----------------------------------

_SCREENSHOT_TEXT = {
    "sleep": ("Here's last night's sleep.", "Morning sleep report.", "Sleep screenshot.", ""),
    "glucose": ("Today's CGM summary.", "Glucose for today.", ""),
    "expenses": ("Receipt from today.", "Another expense.", ""),
    "workouts": ("Run summary from my watch.", "Today's run.", ""),
    "games": ("League app result.", "Tonight's game.", ""),
}
_LATE_TEXT = ("Found this in my screenshots.", "Catching up on my logs.", "Forgot to share this one.", "")
_ACKS = ("Logged.", "Got it, saved to your log.", "Noted.", "Thanks, recorded.")
_HIGHLIGHT = {"sleep": "sleep_score", "glucose": "time_in_range", "workouts": "distance"}
_RESTATE = {"sleep": "total_sleep", "glucose": "time_in_range", "expenses": "amount",
            "workouts": "distance"}


# -- generation ---------------------------------------------------------------------------


_TIME_OF_DAY = {  # (earliest, latest) minute of the day for same-day logging
    "sleep": (6 * 60 + 30, 9 * 60 + 30),
    "glucose": (20 * 60, 22 * 60 + 30),
    "expenses": (11 * 60, 21 * 60),
    "workouts": (17 * 60 + 30, 20 * 60 + 30),
    "games": (19 * 60, 22 * 60),
}


def _at(day: date, minute: int) -> datetime:
    return datetime.combine(day, time(minute // 60, minute % 60))


@dataclass
class _Draft:
    ts: datetime
    tiebreak: float
    user_text: str
    assistant_text: str
    caption: str | None
    record: TruthRecord | None = None
    late: bool = False


def generate(
    seed: int = 0,
    days: int = 60,
    domains: tuple[Domain, ...] | None = None,
    chatter_per_day: float = 1.0,
    *,
    start: date = DEFAULT_START,
    late_rate: float = 0.15,
) -> DevSet:
    """A chat history of ``days`` days starting on ``start``, fully determined by ``seed``.

    Each domain logs one record every ``every_days`` days (``ceil`` or ``floor`` of
    ``days / every_days`` records, from a random phase); about ``late_rate`` of the records are
    shared one to three days after the day they are about. ``chatter_per_day`` rounds of
    ordinary conversation are mixed in (the fractional part is a probability per day).
    """
    if days < 1:
        raise ValueError("days must be at least 1")
    if chatter_per_day < 0:
        raise ValueError("chatter_per_day must not be negative")
    domains = default_domains(days) if domains is None else tuple(domains)
    names = [d.name for d in domains]
    if len(set(names)) != len(names):
        raise ValueError("domain names must be unique")
    for dom in domains:
        if dom.every_days <= 0:
            raise ValueError(f"domain {dom.name!r}: every_days must be positive")
    rng = random.Random(seed)
    drafts: list[_Draft] = []

    for dom in domains:
        phase = rng.uniform(0, min(dom.every_days, days))
        k = 0
        while True:
            offset = int(k * dom.every_days + phase)
            if offset >= days:
                break
            day = start + timedelta(days=offset)
            values = record_values(rng, dom, k)
            delay = 0
            if rng.random() < late_rate:
                delay = 1 if rng.random() < 0.5 else rng.randint(2, 3)
            if delay:
                ts = _at(day + timedelta(days=delay), rng.randint(9 * 60, 22 * 60))
            else:
                lo, hi = _TIME_OF_DAY.get(dom.name, (9 * 60, 22 * 60))
                ts = _at(day, rng.randint(lo, hi))
            drafts.append(_render(rng, dom, values, day, delay, ts))
            k += 1

    whole, frac = int(chatter_per_day), chatter_per_day - int(chatter_per_day)
    deck: list[int] = []
    for offset in range(days):
        n = whole + (1 if rng.random() < frac else 0)
        for _ in range(n):
            user, assistant = chatter_exchange(rng, deck)
            ts = _at(start + timedelta(days=offset), rng.randint(8 * 60, 23 * 60))
            drafts.append(_Draft(ts, rng.random(), user, assistant, None))

    drafts.sort(key=lambda d: (d.ts, d.tiebreak))
    rounds: list[Round] = []
    truth: list[TruthRecord] = []
    chatter: list[str] = []
    logged: dict[str, list[TruthRecord]] = {}
    every: dict[str, list[TruthRecord]] = {}
    for d in drafts:
        if d.record is not None:
            every.setdefault(d.record.domain, []).append(d.record)
    for order, d in enumerate(drafts):
        rid = f"r{order:04d}"
        images = [ImageRef(image_id=f"img{order:04d}", caption=d.caption)] if d.caption else []
        assistant = d.assistant_text
        if d.record is not None:
            d.record.round_id = rid
            logged.setdefault(d.record.domain, []).append(d.record)
            dom = next(x for x in domains if x.name == d.record.domain)
            assistant = _ack(rng, d, logged[dom.name], every[dom.name], dom)
            truth.append(d.record)
        else:
            chatter.append(rid)
        rounds.append(Round(
            round_id=rid, session_id=f"s-{d.ts.date().isoformat()}", order=order, timestamp=d.ts,
            user_text=d.user_text, assistant_text=assistant, images=images,
        ))
    return DevSet(rounds, truth, domains, chatter, seed=seed, days=days, start=start)


def _render(rng: random.Random, dom: Domain, values: dict[str, Any], day: date, delay: int, ts: datetime) -> _Draft:
    record = TruthRecord("", dom.name, day, dict(values))
    if not values:  # every field omitted: nothing to log, but keep the record honest
        raise ValueError(f"domain {dom.name!r} produced a record with no values")
    if rng.random() < 0.55:
        # a dated header when late (always) or, sometimes, on the same day
        dated = delay > 0 or rng.random() < 0.25
        style, caption = render_caption(rng, dom, values, day, dated)
        if delay:
            user = rng.choice(_LATE_TEXT)
        else:
            user = rng.choice(_SCREENSHOT_TEXT.get(dom.name, ("Today's numbers.", "")))
        record.style = style
        return _Draft(ts, rng.random(), user, "", caption, record, late=delay > 0)
    if delay == 0:
        when = None
    elif delay == 1 and rng.random() < 0.7:
        when = "yesterday"
    else:
        when = format_day(day, long=rng.random() < 0.3)
    record.style = "sentence"
    return _Draft(ts, rng.random(), render_sentence(rng, dom, values, when), "", None, record, late=delay > 0)


def _ack(rng: random.Random, draft: _Draft, so_far: list[TruthRecord], every: list[TruthRecord],
         dom: Domain) -> str:
    """The assistant's reply: a plain ack, a restated value, or a true "best of the week".

    "Best of the past week" is claimed only when it holds both for what was logged so far and
    for the final history (a record of that week shared later does not beat it either), and the
    week holds at least two other records.
    """
    rec = draft.record
    assert rec is not None
    v = rec.values
    if dom.name == "games" and "result" in v and rng.random() < 0.6:
        return {"won": "Congrats on the win!", "lost": "Tough one. Next game!", "draw": "A draw, fair enough."}.get(
            str(v["result"]), rng.choice(_ACKS))
    roll = rng.random()
    hl = _HIGHLIGHT.get(dom.name)
    if hl and hl in v and roll < 0.35:
        f = dom.field(hl)
        window = [r for r in every if r is not rec and hl in r.values and 0 <= (rec.day - r.day).days <= 6]
        known = [r for r in window if any(r is x for x in so_far)]
        if len(known) >= 2 and all(v[hl] > r.values[hl] for r in window):
            label = f.labels[0].lower()
            return f"Nice, {Fmt(rng, allow_colon=False)(f, v[hl])} is your best {label} of the past week."
    restate = _RESTATE.get(dom.name)
    if restate and restate in v and roll < 0.7:
        f = dom.field(restate)
        label = f.labels[0].lower()
        when = f" for {format_day(rec.day)}" if draft.late else ""
        return f"Logged{when}: {label} {Fmt(rng, allow_colon=False)(f, v[restate])}."
    return rng.choice(_ACKS)


# -- ground-truth views and files ---------------------------------------------------------


def rows(devset: DevSet, domain: str) -> list[dict[str, Any]]:
    """The domain's records as table rows (``round_id``, ``day``, ``timestamp``, values), by day.

    This is the table a perfect ingestion would materialize; use it to compute exact answers.
    """
    ts = {r.round_id: r.timestamp for r in devset.rounds}
    order = {r.round_id: r.order for r in devset.rounds}
    recs = sorted((t for t in devset.truth if t.domain == domain), key=lambda t: (t.day, order[t.round_id]))
    return [{"round_id": t.round_id, "day": t.day, "timestamp": ts[t.round_id], **t.values} for t in recs]


def _domain_json(d: Domain) -> dict[str, Any]:
    return {"name": d.name, "every_days": d.every_days, "fields": [
        {"name": f.name, "unit": f.unit, "kind": f.kind, "labels": list(f.labels),
         "starts_at": f.starts_at, "optional": f.optional} for f in d.fields]}


def truth_to_json(devset: DevSet) -> dict[str, Any]:
    return {
        "seed": devset.seed,
        "days": devset.days,
        "start": devset.start.isoformat(),
        "domains": [_domain_json(d) for d in devset.domains],
        "records": [{"round_id": t.round_id, "domain": t.domain, "day": t.day.isoformat(),
                     "values": t.values, "style": t.style} for t in devset.truth],
        "chatter_round_ids": list(devset.chatter_round_ids),
    }


def write_truth(devset: DevSet, path: str | os.PathLike[str]) -> None:
    Path(path).write_text(json.dumps(truth_to_json(devset), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def load_truth(path: str | os.PathLike[str]) -> tuple[tuple[Domain, ...], list[TruthRecord], list[str]]:
    """Read a truth file written by :func:`write_truth`: (domains, records, chatter round ids)."""
    obj = json.loads(Path(path).read_text(encoding="utf-8"))
    domains = tuple(
        Domain(d["name"], tuple(Field(f["name"], f["unit"], f["kind"], tuple(f["labels"]), f["starts_at"],
                                      f["optional"]) for f in d["fields"]), d["every_days"])
        for d in obj["domains"])
    records = [TruthRecord(r["round_id"], r["domain"], date.fromisoformat(r["day"]), r["values"], r.get("style", ""))
               for r in obj["records"]]
    return domains, records, list(obj["chatter_round_ids"])


def write_jsonl(devset: DevSet, path: str | os.PathLike[str]) -> int:
    """Write the rounds in adamm's JSONL format (loadable with ``adamm.formats.load``)."""
    return dump_rounds(devset.rounds, path)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m adamm.eval.devset", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--days", type=int, default=60)
    p.add_argument("--chatter-per-day", type=float, default=1.0)
    p.add_argument("--out", required=True, help="rounds JSONL file to write")
    p.add_argument("--truth", help="ground-truth JSON file to write")
    args = p.parse_args(argv)
    ds = generate(args.seed, args.days, chatter_per_day=args.chatter_per_day)
    n = write_jsonl(ds, args.out)
    if args.truth:
        write_truth(ds, args.truth)
    print(f"{n} rounds ({len(ds.truth)} records, {len(ds.chatter_round_ids)} chatter) -> {args.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
