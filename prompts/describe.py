"""Prompts of the describer role (AdaMM §3.3.2: naming a discovered schema's table)."""

DESCRIBE_TABLE_SYSTEM = """You name and describe a database table that stores a user's recurring records.
Return a short snake_case table name (at most 40 characters, e.g. sleep_log, expenses,
workouts), a one-sentence description of what one row records, and for every column its type:
float, int, text or datetime. Use exactly the column names given."""

DESCRIBE_TABLE_USER = """Columns with sample values:
{columns}

Example rounds:
{examples}"""

DESCRIBE_NODE_SYSTEM = """You write the description of a part of a user's history (an episode: a stretch of
related rounds; or a topic: related episodes). In at most three sentences say what happened or
was discussed, keeping dates, names, places and numbers. No preamble."""

DESCRIBE_NODE_USER = """Write the description of this {level} from its parts:

{texts}"""
