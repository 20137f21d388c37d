#!/usr/bin/env python3
"""Deterministic generator of two invented-vocabulary analytic-memory scenarios.

    python3 generate.py        # writes dialog/<scenario>.json and records/<scenario>.jsonl

Scenarios (see README.md):
  glimmet_keeping   -- tending four glimmets: threnn (qelts), murl (dovs), skep (pips), sael, minutes
  skellick_gleaning -- gleaning skellick on the moors (vels / dram-vels, ords, nells, km) and selling it
                       at the moot (GBP)

Python 3.11 standard library only.  Every random draw comes from a random.Random seeded with a
fixed string, gold answers come from exact Fraction / Decimal arithmetic over the very records
rendered into the dialogue, and nothing depends on set or dict ordering, so the output is
byte-identical on every run.  Nothing is written unless the validation at the bottom passes.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import random
import re
import sys
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

HERE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent  # where dialog/ and records/ go
WD = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MN = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
      "November", "December")
DAY = dt.timedelta(days=1)
SAME_DAY = ("", "today", "tonight", "this morning", "this evening", "this afternoon")
PREV_DAY = ("yesterday", "last night", "yesterday evening", "yesterday morning", "yesterday afternoon")


# ============================================================================ common helpers

def D(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def q(x: float, places: int = 1) -> Decimal:
    """A float rounded half-up to ``places`` decimals, as a Decimal."""
    return Decimal(repr(x)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)


def rfrac(fr: Fraction, places: int) -> Decimal:
    """Exact half-up rounding of a Fraction."""
    scaled = fr * 10 ** places
    n = math.floor(scaled + Fraction(1, 2)) if scaled >= 0 else -math.floor(-scaled + Fraction(1, 2))
    return Decimal(n).scaleb(-places) if places else Decimal(n)


def jv(x):
    """A Decimal / int / str as the JSON value it is stored as."""
    if isinstance(x, Decimal):
        return int(x) if x == x.to_integral_value() and x.as_tuple().exponent >= 0 else float(x)
    return x


def money(x: Decimal) -> str:
    return f"{x:.2f}"


def written(x: dt.date, style: str) -> str:
    m = MN[x.month - 1]
    return {"md": f"{m[:3]} {x.day}", "mdl": f"{m} {x.day}", "dm": f"{x.day} {m[:3]}", "dml": f"{x.day} {m}",
            "iso": x.isoformat(), "wdm": f"{WD[x.weekday()][:3]} {x.day} {m[:3]}",
            "wdml": f"{WD[x.weekday()]} {x.day} {m}"}[style]


def rel_cue(rng: random.Random, obs: dt.date, ses: dt.date, same=("", "tonight", "this evening"),
            prev=("yesterday", "last night"), styles=("md", "dm", "mdl")) -> str:
    """How a user refers to ``obs`` on ``ses``: nothing/today, yesterday, a weekday, or a written date."""
    delta = (ses - obs).days
    assert delta >= 0, (obs, ses)
    if delta == 0:
        return rng.choice(same)
    if delta == 1:
        return rng.choice(prev)
    if delta <= 6:
        return WD[obs.weekday()]
    return written(obs, rng.choice(styles))


def when(cue: str) -> str:
    """' tonight', ' yesterday', ' on Thursday', ' on Mar 10' or ''."""
    if cue in SAME_DAY or cue in PREV_DAY:
        return f" {cue}" if cue else ""
    return f" on {cue}"


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def resolve(form: str, ses: dt.date) -> dt.date | None:
    """The day a date cue points to, seen from session date ``ses``."""
    f = form.strip().lower().rstrip(".")
    if f in SAME_DAY:
        return ses
    if f in PREV_DAY:
        return ses - DAY
    for i, w in enumerate(WD):
        if f in (w.lower(), w[:3].lower()):
            delta = (ses.weekday() - i) % 7
            return ses - delta * DAY if 1 <= delta <= 6 else None
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", f)
    if m:
        return dt.date(*map(int, m.groups()))
    m = re.fullmatch(r"(?:([a-z]{3,9}),? )?([a-z]{3,9}) (\d{1,2})", f)
    if m:
        wd, mon, day = m.groups()
    else:
        m = re.fullmatch(r"(?:([a-z]{3,9}),? )?(\d{1,2}) ([a-z]{3,9})", f)
        if not m:
            return None
        wd, day, mon = m.groups()
    months = [x for x in MN if x.lower().startswith(mon) and len(mon) >= 3]
    if len(months) != 1:
        return None
    x = dt.date(ses.year, MN.index(months[0]) + 1, int(day))
    if wd and not WD[x.weekday()].lower().startswith(wd):
        return None
    return x


_CUE_RX = re.compile(r"\b(?:yesterday|last night|" + "|".join(WD) + r")\b|\b\d{4}-\d{2}-\d{2}\b|"
                     r"\b(?:" + "|".join(m[:3] for m in MN) + r")[a-z]*\.? \d{1,2}\b|"
                     r"\b\d{1,2} (?:" + "|".join(m[:3] for m in MN) + r")", re.I)


def has_cue(text: str) -> bool:
    return bool(_CUE_RX.search(text))


def parse_num(form: str) -> Decimal:
    return Decimal(re.search(r"\d+(?:\.\d+)?", form).group(0))


def parse_min(form: str) -> Decimal:
    m = re.search(r"(\d+)\s*h(?:ours?|r)?\s*(\d+)", form) or re.search(r"(\d+):(\d{2})", form)
    if m:
        return Decimal(int(m.group(1)) * 60 + int(m.group(2)))
    return parse_num(form)


def parse_vel(form: str) -> Decimal:
    m = re.search(r"(\d+(?:\.\d+)?)\s*(?:dram-vels?|dv)\b(?:\s*(?:and\s+)?(\d+)\s*(?:vels?|v)\b)?", form)
    if m:
        return Decimal(m.group(1)) * 12 + (int(m.group(2)) if m.group(2) else 0)
    return parse_num(form)


def parser_for(field: str):
    if field.endswith("_min"):
        return parse_min
    if field.endswith("_vel"):
        return parse_vel
    return parse_num


# ============================================================================ assembling a scenario

class Scenario:
    """Sessions of rounds; each round may carry records (with the literal forms they were shown in)."""

    def __init__(self, name: str, profile: dict):
        self.name, self.profile = name, profile
        self.sessions: list[dict] = []      # {"id", "date", "rounds": [round dicts]}
        self.facts: dict[str, str] = {}      # tag -> round id
        self.qas: list[dict] = []

    # -- building ------------------------------------------------------------------------------
    def add_session(self, date: dt.date, rounds: list[dict]) -> None:
        sid = f"D{len(self.sessions) + 1}"
        img = 0
        for i, r in enumerate(rounds, 1):
            r["id"] = f"{sid}:{i}"
            r["ids"], r["paths"] = [], []
            for _ in r["captions"]:
                img += 1
                r["ids"].append(f"{sid}:IMG_{img:03d}")
                r["paths"].append(f"../image/{self.name}/{sid}_IMG_{img:03d}.jpg")
            if r.get("tag"):
                assert r["tag"] not in self.facts, r["tag"]
                self.facts[r["tag"]] = r["id"]
        self.sessions.append({"id": sid, "date": date, "rounds": rounds})

    def all_rounds(self):
        for s in self.sessions:
            for r in s["rounds"]:
                yield s, r

    def records(self) -> list[dict]:
        out = []
        for s, r in self.all_rounds():
            for rec in r["records"]:
                out.append({"round": r["id"], "obs": rec["obs"], "type": rec["type"], "f": rec["f"]})
        return out

    def order(self) -> dict[str, int]:
        return {r["id"]: i for i, (_, r) in enumerate(self.all_rounds())}

    # -- questions -----------------------------------------------------------------------------
    def add(self, point: str, question: str, answer: str, value, atype: str, clue, tol=0, unit=None,
            cands=None) -> None:
        order = self.order()
        clue = sorted(set(clue), key=order.__getitem__)
        assert clue, question
        sids: list[str] = []
        for c in clue:
            s = c.split(":")[0]
            if s not in sids:
                sids.append(s)
        qa = {"point": point, "question": question, "answer": answer, "session_id": sids, "clue": clue,
              "answer_value": value, "answer_type": atype, "tolerance": tol}
        if unit:
            qa["unit"] = unit
        if cands:
            qa["candidates"] = list(cands)
        self.qas.append(qa)

    # -- output --------------------------------------------------------------------------------
    def dialog_json(self) -> dict:
        sessions = []
        for s in self.sessions:
            rounds = [{"round": r["id"], "user": r["user"], "assistant": r["assistant"], "image_id": r["ids"],
                       "input_image": r["paths"], "image_caption": r["captions"]} for r in s["rounds"]]
            sessions.append({"session_id": s["id"], "date": s["date"].isoformat(), "dialogues": rounds})
        return {"character_profile": self.profile, "multi_session_dialogues": sessions,
                "human-annotated QAs": self.qas}

    def records_jsonl(self) -> str:
        lines = []
        for rec in self.records():
            fields = {k: jv(v) for k, v in rec["f"].items()}
            lines.append(json.dumps({"round": rec["round"], "observed": rec["obs"].isoformat(),
                                     "record_type": rec["type"], "fields": fields}, ensure_ascii=False))
        return "\n".join(lines) + "\n"


def assemble(rng: random.Random, log_rounds: list[dict], fixed: list[dict], smalltalk: list[tuple[str, str]],
             lo: int = 7, hi: int = 9) -> list[dict]:
    """Log rounds (in order) + the session's fixed rounds + small talk, 6-10 rounds in all."""
    rounds = list(log_rounds)
    firsts = [f for f in fixed if f.get("first")]
    for f in fixed:
        if not f.get("first"):
            rounds.insert(rng.randint(0, len(rounds)), f)
    target = rng.randint(lo, hi)
    n_small = max(1, target - len(rounds) - len(firsts))
    n_small = min(n_small, 10 - len(rounds) - len(firsts))
    for _ in range(n_small):
        u, a = smalltalk.pop(0)
        rounds.insert(rng.randint(0, len(rounds)), {"user": u, "assistant": a, "captions": [], "records": []})
    rounds = firsts + rounds
    assert 6 <= len(rounds) <= 10, len(rounds)
    return rounds


def fixed_round(user: str, assistant: str, caption: str | None = None, tag: str | None = None,
                first: bool = False) -> dict:
    return {"user": user, "assistant": assistant, "captions": [caption] if caption else [], "records": [],
            "tag": tag, "first": first}


# ============================================================================ validation

def validate(sc: Scenario) -> None:
    dates = [s["date"] for s in sc.sessions]
    for s in sc.sessions:
        assert any(r["records"] for r in s["rounds"]), f"{s['id']} has no records"
    assert dates == sorted(dates) and len(set(dates)) == len(dates)
    for s, r in sc.all_rounds():
        assert 6 <= len(s["rounds"]) <= 10
        text = " ".join([r["user"], *r["captions"]])
        low = text.lower()
        for rec in r["records"]:
            assert rec["obs"] <= s["date"], (r["id"], rec)
            got = resolve(rec["date_form"], s["date"])
            assert got == rec["obs"], (r["id"], rec["date_form"], got, rec["obs"])
            if rec["date_form"]:
                assert rec["date_form"].lower() in low, (r["id"], rec["date_form"])
            else:
                assert len(r["records"]) == 1 and not has_cue(text), (r["id"], text)
            assert set(rec["forms"]) == set(rec["f"]), (r["id"], rec["forms"], rec["f"])
            for k, v in rec["f"].items():
                form = rec["forms"][k]
                if isinstance(v, str):
                    assert v.lower() in form.lower() and form.lower() in low, (r["id"], k, v, form)
                else:
                    assert form.lower() in low, (r["id"], k, form)
                    assert parser_for(k)(form) == v, (r["id"], k, form, v)
    for qa in sc.qas:
        assert qa["point"] in ("AVG", "SUM", "CNT", "MAX", "MIN", "LAT", "RNG", "CMP", "TRD", "RET")
        order = sc.order()
        assert all(c in order for c in qa["clue"])
        v = qa["answer_value"]
        if qa["answer_type"] == "list":
            assert v == sorted(set(v)) and v, qa
            if qa.get("candidates"):
                assert set(v) <= set(qa["candidates"])
        if qa["answer_type"] == "string" and qa.get("candidates"):
            assert v in qa["candidates"], qa
    qs = [qa["question"] for qa in sc.qas]
    assert len(qs) == len(set(qs))


def need(cond: bool, msg: str) -> None:
    if not cond:
        raise SystemExit(f"margin check failed: {msg}")


# ============================================================================ query helpers

def sel(recs, typ, lo=None, hi=None, pred=None, has=None):
    out = []
    for r in recs:
        if r["type"] != typ:
            continue
        if lo and r["obs"] < lo or hi and r["obs"] > hi:
            continue
        if has and has not in r["f"]:
            continue
        if pred and not pred(r["f"]):
            continue
        out.append(r)
    return out


def mean(rs, f) -> Fraction:
    vals = [Fraction(r["f"][f]) for r in rs if f in r["f"]]
    assert vals
    return sum(vals, Fraction(0)) / len(vals)


def total(rs, f) -> Fraction:
    return sum((Fraction(r["f"][f]) for r in rs if f in r["f"]), Fraction(0))


def rids(rs) -> list[str]:
    return [r["round"] for r in rs]


def month(y: int, m: int) -> tuple[dt.date, dt.date]:
    first = dt.date(y, m, 1)
    nxt = dt.date(y + m // 12, m % 12 + 1, 1)
    return first, nxt - DAY


def nice_date(x: dt.date) -> str:
    return f"{MN[x.month - 1]} {x.day}, {x.year}"


def rel_gap(a: Fraction, b: Fraction) -> Fraction:
    return abs(a - b) / max(abs(a), abs(b))


# ============================================================================ scenario A: glimmet keeping

A_NAME = "glimmet_keeping"
A_SEED = "glimmet-keeping/v39"
GL = ("Vashti", "Oremko", "Tisbel", "Gannow")
PRON = {"Vashti": ("she", "her"), "Oremko": ("he", "him"), "Tisbel": ("she", "her"), "Gannow": ("he", "him")}
SAEL = ("ollun", "tessim", "quorl", "brask")
A_P = {"Vashti": 0.27, "Oremko": 0.21, "Tisbel": 0.19, "Gannow": 0.18}
A_SAEL_W = {"Vashti": (50, 25, 15, 10), "Oremko": (25, 20, 35, 20), "Tisbel": (25, 50, 10, 15),
            "Gannow": (20, 15, 20, 45)}
A_THR = {"Vashti": 13.6, "Oremko": 12.3, "Tisbel": 15.4, "Gannow": 11.2}
A_MURL = {"Vashti": 2.7, "Oremko": 3.1, "Tisbel": 3.35, "Gannow": 3.75}
A_MINS = {"ollun": (28, 50), "tessim": (22, 45), "quorl": (10, 25), "brask": (8, 20)}
A_START, A_END = D("2025-03-01"), D("2025-05-17")
A_SWITCH = D("2025-04-06")                       # wintermoss bedding, no tending that day
A_TRIP = (D("2025-04-17"), D("2025-04-21"))      # away at her sister's
A_THIN = Decimal("12")                           # Halvard's rule: threnn under 12 qelts is "thin"
A_SESSIONS = ["2025-03-03", "2025-03-08", "2025-03-14", "2025-03-20", "2025-03-26", "2025-04-01", "2025-04-06",
              "2025-04-12", "2025-04-16", "2025-04-24", "2025-04-30", "2025-05-06", "2025-05-11", "2025-05-17"]
A_TABLE = {2, 5, 9, 11}
A_LIST = {1, 4, 7, 10, 13}
A_LOG2 = {3, 12}

SAEL_LINES = {
    "ollun": ("{P} was ollun the whole time.", "Very ollun, curled up in the moss.", "Ollun, heavy and dozy in my hand.",
              "Sael: ollun."),
    "tessim": ("{P} was tessim, chasing the reader cable.", "Full tessim, zooming round the cork tube.",
               "Tessim and nosy.", "Sael: tessim."),
    "quorl": ("{P} was quorl, sulking under the bark.", "Properly quorl, wouldn't leave the tube.", "A bit quorl.",
              "Sael: quorl."),
    "brask": ("{P} was brask, nipped my sleeve twice.", "Brask. Hissed at the reader.", "Brask and twitchy.",
              "Sael: brask."),
}


def a_events(rng: random.Random) -> list[dict]:
    evs = []
    x = A_START
    while x <= A_END:
        if x != A_SWITCH and not (A_TRIP[0] <= x <= A_TRIP[1]):
            for g in GL:
                if rng.random() < A_P[g]:
                    evs.append(a_make(rng, g, x))
        x += DAY
    return evs


def a_make(rng: random.Random, g: str, x: dt.date) -> dict:
    sael = rng.choices(SAEL, weights=A_SAEL_W[g])[0]
    days = (x - A_START).days
    thr = (A_THR[g] + 0.012 * days + (1.7 if x > A_SWITCH else 0.0)
           + {"quorl": -0.6, "tessim": 0.4}.get(sael, 0.0) + rng.gauss(0, 0.9))
    thr = q(min(max(thr, 8.2), 22.8))
    murl = A_MURL[g] + (0.3 if sael == "brask" else 0.0) - (0.3 if x.month == 5 else 0.0) + rng.gauss(0, 0.28)
    murl = q(min(max(murl, 1.6), 4.9))
    lo, hi = A_MINS[sael]
    mins = rng.randint(lo, hi)
    if rng.random() < 0.35:
        mins = max(5, 5 * round(mins / 5))
    if sael in ("ollun", "tessim") and rng.random() < 0.12:
        mins = rng.randint(60, 80)
    f: dict = {"glimmet": g, "threnn_qelt": thr}
    if rng.random() > 0.06:
        f["murl_dov"] = murl
    if rng.random() < 0.6:
        f["skep_pip"] = rng.randint(0, 6) + (1 if g == "Tisbel" else 0)
    f["sael"] = sael
    if rng.random() > 0.09:
        f["tending_min"] = Decimal(mins)
    return {"obs": x, "type": "tending", "f": f}


def pips(n) -> str:
    return "pip" if n == 1 else "pips"


def a_min(rng: random.Random, n: Decimal, long_ok=True) -> str:
    n = int(n)
    if n >= 60 and long_ok and rng.random() < 0.65:
        h, m = divmod(n, 60)
        return rng.choice((f"{h} h {m:02d} min", f"{h}h{m:02d}", f"{h} hr {m} min"))
    return rng.choice((f"{n} min", f"{n} minutes", f"{n}m", f"{n} mins"))


def a_rec(ev: dict, forms: dict, date_form: str) -> dict:
    return {"obs": ev["obs"], "type": ev["type"], "f": ev["f"], "forms": forms, "date_form": date_form}


def a_device(rng, ev, ses):
    f, obs = ev["f"], ev["obs"]
    g = f["glimmet"]
    he, him = PRON[g]
    forms = {"glimmet": g, "sael": f["sael"]}
    scr = [f"THRN {f['threnn_qelt']}q"]
    forms["threnn_qelt"] = scr[0]
    if "murl_dov" in f:
        scr.append(f"MURL {f['murl_dov']}dv")
        forms["murl_dov"] = scr[-1]
    else:
        scr.append("MURL --")
    if "skep_pip" in f:
        scr.append(f"SKEP {f['skep_pip']}p")
        forms["skep_pip"] = scr[-1]
    quoted = ", ".join(f"'{s}'" for s in scr)
    show_date = rng.random() < 0.3
    sdate = f"{WD[obs.weekday()][:3].upper()} {obs.day} {MN[obs.month - 1][:3].upper()}"
    dpart = f" with '{sdate}' in small digits along the top" if show_date else ""
    bat, temp = rng.randint(18, 96), rng.choice((19, 20, 21, 22, 23))
    style = rng.randrange(3)
    if style == 0:
        capt = (f"Photo of a palm-sized handheld reader with an amber backlit screen; 'KESTROW L-7' is embossed above "
                f"the display. The screen shows {quoted}{dpart}, and a battery glyph at {bat}%. The reader is held "
                f"against the glass of a moss-filled tank.")
    elif style == 1:
        capt = (f"Close-up of a small grey device with a segment display, lines reading {quoted}{dpart}. A strip of "
                f"masking tape on the casing says 'L-7'. Out of focus behind it: a warm lamp and a cork tube.")
    else:
        capt = (f"Slightly blurry phone photo of the Kestrow reader lying on a folded tea towel. Its display reads "
                f"{quoted}{dpart}; a room thermometer beside it shows {temp}°C.")
    if show_date and rng.random() < 0.6:
        cue, date_form = "", sdate
    else:
        cue = rel_cue(rng, obs, ses)
        date_form = cue if cue or not show_date else sdate
    sael_s = rng.choice(SAEL_LINES[f["sael"]]).format(P=cap(he))
    mt = a_min(rng, f["tending_min"]) if "tending_min" in f else None
    if mt:
        forms["tending_min"] = mt
    pre = "First go gave ERR 2, so this is the second try. " if rng.random() < 0.12 else ""
    v = rng.randrange(3)
    if v == 0 and mt:
        user = f"{pre}{g}{when(cue)}, {mt} with {him}. {sael_s}"
    elif v == 1:
        tail = f" {mt} in total." if mt else " Didn't time it."
        user = f"{pre}Reader shot for {g}{when(cue)}. {sael_s}{tail}"
    else:
        head = f"{cap(cue)}: {g}." if cue and cue not in SAME_DAY else f"{g}{when(cue)}."
        tail = f" Sat with {him} for {mt}." if mt else ""
        user = f"{pre}{head} {sael_s}{tail}"
    return {"user": user, "captions": [capt], "records": [a_rec(ev, forms, date_form)]}


def a_entry(rng, ev, style):
    f = ev["f"]
    g = f["glimmet"]
    forms = {"glimmet": g, "sael": f["sael"]}
    parts = []
    if style == 0:
        forms["threnn_qelt"] = f"threnn {f['threnn_qelt']} qelts"
        parts.append(forms["threnn_qelt"])
        if "murl_dov" in f:
            forms["murl_dov"] = f"murl {f['murl_dov']} dovs"
            parts.append(forms["murl_dov"])
        else:
            parts.append("murl —")
        if "skep_pip" in f:
            forms["skep_pip"] = f"skep {f['skep_pip']} {pips(f['skep_pip'])}"
            parts.append(forms["skep_pip"])
        parts.append(f"sael: {f['sael']}")
        if "tending_min" in f:
            forms["tending_min"] = a_min(rng, f["tending_min"], long_ok=False)
            parts.append(forms["tending_min"])
        return f"{g} — " + " / ".join(parts), forms
    forms["threnn_qelt"] = f"{f['threnn_qelt']}q thr"
    parts.append(forms["threnn_qelt"])
    if "murl_dov" in f:
        forms["murl_dov"] = f"{f['murl_dov']} murl"
        parts.append(forms["murl_dov"])
    if "skep_pip" in f:
        forms["skep_pip"] = f"sk {f['skep_pip']}"
        parts.append(forms["skep_pip"])
    parts.append(f["sael"])
    if "tending_min" in f:
        forms["tending_min"] = f"{int(f['tending_min'])}m"
        parts.append(forms["tending_min"])
    return f"{g}: " + ", ".join(parts), forms


def a_logbook(rng, evs, ses):
    recs, bits = [], []
    style = rng.randrange(2)
    heads: dict = {}
    for ev in evs:
        head = heads.get(ev["obs"]) or written(ev["obs"], rng.choice(("wdm", "dml", "mdl")))
        entry, forms = a_entry(rng, ev, style)
        if ev["obs"] in heads:
            bits[-1] = (head, bits[-1][1] + "' and '" + entry)
        else:
            bits.append((head, entry))
        heads[ev["obs"]] = head
        recs.append(a_rec(ev, forms, head))
    if len(bits) == 1 and len(evs) == 1:
        (head, entry), = bits
        capt = (f"Photo of a lined notebook page in blue ink, a little smudged. Heading '{head}'. Entry: '{entry}'. "
                f"A pressed leaf is taped into the margin.")
        user = rng.choice(("Found a page from my paper log I never sent you.", "Logbook page, couldn't face typing.",
                           "From the paper log:", "Adding this one from the notebook."))
    else:
        inner = " ".join(f"Under '{h}': '{e}'." for h, e in bits)
        if len(bits) == 1:
            inner = f"Under '{bits[0][0]}', two entries: '{bits[0][1]}'."
        capt = (f"Photo of a spiral logbook open on a desk, entries in pencil. {inner} A doodle of a glimmet with "
                f"enormous eyes sits in the margin.")
        user = rng.choice(("Two from the logbook.", "Paper log, couple of entries I hadn't sent.",
                           "Notebook page — both of these still need logging."))
    return {"user": user, "captions": [capt], "records": recs}


def a_prose(rng, ev, ses):
    f, obs = ev["f"], ev["obs"]
    g = f["glimmet"]
    he, him = PRON[g]
    cue = rel_cue(rng, obs, ses, same=("", "tonight", "this evening", "this morning"))
    forms = {"glimmet": g, "sael": f["sael"]}
    t = f["threnn_qelt"]
    mt = a_min(rng, f["tending_min"]) if "tending_min" in f else None
    if mt:
        forms["tending_min"] = mt
    skep = ""
    if "skep_pip" in f:
        forms["skep_pip"] = rng.choice((f"skep {f['skep_pip']}", f"{f['skep_pip']} {pips(f['skep_pip'])} of skep"))
        skep = forms["skep_pip"]
    if "murl_dov" in f:
        forms["murl_dov"] = f"{f['murl_dov']} dovs"
    v = rng.randrange(4)
    if v == 0:
        forms["threnn_qelt"] = f"{t} qelts"
        murl = f"murl {f['murl_dov']} dovs" if "murl_dov" in f else "murl wouldn't register"
        lead = f"Spent {mt} with {g}{when(cue)}." if mt else f"Tended {g}{when(cue)}, didn't time it."
        sk = f", {skep}" if skep else ""
        user = f"{lead} Threnn came in at {t} qelts, {murl}{sk}, and {he} was {f['sael']} most of the time."
    elif v == 1:
        forms["threnn_qelt"] = f"{t} qelts of threnn"
        lead = f"{cap(cue)}: {g}." if cue and cue not in SAME_DAY else f"{g}{when(cue)}."
        murl = f" Murl {f['murl_dov']} dovs." if "murl_dov" in f else " No murl, the reader timed out."
        sk = f" {cap(skep)}." if skep else ""
        tail = f" About {mt} all in." if mt else ""
        user = f"{lead} {t} qelts of threnn, which I'll take.{murl}{sk} {rng.choice(SAEL_LINES[f['sael']]).format(P=cap(he))}{tail}"
    elif v == 2:
        forms["threnn_qelt"] = f"threnn {t} q"
        if "murl_dov" in f:
            forms["murl_dov"] = f"murl {f['murl_dov']} dv"
        murl = f", {forms['murl_dov']}" if "murl_dov" in f else ""
        sk = f", {skep}" if skep else ""
        dur = f" — {mt}" if mt else ""
        user = f"Did {g}'s tending{when(cue)}{dur}. Threnn {t} q{murl}{sk}. {cap(f['sael'])}, start to finish."
    else:
        forms["threnn_qelt"] = f"{t} qelts"
        murl = f" and murl sitting at {f['murl_dov']} dovs" if "murl_dov" in f else ""
        sk = f" Counted {f['skep_pip']} {pips(f['skep_pip'])} of skep." if skep else ""
        if skep:
            forms["skep_pip"] = f"{f['skep_pip']} {pips(f['skep_pip'])} of skep"
        tail = f" Roughly {mt}." if mt else ""
        lead = f"{g}{when(cue)}: {he} was {f['sael']}, threnn {t} qelts{murl}."
        user = f"{lead}{sk}{tail}"
    return {"user": user, "captions": [], "records": [a_rec(ev, forms, cue)]}


def a_card(rng, ev, ses):
    f, obs = ev["f"], ev["obs"]
    g = f["glimmet"]
    dform = written(obs, rng.choice(("wdm", "dml", "iso")))
    forms = {"glimmet": g, "sael": f["sael"], "threnn_qelt": f"Threnn {f['threnn_qelt']} qelts"}
    rows = [forms["threnn_qelt"]]
    if "murl_dov" in f:
        forms["murl_dov"] = f"Murl {f['murl_dov']} dovs"
        rows.append(forms["murl_dov"])
    else:
        rows.append("Murl –")
    if "skep_pip" in f:
        forms["skep_pip"] = f"Skep {f['skep_pip']} {pips(f['skep_pip'])}"
        rows.append(forms["skep_pip"])
    rows.append(f"Sael {cap(f['sael'])}")
    if "tending_min" in f:
        forms["tending_min"] = f"Time {int(f['tending_min'])} min"
        rows.append(forms["tending_min"])
    else:
        rows.append("Time –")
    capt = (f"Screenshot of the Warrenkeep app: a tending card with a sage-green header '{g}' and the date "
            f"'{dform}'. Rows: {' · '.join(rows)}. A sparkline of earlier threnn values runs underneath without labels.")
    user = rng.choice((f"Warrenkeep card for {g}.", "From the app.", "Screenshot, saves typing.", "App card 👇",
                       f"{g}, logged in Warrenkeep first."))
    return {"user": user, "captions": [capt], "records": [a_rec(ev, forms, dform)]}


def a_daylabel(rng, obs, ses):
    delta = (ses - obs).days
    if delta == 0:
        return "today"
    if delta == 1:
        return "yesterday"
    if delta <= 6:
        return rng.choice((WD[obs.weekday()], WD[obs.weekday()][:3]))
    return written(obs, rng.choice(("md", "dm")))


def a_list(rng, evs, ses):
    style = rng.randrange(2)
    lines, recs = [], []
    for ev in evs:
        f = ev["f"]
        g = f["glimmet"]
        dl = a_daylabel(rng, ev["obs"], ses)
        forms = {"glimmet": g, "sael": f["sael"]}
        if style == 0:
            forms["threnn_qelt"] = f"thr {f['threnn_qelt']}"
            bits = [forms["threnn_qelt"]]
            if "murl_dov" in f:
                forms["murl_dov"] = f"murl {f['murl_dov']}"
                bits.append(forms["murl_dov"])
            if "skep_pip" in f:
                forms["skep_pip"] = f"sk {f['skep_pip']}"
                bits.append(forms["skep_pip"])
            bits.append(f["sael"])
            if "tending_min" in f:
                forms["tending_min"] = f"{int(f['tending_min'])}m"
                bits.append(forms["tending_min"])
            lines.append(f"- {dl} — {g} {' / '.join(bits)}")
        else:
            forms["threnn_qelt"] = f"{f['threnn_qelt']}q"
            bits = [forms["threnn_qelt"]]
            if "murl_dov" in f:
                forms["murl_dov"] = f"{f['murl_dov']}dv"
                bits.append(forms["murl_dov"])
            else:
                bits.append("no murl")
            if "skep_pip" in f:
                forms["skep_pip"] = f"skep {f['skep_pip']}"
                bits.append(forms["skep_pip"])
            bits.append(f["sael"])
            if "tending_min" in f:
                forms["tending_min"] = f"{int(f['tending_min'])} min"
                bits.append(forms["tending_min"])
            lines.append(f"{g} {dl}: {', '.join(bits)}")
        recs.append(a_rec(ev, forms, dl))
    head = rng.choice([h for h in ("quick dump:", "catching up, shorthand:", "backlog —",
                                   "couldn't be bothered with photos:", "more from the week:", "and these:")
                       if h not in USED_HEADS])
    USED_HEADS.append(head)
    return {"user": head + "\n" + "\n".join(lines), "captions": [], "records": recs}


def a_table(rng, evs, ses):
    style = rng.randrange(2)
    rows, recs = [], []
    for ev in evs:
        f = ev["f"]
        g = f["glimmet"]
        dform = ev["obs"].isoformat() if style == 0 else written(ev["obs"], "dm")
        forms = {"glimmet": g, "sael": f["sael"], "threnn_qelt": str(f["threnn_qelt"])}
        m = str(f["murl_dov"]) if "murl_dov" in f else "–"
        s = str(f["skep_pip"]) if "skep_pip" in f else "–"
        n = str(int(f["tending_min"])) if "tending_min" in f else "–"
        if "murl_dov" in f:
            forms["murl_dov"] = m
        if "skep_pip" in f:
            forms["skep_pip"] = s
        if "tending_min" in f:
            forms["tending_min"] = n
        sep = " | " if style == 0 else " · "
        rows.append("'" + sep.join((dform, g, str(f["threnn_qelt"]), m, s, f["sael"], n)) + "'")
        recs.append(a_rec(ev, forms, dform))
    if style == 0:
        ts = [Fraction(ev["f"]["threnn_qelt"]) for ev in evs]
        ms = [Fraction(ev["f"]["murl_dov"]) for ev in evs if "murl_dov" in ev["f"]]
        avg_t = rfrac(sum(ts) / len(ts), 1)
        avg_m = rfrac(sum(ms) / len(ms), 1) if ms else "–"
        capt = (f"Screenshot of a spreadsheet tab called 'warren log'. Header row: Date | Glimmet | Threnn (q) | "
                f"Murl (dv) | Skep | Sael | Mins. Rows: {'; '.join(rows)}. A bold footer row reads "
                f"'avg | | {avg_t} | {avg_m} | | |'.")
        user = rng.choice(("This week's sheet.", "Copied the week into the spreadsheet, here it is.",
                           "Spreadsheet so far this week."))
    else:
        capt = (f"Photo of a small whiteboard stuck to the fridge with a hand-ruled grid, columns headed 'day', 'who', "
                f"'thr', 'mrl', 'sk', 'sael', 'min'. Rows: {'; '.join(rows)}. A magnet shaped like a lemon holds a "
                f"shopping list in the corner.")
        user = rng.choice(("Whiteboard for the week, before I wipe it.", "Fridge whiteboard — log these please.",
                           "Week on the whiteboard."))
    return {"user": user, "captions": [capt], "records": recs}


A_ACK_ONE = ("Logged {g}.", "Got it — {g}'s tending is in the log.", "Saved {g}'s entry.", "Noted, thanks.",
             "In the log.", "Added to {g}'s history.", "Thanks — that's {g} done.")
A_ACK_MANY = ("All logged — {names}.", "Got the lot; entries for {names} are in.",
              "Thanks, that's the whole batch in the log.", "Done, every row is in.")


def a_ack(rng, rnd):
    names = []
    for rec in rnd["records"]:
        if rec["f"]["glimmet"] not in names:
            names.append(rec["f"]["glimmet"])
    if len(rnd["records"]) == 1:
        return rng.choice(A_ACK_ONE).format(g=names[0])
    nm = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    return rng.choice(A_ACK_MANY).format(names=nm)


USED_HEADS: list[str] = []     # list headers already used in the current session


def plan_rounds(rng, evs, si, ses, table, lists, log2, render, singles, key):
    USED_HEADS.clear()
    evs = sorted(evs, key=lambda e: (e["obs"], key(e)))
    rest = list(evs)
    groups = []

    def take(items):
        ids = {id(x) for x in items}
        return [x for x in rest if id(x) not in ids]

    if si in table:
        old = [e for e in rest if (ses - e["obs"]).days >= 1][:5]
        if len(old) >= 3:
            groups.append(("table", old))
            rest = take(old)
    if si in lists and len(rest) >= 2:
        k = min(len(rest), rng.choice((2, 3, 3)))
        start = rng.randint(0, len(rest) - k)
        chunk = rest[start:start + k]
        groups.append(("list", chunk))
        rest = take(chunk)
    if si in log2 and len(rest) >= 2:
        chunk = rest[:2]
        groups.append(("logbook", chunk))
        rest = take(chunk)
    last = None
    for e in rest:
        lay = rng.choice([x for x in singles if x != last])
        last = lay
        groups.append((lay, [e]))
    while len(groups) > 7:          # too many single rounds: fold the two oldest singles into a list
        singles_idx = [i for i, g in enumerate(groups) if len(g[1]) == 1]
        i, j = singles_idx[0], singles_idx[1]
        merged = ("list", groups[i][1] + groups[j][1])
        groups = [g for k, g in enumerate(groups) if k not in (i, j)] + [merged]
    groups.sort(key=lambda g: (min(e["obs"] for e in g[1]), len(g[1]) == 1))
    return [render[lay](rng, grp if lay in ("table", "list", "logbook") else grp[0], ses) for lay, grp in groups]


A_SMALLTALK = [
    ("Long day at the library — a class of nine-year-olds came in for a scavenger hunt and I'm shattered.",
     "That sounds chaotic but fun. Put your feet up for a bit."),
    ("Do you think it's weird that I talk to the glimmets while I tend them? Tisbel definitely listens.",
     "Not weird at all. Lots of keepers talk to their animals, and a calm, familiar voice is part of the routine."),
    ("Cleaned the warren glass. Found one of Gannow's caches behind the cork bark — about thirty dried berries.",
     "A hoarder, then. At least you know where the missing berries went."),
    ("Rain all day. The flat smells of wet moss and I've made my peace with it.",
     "There are worse smells to live with. Cosy evening in?"),
    ("Watched a documentary about cave salamanders and kept thinking how much they look like Oremko when he sulks.",
     "Ha — that mix of offended and unbothered is a very specific look."),
    ("My neighbour asked whether the warren glow keeps me up at night. Honestly it's more like a nightlight.",
     "A nightlight that eats berries. Sounds like a good deal."),
    ("Bought a new cork tube for the top shelf. Gannow claimed it within a minute.",
     "Sounds like a successful purchase."),
    ("Any tips for keeping a paper log tidy? Mine is getting covered in moss smudges.",
     "A clear plastic sleeve or a clipboard cover helps, and a pencil survives damp pages better than ink."),
    ("The Circle group chat is arguing about tending every day versus every other day. I just follow their mood.",
     "Following the animals' cues seems like the sensible middle ground."),
    ("Made soup, read half a novel, did nothing useful. Excellent day off.",
     "That sounds like exactly what a Sunday is for."),
    ("Juno is thinking about getting a second glimmet. I told her to wait until the weather warms up.",
     "Sensible advice — easier to settle a newcomer when it's not cold."),
    ("Vashti has started sleeping in the teacup I put in as a hide. It's ridiculous and I love it.",
     "That's adorable. I hope you got a photo."),
    ("Work is doing a stock-take next week, so I might be slow with my logs.",
     "No problem — send them whenever you can, backfilled is fine."),
    ("Is it normal to feel guilty on the days I don't tend anyone?",
     "Very normal, but they're fine with rest days. Consistency over weeks matters more than any single evening."),
    ("Tisbel knocked her water dish over twice, on purpose, I swear.",
     "She sounds like she enjoys an audience."),
    ("Ordered moss from a new supplier. The last batch had tiny gnats in it.",
     "Fingers crossed the new one is cleaner."),
    ("Cycled to work for the first time this year. My legs are not impressed.",
     "It gets easier after the first week or two!"),
    ("The warren lights are on a timer now, which has made evenings much calmer.",
     "Predictable light is usually good for nocturnal-ish animals — and for you."),
    ("Found an old photo of my first glimmet, Pib, from when I was a student.",
     "That's a lovely thing to find. How long did you have Pib?"),
    ("Can you remind me to order more bark chips at the end of the month?",
     "I can't send reminders on my own, but if you mention it near the end of the month I'll nudge you."),
    ("Gannow escaped for about ten seconds. My heart is still going.",
     "Ten very long seconds, I imagine. Glad he's back in."),
    ("The library is getting self-checkout machines. Half the staff are thrilled, half are terrified.",
     "Change like that always splits a team. Which half are you?"),
    ("Any podcast suggestions for long ironing sessions?",
     "Story-driven history podcasts or long-form interviews work well for that kind of chore."),
    ("The Circle is running a photo contest. Thinking of entering Vashti in her teacup.",
     "That seems like a strong entry."),
    ("Spring-cleaning the whole flat this weekend. The warren is somehow the only clean bit already.",
     "Priorities are priorities."),
    ("Oremko has figured out the sound of the treat tin. There's no going back now.",
     "Once they learn that sound, it's over."),
    ("Might repaint the warren frame green. Or is that too much?",
     "Green sounds like it would suit the moss — go for it."),
    ("I'm reading a book about bioluminescent fungi for fun. I know, I know.",
     "Nothing wrong with that — it's basically research."),
    ("Got a warmer LED strip for the middle shelf.",
     "Warmer light usually looks nicer on moss too."),
    ("A kid at the library asked me my favourite animal, I said glimmets, and she just stared at me.",
     "She'll look them up later, guaranteed."),
    ("The moss in Gannow's pen is finally green again after the winter.",
     "That must make the whole warren look brighter."),
    ("I keep meaning to label the pens properly. Right now it's masking tape and hope.",
     "Masking tape and hope has carried many a hobby."),
    ("My mum asked whether the glimmets 'do anything'. I didn't know where to start.",
     "Maybe start with the teacup story."),
    ("Thinking about building a second warren for the spare room. Probably a terrible idea.",
     "Terrible ideas make the best projects. Maybe measure first."),
    ("Nothing to log, just wanted to say the warren looks beautiful with the lamps low.",
     "That sounds like a lovely sight to end the day with."),
    ("The Circle's forum has a new thread on warren plants. Everyone hates ivy apparently.",
     "Strong opinions about ivy are a sure sign of a healthy hobby forum."),
    ("Tisbel climbed onto my shoulder for the first time. I didn't move for ages.",
     "That's a big trust moment — no wonder you froze."),
    ("Payday. I will not buy another cork tube. I will not buy another cork tube.",
     "Best of luck. The cork tube will be waiting."),
    ("Quiet one at home. Tea, a film, early night.",
     "Sounds perfect."),
    ("The library's reading challenge starts next week and I've been roped into making the posters.",
     "Posters are the fun part — go big on the colours."),
    ("Is there a good way to stop moss drying out on the top shelf? The lamp there runs warm.",
     "A shallow water dish nearby or a light misting routine usually helps; moving the lamp a little higher does too."),
    ("Juno came round for dinner and spent the whole time watching Tisbel. Dinner was an afterthought.",
     "Tisbel has that effect, apparently."),
    ("Oremko sneezed and then looked at me like it was my fault.",
     "Classic Oremko, from everything you've said."),
    ("Bit of a rubbish week honestly. The glimmets are the best part of my evenings right now.",
     "Sorry it's been a hard week. It's good that the evenings with them help."),
    ("What do you think of 'Marrow' as a name for a future glimmet? Asking for a future me.",
     "Marrow is great — short, soft, and easy to call out."),
    ("Just realised I've been keeping glimmets for six years. Time is strange.",
     "Six years is a real commitment. Happy anniversary to the hobby."),
    ("Vashti chirred at the kettle again. She thinks it's another glimmet, I'm sure of it.",
     "A kettle rival — she's defending her territory."),
    ("Bought a second-hand armchair for the warren corner so I can sit properly while tending.",
     "That should make the longer sessions a lot comfier."),
    ("We had a fire drill at work and I realised I have no plan for the glimmets in an actual emergency.",
     "Worth sorting — a couple of ventilated carry boxes by the door would cover it."),
    ("Tisbel got into the berry tin. There were no survivors.",
     "A heist, clearly planned in advance."),
    ("Watching the snooker with the sound off and the warren lamps on. Peak relaxation.",
     "Sounds like a very calm evening."),
    ("Our book group picked a 700-page novel. I am not ready.",
     "Good luck — maybe a chapter per tending session?"),
    ("Gannow has started leaving a single berry outside his tube every morning. Offering? Warning? Who knows.",
     "Either way it's a ritual now."),
    ("The council finally fixed the streetlight outside, so the warren isn't lit up orange at night anymore.",
     "That should help everyone's sleep, theirs included."),
    ("Got the glass tanks professionally cleaned. Never again, it cost a fortune.",
     "Good to do once — you'll know it's worth doing yourself next time."),
    ("Had a dream that Oremko could talk. He mostly complained.",
     "That tracks, honestly."),
    ("Thinking about offering to run a beginners' night at the Circle.",
     "You'd be good at that — you clearly love explaining it."),
    ("Ordered a proper label maker. The masking tape era is over.",
     "A historic moment for the warren."),
]


def a_fixed() -> dict[int, list[dict]]:
    return {
        0: [fixed_round(
            "Hi! I want to keep a proper log of my glimmets with you instead of on scraps of paper. There are four of "
            "them: Vashti, Oremko, Tisbel and Gannow. Vashti and Oremko came from Halvard Ossendrey's autumn clutch; "
            "Tisbel and Gannow I took over from a keeper who moved abroad. Each tending I check threnn, murl and "
            "sometimes skep with the reader, and I note their sael.",
            "Lovely — happy to keep the log. Send each tending in whatever form is easiest (reader photos, your "
            "logbook, typed notes) and I'll keep everything together.", tag="breeder", first=True),
            fixed_round("The reader is a Kestrow L-7. Got it second-hand off the Circle forum for £85, which felt like "
                        "a lot for something the size of a bar of soap.",
                        "Good to know what the readings come from. Second-hand but working is a win.",
                        caption="Photo of a small grey handheld device in its original box, the lid reading "
                                "'KESTROW L-7 · warren reader', with a folded instruction leaflet and a coiled cable.",
                        tag="reader")],
        1: [fixed_round("Is it silly to keep the heating on a bit higher for them while it's this cold?",
                        "Not silly if the warren runs cold — a steady, moderate temperature is what matters."),
            fixed_round("Juno sent me Pesh's numbers from her tending: threnn 19.5 qelts, murl 4.1 dovs. Show-off. "
                        "To be fair, Pesh is about twice the size of any of mine.",
                        "Pesh sounds like a big one — comparing across different animals isn't really fair anyway.")],
        2: [fixed_round("Halvard messaged back about Gannow. His rule of thumb: anything under 12 qelts is a 'thin "
                        "threnn' and worth watching, but one thin reading on its own means nothing.",
                        "That's a useful line. I can tell you how often any of them dips under it whenever you like.",
                        tag="thin")],
        3: [fixed_round("Tried to do Gannow but the L-7 kept flashing ERR 4. Three goes, then he got bored and "
                        "burrowed. So no reading.",
                        "Annoying — nothing logged for him then. Maybe the contacts need a wipe.")],
        4: [fixed_round("Off to the Fennick Warren Circle tomorrow — we meet the last Thursday of the month in the "
                        "community hall. Usually nine or ten of us and far too many biscuits.",
                        "Enjoy the meeting! Sounds like a friendly group.", tag="club")],
        5: [fixed_round("Sister's birthday is coming up. I'm knitting her a scarf and it is going badly.",
                        "Handmade and slightly wonky still counts as thoughtful."),
            fixed_round("Halvard posted his breeding pair at 21 qelts on the forum. I'll believe that when I see the "
                        "reader.", "Forum numbers do have a way of rounding up.")],
        6: [fixed_round("Big job this afternoon: swapped the bedding in all four pens over to wintermoss. The old coir "
                        "was going sour. Nobody gets tended today, they need to settle.",
                        "That's a lot of work. It'll be interesting to see whether their readings change on the new "
                        "bedding.", tag="bedding")],
        7: [fixed_round("Discovered that Tisbel will do anything for candied drupewort. She ignored the mealworms "
                        "completely.", "Now you know what to bring to the show.", tag="treat"),
            fixed_round("Goal before the spring show: get Tisbel's threnn past 20 qelts. She's been close.",
                        "Good luck — I'll keep an eye on her numbers.")],
        8: [fixed_round("Off to my sister's in Hull tomorrow until Monday the 21st. Juno is feeding them but won't do "
                        "readings, so there'll be a gap in the log.",
                        "Have a good trip — a gap is fine, we'll pick up when you're back.")],
        9: [fixed_round("Took Gannow to the skeller this morning — Dr. Amsel Vrenn over in Headingley. She thinks his "
                        "brask spells are temperament, nothing medical.",
                        "That's reassuring. Good to have a skeller you trust.", tag="skeller"),
            fixed_round("Back from Hull. The flat was so quiet without the chirring, and Juno kept them all fed and "
                        "smug. My sister loved the scarf, wonkiness and all.",
                        "Welcome back! Sounds like everyone was well looked after — scarf included.", first=True)],
        10: [fixed_round("Circle newsletter says the breed average is about 14 qelts threnn and 3 dovs murl, for what "
                         "that's worth. Also measured the warren for a new liner: 140 cm long, four shelves.",
                         "Handy reference points — though yours are individuals, not averages.")],
        11: [fixed_round("The spring show was on Saturday! Tisbel placed third in the sheen class out of eleven, and "
                         "Vashti got a 'commended', which I'm choosing to count.",
                         "Congratulations to both of them! Third out of eleven is excellent.",
                         caption="Photo of a small green rosette with a gold '3rd' in the centre and a card below "
                                 "reading 'Fennick Warren Circle Spring Show · Sheen class · Tisbel'.",
                         tag="show")],
        12: [fixed_round("Hay fever has started. Great timing.",
                         "Sorry — hope the antihistamines kick in quickly."),
             fixed_round("If Gannow's murl ever went above 4.5 I'd take him straight back to Dr. Vrenn.",
                         "That seems like a sensible line to draw.")],
        13: [fixed_round("It's so warm today that the moss is steaming a bit under the lamps.",
                         "Maybe ease the lamps off a little while the weather's warm.")],
    }


def build_a() -> Scenario:
    rng = random.Random(A_SEED)
    sc = Scenario(A_NAME, {
        "name": "Ilse Varga",
        "persona_summary": "38-year-old school librarian who keeps four glimmets (Vashti, Oremko, Tisbel and Gannow) in "
                           "a converted bookcase warren in her flat. Most evenings she tends one or two of them, reads "
                           "threnn (in qelts), murl (in dovs) and sometimes skep (in pips) off a Kestrow L-7 reader, "
                           "notes each glimmet's sael and how long she spent, and logs it all in chat.",
        "traits": ["affectionate about her animals", "a little disorganised with paperwork", "dry sense of humour",
                   "backfills logs after busy days"],
        "conversation_style": "Casual and chatty; mixes reader photos, logbook and whiteboard photos, app screenshots, "
                              "full sentences and lowercase shorthand; rarely explains her hobby's jargon."})
    evs = a_events(rng)
    sessions = [D(s) for s in A_SESSIONS]
    by_ses: list[list[dict]] = [[] for _ in sessions]
    for ev in evs:
        for i, s in enumerate(sessions):
            if ev["obs"] <= s:
                by_ses[i].append(ev)
                break
    small = list(A_SMALLTALK)
    rng.shuffle(small)
    fixed = a_fixed()
    render = {"device": a_device, "logbook": a_logbook, "prose": a_prose, "card": a_card, "list": a_list,
              "table": a_table}
    for si, ses in enumerate(sessions):
        logs = plan_rounds(rng, by_ses[si], si, ses, A_TABLE, A_LIST, A_LOG2, render,
                           ("device", "device", "logbook", "prose", "prose", "card"),
                           key=lambda e: GL.index(e["f"]["glimmet"]))
        for r in logs:
            r["assistant"] = a_ack(rng, r)
        sc.add_session(ses, assemble(rng, logs, fixed.get(si, []), small))
    a_questions(sc)
    return sc


def a_questions(sc: Scenario) -> None:
    R = sc.records()
    T = "tending"
    MAR, APR, MAY = month(2025, 3), month(2025, 4), month(2025, 5)
    allt = sel(R, T)
    U = "tendings"

    # ---- AVG
    rs = sel(R, T, *APR, has="threnn_qelt")
    v = rfrac(mean(rs, "threnn_qelt"), 1)
    sc.add("AVG", "What was my average threnn in April?",
           f"{v} qelts — the mean threnn over your {len(rs)} April tendings.", jv(v), "number", rids(rs), 0.05,
           "qelts")
    rs = sel(R, T, pred=lambda f: f["glimmet"] == "Oremko", has="tending_min")
    v = rfrac(mean(rs, "tending_min"), 1)
    sc.add("AVG", "On average, how long did I spend with Oremko per tending?",
           f"{v} minutes per tending with Oremko, over the {len(rs)} tendings where you noted the time.", jv(v),
           "number", rids(rs), 0.05, "minutes")
    rs = sel(R, T, pred=lambda f: f["glimmet"] == "Vashti", has="murl_dov")
    v = rfrac(mean(rs, "murl_dov"), 1)
    sc.add("AVG", "What's Vashti's average murl over the whole log?",
           f"{v} dovs is Vashti's average murl across {len(rs)} tendings.", jv(v), "number", rids(rs), 0.05, "dovs")
    hit = [r for r in allt if r["f"]["sael"] == "ollun"]
    v = rfrac(Fraction(100 * len(hit), len(allt)), 1)
    sc.add("AVG", "What percentage of all my tendings found the glimmet ollun?",
           f"{v}% of your tendings were ollun ({len(hit)} out of {len(allt)}).", jv(v), "number", rids(allt), 0.05,
           "%")
    rs = sel(R, T, *MAR, has="skep_pip")
    v = rfrac(mean(rs, "skep_pip"), 1)
    sc.add("AVG", "What was my average skep in March, counting only the tendings where I counted it?",
           f"{v} pips — the average skep over the {len(rs)} March tendings with a skep count.", jv(v), "number",
           rids(rs), 0.05, "pips")
    rs = sel(R, T, pred=lambda f: f["sael"] == "tessim", has="threnn_qelt")
    v = rfrac(mean(rs, "threnn_qelt"), 1)
    sc.add("AVG", "When one of them was tessim, what was the threnn on average?",
           f"{v} qelts on average across the {len(rs)} tessim tendings.", jv(v), "number", rids(rs), 0.05, "qelts")

    # ---- SUM
    rs = sel(R, T, *MAR, has="tending_min")
    v = total(rs, "tending_min")
    sc.add("SUM", "How many minutes did I spend tending in total in March?",
           f"{v} minutes of tending in March ({len(rs)} timed tendings).", int(v), "number", rids(rs), 0, "minutes")
    rs = sel(R, T, D("2025-04-01"), D("2025-04-15"), pred=lambda f: f["glimmet"] == "Gannow", has="tending_min")
    need(len(rs) >= 2, "Gannow early April")
    v = total(rs, "tending_min")
    sc.add("SUM", "How much time did I put into Gannow between April 1 and April 15?",
           f"{v} minutes with Gannow over {len(rs)} timed tendings in that fortnight.", int(v), "number", rids(rs), 0,
           "minutes")
    rs = sel(R, T, pred=lambda f: f["glimmet"] == "Tisbel", has="skep_pip")
    v = total(rs, "skep_pip")
    sc.add("SUM", "How many pips of skep have I counted on Tisbel altogether?",
           f"{v} pips across the {len(rs)} Tisbel tendings with a skep count.", int(v), "number", rids(rs), 0, "pips")
    rs = sel(R, T, D("2025-05-01"), D("2025-05-07"), has="tending_min")
    need(len(rs) >= 3, "first week of May")
    v = total(rs, "tending_min")
    sc.add("SUM", "How much tending time did I log in the first week of May?",
           f"{v} minutes over {len(rs)} timed tendings between May 1 and May 7.", int(v), "number", rids(rs), 0,
           "minutes")

    # ---- CNT
    rs = sel(R, T, *APR, pred=lambda f: f["glimmet"] == "Vashti")
    sc.add("CNT", "How many times did I tend Vashti in April?", f"{len(rs)} tendings with Vashti in April.",
           len(rs), "number", rids(rs), 0, U)
    rs = sel(R, T, pred=lambda f: f["threnn_qelt"] < A_THIN)
    sc.add("CNT", "By Halvard's rule, how many of my tendings had a thin threnn?",
           f"{len(rs)} tendings came in under 12 qelts, Halvard's line for a thin threnn.", len(rs), "number",
           rids(rs) + [sc.facts["thin"]], 0, U)
    rs = sel(R, T, *MAR, pred=lambda f: f["sael"] == "brask")
    sc.add("CNT", "How many times was one of them brask in March?", f"{len(rs)} brask tendings in March.", len(rs),
           "number", rids(rs), 0, U)
    rs = sel(R, T, pred=lambda f: f.get("murl_dov", 0) > 4)
    need(len(rs) >= 2, "murl above 4")
    sc.add("CNT", "How many tendings had a murl above 4 dovs?", f"{len(rs)} tendings with murl over 4 dovs.",
           len(rs), "number", rids(rs), 0, U)
    rs = sel(R, T, pred=lambda f: f.get("tending_min", 0) >= 45)
    sc.add("CNT", "How many tendings lasted 45 minutes or longer?", f"{len(rs)} tendings of 45 minutes or more.",
           len(rs), "number", rids(rs), 0, U)
    rs = sel(R, T, *APR)
    days = sorted({r["obs"] for r in rs})
    sc.add("CNT", "On how many different days in April did I tend at least one glimmet?",
           f"{len(days)} days in April had at least one tending.", len(days), "number", rids(rs), 0, "days")

    # ---- MAX
    rs = sel(R, T, has="threnn_qelt")
    top = max(r["f"]["threnn_qelt"] for r in rs)
    who = [r for r in rs if r["f"]["threnn_qelt"] == top]
    sc.add("MAX", "What's the highest threnn I've ever recorded?",
           f"{top} qelts, {who[0]['f']['glimmet']}'s tending on {nice_date(who[0]['obs'])}.", jv(top), "number",
           rids(rs), 0, "qelts")
    rs = sel(R, T, pred=lambda f: f["glimmet"] == "Tisbel", has="murl_dov")
    top = max(r["f"]["murl_dov"] for r in rs)
    who = [r for r in rs if r["f"]["murl_dov"] == top]
    need(len(who) == 1, "Tisbel max murl unique")
    sc.add("MAX", "On what day did Tisbel have her highest murl?",
           f"{nice_date(who[0]['obs'])}, when her murl read {top} dovs.", who[0]["obs"].isoformat(), "date", rids(rs))
    counts = {g: len([r for r in allt if r["f"]["glimmet"] == g]) for g in GL}
    ranked = sorted(GL, key=lambda g: -counts[g])
    need(counts[ranked[0]] - counts[ranked[1]] >= 2, "most tended glimmet")
    sc.add("MAX", "Which glimmet did I tend most often?",
           f"{ranked[0]} — {counts[ranked[0]]} tendings, ahead of {ranked[1]} with {counts[ranked[1]]}.", ranked[0],
           "string", rids(allt), cands=GL)
    means = {}
    for name, (lo, hi) in (("March", MAR), ("April", APR), ("May", MAY)):
        means[name] = mean(sel(R, T, lo, hi, has="threnn_qelt"), "threnn_qelt")
    ranked = sorted(means, key=lambda m: -means[m])
    need(rel_gap(means[ranked[0]], means[ranked[1]]) >= Fraction(15, 1000), "month with highest threnn")
    sc.add("MAX", "Which month had the highest average threnn — March, April or May?",
           f"{ranked[0]}, averaging {rfrac(means[ranked[0]], 1)} qelts.", ranked[0], "string",
           rids(sel(R, T, has="threnn_qelt")), cands=("March", "April", "May"))

    # ---- MIN
    rs = sel(R, T, *MAY, has="murl_dov")
    low = min(r["f"]["murl_dov"] for r in rs)
    sc.add("MIN", "What was the lowest murl I logged in May?", f"{low} dovs was the lowest murl in May.", jv(low),
           "number", rids(rs), 0, "dovs")
    gm = {g: mean(sel(R, T, pred=lambda f, g=g: f["glimmet"] == g, has="threnn_qelt"), "threnn_qelt") for g in GL}
    ranked = sorted(GL, key=lambda g: gm[g])
    need(rel_gap(gm[ranked[0]], gm[ranked[1]]) >= Fraction(15, 1000), "lowest threnn glimmet")
    sc.add("MIN", "Which of my glimmets has the lowest average threnn?",
           f"{ranked[0]}, at {rfrac(gm[ranked[0]], 1)} qelts on average.", ranked[0], "string",
           rids(sel(R, T, has="threnn_qelt")), cands=GL)
    rs = sel(R, T, has="tending_min")
    low = min(r["f"]["tending_min"] for r in rs)
    who = [r for r in rs if r["f"]["tending_min"] == low]
    need(len(who) == 1, "shortest tending unique")
    sc.add("MIN", "When was my shortest tending?",
           f"{nice_date(who[0]['obs'])} — {low} minutes with {who[0]['f']['glimmet']}.", who[0]["obs"].isoformat(),
           "date", rids(rs))

    # ---- LAT
    rs = sel(R, T, pred=lambda f: f["glimmet"] == "Gannow")
    last = max(rs, key=lambda r: r["obs"])
    sc.add("LAT", "When did I last tend Gannow?", f"{nice_date(last['obs'])} was your most recent tending of Gannow.",
           last["obs"].isoformat(), "date", [last["round"]])
    rs = sel(R, T, pred=lambda f: f["glimmet"] == "Oremko")
    last = max(rs, key=lambda r: r["obs"])
    sc.add("LAT", "What was Oremko's threnn at his most recent tending?",
           f"{last['f']['threnn_qelt']} qelts, on {nice_date(last['obs'])}.", jv(last["f"]["threnn_qelt"]), "number",
           [last["round"]], 0, "qelts")
    rs = sel(R, T, pred=lambda f: f["glimmet"] == "Vashti")
    last = max(rs, key=lambda r: r["obs"])
    sc.add("LAT", "What sael was Vashti in the last time I tended her?",
           f"{last['f']['sael']} — at her tending on {nice_date(last['obs'])}.", last["f"]["sael"], "string",
           [last["round"]], cands=SAEL)
    rs = sel(R, T, pred=lambda f: f["sael"] == "quorl")
    latest = max(r["obs"] for r in rs)
    last = [r for r in rs if r["obs"] == latest]
    need(len(last) == 1, "latest quorl unique")
    sc.add("LAT", "Which glimmet did I most recently log as quorl?",
           f"{last[0]['f']['glimmet']}, on {nice_date(latest)}.", last[0]["f"]["glimmet"], "string",
           [last[0]["round"]], cands=GL)

    # ---- RNG
    rs = sel(R, T, *MAR, pred=lambda f: f["sael"] == "quorl")
    days = sorted({r["obs"].isoformat() for r in rs})
    sc.add("RNG", "On which days in March was one of them quorl?",
           ", ".join(nice_date(D(x)) for x in days) + ".", days, "list", rids(rs))
    rs = sel(R, T, pred=lambda f: f["threnn_qelt"] > 17)
    names = sorted({r["f"]["glimmet"] for r in rs})
    need(2 <= len(names) < 4, "threnn above 17")
    sc.add("RNG", "Which glimmets have ever had a threnn above 17 qelts?", " and ".join(names) + ".", names, "list",
           rids(rs), cands=GL)
    rs = sel(R, T, *APR, pred=lambda f: f["glimmet"] == "Tisbel")
    ss = sorted({r["f"]["sael"] for r in rs})
    need(2 <= len(ss) < 4, "Tisbel's saels in April")
    sc.add("RNG", "Which saels did Tisbel show in April?", " and ".join(ss) + ".", ss, "list", rids(rs), cands=SAEL)
    rs = sel(R, T, pred=lambda f: f.get("tending_min", 0) >= 60)
    days = sorted({r["obs"].isoformat() for r in rs})
    need(len(days) >= 2, "hour-long tendings")
    sc.add("RNG", "On which days did a single tending run to an hour or more?",
           ", ".join(nice_date(D(x)) for x in days) + ".", days, "list", rids(rs))

    # ---- CMP
    pre = sel(R, T, hi=A_SWITCH - DAY, has="threnn_qelt")
    post = sel(R, T, lo=A_SWITCH + DAY, has="threnn_qelt")
    a, b = mean(pre, "threnn_qelt"), mean(post, "threnn_qelt")
    need(rel_gap(a, b) >= Fraction(15, 1000), "bedding before/after")
    win = "after" if b > a else "before"
    sc.add("CMP", "Was my average threnn higher before or after I switched the bedding?",
           f"{win} the switch to wintermoss: {rfrac(b, 1)} qelts after versus {rfrac(a, 1)} qelts before.", win,
           "string", rids(pre) + rids(post) + [sc.facts["bedding"]], cands=("before", "after"))
    va = sel(R, T, pred=lambda f: f["glimmet"] == "Vashti", has="murl_dov")
    ti = sel(R, T, pred=lambda f: f["glimmet"] == "Tisbel", has="murl_dov")
    a, b = mean(va, "murl_dov"), mean(ti, "murl_dov")
    need(rel_gap(a, b) >= Fraction(15, 1000), "Vashti vs Tisbel murl")
    win = "Vashti" if a > b else "Tisbel"
    sc.add("CMP", "Who has the higher average murl, Vashti or Tisbel?",
           f"{win} ({rfrac(max(a, b), 1)} dovs against {rfrac(min(a, b), 1)}).", win, "string", rids(va) + rids(ti),
           cands=("Vashti", "Tisbel"))
    m1, m2 = sel(R, T, *MAR, has="tending_min"), sel(R, T, *APR, has="tending_min")
    a, b = total(m1, "tending_min"), total(m2, "tending_min")
    need(abs(a - b) >= 20, "March vs April minutes")
    win = "March" if a > b else "April"
    sc.add("CMP", "Did I spend more time tending in total in March or in April?",
           f"{win} — {max(a, b)} minutes against {min(a, b)}.", win, "string", rids(m1) + rids(m2),
           cands=("March", "April"))
    ol = sel(R, T, pred=lambda f: f["sael"] == "ollun", has="tending_min")
    br = sel(R, T, pred=lambda f: f["sael"] == "brask", has="tending_min")
    a, b = mean(ol, "tending_min"), mean(br, "tending_min")
    need(rel_gap(a, b) >= Fraction(15, 1000), "ollun vs brask minutes")
    win = "ollun" if a > b else "brask"
    sc.add("CMP", "Are my ollun tendings or my brask tendings longer on average?",
           f"{win} tendings, at {rfrac(max(a, b), 1)} minutes against {rfrac(min(a, b), 1)}.", win, "string",
           rids(ol) + rids(br), cands=("ollun", "brask"))

    # ---- TRD
    o1 = sel(R, T, *MAR, pred=lambda f: f["glimmet"] == "Oremko", has="threnn_qelt")
    o2 = sel(R, T, *APR, pred=lambda f: f["glimmet"] == "Oremko", has="threnn_qelt")
    a, b = mean(o1, "threnn_qelt"), mean(o2, "threnn_qelt")
    need(rel_gap(a, b) >= Fraction(15, 1000), "Oremko threnn trend")
    tr = "increased" if b > a else "decreased"
    sc.add("TRD", "Did Oremko's threnn go up or down from March to April?",
           f"{tr} — from {rfrac(a, 1)} qelts on average in March to {rfrac(b, 1)} in April.", tr, "string",
           rids(o1) + rids(o2), cands=("increased", "decreased"))
    m1, m2 = sel(R, T, *APR, has="murl_dov"), sel(R, T, *MAY, has="murl_dov")
    a, b = mean(m1, "murl_dov"), mean(m2, "murl_dov")
    need(rel_gap(a, b) >= Fraction(15, 1000), "murl April->May")
    tr = "increased" if b > a else "decreased"
    sc.add("TRD", "From April to May, did my glimmets' average murl rise or fall?",
           f"{tr} — {rfrac(a, 1)} dovs in April, {rfrac(b, 1)} in May.", tr, "string", rids(m1) + rids(m2),
           cands=("increased", "decreased"))
    c1, c2 = sel(R, T, *MAR), sel(R, T, *APR)
    need(abs(len(c1) - len(c2)) >= 2, "tending counts March->April")
    tr = "increased" if len(c2) > len(c1) else "decreased"
    sc.add("TRD", "Did the number of tendings I did go up or down from March to April?",
           f"{tr} — {len(c1)} tendings in March, {len(c2)} in April.", tr, "string", rids(c1) + rids(c2),
           cands=("increased", "decreased"))

    # ---- RET
    sc.add("RET", "Who was the breeder that Vashti and Oremko came from?",
           "Halvard Ossendrey — they came from his autumn clutch.", "Halvard Ossendrey", "string", [sc.facts["breeder"]])
    sc.add("RET", "What model is my glimmet reader?", "A Kestrow L-7, bought second-hand off the Circle forum.",
           "Kestrow L-7", "string", [sc.facts["reader"]])
    sc.add("RET", "What's the name of my glimmet club?", "The Fennick Warren Circle.", "Fennick Warren Circle",
           "string", [sc.facts["club"]])
    sc.add("RET", "What did I switch the pens' bedding to?", "Wintermoss, in all four pens.", "wintermoss", "string",
           [sc.facts["bedding"]])
    sc.add("RET", "Which treat does Tisbel go mad for?", "Candied drupewort — she ignored the mealworms.",
           "candied drupewort", "string", [sc.facts["treat"]])
    sc.add("RET", "What's the name of the skeller I took Gannow to?", "Dr. Amsel Vrenn in Headingley.",
           "Amsel Vrenn", "string", [sc.facts["skeller"]])
    sc.add("RET", "Where did Tisbel place in the sheen class at the spring show?",
           "Third, out of eleven in the sheen class.", "third", "string", [sc.facts["show"]])


# ============================================================================ scenario B: skellick gleaning

B_NAME = "skellick_gleaning"
B_SEED = "skellick-gleaning/v59"
SITES = ("Ostren Ford", "Karrow Drift", "Illiby Cut", "Pemmick Rise", "Wendle Scar")
KEN = ("ambrine", "corvel", "pellow", "sarn")
BUYERS = ("Teshka", "Orlo", "Quessley")
B_SITE_W = (25, 22, 25, 13, 15)
B_DIST = {"Ostren Ford": 8.4, "Karrow Drift": 12.6, "Illiby Cut": 5.9, "Pemmick Rise": 15.2, "Wendle Scar": 10.1}
B_CLAR = {"Ostren Ford": 6.4, "Karrow Drift": 7.3, "Illiby Cut": 5.6, "Pemmick Rise": 7.9, "Wendle Scar": 6.8}
B_HAUL = {"Ostren Ford": 28, "Karrow Drift": 36, "Illiby Cut": 20, "Pemmick Rise": 44, "Wendle Scar": 30}
B_KEN_W = {"Ostren Ford": (20, 50, 30, 0), "Karrow Drift": (40, 30, 15, 15), "Illiby Cut": (10, 30, 60, 0),
           "Pemmick Rise": (35, 30, 0, 35), "Wendle Scar": (30, 40, 30, 0)}
B_PRICE = {"ambrine": 1.75, "corvel": 1.10, "pellow": 0.80, "sarn": 2.40}
B_START, B_END = D("2025-05-01"), D("2025-07-19")
B_SESSIONS = ["2025-05-06", "2025-05-11", "2025-05-17", "2025-05-22", "2025-05-28", "2025-06-02", "2025-06-08",
              "2025-06-14", "2025-06-19", "2025-06-25", "2025-07-01", "2025-07-07", "2025-07-13", "2025-07-19"]
B_TABLE = {2, 6, 10}
B_LIST = {1, 4, 8, 12}
B_BAR = Decimal("7.0")      # the Quessley stall buys at 7 ords clarity or better
B_PERMIT = Decimal("45.00")
BUYER_NAME = {"Teshka": ("Teshka", "Teshka", "Teshka Marr"), "Orlo": ("Orlo", "Orlo Vantrell", "Orlo"),
              "Quessley": ("the Quessley stall", "the Quessley stall", "the Quessley lot")}


def b_events(rng: random.Random) -> list[dict]:
    evs = []
    x = B_START
    while x <= B_END:
        if x.weekday() == 5:
            if rng.random() < 0.85:
                n = 2 if rng.random() < 0.3 else 1
                for buyer in sorted(rng.sample(BUYERS, n), key=BUYERS.index):
                    evs.append(b_trade(rng, buyer, x))
        elif rng.random() < 0.55:
            evs.append(b_glean(rng, x))
        x += DAY
    return evs


def b_glean(rng: random.Random, x: dt.date) -> dict:
    site = rng.choices(SITES, weights=B_SITE_W)[0]
    ken = rng.choices(KEN, weights=B_KEN_W[site])[0]
    haul = B_HAUL[site] * {5: 0.85, 6: 1.0, 7: 1.1}[x.month] + rng.gauss(0, 6)
    haul = max(7, int(round(haul)))
    if rng.random() < 0.4:
        haul = max(6, 6 * round(haul / 6))
    clar = (B_CLAR[site] + {5: 0.0, 6: 0.6, 7: 0.9}[x.month] + {"sarn": 0.5, "ambrine": 0.3, "pellow": -0.4}.get(ken, 0)
            + rng.gauss(0, 0.5))
    clar = q(min(max(clar, 3.0), 9.9))
    dist = q(max(3.5, B_DIST[site] + rng.gauss(0, 0.9)))
    f: dict = {"site": site, "kenning": ken, "haul_vel": Decimal(haul)}
    if rng.random() > 0.08:
        f["clarity_ord"] = clar
    if rng.random() < 0.5:
        f["sough_nell"] = q(max(0.3, {5: 2.8, 6: 2.2, 7: 1.5}[x.month] + rng.gauss(0, 0.35)))
    if rng.random() > 0.06:
        f["distance_km"] = dist
    return {"obs": x, "type": "gleaning", "f": f}


def b_trade(rng: random.Random, buyer: str, x: dt.date) -> dict:
    ken = rng.choices(KEN, weights=(30, 35, 25, 10))[0]
    sold = rng.randint(12, 44)
    if rng.random() < 0.5:
        sold = 6 * round(sold / 6)
    amt = sold * B_PRICE[ken] * rng.uniform(0.9, 1.1)
    amt = Decimal(round(amt * 2)) / 2
    f: dict = {"buyer": buyer}
    if rng.random() > 0.2:
        f["kenning"] = ken
    f["sold_vel"] = Decimal(sold)
    f["amount_gbp"] = amt.quantize(Decimal("0.01"))
    return {"obs": x, "type": "trade", "f": f}


def vel_form(rng, n, short=False) -> str:
    n = int(n)
    k, r = divmod(n, 12)
    opts = []
    if r == 0:
        opts += [f"{k} dv" if short else f"{k} dram-vel{'s' if k != 1 else ''}"] * 3
    elif r == 6:
        opts += [f"{k}.5 dv" if short else f"{k}.5 dram-vels"] * 2
    elif k >= 1 and rng.random() < 0.25:
        opts.append(f"{k} dv {r} v" if short else f"{k} dram-vel{'s' if k != 1 else ''} and {r} vel{'s' if r != 1 else ''}")
    opts.append(f"{n} v" if short else f"{n} vels")
    return rng.choice(opts)


def b_rec(ev, forms, date_form):
    return {"obs": ev["obs"], "type": ev["type"], "f": ev["f"], "forms": forms, "date_form": date_form}


def b_cue(rng, obs, ses):
    return rel_cue(rng, obs, ses, same=("", "today", "this morning"), prev=("yesterday",))


def b_common(rng, f, haul_short=False):
    forms = {"site": f["site"], "kenning": f["kenning"], "haul_vel": vel_form(rng, f["haul_vel"], haul_short)}
    return forms


def b_prose(rng, ev, ses):
    f = ev["f"]
    cue = b_cue(rng, ev["obs"], ses)
    forms = b_common(rng, f)
    site, ken, haul = f["site"], f["kenning"], forms["haul_vel"]
    clar = None
    if "clarity_ord" in f:
        forms["clarity_ord"] = f"{f['clarity_ord']} ords"
        clar = forms["clarity_ord"]
    dist = None
    if "distance_km" in f:
        forms["distance_km"] = f"{f['distance_km']} km"
        dist = forms["distance_km"]
    sough = ""
    if "sough_nell" in f:
        forms["sough_nell"] = f"{f['sough_nell']} nells"
        sough = rng.choice((f" The sough staff showed {f['sough_nell']} nells in the main pool.",
                            f" Sough was at {f['sough_nell']} nells.",
                            f" Water over the hollow: {f['sough_nell']} nells on the staff."))
    no_clar = " Forgot the loupe, so no clarity reading."
    no_dist = " The watch died halfway, so no distance."
    v = rng.randrange(4)
    if v == 0:
        lead = f"Went up to {site}{when(cue)}." + (f" {cap(dist)} there and back by the watch." if dist else no_dist)
        cl = f", clarity {clar} under the loupe" if clar else ""
        user = (f"{lead} Tuvi found the first nodule before I'd even got the probe out. Came home with {haul}, all "
                f"{ken}{cl}.{'' if clar else no_clar}{sough}")
    elif v == 1:
        cl = f", clarity {clar}" if clar else ""
        walked = f" {cap(dist)} walked, and my knees felt every one of them." if dist else no_dist
        user = (f"Good day at {site}{when(cue)}. The peat was soft after the rain so I worked the lower hollow. "
                f"Haul came to {haul} of {ken}{cl}.{walked}{'' if clar else no_clar}{sough}")
    elif v == 2:
        cl = f", {clar} clarity" if clar else ""
        walked = f" Walked {dist}." if dist else no_dist
        user = (f"{site}{when(cue)}. Slow start, the first hour gave nothing, but the back channel came good: {haul}, "
                f"{ken} kenning{cl}.{walked}{'' if clar else no_clar}{sough}")
    else:
        rnd = f", {dist} round" if dist else ""
        cl = f" Clarity {clar}, which is about what that hollow gives." if clar else no_clar
        user = f"Quick one: {site}{when(cue)}{rnd}. {cap(haul)} in the bag, {ken}.{cl}{sough}{'' if dist else no_dist}"
    return {"user": user, "captions": [], "records": [b_rec(ev, forms, cue)]}


def b_after(rng, ev, ses):
    f = ev["f"]
    cue = b_cue(rng, ev["obs"], ses) or "today"
    forms = b_common(rng, f)
    bits = [f"{forms['haul_vel']} gleaned"]
    if "clarity_ord" in f:
        forms["clarity_ord"] = f"{f['clarity_ord']} ords clarity"
        bits.append(forms["clarity_ord"])
    if "distance_km" in f:
        forms["distance_km"] = f"{f['distance_km']} km walked"
        bits.append(forms["distance_km"])
    bits.append(f"{f['kenning']} kenning")
    if "sough_nell" in f:
        forms["sough_nell"] = f"{f['sough_nell']} nells sough"
        bits.append(forms["sough_nell"])
    if rng.random() < 0.5:
        user = f"{cap(cue)} — {f['site']} — " + " · ".join(bits) + "."
    else:
        user = f"{f['site']}, {cue}: " + ", ".join(bits) + "."
    return {"user": user, "captions": [], "records": [b_rec(ev, forms, cue)]}


def b_watch(rng, ev, ses):
    f = ev["f"]
    if "distance_km" not in f:
        return b_prose(rng, ev, ses)
    forms = b_common(rng, f)
    forms["distance_km"] = f"Distance {f['distance_km']} km"
    secs = int(float(f["distance_km"]) * rng.uniform(950, 1250))
    h, m, s_ = secs // 3600, secs // 60 % 60, secs % 60
    asc, hr = rng.randint(90, 420), rng.randint(96, 128)
    dated = rng.random() < 0.4
    stamp = written(ev["obs"], "wdm")
    capt = (f"Screenshot of a hiking-watch summary titled 'Moor walk'{f' and dated {stamp!r}' if dated else ''}. "
            f"Large figures: '{forms['distance_km']}' · 'Time {h}:{m:02d}:{s_:02d}' · 'Ascent {asc} m' · "
            f"'Avg HR {hr} bpm'. A thin orange track loops across a contour map.")
    cue = b_cue(rng, ev["obs"], ses)
    date_form = cue if (cue or not dated) else stamp
    if dated and rng.random() < 0.5:
        cue, date_form = "", stamp
    cl = ""
    if "clarity_ord" in f:
        forms["clarity_ord"] = rng.choice((f"clarity {f['clarity_ord']}", f"{f['clarity_ord']} ords"))
        cl = forms["clarity_ord"]
    sg = ""
    if "sough_nell" in f:
        forms["sough_nell"] = f"sough {f['sough_nell']} nells"
        sg = f" {cap(forms['sough_nell'])}."
    if rng.random() < 0.5:
        user = f"That's {f['site']}{when(cue)}. {cap(forms['haul_vel'])}, {f['kenning']}" + (f", {cl}." if cl else ".") + sg
    else:
        user = (f"{f['site']}{when(cue)} — the watch has the walk. Haul {forms['haul_vel']}, {f['kenning']} throughout"
                + (f", {cl}." if cl else ", didn't check clarity.") + sg)
    return {"user": user, "captions": [capt], "records": [b_rec(ev, forms, date_form)]}


def b_daylabel(rng, obs, ses):
    delta = (ses - obs).days
    if delta == 0:
        return "today"
    if delta == 1:
        return "yesterday"
    if delta <= 6:
        return rng.choice((WD[obs.weekday()], WD[obs.weekday()][:3]))
    return written(obs, rng.choice(("md", "dm")))


def b_abbr(rng, evs, ses):
    lines, recs = [], []
    for ev in evs:
        f = ev["f"]
        dl = b_daylabel(rng, ev["obs"], ses)
        forms = b_common(rng, f, haul_short=True)
        forms["haul_vel"] = "hl " + forms["haul_vel"]
        bits = [forms["haul_vel"]]
        if "clarity_ord" in f:
            forms["clarity_ord"] = f"cl {f['clarity_ord']}"
            bits.append(forms["clarity_ord"])
        bits.append(f"kn {f['kenning']}")
        if "distance_km" in f:
            forms["distance_km"] = f"{f['distance_km']} km"
            bits.append(forms["distance_km"])
        if "sough_nell" in f:
            forms["sough_nell"] = f"sg {f['sough_nell']}"
            bits.append(forms["sough_nell"])
        lines.append(f"{f['site']} {dl}: " + ", ".join(bits))
        recs.append(b_rec(ev, forms, dl))
    head = rng.choice([h for h in ("shorthand, sorry:", "log:", "the rest of it:", "jotted on the bus:")
                       if h not in USED_HEADS])
    USED_HEADS.append(head)
    return {"user": head + "\n" + "\n".join(lines), "captions": [], "records": recs}


def b_table(rng, evs, ses):
    style = rng.randrange(2)
    rows, recs = [], []
    for ev in evs:
        f = ev["f"]
        forms = {"site": f["site"], "kenning": f["kenning"]}
        if style == 0:
            dform = written(ev["obs"], "dm")
            hl = vel_form(rng, f["haul_vel"], short=True)
        else:
            dform = ev["obs"].isoformat()
            hl = str(f["haul_vel"])
        forms["haul_vel"] = hl
        cl = str(f["clarity_ord"]) if "clarity_ord" in f else "—"
        sg = str(f["sough_nell"]) if "sough_nell" in f else "—"
        km = str(f["distance_km"]) if "distance_km" in f else "—"
        for k, val in (("clarity_ord", cl), ("sough_nell", sg), ("distance_km", km)):
            if k in f:
                forms[k] = val
        rows.append("'" + " | ".join((dform, f["site"], f["kenning"], hl, cl, sg, km)) + "'")
        recs.append(b_rec(ev, forms, dform))
    tot = sum(int(ev["f"]["haul_vel"]) for ev in evs)
    if style == 0:
        capt = (f"Photo of a squared notebook page with hand-ruled columns. Header row: 'Dt | Site | Kn | Hl | Cl | Sg | "
                f"km'. Rows: {'; '.join(rows)}. At the bottom, underlined twice: 'wk tot {tot} v'.")
        user = rng.choice(("Notebook page for the week.", "Here's the week from the notebook.",
                           "Transcribing is for younger men — photo of the page."))
    else:
        capt = (f"Screenshot of a spreadsheet titled 'Skellick 2025'. Columns: Date, Site, Kenning, Haul (v), "
                f"Clarity (ord), Sough (nell), Dist (km). Rows: {'; '.join(rows)}. The sheet tab below says 'Season'.")
        user = rng.choice(("My grandson set up a spreadsheet for me. These are the latest rows.",
                           "Spreadsheet rows since last time.", "From the spreadsheet."))
    return {"user": user, "captions": [capt], "records": recs}


def b_trade_forms(rng, f):
    forms = {"buyer": f["buyer"], "sold_vel": vel_form(rng, f["sold_vel"])}
    if "kenning" in f:
        forms["kenning"] = f["kenning"]
    a = f["amount_gbp"]
    forms["amount_gbp"] = f"£{int(a)}" if a == a.to_integral_value() and rng.random() < 0.5 else f"£{money(a)}"
    return forms


def b_trades(rng, evs, ses):
    """All trades of one moot day."""
    obs = evs[0]["obs"]
    cue = b_cue(rng, obs, ses)
    recs, parts = [], []
    for ev in evs:
        f = ev["f"]
        forms = b_trade_forms(rng, f)
        name = rng.choice(BUYER_NAME[f["buyer"]])
        ken = f"of {f['kenning']}" if "kenning" in f else "from the mixed tub"
        parts.append((name, forms, ken))
        recs.append(b_rec(ev, forms, cue or "this morning"))
    cue = cue or "this morning"
    if len(evs) == 2:
        (n1, f1, k1), (n2, f2, k2) = parts
        user = (f"Moot{when(cue)}: {n1} took {f1['sold_vel']} {k1} for {f1['amount_gbp']}, and {n2} had "
                f"{f2['sold_vel']} {k2} for {f2['amount_gbp']}.")
        return {"user": user, "captions": [], "records": recs}
    (name, forms, ken), = parts
    f = evs[0]["f"]
    style = rng.randrange(4)
    if style == 0:
        user = f"Sold {forms['sold_vel']} {ken} to {name} at the moot{when(cue)} for {forms['amount_gbp']}."
        return {"user": user, "captions": [], "records": recs}
    if style == 1:
        k = f" {f['kenning']}" if "kenning" in f else ", mixed"
        user = f"{forms['amount_gbp']} from {name}{when(cue)}, {forms['sold_vel']}{k}."
        return {"user": user, "captions": [], "records": recs}
    stamp = written(obs, "dm")
    for r in recs:
        r["date_form"] = stamp
    short = vel_form(rng, f["sold_vel"], short=True)
    recs[0]["forms"]["sold_vel"] = short
    ktxt = f" {f['kenning']}" if "kenning" in f else " mixed"
    if f["buyer"] == "Quessley":
        capt = (f"Photo of a carbon-copy chit torn from a receipt book, stamped 'QUESSLEY · HESSINGBY MOOT'. "
                f"Handwritten: '{stamp} — recd {short}{ktxt} — {forms['amount_gbp']}'. A coffee ring partly covers "
                f"the stamp.")
        user = rng.choice(("Chit from the Quessley stall.", "The Quessley lot still do carbon copies, bless them."))
    elif f["buyer"] == "Teshka":
        capt = (f"Photo of a page torn from a small notebook, in looping handwriting: 'Bought off Aurelio {stamp}: "
                f"{short}{ktxt}, paid {forms['amount_gbp']} — Teshka M.' A doodle of a cat sits in the corner.")
        user = rng.choice(("Teshka writes everything down, here's her note.", "Teshka's note from the moot."))
    else:
        capt = (f"Screenshot of a banking app: 'Incoming payment · Orlo Vantrell · {forms['amount_gbp']} · "
                f"{stamp}' with the reference line 'skellick {short}{ktxt}'.")
        user = rng.choice(("Orlo paid by transfer for once.", "Orlo's payment came through."))
    return {"user": user, "captions": [capt], "records": recs}


B_ACK = ("Logged the {site} trip.", "Got it — {site} is in.", "Noted. That's the {site} outing saved.",
         "Thanks, logged.", "In the book.", "Saved.")
B_ACK_MANY = ("All of those are logged.", "Got the lot.", "Thanks — every line is in.", "Done, all saved.")
B_ACK_TRADE = ("Sale logged.", "Noted the sale.", "Got it — that's in the sales log.", "Logged, thanks.")


def b_ack(rng, rnd):
    recs = rnd["records"]
    if all(r["type"] == "trade" for r in recs):
        return rng.choice(B_ACK_TRADE)
    if len(recs) == 1:
        return rng.choice(B_ACK).format(site=recs[0]["f"]["site"])
    return rng.choice(B_ACK_MANY)


B_SMALLTALK = [
    ("The curlews are back on the top moor. Best sound in the world.",
     "That's a lovely sign of the season turning."),
    ("My granddaughter wants to come gleaning with me. She's seven, she'll be bored in ten minutes.",
     "She might surprise you — especially if Tuvi finds things for her."),
    ("Baked bread for the first time in years. Edible. Just.",
     "Edible is a perfectly good first step."),
    ("Pub quiz last night, came second to the vicar's team again.",
     "The vicar's team sounds like a formidable rival."),
    ("I found my old surveying chain in the shed. Forty years old and not a link out of place.",
     "They made those to last. A nice piece of history to keep."),
    ("Tuvi rolled in something unspeakable on the way home. Bath time.",
     "The price of a happy dog."),
    ("Do you know why peat smells stronger after rain?",
     "Rain releases compounds from the soil and plant matter into the air, and damp peat holds a lot of them."),
    ("The allotment is three weeks behind everyone else's. I blame the gleaning.",
     "Priorities — the allotment will catch up."),
    ("My wife says I come back from the moor looking ten years younger and smelling ten years older.",
     "That sounds like an honest review."),
    ("Listened to a radio play about lighthouse keepers while cleaning nodules. Very soothing.",
     "A good pairing — slow work and a good story."),
    ("The parish council wants to put a car park at the bottom of Illiby lane. Over my dead body.",
     "Sounds like a lively meeting is coming."),
    ("Got a new loupe — 10x instead of my old 8x. Everything looks cloudier now, which is humbling.",
     "More magnification does reveal more flaws — you'll recalibrate your eye quickly."),
    ("Saw a hen harrier over Karrow a while back and I still can't stop thinking about it.",
     "What a sighting — that would stay with anyone."),
    ("Mended the fence at the back. Took all afternoon and two plasters.",
     "Worth it if the fence stays up."),
    ("My brother thinks gleaning is 'picking up rocks'. I've stopped explaining.",
     "Some hobbies only make sense from the inside."),
    ("Tuvi's getting on a bit. She still runs ahead, just slower.",
     "She sounds like a great companion, at whatever speed."),
    ("Re-reading an old book on moorland place names. Half of them mean 'wet hill'.",
     "That's very on brand for moorland."),
    ("Tea with the old gleaners at the Drovers. They tell the same stories every time and I love it.",
     "Those stories are part of the hobby's history."),
    ("What's a good way to store nodules so they don't crack?",
     "Somewhere cool with steady humidity, wrapped individually in soft cloth or paper, helps avoid cracking."),
    ("Fixed the puncture on the car. Twenty minutes I'll never get back.",
     "At least it's done before the next trip."),
    ("My grandson showed me how to use spreadsheets properly. I'm dangerous now.",
     "A surveyor with spreadsheets — look out."),
    ("Got caught in hail on the top road once this spring. Tuvi has never forgiven the sky.",
     "Hail is a personal insult to dogs."),
    ("Cleaned and sorted the whole store cupboard. It looks like a museum.",
     "A well-organised collection is half the pleasure."),
    ("Watched the football with my neighbour. We lost, as is tradition.",
     "Tradition is important."),
    ("I keep meaning to label my jars with the hollow they came from. Next week, definitely.",
     "Future you will be grateful."),
    ("Someone's been digging at Wendle Scar without backfilling. Makes my blood boil.",
     "That's frustrating — it damages the hollow for everyone."),
    ("Bought new boots. The old ones had seen more bog than any boots should.",
     "They earned their retirement."),
    ("Nothing to log. Just sat in the garden with a pot of tea.",
     "Sounds like a good day all the same."),
    ("The vicar asked me to give a talk on gleaning at the village hall. I said I'd think about it.",
     "You'd have plenty of stories to tell."),
    ("Is it daft to feel attached to particular hollows?",
     "Not at all — you know them the way a gardener knows their beds."),
    ("Tuvi found a sheep's skull and is very proud of herself.",
     "A trophy to be proud of, by her standards."),
    ("My knees are fine today, for the record. Miracles happen.",
     "Glad to hear it — make the most of it."),
    ("The Drovers has changed its pie supplier and the whole village is in mourning.",
     "A genuine local crisis."),
    ("Wrote to my old survey partner for the first time in years. He's still in Orkney.",
     "That's a nice thing to have done."),
    ("Found a fossil fern in a bit of peat. Not skellick, but lovely.",
     "A nice find — the moor keeps surprising."),
    ("Weather forecast for the week is 'changeable'. That's every week up here.",
     "Changeable is the moor's default setting."),
    ("Spent the evening polishing a big sarn piece. It's going on the mantelpiece, not to the moot.",
     "Some pieces are for keeping."),
    ("Had the grandkids over. The house is now mostly crumbs.",
     "Sounds like a successful visit."),
    ("Do you think I should get a GPS unit instead of relying on the watch?",
     "The watch is probably fine for distance; a dedicated unit helps mainly with mapping and battery life."),
    ("The church bells are being rehung and the village is strangely quiet without them.",
     "Funny how you notice a sound most when it's gone."),
    ("Bramble scratches up both arms. Illiby's getting overgrown.",
     "Maybe time for long sleeves on that route."),
    ("My daughter rang — she's thinking of moving back up north.",
     "That would be lovely for you, if it happens."),
    ("Tuvi slept the whole evening on my feet. Can't complain.",
     "A warm dog on your feet is hard to beat."),
    ("The old gleaner's hut at Ostren Ford has finally lost its roof.",
     "Sad to see a landmark go."),
    ("I've started a scrapbook of moot posters. Don't laugh.",
     "No laughing — that's a lovely record to keep."),
    ("Strimmed the verge in front of the house. Felt very civic.",
     "The village thanks you."),
    ("Read that skellick was used for buttons in the old days. Makes sense, the ambrine looks like horn.",
     "A nice bit of history for your talk, if you do it."),
    ("We've had a windy spell, so I've been sorting old photos in the evenings.",
     "A good use of wild weather."),
    ("The lad at the hardware shop called me 'sir' and I felt a hundred years old.",
     "Take it as respect, not age."),
    ("Found a second-hand copy of the old Ossery survey maps. 1932 edition.",
     "What a find for a surveyor."),
    ("Quiet evening. Radio, dog, bed.",
     "A solid plan."),
    ("Tuvi met a hedgehog in the garden. Nobody won.",
     "A diplomatic draw."),
    ("Cut back the hawthorn by the gate. It fought back.",
     "Hawthorn always does."),
    ("Thinking of making display boxes for the best nodules. Oak, maybe.",
     "Oak would suit them — warm wood against that amber colour."),
    ("The road over the top is closed for resurfacing, so it's the long way round to everything.",
     "Annoying — hopefully it's quick work."),
    ("My wife's started calling the spare room 'the skellick room'. It's not a compliment.",
     "Maybe time for those display boxes."),
    ("Lovely sunset over Pemmick from the kitchen window. Didn't even need to go up there.",
     "The best views are sometimes the free ones."),
    ("Choir practice tonight. Tenor section is down to three of us.",
     "Three tenors is a classic number."),
    ("Found Tuvi's old lead from when she was a pup. Tiny thing.",
     "That must bring back memories."),
    ("Someone at the Drovers asked if skellick is valuable. I said 'only to us'.",
     "That's the right answer."),
    ("Slept badly, the wind was rattling the slates all night.",
     "Hope you get a quieter one tonight."),
    ("Dropped a jar of pellow on the kitchen floor. Picking bits out of the grout for an hour.",
     "A very specific kind of punishment."),
]


def b_fixed() -> dict[int, list[dict]]:
    return {
        0: [fixed_round(
            "Right, let's get this set up. I glean skellick on the moors above the village — five hollows I work: "
            "Ostren Ford, Karrow Drift, Illiby Cut, Pemmick Rise and Wendle Scar. For each trip I note the haul, the "
            "kenning, clarity off the loupe, sometimes the sough, and how far I walked. One thing before we start: the "
            "moot scales weigh in dram-vels and my pocket scale does vels. One dram-vel is 12 vels, so I'll use both.",
            "Understood — I'll keep your trips together and treat a dram-vel as 12 vels so the two scales line up. "
            "Send them however suits you.", tag="factor", first=True)],
        1: [fixed_round("Tuvi, my old lurcher, comes on every trip. Honestly she's better at finding nodules than I am.",
                        "Every gleaner needs a good assistant. Tuvi sounds like a natural.", tag="dog"),
            fixed_round("Paid for the season's gleaning permit at the parish office.",
                        "Good — that's you legal for the summer.",
                        caption="Photo of a laminated card: 'Parish of Ossery · Gleaning permit 2025 · Holder: A. "
                                "Penhallow · Fee £45.00 · valid to 30 Sep 2025', with a faded parish crest.",
                        tag="permit")],
        2: [fixed_round("The moot's in Hessingby market hall, every Saturday, eight till noon. The tea urn is the real "
                        "attraction.", "Sounds like a proper institution.", tag="moot"),
            fixed_round("Wim came back from Karrow Drift with 5 dram-vels, all ambrine, and he's being unbearable "
                        "about it.", "Every group has a Wim. His luck will even out.")],
        3: [fixed_round("Had a word with the Quessley stall. They only take skellick at 7 ords clarity or better — "
                        "anything cloudier they won't touch.",
                        "Useful to know. I can tell you which of your hauls would clear that bar.", tag="bar")],
        4: [fixed_round("Moot noticeboard prices this week: ambrine £1.80 a vel, corvel £1.10, pellow 80p, sarn 'ask'.",
                        "Handy benchmarks for your own sales.",
                        caption="Photo of a chalkboard propped against a trestle table: 'SKELLICK — per vel — AMBRINE "
                                "1.80 · CORVEL 1.10 · PELLOW 0.80 · SARN ask'.")],
        5: [fixed_round("Joined the Ossery Gleaners' Guild — £12 a year, a newsletter and an old map of the hollows.",
                        "Welcome to the guild! The map alone sounds worth it.", tag="guild")],
        6: [fixed_round("Teshka offered £40 for my whole sarn stash but I said no — holding out for the autumn fair.",
                        "Fair enough, sarn should keep its value.")],
        7: [fixed_round("The guild chart ranks the kennings: sarn at the top, then ambrine, then corvel, with pellow "
                        "at the bottom.", "Good to have the guild's pecking order.", tag="chart")],
        8: [fixed_round("Set off for Wendle Scar but the fog came down at the stile and I turned back after 3 km. No "
                        "haul, so nothing to log.", "Wise call — the moor in fog is no place to be.")],
        9: [fixed_round("Tomorrow I'm hoping for 3 dram-vels at Pemmick Rise if the weather holds.",
                        "Fingers crossed for a clear day.")],
        11: [fixed_round("Guild newsletter says the district average is 2 dram-vels a trip. Cheeky, given how many of "
                         "them never walk further than the car park.", "Averages hide a lot.")],
        12: [fixed_round("Knee's playing up after all the peat-walking. Physio says ease off the long walks for a "
                         "week or two.", "Sensible — shorter hollows for a bit, then.")],
    }


def build_b() -> Scenario:
    rng = random.Random(B_SEED)
    sc = Scenario(B_NAME, {
        "name": "Aurelio Penhallow",
        "persona_summary": "58-year-old retired land surveyor living below the moors. With his lurcher Tuvi he gleans "
                           "skellick from five peat hollows, logging each trip's haul (in vels or dram-vels), "
                           "kenning, clarity (ords), sough (nells) and the distance walked, and sells some of it at "
                           "the Saturday moot.",
        "traits": ["methodical but wordy", "proud of his knees", "old-fashioned about units",
                   "fond of the moor's birds and history"],
        "conversation_style": "Mostly full, descriptive sentences; sometimes abbreviated notebook lines (hl, cl, kn, "
                              "sg), photos of notebook pages and spreadsheets, watch screenshots and moot receipts; "
                              "switches between vels and dram-vels freely."})
    evs = b_events(rng)
    sessions = [D(s) for s in B_SESSIONS]
    by_ses: list[list[dict]] = [[] for _ in sessions]
    for ev in evs:
        for i, s in enumerate(sessions):
            if ev["obs"] <= s:
                by_ses[i].append(ev)
                break
    small = list(B_SMALLTALK)
    rng.shuffle(small)
    fixed = b_fixed()
    render = {"prose": b_prose, "after": b_after, "watch": b_watch, "list": b_abbr, "table": b_table,
              "logbook": b_abbr}
    for si, ses in enumerate(sessions):
        gl = [e for e in by_ses[si] if e["type"] == "gleaning"]
        tr = [e for e in by_ses[si] if e["type"] == "trade"]
        logs = plan_rounds(rng, gl, si, ses, B_TABLE, B_LIST, set(), render,
                           ("prose", "prose", "after", "watch", "prose"), key=lambda e: SITES.index(e["f"]["site"]))
        days = sorted({e["obs"] for e in tr})
        for d in days:
            tlog = b_trades(rng, [e for e in tr if e["obs"] == d], ses)
            pos = sum(1 for r in logs if min(x["obs"] for x in r["records"]) <= d)
            logs.insert(pos, tlog)
        for r in logs:
            r["assistant"] = b_ack(rng, r)
        sc.add_session(ses, assemble(rng, logs, fixed.get(si, []), small))
    b_questions(sc)
    return sc


def b_questions(sc: Scenario) -> None:
    R = sc.records()
    G, T = "gleaning", "trade"
    MAY, JUN, JUL = month(2025, 5), month(2025, 6), month(2025, 7)
    allg, allt = sel(R, G), sel(R, T)
    U = "gleanings"

    # ---- AVG
    rs = sel(R, G, *JUN)
    v = rfrac(mean(rs, "haul_vel"), 1)
    sc.add("AVG", "What was my average haul per gleaning in June, in vels?",
           f"{v} vels per trip on average over {len(rs)} June gleanings.", jv(v), "number", rids(rs), 0.05, "vels")
    rs = sel(R, G, pred=lambda f: f["site"] == "Karrow Drift", has="clarity_ord")
    v = rfrac(mean(rs, "clarity_ord"), 1)
    sc.add("AVG", "What's my average clarity at Karrow Drift?",
           f"{v} ords, averaged over {len(rs)} Karrow Drift trips with a clarity reading.", jv(v), "number", rids(rs),
           0.05, "ords")
    rs = sel(R, G, pred=lambda f: f["kenning"] == "corvel", has="distance_km")
    v = rfrac(mean(rs, "distance_km"), 1)
    sc.add("AVG", "On the outings that turned up corvel, how far did I walk on average?",
           f"{v} km on average across {len(rs)} corvel outings with a distance.", jv(v), "number", rids(rs), 0.05, "km")
    hit = [r for r in allg if r["f"]["kenning"] == "ambrine"]
    v = rfrac(Fraction(100 * len(hit), len(allg)), 1)
    sc.add("AVG", "What share of my gleanings produced ambrine?",
           f"{v}% — {len(hit)} of your {len(allg)} gleanings were ambrine.", jv(v), "number", rids(allg), 0.05, "%")
    v = rfrac(mean(allt, "amount_gbp"), 2)
    sc.add("AVG", "What did a sale at the moot bring in on average?",
           f"£{money(v)} per sale, across {len(allt)} sales.", jv(v), "number", rids(allt), 0.05, "GBP")
    rs = sel(R, G, *JUL, has="sough_nell")
    need(len(rs) >= 3, "July sough")
    v = rfrac(mean(rs, "sough_nell"), 1)
    sc.add("AVG", "What was the average sough in July, on the trips where I measured it?",
           f"{v} nells, from {len(rs)} July sough readings.", jv(v), "number", rids(rs), 0.05, "nells")

    # ---- SUM
    rs = sel(R, G, *MAY)
    v = total(rs, "haul_vel")
    sc.add("SUM", "How many vels of skellick did I glean in total in May?",
           f"{v} vels in May, over {len(rs)} gleanings.", int(v), "number", rids(rs), 0, "vels")
    rs = sel(R, G, *JUN, has="distance_km")
    v = rfrac(total(rs, "distance_km"), 1)
    sc.add("SUM", "How far did I walk on my gleaning trips in June?",
           f"{v} km across {len(rs)} June trips with a distance.", jv(v), "number", rids(rs), 0.05, "km")
    v = rfrac(total(allt, "amount_gbp"), 2)
    sc.add("SUM", "How much have I made at the moot altogether?", f"£{money(v)} from {len(allt)} sales.", jv(v),
           "number", rids(allt), 0.01, "GBP")
    rs = sel(R, T, pred=lambda f: f["buyer"] == "Quessley")
    v = total(rs, "sold_vel")
    sc.add("SUM", "How many vels have I sold to the Quessley stall?",
           f"{v} vels, over {len(rs)} sales to the Quessley stall.", int(v), "number", rids(rs), 0, "vels")
    net = rfrac(total(allt, "amount_gbp"), 2) - B_PERMIT
    sc.add("SUM", "Once the permit is paid for, how much have my moot sales actually made me?",
           f"£{money(net)} — £{money(rfrac(total(allt, 'amount_gbp'), 2))} in sales minus the £45 permit.", jv(net),
           "number", rids(allt) + [sc.facts["permit"]], 0.01, "GBP")

    # ---- CNT
    rs = sel(R, G, pred=lambda f: f["site"] == "Illiby Cut")
    sc.add("CNT", "How many times did I glean at Illiby Cut?", f"{len(rs)} trips to Illiby Cut.", len(rs), "number",
           rids(rs), 0, U)
    rs = sel(R, G, pred=lambda f: f.get("clarity_ord", 0) >= B_BAR)
    sc.add("CNT", "How many of my gleanings were clear enough for the Quessley stall?",
           f"{len(rs)} gleanings reached 7 ords or better, the Quessley stall's bar.", len(rs), "number",
           rids(rs) + [sc.facts["bar"]], 0, U)
    rs = sel(R, G, *JUN, pred=lambda f: f["kenning"] == "pellow")
    sc.add("CNT", "How many times did I come back with pellow in June?", f"{len(rs)} pellow trips in June.", len(rs),
           "number", rids(rs), 0, U)
    rs = sel(R, G, pred=lambda f: f.get("distance_km", 0) > 12)
    sc.add("CNT", "How many of my outings were longer than 12 km?", f"{len(rs)} outings over 12 km.", len(rs),
           "number", rids(rs), 0, U)
    rs = sel(R, T, *JUL)
    sc.add("CNT", "How many sales did I make at the moot in July?", f"{len(rs)} sales in July.", len(rs), "number",
           rids(rs), 0, "sales")

    # ---- MAX
    top = max(r["f"]["haul_vel"] for r in allg)
    sc.add("MAX", "What was my biggest single haul, in vels?", f"{top} vels.", int(top), "number", rids(allg), 0,
           "vels")
    tots = {s_: total(sel(R, G, pred=lambda f, s_=s_: f["site"] == s_), "haul_vel") for s_ in SITES}
    ranked = sorted(SITES, key=lambda s_: -tots[s_])
    need(tots[ranked[0]] - tots[ranked[1]] >= 12, "site with most skellick")
    sc.add("MAX", "Which hollow has given me the most skellick in total?",
           f"{ranked[0]}, with {tots[ranked[0]]} vels all told.", ranked[0], "string", rids(allg), cands=SITES)
    rs = sel(R, G, has="distance_km")
    top = max(r["f"]["distance_km"] for r in rs)
    who = [r for r in rs if r["f"]["distance_km"] == top]
    need(len(who) == 1, "longest walk unique")
    sc.add("MAX", "On which day did I walk the farthest?",
           f"{nice_date(who[0]['obs'])} — {top} km to {who[0]['f']['site']}.", who[0]["obs"].isoformat(), "date",
           rids(rs))
    paid = {b: total(sel(R, T, pred=lambda f, b=b: f["buyer"] == b), "amount_gbp") for b in BUYERS}
    ranked = sorted(BUYERS, key=lambda b: -paid[b])
    need(paid[ranked[0]] - paid[ranked[1]] >= 5, "top buyer")
    sc.add("MAX", "Which buyer has paid me the most overall?",
           f"{ranked[0]} — £{money(rfrac(paid[ranked[0]], 2))} in total.", ranked[0], "string", rids(allt),
           cands=BUYERS)

    # ---- MIN
    rs = sel(R, G, has="clarity_ord")
    low = min(r["f"]["clarity_ord"] for r in rs)
    sc.add("MIN", "What's the lowest clarity I've logged?", f"{low} ords.", jv(low), "number", rids(rs), 0, "ords")
    cm = {s_: mean(sel(R, G, pred=lambda f, s_=s_: f["site"] == s_, has="clarity_ord"), "clarity_ord") for s_ in SITES}
    ranked = sorted(SITES, key=lambda s_: cm[s_])
    need(rel_gap(cm[ranked[0]], cm[ranked[1]]) >= Fraction(15, 1000), "lowest clarity site")
    sc.add("MIN", "Which site has the lowest average clarity?",
           f"{ranked[0]}, averaging {rfrac(cm[ranked[0]], 1)} ords.", ranked[0], "string", rids(rs), cands=SITES)
    low = min(r["f"]["haul_vel"] for r in allg)
    who = [r for r in allg if r["f"]["haul_vel"] == low]
    need(len(who) == 1, "smallest haul unique")
    sc.add("MIN", "Which day brought my smallest haul?",
           f"{nice_date(who[0]['obs'])} — just {low} vels at {who[0]['f']['site']}.", who[0]["obs"].isoformat(),
           "date", rids(allg))

    # ---- LAT
    rs = sel(R, G, pred=lambda f: f["site"] == "Pemmick Rise")
    last = max(rs, key=lambda r: r["obs"])
    sc.add("LAT", "When was I last up at Pemmick Rise?", f"{nice_date(last['obs'])}.", last["obs"].isoformat(),
           "date", [last["round"]])
    rs = sel(R, G, pred=lambda f: f["site"] == "Ostren Ford")
    last = max(rs, key=lambda r: r["obs"])
    sc.add("LAT", "What kenning did I find on my last trip to Ostren Ford?",
           f"{last['f']['kenning']}, on {nice_date(last['obs'])}.", last["f"]["kenning"], "string", [last["round"]],
           cands=KEN)
    latest = max(r["obs"] for r in allt)
    last = [r for r in allt if r["obs"] == latest]
    if len(last) == 1:
        qtext = "How many vels did I sell in my most recent sale?"
    else:
        last = [r for r in last if r["f"]["buyer"] == "Teshka"] or last[:1]
        qtext = f"How many vels did I sell to {BUYER_NAME[last[0]['f']['buyer']][0]} most recently?"
        need(len(last) == 1, "latest sale")
    sc.add("LAT", qtext, f"{last[0]['f']['sold_vel']} vels, on {nice_date(last[0]['obs'])}.",
           int(last[0]["f"]["sold_vel"]), "number", [last[0]["round"]], 0, "vels")
    last = max(allg, key=lambda r: r["obs"])
    need("clarity_ord" in last["f"], "latest gleaning has clarity")
    sc.add("LAT", "What clarity did my most recent gleaning have?",
           f"{last['f']['clarity_ord']} ords, at {last['f']['site']} on {nice_date(last['obs'])}.",
           jv(last["f"]["clarity_ord"]), "number", [last["round"]], 0, "ords")

    # ---- RNG
    rs = sel(R, G, pred=lambda f: f["kenning"] == "sarn")
    names = sorted({r["f"]["site"] for r in rs})
    need(1 <= len(names) < 5, "sarn sites")
    sc.add("RNG", "At which sites have I found sarn?", " and ".join(names) + ".", names, "list", rids(rs), cands=SITES)
    rs = sel(R, G, *JUN, pred=lambda f: f["haul_vel"] > 36)
    days = sorted({r["obs"].isoformat() for r in rs})
    need(len(days) >= 2, "June hauls over 3 dram-vels")
    sc.add("RNG", "Which days in June did my haul top 3 dram-vels?",
           ", ".join(nice_date(D(x)) for x in days) + ".", days, "list", rids(rs))
    rs = sel(R, G, pred=lambda f: f["site"] == "Karrow Drift")
    kk = sorted({r["f"]["kenning"] for r in rs})
    need(2 <= len(kk) < 4, "Karrow kennings")
    sc.add("RNG", "Which kennings have I found at Karrow Drift?", " and ".join(kk) + ".", kk, "list", rids(rs),
           cands=KEN)
    rs = sel(R, T, pred=lambda f: f.get("kenning") == "pellow")
    bb = sorted({r["f"]["buyer"] for r in rs}, key=BUYERS.index)
    need(1 <= len(bb) < 3, "pellow buyers")
    sc.add("RNG", "Who has bought pellow from me?", " and ".join(bb) + ".", sorted(bb), "list", rids(rs),
           cands=BUYERS)

    # ---- CMP
    a_ = sel(R, G, pred=lambda f: f["site"] == "Ostren Ford")
    b_ = sel(R, G, pred=lambda f: f["site"] == "Wendle Scar")
    a, b = mean(a_, "haul_vel"), mean(b_, "haul_vel")
    need(rel_gap(a, b) >= Fraction(15, 1000), "Ostren vs Wendle haul")
    win = "Ostren Ford" if a > b else "Wendle Scar"
    sc.add("CMP", "Is my average haul bigger at Ostren Ford or at Wendle Scar?",
           f"{win}: {rfrac(max(a, b), 1)} vels per trip against {rfrac(min(a, b), 1)}.", win, "string",
           rids(a_) + rids(b_), cands=("Ostren Ford", "Wendle Scar"))
    a_ = sel(R, G, pred=lambda f: f["kenning"] == "corvel", has="clarity_ord")
    b_ = sel(R, G, pred=lambda f: f["kenning"] == "ambrine", has="clarity_ord")
    a, b = mean(a_, "clarity_ord"), mean(b_, "clarity_ord")
    need(rel_gap(a, b) >= Fraction(15, 1000), "corvel vs ambrine clarity")
    win = "corvel" if a > b else "ambrine"
    sc.add("CMP", "Which comes out clearer on average, my corvel or my ambrine?",
           f"{win}, at {rfrac(max(a, b), 1)} ords against {rfrac(min(a, b), 1)}.", win, "string", rids(a_) + rids(b_),
           cands=("corvel", "ambrine"))
    a_, b_ = sel(R, G, *MAY, has="distance_km"), sel(R, G, *JUN, has="distance_km")
    a, b = total(a_, "distance_km"), total(b_, "distance_km")
    need(abs(a - b) >= 20, "May vs June km")
    win = "May" if a > b else "June"
    sc.add("CMP", "Did I walk more in total in May or in June?",
           f"{win} — {rfrac(max(a, b), 1)} km against {rfrac(min(a, b), 1)} km.", win, "string", rids(a_) + rids(b_),
           cands=("May", "June"))
    a_ = sel(R, G, pred=lambda f: f["site"] == "Illiby Cut", has="clarity_ord")
    b_ = sel(R, G, pred=lambda f: f["site"] == "Pemmick Rise", has="clarity_ord")
    a, b = mean(a_, "clarity_ord"), mean(b_, "clarity_ord")
    need(rel_gap(a, b) >= Fraction(15, 1000), "Illiby vs Pemmick clarity")
    win = "Illiby Cut" if a > b else "Pemmick Rise"
    sc.add("CMP", "Is my average clarity higher at Illiby Cut or at Pemmick Rise?",
           f"{win}, {rfrac(max(a, b), 1)} ords against {rfrac(min(a, b), 1)}.", win, "string", rids(a_) + rids(b_),
           cands=("Illiby Cut", "Pemmick Rise"))

    # ---- TRD
    a_, b_ = sel(R, G, *MAY, has="clarity_ord"), sel(R, G, *JUN, has="clarity_ord")
    a, b = mean(a_, "clarity_ord"), mean(b_, "clarity_ord")
    need(rel_gap(a, b) >= Fraction(15, 1000), "clarity May->June")
    tr = "increased" if b > a else "decreased"
    sc.add("TRD", "Did my average clarity go up or down from May to June?",
           f"{tr} — {rfrac(a, 1)} ords in May, {rfrac(b, 1)} in June.", tr, "string", rids(a_) + rids(b_),
           cands=("increased", "decreased"))
    a_, b_ = sel(R, G, *MAY), sel(R, G, *JUN)
    a, b = total(a_, "haul_vel"), total(b_, "haul_vel")
    need(rel_gap(a, b) >= Fraction(1, 10), "haul total May->June")
    tr = "increased" if b > a else "decreased"
    sc.add("TRD", "Did the total amount I gleaned rise or fall from May to June?",
           f"{tr} — {a} vels in May, {b} vels in June.", tr, "string", rids(a_) + rids(b_),
           cands=("increased", "decreased"))
    a_, b_ = sel(R, G, *JUN, has="sough_nell"), sel(R, G, *JUL, has="sough_nell")
    a, b = mean(a_, "sough_nell"), mean(b_, "sough_nell")
    need(rel_gap(a, b) >= Fraction(15, 1000), "sough June->July")
    tr = "increased" if b > a else "decreased"
    sc.add("TRD", "Has the sough gone up or down from June to July?",
           f"{tr} — {rfrac(a, 1)} nells on average in June, {rfrac(b, 1)} in July.", tr, "string",
           rids(a_) + rids(b_), cands=("increased", "decreased"))

    # ---- RET
    sc.add("RET", "How many vels make a dram-vel?", "12 vels to the dram-vel.", 12, "number", [sc.facts["factor"]], 0,
           "vels")
    sc.add("RET", "Where is the moot held?", "In Hessingby market hall, Saturdays eight till noon.", "Hessingby",
           "string", [sc.facts["moot"]])
    sc.add("RET", "How much did my season gleaning permit cost?", "£45.00, paid at the parish office.", 45, "number",
           [sc.facts["permit"]], 0, "GBP")
    sc.add("RET", "What's my dog called?", "Tuvi, your old lurcher.", "Tuvi", "string", [sc.facts["dog"]])
    sc.add("RET", "Which gleaners' guild did I join?", "The Ossery Gleaners' Guild.", "Ossery Gleaners' Guild",
           "string", [sc.facts["guild"]])
    sc.add("RET", "What clarity does the Quessley stall insist on?", "7 ords or better.", 7, "number",
           [sc.facts["bar"]], 0, "ords")
    sc.add("RET", "Which kenning does the guild chart rank highest?", "Sarn, at the top of the guild chart.", "sarn",
           "string", [sc.facts["chart"]])


# ============================================================================ main

def main() -> int:
    built = [build_a(), build_b()]
    for sc in built:
        validate(sc)
    (HERE / "dialog").mkdir(exist_ok=True)
    (HERE / "records").mkdir(exist_ok=True)
    for sc in built:
        (HERE / "dialog" / f"{sc.name}.json").write_text(
            json.dumps(sc.dialog_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        (HERE / "records" / f"{sc.name}.jsonl").write_text(sc.records_jsonl(), encoding="utf-8")
        recs = sc.records()
        by_type: dict[str, int] = {}
        for r in recs:
            by_type[r["type"]] = by_type.get(r["type"], 0) + 1
        rounds = sum(len(s["rounds"]) for s in sc.sessions)
        images = sum(len(r["captions"]) for _, r in sc.all_rounds())
        earlier = sum(1 for s, r in sc.all_rounds() for rec in r["records"] if rec["obs"] < s["date"])
        pts: dict[str, int] = {}
        for qa in sc.qas:
            pts[qa["point"]] = pts.get(qa["point"], 0) + 1
        print(f"{sc.name}: {len(sc.sessions)} sessions {sc.sessions[0]['date']}..{sc.sessions[-1]['date']}, "
              f"{rounds} rounds, {images} images, records {by_type} ({earlier} backfilled), {len(sc.qas)} QAs {pts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
