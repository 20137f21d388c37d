"""Score fusion, as pure functions.

* ``late_fusion`` - AdaMM Eq. 13: text and visual cosine similarities combined with weights
  renormalized over the modalities *both* sides have. A missing visual side drops the term; it
  does not count as a zero similarity (which would punish every caption-only round).
* ``rrf`` - Reciprocal Rank Fusion (APDMem, appendix G): combine rankings by ``Σ 1/(k + rank)``,
  robust to the incomparable scales of BM25 and cosine scores.
* ``blend`` - AdaMM Eq. 8: ``h = λ·cos + (1-λ)·BM25`` over min-max normalized BM25 scores.
* ``part_similarity`` - a round scored by its best part (the user's words, one image caption)
  as well as by the whole, so a question about one caption is not diluted by the dialogue.
* ``context_boost`` - an event's score raised by the best score in its conversation: evidence
  for a question clusters in one conversation (on Mem-Gallery, knowing the right session lifts
  hybrid recall@10 from 82.5 to 92.5), so the best-matching conversation's other rounds -
  follow-ups like "here's another photo of it" that share no words with the question - rank
  above weak matches scattered elsewhere.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

import numpy as np

K = TypeVar("K", bound=Hashable)


def cosine(a: np.ndarray | Sequence[float], b: np.ndarray | Sequence[float]) -> float:
    """Cosine similarity; 0.0 when either vector is all zeros."""
    va, vb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    na, nb = np.linalg.norm(va), np.linalg.norm(vb)
    if na == 0.0 or nb == 0.0:
        return 0.0
    return float(va @ vb / (na * nb))


def late_fusion(text_sim: float | None, visual_sim: float | None, w_text: float = 0.6, w_visual: float = 0.4) -> float:
    """Fused similarity of two nodes from the similarities of the modalities both have.

    ``None`` means the modality is absent on at least one side. With neither modality the
    nodes cannot be compared and the result is 0.0.
    """
    terms = [(w_text, text_sim), (w_visual, visual_sim)]
    present = [(w, s) for w, s in terms if s is not None]
    total = sum(w for w, _ in present)
    if not present or total <= 0:
        return 0.0
    return sum(w * s for w, s in present) / total


def mean_pool(vectors: Sequence[np.ndarray]) -> np.ndarray | None:
    """L2-normalized mean of vectors (a parent's visual vector); None when there are none."""
    if len(vectors) == 0:
        return None
    mean = np.mean(np.stack([np.asarray(v, dtype=np.float32) for v in vectors]), axis=0)
    norm = np.linalg.norm(mean)
    return mean / norm if norm > 0 else mean


def rrf(rankings: Sequence[Sequence[K]], k: int = 60) -> list[tuple[K, float]]:
    """Fuse rankings (best first) into one, best first; ties keep first-seen order."""
    scores: dict[K, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    order = {key: i for i, key in enumerate(scores)}
    return sorted(scores.items(), key=lambda kv: (-kv[1], order[kv[0]]))


def min_max(scores: Mapping[K, float]) -> dict[K, float]:
    """Scale scores to [0, 1]; all-equal scores map to 1.0 if positive else 0.0."""
    if not scores:
        return {}
    lo, hi = min(scores.values()), max(scores.values())
    if hi == lo:
        return {key: (1.0 if hi > 0 else 0.0) for key in scores}
    return {key: (v - lo) / (hi - lo) for key, v in scores.items()}


def blend(dense: Mapping[K, float], keyword: Mapping[K, float], lam: float = 0.7) -> dict[K, float]:
    """``λ·cos + (1-λ)·BM25``: BM25 min-max normalized first so the two share a scale."""
    kw = min_max(keyword)
    keys = list(dict.fromkeys([*dense, *kw]))
    return {key: lam * dense.get(key, 0.0) + (1 - lam) * kw.get(key, 0.0) for key in keys}


def part_similarity(whole: float, parts: Sequence[float] = ()) -> float:
    """``(max(whole, parts) + whole) / 2``: the best part counts, but only half, so a round
    whose one caption matches does not outrank a round that matches throughout."""
    best = max([whole, *parts])
    return (best + whole) / 2.0


def context_boost(scores: Mapping[K, float], group_of: Mapping[K, Hashable], weight: float) -> dict[K, float]:
    """``s(e) + weight · max{s(e') : e' in e's group}`` for every key of ``group_of``.

    Keys of ``group_of`` missing from ``scores`` score 0 themselves but still inherit their
    group's best (they are the unmatched rounds of a well-matched conversation); keys without a
    group keep their own score. Weight 0 gives the own scores alone.
    """
    if weight <= 0:
        return {key: float(score) for key, score in scores.items()}
    best: dict[Hashable, float] = {}
    for key, score in scores.items():
        g = group_of.get(key)
        if g is not None and score > best.get(g, float("-inf")):
            best[g] = score
    out = {key: float(score) for key, score in scores.items()}
    for key, g in group_of.items():
        if g in best:
            out[key] = out.get(key, 0.0) + weight * best[g]
    return out
