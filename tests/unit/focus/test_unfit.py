"""Units ranked high that the fill skipped come back (:mod:`pagelens.focus.unfit`, h21-fit)."""

from __future__ import annotations

import dataclasses

from focus_pages import FillHarness

from pagelens.focus.cores import cores_first
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.focus.unfit import after_fill, skipped_back


def test_the_cores_pass_records_what_it_skipped_and_it_comes_back_within_its_share() -> None:
    h = FillHarness.of_cards()
    order = [h.head_of[n] for n in ("4", "2", "0", "1", "3", "5")]
    small, big = h.tokens_of("4"), h.tokens_of("2")
    skipped: list[int] = []
    cores_first(h.pa, order, 3 * small + 5, *h.callbacks(), skipped)
    assert h.shown() == {"4", "0", "1"}
    assert skipped == [h.head_of[n] for n in ("2", "3", "5")]  # in fused order, the long one first
    assert skipped_back(h.pa, skipped, 3 * small + big + 5, *h.callbacks()) == 1
    assert h.shown() == {"4", "0", "1", "2"}  # the long card came back; nothing beyond the share
    assert h.spent() <= 3 * small + big + 5
    assert skipped_back(h.pa, skipped, h.spent(), *h.callbacks()) == 0  # nothing when the share is spent


def test_after_the_fill_only_unshown_heads_come_within_the_allowance() -> None:
    h = FillHarness.of_cards()
    order = [h.head_of[n] for n in ("4", "2", "0", "1")]
    four = h.pa.units.heads[h.head_of["4"]]
    h.add(range(four, h.pa.page.ends[four]))
    before = set(h.kept)
    small = h.tokens_of("0")
    used = after_fill(h.pa, h.kept, order, first=4, max_tokens=60, allowance=small + 9)
    assert h.kept >= before  # a view only gains lines
    assert h.shown() == {"4", "0"}  # "2" is over max_tokens; "1" is past the allowance
    assert 0 < used <= small + 9
    assert after_fill(h.pa, h.kept, order, first=4, max_tokens=60, allowance=0) == 0


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
