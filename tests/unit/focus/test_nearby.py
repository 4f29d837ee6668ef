"""The best units bring the units beside them (:mod:`pagelens.focus.nearby`, issue 9, twenty-second pass)."""

from __future__ import annotations

from focus_pages import typed_rendering

from pagelens.focus.analysis import analysis_of
from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.nearby import beside, bring
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.focus.units import UnitLimits

_LONG = " ".join(f"w{i}" for i in range(40))  # a line of ~40 tokens that shares no word with any goal


def _sheet() -> list[tuple[int, str, str]]:
    """A long description list: terms and their values, each its own unit (the list is too big to be one)."""
    specs = [(0, "RootWebArea", "Product sheet"), (1, "main", ""), (2, "heading", "Details"), (2, "list", "")]
    for i in range(30):
        specs += [(3, "term", f"Property {i}"), (3, "definition", f"value {i} {_LONG}")]
    specs[4 + 2 * 12] = (3, "term", "Download size")  # the term the goal names...
    specs[5 + 2 * 12] = (3, "definition", f"Eleven megabytes and a half {_LONG}")  # ...and its value beside it
    specs += [(2, "heading", "Reviews"), (2, "paragraph", "")]
    specs += [(3, "StaticText", f"Review sentence {i} {_LONG}") for i in range(20)]
    return specs


def _unit_of(pa, name: str) -> int:
    i = next(i for i, ln in enumerate(pa.page.lines) if ln.name.startswith(name))
    return pa.units.of_line[i]


def test_beside_walks_out_nearest_first_and_stops_at_a_heading() -> None:
    pa = analysis_of(typed_rendering(_sheet()), UnitLimits(), 600, cache=False)
    k = _unit_of(pa, "Download size")
    assert beside(pa, k, 2, 80) == [k + 1, k - 1, k + 2, k - 2]
    assert beside(pa, k, 2, 5) == []  # every neighbour is bigger than the cap
    first = _unit_of(pa, "Property 0")
    assert beside(pa, first, 3, 80) == [first + 1, first + 2, first + 3]  # the heading before it closes that side
    last = _unit_of(pa, "Property 29")
    assert all(j < _unit_of(pa, "Reviews") for j in beside(pa, last, 5, 200))  # nor past the next heading


def test_a_goal_keeps_the_value_beside_its_matched_term_only_with_the_mechanism() -> None:
    rendering = typed_rendering(_sheet())
    goal = "Note down the download size"  # (an acting goal: no answer context follows its best units)
    on = RulesConfig(nearby_questions=False)  # (the shipped mechanism, for every goal)
    off = RulesConfig(nearby_best=0)  # (this turns the leftover pass off too)

    def kept(cfg: RulesConfig, text: str = goal) -> str:
        res = focus(rendering, FocusQuery(text, budget=0.5), RulesRetriever(cfg), defense=False)
        assert res.error is None
        return res.text()

    assert "Download size" in kept(off)
    assert "Eleven megabytes" not in kept(off)  # the value shares no word with the goal
    assert "Eleven megabytes" in kept(on)
    # shipped for questions only: an acting goal's view is left as it was (the leftover pass aside)
    assert kept(RulesConfig(leftover_reach=0)) == kept(off)


def test_bring_adds_the_neighbours_of_kept_best_units_within_the_allowance_only() -> None:
    pa = analysis_of(typed_rendering(_sheet()), UnitLimits(), 600, cache=False)
    k = _unit_of(pa, "Download size")
    heads = pa.units.heads
    keep = set(range(heads[k], pa.page.ends[heads[k]]))
    before = set(keep)
    spent = bring(pa, keep, [k], 5, 1, 80, 1000)
    assert keep > before and heads[k + 1] in keep and heads[k - 1] in keep and spent > 0
    small = set(before)
    assert bring(pa, small, [k], 5, 1, 80, 20) == 0 and small == before  # the value (~50 tokens) does not fit 20
    unkept = set()
    assert bring(pa, unkept, [k], 5, 1, 80, 1000) == 0 and not unkept  # a best unit the fill dropped brings nothing


def test_after_the_fill_a_view_only_gains_lines() -> None:
    rendering = typed_rendering(_sheet())
    goal = "What is the download size?"
    base = RulesRetriever(RulesConfig(nearby_best=0)).select(FocusQuery(goal, budget=0.1), rendering)
    on = RulesRetriever().select(FocusQuery(goal, budget=0.1), rendering)
    assert base.keep < on.keep  # (the term before the matched one: the fill had not shown it)


# -- the leftover budget to the neighbourhood (thirty-sixth pass, :func:`pagelens.focus.nearby.leftover`) ------------
def test_the_budget_the_fill_leaves_goes_to_the_neighbourhood_of_its_best_units() -> None:
    rendering = typed_rendering(_sheet())
    goal = "Download size"  # one unit carries the goal's words: the fused order runs out early

    def select(cfg: RulesConfig):  # type: ignore[no-untyped-def]
        return RulesRetriever(cfg).select(FocusQuery(goal, budget=0.5), rendering)

    off, on = select(RulesConfig(leftover_reach=0)), select(RulesConfig())  # (on by default)
    assert off.info["spent_tokens"] < 0.5 * off.info["budget_tokens"]  # the base leaves most of its budget unspent
    assert off.keep < on.keep  # nothing the fill kept is dropped
    assert on.info["spent_tokens"] <= on.info["budget_tokens"] + 0.05 * on.info["budget_tokens"]
    text = {ln.no: ln.name for ln in rendering.lines}
    shown_on = " | ".join(text[n] for n in sorted(on.keep))
    shown_off = " | ".join(text[n] for n in sorted(off.keep))
    # the value seven units after the matched term (past nearby's reach of 2): kept only with the leftover pass
    assert "value 15 " in shown_on and "value 15 " not in shown_off
    assert "Review sentence 19" not in shown_on  # far past the reach: still pruned


def test_leftover_spends_within_what_is_left_and_never_past_its_reach() -> None:
    from pagelens.focus.nearby import leftover

    pa = analysis_of(typed_rendering(_sheet()), UnitLimits(), 600, cache=False)
    k = _unit_of(pa, "Download size")
    heads = pa.units.heads
    keep = set(range(heads[k], pa.page.ends[heads[k]]))
    spent = leftover(pa, keep, [k], 10, 2, 400, 10_000)
    assert {heads[j] for j in (k - 2, k - 1, k + 1, k + 2)} <= keep and heads[k + 3] not in keep and spent > 0
    small = set(range(heads[k], pa.page.ends[heads[k]]))
    assert leftover(pa, small, [k], 10, 5, 400, 60) <= 60  # at most the allowance
    none = set()
    assert leftover(pa, none, [k], 10, 5, 400, 10_000) == 0 and not none  # a best unit not kept brings nothing


def test_a_question_keeps_a_larger_unit_beside_its_matched_term() -> None:
    # the unit before the matched term is ~130 tokens: above nearby's old cap of 80, within today's 240
    specs = _sheet()
    specs[3 + 2 * 12] = (3, "definition", f"value 11 {_LONG} {_LONG} {_LONG}")
    specs += [(3, "StaticText", f"More review text {i} {_LONG}") for i in range(200)]  # a budget of ~2,000 tokens
    rendering = typed_rendering(specs)

    def shown(cfg: RulesConfig) -> str:
        res = focus(rendering, FocusQuery("What is the download size?", budget=0.2), RulesRetriever(cfg), defense=False)
        assert res.error is None
        return res.text()

    assert "value 11 " in shown(RulesConfig(leftover_reach=0, passage=""))  # (nearby alone: no dense passage's window)
    assert "value 11 " not in shown(RulesConfig(leftover_reach=0, passage="", nearby_tokens=80, nearby_share=0.05))
