"""Labels of values (the ``labels`` extractor): the words a value is named by, read back from the
value (``Resting HR 54 bpm``, ``my weight was 72 kg``, ``slept for about 7 h``) or forward
from it (``6.5 hours of sleep``, ``1,250 kcal burned`` -> ``calories_burned``, ``178 cm tall``
-> ``height``, ``34 years old`` -> ``age``).

Label clean-up: leading articles and possessives go (``my``, ``the``, ``today's`` - the last
one also dates the value), abbreviations stay (``avg``), a unit in parentheses (``Total sleep
(h)``) becomes the value's unit when the value has none. A key longer than 4 words or 48
characters, a key that is only a stopword, pronoun or verb, and an ordinal label after a value
(``3 floors``) are rejected; the pattern families decide the rest (an ordinal label with a
plain number, ``Step 2``; a bare year in prose).
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from adamm.nodes.rules.labels_dates import DAY_POSSESSIVE, day_hint
from adamm.nodes.rules.labels_text import QuantityHit, TextScan
from adamm.nodes.rules.labels_words import (
    COMPARATIVES,
    COUNT_UNITS,
    DETERMINERS,
    LETTER,
    ORDINAL_LABELS,
    PRONOUNS,
    STRIP_LEAD,
    VERB_FILLERS,
    VERB_MAP,
    key_name,
    keyish,
    norm_token,
    verbish,
)
from adamm.stores.quantities import canonical_unit, snake_case

#: "1,250 kcal burned" -> "<noun of the unit>_burned".
_PARTICIPLES = {"burned": "burned", "burnt": "burned", "consumed": "consumed", "eaten": "eaten",
                "walked": "walked", "climbed": "climbed", "left": "left", "remaining": "remaining",
                "spent": "spent", "saved": "saved", "earned": "earned", "lost": "lost",
                "gained": "gained", "logged": "logged", "tracked": "tracked"}
#: "178 cm tall" -> height: an adjective of measure names the attribute (with the right dimension).
_ADJ_DIM = {"tall": ("height", "distance"), "high": ("height", "distance"),
            "long": ("length", "distance"), "wide": ("width", "distance"),
            "deep": ("depth", "distance"), "thick": ("thickness", "distance"),
            "old": ("age", "duration"), "heavy": ("weight", "mass")}
#: "my HRV dropped to 32 ms": a change verb + "to" works like a copula.
_CHANGE_VERBS = frozenset("dropped fell rose increased decreased climbed jumped improved went got "
                          "came reached".split())
_UNIT_NOUN = {"energy": "calories", "duration": "time", "distance": "distance", "mass": "weight",
              "percent": "percent", "volume": "volume", "currency": "amount", "steps": "steps",
              "floors": "floors", "laps": "laps", "pages": "pages", "points": "points",
              "reps": "reps"}

#: Metric phrases that contain a preposition but are one name.
_KNOWN_PHRASES = re.compile(
    r"\b(?:time in (?:range|bed|zone(?: \d)?)|time (?:above|below) range|time out of range"
    r"|(?<!time )(?:in|out of|above|below) range"
    r"|minutes? of (?:exercise|activity)|hours? of sleep|cost of living|blood oxygen|out of pocket"
    r"|(?:wake|woke|get|got|wake-) up|lights out|check(?:ed)? (?:in|out)|sign(?:ed)? in"
    r"|(?:goals?|score|points|runs) (?:for|against))\b",
    re.I)

#: How far back from a value a label is looked for (4 words and their punctuation fit easily).
_MAX_GAP = 120

#: A unit in brackets after a label: "Total sleep (h)".
_PAREN_UNIT = re.compile(r"[(\[]([^()\[\]]{1,12})[)\]]")
#: A cheap test before the phrase substitution: every known phrase has one of these words.
_PHRASE_HINT = re.compile(r"(?:^|\s)(?:in|of|above|below|out|up|oxygen|for|against)\b", re.I)

#: A word with its punctuation (the scans split on white space only).
_TOKEN = re.compile(r"[^ \t\r\n\f\v]+")
#: A negation right before a logging verb: "didn't run 5 km" is no value.
_NEGATION = frozenset({"not", "never", "no", "didn't", "didn’t", "don't", "don’t", "haven't",
                       "hasn't", "wasn't", "couldn't", "won't", "cannot", "can't", "without"})


class Label:
    """The label found before a value (a plain class: made once per value, kept cheap)."""

    __slots__ = ("words", "start", "covers", "colon", "copula", "verb", "negated", "paren_unit",
                 "day", "too_long", "owned")

    def __init__(self) -> None:
        self.words: list[str] = []
        self.start = -1  # absolute start of the key (or of the verb)
        self.covers = False  # nothing but determiners / punctuation before the key in the gap
        self.colon = False
        self.copula = False
        self.verb: str | None = None
        self.negated = False
        self.paren_unit: str | None = None
        self.day: date | None = None  # from "today's" / "yesterday's"
        self.too_long = False
        self.owned = False  # a possessive right before the label: "... yesterday's run:"


class LabelScan(TextScan):
    """Reads the label of a value: back from it (a key, a copula, a logging verb) or after it."""

    def _key_before(self, a: int, b: int) -> Label:
        """The label that ends right before ``b`` (the value), scanning back to ``a``."""
        key = Label()
        far = b - a > _MAX_GAP  # a label never sits that far back: only its tail matters
        if far:
            a = b - _MAX_GAP
        seg = self.masked[a:b]
        if _PHRASE_HINT.search(seg):
            seg = _KNOWN_PHRASES.sub(lambda m: m.group(0).replace(" ", "\u00a0"), seg)
        toks = [(a + m.start(), a + m.end(), m.group(0)) for m in _TOKEN.finditer(seg)]
        # separators right before the value
        while toks:
            t = toks[-1][2]
            if t in (":", "=", "：", "-", "–", "—", "~", "≈", "|"):
                key.colon = key.colon or t in (":", "=", "：")
                toks.pop()
                continue
            if not t.strip("\"'“”‘’*_`«»"):
                toks.pop()  # a quote or markdown mark around the value: "capacity “3750 mAh”"
                continue
            if t[-1] in ":=：" and len(t) > 1:
                key.colon = True
                s, e, _ = toks[-1]
                toks[-1] = (s, e - 1, t[:-1])
                continue
            break
        # "Steps for Dec 30: 9,000": the date names the day of the record
        if toks and not toks[-1][2].strip("\x01"):
            hit = self._date_at(toks[-1][0])
            while toks and not toks[-1][2].strip("\x01"):
                toks.pop()
            if toks and toks[-1][2].lower() in ("for", "on", "of"):
                toks.pop()
                if hit is not None:
                    key.day = hit.anchor
        if toks:
            s, e, t = toks[-1]
            pm = _PAREN_UNIT.fullmatch(t)
            if pm:
                unit = canonical_unit(pm.group(1))
                if unit is not None:
                    key.paren_unit = unit
                    toks.pop()
                    while toks and toks[-1][2] in (":", "="):
                        key.colon = True
                        toks.pop()
        # a logging verb, possibly followed by fillers ("slept for about 7 h")
        j = len(toks)
        while j > 0 and toks[j - 1][2].lower() in VERB_FILLERS:
            j -= 1
        if j > 0:
            w1 = norm_token(toks[j - 1][2])[0].lower()
            w2 = (norm_token(toks[j - 2][2])[0].lower() + " " + w1) if j > 1 else ""
            verb, vi = (w2, j - 2) if w2 in VERB_MAP else ((w1, j - 1) if w1 in VERB_MAP else (None, 0))
            if verb is not None and not toks[vi][2].endswith((",", ".", ";")):
                key.verb = verb
                key.start = toks[vi][0]
                before = [norm_token(t[2])[0].lower() for t in toks[max(0, vi - 3):vi]]
                key.negated = any(w in _NEGATION or w.endswith(("n't", "n’t")) for w in before)
                key.covers = not far and all(
                    w.lower() in PRONOUNS or w in DETERMINERS or not LETTER.search(w)
                    for w in (norm_token(t[2])[0] for t in toks[:vi]))
                return key
        # approximate fillers do not break a label: "resting HR ~54 bpm", "weight about 72 kg"
        while toks and toks[-1][2].lower() in ("~", "≈", "about", "around", "approx.", "approx",
                                               "approximately", "roughly", "nearly", "almost"):
            toks.pop()
        if toks and toks[-1][2].lower() in ("is", "was", "were", "are", "of", "at:"):
            key.copula = True
            toks.pop()
        elif (len(toks) >= 2 and toks[-1][2].lower() in ("to", "at")
              and toks[-2][2].lower() in _CHANGE_VERBS):
            key.copula = True
            toks.pop()
            toks.pop()
        words: list[str] = []
        i = len(toks)
        while i > 0:
            s, e, t = toks[i - 1]
            core, boundary = norm_token(t)
            if boundary and words:
                break
            if boundary and not words and not key.colon:
                break
            low = core.lower()
            if t[-1:] in ")]" and (words or t[:1] not in "(["):
                break  # the end of an earlier parenthetical
            if t[:1] in "([" and t[-1:] in ")]":
                i -= 1  # "(avg)": an aside inside the label
                continue
            if not keyish(core) or low.replace("’", "'") in DETERMINERS:
                break
            if verbish(low) and i > 1:
                break
            if len(words) == 4:
                key.too_long = True
                break
            words.insert(0, core)
            i -= 1
            if t[:1] in "([{“\"'‘":
                break  # an opening bracket or quote starts the label
        if not words:
            return key
        key.words = words
        key.start = toks[i][0] + (len(toks[i][2]) - len(toks[i][2].lstrip(STRIP_LEAD)))
        prefix = toks[:i]
        if prefix:
            last = prefix[-1][2]
            low_last = norm_token(last)[0].lower().replace("’", "'")
            key.owned = (low_last in DETERMINERS and low_last not in ("a", "an", "the", "this", "that")
                         or ("\x01" in last and self.text[prefix[-1][0]:prefix[-1][1]].lower()
                             .endswith(("'s", "’s"))))
        cover = True
        for k, (_, _, t) in enumerate(prefix):
            core, _ = norm_token(t)
            low = core.lower().replace("’", "'")
            if not core or not LETTER.search(core):
                if "\x01" in core and self.text[prefix[k][0]:prefix[k][1]].lower().endswith(("'s", "’s")):
                    hit = self._date_at(prefix[k][0])  # "Yesterday's steps", "Mar 4's sleep"
                    if hit is not None:
                        key.day = hit.anchor
                    continue
                if "\x01" in core or "\x02" in core:
                    cover = False
                continue
            if low in DAY_POSSESSIVE:
                key.day = day_hint(low, self.ref)
                continue
            if low == "last" and k + 1 < len(prefix) and norm_token(prefix[k + 1][2])[0].lower().replace("’", "'") == "night's":
                key.day = self.ref - timedelta(days=1) if self.ref else None
                continue
            if low == "night's" and k > 0:
                continue
            if low in DETERMINERS:
                continue
            if low in ("and", "&", "plus") and (k == 0 or "\x02" in prefix[k - 1][2]):
                continue  # "... 149 mg/dL and lows: 0": the list goes on
            cover = False
        key.covers = cover and not far
        return key

    def _key_after(self, q: QuantityHit, limit: int) -> tuple[str, int] | None:
        """``6.5 hours of sleep`` / ``82% time in range`` / ``1,250 kcal burned``."""
        seg = self.masked[q.end:limit]
        if _PHRASE_HINT.search(seg):
            seg = _KNOWN_PHRASES.sub(lambda m: m.group(0).replace(" ", "\u00a0"), seg)
        if not seg[:1].isspace():
            return None
        toks = [(q.end + m.start(), q.end + m.end(), m.group(0)) for m in _TOKEN.finditer(seg)]
        i = 0
        if toks and toks[0][2].lower() == "of":
            i = 1
            if len(toks) > 1 and toks[1][2].lower() in ("the", "my", "your", "our"):
                i = 2
        elif toks:
            core, _ = norm_token(toks[0][2])
            adj = _ADJ_DIM.get(core.lower())
            if adj is not None and (q.q.dimension or "") == adj[1]:
                return adj[0], toks[0][0] + len(core)  # "178 cm tall", "34 years old"
            part = _PARTICIPLES.get(core.lower())
            if part is not None:
                dim = (q.q.dimension or "").split(":")[0]
                noun = _UNIT_NOUN.get(q.q.unit or "") or _UNIT_NOUN.get(dim)
                if noun:
                    return snake_case(f"{noun}_{part}"), toks[0][0] + len(core)
                return None
        words: list[str] = []
        end = q.end
        while i < len(toks) and len(words) <= 4:
            s, e, t = toks[i]
            core, boundary = norm_token(t)
            low = core.lower()
            if not keyish(core) or (verbish(low) and low not in _PARTICIPLES):
                break
            if t[:1] in STRIP_LEAD and words:
                break
            words.append(core)
            end = s + (len(t) - len(t.lstrip(STRIP_LEAD))) + len(core)
            i += 1
            if boundary:
                break
        if not words or len(words) > 4 or (len(words) == 1 and words[0].lower() in COMPARATIVES):
            return None
        if q.q.unit in COUNT_UNITS:
            return None  # "3 floors of art", "10 pages of notes": counts of things, not labels
        if i < len(toks) and len(words) == 4 and keyish(norm_token(toks[i][2])[0]):
            return None
        name = key_name(words)
        if name is None or words[-1].lower() in ORDINAL_LABELS:
            return None
        return name, end
