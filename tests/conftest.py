"""Shared fixtures: an isolated data directory per test, a throwaway PostgreSQL database."""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

# Nothing in the suite may reach a model hub or phone home.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
# No test may touch the user's own data directory: a test that builds a context without a home
# of its own lands in a throwaway one for the whole run.
os.environ["ADAMM_HOME"] = tempfile.mkdtemp(prefix="adamm-tests-home-")
# The text model's ONNX export is made once for the whole run (and by every subprocess that
# inherits the environment), not once per test home.
MODEL_CACHE = tempfile.mkdtemp(prefix="adamm-tests-models-")
os.environ["ADAMM_MODEL_CACHE"] = MODEL_CACHE

PG_ADMIN = os.environ.get("ADAMM_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh ADAMM_HOME, with every ADAMM_* variable of the caller's shell removed."""
    from adamm.nodes.backends import reset_backends

    for key in list(os.environ):
        if key.startswith("ADAMM_") and not key.startswith("ADAMM_TEST_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("ADAMM_MODEL_CACHE", MODEL_CACHE)
    data = tmp_path / "adamm-home"
    monkeypatch.setenv("ADAMM_HOME", str(data))
    reset_backends()
    yield data
    reset_backends()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A new PostgreSQL database on the local server, dropped afterwards.

    Skipped when no server answers, except under CI, where PostgreSQL is part of the machine
    and a missing server must fail the run rather than hide the tests.
    """
    psycopg = pytest.importorskip("psycopg")
    name = f"adamm_test_{uuid.uuid4().hex[:10]}"
    try:
        admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"PostgreSQL not reachable: {exc}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        from adamm.nodes.backends import reset_backends

        reset_backends()
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The same test on an SQLite file and on a throwaway PostgreSQL database."""
    if request.param == "sqlite":
        (tmp_path / "db").mkdir(exist_ok=True)
        return f"sqlite:///{tmp_path / 'db' / 'adamm.db'}"
    return request.getfixturevalue("pg_url")
