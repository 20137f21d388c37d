"""adamm's graphs inside a host graph: as nodes with shared keys, and called from a host node.

What a host relies on: only the documented output keys come back (adamm's working keys never
appear in the host's state), the host's own context object - with fields adamm has never heard
of - configures adamm through the fields it shares, and the example host agent in the
repository runs as documented.
"""

from __future__ import annotations

import importlib.util
import operator
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from adamm.graphs.ingest import graph as ingest
from adamm.graphs.query import graph as query
from adamm.nodes.backends import backends, reset_backends
from adamm.nodes.context import ConfigError, Context

REPO = Path(__file__).resolve().parents[1]

ROUNDS = [
    {"round_id": "r1", "session_id": "s1", "timestamp": "2025-03-04T08:00:00",
     "user_text": "We adopted a beagle puppy and named him Biscuit.", "assistant_text": "Congratulations!"},
    {"round_id": "r2", "session_id": "s2", "timestamp": "2025-03-12T09:15:00",
     "user_text": "Here is the view from our hotel in Lisbon.", "assistant_text": "Lovely, that is the Tagus river.",
     "images": [{"image_id": "img-lisbon", "caption": "A red suspension bridge over a wide river at sunset"}]},
]


@dataclass
class HostContext:
    """A host's own context: two fields adamm ignores, one (``home``) it shares."""

    home: str
    persona: str = "terse"
    max_tokens: int = 256


class HostState(TypedDict, total=False):
    memory_id: str
    rounds: list[dict[str, Any]]
    question: str
    answer: str
    citations: list[dict[str, Any]]
    cost: Annotated[list[dict[str, Any]], operator.add]
    log: Annotated[list[str], operator.add]


def test_compiled_graphs_as_nodes_share_keys_and_return_only_outputs(home: Path, tmp_path: Path) -> None:
    def say(state: HostState) -> dict[str, Any]:
        return {"log": [f"answered {state['answer'][:20]}"]}

    builder = StateGraph(HostState, context_schema=HostContext)
    builder.add_node("remember", ingest)
    builder.add_node("recall", query)
    builder.add_node("say", say)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", "say")
    builder.add_edge("say", END)
    host = builder.compile()

    host_home = tmp_path / "host-home"
    ctx = HostContext(home=str(host_home))
    start: HostState = {"memory_id": "ada", "rounds": ROUNDS, "question": "What did we name the beagle puppy?", "log": ["start"]}
    updates = list(host.stream(start, context=ctx, stream_mode="updates"))

    # Each subgraph node reports only keys of its output schema that the host declares.
    by_node = {name: set(update) for chunk in updates for name, update in chunk.items()}
    assert by_node["remember"] <= {"memory_id", "cost"} and "cost" in by_node["remember"]
    assert by_node["recall"] <= {"answer", "citations", "cost"} and {"answer", "citations"} <= by_node["recall"]

    final = host.invoke(start, context=ctx)
    assert set(final) == {"memory_id", "rounds", "question", "answer", "citations", "cost", "log"}
    assert "Biscuit" in final["answer"] and final["citations"] == [{"round_id": "r1", "image_ids": []}]
    assert final["log"] == ["start", f"answered {final['answer'][:20]}"]
    ingest_nodes = {"store_rounds", "extract_attributes", "induce_tables", "insert_hierarchy", "index_rounds"}
    nodes_costed = {e["node"] for e in final["cost"]}
    assert ingest_nodes < nodes_costed  # both graphs appended to the host's ledger

    # The host's context reached adamm's nodes: its `home` holds the data, ADAMM_HOME does not.
    assert (host_home / "adamm.db").exists() and not (home / "adamm.db").exists()
    assert backends(Context(home=str(host_home))).sql.count_rounds("ada") == 2


def test_host_node_calls_the_graph_with_its_own_context(home: Path, tmp_path: Path) -> None:
    team_home = str(tmp_path / "team")

    def remember(state: HostState, runtime: Runtime[HostContext]) -> dict[str, Any]:
        out = ingest.invoke({"memory_id": state["memory_id"], "rounds": state["rounds"]}, context=runtime.context)
        return {"log": [f"stored {out['stored']['rounds_added']}"]}

    def recall(state: HostState, runtime: Runtime[HostContext]) -> dict[str, Any]:
        # The host's context object as is, with one adamm field overridden for this call.
        ctx = Context.coerce(runtime.context, retrieval_mode="bm25")
        out = query.invoke({"memory_id": state["memory_id"], "question": state["question"]}, context=ctx)
        return {"answer": out["answer"].upper() if runtime.context.persona == "loud" else out["answer"],
                "citations": out["citations"]}

    builder = StateGraph(HostState, context_schema=HostContext)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", END)
    host = builder.compile()

    out = host.invoke({"memory_id": "team", "rounds": ROUNDS, "question": "Which bridge over the river did I photograph?"},
                      context=HostContext(home=team_home, persona="loud"))
    assert out["log"] == ["stored 2"]
    assert out["citations"][0] == {"round_id": "r2", "image_ids": ["img-lisbon"]}
    assert out["answer"] == out["answer"].upper() and "BRIDGE" in out["answer"]
    assert Path(team_home, "adamm.db").exists() and not (home / "adamm.db").exists()


def test_context_coerce_takes_shared_fields_and_ignores_the_rest(tmp_path: Path) -> None:
    host = HostContext(home=str(tmp_path), persona="x", max_tokens=9)
    ctx = Context.coerce(host)
    assert ctx.home == str(tmp_path) and not hasattr(ctx, "persona")

    class Settings:  # not a dataclass: any attributes with our names count
        theta_support = "6"  # loosely typed values are parsed like environment strings
        answerer = "rules"
        favourite_colour = "green"

    assert Context.coerce(Settings()).theta_support == 6

    @dataclass
    class Unset:  # a host that shares field names but leaves them unset
        home: str | None = None
        database_url: str | None = None

    assert Context.coerce(Unset()).home == Context().home and Context.coerce(Unset()).database_url is None
    with pytest.raises(ConfigError, match="theta_support"):
        Context.coerce({"theta_support": 0, "persona": "x"})  # a shared field is still validated


def test_example_host_agent_runs_offline(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("host_agent_example", REPO / "examples" / "host_agent.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, example)  # dataclasses look their module up
    spec.loader.exec_module(example)

    out = example.run(str(tmp_path / "example-home"), "When is the vet appointment?")
    assert out["reply"].startswith("Ada, ") and "Friday" in out["reply"]
    assert out["sources"] == ["h2"]
    assert {"remember", "recall"} <= set(example.build_host_graph().get_graph().nodes)
    reset_backends()

    assert example.main(["What", "is", "the", "puppy", "called?"]) == 0
    printed = capsys.readouterr().out
    assert "Biscuit" in printed and "sources: h1" in printed
