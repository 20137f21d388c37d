"""``python -m adamm.eval.invented --out DIR [--seed N] [--scenarios K]``: write the data set.

DIR gets ``dialog/<scenario>.json`` (Mem-Gallery with the analytic QA extensions),
``records/<scenario>.jsonl`` (the ground-truth observations) and ``score.py`` (this package's
standalone scorer), the layout of analytic_dev, so ``benchmarks/bench_analytic_dev.py --data
DIR`` runs on it unchanged. Scenario *i* of a seed draws from ``random.Random`` seeded with a
string (string seeds do not depend on PYTHONHASHSEED) and from a lexicon shared with scenarios
0..i-1, so ``--scenarios 1`` writes the first scenario of ``--scenarios 4`` byte for byte.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from adamm.eval.invented.domain import invent_domain
from adamm.eval.invented.history import Scenario, build
from adamm.eval.invented.questions import TYPES, build_questions
from adamm.eval.invented.units import to_json
from adamm.eval.invented.validate import validate
from adamm.eval.invented.words import Lexicon

SCORER = Path(__file__).with_name("score.py")


def scenarios(seed: int, count: int, sparse: bool = False, varied: bool = False, styles: bool = False) -> list[tuple[Scenario, list[dict[str, Any]]]]:
    """``count`` validated scenarios of ``seed``, each with its questions (``sparse``: see
    :func:`~adamm.eval.invented.domain.invent_domain`; ``varied``: the same questions in other
    wordings, :mod:`~adamm.eval.invented.phrasing`; ``styles``: other authors' layouts too - tables
    under a header row, terse notes of values alone)."""
    lex = Lexicon()
    out = []
    for i in range(count):
        rng = random.Random(f"adamm-invented/{'sparse/' if sparse else ''}{seed}/{i}")
        dom = invent_domain(rng, lex, sparse)
        scn = build(dom, lex, rng, styles)
        qas = build_questions(scn, random.Random(f"adamm-invented/{seed}/{i}/questions"),
                              random.Random(f"adamm-invented/{seed}/{i}/varied") if varied else None)
        validate(scn, qas)
        out.append((scn, qas))
    return out


def records_of(scn: Scenario) -> list[dict[str, Any]]:
    dom = scn.domain
    order = [f.key for f in dom.nums] + [c.key for c in dom.cats] + ([dom.entity.key] if dom.entity else [])
    return [{"round": r.round, "observed": r.day.isoformat(), "record_type": dom.name,
             "fields": {k: (r.values[k] if isinstance(r.values[k], str) else to_json(r.values[k]))  # type: ignore[arg-type]
                        for k in order if k in r.values}} for r in scn.records]


def write(out: Path, seed: int = 0, count: int = 4, sparse: bool = False, varied: bool = False, styles: bool = False) -> dict[str, Any]:
    """Write the data set of ``seed`` into ``out`` (replacing earlier dialog/records files) and
    return a summary per scenario."""
    made = scenarios(seed, count, sparse, varied, styles)
    dialog, records = out / "dialog", out / "records"
    for d, pattern in ((dialog, "*.json"), (records, "*.jsonl")):
        d.mkdir(parents=True, exist_ok=True)
        for old in d.glob(pattern):
            old.unlink()
    summary: dict[str, Any] = {}
    for scn, qas in made:
        doc = {"character_profile": scn.profile, "multi_session_dialogues": scn.sessions, "human-annotated QAs": qas}
        (dialog / f"{scn.name}.json").write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        recs = records_of(scn)
        (records / f"{scn.name}.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs),
                                                   encoding="utf-8")
        points = Counter(q["point"] for q in qas)
        summary[scn.name] = {
            "sessions": len(scn.sessions), "period": [scn.sessions[0]["date"], scn.sessions[-1]["date"]],
            "rounds": sum(len(s["dialogues"]) for s in scn.sessions),
            "images": sum(len(r["image_id"]) for s in scn.sessions for r in s["dialogues"]),
            "records": len(recs), "fields": [f.label for f in scn.domain.nums],
            "questions": len(qas), "by_type": {t: points.get(t, 0) for t in TYPES}}
    shutil.copyfile(SCORER, out / "score.py")
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m adamm.eval.invented", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="data set directory to write (dialog/, records/, score.py)")
    p.add_argument("--seed", type=int, default=0, help="vocabulary and history seed (default 0)")
    p.add_argument("--scenarios", type=int, default=4, help="number of invented domains (default 4)")
    p.add_argument("--sparse", action="store_true",
                   help="dashboard days: 5-8 numeric fields, most of them missing from some records")
    p.add_argument("--varied", action="store_true",
                   help="the same questions in other wordings, periods relative to a stated day")
    p.add_argument("--styles", action="store_true",
                   help="other authors' layouts too: tables under a header row, terse notes of values alone")
    a = p.parse_args(argv)
    if a.scenarios < 1:
        p.error("--scenarios must be at least 1")
    summary = write(Path(a.out), a.seed, a.scenarios, a.sparse, a.varied, a.styles)
    print(json.dumps(summary, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
