"""Sections of the page bound the leftover pass; a heading that names the goal brings its section's body
(:func:`pagelens.focus.nearby.section`, ``leftover_section``, ``section_share``; issue 9, thirty-eighth pass)."""

from __future__ import annotations

from focus_pages import typed_rendering

from pagelens.focus.analysis import analysis_of
from pagelens.focus.base import FocusQuery
from pagelens.focus.nearby import section, section_leads
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.focus.units import UnitLimits

_LONG = " ".join(f"w{i}" for i in range(40))  # ~40 tokens that share no word with any goal


def _sheet() -> list[tuple[int, str, str]]:
    """A description list whose last term the goal names, then a heading and a section of other prose."""
    specs = [(0, "RootWebArea", "Product sheet"), (1, "main", ""), (2, "heading", "Details"), (2, "list", "")]
    for i in range(30):
        specs += [(3, "term", f"Property {i}"), (3, "definition", f"value {i} {_LONG}")]
    specs[4 + 2 * 27] = (3, "term", "Download size")
    specs += [(2, "heading", "Reviews"), (2, "paragraph", "")]
    specs += [(3, "StaticText", f"Review sentence {i} {_LONG}") for i in range(20)]
    specs += [(1, "complementary", ""), (2, "StaticText", f"Aside sentence {_LONG}")]
    return specs


def _pos(rendering, name: str) -> int:  # type: ignore[no-untyped-def]
    return next(i for i, ln in enumerate(rendering.lines) if ln.name.startswith(name))


def test_a_section_runs_from_its_heading_to_the_next_within_its_landmark() -> None:
    r = typed_rendering(_sheet())
    pa = analysis_of(r, UnitLimits(), 600, cache=False)
    details, reviews = _pos(r, "Details"), _pos(r, "Reviews")
    assert section(pa, _pos(r, "Download size")) == (details, reviews)
    lo, hi = section(pa, _pos(r, "Review sentence 3"))
    assert lo == reviews and hi == _pos(r, "Aside sentence") - 1  # the main landmark's end, not the page's
    aside = _pos(r, "Aside sentence")
    assert section(pa, aside) == (aside - 1, len(r.lines))  # the complementary landmark: past the last heading


def test_the_bounded_leftover_keeps_to_the_best_units_section() -> None:
    rendering = typed_rendering(_sheet())
    goal = "Download size"  # one unit carries the goal's words: the fill's order runs out, the leftover pass runs

    def shown(cfg: RulesConfig) -> str:
        sel = RulesRetriever(cfg).select(FocusQuery(goal, budget=0.5), rendering)
        return " | ".join(rendering.lines[n].name for n in sorted(sel.keep))

    base, bounded = shown(RulesConfig()), shown(RulesConfig(leftover_section=True))
    assert "value 29 " in base and "value 29 " in bounded  # the value after the matched term, in its section
    assert "value 23 " in bounded and "value 21 " not in bounded  # the section's earlier values, within the reach
    assert "Review sentence 0 " in base  # base: past the next heading, into another section
    assert "Review sentence 0 " not in bounded and "Review sentence 3 " not in bounded
    assert RulesRetriever(RulesConfig(leftover_section=False)).select(FocusQuery(goal, budget=0.5), rendering).keep \
        == RulesRetriever(RulesConfig()).select(FocusQuery(goal, budget=0.5), rendering).keep  # off: base


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


def test_a_heading_with_the_goals_words_brings_its_sections_body_on_a_long_page() -> None:
    rendering = typed_rendering(_manual())
    goal = "How do I configure the proxy server?"
    cfg_on = RulesConfig(section_share=0.1)

    def select(cfg: RulesConfig):  # type: ignore[no-untyped-def]
        return RulesRetriever(cfg).select(FocusQuery(goal), rendering)

    base, on = select(RulesConfig()), select(cfg_on)
    assert base.info["budget_tokens"] == on.info["budget_tokens"] == RulesConfig().ceiling_tokens
    names = {ln.no: ln.name for ln in rendering.lines}
    heading = _pos(rendering, "Configuring the proxy server")
    assert heading in base.keep  # the heading is kept (the skeleton, the fill)...
    assert not all(heading + i in base.keep for i in range(1, 6))  # ...but not its section's body
    assert all(heading + i in on.keep for i in range(1, 6)), [names[n] for n in sorted(on.keep - base.keep)]
    assert base.keep < on.keep  # it only adds lines
    assert on.info["spent_tokens"] - base.info["spent_tokens"] <= 0.1 * on.info["budget_tokens"]
    # a short page is left as it was
    short = typed_rendering(_manual()[:60])
    assert (RulesRetriever(cfg_on).select(FocusQuery(goal), short).keep
            == RulesRetriever(RulesConfig()).select(FocusQuery(goal), short).keep)


def test_section_leads_needs_two_goal_terms_and_stays_within_its_allowance() -> None:
    r = typed_rendering(_manual())
    pa = analysis_of(r, UnitLimits(), 600, cache=False)
    heading = _pos(r, "Configuring the proxy server")
    keep: set[int] = {heading}
    terms = {heading: frozenset({"proxy", "server"}), heading - 1: frozenset({"server"})}
    spent = section_leads(pa, keep, terms, 2, 2, 6, 400, 10_000)
    assert spent > 0 and all(heading + i in keep for i in range(1, 6)) and heading + 7 not in keep  # not the next one
    one = {heading}
    assert section_leads(pa, one, {heading: frozenset({"proxy"})}, 2, 2, 6, 400, 10_000) == 0 and one == {heading}
    small = {heading}
    assert section_leads(pa, small, terms, 2, 2, 6, 400, 150) <= 150
