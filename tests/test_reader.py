"""The offline reader: the answer type a question asks for, read from retrieved rounds only.

Evidence units are written here in the shape the query graph's retrieval tools return (text with
"User:" / "Assistant:" lines and "[image ID] caption" lines, the round's date and order).
"""

from __future__ import annotations

import pytest

from adamm.nodes.questions import NOT_MENTIONED
from adamm.nodes.rules.reader import answer_type, read_answer, unsaid
from adamm.stores.bm25 import tokenize


def unit(uid: str, day: str, order: int, user: str, assistant: str = "", images: dict[str, str] | None = None) -> dict:
    lines = [f"User: {user}"] + ([f"Assistant: {assistant}"] if assistant else [])
    lines += [f"[image {i}] {c}" for i, c in (images or {}).items()]
    return {"unit_id": uid, "kind": "event", "date": day, "time": f"{day}T10:00:00", "order": order,
            "round_ids": [uid.lower()], "image_ids": list(images or {}), "text": "\n".join(lines)}


ROUNDS = [
    unit("E1", "2024-07-02", 3, "Here are the tools I bought for the baking class.", "Nice set!",
         {"D2:IMG_001": "A wooden rolling pin, a whisk and measuring cups on a kitchen table"}),
    unit("E2", "2024-07-28", 9, "I spent a quiet afternoon at the library reading cookbooks.", "Sounds lovely."),
    unit("E3", "2024-08-03", 12, "Our neighbour's beagle visited again. His name is Karl.", "Such a classic Beagle.",
         {"D4:IMG_002": "A beagle sitting on a doormat"}),
    unit("E4", "2024-06-10", 1, "The recipe says to bake at 180 °C for about 15 minutes.", "Keep an eye on the colour.",
         {"D1:IMG_001": "A tray of lemon cookies before baking"}),
    unit("E6", "2024-08-22", 16, "We adopted a beagle puppy and named him Biscuit. His vet appointment is on Friday at 10:00."),
    unit("E5", "2024-08-20", 15, "Two more cookie photos from the weekend.", "They look crisp.",
         {"D5:IMG_001": "Lemon cookies cooling on a rack", "D5:IMG_002": "A stack of lemon cookies on a plate"}),
]
KNOWN = frozenset(w for u in ROUNDS for w in tokenize(u["text"]))


@pytest.mark.parametrize("question, kind", [
    ("Which image shows the baking tools?", "image"),
    ("Which of the pictures shared in July 2024 is about the baking tools?", "image"),
    ("How many images show lemon cookies? Please answer using an Arabic numeral.", "count"),
    ("On which date did Maya have the quiet afternoon at the library? Return in the format YYYY-MM-DD.", "date"),
    ("Did Maya visit the library before the beagle came?", "order"),
    ("Did Maya mention lemon cookies?", "yesno"),
    ("What is the name of the neighbour's beagle?", "name"),
    ("Do you remember what Maya said about baking temperature?", "span"),
    ("What temperature should cookies be baked at?", "quantity"),
])
def test_the_answer_type_comes_from_the_question(question: str, kind: str) -> None:
    assert answer_type(question) == kind


def test_an_image_question_answers_the_image_whose_caption_fits() -> None:
    assert read_answer("Which image shows the baking tools?", ROUNDS)[0] == "D2:IMG_001"
    assert read_answer("Which picture shows a dog on a doormat?", ROUNDS)[0] == "D4:IMG_002"


def test_a_count_is_the_distinct_images_that_name_the_thing() -> None:
    answer, cited = read_answer("How many images show lemon cookies? Please answer using an Arabic numeral.", ROUNDS)
    assert answer == "3" and set(cited) == {"E4", "E5"}


def test_a_number_said_of_the_counted_thing_is_the_answer() -> None:
    rounds = [unit("E1", "2025-03-01", 1, "For the record, the car is a 2017 estate, petrol. The tank takes 55 litres."),
              unit("E2", "2025-03-02", 2, "Filled up 41 litres today.")]
    assert read_answer("How many litres does my car's tank hold?", rounds) == ("55", ["E1"])


def test_a_date_is_the_day_of_the_round_that_holds_the_event() -> None:
    q = "On which date did Maya have the quiet afternoon at the library? Return in the format YYYY-MM-DD."
    assert read_answer(q, ROUNDS, known=KNOWN) == ("2024-07-28", ["E2"])


def test_order_of_two_events_from_their_rounds() -> None:
    assert read_answer("Did Maya read cookbooks at the library before the beagle named Karl visited?", ROUNDS)[0] == "Yes."
    assert read_answer("Did the beagle Karl visit after the library afternoon?", ROUNDS)[0] == "Yes."
    assert read_answer("Did the beagle Karl visit before the library afternoon?", ROUNDS)[0] == "No."
    assert read_answer("Did the beagle visit before or after the afternoon at the library?", ROUNDS)[0] == "After."


def test_a_name_is_read_where_the_round_names_it() -> None:
    assert read_answer("What is the name of the neighbour's beagle?", ROUNDS, known=KNOWN)[0] == "Karl"


def test_when_is_the_day_the_round_names_else_the_rounds_day() -> None:
    assert read_answer("When is the puppy's vet appointment?", ROUNDS, known=KNOWN)[0] == "on Friday at 10:00"
    q = "When is the puppy's vet appointment? Return in the format YYYY-MM-DD."
    assert read_answer(q, ROUNDS, known=KNOWN)[0] == "2024-08-22"  # the format asks for the round's day


def test_a_name_given_to_someone() -> None:
    assert read_answer("What is the puppy called?", ROUNDS, known=KNOWN)[0] == "Biscuit"


def test_a_mention_is_yes_only_when_one_round_holds_it() -> None:
    assert read_answer("Did Maya mention lemon cookies?", ROUNDS, known=KNOWN)[0] == "Yes."
    assert read_answer("Did Maya mention making brownies?", ROUNDS, known=KNOWN)[0] == NOT_MENTIONED


def test_words_the_memory_never_said_are_declined_whatever_the_rounds_share() -> None:
    """"Did Maya discuss making sourdough bread?" shares "making" and "bread"-free words with the
    baking rounds, but the memory never said "sourdough": no answer is read from them."""
    assert unsaid("Did Maya discuss making sourdough bread?", KNOWN) == ["sourdough", "bread"]
    assert read_answer("Did Maya discuss making sourdough bread?", ROUNDS, known=KNOWN)[0] == NOT_MENTIONED
    # the question's own verbs and names are no reason to decline ("bought" / "buy", "Maya")
    assert unsaid("Which tools did Maya buy for the baking class?", KNOWN) == []
    assert unsaid("Which beagle did I photograph?", KNOWN) == []


def test_a_value_question_gets_the_value_of_its_kind() -> None:
    assert read_answer("What temperature should cookies be baked at?", ROUNDS, known=KNOWN) == ("180 °C", ["E4"])
    assert read_answer("How long should the cookies bake?", ROUNDS, known=KNOWN) == ("15 minutes", ["E4"])


def test_a_free_question_gets_the_sentence_that_answers_it() -> None:
    answer, cited = read_answer("What did the assistant say about the colour of the cookies?", ROUNDS, known=KNOWN)
    assert answer == "Keep an eye on the colour." and cited == ["E4"]


def test_a_statement_is_checked_against_the_round_that_holds_it() -> None:
    q = "Does the statement 'the recipe says to bake at 180 °C for about 15 minutes' conflict with the conversation?"
    assert read_answer(q, ROUNDS)[0] == "No."
    q = "Does the statement 'the recipe never says to bake at 180 °C' conflict with the conversation?"
    assert read_answer(q, ROUNDS)[0] == "Yes."


def test_a_specific_thing_no_round_names_is_declined() -> None:
    """"Which specific brand ..." is not answered by rounds that only share its topic."""
    assert read_answer("Which specific brand of rolling pin did Maya buy for the baking class?", ROUNDS, known=KNOWN)[0] == NOT_MENTIONED
    assert read_answer("Did Maya photograph any roses at the library?", ROUNDS, known=KNOWN)[0] == NOT_MENTIONED


def test_what_the_picture_shows_is_the_name_the_rounds_give_it() -> None:
    rounds = [unit("E1", "2024-05-02", 1, "Here's the first photo!", "This is a **Myrtle Warbler**! They often show yellow patches.",
                   {"D9:IMG_001": "Small songbird with yellow patches on a branch"}),
              unit("E2", "2024-05-02", 2, "Another one scanning for insects.", "Myrtle Warblers often perch like this.")]
    q = "What specific species of animal is shown in the provided image?\n[image] Small songbird with yellow patches"
    assert answer_type(q) == "label" and read_answer(q, rounds)[0] == "Myrtle Warbler"


def test_a_place_the_memory_never_named_is_declined() -> None:
    assert read_answer("Which museum did we visit in Lisbon?", ROUNDS, known=KNOWN)[0] == NOT_MENTIONED
    assert read_answer("Which cookbooks did Maya read at the library?", ROUNDS, known=KNOWN)[0] != NOT_MENTIONED


@pytest.mark.parametrize("question, kind", [
    ("What helps when my sensor itches?", "span"),          # "when" inside a clause asks no date
    ("Is the new recipe worth trying, according to you?", "yesno"),
])
def test_when_asks_a_date_only_at_the_start(question: str, kind: str) -> None:
    assert answer_type(question) == kind


def test_advice_and_facts_about_the_user() -> None:
    # asked of the assistant ("do we need", "is it worth"): the reply is the answer, not yes / no
    rounds = [unit("E1", "2024-08-01", 1, "Is Montreal walkable or should we rent a car?",
                   "The centre of Montreal is very walkable; public transport covers the rest.")]
    known = frozenset(tokenize(rounds[0]["text"]))
    assert "walkable" in read_answer("Do we need a car in Montreal, or can we walk?", rounds, known=known)[0]
    # a fact about the user the memory never said is declined, not quoted from a near round
    assert read_answer("What's my favourite colour?", ROUNDS, known=KNOWN)[0] == NOT_MENTIONED


def test_nothing_retrieved_is_declined() -> None:
    assert read_answer("Which image shows the baking tools?", []) == (NOT_MENTIONED, [])


def test_the_name_beside_the_asked_thing() -> None:
    """"Who is my employer?", "what is my book club called?", "which card do I use?": the
    proper name a round writes right beside the thing - after a comma or a dash, after "is a",
    inside "my Quayside branch card" - not a capitalized word elsewhere in it."""
    rounds = [
        unit("E1", "2025-01-03", 1, "My employer, MoveWell Home Care, pays me a fuel allowance of €375 a month.", "Good to know."),
        unit("E2", "2025-01-05", 2, "I joined a book club — the Lamplight Readers. They meet on the last Thursday.", "Lovely!"),
        unit("E3", "2025-01-07", 3, "For the record, the car is a 2017 Alvea Kombi, petrol. Filled it at Ventra.", "Noted."),
        unit("E4", "2025-01-09", 4, "Audiobooks come from the library - I use my Quayside branch card for it.", "Handy."),
        unit("E5", "2025-01-11", 5, "My coach, I think, is too strict about Mondays.", "Rest matters."),
    ]
    assert read_answer("Who is my employer?", rounds) == ("MoveWell Home Care", ["E1"])
    assert read_answer("What is my book club called?", rounds)[0] == "Lamplight Readers"
    assert read_answer("What car do I drive?", rounds)[0] == "2017 Alvea Kombi"
    assert read_answer("Which library branch card do I use for audiobooks?", rounds)[0] == "Quayside"
    # a pronoun after the comma is no name: declined rather than "I"
    assert read_answer("What is my coach's name?", rounds)[0] == NOT_MENTIONED
    # a round that holds the coach but not the word "name" still answers "what is my coach's name"
    coach = unit("E6", "2025-01-12", 6, "My coach, Tom Aldous, wants my rides capped at 190 W for now.", "Sensible.")
    assert read_answer("What is my coach's name?", [rounds[4], coach, *rounds[:4]]) == ("Tom Aldous", ["E6"])
    assert answer_type("Which e-reader do I use?") == "name"


def test_which_thing_do_i_use_without_a_name_beside_it_reads_the_sentence() -> None:
    rounds = [unit("E1", "2025-02-01", 1, "For audiobooks I use the library app on my old phone.", "Handy.")]
    assert "library app" in read_answer("Which app do I use for audiobooks?", rounds)[0]


@pytest.mark.parametrize("said, name", [
    ("We finally named the sailboat Quillowen after my grandmother.", "Quillowen"),
    ("My sister calls her old sailboat Tarnby.", "Tarnby"),
    ("The new sailboat is called Vellamo, by the way.", "Vellamo"),
    ("The sailboat's name is Brumwick.", "Brumwick"),
    ("The name of the sailboat is Zerbo.", "Zerbo"),
    ("We bought a sailboat last week and called it Pomfrey.", "Pomfrey"),
    ("I kept a kayak named Mossgrove and a sailboat named Tindle.", "Tindle"),  # the asked thing's name, not the first
])
@pytest.mark.parametrize("question", [
    "What is the sailboat called?", "What is the name of the sailboat?", "What did we name the sailboat?",
    "What's the sailboat's name?", "What is our sailboat called?",
])
def test_a_name_question_finds_the_sentence_that_names_the_thing(said: str, name: str, question: str) -> None:
    """Every way of asking for a thing's name reads every way of giving it one (invented nouns
    and names, so nothing here is a word the rules could know)."""
    rounds = [unit("E1", "2025-04-01", 1, "The marina fees went up again this spring.", "That adds up."),
              unit("E2", "2025-04-02", 2, said, "What a lovely name.")]
    known = frozenset(w for u in rounds for w in tokenize(u["text"]))
    assert answer_type(question) == "name"
    assert read_answer(question, rounds, known=known) == (name, ["E2"])


@pytest.mark.parametrize("said, question, name", [
    ("Our tortoise's name is Brumwick.", "What is the tortoise called?", "Brumwick"),
    ("The greenhouse out back is called Vellamo.", "What is the name of the greenhouse?", "Vellamo"),
    ("We named the beagle puppy Biscuit.", "What is the puppy called?", "Biscuit"),  # "the puppy" finds "the beagle puppy"
    ("My sister calls her old hatchback Tarnby.", "What does my sister call her hatchback?", "Tarnby"),
    ("Lena adopted a ferret and named him Quorrin.", "What is the name of Lena's ferret?", "Quorrin"),
])
def test_names_given_to_other_things(said: str, question: str, name: str) -> None:
    rounds = [unit("E1", "2025-04-02", 1, said)]
    assert read_answer(question, rounds, known=frozenset(tokenize(rounds[0]["text"]))) == (name, ["E1"])


def test_no_name_given_is_no_name_read() -> None:
    """A capitalized day after the thing is not its name, and a thing the rounds never name is
    declined; "what did she call X" with only a common-noun answer quotes the sentence."""
    rounds = [unit("E1", "2025-04-02", 1, "I called the plumber Monday about the leak.")]
    known = frozenset(tokenize(rounds[0]["text"]))
    assert read_answer("What is the plumber called?", rounds, known=known)[0] == NOT_MENTIONED
    rounds = [unit("E1", "2025-04-02", 1, "My neighbour joked that the trail felt like a 'flower road'.")]
    known = frozenset(tokenize(rounds[0]["text"]))
    answer, cited = read_answer("What did my neighbour jokingly call the trail we walked on?", rounds, known=known)
    assert "flower road" in answer and cited == ["E1"]


def test_a_short_time_in_a_column_kept_in_weeks_is_said_in_a_unit_it_is_one_of() -> None:
    from adamm.nodes.rules.answerer import in_asked_unit

    value, unit = in_asked_unit(0.007, "wk", "What was the average length of his naps?")
    assert unit == "h" and round(value, 2) == 1.18
    assert in_asked_unit(0.5, "h", "How long were my naps?") == (0.5, "h")  # hours stay hours
    assert in_asked_unit(3.0, "wk", "How long was the trip?") == (3.0, "wk")
    value, unit = in_asked_unit(0.007, "wk", "How long were his naps, in minutes?")
    assert unit == "min" and round(value) == 71  # the unit asked for wins


def test_a_short_claim_is_yes_only_when_a_round_says_all_of_it() -> None:
    """"An insulated steel bottle" of a round about a plain steel one, while another round says
    "insulated" of a lunch bag: three of the four words are no yes. A long claim is paraphrased,
    most of its words are enough."""
    rounds = [unit("B1", "2024-05-02", 1, "I finally bought a steel water bottle for my rides."),
              unit("B2", "2024-05-03", 2, "My insulated lunch bag is falling apart."),
              unit("B3", "2024-05-04", 3, "The closet smells musty, so I will put bamboo charcoal bags and a few drops of "
                                          "essential oils in there to deal with the odor.")]
    known = frozenset(w for u in rounds for w in tokenize(u["text"]))
    assert read_answer("Did Liam buy an insulated steel water bottle?", rounds, known=known) == (NOT_MENTIONED, [])
    assert read_answer("Did Liam buy a steel water bottle?", rounds, known=known) == ("Yes.", ["B1"])
    question = "Has the user decided to use bamboo charcoal bags and essential oils to remove the odor from the closet?"
    assert read_answer(question, rounds, known=known) == ("Yes.", ["B3"])
