"""Mem-Gallery / MemEye benchmark JSON: one file is one scenario (one user's memory).

Layout (fields we do not use, such as ``character_profile``, are ignored)::

    {"multi_session_dialogues": [
        {"session_id": "D1", "date": "2024-06-24",
         "dialogues": [{"round": "D1:1", "user": "...", "assistant": "...",
                        "image_id": ["D1:IMG_001"],
                        "input_image": ["../image/<scenario>/D1_IMG_001.jpg"],
                        "image_caption": ["..."]}]}],
     "human-annotated QAs": [
        {"point": "FR", "question": "...", "answer": "...", "session_id": ["D1"],
         "clue": ["D1:1"], "question_image": "../image/...", "image_caption": "..."}]}

Image files are often not distributed with the dialogues (the development split ships none).
An image whose file is absent is kept as its caption -- with no image encoder weights the
caption is all adamm would use anyway -- and the file gets one summary warning instead of a
failure. A file that exists but is not an image is still an error: that is a broken dataset.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from adamm.formats.common import LoadedFile, Question, Scenario, read_json_file
from adamm.formats.errors import FormatError, from_validation_error, json_type, loc_to_field
from adamm.formats.jsonl import image_exists, image_problem, resolve_image_path
from adamm.stores.records import ImageRef, Round, parse_time

SESSIONS = "multi_session_dialogues"
QAS = "human-annotated QAs"

#: Round fields as the Mem-Gallery file names them, for error messages.
_SOURCE_FIELDS = {
    "round_id": "round",
    "session_id": "session_id",
    "timestamp": "date",
    "user_text": "user",
    "assistant_text": "assistant",
    "images": "image_id",
}
_IMAGE_FIELDS = {"image_id": "image_id", "path": "input_image", "caption": "image_caption"}


class _Reader:
    """State shared while reading one file: where it is, and what was missing in it."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.base_dir = Path(file).resolve().parent
        self.missing_files = 0
        self.dropped_images = 0
        self.unknown_clues = 0

    def fail(self, reason: str, record: str | None = None, field: str | None = None) -> FormatError:
        return FormatError(self.file, reason, record=record, field=field)

    # -- typed access to raw values ---------------------------------------------------

    def text(self, raw: dict[str, Any], key: str, record: str) -> str:
        """An optional text field: absent or null is empty, any other non-string is an error."""
        value = raw.get(key)
        if value is None:
            return ""
        if not isinstance(value, str):
            raise self.fail(f"must be a string, got {json_type(value)}", record, key)
        return value

    def str_list(self, raw: dict[str, Any], key: str, record: str, *,
                 nullable: bool = False) -> list | None:
        """An optional list of strings (items may be null when ``nullable``); None if absent."""
        value = raw.get(key)
        if value is None:
            return None
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise self.fail(f"must be a list of strings, got {json_type(value)}", record, key)
        for k, item in enumerate(value):
            if not isinstance(item, str) and not (nullable and item is None):
                raise self.fail(f"must be a string, got {json_type(item)}", record, f"{key}[{k}]")
        return value

    # -- images -----------------------------------------------------------------------

    def image(self, record: str, fields: tuple[str, str, str], image_id: str, raw_path: str | None,
              caption: str | None) -> ImageRef | None:
        """One image: its file when present (verified), else caption-only, else dropped.

        ``fields`` names the id, path and caption fields in the source, for error messages.
        """
        path = None
        if raw_path is not None and raw_path.strip():
            resolved = resolve_image_path(self.base_dir, raw_path)
            if image_exists(resolved):
                problem = image_problem(resolved)
                if problem:
                    raise self.fail(problem, record, fields[1])
                path = str(resolved)
            else:
                self.missing_files += 1
        if path is None and not (caption and caption.strip()):
            self.dropped_images += 1
            return None
        try:
            return ImageRef(image_id=image_id, path=path, caption=caption)
        except ValidationError as exc:
            names = dict(zip(("image_id", "path", "caption"), fields))
            raise from_validation_error(
                exc, self.file, record, lambda loc: names.get(loc[0]) if loc else fields[0]
            ) from None

    def round_images(self, raw: dict[str, Any], record: str) -> list[ImageRef]:
        """zip(image_id, input_image, image_caption), insisting the lists line up."""
        ids = self.str_list(raw, "image_id", record)
        paths = self.str_list(raw, "input_image", record, nullable=True)
        captions = self.str_list(raw, "image_caption", record, nullable=True)
        if ids is None:
            if paths or captions:
                reason = "required when input_image or image_caption is given"
                raise self.fail(reason, record, "image_id")
            return []
        for key, values in (("input_image", paths), ("image_caption", captions)):
            if values is not None and len(values) != len(ids):
                reason = f"has {len(values)} entries but image_id has {len(ids)}"
                raise self.fail(reason, record, key)
        paths = paths or [None] * len(ids)
        captions = captions or [None] * len(ids)
        images = []
        for k, (image_id, path, caption) in enumerate(zip(ids, paths, captions)):
            fields = (f"image_id[{k}]", f"input_image[{k}]", f"image_caption[{k}]")
            image = self.image(record, fields, image_id, path, caption)
            if image is not None:
                images.append(image)
        return images

    def warnings(self) -> list[str]:
        out = []
        if self.missing_files:
            out.append(f"{self.missing_files} image files not found; captions kept")
        if self.dropped_images:
            out.append(f"{self.dropped_images} images with neither a file nor a caption dropped")
        if self.unknown_clues:
            out.append(f"{self.unknown_clues} clue round ids name no round in the file")
        return out


# -- rounds -------------------------------------------------------------------------------


def _source_field(loc: tuple[Any, ...]) -> str | None:
    """A Round error location in Mem-Gallery's own field names (the empty round names all)."""
    if not loc:
        return "user/assistant/image_id"
    if loc[0] == "images" and len(loc) > 1:
        sub = _IMAGE_FIELDS.get(loc[2], loc[2]) if len(loc) > 2 else "image_id"
        return f"{sub}[{loc[1]}]"
    return _SOURCE_FIELDS.get(loc[0], loc_to_field(loc))


def _session_header(reader: _Reader, index: int, raw: Any) -> tuple[str, datetime | None, list]:
    """(session id, date as midnight, raw dialogues) of one session entry."""
    where = f"{SESSIONS}[{index}]"
    if not isinstance(raw, dict):
        raise reader.fail(f"expected an object, got {json_type(raw)}", where)
    session_id = raw.get("session_id")
    if not isinstance(session_id, str) or not session_id.strip():
        raise reader.fail("must be a non-empty string", where, "session_id")
    date = raw.get("date")
    timestamp = None
    if date is not None:
        try:
            timestamp = parse_time(date)
        except ValueError as exc:
            raise reader.fail(f"session {session_id}: {exc}", where, "date") from None
    dialogues = raw.get("dialogues")
    if not isinstance(dialogues, list):
        reason = f"must be a list of rounds, got {json_type(dialogues)}"
        raise reader.fail(reason, where, "dialogues")
    return session_id.strip(), timestamp, dialogues


def _round(reader: _Reader, where: str, raw: Any, session_id: str, timestamp: datetime | None,
           order: int) -> Round:
    if not isinstance(raw, dict):
        raise reader.fail(f"expected an object, got {json_type(raw)}", where)
    round_id = raw.get("round")
    if not isinstance(round_id, str) or not round_id.strip():
        reason = "required field is missing" if round_id is None else "must be a non-empty string"
        raise reader.fail(reason, where, "round")
    record = round_id.strip()
    fields = {
        "round_id": round_id,
        "session_id": session_id,
        "order": order,
        "timestamp": timestamp,
        "user_text": reader.text(raw, "user", record),
        "assistant_text": reader.text(raw, "assistant", record),
        "images": reader.round_images(raw, record),
    }
    try:
        return Round.model_validate(fields)
    except ValidationError as exc:
        raise from_validation_error(exc, reader.file, record, _source_field) from None


def _rounds(reader: _Reader, sessions: list) -> list[Round]:
    rounds: list[Round] = []
    seen_sessions: set[str] = set()
    seen_rounds: dict[str, str] = {}
    for s_idx, raw_session in enumerate(sessions):
        session_id, timestamp, dialogues = _session_header(reader, s_idx, raw_session)
        if session_id in seen_sessions:
            where = f"{SESSIONS}[{s_idx}]"
            raise reader.fail(f"duplicate session_id {session_id}", where, "session_id")
        seen_sessions.add(session_id)
        for r_idx, raw in enumerate(dialogues):
            where = f"{SESSIONS}[{s_idx}].dialogues[{r_idx}]"
            round_ = _round(reader, where, raw, session_id, timestamp, len(rounds))
            if round_.round_id in seen_rounds:
                reason = f"duplicate round id; first used at {seen_rounds[round_.round_id]}"
                raise reader.fail(reason, round_.round_id, "round")
            seen_rounds[round_.round_id] = where
            rounds.append(round_)
    if not rounds:
        raise reader.fail("no dialogue rounds", field=SESSIONS)
    return rounds


# -- questions ----------------------------------------------------------------------------


def _answer(reader: _Reader, raw: dict[str, Any], record: str) -> str | None:
    value = raw.get("answer")
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise reader.fail(f"must be a string or number, got {json_type(value)}", record, "answer")


def _question_image(reader: _Reader, raw: dict[str, Any], record: str,
                    question_id: str) -> ImageRef | None:
    """question_image + image_caption, like a round's image (caption-only if the file is absent)."""
    path = raw.get("question_image")
    caption = raw.get("image_caption")
    for key, value in (("question_image", path), ("image_caption", caption)):
        if value is not None and not isinstance(value, str):
            raise reader.fail(f"must be a string, got {json_type(value)}", record, key)
    if path is None and caption is None:
        return None
    image_id = Path(path).stem if path and Path(path).stem else f"{question_id}:image"
    fields = ("question_image", "question_image", "image_caption")
    return reader.image(record, fields, image_id, path, caption)


def _question(reader: _Reader, stem: str, index: int, raw: Any,
              session_of: dict[str, str]) -> Question:
    """One QA entry; session_ids fall back to the sessions of the clue rounds."""
    record = f"{QAS}[{index}]"
    if not isinstance(raw, dict):
        raise reader.fail(f"expected an object, got {json_type(raw)}", record)
    question = raw.get("question")
    if not isinstance(question, str) or not question.strip():
        raise reader.fail("must be a non-empty string", record, "question")
    point = raw.get("point")
    if not isinstance(point, str) or not point.strip():
        raise reader.fail("must be a non-empty string (the question category)", record, "point")
    clues = reader.str_list(raw, "clue", record) or []
    reader.unknown_clues += sum(1 for c in clues if c not in session_of)
    sessions = reader.str_list(raw, "session_id", record)
    if sessions is None:
        sessions = list(dict.fromkeys(session_of[c] for c in clues if c in session_of))
    question_id = f"{stem}#{index}"
    return Question(
        question_id=question_id,
        question=question,
        answer=_answer(reader, raw, record),
        category=point.strip(),
        evidence=clues,
        session_ids=sessions,
        image=_question_image(reader, raw, record, question_id),
    )


def load_mem_gallery(path: str | os.PathLike[str], data: Any = None) -> LoadedFile:
    """Load one Mem-Gallery / MemEye file as one scenario named after the file stem.

    Rounds are numbered 0..n-1 in file order across sessions; a round's timestamp is its
    session's date at midnight. ``data`` is the already parsed document, when the caller has it.
    """
    file = os.fspath(path)
    if data is None:
        data = read_json_file(file)
    reader = _Reader(file)
    if not isinstance(data, dict) or not isinstance(data.get(SESSIONS), list):
        raise reader.fail(f"expected a JSON object with a list {SESSIONS!r}")
    rounds = _rounds(reader, data[SESSIONS])
    raw_questions = data.get(QAS, [])
    if not isinstance(raw_questions, list):
        raise reader.fail(f"must be a list, got {json_type(raw_questions)}", field=QAS)
    stem = Path(file).stem
    session_of = {r.round_id: r.session_id for r in rounds}
    questions = [_question(reader, stem, i, raw, session_of) for i, raw in enumerate(raw_questions)]
    return LoadedFile(file, "mem-gallery", [Scenario(stem, rounds, questions)], reader.warnings())
