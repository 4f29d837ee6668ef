"""An obfuscating font, built from a free font on the machine: its digit glyphs are permuted.

Sites that do not want their numbers scraped serve a web font whose ``cmap`` maps the code
point of ``3`` to the glyph of ``8`` (and so on): the DOM, the accessibility tree and
``innerText`` hold one number, the screen shows another. :func:`permuted_digits_font` makes
such a font with fontTools: it keeps only the digit glyphs of a source font (a subset, ~5 KB)
and rewrites every Unicode ``cmap`` subtable so that digit ``d`` is drawn with the glyph of
``permutation[d]``. :func:`find_source_font` picks a free font that is on the machine
(DejaVu, through ``fc-match`` and then the usual Debian paths).

fontTools comes with the ``vision`` extra; it is imported when a font is built.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

from pagelens.errors import PagelensError

__all__ = ["DIGITS", "FontUnavailable", "decode_digits", "find_source_font", "permuted_digits_font"]

DIGITS = "0123456789"
_CANDIDATES = ("DejaVu Sans Mono:bold", "DejaVu Sans:bold", "DejaVu Sans", "Liberation Mono")
_PATHS = ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
          "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf")


class FontUnavailable(PagelensError):
    """No usable source font on the machine, or fontTools is not installed."""


def _check_permutation(permutation: str) -> None:
    if sorted(permutation) != list(DIGITS):
        raise ValueError(f"a digit permutation has each of 0-9 exactly once, not {permutation!r}")


def decode_digits(text: str, permutation: str) -> str:
    """What ``text`` looks like on the screen in the font of ``permutation``."""
    _check_permutation(permutation)
    return text.translate(str.maketrans(DIGITS, permutation))


def find_source_font() -> Path:
    """A free TrueType font with digit glyphs on this machine (DejaVu first)."""
    fc_match = shutil.which("fc-match")
    if fc_match:
        for pattern in _CANDIDATES:
            try:
                out = subprocess.run([fc_match, "-f", "%{file}", pattern], capture_output=True, text=True,
                                     timeout=10, check=False).stdout.strip()
            except (OSError, subprocess.TimeoutExpired):
                break
            if out.endswith(".ttf") and Path(out).is_file():
                return Path(out)
    for path in _PATHS:
        if Path(path).is_file():
            return Path(path)
    raise FontUnavailable("no DejaVu or Liberation TrueType font found: apt-get install fonts-dejavu-core "
                          "(or run scripts/ensure-tesseract.sh)")


def permuted_digits_font(source: Path, permutation: str, *, family: str = "Pagelens Obfuscated") -> bytes:
    """TrueType bytes of ``source`` cut down to its digits, digit ``d`` drawn as ``permutation[d]``."""
    _check_permutation(permutation)
    try:
        from fontTools import subset
        from fontTools.ttLib import TTFont
    except ImportError:
        raise FontUnavailable("building the obfuscating font needs fontTools: pip install 'pagelens[vision]'") from None
    font = TTFont(str(source))
    options = subset.Options()
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.drop_tables = [*options.drop_tables, "FFTM"]  # FontForge's timestamp: nothing to subset
    sub = subset.Subsetter(options)
    sub.populate(unicodes=[ord(d) for d in DIGITS])
    sub.subset(font)
    best = font.getBestCmap()
    missing = [d for d in DIGITS if ord(d) not in best]
    if missing:
        raise FontUnavailable(f"{source} has no glyph for the digits {''.join(missing)}")
    glyph_of = {d: best[ord(d)] for d in DIGITS}
    for table in font["cmap"].tables:
        if table.isUnicode():
            for d, shown in zip(DIGITS, permutation, strict=True):
                table.cmap[ord(d)] = glyph_of[shown]
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 4, 16):
            names.setName(family, record.nameID, record.platformID, record.platEncID, record.langID)
        elif record.nameID == 6:
            names.setName(family.replace(" ", ""), record.nameID, record.platformID, record.platEncID, record.langID)
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()
