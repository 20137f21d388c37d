"""The rules planner on records written the ways logs are written: subsets named by the records'
own words, shares, which-most questions, rise or fall, honest routing to retrieval, and a
two-speaker conversation whose speaker metadata never becomes a table.

Expected values are computed here from the data the test writes, not copied from an answer.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from adamm.graphs.ingest import graph as ingest
from adamm.graphs.query import graph as query
from adamm.nodes.backends import backends, reset_backends
from adamm.nodes.context import Context

# (day, km, minutes, kind, station or None): a cycling log in three layouts
RIDES = [(1, 31.2, 78, "commute", "road"), (2, 29.1, 75, "commute", "gravel"), (3, 64.0, 150, "group ride", "road"),
         (5, 30.4, 77, "commute", "gravel"), (6, 72.8, 170, "group ride", "road"), (8, 41.0, 120, "training", "gravel"),
         (9, 28.7, 70, "commute", "road"), (12, 55.5, 140, "training", "road"), (13, 33.3, 82, "commute", "gravel")]
FUEL = [(2, "Ventra", 41.2, 74.10), (9, "PetroLux", 38.5, 70.02), (16, "Ventra", 44.0, 80.52), (23, "Greenmile", 39.9, 71.42),
        (30, "Ventra", 42.3, 77.83)]


def _ride(i: int, day: int, km: float, minutes: int, kind: str, bike: str) -> dict[str, Any]:
    date = f"2025-04-{day:02d}"
    layouts = [
        {"user_text": f"{kind.capitalize()} on the {bike} bike today: {km} km, {minutes} minutes moving."},
        {"user_text": "Here's the ride.", "images": [{"image_id": f"c{i}", "caption": f"Ride card: '{kind.title()}' · {km} km · "
                                                                                    f"{minutes // 60} h {minutes % 60} min · bike: {bike.title()}"}]},
        {"user_text": f"Logged a {kind} on my {bike} bike: {km} km in {minutes} min."},
    ]
    return {"round_id": f"r{i}", "session_id": f"s{day}", "timestamp": f"{date}T19:00:00", "assistant_text": "Saved.",
            **layouts[i % 3]}


def _fuel(i: int, day: int, station: str, litres: float, total: float) -> dict[str, Any]:
    date = f"2025-04-{day:02d}"
    # the memory itself calls them stations: "which stations" links by that word, no list of place nouns
    text = [f"Filled up at the {station} station today: {litres} L, paid €{total:.2f}.",
            f"Receipt from {station}: {litres} litres, total EUR {total:.2f}."][i % 2]
    return {"round_id": f"f{i}", "session_id": f"s{day}", "timestamp": f"{date}T08:00:00", "user_text": text,
            "assistant_text": "Noted."}


def history() -> list[dict[str, Any]]:
    rounds = [_ride(i, *r) for i, r in enumerate(RIDES)] + [_fuel(i, *f) for i, f in enumerate(FUEL)]
    rounds.append({"round_id": "c1", "session_id": "s10", "timestamp": "2025-04-10T12:00:00",
                   "user_text": "My coach wants my rides capped at 60 km for now.", "assistant_text": "Sensible."})
    rounds.append({"round_id": "c2", "session_id": "s11", "timestamp": "2025-04-11T12:00:00",
                   "user_text": "My brother rode 164 km on Saturday, show-off.", "assistant_text": "Impressive!"})
    rounds.append({"round_id": "c3", "session_id": "s7", "timestamp": "2025-04-07T12:00:00",
                   "user_text": "I switched to tubeless tyres on the road bike today.", "assistant_text": "Fewer flats!"})
    return sorted(rounds, key=lambda r: r["timestamp"])


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Context]:
    reset_backends()
    context = Context(home=str(tmp_path_factory.mktemp("planning-home")))
    ingest.invoke({"memory_id": "m", "rounds": history()}, context=context)
    yield context
    reset_backends()


def ask(ctx: Context, question: str) -> dict[str, Any]:
    return query.invoke({"memory_id": "m", "question": question, "now": "2025-05-01T09:00:00"}, context=ctx)


def first_number(text: str) -> float:
    return float(re.search(r"-?\d+(?:\.\d+)?", text.replace(",", "")).group())


def test_one_table_per_record_type_and_the_other_persons_ride_is_not_a_row(ctx: Context) -> None:
    sql = backends(ctx).sql
    rows = {t.name: sql.select_rows("m", t.name) for t in sql.tables("m")}
    ride_tables = [n for n, r in rows.items() if any(x["source"].startswith("r") for x in r)]
    assert len(ride_tables) == 1 and len(rows[ride_tables[0]]) == len(RIDES)
    assert not any(x["source"] == "c2" for r in rows.values() for x in r)


def test_a_subset_named_by_the_records_words(ctx: Context) -> None:
    out = ask(ctx, "How many kilometres did I ride on the gravel bike in April 2025?")
    assert first_number(out["answer"]) == pytest.approx(sum(km for _, km, _, _, b in RIDES if b == "gravel"))
    # no list of kinds of ride: the records' own word, said in enough of them, names the subset
    out = ask(ctx, "In April 2025, how many commute rides did I log?")
    assert first_number(out["answer"]) == sum(1 for r in RIDES if r[3] == "commute")


def test_share_of_records(ctx: Context) -> None:
    out = ask(ctx, "What share of my rides were commutes?")
    share = 100 * sum(1 for r in RIDES if r[3] == "commute") / len(RIDES)
    assert first_number(out["answer"]) == pytest.approx(round(share, 1), abs=0.05)
    assert out["calls"][0]["args"]["operator"] == "share"


def test_which_value_most_often(ctx: Context) -> None:
    out = ask(ctx, "Which station did I fill up at most often?")
    top, _ = Counter(s for _, s, _, _ in FUEL).most_common(1)[0]
    assert out["answer"].startswith(top)
    assert out["calls"][0]["args"].get("group_by")


def test_rise_or_fall_between_two_periods(ctx: Context) -> None:
    out = ask(ctx, "Did my average ride distance rise or fall between April 1–6, 2025 and April 8–13, 2025?")
    early = [km for d, km, *_ in RIDES if d <= 6]
    late = [km for d, km, *_ in RIDES if 8 <= d <= 13]
    word = "Increased" if sum(late) / len(late) > sum(early) / len(early) else "Decreased"
    assert out["answer"].startswith(word)


def test_a_fact_said_once_goes_to_retrieval(ctx: Context) -> None:
    out = ask(ctx, "What distance cap did my coach set?")
    assert [c["tool"] for c in out["calls"]] == ["EventLocate"]
    assert "60 km" in out["evidence"][0]["text"]  # the round that says it, first


def test_a_stated_value_is_looked_up_then_used_as_the_threshold(ctx: Context) -> None:
    out = ask(ctx, "How many of my rides went over the cap my coach set?")
    assert [c["tool"] for c in out["calls"]] == ["EventLocate", "Compute"]
    assert {"column": "distance", "op": ">", "value": 60.0} in out["calls"][1]["args"]["column_filters"]
    assert first_number(out["answer"]) == sum(1 for r in RIDES if r[1] > 60)


def test_speaker_metadata_never_becomes_a_table(tmp_path) -> None:
    """A LoCoMo-style conversation: two speakers, metadata ``speaker``, no logged records."""
    reset_backends()
    context = Context(home=str(tmp_path))
    lines = [("Caroline", "I went to a support group meeting yesterday, it was really moving."),
             ("Melanie", "That sounds powerful. I've been painting a lot lately."),
             ("Caroline", "I'm thinking about adopting, maybe next year."),
             ("Melanie", "I ran a charity race for mental health last Saturday, it felt great."),
             ("Caroline", "Amazing! How far was it?"), ("Melanie", "Just 5 km, but the cause mattered to me."),
             ("Caroline", "My kids loved the beach trip we took in June."), ("Melanie", "We went camping with the family."),
             ("Caroline", "I signed up for a pottery class."), ("Melanie", "I'm reading a book about self-care.")] * 2
    rounds = [{"round_id": f"t{i}", "session_id": f"s{i // 4}", "timestamp": f"2023-05-{8 + i // 4:02d}T13:56:00",
               "user_text": text, "metadata": {"speaker": who}} for i, (who, text) in enumerate(lines)]
    ingest.invoke({"memory_id": "conv", "rounds": rounds}, context=context)
    tables = backends(context).sql.tables("conv")
    assert not any("speaker" in t.column_names for t in tables)
    out = query.invoke({"memory_id": "conv", "question": "When did Melanie run a charity race?"}, context=context)
    assert out["calls"] and all(c["tool"] in ("EventLocate", "SemanticMatch") for c in out["calls"])
    assert "charity race" in out["evidence"][0]["text"]
    reset_backends()


def test_descriptions_follow_the_rows(tmp_path) -> None:
    """The stored description says how many records a table holds and over which days, after
    every ingestion - not the count at discovery."""
    reset_backends()
    context = Context(home=str(tmp_path), use_retrieval=False)
    rides = [_ride(i, *r) for i, r in enumerate(RIDES)]
    ingest.invoke({"memory_id": "d", "rounds": rides[:5]}, context=context)
    (table,) = backends(context).sql.tables("d")
    assert table.description.endswith("(5 records, 2025-04-01 to 2025-04-06)")
    ingest.invoke({"memory_id": "d", "rounds": rides[5:]}, context=context)
    (table,) = backends(context).sql.tables("d")
    assert table.description.endswith(f"({len(RIDES)} records, 2025-04-01 to 2025-04-13)")
    reset_backends()


# -- listing values, the named column of an extreme row, values in other words ------------------

def test_which_values_lists_each_distinct_value_in_scope(ctx: Context) -> None:
    out = ask(ctx, "At which stations did I fill up between April 1 and April 20, 2025?")
    want = sorted({s for d, s, _, _ in FUEL if d <= 20})
    assert out["calls"][0]["args"]["group_by"] and out["answer"].startswith(", ".join(want))


def test_which_names_the_column_of_the_extreme_row(ctx: Context) -> None:
    out = ask(ctx, "On which bike did I ride my longest ride?")
    _, km, _, _, bike = max(RIDES, key=lambda r: r[1])
    assert out["calls"][0]["tool"] == "Rank" and out["answer"].lower().startswith(bike)
    assert f"{km}" in out["answer"]


def test_stored_values_named_in_the_plural() -> None:
    """"plon washes" and "drev washes" name the stored values "plon wash" and "drev wash": the
    question's plural is the memory's own word, no synonym list between them."""
    from adamm.nodes.rules.plan_filters import value_filters
    from adamm.nodes.rules.plan_instantiate import compare_sides

    table = {"name": "kelt_log", "rows": 10, "vocabulary": {},
             "columns": [{"name": "kind", "type": "text", "values": ["plon wash", "drev wash", "skib"]},
                         {"name": "cost", "type": "float", "unit": "EUR"}]}
    sides = compare_sides("Per kelt, did I spend more on plon washes or on drev washes?", [], table)
    assert sides is not None and [s[0][0]["value"] for s in sides] == ["plon wash", "drev wash"]
    assert value_filters("How much did my skibs cost?", table) == [{"column": "kind", "op": "=", "value": "skib"}]


def test_intents_of_count_like_questions() -> None:
    from adamm.nodes.rules.plan_intent import detect_intent

    tables = [{"name": "rating_log", "rows": 5, "columns": [
        {"name": "rating", "type": "float", "unit": "stars"}, {"name": "book", "type": "text", "values": ["A", "B"]}]}]
    latest = detect_intent("How many stars did I give the last book I finished?", [], tables)
    assert (latest.kind, latest.operator) == ("compute", "last")
    most = detect_intent("Which book took me the most reading or listening sessions?", [], tables)
    assert (most.kind, most.operator) == ("group", "count")
    recent = detect_intent("At which book did I stop most recently?", [], tables)
    assert recent.kind != "group"


@pytest.mark.parametrize("question, op", [
    ("How much did my weight change since I started?", "delta"), ("What was the net change in my savings?", "delta"),
    ("How much weight did I lose in March?", "delta"), ("How much has my resting pulse dropped?", "delta"),
    ("Did my weight go up or down?", "trend"), ("How much did I spend in March?", "sum"),
])
def test_net_change_questions_are_the_last_minus_the_first(question: str, op: str) -> None:
    from adamm.nodes.rules.plan_intent import detect_intent
    from adamm.stores.timeexpr import find_periods

    from datetime import date

    assert detect_intent(question, find_periods(question, date(2026, 4, 5))).operator == op


@pytest.mark.parametrize("question, kind, op", [
    ("How much electricity did I use in February 2026?", "compute", "sum"),
    ("How much did electricity cost me in February 2026?", "compute", "sum"),
    ("What was the coldest day?", "compute", "min"),
    ("How much did I weigh on March 3, 2026?", "lookup", "last"),
])
def test_how_much_over_a_period_is_a_total(question: str, kind: str, op: str) -> None:
    from datetime import date

    from adamm.nodes.rules.plan_intent import detect_intent
    from adamm.stores.timeexpr import find_periods

    intent = detect_intent(question, find_periods(question, date(2026, 4, 5)))
    assert (intent.kind, intent.operator) == (kind, op)


def test_since_i_started_is_no_event() -> None:
    from adamm.nodes.rules.plan_events import event_bound

    assert event_bound("How much did my weight change since I started logging it?", []) is None
    assert event_bound("How far did I ride since I switched bikes?", []) is not None


def test_fastest_is_distance_over_time_when_no_column_says_speed() -> None:
    from adamm.nodes.rules.plan_columns import speed_expression

    cols = [{"name": "distance", "type": "float", "unit": "km"}, {"name": "duration", "type": "float", "unit": "min"}]
    assert speed_expression("What was my fastest run?", {"name": "run_log", "columns": cols}) == "distance / duration * 60"
    assert speed_expression("What was my longest run?", {"name": "run_log", "columns": cols}) is None
    with_speed = [*cols, {"name": "avg_speed", "type": "float", "unit": "km/h"}]
    assert speed_expression("What was my fastest ride?", {"name": "ride_log", "columns": with_speed}) is None


def test_a_table_is_named_after_the_record_its_rows_mention() -> None:
    from adamm.nodes.rules.describer import ColumnSample, table_name

    cols = [ColumnSample("distance", "km", [5.2, 8.1], 9), ColumnSample("duration", "min", [27.0, 44.8], 9)]
    assert table_name(cols, set(), ["Ran 5.4 km in 27 minutes", "Watch photo after the run", "Run done!"]) == "run_log"
    assert table_name(cols, set(), ["5.4 km in 27 minutes", "8.1 km", "Run done!"]) != "run_log"  # too few say it
    sleep = [ColumnSample("deep_sleep", "h", [1.0], 5), ColumnSample("total_sleep", "h", [7.0], 5)]
    assert table_name(sleep, set(), ["ran a bit, went to bed late"] * 3) == "sleep_log"  # the columns say what a row is
    # the word is the memory's own, no list of activities: an invented record is named after it
    assert table_name(cols, set(), ["Vrask done: 5.2 km", "A long vrask today, 8 km", "vrasks 3 km"]) == "vrask_log"
    # a column's own word names no record: "Distance" is in every row, "vrask" in 2 of 3
    assert table_name(cols, set(), ["Distance 5.2 km", "Distance 8 km, vrask", "Distance 3 km vrask"]) == "vrask_log"
    stages = [ColumnSample("deep", "min", [50.0], 5), ColumnSample("rem", "min", [90.0], 5), ColumnSample("score", None, [80.0], 5)]
    assert table_name(stages, set(), ["Sleep app card: Deep 50 min, REM 90 min, score 80"] * 3) == "sleep_log"
    # a hyphenated word of the memory's own is made an identifier, not refused by the store
    hyphen = table_name(cols, set(), ["dram-vel haul 5.2 km", "a dram-vel day, 8 km", "dram-vel 3 km"])
    from adamm.stores.sql import is_identifier

    assert hyphen in ("dram_vel_log", "dram_log", "vel_log") and is_identifier(hyphen)


def test_missing_a_two_number_target_is_either_number_past_it() -> None:
    from adamm.nodes.rules.plan_events import fact_conditions

    table = {"name": "bp", "columns": [{"name": "systolic", "type": "float", "unit": "mmHg"},
                                       {"name": "diastolic", "type": "float", "unit": "mmHg"}]}
    said = ["She wants them under 135/85 - that's my home target from now on."]
    miss = fact_conditions("On which days did a reading miss the home target my GP set?", said, table)
    assert miss == [{"any": [{"column": "systolic", "op": ">=", "value": 135.0}, {"column": "diastolic", "op": ">=", "value": 85.0}]}]
    within = fact_conditions("How many readings were within the home target my GP set?", said, table)
    assert within == [{"column": "systolic", "op": "<", "value": 135.0}, {"column": "diastolic", "op": "<", "value": 85.0}]
    at_most = fact_conditions("How many readings missed the target?", ["Target: at most 135/85."], table)
    assert at_most == [{"any": [{"column": "systolic", "op": ">", "value": 135.0}, {"column": "diastolic", "op": ">", "value": 85.0}]}]


def test_what_it_cost_is_the_money_column_and_a_price_stays_a_price() -> None:
    from adamm.nodes.backends import backends as _backends
    from adamm.nodes.rules.plan_targets import choose_target

    cols = [{"name": "energy", "type": "float", "unit": "kWh", "aliases": ["electricity"]}, {"name": "amount", "type": "float", "unit": "EUR"}]
    fuel = [{"name": "volume", "type": "float", "unit": "L"}, {"name": "amount", "type": "float", "unit": "EUR"},
            {"name": "price_per_litre", "type": "float", "unit": "EUR/L"}]
    enc = _backends(Context()).text_encoder
    assert choose_target(enc, "How much did electricity cost me?", [], [{"name": "energy_log", "columns": cols}]).column == "amount"
    assert choose_target(enc, "What was the average price per litre I paid?", [], [{"name": "fuel_log", "columns": fuel}]).column == "price_per_litre"


def test_a_price_a_litre_is_compared_with_the_price_column() -> None:
    from adamm.nodes.rules.plan_columns import Target
    from adamm.nodes.rules.plan_filters import condition_filters

    columns = [{"name": "amount", "type": "float", "unit": "EUR"}, {"name": "volume", "type": "float", "unit": "L"},
               {"name": "price_per_litre", "type": "float", "unit": "EUR/L"}]
    target = Target("fuel_log", "amount", "EUR", 1.0, columns)
    got = condition_filters("How many fill-ups did I pay €1.80 or more a litre for?", [], target)
    assert got == [{"column": "price_per_litre", "op": ">=", "value": 1.8}]


def test_last_after_the_verb_is_the_latest_record() -> None:
    from adamm.nodes.rules.plan_intent import is_latest as _is_latest

    assert _is_latest("Which team did we play last?") and _is_latest("Which team did we play last during March?")
    assert not _is_latest("How long did my sessions last on average?") and not _is_latest("What did I eat last week?")


def test_the_days_past_a_stated_value(ctx: Context) -> None:
    """"On which days did my rides go over the cap my coach set?": the cap is read where it
    was said (60 km), then the days past it are listed."""
    out = ask(ctx, "On which days did my rides go over the cap my coach set?")
    assert [c["tool"] for c in out["calls"]][:2] == ["EventLocate", "Filter"]
    want = sorted({f"2025-04-{d:02d}" for d, km, *_ in RIDES if km > 60})
    assert re.findall(r"2025-\d\d-\d\d", out["answer"]) == want


def test_a_measure_noun_names_no_subset() -> None:
    from adamm.nodes.rules.plan_filters import mention_filters

    table = {"name": "fuel_log", "rows": 10, "vocabulary": {"fill-up": 3, "fill": 3, "up": 5, "pump": 4},
             "columns": [{"name": "volume", "type": "float", "unit": "L"}]}
    assert mention_filters("Did my average fill-up size rise or fall?", [], table) == []


def test_records_bounded_by_an_event_said_once(ctx: Context) -> None:
    """"Since I switched to tubeless tyres": the day it was said (April 7) bounds the rides."""
    out = ask(ctx, "Since I switched to tubeless tyres, what has my average ride distance been?")
    assert [c["tool"] for c in out["calls"]][:2] == ["EventLocate", "Compute"]
    later = [km for d, km, *_ in RIDES if d > 7]
    assert first_number(out["answer"]) == pytest.approx(sum(later) / len(later), abs=0.01)


def test_a_date_is_no_event() -> None:
    from adamm.nodes.rules.plan_events import event_bound
    from adamm.stores.timeexpr import find_periods
    from datetime import datetime

    q = "Since March 3, what has my average ride distance been?"
    assert event_bound(q, find_periods(q, datetime(2025, 5, 1))) is None
    assert event_bound("Before my coach set the cap, how far did I ride?", []) is not None


def test_before_or_after_an_event_said_once(ctx: Context) -> None:
    out = ask(ctx, "Were my rides longer on average before or after I switched to tubeless tyres?")
    assert [c["tool"] for c in out["calls"]] == ["EventLocate", "Compute", "Compute"]
    before = [km for d, km, *_ in RIDES if d <= 7]
    after = [km for d, km, *_ in RIDES if d > 7]
    word = "after" if sum(after) / len(after) > sum(before) / len(before) else "before"
    assert out["answer"].startswith(word)


def _reading_tables() -> tuple[dict[str, Any], dict[str, Any]]:
    sessions = {"name": "session_log", "rows": 6, "vocabulary": {"read": 6, "pages": 6},
                "columns": [{"name": "book", "type": "text", "filled": 6, "values": ["Night Trains", "Orchards of Mars", "The Ledger"]},
                            {"name": "format", "type": "text", "filled": 6, "values": ["paper", "ebook"]},
                            {"name": "pages", "type": "float", "unit": "pages"}]}
    books = {"name": "book_log", "rows": 3, "vocabulary": {"started": 3},
             "columns": [{"name": "book", "type": "text", "filled": 3, "values": ["Night Trains", "Orchards of Mars", "The Ledger"]},
                         {"name": "format", "type": "text", "filled": 3, "values": ["paper", "ebook"]},
                         {"name": "genre", "type": "text", "filled": 3, "values": ["memoir", "science fiction", "mystery"]},
                         {"name": "total_pages", "type": "float", "unit": "pages"}]}
    return sessions, books


def test_a_value_of_a_linked_table_names_the_rows_through_their_shared_identifier() -> None:
    """"pages of memoir" over reading sessions: the genre lives with the books, linked by the
    title (the column with a value per row), not by the format the two tables also share."""
    from adamm.nodes.rules.plan_filters import linked_filters, subset_filters
    from adamm.nodes.rules.plan_instantiate import compare_sides

    sessions, books = _reading_tables()
    question = "Across all my reading sessions, how many pages of memoir did I read?"
    assert linked_filters(question, sessions, [sessions, books]) == [
        {"column": "genre", "op": "=", "value": "memoir", "table": "book_log", "via": "book"}]
    assert subset_filters(question, [], sessions, "pages", [sessions, books])[0]["table"] == "book_log"
    assert subset_filters(question, [], sessions, "pages") == []  # without the other tables: no link
    sides = compare_sides("Did I read more pages of mystery or of science fiction?", [], sessions, [sessions, books])
    assert [(s[0][0]["value"], s[0][0]["via"]) for s in sides] == [("mystery", "book"), ("science fiction", "book")]
    # a value inside a longer one ("fiction" in "science fiction") is not a third side
    fiction = {**books, "columns": [*books["columns"][:2], {**books["columns"][2], "values": ["fiction", "science fiction", "mystery"]},
                                    books["columns"][3]]}
    sides = compare_sides("Did I read more pages of science fiction or of mystery?", [], sessions, [sessions, fiction])
    assert [s[0][0]["value"] for s in sides] == ["science fiction", "mystery"]
    # the planner's arguments carry the link through validation; half a link is refused
    from adamm.nodes.toolbox import ComputeArgs, filter_dicts

    args = ComputeArgs.model_validate({"table": "session_log", "target": "pages", "operator": "sum",
                                       "column_filters": [{"column": "genre", "value": "memoir", "table": "book_log", "via": "book"}]})
    assert filter_dicts(args.column_filters) == [{"column": "genre", "op": "=", "value": "memoir", "table": "book_log", "via": "book"}]
    with pytest.raises(ValueError, match="both 'table' and 'via'"):
        ComputeArgs.model_validate({"table": "session_log", "target": "pages", "operator": "sum",
                                    "column_filters": [{"column": "genre", "value": "memoir", "via": "book"}]})
    # no shared value in the would-be link (other books entirely): no link
    strangers = {**books, "columns": [{**books["columns"][0], "values": ["Another Book"]}, *books["columns"][1:]]}
    assert linked_filters(question, sessions, [sessions, strangers]) == []
    # a category shared by both tables (a value for every other row at best) is no identifier
    by_format = {**books, "columns": [c for c in books["columns"] if c["name"] != "book"]}
    assert linked_filters(question, sessions, [sessions, by_format]) == []


def test_pages_of_a_genre_answered_through_the_linked_books_table(tmp_path) -> None:
    """The whole query graph over two real tables: the planner links them, the tool runs the
    semi-join, the answer is the sum over the linked rows only."""
    from datetime import datetime, timedelta

    from adamm.stores.sql import ColumnSpec

    reset_backends()
    context = Context(home=str(tmp_path / "home"))
    sql = backends(context).sql
    t0 = datetime(2025, 3, 1, 20)
    sql.create_table("m", "book_log", [ColumnSpec("book", "text"), ColumnSpec("genre", "text"), ColumnSpec("length", "float", "pages")],
                     description="books started, with their genre")
    sql.upsert_rows("m", "book_log", [{"source": f"b{i}", "order": i, "time": t0, "book": b, "genre": g, "length": p}
                                      for i, (b, g, p) in enumerate([("Night Trains", "memoir", 240), ("Orchards of Mars", "science fiction", 302),
                                                                     ("The Ledger", "mystery", 248)])])
    sql.create_table("m", "session_log", [ColumnSpec("book", "text"), ColumnSpec("pages", "float", "pages")],
                     description="reading sessions")
    reads = [("Night Trains", 40), ("The Ledger", 55), ("Night Trains", 38), ("Orchards of Mars", 61), ("night trains", 12), ("The Ledger", 20)]
    sql.upsert_rows("m", "session_log", [{"source": f"s{i}", "order": 10 + i, "time": t0 + timedelta(days=i), "book": b, "pages": p}
                                         for i, (b, p) in enumerate(reads)])
    try:
        out = query.invoke({"memory_id": "m", "question": "Across all my reading sessions, how many pages of memoir did I read?",
                            "now": "2025-04-01T09:00:00"}, context=context)
        assert first_number(out["answer"]) == 90
        assert out["calls"][0]["args"]["column_filters"][0]["via"] == "book"
        out = query.invoke({"memory_id": "m", "question": "Across all my sessions, did I read more pages of mystery or of science fiction?",
                            "now": "2025-04-01T09:00:00"}, context=context)
        assert out["answer"].lower().startswith("mystery")
    finally:
        reset_backends()


def test_the_retrieval_query_drops_the_words_that_ask_for_a_name() -> None:
    """"What is my coach's name?" searched as is finds rounds about names ("remembering people's
    names"); the words that ask for a name are left out, the rest of the question kept."""
    from adamm.nodes.rules.plan_instantiate import retrieval_query

    assert retrieval_query("What is my coach's name?", []) == "What is my coach's ?"
    assert retrieval_query("What is the name of Lena's dog?", []) == "What is Lena's dog?"
    assert retrieval_query("What is my book club called?", []) == "What is my book club ?"
    assert retrieval_query("Who called me about the boiler?", []) == "Who called me about the boiler?"


_INVENTED = [{"name": "vrell_log", "rows": 30, "description": "One row per logged record of vrell (qz), drom (km), brosk.",
              "vocabulary": {"trabbing": 24, "session": 26, "vrell": 30},
              "columns": [{"name": "vrell", "type": "float", "unit": "qz"}, {"name": "drom", "type": "float", "unit": "km"},
                          {"name": "brosk", "type": "text", "values": ["Ashvel", "Glim"]}]}]


@pytest.mark.parametrize("question, kind, op", [
    ("Count my Ashvel trabbing sessions in total.", "compute", "count"),
    ("What number of trabbing sessions did I record in April 2025?", "compute", "count"),
    ("What did my vrell add up to on Ashvel trabbing sessions in March 2025?", "compute", "sum"),
    ("For which brosk was my average vrell top?", "group", "avg"),
    ("For which brosk was my average vrell minimum?", "group", "avg"),
    ("What was my most common brosk across all my logs?", "group", "count"),
    ("What vrell did I log last, in km?", "compute", "last"),
    ("March 2025 vs April 2025: which had the higher mean vrell?", "compare", "avg"),
    ("Were there more trabbing sessions in March 2025 or in April 2025?", "compare", "count"),
    ("Did I log more drom in March 2025 or in April 2025?", "compare", "avg"),
    ("Of all my trabbing sessions, what fraction were Ashvel (as a percentage)?", "share", "share"),
    ("Which different brosks show up in my trabbing sessions during May 2025?", "values", "count"),
    ("List every brosk in my trabbing sessions in April 2025.", "values", "count"),
])
def test_operator_words_other_authors_use(question: str, kind: str, op: str) -> None:
    """The operator is read from general words whatever the template ("count my", "add up to",
    "top", "most common", "A vs B", "more <records> in A or B", "of all my X, what fraction"),
    over a log whose field and record words are invented."""
    from datetime import date

    from adamm.nodes.rules.plan_intent import detect_intent
    from adamm.stores.timeexpr import find_periods

    intent = detect_intent(question, find_periods(question, date(2025, 6, 1)), _INVENTED)
    assert (intent.kind, intent.operator) == (kind, op)
    if "minimum" in question:
        assert intent.wants_less


def test_a_share_question_with_its_population_first_splits_the_same_way() -> None:
    from adamm.nodes.rules.plan_intent import SHARE_SPLIT

    m = SHARE_SPLIT.search("Of all my trabbing sessions, what fraction were Ashvel (as a percentage)?")
    assert m is not None and (m.group("scope"), m.group("pred")) == ("all my trabbing sessions", "Ashvel")
    m = SHARE_SPLIT.search("What share of my trabbing sessions were Ashvel?")
    assert m is not None and (m.group("scope"), m.group("pred")) == ("my trabbing sessions", "Ashvel")


@pytest.mark.parametrize("question, unit", [
    ("What was my total drom across all my sessions, in km?", "km"), ("How many miles did I run?", "mi"),
    ("What was my lowest ratgyr length in March 2025, in minutes?", "min"), ("the mean grask, in dollars?", "USD"),
    ("What did I spend in total?", None), ("What was my average in May?", None), ("How many sessions in total?", None),
])
def test_the_unit_a_question_asks_for(question: str, unit: str | None) -> None:
    from adamm.nodes.rules.answerer import asked_unit

    assert asked_unit(question) == unit


def test_an_answer_is_given_in_the_unit_the_question_asks_for() -> None:
    """A column kept in miles answers "in km" in km; no conversion across dimensions or currencies."""
    from adamm.nodes.rules.answerer import in_asked_unit

    value, unit = in_asked_unit(28.3, "mi", "On average, what was my drom last month, in km?")
    assert unit == "km" and value == pytest.approx(45.544, abs=0.01)
    assert in_asked_unit(56.0, "h", "What was my lowest ratgyr length, in minutes?") == (pytest.approx(3360.0), "min")
    assert in_asked_unit(12.5, "EUR", "What did it cost, in dollars?") == (12.5, "EUR")
    assert in_asked_unit(12.5, "qz", "What was my vrell, in km?") == (12.5, "qz")


def test_a_trend_from_one_month_to_another_compares_the_two_months() -> None:
    """"go up or down from February 2025 to April 2025" is one range phrase; its sides are its ends."""
    from datetime import date

    from adamm.nodes.rules.plan_instantiate import compare_sides
    from adamm.stores.timeexpr import find_periods

    for q in ("Did my average vrell go up or down from February 2025 to April 2025?",
              "Did my average vrell rise or fall between February 2025 and April 2025?"):
        sides = compare_sides(q, find_periods(q, date(2025, 6, 1)), _INVENTED[0])
        assert sides is not None
        assert [s[0][0]["value"] for s in sides] == [["2025-02-01", "2025-02-28"], ["2025-04-01", "2025-04-30"]]


def test_the_records_own_name_is_no_subset_nor_a_side() -> None:
    """"my grasking sittings" where a sparse ``sitting`` column holds "grasking" / "Grasking"
    (one layout writes "Tuesday's grasking sitting: ..."): no filter, and no comparison of a
    value with its own capitalisation."""
    from adamm.nodes.rules.plan_filters import names_the_records, value_filters
    from adamm.nodes.rules.plan_instantiate import compare_sides

    table = {"name": "rirrsi_log", "rows": 40, "columns": [
        {"name": "jitesh", "type": "float", "unit": "skul"},
        {"name": "slov", "type": "text", "filled": 40, "values": ["Karrnee", "Flollyr", "Dravee"],
         "counts": {"karrnee": 15, "flollyr": 14, "dravee": 11}},
        {"name": "sitting", "type": "text", "filled": 30, "values": ["grasking", "Grasking", "Krommest"],
         "counts": {"grasking": 20, "krommest": 10}}]}
    q = "Is my jitesh higher on average for Flollyr grasking sittings or for Dravee grasking sittings?"
    assert names_the_records(q, "grasking", "sitting", table)
    assert value_filters("How many Flollyr grasking sittings did I log?", table) == [{"column": "slov", "op": "=", "value": "Flollyr"}]
    sides = compare_sides(q, [], table)
    assert sides is not None and [s[0][0]["value"] for s in sides] == ["Flollyr", "Dravee"]


def test_a_question_that_names_its_answers_unit_or_time_never_gets_money() -> None:
    """"How much time did the Vrell shop migration take" is the hours, though a rate column
    shares a word with it and "shop" is a money word - here only the name of what is filtered;
    "how many billable hours" is the hours, not a billable amount in dollars."""
    import numpy as np

    from adamm.nodes.rules.plan_targets import choose_target

    class Lexical:  # likeness of meanings left out: the words alone must decide
        def encode(self, texts: list[str]) -> np.ndarray:
            return np.zeros((len(texts), 8))

    entries = {"name": "duration_log", "rows": 50, "vocabulary": {},
               "columns": [{"name": "duration", "type": "float", "unit": "h"},
                           {"name": "rate", "type": "float", "unit": "USD/h", "aliases": ["bill", "billable"]},
                           {"name": "project", "type": "text", "values": ["Shop Migration", "Route Planner"]}]}
    invoices = {"name": "billable_log", "rows": 20, "vocabulary": {},
                "columns": [{"name": "billable_amount", "type": "float", "unit": "USD"}]}
    asked = choose_target(Lexical(), "How much time did the Shop Migration take altogether, billable or not?", [], [entries, invoices])
    assert asked is not None and asked.column == "duration"
    asked = choose_target(Lexical(), "How many billable hours did I log?", [], [entries, invoices])
    assert asked is not None and asked.column == "duration"


def test_a_word_that_names_a_column_and_a_category_value_asks_for_the_column() -> None:
    """"my longest sleep" beside a ``kind`` column whose values include "sleep" (labels read as a
    category) and a ``sleep`` column: the target is the column, and no kind = sleep filter
    narrows its rows."""
    import numpy as np

    from adamm.nodes.rules.plan_filters import subset_filters
    from adamm.nodes.rules.plan_targets import choose_target

    class Lexical:  # likeness of meanings left out: the words alone must decide
        def encode(self, texts: list[str]) -> np.ndarray:
            return np.zeros((len(texts), 8))

    table = {"name": "day_log", "rows": 40, "vocabulary": {},
             "columns": [{"name": "kind", "type": "text", "values": ["sleep", "meditation", "coffee"]},
                         {"name": "sleep", "type": "float", "unit": "h"},
                         {"name": "duration", "type": "float", "unit": "min"}]}
    question = "Which day did I log my longest sleep?"
    target = choose_target(Lexical(), question, [], [table])
    assert target is not None and target.column == "sleep"
    assert subset_filters(question, [], table, "sleep") == []
    # a value that names no column still selects its rows
    assert subset_filters("How long were my meditation sessions on average?", [], table, "duration") == [
        {"column": "kind", "op": "=", "value": "meditation"}]


def test_what_how_many_counts_is_the_target_whatever_the_condition_names() -> None:
    from adamm.nodes.backends import backends as _backends
    from adamm.nodes.rules.plan_targets import choose_target

    cols = [{"name": "vrelle", "type": "float", "unit": None}, {"name": "sleep", "type": "float", "unit": "h"},
            {"name": "meditation", "type": "float", "unit": "min"}]
    tables = [{"name": "day_log", "rows": 40, "columns": cols}]
    enc = _backends(Context()).text_encoder
    got = choose_target(enc, "On days when I'd slept under 6 hours, how many vrelles did I have on average?", [], tables)
    assert got is not None and got.column == "vrelle"
    assert choose_target(enc, "How long did I sleep on average on days with 4 vrelles?", [], tables).column == "sleep"


def test_a_singular_and_its_plural_share_a_stem() -> None:
    from adamm.nodes.rules.plan_words import word_stem

    for one, many in [("vrelle", "vrelles"), ("ride", "rides"), ("glass", "glasses"), ("box", "boxes"),
                      ("tomato", "tomatoes"), ("reading", "readings"), ("party", "parties")]:
        assert word_stem(one) == word_stem(many), (one, many)
    assert word_stem("wines") != word_stem("wins")  # a short stem keeps its final "e"


def test_a_fortnight_and_the_days_before_a_stated_day_are_periods() -> None:
    from datetime import date, datetime

    from adamm.stores.timeexpr import find_periods

    def span(q: str) -> tuple:
        p = find_periods(q, datetime(2025, 6, 1))[0]
        return p.start, p.end

    assert span("What was my average vrell over the last fortnight, as of 2025-04-30?") == (date(2025, 4, 17), date(2025, 4, 30))
    assert span("How much grost in the 30 days before March 23?") == (date(2025, 2, 21), date(2025, 3, 22))
    assert span("Vrell in the two weeks leading up to April 10, 2025?") == (date(2025, 3, 27), date(2025, 4, 9))
    assert span("What did I log before March 23?") == (None, date(2025, 3, 22))  # an open range stays open


def test_what_was_put_somewhere_over_a_period_adds_up_and_weight_put_on_is_a_change() -> None:
    from datetime import datetime

    from adamm.nodes.rules.plan_intent import detect_intent
    from adamm.stores.timeexpr import find_periods

    def intent(q: str) -> tuple:
        i = detect_intent(q, find_periods(q, datetime(2025, 10, 1)), [])
        return i.kind, i.operator

    assert intent("How much grost did I put on the lorr in August, in litres?") == ("compute", "sum")
    assert intent("How much grost did I plonk in March?") == ("compute", "sum")
    assert intent("How many kilos did I put on between my first and my last weigh-in?") == ("compute", "delta")
    assert intent("How many games did I lose in March?") == ("compute", "count")  # a count lost, no change
    assert intent("How much did I weigh in March?") != ("compute", "sum")


# -- kinds of day and changes asked in comparatives -------------------------------------------

@pytest.mark.parametrize("question, days", [
    ("Do I drink more brennet on weekdays or at the weekend?", [[0, 1, 2, 3, 4], [5, 6]]),
    ("Did I vash longer on Saturdays or on Sundays?", [[5], [6]]),
    ("At the weekend or during the week days, when do I drowse more?", [[5, 6], [0, 1, 2, 3, 4]]),
])
def test_two_kinds_of_day_are_the_two_sides_of_a_comparison(question: str, days: list[list[int]]) -> None:
    from adamm.nodes.rules.plan_instantiate import weekday_sides
    sides = weekday_sides(question)
    assert sides is not None and [s[0][0]["value"] for s in sides] == days
    assert all(s[0][0]["column"] == "weekday" and s[0][0]["op"] == "in" for s in sides)


@pytest.mark.parametrize("question", ["How much brennet did I have on Monday?", "Which weekend was busiest?"])
def test_one_day_or_one_kind_of_day_is_no_comparison(question: str) -> None:
    from adamm.nodes.rules.plan_instantiate import weekday_sides
    assert weekday_sides(question) is None


@pytest.mark.parametrize("question, trend", [
    ("Has my drowse got longer or shorter between September and November?", True),
    ("Did my monthly Oskel hours grow or shrink from March to May?", True),
    ("Have my vashings become heavier or lighter since March?", True),
    ("Were my vashings longer in March or in April?", False),  # two sides, no change over time asked
])
def test_opposite_comparatives_side_by_side_ask_for_a_change_over_time(question: str, trend: bool) -> None:
    from adamm.nodes.rules.plan_intent import TREND
    assert bool(TREND.search(question)) is trend
