"""Chat models injected by name (``register_model``), which any role may then name.

Its own module because both sides need it: ``Context`` accepts a registered name as a role's
spec when it validates, and ``models`` resolves the name to the model when it calls. Keeping
the registry here lets ``context`` validate without importing ``models`` (which imports it).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["RULES", "register_model", "registered_models", "unregister_model"]

#: The role spec of the built-in offline implementations.
RULES = "rules"

_lock = threading.Lock()
_registered: dict[str, BaseChatModel] = {}


def register_model(name: str, model: BaseChatModel) -> None:
    """Make ``name`` usable as a role spec, resolving to this already-built model.

    For tests (fake models) and for hosts that build their own clients (custom auth, proxies).
    A registered name wins over building a model of the same ``provider:model`` spec.
    """
    from langchain_core.language_models import BaseChatModel  # noqa: PLC0415 - heavy; context imports this module

    if name == RULES:
        raise ValueError(f"{RULES!r} is the offline backend and cannot name a model")
    if not isinstance(model, BaseChatModel):
        raise TypeError(f"expected a BaseChatModel, got {type(model).__name__}")
    with _lock:
        _registered[name] = model


def unregister_model(name: str) -> None:
    with _lock:
        _registered.pop(name, None)


def registered_models() -> dict[str, BaseChatModel]:
    """A snapshot of the injected models by name (``check_role_spec`` accepts these names)."""
    with _lock:
        return dict(_registered)
