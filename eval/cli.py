"""``adamm eval``: run an evaluation, rebuild its report, or compare two runs.

    adamm eval --dataset {mem-gallery,locomo,analytic} [--data PATH|SPEC] [--systems a,b,...]
               [--limit N] [--scenarios N] [--out DIR] [--no-query-caption] [--no-progress]
               [--threads N]
    adamm eval --report DIR
    adamm eval --compare A B [--out FILE]

Kept import-light: ``adamm --help`` builds this parser without loading any model code.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

DEFAULT_OUT = "adamm-eval"


def add_eval_parser(sub: Any) -> None:
    p = sub.add_parser("eval", help="evaluate systems on a benchmark; report; compare runs")
    p.add_argument("--dataset", choices=["mem-gallery", "locomo", "analytic"])
    p.add_argument("--data", help="Mem-Gallery / LoCoMo file or directory; for analytic a spec "
                                  "'seed=0,days=60,per_category=5' (the default)")
    p.add_argument("--systems", help="comma-separated (default: all): adamm, no-analytic, no-retrieval, "
                                     "no-planning-context, no-progressive, rag-dense, bm25, hybrid")
    p.add_argument("--limit", type=int, default=0, help="questions per memory, first in file order (0 = all)")
    p.add_argument("--scenarios", type=int, default=0, help="memories (scenario files / LoCoMo samples) to use (0 = all)")
    p.add_argument("--out", help=f"run directory (default ./{DEFAULT_OUT}); with --compare, a file for the diff")
    p.add_argument("--no-query-caption", action="store_true",
                   help="ask the question text alone, without its image's caption appended")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--threads", type=int, default=0,
                   help="encoder threads (ONNX Runtime, and torch where an encoder runs on it); "
                        "default 0: the usable cores, at most 8")
    p.add_argument("--report", metavar="DIR", help="only rebuild DIR/report.md and the charts")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"), help="diff of run B against run A (directories)")


def _fail(message: str) -> int:
    sys.stderr.write(f"adamm: error: {message}\n")
    return 2


def run_eval_command(args: argparse.Namespace, ctx: Any) -> int:
    from adamm.eval.datasets import EvalError  # noqa: PLC0415 - heavy: loaded only by the commands that need it
    from adamm.eval.report import compare_runs, write_report  # noqa: PLC0415 - heavy: loaded only by the commands that need it

    if args.compare:
        for run in args.compare:
            if not (Path(run) / "records.jsonl").exists():
                return _fail(f"{run}: no records.jsonl (not a run directory)")
        text = compare_runs(*args.compare)
        if args.out:
            Path(args.out).write_text(text, encoding="utf-8")
            print(f"wrote {args.out}")
        else:
            print(text, end="")
        return 0
    if args.report:
        if not (Path(args.report) / "records.jsonl").exists():
            return _fail(f"{args.report}: no records.jsonl (not a run directory)")
        print(f"wrote {write_report(args.report)}")
        return 0
    if not args.dataset:
        return _fail("eval: give --dataset (or --report DIR, or --compare A B)")
    if args.limit < 0 or args.scenarios < 0:
        return _fail("--limit and --scenarios must be 0 or more")

    from adamm.eval.run import run_eval  # noqa: PLC0415 - heavy: loaded only by the commands that need it
    from adamm.eval.systems import parse_systems  # noqa: PLC0415 - heavy: loaded only by the commands that need it
    from adamm.nodes.models import probe_servers  # noqa: PLC0415 - heavy: loaded only by the commands that need it
    from adamm.stores.encoders import set_encoder_threads  # noqa: PLC0415 - heavy: loaded only by the commands that need it

    probe_servers(ctx)  # every role, the judge too: an unreachable server fails here, not per question

    out = Path(args.out or DEFAULT_OUT)
    try:
        systems = parse_systems(args.systems)
    except ValueError as exc:
        return _fail(str(exc))
    if args.threads < 0:
        return _fail("--threads must be 0 or more")
    if args.threads:
        set_encoder_threads(args.threads)
    start = time.perf_counter()
    try:
        result = run_eval(args.dataset, args.data, out, ctx, systems=systems, limit=args.limit,
                          max_scenarios=args.scenarios, with_caption=not args.no_query_caption,
                          progress=False if args.no_progress else None)
    except EvalError as exc:
        return _fail(" ".join(str(exc).split()))
    report = write_report(out)
    wall = time.perf_counter() - start
    print(f"{args.dataset}: {result.answered} answers recorded ({result.skipped} already there, "
          f"{result.errors} failed); ingest {result.ingest_s:.0f} s, answering {result.answer_s:.0f} s, "
          f"total {wall:.0f} s")
    print(f"records: {out / 'records.jsonl'}\nreport:  {report}")
    return 1 if result.errors else 0
