"""Real servers for the tests: ``langgraph dev`` and ``chroma run`` on free loopback ports.

Each server runs in its own process group, so stopping it stops its workers too, and writes
its output to a log file that a failing test shows. A server that does not come up fails the
test with that log instead of leaving the test to time out somewhere else.

``langgraph dev`` is started from a copy of the repository's ``langgraph.json`` (same graphs,
same dependencies) whose ``env`` is replaced by the test's own settings and whose persistence is
off: a developer's ``.env`` would otherwise override ``ADAMM_HOME`` (the server lets ``.env``
win over the process environment), and the in-memory runtime would write ``.langgraph_api/``
into the directory it runs in.
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
from pathlib import Path
from typing import Any

import pytest

from adamm.tests.needs import require

REPO = Path(__file__).resolve().parents[1]

#: Seconds to wait for a server to answer: ~5 s on an idle 2-core machine, much more when busy.
STARTUP_TIMEOUT = 180

_QUIET = {"LANGGRAPH_CLI_NO_ANALYTICS": "1", "LANGGRAPH_NO_VERSION_CHECK": "1", "LANGSMITH_TRACING": "false",
          "LANGCHAIN_TRACING_V2": "false", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}


def free_port() -> int:
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port != 2024:  # langgraph's default port: a developer's own server may want it
            return port


def executable(name: str, install_hint: str) -> str:
    """The CLI installed next to this Python, else on PATH; skipped when missing (failed on CI)."""
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    require(found is not None, f"the {name} CLI is not installed ({install_hint})")
    assert found is not None
    return found


class Server:
    def __init__(self, proc: subprocess.Popen[bytes], url: str, log: Path, name: str):
        self.proc, self.url, self.log, self.name = proc, url, log, name

    def log_tail(self, chars: int = 6000) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return text[-chars:]

    def explain(self, what: str) -> str:
        return f"{what}\n--- {self.name} log ---\n{self.log_tail()}"

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


def _start(name: str, cmd: list[str], workdir: Path, env: dict[str, str], url: str, probe: str) -> Server:
    log = workdir / f"{name.replace(' ', '-')}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(proc, url, log, name)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited with code {proc.returncode}")
            try:
                with urllib.request.urlopen(url + probe, timeout=2) as resp:
                    if resp.status == 200:
                        return server
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not answer {probe} within {STARTUP_TIMEOUT} s")
            time.sleep(0.1)
    except BaseException as exc:
        server.stop()
        pytest.fail(server.explain(str(exc)), pytrace=False)


def _absolute(spec: str | dict[str, Any]) -> str | dict[str, Any]:
    """A ``./file.py:name`` spec (or a ``{"path": ...}`` graph entry) rooted at the repository."""
    if isinstance(spec, dict):
        return {**spec, "path": _absolute(spec["path"])}
    path, name = spec.rsplit(":", 1)
    return f"{REPO / path}:{name}"


def start_langgraph_dev(workdir: Path, env_vars: dict[str, str], graphs: dict[str, Any] | None = None,
                        config_file: str = "langgraph.json") -> Server:
    """``langgraph dev --no-browser --no-reload`` serving the repository's graphs (or ``graphs``)
    with its auth, from ``config_file`` (``langgraph.eval.json`` adds the flat baseline)."""
    exe = executable("langgraph", "pip install -e '.[test]'")
    if os.environ.get("ADAMM_MODEL_CACHE"):  # the suite's one ONNX export, not one per server
        env_vars = {"ADAMM_MODEL_CACHE": os.environ["ADAMM_MODEL_CACHE"], **env_vars}
    config = json.loads((REPO / config_file).read_text())
    graphs = graphs if graphs is not None else config["graphs"]
    config["graphs"] = {name: _absolute(spec) for name, spec in graphs.items()}
    if "auth" in config:
        config["auth"] = {**config["auth"], "path": _absolute(config["auth"]["path"])}
    if "app" in config.get("http", {}):  # the MCP app (graphs/mcp_app.py)
        config["http"] = {**config["http"], "app": _absolute(config["http"]["app"])}
    config["dependencies"] = [str(REPO / d) for d in config["dependencies"]]
    config["env"] = env_vars
    config["disable_persistence"] = True
    (workdir / "langgraph.json").write_text(json.dumps(config, indent=2))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADAMM_")}
    env.update(env_vars, **_QUIET)
    cmd = [exe, "dev", "--no-browser", "--no-reload", "--port", str(port), "--host", "127.0.0.1",
           "--config", str(workdir / "langgraph.json")]
    return _start("langgraph dev", cmd, workdir, env, f"http://127.0.0.1:{port}", "/ok")


def start_chroma(workdir: Path) -> Server:
    """``chroma run`` with its data under ``workdir``."""
    exe = executable("chroma", "it comes with chromadb")
    port = free_port()
    cmd = [exe, "run", "--path", str(workdir / "chroma-data"), "--port", str(port), "--host", "127.0.0.1"]
    return _start("chroma run", cmd, workdir, dict(os.environ, **_QUIET), f"http://127.0.0.1:{port}", "/api/v2/heartbeat")
