"""The analytic-memory development set (``adamm.eval.devset.history``): determinism, structure, ground truth.

The surface forms a value may take are re-derived here independently of the generator, so a
rendering bug (a value logged wrongly or not at all) shows up as a missing value.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import date, timedelta

import pytest

from adamm.eval.devset.history import (
    CHATTER_NUMBERS,
    DevSet,
    Domain,
    Field,
    default_domains,
    generate,
    load_truth,
    main,
    rows,
    write_jsonl,
)
from adamm.formats import load
from adamm.stores.records import Round

SEEDS = (0, 1, 7)
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


@pytest.fixture(scope="module")
def sets() -> dict[int, DevSet]:
    return {seed: generate(seed) for seed in SEEDS}


# -- independent surface forms ------------------------------------------------------------


def _hours_forms(value: float) -> tuple[set[str], set[str]]:
    """(forms carrying a unit, unit-less forms) of a duration in hours."""
    m = round(value * 60)
    h, mm = divmod(m, 60)
    unit = {f"{m} min"}
    if h and mm:
        unit |= {f"{h} h {mm} min", f"{h}h{mm:02d}m"}
    elif h:
        unit |= {f"{h} h", f"{h}h"}
    else:
        unit |= {f"{mm}m"}
    if m % 3 == 0:
        unit.add(f"{m / 60:.2f}".rstrip("0").rstrip(".") + " h")
    return unit, {f"{h}:{mm:02d}"}


def _minutes_forms(value: int) -> set[str]:
    h, mm = divmod(value, 60)
    out = {f"{value} min"}
    if h:
        out |= {f"{h} h {mm} min", f"{h}h{mm:02d}m"} if mm else {f"{h} h", f"{h}h"}
    return out


def forms(f: Field, value) -> tuple[set[str], set[str]]:
    """How a value can be written: (forms that carry the unit, bare forms)."""
    if f.kind == "text":
        return set(), {str(value)}
    if f.unit == "h":
        return _hours_forms(value)
    if f.unit == "min":
        return _minutes_forms(value), set()
    if f.unit == "USD":
        nums = {f"{value:.2f}", f"{value:,.2f}"}
        return {x for n in nums for x in (f"${n}", f"USD {n}", f"{n} dollars")}, set()
    if f.unit == "%":
        return {f"{value}%", f"{value} %"}, set()
    number = f"{value:.1f}" if f.kind == "float" else str(value)
    if f.unit is None:
        return set(), {number}
    if f.unit == "km":
        return {f"{number} km", f"{number}km"}, set()
    return {f"{number} {f.unit}"}, set()


def has(text: str, phrase: str) -> bool:
    """``phrase`` occurs in ``text`` as a whole token (no digit or letter glued to its ends)."""
    pat = r"(?<![\w.,])" + re.escape(phrase) + r"(?![\w]|[.,]\d)"
    return re.search(pat, text, flags=re.IGNORECASE) is not None


def day_mentions(d: date) -> list[str]:
    month = MONTHS[d.month - 1]
    return [f"{month} {d.day}", f"{month[:3]} {d.day}"]


def where(ds: DevSet, rec) -> str:
    """The part of the round that must hold the record: the caption, or the user's text."""
    r = ds.round(rec.round_id)
    if rec.style.startswith("caption"):
        assert len(r.images) == 1 and r.images[0].caption and r.images[0].path is None
        return r.images[0].caption
    assert rec.style == "sentence" and not r.images
    return r.user_text


# -- tests ---------------------------------------------------------------------------------


def test_deterministic_per_seed(sets: dict[int, DevSet]) -> None:
    again = generate(0)
    assert [r.model_dump() for r in again.rounds] == [r.model_dump() for r in sets[0].rounds]
    assert again.truth == sets[0].truth
    assert again.chatter_round_ids == sets[0].chatter_round_ids
    other = sets[1]
    assert [r.text for r in other.rounds] != [r.text for r in sets[0].rounds]
    assert [t.values for t in other.truth] != [t.values for t in sets[0].truth]


@pytest.mark.parametrize("seed", SEEDS)
def test_rounds_are_well_formed(sets: dict[int, DevSet], seed: int) -> None:
    ds = sets[seed]
    ids = [r.round_id for r in ds.rounds]
    assert len(set(ids)) == len(ids)
    assert [r.order for r in ds.rounds] == list(range(len(ds.rounds)))
    stamps = [r.timestamp for r in ds.rounds]
    assert all(t is not None for t in stamps)
    assert stamps == sorted(stamps)
    for r in ds.rounds:
        assert Round.model_validate(r.model_dump(), strict=False) == r
    truth_ids = [t.round_id for t in ds.truth]
    assert len(set(truth_ids)) == len(truth_ids)  # one record per observing round
    assert set(truth_ids) <= set(ids)
    assert set(truth_ids).isdisjoint(ds.chatter_round_ids)
    assert set(truth_ids) | set(ds.chatter_round_ids) == set(ids)
    first, last = ds.start, ds.start + timedelta(days=ds.days - 1)
    assert all(first <= t.day <= last for t in ds.truth)
    image_ids = [im.image_id for r in ds.rounds for im in r.images]
    assert len(set(image_ids)) == len(image_ids)


def test_default_domains() -> None:
    doms = default_domains()
    assert [d.name for d in doms] == ["sleep", "glucose", "expenses", "workouts", "games"]
    for d in doms:
        assert sum(1 for f in d.fields if f.optional) <= 1
        for f in d.fields:
            assert re.fullmatch(r"[a-z][a-z0-9_]*", f.name)
            assert f.kind in ("float", "int", "text") and f.labels
    sleep = {f.name: f for f in doms[0].fields}
    assert set(sleep) == {"total_sleep", "deep_sleep", "resting_heart_rate", "sleep_score", "hrv"}
    assert sleep["total_sleep"].unit == "h" and sleep["hrv"].unit == "ms"
    assert sleep["hrv"].starts_at == 30  # mid-history of 60 daily records
    assert default_domains(90)[0].fields[-1].starts_at == 45
    assert default_domains(60, hrv_from=0.15)[0].field("hrv").starts_at == 9


@pytest.mark.parametrize("seed", SEEDS)
def test_cadence_and_field_presence(sets: dict[int, DevSet], seed: int) -> None:
    ds = sets[seed]
    counts = Counter(t.domain for t in ds.truth)
    for dom in ds.domains:
        assert abs(counts[dom.name] - ds.days / dom.every_days) <= 1, dom.name
        recs = rows(ds, dom.name)
        assert [r["day"] for r in recs] == sorted(r["day"] for r in recs)
        for f in dom.fields:
            present = [f.name in r for r in recs]
            assert not any(present[: f.starts_at]), f.name
            if f.optional:  # mostly present (it may, by chance, never be omitted in one set)
                after = present[f.starts_at:]
                assert sum(after) >= 0.6 * len(after), f.name
            else:
                assert all(present[f.starts_at:]), f.name
    hrv = ds.domain("sleep").field("hrv")
    n = counts["sleep"]
    assert 0 < hrv.starts_at < n


def test_optional_field_is_sometimes_omitted(sets: dict[int, DevSet]) -> None:
    omitted = [
        t for ds in sets.values() for t in ds.truth
        if t.domain == "workouts" and "average_heart_rate" not in t.values
    ]
    assert omitted and all({"distance", "duration"} <= set(t.values) for t in omitted)


@pytest.mark.parametrize("seed", SEEDS)
def test_values_are_realistic(sets: dict[int, DevSet], seed: int) -> None:
    for t in sets[seed].truth:
        v = t.values
        if t.domain == "sleep":
            assert 4 <= v["total_sleep"] <= 10 and 0 < v["deep_sleep"] < v["total_sleep"]
            assert 40 <= v["resting_heart_rate"] <= 75 and 0 <= v["sleep_score"] <= 100
        elif t.domain == "glucose":
            assert 0 <= v["time_in_range"] <= 100 and 70 <= v["average_glucose"] <= 250
        elif t.domain == "expenses":
            assert v["amount"] > 0 and round(v["amount"], 2) == v["amount"]
        elif t.domain == "workouts":
            assert 1 <= v["distance"] <= 50 and v["duration"] >= 10
            assert 4 <= v["duration"] / v["distance"] <= 8  # min/km
        elif t.domain == "games":
            sf, sa = v["score_for"], v["score_against"]
            assert v["result"] == ("won" if sf > sa else "lost" if sf < sa else "draw")
        for name, value in v.items():
            kind = sets[seed].domain(t.domain).field(name).kind
            assert isinstance(value, {"int": int, "float": float, "text": str}[kind]), (name, value)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_value_is_written_in_its_round(sets: dict[int, DevSet], seed: int) -> None:
    """Each value is in the caption (dashboards) or the user's text (sentences), with a cue.

    The cue is one of the field's labels -- always, in a dashboard caption -- or, in a sentence,
    the value's unit ("28 min", "$12.40"), the game-score pair ("won 3-1"), or nothing for a
    text value, which names itself ("at Joe's Diner", "we won").
    """
    ds = sets[seed]
    styles = Counter()
    for t in ds.truth:
        dom = ds.domain(t.domain)
        text = where(ds, t)
        styles[t.style] += 1
        for name, value in t.values.items():
            f = dom.field(name)
            with_unit, bare = forms(f, value)
            shown = [x for x in with_unit | bare if has(text, x)]
            assert shown, (t.round_id, name, value, text)
            labelled = any(has(text, lab) for lab in f.labels)
            if t.style != "sentence":
                assert labelled, (t.round_id, name, text)
                continue
            pair = f"{t.values.get('score_for')}-{t.values.get('score_against')}"
            cue = labelled or f.kind == "text" or any(has(text, x) for x in with_unit) or (
                name in ("score_for", "score_against") and has(text, pair))
            assert cue, (t.round_id, name, text)
    assert set(styles) >= {"sentence", "caption-dots", "caption-pipes", "caption-lines"}


def test_durations_and_money_vary(sets: dict[int, DevSet]) -> None:
    text = "\n".join(r.text for ds in sets.values() for r in ds.rounds)
    assert re.search(r"\b\d h \d+ min\b", text)  # 6 h 45 min
    assert re.search(r"\b\d h\d\dm\b|\b\dh\d\dm\b", text)  # 6h45m
    assert re.search(r"\b\d:\d\d\b", text)  # 6:45
    assert re.search(r"\b[2-9]\d\d min\b", text)  # 405 min
    assert re.search(r"\$\d", text) and "USD " in text and " dollars" in text
    assert re.search(r"\d,\d{3}\.\d\d", text)  # thousands separator


@pytest.mark.parametrize("seed", SEEDS)
def test_observed_dates(sets: dict[int, DevSet], seed: int) -> None:
    ds = sets[seed]
    late = 0
    for t in ds.truth:
        r = ds.round(t.round_id)
        lag = (r.timestamp.date() - t.day).days
        assert lag >= 0
        text = r.text
        if lag:
            late += 1
            says_date = any(has(text, m) for m in day_mentions(t.day))
            assert says_date or (lag == 1 and "yesterday" in text.lower()), (t.round_id, lag, text)
        else:
            assert "yesterday" not in text.lower() and "catching up" not in text.lower()
        # any date a round names is the record's own day
        for m in re.finditer(r"\b(" + "|".join(x[:3] for x in MONTHS) + r")[a-z]* (\d{1,2})\b", text):
            month = [x[:3] for x in MONTHS].index(m.group(1)) + 1
            assert (month, int(m.group(2))) == (t.day.month, t.day.day), (t.round_id, text)
    assert late >= 5


@pytest.mark.parametrize("seed", SEEDS)
def test_assistant_echoes_are_true(sets: dict[int, DevSet], seed: int) -> None:
    ds = sets[seed]
    label_to_field = {"sleep score": ("sleep", "sleep_score"), "time in range": ("glucose", "time_in_range"),
                      "distance": ("workouts", "distance")}
    by_round = {t.round_id: t for t in ds.truth}
    order = {r.round_id: r.order for r in ds.rounds}
    claims = 0
    for r in ds.rounds:
        m = re.search(r"(\S+(?: \S+)?) is your best (.+?) of the past week", r.assistant_text)
        if not m:
            continue
        claims += 1
        t = by_round[r.round_id]
        dom, name = label_to_field[m.group(2)]
        assert t.domain == dom
        with_unit, bare = forms(ds.domain(dom).field(name), t.values[name])
        assert m.group(1).removeprefix("Nice, ") in with_unit | bare
        window = [o for o in ds.truth if o.domain == dom and o is not t and name in o.values
                  and 0 <= (t.day - o.day).days <= 6]
        assert sum(order[o.round_id] < r.order for o in window) >= 2
        assert all(t.values[name] > o.values[name] for o in window)
    assert claims > 0
    # a restated value is the record's own value
    restated = 0
    for t in ds.truth:
        reply = ds.round(t.round_id).assistant_text
        m = re.match(r"Logged(?: for ([A-Z][a-z]+ \d+))?: (.+)\.$", reply)
        if not m:
            continue
        restated += 1
        if m.group(1):
            assert m.group(1) in day_mentions(t.day)
        said = [
            (f, m.group(2)[len(f.labels[0]) + 1:]) for f in ds.domain(t.domain).fields
            if m.group(2).startswith(f.labels[0].lower() + " ")
        ]
        assert len(said) == 1, reply
        f, value = said[0]
        with_unit, bare = forms(f, t.values[f.name])
        assert value in with_unit | bare, reply
    assert restated > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_chatter_holds_no_observation(sets: dict[int, DevSet], seed: int) -> None:
    ds = sets[seed]
    assert abs(len(ds.chatter_round_ids) - ds.days) <= 0  # chatter_per_day = 1.0
    chatter = [ds.round(rid) for rid in ds.chatter_round_ids]
    assert len({r.user_text for r in chatter}) >= 15
    for r in chatter:
        text = r.text
        assert not r.images
        for phrase in CHATTER_NUMBERS:
            text = text.replace(phrase, "")
        assert not re.search(r"\d|\$|%|\bbpm\b|\bkm\b|\bmin\b|mg/dl", text, re.IGNORECASE), r.text


def test_jsonl_round_trip(tmp_path, sets: dict[int, DevSet]) -> None:
    ds = sets[0]
    path = tmp_path / "rounds.jsonl"
    assert write_jsonl(ds, path) == len(ds.rounds)
    loaded = load(path)
    assert loaded.format == "jsonl" and not loaded.warnings
    assert loaded.scenarios[0].rounds == ds.rounds


def test_cli_writes_rounds_and_truth(tmp_path) -> None:
    out, truth = tmp_path / "r.jsonl", tmp_path / "t.json"
    assert main(["--seed", "3", "--days", "20", "--out", str(out), "--truth", str(truth)]) == 0
    ds = generate(3, 20)
    assert load(out).scenarios[0].rounds == ds.rounds
    domains, records, chatter = load_truth(truth)
    assert domains == ds.domains
    assert records == ds.truth
    assert chatter == ds.chatter_round_ids
    assert json.loads(truth.read_text())["seed"] == 3


def test_custom_domains_and_chatter_rate() -> None:
    water = Domain("water", (
        Field("volume", "L", "float", ("Volume", "volume")),
        Field("glasses", None, "int", ("Glasses", "glasses"), starts_at=3),
    ), 2.0)
    ds = generate(5, days=20, domains=(water,), chatter_per_day=0.5)
    assert [d.name for d in ds.domains] == ["water"]
    assert abs(len(ds.truth) - 10) <= 1
    assert 3 <= len(ds.chatter_round_ids) <= 17
    for t in ds.truth:
        text = where(ds, t)
        for name, value in t.values.items():
            f = water.field(name)
            with_unit, bare = forms(f, value)
            assert any(has(text, x) for x in with_unit | bare), (name, value, text)
            assert any(has(text, lab) for lab in f.labels), (name, text)
    recs = rows(ds, "water")
    assert all("glasses" not in r for r in recs[:3]) and all("glasses" in r for r in recs[3:])


def test_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        generate(days=0)
    with pytest.raises(ValueError):
        generate(chatter_per_day=-1)
    with pytest.raises(ValueError):
        generate(domains=(default_domains()[0], default_domains()[0]))


def test_scoring_a_memory_that_does_not_hold_the_dev_set_says_so(tmp_path, monkeypatch, capsys) -> None:
    """``--memory-id`` scores a memory already ingested (README's tour); one that does not hold
    the dev set is named, with what to do, instead of scored as if its tables were empty."""
    from adamm.eval.devset.score import main
    from adamm.nodes.backends import reset_backends

    monkeypatch.setenv("ADAMM_HOME", str(tmp_path / "home"))
    reset_backends()
    try:
        assert main(["--seed", "0", "--days", "3", "--memory-id", "nothing-here"]) == 2
    finally:
        reset_backends()
    err = capsys.readouterr().err
    assert "'nothing-here' holds 0 rounds" in err and "ingest it first" in err
