"""Answer and retrieval metrics, as pure functions on strings and id lists.

Text metrics follow the benchmarks' own scoring scripts so that our numbers can sit next to
published ones: answers are normalized as in LoCoMo's ``task_eval/evaluation.py`` (SQuAD's
normalization plus commas and "and" removed), token F1 compares Porter-stemmed tokens as
LoCoMo does, and LoCoMo's multi-hop questions (category 1) score comma-separated sub-answers
separately. BLEU-1 is clipped unigram precision times the brevity penalty, on the same
normalized (unstemmed) tokens, without smoothing: a prediction sharing no word with the gold
answer scores 0, not a smoothing epsilon.

Everything here is deterministic and model-free; the LLM judge lives in ``eval/judge.py``.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

__all__ = [
    "REFUSAL_PHRASES",
    "bleu1",
    "exact_match",
    "hit_at_k",
    "is_refusal",
    "multi_answer_f1",
    "normalize_answer",
    "numbers_in",
    "numeric_match",
    "recall_at_k",
    "token_f1",
    "top_k",
]

_PUNCT = set(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the|and)\b")

#: Phrases that make a prediction a refusal ("the history does not say"). LoCoMo's script
#: accepts "no information available" and "not mentioned"; the others are how our answerers
#: and common chat models phrase the same thing.
REFUSAL_PHRASES = (
    "not mentioned",
    "no information available",
    "no information",
    "no mention",
    "never mentioned",
    "not specified",
    "not stated",
    "cannot be determined",
    "can not be determined",
    "cannot answer",
    "i dont know",
    "i do not know",
    "no record",
    "not recorded",
)


def normalize_answer(text: str) -> str:
    """LoCoMo's normalization: drop commas, lower-case, strip punctuation, drop a/an/the/and,
    collapse whitespace."""
    s = str(text).replace(",", "").lower()
    s = "".join(ch for ch in s if ch not in _PUNCT)
    s = _ARTICLES.sub(" ", s)
    return " ".join(s.split())


@lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem import PorterStemmer  # noqa: PLC0415 - pure Python, no corpus download

    return PorterStemmer()


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return _stemmer().stem(word)


def _tokens(text: str, stem: bool) -> list[str]:
    words = normalize_answer(text).split()
    return [_stem(w) for w in words] if stem else words


def exact_match(prediction: str, gold: str) -> float:
    """1.0 when the normalized strings are equal (SQuAD EM), else 0.0."""
    return 1.0 if normalize_answer(prediction) == normalize_answer(gold) else 0.0


def token_f1(prediction: str, gold: str, *, stem: bool = True) -> float:
    """Harmonic mean of token precision and recall over the multiset of (stemmed) tokens.

    As in LoCoMo's ``f1_score``, any side normalizing to nothing scores 0.
    """
    pred, ref = _tokens(prediction, stem), _tokens(gold, stem)
    same = sum((Counter(pred) & Counter(ref)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)


def multi_answer_f1(prediction: str, gold: str, *, stem: bool = True) -> float:
    """LoCoMo multi-hop F1: the gold answer's comma-separated parts each take their best F1
    against any comma-separated part of the prediction; the mean over gold parts."""
    preds = [p.strip() for p in str(prediction).split(",")]
    golds = [g.strip() for g in str(gold).split(",")]
    return sum(max(token_f1(p, g, stem=stem) for p in preds) for g in golds) / len(golds)


def bleu1(prediction: str, gold: str) -> float:
    """Sentence BLEU with unigrams only: clipped unigram precision × brevity penalty."""
    pred, ref = _tokens(prediction, False), _tokens(gold, False)
    if not pred or not ref:
        return 0.0
    clipped = sum((Counter(pred) & Counter(ref)).values())
    if clipped == 0:
        return 0.0
    precision = clipped / len(pred)
    bp = 1.0 if len(pred) > len(ref) else math.exp(1 - len(ref) / len(pred))
    return bp * precision


def is_refusal(prediction: str) -> bool:
    """Whether the prediction declines to answer (contains a refusal phrase, after
    normalization, so "Not mentioned." and "it's not mentioned" both count)."""
    text = " " + normalize_answer(prediction).replace("'", "") + " "
    return any(f" {p} " in text for p in REFUSAL_PHRASES) or not text.strip()


# -- numbers --------------------------------------------------------------------------------

_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|(?<![\w.])[-+]?\.\d+")


def numbers_in(text: str) -> list[float]:
    """Every number written in the text, in order ("1,234.5" is one number; "3-2" is 3 and 2,
    since a minus glued to a previous digit is a separator, not a sign)."""
    out = []
    for m in _NUMBER.finditer(str(text)):
        raw = m.group(0).replace(",", "")
        start = m.start()
        if raw[0] in "+-" and start > 0 and str(text)[start - 1].isdigit():
            raw = raw[1:]
        out.append(float(raw))
    return out


def numeric_match(prediction: str, gold: float, tolerance: float = 0.0, *, relative: bool = False) -> float:
    """1.0 when some number in the prediction is within ``tolerance`` of ``gold`` (absolute,
    or a fraction of |gold| when ``relative``), else 0.0. A prediction with no number is 0."""
    tol = abs(gold) * tolerance if relative else tolerance
    return 1.0 if any(abs(x - gold) <= tol + 1e-12 for x in numbers_in(prediction)) else 0.0


# -- retrieval ------------------------------------------------------------------------------


def top_k(ranked: Iterable[str], k: int) -> list[str]:
    """The first ``k`` distinct ids of a ranking, in order."""
    return list(dict.fromkeys(ranked))[:k]


def recall_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float | None:
    """|gold ∩ top-k| / |gold|; None when there is no gold evidence to find."""
    gold_set = set(gold)
    if not gold_set:
        return None
    return len(gold_set & set(top_k(ranked, k))) / len(gold_set)


def hit_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float | None:
    """1.0 when any gold id is in the top k, 0.0 when none is; None without gold evidence."""
    gold_set = set(gold)
    if not gold_set:
        return None
    return 1.0 if gold_set & set(top_k(ranked, k)) else 0.0
