"""Shape of the held-out blind-3 goal file (its figures come from benchmarks/realpage_goals.py)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLIND3 = ROOT / "benchmarks" / "data" / "realpage_goals_blind3.jsonl"
OTHERS = ROOT / "benchmarks" / "data" / "realpage_goals.jsonl"


def _load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_blind3_is_well_formed_and_spread() -> None:
    goals = _load(BLIND3)
    assert len(goals) >= 70
    assert {g["set"] for g in goals} == {"blind-3"}
    assert len({g["page"] for g in goals}) >= 30
    kinds = Counter(g["kind"] for g in goals)
    assert set(kinds) == {"act", "read", "navigate"}
    assert kinds["act"] > kinds["read"] > kinds["navigate"] >= 0.15 * len(goals)
    for g in goals:
        assert set(g) == {"set", "page", "goal", "kind", "must_keep"}
        assert g["goal"].strip() and g["must_keep"]
        assert all(set(m) == {"role", "name"} and m["role"] for m in g["must_keep"])


def test_blind3_shares_no_goal_with_the_other_sets() -> None:
    others = {g["goal"].strip().lower() for g in _load(OTHERS)}
    assert not [g["goal"] for g in _load(BLIND3) if g["goal"].strip().lower() in others]
