from __future__ import annotations

import pytest

from pagelens import tokens
from pagelens.focus.base import FocusQuery, Retriever
from pagelens.focus.truncate import TruncateRetriever, truncate_prefix
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Rendering


def _tree(n: int) -> Rendering:
    rows = ["RootWebArea 'Shop'"]
    for i in range(n):
        rows.append("\t" * (1 + i % 3) + f"[{i}] link 'Product number {i} in the catalogue'")
    return rendering_from_text("\n".join(rows))


def _prefix_text(r: Rendering, n: int) -> str:
    return "\n".join("\t" * ln.depth + ln.text for ln in r.lines[:n])


@pytest.mark.parametrize("budget", [0, 1, 7, 50, 333, 1000])
def test_keeps_the_longest_prefix_within_budget(budget: int) -> None:
    r = _tree(200)
    n, used = truncate_prefix(r, budget)
    assert used == tokens.count(_prefix_text(r, n)) <= budget
    assert n == len(r.lines) or tokens.count(_prefix_text(r, n + 1)) > budget


def test_selection_is_the_top_and_info_says_what_was_deleted() -> None:
    r = _tree(300)
    sel = TruncateRetriever(budget_tokens=400).select(FocusQuery("anything"), r)
    n = len(sel.keep)
    assert sel.keep == frozenset(range(n))
    assert 0 < n < len(r.lines)
    assert sel.info["deleted_lines"] == len(r.lines) - n
    assert sel.info["note"] == f"deleted {len(r.lines) - n} lines"
    assert sel.info["kept_tokens"] <= 400


def test_small_tree_is_kept_whole() -> None:
    r = _tree(5)
    sel = TruncateRetriever().select(FocusQuery("x"), r)
    assert sel.keep == frozenset(range(len(r.lines)))
    assert sel.info["note"] == "deleted 0 lines"


def test_indentation_counts_towards_the_budget() -> None:
    flat = rendering_from_text("\n".join(f"StaticText 'word {i}'" for i in range(100)))
    deep = rendering_from_text("\n".join("\t" * 12 + f"StaticText 'word {i}'" for i in range(100)))
    assert truncate_prefix(deep, 200)[0] < truncate_prefix(flat, 200)[0]


def test_empty_rendering_and_protocol() -> None:
    ret = TruncateRetriever()
    assert isinstance(ret, Retriever)
    assert ret.select(FocusQuery("x"), Rendering(lines=())).keep == frozenset()
    with pytest.raises(ValueError):
        TruncateRetriever(budget_tokens=-1)


@pytest.mark.parametrize("share", [0.03, 0.25, 1.0])
def test_a_query_budget_is_a_share_of_the_tree(share: float) -> None:
    r = _tree(300)
    full = tokens.count(r.text())
    sel = TruncateRetriever(budget_tokens=5).select(FocusQuery("x", budget=share), r)
    n = len(sel.keep)
    assert sel.info["budget_tokens"] == int(share * full) and sel.info["budget_share"] == share
    assert tokens.count(_prefix_text(r, n)) <= share * full
    assert n == len(r.lines) or tokens.count(_prefix_text(r, n + 1)) > int(share * full)
    # without a share, the fixed budget applies
    assert len(TruncateRetriever(budget_tokens=5).select(FocusQuery("x"), r).keep) < n
