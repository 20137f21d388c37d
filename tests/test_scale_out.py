"""The same graphs on PostgreSQL and a Chroma server, chosen by configuration alone.

The Chroma server is a real ``chroma run`` on a free loopback port, started here and stopped
by its process group (``tests/servers.py``); PostgreSQL is the local server (``pg_url`` gives each test a database
of its own). Nothing may be written to the embedded stores under ``ADAMM_HOME``: that would
mean some path ignored ``database_url`` / ``chroma_url`` and would break the moment a second
server process shares the data.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adamm.demo import DEMO_MEMORY, demo_rounds
from adamm.graphs.query import graph as query
from adamm.memory import Memory
from adamm.nodes.backends import backends, reset_backends
from adamm.nodes.context import Context
from adamm.nodes.ingest import ROUNDS_SPACE
from adamm.nodes.retrieval import children, raw_rounds
from adamm.stores.records import ImageRef, Round
from adamm.stores.units import text_space
from adamm.stores.vectors import VectorStore
from adamm.tests.servers import start_chroma, start_langgraph_dev
from adamm.tools import memory_tools

pytestmark = pytest.mark.postgres

DEMO_DEEP_AVG = (65 + 80 + 55 + 75 + 60) / 5 / 60


@pytest.fixture(scope="module")
def chroma_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = start_chroma(tmp_path_factory.mktemp("chroma-server"))
    try:
        yield server.url
    finally:
        server.stop()


def sleep_rounds(prefix: str, nights: list[tuple[str, int, int, int]]) -> list[Round]:
    """Sleep dashboards (day, total minutes, deep minutes, score), as the demo phrases them."""
    rounds = []
    for day, total, deep, score in nights:
        rounds.append(Round(
            round_id=f"{prefix}-{day}", session_id=f"{prefix}-{day}", timestamp=f"{day}T07:30:00",
            user_text=f"Logging last night's sleep ({day}).", assistant_text=f"Noted, sleep score {score}.",
            images=[ImageRef(image_id=f"IMG_{prefix}_{day}", caption=(
                f"Sleep app dashboard for {day}: total sleep {total // 60} h {total % 60:02d} min, "
                f"deep sleep {deep // 60} h {deep % 60:02d} min, resting heart rate 60 bpm, sleep score {score}"))]))
    return rounds


BOB_NIGHTS = [("2025-04-0" + str(d), 400 + 10 * d, 90 + d, 70 + d) for d in range(1, 7)]
BOB_DEEP_AVG = sum(deep for _, _, deep, _ in BOB_NIGHTS) / len(BOB_NIGHTS) / 60
BOB_CHAT = Round(round_id="bob-chat", session_id="bob-chat", timestamp="2025-04-07T12:00:00",
                 user_text="My sister's cat is called Pixel.", assistant_text="Cute name!")


def assert_nothing_embedded(home: Path) -> None:
    leftovers = sorted(p.name for p in home.iterdir()) if home.exists() else []
    assert not {"adamm.db", "chroma", "bm25"} & set(leftovers), f"embedded stores written: {leftovers}"


def tool(tools: list[Any], name: str, **args: Any) -> Any:
    msg = next(t for t in tools if t.name == name).invoke({"type": "tool_call", "id": "t", "name": name, "args": args})
    assert not msg.content.startswith("error:"), msg.content
    return msg.artifact


def test_ingest_query_and_every_tool_on_servers(home: Path, pg_url: str, chroma_url: str) -> None:
    ctx = Context(database_url=pg_url, chroma_url=chroma_url)
    report = Memory(DEMO_MEMORY, context=ctx).ingest(demo_rounds())
    assert report.rounds_added == 10 and report.counts["table_rows"] == 5 and report.counts["units_indexed"] == 10
    assert_nothing_embedded(home)

    b = backends(ctx)
    assert b.sql.engine.dialect.name == "postgresql"
    assert b.vectors.url == chroma_url
    assert VectorStore(url=chroma_url).count(DEMO_MEMORY, text_space(ROUNDS_SPACE)) == 10  # a fresh client sees them

    out = query.invoke({"memory_id": DEMO_MEMORY, "question": "Which museum did we visit in Lisbon?"}, context=ctx)
    assert "Gulbenkian" in out["answer"] and out["citations"][0]["round_id"] in {"chat-4", "chat-5"}

    tools = memory_tools(DEMO_MEMORY, ctx)
    assert tool(tools, "Compute", table="sleep_log", target="deep_sleep", operator="avg")["value"] == pytest.approx(DEMO_DEEP_AVG)
    assert tool(tools, "Compute", table="sleep_log", target="deep_sleep", operator="median")["value"] == pytest.approx(65 / 60)
    assert tool(tools, "Lookup", table="sleep_log", key_values={"date": "2025-03-05"})["rows"][0]["sleep_score"] == 69
    assert tool(tools, "Filter", table="sleep_log",
                column_filters=[{"column": "sleep_score", "op": ">", "value": 80}])["sources"] == ["sleep-2025-03-04", "sleep-2025-03-06"]
    assert tool(tools, "Rank", table="sleep_log", target="sleep_score", order="desc", result_budget=1)["sources"] == ["sleep-2025-03-04"]
    events = tool(tools, "EventLocate", query="tram 28 up to Alfama", result_budget=1)
    assert events[0]["round_ids"] == ["chat-5"] and events[0]["context"]
    (topic,) = tool(tools, "SemanticMatch", query="sourdough loaf and starter", scope="topic", result_budget=1)
    assert {"chat-1", "chat-2"} & set(topic["round_ids"])  # the sourdough rounds

    # Drill-down reads the hierarchy and the raw rounds back from PostgreSQL.
    below = children(ctx, DEMO_MEMORY, topic["node_id"])
    assert below and {u.level for u in below} == {"episode"}
    assert [r.round_id for r in raw_rounds(ctx, DEMO_MEMORY, ["chat-2"])] == ["chat-2"]
    assert_nothing_embedded(home)


def test_tenants_stay_apart_on_shared_servers(home: Path, pg_url: str, chroma_url: str) -> None:
    ctx = Context(database_url=pg_url, chroma_url=chroma_url)
    alice, bob = Memory("alice", context=ctx), Memory("bob", context=ctx)
    alice.ingest(demo_rounds())
    bob.ingest([*sleep_rounds("bob", BOB_NIGHTS), BOB_CHAT])

    # Same table name, same database: each memory computes over its own rows only.
    assert [t.name for t in alice.tables()] == [t.name for t in bob.tables()] == ["sleep_log"]
    assert (alice.tables()[0].row_count, bob.tables()[0].row_count) == (5, 6)
    a_tools, b_tools = memory_tools("alice", ctx), memory_tools("bob", ctx)
    assert tool(a_tools, "Compute", table="sleep_log", target="deep_sleep", operator="avg")["value"] == pytest.approx(DEMO_DEEP_AVG)
    assert tool(b_tools, "Compute", table="sleep_log", target="deep_sleep", operator="avg")["value"] == pytest.approx(BOB_DEEP_AVG)
    assert all(s.startswith("bob-") for s in tool(b_tools, "Filter", table="sleep_log", column_filters=[])["sources"])

    assert bob.ask("What is my sister's cat called?").round_ids == ["bob-chat"]
    assert alice.ask("What is my sister's cat called?").citations == ()
    assert not any(r for u in tool(a_tools, "SemanticMatch", query="cat called Pixel", result_budget=20) for r in u["round_ids"] if r.startswith("bob"))
    assert bob.ask("Which museum did we visit in Lisbon?").citations == ()
    vectors = VectorStore(url=chroma_url)
    assert (vectors.count("alice", text_space(ROUNDS_SPACE)), vectors.count("bob", text_space(ROUNDS_SPACE))) == (10, 7)


def test_concurrent_ingestion_of_two_memories(home: Path, pg_url: str, chroma_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Configuration only: the servers come from the environment, as in a server deployment.
    monkeypatch.setenv("ADAMM_DATABASE_URL", pg_url)
    monkeypatch.setenv("ADAMM_CHROMA_URL", chroma_url)
    reset_backends()
    Memory("warmup").ingest([BOB_CHAT])  # load the encoder once, so the two threads overlap in the stores

    chats = [r.model_copy(update={"round_id": f"carol-{r.round_id}"}) for r in demo_rounds() if r.round_id.startswith("chat-")]
    work = {"carol": [*sleep_rounds("carol", BOB_NIGHTS[:5]), *chats],
            "dave": sleep_rounds("dave", BOB_NIGHTS)}
    barrier = threading.Barrier(len(work))
    errors: list[BaseException] = []
    reports: dict[str, Any] = {}

    def ingest(memory_id: str, rounds: list[Round]) -> None:
        try:
            mem = Memory(memory_id, batch_size=2)  # several graph runs each, interleaved
            barrier.wait(timeout=60)
            reports[memory_id] = mem.ingest(rounds)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test thread
            errors.append(exc)

    threads = [threading.Thread(target=ingest, args=item) for item in work.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors, errors
    assert {m: r.rounds_added for m, r in reports.items()} == {"carol": 10, "dave": 6}

    b = backends(Context())
    assert b.sql.engine.dialect.name == "postgresql"
    for memory_id, rounds in work.items():
        assert b.sql.count_rounds(memory_id) == len(rounds)
        assert b.vectors.count(memory_id, text_space(ROUNDS_SPACE)) == len(rounds)
        assert {r.round_id for r in b.sql.get_rounds(memory_id)} == {r.round_id for r in rounds}
    assert Memory("carol").tables()[0].row_count == 5 and Memory("dave").tables()[0].row_count == 6
    dave = memory_tools("dave")
    assert tool(dave, "Compute", table="sleep_log", target="deep_sleep", operator="avg")["value"] == pytest.approx(BOB_DEEP_AVG)
    assert Memory("carol").ask("Which museum did we visit in Lisbon?").round_ids[0].startswith("carol-")
    assert_nothing_embedded(home)


INGEST_SCRIPT = """
import json, sys
from adamm.memory import Memory
from adamm.stores.records import Round
memory_id, path = sys.argv[1], sys.argv[2]
rounds = [Round.model_validate(r) for r in json.load(open(path))]
report = Memory(memory_id, batch_size=2).ingest(rounds)
print(json.dumps({"added": report.rounds_added, "rows": report.counts.get("table_rows", 0)}))
"""


@pytest.mark.slow
def test_two_server_processes_ingest_at_once_into_a_fresh_database(home: Path, tmp_path: Path, pg_url: str, chroma_url: str) -> None:
    """What several LangGraph server workers do on their first day: each process opens the
    same empty database and Chroma server (schema creation included) and ingests its memory."""
    work = {"erin": sleep_rounds("erin", BOB_NIGHTS[:5]), "frank": [*sleep_rounds("frank", BOB_NIGHTS), BOB_CHAT]}
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADAMM_") or k == "ADAMM_MODEL_CACHE"}  # the suite's ONNX export
    env.update(ADAMM_HOME=str(home), ADAMM_DATABASE_URL=pg_url, ADAMM_CHROMA_URL=chroma_url)
    procs = {}
    for memory_id, rounds in work.items():
        path = tmp_path / f"{memory_id}.json"
        path.write_text(json.dumps([r.model_dump(mode="json") for r in rounds]))
        procs[memory_id] = subprocess.Popen([sys.executable, "-c", INGEST_SCRIPT, memory_id, str(path)], env=env,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results = {}
    for memory_id, proc in procs.items():
        try:
            out, err = proc.communicate(timeout=600)
        finally:
            proc.kill()
        assert proc.returncode == 0, f"{memory_id} failed:\n{err[-4000:]}"
        results[memory_id] = json.loads(out.strip().splitlines()[-1])
    assert results == {"erin": {"added": 5, "rows": 5}, "frank": {"added": 7, "rows": 6}}

    ctx = Context(database_url=pg_url, chroma_url=chroma_url)
    for memory_id, rounds in work.items():
        assert backends(ctx).sql.count_rounds(memory_id) == len(rounds)
        assert VectorStore(url=chroma_url).count(memory_id, text_space(ROUNDS_SPACE)) == len(rounds)
    assert tool(memory_tools("frank", ctx), "Compute", table="sleep_log", target="deep_sleep", operator="avg")["value"] == pytest.approx(BOB_DEEP_AVG)
    assert_nothing_embedded(home)


def test_langgraph_server_on_postgres_and_chroma(home: Path, tmp_path: Path, pg_url: str, chroma_url: str) -> None:
    """The deployment shape: the server's environment names the stores, clients speak HTTP."""
    from langgraph_sdk import get_sync_client

    data_home = tmp_path / "server-home"
    server = start_langgraph_dev(tmp_path, {"ADAMM_HOME": str(data_home), "ADAMM_DATABASE_URL": pg_url,
                                            "ADAMM_CHROMA_URL": chroma_url})
    try:
        client = get_sync_client(url=server.url, timeout=300)
        out = client.runs.wait(None, "ingest", input={"memory_id": "gina", "rounds": [r.model_dump(mode="json") for r in demo_rounds()]},
                               raise_error=False)
        assert out.get("stored", {}).get("rounds_added") == 10, server.explain(repr(out))
        res = client.runs.wait(None, "query", input={"memory_id": "gina", "question": "Which museum did we visit in Lisbon?"},
                               raise_error=False)
        assert "Gulbenkian" in res.get("answer", ""), server.explain(repr(res))
    finally:
        server.stop()
    ctx = Context(database_url=pg_url, chroma_url=chroma_url)
    assert backends(ctx).sql.count_rounds("gina") == 10 and backends(ctx).sql.tables("gina")
    assert VectorStore(url=chroma_url).count("gina", text_space(ROUNDS_SPACE)) == 10
    assert_nothing_embedded(data_home)
