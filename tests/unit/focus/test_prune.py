"""The pruning switches of :mod:`pagelens.focus.prune` (a very sure order's share, a sure order's floor)."""

from __future__ import annotations

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.budget import budget_of
from pagelens.focus.certainty import Certainty
from pagelens.focus.prune import budget_for
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.observe.textparse import rendering_from_text

SURE, VERY, UNSURE = Certainty(gap=4.0, mass=0, near=0), Certainty(gap=9.0, mass=0, near=0), Certainty(1.0, 0, 0)


def test_off_is_the_base_budget() -> None:
    cfg = RulesConfig()
    for total in (650, 900, 1500, 4000, 12000, 40000):
        for cert, share in ((SURE, 0.20), (VERY, 0.20), (UNSURE, 0.40)):
            assert budget_for(cfg, None, cert, True, total) == budget_of(cfg, share, total)
        assert budget_for(cfg, None, VERY, False, total) == budget_of(cfg, 0.30, total)  # not judged: RRF's share


def test_a_very_sure_order_gets_the_smaller_share() -> None:
    cfg = RulesConfig(sure2_at=6.0, sure2_share=0.15)
    assert budget_for(cfg, None, VERY, True, 10000) == 1500
    assert budget_for(cfg, None, SURE, True, 10000) == 2000  # sure, not very sure: the certainty rule's 0.20
    assert budget_for(cfg, None, UNSURE, True, 10000) == 4000
    assert budget_for(cfg, None, VERY, False, 10000) == 3000  # an RRF order is not judged
    assert budget_for(cfg, 0.5, VERY, True, 10000) == 5000  # a share the caller asked for is never changed


def test_a_sure_order_gets_a_floor_that_scales_with_the_page() -> None:
    cfg = RulesConfig(sure_floor_share=0.5, sure_floor_min=300)
    assert budget_for(cfg, None, SURE, True, 1200) == 600  # base: the 800-token floor
    assert budget_for(cfg, None, SURE, True, 700) == 350  # base: the whole page (below the floor)
    assert budget_for(cfg, None, SURE, True, 500) == 300  # never below sure_floor_min
    assert budget_for(cfg, None, SURE, True, 5000) == 1000  # above the floor: the share, as before
    assert budget_for(cfg, None, UNSURE, True, 1200) == 800  # an unsure order keeps the fixed floor
    assert budget_for(cfg, 0.2, SURE, True, 1200) == 800  # so does a share the caller asked for


def _page() -> str:
    body = [f"\t\t[{10 + i}] paragraph ''\n\t\t\tStaticText 'Paragraph {i} on delivery times for parcels abroad'"
            for i in range(40)]
    return "\n".join(["RootWebArea 'Shop'", "\t[2] main ''", "\t\t[3] heading 'Returns'",
                      "\t\t\tStaticText 'Return window: 30 days from delivery'", *body,
                      "\t\t[99] button 'Contact support'"])


def test_on_a_hand_built_page_the_sure_floor_prunes_more_and_keeps_the_answer() -> None:
    r = rendering_from_text(_page())
    q = FocusQuery("How many days is the return window?")
    base = focus(r, q, RulesRetriever(), defense=False)
    on = focus(r, q, RulesRetriever(RulesConfig(sure_floor_share=0.5, sure_floor_min=300)), defense=False)
    assert base.error is None and on.error is None
    assert 800 < base.full_tokens < 1600  # a page where the fixed floor binds
    assert on.info["certainty"]["gap"] >= RulesConfig().certain_at  # the order is sure of its first unit
    assert on.info["budget_tokens"] < base.info["budget_tokens"]
    assert on.pruning > base.pruning + 0.02
    assert "30 days" in on.text() and "30 days" in base.text()
