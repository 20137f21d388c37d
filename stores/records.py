"""The data model every part of adamm shares: a round of interaction and the images in it.

A ``Round`` is what users hand us (our JSONL format is exactly this model, one JSON object a
line) and what the loaders for benchmark formats produce. It is validated strictly here, once,
so that everything downstream can trust it: wrong types, missing ids, empty rounds, huge texts
and unknown fields are rejected with the field named.

Times: a timezone-aware timestamp is converted to UTC and stored naive; a naive one is kept as
given (the user's wall clock), because "what did I eat on March 4" is a wall-clock question.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from datetime import date, datetime, timezone
from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

#: A round longer than this is almost surely a pasted file, not a conversation turn.
MAX_TEXT_CHARS = 200_000
#: A speaker's name longer than this, or holding brackets or a colon, is no name to head a turn
#: with; the turn is then headed "User" as any other.
MAX_SPEAKER_CHARS = 60
_NOT_A_SPEAKER = re.compile(r"[()\[\]:]")
#: How a passage names the user's part: "User" or "User (Maria)" (``Round.user_label``), as a
#: pattern other passage readers build on.
USER_LABEL = rf"User(?: \([^()\n]{{1,{MAX_SPEAKER_CHARS}}}\))?"
#: The head of a passage's user words, the speaker captured.
USER_HEAD = re.compile(rf"^User(?: \((?P<speaker>[^()\n]{{1,{MAX_SPEAKER_CHARS}}})\))?:[ \t]*", re.M)
MAX_IMAGES_PER_ROUND = 32
MAX_ID_CHARS = 256
MAX_METADATA_KEYS = 64

MetadataValue = Union[str, int, float, bool, None]


def parse_time(value: Any) -> datetime:
    """Parse an ISO-8601 string, a ``date`` or a ``datetime`` into a naive datetime.

    Aware values are converted to UTC first, so two rounds written in different zones still
    order correctly. Raises ``ValueError`` with the offending text for anything else.
    """
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, date):
        dt = datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        text = value.strip()
        if not text:
            raise ValueError("timestamp is empty")
        try:
            dt = datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
        except ValueError:
            raise ValueError(f"timestamp {value!r} is not an ISO-8601 date or time") from None
    else:
        raise ValueError(f"timestamp must be an ISO-8601 string, got {type(value).__name__}")
    if dt.tzinfo is not None:
        dt = dt.astimezone(timezone.utc).replace(tzinfo=None)
    return dt


def _check_id(value: str, what: str) -> str:
    value = value.strip()
    if not value:
        raise ValueError(f"{what} is empty")
    if len(value) > MAX_ID_CHARS:
        raise ValueError(f"{what} is longer than {MAX_ID_CHARS} characters")
    if any(ord(c) < 32 for c in value):
        raise ValueError(f"{what} contains control characters")
    return value


class ImageRef(BaseModel):
    """One image in a round: a file path, a URL or inline bytes, with an optional caption.

    With no image encoder weights configured, the caption (and OCR text, when enabled) is all
    adamm sees of an image, so loaders keep captions even when the file itself is absent.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, ser_json_bytes="base64")

    image_id: str
    path: str | None = None
    url: str | None = None
    data: bytes | None = Field(default=None, description="inline image bytes (base64 in JSON)")
    caption: str | None = None

    @field_validator("image_id")
    @classmethod
    def _id(cls, v: str) -> str:
        return _check_id(v, "image_id")

    @field_validator("data", mode="before")
    @classmethod
    def _decode(cls, v: Any) -> Any:
        if isinstance(v, str):
            # Standard or URL-safe alphabet: pydantic's own JSON output uses the URL-safe one.
            altchars = b"-_" if ("-" in v or "_" in v) else None
            try:
                return base64.b64decode(v, altchars=altchars, validate=True)
            except ValueError:
                raise ValueError("data is not valid base64") from None
        return v

    @field_validator("caption")
    @classmethod
    def _caption(cls, v: str | None) -> str | None:
        if v is not None and len(v) > MAX_TEXT_CHARS:
            raise ValueError(f"caption is longer than {MAX_TEXT_CHARS} characters")
        return v

    @model_validator(mode="after")
    def _has_content(self) -> "ImageRef":
        if not (self.path or self.url or self.data or (self.caption and self.caption.strip())):
            raise ValueError("an image needs a path, url, data or caption")
        return self

    @property
    def source(self) -> str | bytes | None:
        return self.data or self.path or self.url


#: The session of a round given without one.
DEFAULT_SESSION = "default"


class Round(BaseModel):
    """One exchange: what the user said (and showed), what the assistant answered.

    ``round_id`` is unique within a memory; ``order`` is the global position of the round in
    the memory's history (loaders number rounds when the source has no explicit order).
    """

    model_config = ConfigDict(extra="forbid")

    round_id: str
    session_id: str = DEFAULT_SESSION
    order: int | None = Field(default=None, ge=0)
    timestamp: datetime | None = None
    user_text: str = ""
    assistant_text: str = ""
    images: list[ImageRef] = Field(default_factory=list)
    metadata: dict[str, MetadataValue] = Field(default_factory=dict)

    @field_validator("round_id")
    @classmethod
    def _rid(cls, v: str) -> str:
        return _check_id(v, "round_id")

    @field_validator("session_id")
    @classmethod
    def _sid(cls, v: str) -> str:
        return _check_id(v, "session_id")

    @field_validator("timestamp", mode="before")
    @classmethod
    def _ts(cls, v: Any) -> Any:
        return None if v is None else parse_time(v)

    @field_validator("user_text", "assistant_text")
    @classmethod
    def _text(cls, v: str) -> str:
        if len(v) > MAX_TEXT_CHARS:
            raise ValueError(f"text is longer than {MAX_TEXT_CHARS} characters")
        return v

    @field_validator("images")
    @classmethod
    def _images(cls, v: list[ImageRef]) -> list[ImageRef]:
        if len(v) > MAX_IMAGES_PER_ROUND:
            raise ValueError(f"more than {MAX_IMAGES_PER_ROUND} images")
        ids = [im.image_id for im in v]
        if len(set(ids)) != len(ids):
            raise ValueError("duplicate image_id within the round")
        return v

    @field_validator("metadata")
    @classmethod
    def _meta(cls, v: dict[str, MetadataValue]) -> dict[str, MetadataValue]:
        if len(v) > MAX_METADATA_KEYS:
            raise ValueError(f"more than {MAX_METADATA_KEYS} metadata keys")
        for key, val in v.items():
            if isinstance(val, str) and len(val) > MAX_TEXT_CHARS:
                raise ValueError(f"metadata[{key!r}] is longer than {MAX_TEXT_CHARS} characters")
        return v

    @model_validator(mode="after")
    def _not_empty(self) -> "Round":
        if not (self.user_text.strip() or self.assistant_text.strip() or self.images):
            raise ValueError("round is empty: no user_text, assistant_text or images")
        return self

    # -- derived views -----------------------------------------------------------------

    @property
    def speaker(self) -> str | None:
        """Who spoke the user's words, when the source names them (``metadata["speaker"]``: a
        conversation between named people, where "what did Maria say" is about her turns)."""
        value = self.metadata.get("speaker")
        if not isinstance(value, str):
            return None
        value = " ".join(value.split())
        return value if value and len(value) <= MAX_SPEAKER_CHARS and not _NOT_A_SPEAKER.search(value) else None

    @property
    def user_label(self) -> str:
        """How the passage opens the user's words: "User", or "User (Maria)" (see ``speaker``)."""
        speaker = self.speaker
        return f"User ({speaker})" if speaker else "User"

    @property
    def text(self) -> str:
        """The round as one passage: dialogue plus image captions, for embedding and BM25; the
        user's words are headed by who spoke them when the round says (``user_label``)."""
        parts = []
        if self.user_text.strip():
            parts.append(f"{self.user_label}: {self.user_text.strip()}")
        if self.assistant_text.strip():
            parts.append(f"Assistant: {self.assistant_text.strip()}")
        for im in self.images:
            if im.caption and im.caption.strip():
                parts.append(f"[image {im.image_id}] {im.caption.strip()}")
        return "\n".join(parts)

    def content_hash(self) -> str:
        """A stable digest of the round's content, so re-ingesting it can be recognised."""
        payload = self.model_dump(mode="json", exclude={"order"})
        blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()
