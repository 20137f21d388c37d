"""Record types that share categorical fields still get one table each: a reading log where
books are started (with their size) and read in sessions (pages, minutes), both naming the
book's format as the memory writes it ("(paperback)", "a mystery ebook"). Measured fields choose a record's table, categorical fields
ride along; a categorical field alone never makes a table; two categorical fields are never
merged for never occurring together. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.stores.attributes import Known, consolidation
from adamm.tests.memories import ingested

# (title, genre, format word, stored format, pages)
BOOKS = [("The Copper Hour", "mystery", "paperback", "paper", 301), ("Salt Roads", "history", "ebook", "ebook", 412),
         ("A Field of Kites", "fantasy", "paperback", "paper", 268), ("Night Ferry", "thriller", "ebook", "ebook", 244),
         ("Under Glass", "memoir", "hardcover", "paper", 190)]
# (day, book index, pages, minutes, evening?)
SESSIONS = [(2, 0, 31, 40, True), (3, 0, 28, 35, False), (5, 1, 44, 61, True), (6, 0, 40, 52, False), (8, 1, 37, 50, True),
            (9, 2, 25, 33, False), (11, 2, 52, 70, True), (12, 3, 19, 27, False), (14, 3, 61, 80, True), (15, 4, 22, 30, True),
            (17, 4, 35, 44, False), (18, 2, 30, 41, True)]


def history() -> list[dict[str, Any]]:
    rounds = []
    for i, (title, genre, word, _, pages) in enumerate(BOOKS):
        day = 1 + 3 * i
        rounds.append({"round_id": f"b{i}", "session_id": f"s{day}", "timestamp": f"2025-03-{day:02d}T08:00:00",
                       "user_text": f"Started {title} — a {genre} {word}, {pages} pages.", "assistant_text": "Enjoy!"})
    for j, (day, b, pages, minutes, evening) in enumerate(SESSIONS):
        title, _, word, _, _ = BOOKS[b]
        when = "this evening" if evening else "this morning"
        text = [f"Read {pages} pages of {title} ({word}) {when}, about {minutes} minutes.",
                f"{title} on the {'e-reader' if word == 'ebook' else word}: {pages} pages in {minutes} minutes {when}."][j % 2]
        rounds.append({"round_id": f"r{j}", "session_id": f"s{day}", "timestamp": f"2025-03-{day:02d}T21:00:00",
                       "user_text": text, "assistant_text": "Nice."})
    return sorted(rounds, key=lambda r: (r["timestamp"], r["round_id"]))


@pytest.fixture
def ctx(db_url: str, tmp_path) -> Iterator[Context]:
    yield from ingested(history(), home=str(tmp_path), database_url=db_url, use_retrieval=False)


def test_started_books_and_sessions_each_get_their_table(ctx: Context) -> None:
    sql = backends(ctx).sql
    rows = {t.name: sql.select_rows("m", t.name) for t in sql.tables("m")}
    holding = {kind: [n for n, rs in rows.items() if any(r["source"].startswith(kind) for r in rs)] for kind in ("b", "r")}
    assert len(holding["b"]) == 1 and len(holding["r"]) == 1 and holding["b"] != holding["r"]
    started, sessions = rows[holding["b"][0]], rows[holding["r"][0]]
    assert len(started) == len(BOOKS) and len(sessions) == len(SESSIONS)
    # the started table carries each book's size; sessions their pages, part of the day and the
    # format word in parentheses, a field of the layout ("tag") found by recurrence, no list of formats
    assert sorted(r["size"] for r in started) == sorted(b[4] for b in BOOKS)
    assert sorted(r["pages"] for r in sessions) == sorted(s[2] for s in SESSIONS)
    assert {r["source"]: r["time_of_day"] for r in sessions} == {
        f"r{j}": "evening" if s[4] else "morning" for j, s in enumerate(SESSIONS)}
    tagged = {r["source"]: r["tag"] for r in sessions if r.get("tag")}
    written = {f"r{j}": BOOKS[s[1]][2] for j, s in enumerate(SESSIONS) if j % 2 == 0 or BOOKS[s[1]][2] != "ebook"}
    assert {k: v for k, v in tagged.items() if k in written} == {k: v for k, v in written.items() if k in tagged}
    assert len(tagged) >= len(SESSIONS) - 2


def test_a_categorical_field_alone_makes_no_table(ctx: Context) -> None:
    for t in backends(ctx).sql.tables("m"):
        assert any(c.type != "text" for c in t.columns), t.name


def test_categorical_fields_are_never_consolidated() -> None:
    known = [Known("genre", None, None, "text"), Known("time_of_day", None, None, "text"), Known("book", None, None, "text"),
             Known("pages", "pages", "count", "float")]
    sets = [(frozenset({"book", "genre", "pages"}), 5), (frozenset({"book", "time_of_day", "pages"}), 12)]
    assert consolidation(known, sets) == {}
