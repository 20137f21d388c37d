"""The ``retrieval`` family: what the assistant said in ordinary conversation, and refusals.

Split from :mod:`adamm.eval.devset.questions`: these questions are read off the chatter rounds
(the gold is verbatim text of a reply) plus questions about things the history never mentions
(gold "Not mentioned"), so they measure recall and refusal rather than arithmetic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adamm.eval.devset.question_base import (
    NOT_MENTIONED,
    DevQuestion,
    QuestionGen,
    make_question,
)


# -- retrieval ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Recall:
    """A chatter exchange, recognized by its user text, and a question about the reply.

    ``key`` names the groups that must agree across rounds for the question to have one answer
    (every round with the same key is evidence); ``gold`` is a regex over the reply whose first
    group is the answer span, so the gold is always verbatim text of the round.
    """

    user: str
    questions: tuple[str, ...]
    gold: str
    key: tuple[str, ...] = ()


_RECALLS = (
    _Recall(r"weekend in (?P<city>[^.?]+)\. What should we not miss", (
        "What did you say we shouldn't miss in {city}?", "What's the one sight you told me not to miss in {city}?"),
        r"Don't miss (.+?), and save", ("city",)),
    _Recall(r"weekend in (?P<city>[^.?]+)\. What should we not miss", (
        "What food did you say to save an afternoon for in {city}?",),
        r"save an afternoon for (.+?)\.", ("city",)),
    _Recall(r"Is (?P<city>[^?]+?) walkable", ("Do we need a car in {city}, or can we walk?",),
            r"(very walkable)", ("city",)),
    _Recall(r"2 eggs instead of 3 eggs", ("What should I add to banana bread if I use one egg less?",),
            r"Add (a spoon of yogurt)"),
    _Recall(r"keep pancakes fluffy", ("What was your advice for fluffy pancakes?",), r"(Don't overmix the batter)"),
    _Recall(r"cloves of garlic", ("How should I cook the garlic for my tomato sauce?",),
            r"(slice them thinly)"),
    _Recall(r"200 g of flour", ("What do I need to add to my leftover flour for a pizza dough?",),
            r"(water, salt and a little yeast)"),
    _Recall(r"4 of us", ("Which vegetarian main did you suggest for our dinner party?",),
            r"(roasted .+? tart with feta and herbs)"),
    _Recall(r"cook for dinner with (?P<veg>.+?) and chickpeas",
            ("What did you suggest I make with {veg} and chickpeas?",),
            r"Try (an? .+? curry)", ("veg",)),
    _Recall(r"packing light", ("What did you tell me to pack for a light city break?",),
            r"(One pair of comfortable shoes)"),
    _Recall(r"the (?P<project>\w+) deadline is unrealistic",
            ("How did you suggest I push back on the {project} deadline?",),
            r"(Bring a concrete alternative)", ("project",)),
    _Recall(r"update for the team about the (?P<project>\w+) project",
            ("In the team update about {project}, what did we name as the main risk?",),
            r"main risk is (.+?)\.'", ("project",)),
    _Recall(r"shorter weekly meeting", ("How can I make our weekly meeting shorter?",),
            r"(Share the agenda in advance)"),
    _Recall(r"chapter 7 of (?P<book>.+?)\. Is it", ("Is {book} worth finishing, according to you?",),
            r"(the second half pulls the threads together)", ("book",)),
    _Recall(r"basil keeps wilting", ("Why does my basil keep wilting?",),
            r"(too much afternoon sun and too little water)"),
    _Recall(r"podcast for my commute", ("What kind of podcast did you recommend for my commute?",),
            r"(a narrative history podcast)"),
    _Recall(r"sleeping badly", ("What did you suggest when I told you I was sleeping badly?",),
            r"(Keep a regular wake time)"),
    _Recall(r"half marathon", ("How did you say I should train for a half marathon?",),
            r"(one long run a week)"),
    _Recall(r"budget for eating out", ("How did you suggest I budget for restaurants?",),
            r"(A monthly envelope for restaurants)"),
    _Recall(r"CGM sensor itches", ("What helps when my CGM sensor itches?",),
            r"(an adhesive barrier wipe)"),
    _Recall(r"new goalkeeper", ("How can our team find a new goalkeeper?",),
            r"(Post in the league's group chat)"),
    _Recall(r"stretch after a long day", ("What stretch did you recommend after sitting at a desk all day?",),
            r"(A doorway chest stretch)"),
)

#: Questions about things this history never discusses, with the words whose absence proves it.
_NEVER = (
    ("What's my dog's name?", ("dog", "dogs", "puppy")),
    ("How much do I weigh these days?", ("weigh", "weight", "kg", "pounds")),
    ("What was my blood pressure last week?", ("blood", "pressure")),
    ("When is my dentist appointment?", ("dentist", "appointment")),
    ("How many steps did I walk yesterday?", ("steps", "step", "walked")),
    ("What's my sister's name?", ("sister",)),
    ("How much is my gym membership?", ("gym", "membership")),
    ("What did I name my sourdough starter?", ("sourdough", "starter")),
    ("What was my cholesterol level at the last checkup?", ("cholesterol", "checkup")),
    ("Which airline did we book for the trip?", ("airline", "flight", "book", "booked")),
    ("What's my favourite colour?", ("colour", "color", "favourite", "favorite")),
    ("How many hours did I spend playing piano?", ("piano",)),
)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def retrieval_questions(g: QuestionGen, n_answerable: int, n_refusal: int) -> list[DevQuestion]:
    chatter = set(g.ds.chatter_round_ids)
    rounds = [r for r in g.ds.rounds if r.round_id in chatter]
    candidates: list[DevQuestion] = []
    for rec in _RECALLS:
        groups: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        for r in rounds:
            mu = re.search(rec.user, r.user_text or "")
            if not mu:
                continue
            mg = re.search(rec.gold, r.assistant_text or "")
            if not mg:
                continue
            key = tuple(mu.group(k) for k in rec.key)
            groups.setdefault(key, []).append((r.round_id, mg.group(1)))
        for key, hits in sorted(groups.items()):
            spans = {span for _, span in hits}
            if len(spans) != 1:  # the same question would have two answers
                continue
            span = spans.pop()
            values = dict(zip(rec.key, key))
            for template in rec.questions:
                candidates.append(make_question(g, "retrieval", template.format(**values), span, span, "text",
                                                scope=None, evidence=[rid for rid, _ in hits]))
    g.rng.shuffle(candidates)
    # one question per exchange type first, so a short history still gets varied recall
    seen: set[str] = set()
    firsts, rest = [], []
    for c in candidates:
        (rest if c.evidence_round_ids[0] in seen else firsts).append(c)
        seen.update(c.evidence_round_ids)
    out = (firsts + rest)[:n_answerable]
    history = set()
    for text in g.text.values():
        history |= _words(text)
    never = [(q, words) for q, words in _NEVER if not set(words) & history]
    g.rng.shuffle(never)
    for q, _ in never[:n_refusal]:
        out.append(make_question(g, "retrieval", q, NOT_MENTIONED, NOT_MENTIONED, "refusal", scope=None, evidence=[]))
    return out

