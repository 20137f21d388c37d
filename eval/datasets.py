"""Benchmarks as the harness sees them: memories (scenarios) with their questions and gold.

Mem-Gallery and LoCoMo come through ``adamm.formats.load``; the analytic development set is
generated (``adamm.eval.devset``: history + questions). Whatever the source, a question
carries its id (joinable with the benchmark file), gold answer, gold evidence round ids, and
how it is scored, so the runner and the report never branch on the dataset.

Broken gold evidence ids are normal in released benchmarks (LoCoMo has entries like
"D8:6; D9:17", "D" or ""): entries holding several ids are split, unusable pieces dropped,
ids naming no round of the conversation left out of the gold set; all of it is counted in
:attr:`EvalDataset.broken` and shown in the report, and none of it stops a run.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adamm.eval.devset.history import generate
from adamm.eval.devset.questions import generate_questions
from adamm.eval.metrics import is_refusal

__all__ = ["DATASETS", "EvalDataset", "EvalError", "EvalQuestion", "EvalScenario", "load_dataset", "parse_analytic_spec"]

DATASETS = ("mem-gallery", "locomo", "analytic")

#: LoCoMo's category numbers, as its paper and scripts use them.
LOCOMO_CATEGORIES = {"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop", "5": "adversarial"}


class EvalError(ValueError):
    """Bad evaluation input (data, options, an output directory from another configuration)."""


@dataclass
class EvalQuestion:
    question_id: str
    question: str
    category: str
    gold: str
    evidence: list[str] = field(default_factory=list)  #: gold round ids (valid ones only)
    unanswerable: bool = False  #: the right answer is a refusal (Mem-Gallery AR, LoCoMo 5)
    scoring: str = "text"  #: "text", "locomo" (LoCoMo's per-category rules) or "analytic"
    image: dict[str, Any] | None = None  #: the query graph's ``image`` input
    caption: str | None = None  #: the question image's caption, if any
    now: str | None = None
    dev: Any = None  #: the DevQuestion, for the analytic set's typed check


@dataclass
class EvalScenario:
    name: str
    rounds: list[Any]
    questions: list[EvalQuestion]
    data_hash: str = ""

    def __post_init__(self) -> None:
        if not self.data_hash:
            self.data_hash = rounds_hash(self.rounds)
        self.session_of = {r.round_id: r.session_id for r in self.rounds}
        self.n_sessions = len(set(self.session_of.values()))

    @property
    def memory_id(self) -> str:
        """One memory per scenario and content: changed data never reuses a stale memory."""
        return f"{self.name}@{self.data_hash[:12]}"


@dataclass
class EvalDataset:
    name: str
    source: str
    scenarios: list[EvalScenario]
    notes: list[str] = field(default_factory=list)
    broken: Counter = field(default_factory=Counter)  #: split / dropped / unknown evidence ids

    @property
    def data_hash(self) -> str:
        return hashlib.sha256("".join(s.data_hash for s in self.scenarios).encode()).hexdigest()

    def summary(self) -> dict[str, Any]:
        return {
            "dataset": self.name,
            "source": self.source,
            "scenarios": len(self.scenarios),
            "rounds": sum(len(s.rounds) for s in self.scenarios),
            "questions": sum(len(s.questions) for s in self.scenarios),
            "broken_evidence_ids": dict(self.broken),
            "notes": self.notes,
        }


def rounds_hash(rounds: list[Any]) -> str:
    h = hashlib.sha256()
    for r in rounds:
        doc = r.model_dump(mode="json") if hasattr(r, "model_dump") else r
        h.update(json.dumps(doc, sort_keys=True, ensure_ascii=False).encode())
        h.update(b"\n")
    return h.hexdigest()


def _image_input(image: Any) -> tuple[dict[str, Any] | None, str | None]:
    """A question's ImageRef as the query graph's ``image`` input, and its caption."""
    if image is None:
        return None, None
    caption = (image.caption or "").strip() or None
    doc = {k: getattr(image, k, None) for k in ("path", "url", "data")}
    doc = {k: v for k, v in doc.items() if v}
    if caption:
        doc["caption"] = caption
    return (doc or None), caption


def _valid_evidence(q: Any, session_of: dict[str, str], broken: Counter) -> list[str]:
    ids = list(dict.fromkeys(q.evidence))
    unknown = [e for e in ids if e not in session_of]
    broken["unknown"] += len(unknown)
    return [e for e in ids if e in session_of]


# -- Mem-Gallery ----------------------------------------------------------------------------


def _mem_gallery(path: Path, limit: int, max_scenarios: int) -> EvalDataset:
    from adamm.formats import load  # noqa: PLC0415 - heavy: loaded only by the commands that need it

    files = [path] if path.is_file() else sorted(path.glob("*.json"))
    if not files:
        raise EvalError(f"{path}: no *.json scenario files")
    if max_scenarios > 0:
        files = files[:max_scenarios]
    ds = EvalDataset("mem-gallery", str(path), [])
    for f in files:
        loaded = load(f, "mem-gallery")
        ds.notes.extend(f"{f.name}: {w}" for w in loaded.warnings if "image files not found" not in w)
        missing = sum(int(m.group(1)) for w in loaded.warnings if (m := re.match(r"(\d+) image files not found", w)))
        if missing:
            ds.broken["image_files_missing"] += missing
        (scenario,) = loaded.scenarios
        session_of = {r.round_id: r.session_id for r in scenario.rounds}
        questions = []
        for q in scenario.questions[: limit or None]:
            image, caption = _image_input(q.image)
            gold = q.answer or ""
            questions.append(EvalQuestion(
                q.question_id, q.question, q.category, gold, _valid_evidence(q, session_of, ds.broken),
                unanswerable=q.category == "AR" or (bool(gold) and is_refusal(gold)), image=image, caption=caption,
            ))
        ds.scenarios.append(EvalScenario(scenario.name, scenario.rounds, questions))
    return ds


# -- LoCoMo ---------------------------------------------------------------------------------


def _locomo(path: Path, limit: int, max_scenarios: int) -> EvalDataset:
    from adamm.formats import load, read_json_file  # noqa: PLC0415 - heavy: loaded only by the commands that need it
    from adamm.formats.locomo import parse_evidence  # noqa: PLC0415 - heavy: loaded only by the commands that need it

    files = [path] if path.is_file() else sorted(path.glob("*.json"))
    if not files:
        raise EvalError(f"{path}: no *.json LoCoMo files")
    ds = EvalDataset("locomo", str(path), [])
    for f in files:
        loaded = load(f, "locomo")
        ds.notes.extend(f"{f.name}: {w}" for w in loaded.warnings)
        raw = read_json_file(f)
        raw_samples = {str(s.get("sample_id")).strip(): s for s in ([raw] if isinstance(raw, dict) else raw)}
        for scenario in loaded.scenarios:
            if max_scenarios > 0 and len(ds.scenarios) >= max_scenarios:
                break
            raw_qa = raw_samples.get(scenario.name, {}).get("qa") or []
            for entry in raw_qa:
                evidence = entry.get("evidence") if isinstance(entry, dict) else None
                for piece in evidence if isinstance(evidence, list) else [evidence] if evidence is not None else []:
                    ids, dropped = parse_evidence([piece])
                    ds.broken["split"] += 1 if len(ids) > 1 else 0
                    ds.broken["dropped"] += dropped
            session_of = {r.round_id: r.session_id for r in scenario.rounds}
            questions = []
            for q in scenario.questions[: limit or None]:
                gold = q.answer or ""
                if q.category == "3":  # LoCoMo scores open-domain answers on their first part
                    gold = gold.split(";")[0].strip()
                questions.append(EvalQuestion(
                    q.question_id, q.question, q.category, gold, _valid_evidence(q, session_of, ds.broken),
                    unanswerable=q.category == "5", scoring="locomo",
                ))
            ds.scenarios.append(EvalScenario(scenario.name, scenario.rounds, questions))
    return ds


# -- the analytic development set -----------------------------------------------------------

_ANALYTIC_DEFAULTS = {"seed": 0, "days": 60, "per_category": 5}


def parse_analytic_spec(spec: str | None) -> dict[str, int]:
    """``seed=0,days=60,per_category=5`` (any subset; the rest default) as a dict."""
    out = dict(_ANALYTIC_DEFAULTS)
    for part in (spec or "").split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in out:
            raise EvalError(f"--data for analytic: expected seed=N,days=N,per_category=N, got {spec!r}")
        try:
            out[key] = int(value)
        except ValueError:
            raise EvalError(f"--data for analytic: {key} must be an integer, got {value!r}") from None
    if out["days"] < 1 or out["per_category"] < 1:
        raise EvalError("--data for analytic: days and per_category must be at least 1")
    return out


def _analytic(spec: str | None, limit: int) -> EvalDataset:
    params = parse_analytic_spec(spec)
    dev = generate(params["seed"], params["days"])
    dev_questions = generate_questions(dev, per_category=params["per_category"], seed=params["seed"])
    name = f"devset-s{params['seed']}-d{params['days']}"
    questions = []
    for q in dev_questions[: limit or None]:
        now = getattr(q, "now", None)
        questions.append(EvalQuestion(
            str(q.question_id), q.question, str(q.category), str(q.gold), list(getattr(q, "evidence_round_ids", []) or []),
            unanswerable=getattr(q, "kind", "") == "refusal", scoring="analytic",
            now=now.isoformat() if hasattr(now, "isoformat") else now, dev=q,
        ))
    source = ",".join(f"{k}={v}" for k, v in params.items())
    return EvalDataset("analytic", source, [EvalScenario(name, dev.rounds, questions)])


def load_dataset(name: str, data: str | None, *, limit: int = 0, max_scenarios: int = 0) -> EvalDataset:
    """Load a dataset; ``limit`` caps the questions per scenario, ``max_scenarios`` the
    scenarios (0 = all)."""
    if name not in DATASETS:
        raise EvalError(f"unknown dataset {name!r}; expected one of {', '.join(DATASETS)}")
    if name == "analytic":
        return _analytic(data, limit)
    if not data:
        raise EvalError(f"--data is required for --dataset {name}")
    path = Path(data).expanduser()
    if not path.exists():
        raise EvalError(f"{data}: no such file or directory")
    return (_mem_gallery if name == "mem-gallery" else _locomo)(path, limit, max_scenarios)
