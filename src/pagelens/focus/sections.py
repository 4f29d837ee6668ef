"""Sections of a long page: a heading that names the goal brings the body of its section.

On a long manual the answer often sits in the body of the section whose title names the goal, in words the title does
not repeat: no signal ranks those lines, and the fill spends its budget elsewhere on the page. A section
(:func:`section`) runs from a named heading to the next one, never past its nearest landmark's edge; on a page of at
least ``RulesConfig.section_page_tokens`` tokens the headings carrying the most distinct goal terms bring units of their
section after them (:func:`section_leads`), from a small allowance of their own (the fill's view only gains lines).
BENCHMARKS.md, "Focus, thirty-eighth pass" (S2) and "thirty-ninth pass" (which units of the section come).
It reads roles, positions, which goal terms a line holds and the fused order; never a word of its own.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from typing import Protocol

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.cores import take_own_lines
from pagelens.focus.units import HEADING_ROLES


class SectionConfig(Protocol):
    """The fields of :class:`pagelens.focus.rules.RulesConfig` :func:`by_config` reads (named here, not imported:
    rules imports this module)."""

    @property
    def section_terms(self) -> int: ...
    @property
    def section_headings(self) -> int: ...
    @property
    def section_units(self) -> int: ...
    @property
    def section_share(self) -> float: ...
    @property
    def section_pick(self) -> str: ...
    @property
    def section_max_share(self) -> float: ...
    @property
    def leftover_tokens(self) -> int: ...


#: Roles whose subtree is a region of the page of its own (ARIA landmarks, a form, a dialog): a section
#: (:func:`section`) never crosses one's edge.
LANDMARK_ROLES = frozenset({"main", "navigation", "banner", "contentinfo", "complementary", "region", "article",
                            "form", "search", "dialog", "alertdialog"})
_HEADINGS = "sections.headings"


def headings(pa: PageAnalysis) -> list[int]:
    """Positions of the page's named heading lines, in document order (built once per page)."""
    got = pa.indexes.get(_HEADINGS)
    if got is None:
        got = pa.indexes[_HEADINGS] = [i for i, ln in enumerate(pa.page.lines) if ln.role in HEADING_ROLES and ln.name]
    return got


def section(pa: PageAnalysis, at: int) -> tuple[int, int]:
    """The line range ``[lo, hi)`` of the section holding line ``at``: from the last named heading at or before it
    to the next one after its subtree (the page's start and end without one; the tree gives no heading levels, so a
    sub-heading ends a section too), never past the edge of its nearest landmark ancestor (:data:`LANDMARK_ROLES`)."""
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


def _section_units(pa: PageAnalysis, h: int, max_tokens: int) -> list[int]:
    """The units of heading line ``h``'s section after it, in document order, each at most ``max_tokens`` tokens."""
    units, page = pa.units, pa.page
    heads = units.heads
    _, hi = section(pa, h)
    k = units.of_line[h]
    j = k + 1 if k >= 0 else bisect_right(heads, h)
    got = []
    while j < len(heads) and heads[j] < hi:
        if heads[j] > h and page.subtree_tokens(heads[j]) <= max_tokens:
            got.append(j)
        j += 1
    return got


def _picked(pa: PageAnalysis, cands: list[int], units_each: int, pick: str, line_terms: Mapping[int, frozenset[str]],
            rank: Mapping[int, int]) -> list[int]:
    """Which of a section's units come: ``""`` the first ``units_each``; ``"terms"`` the first ``units_each`` whose own
    lines hold a goal term; ``"ranked"`` the ``units_each`` the fused order ranks best (unranked ones never)."""
    if pick == "ranked":
        return sorted((j for j in cands if j in rank), key=rank.__getitem__)[:units_each]
    if pick == "terms":
        page, heads = pa.page, pa.units.heads
        return [j for j in cands if any(line_terms.get(i) for i in range(heads[j], page.ends[heads[j]]))][:units_each]
    return cands[:units_each]


def section_leads(pa: PageAnalysis, keep: set[int], line_terms: Mapping[int, frozenset[str]], at_least: int,
                  most: int, units_each: int, max_tokens: int, allowance: int, *, pick: str = "",
                  order: Sequence[int] = (), max_share: float = 0.0, brought: list[int] | None = None) -> int:
    """The named headings that carry the most distinct goal terms (at least ``at_least``; the ``most`` best, ties to
    the earlier) bring units of their :func:`section` after them (:func:`_picked`), in that order, own lines (a
    choice's spare options left out), while they fit ``allowance`` tokens in all (its half for the first heading, then
    what is left). ``max_share`` > 0: only headings whose section holds at most this share of the page's tokens
    count. ``keep`` gains the lines in place; ``brought`` (when given) the units that added lines. Returns the
    tokens spent."""
    if most <= 0 or units_each <= 0 or allowance <= 0:
        return 0
    scored = sorted(((len(line_terms.get(h, ())), h) for h in headings(pa)), key=lambda t: (-t[0], t[1]))
    picks: list[int] = []
    for c, h in scored:
        if len(picks) >= most or c < max(at_least, 1):
            break
        # a heading whose section is a large part of the page (its title, a chapter) points nowhere
        if max_share <= 0 or pa.page.span_tokens(*section(pa, h)) <= max_share * pa.page.total:
            picks.append(h)
    rank = {k: r for r, k in enumerate(order)} if pick == "ranked" else {}
    spent = 0
    for r, h in enumerate(picks):
        cap = allowance // 2 if r == 0 and len(picks) > 1 else allowance
        for j in _picked(pa, _section_units(pa, h, max_tokens), units_each, pick, line_terms, rank):
            got = take_own_lines(pa, keep, j, spent, cap, spare=False)
            if got and brought is not None:
                brought.append(j)
            spent += got
    return spent


def by_config(cfg: SectionConfig, pa: PageAnalysis, keep: set[int], line_terms: Mapping[int, frozenset[str]],
              order: Sequence[int], budget: int) -> int:
    """:func:`section_leads` with ``cfg``'s ``section_*`` fields (each unit at most ``cfg.leftover_tokens``)."""
    return section_leads(pa, keep, line_terms, cfg.section_terms, cfg.section_headings, cfg.section_units,
                         cfg.leftover_tokens, int(budget * cfg.section_share), pick=cfg.section_pick, order=order,
                         max_share=cfg.section_max_share)
