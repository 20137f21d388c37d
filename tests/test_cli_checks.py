"""The command line refuses typos and says what a memory is missing (issue 28, item 6).

A mistyped memory id or ``--home`` is exit 2 naming what exists, never a memory of zeros or a
new empty data directory; ``tables --show`` names the tables there are; ``ask --image`` gives
the query graph its image; a memory left half-derived by a killed ingest says so when asked,
and the rerun that finishes it says that too. Real files, real stores, a real SIGKILL.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from adamm.cli import main
from adamm.nodes.backends import reset_backends
from adamm.tests.scripts import env_for, write_jsonl as write

MEMORY = "ada"


def history() -> list[dict]:
    """Six sleep records (a table is discovered from them; one also gives a room temperature) and
    chat, one round with a photo."""
    rounds = [{"round_id": f"s{d}", "session_id": f"day{d}", "timestamp": f"2025-03-{d + 3:02d}T07:30:00",
               "user_text": f"Slept {6 + d % 3}h {(17 * d) % 60:02d}m last night, deep sleep 1h {(11 * d) % 50 + 5:02d}m."}
              for d in range(5)]
    rounds.append({"round_id": "loaf", "session_id": "bake", "timestamp": "2025-03-08T11:30:00",
                   "user_text": "Here is the loaf I baked this morning!", "assistant_text": "A beautiful crust.",
                   "images": [{"image_id": "IMG_loaf", "caption": "A round sourdough loaf with a dark crust on a wire rack"}]})
    rounds.append({"round_id": "warm", "session_id": "day5", "timestamp": "2025-03-09T07:30:00",
                   "user_text": "Slept 7h 10m last night, deep sleep 1h 20m, room temperature 19 °C."})
    rounds.append({"round_id": "tram", "session_id": "trip", "timestamp": "2025-03-13T18:40:00",
                   "user_text": "We took tram 28 up to Alfama."})
    return rounds


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """One data directory holding memory ``ada``, ingested once for the module."""
    root = tmp_path_factory.mktemp("cli-checks")
    data = write(root / "history.jsonl", history())
    assert main(["--home", str(root / "home"), "ingest", str(data), "--memory-id", MEMORY]) == 0
    reset_backends()
    return root / "home"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_an_unknown_memory_id_is_exit_2_naming_the_known_ones(built, capsys) -> None:
    for argv in (["stats"], ["tables"], ["ask", "How did I sleep?"], ["forget", "--all"], ["explain", "s0"]):
        code, out, err = run(capsys, "--home", str(built), *argv, "--memory-id", "adda")
        assert code == 2 and out == "", argv
        assert err.startswith("adamm: error: unknown memory 'adda'") and "'ada'" in err and err.count("\n") == 1, (argv, err)
    code, out, _ = run(capsys, "--home", str(built), "stats", "--memory-id", MEMORY, "--json")
    assert code == 0 and json.loads(out)["rounds"] == len(history())  # the forget above refused and removed nothing


def test_an_empty_data_directory_says_it_holds_no_memory(home, capsys) -> None:
    home.mkdir()
    code, out, err = run(capsys, "stats", "--memory-id", MEMORY)
    assert code == 2 and out == "" and "holds no memory yet" in err and "adamm ingest" in err


def test_home_must_exist_except_for_ingest(built, tmp_path, capsys) -> None:
    typo = tmp_path / "typo-home"
    for argv in (["stats", "--memory-id", MEMORY], ["tables", "--memory-id", MEMORY], ["ask", "How did I sleep?", "--memory-id", MEMORY],
                 ["forget", "--memory-id", MEMORY, "--all"], ["explain", "s0", "--memory-id", MEMORY]):
        code, out, err = run(capsys, "--home", str(typo), *argv)
        assert code == 2 and out == "" and f"--home {typo} does not exist" in err, (argv, err)
    assert not typo.exists()  # nothing was created
    (tmp_path / "a-file").write_text("x")
    code, _, err = run(capsys, "--home", str(tmp_path / "a-file"), "stats", "--memory-id", MEMORY)
    assert code == 2 and "is not a directory" in err
    data = write(tmp_path / "one.jsonl", history()[:1])
    code, out, _ = run(capsys, "--home", str(typo), "ingest", str(data), "--memory-id", MEMORY)
    assert code == 0 and "1 new" in out and typo.is_dir()  # ingest creates the data directory it is given


def test_tables_show_names_the_valid_tables_on_a_miss(built, capsys) -> None:
    code, out, _ = run(capsys, "--home", str(built), "tables", "--memory-id", MEMORY, "--json")
    names = [d["name"] for d in json.loads(out)]
    assert code == 0 and len(names) == 1
    code, out, err = run(capsys, "--home", str(built), "tables", "--memory-id", MEMORY, "--show", "sleeplog")
    assert code == 2 and out == "" and err == f"adamm: error: memory 'ada' has no table 'sleeplog'; its tables: {names[0]}\n"
    code, out, _ = run(capsys, "--home", str(built), "tables", "--memory-id", MEMORY, "--show", names[0])
    assert code == 0 and "s4 | 2025-03-07" in out


def test_ask_with_an_image_asks_about_it(built, tmp_path, capsys) -> None:
    photo = tmp_path / "photo.png"
    Image.new("RGB", (8, 8), "brown").save(photo)
    question = "When did I make this?"
    code, out, err = run(capsys, "--home", str(built), "ask", question, "--memory-id", MEMORY, "--image", str(photo),
                         "--caption", "a round sourdough loaf with a dark crust", "--json")
    result = json.loads(out)
    assert code == 0 and err == ""
    assert "2025-03-08" in result["answer"] and result["citations"][0] == {"round_id": "loaf", "image_ids": ["IMG_loaf"]}
    code, out, err = run(capsys, "--home", str(built), "ask", question, "--memory-id", MEMORY, "--image", str(photo))
    assert code == 0 and "--image without --caption" in err and "2025-03-08" not in out  # the caption is what the graph reads
    broken = tmp_path / "broken.png"
    broken.write_text("not an image")
    for path, reason in ((broken, "not a readable image"), (tmp_path / "missing.png", "image file not found")):
        code, out, err = run(capsys, "--home", str(built), "ask", question, "--memory-id", MEMORY, "--image", str(path))
        assert code == 2 and out == "" and err.startswith("adamm: error: --image:") and reason in err and str(path) in err
    code, _, err = run(capsys, "--home", str(built), "ask", question, "--memory-id", MEMORY, "--caption", "a loaf")
    assert code == 2 and "--caption" in err


def test_an_interrupted_ingest_is_named_by_ask_and_the_rerun_says_it_finished(tmp_path, capsys) -> None:
    """A real ``adamm ingest`` SIGKILLed at its first write of table induction (the stores'
    crash hook): every round is stored, none derived."""
    home = tmp_path / "home"
    data = write(tmp_path / "history.jsonl", history())
    argv = ["--home", str(home), "ingest", str(data), "--memory-id", MEMORY]
    killed = subprocess.run([sys.executable, "-m", "adamm", *argv], capture_output=True, text=True, timeout=300,
                            env={**env_for(home), "ADAMM_KILL_IN_NODE": "induce_tables", "ADAMM_KILL_AFTER_WRITES": "1"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    reset_backends()

    n = len(history())
    code, out, err = run(capsys, "--home", str(home), "ask", "How much deep sleep did I get?", "--memory-id", MEMORY)
    assert code == 0 and out  # it still answers from what there is ...
    assert f"{n} of {n} rounds of memory 'ada' are not fully derived" in err  # ... and says what is missing
    assert f"rerun the ingest (adamm ingest FILE --memory-id {MEMORY})" in err
    code, out, _ = run(capsys, "--home", str(home), "explain", "s0", "--memory-id", MEMORY)
    assert code == 0 and "NOT fully derived (stage 1 of 3)" in out and "tables are not induced for this round yet" in out

    code, out, _ = run(capsys, *argv)  # the same command again finishes the derivation and says so
    assert code == 0
    assert f"({0} new, 0 updated, {n} unchanged)" in out and f"finished deriving {n} round(s) an earlier ingest had left underived" in out
    code, out, err = run(capsys, "--home", str(home), "ask", "How much deep sleep did I get?", "--memory-id", MEMORY)
    assert code == 0 and err == ""
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "finished deriving" not in out  # nothing was left this time


def test_explain_shows_each_value_and_the_cell_it_became_or_why_none(built, capsys) -> None:
    code, out, _ = run(capsys, "--home", str(built), "explain", "s2", "--memory-id", MEMORY, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["derived"] and doc["round"]["round_id"] == "s2" and doc["round"]["order"] == 2
    by_attr = {o["attribute"]: o for o in doc["observations"]}
    deep = next(o for a, o in by_attr.items() if "deep" in a)
    assert deep["raw"].startswith("1h 27m") and deep["unit"] == "h" and deep["label"] == "deep sleep" and deep["left_out"] is None
    start, end = map(int, deep["source"].removeprefix("user_text[").rstrip("]").split(":"))  # where in the round it was read
    assert history()[2]["user_text"][start:end] == deep["raw"]
    [row] = doc["rows"]
    assert deep["placed"] == {"table": row["table"], "column": deep["attribute"], "record": 0, "cell": deep["value"]}
    assert set(row["cells"]) == {o["placed"]["column"] for o in doc["observations"]}  # every value of the round has its cell

    code, out, _ = run(capsys, "--home", str(built), "explain", "tram", "--memory-id", MEMORY, "--json")
    [tram] = json.loads(out)["observations"]
    assert (tram["value"], tram["label"], tram["placed"]) == (28, "tram", None)
    assert "in no discovered schema" in tram["left_out"] and "1 round(s)" in tram["left_out"] and "theta_support = 4" in tram["left_out"]

    code, out, _ = run(capsys, "--home", str(built), "explain", "warm", "--memory-id", MEMORY, "--json")
    warm = json.loads(out)
    [extra] = [o for o in warm["observations"] if o["placed"] is None]  # its sleep values are placed, this one is not
    assert extra["label"] == "room temperature" and extra["unit"] == "°C"
    assert extra["left_out"].startswith(f"its record is a row of {row['table']}, which has no column for {extra['attribute']!r}")
    assert len(warm["observations"]) == 3 and all(o["placed"]["table"] == row["table"] for o in warm["observations"] if o["placed"])

    code, out, _ = run(capsys, "--home", str(built), "explain", "tram", "--memory-id", MEMORY)
    assert code == 0 and "tram = 28  (label 'tram'; read '28' at user_text[" in out and "left out: 'tram' is in no discovered schema" in out
    code, out, _ = run(capsys, "--home", str(built), "explain", "s2", "--memory-id", MEMORY)
    assert f"-> {row['table']}.{deep['attribute']} = 1.45 (the row of s2, record 0)" in out
    code, out, _ = run(capsys, "--home", str(built), "explain", "loaf", "--memory-id", MEMORY)
    assert code == 0 and "0 observation(s) (no values were read from this round)" in out
    code, out, err = run(capsys, "--home", str(built), "explain", "s9", "--memory-id", MEMORY)
    assert code == 2 and out == "" and err == "adamm: error: memory 'ada' has no round 's9'\n"


def test_a_forget_all_killed_after_its_sql_drop_is_finished_by_its_rerun(tmp_path, capsys) -> None:
    """The memory's rounds are gone but its vectors are not: the unknown-memory check must not
    refuse the rerun that removes them."""
    from adamm.nodes.backends import backends
    from adamm.nodes.context import Context

    home = tmp_path / "home"
    assert main(["--home", str(home), "ingest", str(write(tmp_path / "h.jsonl", history()[:2])), "--memory-id", MEMORY]) == 0
    b = backends(Context(home=str(home)))
    b.sql.drop_memory(MEMORY)  # what the killed forget committed
    assert b.vectors.spaces(MEMORY)
    code, _, err = run(capsys, "--home", str(home), "forget", "--memory-id", MEMORY, "--all")
    assert code == 0, err
    assert backends(Context(home=str(home))).vectors.spaces(MEMORY) == []
    code, _, err = run(capsys, "--home", str(home), "forget", "--memory-id", MEMORY, "--all")
    assert code == 2 and "unknown memory 'ada'" in err  # now nothing is left: a typo again
