"""Does the screen show the value the page text (or the agent) says? An OCR cross-check.

The DOM and the pixels can disagree: an obfuscating web font draws ``8`` for the code point
``3``, CSS reorders digits, a canvas paints a value the DOM never held. When an agent reads
a value (``read_text``, an answer taken from the hybrid list or the screenshot), this module
checks it against Tesseract's reading of the screenshot and says one of three things:

``agree``     the value is on the screen (in the element's box, or anywhere when no box is known);
``disagree``  something else is drawn where the value should be: in the element's box, or,
              without a box, a number of the same shape on the line of the value's label;
``unseen``    the value is not on the screen and nothing stands in its place (scrolled away,
              too small to read, drawn as an image).

Only values worth checking are checked: in a ``read_text`` text its numbers of two or more
digits (what fonts obfuscate and agents copy), an answer as a whole. Pure apart from Tesseract:
everything takes an image (or the screenshot's bytes) and optional boxes in its pixels.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pagelens.vision.ocr import read_region

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["CrossCheck", "OcrLine", "ScreenText", "check_value", "read_screen", "values_in"]

Source = Literal["read_text", "answer", "read"]
Verdict = Literal["agree", "disagree", "unseen"]
Box = tuple[int, int, int, int]  # x, y, w, h in screenshot pixels
MAX_VALUES = 4


@dataclass(frozen=True, slots=True)
class CrossCheck:
    source: Source
    value: str  # what the page text (or the answer) says
    verdict: Verdict
    screen: str  # what OCR read in its place ("" when nothing stands there)
    box: Box | None  # where it was read, in screenshot pixels (None: nowhere in particular)

    @property
    def agrees(self) -> bool:
        return self.verdict == "agree"

    def sentence(self) -> str:
        """One statement for the feedback the model reads."""
        what = "the page text" if self.source == "read_text" else "your answer" if self.source == "answer" else "the DOM"
        if self.verdict == "agree":
            return f"OCR check: the screen also shows {self.value!r}."
        if self.verdict == "disagree":
            return (f"OCR check: {what} says {self.value!r} but the screen shows {self.screen!r} there "
                    "(a font or style draws other characters than the page holds): report what the screen shows.")
        return f"OCR check: {self.value!r} is not readable on the screen (not in view, or too small)."


@dataclass(frozen=True, slots=True)
class OcrLine:
    text: str
    box: Box


@dataclass(frozen=True, slots=True)
class ScreenText:
    """Tesseract's lines of one screenshot, with boxes."""

    lines: tuple[OcrLine, ...]

    def text(self) -> str:
        return "\n".join(ln.text for ln in self.lines)


def _image(data: Image | bytes) -> Image:
    if isinstance(data, bytes | bytearray):
        from PIL import Image as PILImage

        return PILImage.open(io.BytesIO(bytes(data)))
    return data


def read_screen(data: Image | bytes) -> ScreenText:
    """OCR the whole screenshot into lines (block mode, boxes from ``image_to_data``)."""
    from pagelens.vision.ocr import OcrUnavailable

    try:
        import pytesseract
    except ImportError:
        raise OcrUnavailable("OCR needs pytesseract: pip install 'pagelens[vision]'") from None
    img = _image(data).convert("L")
    try:
        d = pytesseract.image_to_data(img, config="--psm 3", output_type=pytesseract.Output.DICT)
    except pytesseract.TesseractNotFoundError:
        raise OcrUnavailable("the tesseract binary is missing: apt-get install tesseract-ocr "
                             "(or run scripts/ensure-tesseract.sh)") from None
    groups: dict[tuple[int, int, int], list[int]] = {}
    for i, word in enumerate(d["text"]):
        if str(word).strip():
            groups.setdefault((d["block_num"][i], d["par_num"][i], d["line_num"][i]), []).append(i)
    lines = []
    for idx in groups.values():
        x0 = min(d["left"][i] for i in idx)
        y0 = min(d["top"][i] for i in idx)
        x1 = max(d["left"][i] + d["width"][i] for i in idx)
        y1 = max(d["top"][i] + d["height"][i] for i in idx)
        lines.append(OcrLine(" ".join(str(d["text"][i]).strip() for i in idx), (x0, y0, x1 - x0, y1 - y0)))
    lines.sort(key=lambda ln: (ln.box[1], ln.box[0]))
    return ScreenText(tuple(lines))


_NUMBER = re.compile(r"\d[\d,.\u00a0\u202f ]*\d|\d")
# what Tesseract reads for digits in UI fonts (a bold monospace 1 becomes "l" or "L")
_DIGIT_LOOKALIKES = str.maketrans({"l": "1", "I": "1", "L": "1", "|": "1", "O": "0", "o": "0"})


def values_in(text: str, *, limit: int = MAX_VALUES) -> tuple[str, ...]:
    """The numbers of two or more digits in a read text (thousands separators kept), in order."""
    out: list[str] = []
    for m in _NUMBER.finditer(text):
        raw = m.group(0).strip(" ,.\u00a0\u202f")
        if sum(ch.isdigit() for ch in raw) >= 2 and raw not in out:
            out.append(raw)
    return tuple(out[:limit])


def _squash(text: str) -> str:
    return re.sub(r"[\s,\u00a0\u202f]", "", text.casefold())


def _digitised(text: str) -> str:
    """``text`` with digit look-alikes read as digits inside number-like tokens."""
    def fix(tok: str) -> str:
        digits = sum(ch.isdigit() for ch in tok)
        return tok.translate(_DIGIT_LOOKALIKES) if digits and digits * 2 >= len(tok) else tok

    return " ".join(fix(t) for t in text.split())


def _shows(value: str, text: str) -> bool:
    v = _squash(value)
    return bool(v) and (v in _squash(text) or v in _squash(_digitised(text)))


def _is_number(value: str) -> bool:
    return bool(re.fullmatch(r"[\d.,\s\u00a0\u202f]+", value)) and any(ch.isdigit() for ch in value)


def _shape(value: str) -> str:
    return re.sub(r"\d", "9", _squash(value))


def _label_words(context: str, value: str) -> set[str]:
    rest = context.replace(value, " ")
    return {w for w in re.findall(r"[^\W\d_]{3,}", rest.casefold())}


def check_value(value: str, image: Image | bytes, *, source: Source, box: Box | None = None,
                screen: ScreenText | None = None, context: str = "") -> CrossCheck:
    """Cross-check one ``value`` against the screenshot.

    With ``box`` (the element's box): OCR that box; the value there is ``agree``, other text
    there is ``disagree``. Without: look in the whole screen's lines (``screen``, OCRed when
    not given); when the value is not there, a number of the same shape on a line that shares
    a word with ``context`` (the value's label, e.g. the rest of the read text), or on the line
    under it, is ``disagree``.
    """
    img = _image(image)
    value = value.strip()
    if box is not None:
        numeric = _is_number(value)
        text = read_region(img, box, digits=numeric, accept=lambda t: _shows(value, t))
        if _shows(value, text):
            return CrossCheck(source, value, "agree", text, box)
        shown = re.sub(r"(?<=\d) (?=\d)", "", " ".join(text.split()))  # letter-spaced digits are one number
        return CrossCheck(source, value, "disagree" if shown else "unseen", shown, box)
    lines = (screen or read_screen(img)).lines
    for ln in lines:
        if _shows(value, ln.text):
            return CrossCheck(source, value, "agree", ln.text, ln.box)
    if len(lines) > 1 and _shows(value, " ".join(ln.text for ln in lines)):  # a value wrapped over two lines
        return CrossCheck(source, value, "agree", value, None)
    if _is_number(value):
        stand_in = _same_shape(value, lines, _label_words(context, value), img)
        if stand_in is not None:
            return CrossCheck(source, value, "disagree", stand_in[0], stand_in[1])
    return CrossCheck(source, value, "unseen", "", None)


def _same_shape(value: str, lines: Sequence[OcrLine], labels: set[str], img: Image) -> tuple[str, Box] | None:
    """A number shaped like ``value`` on the value's label line or the line under it (a line
    with digits is re-read with a digits-only OCR pass when its text has none of that shape)."""
    shape = _shape(value)

    def numbers(ln: OcrLine) -> list[str]:
        found = [n for n in values_in(_digitised(ln.text), limit=20) if _shape(n) == shape]
        if not found and any(ch.isdigit() for ch in ln.text):
            again = read_region(img, ln.box, digits=True)
            found = [n for n in values_in(again, limit=20) if _shape(n) == shape]
        return [re.sub(r"\s", "", n) for n in found]  # letter-spaced digits are one number

    if labels:
        for i, ln in enumerate(lines):
            if labels & set(re.findall(r"[^\W\d_]{3,}", ln.text.casefold())):
                for cand in lines[i : i + 2]:
                    got = numbers(cand)
                    if got:
                        return got[0], cand.box
    return None


def check_read(source: Source, text: str, image: Image | bytes, *, box: Box | None = None) -> tuple[CrossCheck, ...]:
    """The checks of one read by the agent: the numbers of a ``read_text`` text (``source=
    "read_text"``), or a whole answer (``"answer"``). Values shorter than two letters or digits
    are not checked (a count like ``3`` is on every screen). The screen is OCRed once."""
    if source == "read_text":
        values = values_in(text)
    else:
        answer = " ".join(text.split())
        values = (answer,) if sum(ch.isalnum() for ch in answer) >= 2 and len(answer) <= 80 else ()
    if not values:
        return ()
    img = _image(image)
    screen = None if box is not None else read_screen(img)
    return tuple(check_value(v, img, source=source, box=box, screen=screen, context=text) for v in values)
