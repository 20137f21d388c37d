"""The extractive ``rules`` answerer: the sentence (or clause) of the evidence that best
covers the question's content words, and "Not mentioned." when none covers enough of them. It
never invents a value, which makes it the honest floor of the flat baseline and the query
graph's reader alike.
"""

from __future__ import annotations

import re
from typing import Any

from adamm.nodes.questions import NOT_MENTIONED
from adamm.stores.bm25 import tokenize
from adamm.stores.records import USER_HEAD, USER_LABEL

__all__ = ["MIN_COVERAGE", "informative", "is_phatic", "rules_answer"]

#: Share of the question's content words a sentence must contain to be offered as an answer.
MIN_COVERAGE = 0.34

_ADVICE = re.compile(r"\b(?:you\s+(?:suggest|recommend|advise|say|tell|propose)\w*|how\s+(?:can|could|should|do)\s+i|"
                     r"what\s+(?:should|can|could)\s+i|what\s+helps|any\s+tips|what\s+(?:do|did)\s+you|why)\b", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_PREFIX = re.compile(rf"^({USER_LABEL}|Assistant):\s*|^\[image [^\]]*\]\s*")
#: Which part of a round a sentence came from; on a tie the answerer prefers statements of fact
#: (the assistant's reply, an image caption) over the user's own words.
_ORIGIN_PREFERENCE = {"Assistant": 2, "[image": 1, "User": 0}


#: Words that open a sentence said to keep a conversation going rather than to state something
#: (English, every domain): social acts - greetings, thanks, wishes - and reactions.
_SOCIAL = frozenset("""hi hey hello bye goodbye thanks thank thx congrats congratulations sorry glad welcome cheers""".split())
_REACTIONS = frozenset("""wow woah whoa cool aw aww awww yay yeah yep ok okay oh ooh haha hah lol nice great awesome amazing
wonderful lovely sure totally absolutely definitely omg gorgeous beautiful sweet fantastic incredible""".split())
_PHATIC_OPENERS = _SOCIAL | _REACTIONS
#: A phatic sentence holds at most this many content words beyond its opener and the person it
#: addresses: a social act a few ("Thanks for asking"), a reaction none ("Yeah, Maria.") or, when
#: exclaimed, a few ("Wow, that's such a cool hobby!"; "Yeah, it was my aunt." states something).
_PHATIC_WORDS = 2
_PHATIC_EXCLAIMED = 4
_WORDS = re.compile(r"[A-Za-z][A-Za-z'’]*")
#: The person a sentence addresses: "..., Maria!", "Maria, ...", "Hey Maria!".
_VOCATIVE_AFTER = re.compile(r",\s*[A-Z][\w'’]*(?:\s+[A-Z][\w'’]*)?\s*[!.]*\s*$")
_VOCATIVE_BEFORE = re.compile(r"^\s*(?P<hey>(?i:hey|hi|hello|oh)\s+)?(?P<name>[A-Z][\w'’]*)\s*[,!]\s*")


def is_phatic(sentence: str) -> bool:
    """Is a sentence said to keep the conversation going ("Thanks, Maria!", "Wow, that's so
    cool!", "Cool!") rather than to state something? Such a sentence names the person it
    addresses and so shares a question's words, but never answers it. Pure."""
    exclaimed = sentence.rstrip().endswith("!")
    rest = _VOCATIVE_AFTER.sub(" ", sentence)
    before = _VOCATIVE_BEFORE.match(rest)
    if before and before.group("name").lower() not in _PHATIC_OPENERS:
        rest = ("hey " if before.group("hey") else "") + rest[before.end():]
    words = _WORDS.findall(rest)
    if not words:
        return bool(_WORDS.search(sentence))  # "Maria!"; a number alone ("3") states a value
    opener = words[0].lower()
    if opener not in _PHATIC_OPENERS and not (exclaimed and opener in ("that's", "that’s", "so", "how", "what")):
        return False
    said = len(tokenize(" ".join(words[1:])))
    return said <= (_PHATIC_EXCLAIMED if exclaimed else _PHATIC_WORDS if opener in _SOCIAL else 0)


def informative(text: str) -> str:
    """A passage's sentences that state something: no questions, nothing phatic (see
    :func:`is_phatic`). What a question's answer can rest on."""
    return " ".join(sent for _, sent in _sentences(text) if not sent.endswith("?") and not is_phatic(sent))


def _sentences(text: str) -> list[tuple[int, str]]:
    """Sentences of a round passage, each with the preference of the part it came from."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        pref = next((v for k, v in _ORIGIN_PREFERENCE.items() if line.startswith(k)), 0)
        body = _PREFIX.sub("", line)
        out.extend((pref, sent.strip()) for sent in _SENTENCE.split(body) if sent.strip())
    return out


def _said(text: str) -> str:
    """A passage's words without the names that head them ("User (Ivan): ..." as "User: ...")."""
    return USER_HEAD.sub("User: ", text)


def rules_answer(question: str, evidence: list[dict[str, Any]], *, min_coverage: float = MIN_COVERAGE) -> tuple[str, list[str]]:
    """An extractive answer: the best sentence (or clause) of the best-covering evidence unit.

    The unit must contain at least ``min_coverage`` of the question's content words, else the
    answer is a refusal: the rules backend does not guess. (The query graph's reader decides
    refusal itself, with the memory's vocabulary, and passes 0.)
    """
    wanted = set(tokenize(question))
    if not wanted or not evidence:
        return NOT_MENTIONED, []
    # what a unit says, not who said it: "User (Ivan): Pepper is a lovely name!" says nothing of Ivan
    coverage = [(len(wanted & set(tokenize(_said(u["text"])))) / len(wanted), -rank) for rank, u in enumerate(evidence[:5])]
    best_cov, neg_rank = max(coverage)
    if best_cov < min_coverage or best_cov == 0:
        return NOT_MENTIONED, []
    unit = evidence[-neg_rank]
    advice = _ADVICE.search(question) is not None
    # "what did you suggest / how can I ...": the answer is the assistant's reply, whatever
    # words it shares with the question (the user's own sentence echoes the question best)
    candidates = [((pref == 2) if advice else 0, len(wanted & set(tokenize(sent))), pref, -i, sent)
                  for i, (pref, sent) in enumerate(_sentences(unit["text"]))]
    # A question echoed back is no answer: statements win whenever one is on topic at all.
    statements = [c for c in candidates if (c[0] or c[1] > 0) and not c[-1].endswith("?") and not is_phatic(c[-1])]
    sentence = max(statements or candidates)[-1] if candidates else unit["text"]
    return _best_clause(sentence, wanted), [unit["unit_id"]]


def _best_clause(sentence: str, wanted: set[str]) -> str:
    """In a long list-like sentence (a dashboard caption), the clause the question is about."""
    clauses = [c.strip() for c in re.split(r"[,;]\s+", sentence) if c.strip()]
    if len(clauses) < 3:
        return sentence
    scored = []
    for i, clause in enumerate(clauses):
        words = tokenize(clause)
        hits = len(wanted & set(words))
        scored.append((hits, hits / max(len(words), 1), -i, clause))
    top = max(scored)
    return top[-1] if top[0] > 0 else sentence
