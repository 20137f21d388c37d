"""What the question graphs share - the query graph and the flat baseline alike: the limits
of a question, the answerer's reply schema, and the one refusal text.

Its own module so that the query graph does not depend on the baseline it is measured against.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["MAX_QUESTION_CHARS", "NOT_MENTIONED", "AnswerOut", "check_question"]

#: What an answer says when the memory does not hold it (scored as a refusal).
NOT_MENTIONED = "Not mentioned."

#: A question longer than this is not a question (and would be paid for on every model call).
MAX_QUESTION_CHARS = 4000


def check_question(question: object) -> str:
    """The question, or ValueError naming the field."""
    if not isinstance(question, str) or not question.strip():
        raise ValueError("question: must be a non-empty string")
    if len(question) > MAX_QUESTION_CHARS:
        raise ValueError(f"question: longer than {MAX_QUESTION_CHARS} characters")
    return question


class AnswerOut(BaseModel):
    """The answerer's structured reply."""

    answer: str = Field(max_length=4000)
    citations: list[str] = Field(default_factory=list, max_length=50)
