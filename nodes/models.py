"""Model roles: resolving them, and the one place every model call goes through.

A role (``extractor``, ``describer``, ``planner``, ``answerer``, ``judge``) is ``rules`` - the
caller runs its built-in offline implementation - or ``"provider:model"``, built with
LangChain's ``init_chat_model``. Hosts and tests may also inject a ready chat model under a
name with ``register_model``; ``Context`` then accepts that name for any role.

Every call goes through ``invoke`` / ``ainvoke`` so that structured output, retries on invalid
output and the cost ledger are handled once, the same way, for every node. Nothing here logs
or puts in an error message a credential: errors name the role and the spec only.
"""

from __future__ import annotations

import inspect
import json
import logging
import os
import threading
import time
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, convert_to_messages
from langchain_core.prompt_values import PromptValue
from langchain_core.utils.json import parse_json_markdown
from pydantic import BaseModel, ValidationError

from .context import ROLES, RULES, ConfigError, Context
from .cost import CostEntry
from .registry import register_model, registered_models, unregister_model

log = logging.getLogger(__name__)

__all__ = [
    "ModelOutputError",
    "ModelUnavailableError",
    "ainvoke",
    "clear_model_cache",
    "invoke",
    "probe_servers",
    "register_model",
    "registered_models",
    "resolve_role",
    "unregister_model",
]

_lock = threading.Lock()
_cache: dict[tuple[str, str | None, float], BaseChatModel] = {}

#: How much of a validation error is echoed back to the model on a retry: enough to say what
#: is wrong, short enough not to swamp the prompt.
_MAX_ERROR_CHARS = 800


class ModelOutputError(RuntimeError):
    """A model gave nothing usable: its structured output still failed validation after every
    retry, or (``ModelUnavailableError``) its server did not answer.

    ``cost`` is the ledger entry of all the attempts made, marked ``fallbacks=1``: every caller
    goes on with its offline implementation (or a safe default) instead, and says so.
    """

    def __init__(self, message: str, *, cost: CostEntry, errors: list[str]) -> None:
        super().__init__(message)
        cost.fallbacks = 1
        self.cost = cost
        self.errors = errors


class ModelUnavailableError(ModelOutputError):
    """The model's server failed - unreachable, timed out, 429 or 5xx - after the client's own
    retries with backoff. A flaky server costs a round or a question its model, not the run."""


#: HTTP statuses a server may answer differently a moment later.
_TRANSIENT_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
#: Statuses of a request the server would not take (an unsupported ``response_format``, a
#: prompt over the context length): this call's model is lost, the server is not in doubt.
_REJECTED_STATUS = frozenset({400, 413, 422})

#: The structured-output methods, in the order ``structured_output="auto"`` tries them once a
#: server rejects the one before (llama.cpp and older vLLM builds lack ``json_schema``; some
#: servers have no tool calling).
STRUCTURED_METHODS = ("json_schema", "function_calling", "json_mode")
#: (spec, base URL) -> the method ``auto`` settled on after a rejection, for the whole process.
_settled: dict[tuple[str, str], str] = {}


def _status(exc: BaseException) -> int | None:
    for holder in (exc, getattr(exc, "response", None)):
        code = getattr(holder, "status_code", None)
        if isinstance(code, int) and code >= 400:  # a 200 whose body would not parse is no status
            return code
    return None


def _failure_kind(exc: BaseException) -> str | None:
    """``"transient"`` for a failure worth falling back from, ``"refused"`` for one that will
    not go away (a bad key, an unknown model), ``"rejected"`` for a request this server will
    not take, ``"invalid"`` for a reply cut off before its structured output was whole, None
    for anything else (a bug: re-raised)."""
    status = _status(exc)
    if status is not None:
        if status in _TRANSIENT_STATUS or status >= 500:
            return "transient"
        if status in (401, 403, 404):
            return "refused"
        if status in _REJECTED_STATUS:
            return "rejected"
        return None
    names = {cls.__name__ for cls in type(exc).__mro__}
    if isinstance(exc, ValidationError) or names & {"LengthFinishReasonError", "ContentFilterFinishReasonError"}:
        return "invalid"  # the client parsed the reply itself and it was not the schema, or it was cut off
    if names & {"APIConnectionError", "APITimeoutError", "TimeoutException", "TransportError",
                "ConnectionError", "TimeoutError", "RemoteProtocolError",
                "JSONDecodeError", "APIResponseValidationError"}:  # a truncated or garbled reply
        return "transient"
    return None


# -- registry and resolution ------------------------------------------------------------------


def clear_model_cache() -> None:
    """Forget built models (e.g. after changing provider credentials in the environment) and
    what the circuit breaker knows about their servers."""
    with _lock:
        _cache.clear()
        _breaker.clear()
        _settled.clear()
        _probed.clear()


#: A model whose server failed this many calls in a row is not called for ``BREAKER_SECONDS``:
#: a dead server would otherwise cost every round of a long ingest the client's full retries.
BREAKER_FAILURES = 3
BREAKER_SECONDS = 30.0
#: (role, spec, base URL) -> (consecutive unavailable calls, monotonic time until which it is skipped)
_breaker: dict[tuple[str, str, str], tuple[int, float]] = {}


def _breaker_open(key: tuple[str, str, str]) -> bool:
    with _lock:
        _, until = _breaker.get(key, (0, 0.0))
    return time.monotonic() < until


def _breaker_record(key: tuple[str, str, str], available: bool) -> None:
    with _lock:
        if available:
            _breaker.pop(key, None)
            return
        failures = _breaker.get(key, (0, 0.0))[0] + 1
        _breaker[key] = (failures, time.monotonic() + BREAKER_SECONDS if failures >= BREAKER_FAILURES else 0.0)


def _role_spec(ctx: Context, role: str) -> str:
    if role not in ROLES:
        raise ValueError(f"unknown model role {role!r} (roles: {', '.join(ROLES)})")
    return getattr(ctx, role)


def resolve_role(ctx: Context | Any, role: str) -> BaseChatModel | None:
    """The chat model for ``role``, or None when the role is ``rules``.

    Built models are cached per (spec, base URL, temperature): they hold HTTP clients, which are
    worth reusing across nodes and runs. Construction makes no network request, so an invalid
    role fails here - at start-up - as a ``ConfigError``, not in the middle of an ingestion.
    """
    ctx = Context.coerce(ctx)
    spec = _role_spec(ctx, role)
    if spec == RULES:
        return None
    key = (spec, ctx.model_base_url, ctx.model_temperature)
    registered = registered_models().get(spec)
    if registered is not None:
        return registered
    with _lock:
        if key not in _cache:
            _cache[key] = _build(role, spec, ctx)
        return _cache[key]


def _build(role: str, spec: str, ctx: Context) -> BaseChatModel:
    from langchain.chat_models import init_chat_model  # noqa: PLC0415 - heavy, only when used

    provider, _, model = spec.partition(":")  # model names may contain ':' (llama3:8b)
    extra: dict[str, Any] = {"timeout": ctx.model_timeout} if provider == "openai" else {}
    if provider == "openai" and ctx.model_base_url:
        extra["base_url"] = ctx.model_base_url
        if not os.environ.get("OPENAI_API_KEY"):
            # Local OpenAI-compatible servers ignore the key, but the client insists on one.
            extra["api_key"] = "not-needed"
    try:
        return init_chat_model(
            model, model_provider=provider, temperature=ctx.model_temperature, **extra
        )
    except Exception as exc:  # ImportError (package missing), credentials, bad arguments
        raise ConfigError(f"invalid {role}: cannot build model {spec!r}: {exc}") from exc


# -- start-up probe --------------------------------------------------------------------------------

#: Servers that answered a probe: (base URL, role spec) - probed once per process.
_probed: set[tuple[str, str]] = set()


def probe_servers(ctx: Context | Any, roles: Sequence[str] = ROLES) -> None:
    """Fail at start, with one line naming the role, when a role's model server cannot be
    reached or refuses the key - before a run stores anything - instead of falling back on
    every round of a long ingest. Asks each OpenAI-compatible server for its model list once
    per process; a server without that endpoint, or one that errs (a 5xx), is let through:
    calls to it still fall back one by one. Other providers and injected models are not probed.
    """
    ctx = Context.coerce(ctx)
    for role in roles:
        spec = _role_spec(ctx, role)
        if spec == RULES or spec in registered_models():  # injected models: the host's own business
            continue
        model = resolve_role(ctx, role)  # a model that cannot be built fails here already
        client = getattr(model, "root_client", None)
        key = (str(getattr(client, "base_url", "")), spec)
        if client is None or key in _probed:
            continue
        try:
            client.with_options(max_retries=0, timeout=min(ctx.model_timeout, 10.0)).models.list()
        except Exception as exc:  # noqa: BLE001 - sorted below; anything else lets the run start
            reason = " ".join(str(exc).split())[:200] or type(exc).__name__
            status = _status(exc)
            if status in (401, 403):
                raise ConfigError(f"invalid {role}: the model server {key[0]} refused the key ({status}): {reason}") from exc
            if status is None and _failure_kind(exc) == "transient":
                raise ConfigError(f"invalid {role}: the model server {key[0]} cannot be reached: {reason}") from exc
        with _lock:
            _probed.add(key)


# -- calls ----------------------------------------------------------------------------------------


def invoke(
    ctx: Context | Any,
    role: str,
    node: str,
    messages: Any,
    *,
    schema: type[BaseModel] | None = None,
) -> tuple[Any, CostEntry]:
    """Call the model of ``role`` on behalf of graph node ``node``.

    Returns ``(result, cost)``: the reply ``AIMessage``, or with ``schema`` a validated
    instance of it. Structured output that fails validation is retried up to
    ``ctx.model_max_retries`` times, with the error shown to the model; then
    ``ModelOutputError``. Every attempt is counted in ``cost``.
    """
    call = _Call(ctx, role, node, messages, schema)
    while True:
        try:
            out = call.runnable.invoke(call.next_messages())
        except Exception as exc:  # noqa: BLE001 - sorted by _failure_kind, anything else re-raised
            call.failed(exc)  # raises, unless another structured-output method is worth a try
            continue
        done, value = call.take(out)
        if done:
            return value, call.entry


async def ainvoke(
    ctx: Context | Any,
    role: str,
    node: str,
    messages: Any,
    *,
    schema: type[BaseModel] | None = None,
) -> tuple[Any, CostEntry]:
    """Async ``invoke``: same results, retries and ledger."""
    call = _Call(ctx, role, node, messages, schema)
    while True:
        try:
            out = await call.runnable.ainvoke(call.next_messages())
        except Exception as exc:  # noqa: BLE001 - sorted by _failure_kind, anything else re-raised
            call.failed(exc)  # raises, unless another structured-output method is worth a try
            continue
        done, value = call.take(out)
        if done:
            return value, call.entry


class _Call:
    """The state of one logical model call across its attempts (shared by sync and async)."""

    def __init__(
        self, ctx: Any, role: str, node: str, messages: Any, schema: type[BaseModel] | None
    ) -> None:
        ctx = Context.coerce(ctx)
        spec = _role_spec(ctx, role)
        if spec == RULES:
            raise ValueError(f"role {role!r} is {RULES!r}: run the offline implementation instead")
        model = resolve_role(ctx, role)
        assert model is not None
        self.breaker_key = (role, spec, ctx.model_base_url or "")
        self.entry = CostEntry(node=node, role=role, model=spec)
        if _breaker_open(self.breaker_key):  # its server failed again and again just now
            raise ModelUnavailableError(f"{role} ({spec}) skipped for node {node!r}: its server failed "
                                        f"{BREAKER_FAILURES} calls in a row", cost=self.entry, errors=["breaker open"])
        self.schema = schema
        self.max_attempts = 1 + ctx.model_max_retries if schema is not None else 1
        self.prompt = _as_messages(messages)
        self.errors: list[str] = []
        self.model = model
        self.method_key = (spec, ctx.model_base_url or "")
        self.auto = ctx.structured_output == "auto"
        # None: the model's own default method
        self.method: str | None = _settled.get(self.method_key) if self.auto else ctx.structured_output
        self.tried: list[str | None] = []
        self._structure()
        self.start = time.perf_counter()

    def _structure(self) -> None:
        """Set the runnable (and the prompt) for ``self.method``."""
        self.tried.append(self.method)
        self.runnable: Any = self.model
        self.structured = False  # True: the runnable returns {"raw", "parsed", "parsing_error"}
        self.messages = self.prompt
        if self.schema is None:
            return
        kwargs: dict[str, Any] = {"include_raw": True}
        if self.method is not None:
            if _default_method(self.model) is None:
                raise ConfigError(f"invalid structured_output: {self.entry.role} ({self.entry.model}) takes no "
                                  f"method; use structured_output='auto'")
            kwargs["method"] = self.method
        try:
            self.runnable = self.model.with_structured_output(self.schema, **kwargs)
            self.structured = True
        except NotImplementedError:
            pass  # a model without tool calling: parse JSON from the reply's content
        if self.method == "json_mode" or not self.structured:  # nothing carries the schema but the prompt
            self.messages = _with_schema(self.prompt, self.schema)

    def _next_method(self) -> str | None:
        """The next method ``auto`` may try after a rejection, if the model takes methods."""
        default = _default_method(self.model)
        if not self.auto or self.schema is None or default is None:
            return None
        tried = {default if m is None else m for m in self.tried}
        return next((m for m in STRUCTURED_METHODS if m not in tried), None)

    def next_messages(self) -> list[BaseMessage]:
        if not self.errors:
            return self.messages
        assert self.schema is not None
        fix = HumanMessage(
            f"Your previous reply did not match the required {self.schema.__name__} schema: "
            f"{self.errors[-1]}\nReply again with output that matches the schema exactly."
        )
        return [*self.messages, fix]

    def failed(self, exc: Exception) -> None:
        """A request that raised: a server that refuses us is a configuration error (one line
        naming the role); a flaky one costs this call its model (``ModelUnavailableError``); one
        that rejects this request (400/422) costs it its model too, unless ``auto`` has another
        structured-output method to try; a reply cut off at the length limit is retried like
        invalid output. Where this returns, the caller asks again."""
        self.entry.calls += 1
        self.entry.seconds = time.perf_counter() - self.start
        kind = _failure_kind(exc)
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        if kind == "rejected" and (method := self._next_method()) is not None:
            log.info("%s (%s): the server rejected structured output by %s (%s); using %s from now on",
                     self.entry.role, self.entry.model, self.tried[-1] or "the default method", reason, method)
            self.method = _settled[self.method_key] = method
            self._structure()
            return
        if kind == "invalid" and self.schema is not None:  # like output that fails validation
            self.errors.append(reason)
            if len(self.errors) < self.max_attempts:
                return
            raise ModelOutputError(f"{self.entry.role} ({self.entry.model}) gave no whole {self.schema.__name__} in "
                                   f"{self.entry.calls} attempt(s) for node {self.entry.node!r}: {reason}",
                                   cost=self.entry, errors=self.errors) from exc
        if kind in ("rejected", "invalid"):
            raise ModelOutputError(f"{self.entry.role} ({self.entry.model}): the server rejected the request of node "
                                   f"{self.entry.node!r}: {reason}", cost=self.entry, errors=[reason]) from exc
        if kind == "refused":
            raise ConfigError(f"invalid {self.entry.role}: the model server refused {self.entry.model!r} "
                              f"({_status(exc)}): {reason}") from exc
        if kind is None:
            raise exc
        _breaker_record(self.breaker_key, available=False)
        log.debug("%s/%s: model unavailable (%s); the node falls back", self.entry.node, self.entry.role, reason)
        raise ModelUnavailableError(f"{self.entry.role} ({self.entry.model}) unavailable for node "
                                    f"{self.entry.node!r}: {reason}", cost=self.entry, errors=[reason]) from exc

    def take(self, out: Any) -> tuple[bool, Any]:
        """Account for one attempt's output; ``(True, result)`` when done, else retry."""
        _breaker_record(self.breaker_key, available=True)
        raw = out["raw"] if self.structured else out
        usage = getattr(raw, "usage_metadata", None) or {}
        self.entry.calls += 1
        self.entry.tokens_in += int(usage.get("input_tokens") or 0)
        self.entry.tokens_out += int(usage.get("output_tokens") or 0)
        self.entry.seconds = time.perf_counter() - self.start
        if self.schema is None:
            return True, raw
        try:
            return True, self._parse(out, raw)
        except (ValidationError, ValueError) as exc:
            self.errors.append(str(exc)[:_MAX_ERROR_CHARS])
        if len(self.errors) < self.max_attempts:
            log.debug(
                "%s/%s: invalid %s output, retrying (%d/%d)", self.entry.node, self.entry.role,
                self.schema.__name__, len(self.errors), self.max_attempts - 1,
            )
            return False, None
        raise ModelOutputError(
            f"{self.entry.role} ({self.entry.model}) gave no valid {self.schema.__name__} in "
            f"{self.entry.calls} attempt(s) for node {self.entry.node!r}: {self.errors[-1]}",
            cost=self.entry,
            errors=self.errors,
        )

    def _parse(self, out: Any, raw: Any) -> BaseModel:
        assert self.schema is not None
        if self.structured:
            if out.get("parsing_error") is not None:
                raise ValueError(str(out["parsing_error"]))
            if out.get("parsed") is not None:
                return self.schema.model_validate(out["parsed"])
        # No tool call (or no tool calling at all): the JSON may be in the content instead.
        content = raw.text if isinstance(raw, AIMessage) else str(raw)
        if not content.strip():
            raise ValueError("the reply contained no structured output")
        try:
            data = parse_json_markdown(content)
        except Exception:  # noqa: BLE001 - any parser failure means "not JSON"
            raise ValueError(f"the reply is not JSON: {content[:200]!r}") from None
        return self.schema.model_validate(data)


def _default_method(model: BaseChatModel) -> str | None:
    """The structured-output method a model uses when asked for none, or None when its
    ``with_structured_output`` takes no method (the fake and many third-party chat models)."""
    param = inspect.signature(model.with_structured_output).parameters.get("method")
    return None if param is None else str(param.default)


def _with_schema(messages: list[BaseMessage], schema: type[BaseModel]) -> list[BaseMessage]:
    """The prompt with the schema written into its system message: in JSON mode (and for a
    model without tool calling) nothing else tells the model what shape to reply in."""
    rule = (f"Reply with one JSON object, and nothing else, that matches the JSON schema of {schema.__name__}:\n"
            f"{json.dumps(schema.model_json_schema(), separators=(',', ':'))}")
    if messages and isinstance(messages[0], SystemMessage):
        return [SystemMessage(f"{messages[0].text}\n\n{rule}"), *messages[1:]]
    return [SystemMessage(rule), *messages]


def _as_messages(messages: Any) -> list[BaseMessage]:
    """Accept what LangChain accepts: a string, a PromptValue, or a sequence of messages."""
    if isinstance(messages, str):
        return [HumanMessage(messages)]
    if isinstance(messages, PromptValue):
        return messages.to_messages()
    if isinstance(messages, BaseMessage):
        return [messages]
    if isinstance(messages, Sequence):
        return list(convert_to_messages(messages))
    raise TypeError(f"cannot use {type(messages).__name__} as model messages")
