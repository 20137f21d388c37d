"""Query-graph cost: latency with the rules backend, and model calls / tokens with an LLM planner.

    python benchmarks/bench_query.py [--days 60] [--seed 0] [--questions N] [--home DIR] [--llm] [--tools]

Builds the synthetic analytic development history (``adamm.devset``, ``--days`` days; 60 days
is 222 rounds, 5,400 days about 20k) in ``--home`` (reused when it already holds it), asks the
development questions (``adamm.devset_questions``) through the ``query`` graph and prints:

* latency with ``rules`` everywhere (no model time exists to exclude): median / p90 per
  question and the median per node;
* with ``--tools``: the median latency of EventLocate and SemanticMatch (event, episode,
  topic scope) on the same memory, 20 calls each, query embedding included (each call a text
  the encoder has not seen);
* with ``--llm``: the same questions with the planner and answerer roles played by a
  *replay* chat model - a fake that returns, for each call, the structured output the rules
  backend produced for that step (plan, each call's arguments, the reflection verdict, the
  answer) and records the prompt it was sent. Calls per question and input / output tokens
  are counted from those prompts with the MiniLM WordPiece tokenizer (offline; a proxy for a
  provider's BPE count, which is of the same order for English text). This measures what the
  LLM path costs - prompt sizes and call counts - without a model.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from adamm.cli import ingest_rounds
from adamm.devset import generate
from adamm.devset_questions import generate_questions
from adamm.graphs.query import graph
from adamm.nodes import models
from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.cost import summarize

MEMORY = "bench"


class Replay(BaseChatModel):
    """Replies with scripted structured outputs, counting prompt and reply tokens."""

    script: list[tuple[str, dict[str, Any]]] = []
    tokenizer: Any = None

    @property
    def _llm_type(self) -> str:
        return "replay"

    def bind_tools(self, tools: Any, **kwargs: Any) -> "Replay":  # noqa: ARG002
        return self

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:  # noqa: ARG002
        prompt = "\n".join(str(m.content) for m in messages)
        name, args = self.script.pop(0) if self.script else ("ReflectOut", {"verdict": "sufficient"})
        n_in = len(self.tokenizer.encode(prompt)) if self.tokenizer else len(prompt) // 4
        n_out = len(self.tokenizer.encode(json.dumps(args))) if self.tokenizer else len(json.dumps(args)) // 4
        msg = AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": "c", "type": "tool_call"}],
                        usage_metadata={"input_tokens": n_in, "output_tokens": n_out, "total_tokens": n_in + n_out})
        return ChatResult(generations=[ChatGeneration(message=msg)])


def script_of(out: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The model replies that reproduce a rules run: plan, calls (with reflections), answer."""
    steps = out.get("plan") or []
    planned = [{"goal": s["goal"], "tool": s["tool"]} for s in steps if s.get("origin") == "plan"]
    script: list[tuple[str, dict[str, Any]]] = [("PlanOut", {"steps": planned})]
    for call in out.get("calls") or []:
        step = steps[call["step"]] if call["step"] < len(steps) else {}
        if step.get("origin") == "reflection":
            script.append(("ReflectOut", {"verdict": "add_step", "goal": step["goal"], "tool": step["tool"]}))
        script.append(("CallOut", {"tool": call["tool"], "arguments": call.get("args") or {}}))
    script.append(("ReflectOut", {"verdict": "sufficient"}))
    cited = [u["unit_id"] for u in out.get("evidence") or [] if set(u["round_ids"]) & {c["round_id"] for c in out.get("citations") or []}]
    script.append(("AnswerOut", {"answer": out["answer"], "citations": cited[:10]}))
    return script


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--days", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--questions", type=int, default=0, help="ask at most this many (0: all)")
    ap.add_argument("--home", help="data directory to build or reuse (default: a temporary one)")
    ap.add_argument("--llm", action="store_true", help="also measure calls and tokens with a replay LLM planner")
    ap.add_argument("--tools", action="store_true", help="also time the retrieval tools on the same memory")
    args = ap.parse_args(argv)

    home = Path(args.home or tempfile.mkdtemp(prefix="adamm-bench-query-"))
    ctx = Context(home=str(home))
    dev = generate(seed=args.seed, days=args.days)
    if backends(ctx).sql.count_rounds(MEMORY) < len(dev.rounds):
        t = time.perf_counter()
        ingest_rounds(ctx, MEMORY, dev.rounds, batch_size=64)
        print(f"ingested {len(dev.rounds)} rounds in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    questions = generate_questions(dev)
    if args.questions:
        questions = questions[: args.questions]
    rounds = backends(ctx).sql.count_rounds(MEMORY)

    graph.invoke({"memory_id": MEMORY, "question": "warm-up: average sleep?"}, context=ctx)
    latencies, by_node, runs = [], {}, []
    for q in questions:
        t = time.perf_counter()
        out = graph.invoke({"memory_id": MEMORY, "question": q.question, "now": q.now}, context=ctx)
        latencies.append(time.perf_counter() - t)
        for node, s in summarize(out["cost"])["by_node"].items():
            by_node.setdefault(node, []).append(s["seconds"])
        runs.append((q, out))
    lat = sorted(latencies)
    print(f"rules backend, {rounds} rounds, {len(questions)} questions")
    print(f"latency per question: median {statistics.median(lat) * 1000:.0f} ms, p90 {lat[int(0.9 * (len(lat) - 1))] * 1000:.0f} ms")
    print("median per node: " + ", ".join(f"{n} {statistics.median(v) * 1000:.1f} ms" for n, v in by_node.items()))

    if args.tools:
        from adamm.nodes.retrieval import event_locate, semantic_match  # noqa: PLC0415

        texts = [f"{q.question} (timing {i})" for i, q in enumerate(questions[:20])]
        tools = {"EventLocate": lambda t: event_locate(ctx, MEMORY, t, 10),
                 **{f"SemanticMatch {scope}": (lambda t, scope=scope: semantic_match(ctx, MEMORY, t, scope, 10))
                    for scope in ("event", "episode", "topic")}}
        for name, call in tools.items():
            times = []
            for text in texts:
                t = time.perf_counter()
                call(text)
                times.append(time.perf_counter() - t)
            print(f"{name:<22} median {statistics.median(times) * 1000:.0f} ms")

    if args.llm:
        from adamm.stores.encoders import TextEncoder  # noqa: PLC0415

        tokenizer = backends(ctx).text_encoder._ensure_loaded().tokenizer if isinstance(backends(ctx).text_encoder, TextEncoder) else None
        calls, tokens_in, tokens_out = [], [], []
        for q, rules_out in runs:
            model = Replay(script=script_of(rules_out), tokenizer=tokenizer)
            models.register_model("replay:bench", model)
            try:
                llm_ctx = Context(**{**ctx.__dict__, "planner": "replay:bench", "answerer": "replay:bench"})
                out = graph.invoke({"memory_id": MEMORY, "question": q.question, "now": q.now}, context=llm_ctx)
            finally:
                models.unregister_model("replay:bench")
            total = summarize(out["cost"])
            calls.append(total["calls"])
            tokens_in.append(total["tokens_in"])
            tokens_out.append(total["tokens_out"])
        tokens = [a + b for a, b in zip(tokens_in, tokens_out)]
        print(f"LLM planner + answerer (replay model): calls per question median {statistics.median(calls):.0f}, "
              f"max {max(calls)}, share <= 6: {sum(c <= 6 for c in calls) / len(calls):.0%}")
        print(f"tokens per question: median {statistics.median(tokens):.0f} (in {statistics.median(tokens_in):.0f}, "
              f"out {statistics.median(tokens_out):.0f}), p90 {sorted(tokens)[int(0.9 * (len(tokens) - 1))]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
