"""What the view shows in part: a table row or a short list the fill kept only some of (issue 9).

Units are small: a table row of long cells is cut into one unit per cell, a list into one unit per item. The fill
keeps the units the fused order ranks, so a view can show a row's key and its description but not the cell between
them that the goal asked for (the shortcut of a menu item, the state word of a code), or two items of a short list
whose other items answer the same question. A chunk of the page would hold the whole row and the list around it.

After the fill, each of the fused order's first ``best`` units that the view shows (its head or a member line kept)
completes the structure it sits in, from an allowance of its own beyond the budget:

* ``row``: the table row holding the unit (:func:`.units.row_of`; the row's whole subtree at most ``max_tokens``)
  shows its other lines;
* ``list``: the unit's nearest ancestor-or-self that is one of at least three same-role siblings (list items,
  options, terms, cards; table rows excluded: those are records) brings its siblings, nearest first (the one after
  before the one before), each at most ``max_tokens``, when the run has at most ``max_items`` members (a short list
  is an answer; a long one is a listing whose items compete).

Only lines of the site's own regions (``main``, ``chrome``) are added, and a choice's spare options are left out as
the fill leaves them. It reads the tree's roles, parents and the fused order only: no word of any language.

:attr:`.rules.RulesConfig.complete` turns it on with a spec ``"parts:best:share[:max_tokens[:max_items]]"``
(``parts``: ``row``, ``list`` or ``row+list``; ``""``: off).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.cores import take_lines
from pagelens.focus.units import row_of

_OWN = frozenset({"main", "chrome"})
_NOT_RUNS = frozenset({"row", "StaticText", "ListMarker", "generic", "none", "paragraph", "LineBreak", ""})


@dataclass(frozen=True, slots=True)
class Spec:
    rows: bool
    lists: bool
    best: int
    share: float
    max_tokens: int = 200
    max_items: int = 12


def parse(spec: str) -> Spec | None:
    """``"parts:best:share[:max_tokens[:max_items]]"``; None for ``""``. Raises ValueError on a bad spec."""
    if not spec:
        return None
    f = spec.split(":")
    parts = set(f[0].split("+"))
    if not parts or parts - {"row", "list"} or len(f) < 3 or len(f) > 5:
        raise ValueError(f"bad complete spec {spec!r}")
    nums = [int(f[1]), float(f[2]), *(int(x) for x in f[3:])]
    return Spec("row" in parts, "list" in parts, *nums)  # type: ignore[arg-type]


def _shown(pa: PageAnalysis, keep: set[int], k: int) -> bool:
    return pa.units.heads[k] in keep or any(i in keep for i in pa.units.members[k])


def _add(pa: PageAnalysis, keep: set[int], a: int, spent: int, allowance: int) -> int:
    """Line ``a``'s subtree (own regions, no spare option) not yet kept, when it fits; the tokens spent."""
    page = pa.page
    lines = [i for i in range(a, page.ends[a]) if i not in keep and i not in pa.spare and page.lines[i].region in _OWN]
    return take_lines(pa, keep, lines, spent, allowance)


def _run_of(pa: PageAnalysis, i: int, depth: int = 4) -> tuple[int, list[int]] | None:
    """The nearest ancestor-or-self of line ``i`` (at most ``depth`` up) that is one of ≥ 3 same-role siblings."""
    page = pa.page
    a = i
    for _ in range(depth):
        p = page.parents[a]
        if p < 0:
            return None
        role = page.lines[a].role
        if role not in _NOT_RUNS:
            sib = [j for j in _children(pa, p) if page.lines[j].role == role]
            if len(sib) >= 3:
                return a, sib
        a = p
    return None


def _children(pa: PageAnalysis, p: int) -> list[int]:
    key = "complete:children"
    kids = pa.indexes.get(key)
    if kids is None:
        kids = {}
        for j, q in enumerate(pa.page.parents):
            kids.setdefault(q, []).append(j)
        pa.indexes[key] = kids
    return kids.get(p, [])


def complete(spec: Spec, pa: PageAnalysis, keep: set[int], order: Sequence[int], allowance: int) -> int:
    """After the fill: complete the rows and short lists the view shows in part (module docstring). ``keep`` gains
    the lines in place; returns the tokens spent."""
    page, heads = pa.page, pa.units.heads
    spent = 0
    if allowance <= 0:
        return 0
    tops = [k for k in order[: spec.best] if _shown(pa, keep, k)]
    done: set[int] = set()
    for k in tops:
        u = heads[k]
        if spec.rows:
            r = u if page.lines[u].role == "row" else row_of(page, u)
            if r is not None and r not in done and page.subtree_tokens(r) <= spec.max_tokens:
                done.add(r)
                spent += _add(pa, keep, r, spent, allowance)
        if spec.lists:
            got = _run_of(pa, u)
            if got is None:
                continue
            a, sib = got
            p = page.parents[a]
            if p in done or len(sib) > spec.max_items:
                continue
            done.add(p)
            at = sib.index(a)
            for d in range(1, len(sib)):
                for j in (at + d, at - d):
                    if 0 <= j < len(sib) and page.subtree_tokens(sib[j]) <= spec.max_tokens:
                        spent += _add(pa, keep, sib[j], spent, allowance)
    return spent


def after_fill(spec_text: str, pa: PageAnalysis, keep: set[int], order: Sequence[int], budget: int) -> int:
    """:func:`complete` for the spec ``spec_text`` (:func:`parse`) from its share of ``budget``; 0 when off."""
    spec = parse(spec_text)
    return complete(spec, pa, keep, order, int(budget * spec.share)) if spec else 0
