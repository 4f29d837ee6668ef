"""Image tokens a screenshot costs, per provider formula (estimates, documented sources).

* ``openai`` (GPT-4o / 4.1 family, ``detail="high"``): the image is fitted into 2048×2048,
  then its shortest side scaled down to 768; it is cut into 512×512 tiles; the cost is
  ``85 + 170 × tiles``. ``detail="low"`` is a flat 85. (OpenAI's vision guide.)
* ``anthropic`` (Claude 3+): an image whose long edge exceeds 1568 px (or over ~1.15 MP) is
  shrunk first; the cost is ``width × height / 750``. (Anthropic's vision docs.)

Both are what the providers document for billing; neither is measured here.
"""

from __future__ import annotations

import math
from typing import Literal

__all__ = ["Provider", "image_tokens"]

Provider = Literal["openai", "openai-low", "anthropic"]


def _openai_high(width: int, height: int) -> int:
    w, h = float(width), float(height)
    if max(w, h) > 2048:
        f = 2048 / max(w, h)
        w, h = w * f, h * f
    if min(w, h) > 768:
        f = 768 / min(w, h)
        w, h = w * f, h * f
    tiles = math.ceil(w / 512) * math.ceil(h / 512)
    return 85 + 170 * tiles


def _anthropic(width: int, height: int) -> int:
    w, h = float(width), float(height)
    if max(w, h) > 1568:
        f = 1568 / max(w, h)
        w, h = w * f, h * f
    if w * h > 1_150_000:
        f = math.sqrt(1_150_000 / (w * h))
        w, h = w * f, h * f
    return math.ceil(int(w) * int(h) / 750)


def image_tokens(width: int, height: int, provider: Provider = "openai") -> int:
    """Estimated input tokens of one ``width×height`` image for ``provider``."""
    if width <= 0 or height <= 0:
        raise ValueError(f"bad image size {width}x{height}")
    if provider == "openai":
        return _openai_high(width, height)
    if provider == "openai-low":
        return 85
    if provider == "anthropic":
        return _anthropic(width, height)
    raise ValueError(f"unknown provider {provider!r}: use openai, openai-low or anthropic")
