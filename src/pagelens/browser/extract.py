"""Live page → typed :class:`~pagelens.types.Observation`, through CDP.

The full accessibility tree of the main frame and every iframe is read with
``Accessibility.getFullAXTree`` (cross-origin iframes through their own CDP session),
merged in document order under their ``<iframe>`` nodes, and joined with one
``DOMSnapshot.captureSnapshot`` per renderer process for visibility and clickability.
Chromium's ``InlineTextBox`` children are dropped and ignored nodes are collapsed.
Raw CDP dictionaries do not leave this module.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pagelens.browser.concealed import STYLES, concealment, overlay_nodes
from pagelens.browser.ids import IdRegistry
from pagelens.browser.watchdog import Deadline
from pagelens.errors import PageTimeout
from pagelens.types import ElementId, Node, Observation, PropValue

if TYPE_CHECKING:
    from playwright.sync_api import CDPSession, Frame, Page

MAIN = "main"
_DROP_ROLES = frozenset({"InlineTextBox"})
_TEXT_ROLES = frozenset({"StaticText", "ListMarker"})
_RELATION_TYPES = frozenset({"idref", "idrefList", "node", "nodeList", "computedString"})


@dataclass(frozen=True, slots=True)
class _Box:
    x: float
    y: float
    w: float
    h: float
    clickable: bool
    hidden: bool  # visibility:hidden
    concealed: str = ""  # why a sighted user does not see it (pagelens.browser.concealed)
    overlay: bool = False  # inside an overlay the page laid over its content (concealed.overlay_nodes)


@dataclass(slots=True)
class _Tree:
    frame: str  # frame key ("main" or CDP frame id)
    process: str  # which CDP session / renderer the backend ids belong to
    nodes: dict[str, dict[str, Any]]
    root: str


class PageObserver:
    """Observes one page repeatedly, keeping element ids stable between observations."""

    def __init__(self, page: Page, *, timeout_s: float = 30.0) -> None:
        self.page = page
        self.timeout_s = timeout_s
        self.ids = IdRegistry()
        self._main: CDPSession | None = None
        self._oopif: dict[Frame, CDPSession] = {}
        self.last_sessions: dict[str, CDPSession] = {}  # process key -> session (for actions)

    def close(self, *, detach: bool = False) -> None:
        """Forget the CDP sessions. They end with their page's context; ``detach=True`` also
        detaches them now (only for a page that outlives the observer: ``detach`` waits for
        the renderer, so on a page whose script runs forever it never returns)."""
        sessions = [s for s in [self._main, *self._oopif.values()] if s is not None]
        self._main = None
        self._oopif.clear()
        self.last_sessions = {}
        if detach:
            for s in sessions:
                try:
                    s.detach()
                except Exception:  # noqa: BLE001, S110 - page may be gone
                    pass

    # -- sessions --------------------------------------------------------------------
    def _main_session(self) -> CDPSession:
        if self._main is None:
            self._main = self.page.context.new_cdp_session(self.page)
        return self._main

    def _oopif_sessions(self) -> Iterator[tuple[Frame, CDPSession]]:
        from playwright.sync_api import Error as PlaywrightError

        live = set(self.page.frames[1:])
        for frame in list(self._oopif):
            if frame not in live:
                self._oopif.pop(frame)
        for frame in self.page.frames[1:]:
            session = self._oopif.get(frame)
            if session is None:
                try:
                    session = self.page.context.new_cdp_session(frame)
                except PlaywrightError:
                    continue  # same-process frame: covered by the main session
                self._oopif[frame] = session
            yield frame, session

    # -- observation -----------------------------------------------------------------
    def _probe(self, deadline: Deadline) -> None:
        """Wait for the page's main thread (instead of hanging in CDP) within the observation's
        own deadline: a huge page still laying itself out after ``load`` is busy but progressing,
        so a fixed shorter window (it was 10 s) misfired on it; a script looping forever is
        still reported, once the deadline is spent, as the one :class:`PageTimeout`."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        ms = max(1.0, deadline.left() * 1000)
        try:
            self.page.wait_for_function("() => true", timeout=ms, polling=50)
        except PlaywrightTimeout:
            raise PageTimeout(
                f"{self.page.url}: the page's main thread did not respond within {ms / 1000:.1f} s, the "
                "observation's deadline (a script running forever, or a page too large to lay out in time?)"
            ) from None

    def _begin(self, deadline: Deadline | None) -> tuple[Deadline, dict[str, float], float]:
        """The start every observer shares: the deadline, a liveness probe of the main thread
        (timed as stage ``probe``), and the clock the whole observation is timed from."""
        deadline = deadline or Deadline(self.timeout_s)
        t0 = time.perf_counter()
        self._probe(deadline)
        return deadline, {"probe": time.perf_counter() - t0}, t0

    def observe(self, *, deadline: Deadline | None = None) -> Observation:
        """Read the page. ``deadline`` (default ``timeout_s`` from now) is checked between CDP
        calls; a call that blocks for good is ended from outside (:class:`~pagelens.browser.
        session.Episode` runs a watchdog)."""
        from playwright.sync_api import Error as PlaywrightError

        deadline, timings, t0 = self._begin(deadline)

        t = time.perf_counter()
        main = self._main_session()
        sessions: dict[str, CDPSession] = {MAIN: main}
        trees: dict[str, _Tree] = {}
        frame_errors: dict[str, str] = {}
        main_frame_id = self._read_frames(main, MAIN, trees, frame_errors, top=True, deadline=deadline)
        for frame, session in self._oopif_sessions():
            self._check(deadline, "reading iframes", trees)
            try:
                self._read_frames(
                    session, f"oopif:{id(frame)}", trees, frame_errors, top=False, sessions=sessions, deadline=deadline
                )
            except PlaywrightError as exc:
                frame_errors[frame.url or "iframe"] = _first_line(exc)
        timings["axtree"] = time.perf_counter() - t

        t = time.perf_counter()
        boxes: dict[str, dict[int, _Box]] = {}
        scroll = (0.0, 0.0)
        for process, session in sessions.items():
            self._check(deadline, "reading layout", trees)
            try:
                snap = session.send("DOMSnapshot.captureSnapshot", {"computedStyles": list(STYLES), "includePaintOrder": True})
            except PlaywrightError as exc:
                frame_errors[f"snapshot:{process}"] = _first_line(exc)
                continue
            vp_size = self.page.viewport_size or {"width": 1280, "height": 720}
            boxes[process], doc_scroll = _parse_snapshot(
                snap, (float(vp_size["width"]), float(vp_size["height"])) if process == MAIN else None)
            if process == MAIN:
                scroll = doc_scroll
        timings["snapshot"] = time.perf_counter() - t

        t = time.perf_counter()
        children_of_iframe = self._link_iframes(trees, sessions, frame_errors)
        vp = self.page.viewport_size or {"width": 1280, "height": 720}
        viewport = (scroll[0], scroll[1], float(vp["width"]), float(vp["height"]))
        nodes = _build(trees, main_frame_id, children_of_iframe, boxes, viewport, self.ids)
        timings["build"] = time.perf_counter() - t
        timings["extract"] = time.perf_counter() - t0
        self.last_sessions = sessions

        focused = None
        for n in nodes:
            if n.eid is not None and n.prop("focused") is True:
                focused = n.eid
        title = nodes[0].name if nodes else ""
        return Observation(
            url=self.page.url,
            title=title,
            nodes=tuple(nodes),
            focused=focused,
            frames=tuple(trees),
            frame_errors=frame_errors,
            timings=timings,
        )

    def _check(self, deadline: Deadline, stage: str, trees: dict[str, _Tree]) -> None:
        if deadline.expired():
            raise PageTimeout(
                f"{self.page.url}: observation exceeded its {deadline.seconds:g} s deadline while {stage} "
                f"({len(trees)} frame tree(s) read, {sum(len(t.nodes) for t in trees.values())} nodes)"
            )

    def _read_frames(
        self,
        session: CDPSession,
        process: str,
        trees: dict[str, _Tree],
        errors: dict[str, str],
        *,
        top: bool,
        sessions: dict[str, CDPSession] | None = None,
        deadline: Deadline | None = None,
    ) -> str:
        """Read the AX tree of every frame this session renders; return its top frame id."""
        from playwright.sync_api import Error as PlaywrightError

        try:
            frame_tree = session.send("Page.getFrameTree")["frameTree"]
        except PlaywrightError as exc:
            # Chromium cannot serialise a frame tree nested deeper than its CBOR stack limit
            # (~200 iframes inside each other): read this session's top document alone
            raw = session.send("Accessibility.getFullAXTree", {"depth": 10_000})["nodes"] if top else []
            if not raw:
                raise
            fid = str(raw[0].get("frameId") or process)
            errors[f"frames:{process}"] = (
                f"iframes nested too deeply for Chromium's DevTools protocol ({_first_line(exc)}); "
                "only the top document was read"
            )
            if sessions is not None:
                sessions[process] = session
            trees[fid] = _Tree(frame=MAIN, process=process, nodes={n["nodeId"]: n for n in raw}, root=raw[0]["nodeId"])
            return fid
        top_id: str = frame_tree["frame"]["id"]
        if sessions is not None:
            sessions[process] = session
        stack = [frame_tree]
        while stack:
            ft = stack.pop()
            stack.extend(ft.get("childFrames", ()))
            fid = ft["frame"]["id"]
            if deadline is not None:
                self._check(deadline, "reading frames", trees)
            if str(ft["frame"].get("url", "")).startswith("chrome-error://"):
                errors[fid] = "frame failed to load (blocked or unreachable)"
                continue  # Chromium's own error page is not page content
            try:
                raw = session.send("Accessibility.getFullAXTree", {"frameId": fid})["nodes"]
            except PlaywrightError as exc:
                errors[fid] = _first_line(exc)
                continue
            if not raw:
                continue
            key = MAIN if (top and fid == top_id) else fid
            trees[fid] = _Tree(frame=key, process=process, nodes={n["nodeId"]: n for n in raw}, root=raw[0]["nodeId"])
        return top_id

    def _link_iframes(
        self, trees: dict[str, _Tree], sessions: dict[str, CDPSession], errors: dict[str, str]
    ) -> dict[tuple[str, str], str]:
        """(frame id, iframe AX node id) -> child frame id, via DOM.describeNode."""
        from playwright.sync_api import Error as PlaywrightError

        links: dict[tuple[str, str], str] = {}
        for fid, tree in trees.items():
            session = sessions[tree.process]
            for node_id, raw in tree.nodes.items():
                if raw.get("role", {}).get("value") != "Iframe" or "backendDOMNodeId" not in raw:
                    continue
                try:
                    desc = session.send("DOM.describeNode", {"backendNodeId": raw["backendDOMNodeId"]})["node"]
                except PlaywrightError as exc:
                    errors[f"iframe:{fid}:{node_id}"] = _first_line(exc)
                    continue
                child = desc.get("frameId")
                if child and child in trees:
                    links[(fid, node_id)] = child
                elif child:
                    errors.setdefault(child, "iframe content not readable")
        return links


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _parse_snapshot(snap: dict[str, Any], viewport_size: tuple[float, float] | None = None
                    ) -> tuple[dict[int, _Box], tuple[float, float]]:
    """Boxes by backend id, and the top document's scroll. ``viewport_size``: the top document's viewport
    (its overlays are marked, :func:`~pagelens.browser.concealed.overlay_nodes`); None: no overlays."""
    strings: list[str] = snap["strings"]
    out: dict[int, _Box] = {}
    scroll = (0.0, 0.0)
    for i, doc in enumerate(snap["documents"]):
        if i == 0:
            scroll = (float(doc.get("scrollOffsetX", 0)), float(doc.get("scrollOffsetY", 0)))
        nodes = doc["nodes"]
        backend = nodes["backendNodeId"]
        clickable = set(nodes.get("isClickable", {}).get("index", ()))
        layout = doc["layout"]
        hidden_idx = -1
        try:
            hidden_idx = strings.index("hidden")
        except ValueError:
            pass
        try:
            concealed = concealment(doc, strings)
        except (KeyError, IndexError, TypeError, ValueError):  # provenance is best effort: never lose the tree
            concealed = {}
        overlay: set[int] = set()
        if i == 0 and viewport_size is not None:
            try:
                overlay = overlay_nodes(doc, strings, (*scroll, *viewport_size))
            except (KeyError, IndexError, TypeError, ValueError):  # best effort, as above
                overlay = set()
        for node_index, bounds, styles in zip(layout["nodeIndex"], layout["bounds"], layout["styles"]):
            x, y, w, h = (float(v) for v in bounds[:4])
            b = backend[node_index]
            out[b] = _Box(x, y, w, h, node_index in clickable, bool(styles) and styles[0] == hidden_idx,
                          concealed.get(b, ""), b in overlay)
        # clickable nodes without a layout object (rare) still count as clickable
        for node_index in clickable:
            b = backend[node_index]
            if b not in out:
                out[b] = _Box(0, 0, 0, 0, True, False)
    return out, scroll


def _props(raw: dict[str, Any]) -> tuple[tuple[str, PropValue], ...]:
    out: list[tuple[str, PropValue]] = []
    for p in raw.get("properties", ()):
        v = p.get("value") or {}
        if "value" not in v or v.get("type") in _RELATION_TYPES:
            continue
        val = v["value"]
        if isinstance(val, (bool, int, float, str)):
            out.append((p["name"], val))
    return tuple(out)


def _visible(box: _Box | None, viewport: tuple[float, float, float, float], in_main: bool) -> tuple[bool, bool]:
    if box is None:
        return False, False
    rendered = box.w > 0 and box.h > 0 and not box.hidden
    if not rendered:
        return False, False
    if not in_main:
        return True, True  # iframe content: rendered; viewport test skipped (frame offsets)
    vx, vy, vw, vh = viewport
    ix = max(0.0, min(box.x + box.w, vx + vw) - max(box.x, vx))
    iy = max(0.0, min(box.y + box.h, vy + vh) - max(box.y, vy))
    return True, ix * iy >= 0.5 * box.w * box.h


def _build(
    trees: dict[str, _Tree],
    main_frame_id: str,
    iframe_links: dict[tuple[str, str], str],
    boxes: dict[str, dict[int, _Box]],
    viewport: tuple[float, float, float, float],
    ids: IdRegistry,
) -> list[Node]:
    """Depth-first merge of all frame trees into document-ordered nodes."""
    nodes: list[Node] = []
    if main_frame_id not in trees:
        return nodes
    # stack entries: (frame id, ax node id, parent index, depth)
    stack: list[tuple[str, str, int | None, int]] = [(main_frame_id, trees[main_frame_id].root, None, 0)]
    seen: set[tuple[str, str]] = set()
    while stack:
        fid, node_id, parent, depth = stack.pop()
        if (fid, node_id) in seen:
            continue
        seen.add((fid, node_id))
        tree = trees[fid]
        raw = tree.nodes.get(node_id)
        if raw is None:
            continue
        role = raw.get("role", {}).get("value", "")
        if role in _DROP_ROLES:
            continue
        child_ids = [c for c in raw.get("childIds", ()) if c != node_id]
        children: list[tuple[str, str]] = [(fid, c) for c in child_ids]
        linked = iframe_links.get((fid, node_id))
        if linked is not None:
            children.append((linked, trees[linked].root))
        if raw.get("ignored"):
            # collapse: children take this node's place
            for cf, cid in reversed(children):
                stack.append((cf, cid, parent, depth))
            continue
        backend = raw.get("backendDOMNodeId")
        box = boxes.get(tree.process, {}).get(backend) if backend is not None else None
        rendered, visible = _visible(box, viewport, tree.frame == MAIN)
        is_root = role == "RootWebArea"
        eid: ElementId | None = None
        if backend is not None and role not in _TEXT_ROLES and not is_root:
            eid = ids.id_for(tree.process, backend)
        value = raw.get("value", {}).get("value") if "value" in raw else None
        index = len(nodes)
        nodes.append(
            Node(
                index=index,
                parent=parent,
                depth=depth,
                eid=eid,
                role=role,
                name=str(raw.get("name", {}).get("value", "") or ""),
                value=None if value is None else str(value),
                description=str(raw.get("description", {}).get("value", "") or ""),
                properties=_props(raw),
                frame=tree.frame,
                backend_id=backend,
                visible=visible,
                rendered=rendered if box is not None else (role in _TEXT_ROLES or is_root),
                clickable=bool(box and box.clickable),
                ignored=False,
                concealed=box.concealed if box is not None else "",
                overlay=box is not None and box.overlay,
            )
        )
        for cf, cid in reversed(children):
            stack.append((cf, cid, index, depth + 1))
    return nodes
