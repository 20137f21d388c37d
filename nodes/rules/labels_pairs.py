"""Drafts from a label and its value (the ``labels`` extractor): the value re-read in the light
of its label, and what a pair brings along.

A clock after a time-of-day label is a time of day (``Bedtime: 11:40 pm`` -> ``23:40``), after
a run, pace or lap label m:ss, and a bare ``m`` after a sleep or workout label means minutes.
``BP 128/82`` gives ``bp_systolic`` and ``bp_diastolic``; a payment followed by "at / to
<Capitalized Name>" adds ``merchant``; "Evening run: 6.2 km in 35 min" adds
``evening_run_time``. A logging verb (:data:`adamm.nodes.rules.labels_words.VERB_MAP`) names
the attribute by the value's dimension: "ran 5 km in 28:30" gives ``run_distance`` and
``run_time`` (read as m:ss), "spent $12 on lunch at Joe's" ``amount``, ``category`` and
``merchant``, "scored 3 goals" ``goals``.
"""

from __future__ import annotations

import re

from adamm.nodes.rules.labels_keys import Label, LabelScan
from adamm.nodes.rules.labels_text import CLOCK_RAW, Draft, QuantityHit
from adamm.nodes.rules.labels_words import KEY_STOP, LETTER, MONEY_VERBS, MOTION_VERBS, VERB_MAP, keyish, verbish
from adamm.stores.quantities import Quantity, dimension_of, parse_quantity, snake_case

#: Keys whose clock value is a time of day, not a duration.
_TIME_OF_DAY_KEY = re.compile(
    r"bed ?time|bedtime|wake|woke|alarm|sunrise|sunset|start|end|departure|arrival|depart|arriv"
    r"|lights ?out|asleep|got up|check.?in|check.?out|opens?|closes?|kick.?off|tip.?off", re.I)
#: Keys in which a clock reads m:ss (a run time, a pace, a lap), not h:mm.
_MS_KEY = re.compile(r"pace|run|jog|split|lap|swim|mile|race|5k|10k|km|sprint|plank|song|track", re.I)
#: Keys in which a bare "m" after a number means minutes.
_DURATION_KEY = re.compile(r"sleep|nap|rem\b|deep|light|awake|time|duration|exercise|workout|"
                           r"meditat|active|zone|stand|yoga|study|commute", re.I)
#: Labels of a moving workout: "Evening run: 6.2 km in 35 min" adds evening_run_time.
_MOTION_NOUNS = frozenset("run jog walk hike ride swim cycle row".split())
_CATEGORY = re.compile(r"^\s*(?:on|for)\s+(?:(?:a|an|the|my|our|some)\s+)?(?P<np>[A-Za-z][\w'’\-]*"
                       r"(?:\s+[A-Za-z][\w'’\-]*){0,2})")
#: "at Whole Foods", "to Trader Joe's": a capitalized name after a payment.
MERCHANT = re.compile(r"(?<![\w])(?:at|to|from|@)[ \t]+(?P<np>[A-Z][\w'’&.\-]*(?:[ \t]+(?:[A-Z][\w'’&.\-]*|&))"
                      r"{0,3})(?<![.,])")
_IN_DURATION = re.compile(r"^\s*in\s+(?:about\s+|around\s+|just\s+|under\s+)?$", re.I)


class PairScan(LabelScan):
    """Turns a label and its value into drafts (and logging verbs into theirs)."""

    def _add_pair(self, name: str, key: Label, q: QuantityHit, sent: int, *, record: bool, plain_ok: bool,
                  pending: list, raw_start: int | None = None, raw_end: int | None = None) -> None:
        value = self._contextual(name, q)
        if value is None:
            return
        if value.unit is None and key.paren_unit:
            value = Quantity(value.value, key.paren_unit, dimension_of(key.paren_unit), value.raw)
        start = key.start if raw_start is None else raw_start
        end = q.end if raw_end is None else raw_end
        extra: list[tuple] = []
        if (value.dimension or "").startswith("currency"):
            mm = MERCHANT.match(self.masked, q.end + 1, min(len(self.text), q.end + 60))
            if mm and self.text[q.end:q.end + 1].isspace():  # "Expense: $52.96 at Spotify"
                extra.append((record, plain_ok, Draft("merchant", None, mm.group("np"), None, None,
                                                      self.text[start:mm.end("np")],
                                                      self._src(start, mm.end("np")), key.day), start))
        if value.dimension == "distance" and key.words and key.words[-1].lower() in _MOTION_NOUNS:
            nxt = next((x for x in self.qs if x.start > q.end), None)
            if (nxt is not None and not nxt.used and not nxt.bad
                    and _IN_DURATION.match(self.masked[q.end:nxt.start])):
                t = parse_quantity(nxt.q.raw, clock_as="ms") if CLOCK_RAW.fullmatch(nxt.q.raw) else nxt.q
                if t is not None and t.dimension == "duration":  # "Evening run: 6.2 km in 35 min"
                    nxt.used = True
                    extra.append((record, plain_ok, self._draft(snake_case(name + "_time"), t,
                                                                nxt.start, nxt.end, key.day), nxt.start))
        q.used = True
        if q.diastolic is not None:  # "BP 128/82": two columns
            base = name if name.endswith(("pressure", "bp")) else name + "_bp"
            for part, v in (("systolic", value.value), ("diastolic", q.diastolic)):
                pending.append((record, plain_ok, Draft(
                    snake_case(f"{base}_{part}"), v, None, "mmHg", "pressure", self.text[start:end],
                    self._src(start, end), key.day), start))
        elif value.dimension == "time_of_day":
            pending.append((record, plain_ok, Draft(
                name, None, clock_text(value.raw) or value.raw, None, "time_of_day",
                self.text[start:end], self._src(start, end), key.day), start))
        else:
            pending.append((record, plain_ok, self._draft(name, value, start, end, key.day), start))
        pending.extend(extra)

    def _contextual(self, name: str, q: QuantityHit) -> Quantity | None:
        """Re-read a value in the light of its key: clocks as m:ss or times of day, m as min."""
        v = q.q
        if CLOCK_RAW.fullmatch(v.raw):
            if _TIME_OF_DAY_KEY.search(name.replace("_", " ")):
                return Quantity(float("nan"), None, "time_of_day", v.raw)
            if _MS_KEY.search(name):
                return parse_quantity(v.raw, clock_as="ms")
        if v.unit == "m" and re.search(r"\d\s?m$", v.raw) and _DURATION_KEY.search(name):
            return Quantity(v.value, "min", "duration", v.raw)
        return v

    def _verb_pair(self, key: Label, q: QuantityHit, rest: list[QuantityHit], tail_end: int, rb: int, sent: int,
                   pending: list) -> None:
        verb = key.verb or ""
        table = VERB_MAP[verb]
        v = q.q
        if verb in MOTION_VERBS and CLOCK_RAW.fullmatch(v.raw):
            v = parse_quantity(v.raw, clock_as="ms") or v
        dim = (v.dimension or "").split(":")[0] if v.dimension else None
        attr = table.get(v.unit) if v.unit in table else table.get(dim)
        if attr is None:
            return
        q.used = True
        end = q.end
        if verb == "scored" and v.unit is None:
            # "scored 3 goals": the thing counted names the attribute
            m = re.match(r"[ \t]+([A-Za-z]+)\b", self.masked[q.end:rb])
            if m and keyish(m.group(1)) and not verbish(m.group(1).lower()):
                attr = snake_case(m.group(1)) or attr
                end = q.end + m.end()
        extra: list[tuple[Draft, int]] = []
        if verb in MOTION_VERBS and dim == "distance" and rest:
            nxt = rest[0]
            if (not nxt.used and not nxt.bad and _IN_DURATION.match(self.masked[q.end:nxt.start])):
                t = nxt.q
                if CLOCK_RAW.fullmatch(t.raw):
                    t = parse_quantity(t.raw, clock_as="ms") or t
                if t.dimension == "duration":
                    nxt.used = True
                    time_attr = table.get("duration")
                    if time_attr:
                        extra.append((self._draft(time_attr, t, nxt.start, nxt.end, key.day), nxt.start))
        if verb in MONEY_VERBS and dim == "currency":
            mm = MERCHANT.search(self.masked, q.end, min(rb, q.end + 60))
            if mm:
                extra.append((Draft("merchant", None, mm.group("np"), None, None,
                                    self.text[key.start:mm.end("np")], self._src(key.start, mm.end("np")),
                                    key.day), key.start))
            m = _CATEGORY.match(self.masked[q.end:rb])
            if m:
                words = []
                for w in m.group("np").split():
                    low = w.lower()
                    if low in KEY_STOP or verbish(low) or not LETTER.search(w):
                        break
                    words.append(w)
                if words:
                    cat_end = q.end + m.start("np") + len(" ".join(words))
                    cat = self.text[q.end + m.start("np"):cat_end]
                    end = cat_end
                    extra.append((Draft("category", None, cat, None, None,
                                        self.text[key.start:cat_end], self._src(key.start, cat_end),
                                        key.day), key.start))
        pending.append((False, True, self._draft(attr, v, key.start, q.end if verb in MONEY_VERBS
                                                 else end, key.day), key.start))
        for d, pos in extra:
            pending.append((False, True, d, pos))


_TOD_TEXT = re.compile(r"(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s?(?:([ap])\.?m\.?)?", re.I)


def clock_text(text: str) -> str | None:
    """A time of day as 24-hour "HH:MM" ("11:40 pm" -> "23:40", "6:55" -> "06:55"), or None."""
    m = _TOD_TEXT.fullmatch(text.strip())
    if not m or (m.group(2) is None and m.group(3) is None):
        return None
    h, mi, ap = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
    if ap:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if ap == "p" else 0)
    if h > 23 or mi > 59:
        return None
    return f"{h:02d}:{mi:02d}"
