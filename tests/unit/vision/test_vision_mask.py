"""Hysteresis in the pixel watch's learning: any idle movement masks a cell, firing needs 6 bits."""

from __future__ import annotations

import numpy as np
import pytest

imagehash = pytest.importorskip("imagehash")

from pagelens.actions.pixels import CellHashes, changed_cells  # noqa: E402
from pagelens.vision.mask import HysteresisWatch, volatile_cells  # noqa: E402


def _hashes(flips: dict[int, int], cells: int = 4) -> CellHashes:
    """Cells of 64-bit hashes; cell i has its first ``flips[i]`` bits set (0 elsewhere)."""
    out = []
    for i in range(cells):
        bits = np.zeros(64, dtype=bool)
        bits[: flips.get(i, 0)] = True
        out.append(imagehash.ImageHash(bits.reshape(8, 8)))
    return CellHashes((160, 90), tuple(out), "0" * 16)


def test_a_small_idle_movement_is_learnt_though_it_is_under_the_firing_bar() -> None:
    calm, tick = _hashes({}), _hashes({1: 3})  # a clock tick that moved its cell 3 bits
    assert changed_cells(calm, tick, 6) == (), "under the firing bar: the plain watch learns nothing from it"
    assert volatile_cells(calm, tick) == (1,)
    watch = HysteresisWatch()
    watch._last = calm
    watch._learn(tick)
    assert watch.mask == {1}
    # the next tick moves 8 bits inside an action window: masked, so no fire
    assert changed_cells(tick, _hashes({1: 11}), 6, watch.effective_mask()) == ()
    # a real change elsewhere still fires (cell 3 is two cells away: outside the dilation on a 16x9 grid)
    assert changed_cells(tick, _hashes({1: 11, 3: 9}), 6, watch.effective_mask()) == (3,)


def test_bad_learning_bars_and_resized_viewports() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        volatile_cells(_hashes({}), _hashes({}), 0)
    with pytest.raises(ValueError, match="learn_distance"):
        HysteresisWatch(learn_distance=7)
    small = CellHashes((80, 45), _hashes({}).cells, "0" * 16)
    assert volatile_cells(small, _hashes({0: 9})) == (), "a resize teaches nothing"


def test_cells_still_moving_a_moment_after_a_fire_are_a_slide_in_progress() -> None:
    from pagelens.vision.mask import settled

    after, later = _hashes({0: 9, 2: 9}), _hashes({0: 9, 2: 20})  # cell 2 goes on moving, cell 0 stays
    assert settled((0, 2), after, later) == ((0,), (2,))
    with pytest.raises(ValueError, match="confirm_ms"):
        HysteresisWatch(confirm_ms=-1)
