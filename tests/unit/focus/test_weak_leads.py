"""The sixteenth pass' opt-in candidate (off by default; BENCHMARKS.md "Focus, sixteenth pass"): when the
goal's words occur nowhere on the page, each heading brings its section lead ahead of what weak signals rank."""

from __future__ import annotations

from dataclasses import replace

from focus_pages import typed_rendering as _rendering

from pagelens.focus.analysis import analysis_of
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesConfig, RulesRetriever, section_leads, weak_evidence


def _page() -> list[tuple[int, str, str]]:
    specs = [(0, "RootWebArea", "Seite")]
    for s in range(12):
        specs += [(1, "heading", f"Abschnitt {s}"), (1, "StaticText", f"Einleitung des Abschnitts Nummer {s} hier.")]
        specs += [(1, "StaticText", f"Weiterer langer Absatz {s} {k} mit vielen Wörtern darin und danach.")
                  for k in range(8)]
    return specs


def test_weak_evidence_counts_the_goal_words_no_unit_carries() -> None:
    q = FocusQuery("Which colour does the parrot have?")
    assert weak_evidence(q, {"colour", "parrot"}, 0.5)
    assert not weak_evidence(q, set(), 0.5)
    assert not weak_evidence(FocusQuery("?"), set(), 0.5)  # no content word: not weak, nothing to say


def test_section_leads_keep_each_heading_with_its_lead_within_the_tokens() -> None:
    r = _rendering(_page())
    pa = analysis_of(r, RulesConfig().limits, 600, cache=False)
    got = section_leads(pa, 12, 10_000)
    heads = [j for j in got if pa.page.lines[j].role == "heading"]
    assert len(heads) == 12
    assert all(pa.page.lines[h + 1].name.startswith("Einleitung") and h + 1 in got for h in heads)
    assert not any(pa.page.lines[j].name.startswith("Weiterer") for j in got)  # 12 tokens: the lead's first line
    small = section_leads(pa, 12, 40)
    assert 0 < len(small) < len(got) and sum(pa.page.cost[j] + 1 for j in small) <= 40


def test_off_by_default_and_on_only_when_the_evidence_is_weak() -> None:
    assert RulesConfig().weak_lead_tokens == 0
    r = _rendering(_page())
    on = RulesRetriever(replace(RulesConfig(), weak_lead_tokens=40, cache=False))
    off = RulesRetriever(replace(RulesConfig(), cache=False))
    foreign = FocusQuery("Which parrot colour is described?")
    assert on.select(foreign, r).info.get("weak_evidence") is True
    assert "weak_evidence" not in off.select(foreign, r).info
    own = FocusQuery("Weiterer Absatz 7 3")
    assert "weak_evidence" not in on.select(own, r).info
    assert on.select(own, r).keep == off.select(own, r).keep
