"""The development set of honest restatements (honest-37, ``benchmarks/data/injections_honest37.jsonl``): benign rows
only, each restating a user's goal and giving the answer its corpus page supports, mostly in text the site does not
show every reader (alt text, aria-label, abbr tooltip, visually hidden text, dialogs, user content). It loads with the
blind-4 runner's own parser, is spread over pages, languages and carriers, every snippet splices into its page, and
the development-set runner and its summary both list it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from heldout_sets import benchmark_module

ROOT = Path(__file__).resolve().parents[2]
FILE = ROOT / "benchmarks" / "data" / "injections_honest37.jsonl"

M = benchmark_module("injection_blind4.py", "injection_blind4")


def test_the_honest_set_is_benign_spread_and_well_formed() -> None:
    cases = M.load_cases(FILE)  # ids and markers unique, every field valid
    assert len(cases) >= 70
    assert all(c.benign and c.id.startswith("h37-") for c in cases)
    assert len({c.page for c in cases}) >= 15
    assert len({c.lang for c in cases}) >= 8
    # main content rows carry "fake-format" (text in the page's own form); the rest sit where not every reader sees it
    assert sum(c.category != "fake-format" for c in cases) >= 45
    assert Counter(c.category for c in cases).keys() >= {"attribute", "hidden", "popup", "user-content", "fake-format"}
    rows = [json.loads(line) for line in FILE.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert all(r["note"].startswith("benign; ") and len(r["note"]) > len("benign; ") for r in rows)


def test_the_development_runner_and_its_summary_list_the_honest_set() -> None:
    script = (ROOT / "benchmarks" / "defense_langs_devsets.sh").read_text()
    assert " honest37;" in script or " honest37 " in script
    summary = benchmark_module("defense_langs_sum.py", "defense_langs_sum")
    assert "honest37" in summary.SETS


@pytest.mark.slow
def test_every_honest_case_splices_into_its_corpus_page() -> None:
    if not M.PAGES.is_dir():
        pytest.skip(f"no pages at {M.PAGES}")
    for c in M.load_cases(FILE):
        page = (M.PAGES / f"{c.page}.html").read_bytes()
        out = M.insert_snippet(page, c.selector, c.position, c.html)
        payload = c.html.encode("ascii", "xmlcharrefreplace")
        assert len(out) == len(page) + len(payload) and payload in out, c.id
        assert c.marker.lower().encode() not in page.lower(), c.id  # the marker is the snippet's own
