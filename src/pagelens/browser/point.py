"""What is under a point of the top viewport: the innermost element, through iframes.

``elementFromPoint`` in the main frame, descending into open shadow roots and into iframes —
cross-origin ones too, through Playwright's frame of that iframe, found by its viewport
origin — up to ``max_depth`` frames deep. The answer (:class:`PointHit`) says what the element
is (a short description, a role guess, its name, whether it looks clickable or editable) and
which :class:`~pagelens.browser.driving.Frame` holds it. Called through :meth:`Tab.element_at
<pagelens.browser.page.Tab.element_at>`, which translates driver errors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pagelens.browser.driving import Driver, Frame

if TYPE_CHECKING:
    from playwright.sync_api import Frame as PwFrame

__all__ = ["DESCRIBE_JS", "PointHit", "element_at"]

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

_POINT_JS = "([x, y]) => {" + DESCRIBE_JS + """
  let hit = document.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  if (!hit) return {none: true};
  if (hit.tagName === 'IFRAME' || hit.tagName === 'FRAME') {
    const r = hit.getBoundingClientRect(), cs = getComputedStyle(hit);
    return {iframe: true, left: r.left + parseFloat(cs.borderLeftWidth || 0) + parseFloat(cs.paddingLeft || 0),
            top: r.top + parseFloat(cs.borderTopWidth || 0) + parseFloat(cs.paddingTop || 0),
            w: r.width, h: r.height, hit: describe(hit)};
  }
  const IMPLICIT = {A: 'link', BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox', IMG: 'img',
                    SUMMARY: 'button', OPTION: 'option', CANVAS: 'canvas', svg: 'graphics', LABEL: 'label'};
  const roleOf = (e) => {
    for (let c = e, i = 0; c && i < 4; c = c.parentElement, i++) {
      const r = c.getAttribute && c.getAttribute('role');
      if (r) return r;
      if (c.tagName === 'INPUT') {
        const t = (c.getAttribute('type') || 'text').toLowerCase();
        return ({checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button', range: 'slider'})[t] || 'textbox';
      }
      if (c.tagName === 'A' && !c.hasAttribute('href')) continue;
      if (IMPLICIT[c.tagName]) return IMPLICIT[c.tagName];
    }
    return 'generic';
  };
  const name = (hit.getAttribute('aria-label') || hit.innerText || hit.value || hit.getAttribute('alt')
                || hit.getAttribute('title') || '').trim().replace(/\\s+/g, ' ').slice(0, 80);
  const ed = hit.isContentEditable || hit.tagName === 'TEXTAREA' || (hit.tagName === 'INPUT'
      && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color'].includes(
         (hit.getAttribute('type') || '').toLowerCase()));
  return {hit: describe(hit), role: roleOf(hit), name, clickable: clickable(hit), editable: ed,
          canvas: hit.tagName === 'CANVAS' || !!hit.closest('svg')};
}"""


@dataclass(frozen=True, slots=True)
class PointHit:
    """What is under a point: the innermost element, and the frame that holds it."""

    description: str
    role: str
    name: str
    clickable: bool
    editable: bool
    graphic: bool  # a canvas or SVG (drawn content: compare text hashes too)
    frame: Frame
    frame_url: str  # "" for the main frame

    def sentence(self) -> str:
        where = f" inside the frame {self.frame_url}" if self.frame_url else ""
        kind = "clickable" if self.clickable else "not clickable"
        return f"{self.description} (role {self.role}, {kind}){where}"


def element_at(tab: Driver, x: float, y: float, *, max_depth: int = 4) -> PointHit | None:
    """The element under the CSS point (x, y) of the top viewport; None when there is nothing.
    Raises Playwright's errors: call it as ``tab.element_at(x, y)``."""
    main: PwFrame = tab._pw.main_frame  # (same package)
    frame = main
    ox = oy = 0.0
    for _ in range(max_depth + 1):
        res: dict[str, Any] = frame.evaluate(_POINT_JS, [x - ox, y - oy])
        if res.get("none"):
            return None
        where = Frame(tab, frame)
        if not res.get("iframe"):
            return PointHit(str(res["hit"]), str(res["role"]), str(res["name"]), bool(res["clickable"]),
                            bool(res["editable"]), bool(res["canvas"]), where, "" if frame == main else frame.url)
        child = _child_at(frame, ox + float(res["left"]), oy + float(res["top"]))
        if child is None:  # a frame we cannot enter: report the iframe itself
            return PointHit(str(res["hit"]), "iframe", "", False, False, False, where,
                            "" if frame == main else frame.url)
        ox, oy, frame = ox + float(res["left"]), oy + float(res["top"]), child
    return None


def _child_at(frame: PwFrame, left: float, top: float) -> PwFrame | None:
    """The child frame of ``frame`` whose viewport origin is at (left, top) of the top viewport."""
    from playwright.sync_api import Error as PlaywrightError

    for child in frame.child_frames:
        try:
            ox, oy = _offset(child)
        except PlaywrightError:
            continue
        if abs(ox - left) < 1.5 and abs(oy - top) < 1.5:
            return child
    return None


def _offset(frame: PwFrame) -> tuple[float, float]:
    """The top-viewport position of ``frame``'s viewport origin."""
    x = y = 0.0
    f: PwFrame | None = frame
    while f is not None and f.parent_frame is not None:
        el = f.frame_element()
        dx, dy = el.evaluate("(e) => { const r = e.getBoundingClientRect(), cs = getComputedStyle(e); "
                             "return [r.left + parseFloat(cs.borderLeftWidth || 0) + parseFloat(cs.paddingLeft || 0), "
                             "r.top + parseFloat(cs.borderTopWidth || 0) + parseFloat(cs.paddingTop || 0)]; }")
        x, y, f = x + dx, y + dy, f.parent_frame
    return x, y
