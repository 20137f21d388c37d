"""Context: paper defaults, precedence explicit > environment > default, validation at start-up."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from adamm.nodes.context import ConfigError, Context


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    for key in list(os.environ):
        if key.startswith("ADAMM_"):
            monkeypatch.delenv(key)


def test_defaults_are_the_papers() -> None:
    c = Context()
    assert (c.theta_support, c.theta_all_conf, c.theta_ext_conf) == (4, 0.60, 0.80)
    assert (c.theta_episode, c.theta_topic, c.episode_max_gap_hours) == (0.60, 0.65, 24.0)
    assert (c.weight_text, c.weight_visual, c.lambda_meta) == (0.60, 0.40, 0.70)
    assert (c.k_tab, c.k_epi, c.max_plan_steps, c.evidence_budget, c.t_max) == (5, 5, 3, 10, 20)
    assert all(getattr(c, role) == "rules" for role in ("extractor", "describer", "planner", "answerer", "judge"))
    assert c.resolved_database_url().startswith("sqlite:///") and c.resolved_database_url().endswith("adamm.db")


def test_precedence_explicit_over_env_over_default(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("ADAMM_THETA_SUPPORT", "6")
    monkeypatch.setenv("ADAMM_USE_ANALYTIC", "false")
    monkeypatch.setenv("ADAMM_HOME", str(tmp_path))
    monkeypatch.setenv("ADAMM_PLANNER", "openai:gpt-4o-mini")
    c = Context()
    assert c.theta_support == 6 and c.use_analytic is False and c.home == str(tmp_path)
    assert c.planner == "openai:gpt-4o-mini"
    assert Context(theta_support=3).theta_support == 3
    # an explicit value equal to the default still wins over the environment
    assert Context(theta_support=4).theta_support == 4
    assert Context.coerce({"theta_support": 5}).theta_support == 5
    assert Context.coerce(None).theta_support == 6


def test_coerce_from_runtime_dict_and_foreign_objects() -> None:
    @dataclass
    class HostContext:  # a host graph's own context with unrelated fields
        user_name: str = "ada"
        theta_topic: float = 0.7
        system_prompt: str = "be nice"

    c = Context.coerce(HostContext())
    assert c.theta_topic == 0.7 and c.theta_support == 4

    class FakeRuntime:
        def __init__(self, context):
            self.context, self.store = context, None

    assert Context.coerce(FakeRuntime({"k_tab": 2, "unrelated": 1})).k_tab == 2
    assert Context.coerce(FakeRuntime(None)).k_tab == 5
    own = Context(k_epi=3)
    assert Context.coerce(FakeRuntime(own)) is own
    assert Context.coerce(own, k_tab=1).k_tab == 1 and Context.coerce(own, k_tab=1).k_epi == 3
    with pytest.raises(ConfigError, match="unknown context field"):
        Context.coerce(None, not_a_field=1)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"theta_all_conf": 1.7}, "theta_all_conf"),
        ({"theta_topic": -0.1}, "theta_topic"),
        ({"theta_support": 0}, "theta_support"),
        ({"theta_support": 2.5}, "theta_support"),
        ({"t_max": "many"}, "t_max"),
        ({"use_analytic": "maybe"}, "use_analytic"),
        ({"describe_mode": "sometimes"}, "describe_mode"),
        ({"retrieval_mode": "magic"}, "retrieval_mode"),
        ({"planner": "foo:bar"}, "planner"),
        ({"answerer": "gpt-4o"}, "answerer"),
        ({"chroma_url": "localhost:8000"}, "chroma_url"),
        ({"weight_text": 0.0, "weight_visual": 0.0}, "weight_text"),
    ],
)
def test_bad_values_fail_naming_the_field(kwargs, field) -> None:
    with pytest.raises(ConfigError, match=field):
        Context(**kwargs)


def test_bad_environment_value_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADAMM_THETA_EXT_CONF", "1.5")
    with pytest.raises(ConfigError, match="theta_ext_conf"):
        Context()
    monkeypatch.setenv("ADAMM_THETA_EXT_CONF", "high")
    with pytest.raises(ConfigError, match=r"\$ADAMM_THETA_EXT_CONF"):
        Context()
    monkeypatch.setenv("ADAMM_EXTRACTOR", "nosuchprovider:model")
    monkeypatch.delenv("ADAMM_THETA_EXT_CONF")
    with pytest.raises(ConfigError, match="extractor.*unknown provider 'nosuchprovider'"):
        Context()


def test_the_model_cache_is_one_per_user_not_one_per_data_directory(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """Two data directories share the text model's export: it depends on the model only, and
    re-exporting it per directory cost 30-45 s and 87 MB each."""
    import sys

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    a, b = Context(home=str(tmp_path / "a")), Context(home=str(tmp_path / "b"))
    assert a.model_cache_path() == b.model_cache_path()
    if sys.platform.startswith("linux"):
        assert a.model_cache_path() == tmp_path / "cache" / "adamm" / "models"
    monkeypatch.setenv("ADAMM_MODEL_CACHE", str(tmp_path / "mine"))
    assert Context(home=str(tmp_path / "a")).model_cache_path() == tmp_path / "mine"
    assert Context(model_cache=str(tmp_path / "explicit")).model_cache_path() == tmp_path / "explicit"
