"""Loading a repository file that is not part of the package (a benchmark script, a graph
file named in langgraph.json) as a module, so tests can call its functions; and what tests
that run the ``adamm`` command in a subprocess share (a JSONL file of rounds, its environment)."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]


def load_script(relative: str, name: str | None = None) -> ModuleType:
    """Execute ``REPO / relative`` as a fresh module named ``name`` (default: the file's stem)."""
    path = REPO / relative
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_jsonl(path: Path, rounds: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rounds), encoding="utf-8")
    return path


def env_for(home: Path) -> dict[str, str]:
    """The environment of an ``adamm`` subprocess on data directory ``home``: offline, no
    progress bars, none of the caller's ADAMM_* settings but the shared model cache."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ADAMM_") or k == "ADAMM_MODEL_CACHE"}
    return {**env, "ADAMM_HOME": str(home), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TQDM_DISABLE": "1"}
