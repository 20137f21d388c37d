"""Authentication and authorization for a deployed adamm (registered in ``langgraph.json``).

The contract (README, "Securing a deployment"):

- ``ADAMM_API_KEYS`` / ``ADAMM_API_KEYS_FILE`` unset: the server is open, as a local
  development server (and Studio) expects.
- Keys set: every request carries ``x-api-key``; a missing or unknown key is 401 and the caller
  is the identity the key maps to. A run may only name a memory id that is that identity or
  starts with ``identity/`` (else 403, before anything is read or written), and may not point the
  graphs at other storage (``home``, ``database_url``, ... in its context are the server's).
  Threads, runs and crons carry their owner and are filtered by it, so nobody lists or reads
  another caller's runs and their outputs.

The graphs check the memory id again themselves (``nodes/access.py``).
"""

from __future__ import annotations

import hmac
from typing import Any

from langgraph_sdk import Auth

from adamm.nodes.access import OPEN_PERMISSION, api_keys, may_use, not_yours

auth = Auth()

#: Context fields that choose storage or models: a caller must not aim the server elsewhere.
SERVER_FIELDS = frozenset({
    "home", "database_url", "chroma_url", "model_cache", "text_encoder", "text_encoder_backend",
    "image_model", "image_weights", "model_base_url",
})
_OPEN_USER = {"identity": "anonymous", "is_authenticated": False, "permissions": [OPEN_PERMISSION]}


def _deny(status: int, detail: str) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=status, detail=detail)


def _identity_of(api_key: str, keys: dict[str, str]) -> str | None:
    """The key's identity, compared in constant time so a key cannot be guessed byte by byte."""
    found = None
    for known, identity in keys.items():
        if hmac.compare_digest(known.encode(), api_key.encode()):
            found = identity
    return found


@auth.authenticate
async def authenticate(headers: dict[bytes, bytes]) -> Auth.types.MinimalUserDict:
    try:
        keys = api_keys()
    except ValueError as exc:  # a mistyped key setting must not leave the server open
        raise _deny(500, f"server misconfigured: {exc}") from None
    if keys is None:
        return dict(_OPEN_USER)
    raw = headers.get(b"x-api-key") or headers.get(b"X-Api-Key")
    if not raw:
        raise _deny(401, "missing x-api-key header")
    identity = _identity_of(raw.decode("utf-8", "replace").strip(), keys)
    if identity is None:
        raise _deny(401, "unknown API key")
    return {"identity": identity, "is_authenticated": True, "permissions": ["adamm:memory"]}


def _stamp(value: dict[str, Any], identity: str) -> None:
    """Mark a new resource as the caller's. The server keeps its own reference to the metadata
    dict (a stateless run's thread is made from it), so it is changed in place."""
    metadata = value.get("metadata")
    if isinstance(metadata, dict):
        metadata["owner"] = identity
    else:
        value["metadata"] = {"owner": identity}


def _is_open(ctx: Auth.types.AuthContext) -> bool:
    return OPEN_PERMISSION in (ctx.permissions or [])


def _memory_ids(payload: Any) -> list[Any]:
    """Memory ids a run's input names (the graphs take one, ``memory_id``)."""
    if isinstance(payload, dict) and "memory_id" in payload:
        return [payload["memory_id"]]
    return []


@auth.on.threads.create_run
async def check_run(ctx: Auth.types.AuthContext, value: Auth.types.RunsCreate) -> Auth.types.FilterType | None:
    """A run may only touch the caller's memories, on the server's storage."""
    if _is_open(ctx):
        return None
    identity = ctx.user.identity
    kwargs = value.get("kwargs") or {}
    for memory_id in _memory_ids(kwargs.get("input")):
        if not isinstance(memory_id, str) or not may_use(identity, memory_id):
            raise _deny(403, not_yours(identity, memory_id))
    config = kwargs.get("config") or {}
    overrides = {*(kwargs.get("context") or {}), *(config.get("configurable") or {})} & SERVER_FIELDS
    if overrides:
        raise _deny(403, f"{', '.join(sorted(overrides))}: storage and model settings are the server's")
    _stamp(value, identity)
    return {"owner": identity}


@auth.on.assistants
async def assistants(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Auth.types.FilterType | None:
    """Everyone may see and run the deployed graphs; only an open server lets callers create,
    change or delete assistants (an assistant's config could aim the graphs elsewhere)."""
    if _is_open(ctx) or ctx.action in ("read", "search"):
        return None
    raise _deny(403, "assistants are the server's")


@auth.on.store
async def store(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> None:
    """The LangGraph store (unused by adamm) is namespaced by identity too."""
    if _is_open(ctx):
        return None
    namespace = tuple(value.get("namespace") or ())
    if not namespace or namespace[0] != ctx.user.identity:
        raise _deny(403, "store namespaces start with your identity")
    return None


@auth.on
async def owner_only(ctx: Auth.types.AuthContext, value: dict[str, Any]) -> Auth.types.FilterType | None:
    """Threads, runs and crons: stamped with their owner when made, filtered by it after."""
    if _is_open(ctx):
        return None
    identity = ctx.user.identity
    if isinstance(value, dict) and ctx.action == "create":
        _stamp(value, identity)
    return {"owner": identity}
