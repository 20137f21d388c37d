"""adamm's MCP server: memory tools made for agents, served at ``/mcp`` by the LangGraph server.

``langgraph.json`` mounts ``app`` (``"http": {"app": "./graphs/mcp_app.py:app", "disable_mcp": true}``),
so ``langgraph dev`` / ``langgraph up`` serve it next to the REST API. The server's own MCP
endpoint is switched off: it lists each graph as a tool but answers with the Python ``repr`` of
the run's output in one text block, has no output schemas, reports a bad argument as the bare
exception name and an auth refusal as an HTTP 500. Here every tool has

- an input schema (a round's fields included) and an output schema;
- a result that is both structured content and the same JSON as a text block;
- errors as tool errors (``isError``) with a one-line reason that names the argument, or the
  ownership rule for another caller's memory id - never an HTTP error for a refused call.

Callers are the identities of ``graphs/auth.py``: its ``authenticate`` runs on every request
(a missing or unknown ``x-api-key`` is 401, as on the REST API), and a tool may only name
memory ids its caller owns (``nodes/access.py``). Without ``ADAMM_API_KEYS`` the server is
open, as the REST API is.

The tools call the ``Memory`` facade, i.e. the same compiled graphs and stores a run uses, in
this process; nothing here decides what is stored or answered. The transport is stateless
with JSON responses, so any worker behind a load balancer can answer any request.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import mcp.types as types
from langgraph_sdk import Auth
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

# The graphs are imported (and compiled) here, when the server loads the app, and not on the
# first call: the development server rejects blocking file reads inside its event loop.
import adamm.graphs.ingest  # noqa: F401
import adamm.graphs.query  # noqa: F401
from adamm.graphs.auth import authenticate
from adamm.memory import Citation, Memory, TableInfo
from adamm.nodes.access import api_keys, check_caller
from adamm.nodes.forget import ForgetReport
from adamm.stores.records import Round

__all__ = ["app", "server", "TOOLS"]

log = logging.getLogger(__name__)

#: The ASGI scope key under which the authenticated caller travels to the tools.
_CALLER = "adamm.caller"

# -- arguments ------------------------------------------------------------------------------------


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")

    memory_id: str = Field(description="Whose memory. With API keys: your identity or one under it "
                                       "('alice', 'alice/work'). Any non-empty string on an open server.")


class RememberArgs(_Args):
    rounds: list[Round] = Field(min_length=1, description="Conversation rounds to remember, oldest first. "
                                "Re-sending a round (same round_id) updates it; an unchanged one is skipped.")


class QueryImage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str | None = None
    data: str | None = Field(default=None, description="the image as base64")
    path: str | None = Field(default=None, description="a file on the server")
    caption: str | None = None


class AskArgs(_Args):
    question: str = Field(min_length=1)
    now: str | None = Field(default=None, description="ISO 8601 time that 'last week', 'yesterday' ... are "
                            "resolved against; default: the memory's newest round")
    image: QueryImage | None = Field(default=None, description="an image the question is about")


class RowsArgs(_Args):
    table: str = Field(min_length=1, description="a table name from the tables tool")
    limit: int = Field(default=100, ge=1, le=10_000, description="at most this many rows, oldest first")


class ForgetArgs(_Args):
    round_ids: list[str] | None = Field(default=None, description="forget these rounds")
    session_id: str | None = Field(default=None, description="forget every round of this session")
    everything: bool = Field(default=False, description="forget the whole memory")


# -- results --------------------------------------------------------------------------------------


class RememberResult(BaseModel):
    memory_id: str
    rounds_added: int
    rounds_updated: int
    rounds_unchanged: int
    counts: dict[str, int] = Field(description="everything the ingest graph counted: units_indexed, "
                                   "table_rows, events ...")


class AskResult(BaseModel):
    answer: str
    citations: list[Citation] = Field(description="the rounds (and images of them) the answer rests on")
    evidence: list[dict[str, Any]] = Field(description="what the answerer saw, best first: unit_id, kind "
                                           "(row, aggregate, event, episode, topic, round), text, round_ids, image_ids")


class TablesResult(BaseModel):
    memory_id: str
    tables: list[TableInfo]


class RowsResult(BaseModel):
    memory_id: str
    table: str
    row_count: int = Field(description="rows in the table (rows holds at most limit of them)")
    rows: list[dict[str, Any]] = Field(description="oldest first: source (round id), order, time, "
                                       "observed_at, captions and the column values")


# -- the tools ------------------------------------------------------------------------------------


async def _remember(mem: Memory, args: RememberArgs) -> RememberResult:
    report = await mem.aingest(args.rounds)
    return RememberResult(memory_id=report.memory_id, rounds_added=report.rounds_added,
                          rounds_updated=report.rounds_updated, rounds_unchanged=report.rounds_unchanged,
                          counts=report.counts)


async def _ask(mem: Memory, args: AskArgs) -> AskResult:
    image = args.image.model_dump(exclude_none=True) if args.image else None
    ans = await mem.aask(args.question, now=args.now, image=image)
    return AskResult(answer=ans.answer, citations=list(ans.citations), evidence=ans.evidence)


async def _tables(mem: Memory, args: _Args) -> TablesResult:
    return TablesResult(memory_id=mem.memory_id, tables=await mem.atables())


async def _rows(mem: Memory, args: RowsArgs) -> RowsResult:
    known = [t.name for t in await mem.atables()]
    if args.table not in known:
        raise ValueError(f"table: unknown table {args.table!r}; this memory has: {', '.join(known) or 'no tables yet'}")
    rows = await mem.arows(args.table)
    return RowsResult(memory_id=mem.memory_id, table=args.table, row_count=len(rows), rows=rows[:args.limit])


async def _forget(mem: Memory, args: ForgetArgs) -> ForgetReport:
    return await mem.aforget(args.round_ids, args.session_id, args.everything)


@dataclass(frozen=True)
class McpTool:
    name: str
    title: str
    description: str
    args: type[_Args]
    result: TypeAdapter[Any]
    run: Callable[[Memory, Any], Awaitable[Any]]
    annotations: types.ToolAnnotations

    def definition(self) -> types.Tool:
        return types.Tool(name=self.name, title=self.title, description=self.description,
                          input_schema=self.args.model_json_schema(),
                          output_schema=self.result.json_schema(mode="serialization"),
                          annotations=self.annotations)


TOOLS: dict[str, McpTool] = {tool.name: tool for tool in (
    McpTool("remember", "Remember conversation rounds",
            "Store conversation rounds in a long-term memory. Numbers the user logs (sleep, weight, spending ...) "
            "become rows of SQL tables; every round becomes searchable by meaning and time. Example: "
            '{"memory_id": "alice", "rounds": [{"round_id": "r1", "timestamp": "2025-03-01T08:00:00", '
            '"user_text": "I slept 7.5 hours"}]}. Returns counts of what was stored and derived.',
            RememberArgs, TypeAdapter(RememberResult), _remember,
            types.ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)),
    McpTool("ask", "Ask the memory",
            "Answer a question from a long-term memory, with citations to the rounds it used. Exact figures "
            "('average sleep in March', 'most expensive purchase') are computed from the memory's tables; other "
            "questions are answered from the conversation history. Example: "
            '{"memory_id": "alice", "question": "What was my average sleep last week?"}.',
            AskArgs, TypeAdapter(AskResult), _ask,
            types.ToolAnnotations(read_only_hint=True, open_world_hint=False)),
    McpTool("tables", "List the memory's tables",
            "The SQL tables the memory has built from logged values: name, description, columns (name, type, "
            'unit) and row count. Example: {"memory_id": "alice"}.',
            _Args, TypeAdapter(TablesResult), _tables,
            types.ToolAnnotations(read_only_hint=True, open_world_hint=False)),
    McpTool("rows", "Read a table's rows",
            "The rows of one of the memory's tables, oldest first, each with the round it came from. Example: "
            '{"memory_id": "alice", "table": "sleep_log", "limit": 20}.',
            RowsArgs, TypeAdapter(RowsResult), _rows,
            types.ToolAnnotations(read_only_hint=True, open_world_hint=False)),
    McpTool("forget", "Forget rounds",
            "Delete rounds from a long-term memory with everything derived from them (table rows, search index, "
            "summaries). Name exactly one of round_ids, session_id or everything: true. Ids the memory does not "
            'hold are ignored. Example: {"memory_id": "alice", "round_ids": ["r1"]}. Returns counts of what was removed.',
            ForgetArgs, TypeAdapter(ForgetReport), _forget,
            types.ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)),
)}


# -- protocol handlers ----------------------------------------------------------------------------


async def _list_tools(ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[tool.definition() for tool in TOOLS.values()])


async def _call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    tool = TOOLS.get(params.name)
    if tool is None:  # a protocol error, as the specification has it for an unknown tool
        raise MCPError(types.INVALID_PARAMS, f"unknown tool {params.name!r}; tools: {', '.join(TOOLS)}")
    try:
        args = tool.args.model_validate(params.arguments or {})
        mem = Memory(args.memory_id)
        check_caller(mem.memory_id, await _caller_config(ctx))
        out = await tool.run(mem, args)
    except ValidationError as exc:
        return _tool_error(_first_error(exc))
    except (ValueError, TypeError, PermissionError) as exc:  # bad input, refused ids, unknown tables
        return _tool_error(str(exc))
    except Exception as exc:  # noqa: BLE001 - a tool call answers; the traceback goes to the server log
        log.exception("MCP tool %s failed", tool.name)
        return _tool_error(f"{type(exc).__name__}: {exc}")
    data = tool.result.dump_python(out, mode="json")
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
                                structured_content=data)


def _tool_error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=" ".join(message.split()))], is_error=True)


def _first_error(exc: ValidationError) -> str:
    """``rounds.0.round_id: Field required`` - the first problem, on one line, and how many more."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    where = ".".join(str(p) for p in first["loc"]) or "arguments"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first['msg']}{more}"


async def _caller_config(ctx: ServerRequestContext[Any]) -> dict[str, Any]:
    """The caller as a run's config carries it, for ``check_caller``: the user that
    ``_Authenticated`` put in the request, else (no HTTP request: an in-process client) the
    one ``authenticate`` makes of no headers - anonymous on an open server, refused with keys."""
    request = ctx.request
    user = request.scope.get(_CALLER) if request is not None and hasattr(request, "scope") else None
    if user is None:
        try:
            user = await authenticate({})
        except Auth.exceptions.HTTPException as exc:
            raise PermissionError(exc.detail) from None
    return {"configurable": {"langgraph_auth_user": user, "langgraph_auth_permissions": user.get("permissions", [])}}


server: Server[Any] = Server(
    "adamm",
    title="adamm long-term memory",
    instructions="A long-term memory of conversations. remember stores rounds; ask answers questions with "
                 "citations; tables and rows show the SQL tables built from logged values; forget deletes rounds. "
                 "Every tool takes the memory_id to work on.",
    on_list_tools=_list_tools,
    on_call_tool=_call_tool,
)


# -- HTTP -----------------------------------------------------------------------------------------


class _Authenticated:
    """ASGI wrapper: ``graphs/auth.py``'s ``authenticate`` on every request, else the caller in
    the scope for the tools. A refusal keeps the REST API's status (401) and ``detail``, and is
    also a JSON-RPC error, which MCP clients show (``MCPError: unauthorized: missing x-api-key
    header``) instead of a bare "Server returned an error response"."""

    def __init__(self, inner: Any):
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            user = await authenticate(dict(scope.get("headers") or []))
        except Auth.exceptions.HTTPException as exc:
            body = {"jsonrpc": "2.0", "id": None, "detail": exc.detail,
                    "error": {"code": types.INVALID_REQUEST, "message": f"unauthorized: {exc.detail}"}}
            await JSONResponse(body, status_code=exc.status_code)(scope, receive, send)
            return
        await self.inner({**scope, _CALLER: dict(user)}, receive, send)


def _transport_security() -> TransportSecuritySettings:
    """An open server answers only requests addressed to localhost (no DNS rebinding from a web
    page); with API keys every request is authenticated and the deployment's host name is free."""
    try:
        keyed = api_keys() is not None
    except ValueError:  # reported on every request by authenticate
        keyed = True
    if keyed:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                     allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
                                     allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"])


_sessions = StreamableHTTPSessionManager(app=server, json_response=True, stateless=True,
                                         security_settings=_transport_security())

#: The Starlette app ``langgraph.json`` mounts: one route, ``/mcp``, and the session manager's lifespan.
app = Starlette(routes=[Route("/mcp", endpoint=_Authenticated(StreamableHTTPASGIApp(_sessions)), methods=["GET", "POST", "DELETE"])],
                lifespan=lambda _app: _sessions.run())
