"""BM25 over fixed-size token chunks: the BM25Agent baseline of the FocusAgent paper.

The query is the goal (plus the recent history lines when given); the flattened tree is cut
into ``chunk_tokens``-token windows (:mod:`pagelens.focus.chunking`), scored with ``bm25s``
(English stopwords, PyStemmer's English stemmer when importable), and the lines of the
``top_k`` best chunks are kept. Ties (including the all-zero case, when no query word occurs
on the page) go to the earlier chunk, so the result is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pagelens.focus.base import FocusQuery, Selection
from pagelens.focus.chunking import Chunk, chunk_rendering, line_numbers
from pagelens.focus.lexical import stemmer
from pagelens.types import Rendering

__all__ = ["BM25Retriever", "query_text", "rank_chunks"]


def query_text(query: FocusQuery) -> str:
    """The retrieval query of the classic baselines: goal, then history lines."""
    return "\n".join((query.goal, *query.history)) if query.history else query.goal



def _tokenize(texts: list[str]) -> list[list[str]]:
    import bm25s

    out = bm25s.tokenize(
        texts, stopwords="en", stemmer=stemmer("en"), return_ids=False, show_progress=False
    )
    return [list(t) for t in out]


def rank_chunks(query: str, chunks: tuple[Chunk, ...]) -> list[tuple[int, float]]:
    """``(chunk index, BM25 score)`` for every chunk, best first, ties in document order."""
    if not chunks:
        return []
    import bm25s

    corpus = _tokenize([c.text for c in chunks])
    q = _tokenize([query])[0]
    if not any(corpus) or not q:
        return [(c.index, 0.0) for c in chunks]
    index = bm25s.BM25()
    index.index(corpus, show_progress=False)
    vocab = set().union(*map(set, corpus))
    known = [t for t in q if t in vocab]
    if not known:
        return [(c.index, 0.0) for c in chunks]
    scores = index.get_scores(known)
    order = sorted(range(len(chunks)), key=lambda i: (-float(scores[i]), i))
    return [(chunks[i].index, float(scores[i])) for i in order]


@dataclass(frozen=True, slots=True)
class BM25Retriever:
    """Keep the lines of the ``top_k`` BM25-best chunks of ``chunk_tokens`` tokens."""

    chunk_tokens: int = 200
    top_k: int = 10
    overlap: int = 0
    name: str = field(init=False)

    def __post_init__(self) -> None:
        if self.top_k <= 0:
            raise ValueError(f"top_k must be positive, got {self.top_k}")
        object.__setattr__(self, "name", f"bm25-{self.chunk_tokens}")

    def select(self, query: FocusQuery, rendering: Rendering) -> Selection:
        chunks = chunk_rendering(rendering, self.chunk_tokens, self.overlap)
        ranked = rank_chunks(query_text(query), chunks)
        top = ranked[: self.top_k]
        by_index = {c.index: c for c in chunks}
        keep: set[int] = set()
        for i, _ in top:
            keep.update(line_numbers(rendering, by_index[i]))
        info: dict[str, Any] = {
            "chunks": len(chunks),
            "chunk_tokens": self.chunk_tokens,
            "top": [{"chunk": i, "score": round(s, 4), "lines": [by_index[i].first_line, by_index[i].last_line]} for i, s in top],
            "matched": any(s > 0 for _, s in top),
        }
        return Selection(keep=frozenset(keep), info=info)
