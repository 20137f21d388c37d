"""A question that asks for a computation is never answered by quoting chit-chat: when no table
answered it, the answer says it was not computed and which round it read (issue: honest routing).
"""

from __future__ import annotations

from adamm.memory import Memory
from adamm.nodes.questions import NOT_MENTIONED
from adamm.nodes.rules.answerer import NOT_COMPUTED, compose

CHATTY = [{"unit_id": "E1", "kind": "event", "date": "2025-03-02", "text": "User: Got it, vrell noted.\nAssistant: Thanks!"}]
STATED = [{"unit_id": "E3", "kind": "event", "date": "2025-03-02", "text": "User: My vrell averaged 14 qz over the week."}]


def test_a_computation_without_a_table_says_it_was_not_computed() -> None:
    for question in ("What was my average vrell?", "How much vrell did I log in total?"):
        answer, cited = compose(question, [], CHATTY, [])
        assert answer.startswith(NOT_COMPUTED) and "Got it, vrell noted." in answer
        assert cited == ["E1"]


def test_a_round_that_states_the_number_still_answers() -> None:
    assert compose("What was my average vrell?", [], STATED, []) == ("My vrell averaged 14 qz over the week.", ["E3"])


def test_a_comparison_of_logged_periods_without_a_table_says_it_was_not_computed() -> None:
    """"Which month had bigger vrell hauls, March or April?" and "did it rise or fall": no table
    answered, so a round's sentence is quoted as what was read, never given as the side; a
    comparison of two things with no period ("the cake or the pie") still reads the rounds."""
    from datetime import date

    from adamm.stores.timeexpr import Period

    march = Period(date(2025, 3, 1), date(2025, 3, 31), "March 2025", (0, 0))
    april = Period(date(2025, 4, 1), date(2025, 4, 30), "April 2025", (0, 0))
    said = [{"unit_id": "E5", "kind": "event", "date": "2025-03-02",
             "text": "User: Bigger vrell hauls now that the skep is full.\nAssistant: Perfect, full hauls are easier to compare."}]
    for question in ("Which month had bigger vrell hauls on average, March 2025 or April 2025?",
                     "Between March 2025 and April 2025, did my vrell hauls rise or fall?"):
        answer, cited = compose(question, [march, april], said, [])
        assert answer.startswith(NOT_COMPUTED) and cited == ["E5"], answer
    things = [{"unit_id": "E6", "kind": "event", "date": "2025-03-02", "text": "User: The brask cake is better for a party than the pie."}]
    answer, _ = compose("Which is more suitable for a party, the brask cake or the pie?", [], things, [])
    assert not answer.startswith(NOT_COMPUTED)


def test_a_lookup_is_answered_from_the_rounds_as_before() -> None:
    answer, _ = compose("What did I say about the vrell?", [], CHATTY + STATED, [])
    assert not answer.startswith(NOT_COMPUTED)


def test_a_memory_without_tables_does_not_quote_chit_chat_for_an_average(home) -> None:
    mem = Memory("chat")
    mem.ingest([{"round_id": "r1", "timestamp": "2025-03-02T09:00:00", "user_text": "Got it, vrell noted.", "assistant_text": "Thanks!"},
                {"round_id": "r2", "timestamp": "2025-03-03T09:00:00", "user_text": "The plosk was calm with the vrell today."}])
    for question in ("What was my average vrell in March?", "How much vrell did I log in total?"):
        answer = mem.ask(question).answer
        assert answer.startswith((NOT_COMPUTED, NOT_MENTIONED)), answer
    assert mem.ask("How much vrell did I log in total?").answer.startswith(NOT_COMPUTED)  # it read a round, and says so


def test_a_list_of_days_no_table_row_matches_says_so_instead_of_quoting_a_round() -> None:
    question = "On which days did a vrell run to 300 qz or more?"
    calls = [{"tool": "Filter", "ok": True, "args": {"table": "vrell_log"}, "summary": {"table": "vrell_log", "matched": 0}}]
    answer, cited = compose(question, [], CHATTY, calls)
    assert answer.startswith("None: no logged day matches") and "vrell_log" in answer and cited == []
    # without a table searched, the rounds still answer
    assert not compose(question, [], CHATTY, [])[0].startswith("None:")
