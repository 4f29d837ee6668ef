"""The best units bring the units beside them: what a kept unit brings, no signal.

Most items ``default`` loses at any budget sit in units no signal ranks (the value after a matched
label, the next cell of a matched row, the line under a matched term): the fused order never holds
them, so no budget reaches them. Many lie a unit or two from one of the order's best units. After the
budget fill, each of the order's first ``best`` units that was kept brings the units within ``reach``
units before and after it (nearest first, the one after before the one before), each at most
``max_tokens`` tokens, never across a heading and never outside the best unit's grandparent, from a
small allowance of tokens of its own (:func:`bring`; the fill's view only gains lines). It reads the
tree's structure only (unit positions, heading roles, parents); it never reads a word. Moving the
same units up the fused order instead lost more items than it found (BENCHMARKS.md, "Focus,
twenty-second pass").
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.cores import take_own_lines
from pagelens.focus.units import HEADING_ROLES

#: Roles whose subtree is a region of the page of its own (ARIA landmarks, a form, a dialog): a section
#: (:func:`section`) never crosses one's edge.
LANDMARK_ROLES = frozenset({"main", "navigation", "banner", "contentinfo", "complementary", "region", "article",
                            "form", "search", "dialog", "alertdialog"})
_HEADINGS = "nearby.headings"


def _scope(pa: PageAnalysis, k: int) -> tuple[int, int]:
    """The line range ``[lo, hi)`` a neighbour of unit ``k`` must lie in: its head's grandparent
    (its parent when it has no grandparent, the whole page when it has neither)."""
    page = pa.page
    a = pa.units.heads[k]
    for _ in range(2):
        if page.parents[a] < 0:
            break
        a = page.parents[a]
    if a == pa.units.heads[k]:
        return 0, len(page.lines)
    return a, page.ends[a]


def headings(pa: PageAnalysis) -> list[int]:
    """Positions of the page's named heading lines, in document order (built once per page)."""
    got = pa.indexes.get(_HEADINGS)
    if got is None:
        got = pa.indexes[_HEADINGS] = [i for i, ln in enumerate(pa.page.lines) if ln.role in HEADING_ROLES and ln.name]
    return got


def section(pa: PageAnalysis, at: int) -> tuple[int, int]:
    """The line range ``[lo, hi)`` of the section holding line ``at``: from the last named heading at or before it
    to the next one after its subtree (the page's start and end without one; the tree gives no heading levels, so a
    sub-heading ends a section too), never past the edge of its nearest landmark ancestor (:data:`LANDMARK_ROLES`).
    It reads roles and positions only."""
    page = pa.page
    hs = headings(pa)
    i = bisect_right(hs, at) - 1
    lo = hs[i] if i >= 0 else 0
    i = bisect_left(hs, max(page.ends[at], at + 1))
    hi = hs[i] if i < len(hs) else len(page.lines)
    for a in page.ancestors(at):
        if page.lines[a].role in LANDMARK_ROLES:
            return max(lo, a), min(hi, page.ends[a])
    return lo, hi


def beside(pa: PageAnalysis, k: int, reach: int, max_tokens: int) -> list[int]:
    """Units within ``reach`` of unit ``k`` in reading order, nearest first (after, then before),
    each at most ``max_tokens`` tokens; a direction stops at a heading unit or at its scope's edge."""
    page, heads = pa.page, pa.units.heads
    n = len(heads)
    lo, hi = _scope(pa, k)
    out: list[int] = []
    open_dir = {1: True, -1: True}
    for d in range(1, reach + 1):
        for step in (1, -1):
            if not open_dir[step]:
                continue
            j = k + step * d
            if not 0 <= j < n or not lo <= heads[j] < hi or page.lines[heads[j]].role in HEADING_ROLES:
                open_dir[step] = False
                continue
            if page.subtree_tokens(heads[j]) <= max_tokens:
                out.append(j)
    return out


def bring(pa: PageAnalysis, keep: set[int], order: Sequence[int], best: int, reach: int, max_tokens: int,
          allowance: int) -> int:
    """After the budget fill: each of ``order``'s first ``best`` units that was kept brings the units
    beside it (:func:`beside`, nearest first) that are not shown yet, while their lines fit ``allowance``
    tokens in all; the lines are added to ``keep`` in place. Returns the tokens spent. Nothing the fill
    kept is dropped: a view only gains lines."""
    units = pa.units
    spent = 0
    if best <= 0 or reach <= 0 or allowance <= 0:
        return 0
    for k in order[:best]:
        if units.heads[k] not in keep:
            continue
        for j in beside(pa, k, reach, max_tokens):
            spent += take_own_lines(pa, keep, j, spent, allowance)
    return spent


def leftover(pa: PageAnalysis, keep: set[int], order: Sequence[int], best: int, reach: int, max_tokens: int,
             allowance: int, *, bounded: bool = False) -> int:
    """The budget the fill left unspent (``allowance``: it ran out of ranked units, or none of the rest fit) goes
    to the document-order neighbourhood of ``order``'s first ``best`` kept units, as a chunk around them would
    hold it: the units ``1, 2, ... reach`` before and after each of them (nearest first, every best unit at one
    distance before any at the next; the unit after a best unit before the one before it), each at most
    ``max_tokens`` tokens, that are not shown yet, while their own lines fit ``allowance`` (a choice's spare
    options left out, as the fill leaves them). Headings and containers are no limit (a chunk has none). It
    reads unit positions and the fused order only, never a word. ``keep`` gains the lines in place; returns the
    tokens spent. ``bounded``: a neighbour must lie in its best unit's :func:`section` (its heading's scope within
    its landmark), as the page's own structure bounds what belongs with it."""
    units, page = pa.units, pa.page
    heads = units.heads
    n = len(heads)
    if best <= 0 or reach <= 0 or allowance <= 0:
        return 0
    tops = [k for k in order[:best] if heads[k] in keep]
    scope = {k: section(pa, heads[k]) if bounded else (0, len(page.lines)) for k in tops}
    spent = 0
    for d in range(1, reach + 1):
        for k in tops:
            lo, hi = scope[k]
            for j in (k + d, k - d):
                if (0 <= j < n and lo <= heads[j] < hi and heads[j] not in keep
                        and page.subtree_tokens(heads[j]) <= max_tokens):
                    spent += take_own_lines(pa, keep, j, spent, allowance, spare=False)
    return spent


def section_leads(pa: PageAnalysis, keep: set[int], line_terms: Mapping[int, frozenset[str]], at_least: int,
                  most: int, units_each: int, max_tokens: int, allowance: int) -> int:
    """On a long page, the named headings that carry the most distinct goal terms (at least ``at_least``; the
    ``most`` best, ties to the earlier) bring the first ``units_each`` units of their :func:`section` after them,
    in document order, each at most ``max_tokens`` tokens, own lines (a choice's spare options left out), while
    they fit ``allowance`` tokens in all (its half for the first heading, then what is left): a manual's answer
    sits in the body of the section its title names, in words the title does not repeat. ``keep`` gains the lines
    in place; returns the tokens spent. It reads headings, positions and which goal terms a line holds."""
    if most <= 0 or units_each <= 0 or allowance <= 0:
        return 0
    units, page = pa.units, pa.page
    heads = units.heads
    scored = sorted(((len(line_terms.get(h, ())), h) for h in headings(pa)), key=lambda t: (-t[0], t[1]))
    picks = [h for c, h in scored[:most] if c >= max(at_least, 1)]
    spent = 0
    for r, h in enumerate(picks):
        cap = allowance // 2 if r == 0 and len(picks) > 1 else allowance
        lo, hi = section(pa, h)
        k = units.of_line[h]
        j = k + 1 if k >= 0 else bisect_right(heads, h)
        taken = 0
        while j < len(heads) and heads[j] < hi and taken < units_each:
            if heads[j] > h and page.subtree_tokens(heads[j]) <= max_tokens:
                spent += take_own_lines(pa, keep, j, spent, cap, spare=False)
                taken += 1
            j += 1
    return spent
