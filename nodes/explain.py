"""What was extracted from one round and where each value went (``adamm explain``).

A person checking a memory asks of a round: which values did adamm read from it, and which
table cell did each become - or why did it become none? Everything is read back from durable
state, not recomputed: the round's observations (each names its round, its record within the
round and where in the round it was read), the rows the induced tables hold for the round
(their ``source`` column is the round id, ``record`` the record), the attributes' kinds and
aliases, the attribute-set supports schemas are discovered from, and the round's ingest
``stage``. So the explanation shows what the memory holds now, whatever the extractor or the
induction rules were when the round was ingested.

The *label* of a value is the words the round used for it next to the value, when they are one
of the attribute's names (its own or an alias merged into it); a value written without one
("tram 28" is labelled, "78" alone is not) has none. Labels are not stored per observation, so
they are found again in the text the observation's source span points at.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from sqlalchemy import select

from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.state import STAGES
from adamm.stores.records import Round
from adamm.stores.sql import StoreError, cast_value, column_of
from adamm.stores.sql_models import RoundRecord

#: ``user_text[12:31]``, ``image:IMG_1[5:30]``, ``ocr:IMG_1[0:4]``: a part of the round and a span in it.
_SPAN = re.compile(r"^(?P<part>[^\[]+)\[(?P<start>\d+):(?P<end>\d+)\]$")
#: How far from its value a label may be, and what may not lie between them (another value).
_LABEL_GAP = 30
_DIGIT = re.compile(r"\d")


def explain_round(ctx: Context | Any, memory_id: str, round_id: str) -> dict[str, Any]:
    """The round, its observations with the cell each became (``placed``) or why it became
    none (``left_out``), and the table rows the round holds. Raises ``StoreError`` when the
    memory has no such round."""
    ctx = Context.coerce(ctx)
    sql = backends(ctx).sql
    found = sql.get_rounds(memory_id, [round_id])
    if not found:
        raise StoreError(f"memory {memory_id!r} has no round {round_id!r}")
    rnd = found[0]
    stage, derived = _progress(sql, memory_id, round_id)
    attributes = {a.name: a for a in sql.attributes(memory_id)}
    supports: dict[str, int] = defaultdict(int)
    for attrs, n in sql.attribute_sets(memory_id):
        for a in attrs:
            supports[a] += n
    tables = sql.tables(memory_id)
    columns = {t.name: {c.name: c for c in t.columns} for t in tables}
    rows = _round_rows(sql, memory_id, round_id, [t.name for t in tables])
    by_record: dict[int, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for table, row in rows:
        by_record[int(row.get("record") or 0)].append((table, row))

    observations = sql.observations(memory_id, [round_id])
    fields_of: dict[int, set[str]] = defaultdict(set)
    for o in observations:
        fields_of[o.record].add(o.attribute)
    out = []
    for o in observations:
        known = attributes.get(o.attribute)
        entry: dict[str, Any] = {
            "record": o.record, "attribute": o.attribute,
            "value": o.value_num if o.value_num is not None else o.value_text, "unit": o.unit,
            "label": _label(rnd, o.source, [o.attribute, *(known.aliases if known else [])]),
            "raw": o.raw, "source": o.source,
            "observed_at": o.observed_at.isoformat() if o.observed_at else None,
            "placed": None, "left_out": None,
        }
        column = column_of(o.attribute)
        holder = next(((t, r) for t, r in by_record.get(o.record, []) if column in columns[t]), None)
        if holder is not None:
            table, row = holder
            entry["placed"] = {"table": table, "column": column, "record": o.record, "cell": _plain(row.get(column))}
            entry["left_out"] = _cell_problem(entry["value"], row.get(column), columns[table][column].type, table, column)
        else:
            entry["left_out"] = _why_not(ctx, o.attribute, o.record, fields_of[o.record], known, supports[o.attribute],
                                         [t for t, _ in by_record.get(o.record, [])], columns, stage, derived)
        out.append(entry)
    return {
        "memory_id": memory_id,
        "round": {"round_id": rnd.round_id, "session_id": rnd.session_id, "order": rnd.order,
                  "time": rnd.timestamp.isoformat() if rnd.timestamp else None, "text": rnd.text,
                  "image_ids": [im.image_id for im in rnd.images]},
        "stage": stage, "derived": derived,
        "observations": out,
        "rows": [{"table": t, "record": int(r.get("record") or 0),
                  "cells": {c: _plain(r.get(c)) for c in columns[t] if r.get(c) is not None}} for t, r in rows],
    }


def _progress(sql: Any, memory_id: str, round_id: str) -> tuple[int, bool]:
    with sql.session() as s:
        stage, derived = s.execute(select(RoundRecord.stage, RoundRecord.derived).where(
            RoundRecord.memory_id == memory_id, RoundRecord.round_id == round_id)).one()
    return int(stage or 0), bool(derived)


def _round_rows(sql: Any, memory_id: str, round_id: str, names: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Every induced table's rows of this round, read by ``source`` (not whole tables)."""
    out = []
    with sql.engine.connect() as conn:
        for name in names:
            _, table = sql.table_handle(memory_id, name)
            q = select(table).where(sql.tenant_filter(table, memory_id), table.c.source == round_id).order_by(table.c.record)
            out.extend((name, dict(r)) for r in conn.execute(q).mappings())
    return out


def _plain(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


def _cell_problem(value: Any, cell: Any, ctype: str, table: str, column: str) -> str | None:
    """Why a placed value is not (exactly) what its cell holds, or None when it is."""
    if cell is None:
        try:
            cast_value(value, ctype, column)
        except StoreError:
            return f"the cell {table}.{column} is empty: {value!r} is no {ctype}, the column's type"
        return f"the cell {table}.{column} is empty"
    same = abs(float(cell) - float(value)) < 1e-9 * max(1.0, abs(float(value))) if _numbers(cell, value) else str(cell) == str(value)
    if not same:
        return f"the cell {table}.{column} holds {_plain(cell)!r}: another value of {column} in the same record"
    return None


def _numbers(*values: Any) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _why_not(ctx: Context, attribute: str, record: int, fields: set[str], known: Any, support: int, row_tables: list[str],
             columns: dict[str, dict[str, Any]], stage: int, derived: bool) -> str:
    """Why an observation became no cell, from what the memory holds."""
    if not ctx.use_analytic:
        return "analytic memory is off (use_analytic = false): no tables are induced"
    if not derived and stage < STAGES["induce_tables"]:
        return "tables are not induced for this round yet: its ingest was interrupted; rerun the ingest to finish"
    column = column_of(attribute)
    with_column = sorted(t for t, cols in columns.items() if column in cols)
    if row_tables:
        where = f"its record is a row of {', '.join(row_tables)}, which has no column for {attribute!r}"
        return where + (f" ({', '.join(with_column)} has one)" if with_column else f"; {_no_schema(ctx, attribute, known, support)}")
    if with_column:
        missing = sorted({a for t in with_column for a in columns[t]} - {column_of(f) for f in fields})
        return (f"its record (fields {', '.join(sorted(fields))}) became no table row: {', '.join(with_column)} has a column "
                f"for {attribute!r}, but the record reports too few of its other fields" + (f" (missing {', '.join(missing)})" if missing else ""))
    return _no_schema(ctx, attribute, known, support)


def _no_schema(ctx: Context, attribute: str, known: Any, support: int) -> str:
    seen = f"{support} round(s) of this memory report it"
    if known is not None and known.kind == "text":
        return (f"{attribute!r} is a text field, in no table: a table is discovered from measured values that recur "
                f"together ({seen}), and a text field joins one only beside them")
    if support < ctx.theta_support:
        return (f"{attribute!r} is in no discovered schema: {seen}, and a schema needs attributes that recur together "
                f"in at least theta_support = {ctx.theta_support} rounds")
    return f"{attribute!r} is in no discovered schema: {seen}, but no recurring set of attributes with it was discovered"


def _label(rnd: Round, source: str, names: list[str]) -> str | None:
    """The words next to the value (same line, no other number between) that name its
    attribute, as the round wrote them; None when the value stands without one."""
    m = _SPAN.match(source or "")
    if m is None:
        return None
    text = _part_text(rnd, m["part"])
    start, end = int(m["start"]), int(m["end"])
    if text is None or end > len(text):
        return None
    line_start = text.rfind("\n", 0, start) + 1
    line_end = len(text) if (nl := text.find("\n", end)) < 0 else nl
    best: tuple[int, int, str] | None = None
    for name in {n for n in names if n}:
        words = [w for w in re.split(r"[_\W]+", name) if w]
        if not words:
            continue
        pattern = re.compile(r"(?<![^\W_])" + r"[\s_\-]*".join(map(re.escape, words)) + r"(?![^\W_])", re.IGNORECASE)
        for hit in pattern.finditer(text, line_start, line_end):
            gap = text[hit.end():start] if hit.end() <= start else text[end:hit.start()] if hit.start() >= end else None
            if gap is None or len(gap) > _LABEL_GAP or _DIGIT.search(gap):
                continue
            rank = (len(gap) + (0 if hit.end() <= start else 1), -len(hit.group()), hit.group())
            if best is None or rank < best:
                best = rank
    return best[2] if best else None


def _part_text(rnd: Round, part: str) -> str | None:
    if part == "user_text":
        return rnd.user_text
    if part == "assistant_text":
        return rnd.assistant_text
    if part.startswith("image:"):
        image = next((im for im in rnd.images if im.image_id == part[len("image:"):]), None)
        return image.caption if image is not None else None
    return None  # OCR text and metadata are not kept beside the round
