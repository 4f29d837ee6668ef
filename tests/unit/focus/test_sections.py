"""A heading that names the goal brings units of its section on a long page (:mod:`pagelens.focus.sections`;
``section_share``, ``section_pick``, ``section_max_share``; issue 9, thirty-eighth and thirty-ninth passes). Hand-built
trees."""

from __future__ import annotations

from focus_pages import typed_rendering

from pagelens.focus.analysis import analysis_of
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.focus.sections import section, section_leads
from pagelens.focus.units import UnitLimits

_LONG = " ".join(f"w{i}" for i in range(40))  # ~40 tokens that share no word with any goal


def _pos(rendering, name: str) -> int:  # type: ignore[no-untyped-def]
    return next(i for i, ln in enumerate(rendering.lines) if ln.name.startswith(name))


def _sheet() -> list[tuple[int, str, str]]:
    specs = [(0, "RootWebArea", "Product sheet"), (1, "main", ""), (2, "heading", "Details"), (2, "list", "")]
    for i in range(30):
        specs += [(3, "term", f"Property {i}"), (3, "definition", f"value {i} {_LONG}")]
    specs += [(2, "heading", "Reviews"), (2, "paragraph", "")]
    specs += [(3, "StaticText", f"Review sentence {i} {_LONG}") for i in range(20)]
    specs += [(1, "complementary", ""), (2, "StaticText", f"Aside sentence {_LONG}")]
    return specs


def test_a_section_runs_from_its_heading_to_the_next_within_its_landmark() -> None:
    r = typed_rendering(_sheet())
    pa = analysis_of(r, UnitLimits(), 600, cache=False)
    details, reviews = _pos(r, "Details"), _pos(r, "Reviews")
    assert section(pa, _pos(r, "Property 7")) == (details, reviews)
    lo, hi = section(pa, _pos(r, "Review sentence 3"))
    assert lo == reviews and hi == _pos(r, "Aside sentence") - 1  # the main landmark's end, not the page's
    aside = _pos(r, "Aside sentence")
    assert section(pa, aside) == (aside - 1, len(r.lines))


def _manual() -> list[tuple[int, str, str]]:
    """A long manual (~35,000 tokens): many sections mentioning a server, one titled with the goal's words whose
    body says how in other words."""
    specs = [(0, "RootWebArea", "Manual"), (1, "main", "")]
    for s in range(60):
        specs += [(2, "heading", f"Chapter {s} topics")]
        specs += [(2, "paragraph", f"Chapter {s} text {i}: the server {_LONG} {_LONG}") for i in range(6)]
        if s == 40:
            specs += [(2, "heading", "Configuring the proxy server")]
            specs += [(2, "paragraph", f"Step {i}: {_LONG} {_LONG}") for i in range(5)]
    return specs


def _select(cfg: RulesConfig, rendering, goal: str):  # type: ignore[no-untyped-def]
    return RulesRetriever(cfg).select(FocusQuery(goal), rendering)


def test_a_heading_with_the_goals_words_brings_its_sections_body_on_a_long_page() -> None:
    rendering = typed_rendering(_manual())
    goal = "How do I configure the proxy server?"
    base = _select(RulesConfig(section_share=0.0), rendering, goal)
    heading = _pos(rendering, "Configuring the proxy server")
    assert heading in base.keep and not all(heading + i in base.keep for i in range(1, 6))  # not its body
    for cfg in (RulesConfig(section_share=0.1, section_max_share=0.0), RulesConfig(section_share=0.1)):
        on = _select(cfg, rendering, goal)
        assert base.info["budget_tokens"] == on.info["budget_tokens"] == RulesConfig().ceiling_tokens
        assert all(heading + i in on.keep for i in range(1, 6))  # a 5-unit section: well under 10% of the page
        assert base.keep < on.keep  # it only adds lines
        assert on.info["spent_tokens"] - base.info["spent_tokens"] <= 0.1 * on.info["budget_tokens"]
    short = typed_rendering(_manual()[:60])  # a short page is left as it was
    assert _select(RulesConfig(section_share=0.1), short, goal).keep == _select(RulesConfig(section_share=0.0), short,
                                                                                goal).keep


def test_s2c_brings_the_named_sections_body_and_the_default_is_the_old_selection() -> None:
    rendering = typed_rendering(_manual())
    goal = "How do I configure the proxy server?"
    heading = _pos(rendering, "Configuring the proxy server")
    on = _select(RulesConfig(section_share=0.1), rendering, goal)  # S2c (thirty-ninth pass), opt-in
    off = _select(RulesConfig(), rendering, goal)  # default: off (stop 36: no gain on any fresh set)
    assert all(heading + i in on.keep for i in range(1, 6))
    assert not all(heading + i in off.keep for i in range(1, 6)) and off.keep < on.keep


def test_section_leads_needs_two_goal_terms_and_stays_within_its_allowance() -> None:
    r = typed_rendering(_manual())
    pa = analysis_of(r, UnitLimits(), 600, cache=False)
    heading = _pos(r, "Configuring the proxy server")
    keep: set[int] = {heading}
    terms = {heading: frozenset({"proxy", "server"}), heading - 1: frozenset({"server"})}
    spent = section_leads(pa, keep, terms, 2, 2, 6, 400, 10_000)
    assert spent > 0 and all(heading + i in keep for i in range(1, 6)) and heading + 7 not in keep
    one = {heading}
    assert section_leads(pa, one, {heading: frozenset({"proxy"})}, 2, 2, 6, 400, 10_000) == 0 and one == {heading}
    small = {heading}
    assert section_leads(pa, small, terms, 2, 2, 6, 400, 150) <= 150


def _list_page() -> list[tuple[int, str, str]]:
    """A long list page (~25,000 tokens): its title heading names the goal, then a preamble of five paragraphs (the
    second mentions the goal's words), a notice that does not, and a table of 500 rows with no heading after it: the
    title's section is the whole page."""
    specs = [(0, "RootWebArea", "Relay list"), (1, "main", ""), (2, "heading", "Proxy server list")]
    specs += [(2, "paragraph", f"Intro {i}: {'each proxy server below ' if i == 1 else ''}{_LONG}") for i in range(5)]
    specs += [(2, "paragraph", f"Notice of the week {_LONG}")]
    specs += [(2, "table", "")]
    for i in range(500):
        specs += [(3, "row", ""), (4, "cell", f"Relay {i}: a fast proxy server {_LONG}")]
    return specs


def test_a_title_headings_whole_page_section_brings_its_preamble_and_the_variants_keep_it_out() -> None:
    r = typed_rendering(_list_page())
    pa = analysis_of(r, UnitLimits(), 600, cache=False)
    heading = _pos(r, "Proxy server list")
    notice, intro1, intro2 = _pos(r, "Notice of the week"), _pos(r, "Intro 1"), _pos(r, "Intro 2")
    assert section(pa, heading) == (heading, len(r.lines))  # no heading follows: the title's section is the page
    terms = {heading: frozenset({"proxy", "server"}), intro1: frozenset({"proxy", "server"})}

    def leads(**kw) -> set[int]:  # type: ignore[no-untyped-def]
        keep = {heading}
        section_leads(pa, keep, terms, 2, 2, 6, 400, 10_000, **kw)
        return keep

    assert notice in leads()  # S2: the title's first six units, whatever stands there
    got = leads(pick="terms")
    assert intro1 in got and notice not in got and intro2 not in got  # S2a: only units that hold a goal term
    assert leads(max_share=0.1) == {heading}  # S2c: a heading whose section is the whole page points nowhere
    assert notice in leads(max_share=1.0)
    rendering, goal = typed_rendering(_list_page()), "Which proxy server is the fastest?"
    base = _select(RulesConfig(section_share=0.0), rendering, goal)
    assert _select(RulesConfig(section_share=0.1), rendering, goal).keep == base.keep  # S2c: a whole-page section: none
    off = _select(RulesConfig(section_share=0.0, section_pick="terms", section_max_share=0.1), rendering, goal)
    assert off.keep == base.keep  # off: base


def test_ranked_pick_brings_the_sections_best_ranked_units_only() -> None:
    r = typed_rendering(_list_page())
    pa = analysis_of(r, UnitLimits(), 600, cache=False)
    heading = _pos(r, "Proxy server list")
    terms = {heading: frozenset({"proxy", "server"})}
    units = pa.units
    intro3, notice = units.of_line[_pos(r, "Intro 3")], units.of_line[_pos(r, "Notice of the week")]
    keep: set[int] = {heading}
    brought: list[int] = []
    section_leads(pa, keep, terms, 2, 2, 6, 400, 10_000, pick="ranked", order=[intro3], brought=brought)
    assert brought == [intro3] and units.heads[notice] not in keep  # a unit outside the fused order never comes
