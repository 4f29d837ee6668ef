"""The LLM-free default retriever on hand-built trees (no browser)."""

from __future__ import annotations

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesRetriever, terms_of
from pagelens.observe.textparse import rendering_from_text


def _page(body: list[str]) -> str:
    nav = [f"\t\t[{900 + i}] link 'Department {i} deals and offers', url='http://127.0.0.1/d/{i}'" for i in range(80)]
    foot = [f"\t\t[{1000 + i}] link 'Footer information link {i}', url='http://127.0.0.1/f/{i}'" for i in range(40)]
    return "\n".join(["RootWebArea 'Store'", "\t[1] navigation 'Main'", *nav, "\t[2] main ''", *body,
                      "\t[3] contentinfo ''", *foot])


def _products() -> list[str]:
    out = ["\t\t[4] heading 'Headphones'"]
    for i in range(40):
        kind = "Wireless headphones" if i % 4 == 0 else "Speaker stand"
        out += [
            f"\t\t[{100 + i}] article ''",
            f"\t\t\t[{200 + i}] link 'Brand{i} {kind} {i}', url='http://127.0.0.1/p/{i}'",
            f"\t\t\tStaticText '${10 + i}.99'",
            f"\t\t\t[{300 + i}] button 'Add to cart'",
        ]
    out += ["\t\t[5] navigation 'Pagination'", "\t\t\t[6] link '1'", "\t\t\t[7] link '2'", "\t\t\t[8] link 'Next'"]
    return out


def _kept(text: str, goal: str):  # type: ignore[no-untyped-def]
    r = rendering_from_text(text)
    res = focus(r, FocusQuery(goal), RulesRetriever(), defense=False)
    assert res.error is None
    return res


def test_product_units_keep_price_and_button_next_to_the_match() -> None:
    res = _kept(_page(_products()), "Add the cheapest wireless headphones to my basket")
    text = res.text()
    for i in range(0, 40, 4):  # every matching product with its price and its button
        assert f"[{200 + i}] link 'Brand{i} Wireless headphones {i}'" in text
        assert f"[{300 + i}] button 'Add to cart'" in text
        assert f"StaticText '${10 + i}.99'" in text
    assert "Speaker stand" not in text
    assert "[8] link 'Next'" in text and "[4] heading 'Headphones'" in text  # skeleton
    assert res.pruning > 0.6


def test_form_is_kept_as_a_unit_across_languages() -> None:
    form = [
        "\t\t[40] heading 'Willkommen zurück'",
        "\t\t[41] form ''",
        "\t\t\t[42] textbox 'E-Mail-Adresse', required",
        "\t\t\t[43] textbox 'Passwort', required",
        "\t\t\t[44] checkbox 'Angemeldet bleiben'",
        "\t\t\t[45] button 'Anmelden'",
        *[f"\t\tStaticText 'Unrelated marketing paragraph {i} with many words'" for i in range(60)],
    ]
    text = _kept(_page(form), "Sign in with my email and password").text()
    for fragment in ("E-Mail-Adresse", "Passwort", "[45] button 'Anmelden'"):
        assert fragment in text


def test_table_row_travels_with_its_header_row() -> None:
    rows = ["\t\t[50] table ''", "\t\t\t[51] row ''", "\t\t\t\t[52] columnheader 'Club'",
            "\t\t\t\t[53] columnheader 'Points'"]
    for i, club in enumerate(["Leverkusen", "Bayern", "Stuttgart"] + [f"Club{i}" for i in range(60)]):
        rows += [f"\t\t\t[{60 + 3 * i}] row ''", f"\t\t\t\t[{61 + 3 * i}] cell '{club}'",
                 f"\t\t\t\t[{62 + 3 * i}] cell '{30 - i % 30}'"]
    text = _kept(_page(rows), "How many points does Bayern have?").text()
    assert "cell 'Bayern'" in text and "[65] cell '29'" in text and "columnheader 'Points'" in text
    assert "cell 'Club40'" not in text


def test_nothing_matches_keeps_controls_softly() -> None:
    res = _kept(_page(_products()), "ズボンを探す")
    assert "button 'Add to cart'" in res.text()


def test_terms_join_spelling_variants_and_concepts() -> None:
    assert "+login" in terms_of("log in") and "§login" in terms_of("Anmelden")
    assert "49.99" in terms_of("$49.99") and "§cart" in terms_of("basket")
