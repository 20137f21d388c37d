"""The plan of a question and the verdict on its results: which tools in which order, and whether
what they found suffices.

Plans are plain data (``{goal, tool}`` steps without arguments, filled in by
:func:`adamm.nodes.rules.plan_instantiate.instantiate` when a step runs), so the progressive
loop works the same way as with a model planner.
"""

from __future__ import annotations

from typing import Any

from adamm.nodes.rules.plan_events import AROUND, event_bound, stated_fact
from adamm.nodes.rules.plan_intent import Intent
from adamm.stores.timeexpr import Period


def make_plan(question: str, periods: list[Period], intent: Intent, tools: tuple[str, ...], max_steps: int) -> list[dict[str, Any]]:
    """High-level steps ``{goal, tool}`` without arguments."""
    analytic = "Compute" in tools
    retrieval = "EventLocate" in tools
    steps: list[dict[str, Any]] = []
    if analytic and intent.kind == "compute":
        steps = [{"goal": f"compute the {intent.operator} the question asks for", "tool": "Compute"}]
    elif analytic and intent.kind == "lookup":
        steps = [{"goal": "read the logged value", "tool": "Compute"}]
    elif analytic and intent.kind == "rank":
        steps = [{"goal": f"find the row with the {intent.operator} value and its day", "tool": "Rank" if intent.operator in ("max", "min") else "Compute"}]
    elif analytic and intent.kind == "filter_days":
        steps = [{"goal": "list the days that satisfy the condition", "tool": "Filter"}]
    elif analytic and intent.kind == "compare":
        steps = [{"goal": "compute the first side of the comparison", "tool": "Compute"},
                 {"goal": "compute the second side of the comparison", "tool": "Compute"}]
    elif analytic and intent.kind == "values":
        steps = [{"goal": "list the values the question asks for", "tool": "Compute"}]
    elif analytic and intent.kind in ("share", "group"):
        steps = [{"goal": "compute the share the question asks for" if intent.kind == "share"
                  else "compute the value per group and rank the groups", "tool": "Compute"}]
    elif analytic and intent.kind == "trend":
        steps = [{"goal": "compute the trend over the period", "tool": "Compute"}]
    elif analytic and intent.kind == "day_of":
        steps = [{"goal": "find the day the clause describes", "tool": "Rank"},
                 {"goal": "read the asked value on that day", "tool": "Compute"}]
    if steps and retrieval and stated_fact(question):
        # "more power than the cap my coach set": find the cap first, then compare with it
        steps = [{"goal": "find the value the question compares with, where it was said", "tool": "EventLocate"}, *steps]
    elif steps and retrieval and event_bound(question, periods) and (intent.kind != "compare" or AROUND.search(question)):
        # "since my GP raised the dose": find when that happened, then bound the records by it
        steps = [{"goal": "find when the event the question is bounded by happened", "tool": "EventLocate"}, *steps]
    if not steps and retrieval:
        steps = [{"goal": "find the rounds that talk about it", "tool": "EventLocate"}]
    return steps[:max_steps]


def reflect(results: list[dict[str, Any]], tools: tuple[str, ...]) -> dict[str, Any]:
    """Sufficient when some step produced evidence; otherwise fall back to retrieval once."""
    # a count or total of nothing is an answer ("0"); a missing average or maximum is not
    useful = any(r.get("units") and not r.get("error") and (r.get("value", 0) is not None or r.get("operator") in ("count", "sum"))
                 for r in results)
    tried_retrieval = any(r.get("tool") in ("EventLocate", "SemanticMatch") for r in results)
    if useful:
        return {"verdict": "sufficient", "reason": "the executed steps produced evidence"}
    if "EventLocate" in tools and not tried_retrieval:
        return {"verdict": "add_step", "goal": "find the rounds that talk about it", "tool": "EventLocate",
                "reason": "no analytic evidence; look in the conversation itself"}
    return {"verdict": "sufficient", "reason": "nothing more the available tools can add"}
