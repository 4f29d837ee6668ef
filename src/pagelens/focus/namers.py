"""The units that *name* a unit: its section's headings and its table column's header (features of :mod:`.learned`).

A value or an item often shares no word with the goal while the unit that names it does: the
list items under a heading the goal names ("Ingredients" over short lines of amounts), a cell
under the column header the goal names ("Size" over ``2.4 MB``), a paragraph in the section of
a matching heading. No lexical signal ranks such a unit, so the fusion never sees it. This module
gives every unit the lexical evidence of its namers (:data:`NAMER_FEATURES`, read from the typed
tree, no words):

* ``sec_lex`` — the unit holding the nearest heading line before it in reading order (its
  section's heading); ``outline_lex`` — the best of the nearest three such headings (the section
  and the sections around it: an h3 under a matching h2);
* ``sec_units`` — how many units lie between it and that heading (log; a section's first items
  are nearer its heading than its last);
* ``col_lex`` — the unit holding its table column's header cell (the header row's cell at the
  same position as the cell the unit sits in; for a unit that is a whole row, the header row).

"Lexical evidence" is the per-unit maximum of the ``terms`` and ``bm25`` scores over the page's
best, as for :mod:`.relations`. Which unit names which depends on the page only and is computed
once per page analysis; per goal the features are a few gathers. :func:`named_units` gives the
candidates a ranking may add: the units named by a strongly matching namer, which no signal ranks.
"""

from __future__ import annotations

import bisect
import math

import numpy as np

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.units import HEADER_CELL_ROLES, HEADING_ROLES, TABLE_ROLES, Page

NAMER_FEATURES = ("sec_lex", "outline_lex", "sec_units", "col_lex")
_OUTLINE = 3  # headings read for ``outline_lex``
_CELL_ROLES = frozenset({"cell", "gridcell", "columnheader", "rowheader"})


def _column_headers(page: Page, table: int, cache: dict[int, list[int]]) -> list[int]:
    """The header cells (line positions) of ``table``'s first row holding a column header, in order."""
    got = cache.get(table)
    if got is not None:
        return got
    out: list[int] = []
    for j in range(table, min(page.ends[table], table + 400)):
        if page.lines[j].role in HEADER_CELL_ROLES:
            r = page.parents[j]
            if r >= 0 and page.lines[r].role == "row":
                out = [c for c in range(r + 1, page.ends[r]) if page.parents[c] == r and page.lines[c].role in _CELL_ROLES]
            break
    cache[table] = out
    return out


def _column_header(page: Page, i: int, cache: dict[int, list[int]]) -> int:
    """The header cell line of the column of the cell holding line ``i``; for a whole row, its
    table's first header cell (the header row names every column of it); -1: none."""
    cell = -1
    for a in (i, *page.ancestors(i)):
        role = page.lines[a].role
        if role in _CELL_ROLES and cell < 0:
            cell = a
        elif role == "row" and cell < 0:  # the unit is a whole row
            for t in page.ancestors(a):
                if page.lines[t].role in TABLE_ROLES:
                    heads = _column_headers(page, t, cache)
                    return heads[0] if heads and page.parents[heads[0]] != a else -1
            return -1
        elif role == "row":
            cells = [c for c in range(a + 1, page.ends[a]) if page.parents[c] == a and page.lines[c].role in _CELL_ROLES]
            if cell not in cells:
                return -1
            at = cells.index(cell)
            for t in page.ancestors(a):
                if page.lines[t].role in TABLE_ROLES:
                    heads = _column_headers(page, t, cache)
                    return heads[at] if at < len(heads) and heads[at] != cell else -1
            return -1
        elif role in TABLE_ROLES:
            return -1
    return -1


def namer_units(pa: PageAnalysis) -> tuple[np.ndarray, np.ndarray]:
    """Per unit, the units holding its nearest :data:`_OUTLINE` preceding headings (nearest first,
    -1 padded) and the unit holding its column header (-1: none), once per page."""
    got = pa.indexes.get("namer_units")
    if isinstance(got, tuple):
        return got
    page, units = pa.page, pa.units
    n = len(units.heads)
    outline = np.full((n, _OUTLINE), -1, dtype=np.int64)
    column = np.full(n, -1, dtype=np.int64)
    heading_lines = [j for j, ln in enumerate(page.lines) if ln.role in HEADING_ROLES and units.of_line[j] >= 0]
    cache: dict[int, list[int]] = {}
    for k, h in enumerate(units.heads):
        got_units: list[int] = []
        p = bisect.bisect_left(heading_lines, h) - 1
        while p >= 0 and len(got_units) < _OUTLINE:
            u = units.of_line[heading_lines[p]]
            if u != k and u not in got_units:
                got_units.append(u)
            p -= 1
        outline[k, : len(got_units)] = got_units
        c = _column_header(page, h, cache)
        if c >= 0:
            u = units.of_line[c]
            column[k] = u if u != k else -1
    pa.indexes["namer_units"] = (outline, column)
    return outline, column


def namer_features(pa: PageAnalysis, lex: np.ndarray) -> np.ndarray:
    """``len(units) x len(NAMER_FEATURES)``: the namers' lexical evidence (``lex``: per unit, in [0, 1])."""
    n = len(lex)
    x = np.zeros((n, len(NAMER_FEATURES)))
    if n == 0:
        return x
    outline, column = namer_units(pa)
    padded = np.append(lex, 0.0)  # index -1 reads the 0 appended
    x[:, 0] = padded[outline[:, 0]]
    x[:, 1] = padded[outline].max(axis=1)
    me = np.arange(n)
    x[:, 2] = np.where(outline[:, 0] >= 0, np.log1p(np.abs(me - outline[:, 0])), math.log1p(n))
    x[:, 3] = padded[column]
    return x


def named_units(pa: PageAnalysis, lex: np.ndarray, threshold: float, per_namer: int) -> list[int]:
    """Units whose section heading or column header has some lexical evidence and at least
    ``threshold`` of the page's best and that lie within ``per_namer`` units of that heading (a column: its first
    ``per_namer`` cells), strongest namer first: the candidates no signal ranks."""
    n = len(lex)
    top = float(lex.max()) if n else 0.0
    if top <= 0 or per_namer <= 0:
        return []
    outline, column = namer_units(pa)
    me = np.arange(n)
    padded = np.append(lex, 0.0)
    sec = outline[:, 0]
    floor = max(threshold * top, np.finfo(float).tiny)  # some evidence, at least this share of the best
    by_sec = (sec >= 0) & (padded[sec] >= floor) & (me - sec <= per_namer)
    by_col = (column >= 0) & (padded[column] >= floor)
    strength = np.maximum(np.where(by_sec, padded[sec], 0.0), np.where(by_col, padded[column], 0.0))
    chosen = np.flatnonzero(by_sec | by_col)
    if by_col.any():  # a column: its first cells only
        col_ids = column[chosen]
        keep = np.ones(len(chosen), dtype=bool)
        seen: dict[int, int] = {}
        for i, c in enumerate(col_ids):
            if c >= 0 and not by_sec[chosen[i]]:
                seen[int(c)] = seen.get(int(c), 0) + 1
                keep[i] = seen[int(c)] <= per_namer
        chosen = chosen[keep]
    return [int(k) for k in chosen[np.lexsort((chosen, -strength[chosen]))]]
