"""Coordinate actions: ``click_at`` / ``hover_at`` / ``scroll_at`` / ``type_at`` (screenshot pixels).

The point is mapped to CSS pixels through the screenshot's :class:`Geometry` (cap scale; the
capture is in CSS pixels, so the device pixel ratio needs no second factor) and acted on with
the tab's mouse and keyboard. Before acting, the element under the point is found
(:meth:`Tab.element_at <pagelens.browser.page.Tab.element_at>`: ``elementFromPoint``,
descending into iframes, cross-origin ones too, and open shadow roots) and reported in the
feedback: its role, name and whether it looks clickable. An action landing in a child frame fingerprints that frame
before and after, so an iframe click that changed the frame is not "no visible change".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pagelens.actions.fingerprint import diff, take
from pagelens.actions.ops import Ctx, Outcome
from pagelens.actions.spec import render_value
from pagelens.browser.point import PointHit
from pagelens.browser.screenshot import Geometry, ScreenshotConfig, geometry_for

if TYPE_CHECKING:
    from pagelens.browser.page import Tab

__all__ = ["COORD_HANDLERS", "PointHit", "page_geometry"]

_VIEW_JS = "() => [window.innerWidth, window.innerHeight, window.devicePixelRatio || 1]"


def page_geometry(tab: Tab, config: ScreenshotConfig | None = None) -> Geometry:
    """The geometry a capped screenshot of ``tab`` has now (without taking one)."""
    vw, vh, dpr = tab.evaluate(_VIEW_JS)
    return geometry_for(int(vw), int(vh), float(dpr), config or ScreenshotConfig())


def _point(ctx: Ctx) -> tuple[Geometry, int, int, float, float] | Outcome:
    geo: Geometry = ctx.screen if ctx.screen is not None else page_geometry(ctx.tab)
    x, y = int(ctx.action.args["x"]), int(ctx.action.args["y"])
    if not geo.contains(x, y):
        return Outcome("failed", f"({x}, {y}) is outside the screenshot ({geo.width}x{geo.height} px; x from 0 to "
                                 f"{geo.width - 1}, y from 0 to {geo.height - 1}); nothing was done.")
    cx, cy = geo.to_css(x, y)
    return geo, x, y, cx, cy


def _frame_changes(tab: Tab, hit: PointHit, act: Callable[[], None]) -> tuple[str, ...]:
    """Run ``act``; when the point is in a child frame, what changed in that frame."""
    if not hit.frame_url:
        act()
        return ()
    before = take(tab, hit.frame)
    act()
    tab.pause(60)
    after = take(tab, hit.frame)
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
    hit = ctx.tab.element_at(cx, cy)
    if hit is None:
        return Outcome("failed", f"nothing is drawn at ({x}, {y}); nothing was clicked.", _detail(x, y, cx, cy, None))
    changes = _frame_changes(ctx.tab, hit, lambda: ctx.tab.click_at(cx, cy))
    return Outcome(message=f"At ({x}, {y}): {hit.sentence()}.", detail=_detail(x, y, cx, cy, hit), changes=changes,
                   hover=hit.graphic)


def hover_at(ctx: Ctx) -> Outcome:
    got = _point(ctx)
    if isinstance(got, Outcome):
        return got
    _geo, x, y, cx, cy = got
    hit = ctx.tab.element_at(cx, cy)
    changes = _frame_changes(ctx.tab, hit, lambda: ctx.tab.move_to(cx, cy)) if hit else ()
    if hit is None:
        ctx.tab.move_to(cx, cy)
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
    vh = ctx.tab.viewport[1] if ctx.tab.viewport else 720
    amount = int(ctx.action.args.get("amount", int(vh * 0.8)))
    dy = amount if ctx.action.args["direction"] == "down" else -amount
    before = ctx.tab.evaluate(_SCROLL_STATE, [cx, cy])
    ctx.tab.move_to(cx, cy)
    ctx.tab.wheel(0, dy)
    ctx.tab.pause(120)
    after = ctx.tab.evaluate(_SCROLL_STATE, [cx, cy])
    hit = ctx.tab.element_at(cx, cy)
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
    hit = ctx.tab.element_at(cx, cy)
    if hit is None or not hit.editable:
        what = hit.sentence() if hit else "nothing"
        return Outcome("failed", f"at ({x}, {y}) there is {what}, not a text field; nothing was typed.",
                       _detail(x, y, cx, cy, hit))
    ctx.tab.click_at(cx, cy)
    # the click focused the field: fill it (date/time inputs take no typing; fill sets their
    # ISO value and dispatches input/change like a user edit)
    if not hit.frame.fill_element_from(_ACTIVE_ELEMENT, text, timeout_ms=ctx.timeout_ms):
        ctx.tab.press_key("ControlOrMeta+a")
        ctx.tab.insert_text(text) if text else ctx.tab.press_key("Delete")
    value = hit.frame.evaluate(_ACTIVE_VALUE)
    msg = f"At ({x}, {y}): {hit.sentence()} now contains {render_value(str(value or ''))}."
    if value != text:
        msg += f" (not the {len(text)} characters given: the field changed or limited the input)"
    if enter:
        ctx.tab.press_key("Enter")
        msg += " Pressed Enter."
    detail = dict(_detail(x, y, cx, cy, hit))
    detail.update(value=value, requested=text)
    return Outcome("done", msg, MappingProxyType(detail))


COORD_HANDLERS: Mapping[str, Callable[[Ctx], Outcome]] = MappingProxyType({
    "click_at": click_at, "hover_at": hover_at, "scroll_at": scroll_at, "type_at": type_at,
})
