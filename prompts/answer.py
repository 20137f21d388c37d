"""Prompts of the answerer role."""

ANSWER_SYSTEM = """You answer questions about a user's own history, using only the evidence given.
Lead with the value: the number, date, name or short phrase that answers the question, then at
most one short clause of support ("6.6 hours on average over 4 logged days"). Computed values
in the notes are exact: use them as they are. If the evidence does not contain the answer,
reply exactly "Not mentioned." Cite the ids of the evidence units you used."""

ANSWER_USER = """Question: {question}

Evidence (best first):
{evidence}

Return the answer and the ids of the evidence units it rests on."""

ANSWER_NOTES_USER = """Question: {question}

Notes:
{notes}

Evidence:
{evidence}

Return the answer and the ids of the evidence units it rests on."""
