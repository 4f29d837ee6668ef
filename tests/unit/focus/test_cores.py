"""Cores before partners (:mod:`pagelens.focus.cores`, h20-small): the best units' own lines are kept
first, within a share of the budget, before the fill brings what they bring."""

from __future__ import annotations

import dataclasses

from focus_pages import FillHarness

from pagelens.focus.cores import cores_first
from pagelens.focus.rules import RulesConfig, RulesRetriever


def test_cores_are_added_best_first_within_the_tokens_and_a_big_one_is_skipped() -> None:
    h = FillHarness.of_cards()
    order = [h.head_of[n] for n in ("4", "2", "0", "1", "3", "5")]
    tokens = 3 * h.tokens_of("4") + 5  # room for three short cards, not for the long one
    n = cores_first(h.pa, order, tokens, *h.callbacks())
    assert h.shown() == {"4", "0", "1"}  # best first; "2" does not fit and is skipped; "3" no longer fits
    assert n == 3 and h.spent() <= tokens
    assert cores_first(h.pa, order, 0, *h.callbacks()) == 0


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
    cfg = RulesConfig(floor_tokens=220, budget=0.01, skeleton_share=0.0, gap_tokens=0, fusion="rrf", small_page_tokens=0,
                      leftover_reach=0)  # (the budget the fill leaves is not spent: this is about the cores pass)

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
