"""What a retrieval query is about, apart from how the question wants its answer.

Benchmark and user questions carry answer-format instructions ("Return in the format
YYYY-MM-DD.", "Please answer using an Arabic numeral (e.g., "2" instead of "Two").") and
task framing ("Please determine whether the following information conflicts with the dialogue
memory:"). None of it is in any round, yet it is part of the query both rankings see: BM25
matches "format" and "answer" against every round that says them, and the embedding drifts
toward instructions. ``strip_answer_format`` removes such clauses and keeps the content.

A sequence question ("Did Liam reorganize his office before he bought a helmet?") names two
events that usually sit in different conversations; one embedding of the whole question lands
near whichever event dominates it. ``sequence_sides`` returns the two events, so each can be
located on its own (EventLocate fuses the three rankings).

``split_image_caption`` separates a query image's caption - ``adamm eval`` and the benchmarks
append it to the question as ``"\\n[image] <caption>"``, and so can any caller - so it can be
matched against the captions of stored images.
"""

from __future__ import annotations

import re

__all__ = ["IMAGE_MARK", "sequence_sides", "split_image_caption", "strip_answer_format"]

#: How a query image's caption is appended to a query's text.
IMAGE_MARK = "\n[image] "

_FORMAT_CLAUSES = [
    # parenthesized instructions: "(e.g., “2” instead of “Two”)", "(separate the answers with commas)"
    r"\((?:e\.g\.|for example|please|separate|answer|only|return|use)[^)]*\)",
    # "Please answer using an Arabic numeral.", "Answer with a number", "answer in one word"
    r"(?:please\s+)?(?:answer|respond|reply)\s+(?:using|with|in)\s+(?:an?\s+)?"
    r"(?:arabic\s+numerals?|numbers?|digits?|yes\s+or\s+no|one\s+word|a\s+single\s+word)(?:\s*\([^)]*\))?[^.?!(]*[.?!]?",
    # "Return in the format YYYY-MM-DD.", "Please provide the specific date in the format ..."
    r"(?:please\s+)?(?:return|give|provide|answer|output)\s+(?:it\s+|the\s+(?:specific\s+)?date\s+|the\s+answer\s+)?"
    r"in\s+(?:the\s+)?format\s+\S+[.?!]?",
    # "Only return the image_id of the image.", "Please return the corresponding image ID only."
    r"(?:please\s+)?(?:only\s+)?return\s+(?:only\s+)?(?:the\s+)?(?:corresponding\s+)?image[ _]?ids?(?:\s+of[^.?!]*)?(?:\s+only)?[.?!]?",
    r"answer\s+(?:with\s+)?'?yes'?\s+or\s+'?no'?[.?!]?",
    r"use\s+'[^']+'\s+or\s+'[^']+'[.?!]?",
    r"please\s+determine\s+whether\s+the\s+following\s+(?:information|statement)\s+conflicts\s+with\s+the\s+"
    r"(?:dialog(?:ue)?|conversation)\s+(?:memory|history)\s*:?",
]
_FORMAT_RE = re.compile("|".join(f"(?:{p})" for p in _FORMAT_CLAUSES), re.IGNORECASE)

_SEQUENCE_RE = re.compile(
    r"^\s*(?:did|was|were|has|had|is|does|do)\s+(?P<a>.+?)\s+"
    r"(?:happen\s+|occur\s+|take\s+place\s+|come\s+)?"
    r"(?:before\s+or\s+after|after\s+or\s+before|before|after|prior\s+to|earlier\s+than|later\s+than)\s+"
    r"(?P<b>.+?)[?.!]?\s*$",
    re.IGNORECASE | re.DOTALL,
)


def strip_answer_format(question: str) -> str:
    """The question without answer-format instructions; the question itself when nothing else
    would be left."""
    stripped = re.sub(r"\s+", " ", _FORMAT_RE.sub(" ", question)).strip()
    stripped = re.sub(r"\s+([?.!,])", r"\1", stripped)
    return stripped or question.strip()


def sequence_sides(question: str) -> tuple[str, str] | None:
    """The two events a "did A happen before/after B" question orders, or None."""
    m = _SEQUENCE_RE.match(question.strip())
    if not m:
        return None
    a, b = m.group("a").strip(), m.group("b").strip()
    return (a, b) if len(a) >= 3 and len(b) >= 3 else None


_IMAGE_MARK_RE = re.compile(r"\s\[image\]\s")


def split_image_caption(query: str) -> tuple[str, str | None]:
    """``(text, caption)``: the query's own text and its image's caption (None without one).
    The mark is found after any whitespace, so a query whose spaces were collapsed (the rules
    planner's) keeps its caption."""
    m = _IMAGE_MARK_RE.search(query)
    if m is None or not query[m.end():].strip():
        return query, None
    return query[:m.start()].rstrip(), query[m.end():].strip()
