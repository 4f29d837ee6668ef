"""``default`` on bad input: a focused view or the full tree with a recorded reason, never an
exception (pages with no text, a 100,000-line tree, foreign scripts, empty goals, control
characters, huge names)."""

from __future__ import annotations

import pytest
from focus_pages import typed_rendering as _rendering

from pagelens.focus.apply import FocusResult, focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesRetriever
from pagelens.types import Rendering


def _shop(n_items: int, name: str = "Item") -> list[tuple[int, str, str]]:
    specs = [(0, "RootWebArea", "Shop"), (1, "main", "")]
    for i in range(n_items):
        specs += [(2, "article", ""), (3, "link", f"{name} {i} with a description"), (3, "StaticText", f"${i}.99"),
                  (3, "button", "Add to cart")]
    return specs


def _sane(res: FocusResult, r: Rendering) -> None:
    assert res.lines, "never an empty view"
    if res.error is None:
        assert res.focused_tokens < res.full_tokens or res.kept == frozenset(ln.no for ln in r.lines)
    else:
        assert res.text() == r.text()  # the full tree, with the reason recorded


def test_a_page_with_no_text() -> None:
    r = _rendering([(0, "RootWebArea", ""), *[(1, "generic", "") for _ in range(300)],
                    *[(1, "image", "") for _ in range(300)]])
    res = focus(r, FocusQuery("Buy the red kettle"), RulesRetriever(), defense=False)
    _sane(res, r)


@pytest.mark.slow
def test_a_100000_line_tree_is_focused() -> None:
    r = _rendering(_shop(25_000))
    assert len(r) == 100_002
    res = focus(r, FocusQuery("Add Item 24999 to the cart"), RulesRetriever(), defense=False)
    assert res.error is None
    assert "Item 24999 with a description" in res.text()
    assert res.pruning > 0.9  # the ceiling holds on a huge page


@pytest.mark.parametrize("goal", [
    "赤いやかんをカートに入れる",  # Japanese
    "أضف الغلاية الحمراء إلى السلة",  # Arabic, right to left
    "Добавить чайник в корзину",  # Cyrillic
    "",  # empty
    "   \t\n ",  # only white space
    "Add\x00 the\x07 kettle\x1b[31m to the cart\u202e\ufeff",  # control and bidi characters
    "x" * 100_000,  # a huge goal
    "?" * 50 + " " + "'" * 50,  # punctuation only, unbalanced quotes
])
def test_odd_goals(goal: str) -> None:
    r = _rendering(_shop(200))
    res = focus(r, FocusQuery(goal), RulesRetriever(), defense=False)
    _sane(res, r)


def test_huge_names_and_control_characters_on_the_page() -> None:
    specs = _shop(50)
    specs.insert(3, (2, "LayoutTableCell", "word " * 200_000))  # a layout cell named with a whole page
    specs.insert(4, (3, "StaticText", "\x00\x01\x02 kettle \x1b[0m \u202e reversed"))
    r = _rendering(specs)
    res = focus(r, FocusQuery("Add Item 7 to the cart"), RulesRetriever(), defense=False)
    _sane(res, r)
    assert "Item 7 with a description" in res.text()
    assert len(res.text()) < 60_000  # the huge cell is not shown whole


@pytest.mark.parametrize("budget", [1e-9, 0.0, -1.0, 1.0, 5.0, float("nan")])
def test_any_budget_gives_a_view(budget: float) -> None:
    r = _rendering(_shop(200))
    res = focus(r, FocusQuery("Add Item 7 to the cart", budget=budget), RulesRetriever(), defense=False)
    _sane(res, r)
