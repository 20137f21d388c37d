"""What every loader returns - one ``Scenario`` (rounds and questions) per memory in a file,
inside a ``LoadedFile`` - and the strict JSON reading they share."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adamm.formats.errors import FormatError
from adamm.stores.records import ImageRef, Round

__all__ = ["LoadedFile", "Question", "Scenario", "read_json_file", "reject_json_constant"]


@dataclass
class Question:
    """One benchmark question with its gold answer and the rounds that support it."""

    question_id: str  #: "<file stem or LoCoMo sample_id>#<0-based index in the file's QA list>"
    question: str
    answer: str | None  #: gold answer; None when the source gives none
    category: str  #: Mem-Gallery "point" (FR, AR, ...); LoCoMo str(category)
    evidence: list[str] = field(default_factory=list)  #: round ids
    session_ids: list[str] = field(default_factory=list)
    image: ImageRef | None = None  #: an image that is part of the question


@dataclass
class Scenario:
    """One memory: its rounds in order (``order`` = 0..n-1 for benchmarks) and its questions."""

    name: str
    rounds: list[Round]
    questions: list[Question] = field(default_factory=list)


@dataclass
class LoadedFile:
    """Everything read from one file. ``format`` is one of :data:`FORMATS`."""

    path: str
    format: str
    scenarios: list[Scenario]
    warnings: list[str] = field(default_factory=list)


def read_json_file(path: str | os.PathLike[str]) -> Any:
    """Read a whole JSON file, turning every I/O, encoding or syntax problem into FormatError."""
    file = os.fspath(path)
    try:
        raw = Path(file).read_bytes()
    except OSError as exc:
        raise FormatError(file, f"cannot read file: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FormatError(file, f"not valid UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(text, parse_constant=reject_json_constant)
    except json.JSONDecodeError as exc:
        raise FormatError(
            file, f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise FormatError(file, f"invalid JSON: {exc}") from None


def reject_json_constant(name: str) -> Any:
    """NaN and Infinity are not JSON; Python's parser accepts them, we do not."""
    raise ValueError(f"{name} is not a valid JSON value")
