"""Time phrases resolve to the documented calendar periods, against the question's ``now``."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from adamm.stores.timeexpr import find_periods, split_question

NOW = datetime(2025, 4, 30, 12, 0)  # a Wednesday


def one(question: str, now: datetime = NOW) -> tuple[date | None, date | None]:
    periods = find_periods(question, now)
    assert len(periods) == 1, periods
    return periods[0].start, periods[0].end


@pytest.mark.parametrize(("question", "start", "end"), [
    ("average sleep in March?", date(2025, 3, 1), date(2025, 3, 31)),
    ("in May?", date(2024, 5, 1), date(2024, 5, 31)),  # May has not begun yet in April 2025
    ("between March 3 and March 9", date(2025, 3, 3), date(2025, 3, 9)),
    ("from Mar 3 to Mar 9", date(2025, 3, 3), date(2025, 3, 9)),
    ("2025-03-03 - 2025-03-09", date(2025, 3, 3), date(2025, 3, 9)),
    ("on March 4th", date(2025, 3, 4), date(2025, 3, 4)),
    ("on 4 March 2024", date(2024, 3, 4), date(2024, 3, 4)),
    ("the first week of March", date(2025, 3, 1), date(2025, 3, 7)),
    ("the second week of March", date(2025, 3, 8), date(2025, 3, 14)),
    ("the last week of February", date(2025, 2, 22), date(2025, 2, 28)),
    ("the second half of March", date(2025, 3, 16), date(2025, 3, 31)),
    ("yesterday", date(2025, 4, 29), date(2025, 4, 29)),
    ("3 days ago", date(2025, 4, 27), date(2025, 4, 27)),
    ("this week", date(2025, 4, 28), date(2025, 4, 30)),
    ("last week", date(2025, 4, 21), date(2025, 4, 27)),
    ("in the last 7 days", date(2025, 4, 24), date(2025, 4, 30)),
    ("over the past two weeks", date(2025, 4, 17), date(2025, 4, 30)),
    ("this month", date(2025, 4, 1), date(2025, 4, 30)),
    ("last month", date(2025, 3, 1), date(2025, 3, 31)),
    ("since March 10", date(2025, 3, 10), date(2025, 4, 30)),
    ("before March 10", None, date(2025, 3, 9)),
    ("after March 10", date(2025, 3, 11), None),
    ("last Monday", date(2025, 4, 28), date(2025, 4, 28)),
    ("from Dec 20 to Jan 5", date(2024, 12, 20), date(2025, 1, 5)),
])
def test_phrases_resolve_to_documented_periods(question: str, start: date | None, end: date | None) -> None:
    assert one(question) == (start, end)


def test_may_the_verb_is_not_a_month_and_phrases_do_not_overlap() -> None:
    periods = find_periods("May I ask what I spent in the first week of May?", NOW)
    assert [(p.phrase, p.start) for p in periods] == [("the first week of May", date(2024, 5, 1))]
    assert find_periods("How did I sleep?", NOW) == []


def test_filters_are_inclusive_day_ranges() -> None:
    (p,) = find_periods("in March", NOW)
    assert p.to_filter() == {"column": "date", "op": "between", "value": ["2025-03-01", "2025-03-31"]}
    (d,) = find_periods("yesterday", NOW)
    assert d.to_filter() == {"column": "date", "op": "=", "value": "2025-04-29"}
    (o,) = find_periods("since March 10", date(2025, 4, 30))
    lo, hi = o.time_range()
    assert lo == datetime(2025, 3, 10) and hi.date() == date(2025, 4, 30) and hi.hour == 23


def test_compound_questions_split_into_sub_questions() -> None:
    assert split_question("What was my average sleep in March? And how many runs did I log?") == [
        "What was my average sleep in March?", "How many runs did I log?"]
    assert split_question("When did I last play the Ravens and what was the score?") == [
        "When did I last play the Ravens", "What was the score?"]
    assert split_question("How much did I spend on bread and milk?") == ["How much did I spend on bread and milk?"]


@pytest.mark.parametrize(("question", "start", "end"), [
    ("How far did I go in the past 14 days (asked on 23 March)?", date(2025, 3, 10), date(2025, 3, 23)),
    ("What did I spend last month (today is 9 February 2025)?", date(2025, 1, 1), date(2025, 1, 31)),
    ("Average over the last 7 days - today is 2024-12-31?", date(2024, 12, 25), date(2024, 12, 31)),
    ("As of June 2, how many runs this week?", date(2025, 6, 2), date(2025, 6, 2)),  # June 2, 2025 is a Monday
    ("What was logged yesterday (it's May 5)?", date(2025, 5, 4), date(2025, 5, 4)),
])
def test_a_stated_day_replaces_now_and_names_no_period(question: str, start: date, end: date) -> None:
    """The day a question says it is asked on: the nearest such day to ``now`` (here after the
    last round, so a year-less "23 March" is not pushed a year back), and no period of its own."""
    assert one(question) == (start, end)


def test_stated_today_reads_the_clause_and_its_span() -> None:
    from adamm.stores.timeexpr import stated_today

    q = "Total rides in the past 10 days (today is March 18, 2025)?"
    day, (a, b) = stated_today(q, NOW)
    assert day == date(2025, 3, 18) and q[a:b] == "(today is March 18, 2025)"
    assert stated_today("What is today?", NOW) is None


def test_one_period_said_twice_is_one_period_over_both_phrases() -> None:
    """"the first half of March 2025 (March 1–15)": one period whose span covers both phrases,
    so no word of either is left for the planner to read as a mention ("march")."""
    q = "In the first half of March 2025 (March 1–15), on which days did I log glisk above 6 skem?"
    (p,) = find_periods(q, NOW)
    assert (p.start, p.end) == (date(2025, 3, 1), date(2025, 3, 15))
    assert q[p.span[0]:p.span[1]] == "the first half of March 2025 (March 1–15)"


@pytest.mark.parametrize("phrase, start, end", [
    ("between May 1 and May 15, 2025", date(2025, 5, 1), date(2025, 5, 15)),
    ("from Dec 20 to Jan 5, 2025", date(2024, 12, 20), date(2025, 1, 5)),
    ("between 1 May and 15 May 2025", date(2025, 5, 1), date(2025, 5, 15)),
])
def test_a_year_written_once_after_a_range_is_both_ends_year(phrase: str, start: date, end: date) -> None:
    (p,) = find_periods(f"How long were my entries {phrase}?", date(2025, 3, 23))
    assert (p.start, p.end) == (start, end)
