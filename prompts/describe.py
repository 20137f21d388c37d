"""Prompts of the describer role (AdaMM §3.3.2: naming a discovered schema's table)."""

DESCRIBE_TABLE_SYSTEM = """You name and describe a database table that stores a user's recurring records.
Return a short snake_case table name (at most 40 characters, e.g. sleep_log, expenses,
workouts), a one-sentence description of what one row records, and for every column its type:
float, int, text or datetime. Use exactly the column names given."""

DESCRIBE_TABLE_USER = """Columns with sample values:
{columns}

Example rounds:
{examples}"""
