#!/usr/bin/env python3
"""Deterministic generator for two analytic-memory test scenarios: ``baby_log`` and ``dog_care``.

    python3 generate.py        # writes dialog/<scenario>.json and records/<scenario>.jsonl, prints a summary

Python 3.11 standard library only. Nothing is random: every dialogue round, every observation and
every value is written out below, and every gold answer is computed from the same observation
records that are rendered into the dialogue (exact ``Fraction`` arithmetic, half-up rounding with
``Decimal``). The script refuses to write anything unless its checks pass (values literally present
in their round, dates recoverable from their round, clue rounds present, candidates consistent,
CMP/TRD gaps unambiguous, unique winners for argmax/argmin/latest questions).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

HERE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent  # where dialog/ and records/ go
OZ_ML = Fraction("29.5735295625")   # 1 US fluid ounce in ml (exact)
LB_KG = Fraction("0.45359237")      # 1 lb in kg (exact)
SEED = "care-2025"                  # no randomness is used; kept for the record

# ------------------------------------------------------------------------------------------------
# values written in the dialogue -> canonical numbers
# ------------------------------------------------------------------------------------------------


def _num(s: str) -> Fraction:
    return Fraction(s.replace(",", "."))


def parse_volume(raw: str) -> Fraction:
    """'120 ml', '120ml', '80', '4 oz', '3½ oz', '4½oz', '5 1/2 oz' -> ml."""
    m = re.fullmatch(r"(\d+(?:[.,]\d+)?)(?:(½)| 1/2)?\s*(ml|oz)?", raw.strip(), re.I)
    if not m:
        raise ValueError(f"volume? {raw!r}")
    v = _num(m.group(1)) + (Fraction(1, 2) if (m.group(2) or " 1/2" in raw) else 0)
    return v * OZ_ML if (m.group(3) or "").lower() == "oz" else v


def parse_minutes(raw: str) -> Fraction:
    """'18 min', '40 minutes', '35m', '30-minute', '1h50', '1 hr 35 min', '1h 05m', '13m 20s',
    '1:08:15' (h:m:s), '30:00' (m:s) -> minutes."""
    r = raw.strip()
    if m := re.fullmatch(r"(\d+):(\d{2}):(\d{2})", r):
        return int(m[1]) * 60 + int(m[2]) + Fraction(int(m[3]), 60)
    if m := re.fullmatch(r"(\d+):(\d{2})", r):
        return int(m[1]) + Fraction(int(m[2]), 60)
    if m := re.fullmatch(r"(\d+)\s*(?:h|hr|hrs)\s*(\d+)?\s*(?:m|min|mins)?", r, re.I):
        return int(m[1]) * 60 + int(m[2] or 0)
    if m := re.fullmatch(r"(\d+)\s*m\s*(\d+)\s*s", r, re.I):
        return int(m[1]) + Fraction(int(m[2]), 60)
    if m := re.fullmatch(r"(\d+)(?:\s*|-)(?:m|min|mins|minute|minutes)", r, re.I):
        return Fraction(int(m[1]))
    raise ValueError(f"duration? {raw!r}")


def parse_km(raw: str) -> Fraction:
    m = re.fullmatch(r"(\d+(?:[.,]\d+)?)\s*(km|k|mi)?", raw.strip(), re.I)
    if not m:
        raise ValueError(f"distance? {raw!r}")
    return _num(m.group(1)) * (Fraction("1.609344") if (m.group(2) or "").lower() == "mi" else 1)


def parse_kg(raw: str) -> Fraction:
    m = re.fullmatch(r"(\d+(?:[.,]\d+)?)\s*(kg|lb|lbs)", raw.strip(), re.I)
    if not m:
        raise ValueError(f"weight? {raw!r}")
    return _num(m.group(1)) * (LB_KG if m.group(2).lower().startswith("lb") else 1)


def parse_eur(raw: str) -> Fraction:
    m = re.fullmatch(r"(?:€\s?|EUR\s)?(\d+(?:[.,]\d{1,2})?)(?:\s?€|\sEUR)?", raw.strip())
    if not m:
        raise ValueError(f"amount? {raw!r}")
    return _num(m.group(1))


def value(raw, parser):
    """``raw`` is the text as written; a (text, number) pair gives the number explicitly."""
    if isinstance(raw, tuple):
        return raw[0], Fraction(raw[1])
    return raw, parser(raw)


def cat(spec: str | None):
    """'dad=Dan' -> ('dad', 'Dan'): the stored value and the form the round writes it in."""
    if spec is None:
        return None
    v, _, lit = spec.partition("=")
    return v, (lit or v)


# ------------------------------------------------------------------------------------------------
# records, rounds, sessions
# ------------------------------------------------------------------------------------------------


class Rec:
    def __init__(self, rtype: str, date: str, fields: dict, lits: list[tuple[str, str]]):
        self.rtype = rtype
        self.date = dt.date.fromisoformat(date)
        self.f = fields           # field -> Fraction | str
        self.lits = lits          # (field, literal text that must appear in the round)
        self.round = ""
        self.session = ""

    def has(self, field: str) -> bool:
        return field in self.f


def rec(rtype: str, year: int, md: str, nums: list, cats: list, synonyms: dict | None = None) -> Rec:
    """nums: (field, raw, parser) ; cats: (field, spec or None)."""
    date = f"{year}-{md}" if len(md) == 5 else md
    fields, lits = {}, []
    for field, raw, parser in nums:
        if raw is None:
            continue
        text, v = value(raw, parser)
        fields[field] = v
        lits.append((field, text))
    for field, spec in cats:
        c = cat(spec)
        if c is None:
            continue
        fields[field] = c[0]
        lits.append((field, c[1]))
    r = Rec(rtype, date, fields, lits)
    r.synonyms = synonyms or {}
    return r


class Round:
    def __init__(self, user: str, asst: str, caption: str | list | None = None, recs=(), fact: str | None = None):
        self.user = user
        self.asst = asst
        self.captions = [] if caption is None else ([caption] if isinstance(caption, str) else list(caption))
        self.recs = list(recs)
        self.fact = fact
        self.id = ""


def R(user, asst, caption=None, recs=(), fact=None):
    return Round(user, asst, caption, recs, fact)


class Scenario:
    def __init__(self, name: str, profile: dict, sessions: list[tuple[str, list[Round]]]):
        self.name = name
        self.profile = profile
        self.sessions = sessions
        self.records: list[Rec] = []
        self.facts: dict[str, str] = {}
        self.order: dict[str, int] = {}
        self.session_of: dict[str, str] = {}
        self.session_date: dict[str, dt.date] = {}
        self.rounds: dict[str, Round] = {}
        k = 0
        for si, (date, rounds) in enumerate(sessions, 1):
            sid = f"D{si}"
            self.session_date[sid] = dt.date.fromisoformat(date)
            for ri, rnd in enumerate(rounds, 1):
                rnd.id = f"{sid}:{ri}"
                self.order[rnd.id] = k
                k += 1
                self.session_of[rnd.id] = sid
                self.rounds[rnd.id] = rnd
                if rnd.fact:
                    for key in rnd.fact.split(","):
                        assert key not in self.facts, key
                        self.facts[key] = rnd.id
                for r in rnd.recs:
                    r.round, r.session = rnd.id, sid
                    self.records.append(r)
        self.qas: list[dict] = []

    # -- selection ----------------------------------------------------------------------------
    def sel(self, rtype: str, flt=None, field: str | None = None) -> list[Rec]:
        return [r for r in self.records if r.rtype == rtype and (flt is None or flt(r)) and (field is None or r.has(field))]

    # -- adding a QA --------------------------------------------------------------------------
    def add(self, point: str, question: str, answer: str, clue_recs, value, atype: str, tol=0, unit=None,
            cands=None, extra=()):
        rounds = {r.round for r in clue_recs} | {self.facts[e] for e in extra}
        clue = sorted(rounds, key=self.order.__getitem__)
        sids = []
        for c in clue:
            s = self.session_of[c]
            if s not in sids:
                sids.append(s)
        qa = {"point": point, "question": question, "answer": answer, "session_id": sids, "clue": clue,
              "answer_value": value, "answer_type": atype, "tolerance": tol}
        if unit:
            qa["unit"] = unit
        if cands:
            qa["candidates"] = list(cands)
        assert all(q["question"] != question for q in self.qas), question
        self.qas.append(qa)
        return qa


# ------------------------------------------------------------------------------------------------
# arithmetic and formatting
# ------------------------------------------------------------------------------------------------


def rnd(x: Fraction, dec: int) -> Decimal:
    q = Decimal(1).scaleb(-dec)
    return (Decimal(x.numerator) / Decimal(x.denominator)).quantize(q, rounding=ROUND_HALF_UP) if dec > 0 else \
        (Decimal(x.numerator) / Decimal(x.denominator)).quantize(Decimal(1), rounding=ROUND_HALF_UP)


def num(x: Fraction, dec: int):
    d = rnd(x, dec)
    return int(d) if dec == 0 else float(d)


def s(x: Fraction, dec: int) -> str:
    return str(rnd(x, dec))


def mean(vals) -> Fraction:
    vals = list(vals)
    assert vals
    return sum(vals, Fraction(0)) / len(vals)


def total(vals) -> Fraction:
    return sum(vals, Fraction(0))


def human_date(d: dt.date) -> str:
    return f"{d.strftime('%A')}, {d.day} {d.strftime('%B')} {d.year}"


def gap_ok(a: Fraction, b: Fraction, rel: float = 0.015, absolute: float | None = None) -> bool:
    if absolute is not None:
        return abs(a - b) >= Fraction(str(absolute))
    hi = max(abs(a), abs(b))
    return hi > 0 and abs(a - b) / hi >= Fraction(str(rel))


def json_num(x):
    if isinstance(x, str):
        return x
    x = Fraction(x)
    if x.denominator == 1:
        return int(x)
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d == 1:
        return float(Decimal(x.numerator) / Decimal(x.denominator))
    return round(float(x), 6)


# ------------------------------------------------------------------------------------------------
# checks
# ------------------------------------------------------------------------------------------------

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
WEEKDAYS = {0: ("monday", "mon"), 1: ("tuesday", "tues", "tue"), 2: ("wednesday", "wed"), 3: ("thursday", "thurs", "thu"),
            4: ("friday", "fri"), 5: ("saturday", "sat"), 6: ("sunday", "sun")}
TODAY_WORDS = ("today", "this morning", "this afternoon", "this evening", "tonight", "just now", "overnight",
               "so far")


def date_patterns(d: dt.date) -> list[str]:
    mon, mo3 = MONTHS[d.month - 1], MONTHS[d.month - 1][:3]
    pats = [d.isoformat(), rf"{mon}\s+{d.day}(?!\d)", rf"{mo3}\.?\s+{d.day}(?!\d)", rf"(?<!\d){d.day}\s+{mon}",
            rf"(?<!\d){d.day}\s+{mo3}(?![a-z])", rf"(?<![\d/]){d.day}/{d.month}(?![\d/])",
            rf"(?<!\d){d.day:02d}[/.\-]{d.month:02d}[/.\-]{d.year}"]
    if d.month == 9:
        pats.append(rf"(?<!\d){d.day}\s+Sept")
    return pats


def has_date(text: str, d: dt.date) -> bool:
    return any(re.search(p, text, re.I) for p in date_patterns(d))


def any_date_cue(text: str) -> bool:
    t = text.lower()
    if re.search(r"\d{4}-\d{2}-\d{2}|\b\d{1,2}/\d{1,2}\b|\d{2}[.\-]\d{2}[.\-]\d{4}", t):
        return True
    if re.search(r"(?<!\d)\d{1,2}\s+(" + "|".join(m[:3].lower() for m in MONTHS) + r")", t):
        return True
    if re.search(r"(" + "|".join(m.lower() for m in MONTHS) + r")\s+\d{1,2}\b", t):
        return True
    if "yesterday" in t or "last night" in t:
        return True
    return any(re.search(rf"(?<![a-z]){w}(?![a-z])", t) for names in WEEKDAYS.values() for w in names)


def date_ok(text: str, d: dt.date, sd: dt.date) -> bool:
    t = text.lower()
    if has_date(text, d):
        return True
    delta = (sd - d).days
    if delta == 1 and ("yesterday" in t or "last night" in t):
        return True
    if 1 <= delta <= 6 and any(re.search(rf"(?<![a-z]){w}(?![a-z])", t) for w in WEEKDAYS[d.weekday()]):
        return True
    if delta == 0:
        return any(w in t for w in TODAY_WORDS) or not any_date_cue(text)
    return False


def literal_ok(text: str, lit: str) -> bool:
    return re.search(r"(?<![A-Za-z0-9])" + re.escape(lit) + r"(?![A-Za-z0-9])", text, re.I) is not None


def check(sc: Scenario) -> list[str]:
    problems = []
    for rid, rnd_ in sc.rounds.items():
        text = rnd_.user + "\n" + "\n".join(rnd_.captions)
        sd = sc.session_date[sc.session_of[rid]]
        for r in rnd_.recs:
            for field, lit in r.lits:
                if not literal_ok(text, lit):
                    problems.append(f"{rid}: {field} written as {lit!r} not found")
            for field, syns in r.synonyms.items():
                if not any(literal_ok(text, w) for w in syns):
                    problems.append(f"{rid}: {field}={r.f[field]!r} not recognisable")
            if not date_ok(text, r.date, sd):
                problems.append(f"{rid}: date {r.date} not recoverable (session {sd})")
            if r.date > sd:
                problems.append(f"{rid}: record after its session")
    sessions = sc.sessions
    for i, (date, rounds) in enumerate(sessions):
        if not 6 <= len(rounds) <= 10:
            problems.append(f"session {i + 1} has {len(rounds)} rounds")
        if i and dt.date.fromisoformat(date) <= dt.date.fromisoformat(sessions[i - 1][0]):
            problems.append(f"session {i + 1} out of order")
    for qa in sc.qas:
        for c in qa["clue"]:
            if c not in sc.rounds:
                problems.append(f"{qa['question']}: clue {c} missing")
        v = qa["answer_value"]
        if qa["answer_type"] == "list":
            if v != sorted(set(v)):
                problems.append(f"{qa['question']}: list not sorted/unique")
            if qa.get("candidates") and not set(v) <= set(qa["candidates"]):
                problems.append(f"{qa['question']}: list item not a candidate")
        if qa["answer_type"] == "string" and qa.get("candidates") and v not in qa["candidates"]:
            problems.append(f"{qa['question']}: answer not a candidate")
        if not qa["clue"]:
            problems.append(f"{qa['question']}: empty clue")
    return problems


# ------------------------------------------------------------------------------------------------
# output
# ------------------------------------------------------------------------------------------------


def dialog_json(sc: Scenario) -> dict:
    out = {"character_profile": sc.profile, "multi_session_dialogues": [], "human-annotated QAs": sc.qas}
    for si, (date, rounds) in enumerate(sc.sessions, 1):
        sid = f"D{si}"
        img = 0
        dialogues = []
        for rnd_ in rounds:
            ids, paths = [], []
            for _ in rnd_.captions:
                img += 1
                ids.append(f"{sid}:IMG_{img:03d}")
                paths.append(f"../image/{sc.name}/{sid}_IMG_{img:03d}.jpg")
            dialogues.append({"round": rnd_.id, "user": rnd_.user, "assistant": rnd_.asst, "image_id": ids,
                              "input_image": paths, "image_caption": list(rnd_.captions)})
        out["multi_session_dialogues"].append({"session_id": sid, "date": date, "dialogues": dialogues})
    return out


def records_jsonl(sc: Scenario) -> str:
    lines = []
    for r in sc.records:
        lines.append(json.dumps({"round": r.round, "observed": r.date.isoformat(), "record_type": r.rtype,
                                 "fields": {k: json_num(v) for k, v in r.f.items()}}, ensure_ascii=False))
    return "\n".join(lines) + "\n"


# ================================================================================================
# Scenario 1: baby_log
# ================================================================================================

BREAST_WORDS = ["breast", "breastfeed", "breastfed", "fed", "feed", "side", "boob", "left", "right"]
BOTTLE_WORDS = ["bottle", "bottles", "ml", "oz"]


def _order(r: Rec, keys: list[str]) -> Rec:
    r.f = {k: r.f[k] for k in keys if k in r.f}
    return r


def bottle(md: str, vol, by: str | None = None, milk: str | None = None) -> Rec:
    """A bottle feed: volume_ml is what he drank (stored in ml; US fl oz converted exactly)."""
    r = rec("feed", 2025, md, [("volume_ml", vol, parse_volume)], [("milk", milk), ("fed_by", by)],
            {"feed_type": BOTTLE_WORDS})
    r.f["feed_type"] = "bottle"
    return _order(r, ["feed_type", "side", "duration_min", "volume_ml", "milk", "fed_by"])


def breast(md: str, side: str | None, mins) -> Rec:
    """A breastfeed on one side (the family feeds one side per feed)."""
    r = rec("feed", 2025, md, [("duration_min", mins, parse_minutes)], [("side", side)],
            {"feed_type": BREAST_WORDS})
    r.f["feed_type"] = "breast"
    return _order(r, ["feed_type", "side", "duration_min", "volume_ml", "milk", "fed_by"])


def nap(md: str, mins, place: str) -> Rec:
    return rec("nap", 2025, md, [("duration_min", mins, parse_minutes)], [("place", place)])


def baby_sessions() -> list:
    S = []
    S.append(("2025-03-03", [
        R("Hi! Starting a proper feed and nap log for Olly today, because our health visitor keeps asking how much he's "
          "taking and I genuinely cannot remember what happened four hours ago. Context: he's 7 weeks old (born 14 "
          "January), and we combination feed. I breastfeed, and Dan (my partner) or his mum Carol do bottles, either my "
          "expressed milk or formula. Nappies I am NOT logging, life is too short.",
          "Love this plan. I'll keep a running log of Olly's feeds (breastfeeds with the side and the minutes, bottles "
          "with how much he drank, who gave it and whether it was expressed or formula) and of his naps (how long and "
          "where). No nappies, promise. Send things however they come: screenshots, photos, half-asleep notes.",
          fact="born"),
        R("This morning: fed him on the left for 18 min around 6, then Dan did a 90 ml bottle of expressed at half nine "
          "so I could shower.",
          "Logged for today: a left-side breastfeed of 18 minutes, and a 90 ml bottle of expressed milk from Dan. Enjoy "
          "that shower, retroactively.",
          recs=[breast("03-03", "left", "18 min"), bottle("03-03", "90 ml", "dad=Dan", "expressed")]),
        R("And here's yesterday from the Tiny Tally app, Dan was logging while I slept.",
          "Got Sunday: a 21-minute right-side feed at 07:05 and a 100 ml formula bottle from Carol at 13:15. I skipped the "
          "nappy and bath entries.",
          caption="Screenshot of a baby-tracking app titled 'Tiny Tally', day view for 'Sun 2 Mar'. A bar at the top "
                  "reads 'Olly · 6 weeks 5 days'. Timeline entries: '07:05 Breastfeed · Right · 21 min'; '10:40 Nappy · "
                  "Wet'; '13:15 Bottle · 100 ml · Formula · by Carol'; '16:02 Nappy · Wet + dirty'; '19:30 Bath'.",
          recs=[breast("03-02", "right=Right", "21 min"), bottle("03-02", "100 ml", "grandma=Carol", "formula=Formula")]),
        R("Random question: is it normal that he grunts and squeaks constantly in his sleep? Like a tiny pig in a bin.",
          "Very normal at this age. The grunting comes from immature breathing and digestion during active sleep. If he's "
          "feeding well, has good colour and isn't working hard to breathe (no flaring nostrils, no sucking in under the "
          "ribs), it's just noise. Mention it to the health visitor if it keeps worrying you."),
        R("He napped in the pram for 40 minutes while I got a coffee. First hot drink since January.",
          "A 40-minute pram nap and a hot coffee. The nap is logged; the coffee is a personal milestone.",
          recs=[nap("03-03", "40 minutes", "pram")]),
        R("Pumped 60 ml this afternoon, it's in the fridge for Dan's bedtime bottle. Does pumping go in the log?",
          "I'll keep pumping out of it: the log counts what Olly actually drinks, so that milk goes in when Dan gives it "
          "to him, with however much he takes."),
        R("Our health visitor is called Bev, by the way. She comes on Thursdays and she is terrifyingly cheerful.",
          "Noted: Bev, Thursday visits. Terrifyingly cheerful health visitors are the best kind."),
        R("ok going to try to sleep when he sleeps. ha ha ha.",
          "Worth a try! I'll be here when you surface."),
    ]))
    S.append(("2025-03-08", [
        R("Found the whiteboard photo from Thursday when Carol was over. The C entries are hers. She still does "
          "everything in ounces, US ones: she brought her own bottles over from Ohio and they're only marked in US fl oz. "
          "The blue one at the bottom is Dan.",
          "Thursday's whiteboard is logged: Carol's 3½ oz bottle at 11:40 (US fl oz, so about 103.5 ml) and Dan's 120 ml "
          "of formula at 7 pm. I ignored the nappy tally marks.",
          caption="Photo of a small whiteboard stuck to a fridge door, written in black and blue marker. Header in "
                  "black: 'THURS 6/3'. Black lines: '11:40 — 3½ oz — C', 'nappies ||||'. Blue line at the bottom: "
                  "'D 7pm 120ml formula'. A pineapple-shaped magnet holds a takeaway menu next to the board.",
          recs=[bottle("03-06", "3½ oz", "grandma=C"), bottle("03-06", "120ml", "dad=D", "formula")]),
        R("Carol is honestly a lifesaver. She's staying in Leeds until the end of May and then flies home to Columbus.",
          "That's a huge help through the hardest months. Good to know she's around until the end of May.",
          fact="carol_city"),
        R("its 2.15am. left side 12 mins. he fell asleep on the boob again, do i wake him",
          "Logged: left side, 12 minutes. If he's asleep and milk-drunk you can usually just put him down; if he's still "
          "hungry he'll tell you. Go back to bed.",
          recs=[breast("03-08", "left", "12 mins")]),
        R("Also yesterday he did a MONSTER nap in the cot, 1h50!! Never happened before. I kept checking he was breathing.",
          "A 1 h 50 cot nap yesterday, huge! Logged. (Everyone checks the breathing. Everyone.)",
          recs=[nap("03-07", "1h50", "cot")]),
        R("Bev weighed him on Thursday, 5.1 kg, she's happy with him. My sister's baby was 6 kg at the same age but she "
          "was 9 pounds at birth, so.",
          "5.1 kg and a happy health visitor is great news. Comparing with cousins is a trap: every baby follows their "
          "own curve."),
        R("What's a sensible amount for a bottle at this age? Dan keeps making 150 ml and half of it gets binned.",
          "Very roughly, babies this age take 90–150 ml a feed, and it varies from feed to feed. Making slightly smaller "
          "bottles and topping up if he's still keen wastes less. I'll track what he actually drinks so you can see his "
          "usual range."),
        R("Dan's doing the 11pm bottle tonight, he's planning 120 ml of formula. I'll tell you how it goes.",
          "Sounds good. I'll log it once we know how much he actually takes."),
        R("He just did the biggest smile at the ceiling fan. Apparently the fan is his favourite person.",
          "Ceiling fans are famously charming. Enjoy the smiles!"),
    ]))
    S.append(("2025-03-13", [
        R("Update on Saturday's 11pm bottle: he only drank 80 of the 120 ml Dan made up, then passed out.",
          "Updated: Saturday night, Dan's bottle, 80 ml taken (of the 120 ml made up).",
          recs=[bottle("03-08", "80", "dad=Dan")]),
        R("Tuesday from the app. Carol did lunch.",
          "Tuesday logged: a left breastfeed of 15 minutes at 05:50 and Carol's 120 ml formula bottle at 12:20. The pump "
          "entry stays out of the feed log.",
          caption="Screenshot of the Tiny Tally app, list view for 'Tue 11 Mar'. Rows: '05:50 · Breastfeed · L · 15 min'; "
                  "'09:05 · Pump · 70 ml'; '12:20 · Bottle · 120 ml · Formula · Carol'; '14:00 · Nappy · Dirty'. Footer: "
                  "'Today: 1 bottle · 1 feed · 1 pump'.",
          recs=[breast("03-11", "left=L", "15 min"), bottle("03-11", "120 ml", "grandma=Carol", "formula=Formula")]),
        R("Carol also took him out in the pram on Tuesday afternoon and he slept 55 minutes. She came back glowing like "
          "she'd won something.",
          "Tuesday's pram nap with Carol, 55 minutes, is logged. She did win something, to be fair.",
          recs=[nap("03-11", "55 minutes", "pram")]),
        R("We switched formula this week, we're on Kendamil now. The other one made him so windy, and Dan swears this "
          "one smells like biscuits.",
          "Kendamil, noted. Give it a week or so before judging the wind. And yes, formulas smell wildly different.",
          fact="formula"),
        R("Do I need to sterilise bottles until he's one? The steriliser is taking up half the kitchen.",
          "NHS guidance is to sterilise feeding equipment until 12 months, mainly because milk residue is a good breeding "
          "ground for bacteria. A microwave steam bag or cold-water tablets could free up some counter space."),
        R("Nap in the car seat today on the way back from the clinic. Only 25 min, he woke up the second the engine "
          "stopped, classic.",
          "Logged a 25-minute car nap for today. The engine-off alarm is a universal baby feature.",
          recs=[nap("03-13", "25 min", "car")]),
        R("So far today: 5 wet nappies and 2 dirty. Is that enough?? (I know I said no nappies, this is a question, not a "
          "log.)",
          "For a baby his age, six or more wet nappies in 24 hours is the usual sign he's getting enough, and you're at "
          "five by the afternoon, so that's on track. Not logged, as requested."),
        R("Thanks. Going to attempt dinner with two hands.",
          "Bold. Good luck!"),
    ]))
    S.append(("2025-03-19", [
        R("Screenshot from Monday's afternoon feed, I actually used the timer for once.",
          "Monday 14:02: left side, 13 min 20 s. Logged.",
          caption="Screenshot of the Tiny Tally breastfeeding timer. Header: 'Mon 17 Mar · 14:02'. Two large round "
                  "buttons labelled L and R; the L button shows '13m 20s' with a small tick, the R button shows '--:--'. "
                  "Underneath: 'Last feed: Right side, 3h 12m ago'. A grey 'Save' button at the bottom.",
          recs=[breast("03-17", "left=L", "13m 20s")]),
        R("Is it ok that he still wants to be swaddled for every nap? The cot looks so big around him.",
          "Swaddling is fine while he isn't showing signs of rolling; once he starts trying to roll, switch to a sleeping "
          "bag with his arms out. A big cot is normal; a firm flat mattress and nothing else in there is what matters."),
        R("Carol sent me this yesterday, she was on duty while I was at the GP.",
          "Yesterday from Carol: a 4 oz bottle at 3:30 (US oz, about 118 ml) and a pram nap of about an hour. Both "
          "logged.",
          caption="WhatsApp screenshot, chat with 'Carol 🌷'. Message from Carol at 16:48 (Tuesday): 'He took 4 oz at "
                  "3:30 like a champ!! Then a nice long snooze in the pram on our walk, about an hour 😊 Bath later?' "
                  "Nadia's reply below: 'You're a star ❤️'.",
          recs=[bottle("03-18", "4 oz", "grandma=Carol"), nap("03-18", ("about an hour", 60), "pram")]),
        R("My sister sent a photo of Ava, she's 4 months and already drinking 180 ml bottles. I know, I know, don't "
          "compare.",
          "Ava's 180 ml is about Ava: a baby two months older with a different appetite. Olly's numbers are the ones that "
          "matter here, and they look healthy."),
        R("3:05. right. 16 min. why is he awake again",
          "Logged: 3:05, right side, 16 minutes. Growth spurts around 6–8 weeks make nights rough. Hang in there.",
          recs=[breast("03-19", "right", "16 min")]),
        R("Is there a way to make the night feeds less awful? Practical tips please.",
          "A few that help: dim, warm lights; water and snacks by the bed; skip the nappy change unless it's dirty; and "
          "take turns so one of you gets a long stretch. Dan could do one feed with a bottle of expressed milk."),
        R("Dan's idea exactly: he does one night feed with a bottle so I get 5 hours straight. We'll see.",
          "Worth trying. A 5-hour stretch can feel life-changing."),
    ]))
    S.append(("2025-03-25", [
        R("Weekend whiteboard! D = Dan, C = Carol, F = formula. The Monday nap was with Carol.",
          "Logged: Sunday, Dan 150 ml formula; Monday, Carol 4½ oz (about 133 ml) and a 1 h 20 cot nap. BUY WIPES noted "
          "but not logged.",
          caption="Photo of the fridge whiteboard divided by a hand-drawn line into two columns headed 'SUN' and 'MON'. "
                  "SUN: 'D 7am 150ml F'. MON: 'C 1pm 4½oz', 'nap 1h20 cot'. A doodle of a cat in the bottom right corner "
                  "and 'BUY WIPES' in capitals along the edge.",
          recs=[bottle("03-23", "150ml", "dad=D", "formula=F"), bottle("03-24", "4½oz", "grandma=C"),
                nap("03-24", "1h20", "cot")]),
        R("Fed left 19 min at 7 this morning. He's so much quicker now, he used to take forever.",
          "Logged: left side, 19 minutes this morning. Babies get much more efficient at the breast around now.",
          recs=[breast("03-25", "left", "19 min")]),
        R("Pumped 70 ml after that feed. The freezer stash is at 640 ml now, I feel like a dairy farmer.",
          "640 ml in the freezer is a great buffer! Pumping stays out of the feed log."),
        R("Dan's back at work on Monday 7 April. Paternity leave plus two weeks of holiday ends then and I'm in denial.",
          "Monday 7 April, noted. It'll be an adjustment; maybe plan which feeds Dan keeps so he still gets his Olly time.",
          fact="dan_work"),
        R("He wants to keep the bedtime bottle and the weekend mornings.",
          "Nice routine, and it gives you a predictable break too."),
        R("Any tips for getting a baby to take a dummy? He spits it out like it insulted him.",
          "Offer it when he's drowsy but calm rather than upset, gently tug it as if you're taking it away (that triggers "
          "the sucking reflex), and try a different shape. Some babies just aren't dummy people."),
        R("Carol wants to take him to the coast on the May bank holiday. In the car. For 2 hours. Each way. Pray for us.",
          "Long drives often go surprisingly well, since the motion tends to send babies to sleep. Plan a stop every "
          "couple of hours."),
    ]))
    S.append(("2025-03-31", [
        R("The app's weekly sleep view, since I was too tired to log naps properly last week.",
          "Logged two naps: Thursday, 35 minutes in the car; Saturday, 1 h 10 in the pram. I left out the weekly total and "
          "the 4 h 50 night stretch, since night sleep isn't a nap.",
          caption="Screenshot of Tiny Tally 'Sleep · Week of 24–30 Mar'. Summary tiles at the top: 'Day sleep logged 1h "
                  "45m' and 'Longest night stretch 4h 50m'. Listed naps: 'Thu 27 Mar · Car · 35m' and 'Sat 29 Mar · Pram "
                  "· 1h 10m'.",
          recs=[nap("03-27", "35m", "car=Car"), nap("03-29", "1h 10m", "pram=Pram")]),
        R("Yesterday (Mother's Day!! Dan got me peonies):\n- 8am bottle 150ml formula, Dan\n- I fed him every other time, "
          "didn't time any of it",
          "Happy Mother's Day for yesterday! Logged Dan's 150 ml formula at 8. Untimed breastfeeds can't go in with "
          "minutes, so I've left them out.",
          recs=[bottle("03-30", "150ml", "dad=Dan", "formula")]),
        R("And last night at 10 Dan made a 180 ml bottle and Olly drank maybe 60 before falling asleep. Dan was half "
          "asleep too so who knows, call it 60.",
          "Logged about 60 ml for Dan's 10 pm bottle last night (of 180 ml made up).",
          recs=[bottle("03-30", "60", "dad=Dan")]),
        R("Also the clocks went forward on Sunday and Olly has no idea. He woke at what is now 7:10 instead of 6:10, so "
          "I'm not complaining.",
          "The one time a baby ignoring the clock works in your favour!"),
        R("Today's nap: cot, 1 hr 35 min!! I cleaned the bathroom AND sat down.",
          "1 h 35 in the cot today, logged. Bathroom and sitting down: impressive.",
          recs=[nap("03-31", "1 hr 35 min", "cot")]),
        R("What's paced bottle feeding? Bev mentioned it and I nodded like I knew.",
          "Paced feeding means holding the bottle more horizontally and letting him pause now and then, so he controls "
          "the flow as he does at the breast. It helps avoid overfeeding and makes switching between breast and bottle "
          "easier."),
        R("Makes sense. Carol holds the bottle totally vertical, I'll gently mention it. Gently.",
          "Gently is the way. Maybe frame it as Bev's tip."),
    ]))
    S.append(("2025-04-06", [
        R("04:20 bottle 120ml dan did it i SLEPT",
          "Logged for 04:20 today: a 120 ml bottle from Dan. And you slept!",
          recs=[bottle("04-06", "120ml", "dad=dan")]),
        R("He had his jabs on Thursday. I fed him on the left for 12 min right before to calm him and he still screamed "
          "the place down. 2.5 ml of Calpol after and he was fine.",
          "Logged Thursday's 12-minute left-side feed. Poor Olly. The Calpol isn't a feed, so it's not in the log.",
          recs=[breast("04-03", "left", "12 min")]),
        R("The nurse weighed him at the jabs appointment: 5.86 kg. Bev is going to be thrilled.",
          "5.86 kg, noted. Lovely steady gain.",
          fact="weight"),
        R("Carol's report from Friday.",
          "Friday from Carol: a 5 oz bottle at 2:40 (about 148 ml) and a 1 h 15 pram nap. Logged.",
          caption="WhatsApp screenshot of a chat with 'Carol 🌷'. Messages dated Friday 4 April: 15:02 'Bottle done, 5 oz "
                  "at 2:40, all gone 👍'; 17:31 'He napped in the pram 1h 15 on our walk to the park, ducks were a hit'. "
                  "A photo thumbnail of ducks on a pond.",
          recs=[bottle("04-04", "5 oz", "grandma=Carol"), nap("04-04", "1h 15", "pram")]),
        R("Dan is back at work tomorrow and he's weirdly sad about it. He made a laminated schedule for the fridge.",
          "Of course he's sad, he's had Olly every day for weeks. A laminated schedule is very on-brand."),
        R("11am today I gave him 150 ml of formula myself! First time I've done a bottle, it felt very strange being on "
          "the other side.",
          "Logged: 150 ml of formula from you at 11 today. A milestone of its own.",
          recs=[bottle("04-06", "150 ml", "mum=myself", "formula")]),
        R("ikea trip this afternoon, he stayed awake the whole time staring at lamps. bought 3 storage boxes we did not "
          "need",
          "No nap to log then, just a very stimulated baby. The storage boxes will find a purpose eventually."),
    ]))
    S.append(("2025-04-12", [
        R("App export for Wednesday and Thursday. My first days flying solo in the daytime. Well, solo plus Carol.",
          "Logged: Wednesday, left side 14 min, Carol 140 ml formula and Dan 150 ml expressed. I left out the pump row "
          "and the bottle total.",
          caption="Screenshot of Tiny Tally 'Export · Feeds' covering 'Wed 9 Apr – Thu 10 Apr'. Rows: 'Wed 9 Apr 06:15 · "
                  "Breastfeed · L · 14 min'; 'Wed 9 Apr 12:00 · Bottle · 140 ml · Formula · Carol'; 'Wed 9 Apr 19:40 · "
                  "Bottle · 150 ml · Expressed · Dan'; 'Thu 10 Apr 10:00 · Pump · 80 ml'. Bottom line: 'Total bottle "
                  "volume: 290 ml'.",
          recs=[breast("04-09", "left=L", "14 min"), bottle("04-09", "140 ml", "grandma=Carol", "formula=Formula"),
                bottle("04-09", "150 ml", "dad=Dan", "expressed=Expressed")]),
        R("Week one of Dan being back at work: survived. Mostly. The house looks like a crime scene.",
          "Surviving is the goal. The house can wait."),
        R("He did 1h 40 in his cot this morning, I actually showered AND ate a hot meal.",
          "A 1 h 40 cot nap this morning, logged. Shower plus hot meal is elite.",
          recs=[nap("04-12", "1h 40", "cot")]),
        R("Bev came on Thursday. She suggested moving up to medium flow teats, because he's been gulping and getting "
          "frustrated with the slow ones.",
          "Medium flow teats, noted. If he starts coughing or milk spills out of the corners of his mouth, the flow may "
          "be too fast.",
          fact="teats"),
        R("She also said anything under 100 ml is basically a 'snack bottle' and not to stress about those. Which is good, "
          "because Dan's night ones are often snacks.",
          "Got it: under 100 ml is a snack bottle in Bev's book. I can count those up whenever you like.",
          fact="snack"),
        R("At this rate he'll be on 200 ml bottles by summer 😅",
          "He's certainly heading that way!"),
        R("Dan's mate Tom has a 5-month-old who takes 210 ml bottles, and now Dan is competitive about it. It's not a "
          "sport, Dan.",
          "It is absolutely not a sport. Olly will take what Olly needs."),
    ]))
    S.append(("2025-04-18", [
        R("Carol's whiteboard from Tuesday and Wednesday. She's started logging naps too, look at her go.",
          "Logged from Carol's board: Tuesday, 5 oz and a 50-minute pram nap; Wednesday, 5½ oz.",
          caption="Photo of the fridge whiteboard in black marker, in looping handwriting: 'TUES 15/4 — 1:10 5oz ✓ — nap "
                  "pram 50m' and below it 'WED 16/4 — 12:45 5½ oz (fussy) — tried the cot, 10 min of crying, no nap'. A "
                  "laminated schedule titled 'OLLY'S DAY' is stuck beside the board.",
          recs=[bottle("04-15", "5oz", "grandma=Carol"), nap("04-15", "50m", "pram"),
                bottle("04-16", "5½ oz", "grandma=Carol")]),
        R("2:50am. left 9 min, back down. dan snoring like a walrus",
          "Logged: 2:50 today, left side, 9 minutes.",
          recs=[breast("04-18", "left", "9 min")]),
        R("We're off to Dan's sister's in York for Easter tomorrow. Two nights. With all the baby stuff. The car will be "
          "full to the roof.",
          "Good luck with the packing! Bring more muslins than seems reasonable."),
        R("Yesterday Dan did the bedtime bottle, 170 ml of expressed, and it's the first time he's ever finished a 170!",
          "Logged yesterday's bedtime bottle: 170 ml of expressed from Dan, all gone.",
          recs=[bottle("04-17", "170 ml", "dad=Dan", "expressed")]),
        R("Is it ok to give him formula in the car if we're stuck in traffic? Like the ready-made cartons?",
          "Yes, ready-to-feed cartons are great for travel: no mixing, no hot water. Just stop the car to feed him rather "
          "than feeding while you're moving."),
        R("Good shout, buying a pack of cartons today.",
          "Perfect for the trip."),
        R("Also Happy Good Friday I guess. Chocolate for breakfast is allowed when you've been up since 2:50.",
          "Entirely allowed. Medicinal, even."),
    ]))
    S.append(("2025-04-24", [
        R("Backlog from York. Saturday he napped in the car on the way there, 1h 10, and then did another 45 min in the "
          "car going to the garden centre with Dan's sister.",
          "Saturday logged: two car naps, 1 h 10 and 45 minutes.",
          recs=[nap("04-19", "1h 10", "car"), nap("04-19", "45 min", "car")]),
        R("Sunday there: Dan did the bedtime bottle, 150 ml of the ready-made formula. Carol stayed in Leeds, she had "
          "church.",
          "Easter Sunday: Dan, 150 ml of formula at bedtime. Logged.",
          recs=[bottle("04-20", "150 ml", "dad=Dan", "formula")]),
        R("And we moved him into his own room and the big cot on Monday the 21st. The first night he slept better than "
          "we did.",
          "A big move, noted for Monday 21 April! I can compare his cot naps before and after whenever you like.",
          fact="own_room"),
        R("Tuesday's nap from the app.",
          "Tuesday's cot nap, 1 h 25, logged.",
          caption="Tiny Tally nap card: 'Nap · Cot', 'Tue 22 Apr', '13:10 → 14:35', duration in large type '1h 25m'. A "
                  "small moon icon and the note 'new room 🌙'.",
          recs=[nap("04-22", "1h 25m", "cot=Cot")]),
        R("Right side, 13 min, at 5:45 this morning. He's getting so distractible, every noise and he pops off to look "
          "around.",
          "Logged: right side, 13 minutes this morning. Distractible feeding is classic at this age; a quiet, dim room "
          "helps.",
          recs=[breast("04-24", "right", "13 min")]),
        R("Sometimes I feel guilty that we do so many bottles. Is that silly?",
          "Not silly, but not necessary either. Combination feeding is a completely valid way to feed a baby, and it lets "
          "Dan and Carol bond with him while you rest. Fed and loved is the point."),
        R("My friend Jess's baby is the same age and does four 45-minute naps like clockwork. Olly does whatever he wants.",
          "Clockwork babies exist mostly to make other parents doubt themselves. Olly's naps are a healthy length."),
        R("Thanks. Off to baby sensory class, wish me luck.",
          "Have fun, enjoy the lights and bubbles!"),
    ]))
    S.append(("2025-04-30", [
        R("Saturday from the app: Dan's full day in charge while I went to my friend's hen brunch.",
          "Saturday logged: left side 12 min, Dan's 160 ml formula bottle and a 1 h 05 pram nap. Hope the brunch was fun!",
          caption="Screenshot of Tiny Tally day view 'Sat 26 Apr'. Entries: '06:30 Breastfeed · Left · 12 min'; '10:15 "
                  "Bottle · 160 ml · Formula · Dan'; '13:00 Nap · Pram · 1h 05m'; '16:20 Nappy · Dirty'. Banner: 'Dan "
                  "logged 3 entries today ⭐'.",
          recs=[breast("04-26", "left=Left", "12 min"), bottle("04-26", "160 ml", "dad=Dan", "formula=Formula"),
                nap("04-26", "1h 05m", "pram=Pram")]),
        R("Carol asked me if 6 oz is too much for a 3.5-month-old. She wants to start making 6 oz bottles 'just in case'.",
          "Making 6 oz is fine as long as nobody pushes him to finish it; he'll stop when he's full. I'll log whatever he "
          "actually drinks."),
        R("overnight: 1:30 right 10 min. typed this at 1:38 sorry for typos",
          "Logged: 1:30 today, right side, 10 minutes.",
          recs=[breast("04-30", "right", "10 min")]),
        R("cot nap 40 min, woke up screaming. teeth?? at 3.5 months??",
          "40-minute cot nap logged. Early teething signs (drool, chewing fists) can start around now, but waking upset "
          "after a short nap is also just a normal nap transition.",
          recs=[nap("04-30", "40 min", "cot")]),
        R("Everyone keeps warning me about the 4-month sleep regression like it's a horror film.",
          "It's real for many babies, but it's a sign his sleep cycles are maturing, not that something's wrong. Keeping "
          "the routine consistent helps, and it passes."),
        R("Carol swears by her Dr. Brown's bottles from home, Dan prefers our Tommee Tippee ones. There's a bottle war in "
          "my kitchen.",
          "A bottle war! As long as Olly takes both, everyone wins.",
          fact="carol_bottles"),
        R("Olly doesn't care, he'd drink out of a shoe.",
          "The sign of a flexible baby."),
    ]))
    S.append(("2025-05-06", [
        R("Bank holiday weekend catch-up. Saturday: 170 ml of formula from Dan at 7, and 40 min asleep in the car on the "
          "way to Harewood.",
          "Saturday logged: Dan, 170 ml of formula, and a 40-minute car nap.",
          recs=[bottle("05-03", "170 ml", "dad=Dan", "formula"), nap("05-03", "40 min", "car")]),
        R("Monday's whiteboard, bank holiday so everyone was home.",
          "Monday logged: Dan 180 ml, Carol 6 oz (about 177 ml), and a 1 h 45 cot nap. A long one!",
          caption="Photo of the fridge whiteboard: 'MON 5/5' underlined. Blue marker: 'D 9:15 180 ml ✓✓'. Black marker: "
                  "'C 2pm 6 oz'. Green marker: 'nap cot 1h45 (!!!)'. The laminated 'OLLY'S DAY' schedule is half covered "
                  "by a takeaway menu.",
          recs=[bottle("05-05", "180 ml", "dad=D"), bottle("05-05", "6 oz", "grandma=C"), nap("05-05", "1h45", "cot")]),
        R("Bathroom scales experiment: me holding Olly 71.4 kg, me alone 64.9. So roughly 6.5 kg? Or my scales are lying.",
          "That works out at about 6.5 kg. Bathroom scales aren't precise, but it fits his curve."),
        R("3.10 right 9 min",
          "Logged: 3:10 today, right side, 9 minutes.",
          recs=[breast("05-06", "right", "9 min")]),
        R("We got a place at Little Acorns nursery for September! Three days a week. I cried in the car park.",
          "Congratulations on Little Acorns! Car-park crying is standard.",
          fact="nursery"),
        R("Walked round Waterloo Lake with the pram this morning, 8,000 steps, and he refused to sleep. Screamed the whole "
          "lap.",
          "No nap to log, then, but 8,000 steps for you. Some days they just want to see everything."),
        R("Should I be thinking about weaning already? My mum keeps asking.",
          "Current guidance is to start solids at around 6 months, when he can sit with support and bring things to his "
          "mouth. At almost 4 months, milk is all he needs."),
    ]))
    S.append(("2025-05-12", [
        R("Friday from the app, Carol had him all afternoon.",
          "Friday logged: Dan 180 ml formula, right side 9 min, and Grandma 150 ml of expressed.",
          caption="Tiny Tally export 'Fri 9 May'. Rows: '07:00 · Bottle · 180 ml · Formula · Dan'; '11:40 · Breastfeed · "
                  "R · 9 min'; '14:10 · Bottle · 150 ml · Expressed · Grandma'; '17:30 · Nappy · Wet'. A note at the "
                  "bottom: 'Grandma used the blue bottle'.",
          recs=[bottle("05-09", "180 ml", "dad=Dan", "formula=Formula"), breast("05-09", "right=R", "9 min"),
                bottle("05-09", "150 ml", "grandma=Grandma", "expressed=Expressed")]),
        R("Saturday Dan took him to his mate's BBQ, gave him a 200 ml bottle (!) and Olly slept in the car the whole way "
          "home, 1h 05.",
          "Saturday: Dan's 200 ml bottle, his biggest yet, and a 1 h 05 car nap. Logged.",
          recs=[bottle("05-10", "200 ml", "dad=Dan"), nap("05-10", "1h 05", "car")]),
        R("I gave him 160 ml of expressed at 10 today. My own milk in a bottle, felt like a win.",
          "Logged: 160 ml of expressed from you this morning.",
          recs=[bottle("05-12", "160 ml", "mum=I gave him", "expressed")]),
        R("Pumped 110 ml this morning, freezer stash is 900 ml. Dairy farmer era continues.",
          "900 ml in the stash! Not logged as a feed."),
        R("What's the deal with baby sunscreen? We're going to be outside a lot.",
          "Under 6 months, keep him out of direct sun: shade, a canopy and a sun hat. Sunscreen is recommended from 6 "
          "months (SPF 30+, a children's formula); a small amount on exposed skin when you can't avoid the sun is okay."),
        R("cot nap attempt after lunch: 10 minutes of crying, then nothing. gave up and we went out.",
          "Nothing to log for that one. Some days the cot just loses."),
        R("Dan reckons he'll sleep through by June. Dan is an optimist.",
          "Hold that thought loosely!"),
    ]))
    S.append(("2025-05-18", [
        R("0330 left side 11 mins. he bit me. no teeth yet but STILL",
          "Logged: 3:30 today, left side, 11 minutes. Gums hurt too!",
          recs=[breast("05-18", "left", "11 mins")]),
        R("Carol's message from Thursday.",
          "Thursday from Carol: 6 oz at 12:30, all gone. Logged.",
          caption="WhatsApp screenshot of a chat with 'Carol 🌷', Thursday 15 May. Carol, 13:02: '6 oz at 12:30, all "
                  "gone, such a big boy'. Carol, 15:40: 'He's been chatting to the ceiling fan for 20 mins 😂'. Nadia's "
                  "reply: 'amazing thank you!!'.",
          recs=[bottle("05-15", "6 oz", "grandma=Carol")]),
        R("Friday evening Dan did 190 ml of formula before bed, then refused to let me have any of the curry.",
          "Friday logged: Dan, 190 ml of formula. The curry situation is between you two.",
          recs=[bottle("05-16", "190 ml", "dad=Dan", "formula")]),
        R("For the record, Olly rolled over for the first time on Wednesday! Back to tummy, and then he looked furious "
          "about it.",
          "First roll on Wednesday 14 May, noted! The furious face is a classic.",
          fact="rolled"),
        R("170 ml from me at 11 today. Carol's last fortnight here is coming up, I'm going to miss her so much.",
          "Logged: 170 ml from you today. Carol will be sorely missed.",
          recs=[bottle("05-18", "170 ml", "mum=from me")]),
        R("he did 2h 05 in the cot this afternoon, a new record!!",
          "2 h 05 in the cot, a new record, logged!",
          recs=[nap("05-18", "2h 05", "cot")]),
        R("Four months in. We're doing ok, aren't we?",
          "You're doing more than ok. He's growing, feeding well and napping longer, and you've built a whole system with "
          "Dan and Carol."),
    ]))
    return S


# ------------------------------------------------------------------------------------------------
# question builders (shared)
# ------------------------------------------------------------------------------------------------


def q_mean(sc, point, question, recs, field, dec, tol, unit, tpl, extra=()):
    recs = [r for r in recs if r.has(field)]
    v = mean(r.f[field] for r in recs)
    return sc.add(point, question, tpl.format(v=s(v, dec), n=len(recs)), recs, num(v, dec), "number", tol, unit,
                  extra=extra)


def q_sum(sc, point, question, recs, field, dec, tol, unit, tpl, extra=(), offset=Fraction(0)):
    recs = [r for r in recs if r.has(field)]
    v = total(r.f[field] for r in recs) + offset
    return sc.add(point, question, tpl.format(v=s(v, dec), n=len(recs)), recs, num(v, dec), "number", tol, unit,
                  extra=extra)


def q_count(sc, question, matching, unit, tpl, extra=(), point="CNT"):
    n = len(matching)
    return sc.add(point, question, tpl.format(v=n), matching, n, "number", 0, unit, extra=extra)


def q_share(sc, question, scope, cond, tpl, extra=()):
    hit = [r for r in scope if cond(r)]
    v = Fraction(100 * len(hit), len(scope))
    return sc.add("AVG", question, tpl.format(v=s(v, 1), k=len(hit), n=len(scope)), scope, num(v, 1), "number", 0.05,
                  "%", extra=extra)


def q_extreme(sc, point, question, recs, field, kind, what, dec, tol, unit, tpl, extra=()):
    recs = [r for r in recs if r.has(field)]
    best = (max if kind == "max" else min)(r.f[field] for r in recs)
    winners = [r for r in recs if r.f[field] == best]
    if what == "date":
        days = sorted({r.date for r in winners})
        assert len(days) == 1, (question, days)
        d = days[0]
        return sc.add(point, question, tpl.format(d=human_date(d), v=s(best, dec)), recs, d.isoformat(), "date",
                      extra=extra)
    return sc.add(point, question, tpl.format(v=s(best, dec), d=human_date(winners[-1].date)), recs, num(best, dec),
                  "number", tol, unit, extra=extra)


def latest(recs):
    last = max(r.date for r in recs)
    hits = [r for r in recs if r.date == last]
    assert len(hits) == 1, [h.round for h in hits]
    return hits[0]


def q_latest(sc, question, recs, what, tpl, dec=0, tol=0, unit=None, cands=None, fmt=None, extra=()):
    r = latest(recs)
    if what == "date":
        return sc.add("LAT", question, tpl.format(d=human_date(r.date)), [r], r.date.isoformat(), "date", extra=extra)
    v = r.f[what] if fmt is None else fmt(r)
    if isinstance(v, str):
        return sc.add("LAT", question, tpl.format(v=v, d=human_date(r.date)), [r], v, "string", cands=cands,
                      extra=extra)
    return sc.add("LAT", question, tpl.format(v=s(v, dec), d=human_date(r.date)), [r], num(v, dec), "number", tol,
                  unit, extra=extra)


def q_dates(sc, question, matching, tpl="{v}", extra=()):
    days = sorted({r.date for r in matching})
    text = tpl.format(v="; ".join(human_date(d) for d in days), n=len(days))
    return sc.add("RNG", question, text, matching, [d.isoformat() for d in days], "list", extra=extra)


def q_entities(sc, question, matching, key, cands, tpl="{v}", extra=()):
    vals = sorted({key(r) for r in matching})
    text = tpl.format(v=" and ".join(vals))
    return sc.add("RNG", question, text, matching, vals, "list", cands=cands, extra=extra)


def q_pick(sc, point, question, groups: dict, stat, pick, tpl, rel=0.015, absolute=None, dec=1, extra=(),
           cands=None):
    """Winner among groups {label: recs} by stat(recs); the gap to the runner-up must be unambiguous."""
    vals = {k: stat(v) for k, v in groups.items()}
    order = sorted(vals, key=vals.__getitem__, reverse=(pick == "max"))
    assert gap_ok(vals[order[0]], vals[order[1]], rel, absolute), (question, vals)
    clue = [r for v in groups.values() for r in v]
    others = ", ".join(f"{k} {s(vals[k], dec)}" for k in order[1:])
    text = tpl.format(w=order[0], v=s(vals[order[0]], dec), others=others,
                      **{f"v_{i}": s(vals[k], dec) for i, k in enumerate(order)})
    return sc.add(point, question, text, clue, order[0], "string", cands=cands or list(groups), extra=extra)


def q_trend(sc, question, before, after, stat, tpl, rel=0.015, absolute=None, dec=1, extra=()):
    a, b = stat(before), stat(after)
    assert gap_ok(a, b, rel, absolute), (question, a, b)
    word = "increased" if b > a else "decreased"
    text = tpl.format(w=word.capitalize(), a=s(a, dec), b=s(b, dec))
    return sc.add("TRD", question, text, list(before) + list(after), word, "string",
                  cands=["increased", "decreased"], extra=extra)


def q_ret(sc, question, fact, value, atype, answer, tol=0, unit=None):
    return sc.add("RET", question, answer, [], value, atype, tol, unit, extra=(fact,))


def avg_of(field):
    return lambda recs: mean(r.f[field] for r in recs if r.has(field))


def sum_of(field):
    return lambda recs: total(r.f[field] for r in recs if r.has(field))


MONTH_NAMES = {m: MONTHS[m - 1] for m in range(1, 13)}


# ------------------------------------------------------------------------------------------------
# baby_log: profile and questions
# ------------------------------------------------------------------------------------------------

BABY_PROFILE = {
    "name": "Nadia Kowalczyk",
    "persona_summary": "32-year-old UX designer from Leeds on maternity leave with her first baby, Olly (born in "
                       "January 2025). They combination feed: Nadia breastfeeds, and her partner Dan and his American "
                       "mother Carol give bottles of expressed milk or formula. She logs Olly's feeds and naps for the "
                       "health visitor from baby-tracker app screenshots, fridge-whiteboard photos, Carol's WhatsApp "
                       "messages and notes typed half-asleep in the middle of the night.",
    "traits": ["sleep-deprived but organised", "self-deprecating humour", "worries whether he's eating enough",
               "types in lowercase at night"],
    "conversation_style": "Chatty and exclamation-heavy in the daytime; terse, typo-prone fragments at night. Sends "
                          "photos and screenshots with a one-line comment.",
}


def baby_questions(sc: Scenario) -> None:
    feeds = sc.sel("feed")
    bottles = [r for r in feeds if r.f["feed_type"] == "bottle"]
    breasts = [r for r in feeds if r.f["feed_type"] == "breast"]
    naps = sc.sel("nap")
    by = lambda who: [r for r in bottles if r.f.get("fed_by") == who]
    month = lambda rs, m: [r for r in rs if r.date.month == m]
    place = lambda p: [r for r in naps if r.f["place"] == p]
    side = lambda sd: [r for r in breasts if r.f.get("side") == sd]
    room = dt.date(2025, 4, 21)
    work = dt.date(2025, 4, 7)

    # AVG
    q_mean(sc, "AVG", "On average, how much did Olly drink per bottle across the whole log, in ml?", bottles,
           "volume_ml", 1, 0.05, "ml", "{v} ml per bottle on average, over {n} logged bottles.")
    q_mean(sc, "AVG", "How long did my breastfeeds last on average in March?", month(breasts, 3), "duration_min", 1,
           0.05, "minutes", "{v} minutes on average, over {n} timed breastfeeds in March 2025.")
    q_mean(sc, "AVG", "What was the average length of his pram naps?", place("pram"), "duration_min", 1, 0.05,
           "minutes", "{v} minutes on average, across {n} pram naps.")
    q_mean(sc, "AVG", "On average, how many ml were Carol's bottles?", by("grandma"), "volume_ml", 1, 0.05, "ml",
           "{v} ml on average over Carol's {n} bottles (her ounces counted as US fl oz).")
    q_share(sc, "What percentage of the feeds I logged in April were bottles rather than breastfeeds?",
            month(feeds, 4), lambda r: r.f["feed_type"] == "bottle",
            "{v}% of the April feeds were bottles ({k} of {n}).")
    q_mean(sc, "AVG", "What was his average cot nap once he'd moved into his own room?",
           [r for r in place("cot") if r.date >= room], "duration_min", 1, 0.05, "minutes",
           "{v} minutes on average, over {n} cot naps since the move on 21 April 2025.", extra=("own_room",))
    q_mean(sc, "AVG", "What was the average bottle Dan gave him in May, in ml?", month(by("dad"), 5), "volume_ml", 1,
           0.05, "ml", "{v} ml on average, over Dan's {n} bottles in May 2025.")

    # SUM
    q_sum(sc, "SUM", "How many ml did Dan give Olly in bottles in April, all together?", month(by("dad"), 4),
          "volume_ml", 0, 0, "ml", "{v} ml in total from Dan's {n} bottles in April 2025.")
    q_sum(sc, "SUM", "How much did Carol's bottles add up to in March, in ml?", month(by("grandma"), 3), "volume_ml",
          1, 0.5, "ml", "{v} ml in total over Carol's {n} March bottles (US fl oz converted).")
    q_sum(sc, "SUM", "How many minutes did he nap in the car altogether?", place("car"), "duration_min", 0, 0,
          "minutes", "{v} minutes of car naps in total ({n} naps).")
    q_sum(sc, "SUM", "What's the total time I've breastfed him on the left side, in minutes?", side("left"),
          "duration_min", 1, 0.5, "minutes", "{v} minutes in total over {n} left-side feeds.")

    # CNT
    q_count(sc, "How many bottles of 180 ml or more did he have in May?",
            [r for r in month(bottles, 5) if r.f["volume_ml"] >= 180], "bottles",
            "{v} bottles of at least 180 ml in May 2025 (Carol's 6 oz bottles are about 177 ml, so they don't count).")
    q_count(sc, "How many of his naps lasted longer than an hour?", [r for r in naps if r.f["duration_min"] > 60],
            "naps", "{v} naps were longer than an hour.")
    q_count(sc, "How many snack bottles did I log, going by the health visitor's definition?",
            [r for r in bottles if r.f["volume_ml"] < 100], "bottles",
            "{v} snack bottles, i.e. bottles under 100 ml, Bev's threshold.", extra=("snack",))
    q_count(sc, "From the day Dan went back to work onward, how many bottles did he give Olly?",
            [r for r in by("dad") if r.date >= work], "bottles",
            "{v} bottles from Dan since he went back to work on Monday 7 April 2025.", extra=("dan_work",))
    q_count(sc, "How many right-side breastfeeds did I log?", side("right"), "feeds",
            "{v} breastfeeds on the right side.")

    # MAX
    q_extreme(sc, "MAX", "What's the most Olly has drunk from a single bottle?", bottles, "volume_ml", "max", "value",
              1, 0.5, "ml", "{v} ml, on {d}.")
    q_extreme(sc, "MAX", "On which day did he have his longest nap?", naps, "duration_min", "max", "date", 0, 0, None,
              "{d}: a {v}-minute nap.")
    q_pick(sc, "MAX", "Who gave him the most bottles: me, Dan or Carol?",
           {"Dan": by("dad"), "Carol": by("grandma"), "me": by("mum")}, lambda rs: Fraction(len(rs)), "max",
           "{w}, with {v} bottles (then {others}).", absolute=2, dec=0)
    q_pick(sc, "MAX", "Which month had the highest average bottle?",
           {"March": month(bottles, 3), "April": month(bottles, 4), "May": month(bottles, 5)}, avg_of("volume_ml"),
           "max", "{w}: {v} ml per bottle on average (others: {others}).", rel=0.015)

    # MIN
    q_extreme(sc, "MIN", "What was my shortest breastfeed, in minutes?", breasts, "duration_min", "min", "value", 0, 0,
              "minutes", "{v} minutes.")
    q_extreme(sc, "MIN", "When was his shortest nap?", naps, "duration_min", "min", "date", 0, 0, None,
              "{d}: only {v} minutes.")
    q_pick(sc, "MIN", "Where does he nap the shortest on average: cot, pram or car?",
           {"car": place("car"), "pram": place("pram"), "cot": place("cot")}, avg_of("duration_min"), "min",
           "In the {w}: {v} minutes on average (others: {others}).")
    q_extreme(sc, "MIN", "What was the smallest bottle Carol gave him, in ml?", by("grandma"), "volume_ml", "min",
              "value", 1, 0.5, "ml", "{v} ml, on {d}.")

    # LAT
    q_latest(sc, "How many ml was the last bottle Carol gave him?", by("grandma"), "volume_ml",
             "{v} ml (6 US fl oz), on {d}.", dec=1, tol=0.5, unit="ml")
    q_latest(sc, "When did he last nap in the car?", place("car"), "date", "{d}.")
    q_latest(sc, "Which side did I feed him on most recently?", [r for r in breasts if r.has("side")], "side",
             "The {v} side, on {d}.", cands=["left", "right"])
    q_latest(sc, "How long was his most recent pram nap?", place("pram"), "duration_min", "{v} minutes, on {d}.",
             unit="minutes")

    # RNG
    q_dates(sc, "On which days did he nap in the car?", place("car"))
    q_dates(sc, "On which days did I give him a bottle myself?", by("mum"))
    q_dates(sc, "Which days had a nap of 100 minutes or more?", [r for r in naps if r.f["duration_min"] >= 100])
    q_dates(sc, "On which days did Carol give him more than 5 oz?",
            [r for r in by("grandma") if r.f["volume_ml"] > 5 * OZ_ML])

    # CMP
    q_pick(sc, "CMP", "Were my breastfeeds longer on the left or on the right, on average?",
           {"left": side("left"), "right": side("right")}, avg_of("duration_min"), "max",
           "The {w}: {v_0} minutes on average versus {v_1}.")
    q_pick(sc, "CMP", "Who gives him bigger bottles on average, Dan or Carol?",
           {"Dan": by("dad"), "Carol": by("grandma")}, avg_of("volume_ml"), "max",
           "{w}: {v_0} ml per bottle on average versus {v_1} ml.")
    q_pick(sc, "CMP", "Were his cot naps or his pram naps longer on average?",
           {"cot": place("cot"), "pram": place("pram")}, avg_of("duration_min"), "max",
           "His {w} naps: {v_0} minutes on average versus {v_1}.")
    q_pick(sc, "CMP", "In total, did he nap more in March or in April?",
           {"March": month(naps, 3), "April": month(naps, 4)}, sum_of("duration_min"), "max",
           "{w}: {v_0} minutes of naps logged, against {v_1}.", absolute=20, dec=0)

    # TRD
    q_trend(sc, "Did his average bottle go up or down from March to May?", month(bottles, 3), month(bottles, 5),
            avg_of("volume_ml"), "{w}: from {a} ml per bottle in March to {b} ml in May.")
    q_trend(sc, "Did the average length of my breastfeeds increase or decrease from March to April?",
            month(breasts, 3), month(breasts, 4), avg_of("duration_min"),
            "{w}: from {a} minutes in March to {b} minutes in April.")
    q_trend(sc, "Between March and May, did his average nap length increase or decrease?", month(naps, 3),
            month(naps, 5), avg_of("duration_min"), "{w}: from {a} minutes in March to {b} minutes in May.")

    # RET
    q_ret(sc, "When was Olly born?", "born", "2025-01-14", "date", "14 January 2025.")
    q_ret(sc, "Which city does Carol fly home to after her stay?", "carol_city", "Columbus", "string",
          "Columbus (Ohio), at the end of May.")
    q_ret(sc, "Which formula did we switch to?", "formula", "Kendamil", "string", "Kendamil.")
    q_ret(sc, "How much did Olly weigh at his jabs appointment?", "weight", 5.86, "number", "5.86 kg.", 0.001, "kg")
    q_ret(sc, "What kind of teats did Bev suggest we move up to?", "teats", "medium flow", "string",
          "Medium flow teats.")
    q_ret(sc, "Which nursery did Olly get a place at?", "nursery", "Little Acorns", "string",
          "Little Acorns, three days a week from September.")
    q_ret(sc, "When did Olly first roll over?", "rolled", "2025-05-14", "date", "Wednesday, 14 May 2025.")


# ================================================================================================
# Scenario 2: dog_care
# ================================================================================================


def walk(md: str, by: str | None, dur, km=None, route: str | None = None) -> Rec:
    r = rec("walk", 2025, md, [("duration_min", dur, parse_minutes), ("distance_km", km, parse_km)],
            [("route", route), ("walked_by", by)])
    return _order(r, ["duration_min", "distance_km", "route", "walked_by"])


def weigh(md: str, raw, place: str) -> Rec:
    return rec("weigh_in", 2025, md, [("weight_kg", raw, parse_kg)], [("place", place)])


def cost(md: str, category: str, raw, shop: str | None = None) -> Rec:
    r = rec("cost", 2025, md, [("amount_eur", raw, parse_eur)], [("category", category), ("shop", shop)])
    return _order(r, ["category", "amount_eur", "shop"])


def dog_sessions() -> list:
    S = []
    S.append(("2025-09-01", [
        R("Hi! I need a system. Otis, our 6-year-old chocolate Labrador and the greediest creature in Ghent, is going on a "
          "diet, and I want to keep track of his walks, his weight and what he costs us. Walks are done by me, my wife "
          "Sanne, our son Lukas (16), and our neighbour Mehmet, who takes him out on Tuesdays and Thursdays at lunchtime "
          "because he misses his own dog.",
          "Happy to. I'll log each walk (how long, how far, where and who took him), every weigh-in (in kg, and whether "
          "it was at the vet or at home) and his costs by category: food, vet, grooming and toys. Send app screenshots, "
          "receipts or quick notes, whatever is easiest."),
        R("I took him along the Coupure canal path this morning before school: 42 minutes, 3.1 km according to the collar "
          "app. He sniffed every single tree.",
          "Logged for today: you, the Coupure, 42 minutes, 3.1 km. Every tree has news, apparently.",
          recs=[walk("09-01", "me=I took him", "42 minutes", "3.1 km", "Coupure")]),
        R("Here's Sanne's walk from yesterday evening. She's the long-distance one in this family.",
          "Sunday's walk with Sanne is logged: Blaarmeersen, 1:08:15, 5.02 km. I left out the pace and the active-minutes "
          "figure.",
          caption="Screenshot of the PawTrack collar app, activity detail 'Sun 31 Aug · 17:42'. A map shows a loop around "
                  "a lake. Route name: 'Blaarmeersen'. Stats: 'Duration 1:08:15', 'Distance 5.02 km', 'Avg pace 13:36 "
                  "/km', 'Active minutes 61'. Walker: 'Sanne'.",
          recs=[walk("08-31", "Sanne", "1:08:15", "5.02 km", "Blaarmeersen")]),
        R("Vet this afternoon, this is what started it all. Here's the bill.",
          "Logged from today's invoice: a vet cost of €50,82 (total incl. VAT) and a weigh-in at the vet of 34,6 kg.",
          caption="Photo of an A5 invoice with the letterhead 'Dierenkliniek Ter Linde', dated 01/09/2025. Patient: "
                  "'Otis — Labrador — M — 6 j'. Lines: 'Consultatie 42,00', 'Dieetadvies 0,00'. A boxed field: 'Gewicht: "
                  "34,6 kg'. Bottom: 'Subtotaal 42,00 · BTW 21% 8,82 · Totaal € 50,82'. Paid by Bancontact.",
          recs=[weigh("09-01", "34,6 kg", "vet=Dierenkliniek"), cost("09-01", "vet=Vet", "€ 50,82", "Ter Linde")]),
        R("Dr. Claes wants him down to 31 kg. She says about half a kilo a month is a realistic pace, and that he needs "
          "at least an hour of walking a day in total. Splitting it over two walks is fine.",
          "Noted: target 31 kg, roughly 0.5 kg a month, and at least 60 minutes of walking a day (split walks count). I "
          "can check his days against that whenever you want.",
          fact="vet_name,target,walk_goal"),
        R("Ordered his new diet food straight away.",
          "Logged a food cost of €84,99 at Zooplus for today. (The 12 kg is the bag, not Otis!)",
          caption="Screenshot of an order confirmation email from Zooplus. 'Order date: 1 September 2025'. Item: 'Royal "
                  "Canin Satiety Weight Management, dry dog food, 12 kg', qty 1, '€ 84,99'. 'Shipping: free'. 'Order "
                  "total: € 84,99'. 'You earned 84 zooPoints'. 'Estimated delivery: Wed 3 Sep'.",
          recs=[cost("09-01", "food", "€ 84,99", "Zooplus")]),
        R("He just gave me the saddest look when I weighed out his portion. The vet put him on 215 grams twice a day and "
          "he is NOT impressed.",
          "215 g a meal, twice a day, noted. The sad look is a Labrador's main weapon; stay strong.",
          fact="grams"),
        R("Right, marking tests. Talk soon.",
          "Good luck with the marking!"),
    ]))
    S.append(("2025-09-05", [
        R("Mehmet's reports from this week. He writes in Dutch but you'll get the gist: 'gewandeld' = walked.",
          "Logged both of Mehmet's walks: Tuesday, Citadelpark, 45 min, 3,2 km; Thursday, Bourgoyen, 50 min, 3,6 km.",
          caption="WhatsApp screenshot of a chat with 'Mehmet (buurman)'. Tue 2 Sep, 13:20: 'Otis gewandeld ✅ "
                  "Citadelpark, 45 min, 3,2 km. Hij heeft een eend gezien 🦆'. Thu 4 Sep, 13:05: 'Vandaag Bourgoyen, 50 "
                  "min, 3,6 km. Moe hond 😄'.",
          recs=[walk("09-02", "Mehmet", "45 min", "3,2 km", "Citadelpark"),
                walk("09-04", "Mehmet", "50 min", "3,6 km", "Bourgoyen")]),
        R("Lukas took him out on Wednesday after school for '20 minutes, around'. That's all the detail I get from a "
          "16-year-old.",
          "Logged Wednesday: Lukas, 20 minutes, no route or distance. Teenage reporting at its finest.",
          recs=[walk("09-03", "Lukas", "20 minutes")]),
        R("Also stopped at Tom&Co on Wednesday. The Kong is a toy, obviously; the dental sticks I count as food, they're "
          "his treats now.",
          "Logged two costs from Wednesday's receipt: toys €14,95 (the Kong) and food €7,49 (dental sticks). The total "
          "and the VAT line aren't extra costs.",
          caption="Photo of a thermal receipt from 'Tom&Co Gent Zuid', 03/09/2025 16:42. Lines: 'KONG Classic L 14,95', "
                  "'Dental sticks light 7st 7,49'. 'TOTAAL 22,44', 'waarvan BTW 21% 3,89', 'Bancontact 22,44'. "
                  "'Klantenkaart: +22 punten'.",
          recs=[cost("09-03", "toys=toy", "14,95", "Tom&Co"), cost("09-03", "food", "7,49", "Tom&Co")]),
        R("Sanne and I agreed a food budget for him: €90 a month, treats included. The diet food isn't cheap.",
          "€90 a month for food, treats included, noted. I can tell you how each month compares.",
          fact="budget"),
        R("Is it normal for a lab to be this obsessed with food? He tried to open the fridge last night.",
          "Very normal, and there's a genetic reason: many Labradors carry a POMC gene variant that makes them feel "
          "hungrier and burn less energy. Measured meals and a lock on the bin are your friends."),
        R("Sanne has a night shift tonight, so the evening walk is me. Probably the Coupure again, maybe 40 minutes.",
          "Enjoy the walk. Tell me how it went afterwards and I'll log it."),
        R("Weather's turning already. He loves the rain, I do not.",
          "A Labrador in the rain is a happy Labrador. Good luck with the towels."),
    ]))
    S.append(("2025-09-11", [
        R("Saturday's big walk round the Bourgoyen. Photo of my watch at the end.",
          "Saturday logged: your walk at the Bourgoyen, 1:15:00, 5.40 km. Heart rate and calories left out.",
          caption="Photo of a Garmin watch on a wrist. Screen: 'Walk', '1:15:00', '5.40 km', 'Avg HR 98', '412 kcal'. "
                  "A wet brown Labrador nose is visible at the bottom edge of the photo.",
          recs=[walk("09-06", "me=my watch", "1:15:00", "5.40 km", "Bourgoyen")]),
        R("Sunday Sanne did the Blaarmeersen loop again: an hour exactly, 4.6 km.",
          "Sunday: Sanne, Blaarmeersen, 60 minutes, 4.6 km. Logged.",
          recs=[walk("09-07", "Sanne", ("an hour exactly", 60), "4.6 km", "Blaarmeersen")]),
        R("Mehmet on Tuesday: Citadelpark, 40 min, 2,9 km.",
          "Tuesday logged: Mehmet, Citadelpark, 40 minutes, 2,9 km.",
          recs=[walk("09-09", "Mehmet", "40 min", "2,9 km", "Citadelpark")]),
        R("Yesterday was a two-walk day: the Coupure at 7 (38 min, 2.8 km) and a quick Citadelpark round after dinner "
          "(25 min, 1.9 km). Both me.",
          "Yesterday logged as two walks: the Coupure, 38 min, 2.8 km, and Citadelpark, 25 min, 1.9 km, both with you.",
          recs=[walk("09-10", "me=Both me", "38 min", "2.8 km", "Coupure"),
                walk("09-10", "me=Both me", "25 min", "1.9 km", "Citadelpark")]),
        R("He has started sitting next to the treat cupboard and staring at it. Just staring. For minutes.",
          "Classic Labrador mind control. Don't make eye contact."),
        R("Our friends' beagle lost 3 kg in two months on a similar plan, so there's hope.",
          "There's definitely hope. Dogs usually lose steadily with measured food and more walking."),
        R("Today's Mehmet walk is cancelled, he has a cold. Otis is sulking by the door.",
          "Get well soon to Mehmet. Nothing to log for today, then."),
        R("Any idea how to stop him pulling on the lead towards every other dog?",
          "Stop walking whenever the lead goes tight and only move on when it's slack; reward him for looking back at "
          "you. A front-clip harness helps while he learns. It takes a few weeks of consistency."),
    ]))
    S.append(("2025-09-16", [
        R("Saturday weigh-in at home. Our old bathroom scale only does pounds, it came back with us from our year in "
          "Boston. Me holding Otis: 252.4 lb. Me alone: 176.6 lb. So he's 75.8 lb.",
          "Logged Saturday's home weigh-in: 75.8 lb, which is about 34.38 kg.",
          recs=[weigh("09-13", "75.8 lb", "home")], fact="boston"),
        R("Also Saturday: Watersportbaan, 55 min, 4.3 km, just me and him and the rowers.",
          "Saturday walk logged: you, Watersportbaan, 55 minutes, 4.3 km.",
          recs=[walk("09-13", "me=just me", "55 min", "4.3 km", "Watersportbaan")]),
        R("Sunday Sanne took him to the Bourgoyen: 1 h 20 min, 5.9 km. She came home muddy to the knees.",
          "Sunday logged: Sanne, Bourgoyen, 1 h 20, 5.9 km.",
          recs=[walk("09-14", "Sanne", "1 h 20 min", "5.9 km", "Bourgoyen")]),
        R("Only the Purina pouches on this receipt are Otis's food, the rest is our shopping.",
          "Logged a food cost of 11,36 at Carrefour, dated 15 September.",
          caption="Photo of a Carrefour Market receipt dated 15-09-2025, 18:21. Among the groceries: 'PURINA LIGHT KIP "
                  "4x85G 11,36', 'BANANEN 1,89', 'VOLKORENBROOD 2,95', 'MELK HALFVOL 2L 2,38'. 'TOTAAL 67,83'.",
          recs=[cost("09-15", "food", "11,36", "Carrefour")]),
        R("Mehmet just sent: 'Citadelpark 45 min 3,3 km, alles goed'. He's back on his feet.",
          "Today's walk logged: Mehmet, Citadelpark, 45 minutes, 3,3 km. Glad he's better.",
          recs=[walk("09-16", "Mehmet", "45 min", "3,3 km", "Citadelpark")]),
        R("Otis is insured with Agria, €24,50 a month. Does that go in the costs?",
          "I'll keep insurance out of the cost log, since your categories are food, vet, grooming and toys, but I've "
          "noted that he's insured with Agria.",
          fact="insurer"),
        R("Fair enough. Off to a parents' evening now, wish me luck.",
          "Good luck! Hope the coffee is strong."),
    ]))
    S.append(("2025-09-21", [
        R("Thursday Mehmet's collar app died, so no distance, but he did the Coupure for 40 minutes.",
          "Logged Thursday: Mehmet, the Coupure, 40 minutes, distance unknown.",
          recs=[walk("09-18", "Mehmet", "40 minutes", None, "Coupure")]),
        R("Pluizebol (the groomer) on Friday: bath, nails and de-shedding, €55. He came out smelling of coconut.",
          "Friday logged: grooming at Pluizebol, €55.",
          recs=[cost("09-19", "grooming=groomer", "€55", "Pluizebol")], fact="groomer"),
        R("Lukas's walk yesterday, he's started using the app properly.",
          "Saturday logged: Lukas, Watersportbaan, 30 minutes, 2.4 km.",
          caption="PawTrack activity card: 'Sat 20 Sep · 16:10', route 'Watersportbaan', 'Duration 30:00', 'Distance "
                  "2.4 km', 'Walker: Lukas'. A badge underneath: '3-day streak 🔥'.",
          recs=[walk("09-20", "Lukas", "30:00", "2.4 km", "Watersportbaan")]),
        R("This morning: me, Blaarmeersen, 1h05, 4.9 km. Gorgeous autumn light.",
          "Today logged: you, Blaarmeersen, 1 h 05, 4.9 km.",
          recs=[walk("09-21", "me", "1h05", "4.9 km", "Blaarmeersen")]),
        R("A woman at the lake asked how much he weighs and guessed 40 kg. RUDE. Although a month ago, who knows.",
          "Rude indeed, and well out of date. He's heading in the right direction."),
        R("What's a safe rate of weight loss for a dog?",
          "Generally 1–2% of body weight a week at most, and often less for a steady long-term plan. For Otis that "
          "would be well under half a kilo a week. Your vet's half a kilo a month is a cautious pace."),
        R("Cautious is fine. He's not exactly an athlete.",
          "Slow and steady works better for keeping it off too."),
    ]))
    S.append(("2025-09-26", [
        R("Wednesday at Action: three tennis balls and a squeaky hedgehog, €6,47 in total. Toys for the toy box.",
          "Logged Wednesday: toys, €6,47 at Action.",
          recs=[cost("09-24", "toys", "€6,47", "Action")]),
        R("And the Wednesday morning walk: Coupure, 35 min, 2.6 km. Me, in the rain.",
          "Wednesday walk logged: you, the Coupure, 35 minutes, 2.6 km.",
          recs=[walk("09-24", "me=Me", "35 min", "2.6 km", "Coupure")]),
        R("Mehmet yesterday:",
          "Yesterday logged: Mehmet, Bourgoyen, 50 minutes, 3,7 km.",
          caption="WhatsApp message from 'Mehmet (buurman)', Thu 25 Sep 13:30: 'Bourgoyen 50 min 3,7 km 🍂 hij was "
                  "braaf'.",
          recs=[walk("09-25", "Mehmet", "50 min", "3,7 km", "Bourgoyen")]),
        R("If we keep this up he'd be at 31 kg by January, right?",
          "At about half a kilo a month from 34,6 kg it would take longer than that, more like spring. But the pace "
          "varies; the weigh-ins will tell."),
        R("Sanne's planning a long one on Sunday, she wants to do 2 hours along the Leie.",
          "Sounds lovely. Send it when it's done and I'll log it."),
        R("He's snoring on my feet right now. 34-ish kilos of warm dog.",
          "Best foot warmer there is."),
        R("Lukas asked if Otis can sleep in his room from now on. Absolutely not, he snores like a tractor.",
          "A snoring Labrador and a teenager's sleep schedule do sound like a risky combination."),
    ]))
    S.append(("2025-10-02", [
        R("Weekend recap. Saturday's weigh-in at home on the pound scale: 75.2 lb (me plus him 251.0, me 175.8).",
          "Saturday's home weigh-in logged: 75.2 lb, about 34.11 kg.",
          recs=[weigh("09-27", "75.2 lb", "home")]),
        R("Sanne didn't do her 2-hour Leie walk in the end, the weather was awful. On Sunday she did the Blaarmeersen "
          "instead: 1:10:00 and 5.3 km on the app.",
          "Sunday logged: Sanne, Blaarmeersen, 1 h 10, 5.3 km.",
          recs=[walk("09-28", "Sanne", "1:10:00", "5.3 km", "Blaarmeersen")]),
        R("Monthly food order went in yesterday. Price went up a bit.",
          "Logged a food cost of €86,49 at Zooplus on 1 October.",
          caption="Zooplus order confirmation email. 'Order date: 01.10.2025'. Item: 'Royal Canin Satiety Weight "
                  "Management 12 kg — € 86,49 (price changed)'. 'Order total € 86,49'. 'Delivery Fri 3 Oct'.",
          recs=[cost("10-01", "food", "€ 86,49", "Zooplus")]),
        R("Yesterday before work I did Citadelpark with him, 48 min, 3.6 km.",
          "Yesterday logged: you, Citadelpark, 48 minutes, 3.6 km.",
          recs=[walk("10-01", "me=I did", "48 min", "3.6 km", "Citadelpark")]),
        R("Mehmet's done his lunchtime one today: 45 min, Citadelpark again, 3,4 km.",
          "Today logged: Mehmet, Citadelpark, 45 minutes, 3,4 km.",
          recs=[walk("10-02", "Mehmet", "45 min", "3,4 km", "Citadelpark")]),
        R("We're thinking about the autumn holiday. Is the Belgian coast dog-friendly out of season?",
          "Mostly yes: from October to March dogs are allowed on most Belgian beaches, often off-lead in marked zones. "
          "Check the specific town's rules before you go."),
        R("Perfect, Lukas will be thrilled. He wants to see Otis in the sea.",
          "A Labrador meeting the North Sea is a core memory in the making."),
    ]))
    S.append(("2025-10-08", [
        R("Vet yesterday for his vaccinations. Invoice attached.",
          "Logged from yesterday's invoice: vet €78,41 and a weigh-in at the vet of 33,5 kg.",
          caption="Photo of an invoice from 'Dierenkliniek Ter Linde', 07/10/2025. Lines: 'Consultatie 38,00', 'Vaccin L4 "
                  "+ Kennelhoest 26,80'. Boxed: 'Gewicht 33,5 kg'. 'Subtotaal 64,80', 'BTW 21% 13,61', 'Totaal € "
                  "78,41'. A sticker 'Volgende vaccinatie: 10/2026'.",
          recs=[weigh("10-07", "33,5 kg", "vet=Dierenkliniek"), cost("10-07", "vet=Vet", "€ 78,41", "Ter Linde")]),
        R("The vet's pleased: 1.1 kg down in five weeks. Next check at the free weighing clinic with the nurse at the end "
          "of October.",
          "Great progress! I'll log the nurse's weigh-in when it happens."),
        R("Forgot to tell you: last Thursday evening I also did a 30-minute Coupure loop with him, 2.2 km.",
          "Added Thursday evening: you, the Coupure, 30 minutes, 2.2 km.",
          recs=[walk("10-02", "me=I also did", ("30-minute", 30), "2.2 km", "Coupure")]),
        R("Sanne's Sunday walk, screenshot from the app.",
          "Sunday logged: Sanne, Bourgoyen, 1 h 25, 6.3 km.",
          caption="PawTrack activity detail: 'Sun 5 Oct · 10:05', route 'Bourgoyen', 'Duration 1:25:00', 'Distance 6.3 "
                  "km', 'Walker: Sanne'. Weather icon: 14°C, light rain.",
          recs=[walk("10-05", "Sanne", "1:25:00", "6.3 km", "Bourgoyen")]),
        R("Mehmet yesterday: Coupure 45 min 3,2 km. He met the vet's assistant on the path, small world.",
          "Yesterday logged: Mehmet, the Coupure, 45 minutes, 3,2 km.",
          recs=[walk("10-07", "Mehmet", "45 min", "3,2 km", "Coupure")]),
        R("The vaccine made him a bit sleepy but he's fine now, back to begging.",
          "Mild sleepiness after vaccines is common and usually passes within a day. Begging means he's fully "
          "recovered."),
        R("Do dogs get bored of the same routes?",
          "They can: new smells are mental exercise. Rotating routes, like you already do between the parks and the "
          "canal, keeps walks interesting for him."),
    ]))
    S.append(("2025-10-13", [
        R("Tom&Co run on Saturday. The rope toy is for his toy basket; the light treats count as food. Poo bags I'm not "
          "counting, that's household.",
          "Logged two costs from Saturday: toys €19,99 (rope toy) and food €9,98 (light treats). Poo bags left out.",
          caption="Thermal receipt from 'Tom&Co Gent Zuid', 11/10/2025 10:58. Lines: 'Touw speelgoed XL 19,99', 'Light "
                  "treats kip 9,98', 'Poepzakjes 120st 4,49'. 'TOTAAL 34,46', 'waarvan BTW 5,98'. 'Klantenkaart: +34 "
                  "punten'.",
          recs=[cost("10-11", "toys=toy", "19,99", "Tom&Co"), cost("10-11", "food", "9,98", "Tom&Co")]),
        R("Saturday walk: Watersportbaan with me, 62 min, 4.8 km.",
          "Saturday logged: you, Watersportbaan, 62 minutes, 4.8 km.",
          recs=[walk("10-11", "me", "62 min", "4.8 km", "Watersportbaan")]),
        R("Sunday Lukas voluntarily (!!) took him to Citadelpark, 35 min, 2.5 km. I suspect a girl is involved.",
          "Sunday logged: Lukas, Citadelpark, 35 minutes, 2.5 km. Whatever the motive, Otis approves.",
          recs=[walk("10-12", "Lukas", "35 min", "2.5 km", "Citadelpark")]),
        R("Otis turns seven on 3 November. Sanne wants to get him a dog-safe cake. On a diet. Hmm.",
          "His birthday's on 3 November, noted. A small dog-safe cake, with that day's portion reduced, would work.",
          fact="birthday"),
        R("Good idea. Carrot and banana, maybe.",
          "Perfect, and it's in the diet spirit."),
        R("The collar app says his 'activity score' is 78 this week, whatever that means.",
          "Those scores are app-specific, so I'll stick to the actual walks: minutes, distance, route and walker."),
        R("Sensible. Marking again tonight.",
          "Courage!"),
    ]))
    S.append(("2025-10-19", [
        R("Weekly view from the collar app. Mehmet did both his days and Sanne did Saturday.",
          "Logged three walks: Tuesday, Mehmet, Bourgoyen, 55 min, 4.0 km; Thursday, Mehmet, Citadelpark, 45 min, 3.3 "
          "km; Saturday, Sanne, Blaarmeersen, 1 h 15, 5.6 km. The week total and the goal aren't walks.",
          caption="Screenshot of PawTrack 'Week 13–19 Oct'. Header tiles: 'Week total 2 h 55 min · 12.9 km' and 'Goal 7 h "
                  "0 min'. List: 'Tue 14 Oct · Bourgoyen · 55 min · 4.0 km · Mehmet'; 'Thu 16 Oct · Citadelpark · 45 min "
                  "· 3.3 km · Mehmet'; 'Sat 18 Oct · Blaarmeersen · 1 h 15 min · 5.6 km · Sanne'.",
          recs=[walk("10-14", "Mehmet", "55 min", "4.0 km", "Bourgoyen"),
                walk("10-16", "Mehmet", "45 min", "3.3 km", "Citadelpark"),
                walk("10-18", "Sanne", "1 h 15 min", "5.6 km", "Blaarmeersen")]),
        R("Weigh-in at home yesterday on Sanne's new digital scale, which does kg: 33,3 kg for Otis (the me-holding-him trick "
          "again).",
          "Yesterday's home weigh-in logged: 33,3 kg.",
          recs=[weigh("10-18", "33,3 kg", "home")]),
        R("Bought low-fat training treats at the Sunday market this morning, €6,75. Food budget, I suppose.",
          "Logged today: food, €6,75 at the market.",
          recs=[cost("10-19", "food", "€6,75")]),
        R("The neighbour's golden retriever weighs 29 kg and eats twice as much as Otis. There is no justice.",
          "Metabolism lottery. Otis drew the Labrador ticket."),
        R("Does the dog-walking goal in the app matter? It says 7 hours a week.",
          "That's just the app's default. The figure that matters is the vet's: at least an hour a day."),
        R("Right. Sanne says hi, by the way, and that Otis stole a sock this morning.",
          "Hi to Sanne! Sock theft is a Labrador rite of passage."),
        R("Is it bad that he eats grass on every single walk?",
          "Usually not: lots of dogs graze a bit, out of boredom or because they like it. Just avoid verges that may be "
          "sprayed, and mention it to the vet if he's vomiting a lot or seems unwell."),
    ]))
    S.append(("2025-10-24", [
        R("Wednesday: the Coupure before work, 44 min, 3.3 km, and Lukas did a 25 min Citadelpark round in the evening, "
          "1.8 km.",
          "Wednesday logged as two walks: you, the Coupure, 44 minutes, 3.3 km; Lukas, Citadelpark, 25 minutes, 1.8 km.",
          recs=[walk("10-22", "me=before work", "44 min", "3.3 km", "Coupure"),
                walk("10-22", "Lukas", "25 min", "1.8 km", "Citadelpark")]),
        R("Nail clip at Ter Linde this morning, €12. I couldn't face doing his nails myself. That's grooming, not vet, "
          "right?",
          "Agreed, a nail clip is grooming. Logged today: grooming, €12 at Ter Linde.",
          recs=[cost("10-24", "grooming", "€12", "Ter Linde")]),
        R("Mehmet's going to visit his daughter in Antwerp from next Wednesday for a week, so no lunchtime walks then.",
          "Noted: Mehmet's in Antwerp for a week from next Wednesday.",
          fact="antwerp"),
        R("Lukas has offered to cover one of those lunchtimes. He's on autumn break. I think he's getting attached.",
          "That's lovely. Otis is a good influence."),
        R("How much should a Labrador drink a day? He empties his bowl constantly.",
          "Roughly 50–60 ml per kg a day, so around 1.6–2 litres for Otis, more after exercise or in warm weather. If "
          "it suddenly increases a lot, mention it to the vet."),
        R("OK, that sounds about right then.",
          "Sounds normal. Keep an eye on it."),
        R("Sanne's working the whole weekend, so I'm on full dog duty. He'll get the long rounds.",
          "Enjoy the long rounds, and send me the walks afterwards."),
    ]))
    S.append(("2025-10-30", [
        R("Nurse weighing clinic on Tuesday, free. She printed this ticket.",
          "Logged Tuesday's weigh-in at the vet: 32,9 kg. The 33,5 on the ticket is the previous one, already logged.",
          caption="Small printed ticket from a veterinary scale: 'Ter Linde — Weegkliniek', '28-10-2025 09:12', 'OTIS', "
                  "'32,9 kg', 'Vorige: 33,5 kg (07-10-2025)'. A smiley drawn in pen next to it.",
          recs=[weigh("10-28", "32,9 kg", "vet=Weegkliniek")]),
        R("Weekend: Saturday I did the big Bourgoyen round, 1h20, 6.1 km. Sunday Sanne took him to the Watersportbaan, "
          "65 min, 5.0 km.",
          "Logged: Saturday, you, Bourgoyen, 1 h 20, 6.1 km; Sunday, Sanne, Watersportbaan, 65 minutes, 5.0 km.",
          recs=[walk("10-25", "me=I did", "1h20", "6.1 km", "Bourgoyen"),
                walk("10-26", "Sanne", "65 min", "5.0 km", "Watersportbaan")]),
        R("Mehmet's last walk before his trip, Tuesday: Citadelpark, 50 min, 3,6 km.",
          "Tuesday logged: Mehmet, Citadelpark, 50 minutes, 3,6 km.",
          recs=[walk("10-28", "Mehmet", "50 min", "3,6 km", "Citadelpark")]),
        R("Food re-order today.",
          "Logged today: food, €86,49 at Zooplus. The 5% is only a discount offer for next time.",
          caption="Zooplus order confirmation. 'Order date: 30.10.2025'. 'Royal Canin Satiety Weight Management 12 kg — "
                  "€ 86,49'. 'Order total € 86,49'. Banner: 'Subscribe & save 5% on your next order'.",
          recs=[cost("10-30", "food", "€ 86,49", "Zooplus")]),
        R("Lukas didn't cover a lunchtime after all, he slept until noon every day of the break. Teenagers.",
          "Ah well, the offer was sweet."),
        R("Sanne's colleague pays €45 every four weeks for her poodle's groomer. Poodles are expensive.",
          "Poodle coats need a lot of work, so that's typical. Otis's short coat is a bargain by comparison."),
        R("Ha, true. Bed time for me.",
          "Sleep well!"),
    ]))
    S.append(("2025-11-05", [
        R("His birthday on Monday went well: he got a carrot 'cake' and the rest of us got actual cake.",
          "Happy seventh birthday to Otis! The carrot cake sounds like a diet-compliant triumph."),
        R("Saturday morning, me and Otis around the Blaarmeersen. Watch photo.",
          "Saturday logged: you, Blaarmeersen, 1 h 10, 5.20 km.",
          caption="Photo of a Garmin watch screen after an activity: 'Sat 1 Nov', 'Walk', '1:10:00', '5.20 km', 'Avg HR "
                  "94', 'Steps 7,412'. Fallen leaves on the ground in the background.",
          recs=[walk("11-01", "me", "1:10:00", "5.20 km", "Blaarmeersen")]),
        R("Bought him a snuffle mat online on Sunday, bol.com, €24,90, to make his dinner last longer. Best toy ever "
          "apparently.",
          "Logged Sunday: toys, €24,90 at bol.com.",
          recs=[cost("11-02", "toys=toy", "€24,90", "bol.com")]),
        R("Also Sunday I dug out the old pound scale at home to double-check Sanne's new one: 72.4 lb.",
          "Sunday's home weigh-in logged: 72.4 lb, about 32.84 kg.",
          recs=[weigh("11-02", "72.4 lb", "home")]),
        R("Mehmet's back! Yesterday: 'Coupure 45 min 3,3 km, hij is dunner geworden!' (he's got thinner!)",
          "Welcome back, Mehmet. Yesterday logged: Mehmet, the Coupure, 45 minutes, 3,3 km.",
          recs=[walk("11-04", "Mehmet", "45 min", "3,3 km", "Coupure")]),
        R("Groomer today: €58 this time, they've put their prices up.",
          "Logged today: grooming, €58.",
          recs=[cost("11-05", "grooming=Groomer", "€58")]),
        R("He looked very smug afterwards. Fluffy and smug.",
          "The post-groom strut is real."),
    ]))
    S.append(("2025-11-12", [
        R("Back at the vet today. Ear infection, poor guy, he's been shaking his head all week.",
          "Logged from today's invoice: vet €64,20 and a weigh-in at the vet of 32,4 kg. The 15 ml is the ear drops, not "
          "anything to log.",
          caption="Invoice from 'Dierenkliniek Ter Linde', 12/11/2025. Lines: 'Consultatie 38,00', 'Oordruppels Surolan "
                  "15 ml 15,06'. Boxed: 'Gewicht 32,4 kg'. 'Subtotaal 53,06', 'BTW 21% 11,14', 'Totaal € 64,20'.",
          recs=[weigh("11-12", "32,4 kg", "vet=Dierenkliniek"), cost("11-12", "vet", "€ 64,20", "Ter Linde")]),
        R("Drops twice a day for 7 days. He hates them, I hate them.",
          "Tip: warm the bottle in your hand first, and follow every dose with a treat from his daily allowance."),
        R("Yesterday was Armistice Day, no school, so I took him to Citadelpark for 50 min, 3.7 km.",
          "Yesterday logged: you, Citadelpark, 50 minutes, 3.7 km.",
          recs=[walk("11-11", "me=I took him", "50 min", "3.7 km", "Citadelpark")]),
        R("Sanne's Saturday walk from the app.",
          "Saturday logged: Sanne, Bourgoyen, 1 h 30, 6.6 km.",
          caption="PawTrack activity detail: 'Sat 8 Nov · 09:40', route 'Bourgoyen', 'Duration 1:30:00', 'Distance 6.6 "
                  "km', 'Walker: Sanne'. Badge: 'Longest walk this month 🏅'.",
          recs=[walk("11-08", "Sanne", "1:30:00", "6.6 km", "Bourgoyen")]),
        R("And Lukas did Sunday: Watersportbaan, 40 min, 3 km, he says.",
          "Sunday logged: Lukas, Watersportbaan, 40 minutes, 3 km.",
          recs=[walk("11-09", "Lukas", "40 min", "3 km", "Watersportbaan")]),
        R("The vet says once he reaches target we can go up to 225 grams a meal. He'll be so pleased.",
          "Something for Otis to look forward to. He's getting close."),
        R("Ten weeks in. Honestly, I think the walks have been as good for us as for him.",
          "That's often how it goes: the whole household ends up fitter. Otis has done brilliantly."),
    ]))
    return S


# ------------------------------------------------------------------------------------------------
# dog_care: profile and questions
# ------------------------------------------------------------------------------------------------

DOG_PROFILE = {
    "name": "Joris Van Acker",
    "persona_summary": "52-year-old secondary-school geography teacher in Ghent, Belgium. His 6-year-old chocolate "
                       "Labrador Otis has been put on a diet by the vet, so Joris logs Otis's walks (done by himself, "
                       "his wife Sanne, their teenage son Lukas and the retired neighbour Mehmet), his weigh-ins at the "
                       "vet and at home, and what the dog costs in food, vet bills, grooming and toys. He forwards "
                       "collar-app screenshots, watch photos, Mehmet's Dutch WhatsApp reports, Belgian receipts and vet "
                       "invoices, and types quick notes.",
    "traits": ["methodical", "dry sense of humour", "soft spot for the dog", "mixes Dutch into receipts and messages"],
    "conversation_style": "Friendly and matter-of-fact; writes amounts the Belgian way (€24,90) and sometimes the "
                          "English way; short notes for walks, longer messages for vet news.",
}


def dog_questions(sc: Scenario) -> None:
    walks = sc.sel("walk")
    weights = sc.sel("weigh_in")
    costs = sc.sel("cost")
    month = lambda rs, m: [r for r in rs if r.date.month == m]
    who = lambda w: [r for r in walks if r.f.get("walked_by") == w]
    route = lambda x: [r for r in walks if r.f.get("route") == x]
    catg = lambda c: [r for r in costs if r.f["category"] == c]
    target = Fraction(31)
    budget = Fraction(90)

    # AVG
    q_mean(sc, "AVG", "How long were Otis's walks on average in October, in minutes?", month(walks, 10),
           "duration_min", 1, 0.05, "minutes", "{v} minutes on average, over {n} walks in October 2025.")
    q_mean(sc, "AVG", "How far does Mehmet usually take him? Average km per walk, please.", who("Mehmet"),
           "distance_km", 2, 0.05, "km", "{v} km on average, over Mehmet's {n} walks with a distance.")
    q_mean(sc, "AVG", "What did Otis weigh on average across his October weigh-ins?", month(weights, 10), "weight_kg",
           1, 0.05, "kg", "{v} kg on average, over {n} weigh-ins in October 2025.")
    q_mean(sc, "AVG", "What has a grooming bill cost me on average?", catg("grooming"), "amount_eur", 2, 0.05, "EUR",
           "€{v} on average, over {n} grooming costs.")
    q_share(sc, "What share of all the logged walks did Sanne do?", walks, lambda r: r.f.get("walked_by") == "Sanne",
            "{v}% of the walks ({k} of {n}) were Sanne's.")
    q_mean(sc, "AVG", "How long is a Blaarmeersen walk on average, in km?", route("Blaarmeersen"), "distance_km", 2,
           0.05, "km", "{v} km on average, over {n} walks at the Blaarmeersen.")

    # SUM
    q_sum(sc, "SUM", "How much did I spend on Otis's food in October?", month(catg("food"), 10), "amount_eur", 2, 0.01,
          "EUR", "€{v} on food in October 2025 ({n} purchases).")
    q_sum(sc, "SUM", "By how much did his food spending go over our monthly food budget in September?",
          month(catg("food"), 9), "amount_eur", 2, 0.01, "EUR",
          "€{v} over budget: September 2025 food came to €103.84 against the €90 budget.", extra=("budget",),
          offset=-budget)
    q_sum(sc, "SUM", "How many kilometres did Otis walk in total in October?", month(walks, 10), "distance_km", 2, 0.05,
          "km", "{v} km in total over {n} October walks with a distance.")
    q_sum(sc, "SUM", "What have the vet bills come to altogether?", catg("vet"), "amount_eur", 2, 0.01, "EUR",
          "€{v} in total over {n} vet invoices (the nail clip was grooming).")

    # CNT
    q_count(sc, "How many walks lasted longer than an hour?", [r for r in walks if r.f["duration_min"] > 60], "walks",
            "{v} walks were longer than an hour.")
    per_day = defaultdict(list)
    for r in walks:
        per_day[r.date].append(r)
    good_days = [r for d, rs in per_day.items() if total(x.f["duration_min"] for x in rs) >= 60 for r in rs]
    n_days = len({r.date for r in good_days})
    sc.add("CNT", "On how many days did his logged walks add up to at least the daily walking the vet asked for?",
           f"{n_days} days reached at least an hour of walking in total (the vet's minimum), counting split walks "
           f"together.", good_days, n_days, "number", 0, "days", extra=("walk_goal",))
    q_count(sc, "How many walks did Mehmet do in September?", month(who("Mehmet"), 9), "walks",
            "{v} walks by Mehmet in September 2025.")
    q_count(sc, "How many of his weigh-ins came in under 33 kg?", [r for r in weights if r.f["weight_kg"] < 33],
            "times", "{v} weigh-ins were under 33 kg.")
    q_count(sc, "How many times did I buy toys for him?", catg("toys"), "times", "{v} toy purchases.")

    # MAX
    q_extreme(sc, "MAX", "What's the longest walk he's done, in km?", walks, "distance_km", "max", "value", 1, 0.05,
              "km", "{v} km, on {d}.")
    q_pick(sc, "MAX", "Which route has he walked most often?",
           {x: route(x) for x in ("Citadelpark", "Coupure", "Bourgoyen", "Blaarmeersen", "Watersportbaan")},
           lambda rs: Fraction(len(rs)), "max", "{w}, {v} walks (then {others}).", absolute=2, dec=0)
    q_pick(sc, "MAX", "In which month did I spend the most on Otis?",
           {"September": month(costs, 9), "October": month(costs, 10), "November": month(costs, 11)},
           sum_of("amount_eur"), "max", "{w}: €{v} in total (others: {others}).", absolute=10, dec=2)
    q_extreme(sc, "MAX", "When did Otis weigh the most?", weights, "weight_kg", "max", "date", 1, 0, None,
              "{d}, at {v} kg (the vet's scale).")
    q_extreme(sc, "MAX", "On which day did Mehmet do his longest walk with him?", who("Mehmet"), "duration_min", "max",
              "date", 0, 0, None, "{d}: {v} minutes.")

    # MIN
    q_extreme(sc, "MIN", "What was his shortest walk, in minutes?", walks, "duration_min", "min", "value", 0, 0,
              "minutes", "{v} minutes, on {d}.")
    q_extreme(sc, "MIN", "What's the lowest weight Otis has recorded so far?", weights, "weight_kg", "min", "value", 1,
              0.001, "kg", "{v} kg, on {d}.")
    q_pick(sc, "MIN", "Whose walks are the shortest by distance on average: Sanne's, Lukas's or Mehmet's?",
           {"Lukas": who("Lukas"), "Mehmet": who("Mehmet"), "Sanne": who("Sanne")}, avg_of("distance_km"), "min",
           "{w}: {v} km per walk on average (others: {others}).", dec=2)

    # LAT
    q_latest(sc, "When did Lukas last take him out?", who("Lukas"), "date", "{d}.")
    q_latest(sc, "How much did the most recent grooming cost?", catg("grooming"), "amount_eur", "€{v}, on {d}.", dec=2,
             tol=0.01, unit="EUR")
    q_latest(sc, "Where did Mehmet take him on his most recent walk?", [r for r in who("Mehmet") if r.has("route")],
             "route", "{v}, on {d}.",
             cands=["Citadelpark", "Coupure", "Bourgoyen", "Blaarmeersen", "Watersportbaan"])
    q_latest(sc, "How far above the vet's target weight was Otis at his latest weigh-in?", weights, "weight_kg",
             "{v} kg above the 31 kg target, on {d}.", dec=1, tol=0.05, unit="kg",
             fmt=lambda r: r.f["weight_kg"] - target, extra=("target",))

    # RNG
    q_dates(sc, "On which days did Sanne walk Otis?", who("Sanne"))
    q_entities(sc, "Which routes has Lukas taken him on?", [r for r in who("Lukas") if r.has("route")],
               lambda r: r.f["route"], ["Citadelpark", "Coupure", "Bourgoyen", "Blaarmeersen", "Watersportbaan"])
    q_dates(sc, "On which days did we weigh him at home?", [r for r in weights if r.f["place"] == "home"])
    q_dates(sc, "Which days did he get a walk of 6 km or more?",
            [r for r in walks if r.has("distance_km") and r.f["distance_km"] >= 6])

    # CMP
    q_pick(sc, "CMP", "Who walks him further on average, Sanne or Mehmet?",
           {"Sanne": who("Sanne"), "Mehmet": who("Mehmet")}, avg_of("distance_km"), "max",
           "{w}: {v_0} km per walk on average versus {v_1} km.", dec=2)
    q_pick(sc, "CMP", "Have I spent more on grooming or on toys for him overall?",
           {"grooming": catg("grooming"), "toys": catg("toys")}, sum_of("amount_eur"), "max",
           "On {w}: €{v_0} in total versus €{v_1}.", absolute=5, dec=2)
    q_pick(sc, "CMP", "Are his Citadelpark walks or his Coupure walks longer in minutes, on average?",
           {"Citadelpark": route("Citadelpark"), "Coupure": route("Coupure")}, avg_of("duration_min"), "max",
           "{w}: {v_0} minutes on average versus {v_1}.")
    q_pick(sc, "CMP", "Was his average weigh-in lower in October or in November?",
           {"November": month(weights, 11), "October": month(weights, 10)}, avg_of("weight_kg"), "min",
           "{w}: {v_0} kg on average versus {v_1} kg.", dec=2)

    # TRD
    q_trend(sc, "Did his average weigh-in go up or down from September to October?", month(weights, 9),
            month(weights, 10), avg_of("weight_kg"), "{w}: from {a} kg in September to {b} kg in October.", dec=2)
    q_trend(sc, "Between September and October, did the average length of his walks in minutes increase or decrease?",
            month(walks, 9), month(walks, 10), avg_of("duration_min"),
            "{w}: from {a} minutes per walk in September to {b} in October.")
    q_trend(sc, "Did the number of walks he got go up or down from September to October?", month(walks, 9),
            month(walks, 10), lambda rs: Fraction(len(rs)), "{w}: from {a} walks in September to {b} in October.",
            absolute=2, dec=0)

    # RET
    q_ret(sc, "What's the name of Otis's vet?", "vet_name", "Claes", "string", "Dr. Claes, at Dierenkliniek Ter Linde.")
    q_ret(sc, "How many grams per meal did the vet put him on at the start of the diet?", "grams", 215, "number",
          "215 grams, twice a day.", 0, "g")
    q_ret(sc, "Which company is Otis insured with?", "insurer", "Agria", "string", "Agria (€24,50 a month).")
    q_ret(sc, "On what date did Otis turn seven?", "birthday", "2025-11-03", "date", "3 November 2025.")
    q_ret(sc, "Where did our old pound-only bathroom scale come from?", "boston", "Boston", "string",
          "Boston: it came back with you from your year there.")
    q_ret(sc, "What's the name of Otis's groomer?", "groomer", "Pluizebol", "string", "Pluizebol.")
    q_ret(sc, "Where was Mehmet going when he took a week off from walking Otis?", "antwerp", "Antwerp", "string",
          "Antwerp, to visit his daughter.")


# ================================================================================================
# main
# ================================================================================================


def build() -> list[Scenario]:
    baby = Scenario("baby_log", BABY_PROFILE, baby_sessions())
    baby_questions(baby)
    dog = Scenario("dog_care", DOG_PROFILE, dog_sessions())
    dog_questions(dog)
    return [baby, dog]


def main() -> int:
    scenarios = build()
    problems = [f"{sc.name}: {p}" for sc in scenarios for p in check(sc)]
    if problems:
        print("\n".join(problems), file=sys.stderr)
        print("refusing to write: checks failed", file=sys.stderr)
        return 1
    (HERE / "dialog").mkdir(exist_ok=True)
    (HERE / "records").mkdir(exist_ok=True)
    for sc in scenarios:
        (HERE / "dialog" / f"{sc.name}.json").write_text(
            json.dumps(dialog_json(sc), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        (HERE / "records" / f"{sc.name}.jsonl").write_text(records_jsonl(sc), encoding="utf-8")
        n_rounds = sum(len(r) for _, r in sc.sessions)
        n_img = sum(len(x.captions) for _, r in sc.sessions for x in r)
        types = defaultdict(int)
        for r in sc.records:
            types[r.rtype] += 1
        pts = defaultdict(int)
        for q in sc.qas:
            pts[q["point"]] += 1
        big = sum(1 for q in sc.qas if len(q["clue"]) > 10)
        print(f"{sc.name}: {len(sc.sessions)} sessions ({sc.sessions[0][0]} → {sc.sessions[-1][0]}), {n_rounds} rounds, "
              f"{n_img} images, records {dict(types)}, {len(sc.qas)} QAs {dict(pts)}, "
              f"{big} with >10 clue rounds, max clue {max(len(q['clue']) for q in sc.qas)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
