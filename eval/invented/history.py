"""One scenario's history: sessions, rounds, the records behind them and the one-off facts.

The order matters for reproducibility: session days first, then the records' days and values
(drawn from the domain's means with a drift over the period and a per-category effect, so that
trends and group comparisons exist), then the rounds. Each record is rendered in one layout
(:mod:`~.render`), typed or as a screenshot caption; some sessions pack several records into a
week view. Distractors and facts (:mod:`~.chatter`) fill each session to 6-10 rounds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from adamm.eval.invented import chatter, render
from adamm.eval.invented.dates import cue
from adamm.eval.invented.domain import Domain
from adamm.eval.invented.render import Record
from adamm.eval.invented.units import Shown, quantize, show
from adamm.eval.invented.words import Lexicon


@dataclass
class Scenario:
    domain: Domain
    profile: dict[str, Any]
    sessions: list[dict[str, Any]]  #: Mem-Gallery sessions, ready to write
    records: list[Record]  #: in round order
    facts: list[chatter.Fact] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.domain.name

    def session_day(self, round_id: str) -> date:
        sid = round_id.split(":")[0]
        return next(date.fromisoformat(s["date"]) for s in self.sessions if s["session_id"] == sid)


def _session_days(rng: random.Random, n: int) -> list[date]:
    """``n`` session days, 5-11 days apart, spanning 63-92 days inside 2025."""
    while True:
        start = date(2025, 1, 6) + timedelta(days=rng.randint(0, 120))
        gaps = [rng.randint(5, 11) for _ in range(n - 1)]
        if 63 <= sum(gaps) <= 92:
            days = [start]
            for g in gaps:
                days.append(days[-1] + timedelta(days=g))
            return days


def _record_days(rng: random.Random, sessions: list[date]) -> list[list[date]]:
    """Distinct observed days per session (25-45 in all), each after the previous session."""
    while True:
        out = []
        for i, sd in enumerate(sessions):
            first = sessions[i - 1] + timedelta(days=1) if i else sd - timedelta(days=6)
            window = [first + timedelta(days=k) for k in range((sd - first).days + 1)]
            out.append(sorted(rng.sample(window, min(len(window), rng.randint(2, 5)))))
        if 25 <= sum(len(x) for x in out) <= 45:
            return out


def _draw(dom: Domain, rng: random.Random, day: date, lo: date, hi: date, seq: int) -> Record:
    t = (day - lo).days / max(1, (hi - lo).days)
    values: dict[str, Decimal | str] = {}
    shown: dict[str, Shown] = {}
    effect = 1.0
    for c in dom.cats:
        if c.optional and rng.random() < c.optional:
            continue
        v = rng.choices(c.values, weights=c.weights)[0]
        values[c.key], shown[c.key] = v, Shown(v, v)
        effect *= c.effect[c.values.index(v)]
    for i, f in enumerate(dom.nums):
        if f.optional and rng.random() < f.optional:
            continue
        x = float(f.mean) * (1 + f.drift * (t - 0.5)) * (effect if i < 2 else 1.0) * (1 + rng.gauss(0, f.spread))
        x = max(x, 0.3 * float(f.mean))
        places = 0 if f.measure.kind == "duration" else f.measure.decimals
        s = show(f.measure, quantize(Decimal(f"{x:.6f}"), places), rng, f.alt_share)
        values[f.key], shown[f.key] = s.value, s
    if dom.entity:
        v = rng.choices(dom.entity.values, weights=dom.entity.weights)[0]
        values[dom.entity.key], shown[dom.entity.key] = v, Shown(v, v)
    return Record(seq=seq, day=day, values=values, shown=shown)


def _intro(dom: Domain) -> tuple[str, str]:
    first = dom.person[0]
    labels = [f.label for f in dom.nums] + [c.label for c in dom.cats] + ([dom.entity.label] if dom.entity else [])
    real = next(f for f in dom.nums if f.measure.kind in ("distance", "mass", "duration"))
    other = {"distance": "miles instead of km", "mass": "pounds instead of kg", "duration": "hours"}[real.measure.kind]
    return (f"Hi, I'm {first}. I do {dom.kind} a few times a week and want a proper log of every {dom.noun}: "
            f"{', '.join(labels[:-1])} and {labels[-1]}. Heads-up: the {dom.app} app sometimes shows {real.label} in {other}.",
            f"Welcome, {first}! Send your {dom.nouns} however you like - typed, or screenshots from {dom.app}. "
            f"I'll keep {real.label} in {real.measure.spoken()} in the log.")


def _round(sid: str, k: int, user: str, assistant: str, captions: list[str], scenario: str, img: list[int]) -> dict[str, Any]:
    ids, paths = [], []
    for _ in captions:
        img[0] += 1
        ids.append(f"{sid}:IMG_{img[0]:03d}")
        paths.append(f"../image/{scenario}/{sid}_IMG_{img[0]:03d}.jpg")
    return {"round": f"{sid}:{k}", "user": user, "assistant": assistant, "image_id": ids, "input_image": paths,
            "image_caption": captions}


def build(dom: Domain, lex: Lexicon, rng: random.Random, styles: bool = False) -> Scenario:
    """The whole history of one domain."""
    n_sessions = rng.randint(8, 12)
    sdays = _session_days(rng, n_sessions)
    rdays = _record_days(rng, sdays)
    lo, hi = rdays[0][0], rdays[-1][-1]
    records: list[Record] = []
    per_session: list[list[Record]] = []
    for days in rdays:
        per_session.append([_draw(dom, rng, d, lo, hi, len(records) + j) for j, d in enumerate(days)])
        records.extend(per_session[-1])
    values = {f.key: [r.values[f.key] for r in records if f.key in r.values] for f in dom.nums}  # type: ignore[misc]
    kinds = rng.sample(chatter.FACT_KINDS, rng.choice((5, 6)))
    fact_at = dict(zip(rng.sample(range(1, n_sessions), len(kinds)), kinds))
    goal = chatter.goal_field(dom, rng, values) if "target" in kinds else ""
    deck: list[int] = []
    sessions, facts = [], []
    for i, (sd, recs) in enumerate(zip(sdays, per_session)):
        sid, img = f"D{i + 1}", [0]
        groups: list[list[Record]] = []
        j = 0
        while j < len(recs):
            size = rng.choice((2, 3)) if len(recs) - j >= 2 and rng.random() < 0.08 else 1
            groups.append(recs[j:j + size])
            j += size
        middle: list[tuple[str, Any]] = [("log", g) for g in groups]
        if i in fact_at:
            fact = chatter.make_fact(fact_at[i], dom, lex, rng, sd, values, goal)
            facts.append(fact)
            middle.append(("fact", fact))
        total = rng.randint(max(6, len(middle) + 2), 10)
        while len(middle) < total - 2:
            middle.append(("distract", None) if rng.random() < 0.4 else ("talk", None))
        rng.shuffle(middle)
        opener = _intro(dom) if i == 0 else (rng.choice(chatter.OPENERS), rng.choice(("Hi! What's new?", "Hello again.")))
        rounds = [_round(sid, 1, *opener, [], dom.name, img)]
        for what, item in middle:
            k = len(rounds) + 1
            if what == "log":
                user, caption = _log_round(dom, item, sd, rng, styles)
                for r in item:
                    r.round, r.session = f"{sid}:{k}", sid
                ack = "All added." if len(item) > 1 else rng.choice(render.ACKS)
                captions = caption if isinstance(caption, list) else [caption] if caption else []
                rounds.append(_round(sid, k, user, ack, captions, dom.name, img))
            elif what == "fact":
                item.round = f"{sid}:{k}"
                rounds.append(_round(sid, k, item.user, item.assistant, [], dom.name, img))
            elif what == "distract":
                rounds.append(_round(sid, k, *chatter.distractor(dom, lex, rng, goal), [], dom.name, img))
            else:
                if not deck:
                    deck.extend(range(len(chatter.SMALL_TALK)))
                    rng.shuffle(deck)
                rounds.append(_round(sid, k, *chatter.SMALL_TALK[deck.pop()], [], dom.name, img))
        rounds.append(_round(sid, len(rounds) + 1, *rng.choice(chatter.CLOSERS), [], dom.name, img))
        sessions.append({"session_id": sid, "date": sd.isoformat(), "dialogues": rounds})
    order = {s["session_id"]: n for n, s in enumerate(sessions)}
    records.sort(key=lambda r: (order[r.session], int(r.round.split(":")[1]), r.seq))
    return Scenario(dom, _profile(dom, rng), sessions, records, facts)


def _log_round(dom: Domain, group: list[Record], sd: date, rng: random.Random, styles: bool = False) -> tuple[str, str | list[str] | None]:
    if len(group) > 1:
        image = rng.random() < 0.7
        for r in group:
            r.layout = "week-image" if image else "week"
        return render.week(dom, group, image, rng, styles, sd)
    rec = group[0]
    layout = rng.choice(render.LAYOUTS + (render.STYLE_LAYOUTS if styles else ()))
    image = layout != "prose" and rng.random() < 0.45
    rec.layout = layout + ("-image" if image else "")
    return render.single(dom, rec, cue(rec.day, sd, rng), layout, image, rng)


def _profile(dom: Domain, rng: random.Random) -> dict[str, Any]:
    first, last = dom.person
    return {"name": f"{first} {last}",
            "persona_summary": (f"{first} is a {rng.randint(24, 66)}-year-old who does {dom.kind} several times a week and "
                                f"logs every {dom.noun} with the assistant, from typed notes or screenshots of the "
                                f"{dom.app} app."),
            "traits": rng.sample(["Methodical", "Cheerful", "Curious", "Patient", "Chatty", "Driven"], 3),
            "conversation_style": "Casual; logs sessions as they happen or in batches, and chats about everyday life."}
