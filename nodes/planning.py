"""The planning context (AdaMM §3.5, Eq. 8): which tables and episodes a planner is shown.

Every induced table (name, description, columns with units, sampled values) and every episode
(its description) is a candidate. Candidates are ranked by ``h = λ·cos(E(q), E(μ)) + (1-λ)·BM25(q, μ)``
(``stores.fusion.blend``) and the top ``k_tab`` tables and ``k_epi`` episodes are kept, each
with the specs of the tools that apply to it. A planner that sees five relevant tables with
their real column names and values writes valid calls; one that sees every table of a large
memory wastes tokens and picks wrong ones.

Without planning context (the ``use_planning_context=False`` ablation) the planner is shown
every table by name and columns only, unranked, and no episodes.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

import numpy as np

from adamm.nodes.backends import backends
from adamm.nodes.context import Context
from adamm.nodes.hierarchy import EPISODES
from adamm.nodes.rules.plan_words import word_stem
from adamm.nodes.toolbox import ANALYTIC_TOOLS, RETRIEVAL_TOOLS, TOOL_SPECS, enabled_tools
from adamm.stores.analytic import value_counts
from adamm.stores.bm25 import BM25Index, tokenize
from adamm.stores.fusion import blend
from adamm.stores.quantities import canonical_unit

#: Distinct values sampled per text column, and text columns sampled per table.
SAMPLES_PER_COLUMN = 12
#: Distinct values per text column a question can name as a filter (not shown to models).
MATCHABLE_VALUES = 200
#: Episodes considered from each ranking before blending.
EPISODE_POOL = 50


def table_document(table: dict[str, Any]) -> str:
    """The metadata text μ of a table that the question is matched against."""
    cols = []
    for c in table["columns"]:
        words = c["name"].replace("_", " ")
        if c.get("unit"):
            words += f" ({c['unit']})"
        if c.get("samples"):
            words += ": " + ", ".join(map(str, c["samples"]))
        cols.append(words)
    keywords = f" Records mention: {', '.join(table['keywords'])}." if table.get("keywords") else ""
    return f"{table['name'].replace('_', ' ')}. {table.get('description', '')}{keywords} Columns: {'; '.join(cols)}"


def table_candidates(ctx: Context, memory_id: str, *, with_samples: bool = True) -> list[dict[str, Any]]:
    """Every table of the memory as a planner-facing dict (sampled values for text columns)."""
    sql = backends(ctx).sql
    out = []
    aliases = {a.name: [x for x in a.aliases if x != a.name][:8] for a in sql.attributes(memory_id)} if with_samples else {}
    for info in sql.tables(memory_id):
        columns = []
        for c in info.columns:
            col: dict[str, Any] = {"name": c.name, "type": c.type, "unit": c.unit}
            if aliases.get(c.name):
                col["aliases"] = aliases[c.name]  # the labels it was written under: pulse, PUL, heart rate
            if with_samples and c.type == "text":
                col["filled"] = sql.count_rows(memory_id, info.name, not_null=c.name)
                counted = value_counts(sql, memory_id, info.name, c.name, MATCHABLE_VALUES)
                values = [v for v, _ in counted]
                col["samples"] = values[:SAMPLES_PER_COLUMN]
                col["values"] = values
                col["counts"] = {}
                for v, n in counted:  # "Gosting" and "gosting": one value, counted together
                    key = str(v).strip().lower()
                    col["counts"][key] = col["counts"].get(key, 0) + n
            columns.append(col)
        rows = sql.count_rows(memory_id, info.name)
        table = {"name": info.name, "description": info.description if with_samples else "", "columns": columns, "rows": rows}
        if with_samples:
            table["vocabulary"], table["pairs"] = record_vocabulary(ctx, memory_id, info.name, rows)
        if with_samples:
            table["keywords"] = table_keywords(ctx, memory_id, info.name, rows, {w for c in info.columns for w in c.name.split("_")})
        out.append(table)
    if with_samples:  # one pass over the memory's rounds for every table's text columns
        said = said_with(ctx, memory_id, {(t["name"], c["name"]): c.get("values") or [] for t in out for c in t["columns"] if c["type"] == "text"})
        for t in out:
            for c in t["columns"]:
                if said.get((t["name"], c["name"])):
                    c["said_with"] = said[(t["name"], c["name"])]
    return out


_SAID_WITH: dict[tuple, dict[tuple[str, str], dict[str, int]]] = {}
#: Words kept per column: the ones said most often with its values.
SAID_WITH_WORDS = 400


def said_with(ctx: Context, memory_id: str, columns: dict[tuple[str, str], list[Any]]) -> dict[tuple[str, str], dict[str, int]]:
    """What the memory says around each text column's values: ``{(table, column): {word stem:
    weight}}``, a word's weight the number of the column's distinct values named in the rounds
    that say it. "Which glimmet ..." asks for the column whose values the memory calls glimmets ("my
    glimmets: Vashti, Oremko, Tisbel and Gannow"), when no column is named so: its values are
    said with that word, a category's values (brask, quorl) seldom. Over every round, not only
    the records', for that is where a memory introduces its names. Not shown to models; cached
    per memory size."""
    sql = backends(ctx).sql
    wanted = {name: sorted({str(v).strip().lower() for v in values if len(str(v).strip()) >= 2}) for name, values in columns.items()}
    wanted = {name: values for name, values in wanted.items() if values}
    if not wanted:
        return {}
    key = (sql.url, memory_id, sql.count_rounds(memory_id), tuple(sorted((n, tuple(v)) for n, v in wanted.items())))
    if key in _SAID_WITH:
        return _SAID_WITH[key]
    single = {name: {v for v in values if " " not in v} for name, values in wanted.items()}
    multi = {name: [v for v in values if " " in v] for name, values in wanted.items()}
    counts: dict[str, dict[str, int]] = {name: {} for name in wanted}
    for rnd in sql.get_rounds(memory_id):
        text = rnd.text.lower()
        words = set(tokenize(text))
        stems = {word_stem(w) for w in words}
        for name in wanted:
            hits = len(single[name] & words) + sum(1 for v in multi[name] if v in text)
            if hits:
                into = counts[name]
                for w in stems:
                    into[w] = into.get(w, 0) + hits
    out = {name: dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:SAID_WITH_WORDS]) for name, c in counts.items() if c}
    if len(_SAID_WITH) > 100:
        _SAID_WITH.clear()
    _SAID_WITH[key] = out
    return out


_VOCABULARY: dict[tuple[str, str, str, int], tuple[dict[str, int], dict[str, int]]] = {}
#: Rows whose words are counted for a table's vocabulary (the most recent ones).
VOCABULARY_ROWS = 3000


def record_vocabulary(ctx: Context, memory_id: str, table: str, rows: int) -> tuple[dict[str, int], dict[str, int]]:
    """How many of a table's rows use each word in their own text (the record's sentences and
    captions): what a question can name as a subset ("evening readings", "on the gravel
    bike", "at PetroLux") when no column holds it - and each pair of neighbouring words
    ("evening reading", "praisting batch"), which tells a modifier that varies (a subset) from
    one the records always write (what they are called). Not shown to models. Cached per
    table size."""
    sql = backends(ctx).sql
    key = (sql.url, memory_id, table, rows)
    if key in _VOCABULARY:
        return _VOCABULARY[key]
    counts: dict[str, int] = {}
    pairs: dict[str, int] = {}
    for r in sql.select_rows(memory_id, table, order_by="order", descending=True, limit=VOCABULARY_ROWS):
        raw = str(r.get("captions") or "")
        tokens = tokenize(raw)
        for word in set(tokens):
            counts[word] = counts.get(word, 0) + 1
        # a name written capitalized inside a sentence ("the Krommest sitting table": an app)
        # modifies no noun: its pairs are no evidence of what the records are called
        names = {w.lower() for w in re.findall(r"(?<=[a-z,;] )[A-Z][a-z]+", raw)} - set(re.findall(r"\b[a-z]+\b", raw))
        for pair in {f"{a} {b}" for a, b in zip(tokens, tokens[1:]) if a not in names}:
            pairs[pair] = pairs.get(pair, 0) + 1
    if len(_VOCABULARY) > 1000:
        _VOCABULARY.clear()
    _VOCABULARY[key] = (counts, pairs)
    return counts, pairs


_KEYWORDS: dict[tuple[str, str, str, int], list[str]] = {}


def table_keywords(ctx: Context, memory_id: str, table: str, rows: int, columns: set[str], *, sample: int = 30, k: int = 8) -> list[str]:
    """Words most of a table's source rounds share ("run", "workout", "cgm"): what people call
    the records, which the column names often do not say (a run log whose columns are dist,
    duration and average_heart_rate). ``columns``: words of the column names, left out. Cached
    per table size."""
    sql = backends(ctx).sql
    key = (sql.url, memory_id, table, rows)
    if key in _KEYWORDS:
        return _KEYWORDS[key]
    sources = [str(r["source"]) for r in sql.select_rows(memory_id, table, limit=sample)]
    texts = [r.text for r in sql.get_rounds(memory_id, sources)] if sources else []
    df: dict[str, int] = {}
    for text in texts:
        for word in set(tokenize(text)):
            if len(word) > 2 and not word.isdigit() and word not in columns and word not in _KEYWORD_STOP \
                    and canonical_unit(word) is None:
                df[word] = df.get(word, 0) + 1
    keep = [w for w, n in sorted(df.items(), key=lambda wn: (-wn[1], wn[0])) if n >= max(2, 0.4 * len(texts))][:k]
    if len(_KEYWORDS) > 10_000:
        _KEYWORDS.clear()
    _KEYWORDS[key] = keep
    return keep


_KEYWORD_STOP = set("""the and for you your with this that was were are have has had not but all can get got just
today yesterday last night week day logged log noted here thanks thank nice great good best past user assistant
image from into over what when how about been its it's let lets keep well done heart rate average avg total
dollars""".split())


def rank_tables(ctx: Context, question: str, tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tables ranked by the Eq. 8 blend, each with its ``score``; best first."""
    if not tables:
        return []
    docs = [table_document(t) for t in tables]
    enc = backends(ctx).text_encoder
    vecs = enc.encode([question, *docs])
    cos = {i: float(np.dot(vecs[0], v)) for i, v in enumerate(vecs[1:])}
    kw = BM25Index([(str(i), d) for i, d in enumerate(docs)]).scores(question)
    scores = blend(cos, {int(k): v for k, v in kw.items()}, ctx.lambda_meta)
    order = sorted(range(len(tables)), key=lambda i: (-scores.get(i, 0.0), tables[i]["name"]))
    return [{**tables[i], "score": round(scores.get(i, 0.0), 4)} for i in order]


def rank_episodes(ctx: Context, memory_id: str, question: str, k: int) -> list[dict[str, Any]]:
    """The ``k`` episodes whose descriptions best match the question (Eq. 8 blend)."""
    if k <= 0:
        return []
    units = backends(ctx).units
    dense = {u.unit_id: float(u.score) for u in units.search(memory_id, EPISODES, question, EPISODE_POOL, mode="dense")}
    keyword = {u.unit_id: float(u.score) for u in units.search(memory_id, EPISODES, question, EPISODE_POOL, mode="bm25")}
    scores = blend(dense, keyword, ctx.lambda_meta)
    top = sorted(scores, key=lambda i: (-scores[i], i))[:k]
    if not top:
        return []
    sql = backends(ctx).sql
    nodes = {n.node_id: n for n in sql.nodes(memory_id, "episode", node_ids=top)}
    texts = {u.unit_id: u.text for u in sql.units(memory_id, EPISODES, top)}
    out = []
    for node_id in top:
        n = nodes.get(node_id)
        if n is None:
            continue
        out.append({"node_id": node_id, "description": (texts.get(node_id) or n.description)[:600],
                    "start": n.start_time.isoformat() if n.start_time else None,
                    "end": n.end_time.isoformat() if n.end_time else None,
                    "score": round(scores[node_id], 4)})
    return out


def build_planning_context(ctx: Context, memory_id: str, question: str) -> dict[str, Any]:
    """Tables, episodes and tool specs for one question, as plain data (it lives in graph state)."""
    tools = enabled_tools(ctx)
    tables: list[dict[str, Any]] = []
    episodes: list[dict[str, Any]] = []
    if ctx.use_planning_context:
        if any(t in tools for t in ANALYTIC_TOOLS):
            tables = rank_tables(ctx, question, table_candidates(ctx, memory_id))[: ctx.k_tab]
            for t in tables:
                t["tools"] = [t_ for t_ in ANALYTIC_TOOLS if t_ in tools]
        if any(t in tools for t in RETRIEVAL_TOOLS):
            episodes = rank_episodes(ctx, memory_id, question, ctx.k_epi)
            for e in episodes:
                e["tools"] = [t_ for t_ in RETRIEVAL_TOOLS if t_ in tools]
    elif any(t in tools for t in ANALYTIC_TOOLS):
        tables = table_candidates(ctx, memory_id, with_samples=False)
    return {"tables": tables, "episodes": episodes, "tools": {t: TOOL_SPECS[t] for t in tools}}


def first_clause(spec: str) -> str:
    """A tool spec up to the end of its first clause: its signature and what it returns."""
    head, _, rest = spec.partition("): ")
    if not rest:
        return spec
    clause = re.split(r"; |\. ", rest, maxsplit=1)[0].rstrip(".")
    return f"{head}): {clause}."


def render_context(context: dict[str, Any], tools: Collection[str] | None = None, *, brief: bool = False) -> str:
    """The planning context as compact text for a model prompt.

    ``tools``: only what calls of these tools need - their specs, the tables when one of them
    is analytic, the episodes when one retrieves - so instantiating a step does not pay again
    for all of the context the plan was written from. ``brief`` (for the plan, which picks
    tools but writes no arguments): each tool's first clause, no sample values, episodes cut
    shorter; the step that calls a tool gets its whole spec and the rest.
    """
    tools = set(context.get("tools", {}) if tools is None else tools)
    lines = []
    if context.get("tables") and tools & set(ANALYTIC_TOOLS):
        lines.append("Tables (every table also has: date = the day the values are about, time, source = round id):")
        for t in context["tables"]:
            cols = []
            for c in t["columns"]:
                s = f"{c['name']} {c['type']}" + (f" [{c['unit']}]" if c.get("unit") else "")
                if c.get("samples") and not brief:
                    s += " e.g. " + ", ".join(repr(v) for v in c["samples"][:6])
                cols.append(s)
            desc = f" - {t['description']}" if t.get("description") else ""
            if t.get("keywords"):
                desc += f" Records mention: {', '.join(t['keywords'])}."
            lines.append(f"- {t['name']} ({t.get('rows', '?')} rows){desc}\n  columns: {'; '.join(cols)}")
    if context.get("episodes") and tools & set(RETRIEVAL_TOOLS):
        lines.append("Episodes of the conversation (for SemanticMatch / EventLocate):")
        for e in context["episodes"]:
            span = f"{(e.get('start') or '')[:10]}..{(e.get('end') or '')[:10]}"
            lines.append(f"- [{e['node_id']}] {span}: {e['description'][:150 if brief else 300]}")
    lines.append("Tools:")
    lines.extend(f"- {first_clause(spec) if brief else spec}" for name, spec in context.get("tools", {}).items() if name in tools)
    return "\n".join(lines)
