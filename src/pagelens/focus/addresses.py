"""The words a link's own address carries: a goal word no visible text holds may be in the url.

A link's typed line carries its ``url`` (:attr:`pagelens.types.Line.url`), which no signal reads: unit texts
hold only what is shown. Addresses often say in plain words what a link is for -- path segments, file names,
fragment ids, query keys and values (``/settings/notifications``, ``#installing-packages``, ``?sort=price``) --
and on translated pages they often stay in English, or are in the page's language where the visible name is an
icon or a number. :func:`address_words` splits an address the same way for every language (percent-decoded;
scheme and host dropped; split on ``/ - _ . # ? = & + ~ : ; , % @ !`` and at camelCase humps; lowercased; stemmed as the
goal's words are, :func:`pagelens.focus.terms.terms_of`; numbers and words under three letters dropped).
:func:`address_units` finds the units holding a link whose address carries a goal word that the unit's visible
text lacks; :func:`insert_after` puts them into the fused order after its first ``n`` units (a post-fusion
step: the learned fusion's inputs do not change). BENCHMARKS.md, "Focus, twenty-sixth pass".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from urllib.parse import unquote, urlsplit

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.base import FocusQuery

_SPLIT = re.compile(r"[/\-_.#?=&+~:;,%@!]+")
_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_MIN_LEN = 3


@lru_cache(maxsize=65536)
def address_words(url: str) -> frozenset[str]:
    """The stemmed words of ``url``'s path, query and fragment (plain stems, as :func:`.terms.terms_of` makes them
    of each word alone: no numbers, concepts or joined pairs, which would read across segment boundaries)."""
    from pagelens.focus.terms import WORD, _stem, normalise

    if not url or url.startswith(("javascript:", "data:", "mailto:", "tel:")):
        return frozenset()
    try:
        parts = urlsplit(url)
    except ValueError:
        return frozenset()
    rest = f"{parts.path} {parts.query} {parts.fragment}"
    out: set[str] = set()
    for piece in _SPLIT.split(unquote(rest)):
        for p in _HUMP.sub(" ", piece).split():
            if len(p) < _MIN_LEN or any(c.isdigit() for c in p):
                continue
            for w in WORD.findall(normalise(p)):
                if not w[0].isdigit():
                    t = _stem(w)
                    if len(t) >= _MIN_LEN:
                        out.add(t)
    return frozenset(out)


def _page_index(pa: PageAnalysis) -> tuple[int, dict[str, list[int]]]:
    """The page's url lines: how many, and each address word's lines (built once per page, kept in ``pa.indexes``)."""
    index = pa.indexes.get("address_words")
    if index is None:
        n_url = 0
        by_word: dict[str, list[int]] = {}
        for i, ln in enumerate(pa.page.lines):
            if not ln.url:
                continue
            n_url += 1
            for t in address_words(ln.url):
                by_word.setdefault(t, []).append(i)
        index = pa.indexes["address_words"] = (n_url, by_word)
    return index  # type: ignore[no-any-return]


def address_units(pa: PageAnalysis, goal_terms: Mapping[str, float], visible: Sequence[frozenset[str]] | None = None,
                  max_share: float = 1.0) -> list[tuple[int, float]]:
    """Units holding a line with a url whose address words include goal terms the unit's visible text lacks, with the
    summed weight of those terms, best first (ties: document order). A term counts only where it is distinctive: in
    the addresses of at most ``max_share`` of the page's url lines (at least 2 of them) -- a word in every address
    (the site's or the item's name) tells no link apart. ``visible``: each unit's terms (from its text when not
    given)."""
    from pagelens.focus.terms import terms_of

    plain = {t: w for t, w in goal_terms.items() if t[0] not in "§+" and not t[0].isdigit() and len(t) >= _MIN_LEN}
    if not plain:
        return []
    n_url, by_word = _page_index(pa)
    most = max(2, int(max_share * n_url))
    of_line = pa.units.of_line
    found: dict[int, set[str]] = {}
    for t in plain:
        lines = by_word.get(t)
        if not lines or len(lines) > most:
            continue
        for i in lines:
            k = of_line[i]
            if k >= 0:
                found.setdefault(k, set()).add(t)
    out: list[tuple[int, float]] = []
    for k, words in found.items():
        seen: frozenset[str] = visible[k] if visible is not None else frozenset(terms_of(pa.units.texts[k]))
        lacking = words - seen
        if lacking:
            out.append((k, sum(plain[t] for t in lacking)))
    out.sort(key=lambda kw: (-kw[1], kw[0]))
    return out


def insert_after(order: Sequence[int], picks: Sequence[int], n: int) -> list[int]:
    """``order`` with ``picks`` (in their order) moved to just after its first ``n`` units (a pick already among
    those stays where it is)."""
    head = list(order[:n])
    placed = set(head)
    moved = [k for k in picks if k not in placed]
    moved_set = set(moved)
    return [*head, *moved, *(k for k in order[n:] if k not in moved_set)]


def order_with_addresses(pa: PageAnalysis, query: FocusQuery, order: Sequence[int], units: int, after: int,
                         max_share: float) -> list[int]:
    """``order`` with the best ``units`` of :func:`address_units` (the goal's terms, :func:`.terms.query_terms`)
    moved to just after its first ``after`` units; ``order`` itself (as a list) when none is found."""
    from pagelens.focus.terms import query_terms

    weights, _ = query_terms(query)
    picks = [k for k, _ in address_units(pa, weights, max_share=max_share)[:units]]
    return insert_after(order, picks, after) if picks else list(order)
