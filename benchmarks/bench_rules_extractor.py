"""Speed of the offline ``labels`` extractor (:mod:`adamm.nodes.rules.labels`), in rounds per second.

    python benchmarks/bench_rules_extractor.py [DATA_DIR]

Times :func:`adamm.nodes.rules.labels.extract_round` over every round of the Mem-Gallery
dialogues in DATA_DIR (default ../shared/data/mem_gallery/dialog beside the repository; left
out when absent) and over 2,000 dense synthetic rounds (a dashboard caption with 8 values, a log
line, a reply), and prints rounds/s, best of 3, in CPU time - the figures the extractor's
docstring quotes.
"""

from __future__ import annotations

import argparse
import time
from datetime import datetime
from pathlib import Path

from adamm.formats.mem_gallery import load_mem_gallery
from adamm.nodes.rules.labels import extract_round
from adamm.stores.records import Round

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mem_gallery" / "dialog"


def _dashboard_rounds(n: int) -> list[Round]:
    """Dense synthetic rounds (a dashboard caption with 8 values, a log line, a reply)."""
    users = ["Here's last night's sleep.", "Logged my run: ran 5.2 km in 28:30 this morning, avg HR 148 bpm.",
             "Spent $12.40 on lunch and $4.50 on coffee today.", "We won 3-1 against the Hawks!",
             "How did I sleep this week?"]
    replies = ["You slept 6 h 45 min, a nice improvement over yesterday's 6 h 10 min.",
               "Great run! Your pace of 5:29 /km is faster than last week.", "Noted."]
    out = []
    for i in range(n):
        day = i % 28 + 1
        caption = (f"Sleep dashboard for Mar {day}: Total sleep {6 + i % 3}h {i % 60}m · Deep 1h 10m "
                   f"· REM 1h 32m · Resting HR {50 + i % 9} bpm · HRV 42 ms · Sleep score {70 + i % 25}")
        out.append(Round(round_id=f"r{i}", timestamp=datetime(2025, 3, day, 8), user_text=users[i % 5],
                         assistant_text=replies[i % 3],
                         images=[{"image_id": f"img{i}", "caption": caption}]))  # type: ignore[list-item]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA, help="Mem-Gallery dialog/*.json folder")
    args = parser.parse_args()
    sets = {"Mem-Gallery dialogues": [r for f in sorted(args.data.glob("*.json"))
                                      for r in load_mem_gallery(f).scenarios[0].rounds],
            "dense dashboard rounds": _dashboard_rounds(2000)}
    for label, rounds in sets.items():
        if not rounds:
            continue
        best, n = float("inf"), 0
        for _ in range(3):
            t0 = time.process_time()
            n = sum(len(extract_round(r)) for r in rounds)
            best = min(best, time.process_time() - t0)
        print(f"{label}: {len(rounds)} rounds, {n} drafts, {len(rounds) / best:,.0f} rounds/s "
              f"({best / len(rounds) * 1e3:.3f} ms a round, best of 3, CPU time)")


if __name__ == "__main__":
    main()
