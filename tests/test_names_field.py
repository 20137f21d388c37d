"""Names written as names (``is_title``: "Vorrow Ridge Round", "The Ostler's Vrask") are one
field however rarely each recurs, and "which route" / "which book" asks for that field when no
column is called so. Invented route names in two layouts (an app's cells and a chat line), on
SQLite and PostgreSQL, asked through the whole query graph.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest

from adamm.graphs.query import graph as query
from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.rules.plan_columns import names_column
from adamm.tests.memories import ingested

ROUTES = ["Ashvel Quarry Track", "Brinmoor Café Run", "Heathfall Forest Loop", "Vorrow Ridge Round", "Lighthouse Out-and-Back"]
KINDS = ["training", "commute", "group outing"]
START = date(2025, 4, 1)


def log(n: int = 30, seed: int = 5) -> list[tuple[date, str, str, float, int]]:
    """(day, route, kind, km, minutes): one outing every other day; a route is never labelled."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        route = ROUTES[(0, 1, 3, 2, 3, 4, 1, 3)[i % 8]]
        out.append((START + timedelta(days=2 * i), route, KINDS[i % 3], round(rng.uniform(20, 90), 1), rng.randrange(50, 200)))
    return out


def text(i: int, route: str, kind: str, km: float, minutes: int) -> str:
    if i % 2:
        return f"Zarkel ride card: '{kind.capitalize()} — {route}' — {km} km · moving time {minutes} min"
    return f"Did a {kind} ride on {route} today, {km} km in {minutes} min."


def rounds() -> list[dict[str, Any]]:
    return [{"round_id": f"r{i}", "session_id": f"s{i}", "timestamp": f"{day.isoformat()}T19:00:00",
             "user_text": text(i, route, kind, km, minutes), "assistant_text": "Logged."}
            for i, (day, route, kind, km, minutes) in enumerate(log())]


@pytest.fixture
def ctx(db_url: str, tmp_path) -> Iterator[Context]:
    yield from ingested(rounds(), home=str(tmp_path), database_url=db_url, use_retrieval=False)


def ask(ctx: Context, question: str) -> str:
    return query.invoke({"memory_id": "m", "question": question, "now": "2025-07-01T09:00:00"}, context=ctx)["answer"]


def test_names_column_wants_names_and_a_thing_not_a_kind() -> None:
    table = {"name": "t", "columns": [
        {"name": "distance", "type": "float", "unit": "km"},
        {"name": "kind", "type": "text", "values": ["training", "commute"]},
        {"name": "name", "type": "text", "values": ["Vorrow Ridge Round", "Ashvel Quarry Track", "Lighthouse Out-and-Back"]}]}
    assert names_column(table, "route") == "name"
    assert names_column(table, "kind") is None        # a category is asked for, not a name
    assert names_column(table, "was") is None         # "what was ...": no noun at all
    assert names_column(table, "distance") is None    # the measured column itself


def test_routes_are_one_column_and_which_route_reads_it(ctx: Context) -> None:
    sql = backends(ctx).sql
    tables = sql.tables("m")
    assert len(tables) == 1
    rows = {r["source"]: r for r in sql.select_rows("m", tables[0].name)}
    truth = log()
    column = next(c.name for c in tables[0].columns if c.type == "text" and {str(r.get(c.name)) for r in rows.values()} >= set(ROUTES))
    assert all(rows[f"r{i}"][column] == route for i, (_d, route, *_rest) in enumerate(truth))

    may = Counter(route for day, route, *_ in truth if day.month == 5)
    top, n = may.most_common(1)[0]
    assert sum(1 for c in may.values() if c == n) == 1  # the data has one answer
    assert ask(ctx, "In May 2025, which route did I ride most often?").startswith(top)

    slowest = min(truth, key=lambda t: t[3] / t[4])
    assert ask(ctx, "Across all my rides, on which route did I ride my slowest average speed?").startswith(slowest[1])

    week = [t for t in truth if date(2025, 5, 5) <= t[0] <= date(2025, 5, 11)]
    answer = ask(ctx, "Which routes did I ride during the week of May 5–11, 2025?")
    assert set(re.findall("|".join(map(re.escape, ROUTES)), answer)) == {t[1] for t in week}, answer

    last = max(t[0] for t in truth if t[1] == "Heathfall Forest Loop")
    assert last.isoformat() in ask(ctx, "When did I last ride the Heathfall Forest Loop?")
