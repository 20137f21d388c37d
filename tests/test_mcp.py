"""adamm's MCP server (``mcp_server.py``) with the official ``mcp`` client, in process: the
tools' schemas, results and errors. The same server behind a real ``langgraph dev`` over
streamable HTTP, open and with API keys, is in ``test_server.py`` and ``test_auth_server.py``."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from adamm.demo import demo_rounds
from adamm.mcp_server import TOOLS, server
from adamm.tests.mcp_client import call, data, error, mcp_error
from adamm.tests.servers import REPO

PUPPY = {"round_id": "p1", "session_id": "chat", "timestamp": "2025-03-02T09:00:00",
         "user_text": "We adopted a beagle puppy and named him Biscuit.", "assistant_text": "Congratulations!"}


def rounds() -> list[dict]:
    return [PUPPY] + [r.model_dump(mode="json", exclude_none=True) for r in demo_rounds()]


def test_langgraph_json_mounts_the_app_in_place_of_the_generic_endpoint() -> None:
    config = json.loads((REPO / "langgraph.json").read_text())
    assert config["http"]["disable_mcp"] is True
    path, name = config["http"]["app"].split(":")
    # the server loads the file by its path, under a module name outside sys.modules
    spec = importlib.util.spec_from_file_location("user_router_module", REPO / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from starlette.applications import Starlette

    app = getattr(module, name)
    assert isinstance(app, Starlette) and [r.path for r in app.routes] == ["/mcp"]


def test_tools_have_typed_input_and_output_schemas(home: Path) -> None:
    listed = call(server, lambda c: c.list_tools()).tools
    tools = {t.name: t for t in listed}
    assert list(tools) == ["remember", "ask", "tables", "rows", "forget"]
    for tool in listed:
        assert tool.input_schema["required"][0] == "memory_id" and tool.input_schema["additionalProperties"] is False
        assert tool.output_schema and tool.output_schema["type"] == "object" and "Example:" in tool.description
    remember = tools["remember"].input_schema
    round_schema = remember["$defs"]["Round"]
    assert {"round_id", "session_id", "timestamp", "user_text", "assistant_text", "images"} <= set(round_schema["properties"])
    assert round_schema["required"] == ["round_id"] and "image_id" in remember["$defs"]["ImageRef"]["properties"]
    assert tools["ask"].input_schema["required"] == ["memory_id", "question"]
    assert {"answer", "citations", "evidence"} == set(tools["ask"].output_schema["properties"])
    assert tools["ask"].annotations.read_only_hint and tools["forget"].annotations.destructive_hint
    assert set(TOOLS) == set(tools)


def test_results_are_structured_and_the_same_json_as_text(home: Path) -> None:
    async def steps(c):
        stored = data(await c.call_tool("remember", {"memory_id": "ada", "rounds": rounds()}))
        again = data(await c.call_tool("remember", {"memory_id": "ada", "rounds": [PUPPY]}))
        answer = data(await c.call_tool("ask", {"memory_id": "ada", "question": "What did we name the beagle puppy?"}))
        tables = data(await c.call_tool("tables", {"memory_id": "ada"}))
        rows = data(await c.call_tool("rows", {"memory_id": "ada", "table": "sleep_log", "limit": 2}))
        forgot = data(await c.call_tool("forget", {"memory_id": "ada", "session_id": "chat"}))
        after = data(await c.call_tool("ask", {"memory_id": "ada", "question": "What did we name the beagle puppy?"}))
        return stored, again, answer, tables, rows, forgot, after

    stored, again, answer, tables, rows, forgot, after = call(server, steps)
    assert (stored["memory_id"], stored["rounds_added"], stored["counts"]["table_rows"]) == ("ada", 11, 5)
    assert (again["rounds_added"], again["rounds_unchanged"]) == (0, 1)
    assert "Biscuit" in answer["answer"] and answer["citations"] == [{"round_id": "p1", "image_ids": []}]
    assert "p1" in answer["evidence"][0]["round_ids"]
    (table,) = tables["tables"]
    assert table["name"] == "sleep_log" and table["row_count"] == 5
    assert {"name": "deep_sleep", "type": "float", "unit": "h"} in table["columns"]
    assert (rows["row_count"], len(rows["rows"])) == (5, 2) and rows["rows"][0]["source"] == "sleep-2025-03-03"
    assert forgot["rounds"] == 1 and forgot["memory_id"] == "ada"
    assert after["citations"] == [] and "Biscuit" not in after["answer"]


@pytest.mark.parametrize(("tool", "arguments", "reason"), [
    ("ask", {"memory_id": "ada"}, "question: Field required"),
    ("ask", {"memory_id": "ada", "question": "hi", "memoryid": "x"}, "memoryid: Extra inputs are not permitted"),
    ("ask", {"question": "hi"}, "memory_id: Field required"),
    ("ask", {"memory_id": "", "question": "hi"}, "memory_id: must be a non-empty string"),
    ("remember", {"memory_id": "ada", "rounds": [{"user_text": "hi"}]}, "rounds.0.round_id: Field required"),
    ("remember", {"memory_id": "ada", "rounds": [{"round_id": "r1", "timestamp": "someday"}]}, "rounds.0.timestamp:"),
    ("remember", {"memory_id": "ada", "rounds": []}, "rounds: List should have at least 1 item"),
    ("rows", {"memory_id": "ada", "table": "sleeplog"}, "table: unknown table 'sleeplog'; this memory has: no tables yet"),
    ("forget", {"memory_id": "ada"}, "forget: name exactly one of round ids, a session or everything"),
    ("forget", {"memory_id": "ada", "round_ids": ["r1"], "everything": True}, "forget: name exactly one"),
])
def test_bad_arguments_are_tool_errors_with_a_one_line_reason(home: Path, tool: str, arguments: dict, reason: str) -> None:
    result = call(server, lambda c: c.call_tool(tool, arguments))
    assert error(result).startswith(reason), error(result)


def test_an_unknown_tool_is_a_protocol_error_listing_the_tools(home: Path) -> None:
    with pytest.raises(BaseException) as raised:  # noqa: PT011 - the client wraps it in task groups
        call(server, lambda c: c.call_tool("query", {"memory_id": "ada", "question": "hi"}))
    found = mcp_error(raised.value)
    assert found is not None and found.message == "unknown tool 'query'; tools: remember, ask, tables, rows, forget"


def test_with_keys_a_call_without_a_request_is_refused(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No HTTP request, no key: with keys set the tools fail closed (the server's route
    authenticates every request before a tool sees it)."""
    monkeypatch.setenv("ADAMM_API_KEYS", "k1:alice")
    result = call(server, lambda c: c.call_tool("remember", {"memory_id": "alice", "rounds": [PUPPY]}))
    assert error(result) == "missing x-api-key header"
    monkeypatch.delenv("ADAMM_API_KEYS")
    assert data(call(server, lambda c: c.call_tool("tables", {"memory_id": "alice"}))) == {"memory_id": "alice", "tables": []}
