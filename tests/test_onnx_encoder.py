"""The ONNX Runtime text encoder: the torch model's vectors from a graph built without torch,
its export's life cycle, and command paths that never load torch."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from adamm.demo import demo_rounds
from adamm.stores import onnx_text
from adamm.stores.encoders import EncoderError, TextEncoder, _packaged_text_model_path
from adamm.stores.onnx_bert import build_bert_graph

MEM_GALLERY = Path(__file__).resolve().parents[2] / "shared" / "data" / "mem_gallery" / "dialog"
HEAVY = ("torch", "torchvision", "transformers", "sentence_transformers", "open_clip")


def real_texts() -> list[str]:
    """Whole rounds, their parts and edge cases: what ingestion and questions really embed."""
    texts = []
    for rnd in demo_rounds():
        texts += [rnd.text, rnd.user_text]
    if MEM_GALLERY.is_dir():  # real benchmark rounds when the development data is here
        from adamm.formats import load

        rounds = load(sorted(MEM_GALLERY.glob("*.json"))[0]).scenarios[0].rounds
        texts += [r.text for r in rounds[::7]]
    long_round = " ".join(["The sourdough needed another stretch and fold before the oven."] * 60)
    return [*texts, long_round, "", "ok", "  spaced   out  ", "émigré café 東京 🙂"]


@pytest.fixture(scope="module")
def torch_encoder() -> TextEncoder:
    return TextEncoder(backend="torch")


def test_onnx_gives_the_torch_models_vectors_on_real_rounds(torch_encoder) -> None:
    onnx = TextEncoder(backend="onnx")
    texts = real_texts()
    got, want = onnx.encode(texts), torch_encoder.encode(texts)
    assert onnx.runs_on == "onnx" and torch_encoder.runs_on == "torch"
    assert got.shape == want.shape == (len(texts), 384)
    cosine = (got * want).sum(axis=1)  # both are L2-normalized
    assert cosine.min() >= 0.9999, texts[int(cosine.argmin())][:80]
    # order is kept although batches are formed by length
    assert np.allclose(onnx.encode(texts[::-1]), got[::-1], atol=1e-5)


#: Short and long texts, one past the model's 256 tokens; in one batch all but the longest are padded.
PROBES = ["ok", "", "My resting heart rate was 61 bpm this morning.", "émigré café 東京 🙂",
          "We baked a lemon tart; the oven ran hot, so the edges burned while the middle stayed soft.",
          " ".join(["The sourdough needed another stretch and fold before the oven."] * 60),
          *(f"note {i}: slept {5 + i % 4} hours, mood {'good' if i % 2 else 'bad'}" for i in range(6))]


def test_both_graphs_built_without_torch_give_the_sentence_transformers_vectors(tmp_path) -> None:
    """The fused graph (what runs) and the plain one (its reference at export time and the base of
    int8), written from the weights alone, against sentence-transformers on torch: each text
    alone, and all in one batch padded to the longest."""
    from sentence_transformers import SentenceTransformer

    model_dir = _packaged_text_model_path()
    # the suite's export (made once per run, by ensure_export as here), copied: the plain graph
    # is written beside it
    export = shutil.copytree(onnx_text.ensure_export(model_dir, Path(os.environ["ADAMM_MODEL_CACHE"])), tmp_path / "export")
    assert json.loads((export / "manifest.json").read_text())["fused"] is True
    build_bert_graph(model_dir, export / "plain.onnx")
    want = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True).encode(
        PROBES, convert_to_numpy=True, normalize_embeddings=True)
    for model_file in ("model.onnx", "plain.onnx"):
        for batch_tokens in (1, 100_000):  # one text per batch / one padded batch of all
            got = onnx_text.OnnxTextModel(export, threads=1, batch_tokens=batch_tokens, model_file=model_file).encode(PROBES)
            cosine = (got * want).sum(axis=1) / np.linalg.norm(got, axis=1) / np.linalg.norm(want, axis=1)
            assert cosine.min() >= 0.9999, (model_file, batch_tokens, PROBES[int(cosine.argmin())][:40], cosine.min())


def test_only_bert_encoders_are_built(tmp_path) -> None:
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text(json.dumps({"model_type": "roberta", "hidden_size": 8, "num_attention_heads": 2,
                                                    "num_hidden_layers": 1}))
    with pytest.raises(onnx_text.ExportError, match="model_type='bert'"):
        build_bert_graph(model, tmp_path / "out.onnx")
    (model / "config.json").write_text(json.dumps({"model_type": "bert", "hidden_size": 8, "num_attention_heads": 2,
                                                    "num_hidden_layers": 1}))
    with pytest.raises(onnx_text.ExportError, match="model.safetensors"):
        build_bert_graph(model, tmp_path / "out.onnx")


def test_int8_weights_keep_the_vectors_close_and_live_apart_from_the_float_export(torch_encoder, tmp_path) -> None:
    """``onnx-int8``: an export of its own beside the float one (both can be used from one
    cache), vectors close to the model's (the bounds: what per-channel quantization gives on
    real rounds, with a margin; a per-tensor or fused quantization fails them), and the same
    vector space name, so the per-encoder calibration still applies."""
    cache = tmp_path / "cache"
    int8 = TextEncoder(backend="onnx-int8", cache_dir=cache)
    flt = TextEncoder(backend="onnx", cache_dir=cache)
    texts = [t for t in real_texts() if t.strip()]
    got, want = int8.encode(texts), torch_encoder.encode(texts)
    assert int8.runs_on == "onnx-int8" and flt.encode(["x"]).shape == (1, 384) and flt.runs_on == "onnx"
    cosine = (got * want).sum(axis=1)
    assert cosine.mean() >= 0.98 and cosine.min() >= 0.93, (cosine.mean(), cosine.min())
    assert not np.allclose(got, want, atol=1e-4)  # it really is another model file
    exports = sorted(p.name for p in (cache / "onnx").iterdir() if p.is_dir())
    assert len(exports) == 2 and exports[1] == exports[0] + "-int8"
    assert json.loads((cache / "onnx" / exports[1] / "manifest.json").read_text())["int8"] is True
    assert int8.name == flt.name == "all-MiniLM-L6-v2"


def test_the_packaged_model_runs_on_onnx_by_default_and_names_one_vector_space(torch_encoder) -> None:
    auto = TextEncoder()
    auto.encode(["hello"])
    assert auto.runs_on == "onnx"
    assert auto.name == torch_encoder.name == "all-MiniLM-L6-v2"  # a memory does not care who wrote it


def test_a_damaged_export_is_rebuilt_not_used(tmp_path, capfd, torch_encoder) -> None:
    cache = tmp_path / "models"
    first = TextEncoder(backend="onnx", cache_dir=cache)
    want = first.encode(["my resting heart rate was 61"])
    assert "preparing the text encoder" in capfd.readouterr().err  # one line, the first time
    (export,) = [p for p in (cache / "onnx").iterdir() if p.is_dir() and not p.name.startswith(".")]

    model = export / "model.onnx"
    model.write_bytes(model.read_bytes()[: model.stat().st_size // 2])  # a partial copy
    again = TextEncoder(backend="onnx", cache_dir=cache)
    assert np.allclose(again.encode(["my resting heart rate was 61"]), want, atol=1e-5)
    assert "preparing the text encoder" in capfd.readouterr().err

    (export / "manifest.json").write_text("{not json")
    third = TextEncoder(backend="onnx", cache_dir=cache)
    assert np.allclose(third.encode(["my resting heart rate was 61"]), want, atol=1e-5)
    manifest = json.loads((export / "manifest.json").read_text())
    assert manifest["onnx_bytes"] == model.stat().st_size and manifest["dim"] == 384

    model.write_bytes(bytes(model.stat().st_size))  # right size, wrong bytes: only loading tells
    fourth = TextEncoder(backend="onnx", cache_dir=cache)
    assert np.allclose(fourth.encode(["my resting heart rate was 61"]), want, atol=1e-5)
    assert "preparing the text encoder" in capfd.readouterr().err

    fourth = TextEncoder(backend="onnx", cache_dir=cache)  # sound now: loaded, not exported
    fourth.encode(["x"])
    assert "preparing" not in capfd.readouterr().err


EXPORT_SCRIPT = """
import sys
from adamm.stores.encoders import TextEncoder
enc = TextEncoder(backend="onnx", cache_dir=sys.argv[1])
print(repr(enc.encode(["two processes, one export"])[0][:4].tolist()))
"""


def test_two_processes_starting_at_once_export_once(tmp_path) -> None:
    cache = tmp_path / "models"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    procs = [subprocess.Popen([sys.executable, "-c", EXPORT_SCRIPT, str(cache)], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    results = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err[-800:] for _, err in results]
    assert results[0][0] == results[1][0]
    assert sum(err.count("preparing the text encoder") for _, err in results) == 1
    exports = [p for p in (cache / "onnx").iterdir() if p.is_dir()]
    assert len(exports) == 1 and not exports[0].name.startswith(".")  # no staging left behind


def test_a_failed_export_falls_back_to_torch_under_auto_and_is_an_error_under_onnx(tmp_path, capfd) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the cache should be")
    auto = TextEncoder(cache_dir=blocked)
    vector = auto.encode(["falls back"])
    assert auto.runs_on == "torch" and vector.shape == (1, 384)
    assert "runs on torch instead of ONNX Runtime" in capfd.readouterr().err

    strict = TextEncoder(backend="onnx", cache_dir=blocked)
    with pytest.raises(EncoderError, match="cannot run on ONNX Runtime"):
        strict.encode(["no fallback"])


def test_models_the_runner_cannot_reproduce_are_refused_by_name(tmp_path) -> None:
    (tmp_path / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"},
    ]))
    with pytest.raises(onnx_text.ExportError, match="Dense"):
        onnx_text._pipeline(tmp_path)
    with pytest.raises(onnx_text.ExportError, match="not a sentence-transformers model"):
        onnx_text._pipeline(tmp_path / "elsewhere")


def test_fingerprint_follows_content_and_is_remembered(tmp_path) -> None:
    model, cache = tmp_path / "model", tmp_path / "cache"
    model.mkdir()
    (model / "config.json").write_text('{"hidden": 384}')
    (model / "README.md").write_text("docs do not change vectors")
    first = onnx_text.model_fingerprint(model, cache)
    assert onnx_text.model_fingerprint(model, cache) == first
    assert first in json.loads((cache / "fingerprints.json").read_text()).values()
    (model / "README.md").write_text("edited docs")
    assert onnx_text.model_fingerprint(model, cache) == first
    (model / "config.json").write_text('{"hidden": 385}')
    assert onnx_text.model_fingerprint(model, cache) != first


def test_encoder_threads_setting(monkeypatch) -> None:
    monkeypatch.setenv("ADAMM_ENCODER_THREADS", "3")
    assert onnx_text.encoder_threads() == 3
    monkeypatch.setenv("ADAMM_ENCODER_THREADS", "many")
    with pytest.raises(onnx_text.ExportError, match="ADAMM_ENCODER_THREADS"):
        onnx_text.encoder_threads()
    monkeypatch.delenv("ADAMM_ENCODER_THREADS")
    assert 1 <= onnx_text.encoder_threads() <= 8


COMMANDS = """
import json, sys
from adamm.cli import main
code = main(sys.argv[1:])
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {heavy!r})
print(json.dumps({{"code": code, "heavy": heavy}}))
"""


def test_commands_and_graphs_never_import_torch(home, tmp_path) -> None:
    """The default commands, the graphs and the MCP server, each in a process of its own, with a
    model cache of their own: the first command builds the ONNX model, and no process imports
    torch or anything else of the torch extra (the default install does not have them)."""
    rounds = tmp_path / "rounds.jsonl"
    rounds.write_text("".join(json.dumps(r) + "\n" for r in [
        {"round_id": "a1", "timestamp": "2025-03-01T08:00:00", "user_text": "My new bike is a green Brompton."},
        {"round_id": "a2", "timestamp": "2025-03-02T08:00:00", "user_text": "I slept 7.5 hours last night."},
        {"round_id": "a3", "timestamp": "2025-03-03T08:00:00", "user_text": "I slept 6 hours last night."},
    ]))
    cache = tmp_path / "fresh-model-cache"
    env = {**os.environ, "ADAMM_HOME": str(home), "ADAMM_MODEL_CACHE": str(cache)}
    script = COMMANDS.format(heavy=set(HEAVY))
    commands = [
        ["ingest", str(rounds), "--memory-id", "ada"],
        ["ask", "What colour is my bike?", "--memory-id", "ada"],
        ["tables", "--memory-id", "ada"],
        ["stats", "--memory-id", "ada"],
        ["demo"],
    ]
    for argv in commands:
        done = subprocess.run([sys.executable, "-c", script, *argv], env=env, capture_output=True, text=True,
                              timeout=300)
        report = json.loads(done.stdout.strip().splitlines()[-1])
        assert report == {"code": 0, "heavy": []}, (argv[0], report, done.stderr[-500:])
        assert ("preparing the text encoder" in done.stderr) == (argv[0] == "ingest"), (argv[0], done.stderr[-500:])
        if argv[0] == "ask":
            assert "Brompton" in done.stdout
    assert [p.name for p in (cache / "onnx").iterdir() if p.is_dir()] != []
    modules = "adamm.graphs.ingest, adamm.graphs.query, adamm.graphs.forget, adamm.graphs.mcp_app, adamm.memory"
    graphs = subprocess.run([sys.executable, "-c", f"import sys, {modules}; "
                             f"print(sorted(m for m in sys.modules if m.split('.')[0] in {set(HEAVY)!r}))"],
                            env=env, capture_output=True, text=True, timeout=300)
    assert graphs.stdout.strip() == "[]", graphs.stderr[-500:]


WITHOUT_TORCH = """
import sys
from importlib.abc import MetaPathFinder


class NotInstalled(MetaPathFinder):  # the default install: the torch extra is not there
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {heavy!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}")
        return None


sys.meta_path.insert(0, NotInstalled())
from adamm.stores.encoders import EncoderError, ImageEncoder, TextEncoder

for name, call in [("image", lambda: ImageEncoder("ViT-B-32", "weights.pt").encode_images([b"x"])),
                   ("torch", lambda: TextEncoder(backend="torch").encode(["x"]))]:
    try:
        call()
    except EncoderError as exc:
        print(name, exc)
print("onnx", TextEncoder().encode(["still runs"]).shape)
"""


def test_without_the_torch_extra_what_needs_it_names_the_extra(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT_TORCH.format(heavy=set(HEAVY))], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == 3, done.stderr[-800:]
    assert lines[0].startswith("image image embedding (open_clip) needs the torch extra: pip install 'adamm[torch]'")
    assert lines[1].startswith("torch the torch text backend needs the torch extra: pip install 'adamm[torch]'")
    assert lines[2] == "onnx (1, 384)"
