"""An expense log written four ways, end to end through the rules backend: a receipt photo, a
sentence ("Spent $62.42 at Target today (household), paid by debit card"), a terse note
("Shell: 24.61 USD, fuel, debit card") and a banking-app card ("Transaction card: Blue Bottle ·
-$54.54 · Category: Coffee · Method: Visa"). A store called Target is a name, not a goal; the
card's heading is no field. No list of categories or payment methods is built in: the card's
labels name the fields, and a value the card states under a label ("Category: Fuel") is that
field's wherever the memory writes it bare ("Shell: 24.61 USD, fuel, debit card").
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

import pytest

from adamm.graphs.ingest import graph as ingest
from adamm.graphs.query import graph as query
from adamm.nodes.backends import backends, reset_backends
from adamm.nodes.context import Context

# (day, merchant, category, amount, payment as written, payment as stored)
SPENDING = [
    (2, "Target", "household", 62.42, "debit card", "debit card"), (3, "Shell", "fuel", 24.61, "debit card", "debit card"),
    (4, "Blue Bottle", "coffee", 54.54, "Visa", "credit card"), (6, "Trader Joe's", None, 55.25, "cash", "cash"),
    (8, "Shell", "fuel", 66.03, "debit card", "debit card"), (9, "Trader Joe's", "groceries", 72.67, "cash", "cash"),
    (10, "Shell", "fuel", 79.51, "Visa", "credit card"), (12, "Safeway", None, 75.91, "debit card", "debit card"),
    (13, "Target", "household", 9.97, "Visa", "credit card"), (15, "Shell", "fuel", 73.16, "cash", "cash"),
    (16, "Blue Bottle", "coffee", 13.20, "cash", "cash"), (18, "Trader Joe's", None, 30.34, "Visa", "credit card"),
    (19, "Target", "household", 3.54, "cash", "cash"), (20, "Safeway", "groceries", 119.50, "Visa", "credit card"),
    (22, "Shell", "fuel", 31.83, "Visa", "credit card"), (23, "Trader Joe's", None, 39.89, "cash", "cash"),
]


def _round(i: int, day: int, merchant: str, category: str | None, amount: float, pay: str, _: str) -> dict[str, Any]:
    base = {"round_id": f"e{i}", "session_id": f"s{day}", "timestamp": f"2026-03-{day:02d}T17:00:00", "assistant_text": "Logged."}
    if category is None:
        return {**base, "user_text": "Receipt photo.", "images": [{"image_id": f"p{i}", "caption":
                f"Photo of a paper receipt from {merchant}. TOTAL ${amount:.2f}. Paid with {pay}."}]}
    if merchant == "Target":  # a store whose name is also a word for a goal
        return {**base, "user_text": f"Spent ${amount:.2f} at Target today ({category}), paid by {pay}."}
    if i % 2:
        return {**base, "user_text": f"{merchant}: {amount:.2f} USD, {category}, {pay}."}
    return {**base, "user_text": "Banking app screenshot.", "images": [{"image_id": f"p{i}", "caption":
            f"Transaction card: {merchant} · -${amount:.2f} · Category: {category.title()} · Method: {pay}"}]}


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Context]:
    reset_backends()
    context = Context(home=str(tmp_path_factory.mktemp("expense-home")))
    rounds = [_round(i, *r) for i, r in enumerate(SPENDING)]
    rounds.append({"round_id": "x1", "session_id": "s11", "timestamp": "2026-03-11T12:00:00",
                   "user_text": "My friend spent $300 on concert tickets, crazy.", "assistant_text": "Wow."})
    ingest.invoke({"memory_id": "x", "rounds": rounds}, context=context)
    yield context
    reset_backends()


def ask(ctx: Context, question: str) -> dict[str, Any]:
    return query.invoke({"memory_id": "x", "question": question, "now": "2026-04-01T09:00:00"}, context=ctx)


def number(text: str) -> float:
    return float(re.search(r"-?\d+(?:\.\d+)?", text.replace(",", "").replace("$", "")).group())


def test_every_layout_is_one_row_with_its_merchant_and_the_fields_the_memory_names(ctx: Context) -> None:
    sql = backends(ctx).sql
    (table,) = sql.tables("x")
    assert {"amount", "merchant", "category", "payment_method"} <= {c.name for c in table.columns}
    rows = {r["source"]: r for r in sql.select_rows("x", table.name)}
    assert set(rows) == {f"e{i}" for i in range(len(SPENDING))}  # the friend's tickets are no row
    for i, (_, merchant, category, amount, written, _) in enumerate(SPENDING):
        row = rows[f"e{i}"]
        assert (row["merchant"], row["amount"]) == (merchant, pytest.approx(amount))
        if category and (i % 2 == 0 or category == "fuel") and merchant != "Target":
            assert (row["category"] or "").lower() == category, i  # labelled on the card, or a value it labels
        if row["payment_method"] is not None:
            assert row["payment_method"] == written  # as written: "Visa" stays Visa


def test_which_category_cost_the_most(ctx: Context) -> None:
    totals: dict[str, float] = defaultdict(float)
    for _, _, category, amount, *_ in SPENDING:
        if category:
            totals[category] += amount
    top = max(totals, key=totals.get)
    out = ask(ctx, "Which category cost the most?")
    assert out["answer"].lower().startswith(top) and number(out["answer"].split("(")[1]) == pytest.approx(round(totals[top], 2))


def test_which_store_most_often(ctx: Context) -> None:
    counts = Counter(m for _, m, *_ in SPENDING)
    (top, n), (_, second) = counts.most_common(2)
    assert n > second
    out = ask(ctx, "Which store did I shop at most often?")
    assert out["answer"].startswith(top) and f"{n} records" in out["answer"]


def test_share_of_purchases_over_an_amount(ctx: Context) -> None:
    share = 100 * sum(1 for r in SPENDING if r[3] > 50) / len(SPENDING)
    out = ask(ctx, "What share of my purchases were over $50?")
    assert out["calls"][0]["args"]["operator"] == "share"
    assert number(out["answer"]) == pytest.approx(round(share, 1), abs=0.05)


def test_paid_with_a_method_as_the_memory_names_it(ctx: Context) -> None:
    out = ask(ctx, "How many times did I pay with Visa?")
    assert number(out["answer"]) == sum(1 for r in SPENDING if r[4] == "Visa")
