"""A test hook: kill this process at a chosen write, the same write on every run.

Crash consistency is tested by SIGKILLing a real ``adamm ingest`` (``tests/test_kill_matrix.py``)
and checking that the rerun ends exactly where a run without a crash ends. A kill by wall clock
lands somewhere else on every run and mostly between writes; this hook lands right after the
N-th write, so every kill point is reproducible and every write can be one.

* ``ADAMM_KILL_AFTER_WRITES=N`` - SIGKILL right after the N-th write.
* ``ADAMM_KILL_IN_NODE=NAME`` - count only the writes of one step (an ingest node such as
  ``induce_tables``, or ``forget``).
* ``ADAMM_KILL_TRACE=PATH`` - append ``<step>\\t<kind>\\t<what>`` for every write, and
  ``<step>\\tbegin\\t`` when a step starts (how a test finds the N it wants, from a run
  without a kill).

A write is one of three kinds: ``commit`` - a SQL transaction that wrote, just committed;
``statement`` - a write statement inside an open ``atomic`` block (the kill lands mid-
transaction, which must roll it all back); ``vectors`` - a vector-store write (Chroma has no
transaction to roll back). Only writes made while a step runs are counted.

The variables are read once, at import. Unset - always, outside tests - ``HOOK`` is None and the
stores' only cost is one ``is None`` test per commit.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

#: Statements that change the database (what makes a transaction a write).
_WRITES = ("INSERT", "UPDATE", "DELETE", "CREATE", "ALTER", "DROP", "REPLACE")


class _Hook:
    def __init__(self, after: int | None, node: str | None, trace: str | None) -> None:
        self.after, self.node = after, node
        self.trace = open(trace, "a", buffering=1, encoding="utf-8") if trace else None  # noqa: SIM115 - lives as long as the process
        self.count = 0
        self.local = threading.local()  # per thread: the running step, and whether SQL wrote since the last commit

    def step(self, name: str) -> Any:
        @contextmanager
        def run() -> Iterator[None]:
            outer = getattr(self.local, "step", None)
            self.local.step, self.local.wrote = name, False
            if self.trace is not None and (self.node is None or name == self.node):
                self.trace.write(f"{name}\tbegin\t\n")
            try:
                yield
            finally:
                self.local.step = outer

        return run()

    def statement(self, conn: Any, statement: str) -> None:
        verb = statement.lstrip()[:7].upper()
        if verb.startswith(_WRITES):
            self.local.wrote = True
            if conn.info.get("adamm_atomic"):
                self.point("statement", verb.split()[0])

    def committed(self) -> None:
        if getattr(self.local, "wrote", False):
            self.local.wrote = False
            self.point("commit")

    def point(self, kind: str, what: str = "") -> None:
        step = getattr(self.local, "step", None)
        if step is None or (self.node is not None and step != self.node):
            return
        self.count += 1
        if self.trace is not None:
            self.trace.write(f"{step}\t{kind}\t{what}\n")
        if self.count == self.after:
            os.kill(os.getpid(), signal.SIGKILL)


def _from_env() -> _Hook | None:
    after = os.environ.get("ADAMM_KILL_AFTER_WRITES", "").strip()
    trace = os.environ.get("ADAMM_KILL_TRACE", "").strip() or None
    if not after.isdigit() and trace is None:
        return None
    return _Hook(int(after) if after.isdigit() else None, os.environ.get("ADAMM_KILL_IN_NODE", "").strip() or None, trace)


HOOK: _Hook | None = _from_env()


def watch(engine: Any) -> None:
    """Count the write statements of ``engine`` (only when the hook is armed)."""
    if HOOK is not None:
        from sqlalchemy import event  # noqa: PLC0415 - only under the test hook

        event.listen(engine, "after_cursor_execute", lambda conn, _cur, statement, *_: HOOK.statement(conn, statement))


def committed() -> None:
    """A SQL transaction just committed (a write point if it wrote)."""
    if HOOK is not None:
        HOOK.committed()


def vectors_written(what: str) -> None:
    """A vector-store write (``what``: the method) just returned."""
    if HOOK is not None:
        HOOK.point("vectors", what)


def step(name: str) -> Any:
    """The block is step ``name``: its writes are counted, as ``name``."""
    return HOOK.step(name) if HOOK is not None else nullcontext()


def arm() -> None:
    """Read the variables again: for a process forked after this module was imported (the
    kill-matrix test forks each killed run from one that has imported adamm, to skip the
    seconds of imports); engines opened before are not watched."""
    global HOOK
    HOOK = _from_env()
