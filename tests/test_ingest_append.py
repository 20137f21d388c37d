"""Ingest appends (issue 28): a second file of rounds without ``order`` continues the memory's
history after its last round, so the context shown around a new round is the rounds next to it
in time - not rounds of the first file that happened to get the same numbers.

Real files through the real ``adamm ingest``, read back through the stores and EventLocate.
"""

from __future__ import annotations

import json
from pathlib import Path

from adamm.cli import main
from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.retrieval import event_locate

MEMORY = "ada"

LIFE = [("2025-01-06", "Repotted the fern into a bigger terracotta pot."),
        ("2025-01-07", "Finished reading the lighthouse keeper novel."),
        ("2025-01-08", "Fixed the squeaky hinge on the garden gate."),
        ("2025-01-09", "Tried a new lentil soup recipe with cumin."),
        ("2025-01-10", "Booked the dentist appointment for March.")]
WEEK7 = [("2025-02-17", "We adopted a grey kitten and named her Miso."),
         ("2025-02-18", "Miso chewed through the laptop charger cable."),
         ("2025-02-19", "Took Miso to the vet for her first vaccination.")]


def write(path: Path, prefix: str, days: list[tuple[str, str]]) -> Path:
    """A plain JSONL file: no ``order`` field, as a person writes one."""
    lines = [json.dumps({"round_id": f"{prefix}{i}", "session_id": day, "timestamp": f"{day}T20:00:00", "user_text": text})
             for i, (day, text) in enumerate(days)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def orders(memory_id: str) -> dict[str, int]:
    return {r.round_id: r.order for r in backends(Context()).sql.get_rounds(memory_id)}


def test_a_second_file_continues_after_the_first_and_context_stays_local(home, tmp_path, capsys) -> None:
    life, week7 = write(tmp_path / "life.jsonl", "life", LIFE), write(tmp_path / "week7.jsonl", "w7-", WEEK7)
    assert main(["ingest", str(life), "--memory-id", MEMORY]) == 0
    assert main(["ingest", str(week7), "--memory-id", MEMORY]) == 0
    assert "3 new" in capsys.readouterr().out
    history = [f"life{i}" for i in range(len(LIFE))] + [f"w7-{i}" for i in range(len(WEEK7))]
    assert orders(MEMORY) == {rid: i for i, rid in enumerate(history)}

    # the context around each new round: its neighbours in the history, nothing from weeks earlier
    for i, (_, text) in enumerate(WEEK7):
        rid = f"w7-{i}"
        [unit] = [u for u in event_locate(Context(), MEMORY, text, result_budget=8, window=1) if u.round_ids == [rid]]
        at = history.index(rid)
        assert [c["round_id"] for c in unit.context] == [history[at - 1], *history[at + 1:at + 2]]
    first = next(u for u in event_locate(Context(), MEMORY, WEEK7[0][1], result_budget=8, window=1) if u.round_ids == ["w7-0"])
    assert [c["round_id"] for c in first.context] == ["life4", "w7-1"]

    # re-sending either file changes nothing: every round keeps its place
    assert main(["ingest", str(week7), "--memory-id", MEMORY]) == 0
    assert main(["ingest", str(life), "--memory-id", MEMORY]) == 0
    assert "0 new, 0 updated, 5 unchanged" in capsys.readouterr().out
    assert orders(MEMORY) == {rid: i for i, rid in enumerate(history)}


def test_a_changed_round_keeps_its_place_and_new_ones_follow_the_last(home, tmp_path, capsys) -> None:
    """An updated round (same id, new text) is not moved to the end; a file mixing known and
    new rounds numbers only the new ones, after the memory's last round."""
    assert main(["ingest", str(write(tmp_path / "one.jsonl", "r", LIFE[:1])), "--memory-id", MEMORY]) == 0
    assert orders(MEMORY) == {"r0": 0}
    changed = [(LIFE[0][0], "Repotted the fern and the cactus."), *LIFE[1:3]]
    assert main(["ingest", str(write(tmp_path / "more.jsonl", "r", changed)), "--memory-id", MEMORY]) == 0
    assert "(2 new, 1 updated, 0 unchanged)" in capsys.readouterr().out
    assert orders(MEMORY) == {"r0": 0, "r1": 1, "r2": 2}  # a memory whose last order is 0 continues at 1
    explicit = tmp_path / "explicit.jsonl"
    explicit.write_text(json.dumps({"round_id": "x9", "order": 9, "user_text": "Numbered by hand."}) + "\n"
                        + json.dumps({"round_id": "x10", "user_text": "After the hand-numbered one."}) + "\n", encoding="utf-8")
    assert main(["ingest", str(explicit), "--memory-id", MEMORY]) == 0
    assert orders(MEMORY) == {"r0": 0, "r1": 1, "r2": 2, "x9": 9, "x10": 10}
