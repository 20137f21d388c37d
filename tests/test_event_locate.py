"""EventLocate's ranking: rounds of a well-matched conversation rise with it, a round
is found by one image caption, a "did A before B" question reaches both conversations, and an
event's part vectors go when its round is forgotten."""

from __future__ import annotations

from datetime import datetime

from adamm.graphs.ingest import graph as ingest
from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.forget import forget
from adamm.nodes.hierarchy import PARTS_SPACE
from adamm.nodes.retrieval import event_locate


def conversation(session: str, day: str, turns: list[tuple[str, str | None]]) -> list[dict]:
    """Rounds of one session; a turn is (user text, image caption or None)."""
    out = []
    for i, (text, caption) in enumerate(turns):
        r = {"round_id": f"{session}-{i}", "session_id": session, "timestamp": f"{day}T{9 + i:02d}:00:00",
             "user_text": text, "assistant_text": "Lovely, thanks for sharing."}
        if caption:
            r["images"] = [{"image_id": f"{session}-img{i}", "caption": caption}]
        out.append(r)
    return out


GARDEN = conversation("garden", "2025-05-03", [
    ("On the trail I saw a bright red dahlia called Bishop of Llandaff.", "Bright red flower with a dark centre"),
    ("Here is another shot of it from the side.", "Red petals in close-up, sunlit"),
    ("And one more from further away.", "A red bloom among green leaves"),
])
KITCHEN = conversation("kitchen", "2025-05-10", [
    ("I baked a red velvet cake for my sister.", None),
    ("I took photos of the cake for her.", None),
    ("She wants flower decorations on the next cake.", None),
])
WORKSHOP = conversation("workshop", "2025-05-20", [
    ("I started building a wooden bookshelf in the garage.", None),
    ("The shelves are oak, glued and screwed.", None),
])
HISTORY = GARDEN + KITCHEN + WORKSHOP
#: Conversations that each mention sharing or photos once, in passing.
DISTRACTORS = [r for i, text in enumerate([
    "My sister said she would share her notes from the lecture.",
    "The museum does not allow photos inside the gallery.",
    "We share a car with the neighbours on weekdays.",
    "I printed old photos for my grandmother's album.",
]) for r in conversation(f"other{i}", f"2025-06-{10 + i}", [(text, None), ("The weather was mild all week.", None)])]


def ranked(ctx: Context, query: str, budget: int = 3) -> list[str]:
    return [u.round_ids[0] for u in event_locate(ctx, "m", query, result_budget=budget, window=0)]


def test_rounds_of_a_well_matched_conversation_rise_with_it(home) -> None:
    ctx = Context(use_analytic=False)
    ingest.invoke({"memory_id": "m", "rounds": HISTORY + DISTRACTORS}, context=ctx)
    question = "How many Bishop of Llandaff photos did I share? Please answer using an Arabic numeral."
    with_context = ranked(ctx, question, budget=20)
    alone = ranked(Context(use_analytic=False, context_weight=0.0), question, budget=20)
    assert with_context[0] == alone[0] == "garden-0"
    best_of = {}  # each conversation's best-ranked round, with context
    for r in with_context:
        best_of.setdefault(r.rsplit("-", 1)[0], r)
    # the follow-ups of the best conversation come before every round that is not its own
    # conversation's best match
    last_follow_up = max(with_context.index("garden-1"), with_context.index("garden-2"))
    assert all(r in best_of.values() for r in with_context[:last_follow_up] if not r.startswith("garden"))
    # a weak round of a conversation with a strong match (the cake photos) passes the best
    # round of a conversation that matches nothing (the workshop); alone, it does not
    assert with_context.index("kitchen-2") < with_context.index("workshop-0")
    assert alone.index("workshop-0") < alone.index("kitchen-2")


def test_a_query_image_finds_the_round_by_its_caption(home) -> None:
    ctx = Context(use_analytic=False, context_weight=0.0)  # the caption alone, no conversation help
    ingest.invoke({"memory_id": "m", "rounds": HISTORY}, context=ctx)
    hits = ranked(ctx, "Which photo is this?\n[image] A red bloom among green leaves", budget=1)
    assert hits == ["garden-2"]


def test_a_sequence_question_reaches_both_conversations(home) -> None:
    ctx = Context(use_analytic=False)
    ingest.invoke({"memory_id": "m", "rounds": HISTORY}, context=ctx)
    hits = ranked(ctx, "Did I bake the red velvet cake before I started building the bookshelf?", budget=4)
    sessions = {h.split("-")[0] for h in hits}
    assert {"kitchen", "workshop"} <= sessions


def test_forgetting_a_round_removes_its_part_vectors(home) -> None:
    ctx = Context(use_analytic=False)
    ingest.invoke({"memory_id": "m", "rounds": HISTORY}, context=ctx)
    vectors = backends(ctx).vectors
    parts = ["ev:garden-1#u", "ev:garden-1#c0"]
    assert set(vectors.get("m", PARTS_SPACE, parts)) == set(parts)  # the user's words and the caption
    assert vectors.get("m", PARTS_SPACE, ["ev:kitchen-0#u"])  # a round without images: its words
    forget(ctx, "m", round_ids=["garden-1"])
    assert vectors.get("m", PARTS_SPACE, parts) == {}
    assert "garden-1" not in ranked(ctx, "another shot of the dahlia from the side", budget=5)


def test_a_period_with_nothing_said_in_it_widens_the_search(home) -> None:
    from adamm.nodes.toolbox import run_call, validate_call

    ctx = Context(use_analytic=False)
    ingest.invoke({"memory_id": "m", "rounds": HISTORY}, context=ctx)
    # "the dahlia I saw last year": nothing was said in 2024, though the dahlia was talked about
    args = validate_call(ctx, "EventLocate", {"query": "the red dahlia on the trail", "result_budget": 3, "window": 0,
                                              "start": "2024-01-01", "end": "2024-12-31"})
    units, summary = run_call(ctx, "m", "EventLocate", args, budget=10)
    assert summary.get("scope_widened") is True and units and units[0]["round_ids"] == ["garden-0"]
    # a period that holds rounds is kept as the scope
    args = validate_call(ctx, "EventLocate", {"query": "the red dahlia on the trail", "result_budget": 3, "window": 0,
                                              "start": "2025-05-10", "end": "2025-05-31"})
    units, summary = run_call(ctx, "m", "EventLocate", args, budget=10)
    assert "scope_widened" not in summary and all(not u["round_ids"][0].startswith("garden") for u in units)


def test_a_scope_gives_the_same_events_scored_whole_or_searched(home, monkeypatch) -> None:
    import adamm.nodes.retrieval as retrieval

    ctx = Context(use_analytic=False)
    ingest.invoke({"memory_id": "m", "rounds": HISTORY + DISTRACTORS}, context=ctx)
    may = (datetime(2025, 5, 1), datetime(2025, 5, 31, 23, 59))

    def scoped() -> list[str]:
        return [u.round_ids[0] for u in event_locate(ctx, "m", "photos of the red flower", result_budget=5, window=0,
                                                     time_range=may)]

    whole = scoped()  # a small scope: every event in it is scored
    monkeypatch.setattr(retrieval, "DIRECT_SCORE_LIMIT", 0)  # as if the scope were large: searched, then kept
    searched = scoped()
    in_may = {r["round_id"] for r in HISTORY}  # the distractors are in June
    assert whole and set(whole) <= in_may and set(searched) <= in_may
    assert whole[0] == searched[0] == "garden-0"


def test_without_session_ids_the_episode_is_the_conversation(home) -> None:
    from adamm.nodes.backends import backends as stores
    from adamm.nodes.retrieval import _conversations

    unlogged = [{k: v for k, v in r.items() if k != "session_id"} for r in HISTORY + DISTRACTORS]
    ctx = Context(use_analytic=False)
    ingest.invoke({"memory_id": "m", "rounds": unlogged}, context=ctx)
    groups, _ = _conversations(stores(ctx), "m", ["ev:kitchen-0", "ev:kitchen-2", "ev:workshop-0"])
    assert all(g.startswith("e:ep:") for g in groups.values()) and len(groups) == 3
    assert groups["ev:kitchen-0"] != groups["ev:workshop-0"]  # days apart: different episodes
    question = "How many Bishop of Llandaff photos did I share? Please answer using an Arabic numeral."
    with_context, alone = ranked(ctx, question, 20), ranked(Context(use_analytic=False, context_weight=0.0), question, 20)
    assert groups["ev:kitchen-0"] == groups["ev:kitchen-2"]  # one afternoon on one theme: one episode
    # the cake conversation's weak round rides on its strong one, as with sessions
    assert with_context.index("kitchen-2") < with_context.index("workshop-0")
    assert alone.index("workshop-0") < alone.index("kitchen-2")
    assert with_context[0] == "garden-0"


def test_a_changed_round_drops_the_part_of_a_removed_caption(home) -> None:
    ctx = Context(use_analytic=False)
    ingest.invoke({"memory_id": "m", "rounds": GARDEN}, context=ctx)
    vectors = backends(ctx).vectors
    assert set(vectors.get("m", PARTS_SPACE, ["ev:garden-1#u", "ev:garden-1#c0"])) == {"ev:garden-1#u", "ev:garden-1#c0"}
    changed = {k: v for k, v in GARDEN[1].items() if k != "images"}  # same id, the photo taken out
    ingest.invoke({"memory_id": "m", "rounds": [changed]}, context=ctx)
    assert set(vectors.get("m", PARTS_SPACE, ["ev:garden-1#u", "ev:garden-1#c0"])) == {"ev:garden-1#u"}
