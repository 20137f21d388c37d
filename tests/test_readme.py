"""README.md's examples run as written and print what their comments say.

Every fenced block is run here, run by a named test, or says why it is not run
(``tests/readme.py`` has the markers). A runnable shell block is run line by line in a throwaway
directory (next to a link to the workspace's ``shared`` data, so ``../shared/...`` resolves as it
does from the repository), with this environment's ``adamm`` and ``python`` first on PATH (two
shims that run ``sys.executable``, so a bare ``adamm`` is never some other installation's) and a
throwaway ``ADAMM_HOME``; a ``# → a, b`` comment lists texts that line's output must contain. A
runnable Python block is run in this process, in a throwaway working directory and data
directory, and its ``# →`` texts must appear in its output in the order the block prints them.
A name a Python block uses but leaves to the reader (``model``: "any LangChain chat model") is
given a scripted stand-in. The first two blocks (setup and tests) are what ``.ci/run`` runs
verbatim (``tests/test_packaging.py``).
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from adamm.tests.needs import require
from adamm.tests.readme import README, UNMARKED, Block, blocks, blocks_tested_by, check_printed, expected, runnable_groups

REPO = README.parent
SHARED = REPO.parent / "shared"


def commands(block: str) -> list[tuple[str, list[str]]]:
    """(command, texts its output must contain) of every line of a shell block."""
    out = []
    for line in block.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        command, texts = expected(line)
        out.append((command.strip(), texts))
    return out


def _name(group: list[Block]) -> str:
    return f"{group[0].lang}-line{group[0].line}"


GROUPS = runnable_groups()


def test_every_block_runs_or_says_why_not() -> None:
    found = blocks()
    setup, tests = found[:UNMARKED]
    assert "python3 -m venv .venv" in setup.body
    assert tests.body.strip() == '.venv/bin/pip install -e ".[test]" && .venv/bin/python -m pytest -q'
    for b in found[UNMARKED:]:
        assert b.kind is not None, f"{b.where}: mark the block runnable, tested or not runnable (tests/readme.py)"
        assert b.kind != "not runnable" or len(b.arg) > 10, f"{b.where}: say why it does not run"
        assert b.kind != "runnable" or b.lang in ("bash", "python"), f"{b.where}: only shell and Python blocks run here"
        assert b.kind != "runnable" or b.arg in ("", "continues"), f"{b.where}: unknown runnable option {b.arg!r}"
    for b in (b for b in found if b.kind == "tested"):
        path, _, test = b.arg.partition("::")
        source = (REPO / path).read_text(encoding="utf-8") if (REPO / path).is_file() else ""
        functions = {n.name: n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)}
        assert test in functions, f"{b.where}: {b.arg} does not exist"
        assert f'blocks_tested_by("{test}")' in ast.get_source_segment(source, functions[test]), \
            f"{b.where}: {b.arg} must read the block with blocks_tested_by({test!r})"
    # the examples a newcomer tries first run here, in the languages they are written in
    assert {g[0].lang for g in GROUPS} == {"bash", "python"} and all(commands(g[0].body) for g in GROUPS if g[0].lang == "bash")


def test_the_readme_keeps_its_newcomer_order() -> None:
    """The tour, then how to check what it extracted, then the concepts; the full benchmark
    tables live in benchmarks/README.md, the README keeps one short table of results."""
    text = README.read_text(encoding="utf-8")
    heads = re.findall(r"^## (.+)$", text, re.M)
    assert heads.index("A five-minute tour") + 1 == heads.index("Check what it extracted") < heads.index("Concepts")
    check = text.split("## Check what it extracted\n", 1)[1].split("\n## ", 1)[0]
    for command in ("adamm tables", "--show", "adamm explain", "Memory.tables()", "Memory.rows("):
        assert command in check, command
    concepts = text.split("## Concepts\n", 1)[1].split("\n## ", 1)[0]
    assert not re.search(r"^\s*- ", concepts, re.M), "Concepts: short paragraphs, not bullets"
    paragraphs = [p for p in re.split(r"\n\s*\n", concepts) if p.strip() and not p.lstrip().startswith(("#", "`", "|"))]
    assert max(len(p.splitlines()) for p in paragraphs) <= 8, "Concepts: a paragraph longer than 8 lines"
    results = text.split("## Results\n", 1)[1].split("\n## ", 1)[0]
    assert results.count("\n|") <= 14 and "benchmarks/README.md" in results
    assert "create_react_agent" not in text and "from langchain.agents import create_agent" in text
    bench = (REPO / "benchmarks" / "README.md").read_text(encoding="utf-8")
    for heading in ("Analytic quality", "Answer quality", "Retrieval quality", "Speed and memory", "Model cost"):
        assert f"## {heading}" in bench, heading
    # every figure of the short table is one of the full tables' (moved, never re-measured)
    for figure in re.findall(r"\b\d+\.\d\b", results):
        assert figure in bench, f"{figure} is in README's results but in no table of benchmarks/README.md"


@pytest.mark.parametrize("group", [g for g in GROUPS if g[0].lang == "bash"], ids=_name)
def test_a_runnable_shell_block_runs_and_prints_what_it_says(group: list[Block], tmp_path: Path) -> None:
    if any("../shared/" in b.body for b in group):
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
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADAMM_") or k == "ADAMM_MODEL_CACHE"}
    env["ADAMM_HOME"] = str(tmp_path / "home")
    env["PATH"] = f"{shims}{os.pathsep}{env.get('PATH', '')}"
    for block in group:
        for command, texts in commands(block.body):
            done = subprocess.run(command, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, f"{block.where}: {command}\n{done.stderr[-2000:]}"
            for text in texts:
                assert text in done.stdout, f"{block.where}: {command}: {text!r} not in\n{done.stdout[-2000:]}"


def stand_ins() -> dict[str, Any]:
    """What a block leaves to the reader: ``model``, a scripted chat model that asks the memory
    tools for the average deep sleep (first with a wrong table name, as models do) and answers."""
    from langchain_core.messages import AIMessage

    from adamm.tests.test_tools import ScriptedModel

    script = iter([
        AIMessage("", tool_calls=[{"id": "c1", "name": "Compute", "args": {"table": "sleep", "target": "deep_sleep", "operator": "avg"}}]),
        AIMessage("Your average deep sleep is the value Compute returned over sleep_log."),
    ])
    return {"model": ScriptedModel(messages=script)}


@pytest.mark.parametrize("group", [g for g in GROUPS if g[0].lang == "python"], ids=_name)
def test_a_runnable_python_block_runs_and_prints_what_it_says(group: list[Block], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from adamm.nodes.backends import reset_backends

    monkeypatch.chdir(tmp_path)
    module = types.ModuleType("readme_example")  # a real module: a dataclass in a block looks its module up
    monkeypatch.setitem(sys.modules, module.__name__, module)
    namespace: dict[str, Any] = module.__dict__
    namespace.update(stand_ins())
    try:
        for block in group:
            capsys.readouterr()
            exec(compile(block.body, block.where, "exec"), namespace)  # noqa: S102 - README's own example
            check_printed(block, capsys.readouterr().out)
    finally:
        reset_backends()  # the blocks' stores close before their directories go


def test_the_command_line_synopsis_matches_the_parser() -> None:
    """README's synopsis of the command line: every command and option it shows exists."""
    from adamm.cli import build_parser

    (block,) = blocks_tested_by("test_the_command_line_synopsis_matches_the_parser")
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    shown = set()
    for line in block.body.splitlines():
        code = line.split("  #")[0].split()
        if not code:
            continue
        assert code[0] == "adamm" and code[1] in sub.choices, line
        shown.add(code[1])
        options = {s for a in sub.choices[code[1]]._actions for s in a.option_strings}
        for flag in re.findall(r"(?<![\w-])--[a-z][\w-]*", line.split("  #")[0]):
            assert flag in options, f"adamm {code[1]} has no {flag} (README: {line.strip()})"
    assert shown == set(sub.choices) - {"eval"}, "the synopsis shows every command but eval (its own section)"
    globals_ = {s for a in parser._actions for s in a.option_strings}
    said = README.read_text(encoding="utf-8").split(block.body, 1)[1].split("\n\n", 2)[1]
    for flag in re.findall(r"`(--[a-z][\w-]*)", said):
        assert flag in globals_, f"adamm has no global option {flag}"


def test_the_round_example_is_a_round_the_loader_accepts(tmp_path: Path) -> None:
    """README's JSONL record, written on one line of a file beside its image, loads and is
    remembered with every field it shows."""
    from PIL import Image

    from adamm.formats import load
    from adamm.memory import Memory

    (block,) = blocks_tested_by("test_the_round_example_is_a_round_the_loader_accepts")
    record = json.loads(block.body)
    (tmp_path / "shots").mkdir()
    Image.new("RGB", (8, 8), "white").save(tmp_path / record["images"][0]["path"])
    (tmp_path / "rounds.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    ((rnd,),) = [s.rounds for s in load(tmp_path / "rounds.jsonl").scenarios]
    assert (rnd.round_id, rnd.session_id, rnd.metadata) == ("r17", "2025-03-05", {"device": "watch"})
    assert rnd.images[0].caption == record["images"][0]["caption"]
    assert Memory("readme").ingest([rnd]).rounds_added == 1
