"""What the generated log sets share (``kinds_log.py``, ``games_log.py``, ``spend_log.py``): a
history of sessions every one to three days, each of one to three rounds, some of them chat; and
a data set directory of dialogs, records and the scorer, as ``bench_analytic_dev.py`` reads it.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
from collections.abc import Callable, Iterable
from datetime import date, timedelta
from pathlib import Path

SCORER = Path(__file__).resolve().parents[1] / "eval" / "invented" / "score.py"

#: One logged round: (the user's text, its records as (day, record type, fields), the reply).
Entry = tuple[str, list[tuple[date, str, dict]], str]


def history(rng: random.Random, start: date, end: date, chat: list[str], chat_share: float,
            entry: Callable[[random.Random, date], Entry]) -> tuple[list[dict], list[dict]]:
    """(sessions, records) from ``start`` until ``end``: each round is a line of ``chat`` with
    probability ``chat_share``, else what ``entry(rng, day)`` writes."""
    sessions: list[dict] = []
    records: list[dict] = []
    day, n = start, 0
    while day < end:
        n += 1
        rounds: list[dict] = []
        for _ in range(rng.randint(1, 3)):
            rid = f"D{n}:{len(rounds) + 1}"
            if rng.random() < chat_share:
                rounds.append({"round": rid, "user": rng.choice(chat), "assistant": "Noted."})
                continue
            text, logged, reply = entry(rng, day)
            rounds.append({"round": rid, "user": text, "assistant": reply})
            records += [{"round": rid, "observed": d.isoformat(), "record_type": kind, "fields": fields} for d, kind, fields in logged]
        sessions.append({"session_id": f"D{n}", "date": day.isoformat(), "dialogues": rounds})
        day += timedelta(days=rng.randint(1, 3))
    return sessions, records


def write(out: str | Path, scenarios: Iterable[tuple[str, dict, list[dict]]]) -> None:
    """A data set directory: ``dialog/<name>.json``, ``records/<name>.jsonl`` and ``score.py``."""
    out = Path(out)
    for sub in ("dialog", "records"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SCORER, out / "score.py")
    for name, dialog, records in scenarios:
        (out / "dialog" / f"{name}.json").write_text(json.dumps(dialog, indent=1))
        (out / "records" / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
        print(f"{name}: {len(records)} records, {len(dialog['human-annotated QAs'])} questions")


def number(point: str, question: str, value: float, tolerance: float = 0) -> dict:
    """A question whose answer is a number."""
    return {"point": point, "question": question, "answer_value": value, "answer_type": "number", "tolerance": tolerance}


def most_often(question: str, field: str, values: list[str], records: list[dict]) -> dict:
    """A question whose answer is the value of ``field`` the records hold most often."""
    held = {v: sum(r["fields"].get(field) == v for r in records) for v in values}
    return {"point": "MAX", "question": question, "answer_value": max(held, key=held.get), "answer_type": "string",
            "tolerance": 0, "candidates": values}


def dialog(name: str, sessions: list[dict], qas: list[dict]) -> dict:
    """A scenario's dialog file, as analytic_dev writes it."""
    return {"character_profile": {"name": name}, "multi_session_dialogues": sessions, "human-annotated QAs": qas}


def seeds_main(argv: list[str] | None, doc: str, prefix: str, scenario: Callable[[int], tuple[dict, list[dict]]]) -> int:
    """The command line of a generator whose scenarios vary by seed alone (default: 0 and 1)."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    p.add_argument("out", help="directory to write dialog/, records/ and score.py into")
    p.add_argument("--seed", type=int, action="append", help="one scenario per seed (default: 0 and 1)")
    args = p.parse_args(argv)
    write(args.out, ((f"{prefix}{seed}", *scenario(seed)) for seed in args.seed or range(2)))
    return 0
