"""A categorical field every record type writes decides no table's membership.

Two invented record types share one text field ("Vue: Plorn", as every card of one app says);
the rarer type writes it only in its earlier rounds. Its later records must still get their
rows: a record fits its table by the measured fields it reports, and a field that rides along
with every type is not one of them (it once was, and the rarer type's table stopped taking
rows once the shared field became its most frequent one).

Runs the real ingest graph on SQLite and PostgreSQL (``db_url``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adamm.graphs.ingest import graph as ingest
from adamm.nodes.backends import backends, reset_backends
from adamm.nodes.context import Context


VUE = ("Plorn", "Skell", "Tavi")


def _rounds() -> list[dict[str, Any]]:
    out = []
    for d in range(1, 41):  # type A: gask and drom, with the shared field on every card
        out.append((d, f"Trabbing card · Gask {900 + d} · Drom {30 + d % 7} min · Vue: {VUE[d % 3]}"))
    for k, d in enumerate(range(2, 41, 3)):  # type B: brosk and tirn; the shared field only at first
        vue = f" · Vue: {VUE[k % 3]}" if k < 5 else ""
        out.append((d, f"Zelling card · Brosk {14 + k % 4} qz · Tirn {200 + 3 * k} pv{vue}"))
    out.sort()
    return [{"round_id": f"r{i}", "session_id": f"s{d}", "timestamp": f"2026-03-{1 + (d - 1) % 28:02d}T20:00:00"
             if d <= 28 else f"2026-04-{d - 28:02d}T20:00:00", "user_text": text, "assistant_text": "Logged."}
            for i, (d, text) in enumerate(out)]


def test_a_category_every_type_writes_keeps_no_record_out_of_its_table(tmp_path: Path, db_url: str) -> None:
    reset_backends()
    ctx = Context(home=str(tmp_path / "home"), database_url=db_url)
    rounds = _rounds()
    for start in range(0, len(rounds), 16):
        ingest.invoke({"memory_id": "v", "rounds": rounds[start:start + 16]}, context=ctx)
    sql = backends(ctx).sql
    holding = {t.name: (t, sql.select_rows("v", t.name)) for t in sql.tables("v")}
    tirn = [(t, rows) for t, rows in holding.values() if any(c.name == "tirn" for c in t.columns)]
    assert len(tirn) == 1, sorted(holding)
    _, rows = tirn[0]
    zelling = [r for r in rounds if "Zelling" in r["user_text"]]
    assert sorted(r["tirn"] for r in rows if r["tirn"] is not None) == sorted(200 + 3 * k for k in range(len(zelling)))
    gask = [(t, rows) for t, rows in holding.values() if any(c.name == "gask" for c in t.columns)]
    assert len(gask) == 1 and sum(r["gask"] is not None for r in gask[0][1]) == 40
