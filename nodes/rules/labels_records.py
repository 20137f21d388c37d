"""Records (the ``labels`` extractor): values whose layout says they are labelled, so that a
plain number or a short word counts as one.

``key: value``, ``key = value``, ``key value [unit]`` in a list of such pairs separated by ``·``
``•`` ``|`` ``;`` tabs, newlines or commas, a label line followed by a value line (OCR of a
dashboard tile; a unit alone on the next line joins the value), a ``| label | value |`` table
row. Here a plain number is fine (``Score 82``) and, after a colon, a short categorical value
(``Weather: rainy``, at most 4 words), a date (``due: 2025-04-01``) or a time of day
(``Bedtime: 11:40 pm`` -> ``23:40``). A few labels of categorical fields take a word value with
no colon (``Category groceries · Merchant Whole Foods``, ``Result won``, ``Opponent Wolves``).
"""

from __future__ import annotations

import re

from adamm.nodes.rules.labels_pairs import clock_text
from adamm.nodes.rules.labels_prose import ProseScan, is_year
from adamm.nodes.rules.labels_words import (
    AUX_VERBS,
    DETERMINERS,
    KEY_STOP,
    LETTER,
    ORDINAL_LABELS,
    PRONOUNS,
    key_name,
    verbish,
)
from adamm.nodes.rules.labels_text import Draft
from adamm.stores.quantities import Quantity, canonical_unit, dimension_of, snake_case

#: Keys that label text rather than name an attribute; never given a categorical value.
_GENERIC_KEYS = frozenset("""note notes tip tips example examples e.g question questions answer
summary warning hint source caption figure fig image photo picture link url update edit ps nb
re subject from to cc title subtitle heading text label description comment comments reply
user assistant q a step reason tl;dr tldr""".split())
#: Labels of categorical fields that take a word value with no colon: "Category groceries".
_LABEL_CLAUSE = re.compile(
    r"[ \t*_•·>#-]*(?P<key>(?i:category|merchant|store|shop|vendor|payee|opponent|result|outcome|"
    r"location|venue|weather|mood|activity|sport|meal|payment method|status|symptoms?|medication|"
    r"brand|team))[ \t]+(?P<val>[^\s\x01\x02:=][^\x01\x02:=]*?)[ \t.!,;]*")
COLON_ANY = re.compile(r"[:=：]")


class RecordScan(ProseScan):
    """Reads ``key: value`` clauses, label clauses and label lines followed by value lines."""

    # .. key: value ...................................................................

    def _colon_clause(self, ca: int, cb: int, sent: int, prose_ok: bool, listy: bool,
                      pending: list) -> bool:
        """``key: value`` / ``key = value``. False when the clause is not one (scan it as usual);
        when the part before the colon is no label ("Receipt from Joe's, 03/04: Milk $3.49"),
        the two sides are scanned on their own."""
        seg = self.masked[ca:cb]
        m = COLON_ANY.search(seg)
        if not m:
            return False
        cpos = ca + m.start()
        kstart = ca
        for q in self.qs:
            if ca <= q.start and q.end <= cpos:
                kstart = q.end  # "avg glucose 149 mg/dL and lows: 0": the label starts after 149
        key = self._key_before(kstart, cpos + 1)
        name = None
        if key.words and (key.covers or key.owned) and not key.verb and not key.too_long:
            name = key_name(key.words)
        if name is None:
            if key.verb:
                return False  # "Slept: 7 h" - the verb reads the value itself
            self._scan_region(ca, cpos, sent, prose_ok, False, pending)
            if not self._label_clause(cpos + 1, cb, pending):
                self._scan_region(cpos + 1, cb, sent, prose_ok, listy, pending)
            return True
        if kstart > ca:
            self._scan_region(ca, kstart, sent, prose_ok, False, pending)
        vstart = cpos + 1
        vtext = self.text[vstart:cb]
        lead = len(vtext) - len(vtext.lstrip(" \t\"'“‘*_"))
        vs = vstart + lead
        inner = [q for q in self.qs if vs <= q.start < cb and not q.used]
        # a value that starts right after the colon
        if inner and inner[0].start == vs:
            q = inner[0]
            tail = self.masked[q.end:cb]
            whole = not tail.strip(" \t\"'”’*_.,)")
            if q.bad or not (whole or tail[:1] in " (\t"):
                return False
            if not whole and (inner[1:] and any(not x.bad for x in inner[1:])):
                # "Sleep: 6h 45m deep 1h 10m" - the rest holds more pairs; scan them too
                self._add_pair(name, key, q, sent, record=True, plain_ok=True, pending=pending,
                               raw_start=key.start)
                self._scan_region(q.end, cb, sent, prose_ok, listy, pending)
                return True
            self._add_pair(name, key, q, sent, record=True, plain_ok=True, pending=pending,
                           raw_start=key.start)
            return True
        # a date value ("due: 2025-04-01"); "Date: Mar 4" names the day of the record instead
        for d in self.dates:
            if d.start == vs and d.kind == "day" and not self.masked[d.end:cb].strip(" \t.\"'”’*_"):
                if name in ("date", "day", "for", "as_of", "dated", "recorded", "log_date"):
                    return True  # stays an anchor
                d.used = True
                value = d.value
                draft = Draft(name, None, value.isoformat() if value else self.text[d.start:d.end].strip(),
                              None, "date", self.text[key.start:d.end], self._src(key.start, d.end),
                              key.day)
                pending.append((True, True, draft, key.start))
                self.date_values.append((draft, d))
                return True
        if inner:
            return False
        if self._label_clause(vs, cb, pending):
            return True  # "League match for Mar 4: Result lost" - the value is itself a labelled pair
        # a short categorical value
        vt = self.text[vs:cb].strip().strip("\"'“”‘’*_").strip()
        vt = vt.rstrip(".,;!").strip("\"'“”‘’*_ ")
        words = vt.split()
        if (not vt or len(words) > 4 or len(vt) > 40 or not LETTER.search(vt)
                or self.kind == "assistant_text" or name.endswith("_text")
                or name in _GENERIC_KEYS or key.words[-1].lower() in _GENERIC_KEYS or "\x01" in self.masked[vs:cb]
                or words[0].lower() in PRONOUNS or words[0].lower() in AUX_VERBS
                or re.search(r"[.!?…]\s", vt) or vt.lower() in KEY_STOP):
            return False
        end = self.text.index(vt, vs) + len(vt) if vt in self.text[vs:cb] else cb
        tod = clock_text(vt)  # "Bedtime: 11:40 pm" is a time of day, as 23:40
        pending.append((True, True, Draft(
            name, None, tod or vt, None, "time_of_day" if tod else None, self.text[key.start:end],
            self._src(key.start, end), key.day), key.start))
        return True

    def _label_clause(self, ca: int, cb: int, pending: list) -> bool:
        """``Category groceries`` / ``Opponent Wolves`` / ``Result won``: a clause that is one of a
        few labels of categorical fields followed by a short value, no colon needed."""
        if self.kind == "assistant_text":
            return False
        m = _LABEL_CLAUSE.fullmatch(self.masked, ca, cb)
        if not m:
            return False
        words = m.group("val").split()
        first = words[0].lower().strip("\"'“”‘’*_")
        if (len(words) > 3 or len(m.group("val")) > 40 or first in KEY_STOP or first in DETERMINERS
                or verbish(first) or not LETTER.search(m.group("val"))):
            return False
        value = self.text[m.start("val"):m.end("val")].strip("\"'“”‘’*_ ")
        start, end = m.start("key"), m.end("val")
        pending.append((True, True, Draft(snake_case(m.group("key")), None, value, None, None,
                                          self.text[start:end], self._src(start, end)), start))
        return True

    # .. label line / value line ......................................................

    def _pair_label_lines(self, units: list[tuple[int, int, int, bool, bool]]) -> None:
        """A label-only unit followed by a value-only unit across a strong boundary (OCR of a
        dashboard tile: "Resting HR\n54\nbpm" - a unit alone on the next line joins the value)."""
        skip = -1
        for i, ((a1, b1, s1, _, r1), (a2, b2, s2, l2, r2)) in enumerate(zip(units, units[1:])):
            if i <= skip or not (r1 and l2) or s2 - s1 > 1:
                continue
            if any(a1 <= q.start < b1 for q in self.qs):
                continue
            inner = [q for q in self.qs if a2 <= q.start < b2]
            if len(inner) != 1 or inner[0].used or inner[0].bad:
                continue
            q = inner[0]
            if self.masked[a2:q.start].strip(" \t\"'“‘*_") or self.masked[q.end:b2].strip(" \t\"'”’*_.,"):
                continue
            if self._sentence_is_question(s1) or self._sentence_is_question(s2):
                continue
            key = self._key_before(a1, b1)
            if not key.words or not key.covers or key.verb or key.copula or key.too_long:
                continue
            if self.masked[key.start:b1].count("\x01"):
                continue
            name = key_name(key.words)
            if name is None:
                continue
            plain = q.q.unit is None and key.paren_unit is None
            if plain and (key.words[-1].lower() in ORDINAL_LABELS or is_year(q.q)):
                continue
            raw_end = None
            if q.q.unit is None and key.paren_unit is None and i + 2 < len(units) and r2:
                a3, b3 = units[i + 2][0], units[i + 2][1]
                unit = canonical_unit(self.text[a3:b3].strip(" \t.:"))
                if unit is not None and not any(a3 <= x.start < b3 for x in self.qs):
                    q.q = Quantity(q.q.value, unit, dimension_of(unit), q.q.raw)
                    raw_end, skip = b3, i + 2
            pending: list = []
            self._add_pair(name, key, q, s2, record=True, plain_ok=True, pending=pending,
                           raw_end=raw_end)
            for _, _, d, pos in pending:
                self._emit(d, pos, s2)
