"""OCR cross-check of values read off a screenshot (Tesseract through pytesseract).

The page text can disagree with what is drawn: digits in an obfuscating font or reordered by
CSS, values painted into a canvas. :func:`read_region` OCRs a box of the screenshot (upscaled
3× and binarised first: Tesseract reads small UI text badly at 1×); :func:`cross_check` says
whether a value read from the page or by the model also appears there.

Needs the ``vision`` extra and Debian's ``tesseract-ocr`` (``scripts/ensure-tesseract.sh``).
"""

from __future__ import annotations

import re
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
                line: bool = True) -> str:
    """Text in ``box`` (x, y, w, h in the image's pixels; None: the whole image)."""
    try:
        import pytesseract
    except ImportError:
        raise OcrUnavailable("OCR needs pytesseract: pip install 'pagelens[vision]'") from None
    from PIL import Image as PILImage
    from PIL import ImageOps

    crop = img if box is None else img.crop((box[0], box[1], box[0] + box[2], box[1] + box[3]))
    gray = ImageOps.autocontrast(crop.convert("L"))
    gray = gray.resize((gray.width * 3, gray.height * 3), PILImage.Resampling.LANCZOS)
    if sum(gray.getdata()) / max(1, gray.width * gray.height) < 110:  # light text on a dark ground
        gray = ImageOps.invert(gray)
    config = f"--psm {7 if line else 6}" + (" -c tessedit_char_whitelist=0123456789.,-" if digits else "")
    try:
        text = pytesseract.image_to_string(gray, config=config)
    except pytesseract.TesseractNotFoundError:
        raise OcrUnavailable("the tesseract binary is missing: apt-get install tesseract-ocr "
                             "(or run scripts/ensure-tesseract.sh)") from None
    return " ".join(text.split())


def _squash(text: str) -> str:
    return re.sub(r"[\s,]", "", text.casefold())


def cross_check(value: str, img: Image, box: tuple[int, int, int, int] | None = None) -> OcrCheck:
    """Does ``value`` appear in the OCR text of ``box``? (spaces and thousands commas ignored)"""
    digits = bool(re.fullmatch(r"[\d.,\s-]+", value))
    text = read_region(img, box, digits=digits)
    return OcrCheck(value, text, bool(value.strip()) and _squash(value) in _squash(text))
