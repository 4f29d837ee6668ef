"""Closing small gaps: a short pruned run between two shown lines is shown instead.

A focused view replaces every run of pruned lines by a placeholder (``[p3] ... 2 lines
pruned ...``, about ten tokens). Between two kept lines, a run of one to three short lines
costs little more than its placeholder, and it is where what sits beside a kept line lives:
the value in the text node after its label, the unit after a price, the label above a field,
the count after an icon, the other cell of a two-cell row. Showing such runs raises recall on
any page and any phrasing at a small, bounded cost; which runs qualify depends on their size
and position only, never on their words. Runs at the view's start or end are not gaps.

Pure: reads :class:`~pagelens.focus.units.Page` and the set of kept positions; the lines a
focused view adds on its own (the ancestors of kept lines) count as shown.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from pagelens.focus.units import PLACEHOLDER_COST, Page


def shown_positions(page: Page, keep: AbstractSet[int]) -> list[bool]:
    """Per position: kept, or an ancestor of a kept line (which every view shows)."""
    shown = [False] * len(page.lines)
    for j in keep:
        if shown[j]:
            continue
        shown[j] = True
        for a in page.ancestors(j):
            if shown[a]:
                break
            shown[a] = True
    return shown


def close_gaps(page: Page, keep: set[int], max_tokens: int, max_lines: int = 3,
               skip: AbstractSet[int] = frozenset()) -> int:
    """Add to ``keep`` (in place) every run of at most ``max_lines`` pruned lines, costing at most
    ``max_tokens``, that lies between two shown lines; ``skip``: lines never added this way (a
    choice's spare options). Returns the tokens added, net of the placeholders saved."""
    shown = shown_positions(page, keep)
    n = len(shown)
    added = 0
    i = 0
    while i < n:
        if shown[i]:
            i += 1
            continue
        j = i
        while j < n and not shown[j]:
            j += 1
        if 0 < i and j < n and j - i <= max_lines and not any(x in skip for x in range(i, j)):
            cost = sum(page.cost[x] + 1 for x in range(i, j))
            if cost <= max_tokens:
                keep.update(range(i, j))
                added += cost - PLACEHOLDER_COST
        i = j
    return added


__all__ = ["close_gaps", "shown_positions"]
