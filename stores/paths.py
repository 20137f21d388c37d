"""Where adamm keeps its files when nobody says: one rule for the stores, which know no
``Context``, and for ``Context``, which resolves its own settings with it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["default_home", "model_cache_dir", "user_cache_dir"]


def default_home() -> str:
    """The data directory: ``$ADAMM_HOME`` or ``~/.adamm``."""
    return os.environ.get("ADAMM_HOME") or str(Path("~/.adamm").expanduser())


def user_cache_dir() -> Path:
    """The platform's per-user cache directory for adamm: ``$XDG_CACHE_HOME/adamm`` (default
    ``~/.cache/adamm``) on Linux, ``~/Library/Caches/adamm`` on macOS, ``%LOCALAPPDATA%\\adamm\\Cache``
    on Windows."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path("~/AppData/Local").expanduser())
        return Path(base) / "adamm" / "Cache"
    if sys.platform == "darwin":
        return Path("~/Library/Caches/adamm").expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg) if xdg and Path(xdg).is_absolute() else Path("~/.cache").expanduser()) / "adamm"


def model_cache_dir(explicit: str | Path | None = None, home: str | Path | None = None) -> Path:
    """Where files derived from models (the ONNX export) go: ``explicit`` (the ``model_cache``
    setting), else ``$ADAMM_MODEL_CACHE``, else the user's cache directory (``models`` in
    :func:`user_cache_dir`). Every data directory and process of a user shares it: the export
    depends on the model, not on the memory, and is built once under a file lock.
    ``home`` is accepted for callers that pass their data directory; it no longer decides."""
    chosen = explicit or os.environ.get("ADAMM_MODEL_CACHE", "").strip()
    if chosen:
        return Path(chosen).expanduser()
    return user_cache_dir() / "models"
