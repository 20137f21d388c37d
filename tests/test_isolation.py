"""One memory never sees, changes or deletes another's data - also when ids are hostile.

Every memory here holds the same round ids and the same table names, with different content,
so a missing ``memory_id`` filter anywhere shows up as a foreign word in a result.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adamm.cli import main
from adamm.memory import Memory
from adamm.graphs.ingest import graph as ingest
from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.forget import forget
from adamm.nodes.ingest import InputError
from adamm.nodes.retrieval import children, event_locate, raw_rounds, semantic_match
from adamm.stores import analytic

#: Memory ids a hostile or careless host might pass; each must stay a memory of its own.
HOSTILE = ["../", "../../etc/passwd", "'; DROP TABLE adamm_rounds; --", "a%", "m" * 256, "🐶 ümlaut"]
PETS = ["Biscuit", "Rex", "Mochi", "Pudding", "Zorro", "Waffles", "Nimbus", "Pickle", "Tofu"]


def history(pet: str, hours: int) -> list[dict]:
    rounds = [{"round_id": f"r{i}", "session_id": "s1", "timestamp": f"2025-03-{i + 1:02d}T08:00:00",
               "user_text": f"Total sleep {hours} h · Deep sleep 1 h · Resting HR 55 bpm"} for i in range(4)]
    rounds.append({"round_id": "r9", "session_id": "s2", "timestamp": "2025-03-20T10:00:00",
                   "user_text": f"We named the new puppy {pet}.", "assistant_text": f"{pet} is a lovely name."})
    return rounds


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Context, dict[str, tuple[str, int]], Path]:
    root = tmp_path_factory.mktemp("isolation")
    ctx = Context(home=str(root / "home"), theta_support=4)
    owners = {mid: (pet, 5 + k) for k, (mid, pet) in enumerate(zip(["alice", *HOSTILE], PETS))}
    for mid, (pet, hours) in owners.items():
        ingest.invoke({"memory_id": mid, "rounds": history(pet, hours)}, context=ctx)
    return ctx, owners, root


def foreign(text: str, mine: str) -> list[str]:
    return [p for p in PETS if p != mine and p in text]


def test_every_store_read_and_tool_stays_in_its_memory(world) -> None:
    ctx, owners, _ = world
    b = backends(ctx)
    for mid, (pet, hours) in owners.items():
        rounds = b.sql.get_rounds(mid)
        assert [r.round_id for r in rounds] == ["r0", "r1", "r2", "r3", "r9"], mid
        assert pet in rounds[-1].text and not foreign(rounds[-1].text, pet)
        stats = Memory(mid, context=ctx).stats()
        assert stats["rounds"] == stats["vectors"] == stats["bm25_entries"] == stats["events"] == 5, (mid, stats)
        assert stats["tables"] == 1 and stats["table_rows"] == 4
        (table,) = b.sql.tables(mid)
        (sleep,) = [c for c in table.column_names if "sleep" in c and "deep" not in c]
        res = analytic.compute(b.sql, mid, table.name, sleep, "avg")
        assert res.value == hours and res.matched == 4
        assert analytic.lookup(b.sql, mid, table.name, {"source": "r1"}).rows[0][sleep] == hours
        assert analytic.filter_rows(b.sql, mid, table.name, [{"column": sleep, "op": "!=", "value": hours}]).matched == 0
        assert analytic.rank(b.sql, mid, table.name, sleep, "desc", result_budget=100).matched == 4
        for other_pet in PETS:  # a question about another memory's puppy finds only this memory's rounds
            for unit in semantic_match(ctx, mid, f"puppy named {other_pet}", "event", 10):
                assert not foreign(unit.text, pet), (mid, unit.text)
        located = event_locate(ctx, mid, "puppy name", 5, window=3)
        assert located and all(not foreign(u.text, pet) for u in located)
        assert all(not foreign(c["text"], pet) for u in located for c in u.context)
        for scope in ("episode", "topic"):
            for unit in semantic_match(ctx, mid, "puppy", scope, 10):
                assert set(unit.round_ids) <= {"r0", "r1", "r2", "r3", "r9"} and not foreign(unit.text, pet)
                assert all(not foreign(k.text, pet) for k in children(ctx, mid, unit.node_id))
        assert [r.round_id for r in raw_rounds(ctx, mid, ["r9", "nope"])] == ["r9"]
        assert pet in raw_rounds(ctx, mid, ["r9"])[0].user_text
        assert b.keywords.get(mid, "rounds").search(pet, 5)[0][0] == "r9"
        assert all(not b.keywords.get(mid, "rounds").search(p, 5) for p in PETS if p != pet)


def test_tools_refuse_bad_memory_ids_and_unknown_tables(world) -> None:
    ctx, _, _ = world
    b = backends(ctx)
    for bad in ("", None, 42):
        with pytest.raises(analytic.ToolError):
            analytic.compute(b.sql, bad, "sleep_log", "total_sleep", "avg")  # type: ignore[arg-type]
    with pytest.raises(analytic.ToolError):  # a memory that does not exist has no tables to read
        analytic.compute(b.sql, "nobody", b.sql.tables("alice")[0].name, "total_sleep", "avg")
    assert raw_rounds(ctx, "nobody", ["r9"]) == [] and semantic_match(ctx, "nobody", "puppy", "event", 5) == []
    assert children(ctx, "nobody", "ep:r0") == []


def test_cli_with_hostile_ids_stays_inside_and_inside_the_data_directory(world, capsys) -> None:
    ctx, owners, root = world
    home = ["--home", ctx.home]
    for mid in HOSTILE:
        assert main([*home, "stats", "--memory-id", mid, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["rounds"] == 5
        assert main([*home, "tables", "--memory-id", mid, "--json"]) == 0
        assert len(json.loads(capsys.readouterr().out)) == 1
    for bad in ("m" * 257, "tab\there", ""):
        for argv in (["stats", "--memory-id", bad], ["tables", "--memory-id", bad], ["forget", "--memory-id", bad, "--all"],
                     ["ask", "puppy?", "--memory-id", bad]):
            assert main([*home, *argv]) == 2, argv
            assert "memory_id" in capsys.readouterr().err
        with pytest.raises(InputError):
            ingest.invoke({"memory_id": bad, "rounds": history("X", 1)}, context=ctx)
    # Nothing was written outside the data directory, and no file name there carries a memory id.
    assert sorted(p.name for p in root.iterdir()) == ["home"]
    names = [p.name for p in Path(ctx.home).rglob("*")]
    assert not any(s in n for n in names for s in ("..", "'", "%", "🐶", "alice", "passwd"))


def test_forgetting_a_hostile_memory_touches_no_other(tmp_path) -> None:
    ctx = Context(home=str(tmp_path / "home"), use_analytic=True)
    ids = ["a%", "ab", "a_", "'; --", "' OR '1'='1"]
    for mid in ids:
        ingest.invoke({"memory_id": mid, "rounds": history("Rex", 6)}, context=ctx)
    before = {mid: Memory(mid, context=ctx).stats() for mid in ids}
    for gone in ("a%", "' OR '1'='1"):
        report = forget(ctx, gone, everything=True)
        assert report.rounds == 5
        assert all(v == 0 for v in Memory(gone, context=ctx).stats().values())
        for mid in ids:
            if mid not in ("a%", "' OR '1'='1") and (gone == "a%" or mid != "a%"):
                assert Memory(mid, context=ctx).stats() == before[mid], (gone, mid)
    assert forget(ctx, "ab", round_ids=["r9"]).rounds == 1
    assert Memory("a_", context=ctx).stats()["rounds"] == 5 and Memory("'; --", context=ctx).stats()["rounds"] == 5
    assert Memory("a_", context=ctx).table_documents()[0]["rows"][0]["source"] == "r0"
