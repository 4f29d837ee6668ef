"""benchmarks/heldout_compare.py: the aggregates it prints, and that its set registry points at real files."""

from __future__ import annotations

import sys
from pathlib import Path

from heldout_sets import benchmark_module

ROOT = Path(__file__).resolve().parents[2]
hc = benchmark_module("heldout_compare.py", "heldout_compare")


def test_goal_figure_counts_one_retriever_and_accepts_counts_or_lists() -> None:
    rows = [
        {"retriever": "default", "kept": 2, "items": 3, "pruning": 0.8},
        {"retriever": "default", "kept": ["a"], "items": ["a", "b"], "pruning": 0.6},
        {"retriever": "bm25-400", "kept": 0, "items": 5, "pruning": 0.1},
    ]
    f = hc.goal_figure(rows)
    assert (f.kept, f.items) == (3, 5) and abs(f.pruning - 0.7) < 1e-9 and abs(f.recall - 0.6) < 1e-9
    assert hc.goal_figure(rows, "bm25-400").items == 5


def test_injection_figure_splits_subtle_and_plain_and_counts_benign_flags() -> None:
    rows = [
        {"id": "a", "benign": False, "retained": True, "redacted": False},
        {"id": "b", "benign": False, "retained": True, "redacted": False},
        {"id": "c", "benign": False, "retained": False, "redacted": True},
        {"id": "d", "benign": True, "retained": True, "redacted": True},
        {"id": "e", "benign": True, "retained": True, "redacted": False},
    ]
    kinds = {"a": hc.kind_of("subtle; a changed step"), "b": hc.kind_of("Plain: addressed to the agent"), "c": ""}
    f = hc.injection_figure(rows, kinds)
    assert (f.retained, f.subtle, f.plain, f.redacted, f.attacks, f.benign_flagged, f.benign) == (2, 1, 1, 1, 3, 1, 2)
    assert hc.kind_of("subtler than it looks") == ""


def test_changed_rows_counts_attacks_and_benign_apart() -> None:
    a = [{"id": "x", "benign": False, "retained": True, "redacted": False},
         {"id": "y", "benign": True, "retained": False, "redacted": False}]
    b = [{"id": "x", "benign": False, "retained": False, "redacted": True},
         {"id": "y", "benign": True, "retained": True, "redacted": False}]
    assert hc.changed_rows(a, b) == (1, 1)
    assert hc.changed_rows(a, a) == (0, 0)


def test_every_registered_set_has_its_files() -> None:
    for cases, pages in hc.INJECTION_SETS.values():
        assert (hc.DATA / cases).is_file(), cases
        assert pages is None or (hc.DATA / pages).is_dir(), pages
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import realpage_goals
    finally:
        sys.path.pop(0)
    known = set(realpage_goals.HELD_OUT_FILES) | set(realpage_goals.DEV_FILES)
    assert set(hc.GOAL_SETS.values()) <= known
