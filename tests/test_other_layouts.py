"""Logs other authors write: a table under a header row, terse notes of values alone, and the
record's own name in some layouts only. Written with invented words, so only discovered
structure answers: the header names each cell by position, a coined unit names a bare value,
and "my trabbing sessions" is what every record is - no subset.

The memory runs on SQLite and PostgreSQL (``db_url``); the questions go through the real query
graph with the offline rules backend.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from adamm.graphs.ingest import graph as ingest
from adamm.graphs.query import graph as query
from adamm.nodes.backends import backends, reset_backends
from adamm.nodes.context import Context
from adamm.nodes.rules.observe import extract_round
from adamm.stores.records import Round

BROSK = ("Ashvel", "Tirn", "Ashvel", "Glim")
#: (day, vrell qz, drom min, brosk)
RECORDS = [(d, 10 + (7 * d) % 9, 30 + (11 * d) % 25, BROSK[d % 4]) for d in range(1, 29)]


def _text(i: int, day: int, vrell: int, drom: int, brosk: str) -> str:
    if i % 3 == 0:  # a table: labels above, values below, by position
        return f"Trabbing session, March {day}:\nVRELL | DROM | BROSK\n{vrell} qz | {drom} min | {brosk}"
    if i % 3 == 1:  # terse: the unit says what a value is, a known category says itself
        return f"March {day}: {vrell} qz, {drom} min, {brosk}."
    return f"My trabbing session on March {day}: Vrell {vrell} qz · Drom {drom} min · Brosk: {brosk}"


def _round(i: int, day: int, vrell: int, drom: int, brosk: str) -> dict[str, Any]:
    return {"round_id": f"r{i}", "session_id": f"s{day}", "timestamp": f"2026-03-{day:02d}T20:00:00",
            "user_text": _text(i, day, vrell, drom, brosk), "assistant_text": "Logged."}


def test_a_header_row_names_the_cells_under_it() -> None:
    rnd = Round(round_id="r", user_text="Export:\nDate ; VRELL ; DROM ; BROSK\nMar 3 ; 14 qz ; 35 min ; Ashvel\n"
                                         "Mar 4 ; 12 qz ; — ; Tirn", timestamp=datetime(2026, 3, 5, 9))
    got = sorted((d.record, d.attribute, d.value_num if d.value_num is not None else d.value_text, str(d.observed_at))
                 for d in extract_round(rnd))
    assert got == [(0, "brosk", "Ashvel", "2026-03-03"), (0, "drom", 35.0, "2026-03-03"), (0, "vrell", 14.0, "2026-03-03"),
                   (1, "brosk", "Tirn", "2026-03-04"), (1, "vrell", 12.0, "2026-03-04")]


def test_a_csv_export_names_its_cells_and_its_header_names_their_units() -> None:
    rnd = Round(round_id="r", user_text="From the Quillet export:\ndate,keeper,drom_min,fee_usd,done\n"
                                         "2026-03-03,Ashvel,35,12.5,Y\n2026-03-04,Tirn,40,9,N",
                timestamp=datetime(2026, 3, 5, 9))
    got = sorted((d.record, d.label, d.value_num if d.value_num is not None else d.value_text, d.unit, str(d.observed_at))
                 for d in extract_round(rnd))
    assert got == [(0, "done", "Y", None, "2026-03-03"), (0, "drom", 35.0, "min", "2026-03-03"), (0, "fee", 12.5, "USD", "2026-03-03"),
                   (0, "keeper", "Ashvel", None, "2026-03-03"), (1, "done", "N", None, "2026-03-04"), (1, "drom", 40.0, "min", "2026-03-04"),
                   (1, "fee", 9.0, "USD", "2026-03-04"), (1, "keeper", "Tirn", None, "2026-03-04")]


def test_a_caption_that_says_a_tables_header_in_words_names_the_cells_of_its_rows() -> None:
    caption = ("Photo of a whiteboard with a hand-ruled grid, columns headed 'day', 'who', 'vrl', 'min'. Rows: "
               "'3 Mar · Ashvel · 14 · 35'; '4 Mar · Tirn · – · 40'. A magnet holds a list in the corner.")
    rnd = Round(round_id="r", user_text="The week's board.", timestamp=datetime(2026, 3, 5, 9),
                images=[{"image_id": "i", "caption": caption}])
    got = sorted((d.record, d.attribute, d.value_num if d.value_num is not None else d.value_text, d.unit, str(d.observed_at))
                 for d in extract_round(rnd))
    assert got == [(0, "duration", 35.0, "min", "2026-03-03"), (0, "vrl", 14.0, None, "2026-03-03"),
                   (0, "who", "Ashvel", None, "2026-03-03"), (1, "duration", 40.0, "min", "2026-03-04"),
                   (1, "who", "Tirn", None, "2026-03-04")]
    # the header separated as its rows are: "a table with columns Day · Vrell · Drom"
    rnd = Round(round_id="r", user_text="", timestamp=datetime(2026, 3, 5, 9), images=[{"image_id": "i", "caption":
                "Screenshot: a table with columns Day · Vrell · Drom. Rows: '3 Mar · 14 qz · 35 min'; '4 Mar · 12 qz · 30 min'"}])
    assert sorted((d.record, d.attribute, d.value_num) for d in extract_round(rnd)) == [
        (0, "drom", 35.0), (0, "vrell", 14.0), (1, "drom", 30.0), (1, "vrell", 12.0)]


def test_rows_listed_after_rows_colon_a_blank_cell_and_a_footer_total() -> None:
    # rows one after another ("Rows: a | b"), one row a cell short (its blank told by what the
    # other cells hold), and a footer total that is the rows' sum, no record of its own
    caption = ("Screenshot of the Skarn app's 'Week' view: a table with columns Date · Brosk · Bed · Qty · Vrell. "
               "Rows: Mon 2 Mar · Ashvel · Top bed · 18 · 227 qz | Tue 3 Mar · Tirn · Raised bed · 1 · 263 qz | "
               "Thu 5 Mar · Glim · Bean trench · 400 qz. Footer: 'Week total 890 qz'.")
    rnd = Round(round_id="r", user_text="The week from the app.", timestamp=datetime(2026, 3, 8, 9),
                images=[{"image_id": "i", "caption": caption}])
    got = sorted((d.record, str(d.observed_at), d.attribute, d.value_num if d.value_num is not None else d.value_text)
                 for d in extract_round(rnd))
    assert got == [(0, "2026-03-02", "bed", "Top bed"), (0, "2026-03-02", "brosk", "Ashvel"), (0, "2026-03-02", "qty", 18.0),
                   (0, "2026-03-02", "vrell", 227.0), (1, "2026-03-03", "bed", "Raised bed"), (1, "2026-03-03", "brosk", "Tirn"),
                   (1, "2026-03-03", "qty", 1.0), (1, "2026-03-03", "vrell", 263.0), (2, "2026-03-05", "bed", "Bean trench"),
                   (2, "2026-03-05", "brosk", "Glim"), (2, "2026-03-05", "vrell", 400.0)]


def test_a_total_that_repeats_the_one_value_is_no_second_record_and_parts_keep_their_total() -> None:
    rnd = Round(round_id="r", user_text="Stopped the trabbing timer.", timestamp=datetime(2026, 3, 8, 9), images=[
        {"image_id": "i", "caption": "Screenshot of the Skarn timer. Large digits 02:30:00 · Brosk: Ashvel. Bottom bar: Day total 2:30"}])
    got = [(d.record, d.value_num) for d in extract_round(rnd) if d.value_num is not None]
    assert got == [(0, 2.5)]
    rnd = Round(round_id="r", user_text="Drom card: Vell 1:10 · Skarn 1:40 · Total 2:50", timestamp=datetime(2026, 3, 8, 9))
    assert sorted(d.value_num for d in extract_round(rnd)) == [pytest.approx(7 / 6), pytest.approx(5 / 3), pytest.approx(17 / 6)]


def test_a_total_that_is_not_the_sum_of_the_rows_stays() -> None:
    from adamm.nodes.rules.observe import _missing_column

    rnd = Round(round_id="r", user_text="Mon: 3 qz\nTue: 4 qz\nTotal so far this month: 31 qz",
                timestamp=datetime(2026, 3, 8, 9))
    assert 31.0 in [d.value_num for d in extract_round(rnd)]
    assert _missing_column(["date", "text", "mass"], ["date", "text", "number", "mass"]) == 2
    assert _missing_column(["date", "number"], ["date", "number", "number"]) is None  # which one: unknown


def test_a_header_names_its_unit_only_when_the_unit_closes_it() -> None:
    from adamm.nodes.rules.observe import unit_in_header

    assert unit_in_header("duration_h") == ("duration", "h")
    assert unit_in_header("weight (kg)") == ("weight", "kg")
    assert unit_in_header("cost [€]") == ("cost", "EUR")
    assert unit_in_header("time_of_day") is None  # a phrase
    assert unit_in_header("client") is None and unit_in_header("laps") is None


def test_three_layouts_of_one_log_answer_exactly(tmp_path: Path, db_url: str) -> None:
    reset_backends()
    ctx = Context(home=str(tmp_path / "home"), database_url=db_url)
    rounds = [_round(i, *r) for i, r in enumerate(RECORDS)]
    for start in range(0, len(rounds), 7):
        ingest.invoke({"memory_id": "t", "rounds": rounds[start:start + 7]}, context=ctx)
    sql = backends(ctx).sql
    holding = {t.name: sql.select_rows("t", t.name) for t in sql.tables("t")}
    holding = {name: rows for name, rows in holding.items() if rows}
    assert len(holding) == 1, sorted(holding)
    rows = next(iter(holding.values()))
    assert len(rows) == len(RECORDS)
    info = sql.table("t", next(iter(holding)))
    vrell = next(c.name for c in info.columns if c.unit == "qz")
    assert sum(r[vrell] is not None for r in rows) == len(RECORDS)  # the terse "14 qz" took the qz field's name

    def ask(question: str) -> str:
        return query.invoke({"memory_id": "t", "question": question, "now": "2026-03-31T12:00:00"}, context=ctx)["answer"]

    ashvel = [r for r in RECORDS if r[3] == "Ashvel"]
    assert ask("How many Ashvel trabbing sessions did I log in March?").startswith(f"{len(ashvel)}")
    total = sum(r[1] for r in RECORDS)
    assert ask("What was my total vrell across all my trabbing sessions?").startswith(f"{total:,} qz")
