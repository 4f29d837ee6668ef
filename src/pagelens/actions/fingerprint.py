"""DOM fingerprints: did an action change anything, at zero LLM cost?

A :class:`Fingerprint` is a handful of numbers read with one ``evaluate`` (time-bounded) of a small,
bounded script (URL, title, element count, visible text length and hash, scroll offsets,
focused element, a digest of the form fields' state). Unlike a pixel diff it is not fooled by ticking clocks or carousels.
Two refinements from WebFovea: an action landing in a child frame also fingerprints that
frame (otherwise a working iframe click looks like "no change"), and focus moving into an
``<iframe>`` is not a change by itself (otherwise every iframe click looks successful).
The text hash is only compared for hovers, where a tooltip can be replaced by another of
the same length.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pagelens.errors import ActionError, PageError, PageTimeout

if TYPE_CHECKING:
    from pagelens.browser.page import Frame, Tab

__all__ = ["FINGERPRINT_FN", "FOCUS_KEY_JS", "HASH_LIMIT", "Fingerprint", "diff", "from_page", "take"]

#: Characters of visible text hashed at most (the length is always exact).
HASH_LIMIT = 400_000

#: How the focused element is named (shared with the executor's element probe).
FOCUS_KEY_JS = """
const focusKey = (a) => {
  let k = a.tagName.toLowerCase();
  if (a.id) k += '#' + a.id;
  else if (a.getAttribute('name')) k += '[name="' + a.getAttribute('name') + '"]';
  else if (a.getAttribute('aria-label')) k += '[aria-label="' + a.getAttribute('aria-label').slice(0, 40) + '"]';
  return k;
};
"""

#: ``__pagelensFingerprint(limit)``: the page state as one JSON object (shared with the settle script).
FINGERPRINT_FN = "function __pagelensFingerprint(limit) {" + FOCUS_KEY_JS + """
  const d = document, root = d.body || d.documentElement;
  let text = '';
  try { text = root ? (root.innerText || '') : ''; } catch (e) { text = ''; }
  let h = 0x811c9dc5;
  const n = Math.min(text.length, limit);
  for (let i = 0; i < n; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  let a = d.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  const focus = (a && a !== d.body && a !== d.documentElement) ? focusKey(a) : '';
  // form state lives in properties, not in the DOM or its text: a ticked checkbox changes neither
  let fh = 0x811c9dc5, checked = 0;
  const fields = d.querySelectorAll('input,select,textarea');
  for (let i = 0; i < Math.min(fields.length, 5000); i++) {
    const f = fields[i];
    if (f.checked) checked++;
    const s = (f.checked ? '1' : '0') + (f.selectedIndex === undefined ? '' : f.selectedIndex) + ':' + (f.value || '').length;
    for (let j = 0; j < s.length; j++) { fh ^= s.charCodeAt(j); fh = Math.imul(fh, 0x01000193); }
  }
  return {url: location.href, title: d.title, nodes: d.getElementsByTagName('*').length, len: text.length,
          hash: (h >>> 0).toString(16), sx: window.scrollX, sy: window.scrollY, focus, now: Date.now(),
          form: (fh >>> 0).toString(16), checked};
}
"""

_JS = "(limit) => {" + FINGERPRINT_FN + " return __pagelensFingerprint(limit); }"


@dataclass(frozen=True, slots=True)
class Fingerprint:
    url: str
    title: str
    node_count: int
    text_length: int
    text_hash: str
    scroll_x: float
    scroll_y: float
    focus: str  # "" for the body; "iframe..." when focus is inside a child frame
    frame: str | None = None  # URL of the child frame the action landed in
    #: (url, node_count, text_length, text_hash, scroll_x, scroll_y, focus) of that frame
    frame_fp: tuple[Any, ...] | None = None
    #: hash of the form fields' checked / selected / value-length state, and how many are checked
    form_hash: str = ""
    checked: int = 0
    #: page clock (``Date.now()``) when the fingerprint was taken; not part of equality
    clock_ms: float = field(default=0.0, compare=False)


def take(tab: Tab, frame: Frame | None = None, *, timeout_s: float = 5.0, js: str = "") -> Fingerprint:
    """Fingerprint the page (and ``frame`` when it is a child frame).

    ``js``: a script returning the same object as the fingerprint script (one that also does
    something else in the page first, e.g. :mod:`pagelens.actions.settle`); default: the fingerprint.
    One page call, given up after ``timeout_s`` even when the page's main thread is stuck
    (:class:`~pagelens.errors.PageTimeout`). Raises :class:`~pagelens.errors.PageError` when the
    main document cannot be read even after waiting for a navigation in progress; an unreadable
    child frame is left out.
    """
    ms = timeout_s * 1000
    try:
        try:
            raw = tab.evaluate(js or _JS, HASH_LIMIT, timeout_ms=ms)
        except PageTimeout:
            # Chromium holds a page call sent while a main-frame navigation is under way until the new
            # document commits (a slow server): once more; a stuck main thread times out again
            raw = tab.evaluate(js or _JS, HASH_LIMIT, timeout_ms=ms)
    except PageTimeout:
        raise
    except (PageError, ActionError):
        # a navigation destroyed the context mid-evaluate: wait for the new document once
        try:
            tab.wait_for_load("domcontentloaded", timeout_ms=ms)
            raw = tab.evaluate(js or _JS, HASH_LIMIT, timeout_ms=ms)
        except PageTimeout:
            raise
        except (PageError, ActionError) as exc:
            raise PageError(f"could not read the page: {exc}") from None
    return from_page(raw, frame, timeout_s=timeout_s)


def from_page(raw: dict[str, Any], frame: Frame | None = None, *, timeout_s: float = 5.0) -> Fingerprint:
    """The fingerprint of the main document's ``raw`` object (the fingerprint script's result),
    with ``frame`` (a child frame the action landed in) read now."""
    frame_url: str | None = None
    frame_fp: tuple[Any, ...] | None = None
    if frame is not None and not frame.is_main and not frame.detached:
        try:
            fr = frame.evaluate(_JS, HASH_LIMIT, timeout_ms=timeout_s * 1000)
            frame_url = str(fr["url"])
            frame_fp = (frame_url, int(fr["nodes"]), int(fr["len"]), str(fr["hash"]), float(fr["sx"]),
                        float(fr["sy"]), str(fr["focus"]))
        except (PageError, ActionError):
            frame_url, frame_fp = frame.url, None
    return Fingerprint(
        url=str(raw["url"]),
        title=str(raw["title"]),
        node_count=int(raw["nodes"]),
        text_length=int(raw["len"]),
        text_hash=str(raw["hash"]),
        scroll_x=float(raw["sx"]),
        scroll_y=float(raw["sy"]),
        focus=str(raw["focus"]),
        frame=frame_url,
        frame_fp=frame_fp,
        form_hash=str(raw.get("form", "")),
        checked=int(raw.get("checked", 0)),
        clock_ms=float(raw["now"]),
    )


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _content(prefix: str, a_nodes: int, b_nodes: int, a_len: int, b_len: int, a_hash: str, b_hash: str,
             hover: bool) -> list[str]:
    out: list[str] = []
    if a_nodes != b_nodes or a_len != b_len:
        parts = []
        if a_nodes != b_nodes:
            parts.append(f"{_signed(b_nodes - a_nodes)} elements")
        if a_len != b_len:
            parts.append(f"{_signed(b_len - a_len)} characters of text")
        out.append(f"{prefix}content changed ({', '.join(parts)})")
    elif hover and a_hash != b_hash:
        out.append(f"{prefix}text changed (same length)")
    return out


def diff(a: Fingerprint, b: Fingerprint, *, hover: bool = False) -> tuple[str, ...]:
    """Human-readable differences from ``a`` to ``b`` (empty: nothing visible changed)."""
    out: list[str] = []
    if a.url != b.url:
        out.append(f"URL changed: {a.url} → {b.url}")
        if a.title != b.title:
            out.append(f"title is now {b.title!r}")
        return tuple(out)  # a new document: element counts say nothing more
    if a.title != b.title:
        out.append(f"title changed: {a.title!r} → {b.title!r}")
    out += _content("page ", a.node_count, b.node_count, a.text_length, b.text_length, a.text_hash, b.text_hash,
                    hover)
    if (a.scroll_x, a.scroll_y) != (b.scroll_x, b.scroll_y):
        out.append(f"scrolled from y={a.scroll_y:.0f} to y={b.scroll_y:.0f}"
                   + (f", x={b.scroll_x:.0f}" if a.scroll_x != b.scroll_x else ""))
    if a.form_hash != b.form_hash:
        if a.checked != b.checked:
            out.append(f"form state changed: {b.checked} checkboxes/radios checked (was {a.checked})")
        else:
            out.append("form state changed (a field's value or selection)")
    if a.focus != b.focus and not b.focus.startswith("iframe"):
        out.append(f"focus moved to {b.focus}" if b.focus else "focus left the element")
    fa, fb = a.frame_fp, b.frame_fp
    if fa is not None and fb is not None and fa != fb:
        name = f"frame {fb[0]}: "
        if fa[0] != fb[0]:
            out.append(f"frame navigated: {fa[0]} → {fb[0]}")
        else:
            out += _content(name, fa[1], fb[1], fa[2], fb[2], fa[3], fb[3], hover)
            if fa[4:6] != fb[4:6]:
                out.append(f"{name}scrolled to y={fb[5]:.0f}")
            if fa[6] != fb[6] and not str(fb[6]).startswith("iframe"):
                out.append(f"{name}focus moved to {fb[6]}" if fb[6] else f"{name}focus left the element")
    elif fa is not None and fb is None and b.frame is None:
        out.append("the frame the action was in is gone")
    return tuple(out)
