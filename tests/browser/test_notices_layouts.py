"""Notices of any layout are shown as controls, not prose (real Chromium, pages from 127.0.0.1).

``pages/layouts/`` holds one page per layout, written for this test (not copied from any labeled case): pop-ups
fixed, absolute or sticky, with and without a dialog role, with a backdrop or none, at the start, the end or deep
in the DOM, thin cookie bars and small toasts, inserted by script after load, inside a shadow root, inside an
iframe or as one, native ``<dialog>`` and ``popover`` in the top layer, live regions (polite, alert, status,
marquee, log), nested notices and a full-page login modal; and the page's own layouts that are no notice (a
carousel, a back-to-top link, sticky table cells, a drop-down menu). Each notice's text carries a ``zq…`` token:
the focused view must not show it, ``expand`` of the notice's placeholder must, and the notice's controls stay.
The agent loop test checks the other half: a confirmation dialog the agent opened keeps its text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pagelens.browser.serve import StaticServer
from pagelens.focus.recover import expand
from pagelens.focus.view import focus_view

pytestmark = pytest.mark.browser

PAGES = Path(__file__).parent / "pages" / "layouts"
GOAL = "How much does the walnut chair cost?"
#: page -> a control of the notice that must stay in the view
NOTICES = {
    "modal_backdrop_start": "Close", "dialog_role_end": "No thanks", "cookie_bar_thin": "Accept",
    "cookie_region": "Accept all", "toast_small": "Dismiss", "toast_status": None, "absolute_raised_deep": "Got it",
    "absolute_plain_deep": "Later", "sticky_top_bar": "Hide", "late_inserted": "Close", "shadow_fixed": "Close",
    "iframe_chat_fixed": "Start chat", "fixed_inside_iframe": "Close", "live_polite_inline": None,
    "alert_inline_top": None, "native_dialog_modal": "OK", "popover_top_layer": "Close", "full_page_login": "Log in",
    "nested_overlays": "Close", "transform_centered": "Continue", "marquee_log": None, "alertdialog_fixed": "Stay",
    "sticky_div_header": "Basket", "bad_input_notice": "Accept",
}
#: the page's own layout: nothing folded
LAYOUTS = ("neg_carousel", "neg_carousel_items", "neg_back_to_top", "neg_sticky_table", "neg_dropdown_menu")


@pytest.fixture(scope="module")
def server():  # type: ignore[no-untyped-def]
    with StaticServer(PAGES) as running:
        yield running


def _view(episode, server, name: str):  # type: ignore[no-untyped-def]
    episode.goto(server.url(f"{name}.html"))
    episode.page.wait_for_timeout(150)  # the late pop-up comes 30 ms after load
    return focus_view(episode.observe(), goal=GOAL)


@pytest.mark.parametrize("name", sorted(NOTICES))
def test_a_notice_the_agent_did_not_open_shows_its_controls_not_its_text(episode, server, name: str) -> None:  # type: ignore[no-untyped-def]
    view = _view(episode, server, name)
    assert view.focused is not None and view.focused.unprotected is None
    full, text = view.rendering.text(), view.text()
    tokens = set(re.findall(r"zq\w+", full))
    assert tokens or name == "sticky_div_header", full[-2000:]
    assert not [t for t in tokens if t in text], text
    assert "240 euros" in text  # the page's own content stays
    control = NOTICES[name]
    if control is not None:
        assert re.search(rf"\] (?:button|link) '{control}'", text), text
    back = "\n".join(expand(view.rendering, view.focused, ol.pid, max_tokens=200_000).text()
                     for ol in view.focused.lines if ol.folded and ol.pid)
    assert tokens <= set(re.findall(r"zq\w+", back)), back


@pytest.mark.parametrize("name", LAYOUTS)
def test_the_pages_own_layout_is_not_folded(episode, server, name: str) -> None:  # type: ignore[no-untyped-def]
    view = _view(episode, server, name)
    assert view.focused is not None and not view.focused.folded, view.text()


def test_a_box_in_the_pages_flow_is_no_overlay(episode, server) -> None:  # type: ignore[no-untyped-def]
    """A known limit: a cookie box in the document flow after the footer is not laid over the page; the text
    defense alone judges it."""
    view = _view(episode, server, "cookie_static_after_footer")
    assert view.focused is not None and not view.focused.folded


def test_bad_input_in_a_notice_gives_a_judged_view(episode, server) -> None:  # type: ignore[no-untyped-def]
    """A dialog with a 125 000-character aria-label, a control with another, right-to-left and mixed-script text
    with bidi and zero-width characters, a box nested 120 levels deep, a live region inside a pop-up inside the
    dialog: one judged view, the notice's text folded, its names cut, its controls there."""
    view = _view(episode, server, "bad_input_notice")
    assert view.focused is not None and view.focused.unprotected is None and view.focused.error is None
    text = view.text()
    tokens = set(re.findall(r"zq\w+", view.rendering.text()))
    assert {"zqrtlmix", "zqdeepnest", "zqnestedstatus"} <= tokens
    assert not [t for t in tokens if t in text], text
    assert re.search(r"\] button 'Accept'", text) and "240 euros" in text
    assert len(text) < 6000  # the huge names are cut to their first words
