"""A running and weigh-in log written three ways each, end to end through the rules backend:
watch screenshots with ``mm:ss`` times and an ``HR`` field without a unit, prose with minutes,
and a morning note that calls the weight "weight", "scale" or "weigh-in" next to the night's
sleep. The questions need one run table (named after the runs), one weight column, a speed
computed per run, and the net change of a series.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from adamm.graphs.ingest import graph as ingest
from adamm.graphs.query import graph as query
from adamm.nodes.backends import backends, reset_backends
from adamm.nodes.context import Context

# (day, km, seconds, avg heart rate)
RUNS = [(2, 7.3, 2217, 162), (5, 5.4, 1620, 154), (8, 10.2, 3390, 149), (11, 13.4, 4620, 153), (14, 6.2, 1929, 135),
        (17, 8.8, 2790, 158), (20, 3.7, 1127, 141), (23, 13.2, 4320, 143), (26, 9.9, 3300, 151)]
# (day, sleep minutes, kg)
MORNINGS = [(2, 412, 82.3), (5, 344, 82.2), (8, 471, 80.8), (11, 491, 81.4), (14, 472, 82.1), (17, 376, 79.8),
            (20, 354, 81.1), (23, 410, 80.9)]


def _run(i: int, day: int, km: float, seconds: int, hr: int) -> dict[str, Any]:
    mm, ss = divmod(seconds, 60)
    layouts = [
        {"user_text": "Run done!", "images": [{"image_id": f"w{i}", "caption":
                                               f"Screenshot of a running app: Distance {km} km · Time {mm}:{ss:02d} · Avg HR {hr} bpm"}]},
        {"user_text": f"Ran {km} km in {mm} minutes {ss} seconds, heart rate averaged {hr}."},
        {"user_text": "Watch photo after the run.", "images": [{"image_id": f"w{i}", "caption":
                                                                f"Sports watch display: DIST {km} KM | TIME {mm}:{ss:02d} | HR {hr}"}]},
    ]
    return {"round_id": f"r{i}", "session_id": f"s{day}", "timestamp": f"2026-03-{day:02d}T18:00:00",
            "assistant_text": "Nice run.", **layouts[i % 3]}


def _morning(i: int, day: int, minutes: int, kg: float) -> dict[str, Any]:
    h, m = divmod(minutes, 60)
    text = [f"Slept {h}h {m}m last night, weight {kg} kg.", f"Got {h} hours {m} minutes of sleep. Scale says {kg} kg.",
            f"Weigh-in {kg} kg this morning; sleep was {h}:{m:02d}."][i % 3]
    return {"round_id": f"m{i}", "session_id": f"s{day}", "timestamp": f"2026-03-{day:02d}T07:30:00", "user_text": text,
            "assistant_text": "Noted."}


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Context]:
    reset_backends()
    context = Context(home=str(tmp_path_factory.mktemp("activity-home")))
    rounds = [_run(i, *r) for i, r in enumerate(RUNS)] + [_morning(i, *m) for i, m in enumerate(MORNINGS)]
    ingest.invoke({"memory_id": "a", "rounds": sorted(rounds, key=lambda r: r["timestamp"])}, context=context)
    yield context
    reset_backends()


def ask(ctx: Context, question: str) -> dict[str, Any]:
    return query.invoke({"memory_id": "a", "question": question, "now": "2026-04-01T09:00:00"}, context=ctx)


def number(text: str) -> float:
    return float(re.search(r"-?\d+(?:\.\d+)?", text.replace(",", "")).group())


def test_one_run_table_named_after_the_runs_with_every_field_in_one_unit(ctx: Context) -> None:
    sql = backends(ctx).sql
    runs = [t for t in sql.tables("a") if any(r["source"].startswith("r") for r in sql.select_rows("a", t.name))]
    assert [t.name for t in runs] == ["run_log"]
    rows = {r["source"]: r for r in sql.select_rows("a", "run_log")}
    assert len(rows) == len(RUNS)
    units = {c.name: c.unit for c in runs[0].columns}
    hr = next(c for c, u in units.items() if u == "bpm")
    minutes = next(c for c, u in units.items() if u == "min")
    for i, (_, km, seconds, bpm) in enumerate(RUNS):
        row = rows[f"r{i}"]
        assert row["distance"] == pytest.approx(km) and row[hr] == pytest.approx(bpm)
        # "37:57" is 37 minutes 57 seconds, never 37 hours; "HR 162" is beats per minute
        assert row[minutes] == pytest.approx(seconds / 60, abs=0.02)


def test_three_labels_of_the_weight_are_one_column(ctx: Context) -> None:
    sql = backends(ctx).sql
    table = next(t for t in sql.tables("a") if "weight" in [c.name for c in t.columns])
    weights = sorted(r["weight"] for r in sql.select_rows("a", table.name) if r["weight"] is not None)
    assert weights == sorted(kg for *_, kg in MORNINGS)
    assert not any(c.name in ("scale", "weigh_in") for t in sql.tables("a") for c in t.columns)


def test_speed_questions(ctx: Context) -> None:
    speeds = {day: km / (seconds / 3600) for day, km, seconds, _ in RUNS}
    fastest = max(speeds, key=speeds.get)
    out = ask(ctx, "What was my fastest run?")
    assert number(out["answer"]) == pytest.approx(round(speeds[fastest], 2), abs=0.01) and "km/h" in out["answer"]
    out = ask(ctx, "On which day was my slowest run?")
    assert f"2026-03-{min(speeds, key=speeds.get):02d}" in out["answer"]


def test_the_records_noun_is_no_subset_of_its_own_table(ctx: Context) -> None:
    out = ask(ctx, "What was my average heart rate on runs?")
    assert number(out["answer"]) == pytest.approx(round(sum(r[3] for r in RUNS) / len(RUNS), 2), abs=0.01)
    assert not out["calls"][0]["args"]["column_filters"]


@pytest.mark.parametrize("question", ["How much did my weight change since I started?", "What was the net change in my weight?"])
def test_net_change_is_the_last_minus_the_first(ctx: Context, question: str) -> None:
    out = ask(ctx, question)
    assert out["calls"][-1]["args"]["operator"] == "delta"
    assert number(out["answer"]) == pytest.approx(MORNINGS[-1][2] - MORNINGS[0][2], abs=0.01)


def test_a_noun_written_after_kinds_still_names_the_rows() -> None:
    """"a training zarn", "a group zarn", "Oskel zarn card": the rows' noun, though a field of
    kinds is named after it; "Brask: tessim" in every row is a label, which names no table."""
    from adamm.nodes.rules.describer import ColumnSample, table_name
    texts = [f"Did a {k} zarn today, {d} km." for k, d in
             [("training", 12), ("group", 30), ("training", 14), ("commute", 8), ("group", 28), ("commute", 9)]]
    measured = [ColumnSample("distance", "km", [12.0, 30.0, 14.0], 6)]
    assert table_name(measured, set(), texts, frozenset({"distance", "zarn"})) == "zarn_log"
    labelled = [f"Brask: tessim · {d} km" for d in (3, 4, 5, 6)]
    assert table_name(measured, set(), labelled, frozenset({"distance", "brask"})) != "brask_log"
