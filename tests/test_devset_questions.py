"""The dev-set question set (``adamm.eval.devset.questions``) and its QA harness (``adamm.eval.devset.qa``).

Golds are recomputed here from the raw ground truth with plain loops and a question reader of
the test's own (field by wording, period by the time phrase and ``now``), so a wrong gold or a
wrongly resolved "last week" in the generator shows up as a disagreement, not as a copy of the
same mistake.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import date, datetime, timedelta

import pytest

from adamm.eval.devset.history import DevSet, generate
from adamm.eval.devset.questions import (
    AGGREGATE_CATEGORIES,
    CATEGORIES,
    DevQuestion,
    generate_questions,
    is_correct,
    main,
    parse_days,
)

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]


@pytest.fixture(scope="module")
def ds() -> DevSet:
    return generate(0, 60)


@pytest.fixture(scope="module")
def qs(ds: DevSet) -> list[DevQuestion]:
    return generate_questions(ds, per_category=12, seed=0)


# -- an independent reader of the questions ------------------------------------------------------


def _month_index(word: str) -> int:
    return next(i + 1 for i, m in enumerate(MONTHS) if m.startswith(word.lower()[:3]))


def _day(text: str, year: int) -> date:
    text = text.strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return date.fromisoformat(text)
    month, day = text.split()
    return date(year, _month_index(month), int(day))


def expected_period(question: str, now: str) -> tuple[date, date] | None:
    """The days a question covers, read from its wording alone."""
    today = datetime.fromisoformat(now).date()
    q = question.rstrip("?")
    monday = today - timedelta(days=today.weekday())
    if "yesterday" in q:
        return today - timedelta(days=1), today - timedelta(days=1)
    if "last week" in q:
        return monday - timedelta(days=7), monday - timedelta(days=1)
    if "this week" in q:
        return monday, today
    m = re.search(r"(?:last|past) (\d+) days", q)
    if m:
        return today - timedelta(days=int(m[1]) - 1), today
    if "this month" in q:
        return today.replace(day=1), today
    if "last month" in q:
        end = today.replace(day=1) - timedelta(days=1)
        return end.replace(day=1), end
    m = re.search(r"(\w+) week of (\w+)", q)
    if m:
        k = ["first", "second", "third", "fourth"].index(m[1])
        start = date(today.year, _month_index(m[2]), 1 + 7 * k)
        return start, start + timedelta(days=6)
    when = r"(\d{4}-\d{2}-\d{2}|[A-Z][a-z]+ \d{1,2})"
    m = re.search(r"(?:between|from) " + when + r" (?:and|to|through) " + when, q)
    if m:
        return _day(m[1], today.year), _day(m[2], today.year)
    m = re.search(r"\b(?:in|during|over) (" + "|".join(x.capitalize() for x in MONTHS) + r")\b", q)
    if m:
        start = date(today.year, _month_index(m[1]), 1)
        nxt = date(start.year + (start.month == 12), start.month % 12 + 1, 1)
        return start, nxt - timedelta(days=1)
    return None


#: (wording, domain, field), first match wins.
FIELDS = [
    ("lows", "glucose", "lows"), ("low events", "glucose", "lows"), ("sleep score", "sleep", "sleep_score"),
    ("HRV", "sleep", "hrv"), ("resting", "sleep", "resting_heart_rate"),
    ("deep sleep", "sleep", "deep_sleep"), ("time in range", "glucose", "time_in_range"),
    ("percentage of the time", "glucose", "time_in_range"), ("glucose", "glucose", "average_glucose"),
    ("heart rate on runs", "workouts", "average_heart_rate"), ("goals", "games", "score_for"),
    ("duration", "workouts", "duration"), ("How long were my runs", "workouts", "duration"),
    ("minutes", "workouts", "duration"), ("expense", "expenses", "amount"), ("purchase", "expenses", "amount"),
    ("spen", "expenses", "amount"), ("run", "workouts", "distance"), ("sleep", "sleep", "total_sleep"),
    ("slept", "sleep", "total_sleep"),
]


def field_of(question: str) -> tuple[str, str]:
    return next((d, f) for word, d, f in FIELDS if word in question)


def text_filter(question: str) -> tuple[str, str] | None:
    m = re.search(r" at ([A-Z][\w'&. ]+?)(?: in | during | between | from | so far| overall|\?)", question)
    if m:
        return "merchant", m[1]
    m = re.search(r" on (groceries|food|transport|entertainment|utilities|health|housing|electronics)\b", question)
    if m:
        return "category", m[1]
    m = re.search(r"against the (\w+)", question)
    if m:
        return "opponent", m[1]
    return None


def matching(ds: DevSet, q: DevQuestion, domain: str, field: str | None) -> list:
    period = expected_period(q.question, q.now)
    flt = text_filter(q.question)
    out = []
    for t in ds.truth:
        if t.domain != domain or (field and field not in t.values):
            continue
        if period and not period[0] <= t.day <= period[1]:
            continue
        if flt and t.values.get(flt[0]) != flt[1]:
            continue
        out.append(t)
    return out


# -- the set -------------------------------------------------------------------------------------


def test_deterministic_and_seeded(ds: DevSet, qs: list[DevQuestion]) -> None:
    again = generate_questions(generate(0, 60), per_category=12, seed=0)
    assert [q.to_dict() for q in again] == [q.to_dict() for q in qs]
    other = generate_questions(ds, per_category=12, seed=1)
    assert [q.question for q in other] != [q.question for q in qs]
    assert len({q.question_id for q in qs}) == len(qs)
    assert all(q.question_id.startswith("seed0#") for q in qs)


def test_every_category_kind_and_scope(qs: list[DevQuestion]) -> None:
    counts = Counter(q.category for q in qs)
    assert set(counts) == set(CATEGORIES)
    for cat in AGGREGATE_CATEGORIES:
        assert counts[cat] == 12, cat
    assert {q.kind for q in qs} == {"number", "text", "days", "refusal"}
    assert {q.kind for q in qs if q.category == "retrieval"} == {"text", "refusal"}
    scopes = Counter(q.scope for q in qs)
    for style in ("whole", "month", "range", "week_of_month", "last_week", "last_n_days"):
        assert scopes[style] >= 1, style
    assert any(text_filter(q.question) for q in qs if q.category in ("sum", "count", "average"))
    assert len({q.question for q in qs}) >= len(qs) - 3  # reworded, not repeated
    for q in qs:
        assert q.gold and q.question.endswith("?")
        if q.kind == "number":
            assert q.gold.startswith(("$", str(int(float(q.gold_value)))[0])), q.gold  # leads with the value


def test_relative_questions_resolve_against_now(ds: DevSet, qs: list[DevQuestion]) -> None:
    end_now = max(r.timestamp for r in ds.rounds)
    relative = [q for q in qs if q.scope in ("yesterday", "last_week", "this_week", "last_n_days", "this_month",
                                             "last_month")]
    assert len(relative) >= 5
    assert any(datetime.fromisoformat(q.now) < end_now - timedelta(days=3) for q in relative)
    shared = {r.round_id: r.timestamp for r in ds.rounds}
    for q in qs:
        period = expected_period(q.question, q.now)
        if q.category in ("comparison", "retrieval"):
            continue  # two periods, checked below; recall is not time-scoped
        assert (q.period is None) == (period is None), q.question
        if period:
            assert q.period == [period[0].isoformat(), period[1].isoformat()], (q.question, q.now)
    domain_of = {t.round_id: t.domain for t in ds.truth}
    for q in relative:
        now = datetime.fromisoformat(q.now)
        start, end = (date.fromisoformat(d) for d in q.period)
        assert end <= now.date()
        # every record of the period, of the kind asked about, had been shared by then
        domains = {domain_of[r] for r in q.evidence_round_ids}
        for t in ds.truth:
            if t.domain in domains and start <= t.day <= end:
                assert shared[t.round_id] <= now, (q.question, t.round_id)
    for q in qs:
        if q.scope == "whole":
            assert datetime.fromisoformat(q.now) > end_now


def test_averages_sums_counts_recomputed(ds: DevSet, qs: list[DevQuestion]) -> None:
    checked = Counter()
    for q in qs:
        if q.category == "average":
            domain, field = field_of(q.question)
            recs = matching(ds, q, domain, field)
            total = 0.0
            for t in recs:
                total += t.values[field]
            assert q.gold_value == pytest.approx(total / len(recs), abs=1e-3), q.question
        elif q.category == "sum":
            domain, field = field_of(q.question)
            total = 0.0
            for t in matching(ds, q, domain, field):
                total += t.values[field]
            assert q.gold_value == pytest.approx(total, abs=0.005), q.question
        elif q.category == "count" and re.match(r"How many (runs did I log|times did I go running)", q.question):
            assert q.gold_value == len(matching(ds, q, "workouts", None)), q.question
        elif q.category == "count" and re.match(r"How many (purchases did I make|expenses did I log)", q.question):
            assert q.gold_value == len(matching(ds, q, "expenses", None)), q.question
        else:
            continue
        checked[q.category] += 1
    assert checked["average"] == 12 and checked["sum"] == 12 and checked["count"] >= 1, checked


def test_date_filters_and_extremes_recomputed(ds: DevSet, qs: list[DevQuestion]) -> None:
    checked = 0
    for q in qs:
        m = re.search(r"(?:sleep less than|get under) ([\d.]+) hours", q.question)
        if q.category == "date_filter" and m:
            days = sorted(t.day.isoformat() for t in matching(ds, q, "sleep", "total_sleep")
                          if t.values["total_sleep"] < float(m[1]))
            assert q.gold_value == days
            checked += 1
        if q.category == "extreme" and q.kind == "number":
            domain, field = field_of(q.question.replace("glucose reading", "glucose"))
            if "single purchase" in q.question or "biggest expense" in q.question:
                domain, field = "expenses", "amount"
            values = [t.values[field] for t in matching(ds, q, domain, field)]
            lowest = re.search(r"lowest|least|shortest|worst", q.question)
            assert q.gold_value == (min(values) if lowest else max(values)), q.question
            checked += 1
    assert checked >= 5


def test_evidence_holds_the_records(ds: DevSet, qs: list[DevQuestion]) -> None:
    by_round = {t.round_id: t for t in ds.truth}
    for q in qs:
        if q.category == "retrieval":
            continue
        assert q.evidence_round_ids, q.question
        for rid in q.evidence_round_ids:
            rec = by_round[rid]  # a logging round, not chatter
            if q.period:
                assert q.period[0] <= rec.day.isoformat() <= q.period[1], (q.question, rid)
        if q.kind == "days":
            assert set(q.gold_value) == {by_round[r].day.isoformat() for r in q.evidence_round_ids}


def test_retrieval_golds_occur_in_their_rounds(ds: DevSet, qs: list[DevQuestion]) -> None:
    chatter = set(ds.chatter_round_ids)
    rounds = {r.round_id: r for r in ds.rounds}
    answerable = [q for q in qs if q.category == "retrieval" and q.kind == "text"]
    refusals = [q for q in qs if q.kind == "refusal"]
    assert len(answerable) >= 8 and len(refusals) >= 2
    for q in answerable:
        assert q.evidence_round_ids and set(q.evidence_round_ids) <= chatter
        for rid in q.evidence_round_ids:
            r = rounds[rid]
            assert q.gold_value in r.user_text + "\n" + r.assistant_text, (q.question, rid)
    history = " ".join(f"{r.user_text} {r.assistant_text}" for r in ds.rounds).lower()
    for q in refusals:
        assert q.gold_value == "Not mentioned" and not q.evidence_round_ids
        rare = [w for w in re.findall(r"[a-z]+", q.question.lower()) if len(w) >= 6]
        assert any(w not in history for w in rare), q.question


def test_comparison_and_trend_golds(ds: DevSet, qs: list[DevQuestion]) -> None:
    for q in qs:
        if q.category in ("comparison", "trend"):
            assert q.kind == "text" and q.gold_value in q.choices
            assert is_correct(q, q.gold)  # the display answer leads with the winner
            loser = next(c for c in q.choices if c != q.gold_value)
            assert not is_correct(q, f"{q.choices[loser][0]}, clearly")
    for q in qs:
        m = re.match(r"Did I sleep more on average in the (\w+) week of (\w+) or the (\w+)\?", q.question)
        if not m:
            continue
        means = []
        for k in (m[1], m[3]):
            start = date(2025, _month_index(m[2]), 1 + 7 * ["first", "second", "third", "fourth"].index(k))
            vals = [t.values["total_sleep"] for t in ds.truth
                    if t.domain == "sleep" and start <= t.day <= start + timedelta(days=6)]
            means.append(sum(vals) / len(vals))
        assert q.gold_value.startswith("the " + (m[1] if means[0] > means[1] else m[3]))


def test_short_history_still_yields_questions() -> None:
    small = generate_questions(generate(3, 8), per_category=4)
    assert len(small) >= 20
    assert all(q.period is None or q.period[0] <= q.period[1] for q in small)


# -- scoring ------------------------------------------------------------------------------------


def _num(value: float, unit: str, tol: float, rel: float = 0.0) -> DevQuestion:
    return DevQuestion("t#0", "?", "average", "", value, "number", tol, unit, [], "2025-05-01T12:00:00", rel)


def test_numbers_with_units_and_tolerance() -> None:
    q = _num(6.6, "h", 0.05)
    for good in ("6.6 hours on average over 4 logged days", "6 h 36 min", "6h36m", "6 hours and 36 minutes",
                 "396 minutes", "6:36 per night", "6.62 h", "On March 4 you slept 6.6 h"):
        assert is_correct(q, good), good
    for bad in ("6.7 hours", "7 h", "36 min", "Not mentioned.", "", "about 4 days, 6.6 h"):
        assert not is_correct(q, bad), bad
    money = _num(1250.0, "USD", 0.5)
    for good in ("$1,250.00", "USD 1,250", "1250.40 dollars", "You spent $1,249.60 in March."):
        assert is_correct(money, good), good
    for bad in ("$1,251", "$125.00", "12.50"):
        assert not is_correct(money, bad), bad
    avg = _num(131.4, "mg/dL", 1.0, 0.01)  # window max(1, 1.314)
    assert is_correct(avg, "132.6 mg/dL") and is_correct(avg, "131")
    assert not is_correct(avg, "133 mg/dL")
    count = _num(3.0, "", 0.0)
    assert is_correct(count, "3 runs") and is_correct(count, "Three runs last week.")
    assert not is_correct(count, "4 runs") and not is_correct(count, "3.5")
    minutes = _num(68.0, "min", 0.5)
    assert is_correct(minutes, "1 h 8 min") and is_correct(minutes, "68 minutes") and not is_correct(minutes, "1.5 h")
    km = _num(11.7, "km", 0.05)
    assert is_correct(km, "11.7km, your longest") and not is_correct(km, "11.8 km")


def _days(*isos: str, now: str = "2025-05-01T12:00:00") -> DevQuestion:
    return DevQuestion("t#1", "?", "date_filter", "", list(isos), "days", now=now)


def test_days_in_several_formats() -> None:
    one = _days("2025-03-04")
    for good in ("March 4", "Mar 4, 2025", "2025-03-04", "4 March 2025", "3/4/2025", "On Tuesday, March 4th.",
                 "Mar. 4 (5.2 h)"):
        assert is_correct(one, good), good
    for bad in ("March 5", "March 5, then March 4", "2024-03-04", "no idea", "4 days"):
        assert not is_correct(one, bad), bad
    many = _days("2025-03-04", "2025-03-09", "2025-03-12")
    for good in ("March 4, 9 and 12", "2025-03-04, 2025-03-09 and Mar 12", "Mar 12, Mar 4 and Mar 9"):
        assert is_correct(many, good), good
    for bad in ("March 4 and March 9", "March 4, 9, 12 and 15", "March 4, 6.5 hours; March 9",
                "March 4 and 9 (12 h in all)"):
        assert not is_correct(many, bad), bad
    # a year left out is the latest such date not after now
    assert parse_days("December 30", "2025-01-10") == [date(2024, 12, 30)]
    assert parse_days("March 4, 9 and 12 (6.5 h)", "2025-05-01") == [date(2025, 3, 4), date(2025, 3, 9),
                                                                      date(2025, 3, 12)]


def test_text_choices_spans_and_refusals() -> None:
    trend = DevQuestion("t#2", "?", "trend", "up", "up", "text",
                        choices={"up": ["up", "increased"], "down": ["down", "decreased"]})
    assert is_correct(trend, "Up: from 54 to 57 bpm") and is_correct(trend, "It increased slightly.")
    assert not is_correct(trend, "It went down, not up.") and not is_correct(trend, "flat")
    cmp_ = DevQuestion("t#3", "?", "comparison", "", "the first week of March", "text",
                       choices={"the first week of March": ["first"], "the second week of March": ["second"]})
    assert is_correct(cmp_, "The first week (7.1 h vs 6.8 h).")
    assert not is_correct(cmp_, "The second week; the first was lower.")
    span = DevQuestion("t#4", "?", "retrieval", "", "a spoon of yogurt", "text")
    assert is_correct(span, "Add a spoon of yogurt.") and is_correct(span, "A SPOON of yogurt!")
    assert not is_correct(span, "Yogurt") and not is_correct(span, "Add a spoonful of yogurt")
    near = DevQuestion("t#5", "?", "retrieval", "", "one long run a week", "text")
    assert is_correct(near, "one long run each week")  # token F1 0.89
    accent = DevQuestion("t#6", "?", "retrieval", "", "the Sagrada Família", "text")
    assert is_correct(accent, "Sagrada Familia, and tapas in El Born") and not is_correct(accent, "Park Güell")
    refusal = DevQuestion("t#7", "?", "retrieval", "Not mentioned", "Not mentioned", "refusal")
    for good in ("Not mentioned.", "I don't know.", "There is no information about that."):
        assert is_correct(refusal, good), good
    assert not is_correct(refusal, "Your dog is called Rex.")


def test_every_gold_display_scores_as_correct(qs: list[DevQuestion]) -> None:
    for q in qs:
        assert is_correct(q, q.gold), (q.question, q.gold)
        assert not is_correct(q, "Sorry, I have nothing on that.") or q.kind == "refusal"


def test_questions_cli_writes_jsonl(tmp_path) -> None:
    out = tmp_path / "q.jsonl"
    assert main(["--seed", "1", "--days", "20", "--per-category", "3", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and all(r["question_id"].startswith("seed1#") for r in rows)
    assert {r["category"] for r in rows} >= set(AGGREGATE_CATEGORIES) - {"trend"}
    back = DevQuestion.from_dict(rows[0])
    assert is_correct(back, back.gold)


# -- the harness --------------------------------------------------------------------------------


def test_qa_spread_and_summary(qs: list[DevQuestion]) -> None:
    from adamm.eval.devset.qa import format_table, spread, summarize

    few = spread(qs, 12)
    assert len(few) == 12 and {q.category for q in few} == set(CATEGORIES)
    assert [q.question_id for q in few] == [q.question_id for q in qs if q in few]  # original order kept
    assert spread(qs, None) == qs
    results = [{"system": s, "category": q.category, "correct": s == "a" and q.category == "sum", "seconds": 0.1}
               for s in ("a", "b") for q in few]
    summary = summarize(results, ["a", "b"])
    # 12 over 9 categories: one each, then a second average, sum and count
    assert summary["a"]["by_category"]["sum"] == {"correct": 2, "total": 2, "accuracy": 1.0}
    assert summary["a"]["by_category"]["trend"]["total"] == 1
    assert summary["a"]["aggregate"]["correct"] == 2 and summary["a"]["aggregate"]["total"] == 11
    assert summary["b"]["overall"] == {"correct": 0, "total": 12, "accuracy": 0.0}
    table = format_table({"seed": 0, "days": 60, "rounds": 1, "questions": 12, "systems": ["a", "b"],
                          "summary": summary})
    assert "100.0% (2/2)" in table and "16.7% (2/12)" in table


def test_qa_harness_end_to_end(home, capsys) -> None:
    from adamm.eval.devset import qa as devset_qa

    assert devset_qa.main(["--seed", "0", "--days", "8", "--limit", "10", "--show-failures"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("category"))
    assert "query" in header and "flat" in header
    overall = next(line for line in lines if line.startswith("overall"))
    assert len(re.findall(r"\(\d+/10\)", overall)) == 2
    assert any(line.startswith("aggregate") for line in lines)
    shown = [line for line in lines if line.split(" ")[0] in CATEGORIES]
    assert len(shown) >= 6  # --limit spreads over the categories
    wrong = sum(int(t) - int(c) for c, t in re.findall(r"\((\d+)/(\d+)\)", overall))
    assert out.count("  gold: ") == wrong  # --show-failures prints each wrong answer
    # A floor, so a harness that scores every answer wrong (or right) fails. The run is offline
    # rules end to end, hence deterministic: measured, the query graph answers 8 of the 10
    # questions and the flat baseline 1 (the retrieval question; a flat top-k cannot aggregate).
    # The floor, 7 of 10, leaves one question of margin for encoder differences (ONNX or torch)
    # in the one retrieval-ranked answer; the analytic questions are exact.
    (query_ok, query_n), (flat_ok, flat_n) = [(int(c), int(t)) for c, t in re.findall(r"\((\d+)/(\d+)\)", overall)]
    assert query_n == flat_n == 10 and query_ok >= 7
    aggregate = next(line for line in lines if line.startswith("aggregate"))
    (query_agg, _), (flat_agg, _) = [(int(c), int(t)) for c, t in re.findall(r"\((\d+)/(\d+)\)", aggregate)]
    assert query_agg >= 6 and flat_agg < query_agg  # measured 7 of 9 and 0 of 9
    assert "errors:" not in out  # no question crashed in either graph
