"""Shape of the held-out blind-4 goal file, and that every must-keep item is on its page.

The figures come from ``benchmarks/realpage_goals.py --set blind-4``. The existence check observes
each corpus page with the full tree only (no goal, no retriever, no defense), as the harness does,
and matches items with the harness's own matcher (``pagelens.bench.cases.item_kept``) against every
line of the full rendering: an item that fails here could never be kept by any retriever.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from heldout_sets import CORPUS, benchmark_module, load_jsonl, missing_items

ROOT = Path(__file__).resolve().parents[2]
BLIND4 = ROOT / "benchmarks" / "data" / "realpage_goals_blind4.jsonl"
OTHERS = (ROOT / "benchmarks" / "data" / "realpage_goals.jsonl",
          ROOT / "benchmarks" / "data" / "realpage_goals_blind3.jsonl")


_load = load_jsonl


def _harness() -> ModuleType:
    return benchmark_module("realpage_goals.py", "realpage_goals_harness")


def test_blind4_is_well_formed_and_spread() -> None:
    goals = _load(BLIND4)
    assert len(goals) >= 100
    assert {g["set"] for g in goals} == {"blind-4"}
    assert len({g["page"] for g in goals}) >= 30
    kinds = Counter(g["kind"] for g in goals)
    assert set(kinds) == {"act", "read", "navigate"}
    assert min(kinds.values()) >= 0.1 * len(goals)
    assert len({g["goal"].strip().lower() for g in goals}) == len(goals)
    for g in goals:
        assert set(g) == {"set", "page", "goal", "kind", "must_keep"}
        assert g["goal"].strip() and 1 <= len(g["must_keep"]) <= 3
        for m in g["must_keep"]:
            assert set(m) == {"role", "name"} and m["role"] and m["name"].strip()


def test_blind4_shares_no_goal_with_the_other_sets() -> None:
    others = {g["goal"].strip().lower() for path in OTHERS for g in _load(path)}
    assert not [g["goal"] for g in _load(BLIND4) if g["goal"].strip().lower() in others]


def test_blind4_runs_only_when_asked_for_by_name() -> None:
    harness = _harness()
    assert "blind-4" in harness.HELD_OUT and harness.HELD_OUT_FILES["blind-4"] == BLIND4
    assert "blind-4" not in {g["set"] for g in harness.load_goals(None)}
    assert "blind-4" not in {g["set"] for g in harness.load_goals(["blind-3"])}
    asked = harness.load_goals(["blind-4"])
    assert sum(g["set"] == "blind-4" for g in asked) == len(_load(BLIND4))
    assert "blind-3" not in {g["set"] for g in asked}


@pytest.mark.slow
@pytest.mark.browser
def test_every_blind4_item_is_in_the_full_rendering(browser_session) -> None:  # type: ignore[no-untyped-def]
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    missing = missing_items(browser_session, _load(BLIND4))
    assert not missing, "\n".join(missing)
