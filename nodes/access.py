"""Who may use which memory: API keys to identities, identities to memory ids.

A deployed server is open while ``ADAMM_API_KEYS`` (or ``ADAMM_API_KEYS_FILE``) is unset, as a
local development server should be. Once keys are set, every caller is the identity its key
maps to, and may use only the memory ids that are that identity or start with
``identity/`` (``alice``, ``alice/work``). The server's auth handlers (``graphs/auth.py``)
enforce this before a run is created; the graphs check it again from the caller LangGraph
puts in their config, so a host graph that embeds ours keeps the guarantee.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["AccessError", "api_keys", "may_use", "not_yours", "check_caller", "OPEN_PERMISSION"]

#: The permission our server gives every caller while no keys are set: nothing is scoped.
OPEN_PERMISSION = "adamm:open"


class AccessError(PermissionError):
    """A caller asked for a memory id that is not theirs; the message names both."""


def _parse(text: str, where: str) -> dict[str, str]:
    keys: dict[str, str] = {}
    entries = [e.strip() for line in text.splitlines() for e in line.split(",")]
    for n, entry in enumerate(e for e in entries if e and not e.startswith("#")):
        key, sep, identity = entry.rpartition(":")
        key, identity = key.strip(), identity.strip()
        if not sep or not key or not identity:
            raise ValueError(f"{where}: entry {n + 1} is not 'key:identity'")
        if "/" in identity or any(ord(c) < 33 for c in identity):
            raise ValueError(f"{where}: identity {identity!r} may not contain '/', spaces or control characters")
        if key in keys and keys[key] != identity:
            raise ValueError(f"{where}: one key is given to two identities")
        keys[key] = identity
    if not keys:
        raise ValueError(f"{where}: no keys")
    return keys


def api_keys(environ: Mapping[str, str] | None = None) -> dict[str, str] | None:
    """``{key: identity}`` from ``ADAMM_API_KEYS`` ("keyA:alice,keyB:bob") or the file named by
    ``ADAMM_API_KEYS_FILE`` (one or more ``key:identity`` per line, ``#`` comments); None when
    neither is set (an open server). A malformed setting raises ``ValueError`` naming it:
    a server must not start open because its keys were mistyped."""
    env = os.environ if environ is None else environ
    inline, file = env.get("ADAMM_API_KEYS", "").strip(), env.get("ADAMM_API_KEYS_FILE", "").strip()
    if inline and file:
        raise ValueError("set ADAMM_API_KEYS or ADAMM_API_KEYS_FILE, not both")
    if inline:
        return _parse(inline, "ADAMM_API_KEYS")
    if file:
        try:
            text = Path(file).expanduser().read_text(encoding="utf-8")
        except OSError as exc:
            raise ValueError(f"ADAMM_API_KEYS_FILE: cannot read {file!r} ({exc.strerror})") from None
        return _parse(text, "ADAMM_API_KEYS_FILE")
    return None


def may_use(identity: str, memory_id: str) -> bool:
    """An identity owns the memory named after it and every memory under ``identity/``."""
    return bool(identity) and (memory_id == identity or memory_id.startswith(identity + "/"))


def not_yours(identity: str, memory_id: Any) -> str:
    """The one-line reason a memory id is refused (the server's 403 and the graphs' error)."""
    identity = identity or "this caller"
    return f"memory_id {memory_id!r} is not yours: {identity} may use '{identity}' and '{identity}/...' only"


def _field(user: Any, name: str) -> Any:
    if isinstance(user, Mapping):
        return user.get(name)
    try:
        return user[name]
    except (KeyError, TypeError, IndexError):
        return getattr(user, name, None)


def caller(config: Mapping[str, Any] | None) -> tuple[str, list[str]] | None:
    """``(identity, permissions)`` of the authenticated caller in a run's config, or None when
    the run has none (a local invocation, an open server, LangGraph Studio's developer)."""
    configurable = (config or {}).get("configurable") or {}
    user = configurable.get("langgraph_auth_user")
    if user is None:
        return None
    permissions = list(configurable.get("langgraph_auth_permissions") or _field(user, "permissions") or [])
    if OPEN_PERMISSION in permissions or _field(user, "kind") == "StudioUser":
        return None
    return str(_field(user, "identity") or ""), permissions


def check_caller(memory_id: str, config: Mapping[str, Any] | None = None) -> None:
    """Raise ``AccessError`` when the run's caller may not use ``memory_id``.

    Without ``config`` the current run's config is read (``langgraph.config.get_config``);
    outside a run there is no caller and nothing to check. A run's config lives in a context
    variable of ``langchain_core.runnables.config``: while that module is not loaded no run can
    be in progress, and a command that only reads a memory need not import LangGraph to learn so.
    """
    if config is None:
        if "langchain_core.runnables.config" not in sys.modules:
            return
        try:
            from langgraph.config import get_config  # noqa: PLC0415 - only inside a run

            config = get_config()
        except RuntimeError:  # not inside a runnable: a direct Python call
            return
    who = caller(config)
    if who is not None and not may_use(who[0], memory_id):
        raise AccessError(not_yours(who[0], memory_id))
