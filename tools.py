"""The six memory tools of adamm as LangChain tools, for a host agent's own tool loop.

    from adamm.tools import memory_tools
    from langgraph.prebuilt import create_react_agent

    agent = create_react_agent(model, memory_tools("ada"))

A host that already plans with a ReAct loop does not need our ``query`` graph: it can call
Lookup / Filter / Compute / Rank over the induced tables and SemanticMatch / EventLocate over
the retrieval hierarchy itself. The tools are bound to one memory when they are built, so a
model can never name another tenant's memory in its arguments.

A wrong argument (an unknown table or column, an operator that does not fit the column type)
comes back as the tool's answer, starting with ``error:`` and listing the valid options, so
the model can correct itself on the next step instead of the run failing. Successful results
are JSON text for the model; the same data as a dict is the tool message's ``artifact``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from adamm.nodes.access import check_caller
from adamm.nodes.context import Context
from adamm.stores.analytic import COMPUTE_OPS, FILTER_OPS

__all__ = ["TOOL_NAMES", "memory_tools", "tables_overview"]

TOOL_NAMES = ("Lookup", "Filter", "Compute", "Rank", "SemanticMatch", "EventLocate")

_BUDGET = Field(10, ge=1, le=100, description="Most rows or units to return.")


class ColumnFilter(BaseModel):
    """One condition on a table column."""

    column: str = Field(min_length=1, max_length=100, description="Column name as listed for the table (also: date, time, source).")
    op: str = Field("=", description=f"One of {', '.join(FILTER_OPS)}.")
    value: Any = Field(None, description="The value; [low, high] for between, a list for in; "
                                         "a date YYYY-MM-DD or month YYYY-MM matches the whole day/month.")


class LookupArgs(BaseModel):
    table: str = Field(min_length=1, max_length=100, description="Table name, e.g. sleep_log (an unknown name is answered with the list of tables).")
    key_values: dict[str, Any] = Field(min_length=1, max_length=20, description='Column -> value that rows must equal, e.g. {"date": "2025-03-05"}.')
    result_budget: int = _BUDGET


class FilterArgs(BaseModel):
    table: str = Field(min_length=1, max_length=100, description="Table name.")
    column_filters: list[ColumnFilter] = Field(max_length=20, description="Conditions every returned row satisfies.")
    result_budget: int = _BUDGET


class ComputeArgs(BaseModel):
    table: str = Field(min_length=1, max_length=100, description="Table name.")
    target: str = Field(min_length=1, max_length=300, description="A column, an arithmetic expression over columns (e.g. total_sleep - deep_sleep), "
                                    "or * with operator count.")
    # The store's own operator list, so a new operator there is offered here at once.
    operator: Literal[COMPUTE_OPS] = Field(  # type: ignore[valid-type]
        description="Aggregate over the filtered rows; count_distinct counts different values; first/last/delta "
                    "follow date order (delta = last - first), trend is the least-squares change per day; share is "
                    "the percentage (0-100) of the filtered rows that also meet `condition`.")
    column_filters: list[ColumnFilter] | None = Field(None, max_length=20, description="Optional conditions on the rows "
                                                      "(for share: the rows in scope).")
    result_budget: int = Field(10, ge=1, le=100, description="Most rows to return; with group_by, most groups.")
    group_by: str | None = Field(None, min_length=1, max_length=100, description="Compute per group and rank the groups: a "
                                 "column, or month / day / weekday / year of the date. E.g. 'which payee most often' = "
                                 "operator count, target *, group_by payee.")
    order: Literal["desc", "asc"] = Field("desc", description="With group_by: desc ranks the highest value first, asc the lowest.")
    condition: list[ColumnFilter] | None = Field(None, max_length=20, description="For operator share only: the conditions "
                                                 "counted rows must meet, e.g. a win rate is share with condition "
                                                 "result = win.")


class RankArgs(BaseModel):
    table: str = Field(min_length=1, max_length=100, description="Table name.")
    target: str = Field(min_length=1, max_length=300, description="Column or expression to order by.")
    order: Literal["desc", "asc"] = Field("desc", description="desc: highest first; asc: lowest first.")
    column_filters: list[ColumnFilter] | None = Field(None, max_length=20, description="Optional conditions on the rows.")
    result_budget: int = _BUDGET


class SemanticMatchArgs(BaseModel):
    query: str = Field(min_length=1, max_length=2000, description="What to look for, in words.")
    scope: Literal["topic", "episode", "event"] = Field("event", description="topic: broad themes; episode: a stretch of "
                                                        "related conversation; event: single rounds.")
    result_budget: int = _BUDGET
    start: str | None = Field(None, description="Only units overlapping this ISO date/time or later.")
    end: str | None = Field(None, description="Only units overlapping this ISO date/time or earlier.")
    within: str | None = Field(None, max_length=300, description="node_id of a topic or episode to search inside (drill-down).")


class EventLocateArgs(BaseModel):
    query: str = Field(min_length=1, max_length=2000, description="The moment to find, in words.")
    result_budget: int = _BUDGET
    window: int = Field(1, ge=0, le=20, description="Rounds before and after each event to include as context.")
    start: str | None = Field(None, description="Only events at this ISO date/time or later.")
    end: str | None = Field(None, description="Only events at this ISO date/time or earlier.")


def memory_tools(memory_id: str, context: Context | dict[str, Any] | Any = None) -> list[BaseTool]:
    """The six tools, bound to ``memory_id`` and to the stores ``context`` points at."""
    from adamm.nodes.ingest import check_memory_id  # noqa: PLC0415

    check_memory_id(memory_id)
    ctx = Context.coerce(context)

    def sql() -> Any:
        from adamm.nodes.backends import backends  # noqa: PLC0415

        return backends(ctx).sql

    def lookup(table: str, key_values: dict[str, Any], result_budget: int = 10) -> Any:
        from adamm.stores import analytic  # noqa: PLC0415

        return analytic.lookup(sql(), memory_id, table, key_values, result_budget)

    def filter_(table: str, column_filters: list[ColumnFilter], result_budget: int = 10) -> Any:
        from adamm.stores import analytic  # noqa: PLC0415

        return analytic.filter_rows(sql(), memory_id, table, _filters(column_filters) or [], result_budget)

    def compute(table: str, target: str, operator: str, column_filters: list[ColumnFilter] | None = None,
                result_budget: int = 10, group_by: str | None = None, order: str = "desc",
                condition: list[ColumnFilter] | None = None) -> Any:
        from adamm.stores import analytic  # noqa: PLC0415

        return analytic.compute(sql(), memory_id, table, target, operator, _filters(column_filters), result_budget,
                                group_by=group_by, order=order, condition=_filters(condition))

    def rank(table: str, target: str, order: str = "desc", column_filters: list[ColumnFilter] | None = None,
             result_budget: int = 10) -> Any:
        from adamm.stores import analytic  # noqa: PLC0415

        return analytic.rank(sql(), memory_id, table, target, order, _filters(column_filters), result_budget)

    def semantic(query: str, scope: str = "event", result_budget: int = 10, start: str | None = None,
                 end: str | None = None, within: str | None = None) -> Any:
        from adamm.nodes.retrieval import semantic_match  # noqa: PLC0415

        return semantic_match(ctx, memory_id, query, scope, result_budget, time_range=_range(start, end), within=within)

    def locate(query: str, result_budget: int = 10, window: int = 1, start: str | None = None,
               end: str | None = None) -> Any:
        from adamm.nodes.retrieval import event_locate  # noqa: PLC0415

        return event_locate(ctx, memory_id, query, result_budget, window, time_range=_range(start, end))

    specs: list[tuple[str, Callable[..., Any], type[BaseModel], str]] = [
        ("Lookup", lookup, LookupArgs,
         "Exact rows of an analytic table whose columns equal the given values (a date matches the whole day). "
         "Use for 'what was X on <date>'. Tables are built from values the user logged repeatedly."),
        ("Filter", filter_, FilterArgs,
         "Rows of an analytic table satisfying every condition, oldest first. Use for 'which days did X exceed Y', "
         "'entries in March'."),
        ("Compute", compute, ComputeArgs,
         f"An exact aggregate ({', '.join(COMPUTE_OPS)}) of a column or "
         "expression over the (filtered) rows of an analytic table, with the rows it came from. Prefer this over "
         "adding numbers yourself. With group_by it is computed per group and the groups are ranked: 'which X "
         "most often' (count, target *), 'which category cost the most' (sum), 'average per month' (avg, "
         "group_by month). share gives a percentage such as a win rate (condition result = win). Text filters "
         "with = / != / in ignore case and extra words ('debit card' matches 'DEBIT CARD ****7730')."),
        ("Rank", rank, RankArgs,
         "Rows of an analytic table with the highest (desc) or lowest (asc) value of a column or expression. "
         "Use for 'best/worst/top N'."),
        ("SemanticMatch", semantic, SemanticMatchArgs,
         "Search the conversation history by meaning at the topic, episode or event level; results carry "
         "node_id (use as 'within' to drill down), time span, round_ids and image_ids to cite."),
        ("EventLocate", locate, EventLocateArgs,
         "Find the specific moments (events) a description refers to, each with the rounds just before and "
         "after it. Use for 'when did I ...', 'what happened after ...'."),
    ]
    return [_tool(name, _owned(memory_id, fn), schema, description) for name, fn, schema, description in specs]


def _owned(memory_id: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """Check, at every call, that the host run's authenticated caller owns the bound memory: a
    host graph deployed with auth keeps the guarantee its callers were given."""
    def call(**kwargs: Any) -> Any:
        check_caller(memory_id)
        return fn(**kwargs)

    return call


def tables_overview(memory_id: str, context: Context | dict[str, Any] | Any = None) -> str:
    """One line per analytic table (name, columns with units, row count), for a system prompt:
    the analytic tools need table and column names the model cannot guess."""
    from adamm.nodes.backends import backends  # noqa: PLC0415

    sql = backends(Context.coerce(context)).sql
    lines = []
    for t in sql.tables(memory_id):
        cols = ", ".join(c.name + (f" [{c.unit}]" if c.unit else "") + f" {c.type}" for c in t.columns)
        lines.append(f"{t.name} ({sql.count_rows(memory_id, t.name)} rows): {cols}" + (f" - {t.description}" if t.description else ""))
    return "\n".join(lines) or "(no analytic tables yet)"


# -- plumbing -------------------------------------------------------------------------------------


def _tool(name: str, fn: Callable[..., Any], schema: type[BaseModel], description: str) -> BaseTool:
    def run(**kwargs: Any) -> tuple[str, Any]:
        from adamm.stores.analytic import ToolError  # noqa: PLC0415
        from adamm.stores.sql import StoreError  # noqa: PLC0415

        try:
            result = fn(**kwargs)
        except (ToolError, StoreError, ValueError) as exc:
            # Argument errors are the model's to fix; they name the argument and the valid options.
            message = f"error: {exc}"
            return message, {"error": str(exc)}
        data = _plain(result)
        return json.dumps(data, ensure_ascii=False, default=str), data

    async def arun(**kwargs: Any) -> tuple[str, Any]:
        return await asyncio.to_thread(run, **kwargs)

    return StructuredTool.from_function(
        func=run,
        coroutine=arun,
        name=name,
        description=description,
        args_schema=schema,
        response_format="content_and_artifact",
        handle_validation_error=_validation_message,
    )


def _validation_message(exc: Exception) -> str:
    """Arguments that do not fit the schema, said so that the model can fix them."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        parts = [f"{'.'.join(map(str, e.get('loc', ()))) or 'arguments'}: {e.get('msg')}" for e in errors()]
        return "error: invalid arguments; " + "; ".join(parts)
    return f"error: invalid arguments; {exc}"


def _filters(filters: list[ColumnFilter] | list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    if filters is None:
        return None
    out = []
    for f in filters:
        d = f.model_dump() if isinstance(f, BaseModel) else dict(f)
        if d.get("value") is None and d.get("op") in (None, "=", "is_null", "not_null"):
            d.pop("value", None)
            d["op"] = d.get("op") if d.get("op") in ("is_null", "not_null") else "is_null"
        out.append(d)
    return out


def _range(start: str | None, end: str | None) -> tuple[datetime | None, datetime | None] | None:
    if start is None and end is None:
        return None
    from adamm.stores.records import parse_time  # noqa: PLC0415

    def bound(value: str | None, arg: str) -> datetime | None:
        if value is None:
            return None
        try:
            return parse_time(value)
        except (TypeError, ValueError):
            raise ValueError(f"{arg}: expected an ISO date or time, got {value!r}") from None

    lo, hi = bound(start, "start"), bound(end, "end")
    if hi is not None and len(end or "") == 10:  # a bare date means through the end of that day
        hi = hi.replace(hour=23, minute=59, second=59)
    return lo, hi


def _plain(result: Any) -> Any:
    if hasattr(result, "to_dict"):
        return result.to_dict()
    if isinstance(result, list):
        return [_plain(r) for r in result]
    return result
