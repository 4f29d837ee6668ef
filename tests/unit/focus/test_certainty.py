"""The budget share that follows the fused order's certainty (:mod:`pagelens.focus.certainty`,
``RulesConfig.certain_by``)."""

from __future__ import annotations

import pytest

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.certainty import Certainty, certainty, share_for
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.observe.textparse import rendering_from_text


def test_a_peaked_order_is_surer_than_a_flat_one() -> None:
    order = list(range(60))
    peaked = certainty(order, {k: (6.0 if k < 2 else -4.0) for k in order}, log_odds=True)
    flat = certainty(order, {k: 0.5 - 0.01 * k for k in order}, log_odds=True)
    assert peaked.mass > flat.mass and peaked.gap > flat.gap and peaked.near < flat.near
    assert peaked.near == 2 and flat.near == 50
    rrf = certainty(order, {k: 1.0 / (20 + k) for k in order}, log_odds=False)
    assert 0 < rrf.gap < 1 and 0.1 < rrf.mass < 0.5
    assert certainty([], {}, log_odds=True) == Certainty(gap=0.0, mass=0.0, near=0)


def test_the_share_follows_the_measure() -> None:
    sure, unsure = Certainty(gap=5.0, mass=0.6, near=2), Certainty(gap=1.0, mass=0.15, near=30)
    for by, at in (("mass", 0.4), ("gap", 3.0), ("near", 5)):
        assert share_for(sure, by, at, 0.2, 0.4) == 0.2
        assert share_for(unsure, by, at, 0.2, 0.4) == 0.4
    with pytest.raises(ValueError, match="unknown certainty measure"):
        share_for(sure, "words", 1, 0.2, 0.4)


def _page() -> str:
    body = [f"\t\t[{10 + i}] paragraph ''\n\t\t\tStaticText 'Paragraph {i} about opening hours and general store policies "
            "with several more words of ordinary text to make the page long enough for a budget'" for i in range(120)]
    return "\n".join(["RootWebArea 'Store'", "\t[2] main ''", *body, "\t\t[999] button 'Contact support'"])


def test_the_knob_changes_the_budget_and_a_query_budget_still_wins() -> None:
    r = rendering_from_text(_page())
    q = FocusQuery("What are the store policies on opening hours?")
    base = focus(r, q, RulesRetriever(RulesConfig(certain_by="")), defense=False)  # every goal: budget 0.30
    assert base.error is None and "certainty" in base.info
    total = base.full_tokens
    assert total * 0.30 > 800  # the share, not the floor, sets the budget
    always_sure = RulesConfig(certain_by="mass", certain_at=0.0, certain_share=0.5, unsure_share=0.9)
    never_sure = RulesConfig(certain_by="mass", certain_at=1.01, certain_share=0.5, unsure_share=0.9)
    a = focus(r, q, RulesRetriever(always_sure), defense=False)
    b = focus(r, q, RulesRetriever(never_sure), defense=False)
    assert a.info["budget_tokens"] > base.info["budget_tokens"]  # 0.5 of the page, not 0.30
    assert b.info["budget_tokens"] > a.info["budget_tokens"]  # 0.9 (up to the ceiling)
    assert a.pruning < base.pruning
    flat = focus(r, FocusQuery(q.goal, budget=0.30), RulesRetriever(never_sure), defense=False)
    assert flat.info["budget_tokens"] == base.info["budget_tokens"]  # a query's own budget overrides the rule


def test_the_shipped_rule_and_an_rrf_order_keeps_the_flat_share() -> None:
    cfg = RulesConfig()
    assert (cfg.certain_by, cfg.certain_at, cfg.certain_share, cfg.unsure_share) == ("gap", 3.5, 0.20, 0.40)  # B2
    r = rendering_from_text(_page())
    q = FocusQuery("What are the store policies on opening hours?")
    flat = focus(r, q, RulesRetriever(RulesConfig(certain_by="")), defense=False)
    shipped = focus(r, q, RulesRetriever(), defense=False)
    assert shipped.info["fusion"] == "learned"
    want = 0.20 if shipped.info["certainty"]["gap"] >= cfg.certain_at else 0.40
    assert shipped.info["budget_tokens"] != flat.info["budget_tokens"]
    assert abs(shipped.info["budget_tokens"] / want - flat.info["budget_tokens"] / 0.30) < 5  # shares of one total
    # the threshold is in log-odds: an RRF order is not judged, it gets the flat share
    rrf = focus(r, q, RulesRetriever(RulesConfig(fusion="rrf")), defense=False)
    rrf_flat = focus(r, q, RulesRetriever(RulesConfig(fusion="rrf", certain_by="")), defense=False)
    assert rrf.info["budget_tokens"] == rrf_flat.info["budget_tokens"] == flat.info["budget_tokens"]


def test_a_question_goal_may_have_its_own_threshold() -> None:
    from pagelens.focus.budget import share_of

    cert = Certainty(gap=3.52, mass=0.3, near=5)
    cfg = RulesConfig(certain_at=3.51, certain_at_question=3.53)
    assert share_of(cfg, None, cert, True, question=False) == cfg.certain_share  # 3.52 >= 3.51
    assert share_of(cfg, None, cert, True, question=True) == cfg.unsure_share  # 3.52 < 3.53
    assert share_of(RulesConfig(certain_at=3.51), None, cert, True, question=True) == cfg.certain_share  # None: one
    r = rendering_from_text(_page())
    q = FocusQuery("What are the store policies on opening hours?")
    got = focus(r, q, RulesRetriever(RulesConfig(certain_by="mass", certain_at=1.01, certain_at_question=0.0,
                                                 certain_share=0.5, unsure_share=0.9)), defense=False)
    acting = focus(r, FocusQuery("Show the store policies on opening hours"),
                   RulesRetriever(RulesConfig(certain_by="mass", certain_at=1.01, certain_at_question=0.0,
                                              certain_share=0.5, unsure_share=0.9)), defense=False)
    assert got.info["budget_tokens"] < acting.info["budget_tokens"]  # the question is sure at 0.0, the other is not
