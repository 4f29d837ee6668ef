from __future__ import annotations

import time

from pagelens.focus.base import FocusQuery, Retriever
from pagelens.focus.bm25 import BM25Retriever, query_text, rank_chunks
from pagelens.focus.chunking import chunk_rendering, line_numbers
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Rendering

FILLER = [
    "StaticText 'Free shipping on orders over fifty dollars'",
    "[{i}] link 'Gift cards'",
    "StaticText 'Sign up for our newsletter to hear about seasonal offers'",
    "[{i}] link 'Store locator'",
    "StaticText 'Copyright notice and terms of service apply'",
]


def _page(target_at: int, n: int = 600) -> Rendering:
    rows = ["RootWebArea 'Outdoor shop'"]
    for i in range(n):
        if i == target_at:
            rows += [
                "\t[9001] heading 'Trail running shoes'",
                "\t[9002] StaticText 'Waterproof trail running shoes, size 42'",
                "\t[9003] button 'Add to cart'",
            ]
        rows.append("\t" + FILLER[i % len(FILLER)].format(i=i))
    return rendering_from_text("\n".join(rows))


def _no(r: Rendering, needle: str) -> int:
    return next(ln.no for ln in r.lines if needle in ln.text)


def test_keeps_the_chunk_with_the_goal_words_and_drops_distant_lines() -> None:
    r = _page(target_at=450)
    sel = BM25Retriever(chunk_tokens=200, top_k=1).select(FocusQuery("add the trail running shoes to my cart"), r)
    assert _no(r, "'Add to cart'") in sel.keep
    assert _no(r, "Waterproof trail running") in sel.keep
    assert 1 not in sel.keep and _no(r, "[6] link") not in sel.keep  # top of the page, far away
    assert sel.info["matched"] is True and sel.info["top"][0]["score"] > 0
    assert len(sel.keep) < len(r.lines) / 10


def test_top_k_chunks_and_names() -> None:
    r = _page(target_at=300)
    assert BM25Retriever(200).name == "bm25-200" and BM25Retriever(400).name == "bm25-400"
    assert isinstance(BM25Retriever(), Retriever)
    ret = BM25Retriever(chunk_tokens=200, top_k=3)
    sel = ret.select(FocusQuery("trail running shoes"), r)
    chunks = chunk_rendering(r, 200)
    tops = [t["chunk"] for t in sel.info["top"]]
    assert len(tops) == 3
    assert sel.keep == frozenset(n for i in tops for n in line_numbers(r, chunks[i]))


def test_stemming_matches_inflections() -> None:
    r = _page(target_at=200)
    sel = BM25Retriever(chunk_tokens=200, top_k=1).select(FocusQuery("waterproofing for trails"), r)
    assert _no(r, "Waterproof trail running") in sel.keep


def test_history_joins_the_query() -> None:
    q = FocusQuery("buy shoes", history=("click('12')", "fill('3', 'size 42')"))
    assert query_text(q) == "buy shoes\nclick('12')\nfill('3', 'size 42')"
    assert query_text(FocusQuery("buy shoes")) == "buy shoes"


def test_no_matching_word_falls_back_to_document_order() -> None:
    r = _page(target_at=10)
    ranked = rank_chunks("zzzz qqqq", chunk_rendering(r, 200))
    assert [i for i, _ in ranked] == list(range(len(ranked)))
    sel = BM25Retriever(chunk_tokens=200, top_k=2).select(FocusQuery("the and of"), r)  # stopwords only
    assert sel.info["matched"] is False and 0 in sel.keep


def test_empty_rendering() -> None:
    assert BM25Retriever().select(FocusQuery("x"), Rendering(lines=())).keep == frozenset()


def test_big_tree_chunk_and_rank_fast() -> None:
    rows = ["RootWebArea 'Big'"] + [
        "\t" * (1 + i % 5) + f"[{i}] link 'Category {i % 97} product {i} with a longer name', url='https://shop.example/c/{i}'"
        for i in range(12_000)
    ]
    r = rendering_from_text("\n".join(rows))
    t = time.process_time()
    sel = BM25Retriever(chunk_tokens=200).select(FocusQuery("product 7777 in category 17"), r)
    elapsed = time.process_time() - t
    assert _no(r, "[7777] link") in sel.keep
    assert elapsed < 3.0, elapsed
