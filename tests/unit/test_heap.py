"""Caches let go of earlier pages after a huge one (:mod:`pagelens.heap`, issue 13 item 5)."""

from __future__ import annotations

import gc

from pagelens import heap
from pagelens.focus import analysis, matcher
from pagelens.focus.view import focus_view
from pagelens.observe import provenance
from pagelens.types import Node, Observation


def _obs(n: int, word: str) -> Observation:
    nodes = [Node(0, None, 0, None, "RootWebArea", "Shop")]
    for i in range(n):
        k = len(nodes)
        nodes.append(Node(k, 0, 1, None, "listitem", ""))
        nodes.append(Node(k + 1, k, 2, None, "link", f"{word} item {i} in aisle {i % 7}"))  # (no ids: a typed tree)
    return Observation("http://127.0.0.1/shop", "Shop", tuple(nodes))


def _cached_lines() -> int:
    return sum(len(a.page.lines) for a in analysis._PAGES.values())


def test_release_empties_the_text_memos_and_the_analyses_nothing_else_holds() -> None:
    analysis.clear_caches()
    view = focus_view(_obs(300, "kettle"), goal="find the kettle in aisle 3")
    assert _cached_lines() == len(view.rendering.lines)
    assert analysis._TOKENS and matcher.words_of.cache_info().currsize > 0
    assert provenance._text_marks.cache_info().currsize > 0
    heap.release()  # the caller still holds the view: its analysis stays, the memos go
    assert [a.page.lines for a in analysis._PAGES.values()] == [view.rendering.lines]
    assert not analysis._TOKENS and not analysis._last
    assert matcher.words_of.cache_info().currsize == 0 and provenance._text_marks.cache_info().currsize == 0
    del view
    gc.collect()
    heap.release()  # now nothing but the cache holds that page
    assert not analysis._PAGES


def test_a_released_page_is_analysed_again_the_same() -> None:
    analysis.clear_caches()
    obs = _obs(200, "toaster")
    first = focus_view(obs, goal="find the toaster in aisle 5").text()
    heap.release()
    gc.collect()
    heap.release()
    misses = analysis.cache_stats()["misses"]
    assert focus_view(obs, goal="find the toaster in aisle 5").text() == first
    assert analysis.cache_stats()["misses"] == misses + 1  # built again, nothing stale reused


def test_watch_registers_once_and_trim_never_fails() -> None:
    calls: list[int] = []

    def releaser() -> None:
        calls.append(1)

    heap.watch(releaser)
    heap.watch(releaser)
    try:
        heap.release()
        assert calls == [1]
    finally:
        heap._releasers.remove(releaser)
    heap.trim()
