"""The pixel watch on a carousel that slides by itself inside an action window (before it was ever
seen moving while idle): the default watch calls it ambient; a click on the carousel's own arrow
and a board drawn far from the button clicked still count; the earlier watch fired on the slide."""

from __future__ import annotations

import pytest

pytest.importorskip("imagehash")
pytestmark = pytest.mark.browser


def _click(ex, obs, hybrid, name):  # type: ignore[no-untyped-def]
    from pagelens.actions.spec import Action

    el = next(e for e in hybrid.elements if e.name == name)
    return ex.execute(Action("click_at", {"x": el.centre[0], "y": el.centre[1]}), obs)


def _idle_slide(tab, watch, step: int):  # type: ignore[no-untyped-def]
    """An action window in which nothing acts but the carousel slides (the page's own timer would)."""
    from pagelens.actions.ops import Outcome

    watch.before(tab)
    tab.evaluate(f"window.slide({step})")
    tab.pause(700)
    return watch.after(tab, Outcome())


def test_a_slide_in_an_action_window_is_ambient_but_the_arrow_and_a_drawn_board_count(episode, pages_server) -> None:  # type: ignore[no-untyped-def]
    from pagelens.actions.executor import Budgets, Executor
    from pagelens.vision.hybrid import capture_hybrid
    from pagelens.vision.mask import HysteresisWatch

    episode.goto(pages_server.url("vision_carousel.html"))
    watch = HysteresisWatch()
    watch.arm(episode)
    assert not watch.mask, "nothing moves on the page while idle"
    obs = episode.observe()
    hybrid = capture_hybrid(episode, obs)
    ex = Executor(episode, Budgets(max_repeats=20))
    ex.screen = hybrid.screenshot.geometry
    ex.pixels = watch
    fb = _click(ex, obs, hybrid, "Draw the board")  # a canvas far from the button: pixels only
    assert fb.detail["pixel_cells"] > 0 and fb.status == "done", fb.message
    masked = len(watch.mask)
    out = _idle_slide(episode.tab, watch, 2)
    assert out.detail["pixel_cells"] == 0 and out.detail["pixel_slid"] > 0, dict(out.detail)
    assert watch.slides == 1 and len(watch.mask) > masked, "the slid cells are learnt as volatile"
    # the earlier default (hysteresis alone) fires on the same kind of window
    old = HysteresisWatch(ambient=False)
    old.arm(episode)
    out = _idle_slide(episode.tab, old, -2)
    assert out.detail["pixel_cells"] > 0, dict(out.detail)
    # a fresh watch: the action itself slides the carousel (a click on its arrow) and that counts
    fresh = HysteresisWatch()
    fresh.arm(episode)
    ex.pixels = fresh
    fb = _click(ex, obs, hybrid, "Next")
    assert fb.detail["pixel_cells"] > 0 and "pixel_slid" not in fb.detail, fb.message
    assert fresh.slides == 0
