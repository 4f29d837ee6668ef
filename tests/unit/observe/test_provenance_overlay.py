"""Provenance of overlays without a dialog role: the browser shell marks their nodes (``Node.overlay``), and every
line rendered from them is ``overlay`` (pure: no browser)."""

from __future__ import annotations

from pagelens.observe.provenance import regions
from pagelens.observe.render import render
from pagelens.types import Node, Observation


def _obs(overlay: bool) -> Observation:
    def node(i: int, parent: int | None, role: str, name: str = "", *, ov: bool = False, eid: str | None = None) -> Node:
        return Node(index=i, parent=parent, depth=0 if parent is None else 1, eid=eid, role=role,  # type: ignore[arg-type]
                    name=name, rendered=True, overlay=ov)
    return Observation(url="http://127.0.0.1/", title="t", nodes=(
        node(0, None, "RootWebArea", "Shop"),
        node(1, 0, "navigation", eid="1"),
        node(2, 1, "link", "Home", eid="2"),
        node(3, 0, "paragraph", eid="3"),
        node(4, 3, "StaticText", "Price: 10 EUR"),
        node(5, 0, "generic", ov=overlay),  # the overlay's root: unnamed, so it renders no line
        node(6, 5, "paragraph", eid="6", ov=overlay),
        node(7, 6, "StaticText", "Your session timed out", ov=overlay),
        node(8, 5, "button", "Close", eid="8", ov=overlay),
    ))


def test_lines_inside_a_marked_overlay_are_overlay_even_when_its_root_renders_no_line() -> None:
    obs = _obs(True)
    lines = render(obs).lines
    got = {ln.name or ln.role: r for ln, r in zip(lines, regions(obs, lines))}
    assert got["Your session timed out"] == "overlay"
    assert got["Close"] == "overlay"
    assert got["paragraph"] in ("main", "overlay")
    assert got["Price: 10 EUR"] == "main" and got["Home"] == "chrome"


def test_without_the_mark_the_same_box_is_main_content() -> None:
    obs = _obs(False)
    lines = render(obs).lines
    got = {ln.name: r for ln, r in zip(lines, regions(obs, lines)) if ln.name}
    assert got["Your session timed out"] == "main"
