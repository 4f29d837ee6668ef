"""The hybrid view: the screenshot plus a compact list of interactive elements with boxes.

Each entry keeps the element's observation id (the same ``[id]`` the focused tree shows, so
element actions and coordinate actions can be mixed) and its box in *screenshot* pixels::

    [12] button "Add to cart" box=310,220,96,32

Boxes come from CDP ``DOM.getContentQuads`` on the renderer session that owns the node (the
observer's sessions; :func:`pagelens.browser.dom.content_box`), in CSS pixels of the top viewport (same-process iframes included),
mapped through :class:`~pagelens.browser.screenshot.Geometry`. Only elements whose box meets
the viewport are listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pagelens.browser.dom import content_box

if TYPE_CHECKING:
    from pagelens.browser.dom import Sessions
    from pagelens.browser.screenshot import Geometry
    from pagelens.types import Node, Observation

__all__ = ["INTERACTIVE_ROLES", "ScreenElement", "element_boxes", "render_elements"]

INTERACTIVE_ROLES = frozenset({
    "button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox", "option", "menuitem",
    "menuitemcheckbox", "menuitemradio", "tab", "switch", "slider", "spinbutton", "treeitem", "date", "time",
    "datetime", "inputtime", "month", "week", "ListBoxOption", "PopUpButton", "image", "img", "canvas",
    "graphics-symbol", "graphics-object", "Canvas",
})
MAX_ELEMENTS = 200


@dataclass(frozen=True, slots=True)
class ScreenElement:
    eid: str
    role: str
    name: str
    x: int  # screenshot pixels, top-left
    y: int
    w: int
    h: int
    frame: str = "main"

    @property
    def centre(self) -> tuple[int, int]:
        return self.x + self.w // 2, self.y + self.h // 2

    def line(self) -> str:
        name = " ".join(self.name.split())
        name = name if len(name) <= 60 else name[:59] + "…"
        return f'[{self.eid}] {self.role} "{name}" box={self.x},{self.y},{self.w},{self.h}'


def _wanted(node: Node) -> bool:
    if node.eid is None or node.ignored or not node.rendered:
        return False
    if node.frame == "main" and not node.visible:
        return False
    return node.role in INTERACTIVE_ROLES or node.clickable


def _child_texts(observation: Observation) -> dict[int, str]:
    """Text under each node (its StaticText descendants), for elements without a name
    (a clickable ``<div>`` of a custom widget is named by nothing but its text)."""
    out: dict[int, list[str]] = {}
    nodes = observation.nodes
    for n in nodes:
        if n.role != "StaticText" or not n.name.strip():
            continue
        p, hops = n.parent, 0
        while p is not None and hops < 4:
            parts = out.setdefault(p, [])
            if sum(len(x) for x in parts) < 80:
                parts.append(n.name.strip())
            p, hops = nodes[p].parent, hops + 1
    return {k: " ".join(v) for k, v in out.items()}


def element_boxes(sessions: Sessions, observation: Observation, geometry: Geometry,
                  *, limit: int = MAX_ELEMENTS) -> tuple[ScreenElement, ...]:
    """Interactive elements of ``observation`` that meet the viewport, boxes in screenshot pixels.

    ``sessions`` are the observer's CDP sessions of that observation (``observer.last_sessions``).
    """
    out: list[ScreenElement] = []
    if not sessions:
        return ()
    texts = _child_texts(observation)
    for node in observation.nodes:
        if len(out) >= limit:
            break
        if not _wanted(node) or node.backend_id is None:
            continue
        box = content_box(sessions, node)
        if box is None:
            continue
        x, y, w, h = box
        if w < 1 or h < 1 or x + w <= 0 or y + h <= 0 or x >= geometry.css_width or y >= geometry.css_height:
            continue
        x0, y0 = geometry.to_screen(max(0.0, x), max(0.0, y))
        x1, y1 = geometry.to_screen(min(x + w, geometry.css_width), min(y + h, geometry.css_height))
        out.append(ScreenElement(str(node.eid), node.role, node.name or texts.get(node.index, ""), x0, y0, max(1, x1 - x0), max(1, y1 - y0),
                                 node.frame))
    return tuple(out)


def render_elements(elements: Sequence[ScreenElement], geometry: Geometry) -> str:
    """The element list as the model reads it (one line per element, boxes x,y,w,h)."""
    head = (f"Screenshot {geometry.width}x{geometry.height} px (x right, y down). Interactive elements "
            "[id] role \"name\" box=x,y,width,height in screenshot pixels:")
    if not elements:
        return head + "\n(none in view)"
    return head + "\n" + "\n".join(e.line() for e in elements)
