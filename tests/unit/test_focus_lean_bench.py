"""benchmarks/focus_lean.py: arms, the attribution of a view's lines, and the spy leaves nothing patched."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import focus_lean

from pagelens.focus import apply, cores, nearby, rules, unfit
from pagelens.focus.apply import OutputLine, focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.observe.textparse import rendering_from_text


def test_arms() -> None:
    assert focus_lean._arm("default@0.3:ph+anc") == ("default", 0.3, "ph+anc")
    assert focus_lean._arm("default") == ("default", None, "")


def test_kind_of() -> None:
    rec = {"fill": {1, 2, 3}, "shown_keep": {0, 1, 2, 3, 4}, "short": {0}, "cores": {1}, "order": {7}, "nearby": {4}}
    units = {2: 7, 3: 8}.get
    assert focus_lean.kind_of(OutputLine(0, "[p1] …3", None, 3, "p1"), rec, units) == "placeholder"
    assert focus_lean.kind_of(OutputLine(0, "[redacted: instructions to the agent in the page text]", None, 1), rec,
                              units) == "marker"
    assert focus_lean.kind_of(OutputLine(0, "... 2 lines pruned ...", None, 2), rec, units) == "placeholder"
    assert focus_lean.kind_of(OutputLine(0, "note", None), rec, units) == "marker"
    assert focus_lean.kind_of(OutputLine(0, "x", 0), rec, units) == "ancestor"
    assert focus_lean.kind_of(OutputLine(0, "x", 1), rec, units) == "cores"
    assert focus_lean.kind_of(OutputLine(0, "x", 2), rec, units) == "fill_own"
    assert focus_lean.kind_of(OutputLine(0, "x", 3), rec, units) == "fill_partner"
    assert focus_lean.kind_of(OutputLine(0, "x", 4), rec, units) == "nearby"
    assert focus_lean.kind_of(OutputLine(0, "x", 9), rec, units) == "cheap_run"


def test_spy_records_and_restores() -> None:
    before = (rules.RulesRetriever.__dict__["_fill"], cores.cores_first, nearby.bring, unfit.after_fill,
              rules.close_gaps, apply.build_lines)
    text = "\n".join(["RootWebArea 'Shop'", *[f"\t[{i}] link 'Item number {i} of the long list'" for i in range(1, 80)],
                      "\t[99] button 'Add to cart'"])
    r = rendering_from_text(text)
    with focus_lean.Spy() as spy:
        res = focus(r, FocusQuery(goal="add to cart"), RulesRetriever(RulesConfig(small_page_tokens=0)), defense=False)
    after = (rules.RulesRetriever.__dict__["_fill"], cores.cores_first, nearby.bring, unfit.after_fill,
             rules.close_gaps, apply.build_lines)
    assert before == after
    assert "fill" in spy.rec and "shown_keep" in spy.rec and res.error is None
