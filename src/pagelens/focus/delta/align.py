"""Aligning two sequences in near-linear time: the matching blocks of :mod:`difflib`, anchored.

:class:`difflib.SequenceMatcher` is quadratic in the worst case, and the worst case is what a
re-rendered listing is: hundreds of rows whose names changed between rows of look-alike
controls. :func:`matching_blocks` answers the same question (which runs of items are equal,
in order) by divide and conquer:

1. strip the common prefix and suffix of the range;
2. a small range (at most ``small`` cells, length × length) goes to ``SequenceMatcher``, so
   small inputs align exactly as before;
3. otherwise anchor on the items that occur exactly once on each side (patience diff: the
   longest increasing run of those pairs, O(k log k)) and align each gap between two anchors
   the same way;
4. a large range without such items pairs each item's occurrences in order (the k-th
   ``Edit`` link with the k-th) and keeps the longest increasing run of those pairs.

Every step keeps the pairs in order on both sides and pairs only equal items; each level
costs O(n log n) and the gaps it leaves are disjoint.
"""

from __future__ import annotations

import bisect
import difflib
from collections.abc import Hashable, Sequence
from itertools import pairwise

__all__ = ["SMALL_CELLS", "matching_blocks", "matching_pairs", "opcodes"]

#: Ranges up to this many cells (length × length) are aligned by ``SequenceMatcher`` itself.
SMALL_CELLS = 250_000


def matching_blocks(a: Sequence[Hashable], b: Sequence[Hashable], *, small: int = SMALL_CELLS,
                    ) -> list[tuple[int, int, int]]:
    """``(i, j, n)``: ``a[i:i+n] == b[j:j+n]``, increasing in ``i`` and ``j``, adjacent blocks
    merged, ended by ``(len(a), len(b), 0)`` like :meth:`difflib.SequenceMatcher.get_matching_blocks`."""
    if len(a) * len(b) <= small:
        return [tuple(m) for m in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()]  # type: ignore[arg-type,misc]
    blocks: list[tuple[int, int, int]] = []
    for i, j in matching_pairs(a, b, small=small):
        if blocks and blocks[-1][0] + blocks[-1][2] == i and blocks[-1][1] + blocks[-1][2] == j:
            blocks[-1] = (blocks[-1][0], blocks[-1][1], blocks[-1][2] + 1)
        else:
            blocks.append((i, j, 1))
    blocks.append((len(a), len(b), 0))
    return blocks


def opcodes(a: Sequence[Hashable], b: Sequence[Hashable], *, small: int = SMALL_CELLS,
            ) -> list[tuple[str, int, int, int, int]]:
    """:meth:`difflib.SequenceMatcher.get_opcodes` over :func:`matching_blocks`."""
    out: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for ai, bj, n in matching_blocks(a, b, small=small):
        tag = "replace" if i < ai and j < bj else "delete" if i < ai else "insert" if j < bj else ""
        if tag:
            out.append((tag, i, ai, j, bj))
        i, j = ai + n, bj + n
        if n:
            out.append(("equal", ai, i, bj, j))
    return out


def matching_pairs(a: Sequence[Hashable], b: Sequence[Hashable], *, small: int = SMALL_CELLS,
                   ) -> list[tuple[int, int]]:
    """Index pairs ``(i, j)`` with ``a[i] == b[j]``, strictly increasing on both sides."""
    out: list[tuple[int, int]] = []
    stack = [(0, len(a), 0, len(b))]
    while stack:
        alo, ahi, blo, bhi = stack.pop()
        while alo < ahi and blo < bhi and a[alo] == b[blo]:  # common prefix
            out.append((alo, blo))
            alo, blo = alo + 1, blo + 1
        while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:  # common suffix
            ahi, bhi = ahi - 1, bhi - 1
            out.append((ahi, bhi))
        if alo >= ahi or blo >= bhi:
            continue
        if (ahi - alo) * (bhi - blo) <= small:
            sub = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)  # type: ignore[arg-type,index]
            out.extend((alo + i + k, blo + j + k) for i, j, n in sub.get_matching_blocks() for k in range(n))
            continue
        anchors = _unique_pairs(a, alo, ahi, b, blo, bhi)
        if anchors:
            out.extend(anchors)
            edges = [(alo - 1, blo - 1), *anchors, (ahi, bhi)]
            for (i0, j0), (i1, j1) in pairwise(edges):
                if i1 - i0 > 1 and j1 - j0 > 1:
                    stack.append((i0 + 1, i1, j0 + 1, j1))
            continue
        out.extend(_ordered_pairs(a, alo, ahi, b, blo, bhi))
    out.sort()
    return out


def _unique_pairs(a: Sequence[Hashable], alo: int, ahi: int, b: Sequence[Hashable], blo: int, bhi: int,
                  ) -> list[tuple[int, int]]:
    """The longest in-order run of pairs of items that occur once in ``a[alo:ahi]`` and once in ``b[blo:bhi]``."""
    in_a: dict[Hashable, int] = {}
    for i in range(alo, ahi):
        in_a[a[i]] = -1 if a[i] in in_a else i
    in_b: dict[Hashable, int] = {}
    for j in range(blo, bhi):
        if in_a.get(b[j], -1) >= 0:
            in_b[b[j]] = -1 if b[j] in in_b else j
    pairs = sorted((in_a[key], j) for key, j in in_b.items() if j >= 0)
    return _increasing(pairs)


def _ordered_pairs(a: Sequence[Hashable], alo: int, ahi: int, b: Sequence[Hashable], blo: int, bhi: int,
                   ) -> list[tuple[int, int]]:
    """Each item's k-th occurrence in ``a`` paired with its k-th in ``b``; the longest in-order run."""
    where: dict[Hashable, list[int]] = {}
    for j in range(blo, bhi):
        where.setdefault(b[j], []).append(j)
    seen: dict[Hashable, int] = {}
    pairs = []
    for i in range(alo, ahi):
        js = where.get(a[i])
        if js is None:
            continue
        k = seen.get(a[i], 0)
        if k < len(js):
            pairs.append((i, js[k]))
            seen[a[i]] = k + 1
    return _increasing(pairs)


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of ``pairs`` (sorted by ``i``, distinct ``i``) increasing in ``j`` (patience sorting)."""
    if not pairs:
        return []
    tails: list[int] = []  # tails[k]: the smallest j ending an increasing run of length k + 1
    tail_at: list[int] = []  # the index in pairs of that run's end
    back = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_at.append(n)
        else:
            tails[k] = j
            tail_at[k] = n
        back[n] = tail_at[k - 1] if k else -1
    out = []
    n = tail_at[-1]
    while n >= 0:
        out.append(pairs[n])
        n = back[n]
    return out[::-1]
