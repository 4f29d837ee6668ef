"""A walker node back to its element, for the executor (actions on the page).

The walker numbers elements per document in a ``WeakMap`` kept on a non-enumerable window
property (:data:`KEY`; the page's DOM is not marked); a node's ``ref`` is ``token:number``.
:func:`resolve_ref` finds that element again and marks it with a fresh nonce attribute so a
Playwright locator can reach it; :func:`unmark` removes the mark. Both are page calls bounded in
time (:func:`~pagelens.browser.driving.bounded`): a page whose main thread is stuck costs their
bound, not a hung call.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from pagelens.browser.driving import bounded, bounded_supported
from pagelens.browser.walker_columns import MAIN
from pagelens.types import Node

if TYPE_CHECKING:
    from playwright.sync_api import Frame, Page

KEY = "__pagelensWalker"

_MARK = """([key, token, n, attr, nonce]) => {
  const s = window[key];
  if (!s || s.token !== token) return null;
  const e = s.find(n);
  if (!e) return null;
  e.setAttribute(attr, nonce);
  return e.localName;
}"""
_UNMARK = "([attr, nonce]) => { for (const e of document.querySelectorAll(`[${attr}=\"${nonce}\"]`)) e.removeAttribute(attr); }"


def _evaluate(frame: Frame, js: str, arg: object, timeout_ms: float | None) -> object:
    if timeout_ms is None or not bounded_supported(frame):
        return frame.evaluate(js, arg)
    return bounded(frame, lambda impl: impl.evaluate(js, arg), timeout_ms, "find the element")


#: ``_MARK`` that also runs a function on the element in the same call, only in the top document (a
#: script that reads the main page beside the element): ``[tag]`` elsewhere, ``[tag, result]`` there.
_MARK_RUN = """([key, token, n, attr, nonce, arg]) => {
  const s = window[key];
  if (!s || s.token !== token) return null;
  const e = s.find(n);
  if (!e) return null;
  e.setAttribute(attr, nonce);
  if (window.top !== window || e.ownerDocument !== document) return [e.localName];
  return [e.localName, (/*RUN*/)(e, arg)];
}"""


def resolve_ref(page: Page, node: Node, attr: str, *, timeout_ms: float | None = None, run: str = "",
                arg: object = None) -> tuple[Frame, str, str, list[object] | None]:
    """Mark the element of a walker node with a fresh nonce in ``attr``; return (frame, tag, nonce,
    ran). ``run`` (a function of the element and ``arg``): run in the same page call when the
    element is in the top document; ``ran`` is ``[result]`` then, else None.

    Raises :class:`LookupError` when no frame holds it any more (the caller maps that to its
    own error); :class:`~pagelens.errors.PageTimeout` when a frame did not answer within
    ``timeout_ms`` (None: no bound)."""
    from playwright.sync_api import Error as PlaywrightError

    if node.ref is None:
        raise LookupError("not a walker node")
    token, _, num = node.ref.partition(":")
    nonce = secrets.token_hex(6)
    script = _MARK_RUN.replace("/*RUN*/", run) if run else _MARK
    frames = [page.main_frame, *page.frames[1:]] if node.frame == MAIN else [*page.frames[1:], page.main_frame]
    for frame in frames:
        try:
            res = _evaluate(frame, script, [KEY, token, int(num), attr, nonce, arg], timeout_ms)
        except PlaywrightError:
            continue
        if run and isinstance(res, list) and res and isinstance(res[0], str):
            return frame, res[0], nonce, res[1:] or None
        if isinstance(res, str):
            return frame, res, nonce, None
    raise LookupError("no longer on the page")


def unmark(frame: Frame, attr: str, nonce: str, *, timeout_ms: float | None = None) -> None:
    """Remove the nonce attribute again (best effort: a page that does not answer within
    ``timeout_ms`` keeps it)."""
    from playwright.sync_api import Error as PlaywrightError

    from pagelens.errors import PageTimeout

    try:
        _evaluate(frame, _UNMARK, [attr, nonce], timeout_ms)
    except (PlaywrightError, PageTimeout):
        pass
