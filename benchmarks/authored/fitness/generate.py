#!/usr/bin/env python3
"""Deterministic generator of two analytic-memory test scenarios (Python 3.11 standard library only).

    python3 generate.py        # writes dialog/<scenario>.json and records/<scenario>.jsonl, prints a summary

Scenarios:
  strength_training  -- a lifter's gym log (exercise sessions + bodyweight weigh-ins)
  swim_log           -- a swimmer's pool sessions (smartwatch) and open-water swims (typed notes)

The dialogue text and the observation table are written by hand (no random draws, so the output is
fixed); every gold answer is computed from the same observation records (exact Fraction / Decimal
arithmetic), never typed in.
Nothing is written unless every check passes (values visible in their round, dates recoverable,
clue rounds present, list answers sorted, candidate answers among their candidates, CMP/TRD gaps).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
from decimal import ROUND_HALF_UP, Decimal, getcontext
from fractions import Fraction
from pathlib import Path

getcontext().prec = 60
HERE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent  # where dialog/ and records/ go
LB_KG = Fraction(45359237, 10 ** 8)   # 1 lb = 0.45359237 kg (exact)
YD_M = Fraction(9144, 10 ** 4)        # 1 yd = 0.9144 m (exact)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


# -- small helpers ---------------------------------------------------------------------------------

def F(x) -> Fraction:
    """Exact value of a displayed number ('82,5', '1,800', '88.4', 7)."""
    s = str(x).strip()
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", s):
        s = s.replace(",", "")
    return Fraction(s.replace(",", "."))


def day(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def dec(x: Fraction, nd: int) -> Decimal:
    d = Decimal(x.numerator) / Decimal(x.denominator)
    return d.quantize(Decimal(1).scaleb(-nd), rounding=ROUND_HALF_UP)


def val(x: Fraction, nd: int):
    """JSON answer value rounded half-up to nd decimals (int when integral)."""
    d = dec(Fraction(x), nd)
    return int(d) if d == d.to_integral_value() else float(d)


def txt(x: Fraction, nd: int, strip: bool = True) -> str:
    s = f"{dec(Fraction(x), nd):f}"
    if strip and "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def jnum(x):
    if isinstance(x, Fraction):
        return x.numerator if x.denominator == 1 else float(x)
    return x


def mean(xs) -> Fraction:
    xs = list(xs)
    assert xs, "mean of nothing"
    return sum((Fraction(x) for x in xs), Fraction(0)) / len(xs)


def long(d: dt.date) -> str:
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def mmss(seconds: int) -> str:
    m, s = divmod(seconds, 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def secs(display: str) -> int:
    """'44:05' / '1:05:10' / '38 min' -> seconds."""
    m = re.fullmatch(r"(\d+) ?min", display)
    if m:
        return int(m.group(1)) * 60
    parts = [int(p) for p in display.split(":")]
    if len(parts) == 2:
        return parts[0] * 60 + parts[1]
    return parts[0] * 3600 + parts[1] * 60 + parts[2]


# -- records, rounds, QAs --------------------------------------------------------------------------

class Rec:
    """One ground-truth observation. ``fields`` hold exact values; ``disp`` the text form of each
    field as the round writes it (checked to appear in the round)."""

    def __init__(self, rtype: str, observed: str, fields: dict, disp: dict):
        self.rtype, self.observed, self.fields, self.disp = rtype, day(observed), fields, disp
        self.round = ""
        self.session_date: dt.date | None = None

    def get(self, k, default=None):
        return self.fields.get(k, default)

    def json(self) -> dict:
        return {"round": self.round, "observed": self.observed.isoformat(), "record_type": self.rtype,
                "fields": {k: jnum(v) for k, v in self.fields.items()}}


class Scenario:
    def __init__(self, name: str, profile: dict):
        self.name, self.profile = name, profile
        self.sessions: list[dict] = []
        self.records: list[Rec] = []
        self.facts: dict[str, str] = {}
        self.qas: list[dict] = []
        self.order: dict[str, int] = {}
        self.texts: dict[str, str] = {}
        self.img = 0

    def session(self, date: str):
        self.sessions.append({"session_id": f"D{len(self.sessions) + 1}", "date": date, "dialogues": []})

    def say(self, user: str, assistant: str, captions=(), recs=(), fact=None) -> str:
        s = self.sessions[-1]
        rid = f"{s['session_id']}:{len(s['dialogues']) + 1}"
        ids, paths = [], []
        for _ in captions:
            self.img += 1
            ids.append(f"{s['session_id']}:IMG_{self.img:03d}")
            paths.append(f"../image/{self.name}/{s['session_id']}_IMG_{self.img:03d}.jpg")
        s["dialogues"].append({"round": rid, "user": user, "assistant": assistant, "image_id": ids,
                               "input_image": paths, "image_caption": list(captions)})
        for r in recs:
            r.round, r.session_date = rid, day(s["date"])
            self.records.append(r)
        for f in ([fact] if isinstance(fact, str) else (fact or [])):
            assert f not in self.facts, f
            self.facts[f] = rid
        self.order[rid] = len(self.order)
        self.texts[rid] = user + "\n" + "\n".join(captions)
        return rid

    # -- questions
    def qa(self, point, question, answer, value, atype, clue, tol=0, unit=None, cands=None):
        rounds = sorted({c if isinstance(c, str) else c.round for c in clue}, key=lambda r: self.order[r])
        sess = []
        for r in rounds:
            sid = r.split(":")[0]
            if sid not in sess:
                sess.append(sid)
        q = {"point": point, "question": question, "answer": answer, "session_id": sess, "clue": rounds,
             "answer_value": value, "answer_type": atype, "tolerance": tol}
        if unit:
            q["unit"] = unit
        if cands:
            q["candidates"] = list(cands)
        self.qas.append(q)

    # -- checks
    def validate(self):
        errors = []
        for s in self.sessions:
            n = len(s["dialogues"])
            if not 6 <= n <= 10:
                errors.append(f"{s['session_id']} has {n} rounds")
        for r in self.records:
            text = self.texts[r.round]
            for k in r.fields:
                surf = r.disp.get(k)
                if surf is None:
                    errors.append(f"{r.round} {k}: no display form")
                elif not surface_in(surf, text):
                    errors.append(f"{r.round} {k}: {surf!r} not in round text")
            if not date_cue_ok(r.observed, r.session_date, text):
                errors.append(f"{r.round}: date {r.observed} not recoverable")
        qs = set()
        for q in self.qas:
            if q["question"] in qs:
                errors.append(f"duplicate question {q['question']}")
            qs.add(q["question"])
            for c in q["clue"]:
                if c not in self.order:
                    errors.append(f"missing clue round {c}")
            v = q["answer_value"]
            if q["answer_type"] == "list" and (v != sorted(set(v)) or not v):
                errors.append(f"unsorted list answer: {q['question']}")
            if q["answer_type"] == "string" and q.get("candidates") and v not in q["candidates"]:
                errors.append(f"answer not a candidate: {q['question']}")
            if q["answer_type"] == "list" and q.get("candidates") and not set(v) <= set(q["candidates"]):
                errors.append(f"list answer outside candidates: {q['question']}")
        if errors:
            raise SystemExit(f"[{self.name}] refusing to write:\n  " + "\n  ".join(errors))

    def write(self):
        (HERE / "dialog").mkdir(exist_ok=True)
        (HERE / "records").mkdir(exist_ok=True)
        data = {"character_profile": self.profile, "multi_session_dialogues": self.sessions,
                "human-annotated QAs": self.qas}
        (HERE / "dialog" / f"{self.name}.json").write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n",
                                                         encoding="utf-8")
        with open(HERE / "records" / f"{self.name}.jsonl", "w", encoding="utf-8") as fh:
            for r in self.records:
                fh.write(json.dumps(r.json(), ensure_ascii=False) + "\n")

    def summary(self) -> str:
        rounds = sum(len(s["dialogues"]) for s in self.sessions)
        imgs = sum(len(d["image_id"]) for s in self.sessions for d in s["dialogues"])
        by_type: dict[str, int] = {}
        for r in self.records:
            by_type[r.rtype] = by_type.get(r.rtype, 0) + 1
        earlier = sum(r.observed < r.session_date for r in self.records)
        pts: dict[str, int] = {}
        for q in self.qas:
            pts[q["point"]] = pts.get(q["point"], 0) + 1
        big = sum(len(q["clue"]) > 10 for q in self.qas)
        big20 = sum(len(q["clue"]) >= 20 for q in self.qas)
        mx = max(len(q["clue"]) for q in self.qas)
        return (f"{self.name}: {len(self.sessions)} sessions ({self.sessions[0]['date']} -> {self.sessions[-1]['date']}), "
                f"{rounds} rounds, {imgs} images, records {by_type} ({earlier} for an earlier day), "
                f"{len(self.qas)} QAs {pts}; clue>10: {big}, >=20: {big20}, max {mx}")


def surface_in(surf: str, text: str) -> bool:
    if re.fullmatch(r"[\d.,:]+", surf):
        return re.search(r"(?<![\d.,:])" + re.escape(surf) + r"(?![\d]|[.,:]\d)", text) is not None
    return surf.lower() in text.lower()


def date_patterns(d: dt.date) -> list[str]:
    full, short = MONTHS[d.month - 1], MONTHS[d.month - 1][:3]
    return [d.isoformat(), rf"\b{full} {d.day}(?!\d)", rf"\b{short} {d.day}(?!\d)", rf"(?<!\d){d.day} {full}\b",
            rf"(?<!\d){d.day} {short}\b", rf"(?<!\d){d.day:02d}\.{d.month:02d}\.{d.year}",
            rf"(?<![\d/]){d.day:02d}/{d.month:02d}(?![\d/])", rf"(?<![\d/]){d.month}/{d.day}(?![\d/])"]


def date_cue_ok(observed: dt.date, session: dt.date, text: str) -> bool:
    gap = (session - observed).days
    if gap < 0:
        return False
    if gap == 0:
        return True
    if any(re.search(p, text) for p in date_patterns(observed)):
        return True
    low = text.lower()
    if gap == 1 and ("yesterday" in low or "last night" in low):
        return True
    return 1 <= gap <= 6 and re.search(r"\b" + WEEKDAYS[observed.weekday()] + r"\b", text) is not None


def months_between(recs, months):
    return [r for r in recs if r.observed.month in months]


def in_range(recs, a: str, b: str):
    return [r for r in recs if day(a) <= r.observed <= day(b)]


# ==================================================================================================
# Scenario 1: strength_training
# ==================================================================================================

EX_ALIAS = {"squat": "squat", "bench press": "bench", "deadlift": "deadlift", "overhead press": "overhead press",
            "barbell row": "row"}


def lift(date, ex, sets, reps, w, rpe, gym, unit="kg", ex_s=None, sets_s=None, reps_s=None, gym_s=None) -> Rec:
    """One exercise session line: top-set weight displayed as ``w`` in ``unit`` (stored in kg)."""
    fields, disp = {"exercise": ex}, {"exercise": ex_s or EX_ALIAS[ex]}
    if sets is not None:
        fields["sets"], disp["sets"] = sets, sets_s or str(sets)
    if reps is not None:
        fields["reps"], disp["reps"] = reps, reps_s or str(reps)
    fields["top_set_weight_kg"] = F(w) * (LB_KG if unit == "lb" else 1)
    disp["top_set_weight_kg"] = w
    if rpe is not None:
        fields["rpe"], disp["rpe"] = F(rpe), rpe
    if gym is not None:
        fields["gym"], disp["gym"] = gym, gym_s or gym
    return Rec("exercise_session", date, fields, disp)


def weigh(date, w, unit="kg") -> Rec:
    return Rec("bodyweight", date, {"bodyweight_kg": F(w) * (LB_KG if unit == "lb" else 1)}, {"bodyweight_kg": w})


def build_strength() -> Scenario:
    sc = Scenario("strength_training", {
        "name": "Mateus Ferreira",
        "persona_summary": "36-year-old structural engineer from Porto living in Rotterdam. Lifts three times a "
                           "week at Iron Yard, a small barbell gym near his flat, and at Forge Athletic by the office; "
                           "site inspections take him to hotels in Aberdeen and Chicago whose gyms only have pound "
                           "plates. Coached remotely by Ilse and preparing for his first powerlifting meet.",
        "traits": ["methodical", "a little competitive", "self-deprecating", "writes in gym shorthand when tired"],
        "conversation_style": "Logs sessions as app screenshots, notebook photos, shorthand or quick sentences; "
                              "chats about food, sleep, travel and his coach's rules in between.",
    })
    say = sc.say

    # ---------------------------------------------------------------- D1
    sc.session("2025-02-04")
    say("Hi! I'd like to keep my lifting log in this chat for the next few months so I can ask you things later. "
        "Context: I train three times a week, mostly at Iron Yard, the little barbell gym round the corner from my "
        "flat, and sometimes at Forge Athletic next to the office. My coach is Ilse — she writes my programme "
        "remotely and checks in on Sundays.",
        "Happy to be your training log, Mateus. Send sessions however is easiest — app screenshots, notebook "
        "photos or quick notes — and I'll keep track of lifts, sets, reps, top-set weights and how hard they felt.",
        fact="coach")
    say("Ilse's one hard rule for this block: no top set above RPE 9. If a set looks like it'll be harder than a 9 "
        "I'm supposed to rack it and drop the weight. 9.5s and 10s are for meet day only, she says.",
        "Understood — RPE 9 is the ceiling for top sets this block. I'll point it out when a logged set goes past it.",
        fact="rpe_cap")
    say("Yesterday at Iron Yard: squats 5 sets of 5, top set 115 kg, RPE 7.5. Bench 5x5 with 85, felt like an 8. "
        "Finished with barbell rows, 4x8 at 70 — didn't bother rating those.",
        "Logged for Monday: squat 5×5 at 115 kg (RPE 7.5), bench 5×5 at 85 kg (RPE 8), rows 4×8 at 70 kg. "
        "A sensible place to start the block.",
        recs=[lift("2025-02-03", "squat", 5, 5, "115", "7.5", "Iron Yard"),
              lift("2025-02-03", "bench press", 5, 5, "85", "8", "Iron Yard"),
              lift("2025-02-03", "barbell row", 4, 8, "70", None, "Iron Yard")])
    say("Weigh-in this morning, before coffee.",
        "Noted. I'll keep your weigh-ins next to the lifts so we can watch the trend toward your class.",
        captions=["Photo looking down at a glass bathroom scale on grey floor tiles. The blue backlit display reads "
                  "88.4 kg. Two bare feet are visible at the bottom edge of the frame."],
        recs=[weigh("2025-02-04", "88.4")])
    say("The big picture: my first powerlifting meet, the Lowlands Classic, is on May 24. I'm entered in the 93 kg "
        "class. My goal for this block is a 140 kg squat top set before the meet. (My gym mate Jonas squats 180, but "
        "he's been lifting for ten years, so I'm not comparing. Much.)",
        "That's a clear target: Lowlands Classic on May 24, 93 kg class, and a 140 kg squat as the block goal. "
        "Comparing yourself with someone ten years in is a losing game — compare with your own log instead.",
        fact=["meet_date", "weight_class", "squat_goal"])
    say("How many warm-up sets do you think I need before working sets around 120 on squat? I usually do the empty "
        "bar, 60, 80, 100 and then go.",
        "That ramp is fine. Something like bar ×10, 60 ×5, 80 ×3, 100 ×2, and on heavy days a single at about 110 "
        "before the first work set. I won't count warm-ups in your log unless you ask.")
    say("Unrelated: any tips for sleeping after evening sessions? I train at 8 pm most days and then lie awake "
        "until 1.",
        "A few things help: keep caffeine (pre-workout included) before about 2 pm, eat a proper meal afterwards, "
        "a warm shower, and dim screens for the last half hour. A fixed wake-up time does more than a fixed bedtime.")

    # ---------------------------------------------------------------- D2
    sc.session("2025-02-09")
    say("I track everything in an app called Barbell Diary, so most of the time I'll just send you the workout card. "
        "Here's Thursday at Forge.",
        "Perfect, the Barbell Diary cards are easy to read. Thursday logged: deadlift 3×5 at 150 kg (RPE 8) and "
        "overhead press 4×6 at 50 kg (RPE 8).",
        captions=["Screenshot of a workout summary in the Barbell Diary app. Title: 'Thu, 6 Feb 2025 · Forge "
                  "Athletic', duration '1 h 04 min'. Exercise rows: 'Deadlift — 3 × 5 — top set 150 kg — RPE 8' and "
                  "'Overhead Press — 4 × 6 — top set 50 kg — RPE 8'. Footer: 'Total volume 3,450 kg · Streak: 2 weeks'."],
        recs=[lift("2025-02-06", "deadlift", 3, 5, "150", "8", "Forge"),
              lift("2025-02-06", "overhead press", 4, 6, "50", "8", "Forge")],
        fact="app")
    say("Yesterday's session from my notebook — phone died halfway so I went old school.",
        "Old school works. Saturday: squat 4×4 at 120 kg (RPE 8.5) and bench 4×6 at 82.5 kg (RPE 7.5). I've noted "
        "the 122.5 as next week's idea, not as a lift.",
        captions=["Photo of a lined A5 notebook page written in blue ballpoint. Header: 'Sat 8 Feb — Iron Yard'. "
                  "Lines: 'Squat 4x4 — 120 kg — RPE 8.5', 'Bench 4x6 — 82,5 kg — RPE 7.5'. At the bottom, circled: "
                  "'next wk: squat 122.5?'."],
        recs=[lift("2025-02-08", "squat", 4, 4, "120", "8.5", "Iron Yard"),
              lift("2025-02-08", "bench press", 4, 6, "82,5", "7.5", "Iron Yard")])
    say("Iron Yard put the membership up from €35 to €39 a month. Still way cheaper than Forge at €54, and my company "
        "pays half of the Forge one anyway.",
        "Annoying, but €39 for a gym with proper racks and calibrated plates is still good value.",
        fact="membership")
    say("Jonas pulled 200 kg on Friday for the first time, the whole gym went nuts. One day.",
        "Big milestone for him! Your deadlift is moving fast too — 150 for fives this week.")
    say("How much protein should I actually be eating? I'm somewhere around 120 g a day I think.",
        "For someone near 88 kg who's trying to gain strength, 1.6–2.2 g per kg is the usual range, so roughly "
        "140–190 g. Adding a protein-heavy snack after training is the easiest way to close the gap.")
    say("What does RPE 8.5 mean exactly? Ilse uses half points and I'm never sure.",
        "RPE 8 means about two reps left in the tank, RPE 9 about one. An 8.5 is 'maybe two, definitely one' — "
        "you're unsure whether a second extra rep would have gone up.")
    say("Ha, that's exactly how the bench felt on Saturday. Anyway, meal prep done for the week:",
        "That's an impressive wall of containers. Ten lunches sorted!",
        captions=["Photo of a kitchen counter with ten glass meal-prep containers of rice, chicken and broccoli. "
                  "A sticky note on the fridge reads 'Chicken 2 kg — 4 days max'. Oven clock shows 18:42."])

    # ---------------------------------------------------------------- D3
    sc.session("2025-02-14")
    say("Tuesday, Iron Yard:\nSQ 5x3 @125 rpe 9\nBP 5x3 @90 rpe 9\nboth right at Ilse's ceiling",
        "Logged Tuesday at Iron Yard: squat 5×3 at 125 kg and bench 5×3 at 90 kg, both RPE 9 — on the ceiling but "
        "not over it.",
        recs=[lift("2025-02-11", "squat", 5, 3, "125", "9", "Iron Yard", ex_s="SQ"),
              lift("2025-02-11", "bench press", 5, 3, "90", "9", "Iron Yard", ex_s="BP")])
    say("Yesterday at Forge: deadlifts 4 sets of 3 with 160 on top, RPE 8.5. Overhead press 5x5 at 50 kg, easy, "
        "a 7. Rows 4x8 at 72.5, RPE 7.",
        "Thursday at Forge logged: deadlift 4×3 at 160 kg (8.5), overhead press 5×5 at 50 kg (7), rows 4×8 at "
        "72.5 kg (7).",
        recs=[lift("2025-02-13", "deadlift", 4, 3, "160", "8.5", "Forge"),
              lift("2025-02-13", "overhead press", 5, 5, "50", "7", "Forge"),
              lift("2025-02-13", "barbell row", 4, 8, "72.5", "7", "Forge")])
    say("Forgot to send Wednesday's weigh-in: 88.9 kg. Up half a kilo.",
        "Added Wednesday's weigh-in. Half a kilo in a week is right on track for a slow gain.",
        recs=[weigh("2025-02-12", "88.9")])
    say("Ordered an Inzer lever belt, 10 mm. €119 plus shipping, which hurt, but everyone at Iron Yard swears by them.",
        "A lever belt is a buy-once purchase for most lifters. Break it in on lighter sets first — they're stiff.",
        fact="belt")
    say("Valentine's today. Marit booked a table at the Italian place for 8, so tonight's session is cancelled. "
        "Don't tell Ilse.",
        "Your secret is safe. One skipped session won't move the needle — enjoy dinner.")
    say("Is it too much to have two heavy triple days in the same week at my level?",
        "Not if the rest of the week is moderate and you're recovering — sleep, appetite and bar speed are good "
        "tells. If your warm-ups start feeling heavy, that's the sign to pull back.")
    say("Marit says my shoulders look bigger. She's either being nice or the rows are working.",
        "Probably both. Rows and overhead press do a lot for the upper back and shoulders.")

    # ---------------------------------------------------------------- D4
    sc.session("2025-02-20")
    say("Writing from Aberdeen — site inspections until Saturday. I'm at the Kingsgate Hotel; the gym has one squat "
        "rack and a barbell but only pound plates.",
        "Good to have a rack at all on a work trip. Send the numbers in pounds and I'll keep them straight.")
    say("Before I forget, Monday's session before the flight: squats 5x5 at 120 kg, RPE 8, and bench 5x5 at 87.5, "
        "RPE 8.5.",
        "Monday logged: squat 5×5 at 120 kg (RPE 8) and bench 5×5 at 87.5 kg (RPE 8.5).",
        recs=[lift("2025-02-17", "squat", 5, 5, "120", "8", None),
              lift("2025-02-17", "bench press", 5, 5, "87.5", "8.5", None)])
    say("Last night in the Kingsgate gym, all in pounds: bench 4x8 at 175 lb (RPE 7), squat 4x8 at 205 lb (RPE 7). "
        "Weights include the 45 lb bar.",
        "Logged Wednesday at the Kingsgate: bench 4×8 at 175 lb and squat 4×8 at 205 lb, both RPE 7. I'll store "
        "them converted to kilos.",
        recs=[lift("2025-02-19", "bench press", 4, 8, "175", "7", "Kingsgate", unit="lb"),
              lift("2025-02-19", "squat", 4, 8, "205", "7", "Kingsgate", unit="lb")])
    say("Oh and I finished last night at the Kingsgate with overhead press, 3x8 with 95 lb, RPE 8. The dumbbells only go up to "
        "50 lb there, so barbell it was.",
        "Added to Wednesday: overhead press 3×8 at 95 lb (RPE 8).",
        recs=[lift("2025-02-19", "overhead press", 3, 8, "95", "8", "Kingsgate", unit="lb")])
    say("The scale in the hotel spa said 196 lb, but that was after a massive dinner and in jeans, so let's not "
        "count that one.",
        "Agreed, I'll leave it out — post-dinner in jeans isn't a weigh-in.")
    say("Quick one: what's 205 lb in kilos? I want to know how bad that squat really was.",
        "205 lb is about 93 kg — lighter than your home work sets, which is fine for 8s on a strange bar.")
    say("It's 4 degrees and horizontal rain here. The client took us to the harbour at lunch anyway. Scottish "
        "people are built different.",
        "Sounds bracing. At least the site visits give you a reason to skip cardio.")
    say("Flight home is Saturday at 06:40, so no gym Saturday. I'll do Sunday at Iron Yard instead.",
        "Makes sense. Safe travels — and enjoy sleeping in your own bed.")

    # ---------------------------------------------------------------- D5
    sc.session("2025-02-27")
    say("Saturday's page, I only just found it in my gym bag.",
        "Logged Saturday at Iron Yard: deadlift 3×3 at 165 kg (RPE 9) and squat 3×5 at 122.5 kg (RPE 8). The "
        "'205 x1' in the margin is Jonas's, so I've left it out.",
        captions=["Photo of a notebook page in pencil handwriting. Header: 'Sat 22 Feb · Iron Yard'. Lines: "
                  "'Deadlift 3x3 165 kg RPE 9' and 'Squat 3x5 122.5 kg RPE 8'. In the margin, in different "
                  "handwriting: 'Jonas 205 x1 !!'."],
        recs=[lift("2025-02-22", "deadlift", 3, 3, "165", "9", "Iron Yard"),
              lift("2025-02-22", "squat", 3, 5, "122.5", "8", "Iron Yard")])
    say("Yesterday at Forge:",
        "Wednesday logged: bench 5×4 at 90 kg (8.5), overhead press 4×5 at 52.5 kg (8.5), rows 4×8 at 75 kg.",
        captions=["Screenshot of a Barbell Diary workout card: 'Wed, 26 Feb 2025 · Forge Athletic · 58 min'. Rows: "
                  "'Bench Press — 5 × 4 — top set 90 kg — RPE 8.5', 'Overhead Press — 4 × 5 — top set 52.5 kg — RPE "
                  "8.5', 'Barbell Row — 4 × 8 — top set 75 kg — RPE —'. Footer: 'Total volume 5,210 kg'."],
        recs=[lift("2025-02-26", "bench press", 5, 4, "90", "8.5", "Forge"),
              lift("2025-02-26", "overhead press", 4, 5, "52.5", "8.5", "Forge"),
              lift("2025-02-26", "barbell row", 4, 8, "75", None, "Forge")])
    say("And the scale app from Monday:",
        "Monday's weigh-in added. I'll ignore the body-fat estimate — bathroom scales are rough at that.",
        captions=["Screenshot of a smart-scale app history entry: 'Mon 24 Feb · 07:12 · 89.3 kg · Body fat 18.2% · "
                  "Muscle mass 69.1 kg · BMI 27.0'."],
        recs=[weigh("2025-02-24", "89.3")])
    say("The Inzer belt arrived. It's so stiff I can barely get the lever closed.",
        "Classic. Wear it around the house and on lighter sets for a week or two; it softens quickly.",
        captions=["Photo of a black suede lever belt lying on a wooden floor next to its box. The inside label reads "
                  "'INZER FOREVER LEVER · 10MM · SIZE M · 81–102 cm'. A screwdriver lies beside the lever."])
    say("Ilse sent the March plan: squat triples at 130, deadlift up to 170, bench 4x5 at 90. Ambitious.",
        "Ambitious but in line with where you are. Those are targets, so I'll log whatever you actually lift.")
    say("Also she wants me to film every top set from the side. The Iron Yard regulars are going to love me "
        "blocking the mirror.",
        "A phone on a small tripod behind the rack works and keeps you out of the way. The videos will be useful "
        "for meet prep.")
    say("Question: do I need different shoes for squat and deadlift? I just use old Converse for both.",
        "Many lifters squat in raised-heel shoes and deadlift in flat ones. Flat Converse are fine for deadlift; "
        "for squat, try lifters if your ankles are tight.")

    # ---------------------------------------------------------------- D6
    sc.session("2025-03-03")
    say("89.0 on the scale this morning.",
        "Logged today's weigh-in.",
        recs=[weigh("2025-03-03", "89.0")])
    say("At Iron Yard right now. Squat done: 5x3 with 130 kg, RPE 9 — first time touching 130 for reps!!",
        "Huge! Squat 5×3 at 130 kg at RPE 9 logged — right on the cap, not over it.",
        recs=[lift("2025-03-03", "squat", 5, 3, "130", "9", "Iron Yard")])
    say("Bench done too, 4x5 at 90, RPE 8. Iron Yard is empty tonight, had both racks to myself. Going home to eat "
        "everything in the fridge.",
        "Bench 4×5 at 90 kg (RPE 8) logged. Enjoy the fridge.",
        recs=[lift("2025-03-03", "bench press", 4, 5, "90", "8", "Iron Yard")])
    say("Saw the physio about the inside of my right elbow, it's been aching after bench. She says it's golfer's "
        "elbow — nothing serious, just more rows, less death-gripping the bar, and wrist curls.",
        "Good that it's nothing structural. Easing off the grip and adding the wrist work usually settles it in a "
        "few weeks.",
        fact="physio")
    say("She charged €65 for the session, which my insurance apparently doesn't cover. Great.",
        "Frustrating. Worth asking whether a physio referral from your GP changes that.")
    say("How do I know if I'm ready to squat 135? Ilse's plan has me at 130 for a while.",
        "When your 130 triples move fast at RPE 8 or below, 135 is usually there. Trust the plan for now.")
    say("Carnival weekend here. Marit's cousins are visiting and there's a lot of beer in the fridge.",
        "Enjoy the visit — maybe keep the heavy session before the party rather than after.")
    say("Honestly amazed today went so well — the cousins kept us up until 3 last night.",
        "Adrenaline and a good programme can cover a short night once. Don't make it a habit before heavy days.")

    # ---------------------------------------------------------------- D7
    sc.session("2025-03-13")
    say("From Thursday last week at Forge:",
        "Logged March 6 at Forge: deadlift 3×3 at 170 kg (8.5) and overhead press 5×3 at 55 kg (9).",
        captions=["Barbell Diary workout card: 'Thu, 6 Mar 2025 · Forge Athletic · 1 h 11 min'. Rows: 'Deadlift — "
                  "3 × 3 — top set 170 kg — RPE 8.5', 'Overhead Press — 5 × 3 — top set 55 kg — RPE 9'. Footer: "
                  "'Total volume 2,355 kg'."],
        recs=[lift("2025-03-06", "deadlift", 3, 3, "170", "8.5", "Forge"),
              lift("2025-03-06", "overhead press", 5, 3, "55", "9", "Forge")])
    say("Sunday at Iron Yard: squats 4x5 at 125, RPE 8. Nice and controlled.",
        "Logged Sunday's squat: 4×5 at 125 kg, RPE 8.",
        recs=[lift("2025-03-09", "squat", 4, 5, "125", "8", "Iron Yard")])
    say("Confession about Sunday's bench at Iron Yard: 3 triples at 95 kg, RPE 9.5. Yes, over Ilse's ceiling. Ego got me.",
        "Logged: bench 3×3 at 95 kg, RPE 9.5 — above the RPE 9 cap, as you say.",
        recs=[lift("2025-03-09", "bench press", 3, 3, "95", "9.5", "Iron Yard", reps_s="triples")])
    say("yesterday @ Iron Yard\nDL 5x2 @175 rpe 9\nRow 4x6 @80 rpe 8\n(tried 180 for a single after — missed at "
        "the knee)",
        "Logged Wednesday: deadlift 5×2 at 175 kg (9) and rows 4×6 at 80 kg (8). The missed 180 single isn't a "
        "completed set, so it's not in the log.",
        recs=[lift("2025-03-12", "deadlift", 5, 2, "175", "9", "Iron Yard", ex_s="DL"),
              lift("2025-03-12", "barbell row", 4, 6, "80", "8", "Iron Yard")])
    say("Next week I'm in Chicago for a client, staying at the Lakeshore Inn downtown. Their gym apparently has a "
        "proper rack, with pound plates again.",
        "Chicago it is. Same drill as Aberdeen — send pounds and I'll convert.",
        fact="chicago")
    say("Ilse saw the bench video from Sunday and sent a single emoji: 😐",
        "That's coach for 'we need to talk about the cap'.")
    say("What should I eat on the plane? Long flight and I don't trust airline chicken.",
        "Pack something dense and boring: wraps, nuts, a couple of protein bars, fruit. Drink more water than "
        "you think you need.")
    say("Jonas is doing his meet the same day, but in the 105s. He's opening at 220 on deadlift apparently.",
        "Nice to have a teammate on the platform. His openers are his business, though — yours will come from "
        "your training.")

    # ---------------------------------------------------------------- D8
    sc.session("2025-03-21")
    say("Monday at the Lakeshore Inn gym. I wrote it on their whiteboard because my phone was charging — the numbers "
        "in brackets are RPE.",
        "Logged Monday at the Lakeshore: squat 5×5 at 225 lb (6.5), bench 5×5 at 185 lb (7), deadlift 3×5 at "
        "275 lb (6). The 315 bench below yours belongs to someone in room 412.",
        captions=["Photo of a small whiteboard on a hotel gym wall, written in black marker: '3/17  SQ 225 lb 5x5 "
                  "(6.5)  BP 185 lb 5x5 (7)  DL 275 lb 3x5 (6)'. Below it someone else has written 'Room 412 — 315 "
                  "bench x3'. A rack of 45-lb plates stands in the foreground; logo 'Lakeshore Inn Fitness'."],
        recs=[lift("2025-03-17", "squat", 5, 5, "225", "6.5", "Lakeshore", unit="lb", ex_s="SQ"),
              lift("2025-03-17", "bench press", 5, 5, "185", "7", "Lakeshore", unit="lb", ex_s="BP"),
              lift("2025-03-17", "deadlift", 3, 5, "275", "6", "Lakeshore", unit="lb", ex_s="DL")])
    say("Tuesday the hotel bathroom scale said 197.2 lb, first thing in the morning before breakfast.",
        "Logged Tuesday's weigh-in — a proper morning one this time.",
        recs=[weigh("2025-03-18", "197.2", unit="lb")])
    say("Only had time for overhead press yesterday before the client dinner — 4 sets of 6 with 105 lb, RPE 8. "
        "Lakeshore gym again.",
        "Logged Thursday: overhead press 4×6 at 105 lb (RPE 8) at the Lakeshore.",
        recs=[lift("2025-03-20", "overhead press", 4, 6, "105", "8", "Lakeshore", unit="lb")])
    say("The portions here are insane. I ordered a 'small' steak.",
        "That's not small by any standard. Good for the bulk — the 93 kg class limit leaves you some room.",
        captions=["Photo of a restaurant receipt next to a plate with a large steak and fries. The receipt reads "
                  "'Ribeye 16 oz — $48.00 · Fries — $9.00 · Sparkling water — $6.00 · Subtotal $63.00 · Tip 20%'."])
    say("A guy at the hotel gym benched 315 lb for three this morning like it was nothing. Humbling.",
        "There's always someone. Your 185 for fives on a strange bar, jet-lagged, is a fine day's work.")
    say("How do I deal with jet lag on the way back? I land Sunday and want to train Monday.",
        "Get daylight Sunday afternoon, stay up until a normal bedtime, and keep Monday's session a notch "
        "lighter if you feel flat.")
    say("Client signed off on the bridge inspection. Small win.",
        "Congratulations — a good week all round.")

    # ---------------------------------------------------------------- D9
    sc.session("2025-03-30")
    say("Ilse makes me fill in her sheet every week — here's week 8.",
        "Week 8 logged from the sheet: March 24 squat and bench, March 27 deadlift, overhead press and rows, "
        "March 29 squat and bench. I used the 'Top (kg)' column; 'Plan (kg)' is what Ilse prescribed.",
        captions=["Screenshot of a Google Sheets tab 'Wk 8' in the spreadsheet 'Mateus — Block 2'. Header row: "
                  "Date | Lift | Sets | Reps | Plan (kg) | Top (kg) | RPE | Gym. Rows: "
                  "'24/03 | Squat | 3 | 3 | 132.5 | 135 | 9.5 | Iron Yard'; "
                  "'24/03 | Bench | 5 | 3 | 92.5 | 92.5 | 8.5 | Iron Yard'; "
                  "'27/03 | Deadlift | 3 | 2 | 177.5 | 180 | 9 | Forge'; "
                  "'27/03 | OHP | 3 | 5 | 55 | 55 | 8 | Forge'; "
                  "'27/03 | Row | 3 | 10 | 75 | 75 |  | Forge'; "
                  "'29/03 | Squat | 4 | 4 | 130 | 130 | 8.5 | Iron Yard'; "
                  "'29/03 | Bench | 4 | 4 | 95 | 95 | 9 | Iron Yard'. "
                  "A comment bubble from Ilse on the 24/03 squat row: 'RPE??'."],
        recs=[lift("2025-03-24", "squat", 3, 3, "135", "9.5", "Iron Yard"),
              lift("2025-03-24", "bench press", 5, 3, "92.5", "8.5", "Iron Yard"),
              lift("2025-03-27", "deadlift", 3, 2, "180", "9", "Forge"),
              lift("2025-03-27", "overhead press", 3, 5, "55", "8", "Forge", ex_s="OHP"),
              lift("2025-03-27", "barbell row", 3, 10, "75", None, "Forge"),
              lift("2025-03-29", "squat", 4, 4, "130", "8.5", "Iron Yard"),
              lift("2025-03-29", "bench press", 4, 4, "95", "9", "Iron Yard")])
    say("Thursday's weigh-in was 89.8. Creeping up, still well under 93.",
        "Added Thursday's weigh-in. Plenty of room under the class limit.",
        recs=[weigh("2025-03-27", "89.8")])
    say("Ilse's comment on the sheet is about the 135 squat. She says 9.5 twice in a month is a pattern, not an "
        "accident.",
        "She has a point — both of your over-the-cap sets this month came on days you felt good and pushed.")
    say("Do you think I should tell her I'd rather test a heavy single in April?",
        "Tell her — coaches prefer honesty over surprises. She may fit a single into a planned heavy day.")
    say("Ilse's Sunday check-in: from April only one heavy deadlift day a week, and more bench practice because "
        "it's my weakest lift.",
        "Makes sense for meet prep — deadlifts are the most fatiguing lift, and bench rewards frequent practice.")
    say("Changed the clocks last night, lost an hour of sleep, feel like a zombie.",
        "Daylight-saving Sunday gets everyone. Early night tonight and you'll be fine by Tuesday.")
    say("Marit and I are thinking about a weekend in Porto in June, after the meet. My mum wants to see the medal "
        "I don't have yet.",
        "Sounds lovely — and it's good motivation for the last weeks of prep.")

    # ---------------------------------------------------------------- D10
    sc.session("2025-04-02")
    say("Lunch session at Forge. Bench done: 5 triples at 95 kg, RPE 8.5. A guy next to me is curling in the squat "
        "rack, send help.",
        "Bench 5×3 at 95 kg, RPE 8.5 — logged. The curl-in-the-rack guy is a universal constant.",
        recs=[lift("2025-04-02", "bench press", 5, 3, "95", "8.5", "Forge", reps_s="triples")])
    say("Overhead press 4x4 with 57,5 kg — RPE 8.5 as well. Forge is packed at lunch, never again. Back to the office.",
        "Overhead press 4×4 at 57.5 kg (RPE 8.5) logged. Good lunch break.",
        recs=[lift("2025-04-02", "overhead press", 4, 4, "57,5", "8.5", "Forge")])
    say("Paid the meet entry today.",
        "Now it's real! Entry and licence sorted, flight B.",
        captions=["Screenshot of a confirmation email from the federation: 'Lowlands Classic 2025 — registration "
                  "confirmed. Lifter: Mateus Ferreira · Category: M -93 kg · Flight: B · Entry fee €65.00 · Annual "
                  "licence €25.00 · Total paid €90.00'."])
    say("Weigh-ins at the meet open at 7:00 and I lift in flight B around 11. What do I eat in between?",
        "Something you've tested before: rice cakes with honey, a banana, a light sandwich, and sip fluids. "
        "Nothing new on meet day.")
    say("Jonas says I should try a 'pause' squat on light days. Worth it?",
        "Yes — pauses build position and they're required in the bench anyway. Keep them light, around 70–75%.")
    say("Just realised I've never competed in anything except a 5k fun run in 2019.",
        "Then this is a great first competition: you'll get a total, and everything is a PR on the platform.")
    say("Spent the evening watching meet videos on YouTube instead of sleeping. Classic.",
        "Relatable. Keep a few of the technical ones, skip the rest, and get to bed.")

    # ---------------------------------------------------------------- D11
    sc.session("2025-04-09")
    say("Saturday!!! Iron Yard. Squat 140 kg for 3 doubles — BLOCK GOAL HIT — but honestly RPE 9.5 on the last one.",
        "Congratulations on the 140! Logged Saturday: squat 3×2 at 140 kg, RPE 9.5 — a touch over Ilse's cap, "
        "but what a milestone.",
        recs=[lift("2025-04-05", "squat", 3, 2, "140", "9.5", "Iron Yard", reps_s="doubles")])
    say("Then I got greedy on Saturday, still at Iron Yard: deadlift 3x2 at 185, also a 9.5. Ilse was not thrilled.",
        "Logged Saturday's deadlift: 3×2 at 185 kg, RPE 9.5. I can see why she wasn't thrilled.",
        recs=[lift("2025-04-05", "deadlift", 3, 2, "185", "9.5", "Iron Yard")])
    say("And yesterday:",
        "Tuesday logged: squat 4×3 at 135 kg (8.5) and bench 4×3 at 97.5 kg (9).",
        captions=["Barbell Diary workout card: 'Tue, 8 Apr 2025 · Iron Yard · 1 h 02 min'. Rows: 'Back Squat — 4 × "
                  "3 — top set 135 kg — RPE 8.5', 'Bench Press — 4 × 3 — top set 97.5 kg — RPE 9'. Footer: 'Total "
                  "volume 2,790 kg'."],
        recs=[lift("2025-04-08", "squat", 4, 3, "135", "8.5", "Iron Yard"),
              lift("2025-04-08", "bench press", 4, 3, "97.5", "9", "Iron Yard")])
    say("Weighed in yesterday morning, before the session.",
        "Logged Tuesday's weigh-in.",
        captions=["Screenshot of the smart-scale app: 'Tue 8 Apr · 06:58 · 90.6 kg · Body fat 17.9% · 7-day "
                  "average 90.3 kg'."],
        recs=[weigh("2025-04-08", "90.6")])
    say("Ilse's reply to the 140: 'Great. Now never do that again before May.' I think she's smiling.",
        "Sounds like a proud coach hiding it well.")
    say("If the 140 moved at 9.5, what would a max be? 145? 147.5?",
        "A 9.5 double suggests a single somewhere around 145–148, but that's an estimate, not a lift. Ilse will "
        "pick openers from your training, not from a calculator.")
    say("Elbow is much better, by the way. Wrist curls are boring but they work.",
        "Good news — keep them in until the meet.")
    say("Marit bought me a singlet as a joke. It's bright orange. I'm going to wear it.",
        "Excellent choice. The judges will definitely see you.",
        captions=["Photo of a bright orange wrestling singlet laid out on a bed, a tag reading 'Size L · €34.95' "
                  "still attached, next to a pair of knee sleeves."])

    # ---------------------------------------------------------------- D12
    sc.session("2025-04-15")
    say("Friday, Forge:\nDL doubles, worked up to 182.5 @ rpe 9 — lost count of the sets, 4 or 5\nOHP 3x3 @60 rpe "
        "9.5 (PR!)",
        "Logged Friday at Forge: deadlift doubles at 182.5 kg (RPE 9; set count unknown, so I left it blank) and "
        "overhead press 3×3 at 60 kg (RPE 9.5 — a PR, and over the cap).",
        recs=[lift("2025-04-11", "deadlift", None, 2, "182.5", "9", "Forge", ex_s="DL", reps_s="doubles"),
              lift("2025-04-11", "overhead press", 3, 3, "60", "9.5", "Forge", ex_s="OHP")])
    say("Back in Aberdeen, Kingsgate again, so pound plates again. Just did bench: 4x6 at 190 lb, RPE 8.",
        "Logged today at the Kingsgate: bench 4×6 at 190 lb, RPE 8.",
        recs=[lift("2025-04-15", "bench press", 4, 6, "190", "8", "Kingsgate", unit="lb")])
    say("And squat 4x5 at 250 lb, RPE 7.5. The Kingsgate rack wobbles, so I kept it sensible.",
        "Squat 4×5 at 250 lb (RPE 7.5) logged. Sensible is right on a wobbly rack.",
        recs=[lift("2025-04-15", "squat", 4, 5, "250", "7.5", "Kingsgate", unit="lb")])
    say("The Kingsgate bought new plates since February. Still pounds, but at least they're not rusty.",
        "Progress of a kind!")
    say("It's strange, hotel sessions feel easier. Maybe because nobody's watching.",
        "The weights are also a bit lighter than at home — 250 lb is well under your squat work sets.")
    say("How many weeks out should I stop heavy deadlifts before the meet?",
        "Most lifters take their last heavy pull 10–14 days out and keep the final week very light. Ask Ilse "
        "what she has planned.")
    say("Five and a half weeks to go. Starting to get nervous.",
        "Normal. Nerves mean you care; your log says you're ready for a solid first meet.")

    # ---------------------------------------------------------------- D13
    sc.session("2025-04-22")
    say("Saturday, notebook again (app update broke the login).",
        "Logged Saturday at Iron Yard: squat 3×2 at 142.5 kg (RPE 9.5) and bench 3×2 at 100 kg (RPE 9.5). "
        "Congratulations on the first 100 kg bench!",
        captions=["Photo of the blue notebook open on a gym bench. Header: 'Sat 19 Apr · Iron Yard'. Lines: "
                  "'Squat 3x2 142.5 kg RPE 9.5' and 'Bench 3x2 100 kg RPE 9.5 — FIRST 100!!!'. A chalky thumbprint "
                  "smudges the lower corner."],
        recs=[lift("2025-04-19", "squat", 3, 2, "142.5", "9.5", "Iron Yard"),
              lift("2025-04-19", "bench press", 3, 2, "100", "9.5", "Iron Yard")])
    say("Thursday's weigh-in:",
        "Added Thursday's weigh-in.",
        captions=["Photo of the bathroom scale display showing 90.9 kg, the end of a towel hanging into the frame."],
        recs=[weigh("2025-04-17", "90.9")])
    say("Ilse says the 100 kg bench can be my second attempt at the meet if it looks like that again.",
        "That would be a great meet bench. She'll decide closer to the day.")
    say("Easter Monday was a lazy day — we had lunch with Marit's parents for four hours.",
        "Rest days count as training too, especially this close to a meet.")
    say("Also, Jonas hit 232.5 on deadlift in training. He's a machine.",
        "He'll have a good day on the platform then. You both will.",
        captions=["Still frame from a phone video in a gym: a large man in a black hoodie locking out a deadlift. "
                  "The bar is loaded with red, blue and green plates; a chalk-written whiteboard behind him says "
                  "'JONAS 232.5 PR'. Timestamp overlay '19:52'."])
    say("Do I need to practise commands? 'Squat', 'rack', 'start', 'press'...",
        "Yes — have someone call them on your heavy days. Missing a command is the most common way to lose a "
        "good lift at a first meet.")
    say("I'll ask Jonas to yell at me on Saturday. He'll enjoy that.",
        "He probably will. Good plan.")

    # ---------------------------------------------------------------- D14
    sc.session("2025-04-28")
    say("Last Wednesday at Forge. Look at the banner 😎",
        "A 190 kg deadlift PR! Logged April 23: deadlift 2×1 at 190 kg (RPE 10), overhead press 3×3 at 60 kg (9), "
        "rows 4×6 at 85 kg (8).",
        captions=["Barbell Diary workout card: 'Wed, 23 Apr 2025 · Forge Athletic · 1 h 15 min'. Rows: 'Deadlift — 2 "
                  "× 1 — top set 190 kg — RPE 10', 'Overhead Press — 3 × 3 — top set 60 kg — RPE 9', 'Barbell Row — "
                  "4 × 6 — top set 85 kg — RPE 8'. Banner across the top: 'New PR: Deadlift 190 kg'."],
        recs=[lift("2025-04-23", "deadlift", 2, 1, "190", "10", "Forge"),
              lift("2025-04-23", "overhead press", 3, 3, "60", "9", "Forge"),
              lift("2025-04-23", "barbell row", 4, 6, "85", "8", "Forge")])
    say("Saturday was a lighter day at Iron Yard: squat 3x3 at 135, RPE 8, and rows 4x8 at 80. Skipped bench to "
        "rest the elbow.",
        "Logged Saturday: squat 3×3 at 135 kg (RPE 8) and rows 4×8 at 80 kg. Resting the elbow was a good call.",
        recs=[lift("2025-04-26", "squat", 3, 3, "135", "8", "Iron Yard"),
              lift("2025-04-26", "barbell row", 4, 8, "80", None, "Iron Yard")])
    say("Saturday morning weigh-in, 90.7 kg.",
        "Logged. Comfortably inside the 93s.",
        recs=[weigh("2025-04-26", "90.7")])
    say("Ilse's proposed attempts for the meet. She says openers should feel boring.",
        "Boring openers are the right openers — all three are weights you've moved for reps in this block. "
        "Seconds and thirds are plans, so I won't log them as lifts.",
        captions=["Screenshot of a WhatsApp message from Ilse: 'Attempts v1 — SQ 130 / 137.5 / 142.5 · BP 92.5 / 97.5 "
                  "/ 100 · DL 175 / 185 / 192.5. Subject to change after week 12.' Sent 21:14."])
    say("Jonas thinks I should open at 135 on squat. I'm going with Ilse.",
        "Good instinct — the coach who's watched every video gets the vote.")
    say("Four weeks out. Any last tips for the final block?",
        "Sleep, practise commands, rehearse your meet-day food, and don't chase PRs in training — save them for "
        "May 24.")
    say("Thanks for keeping track of all this. Much easier than scrolling through three apps and a notebook.",
        "Any time. Keep sending sessions and we'll have the whole prep in one place.")
    return sc


def check_gap(a, b, rel=None, absolute=None, what=""):
    a, b = Fraction(a), Fraction(b)
    if rel is not None:
        assert abs(a - b) / min(abs(a), abs(b)) >= Fraction(rel), f"gap too small ({what}): {float(a)} vs {float(b)}"
    if absolute is not None:
        assert abs(a - b) >= Fraction(absolute), f"gap too small ({what}): {float(a)} vs {float(b)}"


def unique_best(recs, key, largest=True):
    vals = sorted(recs, key=key, reverse=largest)
    assert len(vals) == 1 or key(vals[0]) != key(vals[1]), "tie for the extreme"
    return vals[0]


def listing(items):
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def strength_questions(sc: Scenario):
    E = [r for r in sc.records if r.rtype == "exercise_session"]
    B = [r for r in sc.records if r.rtype == "bodyweight"]
    EXS = ["squat", "bench press", "deadlift", "overhead press", "barbell row"]
    GYMS = ["Iron Yard", "Forge", "Kingsgate", "Lakeshore"]
    HOTELS = ("Kingsgate", "Lakeshore")
    W = "top_set_weight_kg"

    def ex(name, recs=None):
        return [r for r in (E if recs is None else recs) if r.get("exercise") == name]

    def has(recs, k):
        return [r for r in recs if k in r.fields]

    # ---------------- AVG
    rs = ex("bench press")
    v = mean(r.get(W) for r in rs)
    sc.qa("AVG", "What's my average top-set weight on bench press across the whole log, in kg?",
          f"{txt(v, 1, False)} kg on average over the {len(rs)} bench sessions (pound sessions converted to kg).",
          val(v, 1), "number", rs, 0.05, "kg")
    rs = has(E, "rpe")
    v = mean(r.get("rpe") for r in rs)
    sc.qa("AVG", "Across everything I logged, what was the average RPE of my top sets?",
          f"{txt(v, 1, False)} on average, over the {len(rs)} top sets that had an RPE.", val(v, 1), "number", rs,
          0.05, "RPE")
    rs = months_between(B, [3])
    v = mean(r.get("bodyweight_kg") for r in rs)
    sc.qa("AVG", "How much did I weigh on average in March?",
          f"{txt(v, 1, False)} kg — the mean of your {len(rs)} March weigh-ins (the Chicago one converted from lb).",
          val(v, 1), "number", rs, 0.05, "kg")
    rs = months_between(E, [4])
    dl = ex("deadlift", rs)
    v = Fraction(100 * len(dl), len(rs))
    sc.qa("AVG", "Of all the lifts I logged in April, what percentage were deadlifts?",
          f"{txt(v, 1, False)}% — deadlifts were {len(dl)} of the {len(rs)} exercise entries dated in April.",
          val(v, 1), "number", rs, 0.05, "%")
    rs = has([r for r in E if r.get("gym") in HOTELS], "rpe")
    v = mean(r.get("rpe") for r in rs)
    sc.qa("AVG", "When I trained in hotel gyms, what RPE did I report on average?",
          f"An average RPE of {txt(v, 1, False)} over the hotel-gym lifts that had an RPE.", val(v, 1), "number", rs,
          0.05, "RPE")
    rs = [r for r in ex("deadlift") if r.get("gym") == "Forge"]
    v = mean(r.get(W) for r in rs)
    sc.qa("AVG", "On average, how heavy were my deadlift top sets at Forge?",
          f"{txt(v, 1, False)} kg on average across your deadlift sessions at Forge.", val(v, 1), "number", rs,
          0.05, "kg")
    rs = [r for r in months_between(ex("squat"), [4]) if r.get("gym") == "Iron Yard"]
    v = mean(r.get(W) for r in rs)
    sc.qa("AVG", "What was my average squat top set at Iron Yard in April 2025?",
          f"{txt(v, 1, False)} kg on average for your April squat sessions at Iron Yard.", val(v, 1), "number", rs,
          0.05, "kg")

    # ---------------- SUM
    rs = has(ex("squat"), "sets")
    v = sum(r.get("sets") for r in rs)
    sc.qa("SUM", "How many working sets of squats did I log in total?",
          f"{v} working sets of squat across the whole log.", v, "number", rs, 0, "sets")
    rs = has([r for r in E if r.get("gym") == "Forge"], "sets")
    v = sum(r.get("sets") for r in rs)
    sc.qa("SUM", "Counting the sessions where I noted the number of sets, how many working sets did I do at Forge "
                 "altogether?",
          f"{v} sets at Forge across all exercises (the deadlift doubles with an unknown set count are left out).",
          v, "number", rs, 0, "sets")
    rs = [r for r in months_between(ex("bench press"), [4]) if "sets" in r.fields and "reps" in r.fields]
    v = sum(r.get("sets") * r.get("reps") for r in rs)
    sc.qa("SUM", "How many bench press reps did I do in April, counting sets times reps?",
          f"{v} bench reps in April.", v, "number", rs, 0, "reps")
    first, last = B[0], B[-1]
    assert first.observed == min(r.observed for r in B) and last.observed == max(r.observed for r in B)
    v = last.get("bodyweight_kg") - first.get("bodyweight_kg")
    sc.qa("SUM", "How many kilos did I put on between my first and my last weigh-in?",
          f"{txt(v, 1, False)} kg — from {txt(first.get('bodyweight_kg'), 1, False)} kg on {long(first.observed)} to "
          f"{txt(last.get('bodyweight_kg'), 1, False)} kg on {long(last.observed)}.", val(v, 1), "number",
          [first, last], 0.05, "kg")

    # ---------------- CNT
    rs = [r for r in ex("squat") if r.get("rpe", 0) >= 9]
    sc.qa("CNT", "How many squat sessions did I rate RPE 9 or higher?",
          f"{len(rs)} squat sessions were at RPE 9 or above.", len(rs), "number", rs, 0, "sessions")
    rs = [r for r in E if r.get("gym") in HOTELS]
    days = sorted({r.observed for r in rs})
    sc.qa("CNT", "On how many days did I train in a hotel gym?",
          f"{len(days)} days: " + listing([long(d) for d in days]) + ".", len(days), "number", rs, 0, "days")
    rs = [r for r in E if "rpe" in r.fields and r.get("rpe") <= 8]
    sc.qa("CNT", "How many of my top sets were rated RPE 8 or lower?",
          f"{len(rs)} top sets had an RPE of 8 or less.", len(rs), "number", rs, 0, "sets")
    rs = [r for r in ex("deadlift") if r.get(W) >= 180]
    sc.qa("CNT", "How many times did my deadlift top set reach 180 kg or more?",
          f"{len(rs)} times: " + listing([long(r.observed) for r in rs]) + ".", len(rs), "number", rs, 0, "times")
    cap = 9
    rs = [r for r in E if r.get("rpe", 0) > cap]
    sc.qa("CNT", "How many of my top sets went over Ilse's RPE ceiling?",
          f"{len(rs)} top sets were above her RPE {cap} cap.", len(rs), "number", rs + [sc.facts["rpe_cap"]], 0,
          "sets")

    # ---------------- MAX
    rs = months_between(ex("deadlift"), [3])
    best = unique_best(rs, lambda r: r.get(W))
    sc.qa("MAX", "What was my heaviest deadlift in March?",
          f"{txt(best.get(W), 2)} kg, on {long(best.observed)}.", val(best.get(W), 2), "number", rs, 0.05, "kg")
    rs = ex("squat")
    best = unique_best(rs, lambda r: r.get(W))
    sc.qa("MAX", "On which day did I squat the heaviest weight?",
          f"{best.observed.isoformat()} — {txt(best.get(W), 2)} kg.", best.observed.isoformat(), "date", rs)
    counts = {e: len(ex(e)) for e in EXS}
    top = unique_best(EXS, lambda e: counts[e])
    sc.qa("MAX", "Which lift did I log most often?",
          f"The {top} — {counts[top]} entries.", top, "string", E, cands=EXS)
    rs = [r for r in ex("bench press") if r.get("gym") in HOTELS]
    best = unique_best(rs, lambda r: r.get(W))
    sc.qa("MAX", "What's the heaviest bench I managed in a hotel gym, in kg?",
          f"{txt(best.get(W), 2)} kg ({best.disp[W]} lb) on {long(best.observed)}.", val(best.get(W), 2), "number",
          rs, 0.05, "kg")

    # ---------------- MIN
    best = unique_best(B, lambda r: r.get("bodyweight_kg"), largest=False)
    sc.qa("MIN", "What was my lightest weigh-in?",
          f"{txt(best.get('bodyweight_kg'), 2)} kg on {long(best.observed)}.", val(best.get("bodyweight_kg"), 2),
          "number", B, 0.05, "kg")
    rs = has(ex("deadlift"), "rpe")
    best = unique_best(rs, lambda r: r.get("rpe"), largest=False)
    sc.qa("MIN", "When was my easiest deadlift session, going by RPE?",
          f"{best.observed.isoformat()}, at RPE {txt(best.get('rpe'), 1)}.", best.observed.isoformat(), "date", rs)
    rs = has(E, "rpe")
    avgs = {e: mean(r.get("rpe") for r in ex(e, rs)) for e in EXS}
    low = unique_best(EXS, lambda e: avgs[e], largest=False)
    second = sorted(avgs.values())[1]
    check_gap(avgs[low], second, rel=Fraction(15, 1000), what="lowest-RPE lift")
    sc.qa("MIN", "Which exercise had the lowest average RPE, counting only sets where I noted one?",
          f"The {low}, averaging RPE {txt(avgs[low], 1, False)}.", low, "string", rs, cands=EXS)

    # ---------------- LAT
    rs = ex("overhead press")
    last = max(rs, key=lambda r: r.observed)
    sc.qa("LAT", "When did I last do overhead press?",
          f"{last.observed.isoformat()}, at {last.get('gym')}.", last.observed.isoformat(), "date", [last])
    last = max(ex("bench press"), key=lambda r: r.observed)
    sc.qa("LAT", "What was the top set in my most recent bench session?",
          f"{txt(last.get(W), 2)} kg, on {long(last.observed)}.", val(last.get(W), 2), "number", [last], 0.05, "kg")
    last = max(ex("deadlift"), key=lambda r: r.observed)
    sc.qa("LAT", "What RPE did my latest deadlift session get?",
          f"RPE {txt(last.get('rpe'), 1)}, on {long(last.observed)}.", val(last.get("rpe"), 1), "number", [last], 0,
          "RPE")
    last = max(ex("squat"), key=lambda r: r.observed)
    sc.qa("LAT", "Where did I do my most recent squat session?",
          f"{last.get('gym')}, on {long(last.observed)}.", last.get("gym"), "string", [last], cands=GYMS)

    # ---------------- RNG
    rs = [r for r in ex("deadlift") if r.get("rpe", 0) >= 9]
    ds = sorted({r.observed.isoformat() for r in rs})
    sc.qa("RNG", "On which days did I deadlift at RPE 9 or above?",
          listing([long(day(d)) for d in ds]) + ".", ds, "list", rs)
    rs = [r for r in months_between(E, [4]) if "gym" in r.fields]
    gs = sorted({r.get("gym") for r in rs})
    sc.qa("RNG", "Which gyms did I train at in April?", listing(gs) + ".", gs, "list", rs, cands=GYMS)
    goal = 140
    rs = [r for r in ex("squat") if r.get(W) >= goal]
    ds = sorted({r.observed.isoformat() for r in rs})
    sc.qa("RNG", "On which days did my squat top set reach the goal I set for this block?",
          listing([long(day(d)) for d in ds]) + f" (goal: {goal} kg).", ds, "list", rs + [sc.facts["squat_goal"]])
    rs = [r for r in E if r.get("gym") in HOTELS]
    es = sorted({r.get("exercise") for r in rs})
    sc.qa("RNG", "Which lifts did I do in hotel gyms?", listing(es) + ".", es, "list", rs, cands=EXS)

    # ---------------- CMP
    a = has(months_between(ex("squat"), [2]), "rpe")
    b = has(months_between(ex("squat"), [4]), "rpe")
    ma, mb = mean(r.get("rpe") for r in a), mean(r.get("rpe") for r in b)
    check_gap(ma, mb, rel=Fraction(15, 1000), what="squat RPE Feb/Apr")
    win = "February" if ma > mb else "April"
    sc.qa("CMP", "Was my average squat RPE higher in February or in April?",
          f"{win} — RPE {txt(max(ma, mb), 1, False)} vs {txt(min(ma, mb), 1, False)}.", win, "string", a + b,
          cands=["February", "April"])
    a, b = has(ex("deadlift"), "rpe"), has(ex("squat"), "rpe")
    ma, mb = mean(r.get("rpe") for r in a), mean(r.get("rpe") for r in b)
    check_gap(ma, mb, rel=Fraction(15, 1000), what="deadlift vs squat RPE")
    win = "deadlift" if ma > mb else "squat"
    sc.qa("CMP", "Which felt harder on average going by RPE — my deadlifts or my squats?",
          f"The {win}: average RPE {txt(max(ma, mb), 2)} vs {txt(min(ma, mb), 2)}.", win, "string", a + b,
          cands=["deadlift", "squat"])
    a, b = months_between(E, [3]), months_between(E, [4])
    check_gap(len(a), len(b), absolute=2, what="entries Mar/Apr")
    win = "March" if len(a) > len(b) else "April"
    sc.qa("CMP", "Did I log more exercise entries in March or in April?",
          f"{win}: {max(len(a), len(b))} entries vs {min(len(a), len(b))}.", win, "string", a + b,
          cands=["March", "April"])
    a, b = months_between(ex("overhead press"), [2]), months_between(ex("overhead press"), [3])
    ma, mb = mean(r.get(W) for r in a), mean(r.get(W) for r in b)
    check_gap(ma, mb, rel=Fraction(15, 1000), what="OHP Feb/Mar")
    win = "February" if ma > mb else "March"
    sc.qa("CMP", "Was my overhead press heavier on average in February or in March?",
          f"{win} — {txt(max(ma, mb), 1, False)} kg vs {txt(min(ma, mb), 1, False)} kg average top set.", win,
          "string", a + b, cands=["February", "March"])

    # ---------------- TRD
    a, b = months_between(ex("bench press"), [2]), months_between(ex("bench press"), [4])
    ma, mb = mean(r.get(W) for r in a), mean(r.get(W) for r in b)
    check_gap(ma, mb, rel=Fraction(15, 1000), what="bench Feb/Apr")
    tr = "increased" if mb > ma else "decreased"
    sc.qa("TRD", "From February to April, did my average bench top set go up or down?",
          f"It {tr}: {txt(ma, 1, False)} kg in February, {txt(mb, 1, False)} kg in April.", tr, "string", a + b,
          cands=["increased", "decreased"])
    a, b = has(months_between(ex("squat"), [3]), "sets"), has(months_between(ex("squat"), [4]), "sets")
    sa, sb = sum(r.get("sets") for r in a), sum(r.get("sets") for r in b)
    check_gap(sa, sb, absolute=2, what="squat sets Mar/Apr")
    tr = "increased" if sb > sa else "decreased"
    sc.qa("TRD", "Did my monthly total of squat sets increase or decrease from March to April?",
          f"It {tr}: {sa} sets in March, {sb} in April.", tr, "string", a + b, cands=["increased", "decreased"])
    a, b = has(months_between(E, [2]), "rpe"), has(months_between(E, [4]), "rpe")
    ma, mb = mean(r.get("rpe") for r in a), mean(r.get("rpe") for r in b)
    check_gap(ma, mb, rel=Fraction(15, 1000), what="RPE Feb/Apr")
    tr = "increased" if mb > ma else "decreased"
    sc.qa("TRD", "Comparing February with April, did the average RPE of my top sets rise or fall?",
          f"It {tr}: RPE {txt(ma, 2)} in February vs {txt(mb, 2)} in April.", tr, "string", a + b,
          cands=["increased", "decreased"])

    # ---------------- RET
    sc.qa("RET", "What's the name of my coach?", "Ilse — she writes your programme remotely.", "Ilse", "string",
          [sc.facts["coach"]])
    sc.qa("RET", "When is my first powerlifting meet?", "2025-05-24 — the Lowlands Classic.", "2025-05-24", "date",
          [sc.facts["meet_date"]])
    sc.qa("RET", "Which weight class am I entered in at the meet?", "93 kg class.", 93, "number",
          [sc.facts["weight_class"]], 0, "kg")
    sc.qa("RET", "Which brand of lever belt did I order?", "An Inzer 10 mm lever belt.", "Inzer", "string",
          [sc.facts["belt"]])
    sc.qa("RET", "What did the physio say was wrong with my elbow?", "Golfer's elbow in the right elbow.",
          "golfer elbow", "string", [sc.facts["physio"]])
    sc.qa("RET", "How much is my Iron Yard membership per month now?", "€39 a month (it went up from €35).", 39,
          "number", [sc.facts["membership"]], 0, "EUR")
    sc.qa("RET", "Which app do I log my workouts in?", "Barbell Diary.", "Barbell Diary", "string",
          [sc.facts["app"]])


# ==================================================================================================
# Scenario 2: swim_log
# ==================================================================================================

POOLS = {"Westside": ("m", 25), "Marlowe": ("m", 50), "Brookline YMCA": ("yd", 25)}


def pool(date, where, stroke, dist, dur=None, swolf=None, show_len=True, stroke_s=None, pool_s=None,
         dur_s=None) -> Rec:
    """A smartwatch pool session. ``dist`` is shown in the pool's unit (m, or yd at the YMCA)."""
    unit, plen = POOLS[where]
    n = F(dist)
    lengths = n / plen
    assert lengths.denominator == 1, (date, dist)
    fields = {"distance_m": n * (YD_M if unit == "yd" else 1)}
    disp = {"distance_m": dist}
    if dur is not None:
        fields["duration_s"], disp["duration_s"] = secs(dur), dur_s or dur
    if show_len:
        fields["lengths"], disp["lengths"] = int(lengths), str(int(lengths))
    fields["stroke"], disp["stroke"] = stroke, stroke_s or stroke
    fields["pool"], disp["pool"] = where, pool_s or where
    if swolf is not None:
        fields["swolf"], disp["swolf"] = swolf, str(swolf)
    return Rec("pool_swim", date, fields, disp)


def openwater(date, where, dist, unit, dur, temp, wetsuit, wetsuit_s, where_s=None) -> Rec:
    fields = {"distance_m": F(dist) * (1000 if unit == "km" else 1), "duration_s": secs(dur), "location": where,
              "water_temp_c": F(temp), "wetsuit": wetsuit}
    disp = {"distance_m": dist, "duration_s": dur, "location": where_s or where, "water_temp_c": temp,
            "wetsuit": wetsuit_s}
    return Rec("open_water_swim", date, fields, disp)


def build_swim() -> Scenario:
    sc = Scenario("swim_log", {
        "name": "Hannah Whitcombe",
        "persona_summary": "41-year-old secondary-school chemistry teacher in the north of England. Swims at "
                           "Westside Leisure Centre (25 m) with a Masters group and at the 50 m Marlowe Aquatic Centre "
                           "on weekends, records pool sessions on a smartwatch, and is training for her first 3 km "
                           "open-water race; spends a June week with her sister near Boston, where the pool is in yards.",
        "traits": ["enthusiastic", "data-curious", "easily cold", "teacher humour"],
        "conversation_style": "Sends watch photos and app screenshots, types quick notes after open-water swims, "
                              "and chats about school, her sister and her Masters coach.",
    })
    say = sc.say

    # ---------------------------------------------------------------- D1
    sc.session("2025-04-29")
    say("Hi! I'm getting serious about swimming this year and want to keep my log here. I swim at Westside Leisure "
        "Centre — 25 m pool, five minutes from school — and at the Marlowe Aquatic Centre at weekends, which is "
        "the 50 m one. I wear a Garmin Swim 2 that records most things.",
        "Lovely — send watch photos, app screenshots or quick notes and I'll keep your swims in order: distance, "
        "time, lengths, stroke, pool and SWOLF.",
        fact="watch")
    say("The reason: I've entered the Loch Arden 3K, an open-water race on August 9. 3 km is further than I've ever "
        "swum in one go, pool or lake.",
        "A great goal with a good run-up — a bit over three months. We'll watch your long swims creep toward 3 km.",
        fact=["race_date", "race_distance"])
    say("Catching up — Saturday: Westside, 1500 m free, 33:10, 60 lengths, SWOLF 43. Felt rusty.",
        "Logged Saturday at Westside: 1500 m freestyle in 33:10, 60 lengths, SWOLF 43. Rust comes off quickly.",
        recs=[pool("2025-04-26", "Westside", "freestyle", "1500", "33:10", 43, stroke_s="free")])
    say("Yesterday after work, all freestyle at Westside:",
        "Logged Monday: 1,800 m freestyle at Westside in 39:40, 72 lengths, SWOLF 42.",
        captions=["Photo of a Garmin Swim 2 on a wet wrist, showing the post-swim summary: 'POOL SWIM' · '1,800 m' · "
                  "'39:40' · '72 LEN' · 'SWOLF 42' · 'AVG HR 141'. Drops of water on the screen."],
        recs=[pool("2025-04-28", "Westside", "freestyle", "1,800", "39:40", 42)])
    say("And this morning at the Marlowe before school (yes, 6:30 am):",
        "Impressive dedication! Today logged: 2,000 m freestyle at the Marlowe, 44:05, 40 lengths, SWOLF 83.",
        captions=["Screenshot of a Garmin Connect activity titled 'Marlowe Pool Swim', Tue, Apr 29, 2025 · 06:34. "
                  "Pool length 50 m. Distance 2,000 m · Total time 44:05 · Avg pace 2:12 /100 m · Lengths 40 · "
                  "Avg SWOLF 83 · Calories 418 · Main stroke Freestyle."],
        recs=[pool("2025-04-29", "Marlowe", "freestyle", "2,000", "44:05", 83)])
    say("I also went on Sunday, but the watch died after ten minutes. I'd guess a thousand metres or so, but honestly "
        "no idea — don't log that one.",
        "Fair enough, I'll leave Sunday out since there's no real number for it.")
    say("What actually is SWOLF? And why is it 83 at the Marlowe and only 42 at Westside? Am I twice as bad in the "
        "big pool?",
        "SWOLF is the time for one length in seconds plus the strokes you take on it — lower is better. It depends "
        "on the pool length: a 50 m length takes twice as long and twice the strokes, so the number roughly "
        "doubles. Compare SWOLF only within the same pool.")
    say("Also joined the Westside Masters group on Tuesday and Thursday evenings. The coach, Dev, says my goal before "
        "the race is to get my SWOLF under 40 at Westside.",
        "Great — a coach and a concrete target. SWOLF under 40 in the 25 m pool is noted as Dev's goal.",
        fact=["coach", "swolf_target"])

    # ---------------------------------------------------------------- D2
    sc.session("2025-05-05")
    say("Thursday's Masters session was a breaststroke technique night — 1200 m at Westside, 48 lengths, 32:20 on "
        "the watch, SWOLF 49. Dev says my kick is 'enthusiastic'.",
        "Logged Thursday: 1200 m breaststroke at Westside, 48 lengths, 32:20, SWOLF 49. 'Enthusiastic' is "
        "coach-speak for 'we'll fix it'.",
        recs=[pool("2025-05-01", "Westside", "breaststroke", "1200", "32:20", 49)])
    say("Saturday at the Marlowe was a mixed session — IM drills, a bit of everything:",
        "Logged Saturday: 2,200 m mixed at the Marlowe, 50:30, 44 lengths, SWOLF 88.",
        captions=["Photo of the Garmin Swim 2 screen on a bench by the pool: 'POOL SWIM' · '2,200 m' · '50:30' · "
                  "'44 LEN' · 'SWOLF 88' · 'STROKE: MIXED'."],
        recs=[pool("2025-05-03", "Marlowe", "mixed", "2,200", "50:30", 88)])
    say("Bank holiday today. Marking year 10 mock papers instead of swimming. Send sympathy.",
        "Sympathy sent. Maybe a short swim as a reward after 30 papers?")
    say("New goggles: Aqua Sphere Kayenne, the mirrored ones. No more fogging on the outdoor swims, I hope.",
        "Good choice for open water — mirrored lenses help a lot with low sun on a lake.",
        fact="goggles")
    say("Dev's set for Thursday is 10 x 100 on 2:00, holding 1:50s. I don't think I can hold 1:50s.",
        "That's a target, not a test — if you hold 1:55s with good form, that's a win. Send me what the watch says "
        "afterwards.")
    say("How often should I be swimming to be ready for 3 km in August?",
        "Three or four sessions a week with one long swim is plenty. Build the long one by roughly 10% a week, and "
        "start open water as soon as the lakes are warm enough.")
    say("The lakes are still about 11 degrees. Not yet.",
        "Very sensible. Mid to late May usually brings the first bearable days.")

    # ---------------------------------------------------------------- D3
    sc.session("2025-05-12")
    say("Last week from the watch app:",
        "Logged all three: May 6 Westside 2,000 m freestyle (43:15, SWOLF 42), May 8 Westside 1,200 m "
        "backstroke (30:45, SWOLF 46), May 10 Marlowe 2,500 m freestyle (54:50, SWOLF 81).",
        captions=["Screenshot of Garmin Connect, 'Week of May 5' activity list. Rows: 'Tue May 6 · Westside · Pool "
                  "Swim · 2,000 m · 43:15 · Freestyle · SWOLF 42'; 'Thu May 8 · Westside · Pool Swim · 1,200 m · "
                  "30:45 · Backstroke · SWOLF 46'; 'Sat May 10 · Marlowe · Pool Swim · 2,500 m · 54:50 · Freestyle · "
                  "SWOLF 81'. Footer: 'Total 5,700 m · 3 activities · 2:08:50'."],
        recs=[pool("2025-05-06", "Westside", "freestyle", "2,000", "43:15", 42, show_len=False),
              pool("2025-05-08", "Westside", "backstroke", "1,200", "30:45", 46, show_len=False),
              pool("2025-05-10", "Marlowe", "freestyle", "2,500", "54:50", 81, show_len=False)])
    say("This was Thursday's Masters set on the whiteboard. Dev's handwriting is a crime.",
        "It's legible enough: a 2,400 m plan with a 400 warm-up and the 10 × 100 main set. I'll stick to what your "
        "watch recorded for the log, not the plan.",
        captions=["Photo of a whiteboard on a pool-side wall at Westside Leisure Centre. Handwritten in blue marker: "
                  "'THU MASTERS — WU 400 · 8x50 kick · 10x100 @ 2:00 · 4x50 choice · 200 CD · TOTAL 2400'. A clock "
                  "above the board reads 7:10."])
    say("What pace per 100 m should I aim for in a 3 km race?",
        "Roughly your steady pool pace plus 5–10 seconds per 100 m for sighting and chop. If you swim 2:10s "
        "comfortably in the pool, think 2:15–2:20 in open water.")
    say("There's a woman in my lane, Carol, who swims 4 km every morning before work. She's 67. I'm in awe.",
        "Carol sounds like a legend. Something to aim for in 26 years!")
    say("Backstroke makes me dizzy at the turns. Is that normal?",
        "Quite common — it's usually the flip onto your front or looking around for the wall. Count strokes from the "
        "flags so you can turn without looking.")
    say("Westside put lane swims up to £5.40. The Marlowe is £6.20 but the 50 m pool is worth it.",
        "Still cheaper than most gyms per session. Worth asking whether Westside does a 10-swim card.",
        fact="price")
    say("They do! 10 swims for £48. Bought one.",
        "Nice — a small saving and a commitment device.")
    say("Dev had us do 10 x 100 on Thursday and I held 1:52s. Close enough?",
        "Very close — and much better than you expected. Those hundreds will make the 3 km feel shorter.")

    # ---------------------------------------------------------------- D4
    sc.session("2025-05-19")
    say("Tuesday at Westside:",
        "Logged Tuesday: 2,100 m freestyle at Westside in 45:00, 84 lengths, SWOLF 41.",
        captions=["Screenshot of a Garmin Connect activity 'Westside Pool Swim', Tue, May 13, 2025 · 19:02. Pool "
                  "length 25 m. Distance 2,100 m · Time 45:00 · Lengths 84 · Avg SWOLF 41 · Avg HR 138 · Main stroke: "
                  "Freestyle."],
        recs=[pool("2025-05-13", "Westside", "freestyle", "2,100", "45:00", 41)])
    say("Thursday, Westside: 1600 mixed, 37:40, 64 len, swolf 45",
        "Logged Thursday: 1600 m mixed at Westside, 37:40, 64 lengths, SWOLF 45.",
        recs=[pool("2025-05-15", "Westside", "mixed", "1600", "37:40", 45)])
    say("Saturday at the Marlowe, freestyle the whole way. Longest swim so far!",
        "Logged Saturday: 2,600 m freestyle at the Marlowe, 56:20, 52 lengths, SWOLF 80. A new longest swim!",
        captions=["Photo of the Garmin Swim 2 on a towel, summary screen: 'POOL SWIM' · '2,600 m' · '56:20' · "
                  "'52 LEN' · 'SWOLF 80'."],
        recs=[pool("2025-05-17", "Marlowe", "freestyle", "2,600", "56:20", 80)])
    say("My year 11s had their chemistry exam today. I'm more nervous than they are.",
        "That's the teacher's curse. Fingers crossed for them.")
    say("Do I need a wetsuit for the race? The rules say optional above 16 degrees.",
        "For a first 3 km in a Scottish loch, a wetsuit is a good idea — it adds warmth and buoyancy. Try one on "
        "in a lake before deciding.")
    say("Booked a wetsuit hire for the summer — £60 for three months from the tri shop.",
        "Good plan — you can test it in the lake before you commit to buying.")
    say("Weather says 22 degrees on Saturday. Lake Ellery opens for the season on Sunday!",
        "Perfect timing. Take someone with you and a bright tow float for the first swim.")

    # ---------------------------------------------------------------- D5
    sc.session("2025-05-26")
    say("Tuesday's Masters was breaststroke again: 1400 m at Westside in 37:15, 56 lengths, SWOLF 48.",
        "Logged Tuesday: 1400 m breaststroke at Westside, 37:15, 56 lengths, SWOLF 48.",
        recs=[pool("2025-05-20", "Westside", "breaststroke", "1400", "37:15", 48)])
    say("Thursday at Westside, freestyle. SWOLF creeping toward Dev's target!",
        "Logged Thursday: 2,200 m freestyle at Westside, 46:30, 88 lengths, SWOLF 40 — one point off the target.",
        captions=["Photo of the watch face in a changing room: 'POOL SWIM' · '2,200 m' · '46:30' · '88 LEN' · "
                  "'SWOLF 40' · '07:51 PM'."],
        recs=[pool("2025-05-22", "Westside", "freestyle", "2,200", "46:30", 40)])
    say("Saturday: 2000 m freestyle at Westside, 42 min on the pool clock — forgot to start the watch properly, so "
        "no SWOLF and no length count.",
        "Logged Saturday: 2000 m freestyle at Westside in 42 minutes, without SWOLF or lengths.",
        recs=[pool("2025-05-24", "Westside", "freestyle", "2000", "42 min", None, show_len=False)])
    say("FIRST OPEN WATER OF THE YEAR! Lake Ellery yesterday: 1.2 km in 29:30, water 14°C — wetsuit, obviously. My "
        "face is still numb.",
        "Brilliant! Logged Sunday at Lake Ellery: 1.2 km in 29:30, 14°C, wetsuit. Numb face is the rite of passage.",
        recs=[openwater("2025-05-25", "Lake Ellery", "1.2", "km", "29:30", "14", "yes", "wetsuit")])
    say("How do I stop my hands going useless in cold water?",
        "Acclimatise gradually — short swims, often. Some people use neoprene gloves early in the season, but "
        "check the race rules, as they're often not allowed.")
    say("My friend Jess did 2 km in the same lake yesterday and called it 'bracing'. Jess is a liar.",
        "Jess is a very polite liar. 2 km at that temperature is impressive.")
    say("Half term this week, so I can actually swim in daylight.",
        "Enjoy it — a week of daytime swims is a good block for building distance.")

    # ---------------------------------------------------------------- D6
    sc.session("2025-06-02")
    say("Catching up from last Tuesday — my first 3 km in the pool!",
        "Huge milestone! Logged May 27: 3,000 m freestyle at the Marlowe, 1:05:10, 60 lengths, SWOLF 79. Race "
        "distance in the pool already.",
        captions=["Screenshot of a Garmin Connect activity 'Marlowe Pool Swim', Tue, May 27, 2025 · 10:12. Pool length "
                  "50 m. Distance 3,000 m · Time 1:05:10 · Lengths 60 · Avg SWOLF 79 · Avg pace 2:10 /100 m · Main stroke: Freestyle · "
                  "Personal record badge: 'Longest swim'."],
        recs=[pool("2025-05-27", "Marlowe", "freestyle", "3,000", "1:05:10", 79)])
    say("Thursday: backstroke at Westside, 1200 m, 48 lengths, 30:10, SWOLF 45.",
        "Logged Thursday: 1200 m backstroke at Westside, 30:10, 48 lengths, SWOLF 45.",
        recs=[pool("2025-05-29", "Westside", "backstroke", "1200", "30:10", 45)])
    say("Saturday, Westside, freestyle:",
        "Logged Saturday: 2,400 m freestyle at Westside, 50:20, 96 lengths, SWOLF 40.",
        captions=["Photo of the Garmin Swim 2 summary screen: 'POOL SWIM' · '2,400 m' · '50:20' · '96 LEN' · "
                  "'SWOLF 40'. A blue kickboard is visible in the background."],
        recs=[pool("2025-05-31", "Westside", "freestyle", "2,400", "50:20", 40)])
    say("Lake Ellery again yesterday — 1.6 km, 37:10, 15.5°C. Wetsuit on, and I could actually feel my hands this time.",
        "Logged Sunday at Lake Ellery: 1.6 km in 37:10, 15.5°C, wetsuit. Progress on the hands, too!",
        recs=[openwater("2025-06-01", "Lake Ellery", "1.6", "km", "37:10", "15.5", "yes", "wetsuit")])
    say("Jess sent me her Sunday swim to gloat:",
        "Nice swim by Jess — I'll keep that out of your log, since it's hers.",
        captions=["Screenshot of a Strava activity by 'Jess Porter': 'Open Water Swim · Lake Ellery · Sun, Jun 1, "
                  "2025 · Distance 2.10 km · Moving time 44:10 · Water temp 15 °C · 6 kudos'."])
    say("Is it okay to do a hard pool session the day after a long lake swim?",
        "Usually yes, as long as the lake swim was steady. If your shoulders feel heavy, make the pool session "
        "technique-focused instead.")
    say("Dev says the 3 km race should take me about 1:10 if I pace it properly. That feels slow.",
        "It's a sensible first-race estimate — open water is slower than the pool with sighting and no walls.")
    say("Back to school tomorrow. Six weeks until the summer holidays.",
        "The final stretch! Your swims will have to fit around exam season again.")

    # ---------------------------------------------------------------- D7
    sc.session("2025-06-09")
    say("Last week's pool swims:",
        "Logged June 3 at Westside: 2,300 m freestyle in 48:15, SWOLF 39 — under Dev's target for the first time! "
        "And June 5 at the Marlowe: 2,000 m mixed in 45:40, SWOLF 87.",
        captions=["Screenshot of Garmin Connect, 'Week of Jun 2' list. Rows: 'Tue Jun 3 · Westside · Pool Swim · "
                  "2,300 m · 48:15 · Freestyle · SWOLF 39'; 'Thu Jun 5 · Marlowe · Pool Swim · 2,000 m · 45:40 · "
                  "Mixed · SWOLF 87'. Footer: 'Total 4,300 m · 2 pool activities'."],
        recs=[pool("2025-06-03", "Westside", "freestyle", "2,300", "48:15", 39, show_len=False),
              pool("2025-06-05", "Marlowe", "mixed", "2,000", "45:40", 87, show_len=False)])
    say("Saturday I did 1800 m of freestyle at Westside in 38 minutes. The watch was charging, so no SWOLF, and I "
        "lost count of the lengths.",
        "Logged Saturday: 1800 m freestyle at Westside in 38 minutes, without SWOLF or lengths.",
        recs=[pool("2025-06-07", "Westside", "freestyle", "1800", "38 min", None, show_len=False,
                   dur_s="38 minutes")])
    say("Yesterday: Coldharbour Reservoir with the tri club. 2000m in 45:20. The buoy thermometer said 16 degrees. "
        "Wetsuit.",
        "Logged Sunday at Coldharbour Reservoir: 2000 m in 45:20, 16°C, wetsuit. A new venue!",
        recs=[openwater("2025-06-08", "Coldharbour Reservoir", "2000", "m", "45:20", "16", "yes", "Wetsuit",
                        where_s="Coldharbour Reservoir")])
    say("Flying to Boston tonight to stay with my sister Amy in Brookline for a week. She's a member at the Brookline "
        "YMCA, which has a 25-yard pool. Yards! Help.",
        "Have a great trip! Your watch will count in yards there — send the numbers as they are and I'll convert "
        "them to metres for the log.",
        fact="sister")
    say("What's a yard in metres again? I know it's close.",
        "One yard is exactly 0.9144 m, so 100 yd is 91.44 m — about 9% shorter than 100 m.")
    say("Packed: two swimsuits, goggles, cap, and a ridiculous number of snacks for the flight.",
        "Sounds right. Enjoy Brookline!")
    say("Amy says the Y has a hot tub. This might be the best training camp ever.",
        "Recovery is training too!")

    # ---------------------------------------------------------------- D8
    sc.session("2025-06-15")
    say("Tuesday at the Y — the watch switched to yards all by itself:",
        "Logged Tuesday at the Brookline YMCA: 1,650 yd freestyle in 35:20, 66 lengths, SWOLF 36 — stored as metres.",
        captions=["Screenshot of a Garmin Connect activity 'Pool Swim', Tue, Jun 10, 2025 · Brookline YMCA. Pool "
                  "length 25 yd. Distance 1,650 yd · Time 35:20 · Lengths 66 · Avg SWOLF 36 · Avg pace 2:08 /100 yd · "
                  "Main stroke: Freestyle."],
        recs=[pool("2025-06-10", "Brookline YMCA", "freestyle", "1,650", "35:20", 36)])
    say("Thursday, breaststroke at the YMCA while Amy did aqua aerobics:",
        "Logged Thursday: 1,100 yd breaststroke at the YMCA, 28:40, 44 lengths, SWOLF 44.",
        captions=["Photo of the Garmin Swim 2 on a wrist against white pool tiles: 'POOL SWIM' · '1,100 yd' · "
                  "'28:40' · '44 LEN' · 'SWOLF 44' · 'BREAST'."],
        recs=[pool("2025-06-12", "Brookline YMCA", "breaststroke", "1,100", "28:40", 44, stroke_s="breast",
                   pool_s="YMCA")])
    say("Yesterday at the Brookline Y: 2000 yards freestyle, 80 lengths, 41:50, SWOLF 35. Amy swam with me for "
        "the first 500 and then retired to the hot tub.",
        "Logged Saturday: 2000 yd freestyle at the YMCA, 80 lengths, 41:50, SWOLF 35. Very sensible of Amy.",
        recs=[pool("2025-06-14", "Brookline YMCA", "freestyle", "2000", "41:50", 35, pool_s="Brookline Y")])
    say("American pools are so warm. The Y is 84 °F, which is like swimming in soup.",
        "That's about 29 °C — lovely for aqua aerobics, not for hard sets.")
    say("Amy's friend Rob swims the Boston Light Swim every year — 8 miles in the harbour. No thank you.",
        "That's a classic marathon swim. 3 km feels very reasonable next to it!")
    say("We went to a Red Sox game on Friday. I understood nothing, ate a hot dog, had a great time.",
        "That's the correct way to experience baseball.")
    say("Flying home tomorrow night. Back in the lake next weekend hopefully.",
        "Safe travels — jet lag and cold water are an interesting combination, so take it easy the first time.")

    # ---------------------------------------------------------------- D9
    sc.session("2025-06-23")
    say("Thursday at Westside:",
        "Logged Thursday: 2,500 m freestyle at Westside, 51:40, 100 lengths, SWOLF 39.",
        captions=["Screenshot of a Garmin Connect activity 'Westside Pool Swim', Thu, Jun 19, 2025 · 19:05. Pool "
                  "length 25 m. Distance 2,500 m · Time 51:40 · Lengths 100 · Avg SWOLF 39 · Avg HR 143 · Main "
                  "stroke: Freestyle."],
        recs=[pool("2025-06-19", "Westside", "freestyle", "2,500", "51:40", 39)])
    say("Saturday: Lake Ellery, 2.4 km in 53:40, water 17.5°C. Wetsuit. The longest open water yet and my shoulders "
        "know it.",
        "Logged Saturday at Lake Ellery: 2.4 km in 53:40, 17.5°C, wetsuit. Your longest open-water swim so far.",
        recs=[openwater("2025-06-21", "Lake Ellery", "2.4", "km", "53:40", "17.5", "yes", "Wetsuit")])
    say("Jet lag was brutal on Tuesday. Slept through my alarm and missed the Masters session.",
        "Understandable. One missed session is nothing in a 12-week build.")
    say("Carol from my lane says she's doing the Loch Arden race too, the 5 km version.",
        "A familiar face at the start will help with nerves!")
    say("How should I sight in open water? I keep swimming in zigzags.",
        "Lift your eyes just above the surface every 6–8 strokes, take a quick look, and breathe to the side "
        "afterwards. Pick a big landmark rather than the buoy.")
    say("The tri club swims are on Saturday mornings at 7. Brutal but beautiful.",
        "Early lake mornings are the best kind of brutal.")
    say("Exam marking is finally over for this year. Free evenings!",
        "Congratulations! More time for swimming.")

    # ---------------------------------------------------------------- D10
    sc.session("2025-06-30")
    say("Tuesday at the Marlowe: 3000 m freestyle, 60 lengths, 1:03:30, SWOLF 78.",
        "Logged Tuesday: 3000 m freestyle at the Marlowe, 60 lengths, 1:03:30, SWOLF 78.",
        recs=[pool("2025-06-24", "Marlowe", "freestyle", "3000", "1:03:30", 78)])
    say("Thursday, backstroke at Westside:",
        "Logged Thursday: 1,500 m backstroke at Westside, 37:00, 60 lengths, SWOLF 44.",
        captions=["Photo of the watch face: 'POOL SWIM' · '1,500 m' · '37:00' · '60 LEN' · 'SWOLF 44' · "
                  "'BACK'. A lane rope runs across the bottom of the picture."],
        recs=[pool("2025-06-26", "Westside", "backstroke", "1,500", "37:00", 44, stroke_s="back")])
    say("Saturday, Westside, freestyle — 2200 m, 88 lengths, 45:50, SWOLF 40.",
        "Logged Saturday: 2200 m freestyle at Westside, 88 lengths, 45:50, SWOLF 40.",
        recs=[pool("2025-06-28", "Westside", "freestyle", "2200", "45:50", 40)])
    say("Yesterday we went to the coast: Sandy Bay, a sea swim of 1.5 km in 36:00. The lifeguard board said the "
        "water was 15°C. Wetsuit, plus a bright orange tow float. Salt water is SO much more buoyant.",
        "Logged Sunday at Sandy Bay: 1.5 km in 36:00, 15°C, wetsuit. Sea swimming is a different sport!",
        recs=[openwater("2025-06-29", "Sandy Bay", "1.5", "km", "36:00", "15", "yes", "Wetsuit")])
    say("Got stung by something at Sandy Bay. Probably a tiny jellyfish. My arm has a red line.",
        "Rinse with seawater, not fresh water, and a cold pack helps. See a pharmacist if it gets worse.")
    say("Should I do a practice 3 km in the lake before the race?",
        "Yes — one or two, at least two weeks before race day, ideally in race kit.")
    say("Found the race start list: 214 swimmers in the 3K wave. Gulp.",
        "Big but manageable. Start at the side or the back to avoid the washing machine.")

    # ---------------------------------------------------------------- D11
    sc.session("2025-07-06")
    say("This week's pool swims:",
        "Logged July 1 at Westside: 2,600 m freestyle, 53:10, 104 lengths, SWOLF 38; and July 3 at the Marlowe: "
        "3,200 m freestyle, 1:07:05, 64 lengths, SWOLF 77 — your longest pool swim!",
        captions=["Screenshot of Garmin Connect, 'Week of Jun 30' list. Rows: 'Tue Jul 1 · Westside · Pool Swim · "
                  "2,600 m · 53:10 · Freestyle · 104 lengths · SWOLF 38'; 'Thu Jul 3 · Marlowe · Pool Swim · 3,200 m · "
                  "1:07:05 · Freestyle · 64 lengths · SWOLF 77'. Footer: 'Week total 5,800 m'."],
        recs=[pool("2025-07-01", "Westside", "freestyle", "2,600", "53:10", 38),
              pool("2025-07-03", "Marlowe", "freestyle", "3,200", "1:07:05", 77)])
    say("And yesterday the big one: 3 km at Lake Ellery in 1:06:30! Race distance done. Water 19°C, wetsuit.",
        "Fantastic! Logged Saturday at Lake Ellery: 3 km in 1:06:30, 19°C, wetsuit. You can do the distance.",
        recs=[openwater("2025-07-05", "Lake Ellery", "3", "km", "1:06:30", "19", "yes", "wetsuit")])
    say("Now I want to do it without the wetsuit. Is that insane?",
        "Not insane at 19–20 °C if you've been acclimatising, but try shorter non-wetsuit swims first.")
    say("Dev wants me to do a 'broken 3K' in the pool next week: 6 x 500 with 30 seconds rest.",
        "A great race-prep set. It teaches pacing without the mental weight of one long swim.")
    say("Summer holidays in two weeks. I can't wait to swim in daylight every day.",
        "You've earned it.")
    say("My watch strap snapped at the Marlowe. Ordered a new one for £14.",
        "Annoying, but cheap to fix. Don't lose the watch in the lake in the meantime!")
    say("Ha, I'll use a hair tie as a backup strap.",
        "Classic swimmer engineering.")

    # ---------------------------------------------------------------- D12
    sc.session("2025-07-12")
    say("Tuesday, Westside, mixed IM session: 2000m, 80 lengths, 45:30, SWOLF 43.",
        "Logged Tuesday: 2000 m mixed at Westside, 80 lengths, 45:30, SWOLF 43.",
        recs=[pool("2025-07-08", "Westside", "mixed", "2000", "45:30", 43)])
    say("Thursday, all freestyle, Westside — Dev's broken 3K got moved, so I just swam:",
        "Logged Thursday: 2,800 m freestyle at Westside, 57:05, 112 lengths, SWOLF 38.",
        captions=["Photo of the Garmin Swim 2 showing: 'POOL SWIM' · '2,800 m' · '57:05' · '112 LEN' · 'SWOLF 38'. The "
                  "new strap is bright green."],
        recs=[pool("2025-07-10", "Westside", "freestyle", "2,800", "57:05", 38)])
    say("Carol did the broken 3K instead and held 1:40s. She's 67!",
        "Carol continues to be a legend.")
    say("Last week of term. The kids are feral and so am I.",
        "Almost there!")
    say("What should I eat before the race? It starts at 10:30.",
        "A normal breakfast you've tested, around 7:30, and a small snack an hour before. Nothing new on race day.")
    say("The race info pack arrived:",
        "Useful! Start at 10:30, a feed at halfway and a generous cut-off. The wetsuit rule won't matter if you "
        "wear one anyway.",
        captions=["Screenshot of a PDF page 'Loch Arden 3K — Swimmer Information'. Bullet points: 'Start 10:30 · "
                  "Registration closes 09:30 · Wetsuits mandatory below 16 °C · Feed station at 1.5 km · Cut-off "
                  "1:45:00 · Course: two laps of 1.5 km'."])
    say("Bought a race-day tow float and a fluorescent cap. I look like a highlighter.",
        "Perfect — easy to spot from the shore.")
    say("Planning a no-wetsuit swim at Coldharbour tomorrow. Nervous.",
        "Keep it short, go with the club, and get out if you start shivering.")

    # ---------------------------------------------------------------- D13
    sc.session("2025-07-17")
    say("Sunday at Coldharbour Reservoir: 2.8 km in 1:01:15 — and NO wetsuit, skins only! 19.5°C. I'm a real "
        "swimmer now.",
        "Brilliant! Logged Sunday at Coldharbour Reservoir: 2.8 km in 1:01:15, 19.5°C, no wetsuit.",
        recs=[openwater("2025-07-13", "Coldharbour Reservoir", "2.8", "km", "1:01:15", "19.5", "no", "NO wetsuit")])
    say("Tuesday at the Marlowe:",
        "Logged Tuesday: 3,000 m freestyle at the Marlowe, 1:02:40, 60 lengths, SWOLF 76 — your best there.",
        captions=["Screenshot of a Garmin Connect activity 'Marlowe Pool Swim', Tue, Jul 15, 2025 · 17:45. Pool "
                  "length 50 m. Distance 3,000 m · Time 1:02:40 · Lengths 60 · Avg SWOLF 76 · Main stroke: "
                  "Freestyle · Calories 604."],
        recs=[pool("2025-07-15", "Marlowe", "freestyle", "3,000", "1:02:40", 76)])
    say("Just back from Masters at Westside — breaststroke night again. 1500 m, 60 lengths, 39:10, SWOLF 46.",
        "Logged tonight: 1500 m breaststroke at Westside, 60 lengths, 39:10, SWOLF 46.",
        recs=[pool("2025-07-17", "Westside", "breaststroke", "1500", "39:10", 46)])
    say("Term ends tomorrow! Six weeks of freedom.",
        "Congratulations on surviving another year!")
    say("Dev says I'm ready for the race and should taper the last ten days. What does taper actually mean for a "
        "swimmer?",
        "Keep the frequency, cut the volume by about a third to a half, and keep a few short fast efforts so you "
        "still feel sharp.")
    say("Amy is flying over for the race weekend! She'll be my official tow-float spotter.",
        "Lovely — a cheerleader on the shore makes a big difference.")
    say("Also found out the Loch Arden water was 17 degrees last year on race day.",
        "That's very manageable with a wetsuit — and you've swum in colder.")

    # ---------------------------------------------------------------- D14
    sc.session("2025-07-21")
    say("Saturday at Westside, freestyle — look at that SWOLF!",
        "Logged Saturday: 2,000 m freestyle at Westside, 41:20, 80 lengths, SWOLF 37 — comfortably under Dev's target.",
        captions=["Photo of the Garmin Swim 2 on a wet wrist: 'POOL SWIM' · '2,000 m' · '41:20' · '80 LEN' · "
                  "'SWOLF 37'."],
        recs=[pool("2025-07-19", "Westside", "freestyle", "2,000", "41:20", 37)])
    say("Yesterday: Lake Ellery, 3.2 km, 1:09:40, 20.5°C, no wetsuit again. Longest swim ever.",
        "Logged Sunday at Lake Ellery: 3.2 km in 1:09:40, 20.5°C, no wetsuit — your longest swim yet.",
        recs=[openwater("2025-07-20", "Lake Ellery", "3.2", "km", "1:09:40", "20.5", "no", "no wetsuit")])
    say("Dev thinks I could go 1:05 at the race if the water's calm. I'd be happy with anything under 1:15.",
        "Both are reasonable — the conditions on the day will decide. Go out steady and enjoy it.")
    say("Three weeks to go. I'm going to print my training log and stick it on the fridge.",
        "Good idea — seeing all those swims in one place is a great confidence boost.")
    say("Should I swim the day before the race?",
        "A short, easy 15–20 minutes is ideal: loosen up, check your goggles, and get out.")
    say("Amy wants to know if she can swim the 1 km fun swim on the same day. She hasn't swum since the Y.",
        "1 km is doable for most people with a bit of practice — she has three weeks!")
    say("Thanks for all the help with the log. It's so much easier than digging through the Garmin app.",
        "Any time — good luck at Loch Arden!")
    return sc


def swim_questions(sc: Scenario):
    P = [r for r in sc.records if r.rtype == "pool_swim"]
    O = [r for r in sc.records if r.rtype == "open_water_swim"]
    ALL = P + O
    STROKES = ["freestyle", "breaststroke", "backstroke", "mixed"]
    POOLN = ["Westside", "Marlowe", "Brookline YMCA"]
    SPOTS = ["Lake Ellery", "Coldharbour Reservoir", "Sandy Bay"]
    D, T = "distance_m", "duration_s"

    def has(recs, k):
        return [r for r in recs if k in r.fields]

    def at(name, recs=None):
        return [r for r in (P if recs is None else recs) if r.get("pool") == name]

    def stroke(name, recs=None):
        return [r for r in (P if recs is None else recs) if r.get("stroke") == name]

    def mins(x):
        return Fraction(x) / 60

    # ---------------- AVG
    rs = has(months_between(at("Westside"), [5]), "swolf")
    v = mean(r.get("swolf") for r in rs)
    sc.qa("AVG", "What was my average SWOLF at Westside in May?",
          f"{txt(v, 1, False)} on average over your {len(rs)} Westside sessions in May that recorded a SWOLF.",
          val(v, 1), "number", rs, 0.05, "SWOLF")
    rs = has(stroke("breaststroke"), T)
    v = mins(mean(r.get(T) for r in rs))
    sc.qa("AVG", "How long did my breaststroke sessions last on average?",
          f"{txt(v, 1, False)} minutes on average.", val(v, 1), "number", rs, 0.5, "minutes")
    rs = months_between(P, [6])
    v = mean(r.get(D) for r in rs)
    sc.qa("AVG", "In June, how far did I swim per pool session on average, in metres?",
          f"{txt(v, 1, False)} m per pool session (the YMCA swims converted from yards).", val(v, 1), "number", rs,
          0.5, "m")
    v = mean(r.get("water_temp_c") for r in O)
    sc.qa("AVG", "What was the average water temperature on my open-water swims?",
          f"{txt(v, 1, False)} °C across {len(O)} open-water swims.", val(v, 1), "number", O, 0.05, "°C")
    fr = stroke("freestyle")
    v = Fraction(100 * len(fr), len(P))
    sc.qa("AVG", "What percentage of my pool sessions were mainly freestyle?",
          f"{txt(v, 1, False)}% — {len(fr)} of {len(P)} pool sessions.", val(v, 1), "number", P, 0.05, "%")
    rs = has(at("Marlowe"), "swolf")
    v = mean(r.get("swolf") for r in rs)
    sc.qa("AVG", "What's my average SWOLF in the 50 m pool at the Marlowe?",
          f"{txt(v, 1, False)} over {len(rs)} Marlowe sessions.", val(v, 1), "number", rs, 0.05, "SWOLF")
    v = mean(r.get(D) for r in O)
    sc.qa("AVG", "How long were my open-water swims on average, in metres?",
          f"{txt(v, 1, False)} m on average.", val(v, 1), "number", O, 0.5, "m")

    # ---------------- SUM
    rs = months_between(P, [5])
    v = sum(r.get(D) for r in rs)
    sc.qa("SUM", "How far did I swim in the pool in May, in total?",
          f"{txt(v, 1)} m in the pool in May.", val(v, 1), "number", rs, 0.5, "m")
    rs = months_between(ALL, [7])
    v = sum(r.get(D) for r in rs)
    sc.qa("SUM", "What was my total swimming distance in July, pool and open water together?",
          f"{txt(v, 1)} m in July.", val(v, 1), "number", rs, 0.5, "m")
    v = mins(sum(r.get(T) for r in O))
    sc.qa("SUM", "How much time did I spend swimming in open water altogether?",
          f"{txt(v, 1, False)} minutes in total.", val(v, 1), "number", O, 0.5, "minutes")
    rs = has(at("Westside"), "lengths")
    v = sum(r.get("lengths") for r in rs)
    sc.qa("SUM", "How many lengths did I swim at Westside in total, counting the sessions with a length count?",
          f"{v} lengths.", v, "number", rs, 0, "lengths")

    # ---------------- CNT
    rs = [r for r in P if r.get(D) >= 2500]
    sc.qa("CNT", "How many pool sessions were 2,500 m or longer?", f"{len(rs)} pool sessions.", len(rs), "number",
          rs, 0, "sessions")
    rs = stroke("backstroke")
    sc.qa("CNT", "How many backstroke sessions did I log?", f"{len(rs)} backstroke sessions.", len(rs), "number",
          rs, 0, "sessions")
    rs = [r for r in O if r.get("water_temp_c") < 16]
    sc.qa("CNT", "How many of my open-water swims were in water colder than 16 degrees?",
          f"{len(rs)} swims were below 16 °C.", len(rs), "number", rs, 0, "swims")
    target = 40
    rs = [r for r in at("Westside") if "swolf" in r.fields and r.get("swolf") < target]
    sc.qa("CNT", "How many times did I beat Dev's SWOLF target at Westside?",
          f"{len(rs)} times — SWOLF under {target} at Westside on " + listing([long(r.observed) for r in rs]) + ".",
          len(rs), "number", rs + [sc.facts["swolf_target"]], 0, "times")
    race = 3000
    rs = [r for r in ALL if r.get(D) >= race]
    sc.qa("CNT", "How many of my swims, pool or open water, were at least as long as my race?",
          f"{len(rs)} swims reached the {race // 1000} km race distance.", len(rs), "number",
          rs + [sc.facts["race_distance"]], 0, "swims")

    # ---------------- MAX
    best = unique_best(O, lambda r: r.get(D))
    sc.qa("MAX", "What was my longest open-water swim, in metres?",
          f"{txt(best.get(D), 1)} m, at {best.get('location')} on {long(best.observed)}.", val(best.get(D), 1),
          "number", O, 0.5, "m")
    best = unique_best(P, lambda r: r.get(D))
    sc.qa("MAX", "On which day did I swim my longest pool session?",
          f"{best.observed.isoformat()} — {txt(best.get(D), 1)} m at {best.get('pool')}.", best.observed.isoformat(),
          "date", P)
    counts = {n: len(at(n)) for n in POOLN}
    top = unique_best(POOLN, lambda n: counts[n])
    sc.qa("MAX", "Which pool did I swim at most often?", f"{top}, with {counts[top]} sessions.", top, "string", P,
          cands=POOLN)
    mnames = ["April", "May", "June", "July"]
    totals = {m: sum((r.get(D) for r in months_between(ALL, [i + 4])), Fraction(0)) for i, m in enumerate(mnames)}
    top = unique_best(mnames, lambda m: totals[m])
    second = sorted(totals.values())[-2]
    check_gap(totals[top], second, absolute=1000, what="best month")
    sc.qa("MAX", "Which month had my biggest total swimming distance, pool and open water combined?",
          f"{top}, with {txt(totals[top], 1)} m.", top, "string", ALL, cands=mnames)

    # ---------------- MIN
    rs = has(at("Westside"), "swolf")
    best = unique_best(rs, lambda r: r.get("swolf"), largest=False)
    sc.qa("MIN", "What was my best (lowest) SWOLF at Westside?",
          f"{best.get('swolf')}, on {long(best.observed)}.", best.get("swolf"), "number", rs, 0, "SWOLF")
    best = unique_best(O, lambda r: r.get("water_temp_c"), largest=False)
    sc.qa("MIN", "What was the coldest water I swam in outdoors?",
          f"{txt(best.get('water_temp_c'), 1)} °C, at {best.get('location')} on {long(best.observed)}.",
          val(best.get("water_temp_c"), 1), "number", O, 0.05, "°C")
    counts = {s_: len(stroke(s_)) for s_ in STROKES}
    low = unique_best(STROKES, lambda s_: counts[s_], largest=False)
    sc.qa("MIN", "Which stroke was my main stroke least often in the pool?",
          f"{low.capitalize()}, in {counts[low]} sessions.", low, "string", P, cands=STROKES)

    # ---------------- LAT
    last = max(stroke("backstroke"), key=lambda r: r.observed)
    sc.qa("LAT", "When did I last swim backstroke?", f"{last.observed.isoformat()}, at {last.get('pool')}.",
          last.observed.isoformat(), "date", [last])
    last = max(at("Marlowe"), key=lambda r: r.observed)
    sc.qa("LAT", "What SWOLF did I get in my most recent session at the Marlowe?",
          f"{last.get('swolf')}, on {long(last.observed)}.", last.get("swolf"), "number", [last], 0, "SWOLF")
    last = max(O, key=lambda r: r.observed)
    sc.qa("LAT", "How warm was the water on my most recent open-water swim?",
          f"{txt(last.get('water_temp_c'), 1)} °C, at {last.get('location')} on {long(last.observed)}.",
          val(last.get("water_temp_c"), 1), "number", [last], 0.05, "°C")
    last = max(stroke("mixed"), key=lambda r: r.observed)
    sc.qa("LAT", "Where was my most recent mixed-stroke session?", f"{last.get('pool')}, on {long(last.observed)}.",
          last.get("pool"), "string", [last], cands=POOLN)

    # ---------------- RNG
    rs = [r for r in P if r.get(D) >= 3000]
    ds = sorted({r.observed.isoformat() for r in rs})
    sc.qa("RNG", "On which days did I swim 3 km or more in the pool?", listing([long(day(d)) for d in ds]) + ".",
          ds, "list", rs)
    rs = months_between(O, [7])
    ls = sorted({r.get("location") for r in rs})
    sc.qa("RNG", "Which open-water spots did I swim at in July?", listing(ls) + ".", ls, "list", rs, cands=SPOTS)
    rs = at("Marlowe")
    ss = sorted({r.get("stroke") for r in rs})
    sc.qa("RNG", "Which main strokes did I swim at the Marlowe?", listing(ss) + ".", ss, "list", rs, cands=STROKES)
    rs = [r for r in O if r.get("wetsuit") == "no"]
    ds = sorted({r.observed.isoformat() for r in rs})
    sc.qa("RNG", "On which dates did I swim open water without a wetsuit?",
          listing([long(day(d)) for d in ds]) + ".", ds, "list", rs)

    # ---------------- CMP
    a = has(months_between(stroke("freestyle", at("Westside")), [5]), "swolf")
    b = has(months_between(stroke("freestyle", at("Westside")), [7]), "swolf")
    ma, mb = mean(r.get("swolf") for r in a), mean(r.get("swolf") for r in b)
    check_gap(ma, mb, rel=Fraction(15, 1000), what="SWOLF May/Jul")
    win = "May" if ma < mb else "July"
    sc.qa("CMP", "Was my freestyle SWOLF at Westside lower in May or in July?",
          f"{win} — an average of {txt(min(ma, mb), 1, False)} vs {txt(max(ma, mb), 1, False)}.", win, "string",
          a + b, cands=["May", "July"])
    a, b = months_between(P, [6]), months_between(P, [7])
    sa, sb = sum(r.get(D) for r in a), sum(r.get(D) for r in b)
    check_gap(sa, sb, absolute=1000, what="pool Jun/Jul")
    win = "June" if sa > sb else "July"
    sc.qa("CMP", "Did I swim more in the pool in June or in July, in total?",
          f"{win}: {txt(max(sa, sb), 1)} m vs {txt(min(sa, sb), 1)} m.", win, "string", a + b,
          cands=["June", "July"])
    a = [r for r in O if r.get("location") == "Lake Ellery"]
    b = [r for r in O if r.get("location") == "Coldharbour Reservoir"]
    ma, mb = mean(r.get(D) for r in a), mean(r.get(D) for r in b)
    check_gap(ma, mb, rel=Fraction(3, 100), what="Ellery/Coldharbour")
    win = "Lake Ellery" if ma > mb else "Coldharbour Reservoir"
    sc.qa("CMP", "Were my open-water swims longer on average at Lake Ellery or at Coldharbour Reservoir?",
          f"{win}: {txt(max(ma, mb), 1)} m on average vs {txt(min(ma, mb), 1)} m.", win, "string", a + b,
          cands=["Lake Ellery", "Coldharbour Reservoir"])
    a, b = has(at("Marlowe"), T), has(at("Westside"), T)
    ma, mb = mins(mean(r.get(T) for r in a)), mins(mean(r.get(T) for r in b))
    check_gap(ma, mb, rel=Fraction(15, 1000), what="Marlowe/Westside time")
    win = "Marlowe" if ma > mb else "Westside"
    sc.qa("CMP", "Which pool saw my longer sessions on average by time — the Marlowe or Westside?",
          f"The {win}: {txt(max(ma, mb), 1, False)} minutes on average vs {txt(min(ma, mb), 1, False)}.", win,
          "string", a + b, cands=["Marlowe", "Westside"])

    # ---------------- TRD
    a, b = months_between(P, [5]), months_between(P, [7])
    ma, mb = mean(r.get(D) for r in a), mean(r.get(D) for r in b)
    check_gap(ma, mb, rel=Fraction(15, 1000), what="pool distance May/Jul")
    tr = "increased" if mb > ma else "decreased"
    sc.qa("TRD", "From May to July, did my average pool session distance increase or decrease?",
          f"It {tr}: {txt(ma, 1)} m per session in May, {txt(mb, 1)} m in July.", tr, "string", a + b,
          cands=["increased", "decreased"])
    a, b = months_between(O, [6]), months_between(O, [7])
    ma, mb = mean(r.get("water_temp_c") for r in a), mean(r.get("water_temp_c") for r in b)
    check_gap(ma, mb, rel=Fraction(15, 1000), what="temp Jun/Jul")
    tr = "increased" if mb > ma else "decreased"
    sc.qa("TRD", "Between June and July, did the average water temperature of my open-water swims go up or down?",
          f"It {tr}: {txt(ma, 1, False)} °C in June, {txt(mb, 1, False)} °C in July.", tr, "string", a + b,
          cands=["increased", "decreased"])
    a, b = months_between(P, [5]), months_between(P, [6])
    check_gap(len(a), len(b), absolute=2, what="sessions May/Jun")
    tr = "increased" if len(b) > len(a) else "decreased"
    sc.qa("TRD", "Did the number of pool sessions I logged per month go up or down from May to June?",
          f"It {tr}: {len(a)} pool sessions in May, {len(b)} in June.", tr, "string", a + b,
          cands=["increased", "decreased"])

    # ---------------- RET
    sc.qa("RET", "When is the Loch Arden race?", "2025-08-09 — the Loch Arden 3K.", "2025-08-09", "date",
          [sc.facts["race_date"]])
    sc.qa("RET", "What's the name of my Masters coach?", "Dev, who coaches the Westside Masters group.", "Dev",
          "string", [sc.facts["coach"]])
    sc.qa("RET", "Which goggles did I switch to?", "Aqua Sphere Kayenne, the mirrored ones.", "Kayenne", "string",
          [sc.facts["goggles"]])
    sc.qa("RET", "Where does my sister Amy live?", "In Brookline, near Boston.", "Brookline", "string",
          [sc.facts["sister"]])
    sc.qa("RET", "How much does a lane swim at Westside cost now?", "£5.40 per swim.", 5.4, "number",
          [sc.facts["price"]], 0.001, "GBP")
    sc.qa("RET", "What watch do I swim with?", "A Garmin Swim 2.", "Garmin Swim 2", "string", [sc.facts["watch"]])
    sc.qa("RET", "What SWOLF did Dev want me to get under at Westside?", "40 — SWOLF under 40 before the race.", 40,
          "number", [sc.facts["swolf_target"]], 0, "SWOLF")


# ==================================================================================================

def main() -> int:
    scenarios = []
    for build, ask in ((build_strength, strength_questions), (build_swim, swim_questions)):
        sc = build()
        ask(sc)
        sc.validate()
        scenarios.append(sc)
    for sc in scenarios:
        sc.write()
        print(sc.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
