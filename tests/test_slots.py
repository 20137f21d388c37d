"""Categorical fields discovered from recurring layouts (``nodes/rules/slots.py``) and
abbreviations matched by their grammar (``stores/attributes.py``): pure functions on texts
written with invented words, so only discovered structure can pass."""

from __future__ import annotations

from collections import Counter

import pytest

from adamm.nodes.rules.slots import SlotModel, candidates, is_field
from adamm.stores.attributes import abbreviates, same_words

LOGS = [
    "Vrell 14 qz, brosk ashvel, on the tamber plode.",
    "15 qz vrell / brosk tirn / the omber plode",
    "brosk ashvel, 3 qz vrell",
    "Plode today: the tamber plode, brosk tirn, 9 qz vrell.",
    "brosk tirn, 2 qz vrell, omber plode again",
    "Did a trabbing session: 14 qz of vrell, an Ashvel one.",
]


def test_candidates_are_neighbouring_words_of_one_phrase() -> None:
    got = {(c.key, c.value) for c in candidates("the gravel bike, brosk: Ashvel")}
    assert ("before:bike", "gravel") in got and ("after:gravel", "bike") in got
    assert ("after:brosk", "Ashvel") in got
    assert not any(c.value.lower() == "brosk" for c in candidates("brosk: Ashvel"))  # a label is no value
    assert not any(c.key.endswith(":the") or c.value == "the" for c in candidates("the gravel bike"))
    assert not any("vs" in (c.key, c.value.lower()) or c.key.endswith(":vs") for c in candidates("Match vs Tollin"))  # a preposition


def test_a_name_runs_over_capitalised_words() -> None:
    assert ("after:with", "Orla Venn") not in {(c.key, c.value) for c in candidates("with Orla Venn")}  # "with" is grammar
    assert ("after:partner", "Orla Venn") in {(c.key, c.value) for c in candidates("partner Orla Venn today")}


@pytest.mark.parametrize(("values", "records", "field"), [
    (Counter({"ashvel": 3, "tirn": 2}), 5, True),
    (Counter({"heart": 6}), 6, False),                    # always the same word: a phrase
    (Counter({w: 1 for w in "a b c d e f".split()}), 6, False),  # never the same twice: no category
    (Counter({"left": 1, "right": 1}), 2, False),         # two records are chance
])
def test_is_field(values: Counter, records: int, field: bool) -> None:
    assert is_field(values, records) is field


def test_slots_are_learnt_from_the_memorys_records() -> None:
    model = SlotModel().fit(LOGS)
    names = {s.name for s in model.slots_.values()}
    assert {"brosk", "plode"} <= names
    assert not names & {"vrell", "qz"}  # a measured label and a unit are no categories
    assert model.transform(LOGS[0]) [:2] == [("brosk", "ashvel", LOGS[0].index("ashvel"), LOGS[0].index("ashvel") + 6),
                                             ("plode", "tamber", LOGS[0].index("tamber"), LOGS[0].index("tamber") + 6)]


def test_a_value_seen_in_one_field_is_read_bare() -> None:
    model = SlotModel().fit(LOGS)
    assert ("brosk", "Ashvel") in {(a, v) for a, v, _, _ in model.transform(LOGS[5])}
    assert model.transform(LOGS[5], have=["brosk"]) == []  # the record states it already


def test_labelled_values_pool_with_a_slot_of_the_same_name() -> None:
    model = SlotModel().fit(["grell 3 qz", "grell 4 qz", "grell 5 qz"], labelled=[("kind", "Oskel"), ("kind", "Oskel")])
    assert model.transform("4 qz, an Oskel one") == [("kind", "Oskel", 9, 14)]


def test_no_slot_from_too_few_records() -> None:
    assert SlotModel().fit(LOGS[:2]).slots_ == {}



def test_a_slot_word_that_fills_another_slot_is_a_value() -> None:
    """"left skorn", "right skorn", "left upper skorn": ``skorn`` is the field, and ``left``
    (one of its values) is no field whose values are "skorn" and "upper"."""
    texts = ["12 qz, left skorn", "14 qz, right skorn", "9 qz, left upper skorn", "11 qz, left skorn",
             "10 qz, right skorn", "13 qz, left upper skorn"]
    names = {s.name for s in SlotModel().fit(texts).slots_.values()}
    assert "skorn" in names and "left" not in names
    texts = ["7 qz, thrum brask", "8 qz, thrum brask", "9 qz, thrum vell", "6 qz, thrum vell"]
    assert "thrum" in {s.name for s in SlotModel().fit(texts).slots_.values()}  # (alone, it would be one)
    labelled = SlotModel().fit(texts, labelled=[("side", "thrum")] * 3)
    assert "thrum" not in {s.name for s in labelled.slots_.values()}  # a labelled value is no slot's word
    texts = ["7 qz, brask thrum", "8 qz, brask thrum", "9 qz, vell thrum", "6 qz, vell thrum"]
    assert "thrum" in {s.name for s in SlotModel().fit(texts).slots_.values()}
    stated = SlotModel().fit(texts, labelled=[("side", "brask"), ("side", "vell")] * 2)
    assert "thrum" not in {s.name for s in stated.slots_.values()}  # its values are another field's


def test_a_labelled_value_of_several_words_is_not_split_into_a_slot() -> None:
    """"plon wash" is one value of ``kelt`` (stated with a label elsewhere), not the value "plon"
    of a slot ``wash``."""
    texts = ["€12 plon wash", "€9 plon wash", "€15 drev wash", "€11 drev wash", "€8 plon wash"]
    free = {s.name for s in SlotModel().fit(texts).slots_.values()}
    assert "wash" in free  # unlabelled, the recurring slot is found
    labelled = [("kelt", "plon wash"), ("kelt", "drev wash")] * 2
    assert "wash" not in {s.name for s in SlotModel().fit(texts, labelled=labelled).slots_.values()}

def test_labelled_values_sharing_a_noun_teach_its_slot() -> None:
    """Stated "Drill: plon wash" and "Drill: drev wash" teach that a word before "wash" is a
    ``drill``: "did a skib wash" holds the value "skib wash", written as the stated ones are,
    though no label says so. One stated phrase teaches nothing; nor do phrases of other nouns."""
    texts = ["Drill: plon wash, €12", "Drill: drev wash, €9", "did a skib wash for €15", "a skib wash again, €11",
             "€8 and a tarn shine"]
    labelled = [("drill", "plon wash"), ("drill", "drev wash")]
    model = SlotModel().fit(texts, labelled=labelled)
    assert [(a, v) for a, v, _s, _e in model.transform("did a skib wash for €15")] == [("drill", "skib wash")]
    assert model.transform("€8 and a tarn shine") == []
    assert model.transform("did a skib wash", have=["drill"]) == []  # a record stating its drill keeps it
    one = SlotModel().fit(texts, labelled=[("drill", "plon wash")])
    assert not any(a == "drill" for a, _v, _s, _e in one.transform("did a skib wash for €15"))


@pytest.mark.parametrize(("short", "phrase", "ok"), [
    ("hr", ["heart", "rate"], True), ("bp", ["blood", "pressure"], True), ("dist", ["distance"], True),
    ("qty", ["quantity"], True), ("wt", ["weight"], True), ("temp", ["temperature"], True),
    ("pace", ["pulse"], False), ("hr", ["rate"], False), ("rate", ["rating"], False), ("vr", ["vrellic"], True),
])
def test_abbreviations_by_their_grammar(short: str, phrase: list[str], ok: bool) -> None:
    assert abbreviates(short, phrase) is ok


def test_same_words_with_an_abbreviated_word() -> None:
    assert same_words(["resting", "hr"], ["resting", "heart", "rate"])
    assert same_words(["avg", "dist"], ["avg", "distance"])
    assert not same_words(["resting", "hr"], ["average", "heart", "rate"])


def test_a_last_word_cut_short_after_the_same_words_is_the_same_name() -> None:
    assert same_words(["drormust", "fas"], ["drormust", "fask"])  # a narrow tile's cut
    assert same_words(["loskar", "len"], ["loskar", "length"])
    assert not same_words(["fas"], ["fask"])  # one word alone: no evidence it is the same
    assert not same_words(["drormust", "ask"], ["drormust", "fask"])  # a cut keeps the first letters
    assert not same_words(["drormust", "fask"], ["krellig", "fask"])


# -- end to end: an invented-vocabulary log through the ingest graph ----------------------------

def _ingest_invented(tmp_path, sql_url: str | None = None):  # type: ignore[no-untyped-def]
    from adamm.eval.invented.generate import write
    from adamm.formats import load
    from adamm.graphs.ingest import graph as ingest
    from adamm.nodes.backends import backends, reset_backends
    from adamm.nodes.context import Context

    data = tmp_path / "data"
    write(data, seed=3, count=1)
    dialog = next((data / "dialog").glob("*.json"))
    records = [__import__("json").loads(line) for line in next((data / "records").glob("*.jsonl")).read_text().splitlines()]
    rounds = [r.model_dump(mode="json") for s in load(dialog).scenarios for r in s.rounds]
    reset_backends()
    ctx = Context(home=str(tmp_path / "home"), **({"sql_url": sql_url} if sql_url else {}))
    for start in range(0, len(rounds), 16):  # batches: a slot found late must reach earlier records too
        ingest.invoke({"memory_id": "inv", "rounds": rounds[start:start + 16]}, context=ctx)
    sql = backends(ctx).sql
    tables = {t.name: sql.select_rows("inv", t.name) for t in sql.tables("inv")}
    reset_backends()
    return records, tables


def test_categorical_fields_of_an_invented_log_are_discovered(tmp_path) -> None:  # type: ignore[no-untyped-def]
    records, tables = _ingest_invented(tmp_path)
    holding = {name: rows for name, rows in tables.items() if rows}
    assert len(holding) == 1, sorted(holding)  # one record type, one table
    rows = next(iter(holding.values()))
    cats = {k for r in records for k, v in r["fields"].items() if isinstance(v, str)}
    assert cats
    for key in cats:
        truth = [str(r["fields"][key]).lower() for r in records if key in r["fields"]]
        column_values = [{str(v).lower() for k, v in row.items() if isinstance(v, str)} for row in rows]
        found = sum(any(t in vals for vals in column_values) for t in set(truth))
        assert found >= 0.9 * len(set(truth)), (key, sorted(set(truth)))


def test_a_dashboard_logs_fields_are_named_by_their_labels_and_no_label_is_a_category(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A sparse invented dashboard: numeric fields written "Kronk 6.7 ds", "6.7 ds kronk" and
    "kronk was 6.7 ds" are one column named kronk, and a field's label ("Seelvin €20.12") is never
    stored as a text value."""
    from adamm.eval.invented.generate import scenarios
    from adamm.formats import load
    from adamm.graphs.ingest import graph as ingest
    from adamm.nodes.backends import backends, reset_backends
    from adamm.nodes.context import Context
    from adamm.stores.quantities import snake_case

    scn, _ = scenarios(2, 1, sparse=True)[0]
    data = tmp_path / "d.json"
    data.write_text(__import__("json").dumps({"character_profile": scn.profile, "multi_session_dialogues": scn.sessions,
                                              "human-annotated QAs": []}))
    rounds = [r.model_dump(mode="json") for s in load(data).scenarios for r in s.rounds]
    reset_backends()
    ctx = Context(home=str(tmp_path / "home"))
    for start in range(0, len(rounds), 16):
        ingest.invoke({"memory_id": "dash", "rounds": rounds[start:start + 16]}, context=ctx)
    sql = backends(ctx).sql
    tables = [t for t in sql.tables("dash") if sql.count_rows("dash", t.name)]
    columns = {c.name for t in tables for c in t.columns}
    labels = {snake_case(f.label) for f in scn.domain.nums}
    units = {f.measure.symbol.lower() for f in scn.domain.nums if f.measure.kind == "invented"}
    named = {snake_case(f.label) for f in scn.domain.nums if f.measure.kind == "invented"}
    assert named <= columns, (sorted(named - columns), sorted(columns))  # named by the label...
    assert not units & columns, sorted(units & columns)  # ...not by the unit it is written in
    texts = {str(v).lower() for t in tables for row in sql.select_rows("dash", t.name)
             for c in t.columns if c.type == "text" and (v := row.get(c.name))}
    assert not {snake_case(v) for v in texts} & labels, sorted({snake_case(v) for v in texts} & labels)
    reset_backends()


def test_a_value_seen_in_two_fields_belongs_to_the_one_holding_it_more_often() -> None:
    """A companion's name once misread as a payee is still the companion's: the bare "with
    Grarshi Prolso" is read into ``vrell``, which states it three times to the payee's once."""
    from adamm.nodes.rules.slots import SlotModel

    texts = ["From Tuesday: 11.2 km, Daishfi, with Grarshi Prolso.", "Vrell: Grarshi Prolso · Fintex: Daishfi"]
    labelled = [("vrell", "Grarshi Prolso")] * 3 + [("merchant", "Grarshi Prolso")] + [("fintex", "Daishfi")] * 2
    model = SlotModel().fit(texts, labelled, [])
    assert model.values_["grarshi prolso"] == "vrell"
    assert ("vrell", "Grarshi Prolso") in [(a, v) for a, v, _, _ in model.transform(texts[0], ["fintex"])]
    tied = SlotModel().fit(texts, [("vrell", "Grarshi Prolso")] * 2 + [("merchant", "Grarshi Prolso")] * 2, [])
    assert "grarshi prolso" not in tied.values_  # as often in both: nobody's


def test_a_word_cell_of_a_recurring_layout_is_a_category() -> None:
    """"Trek card · Zelk · 8 km" and "Brommet — 9 km": a cell holding only a word, in the same
    place of a layout, with a few values that recur, is a field the text never names (``kind``);
    a cell holding a field's label ("BERESH: Slelmyl") or a value stated under a label is not."""
    kinds = ["Zelk", "Brommet", "Quisp", "Zelk", "Brommet", "Quisp", "Zelk"]
    cards = [f"Trek card · {k} · {5 + i} km · {30 + i} min" for i, k in enumerate(kinds)]
    model = SlotModel().fit(cards)
    assert {s.name for s in model.slots_.values()} == {"kind"}  # "Trek card" is always the same: no field
    assert [(a, v) for a, v, _, _ in model.transform(cards[1])] == [("kind", "Brommet")]
    dashed = [f"{k} — {5 + i} km, {30 + i} min" for i, k in enumerate(kinds)]
    assert [(a, v) for a, v, _, _ in SlotModel().fit(dashed).transform(dashed[2])] == [("kind", "Quisp")]
    labelled = [f"BERESH: {v} · {5 + i} km" for i, v in enumerate(["Slelmyl", "Sloudin"] * 3)]
    model = SlotModel().fit(labelled + [f"GROST: Vell · {i} km" for i in range(3)], labelled=[("beresh", "Slelmyl"), ("beresh", "Sloudin")] * 3)
    assert not [s for s in model.slots_.values() if s.name == "kind"]
    stated = [f"Ride · {k} · {5 + i} km" for i, k in enumerate(kinds)]
    model = SlotModel().fit(stated, labelled=[("kind", k) for k in kinds])
    assert all(v.lower() in {k.lower() for k in kinds} for _, v, _, _ in model.transform(stated[0]))


def test_a_value_drops_its_fields_own_noun() -> None:
    """"long zarn" read for the field ``zarn`` is "long", as "the long zarn" fills the slot
    ``_ zarn`` with "long": one value however it is written."""
    from adamm.nodes.discover import without_name
    assert without_name("long zarn", "zarn") == "long"
    assert without_name("Tempo Zarns", "zarn") == "Tempo"
    assert without_name("zarn", "zarn") == "zarn"  # the noun alone stays
    assert without_name("gravel plode", "kind") == "gravel plode"
    assert without_name("brisk tamber plode", "tamber_plode") == "brisk"  # a name of two words
    assert without_name("brisk plode", "tamber_plode") == "brisk plode"


def test_a_cell_of_a_layout_is_the_field_whose_values_it_holds() -> None:
    """A terse note "Grop · 9 qz · plimm · vell" has no labels, but its third cell holds the
    values another layout states as ``brosk`` ("Brosk: Ashvel"): the cell is ``brosk``, so
    "plimm", never labelled, is a brosk too."""
    texts = ["Card: Grop, 12 qz, Brosk: Ashvel", "Card: Grop, 8 qz, Brosk: Tirn", "Grop · 9 qz · ashvel · vell",
             "Grop · 11 qz · plimm · dorr", "Grop · 7 qz · tirn · vell", "Grop · 10 qz · plimm · vell", "Grop · 6 qz · ashvel · dorr"]
    labelled = [("brosk", "Ashvel"), ("brosk", "Tirn")]
    model = SlotModel().fit(texts, labelled=labelled, exclude={"qz"})
    assert ("brosk", "plimm") in [(a, v) for a, v, _s, _e in model.transform("Grop · 10 qz · plimm · vell")]
    # nothing states the fourth cell's values: a field of the layout, not brosk
    fourth = [(a, v) for a, v, _s, _e in model.transform("Grop · 10 qz · plimm · dorr") if v == "dorr"]
    assert fourth and fourth[0][0] != "brosk"
