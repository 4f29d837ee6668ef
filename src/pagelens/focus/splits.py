"""Sentences split over lines of different parents (defense step 2b; pure).

Step 2 of :func:`pagelens.focus.defense.detect` joins the sibling text lines of one parent. A sentence is also split
over lines of *different* parents: an emphasised lead-in (``strong`` → its text, then the parent's next text line), a
code word inside a sentence, short sibling paragraphs ("NOTICE TO …:" in one paragraph, the order in the next), lines
hanging off the page root between links and emphasis. This module finds the spans to judge again as one text, from a
few seed lines only (the caller's: lines already flagged or whose own evidence anchors), so the cost stays bounded:

* **a block** — the seed's nearest ancestor (at most :data:`UP` levels up, never a page, landmark, form, table, list
  or article node: :data:`STOP`) that holds 2 to :data:`BLOCK_LINES` text lines of at most :data:`BLOCK_CHARS`
  characters, all of one region;
* **else a window of adjacent text lines** — the seed with up to :data:`SIDE` text lines either side in document
  order (nearest first, while the text stays under :data:`WINDOW_CHARS`), never across a region, never out of the
  seed's nearest landmark (or page) and never past a heading or a control, walking at most :data:`WALK` lines each
  way.

A span whose lines all share one parent is left out (step 2 judged it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from pagelens.types import Line

__all__ = ["BLOCK_CHARS", "BLOCK_LINES", "SIDE", "STOP", "TEXT_ROLES", "UP", "WALK", "WINDOW_CHARS", "spans"]

#: Roles whose lines carry a sentence's text (a link's name is part of the sentence it stands in).
TEXT_ROLES = frozenset({"StaticText", "text", "link", "strong", "emphasis", "mark", "superscript", "subscript"})
#: Ancestors that are a page, a landmark, a form, a table, a list or an article: never one sentence.
STOP = frozenset({"RootWebArea", "WebArea", "main", "banner", "contentinfo", "navigation", "complementary", "form",
                  "search", "region", "dialog", "alertdialog", "table", "list", "article"})
#: Lines a window of adjacent text never walks past: a heading is a title, a control is no prose.
_BREAK = frozenset({"heading", "button", "textbox", "searchbox", "combobox", "checkbox", "radio", "listbox",
                    "menuitem", "tab", "row", "cell", "listitem", "separator", "img", "image"})
UP = 3  # ancestors climbed from a seed
BLOCK_LINES = 6  # text lines a block may hold to be one span
BLOCK_CHARS = 1200  # and characters
_BLOCK_WALK = 40  # lines of a subtree walked at most (a bigger one is a section, not a sentence)
SIDE = 2  # text lines taken either side of a seed in a window
WINDOW_CHARS = 600  # characters a window holds at most (its seed may be longer: it stands alone then)
WALK = 12  # lines walked each way from a seed in a window


def spans(lines: Sequence[Line], seeds: Sequence[int], payloads: Sequence[str], regions: Sequence[str],
          pos: Callable[[], Mapping[int, int]], *, windows: bool = True) -> list[tuple[int, list[int]]]:
    """(seed, positions of the text lines of its span) for each span to judge as one text, for the seed positions
    ``seeds``: a block, or (``windows``) a window of adjacent text lines when the seed has no block. ``pos``: each
    line's position by its number (built by the caller once, on first use). Spans are distinct; none has all its
    lines under one parent; each holds its seed."""
    out: list[tuple[int, list[int]]] = []
    seen: set[tuple[int, ...]] = set()
    done: set[int] = set()
    for i in seeds:
        ln = lines[i]
        if ln.role not in TEXT_ROLES or not payloads[i]:
            continue
        span, stopped = _block(lines, i, payloads, regions, pos(), done)
        if span is None and stopped and windows:
            span = _window(lines, i, payloads, regions, pos())
        if span is None or len(span) < 2 or i not in span or len({lines[t].parent for t in span}) < 2:
            continue
        key = tuple(span)
        if key not in seen:
            seen.add(key)
            out.append((i, span))
    return out


def _block(lines: Sequence[Line], i: int, payloads: Sequence[str], regions: Sequence[str], at: Mapping[int, int],
           done: set[int]) -> tuple[list[int] | None, bool]:
    """(the seed's block, or None; whether the climb found no block: a stop node, the root, a section or two
    regions above the seed)."""
    a = i
    for _ in range(UP):
        parent = lines[a].parent
        a = at.get(parent, -1) if parent is not None else -1
        if a < 0 or lines[a].role in STOP:
            return None, True
        if a in done:
            return None, False  # an ancestor already judged as a block for another seed
        texts = _texts_under(lines, payloads, a)
        if texts is None or any(regions[t] != regions[i] for t in texts):
            return None, True  # a section, or text of two regions: not one sentence
        if len(texts) >= 2:
            done.add(a)
            return texts, False
    return None, True


def _texts_under(lines: Sequence[Line], payloads: Sequence[str], a: int) -> list[int] | None:
    """The text lines of ``lines[a]``'s subtree, or None when it holds more than a few (or is long)."""
    d = lines[a].depth
    texts: list[int] = []
    size = 0
    j = a + 1
    while j < len(lines) and lines[j].depth > d:
        if j - a > _BLOCK_WALK:
            return None
        if lines[j].role in TEXT_ROLES and payloads[j]:
            texts.append(j)
            size += len(payloads[j])
            if len(texts) > BLOCK_LINES or size > BLOCK_CHARS:
                return None
        j += 1
    return texts


def _landmark(lines: Sequence[Line], i: int, at: Mapping[int, int]) -> int:
    """Position of ``lines[i]``'s nearest :data:`STOP` ancestor (-1: none rendered)."""
    a = i
    for _ in range(64):
        parent = lines[a].parent
        a = at.get(parent, -1) if parent is not None else -1
        if a < 0 or lines[a].role in STOP:
            return a
    return -1


def _under_break(lines: Sequence[Line], j: int, at: Mapping[int, int]) -> bool:
    """``lines[j]`` is the text of a heading or a control (its parent or grandparent is one)."""
    a = j
    for _ in range(2):
        parent = lines[a].parent
        a = at.get(parent, -1) if parent is not None else -1
        if a < 0:
            return False
        if lines[a].role in _BREAK:
            return True
    return False


def _window(lines: Sequence[Line], i: int, payloads: Sequence[str], regions: Sequence[str],
            at: Mapping[int, int]) -> list[int] | None:
    """The seed with up to :data:`SIDE` adjacent text lines either side (see the module's docstring)."""
    size = len(payloads[i])
    if size > WINDOW_CHARS or _under_break(lines, i, at):
        return None
    home = _landmark(lines, i, at)
    side: dict[int, list[int]] = {-1: [], 1: []}
    for step in (-1, 1):
        j = i + step
        walked = 0
        while 0 <= j < len(lines) and walked < WALK and len(side[step]) < SIDE:
            ln = lines[j]
            walked += 1
            if ln.role in STOP or ln.role in _BREAK or regions[j] != regions[i]:
                break
            if ln.role in TEXT_ROLES and payloads[j]:
                if (size + len(payloads[j]) > WINDOW_CHARS or _under_break(lines, j, at)
                        or _landmark(lines, j, at) != home):
                    break
                size += len(payloads[j])
                side[step].append(j)
            j += step
    return [*reversed(side[-1]), i, *side[1]]
