"""Units ranked high that the fill skipped come back (:mod:`pagelens.focus.unfit`, h21-fit)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from focus_pages import typed_rendering

from pagelens.focus.analysis import analysis_of
from pagelens.focus.cores import cores_first
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.focus.unfit import after_fill, skipped_back


def _page() -> list[tuple[int, str, str]]:
    specs = [(0, "RootWebArea", "Console"), (1, "main", "")]
    for i in range(6):  # six cards, one line each, the third one long
        specs.append((2, "paragraph", ""))
        specs.append((3, "StaticText", f"Card {i} " + ("long text " * 30 if i == 2 else "short")))
    return specs


def _setup():  # type: ignore[no-untyped-def]
    cfg = RulesConfig()
    pa = analysis_of(typed_rendering(_page()), cfg.limits, cfg.unit_text_chars, cache=False)
    page, units = pa.page, pa.units
    head_of = {page.lines[units.heads[k] + 1].name.split()[1]: k for k in range(len(units.heads))
               if page.lines[units.heads[k]].role == "paragraph"}
    kept: set[int] = set()

    def add(span: Iterable[int]) -> None:
        kept.update(span)

    def cost_of(span: Iterable[int]) -> int:
        return sum(page.cost[j] + 1 for j in span if j not in kept)

    def spent() -> int:
        return sum(page.cost[j] + 1 for j in kept)

    def shown() -> set[str]:
        return {page.lines[j].name.split()[1] for j in kept if page.lines[j].role == "StaticText"}

    return pa, head_of, kept, add, cost_of, spent, shown


def test_the_cores_pass_records_what_it_skipped_and_it_comes_back_within_its_share() -> None:
    pa, head_of, _kept, add, cost_of, spent, shown = _setup()
    order = [head_of[n] for n in ("4", "2", "0", "1", "3", "5")]
    small = pa.page.subtree_tokens(pa.units.heads[head_of["4"]])
    big = pa.page.subtree_tokens(pa.units.heads[head_of["2"]])
    skipped: list[int] = []
    cores_first(pa, order, 3 * small + 5, add, cost_of, spent, skipped)
    assert shown() == {"4", "0", "1"}
    assert skipped == [head_of[n] for n in ("2", "3", "5")]  # in fused order, the long one first
    assert skipped_back(pa, skipped, 3 * small + big + 5, add, cost_of, spent) == 1
    assert shown() == {"4", "0", "1", "2"}  # the long card came back; nothing beyond the share
    assert spent() <= 3 * small + big + 5
    assert skipped_back(pa, skipped, spent(), add, cost_of, spent) == 0  # nothing when the share is spent


def test_after_the_fill_only_unshown_heads_come_within_the_allowance() -> None:
    pa, head_of, kept, add, _cost_of, _spent, shown = _setup()
    order = [head_of[n] for n in ("4", "2", "0", "1")]
    add(range(pa.units.heads[head_of["4"]], pa.page.ends[pa.units.heads[head_of["4"]]]))
    before = set(kept)
    small = pa.page.subtree_tokens(pa.units.heads[head_of["0"]])
    used = after_fill(pa, kept, order, first=4, max_tokens=60, allowance=small + 9)
    assert kept >= before  # a view only gains lines
    assert shown() == {"4", "0"}  # "2" is over max_tokens; "1" is past the allowance
    assert 0 < used <= small + 9
    assert after_fill(pa, kept, order, first=4, max_tokens=60, allowance=0) == 0


class _Crafted(RulesRetriever):
    """``default`` with a fixed ranking: the heading, the long note, then the short notes."""

    def _signals(self, query, pa):  # type: ignore[no-untyped-def]
        _, line_terms, unseen = super()._signals(query, pa)
        lines = pa.page.lines
        head = next(pa.units.of_line[i] for i, ln in enumerate(lines) if ln.role == "heading")
        beta = next(pa.units.of_line[i] for i, ln in enumerate(lines) if ln.name.startswith("Beta note"))
        gammas = [pa.units.of_line[i] for i, ln in enumerate(lines) if ln.name.startswith("Gamma")]
        return {"terms": [head, beta, *gammas]}, line_terms, unseen


def test_a_unit_the_cores_pass_skipped_is_not_lost_to_the_first_units_lead() -> None:
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.observe.textparse import rendering_from_text

    page = ["RootWebArea 'Unfit'", "\t[1] main ''", "\t\t[2] heading 'Alpha section'"]
    page += [f"\t\tStaticText 'Lead sentence {i} of the alpha section, long enough to cost tokens.'" for i in range(40)]
    page += ["\t\t[3] paragraph ''", "\t\t\tStaticText 'Beta note: " + "a value the goal asks for, " * 44 + "end.'"]
    page += [f"\t\t[{4 + i}] paragraph ''\n\t\t\tStaticText 'Gamma {i} short.'" for i in range(6)]
    r = rendering_from_text("\n".join(page))
    cfg = RulesConfig(floor_tokens=480, budget=0.01, skeleton_share=0.0, gap_tokens=0, fusion="rrf", small_page_tokens=0,
                      nearby_best=0)

    def view(share: float) -> str:
        res = focus(r, FocusQuery("alpha and beta"), _Crafted(dataclasses.replace(cfg, unfit_share=share)), defense=False)
        assert res.error is None
        return res.text()

    without, with_back = view(0.0), view(1.0)
    assert "Gamma 5" in without and "Lead sentence 0" in without and "Beta note" not in without
    assert "Beta note" in with_back and "Gamma 5" in with_back
    assert "Lead sentence 0" not in with_back  # the price: the heading's lead no longer fits


def test_the_shipped_default_brings_skipped_units_after_the_fill_only() -> None:
    cfg = RulesConfig()
    assert cfg.unfit_after == 0.05 and cfg.unfit_first == 50 and cfg.unfit_tokens == 220  # the twenty-third pass
    assert cfg.unfit_share == 0.0  # U1/U2 (inside the budget) were not adopted
