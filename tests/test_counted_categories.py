"""A category stated under its label in one layout and written as a counted noun in another.

"Kind: Drellits" in an app's entry says the records have a kind; "plucked 3 drellits" in a note
says the same record kind with the value as the noun the number counts. Invented vocabulary:
only the memory's own labels can tie the two.
"""

from __future__ import annotations

from datetime import datetime

from adamm.nodes.rules.observe import extract_round
from adamm.stores.records import Round
from adamm.stores.sql_models import ObservationRecord

KINDS = ["Drellits", "Mopples", "Sarnies"]


def _obs(attribute: str, raw: str, context: str, *, num: float | None = None, text: str | None = None,
         label: str | None = None, source: str = "user_text[0:1]") -> ObservationRecord:
    return ObservationRecord(memory_id="m", round_id="r", attribute=attribute, value_num=num, value_text=text, raw=raw,
                             source=source, record=0, context=context, label=label)


def test_a_value_stated_under_its_own_label_is_no_measured_fields_label() -> None:
    from adamm.nodes.discover import _is_label

    measured = {"sarnies", "qty"}  # "1.8 kg of sarnies" once made a measured field of the word
    header = "a table with columns Date · Kind · Weight. Rows: Mon 8 Sep · Sarnies · 3.35 kg"
    assert not _is_label(_obs("kind", "Sarnies", header, text="Sarnies", label="kind"), measured)
    assert not _is_label(_obs("kind", "Kind: Sarnies", "Kind: Sarnies. Weight 300 g", text="Sarnies", label="kind"), measured)
    # a name inferred for a value the text writes bare ("Sarnies 3.35 kg" read as paid to Sarnies)
    assert _is_label(_obs("merchant", "Sarnies", "Sarnies 3.35 kg", text="Sarnies", label="merchant"), measured)


def test_a_count_named_after_a_stated_category_value_is_a_record_of_that_value() -> None:
    from adamm.nodes.discover import _counted_categories, _counted_noun

    stated = [[_obs("kind", "Kind: Drellits", "Kind: Drellits. Qty 4", text="Drellits", label="kind")],
              [_obs("kind", "Kind: Mopples", "Kind: Mopples. Qty 5", text="Mopples", label="kind")],
              [_obs("kind", "Kind: Drellits", "Kind: Drellits. Qty 6", text="Drellits", label="kind")]]
    counted = _counted_categories(stated)
    note = _obs("qty", "3 drellit", "Plucked 3 drellit from the east lorr", num=3.0, label="plucked")
    assert counted.get(_counted_noun(note)) == ("kind", "Drellits")  # singular or plural, the form stated most
    assert _counted_noun(_obs("qty", "3", "3", num=3.0)) == ""  # a bare number counts nothing named
    # one stated value is no category whose values name counts
    assert _counted_categories(stated[:1]) == {}


def test_a_described_table_whose_first_row_leaves_a_cell_blank_is_still_read() -> None:
    caption = ("Screenshot of the Vessa 'Week view': a table with columns Date · Kind · Lorr · Qty · Weight. "
               "Rows: Mon 8 Sep · Drellits · West lorr · 3.35 kg | Tue 9 Sep · Mopples · East lorr · 20 · 249 g | "
               "Wed 10 Sep · Sarnies · West lorr · 34 · 787 g.")
    r = Round(round_id="r1", timestamp=datetime(2025, 9, 14), user_text="The week.",
              images=[{"image_id": "i0", "caption": caption}])  # type: ignore[misc]
    got: dict[int, dict] = {}
    for d in extract_round(r):
        got.setdefault(d.record, {})[d.attribute] = d.value_num if d.value_text is None else d.value_text
    recs = [got[k] for k in sorted(got)]
    assert [x.get("kind") for x in recs] == KINDS
    assert [x.get("qty") for x in recs] == [None, 20.0, 34.0]  # the blank Qty stays blank, not the weight
    assert [x.get("weight") for x in recs] == [3.35, 249.0, 787.0]  # kg and g: converted per column later


def test_a_count_written_in_words_is_read_where_the_memory_counts_that_noun_in_digits() -> None:
    from adamm.nodes.discover import _counted_in_digits, _worded_counts

    digits = [[_obs("vrelle", "4 vrelles", "4 vrelles by noon", num=4.0)],
              [_obs("vrelle", "2 vrelles", "Only 2 vrelles today", num=2.0)],
              [_obs("brox", "3 kids", "3 kids asleep", num=3.0, source="user_text[0:6]")]]
    counted = _counted_in_digits(digits)
    assert counted == {"vrelle": "vrelle"}  # "kids" counted once in digits: no evidence
    assert _worded_counts("Grost situation: three vrelles, mood flat.", counted) == [("vrelle", 3.0, "three vrelles")]
    assert _worded_counts("Zero vrelle today.", counted) == [("vrelle", 0.0, "Zero vrelle")]
    assert _worded_counts("Two kids and a dog.", counted) == []  # a noun the memory never counts
    # said twice in words: which one is the record's is not told
    assert _worded_counts("Two vrelles, then three vrelles more.", counted) == []


def test_a_count_in_words_under_a_label_lands_in_the_counted_field(tmp_path, db_url: str) -> None:
    """A journal that writes "4 vrelles by noon" on most days and "Grost situation: three
    vrelles" on others keeps one column of vrelle counts: the label's count joins the field
    named after the noun, and the count is not read a second time from the same words."""
    from adamm.tests.memories import ingested

    from adamm.nodes.backends import backends

    days = []
    for i in range(16):
        n = 2 + i % 4
        words = ["two", "three", "four", "five"][i % 4]
        text = f"Grost situation: {words} vrelles. Slept 7 h. Mood: ok." if i % 3 == 0 else f"{n} vrelles by noon. Slept {6 + i % 3} h."
        days.append({"round_id": f"d{i}", "session_id": f"s{i}", "timestamp": f"2025-03-{i + 1:02d}T21:00:00", "user_text": text,
                     "assistant_text": "Noted."})
    for ctx in ingested(days, home=str(tmp_path / "home"), database_url=db_url, use_retrieval=False):
        sql = backends(ctx).sql
        rows = [r for t in sql.tables("m") for r in sql.select_rows("m", t.name)]
        columns = {c.name for t in sql.tables("m") for c in t.columns}
        assert "grost_situation" not in columns, columns  # no second column of the same counts
        counts = {r["source"]: r.get("vrelle") for r in rows}
        assert counts == {f"d{i}": float(2 + i % 4) for i in range(16)}
