"""The ``query`` graph: a question in, a cited answer out (planner under construction: flat for now)."""

from langgraph.graph import END, START, StateGraph

from adamm.nodes.context import Context
from adamm.nodes.flat import answer, retrieve
from adamm.nodes.state import QueryInput, QueryOutput, QueryState

builder = StateGraph(QueryState, context_schema=Context, input_schema=QueryInput, output_schema=QueryOutput)
builder.add_node("retrieve", retrieve)
builder.add_node("answer", answer)
builder.add_edge(START, "retrieve")
builder.add_edge("retrieve", "answer")
builder.add_edge("answer", END)

graph = builder.compile(name="query")
