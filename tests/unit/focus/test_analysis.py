"""Per-page analysis of ``default``: linear unit heads, the per-rendering cache, per-text tokens."""

from __future__ import annotations

from dataclasses import replace

from pagelens.focus import analysis
from pagelens.focus.analysis import analysis_of, cache_stats, clear_caches, unit_heads
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.focus.units import UnitLimits, page_of, unit_of
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Rendering


def _text(n: int = 60) -> str:
    body = ["RootWebArea 'Shop'", "\t[1] main ''", "\t\t[2] heading 'Catalogue'"]
    for i in range(n):
        body += [f"\t\t[{100 + i}] article ''",
                 f"\t\t\t[{300 + i}] link 'Item {i} with a long descriptive name number {i}'",
                 f"\t\t\tStaticText 'EUR {i}.50'",
                 f"\t\t\t[{600 + i}] button 'Add'"]
    body += ["\t\t[3] table 'Sizes'", "\t\t\t[4] row ''", "\t\t\t\t[5] columnheader 'Size'",
             "\t\t\t\t[6] columnheader 'Stock'", "\t\t\t[7] row ''", "\t\t\t\t[8] cell 'XL'", "\t\t\t\t[9] cell '12'"]
    return "\n".join(body)


def test_unit_heads_equal_the_ancestor_walk_on_every_line() -> None:
    r = rendering_from_text(_text())
    page = page_of(r)
    for limits in (UnitLimits(), UnitLimits(unit_max_tokens=30, unit_max_lines=3), UnitLimits(unit_max_tokens=5000)):
        assert unit_heads(page, limits) == [unit_of(page, i, limits) for i in range(len(page.lines))]


def test_same_rendering_is_analysed_once_and_a_changed_one_again() -> None:
    clear_caches()
    r = rendering_from_text(_text())
    limits = UnitLimits()
    first = analysis_of(r, limits, 600)
    assert analysis_of(r, limits, 600) is first
    same_content = Rendering(tuple(r.lines))  # another object, same content: still a hit
    assert analysis_of(same_content, limits, 600) is first
    assert cache_stats()["hits"] == 2 and cache_stats()["misses"] == 1
    lines = list(r.lines)
    lines[5] = replace(lines[5], name="Something else entirely", text="[300] link 'Something else entirely'")
    changed = analysis_of(Rendering(tuple(lines)), limits, 600)
    assert changed is not first
    assert cache_stats()["misses"] == 2
    assert any("Something else entirely" in t for t in changed.units.texts)
    assert not any("Something else entirely" in t for t in first.units.texts)


def test_cached_and_uncached_views_are_identical() -> None:
    r = rendering_from_text(_text(120))
    clear_caches()
    cold = RulesRetriever(RulesConfig(cache=False))
    warm = RulesRetriever()
    for goal in ("Add item 7 to the cart", "How many XL are in stock?", "What does item 3 cost?"):
        q = FocusQuery(goal)
        assert warm.select(q, r).keep == cold.select(q, r).keep
    assert cache_stats()["misses"] == 1  # three goals, one analysis


def test_tokens_are_cached_per_text_across_pages() -> None:
    clear_caches()
    analysis.unit_tokens(["Add to the cart", "Checkout now"], "en")
    assert len(analysis._TOKENS) == 2
    got = analysis.unit_tokens(["Checkout now", "Something new"], "en")
    assert len(analysis._TOKENS) == 3 and got[0] == analysis.unit_tokens(["Checkout now"], "en")[0]


def test_the_token_cache_is_bounded_by_the_characters_it_holds(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    clear_caches()
    monkeypatch.setattr(analysis, "_TOKENS_CHARS_MAX", 100)
    long = [f"{k} " + "word " * 8 for k in range(10)]  # ~42 characters each
    got = analysis.unit_tokens(long, "en")
    assert len(analysis._TOKENS) == 2 and analysis._tokens_chars <= 100  # the oldest went first
    assert got == [analysis.unit_tokens([t], "en")[0] for t in long]  # evicted or not, the same tokens
    monkeypatch.setattr(analysis, "_TOKENS_CHARS_MAX", 10)
    analysis.unit_tokens(["a text longer than the whole bound"], "en")
    assert len(analysis._TOKENS) == 1  # the newest is kept even above the bound
    clear_caches()
    assert analysis._tokens_chars == 0


def test_the_page_cache_is_bounded_by_the_lines_it_holds(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    clear_caches()
    monkeypatch.setattr(analysis, "_PAGES_LINES_MAX", 250)
    pages = [rendering_from_text("RootWebArea 'p'\n" + "\n".join(f"\t[{i}] button 'b{k}-{i}'" for i in range(100)))
             for k in range(5)]
    for r in pages:
        analysis_of(r, UnitLimits(), 200)
    assert cache_stats()["pages"] == 2  # 101 lines each: the newest two fit under 250
    big = rendering_from_text("RootWebArea 'p'\n" + "\n".join(f"\t[{i}] button 'x{i}'" for i in range(400)))
    analysis_of(big, UnitLimits(), 200)
    assert cache_stats()["pages"] == 1  # the newest is always kept, even above the bound
    before = cache_stats()["hits"]
    analysis_of(big, UnitLimits(), 200)
    assert cache_stats()["hits"] == before + 1
    clear_caches()
