"""The ``ingest`` graph: rounds in, memory out (AdaMM §3.3-3.4).

    store_rounds -> extract_attributes -> induce_tables -> insert_hierarchy -> index_rounds

``store_rounds`` is always first, so every accepted round is durable before anything is derived
from it; ``index_rounds`` is last and marks rounds derived, so a run that dies in between is
completed by the next one. Each deriving step commits once, with the mark that it is done for
its rounds (vector writes journaled in that commit), so the next run does exactly what is left
and ends where an uninterrupted run ends (``nodes/locking.py``). Every node runs under its memory's write lock
(``nodes/locking.py``), so two processes ingesting into one memory take turns. Compiled
without a checkpointer or store: the host graph or the LangGraph server brings its own.
"""

from langgraph.graph import END, START, StateGraph

from adamm.nodes.extract import extract_attributes
from adamm.nodes.induce import induce_tables
from adamm.nodes.context import Context
from adamm.nodes.hierarchy import insert_hierarchy
from adamm.nodes.ingest import index_rounds, store_rounds
from adamm.nodes.locking import locked
from adamm.nodes.state import IngestInput, IngestOutput, IngestState

builder = StateGraph(IngestState, context_schema=Context, input_schema=IngestInput, output_schema=IngestOutput)
builder.add_node("store_rounds", locked(store_rounds))
builder.add_node("extract_attributes", locked(extract_attributes))
builder.add_node("induce_tables", locked(induce_tables))
builder.add_node("insert_hierarchy", locked(insert_hierarchy))
builder.add_node("index_rounds", locked(index_rounds))
builder.add_edge(START, "store_rounds")
builder.add_edge("store_rounds", "extract_attributes")
builder.add_edge("extract_attributes", "induce_tables")
builder.add_edge("induce_tables", "insert_hierarchy")
builder.add_edge("insert_hierarchy", "index_rounds")
builder.add_edge("index_rounds", END)

graph = builder.compile(name="ingest")
