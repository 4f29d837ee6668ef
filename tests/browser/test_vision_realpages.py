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
def test_a_real_carousel_and_a_clock_alone_do_not_fire_but_a_chart_repaint_does(browser_session) -> None:  # type: ignore[no-untyped-def]
    from pagelens.bench.vision_motion import measure_page
    from pagelens.browser.serve import StaticServer

    with StaticServer(CORPUS) as server:
        row = measure_page(browser_session, server, PAGE, frames=12, period_ms=1900)
    assert row["carousel_driven"], "the page's own carousel track was found and slides"
    assert row["masked_cells_end"] > 0, "the carousel and the clock are learnt as volatile"
    assert row["false_fires"] == 0, row
    assert row["pixel_caught"] == row["canvas_updates"] == 3, row
