"""The offline extractor's pattern families, each on what it must find and what it must not.

Sentences are written here for the forms they exercise (not copied from a data set): a number
format, a label position, a date cue, a record boundary, a distractor.
"""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest

from adamm.nodes.rules.dates import find_dates
from adamm.nodes.rules.observe import extract_round
from adamm.nodes.rules.spans import find_spans, parse_number
from adamm.stores.quantities import convert
from adamm.stores.records import Round

REF = datetime(2024, 11, 20, 19, 0)  # a Wednesday


def rnd(user: str = "", *captions: str, rid: str = "r1") -> Round:
    return Round(round_id=rid, timestamp=REF, user_text=user,
                 images=[{"image_id": f"i{k}", "caption": c} for k, c in enumerate(captions)])  # type: ignore[misc]


def records(r: Round) -> list[dict]:
    out: dict[int, dict] = {}
    for d in extract_round(r):
        rec = out.setdefault(d.record, {"_day": d.observed_at})
        rec[d.attribute] = None if d.missing else (d.value_num if d.value_text is None else d.value_text)
    return [out[k] for k in sorted(out)]


# -- numbers -------------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, price, value", [
    ("1,250.50", False, 1250.5), ("1.250,50", False, 1250.5), ("61,40", False, 61.4), ("62,117", False, 62117),
    ("1,890", True, 1.89), ("58 117", False, 58117), ("-3.5", False, -3.5), ("0,5", False, 0.5),
])
def test_numbers_as_people_write_them(raw: str, price: bool, value: float) -> None:
    assert parse_number(raw, price=price) == pytest.approx(value)


@pytest.mark.parametrize("text, unit, value, raw", [
    ("weighed it on the balance: 9 lb 11 oz.", "lb", 9 + 11 / 16, "9 lb 11 oz"),
    ("5 ft 11 in", "ft", 5 + 11 / 12, "5 ft 11 in"),
    ("napped 1h 10 in the car", "h", 1 + 10 / 60, "1h 10"),
    ("Weight 2 kg 300 g", "kg", 2.3, "2 kg 300 g"),
    ("C 1pm 4½oz", "oz", 4.5, "4½oz"),
    ("3½ oz", "oz", 3.5, "3½ oz"),
])
def test_one_value_in_two_units_or_with_a_fraction(text: str, unit: str, value: float, raw: str) -> None:
    (sp,) = find_spans(text)
    assert (sp.unit, sp.num, sp.raw) == (unit, pytest.approx(value), raw)


@pytest.mark.parametrize("text, value", [("billable, 85 USD/h.", 85.0), ("billable at $95 an hour", 95.0),
                                         ("billed at $105/hr", 105.0), ("Rate $110/hr", 110.0)])
def test_a_rate_per_hour_is_money_per_duration_not_an_amount(text: str, value: float) -> None:
    (sp,) = find_spans(text)
    assert (sp.num, sp.unit, sp.dimension) == (value, "USD/h", "price:USD/duration")


def test_money_for_an_hour_stays_an_amount() -> None:
    assert [(sp.num, sp.unit) for sp in find_spans("paid $95 for an hour")] == [(95.0, "USD"), (1.0, "h")]


@pytest.mark.parametrize("text, values", [
    ("INV-2025-008 · Halvorsen Dental · $1,190.00", [1190.0]),
    ("room B-12 at 20 kg", [20.0]),
    ("ran 10-12 km", [10.0, 12.0]),
    ("it was -3.5", [-3.5]),
])
def test_digits_of_an_identifier_are_no_values(text: str, values: list[float]) -> None:
    assert [sp.num for sp in find_spans(text)] == values


@pytest.mark.parametrize("text, value", [("Six and a quarter hours of sleep", 6.25), ("seven and a half hours", 7.5),
                                         ("two and three quarters hours", 2.75)])
def test_a_number_and_a_part_in_words(text: str, value: float) -> None:
    (sp,) = find_spans(text)
    assert (sp.num, sp.unit) == (value, "h")


def test_two_weights_side_by_side_stay_two() -> None:
    assert [sp.num for sp in find_spans("2.5 kg, then 300 g")] == [2.5, 300]
    assert [sp.num for sp in find_spans("courgettes 2.5 kg 300 g beans")] == [2.5, 300]


# -- money, prices, durations, percent, pairs, ratings, missing -----------------------------------

@pytest.mark.parametrize("text, unit, value", [
    ("paid $12.40", "USD", 12.4), ("USD 12.40", "USD", 12.4), ("EUR 61.40", "EUR", 61.4), ("€61,40", "EUR", 61.4),
    ("61.40 €", "EUR", 61.4), ("total 1.234,50 €", "EUR", 1234.5), ("12 dollars", "USD", 12.0),
])
def test_money_forms(text: str, unit: str, value: float) -> None:
    (sp,) = find_spans(text)
    assert (sp.unit, sp.num) == (unit, pytest.approx(value))


@pytest.mark.parametrize("text, value", [("1,849 €/L", 1.849), ("1.765 EUR/L", 1.765), ("2,019 €/l", 2.019)])
def test_price_per_litre_reads_a_decimal_comma(text: str, value: float) -> None:
    (sp,) = find_spans(text)
    assert sp.unit == "EUR/L" and sp.num == pytest.approx(value)


@pytest.mark.parametrize("text, minutes", [
    ("8h22m", 502), ("6 hours 5 minutes", 365), ("1:13:32", 73 + 32 / 60), ("6 h 57 min", 417), ("95 minutes", 95),
    ("2 hours", 120),
])
def test_durations_in_the_largest_unit_written(text: str, minutes: float) -> None:
    (sp,) = find_spans(text)
    assert sp.dimension == "duration" and convert(sp.num, sp.unit, "min") == pytest.approx(minutes)
    assert sp.unit == ("h" if re.search(r"h|:\d\d:", text) else "min")


@pytest.mark.parametrize("text, unit, value", [
    ("pace 05:04 /km", "min/km", 5 + 4 / 60), ("avg pace 5:04 min/km", "min/km", 5 + 4 / 60),
    ("pace 8:40 per mile", "min/mi", 8 + 40 / 60), ("8:40/mi pace", "min/mi", 8 + 40 / 60),
])
def test_a_pace_is_one_value_per_distance_not_a_duration_or_a_clock_time(text: str, unit: str, value: float) -> None:
    masked = [(d.start, d.end) for d in find_dates(text, date(2026, 3, 2))]
    (sp,) = find_spans(text, masked)
    assert (sp.unit, sp.dimension) == (unit, "pace") and sp.label.endswith("pace") and sp.num == pytest.approx(value)
    # the same clock with no distance after it stays a clock time (masked) or a duration
    assert not any(s.dimension == "pace" for s in find_spans("at 05:04 we left", [(d.start, d.end) for d in find_dates("at 05:04 we left", None)]))


def test_percent_forms() -> None:
    assert [s.num for s in find_spans("score 72 % · efficiency 78 percent · 89% of the night")] == [72, 78, 89]
    assert all(s.unit == "%" for s in find_spans("72 % and 78 percent"))


def test_blood_pressure_pairs_and_not_other_fractions() -> None:
    assert [(s.role, s.num) for s in find_spans("reads 128/79 mmHg")] == [("first", 128), ("second", 79)]
    assert [(s.role, s.num) for s in find_spans("it showed 131 over 84")] == [("first", 131), ("second", 84)]
    assert not [s for s in find_spans("we met on 12/03 for 3/4 of an hour") if s.role in ("first", "second")]


@pytest.mark.parametrize("text, stars", [("★★★★☆", 4), ("I'd give it 3/5.", 3), ("2 out of 5, sadly", 2)])
def test_ratings(text: str, stars: float) -> None:
    (sp,) = [s for s in find_spans(text) if s.role == "rating"]
    assert sp.num == stars


@pytest.mark.parametrize("text", ["HR --", "heart rate n/a", "power —", "cadence unavailable", "glucose: no sensor data"])
def test_missing_values_are_fields_without_a_value(text: str) -> None:
    (sp,) = find_spans(text)
    assert sp.missing and sp.num is None and sp.label


def test_labels_before_and_after_a_value() -> None:
    spans = find_spans("31.2 km · 412 m of climbing · moving time 1 h 5 min · 140 W average power · cadence 88")
    assert [(s.label, s.num) for s in spans] == [("", 31.2), ("climbing", 412), ("moving time", pytest.approx(65 / 60)),
                                                  ("average power", 140), ("cadence", 88)]


@pytest.mark.parametrize("text, name, value", [
    ("Barely 5 hours of sleep.", "sleep", 5.0),  # not "barely"
    ("Managed about 6h of sleep.", "sleep", 6.0),  # not "managed"
    ("Re yesterday: 7h15 of sleep, not terrible.", "sleep", 7.25),  # a colon heading that only dates it
    ("Counted 4 pips of skep.", "skep", 4.0),  # a coined unit of a coined field
    ("Did 20 minutes of vorrin though.", "vorrin", 20.0),  # a function word after it is no part of it
])
def test_a_value_of_something_is_named_by_what_it_measures(text: str, name: str, value: float) -> None:
    assert [(d.attribute, d.value_num) for d in extract_round(rnd(text))] == [(name, value)]


def test_a_colon_label_stays_before_a_value_of_something() -> None:
    assert [d.attribute for d in extract_round(rnd("Brell: 7 qz of dust"))] == ["brell"]


def test_a_plain_number_needs_its_label_in_front_and_an_identifier_is_no_value() -> None:
    names = {d.attribute for d in extract_round(rnd("", "Export preview with 4 rows; pump 7; odometer 48,213"))}
    assert names == {"odometer"}


def test_categorical_fields() -> None:
    spans = find_spans("Amount: $18.20 · Category: Groceries · Paid with: Debit card · Merchant Corner Shop")
    assert [(s.label.lower(), s.text) for s in spans if s.text] == [
        ("category", "Groceries"), ("paid", "Debit card"), ("merchant", "Corner Shop")]
    # a money word titling a layout's line is no payee: the merchant is the line's name
    (rec,) = records(rnd("Expense: $87.42 | Vorlane Market | flinkery | cash"))
    assert (rec["amount"], rec["merchant"]) == (87.42, "Vorlane Market")
    # the grammar of paying names the instrument, however it is called
    for text, method in [("$104.24 on flinkery at Tesk, paid by cash.", "cash"), ("Spent $11.99. Paid with Zeno Pay.", "Zeno Pay"),
                         ("Lunch at Tesk, $12.40, paid using my Vorlak.", "Vorlak")]:
        (rec,) = records(rnd(text))
        assert rec["payment_method"] == method, (text, rec)


def test_game_results_scores_and_opponents() -> None:
    (rec,) = records(rnd("Lost 4-6 against Dana Ruiz in the club final."))
    assert (rec["result"], rec["score_for"], rec["score_against"], rec["opponent"]) == ("lost", 4, 6, "Dana Ruiz")
    # a possessive ends the side's name: what follows is theirs
    (rec,) = records(rnd("Just lost to Mirren Sy's Skarrow. 14 turns, -10 rank points."))
    assert (rec["result"], rec["opponent"]) == ("lost", "Mirren Sy")
    # the side a winning verb takes as its object
    (rec,) = records(rnd("Just beat Qaldo's Thornak. 12 turns, +14 rank points."))
    assert (rec["result"], rec["opponent"]) == ("won", "Qaldo")


# -- dates ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, day", [
    ("dated 2024-11-02", date(2024, 11, 2)), ("receipt 02.11.2024", date(2024, 11, 2)), ("(9 Nov)", date(2024, 11, 9)),
    ("for Tuesday, November 12", date(2024, 11, 12)), ("backfilling Nov 3", date(2024, 11, 3)),
    ("yesterday", date(2024, 11, 19)), ("on Monday", date(2024, 11, 18)), ("Sunday's session", date(2024, 11, 17)),
    ("3 days ago", date(2024, 11, 17)), ("this evening", date(2024, 11, 20)),
    ("ran on Tues", date(2024, 11, 19)), ("paid on the 4th", date(2024, 11, 4)), ("on the 24th", date(2024, 10, 24)),
    ("export 2024.11.02", date(2024, 11, 2)), ("on 13-11-2024", date(2024, 11, 13)),
    ("Tue, 12/11", date(2024, 11, 12)), ("Sat 09.11.", date(2024, 11, 9)),
    ("Tue 12th", date(2024, 11, 12)), ("Sun 17: 5 km", date(2024, 11, 17)),
    ("11/12/24", date(2024, 11, 12)), ("12/11/24", date(2024, 11, 12)),  # the reading after the round is no logged day
    # a short numeric day heading a line or row of a log: the reading in the last three months
    ("9/11 frell (top pen) x3 — 887g", date(2024, 11, 9)), ("W 14/11 hose 60L", date(2024, 11, 14)),
    ("11/14 Thu — brosk 3h45", date(2024, 11, 14)),
    # ... and anywhere in a line when a weekday after it fits one reading
    ("handwritten: '11/7 Thu — brosk 3h45'", date(2024, 11, 7)), ("then 7/11 Thu — Vrell 2.25h", date(2024, 11, 7)),
    # an abbreviated weekday heading a line, and chat's "yday"
    ("tue: 7.2k steps", date(2024, 11, 19)), ("Weds — no run", date(2024, 11, 13)), ("yday: 7,134 steps", date(2024, 11, 19)),
    # ... after a list's bullet too
    ("- Tue: frell, top pen, x1, 412 g", date(2024, 11, 19)), ("• Mon - 3 vrek", date(2024, 11, 18)),
    # ... or after a name, capitalised, before its values
    ("Vashti Mon: 15.4q, 2.6dv", date(2024, 11, 18)), ("Gannow Thu: 12.9q", date(2024, 11, 14)),
])
def test_day_cues(text: str, day: date) -> None:
    (hit,) = [d for d in find_dates(text, REF.date()) if d.kind != "clock"]
    assert hit.day == day


@pytest.mark.parametrize("text", ["mood 8/10", "Tue 4 km", "scored 11/8 Thu", "11/8 Mon — brosk", "Sun 9:30 walk", "Fri 13 · 3/4 done", "Slest: Thu 27, Fri 32",
                                  "4/5 stars", "rated it 3/4 today", "8/10 — a good one", "the tue: slot", "6.4 dv ; 69 vrek"])
def test_a_short_number_after_a_weekday_is_a_day_only_when_the_weekday_fits(text: str) -> None:
    assert [d.day for d in find_dates(text, REF.date()) if d.kind == "day"] == []


@pytest.mark.parametrize("text, minutes", [
    ("Distance 3.7 km · Time 18:47", 18 + 47 / 60),    # 18 hours would be 0.2 km/h: minutes and seconds
    ("TIME 44:50", 44 + 50 / 60),                       # no day has 44 hours
    ("ran 6.2 km in 32 minutes 9 seconds", 32.15), ("took 5 min 30 s", 5.5),
    ("Rode 42 km in 1:45", 105.0),                      # 24 km/h: hours and minutes
    ("sleep was 7:51", 471.0), ("Deep 1h05", 65.0), ("walked for half an hour", 30.0),
    ("an hour and a half on the trainer", 90.0), ("ran 10 km in an hour", 60.0),
])
def test_durations_in_every_written_form(text: str, minutes: float) -> None:
    (sp,) = [s for s in find_spans(text) if s.dimension == "duration"]
    assert convert(sp.num, sp.unit, "min") == pytest.approx(minutes)


def test_an_hour_from_now_is_no_duration() -> None:
    assert not [s for s in find_spans("see you in an hour ago") if s.dimension == "duration"]


@pytest.mark.parametrize("text, fields", [
    ("Sports watch display: DIST 6.2 KM | TIME 32:09 | HR 135 | CAL 421",   # a label that is also a unit ("HR")
     {"distance": 6.2, "duration": 32.15, "heart_rate": 135.0, "calories": 421.0}),
    ("Saturday run was 12.0 km in 1:08:30, heart rate averaged 149.",      # the day and the record are no field names
     {"distance": 12.0, "duration": 1 + 8 / 60 + 30 / 3600, "avg_heart_rate": 149.0}),
    ("Swam for 40 minutes.", {"duration": 40.0}),
])
def test_field_names_from_labels_units_and_record_nouns(text: str, fields: dict) -> None:
    got = {d.attribute: d.value_num for d in extract_round(rnd(text)) if d.value_num is not None}
    assert got == pytest.approx(fields)
    units = {d.attribute: d.unit for d in extract_round(rnd(text))}
    assert all(units[a] == "bpm" for a in got if "heart_rate" in a)  # "HR 135" is beats per minute


@pytest.mark.parametrize("text, fields", [
    ("Step count today: 14,312.", {"step_count": 14312.0}),           # a day cue between label and value
    ("Mood today 8/10.", {"mood": 8.0}),                               # a label that opens the sentence
    ("Drank 2.1 L of water today.", {"water": 2.1}),                   # what the amount is of names it
    ("Resting Heart Rate 58 · Sleep Score 81", {"resting_heart_rate": 58.0, "sleep_score": 81.0}),  # Title Case app labels
    ("Filled up with Super 95, 40 L.", {"volume": 40.0}),             # a fuel grade's number is its name
])
def test_labels_around_day_cues_sentence_starts_and_title_case(text: str, fields: dict) -> None:
    got = {d.attribute: d.value_num for d in extract_round(rnd(text)) if d.value_num is not None}
    assert got == pytest.approx(fields)


@pytest.mark.parametrize("text, fields", [
    ("Energy app card: Yesterday 12.3 kWh · Cost €3.81 · Outside -5°C", {"energy": 12.3, "amount": 3.81, "temperature": -5.0}),
    ("Daily usage 9.8kWh | €3.04 | avg temp 4°C", {"energy": 9.8, "amount": 3.04, "temperature": 4.0}),
    ("Ate about 670 kcal today.", {"calories": 670.0}),                   # food energy stays calories
])
def test_what_a_meter_reads_is_named_by_its_unit(text: str, fields: dict) -> None:
    got = {d.attribute: d.value_num for d in extract_round(rnd(text)) if d.value_num is not None}
    assert got == pytest.approx(fields)


def test_a_receipt_time_stays_a_clock() -> None:
    assert [d.kind for d in find_dates("Receipt 12.40 EUR, Time 18:47", REF.date())] == ["clock"]
    assert [d.kind for d in find_dates("Distance 3.7 km · Time 18:47", REF.date())] == []


def test_clock_times_are_neither_days_nor_values() -> None:
    text = "reading at 7:45 PM, cuff on, 124/80"
    assert [d.kind for d in find_dates(text, REF.date())] == ["clock"]
    assert not [s for s in extract_round(rnd(text)) if s.value_num in (7, 45)]


# -- records -------------------------------------------------------------------------------------

def test_an_export_of_several_days_gives_one_record_per_row() -> None:
    recs = records(rnd("Catching up with the app export.",
                       "Export with 3 rows: '2024-11-14 | 122/78 mmHg | pulse 61'; '2024-11-15 | 131/85 mmHg | pulse --'; "
                       "'2024-11-16 | 127/80 mmHg | pulse 66'."))
    assert [(r["_day"], r["systolic"], r["diastolic"], r["heart_rate"]) for r in recs] == [
        (date(2024, 11, 14), 122, 78, 61), (date(2024, 11, 15), 131, 85, None), (date(2024, 11, 16), 127, 80, 66)]


def test_two_kinds_of_record_in_one_message_stay_apart() -> None:
    recs = records(rnd("Started a 320-page thriller on Friday. Read 41 pages of it that evening in 50 minutes."))
    assert len(recs) == 2 and recs[1]["pages"] == 41 and recs[1]["duration"] == 50


def test_the_user_text_dates_a_screenshot_and_its_fields_join_one_record() -> None:
    (rec,) = records(rnd("From Sunday's swim.", "Swim summary: 1,850 m · 42 min · 310 kcal"))
    assert rec["_day"] == date(2024, 11, 17) and rec["duration"] == 42 and rec["calories"] == 310


def test_a_round_with_no_cue_has_no_observed_day() -> None:
    (rec,) = records(rnd("Weighed in: 81.4 kg."))
    assert rec["_day"] is None and rec["weight"] == 81.4


# -- distractors ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "My sister ran 12 km on Saturday and keeps bragging.",
    "She says her commute takes 95 minutes each way.",
    "Should I aim for 10,000 steps a day?",
    "If I sleep 8 hours tonight I'll be fine.",
    "My doctor wants me under 130/80 from now on.",
    "The plan is at least 30 minutes of walking every day.",
    "I have 200 g of flour left.",
    "Next service is due at 90,000 km.",
    "We're hosting dinner, 4 of us.",
    "My daily step goal is 10,000, wish me luck.",
    "Last year I managed 11.2 kg of vrell and Bernard did 14.",
])
def test_someone_elses_numbers_plans_and_targets_are_not_observations(text: str) -> None:
    assert extract_round(rnd(text)) == []


def test_a_third_person_is_whom_the_log_is_about_unless_someone_else_was_just_named() -> None:
    # a pet, a baby: "she", "he" are the log's subject
    got = {d.attribute: d.value_num for d in extract_round(rnd(
        "Vashti on Wednesday: she was brask, threnn 13.0 qelts. Counted 4 pips of skep. Roughly 19 min."))}
    assert got.get("threnn") == 13.0 and got.get("skep") == 4.0 and got.get("duration") == 19.0
    assert [d.value_num for d in extract_round(rnd("He napped in the pram for 40 minutes."))] == [40.0]
    # ... but a pronoun after someone else's sentence continues it, and what they say is theirs
    got = [d.value_num for d in extract_round(rnd("My brother tried my monitor: 152 over 96. He got 148/92 the "
                                                    "second time. Mine was 121/80."))]
    assert got == [121.0, 80.0]
    assert extract_round(rnd("Openers of 9.5 are for meet day only, she says.")) == []


def test_the_assistant_restating_a_value_adds_nothing() -> None:
    r = Round(round_id="a", timestamp=REF, user_text="Rowed 5.2 km this morning.",
              assistant_text="Nice, 5.2 km and probably about 400 kcal!")
    assert [(d.attribute, d.value_num or d.value_text) for d in extract_round(r)] == [("distance", 5.2), ("time_of_day", "morning")]


def test_text_metadata_is_context_and_numeric_metadata_is_a_value() -> None:
    r = Round(round_id="m", timestamp=REF, user_text="hello there", metadata={"speaker": "Caroline", "steps": 8123})
    assert [(d.attribute, d.value_num) for d in extract_round(r)] == [("steps", 8123.0)]


@pytest.mark.parametrize(("word", "unit"), [
    ("qz", "qz"), ("trabs", "trab"), ("QZ", "qz"), ("plim", "plim"),
    ("avg", None), ("max", None), ("total", None), ("today", None), ("times", None), ("Ashvel", None),
    ("slowly", None), ("skating", None), ("more", None),
])
def test_a_word_after_a_number_is_the_memorys_own_unit_unless_grammar_says_otherwise(word: str, unit: str | None) -> None:
    from adamm.nodes.rules.spans import coined_unit  # noqa: PLC0415 - the function under test

    assert coined_unit(word) == unit


def test_coined_units_name_fields_and_a_qualifier_after_a_value_is_no_unit() -> None:
    got = {(d.attribute, d.value_num, d.unit) for d in extract_round(rnd("Vrell was 14 qz today, 3 trabs of skorn."))}
    assert ("vrell", 14.0, "qz") in got  # labelled: the word after the value is its unit
    assert ("skorn", 3.0, "trab") in got  # "3 trabs of skorn", as "2.1 L of water": skorn, counted in trabs
    got = {(d.attribute, d.value_num, d.unit) for d in extract_round(rnd("Vrell was 14 qz today and 3 trabs."))}
    assert ("trab", 3.0, None) in got  # unlabelled: a count of trabs, the field "Trabs: 3" would name


def test_a_label_after_a_value_that_opens_its_cell_names_it_and_a_colon_heading_does_not() -> None:
    text = "Monday's glimmer: $56.41 tralliss · 427 brox glevsu score · 15.5 kg dron · 5.7 ds kronk"
    got = {(d.attribute, d.value_num, d.unit) for d in extract_round(rnd(text))}
    assert {("glevsu_score", 427.0, "brox"), ("dron", 15.5, "kg"), ("kronk", 5.7, "ds")} <= got
    assert not any(a == "glimmer" for a, _, _ in got)  # the heading names the record, not its first value
    got = {(d.attribute, d.value_num, d.unit) for d in extract_round(rnd("Had a 52-minute walk today"))}
    assert got == {("duration", 52.0, "min")}  # in prose the word after a value is what was done, no field
    assert {d.unit for d in extract_round(rnd("Skorn 145 avg, brell 12 max"))} <= {None}


def test_a_value_followed_by_its_label_in_a_list_of_cells_is_a_field() -> None:
    """"85.7 qv Shask vrend, 32.40 USD Stetvy, 17 Farr": the bare 17 fills a cell written like
    its neighbours (value, unit, label), so "Farr" is its label - not a name, not a noun counted."""
    rnd = Round(round_id="r1", user_text="Card for 1 Feb: 85.7 qv Shask vrend, 32.40 USD Stetvy, 17 Farr, 1 h 23 min Ruvy, Venzor Glutrim.",
                timestamp=datetime(2025, 2, 5))
    got = {d.attribute: d.value_num for d in extract_round(rnd) if d.value_num is not None}
    assert got.get("farr") == 17.0 and got.get("shask_vrend") == 85.7
    prose = Round(round_id="r2", user_text="Walked to the lake with 3 Friends, 4.2 km in 50 min.", timestamp=datetime(2025, 2, 5))
    assert "friends" not in {d.attribute for d in extract_round(prose)}


@pytest.mark.parametrize("text, attribute, value, unit", [
    ("Steps 12.4k · Sleep 7h 2m", "steps", 12400.0, "steps"),
    ("Walked 8.1k steps today", "steps", 8100.0, "steps"),
    ("Brosk 3.5k · Vrell 14 qz", "brosk", 3500.0, None),
])
def test_thousands_shortened_with_k_are_numbers(text: str, attribute: str, value: float, unit: str | None) -> None:
    got = {d.attribute: (d.value_num, d.unit) for d in extract_round(Round(round_id="r", user_text=text, timestamp=datetime(2025, 3, 4)))}
    assert got[attribute] == (value, unit)


def test_a_function_word_after_a_number_is_no_unit() -> None:
    """"Match 12 vs Kaito": "vs" says who played, it measures nothing."""
    got = {d.attribute: d.unit for d in extract_round(Round(round_id="r", user_text="Match 12 vs Kaito, 9 turns.", timestamp=datetime(2025, 3, 4)))}
    assert got.get("match", "absent") in (None, "absent") and "vs" not in got.values()


def test_undated_screenshots_take_the_days_the_words_name_in_order() -> None:
    """"Monday and Tuesday:" over two undated cards: the first card is Monday's, the second Tuesday's."""
    from adamm.stores.records import ImageRef

    rnd = Round(round_id="r", user_text="Monday and Tuesday:", timestamp=datetime(2025, 3, 6, 9),
                images=[ImageRef(image_id="a", caption="Vrell 14 qz · Drom 31 min"), ImageRef(image_id="b", caption="Vrell 12 qz · Drom 35 min")])
    days = {(d.record, d.attribute): str(d.observed_at)[:10] for d in extract_round(rnd)}
    assert days[(0, "vrell")] == "2025-03-03" and days[(1, "vrell")] == "2025-03-04"


@pytest.mark.parametrize("text, attribute, value, unit", [
    ("Slept seven and a half hours last night.", "sleep", 7.5, "h"),
    ("Slept 6 and a half hours.", "sleep", 6.5, "h"),
    ("Ran five km before work.", "distance", 5.0, "km"),
])
def test_numbers_written_as_words(text: str, attribute: str, value: float, unit: str) -> None:
    got = {d.attribute: (d.value_num, d.unit) for d in extract_round(Round(round_id="r", user_text=text, timestamp=datetime(2025, 3, 4)))}
    assert got[attribute] == (value, unit)


def test_one_line_holding_several_records_is_split_where_its_fields_repeat() -> None:
    """"Mar 3 Vrell 14 qz, Drom 30 min; Mar 4 Vrell 12 qz, ...": the layout repeats, so each
    repetition is a record of its own, dated by the day written in front of it."""
    text = "Week: Mar 3 Vrell 14 qz, Drom 30 min; Mar 4 Vrell 12 qz, Drom 35 min; Mar 5 Vrell 11 qz, Drom 31 min"
    got = [(d.record, d.attribute, d.value_num, str(d.observed_at)) for d in
           extract_round(Round(round_id="r", user_text=text, timestamp=datetime(2025, 3, 6, 9)))]
    assert got == [(0, "vrell", 14.0, "2025-03-03"), (0, "drom", 30.0, "2025-03-03"), (1, "vrell", 12.0, "2025-03-04"),
                   (1, "drom", 35.0, "2025-03-04"), (2, "vrell", 11.0, "2025-03-05"), (2, "drom", 31.0, "2025-03-05")]
    one = extract_round(Round(round_id="r", user_text="Ride 42 km, climbed 400 m, HR 140", timestamp=datetime(2025, 3, 6)))
    assert {d.record for d in one} == {0}


def test_one_field_said_twice_in_prose_is_no_second_record() -> None:
    """"from x=1 to 8 ... and a blue line from x=1": a field repeated alone is no repeating layout."""
    text = "Line chart: a red line from x=1 to 8 with a peak near x=3, and a blue dashed line from x=1 to 8."
    assert {d.record for d in extract_round(Round(round_id="r", user_text=text, timestamp=datetime(2025, 3, 6)))} <= {0}


@pytest.mark.parametrize("text, fields", [
    ("Vrell: 1,244 (−8)", {"vrell": 1244.0, "vrell_change": -8.0}),                 # a change in parentheses
    ("Plonk ladder +14, now 1,257.", {"plonk_ladder": 1257.0, "plonk_ladder_change": 14.0}),  # the change, then where it led
    ("Gask 71.2 qz (+0.4 qz) · Tirn 12", {"gask": 71.2, "gask_change": 0.4, "tirn": 12.0}),
    ("Outside -5°C · Brosk 31", {"temperature": -5.0, "brosk": 31.0}),               # a sign alone is no change
    ("Turns 11 · Plonk +14", {"turns": 11.0, "plonk_change": 14.0}),                 # a plus written out on a labelled number
    ("Brine vs Skarrow (Tollin): lost, 10 turns, -11", {"turn": 10.0, "change": -11.0}),  # a sign on a number no label names
    ("Vrell 81.4 qz -0.6 today", {"vrell": 81.4, "change": -0.6}),
    ("Brosk -3 to +4 today", {"brosk": -3.0}),                                        # a range's end is no change
])
def test_a_signed_change_is_named_after_the_value_it_changed(text: str, fields: dict) -> None:
    got = {d.attribute: d.value_num for d in extract_round(rnd(text)) if d.value_num is not None}
    assert got == pytest.approx(fields)


def test_a_labels_count_in_words_is_a_number_like_its_digits() -> None:
    """"Brask situation: three vrells" is the count "3 vrells" is, under the label; a phrase
    that only opens with a number word ("one of those days") stays the label's text."""
    def got(text: str) -> dict:
        return {d.attribute: (d.value_num, d.value_text) for d in extract_round(rnd(text))}

    assert got("Brask situation: three vrells. Mood: ok.") == {"brask_situation": (3.0, None), "mood": (None, "ok")}
    assert got("Brask situation: 3 vrells. Mood: ok.")["brask_situation"] == (3.0, None)
    assert got("Mood: one of those days.") == {"mood": (None, "one of those days")}


def test_a_paying_verb_makes_a_plain_number_money_and_a_total_leaves_out_the_line_items() -> None:
    got = {d.attribute: d.value_num for d in extract_round(rnd("Spent 23.10 at Vrosk on snarls.")) if d.value_num is not None}
    assert got == {"amount": pytest.approx(23.10)}
    got = {d.attribute: d.value_num for d in extract_round(rnd("Receipt from Vrosk: plim 3.49, tarr 2.99 — TOTAL $6.48"))
           if d.value_num is not None}
    assert got == {"amount": pytest.approx(6.48)}
    assert {d.attribute for d in extract_round(rnd("Spent 3 hours on the vrell."))} == {"duration"}


def test_a_value_of_one_part_of_a_line_stays_with_that_parts_record() -> None:
    drafts = extract_round(rnd("Paid $4.50 for 30 min at Grask, then $12.80 for 25 min at Tillon."))
    by_record = {(d.record, d.attribute): d.value_text or d.value_num for d in drafts}
    assert by_record[(0, "merchant")] == "Grask" and by_record[(1, "merchant")] == "Tillon"


@pytest.mark.parametrize("text, fields", [
    # a card's title over tiles is no label of the first tile; a bare m:ss tile beside a distance is the time taken
    ("Plorn summary: 5.01 km · 21:44 · 5:20 /km", {"distance": 5.01, "duration": 21 + 44 / 60, "pace": 5 + 20 / 60}),
    ("Ride 42 km · 1:45 · 24 km/h", {"distance": 42.0, "duration": 1.75, "speed": 24.0}),
    # ... and so is one between dashes, or right after the distance
    ("Vennick — 4.0 km — 23:02", {"distance": 4.0, "duration": 23 + 2 / 60}),
    ("Plorn 4.2km 22:58", {"plorn": 4.2, "duration": 22 + 58 / 60}),
    # "in" before a length of time: the time taken, whatever the parenthesised word before it
    ("Logged 5.1 km (Drag) in 31:12.", {"distance": 5.1, "duration": 31.2}),
    # a value opening a parenthesis after the clause's own value is an aside on that record
    ("Did 8.5 km along the canal path (1:16:43).", {"distance": 8.5, "duration": 1 + 16 / 60 + 43 / 3600}),
])
def test_a_card_title_and_a_bare_time_tile(text: str, fields: dict) -> None:
    drafts = extract_round(rnd(text))
    got = {d.attribute: d.value_num for d in drafts if d.value_num is not None}
    assert got == pytest.approx(fields)
    assert not [d for d in drafts if d.attribute == "time_of_day"]


def test_a_signed_coined_unit_is_a_change_and_a_side_stops_before_a_label() -> None:
    got = {d.attribute: d.value_num if d.value_num is not None else d.value_text
           for d in extract_round(rnd("Loss vs Glass Wolves Turns 9 · -11 rank"))}
    assert got["result"] == "lost" and got["opponent"] == "Glass Wolves" and got["turns"] == 9.0 and got["rank_change"] == -11.0
    assert "rank" not in got


# -- entries of a list ---------------------------------------------------------------------------

def test_timed_rows_of_a_timeline_are_records_of_their_own() -> None:
    """Each row that opens with a clock time is an entry, whatever fields it has: a feed of 21
    minutes and a bottle of 100 ml two hours later are two records, not one with both."""
    got = records(rnd("", "Timeline for Tue: '07:05 Grell · Right · 21 min'; '10:40 Pomm · Wet'; "
                          "'13:15 Vask · 100 ml · Dorrin'"))
    with_values = [r for r in got if any(isinstance(v, float) for v in r.values())]
    assert len(with_values) == 2
    assert [sorted(k for k, v in r.items() if isinstance(v, float)) for r in with_values] == [["duration"], ["volume"]]


def test_lines_of_one_dashboard_stay_one_record() -> None:
    """Lines without a clock or bullet of their own are one record told over several lines."""
    got = records(rnd("", "Brell card\nSkarn 14 qz · Vell 31 tib\nDorr 7.5 h · Nim 62 bpm"))
    assert len(got) == 1 and {"skarn", "vell", "dorr", "nim"} <= set(got[0])


def test_bulleted_entries_with_cells_are_records() -> None:
    got = records(rnd("Picked so far:\n- frell, top pen, 412 g\n- mossel, low pen, 28 pods"))
    assert len([r for r in got if any(isinstance(v, float) for v in r.values())]) == 2


def test_quoted_rows_listed_with_slashes_are_rows_of_their_own_day() -> None:
    got = records(rnd("", "Photo of a notebook page. Lines: 'Mon 18 Nov frell 3 pods — 887 g' / 'Tue 19 Nov mossel — 42 min'."))
    days = {r["_day"]: r for r in got if any(isinstance(v, float) for v in r.values())}
    assert days[date(2024, 11, 18)].get("weight") == 887.0 and days[date(2024, 11, 19)].get("duration") == 42.0


def test_quoted_names_in_a_sentence_are_no_rows() -> None:
    """Quoted names and identifiers ("to 'Orvel Books', subject 'Bill BL-2025-009'") are no
    rows of a log: the total and its term stay one record."""
    got = records(rnd("", "Mail sent to 'Orvel Books', subject 'Bill BL-2025-009', total USD 2,000.00, payable within 45 days."))
    assert len([r for r in got if "amount" in r]) == 1
    assert any("amount" in r and "payable_within" in r for r in got)


@pytest.mark.parametrize(("text", "lengths"), [
    # when an entry happened: where an entry opens, or after a heading with a length of its own
    ("3:05. right.", []),
    ("overnight: 1:30 right 10 min. typed this at 1:38 sorry", [10.0]),
    ("TUES 15/4\n1:10 5oz ✓ — nap zell 50m", [50.0]),
    ("Tue Mar 11 | Vorrin › Skell | 3:15 | billable", [3.25]),  # a table's cell: the column says what
    ("Timeline entries: 07:05 Vrask · Left · 21 min", [21.0]),
    # how long: a label before it, a length word after it, a distance beside it, or over 24
    ("Sleep 7:30", [7.5]),
    ("Sleep: 7:30", [7.5]),
    ("took 1:45", [1.75]),
    ("Gorrin: 1:45 moving, 42 km", [1.75]),
    ("Watch says: 7:05 asleep", [pytest.approx(7.083, abs=1e-3)]),
    ("44:50 for the loop", [pytest.approx(44.833, abs=1e-3)]),
    # a length before "ago" / "later" / "earlier" is an offset in time, no value of the record
    ("Last zell: Left side, 3h 12m ago", []),
    ("woke 2 hours later, then 40 min more", [40.0]),
    ("Sat 45 min with her; 10 minutes earlier I fed", [45.0]),
])
def test_a_bare_clock_time_or_an_offset_is_when_not_how_long(text: str, lengths: list) -> None:
    assert [s.num for s in find_spans(text) if s.dimension == "duration"] == lengths


def test_a_period_old_is_an_age_not_a_length_of_something_done() -> None:
    # "7 weeks old" named the field ``duration``, the dimension's name every unlabelled length
    # of time defaults to; the nap minutes that followed were then read into it, in weeks
    assert [(d.attribute, d.value_num, d.unit) for d in extract_round(rnd("Context: she's 7 weeks old, born in January."))] \
        == [("age", 7.0, "wk")]
    assert [d.attribute for d in extract_round(rnd("Napped in the vrask for 40 minutes."))] != ["age"]
