"""What a test needs from the machine or the workspace: a skip locally, a failure under CI.

A few tests need something that is not a Python dependency of the package: the PostgreSQL
server, the ``langgraph``/``chroma`` CLIs, the ``tesseract`` binary, or the workspace's data in
``../shared`` (next to the repository). On a developer's machine a missing one skips the test
with the reason; when the environment variable ``CI`` is set it fails the test instead, so CI
never goes green by skipping what it is meant to run.

``../shared`` is the exception: CI (``.ci/run``) runs on a clean clone that has no workspace
beside it, so a missing ``../shared`` fails under CI only when ``ADAMM_TEST_REQUIRE_SHARED`` is
set too (the ``ADAMM_TEST_`` prefix keeps it through the suite's removal of the caller's
``ADAMM_*`` variables).

Import it as ``from adamm.tests.needs import require`` (never through ``conftest``, which must
not be imported twice).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: The workspace's shared data, found relative to the repository as ``../shared``.
SHARED = Path(__file__).resolve().parents[2] / "shared"
MEM_GALLERY = SHARED / "data" / "mem_gallery" / "dialog"
ANALYTIC_DEV = SHARED / "data" / "analytic_dev"


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def under_ci() -> bool:
    """``CI`` is set (to anything but an empty/false value)."""
    return _flag("CI")


def require(condition: object, reason: str, *, shared_data: bool = False) -> None:
    """Skip the running test with ``reason`` unless ``condition`` holds; under CI, fail it.

    ``shared_data=True`` marks a need for ``../shared``, which fails under CI only when
    ``ADAMM_TEST_REQUIRE_SHARED`` is set as well (see the module's docstring).
    """
    if condition:
        return
    if under_ci() and (not shared_data or _flag("ADAMM_TEST_REQUIRE_SHARED")):
        pytest.fail(f"{reason} (required: CI is set)", pytrace=False)
    pytest.skip(reason)


def require_shared(path: Path) -> Path:
    """``path`` inside ``../shared``, which must exist (see :func:`require`)."""
    require(path.exists(), f"workspace data not found at {path}", shared_data=True)
    return path
