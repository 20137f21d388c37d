"""eval/metrics.py and the per-answer scoring: every number below is worked out by hand."""

from __future__ import annotations

import math

import pytest

from adamm.eval import metrics as m
from adamm.eval.datasets import EvalQuestion, EvalScenario, parse_analytic_spec, EvalError
from adamm.eval.run import query_text, retrieved_rounds, score
from adamm.stores.records import Round


def test_normalize_answer_follows_locomo():
    # commas, punctuation, case, a/an/the/and, and runs of whitespace all go
    assert m.normalize_answer("The Cat, and a  Hat!") == "cat hat"
    assert m.normalize_answer("An apple-pie") == "applepie"
    assert m.normalize_answer("") == ""


def test_exact_match_after_normalization():
    assert m.exact_match("The cat.", "cat") == 1.0
    assert m.exact_match("cats", "cat") == 0.0
    assert m.exact_match("Lisbon, Portugal", "lisbon portugal") == 1.0


def test_token_f1_hand_computed():
    # pred tokens red kayak on lake (the, a dropped); gold red kayak: P = 2/4, R = 2/2
    assert m.token_f1("the red kayak on a lake", "red kayak") == pytest.approx(2 * 0.5 * 1 / 1.5)
    assert m.token_f1("Pepper", "Pepper") == 1.0
    assert m.token_f1("dog", "cat") == 0.0
    assert m.token_f1("", "cat") == 0.0
    assert m.token_f1("the", "a") == 0.0  # both normalize to nothing


def test_token_f1_stems_like_locomo():
    # stems: run dog / dog ran -> one common token of two on each side
    assert m.token_f1("running dogs", "dog ran") == pytest.approx(0.5)
    assert m.token_f1("running dogs", "dog ran", stem=False) == 0.0
    # repeated tokens count as a multiset: pred cat cat, gold cat -> P = 1/2, R = 1
    assert m.token_f1("cat cat", "cat") == pytest.approx(2 / 3)


def test_multi_answer_f1_scores_each_gold_part():
    assert m.multi_answer_f1("nurse, kitten", "kitten, nurse") == 1.0
    assert m.multi_answer_f1("nurse", "nurse, kitten") == pytest.approx(0.5)
    assert m.multi_answer_f1("a nurse at hospital", "nurse") == pytest.approx(2 * (1 / 3) / (4 / 3))


def test_bleu1_hand_computed():
    assert m.bleu1("red kayak on lake", "red kayak") == pytest.approx(0.5)  # longer than ref: BP = 1
    assert m.bleu1("kayak", "red kayak on lake") == pytest.approx(math.exp(1 - 4))  # precision 1 × BP
    assert m.bleu1("red red red", "red kayak") == pytest.approx(1 / 3)  # clipped to one "red"
    assert m.bleu1("blue", "red") == 0.0
    assert m.bleu1("", "red") == 0.0


def test_refusal_detection():
    for text in ("Not mentioned.", "It's not mentioned in our chats", "I don't know.", "No information available",
                 "That cannot be determined from the history", ""):
        assert m.is_refusal(text), text
    for text in ("Pepper", "She mentioned a kitten", "Lisbon"):
        assert not m.is_refusal(text), text


def test_numbers_and_numeric_tolerance():
    assert m.numbers_in("Score 3-2, spent $1,234.50 and -4 degrees, .5 cup") == [3, 2, 1234.5, -4, 0.5]
    assert m.numbers_in("version v2 of r0017") == []
    assert m.numeric_match("about 7.4 h", 7.5, 0.1) == 1.0
    assert m.numeric_match("7.3 h", 7.5, 0.1) == 0.0
    assert m.numeric_match("105 USD", 100, 0.05, relative=True) == 1.0
    assert m.numeric_match("106 USD", 100, 0.05, relative=True) == 0.0
    assert m.numeric_match("no number here", 1.0, 10) == 0.0
    assert m.numeric_match("between 3 and 8", 8, 0) == 1.0  # any number in the answer may match


def test_recall_and_hit_at_k():
    ranked = ["a", "b", "a", "c"]
    assert m.top_k(ranked, 3) == ["a", "b", "c"]  # repeats do not take a slot
    assert m.recall_at_k(ranked, ["c", "z"], 3) == 0.5
    assert m.recall_at_k(ranked, ["c", "z"], 2) == 0.0
    assert m.hit_at_k(ranked, ["c", "z"], 3) == 1.0
    assert m.hit_at_k(ranked, ["z"], 10) == 0.0
    assert m.recall_at_k(ranked, [], 10) is None and m.hit_at_k(ranked, [], 10) is None


def _scenario() -> EvalScenario:
    rounds = [Round(round_id=f"D{s}:{i}", session_id=f"S{s}", order=k, user_text=f"turn {k}")
              for k, (s, i) in enumerate([(1, 1), (1, 2), (2, 1), (3, 1)])]
    return EvalScenario("conv", rounds, [])


def test_score_counts_rounds_and_sessions_accessed():
    scen = _scenario()
    q = EvalQuestion("conv#0", "q?", "4", "red kayak", ["D1:2", "D3:1"], scoring="locomo")
    got = score(q, "the red kayak on a lake", ["D1:1", "D1:2", "D2:1", "nope"], scen, k=10)
    assert got["f1"] == pytest.approx(2 / 3) and got["bleu1"] == pytest.approx(0.5) and got["em"] == 0.0
    assert got["recall@10"] == 0.5 and got["hit@10"] == 1.0
    assert got["rounds_accessed"] == 4 and got["sessions_accessed"] == 2 and got["sessions_total"] == 3
    assert got["refused"] is False and got["refusal_correct"] is None


def test_score_locomo_adversarial_rewards_refusal_not_the_trap_answer():
    scen = _scenario()
    q = EvalQuestion("conv#5", "Dog's name?", "5", "Rex", [], unanswerable=True, scoring="locomo")
    declined = score(q, "Not mentioned.", [], scen)
    trapped = score(q, "Rex", [], scen)
    assert (declined["em"], declined["f1"], declined["bleu1"], declined["refusal_correct"]) == (1.0, 1.0, 1.0, 1.0)
    assert (trapped["em"], trapped["f1"], trapped["bleu1"], trapped["refusal_correct"]) == (0.0, 0.0, 0.0, 0.0)
    assert declined["recall@10"] is None  # no gold evidence, no recall


def test_score_locomo_multi_hop_uses_part_f1():
    q = EvalQuestion("conv#2", "q", "1", "nurse, kitten", ["D1:1"], scoring="locomo")
    assert score(q, "kitten, nurse", [], _scenario())["f1"] == 1.0
    plain = EvalQuestion("x#0", "q", "FR", "nurse, kitten", ["D1:1"])
    assert score(plain, "kitten, nurse", [], _scenario())["f1"] == 1.0  # same tokens either way
    assert score(q, "nurse", [], _scenario())["f1"] == pytest.approx(0.5)
    assert score(plain, "nurse", [], _scenario())["f1"] == pytest.approx(2 / 3)


def test_retrieved_rounds_flattens_units_in_rank_order():
    evidence = [{"kind": "episode", "round_ids": ["r3", "r4"]}, {"kind": "round", "round_ids": ["r4", "r1"]},
                {"kind": "table", "round_ids": []}, {"kind": "round", "round_id": "r9"}]
    assert retrieved_rounds(evidence) == ["r3", "r4", "r1", "r9"]
    assert retrieved_rounds([]) == []


def test_query_text_appends_the_image_caption():
    q = EvalQuestion("s#1", "What is shown?", "TTL", "a cat", caption="a grey cat on a sofa")
    assert query_text(q, True) == "What is shown?\n[image] a grey cat on a sofa"
    assert query_text(q, False) == "What is shown?"


def test_analytic_spec():
    assert parse_analytic_spec(None) == {"seed": 0, "days": 60, "per_category": 5}
    assert parse_analytic_spec("seed=3, days=30") == {"seed": 3, "days": 30, "per_category": 5}
    for bad in ("seed", "colour=red", "days=x", "days=0"):
        with pytest.raises(EvalError):
            parse_analytic_spec(bad)


def test_analytic_questions_are_scored_by_their_typed_check():
    from adamm.eval.datasets import load_dataset

    ds = load_dataset("analytic", "seed=0,days=30,per_category=1")
    (scen,) = ds.scenarios
    assert scen.name == "devset-s0-d30" and scen.questions
    assert all(q.question_id.startswith("seed0#") and q.now for q in scen.questions)
    numbers = [q for q in scen.questions if q.dev.kind == "number"]
    assert numbers
    for q in numbers:
        right = score(q, q.gold, [], scen)
        assert right["correct"] == 1.0 and right["numeric"] == 1.0, q.gold
        wrong = score(q, "Not mentioned.", [], scen)
        assert wrong["correct"] == 0.0 and wrong["numeric"] == 0.0 and wrong["refused"]
    refusals = [q for q in scen.questions if q.dev.kind == "refusal"]
    assert refusals and all(q.unanswerable for q in refusals)
    assert score(refusals[0], "Not mentioned.", [], scen)["refusal_correct"] == 1.0


def test_judge_is_skipped_with_rules_and_asks_the_judge_model_otherwise():
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    from adamm.eval.judge import judge
    from adamm.nodes import models
    from adamm.nodes.context import Context

    assert judge(Context(home="unused"), "q", "gold", "pred") == (None, None)
    replies = [AIMessage(content='{"correct": true, "reason": "same"}',
                         usage_metadata={"input_tokens": 40, "output_tokens": 7, "total_tokens": 47}),
               AIMessage(content='{"correct": false, "reason": "other value"}'),
               AIMessage(content="no idea"), AIMessage(content="still no idea")]
    models.register_model("fake:judge", GenericFakeChatModel(messages=iter(replies)))
    try:
        ctx = Context(home="unused", judge="fake:judge", model_max_retries=1)
        verdict, cost = judge(ctx, "Kitten's name?", "Pepper", "It is Pepper.")
        assert verdict == 1.0 and cost["calls"] == 1 and cost["tokens_in"] == 40 and cost["tokens_out"] == 7
        assert judge(ctx, "Kitten's name?", "Pepper", "Rex")[0] == 0.0
        verdict, cost = judge(ctx, "q", "g", "p")  # invalid twice: no verdict, attempts still counted
        assert verdict is None and cost["calls"] == 2
    finally:
        models.unregister_model("fake:judge")
