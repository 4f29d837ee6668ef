"""Coordinate actions: ``click_at`` / ``hover_at`` / ``scroll_at`` / ``type_at`` (screenshot pixels).

The point is mapped to CSS pixels through the screenshot's :class:`Geometry` (cap scale; the
capture is in CSS pixels, so the device pixel ratio needs no second factor) and acted on with
Playwright's mouse and keyboard. Before acting, the element under the point is found
(``elementFromPoint``, descending into iframes — cross-origin ones too, through Playwright's
frame of that iframe — and open shadow roots) and reported in the feedback: its role, name
and whether it looks clickable. An action landing in a child frame fingerprints that frame
before and after, so an iframe click that changed the frame is not "no visible change".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pagelens.actions.fingerprint import diff, take
from pagelens.actions.ops import Ctx, Outcome
from pagelens.actions.spec import render_value
from pagelens.actions.targets import DESCRIBE_JS
from pagelens.vision.screenshot import Geometry, ScreenshotConfig, geometry_for

if TYPE_CHECKING:
    from playwright.sync_api import Frame, Page

__all__ = ["COORD_HANDLERS", "PointHit", "element_at", "page_geometry"]

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

_VIEW_JS = "() => [window.innerWidth, window.innerHeight, window.devicePixelRatio || 1]"


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


def element_at(page: Page, x: float, y: float, *, max_depth: int = 4) -> PointHit | None:
    """The element under the CSS point (x, y) of the top viewport; None when there is nothing."""
    frame: Frame = page.main_frame
    ox = oy = 0.0
    for _ in range(max_depth + 1):
        res: dict[str, Any] = frame.evaluate(_POINT_JS, [x - ox, y - oy])
        if res.get("none"):
            return None
        if not res.get("iframe"):
            return PointHit(str(res["hit"]), str(res["role"]), str(res["name"]), bool(res["clickable"]),
                            bool(res["editable"]), bool(res["canvas"]), frame,
                            "" if frame == page.main_frame else frame.url)
        child = _child_at(frame, ox + float(res["left"]), oy + float(res["top"]))
        if child is None:  # a frame we cannot enter: report the iframe itself
            return PointHit(str(res["hit"]), "iframe", "", False, False, False, frame,
                            "" if frame == page.main_frame else frame.url)
        ox, oy, frame = ox + float(res["left"]), oy + float(res["top"]), child
    return None


def _child_at(frame: Frame, left: float, top: float) -> Frame | None:
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


def _offset(frame: Frame) -> tuple[float, float]:
    """The top-viewport position of ``frame``'s viewport origin."""
    x = y = 0.0
    f: Frame | None = frame
    while f is not None and f.parent_frame is not None:
        el = f.frame_element()
        dx, dy = el.evaluate("(e) => { const r = e.getBoundingClientRect(), cs = getComputedStyle(e); "
                             "return [r.left + parseFloat(cs.borderLeftWidth || 0) + parseFloat(cs.paddingLeft || 0), "
                             "r.top + parseFloat(cs.borderTopWidth || 0) + parseFloat(cs.paddingTop || 0)]; }")
        x, y, f = x + dx, y + dy, f.parent_frame
    return x, y


def page_geometry(page: Page, config: ScreenshotConfig | None = None) -> Geometry:
    """The geometry a capped screenshot of ``page`` has now (without taking one)."""
    vw, vh, dpr = page.evaluate(_VIEW_JS)
    return geometry_for(int(vw), int(vh), float(dpr), config or ScreenshotConfig())


def _point(ctx: Ctx) -> tuple[Geometry, int, int, float, float] | Outcome:
    geo: Geometry = ctx.screen if ctx.screen is not None else page_geometry(ctx.page)
    x, y = int(ctx.action.args["x"]), int(ctx.action.args["y"])
    if not geo.contains(x, y):
        return Outcome("failed", f"({x}, {y}) is outside the screenshot ({geo.width}x{geo.height} px; x from 0 to "
                                 f"{geo.width - 1}, y from 0 to {geo.height - 1}); nothing was done.")
    cx, cy = geo.to_css(x, y)
    return geo, x, y, cx, cy


def _frame_changes(page: Page, hit: PointHit, act: Callable[[], None]) -> tuple[str, ...]:
    """Run ``act``; when the point is in a child frame, what changed in that frame."""
    if not hit.frame_url:
        act()
        return ()
    before = take(page, hit.frame)
    act()
    page.wait_for_timeout(60)
    after = take(page, hit.frame)
    if before.frame_fp is None or after.frame_fp is None:
        return ()
    changes = diff(before, after, hover=hit.graphic)
    return tuple(c for c in changes if c.startswith("frame"))


def _detail(x: int, y: int, cx: float, cy: float, hit: PointHit | None) -> Mapping[str, Any]:
    d: dict[str, Any] = {"x": x, "y": y, "css_x": round(cx, 2), "css_y": round(cy, 2)}
    if hit is not None:
        d.update(hit=hit.description, role=hit.role, name=hit.name, clickable=hit.clickable, frame=hit.frame_url)
    return MappingProxyType(d)


def click_at(ctx: Ctx) -> Outcome:
    got = _point(ctx)
    if isinstance(got, Outcome):
        return got
    _geo, x, y, cx, cy = got
    hit = element_at(ctx.page, cx, cy)
    if hit is None:
        return Outcome("failed", f"nothing is drawn at ({x}, {y}); nothing was clicked.", _detail(x, y, cx, cy, None))
    changes = _frame_changes(ctx.page, hit, lambda: ctx.page.mouse.click(cx, cy))
    return Outcome(message=f"At ({x}, {y}): {hit.sentence()}.", detail=_detail(x, y, cx, cy, hit), changes=changes,
                   hover=hit.graphic)


def hover_at(ctx: Ctx) -> Outcome:
    got = _point(ctx)
    if isinstance(got, Outcome):
        return got
    _geo, x, y, cx, cy = got
    hit = element_at(ctx.page, cx, cy)
    changes = _frame_changes(ctx.page, hit, lambda: ctx.page.mouse.move(cx, cy)) if hit else ()
    if hit is None:
        ctx.page.mouse.move(cx, cy)
    where = f" At ({x}, {y}): {hit.sentence()}." if hit else ""
    return Outcome(message=where.strip(), detail=_detail(x, y, cx, cy, hit), changes=changes, hover=True)


_SCROLL_STATE = """([x, y]) => {
  let e = document.elementFromPoint(x, y);
  for (; e; e = e.parentElement) {
    const oy = getComputedStyle(e).overflowY;
    if (e.scrollHeight > e.clientHeight + 1 && (oy === 'auto' || oy === 'scroll')) break;
  }
  if (!e) return {inner: false, top: (document.scrollingElement || document.documentElement).scrollTop};
  return {inner: true, top: e.scrollTop, what: e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')};
}"""


def scroll_at(ctx: Ctx) -> Outcome:
    got = _point(ctx)
    if isinstance(got, Outcome):
        return got
    _geo, x, y, cx, cy = got
    vh = ctx.page.viewport_size["height"] if ctx.page.viewport_size else 720
    amount = int(ctx.action.args.get("amount", int(vh * 0.8)))
    dy = amount if ctx.action.args["direction"] == "down" else -amount
    before = ctx.page.evaluate(_SCROLL_STATE, [cx, cy])
    ctx.page.mouse.move(cx, cy)
    ctx.page.mouse.wheel(0, dy)
    ctx.page.wait_for_timeout(120)
    after = ctx.page.evaluate(_SCROLL_STATE, [cx, cy])
    hit = element_at(ctx.page, cx, cy)
    detail = _detail(x, y, cx, cy, hit)
    if before.get("inner") and after.get("inner") and before.get("what") == after.get("what") \
            and before["top"] != after["top"]:
        return Outcome(changes=(f"scrolled {after['what']} to y={after['top']:.0f}",), detail=detail)
    return Outcome(detail=detail)


_ACTIVE_ELEMENT = """() => { let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return (a && a !== document.body && (a.isContentEditable || a.tagName === 'INPUT' || a.tagName === 'TEXTAREA'))
    ? a : null; }"""
_ACTIVE_VALUE = """() => { let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (!a || a === document.body) return null;
  return a.isContentEditable ? a.innerText : (a.value ?? null); }"""


def type_at(ctx: Ctx) -> Outcome:
    got = _point(ctx)
    if isinstance(got, Outcome):
        return got
    _geo, x, y, cx, cy = got
    text = str(ctx.action.args["text"])
    enter = bool(ctx.action.args.get("enter", False))
    hit = element_at(ctx.page, cx, cy)
    if hit is None or not hit.editable:
        what = hit.sentence() if hit else "nothing"
        return Outcome("failed", f"at ({x}, {y}) there is {what}, not a text field; nothing was typed.",
                       _detail(x, y, cx, cy, hit))
    ctx.page.mouse.click(cx, cy)
    # the click focused the field: fill it through Playwright (date/time inputs take no typing;
    # fill sets their ISO value and dispatches input/change like a user edit)
    handle = hit.frame.evaluate_handle(_ACTIVE_ELEMENT).as_element()
    if handle is not None:
        try:
            handle.fill(text, timeout=ctx.timeout_ms)
        finally:
            handle.dispose()
    else:
        ctx.page.keyboard.press("ControlOrMeta+a")
        ctx.page.keyboard.insert_text(text) if text else ctx.page.keyboard.press("Delete")
    value = hit.frame.evaluate(_ACTIVE_VALUE)
    msg = f"At ({x}, {y}): {hit.sentence()} now contains {render_value(str(value or ''))}."
    if value != text:
        msg += f" (not the {len(text)} characters given: the field changed or limited the input)"
    if enter:
        ctx.page.keyboard.press("Enter")
        msg += " Pressed Enter."
    detail = dict(_detail(x, y, cx, cy, hit))
    detail.update(value=value, requested=text)
    return Outcome("done", msg, MappingProxyType(detail))


COORD_HANDLERS: Mapping[str, Callable[[Ctx], Outcome]] = MappingProxyType({
    "click_at": click_at, "hover_at": hover_at, "scroll_at": scroll_at, "type_at": type_at,
})
