"""Viewport screenshots at exactly the size the model receives, and the coordinate map.

A screenshot is taken in CSS pixels (``scale="css"``: one image pixel per CSS pixel whatever
the device pixel ratio) and then shrunk, never enlarged, to fit the cap (default 1440×810,
aspect ratio kept). Sending the capped image means the provider does not resample it a second
time, so the coordinates the model reads off the image are the coordinates it sends back.
:class:`Geometry` maps between the two spaces::

    css = geometry.to_css(x, y)       # screenshot pixel -> CSS pixel (what Playwright's mouse uses)
    x, y = geometry.to_screen(cx, cy) # CSS pixel -> screenshot pixel (boxes in the hybrid list)

The device pixel ratio matters only for what the browser renders; mouse events and
``getBoundingClientRect`` are in CSS pixels, which is why the capture is in CSS pixels.
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pagelens.errors import PagelensError

if TYPE_CHECKING:
    from PIL.Image import Image
    from playwright.sync_api import Page

__all__ = [
    "CAP",
    "Geometry",
    "ImageFormat",
    "Screenshot",
    "ScreenshotConfig",
    "cap_size",
    "capture",
    "encode",
    "geometry_for",
    "require_pillow",
]

ImageFormat = Literal["png", "jpeg", "webp"]
CAP = (1440, 810)


class VisionUnavailable(PagelensError):
    """The ``vision`` extra (Pillow, ImageHash, pytesseract) is not installed."""


def require_pillow() -> None:
    try:
        import PIL  # noqa: F401
    except ImportError:
        raise VisionUnavailable("screenshots need Pillow: pip install 'pagelens[vision]'") from None


@dataclass(frozen=True, slots=True)
class ScreenshotConfig:
    """How screenshots are taken and encoded (the cap is the size the model receives)."""

    max_width: int = CAP[0]
    max_height: int = CAP[1]
    format: ImageFormat = "png"
    quality: int = 80  # JPEG/WebP only
    #: how many of the latest screenshots a policy keeps in its history
    keep_last: int = 1

    def __post_init__(self) -> None:
        if self.max_width < 16 or self.max_height < 16:
            raise ValueError(f"screenshot cap {self.max_width}x{self.max_height} is too small (at least 16x16)")
        if self.format not in ("png", "jpeg", "webp"):
            raise ValueError(f"unknown image format {self.format!r}: use png, jpeg or webp")
        if not 1 <= self.quality <= 100:
            raise ValueError(f"quality {self.quality} is not in 1..100")
        if self.keep_last < 0:
            raise ValueError("keep_last must be >= 0")


def cap_size(width: int, height: int, max_width: int, max_height: int) -> tuple[int, int]:
    """The largest size within the cap with the aspect ratio of ``width×height``; never larger."""
    if width <= 0 or height <= 0:
        raise ValueError(f"bad image size {width}x{height}")
    scale = min(1.0, max_width / width, max_height / height)
    if scale >= 1.0:
        return width, height
    return max(1, round(width * scale)), max(1, round(height * scale))


@dataclass(frozen=True, slots=True)
class Geometry:
    """The viewport in CSS pixels, the device pixel ratio, and the screenshot's size."""

    css_width: int
    css_height: int
    dpr: float
    width: int  # screenshot pixels
    height: int

    @property
    def scale_x(self) -> float:
        return self.width / self.css_width

    @property
    def scale_y(self) -> float:
        return self.height / self.css_height

    def to_css(self, x: float, y: float) -> tuple[float, float]:
        """Screenshot pixel → CSS pixel (``x / scale``; exact for the identity cap)."""
        return x / self.scale_x, y / self.scale_y

    def to_screen(self, x: float, y: float) -> tuple[int, int]:
        """CSS pixel → the nearest screenshot pixel (clamped to the image)."""
        return (min(self.width - 1, max(0, round(x * self.scale_x))),
                min(self.height - 1, max(0, round(y * self.scale_y))))

    def contains(self, x: float, y: float) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height


def geometry_for(css_width: int, css_height: int, dpr: float, config: ScreenshotConfig) -> Geometry:
    w, h = cap_size(css_width, css_height, config.max_width, config.max_height)
    return Geometry(css_width, css_height, dpr, w, h)


@dataclass(frozen=True, slots=True)
class Screenshot:
    data: bytes  # encoded image, exactly what the model receives
    format: ImageFormat
    geometry: Geometry
    seconds: float  # capture + resize + encode
    taken_ms: float  # host clock

    @property
    def media_type(self) -> str:
        return f"image/{self.format}"

    def image(self) -> Image:
        from PIL import Image as PILImage

        return PILImage.open(io.BytesIO(self.data))


def encode(img: Image, fmt: ImageFormat, quality: int) -> bytes:
    buf = io.BytesIO()
    if fmt == "png":
        img.save(buf, format="PNG", optimize=False)
    elif fmt == "jpeg":
        img.convert("RGB").save(buf, format="JPEG", quality=quality)
    else:
        img.save(buf, format="WEBP", quality=quality)
    return buf.getvalue()


_VIEW_JS = "() => [window.innerWidth, window.innerHeight, window.devicePixelRatio || 1]"


def capture(page: Page, config: ScreenshotConfig | None = None, *, raw: bool = False) -> Screenshot | Image:
    """A capped viewport screenshot of ``page`` (``raw=True``: the capped PIL image, not encoded)."""
    require_pillow()
    from PIL import Image as PILImage

    cfg = config or ScreenshotConfig()
    t0 = time.perf_counter()
    vw, vh, dpr = page.evaluate(_VIEW_JS)
    png = page.screenshot(type="png", scale="css", animations="allow", caret="initial")
    img: Image = PILImage.open(io.BytesIO(png))
    img.load()
    geo = geometry_for(int(vw), int(vh), float(dpr), cfg)
    if img.size != (geo.css_width, geo.css_height):  # a scrollbar or rounding: trust the image
        geo = geometry_for(img.size[0], img.size[1], float(dpr), cfg)
    if (geo.width, geo.height) != img.size:
        img = img.resize((geo.width, geo.height), PILImage.Resampling.LANCZOS)
    if img.mode not in ("RGB", "RGBA"):
        img = img.convert("RGB")
    if raw:
        return img
    data = encode(img, cfg.format, cfg.quality)
    return Screenshot(data, cfg.format, geo, time.perf_counter() - t0, time.time() * 1000)
