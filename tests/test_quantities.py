"""Values and units: parsing every supported format, spans in free text, conversion, names."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adamm.stores.quantities import (
    Quantity,
    canonical_unit,
    convert,
    converted,
    converted_span,
    dimension_of,
    find_quantities,
    parse_quantity,
    snake_case,
)

NAME = re.compile(r"^[a-z][a-z0-9_]{0,47}$")


@pytest.mark.parametrize(
    ("text", "value", "unit", "dimension"),
    [
        # durations: one number in the largest unit present
        ("6 h 45 min", 6.75, "h", "duration"),
        ("6h45m", 6.75, "h", "duration"),
        ("6h45", 6.75, "h", "duration"),
        ("1h 10m", 7 / 6, "h", "duration"),
        ("1 hour and 10 minutes", 7 / 6, "h", "duration"),
        ("2 hrs 30 mins 30 secs", 2 + 30 / 60 + 30 / 3600, "h", "duration"),
        ("45 min 30 s", 45.5, "min", "duration"),
        ("1:05:30", 1 + 5 / 60 + 30 / 3600, "h", "duration"),
        ("7:05", 7 + 5 / 60, "h", "duration"),
        ("28:30 min", 28.5, "min", "duration"),
        ("7:05 h", 7 + 5 / 60, "h", "duration"),
        ("90 s", 90.0, "s", "duration"),
        ("320 ms", 320.0, "ms", "duration"),
        ("3 days", 3.0, "d", "duration"),
        ("seven hours", 7.0, "h", "duration"),
        # percentages
        ("82 %", 82.0, "%", "percent"),
        ("82%", 82.0, "%", "percent"),
        ("12.5 percent", 12.5, "%", "percent"),
        # money
        ("$12.40", 12.40, "USD", "currency:USD"),
        ("USD 12.40", 12.40, "USD", "currency:USD"),
        ("12.4 dollars", 12.4, "USD", "currency:USD"),
        ("12.4 US dollars", 12.4, "USD", "currency:USD"),
        ("€8", 8.0, "EUR", "currency:EUR"),
        ("8€", 8.0, "EUR", "currency:EUR"),
        ("8 euros", 8.0, "EUR", "currency:EUR"),
        ("£3.50", 3.5, "GBP", "currency:GBP"),
        ("¥1200", 1200.0, "JPY", "currency:JPY"),
        ("RMB 88", 88.0, "CNY", "currency:CNY"),
        ("100 yuan", 100.0, "CNY", "currency:CNY"),
        ("$2.6B", 2.6e9, "USD", "currency:USD"),
        ("-$5", -5.0, "USD", "currency:USD"),
        # plain numbers
        ("1,250.50", 1250.5, None, None),
        ("12k", 12000.0, None, None),
        ("1.5M", 1.5e6, None, None),
        ("-3.5", -3.5, None, None),
        ("+2", 2.0, None, None),
        ("−4", -4.0, None, None),
        (".5", 0.5, None, None),
        ("2.5 million", 2.5e6, None, None),
        # distance, mass, rate, energy, counts, temperature, concentration
        ("5.2 km", 5.2, "km", "distance"),
        ("3 mi", 3.0, "mi", "distance"),
        ("400 m", 400.0, "m", "distance"),
        ("6 ft", 6.0, "ft", "distance"),
        ("72.4 kg", 72.4, "kg", "mass"),
        ("160 lbs", 160.0, "lb", "mass"),
        ("148 bpm", 148.0, "bpm", "rate"),
        ("54bpm", 54.0, "bpm", "rate"),
        ("54 beats per minute", 54.0, "bpm", "rate"),
        ("2,134 kcal", 2134.0, "kcal", "energy"),
        ("500 calories", 500.0, "kcal", "energy"),
        ("10,523 steps", 10523.0, "steps", "count"),
        ("180 °C", 180.0, "°C", "temperature"),
        ("98.6°F", 98.6, "°F", "temperature"),
        ("128 mg/dL", 128.0, "mg/dL", "concentration"),
        ("7.1 mmol/L", 7.1, "mmol/L", "molar_concentration"),
        ("3750 mAh", 3750.0, "mAh", "charge"),
        ("25 square meters", 25.0, "m2", "area"),
        ("2 L", 2.0, "L", "volume"),
        ("5:42 /km", 5.7, "min/km", "pace"),
        ("5:42 min/km", 5.7, "min/km", "pace"),  # "min/km" holds the letters "mi" too
        ("8:40 per mile", 8 + 40 / 60, "min/mi", "pace"),
        ("12 km/h", 12.0, "km/h", "speed"),
    ],
)
def test_parse_quantity_formats(text: str, value: float, unit: str | None, dimension: str | None) -> None:
    q = parse_quantity(text)
    assert q is not None, text
    assert q.value == pytest.approx(value)
    assert q.unit == unit
    assert q.dimension == dimension
    assert q.raw == text


def test_clock_as_reads_two_part_clocks_as_minutes_seconds() -> None:
    assert parse_quantity("28:30").unit == "h"
    q = parse_quantity("28:30", clock_as="ms")
    assert (q.value, q.unit) == (pytest.approx(28.5), "min")
    # three parts are always h:m:s
    assert parse_quantity("1:05:30", clock_as="ms").value == pytest.approx(1 + 5 / 60 + 30 / 3600)
    with pytest.raises(ValueError):
        find_quantities("7:05", clock_as="sm")


@pytest.mark.parametrize(
    "text",
    ["", "   ", "abc", "sleep", "7:30 pm", "7 am", "2025-03-04", "3/4/2025", "3D", "4th", "R15",
     "1990s", "v3.10.2", "6 h 45 min and 5 km", "COVID-19"],
)
def test_parse_quantity_rejects_non_values(text: str) -> None:
    assert parse_quantity(text) is None


def test_parse_quantity_strips_quotes_and_space_but_keeps_raw() -> None:
    q = parse_quantity('  “3750 mAh” ')
    assert q == Quantity(3750.0, "mAh", "charge", "3750 mAh")
    assert parse_quantity(None) is None  # type: ignore[arg-type]


def test_find_quantities_spans_point_at_the_values() -> None:
    text = ("Total sleep 6h 45m · Deep 1h 10m · Resting HR 54 bpm · Score 82, "
            "spent $12.40 and walked 10,523 steps (82%) at 7:30 pm on 2025-03-04, v1.2.3 R15")
    found = find_quantities(text)
    for start, end, q in found:
        assert text[start:end] == q.raw
    raws = [q.raw for _, _, q in found]
    assert raws == ["6h 45m", "1h 10m", "54 bpm", "82", "$12.40", "10,523 steps", "82%"]
    values = [(q.value, q.unit) for _, _, q in found]
    assert values[0] == (pytest.approx(6.75), "h")
    assert values[4] == (pytest.approx(12.4), "USD")


def test_find_quantities_keeps_hyphenated_unit_words_in_raw() -> None:
    [(s, e, q)] = find_quantities("a 30-minute walk")
    assert (q.value, q.unit, q.raw) == (30.0, "min", "30-minute")


def test_a_value_never_spans_lines() -> None:
    assert [q.raw for _, _, q in find_quantities("Sleep score 82\nsteps 8,000")] == ["82", "8,000"]
    assert parse_quantity("54\nbpm") is None


def test_find_quantities_on_ranges_and_glued_text() -> None:
    found = find_quantities("bake 15-20 minutes; 3D printing; the 4th lap; COVID-19")
    assert [q.raw for _, _, q in found] == ["15", "20 minutes"]


@pytest.mark.parametrize(
    ("value", "src", "dst", "expected"),
    [
        (1.5, "h", "min", 90.0),
        (90, "min", "h", 1.5),
        (2, "min", "s", 120.0),
        (1, "h", "s", 3600.0),
        (500, "ms", "s", 0.5),
        (1, "d", "h", 24.0),
        (10, "km", "mi", 6.2137119),
        (1, "mi", "m", 1609.344),
        (1500, "m", "km", 1.5),
        (1, "km", "m", 1000.0),
        (100, "kg", "lb", 220.4622622),
        (220.4622622, "lb", "kg", 100.0),
        (1000, "g", "kg", 1.0),
        (100, "°C", "°F", 212.0),
        (0, "°C", "°F", 32.0),
        (-40, "°F", "°C", -40.0),
        (98.6, "°F", "°C", 37.0),
        (0, "°C", "K", 273.15),
        (1, "kWh", "kcal", 860.4206501),
        (10, "km/h", "m/s", 2.7777778),
        (1, "m2", "ft2", 10.7639104),
        (12.4, "USD", "USD", 12.4),
        (3, "hours", "minutes", 180.0),  # spellings are accepted too
    ],
)
def test_convert_table(value: float, src: str, dst: str, expected: float) -> None:
    assert convert(value, src, dst) == pytest.approx(expected, rel=1e-7)


@pytest.mark.parametrize(("src", "dst"), [("h", "km"), ("kg", "%"), ("USD", "EUR"), ("steps", "pages"),
                                          ("mg/dL", "mmol/L"), ("bpm", "kcal")])
def test_convert_across_dimensions_raises(src: str, dst: str) -> None:
    with pytest.raises(ValueError):
        convert(1.0, src, dst)


def test_converted_keeps_a_value_it_cannot_convert() -> None:
    # a value merged into a field of another unit: converted where the units are one dimension,
    # as it was where a unit is missing, the same or of another kind
    assert converted(5.0, "km", "mi") == pytest.approx(3.10686, rel=1e-5)
    assert converted(5.0, None, "mi") == 5.0 and converted(5.0, "km", None) == 5.0 and converted(5.0, "km", "km") == 5.0
    assert converted(5.0, "km", "h") == 5.0 and converted(5.0, "furlong", "m") == 5.0
    assert converted_span((60.0, 90.0), "min", "h") == pytest.approx((1.0, 1.5)) and converted_span(None, "min", "h") is None
    assert converted_span((1.0, 2.0), "kg", "h") == (1.0, 2.0)


def test_convert_unknown_unit_raises() -> None:
    with pytest.raises(ValueError, match="unknown unit"):
        convert(1.0, "furlong", "m")


@pytest.mark.parametrize(
    ("text", "unit"),
    [("hours", "h"), ("hrs", "h"), ("h", "h"), ("minutes", "min"), ("mins", "min"), ("km", "km"),
     ("kilometers", "km"), ("kilometres", "km"), ("dollars", "USD"), ("$", "USD"), ("usd", "USD"),
     ("beats per minute", "bpm"), ("BPM", "bpm"), ("lbs", "lb"), ("pounds", "lb"), ("£", "GBP"),
     ("Celsius", "°C"), ("°F", "°F"), ("mg/dl", "mg/dL"), ("percent", "%"), ("calories", "kcal"),
     ("steps", "steps"), ("m", "m"), ("furlongs", None), ("", None)],
)
def test_canonical_unit(text: str, unit: str | None) -> None:
    assert canonical_unit(text) == unit


def test_canonical_unit_m_in_a_duration_is_minutes() -> None:
    assert canonical_unit("m") == "m"
    assert canonical_unit("m", in_duration=True) == "min"


def test_dimension_of() -> None:
    assert dimension_of("h") == "duration"
    assert dimension_of("minutes") == "duration"
    assert dimension_of("EUR") == "currency:EUR"
    assert dimension_of("steps") == "count"
    assert dimension_of(None) is None
    assert dimension_of("furlong") is None


@pytest.mark.parametrize(
    ("name", "snake"),
    [
        ("Resting HR", "resting_hr"),
        ("Total sleep (h)", "total_sleep"),
        ("Time-in-range", "time_in_range"),
        ("time in range", "time_in_range"),
        ("  Avg. Glucose  ", "avg_glucose"),
        ("deepSleep", "deep_sleep"),
        ("HRV", "hrv"),
        ("Café crème", "cafe_creme"),
        ("Battery %", "battery_pct"),
        ("5k time", "n_5k_time"),
        ("R&D budget", "r_and_d_budget"),
        ("电池损耗", ""),
        ("", ""),
        ("___", ""),
        ("(h)", ""),
    ],
)
def test_snake_case(name: str, snake: str) -> None:
    assert snake_case(name) == snake


def test_snake_case_caps_length_at_a_word_boundary() -> None:
    long = "a very long attribute name that goes on and on and on forever"
    s = snake_case(long)
    assert NAME.match(s) and len(s) <= 48
    assert long.replace(" ", "_").startswith(s)
    assert not s.endswith("_")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_find_quantities_never_raises_and_spans_are_exact(text: str) -> None:
    for start, end, q in find_quantities(text):
        assert text[start:end] == q.raw
        assert math.isfinite(q.value)
        assert q.dimension == dimension_of(q.unit)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_snake_case_is_always_a_valid_name_or_empty(text: str) -> None:
    s = snake_case(text)
    assert s == "" or NAME.match(s)


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=0, max_value=1e6, allow_nan=False), st.sampled_from(["h", "min", "s", "km", "mi", "kg", "lb", "°C", "°F"]))
def test_convert_round_trips(value: float, unit: str) -> None:
    other = {"h": "s", "min": "h", "s": "min", "km": "mi", "mi": "m", "kg": "lb", "lb": "g",
             "°C": "°F", "°F": "K"}[unit]
    assert convert(convert(value, unit, other), other, unit) == pytest.approx(value, rel=1e-9, abs=1e-6)


@pytest.mark.parametrize(("text", "value", "unit", "raw"), [
    ("9 lb 11 oz", 9 + 11 / 16, "lb", "9 lb 11 oz"),
    ("weighed 1 lb 8.8 oz on the balance", 1 + 8.8 / 16, "lb", "1 lb 8.8 oz"),
    ("5 ft 11 in tall", 5 + 11 / 12, "ft", "5 ft 11 in"),
    ("2 days 3 hours", 2.125, "d", "2 days 3 hours"),
    ("5 km 200 m", 5.2, "km", "5 km 200 m"),
    ("napped 1h 10, then woke", 1 + 10 / 60, "h", "1h 10"),
    ("3½ oz", 3.5, "oz", "3½ oz"),
    ("C 1pm 4½oz", 4.5, "oz", "4½oz"),
    ("½ hour", 0.5, "h", "½ hour"),
])
def test_a_value_written_in_two_units_or_with_a_fraction_is_one_value(text: str, value: float, unit: str, raw: str) -> None:
    (start, end, q), = find_quantities(text)
    assert (q.value, q.unit, q.raw) == (pytest.approx(value), unit, raw)
    assert text[start:end] == raw


@pytest.mark.parametrize("text", [
    "2.5 kg 300 g",     # a fractional first part: two values
    "3 kg and 4 kg",    # one unit twice: two values
    "6 oz 20 oz",       # the second part is no remainder of the first
    "1 hr 10 reps",     # a count after an hour
    "5 ft 11",          # inches need their unit
    "1 h · 10 km",      # a separator between fields
])
def test_two_values_side_by_side_stay_two(text: str) -> None:
    assert len(find_quantities(text)) == 2
