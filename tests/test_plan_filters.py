"""Which subset a question names: pure tests of the filter rules on planner-facing table dicts."""

from __future__ import annotations

from typing import Any

from adamm.nodes.rules.plan_filters import _constant_modifier, mention_filters, short_name, value_filters
from adamm.nodes.rules.plan_instantiate import compare_sides


class _Encoder:
    """An encoder that makes every text alike (``fill`` 1) or unlike (0): the words alone decide."""

    def __init__(self, fill: float) -> None:
        self.fill = fill

    def encode(self, texts: list[str]) -> Any:
        import numpy as np
        return np.full((len(texts), 8), self.fill)


def _table(pairs: dict[str, int], vocabulary: dict[str, int], rows: int = 20) -> dict[str, Any]:
    return {"name": "brox_log", "rows": rows, "vocabulary": vocabulary, "pairs": pairs,
            "columns": [{"name": "brox", "type": "float", "unit": "brox"}]}


def test_a_modifier_the_records_always_write_before_their_noun_is_constant() -> None:
    pairs = {"golgoking session": 11, "per session": 6, "s session": 5, "session brox": 3}
    assert _constant_modifier(pairs, "golgoking", "sessions")  # "per", a possessive's "s": no modifiers
    varied = {"morning run": 6, "evening run": 7}
    assert not _constant_modifier(varied, "morning", "runs")  # morning or evening: a subset
    assert not _constant_modifier({"golgoking session": 1}, "golgoking", "sessions")  # once is no evidence


def test_what_the_records_are_called_is_no_mention_filter_but_a_varying_modifier_is() -> None:
    vocab = {"golgoking": 9, "session": 20, "morning": 8, "evening": 9, "run": 17}
    pairs = {"golgoking session": 11, "morning run": 8, "evening run": 9}
    table = _table(pairs, vocab)
    assert mention_filters("What was my average brox across all my golgoking sessions?", [], table) == []
    got = mention_filters("What was my average brox on my morning runs?", [], table)
    assert got == [{"column": "captions", "op": "mentions", "value": "morning"}]


def test_a_word_one_record_happens_to_say_names_no_subset_but_a_name_may() -> None:
    vocab = {"vrask": 1, "ostler": 1, "session": 20, "brox": 20}
    table = _table({}, vocab)
    # "litre of vrask": a word of the one record that says it, no part of the log
    assert mention_filters("Across all my sessions, which day did I get my cheapest litre of vrask?", [], table) == []
    got = mention_filters("What was my brox at Ostler?", [], table)
    assert got == [{"column": "captions", "op": "mentions", "value": "ostler"}]  # a name: one record may be all


def test_a_value_stored_in_two_columns_filters_the_column_where_it_is_common() -> None:
    table = {"name": "seelvin_log", "rows": 27, "columns": [
        {"name": "merchant", "type": "text", "filled": 27, "values": ["seelvin", "Balsyn"], "counts": {"seelvin": 17, "balsyn": 1}},
        {"name": "plask", "type": "text", "filled": 27, "values": ["Balsyn", "Vonvy"], "counts": {"balsyn": 15, "vonvy": 12}}]}
    assert value_filters("How many Balsyn sessions did I log?", table) == [{"column": "plask", "op": "=", "value": "Balsyn"}]


def test_a_scope_phrase_of_what_the_records_are_called_is_no_filter() -> None:
    vocab = {"deening": 15, "shift": 22, "gravel": 8, "bike": 20}
    table = _table({"deening shift": 15, "gravel bike": 8, "road bike": 9}, vocab, rows=28)
    assert mention_filters("How much brox did I log in total on deening shifts?", [], table) == []
    got = mention_filters("How much brox did I log on the gravel bike?", [], table)
    assert got and got[0]["value"].startswith("gravel")


def test_a_goal_is_reached_at_or_above_the_value_said_where_the_goal_was_set() -> None:
    from adamm.nodes.rules.plan_events import fact_conditions

    table = {"name": "brox_log", "columns": [{"name": "amount", "type": "float", "unit": "USD"},
                                             {"name": "kronk", "type": "float", "unit": "ds", "aliases": ["kronk"]},
                                             {"name": "vrell", "type": "float", "unit": "ds"}]}
    texts = ["Got a batch in on Mar 15: $65.48 of tralliss, 7.4 ds of vrell", "My goal from now on is 7.0 ds of kronk per batch."]
    got = fact_conditions("How many of my batches reached my kronk goal?", texts, table)
    assert got == [{"column": "kronk", "op": ">=", "value": 7.0}]
    got = fact_conditions("How many days stayed within my spending cap?", ["My spending cap is $50 a day."], table)
    assert got == [{"column": "amount", "op": "<=", "value": 50.0}]


def test_a_pair_target_is_read_from_where_it_was_set() -> None:
    from adamm.nodes.rules.plan_events import fact_conditions

    table = {"name": "bp_reading", "columns": [{"name": "systolic", "type": "float", "unit": "mmHg"},
                                               {"name": "diastolic", "type": "float", "unit": "mmHg"}]}
    texts = ["Morning: 128/82, pulse 66", "She wants them under 135/85 - that's my home target from now on."]
    got = fact_conditions("What share of my readings were within the home target my GP set?", texts, table)
    assert got == [{"column": "systolic", "op": "<", "value": 135.0}, {"column": "diastolic", "op": "<", "value": 85.0}]


def test_a_comparison_after_what_the_quantity_is_of_still_compares() -> None:
    from adamm.nodes.rules.plan_columns import Target
    from adamm.nodes.rules.plan_filters import condition_filters

    columns = [{"name": "vrell", "type": "float", "unit": "h"}, {"name": "skep", "type": "float", "unit": "pages"}]
    target = Target("t", "vrell", "h", 1.0, columns)
    assert condition_filters("Which days did I get 8 hours of vrell or more?", [], target) == \
        [{"column": "vrell", "op": ">=", "value": 8.0}]
    assert condition_filters("Days with 50 pages of the ostler saga or less?", [], target) == \
        [{"column": "skep", "op": "<=", "value": 50.0}]
    assert condition_filters("Days with 5 hours of vrell and more skep?", [], target) == []  # no comparison of the 5 hours


def test_a_unit_named_question_reads_the_table_that_holds_most_of_the_log() -> None:
    from adamm.nodes.rules.plan_instantiate import instantiate
    from adamm.nodes.rules.plan_intent import Intent

    tables = [{"name": "entry_log", "rows": 57, "columns": [{"name": "duration", "type": "float", "unit": "h"}]},
              {"name": "vorrin_log", "rows": 6, "columns": [{"name": "vorrin_app", "type": "float", "unit": "h"}]}]
    question = "List the days when a single entry ran more than 5 hours."
    got = instantiate(0, "Filter", question, [], Intent("filter_days"), {"tables": tables}, [], _Encoder(0.0))
    assert got is not None and got[1]["table"] == "entry_log"
    assert {"column": "duration", "op": ">", "value": 5.0} in got[1]["column_filters"]
    tables[1]["rows"] = 40  # two tables of that dimension, neither holding most of the log: no guess
    assert instantiate(0, "Filter", question, [], Intent("filter_days"), {"tables": tables}, [], _Encoder(0.0)) is None


def test_a_stored_name_is_named_by_its_first_word_when_no_other_shares_it() -> None:
    names = ["Orla Venn", "Tamsin Hale", "Orla Brisk"]
    assert short_name("Tamsin Hale", "How long were my Tamsin entries?", names)
    assert not short_name("Orla Venn", "How long were my Orla entries?", names)  # two names open with it
    assert not short_name("Tamsin Hale", "How long were my tamsin entries?", names)  # a name is written capitalised
    assert not short_name("Tamsin Hale", "Tamsin entries: how long were they?", names)  # a first word is capitalised anyway
    assert short_name("Tamsin Hale", "How long were my Tamsin entries?", [*names, "Tamsin Hale's"])  # one name, possessive
    table = {"name": "span_log", "rows": 20, "columns": [
        {"name": "vorn", "type": "text", "filled": 20, "values": names, "counts": {}}]}
    assert value_filters("How many hours did Tamsin get?", table) == [{"column": "vorn", "op": "=", "value": "Tamsin Hale"}]


def test_two_names_shortened_are_the_two_sides_of_a_comparison() -> None:
    table = {"name": "span_log", "rows": 20, "columns": [
        {"name": "span", "type": "float", "unit": "h"},
        {"name": "vorn", "type": "text", "filled": 20, "values": ["Orla Venn", "Tamsin Hale", "Kettri Dows"], "counts": {}}]}
    sides = compare_sides("Were my Tamsin entries or my Kettri entries longer on average?", [], table)
    assert sides is not None
    assert [s[0][0]["value"] for s in sides] == ["Tamsin Hale", "Kettri Dows"]


def test_a_value_the_column_holds_once_but_the_rows_say_often_is_searched_in_their_text() -> None:
    # one app screenshot filled "Kind: Drellits"; ten notes only say "picked 4 drellits"
    columns = [{"name": "kind", "type": "text", "filled": 18, "values": ["Drellits", "Sporm"], "counts": {"drellits": 1, "sporm": 17}}]
    table = {"name": "brox_log", "rows": 30, "columns": columns, "vocabulary": {"drellits": 11, "sporm": 17, "picked": 25}}
    assert value_filters("How many times did I pick drellits?", table) == [{"column": "captions", "op": "mentions", "value": "drellits"}]
    # where the column holds the value about as often as the rows say it, the column decides
    assert value_filters("How many times did I pick sporm?", table) == [{"column": "kind", "op": "=", "value": "Sporm"}]
    # no vocabulary (a model-made table dict): the column decides
    del table["vocabulary"]
    assert value_filters("How many times did I pick drellits?", table) == [{"column": "kind", "op": "=", "value": "Drellits"}]


def test_two_values_of_one_column_named_as_alternatives_are_either_of_them() -> None:
    columns = [{"name": "spirit", "type": "text", "filled": 30, "values": ["vellow", "drashy", "calm"],
                "counts": {"vellow": 10, "drashy": 8, "calm": 12}}]
    table = {"name": "brox_log", "rows": 40, "columns": columns}
    got = value_filters("On how many days was I drashy or vellow?", table)
    assert len(got) == 1 and got[0]["op"] == "in" and sorted(got[0]["value"]) == ["drashy", "vellow"]
    assert sorted(value_filters("Which days was I vellow, drashy or calm?", table)[0]["value"]) == ["calm", "drashy", "vellow"]
    # two values apart in the question are not alternatives: one of them is the filter
    got = value_filters("On drashy days, did I feel more vellow afterwards?", table)
    assert len(got) == 1 and got[0]["op"] == "="


def test_a_share_whose_scope_names_the_condition_column_is_among_the_rows_that_say_it() -> None:
    from adamm.nodes.rules.plan_instantiate import instantiate
    from adamm.nodes.rules.plan_intent import detect_intent

    columns = [{"name": "brox", "type": "float", "unit": "brox"},
               {"name": "spirit", "type": "text", "filled": 30, "values": ["vellow", "drashy", "calm"],
                "counts": {"vellow": 10, "drashy": 8, "calm": 12}}]
    table = {"name": "brox_log", "rows": 40, "columns": columns}

    def args(q: str) -> dict:
        made = instantiate(0, "Compute", q, [], detect_intent(q, [], [table]), {"tables": [table]}, [], _Encoder(1.0))
        assert made is not None, q
        return made[1]

    got = args("Of the days where I noted my spirit, what percentage was I drashy or vellow?")
    assert got["operator"] == "share" and {"column": "spirit", "op": "not_null"} in got["column_filters"]
    assert [(f["column"], f["op"], sorted(f["value"])) for f in got["condition"]] == [("spirit", "in", ["drashy", "vellow"])]
    # a share of every row when the question does not scope it by the column
    got = args("What percentage of my days was I drashy?")
    assert not any(f["op"] == "not_null" for f in got["column_filters"])


def test_a_word_no_record_says_after_the_records_noun_is_a_verb_not_the_noun() -> None:
    vocab = {"tending": 30, "thrn": 60, "morning": 12}
    table = _table({}, vocab, rows=60)
    # "a single tending run to ...": "run" is said by no record, so "tending" is what is counted
    assert mention_filters("On which days did a single tending run to an hour or more?", [], table) == []
    # a word the records do say stays the noun, and the modifier before it names a subset
    vocab["session"] = 25
    got = mention_filters("On which days did a single morning session go past an hour?", [], table)
    assert got == [{"column": "captions", "op": "mentions", "value": "morning"}]


def test_how_many_days_i_logged_anything_counts_the_days_of_the_table_holding_most_records() -> None:
    from adamm.nodes.rules.plan_instantiate import instantiate
    from adamm.nodes.rules.plan_intent import detect_intent

    tables = [{"name": "entry_log", "rows": 57, "columns": [{"name": "vrell", "type": "float", "unit": "h"}]},
              {"name": "grost_log", "rows": 9, "columns": [{"name": "grost", "type": "float", "unit": "USD"}]}]
    q = "On how many different days did I log any work?"
    got = instantiate(0, "Compute", q, [], detect_intent(q, [], tables), {"tables": tables}, [], _Encoder(0.0))
    assert got is not None and got[1]["table"] == "entry_log"
    assert got[1]["target"] == "date" and got[1]["operator"] == "count_distinct"
    tables[1]["rows"] = 30  # no table holds most of the log: no guess
    assert instantiate(0, "Compute", q, [], detect_intent(q, [], tables), {"tables": tables}, [], _Encoder(0.0)) is None


def test_the_word_after_the_questions_subject_is_its_verb_no_subset() -> None:
    vocab = {"sent": 6, "grost": 5, "vrell": 14, "drellits": 7}
    table = _table({}, vocab, rows=14)
    got = mention_filters("How many vrells have I sent Grost so far?", [], table)
    assert got == [{"column": "captions", "op": "mentions", "value": "grost"}]
    assert mention_filters("How many times did I pick drellits?", [], table) == []


def test_which_days_in_a_period_i_logged_something_lists_the_days_of_its_rows() -> None:
    from adamm.nodes.rules.plan_instantiate import instantiate
    from adamm.nodes.rules.plan_intent import detect_intent
    from adamm.stores.timeexpr import find_periods
    from datetime import datetime

    tables = [{"name": "entry_log", "rows": 57, "columns": [{"name": "vrell", "type": "float", "unit": "h"}]}]
    q = "Which days in the week of April 14-20, 2025 did I log vrell?"
    periods = find_periods(q, datetime(2025, 6, 1))
    got = instantiate(0, "Filter", q, periods, detect_intent(q, periods, tables), {"tables": tables}, [], _Encoder(1.0))
    assert got is not None and got[0] == "Filter"
    assert got[1]["column_filters"] == [{"column": "date", "op": "between", "value": ["2025-04-14", "2025-04-20"]}]
    # no period, no condition: no list of every day
    q = "Which days did I log vrell?"
    assert instantiate(0, "Filter", q, [], detect_intent(q, [], tables), {"tables": tables}, [], _Encoder(1.0)) is None


def test_a_stored_value_that_reads_like_an_extreme_is_no_extreme() -> None:
    from adamm.nodes.rules.plan_intent import detect_intent

    table = {"name": "brox_log", "rows": 40, "columns": [
        {"name": "brox", "type": "float", "unit": "g"},
        {"name": "kind", "type": "text", "filled": 40, "values": ["drellits", "mopples"], "counts": {"drellits": 20, "mopples": 20}},
        {"name": "lorr", "type": "text", "filled": 40, "values": ["top lorr", "east lorr"], "counts": {"top lorr": 22, "east lorr": 18}}]}
    # "top" of the stored "top lorr" asks for no maximum: the kinds are listed
    assert detect_intent("Which kinds have I plucked from the top lorr?", [], [table]).kind == "values"
    assert detect_intent("Which kind gave my top brox?", [], [table]).kind != "values"
