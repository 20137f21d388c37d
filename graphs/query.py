"""The ``query`` graph: a question in, a cited answer out (AdaMM §3.5, APDMem §3.2-3.3).

    normalize -> planning_context -> plan -> instantiate -> execute -> (instantiate | reflect | notes)
    reflect -> (instantiate | notes) -> notes -> answer

The routers are pure functions of the state's counters, typed with ``Literal`` so LangGraph
Studio draws every edge. Compiled without a checkpointer or store, named as in langgraph.json.
"""

from langgraph.graph import END, START, StateGraph

from adamm.nodes.context import Context
from adamm.nodes.query import (
    after_execute,
    after_reflect,
    answer,
    execute,
    instantiate,
    normalize,
    notes,
    plan,
    planning_context,
    reflect,
)
from adamm.nodes.state import QueryInput, QueryOutput, QueryState

builder = StateGraph(QueryState, context_schema=Context, input_schema=QueryInput, output_schema=QueryOutput)
builder.add_node("normalize", normalize)
builder.add_node("planning_context", planning_context)
builder.add_node("plan", plan)
builder.add_node("instantiate", instantiate)
builder.add_node("execute", execute)
builder.add_node("reflect", reflect)
builder.add_node("notes", notes)
builder.add_node("answer", answer)
builder.add_edge(START, "normalize")
builder.add_edge("normalize", "planning_context")
builder.add_edge("planning_context", "plan")
builder.add_edge("plan", "instantiate")
builder.add_edge("instantiate", "execute")
builder.add_conditional_edges("execute", after_execute)
builder.add_conditional_edges("reflect", after_reflect)
builder.add_edge("notes", "answer")
builder.add_edge("answer", END)

graph = builder.compile(name="query")
