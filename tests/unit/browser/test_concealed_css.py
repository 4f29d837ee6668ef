"""Concealment by CSS and overlay marking on the CDP path, over hand-built ``DOMSnapshot`` documents (pure)."""

from __future__ import annotations

from typing import Any

import pytest

from pagelens.browser.concealed import STYLES, concealment, overlay_nodes, text_hidden

_BASE = {"visibility": "visible", "opacity": "1", "color": "rgb(0, 0, 0)", "background-color": "rgba(0, 0, 0, 0)",
         "overflow-x": "visible", "font-size": "16px", "clip-path": "none", "clip": "auto", "text-indent": "0px",
         "transform": "none", "position": "static", "z-index": "auto"}


def _get(**over: str) -> Any:
    st = [over.get(k.replace("-", "_"), _BASE[k]) for k in STYLES]
    return lambda i, k: st[k]


@pytest.mark.parametrize("over, box, want", [
    ({"font_size": "0px"}, (10, 10, 200, 0), "small"),
    ({"font_size": "1px"}, (10, 10, 200, 2), "small"),
    ({"clip_path": "inset(50%)"}, (10, 10, 200, 50), "tiny"),
    ({"clip_path": "circle(0px at 50% 50%)"}, (10, 10, 200, 50), "tiny"),
    ({"position": "absolute", "clip": "rect(0px, 0px, 0px, 0px)"}, (10, 10, 200, 50), "tiny"),
    ({"text_indent": "-9999px"}, (10, 10, 200, 20), "offscreen"),
    ({"transform": "matrix(0, 0, 0, 0, 0, 0)"}, (10, 10, 0, 0), "tiny"),
    ({}, (10, 10, 200, 20), ""),
    ({"text_indent": "32px"}, (10, 10, 200, 20), ""),
    ({"clip_path": "circle(40%)"}, (10, 10, 200, 50), ""),
    ({"clip": "rect(0px, 0px, 0px, 0px)"}, (10, 10, 200, 50), ""),  # clip applies to positioned boxes only
    ({"transform": "matrix(0, 1, -1, 0, 0, 0)"}, (10, 10, 200, 50), ""),  # a rotation, not a collapse
])
def test_text_hidden(over: dict[str, str], box: tuple[float, float, float, float], want: str) -> None:
    assert text_hidden(_get(**over), 0, box) == want


def _doc(nodes: list[tuple[int, str, dict[str, str], tuple[float, float, float, float], list[str]]]) -> tuple[dict[str, Any], list[str]]:
    """(parent, node name, styles, box, attributes) per node -> a one-document snapshot and its strings."""
    strings: list[str] = []

    def s(x: str) -> int:
        if x not in strings:
            strings.append(x)
        return strings.index(x)

    doc = {"nodes": {"backendNodeId": [100 + i for i in range(len(nodes))], "parentIndex": [p for p, *_ in nodes],
                     "nodeName": [s(n) for _, n, *_ in nodes], "attributes": [[s(a) for a in at] for *_, at in nodes]},
           "layout": {"nodeIndex": list(range(len(nodes))), "bounds": [list(b) for *_, b, _ in nodes],
                      "styles": [[s({**_BASE, **st}.get(k, "")) for k in STYLES] for _, _, st, _, _ in nodes]}}
    return doc, strings


def test_overlay_nodes_marks_a_fixed_box_and_its_subtree_but_not_a_fixed_navigation_bar() -> None:
    doc, strings = _doc([
        (-1, "BODY", {}, (0, 0, 1280, 3000), []),
        (0, "NAV", {"position": "fixed"}, (0, 0, 1280, 60), []),  # 1: the site's own fixed bar
        (1, "#text", {"position": "fixed"}, (10, 10, 50, 20), []),
        (0, "DIV", {"position": "fixed", "z-index": "50"}, (300, 200, 500, 300), []),  # 3: a pop-up
        (3, "P", {}, (310, 210, 480, 40), []),
        (4, "#text", {}, (310, 210, 300, 20), []),
        (0, "DIV", {"position": "absolute", "z-index": "5", "background-color": "rgb(255, 255, 255)"},
         (100, 400, 400, 200), []),  # 6: an opaque high-z box
        (0, "DIV", {"position": "absolute"}, (100, 700, 400, 200), []),  # 7: a transparent positioned box
        (0, "DIV", {"position": "fixed"}, (0, 0, 300, 100), ["role", "navigation"]),  # 8: a fixed menu by role
        (0, "DIV", {"position": "fixed"}, (0, 5000, 400, 200), []),  # 9: far out of view
        (3, "HEADER", {}, (310, 260, 480, 30), []),  # 10: the pop-up's own header is no landmark there
        (0, "DIV", {"position": "fixed"}, (0, 0, 1280, 720), []),  # 11: an app shell holding the main content
        (11, "MAIN", {}, (0, 0, 1280, 720), []),
    ])
    got = overlay_nodes(doc, strings, (0.0, 0.0, 1280.0, 720.0))
    assert got == {103, 104, 105, 106, 110}


def test_concealment_reads_font_size_zero_and_a_clip_path() -> None:
    doc, strings = _doc([
        (-1, "BODY", {}, (0, 0, 1280, 3000), []),
        (0, "P", {"font-size": "0px"}, (0, 10, 1280, 0), []),
        (1, "#text", {"font-size": "0px"}, (0, 10, 100, 0), []),
        (0, "DIV", {"font-size": "0px"}, (0, 50, 1280, 20), []),  # the inline-block layout trick
        (3, "SPAN", {"font-size": "14px"}, (0, 50, 100, 20), []),
        (4, "#text", {"font-size": "14px"}, (0, 50, 100, 20), []),
        (0, "DIV", {"clip-path": "inset(50%)", "position": "absolute"}, (0, 90, 200, 50), []),
        (6, "#text", {}, (0, 90, 150, 20), []),
    ])
    got = concealment(doc, strings)
    assert got.get(102) == "tiny" and got.get(107) == "tiny"
    assert 105 not in got  # a child that sets its own font is seen


def test_faint_text_is_judged_by_contrast_not_by_one_channel() -> None:
    from pagelens.browser.concealed import faint

    white = (255.0, 255.0, 255.0, 1.0)
    assert faint((246.0, 246.0, 246.0, 1.0), white)  # #f6f6f6 on white: nobody reads it
    assert faint((0.0, 0.0, 0.0, 0.04), white)  # black at 4% alpha
    assert not faint((204.0, 204.0, 204.0, 1.0), white)  # #ccc on white: faint, but read
    assert not faint((0.0, 0.0, 0.0, 1.0), white)
    assert faint((12.0, 10.0, 10.0, 1.0), (0.0, 0.0, 0.0, 1.0))  # near black on black
