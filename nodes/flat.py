"""The flat retrieval baseline ("MM-RAG"): top-k rounds for the question, then the answerer.

This is the floor the planner (analytic tools, hierarchy, reflection) must beat, and the
baseline the evaluation harness runs on the same data and encoder: dense, BM25 or hybrid (RRF)
top-k over raw rounds (``retrieval_mode``), then an answer that leads with the value and cites
its rounds.

The ``rules`` answerer is extractive and honest: it returns the sentence of the evidence that
best covers the question's content words, and "Not mentioned." when no evidence shares enough
of them. It never invents a value.
"""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.cost import timed
from adamm.nodes.ingest import ROUNDS_SPACE, check_memory_id
from adamm.nodes.models import ModelOutputError, invoke
from adamm.nodes.state import QueryState
from adamm.prompts.answer import ANSWER_SYSTEM, ANSWER_USER
from adamm.stores.bm25 import tokenize

NOT_MENTIONED = "Not mentioned."

#: Share of the question's content words a sentence must contain to be offered as an answer.
MIN_COVERAGE = 0.34


#: A question longer than this is not a question (and would be paid for on every model call).
MAX_QUESTION_CHARS = 4000


def check_question(question: object) -> str:
    """The question, or ValueError naming the field."""
    if not isinstance(question, str) or not question.strip():
        raise ValueError("question: must be a non-empty string")
    if len(question) > MAX_QUESTION_CHARS:
        raise ValueError(f"question: longer than {MAX_QUESTION_CHARS} characters")
    return question


def retrieve(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Rank the memory's rounds for the question (dense + BM25 fused by RRF by default)."""
    ctx = Context.coerce(runtime)
    with timed("retrieve") as cost:
        memory_id = check_memory_id(state.get("memory_id"))
        question = check_question(state.get("question"))
        hits = backends(ctx).units.search(
            memory_id, ROUNDS_SPACE, question, ctx.evidence_budget, mode=ctx.retrieval_mode, rrf_k=ctx.rrf_k
        )
        evidence = [
            {
                "unit_id": h.unit_id,
                "kind": "round",
                "round_id": h.metadata.get("round_id", h.unit_id),
                "round_ids": [h.metadata.get("round_id", h.unit_id)],
                "session_id": h.metadata.get("session_id"),
                "time": h.metadata.get("time"),
                "image_ids": [i for i in str(h.metadata.get("image_ids", "")).split(",") if i],
                "score": round(h.score, 6),
                "dense_rank": h.dense_rank,
                "bm25_rank": h.bm25_rank,
                "text": h.text,
            }
            for h in hits
        ]
    return {"evidence": evidence, "cost": [cost.to_dict()]}


class AnswerOut(BaseModel):
    """The answerer's structured reply."""

    answer: str = Field(max_length=4000)
    citations: list[str] = Field(default_factory=list, max_length=50)


def answer(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Write the answer with citations, by the answerer role (a model, or ``rules``)."""
    ctx = Context.coerce(runtime)
    evidence = state.get("evidence") or []
    question = state["question"]
    entries: list[dict[str, Any]] = []
    with timed("answer") as cost:
        if ctx.answerer == "rules" or not evidence:
            text, cited = rules_answer(question, evidence)
        else:
            text, cited, model_cost = _model_answer(ctx, question, evidence)
            entries.append(model_cost)
    by_id = {e["unit_id"]: e for e in evidence}
    citations = [{"round_id": by_id[u]["round_id"], "image_ids": by_id[u]["image_ids"]} for u in cited if u in by_id]
    return {"answer": text, "citations": citations, "cost": [cost.to_dict(), *entries]}


def _model_answer(ctx: Context, question: str, evidence: list[dict[str, Any]]) -> tuple[str, list[str], dict[str, Any]]:
    listing = "\n".join(f"[{e['unit_id']}] ({e.get('time') or 'undated'}) {e['text']}" for e in evidence)
    messages = [("system", ANSWER_SYSTEM), ("human", ANSWER_USER.format(question=question, evidence=listing))]
    try:
        out, entry = invoke(ctx, "answerer", "answer", messages, schema=AnswerOut)
    except ModelOutputError as exc:
        # The model could not produce a valid answer: fall back to the extractive one rather
        # than fail the question, and keep what the attempts cost.
        text, cited = rules_answer(question, evidence)
        return text, cited, exc.cost.to_dict()
    known = {e["unit_id"] for e in evidence}
    return out.answer.strip() or NOT_MENTIONED, [c for c in out.citations if c in known], entry.to_dict()


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
