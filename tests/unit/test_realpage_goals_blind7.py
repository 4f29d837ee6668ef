"""Shape of the held-out blind-7 goal file, and that every must-keep item is on its page.

The figures come from ``benchmarks/realpage_goals.py --set blind-7``. Nothing here runs a
retriever: the existence check observes each corpus page with the full tree only (no goal, no
focus, no defense) and matches items with the harness's own matcher
(``pagelens.bench.cases.item_kept``) against every line of the full rendering.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from heldout_sets import CORPUS, benchmark_module, load_jsonl, missing_items

ROOT = Path(__file__).resolve().parents[2]
BLIND7 = ROOT / "benchmarks" / "data" / "realpage_goals_blind7.jsonl"
OTHERS = tuple(p for p in (ROOT / "benchmarks" / "data").glob("realpage_goals*.jsonl") if p != BLIND7)


_load = load_jsonl


def _harness() -> ModuleType:
    return benchmark_module("realpage_goals.py", "realpage_goals_harness")


def test_blind7_is_well_formed_and_covers_every_corpus_page() -> None:
    goals = _load(BLIND7)
    assert len(goals) >= 300
    assert {g["set"] for g in goals} == {"blind-7"}
    pages = Counter(g["page"] for g in goals)
    if CORPUS.is_dir():
        assert set(pages) == {p.stem for p in CORPUS.glob("*.html")}
    assert min(pages.values()) >= 4
    kinds = Counter(g["kind"] for g in goals)
    assert set(kinds) == {"act", "read", "navigate"}
    assert min(kinds.values()) >= 0.08 * len(goals)
    assert len({g["goal"].strip().lower() for g in goals}) == len(goals)
    for g in goals:
        assert set(g) == {"set", "page", "goal", "kind", "must_keep"}
        assert g["goal"].strip() and 1 <= len(g["must_keep"]) <= 4
        for m in g["must_keep"]:
            assert set(m) == {"role", "name"} and m["role"] and m["name"].strip()


def test_blind7_shares_no_goal_with_the_other_sets() -> None:
    others = {g["goal"].strip().lower() for path in OTHERS for g in _load(path)}
    assert not [g["goal"] for g in _load(BLIND7) if g["goal"].strip().lower() in others]


def test_blind7_runs_only_when_asked_for_by_name() -> None:
    harness = _harness()
    assert "blind-7" in harness.HELD_OUT and harness.HELD_OUT_FILES["blind-7"] == BLIND7
    assert harness.SET_LABELS["blind-7"] == "blind-7 (held out)" and "blind-7" in harness.SET_ORDER
    assert "blind-7" not in {g["set"] for g in harness.load_goals(None)}
    assert "blind-7" not in {g["set"] for g in harness.load_goals(["blind-6"])}
    asked = harness.load_goals(["blind-7"])
    assert sum(g["set"] == "blind-7" for g in asked) == len(_load(BLIND7))
    assert "blind-6" not in {g["set"] for g in asked}


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(1200)  # 49 pages in one test: the 300 s default is too short on a loaded machine
def test_every_blind7_item_is_in_the_full_rendering(browser_session) -> None:  # type: ignore[no-untyped-def]
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    missing = missing_items(browser_session, _load(BLIND7))
    assert not missing, "\n".join(missing)
