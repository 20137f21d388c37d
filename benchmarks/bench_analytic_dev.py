"""Analytic dev set: question accuracy (adamm vs flat top-10) and the quality of adamm's tables.

    python benchmarks/bench_analytic_dev.py [--data DIR] [--scenarios a,b] [--systems adamm,rag-dense]
                                            [--out DIR] [--no-tables] [--no-questions] [--threads N]

Runs the eval harness (as ``adamm eval --dataset mem-gallery``, default context) on DIR/dialog,
scores each system's answers with the data set's own DIR/score.py (aggregate = every question
type but RET), then holds the tables of each scenario's memory against DIR/records/*.jsonl:
cell recall, row recall, tables per record type, table columns per field, observing-round
coverage; plus ingestion rounds/s (the harness's full ingestion, and the analytic path alone,
re-ingested and timed).
Prints a table; writes OUT/summary.json. OUT is a new temporary directory unless --out; a run
into an existing OUT resumes, reusing its answers and ingested memories even if the code has
changed since, so use a fresh OUT to measure new code. DIR defaults to ../shared/data/analytic_dev
beside the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "analytic_dev"
DEFAULT_SYSTEMS = ("adamm", "rag-dense")
NON_AGGREGATE = ("RET",)  #: question types left out of "aggregate" accuracy
REL_TOL, ABS_TOL = 0.01, 0.011  #: numeric cell match: within 1 % relative or 0.011 absolute

# -- units ------------------------------------------------------------------------------------

#: unit spelling (lower case) -> (dimension, factor to the dimension's base unit)
UNITS: dict[str, tuple[str, float]] = {
    **dict.fromkeys(("m", "metre", "metres", "meter", "meters"), ("length", 1.0)),
    **dict.fromkeys(("km", "kilometre", "kilometres", "kilometer", "kilometers"), ("length", 1000.0)),
    **dict.fromkeys(("mi", "mile", "miles"), ("length", 1609.344)),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), ("time", 1.0)),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), ("time", 60.0)),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), ("time", 3600.0)),
    **dict.fromkeys(("km/h", "kmh", "kph"), ("speed", 1.0)),
    "mph": ("speed", 1.609344),
    "m/s": ("speed", 3.6),
    **dict.fromkeys(("eur", "€", "euro", "euros"), ("money", 1.0)),
    **dict.fromkeys(("l", "litre", "litres", "liter", "liters"), ("volume", 1.0)),
    **dict.fromkeys(("kg", "kgs", "kilogram", "kilograms"), ("mass", 1.0)),
    **dict.fromkeys(("lb", "lbs", "pound", "pounds"), ("mass", 0.45359237)),
    **dict.fromkeys(("g", "gram", "grams"), ("mass", 0.001)),
    # a pace, in seconds per kilometre
    **dict.fromkeys(("sec_per_km", "s_per_km", "s/km", "sec/km"), ("pace", 1.0)),
    **dict.fromkeys(("min/km", "min_per_km"), ("pace", 60.0)),
    **dict.fromkeys(("min/mi", "min_per_mi", "min_per_mile"), ("pace", 60.0 / 1.609344)),
}
#: name endings that are one unit written over several ``_`` parts (``pace_sec_per_km``)
_UNIT_TAILS = ("sec_per_km", "s_per_km", "min_per_km", "min_per_mi", "min_per_mile")
#: a truth field's unit from its name: the whole name, else its last ``_`` part
FIELD_UNIT_NAMES = {"minutes": "min", "litres": "l", "kmh": "km/h"}


def field_unit(name: str) -> tuple[str, float] | None:
    """(dimension, factor) of a truth field from its name (``distance_km``, ``moving_time_s``,
    ``minutes``, ``total_eur``); None when the name carries no convertible unit."""
    low = name.lower()
    whole = FIELD_UNIT_NAMES.get(low, low)
    if whole in UNITS:
        return UNITS[whole]
    for tail in _UNIT_TAILS:
        if low.endswith("_" + tail):
            return UNITS[tail]
    if "_" in low:
        last = low.rsplit("_", 1)[-1]
        return UNITS.get(FIELD_UNIT_NAMES.get(last, last))
    return None


def column_unit(unit: str | None, name: str = "") -> tuple[str, float] | None:
    """(dimension, factor) of a table column: its declared unit, else a unit its name ends in
    (``moving_time_min``, ``duration_h``)."""
    if unit and unit.strip().lower() in UNITS:
        return UNITS[unit.strip().lower()]
    if not unit and "_" in name:
        return UNITS.get(name.lower().rsplit("_", 1)[-1])
    return None


# -- cell matching ----------------------------------------------------------------------------

_NUM_TEXT = re.compile(r"\s*([-+]?\d+(?:[.,]\d+)?)\s*([^\d\s][^\d]*)?\s*")
_BOOL_TEXT = {True: ("yes", "true"), False: ("no", "false")}


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    return None


def _text_number(text: str) -> tuple[float, str | None] | None:
    """``"61,40 €"`` -> (61.4, "€"); None unless the text is one number with an optional unit."""
    m = _NUM_TEXT.fullmatch(text)
    if not m:
        return None
    return float(m.group(1).replace(",", ".")), (m.group(2) or "").strip() or None


def close(got: float, want: float) -> bool:
    return abs(got - want) <= max(REL_TOL * abs(want), ABS_TOL)


def _norm(text: str) -> str:
    return " ".join(str(text).lower().split())


def _contains_words(outer: str, inner: str) -> bool:
    return bool(inner) and re.search(r"(?<!\w)" + re.escape(inner) + r"(?!\w)", outer) is not None


def text_matches(want: str, got: str) -> bool:
    """Case-insensitive equality, or either contains the other as whole words."""
    a, b = _norm(want), _norm(got)
    if not a or not b:
        return False
    return a == b or _contains_words(a, b) or _contains_words(b, a)


def cell_matches(field: str, want: Any, cell: Any, unit: str | None = None, column: str = "") -> bool:
    """Whether one table cell holds a truth field's value (see the module docstring's rules:
    numbers within 1 % / 0.011, also after converting the column's unit to the field's; text
    equal or contained as whole words; booleans against yes/no)."""
    if cell is None or want is None:
        return False
    if isinstance(cell, bool):
        return isinstance(want, str) and _norm(want) in _BOOL_TEXT[cell]
    want_num = _number(want)
    if want_num is None and isinstance(want, str) and isinstance(_number(cell), float):
        parsed = _text_number(want)  # a text field that is a number ("98") against a number cell
        return parsed is not None and parsed[1] is None and close(float(cell), parsed[0])
    if want_num is None:
        return text_matches(str(want), str(cell))
    got = _number(cell)
    cell_unit = column_unit(unit, column)
    if got is None:  # a text cell: one number with an optional unit of its own
        parsed = _text_number(str(cell))
        if parsed is None:
            return False
        got = parsed[0]
        if parsed[1] and parsed[1].lower() in UNITS:
            cell_unit = UNITS[parsed[1].lower()]
    if close(got, want_num):
        return True
    target = field_unit(field)
    if target and cell_unit and target[0] == cell_unit[0] and target[1] != cell_unit[1]:
        return close(got * cell_unit[1] / target[1], want_num)
    return False


def row_day(row: Mapping[str, Any]) -> str | None:
    """A table row's observed day (``observed_at``, else ``time``), ISO ``YYYY-MM-DD``."""
    value = row.get("observed_at") or row.get("time")
    if not value:
        return None
    return (value.isoformat() if hasattr(value, "isoformat") else str(value))[:10]


def fields_matched(record: Mapping[str, Any], row: Mapping[str, Any], columns: Sequence[Mapping[str, Any]]) -> list[str]:
    """The record's fields that some declared column of the row holds."""
    return list(field_columns(record, row, columns))


def field_columns(record: Mapping[str, Any], row: Mapping[str, Any], columns: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """The record's fields that some declared column of the row holds -> that column's name."""
    out = {}
    for name, want in (record.get("fields") or {}).items():
        if want is None:
            continue
        hit = next((c["name"] for c in columns if cell_matches(name, want, row.get(c["name"]), c.get("unit"), c["name"])), None)
        if hit is not None:
            out[name] = hit
    return out


def _exact(record: Mapping[str, Any], row: Mapping[str, Any], columns: Sequence[Mapping[str, Any]]) -> int:
    """Text fields some cell equals outright: breaks ties that whole-word containment makes (the
    genre "history" is also inside the book title "A Brief History of Bells")."""
    cells = {_norm(row.get(c["name"])) for c in columns if isinstance(row.get(c["name"]), str)}
    return sum(1 for v in (record.get("fields") or {}).values() if isinstance(v, str) and _norm(v) in cells)


def match_round(records: Sequence[Mapping[str, Any]], rows: Sequence[tuple[str, Mapping[str, Any], Sequence[Mapping[str, Any]]]]
                ) -> dict[int, tuple[int, list[str]]]:
    """Greedy one-to-one match of one round's truth records to its rows.

    ``rows``: (table name, row, the table's columns). Only rows of the record's observed day
    qualify; the pair sharing the most fields goes first (ties: record order, then row order).
    Returns {record index: (row index, matched fields)}.
    """
    pairs = []
    for i, rec in enumerate(records):
        for j, (_, row, columns) in enumerate(rows):
            if row_day(row) == rec.get("observed"):
                matched = fields_matched(rec, row, columns)
                pairs.append((-len(matched), -_exact(rec, row, columns), i, j, matched))
    pairs.sort(key=lambda p: (p[0], p[1], p[2], p[3]))
    out: dict[int, tuple[int, list[str]]] = {}
    used: set[int] = set()
    for _, _, i, j, matched in pairs:
        if i in out or j in used:
            continue
        out[i] = (j, matched)
        used.add(j)
    return out


def table_quality(records: Sequence[Mapping[str, Any]], tables: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Tables of one memory (``table_documents`` shape) against one scenario's truth records.

    Returns counts and shares: cell recall (record fields held by the record's matched row),
    row recall (records that got a row of their round and day), the distinct tables holding
    each record type's matched rows, and coverage (truth rounds with any row at all).
    """
    by_round: dict[str, list[tuple[str, Mapping[str, Any], Sequence[Mapping[str, Any]]]]] = defaultdict(list)
    for t in tables:
        for row in t.get("rows") or []:
            by_round[str(row.get("source"))].append((t["name"], row, t.get("columns") or []))
    truth_by_round: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for rec in records:
        truth_by_round[rec["round"]].append(rec)

    cells = cells_hit = rows_hit = 0
    per_field: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # "type.field" -> [hit, n]
    per_type: dict[str, dict[str, Any]] = {}
    homes: dict[str, set[str]] = defaultdict(set)  # "type.field" -> the table columns holding its values
    misses: Counter = Counter()  # why a record's fields were not found: no row, a row of another day, a row of other values
    for rnd, recs in truth_by_round.items():
        matches = match_round(recs, by_round.get(rnd, []))
        for i, rec in enumerate(recs):
            rtype = rec.get("record_type", "?")
            stats = per_type.setdefault(rtype, {"records": 0, "rows": 0, "cells": 0, "cells_hit": 0, "tables": set()})
            stats["records"] += 1
            fields = [f for f, v in (rec.get("fields") or {}).items() if v is not None]
            matched = set()
            if i in matches:
                j, found = matches[i]
                matched = set(found)
                table, row, columns = by_round[rnd][j]
                for f, col in field_columns(rec, row, columns).items():
                    homes[f"{rtype}.{f}"].add(f"{table}.{col}")
                rows_hit += 1
                stats["rows"] += 1
                stats["tables"].add(by_round[rnd][j][0])
            for f in fields:
                per_field[f"{rtype}.{f}"][1] += 1
                per_field[f"{rtype}.{f}"][0] += f in matched
            if i not in matches:
                other_day = any(fields_matched(rec, row, columns) for _, row, columns in by_round.get(rnd, []))
                misses["other_day" if other_day else "no_row"] += 1
            elif not matched:
                misses["row_without_its_values"] += 1
            cells += len(fields)
            cells_hit += len(matched)
            stats["cells"] += len(fields)
            stats["cells_hit"] += len(matched)
    covered = sum(1 for rnd in truth_by_round if by_round.get(rnd))
    truth_rounds = set(truth_by_round)
    all_rows = sum(len(v) for v in by_round.values())
    return {
        "records": len(records),
        "cells": cells,
        "cells_hit": cells_hit,
        "cell_recall": _share(cells_hit, cells),
        "rows_hit": rows_hit,
        "row_recall": _share(rows_hit, len(records)),
        "tables_per_type": {t: len(s["tables"]) for t, s in per_type.items()},
        "tables_of_type": {t: sorted(s["tables"]) for t, s in per_type.items()},
        "by_type": {t: {"records": s["records"], "row_recall": _share(s["rows"], s["records"]),
                        "cell_recall": _share(s["cells_hit"], s["cells"])} for t, s in per_type.items()},
        "by_field": {f: _share(h, n) for f, (h, n) in per_field.items()},
        # one field, one column: a field whose values sit in several columns (a label read two
        # ways, a record type over two tables) is aggregated from one part only
        "columns_per_field": {f: len(homes[f]) for f in per_field},
        "names_per_field": {f: len({h.split(".", 1)[1] for h in homes[f]}) for f in per_field},
        "misses": dict(misses),
        "truth_rounds": len(truth_rounds),
        "covered_rounds": covered,
        "coverage": _share(covered, len(truth_rounds)),
        "tables": len(tables),
        "table_rows": all_rows,
        "rows_outside_truth_rounds": sum(len(v) for r, v in by_round.items() if r not in truth_rounds),
    }


def pool_quality(per_scenario: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Table figures over several scenarios: shares pooled over records / cells / rounds."""
    tot = defaultdict(int)
    for q in per_scenario.values():
        for k in ("records", "cells", "cells_hit", "rows_hit", "truth_rounds", "covered_rounds", "tables",
                  "table_rows", "rows_outside_truth_rounds"):
            tot[k] += q[k]
    types = [n for q in per_scenario.values() for n in q["tables_per_type"].values()]
    return {
        **tot,
        "cell_recall": _share(tot["cells_hit"], tot["cells"]),
        "row_recall": _share(tot["rows_hit"], tot["records"]),
        "coverage": _share(tot["covered_rounds"], tot["truth_rounds"]),
        "record_types": len(types),
        "record_types_in_one_table": sum(1 for n in types if n == 1),
        "fields": sum(len(q.get("columns_per_field") or {}) for q in per_scenario.values()),
        "fields_in_one_column": sum(1 for q in per_scenario.values() for n in (q.get("columns_per_field") or {}).values() if n == 1),
    }


def _share(hit: int, n: int) -> float | None:
    return round(hit / n, 4) if n else None


# -- questions --------------------------------------------------------------------------------


def to_predictions(records: Iterable[Mapping[str, Any]], system: str,
                   scenarios: Iterable[str] | None = None) -> list[dict[str, str]]:
    """One system's harness records as score.py predictions, the newest record per question
    (a resumed run appends); a failed answer stays as an empty prediction (scored wrong)."""
    keep = set(scenarios) if scenarios is not None else None
    latest: dict[tuple[str, str], dict[str, str]] = {}
    for rec in records:
        if rec.get("system") != system or (keep is not None and rec.get("scenario") not in keep):
            continue
        key = (str(rec["scenario"]), str(rec["question"]))
        latest[key] = {"scenario": key[0], "question": key[1], "prediction": str(rec.get("prediction") or "")}
    return list(latest.values())


def accuracy(report: Mapping[str, Any], scenario: str | None = None,
             exclude: Sequence[str] = ()) -> dict[str, Any]:
    """Accuracy from a score.py report, overall or for one scenario, leaving out ``exclude``
    question types (aggregate accuracy: ``exclude=("RET",)``)."""
    if scenario is None:
        cells = {t: v for t, v in (report.get("by_type") or {}).items()}
    else:
        prefix = f"{scenario}/"
        cells = {k[len(prefix):]: v for k, v in (report.get("by_scenario_type") or {}).items() if k.startswith(prefix)}
    correct = sum(v["correct"] for t, v in cells.items() if t not in exclude)
    n = sum(v["n"] for t, v in cells.items() if t not in exclude)
    return {"correct": correct, "n": n, "accuracy": _share(correct, n)}


def question_summary(reports: Mapping[str, Mapping[str, Any]], scenarios: Sequence[str]) -> dict[str, Any]:
    """Per scope (each scenario, then "overall") and system: overall and aggregate accuracy."""
    out: dict[str, Any] = {}
    for scope in [*scenarios, "overall"]:
        sc = None if scope == "overall" else scope
        out[scope] = {name: {"overall": accuracy(rep, sc), "aggregate": accuracy(rep, sc, NON_AGGREGATE)}
                      for name, rep in reports.items()}
    return out


def run_scorer(score_py: Path, dialog_dir: Path, predictions: Sequence[Mapping[str, Any]], path: Path) -> dict[str, Any]:
    """Write predictions to ``path`` and return score.py's JSON report (details next to it)."""
    path.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in predictions), encoding="utf-8")
    details = path.with_name(path.stem + ".details.jsonl")
    proc = subprocess.run([sys.executable, str(score_py), str(dialog_dir), str(path), "--details", str(details)],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{score_py} failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
    return json.loads(proc.stdout)


# -- printing ---------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def format_table(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    lines = [" | ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
             for r in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def summary_rows(summary: Mapping[str, Any], scenarios: Sequence[str], systems: Sequence[str]) -> list[list[str]]:
    main, flat = (systems[0], systems[1]) if len(systems) > 1 else (systems[0] if systems else "adamm", None)
    head = ["scenario", f"{main} agg", f"{flat or 'flat'} agg", "diff", f"{main} overall", "cell rec",
            "row rec", "tables per record type", "coverage", "ingest r/s", "analytic r/s"]
    rows = [head]
    qs, tq, tp = summary.get("questions") or {}, summary.get("tables") or {}, summary.get("throughput") or {}
    for scope in [*scenarios, "overall"]:
        q = qs.get(scope) or {}
        a = (q.get(main) or {}).get("aggregate", {}).get("accuracy")
        f = (q.get(flat) or {}).get("aggregate", {}).get("accuracy") if flat else None
        diff = "-" if a is None or f is None else f"{100 * (a - f):+.1f}"
        t = tq.get(scope) or {}
        if scope == "overall" and t:
            per_type = (f"{t['record_types_in_one_table']}/{t['record_types']} types in 1, "
                        f"{t.get('fields_in_one_column', 0)}/{t.get('fields', 0)} fields in 1 column")
        else:
            per_type = " ".join(f"{k}:{v}" for k, v in (t.get("tables_per_type") or {}).items()) or "-"
        th = tp.get(scope) or {}
        rows.append([scope, _pct(a), _pct(f), diff, _pct((q.get(main) or {}).get("overall", {}).get("accuracy")),
                     _pct(t.get("cell_recall")), _pct(t.get("row_recall")), per_type, _pct(t.get("coverage")),
                     _rate(th.get("harness_rounds_per_s")), _rate(th.get("analytic_rounds_per_s"))])
    return rows


def _rate(x: float | None) -> str:
    return "-" if x is None else f"{x:.0f}"


# -- the run ----------------------------------------------------------------------------------


def _fail(message: str) -> int:
    sys.stderr.write(f"bench_analytic_dev: error: {message}\n")
    return 2


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _dialog_dir(data: Path, names: Sequence[str], out: Path, all_names: Sequence[str]) -> Path:
    """The dialogue directory to evaluate: the data set's own, or one holding only ``names``
    (symlinks), so neither the harness nor the scorer sees other scenarios."""
    if list(names) == list(all_names):
        return data / "dialog"
    subset = out / "dialog"
    if subset.exists():
        shutil.rmtree(subset)
    subset.mkdir(parents=True)
    for n in names:
        (subset / f"{n}.json").symlink_to((data / "dialog" / f"{n}.json").resolve())
    return subset


def analytic_throughput(base_ctx: Any, rounds: Sequence[Any], home: Path, batch: int = 32) -> dict[str, Any]:
    """Re-ingest one scenario's rounds with the retrieval path off, timed: rounds/s of the
    analytic path (store + extraction + table induction), per-node ms/round."""
    from adamm.graphs.ingest import graph  # noqa: PLC0415 - builds the graphs (seconds): only where they run
    from adamm.nodes.cost import summarize  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

    from adamm.nodes.backends import backends  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

    ctx = base_ctx.replace(home=str(home), database_url=None, chroma_url=None, use_analytic=True, use_retrieval=False)
    backends(ctx).text_encoder.encode(["warm up"])  # opening stores and loading the encoder is not ingestion
    payload = [r.model_dump(mode="json") if hasattr(r, "model_dump") else r for r in rounds]
    cost: list[Any] = []
    start = time.perf_counter()
    for i in range(0, len(payload), batch):
        cost += graph.invoke({"memory_id": "throughput", "rounds": payload[i:i + batch]}, context=ctx)["cost"]
    wall = time.perf_counter() - start
    nodes = summarize(cost)["by_node"]
    return {"rounds": len(payload), "seconds": round(wall, 3), "rounds_per_s": round(len(payload) / wall, 1) if wall else None,
            "ms_per_round": {n: round(1000 * v["seconds"] / max(1, len(payload)), 2) for n, v in nodes.items()}}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default=str(DEFAULT_DATA), help=f"data set directory (default {DEFAULT_DATA})")
    p.add_argument("--scenarios", help="comma-separated scenario names (default: every dialog/*.json)")
    p.add_argument("--systems", default=",".join(DEFAULT_SYSTEMS),
                   help="harness systems; the first is the one compared, the second the flat baseline")
    p.add_argument("--out", help="run directory (default: a new temporary directory); reused runs resume")
    p.add_argument("--no-tables", action="store_true", help="skip table quality and throughput")
    p.add_argument("--no-questions", action="store_true", help="skip question answering (ingest only)")
    p.add_argument("--threads", type=int, default=0, help="encoder threads (default 0: the usable cores, as adamm eval)")
    args = p.parse_args(argv)

    data = Path(args.data).expanduser().resolve()
    if not (data / "dialog").is_dir():
        return _fail(f"data set not found: {data} has no dialog/ directory (give --data DIR)")
    score_py = data / "score.py"
    all_names = sorted(f.stem for f in (data / "dialog").glob("*.json"))
    names = all_names if not args.scenarios else list(dict.fromkeys(s.strip() for s in args.scenarios.split(",") if s.strip()))
    unknown = [n for n in names if n not in all_names]
    if unknown or not names:
        return _fail(f"--scenarios: unknown {', '.join(unknown) or '(none)'}; {data / 'dialog'} holds {', '.join(all_names)}")
    if not args.no_questions and not score_py.exists():
        return _fail(f"{score_py} not found")
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    if args.no_questions and args.no_tables:
        return _fail("--no-questions and --no-tables together leave nothing to do")

    out = Path(args.out).expanduser().resolve() if args.out else Path(tempfile.mkdtemp(prefix="adamm-bench-analytic-dev-"))
    out.mkdir(parents=True, exist_ok=True)
    os.environ["ADAMM_HOME"] = str(out / "home")  # nothing touches the user's ~/.adamm

    from adamm.memory import Memory  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.eval.datasets import EvalError, load_dataset  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.eval.run import _ensure_ingested, eval_context, read_records, run_eval  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.eval.systems import ingest_key, parse_systems  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.nodes.context import Context  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

    try:
        systems = parse_systems(",".join(systems))
    except ValueError as exc:
        return _fail(str(exc))
    if args.threads:
        from adamm.stores.encoders import set_encoder_threads  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

        set_encoder_threads(args.threads)

    dialog = _dialog_dir(data, names, out, all_names)
    base = Context()
    ingest_ctx = base.replace(use_analytic=True, use_retrieval=True)  # what the harness ingests with
    key = ingest_key(ingest_ctx)
    summary: dict[str, Any] = {"data": str(data), "out": str(out), "scenarios": names, "systems": systems,
                               "ingest_key": key, "command": " ".join([Path(sys.argv[0]).name, *(argv or sys.argv[1:])])}
    start = time.perf_counter()
    try:
        ds = load_dataset("mem-gallery", str(dialog))
        if args.no_questions:  # ingest exactly as the harness would, into its cache layout
            ictx = eval_context(ingest_ctx, out, key)
            for s in ds.scenarios:
                _ensure_ingested(ictx, out / "cache" / key, s)
        else:
            result = run_eval("mem-gallery", str(dialog), out, base, systems=systems, progress=None)
            summary["harness"] = {"answered": result.answered, "skipped": result.skipped, "errors": result.errors,
                                  "ingest_s": round(result.ingest_s, 1), "answer_s": round(result.answer_s, 1)}
    except EvalError as exc:
        return _fail(" ".join(str(exc).split()))
    summary["harness_wall_s"] = round(time.perf_counter() - start, 1)

    if not args.no_questions:
        records = read_records(out / "records.jsonl")
        reports = {}
        for name in systems:
            preds = to_predictions(records, name, names)
            reports[name] = run_scorer(score_py, dialog, preds, out / f"predictions.{name}.jsonl")
        summary["scorer"] = reports
        summary["questions"] = question_summary(reports, names)

    if not args.no_tables:
        mem_ctx = eval_context(base, out, key)
        tables: dict[str, Any] = {}
        throughput: dict[str, Any] = {}
        tmp_home = Path(tempfile.mkdtemp(prefix="throughput-", dir=out))
        try:
            for s in ds.scenarios:
                truth = _read_jsonl(data / "records" / f"{s.name}.jsonl")
                docs = Memory(s.memory_id, context=mem_ctx).table_documents()
                tables[s.name] = table_quality(truth, docs)
                tables[s.name]["memory_id"] = s.memory_id
                marker = out / "cache" / key / "ingested" / (s.memory_id.replace("/", "_") + ".json")
                th: dict[str, Any] = {}
                if marker.exists():
                    m = json.loads(marker.read_text(encoding="utf-8"))
                    th["harness_rounds"], th["harness_seconds"] = m.get("rounds"), m.get("seconds")
                    if m.get("seconds"):
                        th["harness_rounds_per_s"] = round(m["rounds"] / m["seconds"], 1)
                analytic = analytic_throughput(base, s.rounds, tmp_home / s.name)
                th["analytic_rounds_per_s"] = analytic.pop("rounds_per_s")
                th["analytic"] = analytic
                throughput[s.name] = th
        finally:
            from adamm.nodes.backends import reset_backends  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

            reset_backends()  # close the throughput stores before removing them
            shutil.rmtree(tmp_home, ignore_errors=True)
        tables["overall"] = pool_quality({n: tables[n] for n in names})
        summary["tables"] = tables
        tot = {k: sum((throughput[n].get(k) or 0) for n in names) for k in ("harness_rounds", "harness_seconds")}
        a_rounds = sum(throughput[n]["analytic"]["rounds"] for n in names)
        a_secs = sum(throughput[n]["analytic"]["seconds"] for n in names)
        throughput["overall"] = {
            "harness_rounds_per_s": round(tot["harness_rounds"] / tot["harness_seconds"], 1) if tot["harness_seconds"] else None,
            "analytic_rounds_per_s": round(a_rounds / a_secs, 1) if a_secs else None,
        }
        summary["throughput"] = throughput

    (out / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    print()
    print(format_table(summary_rows(summary, names, systems)))
    print("agg = every question type but RET; diff = points, first system minus second; cell/row rec, coverage in %;")
    print("ingest r/s = the harness's full ingestion; analytic r/s = analytic path alone (retrieval off), re-ingested")
    if not args.no_tables:
        for n in names:
            worst = sorted(summary["tables"][n]["by_field"].items(), key=lambda kv: (kv[1] or 0, kv[0]))
            print(f"{n} cell recall by field: " + ", ".join(f"{f} {_pct(v)}" for f, v in worst))
            spread = {f: k for f, k in (summary["tables"][n].get("columns_per_field") or {}).items() if k > 1}
            if spread:
                names = summary["tables"][n].get("names_per_field") or {}
                print(f"{n} fields over several columns (column names): "
                      + ", ".join(f"{f} {k} ({names.get(f)})" for f, k in sorted(spread.items())))
            misses = summary["tables"][n].get("misses") or {}
            if misses:
                print(f"{n} records missed: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(misses.items())))
    if not args.no_questions:
        for name in systems:
            by_type = summary["scorer"][name]["by_type"]
            print(f"{name} by type: " + ", ".join(f"{t} {v['correct']}/{v['n']}" for t, v in by_type.items()))
    print(f"summary: {out / 'summary.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
