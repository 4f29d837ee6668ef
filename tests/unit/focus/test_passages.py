"""Dense passages: window-BM25 over consecutive units (:mod:`pagelens.focus.passages`, issue 9, fortieth pass)."""

from __future__ import annotations

import pytest
from focus_pages import typed_rendering

from pagelens.focus.analysis import analysis_of
from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.passages import best_windows, parse, plan, unit_costs, windows
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.focus.units import UnitLimits

_PAD = " ".join(f"p{i}" for i in range(25))  # ~25 tokens that share no word with the goal
_GOAL = "Find the tide gauge reading at the harbour"


def _notes() -> list[tuple[int, str, str]]:
    """Forty paragraphs that each name the harbour once; one of them is dense in the goal's words, and the value
    the goal wants sits three paragraphs after it, sharing no word with the goal."""
    specs = [(0, "RootWebArea", "Coastal notes"), (1, "main", "")]
    specs += [(2, "paragraph", f"Harbour walk note {i} {_PAD}") for i in range(40)]
    specs[22] = (2, "paragraph", "The tide gauge at the harbour measures the tide level every hour; the gauge reading "
                                 "of the tide is logged")
    specs[23] = (2, "paragraph", f"Readings are kept in a public table {_PAD}")
    specs[24] = (2, "paragraph", f"Volunteers check them weekly {_PAD}")
    specs[25] = (2, "paragraph", "Last spring the highest mark stood at 4.2 metres above datum")
    return specs


def _view(cfg: RulesConfig) -> tuple[str, float]:
    res = focus(typed_rendering(_notes()), FocusQuery(_GOAL), RulesRetriever(cfg), defense=False)
    assert res.error is None
    return res.text(), res.pruning


def test_the_value_after_a_dense_passage_is_kept_only_with_the_window_signal() -> None:
    off, _off_pruning = _view(RulesConfig(passage=""))
    assert "tide gauge" in off and "4.2 metres" not in off  # three paragraphs away, no goal word: no signal ranks it
    for spec in ("1:400:0.1:add", "1:400:0.1:add:own", "2:400:0.1:in"):
        on, pruning = _view(RulesConfig(passage=spec))
        assert "4.2 metres" in on, spec
        assert pruning > 0.3  # a window, not the page


def test_the_shipped_spec_and_off() -> None:
    assert RulesConfig().passage == "1:400:0.1:add:own"  # P2 of the fortieth pass
    assert parse("") is None and parse("0:400:0.1:add") is None
    assert "4.2 metres" in _view(RulesConfig())[0]


def test_windows_cover_the_units_in_order_within_their_size_and_overlap_by_half() -> None:
    pa = analysis_of(typed_rendering(_notes()), UnitLimits(), 600, cache=False)
    costs = unit_costs(pa)
    wins = windows(pa, 150)
    assert wins[0][0] == 0 and wins[-1][1] == len(costs)
    assert all(b - a == 1 or sum(costs[a:b]) <= 150 for a, b in wins)
    assert all(a2 > a and a2 < b for (a, b), (a2, _b2) in zip(wins, wins[1:])) or len(wins) == 1
    dense = next(k for k, t in enumerate(pa.units.texts) if "tide gauge" in t)
    best = best_windows(pa, _GOAL, 150, 2)
    assert best[0][0] <= dense < best[0][1]  # the best window holds the dense paragraph
    assert len(best) == 2 and (best[0][1] <= best[1][0] or best[1][1] <= best[0][0])  # and they do not overlap


def test_own_regions_only_leave_user_content_out() -> None:
    from dataclasses import replace

    rendering = typed_rendering(_notes())
    lines = tuple(replace(ln, region="user") if "4.2 metres" in ln.name else ln for ln in rendering.lines)
    pa = analysis_of(replace(rendering, lines=lines), UnitLimits(), 600, cache=False)
    value = next(i for i, ln in enumerate(pa.page.lines) if "4.2 metres" in ln.name)
    for own, shown in ((False, True), (True, False)):
        got = plan("1:400:0.1:add" + (":own" if own else ""), pa, _GOAL, 4000)
        assert got is not None and got.reserve == 0
        keep: set[int] = set()
        assert got.apply(pa, keep) > 0
        assert (value in keep) is shown
        assert all(pa.page.lines[i].region != "user" for i in keep) or not own


def test_a_bad_spec_is_refused() -> None:
    with pytest.raises(ValueError):
        parse("1:400:0.1:sideways")


def test_the_analysis_cache_tells_renderings_apart_by_region() -> None:
    """The passage pass reads each line's region from the cached analysis: two renderings that differ only in a
    line's region must not share one."""
    from dataclasses import replace

    from pagelens.focus.analysis import content_key
    from pagelens.observe.textparse import rendering_from_text
    from pagelens.types import Rendering

    r = rendering_from_text("RootWebArea 'Ferry'\n\t[1] main ''\n\t\tStaticText 'Boats leave every 40 minutes.'\n")
    posted = Rendering(tuple(replace(ln, region="user") if ln.role == "StaticText" else ln for ln in r.lines))
    assert content_key(r) != content_key(posted)
