"""Encoders: the packaged MiniLM text model and a tiny open_clip model, all offline."""

from __future__ import annotations

import io
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from adamm.stores.encoders import (
    PACKAGED_TEXT_MODEL,
    EncoderError,
    ImageEncoder,
    TextEncoder,
    build_image_encoder,
)
from adamm.tests.tiny_clip import EMBED_DIM, MODEL_NAME, make_tiny_clip


def assert_unit_rows(vectors: np.ndarray) -> None:
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


# --------------------------------------------------------------------------------------------
# text


@pytest.fixture(scope="module")
def text_encoder() -> TextEncoder:
    encoder = TextEncoder()
    encoder.encode_one("warm up")  # load once for the module
    return encoder


def test_text_construction_is_lazy():
    encoder = TextEncoder()
    assert encoder._model is None
    assert encoder.name == PACKAGED_TEXT_MODEL


def test_packaged_text_model_dim_and_norm(text_encoder):
    assert text_encoder.dim == 384
    assert text_encoder.name == "all-MiniLM-L6-v2"
    vectors = text_encoder.encode(["one sentence", "another, longer sentence about sleep", ""])
    assert vectors.shape == (3, 384)
    assert_unit_rows(vectors)
    one = text_encoder.encode_one("one sentence")
    assert one.shape == (384,)
    np.testing.assert_array_equal(one, vectors[0])
    assert text_encoder.encode([]).shape == (0, 384)


def test_text_similarity_is_semantic(text_encoder):
    cat, rug, tax = text_encoder.encode(
        ["the cat sat on the mat", "a cat sitting on a rug", "quarterly tax report"]
    )
    assert float(cat @ rug) > float(cat @ tax) + 0.2


def test_text_batching_matches_one_by_one():
    texts = [f"note {i}: slept {5 + i % 4} hours, mood {'good' if i % 2 else 'bad'}" for i in range(7)]
    texts.append("a much longer sentence so that padding inside a batch actually matters here")
    batched = TextEncoder(batch_size=3, cache_size=0).encode(texts)
    single = TextEncoder(batch_size=1, cache_size=0)
    one_by_one = np.stack([single.encode_one(t) for t in texts])
    np.testing.assert_allclose(batched, one_by_one, atol=1e-5)


def test_text_cache_avoids_reencoding(text_encoder):
    calls: list[list[str]] = []
    model = text_encoder._model
    original = model.encode

    def counting_encode(texts, *args, **kwargs):
        calls.append(list(texts))
        return original(texts, *args, **kwargs)

    model.encode = counting_encode
    try:
        text_encoder.clear_cache()
        first = text_encoder.encode(["alpha", "beta", "alpha"])
        assert calls == [["alpha", "beta"]]  # duplicates within a call are encoded once
        again = text_encoder.encode(["beta", "alpha"])
        assert len(calls) == 1  # pure cache hits: the model is not called at all
        np.testing.assert_array_equal(again, first[[1, 0]])
        text_encoder.encode(["alpha", "gamma"])
        assert calls[1] == ["gamma"]  # only the miss reaches the model
        again[0] = 0.0  # returned arrays are the caller's; the cache is unaffected
        np.testing.assert_array_equal(text_encoder.encode_one("beta"), first[1])
    finally:
        del model.encode


def test_text_lru_evicts_oldest():
    encoder = TextEncoder(cache_size=2)
    encoder._model = _FakeSentenceModel()
    encoder._dim = 3
    encoder.encode(["a", "b"])
    encoder.encode(["a"])  # touch a: b is now the oldest
    encoder.encode(["c"])  # evicts b
    assert encoder._model.calls == [["a", "b"], ["c"]]
    encoder.encode(["a", "c"])
    assert len(encoder._model.calls) == 2
    encoder.encode(["b"])
    assert encoder._model.calls[-1] == ["b"]


class _FakeSentenceModel:
    """Stands in for SentenceTransformer where only the cache logic is under test."""

    def __init__(self):
        self.calls: list[list[str]] = []

    def encode(self, texts, **kwargs):
        self.calls.append(list(texts))
        return np.array([[len(t) + 1.0, 1.0, 0.0] for t in texts], dtype=np.float32)


def test_missing_local_text_model_path(tmp_path):
    missing = tmp_path / "no-such-model"
    encoder = TextEncoder(str(missing))  # cheap: nothing checked or loaded yet
    assert encoder.name == "no-such-model"
    with pytest.raises(EncoderError, match=re.escape(str(missing))):
        encoder.encode(["x"])


def test_uncached_hub_text_model_fails_fast():
    encoder = TextEncoder("some-org/definitely-not-cached-model")
    assert encoder.name == "definitely-not-cached-model"
    with pytest.raises(EncoderError, match="not found locally; give a local path"):
        encoder.encode(["x"])


# --------------------------------------------------------------------------------------------
# images


@pytest.fixture(scope="module")
def tiny_clip(tmp_path_factory) -> tuple[Path, Path]:
    return make_tiny_clip(tmp_path_factory.mktemp("tiny_clip"))


@pytest.fixture(scope="module")
def image_encoder(tiny_clip) -> ImageEncoder:
    config, checkpoint = tiny_clip
    return ImageEncoder(model=str(config), weights=str(checkpoint))


def _png(color: tuple[int, int, int], stripe: bool = False) -> Image.Image:
    image = Image.new("RGB", (40, 40), color)
    if stripe:
        for x in range(0, 40, 4):
            for y in range(40):
                image.putpixel((x, y), (255 - color[0], 255 - color[1], 255 - color[2]))
    return image


@pytest.fixture(scope="module")
def image_inputs(tmp_path_factory):
    """The three kinds of accepted input: a file path, PNG bytes, a PIL image."""
    directory = tmp_path_factory.mktemp("images")
    red = directory / "red.png"
    _png((220, 30, 30)).save(red)
    buffer = io.BytesIO()
    _png((30, 200, 40), stripe=True).save(buffer, format="PNG")
    return [red, buffer.getvalue(), _png((20, 40, 230))]


def test_image_encoder_is_lazy(tiny_clip, monkeypatch):
    import open_clip

    calls = []
    original = open_clip.create_model_and_transforms

    def counting(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(open_clip, "create_model_and_transforms", counting)
    config, checkpoint = tiny_clip
    encoder = ImageEncoder(model=str(config), weights=str(checkpoint))
    assert encoder._model is None and calls == []
    assert encoder.name.startswith(f"{MODEL_NAME}:") and len(encoder.name.split(":")[1]) == 8
    assert calls == []  # the name needs no model
    assert encoder.dim == EMBED_DIM
    encoder.encode_texts(["a"])
    assert len(calls) == 1  # loaded once, on first use


def test_concurrent_first_use_loads_once(tiny_clip, monkeypatch):
    import open_clip

    calls = []
    original = open_clip.create_model_and_transforms

    def counting(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(open_clip, "create_model_and_transforms", counting)
    config, checkpoint = tiny_clip
    encoder = ImageEncoder(model=str(config), weights=str(checkpoint))
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: encoder.encode_texts(["same text"]), range(8)))
    assert len(calls) == 1
    for result in results[1:]:
        np.testing.assert_array_equal(result, results[0])


def test_encode_images_shapes_norms_and_input_kinds(image_encoder, image_inputs):
    vectors = image_encoder.encode_images(image_inputs)
    assert vectors.shape == (3, EMBED_DIM)
    assert_unit_rows(vectors)
    # different images differ
    for i in range(3):
        for j in range(i + 1, 3):
            assert not np.allclose(vectors[i], vectors[j], atol=1e-4)
    assert image_encoder.encode_images([]).shape == (0, EMBED_DIM)


def test_identical_images_give_identical_vectors(image_encoder, image_inputs, tmp_path):
    path = image_inputs[0]
    same_as_bytes = path.read_bytes()
    same_as_pil = Image.open(path)
    copy = tmp_path / "copy.png"
    copy.write_bytes(same_as_bytes)
    vectors = image_encoder.encode_images([path, same_as_bytes, same_as_pil, str(copy)])
    for row in vectors[1:]:
        np.testing.assert_allclose(row, vectors[0], atol=1e-6)


def test_image_vectors_deterministic_across_instances(tiny_clip, image_encoder, image_inputs):
    config, checkpoint = tiny_clip
    other = ImageEncoder(model=str(config), weights=str(checkpoint), batch_size=2)
    assert other.name == image_encoder.name
    np.testing.assert_allclose(
        other.encode_images(image_inputs), image_encoder.encode_images(image_inputs), atol=1e-6
    )
    texts = ["a red square", "green stripes", "a blue square"]
    np.testing.assert_allclose(
        other.encode_texts(texts), image_encoder.encode_texts(texts), atol=1e-6
    )


def test_encode_texts_in_the_joint_space(image_encoder, image_inputs):
    texts = ["a red square", "green stripes", "a blue square", "tax report"]
    vectors = image_encoder.encode_texts(texts)
    assert vectors.shape == (4, EMBED_DIM)
    assert_unit_rows(vectors)
    assert not np.allclose(vectors[0], vectors[3], atol=1e-4)
    scores = vectors @ image_encoder.encode_images(image_inputs).T  # comparable spaces
    assert scores.shape == (4, 3)


def test_bad_images_raise_encoder_error_naming_them(image_encoder, tmp_path):
    corrupt = tmp_path / "corrupt.png"
    corrupt.write_bytes(b"\x89PNG\r\n\x1a\n this is not really a png")
    with pytest.raises(EncoderError, match=re.escape(str(corrupt))):
        image_encoder.encode_images([corrupt])

    missing = tmp_path / "missing.jpg"
    with pytest.raises(EncoderError, match=re.escape(str(missing))):
        image_encoder.encode_images([missing])

    with pytest.raises(EncoderError, match=r"image #1 \(5 bytes\)"):
        image_encoder.encode_images([_png((1, 2, 3)), b"junk!"])


def test_missing_checkpoint_and_unknown_tag_fail_clearly(tiny_clip, tmp_path):
    config, _ = tiny_clip
    missing = tmp_path / "nope.pt"
    with pytest.raises(EncoderError, match=re.escape(str(missing))):
        ImageEncoder(model=str(config), weights=str(missing)).encode_texts(["x"])
    # an open_clip pretrained tag that is not in the local cache: fails immediately, offline
    with pytest.raises(EncoderError, match="could not be loaded offline"):
        ImageEncoder(model="ViT-B-32", weights="openai").encode_texts(["x"])
    with pytest.raises(EncoderError, match="could not be loaded offline"):
        ImageEncoder(model="hf-hub:nobody/not-a-cached-clip", weights=None).encode_texts(["x"])


def test_build_image_encoder(tiny_clip):
    config, checkpoint = tiny_clip
    assert build_image_encoder(None, None) is None
    assert build_image_encoder("ViT-B-32", None) is None
    encoder = build_image_encoder(str(config), str(checkpoint))
    assert isinstance(encoder, ImageEncoder) and encoder._model is None
    assert isinstance(build_image_encoder("hf-hub:org/repo", None), ImageEncoder)
    with pytest.raises(EncoderError):
        build_image_encoder(None, str(checkpoint))
