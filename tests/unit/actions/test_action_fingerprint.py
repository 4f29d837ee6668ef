"""fingerprint.diff is pure: what counts as a change, and what does not."""

from __future__ import annotations

from dataclasses import replace

from pagelens.actions.fingerprint import Fingerprint, diff

BASE = Fingerprint("http://127.0.0.1/a", "A", 100, 2000, "abc", 0.0, 0.0, "", None, None, clock_ms=1.0)


def test_identical_pages_have_no_changes_and_the_clock_is_ignored() -> None:
    assert diff(BASE, replace(BASE, clock_ms=99.0)) == ()
    assert BASE == replace(BASE, clock_ms=5.0)


def test_navigation_reports_the_url_and_title_only() -> None:
    after = replace(BASE, url="http://127.0.0.1/b", title="B", node_count=7)
    assert diff(BASE, after) == ("URL changed: http://127.0.0.1/a → http://127.0.0.1/b", "title is now 'B'")


def test_content_scroll_and_focus() -> None:
    changes = diff(BASE, replace(BASE, node_count=103, text_length=1990, scroll_y=600.0, focus="input#q"))
    assert changes == (
        "page content changed (+3 elements, -10 characters of text)",
        "scrolled from y=0 to y=600",
        "focus moved to input#q",
    )


def test_focus_moving_into_an_iframe_alone_is_not_a_change() -> None:
    assert diff(BASE, replace(BASE, focus="iframe")) == ()
    assert diff(replace(BASE, focus="input#q"), replace(BASE, focus="iframe[name=\"x\"]")) == ()


def test_same_length_text_changes_count_only_for_hovers() -> None:
    after = replace(BASE, text_hash="def")
    assert diff(BASE, after) == ()
    assert diff(BASE, after, hover=True) == ("page text changed (same length)",)


def test_child_frame_changes_are_seen() -> None:
    fa = ("http://127.0.0.1/f", 10, 50, "h1", 0.0, 0.0, "")
    before = replace(BASE, frame="http://127.0.0.1/f", frame_fp=fa)
    after = replace(before, focus="iframe", frame_fp=(*fa[:2], 70, "h2", 0.0, 0.0, ""))
    assert diff(before, after) == ("frame http://127.0.0.1/f: content changed (+20 characters of text)",)
    gone = replace(before, frame=None, frame_fp=None)
    assert diff(before, gone) == ("the frame the action was in is gone",)


def test_form_state_changes_count_even_when_dom_and_text_do_not() -> None:
    ticked = replace(BASE, form_hash="f1", checked=1)
    assert diff(replace(BASE, form_hash="f0"), ticked) == ("form state changed: 1 checkboxes/radios checked (was 0)",)
    assert diff(replace(BASE, form_hash="f0", checked=1), replace(ticked, form_hash="f2")) == (
        "form state changed (a field's value or selection)",)
