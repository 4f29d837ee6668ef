"""Rows and short lists the view shows in part (:mod:`pagelens.focus.complete`, issue 9, forty-second pass)."""

from __future__ import annotations

import pytest
from focus_pages import typed_rendering

from pagelens.focus.analysis import analysis_of
from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.complete import complete, parse
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.focus.units import UnitLimits

_LONG = " ".join(f"w{i}" for i in range(60))  # a long description cell: the row is cut into one unit per cell
_GOAL = "Which keyboard shortcut closes the open capture?"


def _menu() -> list[tuple[int, str, str]]:
    """A menu reference table (item, shortcut, description) among filler paragraphs: the row the goal means names
    its words in the item and the description; the shortcut cell shares none of them."""
    specs = [(0, "RootWebArea", "Reference"), (1, "main", "")]
    specs += [(2, "paragraph", f"Filler paragraph {i} {_LONG}") for i in range(30)]
    specs += [(2, "table", "")]
    for name, key in (("Load", "Ctrl+O"), ("Close capture", "Ctrl+W"), ("Print", "Ctrl+P")):
        words = "closes the open capture you are looking at" if name.startswith("Close") else "does another thing"
        # the item's cell is longer than a neighbour that travels with a short line (``UnitLimits.neighbour_tokens``)
        # and the key is written over several lines (a paragraph, two bold keys): more than the gap closer shows
        mod, _, letter = key.partition("+")
        specs += [(3, "row", ""), (4, "cell", f"{name} menu entry {_LONG[:90]}"), (4, "cell", key), (5, "paragraph", ""),
                  (6, "strong", ""), (7, "StaticText", mod), (6, "StaticText", "+"), (6, "strong", ""),
                  (7, "StaticText", letter), (4, "cell", f"This item {words} {_LONG} {_LONG}")]
    specs += [(2, "paragraph", f"Trailing filler {i} {_LONG}") for i in range(30)]
    return specs


def _partial_row() -> tuple[object, set[int], list[int], int, int]:
    """The menu page's analysis, a view showing the "Close capture" row's item and description cells only (as the
    fill leaves a row whose cells are units of their own), the order's units (those two), the key cell's line and
    the next row's."""
    pa = analysis_of(typed_rendering(_menu()), UnitLimits(), 600, cache=False)
    lines = pa.page.lines
    name = next(i for i, ln in enumerate(lines) if ln.name.startswith("Close capture"))
    key, desc = name + 1, name + 8
    assert lines[key].name == "Ctrl+W" and lines[desc].name.startswith("This item closes")
    assert pa.units.of_line[name] != pa.units.of_line[key] != pa.units.of_line[desc]  # one unit per cell
    keep = {0, 1, name - 1, name, desc}
    return pa, keep, [pa.units.of_line[desc], pa.units.of_line[name]], key, desc + 1


def test_the_cell_between_a_kept_key_and_description_joins_the_view() -> None:
    pa, keep, order, key, next_row = _partial_row()
    assert complete(parse("row:20:0.1:400"), pa, keep, order, 1000) > 0
    assert set(range(key, key + 7)) <= keep  # the key cell's lines (paragraph, bold keys) are shown
    assert next_row not in keep  # only the row the view shows in part, not the next one
    assert complete(parse("list:20:0.1"), pa, set(), order, 1000) == 0  # nothing shown: nothing completed


def test_the_shipped_spec_and_off() -> None:
    assert RulesConfig().complete == "row+list:20:0.1:400:12"  # RL of the forty-second pass
    assert parse("") is None
    rendering = typed_rendering(_menu())
    views = [focus(rendering, FocusQuery(_GOAL), RulesRetriever(RulesConfig(**kw)), defense=False).text()
             for kw in ({"complete": ""}, {"complete": "", "passage": RulesConfig().passage})]
    assert views[0] == views[1]
    on = focus(rendering, FocusQuery(_GOAL), RulesRetriever(RulesConfig(complete="row:20:0.1:400")), defense=False)
    assert on.error is None and "Ctrl+W" in on.text()


def test_lists_bring_the_other_items_of_a_short_list_only() -> None:
    specs = [(0, "RootWebArea", "Docs"), (1, "main", ""), (2, "list", "")]
    specs += [(3, "listitem", f"kind {i} {_LONG}") for i in range(5)]  # items of ~60 tokens: one unit each
    specs += [(2, "list", "")] + [(3, "listitem", f"entry {i} {_LONG}") for i in range(30)]
    pa = analysis_of(typed_rendering(specs), UnitLimits(), 600, cache=False)
    first = pa.units.of_line[3]
    long_first = pa.units.of_line[9]
    keep = {0, 1, 2, 3, 8, 9}
    spent = complete(parse("list:20:0.1:200:12"), pa, keep, [first, long_first], 1000)
    assert spent > 0
    assert {4, 5, 6, 7} <= keep  # the short list whole
    assert not any(i in keep for i in range(10, 39))  # the long one: a listing, not completed


def test_the_allowance_bounds_what_is_added_and_a_bad_spec_is_refused() -> None:
    pa, keep, order, key, _next_row = _partial_row()
    before = set(keep)
    assert complete(parse("row:20:0.1:400"), pa, keep, order, 5) == 0 and keep == before
    assert complete(parse("row:20:0.1:60"), pa, keep, order, 1000) == 0 and keep == before  # the row is too large
    for bad in ("cols:20:0.1", "row:20", "row:x:0.1"):
        with pytest.raises(ValueError):
            parse(bad)
