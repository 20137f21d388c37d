"""VectorStore on embedded Chroma (and, marked slow, on a real Chroma server)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.request

import numpy as np
import pytest

from adamm.stores.vectors import Hit, VectorStore, check_space, memory_key
from adamm.tests.servers import executable, free_port

HOSTILE_IDS = ["../../etc/passwd", "'; DROP TABLE rounds; --", "x" * 5000, "usér 🧠 名前", "a/b\\c"]


@pytest.fixture
def store(tmp_path):
    return VectorStore(path=tmp_path / "chroma")


def unit(v):
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v)


def test_persistence_across_reopen(tmp_path):
    path = tmp_path / "chroma"
    VectorStore(path=path).upsert(
        "alice", "event", ["r1", "r2"], [[1, 0, 0], [0, 1, 0]], [{"day": 1}, {"day": 2}]
    )
    again = VectorStore(path=path)
    assert again.count("alice", "event") == 2
    hits = again.query("alice", "event", [1, 0.1, 0], k=1)
    assert [h.id for h in hits] == ["r1"] and hits[0].metadata == {"day": 1}


def test_query_ranking_and_cosine_scores(store):
    rng = np.random.default_rng(0)
    vecs = rng.normal(size=(20, 8))
    ids = [f"u{i:02d}" for i in range(20)]
    store.upsert("m", "event", ids, vecs)
    q = rng.normal(size=8)
    expected = {i: float(unit(v) @ unit(q)) for i, v in zip(ids, vecs)}
    hits = store.query("m", "event", q, k=5)
    assert all(isinstance(h, Hit) for h in hits)
    assert [h.id for h in hits] == sorted(expected, key=lambda i: -expected[i])[:5]
    for h in hits:
        assert h.score == pytest.approx(expected[h.id], abs=1e-4)
    # an exact match scores 1, the opposite direction -1 (cosine, not a distance)
    assert store.query("m", "event", vecs[3], k=1)[0].score == pytest.approx(1.0, abs=1e-5)
    assert store.query("m", "event", -vecs[3], k=20)[-1].score == pytest.approx(-1.0, abs=1e-5)


def test_k_larger_than_count_and_nonpositive_k(store):
    store.upsert("m", "event", ["a", "b"], [[1, 0], [0, 1]])
    assert {h.id for h in store.query("m", "event", [1, 1], k=100)} == {"a", "b"}
    assert store.query("m", "event", [1, 1], k=0) == []


def test_where_filter(store):
    store.upsert(
        "m",
        "event",
        ["a", "b", "c"],
        [[1, 0], [0.9, 0.1], [0, 1]],
        [{"kind": "photo", "day": 1}, {"kind": "text", "day": 2}, {"kind": "photo", "day": 3}],
    )
    assert [h.id for h in store.query("m", "event", [1, 0], k=3, where={"kind": "photo"})] == [
        "a",
        "c",
    ]
    hits = store.query("m", "event", [1, 0], k=3, where={"day": {"$gte": 2}})
    assert [h.id for h in hits] == ["b", "c"]
    assert len(store.query("m", "event", [1, 0], k=3, where={})) == 3  # empty filter = none


def test_metadata_cleaning(store):
    store.upsert("m", "event", ["a"], [[1, 0]], [{"keep": "x", "n": np.float64(0.5), "gone": None}])
    assert store.query("m", "event", [1, 0], k=1)[0].metadata == {"keep": "x", "n": 0.5}
    store.upsert("m", "event", ["b"], [[0, 1]], [{"gone": None}])  # empty after cleaning: ok
    assert store.query("m", "event", [0, 1], k=1)[0].metadata == {}
    with pytest.raises(ValueError, match="'tags'"):
        store.upsert("m", "event", ["c"], [[1, 1]], [{"tags": ["a", "b"]}])
    with pytest.raises(ValueError, match="'when'"):
        store.upsert("m", "event", ["c"], [[1, 1]], [{"when": object()}])


@pytest.mark.parametrize("hostile", HOSTILE_IDS, ids=["dotdot", "sql", "long", "unicode", "slashes"])
def test_tenant_isolation_with_hostile_ids(store, hostile):
    store.upsert(hostile, "event", ["r1", "r2"], [[1, 0, 0], [0, 1, 0]], [{"who": "h"}] * 2)
    store.upsert("bob", "event", ["r1", "r2"], [[0, 0, 1], [0, 1, 1]], [{"who": "b"}] * 2)
    store.upsert("bob", "topic", ["t1"], [[1, 1, 1]])

    assert {h.metadata["who"] for h in store.query(hostile, "event", [1, 0, 0], k=10)} == {"h"}
    assert {h.metadata["who"] for h in store.query("bob", "event", [1, 0, 0], k=10)} == {"b"}
    np.testing.assert_allclose(store.get(hostile, "event", ["r1"])["r1"], [1, 0, 0])
    np.testing.assert_allclose(store.get("bob", "event", ["r1"])["r1"], [0, 0, 1])

    store.delete(hostile, "event", ["r1"])
    assert store.count(hostile, "event") == 1 and store.count("bob", "event") == 2

    store.delete("bob", "event")  # the whole space of bob only
    assert store.count("bob", "event") == 0 and store.count(hostile, "event") == 1
    assert store.count("bob", "topic") == 1

    store.upsert(hostile, "topic", ["t1"], [[1, 0, 1]])
    store.drop_memory(hostile)
    assert store.spaces(hostile) == []
    assert store.query(hostile, "event", [1, 0, 0], k=3) == []
    assert store.spaces("bob") == ["topic"] and store.count("bob", "topic") == 1


def test_hash_collision_is_refused(store, monkeypatch):
    store.upsert("alice", "event", ["a"], [[1, 0]])
    # Pretend "mallory" hashes like "alice": the owner check must refuse the collection.
    import adamm.stores.vectors as vectors

    real = vectors.memory_key
    with monkeypatch.context() as mp:  # (not .undo(): the test's home stays set)
        mp.setattr(vectors, "memory_key", lambda m: real("alice"))
        with pytest.raises(RuntimeError, match="another memory id"):
            store.query("mallory", "event", [1, 0], k=1)
        with pytest.raises(RuntimeError, match="another memory id"):
            store.drop_memory("mallory")
    assert store.count("alice", "event") == 1


def test_dimension_mismatch(store):
    store.upsert("m", "visual", ["a"], [[1, 0, 0]])
    with pytest.raises(ValueError, match=r"'visual'.*3.*4"):
        store.upsert("m", "visual", ["b"], [[1, 0, 0, 0]])
    with pytest.raises(ValueError, match=r"'visual'.*3.*2"):
        store.query("m", "visual", [1, 0], k=1)
    with pytest.raises(ValueError, match="same dimension"):
        store.upsert("m", "visual", ["c", "d"], [[1, 0, 0], [1, 0]])
    store.upsert("other", "visual", ["a"], [[1, 0, 0, 0]])  # dims are per collection
    store.delete("m", "visual")
    store.upsert("m", "visual", ["a"], [[1, 0]])  # dropping the space frees the dimension


def test_bad_vectors_and_ids(store):
    with pytest.raises(ValueError, match="zero vector"):
        store.upsert("m", "event", ["a"], [[0, 0]])
    with pytest.raises(ValueError, match="NaN"):
        store.upsert("m", "event", ["a"], [[np.nan, 1]])
    with pytest.raises(ValueError, match="duplicate"):
        store.upsert("m", "event", ["a", "a"], [[1, 0], [0, 1]])
    with pytest.raises(ValueError, match="2 ids but 1 vectors"):
        store.upsert("m", "event", ["a", "b"], [[1, 0]])
    with pytest.raises(ValueError):
        VectorStore()
    with pytest.raises(ValueError):
        VectorStore(path="x", url="http://localhost:8000")
    store.upsert("m", "event", [], np.zeros((0, 2)))  # nothing to do
    assert store.count("m", "event") == 0


@pytest.mark.parametrize("bad", ["", "Event", "a b", "x" * 42, "-a", "a-", "a..b", "ép", "a/b"])
def test_space_validation(store, bad):
    with pytest.raises(ValueError, match="invalid space"):
        store.upsert("m", bad, ["a"], [[1, 0]])
    with pytest.raises(ValueError, match="invalid space"):
        store.query("m", bad, [1, 0], k=1)


def test_space_names_accepted():
    for ok in ["event", "e", "topic.text", "event_visual", "v-2", "x" * 41]:
        assert check_space(ok) == ok
    assert len(memory_key("x" * 5000)) == 20


def test_missing_space(store):
    assert store.query("nobody", "event", [1, 0], k=5) == []
    assert store.count("nobody", "event") == 0
    assert store.get("nobody", "event", ["a"]) == {}
    store.delete("nobody", "event", ["a"])
    store.delete("nobody", "event")
    store.drop_memory("nobody")
    assert store.spaces("nobody") == []


def test_batching(store, monkeypatch):
    calls = []
    monkeypatch.setattr(store, "max_batch_size", 7)
    import chromadb.api.models.Collection as coll

    real_upsert = coll.Collection.upsert

    def spy(self, *args, **kwargs):
        calls.append(len(kwargs["ids"]))
        return real_upsert(self, *args, **kwargs)

    monkeypatch.setattr(coll.Collection, "upsert", spy)
    rng = np.random.default_rng(1)
    vecs = rng.normal(size=(30, 4))
    ids = [f"u{i}" for i in range(30)]
    store.upsert("m", "event", ids, vecs, [{"i": i} for i in range(30)])
    assert calls == [7, 7, 7, 7, 2]
    assert store.count("m", "event") == 30
    got = store.get("m", "event", ids + ["missing"])
    assert set(got) == set(ids)
    for i, v in zip(ids, vecs):
        np.testing.assert_allclose(got[i], v, rtol=1e-6, atol=1e-6)
    store.delete("m", "event", ids[:20])
    assert store.count("m", "event") == 10


def test_get_returns_stored_vectors(store):
    vecs = np.array([[0.1, 0.2, 0.3], [-1.5, 2.0, 0.25]], dtype=np.float32)
    store.upsert("m", "event", ["a", "b"], vecs)
    store.upsert("m", "event", ["a"], [[3.0, 2.0, 1.0]])  # upsert replaces
    got = store.get("m", "event", ["a", "b", "zzz"])
    assert set(got) == {"a", "b"} and got["a"].dtype == np.float32
    np.testing.assert_allclose(got["a"], [3.0, 2.0, 1.0])
    np.testing.assert_allclose(got["b"], vecs[1])


# ------------------------------------------------------------------------------ Chroma server


@pytest.mark.slow
def test_chroma_server(tmp_path):
    # the CLI installed with chromadb, next to this Python (skipped without it; failed under CI)
    cmd = [executable("chroma", "it comes with chromadb")]
    port = free_port()
    log = open(tmp_path / "chroma.log", "wb")
    proc = subprocess.Popen(
        cmd + ["run", "--path", str(tmp_path / "server"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, so we can stop it and its children
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(
                        "chroma server did not start: " + (tmp_path / "chroma.log").read_text()[-2000:]
                    )
                time.sleep(0.2)

        store = VectorStore(url=f"http://127.0.0.1:{port}")
        store.max_batch_size = 3
        hostile = "'; DROP TABLE x; -- ../"
        store.upsert(hostile, "event", ["a", "b", "c", "d"], [[1, 0], [0.8, 0.2], [0, 1], [-1, 0]],
                     [{"k": 1}, {"k": 2}, {"k": 1}, {"k": 2}])
        store.upsert("bob", "event", ["a"], [[0, 1]], [{"k": 9}])
        hits = store.query(hostile, "event", [1, 0], k=10)
        assert [h.id for h in hits] == ["a", "b", "c", "d"]
        assert hits[0].score == pytest.approx(1.0, abs=1e-5)
        assert hits[-1].score == pytest.approx(-1.0, abs=1e-5)
        assert [h.id for h in store.query(hostile, "event", [1, 0], k=10, where={"k": 1})] == ["a", "c"]
        assert [h.metadata for h in store.query("bob", "event", [1, 0], k=10)] == [{"k": 9}]
        with pytest.raises(ValueError, match="dimension"):
            store.upsert("bob", "event", ["z"], [[1, 0, 0]])
        assert store.query("bob", "missing", [1, 0], k=3) == []
        store.drop_memory(hostile)
        assert store.count(hostile, "event") == 0 and store.count("bob", "event") == 1
        np.testing.assert_allclose(store.get("bob", "event", ["a"])["a"], [0, 1])
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()
