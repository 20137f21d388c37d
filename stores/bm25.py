"""Keyword (BM25) indexes over the text of memory units, derived from the SQL store.

The SQL store is the source of truth; a BM25 index is a cache of it. ``KeywordIndexes`` keeps
one immutable ``BM25Index`` per (memory_id, space), checks a cheap content fingerprint from
SQL on every ``get`` and rebuilds when it changed. With a directory, indexes are also pickled
so a new process does not re-tokenize the whole history; a missing, stale or corrupt pickle is
simply rebuilt from SQL. BM25 has global statistics (IDF, average length), so rebuilding in one
go is simpler and no slower in practice than patching an index in place.
"""

from __future__ import annotations

import logging
import math
import os
import pickle
import re
import threading
import unicodedata
import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
from filelock import FileLock
from rank_bm25 import BM25Okapi

from adamm.stores.vectors import check_space, memory_key

__all__ = ["BM25Index", "KeywordIndexes", "STOPWORDS", "tokenize"]

log = logging.getLogger(__name__)

#: Function words that match almost every document and question. Deliberately small, and
#: without negations ("no", "not") or numbers, which carry meaning in memory questions.
STOPWORDS = frozenset(
    """
    a an and are as at be been but by can could did do does for from had has have he her him
    his how i if in into is it its me my of on or our ours she so than that the their them then
    there these they this those to us was we were what when where which who whom why will with
    would you your yours
    """.split()
)

# A decimal number stays one token ("6.5" is not "6" and "5"); otherwise runs of letters and
# digits. Underscores split words, so the column "sleep_hours" matches the question "sleep hours".
_TOKEN_RE = re.compile(r"\d+(?:\.\d+)+|[^\W_]+")

#: Bumped when the pickle layout or the tokenizer changes, so old pickles are rebuilt.
_FORMAT = 1


def tokenize(text: str) -> list[str]:
    """Lowercase Unicode word tokens without stopwords, numbers kept. Deterministic.

    NFKC normalization first, so full-width digits and ligatures match their plain forms.
    """
    text = unicodedata.normalize("NFKC", text or "").lower()
    return [t for t in _TOKEN_RE.findall(text) if t not in STOPWORDS]


class _Okapi(BM25Okapi):
    """BM25Okapi with the Lucene IDF ``log(1 + (N - n + 0.5) / (n + 0.5))``.

    rank_bm25's Okapi IDF is zero for a term in exactly half the documents and negative above
    half (floored to a fraction of the *average* IDF, which is itself negative on tiny
    corpora), so on a one- or two-document memory a matching document can score <= 0 and
    vanish from results. The Lucene IDF is always positive and ranks the same way otherwise.
    """

    def _calc_idf(self, nd: dict[str, int]) -> None:
        n_docs = self.corpus_size
        self.idf = {w: math.log(1.0 + (n_docs - n + 0.5) / (n + 0.5)) for w, n in nd.items()}
        self.average_idf = sum(self.idf.values()) / len(self.idf) if self.idf else 0.0


class BM25Index:
    """An immutable BM25 index over ``(unit_id, text)`` pairs, built in one go.

    >>> idx = BM25Index([("r1", "slept 6.5 hours"), ("r2", "ran 5 km")])
    >>> idx.search("how many hours did I sleep", k=3)
    [('r1', 0.69...)]
    """

    def __init__(self, docs: Sequence[tuple[str, str]]):
        ids: list[str] = []
        corpus: list[list[str]] = []
        for unit_id, text in docs:
            ids.append(str(unit_id))
            corpus.append(tokenize(text))
        if len(set(ids)) != len(ids):
            raise ValueError("duplicate unit ids in the BM25 corpus")
        self._ids = tuple(ids)
        self._position = {u: i for i, u in enumerate(ids)}
        # rank_bm25 divides by the corpus size and the total length: skip it when either is 0.
        has_terms = any(corpus)
        self._bm25 = _Okapi(corpus) if has_terms else None
        self._vocabulary: frozenset[str] | None = None

    @property
    def ids(self) -> list[str]:
        """The unit ids, in corpus order (a copy: the index is immutable)."""
        return list(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, unit_id: object) -> bool:
        return unit_id in self._position

    def __repr__(self) -> str:
        return f"BM25Index({len(self)} docs)"

    @property
    def vocabulary(self) -> frozenset[str]:
        """Every term of the corpus (after :func:`tokenize`): what the memory ever said."""
        if getattr(self, "_vocabulary", None) is None:  # pickles written before it lack the slot
            self._vocabulary = frozenset(self._bm25.idf) if self._bm25 is not None else frozenset()
        return self._vocabulary  # type: ignore[return-value]

    def scores(self, query: str) -> dict[str, float]:
        """The BM25 score of every document for ``query`` (0.0 where no query term occurs)."""
        return {u: float(v) for u, v in zip(self._ids, self._score_array(query))}

    def scores_for(self, query: str, unit_ids: Sequence[str]) -> dict[str, float]:
        """The BM25 score of the given documents only (ids not indexed are left out)."""
        total = self._score_array(query)
        return {u: float(total[self._position[u]]) for u in unit_ids if u in self._position}

    def _score_array(self, query: str) -> np.ndarray:
        """Okapi scores of every document, summed over per-term postings: only documents holding
        a query term are touched, where rank_bm25's ``get_scores`` walks every document for
        every term (50 ms at 20k rounds against about 1 ms). A repeated query term counts
        again, as in rank_bm25."""
        total = np.zeros(len(self._ids), dtype=np.float64)
        if self._bm25 is None:
            return total
        postings = self._postings()
        for term in tokenize(query):
            if term in self._bm25.idf:
                docs, weights = postings[term]
                total[docs] += self._bm25.idf[term] * weights
        return total

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        """Up to ``k`` ``(unit_id, score)`` pairs, best first, only positive scores.

        Ties are broken by unit id, so results never depend on insertion order.
        """
        if k <= 0:
            return []
        total = self._score_array(query)
        positive = np.flatnonzero(total > 0.0)
        if len(positive) > k:  # only the k best (and any tied with the k-th) need sorting
            kth = np.partition(total[positive], len(positive) - k)[len(positive) - k]
            positive = positive[total[positive] >= kth]
        hits = [(self._ids[i], float(total[i])) for i in positive]
        hits.sort(key=lambda h: (-h[1], h[0]))
        return hits[:k]

    def _postings(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """term -> (document positions, tf·(k1+1) / (tf + k1·(1 - b + b·|d|/avgdl))), built on
        first use (older pickled indexes lack it and get it then)."""
        cached = self.__dict__.get("_post")
        if cached is not None:
            return cached
        bm = self._bm25
        lists: dict[str, tuple[list[int], list[float]]] = {}
        for i, (freqs, length) in enumerate(zip(bm.doc_freqs, bm.doc_len)):
            norm = bm.k1 * (1 - bm.b + bm.b * length / bm.avgdl)
            for term, tf in freqs.items():
                docs, weights = lists.setdefault(term, ([], []))
                docs.append(i)
                weights.append(tf * (bm.k1 + 1) / (tf + norm))
        post = {t: (np.asarray(d, dtype=np.int64), np.asarray(w, dtype=np.float64)) for t, (d, w) in lists.items()}
        self.__dict__["_post"] = post
        return post


class KeywordIndexes:
    """BM25 indexes per (memory_id, space), persisted under a directory, kept in step with the
    source of truth and rebuilt from it when missing or stale.

    ``corpus(memory_id, space)`` returns every ``(unit_id, text)`` of the space from SQL;
    ``version(memory_id, space)`` returns a cheap fingerprint of that content (for example
    ``f"{count}:{max_rowid}"``). The fingerprint is all we compare, so it must change whenever
    the text does (an in-place edit of a row needs an updated-at or a revision in it).

    ``directory=None`` keeps indexes in memory only (server deployments where several replicas
    share no disk). Pickles are a cache in the data directory and are trusted like the SQLite
    file next to them: never point ``directory`` at files from elsewhere.
    """

    def __init__(
        self,
        directory: str | Path | None,
        corpus: Callable[[str, str], Sequence[tuple[str, str]]],
        version: Callable[[str, str], str],
        max_cached: int = 256,
    ):
        self.directory = Path(directory) if directory is not None else None
        self._corpus = corpus
        self._version = version
        self._max_cached = max(1, max_cached)
        self._cache: OrderedDict[tuple[str, str], tuple[str, BM25Index]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, memory_id: str, space: str) -> BM25Index:
        """The index of the current content: from memory, else from disk, else rebuilt.

        The version is read *before* the corpus, so if rows arrive in between, the index holds
        at least what its version says and is merely rebuilt once more on the next call.
        """
        key = (memory_id, check_space(space))
        version = str(self._version(memory_id, space))
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None and cached[0] == version:
                self._cache.move_to_end(key)
                return cached[1]
        index = self._load_or_build(memory_id, space, version)
        with self._lock:
            self._cache[key] = (version, index)
            self._cache.move_to_end(key)
            while len(self._cache) > self._max_cached:
                self._cache.popitem(last=False)
        return index

    def count(self, memory_id: str, space: str) -> int:
        """Number of documents in the current index of the space."""
        return len(self.get(memory_id, space))

    def invalidate(self, memory_id: str, space: str | None = None) -> None:
        """Forget the index of one space, or of every space of the memory, in memory and on disk.

        Use it when a memory is deleted: the pickles hold tokenized user text.
        """
        if space is not None:
            check_space(space)
        with self._lock:
            for key in [k for k in self._cache if k[0] == memory_id and space in (None, k[1])]:
                del self._cache[key]
        if self.directory is None or not self.directory.is_dir():
            return
        pattern = f"{memory_key(memory_id)}_{space if space is not None else '*'}.pkl"
        for path in self.directory.glob(pattern):
            # Lock files hold no data and may be held by another process: leave them.
            path.unlink(missing_ok=True)

    # ------------------------------------------------------------------------------ internals

    def _path(self, memory_id: str, space: str) -> Path:
        return self.directory / f"{memory_key(memory_id)}_{space}.pkl"

    def _load_or_build(self, memory_id: str, space: str, version: str) -> BM25Index:
        if self.directory is None:
            return BM25Index(self._corpus(memory_id, space))
        path = self._path(memory_id, space)
        index = self._load(path, memory_id, space, version)
        if index is not None:
            return index
        # One builder per file across processes; the others wait, then load its result.
        lock = FileLock(str(path) + ".lock", timeout=600)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            lock.acquire()
        except OSError as exc:  # unwritable directory, lock timeout: serve from memory
            log.warning("BM25 directory %s unusable (%s); not persisting", self.directory, exc)
            return BM25Index(self._corpus(memory_id, space))
        try:
            index = self._load(path, memory_id, space, version)
            if index is None:
                index = BM25Index(self._corpus(memory_id, space))
                self._write(path, memory_id, space, version, index)
        finally:
            lock.release()
        return index

    @staticmethod
    def _load(path: Path, memory_id: str, space: str, version: str) -> BM25Index | None:
        """The pickled index if it exists, is readable, and matches memory, space and version."""
        try:
            with open(path, "rb") as f:
                payload = pickle.load(f)
        except FileNotFoundError:
            return None
        except Exception as exc:  # truncated, corrupt, from an old code version...
            log.warning("ignoring unreadable BM25 index %s (%s); rebuilding", path, exc)
            return None
        if not (
            isinstance(payload, dict)
            and payload.get("format") == _FORMAT
            and payload.get("memory_id") == memory_id  # a hash collision must not mix tenants
            and payload.get("space") == space
            and payload.get("version") == version
            and isinstance(payload.get("index"), BM25Index)
        ):
            return None
        return payload["index"]

    @staticmethod
    def _write(path: Path, memory_id: str, space: str, version: str, index: BM25Index) -> None:
        """Write atomically (temp file + ``os.replace``); a failed write only costs a rebuild."""
        payload = {
            "format": _FORMAT,
            "memory_id": memory_id,
            "space": space,
            "version": version,
            "index": index,
        }
        tmp = path.with_name(f"{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
        try:
            with open(tmp, "wb") as f:
                pickle.dump(payload, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except OSError as exc:  # read-only or full disk: serve from memory, retry next time
            log.warning("could not write BM25 index %s: %s", path, exc)
            tmp.unlink(missing_ok=True)
