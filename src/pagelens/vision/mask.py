"""The pixel watch the agent loop uses: learn low, fire high, and tell a slide from an effect.

The pixel watch (:class:`~pagelens.actions.pixels.PixelWatch`) fires when a cell's perceptual
hash moves by at least ``min_distance`` bits (6 of 64) across an action, outside the cells
it has seen change while nobody acted. It used to learn with that same bar, and that is
what let a ticking clock through on real pages: one tick of a 20 px clock moves its cell by
0 to 14 bits (measured on a corpus page, 16 ticks: 4, 6, 14, 14, 6, 8, 4, 2, 6, 6, 8, 8, 2,
6, 0, 2), so a learning interval whose tick moved 2-4 bits taught nothing, and the next
tick, 8 bits inside an action window, fired. Content that is not moving hashes identically
frame after frame (0 bits on all 49 corpus pages over 8 idle frames), so any idle movement
at all marks a cell volatile: :data:`LEARN_DISTANCE` bits of hash, or :data:`LEARN_PIXELS`
pixels of the frame itself (a tick can leave the hash as it was, never the pixels); firing
keeps its higher bar.

Learning needs the motion to happen while idle. A slow carousel whose first slide starts inside
an action window, before the watch ever saw it move, fired all the same (issue 14: 1 in 120
idle windows on real pages). So a region that fired is also asked whether it is a *translated
copy* of what was there (:mod:`pagelens.vision.motion`): a slide that the action did not touch
(its point, the page's last pointer event, a newly focused element) is ambient, is not counted
and is learnt; a drawn effect (a chart's highlight, a repainted canvas) is no such copy and
counts wherever it is (:func:`slid_cells`).

:func:`volatile_cells` is the learning rule; :class:`HysteresisWatch` is the pixel watch with
it (same screenshots, same interface), the slide test (``ambient``, on by default) and an opt-in
second look after a fire (:func:`settled`): cells still moving a moment later are a slide in
progress.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pagelens.actions.pixels import CellHashes, PixelConfig, PixelWatch, changed_cells
from pagelens.errors import PagelensError

if TYPE_CHECKING:
    from pagelens.actions.ops import Outcome
    from pagelens.browser.page import Tab

__all__ = ["LEARN_DISTANCE", "LEARN_PIXELS", "PART_EXPLAINED", "PIXEL_TOL", "HysteresisWatch", "bands", "near", "pixel_moved", "region_box", "regions", "settled", "slid_cells", "touched_cells", "volatile_cells"]

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


#: a region inside a row that slid is part of the slide when the row's shift explains this share of
#: its changed pixels (or it lies where new content enters: the leading edge)
PART_EXPLAINED = 0.3


def bands(groups: Sequence[Sequence[int]], cols: int) -> list[list[tuple[int, ...]]]:
    """Regions grouped into bands: regions whose grid rows overlap (transitively) share a band."""
    spans = [(min(i // cols for i in g), max(i // cols for i in g), tuple(g)) for g in groups]
    spans.sort()
    out: list[list[tuple[int, ...]]] = []
    top = -1
    for r0, r1, g in spans:
        if out and r0 <= top:
            out[-1].append(g)
            top = max(top, r1)
        else:
            out.append([g])
            top = r1
    return out


def _entering(box: tuple[int, int, int, int], band: tuple[int, int, int, int], shift: Any, cell: tuple[int, int]) -> bool:
    """Whether ``box`` lies where a slide by ``shift`` brings new content into ``band``: the strip
    of ``|offset|`` pixels (plus a cell) at the edge it comes in from."""
    lo, hi, size = (0, 2, cell[0]) if shift.axis == "x" else (1, 3, cell[1])
    reach = abs(shift.offset) + size
    if shift.offset > 0:  # content moves towards lower x (or y): new content comes in at the far edge
        return box[lo] >= band[hi] - reach
    return box[hi] <= band[lo] + reach


def slid_cells(before: CellHashes, after: CellHashes, fired: Sequence[int], cols: int, rows: int,
               touched: Callable[[], set[int]]) -> tuple[int, ...]:
    """The cells of ``fired`` that slid (:func:`pagelens.vision.motion.translation`) where the action
    did not touch. The fired regions are taken band by band (regions sharing grid rows: a carousel's
    row often fires as several pieces): a band that slid as a whole takes its pieces that its shift
    explains (:data:`PART_EXPLAINED`) or that lie where new content enters; otherwise each region
    is tried alone. ``touched()`` (called only once something slid) gives the grid cells of the
    action's point or target: a band within one cell of them is the action's, and so is one that
    spans the page (a scroll)."""
    from pagelens.vision.motion import explained_by, translation

    if before.gray is None or after.gray is None or before.size != after.size:
        return ()
    size = after.size
    cell = (size[0] // cols, size[1] // rows)
    out: list[int] = []
    near_cells: set[int] | None = None
    for band in bands(regions(fired, cols), cols):
        everything = [i for g in band for i in g]
        box = region_box(everything, cols, rows, size)
        if box[2] - box[0] >= 0.9 * size[0] and box[3] - box[1] >= 0.5 * size[1]:
            continue  # the page itself moved: a scroll is the action's
        shift = translation(before.gray, after.gray, box)
        if shift is not None:
            slid = [g for g in band if len(band) == 1
                    or explained_by(before.gray, after.gray, region_box(g, cols, rows, size), shift) >= PART_EXPLAINED
                    or _entering(region_box(g, cols, rows, size), box, shift, cell)]
        else:
            slid = [g for g in band if len(band) > 1
                    and translation(before.gray, after.gray, region_box(g, cols, rows, size)) is not None]
        if not slid:
            continue
        if near_cells is None:
            near_cells = touched()
        if any(near(g, cols, t) for g in band for t in near_cells):
            continue  # the action touched this band: what moved there is its effect
        out.extend(i for g in slid for i in g)
    return tuple(sorted(out))


#: before an action: a passive listener notes the last pointer event's point (an element click by
#: Playwright moves the mouse to the element and presses there), and the focused element is noted
POINTER_BEFORE_JS = """() => {
  const w = window;
  if (!w.__plPointer) {
    const p = w.__plPointer = {n: 0, x: 0, y: 0};
    const note = (e) => { p.n++; p.x = e.clientX; p.y = e.clientY; };
    for (const t of ['pointermove', 'pointerdown', 'click', 'wheel']) addEventListener(t, note, {capture: true, passive: true});
  }
  w.__plFocus = document.activeElement;
  return w.__plPointer.n;
}"""
#: after it (asked only when a region that fired slid): the viewport, the pointer's count and last
#: point, and the box of the element the action focused (when focus moved)
POINTER_AFTER_JS = """() => {
  const w = window, p = w.__plPointer, a = document.activeElement;
  let r = null;
  if (a && a !== w.__plFocus && a !== document.body && a !== document.documentElement) {
    const b = a.getBoundingClientRect();
    if (b.width > 0 && b.height > 0) r = [b.left, b.top, b.right, b.bottom];
  }
  return [innerWidth, innerHeight, p ? p.n : -1, p ? [p.x, p.y] : null, r];
}"""


def touched_cells(answer: Sequence[Any], pointer_before: int | None, point: tuple[float, float] | None,
                  size: tuple[int, int], cols: int, rows: int) -> set[int]:
    """Grid cells the action touched, from :data:`POINTER_AFTER_JS`'s ``answer``: ``point`` (a coordinate
    action's, CSS pixels), the last pointer event's point when pointer events came during the
    action, and the box of an element that took focus; on a frame of ``size``."""
    vw, vh, count, last, rect = answer
    sx, sy = size[0] / max(1, vw), size[1] / max(1, vh)
    boxes = []
    if point is not None:
        boxes.append((point[0], point[1], point[0], point[1]))
    if last is not None and pointer_before is not None and count != pointer_before:
        boxes.append((last[0], last[1], last[0], last[1]))
    if rect is not None:
        boxes.append(tuple(rect))
    out: set[int] = set()
    for x0, y0, x1, y1 in boxes:
        c0, c1 = (max(0, min(cols - 1, int(v * sx * cols // size[0]))) for v in (x0, x1))
        r0, r1 = (max(0, min(rows - 1, int(v * sy * rows // size[1]))) for v in (y0, y1))
        out.update(r * cols + c for r in range(r0, r1 + 1) for c in range(c0, c1 + 1))
    return out


class HysteresisWatch(PixelWatch):
    """:class:`~pagelens.actions.pixels.PixelWatch` that masks a cell on any idle movement and
    tells a slide from an effect.

    Learning: any idle movement (``learn_distance`` bits) masks a cell (module docstring).

    ``ambient`` (default on): a region of cells that fired and whose after-frame is the before-frame
    moved sideways or up/down (:func:`pagelens.vision.motion.translation`: a carousel or a ticker
    that slid inside the action window before the watch ever saw it move while idle) is ambient
    motion, not the action's effect: it does not count and its cells are learnt as volatile;
    unless the action touched it (the point of a coordinate action, the last pointer event's point
    when the action made some (an element click or hover: Playwright moves the mouse there), or
    the box of an element that took focus, in the region or one cell from it: a click on a
    carousel's arrow moves it), or it spans the page (a scroll). An action that touched nothing
    that way (a key press, ``read_text``) leaves a slide ambient. Drawn effects (a chart's highlight, a repainted
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
        self._pointer: int | None = None  # the page's pointer-event count before the action

    def _learn(self, now: CellHashes) -> None:
        if self._last is not None:
            self.mask.update(volatile_cells(self._last, now, self.learn_distance,
                                            cols=self.config.cols if self.pixel_learning else 0,
                                            rows=self.config.rows))

    def before(self, tab: Tab) -> None:
        super().before(tab)
        self._pointer = None
        if self.ambient:
            try:
                self._pointer = int(tab.evaluate(POINTER_BEFORE_JS))
            except PagelensError:  # the page cannot be read now: the action's point stays unknown
                self._pointer = None

    def _touched(self, page: Tab, outcome: Outcome, size: tuple[int, int]) -> set[int]:
        """Grid cells the action touched (:func:`touched_cells`)."""
        d = outcome.detail
        point = (float(d["css_x"]), float(d["css_y"])) if "css_x" in d and "css_y" in d else None
        try:
            answer = page.evaluate(POINTER_AFTER_JS)
        except PagelensError:
            answer = [size[0], size[1], -1, None, None]
        return touched_cells(answer, self._pointer, point, size, self.config.cols, self.config.rows)

    def _slides(self, page: Tab, outcome: Outcome, before: CellHashes, after: CellHashes,
                fired: Sequence[int]) -> tuple[int, ...]:
        return slid_cells(before, after, fired, self.config.cols, self.config.rows,
                          lambda: self._touched(page, outcome, after.size))

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
