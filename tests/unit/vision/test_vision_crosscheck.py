"""The obfuscating font builder and the OCR cross-check (pure: fontTools, Pillow, Tesseract)."""

from __future__ import annotations

import io

import pytest

from pagelens.bench.vision_font import DIGITS, decode_digits, find_source_font, permuted_digits_font
from pagelens.vision.crosscheck import check_read, check_value, values_in

PERM = "5946830217"


def test_the_font_keeps_only_digits_and_draws_each_with_its_permuted_glyph() -> None:
    ttlib = pytest.importorskip("fontTools.ttLib")
    source = find_source_font()
    original = ttlib.TTFont(str(source))
    built = ttlib.TTFont(io.BytesIO(permuted_digits_font(source, PERM)))
    cmap = built.getBestCmap()
    assert sorted(cmap) == [ord(d) for d in DIGITS]

    def outline(font, char: str) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
        glyf = font["glyf"]
        coords, _ends, _flags = glyf[font.getBestCmap()[ord(char)]].getCoordinates(glyf)
        return [tuple(c) for c in coords]

    # glyph names are not to be trusted after a subset: compare the outlines drawn
    assert all(outline(built, d) == outline(original, shown) for d, shown in zip(DIGITS, PERM, strict=True))
    assert outline(built, "4") != outline(original, "4")
    assert any(r.toUnicode() == "Pagelens Obfuscated" for r in built["name"].names if r.nameID == 1)
    assert decode_digits("471928", PERM) == "829741"


def test_a_permutation_must_use_every_digit_once() -> None:
    with pytest.raises(ValueError, match="exactly once"):
        decode_digits("12", "0123456788")


def test_values_in_keeps_numbers_of_two_or_more_digits() -> None:
    assert values_in("Order 4471 of 3 items, total 1,234.50 EUR (12 %)") == ("4471", "1,234.50", "12")
    assert values_in("no numbers, 1 digit") == ()


def _picture(lines: list[str]):  # type: ignore[no-untyped-def]
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(find_source_font()), 28)
    img = Image.new("RGB", (640, 60 * len(lines) + 20), "white")
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((20, 20 + 60 * i), line, fill="black", font=font)
    return img


def test_the_screen_agrees_disagrees_or_does_not_show_the_value() -> None:
    pytest.importorskip("pytesseract")
    img = _picture(["Invoice total: 3870", "Reference 55102"])
    assert check_value("3870", img, source="read_text", context="Invoice total: 3870").verdict == "agree"
    wrong = check_value("9214", img, source="read_text", context="Invoice total: 9214")
    assert (wrong.verdict, wrong.screen) == ("disagree", "3870"), wrong
    assert "the screen shows '3870'" in wrong.sentence()
    assert check_value("777", img, source="read_text").verdict == "unseen"
    boxed = check_value("55102", img, source="read", box=(0, 70, 640, 60))
    assert boxed.verdict == "agree" and boxed.box == (0, 70, 640, 60)
    assert [c.verdict for c in check_read("answer", "3870", img)] == ["agree"]
    assert check_read("answer", "3", img) == (), "a one-character answer is on every screen: not checked"
