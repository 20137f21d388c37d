"""Arguments for one step of a plan, from the question, the planning context and earlier results.

Each intent fills its tool's arguments from the target column, the filters and - for steps that
depend on others - the days or values earlier steps found (the day of the extreme row, the day
of an event, a stated value). None when the rules backend cannot fill them: the step is then
skipped and reflection decides.
"""

from __future__ import annotations

import re
from typing import Any

from adamm.nodes.rules.dates import WEEKDAYS
from adamm.nodes.rules.facets import vocabulary_values
from adamm.nodes.rules.plan_columns import (MIN_COLUMN_SCORE, Target, called_text_column, column_by_unit, named_text_column, names_column, said_text_column,
                                             speed_expression, text_column)
from adamm.nodes.rules.plan_events import AROUND, FACT_REF, event_bound, fact_conditions, stated_fact
from adamm.nodes.rules.plan_filters import (condition_filters, link_column, mention_filters, first_words, names_the_records, period_filters, short_name,
                                             subset_filters,
                                             value_filters, value_pattern, with_one_units)
from adamm.nodes.rules.plan_intent import DAY_OF, MIN, RANGE_WORDS, SHARE_SPLIT, TREND, WHICH_NOUN, Intent, lists_values, without_values
from adamm.nodes.rules.plan_targets import choose_table, choose_target
from adamm.nodes.rules.plan_words import ASKS_NAME, GROUP, GROUP_MONTH, WHICH_CALENDAR, has_comparison, mask, word_stem
from adamm.stores.bm25 import tokenize
from adamm.stores.quantities import canonical_unit, dimension_of
from adamm.stores.timeexpr import Period, find_periods


#: A count of days, not of records: "on how many (different) days did I ...".
_DAYS_COUNTED = re.compile(r"\bhow\s+many\s+(?:different\s+|distinct\s+|separate\s+)?(?:days|dates)\b", re.I)


def retrieval_query(question: str, periods: list[Period]) -> str:
    """The question without its time phrases (the dates go into the scope instead) and
    without the words that ask for a name."""
    text = " ".join(ASKS_NAME.sub(" ", mask(question, [p.span for p in periods])).split())
    return text or question


def instantiate(step: int, tool: str, question: str, periods: list[Period], intent: Intent,
                context: dict[str, Any], results: list[dict[str, Any]], encoder: Any) -> tuple[str, dict[str, Any]] | None:
    """Arguments for ``tool``, step ``step`` of the question's plan, from the question, the
    context and earlier results; None when the rules backend cannot fill them (the step is then
    skipped and reflection decides)."""
    tables = context.get("tables") or []
    fact = stated_fact(question)
    if tool == "EventLocate" and fact is not None and step == 0 and intent.kind != "retrieve":
        return tool, {"query": f"{fact.group('fact')}{fact.group('tail')}", "result_budget": 3, "window": 0}
    bound = event_bound(question, periods) if fact is None and intent.kind != "retrieve" and (
        intent.kind != "compare" or AROUND.search(question)) else None
    if bound is not None and tool == "EventLocate" and step == 0:
        return tool, {"query": bound.group("clause"), "result_budget": 3, "window": 0}
    if bound is not None and tool != "EventLocate":
        day = next((d for r in results for d in r.get("days") or [] if d), None)
        if day is None:
            return None
        rest = question[:bound.start()] + question[bound.end():]
        if intent.kind == "compare":  # "lower before or after my GP raised my dose": the two sides of that day
            target = choose_target(encoder, rest, periods, tables)
            if target is None or target.score < MIN_COLUMN_SCORE:
                return None
            side = {"column": "date", "op": "<=" if step <= 1 else ">", "value": day}
            return "Compute", {"table": target.table, "target": target.column if intent.operator != "count" else "*",
                               "operator": intent.operator, "column_filters": [*period_filters(periods), side]}
        call = instantiate(max(step - 1, 0), tool, rest, periods, intent, context, [], encoder)
        if call is None:
            return None
        name, args = call
        op = {"since": ">", "after": ">", "before": "<"}[bound.group("rel").lower()]  # what was said that day takes effect after it
        args["column_filters"] = [*(args.get("column_filters") or []), {"column": "date", "op": op, "value": day}]
        return name, args
    if fact is not None and tool != "EventLocate" and intent.kind != "retrieve":
        texts = [t for r in results for t in r.get("texts") or []]
        if intent.kind == "share":  # the whole condition is the stated value: its table has the value's columns
            table = next((t for t in tables if fact_conditions(question, texts, t)), None)
            if table is None:
                return None
            scope = SHARE_SPLIT.search(mask(question, [p.span for p in periods]))
            call = ("Compute", {"table": table["name"], "target": "*", "operator": "share", "column_filters":
                                period_filters(periods) + (subset_filters(scope.group("scope"), [], table) if scope else []),
                                "condition": []})
        elif tool == "Filter":  # "on which days did my power go over my coach's cap": the days past the stated value
            asked = FACT_REF.sub(" ", question)
            target = choose_target(encoder, asked, periods, tables)
            good = target is not None and target.score >= MIN_COLUMN_SCORE
            # the table the question names, else the one whose columns take the stated value's unit
            table = next((t for t in tables if good and t["name"] == target.table), None) or next(
                (t for t in tables if fact_conditions(question, texts, t)), None)
            if table is None:
                return None
            call = ("Filter", {"table": table["name"], "result_budget": 10, "column_filters": period_filters(periods)
                               + subset_filters(asked, periods, table, target.column if good and target else None)})
        else:
            call = instantiate(max(step - 1, 0), tool, FACT_REF.sub(" ", question), periods, intent, context, [], encoder)
        if call is None or not texts:
            return None
        name, args = call
        table = next((t for t in tables if t["name"] == args.get("table")), None)
        extra = fact_conditions(question, texts, table) if table else []
        if not extra:
            return None
        key = "condition" if args.get("operator") in ("share", "share_of_sum") else "column_filters"
        args[key] = [*(args.get(key) or []), *extra]
        return name, args
    if tool in ("EventLocate", "SemanticMatch"):
        args: dict[str, Any] = {"query": retrieval_query(question, periods), "result_budget": 10}
        bounded = [p for p in periods if p.start or p.end]
        if bounded:
            args["start"] = bounded[0].start.isoformat() if bounded[0].start else None
            args["end"] = bounded[0].end.isoformat() if bounded[0].end else None
        if tool == "EventLocate":
            args["window"] = 1
        else:
            args["scope"] = "episode"
        return tool, args
    kind = intent.kind
    if kind == "compute" and intent.operator == "count":
        target = choose_table(encoder, question, periods, tables)
        if (target is None or target.score < MIN_COLUMN_SCORE) and _DAYS_COUNTED.search(question):
            # "on how many days did I log any work": no table named, the days of the log's own
            # records - the table holding most of them
            target = _dominant_table(tables)
        if target is None or target.score < MIN_COLUMN_SCORE:
            return None
        table = next(t for t in tables if t["name"] == target.table)
        numeric = choose_target(encoder, question, periods, [table])
        filters = period_filters(periods) + subset_filters(question, periods, table, tables=tables)
        if numeric is not None:
            filters += condition_filters(question, periods, numeric)
        if _DAYS_COUNTED.search(question):  # "on how many (different) days": days, not records
            return "Compute", {"table": target.table, "target": "date", "operator": "count_distinct", "column_filters": filters}
        return "Compute", {"table": target.table, "target": "*", "operator": "count", "column_filters": filters}
    if kind == "day_of":
        return _instantiate_day_of(step, question, periods, tables, results, encoder)
    if kind == "share":
        return _instantiate_share(question, periods, tables, encoder)
    if kind == "group":
        return _instantiate_group(question, periods, intent, tables, encoder)
    if kind == "values":
        return _instantiate_values(question, periods, tables, encoder)
    qstems = {word_stem(w) for w in tokenize(question)}
    names_text = any(word_stem(w) in qstems for t in tables for c in t["columns"] if c["type"] == "text"
                     for n in [c["name"], *(c.get("aliases") or [])] for w in n.split("_"))
    target = choose_target(encoder, question, periods, tables, numeric=not (intent.operator in ("last", "first") and names_text))
    which = WHICH_NOUN.search(mask(question, [p.span for p in periods]))
    if intent.operator in ("last", "first") and which and not intent.asks_day:
        named = [(t, c) for t in tables for c in [named_text_column(t, which.group("noun"))] if c] or [
            (t, c) for t in tables for c in [names_column(t, which.group("noun"))] if c] or [
            (t, c) for t in tables for c in [said_text_column(t, which.group("noun"))] if c]  # "which glimmet": what the memory calls them
        if named:  # "which team did we play last": the opponent of the latest row
            target = Target(named[0][0]["name"], named[0][1], None, 1.0, named[0][0]["columns"])
    valued = [t for t in tables if value_filters(question, t)]
    lists_days = intent.asks_day or kind == "filter_days"
    if valued and lists_days and (target is None or target.score < MIN_COLUMN_SCORE or target.table not in {t["name"] for t in valued}):
        target = Target(valued[0]["name"], "date", None, MIN_COLUMN_SCORE, valued[0]["columns"])  # "when did I shop at X"
    if kind == "compare" and intent.operator == "count" and (target is None or target.score < MIN_COLUMN_SCORE):
        # "which month had more grasking sittings": records counted, no column named - the table
        # the question's words fit best
        chosen = choose_table(encoder, question, periods, tables)
        if chosen is not None and chosen.score >= MIN_COLUMN_SCORE:
            target = Target(chosen.table, "*", None, chosen.score, next(t["columns"] for t in tables if t["name"] == chosen.table))
    if (target is None or target.score < MIN_COLUMN_SCORE) and has_comparison(one_units := with_one_units(question)):
        # "did a single tending run to an hour or more": no column named, the one of that dimension
        by_unit = [c for t in tables for c in [column_by_unit(one_units, t)] if c]
        rows = {t["name"]: int(t.get("rows") or 0) for t in tables}
        by_unit.sort(key=lambda c: -rows.get(c.table, 0))
        if _holds_most([rows.get(c.table, 0) for c in by_unit]):
            # several tables hold that dimension: the log's own records, when one table holds most
            target = Target(by_unit[0].table, by_unit[0].column, by_unit[0].unit, MIN_COLUMN_SCORE, by_unit[0].columns)
    if target is None or target.score < MIN_COLUMN_SCORE:
        return None
    table = next(t for t in tables if t["name"] == target.table)
    if intent.asks_day and intent.operator in ("last", "first") and valued and target.column not in ("date", None) \
            and not _said(question, target.column):
        # "when did I last tend Gannow": the day of the latest row holding the value, whatever it measured
        target = Target(target.table, "date", None, target.score, target.columns)
    if kind in ("rank", "compute") and intent.operator in ("max", "min") and (speed := speed_expression(question, table)):
        target = Target(target.table, speed, "km/h", target.score, target.columns)  # "my fastest run": distance over time
    base = period_filters(periods) + subset_filters(question, periods, table, target.column, tables)
    if kind in ("compute", "lookup"):
        return "Compute", {"table": target.table, "target": target.column, "operator": intent.operator,
                           "column_filters": base + condition_filters(question, periods, target)}
    if kind == "rank":
        if intent.operator in ("max", "min"):
            return "Rank", {"table": target.table, "target": target.column, "order": "desc" if intent.operator == "max" else "asc",
                            "column_filters": base + condition_filters(question, periods, target), "result_budget": 3}
        return "Compute", {"table": target.table, "target": target.column, "operator": intent.operator,
                           "column_filters": base + condition_filters(question, periods, target)}
    if kind == "filter_days":
        conditions = condition_filters(question, periods, target) if target.column != "date" else []
        if not conditions and not subset_filters(question, periods, table, tables=tables) \
                and not any(p.start or p.end for p in periods):
            return None  # "which days in the week of April 14 did I log time": the days of that week's rows
        return "Filter", {"table": target.table, "column_filters": base + conditions, "result_budget": 10}
    if kind == "trend":
        return "Compute", {"table": target.table, "target": target.column, "operator": "trend", "column_filters": base}
    if kind == "compare":
        sides = compare_sides(question, periods, table, tables)
        if sides is None:
            return None
        side = sides[min(step, 1)][0]
        side_words = {w for side, label in sides for w in tokenize(label)}
        shared = [f for f in subset_filters(question, periods, table, target.column, tables)
                  if f not in sides[0][0] + sides[1][0] and not set(tokenize(str(f["value"]))) & side_words]
        return "Compute", {"table": target.table, "target": target.column if intent.operator != "count" else "*",
                           "operator": intent.operator, "column_filters": side + shared}
    return None


def _holds_most(rows: list[int]) -> bool:
    """Row counts, largest first: does the first hold :data:`DOMINANT_ROWS` times the next (or
    is it the only one)? Pure."""
    return len(rows) == 1 or len(rows) > 1 and rows[0] >= DOMINANT_ROWS * rows[1]


def _dominant_table(tables: list[dict[str, Any]]) -> Target | None:
    """The table with at least :data:`DOMINANT_ROWS` times the rows of any other, if one is."""
    ranked = sorted(tables, key=lambda t: -int(t.get("rows") or 0))
    if not ranked or not ranked[0].get("rows") or not _holds_most([int(t.get("rows") or 0) for t in ranked]):
        return None
    return Target(ranked[0]["name"], "*", None, MIN_COLUMN_SCORE, ranked[0]["columns"])


#: A table with at least this many times the rows of the next one holding a unit's dimension
#: is where "a single entry ran more than 5 hours" looks, when no column is named.
DOMINANT_ROWS = 3


def _said(question: str, column: str) -> bool:
    """Does the question say a word of the column's name?"""
    words = {word_stem(w) for w in tokenize(question)}
    return any(word_stem(w) in words for w in column.split("_") if len(w) > 1)


def _instantiate_share(question: str, periods: list[Period], tables: list[dict[str, Any]],
                       encoder: Any) -> tuple[str, dict[str, Any]] | None:
    """"What share of my rides were commutes?": Compute share, the scope from the periods and
    the population, the condition from the predicate (a value, a subset, a comparison)."""
    m = SHARE_SPLIT.search(mask(question, [p.span for p in periods]))
    pred = m.group("pred") if m else question
    scope_text = m.group("scope") if m else ""
    target = choose_table(encoder, question, periods, tables)
    if target is None or target.score < MIN_COLUMN_SCORE:
        return None
    table = next(t for t in tables if t["name"] == target.table)
    condition = value_filters(pred, table)
    numeric = choose_target(encoder, pred, [], [table]) if re.search(r"\d", pred) else None
    if numeric is None and re.search(r"\d", pred):
        numeric = column_by_unit(pred, table)  # "were over $50": the one money column
    if numeric is not None:
        condition += condition_filters(pred, [], numeric)
    skip = {w for f in condition for w in tokenize(str(f.get("value", "")))} | {word_stem(w) for w in tokenize(scope_text)}
    values = {str(f.get("value", "")).lower() for f in condition}
    skip |= {w for f in vocabulary_values(pred) if f.value.lower() in values for w in tokenize(pred[f.start:f.end])}
    if condition:  # "found the glimmet ollun": the value's, and what the memory calls its holders, no subset
        skip |= {w for w in tokenize(pred) if called_text_column(table, w)}
    condition += mention_filters(pred, [], table, skip=skip, whole=True)
    if not condition:
        return None
    scope = period_filters(periods) + (subset_filters(scope_text, [], table) if scope_text else [])
    # "of the days where I mentioned my mood, what share ... stressed": the population is the
    # rows that say a mood at all, not every row
    scope += [{"column": f["column"], "op": "not_null"} for f in condition
              if f["op"] in ("=", "in") and f["column"] != "captions" and _said(scope_text, f["column"])]
    quantity = _shared_quantity(scope_text, table)
    return "Compute", {"table": table["name"], "target": quantity, "operator": "share" if quantity == "*" else "share_of_sum",
                       "column_filters": scope, "condition": condition}


#: A share of a quantity, not of records: "what share of my spending", "of the money".
_SPENDING = re.compile(r"\b(?:spending|spend|spent|money|expenses?|costs?|outlay)\b", re.I)


def _shared_quantity(scope_text: str, table: dict[str, Any]) -> str:
    """The numeric column a share is of ("my spending": the money column; "my hours", "the
    distance": the column of that unit or name), else "*" (a share of records)."""
    if not scope_text:
        return "*"
    numeric = [c for c in table["columns"] if c["type"] in ("int", "float")]
    if _SPENDING.search(scope_text):
        money = [c for c in numeric if (dimension_of(c.get("unit")) or "").startswith("currency:")]
        return money[0]["name"] if len(money) == 1 else "*"
    words = {word_stem(w) for w in tokenize(scope_text)}
    named = [c for c in numeric if {word_stem(w) for w in c["name"].split("_")} & words]
    if len(named) == 1:
        return named[0]["name"]
    dims = {dimension_of(canonical_unit(w) or "") for w in tokenize(scope_text)} - {None, "count"}
    by_unit = [c for c in numeric if dimension_of(c.get("unit")) in dims]
    return by_unit[0]["name"] if len(by_unit) == 1 else "*"


_VIRTUAL_GROUPS = {"month": "month", "week": "week", "weekday": "weekday", "year": "year", "day": "day", "date": "day"}


def _instantiate_values(question: str, periods: list[Period], tables: list[dict[str, Any]],
                        encoder: Any) -> tuple[str, dict[str, Any]] | None:
    """"Which routes did I ride in June?": the column's distinct values in scope, as groups
    counted (every group is listed), from the table the question's words fit best."""
    noun = lists_values(without_values(question, [f for t in tables for f in value_filters(question, t)]), periods) or ""
    holders = [t for t in tables if called_text_column(t, noun)] or [t for t in tables if names_column(t, noun)]
    if not holders:
        return None
    target = choose_table(encoder, question, periods, holders)
    table = next((t for t in holders if target and t["name"] == target.table), holders[0])
    group = called_text_column(table, noun) or names_column(table, noun)
    filters = period_filters(periods) + [f for f in subset_filters(question, periods, table, group) if f.get("column") != group]
    if re.search(r"\d", question):  # "which glimmets have ever had a threnn above 17 qelts"
        numeric = choose_target(encoder, question, periods, [table])
        if numeric is not None:
            filters += condition_filters(question, periods, numeric)
    return "Compute", {"table": table["name"], "target": "*", "operator": "count", "group_by": group,
                       "order": "desc", "column_filters": filters}


def _instantiate_group(question: str, periods: list[Period], intent: Intent, tables: list[dict[str, Any]],
                       encoder: Any) -> tuple[str, dict[str, Any]] | None:
    """"Which station did I fill up at most often?", "Which month had my lowest average
    systolic?": Compute per group, ranked; the group is a column named like the question's
    noun, a calendar unit, else the table's text column of names."""
    bounded = [p for p in periods if p.start or p.end]
    m = (WHICH_CALENDAR.search(question) if len(bounded) >= 3 else None) or GROUP_MONTH.search(question) or GROUP.search(question)
    noun = (m.group("noun") if m else "").lower().split()[0] if m else ""
    if intent.operator == "count":
        target = choose_table(encoder, question, periods, tables)
        column = "*"
    else:
        target = choose_target(encoder, question, periods, tables)
        column = target.column if target else None
    if target is None or target.score < MIN_COLUMN_SCORE:
        return None
    table = next(t for t in tables if t["name"] == target.table)
    if noun in _VIRTUAL_GROUPS:
        group = _VIRTUAL_GROUPS[noun]
    else:
        found = text_column(table, noun)
        if found is None:
            return None
        group = found
    spans = period_filters(periods)
    if len(bounded) >= 2 and all(p.start and p.end for p in bounded):  # the listed months together, each a group
        spans = [{"column": "date", "op": "between",
                  "value": [min(p.start for p in bounded).isoformat(), max(p.end for p in bounded).isoformat()]}]  # type: ignore[type-var]
    filters = spans + [f for f in subset_filters(question, periods, table, column) if f.get("column") != group]
    return "Compute", {"table": table["name"], "target": column, "operator": intent.operator, "group_by": group,
                       "order": "asc" if intent.wants_less else "desc", "column_filters": filters}


def compare_sides(question: str, periods: list[Period], table: dict[str, Any],
                  tables: list[dict[str, Any]] | None = None) -> list[tuple[list[dict[str, Any]], str]] | None:
    """The two things compared, each as (filters, label): two periods, or two text values of
    one column - of the table, or of a table linked to it (``tables``, see ``linked_filters``:
    "pages of mystery or of science fiction"). The label is the question's own words for the side."""
    bounded = [p for p in periods if p.start or p.end]
    if len(bounded) == 1 and RANGE_WORDS.match(bounded[0].phrase) and TREND.search(question):
        # "rise or fall between February and April": February against April, not one span
        inner = re.sub(r"^(?:between|from)\s+", "", bounded[0].phrase, flags=re.I)
        parts = re.split(r"\s+(?:and|to|until|till|through|thru)\s+|\s*[-–—]\s*(?=[A-Za-z])", inner, maxsplit=1, flags=re.I)
        ends = [q for part in parts for q in find_periods(part, bounded[0].end or bounded[0].start)[:1] if q.start]
        if len(ends) >= 2:
            bounded = ends[:2]
    if len(bounded) >= 2:
        return [([p.to_filter()], _phrase(p.phrase)) for p in bounded[:2]]
    if days := weekday_sides(question):
        return days
    named = []
    firsts = first_words(v for c in table["columns"] if c["type"] == "text" for v in c.get("values") or c.get("samples") or [])
    for c in table["columns"]:
        if c["type"] != "text":
            continue
        values = c.get("values") or c.get("samples") or []
        for value in values:
            said = re.search(value_pattern(value), question.lower()) or short_name(str(value), question, firsts)
            if said and not names_the_records(question, str(value), c["name"], table) \
                    and all(str(value).lower() != str(side[0][0]["value"]).lower() for side in named):
                named.append(([{"column": c["name"], "op": "=", "value": value}], str(value)))
    if len(named) < 2:  # "paperbacks or ebooks": the stored values in other words
        for f in vocabulary_values(question):
            for c in table["columns"]:
                hit = next((v for v in c.get("values") or c.get("samples") or [] if c["type"] == "text"
                            and str(v).lower() == f.value.lower()), None)
                if hit is not None and all(hit != side[0][0]["value"] for side in named):
                    named.append(([{"column": c["name"], "op": "=", "value": hit}], question[f.start:f.end]))
                    break
    if len(named) < 2 and tables:  # two values of one column of a linked table: the two sides
        low, mine = question.lower(), {c["name"] for c in table["columns"]}
        for other in tables:
            for c in other["columns"] if other["name"] != table["name"] else []:
                if c["type"] != "text" or c["name"] in mine:
                    continue
                spots, rest = {}, low
                for v in sorted(map(str, c.get("values") or []), key=len, reverse=True):  # "science fiction" before "fiction"
                    if m := re.search(value_pattern(v), rest):
                        spots[v], rest = m.start(), rest[:m.start()] + " " * len(v) + rest[m.end():]
                via = link_column(table, other, {c["name"]}) if len(spots) >= 2 else None
                if via is not None:
                    return [([{"column": c["name"], "op": "=", "value": v, "table": other["name"], "via": via}], v)
                            for v in sorted(spots, key=spots.get)[:2]]
    if len(named) >= 2:
        return named[:2]
    m = _EITHER.search(mask(question, [p.span for p in periods]))
    if m and table.get("vocabulary"):
        sides = []
        for part in (m.group("a"), m.group("b")):
            found = mention_filters(part, [], table, whole=True)
            if found:
                sides.append((found[:1], part.strip()))
        if len(sides) == 2:
            return sides
    if len(bounded) == 1:  # "the first week of March or the second": the elided side is the next ordinal
        p = bounded[0]
        m = re.search(r"\bor\s+(?:in\s+)?(?:the\s+)?(first|second|third|fourth|last)(?:\s+(week|half))?\b", question, re.I)
        unit = re.search(r"\b(week|half)\s+(?:of|in)\s+(.+)$", p.phrase, re.I)
        if m and unit and p.end:
            phrase = f"the {m.group(1).lower()} {unit.group(1).lower()} of {unit.group(2)}"
            other = find_periods(phrase, p.end)
            if other and other[0].start:
                return [([p.to_filter()], _phrase(p.phrase)), ([other[0].to_filter()], phrase)]
    return None


#: Days of the week said as a kind of day: "weekdays", "the weekend", "Mondays" (a plural: one
#: "Monday" is a date).
_WEEK_DAYS = re.compile(r"\b(?:(?P<weekday>week\s?days?)|(?P<weekend>week\s?ends?)|(?P<day>(?:mon|tues|wednes|thurs|fri|satur|sun)days))\b", re.I)


def weekday_sides(question: str) -> list[tuple[list[dict[str, Any]], str]] | None:
    """Two kinds of day of the week compared ("on weekdays or at the weekend", "Mondays or
    Fridays"), each as a filter on the virtual ``weekday`` column (0 = Monday); else None. Pure."""
    sides: list[tuple[list[dict[str, Any]], str]] = []
    for m in _WEEK_DAYS.finditer(question):
        days = [0, 1, 2, 3, 4] if m.group("weekday") else [5, 6] if m.group("weekend") else [WEEKDAYS[m.group("day").lower()[:-1]]]
        if all(side[0][0]["value"] != days for side in sides):
            sides.append(([{"column": "weekday", "op": "in", "value": days}], m.group(0)))
    return sides[:2] if len(sides) >= 2 else None


_EITHER = re.compile(r"(?:\b(?:on|at|for|in|of|with)\s+)?(?:the\s+|my\s+)?(?P<a>[\w'’ -]{2,40}?)\s+or\s+(?:on\s+|at\s+|for\s+|in\s+|of\s+|with\s+)?"
                     r"(?:the\s+|my\s+)?(?P<b>[\w'’ ()-]{2,60}?)\s*\??$", re.I)


def _phrase(text: str) -> str:
    return re.sub(r"^(?:in|on|during)\s+", "", text.strip())


def _instantiate_day_of(step: int, question: str, periods: list[Period], tables: list[dict[str, Any]],
                        results: list[dict[str, Any]], encoder: Any) -> tuple[str, dict[str, Any]] | None:
    """"What was X on the day I slept the least?": find the day first, then read X on it."""
    m = DAY_OF.search(question)
    if m is None:
        return None
    clause = m.group("clause")
    if step == 0:
        target = choose_target(encoder, clause, [], tables)
        if target is None or target.score < MIN_COLUMN_SCORE:
            return None
        order = "asc" if MIN.search(clause) else "desc"
        return "Rank", {"table": target.table, "target": target.column, "order": order,
                        "column_filters": period_filters(periods), "result_budget": 1}
    days = [d for r in results for d in r.get("dates", [])]
    if not days:
        return None
    asked = question[: m.start()] + question[m.end():]
    target = choose_target(encoder, asked, [], tables)
    if target is None or target.score < MIN_COLUMN_SCORE:
        return None
    return "Compute", {"table": target.table, "target": target.column, "operator": "last",
                       "column_filters": [{"column": "date", "op": "=", "value": days[0]}]}
