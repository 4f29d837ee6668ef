"""Questions whose answer is several rows of one list or table: the matched row brings its siblings.

The ranker scores units one by one and the budget fill takes the best, so when a goal asks for a *set* of
rows (who or what of a kind is in some state, how many there are, the total of a column, every choice, a
comparison of offers) the first matching row is kept and its siblings stay below the line. This module

* recognises such a goal by general question patterns in several languages (:func:`asks_rows`: a count,
  a total, a set — "which … are", "all", "every", "list" —, a comparison), never a page's or a case's phrase;
* finds the *repeated group* a unit sits in (:func:`item_of`: the nearest ancestor that is one of 3+
  siblings sharing a role — a table row, a list item, an article, a card of a grid), by the tree alone;
* gives the lines of the group's other items, with the table's header row, up to a token cap
  (:func:`sibling_lines`): the items the order also ranks first, then the others in reading order.

:meth:`pagelens.focus.rules.RulesRetriever.select` adds those lines before the fill (they displace the
order's tail; the budget stays the same) when :attr:`~pagelens.focus.rules.RulesConfig.rows_share` is set.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.terms import normalise, without_quotes
from pagelens.focus.units import BARRIER_ROLES, HEADER_CELL_ROLES, Page, header_row

__all__ = ["RepeatedItem", "asks_rows", "item_of", "sibling_lines"]

#: Roles of the items of a list or table.
ITEM_ROLES = frozenset({"row", "listitem", "article", "treeitem"})
#: Containers whose 3+ rich children of one role are a grid of cards.
CARD_ROLES = frozenset({"generic", "group", "region", "section", "Section", "figure", "LayoutTableRow"})
#: A card of a grid holds at least this many lines (a run of bare texts or links is not a grid).
CARD_LINES = 3
#: How far up from a unit's head an item is looked for.
MAX_UP = 6

# A goal asking for several rows: a count, a total, a set, a comparison, in the languages of the lexicon.
_ROWS = re.compile(
    r"\bhow many\b|\bnumber of\b|\btotal\b|\bsum of\b|\baltogether\b|\bcombined\b|\blist\b|\ball\b|\bevery\b|\beach\b"
    r"|\bboth\b|\bcompare\b|\bcomparison\b|\bdifference between\b|\bversus\b"
    r"|\bwhich\b(?:\s+[\w'-]+){0,3}?\s+(?:are|were|have|do)\b|\bwho (?:are|were)\b|\bwhat\b(?:\s+[\w'-]+){0,3}?\s+(?:are|were)\b"
    r"|\bwie viele\b|\banzahl\b|\binsgesamt\b|\bgesamt\w*|\bsumme\b|\balle\b|\bjede[nmrs]?\b|\bwelche\b|\bvergleich\w*"
    r"|\bcombien\b|\bnombre de\b|\btous\b|\btoutes\b|\bchaque\b|\bquels\b|\bquelles\b|\bcompar\w*"
    r"|\bcu[aá]nt[oa]s\b|\bn[uú]mero de\b|\btodos\b|\btodas\b|\bcada\b|\bcu[aá]les\b|\bquais\b|\bquant[oa]s\b"
    r"|\bquanti\b|\bquante\b|\bnumero di\b|\btotale\b|\btutti\b|\btutte\b|\bogni\b|\bquali\b|\belenco\b|\bconfront\w*"
    r"|\bhoeveel\b|\baantal\b|\btotaal\b|\belke\b|\bwelke\b|\bvergelijk\w*"
    r"|сколько|всего|итого|\bвсе\b|\bвсех\b|\bкажд\w*|\bкакие\b|\bсписок\b|сравн\w*"
    r"|いくつ|何件|何人|何個|合計|すべて|全て|全部|一覧|比較"
    r"|多少|几个|幾個|总共|總共|合计|總計|总计|所有|全部|哪些|列出|比较|比較"
    r"|몇\s*(?:개|명|건)|합계|모든|목록|비교")


def asks_rows(goal: str) -> bool:
    """Whether a goal asks for several rows or items: a count, a total, a set, every item, a comparison
    (general question patterns, the quoted text left out)."""
    return _ROWS.search(normalise(without_quotes(goal))) is not None


@dataclass(frozen=True, slots=True)
class RepeatedItem:
    """A line's item in a repeated group: ``item`` (a line position) and its ``siblings`` (the group's items,
    ``item`` among them, in reading order; a table's header rows left out)."""

    item: int
    siblings: tuple[int, ...]


def _children(page: Page, p: int) -> list[int]:
    out: list[int] = []
    j = p + 1
    while j < page.ends[p]:
        out.append(j)
        j = page.ends[j]
    return out


def _is_header(page: Page, r: int) -> bool:
    return any(page.lines[j].role in HEADER_CELL_ROLES for j in range(r + 1, min(page.ends[r], r + 40)))


def item_of(page: Page, i: int) -> RepeatedItem | None:
    """The repeated group line ``i`` sits in: the nearest of ``i`` and its ancestors (at most :data:`MAX_UP` up, not
    past a page's root) that is one of 3+ siblings sharing its role — items of :data:`ITEM_ROLES`, or cards (:data:`CARD_ROLES`
    of :data:`CARD_LINES`+ lines each); None when there is none."""
    a = i
    for _ in range(MAX_UP + 1):
        if a < 0 or page.lines[a].role in BARRIER_ROLES:
            return None
        p = page.parents[a]
        role = page.lines[a].role
        if p >= 0 and (role in ITEM_ROLES or role in CARD_ROLES):
            same = [c for c in _children(page, p) if page.lines[c].role == role]
            if role == "row":
                same = [c for c in same if c == a or not _is_header(page, c)]
            elif role in CARD_ROLES:
                same = [c for c in same if page.ends[c] - c >= CARD_LINES]
            if len(same) >= 3 and a in same:
                return RepeatedItem(a, tuple(same))
        a = p
    return None


def sibling_lines(pa: PageAnalysis, order: Sequence[int], top: int, tokens: int, item_tokens: int,
                  pick: str = "first") -> list[int]:
    """For the best-ranked of ``order``'s first ``top`` units that sits in a repeated group (:func:`item_of`; with
    ``pick="most"``, the group holding most of those units, the best-ranked first on a tie): the table's header row,
    then the own lines of the group's other items — first those holding a unit the order ranks (best first), then
    the rest in reading order — each item at most ``item_tokens`` tokens, while they total at most ``tokens`` (each
    line's tokens plus one). Empty when no such unit, or nothing fits."""
    page, heads = pa.page, pa.units.heads
    if tokens <= 0 or top <= 0:
        return []
    groups: dict[tuple[int, ...], tuple[int, RepeatedItem]] = {}
    for k in order[:top]:
        got = item_of(page, heads[k])
        if got is None:
            continue
        if pick != "most":
            groups[got.siblings] = (1, got)
            break
        n, best = groups.get(got.siblings, (0, got))
        groups[got.siblings] = (n + 1, best)
    if not groups:
        return []
    found = max(groups.values(), key=lambda v: v[0])[1]  # (max keeps the first of equals: the best-ranked group)
    out: list[int] = []
    left = tokens
    if page.lines[found.item].role == "row":
        hdr = header_row(page, found.item)
        cost = sum(page.cost[j] + 1 for j in hdr)
        if hdr and cost <= left // 4:
            out += hdr
            left -= cost
    sibs = found.siblings
    rank: dict[int, int] = {}
    for r, k in enumerate(order):
        h = heads[k]
        if sibs[0] <= h < page.ends[sibs[-1]]:
            rank.setdefault(h, r)
    first: dict[int, int] = {}
    for s in sibs:
        inside = [r for h, r in rank.items() if s <= h < page.ends[s]]
        if inside:
            first[s] = min(inside)
    ordered = sorted(first, key=lambda s: first[s]) + [s for s in sibs if s not in first]
    for s in ordered:
        span = range(s, page.ends[s])
        cost = sum(page.cost[j] + 1 for j in span)
        if cost > item_tokens or cost > left:
            continue
        out += span
        left -= cost
    return out
