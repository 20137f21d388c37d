"""Crash consistency of ingest and forget (issue 30): killed at any write and rerun, a memory
ends exactly where an uninterrupted run ends.

A real ``adamm ingest`` (or ``adamm forget``) process is SIGKILLed right after a chosen write by
the stores' test hook (``adamm.stores.crash``: ``ADAMM_KILL_AFTER_WRITES``, ``ADAMM_KILL_IN_NODE``
- the same write on every run), the same command is run again, and the memory is compared with
one that ran without a crash: every table's schema, row and cell; attributes, observations,
attribute-set counts and schemas; the hierarchy; every vector with its metadata; the units and
BM25 rankings; ``stats``; and the answers to fixed questions. A wall-clock kill, as in issue 30,
lands somewhere else on every run and mostly between writes; these land on the writes that
matter: inside a step's transaction, right after its commit, between its commit and its vector
writes, in the middle of those - in every ingest node, in the late batch that evolves a table,
and inside ``forget``.

Written against the commands, the facade and the stores, not the extraction rules, which change
under it: the history is plain dashboard-style records with chat between, and what is checked is
that the resumed memory equals the clean one, whatever tables extraction makes of it. One
precondition is checked on the clean run: its last batch evolves a table (a column is added),
since that is what issue 30's resumed runs got wrong.

Runtime: the clean run is shared per backend; each killed run is forked from a process that has
imported adamm already (``_Zygote``: a fork skips the seconds of imports a fresh ``adamm`` pays)
and two run at a time, while this process resumes and compares the previous one.
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from adamm.cli import main
from adamm.memory import Memory
from adamm.nodes.backends import backends, reset_backends
from adamm.nodes.context import Context
from adamm.tests.needs import require

MEMORY = "m"
BATCH = "6"
#: What the forget part removes: a sleep record, a receipt with its image, a chat round.
FORGOTTEN = ["r05", "r12", "r20"]
NOW = "2025-03-17"
QUESTIONS = ["What was my average deep sleep?", "How many runs did I log?", "What did we bake with Maya?"]
BM25_QUERIES = ["deep sleep", "River Loop run", "banana bread", "Greenmile receipt"]
CHAT = ["We baked banana bread with Maya this afternoon; it came out moist.",
        "Planted basil and tomatoes on the balcony.",
        "Booked the train to Lyon for the conference in April.",
        "Walked the puppy Biscuit along the canal.",
        "Maya wants a chocolate cake for her birthday next month."]
PG_ADMIN = os.environ.get("ADAMM_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")


def history() -> list[dict[str, Any]]:
    """Two weeks of a sleep tracker, runs, lunch receipts (an image caption each) and chat. In
    the last days the sleep records gain an HRV reading and the runs a route: fields that
    appear late and widen tables already there."""
    out: list[dict[str, Any]] = []

    def add(day: str, clock: str, user: str, assistant: str = "Logged.", images: tuple[dict[str, str], ...] = ()) -> None:
        out.append({"round_id": f"r{len(out):02d}", "session_id": f"s{day}", "timestamp": f"{day}T{clock}:00",
                    "user_text": user, "assistant_text": assistant, "images": list(images)})

    for d in range(14):
        day = f"2025-03-{d + 3:02d}"
        hrv = f", HRV {40 + d} ms" if d >= 10 else ""
        add(day, "07:30", f"Slept {6 + d % 3}h {(17 * d) % 60:02d}m last night, deep sleep 1h {(11 * d) % 50 + 5:02d}m, "
                          f"resting HR {50 + (5 * d) % 9} bpm{hrv}.")
        if d % 2 == 0:
            where = "on the River Loop" if d >= 8 else "after work"
            add(day, "19:00", f"Ran {4 + (d * 0.7) % 3:.1f} km in {25 + (3 * d) % 11} min {where}.", "Nice run!")
        else:
            add(day, "13:10", "Lunch receipt.", images=({"image_id": f"img{d}", "caption": f"Total ${9 + d * 1.35:.2f} · "
                                                                                     "Merchant Greenmile Cafe · Category food"},))
        if d % 3 == 0:
            add(day, "21:00", CHAT[(d // 3) % len(CHAT)], "Sounds lovely.")
    return out


# -- killed runs, forked from a process that has imported adamm --------------------------------

ZYGOTE = r'''
import json, os, sys, traceback
import adamm.cli, adamm.formats, adamm.graphs.forget, adamm.graphs.ingest, adamm.memory  # what a run spends seconds importing
import chromadb.api.rust, psycopg  # the stores' clients, imported on a run's first write (no threads, unlike onnxruntime's)
from adamm.stores import crash

for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:  # the run: `adamm ARGV` with the job's environment, output to its log
        code = 1
        try:
            os.environ.update(job["env"])
            log = os.open(job["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(log, 1)
            os.dup2(log, 2)
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
            crash.arm()
            code = adamm.cli.main(job["argv"])
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    print(json.dumps({"code": os.waitstatus_to_exitcode(status)}), flush=True)
'''


class _Zygote:
    """A process that has imported adamm and forks one ``adamm`` run per job, one at a time."""

    def __init__(self) -> None:
        # the suite's environment, without the caller's ADAMM_* settings (as every test runs)
        env = {k: v for k, v in os.environ.items() if not k.startswith("ADAMM_") or k == "ADAMM_MODEL_CACHE"}
        self.proc = subprocess.Popen([sys.executable, "-c", ZYGOTE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def run(self, argv: list[str], env: dict[str, str], log: Path, timeout: float = 180) -> int:
        """Exit code of ``adamm ARGV`` (negative: killed by that signal)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"argv": argv, "env": env, "log": str(log)}) + "\n")
        self.proc.stdin.flush()
        with selectors.DefaultSelector() as sel:  # not select.select: the suite's descriptors pass 1024
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            ready = sel.select(timeout)
        if not ready:
            pytest.fail(f"adamm {' '.join(argv)} did not end within {timeout} s (log: {log})")
        return int(json.loads(self.proc.stdout.readline())["code"])

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


# -- one backend: where a memory lives, and the clean runs --------------------------------------


@dataclass
class Place:
    """A data directory, and the PostgreSQL database of it when the backend is PostgreSQL."""

    home: Path
    url: str | None

    def args(self) -> list[str]:
        return ["--home", str(self.home), *(["--database-url", self.url] if self.url else [])]

    def context(self) -> Context:
        return Context(home=str(self.home), **({"database_url": self.url} if self.url else {}))


@dataclass
class World:
    """A backend with its clean runs: the ingest's trace and memory, and the forget's."""

    backend: str
    root: Path
    data: Path
    databases: list[str] = field(default_factory=list)
    ingest_trace: list[tuple[str, str, str, int]] = field(default_factory=list)
    forget_trace: list[tuple[str, str, str, int]] = field(default_factory=list)
    ingested: dict[str, Any] = field(default_factory=dict)
    forgotten: dict[str, Any] = field(default_factory=dict)
    clean: Place | None = None

    def place(self, name: str, template: Place | None = None) -> Place:
        """A new place; ``template``: a copy of that place's memory (data directory and database)."""
        home = self.root / name
        if template is not None:
            reset_backends()  # no open connection to the template database, no open Chroma files
            shutil.copytree(template.home, home)
        url = None
        if self.backend == "postgresql":
            import psycopg  # noqa: PLC0415 - a dependency of the package

            db = f"adamm_kill_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
                source = f' TEMPLATE "{template.url.rsplit("/", 1)[1]}"' if template is not None and template.url else ""
                admin.execute(f'CREATE DATABASE "{db}"{source}')
            self.databases.append(db)
            url = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1) + f"/{db}"
        return Place(home, url)

    def ingest_argv(self, place: Place) -> list[str]:
        return [*place.args(), "ingest", str(self.data), "--memory-id", MEMORY, "--batch-size", BATCH]

    def forget_argv(self, place: Place) -> list[str]:
        return [*place.args(), "forget", "--memory-id", MEMORY, *(a for r in FORGOTTEN for a in ("--round", r))]


def read_trace(path: Path) -> list[tuple[str, str, str, int]]:
    """The write points of a traced run: ``(step, kind, what, invocation)`` in order, where
    ``invocation`` counts the runs of that step (the batch, for an ingest node)."""
    points, runs = [], {}
    for line in path.read_text(encoding="utf-8").splitlines():
        step, kind, what = line.split("\t")
        if kind == "begin":
            runs[step] = runs.get(step, -1) + 1
        else:
            points.append((step, kind, what, runs[step]))
    return points


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """The clean ingest of the history and the clean forget after it, traced, per backend."""
    if request.param == "postgresql":
        import psycopg  # noqa: PLC0415 - a dependency of the package

        try:
            psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5).close()
            reachable = True
        except psycopg.OperationalError:
            reachable = False
        require(reachable, f"PostgreSQL not reachable at {PG_ADMIN}")
    root = tmp_path_factory.mktemp(f"kill-{request.param}")
    data = root / "history.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in history()), encoding="utf-8")
    w = World(request.param, root, data)
    zygote = _Zygote()
    try:
        w.clean = w.place("clean")
        assert zygote.run(w.ingest_argv(w.clean), {"ADAMM_KILL_TRACE": str(root / "ingest.trace")}, root / "clean.log") == 0, \
            (root / "clean.log").read_text()
        w.ingest_trace = read_trace(root / "ingest.trace")
        w.ingested = snapshot(w.clean)
        forgotten = w.place("forgotten", template=w.clean)
        assert zygote.run(w.forget_argv(forgotten), {"ADAMM_KILL_TRACE": str(root / "forget.trace")}, root / "forget.log") == 0, \
            (root / "forget.log").read_text()
        w.forget_trace = read_trace(root / "forget.trace")
        w.forgotten = snapshot(forgotten)
        yield w
    finally:
        zygote.close()
        reset_backends()
        if w.databases:
            import psycopg  # noqa: PLC0415 - a dependency of the package

            with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
                for db in w.databases:
                    admin.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


# -- what a memory holds ---------------------------------------------------------------------------

_VOLATILE = ("id", "memory_id", "created_at", "updated_at", "ingested_at")


def _plain(rec: Any) -> dict[str, Any]:
    return {k: v for k, v in rec.model_dump(mode="json").items() if k not in _VOLATILE}


def snapshot(place: Place) -> dict[str, Any]:
    """Everything a memory holds that a user or a later step can see, as plain data (vectors as
    arrays, compared with a tolerance)."""
    ctx = place.context()
    b = backends(ctx)
    memory = Memory(MEMORY, context=ctx)
    sql = b.sql
    keyword_spaces = sql.unit_spaces(MEMORY)
    state: dict[str, Any] = {
        "stats": memory.stats(),
        "tables": memory.table_documents(),
        "rounds": [r.model_dump(mode="json") for r in sql.get_rounds(MEMORY)],
        "attributes": [_plain(a) for a in sql.attributes(MEMORY)],
        "observations": sorted((_plain(o) for o in sql.observations(MEMORY)), key=lambda o: json.dumps(o, sort_keys=True)),
        "attribute_sets": sorted([sorted(attrs), n] for attrs, n in sql.attribute_sets(MEMORY)),
        "schemas": sorted((_plain(s) for s in sql.schemas(MEMORY, status=None)), key=lambda s: s["key"]),
        "nodes": sorted((_plain(n) for n in sql.nodes(MEMORY)), key=lambda n: n["node_id"]),
        "units": {space: sorted([u.unit_id, u.text, u.meta] for u in sql.units(MEMORY, space)) for space in keyword_spaces},
        "bm25": {space: {"ids": sorted(b.keywords.get(MEMORY, space).ids),
                         "ranked": [[(i, round(s, 9)) for i, s in b.keywords.get(MEMORY, space).search(q, 8)] for q in BM25_QUERIES]}
                 for space in keyword_spaces},
        "answers": [],
        "left": {"pending": sql.pending_round_ids(MEMORY), "stale": sql.stale_node_ids(MEMORY),
                 "journal": len(sql.vector_writes(MEMORY))},
    }
    for question in QUESTIONS:
        answer = memory.ask(question, now=NOW)
        state["answers"].append([question, answer.answer, answer.round_ids])
    state["vectors"] = {space: b.vectors.items(MEMORY, space) for space in b.vectors.spaces(MEMORY)}
    return state


def _leaves(a: Any, b: Any, path: str) -> list[str]:
    """The paths where two plain values differ, each with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            if k in a and k in b:
                out += _leaves(a[k], b[k], f"{path}.{k}")
            else:
                out.append(f"{path}.{k}: only in the {'clean' if k in a else 'resumed'} memory")
        return out
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _leaves(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: clean {a!r:.300} != resumed {b!r:.300}"]


def differences(clean: dict[str, Any], resumed: dict[str, Any]) -> list[str]:
    """Where two snapshots differ (empty when they are the same memory)."""
    out = [d for key in clean if key != "vectors" for d in _leaves(clean[key], resumed[key], key)]
    spaces = set(clean["vectors"]) | set(resumed["vectors"])
    for space in sorted(spaces):
        a, b = clean["vectors"].get(space, {}), resumed["vectors"].get(space, {})
        if set(a) != set(b):
            out.append(f"vectors {space}: ids only clean {sorted(set(a) - set(b))[:5]}, only resumed {sorted(set(b) - set(a))[:5]}")
            continue
        for vid in sorted(a):
            if a[vid][1] != b[vid][1]:
                out.append(f"vectors {space} {vid}: metadata {a[vid][1]} != {b[vid][1]}")
            elif not np.allclose(a[vid][0], b[vid][0], atol=1e-5):
                out.append(f"vectors {space} {vid}: differ by {float(np.abs(a[vid][0] - b[vid][0]).max()):.2g}")
    return out


# -- the kill points ---------------------------------------------------------------------------


def _nth(trace: list[tuple[str, str, str, int]], step: str, kind: str | None = None, what: str | None = None,
         run: int | None = None, which: int = 0) -> int:
    """The 1-based position in ``trace`` of the ``which``-th write matching step / kind / what /
    invocation (negative ``which`` counts from the end)."""
    hits = [i for i, (s, k, w, r) in enumerate(trace, start=1)
            if s == step and kind in (None, k) and what in (None, w) and run in (None, r)]
    assert hits, f"the clean run made no {kind or ''} {what or ''} write in {step} (run {run})"
    return hits[which]


def ingest_points(trace: list[tuple[str, str, str, int]]) -> dict[str, int]:
    """Kill points spread over the run, in every node, each named for what it leaves behind."""
    last = max(r for s, _, _, r in trace if s == "induce_tables")
    evolved = [r for s, k, w, r in trace if s == "induce_tables" and w == "ALTER"]
    assert evolved and max(evolved) == last, (
        "the history no longer evolves a table in its last batch (no ALTER TABLE there): "
        "change history() so that a field appearing late widens a table")
    points = {
        "rounds stored, nothing derived": _nth(trace, "store_rounds", "commit", run=1),
        "inside the first extraction": _nth(trace, "extract_attributes", "statement", run=0),
        "extraction committed, not induced": _nth(trace, "extract_attributes", "commit", run=2),
        "inside a table's discovery": _nth(trace, "induce_tables", "statement", "CREATE"),
        "inside the late schema evolution": _nth(trace, "induce_tables", "statement", "ALTER", run=last, which=-1),
        "late evolution committed": _nth(trace, "induce_tables", "commit", run=last),
        "inside the hierarchy's transaction": _nth(trace, "insert_hierarchy", "statement", run=1, which=3),
        "hierarchy committed, no vector made": _nth(trace, "insert_hierarchy", "commit", run=2),
        "hierarchy's vectors half made": _nth(trace, "insert_hierarchy", "vectors", run=3, which=1),
        "inside the round index": _nth(trace, "index_rounds", "statement", run=2),
        "rounds derived, their vectors not made": _nth(trace, "index_rounds", "commit", run=4),
        "the last write of the run": len(trace),
    }
    assert len(set(points.values())) == len(points), points
    return points


def forget_points(trace: list[tuple[str, str, str, int]]) -> dict[str, int]:
    return {
        "inside forget's analytic transaction": _nth(trace, "forget", "statement"),
        "analytic part committed, retrieval untouched": _nth(trace, "forget", "commit"),
        "forget's vectors half removed": len(trace) // 2,
        "forget's rebuild half written": _nth(trace, "forget", "vectors", which=-2),
    }


def _kill(zygote: _Zygote, world: World, argv: list[str], n: int, step: str | None, log: Path) -> int:
    env = {"ADAMM_KILL_AFTER_WRITES": str(n), **({"ADAMM_KILL_IN_NODE": step} if step else {})}
    return zygote.run(argv, env, log)


def _run_matrix(world: World, cases: list[tuple[str, Place, list[str], int, str | None]], clean: dict[str, Any]) -> None:
    """Kill each case's run at its point (two at a time), rerun it here and compare."""
    zygotes = [_Zygote(), _Zygote()]
    free = list(zygotes)
    failures = []
    try:
        with ThreadPoolExecutor(len(zygotes)) as pool:
            def job(case: tuple[str, Place, list[str], int, str | None]) -> int:
                name, place, argv, n, step = case
                zygote = free.pop()
                try:
                    return _kill(zygote, world, argv, n, step, place.home.with_suffix(".log"))
                finally:
                    free.append(zygote)

            futures: list[Future[int]] = [pool.submit(job, case) for case in cases]
            for (name, place, argv, n, _), future in zip(cases, futures):
                code = future.result()
                log = place.home.with_suffix(".log")
                assert code == -9, f"{name}: the run was not killed at write {n} (exit {code}): {log.read_text()[-2000:]}"
                assert main(argv) == 0, name  # the same command, run again
                found = differences(clean, snapshot(place))
                reset_backends()
                if found:
                    failures.append(f"killed at write {n} ({name}):\n  " + "\n  ".join(found[:8]))
    finally:
        for z in zygotes:
            z.close()
    assert not failures, "\n".join(failures)


def test_clean_ingest_is_what_the_resumes_are_compared_with(world: World) -> None:
    """The clean memory is complete and not trivial: tables, a hierarchy, vectors, BM25."""
    stats, left = world.ingested["stats"], world.ingested["left"]
    assert stats["rounds"] == stats["events"] == stats["vectors"] == stats["bm25_entries"] == len(history())
    assert stats["tables"] >= 2 and stats["table_rows"] >= 10 and stats["episodes"] >= 2
    assert left == {"pending": [], "stale": [], "journal": 0}
    assert world.forgotten["stats"]["rounds"] == len(history()) - len(FORGOTTEN)
    assert world.forgotten["left"] == {"pending": [], "stale": [], "journal": 0}


def test_ingest_killed_at_any_write_resumes_to_the_clean_memory(world: World) -> None:
    """Killed at each point and rerun, the ingest ends exactly as the clean one did."""
    assert world.clean is not None
    cases = [(name, place, world.ingest_argv(place), n, None)
             for i, (name, n) in enumerate(ingest_points(world.ingest_trace).items())
             for place in [world.place(f"ingest{i}")]]
    _run_matrix(world, cases, world.ingested)


def test_forget_killed_at_any_write_resumes_to_the_clean_forget(world: World) -> None:
    """A forget killed part-way and run again removes exactly what an uninterrupted one does,
    and rebuilds the same episodes and topics."""
    assert world.clean is not None
    cases = [(name, place, world.forget_argv(place), n, "forget")
             for i, (name, n) in enumerate(forget_points(world.forget_trace).items())
             for place in [world.place(f"forget{i}", template=world.clean)]]
    _run_matrix(world, cases, world.forgotten)


# -- the two mechanisms the resumes rest on -----------------------------------------------------


def test_a_step_that_dies_inside_its_transaction_leaves_none_of_its_writes(db_url: str) -> None:
    """``SqlStore.atomic``: a table created (DDL), filled and recorded in one block is rolled
    back whole - on SQLite too, where DDL outside a transaction would commit on its own."""
    from adamm.stores.sql import ColumnSpec, SqlStore, memory_key  # noqa: PLC0415 - the store under test

    sql = SqlStore(db_url)

    def step(fail: bool) -> None:
        with sql.atomic():
            sql.create_table("m", "sleep_log", [ColumnSpec("sleep", "float", "h")])
            sql.upsert_rows("m", "sleep_log", [{"source": "r1", "sleep": 7.5}])
            sql.put_schema("m", ["sleep"], support=4, table_name="sleep_log")
            assert [r["sleep"] for r in sql.select_rows("m", "sleep_log")] == [7.5]  # the block reads its own writes
            if fail:
                raise RuntimeError("killed")

    with pytest.raises(RuntimeError, match="killed"):
        step(fail=True)
    assert sql.tables("m") == [] and sql.schemas("m") == []
    assert not sql.has_physical_table(f"t_{memory_key('m')}_sleep_log")
    step(fail=False)  # nothing of the failed block is in the way
    assert [r["sleep"] for r in sql.select_rows("m", "sleep_log")] == [7.5] and len(sql.schemas("m")) == 1
    sql.close()


def test_vector_writes_are_kept_as_data_until_made(db_url: str, tmp_path: Path) -> None:
    """``VectorStore.deferred`` collects writes instead of making them (and refuses a read that
    could not see them); journaled in SQL they come back as the same writes, and making them
    twice leaves what making them once does."""
    from adamm.stores.sql import SqlStore  # noqa: PLC0415 - the stores under test
    from adamm.stores.vectors import VectorStore  # noqa: PLC0415

    sql, store = SqlStore(db_url), VectorStore(path=tmp_path / "chroma")
    with store.deferred() as writes:
        store.upsert("m", "events.text", ["a", "b"], [[1.0, 0.0], [0.6, 0.8]], [{"round_id": "r1"}, {"round_id": np.int64(2)}])
        store.delete("m", "events.text", ["b"])
        with pytest.raises(RuntimeError, match="cannot see the write"):
            store.get("m", "events.text", ["a"])
    assert store.count("m", "events.text") == 0
    sql.add_vector_writes("m", writes)
    journaled = [w for _, w in sql.vector_writes("m")]
    assert [(w.op, w.ids, w.metadatas) for w in journaled] == [(w.op, w.ids, w.metadatas) for w in writes]
    assert np.array_equal(journaled[0].vectors, writes[0].vectors)
    store.apply(journaled)
    store.apply(journaled)
    assert {i: m for i, (_, m) in store.items("m", "events.text").items()} == {"a": {"round_id": "r1"}}
    sql.clear_vector_writes("m")
    assert sql.vector_writes("m") == []
    sql.close()
