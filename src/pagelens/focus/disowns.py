"""A note that disowns the page's own content and sends the reader another way (any language of the lexicons).

Subtle injected notes often write no value at all: they declare part of the page stale, moved or superseded ("the
list below is outdated; the current one is at …") or change one of its procedures ("the Apply button here only saves a
draft; use Maintenance › Reset instead"). :func:`judge` finds, among the page's short notes, the sentences that

* **P1** point at the page's own content (:data:`~pagelens.focus.lexicons.DEICTIC`), call it wrong, outdated or moved
  (:data:`~pagelens.focus.lexicons.DISPUTE`) or changed / no longer so (:data:`~pagelens.focus.lexicons.CHANGE`), and
  name another source or way (:data:`~pagelens.focus.lexicons.REAL`, :data:`~pagelens.focus.lexicons.ELSEWHERE`, an
  order, or a written web path); or
* **P2** give an order with a word that sets aside what the page offers (dispute, change, elsewhere) and name a way the
  page does not offer: a menu trail (``A › B``) whose last step no control or heading of the page names, or a web path
  no link of the page has;

and that offer no link themselves (an honest moved or deprecated note links where it sends). Where they stand counts
as for :mod:`pagelens.focus.contradicts`: in user content, overlays and unseen text anywhere; in the site's own regions
only in the notice zone above the page or as a note of its own beside the data, not inside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pagelens.focus import disowned
from pagelens.focus import lexicons as lx
from pagelens.focus import steering
from pagelens.focus.evidence import gives_order
from pagelens.types import Line

__all__ = ["MODE", "Disowning", "judge", "says_disowns"]

#: Which candidate runs: "" (off), "P1", "P2" (P1 and P2).
MODE = "P1"
#: Whether the site's rule of where a note stands holds in every region (P1u / P2u).
EVERYWHERE = False
#: P1ds: the page's content called wrong/outdated/moved and another source named (real, elsewhere, a web path).
STRICT = False

_WORDS = 5
_CHARS = 12
_NOTE = 400
_SUBTREE = 40
_REACH = 12
_SITE = frozenset({"main", "chrome"})
_DATA_ROLES = frozenset({"cell", "gridcell", "columnheader", "rowheader", "option", "code", "term", "definition",
                         "LayoutTableCell", "row", "listitem", "combobox", "textbox", "spinbutton", "slider"})
_INSIDE_DATA = frozenset({"listitem", "cell", "gridcell", "row", "term", "definition", "columnheader", "rowheader",
                          "option", "code"})
_NAMED = frozenset({"button", "link", "menuitem", "menuitemradio", "menuitemcheckbox", "tab", "option", "radio",
                    "checkbox", "combobox", "textbox", "searchbox", "switch", "heading", "columnheader", "treeitem"})
_NO_SPACES = re.compile("[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
#: A web path written in prose: two segments or a web page's file ending; not under a file-system root.
_PATH = re.compile(r"(?<![\w.:/~-])/(?!(?:etc|usr|var|bin|sbin|opt|tmp|dev|proc|home|lib|boot|root|srv|mnt)/)"
                   r"[A-Za-z0-9_.%-]+(?:/[A-Za-z0-9_.%-]+)+/?|(?<![\w.:/~-])/[A-Za-z0-9_%-]+\.(?:html?|php|aspx?|jsp)\b")
#: A menu trail: steps joined by a spaced separator; the last step runs to the clause's end (four words at most).
_TRAIL = re.compile(r"\S\s+[›>→»]\s+([^\s.,;:!?()]+(?:\s+[^\s.,;:!?()]+){0,3})")


@dataclass(frozen=True, slots=True)
class Disowning:
    at: int  # position of the sentence's line
    why: str


def _sentence(text: str) -> bool:
    if text.count(" ") + 1 >= _WORDS:
        return True
    return len(text) >= _CHARS and _NO_SPACES.search(text) is not None


def _orders(low: str) -> bool:
    return gives_order(low) or steering.REQUEST_START.search(low) is not None or (
        steering.REQUEST_ANY.search(low) is not None)


def says_disowns(text: str) -> bool:
    """P1's words: the text points at the page, calls it wrong/outdated/moved or changed, and names another source or
    way (real/current, elsewhere, an order, a web path)."""
    low = text.lower()
    if lx.DEICTIC.search(low) is None:
        return False
    if STRICT:  # P1ds: a dispute word (a change word alone is not enough), another source named (not an order alone)
        return lx.DISPUTE.search(low) is not None and (
            lx.REAL.search(low) is not None or lx.ELSEWHERE.search(low) is not None or _PATH.search(text) is not None)
    if lx.DISPUTE.search(low) is None and lx.CHANGE.search(low) is None:
        return False
    return (lx.REAL.search(low) is not None or lx.ELSEWHERE.search(low) is not None or _orders(low)
            or _PATH.search(text) is not None)


def _sets_aside(low: str) -> bool:
    return (lx.DISPUTE.search(low) is not None or lx.CHANGE.search(low) is not None
            or lx.ELSEWHERE.search(low) is not None)


def _ancestors(lines: Sequence[Line], i: int, at: dict[int, int]) -> list[int]:
    out = []
    k: int | None = i
    for _ in range(_REACH):
        parent = lines[k].parent if k is not None else None
        k = at.get(parent) if parent is not None else None
        if k is None:
            break
        out.append(k)
    return out


def _subtree_links(lines: Sequence[Line], i: int) -> bool | None:
    """Whether the line or its subtree carries a link (None: a section, too big to be a note)."""
    d = lines[i].depth
    j = i
    while j < len(lines) and (j == i or lines[j].depth > d):
        if j - i > _SUBTREE:
            return None
        if lines[j].url or lines[j].role == "link":
            return True
        j += 1
    return False


def judge(lines: Sequence[Line], payloads: Sequence[str], regions: Sequence[str], top: int,
          flagged: Callable[[int], bool], index: Callable[[], disowned.PageIndex]) -> list[Disowning]:
    """Each short note of the page that disowns its content and sends the reader another way (see the module's doc);
    ``payloads``: the defense's normalised text per line; ``top``: the notice zone's end."""
    if not MODE:
        return []
    page: dict[str, object] = {}

    def linked_paths() -> set[str]:
        if "paths" not in page:
            page["paths"] = {ln.url.split("#")[0].split("?")[0].rstrip("/") for ln in lines if ln.url}
        return page["paths"]  # type: ignore[return-value]

    def names() -> list[str]:
        if "names" not in page:
            page["names"] = [p.lower() for ln, p in zip(lines, payloads) if ln.role in _NAMED and p]
        return page["names"]  # type: ignore[return-value]

    def unoffered_path(text: str) -> bool:
        for m in _PATH.finditer(text):
            path = m.group(0).rstrip("/")
            if not any(u.endswith(path) for u in linked_paths()):
                return True
        return False

    def unoffered_trail(text: str) -> bool:
        for m in _TRAIL.finditer(text):
            step = m.group(1).lower()
            if not any(n.startswith(step) for n in names()):
                return True
        return False

    out: list[Disowning] = []
    for i, p in enumerate(payloads):
        if not p or len(p) > _NOTE or flagged(i) or lines[i].role == "RootWebArea" or not _sentence(p):
            continue
        low = p.lower()
        p1 = says_disowns(p)
        p2 = MODE == "P2" and not p1 and _sets_aside(low) and _orders(low) and (
            unoffered_trail(p) or unoffered_path(p))
        if not (p1 or p2):
            continue
        site = (EVERYWHERE or regions[i] in _SITE) and i >= top
        if site and lines[i].role in _DATA_ROLES:
            continue
        if site and (not disowned.beside_data(lines, i, index())
                     or lines[i].role in _INSIDE_DATA
                     or any(lines[k].role in _INSIDE_DATA for k in _ancestors(lines, i, index().pos))):
            continue
        if _subtree_links(lines, i) is not False:
            continue
        if p1:
            out.append(Disowning(i, "calls the page's own content wrong, outdated or changed and sends the reader "
                                    "to another source or way, with no link of its own"))
        else:
            out.append(Disowning(i, "sets aside what the page offers and sends the reader to a menu or path the page "
                                    "does not offer"))
    return out
