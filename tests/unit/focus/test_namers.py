"""The units that name a unit (:mod:`pagelens.focus.namers`): its section's headings and its
column header, read from the tree's structure, and the named units a ranking may add."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
from focus_pages import typed_rendering

from pagelens.focus import learned
from pagelens.focus.analysis import PageAnalysis, analysis_of
from pagelens.focus.base import FocusQuery
from pagelens.focus.namers import NAMER_FEATURES, named_units, namer_features, namer_units
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.types import Rendering


def _tag(i: int) -> str:
    """A word of letters only that names section ``i`` and nothing else."""
    return "q" + chr(97 + i % 26) + chr(97 + i // 26) + "v"


def _sections(n: int) -> Rendering:
    """``n`` sections, each a heading over a long paragraph and three short list items that share
    no word with the heading; then a table whose header names its columns."""
    specs: list[tuple[int, str, str]] = [(0, "RootWebArea", "Recipes"), (1, "main", "")]
    for i in range(n):
        specs += [(2, "heading", f"Section {_tag(i)}"),
                  (2, "paragraph", " ".join(f"word{i}x{j}" for j in range(120))),
                  (2, "list", "")]
        specs += [(3, "listitem", f"{j + 1}/{i + 2} cup item{i}y{j}") for j in range(3)]
    specs += [(2, "table", ""), (3, "row", ""), (4, "columnheader", "Name"), (4, "columnheader", "Zorblat")]
    for r in range(12):  # rows long enough to be units of their own
        specs += [(3, "row", ""), (4, "cell", f"thing{r} " + " ".join(f"about{r}x{j}" for j in range(30))),
                  (4, "cell", f"{r}.1 MB")]
    return typed_rendering(specs)


def _analysis(n: int = 6) -> PageAnalysis:
    cfg = RulesConfig()
    return analysis_of(_sections(n), cfg.limits, cfg.unit_text_chars)


def _unit(pa: PageAnalysis, name: str) -> int:
    return next(k for k, u in enumerate(pa.units.heads)
                if any(pa.page.lines[j].name == name for j in pa.units.members[k]))


def _col(name: str) -> int:
    return NAMER_FEATURES.index(name)


def test_a_list_item_reads_its_section_heading_and_a_cell_its_column_header() -> None:
    pa = _analysis()
    heading = _unit(pa, f"Section {_tag(3)}")
    item = _unit(pa, "2/5 cup item3y1")
    other = _unit(pa, "2/6 cup item4y1")
    header = _unit(pa, "Zorblat")
    row = _unit(pa, "7.1 MB")
    assert item != heading and row != header
    lex = np.zeros(len(pa.units.heads))
    lex[heading] = 1.0
    lex[header] = 0.8
    x = namer_features(pa, lex)
    assert x[item, _col("sec_lex")] == 1.0 and x[item, _col("outline_lex")] == 1.0
    assert x[other, _col("sec_lex")] == 0.0  # the next section's items: another heading names them
    assert x[heading, _col("sec_lex")] == 0.0  # its own evidence is not counted
    assert 0.0 < x[item, _col("sec_units")]
    assert x[row, _col("col_lex")] == 0.8  # a row under the matching header row
    assert x[item, _col("col_lex")] == 0.0 and x[header, _col("col_lex")] == 0.0  # no table / the header itself
    outline, column = namer_units(pa)
    assert outline.shape == (len(pa.units.heads), 3) and column.shape == (len(pa.units.heads),)
    assert namer_units(pa)[0] is outline  # once per page


def test_named_units_are_the_items_under_a_strong_heading_bounded() -> None:
    pa = _analysis()
    heading = _unit(pa, f"Section {_tag(2)}")
    lex = np.zeros(len(pa.units.heads))
    lex[heading] = 1.0
    got = named_units(pa, lex, 0.5, 8)
    names = {pa.page.lines[j].name for k in got for j in pa.units.members[k]}
    assert "1/4 cup item2y0" in names and "1/5 cup item3y0" not in names
    assert heading not in got
    assert len(named_units(pa, lex, 0.5, 1)) <= 1
    assert named_units(pa, np.zeros(len(lex)), 0.5, 8) == []


def test_namer_columns_are_computed_only_for_a_model_that_reads_them(tmp_path) -> None:
    shipped, _ = learned.load_model()
    assert shipped is not None and not shipped.reads_namers
    col = learned.FEATURES.index("sec_lex")
    spec = {"kind": "linear", "features": ["sec_lex"], "columns": [col], "mean": [0.0], "scale": [1.0],
            "coef": [1.0], "intercept": 0.0}
    model = learned.Model(spec)
    assert model.reads_namers and not model.reads_answers and not model.reads_relations
    path = tmp_path / "namers_model.json"
    path.write_text(json.dumps(spec))
    learned.forget_models()
    # a model that reads only "my section's heading matches": with the named units as candidates,
    # the items under the heading the goal names come first, though no signal ranks them
    cfg = replace(RulesConfig(), fusion_model=str(path), fusion_named=8)
    pa = analysis_of(_sections(30), cfg.limits, cfg.unit_text_chars)
    ret = RulesRetriever(cfg)
    query = FocusQuery(_tag(7))
    signals, _lt, _unseen, fused = ret.fused(query, pa)
    order, reason = ret._learned(query, pa, signals, fused, set(), sorted(fused, key=lambda k: -fused[k]))
    assert reason == ""
    first = " ".join(pa.page.lines[j].name for k in order[:3] for j in pa.units.members[k])
    assert "item7y" in first
    assert not any(k in fused for k in order[:1])  # the first is a unit no signal ranked
    learned.forget_models()
    sel = RulesRetriever(cfg).select(FocusQuery(f"What goes into section {_tag(7)}?"), _sections(30))
    assert sel.keep
    learned.forget_models()
