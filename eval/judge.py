"""LLM-judge accuracy: the judge role decides whether a prediction means the gold answer.

Token overlap under-rates a correct paraphrase and over-rates a wrong answer that echoes the
question, which is why the benchmarks also report a judge. With the judge role at ``rules``
there is no judge: the metric is left empty and the report says so, rather than letting a
heuristic pass for a model's verdict.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from adamm.nodes.context import RULES

JUDGE_SYSTEM = (
    "You grade answers to questions about a user's conversation history. Given the question, "
    "the gold answer and a predicted answer, decide whether the prediction is correct: it must "
    "state the same facts as the gold answer (wording, order and extra harmless detail do not "
    "matter; a different value, a missing required part or a contradiction make it wrong). When "
    "the gold answer says the information is not mentioned, the prediction is correct only if it "
    "also declines to answer. Reply with the verdict and one short reason."
)

JUDGE_USER = "Question: {question}\nGold answer: {gold}\nPredicted answer: {prediction}"


class Verdict(BaseModel):
    correct: bool
    reason: str = Field(default="", max_length=500)


def judge_enabled(ctx: Any) -> bool:
    return getattr(ctx, "judge", RULES) != RULES


def judge(ctx: Any, question: str, gold: str, prediction: str) -> tuple[float | None, dict[str, Any] | None]:
    """(1.0 / 0.0, cost entry) from the judge model; (None, None) when the judge is ``rules``.

    A judge whose output stays invalid after its retries gives no verdict (None) rather than
    a guessed one; what the attempts cost is still returned.
    """
    if not judge_enabled(ctx):
        return None, None
    from adamm.nodes.models import ModelOutputError, invoke  # noqa: PLC0415 - heavy (langchain): only with a judge model

    messages = [("system", JUDGE_SYSTEM),
                ("human", JUDGE_USER.format(question=question, gold=gold, prediction=prediction))]
    try:
        out, entry = invoke(ctx, "judge", "judge", messages, schema=Verdict)
    except ModelOutputError as exc:
        return None, exc.cost.to_dict()
    return (1.0 if out.correct else 0.0), entry.to_dict()
