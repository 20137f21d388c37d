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

from typing import Any

from langgraph.runtime import Runtime

from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.cost import timed
from adamm.nodes.ingest import ROUNDS_SPACE, check_memory_id
from adamm.nodes.models import ModelOutputError, invoke
from adamm.nodes.questions import NOT_MENTIONED, AnswerOut, check_question
from adamm.nodes.rules.best_sentence import rules_answer
from adamm.nodes.state import QueryState
from adamm.prompts.answer import ANSWER_SYSTEM, ANSWER_USER


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
