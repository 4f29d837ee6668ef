"""Relations between units (:mod:`pagelens.focus.relations`): the lexical evidence of a unit's
relatives read from the tree's structure, and the relatives a ranking may add as candidates."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from focus_pages import typed_rendering

from pagelens.focus.analysis import analysis_of
from pagelens.focus.base import FocusQuery
from pagelens.focus.relations import RELATION_FEATURES, _range_max, relation_features, relatives, unit_ranges
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.types import Rendering


def _tag(i: int) -> str:
    """A word of letters only that names card ``i`` and nothing else."""
    return "q" + chr(97 + i % 26) + chr(97 + i // 26) + "v"


def _cards(n: int) -> Rendering:
    """``n`` cards, each a title paragraph, a long description and a small price line: the price
    line is its own unit whose parent is the card."""
    specs: list[tuple[int, str, str]] = [(0, "RootWebArea", "Shop"), (1, "main", "")]
    for i in range(n):
        specs += [(2, "article", ""), (3, "heading", f"Card title {_tag(i)}"),
                  (3, "paragraph", " ".join(f"word{i}x{j}" for j in range(120))), (3, "StaticText", f"{i}.50")]
    return typed_rendering(specs)


def _col(name: str) -> int:
    return RELATION_FEATURES.index(name)


def test_range_max_is_the_maximum_of_each_range() -> None:
    rng = np.random.default_rng(0)
    v = rng.random(37)
    lo = rng.integers(0, 37, size=200)
    hi = np.minimum(37, lo + rng.integers(0, 20, size=200))
    got = _range_max(v, lo, hi)
    want = np.asarray([v[a:b].max() if b > a else 0.0 for a, b in zip(lo, hi, strict=True)])
    assert np.allclose(got, want)


def test_a_unit_reads_its_relatives_evidence_not_its_own() -> None:
    cfg = RulesConfig()
    pa = analysis_of(_cards(6), cfg.limits, cfg.unit_text_chars)
    heads = pa.units.heads
    lines = pa.page.lines
    title = next(k for k, u in enumerate(heads) if lines[u].name == f"Card title {_tag(3)}")
    price = next(k for k, u in enumerate(heads) if lines[u].name == "3.50")
    other_price = next(k for k, u in enumerate(heads) if lines[u].name == "1.50")
    lex = np.zeros(len(heads))
    lex[title] = 1.0
    x = relation_features(pa, lex)
    assert x[price, _col("anc1_lex")] == 1.0  # the matched title of its own card
    assert x[other_price, _col("anc1_lex")] == 0.0  # another card's title is not its relative
    assert x[title, _col("anc1_lex")] == 0.0  # its own evidence is not counted
    assert x[title + 1, _col("prev_lex")] == 1.0 and x[title - 1, _col("next_lex")] == 1.0
    assert x[title, _col("hit_dist")] == 0.0 < x[price, _col("hit_dist")] < x[other_price, _col("hit_dist")]
    assert (unit_ranges(pa)[:, :, 0] <= unit_ranges(pa)[:, :, 1]).all()


def test_relatives_add_the_rest_of_a_card_and_stay_bounded() -> None:
    cfg = RulesConfig()
    pa = analysis_of(_cards(6), cfg.limits, cfg.unit_text_chars)
    title = next(k for k, u in enumerate(pa.units.heads) if pa.page.lines[u].name == f"Card title {_tag(3)}")
    got = relatives(pa, [title], 4)
    names = {pa.page.lines[pa.units.heads[k]].name for k in got}
    assert "3.50" in names and len(got) <= 4 and title not in got
    assert relatives(pa, [title], 0) == []


def test_the_relatives_option_still_gives_a_view() -> None:
    ret = RulesRetriever(replace(RulesConfig(), fusion_relatives=6))
    sel = ret.select(FocusQuery(f"What does card {_tag(4)} cost?"), _cards(40))
    assert sel.info["fusion"] == "learned" and sel.keep


def test_relation_columns_are_computed_only_for_a_model_that_reads_them(tmp_path) -> None:
    import json

    from pagelens.focus import learned

    shipped, _ = learned.load_model()
    assert shipped is not None and not shipped.reads_relations
    col = learned.FEATURES.index("anc1_lex")
    spec = {"kind": "linear", "features": ["anc1_lex"], "columns": [col], "mean": [0.0], "scale": [1.0],
            "coef": [1.0], "intercept": 0.0}
    assert learned.Model(spec).reads_relations
    path = tmp_path / "relations_model.json"
    path.write_text(json.dumps(spec))
    learned.forget_models()
    # a model that reads only "the best other unit under my parent": the lines of the card whose
    # title the goal names (its description and its price) come first, ahead of the title itself
    cfg = replace(RulesConfig(), fusion_model=str(path), fusion_relatives=4)
    pa = analysis_of(_cards(40), cfg.limits, cfg.unit_text_chars)
    ret = RulesRetriever(cfg)
    query = FocusQuery(_tag(7))
    signals, _lt, _unseen, fused = ret.fused(query, pa)
    order, reason = ret._learned(query, pa, signals, fused, set(), sorted(fused, key=lambda k: -fused[k]))
    assert reason == ""
    first = [pa.page.lines[pa.units.heads[k]].name for k in order[:2]]
    assert "7.50" in first and "word7x0 word7x1" in " ".join(first)
    learned.forget_models()
