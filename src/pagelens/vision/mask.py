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
from typing import TYPE_CHECKING

from pagelens.actions.pixels import CellHashes, PixelConfig, PixelWatch, changed_cells

if TYPE_CHECKING:
    from pagelens.actions.ops import Outcome
    from pagelens.browser.page import Tab

__all__ = ["LEARN_DISTANCE", "HysteresisWatch", "settled", "volatile_cells"]

#: bits of phash movement, while idle, that make a cell volatile (firing needs ``min_distance``)
LEARN_DISTANCE = 1


def volatile_cells(a: CellHashes, b: CellHashes, learn_distance: int = LEARN_DISTANCE) -> tuple[int, ...]:
    """Cells that moved at all (``learn_distance`` bits or more) between two idle screenshots."""
    if learn_distance < 1:
        raise ValueError("learn_distance must be at least 1 bit")
    if a.size != b.size or len(a.cells) != len(b.cells):
        return ()  # the viewport changed size between them: nothing to learn from the pair
    return tuple(i for i, (x, y) in enumerate(zip(a.cells, b.cells, strict=True)) if (x - y) >= learn_distance)


def settled(fired: Sequence[int], after: CellHashes, later: CellHashes,
            learn_distance: int = LEARN_DISTANCE) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(cells that stayed put, cells still moving) among ``fired``, from the screenshot right
    after an action and one taken a moment later."""
    moving = set(volatile_cells(after, later, learn_distance))
    return tuple(i for i in fired if i not in moving), tuple(i for i in fired if i in moving)


class HysteresisWatch(PixelWatch):
    """:class:`~pagelens.actions.pixels.PixelWatch` that masks a cell on any idle movement.

    ``confirm_ms`` > 0 (opt-in): when cells fire, one more screenshot ``confirm_ms`` later; cells
    still moving then (a carousel's slide that happened to start inside the action window, before
    the watch ever saw it move while idle) are learnt as volatile and do not count. The price: an
    animation the action itself started (a drawer sliding open) is not counted by the pixels
    either (the DOM fingerprint usually sees those), and a fire costs ``confirm_ms`` + a screenshot.
    """

    def __init__(self, config: PixelConfig | None = None, *, learn_distance: int = LEARN_DISTANCE,
                 confirm_ms: int = 0) -> None:
        super().__init__(config)
        if not 1 <= learn_distance <= self.config.min_distance:
            raise ValueError(f"learn_distance must be in 1..min_distance ({self.config.min_distance})")
        if confirm_ms < 0:
            raise ValueError("confirm_ms must be >= 0")
        self.learn_distance = learn_distance
        self.confirm_ms = confirm_ms
        self.suppressed = 0  # fires dropped because the cells were still moving

    def _learn(self, now: CellHashes) -> None:
        if self._last is not None:
            self.mask.update(volatile_cells(self._last, now, self.learn_distance))

    def after(self, page: Tab, outcome: Outcome) -> Outcome:  # the tab PixelWatch screenshots
        before = self._before
        out = super().after(page, outcome)
        after = self._last
        if not self.confirm_ms or before is None or after is None or not int(out.detail.get("pixel_cells", 0)):
            return out
        page.pause(self.confirm_ms)
        later = self._shot(page)
        self._last = later
        fired = changed_cells(before, after, self.config.min_distance, self.effective_mask())
        _stayed, moving = settled(fired, after, later, self.learn_distance)
        if not moving:
            return out
        self.mask.update(moving)
        cells = changed_cells(before, after, self.config.min_distance, self.effective_mask())
        self.suppressed += int(not cells)
        note = "the screen changed in "
        changes = tuple(c for c in out.changes if not c.startswith(note))
        if cells:
            total = self.config.cols * self.config.rows
            changes += (f"{note}{len(cells)} of {total} regions (drawn content: canvas, images, charts)",)
        detail = {**out.detail, "pixel_cells": len(cells), "pixel_masked": len(self.effective_mask()),
                  "pixel_still_moving": len(moving)}
        return replace(out, changes=changes, detail=MappingProxyType(detail))
