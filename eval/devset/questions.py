"""Analytic questions with exact answers for the development history, and their scorer.

:func:`generate_questions` turns a :class:`~adamm.eval.devset.model.DevSet` into questions a
real user would type about their own logs, each with a typed gold answer computed from the
ground truth (``TruthRecord.values``, dated by the record's *observed* day), so a query planner
is measured against arithmetic, not against another model's opinion. :func:`is_correct` scores one
prediction; it reads answers the way the design asks them to be written: leading with the
value.

Categories: ``average``, ``sum``, ``count``, ``extreme`` (a value, or the day it happened),
``latest``, ``date_filter`` (the days matching a condition), ``comparison`` (which of two
periods / groups is larger), ``trend`` (up or down), ``retrieval`` (what the assistant said in
ordinary conversation, plus unanswerable questions whose gold is "Not mentioned").

Time phrases, resolved against the question's ``now`` (always given with the question)
-------------------------------------------------------------------------------------
* no phrase / "overall" / "so far": the whole history; ``now`` is one minute after the last
  round.
* "in March" (or "in March 2025"): the calendar month. "between March 3 and March 9", "from
  Mar 3 to Mar 9", "from March 3 through March 9": both ends included.
* "the first week of March": March 1-7; the second week 8-14, the third 15-21, the fourth 22-28.
* "yesterday": the day before ``now``'s date. "last week": the calendar week (Monday-Sunday)
  before the one holding ``now``; "this week": Monday of ``now``'s week through ``now``'s date.
  "in the last N days" / "over the past N days": the N days ending with ``now``'s date,
  inclusive. "this month": the 1st of ``now``'s month through ``now``'s date; "last month": the
  previous calendar month.
* A relative question is only asked at a ``now`` by which every record of its period has been
  shared, so its gold does not depend on whether rounds after ``now`` are consulted.

Golds that need a rule
----------------------
* Every record counts once on its observed day (a run logged late counts on the day it was run).
* ``latest`` is by observed day; it is only asked where the latest-dated record was also the
  last one shared, so "most recent" has one meaning.
* ``extreme`` questions that ask for the day have a unique extreme; ``date_filter`` golds hold
  1-6 days, and no value sits exactly on the threshold.
* ``comparison``: the larger period's average (or total) wins; only asked when the two differ by
  at least 3 % (and 5 USD for money), so rounding in an answer cannot flip it.
* ``trend``: ``up``/``down`` is the sign of the least-squares slope of the value over the
  observed day; only asked when the mean of the period's first seven days and that of its last
  seven days differ in the same direction by at least 2 % of the period mean, so "compare the
  first and last week" gives the same answer.

Scoring (:func:`is_correct`)
----------------------------
* ``number``: the first quantity of the prediction, after dates ("March 4", "2025-03-04") are
  set aside, converted to the question's unit ("6 h 36 min", "6:36", "396 minutes" -> 6.6 h;
  "$1,250.00", "USD 1,250" -> 1250; for unit-less counts "three" -> 3, "no" / "none" -> 0), within
  ``max(tolerance, rel_tolerance * |gold|)``.
* ``days``: written dates ("2025-03-04", "March 4", "Mar 4, 2025", "4 March", "3/4/2025", and
  lists such as "March 4, 9 and 12"); a year left out is the most recent such date not after
  ``now``. One gold day: the first date in the prediction must be it; several: the set of dates
  must equal the gold set.
* ``text`` with ``choices`` (comparison, trend, results, opponents): the choice whose alias
  appears first in the prediction must be the gold - an answer naming both periods is judged by
  the one it leads with. ``text`` without choices: SQuAD-style normalization (lower case, no
  punctuation, accents or articles), then the gold contained in the prediction, or token F1
  >= 0.8.
* ``refusal``: the prediction says the thing was not mentioned / is not known.

Layout: this module assembles the set and writes it; the shared machinery (the question record,
time scopes, measures) is :mod:`~adamm.eval.devset.question_base`, the families are
``question_totals`` (average, sum, count), ``question_records`` (extreme, latest, date_filter),
``question_periods`` (comparison, trend) and ``question_recall`` (retrieval), and the scorer is
:mod:`~adamm.eval.devset.grading`.

CLI: ``python -m adamm.eval.devset.questions --seed 0 --days 60 --out questions.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from typing import Any, Callable, Iterable

from adamm.eval.devset.grading import is_correct, parse_days, parse_quantity
from adamm.eval.devset.history import generate
from adamm.eval.devset.model import DevSet
from adamm.eval.devset.question_base import NOT_MENTIONED, DevQuestion, QuestionGen
from adamm.eval.devset.question_periods import comparison_question, trend_question
from adamm.eval.devset.question_recall import retrieval_questions
from adamm.eval.devset.question_records import date_filter_question, extreme_question, latest_question
from adamm.eval.devset.question_totals import average_question, count_question, sum_question

__all__ = [
    "AGGREGATE_CATEGORIES",
    "CATEGORIES",
    "DevQuestion",
    "NOT_MENTIONED",
    "generate_questions",
    "is_correct",
    "main",
    "parse_days",
    "parse_quantity",
]

CATEGORIES: tuple[str, ...] = (
    "average", "sum", "count", "extreme", "latest", "date_filter", "comparison", "trend", "retrieval",
)
#: The categories only analytic memory can answer exactly.
AGGREGATE_CATEGORIES: tuple[str, ...] = CATEGORIES[:-1]
KINDS = ("number", "text", "days", "refusal")


# -- assembly -----------------------------------------------------------------------------------

_BUILDERS: dict[str, Callable[[QuestionGen], DevQuestion | None]] = {
    "average": average_question, "sum": sum_question, "count": count_question, "extreme": extreme_question,
    "latest": latest_question, "date_filter": date_filter_question, "comparison": comparison_question,
    "trend": trend_question,
}


def generate_questions(devset: DevSet, per_category: int = 12, seed: int = 0) -> list[DevQuestion]:
    """Up to ``per_category`` questions per aggregate category, ``per_category`` recall
    questions plus ``ceil(per_category / 4)`` unanswerable ones, all fully determined by the
    dev set and ``seed``.

    A short history may yield fewer (a category is never padded with duplicates or with
    questions whose gold would be ambiguous).
    """
    if per_category < 1:
        raise ValueError("per_category must be at least 1")
    rng = random.Random(f"adamm-devset-questions:{devset.seed}:{devset.days}:{seed}")
    g = QuestionGen(devset, rng)
    g.per_category = per_category
    out: list[DevQuestion] = []
    for category, build in _BUILDERS.items():
        got: list[DevQuestion] = []
        seen: set[Any] = set()
        for _ in range(60 * per_category):
            if len(got) >= per_category:
                break
            q = build(g)
            if q is None:
                continue
            # a reworded question with the same answer from the same records measures nothing new
            keys = {(q.question, q.now), (q.scope, str(q.gold_value), tuple(q.evidence_round_ids))}
            if keys & seen:
                continue
            seen |= keys
            got.append(q)
        out.extend(got)
    out.extend(retrieval_questions(g, per_category, math.ceil(per_category / 4)))
    for i, q in enumerate(out):
        q.question_id = f"seed{devset.seed}#{i}"
    return out


# -- files and CLI ------------------------------------------------------------------------------


def write_jsonl(questions: Iterable[DevQuestion], path: str) -> int:
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(q.to_dict(), ensure_ascii=False) + "\n")
            n += 1
    return n


def load_jsonl(path: str) -> list[DevQuestion]:
    with open(path, encoding="utf-8") as fh:
        return [DevQuestion.from_dict(json.loads(line)) for line in fh if line.strip()]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m adamm.eval.devset.questions", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=0, help="dev-set seed (the question draw uses it too)")
    p.add_argument("--days", type=int, default=60)
    p.add_argument("--per-category", type=int, default=12)
    p.add_argument("--question-seed", type=int, default=0)
    p.add_argument("--out", required=True, help="questions JSONL file to write")
    args = p.parse_args(argv)
    ds = generate(args.seed, args.days)
    qs = generate_questions(ds, per_category=args.per_category, seed=args.question_seed)
    n = write_jsonl(qs, args.out)
    counts = Counter(q.category for q in qs)
    print(f"{n} questions ({', '.join(f'{c} {counts[c]}' for c in CATEGORIES)}) -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
