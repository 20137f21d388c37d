"""The ``adamm`` command: real files in, counts and answers out, exit code 2 on bad input."""

from __future__ import annotations

import io
import json
import os
import subprocess
import tempfile
import sys
from pathlib import Path

import pytest

from adamm.cli import main
from adamm.tests.needs import require_shared

MEM_GALLERY = Path(__file__).resolve().parents[2] / "shared" / "data" / "mem_gallery" / "dialog"
BAKING = MEM_GALLERY / "Baking_Dessert_Daily_Life_Skill.json"


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


GOOD = [
    {"round_id": "a1", "timestamp": "2025-03-01T08:00:00", "user_text": "My new bike is a green Brompton."},
    {"round_id": "a2", "timestamp": "2025-03-02T08:00:00", "user_text": "I rode 12 km to work today.",
     "assistant_text": "Great commute!"},
]


def test_ingest_ask_stats_tables_on_jsonl(home, tmp_path, capsys) -> None:
    path = write_jsonl(tmp_path / "rounds.jsonl", GOOD)
    assert main(["ingest", str(path), "--memory-id", "ada"]) == 0
    assert "ada: 2 rounds stored (2 new, 0 updated, 0 unchanged); 2 indexed" in capsys.readouterr().out
    assert main(["ingest", str(path), "--memory-id", "ada"]) == 0
    assert "0 new, 0 updated, 2 unchanged" in capsys.readouterr().out

    assert main(["ask", "What colour is my bike?", "--memory-id", "ada"]) == 0
    out = capsys.readouterr().out
    assert "green Brompton" in out and "sources: a1" in out

    assert main(["ask", "What colour is my bike?", "--memory-id", "ada", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["citations"][0]["round_id"] == "a1" and result["cost_summary"]["calls"] == 0

    assert main(["stats", "--memory-id", "ada", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["rounds"] == 2 and stats["events"] == 2 and stats["vectors"] == 2 and stats["bm25_entries"] == 2
    assert stats["episodes"] >= 1 and stats["topics"] >= 1

    assert main(["tables", "--memory-id", "ada"]) == 0
    assert "no analytic tables" in capsys.readouterr().out


def test_broken_record_exits_2_naming_it_and_stores_nothing(home, tmp_path, capsys) -> None:
    bad = [*GOOD, {"round_id": "a3", "timestamp": "yesterday-ish", "user_text": "hi"}]
    path = write_jsonl(tmp_path / "broken.jsonl", bad)
    assert main(["ingest", str(path), "--memory-id", "ada"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "broken.jsonl" in err and "a3" in err and "timestamp" in err
    assert main(["stats", "--memory-id", "ada", "--json"]) == 2  # nothing was stored: there is no memory 'ada'
    assert "unknown memory 'ada'" in capsys.readouterr().err


def test_usage_errors_exit_2_with_one_line(home, tmp_path, capsys) -> None:
    assert main(["ingest", str(tmp_path / "missing.jsonl"), "--memory-id", "ada"]) == 2
    assert "missing.jsonl" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["ask", "question without memory"])
    assert exc.value.code == 2 and len(capsys.readouterr().err.strip().splitlines()) == 1
    assert main(["ask", "anything?", "--memory-id", "nobody"]) == 2
    assert "unknown memory 'nobody'" in capsys.readouterr().err


def test_ingest_mem_gallery_file_stores_every_round(home, capsys) -> None:
    require_shared(BAKING)
    raw = json.loads(BAKING.read_text(encoding="utf-8"))
    expected = sum(len(s["dialogues"]) for s in raw["multi_session_dialogues"])
    assert main(["ingest", str(BAKING), "--memory-id", "baking"]) == 0
    assert f"baking: {expected} rounds stored ({expected} new" in capsys.readouterr().out
    assert main(["ask", "What temperature and time should cookies be baked at?", "--memory-id", "baking", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    # D1:2 holds "bake at 180 °C for about 15-20 minutes": it must be among the evidence.
    assert "D1:2" in [r for e in result["evidence"][:5] for r in e["round_ids"]]
    assert main(["ask", "What is low gluten flour suitable for?", "--memory-id", "baking"]) == 0
    out = capsys.readouterr().out
    assert "cakes" in out and "sources: D1:1" in out


def test_console_script_and_demo(home) -> None:
    exe = Path(sys.executable).with_name("adamm")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "adamm"]
    out = subprocess.run([*cmd, "demo"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Gulbenkian" in out.stdout and "Not mentioned." in out.stdout and "sources:" in out.stdout
    assert "sleep_log" in out.stdout and "Compute(avg" in out.stdout
    bad = subprocess.run([*cmd, "frobnicate"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_a_reader_that_goes_away_is_no_error(home, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`adamm stats ... | head -5`: the closed pipe ends the command quietly, exit 0."""
    assert main(["ingest", str(write_jsonl(tmp_path / "rounds.jsonl", GOOD)), "--memory-id", "here"]) == 0
    read_end, write_end = os.pipe()
    os.close(read_end)

    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def fileno(self) -> int:
            return write_end

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    try:
        assert main(["stats", "--memory-id", "here"]) == 0
    finally:
        os.close(write_end)


def test_the_suite_never_uses_the_users_data_directory() -> None:
    assert os.environ["ADAMM_HOME"].startswith(tempfile.gettempdir())


def test_every_test_has_a_data_directory_of_its_own(tmp_path: Path) -> None:
    """conftest's autouse fixture: a test that asks for no ``home`` still gets a fresh one."""
    from adamm.nodes.context import Context

    assert os.environ["ADAMM_HOME"] == str(tmp_path / "adamm-home") == str(Context().home_path)
    assert Context().resolved_database_url() == f"sqlite:///{tmp_path / 'adamm-home' / 'adamm.db'}"


def test_a_bad_question_or_now_is_one_line_and_exit_2(home, capsys) -> None:
    for argv, word in ((["ask", "", "--memory-id", "m"], "question"), (["ask", "x" * 10_000, "--memory-id", "m"], "question"),
                       (["ask", "how far did I run?", "--memory-id", "m", "--now", "next tuesday"], "--now")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("adamm: error:") and word in err and "Traceback" not in err and err.count("\n") == 1
