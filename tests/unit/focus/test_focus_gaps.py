"""Two page- and phrasing-independent mechanisms of ``default`` (issue 9, h9-focus): small gaps
between shown lines are closed (:mod:`pagelens.focus.gaps`), and each strong signal's best units
go ahead of the fused order (``RulesConfig.signal_quota``)."""

from __future__ import annotations

import dataclasses

from focus_pages import FILLER

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.gaps import close_gaps, shown_positions
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.focus.units import page_of
from pagelens.observe.textparse import rendering_from_text

_TREE = ["RootWebArea 'Stats'",              # 0
         "\tgroup ''",                        # 1
         "\t\tStaticText 'Alpha'",            # 2 kept
         "\t\tStaticText '12'",               # 3 a one-line gap
         "\t\tStaticText 'Beta'",             # 4 kept
         "\t\tStaticText 'one'",              # 5 a five-line gap
         "\t\tStaticText 'two'",
         "\t\tStaticText 'three'",
         "\t\tStaticText 'four'",
         "\t\tStaticText 'five'",             # 9
         "\t\tStaticText 'Gamma'",            # 10 kept
         "\t\tStaticText 'tail'"]             # 11 after the last shown line: not a gap


def test_a_short_run_between_shown_lines_is_closed_and_nothing_else() -> None:
    page = page_of(rendering_from_text("\n".join(_TREE)))
    keep = {2, 4, 10}
    added = close_gaps(page, keep, max_tokens=32, max_lines=3)
    assert keep == {2, 3, 4, 10}  # the value between two kept lines; not the long run, not the tail
    assert added < page.cost[3] + 1  # net of the placeholder it saves


def test_gaps_respect_their_limits_and_the_lines_to_skip() -> None:
    page = page_of(rendering_from_text("\n".join(_TREE)))
    keep = {2, 4, 10}
    close_gaps(page, keep, max_tokens=32, max_lines=3, skip=frozenset({3}))
    assert keep == {2, 4, 10}
    keep = {2, 4, 10}
    close_gaps(page, keep, max_tokens=2, max_lines=3)  # "12" costs more than two tokens with its line
    assert keep == {2, 4, 10}


def test_ancestors_of_kept_lines_count_as_shown() -> None:
    page = page_of(rendering_from_text("\n".join(_TREE)))
    shown = shown_positions(page, {2})
    assert shown[0] and shown[1] and shown[2] and not shown[3]


def _value_page() -> list[str]:
    page = ["RootWebArea 'Paste archive'", "\t[1] main ''", "\t\t[2] heading 'Recent pastes'"]
    page += FILLER[:30]
    # the goal names the label; the number sits in the next text node, then an unrelated label
    # that the goal also names (so the value lies *between* two kept lines)
    # (both kept lines are long: a long line brings no neighbours along as partners)
    first = ("\t\tStaticText 'Hits recorded for this paste by the archive, counted over all of the days since it was"
             " first shared with anybody at all, in every country, by every reader'")
    second = ("\t\tStaticText 'Recorded hits are counted once per visitor of this paste, whatever the number of times"
              " that visitor came back to read it again later on in the week'")
    page += [first, "\t\tStaticText 'ninety thousand four hundred and twelve'", second]
    return page + FILLER[30:]


def test_default_shows_the_value_between_two_kept_lines_only_with_gaps_closed() -> None:
    rendering = rendering_from_text("\n".join(_value_page()))
    goal = "Show the hits recorded for this paste"

    def view(cfg: RulesConfig) -> str:
        res = focus(rendering, FocusQuery(goal), RulesRetriever(cfg), defense=False)
        assert res.error is None
        return res.text()

    tight = dataclasses.replace(RulesConfig(), floor_tokens=140, budget=0.02, skeleton_share=0.0, signal_quota=0,
                                leftover_reach=0, passage="")  # (nor the fill's leftover, nor a passage: gaps only)
    without = view(dataclasses.replace(tight, gap_tokens=0))
    with_gaps = view(tight)
    assert "Hits recorded" in without and "ninety" not in without
    assert "'ninety thousand four hundred and twelve'" in with_gaps


class _Crafted(RulesRetriever):
    """``default`` with crafted signal rankings: ``controls`` is sure of the button's unit, which
    the other signals never rank; they agree on the paragraphs, last first."""

    def _signals(self, query, pa):  # type: ignore[no-untyped-def]
        _, line_terms, unseen = super()._signals(query, pa)
        button = next(pa.units.of_line[i] for i, ln in enumerate(pa.page.lines) if ln.role == "button")
        many = [k for k in range(len(pa.units.heads) - 1, -1, -1) if k != button]
        return ({"terms": many, "bm25": many, "facts": many, "controls": [button]}, line_terms, unseen)


def test_a_unit_one_strong_signal_ranks_first_is_kept_with_the_quota() -> None:
    page = ["RootWebArea 'Quota'", "\t[1] main ''", "\t\t[2] button 'Only one signal wants me'"]
    page += [f"\t\t[{10 + i}] paragraph ''\n\t\t\tStaticText 'Agreed paragraph {i} with a few ordinary words in it.'"
             for i in range(60)]
    rendering = rendering_from_text("\n".join(page))
    cfg = dataclasses.replace(RulesConfig(), floor_tokens=140, budget=0.02, skeleton_share=0.0, gap_tokens=0,
                              fusion="rrf", core_share=0.0)  # the quota on reciprocal rank fusion (cores first off:
    # it packs more short units into this tight budget, reaching the button without the quota)

    def kept(quota: int) -> str:
        res = focus(rendering, FocusQuery("read the agreed paragraphs"),
                    _Crafted(dataclasses.replace(cfg, signal_quota=quota)), defense=False)
        assert res.error is None
        return res.text()

    assert "Only one signal wants me" not in kept(0)
    assert "Only one signal wants me" in kept(2)
