"""Shared fixtures: an isolated data directory for every test, a throwaway PostgreSQL database."""

from __future__ import annotations

import os
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from adamm.tests.needs import require

# Nothing in the suite may reach a model hub or phone home.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
# No test may touch the user's own data directory. Every test gets a fresh one of its own
# (``_isolated_home`` below); this throwaway one for the whole run covers what runs outside a
# test - collection, module-scoped fixtures that build a context without a home of their own.
os.environ["ADAMM_HOME"] = tempfile.mkdtemp(prefix="adamm-tests-home-")
# The text model's ONNX export is made once for the whole run (and by every subprocess that
# inherits the environment), not once per test home.
MODEL_CACHE = tempfile.mkdtemp(prefix="adamm-tests-models-")
os.environ["ADAMM_MODEL_CACHE"] = MODEL_CACHE

PG_ADMIN = os.environ.get("ADAMM_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets a fresh ADAMM_HOME, with every ADAMM_* variable of the caller's shell removed.

    Autouse, so that no test - whether or not it asks for ``home`` - can read or write the user's
    data directory (``~/.adamm``) or another test's data. ``ADAMM_TEST_*`` settings of the suite
    itself are kept, and ``ADAMM_MODEL_CACHE`` stays the session-wide cache so the text model's
    ONNX export is made once per run. Module-scoped fixtures that ingest once for their module
    give their ``Context`` a ``home`` of its own and are not affected.
    """
    from adamm.nodes.backends import reset_backends

    for key in list(os.environ):
        if key.startswith("ADAMM_") and not key.startswith("ADAMM_TEST_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("ADAMM_MODEL_CACHE", MODEL_CACHE)
    data = tmp_path / "adamm-home"
    monkeypatch.setenv("ADAMM_HOME", str(data))
    reset_backends()
    opened = _chroma_systems()
    yield data
    reset_backends()
    _release(opened, tmp_path)


@pytest.fixture(scope="module", autouse=True)
def _module_resources(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """What a module's fixtures opened is released when the module ends (see ``_release``)."""
    opened = _chroma_systems()
    yield
    from adamm.nodes.backends import reset_backends

    reset_backends()
    _release(opened, tmp_path_factory.getbasetemp())


def _chroma_systems() -> set[str]:
    """The embedded Chroma systems open in this process (by their directory), if Chroma is loaded."""
    shared = sys.modules.get("chromadb.api.shared_system_client")
    return set(shared.SharedSystemClient._identifier_to_system) if shared is not None else set()


def _release(kept: set[str], under: Path) -> None:
    """Stop the Chroma systems opened since ``kept`` was taken, and drop the cached encoders
    whose model files lie under ``under``.

    ``reset_backends`` closes the stores it cached, but a ``VectorStore`` or Chroma client a test
    opened itself leaves Chroma's process-wide system for its directory running (with its index
    in memory), and the encoder cache keeps every model a test loaded from its own files; over a
    run that grew the test process by gigabytes. A later test that opens the same directory
    again gets a new system, loaded from disk. The suite-wide text model (``MODEL_CACHE``)
    stays cached.
    """
    shared = sys.modules.get("chromadb.api.shared_system_client")
    if shared is not None:
        systems = shared.SharedSystemClient
        for identifier in [i for i in systems._identifier_to_system if i not in kept]:
            system = systems._identifier_to_system.pop(identifier)
            systems._identifier_to_refcount.pop(identifier, None)
            system.stop()
    backends = sys.modules.get("adamm.nodes.backends")
    if backends is not None:
        prefix = str(under)
        for key in [k for k in backends._ENCODERS if any(isinstance(p, str) and p.startswith(prefix) for p in k)]:
            del backends._ENCODERS[key]


@pytest.fixture
def home(_isolated_home: Path) -> Path:
    """The test's own ADAMM_HOME (every test has one; this names it)."""
    return _isolated_home


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A new PostgreSQL database on the local server, dropped afterwards.

    Skipped when no server answers, except under CI, where PostgreSQL is part of the machine
    and a missing server must fail the run rather than hide the tests.
    """
    import psycopg  # a dependency of the package: a broken import fails

    name = f"adamm_test_{uuid.uuid4().hex[:10]}"
    admin, reason = None, ""
    try:
        admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        reason = f"PostgreSQL not reachable at {PG_ADMIN}: {exc}"
    require(admin is not None, reason)
    assert admin is not None
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
