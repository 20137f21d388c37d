"""Run-time configuration of adamm: every parameter of the method, the model roles, the stores.

One dataclass, read by every node through ``Runtime[Context]``. Values come from three places,
in this order of precedence:

1. an explicit value (a keyword argument, a key of the dict given as the graph context, or an
   attribute of a host graph's own context object that has a field of the same name);
2. the environment variable ``ADAMM_<FIELD>`` (e.g. ``ADAMM_THETA_SUPPORT=5``);
3. the default below, which for the method's parameters is the paper's (AdaMM, Appendix C,
   Table 5).

Invalid values fail when the context is built, i.e. at start-up, never in the middle of an
ingestion, with a message that names the field (and the environment variable, if it came
from there).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, get_args

from adamm.nodes.registry import RULES, registered_models  # RULES: the built-in offline backend
from adamm.stores.paths import default_home, model_cache_dir

ENV_PREFIX = "ADAMM_"

#: The model roles of the method. Each is a "provider:model" string or ``rules``.
ROLES = ("extractor", "describer", "planner", "answerer", "judge")

#: Providers LangChain's ``init_chat_model`` knows (checked again against the installed
#: LangChain at resolve time; this list only lets a typo fail before anything runs).
KNOWN_PROVIDERS = frozenset(
    {
        "openai", "anthropic", "azure_openai", "azure_ai", "google_vertexai", "google_genai",
        "google_anthropic_vertex", "bedrock", "bedrock_converse", "cohere", "fireworks",
        "together", "mistralai", "huggingface", "groq", "ollama", "deepseek", "ibm", "nvidia",
        "xai", "perplexity", "upstage", "openrouter",
    }
)

DescribeMode = Literal["on_close", "eager"]
RetrievalMode = Literal["hybrid", "dense", "bm25"]
TextEncoderBackend = Literal["auto", "onnx", "onnx-int8", "torch"]
StructuredOutput = Literal["auto", "json_schema", "function_calling", "json_mode"]
_CHOICES = {"DescribeMode": DescribeMode, "RetrievalMode": RetrievalMode, "TextEncoderBackend": TextEncoderBackend,
            "StructuredOutput": StructuredOutput}


class ConfigError(ValueError):
    """A configuration value is invalid; the message names the field."""


def _env_name(name: str) -> str:
    return ENV_PREFIX + name.upper()


def _env(name: str, default: Any) -> Any:
    """Default factory: the environment's value for ``name`` if set, else ``default``.

    Parsing and validation happen in ``__post_init__`` so that the error can name both the
    field and the variable.
    """

    def factory() -> Any:
        raw = os.environ.get(_env_name(name))
        return default if raw is None or raw == "" else _EnvValue(raw)

    return field(default_factory=factory)


class _EnvValue(str):
    """Marks a raw string that came from the environment (for error messages)."""


@dataclass(kw_only=True)
class Context:
    """Everything a run of adamm can be configured with.

    Thresholds and budgets default to the AdaMM paper's values (Table 5). Model roles default
    to ``rules``, the offline backend, so adamm runs with no API key and no server.
    """

    # -- analytic memory: schema discovery and evolution (paper Eq. 5-7) -----------------
    theta_support: int = _env("theta_support", 4)
    """θs: minimum number of rounds whose attribute set contains a candidate schema."""
    theta_all_conf: float = _env("theta_all_conf", 0.60)
    """θa: minimum all-confidence supp(C) / max_a supp({a}) to admit a new schema."""
    theta_ext_conf: float = _env("theta_ext_conf", 0.80)
    """θe: minimum extension-confidence supp(C) / supp(A) to grow schema A into C ⊃ A."""
    attribute_merge_threshold: float = _env("attribute_merge_threshold", 0.85)
    """Cosine similarity above which a new attribute name is merged into a known one."""
    table_match_ratio: float = _env("table_match_ratio", 0.5)
    """Share of a schema's attributes a round must report to get a row in its table (a row of
    an evolved schema, or one missing an optional field, still counts)."""
    optional_fields: bool = _env("optional_fields", True)
    """Grow a schema by a field that occurs in θs of its rounds and mostly with it (supp(A+x) /
    supp({x}) ≥ θa), as a nullable column, although ext-conf stays below θe: a pulse the
    monitor did not show, power only on one bike. False: the paper's evolution rule alone."""
    rules_extractor: str = _env("rules_extractor", "records")
    """Which offline extractor the ``rules`` extractor role runs: ``labels`` (labelled values of
    dashboards and log lines, one record per round) or ``records`` (the span model of
    ``nodes/rules/observe.py``: money, prices, durations, pairs, missing fields, categorical
    fields, several records per round, observed dates from the text). ``records`` is being
    brought to parity on the generated dashboard history before it becomes the default."""
    ocr: bool = _env("ocr", True)
    """Read text in image files with Tesseract, when it is installed and a file is present."""

    # -- retrieval memory: hierarchy (paper Eq. 11-13) ---------------------------------
    theta_episode: float = _env("theta_episode", 0.60)
    """θepi: fused similarity for an event to join the open episode."""
    episode_max_gap_hours: float = _env("episode_max_gap_hours", 24.0)
    """An event further than this from the open episode's last event starts a new one."""
    theta_topic: float = _env("theta_topic", 0.65)
    """θtopic: fused similarity for a closed episode to join an existing topic."""
    similarity_offset: float | None = _env("similarity_offset", None)
    """Added to text cosine before θepi/θtopic are applied, so the paper's thresholds keep their
    meaning with another encoder. None: per encoder - 0.25 for the packaged all-MiniLM-L6-v2,
    whose cosine between consecutive turns of one conversation has a median of only 0.52 (at a
    raw 0.60 episodes average 1.5 events), 0 otherwise. 0.60 then means a raw MiniLM 0.35."""
    weight_text: float = _env("weight_text", 0.60)
    """w_t in the late fusion of text and visual similarity."""
    weight_visual: float = _env("weight_visual", 0.40)
    """w_v in the late fusion; renormalized away when a side has no image."""
    describe_mode: DescribeMode = _env("describe_mode", "on_close")
    """When episode/topic descriptions are regenerated: every insertion, or on closing."""
    retrieval_mode: RetrievalMode = _env("retrieval_mode", "hybrid")
    """Ranking for retrieval tools: dense+BM25 fused by RRF, or either alone (ablations)."""
    rrf_k: int = _env("rrf_k", 60)
    """The constant of Reciprocal Rank Fusion."""
    context_weight: float = _env("context_weight", 6.0)
    """EventLocate: weight of the best score in an event's conversation added to the event's
    own (0 ranks events alone). Evidence clusters in one conversation, so the best-matching
    conversation's rounds should fill the budget before weak matches elsewhere; on the
    Mem-Gallery split recall@10 is flat (87.6-88.0) for weights 4 to 8."""

    # -- query: planning context, plan, evidence (paper Eq. 8-10) ----------------------
    lambda_meta: float = _env("lambda_meta", 0.70)
    """λ: weight of embedding similarity vs BM25 when ranking tables and episodes."""
    k_tab: int = _env("k_tab", 5)
    """Tables kept in the planning context."""
    k_epi: int = _env("k_epi", 5)
    """Episodes kept in the planning context."""
    max_plan_steps: int = _env("max_plan_steps", 3)
    """Steps in the initial high-level plan."""
    evidence_budget: int = _env("evidence_budget", 10)
    """Evidence units shared by all tool calls of one question."""
    t_max: int = _env("t_max", 20)
    """Reflection step budget: tool executions per question, at most."""
    extract_gate: bool = _env("extract_gate", True)
    """With a model extractor: call it only for rounds that can hold a value (a number in the
    user's words, an image, metadata); the rules extractor reads the others, for free."""
    extract_batch: int = _env("extract_batch", 4)
    """Rounds per extractor model call (1-64); a round the answer leaves out gets a call of its own."""
    use_analytic: bool = _env("use_analytic", True)
    use_retrieval: bool = _env("use_retrieval", True)
    use_planning_context: bool = _env("use_planning_context", True)
    progressive: bool = _env("progressive", True)
    """False instantiates every step's arguments before executing any (ablation)."""

    # -- model roles ----------------------------------------------------------------------
    extractor: str = _env("extractor", RULES)
    describer: str = _env("describer", RULES)
    planner: str = _env("planner", RULES)
    answerer: str = _env("answerer", RULES)
    judge: str = _env("judge", RULES)
    model_base_url: str | None = _env("model_base_url", None)
    """Base URL of an OpenAI-compatible server (vLLM, Ollama, llama.cpp) for ``openai:`` roles."""
    model_temperature: float = _env("model_temperature", 0.0)
    model_max_retries: int = _env("model_max_retries", 2)
    """Retries of a model call whose structured output fails validation."""
    model_timeout: float = _env("model_timeout", 60.0)
    """Seconds one model request may take; a timed-out, 429 or 5xx request is retried by the
    client with backoff, then the node goes on with its ``rules`` implementation."""
    structured_output: StructuredOutput = _env("structured_output", "auto")
    """How a model is asked for structured output: ``json_schema`` (``response_format``),
    ``function_calling`` (a tool call), ``json_mode`` (``json_object`` plus the schema in the
    prompt). ``auto``: the model's default, and when its server rejects that (400/422), the
    next of these, remembered for the rest of the process."""

    # -- encoders ---------------------------------------------------------------------------
    text_encoder: str | None = _env("text_encoder", None)
    """Path of a sentence-transformers model; default: the packaged all-MiniLM-L6-v2."""
    text_encoder_backend: TextEncoderBackend = _env("text_encoder_backend", "auto")
    """``onnx`` runs the model with ONNX Runtime (exported once, no torch in the process);
    ``onnx-int8`` the same with int8 weights (about twice as fast on a CPU; vectors close to,
    not equal to, the model's); ``torch`` with sentence-transformers; ``auto``: ONNX for the
    packaged model, torch for others."""
    model_cache: str | None = _env("model_cache", None)
    """Directory for files derived from models (the ONNX export); default the user's cache
    directory (``~/.cache/adamm/models`` on Linux), shared by every data directory."""
    image_model: str | None = _env("image_model", None)
    """open_clip model name (e.g. ``ViT-B-32``) or a path to a model config JSON."""
    image_weights: str | None = _env("image_weights", None)
    """open_clip weights: a local checkpoint path or a tag; none means caption-only images."""

    # -- storage ------------------------------------------------------------------------------
    home: str = field(default_factory=default_home)
    """Data directory for the embedded default (SQLite file, Chroma files, caches)."""
    database_url: str | None = _env("database_url", None)
    """Any SQLAlchemy URL; default ``sqlite:///<home>/adamm.db``."""
    chroma_url: str | None = _env("chroma_url", None)
    """``http://host:port`` of a Chroma server; default: a persistent client under ``home``."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            try:
                setattr(self, f.name, _coerce(f.name, f.type, value))
            except (TypeError, ValueError) as exc:
                origin = (
                    f" (from ${_env_name(f.name)})" if isinstance(value, _EnvValue) else ""
                )
                raise ConfigError(f"invalid {f.name}{origin}: {exc}") from None
        self._validate()

    # -- validation -----------------------------------------------------------------------

    def _validate(self) -> None:
        unit = (
            "theta_all_conf", "theta_ext_conf", "attribute_merge_threshold", "table_match_ratio", "theta_episode",
            "theta_topic", "weight_text", "weight_visual", "lambda_meta",
        )
        for name in unit:
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise ConfigError(f"invalid {name}: must be between 0 and 1, got {v}")
        positive = (
            "theta_support", "k_tab", "k_epi", "max_plan_steps", "evidence_budget", "t_max",
            "rrf_k",
        )
        for name in positive:
            if getattr(self, name) < 1:
                raise ConfigError(f"invalid {name}: must be at least 1, got {getattr(self, name)}")
        if self.rules_extractor not in ("labels", "records"):
            raise ConfigError(f"invalid rules_extractor: expected 'labels' or 'records', got {self.rules_extractor!r}")
        if self.context_weight < 0:
            raise ConfigError(f"invalid context_weight: must be 0 or more, got {self.context_weight}")
        if self.episode_max_gap_hours <= 0:
            raise ConfigError("invalid episode_max_gap_hours: must be positive")
        if self.weight_text + self.weight_visual <= 0:
            raise ConfigError("invalid weight_text/weight_visual: both are zero")
        if self.model_max_retries < 0:
            raise ConfigError("invalid model_max_retries: must be 0 or more")
        if not 1 <= self.extract_batch <= 64:
            raise ConfigError(f"invalid extract_batch: must be between 1 and 64, got {self.extract_batch}")
        if self.model_timeout <= 0:
            raise ConfigError("invalid model_timeout: must be positive")
        if not 0.0 <= self.model_temperature <= 2.0:
            raise ConfigError("invalid model_temperature: must be between 0 and 2")
        for role in ROLES:
            check_role_spec(role, getattr(self, role))
        if self.chroma_url and not self.chroma_url.startswith(("http://", "https://")):
            raise ConfigError(f"invalid chroma_url: expected http(s)://host:port, got {self.chroma_url!r}")

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def field_names(cls) -> frozenset[str]:
        return frozenset(f.name for f in fields(cls))

    @classmethod
    def coerce(cls, source: Any = None, **overrides: Any) -> "Context":
        """Build a Context from whatever a host hands us.

        ``source`` may be ``None``, a ``Context``, a mapping, a LangGraph ``Runtime`` (its
        ``.context`` is used) or any object - a host graph's own context dataclass, say -
        whose attributes with our field names are taken and the rest ignored.
        """
        if source is not None and hasattr(source, "context") and hasattr(source, "store"):
            source = source.context  # a langgraph Runtime
        if isinstance(source, cls) and not overrides:
            return source
        names = cls.field_names()
        values: dict[str, Any] = {}
        if source is None:
            pass
        elif isinstance(source, cls):
            values = {n: getattr(source, n) for n in names}
        elif isinstance(source, dict):
            values = {k: v for k, v in source.items() if k in names}
        else:
            values = {n: getattr(source, n) for n in names if hasattr(source, n)}
        # A host's settings often leave a shared field unset (``home: str | None = None``); for
        # a field of ours that cannot be None, that means "not given", not an invalid value.
        nullable = {f.name for f in fields(cls) if "None" in str(f.type)}
        values = {k: v for k, v in values.items() if v is not None or k in nullable}
        values.update({k: v for k, v in overrides.items() if v is not None})
        unknown = set(overrides) - names
        if unknown:
            raise ConfigError(f"unknown context field(s): {', '.join(sorted(unknown))}")
        return cls(**values)

    def replace(self, **changes: Any) -> "Context":
        return dataclasses.replace(self, **changes)

    # -- derived locations --------------------------------------------------------------

    @property
    def home_path(self) -> Path:
        return Path(self.home).expanduser()

    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.home_path / 'adamm.db'}"

    def chroma_path(self) -> Path:
        return self.home_path / "chroma"

    def model_cache_path(self) -> Path:
        return model_cache_dir(self.model_cache, self.home)


# -- value parsing -------------------------------------------------------------------------


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _coerce(name: str, annotation: Any, value: Any) -> Any:
    """Turn an environment string (or a loosely typed dict value) into the field's type."""
    ann = str(annotation)
    if value is None:
        if "None" in ann:
            return None
        raise ValueError("must not be empty")
    is_env = isinstance(value, _EnvValue)
    if is_env:
        value = str(value)
    if ann == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise ValueError(f"expected true or false, got {value!r}")
    if ann == "int":
        if isinstance(value, bool):
            raise ValueError(f"expected an integer, got {value!r}")
        if isinstance(value, float) and not value.is_integer():
            raise ValueError(f"expected an integer, got {value!r}")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ValueError(f"expected an integer, got {value!r}") from None
    if ann in ("float", "float | None"):
        if isinstance(value, bool):
            raise ValueError(f"expected a number, got {value!r}")
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ValueError(f"expected a number, got {value!r}") from None
    if ann in _CHOICES:
        allowed = get_args(_CHOICES[ann])
        if value not in allowed:
            raise ValueError(f"expected one of {', '.join(allowed)}, got {value!r}")
        return value
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {type(value).__name__}")
    return value


def known_providers() -> frozenset[str]:
    """The providers the installed LangChain can build, or our fallback list."""
    try:
        from langchain.chat_models.base import _BUILTIN_PROVIDERS  # noqa: PLC0415 - heavy: only to list providers
    except ImportError:  # older or newer LangChain layout
        return KNOWN_PROVIDERS
    return frozenset(_BUILTIN_PROVIDERS) | KNOWN_PROVIDERS


def check_role_spec(role: str, spec: str) -> None:
    """Validate a model role string: ``rules``, a name given to ``models.register_model``, or
    ``provider:model`` with a known provider."""
    if spec == RULES or spec in registered_models():
        return
    provider, sep, model = spec.partition(":")
    if not sep or not provider or not model:
        raise ConfigError(
            f"invalid {role}: expected 'rules' or 'provider:model' (e.g. 'openai:gpt-4o-mini'), got {spec!r}"
        )
    if provider not in known_providers():
        raise ConfigError(
            f"invalid {role}: unknown provider {provider!r} (known: rules, {', '.join(sorted(known_providers()))})"
        )
