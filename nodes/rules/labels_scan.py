"""One text through the ``labels`` extractor: which sentences may hold observations, the pattern
families over each, and the day each draft is about.

A sentence says nothing when it is a question (``?``, or opens with how / what / should I ...)
or source code in a caption. Its prose forms (:mod:`adamm.nodes.rules.labels_prose`, games)
say nothing when it is hedged, habitual, conditional, advisory or negated (should, can, if,
maybe, usually, every, per, a day, at least, not ... - general advice and plans are not
observations), and, in the assistant's text, unless it talks about the user (you / your): the
assistant restating "you slept 6 h 45 min" is an observation, an essay on baking temperatures
is not.

Dates: a pair takes the date of its own sentence, else of the nearest earlier header (a
sentence or line with a date and no values), else the only date of the text; a date heading a
record ("Apple Watch Sleep: Mar 4, 2025 · Time asleep 7 h ...") is its day, not a value.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from datetime import date

from adamm.nodes.rules.labels_games import GameScan
from adamm.nodes.rules.labels_prose import YOU
from adamm.nodes.rules.labels_records import COLON_ANY, RecordScan
from adamm.nodes.rules.labels_text import Draft

#: Labels of dates that are values in their own right (not the day a record is about).
_DATE_VALUE_WORDS = frozenset("""due deadline birthday born birth appointment expires expiry
expiration next start starts started end ends ended from until since departure arrival depart
arrive check release renewal anniversary delivery delivered shipped ordered purchased bought
visit exam test interview flight trip meeting last first opened closed joined""".split())
_LINE = re.compile(r"[^\r\n]+")
_HEDGE = re.compile(
    r"\b(?:should|shouldn[’']?t|could|couldn[’']?t|would|wouldn[’']?t|might|must|ought|can|cannot|"
    r"can[’']?t|if|unless|whether|maybe|perhaps|probably|possibly|usually|typically|generally|"
    r"normally|often|sometimes|ideally|recommend\w*|suggest\w*|advis\w*|aim(?:ing)?\s+(?:for|to)|"
    r"try(?:ing)?\s+to|plan(?:ning)?\s+to|going\s+to|gonna|want(?:s|ed)?\s+to|wish|hope|hoping|"
    r"expect\w*|per|every|each|daily|weekly|nightly|or\s+(?:more|less|so)|at\s+(?:least|most)|"
    r"up\s+to|no\s+more\s+than|on\s+average|not|never|a\s+(?:day|week|month|night|year)|"
    r"will|need\s+to|needs\s+to|imagine|suppose|assume|say|something\s+like|anything\s+like|"
    r"kind\s+of|sort\s+of|somewhere|some\s+\w+\s+like)\b"
    r"|n[’']t\b", re.I)
#: The modal "may" (the month is capitalized: "May 4").
_MAY = re.compile(r"\bmay\b")
#: Source code in a caption ("`linewidth=3`", "plt.plot(x)"): assignments are not observations.
_CODE = re.compile(r"`|\w\(|\w=\w|==|=\s*\[|\w\.\w+\(|[{}]")


class Scanner(RecordScan, GameScan):
    """Extraction over one text; see :func:`adamm.nodes.rules.labels.extract_text`."""

    # .. the scan .....................................................................

    def run(self) -> list[Draft]:
        text = self.text
        has_colon = bool(COLON_ANY.search(self.masked))
        if not self.qs and not has_colon:
            return []  # nothing can be a value (and this is most prose)
        lines = [(m.start(), m.end()) for m in _LINE.finditer(text)]
        units: list[tuple[int, int, int, bool, bool]] = []  # clause spans + sentence index
        sent_idx = -1
        starts = self.starts = [q.start for q in self.qs]
        for la, lb in lines:
            for sa, sb in self._sentences(la, lb):
                sent_idx += 1
                self.sentences.append((sa, sb))
                k = bisect_left(starts, sa)
                has_q = k < len(starts) and starts[k] < sb
                if not has_q and not (has_colon and COLON_ANY.search(self.masked, sa, sb)):
                    if self.qs and sb - sa <= 60:  # may be the label line of a value line
                        for ca, cb, ls, rs in self._clauses(sa, sb):
                            units.append((ca, cb, sent_idx, ls, rs))
                    continue
                if self._is_question(sa, sb):
                    for q in self.qs:
                        if sa <= q.start < sb:
                            q.used = True
                    continue
                if _CODE.search(text[sa:sb]):
                    continue
                hedged = bool(_HEDGE.search(self.masked, sa, sb) or _MAY.search(self.masked, sa, sb))
                prose_ok = not hedged and (self.kind != "assistant_text"
                                           or bool(YOU.search(self.masked, sa, sb)))
                if prose_ok:
                    self._games(sa, sb, sent_idx)
                clauses = self._clauses(sa, sb)
                units.extend((ca, cb, sent_idx, ls, rs) for ca, cb, ls, rs in clauses)
                self._scan_sentence(sent_idx, prose_ok, clauses)
        self._pair_label_lines(units)
        return self._finish()

    def _scan_sentence(self, sent: int, prose_ok: bool,
                       clauses: list[tuple[int, int, bool, bool]]) -> None:
        """Pairs of one sentence. ``prose_ok``: prose forms are allowed (not hedged, not a
        question, about the user); a clause is ``listy`` when strong separators (or the
        sentence's ends) bound it on both sides."""
        pending: list[tuple[bool, bool, Draft, int]] = []  # (record, accept alone, draft, pos)
        for ca, cb, ls, rs in clauses:
            listy = ls and rs
            if self._colon_clause(ca, cb, sent, prose_ok, listy, pending):
                continue
            if self._label_clause(ca, cb, pending):
                continue
            self._scan_region(ca, cb, sent, prose_ok, listy, pending)
        records = sum(1 for r, _, _, _ in pending if r is True)
        keep = [p for p in pending if p[1] is True or (p[0] is True and records >= 2)]
        for _, _, draft, pos in keep:
            self._emit(draft, pos, sent)
        if len(keep) >= 2:  # counts of nouns ride on a sentence of other values
            for _, ok, draft, pos in pending:
                if ok == "count":
                    self._emit(draft, pos, sent)

    def _finish(self) -> list[Draft]:
        # "Apple Watch Sleep: Mar 4, 2025 · Time asleep 7 h 12 min ...": a date heading a record
        # names the record's day, unless its label says it is a date of its own (due, birthday)
        if self.date_values and len(self.out) > 1:
            first = min(self.out, key=lambda o: o.pos)
            for draft, hit in self.date_values:
                if (first.draft is draft and not set(draft.attribute.split("_")) & _DATE_VALUE_WORDS
                        and any(o.draft.dimension != "date" for o in self.out)):
                    self.out.remove(first)
                    hit.used = False
        anchors = [(d.start, d.anchor, self._sentence_of(d.start)) for d in self.dates
                   if not d.used and d.kind in ("day", "rel") and d.anchor is not None]
        pair_sents = {o.sentence for o in self.out}
        distinct = {a for _, a, _ in anchors}
        only = next(iter(distinct)) if len(distinct) == 1 else None
        result: list[Draft] = []
        seen: set[tuple[str, date | None]] = set()
        for o in sorted(self.out, key=lambda o: o.pos):
            d = o.draft
            if d.observed_at is None and anchors:
                own = [(p, a) for p, a, s in anchors if s == o.sentence]
                before = [x for x in own if x[0] <= o.pos]
                if before:
                    d.observed_at = before[-1][1]
                elif own:
                    d.observed_at = own[0][1]
                else:
                    header = [a for p, a, s in anchors if p < o.pos and s not in pair_sents]
                    d.observed_at = header[-1] if header else only
            k = (d.attribute, d.observed_at)
            if k in seen:
                continue
            seen.add(k)
            result.append(d)
        return result
