"""Cores before partners (:mod:`pagelens.focus.cores`, h20-small): the best units' own lines are kept
first, within a share of the budget, before the fill brings what they bring."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from focus_pages import typed_rendering

from pagelens.focus.analysis import analysis_of
from pagelens.focus.cores import cores_first
from pagelens.focus.rules import RulesConfig, RulesRetriever


def _page() -> list[tuple[int, str, str]]:
    specs = [(0, "RootWebArea", "Console"), (1, "main", "")]
    for i in range(6):  # six cards, one line each, the third one long
        specs.append((2, "paragraph", ""))
        specs.append((3, "StaticText", f"Card {i} " + ("long text " * 30 if i == 2 else "short")))
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


class _Crafted(RulesRetriever):
    """``default`` with a fixed ranking: the heading first, the far note second, nothing else."""

    def _signals(self, query, pa):  # type: ignore[no-untyped-def]
        _, line_terms, unseen = super()._signals(query, pa)
        lines = pa.page.lines
        head = next(pa.units.of_line[i] for i, ln in enumerate(lines) if ln.role == "heading")
        note = next(pa.units.of_line[i] for i, ln in enumerate(lines) if ln.name.startswith("Beta note"))
        return {"terms": [head, note]}, line_terms, unseen


def test_a_second_unit_is_not_starved_by_what_the_first_brings() -> None:
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.observe.textparse import rendering_from_text

    page = ["RootWebArea 'Cores'", "\t[1] main ''", "\t\t[2] heading 'Alpha section'"]
    page += [f"\t\tStaticText 'Lead sentence {i} of the alpha section, long enough to cost tokens.'" for i in range(40)]
    page += ["\t\t[3] paragraph ''", ("\t\t\tStaticText 'Beta note: a longer paragraph that the second unit holds, of some"
                                       " forty tokens, enough not to fit in what the first unit's lead leaves of the budget.'")]
    r = rendering_from_text("\n".join(page))
    cfg = RulesConfig(floor_tokens=220, budget=0.01, skeleton_share=0.0, gap_tokens=0, fusion="rrf", small_page_tokens=0)

    def view(share: float) -> str:
        res = focus(r, FocusQuery("alpha and beta"), _Crafted(dataclasses.replace(cfg, core_share=share)), defense=False)
        assert res.error is None
        return res.text()

    without, with_cores = view(0.0), view(0.7)
    assert "Lead sentence 0" in without and "Beta note" not in without  # the heading's lead spent the budget
    assert "Alpha section" in with_cores and "Beta note" in with_cores
    assert "Lead sentence 0" not in with_cores  # the price: the lead no longer fits (it travels whole or not at all)


def test_the_shipped_default_runs_the_pass_on_every_budget() -> None:
    cfg = RulesConfig()
    assert cfg.core_share == 0.7 and cfg.core_max_budget == 0  # adopted by the twenty-first pass (BENCHMARKS.md)
