"""What a question costs with model roles, counted by the server: calls and tokens per question.

    python benchmarks/bench_query_cost.py [--data DIR] [--scenarios a,b] [--limit N]

Every scenario of ``../shared/data/analytic_dev`` is ingested offline; then every question is
asked twice: once with the ``rules`` roles, whose decisions (the plan, each step's tool call,
each reflection verdict, the answer and its citations) are recorded, and once with the planner
and answerer set to ``openai:stub`` with ``model_base_url`` pointing at the scripted
OpenAI-compatible server of the test suite on loopback, which replays those decisions. So the
model path walks the same loop a model that agreed with the rules would - same steps, same
reflections - and every prompt is the real one. The judge grades each answer over the wire too
(counted apart: it is the evaluation's cost, not the user's).

Tokens are the server's ``usage`` counts, sized with the packaged MiniLM WordPiece tokenizer
over the messages plus the tools / response-format schema sent with them (OpenAI's BPE counts
run close to it on English text; read it as an estimate). Printed: questions, then p50 / p90 /
max of calls and of total tokens per question, and the replay check (the wired answer equals
the rules answer).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections import deque
from pathlib import Path
from typing import Any

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "analytic_dev"


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))  # ceil
    return ordered[int(rank) - 1]


class Replay:
    """The rules' decisions for the question being asked, served to the stub in order."""

    def __init__(self) -> None:
        self.plan: list[dict[str, str]] = []
        self.calls: deque[dict[str, Any]] = deque()
        self.verdicts: deque[dict[str, Any]] = deque()
        self.answer: dict[str, Any] = {"answer": "Not mentioned.", "citations": []}

    def record(self, graph: Any, payload: dict[str, Any], ctx: Any) -> None:
        self.__init__()
        for update in graph.stream(payload, context=ctx, stream_mode="updates"):
            for node, out in update.items():
                out = out or {}
                if node == "plan":
                    self.plan = [{"goal": s["goal"], "tool": s["tool"]} for s in out.get("plan", [])]
                elif node == "instantiate":
                    self.calls.extend({"tool": c["tool"], "arguments": c.get("args") or {}} for c in out.get("pending", []))
                elif node == "reflect":
                    self.verdicts.append(out["verdict"])
                elif node == "notes":
                    self.answer = {"answer": out["draft"]["answer"], "citations": list(out["draft"]["cited"])}

    def script(self) -> dict[str, Any]:
        return {
            "PlanOut": lambda body: {"steps": self.plan},
            "CallOut": lambda body: self.calls.popleft() if self.calls else {"tool": "EventLocate", "arguments": {"query": "it"}},
            "ReflectOut": lambda body: self.verdicts.popleft() if self.verdicts else {"verdict": "sufficient"},
            "AnswerOut": lambda body: self.answer,
            "Verdict": {"correct": True, "reason": "replayed"},
        }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="an analytic_dev-like directory (DIR/dialog/*.json)")
    parser.add_argument("--scenarios", help="comma-separated dialog file stems (default: all)")
    parser.add_argument("--limit", type=int, default=0, help="questions per scenario (0 = all)")
    args = parser.parse_args()
    dialogs = sorted((args.data / "dialog").glob("*.json"))
    if args.scenarios:
        wanted = set(args.scenarios.split(","))
        if wanted - {p.stem for p in dialogs}:
            parser.error(f"no such scenario in {args.data / 'dialog'}: {', '.join(sorted(wanted - {p.stem for p in dialogs}))}")
        dialogs = [p for p in dialogs if p.stem in wanted]
    if not dialogs:
        parser.error(f"no dialog files in {args.data / 'dialog'}")
    home = tempfile.mkdtemp(prefix="adamm-bench-query-cost-")
    os.environ["ADAMM_HOME"] = home
    from adamm.eval.judge import judge  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.formats import load  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.graphs.query import graph  # noqa: PLC0415 - builds the graphs (seconds): only where they run
    from adamm.memory import Memory  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.nodes.context import Context  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.tests.openai_stub import OpenAIStub, schema_names, wordpiece_counter  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

    replay = Replay()
    calls: list[int] = []
    tokens: list[int] = []
    judge_tokens: list[int] = []
    by_step: dict[str, list[int]] = {}
    same = 0
    try:
        with OpenAIStub(script=replay.script(), count_tokens=wordpiece_counter()) as stub:
            wired = Context(planner="openai:stub", answerer="openai:stub", judge="openai:stub", model_base_url=stub.url)
            for path in dialogs:
                scenario = load(path).scenarios[0]
                Memory(path.stem).ingest(scenario.rounds)
                for q in scenario.questions[: args.limit or None]:
                    payload = {"memory_id": path.stem, "question": q.question}
                    replay.record(graph, payload, Context())
                    before = len(stub.usage)
                    out = graph.invoke(payload, context=wired)
                    used = stub.usage[before:]
                    for name, (p, c) in zip(schema_names(stub.requests[before:]), used):
                        by_step.setdefault(name, []).append(p + c)
                    calls.append(len(used))
                    tokens.append(sum(p + c for p, c in used))
                    same += out["answer"] == replay.answer["answer"]
                    before = len(stub.usage)
                    judge(wired, q.question, q.answer, out["answer"])
                    judge_tokens.append(sum(p + c for p, c in stub.usage[before:]))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    n = len(calls)
    print(f"questions: {n} ({len(dialogs)} scenarios of {args.data.name}); planner + answerer over the wire")
    print(f"{'per question':22} {'p50':>7} {'p90':>7} {'max':>7} {'mean':>8}")
    for label, values in (("model calls", calls), ("tokens (in + out)", tokens), ("judge tokens", judge_tokens)):
        print(f"{label:22} {percentile(values, 50):>7.0f} {percentile(values, 90):>7.0f} {max(values):>7.0f} {sum(values) / n:>8.1f}")
    print("mean tokens per call: " + ", ".join(f"{name} {sum(v) / len(v):.0f} ({len(v) / n:.2f}/question)"
                                             for name, v in sorted(by_step.items())))
    print(f"replay check: wired answer == rules answer on {same}/{n} questions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
