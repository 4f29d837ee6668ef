"""benchmarks/focus_where.py: each line of a view in one class (the thirty-seventh pass's split)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import focus_lean
import focus_where

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.observe.textparse import rendering_from_text


def test_classes_of_a_view() -> None:
    rows = [f"\t\t[{100 + i}] listitem\n\t\t\t[{300 + i}] link 'Item number {i} of the long list'" for i in range(80)]
    r = rendering_from_text("RootWebArea 'Shop', focused\n\t[1] list 'Items'\n" + "\n".join(rows)
                            + "\n\t[99] button 'Add to cart'")
    cfg = RulesConfig(small_page_tokens=0, floor_tokens=0, budget=0.2, certain_by="")
    with focus_lean.Spy() as spy:
        res = focus(r, FocusQuery(goal="add to cart"), RulesRetriever(cfg), defense=False)
    spy.rec["limits"] = cfg.limits
    classes, ok = focus_where.classify(r, res, spy.rec, [{"role": "button", "name": "Add to cart"}])
    assert ok == [True] and len(classes) == len(res.lines)
    by = dict(zip([ol.text for ol in res.lines], classes, strict=True))
    assert by["[99] button 'Add to cart'"] == "item"
    assert all(c == "placeholder" for ol, c in zip(res.lines, classes, strict=True) if ol.no is None)
    assert set(classes) <= set(focus_where.CLASSES)
