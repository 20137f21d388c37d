"""A host agent that embeds adamm's graphs, both ways LangGraph allows.

    python examples/host_agent.py            # offline: rules backend, a throwaway data directory

The host has its own state and its own context (a persona, a user name), and two memory steps:

* ``remember`` - the compiled ``ingest`` graph added as a node. It shares the keys
  ``memory_id`` and ``rounds`` with the host state and hands back only its output keys; the
  host keeps the ones it declares (here ``cost``), so adamm's working keys never leak in.
* ``recall`` - a host node that calls the compiled ``query`` graph itself, mapping its own
  state to the graph's input and the answer back. It passes the host's context object, whose
  unrelated fields (``persona``, ``user_name``) adamm ignores and whose ``home`` it uses.

The first way needs no code; the second lets the host rename keys, add a memory id per user,
or decide per call whether to ask memory at all.
"""

from __future__ import annotations

import operator
import sys
import tempfile
from dataclasses import dataclass
from typing import Annotated, Any

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from adamm.graphs.ingest import graph as ingest_graph
from adamm.graphs.query import graph as query_graph
from adamm.nodes.backends import reset_backends


@dataclass
class HostContext:
    """The host's own settings. ``home`` (and any other adamm field name) is read by adamm."""

    home: str
    user_name: str = "Ada"
    persona: str = "brief"


class HostState(TypedDict, total=False):
    memory_id: str
    rounds: list[dict[str, Any]]
    """New rounds of the current conversation, to remember."""
    question: str
    reply: str
    sources: list[str]
    cost: Annotated[list[dict[str, Any]], operator.add]
    """adamm's cost ledger entries, summed over both memory steps."""


def recall(state: HostState, runtime: Runtime[HostContext]) -> dict[str, Any]:
    """Ask memory with the host's own context, then phrase the reply the host's way."""
    out = query_graph.invoke({"memory_id": state["memory_id"], "question": state["question"]}, context=runtime.context)
    sources = [c["round_id"] for c in out["citations"]]
    reply = f"{runtime.context.user_name}, {out['answer']}" if runtime.context.persona == "brief" else out["answer"]
    return {"reply": reply, "sources": sources, "cost": out["cost"]}


def build_host_graph() -> Any:
    builder = StateGraph(HostState, context_schema=HostContext)
    builder.add_node("remember", ingest_graph)  # pattern (a): the compiled graph is the node
    builder.add_node("recall", recall)  # pattern (b): a node that calls the graph
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", END)
    return builder.compile(name="host_agent")


CONVERSATION = [
    {"round_id": "h1", "session_id": "2025-03-04", "timestamp": "2025-03-04T08:00:00",
     "user_text": "We adopted a beagle puppy and named him Biscuit.", "assistant_text": "Congratulations!"},
    {"round_id": "h2", "session_id": "2025-03-05", "timestamp": "2025-03-05T18:30:00",
     "user_text": "Biscuit's vet appointment is on Friday at 10:00.", "assistant_text": "Noted."},
]


def run(home: str, question: str = "What is the puppy called?") -> HostState:
    host = build_host_graph()
    return host.invoke({"memory_id": "ada", "rounds": CONVERSATION, "question": question}, context=HostContext(home=home))


def main(argv: list[str]) -> int:
    question = " ".join(argv) or "What is the puppy called?"
    with tempfile.TemporaryDirectory(prefix="adamm-host-") as home:
        try:
            out = run(home, question)
        finally:
            reset_backends()  # close the stores before their directory goes
        print(out["reply"])
        print("sources:", ", ".join(out["sources"]) or "none")
        print("memory steps:", len(out["cost"]), "cost entries")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
