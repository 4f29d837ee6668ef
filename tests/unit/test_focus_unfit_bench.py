"""``benchmarks/focus_unfit.py`` (the twenty-third focus pass): size bands and the summary's counts."""

from __future__ import annotations

from heldout_sets import benchmark_module


def test_bands_close_on_their_upper_edge() -> None:
    fu = benchmark_module("focus_unfit.py", "focus_unfit_for_test")
    assert fu.band(50, (50, 100)) == "0–50"
    assert fu.band(51, (50, 100)) == "50–100"
    assert fu.band(101, (50, 100)) == "> 100"


def test_the_summary_counts_each_item_once_per_row() -> None:
    fu = benchmark_module("focus_unfit.py", "focus_unfit_for_test")
    base = {"unit_tokens": 40, "span_tokens": 90, "head_role": "row", "item_tokens": 10, "rank": 12, "spent": 900,
            "budget": 800, "item_terms": False, "terms_1": False, "terms_2": True, "head_terms": False}
    text = fu.summary([base, {**base, "unit_tokens": 150, "head_role": "link", "spent": 700}])
    assert text.startswith("items: 2")
    assert "| unit tokens | 0–50: 1; 100–220: 1 |" in text
    assert "| budget spent | spent >= budget: 1; below budget: 1 |" in text
    assert "| head role | row: 1; link: 1 |" in text
