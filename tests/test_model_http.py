"""The model path over real HTTP (a scripted OpenAI-compatible server on loopback): request and
reply shapes, usage accounting, and failures that cost a round or a question its model - never
the run, and never a round that was accepted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adamm.cli import main
from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.cost import summarize
from adamm.tests.openai_stub import OpenAIStub

@pytest.fixture(autouse=True)
def fresh_breaker():
    """Each test starts with no memory of an earlier test's failing server."""
    from adamm.nodes.models import clear_model_cache

    clear_model_cache()
    yield
    clear_model_cache()


ROUNDS = [
    {"round_id": f"s{i}", "timestamp": f"2025-03-{i + 1:02d}T07:30:00", "user_text": f"Slept {h} hours last night."}
    for i, h in enumerate([7.5, 6.0, 8.0, 6.5, 7.0])
] + [{"round_id": "p1", "timestamp": "2025-03-06T09:00:00", "user_text": "We named our puppy Biscuit."}]


def write(path: Path) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in ROUNDS), encoding="utf-8")
    return path


def observations(memory_id: str) -> list[tuple[str, str, float | None, str]]:
    sql = backends(Context()).sql
    return sorted((o.round_id, o.attribute, o.value_num, o.value_text or "") for o in sql.observations(memory_id))


def test_a_failing_model_server_costs_each_round_its_model_not_the_run(home, tmp_path, monkeypatch) -> None:
    from adamm.graphs.ingest import graph

    path = write(tmp_path / "rounds.jsonl")
    assert main(["ingest", str(path), "--memory-id", "offline"]) == 0
    with OpenAIStub(fault="500") as stub:
        ctx = Context(extractor="openai:stub", model_base_url=stub.url, model_timeout=5)
        out = graph.invoke({"memory_id": "wired", "rounds": ROUNDS}, context=ctx)
        assert stub.requests, "the extractor never reached the server"
    sleep = len(ROUNDS) - 1  # the puppy round holds no value: the gate spares it the model call
    assert out["stored"]["rounds_added"] == len(ROUNDS) and out["stored"]["extraction_failures"] == sleep
    assert out["stored"]["extractor_skipped"] == 1
    cost = summarize(out["cost"])
    # two calls (4 rounds + 1 round, extract_batch 4) fell back; no round is retried on a dead server
    assert cost["by_role"]["extractor"]["fallbacks"] == 2 and cost["fallbacks"] == 2
    # every round was read by the rules instead: the same observations as an offline ingest
    assert observations("wired") == observations("offline") != []


def test_a_failing_planner_and_answerer_still_answer_like_the_rules(home, tmp_path, monkeypatch, capsys) -> None:
    path = write(tmp_path / "rounds.jsonl")
    assert main(["ingest", str(path), "--memory-id", "m"]) == 0
    question = ["ask", "What was my average sleep?", "--memory-id", "m", "--json"]
    capsys.readouterr()
    assert main(question) == 0
    offline = json.loads(capsys.readouterr().out)
    with OpenAIStub(fault="429") as stub:
        for role in ("planner", "answerer"):
            monkeypatch.setenv(f"ADAMM_{role.upper()}", "openai:stub")
        monkeypatch.setenv("ADAMM_MODEL_BASE_URL", stub.url)
        monkeypatch.setenv("ADAMM_MODEL_TIMEOUT", "5")
        assert main(question) == 0
        wired = json.loads(capsys.readouterr().out)
        assert len(stub.requests) >= 2
    assert wired["answer"] == offline["answer"] and "7" in wired["answer"]
    assert wired["cost_summary"]["fallbacks"] >= 2


def test_a_refused_key_stops_with_one_line_naming_the_role(home, tmp_path, monkeypatch, capsys) -> None:
    path = write(tmp_path / "rounds.jsonl")
    assert main(["ingest", str(path), "--memory-id", "m"]) == 0
    with OpenAIStub(fault="401") as stub:
        monkeypatch.setenv("ADAMM_PLANNER", "openai:stub")
        monkeypatch.setenv("ADAMM_MODEL_BASE_URL", stub.url)
        capsys.readouterr()
        assert main(["ask", "What was my average sleep?", "--memory-id", "m"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid planner" in err and "401" in err and "Traceback" not in err


def test_structured_output_and_usage_over_the_wire(home, tmp_path, monkeypatch) -> None:
    """A working server: the answerer's reply is the server's, and the tokens are its usage."""
    from adamm.graphs.query import graph
    from adamm.memory import Memory

    Memory("m").ingest(ROUNDS)
    script = {"AnswerOut": {"answer": "Your puppy is called Biscuit (stub).", "citations": []}}
    with OpenAIStub(script=script) as stub:
        ctx = Context(answerer="openai:stub", model_base_url=stub.url)
        out = graph.invoke({"memory_id": "m", "question": "What did we name our puppy?"}, context=ctx)
        sent = stub.requests[-1]
    assert out["answer"] == "Your puppy is called Biscuit (stub)."
    assert sent["model"] == "stub" and ("response_format" in sent or "tools" in sent)
    answerer = summarize(out["cost"])["by_role"]["answerer"]
    assert answerer["calls"] == 1 and answerer["tokens_out"] == 12 and answerer["tokens_in"] > 20
    assert answerer["fallbacks"] == 0


def test_malformed_replies_fall_back_too(home) -> None:
    from adamm.graphs.query import graph
    from adamm.memory import Memory

    Memory("m").ingest(ROUNDS)
    offline = graph.invoke({"memory_id": "m", "question": "What did we name our puppy?"}, context=Context())
    with OpenAIStub(fault="malformed") as stub:
        ctx = Context(answerer="openai:stub", model_base_url=stub.url, model_timeout=5)
        out = graph.invoke({"memory_id": "m", "question": "What did we name our puppy?"}, context=ctx)
    assert out["answer"] == offline["answer"] and "Biscuit" in out["answer"]
    assert summarize(out["cost"])["by_role"]["answerer"]["fallbacks"] == 1


@pytest.mark.parametrize("fault", ["500"])
def test_the_stub_really_fails(fault: str) -> None:
    import urllib.error
    import urllib.request

    with OpenAIStub(fault=fault) as stub:
        request = urllib.request.Request(stub.url + "/chat/completions", data=b"{}", method="POST")
        with pytest.raises(urllib.error.HTTPError) as failed:
            urllib.request.urlopen(request, timeout=5)
    assert failed.value.code == int(fault)


def _prompt(body: dict) -> str:
    parts = []
    for m in body["messages"]:
        content = m.get("content")
        parts += [c.get("text", "") for c in content] if isinstance(content, list) else [str(content)]
    return "\n".join(parts)


def _slept(text: str) -> list[dict]:
    import re

    return [{"attribute": "sleep", "value": float(h), "unit": "h", "source": "user", "evidence": f"Slept {h} hours"}
            for h in re.findall(r"Slept ([\d.]+) hours", text)]


def test_several_rounds_per_extractor_call_mapped_back_to_their_rounds(home) -> None:
    """Four rounds in one call; the answer leaves one out, which then gets a call of its own."""
    import re

    from adamm.graphs.ingest import graph

    def batch(body: dict) -> dict:
        blocks = re.split(r"\nROUND (\d+) \(time", _prompt(body))
        numbered = {int(blocks[i]): blocks[i + 1] for i in range(1, len(blocks) - 1, 2)}
        last = max(numbered)
        return {"rounds": [{"round": n, "observations": _slept(text)} for n, text in numbered.items() if n != last]}

    script = {"BatchExtractionOut": batch, "ExtractionOut": lambda body: {"observations": _slept(_prompt(body))}}
    with OpenAIStub(script=script) as stub:
        ctx = Context(extractor="openai:stub", model_base_url=stub.url, extract_batch=4, use_retrieval=False)
        out = graph.invoke({"memory_id": "m", "rounds": ROUNDS}, context=ctx)
        asked = [s["response_format"]["json_schema"]["name"] if "response_format" in s else s["tools"][0]["function"]["name"]
                 for s in stub.requests]
    # 5 rounds can hold a value: one batch of 4 (missing one item) + that round alone + the fifth alone
    assert asked == ["BatchExtractionOut", "ExtractionOut", "ExtractionOut"]
    assert out["stored"]["extraction_failures"] == 0 and out["stored"]["extractor_skipped"] == 1
    sql = backends(Context()).sql
    got = {o.round_id: (o.value_num, o.source) for o in sql.observations("m") if o.attribute == "sleep"}
    assert {k: v for k, (v, _) in got.items()} == {"s0": 7.5, "s1": 6.0, "s2": 8.0, "s3": 6.5, "s4": 7.0}
    assert all(source.startswith("user_text[") for _, source in got.values())  # evidence found in its own round
    assert summarize(out["cost"])["by_role"]["extractor"]["calls"] == 3


def test_a_dead_server_is_skipped_after_three_failed_calls(home) -> None:
    """The circuit breaker: after three unavailable calls in a row the role's server is not
    called for a while, so a long ingest does not pay the client's retries on every round."""
    from adamm.graphs.ingest import graph
    from adamm.nodes.models import BREAKER_FAILURES

    with OpenAIStub(fault="500") as stub:
        ctx = Context(extractor="openai:stub", model_base_url=stub.url, model_timeout=5, extract_batch=1,
                      use_retrieval=False)
        out = graph.invoke({"memory_id": "m", "rounds": ROUNDS}, context=ctx)
        reached = len(stub.requests)
    extractor = [e for e in out["cost"] if e.get("role") == "extractor"]
    assert len(extractor) == 5 and all(e["fallbacks"] == 1 for e in extractor)  # every gated round fell back
    assert [e["calls"] > 0 for e in extractor] == [True] * BREAKER_FAILURES + [False] * (5 - BREAKER_FAILURES)
    assert reached and reached % BREAKER_FAILURES == 0  # the client's own retries, for three calls only
    assert out["stored"]["extraction_failures"] == 5 and out["stored"]["rounds_added"] == len(ROUNDS)
