"""Nodes of the query graph, one per step of AdaMM §3.5 / APDMem §3.2-3.3.

    normalize -> planning_context -> plan -> instantiate -> execute --(next step)--> instantiate
                                                                 \\--(plan done)--> reflect
    reflect --(add / revise a step)--> instantiate
            \\--(sufficient, no new evidence, budget or t_max spent)--> notes -> answer

Each step is done by its role - a chat model, or the offline ``rules`` backend - and everything
a model writes is validated before use (``nodes.toolbox.validate_call``). Termination rests on
counters kept in state (steps run, reflections, evidence at the last reflection), checked by
pure routers, never on LangGraph's recursion limit.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import date, datetime
from typing import Any, Literal

from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.cost import timed
from adamm.nodes.ingest import ROUNDS_SPACE, check_memory_id
from adamm.nodes.models import ModelOutputError, invoke, probe_servers
from adamm.nodes.planning import build_planning_context, render_context
from adamm.nodes.questions import NOT_MENTIONED, AnswerOut, check_question
from adamm.nodes.rules import answerer as rules_answerer
from adamm.nodes.rules import planner as rules_planner
from adamm.nodes.state import QueryState
from adamm.nodes.toolbox import ToolError, ToolName, enabled_tools, run_call, validate_call
from adamm.prompts import answer as answer_prompts
from adamm.prompts import plan as plan_prompts
from adamm.stores.records import parse_time
from adamm.stores.timeexpr import Period, find_periods, split_question, stated_today

log = logging.getLogger(__name__)

#: Characters of evidence text shown to a model per unit.
EVIDENCE_CHARS = 600


# -- 1. normalize ---------------------------------------------------------------------------------


def normalize(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Resolve relative dates against ``now`` (default: the newest memory time) and split
    compound questions, so later steps work with fixed calendar days."""
    ctx = Context.coerce(runtime)
    with timed("normalize") as cost:
        memory_id = check_memory_id(state.get("memory_id"))
        question = " ".join(check_question(state.get("question")).split())
        probe_servers(ctx, ("planner", "answerer"))
        image = state.get("image")
        if image is not None:
            if not isinstance(image, dict):
                raise ValueError("image: must be an object {path | url | data, caption?}")
            caption = image.get("caption")
            if isinstance(caption, str) and caption.strip():
                question = f"{question} [image: {caption.strip()[:500]}]"
        now = _now(state.get("now"), ctx, memory_id)
        stated = stated_today(question, now)
        if stated is not None:  # "(asked on 23 March)": the question's own day is its now
            now = datetime.combine(stated[0], datetime.max.time()).replace(microsecond=0)
            a, b = stated[1]
            question = re.sub(r"\s*[-–—,;:]+\s*(?=[?.!]|$)", "", " ".join(f"{question[:a]} {question[b:]}".split()))
            question = question.replace(" ?", "?").replace(" ,", ",")
        periods = find_periods(question, now)
    return {"normalized": {"question": question, "now": now.isoformat(), "periods": [_period_dict(p) for p in periods],
                           "sub_questions": split_question(question)},
            "steps_run": 0, "reflections": 0, "evidence_at_reflect": -1, "plan_step": 0,
            "evidence": [], "calls": [], "cost": [cost.to_dict()]}


def _now(value: Any, ctx: Context, memory_id: str) -> datetime:
    if value:
        if not isinstance(value, str):
            raise ValueError("now: must be an ISO date or datetime string")
        try:
            parsed = parse_time(value)
        except ValueError as exc:
            raise ValueError(f"now: {exc}") from None
        if parsed is None:
            raise ValueError(f"now: cannot read {value!r} as a date")
        return parsed
    newest = backends(ctx).sql.newest_time(memory_id)
    return newest or datetime.now().replace(microsecond=0)


def _period_dict(p: Period) -> dict[str, Any]:
    return {**p.to_dict(), "span": list(p.span)}


def periods_of(state: QueryState) -> list[Period]:
    out = []
    for d in (state.get("normalized") or {}).get("periods", []):
        out.append(Period(_date(d.get("start")), _date(d.get("end")), d["phrase"], tuple(d.get("span", (0, 0)))))
    return out


def _date(value: Any) -> date | None:
    return date.fromisoformat(value) if value else None


# -- 2. planning context ----------------------------------------------------------------------------


def planning_context(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Rank tables and episodes against the question (Eq. 8) and keep the top k of each."""
    ctx = Context.coerce(runtime)
    with timed("planning_context") as cost:
        context = build_planning_context(ctx, state["memory_id"], state["normalized"]["question"])
    return {"planning_context": context, "cost": [cost.to_dict()]}


# -- 3. plan --------------------------------------------------------------------------------------


class PlanStep(BaseModel):
    goal: str = Field(max_length=300)
    tool: ToolName


class PlanOut(BaseModel):
    """A high-level plan: steps without arguments."""

    steps: list[PlanStep] = Field(max_length=10)


def plan(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """At most ``max_plan_steps`` (goal, tool) steps, by the planner role."""
    ctx = Context.coerce(runtime)
    tools = enabled_tools(ctx)
    question = state["normalized"]["question"]
    entries: list[dict[str, Any]] = []
    with timed("plan") as cost:
        if ctx.planner == "rules":
            steps = _rules_plan(ctx, state, tools)
        else:
            messages = [("system", plan_prompts.PLAN_SYSTEM.format(max_steps=ctx.max_plan_steps)),
                        ("human", plan_prompts.PLAN_USER.format(question=question, periods=_periods_text(state),
                                                                context=render_context(state["planning_context"], brief=True)))]
            try:
                out, entry = invoke(ctx, "planner", "plan", messages, schema=PlanOut)
                entries.append(entry.to_dict())
                steps = [s.model_dump() for s in out.steps if s.tool in tools][: ctx.max_plan_steps]
            except ModelOutputError as exc:  # no usable plan from the model: the rules plan
                entries.append(exc.cost.to_dict())
                steps = _rules_plan(ctx, state, tools)
            if not steps and "EventLocate" in tools:  # an empty or unusable plan still looks
                steps = [{"goal": "find the rounds that talk about it", "tool": "EventLocate"}]
    plan_steps = [{**s, "status": "pending", "origin": "plan"} for s in steps]
    return {"plan": plan_steps, "plan_step": 0, "cost": [cost.to_dict(), *entries]}


# -- 4. instantiate + execute ---------------------------------------------------------------------------


class CallOut(BaseModel):
    """One tool call: the tool and its arguments (validated again before running)."""

    tool: ToolName
    arguments: dict[str, Any] = Field(default_factory=dict)


class CallsOut(BaseModel):
    calls: list[CallOut] = Field(max_length=10)


def instantiate(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Arguments for the next plan step from the question, the context and earlier results
    (progressive), or for every remaining step at once (``progressive=False``)."""
    ctx = Context.coerce(runtime)
    steps = list(state.get("plan") or [])
    first = state.get("plan_step", 0)
    todo = list(range(first, len(steps))) if not ctx.progressive else [first]
    todo = [i for i in todo if i < len(steps)]
    entries: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    with timed("instantiate") as cost:
        if ctx.planner == "rules":
            pending = [_rules_pending(ctx, state, steps, i) for i in todo]
        elif ctx.progressive:
            pending, entries = _model_call(ctx, state, steps, todo[0]) if todo else ([], [])
        else:
            pending, entries = _model_calls(ctx, state, steps, todo)
    return {"pending": pending, "cost": [cost.to_dict(), *entries]}


def _rules_pending(ctx: Context, state: QueryState, steps: list[dict[str, Any]], i: int) -> dict[str, Any]:
    made = _rules_call(ctx, state, steps, i)
    return {"step": i, "tool": made[0] if made else steps[i]["tool"], "args": made[1] if made else None,
            "error": None if made else "the rules planner found no table or column for this step"}


def _rules_sub_questions(state: QueryState) -> list[str]:
    """The questions the rules planner plans for: the normalized sub-questions when each is a
    full question ("What was X? And how many Y?"); a clause split off at "and what ..." often
    lacks its subject, so the rules backend keeps such a question whole."""
    normalized = state["normalized"]
    subs = normalized.get("sub_questions") or []
    return subs if len(subs) > 1 and all(q.endswith("?") for q in subs) else [normalized["question"]]


def _periods_for(state: QueryState, question: str) -> list[Period]:
    if question == state["normalized"]["question"]:
        return periods_of(state)
    return find_periods(question, datetime.fromisoformat(state["normalized"]["now"]))


def _rules_call(ctx: Context, state: QueryState, steps: list[dict[str, Any]], i: int) -> tuple[str, dict[str, Any]] | None:
    question = steps[i].get("question") or state["normalized"]["question"]
    periods = _periods_for(state, question)
    intent = rules_planner.detect_intent(question, periods, state["planning_context"].get("tables"))
    own = [c for c in state.get("calls") or [] if c.get("ok") and (steps[c["step"]].get("question") or question) == question]
    results = [c.get("summary", {}) for c in own]
    if steps[i].get("origin") == "reflection":  # the rules reflection only ever adds a retrieval step
        intent = rules_planner.Intent("retrieve")
    return rules_planner.instantiate(steps[i].get("sub_step", 0), steps[i]["tool"], question, periods, intent,
                                     state["planning_context"], results, backends(ctx).text_encoder)


def compose_answer(state: QueryState, known: frozenset[str] | None = None) -> tuple[str, list[str]]:
    """The rules answer; for a compound question, one answer per question, in order.
    ``known``: every word the memory's rounds hold (a question about a word it never said is
    not answered from it)."""
    evidence = state.get("evidence") or []
    calls = state.get("calls") or []
    steps = state.get("plan") or []
    subs = _rules_sub_questions(state) if any(s.get("question") for s in steps) else [state["normalized"]["question"]]
    if len(subs) == 1:
        return rules_answerer.compose(subs[0], _periods_for(state, subs[0]), evidence, calls, known=known)
    texts, cited = [], []
    for sub in subs:
        own_steps = {i for i, s in enumerate(steps) if s.get("question") == sub}
        text, ids = rules_answerer.compose(sub, _periods_for(state, sub), [u for u in evidence if u.get("step") in own_steps],
                                           [c for c in calls if c["step"] in own_steps], known=known)
        texts.append(text)
        cited.extend(ids)
    return "; ".join(texts), cited


def _rules_plan(ctx: Context, state: QueryState, tools: Any) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for sub in _rules_sub_questions(state):
        periods = _periods_for(state, sub)
        intent = rules_planner.detect_intent(sub, periods, state["planning_context"].get("tables"))
        sub_plan = rules_planner.make_plan(sub, periods, intent, tools, ctx.max_plan_steps)
        steps.extend({**step, "question": sub, "sub_step": k} for k, step in enumerate(sub_plan))
    return steps[: ctx.max_plan_steps]


def _model_call(ctx: Context, state: QueryState, steps: list[dict[str, Any]], i: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    step = steps[i]
    messages = [("system", plan_prompts.INSTANTIATE_SYSTEM),
                ("human", plan_prompts.INSTANTIATE_USER.format(
                    question=state["normalized"]["question"], periods=_periods_text(state),
                    context=render_context(state["planning_context"], {step["tool"]}), plan=_plan_text(steps),
                    results=_results_text(state), step=i + 1, goal=step["goal"], tool=step["tool"]))]
    try:
        out, entry = invoke(ctx, "planner", "instantiate", messages, schema=CallOut)
    except ModelOutputError as exc:  # the rules planner instantiates this step instead
        return [_rules_pending(ctx, state, steps, i)], [exc.cost.to_dict()]
    return [{"step": i, "tool": out.tool, "args": out.arguments, "error": None}], [entry.to_dict()]


def _model_calls(ctx: Context, state: QueryState, steps: list[dict[str, Any]], todo: list[int]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    messages = [("system", plan_prompts.INSTANTIATE_SYSTEM),
                ("human", plan_prompts.INSTANTIATE_ALL_USER.format(
                    question=state["normalized"]["question"], periods=_periods_text(state),
                    context=render_context(state["planning_context"], {steps[i]["tool"] for i in todo}), plan=_plan_text(steps)))]
    try:
        out, entry = invoke(ctx, "planner", "instantiate", messages, schema=CallsOut)
    except ModelOutputError as exc:  # the rules planner instantiates these steps instead
        return [_rules_pending(ctx, state, steps, i) for i in todo], [exc.cost.to_dict()]
    calls = list(out.calls)
    return [{"step": i, "tool": calls[k].tool if k < len(calls) else steps[i]["tool"],
             "args": calls[k].arguments if k < len(calls) else None,
             "error": None if k < len(calls) else "the planner wrote no call for this step"} for k, i in enumerate(todo)], [entry.to_dict()]


def execute(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Validate and run the instantiated calls; add their units to the shared evidence budget."""
    ctx = Context.coerce(runtime)
    evidence = list(state.get("evidence") or [])
    steps = [dict(s) for s in state.get("plan") or []]
    calls: list[dict[str, Any]] = []
    rounds_read = 0
    with timed("execute") as cost:
        for call in state.get("pending") or []:
            record: dict[str, Any] = {"step": call["step"], "tool": call["tool"], "goal": steps[call["step"]]["goal"] if call["step"] < len(steps) else "",
                                      "args": call.get("args"), "ok": False, "error": call.get("error"), "units": 0, "evidence_ids": []}
            if record["error"] is None:
                try:
                    args = validate_call(ctx, call["tool"], call.get("args"))
                    record["args"] = args.model_dump(mode="json", exclude_none=True)
                    units, summary = run_call(ctx, state["memory_id"], call["tool"], args, ctx.evidence_budget - len(evidence))
                    fresh = _add_units(evidence, units, call["step"])
                    rounds_read += sum(1 + len(u.get("context_round_ids", [])) for u in fresh if u["kind"] == "event")
                    record.update(ok=True, units=len(fresh), summary=summary, evidence_ids=[u["unit_id"] for u in fresh])
                except (ToolError, ValueError) as exc:
                    record["error"] = str(exc)[:500]
            if call["step"] < len(steps):
                steps[call["step"]]["status"] = "done" if record["ok"] else "failed"
            calls.append(record)
        cost.rounds_read = rounds_read
    done = max((c["step"] for c in state.get("pending") or []), default=state.get("plan_step", 0) - 1)
    return {"evidence": evidence, "calls": calls, "plan": steps, "pending": [],
            "plan_step": done + 1, "steps_run": state.get("steps_run", 0) + len(calls), "cost": [cost.to_dict()]}


def _add_units(evidence: list[dict[str, Any]], units: list[dict[str, Any]], step: int) -> list[dict[str, Any]]:
    """Append units not already in the evidence (same kind, rounds and text), numbered E1, E2 ..."""
    seen = {(u["kind"], tuple(u["round_ids"]), u["text"]) for u in evidence}
    fresh = []
    for u in units:
        key = (u["kind"], tuple(u["round_ids"]), u["text"])
        if key in seen:
            continue
        seen.add(key)
        unit = {"unit_id": f"E{len(evidence) + 1}", "step": step, **u}
        evidence.append(unit)
        fresh.append(unit)
    return fresh


def after_execute(state: QueryState, runtime: Runtime[Context]) -> Literal["instantiate", "reflect", "notes"]:
    """Next planned step while budget remains; reflection once the plan is done."""
    ctx = Context.coerce(runtime)
    if len(state.get("evidence") or []) >= ctx.evidence_budget or state.get("steps_run", 0) >= ctx.t_max:
        return "notes"
    if state.get("plan_step", 0) < len(state.get("plan") or []):
        return "instantiate"
    return "reflect"


# -- 5. reflect ------------------------------------------------------------------------------------


class ReflectOut(BaseModel):
    """The reflection verdict; a new or revised step when the evidence does not suffice."""

    verdict: Literal["sufficient", "add_step", "revise_step"]
    goal: str | None = Field(default=None, max_length=300)
    tool: ToolName | None = None
    reason: str = Field(default="", max_length=1000)


def reflect(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Does the evidence answer the question? If not, add or revise a step."""
    ctx = Context.coerce(runtime)
    tools = enabled_tools(ctx)
    entries: list[dict[str, Any]] = []
    with timed("reflect") as cost:
        if ctx.planner == "rules":
            results = [{"tool": c["tool"], "error": c.get("error"), "units": c.get("units", 0),
                        "value": (c.get("summary") or {}).get("value", 0), "operator": (c.get("summary") or {}).get("operator")}
                       for c in state.get("calls") or []]
            verdict = rules_planner.reflect(results, tools)
        else:
            messages = [("system", plan_prompts.REFLECT_SYSTEM),
                        ("human", plan_prompts.REFLECT_USER.format(question=state["normalized"]["question"],
                                                                   results=_results_text(state, per_step=ctx.evidence_budget)))]
            try:
                out, entry = invoke(ctx, "planner", "reflect", messages, schema=ReflectOut)
                entries.append(entry.to_dict())
                verdict = out.model_dump()
            except ModelOutputError as exc:
                entries.append(exc.cost.to_dict())
                verdict = {"verdict": "sufficient", "reason": "reflection output invalid; stopping with the evidence at hand"}
        steps = [dict(s) for s in state.get("plan") or []]
        if verdict["verdict"] != "sufficient" and verdict.get("tool") in tools and verdict.get("goal"):
            steps.append({"goal": verdict["goal"], "tool": verdict["tool"], "status": "pending", "origin": "reflection"})
        elif verdict["verdict"] != "sufficient":
            verdict = {**verdict, "verdict": "sufficient", "reason": f"{verdict.get('reason', '')} (no usable step given)".strip()}
    size = len(state.get("evidence") or [])
    return {"verdict": verdict, "plan": steps, "reflections": state.get("reflections", 0) + 1,
            "new_evidence": size > state.get("evidence_at_reflect", -1), "evidence_at_reflect": size,
            "cost": [cost.to_dict(), *entries]}


def after_reflect(state: QueryState, runtime: Runtime[Context]) -> Literal["instantiate", "notes"]:
    """Continue only with a new step, budget left, and new evidence since the last reflection."""
    ctx = Context.coerce(runtime)
    verdict = (state.get("verdict") or {}).get("verdict")
    if verdict not in ("add_step", "revise_step"):
        return "notes"
    if state.get("steps_run", 0) >= ctx.t_max or len(state.get("evidence") or []) >= ctx.evidence_budget:
        return "notes"
    if not state.get("new_evidence", True):  # the last added step brought nothing new
        return "notes"
    if state.get("plan_step", 0) >= len(state.get("plan") or []):
        return "notes"
    return "instantiate"


# -- 6. notes ---------------------------------------------------------------------------------------


def notes(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Organized notes (APDMem §3.3): relevant facts, temporal order, contradictions between
    older and newer values, counts, and an answer hint - so the answerer reads a digest, not a
    pile of units."""
    with timed("notes") as cost:
        evidence = state.get("evidence") or []
        hint, cited = compose_answer(state, memory_vocabulary(Context.coerce(runtime), state.get("memory_id")))
        out = synthesize_notes(evidence, state.get("calls") or [], hint)
    return {"notes": out, "draft": {"answer": hint, "cited": cited}, "cost": [cost.to_dict()]}


def memory_vocabulary(ctx: Context, memory_id: str | None) -> frozenset[str] | None:
    """The words of the memory's rounds (from its keyword index), or None when unavailable."""
    if not memory_id:
        return None
    try:
        return backends(ctx).keywords.get(memory_id, ROUNDS_SPACE).vocabulary
    except Exception:  # noqa: BLE001 - the reader works without it, only less sure when to decline
        log.warning("no keyword index for %s: the answer is read without the memory's vocabulary", memory_id)
        return None


def synthesize_notes(evidence: list[dict[str, Any]], calls: list[dict[str, Any]], hint: str) -> dict[str, Any]:
    facts = [f"[{u['unit_id']}] {u['text'][:EVIDENCE_CHARS]}" for u in evidence]
    dated = sorted((u for u in evidence if u.get("date")), key=lambda u: (u["date"], u.get("order") or 0))
    timeline = [f"{u['date']}: [{u['unit_id']}] {u['text'][:160]}" for u in dated]
    contradictions = []
    by_key: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for u in evidence:
        if u["kind"] != "row" or not u.get("date"):
            continue
        for col, value in u.get("values", {}).items():
            by_key.setdefault((u["table"], u["date"], col), []).append({"unit_id": u["unit_id"], "value": value, "order": u.get("order")})
    for (table, day, col), vals in by_key.items():
        distinct = {json.dumps(v["value"], default=str) for v in vals}
        if len(distinct) > 1:
            ordered = sorted(vals, key=lambda v: v["order"] or 0)
            contradictions.append(f"{table}.{col} on {day}: older {ordered[0]['value']} [{ordered[0]['unit_id']}], "
                                  f"newer {ordered[-1]['value']} [{ordered[-1]['unit_id']}] (the newer value is current)")
    counts = {
        "evidence_units": len(evidence),
        "rows_matched": sum((c.get("summary") or {}).get("matched", 0) for c in calls if c.get("tool") in ("Lookup", "Filter", "Rank")),
        "computed": [f"{(c.get('summary') or {}).get('operator')}({(c.get('summary') or {}).get('expression')}) = "
                     f"{(c.get('summary') or {}).get('value')} over {(c.get('summary') or {}).get('matched')} rows"
                     for c in calls if c.get("tool") == "Compute" and c.get("ok")],
        "failed_calls": [f"{c['tool']}: {c['error']}" for c in calls if c.get("error")],
    }
    return {"facts": facts, "timeline": timeline, "contradictions": contradictions, "counts": counts, "answer_hint": hint}


# -- 7. answer --------------------------------------------------------------------------------------


def answer(state: QueryState, runtime: Runtime[Context]) -> dict[str, Any]:
    """The final answer with citations (round and image ids), by the answerer role."""
    ctx = Context.coerce(runtime)
    evidence = state.get("evidence") or []
    question = state["normalized"]["question"]
    entries: list[dict[str, Any]] = []
    with timed("answer") as cost:
        if ctx.answerer == "rules" or not evidence:
            text, cited = state["draft"]["answer"], state["draft"]["cited"]
        else:
            text, cited, entry = _model_answer(ctx, question, state.get("notes") or {}, evidence, state)
            entries.append(entry)
        citations = _citations(ctx, state["memory_id"], evidence, cited)
    return {"answer": text, "citations": citations, "cost": [cost.to_dict(), *entries]}


def _model_answer(ctx: Context, question: str, note: dict[str, Any], evidence: list[dict[str, Any]],
                  state: QueryState) -> tuple[str, list[str], dict[str, Any]]:
    listing = "\n".join(f"[{u['unit_id']}] ({u.get('date') or 'undated'}) {u['text'][:EVIDENCE_CHARS]}" for u in evidence)
    note_text = "\n".join(
        [f"Answer hint: {note.get('answer_hint', '')}"]
        + [f"Computed: {c}" for c in note.get("counts", {}).get("computed", [])]
        + [f"Contradiction: {c}" for c in note.get("contradictions", [])]
        + ([f"Timeline: {'; '.join(note.get('timeline', [])[:10])}"] if note.get("timeline") else []))
    messages = [("system", answer_prompts.ANSWER_SYSTEM),
                ("human", answer_prompts.ANSWER_NOTES_USER.format(question=question, notes=note_text, evidence=listing))]
    try:
        out, entry = invoke(ctx, "answerer", "answer", messages, schema=AnswerOut)
    except ModelOutputError as exc:  # the rules draft from the notes step stands in
        return state["draft"]["answer"], state["draft"]["cited"], exc.cost.to_dict()
    known = {u["unit_id"] for u in evidence}
    return out.answer.strip() or NOT_MENTIONED, [c for c in out.citations if c in known], entry.to_dict()


def _citations(ctx: Context, memory_id: str, evidence: list[dict[str, Any]], cited: list[str]) -> list[dict[str, Any]]:
    """Cited units as their rounds (first ten), each with the round's image ids."""
    by_id = {u["unit_id"]: u for u in evidence}
    round_ids: list[str] = []
    for unit_id in cited:
        for r in (by_id.get(unit_id) or {}).get("round_ids", []):
            if r not in round_ids:
                round_ids.append(r)
    round_ids = round_ids[:10]
    if not round_ids:
        return []
    images = {r.round_id: [i.image_id for i in r.images] for r in backends(ctx).sql.get_rounds(memory_id, round_ids)}
    return [{"round_id": r, "image_ids": images.get(r, [])} for r in round_ids]


# -- prompt text helpers --------------------------------------------------------------------------------


def _periods_text(state: QueryState) -> str:
    periods = (state.get("normalized") or {}).get("periods") or []
    if not periods:
        return "none"
    return "; ".join(f"'{p['phrase']}' = {p['start'] or '...'} to {p['end'] or '...'}" for p in periods)


def _plan_text(steps: list[dict[str, Any]]) -> str:
    return "\n".join(f"{i + 1}. [{s['tool']}] {s['goal']} ({s.get('status', 'pending')})" for i, s in enumerate(steps))


def _results_text(state: QueryState, per_step: int = 5) -> str:
    """Each executed call with its result and the start of (up to ``per_step`` of) its units:
    enough to write the next call or judge sufficiency; the answerer gets the units in full."""
    lines = []
    evidence = {u["unit_id"]: u for u in state.get("evidence") or []}
    for c in state.get("calls") or []:
        head = f"step {c['step'] + 1} {c['tool']}({json.dumps(c.get('args'), default=str)[:400]})"
        if not c.get("ok"):
            lines.append(f"{head} -> error: {c.get('error')}")
            continue
        lines.append(f"{head} -> {json.dumps(c.get('summary'), default=str)[:400]}")
        lines.extend(f"  [{i}] {evidence[i]['text'][:200]}" for i in c.get("evidence_ids", [])[:per_step] if i in evidence)
    return "\n".join(lines) or "none yet"


__all__ = ["after_execute", "after_reflect", "answer", "execute", "instantiate", "normalize", "notes",
           "plan", "planning_context", "reflect", "synthesize_notes"]
