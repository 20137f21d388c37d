"""Score the analytic tables adamm built against a dev set's ground truth.

For every domain of the dev set, the table holding most of its records is its match; each
truth field is matched to the column whose values agree with it most often. Reported per
domain: the table, rows found / expected, rows from other domains, fields matched, cell
accuracy, date accuracy - and overall: tables per domain (1 is right), records lost, spurious
tables. ``python -m adamm.eval.devset.score --seed 0`` runs it end to end on a fresh memory; with
``--memory-id ID`` it scores a memory that already holds the dev set.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from adamm.eval.devset.history import generate
from adamm.eval.devset.model import DevSet
from adamm.memory import Memory
from adamm.nodes.context import Context
from adamm.stores.quantities import convert


@dataclass
class DomainScore:
    domain: str
    table: str | None
    expected_rows: int
    found_rows: int
    foreign_rows: int
    fields: dict[str, str | None] = field(default_factory=dict)  # truth field -> column
    cell_accuracy: float = 0.0
    date_accuracy: float = 0.0
    tables_holding_records: int = 0


@dataclass
class DevSetScore:
    domains: list[DomainScore]
    tables: int
    spurious_tables: list[str]

    @property
    def rows_lost(self) -> int:
        return sum(d.expected_rows - d.found_rows for d in self.domains)

    def to_dict(self) -> dict[str, Any]:
        return {"domains": [asdict(d) for d in self.domains], "tables": self.tables,
                "spurious_tables": self.spurious_tables, "rows_lost": self.rows_lost}


def _agree(truth: Any, cell: Any, unit: str | None, column_unit: str | None) -> bool:
    if cell is None:
        return False
    if isinstance(truth, str):
        return str(cell).strip().lower() == truth.strip().lower()
    if not isinstance(cell, (int, float)):
        return False
    value = float(cell)
    if unit and column_unit and unit != column_unit:
        try:
            value = convert(value, column_unit, unit)
        except ValueError:
            return False
    return math.isclose(value, float(truth), rel_tol=0.01, abs_tol=0.02)


def score(devset: DevSet, tables: list[dict[str, Any]]) -> DevSetScore:
    """``tables`` as ``adamm tables --json`` prints them."""
    by_source = {t["name"]: {r["source"]: r for r in t["rows"]} for t in tables}
    units = {t["name"]: {c["name"]: c.get("unit") for c in t["columns"]} for t in tables}
    owner: dict[str, str] = {}
    domains = []
    for dom in devset.domains:
        records = [t for t in devset.truth if t.domain == dom.name]
        ids = {t.round_id for t in records}
        holding = Counter({name: len(ids & set(rows)) for name, rows in by_source.items()})
        holding = +holding
        best = holding.most_common(1)[0][0] if holding else None
        ds = DomainScore(dom.name, best, len(records), holding.get(best, 0) if best else 0, 0,
                         tables_holding_records=len(holding))
        if best:
            owner[best] = dom.name
            rows = by_source[best]
            ds.foreign_rows = len(set(rows) - ids)
            cells = good = dated = 0
            for f in dom.fields:
                hits = Counter()
                for rec in records:
                    row = rows.get(rec.round_id)
                    if row is None or f.name not in rec.values:
                        continue
                    for col, unit in units[best].items():
                        if _agree(rec.values[f.name], row.get(col), f.unit, unit):
                            hits[col] += 1
                col = hits.most_common(1)[0][0] if hits else None
                ds.fields[f.name] = col
                for rec in records:
                    if f.name in rec.values:
                        cells += 1
                        row = rows.get(rec.round_id)
                        good += bool(row and col and _agree(rec.values[f.name], row.get(col), f.unit, units[best][col]))
            for rec in records:
                row = rows.get(rec.round_id)
                day = row and (row.get("observed_at") or row.get("time"))
                dated += bool(day and datetime.fromisoformat(day).date() == rec.day)
            ds.cell_accuracy = good / cells if cells else 0.0
            ds.date_accuracy = dated / len(records) if records else 0.0
        domains.append(ds)
    spurious = [t["name"] for t in tables if t["name"] not in owner]
    return DevSetScore(domains, len(tables), spurious)


def run(seed: int = 0, days: int = 60, **generate_kwargs: Any) -> tuple[DevSet, DevSetScore]:
    """Generate a dev set, ingest it into a fresh memory, score the tables."""
    os.environ.setdefault("ADAMM_HOME", tempfile.mkdtemp(prefix="adamm-devset-"))
    devset = generate(seed=seed, days=days, **generate_kwargs)
    memory = Memory(f"devset-{seed}-{days}", context=Context())
    memory.ingest(devset.rounds, progress="devset")
    return devset, score(devset, memory.table_documents())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m adamm.eval.devset.score", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--memory-id", help="score the tables of this memory, which holds the dev set of --seed and --days "
                                            "(`adamm ingest dev.jsonl --memory-id dev`), instead of ingesting a fresh one")
    args = parser.parse_args(argv)
    if args.memory_id:
        devset = generate(seed=args.seed, days=args.days)
        memory = Memory(args.memory_id, context=Context())
        held = memory.stats().get("rounds", 0)
        if held < len(devset.rounds):
            sys.stderr.write(f"error: memory {args.memory_id!r} holds {held} rounds, the dev set of --seed {args.seed} "
                             f"--days {args.days} has {len(devset.rounds)}: ingest it first, or leave out --memory-id\n")
            return 2
        result = score(devset, memory.table_documents())
    else:
        _, result = run(args.seed, args.days)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    print(f"tables {result.tables}  spurious {result.spurious_tables}  rows lost {result.rows_lost}")
    for d in result.domains:
        print(f"{d.domain:9} -> {d.table}: rows {d.found_rows}/{d.expected_rows} (+{d.foreign_rows} foreign, "
              f"in {d.tables_holding_records} tables) cells {d.cell_accuracy:.0%} dates {d.date_accuracy:.0%} fields {d.fields}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
