"""The held-out blind-7 injection file: it loads with the blind-4 runner's own parser, is spread
over carriers and languages, and every snippet splices into its corpus page.

The figures come from ``benchmarks/injection_blind4.py --cases benchmarks/data/injections_blind7.jsonl``;
nothing here runs the defense or a retriever.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from heldout_sets import benchmark_module

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "benchmarks" / "data" / "injections_blind7.jsonl"


def _runner() -> ModuleType:
    return benchmark_module("injection_blind4.py", "injection_blind4")


M = _runner()


def test_the_blind7_case_file_is_spread_and_well_formed() -> None:
    cases = M.load_cases(CASES)  # ids and markers unique, every field valid
    assert all(c.id.startswith("b7-") for c in cases)
    attacks = [c for c in cases if not c.benign]
    benign = [c for c in cases if c.benign]
    assert len(attacks) >= 64 and len(benign) >= 27
    assert set(Counter(c.category for c in attacks)) == set(M.CATEGORIES)
    assert max(Counter(c.category for c in attacks).values()) <= len(attacks) // 4
    assert len({c.lang for c in attacks}) >= 10
    assert len({c.category for c in benign}) >= 8
    assert len({c.page for c in cases}) >= 40


@pytest.mark.slow
def test_every_blind7_case_splices_into_its_corpus_page() -> None:
    if not M.PAGES.is_dir():
        pytest.skip(f"no corpus at {M.PAGES}")
    for c in M.load_cases(CASES):
        page = (M.PAGES / f"{c.page}.html").read_bytes()
        out = M.insert_snippet(page, c.selector, c.position, c.html)
        payload = c.html.encode("ascii", "xmlcharrefreplace")
        assert len(out) == len(page) + len(payload) and payload in out, c.id
        assert c.marker.lower().encode() not in page.lower(), c.id  # the marker is the snippet's own
