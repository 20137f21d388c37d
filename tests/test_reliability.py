"""Crashes, re-runs and concurrent writers must neither lose nor duplicate anything.

The kill tests SIGKILL a real ``adamm ingest`` subprocess while it is paused at a chosen write
(the pause is patched in by a wrapper script, so the crash lands at the same point every run),
then rerun the command and compare ``adamm stats`` with a memory ingested once without a crash.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from adamm.cli import main
from adamm.memory import Memory
from adamm.graphs.ingest import graph as ingest
from adamm.nodes.backends import backends, reset_backends
from adamm.nodes.context import Context
from adamm.nodes.hierarchy import EVENTS
from adamm.nodes.ingest import ROUNDS_SPACE
from adamm.stores.units import text_space
from adamm.stores.vectors import VectorStore
from adamm.tests.scripts import env_for, write_jsonl

#: The ``adamm`` command of this environment, run through this Python (``python -m adamm`` is
#: the installed entry point): never whatever ``adamm`` happens to be first on PATH.
ADAMM = [sys.executable, "-m", "adamm"]

#: Runs ``adamm`` with one method patched to stop (and signal) at its n-th call.
PAUSER = r'''
import importlib, os, sys, time
module, cls, method = os.environ["PAUSE_TARGET"].rsplit(".", 2)
when, nth, flag = os.environ["PAUSE_WHEN"], int(os.environ["PAUSE_NTH"]), os.environ["PAUSE_FLAG"]
klass = getattr(importlib.import_module(module), cls)
original = getattr(klass, method)
calls = [0]

def hold():
    open(flag, "w").close()
    time.sleep(600)

def patched(self, *args, **kwargs):
    calls[0] += 1
    if calls[0] == nth and when == "before":
        hold()
    out = original(self, *args, **kwargs)
    if calls[0] == nth and when == "after":
        hold()
    return out

setattr(klass, method, patched)
from adamm.cli import main
sys.exit(main(sys.argv[1:]))
'''

#: Where the kill lands, in the order one test goes through them (target, when, n-th call).
CRASH_POINTS = [
    ("adamm.stores.sql.SqlStore.create_table", "after", 1),  # a table without its schema record
    ("adamm.stores.sql.SqlStore.put_nodes", "after", 2),  # hierarchy nodes without units or vectors
    ("adamm.stores.sql.SqlStore.put_units", "after", 3),  # a unit without its vector
]


def history(n: int = 16) -> list[dict]:
    """Dashboards (a table is discovered mid-file) between chat rounds of a few topics."""
    chat = ["We baked cookies at 180 C today.", "Walked the puppy Biscuit in the park.",
            "Bought a new blue bike for commuting.", "Planted tomatoes on the balcony."]
    out = []
    for i in range(n):
        text = (f"Total sleep {6 + i % 3} h · Deep sleep 1 h · Resting HR {50 + i % 7} bpm" if i % 2 == 0
                else chat[(i // 2) % len(chat)])
        out.append({"round_id": f"r{i}", "session_id": f"s{i // 6}", "timestamp": f"2025-03-{i // 2 + 1:02d}T{8 + (i % 2) * 10:02d}:00:00",
                    "user_text": text, "assistant_text": "Noted."})
    return out


def run_and_kill(tmp: Path, home: Path, args: list[str], target: str, when: str, nth: int) -> None:
    """Start ``adamm ARGS`` paused at the n-th call of ``target``; SIGKILL it there."""
    script = tmp / "pauser.py"
    script.write_text(PAUSER, encoding="utf-8")
    flag = tmp / f"paused-{target.rsplit('.', 1)[1]}-{nth}"
    flag.unlink(missing_ok=True)
    env = {**env_for(home), "PAUSE_TARGET": target, "PAUSE_WHEN": when, "PAUSE_NTH": str(nth), "PAUSE_FLAG": str(flag)}
    proc = subprocess.Popen([sys.executable, str(script), *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not flag.exists():
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"the run ended before reaching {target} #{nth} (exit {proc.returncode}): {err.decode()[-2000:]}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"timed out waiting for {target} #{nth}")
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL


def stats_of(home: Path, memory_id: str) -> dict[str, int]:
    return Memory(memory_id, context=Context(home=str(home))).stats()


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    """The memory ingested once, without interruption: what every resumed run must equal."""
    tmp = tmp_path_factory.mktemp("clean")
    data = write_jsonl(tmp / "history.jsonl", history())
    home = tmp / "home"
    assert main(["--home", str(home), "ingest", str(data), "--memory-id", "m", "--batch-size", "4"]) == 0
    return data, stats_of(home, "m")


def test_clean_run_is_idempotent(clean, tmp_path: Path) -> None:
    """Re-ingesting the same file changes nothing (and reports every round unchanged)."""
    data, expected = clean
    home = tmp_path / "home"
    assert main(["--home", str(home), "ingest", str(data), "--memory-id", "m", "--batch-size", "4"]) == 0
    assert main(["--home", str(home), "ingest", str(data), "--memory-id", "m", "--batch-size", "7"]) == 0
    assert stats_of(home, "m") == expected
    assert expected["rounds"] == 16 and expected["tables"] >= 1 and expected["supports"] == 16
    assert expected["vectors"] == expected["bm25_entries"] == expected["events"] == 16


def test_sigkill_at_every_write_then_rerun_completes_the_memory(clean, tmp_path: Path) -> None:
    """Each run is killed at another write; the last rerun must leave exactly the clean memory."""
    data, expected = clean
    home = tmp_path / "home"
    args = ["ingest", str(data), "--memory-id", "m", "--batch-size", "4"]
    for target, when, nth in CRASH_POINTS:
        run_and_kill(tmp_path, home, args, target, when, nth)
    reset_backends()
    partial = stats_of(home, "m")
    assert 0 < partial["rounds"] < 16  # really killed mid-file
    assert main(["--home", str(home), *args]) == 0  # the same command, in this process
    reset_backends()
    assert stats_of(home, "m") == expected
    ctx = Context(home=str(home))
    b = backends(ctx)
    assert not b.sql.pending_round_ids("m")
    ids = [f"r{i}" for i in range(16)]
    assert set(b.vectors.get("m", text_space(ROUNDS_SPACE), ids)) == set(ids)
    assert set(b.keywords.get("m", ROUNDS_SPACE).ids) == set(ids)
    assert {u.unit_id for u in b.sql.units("m", EVENTS)} == {f"ev:{r}" for r in ids}
    for node in b.sql.nodes("m"):  # every node's unit has its vector
        space = {"event": "events", "episode": "episodes", "topic": "topics"}[node.level]
        assert node.node_id in b.vectors.get("m", text_space(space), [node.node_id]), node.node_id


def test_changed_round_is_an_explicit_update(home) -> None:
    """Same id, new content: counted once as updated, its derived data replaced, nothing added."""
    ctx = Context()
    rounds = history(8)
    ingest.invoke({"memory_id": "m", "rounds": rounds}, context=ctx)
    before = Memory("m", context=ctx).stats()
    again = ingest.invoke({"memory_id": "m", "rounds": rounds}, context=ctx)
    assert again["stored"]["rounds_unchanged"] == 8 and again["stored"].get("rounds_added", 0) == 0
    assert Memory("m", context=ctx).stats() == before
    changed = dict(rounds[1], user_text="Sold the old red bike.")
    out = ingest.invoke({"memory_id": "m", "rounds": [changed]}, context=ctx)
    assert out["stored"]["rounds_updated"] == 1 and out["stored"]["rounds_added"] == 0
    assert Memory("m", context=ctx).stats()["rounds"] == before["rounds"]
    assert Memory("m", context=ctx).stats()["vectors"] == before["vectors"]
    b = backends(ctx)
    (unit,) = b.sql.units("m", ROUNDS_SPACE, ["r1"])
    assert "red bike" in unit.text
    assert b.keywords.get("m", ROUNDS_SPACE).search("red bike", 1)[0][0] == "r1"
    (event,) = b.sql.nodes("m", "event", node_ids=["ev:r1"])
    assert "red bike" in event.description


# -- concurrency -------------------------------------------------------------------------------


WRITER = r'''
import sys
import numpy as np
from adamm.stores.vectors import VectorStore

path, memory, tag, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
store = VectorStore(path=path)
rng = np.random.default_rng(abs(hash(tag)) % 1000)
store.upsert(memory, "rounds.text", [f"{tag}{i}" for i in range(n)], rng.normal(size=(n, 8)) + 0.1)
'''


def test_a_long_lived_store_sees_another_process_writes(tmp_path: Path) -> None:
    """Chroma keeps each process's HNSW index in memory: without the reopen protocol the second
    query here sees only this process's own 5 vectors."""
    store = VectorStore(path=tmp_path / "chroma")
    rng = np.random.default_rng(0)
    store.upsert("m", "rounds.text", [f"a{i}" for i in range(5)], rng.normal(size=(5, 8)))
    assert len(store.query("m", "rounds.text", np.ones(8), 100)) == 5
    script = tmp_path / "writer.py"
    script.write_text(WRITER, encoding="utf-8")
    subprocess.run([sys.executable, str(script), str(tmp_path / "chroma"), "m", "b", "7"], check=True, env=env_for(tmp_path))
    hits = store.query("m", "rounds.text", np.ones(8), 100)
    assert len(hits) == 12 and {h.id for h in hits} >= {"b0", "b6"}
    store.upsert("m", "rounds.text", ["a99"], rng.normal(size=(1, 8)))
    assert VectorStore(path=tmp_path / "chroma").count("m", "rounds.text") == 13


def test_two_processes_ingesting_at_once_lose_nothing(tmp_path: Path) -> None:
    """Two ``adamm ingest`` runs into one data directory - two files of one memory, and a third
    memory - at the same time: every round ends up stored, derived, embedded and keyword-indexed."""
    home = tmp_path / "home"
    rounds = history(16)
    first = write_jsonl(tmp_path / "first.jsonl", rounds[:8])
    # Neither file numbers its rounds: each batch continues after the memory's last order, read in
    # the transaction that stores it. (Explicit orders in one file next to appended rounds of a
    # concurrent one could collide by design: the appender cannot know the places still to come.)
    second = write_jsonl(tmp_path / "second.jsonl", [dict(r, round_id=f"x{r['round_id']}") for r in rounds[8:]])
    other = write_jsonl(tmp_path / "other.jsonl", rounds[:8])
    runs = [
        subprocess.Popen([*ADAMM, "ingest", str(p), "--memory-id", mid, "--batch-size", "2"], env=env_for(home),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for p, mid in ((first, "shared"), (second, "shared"), (other, "other"))
    ]
    for proc in runs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    ctx = Context(home=str(home))
    b = backends(ctx)
    expected = {"shared": {r["round_id"] for r in rounds[:8]} | {f"xr{i}" for i in range(8, 16)},
                "other": {r["round_id"] for r in rounds[:8]}}
    for memory_id, ids in expected.items():
        stats = Memory(memory_id, context=ctx).stats()
        assert stats["rounds"] == stats["vectors"] == stats["bm25_entries"] == stats["events"] == len(ids), (memory_id, stats)
        assert stats["supports"] == len(ids)
        assert not b.sql.pending_round_ids(memory_id)
        assert set(b.vectors.get(memory_id, text_space(ROUNDS_SPACE), sorted(ids))) == ids
        assert set(b.keywords.get(memory_id, ROUNDS_SPACE).ids) == ids
        assert {u.unit_id for u in b.sql.units(memory_id, EVENTS)} == {f"ev:{i}" for i in ids}
        orders = [r.order for r in b.sql.get_rounds(memory_id)]
        assert len(set(orders)) == len(orders)  # no two rounds share a place in the history


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_memory_lock_excludes_writers_of_the_same_memory_only(backend, request, tmp_path: Path) -> None:
    """The lock every ingest step takes: a second writer of the same memory waits, another
    memory's writer does not (file lock with SQLite, advisory lock with PostgreSQL)."""
    import threading

    from adamm.stores.locks import memory_lock
    from adamm.stores.sql import SqlStore

    url = f"sqlite:///{tmp_path / 'a.db'}" if backend == "sqlite" else request.getfixturevalue("pg_url")
    first, second = SqlStore(url), SqlStore(url)  # two engines, as two processes would have
    events: list[str] = []
    inside = threading.Event()
    release = threading.Event()

    def holder() -> None:
        with memory_lock(first, tmp_path, "m"):
            events.append("held")
            inside.set()
            release.wait(10)
            events.append("released")

    def waiter(memory_id: str) -> None:
        with memory_lock(second, tmp_path, memory_id, timeout=20):
            events.append(f"got {memory_id}")

    t = threading.Thread(target=holder)
    t.start()
    assert inside.wait(10)
    other = threading.Thread(target=waiter, args=("other",))
    other.start()
    other.join(10)
    assert events == ["held", "got other"]  # another memory is not blocked
    same = threading.Thread(target=waiter, args=("m",))
    same.start()
    same.join(0.5)
    assert same.is_alive() and events == ["held", "got other"]  # the same memory waits
    release.set()
    same.join(10)
    t.join(10)
    assert events == ["held", "got other", "released", "got m"]
    with memory_lock(first, tmp_path, "m"), memory_lock(first, tmp_path, "m"):  # reentrant in one thread
        pass
    first.close()
    second.close()
