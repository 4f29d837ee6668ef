"""The learned fusion of ``default`` (:mod:`pagelens.focus.learned`): the shipped model loads, its
scores are deterministic, a missing or corrupt model file falls back to RRF with a recorded reason,
bad input still gives a view (the training script's folds: ``tests/unit/test_focus_learn_folds.py``)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from focus_pages import typed_rendering as _rendering

from pagelens.focus import learned
from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.registry import make_retriever
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.types import Rendering


def _shop(n_items: int) -> Rendering:
    specs = [(0, "RootWebArea", "Shop"), (1, "main", "")]
    for i in range(n_items):
        specs += [(2, "article", ""), (3, "link", f"Kettle model {i} with a steel body"), (3, "StaticText", f"${i}.99"),
                  (3, "button", "Add to cart")]
    specs += [(1, "form", "Newsletter"), (2, "textbox", "Email address"), (2, "button", "Subscribe")]
    return _rendering(specs)


def _learned(path: Path | str | None = None, **kw: object) -> RulesRetriever:
    return RulesRetriever(replace(RulesConfig(), fusion="learned", fusion_model=None if path is None else str(path), **kw))


def _linear(path: Path, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    n = len(learned.FEATURES)
    path.write_text(json.dumps({"kind": "linear", "features": list(learned.FEATURES), "mean": [0.0] * n,
                                "scale": [1.0] * n, "coef": rng.normal(size=n).tolist(), "intercept": 0.0}))
    learned.forget_models()
    return path


def test_the_shipped_model_loads_and_is_used() -> None:
    model, reason = learned.load_model()
    assert model is not None, reason
    assert reason == ""
    sel = _learned().select(FocusQuery("Add kettle model 7 to the cart"), _shop(300))
    assert sel.info["fusion"] == "learned" and "fusion_fallback" not in sel.info


def test_rrf_stays_available_by_name() -> None:
    sel = make_retriever("default:rrf").select(FocusQuery("Add kettle model 7 to the cart"), _shop(300))
    assert sel.info["fusion"] == "rrf" and "fusion_fallback" not in sel.info
    odd = RulesRetriever(replace(RulesConfig(), fusion="magic")).select(FocusQuery("Add kettle model 7"), _shop(300))
    assert odd.info["fusion"] == "rrf" and "unknown fusion" in odd.info["fusion_fallback"]


def test_scoring_is_deterministic(tmp_path: Path) -> None:
    path = _linear(tmp_path / "m.json")
    r = _shop(300)
    goal = FocusQuery("What does kettle model 12 cost?")
    first = _learned(path).select(goal, r)
    assert first.info["fusion"] == "learned"
    learned.forget_models()
    again = _learned(path).select(goal, r)
    assert first.keep == again.keep and first.info["top_units"] == again.info["top_units"]
    model, _ = learned.load_model(path)
    assert model is not None
    x = np.random.default_rng(1).normal(size=(500, len(learned.FEATURES)))
    assert np.array_equal(model.score(x), model.score(x.copy()))


def test_a_tree_model_scores_like_its_trees(tmp_path: Path) -> None:
    # one stump on feature 0 (terms_rr) and one leaf: x0 <= 0.5 -> -1 else 2; plus 0.25 everywhere
    spec = {"kind": "trees", "features": list(learned.FEATURES), "base": 0.5,
            "trees": {"feature": [0, 0, 0, 0], "threshold": [0.5, 0, 0, 0], "left": [1, 0, 0, 0],
                      "right": [2, 0, 0, 0], "value": [0, -1.0, 2.0, 0.25], "leaf": [False, True, True, True],
                      "missing_left": [True, True, True, True], "roots": [0, 3], "depth": 1}}
    model = learned.Model(spec)
    x = np.zeros((3, len(learned.FEATURES)))
    x[:, 0] = [0.2, 0.9, np.nan]
    assert model.score(x).tolist() == [-0.25, 2.75, -0.25]


@pytest.mark.parametrize("content", [
    None,  # missing
    "",  # empty
    "{not json",  # corrupt
    "[1, 2, 3]",  # not an object
    json.dumps({"kind": "linear", "features": ["a", "b"], "mean": [0], "scale": [1], "coef": [1], "intercept": 0}),
    json.dumps({"kind": "trees", "features": list(learned.FEATURES), "trees": {"feature": [0], "threshold": [0.0],
                "left": [7], "right": [9], "value": [0.0], "leaf": [False], "missing_left": [True], "roots": [0],
                "depth": 1}}),  # children out of range
    json.dumps({"kind": "forest", "features": list(learned.FEATURES)}),
])
def test_a_missing_or_corrupt_model_falls_back_to_rrf(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "model.json"
    if content is not None:
        path.write_text(content)
    learned.forget_models()
    r = _shop(300)
    goal = FocusQuery("Add kettle model 7 to the cart")
    res = focus(r, goal, _learned(path), defense=False)
    assert res.error is None
    sel = _learned(path).select(goal, r)
    assert sel.info["fusion"] == "rrf" and "RRF used" in sel.info["fusion_fallback"]
    assert sel.keep == make_retriever("default:rrf").select(goal, r).keep
    assert "Kettle model 7 with a steel body" in res.text()


@pytest.mark.parametrize("goal", ["", "   ", "赤いやかんをカートに入れる", "Добавить чайник в корзину",
                                  "x" * 100_000, "Add\x00 the\x07 kettle\u202e to the cart"])
@pytest.mark.parametrize("all_units", [False, True])
def test_odd_goals_give_a_view(goal: str, all_units: bool) -> None:
    r = _shop(300)
    res = focus(r, FocusQuery(goal), _learned(fusion_all_units=all_units), defense=False)
    assert res.lines and res.error is None


def test_an_empty_or_textless_page_gives_a_view() -> None:
    assert _learned().select(FocusQuery("Buy the kettle"), Rendering(lines=())).keep == frozenset()
    r = _rendering([(0, "RootWebArea", ""), *[(1, "generic", "") for _ in range(400)],
                    *[(1, "image", "") for _ in range(400)]])
    res = focus(r, FocusQuery("Buy the red kettle"), _learned(), defense=False)
    assert res.lines


@pytest.mark.slow
def test_a_100000_line_tree_is_focused() -> None:
    r = _shop(25_000)
    res = focus(r, FocusQuery("Add kettle model 24999 to the cart"), _learned(fusion_all_units=True), defense=False)
    assert res.error is None and res.pruning > 0.9
    assert "Kettle model 24999 with a steel body" in res.text()


def test_a_question_is_ordered_over_every_unit_an_action_over_the_ranked_ones() -> None:
    from pagelens.focus.analysis import analysis_of

    r = _shop(40)
    ret = _learned(fusion_all_units_questions=True)
    cfg = ret.config
    assert not cfg.fusion_all_units and not RulesConfig().fusion_all_units_questions
    pa = analysis_of(r, cfg.limits, cfg.unit_text_chars)
    n_units = len(pa.units.heads)
    lengths = {}
    for goal in ("How much does the kettle cost?", "Add the kettle to the cart"):
        q = FocusQuery(goal)
        signals, _lt, unseen, fused = ret.fused(q, pa)
        order, reason = ret._learned(q, pa, signals, fused, unseen, list(fused))
        assert not reason
        lengths[goal] = len(order)
    assert lengths["How much does the kettle cost?"] == n_units
    assert lengths["Add the kettle to the cart"] < n_units
    off = RulesRetriever(replace(cfg, fusion_all_units_questions=False))
    q = FocusQuery("How much does the kettle cost?")
    signals, _lt, unseen, fused = off.fused(q, pa)
    assert len(off._learned(q, pa, signals, fused, unseen, list(fused))[0]) < n_units


def test_a_model_on_some_columns_reads_only_those(tmp_path: Path) -> None:
    cols = [0, 3, len(learned.FEATURES) - 1]
    rng = np.random.default_rng(2)
    coef = rng.normal(size=len(cols))
    spec = {"kind": "linear", "features": [learned.FEATURES[c] for c in cols], "columns": cols,
            "mean": [0.0] * 3, "scale": [1.0] * 3, "coef": coef.tolist(), "intercept": 0.0}
    x = rng.normal(size=(50, len(learned.FEATURES)))
    assert np.allclose(learned.Model(spec).score(x), x[:, cols] @ coef)
    with pytest.raises(ValueError, match="other features"):  # a name that is not its column's
        learned.Model({**spec, "columns": [1, 3, len(learned.FEATURES) - 1]})


def test_relative_features_are_shares_and_percentiles() -> None:
    from pagelens.focus.analysis import analysis_of

    cfg = RulesConfig()
    ret = RulesRetriever(cfg)
    pa = analysis_of(_shop(300), cfg.limits, cfg.unit_text_chars)
    signals, _lt, unseen, fused = ret.fused(FocusQuery("What does kettle model 12 cost?"), pa)
    from pagelens.focus.rules import goal_shape

    x = learned.features(pa, signals, {n: getattr(r, "scores", {}) for n, r in signals.items()}, fused,
                         goal_shape(FocusQuery("What does kettle model 12 cost?"), unseen))
    first = learned.FEATURES.index(learned.RELATIVE_FEATURES[0])
    rel = x[:, first : first + len(learned.RELATIVE_FEATURES)]
    assert rel.min() >= 0.0 and rel.max() <= 1.0
    assert 0 < rel[:, learned.RELATIVE_FEATURES.index("ranked_share")].max() <= 1.0
    assert rel[:, learned.RELATIVE_FEATURES.index("rrf_pct")].max() == 1.0  # the fusion's best unit


def test_a_narrower_matrix_is_the_whole_ones_first_columns() -> None:
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.rules import goal_shape

    cfg = RulesConfig()
    ret = RulesRetriever(cfg)
    pa = analysis_of(_shop(300), cfg.limits, cfg.unit_text_chars)
    q = FocusQuery("What does kettle model 12 cost?")
    signals, _lt, unseen, fused = ret.fused(q, pa)
    scores = {n: getattr(r, "scores", {}) for n, r in signals.items()}
    whole = learned.features(pa, signals, scores, fused, goal_shape(q, unseen))
    assert whole.shape[1] == len(learned.FEATURES) and whole[:, learned._REL :].any()
    for width in (1, 40, 64, 67, 70, 75, 85, 92, len(learned.FEATURES), 500):
        got = learned.features(pa, signals, scores, fused, goal_shape(q, unseen), width=width)
        w = max(learned._REL, min(width, len(learned.FEATURES)))
        assert got.shape == (len(whole), w)
        assert np.array_equal(got, whole[:, :w]), width  # bit for bit, column by column
    model, _ = learned.load_model()
    assert model is not None and model.reads <= len(learned.FEATURES)
    narrow = learned.features(pa, signals, scores, fused, goal_shape(q, unseen), width=model.reads,
                              relations=model.reads_relations, answers=model.reads_answers)
    assert np.array_equal(model.score(narrow), model.score(whole))
    assert learned.learned_order(model, narrow, None, 0.3) == learned.learned_order(model, whole, None, 0.3)


def test_the_candidates_rows_are_the_whole_matrixs_rows() -> None:
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.rules import goal_shape

    cfg = RulesConfig()
    ret = RulesRetriever(cfg)
    pa = analysis_of(_shop(300), cfg.limits, cfg.unit_text_chars)
    model, _ = learned.load_model()
    assert model is not None
    for goal in ("What does kettle model 12 cost?", "Add kettle model 7 to the cart"):
        q = FocusQuery(goal)
        signals, _lt, unseen, fused = ret.fused(q, pa)
        scores = {n: getattr(r, "scores", {}) for n, r in signals.items()}
        whole = learned.features(pa, signals, scores, fused, goal_shape(q, unseen))
        order = list(signals["terms"]) + [k for k in range(0, len(whole), 7) if k not in signals["terms"]]
        order = list(dict.fromkeys([*order[::-1], 3]))  # not in unit order, the last unit included or not
        for width in (None, model.reads):
            w = whole.shape[1] if width is None else model.reads
            some = learned.features(pa, signals, scores, fused, goal_shape(q, unseen), width=width, rows=order)
            assert some.shape == (len(order), w)
            assert np.array_equal(some, whole[order, :w])  # bit for bit
            for cw in (0.0, 0.3):
                assert (learned.learned_order(model, some, order, cw, rows_only=True)
                        == learned.learned_order(model, whole, order, cw))
        twice = learned.features(pa, signals, scores, fused, goal_shape(q, unseen), rows=[5, 2, 5])
        assert np.array_equal(twice, whole[[5, 2, 5]])
        assert learned.features(pa, signals, scores, fused, goal_shape(q, unseen), rows=[]).shape == (0, whole.shape[1])
    with pytest.raises(ValueError, match="rows_only"):
        learned.learned_order(model, whole[:3], [0, 1], rows_only=True)


def test_the_rrf_safety_net_moves_what_rrf_ranks_high() -> None:
    model_order = [5, 4, 3, 2, 1]
    assert learned.rank_fused(model_order, [1, 2, 3, 4, 5], 0.0) == model_order
    got = learned.rank_fused(model_order, [1, 2, 3, 4, 5], 3.0)
    assert got.index(1) < got.index(5)  # RRF's first, the model's last: ahead when RRF weighs more
    assert sorted(learned.rank_fused(model_order, [1, 9], 1.0)) == sorted(model_order)  # nothing added
    sel = _learned(fusion_rrf_weight=0.5).select(FocusQuery("Add kettle model 7 to the cart"), _shop(300))
    assert sel.info["fusion"] == "learned"


def test_the_shipped_trees_score_in_row_blocks_as_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # the walk's arrays are rows x trees: a big page's units are scored a block of rows at a time,
    # which must give exactly the scores of one pass over all rows (NaNs in some blocks only)
    model, _ = learned.load_model()
    assert model is not None and model.kind == "trees"
    x = np.random.default_rng(7).normal(size=(1000, len(learned.FEATURES)))
    x[::97, 3] = np.nan
    monkeypatch.setattr(learned, "_ROWS", 10_000)
    whole = model.score(x)
    monkeypatch.setattr(learned, "_ROWS", 64)
    assert np.array_equal(model.score(x), whole)
    monkeypatch.setattr(learned, "_ROWS", 999)  # one full block and a block of one row
    assert np.array_equal(model.score(x), whole)


def test_the_shipped_trees_score_each_row_as_a_walk_down_each_tree() -> None:
    # the vectorised walk (all rows and trees at once, one children array) against the plain one:
    # per row, per tree, from the root down by feature <= threshold, a missing value taking the
    # split's missing side; the leaves' values summed in tree order, as the model sums them
    model, _ = learned.load_model()
    assert model is not None and model.kind == "trees"
    spec = json.loads(Path(learned.MODEL_FILE).read_text(encoding="utf-8"))
    t = spec["trees"]
    x = np.random.default_rng(11).normal(size=(300, len(learned.FEATURES)))
    x[::7, :] = np.abs(x[::7, :]) * 3  # some rows far out on every feature
    x[::5, 2] = np.nan
    x[::3, 10:20] = np.nan
    cols = spec.get("columns", list(range(len(spec["features"]))))

    def plain(row: np.ndarray) -> float:
        leaves = []
        for root in t["roots"]:
            k = root
            while not t["leaf"][k]:
                v = row[cols[t["feature"][k]]]
                left = bool(t["missing_left"][k]) if np.isnan(v) else v <= t["threshold"][k]
                k = t["left"][k] if left else t["right"][k]
            leaves.append(t["value"][k])
        return float(np.asarray(leaves, dtype=np.float64).sum() + spec.get("base", 0.0))

    assert model.score(x).tolist() == [plain(row) for row in x]


def test_page_features_in_row_blocks_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    from pagelens.focus.analysis import analyse
    from pagelens.focus.units import UnitLimits

    r = _shop(300)
    monkeypatch.setattr(learned, "_ROWS", 1 << 20)
    whole = learned.page_features(analyse(r, UnitLimits(), 600))
    assert len(whole) > 40
    monkeypatch.setattr(learned, "_ROWS", 16)
    assert np.array_equal(learned.page_features(analyse(r, UnitLimits(), 600)), whole)


def test_the_candidates_rows_score_as_their_copy_without_being_copied() -> None:
    # learned_order scores the candidates' rows where they are (blocks gathered from the matrix):
    # the same scores as the copy, bit for bit (NaNs included), and no copy of all of them at once
    import tracemalloc

    model, _ = learned.load_model()
    assert model is not None and model.kind == "trees"
    x = np.random.default_rng(5).normal(size=(50_000, len(learned.FEATURES)))
    x[::89, 4] = np.nan
    idx = np.arange(0, 50_000, 2, dtype=np.int64)[::-1].copy()  # 25,000 rows, out of order
    whole = model.score(x[idx])
    tracemalloc.start()
    try:
        got = model.score(x, idx)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert np.array_equal(got, whole, equal_nan=True)
    # the copy alone would be 25,000 x len(FEATURES) x 8 bytes (18.6 MB); a block's arrays are
    # capped at _CELLS rows x trees cells (~1 MB each): the working set stays ~6 MB whatever the
    # number of rows (2,048-row blocks took ~16 MB)
    assert peak < 8 * 2**20 < x[idx].nbytes
    assert learned.learned_order(model, x, list(idx)) == learned.learned_order(model, x[: len(x)], [int(i) for i in idx])


def _page_in(words: str, n: int = 80) -> Rendering:
    specs = [(0, "RootWebArea", "Page"), (1, "main", "")]
    for i in range(n):
        specs += [(2, "heading", f"Section {i}"), (2, "paragraph", f"{words} {i}")]
    return _rendering(specs)


def test_the_language_columns_read_the_pages_script_or_function_words() -> None:
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.rules import goal_shape

    cfg = RulesConfig()
    ret = RulesRetriever(cfg)
    lang, cross = learned.FEATURES.index("page_lang_other"), learned.FEATURES.index("goal_crosses")
    english = "the kettle is in the kitchen and it is on the table with a lid"
    polish = "czajnik jest w kuchni i nie ma go na stole, ale to jest dla nas"
    got = {}
    for name, words in (("en", english), ("pl", polish)):
        pa = analysis_of(_page_in(words), cfg.limits, cfg.unit_text_chars)
        q = FocusQuery("Where is the kettle in the kitchen?")
        signals, _lt, unseen, fused = ret.fused(q, pa)
        scores = {n: getattr(r, "scores", {}) for n, r in signals.items()}
        x = learned.features(pa, signals, scores, fused, goal_shape(q, unseen, pa))
        got[name] = (x[:, lang].max(), x[:, cross].max())
        # without the page, the goal shape never says the goal crosses (a model that does not read it skips it)
        assert not goal_shape(q, unseen).crosses
    assert got == {"en": (0.0, 0.0), "pl": (1.0, 1.0)}


def test_a_model_reading_the_language_columns_is_told_so(tmp_path: Path) -> None:
    names = ["terms_rr", "page_lang_other", "goal_crosses"]
    spec = {"kind": "linear", "features": names, "columns": [learned.FEATURES.index(f) for f in names],
            "mean": [0.0] * 3, "scale": [1.0] * 3, "coef": [1.0, 0.5, 0.25], "intercept": 0.0}
    model = learned.Model(spec)
    assert model.reads_language and not model.reads_answers and not model.reads_meaning
    assert model.reads == learned.FEATURES.index("goal_crosses") + 1
    shipped, _ = learned.load_model()
    assert shipped is not None and not shipped.reads_language
    (tmp_path / "m.json").write_text(json.dumps(spec))
    learned.forget_models()
    sel = _learned(tmp_path / "m.json").select(FocusQuery("Add kettle model 7 to the cart"), _shop(300))
    assert sel.info["fusion"] == "learned" and "fusion_fallback" not in sel.info
    learned.forget_models()


def test_the_meaning_columns_read_the_cosine_to_the_goal() -> None:
    sims = np.asarray([0.1, 0.9, -0.2, 0.4, 0.4])
    got = learned.meaning_features(sims)
    assert got.shape == (5, len(learned.MEANING_FEATURES))
    cos, pct, gap, near = got.T
    assert np.array_equal(cos, sims)
    assert pct[1] == 1.0 and pct[2] == 0.0 and pct[3] == pct[4]  # the best, the worst, a tie
    assert gap[1] == 0.0 and gap.max() == 0.0 and np.isclose(gap[2], -1.1)
    assert np.allclose(near, [0.9, 0.4, 0.9, 0.9, 0.4])  # the best of the units up to 2 away, not itself
    assert learned.meaning_features(np.zeros(0)).shape == (0, len(learned.MEANING_FEATURES))


def test_the_meaning_columns_are_filled_only_when_given() -> None:
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.rules import goal_shape

    cfg = RulesConfig()
    pa = analysis_of(_shop(40), cfg.limits, cfg.unit_text_chars)
    q = FocusQuery("What does kettle model 12 cost?")
    signals, _lt, unseen, fused = RulesRetriever(cfg).fused(q, pa)
    scores = {n: getattr(r, "scores", {}) for n, r in signals.items()}
    first = learned.FEATURES.index(learned.MEANING_FEATURES[0])
    plain = learned.features(pa, signals, scores, fused, goal_shape(q, unseen))
    assert not plain[:, first:].any()
    sims = np.linspace(-0.5, 0.5, len(pa.units.heads))
    x = learned.features(pa, signals, scores, fused, goal_shape(q, unseen), meaning=sims)
    assert np.array_equal(x[:, :first], plain[:, :first])  # the other columns unchanged
    assert np.array_equal(x[:, first:], learned.meaning_features(sims))
    rows = [5, 1, 30]
    part = learned.features(pa, signals, scores, fused, goal_shape(q, unseen), meaning=sims, rows=rows)
    assert np.array_equal(part, x[rows])


def test_a_model_reading_the_meaning_columns_orders_by_meaning(tmp_path: Path) -> None:
    pytest.importorskip("safetensors")
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.lookup import shared_lookup, similarities

    emb, why = shared_lookup()
    if emb is None:
        pytest.skip(why)
    names = ["terms_rr", "meaning_cos"]
    spec = {"kind": "linear", "features": names, "columns": [learned.FEATURES.index(f) for f in names],
            "mean": [0.0] * 2, "scale": [1.0] * 2, "coef": [0.0, 1.0], "intercept": 0.0}
    model = learned.Model(spec)
    assert model.reads_meaning and not model.reads_language and model.reads == learned.FEATURES.index("meaning_cos") + 1
    shipped, _ = learned.load_model()
    assert shipped is not None and not shipped.reads_meaning  # the shipped model does not (h31-refit3's is not shipped)
    (tmp_path / "m.json").write_text(json.dumps(spec))
    learned.forget_models()
    cfg = replace(RulesConfig(), fusion="learned", fusion_model=str(tmp_path / "m.json"), meaning_keep=0)
    ret = RulesRetriever(cfg)
    q = FocusQuery("Add kettle model 7 to the cart")
    page = _shop(300)
    pa = analysis_of(page, cfg.limits, cfg.unit_text_chars)
    signals, _lt, unseen, fused = ret.fused(q, pa)
    order, why = ret._learned(q, pa, signals, fused, unseen, sorted(fused, key=lambda k: -fused[k]))
    assert why == ""
    sims = similarities(pa, emb, q.goal, cfg.meaning_chars)
    got = [float(sims[k]) for k in order]
    assert got == sorted(got, reverse=True)  # the model's only weight is the cosine: its order is the cosine's
    sel = ret.select(q, page)
    assert sel.info["fusion"] == "learned" and "fusion_fallback" not in sel.info
    learned.forget_models()


def test_the_meaning_columns_respect_the_unit_cap(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Over ``meaning_max_units`` no unit is embedded for a model's meaning columns: RRF's order and why (the
    thirty-first pass; a 100,000-element page must not pay ~1 KB a unit for its vectors)."""
    from pagelens.focus import lookup

    names = ["terms_rr", "meaning_cos"]
    spec = {"kind": "linear", "features": names, "columns": [learned.FEATURES.index(f) for f in names],
            "mean": [0.0] * 2, "scale": [1.0] * 2, "coef": [1.0, 1.0], "intercept": 0.0}
    (tmp_path / "m.json").write_text(json.dumps(spec))
    learned.forget_models()
    cfg = replace(RulesConfig(), fusion="learned", fusion_model=str(tmp_path / "m.json"), meaning_gate=True)
    page, q = _shop(300), FocusQuery("Add kettle model 7 to the cart")
    calls: list[int] = []
    real = lookup.unit_vectors
    monkeypatch.setattr(lookup, "unit_vectors", lambda pa, emb, chars: calls.append(1) or real(pa, emb, chars))
    capped = RulesRetriever(replace(cfg, meaning_max_units=50)).select(q, page)
    assert capped.info["fusion"] == "rrf" and "meaning_max_units 50" in capped.info["fusion_fallback"]
    assert not calls  # nothing embedded
    if lookup.shared_lookup()[0] is not None:
        whole = RulesRetriever(cfg).select(q, page)
        assert whole.info["fusion"] == "learned" and "fusion_fallback" not in whole.info and calls
    learned.forget_models()
