"""Set-of-Mark overlay and point markers, drawn with Pillow on a copy of the screenshot."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image

    from pagelens.vision.elements import ScreenElement

__all__ = ["draw_marks", "draw_point"]

_COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080", "#9a6324", "#800000")


def draw_marks(img: Image, elements: Sequence[ScreenElement]) -> Image:
    """A copy of ``img`` with each element's box outlined and its id written at the top-left."""
    from PIL import ImageDraw, ImageFont

    out = img.convert("RGB")
    draw = ImageDraw.Draw(out)
    font = ImageFont.load_default()
    for i, e in enumerate(elements):
        colour = _COLOURS[i % len(_COLOURS)]
        draw.rectangle((e.x, e.y, e.x + e.w - 1, e.y + e.h - 1), outline=colour, width=2)
        label = e.eid
        left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
        tw, th = right - left + 4, bottom - top + 2
        lx, ly = e.x, max(0, e.y - th)
        draw.rectangle((lx, ly, lx + tw, ly + th), fill=colour)
        draw.text((lx + 2, ly - top + 1), label, fill="white", font=font)
    return out


def draw_point(data: bytes, x: int, y: int, *, radius: int = 9) -> bytes:
    """PNG bytes of the image ``data`` with a cross-hair at (x, y) (the point an action used)."""
    from PIL import Image as PILImage
    from PIL import ImageDraw

    img = PILImage.open(io.BytesIO(data)).convert("RGB")
    draw = ImageDraw.Draw(img)
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline="#ff0000", width=3)
    draw.line((x - radius - 4, y, x + radius + 4, y), fill="#ff0000", width=1)
    draw.line((x, y - radius - 4, x, y + radius + 4), fill="#ff0000", width=1)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()
