"""Fusion math, checked against hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from adamm.stores.fusion import blend, cosine, late_fusion, mean_pool, min_max, rrf


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
