"""Element targeting: an observation id → a Playwright locator in the right frame.

The observation knows each element by its CDP ``backendDOMNodeId``, which is only
meaningful in the renderer process that produced it. We resolve it through the CDP session
of that process (``DOM.resolveNode``), tag the element with a unique attribute
(``Runtime.callFunctionOn``) and hand Playwright a locator for that attribute in the frame
that holds it, so every action still gets Playwright's actionability checks. An element
that no longer exists raises :class:`ElementGone`.
"""

from __future__ import annotations

import itertools
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pagelens.actions.fingerprint import FOCUS_KEY_JS
from pagelens.errors import ActionError

if TYPE_CHECKING:
    from playwright.sync_api import CDPSession, Frame, Locator, Page

    from pagelens.types import Node

ATTR = "data-pagelens-target"
_counter = itertools.count(1)

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

#: Shared JS helpers: a short description of an element and a clickability guess.
DESCRIBE_JS = """
const describe = (e) => {
  if (!e) return 'nothing';
  let s = '<' + e.tagName.toLowerCase();
  if (e.id) s += ' id="' + e.id + '"';
  const cls = (typeof e.className === 'string' ? e.className : '').trim().split(/\\s+/).filter(Boolean).slice(0, 3);
  if (cls.length) s += ' class="' + cls.join(' ') + '"';
  const role = e.getAttribute('role'); if (role) s += ' role="' + role + '"';
  s += '>';
  const label = (e.getAttribute('aria-label') || e.innerText || e.value || '').trim().replace(/\\s+/g, ' ');
  if (label) s += ' "' + (label.length > 60 ? label.slice(0, 59) + '…' : label) + '"';
  return s;
};
const CLICK_TAGS = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'LABEL', 'SUMMARY', 'OPTION']);
const CLICK_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'option', 'switch']);
const clickable = (e) => {
  for (let i = 0; e && i < 4; i++, e = e.parentElement) {
    if (CLICK_TAGS.has(e.tagName) || CLICK_ROLES.has(e.getAttribute('role')) || typeof e.onclick === 'function'
        || e.hasAttribute('onclick') || getComputedStyle(e).cursor === 'pointer') return true;
  }
  return false;
};
"""

#: Run on the target element: visibility, disabled/editable state, and what is under its centre.
PROBE_JS = "(el) => {" + DESCRIBE_JS + FOCUS_KEY_JS + """
  let r = el.getBoundingClientRect();
  if (r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) {
    el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    r = el.getBoundingClientRect();
  }
  const st = getComputedStyle(el);
  const visible = r.width > 0 && r.height > 0 && st.visibility !== 'hidden' && st.display !== 'none';
  const root = el.getRootNode();
  const at = (px, py) => (root && root.elementFromPoint) ? root.elementFromPoint(px, py) : document.elementFromPoint(px, py);
  const labels = el.labels ? Array.from(el.labels) : [];
  const within = (h) => !!h && (h === el || el.contains(h) || labels.some(l => l === h || l.contains(h)));
  // a wrapped inline element (a link over two lines) has several boxes: the centre of the
  // bounding box may fall between them, so try the centre of each box until one hits
  let x = r.left + r.width / 2, y = r.top + r.height / 2;
  let hit = at(x, y);
  if (!within(hit)) {
    for (const b of Array.from(el.getClientRects())) {
      if (b.width <= 0 || b.height <= 0) continue;
      const bx = b.left + b.width / 2, by = b.top + b.height / 2, h = at(bx, by);
      if (within(h)) { x = bx; y = by; hit = h; break; }
    }
  }
  const inside = within(hit);
  const dialog = hit && !inside ? hit.closest('dialog,[role=dialog],[role=alertdialog],[aria-modal=true]') : null;
  const tag = el.tagName.toLowerCase();
  const type = (el.getAttribute('type') || '').toLowerCase();
  const notText = ['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color'];
  const editable = el.isContentEditable || tag === 'textarea' || (tag === 'input' && !notText.includes(type));
  return {visible, x, y, inside, tag, editable,
          disabled: !!el.disabled || el.getAttribute('aria-disabled') === 'true',
          readonly: !!el.readOnly,
          self: describe(el), hit: describe(hit), hit_clickable: clickable(hit), focus_key: focusKey(el),
          dialog: dialog && dialog !== hit ? describe(dialog) : null,
          svg: tag === 'svg' || tag === 'canvas' || !!el.closest('svg')};
}"""


class ElementGone(ActionError):
    """The element of an observation id is no longer in the page."""


@dataclass(frozen=True, slots=True)
class Target:
    node: Node
    frame: Frame
    locator: Locator
    tag: str
    nonce: str
    object_id: str
    session: CDPSession | None

    def release(self) -> None:
        """Remove the marker attribute and free the remote object (best effort)."""
        from playwright.sync_api import Error as PlaywrightError

        if self.session is None:  # a walker node (extraction="walker"): no CDP object to free
            from pagelens.browser.walker import unmark

            unmark(self.frame, ATTR, self.nonce)
            return

        try:
            self.session.send("Runtime.callFunctionOn", {
                "objectId": self.object_id, "functionDeclaration": _UNMARK, "arguments": [{"value": ATTR}],
            })
            self.session.send("Runtime.releaseObject", {"objectId": self.object_id})
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


def session_for(sessions: dict[str, CDPSession], node: Node) -> CDPSession:
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


def resolve(page: Page, sessions: dict[str, CDPSession], node: Node) -> Target:
    """Tag ``node``'s element and return a locator for it; raise :class:`ElementGone`."""
    from playwright.sync_api import Error as PlaywrightError

    if node.ref is not None:
        return _resolve_walker(page, node)
    if node.backend_id is None:
        raise ElementGone("has no DOM node")
    session = session_for(sessions, node)
    nonce = f"{next(_counter)}-{secrets.token_hex(4)}"
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
    frames = [page.main_frame] if node.frame == "main" else [*page.frames[1:], page.main_frame]
    for frame in frames:
        try:
            if frame.locator(selector).count() > 0:
                return Target(node, frame, frame.locator(selector).first, tag, nonce, object_id, session)
        except PlaywrightError:
            continue
    try:
        session.send("Runtime.releaseObject", {"objectId": object_id})
    except PlaywrightError:
        pass
    raise ElementGone("no longer on the page (its frame is gone or closed to scripts)")


def _resolve_walker(page: Page, node: Node) -> Target:
    """A node of the in-page walker: marked through its document's walker state, no CDP."""
    from pagelens.browser.walker import resolve_ref

    try:
        frame, tag, nonce = resolve_ref(page, node, ATTR)
    except LookupError as exc:
        raise ElementGone(str(exc)) from None
    return Target(node, frame, frame.locator(f'[{ATTR}="{nonce}"]').first, tag, nonce, "", None)
