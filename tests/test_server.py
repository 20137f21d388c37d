"""The graphs behind a real ``langgraph dev`` server, driven over HTTP with ``langgraph-sdk``.

The server is started from a copy of the repository's ``langgraph.json`` (same graphs, same
dependencies) whose ``env`` is replaced by the test's own settings and whose persistence is
off: a developer's ``.env`` would otherwise override ``ADAMM_HOME`` (the server lets ``.env``
win over the process environment) and the in-memory runtime would write ``.langgraph_api/``
into whatever directory it runs in. It runs in its own process group, so stopping it stops
its workers too; it is stopped in every case, a failed assertion included.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
STARTUP_TIMEOUT = 180  # seconds; ~5 s on an idle 2-core machine, much more when it is busy
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


def free_port() -> int:
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port != 2024:  # the default port: a developer's own server may want it
            return port


def langgraph_executable() -> str:
    beside = Path(sys.executable).with_name("langgraph")
    found = str(beside) if beside.exists() else shutil.which("langgraph")
    if found is None:
        if os.environ.get("CI"):
            raise RuntimeError("the langgraph CLI is not installed (pip install -e '.[test]')")
        pytest.skip("langgraph-cli[inmem] is not installed")
    return found


class Server:
    def __init__(self, proc: subprocess.Popen[bytes], url: str, log: Path):
        self.proc, self.url, self.log = proc, url, log

    def log_tail(self, chars: int = 6000) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return text[-chars:]

    def stop(self) -> None:
        """SIGTERM to the whole process group, SIGKILL if it lingers."""
        if self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        except ProcessLookupError:
            pass


def start_server(workdir: Path, env_vars: dict[str, str], graphs: dict[str, str] | None = None) -> Server:
    """``langgraph dev`` on a free loopback port, serving the repository's graphs."""
    config = json.loads((REPO / "langgraph.json").read_text())
    graphs = graphs if graphs is not None else config["graphs"]
    config["graphs"] = {name: str(REPO / spec.split(":")[0]) + ":" + spec.split(":")[1] for name, spec in graphs.items()}
    config["dependencies"] = [str(REPO / d) for d in config["dependencies"]]
    config["env"] = env_vars
    config["disable_persistence"] = True
    (workdir / "langgraph.json").write_text(json.dumps(config, indent=2))

    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADAMM_")}
    env.update(env_vars, LANGGRAPH_CLI_NO_ANALYTICS="1", LANGGRAPH_NO_VERSION_CHECK="1", LANGSMITH_TRACING="false",
               LANGCHAIN_TRACING_V2="false", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", ANONYMIZED_TELEMETRY="False")
    log = workdir / "server.log"
    cmd = [langgraph_executable(), "dev", "--no-browser", "--no-reload", "--port", str(port), "--host", "127.0.0.1",
           "--config", str(workdir / "langgraph.json")]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(proc, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"langgraph dev exited with code {proc.returncode}")
            try:
                with urllib.request.urlopen(server.url + "/ok", timeout=2) as resp:
                    if resp.status == 200:
                        return server
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"langgraph dev did not answer /ok within {STARTUP_TIMEOUT} s")
            time.sleep(0.5)
    except BaseException as exc:
        server.stop()
        pytest.fail(f"{exc}\n--- server log ---\n{server.log_tail()}", pytrace=False)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("langgraph-dev")
    srv = start_server(workdir, {"ADAMM_HOME": str(workdir / "adamm-home")})
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
    return f"{what}\n--- server log ---\n{server.log_tail()}"


def test_a_server_that_cannot_start_fails_with_its_log(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception) as failed:
        start_server(tmp_path, {"ADAMM_HOME": str(tmp_path / "home")}, graphs={"broken": "graphs/no_such_module.py:graph"})
    message = str(failed.value)
    assert "--- server log ---" in message and "no_such_module" in message
    assert "langgraph dev exited" in message or "did not answer" in message


def test_repository_config_is_valid() -> None:
    from langgraph_cli.config import validate_config_file

    config = validate_config_file(REPO / "langgraph.json")
    assert {"ingest", "query"} <= set(config["graphs"])
    for spec in config["graphs"].values():
        assert (REPO / spec.split(":")[0]).is_file()


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
    out = client.runs.wait(None, "ingest", input={"memory_id": "ada", "rounds": ROUNDS})
    assert isinstance(out, dict) and "stored" in out, explain(server, f"ingest returned {out!r}")
    assert set(out) == {"memory_id", "stored", "cost"}
    assert (out["stored"]["rounds_added"], out["stored"]["units_indexed"]) == (3, 3)

    res = client.runs.wait(None, "query", input={"memory_id": "ada", "question": "What did we name the beagle puppy?"},
                           context={"answerer": "rules"})
    assert isinstance(res, dict) and "answer" in res, explain(server, f"query returned {res!r}")
    assert "Biscuit" in res["answer"]
    assert res["citations"][0] == {"round_id": "r2", "image_ids": []}
    assert not {"memory_id", "question"} & set(res)  # input and private keys stay inside
    assert isinstance(res["cost"], list) and res["cost"]

    image = client.runs.wait(None, "query", input={"memory_id": "ada", "question": "Which bridge over the river did I photograph?"})
    assert image["citations"] and image["citations"][0]["image_ids"] == ["img-lisbon"], explain(server, repr(image))
    other = client.runs.wait(None, "query", input={"memory_id": "someone-else", "question": "What did we name the beagle puppy?"})
    assert other["citations"] == [] and "Biscuit" not in other["answer"]  # tenants stay apart over HTTP too

    assistant = next(a for a in client.assistants.search(graph_id="query") if a["graph_id"] == "query")
    served_nodes = {n["id"] for n in client.assistants.get_graph(assistant["assistant_id"])["nodes"]} - {"__start__", "__end__"}
    updates = [part for part in client.runs.stream(None, "query", input={"memory_id": "ada", "question": "What did we name the beagle puppy?"},
                                                   stream_mode="updates") if part.event == "updates"]
    streamed = [name for part in updates for name in part.data]
    assert streamed and set(streamed) <= served_nodes, explain(server, f"streamed {streamed}, graph has {served_nodes}")
    final = [part.data[name] for part in updates for name in part.data if isinstance(part.data[name], dict) and "answer" in part.data[name]]
    assert final and "Biscuit" in final[-1]["answer"]


def test_invalid_context_fails_the_run_with_the_field_named(server: Server, client) -> None:
    out = client.runs.wait(None, "query", input={"memory_id": "ada", "question": "Anything?"}, context={"theta_support": 0},
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
