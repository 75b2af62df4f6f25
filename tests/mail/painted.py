"""What the painter tests of each game read from a painted picture (Maracaibo's, Caravelas')."""
from __future__ import annotations

import io

from PIL import Image

from engine import figure
from engine.figure import Window


def palette_image(png: bytes) -> Image.Image:
    """A mail's PNG as RGB, asserting it was written on a palette (as every mail picture is)."""
    with Image.open(io.BytesIO(png)) as im:
        assert im.mode == "P"
        return im.convert("RGB")


def flat_items(items: tuple[figure.Item, ...]) -> list[figure.Item]:
    """A figure's items with its windows opened: every drawn item, in drawing order."""
    out: list[figure.Item] = []
    for i in items:
        out += flat_items(i.items) if isinstance(i, Window) else [i]
    return out
