"""``benchmarks/focus_miss_causes.py`` (the twenty-first focus pass): its table counts every missed item once, in
the band of its page's size, and places an item by its unit's rank against the fill line."""

from __future__ import annotations

from heldout_sets import benchmark_module

from pagelens.focus.analysis import analysis_of
from pagelens.focus.rules import RulesConfig
from pagelens.observe.textparse import rendering_from_text


def test_the_table_counts_each_missed_item_in_its_band() -> None:
    mc = benchmark_module("focus_miss_causes.py", "focus_miss_causes_for_test")
    rows = [{"tokens": 500, "items": 2, "missed": []},
            {"tokens": 2000, "items": 3, "missed": [{"cause": "budget, above the line"}, {"cause": "folded before ranking"}]},
            {"tokens": 3000, "items": 1, "missed": [{"cause": "ranking, unranked"}]},
            {"tokens": 9000, "items": 4, "missed": [{"cause": "budget, above the line"}]}]
    text = mc.table(rows, [600, 3000])
    assert "| budget, above the line | 0 | 1 | 1 |" in text
    assert "| ranking, unranked | 0 | 1 | 0 |" in text  # 3,000 tokens is in the band that ends there
    assert "| missed / items | 0 / 2 | 3 / 4 | 1 / 4 |" in text


def test_an_item_is_placed_by_its_units_rank_and_the_fill_line() -> None:
    mc = benchmark_module("focus_miss_causes.py", "focus_miss_causes_for_test")
    page = ["RootWebArea 'Page'", "\t[1] main ''"] + [f"\t\t[{10 + i}] paragraph 'Paragraph {i}'" for i in range(5)]
    cfg = RulesConfig()
    pa = analysis_of(rendering_from_text("\n".join(page)), cfg.limits, cfg.unit_text_chars, cache=False)
    unit = {pa.page.lines[pa.units.heads[k]].name: k for k in range(len(pa.units.heads))}
    order = [unit[f"Paragraph {i}"] for i in (3, 1, 4)]
    keep = {pa.units.heads[unit["Paragraph 3"]], pa.units.heads[unit["Paragraph 4"]]}
    last = {"order": order, "keep": keep, "pa": pa}
    got = mc._place({"role": "paragraph", "name": "Paragraph 1"}, last)
    assert got == {"rank": 1, "fill_line": 2}  # ranked above the fill line, not kept: no structural cause
    assert mc._place({"role": "paragraph", "name": "Paragraph 0"}, last)["rank"] is None  # ranked by no signal
    assert mc._place({"role": "paragraph", "name": "Paragraph 3"}, last)["cause"] == "units: unit kept, line not"
    assert mc._place({"role": "link", "name": "Nowhere"}, last) == {"cause": "folded before ranking"}
