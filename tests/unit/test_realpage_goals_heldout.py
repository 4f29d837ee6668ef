"""Shape of the held-out goal files blind-6 to blind-10, and that every must-keep item is on its page.

The figures come from ``benchmarks/realpage_goals.py --set blind-6`` / ``--set blind-7`` /
``--set blind-8`` / ``--set blind-9`` / ``--set blind-10``. Nothing here runs a retriever: the existence
check observes each corpus page with the full tree only (no goal, no focus, no defense) and matches items
with the harness's own matcher (``pagelens.bench.cases.item_kept``) against every line of the full rendering.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from heldout_sets import CORPUS, benchmark_module, load_jsonl, missing_items

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"


@dataclass(frozen=True)
class HeldOut:
    name: str  # the set's name, e.g. "blind-7"
    file: Path
    previous: str  # an earlier held-out set that asking for this one must not pull in
    min_goals: int
    min_per_page: int


SETS = [
    HeldOut("blind-6", DATA / "realpage_goals_blind6.jsonl", "blind-5", min_goals=180, min_per_page=3),
    HeldOut("blind-7", DATA / "realpage_goals_blind7.jsonl", "blind-6", min_goals=300, min_per_page=4),
    HeldOut("blind-8", DATA / "realpage_goals_blind8.jsonl", "blind-7", min_goals=400, min_per_page=6),
    HeldOut("blind-9", DATA / "realpage_goals_blind9.jsonl", "blind-8", min_goals=400, min_per_page=6),
    HeldOut("blind-10", DATA / "realpage_goals_blind10.jsonl", "blind-9", min_goals=400, min_per_page=6),
]
BY_NAME = pytest.mark.parametrize("held", SETS, ids=[s.name for s in SETS])


def _harness() -> ModuleType:
    return benchmark_module("realpage_goals.py", "realpage_goals_harness")


@BY_NAME
def test_the_set_is_well_formed_and_covers_every_corpus_page(held: HeldOut) -> None:
    goals = load_jsonl(held.file)
    assert len(goals) >= held.min_goals
    assert {g["set"] for g in goals} == {held.name}
    pages = Counter(g["page"] for g in goals)
    if CORPUS.is_dir():
        assert set(pages) == {p.stem for p in CORPUS.glob("*.html")}
    assert min(pages.values()) >= held.min_per_page
    kinds = Counter(g["kind"] for g in goals)
    assert set(kinds) == {"act", "read", "navigate"}
    assert min(kinds.values()) >= 0.08 * len(goals)
    assert len({g["goal"].strip().lower() for g in goals}) == len(goals)
    for g in goals:
        assert set(g) == {"set", "page", "goal", "kind", "must_keep"}
        assert g["goal"].strip() and 1 <= len(g["must_keep"]) <= 4
        for m in g["must_keep"]:
            assert set(m) == {"role", "name"} and m["role"] and m["name"].strip()


@BY_NAME
def test_the_set_shares_no_goal_with_the_other_sets(held: HeldOut) -> None:
    others = {g["goal"].strip().lower() for path in DATA.glob("realpage_goals*.jsonl") if path != held.file
              for g in load_jsonl(path)}
    assert not [g["goal"] for g in load_jsonl(held.file) if g["goal"].strip().lower() in others]


@BY_NAME
def test_the_set_runs_only_when_asked_for_by_name(held: HeldOut) -> None:
    harness = _harness()
    assert held.name in harness.HELD_OUT and harness.HELD_OUT_FILES[held.name] == held.file
    kind = "development" if held.name in harness.TRAINED_ON else "held out"  # blind-3..8: the learned fusion's data
    assert harness.SET_LABELS[held.name] == f"{held.name} ({kind})" and held.name in harness.SET_ORDER
    assert held.name not in {g["set"] for g in harness.load_goals(None)}
    assert held.name not in {g["set"] for g in harness.load_goals([held.previous])}
    asked = harness.load_goals([held.name])
    assert sum(g["set"] == held.name for g in asked) == len(load_jsonl(held.file))
    assert held.previous not in {g["set"] for g in asked}


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(1200)  # 49 pages in one test: the 300 s default is too short on a loaded machine
@BY_NAME
def test_every_item_is_in_the_full_rendering(held: HeldOut, browser_session) -> None:  # type: ignore[no-untyped-def]
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    missing = missing_items(browser_session, load_jsonl(held.file))
    assert not missing, "\n".join(missing)
