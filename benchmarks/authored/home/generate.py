#!/usr/bin/env python3
"""Deterministic generator for two analytic-memory test scenarios: home_energy and garden_harvest.

    python3 generate.py        # writes dialog/<scenario>.json and records/<scenario>.jsonl

Python 3.11 standard library only. Every scenario draws from its own random.Random seeded with a
fixed string; gold values come from exact Fraction arithmetic with half-up rounding; nothing
depends on set or dict ordering, so the output is byte-identical on every run. Nothing is
written unless every check passes (literal values in their rounds, recoverable dates, clue
rounds exist, sorted lists, candidates contain the gold, compare gaps are unambiguous).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import sys
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction as F
from pathlib import Path

HERE = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent  # where dialog/ and records/ go
WD = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WD3 = tuple(w[:3] for w in WD)
MON = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
       "November", "December")
MON3 = tuple(m[:3] for m in MON)
DAY = dt.timedelta(days=1)


# ---------------------------------------------------------------------------------------------
# numbers
# ---------------------------------------------------------------------------------------------

def fr(x) -> F:
    """Exact Fraction from a decimal string / Decimal / int."""
    return F(Decimal(str(x)))


def rhu(x: F, places: int) -> Decimal:
    """Half-up rounding of an exact Fraction to ``places`` decimals."""
    with localcontext() as ctx:
        ctx.prec = 60
        d = Decimal(x.numerator) / Decimal(x.denominator)
        return d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def qf(x: float, places: int) -> F:
    """A float model value quantised (half-up) to ``places`` decimals, as an exact Fraction."""
    return F(Decimal(repr(x)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def s(x: F, places: int) -> str:
    """Fixed-decimal text of an exact value."""
    return str(rhu(x, places))


def sc(x: F, places: int) -> str:
    """Fixed-decimal text with thousands separators."""
    d = rhu(x, places)
    return f"{d:,.{places}f}"


def jnum(x) -> int | float:
    """JSON number of an exact value (int when whole)."""
    if isinstance(x, F):
        return int(x) if x.denominator == 1 else float(x)
    return x


def jround(x: F, places: int) -> int | float:
    d = rhu(x, places)
    return int(d) if places == 0 else float(d)


def mean(xs: list[F]) -> F:
    assert xs, "mean of nothing"
    return sum(xs, F(0)) / len(xs)


# ---------------------------------------------------------------------------------------------
# dates
# ---------------------------------------------------------------------------------------------

def d_long(d: dt.date) -> str:           # March 4
    return f"{MON[d.month - 1]} {d.day}"


def d_longy(d: dt.date) -> str:          # March 4, 2025
    return f"{MON[d.month - 1]} {d.day}, {d.year}"


def d_uk(d: dt.date) -> str:             # 4 Mar
    return f"{d.day} {MON3[d.month - 1]}"


def d_ukl(d: dt.date) -> str:            # 4 March
    return f"{d.day} {MON[d.month - 1]}"


def d_card(d: dt.date) -> str:           # Tue 4 Mar 2025
    return f"{WD3[d.weekday()]} {d.day} {MON3[d.month - 1]} {d.year}"


def d_row(d: dt.date) -> str:            # Tue 4 Mar
    return f"{WD3[d.weekday()]} {d.day} {MON3[d.month - 1]}"


def d_slash(d: dt.date) -> str:          # 04/03/2025 (UK)
    return f"{d.day:02d}/{d.month:02d}/{d.year}"


def d_note(d: dt.date) -> str:           # 4/3 (UK notebook)
    return f"{d.day}/{d.month}"


def d_nice(d: dt.date) -> str:           # March 4, 2025 (answers)
    return d_longy(d)


_MONRX = r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
_WDRX = r"(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s+)?"


def parse_cue_date(lit: str, session: dt.date) -> dt.date | None:
    """The date a written date cue names (UK day/month order for slashes)."""
    y = session.year
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", lit)
    if m:
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})(?:/(\d{4}))?", lit)
    if m:
        return dt.date(int(m[3]) if m[3] else y, int(m[2]), int(m[1]))
    m = re.fullmatch(_WDRX + r"(\d{1,2})(?:st|nd|rd|th)?\s+" + _MONRX + r"(?:,?\s+(\d{4}))?", lit)
    if m:
        return dt.date(int(m[3]) if m[3] else y, MON3.index(m[2]) + 1, int(m[1]))
    m = re.fullmatch(_WDRX + _MONRX + r"\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?", lit)
    if m:
        return dt.date(int(m[3]) if m[3] else y, MON3.index(m[1]) + 1, int(m[2]))
    m = re.fullmatch(r"the (\d{1,2})(?:st|nd|rd|th)", lit)
    if m:  # the most recent such day of month, on or before the session
        d = session
        while d.day != int(m[1]):
            d -= DAY
        return d
    return None


# ---------------------------------------------------------------------------------------------
# dialogue structure
# ---------------------------------------------------------------------------------------------

class Rec:
    """One ground-truth observation. ``lits`` maps every field to (literal, kind, factor):
    the exact text the round shows and how it converts to the stored value."""

    def __init__(self, rtype: str, observed: dt.date, cue: tuple[str, str | None]):
        self.rtype, self.observed, self.cue = rtype, observed, cue
        self.fields: dict[str, object] = {}
        self.lits: dict[str, tuple[str, str, F]] = {}
        self.round = ""

    def num(self, field: str, value: F, lit: str, factor: F = F(1)) -> str:
        self.fields[field] = value
        self.lits[field] = (lit, "num", factor)
        return lit

    def lboz(self, field: str, lb: int, oz: F) -> str:
        lit = f"{lb} lb {s(oz, 1) if oz.denominator != 1 else int(oz)} oz"
        self.fields[field] = lb * fr("453.59237") + oz * fr("28.349523125")
        self.lits[field] = (lit, "lboz", F(1))
        return lit

    def cat(self, field: str, value: str, lit: str | None = None) -> str:
        self.fields[field] = value
        self.lits[field] = (lit or value, "str", F(1))
        return lit or value

    def get(self, field: str):
        return self.fields.get(field)

    def has(self, field: str) -> bool:
        return field in self.fields


class Round:
    def __init__(self, user: str, assistant: str, captions: list[str] | None = None, recs: list[Rec] | None = None,
                 key: str | None = None):
        self.user, self.assistant = user, assistant
        self.captions = captions or []
        self.recs = recs or []
        self.key = key
        self.rid = ""


class Dialog:
    def __init__(self, name: str, profile: dict):
        self.name, self.profile = name, profile
        self.sessions: list[tuple[str, dt.date, list[Round]]] = []
        self.keys: dict[str, str] = {}

    def session(self, date: dt.date, rounds: list[Round]) -> None:
        sid = f"D{len(self.sessions) + 1}"
        for i, r in enumerate(rounds, 1):
            r.rid = f"{sid}:{i}"
            for rec in r.recs:
                rec.round = r.rid
            if r.key:
                assert r.key not in self.keys, r.key
                self.keys[r.key] = r.rid
        self.sessions.append((sid, date, rounds))

    def records(self) -> list[Rec]:
        return [rec for _, _, rounds in self.sessions for r in rounds for rec in r.recs]

    def rounds(self) -> list[tuple[str, dt.date, Round]]:
        return [(sid, d, r) for sid, d, rounds in self.sessions for r in rounds]

    def to_json(self, qas: list[dict]) -> dict:
        out = []
        for sid, d, rounds in self.sessions:
            dl = []
            img = 0
            for r in rounds:
                ids, paths = [], []
                for _ in r.captions:
                    img += 1
                    ids.append(f"{sid}:IMG_{img:03d}")
                    paths.append(f"../image/{self.name}/{sid}_IMG_{img:03d}.jpg")
                dl.append({"round": r.rid, "user": r.user, "assistant": r.assistant, "image_id": ids,
                           "input_image": paths, "image_caption": list(r.captions)})
            out.append({"session_id": sid, "date": d.isoformat(), "dialogues": dl})
        return {"character_profile": self.profile, "multi_session_dialogues": out, "human-annotated QAs": qas}


def rkey(rid: str) -> tuple[int, int]:
    a, b = rid[1:].split(":")
    return int(a), int(b)


# ---------------------------------------------------------------------------------------------
# checks
# ---------------------------------------------------------------------------------------------

def _parse_lit(lit: str, kind: str, factor: F) -> F:
    if kind == "lboz":
        m = re.fullmatch(r"(\d+) lb (\d+(?:\.\d+)?) oz", lit)
        return int(m[1]) * fr("453.59237") + fr(m[2]) * fr("28.349523125")
    m = re.search(r"\d[\d,]*(?:\.\d+)?", lit)
    return fr(m.group(0).replace(",", "")) * factor


ALIASES = {  # surface forms a round may use for a categorical value (the user's own shorthand)
    "toms": "tomatoes", "spuds": "potatoes", "runners": "runner beans", "rasps": "raspberries",
    "courgette": "courgettes", "cucumber": "cucumbers", "beets": "beetroot", "gh": "greenhouse",
    "butt": "water butt", "water butts": "water butt",
}


def check_dialog(dlg: Dialog) -> None:
    prev = None
    for sid, d, rounds in dlg.sessions:
        assert 6 <= len(rounds) <= 10, (sid, len(rounds))
        assert prev is None or d > prev, sid
        prev = d
        for r in rounds:
            text = r.user + "\n" + "\n".join(r.captions)
            low = text.lower()
            for rec in r.recs:
                for f, (lit, kind, factor) in rec.lits.items():
                    if kind == "str":
                        assert re.search(r"(?<!\w)" + re.escape(lit.lower()), low), (r.rid, f, lit)
                        assert lit.lower() == str(rec.fields[f]).lower() or ALIASES.get(lit.lower()) == rec.fields[f], \
                            (r.rid, f, lit)
                    else:
                        assert re.search(r"(?<![\d.,])" + re.escape(lit) + r"(?![\d])", text), (r.rid, f, lit, text)
                        assert _parse_lit(lit, kind, factor) == rec.fields[f], (r.rid, f, lit, rec.fields[f])
                kind, lit = rec.cue
                if kind == "date":
                    assert lit in text, (r.rid, lit)
                    assert parse_cue_date(lit, d) == rec.observed, (r.rid, lit, rec.observed)
                elif kind == "weekday":
                    assert re.search(r"\b" + re.escape(lit) + r"\b", text), (r.rid, lit)
                    k = (d - rec.observed).days
                    assert 2 <= k <= 6 and WD[rec.observed.weekday()].startswith(lit), (r.rid, lit, rec.observed)
                elif kind == "yesterday":
                    assert lit.lower() in low and rec.observed == d - DAY, (r.rid, lit)
                elif kind == "today":
                    assert rec.observed == d, (r.rid, rec.observed)
                    assert lit is None or lit.lower() in low, (r.rid, lit)
                    assert "yesterday" not in low or len(r.recs) > 1, r.rid
                else:
                    raise AssertionError(kind)
                assert rec.observed <= d, r.rid


def check_qas(dlg: Dialog, qas: list[dict]) -> None:
    rids = {r.rid for _, _, r in dlg.rounds()}
    seen = set()
    for q in qas:
        assert q["question"] not in seen, q["question"]
        seen.add(q["question"])
        assert q["clue"], q["question"]
        assert all(c in rids for c in q["clue"]), q["question"]
        assert q["clue"] == sorted(set(q["clue"]), key=rkey), q["question"]
        v = q["answer_value"]
        if q["answer_type"] == "list":
            assert v == sorted(set(v)) and v, q["question"]
            if q.get("candidates"):
                assert all(x in q["candidates"] for x in v), q["question"]
        if q["answer_type"] == "string" and q.get("candidates"):
            assert v in q["candidates"], q["question"]
        if q["answer_type"] == "date":
            dt.date.fromisoformat(v)
        if q["answer_type"] != "number":
            assert q["tolerance"] == 0


# ---------------------------------------------------------------------------------------------
# QA builder
# ---------------------------------------------------------------------------------------------

class QA:
    def __init__(self, dlg: Dialog):
        self.dlg, self.items = dlg, []

    def add(self, point: str, question: str, answer: str, value, atype: str, clue_rounds, tol=0, unit=None,
            candidates=None, keys=()) -> None:
        clue = sorted(set(clue_rounds) | {self.dlg.keys[k] for k in keys}, key=rkey)
        sess = []
        for c in clue:
            sid = c.split(":")[0]
            if sid not in sess:
                sess.append(sid)
        q = {"point": point, "question": question, "answer": answer, "session_id": sess, "clue": clue,
             "answer_value": value, "answer_type": atype, "tolerance": tol}
        if unit:
            q["unit"] = unit
        if candidates:
            q["candidates"] = list(candidates)
        self.items.append(q)


def rounds_of(recs) -> list[str]:
    return sorted({r.round for r in recs}, key=rkey)


def gap_ok(a: F, b: F, rel: F) -> bool:
    lo = min(abs(a), abs(b))
    return abs(a - b) >= rel * lo and a != b


def unique_best(recs, keyf, largest=True):
    vals = sorted(recs, key=keyf, reverse=largest)
    assert len(vals) == 1 or keyf(vals[0]) != keyf(vals[1]), "tie for extreme"
    return vals[0]


# ---------------------------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------------------------

def dump(dlg: Dialog, qas: list[dict]) -> tuple[str, str]:
    data = json.dumps(dlg.to_json(qas), ensure_ascii=False, indent=1) + "\n"
    lines = []
    for rec in dlg.records():
        fields = {k: jnum(v) for k, v in rec.fields.items()}
        lines.append(json.dumps({"round": rec.round, "observed": rec.observed.isoformat(), "record_type": rec.rtype,
                                 "fields": fields}, ensure_ascii=False))
    return data, "\n".join(lines) + "\n"



# =============================================================================================
# home_energy — Helen Carew, smart meter, solar panels, Economy 7 then a time-of-use tariff
# =============================================================================================

H_SWITCH = dt.date(2025, 3, 3)       # Sunshift starts (one-off fact)
H_BUDGET = fr("3.80")                # daily budget set on the in-home display (one-off fact)
H_SPIKES = {
    dt.date(2025, 1, 23): "tumble dryer", dt.date(2025, 1, 28): "tumble dryer", dt.date(2025, 2, 8): "oven",
    dt.date(2025, 2, 12): "electric heater", dt.date(2025, 2, 22): "immersion heater",
    dt.date(2025, 2, 26): "immersion heater", dt.date(2025, 3, 8): "tumble dryer",
    dt.date(2025, 3, 13): "electric heater", dt.date(2025, 3, 20): "oven", dt.date(2025, 3, 25): "tumble dryer",
    dt.date(2025, 4, 5): "oven", dt.date(2025, 4, 8): "immersion heater", dt.date(2025, 4, 16): "tumble dryer",
}
APPLIANCES = ("electric heater", "immersion heater", "oven", "tumble dryer")
SPIKE_WHY = {   # (reason, earliest date it fits, latest date it fits)
    "tumble dryer": (("Alfie's rugby kit went through it twice", None, None),
                     ("the washing wouldn't dry outside so it ran most of the afternoon", None, None),
                     ("two loads of towels, one after the other", None, None),
                     ("Rob put it on at 5pm, slap bang in the peak", dt.date(2025, 3, 3), None)),
    "oven": (("three hours of roasting for Rob's parents", None, None),
             ("batch-cooking day, on all afternoon", None, None),
             ("Easter bakes, on from lunch till six", dt.date(2025, 4, 1), None)),
    "immersion heater": (("someone left it on boost", None, None),
                         ("its timer reset itself after the power blip and it ran all day", None, None),
                         ("on boost for the guests' showers", None, None)),
    "electric heater": (("the little one in my box-room office, on all day", None, None),
                        ("the radiator valve in my office is stuck again so that was on for hours", None, None)),
}


def spike_why(rng: random.Random, appl: str, d: dt.date) -> str:
    ok = [r for r, lo, hi in SPIKE_WHY[appl] if (lo is None or d >= lo) and (hi is None or d <= hi)]
    return rng.choice(ok)
H_RATES_E7 = {"day": fr("0.2790"), "night": fr("0.1320"), "standing": fr("0.5361")}
H_RATES_SS = {"peak": fr("0.3640"), "std": fr("0.2610"), "off": fr("0.1680"), "standing": fr("0.4985")}


class HomeModel:
    """Hidden day-by-day truth; rendered values are quantised from it per layout."""

    W_P = {12: (20, 45, 35), 1: (25, 45, 30), 2: (30, 45, 25), 3: (40, 40, 20), 4: (50, 35, 15)}
    SOLAR = {12: (1.5, 0.6, 0.25), 1: (2.3, 0.9, 0.4), 2: (3.9, 1.7, 0.7), 3: (8.1, 3.7, 1.6), 4: (12.2, 6.1, 2.9)}
    BASE = {12: 14.2, 1: 13.8, 2: 12.6, 3: 11.0, 4: 9.8}
    GAS = {12: 6.0, 1: 6.3, 2: 5.4, 3: 4.1, 4: 3.0}
    SPIKE_ADD = {"tumble dryer": (4.0, 6.0), "oven": (3.0, 4.5), "immersion heater": (5.0, 7.5),
                 "electric heater": (3.5, 5.5)}

    def __init__(self, rng: random.Random):
        self.day: dict[dt.date, dict] = {}
        d = dt.date(2024, 12, 1)
        while d <= dt.date(2025, 4, 30):
            m = d.month
            weather = rng.choices(("sunny", "cloudy", "rain"), self.W_P[m])[0]
            solar = self.SOLAR[m][("sunny", "cloudy", "rain").index(weather)] * rng.uniform(0.75, 1.25)
            base = self.BASE[m] + (1.2 if d.weekday() >= 5 else 0) + rng.uniform(-1.5, 1.5)
            spike = H_SPIKES.get(d)
            add = rng.uniform(*self.SPIKE_ADD[spike]) if spike else 0.0
            used = max(4.4 + 0.8 * rng.random(), base + add - 0.35 * solar)
            share = rng.uniform(0.27, 0.36) if d < H_SWITCH else rng.uniform(0.31, 0.42)
            peak_share = rng.uniform(0.16, 0.26) + (0.12 if spike in ("tumble dryer", "oven") else 0.0)
            gas = self.GAS[m] * rng.uniform(0.85, 1.15) + (0.4 if d.weekday() >= 5 else 0.0)
            self.day[d] = {"weather": weather, "solar": solar, "used": used, "share": share, "peak_share": peak_share,
                           "gas": gas, "spike": spike,
                           "temp": {12: 4, 1: 3, 2: 5, 3: 8, 4: 11}[m] + rng.randint(-3, 9) // 2}
            d += DAY
        self.gas_start = fr("3812.40")

    def gas_reading(self, d: dt.date) -> F:
        """Meter register on the morning of ``d``."""
        tot, x = 0.0, dt.date(2024, 12, 1)
        while x < d:
            tot += self.day[x]["gas"]
            x += DAY
        return self.gas_start + qf(tot, 2)


def home_cost(d: dt.date, used: F, off: F, peak: F) -> F:
    if d < H_SWITCH:
        r = H_RATES_E7
        c = (used - off) * r["day"] + off * r["night"] + r["standing"]
    else:
        r = H_RATES_SS
        c = peak * r["peak"] + (used - off - peak) * r["std"] + off * r["off"] + r["standing"]
    return F(rhu(c, 2))


class HomeWriter:
    def __init__(self, rng: random.Random, model: HomeModel):
        self.rng, self.m = rng, model

    # -- one electricity day ------------------------------------------------------------------
    def elec(self, d: dt.date, cue, used_dp=1, show=(), solar_fmt="kwh1", cost_fmt="gbp"):
        """A Rec for day d with 'used' plus the fields in ``show`` (off, solar, cost, weather, spike);
        returns (rec, literals)."""
        m = self.m.day[d]
        rec = Rec("electricity_day", d, cue)
        L: dict[str, str] = {}
        used = qf(m["used"], used_dp)
        off = qf(float(used) * m["share"], 1)
        peak = qf(float(used - off) * m["peak_share"], 1)
        cost = home_cost(d, used, off, peak)
        L["used"] = rec.num("used_kwh", used, s(used, used_dp))
        L["peak"], L["std"], L["day"] = s(peak, 1), s(used - off - peak, 1), s(used - off, 1)
        L["cost_val"] = cost
        if "off" in show:
            L["off"] = rec.num("offpeak_kwh", off, s(off, 1))
        if "cost" in show:
            if cost_fmt == "pence":
                L["cost"] = rec.num("cost_gbp", cost, f"{int(cost * 100)}p", F(1, 100))
            else:
                L["cost"] = "£" + rec.num("cost_gbp", cost, s(cost, 2))
        if "solar" in show:
            if solar_fmt == "kwh1":
                sol = qf(m["solar"], 1)
                L["solar"] = rec.num("solar_kwh", sol, s(sol, 1))
            else:
                sol = qf(m["solar"], 2)
                if solar_fmt == "auto" and sol < 1:
                    L["solar_wh"] = rec.num("solar_kwh", sol, f"{int(sol * 1000)}", F(1, 1000)) + " Wh"
                else:
                    L["solar"] = rec.num("solar_kwh", sol, s(sol, 2))
            L["solar_val"] = sol
        if "weather" in show:
            L["weather"] = rec.cat("weather", m["weather"])
        if "spike" in show and m["spike"]:
            L["spike"] = rec.cat("spike_appliance", m["spike"])
        return rec, L

    def wx_sentence(self, w: str) -> str:
        return self.rng.choice({
            "sunny": ("Properly sunny all day.", "Sunny, barely a cloud.", "Sunny from about nine o'clock.",
                      "Blue sky, sunny till late afternoon."),
            "cloudy": ("Cloudy and flat all day.", "Grey, cloudy day.", "Cloudy, never really brightened up.",
                       "Cloudy with the odd bright spell."),
            "rain": ("Rain all day.", "Heavy rain most of the day.", "Drizzle turning to proper rain by lunch.",
                     "Rain on and off, mostly on."),
        }[w])

    def spike_sentence(self, appl: str, d: dt.date) -> str:
        why = spike_why(self.rng, appl, d)
        return self.rng.choice((f"The spike was the {appl}: {why}.", f"Culprit: {appl} — {why}.",
                                f"Blame the {appl} for that one ({why}).", f"That jump is down to the {appl}; {why}."))

    # -- layouts ------------------------------------------------------------------------------
    def ihd_caption(self, tab: str, L: dict, budget_known: bool) -> str:
        cost = L["cost_val"]
        colour = "red" if cost > H_BUDGET else self.rng.choice(("amber", "green"))
        clock = f"{self.rng.randint(6, 8):02d}:{self.rng.randint(0, 59):02d}" if tab == "YESTERDAY" else \
            f"{self.rng.randint(22, 23)}:{self.rng.randint(0, 59):02d}"
        now = f"0.{self.rng.randint(12, 48)}"
        opts = [
            f"Photo of a small white in-home energy display leaning against the kettle. The '{tab}' tab is "
            f"highlighted; big digits read '{L['used']} kWh' and underneath '{L['cost']}'. The traffic-light bar "
            f"across the top is {colour}.",
            f"Slightly blurry close-up of the Beacon in-home display. Header 'Electricity · {tab.title()}'. Main "
            f"figure {L['used']} kWh, smaller line 'Cost {L['cost']}'. Bottom corner: clock {clock} and "
            f"'Now {now} kW'.",
        ]
        if budget_known:
            opts.append(f"Photo of the energy display on the hall shelf. Screen shows '{tab}' above '{L['used']} kWh' "
                        f"and '{L['cost']}', with a tiny seven-bar chart beside it; a yellow sticky note on the casing "
                        f"says 'budget £3.80/day'.")
        return self.rng.choice(opts)

    def ihd(self, d: dt.date, sdate: dt.date, budget_known=True, show=("cost",), extra_first=""):
        k = (sdate - d).days
        if k == 0:
            cue = ("today", self.rng.choice(("today", "tonight")))
            lead = self.rng.choice(("Bedtime check of the display, tonight's the quiet night.",
                                    "Display just before lights out tonight.")) if cue[1] == "tonight" else \
                "Quick photo of the display, that's today's figure, everyone's in bed."
            tab = "TODAY"
        elif k == 1:
            cue = ("yesterday", "yesterday")
            lead = self.rng.choice(("Yesterday's total from the display.", "Display photo for yesterday.",
                                    "Here's yesterday on the little screen."))
            tab = "YESTERDAY"
        elif k <= 6:
            wd = WD[d.weekday()]
            cue = ("weekday", wd)
            lead = self.rng.choice((f"Found this on my phone from {wd} night, never sent it.",
                                    f"Catching up: the display on {wd}, just before bed."))
            tab = "TODAY"
        else:
            cue = ("date", d_ukl(d))
            lead = f"This one's from {d_ukl(d)} — forgot to send it."
            tab = "TODAY"
        rec, L = self.elec(d, cue, used_dp=2, show=show, cost_fmt="pence", solar_fmt="kwh1")
        parts = [lead]
        if extra_first:
            parts.insert(0, extra_first)
        if "spike" in L:
            parts.append(self.spike_sentence(L["spike"], d))
        if "weather" in L:
            parts.append(self.wx_sentence(L["weather"]))
        if "solar" in L:
            parts.append(self.rng.choice((f"SunPort says the panels made {L['solar']} kWh.",
                                          f"Solar was {L['solar']} kWh.", f"Panels: {L['solar']} kWh.")))
        return Round(" ".join(parts), self.ack(rec), [self.ihd_caption(tab, L, budget_known)], [rec])

    def app_day(self, d: dt.date, split=True, show=(), note=""):
        rec, L = self.elec(d, ("date", d_card(d)), used_dp=1,
                           show=tuple(show) + ("cost",) + (("off",) if split else ()))
        sim = f"{self.rng.randint(88, 112) / 10:.1f}"
        hour = self.rng.choice(("07:30", "17:30", "18:00", "18:30", "12:30", "19:00"))
        if split and d < H_SWITCH:
            bands = f"Underneath: 'Day rate {L['day']} kWh | Night rate {L['off']} kWh'."
        elif split:
            bands = f"Underneath, three coloured chips: 'Peak {L['peak']} kWh', 'Standard {L['std']} kWh', " \
                    f"'Off-peak {L['off']} kWh'."
        else:
            st = "53.61p" if d < H_SWITCH else "49.85p"
            bands = f"Small print: 'includes standing charge {st}'."
        cap = self.rng.choice((
            f"Screenshot of the Calder Energy app, Usage → Day view for {d_card(d)}. Half-hourly bars, tallest "
            f"around {hour}. Summary tile: 'Electricity {L['used']} kWh · {L['cost']}'. {bands} Grey text: "
            f"'Similar homes used {sim} kWh'.",
            f"Phone screenshot, Calder app, 'Your day' card dated {d_card(d)}: '{L['used']} kWh used' in large type, "
            f"'{L['cost']}' next to a pound icon. {bands} A banner at the bottom advertises 'Refer a friend, get £50'.",
        ))
        parts = [note] if note else []
        parts.append(self.rng.choice(("App card.", "Here's the app's day view.", "Day view from the Calder app.",
                                      "Screenshot from the app for that day.")))
        if "spike" in L:
            parts.append(self.spike_sentence(L["spike"], d))
        if "weather" in L:
            parts.append(self.wx_sentence(L["weather"]))
        if "solar" in L:
            parts.append(f"Panels did {L['solar']} kWh that day.")
        return Round(" ".join(parts), self.ack(rec), [cap], [rec])

    def week(self, days: list[dt.date], style: str, intro: str):
        recs, rows, notes = [], [], []
        for d in days:
            cue = ("date", d_row(d)) if style in ("list", "chart") else ("date", d.isoformat())
            rec, L = self.elec(d, cue, used_dp=1, show=("cost", "spike"))
            recs.append((rec, L, d))
            if "spike" in L:
                notes.append(self.rng.choice((
                    f"The {d.day}{ordinal(d.day)} was the {L['spike']} — {spike_why(self.rng, L['spike'], d)}.",
                    f"{WD[d.weekday()]}'s jump = {L['spike']} ({spike_why(self.rng, L['spike'], d)}).")))
        tot_k = sum((r.fields["used_kwh"] for r, _, _ in recs), F(0))
        tot_c = sum((r.fields["cost_gbp"] for r, _, _ in recs), F(0))
        if style == "list":
            rows = "; ".join(f"'{d_row(d)} — {L['used']} kWh — {L['cost']}'" for _, L, d in recs)
            cap = (f"Screenshot of the Calder app 'Recent days' list, one row per day: {rows}. Bold footer: "
                   f"'Last {len(recs)} days: {s(tot_k, 1)} kWh · £{s(tot_c, 2)}'.")
        elif style == "csv":
            rows = " / ".join(f"{d.isoformat()}, {L['used']}, {L['cost'][1:]}" for _, L, d in recs)
            cap = (f"Screenshot of a spreadsheet opened from 'calder_usage_export.csv', columns 'date, kwh, cost_gbp'. "
                   f"Rows: {rows}. A SUM cell somebody typed underneath shows {s(tot_k, 1)}.")
        else:
            lab = ", ".join(f"{d_row(d)}: {L['used']}" for _, L, d in recs)
            cst = ", ".join(L["cost"] for _, L, _ in recs)
            cap = (f"Screenshot of the Calder app Week view, a bar chart with kWh values printed above each bar — "
                   f"{lab}. A cost row beneath the bars reads, left to right, {cst}. The remaining days of the week "
                   f"are empty grey stubs.")
        user = intro + (" " + " ".join(notes) if notes else "")
        return Round(user, self.rng.choice(ACK_MULTI).format(n=len(recs)), [cap], [r for r, _, _ in recs])

    def combo(self, d: dt.date, sdate: dt.date, show=("cost",), budget_known=True):
        k = (sdate - d).days
        assert k == 1
        rec, L = self.elec(d, ("yesterday", "yesterday"), used_dp=2, show=tuple(show) + ("solar", "weather", "spike"),
                           cost_fmt="pence", solar_fmt="auto")
        lifetime = fr("371.6") + qf(sum(v["solar"] for x, v in self.m.day.items() if x <= d), 1)
        ihd = self.ihd_caption("YESTERDAY", L, budget_known)
        yld = f"{L['solar_wh']}" if "solar_wh" in L else f"{L['solar']} kWh"
        pk = f"{min(3.6, float(L['solar_val']) / 3.2 + self.rng.uniform(0.1, 0.4)):.2f}"
        icon = {"sunny": "☀", "cloudy": "☁", "rain": "🌧"}[L["weather"]]
        temp = self.m.day[d]["temp"]
        sun = self.rng.choice((
            f"Screenshot of the SunPort solar app, Day tab, {d_ukl(d)} {d.year}. Generation curve peaking around "
            f"12:40. 'Yield {yld}' · 'Peak power {pk} kW' · 'Lifetime {sc(lifetime, 1)} kWh'. Weather strip: "
            f"{icon} {L['weather']} {temp}°C.",
            f"SunPort app screenshot. Top: '{d_ukl(d)} {d.year}'. Big ring chart labelled 'Today's yield {yld}', "
            f"small print 'CO₂ avoided {float(L['solar_val']) * 0.21:.1f} kg'. Weather chip: {icon} {L['weather']}.",
        ))
        parts = [self.rng.choice(("Yesterday: display plus the solar app.", "Both screens for yesterday.",
                                  "Yesterday's pair — grid and solar."))]
        if "spike" in L:
            parts.append(self.spike_sentence(L["spike"], d))
        return Round(" ".join(parts), self.ack(rec), [ihd, sun], [rec])

    def typed_full(self, d: dt.date, sdate: dt.date, show=("cost", "solar", "weather", "spike"), lead=None):
        k = (sdate - d).days
        if k == 1:
            cue, when = ("yesterday", "yesterday"), "Yesterday"
        elif 2 <= k <= 6:
            cue, when = ("weekday", WD[d.weekday()]), f"On {WD[d.weekday()]}"
        else:
            cue, when = ("date", d_ukl(d)), f"On {d_ukl(d)}"
        rec, L = self.elec(d, cue, used_dp=1, show=show)
        t = self.rng.randint(0, 1)
        if t == 0:
            txt = f"{when} we pulled {L['used']} kWh from the grid"
            txt += f" and it cost {L['cost']}." if "cost" in L else "."
        else:
            txt = f"Numbers for {when.lower() if k == 1 else when[3:]}: grid {L['used']} kWh"
            txt += f", {L['cost']}" if "cost" in L else ""
            txt += "."
        if "spike" in L:
            txt += " " + self.spike_sentence(L["spike"], d)
        if "solar" in L:
            txt += " " + self.rng.choice((f"The panels made {L['solar']} kWh.", f"Solar {L['solar']} kWh.",
                                          f"Roof did {L['solar']} kWh."))
        if "weather" in L:
            txt += " " + self.wx_sentence(L["weather"])
        if lead:
            txt = lead + " " + txt
        return Round(txt, self.ack(rec), [], [rec])

    def terse(self, days: list[tuple[dt.date, tuple]], sdate: dt.date, intro: str):
        lines, recs = [], []
        for d, show in days:
            k = (sdate - d).days
            cue = ("weekday", WD3[d.weekday()]) if 2 <= k <= 6 else ("date", d_uk(d))
            rec, L = self.elec(d, cue, used_dp=1, show=show)
            bits = [f"{L['used']} kWh"]
            if "cost" in L:
                bits.append(L["cost"])
            if "off" in L:
                bits.append(f"night {L['off']}" if d < H_SWITCH else f"off-peak {L['off']}")
            if "solar" in L:
                bits.append(f"PV {L['solar']}")
            if "weather" in L:
                bits.append(L["weather"])
            if "spike" in L:
                bits.append(f"spike = {L['spike']}")
            lines.append(f"- {cue[1]}: " + " / ".join(bits))
            recs.append(rec)
        return Round(intro + "\n" + "\n".join(lines), self.rng.choice(ACK_MULTI).format(n=len(recs)), [], recs)

    # -- gas ----------------------------------------------------------------------------------
    def gas(self, d: dt.date, sdate: dt.date, style: str, prev: F | None = None, lead=""):
        v = self.m.gas_reading(d)
        k = (sdate - d).days
        if style == "photo":
            assert k == 0
            rec = Rec("gas_reading", d, ("today", None))
            lit = rec.num("meter_m3", v, f"0{s(v, 2)}")
            cap = self.rng.choice((
                f"Torch-lit photo inside the outdoor meter box: a grey gas meter with a mechanical drum counter "
                f"reading {lit} m³, the last two digits on a red background. Sticker: 'G4 · Qmax 6 m³/h'.",
                f"Photo of the gas meter's counter, slightly angled: black digits and red decimals read "
                f"{lit} M3. A spider web across the corner of the box.",
            ))
            return Round((lead + " " if lead else "") + "Gas meter this morning.", "Saved the gas reading.", [cap],
                         [rec])
        if style == "typed":
            cue = ("yesterday", "last night") if k == 1 else ("today", "this morning")
            rec = Rec("gas_reading", d, cue)
            lit = rec.num("meter_m3", v, s(v, 2))
            return Round(f"Gas meter {cue[1]}: {lit} m³ (black digits {int(v):05d}, red {s(v, 2)[-2:]}).",
                         "Got it — gas reading logged.", [], [rec])
        rec = Rec("gas_reading", d, ("date", d_uk(d) + f" {d.year}"))
        lit = rec.num("meter_m3", v, f"0{s(v, 2)}")
        last = f" Greyed underneath: 'Previous reading 0{s(prev[1], 2)} m³ ({d_uk(prev[0])})'." if prev else ""
        cap = (f"Screenshot of the Calder app 'Submit a reading' confirmation: 'Thanks! Gas reading {lit} m³ received "
               f"on {d_uk(d)} {d.year}.'{last} Electricity register fields greyed out as 'read automatically'.")
        return Round("Submitted the gas reading through the app (the smart meter still doesn't send gas).",
                     "Thanks — gas reading noted.", [cap], [rec])

    def ack(self, rec: Rec) -> str:
        f = rec.fields
        base = self.rng.choice(ACK_ONE)
        if self.rng.random() < 0.5:
            return base + f" {float(f['used_kwh']):g} kWh from the grid" + \
                (f", £{s(f['cost_gbp'], 2)}." if "cost_gbp" in f else ".")
        return base


def ordinal(n: int) -> str:
    return "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


ACK_ONE = ("Logged.", "Noted.", "Got it.", "Saved that.", "Thanks, added.", "Done.")
ACK_MULTI = ("Logged all {n} days.", "Added {n} days to your log.", "Got {n} days from that, all saved.",
             "Thanks — {n} entries recorded.")


def home_bill(w: HomeWriter, month: tuple[int, int], issued: dt.date, sdate: dt.date, style: str) -> Round:
    y, mo = month
    days = []
    d = dt.date(y, mo, 1)
    while d.month == mo:
        days.append(d)
        d += DAY
    md = w.m.day
    used = sum(md[x]["used"] for x in days)
    night = sum(md[x]["used"] * md[x]["share"] for x in days)
    e_cost = F(0)
    for x in days:
        u = qf(md[x]["used"], 1)
        o = qf(float(u) * md[x]["share"], 1)
        p = qf(float(u - o) * md[x]["peak_share"], 1)
        e_cost += home_cost(x, u, o, p)
    m3 = qf(sum(md[x]["gas"] for x in days), 1)
    gas_kwh = F(rhu(m3 * fr("1.02264") * fr("39.4") / fr("3.6"), 0))
    export = qf(sum(0.65 * md[x]["solar"] for x in days), 1)
    g_cost = F(rhu(gas_kwh * fr("0.0634") + len(days) * fr("0.3165"), 2))
    e_cost = F(rhu(e_cost, 2))
    vat = F(rhu((e_cost + g_cost) * fr("0.05"), 2))
    total = e_cost + g_cost + vat
    tariff = "Economy 7" if mo != 3 else "Sunshift"
    mname = MON[mo - 1]
    k = (sdate - issued).days
    if style == "email":
        cue = ("date", f"{issued.day} {MON[issued.month - 1]} {issued.year}")
    elif style == "paper":
        cue = ("date", d_slash(issued))
    elif style == "pdf":
        cue = ("date", f"{d_uk(issued)} {issued.year}")
    else:
        assert 2 <= k <= 6
        cue = ("weekday", WD[issued.weekday()])
    rec = Rec("monthly_bill", issued, cue)
    L = {
        "month": rec.cat("billing_month", mname),
        "ek": rec.num("electricity_kwh", F(round(used)), str(round(used))),
        "gk": rec.num("gas_kwh", gas_kwh, sc(gas_kwh, 0)),
        "ex": rec.num("export_kwh", export, s(export, 1)),
        "tot": rec.num("total_gbp", total, sc(total, 2)),
        "tar": rec.cat("tariff", tariff),
    }
    nd = round(night)
    if style == "email":
        cap = (f"Screenshot of an email from Calder Energy, subject 'Your {mname} bill is ready', sent "
               f"{cue[1]}. Body: 'Billing period 1–{len(days)} {mname} {y}. Electricity ({L['tar']}): day "
               f"{round(used) - nd} kWh, night {nd} kWh, total {L['ek']} kWh — £{s(e_cost, 2)}. Gas: {s(m3, 1)} m³ "
               f"× 1.02264 × 39.4 ÷ 3.6 = {L['gk']} kWh — £{s(g_cost, 2)}. VAT at 5%: £{s(vat, 2)}. Total for "
               f"this period £{L['tot']}. Solar export this period: {L['ex']} kWh (paid separately). Your Direct "
               f"Debit of £165.00 will be collected on 1 {MON[issued.month % 12]}.'")
        user = "December's bill arrived by email."
    elif style == "paper":
        cap = (f"Photo of a printed Calder Energy bill on the kitchen table, page 1, a mug ring on the corner. "
               f"'Bill date {cue[1]}'. 'Your {mname} bill · {len(days)} days'. Table: 'Electricity {L['tar']} · "
               f"{L['ek']} kWh · £{s(e_cost, 2)}'; 'Gas · {L['gk']} kWh ({s(m3, 1)} m³) · £{s(g_cost, 2)}'; "
               f"'VAT 5% · £{s(vat, 2)}'; 'Total charges £{L['tot']}'. Side box: 'Exported to grid "
               f"{L['ex']} kWh'. Footer: 'Account balance after this bill: "
               f"£{s(fr('41.18') + total / 7, 2)} in credit'.")
        user = "Paper copy of the January bill came (they still post one even though I asked for email)."
    elif style == "pdf":
        cap = (f"Screenshot of the bill PDF inside the Calder app. Header 'Statement — {mname} {y} · issued "
               f"{cue[1]}'. Summary: 'Electricity ({L['tar']}) {L['ek']} kWh £{s(e_cost, 2)} | Gas {L['gk']} kWh "
               f"£{s(g_cost, 2)} | VAT £{s(vat, 2)} | Total £{L['tot']}'. A blue panel: 'Your panels sent "
               f"{L['ex']} kWh to the grid this month — SEG payment due next quarter'. Previous balance £12.40.")
        user = "February's statement is in the app."
    else:
        cap = ""
        user = (f"March bill landed on {cue[1]}, typing the key bits: {mname} — on {L['tar']} from the 3rd (two "
                f"days of Economy 7 before that). Electricity {L['ek']} kWh, £{s(e_cost, 2)}. Gas {L['gk']} kWh "
                f"(£{s(g_cost, 2)}). Exported {L['ex']} kWh. VAT £{s(vat, 2)}. Total £{L['tot']}. Direct debit "
                f"staying at £165.")
    return Round(user, f"Bill saved: {mname}, total £{L['tot']}.", [cap] if cap else [], [rec])


def C(user: str, assistant: str, key: str | None = None) -> Round:
    return Round(user, assistant, [], [], key)


def build_home_energy():
    rng = random.Random("home_energy/2025/seed-9")
    model = HomeModel(rng)
    w = HomeWriter(rng, model)
    dlg = Dialog("home_energy", {
        "name": "Helen Carew",
        "persona_summary": "49-year-old part-time bookkeeper in Worcester who works from home three days a week. "
                           "Lives in a 1930s semi with her husband Rob and their son Alfie (16). Ten solar panels "
                           "went on the roof last autumn; gas boiler; smart meter with an in-home display; on "
                           "Economy 7 with Calder Energy and thinking of switching to a time-of-use tariff.",
        "traits": ["numerate and a bit obsessive about the display", "dry sense of humour",
                   "nags the family about the tumble dryer", "backfills days in batches"],
        "conversation_style": "Sends display photos and app screenshots with short captions, types terse "
                              "catch-up lists, occasionally chats about the family and the weather.",
    })
    D = dt.date
    S = []
    # D1 -------------------------------------------------------------------------------------
    sd = D(2025, 1, 20)
    S.append((sd, [
        C("Hi! New year, new spreadsheet energy. We had ten solar panels put on the roof last October — a 3.7 kWp "
          "system, east/west split, Severn Solar did the install — and there's a smart meter with a little display "
          "in the kitchen. We're on Economy 7 with Calder Energy. I'm going to send you screenshots and bills so we "
          "can see where the money goes.",
          "Sounds like a plan. Send the display photos, app screenshots and bills whenever you like and I'll keep a "
          "running log: grid kWh, cost, solar, and anything you blame for spikes.", key="system"),
        w.ihd(D(2025, 1, 19), sd, budget_known=False, show=("cost", "solar")),
        w.terse([(D(2025, 1, 17), ("cost", "weather")), (D(2025, 1, 18), ("cost", "solar", "weather"))], sd,
                "Backfilling the end of last week from my notes app:"),
        C("Rob calls the display 'the nag in a box'. It went red twice while he was making toast this morning.",
          "Toasters and kettles pull 2–3 kW for a few minutes, so they'll flash red without moving the daily "
          "total much."),
        w.gas(sd, sd, "photo", lead="And while I was out there with the bins:"),
        C("Dave next door has sixteen panels facing due south and says he made 4.1 kWh on Saturday. Ours are "
          "east/west so I'm trying not to be jealous.",
          "South-facing arrays do better in winter; east/west spreads generation across the day, which suits "
          "daytime use."),
        C("Remind me what Economy 7 night hours usually are?",
          "Typically seven hours overnight, often somewhere between midnight and 8am — the exact window depends on "
          "your meter, so it's worth checking on the Calder app or your bill."),
    ]))
    # D2 -------------------------------------------------------------------------------------
    sd = D(2025, 1, 26)
    S.append((sd, [
        C("I've set a daily budget on the display: £3.80 a day. It goes amber when we're close and red once we're "
          "over. Let's see how often we blow it.",
          "Noted — £3.80 per day is the budget. I can tell you how many logged days went over it.", key="budget"),
        w.app_day(D(2025, 1, 22), split=True, show=("weather",)),
        w.typed_full(D(2025, 1, 23), sd, show=("cost", "solar", "spike")),
        C("It was minus 4°C this morning. The boiler has been going flat out and the cat has claimed the radiator.",
          "Brr. Cold snaps show up in gas more than electricity — a meter reading every week or two will show it."),
        w.combo(D(2025, 1, 25), sd),
        home_bill(w, (2024, 12), D(2025, 1, 24), sd, "email"),
        C("Rob's mum is on a fixed tariff at 24.86p a kWh and she pays about £4.20 a day, apparently. She has "
          "storage heaters though.",
          "Storage heaters will push her daily cost up a lot, so it isn't a like-for-like comparison."),
        C("Is it actually cheaper to run the dishwasher at night on Economy 7?",
          "Yes — your night rate is much lower than the day rate, so a delay-start into the night window roughly "
          "halves the cost of each run."),
    ]))
    # D3 -------------------------------------------------------------------------------------
    sd = D(2025, 2, 1)
    S.append((sd, [
        w.week([D(2025, 1, 27), D(2025, 1, 28), D(2025, 1, 29), D(2025, 1, 30)], "list",
               "Catch-up from the app's recent-days list."),
        w.gas(D(2025, 1, 31), sd, "typed"),
        C("Alfie has mock exams all next week so expect the gaming PC to be off (ha, as if).",
          "Good luck to him! If the PC does stay off you might see it in the evening baseline."),
        w.ihd(sd, sd, show=("cost", "weather")),
        C("Calder sent a leaflet saying a typical three-bed semi uses 2,700 kWh of electricity and 11,500 kWh of "
          "gas a year.",
          "Those are Ofgem-style typical values; your own log will be a better guide than the leaflet."),
        C("Good news: Calder approved our export application — Smart Export Guarantee at 15p per kWh, paid "
          "quarterly.",
          "Nice — 15p for every kWh the panels send to the grid. I'll remember that.", key="seg"),
        C("The display's week screen says 'This week £22.40', but that's a running total, not a day.",
          "Right — I'll stick to the daily figures."),
        C("What's a sensible thing to check first when the baseline looks high overnight?",
          "Look at the display around 3am: whatever it shows then is your always-on load — fridge, freezer, "
          "router, anything on standby."),
    ]))
    # D4 -------------------------------------------------------------------------------------
    sd = D(2025, 2, 9)
    S.append((sd, [
        w.app_day(D(2025, 2, 4), split=False, show=("solar",)),
        w.terse([(D(2025, 2, 6), ("cost", "off", "weather")), (D(2025, 2, 7), ("cost", "solar", "weather"))], sd,
                "Two more from my notes (I wrote the night-rate kWh down when the app showed it):"),
        w.ihd(D(2025, 2, 8), sd, show=("cost", "spike")),
        C("I've been looking at Calder's Sunshift tariff — cheap off-peak, expensive 4–7pm. Their calculator says "
          "we'd have paid £96.40 instead of £104.15 last month. Tempting.",
          "The saving depends on how much you can move out of 4–7pm. The oven and tumble dryer are the big ones."),
        C("Six Nations started. Rob and Alfie shouting at the telly in two different rooms, so two tellies on.",
          "At least TVs are only ~100 W each — the shouting costs more in patience than in electricity."),
        C("No idea what Monday was, I forgot to look at the display. Probably 12-ish kWh, but don't quote me.",
          "No problem — I'll leave Monday out rather than guess."),
        C("How much does a 2.5 kW tumble dryer cost per hour at our day rate of 27.9p?",
          "About 70p per hour (2.5 kW × 27.9p ≈ 69.8p)."),
    ]))
    # D5 -------------------------------------------------------------------------------------
    sd = D(2025, 2, 15)
    S.append((sd, [
        w.combo(D(2025, 2, 14), sd),
        w.week([D(2025, 2, 10), D(2025, 2, 11), D(2025, 2, 12)], "csv",
               "I found the CSV export! Here's the start of the week."),
        w.gas(sd, sd, "photo"),
        C("Half-term next week. Alfie's home all day, which means the toaster, the kettle and the PlayStation.",
          "Expect slightly higher daytime use — the sunny days will help if the panels cover some of it."),
        C("Severn Solar came back with a quote for a 5 kWh battery: £4,850 fitted. They reckon it'd save us about "
          "£320 a year. Not sure.",
          "That's roughly a 15-year simple payback at £320 a year, so it depends a lot on future tariffs.",
          key="battery"),
        C("For comparison, our old terrace in Malvern used to do 18 kWh a day in winter with the night storage "
          "heaters. This house is a lot better.",
          "That's a big improvement — and the panels help on bright days."),
        C("Valentine's dinner was takeaway, so at least the oven got a night off.",
          "Ha — a cheap night for the meter."),
    ]))
    # D6 -------------------------------------------------------------------------------------
    sd = D(2025, 2, 23)
    S.append((sd, [
        home_bill(w, (2025, 1), D(2025, 2, 21), sd, "paper"),
        C("Done it — we're switching to Calder Sunshift. It starts on Monday 3 March. Peak is 4–7pm, so I'll be "
          "nagging everyone about the oven and the tumble dryer.",
          "Got it: Sunshift from 3 March, with the expensive window 4–7pm. I'll compare costs before and after.",
          key="switch"),
        w.app_day(D(2025, 2, 19), split=True, show=("solar",)),
        w.ihd(D(2025, 2, 20), sd, show=("cost", "weather", "solar")),
        w.typed_full(D(2025, 2, 22), sd, show=("cost", "solar", "spike", "weather")),
        C("Dave's bill was £212 this month. He has a heat pump though, so he has no gas bill at all.",
          "Then his £212 covers all his heating — not comparable with your electricity-only figure."),
        C("Rob wants to know if we should turn the fridge freezer down a notch. It's on 4 of 7.",
          "The middle setting is usually right; colder settings cost a little more. Check it keeps food at about "
          "4°C in the fridge and −18°C in the freezer."),
    ]))
    # D7 -------------------------------------------------------------------------------------
    sd = D(2025, 3, 1)
    S.append((sd, [
        w.week([D(2025, 2, 24), D(2025, 2, 25), D(2025, 2, 26), D(2025, 2, 27)], "chart",
               "Week view so far (before it resets)."),
        w.combo(D(2025, 2, 28), sd),
        C("Happy St David's Day! Daffodils out on the front path.", "Dydd Gŵyl Dewi Hapus! Spring is coming."),
        C("Anything I should change on Monday when Sunshift starts?",
          "Set the dishwasher and washing machine to run after 7pm or overnight, avoid the oven and tumble dryer "
          "between 4 and 7pm, and keep logging so we can compare."),
        C("Dave claims his panels did 6.2 kWh on Thursday. Unbearable.",
          "His south-facing array will always win in February, don't let it get to you."),
        C("The display's 'month so far' says 0.0 kWh because it's the 1st. Very satisfying.",
          "Enjoy it while it lasts!"),
        C("Rob's decided to cook Sunday lunches at lunchtime now, not at 5, in preparation. Miracles.",
          "That alone moves a big oven load out of the peak window."),
    ]))
    # D8 -------------------------------------------------------------------------------------
    sd = D(2025, 3, 9)
    S.append((sd, [
        w.app_day(D(2025, 3, 4), split=True, show=("weather",), note="First proper Sunshift day in the app!"),
        w.terse([(D(2025, 3, 6), ("cost", "solar", "weather")), (D(2025, 3, 7), ("solar", "weather"))], sd,
                "Quick notes (didn't catch the cost on Friday):"),
        w.ihd(D(2025, 3, 8), sd, show=("cost", "spike", "solar")),
        w.gas(sd, sd, "app", prev=(D(2025, 2, 15), model.gas_reading(D(2025, 2, 15)))),
        C("For reference, Sunshift rates: peak 36.40p, standard 26.10p, off-peak 16.80p, standing charge 49.85p "
          "a day.",
          "Noted. The peak rate is more than double off-peak, so shifting really pays."),
        C("Mothering Sunday is later this month; Alfie has promised breakfast in bed. I'll believe it when I see "
          "it.",
          "Fingers crossed — and breakfast at 9am is nowhere near the peak window."),
        C("Do you think the immersion heater is worth keeping at all now we have the panels?",
          "With a diverter it could soak up spare solar in summer; without one it's just an expensive backup "
          "to the boiler."),
    ]))
    # D9 -------------------------------------------------------------------------------------
    sd = D(2025, 3, 15)
    S.append((sd, [
        w.combo(D(2025, 3, 14), sd),
        w.week([D(2025, 3, 10), D(2025, 3, 11), D(2025, 3, 12)], "chart", "Start of the week from the app."),
        w.typed_full(D(2025, 3, 13), sd, show=("cost", "solar", "spike")),
        C("A Warmer Homes advisor came round on Wednesday. She turned the boiler flow temperature down from 70 to "
          "55°C and said leave it there.",
          "Good advice — 55°C flow lets a condensing boiler actually condense. Keep an eye on the gas readings.",
          key="flow"),
        C("She also said our loft insulation is only 100 mm and should be 270 mm. Another job for the list.",
          "Topping up to 270 mm is one of the cheapest measures with a quick payback."),
        C("Sunday the 9th I didn't look at all, and Rob reckons it was about 10 kWh but he's guessing.",
          "I'll leave the 9th out of the log since there's no reading."),
        C("Sunny week! The panels are finally earning their keep.", "Spring sun makes a big difference."),
    ]))
    # D10 ------------------------------------------------------------------------------------
    sd = D(2025, 3, 23)
    S.append((sd, [
        home_bill(w, (2025, 2), D(2025, 3, 21), sd, "pdf"),
        w.app_day(D(2025, 3, 18), split=True, show=("solar",)),
        w.typed_full(D(2025, 3, 20), sd, show=("cost", "spike", "weather")),
        w.ihd(D(2025, 3, 22), sd, show=("cost", "solar", "weather")),
        w.gas(sd, sd, "typed"),
        C("Alfie's new gaming PC apparently draws 450 W flat out. He says it's 'efficient'.",
          "450 W for four hours is 1.8 kWh — about half a kWh more than a console evening."),
        C("SunPort has started showing a forecast: 'April estimate 280 kWh'. Optimistic, I think.",
          "It's only a model estimate — we'll see what the actual days say."),
        C("Mothering Sunday is next week. Breakfast in bed promise still stands, allegedly.", "Here's hoping!"),
    ]))
    # D11 ------------------------------------------------------------------------------------
    sd = D(2025, 3, 29)
    S.append((sd, [
        w.week([D(2025, 3, 24), D(2025, 3, 25), D(2025, 3, 26), D(2025, 3, 27)], "list",
               "This week's list from the app."),
        w.combo(D(2025, 3, 28), sd),
        C("Clocks go forward tonight. The display's clock will be wrong for a week, knowing it.",
          "Smart meters usually adjust themselves; the little displays sometimes lag."),
        C("Goal for April: get the average under 9 kWh a day from the grid. Rob says 10 is more realistic.",
          "With the panels producing more, April should be your best month yet."),
        C("I've moved the immersion heater timer to 5–6am so it only runs off-peak. Hopefully no more surprises.",
          "Good idea — that way it can't land in the 4–7pm peak."),
        C("Breakfast in bed happened! Croissants. Oven on for 12 minutes at 8am. Nowhere near the peak, even.",
          "Lovely — and perfectly timed."),
        C("What's the best way to use the solar when it's sunny and we're all out?",
          "Timers: dishwasher and washing machine around midday, and if you ever get a diverter, the immersion."),
    ]))
    # D12 ------------------------------------------------------------------------------------
    sd = D(2025, 4, 6)
    S.append((sd, [
        w.app_day(D(2025, 4, 1), split=True, show=("weather", "solar")),
        w.terse([(D(2025, 4, 2), ("cost", "solar", "weather")), (D(2025, 4, 3), ("cost", "off", "solar"))], sd,
                "Notes app, mid-week:"),
        w.ihd(D(2025, 4, 5), sd, show=("cost", "spike", "weather")),
        w.gas(sd, sd, "photo"),
        C("Easter holidays start now. Alfie's revision timetable looks suspiciously like a gaming schedule.",
          "Ha. At least on sunny days the panels cover a lot of the daytime gaming."),
        C("Dave next door has bought a battery — 10 kWh, £6,200. He'll be insufferable.",
          "He'll probably tell you his self-consumption figures every week now."),
        C("Rob's brother in Bristol has a 6 kWp system and did 31 kWh yesterday. Show-off.",
          "Bigger system, better orientation — not a fair fight."),
        C("Remind me to check whether the SEG payment for Jan–Mar has arrived.", "Will do — it's paid quarterly."),
    ]))
    # D13 ------------------------------------------------------------------------------------
    sd = D(2025, 4, 12)
    S.append((sd, [
        home_bill(w, (2025, 3), D(2025, 4, 10), sd, "typed"),
        w.week([D(2025, 4, 7), D(2025, 4, 8), D(2025, 4, 9)], "csv", "CSV export again, first part of the week."),
        w.combo(D(2025, 4, 11), sd),
        C("SEG payment arrived: £18.63 for January to March. Not exactly retirement money.",
          "Still, it'll grow a lot over the summer."),
        C("The SunPort lifetime figure is creeping up nicely. At this rate it should pass 1,000 kWh some time "
          "in May.",
          "Spring days add up fast — it'll be a nice milestone."),
        C("Alfie says his mate's family only pays £1.90 a day for electricity. They live in a one-bed flat, so.",
          "Much smaller home and no solar to compare — not a useful benchmark."),
        C("Do you think it's worth asking Calder about a smart EV tariff even though we don't have an EV yet?",
          "Not yet — those tariffs usually need a compatible charger or car to qualify."),
    ]))
    # D14 ------------------------------------------------------------------------------------
    sd = D(2025, 4, 19)
    S.append((sd, [
        w.app_day(D(2025, 4, 15), split=True, show=("weather",)),
        w.typed_full(D(2025, 4, 16), sd, show=("cost", "solar", "spike", "weather")),
        w.ihd(D(2025, 4, 18), sd, show=("cost", "solar", "weather")),
        w.gas(sd, sd, "photo"),
        C("Easter weekend. Hot cross buns, and the heating's finally off during the day.",
          "You'll see that in the gas readings straight away."),
        C("Rob says if we'd stayed on Economy 7 we'd be about £15 worse off since March. I'm taking his word for it.",
          "I can compare your average daily cost before and after the switch from the log if you like."),
        C("Right, that's me for now. Thanks for keeping all of this straight!", "Any time — happy Easter!"),
    ]))
    for sd, rounds in S:
        dlg.session(sd, rounds)
    return dlg


def gbp(x: F) -> str:
    return f"£{sc(x, 2)}"


def home_qas(dlg: Dialog) -> list[dict]:
    Q = QA(dlg)
    recs = dlg.records()
    E = [r for r in recs if r.rtype == "electricity_day"]
    G = [r for r in recs if r.rtype == "gas_reading"]
    B = [r for r in recs if r.rtype == "monthly_bill"]
    D = dt.date

    def rng_(rs, a, b):
        return [r for r in rs if a <= r.observed <= b]

    def month(rs, m):
        return [r for r in rs if r.observed.month == m and r.observed.year == 2025]

    def withf(rs, f):
        return [r for r in rs if r.has(f)]

    # ---- AVG ------------------------------------------------------------------------------------
    xs = withf(E, "used_kwh")
    v = rhu(mean([r.get("used_kwh") for r in xs]), 1)
    Q.add("AVG", "Across every day I've logged, what's my average daily electricity use from the grid, in kWh?",
          f"{v} kWh per day on average from the grid, over {len(xs)} logged days.", float(v), "number",
          rounds_of(xs), 0.05, "kWh")
    xs = withf(month(E, 3), "solar_kwh")
    v = rhu(mean([r.get("solar_kwh") for r in xs]), 1)
    Q.add("AVG", "On the March days where I noted it, how much did the panels generate per day on average?",
          f"{v} kWh per day on average in March 2025 ({len(xs)} days with a solar figure).", float(v), "number",
          rounds_of(xs), 0.05, "kWh")
    xs = withf(month(E, 2), "cost_gbp")
    v = rhu(mean([r.get("cost_gbp") for r in xs]), 2)
    Q.add("AVG", "What did a day's electricity cost me on average in February 2025?",
          f"£{v} per day on average in February 2025 (over {len(xs)} days with a cost).", float(v), "number",
          rounds_of(xs), 0.05, "GBP")
    xs = month(E, 3)
    hit = [r for r in xs if r.has("spike_appliance")]
    v = rhu(F(100 * len(hit), len(xs)), 1)
    Q.add("AVG", "What percentage of the days I logged in March had a spike that I blamed on an appliance?",
          f"{v}% — {len(hit)} of the {len(xs)} March days had a spike I blamed on something.", float(v), "number",
          rounds_of(xs), 0.05, "%")
    xs = withf(E, "offpeak_kwh")
    v = rhu(mean([r.get("offpeak_kwh") for r in xs]), 1)
    Q.add("AVG", "Going by the days where the app or my notes showed the night / off-peak split, how many kWh "
                 "did we use off-peak on an average day?",
          f"{v} kWh off-peak per day on average ({len(xs)} days showed the split).", float(v), "number",
          rounds_of(xs), 0.05, "kWh")
    xs = [r for r in E if r.get("weather") == "sunny" and r.has("solar_kwh")]
    v = rhu(mean([r.get("solar_kwh") for r in xs]), 1)
    Q.add("AVG", "On the sunny days, what did the panels produce on average?",
          f"{v} kWh on average across the {len(xs)} sunny days with a solar figure.", float(v), "number",
          rounds_of(xs), 0.05, "kWh")

    # ---- SUM ------------------------------------------------------------------------------------
    xs = withf(rng_(E, D(2025, 3, 1), D(2025, 3, 15)), "solar_kwh")
    v = rhu(sum((r.get("solar_kwh") for r in xs), F(0)), 2)
    Q.add("SUM", "How many kWh did the solar panels make in total between March 1 and March 15, 2025, on the days "
                 "I recorded?",
          f"{v} kWh in total across the {len(xs)} recorded days from March 1 to 15.", float(v), "number",
          rounds_of(xs), 0.01, "kWh")
    xs = withf(month(E, 1), "cost_gbp")
    v = sum((r.get("cost_gbp") for r in xs), F(0))
    Q.add("SUM", "What did the January days I logged cost altogether?",
          f"£{s(v, 2)} for the {len(xs)} January days with a cost.", float(rhu(v, 2)), "number", rounds_of(xs),
          0.01, "GBP")
    a = next(r for r in G if r.observed == D(2025, 1, 20))
    b = next(r for r in G if r.observed == D(2025, 3, 9))
    v = b.get("meter_m3") - a.get("meter_m3")
    Q.add("SUM", "How many cubic metres of gas did we get through between my meter readings on January 20 and "
                 "March 9?",
          f"{s(v, 2)} m³ (from {s(a.get('meter_m3'), 2)} to {s(b.get('meter_m3'), 2)}).", float(rhu(v, 2)),
          "number", rounds_of([a, b]), 0.01, "m³")
    v = sum((r.get("total_gbp") for r in B), F(0))
    Q.add("SUM", "Adding up all the energy bills I've shown you, how much have they come to?",
          f"{gbp(v)} across the {len(B)} bills (December to March).", float(rhu(v, 2)), "number", rounds_of(B), 0.01,
          "GBP")

    # ---- CNT ------------------------------------------------------------------------------------
    xs = [r for r in E if r.has("cost_gbp") and r.get("cost_gbp") > H_BUDGET]
    Q.add("CNT", "On how many of my logged days did the cost go over the daily budget I set on the display?",
          f"{len(xs)} days went over the £3.80 daily budget.", len(xs), "number", rounds_of(xs), 0, "days",
          keys=("budget",))
    xs = [r for r in E if r.get("used_kwh") > 15]
    Q.add("CNT", "How many days did we take more than 15 kWh from the grid?",
          f"{len(xs)} days were above 15 kWh.", len(xs), "number", rounds_of(xs), 0, "days")
    xs = [r for r in E if r.get("spike_appliance") == "tumble dryer"]
    Q.add("CNT", "How many times have I blamed the tumble dryer for a spike?",
          f"{len(xs)} times.", len(xs), "number", rounds_of(xs), 0, "times")
    xs = [r for r in month(E, 4) if r.has("solar_kwh") and r.get("solar_kwh") > r.get("used_kwh")]
    Q.add("CNT", "In April, on how many days did the panels generate more than we imported from the grid?",
          f"{len(xs)} days in April had solar above the grid import.", len(xs), "number", rounds_of(xs), 0, "days")
    xs = [r for r in E if r.get("weather") == "rain"]
    Q.add("CNT", "How many rainy days are in my energy log?",
          f"{len(xs)} days were logged as rain.", len(xs), "number", rounds_of(xs), 0, "days")

    # ---- MAX ------------------------------------------------------------------------------------
    best = unique_best(E, lambda r: r.get("used_kwh"))
    Q.add("MAX", "Which day did we use the most electricity from the grid?",
          f"{d_nice(best.observed)}, with {float(best.get('used_kwh')):g} kWh.", best.observed.isoformat(), "date",
          rounds_of(E))
    xs = withf(E, "cost_gbp")
    best = unique_best(xs, lambda r: r.get("cost_gbp"))
    Q.add("MAX", "What's the most I've paid for a single day's electricity?",
          f"£{s(best.get('cost_gbp'), 2)}, on {d_nice(best.observed)}.", float(best.get("cost_gbp")), "number",
          rounds_of(xs), 0.01, "GBP")
    xs = withf(E, "spike_appliance")
    cnt = {a: sum(r.get("spike_appliance") == a for r in xs) for a in APPLIANCES}
    top = sorted(APPLIANCES, key=lambda a: -cnt[a])
    assert cnt[top[0]] > cnt[top[1]]
    Q.add("MAX", "Which appliance have I blamed for spikes most often?",
          f"The {top[0]} — {cnt[top[0]]} times.", top[0], "string", rounds_of(xs), candidates=APPLIANCES)
    xs = withf(E, "solar_kwh")
    best = unique_best(xs, lambda r: r.get("solar_kwh"))
    Q.add("MAX", "What was the best single day for the panels, in kWh?",
          f"{float(best.get('solar_kwh')):g} kWh, on {d_nice(best.observed)}.", float(best.get("solar_kwh")),
          "number", rounds_of(xs), 0.01, "kWh")
    best = unique_best(B, lambda r: r.get("gas_kwh"))
    months = [r.get("billing_month") for r in sorted(B, key=lambda r: r.observed)]
    Q.add("MAX", "Which month's bill showed the most gas used?",
          f"{best.get('billing_month')} — {sc(best.get('gas_kwh'), 0)} kWh of gas.", best.get("billing_month"),
          "string", rounds_of(B), candidates=months)

    # ---- MIN ------------------------------------------------------------------------------------
    low = unique_best(E, lambda r: r.get("used_kwh"), largest=False)
    Q.add("MIN", "What's the least electricity we've taken from the grid in a day?",
          f"{float(low.get('used_kwh')):g} kWh, on {d_nice(low.observed)}.", float(low.get("used_kwh")), "number",
          rounds_of(E), 0.01, "kWh")
    xs = withf(month(E, 2), "solar_kwh")
    low = unique_best(xs, lambda r: r.get("solar_kwh"), largest=False)
    Q.add("MIN", "Which day in February did the panels produce the least?",
          f"{d_nice(low.observed)} — only {float(low.get('solar_kwh')):g} kWh.", low.observed.isoformat(), "date",
          rounds_of(xs))
    ms = {m: mean([r.get("used_kwh") for r in month(E, m)]) for m in (1, 2, 3, 4)}
    order = sorted(ms, key=lambda m: ms[m])
    assert ms[order[1]] - ms[order[0]] >= F(1, 5)
    Q.add("MIN", "Which month had the lowest average daily grid use in my log — January, February, March or "
                 "April?",
          f"{MON[order[0] - 1]}, at {rhu(ms[order[0]], 1)} kWh a day on average.", MON[order[0] - 1], "string",
          rounds_of(E), candidates=("January", "February", "March", "April"))

    # ---- LAT ------------------------------------------------------------------------------------
    last = max(G, key=lambda r: r.observed)
    Q.add("LAT", "What was my most recent gas meter reading?",
          f"{s(last.get('meter_m3'), 2)} m³, taken on {d_nice(last.observed)}.", float(last.get("meter_m3")),
          "number", [last.round], 0.01, "m³")
    xs = [r for r in E if r.get("spike_appliance") == "oven"]
    last = max(xs, key=lambda r: r.observed)
    Q.add("LAT", "When did I last blame the oven for a spike?",
          f"{d_nice(last.observed)}.", last.observed.isoformat(), "date", [last.round])
    last = max(B, key=lambda r: r.observed)
    Q.add("LAT", "What was the total on the latest energy bill?",
          f"{gbp(last.get('total_gbp'))} (the {last.get('billing_month')} bill).", float(last.get("total_gbp")),
          "number", [last.round], 0.01, "GBP")
    xs = withf(E, "spike_appliance")
    last = max(xs, key=lambda r: r.observed)
    Q.add("LAT", "What was the last thing I blamed for a spike in usage?",
          f"The {last.get('spike_appliance')}, on {d_nice(last.observed)}.", last.get("spike_appliance"), "string",
          [last.round], candidates=APPLIANCES)

    # ---- RNG ------------------------------------------------------------------------------------
    xs = [r for r in month(E, 3) if r.has("solar_kwh") and r.get("solar_kwh") > 6]
    Q.add("RNG", "On which days in March did the panels make more than 6 kWh?",
          "; ".join(d_nice(r.observed) for r in sorted(xs, key=lambda r: r.observed)) + ".",
          sorted(r.observed.isoformat() for r in xs), "list", rounds_of(xs))
    xs = [r for r in month(E, 2) if r.has("spike_appliance")]
    ap = sorted({r.get("spike_appliance") for r in xs})
    Q.add("RNG", "Which appliances did I blame for spikes in February?",
          " and ".join(ap) + ".", ap, "list", rounds_of(xs), candidates=APPLIANCES)
    xs = [r for r in E if r.get("spike_appliance") == "immersion heater"]
    Q.add("RNG", "List the days when the immersion heater was the culprit.",
          "; ".join(d_nice(r.observed) for r in sorted(xs, key=lambda r: r.observed)) + ".",
          sorted(r.observed.isoformat() for r in xs), "list", rounds_of(xs))
    xs = [r for r in E if r.has("cost_gbp") and r.get("cost_gbp") > 5]
    Q.add("RNG", "Which days cost more than £5?",
          "; ".join(d_nice(r.observed) for r in sorted(xs, key=lambda r: r.observed)) + ".",
          sorted(r.observed.isoformat() for r in xs), "list", rounds_of(xs))

    # ---- CMP ------------------------------------------------------------------------------------
    xs = withf(E, "cost_gbp")
    bef = [r.get("cost_gbp") for r in xs if r.observed < H_SWITCH]
    aft = [r.get("cost_gbp") for r in xs if r.observed >= H_SWITCH]
    mb, ma = mean(bef), mean(aft)
    assert gap_ok(mb, ma, F(15, 1000))
    lo = "after" if ma < mb else "before"
    Q.add("CMP", "Has my average daily cost been lower since the new tariff started, or before it?",
          f"{lo.capitalize()} — £{rhu(ma, 2)} a day on average since the switch vs £{rhu(mb, 2)} before it.", lo,
          "string", rounds_of(xs), candidates=("before", "after"), keys=("switch",))
    xj, xf = withf(month(E, 1), "cost_gbp"), withf(month(E, 2), "cost_gbp")
    mj, mf = mean([r.get("cost_gbp") for r in xj]), mean([r.get("cost_gbp") for r in xf])
    assert gap_ok(mj, mf, F(15, 1000))
    hi = "January" if mj > mf else "February"
    Q.add("CMP", "Was my average daily electricity cost higher in January or in February?",
          f"{hi} — £{rhu(max(mj, mf), 2)} a day vs £{rhu(min(mj, mf), 2)}.", hi, "string", rounds_of(xj + xf),
          candidates=("January", "February"))
    td = [r for r in E if r.get("spike_appliance") == "tumble dryer"]
    ov = [r for r in E if r.get("spike_appliance") == "oven"]
    mt, mo = mean([r.get("used_kwh") for r in td]), mean([r.get("used_kwh") for r in ov])
    assert gap_ok(mt, mo, F(15, 1000))
    hi = "tumble dryer" if mt > mo else "oven"
    Q.add("CMP", "Did the tumble-dryer days or the oven days have the higher average grid use?",
          f"The {hi} days — {rhu(max(mt, mo), 1)} kWh on average vs {rhu(min(mt, mo), 1)} kWh.", hi, "string",
          rounds_of(td + ov), candidates=("tumble dryer", "oven"))
    xs = withf(E, "offpeak_kwh")
    e7 = [r.get("offpeak_kwh") for r in xs if r.observed < H_SWITCH]
    ss = [r.get("offpeak_kwh") for r in xs if r.observed >= H_SWITCH]
    assert gap_ok(mean(e7), mean(ss), F(15, 1000))
    hi = "Economy 7" if mean(e7) > mean(ss) else "Sunshift"
    Q.add("CMP", "Was our average off-peak usage higher on Economy 7 or on the new tariff?",
          f"{hi} — {rhu(max(mean(e7), mean(ss)), 1)} kWh vs {rhu(min(mean(e7), mean(ss)), 1)} kWh off-peak per day.",
          hi, "string", rounds_of(xs), candidates=("Economy 7", "Sunshift"), keys=("switch",))

    # ---- TRD ------------------------------------------------------------------------------------
    f2 = withf(month(E, 2), "solar_kwh")
    f3 = withf(month(E, 3), "solar_kwh")
    a, b = mean([r.get("solar_kwh") for r in f2]), mean([r.get("solar_kwh") for r in f3])
    assert gap_ok(a, b, F(15, 1000))
    tr = "increased" if b > a else "decreased"
    Q.add("TRD", "Did my average daily solar generation go up or down from February to March?",
          f"It {tr} — from {rhu(a, 1)} kWh a day in February to {rhu(b, 1)} kWh in March.", tr, "string",
          rounds_of(f2 + f3), candidates=("increased", "decreased"))
    j, m = month(E, 1), month(E, 3)
    a, b = mean([r.get("used_kwh") for r in j]), mean([r.get("used_kwh") for r in m])
    assert gap_ok(a, b, F(15, 1000))
    tr = "increased" if b > a else "decreased"
    Q.add("TRD", "From January to March, did our average daily grid import rise or fall?",
          f"It {tr} — {rhu(a, 1)} kWh a day in January, {rhu(b, 1)} kWh in March.", tr, "string", rounds_of(j + m),
          candidates=("increased", "decreased"))
    bj = next(r for r in B if r.get("billing_month") == "January")
    bm = next(r for r in B if r.get("billing_month") == "March")
    a, b = bj.get("electricity_kwh"), bm.get("electricity_kwh")
    assert gap_ok(a, b, F(3, 100))
    tr = "increased" if b > a else "decreased"
    Q.add("TRD", "Looking at the bills, did our monthly electricity use increase or decrease from January to "
                 "March?",
          f"It {tr}: {a} kWh on the January bill, {b} kWh on the March bill.", tr, "string", rounds_of([bj, bm]),
          candidates=("increased", "decreased"))

    # ---- RET ------------------------------------------------------------------------------------
    Q.add("RET", "How big is our solar system, in kWp?", "3.7 kWp (ten panels, east/west).", 3.7, "number",
          [], 0, "kWp", keys=("system",))
    Q.add("RET", "Which company installed our solar panels?", "Severn Solar did the install last October.",
          "Severn Solar", "string", [], keys=("system",))
    Q.add("RET", "What's the name of the tariff we switched to?", "Calder Sunshift (time-of-use).", "Sunshift",
          "string", [], keys=("switch",))
    Q.add("RET", "On what date did the new tariff start?", "March 3, 2025 (a Monday).", "2025-03-03", "date", [],
          keys=("switch",))
    Q.add("RET", "How much was the quote for a home battery?", "£4,850 fitted, for a 5 kWh battery.", 4850,
          "number", [], 0, "GBP", keys=("battery",))
    Q.add("RET", "What did the advisor set the boiler flow temperature to?", "55°C (down from 70).", 55, "number",
          [], 0, "°C", keys=("flow",))
    Q.add("RET", "What rate do we get paid for exported electricity, in pence per kWh?",
          "15p per kWh under the Smart Export Guarantee, paid quarterly.", 15, "number", [], 0, "p/kWh",
          keys=("seg",))
    return Q.items


# =============================================================================================
# garden_harvest — Dilys Parry, allotment plot 14B
# =============================================================================================

G_BAN = dt.date(2025, 7, 25)          # hosepipe ban starts (one-off fact)
G_TARGET = F(15000)                   # tomato target, grams (15 kg, one-off fact)
CROPS = ("beetroot", "courgettes", "cucumbers", "french beans", "potatoes", "raspberries", "runner beans",
         "tomatoes")
BEDS = ("bean trench", "bottom bed", "fruit cage", "greenhouse", "raised bed", "top bed")
# crop -> (grams per item, spread) and picking weight range for crops without counts
G_UNIT = {"tomatoes/greenhouse": (12.5, 0.15), "tomatoes/top bed": (68, 0.2), "cucumbers": (340, 0.15),
          "courgettes": (330, 0.3), "runner beans": (23, 0.15), "french beans": (6.5, 0.15), "beetroot": (115, 0.2)}
G_ITEMS = {"tomatoes/greenhouse": (18, 66), "tomatoes/top bed": (5, 13), "cucumbers": (1, 3), "courgettes": (1, 4),
           "runner beans": (14, 52), "french beans": (28, 75), "beetroot": (4, 8)}
G_BULK = {"potatoes": (1700, 4600), "raspberries": (120, 460)}
ITEM_WORD = {"tomatoes": ("fruit", "tomatoes"), "cucumbers": ("cucumbers", "cucumbers"),
             "courgettes": ("courgettes", "courgettes"), "runner beans": ("beans", "pods"),
             "french beans": ("pods", "beans"), "beetroot": ("roots", "beetroot")}


class GardenWriter:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def raw(self, crop: str, bed: str, items_override=None, season=1.0):
        key = f"{crop}/{bed}" if f"{crop}/{bed}" in G_UNIT else crop
        if key in G_UNIT:
            lo, hi = G_ITEMS[key]
            n = items_override or self.rng.randint(lo, max(lo, int(hi * season)))
            unit, spread = G_UNIT[key]
            grams = sum(unit * self.rng.uniform(1 - spread, 1 + spread) for _ in range(n))
            return n, grams
        lo, hi = G_BULK[crop]
        return None, self.rng.uniform(lo, hi)

    def harvest(self, d, crop, bed, cue, wfmt="g", show_items=True, show_bed=True, items=None, grams=None,
                season=1.0, crop_lit=None, bed_lit=None):
        n, g = self.raw(crop, bed, items, season)
        if grams is not None:
            g = grams
        rec = Rec("harvest", d, cue)
        L = {}
        if crop_lit is None and n == 1 and show_items and crop in ("courgettes", "cucumbers"):
            crop_lit = crop[:-1]
        L["crop"] = rec.cat("crop", crop, crop_lit)
        if show_bed:
            L["bed"] = rec.cat("bed", bed, bed_lit)
        if wfmt is not None:
            if wfmt == "g":
                v = F(round(g))
                L["w"] = rec.num("weight_g", v, str(v)) + " g"
                L["wc"] = L["w"]
            elif wfmt == "gc":   # notebook / typed "342g"
                v = F(round(g))
                L["w"] = rec.num("weight_g", v, str(v)) + "g"
            elif wfmt in ("kg2", "kg3", "kgc"):
                pl = 3 if wfmt == "kg3" else 2
                v = F(rhu(F(round(g)) / 1000, pl))
                lit = s(v, pl)
                rec.num("weight_g", v * 1000, lit, F(1000))
                L["w"] = lit + ("kg" if wfmt == "kgc" else " kg")
            elif wfmt in ("lboz1", "lboz0"):
                oz = F(round(g * 10)) / 10 / fr("28.349523125")
                lb = int(oz // 16)
                rem = oz - 16 * lb
                rem = F(rhu(rem, 1 if wfmt == "lboz1" else 0))
                if rem >= 16:
                    lb, rem = lb + 1, rem - 16
                assert lb >= 1
                L["w"] = rec.lboz("weight_g", lb, rem)
            else:
                raise ValueError(wfmt)
        if show_items and n is not None:
            L["n"] = rec.num("items", F(n), str(n))
        return rec, L

    def water(self, d, cue, litres, source=None, bed=None, src_lit=None, bed_lit=None):
        rec = Rec("watering", d, cue)
        L = {"l": rec.num("volume_l", F(litres), str(litres))}
        if source:
            L["src"] = rec.cat("source", source, src_lit)
        if bed:
            L["bed"] = rec.cat("bed", bed, bed_lit)
        return rec, L


def cap1(x: str) -> str:
    return x[:1].upper() + x[1:]


def g_cue(d: dt.date, sd: dt.date, style="auto"):
    k = (sd - d).days
    if k == 0:
        return ("today", None)
    if k == 1:
        return ("yesterday", "yesterday")
    if 2 <= k <= 6 and style == "auto":
        return ("weekday", WD[d.weekday()])
    return ("date", d_ukl(d))


def build_garden_harvest():
    rng = random.Random("garden_harvest/2025/seed-3")
    w = GardenWriter(rng)
    dlg = Dialog("garden_harvest", {
        "name": "Dilys Parry",
        "persona_summary": "66-year-old retired school librarian in Sheffield with a half-size allotment. Grows "
                           "tomatoes in a small greenhouse, courgettes, beans, potatoes, beetroot and raspberries; "
                           "weighs everything on the kitchen scale, while her husband Tom still swears by his old "
                           "spring balance in pounds and ounces.",
        "traits": ["keeps a paper notebook in the shed", "competitive about the allotment show",
                   "worries about watering during the dry spell", "chatty about the neighbours' plots"],
        "conversation_style": "Mixes photos of the kitchen scale, screenshots of her GrowDiary app and notebook "
                              "pages with typed notes; sometimes terse lists, sometimes long chatty messages.",
    })
    D = dt.date
    S = []
    ack1 = ("Logged.", "Noted — added to the harvest log.", "Lovely, saved.", "Got it.", "Recorded.")

    def A():
        return rng.choice(ack1)

    # ---- layouts ------------------------------------------------------------------------------
    def scale(d, sd, crop, bed, wfmt="g", items_note=True, extra="", lead=None, **kw):
        rec, L = w.harvest(d, crop, bed, g_cue(d, sd), wfmt=wfmt, show_items=items_note, **kw)
        disp = L["w"]
        what = {"tomatoes": "a colander of tomatoes", "courgettes": "courgettes on a plate",
                "potatoes": "a trug of muddy potatoes", "runner beans": "a bowl of runner beans",
                "french beans": "a bowl of french beans", "raspberries": "a punnet of raspberries",
                "cucumbers": "cucumbers in a bowl", "beetroot": "a bunch of beetroot"}[crop]
        cap = rng.choice((
            f"Photo of a silver digital kitchen scale on the draining board with {what} on it. The LCD reads "
            f"'{disp}'; a small 'TARE' arrow is lit in the corner.",
            f"Top-down photo of {what} sitting on a white kitchen scale; the display shows {disp}. A tea towel "
            f"and a pair of secateurs beside it.",
            f"Close-up of the Salter kitchen scale's display reading {disp}, {what} slightly out of focus above it.",
        ))
        k = (sd - d).days
        when = {0: "today", 1: "yesterday"}.get(k, WD[d.weekday()] if k <= 6 else d_ukl(d))
        crop_w = L["crop"]
        bits = [lead or rng.choice((f"Picked {when}:", f"{cap1(when)}'s haul:", f"From {when}:"))]
        if "n" in L:
            bits.append(f"{L['n']} {crop_w}")
        else:
            bits.append(crop_w)
        if "bed" in L:
            bits.append(rng.choice((f"from the {L['bed']}", f"off the {L['bed']}", f"({L['bed']})")))
        txt = " ".join(bits) + "." + (" " + extra if extra else "")
        if wfmt and wfmt.startswith("lboz"):
            txt += " Tom had switched the scale to pounds and ounces again, sorry."
        return Round(txt, A(), [cap], [rec])

    def app(d, sd, crop, bed, wfmt="kg2", note="", user=None, **kw):
        rec, L = w.harvest(d, crop, bed, ("date", f"{d_uk(d)} {d.year}"), wfmt=wfmt, **kw)
        qty = f" · Quantity {L['n']}" if "n" in L else ""
        cap = rng.choice((
            f"Screenshot of the GrowDiary app, 'Harvest' entry. Crop: {L['crop'].capitalize()}. Bed: "
            f"{L['bed'].capitalize()}. Date: {d_uk(d)} {d.year}{qty} · Weight {L['w']}. Note: '{note or '—'}'. "
            f"Green 'Saved' toast at the bottom.",
            f"GrowDiary screenshot: a card titled '{L['crop'].capitalize()} — {L['bed']}' with a little basket icon, "
            f"dated {d_uk(d)} {d.year}; '{L['w']}'{qty.replace(' · Quantity', ',')}{' items' if qty else ''}. "
            f"Season total bar underneath.",
        ))
        return Round(user or rng.choice(("From the app.", "Logged this in GrowDiary too.", "App entry:",
                                         "Screenshot from GrowDiary.")), A(), [cap], [rec])

    def notebook(sd, rows, head, user):
        """rows: (date, crop, bed, wfmt, show_items, crop_lit, bed_lit) — handwritten page."""
        recs, lines = [], []
        for d, crop, bed, wfmt, si, cl, bl in rows:
            rec, L = w.harvest(d, crop, bed, ("date", d_note(d)), wfmt=wfmt, show_items=si, show_bed=bed is not None,
                               crop_lit=cl, bed_lit=bl)
            parts = [d_note(d), L["crop"]]
            if "bed" in L:
                parts.append(f"({L['bed']})")
            if "n" in L:
                parts.append(f"x{L['n']}")
            parts.append("— " + L["w"])
            lines.append("'" + " ".join(parts) + "'")
            recs.append(rec)
        cap = (f"Photo of a lined notebook page headed '{head}' in capitals, blue biro, a soil smudge in the margin. "
               f"Lines: " + " / ".join(lines) + ".")
        return Round(user, rng.choice(("Copied all of those into the log.", f"Got {len(recs)} pickings from that "
                                       "page.", "All logged — lovely handwriting.")), [cap], recs)

    def weekly(sd, rows, title, user):
        recs, lines, tot = [], [], F(0)
        for d, crop, bed, wfmt in rows:
            rec, L = w.harvest(d, crop, bed, ("date", d_row(d)), wfmt=wfmt)
            tot += rec.fields["weight_g"]
            q = f" · {L['n']}" if "n" in L else ""
            lines.append(f"{d_row(d)} · {L['crop'].capitalize()} · {L['bed'].capitalize()}{q} · {L['w']}")
            recs.append(rec)
        cap = (f"Screenshot of the GrowDiary 'Week summary' for {title}: a table with columns Date · Crop · Bed · Qty "
               f"· Weight. Rows: " + " | ".join(lines) + f". Footer: 'Week total {s(tot / 1000, 2)} kg'.")
        return Round(user, rng.choice(("That's the week logged.", f"{len(recs)} pickings added.",
                                       "Saved all the rows.")), [cap], recs)

    def typed(sd, parts_spec, tail=""):
        """parts_spec: list of (date, crop, bed, wfmt, show_items, style) rendered as sentences."""
        recs, sents = [], []
        prev = None
        for d, crop, bed, wfmt, si, style in parts_spec:
            cue = g_cue(d, sd)
            rec, L = w.harvest(d, crop, bed, cue, wfmt=wfmt, show_items=si, show_bed=bed is not None)
            k = (sd - d).days
            when = {0: "this morning", 1: "yesterday"}.get(k, f"on {WD[d.weekday()]}" if k <= 6 else
                                                             f"on {d_ukl(d)}")
            if prev == d:
                when = "the same day"
            prev = d
            bedp = f" from the {L['bed']}" if "bed" in L else ""
            if style == 0:
                if "n" in L:
                    sents.append(f"Picked {L['n']} {L['crop']}{bedp} {when}, {L['w']} altogether.")
                else:
                    sents.append(f"Picked {L['crop']}{bedp} {when} — {L['w']}.")
            elif style == 1:
                cnt = f", {L['n']} of them" if "n" in L else ""
                sents.append(f"{cap1(when)}: {L['crop']}{bedp}{cnt}, weighing {L['w']}.")
            else:
                cnt = f"{L['n']} " if "n" in L else ""
                sents.append(f"And {cnt}{L['crop']}{bedp} ({L['w']}) {when}.")
            recs.append(rec)
        return Round(" ".join(sents) + (" " + tail if tail else ""), A() if len(recs) == 1 else
                     rng.choice(("Both logged.", "Added those.", "Noted them all.")), [], recs)

    def terse(sd, rows, intro):
        recs, lines = [], []
        for d, crop, bed, wfmt, si, cl, bl in rows:
            k = (sd - d).days
            cue = ("weekday", WD3[d.weekday()]) if 2 <= k <= 6 else (("yesterday", "yesterday") if k == 1 else
                                                                      (("today", "today") if k == 0 else
                                                                       ("date", d_uk(d))))
            rec, L = w.harvest(d, crop, bed, cue, wfmt=wfmt, show_items=si, show_bed=bed is not None, crop_lit=cl,
                               bed_lit=bl)
            bits = [L["crop"]]
            if "bed" in L:
                bits.append(L["bed"])
            if "n" in L:
                bits.append(f"x{L['n']}")
            if "w" in L:
                bits.append(L["w"])
            else:
                bits.append("(didn't weigh)")
            lines.append(f"- {cue[1] if cue[1] else 'today'}: " + ", ".join(bits))
            recs.append(rec)
        return Round(intro + "\n" + "\n".join(lines), rng.choice(("All in.", "Logged those.", "Got them.")), [], recs)

    def wtyped(d, sd, litres, source, bed, src_text, tail=""):
        cue = g_cue(d, sd)
        rec, L = w.water(d, cue, litres, source, bed, src_lit=src_text)
        k = (sd - d).days
        when = {0: "this evening", 1: "yesterday"}.get(k, f"on {WD[d.weekday()]}" if k <= 6 else f"on {d_ukl(d)}")
        bedp = f"the {L['bed']}" if "bed" in L else "everything"
        txt = rng.choice((
            f"Watered {bedp} {when}: {L['l']} litres from the {L['src']}.",
            f"{cap1(when)} I gave {bedp} {L['l']} litres, all from the {L['src']}.",
        )) + (" " + tail if tail else "")
        return Round(txt, rng.choice(("Watering noted.", "Logged the watering.", "Got it, watering saved.")), [],
                     [rec])

    def wapp(d, litres, source, bed, user="Watering entry from the app."):
        rec, L = w.water(d, ("date", f"{d_uk(d)} {d.year}"), litres, source, bed)
        srcs = L["src"].capitalize() if "src" in L else "—"
        cap = (f"Screenshot of GrowDiary's 'Watering' log entry: Date {d_uk(d)} {d.year} · Bed "
               f"{L['bed'].capitalize() if 'bed' in L else 'All'} · Source {srcs} · Amount {L['l']} L. A rain-gauge "
               f"widget beside it says 'Last 7 days: {rng.randint(0, 6)} mm'.")
        return Round(user, rng.choice(("Watering noted.", "Saved.", "Logged.")), [cap], [rec])

    def wnote(sd, rows, user):
        recs, lines = [], []
        for d, litres, source, bed, src_lit, bed_lit in rows:
            rec, L = w.water(d, ("date", d_note(d)), litres, source, bed, src_lit, bed_lit)
            lines.append("'" + " ".join(x for x in ("W", d_note(d), L.get("src"), L["l"] + "L", L.get("bed")) if x)
                         + "'")
            recs.append(rec)
        cap = ("Photo of the back page of the shed notebook, a column headed 'WATER' in pencil: " + " / ".join(lines)
               + ". Below, a doodle of a watering can.")
        return Round(user, "Watering entries logged.", [cap], recs)

    # ---- sessions -----------------------------------------------------------------------------
    sd = D(2025, 7, 6)
    S.append((sd, [
        C("Hello! I'd like to keep a proper harvest log this year. I've got plot 14B at Hollin Lane Allotment "
          "Society — half-size plot, £42 a year rent, a little greenhouse, a bean trench, a top bed and a bottom "
          "bed, a raised bed and a fruit cage.",
          "Lovely. Send me weights, photos of the scale, app screenshots or notebook pages and I'll keep the log: "
          "crop, bed, weight and how many you picked, plus any watering.", key="plot"),
        scale(D(2025, 7, 5), sd, "potatoes", "bottom bed", wfmt="kg2", lead="First earlies dug yesterday —",
              extra="Charlotte, lovely and clean."),
        typed(sd, [(sd, "courgettes", "bottom bed", "g", True, 0), (sd, "raspberries", "fruit cage", "g", False, 2)]),
        C("Greenhouse tomatoes are Sungold this year, and I've put Tumbling Tom outside in the top bed.",
          "Sungold under glass and Tumbling Tom outdoors — noted.", key="variety"),
        wtyped(D(2025, 7, 4), sd, 60, "hose", "top bed", "hose", tail="It's bone dry."),
        C("Tom reckons there's another 3 kg of earlies still in the ground. We'll see.",
          "I'll log them when they're actually dug and weighed."),
        C("Bernard on plot 15 is already boasting that his onions are the size of grapefruits.",
          "Every allotment has a Bernard."),
        C("What's the best time of day to water in this heat?",
          "Early morning or evening, at the base of the plants, so less evaporates."),
    ]))
    sd = D(2025, 7, 12)
    S.append((sd, [
        app(D(2025, 7, 8), sd, "french beans", "raised bed", note="first picking!"),
        notebook(sd, [(D(2025, 7, 9), "courgettes", "bottom bed", "gc", True, "courgette", None),
                      (D(2025, 7, 10), "raspberries", "fruit cage", "gc", False, "rasps", None),
                      (D(2025, 7, 11), "potatoes", "bottom bed", "kgc", False, "spuds", None)],
                 "JULY", "Notebook page from the shed, copying over."),
        wapp(D(2025, 7, 10), 40, "water butt", "greenhouse"),
        C("Target for this year: 15 kg of tomatoes. Last year I managed 11.2 kg and Bernard did 14, so.",
          "15 kg it is — I'll keep a running total against it.", key="target"),
        C("Ffion (my granddaughter, she's 8) asked why the courgettes have such big leaves. Good question.",
          "Big leaves catch lots of light and shade the soil — handy for a thirsty plant."),
        C("Bernard gave me one of his greenhouse cucumbers — 420 g, he made sure to tell me.",
          "Generous, if a little boastful. I won't count it as your harvest."),
        C("Is it normal for the first french beans to be a bit stringy?",
          "Pick them younger and slimmer — stringiness usually means they were left a bit long."),
        C("The seed packet for the french beans says 'up to 2 kg per metre of row'. Ha.",
          "Packet yields are best-case; your log will tell the real story."),
        C("Tom's spring balance lives in the shed and he refuses to use the app. We'll see who wins.",
          "I can take pounds and ounces too — I'll convert to grams."),
    ]))
    sd = D(2025, 7, 19)
    S.append((sd, [
        scale(D(2025, 7, 18), sd, "tomatoes", "greenhouse", items=14, extra="First Sungolds of the year!"),
        terse(sd, [(D(2025, 7, 15), "courgettes", "top bed", "g", True, None, None),
                   (D(2025, 7, 16), "french beans", "raised bed", "g", True, None, None)], "This week so far:"),
        wtyped(D(2025, 7, 17), sd, 80, "hose", None, "hose", tail="Hose on the beans and courgettes together."),
        C("Bad news: Yorkshire Water have announced a hosepipe ban starting Friday 25 July. So it's the water "
          "butts and cans from then on.",
          "Noted — hosepipe ban from 25 July. I'll be able to separate waterings before and after it.", key="ban"),
        app(sd, sd, "beetroot", "raised bed", note="Boltardy", user="Pulled some beetroot this morning, app entry."),
        C("Tom timed the hose: about 12 litres a minute. No wonder the bill's high.",
          "That adds up quickly — the water butts will matter more now."),
        C("The greenhouse thermometer hit 34°C this afternoon. I've propped the door open with a brick.",
          "Good — shading paint or a net would help too on days like this."),
        C("Bernard says his cucumbers are already 'prize size'. I haven't had a single one yet.",
          "Yours will come — greenhouse cucumbers can be slow to start."),
    ]))
    sd = D(2025, 7, 27)
    S.append((sd, [
        weekly(sd, [(D(2025, 7, 21), "tomatoes", "greenhouse", "g"), (D(2025, 7, 22), "courgettes", "top bed", "g"),
                    (D(2025, 7, 23), "runner beans", "bean trench", "g"),
                    (D(2025, 7, 24), "raspberries", "fruit cage", "g"), (D(2025, 7, 26), "potatoes", "bottom bed",
                                                                         "g")],
               "21–27 Jul", "GrowDiary's weekly summary — I did put everything in the app this week!"),
        wnote(sd, [(D(2025, 7, 22), 60, "hose", None, None, None),
                   (D(2025, 7, 25), 30, "water butt", "greenhouse", "butt", None)],
              "And the watering from the back of the notebook (22nd was the last hose before the ban)."),
        scale(sd, sd, "cucumbers", "greenhouse", lead="Today:", extra="Finally! Take that, Bernard."),
        C("Forecast says 28°C all week and no rain in sight.", "Water early and mulch where you can."),
        C("That's the last of the earlies out. The bottom bed looks very bare.",
          "You could sow a green manure or some late salad there."),
        C("How long do runner beans keep cropping if I keep picking?",
          "Often until the first frosts, as long as you pick regularly and they don't dry out."),
        C("Bernard claims 1.8 kg of runner beans from one picking. I'll believe it when I see the scale.",
          "Photos or it didn't happen."),
    ]))
    sd = D(2025, 8, 2)
    S.append((sd, [
        scale(D(2025, 8, 1), sd, "tomatoes", "greenhouse", wfmt="lboz1", season=1.0, items=58),
        notebook(sd, [(D(2025, 7, 29), "runner beans", "bean trench", "gc", True, "runners", None),
                      (D(2025, 7, 30), "courgettes", "top bed", "gc", True, None, None),
                      (D(2025, 7, 31), "tomatoes", "top bed", "gc", True, "toms", None)],
                 "JULY (cont.)", "Notebook again."),
        wtyped(D(2025, 7, 31), sd, 45, "water butt", "greenhouse", "water butts"),
        C("The Hollin Lane show is on Saturday 6 September. I'm entering the runner beans and maybe a courgette.",
          "Show day 6 September — good luck! Straight, even beans are what the judges like.", key="show"),
        C("Bernard's away till Tuesday so I carried four 10-litre cans from his butt to his plot. That's his "
          "watering, not mine — don't put it in my log!",
          "Understood — I won't count Bernard's watering."),
        C("Gave Bernard a bag of courgettes. He pretended not to want them.", "Very generous of you."),
        C("Ffion counted the flowers on the runner beans: 212, she says. I'm not checking.",
          "That's a lot of potential beans!"),
        C("How do I stop the courgettes turning into marrows when I'm away for a weekend?",
          "Pick everything small before you go, even the tiny ones, and ask a neighbour to check."),
    ]))
    sd = D(2025, 8, 9)
    S.append((sd, [
        app(D(2025, 8, 5), sd, "tomatoes", "greenhouse", wfmt="kg3", note="Sungold, loads"),
        typed(sd, [(D(2025, 8, 7), "runner beans", "bean trench", "g", True, 0),
                   (D(2025, 8, 7), "french beans", "raised bed", "g", True, 2)], tail="Beans everywhere!"),
        scale(sd, sd, "courgettes", "bottom bed", wfmt="kg3", items=1,
              extra="It was hiding under the leaves, it's practically a marrow.", grams=1386, crop_lit="courgette"),
        wapp(D(2025, 8, 6), 50, "water butt", "top bed"),
        C("We've got two water butts on the shed, 210 litres each. Both nearly empty now.",
          "Two 210-litre butts — noted. Fingers crossed for rain.", key="butts"),
        C("The greenhouse is giving roughly 500 g of Sungolds every other day at the moment, give or take.",
          "A steady crop — I'll stick to the pickings you actually weigh."),
        C("Ffion wants to enter the children's 'funniest vegetable' class with a two-legged carrot from Bernard.",
          "That's the spirit of the show."),
    ]))
    sd = D(2025, 8, 17)
    S.append((sd, [
        weekly(sd, [(D(2025, 8, 11), "tomatoes", "greenhouse", "g"), (D(2025, 8, 12), "runner beans", "bean trench",
                                                                      "g"),
                    (D(2025, 8, 13), "cucumbers", "greenhouse", "g"), (D(2025, 8, 14), "tomatoes", "top bed", "g"),
                    (D(2025, 8, 15), "courgettes", "top bed", "g")],
               "11–17 Aug", "Week summary from the app."),
        wnote(sd, [(D(2025, 8, 12), 40, "water butt", "bean trench", "butt", None),
                   (D(2025, 8, 15), 35, "water butt", "greenhouse", "butt", "GH")],
              "Watering notes, this week:"),
        terse(sd, [(sd, "beetroot", "raised bed", None, True, "beets", None)],
              "Quick one, scale battery died so no weight:"),
        C("It finally rained on Thursday night — 14 mm in the gauge. The butts are a third full again.",
          "That'll help — and saves a few trips with the cans."),
        C("Ffion ate a good handful of raspberries straight off the canes. Uncounted and unweighed.",
          "The best kind of harvest."),
        C("Tom says the raspberries have 'gone over'. The autumn ones should start in September.",
          "Autumn-fruiting canes usually crop from late August into October."),
        C("What's a good way to use up a glut of courgettes?",
          "Courgette fritters, soup for the freezer, or grate and freeze them for cakes."),
    ]))
    sd = D(2025, 8, 23)
    S.append((sd, [
        scale(sd, sd, "tomatoes", "greenhouse", wfmt="g"),
        notebook(sd, [(D(2025, 8, 19), "runner beans", "bean trench", "gc", True, None, None),
                      (D(2025, 8, 20), "tomatoes", "top bed", "gc", True, None, None),
                      (D(2025, 8, 21), "french beans", "raised bed", "gc", True, None, None)],
                 "AUGUST", "Page from the notebook."),
        wtyped(sd, sd, 30, "water butt", "greenhouse", "water butt"),
        C("Bernard's giant onion weighed 2.3 kg on his own scale. He's unbearable.",
          "Impressive, annoyingly."),
        C("The allotment committee wants everyone to cut their water use by 20% until the ban lifts.",
          "Your logs will show whether you're managing it."),
        C("My back is telling me I picked too many beans this week.", "Take it easy — the beans will wait a day."),
        C("Should I pinch out the tops of the greenhouse tomatoes now?",
          "Yes — late August is a good time, so the plant puts its energy into ripening the trusses it has."),
    ]))
    sd = D(2025, 8, 30)
    S.append((sd, [
        app(D(2025, 8, 25), sd, "courgettes", "top bed", wfmt="kg2"),
        typed(sd, [(D(2025, 8, 27), "tomatoes", "greenhouse", "g", True, 1),
                   (D(2025, 8, 27), "runner beans", "bean trench", "kg3", True, 1)]),
        scale(sd, sd, "tomatoes", "top bed", wfmt="lboz1", items=12),
        wapp(D(2025, 8, 28), 40, "water butt", "greenhouse"),
        C("A week till the show. I'm going to pick the beans on the Friday night so they're fresh.",
          "Good plan — keep them wrapped in a damp towel overnight."),
        C("Tom weighed himself on his spring balance for a laugh: 12 st 4 lb, he says. Don't ask.", "I won't!"),
        C("The packet said Tumbling Tom gives 'up to 2 kg per plant'. I've got four plants, so we'll see.",
          "Outdoor bush tomatoes vary a lot with the weather."),
    ]))
    sd = D(2025, 9, 7)
    S.append((sd, [
        C("The show was yesterday! Second place for my runner beans, and Bernard's marrow won at 6.2 kg.",
          "Congratulations on second place!"),
        notebook(sd, [(D(2025, 9, 1), "tomatoes", "greenhouse", "gc", True, "toms", "GH"),
                      (D(2025, 9, 3), "runner beans", "bean trench", "gc", True, "runners", None),
                      (D(2025, 9, 4), "raspberries", "fruit cage", "gc", False, "rasps", None)],
                 "SEPT", "Notebook, first days of September:"),
        scale(D(2025, 9, 6), sd, "courgettes", "top bed", wfmt="g",
              lead="Yesterday morning, before the show, I still found time to pick:"),
        wtyped(D(2025, 9, 2), sd, 25, "water butt", "greenhouse", "water butt"),
        C("The winning runner beans were 38 cm long. Mine were 33. I'm growing Enorma next year.",
          "A good excuse to try a new variety."),
        C("I'll make green tomato chutney with whatever doesn't ripen.", "Perfect use for the last trusses."),
        C("The judge said my beans were 'a touch curved'. They were perfectly straight.",
          "Judges can be harsh — second place is a great result."),
        C("First autumn raspberries this week, and they taste better than the summer ones.",
          "Autumn raspberries are often sweeter — enjoy them."),
    ]))
    sd = D(2025, 9, 13)
    S.append((sd, [
        weekly(sd, [(D(2025, 9, 8), "potatoes", "bottom bed", "kg2"), (D(2025, 9, 9), "tomatoes", "greenhouse", "g"),
                    (D(2025, 9, 10), "runner beans", "bean trench", "g"),
                    (D(2025, 9, 12), "raspberries", "fruit cage", "g")],
               "8–14 Sep", "Week so far in the app. Dug the maincrop spuds on Monday!"),
        terse(sd, [(sd, "tomatoes", "top bed", "g", True, None, None)], "This morning:"),
        C("We've had 22 mm of rain this week so no watering at all. The butts are full to the brim.",
          "Lovely — nature doing the job."),
        C("GrowDiary's season total says 31.4 kg, but I think it double-counted a week somewhere.",
          "I'll go by the individual pickings rather than that total."),
        C("Greenhouse went down to 9°C last night, the first cold one.", "Autumn's arriving."),
        C("Bernard has started talking about next year's show already. It's September.",
          "Some people plan a long way ahead."),
        C("How should I store the maincrop potatoes?",
          "Dry them for a few hours, then keep them in hessian or paper sacks somewhere cool, dark and frost-free."),
        C("The greenhouse tomatoes are slowing down now. Still a few green trusses.",
          "Cooler nights slow ripening — a banana in a drawer with the green ones helps."),
    ]))
    sd = D(2025, 9, 21)
    S.append((sd, [
        typed(sd, [(D(2025, 9, 17), "tomatoes", "greenhouse", "g", True, 0),
                   (D(2025, 9, 17), "courgettes", "top bed", "g", True, 2)]),
        Round(*(lambda r, L: (f"Tom dug the rest of the maincrop yesterday and weighed it on his spring balance: "
                              f"{L['w']}. Bottom bed, {L['crop']}.", "Logged — converted from pounds and ounces.",
                              [], [r]))(*w.harvest(D(2025, 9, 20), "potatoes", "bottom bed", ("yesterday",
                                                                                                "yesterday"),
                                                   wfmt="lboz0"))),
        app(D(2025, 9, 18), sd, "runner beans", "bean trench", wfmt="g", season=0.6),
        wapp(D(2025, 9, 16), 20, "water butt", "greenhouse"),
        C("Ffion's funny carrot got 'highly commended'. She's framed the card.", "That's wonderful!"),
        C("Tom wants to buy a third water butt, a 250-litre one, for next summer.",
          "A good investment after this year."),
        C("The lady on 14A picked 6.5 kg of apples off one tree this week. I'm jealous.",
          "Maybe a fruit tree for next year?"),
        C("Thinking about next year: maybe fewer courgettes, more french beans.", "Sounds sensible."),
        C("The plot rent reminder came — same price as this year, thankfully.", "Good news."),
    ]))
    sd = D(2025, 9, 27)
    S.append((sd, [
        notebook(sd, [(D(2025, 9, 22), "beetroot", "raised bed", "gc", True, None, None),
                      (D(2025, 9, 23), "raspberries", "fruit cage", "gc", False, None, None),
                      (D(2025, 9, 25), "tomatoes", "greenhouse", "gc", True, None, None)],
                 "SEPT", "Last notebook page of the month."),
        scale(sd, sd, "runner beans", "bean trench", wfmt="g", season=0.5,
              extra="Probably the last decent picking."),
        C("Next year's seed order is at £38.60 so far and I haven't even got to the beans.",
          "Seed catalogues are dangerous."),
        C("Clearing the greenhouse next weekend. Sad but it's time.", "End of a good season."),
        C("Bernard has offered me some of his 'champion' onion sets for next year. Suspicious.",
          "Accept graciously and plant them somewhere he can see."),
        C("Tom wants to know the total weight of everything we've picked. I said ask the assistant.",
          "Happy to work it out whenever you like."),
        C("Thanks for keeping track all summer!", "It's been a pleasure — what a season."),
    ]))
    for sd, rounds in S:
        dlg.session(sd, rounds)
    return dlg


def grams(x: F) -> str:
    return sc(x, 1) if x.denominator != 1 else sc(x, 0)


def garden_qas(dlg: Dialog) -> list[dict]:
    Q = QA(dlg)
    recs = dlg.records()
    H = [r for r in recs if r.rtype == "harvest"]
    W = [r for r in recs if r.rtype == "watering"]
    D = dt.date

    def month(rs, m):
        return [r for r in rs if r.observed.month == m]

    def withf(rs, f):
        return [r for r in rs if r.has(f)]

    def crop(rs, c):
        return [r for r in rs if r.get("crop") == c]

    def tot(rs, f="weight_g"):
        return sum((r.get(f) for r in rs if r.has(f)), F(0))

    def dl(rs):
        return sorted({r.observed.isoformat() for r in rs})

    def dtext(rs):
        return "; ".join(d_nice(dt.date.fromisoformat(x)) for x in dl(rs)) + "."

    # ---- AVG ------------------------------------------------------------------------------------
    xs = [r for r in crop(H, "tomatoes") if r.get("bed") == "greenhouse" and r.has("weight_g")]
    v = rhu(mean([r.get("weight_g") for r in xs]), 1)
    Q.add("AVG", "How much does a typical greenhouse tomato picking weigh — what's the average, in grams?",
          f"{v} g per greenhouse tomato picking on average ({len(xs)} pickings).", float(v), "number",
          rounds_of(xs), 0.5, "g")
    xs = withf(crop(H, "runner beans"), "items")
    v = rhu(mean([r.get("items") for r in xs]), 1)
    Q.add("AVG", "On average, how many beans did I get per runner-bean picking?",
          f"{v} beans per picking on average, over {len(xs)} runner-bean pickings.", float(v), "number",
          rounds_of(xs), 0.05, "beans")
    v = rhu(mean([r.get("volume_l") for r in W]), 1)
    Q.add("AVG", "How many litres did I use per watering, on average?",
          f"{v} litres per watering on average ({len(W)} waterings).", float(v), "number", rounds_of(W), 0.05, "L")
    hit = [r for r in H if r.get("bed") == "greenhouse"]
    v = rhu(F(100 * len(hit), len(H)), 1)
    Q.add("AVG", "What share of all my harvests came out of the greenhouse, as a percentage of pickings?",
          f"{v}% — {len(hit)} of {len(H)} pickings were from the greenhouse.", float(v), "number", rounds_of(H),
          0.05, "%")
    xs = withf(month(H, 9), "weight_g")
    v = rhu(mean([r.get("weight_g") for r in xs]), 1)
    Q.add("AVG", "What was the average weight of a picking in September, in grams?",
          f"{grams(F(v))} g on average across {len(xs)} weighed September pickings.", float(v), "number",
          rounds_of(xs), 0.5, "g")
    xs = [r for r in crop(H, "courgettes") if r.has("weight_g") and r.has("items")]
    v = rhu(tot(xs) / tot(xs, "items"), 1)
    Q.add("AVG", "Dividing the total weight of my courgettes by how many I picked, what did one courgette weigh "
                 "on average, in grams?",
          f"{v} g per courgette ({grams(tot(xs))} g over {tot(xs, 'items')} courgettes).", float(v), "number",
          rounds_of(xs), 0.5, "g")

    # ---- SUM ------------------------------------------------------------------------------------
    xs = withf(crop(H, "tomatoes"), "weight_g")
    tt = tot(xs)
    Q.add("SUM", "How many grams of tomatoes have I picked in total this season?",
          f"{grams(F(rhu(tt, 1)))} g of tomatoes in total, from {len(xs)} pickings.", float(rhu(tt, 1)), "number",
          rounds_of(xs), 0.5, "g")
    xs = withf(crop(H, "potatoes"), "weight_g")
    v = rhu(tot(xs) / 1000, 2)
    Q.add("SUM", "How many kilos of potatoes did we dig altogether?",
          f"{v} kg of potatoes across {len(xs)} diggings.", float(v), "number", rounds_of(xs), 0.01, "kg")
    xs = month(W, 8)
    v = tot(xs, "volume_l")
    Q.add("SUM", "How much water did I put on the plot in August, in litres?",
          f"{v} litres in August, over {len(xs)} waterings.", int(v), "number", rounds_of(xs), 0, "L")
    xs = withf(crop(H, "tomatoes"), "weight_g")
    gap = G_TARGET - tt
    assert gap > 0
    Q.add("SUM", "How many grams short of this year's tomato target am I?",
          f"{grams(F(rhu(gap, 1)))} g short — {grams(F(rhu(tt, 1)))} g picked against the 15 kg target.",
          float(rhu(gap, 1)), "number", rounds_of(xs), 0.5, "g", keys=("target",))

    # ---- CNT ------------------------------------------------------------------------------------
    xs = [r for r in H if r.has("weight_g") and r.get("weight_g") > 1000]
    Q.add("CNT", "How many of my pickings weighed more than a kilo?",
          f"{len(xs)} pickings were over 1 kg.", len(xs), "number", rounds_of(xs), 0, "pickings")
    xs = crop(H, "courgettes")
    Q.add("CNT", "How many times did I pick courgettes?", f"{len(xs)} times.", len(xs), "number", rounds_of(xs), 0,
          "times")
    xs = [r for r in W if r.get("source") == "hose"]
    Q.add("CNT", "How many times did I water with the hose?", f"{len(xs)} times.", len(xs), "number",
          rounds_of(xs), 0, "times")
    xs = month(H, 8)
    nd = len(dl(xs))
    Q.add("CNT", "On how many different days did I harvest something in August?",
          f"{nd} days in August had at least one picking.", nd, "number", rounds_of(xs), 0, "days")
    xs = [r for r in W if r.observed >= G_BAN]
    Q.add("CNT", "How many times did I water once the hosepipe ban was in force (counting from the day it started)?",
          f"{len(xs)} waterings from the ban onwards, all from the water butts.", len(xs), "number", rounds_of(xs),
          0, "times", keys=("ban",))
    xs = [r for r in H if r.has("items") and r.get("items") > 40]
    Q.add("CNT", "How many pickings had more than 40 items in them?",
          f"{len(xs)} pickings had more than 40.", len(xs), "number", rounds_of(xs), 0, "pickings")

    # ---- MAX ------------------------------------------------------------------------------------
    xs = withf(H, "weight_g")
    best = unique_best(xs, lambda r: r.get("weight_g"))
    Q.add("MAX", "What was my heaviest single picking, in grams?",
          f"{grams(F(rhu(best.get('weight_g'), 1)))} g — {best.get('crop')} on {d_nice(best.observed)}.",
          float(rhu(best.get("weight_g"), 1)), "number", rounds_of(xs), 0.5, "g")
    by = {c: tot(crop(xs, c)) for c in CROPS}
    order = sorted(CROPS, key=lambda c: -by[c])
    assert by[order[0]] - by[order[1]] >= 200
    Q.add("MAX", "Which crop has given me the most by weight this season?",
          f"{cap1(order[0])} — {grams(F(rhu(by[order[0]], 1)))} g in total.", order[0], "string", rounds_of(xs),
          candidates=CROPS)
    cnt = {b: sum(r.get("bed") == b for r in H) for b in BEDS}
    ob = sorted(BEDS, key=lambda b: -cnt[b])
    assert cnt[ob[0]] > cnt[ob[1]]
    Q.add("MAX", "Which bed did I harvest from most often?",
          f"The {ob[0]} — {cnt[ob[0]]} pickings.", ob[0], "string", rounds_of([r for r in H if r.has("bed")]),
          candidates=BEDS)
    xs = withf(crop(H, "tomatoes"), "items")
    best = unique_best(xs, lambda r: r.get("items"))
    Q.add("MAX", "On which day did I pick the most tomatoes by count?",
          f"{d_nice(best.observed)} — {best.get('items')} tomatoes.", best.observed.isoformat(), "date",
          rounds_of(xs))

    # ---- MIN ------------------------------------------------------------------------------------
    xs = withf(crop(H, "raspberries"), "weight_g")
    low = unique_best(xs, lambda r: r.get("weight_g"), largest=False)
    Q.add("MIN", "What was my smallest raspberry picking, in grams?",
          f"{grams(low.get('weight_g'))} g, on {d_nice(low.observed)}.", jnum(low.get("weight_g")), "number",
          rounds_of(xs), 0.5, "g")
    low = unique_best(W, lambda r: r.get("volume_l"), largest=False)
    Q.add("MIN", "On which day did I give the plot the least water?",
          f"{d_nice(low.observed)} — just {low.get('volume_l')} litres.", low.observed.isoformat(), "date",
          rounds_of(W))
    xs = withf(H, "weight_g")
    ms = {m: tot(month(xs, m)) for m in (7, 8, 9)}
    om = sorted(ms, key=lambda m: ms[m])
    assert ms[om[1]] - ms[om[0]] >= 500
    Q.add("MIN", "Which month had the smallest total harvest by weight — July, August or September?",
          f"{MON[om[0] - 1]}, with {grams(F(rhu(ms[om[0]], 1)))} g.", MON[om[0] - 1], "string", rounds_of(xs),
          candidates=("July", "August", "September"))

    # ---- LAT ------------------------------------------------------------------------------------
    xs = crop(H, "courgettes")
    last = max(xs, key=lambda r: r.observed)
    Q.add("LAT", "When did I last pick courgettes?", f"{d_nice(last.observed)}.", last.observed.isoformat(), "date",
          [last.round])
    last = max(W, key=lambda r: r.observed)
    Q.add("LAT", "How much water did I use the last time I watered?",
          f"{last.get('volume_l')} litres, on {d_nice(last.observed)}.", jnum(last.get("volume_l")), "number",
          [last.round], 0, "L")
    xs = [r for r in H if r.get("bed") == "raised bed"]
    last = max(xs, key=lambda r: r.observed)
    Q.add("LAT", "What did I pick from the raised bed most recently?",
          f"{cap1(last.get('crop'))}, on {d_nice(last.observed)}.", last.get("crop"), "string", [last.round],
          candidates=CROPS)
    xs = [r for r in crop(H, "tomatoes") if r.get("bed") == "greenhouse" and r.has("weight_g")]
    last = max(xs, key=lambda r: r.observed)
    Q.add("LAT", "How much did my latest greenhouse tomato picking weigh, in grams?",
          f"{grams(last.get('weight_g'))} g, on {d_nice(last.observed)}.", jnum(last.get("weight_g")), "number",
          [last.round], 0.5, "g")

    # ---- RNG ------------------------------------------------------------------------------------
    xs = crop(H, "potatoes")
    Q.add("RNG", "On which days did I dig potatoes?", dtext(xs), dl(xs), "list", rounds_of(xs))
    xs = [r for r in H if r.get("bed") == "top bed"]
    cs = sorted({r.get("crop") for r in xs})
    Q.add("RNG", "Which crops have I picked from the top bed?", " and ".join(cs) + ".", cs, "list", rounds_of(xs),
          candidates=CROPS)
    xs = [r for r in W if r.get("source") == "hose"]
    Q.add("RNG", "On which days did I use the hose?", dtext(xs), dl(xs), "list", rounds_of(xs))
    xs = [r for r in H if D(2025, 8, 11) <= r.observed <= D(2025, 8, 17) and r.has("bed")]
    bs = sorted({r.get("bed") for r in xs})
    Q.add("RNG", "Which beds did I harvest from in the week of August 11–17, 2025?", ", ".join(bs) + ".", bs,
          "list", rounds_of(xs), candidates=BEDS)

    # ---- CMP ------------------------------------------------------------------------------------
    xs = withf(crop(H, "tomatoes"), "weight_g")
    a, b = tot(month(xs, 8)), tot(month(xs, 9))
    assert abs(a - b) >= 300
    hi = "August" if a > b else "September"
    Q.add("CMP", "Did I pick more tomatoes by weight in August or in September?",
          f"{hi} — {grams(F(rhu(max(a, b), 1)))} g against {grams(F(rhu(min(a, b), 1)))} g.", hi, "string",
          rounds_of(month(xs, 8) + month(xs, 9)), candidates=("August", "September"))
    gh = [r.get("weight_g") for r in xs if r.get("bed") == "greenhouse"]
    tb = [r.get("weight_g") for r in xs if r.get("bed") == "top bed"]
    assert gap_ok(mean(gh), mean(tb), F(3, 100))
    hi = "greenhouse" if mean(gh) > mean(tb) else "top bed"
    Q.add("CMP", "Were my greenhouse tomato pickings or my top-bed tomato pickings heavier on average?",
          f"The {hi} ones — {rhu(max(mean(gh), mean(tb)), 1)} g vs {rhu(min(mean(gh), mean(tb)), 1)} g per picking.",
          hi, "string", rounds_of([r for r in xs if r.get("bed") in ("greenhouse", "top bed")]),
          candidates=("greenhouse", "top bed"))
    ho = [r.get("volume_l") for r in W if r.get("source") == "hose"]
    bu = [r.get("volume_l") for r in W if r.get("source") == "water butt"]
    assert gap_ok(mean(ho), mean(bu), F(3, 100))
    hi = "hose" if mean(ho) > mean(bu) else "water butt"
    Q.add("CMP", "Per watering, did I use more water on average from the hose or from the water butts?",
          f"The {hi} — {rhu(max(mean(ho), mean(bu)), 1)} L vs {rhu(min(mean(ho), mean(bu)), 1)} L per watering.", hi,
          "string", rounds_of([r for r in W if r.has("source")]), candidates=("hose", "water butt"))
    rb, fb = withf(crop(H, "runner beans"), "weight_g"), withf(crop(H, "french beans"), "weight_g")
    a, b = tot(rb), tot(fb)
    assert abs(a - b) >= 300
    hi = "runner beans" if a > b else "french beans"
    Q.add("CMP", "Which gave me more in total by weight: the runner beans or the french beans?",
          f"The {hi} — {grams(F(rhu(max(a, b), 1)))} g vs {grams(F(rhu(min(a, b), 1)))} g.", hi, "string",
          rounds_of(rb + fb), candidates=("runner beans", "french beans"))

    # ---- TRD ------------------------------------------------------------------------------------
    xs = withf(crop(H, "tomatoes"), "weight_g")
    a, b = tot(month(xs, 7)), tot(month(xs, 8))
    assert abs(a - b) >= 300
    tr = "increased" if b > a else "decreased"
    Q.add("TRD", "From July to August, did my monthly tomato harvest go up or down?",
          f"It {tr}: {grams(F(rhu(a, 1)))} g in July, {grams(F(rhu(b, 1)))} g in August.", tr, "string",
          rounds_of(month(xs, 7) + month(xs, 8)), candidates=("increased", "decreased"))
    xs = withf(crop(H, "courgettes"), "weight_g")
    a, b = tot(month(xs, 8)), tot(month(xs, 9))
    assert abs(a - b) >= 300
    tr = "increased" if b > a else "decreased"
    Q.add("TRD", "Between August and September, did the total weight of courgettes I picked rise or fall?",
          f"It {tr}: {grams(F(rhu(a, 1)))} g in August, {grams(F(rhu(b, 1)))} g in September.", tr, "string",
          rounds_of(month(xs, 8) + month(xs, 9)), candidates=("increased", "decreased"))
    a, b = tot(month(W, 7), "volume_l"), tot(month(W, 9), "volume_l")
    assert abs(a - b) >= 40
    tr = "increased" if b > a else "decreased"
    Q.add("TRD", "Did my monthly watering total increase or decrease from July to September?",
          f"It {tr}: {a} litres in July, {b} litres in September.", tr, "string",
          rounds_of(month(W, 7) + month(W, 9)), candidates=("increased", "decreased"))

    # ---- RET ------------------------------------------------------------------------------------
    Q.add("RET", "What's my allotment plot number?", "Plot 14B.", "14B", "string", [], keys=("plot",))
    Q.add("RET", "Which allotment society is my plot with?", "Hollin Lane Allotment Society.", "Hollin Lane",
          "string", [], keys=("plot",))
    Q.add("RET", "How much is the yearly rent for my plot?", "£42 a year.", 42, "number", [], 0, "GBP",
          keys=("plot",))
    Q.add("RET", "What variety of tomato am I growing in the greenhouse?", "Sungold.", "Sungold", "string", [],
          keys=("variety",))
    Q.add("RET", "How big is each of our water butts, in litres?", "210 litres each (there are two).", 210,
          "number", [], 0, "L", keys=("butts",))
    Q.add("RET", "What date was the allotment show?", "September 6, 2025 (a Saturday).", "2025-09-06", "date", [],
          keys=("show",))
    Q.add("RET", "When did the hosepipe ban start?", "July 25, 2025.", "2025-07-25", "date", [], keys=("ban",))
    return Q.items


# =============================================================================================
# main
# =============================================================================================

SCENARIOS = (("home_energy", build_home_energy, home_qas), ("garden_harvest", build_garden_harvest, garden_qas))


def main() -> int:
    out = {}
    for name, build, qas_fn in SCENARIOS:
        dlg = build()
        check_dialog(dlg)
        qas = qas_fn(dlg)
        check_qas(dlg, qas)
        out[name] = (dlg, qas)
    (HERE / "dialog").mkdir(exist_ok=True)
    (HERE / "records").mkdir(exist_ok=True)
    for name, (dlg, qas) in out.items():
        data, lines = dump(dlg, qas)
        (HERE / "dialog" / f"{name}.json").write_text(data, encoding="utf-8")
        (HERE / "records" / f"{name}.jsonl").write_text(lines, encoding="utf-8")
        recs = dlg.records()
        kinds = {}
        for r in recs:
            kinds[r.rtype] = kinds.get(r.rtype, 0) + 1
        rounds = dlg.rounds()
        imgs = sum(len(r.captions) for _, _, r in rounds)
        earlier = sum(1 for r in recs for sid, d, _ in [next(x for x in dlg.sessions if x[0] == r.round.split(":")[0])]
                      if r.observed < d)
        big = sum(1 for q in qas if len(q["clue"]) > 10)
        print(f"{name}: {len(dlg.sessions)} sessions, {len(rounds)} rounds, {imgs} images, records "
              + ", ".join(f"{k} {v}" for k, v in kinds.items())
              + f" ({earlier}/{len(recs)} for an earlier day); {len(qas)} QAs, {big} with >10 clue rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
