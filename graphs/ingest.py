"""The ``ingest`` graph: rounds in, memory out.

    store_rounds -> index_rounds

Compiled without a checkpointer or store: the host graph or the LangGraph server brings its
own. The analytic steps (extract, mine, schemas, tables) and the hierarchy step slot in after
``store_rounds``, which is always first so every accepted round is durable.
"""

from langgraph.graph import END, START, StateGraph

from adamm.nodes.context import Context
from adamm.nodes.ingest import index_rounds, store_rounds
from adamm.nodes.state import IngestInput, IngestOutput, IngestState

builder = StateGraph(IngestState, context_schema=Context, input_schema=IngestInput, output_schema=IngestOutput)
builder.add_node("store_rounds", store_rounds)
builder.add_node("index_rounds", index_rounds)
builder.add_edge(START, "store_rounds")
builder.add_edge("store_rounds", "index_rounds")
builder.add_edge("index_rounds", END)

graph = builder.compile(name="ingest")
