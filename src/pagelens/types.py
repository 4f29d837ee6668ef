"""Shared frozen values: what an observation is, once parsed from CDP.

Everything past the browser shell works on these values only; raw CDP dictionaries never
travel further than :mod:`pagelens.browser.extract`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, NewType

#: Short element id shown to the model as ``[12]``; stable across re-observations of the
#: same DOM element within one episode (see :mod:`pagelens.browser.ids`).
ElementId = NewType("ElementId", str)

#: A property value as CDP reports it after parsing (booleans, numbers, tokens, strings).
PropValue = bool | int | float | str

#: Where a rendered line's text comes from (see :mod:`pagelens.observe.provenance`): the site's
#: chrome (banner/navigation/footer landmarks), its main content, user-generated content (repeated
#: posts, comments, reviews with an author, a date or a rating; form values), an overlay the page
#: opened (dialogs), or text the accessibility tree exposes but a sighted user does not see.
Region = Literal["chrome", "main", "user", "overlay", "unseen"]
REGIONS: tuple[Region, ...] = ("chrome", "main", "user", "overlay", "unseen")


@dataclass(frozen=True, slots=True)
class Node:
    """One accessibility node, in document order (pre-order over all frames)."""

    index: int  # position in Observation.nodes
    parent: int | None  # index of the parent node, None for the root
    depth: int  # tree depth in the merged tree (frames nest under their iframe node)
    eid: ElementId | None  # None for text-only nodes (StaticText) and the document root of iframes
    role: str  # Chromium role: button, link, StaticText, RootWebArea ...
    name: str
    value: str | None = None
    description: str = ""
    properties: tuple[tuple[str, PropValue], ...] = ()
    frame: str = "main"  # frame key; "main" for the top document
    backend_id: int | None = None  # CDP backendDOMNodeId (per frame process)
    visible: bool = False  # at least half of its box lies in the viewport (BrowserGym's "visible")
    rendered: bool = True  # has a layout box of non-zero size and is not visibility:hidden
    clickable: bool = False  # Chromium's own hit-testable/clickable judgement
    ignored: bool = False  # present for structure only (ignored AX nodes keeping children)
    # -- provenance (pagelens.browser.concealed): why a sighted user cannot see this node's text
    concealed: str = ""  # "" (seen), "offscreen", "tiny", "transparent", "same-colour"
    #: The in-page walker's element reference ("<document token>:<number>", extraction="walker");
    #: such nodes have no ``backend_id`` and are resolved by :func:`pagelens.browser.walker.resolve_ref`.
    ref: str | None = None
    #: Inside an overlay the page laid over its content without a dialog role (a position:fixed or high-z
    #: box: pop-ups, cookie layers, chat boxes; see ``walker.js`` ``markOverlays``): provenance's ``overlay``.
    overlay: bool = False
    #: The number of the outermost out-of-flow box (``position`` fixed, sticky or absolute, at least 150 x 60 px)
    #: holding this node, 0 for none (the walker's ``FL`` ranges; the CDP extraction leaves it 0). A fact, not a
    #: verdict: :mod:`pagelens.observe.provenance` judges whether such a box is an overlay.
    floating: int = 0

    def prop(self, key: str, default: PropValue | None = None) -> PropValue | None:
        for k, v in self.properties:
            if k == key:
                return v
        return default


@dataclass(frozen=True, slots=True)
class Observation:
    """The page as the accessibility tree saw it at one moment."""

    url: str
    title: str
    nodes: tuple[Node, ...]
    focused: ElementId | None = None
    frames: tuple[str, ...] = ("main",)
    #: Frames whose tree could not be read (cross-origin without CDP access, detached ...):
    #: frame key -> reason. The observation is still complete for every other frame.
    frame_errors: Mapping[str, str] = field(default_factory=dict)
    timings: Mapping[str, float] = field(default_factory=dict)  # seconds, by stage

    def by_eid(self) -> dict[ElementId, Node]:
        return {n.eid: n for n in self.nodes if n.eid is not None}


@dataclass(frozen=True, slots=True)
class Line:
    """One numbered line of a rendered observation."""

    no: int  # 0-based position in the full rendering; never renumbered by focusing
    depth: int  # indentation depth (tabs)
    text: str  # the line without indentation, e.g. "[12] button 'Add to cart'"
    node: int  # index of the node it renders (Observation.nodes)
    role: str
    eid: ElementId | None = None
    parent: int | None = None  # line number of the nearest rendered ancestor
    name: str = ""  # the accessible name as shown (whitespace-normalised), for matching
    # -- typed fields prepared at render time (h-focus): the focus stage reads these, never
    # the rendered ``text``. Lines parsed from foreign text (textparse) fill them at that edge.
    value: str | None = None  # the control's value as shown
    states: tuple[str, ...] = ()  # shown state flags: "focused", "required", "invalid", "checked" ...
    url: str | None = None  # a link's or image's url property
    frame: str = "main"  # frame key of the node
    #: Visible text that labels a control without an accessible name (nearest label cell,
    #: preceding or following text, placeholder): inferred, shown as ``(label?: '…')``.
    label: str = ""
    # -- provenance (pagelens.observe.provenance): where the line's text comes from
    region: Region = "main"


@dataclass(frozen=True, slots=True)
class Rendering:
    """A rendered observation: numbered lines, the unit every retriever selects from."""

    lines: tuple[Line, ...]
    refined: bool = False
    #: Why the lines' provenance regions are only structural (the full judgement failed on this
    #: input), ``None`` when it did not fail. The injection defense then runs on weaker evidence and
    #: the focused view says so (:data:`pagelens.focus.apply.WEAK_PROVENANCE`).
    provenance_error: str | None = None

    def text(self) -> str:
        return indented_text(self.lines)

    def __len__(self) -> int:
        return len(self.lines)


_TABS = tuple("\t" * d for d in range(64))


def indented_text(lines: Sequence[Line]) -> str:
    """``"\\n".join("\\t" * ln.depth + ln.text for ln in lines)``, without making a string per line
    (one join over the pieces: 2-3x faster and a third less transient memory on big pages)."""
    parts: list[str] = []
    add = parts.extend
    tabs = _TABS
    for ln in lines:
        d = ln.depth
        add(("\n", tabs[d] if 0 <= d < 64 else "\t" * d, ln.text))
    return "".join(parts[1:])
