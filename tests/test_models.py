"""Model roles, the model-call path and the cost ledger - offline, with langchain-core fakes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage
from pydantic import BaseModel

from adamm.nodes import models
from adamm.nodes.context import ConfigError, Context
from adamm.nodes.cost import CostEntry, summarize, timed
from adamm.nodes.models import ModelOutputError, ainvoke, invoke, register_model, resolve_role


class Reading(BaseModel):
    attribute: str
    value: float


class ToolFake(GenericFakeChatModel):
    """A fake that "supports" tool calling, so ``with_structured_output`` can be used.

    The replies carry the tool calls themselves; binding tools changes nothing. ``seen`` records
    the messages of every request, to check what a retry sends.
    """

    seen: list = []

    def bind_tools(self, tools, **kwargs):  # noqa: ANN001, ANN003, ARG002
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):  # noqa: ANN001, ANN003
        self.seen.append(list(messages))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


def usage(tokens_in: int, tokens_out: int) -> dict:
    return {"input_tokens": tokens_in, "output_tokens": tokens_out, "total_tokens": tokens_in + tokens_out}


def tool_reply(args: dict, tokens_in: int = 10, tokens_out: int = 5) -> AIMessage:
    return AIMessage(
        content="",
        tool_calls=[{"name": "Reading", "args": args, "id": "call_1", "type": "tool_call"}],
        usage_metadata=usage(tokens_in, tokens_out),
    )


def fake(replies: list[AIMessage | str], cls: type = ToolFake) -> GenericFakeChatModel:
    return cls(messages=iter(replies))


@pytest.fixture(autouse=True)
def clean_registry() -> Iterator[None]:
    yield
    for name in models.registered_models():
        models.unregister_model(name)
    models.clear_model_cache()


def ctx_with(model, **kw) -> Context:  # noqa: ANN001
    register_model("fake:m1", model)
    return Context(extractor="fake:m1", **kw)


# -- resolution ---------------------------------------------------------------------------------


def test_resolve_role_rules_is_none() -> None:
    assert resolve_role(Context(), "extractor") is None


def test_resolve_role_builds_openai_with_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    from langchain_openai import ChatOpenAI

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    ctx = Context(planner="openai:gpt-4o-mini", model_base_url="http://127.0.0.1:9/v1")
    model = resolve_role(ctx, "planner")
    assert isinstance(model, ChatOpenAI)
    assert model.model_name == "gpt-4o-mini"
    assert model.openai_api_base == "http://127.0.0.1:9/v1"
    assert model.temperature == 0.0
    assert model.openai_api_key.get_secret_value() == "not-needed"
    assert resolve_role(ctx, "planner") is model  # cached
    other = resolve_role(ctx.replace(model_temperature=0.5), "planner")
    assert other is not model and other.temperature == 0.5


def test_unknown_provider_names_the_field() -> None:
    with pytest.raises(ConfigError, match="invalid judge: unknown provider 'nope'"):
        Context(judge="nope:x")


def test_construction_failure_is_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    ctx = Context(answerer="openai:gpt-4o-mini")  # no key, no base URL: the client refuses
    with pytest.raises(ConfigError, match=r"invalid answerer: cannot build model 'openai:gpt-4o-mini'"):
        resolve_role(ctx, "answerer")


def test_registered_model_is_accepted_and_resolved() -> None:
    model = fake([])
    ctx = ctx_with(model)
    assert resolve_role(ctx, "extractor") is model
    models.unregister_model("fake:m1")
    with pytest.raises(ConfigError, match="invalid extractor"):
        Context(extractor="fake:m1")


def test_rules_role_cannot_be_invoked() -> None:
    with pytest.raises(ValueError, match="offline"):
        invoke(Context(), "extractor", "extract", "hi")


# -- calls and the ledger -----------------------------------------------------------------------


def test_invoke_records_cost() -> None:
    ctx = ctx_with(fake([AIMessage(content="hello", usage_metadata=usage(12, 3))]))
    reply, entry = invoke(ctx, "extractor", "extract", [HumanMessage("hi")])
    assert reply.content == "hello"
    assert (entry.node, entry.role, entry.model) == ("extract", "extractor", "fake:m1")
    assert (entry.calls, entry.tokens_in, entry.tokens_out) == (1, 12, 3)
    assert entry.seconds > 0


def test_missing_usage_counts_zero_tokens() -> None:
    ctx = ctx_with(fake(["no usage here"]))
    _, entry = invoke(ctx, "extractor", "extract", "hi")
    assert (entry.calls, entry.tokens_in, entry.tokens_out) == (1, 0, 0)


def test_structured_retry_then_valid() -> None:
    model = fake([tool_reply({"attribute": "weight"}, 10, 5), tool_reply({"attribute": "weight", "value": 71.5}, 20, 7)])
    ctx = ctx_with(model)
    result, entry = invoke(ctx, "extractor", "extract", "I weigh 71.5 kg", schema=Reading)
    assert result == Reading(attribute="weight", value=71.5)
    assert (entry.calls, entry.tokens_in, entry.tokens_out) == (2, 30, 12)
    retry = model.seen[1]
    assert len(retry) == 2 and "did not match the required Reading schema" in retry[-1].content
    assert "value" in retry[-1].content  # the validation error is shown to the model


def test_structured_always_invalid_raises_after_retries() -> None:
    bad = [tool_reply({"attribute": "weight", "value": "heavy"}) for _ in range(5)]
    model = fake(bad)
    ctx = ctx_with(model, model_max_retries=2)
    with pytest.raises(ModelOutputError) as info:
        invoke(ctx, "extractor", "extract", "hi", schema=Reading)
    assert len(model.seen) == 3
    assert (info.value.cost.calls, info.value.cost.tokens_in) == (3, 30)
    assert len(info.value.errors) == 3


def test_structured_from_json_content() -> None:
    # A reply with no tool call but JSON content (some local servers), fenced or not.
    reply = AIMessage(content='```json\n{"attribute": "steps", "value": 9000}\n```', usage_metadata=usage(4, 2))
    ctx = ctx_with(fake([reply]))
    result, entry = invoke(ctx, "extractor", "extract", "hi", schema=Reading)
    assert result == Reading(attribute="steps", value=9000)
    assert entry.calls == 1


def test_structured_without_tool_calling_parses_content() -> None:
    # GenericFakeChatModel has no bind_tools: with_structured_output is not available at all.
    replies = ["not json", json.dumps({"attribute": "sleep", "value": 7})]
    ctx = ctx_with(fake(replies, cls=GenericFakeChatModel))
    result, entry = invoke(ctx, "extractor", "extract", "hi", schema=Reading)
    assert result == Reading(attribute="sleep", value=7) and entry.calls == 2


def test_ainvoke() -> None:
    model = fake([tool_reply({"attribute": "w"}), tool_reply({"attribute": "w", "value": 1}, 3, 4)])
    ctx = ctx_with(model)
    result, entry = asyncio.run(ainvoke(ctx, "extractor", "extract", "hi", schema=Reading))
    assert result.value == 1
    assert (entry.calls, entry.tokens_in, entry.tokens_out) == (2, 13, 9)

    ctx = ctx_with(fake([AIMessage(content="ok", usage_metadata=usage(1, 1))]))
    reply, entry = asyncio.run(ainvoke(ctx, "extractor", "extract", "hi"))
    assert reply.content == "ok" and entry.calls == 1 and entry.seconds > 0


# -- cost ledger -------------------------------------------------------------------------------


def test_cost_entry_round_trip() -> None:
    entry = CostEntry("extract", "extractor", "openai:gpt-4o-mini", calls=2, tokens_in=30, tokens_out=12, seconds=0.5)
    data = json.loads(json.dumps(entry.to_dict()))
    assert CostEntry.from_dict(data) == entry


def test_timed_fills_seconds() -> None:
    with timed("extract") as entry:
        sum(range(1000))
    assert entry.node == "extract" and entry.role is None and entry.seconds > 0


def test_summarize_by_node_and_role() -> None:
    entries = [
        CostEntry("extract", None, None, seconds=2.0),  # the node's wall time
        CostEntry("execute", None, None, seconds=0.0, rounds_read=3),
        CostEntry("execute", None, None, seconds=0.0, rounds_read=2),
        CostEntry("extract", "extractor", "m", calls=2, tokens_in=30, tokens_out=12, seconds=1.5),
        CostEntry("describe", "describer", "m", calls=1, tokens_in=5, tokens_out=5, seconds=0.5).to_dict(),
        CostEntry("plan", "planner", "m", calls=1, tokens_in=7, tokens_out=1, seconds=0.25, fallbacks=1),
        CostEntry("answer", "planner", "m", calls=1, tokens_in=3, tokens_out=2, seconds=0.25),
    ]
    s = summarize(entries)
    assert (s["calls"], s["tokens_in"], s["tokens_out"]) == (5, 45, 20)
    assert s["seconds"] == pytest.approx(3.0)  # 2.0 wall + untimed nodes' model time 1.0
    assert s["model_seconds"] == pytest.approx(2.5)
    assert s["by_node"]["extract"] == {
        "calls": 2, "tokens_in": 30, "tokens_out": 12, "seconds": 2.0, "model_seconds": 1.5, "rounds_read": 0,
        "fallbacks": 0,
    }
    assert s["fallbacks"] == 1 and s["by_role"]["planner"]["fallbacks"] == 1 and s["by_node"]["plan"]["fallbacks"] == 1
    assert s["rounds_read"] == 5 and s["by_node"]["execute"]["rounds_read"] == 5
    assert s["by_role"]["planner"]["calls"] == 2
    assert s["by_role"]["planner"]["tokens_in"] == 10
    assert set(s["by_role"]) == {"extractor", "describer", "planner"}
    assert summarize([])["calls"] == 0
