"""Forgetting removes a round and everything derived from it, and nothing of anyone else's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from adamm.cli import main
from adamm.memory import Memory
from adamm.graphs.ingest import graph as ingest
from adamm.nodes.backends import Backends, backends
from adamm.nodes.context import Context
from adamm.nodes.forget import forget
from adamm.nodes.hierarchy import EPISODES, EVENTS, IMAGES_VISUAL_SPACE, SPACE_OF_LEVEL, centroid_space, visual_space
from adamm.nodes.ingest import ROUNDS_SPACE, InputError
from adamm.stores.units import text_space

CHAT = ["We baked cookies at 180 C today.", "Walked the puppy Biscuit in the park.",
        "Bought a new blue bike for commuting.", "Planted tomatoes on the balcony."]


def base(n: int = 12) -> list[dict]:
    """Dashboards every other round (a table appears at θs = 4) between chat rounds."""
    out = []
    for i in range(n):
        text = f"Total sleep {6 + i % 3} h · Deep sleep 1 h · Resting HR {50 + i % 7} bpm" if i % 2 == 0 else CHAT[(i // 2) % 4]
        out.append({"round_id": f"r{i}", "session_id": "home", "timestamp": f"2025-03-{i // 2 + 1:02d}T{8 + (i % 2) * 10:02d}:00:00",
                    "user_text": text, "assistant_text": "Noted.",
                    "images": [{"image_id": "shot", "caption": f"Screenshot {i}"}] if i % 4 == 0 else []})
    return out


def trip() -> list[dict]:
    """A later session to forget: its own topic, a dashboard, an image caption."""
    return [
        {"round_id": "t0", "session_id": "trip", "timestamp": "2025-04-10T09:00:00", "user_text": "Flew to Lisbon for the conference."},
        {"round_id": "t1", "session_id": "trip", "timestamp": "2025-04-10T20:00:00",
         "user_text": "Total sleep 5 h · Deep sleep 1 h · Resting HR 61 bpm", "images": [{"image_id": "s", "caption": "Sleep app"}]},
        {"round_id": "t2", "session_id": "trip", "timestamp": "2025-04-11T12:00:00", "user_text": "Ate pastel de nata at the harbour."},
    ]


def consistent(b: Backends, memory_id: str) -> None:
    """Every node has its unit and vectors; no unit or vector outlives its node; no empty parent."""
    nodes = b.sql.nodes(memory_id)
    for level, space in SPACE_OF_LEVEL.items():
        ids = {n.node_id for n in nodes if n.level == level}
        assert {u.unit_id for u in b.sql.units(memory_id, space)} == ids, level
        assert set(b.keywords.get(memory_id, space).ids) == ids, level
        assert b.vectors.count(memory_id, text_space(space)) == len(ids), level
        assert set(b.vectors.get(memory_id, text_space(space), sorted(ids))) == ids, level
        if level != "event":
            assert b.vectors.count(memory_id, centroid_space(space)) == len(ids), level
        assert b.vectors.count(memory_id, visual_space(space)) <= len(ids)
    parents = {n.parent_id for n in nodes if n.parent_id}
    for n in nodes:
        if n.level != "event":
            assert n.node_id in parents, f"{n.node_id} has no children"
    rounds = {r.round_id for r in b.sql.get_rounds(memory_id)}
    assert {n.round_id for n in nodes if n.level == "event"} == rounds
    assert {u.unit_id for u in b.sql.units(memory_id, ROUNDS_SPACE)} == rounds
    assert b.vectors.count(memory_id, text_space(ROUNDS_SPACE)) == len(rounds)


def test_forget_a_session_leaves_what_never_having_it_leaves(home) -> None:
    ctx = Context()
    ingest.invoke({"memory_id": "m", "rounds": base() + trip()}, context=ctx)
    ingest.invoke({"memory_id": "never", "rounds": base()}, context=ctx)
    ingest.invoke({"memory_id": "other", "rounds": base() + trip()}, context=ctx)
    other_before = Memory("other", context=ctx).stats()
    b = backends(ctx)
    assert b.sql.nodes("m", "event", node_ids=["ev:t1"]) and b.sql.observations("m", ["t1"])

    report = forget(ctx, "m", session_id="trip")
    assert report.rounds == 3 and report.events == 3 and report.supports == 3
    assert report.table_rows == 1 and report.observations >= 3 and report.vectors > 3

    after, never = Memory("m", context=ctx).stats(), Memory("never", context=ctx).stats()
    for key in ("rounds", "observations", "schemas", "tables", "table_rows", "supports", "events", "vectors", "bm25_entries"):
        assert after[key] == never[key], key
    assert Memory("other", context=ctx).stats() == other_before  # another memory with the same rounds is untouched
    ids = ["t0", "t1", "t2"]
    assert not b.sql.get_rounds("m", ids) and not b.sql.observations("m", ids)
    assert not b.sql.nodes("m", "event", node_ids=[f"ev:{r}" for r in ids])
    assert not b.vectors.get("m", text_space(ROUNDS_SPACE), ids)
    assert not set(b.keywords.get("m", ROUNDS_SPACE).ids) & set(ids)
    assert not b.keywords.get("m", ROUNDS_SPACE).search("Lisbon pastel harbour", 5)
    assert not any(u.text.find("Lisbon") >= 0 for space in SPACE_OF_LEVEL.values() for u in b.sql.units("m", space))
    assert not any("Lisbon" in n.description for n in b.sql.nodes("m"))
    (table,) = b.sql.tables("m")
    assert not {r["source"] for r in b.sql.select_rows("m", table.name)} & set(ids)
    assert sorted(map(sorted, (s for s, _ in b.sql.attribute_sets("m")))) == sorted(map(sorted, (s for s, _ in b.sql.attribute_sets("never"))))
    consistent(b, "m")
    consistent(b, "other")

    # The memory keeps working: new rounds join the rebuilt hierarchy, nothing is duplicated.
    ingest.invoke({"memory_id": "m", "rounds": trip()}, context=ctx)
    assert Memory("m", context=ctx).stats()["rounds"] == 15
    consistent(b, "m")


def test_forget_rounds_in_the_middle_reports_tables_below_support(home) -> None:
    ctx = Context()
    ingest.invoke({"memory_id": "m", "rounds": base(12)}, context=ctx)
    b = backends(ctx)
    (table,) = b.sql.tables("m")
    assert len(b.sql.select_rows("m", table.name)) == 6
    report = forget(ctx, "m", round_ids=["r2", "r4", "r6", "r5", "missing"])
    assert report.rounds == 4 and report.table_rows == 3
    assert report.tables_below_support == [table.name]  # 3 dashboards left, θs = 4
    assert [r["source"] for r in b.sql.select_rows("m", table.name)] == ["r0", "r8", "r10"]
    (schema,) = b.sql.schemas("m")
    assert schema.support == 3
    assert Memory("m", context=ctx).stats()["supports"] == 8
    consistent(b, "m")
    again = forget(ctx, "m", round_ids=["r2"])  # idempotent
    assert again.rounds == 0 and again.events == 0


def test_forget_every_dashboard_drops_the_table(home) -> None:
    ctx = Context()
    ingest.invoke({"memory_id": "m", "rounds": base(12)}, context=ctx)
    b = backends(ctx)
    (table,) = b.sql.tables("m")
    report = forget(ctx, "m", round_ids=[f"r{i}" for i in range(0, 12, 2)])
    assert report.tables_dropped == [table.name]
    assert not b.sql.tables("m") and not b.sql.schemas("m", status=None)
    assert not b.sql.has_physical_table(table.physical_name)
    assert not {a.name for a in b.sql.attributes("m")} & {"total_sleep", "deep_sleep", "resting_hr"}
    consistent(b, "m")


def test_forget_all_and_the_cli(home, capsys) -> None:
    ctx = Context()
    ingest.invoke({"memory_id": "m", "rounds": base(8)}, context=ctx)
    ingest.invoke({"memory_id": "keep", "rounds": base(8)}, context=ctx)
    keep = Memory("keep", context=ctx).stats()
    before = Memory("m", context=ctx).stats()
    assert main(["forget", "--memory-id", "m", "--round", "r1", "--round", "nope"]) == 2  # a typo changes nothing
    assert "'nope'" in capsys.readouterr().err and Memory("m", context=ctx).stats() == before
    assert main(["forget", "--memory-id", "m", "--round", "r1", "--round", "r3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rounds"] == 2 and report["events"] == 2
    assert main(["forget", "--memory-id", "m", "--all"]) == 0
    capsys.readouterr()
    stats = Memory("m", context=ctx).stats()
    assert all(v == 0 for v in stats.values()), stats
    assert backends(ctx).vectors.spaces("m") == []
    assert Memory("keep", context=ctx).stats() == keep
    for argv in (["forget", "--memory-id", "m"], ["forget", "--memory-id", "m", "--all", "--session", "s"]):
        with pytest.raises(SystemExit) as exc:  # say what to forget, exactly one way
            main(argv)
        assert exc.value.code == 2
    assert main(["forget", "--memory-id", "", "--all"]) == 2
    assert "memory_id" in capsys.readouterr().err


def test_forget_rejects_ambiguous_requests(home) -> None:
    with pytest.raises(InputError):
        forget(Context(), "m")
    with pytest.raises(InputError):
        forget(Context(), "m", round_ids=["r1"], everything=True)
    with pytest.raises(InputError):
        forget(Context(), "m", round_ids="r1")  # type: ignore[arg-type]


def test_forget_removes_the_image_vectors_of_the_forgotten_rounds_only(home, tmp_path: Path) -> None:
    """With an image encoder (a tiny CLIP), every round with pixels leaves one vector per image
    in ``images.visual`` and a visual vector on its event; forgetting rounds removes exactly
    theirs, leaves the others' vectors as they were, and re-pools the episode's visual vector
    over the images that remain."""
    from PIL import Image

    from adamm.tests.tiny_clip import make_tiny_clip

    config, ckpt = make_tiny_clip(tmp_path / "clip")
    ctx = Context(image_model=str(config), image_weights=str(ckpt), theta_episode=0.0)
    colours = {"p0": [(200, 10, 10)], "p1": [(10, 200, 10)], "p2": [(10, 10, 200), (200, 200, 10)]}
    history = []
    for i, rid in enumerate(["p0", "p1", "p2", "p3"]):
        images = []
        for k, colour in enumerate(colours.get(rid, [])):
            path = tmp_path / f"{rid}-{k}.png"
            Image.new("RGB", (32, 32), colour).save(path)
            images.append({"image_id": f"i{k}", "path": str(path)})
        history.append({"round_id": rid, "session_id": "s", "timestamp": f"2025-03-03T{9 + i:02d}:00:00",
                        "user_text": f"photo number {i} of the garden", "images": images})
    image_ids = ["p0/i0", "p1/i0", "p2/i0", "p2/i1"]
    event_ids = ["ev:p0", "ev:p1", "ev:p2", "ev:p3"]
    for memory_id in ("m", "other"):
        assert ingest.invoke({"memory_id": memory_id, "rounds": history}, context=ctx)["stored"]["images_embedded"] == 4
    b = backends(ctx)
    images_before = b.vectors.get("m", IMAGES_VISUAL_SPACE, image_ids)
    events_before = b.vectors.get("m", visual_space(EVENTS), event_ids)
    assert set(images_before) == set(image_ids) and set(events_before) == {"ev:p0", "ev:p1", "ev:p2"}
    other_before = b.vectors.get("other", IMAGES_VISUAL_SPACE, image_ids)

    report = forget(ctx, "m", round_ids=["p1", "p2"])
    assert report.rounds == 2 and report.events == 2

    images_after = b.vectors.get("m", IMAGES_VISUAL_SPACE, image_ids)
    assert set(images_after) == {"p0/i0"}  # p1's and both of p2's images are gone
    assert b.vectors.count("m", IMAGES_VISUAL_SPACE) == 1
    assert np.allclose(images_after["p0/i0"], images_before["p0/i0"])  # the survivor is untouched
    events_after = b.vectors.get("m", visual_space(EVENTS), event_ids)
    assert set(events_after) == {"ev:p0"}
    assert np.allclose(events_after["ev:p0"], events_before["ev:p0"])
    (episode,) = b.sql.nodes("m", "episode")
    pooled = b.vectors.get("m", visual_space(EPISODES), [episode.node_id])[episode.node_id]
    assert np.allclose(pooled, events_before["ev:p0"] / np.linalg.norm(events_before["ev:p0"]), atol=1e-5)
    # the same rounds in another memory keep every image vector
    other_after = b.vectors.get("other", IMAGES_VISUAL_SPACE, image_ids)
    assert set(other_after) == set(image_ids)
    assert all(np.allclose(other_after[i], other_before[i]) for i in image_ids)
    consistent(b, "m")


def test_forget_on_postgresql(pg_url, home) -> None:
    ctx = Context(database_url=pg_url)
    ingest.invoke({"memory_id": "m", "rounds": base(12) + trip()}, context=ctx)
    ingest.invoke({"memory_id": "never", "rounds": base(12)}, context=ctx)
    report = forget(ctx, "m", session_id="trip")
    assert report.rounds == 3 and report.table_rows == 1
    after, never = Memory("m", context=ctx).stats(), Memory("never", context=ctx).stats()
    for key in ("rounds", "observations", "tables", "table_rows", "supports", "events", "vectors", "bm25_entries"):
        assert after[key] == never[key], key
    consistent(backends(ctx), "m")
