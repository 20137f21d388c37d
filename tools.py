"""The six memory tools of adamm as LangChain tools, for a host agent's own tool loop.

    from langchain.agents import create_agent
    from adamm.tools import memory_tools

    agent = create_agent(model, memory_tools("ada"))

A host that already plans with its own tool loop does not need our ``query`` graph: it can call
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
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel

from adamm.nodes.access import check_caller
from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.ingest import check_memory_id
from adamm.nodes.retrieval import event_locate, semantic_match
from adamm.nodes.toolbox import (
    ComputeArgs,
    EventLocateArgs,
    FilterArgs,
    FilterSpec,
    LookupArgs,
    RankArgs,
    SemanticMatchArgs,
    filter_dicts,
    time_range,
)
from adamm.stores import analytic
from adamm.stores.analytic import COMPUTE_OPS, ToolError
from adamm.stores.sql import StoreError

__all__ = ["TOOL_NAMES", "memory_tools", "tables_overview"]

TOOL_NAMES = ("Lookup", "Filter", "Compute", "Rank", "SemanticMatch", "EventLocate")


def memory_tools(memory_id: str, context: Context | dict[str, Any] | Any = None) -> list[BaseTool]:
    """The six tools, bound to ``memory_id`` and to the stores ``context`` points at."""
    check_memory_id(memory_id)
    ctx = Context.coerce(context)

    def sql() -> Any:
        return backends(ctx).sql

    def lookup(table: str, key_values: dict[str, Any], result_budget: int = 10) -> Any:
        return analytic.lookup(sql(), memory_id, table, key_values, result_budget)

    def filter_(table: str, column_filters: list[FilterSpec], result_budget: int = 10) -> Any:
        return analytic.filter_rows(sql(), memory_id, table, filter_dicts(column_filters) or [], result_budget)

    def compute(table: str, target: str, operator: str, column_filters: list[FilterSpec] | None = None,
                result_budget: int = 10, group_by: str | None = None, order: str = "desc",
                condition: list[FilterSpec] | None = None) -> Any:
        return analytic.compute(sql(), memory_id, table, target, operator, filter_dicts(column_filters), result_budget,
                                group_by=group_by, order=order, condition=filter_dicts(condition))

    def rank(table: str, target: str, order: str = "desc", column_filters: list[FilterSpec] | None = None,
             result_budget: int = 3) -> Any:
        return analytic.rank(sql(), memory_id, table, target, order, filter_dicts(column_filters), result_budget)

    def semantic(query: str, scope: str = "event", result_budget: int = 5, start: str | None = None,
                 end: str | None = None, within: str | None = None) -> Any:
        return semantic_match(ctx, memory_id, query, scope, result_budget, time_range=time_range(start, end), within=within)

    def locate(query: str, result_budget: int = 5, window: int = 1, start: str | None = None,
               end: str | None = None) -> Any:
        return event_locate(ctx, memory_id, query, result_budget, window, time_range=time_range(start, end))

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
    sql = backends(Context.coerce(context)).sql
    lines = []
    for t in sql.tables(memory_id):
        cols = ", ".join(c.name + (f" [{c.unit}]" if c.unit else "") + f" {c.type}" for c in t.columns)
        lines.append(f"{t.name} ({sql.count_rows(memory_id, t.name)} rows): {cols}" + (f" - {t.description}" if t.description else ""))
    return "\n".join(lines) or "(no analytic tables yet)"


# -- plumbing -------------------------------------------------------------------------------------


def _tool(name: str, fn: Callable[..., Any], schema: type[BaseModel], description: str) -> BaseTool:
    def run(**kwargs: Any) -> tuple[str, Any]:
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


def _plain(result: Any) -> Any:
    if hasattr(result, "to_dict"):
        return result.to_dict()
    if isinstance(result, list):
        return [_plain(r) for r in result]
    return result
