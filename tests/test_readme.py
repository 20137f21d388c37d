"""README.md's runnable blocks run as written, and print what their comments say.

A shell block preceded by ``<!-- runnable -->`` is run line by line in a throwaway directory
(next to a link to the workspace's ``shared`` data, so ``../shared/...`` resolves as it does
from the repository), with this environment's ``adamm`` and ``python`` first on PATH (two shims
that run ``sys.executable``, so a bare ``adamm`` is never some other installation's) and a
throwaway ``ADAMM_HOME``. A ``# → a, b`` comment lists texts the command's output must
contain. The first two blocks (setup and tests) are what ``.ci/run`` runs verbatim
(``tests/test_packaging.py``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from adamm.tests.needs import require

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
_BLOCK = re.compile(r"<!-- runnable -->\s*\n```bash\n(?P<body>.*?)```", re.S)


def runnable_blocks() -> list[str]:
    return [m.group("body") for m in _BLOCK.finditer((REPO / "README.md").read_text(encoding="utf-8"))]


def commands(block: str) -> list[tuple[str, list[str]]]:
    """(command, texts its output must contain) of every line of a block."""
    out = []
    for line in block.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        command, _, comment = line.partition("  # ")
        expected = comment.strip()[1:].strip().split(", ") if comment.strip().startswith("→") else []
        out.append((command.strip(), [e for e in expected if e]))
    return out


def test_the_readme_marks_its_runnable_blocks() -> None:
    blocks = runnable_blocks()
    assert len(blocks) >= 2 and all(commands(b) for b in blocks)
    setup, tests = re.findall(r"```bash\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S)[:2]
    assert "python3 -m venv .venv" in setup and tests.strip() == ".venv/bin/python -m pytest -q"


@pytest.mark.parametrize("index", range(len(runnable_blocks())))
def test_a_runnable_block_runs_and_prints_what_it_says(index: int, tmp_path: Path) -> None:
    block = runnable_blocks()[index]
    if "../shared/" in block:
        require(SHARED.exists(), f"the workspace's shared data is not beside the repository ({SHARED})", shared_data=True)
    work = tmp_path / "work"
    work.mkdir()
    if SHARED.exists():
        (tmp_path / "shared").symlink_to(SHARED, target_is_directory=True)
    shims = tmp_path / "bin"
    shims.mkdir()
    for name, argv in (("adamm", f'"{sys.executable}" -m adamm'), ("python", f'"{sys.executable}"')):
        (shims / name).write_text(f'#!/bin/sh\nexec {argv} "$@"\n', encoding="utf-8")
        (shims / name).chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADAMM_")}
    env["ADAMM_HOME"] = str(tmp_path / "home")
    env["PATH"] = f"{shims}{os.pathsep}{env.get('PATH', '')}"
    for command, expected in commands(block):
        done = subprocess.run(command, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{command}\n{done.stderr[-2000:]}"
        for text in expected:
            assert text in done.stdout, f"{command}: {text!r} not in\n{done.stdout[-2000:]}"
