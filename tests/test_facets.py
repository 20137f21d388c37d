"""Facets of a record that hold in every domain (``nodes/rules/facets.py``) - the part of the day
(from words and clock times), the payee of a payment - and the records they ride on
(``nodes/rules/observe.py``), on phrasings people and apps write and on distractors that must
not become a value. Categories of a domain (a book's format, a fuel grade, a payment method)
are no facets: the memory discovers them (``slots``, ``terms``).

The sentences here are written for these tests in several styles; none is copied from a data set.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from adamm.nodes.rules.facets import clock_part_of_day, find_facets
from adamm.nodes.rules.observe import extract_round
from adamm.stores.records import ImageRef, Round


def facets(text: str) -> dict[str, str]:
    """The surest value per attribute, as the extractor keeps it."""
    out: dict[str, str] = {}
    for f in find_facets(text):
        out.setdefault(f.attribute, f.value)
    return out


# -- closed vocabularies -------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "part"), [
    ("This evening: 131/84, pulse 70.", "evening"),
    ("Reading from this morning, 128 over 80.", "morning"),
    ("Glucose 5.4 mmol/L (afternoon).", "afternoon"),
    ("Export row: 2024-11-02 06:40 | 122/79 mmHg", "morning"),
    ("Scale synced at 9:15 PM: 81.2 kg", "evening"),
])
def test_part_of_day_from_words_and_clocks(text: str, part: str) -> None:
    assert facets(text).get("time_of_day") == part


@pytest.mark.parametrize("text", [
    "Rode 42 km, 1:13:32 moving.",            # a duration, not a clock
    "Slept badly last night, 6 h 10 min.",    # "last night" dates the record
    "Finished 'Night Falls on Harwick', 4/5.",  # part of a title
])
def test_no_part_of_day(text: str) -> None:
    assert "time_of_day" not in facets(text)


def test_clock_hours_map_to_parts_of_the_day() -> None:
    assert [clock_part_of_day(h) for h in (6, 13, 19, 23, 2)] == ["morning", "afternoon", "evening", "night", "night"]


@pytest.mark.parametrize("text", [
    "Group ride with the club, 71 km.", "Training ride today: 55 km.", "Weekly log row: 'Commute' — 12.4 km",
    "Recovery run, 5 km easy.", "Tempo run this morning, 8 km.",
])
def test_no_kind_of_outing_is_known_in_advance(text: str) -> None:
    # the kinds of a memory's records are discovered from the memory (``terms``, ``slots``):
    # no closed list of outings, which split a running log's "tempo" from its "long run"
    assert "kind" not in facets(text)


# -- names -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "attribute", "value"), [
    ("Filled up at the Brightway station: 41.0 L, €73.10.", "merchant", "Brightway"),
    ("FuelPoint on Monday — 38,20 L at 1,812 €/L, paid 69,22 €.", "merchant", "FuelPoint"),
    ("Receipt from Corner Deli, $14.80 total.", "merchant", "Corner Deli"),
    ("Lunch at Blue Bottle, $6.50.", "merchant", "Blue Bottle"),
])
def test_names_are_told_apart_by_what_surrounds_them(text: str, attribute: str, value: str) -> None:
    assert facets(text).get(attribute) == value


@pytest.mark.parametrize("text", [
    "Display: SYS 141 mmHg · DIA 88 mmHg · PUL 71/min",   # labels on a screen
    "Thermal receipt: TOTAL EUR 61.40 · VAT 10.66",       # a currency and a label
    "Started Ash Road Diaries by Mira K. Holt, 310 pages.",  # the author is no book
])
def test_labels_units_and_authors_are_no_names(text: str) -> None:
    values = {f.value for f in find_facets(text)}
    assert not values & {"SYS", "DIA", "PUL", "TOTAL EUR", "EUR", "VAT", "Mira K. Holt"}


def test_a_name_outside_a_payment_is_left_to_discovery() -> None:
    """A title or a route is a name, but only the memory knows which field it fills: no facet."""
    assert find_facets("Read 30 pages of The Glass Meridian (hardcover), 41 minutes.") == []
    assert [f.attribute for f in find_facets("Evening spin: Millpond Loop, 22 km.")] == ["time_of_day"]


# -- facets on records ---------------------------------------------------------------------------------

REF = datetime(2025, 5, 14, 20, 0)


def drafts(user_text: str, *captions: str) -> list[tuple[int, str, object]]:
    rnd = Round(round_id="r", timestamp=REF, user_text=user_text,
                images=[ImageRef(image_id=f"i{i}", caption=c) for i, c in enumerate(captions)])
    return [(d.record, d.attribute, d.value_num if d.value_num is not None else d.value_text) for d in extract_round(rnd)]


def test_a_facet_in_the_users_words_describes_the_pictured_record() -> None:
    got = drafts("Commute home this evening.", "Ride map: 14.2 km, 41 min moving, 122 m climbed")
    assert {(a, v) for _, a, v in got} >= {("time_of_day", "evening"), ("distance", 14.2)}
    assert {r for r, _, _ in got} == {0}


def test_a_start_is_a_record_of_its_own_with_the_things_size() -> None:
    got = drafts("Started The Long Field by A. N. Other — a memoir hardback, 288 pages. "
                 "Read 25 pages of The Long Field in 40 minutes.")
    started = {a: v for r, a, v in got if r == 0}
    session = {a: v for r, a, v in got if r == 1}
    assert started["size"] == 288 and "pages" not in started
    assert session["pages"] == 25 and session["duration"] == 40


def test_a_rating_at_the_end_is_its_own_record() -> None:
    got = drafts("That's it, finished! 3 out of 5 from me.",
                 "Reading app card: 'Harbour Lights' (ebook) — 22 min, 15 pages")
    rating = {a: v for r, a, v in got if any(a2 == "rating" and r2 == r for r2, a2, _ in got)}
    assert rating["rating"] == 3 and "pages" not in rating


def test_a_finished_workout_with_its_heart_rate_stays_one_record() -> None:
    got = drafts("Finished my run: 5 km in 27 min. Average heart rate 145 bpm.")
    assert {r for r, _, _ in got} == {0}


def test_a_receipt_keeps_its_total_not_its_parts() -> None:
    got = drafts("Invoice from the garage: brake pads — parts EUR 88.10, labour EUR 120.00, total EUR 208.10.")
    amounts = [v for _, a, v in got if isinstance(v, float) and a not in ("time_of_day",)]
    assert amounts == [208.10]


def test_initials_do_not_end_a_sentence() -> None:
    got = drafts("Started Winter Birds by J. R. Castell — a poetry paperback, 96 pages. Read 12 pages tonight.")
    assert [(r, a, v) for r, a, v in got if a in ("size", "pages")] == [(0, "size", 96.0), (1, "pages", 12.0)]


def test_a_part_of_the_day_is_no_label_of_a_value() -> None:
    """"This evening: 131/84": the evening is when, not a field called evening."""
    got = {(a, v) for _, a, v in drafts("This evening: 131/84, pulse 70.")}
    assert ("time_of_day", "evening") in got and not any(a.startswith("evening") for a, _ in got)
    assert {(a, v) for _, a, v in drafts("Lunch at Greenleaf, $14.20 on my debit card.")} >= {
        ("amount", 14.2), ("merchant", "Greenleaf")}
    assert ("avg_heart_rate", 145.0) in {(a, v) for _, a, v in drafts("Run: 5.2 km, heart rate averaged 145 bpm.")}


def test_the_model_extractor_names_the_record_of_each_fact() -> None:
    """A model's observation says which record of the round it belongs to; an index past the
    per-round bound is rejected, not stored."""
    from pydantic import ValidationError

    from adamm.nodes.extract import MAX_OBSERVATIONS_PER_ROUND, ExtractedObservation, _draft_from_model

    rnd = Round(round_id="r", timestamp=REF, user_text="Export: Mon 131/84, Tue 128/80")
    drafts_ = [_draft_from_model(ExtractedObservation(attribute="systolic", value=v, unit="mmHg", record=i), rnd)
               for i, v in enumerate((131, 128))]
    assert [(d.record, d.value_num) for d in drafts_ if d] == [(0, 131.0), (1, 128.0)]
    with pytest.raises(ValidationError):
        ExtractedObservation(attribute="systolic", value=1, record=MAX_OBSERVATIONS_PER_ROUND + 1)


def test_a_day_cue_or_an_upper_case_label_is_no_merchant() -> None:
    r = Round(round_id="r", timestamp=datetime(2025, 3, 4, 9), user_text="From Tuesday: USD 49.96 tral / 345 brox glevsu score")
    assert not any(d.attribute == "merchant" for d in extract_round(r))
    r = Round(round_id="r", timestamp=datetime(2025, 3, 4, 9),
              user_text="Batch, March 7: TRALLISS USD 61.43 · GLEVSU SCORE 359 brox · THOSHDA: Drolgish")
    assert not any(d.attribute == "merchant" for d in extract_round(r))
    r = Round(round_id="r", timestamp=datetime(2025, 3, 4, 9), user_text="Spent $55.12 at Uber on Tuesday")
    assert ("merchant", "Uber") in {(d.attribute, d.value_text) for d in extract_round(r)}


def test_the_app_that_shows_a_record_is_nobody_paid() -> None:
    """"Screenshot of the Glasast app's card: ... EUR 41.57": a capitalised name before "app" is
    where the record is shown, not a payee, whatever the money beside it."""
    from adamm.nodes.rules.facets import find_facets

    text = "Screenshot of the Glasast app's outing card: JAMZI: EUR 41.57; FINTEX: Daishfi."
    assert not [f for f in find_facets(text) if f.attribute == "merchant"]
    assert [f.value for f in find_facets("Coffee at Blue Bottle, $6.50.") if f.attribute == "merchant"] == ["Blue Bottle"]


def test_the_word_after_a_payee_is_its_alias() -> None:
    """"at the Orvak kreel": the memory's own word for the place ("kreel") becomes the payee
    column's alias, so "which kreels" can find the column - no list of place nouns decides it."""
    from adamm.nodes.rules.facets import find_facets

    got = [f for f in find_facets("Paid €12.40 at the Orvak kreel this morning.") if f.attribute == "merchant"]
    assert [(f.value, f.label) for f in got] == [("Orvak", "kreel")]
    got = [f for f in find_facets("Paid €12.40 at Orvak today.") if f.attribute == "merchant"]
    assert [(f.value, f.label) for f in got] == [("Orvak", "")]  # a calendar word names no place
