"""OCR of image files through Tesseract, the same path ingestion uses."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw, ImageFont

from adamm.nodes.ocr import ocr_available, ocr_images
from adamm.stores.records import Round
from adamm.tests.needs import require


@pytest.fixture(autouse=True)
def _tesseract() -> None:
    """Skipped without tesseract-ocr (and pytesseract); failed under CI."""
    require(ocr_available(), "tesseract-ocr is not installed")


def rendered(text: str) -> bytes:
    img = Image.new("RGB", (900, 160), "white")
    ImageDraw.Draw(img).text((20, 40), text, fill="black", font=ImageFont.load_default(size=48))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def test_ocr_reads_text_from_image_bytes_and_files(tmp_path) -> None:
    path = tmp_path / "dash.png"
    path.write_bytes(rendered("Deep sleep 70 min"))
    rnd = Round(round_id="r1", user_text="my dashboards", images=[
        {"image_id": "a", "data": rendered("Resting HR 54 bpm")},
        {"image_id": "b", "path": str(path)},
        {"image_id": "c", "caption": "caption only, no pixels"},
    ])
    texts = ocr_images(rnd)
    assert set(texts) == {"a", "b"}
    assert "Resting HR 54 bpm" in texts["a"]
    assert "Deep sleep 70 min" in texts["b"]


def test_unreadable_image_is_skipped_not_fatal() -> None:
    rnd = Round(round_id="r1", images=[{"image_id": "x", "data": b"not an image at all"}])
    assert ocr_images(rnd) == {}
