"""The LLM-free default retriever on hand-built trees (no browser)."""

from __future__ import annotations

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.focus.terms import terms_of
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


def _kept(text: str, goal: str, cfg: RulesConfig | None = None):  # type: ignore[no-untyped-def]
    r = rendering_from_text(text)
    res = focus(r, FocusQuery(goal), RulesRetriever(cfg), defense=False)
    assert res.error is None
    return res


def test_product_units_keep_price_and_button_next_to_the_match() -> None:
    res = _kept(_page(_products()), "Add the cheapest wireless headphones to my basket")
    text = res.text()
    for i in range(0, 40, 4):  # every matching product with its price and its button
        assert f"[{200 + i}] link 'Brand{i} Wireless headphones {i}'" in text
        assert f"[{300 + i}] button 'Add to cart'" in text
        assert f"'${10 + i}.99'" in text  # (a text node: its quoted text, the terse view's form)
    # (the budget is filled: other products may follow, but the matching ones come first)
    first = text.index("Wireless headphones")
    assert "Speaker stand" not in text[:first]
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


def test_a_rare_row_word_and_a_column_header_pick_the_cell() -> None:
    # the page's title carries the topic words; the country and the year pick the cell
    years = [str(y) for y in range(2010, 2022)]
    rows = ["\t\t[40] heading 'Rail passengers by country'", "\t\t[50] table 'Rail passengers (millions)'",
            "\t\t\t[51] row ''", "\t\t\t\t[52] rowheader 'Country'",
            *[f"\t\t\t\t[{53 + k}] columnheader '{y}'" for k, y in enumerate(years)]]
    countries = [f"Land{chr(65 + i)}{chr(75 + i)}" for i in range(30)] + ["Norway"]
    for i, c in enumerate(countries):
        base = 100 + i * 20
        rows += [f"\t\t\t[{base}] row ''", f"\t\t\t\t[{base + 1}] rowheader '{c}'",
                 *[f"\t\t\t\t[{base + 2 + k}] cell '{i * 13 + k}.{k}'" for k in range(len(years))]]
    text = "\n".join(["RootWebArea 'Rail passengers'", "\t[2] main ''", *rows])
    res = _kept(text, "How many rail passengers did Norway have in 2015?")
    norway = 100 + 30 * 20
    assert f"[{norway + 1}] rowheader 'Norway'" in res.text() and f"[{norway + 2 + 5}] cell" in res.text()
    assert "columnheader '2015'" in res.text()
    assert res.pruning > 0.6


def _unsorted_listing() -> list[str]:
    out = ["\t\t[4] heading 'Kettles'", "\t\t[5] list 'Results'"]
    prices = [40 + (i * 37) % 90 for i in range(40)]
    prices[33] = 12  # the cheapest, far down an unsorted list
    for i, p in enumerate(prices):
        b = 100 + i * 10
        out += [f"\t\t\t[{b}] listitem ''", f"\t\t\t\t[{b + 1}] link 'Model {chr(65 + i % 26)}{i} kettle'",
                f"\t\t\t\tStaticText 'A sturdy appliance with a long description of its many features number {i}'",
                f"\t\t\t\tStaticText '${p}.00'", f"\t\t\t\t[{b + 2}] button 'Add to cart'"]
    return out


def test_an_extreme_over_an_unsorted_listing_keeps_every_items_name_and_value() -> None:
    flat = RulesConfig(certain_by="")  # the same budget for both goals: the comparison is the projection's
    res = _kept(_page(_unsorted_listing()), "Add the cheapest kettle to my cart", flat)
    text = res.text()
    assert "[431] link 'Model H33 kettle'" in text and "'$12.00'" in text
    assert text.count("long description") < 40  # prose is not what gets compared
    assert res.pruning > 0.5
    # without the extreme, the far item is not needed (and not kept): the projection did it
    assert "Model H33 kettle" not in _kept(_page(_unsorted_listing()), "Add a kettle to my cart", flat).text()
    assert "[431] link 'Model H33 kettle'" in _kept(_page(_unsorted_listing()), "Add the cheapest kettle to my cart").text()


def test_a_question_for_a_phone_number_keeps_the_number() -> None:
    body = [f"\t\tStaticText 'Paragraph {i} about our opening hours and general store policies'" for i in range(60)]
    body += ["\t\t[70] paragraph ''", "\t\t\tStaticText 'Questions? Our team is here:'",
             "\t\t\t[71] link '0161 496 0321'"]
    assert "[71] link '0161 496 0321'" in _kept(_page(body), "Which number should I ring to reach support?").text()


def test_soft_fallback_does_not_repeat_a_long_listings_controls() -> None:
    res = _kept(_page(_unsorted_listing()), "ズボンを探す")  # nothing matches
    text = res.text()
    assert text.count("button 'Add to cart'") >= 1  # the page's controls, softly
    assert res.info["spent_tokens"] <= res.info["budget_tokens"] * 1.05
    assert res.pruning > 0.5


def test_history_contributes_action_arguments_not_ids() -> None:
    from pagelens.focus.terms import query_terms

    weights, _ = query_terms(FocusQuery("Buy a kettle", history=('fill("66", "Felix Petrov")', 'click("110")')))
    assert "felix" in weights and "petrov" in weights
    assert "66" not in weights and "110" not in weights and "fill" not in weights and "click" not in weights


def test_date_values_answer_when_questions() -> None:
    for text in ("Stand - 12.11.2021", "Completed: 2017-12-26", "Updated Nov 12, 2021", "3. März 2020"):
        assert "§date" in terms_of(text), text
    for text in ("$1,627.88", "1,263.1", "0300 123 4567", "v4.2.1"):
        assert "§date" not in terms_of(text), text


def test_a_long_quoted_title_is_found_as_a_phrase_and_a_message_to_type_is_not_searched() -> None:
    from pagelens.focus.terms import query_terms

    weights, phrases = query_terms(FocusQuery(
        'Reply to "Update on weeknight curry ideas (photos inside)" with "Thanks, that fixed my sauce problem completely, cheers"'))
    assert "update on weeknight curry ideas (photos inside)" in phrases
    assert "sauc" not in weights and "curri" not in weights  # long quotes: phrase only, no loose words
