"""The six memory tools as LangChain tools, driven directly and by a host agent (``create_agent``).

The demo history has five sleep dashboards (an induced ``sleep_log`` table) and a few chats, so
every tool has an exact answer to check. The agent's model is scripted: what is under test is
the wiring a real model would rely on - the tool schemas bind, the ToolNode runs our tools,
and a wrong argument comes back as a message instead of failing the run.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.utils.function_calling import convert_to_openai_tool

from adamm.demo import DEMO_MEMORY, demo_rounds
from adamm.memory import Memory
from adamm.nodes.backends import reset_backends
from adamm.nodes.context import Context
from adamm.tools import TOOL_NAMES, memory_tools, tables_overview

# Deep sleep of the five demo nights (1:05, 1:20, 0:55, 1:15, 1:00) in hours.
DEEP_AVG = (65 + 80 + 55 + 75 + 60) / 5 / 60


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Context]:
    with pytest.MonkeyPatch.context() as mp:
        for key in list(os.environ):
            if key.startswith("ADAMM_") and not key.startswith("ADAMM_TEST_"):
                mp.delenv(key)
        reset_backends()
        context = Context(home=str(tmp_path_factory.mktemp("tools-home")))
        Memory(DEMO_MEMORY, context=context).ingest(demo_rounds())
        yield context
        reset_backends()


@pytest.fixture(scope="module")
def tools(ctx: Context) -> dict[str, Any]:
    return {t.name: t for t in memory_tools(DEMO_MEMORY, ctx)}


def run(tool: Any, args: dict[str, Any]) -> tuple[str, Any]:
    """Invoke as an agent's ToolNode does (a tool call), returning content and artifact."""
    msg = tool.invoke({"type": "tool_call", "id": "call-1", "name": tool.name, "args": args})
    assert isinstance(msg, ToolMessage)
    return msg.content, msg.artifact


def test_six_tools_with_schemas_a_model_can_bind(tools: dict[str, Any]) -> None:
    assert tuple(tools) == TOOL_NAMES
    for tool in tools.values():
        spec = convert_to_openai_tool(tool)["function"]
        assert spec["name"] == tool.name and len(spec["description"]) > 40
        props = spec["parameters"]["properties"]
        assert all(p.get("description") for p in props.values()), (tool.name, props)
    compute = convert_to_openai_tool(tools["Compute"])["function"]["parameters"]
    assert set(compute["required"]) == {"table", "target", "operator"}
    assert "median" in compute["properties"]["operator"]["enum"]


def test_analytic_tools_answer_exactly(tools: dict[str, Any]) -> None:
    content, data = run(tools["Compute"], {"table": "sleep", "target": "deep_sleep", "operator": "avg"})
    assert data["table"] == "sleep_log" and data["value"] == pytest.approx(DEEP_AVG)
    assert json.loads(content)["value"] == pytest.approx(DEEP_AVG)  # the model reads the same value
    assert len(data["sources"]) == 5

    _, data = run(tools["Lookup"], {"table": "sleep_log", "key_values": {"date": "2025-03-05"}})
    assert [r["source"] for r in data["rows"]] == ["sleep-2025-03-05"] and data["rows"][0]["sleep_score"] == 69

    _, data = run(tools["Filter"], {"table": "sleep_log", "column_filters": [{"column": "sleep_score", "op": ">", "value": 80}]})
    assert data["sources"] == ["sleep-2025-03-04", "sleep-2025-03-06"]

    _, data = run(tools["Rank"], {"table": "sleep_log", "target": "sleep - deep_sleep", "order": "asc", "result_budget": 1})
    assert data["sources"] == ["sleep-2025-03-05"]

    _, data = run(tools["Compute"], {"table": "sleep_log", "target": "*", "operator": "count",
                                     "column_filters": [{"column": "date", "op": "between", "value": ["2025-03-04", "2025-03-06"]}]})
    assert data["value"] == 3


def test_retrieval_tools_find_and_drill_down(tools: dict[str, Any]) -> None:
    _, units = run(tools["SemanticMatch"], {"query": "which museum in Lisbon", "result_budget": 3})
    assert units[0]["round_ids"] == ["chat-4"] and units[0]["level"] == "event"

    _, units = run(tools["SemanticMatch"], {"query": "sourdough starter", "scope": "topic", "result_budget": 1})
    topic = units[0]
    assert topic["level"] == "topic" and {"chat-1", "chat-2"} & set(topic["round_ids"])  # the sourdough rounds
    _, inside = run(tools["SemanticMatch"], {"query": "nail polish smell", "within": topic["node_id"], "result_budget": 5})
    assert inside and all(set(u["round_ids"]) <= set(topic["round_ids"]) for u in inside)

    _, events = run(tools["EventLocate"], {"query": "tram 28 up to Alfama", "result_budget": 1, "window": 1})
    assert events[0]["round_ids"] == ["chat-5"] and events[0]["image_ids"] == ["IMG_tram"]
    assert "chat-4" in [r["round_id"] for r in events[0]["context"]]

    # a time window: unbounded, the two Lisbon rounds (03-12, 03-13) come first; ending on 03-10
    # the budget is filled from the eight rounds before it, and none after; starting on 03-11
    # exactly the two Lisbon rounds are left
    _, anytime = run(tools["EventLocate"], {"query": "Lisbon", "result_budget": 5})
    assert {r for u in anytime[:2] for r in u["round_ids"]} == {"chat-4", "chat-5"}
    _, early = run(tools["EventLocate"], {"query": "Lisbon", "end": "2025-03-10", "result_budget": 5})
    assert len(early) == 5 and all(u["end"] < "2025-03-11" for u in early)
    assert not {r for u in early for r in u["round_ids"]} & {"chat-4", "chat-5"}
    _, late = run(tools["EventLocate"], {"query": "Lisbon", "start": "2025-03-11", "result_budget": 5})
    assert sorted(r for u in late for r in u["round_ids"]) == ["chat-4", "chat-5"]


def test_bad_arguments_come_back_as_messages(tools: dict[str, Any]) -> None:
    content, data = run(tools["Compute"], {"table": "nap_log", "target": "deep_sleep", "operator": "avg"})
    assert content.startswith("error: unknown table 'nap_log'") and "sleep_log" in content
    content, _ = run(tools["Compute"], {"table": "sleep_log", "target": "snoring", "operator": "avg"})
    assert content.startswith("error:") and "deep_sleep" in content  # lists the valid columns
    content = tools["SemanticMatch"].invoke({"query": "x", "result_budget": 0})
    assert content.startswith("error: invalid arguments") and "result_budget" in content
    content = tools["Compute"].invoke({"table": "sleep_log", "target": "deep_sleep", "operator": "mode"})
    assert content.startswith("error: invalid arguments") and "operator" in content and "median" in content
    content = tools["SemanticMatch"].invoke({"query": "x" * 5000})
    assert content.startswith("error: invalid arguments") and "query" in content
    content = tools["EventLocate"].invoke({"query": "x", "start": "last tuesday"})
    assert content.startswith("error:") and "start" in content


def test_async_agents_get_the_same_results(tools: dict[str, Any]) -> None:
    async def both() -> list[Any]:
        call = {"type": "tool_call", "id": "a1", "name": "Compute", "args": {"table": "sleep_log", "target": "deep_sleep", "operator": "max"}}
        bad = {"type": "tool_call", "id": "a2", "name": "Lookup", "args": {"table": "nap_log", "key_values": {"date": "2025-03-05"}}}
        return list(await asyncio.gather(tools["Compute"].ainvoke(call), tools["Lookup"].ainvoke(bad)))

    good, bad = asyncio.run(both())
    assert good.artifact["value"] == pytest.approx(80 / 60) and good.artifact["sources"] == ["sleep-2025-03-04"]
    assert bad.content.startswith("error: unknown table 'nap_log'")


def test_tools_are_bound_to_their_memory(ctx: Context) -> None:
    other = {t.name: t for t in memory_tools("someone-else", ctx)}
    content, _ = run(other["Compute"], {"table": "sleep_log", "target": "deep_sleep", "operator": "avg"})
    assert content == "error: unknown table 'sleep_log'; tables: (none)"
    assert run(other["SemanticMatch"], {"query": "Lisbon museum"})[1] == []
    assert "memory_id" not in convert_to_openai_tool(other["Lookup"])["function"]["parameters"]["properties"]
    assert tables_overview("someone-else", ctx) == "(no analytic tables yet)"
    assert tables_overview(DEMO_MEMORY, ctx).startswith("sleep_log (5 rows): deep_sleep [h] float")


class ScriptedModel(GenericFakeChatModel):
    """Replays fixed messages; ``bind_tools`` keeps the script (the fake has no tool support)
    but records what was bound, so the test sees the schemas an agent hands a real model."""

    bound: list[Any] = []

    def bind_tools(self, tools: Any, **kwargs: Any) -> "ScriptedModel":
        self.bound.extend(tools)
        return self


def test_an_agent_recovers_from_a_tool_error(ctx: Context) -> None:
    from langchain.agents import create_agent

    script = iter([
        AIMessage("", tool_calls=[{"id": "c1", "name": "Compute", "args": {"table": "naps", "target": "deep_sleep", "operator": "avg"}}]),
        AIMessage("", tool_calls=[{"id": "c2", "name": "Compute", "args": {"table": "sleep_log", "target": "deep_sleep", "operator": "avg"}}]),
        AIMessage("About 1.12 h of deep sleep per night."),
    ])
    model = ScriptedModel(messages=script)
    agent = create_agent(model, memory_tools(DEMO_MEMORY, ctx))
    out = agent.invoke({"messages": [HumanMessage("What was my average deep sleep?")]})

    assert {t.name for t in model.bound} == set(TOOL_NAMES)
    results = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in results] == ["c1", "c2"]
    assert results[0].content.startswith("error: unknown table 'naps'") and results[0].status == "success"
    assert results[1].artifact["value"] == pytest.approx(DEEP_AVG)
    assert out["messages"][-1].content == "About 1.12 h of deep sleep per night."
