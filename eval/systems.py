"""The systems the harness compares, and which configuration decides what ingestion builds.

A system is a compiled graph plus context overrides. The adamm variants run the ``query``
graph (the planner) with one component switched off each; the baselines run the ``flat``
graph, top-10 rounds by one ranking, with the same answerer role. Every system reads the same
ingested memory: ablations and baselines change only how a question is answered, so only the
fields in :data:`INGEST_FIELDS` key the ingestion cache.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BASELINE_K", "INGEST_FIELDS", "SYSTEMS", "System", "ingest_key", "parse_systems", "query_config"]

#: Rounds the flat baselines put in front of the answerer.
BASELINE_K = 10


@dataclass(frozen=True)
class System:
    name: str
    graph: str  #: "query" or "flat"
    overrides: dict[str, Any] = field(default_factory=dict)
    description: str = ""

    def context(self, base: Any) -> Any:
        return base.replace(**self.overrides) if self.overrides else base

    def compiled(self) -> Any:
        if self.graph == "flat":
            from adamm.graphs.flat import graph  # noqa: PLC0415 - builds the graphs (seconds): only where they run
        else:
            from adamm.graphs.query import graph  # noqa: PLC0415 - builds the graphs (seconds): only where they run
        return graph


SYSTEMS: dict[str, System] = {
    s.name: s
    for s in (
        System("adamm", "query", {}, "the query graph as configured"),
        System("no-analytic", "query", {"use_analytic": False}, "without analytic memory"),
        System("no-retrieval", "query", {"use_retrieval": False}, "without retrieval memory"),
        System("no-planning-context", "query", {"use_planning_context": False}, "without planning context"),
        System("no-progressive", "query", {"progressive": False}, "every step instantiated before any runs"),
        System("rag-dense", "flat", {"retrieval_mode": "dense", "evidence_budget": BASELINE_K},
               "flat dense top-10 rounds (MM-RAG)"),
        System("bm25", "flat", {"retrieval_mode": "bm25", "evidence_budget": BASELINE_K}, "flat BM25 top-10 rounds"),
        System("hybrid", "flat", {"retrieval_mode": "hybrid", "evidence_budget": BASELINE_K},
               "flat dense + BM25 (RRF) top-10 rounds"),
    )
}


def parse_systems(spec: str | None) -> list[str]:
    """Comma-separated system names (default: all), validated, in the order given."""
    if spec is None or not spec.strip():
        return list(SYSTEMS)
    names = list(dict.fromkeys(s.strip() for s in spec.split(",") if s.strip()))
    unknown = [n for n in names if n not in SYSTEMS]
    if unknown or not names:
        raise ValueError(f"--systems: unknown {', '.join(unknown) or '(none given)'}; expected some of "
                         + ", ".join(SYSTEMS))
    return names


#: Context fields that change what ingestion stores (extraction, tables, hierarchy, vectors).
#: Storage locations are not here: the harness chooses them from this key.
INGEST_FIELDS = (
    "theta_support", "theta_all_conf", "theta_ext_conf", "attribute_merge_threshold", "table_match_ratio", "ocr",
    "theta_episode", "episode_max_gap_hours", "theta_topic", "weight_text", "weight_visual", "describe_mode",
    "extractor", "describer", "model_base_url", "model_temperature", "text_encoder", "image_model", "image_weights",
)

#: Never part of a fingerprint: where data lives, not what the system does.
_LOCATION_FIELDS = ("home", "database_url", "chroma_url")


def _fingerprint(values: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(values, sort_keys=True, default=str).encode()).hexdigest()


def ingest_key(ctx: Any) -> str:
    """Cache key of the ingestion settings. Together with a memory id that carries the hash of
    its rounds (``EvalScenario.memory_id``) it names an ingested memory by data + configuration."""
    return _fingerprint({f: getattr(ctx, f, None) for f in INGEST_FIELDS})[:16]


def query_config(ctx: Any) -> dict[str, Any]:
    """The context fields that shape answers (everything but ingestion and locations)."""
    from adamm.nodes.context import Context  # noqa: PLC0415 - heavy: loaded only by the commands that need it

    skip = set(INGEST_FIELDS) | set(_LOCATION_FIELDS)
    return {f: getattr(ctx, f) for f in sorted(Context.field_names()) if f not in skip}
