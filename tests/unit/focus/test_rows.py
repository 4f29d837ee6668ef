"""Questions whose answer is several rows: the matched row brings its siblings (:mod:`pagelens.focus.rows`,
issue 9, thirty-third pass; off in ``default``, ``RulesConfig.rows_share``)."""

from __future__ import annotations

import pytest
from focus_pages import typed_rendering

from pagelens.focus.analysis import analysis_of
from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rows import asks_rows, item_of, sibling_lines
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.focus.units import UnitLimits

_LONG = " ".join(f"w{i}" for i in range(40))  # ~40 tokens that share no word with any goal
_NAMES = ("Quill", "Rowan", "Sable", "Tamsin", "Umber", "Vesper", "Wren", "Yarrow")


def _team() -> list[tuple[int, str, str]]:
    """A page with a table of people (a header row and eight rows: name, role, last seen, a note) amid long prose."""
    specs = [(0, "RootWebArea", "Workspace"), (1, "main", ""), (2, "heading", "Introduction")]
    specs += [(2, "paragraph", f"Opening note {i} {_LONG}") for i in range(25)]
    specs += [(2, "heading", "People"), (2, "table", ""), (3, "row", ""), (4, "columnheader", "Name"),
              (4, "columnheader", "Role"), (4, "columnheader", "Last seen")]
    for i, name in enumerate(_NAMES):
        specs += [(3, "row", ""), (4, "cell", name), (4, "cell", "editor"), (4, "cell", f"{i + 2} days ago")]
    specs += [(2, "heading", "Changelog")]
    specs += [(2, "paragraph", f"Release line {i} {_LONG}") for i in range(25)]
    return specs


@pytest.mark.parametrize("goal", ["How many maintainers are there?", "Which people are maintainers?",
                                  "List every maintainer", "What is the total of all invoices?",
                                  "Compare the two plans", "Wie viele Benutzer gibt es?",
                                  "Combien d'utilisateurs au total ?", "¿Cuántos pedidos hay?", "合計はいくらですか？"])
def test_a_goal_asking_for_several_rows_is_recognised(goal: str) -> None:
    assert asks_rows(goal)


@pytest.mark.parametrize("goal", ["What is Quill's role?", "When was the release published?",
                                  "Open the settings page", "Who wrote this article?", "What does the plan cost?"])
def test_a_goal_asking_for_one_value_is_not(goal: str) -> None:
    assert not asks_rows(goal)


def test_a_row_is_an_item_of_its_table_without_the_header_row() -> None:
    pa = analysis_of(typed_rendering(_team()), UnitLimits(), 600, cache=False)
    page = pa.page
    cell = next(i for i, ln in enumerate(page.lines) if ln.name == "Sable")
    it = item_of(page, cell)
    assert it is not None and page.lines[it.item].role == "row" and it.item == page.parents[cell]
    assert len(it.siblings) == len(_NAMES)  # the header row is not an item
    para = next(i for i, ln in enumerate(page.lines) if ln.name.startswith("Opening note 3"))
    assert item_of(page, para) is None  # paragraphs under "main" are not items of a repeated group


def test_sibling_lines_bring_the_header_and_the_other_rows_within_the_cap() -> None:
    pa = analysis_of(typed_rendering(_team()), UnitLimits(), 600, cache=False)
    page = pa.page
    cell = next(i for i, ln in enumerate(page.lines) if ln.name == "Sable")
    order = [pa.units.of_line[cell]]
    assert page.lines[pa.units.heads[order[0]]].role == "row"  # each row is a unit of its own
    names = {page.lines[j].name for j in sibling_lines(pa, order, 5, 400, 150)}
    assert {"Name", "Role", *_NAMES} <= names
    few = {page.lines[j].name for j in sibling_lines(pa, order, 5, 40, 150)}
    assert 0 < len(few & set(_NAMES)) < len(_NAMES)  # the cap binds
    assert sibling_lines(pa, order, 5, 0, 150) == []


def _view(goal: str, cfg: RulesConfig) -> str:
    res = focus(typed_rendering(_team()), FocusQuery(goal, budget=0.12), RulesRetriever(cfg), defense=False)
    assert res.error is None
    return res.text()


def test_a_list_question_keeps_the_sibling_rows_only_with_the_mechanism() -> None:
    goal = "Which others are in Quill's group?"
    off, on = _view(goal, RulesConfig()), _view(goal, RulesConfig(rows_share=0.5))
    assert not all(n in off for n in _NAMES)  # the ranker keeps some rows, not the set
    assert all(n in on for n in _NAMES)


def test_a_single_value_question_is_left_as_it_was() -> None:
    goal = "What is Quill's role?"
    assert _view(goal, RulesConfig(rows_share=0.5)) == _view(goal, RulesConfig())


def test_most_picks_the_group_holding_most_of_the_first_units() -> None:
    specs = _team()
    at = specs.index((2, "heading", "People"))
    nav = [(2, "list", "")] + [(3, "listitem", f"Section link {i} {_LONG}") for i in range(6)]
    pa = analysis_of(typed_rendering(specs[:at] + nav + specs[at:]), UnitLimits(), 600, cache=False)
    page, units = pa.page, pa.units

    def unit(name: str) -> int:
        return units.of_line[next(i for i, ln in enumerate(page.lines) if ln.name.startswith(name))]

    order = [unit("Section link 1"), unit("Sable"), unit("Wren")]
    first = {page.lines[j].name for j in sibling_lines(pa, order, 5, 400, 150)}
    most = {page.lines[j].name for j in sibling_lines(pa, order, 5, 400, 150, pick="most")}
    assert any(n.startswith("Section link 2") for n in first) and not first & set(_NAMES)
    assert set(_NAMES) - {"Sable", "Wren"} <= most and not any(n.startswith("Section link") for n in most)
