"""The budget's floor (``RulesConfig.floor_tokens`` / ``floor_share`` / ``floor_min``) on a small hand-built page."""

from __future__ import annotations

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.budget import floor_of
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.observe.textparse import rendering_from_text


def test_the_fixed_floor_unless_a_share_is_set() -> None:
    assert floor_of(RulesConfig(), 1000) == 800
    assert floor_of(RulesConfig(floor_tokens=500), 100) == 500
    cfg = RulesConfig(floor_share=0.5, floor_min=300)
    assert floor_of(cfg, 1000) == 500  # scales with the page...
    assert floor_of(cfg, 400) == 300  # ...never below floor_min...
    assert floor_of(cfg, 5000) == 800  # ...nor above floor_tokens


def _small_page() -> str:
    body = [f"\t\t[{10 + i}] paragraph ''\n\t\t\tStaticText 'Paragraph {i} about opening hours and general store policies'"
            for i in range(50)]
    return "\n".join(["RootWebArea 'Store'", "\t[2] main ''", *body, "\t\t[99] button 'Contact support'"])


def test_a_lower_floor_prunes_a_small_page_more() -> None:
    r = rendering_from_text(_small_page())
    q = FocusQuery("What are the store policies on opening hours?")  # every paragraph matches: the fill spends the budget
    base = focus(r, q, RulesRetriever(), defense=False)
    scaled = focus(r, q, RulesRetriever(RulesConfig(floor_share=0.4)), defense=False)
    assert base.error is None and scaled.error is None
    assert 600 < base.full_tokens < 2000  # a small page (not kept whole), where the fixed floor binds
    assert scaled.info["budget_tokens"] < base.info["budget_tokens"]
    assert scaled.pruning > base.pruning
    assert "Paragraph" in scaled.text()


def test_a_page_below_the_floor_is_shown_whole_unless_small_share_is_set() -> None:
    from pagelens.focus.budget import budget_of

    assert budget_of(RulesConfig(), 0.30, 700) == 700  # below the floor: the whole page (today)
    cfg = RulesConfig(small_share=0.5, small_min=250)
    assert budget_of(cfg, 0.30, 700) == 350  # a share of the page...
    assert budget_of(cfg, 0.30, 400) == 250  # ...never below small_min...
    assert budget_of(cfg, 0.30, 200) == 200  # ...nor above the page
    assert budget_of(cfg, 0.30, 5000) == budget_of(RulesConfig(), 0.30, 5000) == 1500  # larger pages: unchanged
    assert budget_of(cfg, 0.30, 1000) == 800


def _tiny_page() -> str:
    body = [f"\t\t[{10 + i}] paragraph ''\n\t\t\tStaticText 'Paragraph {i} about opening hours and general store policies'"
            for i in range(20)]
    return "\n".join(["RootWebArea 'Store'", "\t[2] main ''", *body, "\t\t[99] button 'Contact support'"])


def test_a_small_share_focuses_a_page_that_was_kept_whole() -> None:
    r = rendering_from_text(_tiny_page())
    q = FocusQuery("Contact support about an order")
    base = focus(r, q, RulesRetriever(), defense=False)
    small = focus(r, q, RulesRetriever(RulesConfig(small_page_tokens=0, small_share=0.5)), defense=False)
    assert small.error is None  # (base keeps every line: "not smaller than the full tree")
    assert base.info["budget_tokens"] < 800  # below the floor: the whole page
    assert small.info["budget_tokens"] < base.info["budget_tokens"]  # the floor's budget is the whole page
    assert small.pruning > base.pruning + 0.2
    assert "Contact support" in small.text()
