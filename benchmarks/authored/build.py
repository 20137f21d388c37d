"""Write the independently authored analytic sets into OUT/dev and OUT/hold.

    python benchmarks/authored/build.py OUT
    python benchmarks/bench_analytic_dev.py --systems adamm --data OUT/dev     # develop on these
    python benchmarks/bench_analytic_dev.py --systems adamm --data OUT/hold    # measure only

Each folder here holds one author's generator of two scenarios (see its README). The authors
saw the data format and the scoring conventions of analytic_dev, never adamm's code nor the
analytic test split. The first scenario of each author is for development; the second is held
out: run the benchmark on it and read its summary figures only.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCORER = HERE.parents[1] / "eval" / "invented" / "score.py"
#: author folder -> (scenario for development, scenario held out)
SPLITS = {
    "care": ("baby_log", "dog_care"),
    "fitness": ("strength_training", "swim_log"),
    "freetext": ("daily_journal", "notes_app"),
    "home": ("garden_harvest", "home_energy"),
    "invented": ("glimmet_keeping", "skellick_gleaning"),
    "work": ("freelance_hours", "language_study"),
}


def build(out: Path) -> None:
    for split in ("dev", "hold"):
        for sub in ("dialog", "records"):
            (out / split / sub).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SCORER, out / split / "score.py")
    for author, names in SPLITS.items():
        raw = out / "authors" / author
        raw.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, str(HERE / author / "generate.py"), str(raw)], check=True, stdout=subprocess.DEVNULL)
        for split, name in zip(("dev", "hold"), names):
            shutil.copyfile(raw / "dialog" / f"{name}.json", out / split / "dialog" / f"{name}.json")
            shutil.copyfile(raw / "records" / f"{name}.jsonl", out / split / "records" / f"{name}.jsonl")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    build(Path(args[0]))
    print(f"wrote {args[0]}/dev and {args[0]}/hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
