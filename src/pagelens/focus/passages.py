"""Dense passages: BM25 over windows of consecutive units, and what the best window brings (issue 9).

A chunk retriever keeps what surrounds a dense passage: the value under a heading, the cell whose key is in
another cell, the sentence after the one that names the topic. ``default`` ranks units, and a unit whose own
text holds none of the goal's words is ranked by no signal even when its neighbours are full of them. This
module scores *windows*: runs of consecutive units in document order of at most ``size`` tokens (each unit's
member lines), started every half window, each window's BM25 tokens the concatenation of its units' (the
page's own stemmed tokens, :attr:`.analysis.PageAnalysis.tokens`), ranked by BM25 against the goal
(:func:`.lexical.bm25_over_tokens`). The best ``n`` windows that do not overlap bring their units' own lines,
from the window's densest unit outward (the unit after before the one before, as a chunk around it holds
them). It reads unit positions and BM25 tokens only: no language-specific word, no page markup.

:attr:`.rules.RulesConfig.passage` turns it on with a spec ``"n:size:share:mode[:own]"`` (``""``: off):

* ``n`` windows of at most ``size`` tokens;
* ``mode`` ``add``: after the fill, from an allowance of ``share`` of the budget beyond it; ``mode`` ``in``:
  ``share`` of the budget is reserved for them, the fill gets the rest (what they leave goes to the
  leftover pass, as any budget the fill does not spend);
* ``own``: only lines of the site's own regions (``main``, ``chrome``: not user content, overlays or text a
  sighted user does not see, :mod:`pagelens.observe.provenance`). An attack written in the site's own markup
  can still come in: on the held-out injection sets P2 brought 7 more of 1,122 attacks into view (BENCHMARKS.md,
  stop 37's figures).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.units import SHORT_COST

_OWN = frozenset({"main", "chrome"})


@dataclass(frozen=True, slots=True)
class Spec:
    """A parsed :attr:`.rules.RulesConfig.passage`."""

    n: int
    size: int
    share: float
    within: bool  # ``in``: reserved inside the budget; ``add``: beyond it
    own: bool


def parse(spec: str) -> Spec | None:
    """``"n:size:share:mode[:own]"`` -> :class:`Spec`; None for ``""`` or ``n`` 0."""
    if not spec:
        return None
    parts = spec.split(":")
    if len(parts) not in (4, 5) or parts[3] not in ("add", "in") or (len(parts) == 5 and parts[4] != "own"):
        raise ValueError(f"passage spec {spec[:40]!r}: expected 'n:size:share:add|in[:own]'")
    n, size, share = int(parts[0]), int(parts[1]), float(parts[2])
    if n <= 0 or size <= 0 or share <= 0:
        return None
    return Spec(n, size, share, parts[3] == "in", len(parts) == 5)


def unit_costs(pa: PageAnalysis) -> list[int]:
    """Each unit's member lines' tokens (each line's cost plus one), once per page."""
    got = pa.indexes.get("passage_costs")
    if got is None:
        cost = pa.page.cost
        got = [sum(cost[j] + 1 for j in m) for m in pa.units.members]
        pa.indexes["passage_costs"] = got
    return got  # type: ignore[no-any-return]


def windows(pa: PageAnalysis, size: int) -> list[tuple[int, int]]:
    """Unit ranges ``[a, b)`` of at most ``size`` tokens (a larger unit alone is a window), one started at the
    first unit past each half window: consecutive windows overlap by about half. Once per page and size."""
    key = f"passage_windows:{size}"
    got = pa.indexes.get(key)
    if got is not None:
        return got  # type: ignore[no-any-return]
    costs = unit_costs(pa)
    n = len(costs)
    out: list[tuple[int, int]] = []
    a = 0
    while a < n:
        b, spent, half = a, 0, a + 1
        while b < n and (b == a or spent + costs[b] <= size):
            spent += costs[b]
            b += 1
            if spent <= size // 2:
                half = b
        out.append((a, b))
        if b >= n:
            break
        a = max(half, a + 1)
    pa.indexes[key] = out
    return out


def _window_counts(pa: PageAnalysis, size: int) -> tuple[list[Counter[str]], np.ndarray]:
    """Each window's token counts and length (its units' BM25 tokens), once per page and size."""
    key = f"passage_counts:{size}"
    got = pa.indexes.get(key)
    if got is None:
        counts: list[Counter[str]] = []
        for a, b in windows(pa, size):
            c: Counter[str] = Counter()
            for k in range(a, b):
                c.update(pa.tokens[k])
            counts.append(c)
        lengths = np.fromiter((sum(c.values()) for c in counts), dtype=np.float32, count=len(counts))
        got = pa.indexes[key] = (counts, lengths)
    return got  # type: ignore[no-any-return]


def window_scores(pa: PageAnalysis, query: str, size: int, *, k1: float = 1.5, b: float = 0.75) -> np.ndarray:
    """BM25 of every window (:func:`windows`) for ``query``: :func:`.lexical.bm25_over_tokens`' scores, its postings
    read from the windows' counts (a goal costs a look-up per query word and window, not a pass over the page's
    tokens)."""
    from pagelens.focus.lexical import bm25_from_postings, query_tokens

    counts, lengths = _window_counts(pa, size)
    if not counts:
        return np.zeros(0, dtype=np.float32)
    q = query_tokens(query, pa.lang)
    tf = {t: {w: c[t] for w, c in enumerate(counts) if t in c} for t in sorted(q)}
    return bm25_from_postings(tf, lengths, k1=k1, b=b)


def ranked_windows(pa: PageAnalysis, query: str, size: int) -> list[tuple[float, int, int]]:
    """Windows with a positive BM25 score against ``query``, best first (ties: the earlier)."""
    scores = window_scores(pa, query, size)
    got = [(float(scores[w]), a, b) for w, (a, b) in enumerate(windows(pa, size)) if scores[w] > 0]
    got.sort(key=lambda x: (-x[0], x[1]))
    return got


def best_windows(pa: PageAnalysis, query: str, size: int, n: int) -> list[tuple[int, int]]:
    """The ``n`` best windows that do not overlap one another."""
    out: list[tuple[int, int]] = []
    for _s, a, b in ranked_windows(pa, query, size):
        if len(out) >= n:
            break
        if all(b <= a2 or b2 <= a for a2, b2 in out):
            out.append((a, b))
    return out


def outward(pa: PageAnalysis, query: str, a: int, b: int) -> list[int]:
    """The window's units from its densest unit (highest BM25 of its own tokens) outward: after before before."""
    from pagelens.focus.lexical import bm25_over_tokens

    scores = bm25_over_tokens(query, pa.tokens[a:b], pa.lang)
    top = a + max(range(b - a), key=lambda x: (float(scores[x]), -x))
    out = [top]
    for d in range(1, b - a):
        out += [k for k in (top + d, top - d) if a <= k < b]
    return out


def bring(pa: PageAnalysis, keep: set[int], units: Sequence[int], allowance: int, own: bool) -> int:
    """``units``' own lines (each unit's subtree; only the site's own regions with ``own``) not in ``keep`` yet
    join it, unit by unit, while the tokens spent stay within ``allowance``; a choice's spare options are left
    out as the fill leaves them. ``keep`` gains the lines in place; returns the tokens spent."""
    page, heads = pa.page, pa.units.heads
    spent = 0
    for k in units:
        u = heads[k]
        lines = [i for i in range(u, page.ends[u]) if i not in keep and i not in pa.spare
                 and (not own or page.lines[i].region in _OWN)]
        if not lines:
            continue
        cost = sum(page.cost[i] + 1 for i in lines) + SHORT_COST
        if spent + cost > allowance:
            continue
        keep.update(lines)
        spent += cost
    return spent


@dataclass
class Plan:
    """What :attr:`.rules.RulesConfig.passage` does for one goal: the tokens it takes from the fill's budget
    (``reserve``) and the units it brings after the fill (:meth:`apply`)."""

    spec: Spec
    allowance: int
    reserve: int
    units: list[int] = field(default_factory=list)

    def apply(self, pa: PageAnalysis, keep: set[int]) -> int:
        return bring(pa, keep, self.units, self.allowance, self.spec.own) if self.units else 0


def plan(spec_text: str, pa: PageAnalysis, query: str, budget: int, skip: Collection[int] = ()) -> Plan | None:
    """The plan of ``spec_text`` (:func:`parse`) for ``query`` on ``pa`` under ``budget``; None when off or
    when no window scores (then nothing changes: not even the fill's budget). ``skip``: units it never brings."""
    spec = parse(spec_text)
    if spec is None:
        return None
    wins = best_windows(pa, query, spec.size, spec.n)
    if not wins:
        return None
    units = [k for a, b in wins for k in outward(pa, query, a, b) if k not in skip]
    allowance = int(budget * spec.share)
    return Plan(spec, allowance, allowance if spec.within else 0, units)
