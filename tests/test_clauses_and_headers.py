"""Where a hedge stops, which number a word labels, tables whose header a caption describes.

Invented vocabulary throughout: only the grammar of the sentence or the layout can give these
values their fields.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from adamm.nodes.rules.observe import extract_round
from adamm.nodes.rules.slots import SlotModel
from adamm.stores.records import Round

REF = datetime(2025, 3, 20, 19, 0)


def records(user: str = "", *captions: str) -> list[dict]:
    r = Round(round_id="r1", timestamp=REF, user_text=user,
              images=[{"image_id": f"i{k}", "caption": c} for k, c in enumerate(captions)])  # type: ignore[misc]
    out: dict[int, dict] = {}
    for d in extract_round(r):
        out.setdefault(d.record, {})[d.attribute] = d.value_num if d.value_text is None else d.value_text
    return [out[k] for k in sorted(out)]


def values(user: str) -> set[float]:
    return {v for rec in records(user) for v in rec.values() if isinstance(v, float)}


# -- a hedge holds from its own clause on ------------------------------------------------------

@pytest.mark.parametrize("text, kept", [
    # a purpose clause after the values: both values were logged
    ("Dosed the vorlet 18 qz, then Maro did a 90 ml brask so I could nap.", {18.0, 90.0}),
    # a wish after the value: the value stands, the wish does not
    ("Slept 7 h, would love 8 h.", {7.0}),
    # a figure crossed out on a page was taken back, wherever the words stand
    ("The corner has 'est. 12 h vashing?' crossed out.", set()),
    # a habit, then what happened: only what happened
    ("Usually 40 km of grell but today only 30 km.", {30.0}),
    # a plan in the value's own clause: nothing
    ("Planning 120 ml of brask tonight.", set()),
    # "if" holds for the whole sentence, what came before it too
    ("I ride 40 km if it stays dry.", set()),
    ("If it stays dry I ride 40 km.", set()),
    # a hedge clause with no value of its own is about the value before it
    ("Walked 10,000 steps, that's my goal.", set()),
    ("Long grell of 80 km, next Saturday.", set()),
])
def test_a_hedge_holds_from_its_clause_to_the_sentence_end(text: str, kept: set[float]) -> None:
    assert values(text) == kept


def test_left_is_a_side_before_a_value_and_what_remains_after_one() -> None:
    assert values("Fed on the left for 18 min.") == {18.0}
    assert values("left side 12 mins.") == {12.0}
    assert values("Fed left 19 min at 7 this morning.") == {19.0}  # after what was done: the side it was done on
    assert values("Time left 19 min.") == set() and values("Budget left: 30 USD") == set()
    assert values("12 km left to go.") == set()
    assert values("Only 3 trabs left in the skep.") == set()


# -- a word between two numbers ----------------------------------------------------------------

def test_a_word_before_a_number_that_ends_its_clause_labels_that_number_not_the_one_before() -> None:
    got = records("Tuesday:\nVORN 5x3 @125 drask 9\nPLES 5x3 @90 drask 8")
    assert [(r.get("vorn"), r.get("ples"), r.get("drask")) for r in got] == [(125.0, None, 9.0), (None, 90.0, 8.0)]
    # a unit of the memory's own still follows its number when a counted value comes next
    assert records("Vrell 14 qz 3 trabs")[0]["vrell"] == 14.0


def test_a_count_of_counts_between_a_label_and_its_value_keeps_the_label() -> None:
    assert records("Grell 5x5 with 85, felt easy.") == [{"grell": 85.0}]


# -- a table whose header a caption describes in words ----------------------------------------

CAPTION = ("Screenshot of the Zindle app, week Mar 10 - Mar 16. Columns Day | Vorn › Plessit | Span | Kind | Rate. "
           "Rows: 'Tue Mar 11 | Orla Venn › Grost Tower | 3:15 | quelled | $75.00/h'; "
           "'Wed Mar 12 | Tamsin Hale › Drey Works | 2:45 | quelled | $95.00/h'; "
           "'Thu Mar 13 | Orla Venn › Grost Tower | 3:30 | loose | $85.00/h'.")


def test_a_described_header_labels_the_rows_after_a_rows_heading() -> None:
    got = records("Here's the week.", CAPTION)
    assert [r.get("vorn") for r in got] == ["Orla Venn", "Tamsin Hale", "Orla Venn"]
    assert [r.get("kind") for r in got] == ["quelled", "quelled", "loose"]
    assert [r.get("rate") for r in got] == [75.0, 95.0, 85.0]


def test_a_compound_header_cell_splits_as_its_rows_do() -> None:
    got = records("Here's the week.", CAPTION)
    assert [r.get("plessit") for r in got] == ["Grost Tower", "Drey Works", "Grost Tower"]


def test_a_clock_under_a_duration_header_is_a_length_of_time() -> None:
    caption = ("Columns Day | Vorn | Duration. Rows: 'Tue Mar 11 | Orla Venn | 3:15'; "
               "'Wed Mar 12 | Tamsin Hale | 2:45'.")
    got = records("Two entries.", caption)
    assert [round(r["duration"], 2) for r in got] == [3.25, 2.75]


def test_a_name_one_row_states_is_not_lent_to_another_row_as_its_payee() -> None:
    caption = ("Columns Day | Vorn | Rate. Rows: 'Tue Mar 11 | Orla Venn | $75.00/h'; "
               "'Wed Mar 12 | Tamsin Hale | $95.00/h'.")
    got = records("Two entries.", caption)
    assert [r.get("vorn") for r in got] == ["Orla Venn", "Tamsin Hale"]
    assert all(r.get("merchant") in (None, r["vorn"]) for r in got)


# -- a modifier between a slot's value and its noun -------------------------------------------

def test_of_two_words_before_a_slots_noun_the_one_written_with_it_elsewhere_is_the_value() -> None:
    # an export writes "sornish flank" as a cell; prose says "her sornish upper flank" more often
    # than either side alone, so counts cannot tell "upper" (where on the flank) from the side
    export = ["Mar 4 | sornish flank | 12 qz", "Mar 5 | dastic flank | 14 qz", "Mar 6 | sornish flank | 11 qz",
              "Mar 7 | sornish flank | 11 qz", "Mar 8 | dastic flank | 11 qz"]
    prose = ["the dastic upper flank 13 qz", "her sornish upper flank 15 qz", "the sornish upper flank 12 qz",
             "the dastic upper flank 10 qz", "the sornish upper flank 9 qz", "the sornish upper flank 9 qz"]
    model = SlotModel().fit(export + prose)
    assert model.slots_["before:flank"].values["upper"] > model.slots_["before:flank"].values["dastic"]
    text = "the dastic upper flank gave 13 qz"
    got = model.transform(text)
    assert [(a, v) for a, v, _, _ in got] == [("flank", "dastic")]
    assert text[got[0][2]:got[0][3]] == "dastic"


def test_a_conjunction_after_a_value_is_no_label_of_it() -> None:
    got = records("Quorl done, 40 minutes while the kettle boiled.")
    assert got and "while" not in got[0] and 40.0 in got[0].values()


# -- a day that heads a section dates what follows it ------------------------------------------

def dated(user: str) -> list[tuple[str | None, dict]]:
    r = Round(round_id="r1", timestamp=REF, user_text=user)
    out: dict[int, tuple[str | None, dict]] = {}
    for d in extract_round(r):
        day = d.observed_at.isoformat() if d.observed_at else None
        out.setdefault(d.record, (day, {}))[1][d.attribute] = d.value_num if d.value_text is None else d.value_text
    return [out[k] for k in sorted(out)]


def test_each_day_heading_opens_a_record_of_its_own_day() -> None:
    # REF is Thursday 20 March: Tuesday is the 18th, Wednesday the 19th
    got = dated("Ok, catching up. Tuesday: Was at the quarry. 3 mugs of brennet, all before noon.\n\n"
                "Wednesday: Got 6.5 hours of drowse. Did 15 minutes of vashing.")
    assert [day for day, _ in got] == ["2025-03-18", "2025-03-19"]
    assert got[0][1].get("brennet") == 3.0 and "drowse" not in got[0][1]
    assert got[1][1].get("drowse") == 6.5


def test_yesterday_and_today_headings_in_one_paragraph_split_the_days() -> None:
    got = dated("Two days in one go. Yesterday: Worked from home. Vashed for 30 mins at lunch. "
                "Today: Quarry day. A glorious 8h of drowse.")
    assert [day for day, _ in got] == ["2025-03-19", "2025-03-20"]
    assert got[1][1].get("drowse") == 8.0


def test_a_day_named_inside_a_sentence_heads_nothing() -> None:
    # "on Tuesday" is where a value is dated, not a heading: the record stays one
    got = dated("Brennet 3 mugs on Tuesday, drowse 7 h.")
    assert len(got) == 1


def test_a_total_over_a_week_named_before_it_is_no_record_of_a_day() -> None:
    assert records("", "A chart labelled 'This week' with the total '1 h 05 min' and a streak of 6. "
                       "Below it: Vashing 20 min.") == [{"vashing": 20.0}]
    assert records("", "A chart labelled 'This week' with the total '1 h 05 min'.") == []
    # a total said of its own record, the period after it, stays
    assert values("Parts €103.15, labour €209.60, total €312.75 this week.") == {312.75}


@pytest.mark.parametrize("text, paid", [
    ("Supper at Oskelry with Vann, the tab was €58.00 and we split it down the middle, so €29.00 for me.", {29.0}),
    ("Vann sent the request: my share of our Drelby lunch was actually €16.40, not €14.20.", {16.4}),
    ("Supper at Oskelry €41.20, a brennet €2.10.", {41.2, 2.1}),  # two sums, none of them a share: both stay
])
def test_of_a_shared_sum_the_users_share_is_what_they_paid(text: str, paid: set[float]) -> None:
    assert values(text) == paid
