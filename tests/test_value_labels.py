"""A label that is a category's value and another field's label ("Gannow thr 14.1", beside
"Threnn 13.9 q" everywhere else) is that field, not a field of its own: a backlog written in
shorthand puts its values in the same column as the rest (``nodes/discover.merge_value_labels``).
Invented words throughout, on SQLite and PostgreSQL, through the real ingest and query graphs.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from adamm.graphs.query import graph as query
from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.tests.memories import ingested

NAMES = ["Gannow", "Oremko", "Tisbel", "Vashti"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]


def log(seed: int = 11) -> list[tuple[int, str, float, int]]:
    """(day of April, name, threnn in q, minutes)."""
    rng = random.Random(seed)
    return [(d, NAMES[(d * 3) % 4], round(rng.uniform(11, 19), 1), rng.randrange(8, 50)) for d in range(1, 29)]


def rounds() -> list[dict[str, Any]]:
    out = []
    rows = log()
    for i, (d, name, threnn, minutes) in enumerate(rows[:20]):
        text = [f"Did {name}'s tending today, {minutes} min. Threnn {threnn} q.",
                f"{name} tonight: threnn {threnn} q, {minutes} minutes with her.",
                f"Tending of {name} done. Threnn {threnn} q · {minutes} min"][i % 3]
        out.append({"round_id": f"r{d}", "session_id": f"s{d}", "timestamp": f"2025-04-{d:02d}T20:00:00",
                    "user_text": text, "assistant_text": "Logged."})
    # a backlog of the last eight days, one line each, in shorthand: the name before the label
    lines = [f"- {DAYS[j % 5]} {d} Apr — {name} thr {threnn} / {minutes} min" for j, (d, name, threnn, minutes) in enumerate(rows[20:])]
    out.append({"round_id": "backlog", "session_id": "s29", "timestamp": "2025-04-29T09:00:00",
                "user_text": "backlog —\n" + "\n".join(lines), "assistant_text": "Thanks, that's the whole batch."})
    return out


@pytest.fixture
def ctx(db_url: str, tmp_path) -> Iterator[Context]:
    yield from ingested(rounds(), home=str(tmp_path), database_url=db_url, use_retrieval=False)


def test_a_label_holding_a_name_is_the_fields_label(ctx: Context) -> None:
    sql = backends(ctx).sql
    assert {v for _a, v in sql.text_values("m")} >= set(NAMES)  # distinct categorical values, one query
    names = {a.name for a in sql.attributes("m")}
    assert not any(n.endswith("_thr") or n.startswith(tuple(x.lower() + "_" for x in NAMES)) for n in names), names
    tables = sql.tables("m")
    assert len(tables) == 1
    column = next(c.name for c in tables[0].columns if c.unit == "q")
    got = sorted(r[column] for r in sql.select_rows("m", tables[0].name) if r[column] is not None)
    assert got == sorted(t for _, _, t, _ in log())
    want = round(sum(t for _, _, t, _ in log()) / len(log()), 2)
    answer = query.invoke({"memory_id": "m", "question": "What was my average threnn in April?", "now": "2025-05-01T09:00:00"},
                          context=ctx)["answer"]
    assert float(re.search(r"\d+(?:\.\d+)?", answer).group()) == pytest.approx(want, abs=0.01), answer


def test_an_attribute_named_after_a_kind_as_a_whole_finds_its_category() -> None:
    # "Drag 5.9km" made ``drag`` where "Drag" is stored for the one text field ``type``: the kind
    # of a record; a value two fields hold, or one only the measure itself holds, names none
    from types import SimpleNamespace

    from adamm.nodes.discover import _kind_valued

    attributes = {"type": SimpleNamespace(kind="text"), "pace": SimpleNamespace(kind="text"),
                  "drag": SimpleNamespace(kind="float"), "distance": SimpleNamespace(kind="float")}
    assert _kind_valued("drag", {"drag": {"type"}}, attributes) == "type"
    assert _kind_valued("drag", {"drag": {"type", "pace"}}, attributes) is None
    assert _kind_valued("drag", {"drag": {"drag"}}, attributes) is None
    assert _kind_valued("distance", {"drag": {"type"}}, attributes) is None


def test_a_kind_of_a_noun_joins_the_field_written_under_other_kinds_of_it() -> None:
    # ``long_run`` never recorded with the distance labelled "tempo run" and "recovery run"
    from types import SimpleNamespace

    from adamm.nodes.discover import _kind_sibling

    km = dict(dimension="distance")
    measured = {"distance": SimpleNamespace(aliases={"tempo_run", "recovery_run", "km"}, **km),
                "long_run": SimpleNamespace(aliases=set(), **km),
                "duration": SimpleNamespace(aliases={"easy_run", "hill_run"}, dimension="duration")}
    apart = [frozenset({"distance", "duration"}), frozenset({"long_run", "duration"})]
    assert _kind_sibling("long_run", measured, apart) == "distance"
    # recorded together they are two fields; one other kind is no pattern
    assert _kind_sibling("long_run", measured, [*apart, frozenset({"long_run", "distance"})]) is None
    measured["distance"].aliases = {"tempo_run", "km"}
    assert _kind_sibling("long_run", measured, apart) is None
