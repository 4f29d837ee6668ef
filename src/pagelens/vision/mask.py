"""Learning what moves by itself with hysteresis: a low bar to mask, a high bar to fire.

The pixel watch (:class:`~pagelens.actions.pixels.PixelWatch`) fires when a cell's perceptual
hash moves by at least ``min_distance`` bits (6 of 64) across an action, outside the cells
it has seen change while nobody acted. It used to learn with that same bar, and that is
what let a ticking clock through on real pages: one tick of a 20 px clock moves its cell by
0 to 14 bits (measured on a corpus page, 16 ticks: 4, 6, 14, 14, 6, 8, 4, 2, 6, 6, 8, 8, 2,
6, 0, 2), so a learning interval whose tick moved 2-4 bits taught nothing, and the next
tick, 8 bits inside an action window, fired. Content that is not moving hashes identically
frame after frame (0 bits on all 49 corpus pages over 8 idle frames), so any idle movement
at all, :data:`LEARN_DISTANCE` bits, marks a cell volatile; firing keeps its higher bar.

:func:`volatile_cells` is the pure rule; :class:`HysteresisWatch` is the pixel watch with it
(same screenshots, same interface, only the learning bar differs), and optionally a second look
after a fire (:func:`settled`): cells still moving a moment later are a slide in progress.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pagelens.actions.pixels import CellHashes, PixelConfig, PixelWatch, changed_cells

if TYPE_CHECKING:
    from pagelens.actions.ops import Outcome
    from pagelens.browser.page import Tab

__all__ = ["LEARN_DISTANCE", "LEARN_PIXELS", "PIXEL_TOL", "HysteresisWatch", "near", "pixel_moved", "region_box", "regions", "settled", "volatile_cells"]

#: bits of phash movement, while idle, that make a cell volatile (firing needs ``min_distance``)
LEARN_DISTANCE = 1
#: or this many pixels of the cell changed by more than PIXEL_TOL gray levels (content that is not
#: moving renders pixel for pixel the same)
LEARN_PIXELS = 3
PIXEL_TOL = 16


def volatile_cells(a: CellHashes, b: CellHashes, learn_distance: int = LEARN_DISTANCE, *,
                   cols: int = 0, rows: int = 0) -> tuple[int, ...]:
    """Cells that moved at all between two idle screenshots: ``learn_distance`` bits of phash or
    more, or (when both carry their gray frames and ``cols``/``rows`` give the grid) at least
    :data:`LEARN_PIXELS` pixels that differ by more than :data:`PIXEL_TOL` levels: a clock's tick
    can leave its cell's phash as it was (0 bits), never its pixels."""
    if learn_distance < 1:
        raise ValueError("learn_distance must be at least 1 bit")
    if a.size != b.size or len(a.cells) != len(b.cells):
        return ()  # the viewport changed size between them: nothing to learn from the pair
    moved = {i for i, (x, y) in enumerate(zip(a.cells, b.cells, strict=True)) if (x - y) >= learn_distance}
    if cols and rows and cols * rows == len(a.cells) and a.gray is not None and b.gray is not None:
        moved.update(pixel_moved(a.gray, b.gray, cols, rows))
    return tuple(sorted(moved))


def pixel_moved(a: Any, b: Any, cols: int, rows: int) -> tuple[int, ...]:
    """Grid cells with at least :data:`LEARN_PIXELS` pixels differing by more than :data:`PIXEL_TOL`
    between two gray frames of one size (2-D arrays)."""
    import numpy as np

    if a.shape != b.shape:
        return ()
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16)) > PIXEL_TOL
    if not diff.any():
        return ()
    h, w = diff.shape
    out = []
    for r in range(rows):
        band = diff[r * h // rows:(r + 1) * h // rows]
        if not band.any():
            continue
        for c in range(cols):
            if int(np.count_nonzero(band[:, c * w // cols:(c + 1) * w // cols])) >= LEARN_PIXELS:
                out.append(r * cols + c)
    return tuple(out)


def settled(fired: Sequence[int], after: CellHashes, later: CellHashes,
            learn_distance: int = LEARN_DISTANCE) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(cells that stayed put, cells still moving) among ``fired``, from the screenshot right
    after an action and one taken a moment later."""
    moving = set(volatile_cells(after, later, learn_distance))
    return tuple(i for i in fired if i not in moving), tuple(i for i in fired if i in moving)


def regions(cells: Sequence[int], cols: int) -> list[tuple[int, ...]]:
    """``cells`` grouped into 8-connected regions of the grid (row-major indexes), each sorted."""
    left = set(cells)
    out: list[tuple[int, ...]] = []
    while left:
        stack, seen = [left.pop()], []
        while stack:
            i = stack.pop()
            seen.append(i)
            r, c = divmod(i, cols)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    j = (r + dr) * cols + (c + dc)
                    if 0 <= c + dc < cols and j in left:
                        left.discard(j)
                        stack.append(j)
        out.append(tuple(sorted(seen)))
    return sorted(out)


def region_box(cells: Sequence[int], cols: int, rows: int, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The pixel box (x0, y0, x1, y1) of grid ``cells`` on a frame of ``size`` (w, h)."""
    w, h = size
    rs = [i // cols for i in cells]
    cs = [i % cols for i in cells]
    return (min(cs) * w // cols, min(rs) * h // rows, (max(cs) + 1) * w // cols, (max(rs) + 1) * h // rows)


def near(cells: Sequence[int], cols: int, point_cell: int, reach: int = 1) -> bool:
    """Whether ``point_cell`` is one of ``cells`` or within ``reach`` cells of one."""
    pr, pc = divmod(point_cell, cols)
    return any(abs(i // cols - pr) <= reach and abs(i % cols - pc) <= reach for i in cells)


#: the action's point (coordinate actions) or the focused element's box (element actions), in CSS
#: pixels, and the viewport's size: asked only when a region that fired looks like a slide
_POINT_JS = """() => {
  const a = document.activeElement;
  let r = null;
  if (a && a !== document.body && a !== document.documentElement) {
    const b = a.getBoundingClientRect();
    if (b.width > 0 && b.height > 0) r = [b.left, b.top, b.right, b.bottom];
  }
  return [innerWidth, innerHeight, r];
}"""


class HysteresisWatch(PixelWatch):
    """:class:`~pagelens.actions.pixels.PixelWatch` that masks a cell on any idle movement and
    tells a slide from an effect.

    Learning: any idle movement (``learn_distance`` bits) masks a cell (module docstring).

    ``ambient`` (default on): a region of cells that fired and whose after-frame is the before-frame
    moved sideways or up/down (:func:`pagelens.vision.motion.translation`: a carousel or a ticker
    that slid inside the action window before the watch ever saw it move while idle) is ambient
    motion, not the action's effect: it does not count and its cells are learnt as volatile;
    unless the action touched it (the point of a coordinate action, or the focused element's box
    after an element action, in the region or one cell from it: a click on a carousel's arrow
    moves it), or it spans the page (a scroll). Drawn effects (a chart's highlight, a repainted
    canvas, a swapped image, an opened panel) are not a copy of what was there and still count.

    ``confirm_ms`` > 0 (opt-in): when cells fire, one more screenshot ``confirm_ms`` later; cells
    still moving then (a carousel's slide that happened to start inside the action window, before
    the watch ever saw it move while idle) are learnt as volatile and do not count. The price: an
    animation the action itself started (a drawer sliding open) is not counted by the pixels
    either (the DOM fingerprint usually sees those), and a fire costs ``confirm_ms`` + a screenshot.
    """

    def __init__(self, config: PixelConfig | None = None, *, learn_distance: int = LEARN_DISTANCE,
                 confirm_ms: int = 0, ambient: bool = True, pixel_learning: bool | None = None) -> None:
        super().__init__(config)
        if not 1 <= learn_distance <= self.config.min_distance:
            raise ValueError(f"learn_distance must be in 1..min_distance ({self.config.min_distance})")
        if confirm_ms < 0:
            raise ValueError("confirm_ms must be >= 0")
        self.learn_distance = learn_distance
        self.confirm_ms = confirm_ms
        self.ambient = ambient
        #: learn from pixels too (default: with ``ambient``; ``ambient=False`` is the earlier watch)
        self.pixel_learning = ambient if pixel_learning is None else pixel_learning
        self.suppressed = 0  # fires dropped because the cells were still moving
        self.slides = 0  # fires dropped because every region that fired was a slide

    def _learn(self, now: CellHashes) -> None:
        if self._last is not None:
            self.mask.update(volatile_cells(self._last, now, self.learn_distance,
                                            cols=self.config.cols if self.pixel_learning else 0,
                                            rows=self.config.rows))

    def _touched(self, page: Tab, outcome: Outcome, size: tuple[int, int]) -> set[int]:
        """Grid cells the action touched: its point, or the focused element's box."""
        cols, rows = self.config.cols, self.config.rows
        vw, vh, rect = page.evaluate(_POINT_JS)
        sx, sy = size[0] / max(1, vw), size[1] / max(1, vh)
        if "css_x" in outcome.detail and "css_y" in outcome.detail:
            x, y = float(outcome.detail["css_x"]), float(outcome.detail["css_y"])
            rect = [x, y, x, y]
        if rect is None:
            return set()
        c0, c1 = (max(0, min(cols - 1, int(v * sx * cols // size[0]))) for v in (rect[0], rect[2]))
        r0, r1 = (max(0, min(rows - 1, int(v * sy * rows // size[1]))) for v in (rect[1], rect[3]))
        return {r * cols + c for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)}

    def _slides(self, page: Tab, outcome: Outcome, before: CellHashes, after: CellHashes,
                fired: Sequence[int]) -> tuple[int, ...]:
        """The cells of ``fired`` in regions that are a slide the action did not touch."""
        from pagelens.vision.motion import translation

        if before.gray is None or after.gray is None or before.size != after.size:
            return ()
        cols, rows = self.config.cols, self.config.rows
        out: list[int] = []
        touched: set[int] | None = None
        for region in regions(fired, cols):
            x0, y0, x1, y1 = region_box(region, cols, rows, after.size)
            if x1 - x0 >= 0.9 * after.size[0] and y1 - y0 >= 0.5 * after.size[1]:
                continue  # the page itself moved: a scroll is the action's
            if translation(before.gray, after.gray, (x0, y0, x1, y1)) is None:
                continue
            if touched is None:
                touched = self._touched(page, outcome, after.size)
            if any(near(region, cols, t) for t in touched):
                continue
            out.extend(region)
        return tuple(out)

    def _recount(self, out: Outcome, before: CellHashes, after: CellHashes, **extra: int) -> Outcome:
        cells = changed_cells(before, after, self.config.min_distance, self.effective_mask())
        note = "the screen changed in "
        changes = tuple(c for c in out.changes if not c.startswith(note))
        if cells:
            total = self.config.cols * self.config.rows
            changes += (f"{note}{len(cells)} of {total} regions (drawn content: canvas, images, charts)",)
        detail = {**out.detail, "pixel_cells": len(cells), "pixel_masked": len(self.effective_mask()), **extra}
        return replace(out, changes=changes, detail=MappingProxyType(detail))

    def after(self, page: Tab, outcome: Outcome) -> Outcome:  # the tab PixelWatch screenshots
        before = self._before
        out = super().after(page, outcome)
        after = self._last
        if before is None or after is None or not int(out.detail.get("pixel_cells", 0)):
            return out
        if self.ambient:
            fired = changed_cells(before, after, self.config.min_distance, self.effective_mask())
            slid = self._slides(page, outcome, before, after, fired)
            if slid:
                self.mask.update(slid)
                out = self._recount(out, before, after, pixel_slid=len(slid))
                self.slides += int(not int(out.detail["pixel_cells"]))
                if not int(out.detail["pixel_cells"]):
                    return out
        if not self.confirm_ms:
            return out
        page.pause(self.confirm_ms)
        later = self._shot(page)
        self._last = later
        fired = changed_cells(before, after, self.config.min_distance, self.effective_mask())
        _stayed, moving = settled(fired, after, later, self.learn_distance)
        if not moving:
            return out
        self.mask.update(moving)
        out = self._recount(out, before, after, pixel_still_moving=len(moving))
        self.suppressed += int(not int(out.detail["pixel_cells"]))
        return out
