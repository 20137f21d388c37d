"""The official ``mcp`` client for the tests, over streamable HTTP or in process.

``call(target, steps, key)`` opens one client session - to a URL (``.../mcp`` of a real
``langgraph dev``, with ``x-api-key`` when ``key`` is given) or, for the fast tests, straight
to ``adamm.mcp_server.server`` - runs ``steps(client)`` in it and returns what it returns.
``data(result)`` is a tool result's structured content, after checking that its text block is
the same JSON, which is what the server promises every client.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult

T = TypeVar("T")

#: Seconds a tool call may take: the first ``remember`` also loads the text encoder.
TIMEOUT = 300


@asynccontextmanager
async def connect(target: Any, key: str | None = None) -> AsyncIterator[Client]:
    if not isinstance(target, str):
        async with Client(target) as client:
            yield client
        return
    headers = {"x-api-key": key} if key else None
    async with httpx2.AsyncClient(headers=headers, timeout=TIMEOUT) as http, \
            Client(streamable_http_client(target, http_client=http)) as client:
        yield client


def call(target: Any, steps: Callable[[Client], Awaitable[T]], key: str | None = None) -> T:
    async def main() -> T:
        async with connect(target, key) as client:
            return await steps(client)

    return asyncio.run(main())


def data(result: CallToolResult) -> Any:
    """The structured content of a successful call, the same as its one JSON text block."""
    assert not result.is_error, result.content
    assert len(result.content) == 1 and result.content[0].type == "text"
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


def error(result: CallToolResult) -> str:
    """The one-line reason of a tool error."""
    assert result.is_error and result.structured_content is None, result
    (block,) = result.content
    assert "\n" not in block.text and "Traceback" not in block.text
    return block.text


def mcp_error(exc: BaseException) -> MCPError | None:
    """The ``MCPError`` inside what a failed connection raised (the client's task groups wrap it)."""
    if isinstance(exc, MCPError):
        return exc
    for inner in getattr(exc, "exceptions", ()):
        if (found := mcp_error(inner)) is not None:
            return found
    return None
