"""Where adamm keeps its files when nobody says: one rule for the stores, which know no
``Context``, and for ``Context``, which resolves its own settings with it."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["default_home", "model_cache_dir"]


def default_home() -> str:
    """The data directory: ``$ADAMM_HOME`` or ``~/.adamm``."""
    return os.environ.get("ADAMM_HOME") or str(Path("~/.adamm").expanduser())


def model_cache_dir(explicit: str | Path | None = None, home: str | Path | None = None) -> Path:
    """Where files derived from models (the ONNX export) go: ``explicit`` (the ``model_cache``
    setting), else ``$ADAMM_MODEL_CACHE``, else ``<home>/models``."""
    chosen = explicit or os.environ.get("ADAMM_MODEL_CACHE", "").strip()
    if chosen:
        return Path(chosen).expanduser()
    return Path(home or default_home()).expanduser() / "models"
