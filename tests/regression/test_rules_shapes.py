"""``default`` on trees shaped after particular labeled goals (regression tests).

These tests were written from misses on the development goal sets (a weight far below a
product's name, an amount in a nutrition table, a form below fine print): they guard those
shapes, not general mechanisms, so they live apart from ``tests/unit``.
"""

from __future__ import annotations

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesRetriever
from pagelens.focus.terms import terms_of
from pagelens.observe.textparse import rendering_from_text


def _page(body: list[str]) -> str:
    nav = [f"\t\t[{900 + i}] link 'Department {i} deals and offers', url='http://127.0.0.1/d/{i}'" for i in range(80)]
    foot = [f"\t\t[{1000 + i}] link 'Footer information link {i}', url='http://127.0.0.1/f/{i}'" for i in range(40)]
    return "\n".join(["RootWebArea 'Store'", "\t[1] navigation 'Main'", *nav, "\t[2] main ''", *body,
                      "\t[3] contentinfo ''", *foot])


def _kept(text: str, goal: str):  # type: ignore[no-untyped-def]
    r = rendering_from_text(text)
    res = focus(r, FocusQuery(goal), RulesRetriever(), defense=False)
    assert res.error is None
    return res


def test_an_action_goal_is_matched_by_labels_not_by_fine_print() -> None:
    legal = [f"\t\tStaticText 'Clause {i}: you authorise us to charge your credit card for membership fees and "
             f"to enter your card details into our payment processor, as described in section {i}.'" for i in range(12)]
    form = ["\t\t[40] group 'Card details'", "\t\t\t[41] textbox 'Card number'", "\t\t\t[42] textbox 'Name on card'",
            "\t\t\t[43] button 'Pay now'"]
    res = _kept(_page(legal + form), "Enter my credit card details to pay for the membership")
    assert "[41] textbox 'Card number'" in res.text() and "[43] button 'Pay now'" in res.text()
    r = rendering_from_text(_page(legal + form))
    best_line = res.info["top_units"][0][0]
    assert r.lines[best_line].eid in ("40", "41", "42"), res.info["top_units"][:3]  # the form ranks first


def test_a_question_keeps_the_lines_that_follow_what_it_names() -> None:
    body = [f"\t\tStaticText 'Unrelated paragraph {i} on the history of fishing in northern lakes and rivers'"
            for i in range(40)]
    body += ["\t\t[50] heading 'Test: the Zander Pro 270 rod'", "\t\t[51] paragraph ''",
             "\t\t\tStaticText 'We fished the Zander Pro 270 for a season.'", "\t\t[52] list ''",
             "\t\t\t[53] listitem ''", "\t\t\t\tStaticText '- Länge: 2,70 m'", "\t\t\t[54] listitem ''",
             "\t\t\t\tStaticText '- Gewicht: 186 g'"]
    body += [f"\t\tStaticText 'Closing remark {i} about tackle shops and weather'" for i in range(40)]
    assert "Gewicht: 186 g" in _kept(_page(body), "How heavy is the Zander Pro 270?").text()


def test_how_much_asks_for_an_amount_not_only_a_price() -> None:
    for text in ("Caffeine 95 mg", "Gewicht: 186 Gramm", "$49.99", "44 €", "bis zu 38 Stunden", "25%"):
        assert "§amount" in terms_of(text), text
    for text in ("2019", "E0150", "Model 3", "12 points"):
        assert "§amount" not in terms_of(text), text
    body = [f"\t\tStaticText 'Brewing note {i}: grind size, water temperature and patience matter'" for i in range(40)]
    body += ["\t\t[60] table 'Nutrition'", "\t\t\t[61] row ''", "\t\t\t\t[62] cell 'Calories 2'",
             "\t\t\t[63] row ''", "\t\t\t\t[64] cell 'Caffeine 95 mg'"]
    assert "[64] cell 'Caffeine 95 mg'" in _kept(_page(body), "How much caffeine does a cup contain?").text()


def test_a_how_heavy_question_finds_the_amount_far_from_the_name() -> None:
    body = ["\t\t[50] heading 'Zander Pro 270 im Test'"]
    body += [f"\t\tStaticText 'Absatz {i}: Wir waren mit der Rute viele Wochen am Wasser unterwegs und berichten'"
             for i in range(30)]
    body += ["\t\t[60] list ''", "\t\t\t[61] listitem ''", "\t\t\t\tStaticText 'Länge: 2,70 m'",
             "\t\t\t[62] listitem ''", "\t\t\t\tStaticText 'Gewicht: 186 g'"]
    body += [f"\t\tStaticText 'Fazit {i}: eine gute Rute für Einsteiger und Fortgeschrittene am Fluss'" for i in range(30)]
    assert "Gewicht: 186 g" in _kept(_page(body), "How heavy is the Zander Pro 270 rod?").text()
