"""A small Python facade over the graphs, for agents that do not speak LangGraph.

    from adamm.memory import Memory

    mem = Memory("ada")                                   # embedded stores under $ADAMM_HOME
    mem.ingest([{"round_id": "r1", "user_text": "We named the puppy Biscuit."}])
    ans = mem.ask("What is the puppy called?")
    ans.answer, ans.citations, ans.cost_summary
    mem.tables()                                          # [TableInfo(name="sleep_log", ...)]
    mem.forget(round_ids=["r1"])

Every call goes through the same compiled ``ingest`` / ``query`` graphs a LangGraph server
serves, so the facade can never drift from the graphs' behaviour; it only turns their plain
dict outputs into typed objects and picks the graph context once. The ``a*`` twins run the same
work without blocking an event loop.
"""

from __future__ import annotations

import asyncio
import base64
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from adamm.nodes.context import Context
from adamm.nodes.cost import summarize
from adamm.nodes.state import merge_counts
from adamm.stores.records import Round

__all__ = ["Answer", "Citation", "ColumnInfo", "IngestReport", "Memory", "TableInfo"]

#: Rounds per ``ingest`` graph invocation. Each run pays a fixed cost (a write to each of seven
#: vector collections, a transaction per step, the hierarchy's reads) of about 0.18 s here: a
#: fifth of ingestion time on the Mem-Gallery split at 64 rounds a run, 7 % at 256. An
#: interrupted run loses only derivation work: its rounds are stored first and completed by
#: the next run.
DEFAULT_BATCH = 256

#: Output keys of the ``query`` graph that ``Answer`` has fields for; any other output key (a
#: planner's ``plan`` or ``notes``) is kept in ``Answer.extra`` rather than dropped.
_ANSWER_KEYS = ("answer", "citations", "evidence", "cost")


@dataclass(frozen=True)
class IngestReport:
    """What one ``ingest`` call stored and derived."""

    memory_id: str
    rounds_added: int
    rounds_updated: int
    rounds_unchanged: int
    counts: dict[str, int] = field(default_factory=dict)
    """Every count the ingest graph reported (``units_indexed``, ``table_rows``, ``events`` ...)."""
    cost: list[dict[str, Any]] = field(default_factory=list)

    @property
    def rounds(self) -> int:
        """Rounds the call handed over, whatever happened to each."""
        return self.rounds_added + self.rounds_updated + self.rounds_unchanged


@dataclass(frozen=True)
class Citation:
    """A source of an answer: a round, and the images of it the answer rests on."""

    round_id: str
    image_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Answer:
    """A cited answer. ``evidence`` is everything the answerer saw, best first."""

    answer: str
    citations: tuple[Citation, ...]
    evidence: list[dict[str, Any]]
    cost: list[dict[str, Any]]
    extra: dict[str, Any] = field(default_factory=dict)
    """Output keys beyond the four above (e.g. a planner's ``plan`` or ``notes``)."""

    @property
    def round_ids(self) -> list[str]:
        return [c.round_id for c in self.citations]

    @property
    def cost_summary(self) -> dict[str, Any]:
        """Totals of the cost ledger: model calls, tokens, seconds, per node and per role."""
        return summarize(self.cost)

    def to_dict(self) -> dict[str, Any]:
        """The query graph's output as plain data (what ``adamm ask --json`` prints)."""
        citations = [{"round_id": c.round_id, "image_ids": list(c.image_ids)} for c in self.citations]
        return {"answer": self.answer, "citations": citations, "evidence": self.evidence, "cost": self.cost, **self.extra}

    def __str__(self) -> str:
        return self.answer


@dataclass(frozen=True)
class ColumnInfo:
    name: str
    type: str
    unit: str | None = None


@dataclass(frozen=True)
class TableInfo:
    """One analytic table induced for this memory."""

    name: str
    description: str
    columns: tuple[ColumnInfo, ...]
    row_count: int  #: how many rows it has; :meth:`Memory.rows` gives them (``rows`` is always a list)


class Memory:
    """One memory (a user, a tenant) and the configuration its graphs run with.

    ``context`` is a ``Context``, a dict of its fields, or any object with attributes of the
    same names (a host agent's own settings); ``None`` means environment and defaults.
    Invalid configuration fails here, not on the first call.
    """

    def __init__(self, memory_id: str, *, context: Context | Mapping[str, Any] | Any = None, batch_size: int = DEFAULT_BATCH):
        from adamm.nodes.inputs import check_memory_id  # noqa: PLC0415 - `import adamm.memory` stays light

        self.memory_id = check_memory_id(memory_id)
        self.context = Context.coerce(dict(context) if isinstance(context, Mapping) else context)
        if batch_size < 1:
            raise ValueError("batch_size: must be at least 1")
        self.batch_size = batch_size

    def __repr__(self) -> str:
        return f"Memory({self.memory_id!r})"

    # -- ingest ---------------------------------------------------------------------------

    def ingest(self, rounds: Iterable[Round | Mapping[str, Any]], *, progress: str | None = None) -> IngestReport:
        """Remember rounds (dicts in the JSONL round format, or ``Round`` objects).

        Re-ingesting a round changes nothing; a changed round under the same id is updated.
        A batch with an invalid round raises ``InputError`` and stores nothing of that batch.
        ``progress``: a label for a progress bar on stderr (the command line's; none by default).
        """
        from tqdm import tqdm  # noqa: PLC0415 - only when ingesting

        from adamm.graphs.ingest import graph  # noqa: PLC0415 - building the graphs loads the stores' code

        payloads = self._ingest_payloads(rounds)
        outputs = []
        with tqdm(total=sum(len(p["rounds"]) for p in payloads), desc=progress, unit="round", file=sys.stderr,
                  disable=True if progress is None else None) as bar:
            for payload in payloads:
                outputs.append(graph.invoke(payload, context=self.context))
                bar.update(len(payload["rounds"]))
        return self._report(outputs)

    async def aingest(self, rounds: Iterable[Round | Mapping[str, Any]]) -> IngestReport:
        from adamm.graphs.ingest import graph  # noqa: PLC0415 - builds the graphs (seconds): only where they run

        outputs = [await graph.ainvoke(payload, context=self.context) for payload in self._ingest_payloads(rounds)]
        return self._report(outputs)

    def _ingest_payloads(self, rounds: Iterable[Round | Mapping[str, Any]]) -> list[dict[str, Any]]:
        if isinstance(rounds, (Round, Mapping, str, bytes)):
            raise TypeError("rounds: expected a list of rounds, got a single " + type(rounds).__name__)
        plain = [_plain_round(r, i) for i, r in enumerate(rounds)]
        step = self.batch_size
        return [{"memory_id": self.memory_id, "rounds": plain[i:i + step]} for i in range(0, len(plain), step)]

    def _report(self, outputs: Sequence[dict[str, Any]]) -> IngestReport:
        counts: dict[str, int] = {}
        cost: list[dict[str, Any]] = []
        for out in outputs:
            counts = merge_counts(counts, out.get("stored"))
            cost.extend(out.get("cost", []))
        return IngestReport(
            memory_id=self.memory_id,
            rounds_added=counts.get("rounds_added", 0),
            rounds_updated=counts.get("rounds_updated", 0),
            rounds_unchanged=counts.get("rounds_unchanged", 0),
            counts=counts,
            cost=cost,
        )

    # -- ask --------------------------------------------------------------------------------

    def ask(self, question: str, *, now: str | datetime | None = None, image: Any = None) -> Answer:
        """Answer a question from this memory, with citations.

        ``now`` anchors relative dates ("last week"); ``image`` is a path, a URL, base64 text,
        raw bytes, or a dict ``{"path" | "url" | "data", "caption"?}``.
        """
        from adamm.graphs.query import graph  # noqa: PLC0415 - builds the graphs (seconds): only where they run

        return _answer(graph.invoke(self._query_payload(question, now, image), context=self.context))

    async def aask(self, question: str, *, now: str | datetime | None = None, image: Any = None) -> Answer:
        from adamm.graphs.query import graph  # noqa: PLC0415 - builds the graphs (seconds): only where they run

        return _answer(await graph.ainvoke(self._query_payload(question, now, image), context=self.context))

    def _query_payload(self, question: str, now: str | datetime | None, image: Any) -> dict[str, Any]:
        if not isinstance(question, str) or not question.strip():
            raise ValueError("question: must be a non-empty string")
        payload: dict[str, Any] = {"memory_id": self.memory_id, "question": question}
        if now is not None:
            payload["now"] = now.isoformat() if isinstance(now, datetime) else str(now)
        if image is not None:
            payload["image"] = _image(image)
        return payload

    # -- tables -------------------------------------------------------------------------------

    def tables(self) -> list[TableInfo]:
        """The analytic tables induced so far, with their columns and row counts."""
        from adamm.nodes.backends import backends  # noqa: PLC0415 - heavy (stores, models): `import adamm.memory` stays light

        sql = backends(self.context).sql
        return [
            TableInfo(
                name=t.name,
                description=t.description,
                columns=tuple(ColumnInfo(c.name, c.type, c.unit) for c in t.columns),
                row_count=sql.count_rows(self.memory_id, t.name),
            )
            for t in sql.tables(self.memory_id)
        ]

    async def atables(self) -> list[TableInfo]:
        return await asyncio.to_thread(self.tables)

    def rows(self, table: str) -> list[dict[str, Any]]:
        """The rows of one table, oldest first, as ``adamm tables --json`` prints them (``source``
        round id, ``order``, ``time``, ``observed_at``, ``captions`` and the column values)."""
        return self.table_documents(table)[0]["rows"]

    def table_documents(self, table: str | None = None) -> list[dict[str, Any]]:
        """The tables (or one) as plain data: name, description, columns and rows, oldest first -
        what ``adamm tables --json`` prints and what scorers compare with ground truth."""
        from adamm.nodes.backends import backends  # noqa: PLC0415 - opens the stores

        sql = backends(self.context).sql
        tables = sql.tables(self.memory_id)
        if table is not None and table not in {t.name for t in tables}:
            # table names are discovered from the data: a guessed name is the usual mistake, so say which exist
            from adamm.stores.sql_base import StoreError  # noqa: PLC0415 - heavy (stores): `import adamm.memory` stays light

            raise StoreError(f"unknown table {table!r}; this memory has: {', '.join(t.name for t in tables) or 'no tables yet'}")
        docs = []
        for t in [sql.table(self.memory_id, table)] if table else tables:
            rows = sql.select_rows(self.memory_id, t.name)
            docs.append({
                "name": t.name,
                "description": t.description,
                "columns": [{"name": c.name, "type": c.type, "unit": c.unit} for c in t.columns],
                "row_count": len(rows),
                "rows": [{k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in r.items()} for r in rows],
            })
        return docs

    async def arows(self, table: str) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.rows, table)

    # -- stats --------------------------------------------------------------------------------

    def stats(self) -> dict[str, int]:
        """Counts of everything stored for this memory - rounds, observations, schemas, tables,
        hierarchy nodes, units, vectors and BM25 entries in every space, model calls - so that
        nothing a crash, a concurrent writer or a forget lost or duplicated goes unseen."""
        from adamm.nodes.backends import backends  # noqa: PLC0415 - opens the stores
        from adamm.stores.units import ROUNDS_SPACE, text_space  # noqa: PLC0415 - heavy (stores, models): `import adamm.memory` stays light

        b, memory_id = backends(self.context), self.memory_id
        stats = b.sql.stats(memory_id)
        stats["vectors"] = b.vectors.count(memory_id, text_space(ROUNDS_SPACE))
        stats["bm25_entries"] = b.keywords.count(memory_id, ROUNDS_SPACE)
        stats["supports"] = sum(n for _, n in b.sql.attribute_sets(memory_id))  # rounds counted in the attribute-set supports
        stats["vectors_total"] = sum(b.vectors.count(memory_id, space) for space in b.vectors.spaces(memory_id))
        stats["bm25_entries_total"] = sum(b.keywords.count(memory_id, space) for space in b.sql.unit_spaces(memory_id))
        return stats

    # -- forget -------------------------------------------------------------------------------

    def forget(self, round_ids: Sequence[str] | None = None, session_id: str | None = None, everything: bool = False) -> Any:
        """Delete rounds (by id or by session), or the whole memory, with everything derived
        from them; returns the ``ForgetReport`` of :func:`adamm.nodes.forget.forget`."""
        from adamm.nodes.forget import forget  # noqa: PLC0415 - loads the stores' and the hierarchy's code

        if isinstance(round_ids, str):
            round_ids = [round_ids]
        return forget(self.context, self.memory_id, round_ids=list(round_ids) if round_ids is not None else None,
                      session_id=session_id, everything=everything)

    async def aforget(self, round_ids: Sequence[str] | None = None, session_id: str | None = None, everything: bool = False) -> Any:
        return await asyncio.to_thread(self.forget, round_ids, session_id, everything)


# -- helpers -------------------------------------------------------------------------------------


def _plain_round(item: Round | Mapping[str, Any], index: int) -> dict[str, Any]:
    """Rounds travel through graph state as JSON-ready dicts (what a LangGraph server would
    receive), so a ``Round`` is dumped the way the JSONL format writes it."""
    if isinstance(item, Round):
        return item.model_dump(mode="json", exclude_none=True)
    if isinstance(item, Mapping):
        return dict(item)
    raise TypeError(f"rounds[{index}]: expected a dict or a Round, got {type(item).__name__}")


def _answer(out: dict[str, Any]) -> Answer:
    citations = tuple(Citation(c["round_id"], tuple(c.get("image_ids") or ())) for c in out.get("citations", []))
    return Answer(
        answer=out.get("answer", ""),
        citations=citations,
        evidence=list(out.get("evidence", [])),
        cost=list(out.get("cost", [])),
        extra={k: v for k, v in out.items() if k not in _ANSWER_KEYS},
    )


def _image(image: Any) -> dict[str, Any]:
    """The ``image`` input of the query graph from the loose forms a caller has at hand."""
    if isinstance(image, Mapping):
        return dict(image)
    if isinstance(image, (bytes, bytearray)):
        return {"data": base64.b64encode(bytes(image)).decode("ascii")}
    if isinstance(image, Path):
        return {"path": str(image)}
    if isinstance(image, str):
        if image.startswith(("http://", "https://")):
            return {"url": image}
        if image.startswith("data:"):
            return {"data": image.split(",", 1)[-1]}
        return {"data": image} if len(image) > 256 and not _is_file(image) else {"path": image}
    raise TypeError(f"image: expected a path, URL, base64 text, bytes or a dict, got {type(image).__name__}")


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except OSError:  # e.g. a base64 image is far longer than any file name
        return False
