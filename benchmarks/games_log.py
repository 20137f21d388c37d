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

import argparse
import json
import random
import shutil
import sys
from datetime import date, timedelta
from pathlib import Path

SCORER = Path(__file__).resolve().parents[1] / "eval" / "invented" / "score.py"
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
    rng = random.Random(seed)
    layouts = LAYOUTS[seed % len(LAYOUTS)]
    records: list[dict] = []
    sessions = []
    day, n = date(2025, 3, 1), 0
    while day < date(2025, 5, 31):
        n += 1
        rounds = []
        for _ in range(rng.randint(1, 3)):
            rid = f"D{n}:{len(rounds) + 1}"
            if rng.random() < 0.2:
                rounds.append({"round": rid, "user": rng.choice(CHAT), "assistant": "Noted."})
                continue
            opp, od, md = rng.choice(OPPONENTS), rng.choice(DECKS), rng.choice(DECKS)
            won = rng.random() < 0.55
            turns = rng.randint(6, 16)
            delta = rng.randint(8, 15) * (1 if won else -1)
            layout = rng.choice(layouts)
            res = "won" if won else "lost"
            text = layout.format(opp=opp, od=od, md=md, res=res, Res=res.capitalize(), RES="VICTORY" if won else "DEFEAT",
                                 beat="beat" if won else "lost to",
                                 turns=turns, delta=f"{delta:+d}")
            rounds.append({"round": rid, "user": text, "assistant": "Logged."})
            fields = {"opponent": opp, "result": res, "turns": turns, "rank_delta": delta}
            fields.update({"my_deck": md} if "{md}" in layout else {})
            fields.update({"opponent_deck": od} if "{od}" in layout else {})
            records.append({"round": rid, "observed": day.isoformat(), "record_type": "match", "fields": fields})
        sessions.append({"session_id": f"D{n}", "date": day.isoformat(), "dialogues": rounds})
        day += timedelta(days=rng.randint(1, 3))
    wins = [r for r in records if r["fields"]["result"] == "won"]

    def number(point: str, question: str, value: float, tolerance: float = 0) -> dict:
        return {"point": point, "question": question, "answer_value": value, "answer_type": "number", "tolerance": tolerance}

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
    played = {o: sum(r["fields"]["opponent"] == o for r in records) for o in OPPONENTS}
    qas.append({"point": "MAX", "question": "Which opponent did I play most often?", "answer_value": max(played, key=played.get),
                "answer_type": "string", "tolerance": 0, "candidates": OPPONENTS})
    return {"character_profile": {"name": "games"}, "multi_session_dialogues": sessions, "human-annotated QAs": qas}, records


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", help="directory to write dialog/, records/ and score.py into")
    p.add_argument("--seed", type=int, action="append", help="one scenario per seed (default: 0 and 1)")
    args = p.parse_args(argv)
    out = Path(args.out)
    for sub in ("dialog", "records"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SCORER, out / "score.py")
    for seed in args.seed or range(2):
        dialog, records = scenario(seed)
        name = f"games{seed}"
        (out / "dialog" / f"{name}.json").write_text(json.dumps(dialog, indent=1))
        (out / "records" / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
        print(f"{name}: {len(records)} records, {len(dialog['human-annotated QAs'])} questions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
