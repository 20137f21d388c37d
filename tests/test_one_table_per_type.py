"""One record type written in two layouts with their own labels ends in one table, however the
tables were discovered before the labels were known to be one field.

The log is written for this test with invented words: layout A labels ``Pwr``, ``Tamb``,
``Skel``; layout B ``power``, ``durn``, ``climb`` - same units, same record. Each layout alone
is frequent enough to get a table before the other's labels are merged with it; the merge of
``pwr`` / ``power`` (an abbreviation, by its letters) makes the companions of the other labels
alike, and the tables fold into one. Runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adamm.graphs.ingest import graph as ingest
from adamm.nodes.backends import backends, reset_backends
from adamm.nodes.context import Context
from adamm.stores.attributes import Known, abbreviates, consolidation, context_profiles, context_similarity, same_words, units_agree

# (day, vrell qz, power W, minutes, climb m)
RECORDS = [(d, 12 + d % 5, 180 + 7 * d % 60, 30 + 3 * d % 25, 100 + 11 * d % 90) for d in range(1, 25)]


def _round(i: int, day: int, vrell: int, power: int, minutes: int, climb: int) -> dict[str, Any]:
    text = (f"Trabbing card: Vrell {vrell} qz · Pwr {power} W · Tamb {minutes} min · Skel {climb} m" if i % 2 == 0
            else f"Trabbed today: vrell {vrell} qz, power {power} W, durn {minutes} min, climb {climb} m.")
    return {"round_id": f"r{i}", "session_id": f"s{day}", "timestamp": f"2026-03-{day:02d}T18:00:00", "user_text": text,
            "assistant_text": "Logged."}


def test_abbreviations_by_their_letters() -> None:
    assert abbreviates("pwr", ["power"]) and abbreviates("hr", ["heart", "rate"]) and abbreviates("dist", ["distance"])
    assert not abbreviates("pace", ["pulse"]) and not abbreviates("rate", ["rating"])
    assert same_words(["avg", "pwr"], ["avg", "power"]) and not same_words(["resting", "hr"], ["average", "heart", "rate"])


def test_consolidation_compares_value_ranges_in_one_unit() -> None:
    """"4.6 brog, 1 h 53 min, Dratbi" names its duration by the unit alone, stored in hours; the
    labelled layout's "Glairr 105 min" is stored in minutes. Beside the same named companions,
    with ranges that overlap once converted, they are one field: the unlabelled one merges into
    the labelled one (more rounds), not kept as a second table's column."""
    known = [Known("duration", "h", "duration", "float"), Known("glairr", "min", "duration", "float"),
             Known("chak", "brog", "unit:brog", "float"), Known("breenk", None, None, "text")]
    sets = [(frozenset({"duration", "chak", "breenk"}), 5), (frozenset({"glairr", "chak", "breenk"}), 22)]
    ranges = {"duration": (1.43, 1.88), "glairr": (86.0, 112.0), "chak": (4.3, 6.8)}
    assert consolidation(known, sets, ranges=ranges) == {"duration": "glairr"}
    apart = {**ranges, "duration": (5.0, 9.0)}  # 5-9 h is no 86-112 min
    assert consolidation(known, sets, ranges=apart) == {}


def test_consolidation_merges_an_abbreviated_label_into_the_full_word() -> None:
    known = [Known("pwr", "W", "power", "float"), Known("power", "W", "power", "float"), Known("vrell", "qz", "unit:qz", "float")]
    sets = [(frozenset({"pwr", "vrell"}), 3), (frozenset({"power", "vrell"}), 2)]
    assert consolidation(known, sets) == {"pwr": "power"}


# Two layouts of one invented journal field, "Sorrel says 7 glims" and "glimmed 6.5": no companion
# attribute in common, but the records of both are about the same changing things (which
# kettle, who came); a third field "brusk", also in glims, is about other things.
_JOURNAL = [({"sorrel"}, f"Sorrel says {7 + i % 3} glims asleep after the {k} kettle with {p}")
            for i, (k, p) in enumerate([("tarn", "Ollo"), ("vesk", "Pim"), ("tarn", "Pim"), ("mirr", "Ollo"), ("vesk", "Ollo")])] + \
           [({"glim"}, f"glimmed {6 + i % 2}.5, {k} kettle, {p} came by") for i, (k, p) in
            enumerate([("mirr", "Pim"), ("tarn", "Ollo"), ("vesk", "Pim"), ("tarn", "Pim"), ("mirr", "Ollo"), ("vesk", "Ollo")])] + \
           [({"brusk"}, f"brusk {3 + i} glims at the {d} dock, quorn {q}") for i, (d, q) in
            enumerate([("north", "high"), ("south", "low"), ("north", "low"), ("east", "high")])]


def test_units_the_memory_coined_agree_with_their_shortening() -> None:
    assert units_agree("unit:q", "unit:qelt") and units_agree("unit:dovs", "unit:dv") and units_agree("duration", "duration")
    assert not units_agree("unit:q", "unit:pip") and not units_agree("unit:qelt", "unit:qe1t")
    assert not units_agree("unit:k", "mass") and not units_agree("unit:dv", "unit:vd")


def test_consolidation_merges_a_label_shortened_with_its_coined_unit() -> None:
    """"Thrn 14 q" on a narrow display, "threnn 15 qelts" typed: one field."""
    known = [Known("thrn", "q", "unit:q", "float"), Known("threnn", "qelt", "unit:qelt", "float"), Known("murl", "dov", "unit:dov", "float")]
    sets = [(frozenset({"thrn", "murl"}), 4), (frozenset({"threnn", "murl"}), 9)]
    assert consolidation(known, sets, ranges={"thrn": (12.0, 17.0), "threnn": (11.0, 18.0), "murl": (2.0, 4.0)}) == {"thrn": "threnn"}


def test_context_profiles_weigh_what_records_are_about_not_their_layout() -> None:
    profiles = context_profiles(_JOURNAL)
    assert "says" not in profiles["sorrel"]  # every record of the layout says it: its wording, no evidence
    assert profiles["sorrel"]["tarn"] > 0 and profiles["glim"]["tarn"] > 0
    assert context_similarity(profiles, "sorrel", "glim") > 0.6
    assert context_similarity(profiles, "sorrel", "brusk") < 0.1


def test_consolidation_merges_labels_whose_records_say_the_same_things() -> None:
    known = [Known("sorrel", "zet", "unit:zet", "float"), Known("glim", "zet", "unit:zet", "float"),
             Known("brusk", "zet", "unit:zet", "float")]
    sets = [(frozenset({"sorrel"}), 5), (frozenset({"glim"}), 6), (frozenset({"brusk"}), 4)]
    spans = {"sorrel": (7.0, 9.0), "glim": (6.5, 7.5), "brusk": (4.0, 6.0)}
    records = [frozenset(a) for a, _ in _JOURNAL]
    got = consolidation(known, sets, contexts=context_profiles(_JOURNAL), spans=spans, records=records)
    assert got == {"sorrel": "glim"}  # brusk's records are about docks: another field of the same unit
    # together in many records: two fields, whatever their records say
    assert consolidation(known, sets, contexts=context_profiles(_JOURNAL), spans=spans,
                         records=records + [frozenset({"sorrel", "glim"})] * 3) == {}
    # values far apart: two fields
    assert consolidation(known, sets, contexts=context_profiles(_JOURNAL), spans={**spans, "sorrel": (70.0, 90.0)},
                         records=records) == {}


def test_two_layouts_of_one_record_type_end_in_one_table(tmp_path: Path, db_url: str) -> None:
    reset_backends()
    ctx = Context(home=str(tmp_path / "home"), database_url=db_url)
    rounds = [_round(i, *r) for i, r in enumerate(RECORDS)]
    for start in range(0, len(rounds), 6):  # each layout has a table of its own before the labels merge
        ingest.invoke({"memory_id": "t", "rounds": rounds[start:start + 6]}, context=ctx)
    sql = backends(ctx).sql
    holding = {t.name: sql.select_rows("t", t.name) for t in sql.tables("t")}
    holding = {name: rows for name, rows in holding.items() if rows}
    assert len(holding) == 1, sorted(holding)
    rows = next(iter(holding.values()))
    assert len(rows) == len(RECORDS)
    info = sql.table("t", next(iter(holding)))
    units = {c.unit for c in info.columns if c.type != "text"}
    assert {"W", "m"} <= units
    power = next(c.name for c in info.columns if c.unit == "W")
    assert power == "power"  # the full word names the merged field
    by_source = {r["source"]: r for r in rows}
    assert [by_source[f"r{i}"][power] for i in range(len(RECORDS))] == [float(p) for _, _, p, _, _ in RECORDS]
    reset_backends()


# A sparse dashboard: nine invented fields, each record shows a different five to eight of them.
SPARSE_FIELDS = [("Brimmel", "qz"), ("Dorvak", "W"), ("Sklent", "min"), ("Tuvash", "m"), ("Prell", "kg"),
                 ("Yondra", "km"), ("Glisk", "%"), ("Ombek", "tr"), ("Harrow", "L")]


def _sparse_round(i: int) -> dict[str, Any]:
    shown = [f for k, f in enumerate(SPARSE_FIELDS) if (i * 7 + k * 3) % 9 not in ((i % 4), (i * 5 + 1) % 9)
             or k < 2]  # the first two fields are nearly always there, the rest come and go
    cells = " · ".join(f"{name} {10 + (i * 13 + k * 7) % 40} {unit}" for k, (name, unit) in enumerate(shown))
    return {"round_id": f"p{i}", "session_id": f"s{i}", "timestamp": f"2026-04-{1 + i % 28:02d}T07:00:00",
            "user_text": f"Kelving card: {cells}", "assistant_text": "Logged."}


def test_a_sparse_dashboard_is_one_table_however_its_schemas_were_discovered(tmp_path: Path, db_url: str) -> None:
    """Records that each show another subset of one dashboard's fields are one record type: the
    overlapping schemas discovered from them fold into one table holding every record."""
    reset_backends()
    ctx = Context(home=str(tmp_path / "home"), database_url=db_url, use_retrieval=False)
    rounds = [_sparse_round(i) for i in range(30)]
    for start in range(0, len(rounds), 5):
        ingest.invoke({"memory_id": "k", "rounds": rounds[start:start + 5]}, context=ctx)
    sql = backends(ctx).sql
    holding = {t.name: sql.select_rows("k", t.name) for t in sql.tables("k")}
    holding = {name: rows for name, rows in holding.items() if rows}
    assert len(holding) == 1, {n: len(r) for n, r in holding.items()}
    (rows,) = holding.values()
    assert sorted(r["source"] for r in rows) == sorted(r["round_id"] for r in rounds)
    reset_backends()


def _picking(i: int) -> dict[str, Any]:
    day = 1 + i % 28
    if i % 7 == 6:  # a photo of one picking: its weight and kind, not its plot or keeper
        text = f"Vrell {10 + i % 9} qz, brosk: {('Tirn', 'Glim')[i % 2]}."
    else:
        text = f"Vrell {12 + i % 5} qz · Plot: {('North', 'South')[i % 2]} · Keeper: {('Ansel', 'Bex')[i % 3 % 2]}"
        text += " · Brosk: Ashvel" if i % 3 == 0 else ""  # a category some rows state
    return {"round_id": f"v{i}", "session_id": f"s{i}", "timestamp": f"2026-05-{day:02d}T08:00:00", "user_text": text,
            "assistant_text": "Logged."}


def test_a_record_with_the_tables_measured_fields_fits_without_its_usual_categories(tmp_path: Path, db_url: str) -> None:
    """A record holding every field its table measures and one of its categories is a row of it,
    though it lacks the categories most rows state; a value alone still makes no row."""
    reset_backends()
    ctx = Context(home=str(tmp_path / "home"), database_url=db_url, use_retrieval=False)
    rounds = [_picking(i) for i in range(28)]
    rounds.append({"round_id": "lone", "session_id": "s99", "timestamp": "2026-05-28T20:00:00",
                   "user_text": "Vrell 11 qz.", "assistant_text": "Logged."})
    for start in range(0, len(rounds), 8):
        ingest.invoke({"memory_id": "v", "rounds": rounds[start:start + 8]}, context=ctx)
    sql = backends(ctx).sql
    holding = {t.name: sql.select_rows("v", t.name) for t in sql.tables("v")}
    rows = [r for table in holding.values() for r in table if "vrell" in r and r["vrell"] is not None]
    short = {r["round_id"] for r in rounds if "brosk" in r["user_text"]}
    assert short <= {r["source"] for r in rows}, sorted(short - {r["source"] for r in rows})
    assert "lone" not in {r["source"] for r in rows}
    reset_backends()
