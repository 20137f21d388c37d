"""A deployed memory with ``ADAMM_API_KEYS`` set, over a real ``langgraph dev`` server: callers
are their keys' identities, use only their own memory ids, and see only their own runs and
threads - over the REST API and over MCP (the official client). The open server (no keys) is ``test_server.py``'s."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adamm.nodes.access import AccessError, api_keys, check_caller, may_use
from adamm.tests.servers import Server, start_langgraph_dev

RUN_TIMEOUT = 300
KEYS = {"alice": "key-alice-0123456789", "bob": "key-bob-9876543210"}


def rounds(prefix: str, pet: str) -> list[dict[str, Any]]:
    return [
        {"round_id": f"{prefix}1", "timestamp": "2025-03-04T08:00:00",
         "user_text": f"We adopted a puppy and named him {pet}.", "assistant_text": "Congratulations!"},
        {"round_id": f"{prefix}2", "timestamp": "2025-03-05T08:00:00", "user_text": "I slept 7.5 hours last night."},
    ]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("langgraph-dev-auth")
    keys = ",".join(f"{key}:{who}" for who, key in KEYS.items())
    srv = start_langgraph_dev(workdir, {"ADAMM_HOME": str(workdir / "adamm-home"), "ADAMM_API_KEYS": keys})
    try:
        yield srv
    finally:
        srv.stop()


def client(server: Server, who: str | None):
    from langgraph_sdk import get_sync_client

    return get_sync_client(url=server.url, timeout=RUN_TIMEOUT, api_key=KEYS[who] if who else "not-a-key")


def http(server: Server, method: str, path: str, body: Any = None, key: str | None = None,
         accept: str = "application/json") -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", "Accept": accept,
                                              **({"x-api-key": key} if key else {})})
    try:
        with urllib.request.urlopen(request, timeout=RUN_TIMEOUT) as response:
            raw = response.read().strip()  # /runs/wait sends newlines while it waits
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as exc:
        text = exc.read().decode(errors="replace")
        try:
            return exc.code, json.loads(text)
        except ValueError:
            return exc.code, text


def wait(server: Server, who: str, graph: str, payload: dict[str, Any]) -> tuple[int, Any]:
    return http(server, "POST", "/runs/wait", {"assistant_id": graph, "input": payload}, key=KEYS[who])


def rounds_of(server: Server, memory_id: str) -> int:
    """Count a memory's rounds straight from the server's database (not through the server)."""
    from adamm.stores.sql import SqlStore

    home = Path(server.log).parent / "adamm-home"
    store = SqlStore(f"sqlite:///{home / 'adamm.db'}")
    try:
        return len(store.get_rounds(memory_id))
    finally:
        store.close()


def test_no_key_or_an_unknown_key_is_401(server: Server) -> None:
    for key in (None, "not-a-key"):
        status, body = http(server, "POST", "/runs/wait", {"assistant_id": "query",
                                                          "input": {"memory_id": "alice", "question": "hi"}}, key=key)
        assert status == 401, (key, body)
        status, _ = http(server, "POST", "/assistants/search", {}, key=key)
        assert status == 401


def test_callers_use_their_own_memories_and_nobody_elses(server: Server) -> None:
    for who, memory_id, pet in (("alice", "alice", "Biscuit"), ("alice", "alice/work", "Pixel"), ("bob", "bob", "Rex")):
        status, out = wait(server, who, "ingest", {"memory_id": memory_id, "rounds": rounds(memory_id[:1] + pet, pet)})
        assert status == 200 and out["stored"]["rounds_added"] == 2, (who, memory_id, out, server.log_tail(2000))
    for who, memory_id, pet in (("alice", "alice", "Biscuit"), ("alice", "alice/work", "Pixel"), ("bob", "bob", "Rex")):
        status, out = wait(server, who, "query", {"memory_id": memory_id, "question": "What is my puppy called?"})
        assert status == 200 and pet in out["answer"], (memory_id, out)

    before = rounds_of(server, "bob")
    attempts = [
        ("ingest", {"memory_id": "bob", "rounds": rounds("x", "Intruder")}),
        ("query", {"memory_id": "bob", "question": "What is my puppy called?"}),
        ("forget", {"memory_id": "bob", "everything": True}),
        ("ingest", {"memory_id": "alice-evil", "rounds": rounds("y", "Mallory")}),  # a prefix is no ownership
        ("query", {"memory_id": "bob/alice", "question": "anything"}),
    ]
    for graph, payload in attempts:
        status, body = wait(server, "alice", graph, payload)
        assert status == 403, (graph, payload["memory_id"], status, body)
        assert "is not yours" in json.dumps(body) and "alice" in json.dumps(body)
    assert rounds_of(server, "bob") == before == 2 and rounds_of(server, "alice-evil") == 0
    status, out = wait(server, "bob", "query", {"memory_id": "bob", "question": "What is my puppy called?"})
    assert status == 200 and "Rex" in out["answer"]

    # storage is the server's: a run cannot aim the graphs at another data directory
    status, body = http(server, "POST", "/runs/wait", {"assistant_id": "query", "context": {"home": "/tmp/elsewhere"},
                                                       "input": {"memory_id": "alice", "question": "hi"}}, key=KEYS["alice"])
    assert status == 403 and "home" in json.dumps(body)

    # alice forgets her own work memory and only that
    status, out = wait(server, "alice", "forget", {"memory_id": "alice/work", "everything": True})
    assert status == 200 and out["forgotten"]["rounds"] == 2
    assert rounds_of(server, "alice/work") == 0 and rounds_of(server, "alice") == 2 and rounds_of(server, "bob") == 2


def test_threads_and_runs_are_their_owners(server: Server) -> None:
    alice, bob = client(server, "alice"), client(server, "bob")
    thread = bob.threads.create()
    run = bob.runs.wait(thread["thread_id"], "query", input={"memory_id": "bob", "question": "What is my puppy called?"})
    assert "Rex" in run["answer"]
    bob_runs = bob.runs.list(thread["thread_id"])
    assert bob_runs and all(r["metadata"].get("owner") == "bob" for r in bob_runs)

    assert thread["thread_id"] not in {t["thread_id"] for t in alice.threads.search(limit=100)}
    assert thread["thread_id"] in {t["thread_id"] for t in bob.threads.search(limit=100)}
    tid = thread["thread_id"]
    assert status_of(lambda: alice.threads.get(tid)) == 404
    assert status_of(lambda: alice.threads.get_state(tid)) == 404  # bob's answer is in the state
    assert status_of(lambda: alice.runs.get(tid, bob_runs[0]["run_id"])) == 404
    assert status_of(lambda: alice.runs.wait(tid, "query", input={"memory_id": "alice", "question": "hi"})) == 404
    assert bob.threads.get_state(tid)["values"]["answer"] == run["answer"]  # untouched
    # everyone sees the deployed graphs, nobody may change them
    assert {"ingest", "query", "forget"} <= {a["graph_id"] for a in alice.assistants.search()}
    assert status_of(lambda: alice.assistants.create("query", config={"configurable": {}}, name="mine")) == 403


def status_of(call: Any) -> int:
    """The HTTP status a client call failed with (the SDK raises its own errors or httpx's)."""
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the status is what is asserted
        response = getattr(exc, "response", None)
        if response is None:
            raise
        return response.status_code
    return 200


def test_mcp_callers_are_their_keys_and_a_refusal_is_a_tool_error(server: Server) -> None:
    """The official MCP client over streamable HTTP: a missing or unknown key is refused with
    the REST API's reason, a caller works in their own memories, and another caller's memory id
    is a tool error naming the rule - never an HTTP 500 - with nothing read or written."""
    from adamm.tests.mcp_client import call, data, error, mcp_error

    url = server.url + "/mcp"
    for key, reason in ((None, "unauthorized: missing x-api-key header"), ("not-a-key", "unauthorized: unknown API key")):
        with pytest.raises(BaseException) as raised:  # noqa: PT011 - the client wraps it in task groups
            call(url, lambda c: c.list_tools(), key=key)
        found = mcp_error(raised.value)
        assert found is not None and found.message == reason, repr(raised.value)
    status, body = http(server, "POST", "/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                        accept="application/json, text/event-stream")
    assert status == 401 and body["detail"] == "missing x-api-key header"

    async def as_alice(c):
        stored = data(await c.call_tool("remember", {"memory_id": "alice/mcp", "rounds": rounds("m", "Nimbus")}))
        answer = data(await c.call_tool("ask", {"memory_id": "alice/mcp", "question": "What is my puppy called?"}))
        refused = [error(await c.call_tool(tool, {"memory_id": memory_id, **extra})) for tool, memory_id, extra in (
            ("forget", "bob", {"everything": True}),
            ("ask", "bob", {"question": "What is my puppy called?"}),
            ("remember", "alice-evil", {"rounds": rounds("z", "Mallory")}),
            ("rows", "bob/alice", {"table": "sleep_log"}),
        )]
        return stored, answer, refused

    bob_rounds = rounds("bRex", "Rex")  # what test_callers_use_their_own_memories stores: unchanged if it ran
    assert data(call(url, lambda c: c.call_tool("remember", {"memory_id": "bob", "rounds": bob_rounds}), key=KEYS["bob"]))
    before, tracebacks = rounds_of(server, "bob"), server.log_tail(10**7).count("Traceback")
    stored, answer, refused = call(url, as_alice, key=KEYS["alice"])
    assert stored["rounds_added"] == 2 and "Nimbus" in answer["answer"], (stored, answer)
    assert refused[0] == "memory_id 'bob' is not yours: alice may use 'alice' and 'alice/...' only"
    assert all("is not yours: alice may use" in reason for reason in refused), refused
    assert rounds_of(server, "bob") == before == 2 and rounds_of(server, "alice-evil") == 0
    assert rounds_of(server, "alice/mcp") == 2
    assert server.log_tail(10**7).count("Traceback") == tracebacks  # refusals are answers, not crashes

    bob = call(url, lambda c: c.call_tool("ask", {"memory_id": "bob", "question": "What is my puppy called?"}), key=KEYS["bob"])
    assert "Rex" in data(bob)["answer"]


def test_readme_key_examples_run_against_the_server(server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    """README's keyed SDK call and its MCP client configuration, as written but for the
    server's address and alice's real key: the SDK answers from alice's own memory, and the
    configuration's URL and headers are all an MCP client needs to list the tools."""
    import asyncio

    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    from adamm.tests.readme import blocks_tested_by, check_printed

    sdk, config = blocks_tested_by("test_readme_key_examples_run_against_the_server")
    assert (sdk.lang, config.lang) == ("python", "json")

    def as_written(text: str) -> str:
        assert "http://127.0.0.1:8123" in text and "<alice's key>" in text
        return text.replace("http://127.0.0.1:8123", server.url).replace("<alice's key>", KEYS["alice"])

    exec(compile(as_written(sdk.body), sdk.where, "exec"), {})  # noqa: S102 - README's own example
    check_printed(sdk, capsys.readouterr().out)

    (entry,) = json.loads(as_written(config.body))["mcpServers"].values()

    async def tools() -> list[str]:
        async with httpx2.AsyncClient(headers=entry["headers"], timeout=RUN_TIMEOUT) as http_client, \
                Client(streamable_http_client(entry["url"], http_client=http_client)) as client:
            return [t.name for t in (await client.list_tools()).tools]

    assert asyncio.run(tools()) == ["remember", "ask", "tables", "rows", "forget"]


# -- the rules themselves ------------------------------------------------------------------------


def test_key_settings_parse_strictly(tmp_path: Path) -> None:
    assert api_keys({}) is None
    assert api_keys({"ADAMM_API_KEYS": "k1:alice, k2:bob"}) == {"k1": "alice", "k2": "bob"}
    keyfile = tmp_path / "keys"
    keyfile.write_text("# team\nk1:alice\nk2:bob,k3:carol\n")
    assert api_keys({"ADAMM_API_KEYS_FILE": str(keyfile)}) == {"k1": "alice", "k2": "bob", "k3": "carol"}
    for bad, match in (("k1", "not 'key:identity'"), ("k1:", "not 'key:identity'"), ("k1:a/b", "may not contain"),
                       ("k1:alice,k1:bob", "two identities"), (" , ", "no keys")):
        with pytest.raises(ValueError, match=match):
            api_keys({"ADAMM_API_KEYS": bad})
    with pytest.raises(ValueError, match="not both"):
        api_keys({"ADAMM_API_KEYS": "k:a", "ADAMM_API_KEYS_FILE": str(keyfile)})
    with pytest.raises(ValueError, match="cannot read"):
        api_keys({"ADAMM_API_KEYS_FILE": str(tmp_path / "missing")})


def test_ownership_and_the_graphs_own_check() -> None:
    assert may_use("alice", "alice") and may_use("alice", "alice/work/2025")
    assert not may_use("alice", "alice-evil") and not may_use("alice", "bob") and not may_use("", "")
    as_alice = {"configurable": {"langgraph_auth_user": {"identity": "alice"}, "langgraph_auth_permissions": []}}
    check_caller("alice/work", as_alice)
    with pytest.raises(AccessError, match="'bob' is not yours: alice may use 'alice'"):
        check_caller("bob", as_alice)
    check_caller("bob", {"configurable": {}})  # no caller: a local run
    check_caller("bob", {"configurable": {"langgraph_auth_user": {"identity": "anonymous"},
                                          "langgraph_auth_permissions": ["adamm:open"]}})  # an open server


def test_a_host_graph_embedding_ours_keeps_the_guarantee(home) -> None:
    """Our ingest graph as a node of a host's graph, run with an authenticated caller in its
    config (as a LangGraph server would put it): the memory id is checked inside."""
    from typing_extensions import TypedDict

    from langgraph.graph import START, StateGraph

    from adamm.graphs.ingest import graph as ingest

    class Host(TypedDict, total=False):
        memory_id: str
        rounds: list[dict[str, Any]]

    host = StateGraph(Host)
    host.add_node("remember", ingest)
    host.add_edge(START, "remember")
    app = host.compile()
    as_alice = {"configurable": {"langgraph_auth_user": {"identity": "alice"}, "langgraph_auth_permissions": []}}
    app.invoke({"memory_id": "alice", "rounds": rounds("h", "Biscuit")}, config=as_alice)
    with pytest.raises(AccessError):
        app.invoke({"memory_id": "bob", "rounds": rounds("h", "Biscuit")}, config=as_alice)
    from adamm.nodes.backends import backends
    from adamm.nodes.context import Context

    sql = backends(Context()).sql
    assert len(sql.get_rounds("bob")) == 0 and len(sql.get_rounds("alice")) == 2
