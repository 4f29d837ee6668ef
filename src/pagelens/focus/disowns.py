"""A note that disowns the page's own content and names another source (any language of the lexicons).

Subtle injected notes often write no value at all: they declare part of the page stale, moved or superseded ("the
list below is outdated; see the board at /x instead"). :func:`judge` finds, among the page's short notes, the sentences
that point at the page's own content (:data:`~pagelens.focus.lexicons.DEICTIC`), call it wrong, outdated or moved
(:data:`~pagelens.focus.lexicons.DISPUTE`; a change word alone is not enough: honest updates say "update"), and name
another source (:data:`~pagelens.focus.lexicons.REAL`, :data:`~pagelens.focus.lexicons.ELSEWHERE` or a written web
path; an order alone is not enough: an honest hatnote asks readers to help update the page), with no link of their own
(in the line or under it). Where they stand counts in every region as it does for the site's own text in
:mod:`pagelens.focus.contradicts`: in the notice zone above the page, or as a note of its own beside the data
(:func:`pagelens.focus.disowned.beside_data`) with no list item, cell, row, term, definition, option or code above it
(h22-steps' P1ds, chosen on the development sets: BENCHMARKS.md, twenty-third injection-defense pass). The evidence's
own dispute (:mod:`pagelens.focus.evidence`) already flags such a note when it has a real/current word; this step adds
the ones that name the other source by "instead", "elsewhere" or a path, in any region.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pagelens.focus import disowned
from pagelens.focus import lexicons as lx
from pagelens.types import Line

__all__ = ["ON", "Disowning", "judge", "says_disowns"]

#: Whether :func:`judge` runs (an off switch for comparisons; on by default).
ON = True

_WORDS = 5  # a sentence: this many words, or _CHARS of a script written without spaces
_CHARS = 12
_NOTE = 400  # characters: a longer text is prose, not a note
_SUBTREE = 40  # lines under a span: more is a section, not a note
_REACH = 12  # ancestors looked at
#: Roles that are the page's data or its controls, never a note of their own.
_DATA_ROLES = frozenset({"cell", "gridcell", "columnheader", "rowheader", "option", "code", "term", "definition",
                         "LayoutTableCell", "row", "listitem", "combobox", "textbox", "spinbutton", "slider"})
#: A sentence with one of these among its ancestors is part of the data, not a note beside it.
_INSIDE_DATA = frozenset({"listitem", "cell", "gridcell", "row", "term", "definition", "columnheader", "rowheader",
                          "option", "code"})
_NO_SPACES = re.compile("[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
#: A web path written in prose: two segments or a web page's file ending; not under a file-system root.
_PATH = re.compile(r"(?<![\w.:/~-])/(?!(?:etc|usr|var|bin|sbin|opt|tmp|dev|proc|home|lib|boot|root|srv|mnt)/)"
                   r"[A-Za-z0-9_.%-]+(?:/[A-Za-z0-9_.%-]+)+/?|(?<![\w.:/~-])/[A-Za-z0-9_%-]+\.(?:html?|php|aspx?|jsp)\b")


@dataclass(frozen=True, slots=True)
class Disowning:
    at: int  # position of the sentence's line
    why: str


def _sentence(text: str) -> bool:
    if text.count(" ") + 1 >= _WORDS:
        return True
    return len(text) >= _CHARS and _NO_SPACES.search(text) is not None


def says_disowns(text: str) -> bool:
    """The words of a note that disowns the page: it points at the page, calls it wrong/outdated/moved, and names
    another source (real/current, instead/elsewhere, a written web path)."""
    low = text.lower()
    return (lx.DEICTIC.search(low) is not None and lx.DISPUTE.search(low) is not None
            and (lx.REAL.search(low) is not None or lx.ELSEWHERE.search(low) is not None
                 or _PATH.search(text) is not None))


def _ancestors(lines: Sequence[Line], i: int, at: Mapping[int, int]) -> list[int]:
    out = []
    k: int | None = i
    for _ in range(_REACH):
        parent = lines[k].parent if k is not None else None
        k = at.get(parent) if parent is not None else None
        if k is None:
            break
        out.append(k)
    return out


def _links(lines: Sequence[Line], i: int) -> bool | None:
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


def judge(lines: Sequence[Line], payloads: Sequence[str], top: int, flagged: Callable[[int], bool],
          index: Callable[[], disowned.PageIndex]) -> list[Disowning]:
    """Each short note of the page that disowns its content and names another source (see the module's doc);
    ``payloads``: the defense's normalised text per line; ``top``: the notice zone's end; ``flagged``: whether a
    position is flagged already."""
    if not ON:
        return []
    out: list[Disowning] = []
    for i, p in enumerate(payloads):
        if not p or len(p) > _NOTE or flagged(i) or lines[i].role == "RootWebArea" or not _sentence(p):
            continue
        if not says_disowns(p):
            continue
        if i >= top and (lines[i].role in _DATA_ROLES or not disowned.beside_data(lines, i, index())
                         or any(lines[k].role in _INSIDE_DATA for k in _ancestors(lines, i, index().pos))):
            continue  # only a note of its own beside the data, or the notice above the page
        if _links(lines, i) is not False:
            continue  # an honest moved note links where it sends
        out.append(Disowning(i, "calls the page's own content wrong, outdated or moved and names another source, "
                                "with no link of its own"))
    return out
