"""Input formats: our JSONL of rounds, Mem-Gallery / MemEye JSON and LoCoMo JSON.

Every loader turns a file into the same shape -- :class:`LoadedFile` holding one
:class:`Scenario` (one memory: its rounds and its benchmark questions) per memory in the file --
so ingestion and the evaluation harness never care where the data came from.

Loaders validate the whole file before returning anything: a half-loaded benchmark silently
skews every metric computed on it, so any problem raises :class:`FormatError` naming the file,
the record and the field. Problems that are normal in real data and lose nothing essential
(image files not shipped, a mangled evidence id) are reported in ``LoadedFile.warnings``
instead.

The loader modules are imported when first used, which keeps ``import adamm.formats`` cheap
(no PIL, no dateutil); the result types they share live in ``formats.common``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from adamm.formats.common import LoadedFile, Question, Scenario, read_json_file
from adamm.formats.errors import FormatError, json_type
from adamm.stores.records import Round

__all__ = [
    "FORMATS",
    "FormatError",
    "LoadedFile",
    "Question",
    "Scenario",
    "detect_format",
    "dump_rounds",
    "load",
]

FORMATS = ("jsonl", "mem-gallery", "locomo")
_ALIASES = {"mem_gallery": "mem-gallery", "memgallery": "mem-gallery", "memeye": "mem-gallery"}
_JSONL_SUFFIXES = {".jsonl", ".ndjson"}


def _sniff_json(file: str, data: Any) -> str:
    """Which benchmark format a parsed JSON document is in."""
    if isinstance(data, dict) and "multi_session_dialogues" in data:
        return "mem-gallery"
    sample = data[0] if isinstance(data, list) and data else data
    if isinstance(sample, dict) and "conversation" in sample and "qa" in sample:
        return "locomo"
    if isinstance(data, dict) and "round_id" in data:
        return "jsonl"  # a one-record JSONL file
    raise FormatError(
        file,
        f"unrecognized format: a JSON {json_type(data)} that is neither Mem-Gallery "
        "(an object with 'multi_session_dialogues') nor LoCoMo (samples with "
        "'conversation' and 'qa') nor JSONL rounds",
    )


def _looks_like_jsonl(file: str) -> bool:
    """A ``.json`` file holding several JSON objects, one a line, is JSONL in disguise."""
    try:
        with open(file, encoding="utf-8-sig") as fh:
            first = next((line for line in fh if line.strip()), "")
        return isinstance(json.loads(first), dict)
    except (OSError, ValueError, RecursionError):
        return False


def _detect(path: str | os.PathLike[str]) -> tuple[str, Any]:
    """Detect the format and return the parsed document too, so it is read only once."""
    file = os.fspath(path)
    if Path(file).suffix.lower() in _JSONL_SUFFIXES:
        return "jsonl", None
    try:
        data = read_json_file(file)
    except FormatError as exc:
        if exc.reason.startswith("invalid JSON: Extra data") and _looks_like_jsonl(file):
            return "jsonl", None
        raise
    return _sniff_json(file, data), data


def detect_format(path: str | os.PathLike[str]) -> str:
    """Name the format of a file: ``.jsonl`` by extension, JSON benchmarks by their keys.

    Raises FormatError naming the file when it is unreadable or matches no format.
    """
    return _detect(path)[0]


def _normalize_format(file: str, name: str) -> str:
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in FORMATS:
        raise FormatError(file, f"unknown format {name!r}; expected one of {', '.join(FORMATS)}")
    return key


def load(path: str | os.PathLike[str], format: str | None = None) -> LoadedFile:
    """Load a file in any supported format (detected when ``format`` is None).

    The whole file is validated first; any problem raises FormatError and nothing partial is
    returned.
    """
    file = os.fspath(path)
    data = None
    if format is None:
        fmt, data = _detect(file)
    else:
        fmt = _normalize_format(file, format)
    if fmt == "jsonl":
        from adamm.formats.jsonl import load_jsonl  # noqa: PLC0415 - one parser per format, loaded when that format is read

        return load_jsonl(file)
    if fmt == "mem-gallery":
        from adamm.formats.mem_gallery import load_mem_gallery  # noqa: PLC0415 - one parser per format, loaded when that format is read

        return load_mem_gallery(file, data)
    from adamm.formats.locomo import load_locomo  # noqa: PLC0415 - one parser per format, loaded when that format is read

    return load_locomo(file, data)


def dump_rounds(rounds: Iterable[Round], path: str | os.PathLike[str]) -> int:
    """Write rounds as our JSONL format (see :func:`adamm.formats.jsonl.dump_rounds`)."""
    from adamm.formats.jsonl import dump_rounds as _dump  # noqa: PLC0415 - one parser per format, loaded when that format is read

    return _dump(rounds, path)
