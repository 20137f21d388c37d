"""The ONNX graph of a BERT encoder, written from its weights file: no torch to make it.

Exporting with torch meant installing torch (gigabytes) only to produce a model file that ONNX
Runtime then runs in megabytes. A BERT encoder is a short, fixed stack of matrix products, so
its graph is written here op by op and filled with the tensors of ``model.safetensors``, read
with numpy. Two graphs come from the same weights: a plain one in standard ONNX ops, in the
order BERT's eager forward computes (int8 quantization works on it, and it is the reference a
fused graph is checked against), and a fused one in ONNX Runtime's transformer ops, the graph
its optimizer makes of an exported BERT, written directly because that optimizer needs torch
and sympy to run.

Only what the packaged MiniLM and its BERT siblings use is built: absolute positions, exact
GELU, layer norms after each block. Any other configuration is refused by name: an encoder that
is approximately right would write vectors that are silently wrong.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from adamm.stores.onnx_text import ExportError

__all__ = ["build_bert_graph", "bert_config"]

#: Opset of the graph: the first with LayerNormalization as one op.
OPSET = 17
_ORT = "com.microsoft"  # the domain of ONNX Runtime's fused ops
_WEIGHTS = "model.safetensors"
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_OUTPUT = "last_hidden_state"
_WORDS, _PLACES, _TYPES = (f"embeddings.{kind}_embeddings.weight" for kind in ("word", "position", "token_type"))
_Q, _K, _V = (f"attention.self.{part}" for part in ("query", "key", "value"))
_LINEARS = (_Q, _K, _V, "attention.output.dense", "intermediate.dense", "output.dense")
_NORMS = ("attention.output.LayerNorm", "output.LayerNorm")


def bert_config(model_dir: Path) -> dict[str, Any]:
    """The model's ``config.json``, once it is known to describe an encoder this module builds."""
    try:
        config = json.loads((model_dir / "config.json").read_text())
    except (OSError, ValueError) as exc:
        raise ExportError(f"'{model_dir}' has no readable config.json: {exc}") from None
    checks = {
        "model_type": (config.get("model_type"), "bert"),
        "hidden_act": (config.get("hidden_act", "gelu"), "gelu"),
        "position_embedding_type": (config.get("position_embedding_type", "absolute"), "absolute"),
        "is_decoder": (bool(config.get("is_decoder", False)), False),
    }
    for key, (found, wanted) in checks.items():
        if found != wanted:
            raise ExportError(f"the ONNX builder writes BERT encoders ({key}={wanted!r}), not {key}={found!r}")
    try:
        hidden, heads, _, _ = _sizes(config)
    except (KeyError, TypeError, ValueError) as exc:
        raise ExportError(f"config.json of '{model_dir.name}' lacks a BERT size: {exc}") from None
    if heads < 1 or hidden % heads:
        raise ExportError(f"hidden_size {hidden} is not a multiple of {heads} attention heads")
    return config


def _sizes(config: dict[str, Any]) -> tuple[int, int, int, float]:
    """Hidden size, attention heads, layers, layer-norm epsilon."""
    return (int(config["hidden_size"]), int(config["num_attention_heads"]), int(config["num_hidden_layers"]),
            float(config.get("layer_norm_eps", 1e-12)))


def _weights(model_dir: Path, layers: int) -> dict[str, np.ndarray]:
    """The encoder's tensors by their BertModel names (a ``bert.`` prefix, as task heads save
    them, is dropped), every one the graph needs present."""
    from safetensors.numpy import load_file  # noqa: PLC0415 - export time only

    path = model_dir / _WEIGHTS
    if not path.is_file():
        raise ExportError(f"the ONNX builder reads {_WEIGHTS}, which '{model_dir.name}' does not have")
    try:
        raw = load_file(str(path))
    except Exception as exc:  # a truncated or foreign file: the reader raises several kinds
        raise ExportError(f"'{path}' is not a readable safetensors file: {exc}") from exc
    tensors = {name.removeprefix("bert."): np.asarray(value, dtype=np.float32)
               for name, value in raw.items() if np.issubdtype(value.dtype, np.floating)}
    needed = [_WORDS, _PLACES, _TYPES, "embeddings.LayerNorm.weight", "embeddings.LayerNorm.bias"]
    needed += [f"encoder.layer.{i}.{part}.{kind}" for i in range(layers) for part in (*_LINEARS, *_NORMS)
               for kind in ("weight", "bias")]
    missing = [name for name in needed if name not in tensors]
    if missing:
        raise ExportError(f"{_WEIGHTS} of '{model_dir.name}' lacks {len(missing)} BERT tensors, e.g. {missing[0]}")
    return tensors


class _Graph:
    """Nodes and initializers in the order they are written; each node's outputs are named
    after it, so every name is unique without bookkeeping by the caller.

    The initializers (90 MB for MiniLM) are written straight into the model's graph: built
    apart and handed to ``make_graph`` and ``make_model`` they were copied twice more, a tenth
    of a second each time.
    """

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        from onnx import ModelProto  # noqa: PLC0415 - export time only

        self.w = weights
        self.model = ModelProto()
        self.nodes: list[Any] = []
        self._names: set[str] = set()

    def const(self, name: str, value: Any, dtype: Any = np.float32) -> str:
        """An initializer; one name is written once (a constant shared by all layers). The
        tensor is what ``numpy_helper.from_array`` makes: dims, name, little-endian raw data."""
        from onnx import helper  # noqa: PLC0415 - export time only

        if name not in self._names:
            self._names.add(name)
            array = np.ascontiguousarray(value, dtype=np.dtype(dtype).newbyteorder("<"))
            tensor = self.model.graph.initializer.add()
            tensor.dims.extend(array.shape)
            tensor.name = name
            tensor.raw_data = array.tobytes()
            tensor.data_type = helper.np_dtype_to_tensor_dtype(array.dtype.newbyteorder("="))
        return name

    def weight(self, name: str, transpose: bool = False) -> str:
        """A tensor of the model as an initializer; ``transpose`` for a Linear's (out, in) matrix."""
        return self.const(name, self.w[name].T if transpose else self.w[name])

    def op(self, op_type: str, *inputs: str, outputs: int = 1, domain: str = "", **attrs: Any) -> Any:
        """One node; its output name (or names, for ``outputs`` > 1)."""
        from onnx import helper  # noqa: PLC0415 - export time only

        node = f"/{op_type}_{len(self.nodes)}"
        names = [f"{node}_out{i}" for i in range(outputs)]
        self.nodes.append(helper.make_node(op_type, list(inputs), names, name=node, domain=domain, **attrs))
        return names[0] if outputs == 1 else names

    def layer_norm(self, x: str, prefix: str, eps: float) -> str:
        return self.op("LayerNormalization", x, self.weight(f"{prefix}.weight"), self.weight(f"{prefix}.bias"),
                       axis=-1, epsilon=eps)

    def linear(self, x: str, prefix: str) -> str:
        """``x @ W.T + b``."""
        return self.op("Add", self.op("MatMul", x, self.weight(f"{prefix}.weight", transpose=True)),
                       self.weight(f"{prefix}.bias"))


def build_bert_graph(model_dir: Path, out: Path, fused: bool = False) -> dict[str, Any]:
    """Write the encoder of ``model_dir`` to ``out`` (an ONNX file: token ids, attention mask
    and token types in, the last hidden state out); returns its config.

    ``fused``: the graph in ONNX Runtime's own ops (one for the embeddings, one per attention,
    layer norms that add the residual): about 15 % faster than the plain graph and quicker to
    load. It runs on ONNX Runtime only and reads the mask as valid lengths (right padding),
    which is how the runner pads.
    """
    import onnx  # noqa: PLC0415 - export time only
    from onnx import TensorProto, helper  # noqa: PLC0415 - export time only

    config = bert_config(model_dir)
    g = _Graph(_weights(model_dir, _sizes(config)[2]))
    state = (_fused_encoder if fused else _plain_encoder)(g, config)
    g.nodes.append(helper.make_node("Identity", [state], [_OUTPUT], name="/output"))
    dims = ["batch", "tokens"]
    # the fields make_graph and make_model would set, on the model that already holds the weights
    model = g.model
    model.ir_version = 8  # readable by every ONNX Runtime the package accepts (1.17 and later)
    model.graph.node.extend(g.nodes)
    model.graph.name = "bert_encoder"
    model.graph.input.extend(helper.make_tensor_value_info(name, TensorProto.INT64, dims) for name in _INPUTS)
    model.graph.output.append(helper.make_tensor_value_info(_OUTPUT, TensorProto.FLOAT, [*dims, int(config["hidden_size"])]))
    model.opset_import.extend([helper.make_opsetid("", OPSET)] + ([helper.make_opsetid(_ORT, 1)] if fused else []))
    model.producer_name = "adamm"
    # serialized once: the checker and the file get the same bytes (each serialization of the
    # 90 MB model costs a fifth of a second)
    data = model.SerializeToString()
    onnx.checker.check_model(data)
    Path(out).write_bytes(data)
    return config


def _plain_encoder(g: _Graph, config: dict[str, Any]) -> str:
    """Standard ONNX ops, in the order BERT's eager forward computes them."""
    from onnx import TensorProto  # noqa: PLC0415 - export time only

    hidden, heads, layers, eps = _sizes(config)
    # embeddings: word + token type + position (the table's first rows, one per token)
    places = g.op("Slice", g.weight(_PLACES), g.const("/zero", [0], np.int64),
                  g.op("Shape", "input_ids", start=1, end=2), g.const("/rows", [0], np.int64))
    state = g.op("Add", g.op("Gather", g.weight(_WORDS), "input_ids"), g.op("Gather", g.weight(_TYPES), "token_type_ids"))
    state = g.layer_norm(g.op("Add", state, places), "embeddings.LayerNorm", eps)

    # padding: (1 - mask) * lowest float, added to every score, as BERT's eager attention does
    mask = g.op("Unsqueeze", "attention_mask", g.const("/heads_and_queries", [1, 2], np.int64))
    mask = g.op("Sub", g.const("/one_f", np.array(1.0)), g.op("Cast", mask, to=TensorProto.FLOAT))
    mask = g.op("Mul", mask, g.const("/lowest", np.array(np.finfo(np.float32).min)))

    head_size = hidden // heads
    split = g.const("/split_heads", [0, 0, heads, head_size], np.int64)
    merge = g.const("/merge_heads", [0, 0, hidden], np.int64)
    scale = g.const("/sqrt_head_size", np.array(math.sqrt(head_size)))
    sqrt2, half = g.const("/sqrt2", np.array(math.sqrt(2.0))), g.const("/half", np.array(0.5))
    for i in range(layers):
        p = f"encoder.layer.{i}"
        q, k, v = (g.op("Transpose", g.op("Reshape", g.linear(state, f"{p}.{part}"), split), perm=perm)
                   for part, perm in ((_Q, [0, 2, 1, 3]), (_K, [0, 2, 3, 1]), (_V, [0, 2, 1, 3])))
        scores = g.op("Add", g.op("Div", g.op("MatMul", q, k), scale), mask)
        context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
        context = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), merge)
        state = g.layer_norm(g.op("Add", g.linear(context, f"{p}.attention.output.dense"), state),
                             f"{p}.attention.output.LayerNorm", eps)
        inner = g.linear(state, f"{p}.intermediate.dense")  # exact GELU: x/2 (1 + erf(x/sqrt 2))
        inner = g.op("Mul", g.op("Mul", inner, g.op("Add", g.op("Erf", g.op("Div", inner, sqrt2)), "/one_f")), half)
        state = g.layer_norm(g.op("Add", g.linear(inner, f"{p}.output.dense"), state), f"{p}.output.LayerNorm", eps)
    return state


def _fused_encoder(g: _Graph, config: dict[str, Any]) -> str:
    """EmbedLayerNormalization, then per layer Attention, SkipLayerNormalization and BiasGelu,
    with the same weights (query, key and value side by side in one matrix)."""
    from onnx import TensorProto  # noqa: PLC0415 - export time only

    _, heads, layers, eps = _sizes(config)
    ids, mask, types = (g.op("Cast", name, to=TensorProto.INT32) for name in _INPUTS)
    state, lengths = g.op("EmbedLayerNormalization", ids, types, g.weight(_WORDS), g.weight(_PLACES), g.weight(_TYPES),
                          g.weight("embeddings.LayerNorm.weight"), g.weight("embeddings.LayerNorm.bias"), mask,
                          outputs=2, domain=_ORT, epsilon=eps)

    def matmul(x: str, prefix: str) -> str:
        return g.op("MatMul", x, g.weight(f"{prefix}.weight", transpose=True))

    def add_and_norm(x: str, residual: str, prefix: str) -> str:
        """LayerNorm(x + bias + residual) in one op."""
        return g.op("SkipLayerNormalization", x, residual, g.weight(f"{prefix}.LayerNorm.weight"),
                    g.weight(f"{prefix}.LayerNorm.bias"), g.weight(f"{prefix}.dense.bias"), domain=_ORT, epsilon=eps)

    for i in range(layers):
        p = f"encoder.layer.{i}"
        qkv = g.const(f"{p}.attention.qkv.weight", np.concatenate([g.w[f"{p}.{x}.weight"].T for x in (_Q, _K, _V)], 1))
        bias = g.const(f"{p}.attention.qkv.bias", np.concatenate([g.w[f"{p}.{x}.bias"] for x in (_Q, _K, _V)]))
        context = g.op("Attention", state, qkv, bias, lengths, domain=_ORT, num_heads=heads)
        state = add_and_norm(matmul(context, f"{p}.attention.output.dense"), state, f"{p}.attention.output")
        inner = g.op("BiasGelu", matmul(state, f"{p}.intermediate.dense"), g.weight(f"{p}.intermediate.dense.bias"),
                     domain=_ORT)
        state = add_and_norm(matmul(inner, f"{p}.output.dense"), state, f"{p}.output")
    return state
