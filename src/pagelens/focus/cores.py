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

from collections.abc import Callable, Iterable

from pagelens.focus.analysis import PageAnalysis


def cores_first(pa: PageAnalysis, order: list[int], tokens: int, add: Callable[[Iterable[int]], None],
                cost_of: Callable[[Iterable[int]], int], spent: Callable[[], int],
                skipped: list[int] | None = None) -> int:
    """Add the own lines of ``order``'s units, best first, while the total spent stays within
    ``tokens``; a unit that does not fit is skipped (a smaller one below it may) and appended to
    ``skipped`` when given. Returns how many units were added."""
    page, units = pa.page, pa.units
    added = 0
    for k in order:
        if spent() >= tokens:
            break
        u = units.heads[k]
        own = range(u, page.ends[u])
        members = units.members[k]  # lines of the unit's subtree: the same lines when as many
        for span in (own,) if len(members) == len(own) else (own, members):
            if spent() + cost_of(span) <= tokens:
                add(span)
                added += 1
                break
        else:
            if skipped is not None:
                skipped.append(k)
    return added
