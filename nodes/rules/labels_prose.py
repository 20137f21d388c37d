"""Values written inline (the ``labels`` extractor): ``key value unit``, ``value unit [of] key``,
logging verbs and counts, in a sentence or as an item of a list of pairs.

Prose is where most junk would come from, so a sentence that is not a record counts only
values *with a unit*, and only in these forms: ``key value unit`` (``resting HR 54 bpm``), a
copula (``my weight was 72 kg``, ``a capacity of 30 L``, ``my HRV dropped to 32 ms``), ``value
unit [of] key`` (``6.5 hours of sleep``, ``82% time in range``, ``1,250 kcal burned`` ->
``calories_burned``, ``178 cm tall`` -> ``height``, ``34 years old`` -> ``age``), a logging
verb. Plain numbers only after a score-like key (``my score was 82``); money only after a money
word (``budget``, ``cost``, ``total`` ...: "Herschel Backpack $55" names no attribute).
Spelled-out numbers (``seven hours``) only after a logging verb. A bare count of a noun ("...
and 2 lows") only in a sentence that holds two other values (never "I have 2 eggs"); "I have
200 g of flour" (possession) is no value. In a list of pairs (``Score 82 · Steps 9,000``) a
plain number is fine. Which sentences are prose at all is decided by the scan
(:mod:`adamm.nodes.rules.labels_scan`).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from adamm.nodes.rules.labels_pairs import MERCHANT, PairScan
from adamm.nodes.rules.labels_text import Draft
from adamm.nodes.rules.labels_words import COMPARATIVES, COUNT_UNITS, ORDINAL_LABELS, key_name, keyish, verbish
from adamm.stores.quantities import Quantity, canonical_unit, snake_case

#: In prose, a money value labels something only after one of these (else "Herschel Backpack
#: $55" would make a product name an attribute).
_MONEY_WORDS = frozenset("""cost costs price prices total budget bill fee fees rent salary income
spend spending amount balance tip fare charge subtotal tax payment expense expenses revenue profit
savings deposit refund fine wage wages allowance pay""".split())
#: Score-like keys: a plain number after them is a value even in prose.
_SCORE_WORDS = frozenset("score rating readiness grade".split())
#: The assistant's prose counts only where it speaks of the user.
YOU = re.compile(r"\b(?:you|your|you're|you’re|you've|yours)\b", re.I)
#: Possession or purchase right before a value: "I have 200 g of flour", "bought 2 kg of".
_POSSESSION = re.compile(r"\b(?:have|has|had|got|need|needs|want|bought|buy|use|used|add|added|"
                         r"left|still|bake|make|made)\s+(?:\w+\s+)?$", re.I)
_COUNT_NOUN = re.compile(r"[ \t]+([A-Za-z]{3,})[ \t]*[.!;,]?[ \t]*$")
_OLD = re.compile(r"^\s*old\b", re.I)


class ProseScan(PairScan):
    """Reads the values of a region of a sentence that are not written ``key: value``."""

    def _scan_region(self, ra: int, rb: int, sent: int, prose_ok: bool, listy: bool,
                     pending: list) -> None:
        k = bisect_left(self.starts, ra)
        qlist = []
        while k < len(self.qs) and self.qs[k].start < rb:
            q = self.qs[k]
            if q.end <= rb and not q.used:
                qlist.append(q)
            k += 1
        if not qlist:
            return
        keys = []
        prev = ra
        for q in qlist:
            keys.append(self._key_before(prev, q.start))
            prev = q.end
        assistant = self.kind == "assistant_text"
        for i, q in enumerate(qlist):
            key = keys[i]
            if q.used or (q.bad and not (q.bad == "word" and key.verb)):
                continue
            # The assistant's prose counts only where it speaks of the user ("you slept 6 h",
            # "your resting HR was 54 bpm"), not in advice ("keep easy runs at a pace of 6:30").
            prose = prose_ok and not (assistant and not YOU.search(self.masked, ra, q.start))
            tail_end = qlist[i + 1].start if i + 1 < len(qlist) else rb
            tail = self.masked[q.end:tail_end]
            if i + 1 < len(qlist):
                nk = keys[i + 1]
                tail_clean = bool(nk.words) and nk.covers and not nk.copula and not nk.verb
            else:
                tail_clean = not tail.strip(" \t\"'”’*_.,;:!)(]")
            if key.negated:
                continue
            if key.verb:
                if prose or (key.covers and tail_clean):
                    self._verb_pair(key, q, qlist[i + 1:], tail_end, rb, sent, pending)
                continue
            if key.words and not key.too_long:
                name = key_name(key.words)
                if name is None:
                    continue
                plain = q.q.unit is None and key.paren_unit is None
                old = _OLD.match(tail) if q.q.dimension == "duration" else None
                if old:
                    name = snake_case(name + "_age")
                    tail_clean = True
                raw_end = q.end + old.end() if old else None
                record = key.covers and not key.copula and tail_clean
                if plain and key.words[-1].lower().rstrip(".") in ORDINAL_LABELS:
                    continue
                if plain and is_year(q.q) and not (key.colon and "year" in name):
                    continue
                if record and (listy or key.colon):
                    self._add_pair(name, key, q, sent, record=True, plain_ok=True, pending=pending, raw_end=raw_end)
                elif key.colon and key.covers:
                    self._add_pair(name, key, q, sent, record=True, plain_ok=True, pending=pending, raw_end=raw_end)
                elif prose and (not plain or key.words[-1].lower() in _SCORE_WORDS) and not (
                        (q.q.dimension or "").startswith("currency")
                        and key.words[-1].lower() not in _MONEY_WORDS):
                    self._add_pair(name, key, q, sent, record=record, plain_ok=True, pending=pending, raw_end=raw_end)
                elif record:
                    # a label-value pair inside a sentence: kept when the sentence is a list of them
                    self._add_pair(name, key, q, sent, record=True, plain_ok=False, pending=pending, raw_end=raw_end)
                continue
            if q.q.unit is None:
                # "... avg glucose 119 mg/dL and 0 lows": a count of a noun, kept only when the
                # sentence holds two other values (never "I have 2 eggs")
                cm = _COUNT_NOUN.match(self.masked, q.end, tail_end)
                if (cm and prose and not assistant and q.q.value.is_integer() and not is_year(q.q)
                        and self.masked[qlist[i - 1].end if i else ra:q.start].strip(" \t").lower()
                        in ("", "and", "&", "plus")):
                    noun = cm.group(1)
                    low = noun.lower()
                    if (keyish(noun) and not verbish(low) and low not in ORDINAL_LABELS
                            and low not in COMPARATIVES and canonical_unit(noun) is None):
                        q.used = True
                        pending.append((None, "count", self._draft(snake_case(noun), q.q, q.start,
                                                                    cm.end(1), key.day), q.start))
                continue
            # "$32.34 at Walgreens": an amount paid to a named place
            if (q.q.dimension or "").startswith("currency") and prose:
                mm = MERCHANT.match(self.masked, q.end + len(tail) - len(tail.lstrip()), tail_end)
                if mm and tail[:1].isspace():
                    q.used = True
                    pending.append((False, True, self._draft("amount", q.q, q.start, q.end, key.day), q.start))
                    pending.append((False, True, Draft("merchant", None, mm.group("np"), None, None,
                                                       self.text[q.start:mm.end("np")],
                                                       self._src(q.start, mm.end("np")), key.day), q.start))
                    continue
            # value unit [of] key
            after = self._key_after(q, tail_end)
            if after is not None and _POSSESSION.search(self.masked, max(ra, q.start - 24), q.start):
                after = None  # "I have 200 g of flour left": an inventory, not a measurement
            if after is not None and not (prose or (
                    listy and not self.masked[ra:q.start].strip(" \t\"'“‘*_-•·")
                    and not self.masked[after[1]:tail_end].strip(" \t\"'”’*_.,;:!)"))):
                after = None
            if after is not None:
                name, end = after
                value = self._contextual(name, q) or q.q  # "43m of deep sleep": minutes
                if value.dimension != "time_of_day":
                    pending.append((False, True, self._draft(name, value, q.start, end, key.day), q.start))
                    q.used = True
                    continue
            # a lone count ("10,523 steps" as a list item, or after a logging verb)
            if q.q.unit in COUNT_UNITS:
                alone = (not self.masked[ra:q.start].strip(" \t\"'“‘*_-•·")
                         and not tail.strip(" \t\"'”’*_.,;:!)"))
                if (alone and listy) or (q.q.unit == "steps" and prose):
                    pending.append((alone, True, self._draft(q.q.unit, q.q, q.start, q.end, key.day),
                                    q.start))
                    q.used = True


def is_year(q: Quantity) -> bool:
    """A plain four-digit number from 1800 to 2100: a year, not a value."""
    return q.unit is None and q.value.is_integer() and 1800 <= q.value <= 2100 and re.fullmatch(r"\d{4}", q.raw) is not None
