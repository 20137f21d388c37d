"""The rounds that hold no record: small talk, distractors and the one-off facts RET asks about.

Split from the history generator because these rounds are where a memory can go wrong in the
other direction: another person's value ("my cousin got 19 qz of vrell"), a plan or a hedge
("I want to reach 20 qz next week", "should be around 15"), a question with a number in it -
all in the domain's own words and units, none of them an observation. Small talk has no digits
at all. Each :class:`Fact` is stated in exactly one round and carries its own RET question.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from adamm.eval.invented.dates import md
from adamm.eval.invented.domain import Domain, NumField
from adamm.eval.invented.units import number, quantize
from adamm.eval.invented.words import Lexicon

SMALL_TALK: tuple[tuple[str, str], ...] = (
    ("Rainy again here, the garden is loving it.", "A good soak saves you watering for a while."),
    ("Any idea for a quick dinner tonight? I'm tired.", "An omelette with whatever greens you have is fast and filling."),
    ("My neighbour's dog barked half the night.", "That's rough. Earplugs or a fan for white noise can take the edge off."),
    ("I finally cleaned out the hallway cupboard.", "That always feels good once it's done."),
    ("Thinking of repainting the kitchen, maybe a pale green.", "Pale green is calm and goes well with wood."),
    ("Work was hectic, lots of meetings.", "Try blocking an hour of focus time in your calendar for tomorrow."),
    ("I started a new novel, a slow one so far.", "Slow openings often pay off; give it a few chapters."),
    ("My sister is visiting at the weekend.", "Nice! Anything planned?"),
    ("We're thinking of a short trip to the coast.", "Sea air and long walks, a good reset."),
    ("The bakery on the corner closed down, sadly.", "A pity. Maybe a new one will open in its place."),
    ("I've been trying to drink more water.", "A bottle on the desk is the easiest reminder."),
    ("The car needs new wipers before it rains again.", "They're usually quick to swap yourself."),
    ("Any tips for keeping houseplants alive?", "Most die from too much water; let the soil dry between waterings."),
    ("I'm learning to make bread at home.", "Start with a simple no-knead loaf; it's very forgiving."),
    ("My phone battery is dying so fast lately.", "Check which apps run in the background; one is often the culprit."),
    ("Had a lovely chat with an old friend.", "Those conversations are worth a lot."),
    ("I'm so behind on emails.", "Clear the quick replies first; the rest feels smaller afterwards."),
    ("Is it worth getting a standing desk?", "Many people like alternating; a cheap riser lets you try first."),
    ("The kids want a cat now.", "A big decision; maybe foster one first to see how it goes."),
    ("Watched a great documentary about deep sea creatures.", "The deep sea is endlessly strange."),
    ("I'm trying to cut down on coffee.", "Swapping the afternoon cup for tea is a gentle start."),
    ("My knee was a bit stiff this morning.", "Gentle movement and warmth usually help; see someone if it lingers."),
    ("We repotted the lemon tree.", "It should thank you with new growth soon."),
    ("There's a street market in town this weekend.", "Go early for the best stalls."),
)
OPENERS = ("Hi again!", "Hello!", "Morning!", "Hey, back again.", "Hi, quick check-in.")
CLOSERS = (("That's all for now, thanks.", "Talk soon!"), ("Right, off I go.", "Take care."),
           ("Thanks, bye for now.", "Bye!"), ("Okay, that's everything.", "Great, see you next time."))
_RELATIVES = ("cousin", "sister", "brother", "friend", "neighbour", "colleague")
_ROLES = ("coach", "mentor", "trainer", "instructor")
_PLACES = ("shed", "hall", "depot", "workshop", "studio")
_EVENTS = ("meet", "fair", "cup", "open day", "gathering")
_GEAR = ("kit bag", "timer", "scale", "measuring set", "headlamp")


def _value_text(f: NumField, v: Decimal) -> str:
    m = f.measure
    if m.kind == "money":
        return f"€{v:.2f}" if m.symbol == "EUR" else f"${v:.2f}"
    if m.kind == "duration":
        return f"{int(v)} minutes"
    digits = number(v, m.decimals)
    return f"{digits} {m.symbol}" if m.symbol else digits


def _plausible(f: NumField, rng: random.Random, scale: float = 1.0) -> Decimal:
    places = 0 if f.measure.kind == "duration" else f.measure.decimals
    return quantize(Decimal(f"{float(f.mean) * scale * rng.uniform(0.8, 1.3):.4f}"), places)


def distractor(dom: Domain, lex: Lexicon, rng: random.Random, goal_field: str = "") -> tuple[str, str]:
    """One exchange with a number that is not an observation of the user's own (never a plan
    for ``goal_field``, whose goal a RET question asks for)."""
    f = rng.choice(dom.nums)
    v = _value_text(f, _plausible(f, rng))
    kind = rng.choice(("other", "plan", "hedge", "question"))
    if f.key == goal_field and kind in ("plan", "hedge"):
        kind = "other"
    if kind == "other":
        who = lex.person(rng)[0]
        return (f"My {rng.choice(_RELATIVES)} {who} got {v} of {f.label} on their last {dom.thing}.",
                rng.choice((f"Good for {who}!", "Everyone's pace is different.", f"Sounds like {who} had a good day.")))
    if kind == "plan":
        return (rng.choice((f"I want to reach {v} of {f.label} next week.", f"Next month I'm aiming for {v} {f.label}.")),
                "A clear aim helps. Build up to it gradually.")
    if kind == "hedge":
        return (rng.choice((f"The next one should be around {v} of {f.label}, I think.",
                            f"I'd guess my {f.label} will be about {v} next time.")),
                "We'll see when you log it.")
    return (f"Is {v} of {f.label} a lot for {'an' if dom.kind[0] in 'aeiou' else 'a'} {dom.thing}?",
            "There's no fixed rule; what matters is how it compares with your own log over time.")


@dataclass
class Fact:
    """A one-off statement and the RET question it answers."""

    kind: str
    user: str
    assistant: str
    question: str
    answer: str
    value: str | int | float
    atype: str  #: "number" | "string" | "date"
    unit: str | None = None
    tolerance: float = 0
    round: str = ""
    target: Decimal | None = None  #: for a "target" fact: the goal, for its multi-hop question
    field: str = ""  #: for a "target" fact: the field's key


FACT_KINDS = ("target", "person", "place", "date", "fee", "brand", "count")


def goal_field(dom: Domain, rng: random.Random, values: dict[str, list[Decimal]]) -> str:
    """The field a "target" fact sets a goal for (chosen before the sessions, so that no
    distractor states another plan for it)."""
    return rng.choice([f.key for f in dom.nums if f.measure.kind != "money" and len(values[f.key]) >= 8])


def make_fact(kind: str, dom: Domain, lex: Lexicon, rng: random.Random, day: date,
              values: dict[str, list[Decimal]], goal: str = "") -> Fact:
    """A fact of ``kind`` stated in a session of ``day``; ``values`` are the logged values per
    numeric field (a target for ``goal`` sits among them: some records reach it, some do not)."""
    if kind == "target":
        f = dom.num(goal)
        xs = sorted(values[f.key])
        raw = xs[int(len(xs) * rng.uniform(0.55, 0.75))]
        step = Decimal(5) if raw >= 20 else Decimal(1)
        goal = (raw / step).quantize(Decimal(1)) * step
        while goal in xs or goal <= 0:
            goal += step / 2 if f.measure.decimals else step
        text = _value_text(f, goal)
        m = f.measure
        return Fact(kind, f"My goal from now on is {text} of {f.label} per {dom.noun}.", "A good goal. I'll keep it in mind.",
                    f"What {f.label} goal per {dom.noun} did I set myself?", f"{text} per {dom.noun}.",
                    _num(goal), "number", m.qa_unit, 0.05 if m.decimals else 0, target=goal, field=f.key)
    if kind == "person":
        first, last = lex.person(rng)
        role = rng.choice(_ROLES)
        return Fact(kind, f"I've got a {role} now, {first} {last}. We meet once a fortnight.",
                    f"Nice, a {role} makes a difference.", f"What is my {role}'s name?", f"{first} {last}.", last, "string")
    if kind == "place":
        name, place = lex.name(rng), rng.choice(_PLACES)
        return Fact(kind, f"From now on I keep all my {dom.kind} gear at the {name} {place}.", "Handy to have it in one place.",
                    f"Where do I keep my {dom.kind} gear now?", f"At the {name} {place}.", name, "string")
    if kind == "date":
        name, event = lex.name(rng), rng.choice(_EVENTS)
        when = day + timedelta(days=rng.randint(20, 60))
        return Fact(kind, f"The {name} {event} is on {md(when)}, and I've signed up!", "Exciting! Something to work towards.",
                    f"When is the {name} {event}?", f"{when.isoformat()}.", when.isoformat(), "date")
    if kind == "fee":
        club = lex.name(rng)
        cur = next((f.measure.symbol for f in dom.nums if f.measure.kind == "money"), rng.choice(("EUR", "USD")))
        fee = Decimal(rng.randint(12, 60)) + Decimal(rng.choice((0, 50, 90))) / 100
        text = f"€{fee:.2f}" if cur == "EUR" else f"${fee:.2f}"
        return Fact(kind, f"I joined the {club} club; it costs {text} a month.", "Sounds worth it if you use it.",
                    f"How much does my {club} club membership cost per month?", f"{text} a month.", _num(fee), "number",
                    cur, 0.01)
    if kind == "brand":
        brand, gear = lex.name(rng), rng.choice(_GEAR)
        return Fact(kind, f"I ordered a new {gear} from {brand}, the old one broke.", "Hope it arrives soon.",
                    f"Which maker did I order my new {gear} from?", f"From {brand}.", brand, "string")
    n = rng.randint(5, 19)
    return Fact("count", f"There are {n} of us in the {dom.kind} group now.", "A nice group size.",
                f"How many people are in my {dom.kind} group?", f"{n} people.", n, "number", "people", 0)


def _num(x: Decimal) -> int | float:
    return int(x) if x == x.to_integral_value() else float(str(x.normalize()))
