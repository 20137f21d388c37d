"""Layouts that date values by position: a table whose columns are days, a line whose parts each
open with their own day, and dashboard tiles with a signed change or a goal beside the value.
Invented words throughout, so only the layout can say what each value is and which day it is of.

The end-to-end test runs the real ingest and query graphs on SQLite and PostgreSQL (``db_url``).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from adamm.graphs.ingest import graph as ingest
from adamm.graphs.query import graph as query
from adamm.nodes.backends import backends, reset_backends
from adamm.nodes.context import Context
from adamm.nodes.rules.observe import extract_round
from adamm.stores.records import ImageRef, Round

MONDAY = datetime(2026, 3, 9, 20)  # a Monday


def _read(text: str, when: datetime = MONDAY, caption: str | None = None) -> list[tuple[int, str, Any, str]]:
    images = [ImageRef(image_id="i", caption=caption)] if caption else []
    rnd = Round(round_id="r", user_text=text, timestamp=when, images=images)
    return sorted((d.record, d.attribute, d.value_num if d.value_num is not None else d.value_text, str(d.observed_at))
                  for d in extract_round(rnd))


def test_a_table_whose_columns_are_days_holds_a_record_per_column() -> None:
    got = _read("Week view:\nMetric | Mar 2 | Mar 3 | Mar 4\nVrell | 14 qz | 12 qz | —\nBrosk | Ashvel | Tirn | Ashvel")
    assert got == [(0, "brosk", "Ashvel", "2026-03-02"), (0, "vrell", 14.0, "2026-03-02"),
                   (1, "brosk", "Tirn", "2026-03-03"), (1, "vrell", 12.0, "2026-03-03"),
                   (2, "brosk", "Ashvel", "2026-03-04")]


def test_weekday_columns_are_the_latest_run_of_those_days() -> None:
    # sent on Monday 9 March: Fri, Sat, Sun are 6-8 March, whatever order the week started in
    got = _read("", caption="Screenshot of the week:\nFri | Sat | Sun\nGask 1,204 | 980 | 1,115\nDrom 31 min | 28 min | 40 min")
    assert got == [(0, "drom", 31.0, "2026-03-06"), (0, "gask", 1204.0, "2026-03-06"),
                   (1, "drom", 28.0, "2026-03-07"), (1, "gask", 980.0, "2026-03-07"),
                   (2, "drom", 40.0, "2026-03-08"), (2, "gask", 1115.0, "2026-03-08")]


@pytest.mark.parametrize("text", [
    "Gask this week: Wed 1,204 · Thu 980 · Fri 1,115",
    "Plorn app, week so far: Gask — Wed 1,204, Thu 980, Fri 1,115",
])
def test_one_field_over_several_days_is_a_record_per_day(text: str) -> None:
    assert _read(text) == [(0, "gask", 1204.0, "2026-03-04"), (1, "gask", 980.0, "2026-03-05"),
                           (2, "gask", 1115.0, "2026-03-06")]


def test_series_lines_over_the_same_days_are_one_record_per_day() -> None:
    got = _read("Vrell: Wed 14 qz, Thu 12 qz\nDrom: Wed 30 min, Thu 25 min")
    assert got == [(0, "drom", 30.0, "2026-03-04"), (0, "vrell", 14.0, "2026-03-04"),
                   (1, "drom", 25.0, "2026-03-05"), (1, "vrell", 12.0, "2026-03-05")]


def test_a_line_of_one_day_inside_a_series_block_joins_its_day() -> None:
    got = _read("", caption="Week:\nVrell: 3 Mar 14 qz · 4 Mar 12 qz\nDrom: 4 Mar 25 min\nBrosk: 3 Mar Ashvel · 4 Mar Tirn")
    assert got == [(0, "brosk", "Ashvel", "2026-03-03"), (0, "vrell", 14.0, "2026-03-03"),
                   (1, "brosk", "Tirn", "2026-03-04"), (1, "drom", 25.0, "2026-03-04"), (1, "vrell", 12.0, "2026-03-04")]


def test_parts_that_open_with_their_own_day_are_records_even_of_one_field() -> None:
    assert _read("Mar 3: 14 qz vrell; Mar 4: 12 qz vrell") == [(0, "vrell", 14.0, "2026-03-03"), (1, "vrell", 12.0, "2026-03-04")]
    # one day named in passing is no series
    assert [a for _, a, _, _ in _read("Between Mar 3 and Mar 8 the vrell was 40 qz.")] != []


def test_a_goal_tile_is_left_out_and_its_neighbours_kept() -> None:
    assert [(a, v) for _, a, v, _ in _read("Gask 9,120 · Goal 10,000 · Drom 31 min")] == [("drom", 31.0), ("gask", 9120.0)]
    assert _read("My goal is 10,000 gask a day.") == []


def test_a_number_after_a_hash_is_an_identifier() -> None:
    got = _read("Order #4471 from Plorn — total $52.18")
    assert [(a, v) for _, a, v, _ in got if isinstance(v, float)] == [("amount", 52.18)]


# -- end to end ---------------------------------------------------------------------------------

START = date(2026, 2, 2)  # a Monday
#: (day offset, gask, change of gask)
GASK = [(k, 1000 + 13 * k - (k % 3) * 9, 0) for k in range(0, 35)]


def _rounds() -> list[dict[str, Any]]:
    """Five weeks: a day-column table, a series line, tiles with the change, on alternating weeks."""
    out = []
    for week in range(5):
        days = GASK[week * 7:(week + 1) * 7]
        sent = START + timedelta(days=week * 7 + 6)  # each week is sent on its Sunday
        if week % 3 == 0:
            head = " | ".join(f"{(START + timedelta(days=k)):%b} {(START + timedelta(days=k)).day}" for k, _, _ in days)
            text = f"Plorn export:\nField | {head}\nGask | " + " | ".join(f"{g:,}" for _, g, _ in days)
        elif week % 3 == 1:
            names = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
            text = "Gask this week: " + " · ".join(f"{names[i]} {g:,}" for i, (_, g, _) in enumerate(days))
        else:
            text = "\n".join(f"{(START + timedelta(days=k)):%b} {(START + timedelta(days=k)).day} — Gask {g:,} (+{13})"
                             for k, g, _ in days)
        out.append({"round_id": f"w{week}", "session_id": f"s{week}", "timestamp": f"{sent.isoformat()}T21:00:00",
                    "user_text": text, "assistant_text": "Logged."})
    return out


def test_day_layouts_of_one_log_fill_one_table_and_answer_exactly(tmp_path: Path, db_url: str) -> None:
    reset_backends()
    ctx = Context(home=str(tmp_path / "home"), database_url=db_url)
    ingest.invoke({"memory_id": "d", "rounds": _rounds()}, context=ctx)
    sql = backends(ctx).sql
    holding = {t.name: rows for t in sql.tables("d") if (rows := sql.select_rows("d", t.name))}
    assert len(holding) == 1, sorted(holding)
    rows = next(iter(holding.values()))
    assert sorted(str(r["observed_at"])[:10] for r in rows) == sorted(str(START + timedelta(days=k)) for k, _, _ in GASK)
    answer = query.invoke({"memory_id": "d", "question": "What was my total gask in February 2026?",
                           "now": "2026-03-09T12:00:00"}, context=ctx)["answer"]
    feb = sum(g for k, g, _ in GASK if (START + timedelta(days=k)).month == 2)
    assert answer.startswith(f"{feb:,}"), answer
