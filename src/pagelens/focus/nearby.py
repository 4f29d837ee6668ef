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

from collections.abc import Callable, Sequence

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.cores import take_own_lines
from pagelens.focus.units import HEADING_ROLES


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
          allowance: int, admit: Callable[[int, int], bool] | None = None) -> int:
    """After the budget fill: each of ``order``'s first ``best`` units that was kept brings the units
    beside it (:func:`beside`, nearest first) that are not shown yet, while their lines fit ``allowance``
    tokens in all; the lines are added to ``keep`` in place. Returns the tokens spent. Nothing the fill
    kept is dropped: a view only gains lines. ``admit(k, j)``: whether unit ``j`` may come beside unit ``k``
    (:meth:`.context.Guard.unit`; None: every one)."""
    units = pa.units
    spent = 0
    if best <= 0 or reach <= 0 or allowance <= 0:
        return 0
    for k in order[:best]:
        if units.heads[k] not in keep:
            continue
        for j in beside(pa, k, reach, max_tokens):
            if admit is not None and not admit(k, j):
                continue
            spent += take_own_lines(pa, keep, j, spent, allowance)
    return spent


def leftover(pa: PageAnalysis, keep: set[int], order: Sequence[int], best: int, reach: int, max_tokens: int,
             allowance: int, admit: Callable[[int, int], bool] | None = None) -> int:
    """The budget the fill left unspent (``allowance``: it ran out of ranked units, or none of the rest fit) goes
    to the document-order neighbourhood of ``order``'s first ``best`` kept units, as a chunk around them would
    hold it: the units ``1, 2, ... reach`` before and after each of them (nearest first, every best unit at one
    distance before any at the next; the unit after a best unit before the one before it), each at most
    ``max_tokens`` tokens, that are not shown yet, while their own lines fit ``allowance`` (a choice's spare
    options left out, as the fill leaves them). Headings and containers are no limit (a chunk has none). It
    reads unit positions and the fused order only, never a word. ``keep`` gains the lines in place; returns the
    tokens spent. ``admit``: as :func:`bring`'s."""
    units, page = pa.units, pa.page
    heads = units.heads
    n = len(heads)
    if best <= 0 or reach <= 0 or allowance <= 0:
        return 0
    tops = [k for k in order[:best] if heads[k] in keep]
    spent = 0
    for d in range(1, reach + 1):
        for k in tops:
            for j in (k + d, k - d):
                if (0 <= j < n and heads[j] not in keep and page.subtree_tokens(heads[j]) <= max_tokens
                        and (admit is None or admit(k, j))):
                    spent += take_own_lines(pa, keep, j, spent, allowance, spare=False)
    return spent
