"""Cores before partners (:mod:`pagelens.focus.cores`, h20-small): the best units' own lines are kept
first, within a share of the budget, before the fill brings what they bring."""

from __future__ import annotations

from collections.abc import Iterable

from focus_pages import typed_rendering

from pagelens.focus.analysis import analysis_of
from pagelens.focus.cores import cores_first
from pagelens.focus.rules import RulesConfig, RulesRetriever


def _page() -> list[tuple[int, str, str]]:
    specs = [(0, "RootWebArea", "Console"), (1, "main", "")]
    for i in range(6):  # six cards, one line each, the third one long
        specs.append((2, "paragraph", ""))
        specs.append((3, "StaticText", ("Card %d " % i) + ("long text " * 30 if i == 2 else "short")))
    return specs


def test_cores_are_added_best_first_within_the_tokens_and_a_big_one_is_skipped() -> None:
    cfg = RulesConfig()
    pa = analysis_of(typed_rendering(_page()), cfg.limits, cfg.unit_text_chars, cache=False)
    page, units = pa.page, pa.units
    head_of = {page.lines[units.heads[k] + 1].name.split()[1]: k for k in range(len(units.heads))
               if page.lines[units.heads[k]].role == "paragraph"}
    order = [head_of[n] for n in ("4", "2", "0", "1", "3", "5")]
    kept: set[int] = set()

    def add(span: Iterable[int]) -> None:
        kept.update(span)

    def cost_of(span: Iterable[int]) -> int:
        return sum(page.cost[j] + 1 for j in span if j not in kept)

    def spent() -> int:
        return sum(page.cost[j] + 1 for j in kept)

    small = page.subtree_tokens(units.heads[head_of["4"]])
    tokens = 3 * small + 5  # room for three short cards, not for the long one
    n = cores_first(pa, order, tokens, add, cost_of, spent)
    shown = {page.lines[j].name.split()[1] for j in kept if page.lines[j].role == "StaticText"}
    assert shown == {"4", "0", "1"}  # best first; "2" does not fit and is skipped; "3" no longer fits
    assert n == 3 and spent() <= tokens
    assert cores_first(pa, order, 0, add, cost_of, spent) == 0


def test_the_fill_is_unchanged_when_off_and_keeps_a_core_when_on() -> None:
    r = typed_rendering(_page())
    off = RulesRetriever(RulesConfig(small_page_tokens=0, core_share=0.0))
    assert RulesConfig().core_share == 0.7  # adopted by the twenty-first pass (BENCHMARKS.md)
    on = RulesRetriever(RulesConfig(small_page_tokens=0, core_share=0.7))
    from pagelens.focus.base import FocusQuery

    for ret in (off, on):
        sel = ret.select(FocusQuery("Card 4 short"), r)
        assert 0 in sel.keep
