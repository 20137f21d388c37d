"""Reading a conversation between named people: whose turn answers, when "yesterday" was, and
which sentences are only there to keep the conversation going.

Speakers, places and events are invented; the dates cross a month, a leap day and a year.
"""

from __future__ import annotations

from datetime import date

import pytest

from adamm.memory import Memory
from adamm.nodes.questions import NOT_MENTIONED
from adamm.nodes.rules.answer_span import answer_span
from adamm.nodes.rules.best_sentence import informative, is_phatic, rules_answer
from adamm.nodes.rules.reader import asked_speaker, read_answer
from adamm.nodes.rules.when import say_day, when_said
from adamm.stores.records import USER_HEAD, Round


def turn(uid: str, day: str, speaker: str, text: str) -> dict:
    """An evidence unit as the retrieval tools return it: the round's passage, its day."""
    passage = Round(round_id=uid, timestamp=f"{day}T13:00:00", user_text=text, metadata={"speaker": speaker}).text
    return {"unit_id": uid, "kind": "event", "date": day, "time": f"{day}T13:00:00", "order": 0, "round_ids": [uid], "text": passage}


# -- the passage says who spoke --------------------------------------------------------------------

def test_a_round_with_a_speaker_heads_its_words_with_the_name() -> None:
    r = Round(round_id="D1:1", user_text="I fed the vorrel.", metadata={"speaker": "Ilsabet Quorn"})
    assert r.text == "User (Ilsabet Quorn): I fed the vorrel."
    assert USER_HEAD.match(r.text).group("speaker") == "Ilsabet Quorn"


@pytest.mark.parametrize("metadata", [{}, {"speaker": "  "}, {"speaker": "Ana: the admin"}, {"speaker": "x (y)"}, {"speaker": 3}])
def test_a_round_without_a_usable_speaker_is_headed_user(metadata: dict) -> None:
    r = Round(round_id="r", user_text="Fed the vorrel.", metadata=metadata)
    assert r.text == "User: Fed the vorrel."
    assert USER_HEAD.match(r.text).group("speaker") is None


# -- when -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sentence, said_on, expected", [
    ("I went to the plimmet group yesterday.", date(2023, 5, 8), "7 May 2023"),
    ("We flew to Dravo yesterday!", date(2024, 3, 1), "29 February 2024"),  # a leap day
    ("Yesterday was the skell fair.", date(2024, 1, 1), "31 December 2023"),  # a year back
    ("the day before yesterday we met Orla", date(2023, 6, 1), "30 May 2023"),
    ("We went camping last week.", date(2023, 6, 9), "The week before 9 June 2023"),
    ("I ran the vask race last Friday.", date(2023, 7, 15), "The Friday before 15 July 2023"),
    ("We got Coco two weeks ago.", date(2023, 8, 11), "two weeks before 11 August 2023"),
    ("Started the quilt last month.", date(2024, 1, 12), "December 2023"),  # a year back
    ("I painted that last year.", date(2023, 5, 8), "2022"),
    ("I have been doing it since 2016.", date(2023, 5, 8), "Since 2016"),
    ("Got the tattoo a few years ago.", date(2023, 5, 8), "a few years ago"),
    ("I went to Plosk on 4 March.", date(2023, 5, 8), "4 March 2023"),
])
def test_a_relative_time_is_read_against_the_day_it_was_said(sentence: str, said_on: date, expected: str) -> None:
    assert when_said(sentence, said_on) == expected


def test_a_sentence_naming_no_time_leaves_the_day_it_was_said() -> None:
    assert when_said("The plimmet group was so welcoming.", date(2023, 5, 8)) is None
    assert say_day(date(2023, 5, 8)) == "8 May 2023"


# -- phatic sentences -----------------------------------------------------------------------------

@pytest.mark.parametrize("sentence", ["Thanks, Maria.", "Wow, that's so cool!", "Cool!", "That's gorgeous, Caroline!",
                                      "Hey Mel!", "Yeah, Maria.", "Thanks for asking, Mel!", "Maria!"])
def test_greetings_thanks_and_praise_are_phatic(sentence: str) -> None:
    assert is_phatic(sentence)


@pytest.mark.parametrize("sentence", ["I went to Spain and England last summer.", "Sure, I went to Spain and England.",
                                      "Yeah, it was my aunt.", "No, it was my aunt.", "Melanie, I adopted a dog.",
                                      "Yes, I ran a charity race for mental health last Saturday.", "3", "2025-10-18"])
def test_a_sentence_that_states_something_is_not_phatic(sentence: str) -> None:
    assert not is_phatic(sentence)


def test_a_phatic_sentence_naming_the_person_asked_about_is_no_answer() -> None:
    units = [{"unit_id": "E1", "text": "User (Brenna): Thanks, Oskel! Wow, Oskel!\nUser (Brenna): Oskel fixed the brell loom on Sunday."}]
    answer, _ = rules_answer("What did Oskel fix?", units, min_coverage=0.0)
    assert answer == "Oskel fixed the brell loom on Sunday."
    assert informative("Thanks, Oskel! What did you fix? I fixed the loom.") == "I fixed the loom."


# -- speakers -----------------------------------------------------------------------------------------

CONVERSATION = [
    turn("D1:1", "2023-05-08", "Caldra", "I went to the plimmet support group yesterday, it was so powerful."),
    turn("D1:2", "2023-05-08", "Wendl", "Thanks, Caldra! That's awesome, Caldra!"),
    turn("D1:3", "2023-05-08", "Wendl", "I ran a charity race for the vask shelter last Saturday."),
    turn("D1:4", "2023-05-08", "Caldra", "What made you pick the vask shelter?"),
    turn("D1:5", "2023-05-08", "Caldra", "My grandma gave me a silver necklace from Sweden."),
]


def test_a_question_names_one_speaker_by_name_or_shortened() -> None:
    assert asked_speaker("What did Caldra get from her grandma?", CONVERSATION) == "Caldra"
    assert asked_speaker("What did Wen and her kids make?", CONVERSATION) == "Wendl"
    assert asked_speaker("What did Caldra tell Wendl?", CONVERSATION) is None
    assert asked_speaker("What did Orla buy?", CONVERSATION) is None
    theo = [turn("T1", "2023-05-08", "Theo", "I baked a plimmet cake."), *CONVERSATION]
    assert asked_speaker("The plimmet cake, who baked it?", theo) is None  # "The" opens the question, it names nobody
    assert asked_speaker("What did Theo bake?", theo) == "Theo"


def test_a_question_about_one_speaker_is_read_from_her_own_turns() -> None:
    answer, cited = read_answer("What did Caldra's grandma give her?", CONVERSATION)
    assert cited == ["D1:5"] and "necklace" in answer


def test_what_only_the_other_speaker_did_is_not_mentioned() -> None:
    # Wendl ran the race; Caldra only asked about it
    assert read_answer("Why did Caldra run the charity race for the vask shelter?", CONVERSATION) == (NOT_MENTIONED, [])
    answer, cited = read_answer("Why did Wendl run the charity race?", CONVERSATION)
    assert cited == ["D1:3"]


def test_when_is_the_day_the_turn_means() -> None:
    answer, cited = read_answer("When did Caldra go to the plimmet support group?", CONVERSATION)
    assert (answer, cited) == ("7 May 2023", ["D1:1"])
    answer, _ = read_answer("When did Wendl run the charity race?", CONVERSATION)
    assert answer == "The Saturday before 8 May 2023"


def test_a_conversation_ingested_and_asked_end_to_end(home) -> None:
    rounds = [
        {"round_id": f"D1:{i + 1}", "session_id": "s1", "timestamp": "2023-05-08T13:56:00", "user_text": text,
         "metadata": {"speaker": who}}
        for i, (who, text) in enumerate([
            ("Caldra", "Hey Wendl! I went to the plimmet support group yesterday."),
            ("Wendl", "Wow, Caldra! I ran a charity race for the vask shelter last Saturday."),
            ("Caldra", "Thanks, Wendl! My grandma gave me a silver necklace from Sweden."),
            ("Wendl", "That's gorgeous, Caldra!"),
        ])]
    mem = Memory("talk")
    mem.ingest(rounds)
    assert mem.ask("When did Caldra go to the plimmet support group?").answer.startswith("7 May 2023")
    assert mem.ask("Why did Caldra run the charity race for the vask shelter?").answer.startswith(NOT_MENTIONED)


# -- the phrase that answers ----------------------------------------------------------------------

@pytest.mark.parametrize("question, sentence, expected", [
    ("Which instrument is Ivan learning?", "I just started learning the brellophone.", "the brellophone"),
    ("What kind of group did Oskel join?", "I joined a service-focused plimmet group last week and loved it.", "service-focused plimmet group"),
    ("What topic has Oskel been blogging about recently?", "Lately I've been blogging about vask and the skell council.",
     "vask and the skell council"),
    ("What book is Wendl reading?", "I'm reading \"The Quiet Orrin\" and hoping it helps.", "The Quiet Orrin"),
    ("What event is Wendl getting ready for?", "I'm busy getting ready for a plimmet fundraiser next week.", "a plimmet fundraiser"),
    ("What activity has Wendl been trying?", "To get stronger, I'm trying kundalini zarn.", "kundalini zarn"),
    ("What yoga has Wendl been trying?", "To get stronger, I'm trying kundalini yoga.", "kundalini yoga"),
])
def test_the_answer_is_what_the_sentence_adds_to_the_question(question: str, sentence: str, expected: str | None) -> None:
    assert answer_span(question, sentence) == expected


@pytest.mark.parametrize("question, sentence", [
    ("What event did Oskel join for the veterans?", "I joined a marching event for the veterans and it was awesome."),  # the tail is another clause
    ("What did Gina receive from a dance contest?", "Here's one of my trophies from a dance contest"),  # nothing after, nothing new before
    ("What did Oskel buy?", "I bought a thing that I will probably tell you all about some other day when we meet."),  # too long
])
def test_no_short_phrase_when_the_sentence_does_not_give_one(question: str, sentence: str) -> None:
    assert answer_span(question, sentence) is None


def test_a_speaker_is_answered_with_the_phrase_an_assistant_with_its_sentence() -> None:
    question = "Which instrument is Ivan learning?"
    spoken = [turn("D1:2", "2023-05-08", "Ivan", "I just started learning the brellophone.")]
    assert read_answer(question, spoken)[0] == "the brellophone"
    explained = [{"unit_id": "E1", "kind": "event", "date": "2023-05-08", "text": "User: I just started learning the brellophone."}]
    assert read_answer(question, explained)[0] == "I just started learning the brellophone."


def test_a_count_is_over_the_turns_of_the_speaker_asked_about() -> None:
    units = [turn("D1:1", "2023-05-08", "Wendl", "We went to the beach with the kids, so much fun."),
             turn("D1:2", "2023-05-08", "Caldra", "I love the beach too, I went there yesterday."),
             turn("D2:1", "2023-06-08", "Wendl", "Another beach day today, the kids built a sandcastle."),
             turn("D3:1", "2023-07-08", "Wendl", "We hiked in the plimmet hills.")]
    assert read_answer("How many times has Wendl gone to the beach?", units) == ("2", ["D1:1", "D2:1"])
    assert read_answer("How many times has Caldra gone to the beach?", units) == ("1", ["D1:2"])
