"""Query text: answer-format instructions dropped, sequence questions split, image captions."""

from __future__ import annotations

import pytest

from adamm.stores.querytext import sequence_sides, split_image_caption, strip_answer_format


@pytest.mark.parametrize(("question", "content"), [
    ("How many photos are related to vehicles? Please answer using an Arabic numeral (e.g., “2” instead of “Two”).",
     "How many photos are related to vehicles?"),
    ("When did Lena adopt her dog? Return in the format YYYY-MM-DD.", "When did Lena adopt her dog?"),
    ("Please determine whether the following information conflicts with the dialogue memory:\n Lena has a dog called Coco.",
     "Lena has a dog called Coco."),
    ("Help me find the two images of Lucy's pet. Only return the image_id of the two images (separate the answers with commas).",
     "Help me find the two images of Lucy's pet."),
    ("What are the names of their pets (separate the answers with commas)?", "What are the names of their pets?"),
    ("Did the walk happen before the bakery visit? Use 'Before' or 'After'.", "Did the walk happen before the bakery visit?"),
    ("What was my average sleep in March?", "What was my average sleep in March?"),  # nothing to drop
    ("Return in the format YYYY-MM-DD.", "Return in the format YYYY-MM-DD."),  # never emptied
])
def test_strip_answer_format_keeps_the_content(question: str, content: str) -> None:
    assert strip_answer_format(question) == content


def test_sequence_sides() -> None:
    assert sequence_sides("Did Liam begin reorganizing his home office before he purchased a bicycle helmet?") == (
        "Liam begin reorganizing his home office", "he purchased a bicycle helmet")
    assert sequence_sides("Did the kitchen reflection happen before or after her bakery visit?") == (
        "the kitchen reflection", "her bakery visit")
    assert sequence_sides("What did I bake after work?") is None  # not a yes/no ordering question
    assert sequence_sides("Did I bake cookies?") is None


def test_split_image_caption() -> None:
    assert split_image_caption("What flower is this?\n[image] Purple bell-shaped flowers") == (
        "What flower is this?", "Purple bell-shaped flowers")
    assert split_image_caption("What flower is this?") == ("What flower is this?", None)
    assert split_image_caption("What is it?\n[image]  ") == ("What is it?\n[image]  ", None)
    # spaces collapsed (as the rules planner's retrieval query has them): still found
    assert split_image_caption("What flower is this? [image] Purple flowers") == ("What flower is this?", "Purple flowers")
