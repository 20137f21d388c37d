"""LoCoMo benchmark JSON: a list of samples, each one two-speaker conversation = one scenario.

Layout (other keys such as ``event_summary``, ``observation``, ``session_summary`` are
ignored)::

    [{"sample_id": "conv-26",
      "conversation": {"speaker_a": "Caroline", "speaker_b": "Melanie",
                       "session_1_date_time": "1:56 pm on 8 May, 2023",
                       "session_1": [{"speaker": "Caroline", "dia_id": "D1:1", "text": "...",
                                      "img_url": ["https://..."], "blip_caption": "..."}],
                       "session_2_date_time": "...", "session_2": [...]},
      "qa": [{"question": "...", "answer": "7 May 2023", "evidence": ["D1:3"], "category": 2},
             {"question": "...", "adversarial_answer": "...", "evidence": [], "category": 5}]}]

Each turn becomes one round (``user_text`` is the turn, ``metadata["speaker"]`` who said it).
The released evidence lists contain hand-typed mistakes ("D8:6; D9:17", "D", ""); they are
repaired when possible and otherwise dropped with a warning, because one bad id must not cost
the whole benchmark.
"""

from __future__ import annotations

import os
import re
import warnings
from datetime import datetime
from typing import Any

from dateutil import parser as dateutil_parser
from pydantic import ValidationError

from adamm.formats.common import LoadedFile, Question, Scenario, read_json_file
from adamm.formats.errors import FormatError, from_validation_error, json_type, loc_to_field
from adamm.stores.records import Round, parse_time

_SESSION_KEY = re.compile(r"session_(\d+)")
_EVIDENCE_ID = re.compile(r"D\d+:\d+")
_EVIDENCE_SPLIT = re.compile(r"[;,\s]+")
_LOCOMO_TIME = re.compile(
    r"(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})",
    re.IGNORECASE,
)
# English month names, not ``calendar.month_name``: that one follows the process locale.
_MONTHS = {
    name: number
    for number, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
         ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
         ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
         ("december", "dec")],
        start=1,
    )
    for name in names
}
#: Round fields as LoCoMo names them, for error messages.
_SOURCE_FIELDS = {
    "round_id": "dia_id",
    "user_text": "text",
    "metadata": "speaker",
    "images": "img_url",
}


def _source_field(turn_field: str, loc: tuple[Any, ...]) -> str:
    """A Round error location in LoCoMo's field names, under the turn's JSON path."""
    if not loc:  # the empty round
        return f"{turn_field}.text"
    if loc[0] == "images" and len(loc) > 2 and loc[2] == "caption":
        return f"{turn_field}.blip_caption"
    if loc[0] == "images" and len(loc) > 1:
        return f"{turn_field}.img_url[{loc[1]}]"
    return f"{turn_field}.{_SOURCE_FIELDS.get(loc[0], loc_to_field(loc))}"


# -- dates ----------------------------------------------------------------------------------


def _strict_locomo_time(text: str) -> datetime | None:
    """The LoCoMo form "1:56 pm on 8 May, 2023", or None when ``text`` is not in that form."""
    match = _LOCOMO_TIME.fullmatch(text.strip())
    if not match:
        return None
    hour, minute, half, day, month_name, year = match.groups()
    month = _MONTHS.get(month_name.lower())
    hour_n, minute_n = int(hour), int(minute)
    if month is None or not 1 <= hour_n <= 12 or minute_n > 59:
        raise ValueError(f"{text!r} is not a valid time and date")
    hour_n = hour_n % 12 + (12 if half.lower() == "p" else 0)
    try:
        return datetime(int(year), month, int(day), hour_n, minute_n)
    except ValueError:
        raise ValueError(f"{text!r} is not a valid date") from None


def parse_locomo_datetime(text: str) -> datetime:
    """Parse a LoCoMo ``session_N_date_time`` into a naive datetime; ValueError if impossible.

    The strict form covers the released data. Other spellings go to dateutil, parsed twice
    with different default dates: if the results differ the text lacked a year, month or day
    and dateutil silently invented it, so it is rejected instead of guessed.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("date_time must be a non-empty string")
    strict = _strict_locomo_time(text)
    if strict is not None:
        return strict
    try:
        with warnings.catch_warnings():
            # dateutil drops a time zone name it does not know, with only a warning
            warnings.simplefilter("error", dateutil_parser.UnknownTimezoneWarning)
            first = dateutil_parser.parse(text, default=datetime(2001, 1, 1))
            second = dateutil_parser.parse(text, default=datetime(2002, 2, 2))
    except dateutil_parser.UnknownTimezoneWarning:
        raise ValueError(f"{text!r} names a time zone that is not understood") from None
    except (ValueError, OverflowError):
        raise ValueError(f"{text!r} is not a date and time") from None
    if first != second:
        raise ValueError(f"{text!r} is not a complete date (year, month and day are needed)")
    return parse_time(first)


# -- evidence -------------------------------------------------------------------------------


def parse_evidence(raw: Any) -> tuple[list[str], int]:
    """(valid ``D<n>:<m>`` ids in order without repeats, number of pieces dropped).

    An entry like "D8:6; D9:17" holds two ids; it is split on ``;``, ``,`` and whitespace and
    every piece that is a well-formed id is kept. Anything else, including non-strings, is
    dropped and counted -- never raised, so one typo cannot sink the file.
    """
    if raw is None:
        return [], 0
    entries = raw if isinstance(raw, list) else [raw]
    ids: list[str] = []
    dropped = 0
    for entry in entries:
        if not isinstance(entry, str):
            dropped += 1
            continue
        pieces = [p for p in _EVIDENCE_SPLIT.split(entry) if p]
        if not pieces:
            dropped += 1
        for piece in pieces:
            if _EVIDENCE_ID.fullmatch(piece):
                ids.append(piece)
            else:
                dropped += 1
    return list(dict.fromkeys(ids)), dropped


# -- one sample ------------------------------------------------------------------------------


class _Sample:
    """Reads one sample; every error and warning names the sample id first."""

    def __init__(self, file: str, index: int, raw: Any) -> None:
        self.file = file
        where = f"[{index}]"
        if not isinstance(raw, dict):
            reason = f"expected a sample object, got {json_type(raw)}"
            raise FormatError(file, reason, record=where)
        sample_id = raw.get("sample_id")
        if isinstance(sample_id, int) and not isinstance(sample_id, bool):
            sample_id = str(sample_id)
        if not isinstance(sample_id, str) or not sample_id.strip():
            raise FormatError(file, "must be a non-empty string", record=where, field="sample_id")
        self.name = sample_id.strip()
        self.raw = raw
        self.dropped_evidence = 0
        self.unknown_evidence = 0
        self.undated_sessions: list[str] = []

    def fail(self, reason: str, *, field: str | None = None,
             record: str | None = None) -> FormatError:
        """An error in this sample; ``record`` (a dia_id, ``qa[3]``) follows the sample id."""
        where = f"{self.name} {record}" if record else self.name
        return FormatError(self.file, reason, record=where, field=field)

    # -- conversation --------------------------------------------------------------------

    def sessions(self) -> list[tuple[str, list, datetime | None]]:
        """(session key, turns, time) in numeric order, so session_10 follows session_9."""
        conversation = self.raw.get("conversation")
        if not isinstance(conversation, dict):
            reason = f"must be an object, got {json_type(conversation)}"
            raise self.fail(reason, field="conversation")
        numbered = []
        for key, turns in conversation.items():
            match = _SESSION_KEY.fullmatch(key)
            if not match:
                continue
            if not isinstance(turns, list):
                reason = f"must be a list of turns, got {json_type(turns)}"
                raise self.fail(reason, field=f"conversation.{key}")
            numbered.append((int(match.group(1)), key, turns))
        if not numbered:
            raise self.fail("no session_N lists", field="conversation")
        numbered.sort()
        return [(key, turns, self._session_time(conversation, key)) for _, key, turns in numbered]

    def _session_time(self, conversation: dict[str, Any], key: str) -> datetime | None:
        raw = conversation.get(f"{key}_date_time")
        if raw is None:
            self.undated_sessions.append(key)
            return None
        try:
            return parse_locomo_datetime(raw)
        except ValueError as exc:
            raise self.fail(str(exc), field=f"conversation.{key}_date_time") from None

    def _images(self, turn: dict[str, Any], record: str, field: str) -> list[dict[str, Any]]:
        """img_url (a string or a list) as URLs; blip_caption describes the first image.

        Returned as plain dicts so that Round validation checks them and reports problems
        under the LoCoMo field names (see ``_source_field``).
        """
        urls = turn.get("img_url")
        caption = turn.get("blip_caption")
        if isinstance(urls, str):
            urls = [urls]
        if urls is None:
            urls = []
        if not isinstance(urls, list) or not all(isinstance(u, str) for u in urls):
            reason = "must be a URL string or a list of them"
            raise self.fail(reason, field=f"{field}.img_url", record=record)
        if caption is not None and not isinstance(caption, str):
            reason = f"must be a string, got {json_type(caption)}"
            raise self.fail(reason, field=f"{field}.blip_caption", record=record)
        urls = [u for u in urls if u.strip()]
        if not urls:  # a caption without a URL still tells what was shown
            has_caption = bool(caption and caption.strip())
            return [{"image_id": f"{record}:img0", "caption": caption}] if has_caption else []
        return [
            {"image_id": f"{record}:img{k}", "url": url, "caption": caption if k == 0 else None}
            for k, url in enumerate(urls)
        ]

    def _round(self, turn: Any, field: str, session_id: str, timestamp: datetime | None,
               order: int) -> Round:
        if not isinstance(turn, dict):
            raise self.fail(f"expected a turn object, got {json_type(turn)}", field=field)
        dia_id = turn.get("dia_id")
        if not isinstance(dia_id, str) or not dia_id.strip():
            raise self.fail("must be a non-empty string", field=f"{field}.dia_id")
        record = dia_id.strip()
        for key in ("speaker", "text"):
            if not isinstance(turn.get(key), str):
                reason = f"must be a string, got {json_type(turn.get(key))}"
                raise self.fail(reason, field=f"{field}.{key}", record=record)
        fields = {
            "round_id": record,
            "session_id": session_id,
            "order": order,
            "timestamp": timestamp,
            "user_text": turn["text"],
            "images": self._images(turn, record, field),
            "metadata": {"speaker": turn["speaker"]},
        }
        try:
            return Round.model_validate(fields)
        except ValidationError as exc:
            raise from_validation_error(
                exc, self.file, f"{self.name} {record}", lambda loc: _source_field(field, loc)
            ) from None

    def rounds(self) -> list[Round]:
        """All turns as rounds, numbered across sessions; dia_ids must be unique."""
        rounds: list[Round] = []
        seen: dict[str, str] = {}
        for key, turns, timestamp in self.sessions():
            for t_idx, turn in enumerate(turns):
                field = f"conversation.{key}[{t_idx}]"
                round_ = self._round(turn, field, key, timestamp, len(rounds))
                if round_.round_id in seen:
                    reason = f"duplicate dia_id; first used at {seen[round_.round_id]}"
                    raise self.fail(reason, field=f"{field}.dia_id", record=round_.round_id)
                seen[round_.round_id] = field
                rounds.append(round_)
        if not rounds:
            raise self.fail("the conversation has no turns", field="conversation")
        return rounds

    # -- questions -----------------------------------------------------------------------

    def _answer(self, qa: dict[str, Any], record: str) -> str | None:
        """``answer``, else ``adversarial_answer`` (category 5 questions have only that)."""
        for key in ("answer", "adversarial_answer"):
            value = qa.get(key)
            if value is None:
                continue
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                return str(value)
            reason = f"must be a string or number, got {json_type(value)}"
            raise self.fail(reason, field=key, record=record)
        return None

    def _category(self, qa: dict[str, Any], record: str) -> str:
        category = qa.get("category")
        valid = isinstance(category, (int, str)) and not isinstance(category, bool)
        if not valid or not str(category).strip():
            reason = f"must be a number 1..5, got {json_type(category)}"
            raise self.fail(reason, field="category", record=record)
        return str(category).strip()

    def _question(self, index: int, qa: Any, session_of: dict[str, str]) -> Question:
        record = f"qa[{index}]"
        if not isinstance(qa, dict):
            raise self.fail(f"expected an object, got {json_type(qa)}", record=record)
        question = qa.get("question")
        if not isinstance(question, str) or not question.strip():
            raise self.fail("must be a non-empty string", field="question", record=record)
        evidence, dropped = parse_evidence(qa.get("evidence"))
        self.dropped_evidence += dropped
        self.unknown_evidence += sum(1 for e in evidence if e not in session_of)
        return Question(
            question_id=f"{self.name}#{index}",
            question=question,
            answer=self._answer(qa, record),
            category=self._category(qa, record),
            evidence=evidence,
            session_ids=list(dict.fromkeys(session_of[e] for e in evidence if e in session_of)),
        )

    def questions(self, rounds: list[Round]) -> list[Question]:
        raw = self.raw.get("qa", [])
        if not isinstance(raw, list):
            raise self.fail(f"must be a list, got {json_type(raw)}", field="qa")
        session_of = {r.round_id: r.session_id for r in rounds}
        return [self._question(i, qa, session_of) for i, qa in enumerate(raw)]

    def warnings(self) -> list[str]:
        out = []
        if self.undated_sessions:
            sessions = ", ".join(self.undated_sessions)
            out.append(f"{self.name}: no date_time for {sessions}; timestamps left empty")
        if self.dropped_evidence:
            out.append(f"{self.name}: {self.dropped_evidence} unparseable evidence ids dropped")
        if self.unknown_evidence:
            count = self.unknown_evidence
            out.append(f"{self.name}: {count} evidence ids name no turn in the conversation")
        return out


def load_locomo(path: str | os.PathLike[str], data: Any = None) -> LoadedFile:
    """Load a LoCoMo file (a list of samples, or one sample object): one scenario per sample.

    Rounds are numbered 0..n-1 per sample across sessions in numeric session order; every turn
    of a session carries the session's date_time. ``data`` is the already parsed document.
    """
    file = os.fspath(path)
    if data is None:
        data = read_json_file(file)
    samples = [data] if isinstance(data, dict) else data
    if not isinstance(samples, list) or not samples:
        raise FormatError(file, f"expected a non-empty list of samples, got {json_type(data)}")
    scenarios: list[Scenario] = []
    notes: list[str] = []
    for index, raw in enumerate(samples):
        sample = _Sample(file, index, raw)
        if any(s.name == sample.name for s in scenarios):
            reason = f"duplicate sample_id {sample.name}"
            raise FormatError(file, reason, record=f"[{index}]", field="sample_id")
        rounds = sample.rounds()
        scenarios.append(Scenario(sample.name, rounds, sample.questions(rounds)))
        notes.extend(sample.warnings())
    return LoadedFile(file, "locomo", scenarios, notes)
