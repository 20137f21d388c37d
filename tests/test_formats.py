"""Loaders for our JSONL, Mem-Gallery / MemEye JSON and LoCoMo JSON (``adamm.formats``).

Fixtures are built in tmp_path; the real Mem-Gallery development split is used when present.
"""

from __future__ import annotations

import base64
import copy
import io
import json
import pickle
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from adamm.formats import FormatError, LoadedFile, detect_format, dump_rounds, load
from adamm.formats.errors import loc_to_field
from adamm.formats.locomo import parse_evidence, parse_locomo_datetime
from adamm.stores.records import MAX_TEXT_CHARS, ImageRef, Round
from adamm.tests.needs import require_shared

MEM_GALLERY_DIR = Path(__file__).resolve().parents[2] / "shared/data/mem_gallery/dialog"
BAKING = MEM_GALLERY_DIR / "Baking_Dessert_Daily_Life_Skill.json"


def png_bytes(color: str = "red", size: tuple[int, int] = (4, 3)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, format="PNG")
    return buf.getvalue()


def write_lines(path: Path, lines: list) -> Path:
    """Write JSONL: dicts are JSON-encoded, strings written verbatim (for broken lines)."""
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    path.write_text(text + "\n", encoding="utf-8")
    return path


# -- FormatError ----------------------------------------------------------------------------


def test_format_error_is_one_line_and_omits_missing_parts():
    err = FormatError("a.jsonl", "bad\nthing", record="line 3 (round_id r1)", field="images[0].x")
    assert str(err) == "a.jsonl: record line 3 (round_id r1): field images[0].x: bad thing"
    assert str(FormatError("a.jsonl", "unreadable")) == "a.jsonl: unreadable"
    assert str(FormatError("a.jsonl", "x", field="f")) == "a.jsonl: field f: x"
    assert isinstance(err, ValueError)
    again = pickle.loads(pickle.dumps(err))
    assert vars(again) == vars(err) and str(again) == str(err)


def test_loc_to_field_reads_like_a_json_path():
    assert loc_to_field(("images", 0, "caption")) == "images[0].caption"
    assert loc_to_field(("metadata", "a.b", "int")) == 'metadata["a.b"]'
    assert loc_to_field(()) is None


# -- JSONL: good files ----------------------------------------------------------------------


def test_jsonl_round_trip_preserves_everything(tmp_path):
    photo = tmp_path / "photo.png"
    photo.write_bytes(png_bytes())
    rounds = [
        Round(
            round_id="r1",
            session_id="s1",
            order=0,
            timestamp="2024-03-04T07:30:00",
            user_text="Slept 6.5 h, see the dashboard \u2028 (line separator inside)",
            assistant_text="Noted.",
            images=[
                ImageRef(image_id="inline", data=png_bytes("blue"), caption="sleep dashboard"),
                ImageRef(image_id="file", path=str(photo)),
                ImageRef(image_id="web", url="https://example.org/x.jpg", caption="a chart"),
            ],
            metadata={
                "source": "watch", "steps": 8042, "score": 0.82, "synced": True, "note": None
            },
        ),
        Round(round_id="r2", session_id="s1", timestamp="2024-03-05T09:00:00+02:00",
              user_text="hi"),
        Round(round_id="r3", session_id="s2", assistant_text="only the assistant spoke"),
    ]
    target = tmp_path / "out" / "rounds.jsonl"
    target.parent.mkdir()
    assert dump_rounds(rounds, target) == 3

    loaded = load(target)
    assert isinstance(loaded, LoadedFile) and loaded.format == "jsonl" and loaded.warnings == []
    [scenario] = loaded.scenarios
    assert scenario.name == "rounds" and scenario.questions == []
    # a round without ``order`` keeps none: the store appends it after the memory's last round
    assert [r.model_dump() for r in scenario.rounds] == [r.model_dump() for r in rounds]
    first = scenario.rounds[0]
    assert first.images[0].data == png_bytes("blue")
    assert first.timestamp == datetime(2024, 3, 4, 7, 30)
    assert scenario.rounds[1].timestamp == datetime(2024, 3, 5, 7, 0)  # aware -> UTC, naive
    assert type(first.metadata["steps"]) is int and type(first.metadata["synced"]) is bool
    # the file is plain readable JSONL with base64 image data
    line = json.loads(target.read_text(encoding="utf-8").splitlines()[0])
    assert base64.b64decode(line["images"][0]["data"]) == png_bytes("blue")
    assert not list(target.parent.glob(".*.tmp"))  # the atomic write left nothing behind


def test_jsonl_relative_paths_missing_orders_and_blank_lines(tmp_path):
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "a.png").write_bytes(png_bytes())
    path = tmp_path / "mem.jsonl"
    first = {"round_id": "a", "user_text": "one", "images": [{"image_id": "i", "path": "img/a.png"}]}
    second = {"round_id": "b", "user_text": "two"}
    path.write_text(f"{json.dumps(first)}\n\n   \n{json.dumps(second)}", encoding="utf-8")
    rounds = load(path).scenarios[0].rounds
    assert [r.round_id for r in rounds] == ["a", "b"]
    assert [r.order for r in rounds] == [None, None]  # numbered when stored, after the memory's last round
    assert rounds[0].images[0].path == str((tmp_path / "img" / "a.png").resolve())
    assert rounds[0].session_id == "default"


def test_jsonl_empty_file_loads_with_a_warning(tmp_path):
    loaded = load(write_lines(tmp_path / "empty.jsonl", []))
    assert loaded.scenarios[0].rounds == [] and loaded.warnings == ["file holds no rounds"]


def test_dump_rounds_refuses_nan_metadata(tmp_path):
    bad = Round(round_id="r1", user_text="x", metadata={"v": float("nan")})
    with pytest.raises(FormatError, match="r1.*metadata"):
        dump_rounds([bad], tmp_path / "x.jsonl")


# -- JSONL: bad files -----------------------------------------------------------------------


def _image_line(path: str) -> dict:
    return {"round_id": "r1", "user_text": "look", "images": [{"image_id": "i1", "path": path}]}


@pytest.fixture
def image_files(tmp_path):
    (tmp_path / "corrupt.png").write_bytes(b"\x00garbage bytes, not a PNG\xff" * 10)
    (tmp_path / "truncated.png").write_bytes(png_bytes(size=(64, 64))[:40])
    (tmp_path / "notes.txt").write_text("just some text, no image here")
    (tmp_path / "a_dir.png").mkdir()
    return tmp_path


R1 = "line 1 (round_id r1)"


def _r1(**fields) -> dict:
    return {"round_id": "r1", "user_text": "x", **fields}


TOO_LONG = "x" * (MAX_TEXT_CHARS + 1)

# name: (lines, record, field, reason fragment); str lines are written verbatim
BAD_JSONL = {
    "wrong type": ([_r1(user_text=5)], R1, "user_text", "got number"),
    "order as string": ([_r1(order="3")], R1, "order", "integer"),
    "missing round_id": ([{"user_text": "hello"}], "line 1", "round_id", "missing"),
    "duplicate round_id": (
        [_r1(), _r1(user_text="b")], "line 2 (round_id r1)", "round_id", "first used on line 1"
    ),
    "duplicate order": (
        [_r1(order=1), {"round_id": "r2", "user_text": "b", "order": 1}],
        "line 2 (round_id r2)", "order", "already used on line 1",
    ),
    "bad timestamp": ([_r1(timestamp="next tuesday")], R1, "timestamp", "ISO-8601"),
    "empty round": ([_r1(user_text="  ")], R1, "user_text/assistant_text/images", "empty"),
    "text over limit": ([_r1(user_text=TOO_LONG)], R1, "user_text", "longer than"),
    "caption over limit": (
        [_r1(images=[{"image_id": "i", "caption": TOO_LONG}])], R1, "images[0].caption", "longer than"
    ),
    "missing image file": ([_image_line("nowhere/missing.png")], R1, "images[0].path", "not found"),
    "corrupt image file": ([_image_line("corrupt.png")], R1, "images[0].path", "not a readable image"),
    "truncated image": ([_image_line("truncated.png")], R1, "images[0].path", "not a readable image"),
    "non-image file": ([_image_line("notes.txt")], R1, "images[0].path", "not a readable image"),
    "directory as image": ([_image_line("a_dir.png")], R1, "images[0].path", "not a regular file"),
    "bad base64": ([_r1(images=[{"image_id": "i", "data": "%%%"}])], R1, "images[0].data", "base64"),
    "image with nothing": ([_r1(images=[{"image_id": "i"}])], R1, "images[0]", "needs a path"),
    "nested metadata": ([_r1(metadata={"k": [1, 2]})], R1, 'metadata["k"]', "got array"),
    "unknown field": ([_r1(user_txt="typo")], R1, "user_txt", "unknown field"),
    "invalid JSON line": ([_r1(), '{"round_id": "r2", "user_text": '], "line 2", None, "invalid JSON"),
    "duplicate key": (['{"round_id": "r1", "user_text": "a", "user_text": "b"}'], "line 1", None,
                      "appears twice"),
    "NaN": (['{"round_id": "r1", "user_text": "a", "metadata": {"v": NaN}}'], "line 1", None, "NaN"),
    "not an object": (['["r1", "hello"]'], "line 1", None, "expected a JSON object, got array"),
}


@pytest.mark.parametrize("case", list(BAD_JSONL), ids=list(BAD_JSONL))
def test_bad_jsonl_names_file_record_and_field(case, image_files):
    lines, record, field, reason = BAD_JSONL[case]
    path = write_lines(image_files / "bad.jsonl", lines)
    with pytest.raises(FormatError) as info:
        load(path)
    err = info.value
    assert (err.file, err.record, err.field) == (str(path), record, field)
    assert reason in err.reason
    message = str(err)
    assert "\n" not in message and str(path) in message and f"record {record}" in message
    if field:
        assert f"field {field}" in message


def test_invalid_utf8_names_the_line(tmp_path):
    path = tmp_path / "bin.jsonl"
    path.write_bytes(b'{"round_id": "r1", "user_text": "ok"}\n{"round_id": "r2", "user_text": "\xff"}')
    with pytest.raises(FormatError, match="record line 2: not valid UTF-8"):
        load(path)


def test_missing_file_is_a_format_error(tmp_path):
    with pytest.raises(FormatError, match="cannot read file"):
        load(tmp_path / "absent.jsonl")


# -- Mem-Gallery ----------------------------------------------------------------------------


def mem_gallery_doc() -> dict:
    """A small file in the Mem-Gallery layout, with the extras real files carry."""
    return {
        "character_profile": {"name": "Maya", "traits": ["methodical"]},
        "multi_session_dialogues": [
            {
                "session_id": "D1",
                "date": "2024-06-24",
                "dialogues": [
                    {
                        "round": "D1:1",
                        "user": "Here is my first sourdough.",
                        "assistant": "Lovely crumb!",
                        "image_id": ["D1:IMG_001"],
                        "input_image": ["../image/demo/D1_IMG_001.jpg"],
                        "image_caption": ["A round loaf of bread on a board."],
                    },
                    {"round": "D1:2", "user": "How long to proof?", "assistant": "About 4 hours."},
                ],
            },
            {
                "session_id": "D2",
                "date": "2024-07-01",
                "dialogues": [{"round": "D2:1", "user": "It rose well.", "assistant": "Great."}],
            },
        ],
        "human-annotated QAs": [
            {
                "point": "FR",
                "question": "How long to proof?",
                "answer": "About 4 hours.",
                "session_id": ["D1"],
                "clue": ["D1:2"],
            },
            {
                "point": "VS",
                "question": "What is in the picture?",
                "question_image": "../image/demo/QA_IMG_001.jpg",
                "image_caption": "A loaf.",
                "answer": 1,
                "session_id": ["D1"],
                "clue": ["D1:1"],
            },
        ],
    }


def write_json(path: Path, doc) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_mem_gallery_small_file(tmp_path):
    loaded = load(write_json(tmp_path / "dialog" / "demo.json", mem_gallery_doc()))
    assert loaded.format == "mem-gallery"
    assert loaded.warnings == ["2 image files not found; captions kept"]
    [scenario] = loaded.scenarios
    assert [(r.round_id, r.session_id, r.order) for r in scenario.rounds] == [
        ("D1:1", "D1", 0), ("D1:2", "D1", 1), ("D2:1", "D2", 2)]
    first = scenario.rounds[0]
    assert first.timestamp == datetime(2024, 6, 24) and first.assistant_text == "Lovely crumb!"
    assert first.images == [
        ImageRef(image_id="D1:IMG_001", caption="A round loaf of bread on a board.")]
    q0, q1 = scenario.questions
    assert (q0.question_id, q0.category, q0.evidence, q0.session_ids, q0.image) == (
        "demo#0", "FR", ["D1:2"], ["D1"], None)
    assert q1.answer == "1" and q1.image == ImageRef(image_id="QA_IMG_001", caption="A loaf.")


def test_mem_gallery_keeps_existing_images_and_rejects_corrupt_ones(tmp_path):
    image_dir = tmp_path / "image" / "demo"
    image_dir.mkdir(parents=True)
    (image_dir / "D1_IMG_001.jpg").write_bytes(png_bytes())  # PIL reads by content, not suffix
    path = write_json(tmp_path / "dialog" / "demo.json", mem_gallery_doc())
    loaded = load(path)
    image = loaded.scenarios[0].rounds[0].images[0]
    assert image.path == str((image_dir / "D1_IMG_001.jpg").resolve()) and image.caption
    assert loaded.warnings == ["1 image files not found; captions kept"]  # the question image

    (image_dir / "D1_IMG_001.jpg").write_bytes(b"definitely not a jpeg")
    with pytest.raises(FormatError) as info:
        load(path)
    assert (info.value.record, info.value.field) == ("D1:1", "input_image[0]")


def _break(doc: dict, mutate) -> dict:
    doc = copy.deepcopy(doc)
    mutate(doc)
    return doc


def _rounds(doc, s=0):
    return doc["multi_session_dialogues"][s]["dialogues"]


def _session(doc, s):
    return doc["multi_session_dialogues"][s]


def _qa(doc, i):
    return doc["human-annotated QAs"][i]


FIRST_SESSION = "multi_session_dialogues[0]"

# name: (mutation, record, field)
BAD_MEM_GALLERY = {
    "missing round": (lambda d: _rounds(d)[1].pop("round"), f"{FIRST_SESSION}.dialogues[1]", "round"),
    "user not a string": (lambda d: _rounds(d)[1].update(user=["a"]), "D1:2", "user"),
    "duplicate round id": (lambda d: _rounds(d, 1)[0].update(round="D1:1"), "D1:1", "round"),
    "bad session date": (
        lambda d: _session(d, 1).update(date="2024-13-45"), "multi_session_dialogues[1]", "date"
    ),
    "empty round": (
        lambda d: _rounds(d)[1].update(user="", assistant=" "), "D1:2", "user/assistant/image_id"
    ),
    "image lists differ": (
        lambda d: _rounds(d)[0].update(image_caption=["a", "b"]), "D1:1", "image_caption"
    ),
    "text over limit": (lambda d: _rounds(d)[1].update(assistant=TOO_LONG), "D1:2", "assistant"),
    "question missing": (lambda d: _qa(d, 1).pop("question"), "human-annotated QAs[1]", "question"),
    "clue not a list": (lambda d: _qa(d, 0).update(clue=5), "human-annotated QAs[0]", "clue"),
    "dialogues not a list": (
        lambda d: _session(d, 0).update(dialogues={}), FIRST_SESSION, "dialogues"
    ),
}


@pytest.mark.parametrize("case", list(BAD_MEM_GALLERY), ids=list(BAD_MEM_GALLERY))
def test_bad_mem_gallery_names_record_and_field(case, tmp_path):
    mutate, record, field = BAD_MEM_GALLERY[case]
    path = write_json(tmp_path / "demo.json", _break(mem_gallery_doc(), mutate))
    with pytest.raises(FormatError) as info:
        load(path)
    assert (info.value.file, info.value.record, info.value.field) == (str(path), record, field)
    assert str(path) in str(info.value)


def test_mem_gallery_without_sessions_is_rejected(tmp_path):
    path = write_json(tmp_path / "x.json", {"multi_session_dialogues": []})
    with pytest.raises(FormatError, match="no dialogue rounds"):
        load(path)


@pytest.fixture
def dev_split() -> Path:
    """The Mem-Gallery development split in ../shared (skipped without it; failed under CI)."""
    return require_shared(BAKING)


needs_dev_split = pytest.mark.usefixtures("dev_split")


@needs_dev_split
def test_mem_gallery_real_file():
    raw = json.loads(BAKING.read_text(encoding="utf-8"))
    loaded = load(BAKING)
    assert loaded.format == "mem-gallery"
    [scenario] = loaded.scenarios
    assert scenario.name == BAKING.stem
    entries = [r for s in raw["multi_session_dialogues"] for r in s["dialogues"]]
    assert len(scenario.rounds) == len(entries)
    ids = [r.round_id for r in scenario.rounds]
    assert ids == [r["round"] for r in entries] and len(set(ids)) == len(ids)
    assert [r.order for r in scenario.rounds] == list(range(len(entries)))
    dates = {s["session_id"]: s["date"] for s in raw["multi_session_dialogues"]}
    assert all(r.timestamp == datetime.fromisoformat(dates[r.session_id]) for r in scenario.rounds)
    captions = [c for r in entries for c in r.get("image_caption", [])]
    assert [im.caption for r in scenario.rounds for im in r.images] == captions
    assert all(im.path is None for r in scenario.rounds for im in r.images)  # files not shipped
    qas = raw["human-annotated QAs"]
    expected_ids = [f"{BAKING.stem}#{i}" for i in range(len(qas))]
    assert [q.question_id for q in scenario.questions] == expected_ids
    assert [q.evidence for q in scenario.questions] == [q["clue"] for q in qas]
    assert [q.category for q in scenario.questions] == [q["point"] for q in qas]
    with_image = [q for q in scenario.questions if q.image]
    assert len(with_image) == sum("question_image" in q for q in qas)
    assert all(q.image.caption and q.image.path is None for q in with_image)
    missing = len(captions) + len(with_image)
    assert loaded.warnings == [f"{missing} image files not found; captions kept"]


@needs_dev_split
def test_mem_gallery_real_file_with_one_broken_record(tmp_path):
    raw = json.loads(BAKING.read_text(encoding="utf-8"))
    raw["multi_session_dialogues"][2]["dialogues"][5]["user"] = 42
    broken_id = raw["multi_session_dialogues"][2]["dialogues"][5]["round"]
    path = write_json(tmp_path / BAKING.name, raw)
    with pytest.raises(FormatError) as info:
        load(path)
    assert (info.value.record, info.value.field) == (broken_id, "user")
    assert str(info.value).startswith(f"{path}: record {broken_id}: field user: ")


@needs_dev_split
def test_all_mem_gallery_files_load():
    files = sorted(MEM_GALLERY_DIR.glob("*.json"))
    assert len(files) == 14
    for path in files:
        loaded = load(path)
        [scenario] = loaded.scenarios
        assert scenario.rounds and scenario.questions
        assert len({r.round_id for r in scenario.rounds}) == len(scenario.rounds)


# -- LoCoMo ---------------------------------------------------------------------------------


def turn(speaker: str, dia_id: str, text: str, **extra) -> dict:
    return {"speaker": speaker, "dia_id": dia_id, "text": text, **extra}


def qa(question: str, evidence, category, **answer) -> dict:
    return {"question": question, "evidence": evidence, "category": category, **answer}


def locomo_doc() -> list:
    """Two samples, two sessions each; the second lists session_10 before session_9."""
    first = {
        "sample_id": "conv-1",
        "conversation": {
            "speaker_a": "Caroline",
            "speaker_b": "Melanie",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                turn("Caroline", "D1:1", "Hey Mel! I went to a support group yesterday."),
                turn(
                    "Melanie", "D1:2", "That's great. Look what I painted!",
                    img_url=["https://example.org/sunset.jpg"],
                    blip_caption="a photo of a painting of a sunset",
                    query="sunset painting",
                ),
            ],
            "session_2_date_time": "12:04 am on 25 May, 2023",
            "session_2": [
                turn("Caroline", "D2:1", "I ran a charity race.", img_url="https://example.org/r.jpg"),
            ],
        },
        "qa": [
            qa("When did Caroline go to the support group?", ["D1:1"], 2, answer="7 May 2023"),
            qa("How many races did Caroline run?", ["D2:1; D1:2", "D", ""], 1, answer=1),
            qa("What did Melanie adopt?", [], 5, adversarial_answer="a dog"),
        ],
        "event_summary": {"events_session_1": {}},
        "observation": {},
        "session_summary": {"session_1_summary": "..."},
    }
    second = {
        "sample_id": "conv-2",
        "conversation": {
            "speaker_a": "Jon",
            "speaker_b": "Gina",
            "session_10_date_time": "9:15 am on 2 June, 2023",
            "session_10": [turn("Jon", "D10:1", "Opened the studio today.")],
            "session_9_date_time": "4:00 pm on 30 May, 2023",
            "session_9": [
                turn("Gina", "D9:1", "Ready for tomorrow?"),
                turn(
                    "Jon", "D9:2", "",
                    img_url=["https://example.org/a.jpg", "https://example.org/b.jpg"],
                    blip_caption="a dance floor",
                ),
            ],
        },
        "qa": [qa("When did Jon open the studio?", ["D10:1", 7, "D99:1"], "2", answer="2 June 2023")],
    }
    return [first, second]


def test_locomo_two_samples(tmp_path):
    loaded = load(write_json(tmp_path / "locomo10.json", locomo_doc()))
    assert loaded.format == "locomo" and [s.name for s in loaded.scenarios] == ["conv-1", "conv-2"]
    one, two = loaded.scenarios
    assert [(r.round_id, r.session_id, r.order) for r in one.rounds] == [
        ("D1:1", "session_1", 0), ("D1:2", "session_1", 1), ("D2:1", "session_2", 2)]
    assert one.rounds[0].timestamp == datetime(2023, 5, 8, 13, 56)
    assert one.rounds[2].timestamp == datetime(2023, 5, 25, 0, 4)
    assert one.rounds[0].metadata == {"speaker": "Caroline"} and one.rounds[0].assistant_text == ""
    assert one.rounds[1].images == [
        ImageRef(image_id="D1:2:img0", url="https://example.org/sunset.jpg",
                 caption="a photo of a painting of a sunset")]
    assert one.rounds[2].images[0].url == "https://example.org/r.jpg"

    q_date, q_count, q_adv = one.questions
    assert (q_date.question_id, q_date.answer, q_date.category) == ("conv-1#0", "7 May 2023", "2")
    assert (q_date.evidence, q_date.session_ids, q_date.image) == (["D1:1"], ["session_1"], None)
    assert q_count.answer == "1" and q_count.evidence == ["D2:1", "D1:2"]
    assert q_count.session_ids == ["session_2", "session_1"]
    assert (q_adv.answer, q_adv.category, q_adv.evidence) == ("a dog", "5", [])

    assert [(r.round_id, r.session_id, r.order) for r in two.rounds] == [
        ("D9:1", "session_9", 0), ("D9:2", "session_9", 1), ("D10:1", "session_10", 2)]
    assert [im.caption for im in two.rounds[1].images] == ["a dance floor", None]
    assert two.questions[0].evidence == ["D10:1", "D99:1"]  # kept, and warned about below
    assert two.questions[0].session_ids == ["session_10"]
    assert loaded.warnings == [
        "conv-1: 2 unparseable evidence ids dropped",
        "conv-2: 1 unparseable evidence ids dropped",
        "conv-2: 1 evidence ids name no turn in the conversation",
    ]


def test_locomo_single_sample_dict(tmp_path):
    loaded = load(write_json(tmp_path / "one.json", locomo_doc()[0]))
    assert [s.name for s in loaded.scenarios] == ["conv-1"]


def _turn(doc, sample, session, i):
    return doc[sample]["conversation"][session][i]


def _conversation(doc, sample):
    return doc[sample]["conversation"]


# name: (mutation, record, field)
BAD_LOCOMO = {
    "bad date": (
        lambda d: _conversation(d, 0).update(session_2_date_time="sometime in May"),
        "conv-1", "conversation.session_2_date_time",
    ),
    "impossible date": (
        lambda d: _conversation(d, 1).update(session_9_date_time="4:00 pm on 31 June, 2023"),
        "conv-2", "conversation.session_9_date_time",
    ),
    "text not a string": (
        lambda d: _turn(d, 0, "session_1", 1).update(text=None),
        "conv-1 D1:2", "conversation.session_1[1].text",
    ),
    "missing dia_id": (
        lambda d: _turn(d, 1, "session_9", 0).pop("dia_id"),
        "conv-2", "conversation.session_9[0].dia_id",
    ),
    "duplicate dia_id": (
        lambda d: _turn(d, 0, "session_2", 0).update(dia_id="D1:1"),
        "conv-1 D1:1", "conversation.session_2[0].dia_id",
    ),
    "empty turn": (
        lambda d: _turn(d, 0, "session_1", 0).update(text=" "),
        "conv-1 D1:1", "conversation.session_1[0].text",
    ),
    "session not a list": (
        lambda d: _conversation(d, 0).update(session_2="oops"), "conv-1", "conversation.session_2"
    ),
    "answer is a list": (lambda d: d[0]["qa"][0].update(answer=["a"]), "conv-1 qa[0]", "answer"),
    "duplicate sample_id": (lambda d: d[1].update(sample_id="conv-1"), "[1]", "sample_id"),
}


@pytest.mark.parametrize("case", list(BAD_LOCOMO), ids=list(BAD_LOCOMO))
def test_bad_locomo_names_record_and_field(case, tmp_path):
    mutate, record, field = BAD_LOCOMO[case]
    path = write_json(tmp_path / "locomo.json", _break(locomo_doc(), mutate))
    with pytest.raises(FormatError) as info:
        load(path)
    assert (info.value.file, info.value.record, info.value.field) == (str(path), record, field)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56)),
        ("12:00 am on 1 January, 2024", datetime(2024, 1, 1, 0, 0)),
        ("12:30 pm on 15 Sept, 2023", datetime(2023, 9, 15, 12, 30)),
        ("  7:05 AM on 3 october 2022 ", datetime(2022, 10, 3, 7, 5)),
        ("2023-05-08 13:56", datetime(2023, 5, 8, 13, 56)),  # dateutil fallback
        ("May 8, 2023", datetime(2023, 5, 8)),
    ],
)
def test_parse_locomo_datetime(text, expected):
    assert parse_locomo_datetime(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "soon",
        "May 2023",  # dateutil would invent the day
        "8 May 2023 1:56 pm XYZ",  # dateutil would drop the unknown zone
        "13:00 pm on 8 May, 2023",
        "1:61 pm on 8 May, 2023",
        "1:56 pm on 8 Maybe, 2023",
    ],
)
def test_parse_locomo_datetime_rejects(text):
    with pytest.raises(ValueError):
        parse_locomo_datetime(text)


def test_parse_evidence_repairs_and_counts():
    ids, dropped = parse_evidence(["D8:6; D9:17", "D1:3,D1:4", "D2:1 D2:2", "D8:6"])
    assert (ids, dropped) == (["D8:6", "D9:17", "D1:3", "D1:4", "D2:1", "D2:2"], 0)
    assert parse_evidence(["D", "", None, 3, "D1:2; x"]) == (["D1:2"], 5)
    assert parse_evidence("D3:4") == (["D3:4"], 0)
    assert parse_evidence(None) == ([], 0)


# -- detection ------------------------------------------------------------------------------


def test_detect_format(tmp_path):
    jsonl = write_lines(tmp_path / "a.jsonl", [{"round_id": "r", "user_text": "x"}])
    assert detect_format(jsonl) == "jsonl"
    assert detect_format(write_json(tmp_path / "mg.json", mem_gallery_doc())) == "mem-gallery"
    assert detect_format(write_json(tmp_path / "lc.json", locomo_doc())) == "locomo"
    assert detect_format(write_json(tmp_path / "lc1.json", locomo_doc()[0])) == "locomo"
    two_lines = [{"round_id": "r", "user_text": "x"}, {"round_id": "s", "user_text": "y"}]
    disguised = write_lines(tmp_path / "rounds.json", two_lines)
    assert detect_format(disguised) == "jsonl" and len(load(disguised).scenarios[0].rounds) == 2


@needs_dev_split
def test_detect_format_of_a_real_mem_gallery_file():
    assert detect_format(BAKING) == "mem-gallery"


@pytest.mark.parametrize("content", ['{"hello": 1}', "[]", "[1, 2]", "{not json", ""])
def test_detect_format_rejects_unknown_content(tmp_path, content):
    path = tmp_path / "mystery.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(FormatError) as info:
        detect_format(path)
    assert info.value.file == str(path) and str(path) in str(info.value)


def test_explicit_format(tmp_path):
    path = write_json(tmp_path / "mg.json", mem_gallery_doc())
    assert load(path, format="mem-gallery").format == "mem-gallery"
    assert load(path, format="memeye").format == "mem-gallery"
    with pytest.raises(FormatError, match="unknown format"):
        load(path, format="csv")
    with pytest.raises(FormatError, match="multi_session_dialogues"):
        load(write_json(tmp_path / "lc.json", locomo_doc()), format="mem-gallery")


def test_loader_modules_import_on_their_own():
    """Each loader imports the result types from the package: no import cycle, any order."""
    code = "import adamm.formats.locomo, adamm.formats.mem_gallery, adamm.formats.jsonl"
    subprocess.run([sys.executable, "-c", code], check=True)


# -- properties -----------------------------------------------------------------------------

ids = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12).filter(
    str.strip
)
texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), texts
)


@st.composite
def images(draw, photo: str):
    kind = draw(st.sampled_from(["data", "url", "caption", "path"]))
    caption = draw(st.none() | texts)
    if kind == "data":
        return dict(data=draw(st.binary(min_size=1, max_size=64)), caption=caption)
    if kind == "url":
        tail = draw(st.text("abc/._-", min_size=1, max_size=10))
        return dict(url=f"https://example.org/{tail}", caption=caption)
    if kind == "path":
        return dict(path=photo, caption=caption)
    return dict(caption=draw(texts.filter(str.strip)))


@st.composite
def round_lists(draw, photo: str):
    n = draw(st.integers(0, 6))
    round_ids = draw(st.lists(ids, min_size=n, max_size=n, unique_by=str.strip))
    orders = draw(st.none() | st.permutations(range(n)))
    rounds = []
    for i, rid in enumerate(round_ids):
        raw_images = draw(st.lists(images(photo), max_size=3))
        rounds.append(
            Round(
                round_id=rid,
                session_id=draw(ids),
                order=None if orders is None else orders[i],
                timestamp=draw(st.none() | st.datetimes()),
                user_text=draw(texts),
                assistant_text=draw(texts.filter(str.strip)),  # never an empty round
                images=[ImageRef(image_id=f"img{k}", **im) for k, im in enumerate(raw_images)],
                metadata=draw(st.dictionaries(texts, scalars, max_size=4)),
            )
        )
    return rounds


#: ``workdir`` is module-scoped, so reusing it across examples is safe.
FIXTURE_OK = [HealthCheck.function_scoped_fixture]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    path = tmp_path_factory.mktemp("formats")
    (path / "photo.png").write_bytes(png_bytes())
    return path


@settings(max_examples=120, deadline=None, suppress_health_check=FIXTURE_OK)
@given(data=st.data())
def test_property_valid_rounds_round_trip(workdir, data):
    rounds = data.draw(round_lists(str(workdir / "photo.png")))
    path = workdir / "roundtrip.jsonl"
    dump_rounds(rounds, path)
    loaded = load(path).scenarios[0].rounds
    assert [r.model_dump() for r in loaded] == [r.model_dump() for r in rounds]
    for got, want in zip(loaded, rounds):  # 1 == True == 1.0 in Python: compare types too
        assert [type(v) for v in got.metadata.values()] == [type(v) for v in want.metadata.values()]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
field_values = json_values | st.text(max_size=12) | st.datetimes().map(datetime.isoformat)
image_dicts = st.fixed_dictionaries(
    {},
    optional={
        "image_id": field_values,
        "path": st.sampled_from(["photo.png", "missing.png", ".", "", "a\x00b"]) | field_values,
        "url": field_values,
        "data": st.sampled_from(["aGVsbG8=", "%%%"]) | field_values,
        "caption": field_values,
        "extra": field_values,
    },
)
round_like = st.fixed_dictionaries(
    {},
    optional={
        "round_id": st.sampled_from(["r1", "r2", " ", ""]) | field_values,
        "session_id": field_values,
        "order": st.integers(-2, 3) | field_values,
        "timestamp": field_values,
        "user_text": field_values,
        "assistant_text": field_values,
        "images": st.lists(image_dicts, max_size=3) | field_values,
        "metadata": st.dictionaries(st.text(max_size=5), json_values, max_size=3) | field_values,
        "bogus": field_values,
    },
)
garbage_lines = st.one_of(
    round_like.map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=30).map(lambda s: s.encode("utf-8")),
    st.binary(max_size=30),
)


@settings(max_examples=200, deadline=None, suppress_health_check=FIXTURE_OK)
@given(lines=st.lists(garbage_lines, max_size=5))
def test_property_garbage_loads_or_raises_format_error(workdir, lines):
    path = workdir / "garbage.jsonl"
    raw = [line.encode("utf-8") if isinstance(line, str) else line for line in lines]
    path.write_bytes(b"\n".join(raw))
    try:
        loaded = load(path)
    except FormatError as exc:
        assert "\n" not in str(exc) and str(path) in str(exc)
        return
    for round_ in loaded.scenarios[0].rounds:
        assert Round.model_validate(round_.model_dump()) == round_


def _json_paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        children = node.items()
    elif isinstance(node, list):
        children = enumerate(node)
    else:
        children = ()
    for key, child in children:
        yield from _json_paths(child, prefix + (key,))


@settings(max_examples=150, deadline=None, suppress_health_check=FIXTURE_OK)
@given(data=st.data())
def test_property_mutated_benchmark_files_load_or_raise_format_error(workdir, data):
    """Replace or delete random parts of a Mem-Gallery or LoCoMo document: never a crash."""
    doc = data.draw(st.sampled_from([mem_gallery_doc, locomo_doc]))()
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(_json_paths(doc))))
        if not path:
            doc = data.draw(field_values)
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if data.draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(field_values)
    target = workdir / "dialog" / "bench.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(doc), encoding="utf-8")
    try:
        loaded = load(target)
    except FormatError as exc:
        assert "\n" not in str(exc) and str(target) in str(exc)
        return
    for scenario in loaded.scenarios:
        assert [r.order for r in scenario.rounds] == list(range(len(scenario.rounds)))
