"""Our own format: JSON Lines, one :class:`~adamm.stores.records.Round` per line.

Each line holds exactly the fields of ``Round`` (unknown fields are rejected, so a typo such as
``user_txt`` cannot silently drop a user's words). Images carry a ``path`` (relative paths are
resolved against the JSONL file's directory, so a dataset folder can be moved as a whole), a
``url`` or base64 ``data``. Every referenced image file must exist and be a readable image: a
memory built from a broken reference would answer questions about a picture it never saw.
"""

from __future__ import annotations

import base64
import json
import os
import uuid
from pathlib import Path
from typing import Any, Iterable, Iterator

from PIL import Image
from pydantic import ValidationError

from adamm.formats.common import LoadedFile, Scenario, reject_json_constant
from adamm.formats.errors import FormatError, from_validation_error, json_type, loc_to_field
from adamm.stores.records import ImageRef, Round

_SHOW_MAX = 80


class _DuplicateKey(ValueError):
    """A JSON object names the same key twice; ``json`` would silently keep the last one."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(f"key {key!r} appears twice in one object")
        out[key] = value
    return out


# -- images -------------------------------------------------------------------------------


def resolve_image_path(base_dir: Path, raw: str) -> Path:
    """An image path as the file means it: absolute as given, relative to ``base_dir``."""
    path = Path(raw)
    if path.is_absolute():
        return path
    try:
        return (base_dir / path).resolve()
    except (OSError, ValueError, RuntimeError):  # NUL bytes, symlink loops: checked later
        return base_dir / path


def image_exists(path: Path) -> bool:
    """Whether anything is at ``path``; paths the OS cannot even look up count as absent."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def image_problem(path: Path) -> str | None:
    """Why ``path`` is not a usable image file, or None when it is one.

    ``verify()`` reads the whole file without decoding pixels: cheap, and it catches both
    non-image files and truncated or corrupt ones.
    """
    try:
        if not path.exists():
            return f"image file not found: {path}"
        if not path.is_file():
            return f"not a regular file: {path}"
    except (OSError, ValueError) as exc:
        return f"unusable image path ({exc})"
    try:
        with Image.open(path) as img:
            img.verify()
    except Exception as exc:  # PIL raises OSError, SyntaxError, struct.error, ... on bad files
        return f"not a readable image: {path} ({type(exc).__name__}: {exc})"
    return None


def _checked_images(file: str, record: str, round_: Round, base_dir: Path) -> Round:
    """Resolve relative image paths and check each file; the round with absolute paths."""
    if not any(img.path is not None for img in round_.images):
        return round_
    images = []
    for k, img in enumerate(round_.images):
        if img.path is not None:
            if not img.path.strip():
                field = f"images[{k}].path"
                raise FormatError(file, "image path is empty", record=record, field=field)
            path = resolve_image_path(base_dir, img.path)
            problem = image_problem(path)
            if problem:
                raise FormatError(file, problem, record=record, field=f"images[{k}].path")
            img = img.model_copy(update={"path": str(path)})
        images.append(img)
    return round_.model_copy(update={"images": images})


# -- reading ------------------------------------------------------------------------------


def _show(value: str) -> str:
    """A round id as it can appear inside a one-line message."""
    if value.isprintable() and len(value) <= _SHOW_MAX:
        return value
    return repr(value[:_SHOW_MAX])


def _record(lineno: int, obj: Any) -> str:
    """``line N (round_id X)`` when the id is readable, else ``line N``."""
    rid = obj.get("round_id") if isinstance(obj, dict) else None
    if isinstance(rid, str) and rid.strip():
        return f"line {lineno} (round_id {_show(rid.strip())})"
    return f"line {lineno}"


def _lines(file: str) -> Iterator[tuple[int, str]]:
    """Numbered non-blank lines. Split on ``\\n`` only: JSON strings may hold U+2028 etc."""
    try:
        raw = Path(file).read_bytes()
    except OSError as exc:
        raise FormatError(file, f"cannot read file: {exc.strerror or exc}") from None
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    for lineno, chunk in enumerate(raw.split(b"\n"), start=1):
        try:
            text = chunk.decode("utf-8")
        except UnicodeDecodeError as exc:
            reason = f"not valid UTF-8 (byte {exc.start})"
            raise FormatError(file, reason, record=f"line {lineno}") from None
        if text.strip():
            yield lineno, text


def _parse(file: str, lineno: int, text: str) -> dict[str, Any]:
    record = f"line {lineno}"
    try:
        obj = json.loads(
            text, object_pairs_hook=_no_duplicate_keys, parse_constant=reject_json_constant
        )
    except json.JSONDecodeError as exc:
        reason = f"invalid JSON: {exc.msg} (column {exc.colno})"
        raise FormatError(file, reason, record=record) from None
    except (ValueError, RecursionError) as exc:
        raise FormatError(file, f"invalid JSON: {exc}", record=record) from None
    if not isinstance(obj, dict):
        raise FormatError(file, f"expected a JSON object, got {json_type(obj)}", record=record)
    return obj


def _field_name(loc: tuple[Any, ...]) -> str:
    """The field of a pydantic error; a whole-round check (the empty round) names all three."""
    return loc_to_field(loc) or "user_text/assistant_text/images"


def _validate(file: str, record: str, obj: dict[str, Any]) -> Round:
    """Strict validation: JSON types are exact, so ``"order": "3"`` or ``true`` is a mistake."""
    try:
        return Round.model_validate(obj, strict=True)
    except ValidationError as exc:
        raise from_validation_error(exc, file, record, _field_name) from None
    except RecursionError:
        raise FormatError(file, "value nested too deeply", record=record) from None


class _Uniqueness:
    """Remembers where each round id and order was first seen, to name both lines."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.ids: dict[str, int] = {}
        self.orders: dict[int, int] = {}

    def check(self, lineno: int, record: str, round_: Round) -> None:
        if round_.round_id in self.ids:
            raise FormatError(
                self.file,
                f"duplicate round_id; first used on line {self.ids[round_.round_id]}",
                record=record,
                field="round_id",
            )
        if round_.order is not None and round_.order in self.orders:
            raise FormatError(
                self.file,
                f"order {round_.order} is already used on line {self.orders[round_.order]}",
                record=record,
                field="order",
            )
        self.ids[round_.round_id] = lineno
        if round_.order is not None:
            self.orders[round_.order] = lineno


def load_jsonl(path: str | os.PathLike[str]) -> LoadedFile:
    """Load our JSONL format: one scenario named after the file stem, rounds in file order.

    A round without ``order`` keeps none: the store numbers it when it is stored, after the
    memory's last round, so a plain list of rounds needs no numbering and a second file
    continues the history instead of taking the first file's places. Explicit orders are
    kept, and two rounds may not share one.
    """
    file = os.fspath(path)
    base_dir = Path(file).resolve().parent
    seen = _Uniqueness(file)
    rounds: list[Round] = []
    for lineno, text in _lines(file):
        obj = _parse(file, lineno, text)
        record = _record(lineno, obj)
        round_ = _checked_images(file, record, _validate(file, record, obj), base_dir)
        seen.check(lineno, record, round_)
        rounds.append(round_)
    warnings = [] if rounds else ["file holds no rounds"]
    return LoadedFile(file, "jsonl", [Scenario(Path(file).stem, rounds, [])], warnings)


# -- writing ------------------------------------------------------------------------------


def _image_json(img: ImageRef) -> dict[str, Any]:
    out: dict[str, Any] = {"image_id": img.image_id}
    if img.path is not None:
        out["path"] = img.path
    if img.url is not None:
        out["url"] = img.url
    if img.data is not None:
        out["data"] = base64.b64encode(img.data).decode("ascii")
    if img.caption is not None:
        out["caption"] = img.caption
    return out


def round_to_json(round_: Round) -> dict[str, Any]:
    """The JSON object for one round, without defaults, images' bytes as base64.

    Written by hand rather than with ``model_dump(mode="json")`` because pydantic would emit
    bytes as UTF-8 text, which is lossy for image data.
    """
    out: dict[str, Any] = {"round_id": round_.round_id, "session_id": round_.session_id}
    if round_.order is not None:
        out["order"] = round_.order
    if round_.timestamp is not None:
        out["timestamp"] = round_.timestamp.isoformat()
    if round_.user_text:
        out["user_text"] = round_.user_text
    if round_.assistant_text:
        out["assistant_text"] = round_.assistant_text
    if round_.images:
        out["images"] = [_image_json(img) for img in round_.images]
    if round_.metadata:
        out["metadata"] = dict(round_.metadata)
    return out


#: Characters ``str.splitlines`` treats as line breaks but JSON leaves raw inside strings;
#: escaped so that any line-based tool reads one record per line.
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _line(obj: dict[str, Any]) -> bytes:
    """One JSON line, readable UTF-8 unless a lone surrogate forces ``\\u`` escapes."""
    try:
        text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
        for char, escape in _LINE_BREAKS.items():
            text = text.replace(char, escape)
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(obj, ensure_ascii=True, allow_nan=False) + "\n").encode("ascii")


def dump_rounds(rounds: Iterable[Round], path: str | os.PathLike[str]) -> int:
    """Write rounds to ``path`` in our JSONL format; returns how many were written.

    The file is replaced atomically (temporary file + rename), so a crash never leaves half a
    memory on disk. Paths are written as they are in the rounds; loaded rounds carry absolute
    paths, so dumping them anywhere round-trips. NaN or infinite metadata is refused, since
    JSON cannot represent it.
    """
    file = os.fspath(path)
    target = Path(file)
    lines = []
    for round_ in rounds:
        try:
            lines.append(_line(round_to_json(round_)))
        except ValueError as exc:
            record = f"round_id {_show(round_.round_id)}"
            raise FormatError(file, str(exc), record=record, field="metadata") from None
    tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.writelines(lines)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return len(lines)
