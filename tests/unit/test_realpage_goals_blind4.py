"""Shape of the held-out blind-4 goal file, and that every must-keep item is on its page.

The figures come from ``benchmarks/realpage_goals.py --set blind-4``. The existence check observes
each corpus page with the full tree only (no goal, no retriever, no defense), as the harness does,
and matches items with the harness's own matcher (``pagelens.bench.cases.item_kept``) against every
line of the full rendering: an item that fails here could never be kept by any retriever.
"""

from __future__ import annotations

import importlib.util
import json
import os
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLIND4 = ROOT / "benchmarks" / "data" / "realpage_goals_blind4.jsonl"
OTHERS = (ROOT / "benchmarks" / "data" / "realpage_goals.jsonl",
          ROOT / "benchmarks" / "data" / "realpage_goals_blind3.jsonl")
CORPUS = Path(os.environ.get("PAGELENS_CORPUS", str(ROOT.parent.parent / "shared" / "corpus" / "realpages")))
if not CORPUS.is_dir():  # a worktree sits two levels below /work, the main checkout one
    CORPUS = ROOT.parent / "shared" / "corpus" / "realpages"


def _load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("realpage_goals_harness", ROOT / "benchmarks" / "realpage_goals.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


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
    from pagelens.api import render_observation
    from pagelens.bench.cases import MustKeep, item_kept
    from pagelens.browser.serve import StaticServer

    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    goals = _load(BLIND4)
    missing: list[str] = []
    server = StaticServer(CORPUS)
    try:
        for page in sorted({g["page"] for g in goals}):
            with browser_session.episode() as episode:
                episode.goto(server.url(f"{page}.html"))
                lines = render_observation(episode.observe()).lines
            texts = [ln.text for ln in lines]
            for g in (g for g in goals if g["page"] == page):
                for m in g["must_keep"]:
                    if not item_kept(MustKeep(role=m["role"], name=m["name"]), lines, texts):
                        missing.append(f"{page}: {m['role']} {m['name']!r}")
    finally:
        server.close()
    assert not missing, "\n".join(missing)
