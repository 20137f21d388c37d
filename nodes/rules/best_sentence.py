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

__all__ = ["MIN_COVERAGE", "rules_answer"]

#: Share of the question's content words a sentence must contain to be offered as an answer.
MIN_COVERAGE = 0.34

_ADVICE = re.compile(r"\b(?:you\s+(?:suggest|recommend|advise|say|tell|propose)\w*|how\s+(?:can|could|should|do)\s+i|"
                     r"what\s+(?:should|can|could)\s+i|what\s+helps|any\s+tips|what\s+(?:do|did)\s+you|why)\b", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_PREFIX = re.compile(r"^(User|Assistant):\s*|^\[image [^\]]*\]\s*")
#: Which part of a round a sentence came from; on a tie the answerer prefers statements of fact
#: (the assistant's reply, an image caption) over the user's own words.
_ORIGIN_PREFERENCE = {"Assistant": 2, "[image": 1, "User": 0}


def _sentences(text: str) -> list[tuple[int, str]]:
    """Sentences of a round passage, each with the preference of the part it came from."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        pref = next((v for k, v in _ORIGIN_PREFERENCE.items() if line.startswith(k)), 0)
        body = _PREFIX.sub("", line)
        out.extend((pref, sent.strip()) for sent in _SENTENCE.split(body) if sent.strip())
    return out


def rules_answer(question: str, evidence: list[dict[str, Any]], *, min_coverage: float = MIN_COVERAGE) -> tuple[str, list[str]]:
    """An extractive answer: the best sentence (or clause) of the best-covering evidence unit.

    The unit must contain at least ``min_coverage`` of the question's content words, else the
    answer is a refusal: the rules backend does not guess. (The query graph's reader decides
    refusal itself, with the memory's vocabulary, and passes 0.)
    """
    wanted = set(tokenize(question))
    if not wanted or not evidence:
        return NOT_MENTIONED, []
    coverage = [(len(wanted & set(tokenize(u["text"]))) / len(wanted), -rank) for rank, u in enumerate(evidence[:5])]
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
    statements = [c for c in candidates if (c[0] or c[1] > 0) and not c[-1].endswith("?")]
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
