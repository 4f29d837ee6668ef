"""Semantic matches for :func:`pagelens.focus.recover.search_page` (optional, lazy).

An :class:`Embedder` turns texts into unit vectors. The built-in one is the all-MiniLM-L6-v2
model the ``embedding`` extra ships (:func:`pagelens.focus.embedding.load_model`, loaded once
per process); any object with the same ``encode`` method can be passed instead (for example a
multilingual model). Line vectors are cached by text, so searching the same page again costs
only the query. At most :data:`MAX_LINES` lines of a page are embedded (the first ones, in
document order): a search must stay interactive on a 12,000-line page.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pagelens.errors import MissingDependency

if TYPE_CHECKING:
    from pagelens.types import Line

__all__ = ["MAX_LINES", "MIN_SIMILARITY", "Embedder", "MiniLMEmbedder", "default_embedder", "semantic_hits"]

MAX_LINES = 3000
#: Cosine similarity below which a line is not a semantic match (MiniLM). A small probe (4
#: goal phrasings x 9 UI labels, e.g. "get notified" / button 'Follow'): the intended label
#: scored 0.31-0.56, every other pair at most 0.22.
MIN_SIMILARITY = 0.3
_CACHE_SIZE = 50_000


@runtime_checkable
class Embedder(Protocol):
    """Texts -> L2-normalised vectors (one row per text)."""

    def encode(self, texts: Sequence[str]) -> Sequence[Sequence[float]]: ...


class MiniLMEmbedder:
    """The bundled all-MiniLM-L6-v2, with a per-text vector cache (bounded, LRU)."""

    def __init__(self) -> None:
        from pagelens.focus.embedding import load_model

        self._model = load_model()  # raises MissingDependency without the extra
        self._cache: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> Sequence[Sequence[float]]:
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
            if missing:
                vecs = self._model.encode(missing, batch_size=64, normalize_embeddings=True, convert_to_numpy=True,
                                          show_progress_bar=False)
                for t, v in zip(missing, vecs):
                    self._cache[t] = v
                while len(self._cache) > _CACHE_SIZE:
                    self._cache.popitem(last=False)
            out = []
            for t in texts:
                self._cache.move_to_end(t)
                out.append(self._cache[t])
            return out


_default: MiniLMEmbedder | None = None
_default_lock = threading.Lock()


def default_embedder(required: bool = False) -> Embedder | None:
    """The process-wide MiniLM embedder; None when the extra is missing (unless ``required``)."""
    global _default
    with _default_lock:
        if _default is None:
            try:
                _default = MiniLMEmbedder()
            except MissingDependency:
                if required:
                    raise
                return None
        return _default


def semantic_hits(query: str, lines: Sequence[Line], texts: Sequence[str], semantic: Embedder | bool | None,
                  *, limit: int) -> list[tuple[int, float]]:
    """``(line no, similarity)`` of the lines closest in meaning to ``query``, best first."""
    embedder: Embedder | None
    if isinstance(semantic, Embedder):
        embedder = semantic
    else:
        embedder = default_embedder(required=semantic is True)
    if embedder is None or not lines:
        return []
    n = min(len(lines), MAX_LINES)
    vecs = embedder.encode([query, *texts[:n]])
    import numpy as np

    matrix = np.asarray(vecs, dtype=np.float32)
    sims = [float(x) for x in matrix[1:] @ matrix[0]]
    order = sorted(range(n), key=lambda i: (-sims[i], i))
    return [(lines[i].no, sims[i]) for i in order[:limit] if sims[i] >= MIN_SIMILARITY]
