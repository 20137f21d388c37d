"""Fusion math, checked against hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from adamm.stores.fusion import blend, context_boost, cosine, late_fusion, mean_pool, min_max, part_similarity, rrf


def test_late_fusion_renormalizes_over_present_modalities() -> None:
    assert late_fusion(0.5, 1.0) == pytest.approx(0.6 * 0.5 + 0.4 * 1.0)
    # visual absent: omitted, not zeroed -> the text similarity alone
    assert late_fusion(0.5, None) == pytest.approx(0.5)
    assert late_fusion(None, 0.8) == pytest.approx(0.8)
    assert late_fusion(None, None) == 0.0
    assert late_fusion(0.2, 0.9, w_text=1.0, w_visual=0.0) == pytest.approx(0.2)


def test_cosine_and_mean_pool() -> None:
    assert cosine([1, 0], [0, 1]) == 0.0
    assert cosine([1, 1], [2, 2]) == pytest.approx(1.0)
    assert cosine([0, 0], [1, 0]) == 0.0
    pooled = mean_pool([np.array([1.0, 0.0]), np.array([0.0, 1.0])])
    assert np.allclose(pooled, [1 / math.sqrt(2), 1 / math.sqrt(2)])
    assert mean_pool([]) is None


def test_rrf_hand_computed() -> None:
    fused = dict(rrf([["a", "b", "c"], ["c", "a"]], k=60))
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert fused["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert fused["b"] == pytest.approx(1 / 62)
    assert [key for key, _ in rrf([["a", "b", "c"], ["c", "a"]], k=60)] == ["a", "c", "b"]
    assert rrf([]) == []
    # a unit found by both rankers beats one ranked first by a single ranker
    assert rrf([["x", "y"], ["y"]])[0][0] == "y"


def test_blend_min_max_bm25() -> None:
    assert min_max({"a": 2.0, "b": 4.0}) == {"a": 0.0, "b": 1.0}
    assert min_max({"a": 3.0}) == {"a": 1.0}
    h = blend({"a": 0.9, "b": 0.1}, {"b": 10.0, "c": 0.0}, lam=0.7)
    assert h["a"] == pytest.approx(0.63)
    assert h["b"] == pytest.approx(0.07 + 0.3)
    assert h["c"] == pytest.approx(0.0)


def test_part_similarity_counts_the_best_part_half() -> None:
    assert part_similarity(0.4) == pytest.approx(0.4)
    assert part_similarity(0.4, [0.8, 0.1]) == pytest.approx(0.6)  # (0.8 + 0.4) / 2
    assert part_similarity(0.4, [0.2]) == pytest.approx(0.4)  # a weaker part never lowers the whole
    # a round matching throughout beats one whose single caption matches
    assert part_similarity(0.7, [0.7]) > part_similarity(0.3, [0.9])


def test_context_boost_lifts_a_conversation_by_its_best_event() -> None:
    scores = {"a1": 0.030, "a2": 0.010, "b1": 0.025}
    groups = {"a1": "A", "a2": "A", "a3": "A", "b1": "B"}
    out = context_boost(scores, groups, weight=4.0)
    assert out["a1"] == pytest.approx(0.030 + 4 * 0.030)
    assert out["a3"] == pytest.approx(4 * 0.030)  # unscored, inherits its conversation's best
    assert out["b1"] == pytest.approx(0.025 + 4 * 0.025)
    # hand-checked: a2 (0.130) passes b1 (0.125), the other conversation's best match, which
    # passes a3 (0.120), matched by nothing but its conversation
    assert sorted(out, key=lambda k: -out[k]) == ["a1", "a2", "b1", "a3"]
    assert context_boost(scores, groups, weight=0.0) == scores  # weight 0: own scores alone
    assert context_boost({"x": 0.5}, {}, 4.0) == {"x": 0.5}  # no group: own score kept
