"""The ingest and query graphs end to end on the embedded stores (SQLite + Chroma files)."""

from __future__ import annotations

import pytest

from adamm.graphs.flat import graph as flat
from adamm.graphs.ingest import graph as ingest
from adamm.graphs.query import graph as query
from adamm.nodes.backends import backends, reset_backends
from adamm.nodes.context import Context
from adamm.nodes.cost import summarize
from adamm.nodes.ingest import ROUNDS_SPACE, InputError
from adamm.stores.units import text_space

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


def test_ingest_then_ask_with_citations(home) -> None:
    ctx = Context()
    out = ingest.invoke({"memory_id": "ada", "rounds": ROUNDS}, context=ctx)
    assert out["memory_id"] == "ada"
    stored = out["stored"]
    assert {k: stored[k] for k in ("rounds_added", "rounds_unchanged", "rounds_updated", "units_indexed", "events",
                                   "images_embedded", "extraction_failures")} == {
        "rounds_added": 3, "rounds_unchanged": 0, "rounds_updated": 0, "units_indexed": 3, "events": 3,
        "images_embedded": 0, "extraction_failures": 0}
    assert {e["node"] for e in out["cost"]} == {"store_rounds", "extract_attributes", "induce_tables", "insert_hierarchy", "index_rounds"}
    assert set(out) == {"memory_id", "stored", "cost"}  # private keys stay private

    res = query.invoke({"memory_id": "ada", "question": "What did we name the beagle puppy?"}, context=ctx)
    assert set(res) == {"answer", "citations", "evidence", "cost", "plan", "calls", "notes"}
    assert "Biscuit" in res["answer"]
    assert res["citations"] == [{"round_id": "r2", "image_ids": []}]
    assert res["evidence"][0]["round_ids"] == ["r2"]
    assert summarize(res["cost"])["calls"] == 0  # rules backend: no model calls

    bridge = query.invoke({"memory_id": "ada", "question": "Which bridge over the river did I photograph?"}, context=ctx)
    assert bridge["citations"] and bridge["citations"][0]["image_ids"] == ["img-lisbon"]

    refusal = query.invoke({"memory_id": "ada", "question": "What is my blood type?"}, context=ctx)
    assert refusal["answer"] == "Not mentioned." and refusal["citations"] == []


def test_reingest_is_idempotent_and_updates_are_explicit(home) -> None:
    ctx = Context()
    ingest.invoke({"memory_id": "ada", "rounds": ROUNDS}, context=ctx)
    again = ingest.invoke({"memory_id": "ada", "rounds": ROUNDS}, context=ctx)
    assert {k: again["stored"][k] for k in ("rounds_added", "rounds_unchanged", "rounds_updated", "units_indexed")} == {
        "rounds_added": 0, "rounds_unchanged": 3, "rounds_updated": 0, "units_indexed": 0}
    changed = [dict(ROUNDS[1], user_text="We adopted a beagle puppy and named him Waffles.")]
    upd = ingest.invoke({"memory_id": "ada", "rounds": changed}, context=ctx)
    assert upd["stored"]["rounds_updated"] == 1 and upd["stored"]["units_indexed"] == 1
    b = backends(ctx)
    assert b.sql.count_rounds("ada") == 3
    assert b.vectors.count("ada", text_space(ROUNDS_SPACE)) == 3
    assert b.keywords.count("ada", ROUNDS_SPACE) == 3
    res = query.invoke({"memory_id": "ada", "question": "What did we name the beagle puppy?"}, context=ctx)
    assert "Waffles" in res["answer"]


def test_bad_round_rejects_the_whole_batch(home) -> None:
    ctx = Context()
    bad = [*ROUNDS[:2], {"round_id": "r9", "timestamp": "next tuesday", "user_text": "hi"}]
    with pytest.raises(InputError, match=r"rounds\[2\] \(r9\): field timestamp"):
        ingest.invoke({"memory_id": "ada", "rounds": bad}, context=ctx)
    assert backends(ctx).sql.count_rounds("ada") == 0
    with pytest.raises(InputError, match="memory_id"):
        ingest.invoke({"memory_id": "", "rounds": ROUNDS}, context=ctx)
    with pytest.raises(InputError, match="duplicate"):
        ingest.invoke({"memory_id": "ada", "rounds": [ROUNDS[0], ROUNDS[0]]}, context=ctx)


def test_interrupted_derivation_is_resumed_by_the_next_run(home, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash after the raw rounds are stored loses nothing: the next run derives them."""
    ctx = Context()
    import adamm.stores.units as units_mod

    def boom(*args, **kwargs):
        raise RuntimeError("killed while indexing")

    with monkeypatch.context() as mp, pytest.raises(RuntimeError, match="killed"):  # (not .undo(): the test's home stays set)
        mp.setattr(units_mod.UnitIndex, "add", boom)
        ingest.invoke({"memory_id": "ada", "rounds": ROUNDS}, context=ctx)
    b = backends(ctx)
    assert b.sql.count_rounds("ada") == 3  # accepted rounds were kept
    assert b.vectors.count("ada", text_space(ROUNDS_SPACE)) == 0
    out = ingest.invoke({"memory_id": "ada", "rounds": []}, context=ctx)
    assert out["stored"]["units_indexed"] == 3
    assert b.vectors.count("ada", text_space(ROUNDS_SPACE)) == 3


def test_memories_are_isolated_and_persist_across_processes(home) -> None:
    ctx = Context()
    ingest.invoke({"memory_id": "ada", "rounds": ROUNDS}, context=ctx)
    ingest.invoke({"memory_id": "bob", "rounds": [{"round_id": "r1", "user_text": "My cat is called Pixel."}]}, context=ctx)
    res = query.invoke({"memory_id": "bob", "question": "What did we name the beagle puppy?"}, context=ctx)
    assert all(e["round_ids"] == ["r1"] for e in res["evidence"]) and "Biscuit" not in res["answer"]
    reset_backends()  # as if the process restarted: everything is read back from disk
    res = query.invoke({"memory_id": "ada", "question": "What did we name the beagle puppy?"}, context=Context())
    assert "Biscuit" in res["answer"]


def test_context_as_plain_dict_and_dense_only_mode(home) -> None:
    ingest.invoke({"memory_id": "ada", "rounds": ROUNDS}, context={"retrieval_mode": "dense"})
    res = flat.invoke({"memory_id": "ada", "question": "beagle puppy name"}, context={"retrieval_mode": "bm25"})
    assert res["evidence"][0]["round_id"] == "r2" and res["evidence"][0]["dense_rank"] is None


@pytest.mark.postgres
def test_graphs_on_postgresql(home, pg_url) -> None:
    ctx = Context(database_url=pg_url)
    out = ingest.invoke({"memory_id": "ada", "rounds": ROUNDS}, context=ctx)
    assert out["stored"]["rounds_added"] == 3
    res = query.invoke({"memory_id": "ada", "question": "What did we name the beagle puppy?"}, context=ctx)
    assert "Biscuit" in res["answer"]
    assert backends(ctx).sql.url == pg_url


def test_images_get_visual_vectors_with_configured_clip_weights(home, tmp_path) -> None:
    """Through the same configuration users set: a model config and a local checkpoint."""
    import io

    from PIL import Image

    from adamm.nodes.hierarchy import IMAGES_VISUAL_SPACE
    from adamm.tests.tiny_clip import make_tiny_clip

    config, ckpt = make_tiny_clip(tmp_path / "clip")
    ctx = Context(image_model=str(config), image_weights=str(ckpt))
    png = tmp_path / "red.png"
    Image.new("RGB", (40, 40), (200, 10, 10)).save(png)
    buf = io.BytesIO()
    Image.new("RGB", (40, 40), (10, 10, 200)).save(buf, format="PNG")
    rounds = [
        {"round_id": "p1", "user_text": "a red square", "images": [{"image_id": "red", "path": str(png)}]},
        {"round_id": "p2", "user_text": "a blue square", "images": [{"image_id": "blue", "data": buf.getvalue()}]},
        {"round_id": "p3", "user_text": "caption only", "images": [{"image_id": "gone", "caption": "a cat"}]},
    ]
    out = ingest.invoke({"memory_id": "ada", "rounds": rounds}, context=ctx)
    assert out["stored"]["images_embedded"] == 2
    b = backends(ctx)
    stored = b.vectors.get("ada", IMAGES_VISUAL_SPACE, ["p1/red", "p2/blue", "p3/gone"])
    assert set(stored) == {"p1/red", "p2/blue"}
    expected = b.image_encoder.encode_images([str(png)])[0]
    assert abs(float(stored["p1/red"] @ expected) - 1.0) < 1e-4


def test_model_answerer_is_called_through_the_ledger_and_its_citations_checked(home) -> None:
    """(Flat baseline graph.) A configured answerer model answers; its tokens land in the cost; invented ids are dropped."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    from adamm.nodes import models

    class ToolFake(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):  # noqa: ANN001, ANN003, ARG002
            return self

    reply = AIMessage(content="", usage_metadata={"input_tokens": 321, "output_tokens": 12, "total_tokens": 333},
                      tool_calls=[{"name": "AnswerOut", "id": "c1", "type": "tool_call",
                                   "args": {"answer": "Biscuit", "citations": ["r2", "r-invented"]}}])
    models.register_model("fake:answerer", ToolFake(messages=iter([reply])))
    try:
        ctx = Context(answerer="fake:answerer")
        ingest.invoke({"memory_id": "ada", "rounds": ROUNDS}, context=ctx)
        res = flat.invoke({"memory_id": "ada", "question": "What did we name the beagle puppy?"}, context=ctx)
    finally:
        models.unregister_model("fake:answerer")
    assert res["answer"] == "Biscuit"
    assert res["citations"] == [{"round_id": "r2", "image_ids": []}]
    total = summarize(res["cost"])
    assert total["calls"] == 1 and total["tokens_in"] == 321 and total["tokens_out"] == 12
    assert total["by_role"]["answerer"]["calls"] == 1


def test_keyword_index_is_rebuilt_from_sql_when_its_files_are_gone(home) -> None:
    import shutil

    ctx = Context()
    ingest.invoke({"memory_id": "ada", "rounds": ROUNDS}, context=ctx)
    flat.invoke({"memory_id": "ada", "question": "beagle"}, context=ctx)  # builds and persists BM25
    assert any((home / "bm25").glob("*.pkl"))
    reset_backends()
    shutil.rmtree(home / "bm25")
    res = flat.invoke({"memory_id": "ada", "question": "beagle puppy"}, context={"retrieval_mode": "bm25"})
    assert res["evidence"][0]["round_id"] == "r2"
    assert backends(Context()).keywords.count("ada", ROUNDS_SPACE) == 3
