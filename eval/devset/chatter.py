"""Ordinary conversation for the development history: the rounds that hold no record.

Split from :mod:`adamm.eval.devset.history`: the chatter bank is data (cooking, travel, work,
books, and hard negatives that talk about the logged topics without numbers), and the promise
it keeps - no quantity of a logged kind, only the digits of :data:`CHATTER_NUMBERS` - is
checked against this module alone.
"""

from __future__ import annotations

import random

#: The only phrases with digits that chatter rounds contain (all harmless: not a logged kind).
CHATTER_NUMBERS: tuple[str, ...] = (
    "2 eggs",
    "3 eggs",
    "3 cloves of garlic",
    "200 g of flour",
    "chapter 7",
    "4 of us",
)

_CITIES = {
    "Lisbon": ("the Belém Tower", "pastéis de nata"),
    "Kyoto": ("Fushimi Inari", "matcha sweets in Gion"),
    "Barcelona": ("the Sagrada Família", "tapas in El Born"),
    "Montreal": ("the Old Port", "wood-fired bagels"),
    "Edinburgh": ("Arthur's Seat", "a proper Scotch pie"),
    "Vienna": ("Schönbrunn Palace", "Sachertorte at a coffee house"),
}
_VEG = ("spinach", "cauliflower", "sweet potato", "zucchini", "eggplant")
_PROJECTS = ("billing", "onboarding", "search", "reporting")
_BOOKS = ("Middlemarch", "The Overstory", "Piranesi", "The Name of the Rose")


def chatter_exchange(rng: random.Random, deck: list[int]) -> tuple[str, str]:
    """One exchange of ordinary conversation; ``deck`` deals the topics without repeats."""
    veg, project, book = rng.choice(_VEG), rng.choice(_PROJECTS), rng.choice(_BOOKS)
    city = rng.choice(list(_CITIES))
    sight, food = _CITIES[city]
    bank = [
        (f"What can I cook for dinner with {veg} and chickpeas?",
         f"Try a {veg} and chickpea curry: soften onion and ginger, add spices, then simmer with coconut milk."),
        ("Can I use 2 eggs instead of 3 eggs in banana bread?",
         "Yes. Add a spoon of yogurt to make up for the moisture and it will bake just fine."),
        ("How do I keep pancakes fluffy?",
         "Don't overmix the batter, let it rest, and make sure your baking powder is fresh."),
        ("Is 3 cloves of garlic too much for a simple tomato sauce?",
         "Not at all; slice them thinly and let them sizzle gently so they turn sweet, not bitter."),
        ("I have 200 g of flour left. Enough for a pizza dough?",
         "Enough for one thin pizza: add water, salt and a little yeast, and give it a long rise."),
        ("We're hosting dinner, 4 of us. Any easy vegetarian main?",
         f"A roasted {veg} tart with feta and herbs is easy to prepare ahead and looks great."),
        (f"We're thinking about a weekend in {city}. What should we not miss?",
         f"Don't miss {sight}, and save an afternoon for {food}."),
        (f"Is {city} walkable or should we rent a car?",
         f"The centre of {city} is very walkable; public transport covers the rest."),
        ("Any tips for packing light for a city break?",
         "One pair of comfortable shoes, layers in neutral colours, and a small toiletry bag."),
        (f"How do I tell my manager the {project} deadline is unrealistic?",
         "Bring a concrete alternative: what can ship by the date, and what needs more time and why."),
        (f"Can you help me write a short update for the team about the {project} project?",
         f"Sure: 'The {project} work is on track; the main risk is review capacity next week.'"),
        ("Any tips for running a shorter weekly meeting?",
         "Share the agenda in advance, timebox each topic and move status updates to a written note."),
        (f"I just finished chapter 7 of {book}. Is it worth pushing through?",
         f"Most readers say {book} rewards patience; the second half pulls the threads together."),
        ("My basil keeps wilting on the balcony. What am I doing wrong?",
         "Probably too much afternoon sun and too little water; move it to morning light and water deeply."),
        ("Can you recommend a podcast for my commute?",
         "Try a narrative history podcast; episodes are self-contained and easy to pick up."),
        ("I've been sleeping badly this week. Any tips?",
         "Keep a regular wake time, cut caffeine after lunch and keep the bedroom cool and dark."),
        ("Thinking about signing up for a half marathon in the autumn. Good idea?",
         "If you already run regularly, a gradual plan with one long run a week gets you there comfortably."),
        ("Should I set a budget for eating out?",
         "A monthly envelope for restaurants works well: you see the remainder and adjust without guilt."),
        ("My CGM sensor itches after a few days. Is that normal?",
         "Mild irritation is common; an adhesive barrier wipe under the patch often helps."),
        ("Our team needs a new goalkeeper for the league. How do we recruit one?",
         "Post in the league's group chat and invite people to a friendly practice session."),
        ("What's a good stretch after a long day at the desk?",
         "A doorway chest stretch and a slow forward fold both undo a lot of sitting."),
    ]
    if not deck:
        deck.extend(range(len(bank)))
        rng.shuffle(deck)
    return bank[deck.pop()]
