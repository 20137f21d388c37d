"""The words of a sentence that answer a question: what the sentence adds to the question.

"Which instrument is Ivan learning?" read from "I just started learning the cello." is "the
cello": the sentence says the question's words ("learning") and then something new. A person
answers with that phrase, not with the sentence. Three readings, all grammar, no vocabulary:

* "what kind / type / sort of N": the noun phrase that ends in N ("a service-focused online
  group" for "what kind of group");
* otherwise the words after the last of the question's words, up to the end of the clause
  ("learning *the cello*.", "blogging about *politics and the government*.");
* when the sentence ends in the question's words, the phrase they end ("trying *kundalini
  yoga*." for "what yoga activity").

Words are matched by their Porter stems ("join" / "joined"). The phrase is declined (None)
when it is long or holds no word of its own: the sentence then answers better.
"""

from __future__ import annotations

import re
from functools import lru_cache

from adamm.stores.bm25 import STOPWORDS, tokenize

__all__ = ["answer_span"]

#: A phrase longer than this is no short answer.
MAX_WORDS = 8
#: Asking words: they say what is asked, a sentence never answers with them.
_ASKING = frozenset("what which who whom whose where kind type sort name names".split())
_KIND_OF = re.compile(r"\b(?:kind|type|sort|types|kinds|sorts)\s+of\s+(?P<np>(?:\w+\s+){0,2}?(?P<n>\w+))\s+(?:did|does|do|is|are|was|were|has|have|had)\b", re.I)
_WORD = re.compile(r"[A-Za-z0-9][\w'’+-]*")
#: Where a clause ends: punctuation, or a word that opens another clause.
_CLAUSE_END = re.compile(r"[,.;:!?()\"“”]|\s[-–—]\s|\s(?:but|because|so|which|who|while|when|if|since|as|though|although|until)\s", re.I)


#: A tail that opens another clause holds no answer to this one.
_NEXT_CLAUSE = re.compile(r"(?:and|or|but|then)\b", re.I)
#: When it happened is no answer to what happened: "last night", "a few years ago", "next week".
_TIME = re.compile(r"\b(?:(?:last|next|this|that)\s+(?:night|week|weekend|month|year|time|morning|evening|"
                   r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)|yesterday|today|tonight|"
                   r"(?:a\s+few|a\s+couple\s+of|an?|one|two|three|four|five|six|\d+)\s+(?:days?|weeks?|months?|years?)\s+ago|"
                   r"(?:once|recently|lately|again)\b)\b", re.I)
#: A preposition that only leads into the thing: "for a fashion internship", "like Bach".
_LEADING = re.compile(r"^(?:for|like|about|as)\s+", re.I)


@lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem import PorterStemmer  # noqa: PLC0415 - pure Python, loaded on first use

    return PorterStemmer()


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return _stemmer().stem(word.lower().strip("'’"))


def _phrase_ending_at(words: list[re.Match[str]], end: int, sentence: str, asked: set[str], stop: set[str]) -> str | None:
    """The content words that run up to and include ``words[end]`` ("kundalini yoga"), back to
    a function word, a contraction ("I'm"), a word of ``stop`` or the clause's start; None
    when they say nothing the question (``asked``) did not."""
    start = end
    while start - 1 >= 0:
        prev = words[start - 1].group()
        if prev.lower() in STOPWORDS or "'" in prev or "’" in prev or _stem(prev) in stop \
                or _CLAUSE_END.search(sentence[words[start - 1].end():words[start].start()]):
            break
        start -= 1
    if not any(_stem(w.group()) not in asked for w in words[start:end + 1]):
        return None
    return sentence[words[start].start():words[end].end()]


def answer_span(question: str, sentence: str) -> str | None:
    """The phrase of ``sentence`` that answers ``question`` (see the module docstring), or None. Pure."""
    asked = {_stem(w) for w in tokenize(question)} - {_stem(w) for w in _ASKING}
    words = list(_WORD.finditer(sentence))
    if not asked or not words:
        return None
    kind = _KIND_OF.search(question)
    if kind is not None:
        head = _stem(kind.group("n"))
        at = [i for i, w in enumerate(words) if _stem(w.group()) == head]
        if at:
            np = {_stem(w) for w in kind.group("np").split()}
            return _phrase_ending_at(words, at[0], sentence, asked - {head}, asked - np)
    said = [i for i, w in enumerate(words) if _stem(w.group()) in asked]
    if not said:
        return None
    last = said[-1]
    tail = sentence[words[last].end():].lstrip(" \"“'‘-–—")  # 'reading "The Lean Startup"': the title is the answer
    cut = _CLAUSE_END.search(tail)
    tail = (tail[:cut.start()] if cut else tail).strip()
    if _NEXT_CLAUSE.match(tail):
        return None  # "... marching event for veterans and it was awesome": the answer was before
    tail = _LEADING.sub("", _TIME.sub("", tail)).strip(" ,")  # "for a fundraiser next week": a fundraiser
    if not tail:
        return _phrase_ending_at(words, last, sentence, asked, asked)
    if len(tail.split()) > MAX_WORDS or not tokenize(tail):
        return None
    return tail
