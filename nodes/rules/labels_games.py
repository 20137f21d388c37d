"""Game results (the ``labels`` extractor): a score is two numbers that are no quantity, and who
won decides which is whose.

``won`` / ``beat`` / ``victory`` -> ``result=won``, ``lost`` / ``defeat`` -> ``lost``, ``drew``
/ ``tied`` / ``draw`` -> ``draw``, with ``score_for`` / ``score_against`` (the winner's score is
the larger one, whatever order it is written in: "we lost 2-0" is 0-2) and ``opponent`` (after
against / vs / versus / over / to / beat). ``Score 2-1`` alone gives ``score_for`` /
``score_against`` as written.
"""

from __future__ import annotations

import re

from adamm.nodes.rules.labels_text import Draft, Found, TextScan
from adamm.nodes.rules.labels_words import KEY_STOP, LETTER, TIME_WORDS
from adamm.stores.quantities import canonical_unit

_SCORE_PAIR = r"(?<![\w.:/$€£])(?P<a>\d{1,3})\s*(?:-|–|—|:)\s*(?P<b>\d{1,3})(?![\w.:/%])"
_GAME_VERB = re.compile(r"\b(?P<w>won|beat|beats|defeated|lost|drew|tied)\b[^.!?;\n\d]{0,30}?"
                        + _SCORE_PAIR, re.I)
_GAME_NOUN = re.compile(_SCORE_PAIR + r"\s+(?:[A-Za-z]+\s+)?(?P<w>win|victory|loss|defeat|draw|tie)\b",
                        re.I)
_KEY_SCORE = re.compile(r"\b(?:final\s+)?score\s*:?\s*" + _SCORE_PAIR, re.I)
_WON = frozenset("won win beat beats defeated victory".split())
_LOST = frozenset("lost loss defeat".split())
_OPPONENT = re.compile(
    r"\b(?P<prep>against|vs\.?|versus|over|to|beat|beats|defeated|beating|defeating|played|playing)\s+"
    r"(?:the\s+|team\s+)?(?P<opp>[A-Z][\w'’&.\-]*(?:\s+[A-Z][\w'’&.\-]*){0,2}"
    r"|(?:my\s+|our\s+)?[a-z][\w'’\-]*(?:\s+[a-z][\w'’\-]*)?)")
_US_BEAT = re.compile(r"(?P<opp>[A-Z][\w'’&\-]*(?:\s+[A-Z][\w'’&\-]*){0,2})\s+(?:beat|defeated)"
                      r"\s+(?:us|me)\b")


class GameScan(TextScan):
    """Reads game results: result, score for and against, opponent."""

    def _games(self, sa: int, sb: int, sent: int) -> None:
        raw_seg = self.text[sa:sb]
        m = None
        for pat in (_GAME_VERB, _GAME_NOUN):
            for cand in pat.finditer(raw_seg):
                nxt = raw_seg[cand.end():].split(None, 1)
                if nxt and canonical_unit(nxt[0].strip(".,;:!)")) is not None:
                    continue  # "lost 2-3 kg": a range of a quantity, not a score
                m = cand
                break
            if m is not None:
                break
        if m is None:
            km = _KEY_SCORE.search(raw_seg)  # "Result draw · Score 0-0": the score alone, as written
            if km:
                raw = self.text[sa + km.start():sa + km.end()]
                src = self._src(sa + km.start(), sa + km.end())
                for q in self.qs:
                    if sa + km.start("a") <= q.start < sa + km.end("b"):
                        q.used = True
                for attr, v in (("score_for", km.group("a")), ("score_against", km.group("b"))):
                    self.out.append(Found(Draft(attr, float(v), None, None, None, raw, src),
                                          sa + km.start(), sent))
            return
        word = m.group("w").lower()
        a, b = int(m.group("a")), int(m.group("b"))
        us = _US_BEAT.search(raw_seg)
        opponent = None
        start, end = m.start(), m.end()
        if us and word in ("beat", "beats", "defeated") and us.end() >= m.start():
            result = "lost"
            opponent = re.sub(r"^(?:the|The)\s+", "", us.group("opp"))
            start = min(start, us.start())
        elif word in _WON:
            result = "won"
        elif word in _LOST:
            result = "lost"
        else:
            result = "draw"
        if result == "won":
            s_for, s_against = max(a, b), min(a, b)
        elif result == "lost":
            s_for, s_against = min(a, b), max(a, b)
        else:
            s_for, s_against = a, b
        if opponent is None:
            for om in _OPPONENT.finditer(raw_seg):
                if om.start() < start - 60 or om.start() > end + 40:
                    continue
                words = []
                for w in om.group("opp").split():
                    lw = w.lower().strip(".,;:")
                    if lw in ("my", "our") and not words:
                        continue
                    if lw in KEY_STOP or not LETTER.search(w) or lw in TIME_WORDS:
                        break
                    words.append(w.rstrip(".,;:"))
                if words:
                    opponent = " ".join(words)
                    opp_end = raw_seg.index(words[-1], om.start("opp")) + len(words[-1])
                    start, end = min(start, om.start()), max(end, opp_end)
                    break
        raw = self.text[sa + start:sa + end]
        src = self._src(sa + start, sa + end)
        for q in self.qs:  # the two numbers of the score are not values of their own
            if sa + m.start("a") <= q.start < sa + m.end("b"):
                q.used = True
        drafts = [Draft("result", None, result, None, None, raw, src),
                  Draft("score_for", float(s_for), None, None, None, raw, src),
                  Draft("score_against", float(s_against), None, None, None, raw, src)]
        if opponent:
            drafts.append(Draft("opponent", None, opponent, None, None, raw, src))
        for d in drafts:
            self.out.append(Found(d, sa + start, sent))
