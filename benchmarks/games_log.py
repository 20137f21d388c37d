"""Write match logs of an invented card game, for bench_analytic_dev.py.

    python benchmarks/games_log.py OUT [--seed N]...
    python benchmarks/bench_analytic_dev.py --systems adamm --data OUT

Each scenario is a log of matches - an opponent, a result, the turns played, a signed change of
rank, the decks - written the way players write them: prose ("Played Qaldo with my Ember Vell
deck: lost, 13 turns (-14).", "Just beat Mirren Sy's Skarrow."), a result screen's tiles
("'VICTORY' · vs Brekka · Thornak · 11 turns · +11 pts"), labelled fields ("Result: Won |
Opponent: Tollin | ..."), shorthand ("Skarrow vs Thornak (Qaldo): lost, 10t, -11"). Names and
decks are invented words, so only discovered structure can answer; results are English. Seeds
alternate two families of layouts. Questions: wins and losses, the win share, the turns of a
win, the rank change of a month, matches with and wins over an opponent, the most frequent
opponent, the longest match. Scored by ``eval/invented/score.py``.
"""

from __future__ import annotations

import random
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from log_sets import Entry, dialog, history, most_often, number, seeds_main  # noqa: E402
OPPONENTS = ["Tollin", "Vashti Orn", "Brekka", "Qaldo", "Mirren Sy"]
DECKS = ["Skarrow", "Brine", "Ember Vell", "Thornak"]
LAYOUTS = [
    ["Match vs {opp} ({od}) - {res} in {turns} turns, {delta} rank.", "{Res} against {opp} on {od}, {turns} turns. Rank {delta}.",
     "Played {opp} with my {md} deck: {res}, {turns} turns ({delta}).",
     "Screenshot of the match result: '{RES}' · vs {opp} · {od} · {turns} turns · {delta} pts"],
    ["{md} vs {od} ({opp}): {res}, {turns}t, {delta}", "Just {beat} {opp}'s {od}. {turns} turns, {delta} rank points.",
     "Result: {Res} | Opponent: {opp} | Their deck: {od} | My deck: {md} | Turns: {turns} | Rank: {delta}",
     "GG {opp}. {Res} with {md} in {turns} turns, rank {delta}."],
]
CHAT = ["Need a new sleeve set.", "Tournament next month, nervous.", "Ranked queue is slow tonight."]


def scenario(seed: int) -> tuple[dict, list[dict]]:
    """(dialog, records) of one log."""
    layouts = LAYOUTS[seed % len(LAYOUTS)]

    def match(rng: random.Random, day: date) -> Entry:
        opp, od, md = rng.choice(OPPONENTS), rng.choice(DECKS), rng.choice(DECKS)
        won = rng.random() < 0.55
        turns = rng.randint(6, 16)
        delta = rng.randint(8, 15) * (1 if won else -1)
        layout = rng.choice(layouts)
        res = "won" if won else "lost"
        text = layout.format(opp=opp, od=od, md=md, res=res, Res=res.capitalize(), RES="VICTORY" if won else "DEFEAT",
                             beat="beat" if won else "lost to", turns=turns, delta=f"{delta:+d}")
        fields = {"opponent": opp, "result": res, "turns": turns, "rank_delta": delta}
        fields.update({"my_deck": md} if "{md}" in layout else {})
        fields.update({"opponent_deck": od} if "{od}" in layout else {})
        return text, [(day, "match", fields)], "Logged."

    sessions, records = history(random.Random(seed), date(2025, 3, 1), date(2025, 5, 31), CHAT, 0.2, match)
    wins = [r for r in records if r["fields"]["result"] == "won"]
    qas = [
        number("CNT", "How many matches did I win?", len(wins)),
        number("CNT", "How many matches did I lose?", len(records) - len(wins)),
        number("AVG", "What share of my matches did I win, as a percentage?", round(100 * len(wins) / len(records), 1), 0.5),
        number("AVG", "How many turns did my wins last on average?", round(sum(r["fields"]["turns"] for r in wins) / len(wins), 2), 0.05),
        number("SUM", "What was my total rank change in April?",
               sum(r["fields"]["rank_delta"] for r in records if r["observed"].startswith("2025-04"))),
        number("MAX", "What was my longest match, in turns?", max(r["fields"]["turns"] for r in records)),
    ]
    for opp in OPPONENTS[:3]:
        mine = [r for r in records if r["fields"]["opponent"] == opp]
        qas.append(number("CNT", f"How many times did I play {opp}?", len(mine)))
        qas.append(number("CNT", f"How many times did I beat {opp}?", sum(r["fields"]["result"] == "won" for r in mine)))
    qas.append(most_often("Which opponent did I play most often?", "opponent", OPPONENTS, records))
    return dialog("games", sessions, qas), records


def main(argv: list[str] | None = None) -> int:
    return seeds_main(argv, __doc__, "games", scenario)


if __name__ == "__main__":
    sys.exit(main())
