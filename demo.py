"""A small built-in history for ``adamm demo``: two weeks of one (fictional) person's chats.

It mixes what adamm is built for: recurring dashboard screenshots (sleep, captured as the
caption a phone would attach), free conversation (baking, a trip) and images with captions.
"""

from __future__ import annotations

from adamm.stores.records import ImageRef, Round

DEMO_MEMORY = "demo"

_SLEEP = [
    # day, total sleep, deep sleep, resting heart rate, sleep score
    ("2025-03-03", "6 h 40 min", "1 h 05 min", 56, 78),
    ("2025-03-04", "7 h 15 min", "1 h 20 min", 54, 84),
    ("2025-03-05", "5 h 50 min", "0 h 55 min", 58, 69),
    ("2025-03-06", "7 h 05 min", "1 h 15 min", 55, 82),
    ("2025-03-07", "6 h 30 min", "1 h 00 min", 57, 76),
]

_CHAT = [
    ("2025-03-03T19:10:00", "I want to bake my first sourdough loaf this weekend. What oven temperature should I use?",
     "Bake sourdough at 250 °C with the lid on for 20 minutes, then 230 °C uncovered for about 25 minutes until deep brown.", None),
    ("2025-03-04T20:02:00", "My starter smells like nail polish remover. Is it ruined?",
     "No. An acetone smell means the starter is hungry; feed it twice a day at a 1:1:1 ratio for two days.", None),
    ("2025-03-08T11:30:00", "Here is the loaf I baked this morning!",
     "Beautiful ear and an open crumb: the long cold proof paid off.",
     ImageRef(image_id="IMG_loaf", caption="A round sourdough loaf with a crisp dark crust and a tall ear, on a wire rack")),
    ("2025-03-12T09:15:00", "We just landed in Lisbon. Which museum should we see first?",
     "Start with the Calouste Gulbenkian Museum; its collection runs from Egyptian art to Lalique jewellery.", None),
    ("2025-03-13T18:40:00", "We went to the Gulbenkian today and then took tram 28 up to Alfama.",
     "Tram 28 is a classic; in Alfama, the Miradouro de Santa Luzia has the best view at sunset.",
     ImageRef(image_id="IMG_tram", caption="A yellow tram 28 climbing a narrow street in Alfama, Lisbon")),
]

DEMO_QUESTIONS = [
    "What was my average sleep score?",
    "On which day did I get the least deep sleep?",
    "How many nights did I sleep less than 7 hours?",
    "What oven temperature should I bake sourdough at?",
    "Which museum did we visit in Lisbon?",
    "Why did my starter smell like nail polish remover?",
    "What was my deep sleep on March 5?",
    "What is my dog's name?",
]


def demo_rounds() -> list[Round]:
    rounds: list[Round] = []
    for day, total, deep, hr, score in _SLEEP:
        rounds.append(Round(
            round_id=f"sleep-{day}", session_id=f"s-{day}", timestamp=f"{day}T07:30:00",
            user_text=f"Logging last night's sleep ({day}).",
            assistant_text=f"Noted: {total} of sleep on {day}, sleep score {score}.",
            images=[ImageRef(image_id=f"IMG_sleep_{day}", caption=(
                f"Sleep app dashboard for {day}: total sleep {total}, deep sleep {deep}, "
                f"resting heart rate {hr} bpm, sleep score {score}"))],
        ))
    for i, (ts, user, assistant, image) in enumerate(_CHAT):
        rounds.append(Round(round_id=f"chat-{i + 1}", session_id=f"c-{ts[:10]}", timestamp=ts,
                            user_text=user, assistant_text=assistant, images=[image] if image else []))
    rounds.sort(key=lambda r: r.timestamp)
    return rounds
