"""A walker node back to its element, for the executor (actions on the page).

The walker numbers elements per document in a ``WeakMap`` kept on a non-enumerable window
property (:data:`KEY`; the page's DOM is not marked); a node's ``ref`` is ``token:number``.
:func:`resolve_ref` finds that element again and marks it with a fresh nonce attribute so a
Playwright locator can reach it; :func:`unmark` removes the mark.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

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


def resolve_ref(page: Page, node: Node, attr: str) -> tuple[Frame, str, str]:
    """Mark the element of a walker node with a fresh nonce in ``attr``; return (frame, tag, nonce).

    Raises :class:`LookupError` when no frame holds it any more (the caller maps that to its
    own error)."""
    from playwright.sync_api import Error as PlaywrightError

    if node.ref is None:
        raise LookupError("not a walker node")
    token, _, num = node.ref.partition(":")
    nonce = secrets.token_hex(6)
    frames = [page.main_frame, *page.frames[1:]] if node.frame == MAIN else [*page.frames[1:], page.main_frame]
    for frame in frames:
        try:
            tag = frame.evaluate(_MARK, [KEY, token, int(num), attr, nonce])
        except PlaywrightError:
            continue
        if isinstance(tag, str):
            return frame, tag, nonce
    raise LookupError("no longer on the page")


def unmark(frame: Frame, attr: str, nonce: str) -> None:
    """Remove the nonce attribute again (best effort)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        frame.evaluate(_UNMARK, [attr, nonce])
    except PlaywrightError:
        pass
