"""The rules of the retrieval hierarchy (AdaMM §3.4, Appendix A), as pure functions.

* an event joins the open episode when the time gap is at most ``max_gap_hours`` and the fused
  similarity (Eq. 13) is at least θepi; otherwise the episode closes and a new one opens;
* a closed episode joins its best topic when the fused similarity is at least θtopic, else it
  founds a topic;
* ``summarize`` is the ``rules`` describer of episodes and topics: an extractive summary - the
  most salient sentences (by the frequency of their content words across the unit), keywords,
  and the date span, so dates survive into what the planner reads.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from adamm.stores.bm25 import tokenize
from adamm.stores.fusion import late_fusion
from adamm.stores.records import USER_LABEL

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_PREFIX = re.compile(rf"^({USER_LABEL}|Assistant):\s*|^\[image [^\]]*\]\s*")

MAX_SUMMARY_CHARS = 600


#: Offsets that put an encoder's text cosine on the scale θepi/θtopic were set for (see
#: ``Context.similarity_offset``). Measured on the Mem-Gallery split: all-MiniLM-L6-v2 gives
#: consecutive turns of one conversation a median cosine of 0.52 (25th percentile 0.40) and
#: turns of different sessions of one persona 0.34; at a raw 0.60 an episode averages 1.5
#: events, at a raw 0.35 (0.60 after the offset) 6.9, close to the split's sessions.
ENCODER_SIMILARITY_OFFSET = {"all-MiniLM-L6-v2": 0.25}


def similarity_offset(configured: float | None, encoder_name: str) -> float:
    """The configured offset, else the encoder's calibrated one, else none."""
    return configured if configured is not None else ENCODER_SIMILARITY_OFFSET.get(encoder_name, 0.0)


def fused_similarity(text_a: np.ndarray | None, text_b: np.ndarray | None, visual_a: np.ndarray | None,
                     visual_b: np.ndarray | None, w_text: float, w_visual: float, text_offset: float = 0.0) -> float:
    """Eq. 13 on two nodes' vectors (unit-norm): the visual term only when both have one.

    ``text_offset`` calibrates the text cosine only: the visual encoder has its own scale."""
    t = min(1.0, float(np.dot(text_a, text_b)) + text_offset) if text_a is not None and text_b is not None else None
    v = float(np.dot(visual_a, visual_b)) if visual_a is not None and visual_b is not None else None
    return late_fusion(t, v, w_text, w_visual)


def joins_episode(gap_hours: float | None, similarity: float, theta_episode: float, max_gap_hours: float) -> bool:
    """Unknown times (rounds without timestamps) do not split episodes; similarity still does."""
    if gap_hours is not None and gap_hours > max_gap_hours:
        return False
    return similarity >= theta_episode


def joins_topic(similarity: float, theta_topic: float) -> bool:
    return similarity >= theta_topic


def gap_hours(earlier: datetime | None, later: datetime | None) -> float | None:
    if earlier is None or later is None:
        return None
    return (later - earlier).total_seconds() / 3600.0


def summarize(texts: Sequence[str], start: datetime | None = None, end: datetime | None = None,
              max_sentences: int = 3, max_keywords: int = 8) -> str:
    """Extractive description: date span, keywords, then the most salient sentences in order."""
    sentences: list[str] = []
    for text in texts:
        for line in text.splitlines():
            body = _PREFIX.sub("", line.strip())
            sentences.extend(s.strip() for s in _SENTENCE.split(body) if len(s.strip()) > 3)
    # dict.fromkeys, not set: ties in the counts are broken by first appearance, the same in
    # every process (a set's order follows the per-process string hash seed)
    freq = Counter(w for s in sentences for w in dict.fromkeys(tokenize(s)) if not w.isdigit() and len(w) > 2)
    scored = []
    for i, s in enumerate(sentences):
        words = [w for w in dict.fromkeys(tokenize(s)) if w in freq]
        if words:
            scored.append((sum(freq[w] for w in words) / (len(words) ** 0.5), -i, s))
    chosen = sorted(sorted(scored, reverse=True)[:max_sentences], key=lambda x: -x[1])
    parts = []
    if start is not None:
        span = start.date().isoformat()
        if end is not None and end.date() != start.date():
            span += f" to {end.date().isoformat()}"
        parts.append(span + ".")
    keywords = [w for w, _ in freq.most_common(max_keywords)]
    if keywords:
        parts.append("Keywords: " + ", ".join(keywords) + ".")
    parts.extend(_clip(s, 200) for _, _, s in chosen)
    return _clip(" ".join(parts), MAX_SUMMARY_CHARS)


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"
