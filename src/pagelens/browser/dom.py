"""Elements of a page (:class:`~pagelens.browser.page.Tab`): by observation node, role or CSS selector.

The observation knows each element by its CDP ``backendDOMNodeId``, which is only meaningful
in the renderer process that produced it. :func:`resolve` resolves it through the CDP session
of that process (``DOM.resolveNode``), tags the element with a unique attribute
(``Runtime.callFunctionOn``) and returns a :class:`MarkedElement` for that attribute in the
frame that holds it, so every action still gets Playwright's actionability checks. An element
that no longer exists raises :class:`~pagelens.errors.ElementGone` — at resolution, or when an
action on it fails and the element is found missing.

:func:`content_box` reads an element's box (``DOM.getContentQuads``) for the hybrid view.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pagelens.browser.driving import Driver, Frame, bounded, bounded_supported
from pagelens.errors import ActionError, ElementGone, PagelensError, PageTimeout

if TYPE_CHECKING:
    from playwright.sync_api import CDPSession, Locator

    from pagelens.types import Node

    #: The observer's CDP sessions, one per renderer process ("main" and out-of-process frames).
    Sessions = dict[str, CDPSession]

__all__ = ["ATTR", "MARKED_FN", "Element", "MarkedElement", "content_box", "resolve", "resolve_and_run", "session_for"]

ATTR = "data-pagelens-target"
_counter = itertools.count(1)
_T = TypeVar("_T")

_MARK = """function(attr, nonce) {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el || !el.isConnected) return null;
  el.setAttribute(attr, nonce);
  return el.tagName.toLowerCase();
}"""
_UNMARK = """function(attr) {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (el) el.removeAttribute(attr);
}"""
#: ``__pagelensMarked(attr, nonce)``: the marked element of this document, open shadow roots
#: included (they are searched only when the light DOM does not hold it); null when it is gone.
MARKED_FN = """function __pagelensMarked(attr, nonce) {
  const sel = '[' + attr + '="' + nonce + '"]';
  const found = document.querySelector(sel);
  if (found) return found;
  const roots = [document];
  while (roots.length) {
    for (const e of roots.pop().querySelectorAll('*')) {
      if (!e.shadowRoot) continue;
      const inner = e.shadowRoot.querySelector(sel);
      if (inner) return inner;
      roots.push(e.shadowRoot);
    }
  }
  return null;
}"""
_GONE_KEY = "__pagelensGone"
#: Milliseconds a look for an element that an action could not use may take (a page that does not
#: answer in that time is not known to have lost it).
_LOOK_MS = 1000.0


class Element:
    """A live element, or the elements of one query (``count``/``nth``/``first`` choose).

    Every call is bounded by ``timeout_ms`` (default: the context's) and raises only
    :mod:`pagelens.errors` errors; an action that fails because the element left the page
    raises :class:`~pagelens.errors.ElementGone`.
    """

    def __init__(self, tab: Driver, locator: Locator, what: str) -> None:
        self._tab = tab
        self._loc = locator
        self.what = what  # how messages name it

    # -- queries -----------------------------------------------------------------------------
    def count(self) -> int:
        with self._tab.driving(f"count {self.what}"):
            return self._loc.count()

    def nth(self, index: int) -> Element:
        return Element(self._tab, self._loc.nth(index), f"{self.what} #{index}")

    @property
    def first(self) -> Element:
        return Element(self._tab, self._loc.first, self.what)

    def css(self, selector: str) -> Element:
        """Descendants matching ``selector``."""
        return Element(self._tab, self._loc.locator(selector), f"{selector} in {self.what}")

    def text(self, *, timeout_ms: float | None = None) -> str:
        """The element's ``textContent`` ("" when it has none)."""
        return self._act("read", "read", lambda: self._loc.text_content(timeout=timeout_ms) or "")

    def evaluate(self, js: str, arg: Any = None, *, timeout_ms: float | None = None) -> Any:
        """Run ``js`` (a function of the element, and ``arg``); its JSON result."""
        return self._act("inspect", "inspected", lambda: self._loc.evaluate(js, arg, timeout=timeout_ms))

    # -- actions -----------------------------------------------------------------------------
    def click(self, *, timeout_ms: float | None = None, checked: bool = False) -> None:
        """Click the element. ``checked``: the caller has just checked that it is visible, enabled and
        receives the pointer, and waits for any navigation the click starts itself: no actionability
        wait, no wait for a navigation (still scrolled into view, still bounded by ``timeout_ms``)."""
        self._act("click", "clicked", lambda: self._loc.click(timeout=timeout_ms, force=checked, no_wait_after=checked))

    def hover(self, *, timeout_ms: float | None = None, checked: bool = False) -> None:
        """Move the mouse over the element (``checked``: as for :meth:`click`)."""
        self._act("hover", "hovered", lambda: self._loc.hover(timeout=timeout_ms, force=checked))

    def check(self, *, timeout_ms: float | None = None) -> None:
        self._act("check", "checked", lambda: self._loc.check(timeout=timeout_ms))

    def fill(self, text: str, *, timeout_ms: float | None = None, checked: bool = False) -> None:
        """Replace the field's text (as a user edit: input and change fire). ``checked``: the caller
        has just checked that it is visible, enabled and editable: no actionability wait."""
        self._act("fill", "filled", lambda: self._loc.fill(text, timeout=timeout_ms, force=checked))

    def press(self, key: str, *, timeout_ms: float | None = None) -> None:
        self._act(f"press {key} on", "typed into", lambda: self._loc.press(key, timeout=timeout_ms))

    def select_option(self, option: str, *, by: Literal["value", "label", "either"] = "either",
                      timeout_ms: float | None = None, checked: bool = False) -> None:
        """Choose the ``<option>`` whose value (``by="value"``), label, or either is ``option``.
        ``checked``: the caller has just checked that it is visible and enabled: no actionability wait."""
        loc = self._loc
        if by == "value":
            def call() -> Any:
                return loc.select_option(value=option, timeout=timeout_ms, force=checked)
        elif by == "label":
            def call() -> Any:
                return loc.select_option(label=option, timeout=timeout_ms, force=checked)
        else:
            def call() -> Any:
                return loc.select_option(option, timeout=timeout_ms, force=checked)
        self._act("select an option of", "changed", call)

    def _act(self, verb: str, done: str, call: Callable[[], _T]) -> _T:
        try:
            with self._tab.driving(f"{verb} {self.what}"):
                return call()
        except ElementGone:
            raise
        except (PageTimeout, ActionError):
            if self._missing():
                raise ElementGone(f"was removed from the page before it could be {done}") from None
            raise

    def _missing(self) -> bool:
        """Whether the element has left the page (False when that cannot be known: the page does
        not answer within a second, e.g. its main thread is stuck)."""
        loc = self._loc
        try:
            with self._tab.driving(f"look for {self.what}"):
                if bounded_supported(loc):
                    return bounded(loc, lambda impl: impl.count(), _LOOK_MS, f"look for {self.what}") == 0
                return loc.count() == 0
        except PagelensError:
            return False


class MarkedElement(Element):
    """The element of an observation node, tagged in its renderer (:func:`resolve`)."""

    def __init__(self, tab: Driver, locator: Locator, node: Node, frame: Frame, tag: str, object_id: str,
                 session: CDPSession | None, nonce: str = "") -> None:
        super().__init__(tab, locator, f"[{node.eid}]")
        self.node = node
        self.frame = frame  # the frame that holds it
        self.tag = tag
        self._object_id = object_id
        self._session = session  # None: a walker node (extraction="walker"), no CDP object
        self._nonce = nonce
        self._unmarked = False  # the marker is gone (removed by a caller's page script, or with its document)

    @property
    def marker(self) -> tuple[str, str]:
        """(attribute, value) that tags the element in its document."""
        return ATTR, self._nonce

    def evaluate(self, js: str, arg: Any = None, *, timeout_ms: float | None = None) -> Any:
        """Run ``js`` (a function of the element, and ``arg``) in one round trip: the element is
        found by its marker in its frame (Playwright's locator would first wait for it with a
        selector query of its own, one round trip more, and poll). Raises
        :class:`~pagelens.errors.ElementGone` when the marker is no longer in the document;
        with ``timeout_ms``, :class:`~pagelens.errors.PageTimeout` when the page does not answer
        within it (its main thread stuck)."""
        script = ("([attr, nonce, arg]) => {" + MARKED_FN + " const el = __pagelensMarked(attr, nonce); "
                  f"if (!el) return {{{_GONE_KEY}: true}}; return ({js})(el, arg); }}")
        res = self.frame.evaluate(script, [ATTR, self._nonce, arg], timeout_ms=timeout_ms, what=f"inspect {self.what}")
        if isinstance(res, dict) and res.get(_GONE_KEY):
            raise ElementGone("was removed from the page before it could be inspected")
        return res

    def unmarked(self) -> None:
        """Say that the marker is already gone (a page script of the caller's removed it):
        :meth:`release` then only frees what is left on the browser's side."""
        self._unmarked = True

    def release(self, *, timeout_ms: float = 1000.0) -> None:
        """Remove the marker attribute and free the remote object (best effort; a page that does
        not answer within ``timeout_ms`` keeps the marker)."""
        from playwright.sync_api import Error as PlaywrightError

        if self._session is None:
            if not self._unmarked:
                from pagelens.browser.walker_refs import unmark

                unmark(self.frame._pw, ATTR, self._nonce, timeout_ms=timeout_ms)  # (same package)
            self._unmarked = True
            return
        try:
            if not self._unmarked:
                self._session.send("Runtime.callFunctionOn", {
                    "objectId": self._object_id, "functionDeclaration": _UNMARK, "arguments": [{"value": ATTR}],
                })
            self._session.send("Runtime.releaseObject", {"objectId": self._object_id})
        except PlaywrightError:
            pass


def _frame_ids(session: CDPSession) -> set[str]:
    tree = session.send("Page.getFrameTree")["frameTree"]
    out: set[str] = set()
    stack: list[dict[str, Any]] = [tree]
    while stack:
        ft = stack.pop()
        out.add(ft["frame"]["id"])
        stack.extend(ft.get("childFrames", ()))
    return out


def session_for(sessions: Sessions, node: Node) -> CDPSession:
    """The CDP session of the renderer process that owns ``node``'s backend id."""
    if not sessions:
        raise ActionError("the page has not been observed yet")
    if node.frame != "main":
        from playwright.sync_api import Error as PlaywrightError

        for key, session in sessions.items():
            if key == "main":
                continue
            try:
                if node.frame in _frame_ids(session):
                    return session
            except PlaywrightError:
                continue
    return sessions.get("main") or next(iter(sessions.values()))


def resolve(tab: Driver, sessions: Sessions, node: Node, *, timeout_ms: float | None = None) -> MarkedElement:
    """Tag ``node``'s element and return it; raise :class:`~pagelens.errors.ElementGone`
    (:class:`~pagelens.errors.PageTimeout` when a walker node's page does not answer within
    ``timeout_ms``)."""
    return resolve_and_run(tab, sessions, node, timeout_ms=timeout_ms)[0]


def resolve_and_run(tab: Driver, sessions: Sessions, node: Node, js: str = "", arg: Any = None, *,
                    timeout_ms: float | None = None) -> tuple[MarkedElement, Any]:
    """:func:`resolve`, and ``js(element, arg)``'s result when the element is in the main
    document (None otherwise): for a walker node in the same page call as the marking."""
    from playwright.sync_api import Error as PlaywrightError

    if node.ref is not None:
        return _resolve_walker(tab, node, timeout_ms, js, arg)
    if node.backend_id is None:
        raise ElementGone("has no DOM node")
    session = session_for(sessions, node)
    nonce = f"{next(_counter)}-{secrets.token_hex(4)}"
    found: MarkedElement | None = None
    with tab.driving(f"find [{node.eid}]"):
        try:
            obj = session.send("DOM.resolveNode", {"backendNodeId": node.backend_id})["object"]
            object_id = obj["objectId"]
            res = session.send("Runtime.callFunctionOn", {
                "objectId": object_id, "functionDeclaration": _MARK,
                "arguments": [{"value": ATTR}, {"value": nonce}], "returnByValue": True,
            })
        except (PlaywrightError, KeyError):
            raise ElementGone("no longer on the page") from None
        tag = res.get("result", {}).get("value")
        if not isinstance(tag, str):
            raise ElementGone("no longer on the page")
        selector = f'[{ATTR}="{nonce}"]'
        page = tab._pw  # (same package)
        frames = [page.main_frame] if node.frame == "main" else [*page.frames[1:], page.main_frame]
        for frame in frames:
            try:
                if frame.locator(selector).count() > 0:
                    found = MarkedElement(tab, frame.locator(selector).first, node, Frame(tab, frame), tag,
                                          object_id, session, nonce)
                    break
            except PlaywrightError:
                continue
        if found is None:
            try:
                session.send("Runtime.releaseObject", {"objectId": object_id})
            except PlaywrightError:
                pass
    if found is None:
        raise ElementGone("no longer on the page (its frame is gone or closed to scripts)")
    ran = found.evaluate(js, arg, timeout_ms=timeout_ms) if js and found.frame.is_main else None
    return found, ran


def _resolve_walker(tab: Driver, node: Node, timeout_ms: float | None, js: str = "",
                    arg: Any = None) -> tuple[MarkedElement, Any]:
    """A node of the in-page walker: marked through its document's walker state, no CDP (and
    ``js`` run on it in the same call, in the main document)."""
    from pagelens.browser.walker_refs import resolve_ref

    with tab.driving(f"find [{node.eid}]"):
        try:
            frame, tag, nonce, ran = resolve_ref(tab._pw, node, ATTR, timeout_ms=timeout_ms, run=js,
                                                 arg=arg)  # (same package)
        except LookupError as exc:
            raise ElementGone(str(exc)) from None
        element = MarkedElement(tab, frame.locator(f'[{ATTR}="{nonce}"]').first, node, Frame(tab, frame), tag, "",
                                None, nonce)
    return element, (ran[0] if ran else None)


def content_box(sessions: Sessions, node: Node) -> tuple[float, float, float, float] | None:
    """``node``'s largest content quad as (x, y, w, h) in CSS pixels of the top viewport;
    ``None`` when it has no box (not rendered, gone, or its renderer cannot be asked)."""
    from playwright.sync_api import Error as PlaywrightError

    if node.backend_id is None or not sessions:
        return None
    try:
        quads = session_for(sessions, node).send("DOM.getContentQuads",
                                                 {"backendNodeId": node.backend_id}).get("quads") or []
    except PlaywrightError:
        return None
    best: tuple[float, float, float, float] | None = None
    for q in quads:
        xs, ys = q[0::2], q[1::2]
        box = (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        if best is None or box[2] * box[3] > best[2] * best[3]:
            best = box
    return best
