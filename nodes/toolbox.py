"""The six memory tools as the query graph sees them: specs, argument validation, evidence.

A tool call is a tool name plus an argument object, written by a planner (a model, or the
rules backend). Both are untrusted: ``validate_call`` checks the name against the tools the
context enables and the arguments against a pydantic model per tool (types, lengths, budgets,
unknown keys); table and column names are then resolved by the analytic tools themselves,
which build SQL only from resolved names and bound values. Nothing a model writes reaches SQL
as text.

``run_call`` turns a result into *evidence units*, the currency of the shared evidence budget
(AdaMM §3.5): one unit per matched row or retrieved node, one unit for a computed value with
its contributing rows. Every unit carries ``round_ids`` (its provenance) so answers can cite
rounds and the evaluation can measure evidence recall.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.retrieval import RetrievedUnit, event_locate, semantic_match
from adamm.stores import analytic
from adamm.stores.analytic import ToolError
from adamm.stores.analytic_query import jsonable
from adamm.stores.records import parse_time

ANALYTIC_TOOLS = ("Lookup", "Filter", "Compute", "Rank")
RETRIEVAL_TOOLS = ("SemanticMatch", "EventLocate")
ALL_TOOLS = ANALYTIC_TOOLS + RETRIEVAL_TOOLS
#: A tool name as a model may write it (the structured-output schemas use this type).
ToolName = Literal[ALL_TOOLS]  # type: ignore[valid-type]

#: Rows shown per unit of evidence text, and characters of retrieved text per unit.
MAX_ROWS_SHOWN = 10
MAX_UNIT_CHARS = 1200

TOOL_SPECS: dict[str, str] = {
    "Lookup": "Lookup(table, key_values, result_budget): rows whose columns equal the given values "
              "(a YYYY-MM-DD value on a date column matches the whole day).",
    "Filter": "Filter(table, column_filters, result_budget): rows satisfying every filter "
              "{column, op, value}; ops: = != < <= > >= between in contains mentions is_null not_null (mentions: every word appears in the text column, e.g. the rows' own words in captions); "
              "{any: [filter, filter, ...]} keeps rows meeting at least one of them (e.g. systolic > 135 or diastolic > 85).",
    "Compute": "Compute(table, target, operator, column_filters, group_by?, order?, condition?): one value "
               "over the filtered rows; target is a column or an arithmetic expression of columns. Operators: "
               "count (target '*' counts rows), count_distinct (how many different values), sum, avg, median, "
               "min, max, stddev, first, last (earliest / latest by date), delta (last minus first by date), "
               "trend (change per day), share (percent 0-100 of the rows matching column_filters that also "
               "meet condition, a list of filters like column_filters; e.g. win rate: target '*', condition "
               "[{column: result, op: =, value: win}]), share_of_sum (percent of a numeric target's sum in the "
               "rows meeting condition: share of spending on dining = target amount, condition category = "
               "dining). group_by (a column, or month / day / weekday / year "
               "of the date) computes count, count_distinct, sum, avg, median, min, max or share per group and "
               "ranks the groups (order desc: highest first, asc: lowest first): 'which payee most often' = "
               "count of '*' group_by payee; 'which category cost the most' = sum of amount group_by category; "
               "'average per month' = avg group_by month. Text filters with = != in ignore case and extra words "
               "('debit card' matches 'DEBIT CARD ****7730').",
    "Rank": "Rank(table, target, order, column_filters, result_budget): rows with the highest (desc) "
            "or lowest (asc) target.",
    "SemanticMatch": "SemanticMatch(query, scope, result_budget, start?, end?): topics, episodes or "
                     "events of the conversation most related to the query, optionally within dates.",
    "EventLocate": "EventLocate(query, result_budget, window, start?, end?): the rounds (events) that "
                   "best match the query, each with its neighbouring rounds.",
}
class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: The widest budgets a caller may ask for: a host agent's own tool loop may read this much;
#: the query graph's planner gets the tighter ``PLANNER_LIMITS`` (its evidence budget is shared).
MAX_RESULT_BUDGET = 100
MAX_WINDOW = 20
PLANNER_LIMITS = {"result_budget": 10, "window": 3}


def _budget(default: int = 10, what: str = "Most rows or units to return.") -> Any:
    return Field(default, ge=1, le=MAX_RESULT_BUDGET, description=what)


class FilterSpec(_Args):
    """``{column, op, value}``, or ``{any: [{column, op, value}, ...]}`` - rows meeting at least
    one of them ("systolic or diastolic above the target")."""

    column: str | None = Field(default=None, min_length=1, max_length=100,
                               description="Column name as listed for the table (also: date, time, source, and weekday: 0 = Monday ... 6 = Sunday).")
    op: str = Field(default="=", max_length=20, description="One of = != < <= > >= between in contains mentions is_null not_null.")
    value: Any = Field(default=None, description="The value; [low, high] for between, a list for in; "
                                                 "omit for is_null / not_null (a null value with = means is_null).")
    any: list[FilterSpec] | None = Field(default=None, min_length=2, max_length=10,
                                         description="Instead of column/op/value: rows meeting at least one of these filters.")
    table: str | None = Field(default=None, min_length=1, max_length=100,
                              description="With via: the condition is on this other table's rows, linked by the via column.")
    via: str | None = Field(default=None, min_length=1, max_length=100,
                            description="A column both tables have, e.g. book: rows whose book has a row meeting the condition.")

    @field_validator("value")
    @classmethod
    def _bounded(cls, v: Any) -> Any:
        if len(json.dumps(v, default=str)) > 4000:
            raise ValueError("value is too large")
        return v

    @model_validator(mode="after")
    def _one_kind(self) -> FilterSpec:
        if (self.column is None) == (self.any is None):
            raise ValueError("a filter needs either 'column' (with op and value) or 'any' (a list of such filters)")
        if self.any is not None and any(f.any is not None for f in self.any):
            raise ValueError("'any' filters cannot be nested")
        if (self.table is None) != (self.via is None) or (self.table is not None and self.any is not None):
            raise ValueError("a condition on a linked table needs both 'table' and 'via', and a column")
        return self

    def to_dict(self) -> dict[str, Any]:
        if self.any is not None:
            return {"any": [f.to_dict() for f in self.any]}
        link = {"table": self.table, "via": self.via} if self.table is not None else {}
        if self.value is None and self.op in ("=", "is_null", "not_null"):  # nothing to compare with: a null test
            return {"column": self.column, "op": self.op if self.op != "=" else "is_null", **link}
        return {"column": self.column, "op": self.op, "value": self.value, **link}


def _instant(value: str, arg: str) -> datetime:
    """An ISO date or time, or ValueError naming the argument: the caller's error to fix."""
    try:
        return parse_time(value)
    except (TypeError, ValueError):
        raise ValueError(f"{arg}: expected an ISO date or time, got {value!r}") from None


class _Period(_Args):
    start: str | None = Field(default=None, max_length=40, description="Only what overlaps this ISO date/time or later.")
    end: str | None = Field(default=None, max_length=40, description="Only what overlaps this ISO date/time or earlier "
                                                                    "(a bare date: through the end of that day).")

    @field_validator("start", "end")
    @classmethod
    def _iso(cls, v: str | None, info: Any) -> str | None:
        if v is not None:
            _instant(v, info.field_name)
        return v


class LookupArgs(_Args):
    table: str = Field(min_length=1, max_length=100, description="Table name, e.g. sleep_log (an unknown name is "
                                                                 "answered with the list of tables).")
    key_values: dict[str, Any] = Field(min_length=1, max_length=20, description='Column -> value that rows must equal, '
                                                                                'e.g. {"date": "2025-03-05"}.')
    result_budget: int = _budget()


class FilterArgs(_Args):
    table: str = Field(min_length=1, max_length=100, description="Table name.")
    column_filters: list[FilterSpec] = Field(default_factory=list, max_length=20,
                                             description="Conditions every returned row satisfies.")
    result_budget: int = _budget()


class ComputeArgs(_Args):
    table: str = Field(min_length=1, max_length=100, description="Table name.")
    target: str = Field(min_length=1, max_length=300, description="A column, an arithmetic expression over columns "
                                                                  "(e.g. total_sleep - deep_sleep), or * to count rows.")
    operator: Literal[analytic.COMPUTE_OPS] = Field(description="What to compute.")  # type: ignore[valid-type]
    column_filters: list[FilterSpec] = Field(default_factory=list, max_length=20,
                                             description="Optional conditions on the rows the value is computed over.")
    group_by: str | None = Field(default=None, min_length=1, max_length=100,
                                 description="Compute per group and rank the groups: a column, or month / day / weekday / year.")
    order: Literal["desc", "asc"] = Field(default="desc", description="With group_by: desc ranks the highest value "
                                                                       "first, asc the lowest.")
    condition: list[FilterSpec] | None = Field(default=None, max_length=20,
                                               description="For operator share only: what the rows in scope must meet "
                                                           "to count (e.g. [{column: result, op: =, value: win}]).")
    result_budget: int = _budget(what="Most rows to show; with group_by, most groups.")

    @field_validator("operator", mode="before")
    @classmethod
    def _canonical(cls, v: Any) -> Any:
        """A synonym a model may well write ("average", "total") is the operator it means."""
        return analytic.compute_operator(v) if isinstance(v, str) else v


class RankArgs(_Args):
    table: str = Field(min_length=1, max_length=100, description="Table name.")
    target: str = Field(min_length=1, max_length=300, description="Column or expression to order by.")
    order: Literal["desc", "asc"] = Field(default="desc", description="desc: highest first; asc: lowest first.")
    column_filters: list[FilterSpec] = Field(default_factory=list, max_length=20, description="Optional conditions on the rows.")
    result_budget: int = _budget(3)


class SemanticMatchArgs(_Period):
    query: str = Field(min_length=1, max_length=2000, description="What to look for, in words.")
    scope: Literal["topic", "episode", "event"] = Field(default="event", description="topic: broad themes; episode: a "
                                                                                      "stretch of conversation; event: one round.")
    result_budget: int = _budget(5)
    within: str | None = Field(default=None, max_length=300, description="node_id of a topic or episode to search "
                                                                         "inside (drill-down).")


class EventLocateArgs(_Period):
    query: str = Field(min_length=1, max_length=2000, description="The moment to find, in words.")
    result_budget: int = _budget(5)
    window: int = Field(default=1, ge=0, le=MAX_WINDOW, description="Rounds before and after each event to include as context.")


ARG_MODELS: dict[str, type[_Args]] = {
    "Lookup": LookupArgs, "Filter": FilterArgs, "Compute": ComputeArgs, "Rank": RankArgs,
    "SemanticMatch": SemanticMatchArgs, "EventLocate": EventLocateArgs,
}


def enabled_tools(ctx: Context) -> tuple[str, ...]:
    """The tools this context allows (the ``use_analytic`` / ``use_retrieval`` ablations)."""
    tools = (ANALYTIC_TOOLS if ctx.use_analytic else ()) + (RETRIEVAL_TOOLS if ctx.use_retrieval else ())
    return tools


def validate_call(ctx: Context, tool: Any, args: Any, limits: dict[str, int] = PLANNER_LIMITS) -> _Args:
    """The validated argument object of a call, or ToolError naming what is wrong; ``limits``
    caps fields (the planner's budgets) below what the argument models allow a host agent."""
    allowed = enabled_tools(ctx)
    if not isinstance(tool, str) or tool not in allowed:
        raise ToolError(f"unknown or disabled tool {str(tool)[:60]!r}; tools: {', '.join(allowed) or '(none)'}")
    if not isinstance(args, dict):
        raise ToolError(f"{tool}: arguments must be an object, got {type(args).__name__}")
    try:
        valid = ARG_MODELS[tool].model_validate(args)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in exc.errors()[:5])
        raise ToolError(f"{tool}: {problems}") from None
    over = [f"{name}: must be at most {cap}" for name, cap in limits.items() if getattr(valid, name, 0) > cap]
    if over:
        raise ToolError(f"{tool}: {'; '.join(over)}")
    return valid


def run_call(ctx: Context, memory_id: str, tool: str, args: _Args, budget: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Execute a validated call; return at most ``budget`` evidence units and a summary of the
    result for the trace and for the planner's next step."""
    if budget <= 0:
        return [], {"units": 0, "note": "evidence budget spent"}
    sql = backends(ctx).sql
    if isinstance(args, LookupArgs):
        res = analytic.lookup(sql, memory_id, args.table, args.key_values, min(args.result_budget, budget))
        return _row_units(sql, memory_id, res), _summary(res)
    if isinstance(args, FilterArgs):
        res = analytic.filter_rows(sql, memory_id, args.table, filter_dicts(args.column_filters), min(args.result_budget, budget))
        return _row_units(sql, memory_id, res), _summary(res)
    if isinstance(args, ComputeArgs):
        res = analytic.compute(sql, memory_id, args.table, args.target, args.operator, filter_dicts(args.column_filters),
                               result_budget=MAX_ROWS_SHOWN, group_by=args.group_by, order=args.order,
                               condition=filter_dicts(args.condition))
        return [_compute_unit(sql, memory_id, res)], _summary(res)
    if isinstance(args, RankArgs):
        res = analytic.rank(sql, memory_id, args.table, args.target, args.order, filter_dicts(args.column_filters),
                            min(args.result_budget, budget))
        return _row_units(sql, memory_id, res), _summary(res)
    if isinstance(args, (SemanticMatchArgs, EventLocateArgs)):
        def search(time_range: tuple[datetime | None, datetime | None] | None) -> list[Any]:
            if isinstance(args, SemanticMatchArgs):
                return semantic_match(ctx, memory_id, args.query, args.scope, min(args.result_budget, budget),
                                      time_range=time_range, within=args.within)
            return event_locate(ctx, memory_id, args.query, min(args.result_budget, budget), args.window,
                                time_range=time_range)

        period = time_range(args.start, args.end)
        found = search(period)
        summary: dict[str, Any] = {"units": len(found), "matched": len(found)}
        if not found and period is not None:
            # nothing was said in the period: the question's date may be when the thing happened
            # ("a snowy day last year"), not when it was talked about, so search all of it
            found = search(None)
            summary = {"units": len(found), "matched": len(found), "scope_widened": True}
        # the best units' own words, so a later step can use a fact they state ("capped at 190 W")
        summary["texts"] = [u.text.split("\nAssistant:")[0][:400] for u in found[:3]]
        summary["days"] = [(u.start or "")[:10] or None for u in found[:3]]  # when it was said: bounds "since ..." questions
        return [_retrieved_unit(u, tool) for u in found], summary
    raise ToolError(f"no runner for {type(args).__name__}")  # unreachable: validate_call gates the names


# -- shaping --------------------------------------------------------------------------------------


def filter_dicts(specs: list[FilterSpec] | None) -> list[dict[str, Any]] | None:
    """Filters as the analytic tools take them (None stays None: no filter given)."""
    return None if specs is None else [s.to_dict() for s in specs]


def time_range(start: str | None, end: str | None) -> tuple[datetime | None, datetime | None] | None:
    """The period of ``start`` / ``end`` (ISO dates or times); a bare end date runs through the
    end of that day."""
    if start is None and end is None:
        return None
    lo = _instant(start, "start") if start else None
    hi = _instant(end, "end") if end else None
    if hi is not None and len(end or "") == 10:
        hi = hi.replace(hour=23, minute=59, second=59, microsecond=999999)
    return lo, hi


def _summary(res: analytic.ToolResult) -> dict[str, Any]:
    out: dict[str, Any] = {"table": res.table, "matched": res.matched, "units": res.units, "filters": res.to_dict()["filters"]}
    if res.tool == "Compute":
        d = res.to_dict()
        out.update(value=d["value"], operator=res.operator, expression=res.expression)
        out.update({k: d[k] for k in ("group_by", "order", "top_group", "group_count", "groups", "condition",
                                      "in_scope", "meeting", "weighted", "note") if k in d})
    if res.tool == "Rank":
        out.update(order=res.operator, expression=res.expression)
    dates = [_day(r.get("date") or r.get("time")) for r in res.rows]
    out["dates"] = [d for d in dates if d]
    return out


def _day(value: Any) -> str | None:
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str) and len(value) >= 10:
        return value[:10]
    return None


def _units_of(sql: Any, memory_id: str, table: str, expression: str | None = None) -> dict[str, str | None]:
    """Column units, plus the unit of a speed ``expression`` ("distance / duration * 60": km/h)."""
    info = sql.table(memory_id, table, missing_ok=True)
    units = {c.name: c.unit for c in info.columns} if info else {}
    if expression and expression not in units:
        units[expression] = expression_unit(expression, units)
    return units


_SPEED = re.compile(r"^(?P<d>\w+) / (?P<t>\w+)(?: \* (?P<k>60|3600))?$")


def expression_unit(expression: str, units: dict[str, str | None]) -> str | None:
    """The unit of a distance over a duration scaled to hours, as the rules planner writes it."""
    m = _SPEED.match(expression)
    if not m or units.get(m["d"]) not in ("km", "mi"):
        return None
    per = {None: "h", "60": "min", "3600": "s"}[m["k"]]
    return f"{units[m['d']]}/h" if units.get(m["t"]) == per else None


def _render_row(row: dict[str, Any], units: dict[str, str | None]) -> tuple[str, dict[str, Any]]:
    values = {k: jsonable(v) for k, v in row.items()
              if k not in ("source", "order", "time", "observed_at", "date", "captions") and v is not None}
    shown = ", ".join(f"{k} {_fmt(v)}" + (f" {units[k]}" if units.get(k) else "") for k, v in values.items())
    return shown, values


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}" if abs(v) < 1e6 else f"{v:.6g}"
    return str(v)


def _row_units(sql: Any, memory_id: str, res: analytic.ToolResult) -> list[dict[str, Any]]:
    units = _units_of(sql, memory_id, res.table, res.expression if res.tool == "Rank" else None)
    out = []
    for row in res.rows:
        day = _day(row.get("date") or row.get("time"))
        shown, values = _render_row(row, units)
        out.append({
            "kind": "row", "tool": res.tool, "table": res.table, "date": day,
            "time": jsonable(row.get("time")), "order": row.get("order"),
            "values": values, "units": {k: units.get(k) for k in values if units.get(k)},
            "round_ids": [str(row["source"])], "image_ids": [],
            "text": f"{res.table} row, {day or 'undated'}: {shown}",
        })
    return out


def _compute_unit(sql: Any, memory_id: str, res: analytic.ToolResult) -> dict[str, Any]:
    d = res.to_dict()
    units = _units_of(sql, memory_id, res.table, res.expression)
    unit = units.get(res.expression or "")
    rows = [{"date": _day(r.get("date") or r.get("time")), "source": str(r["source"]),
             "value": jsonable(r.get(res.expression)) if res.expression in r else None} for r in res.rows]
    where = _conditions(d["filters"]) or "all rows"
    shown_unit = unit if res.operator not in ("count", "count_distinct", "share") else None
    if res.operator == "share":
        shown_unit = "%"

    def fmt(value: Any) -> str:
        return (_fmt(value) + (f" {shown_unit}" if shown_unit else "")) if value is not None else "no value"

    what = f"{res.operator}({res.expression})"
    if d.get("condition") is not None:
        what = (f"share of {res.expression} in rows meeting ({_conditions(d['condition'])})" if d.get("weighted")
                else f"share of rows meeting ({_conditions(d['condition'])})")
    if "group_by" in d:
        ranked = "; ".join(f"{g['group']} = {fmt(g['value'])} ({g['rows']} rows)" for g in d["groups"])
        text = (f"{what} per {d['group_by']} over {res.matched} {res.table} rows ({where}), {d['group_count']} groups, "
                f"{'highest' if d['order'] == 'desc' else 'lowest'} first: {ranked or 'no groups'}"
                + (f"; rows shown are from {d['top_group']}" if rows else ""))
    else:
        text = f"{what} over {res.matched} {res.table} rows ({where}) = {fmt(d['value'])}"
        if d.get("in_scope") is not None:
            text += f" ({d['meeting']} of {d['in_scope']})"
    unit_out: dict[str, Any] = {
        "kind": "aggregate", "tool": "Compute", "table": res.table, "operator": res.operator,
        "expression": res.expression, "value": d["value"], "unit": unit, "matched": res.matched,
        "filters": d["filters"], "rows": rows, "round_ids": [r["source"] for r in rows], "image_ids": [],
        "text": text,
    }
    unit_out.update({k: d[k] for k in ("group_by", "order", "top_group", "group_count", "groups", "condition",
                                       "in_scope", "meeting", "weighted", "note") if k in d})
    return unit_out


def _conditions(filters: list[dict[str, Any]]) -> str:
    def one(f: dict[str, Any]) -> str:
        if "any" in f:
            return "(" + " or ".join(one(g) for g in f["any"]) + ")"
        return f"{f['column']} {f['op']} {f.get('value', '')}".strip()
    return "; ".join(one(f) for f in filters)


def _retrieved_unit(u: RetrievedUnit, tool: str) -> dict[str, Any]:
    text = u.text[:MAX_UNIT_CHARS]
    if u.context:
        around = " | ".join(f"({c['round_id']}) {c['text'][:300]}" for c in u.context)
        text = f"{text}\n[around: {around}]"
    return {
        "kind": u.level, "tool": tool, "node_id": u.node_id, "score": u.score,
        "date": (u.start or "")[:10] or None, "time": u.start, "order": u.first_order,
        # a topic or episode stands for its rounds, but cites at most MAX_ROWS_SHOWN of them
        "round_ids": list(u.round_ids)[:MAX_ROWS_SHOWN], "image_ids": list(u.image_ids)[:MAX_ROWS_SHOWN],
        "context_round_ids": [c["round_id"] for c in u.context],
        "text": text,
    }


__all__ = ["ALL_TOOLS", "ANALYTIC_TOOLS", "ARG_MODELS", "MAX_RESULT_BUDGET", "PLANNER_LIMITS", "RETRIEVAL_TOOLS", "TOOL_SPECS",
           "ComputeArgs", "EventLocateArgs", "FilterArgs", "FilterSpec", "LookupArgs", "RankArgs", "SemanticMatchArgs",
           "ToolError", "ToolName", "enabled_tools", "filter_dicts", "run_call", "time_range", "validate_call"]
