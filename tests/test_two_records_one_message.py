"""One message that tells two kinds of record the text does not split - a day's readings and a
payment in one sentence - writes a row to each kind's table: the payment is not lost for riding
along with the readings, and the readings' table does not take the amount.

Invented words throughout (``vrell`` in qz, ``skarn`` in tib; payments at Tomlo or Brask), so
only the memory's own recurrence can tell the two record types apart. On SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.tests.memories import ingested

READINGS = [(d, 11 + d % 6, 28 + d % 9) for d in range(1, 16)]  # (day, vrell qz, skarn tib)
PAYMENTS = [(d, 7.5 + d, "Tomlo" if d % 2 else "Brask") for d in (1, 2, 4, 5, 7, 10, 13, 16)]  # (day, EUR, payee)
BOTH = {3, 6, 9, 12, 15}  # days whose readings message also tells a payment


def history() -> list[dict[str, Any]]:
    rounds = []
    for day, vrell, skarn in READINGS:
        text = f"Grenk check: vrell {vrell} qz, skarn {skarn} tib"
        if day in BOTH:
            text += f", and paid {day + 0.25:.2f} EUR at {'Tomlo' if day % 2 else 'Brask'} on the way back"
        rounds.append({"round_id": f"r{day}", "session_id": f"s{day}", "timestamp": f"2025-05-{day:02d}T20:00:00",
                       "user_text": text + ".", "assistant_text": "Noted."})
    for day, amount, payee in PAYMENTS:
        rounds.append({"round_id": f"p{day}", "session_id": f"s{day}", "timestamp": f"2025-05-{day:02d}T12:00:00",
                       "user_text": f"Paid {amount:.2f} EUR at {payee} today.", "assistant_text": "Logged."})
    return sorted(rounds, key=lambda r: r["timestamp"])


@pytest.fixture
def ctx(db_url: str, tmp_path) -> Iterator[Context]:
    yield from ingested(history(), home=str(tmp_path), database_url=db_url, use_retrieval=False)


def test_a_message_with_two_kinds_of_record_writes_a_row_to_each_table(ctx: Context) -> None:
    sql = backends(ctx).sql
    tables = {t.name: [c.name for c in t.columns] for t in sql.tables("m")}
    readings = next(n for n, cols in tables.items() if any("vrell" in c for c in cols))
    payments = next(n for n, cols in tables.items() if n != readings and any(c.startswith("amount") for c in cols))
    paid = {r["source"]: r for r in sql.select_rows("m", payments)}
    # every payment has its row, the five told beside the readings included, with their own amount
    assert set(paid) == {f"p{d}" for d, _, _ in PAYMENTS} | {f"r{d}" for d in BOTH}
    assert [round(paid[f"r{d}"][next(c for c in tables[payments] if c.startswith("amount"))], 2) for d in sorted(BOTH)] == \
        [d + 0.25 for d in sorted(BOTH)]
    read = {r["source"]: r for r in sql.select_rows("m", readings)}
    assert set(read) == {f"r{d}" for d, _, _ in READINGS}
    amount_cols = [c for c in tables[readings] if c.startswith("amount")]
    assert all(read[s].get(c) is None for s in read for c in amount_cols)  # the readings' rows hold no payment
