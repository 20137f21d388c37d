"""Categorical fields whose values stand alone (``nodes/rules/terms.py``): recurring terms that
take turns, are alike and cover the records. Written with invented words - names, kinds and
units no list could hold - in three layouts, so only discovered structure can pass. The pure
parts on their own, the estimator with the packaged text encoder, and a whole memory on SQLite
and PostgreSQL, asked questions that need the field.
"""

from __future__ import annotations

import random
from collections import Counter
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from adamm.formats.mem_gallery import load_mem_gallery
from adamm.graphs.query import graph as query
from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.rules.terms import TermFields, _cluster, _context, is_title, labels_as_values, terms_of, value_spread
from adamm.stores.encoders import TextEncoder
from adamm.stores.records import Round
from adamm.tests.memories import ingested
from adamm.tests.scripts import load_script

NAMES = ["Oremko", "Vashti", "Tisbel", "Gannow"]
MOODS = ["brask", "ollun", "quorl"]


LAYOUTS = [
    "Tended {name} tonight, {threnn} qelts, {minutes} min, looked {mood} the whole time.",
    "{name} — {threnn} qelts · {minutes} min · {mood}",
    "Quick one with {name}: {minutes} min, {threnn} qelts, sael: {mood}.",
    "{threnn} qelts for {name} after {minutes} min; {mood} again.",
    "Spent {minutes} min on {name} this evening ({threnn} qelts), all {mood}.",
    "A {mood} one from {name}: {threnn} qelts, {minutes} min.",
]


def log(n: int = 36, seed: int = 3) -> list[tuple[int, str, str, float, int, str]]:
    """(day, name, mood, threnn in qelts, minutes, text): one tending per day in six layouts; the
    name and the mood are never labelled, nor written next to the same word each time."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        name, mood = NAMES[i % 4], MOODS[(i * 7 // 4) % 3]
        threnn, minutes = round(rng.uniform(8, 19), 1), rng.randrange(10, 60)
        text = LAYOUTS[(i * 5) % len(LAYOUTS)].format(name=name, mood=mood, threnn=threnn, minutes=minutes)
        out.append((1 + i, name, mood, threnn, minutes, text[0].upper() + text[1:]))
    return out


def test_terms_are_runs_of_content_words() -> None:
    keys = {t.key for t in terms_of("Picked 3 courgettes from the bottom bed, 887g.")}
    assert {"courgette", "bottom", "bed", "bottom bed"} <= keys
    assert "picked" not in keys  # a verb opening the sentence ("Played Qaldo with ..."), not a value
    assert "alfred" in {t.key for t in terms_of("Walked with Alfred, 3 km.")}  # ... a verb's ending elsewhere may be a name
    assert not any(k in keys for k in ("the", "from", "3", "887g"))
    assert "watering" not in {t.key for t in terms_of("then watering again")}  # a verb alone is no category
    assert "raised bed" in {t.key for t in terms_of("the raised bed")}  # ... but part of one may be


def test_a_name_of_several_capitalised_words_is_one_term() -> None:
    def names(text: str) -> dict[str, str]:
        return {t.key: t.surface for t in terms_of(text) if is_title(t.surface)}

    # joined by "of" / "the", opened by an article the key leaves out, letters of any script
    assert names("Listened to A Brief History of Quells for 44 min")["brief history of quell"] == "A Brief History of Quells"
    assert "zarnow café run" in names("Sat 12 Apr — Group ride — Zarnow Café Run — 76.4 km")
    assert names("Read 40 pages of The Ostler's Vrask.") == {"ostler vrask": "The Ostler's Vrask"}
    # a calendar-looking word inside a name is still the name's ("Mars" is no "Mar")
    assert "orchard of mar" in names("Started Orchards of Mars by Tev Oramsky, 302 pages.")
    # a sentence's opening verb is not, and "and" joins two names, not one
    assert "started orchard of mar" not in names("Started Orchards of Mars by Tev Oramsky.")
    assert set(names("we billed Halvane Dental and Blorrin Logistics today")) == {"halvane dental", "blorrin logistic"}
    assert not is_title("Group ride") and is_title("Quarry Lane Track") and not is_title("Kestrel")


ROUTES = ["Ashvel Quarry Track", "Brinmoor Café Run", "Heathfall Forest Loop", "Lighthouse Out-and-Back", "Vorrow Ridge Round"]
KINDS = ["Training", "Group ride", "Commute"]


def test_rare_names_written_as_names_are_one_field(encoder: TextEncoder) -> None:
    # five routes, each in four of 30 records: chance alone would seldom put two of them in one
    # record, so their taking turns says little - their form (names) says they are one field,
    # and it claims ``name`` before a wider field of words capitalised only where a cell opens
    texts = [f"{KINDS[i % 3]} — {ROUTES[i % 5] if i % 6 != 5 else 'no route'} — {20 + i}.4 km — {i % 3 + 1} h {10 + i} min"
             for i in range(30)]
    model = TermFields().fit(texts, encoder.encode, exclude=["km", "h", "min"])
    fields = {f.name: set(f.values.values()) for f in model.fields_}
    assert fields.get("name") == set(ROUTES), fields
    got = dict((a, v) for a, v, _, _ in model.transform("Commute — Vorrow Ridge Round — 31.2 km — 1 h 18 min"))
    assert got.get("name") == "Vorrow Ridge Round"


def test_context_is_the_neighbouring_tokens() -> None:
    text = "Vashti — 13.9 qelts"
    assert _context(text, 0, 6) == ("^", "—")
    assert _context(text, text.index("qelts"), len(text)) == ("#", "$")


def test_cluster_joins_alike_terms_that_take_turns_only() -> None:
    likeness = np.array([[1, .9, .9, .9], [.9, 1, .9, .9], [.9, .9, 1, .9], [.9, .9, .9, 1]])
    expected = np.full((4, 4), 5.0)
    apart = np.zeros((4, 4), dtype=bool)
    apart[0, 3] = apart[3, 0] = True  # 0 and 3 share records
    groups = _cluster(likeness, expected, apart)
    assert groups == [[0, 1, 2]]
    assert _cluster(likeness, np.full((4, 4), 0.2), np.zeros((4, 4), dtype=bool)) == []  # rare words apart say nothing
    assert _cluster(np.full((4, 4), 0.1), expected, np.zeros((4, 4), dtype=bool)) == []  # unlike words are no field


@pytest.fixture(scope="module")
def encoder() -> TextEncoder:
    return TextEncoder()


def test_fit_finds_the_names_and_the_moods(encoder: TextEncoder) -> None:
    texts = [t for *_, t in log()]
    model = TermFields().fit(texts, encoder.encode, exclude=["qelts", "min"])
    fields = {frozenset(f.values): f.name for f in model.fields_}
    names = frozenset(n.lower() for n in NAMES)
    assert fields.get(names) == "name"  # written capitalised
    # lower-case words that take turns are a field only once the memory names one of them
    assert frozenset(MOODS) not in fields
    # a label the memory gives one of the values names the field
    named = TermFields().fit(texts, encoder.encode, exclude=["qelts", "min"], named=[("sael", "ollun")])
    assert {f.name for f in named.fields_} >= {"sael", "name"}
    got = {a: v for a, v, _, _ in named.transform("Gannow — 12.2 qelts · 14 min · quorl")}
    assert got == {"name": "Gannow", "sael": "quorl"}
    assert named.transform("Gannow — 12.2 qelts", have=["name"]) == []


def test_a_generic_name_stated_for_the_values_is_still_the_fields(encoder: TextEncoder) -> None:
    # "There are four of them: Vashti, ..." states a ``name`` (which reserves it) for one of the
    # values: the field of those values may still take the name; a field of other values may not
    texts = [t for *_, t in log()]
    model = TermFields().fit(texts, encoder.encode, exclude=["qelts", "min"], named=[("name", "Vashti")],
                             reserved=["name"])
    assert {f.name: frozenset(f.values) for f in model.fields_}.get("name") == frozenset(n.lower() for n in NAMES)
    other = TermFields().fit(texts, encoder.encode, exclude=["qelts", "min"], named=[("name", "Pelloran")],
                             reserved=["name"])
    assert "name" not in {f.name for f in other.fields_}


def test_no_encoder_or_too_few_records_learn_nothing(encoder: TextEncoder) -> None:
    texts = [t for *_, t in log()]
    assert TermFields().fit(texts, None).fields_ == []
    assert TermFields().fit(texts[:3], encoder.encode).fields_ == []


def rounds() -> list[dict[str, Any]]:
    return [{"round_id": f"t{day}", "session_id": f"s{day}", "timestamp": f"2025-03-{day:02d}T20:00:00",
             "user_text": text, "assistant_text": "Logged."} for day, *_, text in log(28)]


@pytest.fixture
def ctx(db_url: str, tmp_path) -> Iterator[Context]:
    yield from ingested(rounds(), home=str(tmp_path), database_url=db_url, use_retrieval=False)


def test_bare_names_and_kinds_become_columns_and_answer(ctx: Context) -> None:
    sql = backends(ctx).sql
    tables = sql.tables("m")
    assert len(tables) == 1
    rows = {r["source"]: r for r in sql.select_rows("m", tables[0].name)}
    texts = [c.name for c in tables[0].columns if c.type == "text"]
    truth = log(28)
    name_col = next(c for c in texts if {str(r.get(c)) for r in rows.values()} >= set(NAMES))
    mood_col = next(c for c in texts if {str(r.get(c)).lower() for r in rows.values()} >= set(MOODS))
    assert all(rows[f"t{day}"][name_col] == name for day, name, *_ in truth)
    assert all(str(rows[f"t{day}"][mood_col]).lower() == mood for day, _, mood, *_ in truth)
    answer = query.invoke({"memory_id": "m", "question": "How many times did I tend Vashti?", "now": "2025-04-01T09:00:00"},
                          context=ctx)["answer"]
    assert re.match(r"\s*7\b", answer), answer
    want = round(sum(t for _, n, _, t, *_ in truth if n == "Tisbel") / 7, 2)
    answer = query.invoke({"memory_id": "m", "question": "What was Tisbel's average threnn?", "now": "2025-04-01T09:00:00"},
                          context=ctx)["answer"]
    assert float(re.search(r"\d+(?:\.\d+)?", answer).group()) == pytest.approx(want, abs=0.01), answer


@pytest.mark.parametrize(("labels", "records", "values"), [
    (Counter({"vorn": 6, "pleck": 5, "skarrow": 4}), 15, ["pleck", "skarrow", "vorn"]),   # three lifts, one weight
    (Counter({"sleep": 12, "slept": 2}), 14, []),                                           # a name and its variant
    (Counter({"time": 9, "moving_time": 2, "elapsed": 2}), 14, []),                         # one label most of the time
    (Counter({"vorn": 2, "pleck": 2, "skarrow": 2, **{f"w{i}": 1 for i in range(8)}}), 20, []),  # mostly said once
    (Counter({"vorn": 6, "pleck": 5, "once": 1}), 12, []),                                  # two recurring labels: no category yet
    (Counter({"asc": 9, "elevation_gain": 5, "climbing": 4, "climbed": 3}), 21, []),          # one word inflected: a name
])
def test_labels_are_values_when_several_take_turns(labels: Counter, records: int, values: list[str]) -> None:
    assert labels_as_values(labels, records) == values


def test_labels_ending_in_one_noun_are_kinds_of_its_record() -> None:
    """"brisk sollow", "drag sollow", also written "Brisk: 6 km": kinds of a sollow, counted as
    their first word; the noun alone and a phrase that says when ("after work") are no kind."""
    from adamm.nodes.rules.terms import fold_head, label_head
    assert label_head(["brisk_sollow", "drag_sollows", "vennick", "sollow"]) == "sollow"
    assert label_head(["moving_time", "time"]) == ""  # one word before the noun: a variant of a name
    assert fold_head("drag_sollows", "sollow") == "drag" and fold_head("sollow", "sollow") == "sollow"
    labels = Counter({"brisk_sollow": 3, "brisk": 2, "drag_sollow": 4, "long_sollow": 3, "long": 1, "sollow": 2, "after_work": 5})
    values = {"brisk_sollow": [7.1, 6.8, 7.7], "brisk": [6.5, 7.4], "drag_sollow": [4.2, 5.1, 4.8, 4.4],
              "long_sollow": [14.1, 16.0, 15.2], "long": [17.3], "sollow": [6.0, 9.0], "after_work": [5.0, 6.0, 7.0, 4.0, 8.0]}
    got = labels_as_values(labels, 20, values=values)
    assert got == ["brisk", "brisk_sollow", "drag_sollow", "long", "long_sollow"]
    # the same words over one range of values: names of one quantity after all
    same = {k: [6.0, 6.5, 7.0, 6.2, 6.8][:len(v)] for k, v in values.items()}
    assert labels_as_values(labels, 20, values=same) == []


def test_labels_of_one_quantity_are_no_category() -> None:
    """A night's sleep as "sleep", "slept", "watch": the same hours whatever the label."""
    labels = Counter({"sleep": 6, "slept": 5, "watch": 4})
    same = {"sleep": [7.0, 6.5, 8.0, 7.5, 6.0, 7.2], "slept": [7.1, 6.8, 7.9, 6.2, 7.4], "watch": [6.9, 7.3, 7.7, 6.4]}
    apart = {"sleep": [70.0, 72.0, 75.0, 71.0, 69.0, 73.0], "slept": [120.0, 118.0, 125.0, 121.0, 119.0], "watch": [160.0, 165.0, 158.0, 162.0]}
    assert value_spread(same) < 0.3 < value_spread(apart)
    assert labels_as_values(labels, 15, values=same) == []
    assert labels_as_values(labels, 15, values=apart) == ["sleep", "slept", "watch"]


def test_labels_that_take_turns_in_one_layout_are_a_category_whatever_the_values() -> None:
    """Spending written "flinkery: $29.55 (Tesk, card)", "tolls: $42.65 (Baskwell, cash)": the
    amounts do not differ by label, but the labels take turns in one layout, as a category's
    values do; "Just dropped $76.63 at ..." is always alone in its layout, its wording."""
    from adamm.nodes.rules.terms import layout_shape
    assert layout_shape("flinkery: $29.55 (Tesk, Zeno Pay)", "flinkery") == "L: # (w, w)"
    assert layout_shape("Orrin's 28.94 USD grubbage Zeno Pay", "grubbage") == "w # w L w"
    assert layout_shape("Moving time: 1:02:03", "moving_time") == "L: #" and layout_shape("Brosk 4", "vrell") == ""
    texts = {"flinkery": ["flinkery: $29.55 (Tesk, card)", "flinkery: $49.49 (Vorlane Market, cash)"],
             "tolls": ["tolls: $42.65 (Baskwell, cash)", "tolls: $12.10 (Tesk, card)"],
             "grubbage": ["grubbage: $61.00 (Orrin's, Zeno Pay)", "grubbage: $33.33 (Tesk, cash)"],
             "dropped": ["Just dropped $76.63 at Orrin's on grubbage - card", "Just dropped $21.50 at Tesk on tolls - cash",
                         "Just dropped $40.00 at Baskwell on flinkery - cash"]}
    labels = Counter({k: len(v) for k, v in texts.items()})
    same = {"flinkery": [29.55, 49.49], "tolls": [42.65, 12.10], "grubbage": [61.0, 33.33], "dropped": [76.63, 21.5, 40.0]}
    shapes = {k: Counter(layout_shape(t, k) for t in v) for k, v in texts.items()}
    assert labels_as_values(labels, 9, values=same) == []  # by the values alone: names of one amount
    assert labels_as_values(labels, 9, values=same, shapes=shapes) == ["flinkery", "grubbage", "tolls"]
    # the sleep written three ways, each in its own layout: still names of one quantity
    sleep = {"sleep": ["Sleep: 7h 10m", "Sleep: 6h 50m"], "slept": ["slept 7 hours", "slept 6 hours"],
             "watch": ["watch says 6h45", "watch says 7h02"]}
    assert labels_as_values(Counter({k: 2 for k in sleep}), 6, values={"sleep": [7.0, 6.5], "slept": [6.5, 7.0], "watch": [7.0, 6.5]},
                            shapes={k: Counter(layout_shape(t, k) for t in v) for k, v in sleep.items()}) == []


LIFTS = ["Vorn", "Pleck", "Skarrow"]


def lift_rounds(n: int = 24) -> list[dict[str, Any]]:
    """A lifting log in invented words where the lift is written as the weight's label."""
    rng = random.Random(5)
    out = []
    for i in range(n):
        lift, grunt = LIFTS[i % 3], rng.randrange(5, 10)
        kg = (60, 110, 160)[i % 3] + 5 * rng.randrange(0, 6)  # each lift has its own range
        text = [f"{lift} {kg} kg, grunt {grunt}.", f"Today {lift.lower()}: {kg} kg (grunt {grunt})",
                f"{lift} — {kg} kg — grunt {grunt}"][(i // 3) % 3]
        out.append({"round_id": f"l{i}", "session_id": f"s{i}", "timestamp": f"2025-04-{1 + i:02d}T18:00:00",
                    "user_text": text, "assistant_text": "Logged.", "lift": lift, "kg": kg})
    return out


@pytest.fixture
def lifts(db_url: str, tmp_path) -> Iterator[Context]:
    yield from ingested([{k: v for k, v in r.items() if k not in ("lift", "kg")} for r in lift_rounds()],
                        home=str(tmp_path), database_url=db_url, use_retrieval=False)


def text_cells(ctx: Context) -> dict[str, set[str]]:
    """Each round's text cells over every table of memory ``m``, in lower case."""
    sql = backends(ctx).sql
    return {row["source"]: {str(row[c.name]).lower() for c in t.columns if c.type == "text" and row.get(c.name)}
            for t in sql.tables("m") for row in sql.select_rows("m", t.name)}


def test_labels_that_take_turns_become_a_category_column(lifts: Context) -> None:
    truth = {r["round_id"]: r for r in lift_rounds()}
    cells = text_cells(lifts)
    labelled = [rid for rid, r in truth.items() if r["lift"].lower() in cells.get(rid, set())]
    assert len(labelled) == len(truth), sorted(set(truth) - set(labelled))
    # ... and the planner filters by it: a lift named in a question is a stored value
    vorn = [r["kg"] for r in lift_rounds() if r["lift"] == "Vorn"]
    answer = query.invoke({"memory_id": "m", "question": "What was my heaviest vorn?", "now": "2025-05-01T09:00:00"},
                          context=lifts)["answer"]
    assert float(re.search(r"\d+(?:\.\d+)?", answer).group()) == max(vorn), answer
    answer = query.invoke({"memory_id": "m", "question": "How many times did I do skarrow?", "now": "2025-05-01T09:00:00"},
                          context=lifts)["answer"]
    assert re.match(r"\s*8\b", answer), answer


OUTING_KINDS = {"brisk": (6, 9), "drag": (4, 6), "long": (12, 18), "vennick": (3, 5)}


def outing_rounds(n: int = 40) -> list[dict[str, Any]]:
    """An outing log in invented words whose kind is written before the record's noun ("a brisk
    sollow"), as a label ("Vennick: ...") or bare among the values ("..., drag.")."""
    rng = random.Random(9)
    forms = ["{d} km {k} sollow this morning, {m} min.", "Did a {d} km {k} sollow this morning, {m} min.",
             "{K} sollow today: {d} km in {m} min.", "Got out for a {k} sollow after work - {d} km, {m} min.",
             "Sollow done: {d} km, {m} min, {k}."]
    out = []
    for i in range(n):
        k = list(OUTING_KINDS)[i % 4]
        d = round(rng.uniform(*OUTING_KINDS[k]), 1)
        text = forms[(i // 4) % len(forms)].format(d=d, k=k, K=k.capitalize(), m=int(d * 5.5))
        out.append({"round_id": f"o{i}", "session_id": f"s{i}", "timestamp": f"2025-04-{1 + i % 28:02d}T18:00:00",
                    "user_text": text, "assistant_text": "Logged.", "kind": k, "km": d})
    return out


@pytest.fixture
def outings(db_url: str, tmp_path) -> Iterator[Context]:
    yield from ingested([{k: v for k, v in r.items() if k not in ("kind", "km")} for r in outing_rounds()],
                        home=str(tmp_path), database_url=db_url, use_retrieval=False)


def test_kinds_written_before_the_records_noun_become_a_column(outings: Context) -> None:
    sql = backends(outings).sql
    truth = {r["round_id"]: r for r in outing_rounds()}
    cells = text_cells(outings)
    kinded = [rid for rid, r in truth.items() if r["kind"] in cells.get(rid, set())]
    assert len(kinded) >= 0.9 * len(truth), sorted(set(truth) - set(kinded))
    # "4.5 km drag sollow": a distance named after its kind is the distance, in one column
    km = distance_columns(sql)
    assert len(km) == 1, km
    long_km = [r["km"] for r in outing_rounds() if r["kind"] == "long"]
    answer = query.invoke({"memory_id": "m", "question": "What was my average distance on long sollows?",
                           "now": "2025-05-01T09:00:00"}, context=outings)["answer"]
    assert float(re.search(r"\d+(?:\.\d+)?", answer).group()) == pytest.approx(sum(long_km) / len(long_km), abs=0.01), answer


def varied_outings(seed: int = 3, n: int = 60) -> list[dict[str, Any]]:
    """Outings whose kind is written five ways, one picked at random each time - among them
    after the distance ("4.5 km wide brandle"), which can make a field named after a kind."""
    rng = random.Random(seed)
    kinds = {"tarry": (6, 9), "quell": (4, 6), "wide": (12, 18), "ossic": (3, 5)}
    forms = ["{d} km {k} brandle this morning, {m} min.", "{K} today: {d} km in {m} min.", "Did {d} km after work ({k}), {m} min.",
             "Brandle done: {d} km, {m} min, {k}.", "Screenshot of the Pellow app card: '{K} brandle' — {d} km · {m} min · avg pace shown."]
    out = []
    for i in range(n):
        k = rng.choice(list(kinds))
        d = round(rng.uniform(*kinds[k]), 1)
        out.append({"round_id": f"o{i}", "session_id": f"s{i}", "timestamp": f"2025-04-{1 + i % 28:02d}T18:00:00",
                    "user_text": rng.choice(forms).format(d=d, k=k, K=k.capitalize(), m=int(d * 5.5)), "assistant_text": "Logged."})
    return out


def test_a_kind_written_with_its_noun_in_a_cell_is_the_nouns_field(db_url: str, tmp_path) -> None:
    # "- drag sollow" after the values fills a layout's cell; "a drag sollow" the slot "_ sollow":
    # one field, whose value is "drag" however it was written
    rng = random.Random(4)
    rounds = []
    for i in range(40):
        k = list(OUTING_KINDS)[i % 4]
        d = round(rng.uniform(*OUTING_KINDS[k]), 1)
        text = [f"Did my {k} sollow this morning. {d} km in {int(d * 5.5)} min.", f"{d} km in {int(d * 5.5)} min - {k} sollow."][(i // 4) % 2]
        rounds.append({"round_id": f"c{i}", "session_id": f"s{i}", "timestamp": f"2025-04-{1 + i % 28:02d}T18:00:00",
                       "user_text": text, "assistant_text": "Logged.", "kind": k})
    for ctx in ingested([{k: v for k, v in r.items() if k != "kind"} for r in rounds], home=str(tmp_path), database_url=db_url,
                        use_retrieval=False):
        sql = backends(ctx).sql
        (table,) = sql.tables("m")
        texts = [c.name for c in table.columns if c.type == "text" and c.name != "time_of_day"]
        assert texts == ["sollow"], texts
        got = {row["source"]: row["sollow"] for row in sql.select_rows("m", table.name)}
        assert all(got.get(r["round_id"]) == r["kind"] for r in rounds), got


def test_a_distance_named_after_its_kind_joins_the_distance(db_url: str, tmp_path) -> None:
    # "4.5 km wide brandle" before "brandle" was known as a field made ``wide_brandle``: once
    # "wide" is a stored brandle, that field is the distance the other brandles have
    for ctx in ingested(varied_outings(), home=str(tmp_path), database_url=db_url, use_retrieval=False):
        sql = backends(ctx).sql
        assert [a.name for a in sql.attributes("m") if a.unit == "km"] == ["distance"]
        assert [[c.name for c in t.columns if c.unit == "km"] for t in sql.tables("m")] == [["distance"]]


def _spending(seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    forms = ["Spent ${a:.2f} on {c} at {s}.", "{C} at {s}, ${a:.2f}.", "Paid ${a:.2f} for {c} at {s}.",
             "${a:.2f} on {c} at {s} yesterday."]
    out = []
    for i in range(36):
        c = rng.choice(["grelk", "vopple", "skarn", "tressin"])
        out.append(forms[i % 4].format(a=rng.uniform(5, 90), c=c, C=c.capitalize(), s=rng.choice(["Orla Venn", "Brask Hall"])))
    return out


def test_words_written_as_what_money_went_on_are_the_spending_category(encoder: TextEncoder) -> None:
    texts = _spending()
    model = TermFields().fit(texts, encoder.encode, exclude=["usd"])
    fields = {f.name: frozenset(f.values) for f in model.fields_}
    assert fields.get("category") == frozenset({"grelk", "vopple", "skarn", "tressin"})
    got = {a: v for a, v, _, _ in model.transform("Spent $12.00 on skarn at Brask Hall.")}
    assert got.get("category") == "skarn"
    # the same words in the same records, never written after an amount: nothing names them
    plain = [re.sub(r"\$[\d.]+ (?:on|for) ", "", t) for t in texts]
    assert "category" not in {f.name for f in TermFields().fit(plain, encoder.encode, exclude=["usd"]).fields_}


def log_rounds(dialog: dict[str, Any]) -> list[Round]:
    """The rounds of a generated log (``benchmarks/kinds_log.py``), read as ``adamm ingest``
    reads the file."""
    (scenario,) = load_mem_gallery("log.json", data=dialog).scenarios
    return scenario.rounds


def kinds_log_rounds(seed: int, noun: str, kinds: list[str]) -> tuple[list[Round], list[dict[str, Any]]]:
    """The rounds and the true records of one ``benchmarks/kinds_log.py`` scenario."""
    dialog, records = load_script("benchmarks/kinds_log.py").scenario(seed, noun, kinds)
    return log_rounds(dialog), records


def distance_columns(sql: Any, units: tuple[str, ...] = ("km",)) -> list[str]:
    """The memory's columns that hold a distance in one of ``units``."""
    return [c.name for t in sql.tables("m") for c in t.columns if c.unit in units]


def _clock(minutes: float) -> str:
    return f"{int(minutes)}:{int(round(minutes % 1 * 60)) % 60:02d}"


def shorthand_outings(n: int = 48) -> list[dict[str, Any]]:
    """Outings in an app's fields and a notebook's shorthand: the kind alone labels the distance
    ("Drag 5.9km 36:53") or sits in parentheses before the time ("5.1 km (Drag) in 31:12"), and a
    time of 16 to 33 minutes looks like a clock time ("Vennick — 4.0 km — 23:02")."""
    rng = random.Random(6)
    forms = ["{K} {d}km {t}", "{K} {d}km {t}", "Logged {d} km ({K}) in {t}.", "Type: {K} | Distance: {d} km | Time: {t}"]
    out = []
    for i in range(n):
        k = list(OUTING_KINDS)[i % 4]
        d = round(rng.uniform(*OUTING_KINDS[k]), 1)
        minutes = round(d * 5.5 * rng.uniform(0.95, 1.05), 1)
        out.append({"round_id": f"o{i}", "session_id": f"s{i}", "timestamp": f"2025-04-{1 + i % 28:02d}T18:00:00",
                    "user_text": forms[(i // 4) % len(forms)].format(d=d, K=k.capitalize(), t=_clock(minutes)),
                    "assistant_text": "Logged.", "kind": k, "km": d, "minutes": int(minutes) + int(round(minutes % 1 * 60)) % 60 / 60})
    return out


def test_a_kind_that_labels_a_value_alone_is_the_records_kind(db_url: str, tmp_path) -> None:
    # "Drag 5.9km" made a field ``drag``: once "Drag" is a stored kind ("Type: Drag | ..."), it is
    # the distance; "in 31:12" after "(Drag)" is the time it took, and so is "— 23:02" after a
    # distance - no time of day
    rounds = shorthand_outings()
    for ctx in ingested([{k: v for k, v in r.items() if k not in ("kind", "km", "minutes")} for r in rounds],
                        home=str(tmp_path), database_url=db_url, use_retrieval=False):
        sql = backends(ctx).sql
        km = distance_columns(sql)
        assert len(km) == 1, km
        cells = text_cells(ctx)
        assert all(r["kind"] in cells.get(r["round_id"], set()) for r in rounds), cells
        (table,) = [t for t in sql.tables("m") if any(c.name == km[0] for c in t.columns)]
        (minutes,) = [c.name for c in table.columns if c.unit == "min"]
        got = {row["source"]: (row[km[0]], row[minutes]) for row in sql.select_rows("m", table.name)}
        for r in rounds:
            assert got.get(r["round_id"]) == (pytest.approx(r["km"]), pytest.approx(r["minutes"], abs=0.01)), (r, got.get(r["round_id"]))


def test_a_kind_read_as_its_own_distance_joins_the_distance(db_url: str, tmp_path) -> None:
    # "Did a 12.5 km long run": ``long_run``, beside a distance written as "Tempo run today: ..."
    # and "Recovery run ...": one more kind of run, so one distance column and the kind in a column
    rounds, records = kinds_log_rounds(1, "run", ["tempo", "easy", "long", "recovery"])
    for ctx in ingested(rounds, home=str(tmp_path), database_url=db_url, use_retrieval=False):
        sql = backends(ctx).sql
        km = distance_columns(sql)
        assert len(km) == 1, km
        cells = text_cells(ctx)
        kinded = [r for r in records if r["fields"]["kind"] in cells.get(r["round"], set())]
        assert len(kinded) >= 0.95 * len(records), len(kinded)


def test_a_kind_merged_into_a_distance_kept_in_miles_is_converted(db_url: str, tmp_path) -> None:
    # a log that writes miles and kilometres, its distance first seen in miles: a kind's own
    # distance in km ("5.7 km quell brandle") joining it is converted, as every value is; plans
    # and other people's outings make no row
    from adamm.stores.quantities import convert

    rounds, records = kinds_log_rounds(11, "brandle", ["tarry", "quell", "wide", "ossic"])
    truth = {r["round"]: r["fields"]["distance_km"] for r in records}
    for ctx in ingested(rounds, home=str(tmp_path), database_url=db_url, use_retrieval=False):
        sql = backends(ctx).sql
        ((table, column, unit),) = [(t.name, c.name, c.unit) for t in sql.tables("m") for c in t.columns if c.unit in ("km", "mi")]
        got = {row["source"]: convert(row[column], unit, "km") for row in sql.select_rows("m", table) if row.get(column) is not None}
        assert set(got) == set(truth)
        assert all(got[rid] == pytest.approx(km, abs=0.01) for rid, km in truth.items()), {
            rid: (got[rid], km) for rid, km in truth.items() if abs(got[rid] - km) > 0.01}


def test_kinds_that_named_their_own_distances_are_one_field(db_url: str, tmp_path) -> None:
    # a catch-up opening the log ("Monday 8.0 km tempo in 35:29; Thursday 4.1 km easy in 25:23")
    # makes ``tempo`` and ``easy`` before any distance is known, each taking other kinds' labels
    # later: together their labels are the kinds of a run, so one distance and a column of kinds
    rounds, records = kinds_log_rounds(12, "run", ["tempo", "easy", "long", "recovery"])
    for ctx in ingested(rounds, home=str(tmp_path), database_url=db_url, use_retrieval=False):
        sql = backends(ctx).sql
        km = distance_columns(sql, ("km", "mi"))
        assert len(km) == 1, km
        rows: dict[str, list[tuple[str, set[str]]]] = {}  # round -> (day, text cells) of each of its rows
        for t in sql.tables("m"):
            for row in sql.select_rows("m", t.name):
                rows.setdefault(row["source"], []).append((str(row["observed_at"] or row["time"])[:10], {
                    str(row[c.name]).lower() for c in t.columns if c.type == "text" and row.get(c.name)}))
        kinded = [r for r in records if any(r["fields"]["kind"] in text for day, text in rows.get(r["round"], ())
                                            if len(rows[r["round"]]) == 1 or day == r["observed"])]
        assert len(kinded) >= 0.95 * len(records), (len(kinded), len(records))
