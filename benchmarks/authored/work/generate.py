#!/usr/bin/env python3
"""Deterministic generator for two analytic-memory test scenarios.

    python3 generate.py        # writes dialog/<scenario>.json and records/<scenario>.jsonl

Scenarios: ``freelance_hours`` (time entries + invoices of a freelance developer) and
``language_study`` (Portuguese app sessions + tutor lessons). Python 3.11 standard library only;
every random choice comes from a ``random.Random`` seeded with a fixed string, gold answers are
computed with ``Fraction``/``Decimal`` from the very records rendered into the dialogue, and the
script refuses to write anything when a consistency check fails (values not literally in their
round, unrecoverable dates, broken clues, unsorted lists, too-small gaps for CMP/TRD).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import sys
from decimal import Decimal, ROUND_HALF_UP, getcontext
from fractions import Fraction as F
from pathlib import Path

getcontext().prec = 60
HERE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent  # where dialog/ and records/ go
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
ONE = dt.timedelta(days=1)
SEEDS = {"freelance_hours": "freelance_hours/seed-24", "language_study": "language_study/seed-54"}
NUMWORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


# ------------------------------------------------------------------ small helpers

def day(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def md(d: dt.date) -> str:          # March 4
    return f"{MONTHS[d.month - 1]} {d.day}"


def mond(d: dt.date) -> str:        # Mar 4
    return f"{MONTHS[d.month - 1][:3]} {d.day}"


def us(d: dt.date) -> str:          # 3/4
    return f"{d.month}/{d.day}"


def wdn(d: dt.date) -> str:
    return WEEKDAYS[d.weekday()]


def wd3(d: dt.date) -> str:
    return WEEKDAYS[d.weekday()][:3]


def longdate(d: dt.date) -> str:    # April 14, 2025
    return f"{md(d)}, {d.year}"


def monday(d: dt.date) -> dt.date:
    return d - dt.timedelta(days=d.weekday())


def fr(v) -> F:
    return F(repr(v)) if isinstance(v, float) else F(v)


def rnd(x: F, nd: int = 1):
    q = (Decimal(x.numerator) / Decimal(x.denominator)).quantize(Decimal(1).scaleb(-nd), rounding=ROUND_HALF_UP)
    return int(q) if nd == 0 else float(q)


def num(v, nd: int | None = None) -> str:
    """Plain rendering of a number for answer sentences (thousands separators)."""
    if nd is None:
        if float(v) == int(v):
            return f"{int(v):,}"
        s = f"{float(v):,.2f}".rstrip("0")
        return s
    return f"{float(v):,.{nd}f}"


def usd(v) -> str:
    return f"${float(v):,.2f}"


def trim(v) -> str:
    """2.5 -> '2.5', 3.0 -> '3', 2.25 -> '2.25'."""
    s = f"{float(v):.2f}".rstrip("0").rstrip(".")
    return s


def mean(vals) -> F:
    vals = [fr(v) for v in vals]
    assert vals, "mean of nothing"
    return sum(vals, F(0)) / len(vals)


def total(vals) -> F:
    return sum((fr(v) for v in vals), F(0))


# ------------------------------------------------------------------ value-form parsing (for checks)

def parse_hours(form: str) -> F:
    s = form.strip().lower()
    m = re.fullmatch(r"(\d+):(\d{2}):(\d{2})", s)
    if m:
        return int(m[1]) + F(int(m[2]), 60) + F(int(m[3]), 3600)
    m = re.fullmatch(r"(\d+):(\d{2})", s)
    if m:
        return int(m[1]) + F(int(m[2]), 60)
    m = re.fullmatch(r"(\d+)h(\d{2})", s)
    if m:
        return int(m[1]) + F(int(m[2]), 60)
    m = re.fullmatch(r"(\d+) ?(?:h|hr|hrs|hour|hours) (\d+) ?(?:m|min|mins|minutes)", s)
    if m:
        return int(m[1]) + F(int(m[2]), 60)
    m = re.fullmatch(r"(\d+(?:\.\d+)?) ?(?:h|hr|hrs|hour|hours)?", s)
    if m:
        return F(m[1])
    m = re.fullmatch(r"(\d+) ?(?:m|min|mins|minutes)", s)
    if m:
        return F(int(m[1]), 60)
    raise ValueError(f"unreadable hours form {form!r}")


def parse_minutes(form: str) -> F:
    s = form.strip().lower()
    m = re.search(r"(\d+)h ?(\d{2})m?\b", s)
    if m:
        return F(int(m[1]) * 60 + int(m[2]))
    m = re.search(r"(\d+(?:\.\d+)?) ?(?:h|hr|hrs|hour|hours)\b", s)
    if m:
        return F(m[1]) * 60
    m = re.search(r"(\d+) ?(?:m|min|mins|minutes)\b", s)
    if m:
        return F(int(m[1]))
    raise ValueError(f"unreadable minutes form {form!r}")


def parse_money(form: str) -> F:
    m = re.search(r"\d[\d,]*(?:\.\d+)?", form)
    return F(m[0].replace(",", ""))


def parse_count(form: str) -> F:
    m = re.search(r"\d+", form)
    if m:
        return F(int(m[0]))
    for k, w in NUMWORDS.items():
        if re.search(r"\b" + w + r"\b", form.lower()):
            return F(k)
    raise ValueError(form)


# ------------------------------------------------------------------ date cues

_MON_RX = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"


def parse_date_token(tok: str, year: int) -> dt.date:
    t = tok.strip().lower()
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", t)
    if m:
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    m = re.fullmatch(_MON_RX + r"\.? (\d{1,2})(?:, (\d{4}))?", t)
    if m:
        mon = [x[:3].lower() for x in MONTHS].index(m[1]) + 1
        return dt.date(int(m[3]) if m[3] else year, mon, int(m[2]))
    m = re.fullmatch(r"(\d{1,2}) " + _MON_RX, t)
    if m:
        mon = [x[:3].lower() for x in MONTHS].index(m[2]) + 1
        return dt.date(year, mon, int(m[1]))
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})(?:/(\d{4}))?", t)
    if m:
        return dt.date(int(m[3]) if m[3] else year, int(m[1]), int(m[2]))
    raise ValueError(f"unreadable date token {tok!r}")


def resolve_cue(kind: str, tok: str | None, sdate: dt.date) -> dt.date:
    if kind in ("none", "today"):
        return sdate
    if kind == "yday":
        return sdate - ONE
    if kind == "wd":
        for k in range(1, 8):
            d = sdate - dt.timedelta(days=k)
            if WEEKDAYS[d.weekday()].lower().startswith(tok.lower()[:3]):
                return d
        raise ValueError(tok)
    if kind == "date":
        return parse_date_token(tok, sdate.year)
    raise ValueError(kind)


def typed_cue(d: dt.date, sdate: dt.date, rng: random.Random, explicit=("md", "mond", "us")):
    """(kind, token, phrase) for a typed note about day d, written on sdate."""
    age = (sdate - d).days
    assert age >= 0
    if age == 0:
        if rng.random() < 0.5:
            return "none", None, ""
        return "today", "today", "today"
    if age == 1:
        return "yday", "yesterday", "yesterday"
    if age <= 6:
        return "wd", wdn(d), "on " + wdn(d)
    style = rng.choice(explicit)
    tok = {"md": md(d), "mond": mond(d), "us": us(d)}[style]
    return "date", tok, "on " + tok


# ------------------------------------------------------------------ records, rounds, scenario

class Rec:
    def __init__(self, rtype: str, obs: dt.date, fields: dict, **meta):
        self.rtype = rtype
        self.obs = obs
        self.f = {k: v for k, v in fields.items() if v is not None}
        self.meta = meta
        self.forms: dict[str, str] = {}
        self.cue: tuple[str, str | None] | None = None
        self.rid: str | None = None
        self.report: int | None = None

    def form(self, field: str, text: str) -> str:
        self.forms[field] = text
        return text

    def __repr__(self):
        return f"Rec({self.rtype} {self.obs} {self.f} @{self.rid})"


class Cycler:
    """Balanced choice: each call site cycles through a shuffled order of its options (no quick repeats)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.bags: dict[tuple[int, int], list[int]] = {}

    def __call__(self, options):
        key = (sys._getframe(1).f_lineno, len(options))
        bag = self.bags.get(key)
        if not bag:
            bag = list(range(len(options)))
            self.rng.shuffle(bag)
            self.bags[key] = bag
        return options[bag.pop()]


def R(user: str, assistant: str, captions=(), recs=(), fact: str | None = None, after: str | None = None,
      before: str | None = None, wd: tuple[int, ...] | None = None) -> dict:
    """One round. ``after``/``before``/``wd`` restrict when a small-talk round may be used."""
    return {"user": user, "assistant": assistant, "captions": list(captions), "recs": list(recs), "fact": fact,
            "after": after, "before": before, "wd": wd}


def fits(rd: dict, sdate: dt.date) -> bool:
    return ((rd["after"] is None or sdate >= day(rd["after"])) and (rd["before"] is None or sdate <= day(rd["before"]))
            and (rd["wd"] is None or sdate.weekday() in rd["wd"]))


class Scenario:
    def __init__(self, name: str, profile: dict, aliases: dict[str, dict[str, set[str]]], numeric: dict[str, str]):
        self.name = name
        self.profile = profile
        self.aliases = aliases          # field -> value -> accepted surface forms (besides the value itself)
        self.numeric = numeric          # field -> parser kind
        self.sessions: list[dict] = []
        self.records: list[Rec] = []
        self.rounds: dict[str, tuple[dict, dt.date]] = {}
        self.facts: dict[str, str] = {}
        self.qas: list[dict] = []

    # -- building
    def add_session(self, sdate: dt.date, rounds: list[dict]):
        assert 6 <= len(rounds) <= 10, (self.name, sdate, len(rounds))
        sid = f"D{len(self.sessions) + 1}"
        out, img = [], 0
        for k, rd in enumerate(rounds, 1):
            rid = f"{sid}:{k}"
            ids, paths = [], []
            for _ in rd["captions"]:
                img += 1
                ids.append(f"{sid}:IMG_{img:03d}")
                paths.append(f"../image/{self.name}/{sid}_IMG_{img:03d}.jpg")
            entry = {"round": rid, "user": rd["user"], "assistant": rd["assistant"], "image_id": ids,
                     "input_image": paths, "image_caption": list(rd["captions"])}
            out.append(entry)
            self.rounds[rid] = (entry, sdate)
            for r in rd["recs"]:
                r.rid = rid
                self.records.append(r)
            if rd["fact"]:
                assert rd["fact"] not in self.facts
                self.facts[rd["fact"]] = rid
        self.sessions.append({"session_id": sid, "date": sdate.isoformat(), "dialogues": out})

    # -- checks
    def verify(self):
        for r in self.records:
            entry, sdate = self.rounds[r.rid]
            text = (entry["user"] + "\n" + "\n".join(entry["image_caption"])).lower()
            for k, v in r.f.items():
                form = r.forms.get(k)
                assert form, f"{self.name} {r}: no surface form for {k}"
                assert form.lower() in text, f"{self.name} {r}: form {form!r} of {k} not in round text"
                kind = self.numeric.get(k)
                if kind:
                    got = {"hours": parse_hours, "minutes": parse_minutes, "money": parse_money,
                           "count": parse_count}[kind](form)
                    assert got == fr(v), f"{self.name} {r}: {k} form {form!r} reads {got}, stored {v}"
                else:
                    ok = {v.lower()} | {a.lower() for a in self.aliases.get(k, {}).get(v, ())}
                    assert form.lower() in ok, f"{self.name} {r}: {k} form {form!r} is not a form of {v!r}"
            assert r.cue, f"{self.name} {r}: no date cue"
            kind, tok = r.cue
            if kind == "none":
                assert r.obs == sdate, f"{self.name} {r}: no cue but not the session date"
                for w in ("yesterday", "last night"):
                    assert w not in text or len(self.recs_in(r.rid)) > 1, f"{self.name} {r}: stray cue {w}"
            else:
                if tok:
                    assert tok.lower() in text, f"{self.name} {r}: cue {tok!r} not in round"
                got = resolve_cue(kind, tok, sdate)
                assert got == r.obs, f"{self.name} {r}: cue {kind} {tok!r} resolves to {got}"
            assert r.obs <= sdate

    def recs_in(self, rid: str) -> list[Rec]:
        return [r for r in self.records if r.rid == rid]

    # -- questions
    @staticmethod
    def _rkey(rid: str):
        s, k = rid.split(":")
        return int(s[1:]), int(k)

    def qa(self, point: str, question: str, answer: str, value, atype: str, clue, *, tol=0, unit=None,
           cands=None):
        clue = sorted(set(clue), key=self._rkey)
        assert clue, question
        for c in clue:
            assert c in self.rounds, (question, c)
        sids = []
        for c in clue:
            s = c.split(":")[0]
            if s not in sids:
                sids.append(s)
        if atype == "list":
            assert value == sorted(set(value)) and value, (question, value)
            if cands:
                assert all(v in cands for v in value)
        if atype == "string" and cands:
            assert value in cands, (question, value)
        if atype == "number":
            assert isinstance(value, (int, float))
        if atype == "date":
            day(value)
        assert question not in {q["question"] for q in self.qas}, question
        q = {"point": point, "question": question, "answer": answer, "session_id": sids, "clue": clue,
             "answer_value": value, "answer_type": atype, "tolerance": tol}
        if unit:
            q["unit"] = unit
        if cands:
            q["candidates"] = list(cands)
        self.qas.append(q)

    # -- output
    def write(self):
        doc = {"character_profile": self.profile, "multi_session_dialogues": self.sessions,
               "human-annotated QAs": self.qas}
        (HERE / "dialog").mkdir(exist_ok=True)
        (HERE / "records").mkdir(exist_ok=True)
        (HERE / "dialog" / f"{self.name}.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n",
                                                          encoding="utf-8")
        with open(HERE / "records" / f"{self.name}.jsonl", "w", encoding="utf-8") as fh:
            for r in self.records:
                fh.write(json.dumps({"round": r.rid, "observed": r.obs.isoformat(), "record_type": r.rtype,
                                     "fields": r.f}, ensure_ascii=False) + "\n")

    def summary(self) -> str:
        nr = sum(len(s["dialogues"]) for s in self.sessions)
        ni = sum(len(d["image_caption"]) for s in self.sessions for d in s["dialogues"])
        types: dict[str, int] = {}
        for r in self.records:
            types[r.rtype] = types.get(r.rtype, 0) + 1
        pts: dict[str, int] = {}
        for q in self.qas:
            pts[q["point"]] = pts.get(q["point"], 0) + 1
        earlier = sum(1 for r in self.records if r.obs < self.rounds[r.rid][1])
        big = sum(1 for q in self.qas if len(q["clue"]) > 10)
        big20 = sum(1 for q in self.qas if len(q["clue"]) >= 20)
        return (f"{self.name}: {len(self.sessions)} sessions, {nr} rounds, {ni} images, records {types}, "
                f"{earlier} for an earlier day; {len(self.qas)} QAs {pts}; >10 clues: {big}, >=20: {big20}, "
                f"max clues {max(len(q['clue']) for q in self.qas)}")


def gap_ok(a: F, b: F, rel=None, abs_=None) -> bool:
    d = abs(a - b)
    if rel is not None and d < rel * max(abs(a), abs(b)):
        return False
    if abs_ is not None and d < abs_:
        return False
    return True


def rounds_of(recs) -> list[str]:
    return [r.rid for r in recs]


def fill_session(rng: random.Random, core: list[dict], pool: list[dict], target: int, sdate: dt.date) -> list[dict]:
    """Interleave the core rounds of a session with small-talk rounds taken (and removed) from ``pool``."""
    rounds = list(core)
    need = max(0, target - len(rounds))
    for rd in [c for c in pool if fits(c, sdate)][:need]:
        rounds.append(rd)
        pool.remove(rd)
    first = [rd for rd in rounds if rd.get("opening")]
    last = [rd for rd in rounds if rd.get("closing")]
    rest = [rd for rd in rounds if rd not in first and rd not in last]
    rng.shuffle(rest)
    return first + rest + last


# ================================================================== scenario 1: freelance_hours

FH_CLIENTS = {"bf": ("Bluefin Logistics", "Bluefin"), "hd": ("Halvorsen Dental", "Halvorsen"),
              "mb": ("Marlowe Books", "Marlowe"), "oc": ("Oakridge Credit Union", "Oakridge")}
FH_PROJ_ALIASES = {
    "Route Planner API": ["Route Planner API", "route planner API", "route planner"],
    "Driver App": ["Driver App", "driver app", "driver app"],
    "Booking Portal": ["Booking Portal", "booking portal", "patient portal"],
    "Shop Migration": ["Shop Migration", "shop migration", "store migration"],
    "Accessibility Audit": ["Accessibility Audit", "accessibility audit", "a11y audit"],
}
FH_BILL_YES = ["billable", "bill", "Billable: Yes", "Y", "billed"]
FH_BILL_NO = ["non-billable", "not billable", "NB", "N", "Billable: No", "no charge", "unbilled"]


def fh_hours_form(h: float, style: str) -> str:
    hh, mm = int(h), int(round((h - int(h)) * 60))
    if style == "hmm":
        return f"{hh}:{mm:02d}"
    if style == "hms":
        return f"{hh:02d}:{mm:02d}:00"
    if style == "hm":
        if hh == 0:
            return f"{mm}m"
        return f"{hh}h" if mm == 0 else f"{hh}h{mm:02d}"
    if style.startswith("dec"):
        suf = style[3:] or " h"
        return f"{trim(h)}{suf}"
    if style.startswith("min"):
        suf = style[3:] or " min"
        return f"{hh * 60 + mm}{suf}"
    if style == "words":
        if hh == 0:
            return f"{mm} minutes"
        if mm == 0:
            return f"{hh} hours" if hh > 1 else "1 hour"
        return f"{hh} hr{'s' if hh > 1 else ''} {mm} mins"
    raise ValueError(style)


def build_freelance() -> Scenario:
    rng = random.Random(SEEDS["freelance_hours"])
    pick = Cycler(rng)
    profile = {
        "name": "Theo Marchetti",
        "persona_summary": ("Theo Marchetti, 37, freelance full-stack developer in Portland, Oregon. Works from a "
                            "rented co-working desk for four clients, tracks time with the Hourglass timer app and "
                            "logs entries, timesheets and invoices with the assistant so he can see where his hours "
                            "and money go."),
        "traits": ["terse when busy, chatty on Fridays", "mildly anxious about pricing", "dad of a 9-year-old",
                   "runs at lunch"],
        "conversation_style": ("Mixes screenshots of the timer app and of invoices with shorthand notes "
                               "('bluefin / driver app / 2h30 / billable @105'), pasted CSV rows and the odd "
                               "rant about scope creep."),
    }
    aliases = {
        "client": {full: {full, short, short.lower()} for full, short in FH_CLIENTS.values()},
        "project": {k: set(v) for k, v in FH_PROJ_ALIASES.items()},
        "billable": {"yes": set(FH_BILL_YES), "no": set(FH_BILL_NO)},
    }
    S = Scenario("freelance_hours", profile, aliases,
                 {"hours": "hours", "hourly_rate_usd": "money", "amount_usd": "money"})

    sess_dates = [day(x) for x in ("2025-03-04", "2025-03-09", "2025-03-16", "2025-03-24", "2025-04-01",
                                   "2025-04-06", "2025-04-13", "2025-04-22", "2025-04-27", "2025-05-05",
                                   "2025-05-11", "2025-05-16", "2025-05-20", "2025-05-27")]

    # ---- the work calendar
    def project_for(c, d):
        if c == "bf":
            return "Route Planner API" if d <= day("2025-04-11") else "Driver App"
        return {"hd": "Booking Portal", "mb": "Shop Migration", "oc": "Accessibility Audit"}[c]

    def rate_for(c, d):
        if c == "bf":
            return 95 if d < day("2025-04-01") else 105
        return {"hd": 85, "mb": 75, "oc": 110}[c]

    span = {"bf": (2, 6), "hd": (1, 3.5), "mb": (1.5, 4.5), "oc": (2.5, 6.5)}

    def quarter(lo, hi):
        return rng.randint(int(lo * 4), int(hi * 4)) / 4

    entries: list[Rec] = []

    def add_entry(d, c, billable=None, hours=None, note=None):
        if billable is None:
            if c == "mb" and d >= day("2025-04-10"):
                billable = "no" if rng.random() < 0.5 else "yes"
            else:
                billable = "no" if rng.random() < 0.11 else "yes"
        if hours is None:
            hours = quarter(0.5, 2) if billable == "no" else quarter(*span[c])
        rate = rate_for(c, d) if billable == "yes" else None
        e = Rec("time_entry", d, {"client": FH_CLIENTS[c][0], "project": project_for(c, d), "hours": hours,
                                  "billable": billable, "hourly_rate_usd": rate}, c=c, rate=rate_for(c, d),
                note=note)
        entries.append(e)
        return e

    def bag(w):
        if w < day("2025-03-31"):
            return ["bf", "bf", "hd", "mb", rng.choice(["bf", "hd", "mb"])]
        if w < day("2025-04-14"):
            return ["bf", "bf", "hd", "mb", "mb"]
        if w < day("2025-04-21"):
            return ["bf", "hd", "mb", "oc", "oc"]
        return ["bf", "bf", "hd", "oc", "oc", rng.choice(["bf", "hd", "oc"])]

    off = {day("2025-05-08"), day("2025-05-09"), day("2025-03-21")}
    w = day("2025-03-03")
    while w <= day("2025-05-19"):
        slots = bag(w)
        rng.shuffle(slots)
        workdays = [w + k * ONE for k in range(5) if w + k * ONE not in off]
        if w + 5 * ONE <= day("2025-05-23") and rng.random() < 0.25:
            workdays.append(w + 5 * ONE)                    # the odd Saturday
        last = day("2025-05-23")
        workdays = [x for x in workdays if x <= last]
        n_days = min(len(workdays), len(slots) - 1)
        days_used = sorted(rng.sample(workdays, n_days))
        if w == day("2025-03-03"):
            days_used = sorted({day("2025-03-03"), day("2025-03-04")} |
                               set(rng.sample([w + k * ONE for k in range(2, 5)], max(1, n_days - 2))))
        if w == day("2025-04-07"):
            days_used = [x for x in days_used if x != day("2025-04-08")]
        for k, dd in enumerate(days_used):
            add_entry(dd, slots[k % len(slots)])
        for extra in slots[len(days_used):]:
            if rng.random() > 0.35:
                continue
            dd = rng.choice(days_used)
            same = [e.meta["c"] for e in entries if e.obs == dd]
            if extra not in same:
                add_entry(dd, extra)
        if w == day("2025-04-07"):
            add_entry(day("2025-04-08"), "oc", billable="no", hours=1.5, note="kickoff call")
        w += 7 * ONE
    entries[:] = [e for e in entries if not (e.meta["c"] == "mb" and e.obs > day("2025-04-18"))]
    entries.sort(key=lambda e: e.obs)

    # ---- invoices (amounts from the billable entries of the billed period)
    def billed(c, a, b):
        return total(fr(e.f["hours"]) * e.meta["rate"] for e in entries
                     if e.meta["c"] == c and e.f["billable"] == "yes" and a <= e.obs <= b)

    def hours_billed(c, a, b):
        return total(e.f["hours"] for e in entries
                     if e.meta["c"] == c and e.f["billable"] == "yes" and a <= e.obs <= b)

    inv_plan = [
        ("2025-03-03", "mb", F(146250, 100), None, "February"),
        ("2025-03-31", "bf", None, ("2025-03-01", "2025-03-31"), "March"),
        ("2025-04-01", "hd", None, ("2025-03-01", "2025-03-31"), "March"),
        ("2025-04-01", "mb", None, ("2025-03-01", "2025-03-31"), "March"),
        ("2025-04-15", "oc", F(2000), None, "deposit"),
        ("2025-04-30", "bf", None, ("2025-04-01", "2025-04-30"), "April"),
        ("2025-05-01", "hd", None, ("2025-04-01", "2025-04-30"), "April"),
        ("2025-05-02", "mb", None, ("2025-04-01", "2025-04-30"), "April"),
        ("2025-05-15", "oc", None, ("2025-04-14", "2025-05-14"), "first milestone"),
        ("2025-05-19", "bf", None, ("2025-05-01", "2025-05-18"), "first half of May"),
        ("2025-05-23", "hd", None, ("2025-05-01", "2025-05-22"), "May"),
    ]
    invoices: list[Rec] = []
    for k, (ds, c, amount, period, label) in enumerate(inv_plan):
        hrs = None
        if amount is None:
            amount = billed(c, day(period[0]), day(period[1]))
            hrs = hours_billed(c, day(period[0]), day(period[1]))
        if c == "oc" and label == "first milestone":
            amount -= 2000          # deposit credited
        assert amount > 0, (ds, c, amount, label)
        inv = Rec("invoice", day(ds), {"client": FH_CLIENTS[c][0], "amount_usd": float(amount)}, c=c,
                  label=label, hrs=hrs, number=f"INV-2025-{k + 6:03d}", credit=(c == "oc" and label != "deposit"))
        invoices.append(inv)

    # ---- which session reports what
    def first_session_on_or_after(d):
        return next(i for i, s in enumerate(sess_dates) if s >= d)

    for e in entries:
        i = first_session_on_or_after(e.obs)
        if (i < len(sess_dates) - 1 and e.obs < sess_dates[i] and rng.random() < 0.1
                and sess_dates[i].weekday() in (1, 2, 3, 4)
                and sum(1 for x in entries if first_session_on_or_after(x.obs) == i) >= 4):
            i += 1
            e.meta["late"] = True
        e.report = i
    for inv in invoices:
        inv.report = first_session_on_or_after(inv.obs)

    # ---- renderers: time entries
    def cname(e, style):
        full, short = FH_CLIENTS[e.meta["c"]]
        return e.form("client", {"full": full, "short": short, "low": short.lower()}[style])

    def pname(e, style):
        al = FH_PROJ_ALIASES[e.f["project"]]
        return e.form("project", {"full": al[0], "low": al[1], "alias": al[2]}[style])

    def day_total(dte):
        return sum(fr(x.f["hours"]) for x in entries if x.obs == dte)

    def r_timesheet(recs, sdate):
        wk = monday(recs[0].obs)
        rows = []
        for e in recs:
            e.cue = ("date", mond(e.obs))
            hf = e.form("hours", fh_hours_form(e.f["hours"], "hmm"))
            if e.f["billable"] == "yes":
                bill = e.form("billable", "billable")
                rate = e.form("hourly_rate_usd", f"${e.f['hourly_rate_usd']}.00/h")
                rows.append(f"'{wd3(e.obs)} {mond(e.obs)} | {cname(e, 'full')} › {pname(e, 'full')} | {hf} | "
                            f"{bill} | {rate}'")
            else:
                bill = e.form("billable", "non-billable")
                rows.append(f"'{wd3(e.obs)} {mond(e.obs)} | {cname(e, 'full')} › {pname(e, 'full')} | {hf} | "
                            f"{bill} | —'")
        tot = sum(fr(e.f["hours"]) for e in recs)
        btot = sum(fr(e.f["hours"]) for e in recs if e.f["billable"] == "yes")
        amt = sum(fr(e.f["hours"]) * e.f["hourly_rate_usd"] for e in recs if e.f["billable"] == "yes")
        cap = (f"Screenshot of the Hourglass desktop app, Timesheet tab, week {mond(wk)} – {mond(wk + 6 * ONE)}, "
               f"{wk.year}. Columns Day | Client › Project | Duration | Type | Rate. Rows: " + "; ".join(rows) +
               f". Footer: 'Week total {fh_hours_form(float(tot), 'hmm')} · Billable "
               f"{fh_hours_form(float(btot), 'hmm')} · Billable amount {usd(amt)}'. A sidebar shows the timer "
               f"idle at 00:00:00.")
        user = pick(["Timesheet for the week of {w}, everything I tracked that week.",
                           "Here's the Hourglass week view for {w}.",
                           "Catching up — week of {w} from the timesheet tab.",
                           "Week of {w}. These are all the entries I tracked that week."]).format(w=md(wk))
        ack = pick(["Got the week of {w}: {n} entries logged.", "{n} entries from that week are in.",
                          "Logged all {n} rows from the timesheet."]).format(w=mond(wk), n=len(recs))
        return R(user, ack, [cap], recs)

    def r_timer(recs, sdate):
        e = recs[0]
        e.cue = ("date", mond(e.obs))
        hf = e.form("hours", fh_hours_form(e.f["hours"], "hms"))
        head = f"{wd3(e.obs)}, {mond(e.obs)}"
        if e.f["billable"] == "yes":
            bill = (f"a green '{e.form('billable', 'Billable')}' switch turned on, "
                    f"'Rate {e.form('hourly_rate_usd', '$' + str(e.f['hourly_rate_usd']) + '/hr')}'")
        else:
            bill = f"a grey '{e.form('billable', 'Non-billable')}' tag and no rate line"
        dt_ = day_total(e.obs)
        cap = (f"Phone screenshot of Hourglass right after stopping a timer. Header '{head}'. Large digits "
               f"'{hf}'. Below: client '{cname(e, 'full')}', project '{pname(e, 'full')}', {bill}. Bottom bar: "
               f"'Day total {fh_hours_form(float(dt_), 'hmm')}'.")
        if e.meta.get("note"):
            cap += f" Description field: '{e.meta['note']}'."
        age = (sdate - e.obs).days
        user = pick(["Timer screenshot.", "Stopped the timer on this one.",
                           "Adding this one from the phone app." if age else "Just stopped this.",
                           "Another entry, screenshot attached." if age else "Wrapped up — screenshot."])
        if e.meta.get("late"):
            user = "Found this one still sitting in my camera roll, never logged it."
        return R(user, pick(["Logged.", "Added to the log.", "Got it, entry saved.",
                                   f"Saved — {FH_CLIENTS[e.meta['c']][1]} entry added."]), [cap], recs)

    def bill_terse(e):
        if e.f["billable"] == "yes":
            b = e.form("billable", pick(["billable", "bill"]))
            if rng.random() < 0.18:
                del e.f["hourly_rate_usd"]                  # rate not noted
                return b
            rate = e.f["hourly_rate_usd"]
            r = pick([f"@{rate}", f"${rate}/h", f"@ ${rate}"])
            e.form("hourly_rate_usd", r.replace("@ ", "").replace("@", ""))
            return f"{b} {r}"
        return e.form("billable", pick(["NB", "non-billable", "no charge"]))

    def r_terse(recs, sdate):
        lines = []
        for e in recs:
            kind, tok, phrase = typed_cue(e.obs, sdate, rng)
            e.cue = (kind, tok)
            lead = {"none": "", "today": "today", "yday": "yday", "wd": wd3(e.obs).lower(),
                    "date": tok}[kind]
            if kind == "yday":
                lead = "yesterday"
            if kind == "wd":
                lead = wdn(e.obs).lower()
                e.cue = ("wd", wdn(e.obs))
            hf = e.form("hours", fh_hours_form(e.f["hours"], pick(["hm", "hm", "dech", "dec h"])))
            has_proj = rng.random() > 0.2
            if has_proj:
                proj = pname(e, pick(["low", "alias"]))
            else:
                del e.f["project"]
            cl = cname(e, "low")
            b = bill_terse(e)
            body = f"{cl} / {proj} / {hf} / {b}" if has_proj else f"{cl} / {hf} / {b}"
            lines.append(f"{lead}: {body}" if lead else body)
        user = pick(["time log:\n", "log pls\n", "", "quick ones:\n"]) + "\n".join(lines)
        if e.f["billable"] == "yes" and "hourly_rate_usd" not in e.f and len(recs) == 1:
            user += "\n(rate as per contract, don't have it in front of me)"
        return R(user, pick(["Logged.", "All in.", "Noted — added to your time log.", "Got them."]), [], recs)

    reasons = {"bf": ["estimate for the next sprint", "sales call about phase 2", "redoing my own deploy script"],
               "hd": ["fixing a bug I introduced", "intro call with the new office manager"],
               "mb": ["warranty fix after launch", "post-launch hand-holding", "fixing my own redirect bug"],
               "oc": ["re-testing my own fixes", "internal review of the findings"]}

    def r_sentence(recs, sdate):
        e = recs[0]
        kind, tok, phrase = typed_cue(e.obs, sdate, rng)
        e.cue = (kind, tok)
        hf = e.form("hours", fh_hours_form(e.f["hours"], pick(["min", "min minutes", "words", "dec hours"])))
        c = e.meta["c"]
        cl = cname(e, pick(["full", "short"]))
        proj = pname(e, pick(["low", "alias"]))
        when = (phrase[0].upper() + phrase[1:] + " ") if phrase else ""
        if e.f["billable"] == "yes":
            rate = e.f["hourly_rate_usd"]
            bw, rf = pick([("billable at", f"${rate} an hour"), ("billed at", f"${rate}/hr"),
                                 ("billable,", f"{rate} USD/h")])
            tail = f"{bw} {e.form('hourly_rate_usd', rf)}"
            e.form("billable", bw.rstrip(",").split()[0])
        else:
            note = e.meta.get("note") or rng.choice(reasons[c])
            k = rng.randrange(3)
            bf = e.form("billable", ("not billable", "non-billable", "unbilled")[k])
            tail = (f"{bf} — {note}", f"{bf} ({note})", f"{bf}, it was a {note}")[k]
        if kind == "none" and rng.random() < 0.5:
            user = f"Just wrapped {hf} with {cl} on the {proj}, {tail}."
        else:
            user = pick([f"{when}I put in {hf} on the {proj} for {cl}, {tail}.",
                               f"{when}I spent {hf} on {cl}'s {proj}; {tail}.",
                               f"Logging {phrase or 'this'}: {hf} for {cl} ({proj}), {tail}."])
        if e.meta.get("late"):
            user = "Forgot to log this one. " + user
        extra = {"bf": " Renata wants a demo soon.", "hd": " The receptionist loves the new calendar view.",
                 "mb": " Their catalogue has way more edge cases than promised.",
                 "oc": " Screen readers are a humbling experience."}[c]
        if rng.random() < 0.35:
            user += extra
        return R(user, pick(["Logged it.", "Entry added.", "Got it — saved to your hours.",
                                   "Added. Sounds like a productive stretch."]), [], recs)

    def r_csv(recs, sdate):
        rows = ["date,client,project,duration_h,billable,rate_usd"]
        for e in recs:
            e.cue = ("date", e.obs.isoformat())
            hf = e.form("hours", trim(e.f["hours"]))
            b = e.form("billable", "Y" if e.f["billable"] == "yes" else "N")
            r = e.form("hourly_rate_usd", str(e.f["hourly_rate_usd"])) if e.f["billable"] == "yes" else ""
            rows.append(f"{e.obs.isoformat()},{cname(e, 'full')},{pname(e, 'full')},{hf},{b},{r}")
        user = pick(["CSV export from Hourglass, the entries I hadn't sent you yet:",
                           "Pasting a few rows from the export:",
                           "From the CSV export (my laptop was off, so no screenshots):"])
        user += "\n" + "\n".join(rows)
        return R(user, pick([f"Imported {len(recs)} row{'s' if len(recs) > 1 else ''}.", "Logged.",
                             "Added from the export."]), [], recs)

    def r_notebook(recs, sdate):
        lines = []
        for e in recs:
            e.cue = ("date", us(e.obs))
            hf = e.form("hours", fh_hours_form(e.f["hours"], pick(["dech", "hm"])))
            cl = cname(e, "short")
            proj = pname(e, "alias")
            if e.f["billable"] == "yes":
                b = f"{e.form('billable', 'bill')} @{e.form('hourly_rate_usd', str(e.f['hourly_rate_usd']))}"
            else:
                b = e.form("billable", "NB")
            lines.append(f"'{us(e.obs)} {wd3(e.obs)} — {cl} {proj} {hf} ({b})'")
        margin = pick(["A to-do list in the margin reads 'call accountant, renew domain ($18)'.",
                       "In the margin: 'Nora pickup 3:15!!' and a doodle of a cat.",
                       "The corner has a phone number and 'est. 12h phase 2?' crossed out.",
                       "Someone else's grocery list is visible on the facing page.",
                       "A coffee ring overlaps the top line."])
        cap = ("Photo of a page in a dotted notebook, handwritten in blue pen: " + ", then ".join(lines) + ". " +
               margin)
        user = pick(["Paper notes from when I was away from the laptop. NB = not billable.",
                           "Notebook page, the timer app was acting up. (NB means non-billable.)",
                           "Handwritten ones, sorry for the scrawl."])
        return R(user, pick(["Transcribed and logged.", "Got those from the notebook.",
                                   "Logged — your handwriting is fine."]), [cap], recs)

    # ---- renderers: invoices
    def inv_client(inv, style="full"):
        full, short = FH_CLIENTS[inv.meta["c"]]
        return inv.form("client", full if style == "full" else short)

    def inv_pdf(inv, sdate):
        inv.cue = ("date", longdate(inv.obs))
        amt = inv.form("amount_usd", usd(inv.f["amount_usd"]))
        due = inv.obs + dt.timedelta(days=45 if inv.meta["c"] == "oc" else 15)
        lines = []
        if inv.meta["hrs"] is not None:
            lines.append(f"'Development services — {inv.meta['label']} ({num(float(inv.meta['hrs']), 2)} h)'")
        if not lines:
            lines.append(f"'Services — {inv.meta['label']}'")
        if inv.meta["credit"]:
            lines.append("'Less deposit (INV-2025-010) −$2,000.00'")
        cap = (f"Screenshot of a PDF invoice. Top: 'INVOICE {inv.meta['number']}' · 'Issued: {longdate(inv.obs)}' · "
               f"'Due: {longdate(due)}' · 'Bill to: {inv_client(inv)}'. Line items: " + "; ".join(lines) +
               f". 'Sales tax 0%' · 'TOTAL DUE {amt}'. Footer with Theo's address and an IBAN-style bank line.")
        user = pick(["Invoice went out.", "Sent this invoice.", "Another invoice sent, PDF attached."])
        return R(user, pick(["Recorded the invoice.", "Invoice logged.", "Got it, invoice noted."]), [cap],
                 [inv])

    def inv_typed(inv, sdate):
        kind, tok, phrase = typed_cue(inv.obs, sdate, rng)
        inv.cue = (kind, tok)
        amt = inv.form("amount_usd", pick([usd(inv.f["amount_usd"]),
                                                 f"{num(inv.f['amount_usd'], 2)} dollars"]))
        who = inv_client(inv, "short")
        per = inv.meta["label"]
        per = per if per in MONTHS else "the " + per
        if kind == "none":
            phrase = "this morning"
            inv.cue = ("today", "this morning")
        user = pick([f"Invoiced {who} {amt} for {per} {phrase}.",
                           f"Sent {who} their {per} invoice {phrase}: {amt}.",
                           f"{who} invoice is out ({per}), {amt}, sent {phrase}."])
        return R(user, pick(["Noted the invoice.", f"Invoice to {who} logged.", "Logged it."]), [], [inv])

    def inv_email(inv, sdate):
        inv.cue = ("date", mond(inv.obs))
        amt = inv.form("amount_usd", f"USD {num(inv.f['amount_usd'], 2)}")
        full = inv_client(inv)
        dom = {"bf": "bluefinlogistics.com", "hd": "halvorsendental.com", "mb": "marlowebooks.com",
               "oc": "oakridgecu.org"}[inv.meta["c"]]
        cap = (f"Screenshot of the Gmail Sent folder, one message open: to 'accounts@{dom}', subject "
               f"'{inv.meta['number']} — {full}, {inv.meta['label']}', sent '{mond(inv.obs)}, 9:12 AM', attachment "
               f"'{inv.meta['number']}.pdf (84 KB)'. Body: 'Hi, attached is my invoice for {inv.meta['label']}, "
               f"total {amt}, payable within {45 if inv.meta['c'] == 'oc' else 15} days. Thanks!'")
        user = pick(["Invoice email, for the records.", "Sent this one.", "And the invoice email."])
        return R(user, pick(["Logged the invoice.", "Recorded.", "Invoice noted."]), [cap], [inv])

    def inv_list(invs, sdate, old=None):
        rows = []
        for inv in invs:
            inv.cue = ("date", mond(inv.obs))
            rows.append(f"'{inv.meta['number']} · {inv_client(inv)} · sent {mond(inv.obs)} · "
                        f"{inv.form('amount_usd', usd(inv.f['amount_usd']))} · Outstanding'")
        if old is not None:
            rows.append(f"'{old.meta['number']} · {FH_CLIENTS[old.meta['c']][0]} · Paid · "
                        f"{usd(old.f['amount_usd'])}'")
        cap = ("Screenshot of the invoicing app's Invoices list, newest first. Rows: " + "; ".join(rows) +
               ". Summary chip at the top: 'Outstanding " + usd(sum(fr(i.f["amount_usd"]) for i in invs)) + "'.")
        user = "Invoices I sent out. The 'Outstanding' ones are new" + \
               ("; the paid one you already have." if old is not None else ".")
        return R(user, pick(["Logged the new invoices.", f"{len(invs)} invoices recorded."]), [cap], invs)

    # ---- small talk, one-off facts, distractors
    facts = {
        2: [R("By the way, my main contact at Bluefin is Renata Osei, their head of engineering. If I mention "
              "Renata, that's who.", "Noted — Renata Osei, head of engineering at Bluefin.", fact="contact"),
            R("I finally moved invoicing off my spreadsheet to an app called Tallybook. $12 a month, and it "
              "chases late payers for me.", "Tallybook sounds like a good trade for $12 a month.",
              fact="invoice_app")],
        3: [R("Good news: Bluefin agreed to bump my rate to $105/h starting April 1. Took three emails.",
              "Congrats — $105/h at Bluefin from April 1.", fact="bf_rate")],
        4: [R("Rule for myself going forward: $90 an hour is my floor. Anything below that is underpriced. Marlowe "
              "and Halvorsen are both under it, I'll fix that when their contracts renew.",
              "Makes sense to have a floor. I'll keep $90/h in mind.", fact="floor")],
        5: [R("I rent a desk at Foundry Desk on Alder Street now, $275 a month. Beats the kitchen table.",
              "Foundry Desk — nice, a proper workspace helps.", fact="desk")],
        6: [R("Signed the Oakridge Credit Union contract on Friday! The accessibility audit is capped at 60 billable "
              "hours; anything beyond needs a change order.",
              "Congratulations! Good that the cap is explicit.", fact="oc_cap")],
        7: [R("My accountant says I should set aside 30% of every payment for taxes. Painful but fine.",
              "30% set aside is a common rule of thumb for freelancers.", fact="tax")],
        9: [R("Oakridge pays on Net 45 terms. Credit unions, man.",
              "Net 45 is long — worth planning cash flow around it.", fact="oc_terms")],
    }
    chat = [
        R("Do you think I should raise my rates next year? My friend Jonah does React contracting at $140/h and "
          "he's booked solid.", "If you're consistently booked, that's a signal you can charge more."),
        R("Coffee machine at the co-working place died again. Surviving on green tea.", "Solidarity."),
        R("Dana, my subcontractor, put 6.5 h into the driver app this week. That's on her invoice to me, not my "
          "timesheet, so don't count it.", "Understood — Dana's hours stay out of your log.", after="2025-04-20"),
        R("Planning to block 3 hours tomorrow morning for deep work. We'll see if that survives Slack.",
          "Good luck guarding that block."),
        R("Is a standing desk deductible as business equipment?",
          "Generally yes if it's used for the business, but check with your accountant."),
        R("My laptop battery is toast. Eyeing a new 14-inch, about $2,399 before tax.",
          "Could be worth it if the battery is costing you time."),
        R("Forgot to stop the timer on Friday and it ran 9h 40m overnight. I deleted that entry; the real time is "
          "already in.", "Good catch — nothing from that runaway timer is logged."),
        R("How do people handle scope creep politely? Bluefin keeps adding 'tiny' endpoints.",
          "A short change-request note with an estimate usually works."),
        R("The Marlowe shop did 1,284 orders on launch weekend and nothing fell over.", "That's a great launch.",
          after="2025-04-06", before="2025-04-22"),
        R("Went for a 5 km run at lunch. Helps with the afternoon slump.", "Nice — good habit."),
        R("A recruiter offered me a $165k full-time role. Not tempted. Mostly.", "Nice to be asked, at least."),
        R("Quoted Halvorsen 20 hours for phase 2 of the portal. Waiting to hear back.",
          "Fingers crossed on phase 2."),
        R("Lighthouse accessibility score on an Oakridge page went from 61 to 94 after a round of fixes.",
          "That's a big jump.", after="2025-04-20"),
        R("Rain all week in Portland. Shocking, I know.", "Hard to believe."),
        R("Re-reading The Pragmatic Programmer. Still holds up.", "A classic for a reason."),
        R("The dog ate a USB-C cable. Third one this year.", "Expensive taste."),
        R("Taking Friday afternoon off for Nora's school recital.", "Enjoy the recital!", wd=(0, 1, 2, 3)),
        R("My accountant keeps bringing up an S-corp. Says maybe once profit clears $100k.",
          "Worth a proper conversation with them when you're close."),
        R("Bluefin's driver app has 340 beta testers now, which is both great and terrifying.",
          "Real users find the real bugs.", after="2025-04-27"),
        R("Electricity bill came to $212. The space heater is a menace.", "Ouch."),
        R("What's a polite way to remind a client an invoice is ten days late?",
          "A short friendly note with the invoice attached and the due date restated."),
        R("Tried the Pomodoro thing again. Lasted two cycles.", "Two is a start."),
        R("Halvorsen wants a 'quick call' Friday. Those are never quick.", "Maybe set a 20-minute slot."),
        R("I'm thinking about quoting $120/h for any new client from summer on.",
          "Testing it with new clients first is low risk."),
        R("Does anyone actually read the terms on an invoice?", "Mostly the accounts team, when it matters."),
        R("Had a 40-minute call with my accountant about quarterly estimates. Fun times.",
          "At least it's sorted for the quarter."),
        R("Nora asked what I do all day. I said 'I make buttons work for people who can't see them.' She was "
          "unimpressed.", "Honestly a great description."),
        R("Lunch at the food carts. The Thai one is back.", "Good news for lunch."),
        R("Tempted to take a week off in June. Nothing booked yet.", "Worth blocking it before clients do."),
        R("Marlowe's owner sent a box of books as a thank-you. Nice touch.", "That's lovely.", after="2025-04-20"),
        R("My co-working neighbour bills by the project, not the hour. Thoughts?",
          "Fixed price rewards speed, hourly protects you from scope creep."),
        R("New keyboard arrived. Loud. I love it.", "Your desk neighbours may have opinions."),
        R("Zoom crashed twice during the Halvorsen demo. Classic.", "Demo gremlins are real."),
        R("Upgraded the Oakridge test server to 16 GB RAM, their IT paid for it.", "Nice, not on your dime.",
          after="2025-04-20"),
        R("Any tips for staying off Slack in the morning?", "Scheduled do-not-disturb until noon helps."),
        R("Thinking of writing a blog post about accessibility audits.", "That could bring in leads too.",
          after="2025-04-13"),
        R("Paid my quarterly estimated tax this week. $4,800. Ugh.", "Painful, but one less thing to worry about.",
          after="2025-04-14", before="2025-04-22"),
        R("Gym membership went up to $59 a month. Might cancel.", "Might be worth it if you actually go."),
        R("Bluefin's CEO liked the demo, apparently. Small win.", "Nice — good to hear it landed."),
        R("Considering a second monitor for the desk.", "Usually worth it for dev work."),
        R("Friday. Brain is done.", "Well earned.", wd=(4,)),
        R("The Oakridge team uses three different screen readers. Testing matrix is fun.",
          "That's thorough of them.", after="2025-04-20"),
        R("Got the Marlowe testimonial for my website!", "Great social proof.", after="2025-04-27"),
        R("Should I track non-billable time at all? Feels depressing.",
          "It's useful — it shows where your real hourly rate goes."),
        R("Made sourdough this weekend. Edible.", "Edible counts as a win."),
        R("Quick math: if I billed 25 hours a week at my new Bluefin rate of $105 for 46 weeks, what's that a year?",
          "25 × 105 × 46 = $120,750 before taxes and expenses.", after="2025-03-24"),
        R("What's 15% of $3,400? Asking for a late-fee clause.", "$510."),
        R("Nora's soccer practice moved to Thursdays, so Thursday afternoons are short now.",
          "Good to know for planning."),
        R("Halvorsen's office manager asked if I could 'just quickly' add online payments. Quickly. Sure.",
          "Sounds like a change request in disguise."),
        R("Should I keep a buffer of two months' expenses? Mine are about $4,500 a month.",
          "A $9,000 buffer is a sensible cushion for a freelancer."),
        R("Bluefin's office has a ping-pong table. I lost 21–9 to an intern.", "Humbling."),
        R("Thinking about a retainer model for Halvorsen: say 10 hours a month, paid up front.",
          "Retainers smooth out cash flow nicely."),
        R("The Oakridge kickoff had nine people on the call. Nine.", "That's a lot of stakeholders.",
          after="2025-04-09", before="2025-04-28"),
        R("Spent my evening reading WCAG 2.2 changes. I know how to party.", "Living the dream."),
        R("GitHub Copilot bill went up to $19 a month. Still worth it, I think.", "Probably, if it saves you time."),
        R("My bike got a flat on the way to the desk. Walked the last mile.", "Rough start to the day."),
        R("Do you think clients care if I work from a coffee shop?", "Mostly they care about responsiveness and results."),
        R("New client lead: a small brewery wants an online shop. Might be a nice Marlowe-style project.",
          "Could be a good fit given your recent migration work."),
        R("Hard rule: no client calls before 10 am. Let's see how long that lasts.", "Worth trying."),
        R("My old university asked me to give a guest lecture on freelancing. Unpaid, naturally.",
          "Could still be good exposure."),
        R("Renewed my domain and hosting for the portfolio site, about $140 for the year.", "Done for another year."),
        R("Nora wants to 'help' with my code. She renamed a variable to 'bananas'.", "Honestly, an improvement."),
        R("I keep a running list of things clients say. Today's gem: 'can we make the API faster by adding more "
          "buttons?'", "That list must be a treasure."),
        R("Long lunch with an old colleague who's going freelance too. Gave her my whole spreadsheet of rates.",
          "Generous of you."),
        R("Is it weird to invoice on the 1st even if it's a weekend?", "Not at all — many people do."),
        R("Finally fixed my home office chair. It only took a YouTube video and three swear words.",
          "The standard toolkit."),
        R("Rainy Friday. Lo-fi music and CSS bugs.", "A classic combination.", wd=(4,)),
        R("Somebody on a forum says you should never show your hourly rate to clients. Thoughts?",
          "Some prefer project pricing; transparency works fine with good clients."),
        R("Weekend plan: nothing. Absolutely nothing.", "Sounds perfect.", wd=(4, 5)),
    ]
    rng.shuffle(chat)

    # ---- build sessions
    openings = {
        0: R("Hi! I'm going to start logging my freelance time and invoices with you — screenshots from the timer "
             "app, notes, whatever I have. Four clients at the moment, more or less.",
             "Happy to help. Send entries in any form and I'll keep them straight."),
    }
    targets = [8, 9, 8, 9, 9, 8, 9, 8, 8, 9, 8, 7, 8, 8]
    renderers = {"timer": r_timer, "terse": r_terse, "sentence": r_sentence, "csv": r_csv,
                 "notebook": r_notebook}
    layout_w = [("timer", 3), ("terse", 3), ("sentence", 3), ("csv", 2), ("notebook", 2)]
    ts_used = 0
    for i, sdate in enumerate(sess_dates):
        pending = sorted([e for e in entries if e.report == i], key=lambda e: (e.obs, entries.index(e)))
        core: list[dict] = []
        # weekly timesheet screenshot
        weeks: dict[dt.date, list[Rec]] = {}
        for e in pending:
            weeks.setdefault(monday(e.obs), []).append(e)
        cands = [w for w, es in weeks.items() if 2 <= len(es) <= 5 and w + 6 * ONE <= sdate
                 and es == [e for e in entries if monday(e.obs) == w]]
        if cands and (rng.random() < 0.5 or i in (2, 6, 9)):
            w = cands[0]
            core.append(r_timesheet(weeks[w], sdate))
            pending = [e for e in pending if e not in weeks[w]]
            ts_used += 1
        while pending:
            e = pending.pop(0)
            lay = pick([k for k, wgt in layout_w for _ in range(wgt)])
            group = [e]
            if lay == "csv":
                take = min(len(pending), rng.choice([1, 2, 2]))
                group += [pending.pop(0) for _ in range(take)]
            elif lay in ("notebook", "terse") and pending and rng.random() < 0.5:
                group.append(pending.pop(0))
            if lay == "timer" and e.meta.get("note") and rng.random() < 0.5:
                lay = "sentence"
            core.append(renderers[lay](group, sdate))
        # invoices
        invs = [v for v in invoices if v.report == i]
        if i == 4:
            core.append(inv_pdf(invs[0], sdate))
            core.append(inv_list(invs[1:], sdate, old=invoices[0]))
        elif i == 9:
            core.append(inv_typed(invs[0], sdate))
            core.append(inv_email(invs[1], sdate))
            core.append(inv_pdf(invs[2], sdate))
        elif i == 12:
            core.append(inv_list(invs, sdate, old=invoices[5]))
        else:
            for v in invs:
                lay = {0: inv_typed, 7: inv_email, 11: inv_typed, 13: inv_pdf}[i]
                core.append(lay(v, sdate))
        core += facts.get(i, [])
        while len(core) > 9:                               # merge two single typed notes into one round
            singles = [k for k, rd in enumerate(core) if not rd["captions"] and len(rd["recs"]) == 1
                       and rd["recs"][0].rtype == "time_entry"]
            assert len(singles) >= 2, (sdate, len(core))
            a_, b_ = core[singles[0]], core[singles[1]]
            core[singles[0]] = R(a_["user"] + "\n\nAlso: " + b_["user"], "Logged both.", [],
                                 a_["recs"] + b_["recs"])
            del core[singles[1]]
        if i in openings:
            op = openings[i]
            op["opening"] = True
            core.insert(0, op)
        if i == 13:
            cl = R("That's probably it for this stretch — May was a lot. Thanks for keeping all of this straight.",
                   "Anytime. Your log is up to date.")
            cl["closing"] = True
            core.append(cl)
        # chit-chat that refers to a specific moment
        if i == 6:
            core.append(R("Halvorsen's payment for the March invoice came in on Friday, by the way. That's a payment, "
                          "not a new invoice.",
                          "Good to know — payment noted, no new invoice."))
        if i == 10:
            core.append(R("Plan for this week: 4 hours a day on Oakridge Monday to Wednesday, then Bluefin. "
                          "That's the plan anyway.", "Sounds like a solid plan."))
        target = max(targets[i], len(core) + 1)
        rounds = fill_session(rng, core, chat, min(target, 10), sdate)
        S.add_session(sdate, rounds)
    assert ts_used >= 3, ts_used
    S.verify()
    freelance_questions(S)
    return S


def freelance_questions(S: Scenario):
    E = [r for r in S.records if r.rtype == "time_entry"]
    I = [r for r in S.records if r.rtype == "invoice"]

    def between(recs, a, b):
        a, b = day(a), day(b)
        return [r for r in recs if a <= r.obs <= b]

    def in_month(recs, m):
        return [r for r in recs if r.obs.month == m]

    def bill(recs):
        return [r for r in recs if r.f["billable"] == "yes"]

    def client(recs, name):
        return [r for r in recs if r.f["client"] == name]

    clients = sorted({r.f["client"] for r in E})
    projects = sorted({r.f["project"] for r in E if "project" in r.f})

    # ---------------- AVG
    v = mean(r.f["hours"] for r in E)
    S.qa("AVG", "On average, how long was one of my time entries, in hours?",
         f"{num(rnd(v, 2), 2)} hours per entry on average, across all {len(E)} logged entries.", rnd(v, 2), "number",
         rounds_of(E), tol=0.05, unit="hours")
    sub = [r for r in in_month(E, 4) if "hourly_rate_usd" in r.f]
    v = mean(r.f["hourly_rate_usd"] for r in sub)
    S.qa("AVG", "What was my average hourly rate on the billable entries I logged in April 2025 (only where a "
                "rate was noted)?",
         f"{usd(rnd(v, 2))} per hour on average over the April entries with a rate.", rnd(v, 2), "number",
         rounds_of(sub), tol=0.05, unit="USD/h")
    sub = client(E, "Bluefin Logistics")
    v = mean(r.f["hours"] for r in sub)
    S.qa("AVG", "How many hours did a typical Bluefin entry run — what's the mean length of my Bluefin Logistics "
                "entries?",
         f"{num(rnd(v, 2), 2)} hours on average per Bluefin Logistics entry.", rnd(v, 2), "number",
         rounds_of(sub), tol=0.05, unit="hours")
    nb = [r for r in E if r.f["billable"] == "no"]
    v = F(len(nb) * 100, len(E))
    S.qa("AVG", "What share of all my logged time entries were non-billable, as a percentage?",
         f"{num(rnd(v, 1), 1)}% of the entries were non-billable.", rnd(v, 1), "number",
         rounds_of(E), tol=0.05, unit="%")
    v = mean(r.f["amount_usd"] for r in I)
    S.qa("AVG", "What's the average amount of the invoices I've sent?",
         f"{usd(rnd(v, 2))} per invoice on average.", rnd(v, 2), "number", rounds_of(I), tol=0.05, unit="USD")
    sub = between(E, "2025-05-01", "2025-05-15")
    v = mean(r.f["hours"] for r in sub)
    S.qa("AVG", "Between May 1 and May 15, 2025, how long were my entries on average?",
         f"{num(rnd(v, 2), 2)} hours per entry on average in that period.", rnd(v, 2), "number", rounds_of(sub),
         tol=0.05, unit="hours")

    # ---------------- SUM
    sub = bill(in_month(E, 3))
    v = total(r.f["hours"] for r in sub)
    S.qa("SUM", "How many billable hours did I log in March 2025?",
         f"{num(float(v), 2)} billable hours in March 2025.", float(v), "number", rounds_of(sub), tol=0.01,
         unit="hours")
    sub = client(I, "Bluefin Logistics")
    v = total(r.f["amount_usd"] for r in sub)
    S.qa("SUM", "How much have I invoiced Bluefin in total?",
         f"{usd(v)} invoiced to Bluefin Logistics in total.", float(v), "number", rounds_of(sub), tol=0.01,
         unit="USD")
    sub = [r for r in E if r.f.get("project") == "Shop Migration"]
    v = total(r.f["hours"] for r in sub)
    S.qa("SUM", "How much time did the Marlowe shop migration take altogether, billable or not?",
         f"{num(float(v), 2)} hours in total on the Shop Migration project.", float(v), "number", rounds_of(sub),
         tol=0.01, unit="hours")
    sub = [r for r in bill(E) if r.f.get("project") == "Accessibility Audit"]
    v = 60 - total(r.f["hours"] for r in sub)
    assert v > 0
    S.qa("SUM", "Going by what I've logged, how many billable hours are left under the cap on the Oakridge "
                "accessibility audit?",
         f"{num(float(v), 2)} hours left: the cap is 60 billable hours and {num(float(60 - v), 2)} have been "
         f"logged.", float(v), "number", rounds_of(sub) + [S.facts["oc_cap"]], tol=0.01, unit="hours")

    # ---------------- CNT
    sub = [r for r in E if r.f["hours"] >= 4]
    S.qa("CNT", "How many of my entries were 4 hours or longer?",
         f"{len(sub)} entries lasted at least 4 hours.", len(sub), "number", rounds_of(sub), unit="entries")
    sub = in_month(I, 4)
    S.qa("CNT", "How many invoices did I send in April 2025?", f"{len(sub)} invoices went out in April 2025.",
         len(sub), "number", rounds_of(sub), unit="invoices")
    sub = [r for r in client(E, "Bluefin Logistics") if r.f["billable"] == "no"]
    S.qa("CNT", "How many times did I log non-billable work for Bluefin?",
         f"{len(sub)} non-billable Bluefin entries.", len(sub), "number", rounds_of(sub), unit="entries")
    sub = [r for r in E if "hourly_rate_usd" in r.f and r.f["hourly_rate_usd"] < 90]
    S.qa("CNT", "How many of my entries with a noted rate were billed below the floor rate I set for myself?",
         f"{len(sub)} entries were below the $90/h floor.", len(sub), "number",
         rounds_of(sub) + [S.facts["floor"]], unit="entries")
    sub = client(I, "Halvorsen Dental")
    S.qa("CNT", "How many invoices have I sent Halvorsen Dental so far?", f"{len(sub)} invoices to Halvorsen Dental.",
         len(sub), "number", rounds_of(sub), unit="invoices")
    days = sorted({r.obs for r in E if r.obs.month == 5})
    sub = [r for r in E if r.obs.month == 5]
    S.qa("CNT", "On how many different days in May 2025 did I log any work?",
         f"{len(days)} days in May 2025 had at least one entry.", len(days), "number", rounds_of(sub),
         unit="days")

    # ---------------- MAX
    m = max(r.f["hours"] for r in E)
    sub = [r for r in E if r.f["hours"] == m]
    S.qa("MAX", "What was my single longest time entry, in hours?",
         f"{num(m, 2)} hours was the longest single entry.", m, "number", rounds_of(E), tol=0.01, unit="hours")
    may = in_month(E, 5)
    per = {c: total(r.f["hours"] for r in may if r.f["client"] == c) for c in clients}
    ranked = sorted(per, key=lambda c: -per[c])
    assert per[ranked[0]] - per[ranked[1]] >= 2, per
    S.qa("MAX", "Which client got the most of my hours in May 2025?",
         f"{ranked[0]} — {num(float(per[ranked[0]]), 2)} hours in May, ahead of {ranked[1]} "
         f"({num(float(per[ranked[1]]), 2)}).", ranked[0], "string", rounds_of(may), cands=clients)
    per_day: dict[dt.date, F] = {}
    for r in E:
        per_day[r.obs] = per_day.get(r.obs, F(0)) + fr(r.f["hours"])
    best = max(per_day.values())
    bd = [d for d in per_day if per_day[d] == best]
    assert len(bd) == 1
    S.qa("MAX", "Which day did I log the most hours in total?",
         f"{longdate(bd[0])}, with {num(float(best), 2)} hours logged that day.", bd[0].isoformat(), "date",
         rounds_of(E))
    m = max(r.f["amount_usd"] for r in I)
    top = [r for r in I if r.f["amount_usd"] == m]
    assert len(top) == 1
    S.qa("MAX", "Which client was my biggest single invoice for?",
         f"{top[0].f['client']}, {usd(m)}.", top[0].f["client"], "string", rounds_of(I),
         cands=sorted({r.f["client"] for r in I}))

    # ---------------- MIN
    sub = client(E, "Oakridge Credit Union")
    m = min(r.f["hours"] for r in sub)
    S.qa("MIN", "What was my shortest Oakridge entry?", f"{num(m, 2)} hours.", m, "number", rounds_of(sub),
         tol=0.01, unit="hours")
    m = min(r.f["amount_usd"] for r in I)
    S.qa("MIN", "What was the smallest invoice I sent?", f"{usd(m)} was the smallest invoice.", m, "number",
         rounds_of(I), tol=0.01, unit="USD")
    apr = in_month(E, 4)
    per = {c: total(r.f["hours"] for r in apr if r.f["client"] == c) for c in clients}
    ranked = sorted(per, key=lambda c: per[c])
    assert per[ranked[1]] - per[ranked[0]] >= 2, per
    S.qa("MIN", "Which client did I put the fewest hours into in April 2025?",
         f"{ranked[0]}, with {num(float(per[ranked[0]]), 2)} hours in April.", ranked[0], "string",
         rounds_of(apr), cands=clients)

    # ---------------- LAT
    sub = [r for r in E if r.f["billable"] == "no"]
    last = max(sub, key=lambda r: r.obs)
    assert sum(1 for r in sub if r.obs == last.obs) == 1
    S.qa("LAT", "When did I last log non-billable time?", f"{longdate(last.obs)} ({last.f['client']}).",
         last.obs.isoformat(), "date", [last.rid])
    sub = client(I, "Halvorsen Dental")
    last = max(sub, key=lambda r: r.obs)
    S.qa("LAT", "How much was the latest invoice I sent Halvorsen?",
         f"{usd(last.f['amount_usd'])}, sent {longdate(last.obs)}.", last.f["amount_usd"], "number", [last.rid],
         tol=0.01, unit="USD")
    sub = [r for r in client(E, "Bluefin Logistics") if "project" in r.f]
    last = max(sub, key=lambda r: r.obs)
    S.qa("LAT", "Which Bluefin project was I on in my most recent Bluefin entry?",
         f"{last.f['project']} ({longdate(last.obs)}).", last.f["project"], "string", [last.rid],
         cands=["Route Planner API", "Driver App"])
    sub = [r for r in E if "hourly_rate_usd" in r.f and r.f["client"] == "Oakridge Credit Union"]
    last = max(sub, key=lambda r: r.obs)
    S.qa("LAT", "How many hours did my last billable Oakridge entry run?",
         f"{num(last.f['hours'], 2)} hours, on {longdate(last.obs)}.", last.f["hours"], "number", [last.rid],
         tol=0.01, unit="hours")

    # ---------------- RNG
    sub = between(E, "2025-04-14", "2025-04-20")
    ds = sorted({r.obs.isoformat() for r in sub})
    S.qa("RNG", "Which days in the week of April 14–20, 2025 did I log time?",
         "You logged time on " + ", ".join(longdate(day(x)) for x in ds) + ".", ds, "list", rounds_of(sub))
    sub = in_month(I, 5)
    cl = sorted({r.f["client"] for r in sub})
    S.qa("RNG", "Which clients did I send invoices to in May 2025?", "In May 2025: " + ", ".join(cl) + ".", cl,
         "list", rounds_of(sub), cands=sorted({r.f["client"] for r in I}))
    sub = [r for r in E if r.f["billable"] == "no" and "project" in r.f]
    pr = sorted({r.f["project"] for r in sub})
    S.qa("RNG", "On which projects did I log non-billable time?",
         "Non-billable time went to " + ", ".join(pr) + ".", pr, "list", rounds_of(sub), cands=projects)
    sub = [r for r in E if r.f["hours"] > 5]
    ds = sorted({r.obs.isoformat() for r in sub})
    S.qa("RNG", "List the days when a single entry ran more than 5 hours.",
         "Entries over 5 hours: " + ", ".join(longdate(day(x)) for x in ds) + ".", ds, "list", rounds_of(sub))

    # ---------------- CMP
    a, b = total(r.f["hours"] for r in bill(in_month(E, 3))), total(r.f["hours"] for r in bill(in_month(E, 4)))
    assert gap_ok(a, b, abs_=3), (a, b)
    win = "March" if a > b else "April"
    S.qa("CMP", "Did I bill more hours in March or in April 2025?",
         f"{win} — {num(float(max(a, b)), 2)} billable hours against {num(float(min(a, b)), 2)}.", win, "string",
         rounds_of(bill(in_month(E, 3)) + bill(in_month(E, 4))), cands=["March", "April"])
    sa, sb = client(E, "Bluefin Logistics"), client(E, "Halvorsen Dental")
    a, b = mean(r.f["hours"] for r in sa), mean(r.f["hours"] for r in sb)
    assert gap_ok(a, b, rel=0.015)
    win = "Bluefin Logistics" if a > b else "Halvorsen Dental"
    S.qa("CMP", "Were my Bluefin entries or my Halvorsen entries longer on average?",
         f"{win}: {num(rnd(max(a, b), 2), 2)} h per entry versus {num(rnd(min(a, b), 2), 2)} h.", win, "string",
         rounds_of(sa + sb), cands=["Bluefin Logistics", "Halvorsen Dental"])
    sa, sb = client(I, "Bluefin Logistics"), client(I, "Oakridge Credit Union")
    a, b = total(r.f["amount_usd"] for r in sa), total(r.f["amount_usd"] for r in sb)
    assert gap_ok(a, b, abs_=100)
    win = "Bluefin Logistics" if a > b else "Oakridge Credit Union"
    S.qa("CMP", "Who have I invoiced more in total so far, Bluefin or Oakridge?",
         f"{win} — {usd(max(a, b))} against {usd(min(a, b))}.", win, "string",
         rounds_of(sa + sb), cands=["Bluefin Logistics", "Oakridge Credit Union"])
    sa, sb = between(E, "2025-04-01", "2025-04-15"), between(E, "2025-04-16", "2025-04-30")
    a, b = mean(r.f["hours"] for r in sa), mean(r.f["hours"] for r in sb)
    assert gap_ok(a, b, rel=0.015), (a, b)
    win = "first half" if a > b else "second half"
    S.qa("CMP", "Were my entries longer on average in the first half of April 2025 (April 1–15) or in the second "
                "half (April 16–30)?",
         f"The {win} — {num(rnd(max(a, b), 2), 2)} h per entry versus {num(rnd(min(a, b), 2), 2)} h.", win,
         "string", rounds_of(sa + sb), cands=["first half", "second half"])

    # ---------------- TRD
    sa = [r for r in in_month(E, 3) if "hourly_rate_usd" in r.f]
    sb = [r for r in in_month(E, 5) if "hourly_rate_usd" in r.f]
    a, b = mean(r.f["hourly_rate_usd"] for r in sa), mean(r.f["hourly_rate_usd"] for r in sb)
    assert gap_ok(a, b, rel=0.015)
    t = "increased" if b > a else "decreased"
    S.qa("TRD", "From March to May 2025, did the average hourly rate on my rated entries go up or down?",
         f"It {t}: {usd(rnd(a, 2))}/h in March, {usd(rnd(b, 2))}/h in May.", t, "string", rounds_of(sa + sb),
         cands=["increased", "decreased"])
    bfe = client(E, "Bluefin Logistics")
    sa, sb = in_month(bfe, 3), in_month(bfe, 5)
    a, b = total(r.f["hours"] for r in sa), total(r.f["hours"] for r in sb)
    assert gap_ok(a, b, abs_=3), (a, b)
    t = "increased" if b > a else "decreased"
    S.qa("TRD", "Did my monthly Bluefin hours grow or shrink from March to May 2025?",
         f"They {t}: {num(float(a), 2)} hours in March, {num(float(b), 2)} in May.", t, "string",
         rounds_of(sa + sb), cands=["increased", "decreased"])
    sa, sb = in_month(E, 3), in_month(E, 5)
    a = F(sum(1 for r in sa if r.f["billable"] == "no") * 100, len(sa))
    b = F(sum(1 for r in sb if r.f["billable"] == "no") * 100, len(sb))
    assert gap_ok(a, b, abs_=5), (a, b)
    t = "increased" if b > a else "decreased"
    S.qa("TRD", "Between March and May 2025, did the share of my entries that were non-billable rise or fall?",
         f"It {t}: {num(rnd(a, 1), 1)}% of entries in March, {num(rnd(b, 1), 1)}% in May.", t, "string",
         rounds_of(sa + sb), cands=["increased", "decreased"])

    # ---------------- RET
    S.qa("RET", "What hourly rate did Bluefin agree to from April?", "$105 per hour, starting April 1.", 105,
         "number", [S.facts["bf_rate"]], unit="USD/h")
    S.qa("RET", "What's the minimum hourly rate I told you I'd accept?", "$90 an hour is your floor.", 90,
         "number", [S.facts["floor"]], unit="USD/h")
    S.qa("RET", "Who is my main contact at Bluefin?", "Renata Osei, Bluefin's head of engineering.",
         "Renata Osei", "string", [S.facts["contact"]])
    S.qa("RET", "Which app did I move my invoicing to?", "Tallybook.", "Tallybook", "string",
         [S.facts["invoice_app"]])
    S.qa("RET", "Where do I rent a desk?", "At Foundry Desk on Alder Street.", "Foundry Desk", "string",
         [S.facts["desk"]])
    S.qa("RET", "What percentage of each payment did my accountant tell me to put aside for taxes?",
         "30% of every payment.", 30, "number", [S.facts["tax"]], unit="%")
    S.qa("RET", "What payment terms does Oakridge pay on?", "Net 45.", "Net 45", "string", [S.facts["oc_terms"]])


# ================================================================== scenario 2: language_study

LS_TYPES = ("vocabulary", "listening", "grammar", "speaking")
LS_TYPE_FORMS = {"vocabulary": ["Vocabulary", "vocab", "vocabulary", "Words"],
                 "listening": ["Listening", "listening"], "grammar": ["Grammar", "grammar"],
                 "speaking": ["Speaking", "speaking"]}


def build_language() -> Scenario:
    rng = random.Random(SEEDS["language_study"])
    pick = Cycler(rng)
    profile = {
        "name": "Gwen Albright",
        "persona_summary": ("Gwen Albright, 49, high-school librarian in Providence, Rhode Island. She is taking a "
                            "sabbatical year in Lisbon from September and is learning European Portuguese with the "
                            "Falando app every day plus online lessons with two tutors, Marta and Duarte."),
        "traits": ["methodical", "competitive with her husband Tom about app streaks", "self-deprecating",
                   "loves fado"],
        "conversation_style": ("Sends app screenshots (end-of-lesson screens, daily summaries, weekly recaps, the "
                               "history tab), tutoring receipts, terse logs like 'pt: 35xp / 15m / 2 lessons / "
                               "vocab' and chatty notes about grammar she finds confusing."),
    }
    topic_forms = {"Greetings": ["Greetings"], "Family": ["Family"], "Food and Drink": ["Food and Drink", "Food & Drink"],
                   "Getting Around": ["Getting Around"], "Shopping": ["Shopping"], "At Work": ["At Work"],
                   "Health": ["Health"]}
    aliases = {"lesson_type": {k: set(v) for k, v in LS_TYPE_FORMS.items()},
               "unit_topic": {k: set(v) for k, v in topic_forms.items()},
               "tutor": {"Marta": {"Marta", "Marta S."}, "Duarte": {"Duarte", "Duarte M."}}}
    S = Scenario("language_study", profile, aliases,
                 {"xp": "count", "duration_min": "minutes", "lessons_completed": "count", "cost_usd": "money"})
    sess_dates = [day(x) for x in ("2025-01-14", "2025-01-19", "2025-01-27", "2025-02-02", "2025-02-10",
                                   "2025-02-16", "2025-02-19", "2025-02-23", "2025-03-03", "2025-03-09",
                                   "2025-03-14", "2025-03-20", "2025-03-25", "2025-03-30")]

    units = [("2025-01-11", "Greetings"), ("2025-01-14", "Family"), ("2025-01-31", "Food and Drink"),
             ("2025-02-15", "Getting Around"), ("2025-03-01", "Shopping"), ("2025-03-15", "At Work"),
             ("2025-03-25", "Health")]

    def topic_for(d):
        k = max(j for j, (ds, _) in enumerate(units) if day(ds) <= d)
        if k > 1 and rng.random() < 0.15:
            k -= 1                                          # a review lesson from the previous unit
        return units[k][1]

    bags = {1: {"vocabulary": 5, "grammar": 4, "listening": 3, "speaking": 1},
            2: {"vocabulary": 5, "grammar": 5, "listening": 8, "speaking": 3},
            3: {"vocabulary": 3, "grammar": 4, "listening": 9, "speaking": 6}}
    drawn: dict[int, list[str]] = {}

    def lesson_type(d):
        if not drawn.get(d.month):
            drawn[d.month] = [t for t in LS_TYPES for _ in range(bags[d.month][t])]
            rng.shuffle(drawn[d.month])
        return drawn[d.month].pop()

    n_choices = {1: [1, 2, 2, 3, 3, 4], 2: [2, 2, 3, 3, 4, 4], 3: [2, 3, 4, 4, 5, 5]}
    base = {1: (9, 12), 2: (11, 14), 3: (13, 16)}
    crunch = (day("2025-02-15"), day("2025-02-28"))         # report-card fortnight: short sessions
    recap_weeks = {day("2025-01-20"), day("2025-02-03"), day("2025-02-24")}

    app: list[Rec] = []

    def add_app(d, part=None):
        n = rng.choice(n_choices[d.month])
        xp = n * rng.randint(*base[d.month]) + rng.choice([0, 0, 5, 10])
        per = (3, 5) if crunch[0] <= d <= crunch[1] else (5, 7)
        mins = n * rng.randint(*per) + rng.randint(0, 3)
        r = Rec("app_session", d, {"xp": xp, "duration_min": mins, "lessons_completed": n,
                                   "lesson_type": lesson_type(d), "unit_topic": topic_for(d)}, part=part)
        app.append(r)
        return r

    d = day("2025-01-11")
    while d <= day("2025-03-30"):
        if d == day("2025-02-16"):
            pass                                            # the day the streak broke
        elif d == day("2025-03-08"):
            r = add_app(d)
            r.f.update(lessons_completed=7, duration_min=65, xp=7 * 14 + 10, lesson_type="listening")
        elif d in (day("2025-01-14"), day("2025-03-30")) or rng.random() < 0.6:
            if rng.random() < 0.08 and monday(d) not in recap_weeks and d != day("2025-03-30"):
                add_app(d, part="morning")
                add_app(d, part="evening")
            else:
                add_app(d)
        d += ONE
    app.sort(key=lambda r: r.obs)

    # tutor lessons
    tut_plan = [("2025-01-14", "Marta", 60), ("2025-01-21", "Marta", 60), ("2025-01-28", "Marta", 90),
                ("2025-02-01", "Duarte", 30), ("2025-02-04", "Marta", 60), ("2025-02-08", "Duarte", 30),
                ("2025-02-11", "Marta", 60), ("2025-02-22", "Duarte", 45), ("2025-02-25", "Marta", 90),
                ("2025-03-01", "Duarte", 45), ("2025-03-04", "Marta", 60), ("2025-03-11", "Marta", 60),
                ("2025-03-15", "Duarte", 45), ("2025-03-18", "Marta", 90), ("2025-03-22", "Duarte", 60),
                ("2025-03-25", "Marta", 60), ("2025-03-29", "Duarte", 45)]
    tutors: list[Rec] = []
    for ds, who, mins in tut_plan:
        dd = day(ds)
        if who == "Marta":
            per_h = 26 if dd < day("2025-03-01") else 28
            cost = F(per_h * mins, 60)
        else:
            cost = F(5) if ds == "2025-02-01" else F(24 * mins, 60)
        tutors.append(Rec("tutor_lesson", dd, {"duration_min": mins, "tutor": who, "cost_usd": float(cost)},
                          trial=(ds == "2025-02-01")))

    # streak (distractor numbers): running since 2024-11-30, broken on Feb 16
    def streak(d):
        if d >= day("2025-02-17"):
            return (d - day("2025-02-17")).days + 1
        return (d - day("2024-11-30")).days + 1

    def first_session_on_or_after(d):
        return next(i for i, s in enumerate(sess_dates) if s >= d)

    for r in app + tutors:
        i = first_session_on_or_after(r.obs)
        if r.rtype == "app_session" and i < len(sess_dates) - 1 and r.obs < sess_dates[i] \
                and rng.random() < 0.08 and not r.meta.get("part") and sess_dates[i].weekday() in (1, 2, 3, 4) \
                and monday(r.obs) not in recap_weeks:
            i += 1
            r.meta["late"] = True
        r.report = i

    # ---- renderers: app sessions
    def tform(r, choices):
        return r.form("lesson_type", pick([c for c in LS_TYPE_FORMS[r.f["lesson_type"]] if c in choices]
                                                or LS_TYPE_FORMS[r.f["lesson_type"]][:1]))

    def cue_phrase(r, sdate):
        kind, tok, phrase = typed_cue(r.obs, sdate, rng)
        r.cue = (kind, tok)
        return kind, phrase

    def part_note(r):
        return f" ({r.meta['part']} session)" if r.meta.get("part") else ""

    def a_complete(recs, sdate):
        r = recs[0]
        kind, phrase = cue_phrase(r, sdate)
        xp = r.form("xp", f"+{r.f['xp']} XP")
        n = r.f["lessons_completed"]
        ls = r.form("lessons_completed", f"{n} lesson{'s' if n > 1 else ''} completed")
        mn = r.form("duration_min", f"{r.f['duration_min']} min")
        ty = tform(r, ["Vocabulary", "Listening", "Grammar", "Speaking", "Words"])
        top = r.form("unit_topic", r.f["unit_topic"])
        cap = (f"Screenshot of the Falando app's end-of-session screen: confetti and Sardi the sardine mascot "
               f"waving a flag. Big text 'Sessão concluída!' and '{xp}'. Below: '{ls}', '⏱ {mn}', a pill reading "
               f"'{ty}' and the unit title '{top}'. Top right, a streak flame '🔥 {streak(r.obs)}'.")
        if kind == "none":
            user = pick(["Done for today!", "Today's practice, done.", "Boom, finished." + part_note(r)])
        elif kind == "today":
            user = "Finished my session today." + part_note(r)
        else:
            user = pick([f"This one's from {phrase.removeprefix('on ')}.", f"Forgot to send {phrase.removeprefix('on ')}'s.",
                               f"Practice from {phrase.removeprefix('on ')}, late as usual."]) + part_note(r)
        if r.meta.get("late"):
            user = "Found an old screenshot I never sent. " + user
        return R(user, pick(["Nice work — logged.", "Logged. Parabéns!", "Saved it.", "Logged, well done."]),
                 [cap], recs)

    def a_summary(recs, sdate):
        r = recs[0]
        r.cue = ("date", mond(r.obs))
        cap = (f"Screenshot of Falando's Profile › Daily summary for '{wd3(r.obs)}, {mond(r.obs)}': "
               f"'{r.form('xp', str(r.f['xp']) + ' XP earned')}' · "
               f"'{r.form('duration_min', str(r.f['duration_min']) + ' min practiced')}' · "
               f"'{r.form('lessons_completed', str(r.f['lessons_completed']) + (' lessons' if r.f['lessons_completed'] > 1 else ' lesson'))}' · "
               f"'Mostly: {tform(r, ['Vocabulary', 'Listening', 'Grammar', 'Speaking'])}' · "
               f"'Unit: {r.form('unit_topic', r.f['unit_topic'])}' · "
               f"'Streak: {streak(r.obs)} days' · 'League: Sapphire · #{rng.randint(3, 12)}'.")
        user = pick(["Daily summary.", "Here's the daily summary card.", "Summary screen from the app."])
        return R(user, pick(["Logged that day.", "Got it.", "Saved."]), [cap], recs)

    def a_terse(recs, sdate):
        lines = []
        for r in recs:
            kind, phrase = cue_phrase(r, sdate)
            tok = r.cue[1] or ""
            lead = {"none": "", "today": "today", "yday": "yesterday", "wd": tok[:3].lower(), "date": tok}[kind]
            if kind == "wd":
                r.cue = ("wd", r.cue[1][:3])
            xp = r.form("xp", f"{r.f['xp']}xp")
            mn = r.form("duration_min", f"{r.f['duration_min']}m")
            n = r.f["lessons_completed"]
            ls = r.form("lessons_completed", f"{n} lesson{'s' if n > 1 else ''}")
            ty = tform(r, ["vocab", "listening", "grammar", "speaking"])
            if rng.random() < 0.55:
                top = f" ({r.form('unit_topic', r.f['unit_topic'])})"
            else:
                del r.f["unit_topic"]
                top = ""
            body = f"{xp} / {mn} / {ls} / {ty}{top}"
            if r.meta.get("part"):
                lead = (lead + " " if lead else "") + {"morning": "am", "evening": "pm"}[r.meta["part"]]
            lines.append(f"pt {lead}: {body}" if lead else f"pt: {body}")
        user = "\n".join(lines)
        return R(user, pick(["Logged.", "Got it.", "Noted!"]), [], recs)

    def a_sentence(recs, sdate):
        r = recs[0]
        kind, phrase = cue_phrase(r, sdate)
        ty = tform(r, ["vocabulary", "listening", "grammar", "speaking"])
        mn = r.form("duration_min", pick([f"{r.f['duration_min']} minutes", f"{r.f['duration_min']} min"]))
        n = r.f["lessons_completed"]
        ls = r.form("lessons_completed", f"{NUMWORDS.get(n, n)} lesson{'s' if n > 1 else ''}")
        xp = r.form("xp", f"{r.f['xp']} XP")
        if r.f["duration_min"] >= 60:
            mn = r.form("duration_min", f"{r.f['duration_min'] // 60}h {r.f['duration_min'] % 60:02d}m")
        when = phrase if phrase else pick(["", "just now"])
        if when == "":
            r.cue = ("none", None)
        extra = {"listening": "The speakers talk so fast!", "speaking": "The mic kept cutting me off.",
                 "grammar": "Object pronouns are going to break me.", "vocabulary": "New favourite word: 'chávena'."}
        del r.f["unit_topic"]
        user = pick([f"Did a {ty} session {when} — {mn}, {ls}, {xp}. {extra[r.f['lesson_type']]}",
                           f"{ty.capitalize()} practice {when}: {ls} in {mn}, earned {xp}.",
                           f"Logging {when or 'this'}: {mn} of {ty}, {ls}, {xp}."]).replace("  ", " ")
        user = user.replace(" —", " —").replace(" :", ":")
        if r.meta.get("part"):
            user += f" That was my {r.meta['part']} session."
        return R(user, pick(["Logged it.", "Saved — nice session.", "Muito bem! Logged."]), [], recs)

    def a_recap(recs, sdate):
        wk = monday(recs[0].obs)
        rows = []
        for r in recs:
            r.cue = ("date", mond(r.obs))
            rows.append(f"'{wd3(r.obs)} {mond(r.obs)}: {r.form('xp', str(r.f['xp']) + ' XP')} · "
                        f"{r.form('duration_min', str(r.f['duration_min']) + ' min')}'")
            for k in ("lessons_completed", "lesson_type", "unit_topic"):
                r.f.pop(k, None)
        tx = sum(r.f["xp"] for r in recs)
        tm = sum(r.f["duration_min"] for r in recs)
        cap = (f"Falando weekly recap card 'Your week · {mond(wk)} – {mond(wk + 6 * ONE)}'. Bar chart; the lesson "
               f"days have labelled bars: " + ", ".join(rows) + ". The other days show only a thin grey 'review' "
               f"bar with no numbers. Summary line: 'Lessons total {tx} XP · {tm} min · "
               f"Streak 🔥 {streak(wk + 6 * ONE)} · Top {pick([8, 10, 12, 15])}% of learners'.")
        user = pick(["Weekly recap from the app — that's every real session I did that week.",
                     "The app's recap for that week. Didn't send the individual sessions, so this is all of them.",
                     "Recap card for the week, covers all my lesson sessions that week."])
        return R(user, pick(["Logged each day from the recap.", "Got the week.", "All days logged."]),
                 [cap], recs)

    def a_history(recs, sdate):
        rows = []
        for r in recs:
            r.cue = ("date", mond(r.obs))
            n = r.f["lessons_completed"]
            rows.append(f"'{mond(r.obs)} · {r.form('unit_topic', r.f['unit_topic'])} · "
                        f"{tform(r, ['Vocabulary', 'Listening', 'Grammar', 'Speaking'])} · "
                        f"{r.form('lessons_completed', f'{n} lesson' + ('s' if n > 1 else ''))} · "
                        f"{r.form('xp', '+' + str(r.f['xp']) + ' XP')}'")
            r.f.pop("duration_min")
        cap = ("Screenshot of Falando's History tab, newest first. Rows: " + "; ".join(reversed(rows)) +
               f". Header: 'Total XP {rng.randint(6000, 9000):,}'.")
        user = pick(["History tab — these sessions didn't get logged. No time shown there, sorry.",
                           "From the history screen, a few I missed. It doesn't show minutes.",
                           "Backfilling from the history tab."])
        return R(user, pick(["Logged those.", "Added them.", "Backfilled."]), [cap], recs)

    # ---- renderers: tutor lessons
    def mins_form(r, style):
        m = r.f["duration_min"]
        if style == "min":
            return r.form("duration_min", f"{m} min")
        if style == "minutes":
            return r.form("duration_min", f"{m} minutes")
        if style == "h":
            return r.form("duration_min", f"{trim(m / 60)} h" if m % 60 else f"{m // 60} h")
        if style == "hours":
            return r.form("duration_min", f"{trim(m / 60)} hours" if m != 60 else "1 hour")
        raise ValueError(style)

    def tname(r, full=False):
        return r.form("tutor", {"Marta": "Marta S.", "Duarte": "Duarte M."}[r.f["tutor"]] if full else r.f["tutor"])

    def t_receipt(recs, sdate):
        r = recs[0]
        r.cue = ("date", longdate(r.obs))
        hour = "7:00 PM" if r.f["tutor"] == "Marta" else "10:30 AM"
        cap = (f"Phone screenshot of an email receipt from Lingoteca. 'Thanks for learning with {tname(r, True)}!' · "
               f"'Lesson date: {wd3(r.obs)}, {longdate(r.obs)} · {hour} ET' · 'Length: {mins_form(r, 'min')}' · "
               f"'Charged: {r.form('cost_usd', usd(r.f['cost_usd']))}' · 'Visa •••• 4417' · "
               f"'Credit balance: {usd(pick([0, 4, 14, 22]))}'.")
        if r.meta.get("trial"):
            cap += " A banner reads 'Trial lesson'."
        user = pick(["Tutor receipt.", "Receipt from the lesson.", "Lesson receipt for the log."])
        return R(user, pick(["Lesson logged.", "Got the lesson.", "Saved."]), [cap], recs)

    def t_typed(recs, sdate):
        r = recs[0]
        kind, tok, phrase = typed_cue(r.obs, sdate, rng)
        r.cue = (kind, tok)
        if kind == "none":
            phrase = "this evening" if r.f["tutor"] == "Marta" else "this morning"
            r.cue = ("today", phrase)
        elif kind == "yday":
            phrase = "yesterday"
        ln = mins_form(r, pick(["minutes", "hours", "min"]))
        cost = r.form("cost_usd", pick([usd(r.f["cost_usd"]), f"{trim(r.f['cost_usd'])} dollars"]))
        topic = pick(["past tenses", "ordering at a restaurant", "small talk about the weather",
                            "the subjunctive (help)", "reading a news article", "phone calls"])
        user = pick([f"Lesson with {tname(r)} {phrase}, {ln}, {cost}. We did {topic}.",
                           f"Had {tname(r)} {phrase}: {ln} on {topic}. Paid {cost}.",
                           f"{tname(r)} {phrase} — {ln}, {cost}, mostly {topic}."])
        return R(user, pick(["Logged the lesson.", "Noted!", "Got it — sounds useful."]), [], recs)

    def t_short(recs, sdate):
        r = recs[0]
        r.cue = ("date", us(r.obs))
        ln = mins_form(r, pick(["h", "min"]))
        user = f"tutor {us(r.obs)}: {tname(r)} {ln} {r.form('cost_usd', '$' + trim(r.f['cost_usd']))}"
        return R(user, "Logged.", [], recs)

    def t_list(recs, sdate, cancelled=None):
        rows = []
        for r in recs:
            r.cue = ("date", mond(r.obs))
            rows.append((r.obs, f"'{wd3(r.obs)}, {mond(r.obs)} · {tname(r, True)} · {mins_form(r, 'min')} · "
                                f"{r.form('cost_usd', usd(r.f['cost_usd']))} · Completed'"))
        if cancelled:
            rows.append((cancelled[0], f"'{wd3(cancelled[0])}, {mond(cancelled[0])} · {cancelled[1]} · 60 min · "
                                       f"$0.00 · Cancelled by tutor'"))
        rows = [t for _, t in sorted(rows, reverse=True)]
        cap = ("Screenshot of Lingoteca's 'Past lessons' page. Rows: " + "; ".join(rows) +
               ". Right panel: 'Book 5 lessons with Marta S. — $120 (save 8%)'.")
        user = "Past lessons page, I hadn't logged these yet."
        return R(user, "Logged the completed ones.", [cap], recs)

    # ---- facts and chit-chat
    facts = {
        0: [R("I set my Falando daily goal to 50 XP. Tom has his at 100, the show-off.",
              "50 XP a day is a sustainable goal. Tom can show off all he likes.", fact="goal"),
            R("Note on the streak flame: it counts any activity at all, even the one-minute review I do in bed, so "
              "it doesn't mean I did a real session that day. I'll only send you real sessions.",
              "Understood — I'll log the sessions you send, not the streak.")],
        1: [R("Marta is from Coimbra, she says people there speak the 'cleanest' Portuguese. Lisbon people "
              "disagree.", "Ha — a very old rivalry, I hear.", fact="hometown")],
        2: [R("Decided: I'm taking the CIPLE exam (that's A2) in June, before we move.",
              "Great goal — the CIPLE gives you a concrete target.", fact="exam")],
        3: [R("Budget check: I'm allowing myself $150 a month for tutors, tops.",
              "Got it — $150 a month for tutoring.", fact="budget")],
        5: [R("Marta wants me to buy 'Passaporte para Portugal' as a textbook, so I ordered it.",
              "Nice, having a textbook gives structure between lessons.", fact="textbook")],
        7: [R("We found a flat! It's in Campo de Ourique, near the market. Tiny kitchen, big windows.",
              "Wonderful — Campo de Ourique is lovely.", fact="flat")],
        9: [R("Caved and paid $84 for a year of Falando Plus. No more hearts.",
              "No more running out of hearts mid-lesson.", fact="plus")],
        11: [R("Flights booked: Boston to Lisbon on August 28. It's real now.",
               "That's exciting — August 28 it is.", fact="flight")],
    }
    chat = [
        R("Tom is showing off again: 120 XP before breakfast and a 212-day streak.", "He's committed, I'll give him that."),
        R("Is 'você' rude in Portugal? Marta says to avoid it with strangers.",
          "It can sound distant or blunt; using the name or 'o senhor/a senhora' is safer."),
        R("Watched an episode of a Portuguese series with subtitles. Understood maybe 20% without them.",
          "20% is a real start."),
        R("Explain ser vs estar in one sentence?", "Ser for what something is, estar for how or where it is right now."),
        R("League update: I'm 4th in Sapphire with 1,240 XP this week, the leader has 2,915. Who ARE these people?",
          "Probably people with a lot of free time."),
        R("Plan for next week: five sessions and at least 300 XP. Writing it down so you can shame me.",
          "Consider it written down."),
        R("The app crashed halfway through a lesson and nothing saved. Annoying, so no log for that.",
          "That's frustrating — nothing to log then."),
        R("Found a Portuguese bakery in Fox Point. Pastéis de nata are $3.50 each and worth it.",
          "A delicious form of study."),
        R("I listen to a Portuguese podcast on my commute, about 25 minutes each way, but that's outside the app so "
          "I don't count it.", "Still great exposure, even if it's not in the log."),
        R("Fado night at the Portuguese club in Fall River was lovely.", "That sounds wonderful."),
        R("How do you pronounce 'lh'? Like in 'trabalho'?", "Roughly like the 'lli' in 'million'."),
        R("My colleague Rosa is Azorean and laughs at my accent. Lovingly, I think.", "Lovingly, surely."),
        R("Why does European Portuguese swallow half its vowels?",
          "Unstressed vowels reduce a lot — it's the hardest part for listening."),
        R("Duarte laughed when I said 'estou constipada' — apparently that means I have a cold, not constipated.",
          "A classic false friend!", after="2025-02-09"),
        R("Rainy Saturday, perfect for flashcards.", "Cozy study day.", wd=(5,)),
        R("Can you give me three ways to say 'I'm sorry' in Portuguese?",
          "Desculpe, peço desculpa, and lamento."),
        R("Bought a 2025 wall calendar in Portuguese for the kitchen. Segunda, terça, quarta…",
          "Weekday names every morning — clever.", before="2025-01-31"),
        R("The app's speaking exercises think my 'ão' sounds like 'ow'. Rude but fair.",
          "Nasal vowels take time."),
        R("Tom and I tried to order dinner in Portuguese at the Portuguese place in Fox Point. The waiter answered in "
          "English.", "Happens to everyone — keep trying."),
        R("Does it matter if I learn Brazilian or European spelling?",
          "Since the 1990 agreement spelling is mostly the same; pronunciation differs more."),
        R("Library book sale this weekend, I'm running the cash box.", "Good luck with the crowds!"),
        R("My daughter says my Portuguese sounds Russian. She's not wrong.", "European Portuguese does get that a lot."),
        R("Found out our landlord in Lisbon only speaks Portuguese. Motivation!", "Strong motivation indeed.",
          after="2025-03-01"),
        R("Marta's cat walked across the keyboard during the lesson and typed 'jjjjjj'.", "The cat wanted a lesson too.",
          after="2025-01-20"),
        R("I've been writing my grocery list in Portuguese. Ovos, leite, pão.", "Great low-stakes practice."),
        R("The app keeps telling me I'm in the top slice of learners this week. I don't believe it.",
          "Take the compliment.",
          after="2025-02-10"),
        R("How many verb tenses does Portuguese really have?", "Quite a few — but you can get far with four or five."),
        R("Tom got demoted out of Diamond league. I'm trying not to gloat.", "Gloating a little is allowed."),
        R("Snow day! School closed, so more time for Portuguese.", "Make the most of it!", before="2025-03-03"),
        R("Feeling a bit burnt out on grammar this week.", "Mixing in listening or speaking can help."),
        R("Just learned 'saudade' has no real English translation. Love it.", "A famously untranslatable word."),
        R("My sister asked if I'll come back speaking with an accent. I hope so!", "That'd be a good sign."),
        R("Marta says my past tense is 'getting there'. High praise from her.", "Sounds like real progress.",
          after="2025-02-09"),
        R("Downloaded a Portuguese radio app. RTP Antena 1 in the kitchen.", "Background listening helps a lot."),
        R("I keep mixing up 'pois' and 'pois é'.", "'Pois é' is more like 'yeah, right' or 'exactly'."),
        R("Can you suggest Portuguese children's books? I learn well from picture books.",
          "Picture books are a great idea — look for Portuguese editions of classics you know."),
        R("Ordered a Portuguese keyboard sticker set for the laptop. ç, ã, õ.", "Handy!"),
        R("Tom's now doing 150 XP a day. This marriage is a competition.", "A healthy one, hopefully."),
        R("Spring break is coming up, hoping to do more speaking.", "Good plan.", after="2025-03-09"),
        R("How do you say 'I'm a librarian' in Portuguese?", "Sou bibliotecária."),
        R("Tom found a Portuguese cooking class in Fall River, $45 each. Tempting.",
          "Cooking and language practice in one."),
        R("The Falando owl-knockoff sardine sent me a guilt notification at 11 pm. Rude.",
          "Sardi is relentless."),
        R("I wrote my first full paragraph in Portuguese today — about my cat. Marta will correct it.",
          "A milestone! Cats are a great topic."),
        R("Can you explain when to use 'tu' vs 'você' in Portugal?",
          "'Tu' with friends and family; with others, the name or 'o senhor/a senhora' is common."),
        R("The school librarian conference is in April, so my study time might dip.", "Understandable."),
        R("My pronunciation of 'obrigada' is finally not embarrassing.", "Progress!"),
        R("Is 'fixe' really slang for 'cool' in Portugal?", "Yes, 'fixe' is very common in Portugal."),
        R("Our Lisbon landlord sent a 14-page contract. All in Portuguese. Deep breath.",
          "Great reading practice, in a stressful way.", after="2025-03-01"),
        R("Watched a fado documentary. Cried a bit. Understood maybe a third.", "Fado will do that."),
        R("I made a vocab list of 30 words for the pharmacy, just in case.", "Very practical."),
        R("Duarte recommended a podcast called 'Portuguese With Carla'. Trying it this week.",
          "Sounds worth a try.", after="2025-02-09"),
        R("My reading glasses broke. Studying on the phone is now a squinting exercise.", "Time for a backup pair."),
        R("Rosa says I should practise by ordering at the Portuguese bakery every Saturday.",
          "Low stakes, high reward — and pastries."),
        R("Why is 'pequeno-almoço' breakfast? Small lunch?!", "Literally 'small lunch', yes."),
        R("Tom and I now speak Portuguese at dinner on Wednesdays. It's very slow.", "Slow is fine — it counts."),
        R("The app added a new 'Stories' feature. Fun, but it doesn't give much XP.", "Still good for reading."),
        R("My daughter is coming to visit Lisbon at Christmas. Already planning the tour.", "Lovely."),
    ]
    rng.shuffle(chat)

    a_renderers = {"complete": a_complete, "summary": a_summary, "terse": a_terse, "sentence": a_sentence,
                   "history": a_history}
    a_w = [("complete", 4), ("summary", 2), ("terse", 3), ("sentence", 3), ("history", 1)]
    t_layout = {"2025-01-14": "typed", "2025-01-21": "receipt", "2025-01-28": "short", "2025-02-01": "receipt",
                "2025-02-04": "list", "2025-02-08": "list", "2025-02-11": "typed", "2025-02-22": "receipt",
                "2025-02-25": "typed", "2025-03-01": "short", "2025-03-04": "receipt", "2025-03-11": "typed",
                "2025-03-15": "list", "2025-03-18": "list", "2025-03-22": "receipt", "2025-03-25": "typed",
                "2025-03-29": "short"}
    targets = [8, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 8, 8]
    recaps = 0
    for i, sdate in enumerate(sess_dates):
        core: list[dict] = []
        pending = sorted([r for r in app if r.report == i], key=lambda r: (r.obs, app.index(r)))
        # weekly recap: a completed Mon-Sun week whose every session is pending here
        weeks: dict[dt.date, list[Rec]] = {}
        for r in pending:
            weeks.setdefault(monday(r.obs), []).append(r)
        for w, rs in weeks.items():
            allw = [r for r in app if monday(r.obs) == w]
            if (w + 6 * ONE < sdate and allw == rs and 2 <= len(rs) <= 7 and len({r.obs for r in rs}) == len(rs)
                    and w in recap_weeks and not any(r.meta.get("late") for r in rs)):
                core.append(a_recap(rs, sdate))
                pending = [r for r in pending if r not in rs]
                recaps += 1
                break
        while pending:
            r = pending.pop(0)
            lay = pick([k for k, wgt in a_w for _ in range(wgt)])
            same_day = [x for x in app if x.obs == r.obs]
            if lay == "summary" and len(same_day) > 1:
                lay = "complete"
            if r.f["duration_min"] >= 60:
                lay = "sentence"
            group = [r]
            if lay == "history":
                while pending and len(group) < 3 and pending[0].f["duration_min"] < 60:
                    group.append(pending.pop(0))
                if len(group) == 1:
                    lay = "terse"
            elif lay == "terse" and pending and rng.random() < 0.4 and pending[0].f["duration_min"] < 60:
                group.append(pending.pop(0))
            core.append(a_renderers[lay](group, sdate))
        tl = [r for r in tutors if r.report == i]
        listed = [r for r in tl if t_layout[r.obs.isoformat()] == "list"]
        if listed:
            canc = (day("2025-03-08"), "Duarte M.") if i == 11 else None
            core.append(t_list(listed, sdate, cancelled=canc))
        for r in tl:
            lay = t_layout[r.obs.isoformat()]
            if lay != "list":
                core.append({"receipt": t_receipt, "typed": t_typed, "short": t_short}[lay]([r], sdate))
        core += facts.get(i, [])
        if i == 0:
            op = R("Olá! I'm learning European Portuguese before a sabbatical year in Lisbon. I'll send you my app "
                   "sessions and tutor lessons so I can see how I'm doing — Tom and I both use the Falando app.",
                   "Olá, Gwen! Happy to keep your study log.")
            op["opening"] = True
            core.insert(0, op)
        if i == 6:
            core.append(R("Disaster: I lost my streak on Sunday. Forgot completely. Back to 1. Tom is unbearable.",
                          "Streaks come back — the learning doesn't disappear."))
        if i == 6:
            core.append(R("Report-card season at school started last weekend, so my app sessions are short until "
                          "the end of the month. Quantity over quality, sorry Sardi.",
                          "Short sessions still keep the habit going."))
        if i == 7:
            core.append(R("Marta had the flu last Tuesday, so no lesson that week.",
                          "Hope she's feeling better. No lesson logged for that week."))
        if i == 10:
            core.append(R("Duarte cancelled Saturday's lesson, his kid was sick. No charge.",
                          "Understood, nothing to log for Saturday."))
        target = max(targets[i], len(core) + 1)
        rounds = fill_session(rng, core, chat, min(target, 10), sdate)
        S.add_session(sdate, rounds)
    assert recaps >= 3, recaps
    S.verify()
    language_questions(S)
    return S


def language_questions(S: Scenario):
    A = [r for r in S.records if r.rtype == "app_session"]
    T = [r for r in S.records if r.rtype == "tutor_lesson"]

    def between(recs, a, b):
        a, b = day(a), day(b)
        return [r for r in recs if a <= r.obs <= b]

    def in_month(recs, m):
        return [r for r in recs if r.obs.month == m]

    def has(recs, k):
        return [r for r in recs if k in r.f]

    types = list(LS_TYPES)

    # ---------------- AVG
    v = mean(r.f["xp"] for r in A)
    S.qa("AVG", "How much XP did I earn per app session on average?",
         f"{num(rnd(v, 1), 1)} XP per session on average.", rnd(v, 1), "number", rounds_of(A), tol=0.05, unit="XP")
    sub = has(in_month(A, 2), "duration_min")
    v = mean(r.f["duration_min"] for r in sub)
    S.qa("AVG", "In February 2025, how long did my app sessions last on average?",
         f"{num(rnd(v, 1), 1)} minutes per session on average (sessions with a time).", rnd(v, 1), "number",
         rounds_of(sub), tol=0.05, unit="minutes")
    sub = [r for r in A if r.f.get("lesson_type") == "listening" and "lessons_completed" in r.f]
    v = mean(r.f["lessons_completed"] for r in sub)
    S.qa("AVG", "How many lessons did I usually finish in a listening session — the average?",
         f"{num(rnd(v, 1), 1)} lessons per listening session on average.", rnd(v, 1), "number", rounds_of(sub),
         tol=0.05, unit="lessons")
    sub = has(A, "lesson_type")
    v = F(sum(1 for r in sub if r.f["lesson_type"] == "grammar") * 100, len(sub))
    S.qa("AVG", "Of the app sessions where I noted the lesson type, what percentage were grammar?",
         f"{num(rnd(v, 1), 1)}% of them were grammar.", rnd(v, 1), "number", rounds_of(sub), tol=0.05, unit="%")
    v = mean(r.f["duration_min"] for r in T)
    S.qa("AVG", "How long was a tutor lesson on average?", f"{num(rnd(v, 1), 1)} minutes on average.",
         rnd(v, 1), "number", rounds_of(T), tol=0.05, unit="minutes")
    sub = [r for r in T if r.f["tutor"] == "Marta"]
    v = mean(r.f["cost_usd"] for r in sub)
    S.qa("AVG", "What did a lesson with Marta cost me on average?", f"{usd(rnd(v, 2))} per lesson on average.",
         rnd(v, 2), "number", rounds_of(sub), tol=0.05, unit="USD")

    # ---------------- SUM
    sub = has(in_month(A, 3), "duration_min")
    v = total(r.f["duration_min"] for r in sub)
    S.qa("SUM", "How many minutes did I spend in the app in March 2025, counting sessions where the time was "
                "shown?", f"{num(float(v))} minutes in March 2025.", int(v), "number", rounds_of(sub),
         unit="minutes")
    sub = between(A, "2025-02-01", "2025-02-15")
    v = total(r.f["xp"] for r in sub)
    S.qa("SUM", "How much XP did I rack up between February 1 and February 15, 2025?",
         f"{num(float(v))} XP in that stretch.", int(v), "number", rounds_of(sub), unit="XP")
    v = total(r.f["cost_usd"] for r in T)
    S.qa("SUM", "What have I spent on tutoring altogether?", f"{usd(v)} on tutor lessons in total.", float(v),
         "number", rounds_of(T), tol=0.01, unit="USD")
    sub = in_month(T, 3)
    v = total(r.f["cost_usd"] for r in sub) - 150
    assert v > 0
    S.qa("SUM", "By how much did my March 2025 tutoring spending go over my monthly tutor budget?",
         f"{usd(v)} over: {usd(v + 150)} spent against a $150 budget.", float(v), "number",
         rounds_of(sub) + [S.facts["budget"]], tol=0.01, unit="USD")

    # ---------------- CNT
    sub = [r for r in A if r.f["xp"] >= 60]
    S.qa("CNT", "How many app sessions earned me 60 XP or more?", f"{len(sub)} sessions reached 60 XP or more.",
         len(sub), "number", rounds_of(sub), unit="sessions")
    per_day: dict[dt.date, int] = {}
    for r in A:
        per_day[r.obs] = per_day.get(r.obs, 0) + r.f["xp"]
    hit = sorted(d for d, x in per_day.items() if x >= 50)
    sub = [r for r in A if r.obs in hit]
    S.qa("CNT", "On how many days did I reach my daily XP goal?", f"{len(hit)} days met the 50 XP goal.",
         len(hit), "number", rounds_of(sub) + [S.facts["goal"]], unit="days")
    sub = [r for r in T if r.f["tutor"] == "Duarte"]
    S.qa("CNT", "How many lessons have I had with Duarte, trial included?", f"{len(sub)} lessons with Duarte.",
         len(sub), "number", rounds_of(sub), unit="lessons")
    sub = [r for r in in_month(A, 3) if r.f.get("lesson_type") == "speaking"]
    S.qa("CNT", "How many speaking sessions did I do in March 2025?", f"{len(sub)} speaking sessions in March.",
         len(sub), "number", rounds_of(sub), unit="sessions")
    sub = [r for r in A if r.f.get("duration_min", 0) > 20]
    S.qa("CNT", "How many of my app sessions went past 20 minutes?", f"{len(sub)} sessions lasted over 20 minutes.",
         len(sub), "number", rounds_of(sub), unit="sessions")

    # ---------------- MAX
    m = max(r.f["xp"] for r in A)
    S.qa("MAX", "What's the most XP I've earned in a single app session?", f"{m} XP in one session.", m, "number",
         rounds_of(A), unit="XP")
    sub = has(A, "duration_min")
    m = max(r.f["duration_min"] for r in sub)
    top = [r for r in sub if r.f["duration_min"] == m]
    assert len(top) == 1
    S.qa("MAX", "On what day did I have my longest app session?",
         f"{longdate(top[0].obs)} — {m} minutes.", top[0].obs.isoformat(), "date", rounds_of(sub))
    sub = [r for r in A if "lesson_type" in r.f and "duration_min" in r.f]
    per = {t: total(r.f["duration_min"] for r in sub if r.f["lesson_type"] == t) for t in types}
    ranked = sorted(types, key=lambda t: -per[t])
    assert per[ranked[0]] - per[ranked[1]] >= 20, per
    S.qa("MAX", "Which kind of lesson did I put the most app minutes into?",
         f"{ranked[0].capitalize()} — {num(float(per[ranked[0]]))} minutes.", ranked[0], "string", rounds_of(sub),
         cands=types)
    m = max(r.f["cost_usd"] for r in T)
    S.qa("MAX", "What was the most I paid for a single tutor lesson?", f"{usd(m)}.", m, "number", rounds_of(T),
         tol=0.01, unit="USD")

    # ---------------- MIN
    sub = has(A, "duration_min")
    m = min(r.f["duration_min"] for r in sub)
    S.qa("MIN", "What was my shortest app session, in minutes?", f"{m} minutes.", m, "number", rounds_of(sub),
         unit="minutes")
    sub = in_month(A, 3)
    m = min(r.f["xp"] for r in sub)
    low = [r for r in sub if r.f["xp"] == m]
    assert len(low) == 1
    S.qa("MIN", "On which day in March 2025 did I have my lowest-XP session?", f"{longdate(low[0].obs)}, with {m} XP.",
         low[0].obs.isoformat(), "date", rounds_of(sub))
    sub = has(A, "unit_topic")
    tops = sorted({r.f["unit_topic"] for r in sub})
    cnt = {t: total(r.f["xp"] for r in sub if r.f["unit_topic"] == t) for t in tops}
    ranked = sorted(tops, key=lambda t: cnt[t])
    assert cnt[ranked[1]] - cnt[ranked[0]] >= 10, cnt
    S.qa("MIN", "Among the course units I noted, which one did I earn the least XP in overall?",
         f"{ranked[0]} — only {num(float(cnt[ranked[0]]))} XP.", ranked[0], "string", rounds_of(sub), cands=tops)

    # ---------------- LAT
    sub = [r for r in A if r.f.get("lesson_type") == "speaking"]
    last = max(sub, key=lambda r: r.obs)
    S.qa("LAT", "When did I last do a speaking session?", f"{longdate(last.obs)}.", last.obs.isoformat(), "date",
         [last.rid])
    last = max(A, key=lambda r: (r.obs, r.meta.get("part") == "evening"))
    assert sum(1 for r in A if r.obs == last.obs) == 1
    S.qa("LAT", "How much XP did my most recent app session bring in?", f"{last.f['xp']} XP ({longdate(last.obs)}).",
         last.f["xp"], "number", [last.rid], unit="XP")
    last = max(T, key=lambda r: r.obs)
    S.qa("LAT", "Who was my most recent tutor lesson with?", f"{last.f['tutor']} ({longdate(last.obs)}).",
         last.f["tutor"], "string", [last.rid], cands=["Marta", "Duarte"])
    sub = [r for r in T if r.f["tutor"] == "Marta"]
    last = max(sub, key=lambda r: r.obs)
    S.qa("LAT", "How long was my latest lesson with Marta?", f"{last.f['duration_min']} minutes, on "
         f"{longdate(last.obs)}.", last.f["duration_min"], "number", [last.rid], unit="minutes")

    # ---------------- RNG
    sub = between(A, "2025-02-10", "2025-02-16")
    ds = sorted({r.obs.isoformat() for r in sub})
    S.qa("RNG", "Which days of the week of February 10–16, 2025 did I practise in the app?",
         "You practised on " + ", ".join(longdate(day(x)) for x in ds) + ".", ds, "list", rounds_of(sub))
    sub = [r for r in between(A, "2025-03-01", "2025-03-07") if "lesson_type" in r.f]
    ts = sorted({r.f["lesson_type"] for r in sub})
    assert len(ts) < 4
    S.qa("RNG", "What types of lessons did I do in the first week of March 2025?",
         "In the first week of March: " + ", ".join(ts) + ".", ts, "list", rounds_of(sub), cands=types)
    sub = in_month(T, 3)
    ds = sorted({r.obs.isoformat() for r in sub})
    S.qa("RNG", "On which dates did I have tutor lessons in March 2025?",
         "Tutor lessons on " + ", ".join(longdate(day(x)) for x in ds) + ".", ds, "list", rounds_of(sub))
    sub = [r for r in A if r.f["xp"] > 70]
    ds = sorted({r.obs.isoformat() for r in sub})
    S.qa("RNG", "List the days on which a single session earned more than 70 XP.",
         "Sessions over 70 XP on " + ", ".join(longdate(day(x)) for x in ds) + ".", ds, "list", rounds_of(sub))

    # ---------------- CMP
    sa = [r for r in A if r.f.get("lesson_type") == "listening" and "duration_min" in r.f]
    sb = [r for r in A if r.f.get("lesson_type") == "grammar" and "duration_min" in r.f]
    a, b = total(r.f["duration_min"] for r in sa), total(r.f["duration_min"] for r in sb)
    assert gap_ok(a, b, abs_=20), (a, b)
    win = "listening" if a > b else "grammar"
    S.qa("CMP", "In total app minutes, did I do more listening or more grammar?",
         f"{win.capitalize()} — {num(float(max(a, b)))} minutes versus {num(float(min(a, b)))}.", win, "string",
         rounds_of(sa + sb), cands=["listening", "grammar"])
    sa, sb = [r for r in T if r.f["tutor"] == "Marta"], [r for r in T if r.f["tutor"] == "Duarte"]
    a, b = mean(r.f["duration_min"] for r in sa), mean(r.f["duration_min"] for r in sb)
    assert gap_ok(a, b, rel=0.015)
    win = "Marta" if a > b else "Duarte"
    S.qa("CMP", "Whose lessons run longer on average, Marta's or Duarte's?",
         f"{win}'s — {num(rnd(max(a, b), 1), 1)} minutes on average against {num(rnd(min(a, b), 1), 1)}.", win,
         "string", rounds_of(sa + sb), cands=["Marta", "Duarte"])
    sa, sb = in_month(T, 2), in_month(T, 3)
    a, b = total(r.f["cost_usd"] for r in sa), total(r.f["cost_usd"] for r in sb)
    assert gap_ok(a, b, abs_=10)
    win = "February" if a > b else "March"
    S.qa("CMP", "Did I spend more on tutors in February or in March 2025?",
         f"{win} — {usd(max(a, b))} against {usd(min(a, b))}.", win, "string", rounds_of(sa + sb),
         cands=["February", "March"])
    sa = has(between(A, "2025-02-01", "2025-02-14"), "duration_min")
    sb = has(between(A, "2025-02-15", "2025-02-28"), "duration_min")
    a, b = mean(r.f["duration_min"] for r in sa), mean(r.f["duration_min"] for r in sb)
    assert gap_ok(a, b, rel=0.015), (a, b)
    win = "first half" if a > b else "second half"
    S.qa("CMP", "Were my app sessions longer on average in the first half of February 2025 (Feb 1–14) or the "
                "second half (Feb 15–28)?",
         f"The {win} — {num(rnd(max(a, b), 1), 1)} minutes per session against {num(rnd(min(a, b), 1), 1)}.", win,
         "string", rounds_of(sa + sb), cands=["first half", "second half"])

    # ---------------- TRD
    sa, sb = in_month(A, 1), in_month(A, 3)
    a, b = mean(r.f["xp"] for r in sa), mean(r.f["xp"] for r in sb)
    assert gap_ok(a, b, rel=0.015)
    t = "increased" if b > a else "decreased"
    S.qa("TRD", "Comparing January with March 2025, did my average XP per session go up or down?",
         f"It {t}: {num(rnd(a, 1), 1)} XP per session in January, {num(rnd(b, 1), 1)} in March.", t, "string",
         rounds_of(sa + sb), cands=["increased", "decreased"])
    sa, sb = in_month(T, 1), in_month(T, 3)
    a, b = total(r.f["cost_usd"] for r in sa), total(r.f["cost_usd"] for r in sb)
    assert gap_ok(a, b, abs_=10)
    t = "increased" if b > a else "decreased"
    S.qa("TRD", "From January to March 2025, did my monthly spending on tutors rise or fall?",
         f"It {t}: {usd(a)} in January, {usd(b)} in March.", t, "string", rounds_of(sa + sb),
         cands=["increased", "decreased"])
    sa, sb = has(in_month(A, 1), "lessons_completed"), has(in_month(A, 3), "lessons_completed")
    a, b = mean(r.f["lessons_completed"] for r in sa), mean(r.f["lessons_completed"] for r in sb)
    assert gap_ok(a, b, rel=0.015), (a, b)
    t = "increased" if b > a else "decreased"
    S.qa("TRD", "Between January and March 2025, did the number of lessons I finished per session trend up or "
                "down?",
         f"It {t}: {num(rnd(a, 2), 2)} lessons per session in January, {num(rnd(b, 2), 2)} in March.", t, "string",
         rounds_of(sa + sb), cands=["increased", "decreased"])

    # ---------------- RET
    S.qa("RET", "What did I set my daily XP goal to?", "50 XP a day.", 50, "number", [S.facts["goal"]], unit="XP")
    S.qa("RET", "Which city is Marta from?", "Coimbra.", "Coimbra", "string", [S.facts["hometown"]])
    S.qa("RET", "Which exam am I planning to take in June?", "The CIPLE (A2 level).", "CIPLE", "string",
         [S.facts["exam"]])
    S.qa("RET", "What's my monthly budget for tutors?", "$150 a month.", 150, "number", [S.facts["budget"]],
         unit="USD")
    S.qa("RET", "Which textbook did Marta ask me to get?", "Passaporte para Portugal.", "Passaporte para Portugal",
         "string", [S.facts["textbook"]])
    S.qa("RET", "What neighbourhood is our Lisbon flat in?", "Campo de Ourique, near the market.",
         "Campo de Ourique", "string", [S.facts["flat"]])
    S.qa("RET", "When is my flight to Lisbon?", "August 28, 2025, Boston to Lisbon.", "2025-08-28", "date",
         [S.facts["flight"]])
    S.qa("RET", "How much did I pay for the year of Falando Plus?", "$84 for the year.", 84, "number",
         [S.facts["plus"]], unit="USD")


# ================================================================== main

def main() -> int:
    built = []
    for fn in (build_freelance, build_language):
        try:
            built.append(fn())
        except AssertionError as exc:
            print(f"consistency check failed in {fn.__name__}: {exc}", file=sys.stderr)
            raise
    for S in built:
        S.write()
        print(S.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
