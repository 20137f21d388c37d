"""The SQL store, run identically on the embedded SQLite file and on the local PostgreSQL."""

from __future__ import annotations

from datetime import datetime

import pytest
import sqlalchemy.exc

from adamm.stores.records import ImageRef, Round
from adamm.stores.analytic import ToolError, filter_rows, rank
from adamm.stores.sql import ColumnSpec, SqlStore, StoreError, check_identifier, memory_key
from adamm.stores.sql_models import NodeRecord, ObservationRecord


@pytest.fixture
def store(db_url: str):
    s = SqlStore(db_url)
    yield s
    s.close()


def rounds(n: int, prefix: str = "r") -> list[Round]:
    return [
        Round(round_id=f"{prefix}{i}", session_id="s1", timestamp=f"2025-03-{i + 1:02d}T08:00:00",
              user_text=f"I slept {6 + i / 10:.1f} hours", assistant_text="Noted.",
              images=[ImageRef(image_id=f"img{i}", caption=f"sleep dashboard {i}", data=b"\x89PNG")] if i % 2 == 0 else [],
              metadata={"device": "watch", "n": i})
        for i in range(n)
    ]


def test_rounds_round_trip_in_order(store: SqlStore) -> None:
    given = rounds(5)
    res = store.add_rounds("alice", given)
    assert res.added == [r.round_id for r in given]
    back = store.get_rounds("alice")
    assert [r.round_id for r in back] == [r.round_id for r in given]
    assert [r.order for r in back] == [0, 1, 2, 3, 4]
    assert back[0].images[0].data == b"\x89PNG" and back[0].images[0].caption == "sleep dashboard 0"
    assert back[3].metadata == {"device": "watch", "n": 3}
    assert back[2].timestamp == datetime(2025, 3, 3, 8, 0)
    assert store.newest_time("alice") == datetime(2025, 3, 5, 8, 0)


def test_add_rounds_is_idempotent_and_detects_updates(store: SqlStore) -> None:
    store.add_rounds("alice", rounds(3))
    again = store.add_rounds("alice", rounds(3))
    assert again.added == [] and again.unchanged == ["r0", "r1", "r2"]
    assert store.count_rounds("alice") == 3
    store.mark_derived("alice", ["r0", "r1", "r2"])
    changed = rounds(3)
    changed[1] = changed[1].model_copy(update={"user_text": "I slept 9 hours"})
    res = store.add_rounds("alice", changed)
    assert res.updated == ["r1"] and res.unchanged == ["r0", "r2"]
    assert store.count_rounds("alice") == 3
    assert store.pending_round_ids("alice") == ["r1"]
    assert store.pending_round_ids("alice", ["r0", "r2"]) == []
    assert store.get_rounds("alice", ["r1"])[0].user_text == "I slept 9 hours"
    # appended rounds continue the order after the newest one
    store.add_rounds("alice", [Round(round_id="late", user_text="hello")])
    assert store.get_rounds("alice", ["late"])[0].order == 3


def test_failed_batch_writes_nothing(store: SqlStore, monkeypatch: pytest.MonkeyPatch) -> None:
    store.add_rounds("alice", rounds(2))
    bad = rounds(4, prefix="n")
    # A value the database cannot take in the middle of the batch: nothing of the batch stays.
    object.__setattr__(bad[2], "session_id", "x" * 100_000)
    if store.url.startswith("postgres"):
        # session_id is VARCHAR(256): PostgreSQL refuses the third round's value
        with pytest.raises(sqlalchemy.exc.DataError, match="too long"):
            store.add_rounds("alice", bad)
    else:
        # SQLite accepts any string length, so fail the transaction from inside instead
        with monkeypatch.context() as mp, pytest.raises(RuntimeError, match="disk full"):
            _fail_at_third_round(mp)
            store.add_rounds("alice", bad)
    assert store.count_rounds("alice") == 2
    assert store.get_rounds("alice", ["n0", "n1", "n2", "n3"]) == []  # not even the rounds before the bad one
    # the same batch, fixed, goes in whole
    object.__setattr__(bad[2], "session_id", "s1")
    assert store.add_rounds("alice", bad).added == ["n0", "n1", "n2", "n3"]


def _fail_at_third_round(monkeypatch: pytest.MonkeyPatch) -> None:
    import adamm.stores.sql_rounds as sqlmod

    original = sqlmod._round_columns
    calls = {"n": 0}

    def failing(rnd: Round):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("disk full")
        return original(rnd)

    monkeypatch.setattr(sqlmod, "_round_columns", failing)


def test_tenant_isolation_with_hostile_ids(store: SqlStore) -> None:
    evil = "'; DROP TABLE adamm_rounds; --"
    store.add_rounds("alice", rounds(3))
    store.add_rounds(evil, rounds(2))
    store.add_rounds("../bob", rounds(1))
    assert store.count_rounds("alice") == 3
    assert store.count_rounds(evil) == 2
    assert store.count_rounds("../bob") == 1
    assert [r.round_id for r in store.get_rounds(evil)] == ["r0", "r1"]
    for mem in ("alice", evil):
        store.create_table(mem, "sleep_log", [ColumnSpec("sleep_hours", "float", "h")])
    store.upsert_rows("alice", "sleep_log", [{"source": "r0", "order": 0, "sleep_hours": 6.0}])
    store.upsert_rows(evil, "sleep_log", [{"source": "r0", "order": 0, "sleep_hours": 9.0}])
    assert [r["sleep_hours"] for r in store.select_rows("alice", "sleep_log")] == [6.0]
    assert [r["sleep_hours"] for r in store.select_rows(evil, "sleep_log")] == [9.0]
    store.drop_memory(evil)
    assert store.count_rounds(evil) == 0 and store.tables(evil) == []
    assert store.count_rounds("alice") == 3 and store.count_rows("alice", "sleep_log") == 1
    assert memory_key("alice") != memory_key(evil)


def test_induced_table_typed_columns_filters_and_ranking(store: SqlStore) -> None:
    info = store.create_table("alice", "sleep_log", [
        ColumnSpec("sleep_hours", "float", "h", "total sleep"),
        ColumnSpec("steps", "int"),
        ColumnSpec("mood", "text"),
        ColumnSpec("workout", "bool"),
        ColumnSpec("bed_time", "datetime"),
    ], description="nightly sleep", schema_key="mood|sleep_hours|steps")
    assert info.physical_name.startswith("t_") and info.column_names[0] == "sleep_hours"
    rows = [
        {"source": f"r{i}", "order": i, "time": datetime(2025, 3, i + 1, 8), "sleep_hours": h, "steps": s,
         "mood": m, "workout": w, "bed_time": f"2025-03-0{i + 1}T23:00:00"}
        for i, (h, s, m, w) in enumerate([(6.5, 8000, "tired", False), (7.25, "9500", "Great", "yes"),
                                          (5.0, 12000.0, "ok", 0), (8.0, None, "great mood", True)])
    ]
    assert store.upsert_rows("alice", "sleep_log", rows) == 4
    assert store.count_rows("alice", "sleep_log") == 4
    # filtered reads go through the analytic tools' one filter translation
    got = rank(store, "alice", "sleep_log", "sleep_hours", "desc", [{"column": "sleep_hours", "op": ">=", "value": "6.5"}]).rows
    assert [r["source"] for r in got] == ["r3", "r1", "r0"]
    assert got[1]["steps"] == 9500 and got[1]["workout"] is True

    def sources(*filters: dict) -> list[str]:
        return filter_rows(store, "alice", "sleep_log", list(filters)).sources

    assert sources({"column": "mood", "op": "contains", "value": "GREAT"}) == ["r1", "r3"]
    assert sources({"column": "steps", "op": "is_null"}) == ["r3"]
    assert sources({"column": "time", "op": "between", "value": ["2025-03-02", "2025-03-03T23:59:59"]}) == ["r1", "r2"]
    assert sources({"column": "steps", "op": "in", "value": [8000, 12000]}) == ["r0", "r2"]
    assert len(store.select_rows("alice", "sleep_log", limit=2)) == 2
    assert [r["source"] for r in store.select_rows("alice", "sleep_log", order_by="sleep_hours", descending=True)] == ["r3", "r1", "r0", "r2"]
    # LIKE wildcards in a value are literal
    assert sources({"column": "mood", "op": "contains", "value": "%"}) == []


def test_rows_with_different_columns_in_one_batch(store: SqlStore) -> None:
    store.create_table("alice", "sleep_log", [ColumnSpec("sleep_hours"), ColumnSpec("hrv")])
    store.upsert_rows("alice", "sleep_log", [{"source": "r0", "sleep_hours": 6.0}, {"source": "r1", "hrv": 40},
                                             {"source": "r2", "sleep_hours": 7.0, "hrv": 41}])
    got = {r["source"]: (r["sleep_hours"], r["hrv"]) for r in store.select_rows("alice", "sleep_log")}
    assert got == {"r0": (6.0, None), "r1": (None, 40.0), "r2": (7.0, 41.0)}


def test_upsert_replaces_the_row_of_the_same_round(store: SqlStore) -> None:
    store.create_table("alice", "sleep_log", [ColumnSpec("sleep_hours")])
    store.upsert_rows("alice", "sleep_log", [{"source": "r0", "order": 0, "sleep_hours": 6.0}])
    store.upsert_rows("alice", "sleep_log", [{"source": "r0", "order": 0, "sleep_hours": 7.0}])
    assert [r["sleep_hours"] for r in store.select_rows("alice", "sleep_log")] == [7.0]


def test_table_evolution_adds_columns_and_survives_reopen(store: SqlStore) -> None:
    store.create_table("alice", "sleep_log", [ColumnSpec("sleep_hours")])
    store.upsert_rows("alice", "sleep_log", [{"source": "r0", "order": 0, "sleep_hours": 6.0}])
    store.add_columns("alice", "sleep_log", [ColumnSpec("sleep_hours"), ColumnSpec("deep_sleep_hours")])
    store.upsert_rows("alice", "sleep_log", [{"source": "r1", "order": 1, "sleep_hours": 7.0, "deep_sleep_hours": 1.5}])
    reopened = SqlStore(store.url)
    try:
        assert reopened.table("alice", "sleep_log").column_names == ["sleep_hours", "deep_sleep_hours"]
        got = filter_rows(reopened, "alice", "sleep_log", [{"column": "deep_sleep_hours", "op": "not_null"}]).rows
        assert [(r["source"], r["deep_sleep_hours"]) for r in got] == [("r1", 1.5)]
    finally:
        reopened.close()


@pytest.mark.parametrize("name", ["Sleep", "sleep log", "x; DROP TABLE adamm_rounds", "émoji", "a" * 49, "1abc", "", "sleep\"log"])
def test_identifiers_from_models_are_refused(store: SqlStore, name: str) -> None:
    with pytest.raises(StoreError):
        check_identifier(name)
    with pytest.raises(StoreError):
        store.create_table("alice", name, [ColumnSpec("ok")])
    with pytest.raises(StoreError):
        store.create_table("alice", "ok_table", [ColumnSpec(name)])
    assert store.tables("alice") == []


def test_bad_values_and_requests_name_the_problem(store: SqlStore) -> None:
    store.create_table("alice", "sleep_log", [ColumnSpec("sleep_hours"), ColumnSpec("mood", "text")])
    with pytest.raises(StoreError, match="sleep_hours.*float"):
        store.upsert_rows("alice", "sleep_log", [{"source": "r0", "sleep_hours": "a lot"}])
    with pytest.raises(StoreError, match="no column 'steps'"):
        store.upsert_rows("alice", "sleep_log", [{"source": "r0", "steps": 3}])
    with pytest.raises(StoreError, match="no column"):
        store.select_rows("alice", "sleep_log", order_by="memory_id")
    with pytest.raises(ToolError, match="unknown column 'memory_id'"):
        filter_rows(store, "alice", "sleep_log", [{"column": "memory_id", "op": "=", "value": "bob"}])
    with pytest.raises(ToolError, match="numeric or datetime"):
        filter_rows(store, "alice", "sleep_log", [{"column": "mood", "op": ">", "value": "a"}])
    with pytest.raises(StoreError, match="unknown table"):
        store.select_rows("alice", "nope")
    with pytest.raises(StoreError, match="reserved"):
        store.create_table("alice", "t2", [ColumnSpec("source")])
    with pytest.raises(StoreError, match="already exists"):
        store.create_table("alice", "sleep_log", [ColumnSpec("x")])
    assert store.count_rows("alice", "sleep_log") == 0


def test_observations_schemas_attribute_sets_nodes_units(store: SqlStore) -> None:
    store.add_observations("alice", [
        ObservationRecord(memory_id="ignored", round_id="r0", attribute="sleep_hours", value_num=6.5, unit="h",
                          raw="6 h 30 min", source="image:img0"),
        ObservationRecord(memory_id="ignored", round_id="r0", attribute="mood", value_text="tired", source="user_text[0:5]"),
    ])
    obs = store.observations("alice", ["r0"])
    assert {o.attribute for o in obs} == {"sleep_hours", "mood"} and all(o.memory_id == "alice" for o in obs)
    # re-extraction of a round replaces its observations
    store.add_observations("alice", [ObservationRecord(memory_id="alice", round_id="r0", attribute="mood", value_text="ok")])
    assert [o.value_text for o in store.observations("alice")] == ["ok"]
    assert store.observations("bob") == []

    store.add_rounds("alice", [Round(round_id=f"c{i}", user_text="x") for i in range(2)])
    store.add_rounds("bob", [Round(round_id="c0", user_text="x")])
    store.count_round_attributes_many("alice", [("c0", ["b", "a"]), ("c1", ["a", "b", "a"])])
    store.count_round_attributes_many("bob", [("c0", ["a", "b"])])
    assert store.attribute_sets("alice") == [(frozenset({"a", "b"}), 2)]
    assert store.attribute_sets("bob") == [(frozenset({"a", "b"}), 1)]
    store.count_round_attributes_many("alice", [("c0", ["a", "b"])])  # unchanged: nothing moves
    store.count_round_attributes_many("alice", [("c1", ["a"])])       # changed: the count moves
    assert sorted(store.attribute_sets("alice"), key=len) == [(frozenset({"a"}), 1), (frozenset({"a", "b"}), 1)]
    assert store.counted_attributes("alice", ["c0", "c1"]) == {"c0": frozenset({"a", "b"}), "c1": frozenset({"a"})}

    store.put_schema("alice", ["sleep_hours", "deep_sleep"], support=4, table_name="sleep_log")
    store.put_schema("alice", ["deep_sleep", "sleep_hours"], support=5)
    (schema,) = store.schemas("alice")
    assert schema.support == 5 and schema.table_name == "sleep_log" and schema.attributes == ["deep_sleep", "sleep_hours"]

    store.put_nodes("alice", [
        NodeRecord(memory_id="alice", node_id="ev:r0", level="event", parent_id="ep:1", round_id="r0", first_order=0),
        NodeRecord(memory_id="alice", node_id="ep:1", level="episode", is_open=True, first_order=0, description="sleep week"),
    ])
    store.put_nodes("alice", [NodeRecord(memory_id="alice", node_id="ep:1", level="episode", is_open=False, first_order=0, description="sleep, closed")])
    assert [n.node_id for n in store.nodes("alice", "episode")] == ["ep:1"]
    assert store.nodes("alice", "episode")[0].description == "sleep, closed"
    assert store.nodes("alice", open_only=True) == []
    assert [n.node_id for n in store.nodes("alice", parent_id="ep:1")] == ["ev:r0"]

    v0 = store.units_version("alice", "rounds")
    store.put_units("alice", "rounds", [("r0", "hello there", {"order": 0}), ("r1", "general kenobi", {})])
    v1 = store.units_version("alice", "rounds")
    store.put_units("alice", "rounds", [("r1", "general grievous", {})])
    v2 = store.units_version("alice", "rounds")
    assert len({v0, v1, v2}) == 3
    assert store.unit_corpus("alice", "rounds") == [("r0", "hello there"), ("r1", "general grievous")]
    assert store.unit_corpus("bob", "rounds") == []
    assert store.units_version("alice", "rounds") == v2  # reading does not move it
    assert store.units_version("bob", "rounds") != v2  # nor does another memory's space share it
    store.delete_units("alice", "rounds", ["r0"])
    assert store.count_units("alice") == 1
    assert store.units_version("alice", "rounds") not in {v0, v1, v2}  # a deletion is a new version

    stats = store.stats("alice")
    assert stats["observations"] == 1 and stats["schemas"] == 1 and stats["events"] == 1 and stats["episodes"] == 1
    # light reads: a node's children and the rounds under episodes, in history order
    store.put_nodes("alice", [NodeRecord(memory_id="alice", node_id="ev:r1", level="event", parent_id="ep:1",
                                         round_id="r1", first_order=1)])
    assert store.child_rounds("alice", ["ep:1"], limit=5) == ["r0", "r1"]
    assert store.child_rounds("alice", ["ep:1"], limit=1) == ["r0"]
    assert sorted(store.node_ids("alice", "event", parent_ids=["ep:1"])) == ["ev:r0", "ev:r1"]
    assert [n.node_id for n in store.nodes("alice", "event", node_ids=["ev:r1", "ep:1"])] == ["ev:r1"]  # level still applies
    # the newest children, still in history order, and counts without reading the children
    store.put_nodes("alice", [NodeRecord(memory_id="alice", node_id="ev:r2", level="event", parent_id="ep:1",
                                         round_id="r2", first_order=2, has_visual=True)])
    assert [n.node_id for n in store.nodes("alice", "event", parent_id="ep:1", newest=2)] == ["ev:r1", "ev:r2"]
    assert store.child_counts("alice", "ep:1") == (3, 1)
    assert store.child_counts("alice", "ep:none") == (0, 0)
    # an update through put_nodes changes the stored record in place (one row per node id)
    store.put_nodes("alice", [NodeRecord(memory_id="alice", node_id="ev:r2", level="event", parent_id="ep:1",
                                         round_id="r2", first_order=2, description="changed")])
    assert [n.description for n in store.nodes("alice", node_ids=["ev:r2"])] == ["changed"]
    assert store.child_counts("alice", "ep:1") == (3, 0)