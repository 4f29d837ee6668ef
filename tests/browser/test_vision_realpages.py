"""The pixel watch on a real saved page whose own carousel slides and beside a ticking clock:
idle windows never fire, a canvas chart repaint does (the DOM fingerprint cannot see it)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("imagehash")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

_ROOT = Path(__file__).resolve().parents[2]  # the checkout; the corpus sits beside it (or beside a worktree's parent)
CORPUS = next((d for d in (_ROOT.parent / "shared" / "corpus" / "realpages",
                           _ROOT.parent.parent / "shared" / "corpus" / "realpages") if d.is_dir()),
              _ROOT.parent / "shared" / "corpus" / "realpages")
PAGE = "001-amazon-kindle-book.html"  # its saved markup has Amazon's card carousel


@pytest.mark.skipif(not (CORPUS / PAGE).is_file(), reason="the real-page corpus is not on this machine")
@pytest.mark.parametrize(("period_ms", "seed"), [(1900, None), (4700, 7)])
def test_a_real_carousel_and_a_clock_alone_do_not_fire_but_a_chart_repaint_does(browser_session, period_ms, seed) -> None:  # type: ignore[no-untyped-def]
    """The loop's default watch, and the earlier one (hysteresis alone) on the same screenshots:
    a fast carousel, and a slow one whose first slide comes at a random phase (seed 7)."""
    from pagelens.bench.vision_motion import measure_watches
    from pagelens.browser.serve import StaticServer

    with StaticServer(CORPUS) as server:
        row, old = measure_watches(browser_session, server, PAGE, frames=12, period_ms=period_ms,
                                   kinds=("default", "hysteresis"), seed=seed)
    assert row["carousel_driven"], "the page's own carousel track was found and slides"
    assert row["masked_cells_end"] > 0, "the carousel and the clock are learnt as volatile"
    assert row["false_fires"] == 0, row
    assert row["false_fires"] <= old["false_fires"], (row, old)
    assert row["canvas_updates"] == 5 and row["pixel_caught"] >= 3, row
    assert row["pixel_caught"] == old["pixel_caught"], "telling slides from effects costs no chart repaint"
