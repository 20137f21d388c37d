"""What ingestion costs with a model extractor, counted by the server: calls per 100 rounds.

    python benchmarks/bench_model_cost.py [--no-gate] [--batch N]

Every scenario of ``../shared/data/analytic_dev`` and of the Mem-Gallery development split is
ingested (analytic memory only; the retrieval index does not call the extractor) with the
extractor role set to ``openai:stub`` and ``model_base_url`` pointing at the scripted
OpenAI-compatible server of the test suite on loopback, which answers every extraction with no
observation (a batch answer lists every round). Printed per data set, from the server's request
log and ``usage``: extractor calls and tokens (prompt - messages and schema - plus reply, sized
with the MiniLM WordPiece tokenizer) per 100 rounds, rounds the gate spared; and the gate's
recall on the rounds that hold a ground-truth record of ``analytic_dev/records``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
SETS = {"analytic_dev": SHARED / "analytic_dev" / "dialog", "mem_gallery": SHARED / "mem_gallery" / "dialog"}


def gate_recall() -> tuple[int, int]:
    from adamm.formats import load  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.nodes.rules.gate import may_hold_observation  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

    passed = total = 0
    for records in sorted((SHARED / "analytic_dev" / "records").glob("*.jsonl")):
        rounds = {r.round_id: r for r in load(SHARED / "analytic_dev" / "dialog" / f"{records.stem}.json").scenarios[0].rounds}
        for line in records.read_text().splitlines():
            if line.strip():
                total += 1
                passed += may_hold_observation(rounds[json.loads(line)["round"]])
    return passed, total


def every_round_empty(body: dict) -> dict:
    """A batch answer that lists every round of the prompt, with no observation."""
    text = " ".join(str(m.get("content")) for m in body["messages"])
    count = int(re.search(r"Below are (\d+) rounds", text).group(1))
    return {"rounds": [{"round": n, "observations": []} for n in range(1, count + 1)]}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-gate", action="store_true", help="call the extractor for every round")
    parser.add_argument("--batch", type=int, default=4, help="rounds per extractor call (extract_batch)")
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="adamm-bench-cost-")
    os.environ["ADAMM_HOME"] = home
    from adamm.formats import load  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.graphs.ingest import graph  # noqa: PLC0415 - builds the graphs (seconds): only where they run
    from adamm.nodes.context import Context  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.tests.openai_stub import OpenAIStub, wordpiece_counter  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

    print(f"{'data set':14} {'rounds':>7} {'calls/100':>10} {'tokens/100':>11} {'spared':>7}")
    try:
        for name, directory in SETS.items():
            script = {"ExtractionOut": {"observations": []}, "BatchExtractionOut": every_round_empty}
            with OpenAIStub(script=script, count_tokens=wordpiece_counter()) as stub:
                ctx = Context(extractor="openai:stub", model_base_url=stub.url, use_retrieval=False,
                              extract_gate=not args.no_gate, extract_batch=args.batch)
                rounds = spared = 0
                for path in sorted(directory.glob("*.json")):
                    scenario = load(path).scenarios[0]
                    for start in range(0, len(scenario.rounds), 64):
                        batch = [r.model_dump(mode="json") for r in scenario.rounds[start:start + 64]]
                        out = graph.invoke({"memory_id": f"{name}:{path.stem}", "rounds": batch}, context=ctx)
                        spared += out["stored"].get("extractor_skipped", 0)
                    rounds += len(scenario.rounds)
                calls = len(stub.requests)
                tokens = sum(p + c for p, c in stub.usage)
            print(f"{name:14} {rounds:>7} {100 * calls / rounds:>10.1f} {100 * tokens / rounds:>11.0f} {spared:>7}")
        passed, total = gate_recall()
        print(f"gate recall on analytic_dev ground-truth rounds: {passed}/{total} ({100 * passed / total:.1f} %)")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
