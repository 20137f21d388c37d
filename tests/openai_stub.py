"""A scripted OpenAI-compatible server on a loopback port, for tests of the model path over HTTP.

It speaks ``/v1/chat/completions`` and ``/v1/models`` the way vLLM and Ollama do: structured
output by ``response_format`` (``json_schema`` / ``json_object``) or by tool calls, and
``usage`` in every reply. What it answers is a script: per schema name (the structured output
the client asked for), a JSON payload or a function of the request that returns one; ``fault`` makes every request fail instead (``500``,
``429``, ``401``, ``slow``, ``malformed``). Every request is recorded.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class OpenAIStub:
    def __init__(self, script: dict[str, Any] | None = None, fault: str | None = None, delay: float = 0.0):
        self.script = dict(script or {})
        self.fault = fault
        self.delay = delay
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _send(self, status: int, payload: Any, raw: bytes | None = None) -> None:
                body = raw if raw is not None else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": "stub", "object": "model"}]})
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with stub._lock:
                    stub.requests.append(body)
                status, payload, raw = stub.reply(body)
                self._send(status, payload, raw)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "OpenAIStub":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- replies ----------------------------------------------------------------------------------

    def reply(self, body: dict[str, Any]) -> tuple[int, Any, bytes | None]:
        if self.delay:
            time.sleep(self.delay)
        if self.fault in ("500", "429", "401"):
            return int(self.fault), {"error": {"message": f"scripted {self.fault}", "type": "stub"}}, None
        if self.fault == "malformed":
            return 200, None, b'{"id": "x", "choices": [{"message": '
        name, tool = self._schema_name(body)
        payload = self.script.get(name, {})
        if callable(payload):  # computed from the request, e.g. from the rounds in the prompt
            payload = payload(body)
        prompt = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
        message: dict[str, Any] = {"role": "assistant", "content": json.dumps(payload)}
        if tool:
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": "call_1", "type": "function", "function": {"name": tool, "arguments": json.dumps(payload)}}]}
        return 200, {
            "id": "chatcmpl-stub", "object": "chat.completion", "created": 0, "model": body.get("model", "stub"),
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool else "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": 12, "total_tokens": prompt + 12},
        }, None

    @staticmethod
    def _schema_name(body: dict[str, Any]) -> tuple[str, str | None]:
        """The structured output asked for: ``(schema name, tool name or None)``."""
        fmt = body.get("response_format") or {}
        if fmt.get("type") == "json_schema":
            return fmt["json_schema"]["name"], None
        tools = body.get("tools") or []
        if tools:
            name = tools[0]["function"]["name"]
            return name, name
        return "", None
