"""The ``forget`` graph: remove rounds and everything derived from them (``nodes/forget.py``).

    forget_rounds

One node, so a deployment can honour deletion requests over the same server, auth included:
the memory id is checked against the caller like every other graph's.
"""

from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from adamm.nodes.context import Context
from adamm.nodes.forget import forget
from adamm.nodes.state import ForgetInput, ForgetOutput, ForgetState


def forget_rounds(state: ForgetState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Select the rounds (ids, a session, or all) and remove them with their derivations."""
    report = forget(Context.coerce(runtime), state.get("memory_id"), round_ids=state.get("round_ids"),
                    session_id=state.get("session_id"), everything=bool(state.get("everything", False)))
    return {"memory_id": report.memory_id, "forgotten": report.to_dict()}


builder = StateGraph(ForgetState, context_schema=Context, input_schema=ForgetInput, output_schema=ForgetOutput)
builder.add_node("forget_rounds", forget_rounds)
builder.add_edge(START, "forget_rounds")
builder.add_edge("forget_rounds", END)

graph = builder.compile(name="forget")
