"""The ``adamm`` command line.

    adamm ingest PATH --memory-id ID [--format mem-gallery|locomo|jsonl]
    adamm ask "QUESTION" --memory-id ID [--json] [--now ISO] [--image PATH [--caption TEXT]]
    adamm tables --memory-id ID [--json] [--show NAME]
    adamm stats --memory-id ID [--json]
    adamm forget --memory-id ID (--round R ... | --session S | --all) [--json]
    adamm explain ROUND_ID --memory-id ID [--json]
    adamm demo
    adamm eval --dataset mem-gallery|locomo|analytic --data PATH [--systems ...] [--out DIR]

Exit codes: 0 success, 2 bad usage or bad input (one line on stderr saying why), 1 anything
unexpected. Configuration comes from ``ADAMM_*`` environment variables; ``--home`` and
``--database-url`` override the data location. Only the commands that store rounds (``ingest``,
``demo``, ``eval``) create a data directory: for the others a ``--home`` that does not exist is
a typo, and a memory id the data directory does not hold is one too (exit 2, naming the ones it
holds) - neither prints a memory of zeros.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="adamm", description="Long-term multimodal memory for agents.")
    parser.add_argument("--home", help="data directory (default $ADAMM_HOME or ~/.adamm)")
    parser.add_argument("--database-url", help="SQLAlchemy URL (default: SQLite file in the data directory)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("ingest", help="remember the rounds of a file")
    p.add_argument("path")
    p.add_argument("--memory-id", required=True)
    p.add_argument("--format", choices=["jsonl", "mem-gallery", "locomo"], help="default: detected from the file")
    p.add_argument("--batch-size", type=int, help="rounds per graph invocation (default 256)")

    p = sub.add_parser("ask", help="ask a question about a memory")
    p.add_argument("question")
    p.add_argument("--memory-id", required=True)
    p.add_argument("--now", help="ISO time relative dates are resolved against")
    p.add_argument("--json", action="store_true", help="print the whole result as JSON")
    p.add_argument("--trace", action="store_true", help="print the plan and every tool call with its arguments and result")
    p.add_argument("--image", metavar="PATH", help="an image file the question is about")
    p.add_argument("--caption", metavar="TEXT", help="what the image shows (the query graph reads an image through its caption)")

    p = sub.add_parser("tables", help="list the analytic tables of a memory")
    p.add_argument("--memory-id", required=True)
    p.add_argument("--show", metavar="NAME", help="print the rows of one table")
    p.add_argument("--json", action="store_true", help="every table with its columns and rows, as JSON")

    p = sub.add_parser("stats", help="count what a memory holds")
    p.add_argument("--memory-id", required=True)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("forget", help="remove rounds and everything derived from them")
    p.add_argument("--memory-id", required=True)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--round", action="append", dest="rounds", metavar="R", help="a round id (repeatable)")
    which.add_argument("--session", metavar="S", help="every round of one session")
    which.add_argument("--all", action="store_true", dest="everything", help="the whole memory")
    p.add_argument("--json", action="store_true", help="print the report as JSON")

    p = sub.add_parser("explain", help="what was extracted from one round and which table cell each value became")
    p.add_argument("round_id")
    p.add_argument("--memory-id", required=True)
    p.add_argument("--json", action="store_true", help="print the explanation as JSON")

    sub.add_parser("demo", help="ingest a small built-in history and ask it questions")

    from adamm.eval.cli import add_eval_parser  # noqa: PLC0415 - argparse and stdlib only

    add_eval_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from adamm.formats import FormatError  # noqa: PLC0415 - keep --help fast
    from adamm.nodes.context import ConfigError  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.inputs import InputError  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.stores.encoders import EncoderError  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.stores.sql import StoreError  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    try:
        ctx = _context(args)
        code = {"ingest": cmd_ingest, "ask": cmd_ask, "tables": cmd_tables, "stats": cmd_stats, "demo": cmd_demo, "forget": cmd_forget,
                "explain": cmd_explain, "eval": cmd_eval}[args.command](args, ctx)
        sys.stdout.flush()  # a reader that went away shows here, in the handler below, not at exit
        return code
    except (FormatError, InputError, ConfigError, StoreError, EncoderError) as exc:
        sys.stderr.write(f"adamm: error: {_one_line(exc)}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("adamm: interrupted; rounds already stored are kept, rerun to finish\n")
        return 130
    except BrokenPipeError:
        # the reader went away (`adamm stats ... | head -5`): what it read is what it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


#: The commands that store rounds, and so may create their data directory.
CREATING = ("ingest", "demo", "eval")


def _context(args: argparse.Namespace) -> Any:
    from adamm.nodes.context import ConfigError, Context  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    overrides: dict[str, Any] = {}
    if args.home:
        overrides["home"] = os.path.abspath(os.path.expanduser(args.home))
        if args.command not in CREATING and not os.path.isdir(overrides["home"]):
            what = "is not a directory" if os.path.exists(overrides["home"]) else "does not exist"
            raise ConfigError(f"--home {overrides['home']} {what}; only 'adamm ingest' creates a data directory")
    if args.database_url:
        overrides["database_url"] = args.database_url
    return Context(**overrides)


def _known_memory(ctx: Any, memory_id: str) -> None:
    """A memory id the data directory holds no round of is a typo (or the wrong --home): say so
    and name the ones it holds, instead of printing a memory of zeros."""
    from adamm.nodes.backends import backends  # noqa: PLC0415 - opens the stores
    from adamm.nodes.inputs import InputError  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    sql = backends(ctx).sql
    if sql.count_rounds(memory_id):  # one indexed count; the list only on a miss
        return
    known = sql.memories()
    where = "the database" if ctx.database_url else str(ctx.home_path)  # a URL may carry a password
    if not known:
        raise InputError(f"unknown memory {memory_id!r}: {where} holds no memory yet; run 'adamm ingest' first")
    shown = ", ".join(map(repr, known[:MAX_NAMED])) + (f" and {len(known) - MAX_NAMED} more" if len(known) > MAX_NAMED else "")
    raise InputError(f"unknown memory {memory_id!r}; {where} holds {shown}")


#: How many memory ids an error names before it counts the rest.
MAX_NAMED = 20


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False, default=str))


# -- commands -------------------------------------------------------------------------------


def cmd_ingest(args: argparse.Namespace, ctx: Any) -> int:
    from adamm.formats import load  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.memory import DEFAULT_BATCH, Memory  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.backends import backends  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.inputs import check_memory_id  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    check_memory_id(args.memory_id)
    if args.batch_size is not None and args.batch_size < 1:
        return _usage("--batch-size must be at least 1")
    loaded = load(args.path, args.format)  # validates the whole file first: all or nothing
    for warning in loaded.warnings:
        sys.stderr.write(f"adamm: warning: {warning}\n")
    many = len(loaded.scenarios) > 1
    for scenario in loaded.scenarios:
        memory_id = f"{args.memory_id}:{scenario.name}" if many else args.memory_id
        sql = backends(ctx).sql
        underived = set(sql.pending_round_ids(memory_id))  # left by an interrupted ingest: this run finishes them
        stored = Memory(memory_id, context=ctx, batch_size=args.batch_size or DEFAULT_BATCH).ingest(scenario.rounds, progress=scenario.name).counts
        finished = len(underived - set(sql.pending_round_ids(memory_id))) if underived else 0
        total = stored.get("rounds_added", 0) + stored.get("rounds_unchanged", 0) + stored.get("rounds_updated", 0)
        print(
            f"{memory_id}: {total} rounds stored ({stored.get('rounds_added', 0)} new, "
            f"{stored.get('rounds_updated', 0)} updated, {stored.get('rounds_unchanged', 0)} unchanged); "
            f"{stored.get('units_indexed', 0)} indexed"
            + (f"; finished deriving {finished} round(s) an earlier ingest had left underived" if finished else "")
            + (f"; the extractor model failed on {stored['extraction_failures']} round(s), read by the rules instead"
               if stored.get("extraction_failures") else "")
        )
    return EXIT_OK


def _usage(message: str) -> int:
    sys.stderr.write(f"adamm: error: {message}\n")
    return EXIT_USAGE


def cmd_ask(args: argparse.Namespace, ctx: Any) -> int:
    from adamm.memory import Memory  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.backends import backends  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.cost import summarize  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.inputs import check_memory_id  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    from adamm.nodes.questions import check_question  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.stores.records import parse_time  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    check_memory_id(args.memory_id)
    try:  # bad input is one line and exit 2, before anything runs
        check_question(args.question)
    except ValueError as exc:
        return _usage(_one_line(exc))
    try:
        if args.now is not None and parse_time(args.now) is None:
            raise ValueError(f"cannot read {args.now!r} as a date")
    except ValueError as exc:
        return _usage(f"--now: {_one_line(exc)}")
    image = _image_arg(args)
    _known_memory(ctx, args.memory_id)
    pending = backends(ctx).sql.pending_round_ids(args.memory_id)
    if pending:  # the answer can only use what is derived: say what is missing and how to finish
        sys.stderr.write(f"adamm: warning: {len(pending)} of {backends(ctx).sql.count_rounds(args.memory_id)} rounds of memory "
                         f"{args.memory_id!r} are not fully derived (an ingest was interrupted, or is still running), so the "
                         f"answer may miss them; rerun the ingest (adamm ingest FILE --memory-id {args.memory_id}) to finish\n")
    out = Memory(args.memory_id, context=ctx).ask(args.question, now=args.now, image=image).to_dict()
    total = summarize(out.get("cost", []))
    if args.json:
        _print_json({**out, "cost_summary": total})
        return EXIT_OK
    if args.trace:
        _print_trace(out)
    print(out["answer"])
    if out["citations"]:
        print("sources: " + ", ".join(_cite(c) for c in out["citations"]))
    fell_back = f", {total['fallbacks']} model step(s) fell back to rules" if total.get("fallbacks") else ""
    print(f"cost: {total['calls']} model calls, {total['tokens_in']} tokens in, {total['tokens_out']} out, "
          f"{total['rounds_read']} raw rounds read, {total['seconds']:.2f} s{fell_back}")
    return EXIT_OK


def _image_arg(args: argparse.Namespace) -> dict[str, Any] | None:
    """``--image PATH [--caption TEXT]`` as the query graph's ``image`` input, the file checked
    as ingestion checks a round's image (exists, is a readable image)."""
    from adamm.formats.jsonl import image_problem  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.inputs import InputError  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    if args.image is None:
        if args.caption is not None:
            raise InputError("--caption: describes an --image; give the image too")
        return None
    path = Path(args.image).expanduser().resolve()
    problem = image_problem(path)
    if problem:
        raise InputError(f"--image: {problem}")
    image: dict[str, Any] = {"path": str(path)}
    if args.caption is not None and args.caption.strip():
        image["caption"] = args.caption.strip()
    else:
        sys.stderr.write("adamm: warning: --image without --caption: the query graph reads an image through its caption, "
                         "so this one does not change the answer\n")
    return image


def _print_trace(out: dict[str, Any]) -> None:
    """The executed plan and each call, for people debugging a question (Studio shows the same)."""
    for i, step in enumerate(out.get("plan") or [], start=1):
        print(f"step {i} [{step['tool']}] {step['goal']} ({step['status']}{', added by reflection' if step.get('origin') == 'reflection' else ''})")
    for call in out.get("calls") or []:
        print(f"  call {call['tool']}({json.dumps(call.get('args'), default=str)})")
        if call.get("error"):
            print(f"    error: {call['error']}")
        else:
            print(f"    result: {json.dumps(call.get('summary'), default=str)[:500]}")
    for unit in out.get("evidence") or []:
        print(f"  [{unit['unit_id']}] {unit['text'][:200]}")


def _cite(c: dict[str, Any]) -> str:
    return c["round_id"] + (f" (images {', '.join(c['image_ids'])})" if c.get("image_ids") else "")


def cmd_tables(args: argparse.Namespace, ctx: Any) -> int:
    from adamm.memory import Memory  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.backends import backends  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.inputs import check_memory_id  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    _known_memory(ctx, check_memory_id(args.memory_id))
    if args.show is not None:
        names = [t.name for t in backends(ctx).sql.tables(args.memory_id)]
        if args.show not in names:
            return _usage(f"memory {args.memory_id!r} has no table {args.show!r}; "
                          + (f"its tables: {', '.join(names)}" if names else "it has no analytic tables yet"))
    docs = Memory(args.memory_id, context=ctx).table_documents(args.show)
    if args.json:
        _print_json(docs)
        return EXIT_OK
    if not docs:
        print(f"{args.memory_id}: no analytic tables (a table appears once a set of attributes recurs in enough rounds)")
    for doc in docs:
        cols = ", ".join(f"{c['name']} {c['type']}" + (f" [{c['unit']}]" if c.get("unit") else "") for c in doc["columns"])
        print(f"{doc['name']} ({len(doc['rows'])} rows): {cols}")
        if doc["description"]:
            print(f"    {doc['description']}")
        if args.show:
            names = ["source", "date"] + [c["name"] for c in doc["columns"]]
            print("    " + " | ".join(names))
            for row in doc["rows"]:
                day = (row.get("observed_at") or row.get("time") or "")[:10]
                cells = [str(row["source"]), day] + ["" if row.get(c["name"]) is None else _fmt(row[c["name"]]) for c in doc["columns"]]
                print("    " + " | ".join(cells))
    return EXIT_OK


def _fmt(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def cmd_stats(args: argparse.Namespace, ctx: Any) -> int:
    from adamm.memory import Memory  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.inputs import check_memory_id  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    _known_memory(ctx, check_memory_id(args.memory_id))
    stats = Memory(args.memory_id, context=ctx).stats()
    if args.json:
        _print_json(stats)
    else:
        width = max(len(k) for k in stats)
        for key, value in stats.items():
            print(f"{key:<{width}}  {value}")
    return EXIT_OK


def cmd_forget(args: argparse.Namespace, ctx: Any) -> int:
    from adamm.memory import Memory  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.backends import backends  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.inputs import check_memory_id  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    check_memory_id(args.memory_id)
    if not (args.everything and backends(ctx).vectors.spaces(args.memory_id)):  # a --all killed after its SQL drop: the rerun finishes it
        _known_memory(ctx, args.memory_id)
    if args.rounds:  # an id that names nothing is a typo: say so and change nothing
        known = {r.round_id for r in backends(ctx).sql.get_rounds(args.memory_id, args.rounds)}
        missing = [r for r in args.rounds if r not in known]
        if missing:
            sys.stderr.write(f"adamm: error: memory {args.memory_id!r} has no round {', '.join(map(repr, missing))}; "
                             "nothing was forgotten\n")
            return EXIT_USAGE
    report = Memory(args.memory_id, context=ctx).forget(round_ids=args.rounds, session_id=args.session, everything=args.everything)
    if args.json:
        _print_json(report.to_dict())
        return EXIT_OK
    print(f"{args.memory_id}: forgot {report.rounds} rounds, {report.observations} observations, {report.table_rows} table rows, "
          f"{report.events} events, {report.episodes} episodes, {report.topics} topics, {report.vectors} vectors")
    for name in report.tables_dropped:
        print(f"table {name} dropped: no rows left")
    for name in report.tables_below_support:
        sys.stderr.write(f"adamm: warning: table {name} is now supported by fewer rounds than theta_support\n")
    return EXIT_OK


def cmd_explain(args: argparse.Namespace, ctx: Any) -> int:
    from adamm.nodes.explain import explain_round  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.nodes.inputs import check_memory_id  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    _known_memory(ctx, check_memory_id(args.memory_id))
    doc = explain_round(ctx, args.memory_id, args.round_id)
    if args.json:
        _print_json(doc)
        return EXIT_OK
    rnd = doc["round"]
    state = "derived" if doc["derived"] else f"NOT fully derived (stage {doc['stage']} of 3): rerun the ingest to finish"
    print(f"round {rnd['round_id']} of {args.memory_id} (session {rnd['session_id']}, order {rnd['order']}, "
          f"{rnd['time'] or 'no time'}): {state}")
    for line in rnd["text"].splitlines():
        print(f"    {line}")
    obs = doc["observations"]
    print(f"{len(obs)} observation(s)" + (":" if obs else " (no values were read from this round)"))
    for record in sorted({o["record"] for o in obs}):
        print(f"  record {record}:")
        for o in (o for o in obs if o["record"] == record):
            value = _fmt(o["value"]) + (f" {o['unit']}" if o.get("unit") else "")
            label = f"label {o['label']!r}" if o["label"] else "no label"
            print(f"    {o['attribute']} = {value}  ({label}; read {o['raw']!r} at {o['source']})")
            if o["placed"]:
                p = o["placed"]
                print(f"      -> {p['table']}.{p['column']} = {_fmt(p['cell'])} (the row of {rnd['round_id']}, record {p['record']})")
            if o["left_out"]:
                print(f"      {'note' if o['placed'] else 'left out'}: {o['left_out']}")
    for row in doc["rows"]:
        cells = ", ".join(f"{k}={_fmt(v)}" for k, v in row["cells"].items())
        print(f"row of {row['table']} (record {row['record']}): {cells}")
    return EXIT_OK


def cmd_demo(args: argparse.Namespace, ctx: Any) -> int:
    from adamm.demo import DEMO_MEMORY, DEMO_QUESTIONS, demo_rounds  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.memory import Memory  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    memory = Memory(DEMO_MEMORY, context=ctx)
    report = memory.ingest(demo_rounds(), progress="demo")
    print(f"memory {DEMO_MEMORY!r} in {ctx.home}: {report.rounds_added} new rounds, "
          f"{report.rounds_unchanged} already there; {memory.stats()['rounds']} in all\n")
    for question in DEMO_QUESTIONS:
        answer = memory.ask(question)
        print(f"Q: {question}")
        print(f"A: {answer.answer}")
        if answer.citations:
            print("   sources: " + ", ".join(_cite(c) for c in answer.to_dict()["citations"]))
        print()
    _demo_tables(ctx, memory)
    return EXIT_OK


def _demo_tables(ctx: Any, memory: Any) -> None:
    """Show what analytic memory built from the demo's dashboards, and one exact answer."""
    from adamm.nodes.backends import backends  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast
    from adamm.stores import analytic  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    memory_id = memory.memory_id
    docs = memory.table_documents()
    print("Analytic memory (tables induced from recurring observations):")
    for doc in docs:
        print(f"  {doc['name']}: " + ", ".join(c["name"] + (f" [{c['unit']}]" if c.get("unit") else "") for c in doc["columns"])
              + f" - {len(doc['rows'])} rows")
        numeric = [c for c in doc["columns"] if c["type"] == "float"]
        if numeric:
            col = numeric[0]
            res = analytic.compute(backends(ctx).sql, memory_id, doc["name"], col["name"], "avg")
            print(f"  Compute(avg {col['name']}) = {res.value:g}{' ' + col['unit'] if col.get('unit') else ''} "
                  f"over {res.matched} rows (sources: {', '.join(res.sources)})")
    if not docs:
        print("  none yet")


def cmd_eval(args: argparse.Namespace, ctx: Any) -> int:
    from adamm.eval.cli import run_eval_command  # noqa: PLC0415 - keeps `adamm --help` and usage errors fast

    return run_eval_command(args, ctx)


if __name__ == "__main__":  # python -m adamm.cli
    raise SystemExit(main())
