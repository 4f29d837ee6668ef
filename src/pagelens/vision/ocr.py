"""OCR cross-check of values read off a screenshot (Tesseract through pytesseract).

The page text can disagree with what is drawn: digits in an obfuscating font or reordered by
CSS, values painted into a canvas. :func:`read_region` OCRs a box of the screenshot (upscaled
3× and binarised first: Tesseract reads small UI text badly at 1×); :func:`cross_check` says
whether a value read from the page or by the model also appears there.

Needs the ``vision`` extra and Debian's ``tesseract-ocr`` (``scripts/ensure-tesseract.sh``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pagelens.errors import PagelensError

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["OcrCheck", "OcrUnavailable", "cross_check", "read_region"]


class OcrUnavailable(PagelensError):
    """pytesseract or the tesseract binary is missing."""


@dataclass(frozen=True, slots=True)
class OcrCheck:
    value: str
    ocr_text: str
    agrees: bool


def read_region(img: Image, box: tuple[int, int, int, int] | None = None, *, digits: bool = False,
                accept: Callable[[str], bool] | None = None) -> str:
    """Text in ``box`` (x, y, w, h in the image's pixels; None: the whole image).

    Tesseract's page segmentation is fragile on UI crops (a tooltip's frame makes block mode
    read nothing), so a few settings are tried in order: block, raw line, single word, then
    2× with a white margin. The first text ``accept`` takes (default: any non-empty) wins;
    when none is accepted, the first non-empty text is returned ("" when none).
    """
    try:
        import pytesseract
    except ImportError:
        raise OcrUnavailable("OCR needs pytesseract: pip install 'pagelens[vision]'") from None
    from PIL import Image as PILImage
    from PIL import ImageOps

    crop = (img if box is None else img.crop((box[0], box[1], box[0] + box[2], box[1] + box[3]))).convert("L")
    from PIL import ImageStat

    if ImageStat.Stat(crop).mean[0] < 110:  # light text on a dark ground
        crop = ImageOps.invert(crop)
    big = ImageOps.expand(crop.resize((crop.width * 2, crop.height * 2), PILImage.Resampling.LANCZOS), border=24,
                          fill=255)
    whitelist = " -c tessedit_char_whitelist=0123456789.,-" if digits else ""
    first = ""
    for image, psm in ((crop, 6), (crop, 13), (crop, 8), (big, 6)):
        try:
            text = " ".join(pytesseract.image_to_string(image, config=f"--psm {psm}{whitelist}").split())
        except pytesseract.TesseractNotFoundError:
            raise OcrUnavailable("the tesseract binary is missing: apt-get install tesseract-ocr "
                                 "(or run scripts/ensure-tesseract.sh)") from None
        if text and (accept is None or accept(text)):
            return text
        first = first or text
    return first


def _squash(text: str) -> str:
    return re.sub(r"[\s,]", "", text.casefold())


def cross_check(value: str, img: Image, box: tuple[int, int, int, int] | None = None) -> OcrCheck:
    """Does ``value`` appear in the OCR text of ``box``? (spaces and thousands commas ignored)"""
    digits = bool(re.fullmatch(r"[\d.,\s-]+", value))
    text = read_region(img, box, digits=digits, accept=lambda t: _squash(value) in _squash(t))
    return OcrCheck(value, text, bool(value.strip()) and _squash(value) in _squash(text))
