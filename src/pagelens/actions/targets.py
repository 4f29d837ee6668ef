"""Element targeting for the executor: an observation id → a live, tagged element.

The resolution itself (a backend node id in its renderer, a marker attribute, the frame that
holds it) is the browser package's (:func:`pagelens.browser.dom.resolve`, reached as
``episode.tab.element(node)``); what lives here is what the actions ask of the element before
using it: :data:`PROBE_JS` (visible? disabled? editable? what is under its centre?).
"""

from __future__ import annotations

from pagelens.actions.fingerprint import FOCUS_KEY_JS
from pagelens.browser.dom import MARKED_FN
from pagelens.browser.dom import MarkedElement as Target
from pagelens.browser.point import DESCRIBE_JS
from pagelens.errors import ElementGone

__all__ = ["DESCRIBE_JS", "MARKED_FN", "OPTIONS_JS", "PROBE_JS", "USABLE_JS", "ElementGone", "Target"]

#: Run on the target element: a ``<select>``'s options as ``[label, value, disabled]``; null for
#: any other element.
OPTIONS_JS = (
    "(el) => el.tagName === 'SELECT' ? Array.from(el.options).map(o => [o.label.trim(), o.value, o.disabled]) : null"
)

#: Run on the target element: visible (a box, not hidden) and disabled (what :data:`PROBE_JS` says of them too).
USABLE_JS = """(el) => {
  const r = el.getBoundingClientRect(), st = getComputedStyle(el);
  return {visible: r.width > 0 && r.height > 0 && st.visibility !== 'hidden' && st.display !== 'none',
          disabled: !!el.disabled || el.getAttribute('aria-disabled') === 'true'};
}"""

#: Run on the target element: visibility, disabled/editable state, and what is under its centre
#: (``x``, ``y``: the point checked, in CSS pixels of its frame's viewport; ``top``: that frame is the top one).
PROBE_JS = "(el) => {" + DESCRIBE_JS + FOCUS_KEY_JS + """
  let r = el.getBoundingClientRect();
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  if (cx < 0 || cy < 0 || cx >= innerWidth || cy >= innerHeight) {  // (its centre out of view: click there)
    el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    r = el.getBoundingClientRect();
  }
  const {visible, disabled} = (""" + USABLE_JS + """)(el);
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
  const centre = x === r.left + r.width / 2 && y === r.top + r.height / 2;  // (not another of its boxes)
  const dialog = hit && !inside ? hit.closest('dialog,[role=dialog],[role=alertdialog],[aria-modal=true]') : null;
  const tag = el.tagName.toLowerCase();
  const type = (el.getAttribute('type') || '').toLowerCase();
  const notText = ['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color'];
  const editable = el.isContentEditable || tag === 'textarea' || (tag === 'input' && !notText.includes(type));
  return {visible, x, y, centre, inside, tag, type, editable, top: window.top === window, disabled,
          readonly: !!el.readOnly,
          self: describe(el), hit: describe(hit), hit_clickable: clickable(hit), focus_key: focusKey(el),
          dialog: dialog && dialog !== hit ? describe(dialog) : null,
          svg: tag === 'svg' || tag === 'canvas' || !!el.closest('svg')};
}"""
