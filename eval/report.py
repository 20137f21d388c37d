"""The report of a run directory: markdown tables, PNG charts, and the diff of two runs.

Everything is computed from ``records.jsonl`` (plus the run and dataset notes next to it), so
a report can be rebuilt at any time, also from a directory copied elsewhere, and a record
written by any version of the harness with the documented fields can be reported.

The headline accuracy of a dataset (charts, ``--compare``) is the LLM judge when the run had
one, else exact typed correctness for the analytic set, else token F1.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from adamm.eval.datasets import LOCOMO_CATEGORIES
from adamm.eval.run import K, latest, read_records
from adamm.eval.systems import SYSTEMS

__all__ = ["aggregate", "compare_runs", "headline_metric", "render_report", "write_report"]

MEM_GALLERY_ORDER = ("FR", "TTL", "VS", "MR", "AR", "VR", "TR", "CD", "KR")

#: (metric key in ``record["metrics"]``, column title) of the per-category tables, in order.
CATEGORY_TABLES = (
    (f"recall@{K}", f"Evidence recall@{K}"),
    (f"hit@{K}", f"Evidence hit@{K}"),
    ("f1", "Token F1"),
    ("bleu1", "BLEU-1"),
    ("em", "Exact match"),
    ("judge", "LLM-judge accuracy"),
    ("correct", "Typed correctness (analytic)"),
    ("numeric", "Numeric-tolerance accuracy (analytic)"),
)


def _mean(values: Iterable[Any]) -> float | None:
    vals = [float(v) for v in values if v is not None and not isinstance(v, str)]
    return sum(vals) / len(vals) if vals else None


def category_order(categories: Iterable[str]) -> list[str]:
    present = set(categories)
    known = [c for c in MEM_GALLERY_ORDER if c in present]
    rest = sorted(present - set(known), key=lambda c: (not c.isdigit(), int(c) if c.isdigit() else 0, c))
    return known + rest


def system_order(systems: Iterable[str]) -> list[str]:
    present = list(dict.fromkeys(systems))
    return [s for s in SYSTEMS if s in present] + [s for s in present if s not in SYSTEMS]


def _stats(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Means of every metric over the rows, plus cost, latency and error counts."""
    def metric(name: str) -> list[Any]:
        return [r["metrics"].get(name) for r in rows]

    answerable = [r for r in rows if not r["metrics"].get("unanswerable")]
    share = [r["metrics"]["sessions_accessed"] / r["metrics"]["sessions_total"]
             for r in rows if r["metrics"].get("sessions_total")]
    latencies = [r["latency_s"] for r in rows if r.get("latency_s") is not None]
    out: dict[str, Any] = {name: _mean(metric(name)) for name, _ in CATEGORY_TABLES}
    out.update({
        "n": len(rows),
        "refusal_acc": _mean(metric("refusal_correct")),
        "false_refusal": _mean([1.0 if r["metrics"].get("refused") else 0.0 for r in answerable]),
        "rounds_accessed": _mean(metric("rounds_accessed")),
        "sessions_accessed": _mean(metric("sessions_accessed")),
        "session_share": _mean(share),
        "calls": _mean(r.get("calls") for r in rows),
        "tokens_in": _mean(r.get("tokens_in") for r in rows),
        "tokens_out": _mean(r.get("tokens_out") for r in rows),
        "latency_mean": _mean(latencies),
        "latency_p50": statistics.median(latencies) if latencies else None,
        "errors": sum(1 for r in rows if r["metrics"].get("error")),
    })
    return out


def aggregate(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """``{dataset: {system: stats}}`` with ``stats["by_category"] = {category: stats}``; the
    newest record of each (dataset, system, question) counts."""
    grouped: dict[str, dict[str, list[Mapping[str, Any]]]] = {}
    for rec in latest(records).values():
        grouped.setdefault(rec["dataset"], {}).setdefault(rec["system"], []).append(rec)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for dataset, by_system in grouped.items():
        out[dataset] = {}
        for system in system_order(by_system):
            rows = by_system[system]
            stats = _stats(rows)
            stats["by_category"] = {c: _stats([r for r in rows if r["category"] == c])
                                    for c in category_order(r["category"] for r in rows)}
            out[dataset][system] = stats
    return out


def headline_metric(by_system: Mapping[str, Mapping[str, Any]]) -> tuple[str, str]:
    """(metric key, label) of a dataset's headline accuracy: judge, else typed correctness,
    else token F1 -- whichever the records have values for."""
    for key, label in (("judge", "LLM-judge accuracy"), ("correct", "typed correctness"), ("f1", "token F1")):
        if any(s.get(key) is not None for s in by_system.values()):
            return key, label
    return "f1", "token F1"


# -- markdown -------------------------------------------------------------------------------


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f}"


def _num(v: float | None, digits: int = 1) -> str:
    return "–" if v is None else f"{v:.{digits}f}"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return lines


def _category_label(dataset: str, category: str) -> str:
    if dataset == "locomo" and category in LOCOMO_CATEGORIES:
        return f"{category} ({LOCOMO_CATEGORIES[category]})"
    return category


def _overview(by_system: Mapping[str, Mapping[str, Any]], analytic: bool) -> list[str]:
    header = ["system", "n", "EM", "F1", "BLEU-1", "judge", f"R@{K}", f"H@{K}", "refusal acc", "false refusals",
              "rounds/q", "sessions/q (share)", "calls/q", "tokens in/q", "tokens out/q", "latency p50 s", "errors"]
    if analytic:
        header[6:6] = ["correct", "numeric"]
    rows = []
    for system, s in by_system.items():
        row = [system, str(s["n"]), _pct(s["em"]), _pct(s["f1"]), _pct(s["bleu1"]), _pct(s["judge"]),
               _pct(s[f"recall@{K}"]), _pct(s[f"hit@{K}"]), _pct(s["refusal_acc"]), _pct(s["false_refusal"]),
               _num(s["rounds_accessed"]), f"{_num(s['sessions_accessed'])} ({_pct(s['session_share'])} %)",
               _num(s["calls"], 2), _num(s["tokens_in"], 0), _num(s["tokens_out"], 0), _num(s["latency_p50"], 3),
               str(s["errors"])]
        if analytic:
            row[6:6] = [_pct(s["correct"]), _pct(s["numeric"])]
        rows.append(row)
    return _table(header, rows)


def _by_category(dataset: str, by_system: Mapping[str, Mapping[str, Any]], key: str) -> list[str]:
    systems = list(by_system)
    cats = category_order(c for s in by_system.values() for c in s["by_category"])
    rows = []
    for c in cats:
        n = max((by_system[s]["by_category"].get(c, {}).get("n", 0) for s in systems), default=0)
        rows.append([_category_label(dataset, c), str(n)]
                    + [_pct(by_system[s]["by_category"].get(c, {}).get(key)) for s in systems])
    n_all = max((by_system[s]["n"] for s in systems), default=0)
    rows.append(["**all**", str(n_all)] + [f"**{_pct(by_system[s].get(key))}**" for s in systems])
    return _table(["type", "n", *systems], rows)


def render_report(out: str | Path, charts: Mapping[str, Sequence[str]] | None = None) -> str:
    """The markdown report of a run directory."""
    out = Path(out)
    summary = aggregate(read_records(out))
    runs = _read(out / "runs.json")
    datasets = _read(out / "datasets.json")
    lines = ["# adamm evaluation report", "",
             "Scores in percent (means over questions); `–` = not applicable (no gold evidence, no "
             "unanswerable question, no judge). Field definitions: README, \"Evaluation\".", ""]
    if not summary:
        lines.append("No records yet.")
    for dataset, by_system in summary.items():
        run = runs.get(dataset, {})
        info = datasets.get(dataset, {})
        config = run.get("config", {})
        lines += [f"## {dataset}", ""]
        if info:
            lines.append(f"{info.get('scenarios')} memories, {info.get('rounds')} rounds, {info.get('questions')} "
                         f"questions loaded (`{info.get('source')}`).")
        if config:
            roles = ", ".join(f"{r} `{config.get(r)}`" for r in ("planner", "answerer", "judge") if r in config)
            lines.append(f"Roles: {roles}; evidence budget {config.get('evidence_budget')}; "
                         f"retrieval `{config.get('retrieval_mode')}`.")
        lines.append("")
        key, label = headline_metric(by_system)
        notes = []
        if all(s.get("judge") is None for s in by_system.values()):
            notes.append("LLM-judge accuracy skipped: the judge role is `rules` (set `ADAMM_JUDGE=provider:model`).")
        broken = info.get("broken_evidence_ids") or {}
        parts = {"split": "entries holding several ids split", "dropped": "unusable pieces dropped",
                 "unknown": "ids naming no round left out of the gold set"}
        if any(broken.get(k) for k in parts):
            notes.append("Benchmark evidence ids: "
                         + "; ".join(f"{broken[k]} {label}" for k, label in parts.items() if broken.get(k)) + ".")
        if broken.get("image_files_missing"):
            notes.append(f"{broken['image_files_missing']} image files of the benchmark are absent; their captions "
                         "stand for them.")
        errors = sum(s["errors"] for s in by_system.values())
        if errors:
            notes.append(f"{errors} answers failed with an error (empty prediction, scored as such; rerun to retry).")
        if dataset == "locomo":
            notes.append("Category 5 (adversarial) is scored as LoCoMo does: EM/F1/BLEU-1 are 1 when the answer "
                         "declines, 0 otherwise; category 1 uses LoCoMo's multi-answer F1.")
        lines += [f"- {n}" for n in notes] + ([""] if notes else [])
        lines += ["### Overview", "", *_overview(by_system, dataset == "analytic"), ""]
        for metric, title in CATEGORY_TABLES:
            if all(s.get(metric) is None for s in by_system.values()):
                continue
            lines += [f"### {title} by question type", "", *_by_category(dataset, by_system, metric), ""]
        for png in (charts or {}).get(dataset, []):
            lines += [f"![{png}]({png})", ""]
        lines += [f"Headline accuracy in the charts: {label}.", ""]
    return "\n".join(lines).rstrip() + "\n"


def _read(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


# -- charts ---------------------------------------------------------------------------------


def _charts(out: Path, summary: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> dict[str, list[str]]:
    import matplotlib  # noqa: PLC0415 - optional: plots only

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - optional: plots only

    made: dict[str, list[str]] = {}
    for dataset, by_system in summary.items():
        key, label = headline_metric(by_system)
        systems = list(by_system)
        cats = category_order(c for s in by_system.values() for c in s["by_category"])
        fig, ax = plt.subplots(figsize=(min(14.0, max(6.0, 1.5 + 0.15 * len(cats) * max(1, len(systems)))), 4.5))
        width = 0.8 / max(1, len(systems))
        for i, system in enumerate(systems):
            ys = [100 * (by_system[system]["by_category"].get(c, {}).get(key) or 0.0) for c in cats]
            ax.bar([j + i * width for j in range(len(cats))], ys, width, label=system)
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(cats))])
        ax.set_xticklabels([_category_label(dataset, c) for c in cats], rotation=30, ha="right")
        ax.set_ylabel(f"{label} (%)")
        ax.set_title(f"{dataset}: {label} by question type")
        ax.legend(fontsize="small", ncol=2)
        fig.tight_layout()
        acc_png = f"{dataset}-accuracy-by-type.png"
        fig.savefig(out / acc_png, dpi=100)
        plt.close(fig)

        use_tokens = any((s.get("tokens_in") or 0) + (s.get("tokens_out") or 0) > 0 for s in by_system.values())
        fig, ax = plt.subplots(figsize=(6, 4))
        for i, (system, s) in enumerate(by_system.items()):
            x = (s["tokens_in"] or 0) + (s["tokens_out"] or 0) if use_tokens else 1000 * (s["latency_mean"] or 0.0)
            y = 100 * (s.get(key) or 0.0)
            ax.scatter([x], [y])
            # staggered labels: systems with equal scores would otherwise print over each other
            ax.annotate(system, (x, y), textcoords="offset points", xytext=(4, 4 - 10 * (i % 3)), fontsize="small")
        ax.set_xlabel("tokens per question" if use_tokens else "mean latency per question (ms)")
        ax.set_ylabel(f"{label} (%)")
        ax.set_title(f"{dataset}: cost vs accuracy")
        fig.tight_layout()
        cost_png = f"{dataset}-cost-vs-accuracy.png"
        fig.savefig(out / cost_png, dpi=100)
        plt.close(fig)
        made[dataset] = [acc_png, cost_png]
    return made


def write_report(out: str | Path) -> Path:
    """Write ``report.md`` and the PNG charts into the run directory; returns the report path."""
    out = Path(out)
    charts = _charts(out, aggregate(read_records(out)))
    path = out / "report.md"
    path.write_text(render_report(out, charts), encoding="utf-8")
    return path


# -- compare --------------------------------------------------------------------------------

_COMPARED = (("f1", "F1"), ("em", "EM"), ("bleu1", "BLEU-1"), (f"recall@{K}", f"R@{K}"), ("judge", "judge"),
             ("correct", "correct"))


def _delta(a: float | None, b: float | None) -> str:
    return "–" if a is None or b is None else f"{100 * (b - a):+.1f}"


def compare_runs(a: str | Path, b: str | Path) -> str:
    """Markdown diff of run B against run A, on the questions both answered (paired)."""
    rec_a, rec_b = latest(read_records(a)), latest(read_records(b))
    common = sorted(set(rec_a) & set(rec_b))
    lines = [f"# Comparison: B = `{b}` vs A = `{a}`", "",
             f"{len(common)} (dataset, system, question) pairs answered by both runs "
             f"({len(rec_a)} in A, {len(rec_b)} in B); Δ = B − A in percentage points.", ""]
    if not common:
        return "\n".join(lines + ["Nothing to compare."]) + "\n"
    sa, sb = aggregate(rec_a[k] for k in common), aggregate(rec_b[k] for k in common)
    for dataset in sa:
        key, label = headline_metric({**sa[dataset], **sb[dataset]})
        metrics = [(k_, t) for k_, t in _COMPARED if any(s.get(k_) is not None for s in sa[dataset].values())]
        header = ["system", "n"] + [f"{t} A → B (Δ)" for _, t in metrics] + [f"{label}: B better / worse", "latency p50 s A → B"]
        rows = []
        for system in sa[dataset]:
            x, y = sa[dataset][system], sb[dataset][system]
            pairs = [(rec_a[k_], rec_b[k_]) for k_ in common if k_[0] == dataset and k_[1] == system]
            better = sum(1 for p, q in pairs if _gt(q["metrics"].get(key), p["metrics"].get(key)))
            worse = sum(1 for p, q in pairs if _gt(p["metrics"].get(key), q["metrics"].get(key)))
            rows.append([system, str(x["n"])]
                        + [f"{_pct(x.get(k_))} → {_pct(y.get(k_))} ({_delta(x.get(k_), y.get(k_))})" for k_, _ in metrics]
                        + [f"{better} / {worse}", f"{_num(x['latency_p50'], 3)} → {_num(y['latency_p50'], 3)}"])
        lines += [f"## {dataset}", "", *_table(header, rows), ""]
        cats = category_order(c for s in sa[dataset].values() for c in s["by_category"])
        cat_rows = [[_category_label(dataset, c)] + [
            _delta(sa[dataset][s]["by_category"].get(c, {}).get(key), sb[dataset][s]["by_category"].get(c, {}).get(key))
            for s in sa[dataset]] for c in cats]
        lines += [f"Δ {label} by question type:", "", *_table(["type", *sa[dataset]], cat_rows), ""]
    return "\n".join(lines).rstrip() + "\n"


def _gt(x: Any, y: Any) -> bool:
    return x is not None and y is not None and float(x) > float(y)

