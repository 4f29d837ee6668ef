"""Extremes over listings: the listing the goal means may be one its words only name in the heading."""

from __future__ import annotations

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesRetriever
from pagelens.observe.textparse import rendering_from_text


def _league_page() -> str:
    out = ["RootWebArea 'Season report'", "\t[1] main ''", "\t\t[2] heading 'Chess league standings after round 9'"]
    out += [f"\t\tStaticText 'Paragraph {i} about the season, the clubs and the arbiters in general terms.'"
            for i in range(30)]
    out += ["\t\t[3] heading 'Chess league standings'", "\t\t[4] table ''", "\t\t\t[5] row ''",
            "\t\t\t\t[6] columnheader 'Rank'", "\t\t\t\t[7] columnheader 'Club'"]
    clubs = ["Avon", "Brook", "Cedar", "Delta", "Ember", "Fjord", "Grove", "Heath", "Inlet", "Juniper", "Kestrel",
             "Larch"]
    for i, club in enumerate(clubs):
        out += [f"\t\t\t[{10 + i}] row ''", f"\t\t\t\t[{40 + i}] cell '{i + 1}.'",
                f"\t\t\t\t[{70 + i}] cell '{club} ({30 - 2 * i} pts)'"]
    out += ["\t\t[8] heading 'Related'"]
    out += [f"\t\t[{100 + i}] link 'Chess league news {i}'" for i in range(5)]
    out += [f"\t\tStaticText 'Closing paragraph {i} with more general words about clubs and seasons.'"
            for i in range(30)]
    return "\n".join(out)


def test_bottom_of_a_table_named_only_by_its_heading_is_kept() -> None:
    r = rendering_from_text(_league_page())
    res = focus(r, FocusQuery("Which club is bottom of the chess league table?"), RulesRetriever(), defense=False)
    assert res.error is None and res.pruning > 0.3
    shown = res.text()
    assert "Larch (8 pts)" in shown  # the last row of the table, not only the related links
