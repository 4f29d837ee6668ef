"""The best units' own lines before what they bring (a pass of :meth:`.rules.RulesRetriever._fill`).

The fill keeps units best first, each with its partners, a question's answer context and, for a
field, its whole form. On a page whose budget is small (the floor: most application pages, forms,
dashboards) the first few units' partners and forms can spend the budget before a unit ranked
fourth or tenth is reached; the fill then skips it and keeps smaller units ranked below it.

:func:`cores_first` keeps the own lines of the best units first (a unit's subtree, else its member
lines), while they spend at most a share of the budget; the usual fill then runs over the same
order and brings partners, contexts and forms with what the budget has left. It reads the fused
order and the page's tree only: no words, no page-specific markup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.units import SHORT_COST


def cores_first(pa: PageAnalysis, order: Sequence[int], tokens: int, add: Callable[[Iterable[int]], None],
                cost_of: Callable[[Iterable[int]], int], spent: Callable[[], int],
                skipped: list[int] | None = None) -> int:
    """Add the own lines of ``order``'s units, best first, while the total spent stays within
    ``tokens``; a unit that does not fit is skipped (a smaller one below it may) and appended to
    ``skipped`` when given. Returns how many units were added."""
    added = 0
    for k in order:
        if spent() >= tokens:
            break
        span = fitting_span(pa, k, tokens, cost_of, spent)
        if span is not None:
            add(span)
            added += 1
        elif skipped is not None:
            skipped.append(k)
    return added


def fitting_span(pa: PageAnalysis, k: int, tokens: int, cost_of: Callable[[Iterable[int]], int],
                 spent: Callable[[], int]) -> Sequence[int] | None:
    """Unit ``k``'s own lines — its subtree, else its member lines — the first of the two that keeps the
    total spent within ``tokens``; None when neither fits."""
    page, units = pa.page, pa.units
    u = units.heads[k]
    own = range(u, page.ends[u])
    members = units.members[k]  # lines of the unit's subtree: the same lines when as many
    for span in (own,) if len(members) == len(own) else (own, members):
        if spent() + cost_of(span) <= tokens:
            return span
    return None


def take_own_lines(pa: PageAnalysis, keep: set[int], k: int, spent: int, allowance: int, *,
                   spare: bool = True) -> int:
    """Beyond the budget: unit ``k``'s own lines that are not in ``keep`` yet join it when their cost
    (each line's tokens plus one, and a placeholder's) keeps ``spent`` within ``allowance``. Returns the
    tokens this spent (0: nothing to add, or it did not fit). ``spare=False``: a choice's spare options
    (:attr:`.analysis.PageAnalysis.spare`) are left out, as the fill leaves them."""
    page = pa.page
    u = pa.units.heads[k]
    return take_lines(pa, keep, [i for i in range(u, page.ends[u]) if i not in keep and (spare or i not in pa.spare)],
                      spent, allowance)


def take_lines(pa: PageAnalysis, keep: set[int], lines: list[int], spent: int, allowance: int) -> int:
    """Beyond the budget: ``lines`` (none in ``keep``) join it when their cost (each line's tokens plus one, and a
    placeholder's) keeps ``spent`` within ``allowance``. Returns the tokens this spent (0: none, or they did not fit)."""
    if not lines:
        return 0
    cost = sum(pa.page.cost[i] + 1 for i in lines) + SHORT_COST
    if spent + cost > allowance:
        return 0
    keep.update(lines)
    return cost
