#!/usr/bin/env python3
"""Deterministic generator for two free-text logging scenarios (Python 3.11 standard library only).

    python3 generate.py        # writes dialog/<scenario>.json and records/<scenario>.jsonl, prints a summary

* daily_journal -- Nadia, who chats her evening check-ins in flowing prose: sleep, coffees,
  meditation, mood, office/home day, and meals out (place, company, cost), several in one message.
* notes_app     -- Dev, who pastes terse notes-app lines: steps, water, weight, workout, #tag.

Values come from per-date ``random.Random`` instances seeded with fixed strings, texts from one
scenario-level ``random.Random`` seeded with a fixed string, gold answers from exact ``Fraction`` /
``Decimal`` arithmetic over the very records that were rendered. Nothing is written unless every
check passes (values literally in their rounds, dates recoverable, clues present, lists sorted).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import sys
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

HERE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent  # where dialog/ and records/ go
LB_KG = Fraction(45359237, 100000000)          # 1 lb = 0.45359237 kg (exact)
WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen twenty").split()
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WD_ABBR = (("mon",), ("tue", "tues"), ("wed", "weds"), ("thu", "thur", "thurs"), ("fri",), ("sat",), ("sun",))
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def D(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def F(x) -> Fraction:
    return Fraction(str(x)) if isinstance(x, (str, float)) else Fraction(x)


def jnum(x: Fraction):
    """A Fraction as a JSON number (int when whole)."""
    x = Fraction(x)
    return int(x) if x.denominator == 1 else float(x)


def rnd(x: Fraction, places: int) -> Decimal:
    q = Decimal(1).scaleb(-places)
    return (Decimal(x.numerator) / Decimal(x.denominator)).quantize(q, rounding=ROUND_HALF_UP) if places >= 0 else None


def rval(x: Fraction, places: int):
    d = rnd(x, places)
    return int(d) if places == 0 else float(d)


def mean(xs) -> Fraction:
    xs = list(xs)
    assert xs, "mean of nothing"
    return sum(xs, Fraction(0)) / len(xs)


def nice_date(d: dt.date) -> str:
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def ordinal_words(n: int) -> str:
    return WORDS[n] if n < len(WORDS) else str(n)


# ---------------------------------------------------------------------------------------------
# surface parsing (used only by the checks: every rendered surface must read back as its value)
# ---------------------------------------------------------------------------------------------

def _n(tok: str) -> Fraction:
    tok = tok.lower().strip()
    if re.fullmatch(r"\d+(?:\.\d+)?", tok):
        return Fraction(tok)
    return Fraction(WORDS.index(tok))


def parse_minutes(s: str) -> Fraction:
    t = s.lower().strip()
    if t == "half an hour":
        return Fraction(30)
    pats = (
        (r"(\w+) and a half hours?", lambda g: (_n(g[0]) + Fraction(1, 2)) * 60),
        (r"(\w+) and a quarter hours?", lambda g: (_n(g[0]) + Fraction(1, 4)) * 60),
        (r"(\w+) and three quarter hours?", lambda g: (_n(g[0]) + Fraction(3, 4)) * 60),
        (r"(\d+)h ?(\d{1,2})(?:m|min)?", lambda g: _n(g[0]) * 60 + _n(g[1])),
        (r"(\d+) ?(?:hours|hrs|hr|hour|h)", lambda g: _n(g[0]) * 60),
        (r"(\d+) hours (\d+)(?: minutes| mins)?", lambda g: _n(g[0]) * 60 + _n(g[1])),
        (r"(\d+\.\d+|\w+) (?:hours|hrs|hour)", lambda g: _n(g[0]) * 60),
        (r"(\d+|\w+)[ -]?(?:minutes|minute|mins|min|m)", lambda g: _n(g[0])),
        (r"(\d+)", lambda g: _n(g[0])),
    )
    for rx, fn in pats:
        m = re.fullmatch(rx, t)
        if m:
            return fn(m.groups())
    raise ValueError(f"cannot read minutes from {s!r}")


def parse_count(s: str) -> Fraction:
    m = re.search(r"\b(\d+|" + "|".join(WORDS) + r")\b", s.lower())
    if not m:
        raise ValueError(s)
    return _n(m.group(1))


def parse_gbp(s: str) -> Fraction:
    m = re.fullmatch(r"£?(\d+(?:\.\d{2})?)", s.strip())
    if not m:
        raise ValueError(s)
    return Fraction(m.group(1))


def parse_steps(s: str) -> Fraction:
    t = s.strip().lower()
    m = re.fullmatch(r"(\d+(?:\.\d+)?)k", t)
    if m:
        return Fraction(m.group(1)) * 1000
    m = re.fullmatch(r"\d{1,3}(?:,\d{3})+|\d+", t)
    if m:
        return Fraction(t.replace(",", ""))
    raise ValueError(s)


def parse_kg(s: str) -> Fraction:
    t = s.strip().lower()
    m = re.fullmatch(r"(\d+)\s?st\s?(\d+)\s?(?:lb|lbs)?", t)
    if m:
        return (int(m.group(1)) * 14 + int(m.group(2))) * LB_KG
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s?(?:lb|lbs)", t)
    if m:
        return Fraction(m.group(1)) * LB_KG
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s?(?:kg)?", t)
    if m:
        return Fraction(m.group(1))
    raise ValueError(s)


def parse_litres(s: str) -> Fraction:
    t = s.strip().lower()
    m = re.fullmatch(r"(\d+)\s?ml", t)
    if m:
        return Fraction(int(m.group(1)), 1000)
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s?(?:l|ltr|litres|litre|liters)?", t)
    if m:
        return Fraction(m.group(1))
    raise ValueError(s)


PARSERS = {
    "sleep_min": parse_minutes, "meditation_min": parse_minutes, "workout_min": parse_minutes,
    "coffee_cups": parse_count, "cost_gbp": parse_gbp, "steps": parse_steps, "weight_kg": parse_kg,
    "water_l": parse_litres,
}


def parse_written_date(text: str, year: int) -> list[dt.date]:
    out = []
    mon = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
    for m in re.finditer(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+" + mon + r"\b", text, re.I):
        out.append(dt.date(year, [x[:3].lower() for x in MONTHS].index(m.group(2).lower()) + 1, int(m.group(1))))
    for m in re.finditer(r"\b" + mon + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b", text, re.I):
        out.append(dt.date(year, [x[:3].lower() for x in MONTHS].index(m.group(1).lower()) + 1, int(m.group(2))))
    for m in re.finditer(r"\b(\d{4})-(\d{2})-(\d{2})\b", text):
        out.append(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
    return out


# ---------------------------------------------------------------------------------------------
# the dialogue builder
# ---------------------------------------------------------------------------------------------

class Builder:
    def __init__(self, name: str, profile: dict, image_dir: str):
        self.name = name
        self.profile = profile
        self.image_dir = image_dir
        self.sessions: list[dict] = []
        self.records: list[dict] = []
        self.qas: list[dict] = []
        self.facts: dict[str, str] = {}
        self.rng = random.Random(f"{name}:text:v1")
        self.n_img = 0

    # sessions and rounds
    def session(self, date: str) -> dict:
        s = {"session_id": f"D{len(self.sessions) + 1}", "date": date, "dialogues": [], "_date": D(date)}
        self.sessions.append(s)
        return s

    def round(self, s: dict, user: str, assistant: str, recs=(), captions=(), fact: str | None = None) -> str:
        rid = f"{s['session_id']}:{len(s['dialogues']) + 1}"
        ids, paths = [], []
        for _ in captions:
            self.n_img += 1
            k = len(ids) + 1
            num = sum(len(r["image_id"]) for r in s["dialogues"]) + k
            ids.append(f"{s['session_id']}:IMG_{num:03d}")
            paths.append(f"../image/{self.image_dir}/{s['session_id']}_IMG_{num:03d}.jpg")
        s["dialogues"].append({"round": rid, "user": user, "assistant": assistant, "image_id": ids,
                               "input_image": paths, "image_caption": list(captions)})
        for r in recs:
            r["round"] = rid
            r["_session"] = s
            self.records.append(r)
        if fact:
            for key in fact.split(","):
                assert key not in self.facts, key
                self.facts[key] = rid
        return rid

    def round_text(self, rid: str) -> str:
        sid = rid.split(":")[0]
        s = next(x for x in self.sessions if x["session_id"] == sid)
        r = next(x for x in s["dialogues"] if x["round"] == rid)
        return r["user"] + "\n" + "\n".join(r["image_caption"])

    # questions
    def qa(self, point: str, question: str, answer: str, value, kind: str, clue, tol=0, unit=None,
           candidates=None):
        clue = list(clue)
        order = {r["round"]: i for s in self.sessions for i, r in enumerate(s["dialogues"])}
        sidx = {s["session_id"]: i for i, s in enumerate(self.sessions)}
        clue = sorted(set(clue), key=lambda rid: (sidx[rid.split(":")[0]], order[rid]))
        sessions = []
        for rid in clue:
            sid = rid.split(":")[0]
            if sid not in sessions:
                sessions.append(sid)
        q = {"point": point, "question": question, "answer": answer, "session_id": sessions, "clue": clue,
             "answer_value": value, "answer_type": kind, "tolerance": tol}
        if unit:
            q["unit"] = unit
        if candidates:
            q["candidates"] = list(candidates)
        self.qas.append(q)

    # output
    def dialog_json(self) -> dict:
        sessions = [{k: v for k, v in s.items() if not k.startswith("_")} for s in self.sessions]
        return {"character_profile": self.profile, "multi_session_dialogues": sessions,
                "human-annotated QAs": self.qas}

    def records_jsonl(self) -> str:
        lines = []
        for r in self.records:
            lines.append(json.dumps({"round": r["round"], "observed": r["observed"].isoformat(),
                                     "record_type": r["record_type"],
                                     "fields": {k: (jnum(v) if isinstance(v, Fraction) else v)
                                                for k, v in r["fields"].items()}}, ensure_ascii=False))
        return "\n".join(lines) + "\n"

    # checks
    def check(self) -> list[str]:
        errs = []
        all_rounds = {r["round"] for s in self.sessions for r in s["dialogues"]}
        for s in self.sessions:
            assert 6 <= len(s["dialogues"]) <= 10, (self.name, s["session_id"], len(s["dialogues"]))
        by_round: dict[str, list[dict]] = {}
        for r in self.records:
            by_round.setdefault(r["round"], []).append(r)
        for rid, recs in by_round.items():
            text = self.round_text(rid)
            low = text.lower()
            sdate = recs[0]["_session"]["_date"]
            multi_dates = len({r["observed"] for r in recs}) > 1
            for r in recs:
                where = f"{self.name} {rid} {r['record_type']} {r['observed']}"
                for f, v in r["fields"].items():
                    surf = r["surf"].get(f)
                    if surf is None:
                        errs.append(f"{where}: no surface for {f}")
                        continue
                    if surf.lower() not in low:
                        errs.append(f"{where}: surface {surf!r} of {f} not in round")
                    if isinstance(v, Fraction):
                        try:
                            got = PARSERS[f](surf)
                        except (ValueError, KeyError) as e:
                            errs.append(f"{where}: cannot parse {surf!r} for {f}: {e}")
                            continue
                        if got != v:
                            errs.append(f"{where}: {f} surface {surf!r} reads {got} != {v}")
                    elif str(v).lower() not in surf.lower():
                        errs.append(f"{where}: {f} value {v!r} not in surface {surf!r}")
                kind, cue = r["cue"]
                delta = (sdate - r["observed"]).days
                if kind == "none":
                    ok = delta == 0 and not multi_dates
                elif kind == "today":
                    ok = delta == 0 and cue.lower() in low and re.search(r"\b(today|tonight|this (morning|evening)|tdy)\b", cue, re.I)
                elif kind == "yesterday":
                    ok = delta == 1 and cue.lower() in low and re.search(r"\b(yesterday|last night|yday)\b", cue, re.I)
                elif kind == "weekday":
                    names = (WEEKDAYS[r["observed"].weekday()].lower(),) + WD_ABBR[r["observed"].weekday()]
                    ok = (1 <= delta <= 6 and cue.lower() in low
                          and any(re.search(r"\b" + n + r"\b", cue.lower()) for n in names))
                elif kind == "date":
                    ok = cue.lower() in low and r["observed"] in parse_written_date(cue, r["observed"].year) and delta >= 0
                else:
                    ok = False
                if not ok:
                    errs.append(f"{where}: date cue {kind} {cue!r} does not give the date (session {sdate})")
        for q in self.qas:
            for c in q["clue"]:
                if c not in all_rounds:
                    errs.append(f"{self.name}: clue {c} missing for {q['question']}")
            if not q["clue"]:
                errs.append(f"{self.name}: no clue for {q['question']}")
            v = q["answer_value"]
            if q["answer_type"] == "list":
                if v != sorted(set(v)) or not v:
                    errs.append(f"{self.name}: list answer not sorted/unique: {q['question']}")
                if q.get("candidates") and not set(v) <= set(q["candidates"]):
                    errs.append(f"{self.name}: list answer outside candidates: {q['question']}")
            if q["answer_type"] == "string" and q.get("candidates") and v not in q["candidates"]:
                errs.append(f"{self.name}: answer not a candidate: {q['question']}")
        qs = [q["question"] for q in self.qas]
        if len(qs) != len(set(qs)):
            errs.append(f"{self.name}: duplicate questions")
        return errs


def cue_for(sdate: dt.date, d: dt.date, rng: random.Random, multi: bool, style: str = "auto"):
    """A natural date cue for day ``d`` seen from session date ``sdate``: (kind, text)."""
    delta = (sdate - d).days
    assert delta >= 0
    wd = WEEKDAYS[d.weekday()]
    if delta == 0:
        if multi or style == "today":
            return ("today", "Today" if style != "tdy" else "tdy")
        return ("none", "")
    if delta == 1 and style in ("auto", "yesterday") and rng.random() < 0.75:
        return ("yesterday", "Yesterday")
    if delta <= 6 and style != "date":
        return ("weekday", wd)
    return ("date", f"{wd} {d.day} {MONTHS[d.month - 1]}")


def fits(t: str, d: dt.date) -> bool:
    """Whether a tagged phrase ([wd] weekdays, [we] weekends, [sun] Sundays) suits day ``d``."""
    if "[wd]" in t:
        return d.weekday() < 5
    if "[we]" in t:
        return d.weekday() >= 5
    if "[sun]" in t:
        return d.weekday() == 6
    return True


def untag(t: str) -> str:
    return re.sub(r"\s*\[(wd|we|sun)\]", "", t)


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


# =============================================================================================
# Scenario 1: daily_journal -- chatty evening check-ins in prose
# =============================================================================================

J_PROFILE = {
    "name": "Nadia Hussain",
    "persona_summary": ("32, product manager at a payments start-up in Manchester, hybrid working (office "
                        "mid-week, home the rest). Started seeing a therapist in September after an anxious "
                        "summer and keeps a loose daily log by chatting it to the assistant in the evening: "
                        "how she slept, coffees, meditation, mood, office or home day, and meals out with "
                        "her partner Tom, her best friend Priya, her uni friend Aisha, her colleague Jonno "
                        "and her mum."),
    "traits": ["chatty", "self-deprecating", "British spelling", "approximate with numbers",
               "corrects herself mid-message", "often catches up on several days at once"],
    "conversation_style": ("Long flowing messages in full sentences, numbers as digits or words, hedges like "
                           "'maybe' and 'about', asides about the cat and work; almost never sends pictures."),
}

# meals out: date -> (meal, place, companion or None, my cost, how it is told)
J_MEALS = {
    "2025-09-06": ("brunch", "Federal", "Aisha", "16.50", "plain"),
    "2025-09-11": ("lunch", "Nando's", "Priya", "16.40", "wrong:14.20"),
    "2025-09-12": ("dinner", "Dishoom", "Tom", "29.00", "split:58.00"),
    "2025-09-20": ("dinner", "The Refuge", "Mum", "71.40", "treat"),
    "2025-09-23": ("lunch", "Pret", None, "6.85", "plain"),
    "2025-09-29": ("lunch", "Nando's", "Jonno", "13.75", "plain"),
    "2025-10-02": ("dinner", "Mowgli", "Priya", "24.30", "plain"),
    "2025-10-04": ("brunch", "Federal", "Tom", "18.50", "split:37.00"),
    "2025-10-09": ("lunch", "Wagamama", "Jonno", "15.95", "plain"),
    "2025-10-11": ("dinner", "Dishoom", "Aisha", "32.80", "plain"),
    "2025-10-14": ("lunch", "Pret", None, "7.45", "plain"),
    "2025-10-17": ("dinner", "Nando's", "Tom", "27.60", "plain"),
    "2025-10-21": ("lunch", "Wagamama", "Priya", "16.20", "separate"),
    "2025-10-25": ("dinner", "The Refuge", "Tom", "42.00", "split:84.00"),
    "2025-10-29": ("breakfast", "Federal", None, "9.40", "plain"),
    "2025-11-01": ("brunch", "Evelyn's", "Aisha", "19.85", "plain"),
    "2025-11-04": ("lunch", "Nando's", "Priya", "14.90", "plain"),
    "2025-11-10": ("lunch", "Pret", None, "6.30", "plain"),
    "2025-11-15": ("dinner", "Dishoom", "Tom", "42.41", "receipt"),
    "2025-11-20": ("dinner", "Mowgli", "Jonno", "26.75", "separate"),
    "2025-11-22": ("brunch", "Evelyn's", "Tom", "21.00", "plain"),
}

J_MONTH = {
    9: {"sleep": 402, "coffee": [0, 1, 4, 6, 4, 2, 1], "med_p": 0.5, "med": [5, 10, 10, 12, 15, 15, 20],
        "mood": {"ok": 3, "anxious": 3, "low": 2, "stressed": 2, "calm": 1, "great": 1}},
    10: {"sleep": 380, "coffee": [0, 1, 3, 5, 5, 3, 1], "med_p": 0.62, "med": [10, 10, 12, 15, 15, 20, 25],
         "mood": {"stressed": 3, "anxious": 3, "ok": 2, "low": 2, "calm": 1, "great": 1}},
    11: {"sleep": 428, "coffee": [1, 4, 6, 4, 1, 0, 0], "med_p": 0.8, "med": [10, 15, 15, 20, 20, 25, 30],
         "mood": {"calm": 3, "ok": 3, "great": 2, "anxious": 1, "low": 1, "stressed": 1}},
}

# days whose values are pinned (corrections, special sentences, the day off)
J_PIN = {
    "2025-09-08": {"sleep_min": 360},                 # sleep corrected in the message (5 -> 6 hours)
    "2025-09-30": {"coffee_cups": 3},                 # coffee corrected in the message (two -> three)
    "2025-10-15": {"coffee_cups": 0},                 # zero coffee day
    "2025-10-27": {"workday": "day off"},
    "2025-11-13": {"sleep_min": 480},
    "2025-10-22": {"sleep_min": 300, "mood": "anxious"},
    "2025-11-16": {"meditation_min": 30, "sleep_min": 375},
    "2025-11-05": {"meditation_min": 20},
    "2025-09-18": {"coffee_cups": 3},
}


def j_values(date: str) -> dict:
    d = D(date)
    rng = random.Random(f"daily_journal:day:{date}:v3")
    p = J_MONTH[d.month]
    v: dict = {}
    work = None
    if d.weekday() < 5 and rng.random() < 0.88:
        work = "office" if d.weekday() in (1, 2, 3) and rng.random() < 0.85 else (
            "home" if rng.random() < 0.9 else "office")
    if rng.random() < 0.93:
        m = rng.gauss(p["sleep"] + (22 if work == "home" else -8 if work == "office" else 0), 42)
        m = max(285, min(525, m))
        step = 15 if rng.random() < 0.8 else 5
        v["sleep_min"] = Fraction(int(round(m / step) * step))
    if rng.random() < 0.86:
        v["coffee_cups"] = Fraction(rng.choices(range(7), weights=p["coffee"])[0])
    if rng.random() < p["med_p"]:
        v["meditation_min"] = Fraction(rng.choice(p["med"]))
    if rng.random() < 0.87:
        moods = list(p["mood"])
        v["mood"] = rng.choices(moods, weights=[p["mood"][k] for k in moods])[0]
    if work:
        v["workday"] = work
    for k, val in J_PIN.get(date, {}).items():
        v[k] = Fraction(val) if isinstance(val, int) else val
    order = ("sleep_min", "coffee_cups", "meditation_min", "mood", "workday")
    return {k: v[k] for k in order if k in v}


def j_sleep_surface(m: int, rng: random.Random) -> str:
    h, r = divmod(int(m), 60)
    if r == 0:
        opts = [f"{h} hours", f"{WORDS[h]} hours", f"{h}h"]
    elif r == 30:
        opts = [f"{h} and a half hours", f"{WORDS[h]} and a half hours", f"{h}.5 hours", f"{h}h30"]
    elif r in (15, 45):
        q = "a quarter" if r == 15 else "three quarter"
        opts = [f"{h}h{r}", f"{h}h{r}", f"{WORDS[h]} and {q} hours", f"{h}.{25 if r == 15 else 75} hours"]
    else:
        opts = [f"{h}h{r:02d}", f"{h} hours {r} minutes"]
    return rng.choice(opts)


def j_coffee_surface(n: int, rng: random.Random) -> str:
    if n == 0:
        return rng.choice(["zero coffee", "zero coffees"])
    if n == 1:
        return rng.choice(["one coffee", "just the one coffee"])
    return rng.choice([f"{n} coffees", f"{WORDS[n]} coffees", f"{n} cups of coffee", f"{WORDS[n]} coffees"])


def j_med_surface(n: int, rng: random.Random) -> str:
    if n == 30 and rng.random() < 0.6:
        return "half an hour"
    opts = [f"{n} min", f"{n} minutes", f"{n} mins"]
    if n <= 20:
        opts.append(f"{WORDS[n]} minutes")
    return rng.choice(opts)


SLEEP_BAD = ["Slept badly, maybe {s}.", "Only {s} of sleep, woke at 4 and just lay there.", "Rough night, {s} tops.",
             "Barely {s} of sleep.", "{S} of sleep. That's it, that's the sleep.",
             "Sleep was rubbish, {s} and the neighbours' dog to thank for it."]
SLEEP_MID = ["Slept {s}.", "Got {s} of sleep, which is about par.", "Sleep was {s}, fine-ish.",
             "Watch says {s} asleep.", "{S} of sleep, not terrible.", "Managed about {s} of sleep."]
SLEEP_GOOD = ["Slept {s}!! Actual rest.", "A glorious {s} of sleep.", "Slept {s}, woke up before the alarm for once.",
              "Got a solid {s} of sleep.", "Slept like a log, {s}."]
COFFEE_MANY = ["{C} by noon, ugh.", "{C} (I know, I know).", "Had {c}, the last one at 4pm which was a mistake.",
               "{C}, all before lunch.", "Caffeine situation: {c}."]
COFFEE_FEW = ["Kept it to {c}.", "Only {c}, which felt civilised.", "{C}, and a peppermint tea after that."]
COFFEE_ONE = ["{C}, plus a decaf that doesn't count.", "{C}, proud of that.", "{C} and that was it."]
COFFEE_ZERO = ["{C}, I'm basically a monk now.", "{C}! Mild headache by mid-afternoon but I survived."]
MED = ["Did {m} of meditation though.", "Fit in {m} of meditation before bed.",
       "{M} of meditation in the morning, felt properly settled after.", "Meditated for {m}.",
       "{M} of meditation on the tram, which I'm counting. [wd]", "Squeezed in {m} of meditation at lunch.",
       "{M} of meditation in the park. [we]"]
MED_HYPHEN = ["Did a {m} body scan on Insight Timer.", "Managed a {m} sit before work. [wd]",
              "Did a {m} sit while Tom made breakfast. [we]"]
MOOD = {
    "great": ["Mood: great, honestly.", "Felt great, no notes.", "Mood-wise, great. More days like this please."],
    "calm": ["Feeling calm, weirdly.", "Mood: calm.", "Overall pretty calm."],
    "ok": ["Mood: ok.", "Felt ok, nothing special.", "Mood-wise I'd say ok."],
    "low": ["Mood was low, no real reason.", "Feeling a bit low.", "Low sort of day, mood-wise."],
    "anxious": ["Felt anxious most of the afternoon, no idea why.", "Mood: anxious.",
                "Bit anxious, chest-tight kind of day."],
    "stressed": ["Stressed. Gareth moved the deadline again. [wd]", "Mood: stressed.", "Felt stressed from about 10am onwards."],
}
WORKDAY = {"office": ["Office day.", "Was in the office.", "Went into the office."],
           "home": ["Worked from home.", "Worked from home, kitchen-table life.", "Home day, worked from the sofa mostly."],
           "day off": ["Took a day off.", "Day off, did nothing useful and loved it."]}
J_COLOUR = ["Biscuit knocked a glass off the counter at dawn.", "The tram was rammed again. [wd]",
            "Walked along the canal at lunch.", "Sprint planning went fine in the end. [wd]", "Tom made a curry.",
            "Rained all day, obviously.", "Finally rang the landlord about the boiler.",
            "Read a chapter of the Burkeman book in the bath.", "Inbox zero for about four minutes. [wd]",
            "Did the big Sunday tidy. [sun]", "Gareth cancelled our 1:1, which was a relief. [wd]",
            "Went for a walk round Chorlton Water Park.", "Watched two episodes of Slow Horses.",
            "Farmers' market with Tom, bought far too much cheese. [we]", "Changed the bedsheets, best feeling.",
            "Stand-up overran again. [wd]", "Lay in till ten. [we]"]
J_DISTRACT = ["Tom got nine hours, the absolute menace.", "Priya reckons she's on five coffees a day, which made me feel better.",
              "Aiming for 8 hours tonight, we'll see.", "If I get seven hours tonight it'll be a miracle.",
              "Big Aldi shop on the way back, £48.60, which doesn't count as eating out obviously.",
              "Uber back was £12.40, which I'm choosing not to think about.",
              "Jonno apparently runs on four espressos before 9am.", "A flat white is £3.65 at the station now?!",
              "Insight Timer says I've done 41 sessions in total since I installed it.",
              "Tom's meditation record is 2 minutes before he falls asleep, for context."]


class Journal:
    def __init__(self):
        self.b = Builder("daily_journal", J_PROFILE, "daily_journal")
        self.rng = self.b.rng
        self.logged: set[str] = set()
        self.meals_done: set[str] = set()
        self.distract_left = list(J_DISTRACT)
        self.colour_left = list(J_COLOUR)
        self.used: set[str] = set()

    # -- pieces -------------------------------------------------------------------------------
    def colour(self, d: dt.date) -> str:
        if not self.colour_left:
            self.colour_left = list(J_COLOUR)
        ok = [i for i, t in enumerate(self.colour_left) if fits(t, d)]
        if not ok:
            self.colour_left = list(J_COLOUR)
            ok = [i for i, t in enumerate(self.colour_left) if fits(t, d)]
        return untag(self.colour_left.pop(self.rng.choice(ok)))

    def distract(self) -> str:
        return self.distract_left.pop(self.rng.randrange(len(self.distract_left)))

    def pick(self, pool: list[str], d: dt.date) -> str:
        """A template suiting day ``d`` that this message has not used yet."""
        ok = [t for t in pool if fits(t, d) and untag(t) not in self.used]
        t = untag(self.rng.choice(ok or [t for t in pool if fits(t, d)]))
        self.used.add(t)
        return t

    def day_sentences(self, vals: dict, surf: dict, fix: str | None, d: dt.date) -> list[str]:
        rng = self.rng
        out = []
        if "sleep_min" in vals:
            m = int(vals["sleep_min"])
            if fix == "sleep":
                s = f"{m // 60} hours"
                surf["sleep_min"] = s
                out.append(f"Slept {WORDS[m // 60 - 1]} hours, I thought. Actually no, the watch says it was {s} not "
                           f"{m // 60 - 1}, I must have dropped off before the end of the episode.")
            else:
                s = j_sleep_surface(m, rng)
                surf["sleep_min"] = s
                pool = SLEEP_BAD if m <= 345 else SLEEP_GOOD if m >= 465 else SLEEP_MID
                t = self.pick(pool, d)
                out.append(t.replace("{s}", s).replace("{S}", cap(s)))
        if "coffee_cups" in vals:
            n = int(vals["coffee_cups"])
            if fix == "coffee":
                s = WORDS[n]
                surf["coffee_cups"] = s
                out.append(f"{cap(WORDS[n - 1])} coffees. Wait, no, {s}, I forgot the one on the train.")
            else:
                c = j_coffee_surface(n, rng)
                surf["coffee_cups"] = c
                pool = COFFEE_ZERO if n == 0 else COFFEE_ONE if n == 1 else COFFEE_FEW if n == 2 else COFFEE_MANY
                out.append(self.pick(pool, d).replace("{c}", c).replace("{C}", cap(c)))
        if "meditation_min" in vals:
            n = int(vals["meditation_min"])
            if rng.random() < 0.25 and n != 30:
                m = f"{n}-minute"
                out.append(self.pick(MED_HYPHEN, d).replace("{m}", m))
            else:
                m = j_med_surface(n, rng)
                out.append(self.pick(MED, d).replace("{m}", m).replace("{M}", cap(m)))
            surf["meditation_min"] = m
        if "workday" in vals:
            t = self.pick(WORKDAY[vals["workday"]], d)
            surf["workday"] = t
            out.insert(rng.randrange(len(out) + 1) if out else 0, t)
        if "mood" in vals:
            t = self.pick(MOOD[vals["mood"]], d)
            surf["mood"] = t
            out.append(t)
        return out

    def meal_sentence(self, meal: tuple, surf: dict, wrong: str | None = None) -> str:
        kind, place, comp, cost, how = meal
        rng = self.rng
        c = f"£{cost}" if (wrong or rng.random() < 0.85) else cost
        if wrong:
            c = f"£{wrong}"
        surf.update({"meal": kind, "place": place, "cost_gbp": c})
        if comp:
            surf["companion"] = comp
        if how.startswith("split:"):
            total = how.split(":")[1]
            return rng.choice([
                f"{cap(kind)} at {place} with {comp}, the bill was £{total} and we split it down the middle, so {c} for me.",
                f"{cap(kind)} with {comp} at {place}. £{total} all in, halves, so {c} each.",
            ])
        if how == "treat":
            return f"Took {comp} out for her birthday {kind} at {place}, {c} for the two of us and it was my treat."
        if comp is None:
            return rng.choice([f"Grabbed {kind} at {place} on my own, {c}.", f"Sad desk {kind} from {place}, {c}.",
                               f"{cap(kind)} at {place} by myself with a book, {c}."])
        return rng.choice([f"{cap(kind)} with {comp} at {place}, {c}.", f"{cap(kind)} at {place} with {comp}, {c}.",
                           f"Met {comp} for {kind} at {place}, {c}.",
                           f"{cap(kind)} at {place} with {comp}, came to {c} for me."])

    def day_record(self, date: str, vals: dict, surf: dict, cue) -> dict:
        assert date not in self.logged, date
        self.logged.add(date)
        return {"observed": D(date), "record_type": "day_log", "fields": dict(vals), "surf": surf, "cue": cue}

    def meal_record(self, date: str, surf: dict, cue) -> dict:
        assert date not in self.meals_done, date
        self.meals_done.add(date)
        kind, place, comp, cost, _ = J_MEALS[date]
        fields = {"meal": kind, "place": place}
        if comp:
            fields["companion"] = comp
        fields["cost_gbp"] = F(cost)
        return {"observed": D(date), "record_type": "meal_out", "fields": fields, "surf": surf, "cue": cue}

    # -- logging rounds -------------------------------------------------------------------------
    def log(self, s: dict, dates: list[str], assistant: str, layout: str = "prose", opener: str = "",
            closer: str = "", fix: dict | None = None, cues: dict | None = None, distract: bool = False,
            colour: bool = True, meals: bool = True, med_shot: str | None = None, lead: bool = True) -> str:
        """One user message with the day logs of ``dates`` (and their meals, unless told separately).
        ``med_shot``: the date whose meditation is shown only in an attached app screenshot."""
        rng = self.rng
        self.used = set()
        captions = []
        sdate = s["_date"]
        multi = len(dates) > 1
        fix = fix or {}
        cues = cues or {}
        blocks, recs = [], []
        for date in dates:
            vals = j_values(date)
            surf: dict = {}
            cue = cues[date] if date in cues else cue_for(sdate, D(date), rng, multi)
            meal = J_MEALS.get(date) if meals else None
            if meal and meal[4] in ("separate", "receipt"):
                meal = None
            wrong = meal[4].split(":")[1] if meal and meal[4].startswith("wrong:") else None
            msurf: dict = {}
            if layout == "quick":
                sents = [self.quick(vals, surf)]
                if meal:
                    sents.append(self.meal_sentence(meal, msurf, wrong))
            else:
                if date == med_shot:
                    n = int(vals["meditation_min"])
                    sents = self.day_sentences({k: v for k, v in vals.items() if k != "meditation_min"}, surf,
                                               fix.get(date), D(date))
                    sents.insert(1, "Meditation's in the screenshot, I was quite pleased with that one.")
                    surf["meditation_min"] = f"{n} min"
                    captions.append(
                        "Phone screenshot of the Insight Timer app after a session ends. Large heading 'Well done, "
                        f"Nadia'. Below it: 'You meditated for {n} min'. Track card: 'Unwinding for Sleep' by Sarah "
                        "Blondin. Small grey text: '48 people meditated with you'. A bar chart labelled 'This "
                        "week' with the total '1 h 05 min' and a flame icon reading 'Day streak 6'.")
                else:
                    sents = self.day_sentences(vals, surf, fix.get(date), D(date))
                if meal:
                    ms = self.meal_sentence(meal, msurf, wrong)
                    sents.insert(rng.randrange(1, len(sents) + 1) if sents else 0, ms)
                if colour and rng.random() < 0.55:
                    sents.insert(rng.randrange(len(sents) + 1), self.colour(D(date)))
            text = " ".join(sents)
            kind, ctext = cue
            if kind == "none" or not lead:
                block = text
            elif layout == "recap" or (multi and rng.random() < 0.6):
                block = f"{ctext}: {text}"
            else:
                lead = {"today": [f"{ctext}: ", f"As for {ctext.lower()}: "],
                        "yesterday": [f"{ctext}: ", f"{ctext} first. ", f"Re {ctext.lower()}: ", f"{ctext}, quickly. "],
                        "weekday": [f"On {ctext}: ", f"{ctext}, for the record. ", f"{ctext} went like this. ",
                                    f"So, {ctext}. "],
                        "date": [f"Backfilling {ctext}: ", f"Never logged {ctext}, so: "]}[kind]
                block = rng.choice(lead) + text
            blocks.append(block)
            recs.append(self.day_record(date, vals, surf, cue))
            if meal and not wrong:
                recs.append(self.meal_record(date, msurf, cue))
        sep = "\n\n" if layout == "recap" or (multi and rng.random() < 0.5) else " "
        body = sep.join(blocks)
        if distract:
            body += " " + self.distract()
        user = " ".join(x for x in (opener, body, closer) if x)
        return self.b.round(s, user, assistant, recs, captions=captions)

    def quick(self, vals: dict, surf: dict) -> str:
        rng = self.rng
        bits = []
        if "sleep_min" in vals:
            s = j_sleep_surface(int(vals["sleep_min"]), rng)
            surf["sleep_min"] = s
            bits.append(f"slept {s}")
        if "coffee_cups" in vals:
            c = j_coffee_surface(int(vals["coffee_cups"]), rng)
            surf["coffee_cups"] = c
            bits.append(c)
        if "meditation_min" in vals:
            m = j_med_surface(int(vals["meditation_min"]), rng)
            surf["meditation_min"] = m
            bits.append(f"{m} meditating")
        if "mood" in vals:
            t = f"mood {vals['mood']}"
            surf["mood"] = t
            bits.append(t)
        if "workday" in vals:
            t = {"office": "office day", "home": "home day", "day off": "day off"}[vals["workday"]]
            surf["workday"] = t
            bits.append(t)
        return ", ".join(bits) + "."

    def meal_round(self, s: dict, date: str, user_tpl: str, assistant: str, cue=None, captions=()) -> str:
        """A message about one meal out; ``user_tpl`` holds {meal_sentence} or the values directly."""
        meal = J_MEALS[date]
        surf: dict = {}
        sent = self.meal_sentence(meal, surf) if "{meal_sentence}" in user_tpl else ""
        if not sent:
            kind, place, comp, cost, _ = meal
            surf.update({"meal": kind, "place": place, "cost_gbp": f"£{cost}"})
            if comp:
                surf["companion"] = comp
        cue = cue or cue_for(s["_date"], D(date), self.rng, False)
        user = user_tpl.replace("{meal_sentence}", sent)
        return self.b.round(s, user, assistant, [self.meal_record(date, surf, cue)], captions=captions)

    def talk(self, s: dict, user: str, assistant: str, fact: str | None = None) -> str:
        return self.b.round(s, user, assistant, fact=fact)


def build_journal() -> Builder:
    J = Journal()
    b = J.b

    s = b.session("2025-09-08")
    J.talk(s, "Hiya. So my new therapist, Joanne, wants me to keep a little daily log: sleep, coffee, meditation, "
              "mood, whether I was in the office, who I saw. I am hopeless with tracking apps, so can I just tell "
              "you every evening and you keep it all straight?",
           "Of course. Just chat it to me however it comes out, whole sentences, several days at once, whatever's "
           "easiest, and I'll keep the log. Ask me for totals or patterns whenever you like.", fact="therapist")
    J.talk(s, "She also wants me meditating for at least 10 minutes a day, which sounds tiny but we'll see. I use "
              "Insight Timer, the free version, mostly the guided ones.",
           "Ten minutes a day is a good, realistic target. I'll note it so we can see how often you hit it.",
           fact="med_goal,app")
    J.log(s, ["2025-09-06", "2025-09-07"], "Got both days down, and the Federal brunch with Aisha is in the "
          "eating-out list.", layout="recap", opener="Let me do the weekend first.")
    J.talk(s, "You'll also hear a lot about Biscuit, my cat. Ginger, eight years old, and he has decided that "
              "5am is breakfast time.",
           "Noted: Biscuit, ginger, strong opinions about breakfast. He sounds like a big part of the sleep story.",
           fact="cat")
    J.log(s, ["2025-09-08"], "Logged today, with the corrected sleep figure.", opener="Right, today.",
          fix={"2025-09-08": "sleep"})
    J.talk(s, "Any tips for not lying awake replaying meetings? It's always the 3am replay.",
           "A few that help many people: a notebook by the bed to park thoughts, a fixed wake time even at weekends, "
           "getting up for ten minutes if you've been awake a while, and keeping the phone out of reach.")
    J.talk(s, "Ha, the notebook by the bed is exactly what Joanne said. Ok, night!", "Night, Nadia. Sleep well.")

    s = b.session("2025-09-13")
    J.log(s, ["2025-09-10"], "Wednesday's logged.", opener="Evening! I've been useless at this all week, sorry. "
          "Starting with Wednesday since that's the last day I remember properly.")
    J.log(s, ["2025-09-11"], "Got Thursday, including lunch at Nando's with Priya at £14.20.")
    J.talk(s, "Priya lent me Four Thousand Weeks at that lunch, she says it changed her life. It's on the bedside "
              "table, glaring at me.",
           "Oliver Burkeman's book? It's a good one for someone trying to do less. I'll remember she lent it to you.",
           fact="book")
    J.log(s, ["2025-09-12"], "Friday's in, including your half of the Dishoom bill.", distract=True)
    J.meal_round(s, "2025-09-11",
                 "Ah, correction on Thursday: Priya just sent me the Monzo request and my share of our Nando's lunch "
                 "was actually £16.40, not £14.20. Forgot I'd had the bottomless drink.",
                 "Fixed: Thursday's Nando's lunch with Priya is now £16.40.", cue=("weekday", "Thursday"))
    J.log(s, ["2025-09-13"], "Saturday logged. Enjoy the quiet evening.", opener="And today, quickly.")
    J.talk(s, "Tom wants to go to the Peak District tomorrow. I want to lie on the sofa. Place your bets.",
           "My money's on a compromise: a short walk and a long pub lunch.")
    J.talk(s, "Correct, sadly. Night!", "Night! Hope the weather holds.")

    s = b.session("2025-09-18")
    J.talk(s, "Went to the GP this morning about the heart flutters, finally. Dr Okafor thinks it's almost certainly the caffeine "
              "and wants me on no more than 3 coffees a day. Three! She has clearly never worked in product.",
           "That's a clear limit to work with. I'll keep an eye on how many days you go over three.",
           fact="gp_limit")
    J.log(s, ["2025-09-15"], "Monday's logged.", opener="Ok, catching up.")
    J.talk(s, "Is decaf actually decaf? Asking for me.",
           "Mostly: decaf still has a little caffeine, roughly 2 to 15 mg a cup versus 80 to 100 for regular, so it "
           "won't count against Dr Okafor's limit in any meaningful way.")
    J.log(s, ["2025-09-17"], "Yesterday's in.", distract=True)
    J.log(s, ["2025-09-18"], "Logged today.", layout="quick", opener="Quick one for today before I crash:")
    J.talk(s, "Tom's sister Maya stayed over on Tuesday, so the sofa bed was out and the flat was chaos.",
           "House guests and a sofa bed, that's a recipe for a short night for everyone.")
    J.talk(s, "Joanne says I catastrophise about work. Which, fair.",
           "Noticing it is half the battle. The log might help you see the difference between the forecast and how "
           "the days actually went.")
    J.talk(s, "Deep. Ok, bed.", "Night, Nadia.")

    s = b.session("2025-09-24")
    J.log(s, ["2025-09-20", "2025-09-21"], "Both days logged, and the birthday dinner is in the eating-out list.",
          layout="recap", opener="Big weekend, Mum turned 60 on Saturday!")
    J.talk(s, "She cried at the cake. Then told the waiter her age three times. Peak Mum.",
           "That sounds like a lovely evening. Sixty and proud of it!")
    J.log(s, ["2025-09-23"], "Tuesday's logged.")
    J.talk(s, "Tom got the promotion by the way! Team lead. He's insufferable.",
           "Congratulations to Tom! Insufferable for a week is allowed.")
    J.log(s, ["2025-09-24"], "Today's in.", opener="Today, then.", distract=True)
    J.talk(s, "Do you think 10 minutes of meditation is enough to actually do anything?",
           "The research suggests short, regular practice does help with stress and sleep, and consistency matters "
           "more than length. Ten minutes most days is a solid base.")
    J.talk(s, "Ok, convinced. Night.", "Night!")

    s = b.session("2025-09-30")
    J.talk(s, "Exciting news: Tom and I booked Lisbon for December!! We fly on the 12th. Which means I need to stop "
              "haemorrhaging money on food, so from October I'm giving myself a £150 a month budget for eating out. "
              "Hold me to it.",
           "Lisbon in December, lovely! £150 a month for eating out from October, noted. I can tell you how you're "
           "tracking against it whenever you ask.", fact="trip,budget")
    J.log(s, ["2025-09-27"], "Saturday's logged.", opener="Backfilling the weekend a bit.")
    J.log(s, ["2025-09-29"], "Yesterday's in, including the Nando's with Jonno.")
    J.talk(s, "Jonno is leaving for a job in Leeds in November, which is awful. Best work friend I've had.",
           "That's a real loss. At least Leeds is close enough for visits.")
    J.log(s, ["2025-09-30"], "Today's logged, three coffees.", fix={"2025-09-30": "coffee"}, opener="Today:")
    J.talk(s, "End of September, I can't believe it. Feels like I only just started this.",
           "Three-and-a-bit weeks of logs already, which is more than most people manage.")
    J.talk(s, "Ha. Night night.", "Night!")

    s = b.session("2025-10-06")
    J.log(s, ["2025-10-02"], "Thursday's logged, and Mowgli with Priya is in the eating-out list.",
          opener="I skipped a few days again, sorry.")
    J.log(s, ["2025-10-04", "2025-10-05"], "Weekend logged, including your half of the Federal brunch.")
    J.talk(s, "Honestly I think I averaged about 6 hours a night last week, if I'm being generous. Is that bad?",
           "It's on the short side; most adults do best with 7 to 9. The logs will show whether it's a pattern or "
           "just a rough week.")
    J.talk(s, "Saw Joanne today. She says the log is already useful, she could see the bad-sleep, big-coffee days "
              "clumping together.",
           "That's a pattern worth watching: a short night and then leaning on coffee the next day.")
    J.log(s, ["2025-10-06"], "Today's in.", opener="Anyway, today.", distract=True)
    J.talk(s, "Roadmap season starts properly this week. Pray for me.",
           "Good luck. Maybe keep the meditation slot non-negotiable through it.")
    J.talk(s, "That's the plan. Ha.", "You've got this.")
    J.talk(s, "Night.", "Night, Nadia.")

    s = b.session("2025-10-12")
    J.talk(s, "Sunday morning, Tom is making pancakes, Biscuit is supervising. Catching up while I wait.",
           "Sounds like a good Sunday. Go ahead.")
    J.log(s, ["2025-10-08"], "Wednesday's logged.", cues={"2025-10-08": ("date", "Wednesday 8 October")})
    J.log(s, ["2025-10-09"], "Thursday's in, plus the Wagamama lunch with Jonno.")
    J.talk(s, "Jonno spent that whole lunch trying to get me to apply for a job at his new place in Leeds. 14 "
              "people on the team, four-day week. Tempting but no.",
           "A four-day week is a strong pitch, but it sounds like you're settled where you are.")
    J.log(s, ["2025-10-11"], "Saturday's logged, and Dishoom with Aisha.", distract=True)
    J.talk(s, "Aisha's pregnant!!! Due in April. I cried in Dishoom.",
           "Oh, that's wonderful news! Congratulations to Aisha.")
    J.talk(s, "Pancakes are ready, bye!", "Enjoy!")
    J.talk(s, "Oh and remind me later to book the Lisbon airport transfer.",
           "Noted. I'll mention it next time you check in.")

    s = b.session("2025-10-18")
    J.log(s, ["2025-10-14", "2025-10-15"], "Tuesday and Wednesday logged. Zero coffee, impressive.",
          opener="Ok, I owe you most of this week.")
    J.talk(s, "The zero coffee thing was an experiment. Verdict: I'm a nicer person with coffee.",
           "A fair finding. Two or three might be the sweet spot under Dr Okafor's limit.")
    J.log(s, ["2025-10-17"], "Yesterday's in, with the Nando's dinner.")
    J.talk(s, "Did I book the airport transfer? I did not.", "Consider this your reminder: Lisbon airport transfer.")
    J.talk(s, "Booked. Smug.", "Excellent.")
    J.talk(s, "If I went down to two coffees a day at £3.65 a pop, how much would I save in a month?",
           "If you currently buy three a day, dropping one saves about £3.65 a day, so roughly £110 over a 30-day "
           "month, or about £80 if you only count working days.")
    J.talk(s, "Reading the Burkeman book finally. The bit about the 4,000 weeks being all you get is brutal.",
           "It's a bracing idea, but the point is freeing: you can't do everything, so choose.")
    J.talk(s, "Ok that's enough philosophy for a Saturday. Bye!", "Bye, Nadia!")

    s = b.session("2025-10-24")
    J.log(s, ["2025-10-13"], "Logged Monday the 13th.", opener="Found a note on my phone from ages ago.",
          cues={"2025-10-13": ("date", "Monday 13 October")})
    J.meal_round(s, "2025-10-21",
                 "Forgot to say: on Tuesday I had lunch with Priya at Wagamama, £16.20. She's got the new job!!",
                 "Logged the Wagamama lunch. And congratulations to Priya!", cue=("weekday", "Tuesday"))
    J.log(s, ["2025-10-21", "2025-10-22"], "Tuesday and Wednesday logged. Sorry Wednesday was rough.",
          layout="recap")
    J.talk(s, "The roadmap review is on Monday. I have rehearsed it in my head approximately 400 times.",
           "You know the material. Maybe rehearse it out loud once and then stop.")
    J.log(s, ["2025-10-24"], "Today's in.", opener="And today, for completeness.")
    J.talk(s, "Priya's new job is at the BBC in Salford, by the way. She's thrilled.",
           "That's a great move for her.")
    J.talk(s, "We're going to celebrate next weekend. My budget is weeping.",
           "Celebrations are allowed. Maybe pick somewhere you can split.")
    J.talk(s, "Night x", "Night!")

    s = b.session("2025-10-30")
    J.log(s, ["2025-10-25"], "Saturday logged, including your half of The Refuge.",
          opener="The celebration dinner happened.")
    J.log(s, ["2025-10-27"], "Monday's logged.", opener="I ended up taking Monday off after the review got moved.")
    J.talk(s, "Joanne says I should notice when I use coffee as a reward. Like, constantly.",
           "That's a useful lens. Swapping one reward coffee for a walk might be an easy win.")
    J.log(s, ["2025-10-29", "2025-10-30"], "Both logged.", opener="Yesterday and today.",
          cues={"2025-10-29": ("yesterday", "Yesterday"), "2025-10-30": ("today", "Today")})
    J.talk(s, "Priya and I are pencilling in lunch at Mowgli next week to plan Aisha's baby shower. Budget "
              "permitting, ha.",
           "Sounds fun. Let me know how it goes.")
    J.talk(s, "Halloween tomorrow. Tom wants to dress Biscuit as a pumpkin. Biscuit does not.",
           "Biscuit's lawyer has been informed.")
    J.talk(s, "The review is next Tuesday now. I am fine. Totally fine.", "You will be fine. You're prepared.")
    J.talk(s, "Night.", "Night, Nadia.")

    s = b.session("2025-11-05")
    J.log(s, ["2025-11-01", "2025-11-02"], "Weekend logged, with the Evelyn's brunch.", layout="recap",
          opener="November already!")
    J.talk(s, "The review went well!! Gareth said it was the clearest roadmap he's seen. I may frame this.",
           "Congratulations! All that rehearsing paid off.")
    J.log(s, ["2025-11-04"], "Yesterday's in, Nando's with Priya.")
    J.log(s, ["2025-11-05"], "Today's logged, nice session.", med_shot="2025-11-05", opener="Today:")
    J.talk(s, "Bonfire night, Biscuit is hiding under the bed from the fireworks.", "Poor Biscuit.")
    J.talk(s, "Tom's downstairs on pumpkin soup duty. Night!", "Night! Enjoy the soup.")
    J.talk(s, "Oh, Joanne's moving our sessions to fortnightly. Progress?",
           "Sounds like progress to me.")

    s = b.session("2025-11-11")
    J.log(s, ["2025-11-08"], "Saturday's logged.", distract=True)
    J.talk(s, "I've noticed I sleep way better when I meditate in the evening instead of the morning.",
           "That's a nice thing to have noticed. It might be worth keeping the evening slot.")
    J.log(s, ["2025-11-10", "2025-11-11"], "Both days logged.", opener="Two days in one go.",
          cues={"2025-11-10": ("yesterday", "Yesterday"), "2025-11-11": ("today", "Today")})
    J.talk(s, "We got a takeaway pizza on Sunday, £22. That's not eating out, right? I'm not counting it.",
           "Agreed, I'll keep takeaways out of the eating-out log and only count meals you went out for.")
    J.talk(s, "Lisbon is one month away. I have made a spreadsheet of pastel de nata places.",
           "Of course you have. Manteigaria is the one people rave about.")
    J.talk(s, "It's on the list!", "Good.")
    J.talk(s, "Tom says the spreadsheet is 'a lot'.", "Tom will be grateful when he's eating the right pastel de nata.")
    J.talk(s, "Night!", "Night, Nadia.")

    s = b.session("2025-11-17")
    J.log(s, ["2025-11-13"], "Thursday's logged.", opener="Right, last week.")
    J.meal_round(s, "2025-11-15",
                 "Found Saturday's Dishoom receipt in my coat pocket. Dinner with Tom, and this one was on me "
                 "since he paid last time.",
                 "Logged Saturday's Dishoom dinner at the receipt total.", cue=("weekday", "Saturday"),
                 captions=["Photo of a creased thermal receipt on a wooden table. Header 'DISHOOM MANCHESTER, "
                           "32 Bridge St'. Date '15/11/2025 20:41', 'Table 34 · Covers 2'. Items: 'House Black Daal "
                           "£8.90', 'Chicken Ruby £15.50', 'Garlic Naan £4.50', 'Okra Fries £5.50', '2 x Masala Chai "
                           "£3.30'. 'Subtotal £37.70', 'Optional service 12.5% £4.71', bold 'TOTAL £42.41'. "
                           "Footer: 'Paid by card · Thank you!'"])
    J.log(s, ["2025-11-15", "2025-11-16"], "Weekend logged.", layout="recap")
    J.talk(s, "Jonno's leaving do is on Thursday. I've already written a card.", "That's thoughtful. He'll love it.")
    J.talk(s, "Also, meditation has become the thing I look forward to. Who am I.",
           "Someone who's built a habit in ten weeks. That's worth noticing.")
    J.talk(s, "Joanne said the same. Ok night!", "Night!")
    J.talk(s, "Wait, one more: Tom says I talk in my sleep now. About Jira.", "That's commitment to the job.")

    s = b.session("2025-11-23")
    J.meal_round(s, "2025-11-20",
                 "Thursday was Jonno's leaving do: dinner at Mowgli, £26.75 for my share. He cried at the card.",
                 "Logged Thursday's Mowgli dinner. And aww, the card worked.", cue=("weekday", "Thursday"))
    J.log(s, ["2025-11-20"], "Thursday's in too.", opener="The rest of Thursday:", meals=False, lead=False)
    J.log(s, ["2025-11-22", "2025-11-23"], "Both days logged.", opener="Catching up on the weekend.",
          cues={"2025-11-22": ("yesterday", "Yesterday"), "2025-11-23": ("today", "Today")})
    J.talk(s, "It's been about eleven weeks of this log now. Joanne wants me to do a little review before our "
              "next session.",
           "Happy to help with that. I can pull averages, totals and patterns from everything you've told me.")
    J.talk(s, "Let's do it properly next weekend, I'm too full of brunch.", "Deal.")
    J.talk(s, "Biscuit says hi.", "Hi, Biscuit.")
    J.talk(s, "Oh, Tom wants to know if the watch counts naps as sleep. Mine doesn't, right?",
           "Most watches only add daytime naps if they're long enough, but the figures you've given me are just "
           "your nightly sleep, so that's what I've logged.")
    J.talk(s, "Night!", "Night, Nadia!")
    return b


# ---------------------------------------------------------------------------------------------
# question helpers
# ---------------------------------------------------------------------------------------------

def recs_of(b: Builder, rt: str, cond=None, field: str | None = None) -> list[dict]:
    return [r for r in b.records if r["record_type"] == rt and (cond is None or cond(r))
            and (field is None or field in r["fields"])]


def rids(rs) -> list[str]:
    return [r["round"] for r in rs]


def month_is(m: int):
    return lambda r: r["observed"].month == m


def between(a: str, z: str):
    return lambda r: D(a) <= r["observed"] <= D(z)


def vals(rs, f) -> list[Fraction]:
    return [r["fields"][f] for r in rs]


def hm(x: Fraction) -> str:
    """Minutes as 'H h M min' (minutes rounded half-up)."""
    total = int(rnd(Fraction(x), 0))
    return f"{total // 60} h {total % 60} min"


def gap_ok(a: Fraction, z: Fraction, rel: float = 0.015) -> bool:
    return abs(a - z) >= Fraction(str(rel)) * max(abs(a), abs(z))


def date_list(ds) -> str:
    ds = sorted(ds)
    return ", ".join(d.isoformat() for d in ds)


def unique_arg(rs, key, best=max):
    """The single record with the extreme key; asserts that it is unique."""
    v = best(key(r) for r in rs)
    hits = [r for r in rs if key(r) == v]
    assert len(hits) == 1, ("tie", [h["observed"] for h in hits])
    return hits[0]


def build_journal_qas(b: Builder) -> None:
    days = lambda cond=None, f=None: recs_of(b, "day_log", cond, f)
    meals = lambda cond=None: recs_of(b, "meal_out", cond)
    MIN, CUPS, GBP = "minutes", "cups", "GBP"
    places = sorted({m[1] for m in J_MEALS.values()})
    people = sorted({m[2] for m in J_MEALS.values() if m[2]})
    moods = ["great", "calm", "ok", "low", "anxious", "stressed"]

    # ---- AVG
    rs = days(month_is(10), "sleep_min")
    v = mean(vals(rs, "sleep_min"))
    b.qa("AVG", "On average, how long did I sleep per night in October?",
         f"{rnd(v, 1)} minutes a night (about {hm(v)}), averaged over the {len(rs)} October nights you logged.",
         rval(v, 1), "number", rids(rs), 0.5, MIN)
    rs = days(None, "coffee_cups")
    v = mean(vals(rs, "coffee_cups"))
    b.qa("AVG", "How many coffees a day did I average across everything I've logged?",
         f"{rnd(v, 1)} coffees a day on average ({len(rs)} days with a coffee count).",
         rval(v, 1), "number", rids(rs), 0.05, CUPS)
    rs = days(month_is(11), "meditation_min")
    v = mean(vals(rs, "meditation_min"))
    b.qa("AVG", "When I did meditate in November, how long were my sessions on average?",
         f"{rnd(v, 1)} minutes on average over {len(rs)} November meditation days.",
         rval(v, 1), "number", rids(rs), 0.05, MIN)
    rs = days(None, "mood")
    hit = [r for r in rs if r["fields"]["mood"] in ("stressed", "anxious")]
    v = Fraction(100 * len(hit), len(rs))
    b.qa("AVG", "Of the days where I mentioned my mood, what percentage did I describe as stressed or anxious?",
         f"{rnd(v, 1)}% ({len(hit)} of {len(rs)} days).", rval(v, 1), "number", rids(rs), 0.05, "%")
    rs = meals(lambda r: r["fields"].get("companion") == "Tom")
    v = mean(vals(rs, "cost_gbp"))
    b.qa("AVG", "What did a meal out with Tom cost me on average?",
         f"£{rnd(v, 2)} on average over {len(rs)} meals with Tom (your share).", rval(v, 2), "number", rids(rs),
         0.05, GBP)
    rs = days(lambda r: "sleep_min" in r["fields"] and r["fields"]["sleep_min"] < 360, "coffee_cups")
    v = mean(vals(rs, "coffee_cups"))
    b.qa("AVG", "On days when I'd slept under 6 hours, how many coffees did I have on average?",
         f"{rnd(v, 1)} coffees on average ({len(rs)} short-sleep days with a coffee count).", rval(v, 1), "number",
         rids(rs), 0.05, CUPS)
    rs = days(lambda r: r["fields"].get("mood") == "anxious", "sleep_min")
    v = mean(vals(rs, "sleep_min"))
    b.qa("AVG", "How much sleep did I get on average on the days I felt anxious?",
         f"{rnd(v, 1)} minutes (about {hm(v)}) on average over {len(rs)} anxious days with a sleep figure.",
         rval(v, 1), "number", rids(rs), 0.5, MIN)

    # ---- SUM
    oct_meals = meals(month_is(10))
    tot = sum(vals(oct_meals, "cost_gbp"))
    b.qa("SUM", "How much did I spend on eating out in October altogether?",
         f"£{rnd(tot, 2)} across {len(oct_meals)} meals out in October.", rval(tot, 2), "number", rids(oct_meals),
         0.01, GBP)
    over = tot - 150
    assert over > 0
    b.qa("SUM", "By how much did I overshoot my monthly eating-out budget in October?",
         f"£{rnd(over, 2)}: you spent £{rnd(tot, 2)} against the £150 budget.", rval(over, 2), "number",
         rids(oct_meals) + [b.facts["budget"]], 0.01, GBP)
    rs = days(month_is(9), "meditation_min")
    tot = sum(vals(rs, "meditation_min"))
    b.qa("SUM", "How many minutes did I meditate in total in September?",
         f"{tot} minutes ({hm(tot)}) over {len(rs)} days.", int(tot), "number", rids(rs), 0, MIN)
    rs = days(between("2025-10-16", "2025-10-31"), "coffee_cups")
    tot = sum(vals(rs, "coffee_cups"))
    b.qa("SUM", "How many coffees did I drink altogether between October 16 and October 31?",
         f"{tot} coffees over the {len(rs)} logged days.", int(tot), "number", rids(rs), 0, CUPS)

    # ---- CNT
    gp_day = D("2025-09-18")
    rs = days(lambda r: r["observed"] >= gp_day and r["fields"].get("coffee_cups", 0) > 3)
    assert not days(lambda r: r["observed"] == gp_day and r["fields"].get("coffee_cups", 0) > 3)
    b.qa("CNT", "Since my GP appointment about the heart flutters, on how many days did I drink more coffee than she told me to?",
         f"{len(rs)} days had more than 3 coffees.", len(rs), "number", rids(rs) + [b.facts["gp_limit"]], 0, "days")
    rs = days(lambda r: r["observed"].month == 10 and r["fields"].get("meditation_min", 0) >= 10)
    b.qa("CNT", "In October, how many days did I hit Joanne's daily meditation target?",
         f"{len(rs)} days with at least 10 minutes of meditation.", len(rs), "number",
         rids(rs) + [b.facts["med_goal"]], 0, "days")
    rs = meals(lambda r: r["fields"].get("companion") == "Priya")
    b.qa("CNT", "How many times did I eat out with Priya?", f"{len(rs)} times.", len(rs), "number", rids(rs), 0, "times")
    rs = days(lambda r: r["fields"].get("sleep_min", 999) < 360)
    b.qa("CNT", "How many nights did I sleep less than 6 hours?", f"{len(rs)} nights.", len(rs), "number", rids(rs),
         0, "days")
    rs = days(lambda r: r["observed"].month == 10 and r["fields"].get("workday") == "office")
    b.qa("CNT", "How many days in October did I go into the office?", f"{len(rs)} office days.", len(rs), "number",
         rids(rs), 0, "days")

    # ---- MAX
    rs = meals()
    top = unique_arg(rs, lambda r: r["fields"]["cost_gbp"])
    b.qa("MAX", "What's the most I've spent on a single meal out?",
         f"£{rnd(top['fields']['cost_gbp'], 2)}, for {top['fields']['meal']} at {top['fields']['place']} on "
         f"{nice_date(top['observed'])}.", rval(top["fields"]["cost_gbp"], 2), "number", rids(rs), 0.01, GBP)
    cnt = {p: len([r for r in rs if r["fields"]["place"] == p]) for p in places}
    best = max(cnt, key=cnt.get)
    assert sorted(cnt.values())[-1] - sorted(cnt.values())[-2] >= 1
    b.qa("MAX", "Which place did I eat out at most often?",
         f"{best}, {cnt[best]} times.", best, "string", rids(rs), candidates=places)
    rs = days(None, "sleep_min")
    top = unique_arg(rs, lambda r: r["fields"]["sleep_min"])
    b.qa("MAX", "Which day did I log my longest sleep?",
         f"{top['observed'].isoformat()}, with {top['fields']['sleep_min']} minutes ({hm(top['fields']['sleep_min'])}).",
         top["observed"].isoformat(), "date", rids(rs))
    rs = days(None, "coffee_cups")
    mm = {m: mean(vals([r for r in rs if r["observed"].month == m], "coffee_cups")) for m in (9, 10, 11)}
    best = max(mm, key=mm.get)
    assert all(gap_ok(mm[best], mm[m]) for m in mm if m != best)
    b.qa("MAX", "Which month did I drink the most coffee per day on average: September, October or November?",
         f"{MONTHS[best - 1]}, averaging {rnd(mm[best], 1)} coffees a day.", MONTHS[best - 1], "string", rids(rs),
         candidates=["September", "October", "November"])

    # ---- MIN
    rs = days(None, "sleep_min")
    lo = min(vals(rs, "sleep_min"))
    b.qa("MIN", "What was the shortest night's sleep I logged?", f"{lo} minutes ({hm(lo)}).", int(lo), "number",
         rids(rs), 0, MIN)
    rs = meals()
    low = unique_arg(rs, lambda r: r["fields"]["cost_gbp"], min)
    b.qa("MIN", "Where did I have my cheapest meal out?",
         f"{low['fields']['place']}, £{rnd(low['fields']['cost_gbp'], 2)} on {nice_date(low['observed'])}.",
         low["fields"]["place"], "string", rids(rs), candidates=places)
    rs = days(month_is(11), "sleep_min")
    low = unique_arg(rs, lambda r: r["fields"]["sleep_min"], min)
    b.qa("MIN", "Which day in November did I sleep the least?",
         f"{low['observed'].isoformat()}, {low['fields']['sleep_min']} minutes.", low["observed"].isoformat(),
         "date", rids(rs))

    # ---- LAT
    rs = meals(lambda r: r["fields"]["place"] == "Nando's")
    last = max(rs, key=lambda r: r["observed"])
    b.qa("LAT", "When did I last eat at Nando's?", f"{last['observed'].isoformat()}, {last['fields']['meal']} with "
         f"{last['fields'].get('companion', 'nobody')}.", last["observed"].isoformat(), "date", [last["round"]])
    rs = days(None, "mood")
    last = max(rs, key=lambda r: r["observed"])
    b.qa("LAT", "How was my mood the last time I mentioned it?", f"{last['fields']['mood']} (on "
         f"{nice_date(last['observed'])}).", last["fields"]["mood"], "string", [last["round"]], candidates=moods)
    rs = days(None, "coffee_cups")
    last = max(rs, key=lambda r: r["observed"])
    b.qa("LAT", "How many coffees did I have on the most recent day I logged coffee?",
         f"{last['fields']['coffee_cups']} coffees, on {nice_date(last['observed'])}.", int(last["fields"]["coffee_cups"]),
         "number", [last["round"]], 0, CUPS)
    rs = meals(lambda r: "companion" in r["fields"])
    last = max(rs, key=lambda r: r["observed"])
    b.qa("LAT", "Who did I last go out for a meal with?", f"{last['fields']['companion']}, {last['fields']['meal']} at "
         f"{last['fields']['place']} on {nice_date(last['observed'])}.", last["fields"]["companion"], "string",
         [last["round"]], candidates=people)

    # ---- RNG
    rs = days(lambda r: r["fields"].get("sleep_min", 0) >= 480)
    b.qa("RNG", "Which days did I get 8 hours of sleep or more?", date_list(r["observed"] for r in rs) + ".",
         sorted(r["observed"].isoformat() for r in rs), "list", rids(rs))
    rs = meals(month_is(11))
    ps = sorted({r["fields"]["place"] for r in rs})
    b.qa("RNG", "Where did I eat out in November?", ", ".join(ps[:-1]) + " and " + ps[-1] + ".", ps, "list", rids(rs),
         candidates=places)
    rs = days(lambda r: r["observed"].month == 9 and r["fields"].get("meditation_min", 0) >= 15)
    b.qa("RNG", "On which days in September did I meditate for 15 minutes or more?",
         date_list(r["observed"] for r in rs) + ".", sorted(r["observed"].isoformat() for r in rs), "list", rids(rs))
    rs = meals(lambda r: r["observed"].month == 10 and "companion" in r["fields"])
    ps = sorted({r["fields"]["companion"] for r in rs})
    b.qa("RNG", "Who did I go out for meals with in October?", ", ".join(ps[:-1]) + " and " + ps[-1] + ".", ps,
         "list", rids(rs),
         candidates=people)

    # ---- CMP
    rs = days(lambda r: r["fields"].get("workday") in ("office", "home"), "sleep_min")
    g = {w: mean(vals([r for r in rs if r["fields"]["workday"] == w], "sleep_min")) for w in ("office", "home")}
    assert gap_ok(g["office"], g["home"])
    w = max(g, key=g.get)
    o = "home" if w == "office" else "office"
    b.qa("CMP", "Did I sleep more on office days or on days I worked from home?",
         f"{'Office' if w == 'office' else 'Home'} days: {rnd(g[w], 1)} minutes on average, against {rnd(g[o], 1)} "
         f"on the other kind.", w, "string", rids(rs), candidates=["office", "home"])
    t = {m: sum(vals(meals(month_is(m)), "cost_gbp")) for m in (10, 11)}
    assert abs(t[10] - t[11]) >= 10
    w = max(t, key=t.get)
    b.qa("CMP", "Did I spend more on eating out in October or in November?",
         f"{MONTHS[w - 1]}: £{rnd(t[w], 2)}, against £{rnd(t[21 - w], 2)}.", MONTHS[w - 1], "string",
         rids(meals(month_is(10)) + meals(month_is(11))), candidates=["October", "November"])
    rs = days(None, "coffee_cups")
    g = {"weekend": mean(vals([r for r in rs if r["observed"].weekday() >= 5], "coffee_cups")),
         "weekday": mean(vals([r for r in rs if r["observed"].weekday() < 5], "coffee_cups"))}
    assert gap_ok(g["weekend"], g["weekday"], 0.05)
    w = max(g, key=g.get)
    b.qa("CMP", "Do I drink more coffee on weekdays or at the weekend?",
         f"{cap(w)}: {rnd(g[w], 1)} coffees a day on average, against {rnd(min(g.values()), 1)} on the other days.",
         w, "string", rids(rs),
         candidates=["weekday", "weekend"])
    rs = days(lambda r: r["observed"].month in (9, 10), "meditation_min")
    g = {m: mean(vals([r for r in rs if r["observed"].month == m], "meditation_min")) for m in (9, 10)}
    assert gap_ok(g[9], g[10])
    w = max(g, key=g.get)
    b.qa("CMP", "Were my meditation sessions longer in September or in October, on average?",
         f"{MONTHS[w - 1]}: {rnd(g[w], 1)} minutes per session, against {rnd(g[19 - w], 1)}.", MONTHS[w - 1],
         "string", rids(rs), candidates=["September", "October"])

    # ---- TRD
    def trend(field, m1, m2, q, what, unit_word):
        rs = days(lambda r: r["observed"].month in (m1, m2), field)
        a = mean(vals([r for r in rs if r["observed"].month == m1], field))
        z = mean(vals([r for r in rs if r["observed"].month == m2], field))
        assert gap_ok(a, z)
        word = "increased" if z > a else "decreased"
        b.qa("TRD", q, f"It {word}: from {rnd(a, 1)} {unit_word} in {MONTHS[m1 - 1]} to {rnd(z, 1)} in "
             f"{MONTHS[m2 - 1]} ({what}).", word, "string", rids(rs), candidates=["increased", "decreased"])
    trend("sleep_min", 9, 11, "Has my sleep got longer or shorter between September and November?",
          "average per logged night", "minutes")
    trend("coffee_cups", 9, 11, "From September to November, did my daily coffee count go up or down?",
          "average per logged day", "coffees")
    rs = days(lambda r: r["observed"].month in (9, 10), "meditation_min")
    a = sum(vals([r for r in rs if r["observed"].month == 9], "meditation_min"))
    z = sum(vals([r for r in rs if r["observed"].month == 10], "meditation_min"))
    assert abs(a - z) >= 20
    word = "increased" if z > a else "decreased"
    b.qa("TRD", "Did my total meditation time rise or fall from September to October?",
         f"It {word}: {a} minutes in September, {z} in October.", word, "string", rids(rs),
         candidates=["increased", "decreased"])

    # ---- RET
    f = b.facts
    b.qa("RET", "Which meditation app do I use?", "Insight Timer (the free version).", "Insight Timer", "string",
         [f["app"]])
    b.qa("RET", "What daily coffee limit did my GP give me?", "3 coffees a day (Dr Okafor).", 3, "number",
         [f["gp_limit"]], 0, CUPS)
    b.qa("RET", "What's my therapist called?", "Joanne.", "Joanne", "string", [f["therapist"]])
    b.qa("RET", "How much did I allow myself per month for eating out?", "£150 a month, starting in October.", 150,
         "number", [f["budget"]], 0, GBP)
    b.qa("RET", "What's my cat's name?", "Biscuit.", "Biscuit", "string", [f["cat"]])
    b.qa("RET", "Where are Tom and I going in December?", "Lisbon.", "Lisbon", "string", [f["trip"]])
    b.qa("RET", "Which book did Priya lend me?", "Four Thousand Weeks, by Oliver Burkeman.", "Four Thousand Weeks",
         "string", [f["book"]])


# =============================================================================================
# Scenario 2: notes_app -- terse notes-app lines pasted into the chat
# =============================================================================================

N_PROFILE = {
    "name": "Dev Malhotra",
    "persona_summary": ("38, civil engineer in Leeds, splits the week between the office or site and working "
                        "from home. After a work health check in late May he started a running-and-weight push "
                        "towards a 10K in August and keeps a running note in his phone's notes app: steps, "
                        "water, weight, the day's workout and a #tag for the kind of day (#work, #home, #off, "
                        "#travel). Every few days he pastes the new lines into the chat."),
    "traits": ["terse", "lowercase", "abbreviates everything", "inconsistent capitalisation",
               "skips fields when he forgets", "weighs himself on whatever scale is around"],
    "conversation_style": ("Pastes raw note lines (one or several days, sometimes a small table), adds a "
                           "half-sentence of context, rarely full sentences; occasionally a screenshot of the "
                           "note itself."),
}

N_SPECIAL_TAG = {"2025-07-14": "travel", "2025-07-15": "travel", "2025-08-05": "off", "2025-08-06": "off",
                 "2025-08-08": "off", "2025-06-13": "home"}
# days whose weight was taken on a scale that shows lb (or stone), by how it is written
N_LB_DAYS = {"2025-06-08": "lb", "2025-06-29": "lb", "2025-07-19": "st", "2025-08-10": "lb", "2025-08-16": "lb"}
N_PIN: dict = {"2025-08-06": {"workout": "swim", "workout_min": Fraction(20)}}


def n_values(date: str) -> dict:
    d = D(date)
    rng = random.Random(f"notes_app:day:{date}:v2")
    wd = d.weekday()
    tag = N_SPECIAL_TAG.get(date)
    if tag is None:
        if wd >= 5:
            tag = "off"
        elif wd in (1, 2, 3):
            tag = "work" if rng.random() < 0.85 else "home"
        else:
            tag = "home" if rng.random() < 0.8 else "work"
    else:
        rng.random()
    day_index = (d - D("2025-06-01")).days
    # workout
    workout = None
    p_work = 0.5 + day_index / 84 * 0.2
    if d >= D("2025-07-01") and wd == 1:
        p_work = 0.95          # club run on Tuesdays from July
    if tag == "travel":
        p_work = 0.0           # site trip, no training
    if rng.random() < p_work:
        if d >= D("2025-07-01") and wd == 1:
            workout = "run"
        else:
            workout = rng.choices(["run", "gym", "swim", "yoga"], weights=[45, 25, 14, 16])[0]
    mins = None
    if workout == "run":
        mins = rng.randrange(25, 50) if not (wd >= 5 and d.month == 8) else rng.randrange(60, 86)
    elif workout == "gym":
        mins = rng.choice([40, 45, 50, 55, 60, 60, 70, 75])
    elif workout == "swim":
        mins = rng.choice([25, 30, 30, 35, 40, 45])
    elif workout == "yoga":
        mins = rng.choice([15, 20, 20, 25, 30])
    base = {"work": 8800, "home": 5200, "off": 10200, "travel": 12600}[tag] + day_index * 22
    if workout == "run":
        base += 3600 if mins < 60 else 8000
    steps = max(2100, int(rng.gauss(base, 1500)))
    exact = rng.random() < 0.4
    steps = steps if exact else int(round(steps / 100) * 100)
    v: dict = {"steps": Fraction(steps)}
    if rng.random() < 0.86:
        w = rng.gauss(1.85 + day_index * 0.0085 + (0.25 if workout == "run" else 0), 0.3)
        w = max(1.0, min(3.4, w))
        v["water_l"] = Fraction(int(round(w * 10)), 10) if rng.random() < 0.8 else Fraction(int(round(w * 20)) * 50, 1000)
    if rng.random() < 0.5 or date in N_LB_DAYS:
        kg = 74.9 - day_index * 0.034 + rng.gauss(0, 0.25)
        kind = N_LB_DAYS.get(date)
        if kind == "lb":
            lb = Fraction(int(round(kg / 0.45359237 * 5)), 5)     # that scale shows 0.2 lb steps
            v["weight_kg"] = lb * LB_KG
            v["_lb"] = lb
        elif kind == "st":
            lb = int(round(kg / 0.45359237))
            v["weight_kg"] = lb * LB_KG
            v["_st"] = (lb // 14, lb % 14)
        else:
            v["weight_kg"] = Fraction(int(round(kg * 10)), 10)
    if workout:
        v["workout"] = workout
        v["workout_min"] = Fraction(mins)
    if rng.random() < 0.9 or tag == "travel":
        v["day_tag"] = tag
    v["_tag"] = tag
    v["_exact"] = exact
    v["_style"] = rng.random()
    for k, val in N_PIN.get(date, {}).items():
        v[k] = val
    return v


N_FIELDS = ("steps", "water_l", "weight_kg", "workout", "workout_min", "day_tag")
WD_STYLES = (lambda n: n[:3].lower(), lambda n: n[:3], lambda n: n.lower(), lambda n: n[:3].upper(),
             lambda n: {"Tuesday": "tues", "Wednesday": "weds", "Thursday": "thurs"}.get(n, n[:3].lower()))


class Notes:
    def __init__(self):
        self.b = Builder("notes_app", N_PROFILE, "notes_app")
        self.rng = self.b.rng
        self.logged: set[str] = set()

    # surfaces -----------------------------------------------------------------------------------
    def steps_s(self, v: dict, style: str) -> str:
        n = int(v["steps"])
        if not v["_exact"]:
            k = Fraction(n, 1000)
            txt = f"{float(k):g}k"
            assert parse_steps(txt) == n
            return txt
        return f"{n:,}" if style == "comma" else str(n)

    def water_s(self, v: dict, bare: bool = False) -> str:
        w = v["water_l"]
        if w.denominator in (1, 2, 5, 10) and not bare and self.rng.random() < 0.12 and w < 2:
            return f"{int(w * 1000)}ml"
        if (w * 10).denominator != 1:
            return f"{int(w * 1000)}ml" if not bare else f"{float(w):.2f}"
        txt = f"{float(w):.1f}"
        if bare:
            return txt
        if w.denominator == 1 and self.rng.random() < 0.5:
            txt = str(int(w))
        return txt + self.rng.choice(["L", "l", " L", "L", "L", "l", "ltr"])

    def weight_s(self, v: dict, bare: bool = False) -> str:
        if "_lb" in v:
            return f"{float(v['_lb']):.1f}lb" if self.rng.random() < 0.6 else f"{float(v['_lb']):.1f} lbs"
        if "_st" in v:
            return f"{v['_st'][0]}st {v['_st'][1]}lb"
        txt = f"{float(v['weight_kg']):.1f}"
        return txt if bare else txt + self.rng.choice(["", "kg", "kg", " kg"])

    def mins_s(self, m: int, bare: bool = False) -> str:
        if bare:
            return str(m)
        if m >= 60 and self.rng.random() < 0.6:
            h, r = divmod(m, 60)
            return f"{h}h{r:02d}" if r else f"{h}h"
        return f"{m}{self.rng.choice(['m', 'm', 'min', ' min', ' mins'])}"

    def tag_s(self, tag: str) -> str:
        return "#" + self.rng.choice([tag, tag, tag, tag.capitalize(), tag.upper()])

    def date_token(self, sdate: dt.date, d: dt.date, force: str | None = None):
        delta = (sdate - d).days
        rng = self.rng
        if force == "date" or delta > 6:
            mon = MONTHS[d.month - 1][:3]
            txt = rng.choice([f"{d.day} {mon.lower()}", f"{WEEKDAYS[d.weekday()][:3]} {d.day} {mon}", f"{d.day} {mon}"])
            return ("date", txt)
        if delta == 0:
            return ("today", rng.choice(["today", "tdy", "Today"]))
        if delta == 1 and rng.random() < 0.4:
            return ("yesterday", rng.choice(["yday", "yesterday"]))
        name = WEEKDAYS[d.weekday()]
        return ("weekday", rng.choice(WD_STYLES)(name))

    # one line (or block) per day ---------------------------------------------------------------
    def workout_bits(self, v: dict, surf: dict, layout: str) -> str:
        rng = self.rng
        if "workout" not in v:
            return rng.choice(["no run", "rest day", "rest", "", "", "no ex"]) if layout != "table" else "-"
        w, m = v["workout"], int(v["workout_min"])
        ms = self.mins_s(m, bare=(layout == "table" and rng.random() < 0.5))
        surf["workout_min"] = ms
        label = w
        if w == "run":
            label = rng.choice(["run", "run", "run", "club run" if self.club_day(v) else "run", "parkrun" if self.parkrun(v) else "run"])
            if rng.random() < 0.3 and m < 60:
                dist = f"{round(m / 6.1, 1):g}k"
                surf["workout"] = label
                return f"{label} {dist} {ms}" if layout != "table" else f"{label} {ms}"
        elif w == "gym":
            label = rng.choice(["gym", "gym", "gym (legs)", "gym - upper", "gym"])
        elif w == "swim":
            if rng.random() < 0.4 and layout != "table":
                surf["workout"] = "swim"
                return f"swim {ms} ({m // 2 + 4} lengths)"
        surf["workout"] = label
        return f"{label} {ms}"

    def club_day(self, v) -> bool:
        return self.cur_date.weekday() == 1 and self.cur_date >= D("2025-07-08")

    def parkrun(self, v) -> bool:
        return self.cur_date.weekday() == 5 and int(v["workout_min"]) < 40

    def line(self, date: str, sdate: dt.date, layout: str, force_cue: str | None = None):
        d = D(date)
        self.cur_date = d
        v = n_values(date)
        rng = self.rng
        surf: dict = {}
        cue = self.date_token(sdate, d, force_cue)
        tok = cue[1]
        style = "comma" if rng.random() < 0.5 else "plain"
        st = self.steps_s(v, style)
        surf["steps"] = st
        parts = []
        if layout == "inline":
            parts.append(f"{st} steps" if rng.random() < 0.7 else f"steps {st}")
            if "water_l" in v:
                ws = self.water_s(v)
                surf["water_l"] = ws
                parts.append(rng.choice([f"water {ws}", f"h2o {ws}", f"{ws} water"]))
            if "weight_kg" in v:
                ks = self.weight_s(v)
                surf["weight_kg"] = ks
                parts.append(rng.choice([f"wt {ks}", f"w {ks}", f"wt {ks}"]) if "st" not in ks else f"wt {ks}")
            wb = self.workout_bits(v, surf, layout)
            if wb:
                parts.append(wb)
            body = ", ".join(parts)
            if "day_tag" in v:
                t = self.tag_s(v["day_tag"])
                surf["day_tag"] = t
                body += " " + t
            text = f"{tok}: {body}"
        elif layout == "dash":
            wb = self.workout_bits(v, surf, layout)
            bits = [wb + "." if wb else None, f"{st} steps."]
            if "water_l" in v:
                ws = self.water_s(v)
                surf["water_l"] = ws
                bits.append(rng.choice([f"{ws} water.", f"h2o {ws}."]))
            if "weight_kg" in v:
                ks = self.weight_s(v)
                surf["weight_kg"] = ks
                bits.append(f"{ks}." if rng.random() < 0.5 else f"weighed {ks}.")
            body = " ".join(b for b in bits if b)
            if "day_tag" in v:
                t = self.tag_s(v["day_tag"])
                surf["day_tag"] = t
                body += " " + t
            text = f"{tok} \u2014 {body}"
        elif layout == "bullets":
            rows = [f"- steps {st}" if rng.random() < 0.5 else f"- {st} steps"]
            if "water_l" in v:
                ws = self.water_s(v)
                surf["water_l"] = ws
                rows.append(f"- water {ws}")
            if "weight_kg" in v:
                ks = self.weight_s(v)
                surf["weight_kg"] = ks
                rows.append(f"- {ks}" if any(u in ks for u in ("kg", "lb", "st")) else f"- wt {ks}")
            wb = self.workout_bits(v, surf, layout)
            if wb:
                rows.append(f"- {wb}")
            if "day_tag" in v:
                t = self.tag_s(v["day_tag"])
                surf["day_tag"] = t
                rows.append(t)
            text = tok + "\n" + "\n".join(rows)
        elif layout == "slash":
            bits = [st]
            if "water_l" in v:
                ws = self.water_s(v)
                surf["water_l"] = ws
                bits.append(ws if not re.fullmatch(r"[\d.]+", ws) else ws + "L")
                surf["water_l"] = bits[-1]
            if "weight_kg" in v:
                ks = self.weight_s(v)
                if re.fullmatch(r"[\d.]+", ks):
                    ks += "kg"
                surf["weight_kg"] = ks
                bits.append(ks)
            wb = self.workout_bits(v, surf, layout)
            if wb and wb not in ("rest", "rest day", "no run", "no ex"):
                bits.append(wb)
            body = " / ".join(bits)
            if "day_tag" in v:
                t = self.tag_s(v["day_tag"])
                surf["day_tag"] = t
                body += " " + t
            text = f"{tok} {body}"
        elif layout == "table":
            ws = self.water_s(v, bare=True) if "water_l" in v else "-"
            if "water_l" in v:
                surf["water_l"] = ws
            ks = self.weight_s(v, bare=True) if "weight_kg" in v else "-"
            if "weight_kg" in v:
                surf["weight_kg"] = ks
            wb = self.workout_bits(v, surf, layout)
            t = self.tag_s(v["day_tag"]) if "day_tag" in v else ""
            if t:
                surf["day_tag"] = t
            text = f"{tok} | {st} | {ws} | {ks} | {wb} | {t}".rstrip(" |")
        else:
            raise ValueError(layout)
        fields = {k: v[k] for k in N_FIELDS if k in v}
        assert date not in self.logged, date
        self.logged.add(date)
        rec = {"observed": d, "record_type": "day_note", "fields": fields, "surf": surf, "cue": cue}
        return text, rec

    def paste(self, s: dict, dates: list[str], assistant: str, layout: str, pre: str = "", post: str = "",
              force: dict | None = None, caption: bool = False) -> str:
        force = force or {}
        lines, recs = [], []
        for date in dates:
            text, rec = self.line(date, s["_date"], layout, force.get(date))
            lines.append(text)
            recs.append(rec)
        if layout == "table":
            head = self.rng.choice(["date | steps | h2o (L) | wt (kg) | ex | tag",
                                    "day | steps | water L | kg | workout | #"])
            lines.insert(0, head)
        sep = "\n\n" if layout == "bullets" else "\n"
        body = sep.join(lines)
        if caption:
            flat = [l.replace("\n- ", ": ", 1).replace("\n- ", ", ").replace("\n#", " #") for l in lines]
            cap_text = ("Screenshot of an iPhone Notes app page titled 'daily \U0001F3C3'. The note shows these lines "
                        "in plain text: " + " // ".join(flat) +
                        ". A checklist further down reads '\u2610 book physio', '\u2611 renew gym'.")
            user = "\n".join(x for x in (pre, post) if x)
            return self.b.round(s, user, assistant, recs, captions=[cap_text])
        user = "\n".join(x for x in (pre, body, post) if x)
        return self.b.round(s, user, assistant, recs)

    def talk(self, s: dict, user: str, assistant: str, fact: str | None = None) -> str:
        return self.b.round(s, user, assistant, fact=fact)


def build_notes() -> Builder:
    N = Notes()
    b = N.b

    s = b.session("2025-06-03")
    N.talk(s, "ok so. work health check last week said my BMI is 'borderline' so this is the summer I actually "
              "move. tracking it in my notes app: steps, water, weight, workouts + a tag for what kind of day it "
              "was. watch is a garmin forerunner 165, step goal set to 10k",
           "Good plan. Paste the notes whenever you like, in whatever shape they're in, and I'll keep the log: "
           "steps, water, weight, workouts and the day tags. I'll keep your 10k step goal in mind too.",
           fact="watch,step_goal")
    N.talk(s, "warning: the notes are not pretty. I'll paste every few days",
           "Not pretty is fine. I'll read them as they come.")
    N.paste(s, ["2025-06-01", "2025-06-02"], "Got Sunday and Monday.", "inline", pre="since sun:")
    N.talk(s, "what's a sensible amount of protein for someone my size, 75ish kg?",
           "Around 1.2 to 1.6 g per kg a day is a common range for people training, so roughly 90 to 120 g for you.")
    N.paste(s, ["2025-06-03"], "Today's in.", "dash")
    N.talk(s, "J says 10k steps is a made-up number from a japanese pedometer ad lol",
           "J's right that the 10,000 figure started with a 1960s pedometer campaign, but more daily steps are "
           "still clearly linked to better health, so it's a fine target.")
    N.talk(s, "fair. still doing it", "Good.")
    N.talk(s, "J's watch goal is 8k btw and she smashes it every day, which is rude",
           "Different goals for different people. Yours is the one I'll measure you against.")

    s = b.session("2025-06-09")
    N.paste(s, ["2025-06-04", "2025-06-05", "2025-06-06"], "Added Wednesday to Friday.", "inline", pre="wed-fri")
    N.talk(s, "weekend at my parents'. their scale is in pounds, sorry in advance",
           "No problem, I'll convert pounds to kg when I log it.")
    N.paste(s, ["2025-06-08"], "Sunday logged, converted from pounds.", "slash",
            post="(J did 14.2k at the food festival on sat, I sat down for most of it so didn't bother logging sat)")
    N.talk(s, "is it normal for weight to jump a kilo after a salty dinner?",
           "Yes, water retention after a salty meal can easily add 0.5 to 1.5 kg for a day or two. Trends over weeks "
           "matter more than single readings.")
    N.talk(s, "good because the curry was worth it", "Sounds like it.")
    N.talk(s, "is swimming ok for the knee or should I just run through it?",
           "Swimming is low impact and a good way to keep fitness while a knee settles; get it checked if it "
           "keeps hurting.")
    N.talk(s, "ok back to work, site visit at 2", "Good luck on site.")
    N.talk(s, "oh and for the record the first weigh-in at the health check was 75.6 on their scale, clothes on",
           "Noted as context. I'll keep the log to the weigh-ins you paste from your notes.")

    s = b.session("2025-06-15")
    N.talk(s, "saw a physio about my knee (Marta, v good). knee is fine, just a tight IT band. she wants me on "
              "2.5L water a day minimum now I'm running more",
           "Glad the knee's ok. 2.5 L a day from now on, noted; I can tell you how often you hit it.",
           fact="physio,water_target")
    N.paste(s, ["2025-06-10", "2025-06-11", "2025-06-12"], "Tuesday to Thursday added.", "bullets",
            pre="tue-thu from the notes app:")
    N.talk(s, "foam roller is evil", "It is, but your IT band will thank you.")
    N.paste(s, ["2025-06-14"], "Saturday's in.", "dash", post="skipped fri entirely, was at a wedding")
    N.talk(s, "wedding had a 3 course meal and an open bar. no notes.", "Sounds like a good wedding.")
    N.talk(s, "sunday = sofa", "Well earned.")
    N.talk(s, "how much water is actually in a pint glass? trying to count",
           "A UK pint is 568 ml, so four pints is about 2.3 L.")

    s = b.session("2025-06-21")
    N.paste(s, ["2025-06-13"], "Added Friday the 13th.", "inline", pre="found the line for last friday, I'd saved it "
            "in the wrong note:", force={"2025-06-13": "date"})
    N.paste(s, ["2025-06-16", "2025-06-17", "2025-06-18"], "Monday to Wednesday added.", "table",
            pre="this week so far, made a table bc why not")
    N.talk(s, "watch says my weekly avg is 8.4k, which feels generous",
           "Watches count all day including small movements, so it can run a bit higher than what you note down.")
    N.paste(s, ["2025-06-20"], "Yesterday logged.", "slash", post="plan: long run tomorrow, 10k-ish if the knee behaves")
    N.talk(s, "thurs was a write-off btw, 13 hr day on site, didn't note anything",
           "Understood, I'll leave Thursday out rather than guess.")
    N.talk(s, "cheers", "Any time.")
    N.talk(s, "strava says my 5k pb is now 27:40 (from the middle of a longer run, so it probably doesn't count lol)",
           "It's a nice sign either way. A standalone 5k would probably be a bit quicker.")

    s = b.session("2025-06-28")
    N.talk(s, "signed up for the Kirkstall Abbey 10K on 31 Aug!! no backing out now",
           "Brilliant, a clear goal. That gives you about nine weeks to build up.", fact="race")
    N.paste(s, ["2025-06-23", "2025-06-24"], "Monday and Tuesday added.", "dash")
    N.paste(s, ["2025-06-26", "2025-06-27"], "Thursday and Friday in.", "inline", post="bf 21.8% on the "
            "fancy scale at the gym, no idea if those are real")
    N.talk(s, "those bioimpedance scales are rubbish right?",
           "They're noisy and swing with hydration, so treat the body-fat number as a rough trend at best.")
    N.talk(s, "thought so", "Your weight trend is the more useful number.")
    N.talk(s, "race is 9 weeks tomorrow. training plan says 3 runs a week building to 12k",
           "That's a sensible structure. Keep one run easy, one steady, one longer.")
    N.talk(s, "going to a bbq tmrw, pray for me", "Enjoy it!")
    N.talk(s, "bbq menu: 4 kinds of sausage. I'm going to try to have 2",
           "Two sausages and a lot of salad sounds like a solid plan.")

    s = b.session("2025-07-04")
    N.paste(s, ["2025-06-29", "2025-06-30"], "Sunday and Monday added (Sunday converted from pounds).", "bullets",
            pre="sun + mon", post="sun was at my parents' again, hence lbs")
    N.talk(s, "target for race day: 72.5kg. realistic?",
           "From where you are, losing a couple of kilos over two months is realistic with steady training. "
           "72.5 kg by race day, noted.", fact="target_wt")
    N.paste(s, ["2025-07-01", "2025-07-02", "2025-07-03"], "Tuesday to Thursday added.", "inline",
            pre="this wk:")
    N.talk(s, "J is doing couch to 5k now, she's on week 3", "Nice, you'll have a running partner.")
    N.talk(s, "she's faster than me already", "That's how it goes.")
    N.talk(s, "off to my sister's for the weekend", "Have a good weekend.")
    N.talk(s, "her kids will make me do 20k steps chasing them round the park, guaranteed",
           "Free training. Enjoy it.")

    s = b.session("2025-07-10")
    N.talk(s, "went to Hyde Park Harriers on tuesday for the first time. v friendly, slightly terrifying. going to "
              "make it a weekly thing",
           "Great, a club gives you structure and company. Tuesday club runs it is.", fact="club")
    N.paste(s, ["2025-07-05", "2025-07-06"], "The weekend's added.", "slash", pre="weekend:")
    N.paste(s, ["2025-07-08", "2025-07-10"], "Tuesday and today added.", "dash",
            post="wed I forgot to write anything, oops")
    N.talk(s, "how many rest days should I be taking?",
           "At your stage one or two full rest days a week, plus easy days between harder sessions.")
    N.talk(s, "two it is then", "Sensible.")
    N.talk(s, "heading to newcastle mon-tue for a site job btw", "Safe travels.")
    N.talk(s, "the site's got 6 flights of stairs and no lift, so my steps will be silly",
           "Your step count will love Newcastle.")

    s = b.session("2025-07-16")
    N.paste(s, ["2025-07-11", "2025-07-12"], "Friday and Saturday added.", "inline")
    N.talk(s, "new shoes arrived: Brooks Ghost 16. £125, ouch",
           "Good choice for easy miles. Break them in on shorter runs first.", fact="shoes")
    N.paste(s, ["2025-07-14", "2025-07-15"], "Monday and Tuesday from Newcastle added.", "bullets",
            pre="newcastle days:", post="no club run this week obvs. J walked 15.8k on sun without me")
    N.talk(s, "hotel breakfast was incredible, 3 sausages may have happened", "Sounds like a good trip.")
    N.talk(s, "back to reality", "Welcome back.")
    N.talk(s, "J asked if newcastle steps count double because it's up north", "Sadly the watch doesn't know geography.")
    N.talk(s, "site manager up there does 25k steps a day apparently. he's 61",
           "Some site managers are secretly endurance athletes.")
    N.talk(s, "how do I stop my shins hurting on the new shoes?",
           "Ease in: shorter runs in them for a week or two, keep your cadence up, and rotate with your old pair.")

    s = b.session("2025-07-22")
    N.paste(s, ["2025-07-17", "2025-07-18", "2025-07-19"], "Thursday to Saturday added, Saturday converted from "
            "stone and pounds.", "inline", pre="thu-sat", post="sat was mum's bathroom scale, stone only")
    N.talk(s, "switched gyms to The Edge (the uni one), half the price of the old place",
           "Nice saving. I'll keep logging gym sessions the same way.", fact="gym")
    N.paste(s, ["2025-07-21"], "Yesterday's in.", "dash")
    N.talk(s, "club's doing hill reps tonight, 8 x 200m. skipping it, knee's grumbling",
           "Sensible. One missed session won't matter, a niggle that turns into an injury would.")
    N.talk(s, "foam roller and netflix instead", "A proper recovery evening.")
    N.talk(s, "night", "Night!")
    N.talk(s, "wait, quick one: is 3L of water too much?",
           "For most healthy adults 3 L on a hot or training day is fine; just spread it across the day.")

    s = b.session("2025-07-29")
    N.paste(s, ["2025-07-23", "2025-07-24"], "Wednesday and Thursday added.", "table",
            pre="screenshot wouldn't send, here's the table:")
    N.paste(s, ["2025-07-27", "2025-07-28"], "Sunday and Monday added.", "slash",
            post="rhr 56 per garmin, was 63 in may")
    N.talk(s, "rhr dropping is good right?", "Yes, a falling resting heart rate usually means your fitness is improving.")
    N.talk(s, "ok then i'm basically an athlete", "Basically.")
    N.talk(s, "J finished couch to 5k!! she ran 5k in 34 min", "Congratulations to J!")
    N.talk(s, "she's insufferable", "She's earned it.")
    N.talk(s, "(tue and fri notes are missing, I was lazy. no workout either day anyway)",
           "Fine, I'll leave those days out.")

    s = b.session("2025-08-04")
    N.paste(s, ["2025-07-30", "2025-07-31", "2025-08-01"], "Wednesday to Friday added.", "bullets",
            pre="wed - fri", caption=True, post="screenshot of the note this time, the copy-paste is broken")
    N.paste(s, ["2025-08-02", "2025-08-03"], "Weekend added.", "inline",
            post="legs are dead. planning a 12k long run next sun")
    N.talk(s, "off to whitby tomorrow til fri, will still note stuff", "Enjoy Whitby!", fact="whitby")
    N.talk(s, "fish and chips budget: unlimited", "As it should be.")
    N.talk(s, "any tips for running on holiday?",
           "Keep it easy, run early before it gets busy, and treat the coast path as a bonus long run.")
    N.talk(s, "the 199 steps count as hill reps", "They absolutely do.")
    N.talk(s, "J wants to know how many steps the 199 steps is. I told her 199",
           "Technically correct, the best kind of correct.")

    s = b.session("2025-08-11")
    N.paste(s, ["2025-08-05", "2025-08-06", "2025-08-08"], "Whitby days added.", "dash",
            pre="whitby:", post="thu was a washout, rained all day, no notes")
    N.talk(s, "swam in the sea on wed, 12 degrees, never again", "Brave. Twelve degrees is properly cold.")
    N.paste(s, ["2025-08-10"], "Yesterday logged, converted from pounds.", "slash", pre="back home:",
            post="parents' scale again")
    N.talk(s, "3 weeks til the race", "You're on track. Start thinking about a taper in the last week.")
    N.talk(s, "what's a taper", "Cutting your running volume in the final week or so so you start the race fresh.")
    N.talk(s, "ah ok", "You'll feel it work.")
    N.talk(s, "planned week: mon rest, tue club 8k, thu 5k easy, sat parkrun, sun 12k long",
           "That's a sensible last hard week before the taper.")

    s = b.session("2025-08-17")
    N.paste(s, ["2025-08-12", "2025-08-13", "2025-08-14"], "Tuesday to Thursday added.", "table")
    N.talk(s, "club coach says aim for 55ish min for the 10k. I'd take 59:59",
           "Anything under the hour would be a great first 10K.")
    N.paste(s, ["2025-08-16"], "Yesterday logged.", "bullets", caption=True,
            pre="sat (screenshot again, sorry)", post="parents' again, lbs")
    N.talk(s, "J wants to do the race next year too", "A family tradition in the making.")
    N.talk(s, "god help us", "Ha.")
    N.talk(s, "taper starts monday", "Good, keep the runs short and easy this week.")
    N.talk(s, "weight's been hovering around 72 all week, I'll take it", "That's a great trend since June.")

    s = b.session("2025-08-23")
    N.paste(s, ["2025-08-18", "2025-08-19", "2025-08-20"], "Monday to Wednesday added.", "inline",
            pre="taper week so far:")
    N.paste(s, ["2025-08-21"], "Thursday added.", "dash")
    N.talk(s, "race is next sunday. bib number 1187, wave B", "Exciting! You're ready.")
    N.talk(s, "nervous", "Normal. Trust the training you've logged all summer.")
    N.talk(s, "what should I eat the night before?",
           "Something familiar and carb-heavy but not huge: pasta or rice, nothing new or very spicy.")
    N.talk(s, "no vindaloo then", "Save it for the celebration.")
    N.talk(s, "if I do it in under an hour J owes me a curry, if it's over I owe her two",
           "Strong incentive. Start steady and pick it up after halfway.")
    N.talk(s, "ok. deep breaths. will send the race stuff after", "Good luck, Dev. Enjoy it.")
    return b


def build_notes_qas(b: Builder) -> None:
    days = lambda cond=None, f=None: recs_of(b, "day_note", cond, f)
    STEPS, L, KG, MIN = "steps", "L", "kg", "minutes"
    kinds = ["run", "gym", "swim", "yoga"]
    tags = ["work", "home", "off", "travel"]
    tag_is = lambda t: (lambda r: r["fields"].get("day_tag") == t)
    fmt_steps = lambda x: f"{rnd(x, 1):,}"

    # ---- AVG
    rs = days(month_is(7), "steps")
    v = mean(vals(rs, "steps"))
    b.qa("AVG", "What was my average daily step count in July?",
         f"{fmt_steps(v)} steps a day over the {len(rs)} July days in your notes.", rval(v, 1), "number", rids(rs),
         0.05, STEPS)
    rs = days(tag_is("home"), "water_l")
    v = mean(vals(rs, "water_l"))
    b.qa("AVG", "How much water did I drink on average on my #home days?",
         f"{rnd(v, 2)} L a day over {len(rs)} #home days with a water figure.", rval(v, 2), "number", rids(rs),
         0.05, L)
    rs = days(month_is(8), "weight_kg")
    v = mean(vals(rs, "weight_kg"))
    b.qa("AVG", "What did I weigh on average in August?",
         f"{rnd(v, 1)} kg on average over {len(rs)} August weigh-ins (pound readings converted).", rval(v, 1),
         "number", rids(rs), 0.05, KG)
    rs = days(lambda r: r["fields"].get("workout") == "run", "workout_min")
    v = mean(vals(rs, "workout_min"))
    b.qa("AVG", "How long were my runs on average?", f"{rnd(v, 1)} minutes on average over {len(rs)} runs.",
         rval(v, 1), "number", rids(rs), 0.05, MIN)
    rs = days(month_is(6))
    hit = [r for r in rs if "workout" in r["fields"]]
    v = Fraction(100 * len(hit), len(rs))
    b.qa("AVG", "In June, on what percentage of the days I logged did I do some kind of workout?",
         f"{rnd(v, 1)}% ({len(hit)} of {len(rs)} logged June days).", rval(v, 1), "number", rids(rs), 0.05, "%")
    rs = days(lambda r: r["fields"].get("workout") == "run", "steps")
    v = mean(vals(rs, "steps"))
    b.qa("AVG", "On days I went for a run, what was my average step count?",
         f"{fmt_steps(v)} steps on average over {len(rs)} run days.", rval(v, 1), "number", rids(rs), 0.05, STEPS)

    # ---- SUM
    rs = days(month_is(7), "workout_min")
    tot = sum(vals(rs, "workout_min"))
    b.qa("SUM", "How many minutes did I spend working out in July in total?",
         f"{tot} minutes ({hm(tot)}) across {len(rs)} workouts.", int(tot), "number", rids(rs), 0, MIN)
    rs = days(between("2025-08-01", "2025-08-07"), "water_l")
    tot = sum(vals(rs, "water_l"))
    b.qa("SUM", "How much water did I drink in total from August 1 to August 7?",
         f"{rnd(tot, 2)} L over the {len(rs)} days with a water figure.", rval(tot, 2), "number", rids(rs), 0.01, L)
    rs = days(between("2025-06-16", "2025-06-22"), "steps")
    tot = sum(vals(rs, "steps"))
    b.qa("SUM", "What was my total step count for the week of June 16\u201322, 2025?",
         f"{int(tot):,} steps over the {len(rs)} days you noted that week.", int(tot), "number", rids(rs), 0, STEPS)
    rs = days(between("2025-08-05", "2025-08-08"), "steps")
    tot = sum(vals(rs, "steps"))
    b.qa("SUM", "How many steps did I do in total while I was away in Whitby?",
         f"{int(tot):,} steps over the {len(rs)} Whitby days in your notes (August 5 to 8).", int(tot), "number",
         rids(rs) + [b.facts["whitby"]], 0, STEPS)
    rs = days(lambda r: r["fields"].get("workout") == "swim", "workout_min")
    tot = sum(vals(rs, "workout_min"))
    b.qa("SUM", "How many minutes did I swim altogether?", f"{tot} minutes over {len(rs)} swims.", int(tot), "number",
         rids(rs), 0, MIN)

    # ---- CNT
    rs = days(lambda r: r["fields"]["steps"] >= 10000)
    b.qa("CNT", "On how many days did I reach my watch's step goal?",
         f"{len(rs)} days with 10,000 steps or more.", len(rs), "number", rids(rs) + [b.facts["step_goal"]], 0, "days")
    rs = days(lambda r: r["observed"].month == 8 and r["fields"].get("water_l", 0) >= Fraction(5, 2))
    b.qa("CNT", "In August, on how many days did I drink at least as much water as my physio told me to?",
         f"{len(rs)} days with 2.5 L or more.", len(rs), "number", rids(rs) + [b.facts["water_target"]], 0, "days")
    rs = days(lambda r: r["observed"].month == 7 and r["fields"].get("workout") == "run")
    b.qa("CNT", "How many runs did I log in July?", f"{len(rs)} runs.", len(rs), "number", rids(rs), 0, "runs")
    rs = days(lambda r: "weight_kg" in r["fields"] and r["fields"]["weight_kg"] <= Fraction("72.5"))
    b.qa("CNT", "How many of my weigh-ins were at or below my race-day target weight?",
         f"{len(rs)} weigh-ins at or under 72.5 kg.", len(rs), "number", rids(rs) + [b.facts["target_wt"]], 0, "times")
    rs = days(lambda r: r["observed"].month == 6 and r["fields"].get("day_tag") == "home")
    b.qa("CNT", "How many #home days did I log in June?", f"{len(rs)} days tagged #home.", len(rs), "number",
         rids(rs), 0, "days")

    # ---- MAX
    rs = days(None, "steps")
    top = unique_arg(rs, lambda r: r["fields"]["steps"])
    b.qa("MAX", "What was my highest step count in a single day?",
         f"{int(top['fields']['steps']):,} steps, on {nice_date(top['observed'])}.", int(top["fields"]["steps"]),
         "number", rids(rs), 0, STEPS)
    rs = days(None, "workout_min")
    top = unique_arg(rs, lambda r: r["fields"]["workout_min"])
    b.qa("MAX", "On which day did I do my longest workout?",
         f"{top['observed'].isoformat()}: {top['fields']['workout']}, {top['fields']['workout_min']} minutes.",
         top["observed"].isoformat(), "date", rids(rs))
    rs = days(None, "workout")
    cnt = {k: len([r for r in rs if r["fields"]["workout"] == k]) for k in kinds}
    best = max(cnt, key=cnt.get)
    assert sorted(cnt.values())[-1] - sorted(cnt.values())[-2] >= 2
    b.qa("MAX", "Which type of workout did I do most often?", f"{cap(best)}: {cnt[best]} times.", best, "string",
         rids(rs), candidates=kinds)
    rs = days(None, "steps")
    mm = {m: mean(vals([r for r in rs if r["observed"].month == m], "steps")) for m in (6, 7, 8)}
    best = max(mm, key=mm.get)
    assert all(gap_ok(mm[best], mm[m]) for m in mm if m != best)
    b.qa("MAX", "Which month had my highest average daily step count: June, July or August?",
         f"{MONTHS[best - 1]}, with {fmt_steps(mm[best])} steps a day on average.", MONTHS[best - 1], "string",
         rids(rs), candidates=["June", "July", "August"])

    # ---- MIN
    rs = days(None, "weight_kg")
    low = unique_arg(rs, lambda r: r["fields"]["weight_kg"], min)
    b.qa("MIN", "What was my lowest weight reading?", f"{rnd(low['fields']['weight_kg'], 2)} kg, on "
         f"{nice_date(low['observed'])}.", rval(low["fields"]["weight_kg"], 2), "number", rids(rs), 0.05, KG)
    rs = days(None, "water_l")
    low = unique_arg(rs, lambda r: r["fields"]["water_l"], min)
    b.qa("MIN", "On which day did I drink the least water?", f"{low['observed'].isoformat()}, only "
         f"{rnd(low['fields']['water_l'], 2)} L.", low["observed"].isoformat(), "date", rids(rs))
    rs = days(lambda r: "day_tag" in r["fields"], "steps")
    g = {t: mean(vals([r for r in rs if r["fields"]["day_tag"] == t], "steps")) for t in tags}
    worst = min(g, key=g.get)
    assert all(gap_ok(g[worst], g[t]) for t in tags if t != worst)
    b.qa("MIN", "Which kind of day (#work, #home, #off or #travel) had my lowest average step count?",
         f"#{worst} days, {fmt_steps(g[worst])} steps on average.", worst, "string", rids(rs), candidates=tags)

    # ---- LAT
    rs = days(None, "weight_kg")
    last = max(rs, key=lambda r: r["observed"])
    b.qa("LAT", "What did I weigh the last time I weighed myself?",
         f"{rnd(last['fields']['weight_kg'], 2)} kg, on {nice_date(last['observed'])}.", rval(last["fields"]["weight_kg"], 2),
         "number", [last["round"]], 0.05, KG)
    rs = days(lambda r: r["fields"].get("workout") == "swim")
    last = max(rs, key=lambda r: r["observed"])
    b.qa("LAT", "When did I last go swimming?", f"{last['observed'].isoformat()}, a {last['fields']['workout_min']}-minute "
         "swim.", last["observed"].isoformat(), "date", [last["round"]])
    rs = days(lambda r: r["fields"].get("workout") == "gym")
    last = max(rs, key=lambda r: r["observed"])
    b.qa("LAT", "How long was my most recent gym session?", f"{last['fields']['workout_min']} minutes, on "
         f"{nice_date(last['observed'])}.", int(last["fields"]["workout_min"]), "number", [last["round"]], 0, MIN)
    rs = days(tag_is("home"))
    last = max(rs, key=lambda r: r["observed"])
    b.qa("LAT", "When was my most recent #home day?", f"{last['observed'].isoformat()}.", last["observed"].isoformat(),
         "date", [last["round"]])

    # ---- RNG
    rs = days(lambda r: r["fields"].get("workout") == "swim")
    b.qa("RNG", "On which days did I go swimming?", date_list(r["observed"] for r in rs) + ".",
         sorted(r["observed"].isoformat() for r in rs), "list", rids(rs))
    rs = days(lambda r: r["observed"].month == 8 and r["fields"]["steps"] >= 12000)
    b.qa("RNG", "Which days in August did I do 12k steps or more?", date_list(r["observed"] for r in rs) + ".",
         sorted(r["observed"].isoformat() for r in rs), "list", rids(rs))
    rs = days(lambda r: r["observed"].month == 6 and r["fields"].get("water_l", 99) < 2)
    b.qa("RNG", "On which days in June did I drink less than 2 litres of water?",
         date_list(r["observed"] for r in rs) + ".", sorted(r["observed"].isoformat() for r in rs), "list", rids(rs))
    rs = days(between("2025-07-16", "2025-07-31"), "workout")
    ks = sorted({r["fields"]["workout"] for r in rs})
    b.qa("RNG", "What kinds of workout did I do between July 16 and July 31?",
         ", ".join(ks[:-1]) + " and " + ks[-1] + ".", ks, "list", rids(rs), candidates=kinds)

    # ---- CMP
    rs = days(lambda r: r["fields"].get("day_tag") in ("work", "home"), "steps")
    g = {t: mean(vals([r for r in rs if r["fields"]["day_tag"] == t], "steps")) for t in ("work", "home")}
    assert gap_ok(g["work"], g["home"])
    w = max(g, key=g.get)
    b.qa("CMP", "Do I walk more on #work days or on #home days?",
         f"#{w} days: {fmt_steps(g[w])} steps on average, against {fmt_steps(min(g.values()))}.", w, "string",
         rids(rs), candidates=["work", "home"])
    rs = days(lambda r: r["observed"].month in (6, 8), "water_l")
    g = {m: mean(vals([r for r in rs if r["observed"].month == m], "water_l")) for m in (6, 8)}
    assert gap_ok(g[6], g[8])
    w = max(g, key=g.get)
    b.qa("CMP", "Did I drink more water per day in June or in August?",
         f"{MONTHS[w - 1]}: {rnd(g[w], 2)} L a day on average, against {rnd(min(g.values()), 2)} L.", MONTHS[w - 1],
         "string", rids(rs), candidates=["June", "August"])
    rs = days(lambda r: r["observed"].month in (6, 7), "workout_min")
    g = {m: sum(vals([r for r in rs if r["observed"].month == m], "workout_min")) for m in (6, 7)}
    assert abs(g[6] - g[7]) >= 20, g
    w = max(g, key=g.get)
    b.qa("CMP", "Did I spend more time working out in total in June or in July?",
         f"{MONTHS[w - 1]}: {g[w]} minutes, against {min(g.values())}.", MONTHS[w - 1], "string", rids(rs),
         candidates=["June", "July"])
    rs = days(lambda r: r["fields"].get("workout") == "run", "workout_min")
    g = {"weekend": mean(vals([r for r in rs if r["observed"].weekday() >= 5], "workout_min")),
         "weekday": mean(vals([r for r in rs if r["observed"].weekday() < 5], "workout_min"))}
    assert gap_ok(g["weekend"], g["weekday"], 0.05)
    w = max(g, key=g.get)
    b.qa("CMP", "Are my runs longer at the weekend or on weekdays?",
         f"{cap(w)} runs: {rnd(g[w], 1)} minutes on average, against {rnd(min(g.values()), 1)}.", w, "string",
         rids(rs), candidates=["weekend", "weekday"])

    # ---- TRD
    def trend(field, q, unit_word, fmt):
        rs = days(lambda r: r["observed"].month in (6, 8), field)
        a = mean(vals([r for r in rs if r["observed"].month == 6], field))
        z = mean(vals([r for r in rs if r["observed"].month == 8], field))
        assert gap_ok(a, z)
        word = "increased" if z > a else "decreased"
        b.qa("TRD", q, f"It {word}: from {fmt(a)} {unit_word} on average in June to {fmt(z)} in August.", word,
             "string", rids(rs), candidates=["increased", "decreased"])
    trend("weight_kg", "Has my weight gone up or down between June and August?", "kg", lambda x: rnd(x, 1))
    trend("steps", "From June to August, did my daily step count go up or down?", "steps", fmt_steps)
    rs = days(lambda r: r["observed"].month in (6, 8), "workout")
    a = len([r for r in rs if r["observed"].month == 6])
    z = len([r for r in rs if r["observed"].month == 8])
    assert abs(a - z) >= 2, (a, z)
    word = "increased" if z > a else "decreased"
    b.qa("TRD", "Did I work out more or less often in August than in June?",
         f"It {word}: {a} workouts in June, {z} in August.", word, "string", rids(rs),
         candidates=["increased", "decreased"])

    # ---- RET
    f = b.facts
    b.qa("RET", "What step goal did I set on my watch?", "10,000 steps a day.", 10000, "number", [f["step_goal"]], 0,
         STEPS)
    b.qa("RET", "How much water a day did my physio tell me to drink?", "2.5 L a day at least.", 2.5, "number",
         [f["water_target"]], 0.01, L)
    b.qa("RET", "What's my physio's name?", "Marta.", "Marta", "string", [f["physio"]])
    b.qa("RET", "When is the 10K I signed up for?", "2025-08-31, the Kirkstall Abbey 10K.", "2025-08-31", "date",
         [f["race"]])
    b.qa("RET", "Which running club did I join?", "Hyde Park Harriers.", "Hyde Park Harriers", "string", [f["club"]])
    b.qa("RET", "What running shoes did I buy?", "Brooks Ghost 16.", "Brooks Ghost 16", "string", [f["shoes"]])
    b.qa("RET", "What watch do I track my steps with?", "A Garmin Forerunner 165.", "Garmin Forerunner 165", "string",
         [f["watch"]])


# =============================================================================================
# main
# =============================================================================================

def main() -> int:
    builders = []
    b = build_journal()
    build_journal_qas(b)
    builders.append(b)
    b = build_notes()
    build_notes_qas(b)
    builders.append(b)
    errs = [e for b in builders for e in b.check()]
    if errs:
        print("\n".join(errs), file=sys.stderr)
        print(f"{len(errs)} check(s) failed; nothing written", file=sys.stderr)
        return 1
    (HERE / "dialog").mkdir(exist_ok=True)
    (HERE / "records").mkdir(exist_ok=True)
    for b in builders:
        (HERE / "dialog" / f"{b.name}.json").write_text(
            json.dumps(b.dialog_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        (HERE / "records" / f"{b.name}.jsonl").write_text(b.records_jsonl(), encoding="utf-8")
        rounds = sum(len(s["dialogues"]) for s in b.sessions)
        imgs = sum(len(r["image_id"]) for s in b.sessions for r in s["dialogues"])
        types: dict[str, int] = {}
        for r in b.records:
            types[r["record_type"]] = types.get(r["record_type"], 0) + 1
        earlier = sum(1 for r in b.records if r["observed"] < r["_session"]["_date"])
        points: dict[str, int] = {}
        for q in b.qas:
            points[q["point"]] = points.get(q["point"], 0) + 1
        big = sum(1 for q in b.qas if len(q["clue"]) > 10)
        print(f"{b.name}: {len(b.sessions)} sessions {b.sessions[0]['date']} -> {b.sessions[-1]['date']}, "
              f"{rounds} rounds, {imgs} images, records {types} ({earlier} for an earlier day), "
              f"{len(b.qas)} questions {points}, {big} with >10 clue rounds, "
              f"max clue {max(len(q['clue']) for q in b.qas)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
