"""Text in image files, read with Tesseract (``pytesseract`` + the ``tesseract-ocr`` binary).

Dashboards and receipts carry their numbers as pixels; when a round has the image file (not
just a caption) OCR gives the extractor those numbers. Without the binary this is a no-op, so
adamm still runs where Tesseract cannot be installed; ``ocr_available`` tells which.
"""

from __future__ import annotations

import io
import logging
import shutil
from functools import lru_cache
from pathlib import Path

from adamm.stores.records import Round

log = logging.getLogger(__name__)

MAX_OCR_CHARS = 5_000


@lru_cache(maxsize=1)
def ocr_available() -> bool:
    if shutil.which("tesseract") is None:
        return False
    try:
        import pytesseract  # noqa: PLC0415, F401 - OCR is optional
    except ImportError:
        return False
    return True


def ocr_images(rnd: Round) -> dict[str, str]:
    """OCR text per image id, for images whose pixels we have; unreadable images are skipped."""
    if not ocr_available() or not any(im.data or im.path for im in rnd.images):
        return {}
    import pytesseract  # noqa: PLC0415 - OCR is optional
    from PIL import Image, UnidentifiedImageError  # noqa: PLC0415 - images only

    out: dict[str, str] = {}
    for im in rnd.images:
        try:
            if im.data:
                img = Image.open(io.BytesIO(im.data))
            elif im.path and Path(im.path).is_file():
                img = Image.open(im.path)
            else:
                continue
            text = pytesseract.image_to_string(img.convert("RGB"), timeout=30)
        except (OSError, UnidentifiedImageError, RuntimeError) as exc:
            log.warning("OCR of image %s failed: %s", im.image_id, exc)
            continue
        text = " ".join(text.split())[:MAX_OCR_CHARS]
        if text:
            out[im.image_id] = text
    return out
