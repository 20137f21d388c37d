"""Checks of what a caller hands in, shared by the graphs, the facade, the tools and the CLI.

They live apart from the ingest nodes so that a command that only reads a memory (``adamm
tables``, ``stats``, ``explain``) can check its memory id without importing the graph stack
(LangGraph, LangChain and LangSmith cost about half a second to import). ``adamm.nodes.ingest``
re-exports both names.
"""

from __future__ import annotations

from typing import Any

from adamm.nodes.access import check_caller
from adamm.stores.records import MAX_ID_CHARS

__all__ = ["InputError", "check_memory_id"]


class InputError(ValueError):
    """Ingestion input that cannot be accepted; the message names the record and field."""


def check_memory_id(memory_id: Any) -> str:
    """A memory id is any non-empty string without control characters (hashed before use),
    and, in a run whose caller is authenticated, one that caller owns (``nodes/access.py``)."""
    if not isinstance(memory_id, str) or not memory_id.strip():
        raise InputError("memory_id: must be a non-empty string")
    if len(memory_id) > MAX_ID_CHARS:
        raise InputError(f"memory_id: longer than {MAX_ID_CHARS} characters")
    if any(ord(c) < 32 for c in memory_id):
        raise InputError("memory_id: contains control characters")
    check_caller(memory_id)  # inside a deployed run: is this caller's identity the memory's owner?
    return memory_id
