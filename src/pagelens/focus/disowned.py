"""A note beside the page's own data that disowns it, judged by where it stands (structure, any language).

Text evidence alone (:mod:`pagelens.focus.evidence`) gives a span that calls the page's figures wrong or outdated and
the real ones elsewhere ``disputes=2`` — two points, short of what the site's own content needs, because an honest
page also says that its figures may be out of date. What such a span *does* to the page can be read from the tree:
the data a page shows sits in its structure (a table, a grid, a list, a form, the section under a heading), and
the page annotates it from inside that structure (a caption, a header cell, a footnote row). An injected drift note
is a small block of prose of its own, no control in it, laid **beside** the data block it disowns: its nearest
preceding or following sibling (at its own level or one level up) is that table, list, form or heading.

:func:`beside_data` says, per line, whether it stands in such a note; :func:`pagelens.focus.defense.judge_text` gives
a span there that disputes the page (``disputes=2``) the points a page's own flow needs (``_BESIDE`` in
:mod:`pagelens.focus.defense`). Nothing else changes: the dispute itself is still the lexicon's judgement, so a note
in words the lexicon lacks is not reached, and neither is a dispute worded inside the data block.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence

from pagelens.types import Line

__all__ = ["PageIndex", "beside_data", "children", "role_above"]

#: Where a page keeps its data: a note beside one of these speaks about it.
_DATA = frozenset({"table", "grid", "treegrid", "LayoutTable", "list", "DescriptionList", "form", "heading", "figure"})
#: Prose containers a note is made of (its block climbs through these).
_PROSE = frozenset({"paragraph", "generic", "StaticText", "strong", "emphasis", "mark", "note", "LineBreak", "text",
                    "superscript", "subscript", "blockquote", "group", "section", "Abbr", "time"})
_CONTROL = frozenset({"link", "button", "textbox", "searchbox", "combobox", "checkbox", "radio", "listbox", "slider",
                      "spinbutton", "switch", "menuitem", "tab", "option", "image", "img"})
_MAX_NOTE = 10  # lines: a bigger block is a section of the page, not a note
_SIBLING_LOOK = 3  # lines of a sibling's subtree searched for a data role (a wrapper around a table)


class PageIndex:
    """Each line's position by its number and each parent's children, built once per page (lazily: only a page with
    a span that disputes it needs them)."""

    __slots__ = ("kids", "pos")

    def __init__(self, lines: Sequence[Line]) -> None:
        self.pos: dict[int, int] = {ln.no: k for k, ln in enumerate(lines)}
        self.kids = children(lines)


def children(lines: Sequence[Line]) -> dict[int | None, list[int]]:
    """Each parent's children (positions in ``lines``, in order), grouped in one pass (no ``setdefault``: it builds a
    list a line)."""
    kids: dict[int | None, list[int]] = {}
    for k, ln in enumerate(lines):
        got = kids.get(ln.parent)
        if got is None:
            kids[ln.parent] = [k]
        else:
            got.append(k)
    return kids


def role_above(lines: Sequence[Line], k: int, roles: frozenset[str], reach: int,
               at: Callable[[int], int | None]) -> bool:
    """Whether the line at position ``k`` or one of its ``reach`` - 1 nearest rendered ancestors has a role in
    ``roles``; ``at(no)`` gives line number ``no``'s position (None: not rendered)."""
    j: int | None = k
    for _ in range(reach):
        if j is None:
            return False
        ln = lines[j]
        if ln.role in roles:
            return True
        j = at(ln.parent) if ln.parent is not None else None
    return False


def _end(lines: Sequence[Line], i: int, cap: int = _MAX_NOTE + 1) -> int:
    """One past the last line of ``lines[i]``'s subtree, or ``i + cap + 1`` when it is longer than ``cap`` lines (a
    big subtree is never walked whole)."""
    d = lines[i].depth
    j = i + 1
    while j < len(lines) and lines[j].depth > d and j - i <= cap:
        j += 1
    return j


def _holds_data(lines: Sequence[Line], i: int) -> bool:
    end = _end(lines, i, _SIBLING_LOOK)
    return any(lines[j].role in _DATA for j in range(i, min(end, i + _SIBLING_LOOK)))


def _siblings(lines: Sequence[Line], i: int, index: PageIndex) -> tuple[int | None, int | None]:
    """Positions of the nearest preceding and following siblings of ``lines[i]`` (same parent)."""
    kids = index.kids.get(lines[i].parent, [])
    at = bisect_left(kids, i)
    if at >= len(kids) or kids[at] != i:
        return None, None
    return (kids[at - 1] if at > 0 else None), (kids[at + 1] if at + 1 < len(kids) else None)


def _note_root(lines: Sequence[Line], i: int, index: PageIndex) -> int | None:
    """The topmost prose container of ``lines[i]`` whose subtree is a short note without controls, else None."""
    root = None
    at: int | None = i
    while at is not None and lines[at].role in _PROSE:
        end = _end(lines, at)
        if end - at > _MAX_NOTE or any(lines[j].role in _CONTROL or lines[j].role in _DATA for j in range(at, end)):
            break
        root = at
        parent = lines[at].parent
        at = index.pos.get(parent) if parent is not None else None
    return root


def beside_data(lines: Sequence[Line], i: int, index: PageIndex | None = None) -> bool:
    """Whether ``lines[i]`` stands in a short note of prose (no control, no data inside) whose nearest sibling before
    or after, at the note's level or its parent's, is a block of the page's data (a table, list, form, heading)."""
    if index is None:
        index = PageIndex(lines)
    root = _note_root(lines, i, index)
    if root is None:
        return False
    at: int | None = root
    for _ in range(2):  # the note itself, then its parent (a wrapper that holds only the note)
        if at is None:
            return False
        for sib in _siblings(lines, at, index):
            if sib is not None and _holds_data(lines, sib):
                return True
        parent = lines[at].parent
        at = index.pos.get(parent) if parent is not None else None
        if at is not None and _end(lines, at) - at > _MAX_NOTE + 1:
            return False
    return False
