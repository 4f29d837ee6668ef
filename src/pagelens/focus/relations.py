"""Relations between units, read from the tree's structure: features of :mod:`.learned` (no words).

A value is often found by what sits around it, not by its own words: the value beside a matched
label (the unit before it), a cell in the row whose key the goal names, a control in the card
whose title matches, a row of the table whose header does. For every unit this module gives the
lexical evidence of its *relatives* (:data:`RELATION_FEATURES`):

* ``prev_lex`` / ``next_lex`` — the unit just before / after it in reading order;
* ``anc1_lex`` … ``anc3_lex`` — the best other unit inside its head's parent, grandparent and
  great-grandparent (a label and its value, a card's title and its controls, a section);
* ``row_lex`` / ``table_lex`` — the best other unit of its table row / of its table;
* ``hit_dist`` — how many units away the nearest strong lexical hit is (≥ half the page's best);
* ``anc2_units`` — how many units its grandparent holds (log; goal-free: a small card or a long list).

"Lexical evidence" is the per-unit maximum of the ``terms`` and ``bm25`` scores over the page's
best (:func:`pagelens.focus.learned.features` computes it). The unit ranges of the relatives depend
on the page only and are computed once per page analysis; per goal the best of each range is a
range-maximum query (a sparse table), so a page of thousands of units costs a few vector passes.
"""

from __future__ import annotations

import math

import numpy as np

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.units import TABLE_ROLES, row_of

RELATION_FEATURES = ("prev_lex", "next_lex", "anc1_lex", "anc2_lex", "anc3_lex", "row_lex", "table_lex",
                     "hit_dist", "anc2_units")
#: the relatives whose best unit is a feature, in :data:`RELATION_FEATURES` order after prev/next
_RANGES = ("anc1", "anc2", "anc3", "row", "table")


def _table_of(pa: PageAnalysis, i: int) -> int | None:
    page = pa.page
    for a in page.ancestors(i):
        if page.lines[a].role in TABLE_ROLES:
            return a
    return None


def unit_ranges(pa: PageAnalysis) -> np.ndarray:
    """Per unit and relative (:data:`_RANGES`), the half-open range ``[lo, hi)`` of unit indexes
    whose heads lie inside that relative's subtree (an empty range when there is none), once per
    page: ``len(units) x len(_RANGES) x 2``."""
    got = pa.indexes.get("relation_ranges")
    if isinstance(got, np.ndarray):
        return got
    page, heads = pa.page, pa.units.heads
    n = len(heads)
    head_pos = np.asarray(heads, dtype=np.int64)
    out = np.zeros((n, len(_RANGES), 2), dtype=np.int64)
    anchors = np.full((n, len(_RANGES)), -1, dtype=np.int64)
    for k, u in enumerate(heads):
        a = u
        for level in range(3):
            a = page.parents[a] if a >= 0 else -1
            anchors[k, level] = a
        r = row_of(page, u)
        anchors[k, 3] = -1 if r is None or r == u else r
        t = _table_of(pa, u)
        anchors[k, 4] = -1 if t is None else t
    valid = anchors >= 0
    starts = np.where(valid, anchors, 0)
    ends = np.asarray(page.ends, dtype=np.int64)[starts]
    out[:, :, 0] = np.searchsorted(head_pos, starts, side="left")
    out[:, :, 1] = np.searchsorted(head_pos, ends, side="left")
    out[~valid] = 0
    pa.indexes["relation_ranges"] = out
    return out


def _range_max(v: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``max(v[lo:hi])`` per pair (0 for an empty range), by a sparse table."""
    n = len(v)
    out = np.zeros(len(lo))
    if n == 0:
        return out
    table = [v]
    width = 1
    while 2 * width <= n:
        prev = table[-1]
        table.append(np.maximum(prev[:-width], prev[width:]))
        width *= 2
    length = hi - lo
    ok = length > 0
    if not ok.any():
        return out
    lvl = np.zeros(len(lo), dtype=np.int64)
    lvl[ok] = np.floor(np.log2(length[ok])).astype(np.int64)
    for level in np.unique(lvl[ok]):
        sel = ok & (lvl == level)
        row = table[int(level)]
        out[sel] = np.maximum(row[lo[sel]], row[hi[sel] - (1 << int(level))])
    return out


def relation_features(pa: PageAnalysis, lex: np.ndarray) -> np.ndarray:
    """``len(units) x len(RELATION_FEATURES)``: the relatives' lexical evidence (``lex``: per unit,
    in [0, 1]), excluding the unit itself."""
    n = len(lex)
    x = np.zeros((n, len(RELATION_FEATURES)))
    if n == 0:
        return x
    x[1:, 0] = lex[:-1]
    x[:-1, 1] = lex[1:]
    ranges = unit_ranges(pa)
    me = np.arange(n)
    for c in range(len(_RANGES)):
        lo, hi = ranges[:, c, 0], ranges[:, c, 1]
        inside = (lo <= me) & (me < hi)
        before = _range_max(lex, lo, np.where(inside, me, hi))
        after = _range_max(lex, np.where(inside, me + 1, hi), hi)
        x[:, 2 + c] = np.maximum(before, after)
    top = float(lex.max())
    strong = np.flatnonzero(lex >= 0.5 * top) if top > 0 else np.zeros(0, dtype=np.int64)
    if len(strong):
        pos = np.searchsorted(strong, me)
        left = np.where(pos > 0, me - strong[np.maximum(pos - 1, 0)], n)
        right = np.where(pos < len(strong), strong[np.minimum(pos, len(strong) - 1)] - me, n)
        x[:, 7] = np.log1p(np.minimum(left, right))
    else:
        x[:, 7] = math.log1p(n)
    x[:, 8] = np.log1p(ranges[:, 1, 1] - ranges[:, 1, 0])
    return x


def relatives(pa: PageAnalysis, units: list[int], per_unit: int) -> list[int]:
    """Units related to each of ``units`` (in their order): the unit after and before it, then the
    other units of its head's parent, at most ``per_unit`` each; the candidates a ranking of
    ``units`` may add (the value beside a matched label, the rest of a matched card)."""
    n = len(pa.units.heads)
    if not n or per_unit <= 0:
        return []
    ranges = unit_ranges(pa)
    out: dict[int, None] = {}
    for k in units:
        lo, hi = int(ranges[k, 0, 0]), int(ranges[k, 0, 1])
        near = [k + 1, k - 1, *(j for j in range(max(lo, k - per_unit), min(hi, k + per_unit + 1)) if j != k)]
        for j in near[:per_unit]:
            if 0 <= j < n:
                out.setdefault(j, None)
    return list(out)
