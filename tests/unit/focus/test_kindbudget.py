"""The budget share by what the goal asks (:mod:`pagelens.focus.kindbudget`, ``RulesConfig.kind_fact`` /
``kind_act``; BENCHMARKS.md "Focus, forty-first pass")."""

from __future__ import annotations

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.kindbudget import asks_fact, kind_factor, kind_share
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.observe.textparse import rendering_from_text


def test_the_goal_kind_in_several_languages() -> None:
    facts = ["What is the warranty on this lamp?", "how much does shipping cost",  # English
             "Wann hat das Bürgeramt geöffnet?", "Wie viele Seiten hat das Buch",  # German
             "¿Cuánto cuesta el envío?", "cuál es el horario de la tienda",  # Spanish
             "Quel est le prix du billet ?", "この本の著者は誰ですか？", "ما هو سعر الشحن؟"]  # French, Japanese, Arabic
    orders = ["Add the blue lamp to the cart", "Go to the returns page",
              "Lege das Buch in den Warenkorb", "Öffne die Seite mit den Öffnungszeiten",
              "Añade el libro a la cesta", "Ve a la página de contacto",
              "Inscris-toi à la lettre d'information", "カートに入れてください", ""]
    assert all(asks_fact(g) for g in facts), [g for g in facts if not asks_fact(g)]
    assert not any(asks_fact(g) for g in orders), [g for g in orders if asks_fact(g)]


def test_the_factor_and_its_band() -> None:
    assert kind_factor("What is it?", 0.0, 0.0) == kind_factor("Buy it", 0.0, 0.0) == 1.0  # off
    assert kind_factor("What is it?", 0.25, 0.2) == 1.25 and kind_factor("Buy it", 0.25, 0.2) == 0.8
    assert kind_share(0.4, "What is it?", 0.25, 0.2) == 0.5
    assert kind_share(0.4, "What is it?", 0.25, 0.2, total=3000, min_tokens=4000) == 0.4  # below the band
    assert kind_share(0.4, "What is it?", 0.25, 0.2, total=30000, max_tokens=20000) == 0.4  # above it
    assert kind_share(0.9, "What is it?", 0.5, 0.0) == 1.0  # never above the page


def _page() -> str:
    body = [f"\t\t[{10 + i}] paragraph ''\n\t\t\tStaticText 'Paragraph {i} about opening hours and general store policies "
            "with several more words of ordinary text to make the page long enough for a budget'" for i in range(120)]
    return "\n".join(["RootWebArea 'Store'", "\t[2] main ''", *body, "\t\t[999] button 'Contact support'"])


def test_a_question_gets_more_budget_and_an_order_less() -> None:
    r = rendering_from_text(_page())
    question, order = FocusQuery("What are the store policies on opening hours?"), FocusQuery("Contact support")
    on = RulesRetriever(RulesConfig(kind_fact=0.25, kind_act=0.25))
    for q, more in ((question, True), (order, False)):
        base = focus(r, q, RulesRetriever(), defense=False)
        assert base.error is None and base.full_tokens * 0.20 > 800  # the share, not the floor, sets the budget
        cand = focus(r, q, on, defense=False)
        b0, b1 = base.info["budget_tokens"], cand.info["budget_tokens"]
        assert abs(b1 - b0 * (1.25 if more else 0.75)) <= 2, (q.goal, b0, b1)
        assert (cand.pruning < base.pruning) if more else (cand.pruning >= base.pruning)
        # a query's own budget is never shifted
        asked = FocusQuery(q.goal, budget=0.30)
        assert focus(r, asked, on, defense=False).info["budget_tokens"] == focus(r, asked, RulesRetriever(),
                                                                                 defense=False).info["budget_tokens"]
    # a band the page is not in: the shipped budget
    band = RulesRetriever(RulesConfig(kind_fact=0.25, kind_act=0.25, kind_min_tokens=10**6))
    assert focus(r, question, band, defense=False).info["budget_tokens"] == focus(
        r, question, RulesRetriever(), defense=False).info["budget_tokens"]
