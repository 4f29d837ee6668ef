"""Answer-kind feature pairs (:mod:`pagelens.focus.answers`): what a goal asks for, what a unit
holds, computed only for a model that reads them."""

from __future__ import annotations

from focus_pages import typed_rendering as _rendering

from pagelens.focus import learned
from pagelens.focus.analysis import analysis_of
from pagelens.focus.answers import ANSWER_FEATURES, ANSWER_KINDS, answer_features, asked_kinds, unit_kinds
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesConfig, goal_shape
from pagelens.focus.terms import query_terms


def _page():  # type: ignore[no-untyped-def]
    specs = [(0, "RootWebArea", "Item"), (1, "main", "")]
    for i in range(40):
        specs += [(2, "paragraph", f"Plain prose line {i} without any figure in it at all, only words")]
    specs += [(2, "StaticText", "Price"), (2, "StaticText", "$49.99"), (2, "StaticText", "Published 12 Nov 2021"),
              (2, "StaticText", "38 comments"), (2, "StaticText", "by Anna Smith"), (2, "StaticText", "+44 20 7946 0958")]
    cfg = RulesConfig()
    return analysis_of(_rendering(specs), cfg.limits, cfg.unit_text_chars)


def test_a_goal_asks_for_a_kind_of_answer_by_its_concepts() -> None:
    assert asked_kinds(set(query_terms(FocusQuery("How much does this cost?"))[0])) == ("amount",)
    assert "count" in asked_kinds(set(query_terms(FocusQuery("How many comments are there?"))[0]))
    assert asked_kinds(set(query_terms(FocusQuery("Open the settings"))[0])) == ()
    assert goal_shape(FocusQuery("How much does this cost?"), set()).asks == ("amount",)


def test_units_hold_values_of_a_kind_by_their_shape() -> None:
    pa = _page()
    held = unit_kinds(pa)
    assert held.shape == (len(pa.units.heads), len(ANSWER_KINDS))
    texts = pa.norm_texts
    by_kind = {k: {texts[u] for u in range(len(texts)) if held[u, i]} for i, k in enumerate(ANSWER_KINDS)}
    assert any("49.99" in t for t in by_kind["amount"]) and any("2021" in t for t in by_kind["date"])
    assert any("38 comments" in t for t in by_kind["count"]) and any("anna" in t for t in by_kind["person"])
    assert any("7946" in t for t in by_kind["contact"])
    assert not any("plain prose" in t for k in ANSWER_KINDS for t in by_kind[k])
    x = answer_features(pa, ("amount",))
    assert x.shape == (len(pa.units.heads), len(ANSWER_FEATURES) - 1)
    assert x[:, ANSWER_FEATURES.index("holds_asked")].sum() >= 1
    assert answer_features(pa, ()).sum(axis=0)[ANSWER_FEATURES.index("holds_asked")] == 0


def test_the_answer_columns_of_the_feature_matrix() -> None:
    pa = _page()
    goal = goal_shape(FocusQuery("How much does this cost?"), set())
    x = learned.features(pa, {}, {}, {}, goal)
    first = learned.FEATURES.index(ANSWER_FEATURES[0])
    cols = x[:, first:]
    match = cols[:, ANSWER_FEATURES.index("holds_asked")]
    near = cols[:, ANSWER_FEATURES.index("asked_near")]
    assert match.sum() >= 1 and (near >= match).all() and near.sum() > match.sum()
    assert not learned.features(pa, {}, {}, {}, goal, answers=False)[:, first:].any()


def test_the_shipped_model_does_not_read_the_answer_columns() -> None:
    model, reason = learned.load_model()
    assert model is not None, reason
    assert not model.reads_answers and not model.reads_relations
