"""The extractor gate: a model call only for rounds that can hold a value, and none missed."""

from __future__ import annotations

import json

import pytest

from adamm.nodes.rules.gate import may_hold_observation
from adamm.stores.records import Round
from adamm.tests.needs import ANALYTIC_DEV, require_shared


def rnd(text: str, **extra) -> Round:
    return Round.model_validate({"round_id": "r", "timestamp": "2025-03-01T08:00:00", "user_text": text, **extra})


@pytest.mark.parametrize("text", [
    "Slept 7.5 hours", "Resting HR 52", "ran a half marathon", "two coffees today", "Rated it ★★★★☆",
    "paid twice for parking", "Weight: 81,4 kg",
])
def test_rounds_with_a_quantity_pass(text: str) -> None:
    assert may_hold_observation(rnd(text))


@pytest.mark.parametrize("text", [
    "Can you give me tips for baking bread?", "Thanks, that was helpful!", "What should I wear to the wedding?",
    "Someone told me to try yoga",  # 'one' inside a word is no number
])
def test_chit_chat_does_not(text: str) -> None:
    assert not may_hold_observation(rnd(text))


def test_images_and_metadata_always_pass() -> None:
    assert may_hold_observation(rnd("look at this", images=[{"image_id": "i1", "caption": "a receipt"}]))
    assert may_hold_observation(rnd("synced", metadata={"steps": 12000}))


def test_every_ground_truth_round_of_the_analytic_set_passes() -> None:
    """Recall 100 % on rounds that hold a ground-truth record (data written independently)."""
    require_shared(ANALYTIC_DEV / "records")
    from adamm.formats import load

    missed, total = [], 0
    for records in sorted((ANALYTIC_DEV / "records").glob("*.jsonl")):
        rounds = {r.round_id: r for r in load(ANALYTIC_DEV / "dialog" / f"{records.stem}.json").scenarios[0].rounds}
        for line in records.read_text().splitlines():
            if line.strip():
                total += 1
                round_id = json.loads(line)["round"]
                if not may_hold_observation(rounds[round_id]):
                    missed.append((records.stem, round_id))
    assert total > 100 and missed == []
