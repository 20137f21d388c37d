"""BM25Index and the persisted, self-healing KeywordIndexes cache."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

from adamm.stores.bm25 import BM25Index, KeywordIndexes, tokenize
from adamm.stores.sql import SqlStore

CORPUS = [
    ("r1", "I slept 6.5 hours last night and felt tired"),
    ("r2", "Lunch was a salad; I felt fine after lunch"),
    ("r3", "Morning run: 5 km, felt great, glucose 110"),
    ("r4", "Dinner with Anna at the sushi place, felt happy"),
]


def test_tokenize_basics():
    assert tokenize("The Cat and THE hat!") == ["cat", "hat"]
    assert tokenize("slept 6.5 h, 2023-05-08") == ["slept", "6.5", "h", "2023", "05", "08"]
    assert tokenize("time_in_range: 82%") == ["time", "range", "82"]
    assert tokenize("Café NAÏVE 名前 Ｆｕｌｌ") == ["café", "naïve", "名前", "full"]
    assert tokenize("") == [] and tokenize("the of and") == []
    assert tokenize("I did not sleep") == ["not", "sleep"]  # negations are kept


def test_rare_term_ranks_first():
    idx = BM25Index(CORPUS)
    scores = idx.scores("felt sushi")
    assert set(scores) == {"r1", "r2", "r3", "r4"}
    assert max(scores, key=scores.get) == "r4"  # "felt" is everywhere, "sushi" only in r4
    assert all(s > 0 for s in scores.values())  # common terms still count, never negative
    assert idx.search("glucose", k=5)[0][0] == "r3"
    assert idx.scores("nothing matches")["r1"] == 0.0


def test_single_document_still_matches():
    # rank_bm25's own Okapi IDF is negative here; ours must still return the document.
    assert [u for u, _ in BM25Index([("only", "slept well")]).search("slept", 3)] == ["only"]
    two = BM25Index([("a", "sleep"), ("b", "run")])
    assert [u for u, _ in two.search("sleep", 3)] == ["a"]


def test_search_k_positive_and_ties():
    idx = BM25Index([("b", "apple pie"), ("a", "apple pie"), ("c", "pear"), ("d", "apple tart")])
    hits = idx.search("apple pie", k=10)
    assert [u for u, _ in hits] == ["a", "b", "d"]  # c scores 0 and is left out
    assert hits[0][1] == hits[1][1] > hits[2][1] > 0
    assert idx.search("apple pie", k=2) == hits[:2]
    assert idx.search("apple", k=0) == []
    # the same corpus in another order gives the same answer
    shuffled = BM25Index([("d", "apple tart"), ("c", "pear"), ("a", "apple pie"), ("b", "apple pie")])
    assert shuffled.search("apple pie", k=10) == hits


def test_empty_corpus_and_empty_texts():
    empty = BM25Index([])
    assert len(empty) == 0 and empty.ids == [] and empty.scores("x") == {} and empty.search("x", 3) == []
    blank = BM25Index([("a", ""), ("b", "the of")])
    assert len(blank) == 2 and blank.search("anything", 5) == []
    assert blank.scores("a") == {"a": 0.0, "b": 0.0}


def test_index_is_immutable_and_rejects_duplicates():
    idx = BM25Index(CORPUS)
    idx.ids.append("zzz")
    assert idx.ids == ["r1", "r2", "r3", "r4"] and len(idx) == 4 and "r2" in idx
    with pytest.raises(ValueError, match="duplicate"):
        BM25Index([("a", "x"), ("a", "y")])


class CountingStore:
    """The source of truth: the real SQL store (SQLite in the test's directory), its units and
    their version tokens, with a count of how often the indexes read a corpus from it."""

    def __init__(self, store: SqlStore):
        self.store = store
        self.corpus_calls: Counter = Counter()
        self.version = store.units_version

    def add(self, memory_id, space, unit_id, text):
        self.store.put_units(memory_id, space, [(unit_id, text, {})])

    def corpus(self, memory_id, space):
        self.corpus_calls[(memory_id, space)] += 1
        return self.store.unit_corpus(memory_id, space)

    def indexes(self, directory):
        return KeywordIndexes(directory, self.corpus, self.version)


@pytest.fixture
def sql(tmp_path):
    # the database sits in a subdirectory: the tests count the pickles directly in tmp_path
    store = SqlStore(f"sqlite:///{tmp_path / 'db' / 'adamm.db'}")
    db = CountingStore(store)
    for uid, text in CORPUS:
        db.add("alice", "event", uid, text)
    yield db
    store.close()


def test_builds_caches_and_rebuilds_on_new_version(sql, tmp_path):
    kw = sql.indexes(tmp_path)
    assert kw.get("alice", "event").search("sushi", 3)[0][0] == "r4"
    assert kw.get("alice", "event") is kw.get("alice", "event")
    assert sql.corpus_calls[("alice", "event")] == 1  # version unchanged: no re-read
    sql.add("alice", "event", "r5", "sushi again, sushi forever")
    assert kw.get("alice", "event").search("sushi", 3)[0][0] == "r5"
    assert sql.corpus_calls[("alice", "event")] == 2
    assert kw.count("alice", "event") == 5


def test_persists_and_new_instance_loads_without_corpus(sql, tmp_path):
    sql.indexes(tmp_path).get("alice", "event")
    files = list(tmp_path.glob("*.pkl"))
    assert len(files) == 1 and files[0].name.endswith("_event.pkl")
    assert not list(tmp_path.glob("*.tmp"))  # the temp file was moved into place
    fresh = sql.indexes(tmp_path)
    assert fresh.get("alice", "event").search("glucose", 1)[0][0] == "r3"
    assert sql.corpus_calls[("alice", "event")] == 1
    # a stale pickle (the SQL content moved on) is not trusted
    sql.add("alice", "event", "r5", "new text")
    assert sql.indexes(tmp_path).count("alice", "event") == 5
    assert sql.corpus_calls[("alice", "event")] == 2


def test_missing_pickle_is_rebuilt_from_sql(sql, tmp_path):
    sql.indexes(tmp_path).get("alice", "event")
    for f in tmp_path.glob("*.pkl"):
        f.unlink()
    assert sql.indexes(tmp_path).count("alice", "event") == 4
    assert sql.corpus_calls[("alice", "event")] == 2
    assert len(list(tmp_path.glob("*.pkl"))) == 1  # and written again


@pytest.mark.parametrize("garbage", [b"", b"not a pickle", pickle.dumps({"format": 1})[:-3],
                                     pickle.dumps(["wrong", "shape"])])
def test_corrupt_pickle_is_rebuilt(sql, tmp_path, garbage):
    sql.indexes(tmp_path).get("alice", "event")
    (path,) = tmp_path.glob("*.pkl")
    path.write_bytes(garbage)
    kw = sql.indexes(tmp_path)
    assert kw.get("alice", "event").search("sushi", 1)[0][0] == "r4"
    assert sql.corpus_calls[("alice", "event")] == 2
    assert sql.indexes(tmp_path).count("alice", "event") == 4  # the rewrite is readable
    assert sql.corpus_calls[("alice", "event")] == 2


@pytest.mark.parametrize("directory", ["disk", None])
def test_isolation_between_memories(sql, tmp_path, directory):
    hostile = "../../'; DROP TABLE x; -- 名前" * 100
    sql.add(hostile, "event", "r1", "secret sushi recipe")
    sql.add("bob", "event", "r1", "bob went bowling")
    kw = sql.indexes(tmp_path if directory else None)
    assert kw.get("bob", "event").search("sushi", 5) == []
    assert kw.get(hostile, "event").ids == ["r1"]
    assert kw.get("alice", "event").search("bowling", 5) == []
    assert kw.get("nobody", "event").search("sushi", 5) == []
    if directory:
        assert len(list(tmp_path.glob("*.pkl"))) == 4
        assert all(p.parent == tmp_path for p in tmp_path.rglob("*.pkl"))  # no path escape


def test_invalidate(sql, tmp_path):
    sql.add("alice", "topic", "t1", "food")
    sql.add("bob", "event", "b1", "bowling")
    kw = sql.indexes(tmp_path)
    for m, s in [("alice", "event"), ("alice", "topic"), ("bob", "event")]:
        kw.get(m, s)
    assert len(list(tmp_path.glob("*.pkl"))) == 3
    kw.invalidate("alice", "topic")
    assert len(list(tmp_path.glob("*.pkl"))) == 2
    kw.get("alice", "topic")
    assert sql.corpus_calls[("alice", "topic")] == 2  # the cache was dropped too
    kw.invalidate("alice")
    assert [p.name.split("_", 1)[1] for p in tmp_path.glob("*.pkl")] == ["event.pkl"]
    kw.get("bob", "event")
    assert sql.corpus_calls[("bob", "event")] == 1  # bob untouched
    kw.invalidate("nobody")


def test_memory_only(sql):
    kw = sql.indexes(None)
    assert kw.count("alice", "event") == 4
    assert kw.count("alice", "event") == 4
    assert sql.corpus_calls[("alice", "event")] == 1
    kw.invalidate("alice")
    assert kw.count("alice", "event") == 4
    assert sql.corpus_calls[("alice", "event")] == 2


def test_bad_space_and_unusable_directory(sql, tmp_path, caplog):
    kw = sql.indexes(tmp_path)
    with pytest.raises(ValueError, match="invalid space"):
        kw.get("alice", "../event")
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    # a broken cache directory must not break search: build in memory and warn
    assert sql.indexes(blocker).get("alice", "event").search("sushi", 1)[0][0] == "r4"
    assert "not persisting" in caplog.text


def test_lru_bound(sql):
    for i in range(5):
        sql.add(f"m{i}", "event", "u", "text")
    kw = KeywordIndexes(None, sql.corpus, sql.version, max_cached=2)
    for i in range(5):
        kw.get(f"m{i}", "event")
    kw.get("m4", "event")
    kw.get("m0", "event")
    assert sql.corpus_calls[("m4", "event")] == 1 and sql.corpus_calls[("m0", "event")] == 2


def test_pickle_of_another_memory_is_not_used(sql, tmp_path):
    from adamm.stores.vectors import memory_key

    sql.add("bob", "event", "b1", "bowling night")
    sql.indexes(tmp_path).get("alice", "event")
    # simulate a hash collision: alice's file sits where bob's would be
    (tmp_path / f"{memory_key('alice')}_event.pkl").rename(tmp_path / f"{memory_key('bob')}_event.pkl")
    alice = sql.store.units_version("alice", "event")
    sql.version = lambda m, s: alice  # the same version string as alice's, so only the owner differs
    assert sql.indexes(tmp_path).get("bob", "event").ids == ["b1"]


def test_concurrent_builders_read_the_corpus_once(sql, tmp_path):
    import threading
    import time

    def slow_corpus(m, s):
        time.sleep(0.05)
        return sql.corpus(m, s)

    results = []

    def worker():
        kw = KeywordIndexes(tmp_path, slow_corpus, sql.version)  # one instance per "process"
        results.append(kw.count("alice", "event"))

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [4] * 6
    assert sql.corpus_calls[("alice", "event")] == 1


def test_postings_search_ranks_exactly_like_full_scoring() -> None:
    """Scores come from per-term postings; they must agree with rank_bm25's full pass over
    every document (``get_scores``) on every query, repeated query terms and unknown words
    included."""
    import random

    rng = random.Random(7)
    words = [f"w{i}" for i in range(300)]
    docs = [(f"d{i:04d}", " ".join(rng.choices(words, k=rng.randint(1, 30)))) for i in range(800)]
    idx = BM25Index(docs)
    for _ in range(40):
        query = " ".join(rng.choices(words + ["unseen"], k=rng.randint(1, 6)))
        terms = [t for t in tokenize(query) if t in idx._bm25.idf]
        reference = idx._bm25.get_scores(terms) if terms else [0.0] * len(docs)
        assert idx.scores(query) == pytest.approx({u: float(v) for (u, _), v in zip(docs, reference)}, abs=1e-9)
        full = sorted(((u, float(v)) for (u, _), v in zip(docs, reference) if v > 0), key=lambda h: (-h[1], h[0]))[:25]
        fast = idx.search(query, 25)
        assert [u for u, _ in fast] == [u for u, _ in full]
        assert all(abs(a[1] - b[1]) < 1e-9 for a, b in zip(fast, full))
