"""Goals that ask for an extreme of a listing ("the cheapest", "the most cited", "bottom of
the table"): the answer can be any item, so every item keeps its name and its numbers.

An extreme is recognised by the shape of English comparison words (superlatives in ``-est``,
most/least, top/bottom, first/last, highest/lowest ...), not by a list of any page's phrases.
"""

from __future__ import annotations

import re

from pagelens.focus.base import FocusQuery
from pagelens.focus.terms import normalise, query_terms, without_quotes
from pagelens.focus.units import HEADING_ROLES, Page, header_row

_EXTREME = re.compile(r"\b(?:most|least|top|bottom|first|last|highest|lowest|fewest|largest|smallest|best|worst|"
                      r"[a-z]{2,}est)\b")
#: Words that end in -est without being superlatives.
_NOT_SUPERLATIVE = frozenset(["interest", "request", "rest", "test", "forest", "guest", "west", "suggest", "honest", "contest", "manifest", "harvest", "digest", "protest", "nest", "chest", "quest", "arrest", "invest", "modest", "pest", "vest", "zest", "crest", "attest", "detest", "digest", "latest_", "priest"])
_NUMBER = re.compile(r"\d")
#: One number in a short line, not glued to letters before it ("$12.99", "Weight: 3 kg", "12.5%").
_VALUE = re.compile(r"^(?:\D{0,24}[^\w])?\d[\d,. ]*\D{0,30}$")
_LETTER = re.compile(r"[^\W\d_]{2}")
#: A line written with money (a currency sign or code).
CURRENCY = re.compile(r"[$€£¥₹₩₽]|\b(?:eur|usd|gbp|chf|jpy)\b", re.IGNORECASE)


def asks_extreme(goal: str) -> bool:
    low = normalise(without_quotes(goal))
    return any(m.group(0) not in _NOT_SUPERLATIVE for m in _EXTREME.finditer(low))


def listings(page: Page, min_items: int = 4) -> list[list[int]]:
    """Runs of 4+ siblings sharing a role (rows, list items, articles, cards)."""
    kids: dict[int, dict[str, list[int]]] = {}
    for i, ln in enumerate(page.lines):
        if ln.role in ("StaticText", "ListMarker", "option", "none", "LineBreak"):
            continue
        kids.setdefault(page.parents[i], {}).setdefault(ln.role, []).append(i)
    return [same for by_role in kids.values() for same in by_role.values() if len(same) >= min_items]


def projection(page: Page, hits: dict[int, frozenset[str]], tokens: int, max_listings: int = 3,
               values: frozenset[int] = frozenset()) -> list[int]:
    """For the listings the goal's words hit most (the largest ones when none is hit), best
    first while ``tokens`` last: every item's name, its short lines holding numbers and the
    lines the goal hits (of the ``values`` the goal asks for — its prices, its dates — only those
    when the item has some: a wide row keeps its name and the compared cell). A small listing the goal's words hit (a few related links) leaves the
    rest of the budget to the next one (the table the goal means but does not name)."""
    scored = []
    for same in listings(page):
        same = [c for c in same if not _header_row(page, c)]  # a table's column names are not an item
        if not same:
            continue
        n_hit = sum(1 for c in same if any(hits.get(j) for j in range(c, page.ends[c])))
        if _context_hit(page, hits, same[0]):
            n_hit += (len(same) + 1) // 2  # the heading or caption over it names what the goal asks about
        # items compared by an extreme show a value of their own (a short line with a number):
        # a run of prose paragraphs that repeat the goal's words is not such a listing
        comparable = sum(1 for c in same if _has_value(page, c)) / len(same)
        scored.append((-n_hit * (0.05 + comparable), -len(same), same[0], same))
    scored.sort(key=lambda t: t[:3])
    out: list[int] = []
    for rank, (neg_hit, _, _, same) in enumerate(scored[:max_listings]):
        left = tokens - sum(page.cost[j] + 1 for j in set(out))
        if left < 40 or (rank > 0 and neg_hit == 0):  # a further listing only when the goal points at it
            break
        if page.lines[same[0]].role == "row":  # compared cells need their column names (and sort links)
            hdr = header_row(page, same[0])
            if hdr and sum(page.cost[j] + 1 for j in hdr) <= left // 4:
                out += hdr
                left -= sum(page.cost[j] + 1 for j in hdr)
        out += _project(page, hits, _with_nested(page, same), left, values)
    return sorted(set(out))


#: Roles of items that nest (a reply inside a comment, a sub-task inside a task).
_NESTING = frozenset({"listitem", "article", "treeitem", "comment"})


def _with_nested(page: Page, items: list[int]) -> list[int]:
    """The listing's items with the items nested in them (replies are compared too)."""
    out: list[int] = []
    for c in items:
        out.append(c)
        role = page.lines[c].role
        if role in _NESTING:
            out += [j for j in range(c + 1, page.ends[c]) if page.lines[j].role == role]
    return out


def _own_lines(page: Page, c: int, starts: frozenset[int]) -> list[int]:
    """Lines of item ``c`` outside the items nested in it."""
    out: list[int] = []
    j = c + 1
    out.append(c)
    while j < page.ends[c]:
        if j in starts:
            j = page.ends[j]
            continue
        out.append(j)
        j += 1
    return out


def _titled(page: Page, j: int, max_chars: int = 40) -> bool:
    ln = page.lines[j]
    return ln.role in ("link", "heading", "cell", "gridcell", "button") or len(ln.name) <= max_chars


def _context_terms(page: Page, hits: dict[int, frozenset[str]], first: int, window: int = 60) -> set[str]:
    """The goal's terms in the lines just before a listing, back to the nearest heading."""
    out: set[str] = set()
    for j in range(first - 1, max(-1, first - window), -1):
        out |= hits.get(j, frozenset())
        if page.lines[j].role in HEADING_ROLES:
            break
    return out


def _has_value(page: Page, c: int, max_chars: int = 40, max_lines: int = 80) -> bool:
    """Whether item ``c`` holds a short line showing one value (a price, a count, a share):
    not an identifier (digits glued to letters) nor a footnote link (a bare small number)."""
    for j in range(c, min(page.ends[c], c + max_lines)):
        ln = page.lines[j]
        if not 0 < len(ln.name) <= max_chars or not _VALUE.match(ln.name):
            continue
        if ln.role == "link" and ln.name.strip().isdigit() and len(ln.name.strip()) <= 3:
            continue
        return True
    return False


def _small_row(page: Page, c: int, max_tokens: int = 48, max_cells: int = 8) -> bool:
    """A table row of a few short cells."""
    if page.lines[c].role != "row" or page.subtree_tokens(c) > max_tokens:
        return False
    return sum(1 for j in range(c + 1, page.ends[c]) if page.parents[j] == c) <= max_cells


def _header_row(page: Page, c: int) -> bool:
    kids = [j for j in range(c + 1, page.ends[c]) if page.parents[j] == c]
    return page.lines[c].role == "row" and bool(kids) and all(
        page.lines[j].role in ("columnheader", "rowheader") for j in kids)


def _context_hit(page: Page, hits: dict[int, frozenset[str]], first: int, window: int = 60) -> bool:
    """Whether the goal's words hit the listing's container name or the nearest heading before it."""
    p = page.parents[first]
    if p >= 0 and hits.get(p):
        return True
    for j in range(first - 1, max(-1, first - window), -1):
        role = page.lines[j].role
        if role in HEADING_ROLES:
            return bool(hits.get(j))
        if role in ("columnheader", "caption") and hits.get(j):
            return True  # a table's column names or caption name what its rows compare
    return False


def _project(page: Page, hits: dict[int, frozenset[str]], items: list[int], tokens: int,
             values: frozenset[int] = frozenset()) -> list[int]:
    out: list[int] = []
    spent = 0
    # of the items the goal names ("the cheapest *headphones*"), when it names some: a term
    # that most items carry ("Add to cart") names none of them
    # terms of the listing's own name (its column names, caption, heading) and kinds of value
    # (``§date``) name no item: they describe the whole listing
    general = _context_terms(page, hits, items[0])
    starts = frozenset(items)
    lines_of = {c: _own_lines(page, c, starts) for c in items}
    # an item is named by its title (a link, a heading, a short line), not by a word in its prose
    item_hits = [{t for j in lines_of[c] if _titled(page, j) for t in hits.get(j, frozenset())
                  if t not in general and t[0] != "§"} for c in items]
    seen_in: dict[str, int] = {}
    for h in item_hits:
        for t in h:
            seen_in[t] = seen_in.get(t, 0) + 1
    named_items = [c for c, h in zip(items, item_hits, strict=True)
                   if any(seen_in[t] <= len(items) // 2 for t in h)]
    whole = False
    if named_items:
        items = named_items
        whole = True  # the goal's own candidates: whole, when they are small
    # the head of the listing whole (sorted listings: "the newest" is the first item), then
    # every item from both ends inwards ("the last", "bottom of the table" sit at the end)
    for c in items[:2]:
        cost = page.subtree_tokens(c)
        if cost <= 120 and spent + cost <= tokens // 3:
            out += range(c, page.ends[c])
            spent += cost
    order = [items[k // 2] if k % 2 == 0 else items[-1 - k // 2] for k in range(len(items))]

    def numeric(j: int) -> bool:
        return len(page.lines[j].name) <= 40 and bool(_NUMBER.search(page.lines[j].name))

    # the value compared is the one the goal's words name, when most items show one ("N votes"
    # for "the most votes"): then the items' other numbers (dates, ids) stay out
    named_values = {c: {j for j in lines_of.get(c, ()) if numeric(j) and _VALUE.match(page.lines[j].name)
                        and any(t[0] != "§" for t in hits.get(j, ()))}
                    for c in items}
    by_name = sum(1 for c in items if named_values[c]) >= max(2, (len(items) + 1) // 2)
    for c in order:
        named = [j for j in lines_of[c] if page.lines[j].name]
        if not named:
            continue
        if (whole and page.subtree_tokens(c) <= 60) or _small_row(page, c):
            # a table row is answered by its key and its value together: a short row whole
            # (the readable name is not always the first cell: a code, then the name, then values)
            cost = page.subtree_tokens(c)
            if spent + cost > tokens:
                break
            out += range(c, page.ends[c])
            spent += cost
            continue
        pick = named[:1]
        title = next((j for j in named if page.lines[j].role in ("link", "heading") and _LETTER.search(page.lines[j].name)),
                     None)
        valued = bool(values) and any(j in values for j in named)
        if title is None and valued:  # the item's name: its first worded line that is no value
            title = next((j for j in named if j not in values and _LETTER.search(page.lines[j].name)), None)
        if title is not None and title not in pick:
            if page.lines[title].name and page.lines[title].name in page.lines[pick[0]].name:
                pick = []  # the item's own name only repeats its title's
            pick.append(title)
        for j in named[1:]:
            own = hits.get(j, frozenset())
            if any(0 < seen_in.get(t, 0) <= len(items) // 2 for t in own) or (
                    (j in values) if valued else (j in named_values[c]) if by_name else numeric(j)):
                pick.append(j)
        if page.lines[pick[0]].role in HEADING_ROLES:
            pick += range(pick[0], page.ends[pick[0]])  # the item's title with its link
        cost = sum(page.cost[j] + 1 for j in pick)
        if spent + cost > tokens:
            break
        out += pick
        spent += cost
    return sorted(set(out))


#: Concepts that are a value an extreme compares (a price, an amount, a date, a count).
_VALUE_CONCEPTS = frozenset({"§price", "§amount", "§date", "§count", "§quantity", "§newest"})


def compared_values(page: Page, line_terms: dict[int, frozenset[str]], asked: set[str]) -> frozenset[int]:
    """The lines that show a value of a kind the goal compares; for money, only the lines written
    with a currency when the page has any (not durations or weights), plus the other kinds asked."""
    values = frozenset(j for j, h in line_terms.items() if h & asked)
    money_kinds = {"§price", "§amount"}
    if asked & money_kinds:
        money = frozenset(j for j in values if CURRENCY.search(page.lines[j].name))
        if money:
            values = money | frozenset(j for j in values if line_terms[j] & (asked - money_kinds))
    return values


def compared_kinds(query: FocusQuery) -> set[str]:
    """The kinds of value the goal compares, as the concepts a page line carries."""
    return set(query_terms(query)[0]) & _VALUE_CONCEPTS
