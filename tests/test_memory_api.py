"""The ``Memory`` facade: the same graphs behind typed, sync and async calls."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path

import pytest

from adamm.demo import demo_rounds
from adamm.memory import Answer, Citation, IngestReport, Memory, TableInfo, _image
from adamm.nodes.context import ConfigError
from adamm.nodes.ingest import InputError
from adamm.stores.records import Round
from adamm.stores.sql_base import StoreError

CHATS = [
    {"round_id": "r1", "session_id": "s1", "timestamp": "2025-03-04T08:00:00",
     "user_text": "We adopted a beagle puppy and named him Biscuit.", "assistant_text": "Congratulations!"},
    Round(round_id="r2", session_id="s2", timestamp="2025-03-12T09:15:00",
          user_text="Here is the view from our hotel in Lisbon.", assistant_text="Lovely, that is the Tagus river.",
          images=[{"image_id": "img-lisbon", "caption": "A red suspension bridge over a wide river at sunset"}]),
]


def test_ingest_ask_tables_round_trip(home: Path) -> None:
    mem = Memory("ada", batch_size=4)  # 12 rounds -> three graph runs, one report
    report = mem.ingest([*CHATS, *demo_rounds()])
    assert isinstance(report, IngestReport)
    assert (report.rounds_added, report.rounds_unchanged, report.rounds) == (12, 0, 12)
    assert report.counts["units_indexed"] == 12 and report.counts["table_rows"] == 5
    assert {e["node"] for e in report.cost} >= {"store_rounds", "index_rounds"}

    again = mem.ingest(CHATS)
    assert (again.rounds_added, again.rounds_unchanged, again.counts["units_indexed"]) == (0, 2, 0)

    ans = mem.ask("What did we name the beagle puppy?")
    assert isinstance(ans, Answer) and "Biscuit" in ans.answer and str(ans) == ans.answer
    assert ans.citations == (Citation("r1", ()),) and ans.round_ids == ["r1"]
    assert "r1" in ans.evidence[0]["round_ids"]
    assert ans.cost_summary["calls"] == 0  # rules backend

    bridge = mem.ask("Which bridge over the river did I photograph?", now="2025-03-31")
    assert bridge.citations[0] == Citation("r2", ("img-lisbon",))

    (table,) = mem.tables()
    assert isinstance(table, TableInfo) and table.name == "sleep_log" and table.row_count == 5
    rows = mem.rows("sleep_log")  # one shape with `adamm tables --json`: a count is row_count, rows a list
    assert len(rows) == 5 and {"source", "order", "time", "observed_at"} <= set(rows[0])
    assert {c.name: c.unit for c in table.columns}["deep_sleep"] == "h"
    assert Memory("nobody").tables() == []
    # table names are discovered: a guessed one is refused with the names there are
    with pytest.raises(StoreError, match=r"^unknown table 'sleeplog'; this memory has: sleep_log$"):
        mem.rows("sleeplog")
    with pytest.raises(StoreError, match=r"this memory has: no tables yet$"):
        Memory("nobody").rows("sleep_log")


def test_async_twins_match_sync(home: Path) -> None:
    mem = Memory("bo", context={"retrieval_mode": "hybrid"})

    async def scenario() -> tuple[IngestReport, Answer, list[TableInfo]]:
        report = await mem.aingest(CHATS)
        return report, await mem.aask("What is the puppy called?"), await mem.atables()

    report, ans, tables = asyncio.run(scenario())
    assert report.rounds_added == 2 and tables == []
    assert ans.round_ids == ["r1"]
    sync = mem.ask("What is the puppy called?")
    assert (ans.answer, ans.citations) == (sync.answer, sync.citations)


def test_bad_input_fails_early_and_stores_nothing(home: Path) -> None:
    with pytest.raises(ConfigError, match="theta_support"):
        Memory("ada", context={"theta_support": 0})
    with pytest.raises(InputError, match="memory_id"):
        Memory("")
    mem = Memory("ada")
    with pytest.raises(TypeError, match="list of rounds"):
        mem.ingest(CHATS[0])
    with pytest.raises(InputError, match=r"rounds\[1\] \(r9\): field timestamp"):
        mem.ingest([CHATS[0], {"round_id": "r9", "timestamp": "next tuesday", "user_text": "hi"}])
    assert mem.ingest([]).rounds == 0
    assert mem.ask("What is the puppy called?").answer == "Not mentioned."  # nothing was stored
    with pytest.raises(ValueError, match="question"):
        mem.ask("  ")


def test_host_settings_object_with_unrelated_fields(home: Path, tmp_path: Path) -> None:
    class HostSettings:  # a host agent's own configuration, sharing only `home` with ours
        user_name = "ada"
        temperature = 0.3
        home = str(tmp_path / "elsewhere")

    mem = Memory("ada", context=HostSettings())
    mem.ingest(CHATS[:1])
    assert mem.context.home == HostSettings.home
    assert (tmp_path / "elsewhere" / "adamm.db").exists()
    assert Memory("ada").ask("What is the puppy called?").citations == ()  # the default home is untouched


def test_image_argument_forms(tmp_path: Path) -> None:
    png = tmp_path / "q.png"
    png.write_bytes(b"\x89PNG...")
    assert _image(png) == {"path": str(png)}
    assert _image(str(png)) == {"path": str(png)}
    assert _image("https://example.org/a.png") == {"url": "https://example.org/a.png"}
    assert _image(b"\x89PNG") == {"data": base64.b64encode(b"\x89PNG").decode()}
    assert _image("data:image/png;base64,iVBORw0") == {"data": "iVBORw0"}
    long_b64 = base64.b64encode(b"\x89PNG" * 3000).decode()
    assert _image(long_b64) == {"data": long_b64}
    assert _image({"path": "x.png", "caption": "a cat"}) == {"path": "x.png", "caption": "a cat"}
    with pytest.raises(TypeError):
        _image(42)


def test_forget_through_the_facade(home: Path) -> None:
    mem = Memory("ada")
    mem.ingest(CHATS)
    Memory("bo").ingest(CHATS[:1])
    assert mem.forget(round_ids="r1").rounds == 1  # a single id is accepted too
    assert mem.ask("What did we name the beagle puppy?").answer == "Not mentioned."
    assert mem.ask("Which bridge over the river did I photograph?").round_ids == ["r2"]
    assert mem.forget(session_id="s2").rounds == 1
    assert asyncio.run(mem.aforget(everything=True)).rounds == 0  # nothing left, and idempotent
    assert mem.ask("Which bridge over the river did I photograph?").citations == ()
    assert Memory("bo").ask("What did we name the beagle puppy?").round_ids == ["r1"]  # other tenants untouched
