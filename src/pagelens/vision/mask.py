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
(same screenshots, same interface, only the learning bar differs).
"""

from __future__ import annotations

from pagelens.actions.pixels import CellHashes, PixelConfig, PixelWatch

__all__ = ["LEARN_DISTANCE", "HysteresisWatch", "volatile_cells"]

#: bits of phash movement, while idle, that make a cell volatile (firing needs ``min_distance``)
LEARN_DISTANCE = 1


def volatile_cells(a: CellHashes, b: CellHashes, learn_distance: int = LEARN_DISTANCE) -> tuple[int, ...]:
    """Cells that moved at all (``learn_distance`` bits or more) between two idle screenshots."""
    if learn_distance < 1:
        raise ValueError("learn_distance must be at least 1 bit")
    if a.size != b.size or len(a.cells) != len(b.cells):
        return ()  # the viewport changed size between them: nothing to learn from the pair
    return tuple(i for i, (x, y) in enumerate(zip(a.cells, b.cells, strict=True)) if (x - y) >= learn_distance)


class HysteresisWatch(PixelWatch):
    """:class:`~pagelens.actions.pixels.PixelWatch` that masks a cell on any idle movement."""

    def __init__(self, config: PixelConfig | None = None, *, learn_distance: int = LEARN_DISTANCE) -> None:
        super().__init__(config)
        if not 1 <= learn_distance <= self.config.min_distance:
            raise ValueError(f"learn_distance must be in 1..min_distance ({self.config.min_distance})")
        self.learn_distance = learn_distance

    def _learn(self, now: CellHashes) -> None:
        if self._last is not None:
            self.mask.update(volatile_cells(self._last, now, self.learn_distance))
