"""The WordLlama look-up signal (:mod:`pagelens.focus.lookup`, ``default:wl``): it ranks a related sentence above
unrelated ones; without the package ``default`` makes its own selection and says why; the post-fusion insertion
places only units no signal ranked, after the order's first few."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from pagelens.focus import lookup
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.observe.textparse import rendering_from_text

HAVE = importlib.util.find_spec("wordllama") is not None
needs_wordllama = pytest.mark.skipif(not HAVE, reason="wordllama is not importable")


def _page() -> str:
    out = ["RootWebArea 'Garden shop'", "\t[1] main ''", "\t\t[2] heading 'Folding garden chair'"]
    out += [f"\t\tStaticText 'Paragraph {i}: the frame is powder-coated steel and the seat is woven fabric.'"
            for i in range(120)]
    out += [f"\t\t[{100 + i}] link 'Category {i}'" for i in range(30)]
    out += ["\t\t[4] toolbar ''", "\t\t\t[90] button 'Subscribe to restock alerts'", "\t\t\t[91] button 'Print'"]
    out += [f"\t\tStaticText 'Footnote {i}: delivery times apply to the mainland only.'" for i in range(80)]
    return "\n".join(out)


@needs_wordllama
def test_a_related_sentence_ranks_above_unrelated_ones() -> None:
    emb, reason = lookup.shared_lookup()
    assert emb is not None, reason
    goal = emb.embed(["How many calories are in one serving?"], query=True)[0]
    texts = ["Nutrition facts: 320 kcal per portion", "Share on social media", "Leave a comment below",
             "Copyright notice and terms of use"]
    sims = emb.embed(texts) @ goal
    assert int(np.argmax(sims)) == 0 and sims[0] > max(sims[1:]) + 0.05
    assert np.allclose(np.linalg.norm(emb.embed(texts), axis=1), 1.0, atol=1e-5)
    assert not emb.embed([""]).any()  # a text with no token: a zero vector, not NaN


@needs_wordllama
def test_the_numpy_path_sums_as_the_sparse_one() -> None:
    emb, _ = lookup.shared_lookup()
    assert emb is not None
    texts = ["Add to cart", "", "Preis: 12,99 €", "在庫あり", "a much longer line of text " * 5]
    ids = [e.ids for e in emb.tokenizer.encode_batch(texts, add_special_tokens=False)]
    lens = np.array([len(x) for x in ids])
    flat = np.array([t for x in ids for t in x], dtype=np.int64)
    assert np.allclose(lookup._sums(emb.table, ids, lens, flat), lookup._sums_numpy(emb.table, ids, lens), atol=1e-4)


@pytest.mark.parametrize("cfg", [RulesConfig(semantic=True, semantic_model="wl", semantic_gate=False),
                                 RulesConfig(meaning_keep=3, meaning_gate=False)])
def test_a_missing_package_gives_defaults_selection_and_the_reason(monkeypatch: pytest.MonkeyPatch,
                                                                   cfg: RulesConfig) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "wordllama" else real(name, *a))
    monkeypatch.setattr(lookup, "_shared", None)
    monkeypatch.setattr(lookup, "_reason", "")
    r = rendering_from_text(_page())
    goal = FocusQuery("Tell me when it is back", budget=0.1)
    plain = RulesRetriever(RulesConfig(meaning_keep=0)).select(goal, r)
    got = RulesRetriever(cfg).select(goal, r)
    assert got.keep == plain.keep
    assert "wordllama" in got.info["semantic_fallback"]
    assert "semantic_fallback" not in plain.info


@needs_wordllama
def test_the_inserted_units_are_kept_and_only_when_asked() -> None:
    r = rendering_from_text(_page())
    goal = FocusQuery("Let me know when it becomes available again", budget=0.05)
    sel = RulesRetriever(RulesConfig(meaning_keep=3, meaning_gate=False)).select(goal, r)
    added = sel.info["meaning_units"]
    assert len(added) == 3 and set(added) <= sel.keep  # placed after the first 10: within the budget
    assert "meaning_units" not in RulesRetriever(RulesConfig(meaning_keep=0)).select(goal, r).info
    seen = FocusQuery("Print the garden chair page", budget=0.05)  # every goal word is on the page: gated off
    assert "meaning_units" not in RulesRetriever(RulesConfig(meaning_keep=3)).select(seen, r).info
    assert RulesConfig().meaning_keep == 3  # on in default (W3)


def test_meaning_insert_places_unranked_units_after_the_first_few() -> None:
    sims = np.array([0.9, 0.8, 0.7, 0.6, -0.1, 0.5])
    order = [3, 0, 5, 1]
    out, added = lookup.meaning_insert(order, ranked={0, 3}, sims=sims, keep=2, after=1)
    assert added == [1, 2]  # 0 is ranked by a signal; 4 has a negative cosine
    assert out == [3, 1, 2, 0, 5]
    assert lookup.meaning_insert(order, {0}, sims, keep=0, after=1) == (order, [])


@needs_wordllama
def test_memoised_word_ids_equal_whole_text_ids() -> None:
    emb = lookup.WordLlamaEmbedder()
    texts = ["Add to cart", "Add to basket", "Preis: 12,99 €", "在庫あり 在庫なし", "don't-stop (now)!", "", " lead",
             "trail ", "two  spaces", "tab\there\nline", "▁marker in text", "x", "Ünïcödé wörds, ok?", "a  b  c "]
    assert [lookup.splittable(t) for t in texts[:7]] == [True, True, True, True, True, False, False]
    want = [e.ids for e in emb.tokenizer.encode_batch(texts, add_special_tokens=False)]
    assert emb.token_ids(texts) == want
    assert emb.token_ids(texts[::-1]) == want[::-1]  # from the memo now
    assert "cart" in emb._memo and "Add to cart" not in emb._memo and "two  spaces" in emb._memo


@needs_wordllama
def test_a_full_memo_cleared_mid_call_still_gives_every_texts_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    emb = lookup.WordLlamaEmbedder()
    monkeypatch.setattr(lookup, "MEMO_WORDS", 6)
    assert emb.token_ids(["Shop front"]) == [emb.tokenizer.encode("Shop front", add_special_tokens=False).ids]
    texts = ["Shop front", "Kettle model 1 with a steel body", "Kettle model 2 with a steel body"]
    want = [e.ids for e in emb.tokenizer.encode_batch(texts, add_special_tokens=False)]
    assert emb.token_ids(texts) == want  # "Shop front" was memoised, then the memo was cleared in this call
