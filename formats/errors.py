"""The one error every loader raises, and the translation of pydantic errors into it.

Benchmark files are large and hand-edited; when one is broken the user needs to find the
spot at once. So every problem is reported as a single line naming the file, the record
(a line number, a round id, a JSON path) and the field, instead of a pydantic traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

#: How pydantic's error types read to someone editing a JSON file.
_JSON_TYPE_NAMES = {
    type(None): "null",
    bool: "boolean",
    int: "number",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
}


def json_type(value: Any) -> str:
    """The JSON name of a value's type ("string", "array", ...), for error messages."""
    return _JSON_TYPE_NAMES.get(type(value), type(value).__name__)


def _one_line(text: str) -> str:
    return " ".join(str(text).splitlines()).strip()


class FormatError(ValueError):
    """A file does not follow its format. ``str(e)`` is one line:

    ``"<file>: record <record>: field <field>: <reason>"``, with the parts that are ``None``
    left out. It is a ``ValueError`` so callers that already treat bad input as a value
    error keep working.
    """

    def __init__(
        self,
        file: str,
        reason: str,
        *,
        record: str | None = None,
        field: str | None = None,
    ) -> None:
        self.file = str(file)
        self.record = None if record is None else _one_line(record)
        self.field = None if field is None else _one_line(field)
        self.reason = _one_line(reason)
        super().__init__(self.__str__())

    def __str__(self) -> str:
        parts = [self.file]
        if self.record is not None:
            parts.append(f"record {self.record}")
        if self.field is not None:
            parts.append(f"field {self.field}")
        parts.append(self.reason)
        return ": ".join(parts)

    def __reduce__(self):  # keyword-only arguments would otherwise break pickling
        return (_rebuild, (self.file, self.reason, self.record, self.field))


def _rebuild(file: str, reason: str, record: str | None, field: str | None) -> FormatError:
    return FormatError(file, reason, record=record, field=field)


def loc_to_field(loc: tuple[Any, ...]) -> str | None:
    """Join a pydantic ``loc`` the way a JSON path reads: ``("images", 0, "caption")`` ->
    ``images[0].caption``; ``()`` (a whole-record check) -> ``None``.

    A ``metadata`` key is shown as ``metadata["key"]`` because keys may contain dots, and the
    union-member tags pydantic appends after it (``str``, ``int`` ...) are dropped: they are
    pydantic's bookkeeping, not a field of the file.
    """
    if not loc:
        return None
    if loc[0] == "metadata" and len(loc) > 1:
        key = str(loc[1]).replace("\\", "\\\\").replace('"', '\\"')
        return f'metadata["{key}"]'
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _reason(error: dict[str, Any]) -> str:
    """A readable reason for one pydantic error, with the offending JSON type when useful."""
    kind, msg = error["type"], error["msg"]
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        return "unknown field (not part of the format)"
    if kind == "value_error":
        return msg.removeprefix("Value error, ")
    if error["loc"] and error["loc"][0] == "metadata" and len(error["loc"]) > 2:
        got = json_type(error["input"])
        return f"metadata values must be a string, number, boolean or null, got {got}"
    if kind.endswith("_type"):
        return f"{msg}, got {json_type(error.get('input'))}"
    return msg


def from_validation_error(
    err: ValidationError,
    file: str,
    record: str | None,
    field_name: Callable[[tuple[Any, ...]], str | None] = loc_to_field,
) -> FormatError:
    """Translate a pydantic ``ValidationError`` into a :class:`FormatError`.

    The first problem is reported in full (field and reason) and the rest only counted, to
    keep the message on one line; fixing one problem at a time is how people edit files
    anyway. ``field_name`` maps a ``loc`` of the model to the name the field has in the source
    file (a benchmark calls ``user_text`` "user", for instance).
    """
    errors = err.errors(include_url=False)
    first = errors[0]
    reason = _reason(first)
    others = {loc_to_field(e["loc"]) for e in errors[1:]} - {loc_to_field(first["loc"])}
    if others:
        reason += f" (and {len(others)} more problem{'s' if len(others) > 1 else ''})"
    return FormatError(file, reason, record=record, field=field_name(tuple(first["loc"])))
