"""A record type found late keeps the categories its first records stated.

A type becomes a table only once it has enough support; the records before that are written
to it afterwards, and their categorical fields (the name of what was finished) must come along,
not only the ones of the record that made the type common. Invented vocabulary.
"""

from __future__ import annotations

from datetime import datetime, timedelta

NAMES = ["Vessa Marrow", "The Quillon Deep", "Orrin Falls"]


def _rounds() -> list[dict]:
    start = datetime(2025, 1, 4, 21, 0)
    out = []
    done = 0
    for i in range(30):
        day = start + timedelta(days=i)
        name = NAMES[(i // 4) % 3]
        if i % 6 == 5:
            done += 1
            # the first finishes name what was finished; the later ones do not
            user = f"Oh, and {name} is done, skelled it tonight. {2 + done % 3} out of 5." if done <= 3 \
                else f"Skelled it! {2 + done % 3} out of 5 from me."
        else:
            user = f"{day:%a %d %b}: {name} \u2014 {30 + i} min, {10 + i} drims."
        out.append({"round_id": f"r{i}", "timestamp": day.isoformat(), "user_text": user})
    return out


def test_the_first_records_of_a_type_found_late_keep_their_categories(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from adamm.graphs.ingest import graph as ingest
    from adamm.nodes.backends import backends, reset_backends
    from adamm.nodes.context import Context

    rounds = _rounds()
    reset_backends()
    ctx = Context(home=str(tmp_path / "home"), use_retrieval=False)
    for begin in range(0, len(rounds), 8):
        ingest.invoke({"memory_id": "skel", "rounds": rounds[begin:begin + 8]}, context=ctx)
    sql = backends(ctx).sql
    finished = [t for t in sql.tables("skel") if {c.name for c in t.columns} & {"rating"} or
                any(c.unit == "stars" for c in t.columns)]
    assert finished, [(t.name, [c.name for c in t.columns]) for t in sql.tables("skel")]
    table = finished[0]
    rows = sql.select_rows("skel", table.name)
    named = {r["source"]: r.get("name") for r in rows}
    reset_backends()
    firsts = [r["round_id"] for i, r in enumerate(rounds) if i % 6 == 5][:3]
    assert all(named.get(rid) for rid in firsts), (table.name, [c.name for c in table.columns], named)
