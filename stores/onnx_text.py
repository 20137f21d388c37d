"""A sentence-transformers model run by ONNX Runtime: same vectors, no torch to install or load.

Loading torch, transformers and sentence-transformers costs about five seconds and a gigabyte
of memory before the first text is embedded, and installing them several gigabytes; for a
command that embeds one question that is nearly all of its time. The transformer of a
mean-pooling sentence-transformers BERT model (the packaged all-MiniLM-L6-v2 among them) is
therefore written once as an ONNX graph from its weights (``stores/onnx_bert.py``) and run with
``onnxruntime`` and ``tokenizers``; pooling and normalization are a few lines of numpy.

The export sits in a cache directory under a key computed from the model's files, so a changed
model gets a new export and two models never share one. It is written into a temporary
directory and renamed into place under a file lock: two processes starting at once export it
once, and a reader sees a complete export or none. An export that cannot be loaded, or whose
vectors stray from the plain graph's at export time, is rebuilt (or refused), never used.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from filelock import FileLock

__all__ = ["OnnxTextModel", "ExportError", "model_fingerprint", "ensure_export", "encoder_threads"]

#: Bumped when the export's format changes, so old exports are rebuilt instead of misread
#: (3: built from the weights, not exported by torch).
EXPORT_FORMAT = 3
#: Least cosine between the fused graph's and the plain graph's vectors accepted at export time.
MIN_EXPORT_COSINE = 0.9999
#: The same for an int8 export: its weights move every vector a little (a mean cosine near 0.99
#: on real rounds), so this bound catches a broken quantization, not the expected drift.
MIN_INT8_COSINE = 0.95
_MANIFEST = "manifest.json"
_MODEL = "model.onnx"
_PLAIN = "plain.onnx"
_TOKENIZER = "tokenizer.json"
#: Texts that check an export against the plain graph: short and long, so a batch is padded.
_PROBES = (
    "ok",
    "My resting heart rate was 61 bpm this morning, a little lower than last week.",
    "We baked a lemon tart with a shortcrust base; the oven ran hot, so the edges burned "
    "a bit while the middle was still soft. Next time: 170 degrees, 35 minutes, foil on top.",
)


class ExportError(RuntimeError):
    """The model cannot be exported to ONNX, or the export does not reproduce it."""


def encoder_threads() -> int:
    """Threads for one encoder session: ``ADAMM_ENCODER_THREADS``, else the usable cores (≤ 8).

    Past eight threads a model this small gains nothing and starves the rest of the process.
    """
    raw = os.environ.get("ADAMM_ENCODER_THREADS", "").strip()
    if raw:
        try:
            value = int(raw)
        except ValueError:
            raise ExportError(f"ADAMM_ENCODER_THREADS must be a whole number, not {raw!r}") from None
        if value < 1:
            raise ExportError("ADAMM_ENCODER_THREADS must be at least 1")
        return value
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS / Windows
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8))


# --------------------------------------------------------------------------------------------
# the model's identity


def _model_files(model_dir: Path) -> list[Path]:
    """Files that define the vectors: weights, configs, tokenizer (not READMEs or git files)."""
    return [
        path for path in sorted(model_dir.rglob("*"))
        if path.is_file() and path.suffix.lower() != ".md"
        and not any(part.startswith(".") for part in path.relative_to(model_dir).parts)
    ]


def model_fingerprint(model_dir: Path, cache_dir: Path) -> str:
    """sha256 of the model's files, remembered by their sizes and modification times.

    Hashing ~90 MB of weights costs a fifth of a second; a command that embeds one question
    should not pay it, so the hash is kept in the cache under a signature of the files' stats
    and recomputed only when a file changes.
    """
    files = _model_files(model_dir)
    if not files:
        raise ExportError(f"'{model_dir}' holds no model files")
    stats = [(str(p.relative_to(model_dir)), st.st_size, st.st_mtime_ns) for p in files for st in (p.stat(),)]
    signature = hashlib.sha256(json.dumps([str(model_dir.resolve()), stats]).encode()).hexdigest()
    index_path = cache_dir / "fingerprints.json"
    try:
        index = json.loads(index_path.read_text())
        if not isinstance(index, dict):
            index = {}
    except (OSError, ValueError):
        index = {}
    if isinstance(index.get(signature), str):
        return index[signature]
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(model_dir)).encode() + b"\0")
        with path.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                digest.update(chunk)
    fingerprint = digest.hexdigest()
    index[signature] = fingerprint
    _write_atomically(index_path, json.dumps(index, indent=1).encode())
    return fingerprint


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


# --------------------------------------------------------------------------------------------
# the model as sentence-transformers describes it


def _pipeline(model_dir: Path) -> dict[str, Any]:
    """Max length, pooling and normalization read from the model's own config files.

    Only the layout this runner reproduces is accepted: a transformer, mean (or CLS) pooling,
    optionally a normalization; anything else must stay on the torch backend.
    """
    try:
        modules = json.loads((model_dir / "modules.json").read_text())
    except (OSError, ValueError) as exc:
        raise ExportError(f"'{model_dir}' is not a sentence-transformers model (modules.json: {exc})") from None
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules]
    if not kinds or kinds[0] != "Transformer" or "Pooling" not in kinds:
        raise ExportError(f"the ONNX backend runs transformer + pooling models, not {kinds}")
    if any(k not in {"Transformer", "Pooling", "Normalize"} for k in kinds):
        raise ExportError(f"the ONNX backend cannot reproduce the modules {kinds}")
    pooling_dir = model_dir / next(m["path"] for m in modules if str(m.get("type", "")).endswith("Pooling"))
    try:
        pooling = json.loads((pooling_dir / "config.json").read_text())
    except (OSError, ValueError) as exc:
        raise ExportError(f"pooling config unreadable: {exc}") from None
    if pooling.get("pooling_mode_mean_tokens"):
        mode = "mean"
    elif pooling.get("pooling_mode_cls_token"):
        mode = "cls"
    else:
        raise ExportError(f"the ONNX backend runs mean or CLS pooling, not {pooling}")
    try:
        bert_config = json.loads((model_dir / "sentence_bert_config.json").read_text())
    except (OSError, ValueError):
        bert_config = {}
    max_length = int(bert_config.get("max_seq_length") or 512)
    if not (model_dir / _TOKENIZER).is_file():
        raise ExportError(f"'{model_dir}' has no fast tokenizer ({_TOKENIZER})")
    return {"pooling": mode, "normalize": "Normalize" in kinds, "max_length": max_length}


# --------------------------------------------------------------------------------------------
# running an export


class OnnxTextModel:
    """An exported model: ``encode(texts)`` gives the vectors sentence-transformers would."""

    def __init__(self, export_dir: Path, threads: int | None = None, batch_tokens: int = 1024,
                 model_file: str = _MODEL):
        import onnxruntime as ort  # noqa: PLC0415 - ONNX backend, loaded on first encode
        from tokenizers import Tokenizer  # noqa: PLC0415 - ONNX backend, loaded on first encode

        manifest = _manifest(export_dir)
        model_path = export_dir / model_file  # another file than the export's: its check at export time
        self.pooling: str = manifest["pooling"]
        self.normalize: bool = manifest["normalize"]
        self.dim: int = int(manifest["dim"])
        self.batch_tokens = batch_tokens
        tokenizer = Tokenizer.from_file(str(export_dir / _TOKENIZER))
        # The shipped tokenizer.json pads every text to 128 tokens; here each batch is padded
        # to its own longest text instead, and truncation is the model's own max length.
        tokenizer.no_padding()
        tokenizer.enable_truncation(int(manifest["max_length"]))
        self._tokenizer = tokenizer
        self._pad_id = int(manifest["pad_id"])
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or encoder_threads()
        options.inter_op_num_threads = 1
        # Spinning threads would keep cores busy between batches, while the rest of the
        # ingest (extraction, SQL) wants them.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        self._session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors in input order.

        The cost of a forward pass is its batch's size times its longest text, so texts are
        tokenized once, sorted by token count and cut into batches of about ``batch_tokens``
        padded tokens: many short texts go together, long ones a few at a time, and almost
        nothing is padding.
        """
        texts = list(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        batch: list[int] = []
        for i in order:
            if batch and (len(batch) + 1) * len(encodings[i].ids) > self.batch_tokens:
                out[batch] = self._forward([encodings[j] for j in batch])
                batch = []
            batch.append(i)
        out[batch] = self._forward([encodings[j] for j in batch])
        return out

    def _forward(self, encodings: list[Any]) -> np.ndarray:
        width = max(len(e.ids) for e in encodings)
        ids = np.full((len(encodings), width), self._pad_id, dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        types = np.zeros((len(encodings), width), dtype=np.int64)
        for row, e in enumerate(encodings):
            n = len(e.ids)
            ids[row, :n], mask[row, :n], types[row, :n] = e.ids, 1, e.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = types
        hidden = self._session.run(None, feeds)[0]
        if self.pooling == "cls":
            vectors = hidden[:, 0]
        else:
            weights = mask[..., None].astype(np.float32)
            vectors = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        vectors = vectors.astype(np.float32, copy=False)
        if self.normalize:
            vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        return vectors


# --------------------------------------------------------------------------------------------
# making an export


def ensure_export(model_dir: Path, cache_dir: Path, notice: Any = None, label: str | None = None,
                  int8: bool = False) -> Path:
    """The directory of a loadable export of ``model_dir``, exporting it first if needed.

    ``int8``: the export with int8 weights (dynamic quantization, per output channel), kept
    apart from the float one: about twice the speed on a CPU, at the cost of vectors that are
    close to, not equal to, the model's.

    ``notice`` (a callable taking one line) is called once, right before an export is made
    (it takes a few seconds): the caller says so. A directory that exists but cannot be loaded
    is replaced.
    """
    model_dir, cache_dir = Path(model_dir), Path(cache_dir)
    root = cache_dir / "onnx"
    root.mkdir(parents=True, exist_ok=True)
    key = model_fingerprint(model_dir, cache_dir)[:24] + ("-int8" if int8 else "")
    target = root / key
    if _loadable(target):
        return target
    with FileLock(str(root / f"{key}.lock"), timeout=600):
        if _loadable(target):  # another process finished it while we waited
            return target
        if notice is not None:
            notice(f"preparing the text encoder {label or model_dir.name} for ONNX Runtime"
                   f"{' with int8 weights' if int8 else ''} (once, a few seconds)")
        staging = root / f".{key}.{os.getpid()}.tmp"
        shutil.rmtree(staging, ignore_errors=True)
        try:
            _export(model_dir, staging, int8=int8)
            if target.exists():
                shutil.rmtree(target)
            os.replace(staging, target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return target


def _manifest(export_dir: Path) -> dict[str, Any]:
    """The manifest of a complete export (it is written last, and names the model file's size);
    ``ExportError`` for anything less."""
    try:
        manifest = json.loads((export_dir / _MANIFEST).read_text())
        model_bytes = (export_dir / _MODEL).stat().st_size
    except (OSError, ValueError) as exc:
        raise ExportError(f"no complete export in '{export_dir}': {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != EXPORT_FORMAT:
        raise ExportError(f"the export in '{export_dir}' is not of format {EXPORT_FORMAT}")
    if model_bytes != manifest.get("onnx_bytes"):
        raise ExportError("the exported model file is truncated or was replaced")
    if not (export_dir / _TOKENIZER).is_file():
        raise ExportError(f"the export in '{export_dir}' has no {_TOKENIZER}")
    return manifest


def _loadable(export_dir: Path) -> bool:
    try:
        _manifest(export_dir)
    except ExportError:
        return False
    return True


def _export(model_dir: Path, out_dir: Path, int8: bool = False) -> None:
    """Write the encoder's graph from the model's weights (fused for ONNX Runtime, or plain and
    quantized to int8 weights), then check it against the plain graph of the same weights.

    The plain graph is standard ONNX in the order the model computes; the fused one is written
    in ONNX Runtime's own ops, whose arithmetic a release of ONNX Runtime could change, and the
    int8 one is only close to the model: each is run on the probes beside the plain graph and
    refused when it strays. (That the plain graph is the sentence-transformers model itself is
    what the tests hold it to, with torch.)
    """
    pipeline = _pipeline(model_dir)
    try:
        import onnx  # noqa: F401 - fail here with a clear message
    except ImportError:
        raise ExportError("building the ONNX model needs the 'onnx' package (pip install onnx)") from None
    from adamm.stores.onnx_bert import build_bert_graph  # noqa: PLC0415 - export time only

    out_dir.mkdir(parents=True)
    tokenizer_file = model_dir / _TOKENIZER
    shutil.copyfile(tokenizer_file, out_dir / _TOKENIZER)
    tokenizer_config = json.loads(tokenizer_file.read_text())
    padding = tokenizer_config.get("padding") or {}
    pad_id, pad_token = int(padding.get("pad_id", 0)), str(padding.get("pad_token", "[PAD]"))
    config = build_bert_graph(model_dir, out_dir / _PLAIN)
    if int8:  # quantize the plain graph: the fused one loses far more in quantization
        _quantize(out_dir / _PLAIN, out_dir / _MODEL)
    else:
        build_bert_graph(model_dir, out_dir / _MODEL, fused=True)
    manifest = {
        "format": EXPORT_FORMAT, "source": model_dir.name, "dim": int(config["hidden_size"]), **pipeline,
        "fused": not int8, "int8": int8, "pad_id": pad_id, "pad_token": pad_token,
        "onnx_bytes": (out_dir / _MODEL).stat().st_size,
    }
    (out_dir / _MANIFEST).write_text(json.dumps(manifest, indent=1))
    try:
        exported = OnnxTextModel(out_dir, threads=1).encode(list(_PROBES))
    except Exception as exc:  # ONNX Runtime raises many kinds; the user needs one message
        raise ExportError(f"ONNX Runtime cannot run the model built from '{model_dir.name}': {exc}") from exc
    expected = OnnxTextModel(out_dir, threads=1, model_file=_PLAIN).encode(list(_PROBES))
    (out_dir / _PLAIN).unlink()
    cosine = (exported * expected).sum(axis=1) / (
        np.linalg.norm(exported, axis=1) * np.linalg.norm(expected, axis=1) + 1e-12)
    if float(cosine.min()) < (MIN_INT8_COSINE if int8 else MIN_EXPORT_COSINE):
        raise ExportError(f"the ONNX model of '{model_dir.name}' disagrees with its plain graph "
                          f"(cosine {float(cosine.min()):.5f}); use text_encoder_backend='torch'")


def _quantize(raw: Path, out: Path) -> None:
    """int8 weights for the matrix products, per output channel and in a reduced range: the
    per-tensor default moved MiniLM's vectors to a mean cosine of 0.955, this keeps 0.99."""
    import onnx  # noqa: PLC0415 - export only
    from onnxruntime.quantization import QuantType, quantize_dynamic  # noqa: PLC0415 - int8 export only

    try:
        quantize_dynamic(str(raw), str(out), weight_type=QuantType.QInt8, per_channel=True, reduce_range=True,
                         extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
    except Exception as exc:  # the quantizer raises many kinds; the user needs one message
        raise ExportError(f"ONNX Runtime could not quantize the export: {exc}") from exc
