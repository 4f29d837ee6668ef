"""Units ranked high that the fill skipped come back (a pass of :meth:`.rules.RulesRetriever._fill`).

:func:`.cores.cores_first` keeps the best units' own lines in fused order up to a share of the budget; at
that edge a unit that does not fit is skipped while smaller units ranked below it are kept. The fill then
spends the rest of the budget on the partners, answer contexts and forms of the best units and, on most
pages, stops before it comes back to the unit the cores pass skipped (BENCHMARKS.md, "Focus, twenty-third
pass": 29 of the 31 items lost that way). Two ways to bring such units back, both reading the fused order
and the tree only (no words):

* :func:`skipped_back` — right after the cores pass, the units it skipped keep their own lines, best
  first, while the total spent stays within a (larger) share of the budget;
* :func:`after_fill` — after the fill, the order's best units whose head line is not shown keep their own
  lines from a small allowance of tokens beyond the budget (the fill's view only gains lines).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.cores import cores_first, take_own_lines


def skipped_back(pa: PageAnalysis, skipped: Sequence[int], tokens: int, add: Callable[[Iterable[int]], None],
                 cost_of: Callable[[Iterable[int]], int], spent: Callable[[], int]) -> int:
    """Add the own lines (subtree, else member lines) of the ``skipped`` units, in their order, while the
    total spent stays within ``tokens``; a unit that still does not fit is passed over. Returns how many
    units were added."""
    return cores_first(pa, skipped, tokens, add, cost_of, spent)  # the same pass over the skipped units alone


def after_fill(pa: PageAnalysis, keep: set[int], order: Sequence[int], first: int, max_tokens: int,
               allowance: int) -> int:
    """After the budget fill: each of ``order``'s first ``first`` units whose head line is not in ``keep``
    and whose own lines cost at most ``max_tokens`` gets those lines, best first, while they fit
    ``allowance`` tokens in all; ``keep`` gains them in place. Returns the tokens spent."""
    page, units = pa.page, pa.units
    spent = 0
    if first <= 0 or allowance <= 0:
        return 0
    for k in order[:first]:
        u = units.heads[k]
        if u in keep or page.subtree_tokens(u) > max_tokens:
            continue
        spent += take_own_lines(pa, keep, k, spent, allowance)
    return spent
