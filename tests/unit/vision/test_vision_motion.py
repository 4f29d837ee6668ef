"""Telling a slide from an effect on synthetic frames: a carousel row moved (whole pixels, mid-way,
through the watch's downscale) is a translation; a tooltip, a recoloured card, an opened panel
or a clock's tick is not; the watch drops slid regions only when the action did not touch them."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

pytest.importorskip("imagehash")
from PIL import Image, ImageDraw, ImageFont

from pagelens.actions.pixels import cell_hashes, changed_cells
from pagelens.vision.mask import near, pixel_moved, region_box, regions, slid_cells, volatile_cells
from pagelens.vision.motion import translation

W, H = 1280, 720  # the viewport (CSS pixels); the watch hashes a 960x540 copy
BAND = (240, 460)  # the carousel row's top and bottom


def _strip(seed: int, width: int = 3 * W) -> Image.Image:
    """A long row of cards (box, picture, two text lines) of varied widths, as a carousel track."""
    rnd = random.Random(seed)
    im = Image.new("L", (width, BAND[1] - BAND[0]), 255)
    d = ImageDraw.Draw(im)
    font = ImageFont.load_default()
    x = 10
    while x < width:
        w = rnd.randint(140, 230)
        d.rectangle((x, 10, x + w - 24, 150), fill=rnd.randint(150, 235), outline=40)
        d.ellipse((x + 12, 25, x + rnd.randint(60, w - 40), 135), fill=rnd.randint(0, 120))
        d.text((x, 160), f"Card {rnd.randint(100, 999)} - {rnd.choice(['red', 'blue', 'big', 'new'])}", fill=0, font=font)
        d.text((x, 180), f"$ {rnd.randint(1, 99)}.{rnd.randint(10, 99)}", fill=60, font=font)
        x += w
    return im


@functools.cache
def _page(offset: float, seed: int = 3) -> np.ndarray:
    """The page with its track moved ``offset`` CSS pixels to the left, as the watch sees it
    (rendered at 2x for sub-pixel offsets, then downscaled to 960x540 with LANCZOS)."""
    k = 2
    page = Image.new("L", (W * k, H * k), 250)
    d = ImageDraw.Draw(page)
    d.rectangle((0, 0, W * k, 60 * k), fill=30)  # a header
    font = ImageFont.load_default()
    small = Image.new("L", (W, 100), 250)
    ImageDraw.Draw(small).text((20, 20), "Static text under the carousel that never moves", fill=0, font=font)
    page.paste(small.resize((W * k, 100 * k)), (0, 520 * k))
    strip = _strip(seed)
    big = strip.resize((strip.width * k, strip.height * k), Image.Resampling.BILINEAR)
    shift = round(offset * k)
    page.paste(big.crop((shift, 0, shift + W * k, big.height)), (0, BAND[0] * k))
    return np.asarray(page.resize((960, 540), Image.Resampling.LANCZOS))


def _band_box() -> tuple[int, int, int, int]:
    return (0, BAND[0] * 540 // H, 960, BAND[1] * 540 // H)


@pytest.mark.parametrize("offset", [160.0, 57.5, 3.5, 480.0])
def test_a_carousel_row_moved_is_a_translation(offset: float) -> None:
    before, after = _page(0.0), _page(offset)
    shift = translation(before, after, _band_box())
    assert shift is not None and shift.axis == "x", shift
    assert abs(shift.offset - offset * 0.75) <= 2, shift  # the watch's frames are 0.75 of the viewport
    assert shift.explained >= 0.5


def test_the_jump_back_to_the_first_slide_is_a_translation_too() -> None:
    assert translation(_page(480.0), _page(0.0), _band_box()) is not None


def test_a_vertical_ticker_is_a_translation() -> None:
    im = np.asarray(_strip(5, width=960).rotate(90, expand=True))  # a column of cards, 220 wide
    before = np.full((540, 960), 250, dtype=np.uint8)
    after = before.copy()
    before[:, 300:520] = im[:540]
    after[:, 300:520] = im[37:577]
    shift = translation(before, after, (300, 0, 520, 540))
    assert shift is not None and (shift.axis, shift.offset) == ("y", 37), shift


def _frame() -> np.ndarray:
    return _page(0.0).copy()


def test_drawn_effects_are_not_translations() -> None:
    base = _frame()
    # a tooltip: text drawn into a canvas where other text was
    tip = Image.fromarray(base.copy())
    d = ImageDraw.Draw(tip)
    font = ImageFont.load_default()
    d.rectangle((60, 400, 260, 440), fill=255)
    d.text((64, 404), "Q2: 85k  Q4: 110k", fill=0, font=font)
    d.text((64, 420), "Q1: 40k", fill=0, font=font)
    box = (60, 400, 260, 440)
    assert translation(base, np.asarray(tip), box) is None
    # a card recoloured to its neighbour's colours
    recolour = base.copy()
    y0, _x0, y1, _x1 = 190, 0, 300, 0
    recolour[y0:y1, 150:290] = base[y0:y1, 10:150]
    recolour[y0:y1, 150:290] = np.clip(recolour[y0:y1, 150:290].astype(int) + 60, 0, 255)
    assert translation(base, recolour, (120, 180, 300, 300)) is None
    # a panel opened over the page
    panel = base.copy()
    panel[60:500, 600:960] = 245
    panel[80:90, 620:900] = 20
    panel[110:118, 620:820] = 20
    assert translation(base, panel, (600, 60, 960, 500)) is None
    # a chart's bar repainted in another colour
    bars = base.copy()
    bars[330:400, 100:130] = 90
    assert translation(base, bars, (60, 320, 180, 420)) is None


def test_too_few_changed_pixels_are_not_called_a_move_and_bad_frames_raise() -> None:
    base = _frame()
    tick = base.copy()
    tick[10:20, 900:905] = 255 - tick[10:20, 900:905]  # a digit of a clock
    assert translation(base, tick, (900, 0, 960, 60)) is None
    with pytest.raises(ValueError, match="sizes"):
        translation(base, base[:100], (0, 0, 10, 10))
    with pytest.raises(ValueError, match="grayscale"):
        translation(np.zeros((4, 4, 3)), np.zeros((4, 4, 3)), (0, 0, 4, 4))
    assert translation(base, base, (0, 0, 960, 540)) is None, "nothing changed"


def test_regions_boxes_and_nearness_on_the_grid() -> None:
    assert regions([0, 1, 17, 40, 143], 16) == [(0, 1, 17), (40,), (143,)]
    assert regions([15, 16], 16) == [(15,), (16,)], "no wrap from a row's end to the next row's start"
    assert region_box((17, 18), 16, 9, (960, 540)) == (60, 60, 180, 120)
    assert near((40,), 16, 57) and not near((40,), 16, 58)


def _hashes(frame: np.ndarray):  # type: ignore[no-untyped-def]
    return cell_hashes(Image.fromarray(frame), 16, 9)


def test_the_watch_drops_a_slide_unless_the_action_touched_it() -> None:
    before, after = _hashes(_page(0.0)), _hashes(_page(160.0))
    fired = changed_cells(before, after, 6)
    band_rows = {i // 16 for i in fired}
    assert band_rows and band_rows <= {3, 4, 5, 6}, fired
    asked: list[int] = []

    def far() -> set[int]:
        asked.append(1)
        return {8 * 16 + 2}  # a click at the bottom-left, far from the row

    assert set(slid_cells(before, after, fired, 16, 9, far)) == set(fired)
    assert asked == [1], "the action's cells are asked for once, and only when a region slid"
    # a click on the carousel's arrow (the row's right end): the action moved it
    assert slid_cells(before, after, fired, 16, 9, lambda: {4 * 16 + 15}) == ()
    # a drawn effect far from the action: counted (not a slide), and nothing asked
    effect = _page(0.0).copy()
    effect[400:480, 60:240] = 0
    eh = _hashes(effect)
    assert slid_cells(before, eh, changed_cells(before, eh, 6), 16, 9, lambda: pytest.fail("not asked")) == ()


def test_idle_learning_sees_pixels_that_the_hash_does_not() -> None:
    a = _frame()
    b = a.copy()
    b[12:18, 930:934] = 255 - b[12:18, 930:934]  # a tiny tick in the top-right cell
    ha, hb = _hashes(a), _hashes(b)
    assert pixel_moved(a, b, 16, 9) == (15,)
    assert 15 in volatile_cells(ha, hb, cols=16, rows=9)
    assert volatile_cells(ha, _hashes(a.copy()), cols=16, rows=9) == (), "still content is pixel for pixel the same"


def test_a_row_that_fires_in_pieces_slides_as_one_band_and_an_effect_below_it_still_counts() -> None:
    from pagelens.vision.mask import bands

    assert bands([(0, 1), (5,), (40, 56), (130,)], 16) == [[(0, 1), (5,)], [(40, 56)], [(130,)]]
    frame = _page(160.0).copy()
    for k, h in enumerate((20, 45, 30, 55)):  # bars drawn in the bottom row, far from the carousel
        frame[535 - h:535, 610 + 28 * k:630 + 28 * k] = 40
    before, after = _hashes(_page(0.0)), _hashes(frame)
    fired = [i for i in changed_cells(before, after, 6) if i % 16 != 7]  # column 7 did not fire: two pieces
    band = [i for i in fired if i // 16 < 7]
    effect = [i for i in fired if i // 16 >= 7]
    assert effect and len(regions(band, 16)) >= 2
    assert slid_cells(before, after, fired, 16, 9, lambda: {2}) == tuple(sorted(band))
