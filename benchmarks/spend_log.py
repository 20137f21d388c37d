"""Write spending logs with invented shops, categories and a payment app, for bench_analytic_dev.py.

    python benchmarks/spend_log.py OUT [--seed N]...
    python benchmarks/bench_analytic_dev.py --systems adamm --data OUT

Each scenario is a log of purchases - an amount in dollars, a shop, a category, how it was paid
- written the way people jot them down: prose ("$104.24 on sprockets at Tesk, paid by cash."), a
receipt's tiles ("Receipt photo: QUIBBLE HALL · TOTAL $14.78 · ZENO PAY"), an app's cells
("Expense: $87.42 | Vorlane Market | sprockets | cash"), shorthand ("Tesk 6.32 USD grubbage
cash"). Shops, categories and the app are invented words; "card" and "cash" are English. Seeds
alternate two families of layouts; the first names the category with a label now and then
("Category: tolls"), the second never does. Questions: a month's total, the average purchase,
totals and counts per category, counts per payment method, the average at a shop, the most
frequent shop. Scored by ``eval/invented/score.py``.
"""

from __future__ import annotations

import random
import sys
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from log_sets import Entry, dialog, history, most_often, number, seeds_main  # noqa: E402
SHOPS = ["Vorlane Market", "Tesk", "Quibble Hall", "Orrin's", "Baskwell"]
CATEGORIES = ["grubbage", "flinkery", "tolls", "sprockets"]
PAYMENTS = ["card", "cash", "Zeno Pay"]
LAYOUTS = [
    ["Paid ${amt} at {m} ({c}), {p}.", "{m} — ${amt} — {c} — {p}", "${amt} on {c} at {m}, paid by {p}.",
     "Receipt photo: {M} · TOTAL ${amt} · {P}", "Spent ${amt} at {m} yesterday. Category: {c}. Paid with {p}."],
    ["{c}: ${amt} ({m}, {p})", "Expense: ${amt} | {m} | {c} | {p}", "Just dropped ${amt} at {m} on {c} - {p}",
     "{m} {amt} USD {c} {p}", "Bought {c} at {m} for ${amt}, {p}."],
]
CHAT = ["Budget feels tight this month.", "Payday is Friday.", "Need to cancel a subscription."]


def scenario(seed: int) -> tuple[dict, list[dict]]:
    """(dialog, records) of one log."""
    layouts = LAYOUTS[seed % len(LAYOUTS)]

    def purchase(rng: random.Random, day: date) -> Entry:
        shop, category, payment = rng.choice(SHOPS), rng.choice(CATEGORIES), rng.choice(PAYMENTS)
        amount = round(rng.uniform(3, 120), 2)
        layout = rng.choice(layouts)
        text = layout.format(m=shop, M=shop.upper(), c=category, p=payment, P=payment.upper(), amt=f"{amount:.2f}")
        fields = {"merchant": shop, "amount_usd": amount, "payment": payment}
        fields.update({"category": category} if "{c}" in layout else {})
        return text, [(day - timedelta(days=1) if "yesterday" in layout else day, "purchase", fields)], "Logged."

    sessions, records = history(random.Random(seed), date(2025, 3, 1), date(2025, 5, 31), CHAT, 0.2, purchase)

    def dollars(rows: list[dict]) -> float:
        return round(sum(r["fields"]["amount_usd"] for r in rows), 2)

    qas = [number("SUM", "How much did I spend in April, in total?", dollars([r for r in records if r["observed"].startswith("2025-04")]), 0.05),
           number("AVG", "What was my average purchase amount?", round(dollars(records) / len(records), 2), 0.05)]
    for category in CATEGORIES[:2]:
        mine = [r for r in records if r["fields"].get("category") == category]
        qas.append(number("SUM", f"How much did I spend on {category} in total?", dollars(mine), 0.05))
        qas.append(number("CNT", f"How many {category} purchases did I log?", len(mine)))
    for payment in PAYMENTS:
        qas.append(number("CNT", f"How many purchases did I pay with {payment}?", sum(r["fields"]["payment"] == payment for r in records)))
    for shop in SHOPS[:2]:
        mine = [r for r in records if r["fields"]["merchant"] == shop]
        qas.append(number("AVG", f"What was my average spend at {shop}?", round(dollars(mine) / len(mine), 2), 0.05))
    qas.append(most_often("Which shop did I buy from most often?", "merchant", SHOPS, records))
    return dialog("spending", sessions, qas), records


def main(argv: list[str] | None = None) -> int:
    return seeds_main(argv, __doc__, "spend", scenario)


if __name__ == "__main__":
    sys.exit(main())
