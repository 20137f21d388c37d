"""A tiny, randomly initialized open_clip model for tests.

No real CLIP weights can be downloaded here, so tests build a 16-dimensional CLIP with a fixed
seed, save it as an ordinary checkpoint, and load it back through the same public code path
production uses (``ImageEncoder(model=<config json>, weights=<checkpoint>)``).

Import it as ``from adamm.tests.tiny_clip import make_tiny_clip``.
"""

from __future__ import annotations

import json
from pathlib import Path

MODEL_NAME = "tiny-clip-test"
EMBED_DIM = 16

TINY_CLIP_CONFIG = {
    "embed_dim": EMBED_DIM,
    "vision_cfg": {
        "image_size": 32,
        "layers": 1,
        "width": 32,
        "head_width": 16,  # heads = width // head_width; the default 64 would give 0 heads
        "patch_size": 8,
    },
    "text_cfg": {
        "context_length": 77,
        "vocab_size": 49408,  # open_clip's bundled SimpleTokenizer: no network needed
        "width": 32,
        "heads": 2,
        "layers": 1,
    },
}


def make_tiny_clip(directory: Path) -> tuple[Path, Path]:
    """Write ``tiny-clip-test.json`` and a seeded checkpoint into ``directory``.

    Returns ``(model_config_json_path, checkpoint_path)``. Deterministic: the same directory
    contents come out of every call (torch.manual_seed(0), restored RNG state afterwards so
    the caller's random stream is untouched).
    """
    import open_clip
    import torch

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    config_path = directory / f"{MODEL_NAME}.json"
    checkpoint_path = directory / f"{MODEL_NAME}.pt"
    config_path.write_text(json.dumps(TINY_CLIP_CONFIG, indent=2), encoding="utf-8")

    open_clip.add_model_config(config_path)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        model = open_clip.create_model(MODEL_NAME, pretrained=None, device="cpu")
    torch.save(model.state_dict(), checkpoint_path)
    return config_path, checkpoint_path
