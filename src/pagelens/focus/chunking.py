"""Fixed-size token chunks of a rendering, as the classic baselines cut them.

The BM25 and embedding baselines of the FocusAgent paper (AgentLab's ``BM25Agent`` and
``EmbeddingAgent``) encode the flattened tree text once with the GPT-4o tokenizer
(``o200k_base``) and cut the token sequence into windows of ``chunk_size`` tokens, advancing
by ``chunk_size - overlap``. Chunks therefore cut lines (and sometimes UTF-8 characters) in
the middle. Each :class:`Chunk` here also records the first and last line it overlaps, so a
retriever can keep those lines of the numbered rendering.

AgentLab's configurations ask for an overlap of 10 tokens; we default to 0 (plain fixed-size
windows, as the paper describes them) and expose ``overlap`` for faithfulness experiments.

The text is tokenized once; chunk boundaries are mapped to lines through cumulative byte
offsets, so a 170k-token tree chunks in well under a second. Without tiktoken the windows
fall back to ``4 * chunk_size`` characters (the same estimate :mod:`pagelens.tokens` uses).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pagelens import tokens
from pagelens.types import Rendering

__all__ = ["Chunk", "chunk_rendering", "chunk_text", "line_numbers"]


@dataclass(frozen=True, slots=True)
class Chunk:
    """One window of the flattened tree text."""

    index: int  # position in the chunk sequence
    text: str  # decoded window (may start or end mid-line)
    first_line: int  # position (0-based) of the first text line the window overlaps
    last_line: int  # ... and of the last one (inclusive)
    n_tokens: int

    @property
    def lines(self) -> range:
        return range(self.first_line, self.last_line + 1)


def chunk_rendering(rendering: Rendering, chunk_tokens: int, overlap: int = 0) -> tuple[Chunk, ...]:
    """Cut ``rendering.text()`` into token windows; ``first_line``/``last_line`` are positions
    in ``rendering.lines`` (equal to ``Line.no`` for a full rendering): use
    :func:`line_numbers` to get the line numbers a chunk covers."""
    return chunk_text(rendering.text(), chunk_tokens, overlap)


def line_numbers(rendering: Rendering, chunk: Chunk) -> list[int]:
    """``Line.no`` of every line the chunk overlaps."""
    return [ln.no for ln in rendering.lines[chunk.first_line : chunk.last_line + 1]]


def chunk_text(text: str, chunk_tokens: int, overlap: int = 0) -> tuple[Chunk, ...]:
    """Cut newline-separated ``text`` into windows; ``first_line``/``last_line`` are 0-based
    positions of the text's lines. A window that covers only a newline belongs to the line
    that the newline ends."""
    if chunk_tokens <= 0:
        raise ValueError(f"chunk_tokens must be positive, got {chunk_tokens}")
    if not 0 <= overlap < chunk_tokens:
        raise ValueError(f"overlap must be in [0, chunk_tokens), got {overlap}")
    if not text:
        return ()
    data = text.encode("utf-8")
    # Byte offset where each line starts; a line owns its trailing newline.
    starts = [0]
    pos = data.find(b"\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = data.find(b"\n", pos + 1)
    if starts[-1] == len(data) and len(starts) > 1:
        starts.pop()  # text ending in "\n" has no empty last line
    ends = _token_byte_ends(text)
    step = chunk_tokens - overlap
    chunks: list[Chunk] = []
    n = len(ends)
    for i, lo in enumerate(range(0, n, step)):
        hi = min(lo + chunk_tokens, n)
        b0 = ends[lo - 1] if lo else 0
        b1 = ends[hi - 1]
        first = bisect_right(starts, b0) - 1
        last = bisect_right(starts, b1 - 1) - 1
        piece = data[b0:b1].decode("utf-8", errors="replace")
        chunks.append(Chunk(i, piece, first, last, hi - lo))
        if hi == n:
            break
    return tuple(chunks)


@lru_cache(maxsize=1)
def _tiktoken() -> tuple[Any, Any] | None:
    """(encoding, byte length of every token id) — or None without tiktoken."""
    if not tokens.backend().startswith("tiktoken"):
        return None
    import numpy as np

    enc = tokens.encoding()  # the counter's own encoder: one per process
    if enc is None:
        return None
    lengths = np.zeros(enc.n_vocab, dtype=np.int64)
    try:
        ranks: dict[bytes, int] | None = tokens.mergeable_ranks()  # a transient copy: the counter keeps none
    except (ImportError, KeyError, OSError, ValueError):
        ranks = None
    if ranks:
        for piece, rank in ranks.items():
            lengths[rank] = len(piece)
    else:
        for i in range(enc.n_vocab):
            try:
                lengths[i] = len(enc.decode_single_token_bytes(i))
            except KeyError:  # holes in the id space
                pass
    return enc, lengths


def _token_byte_ends(text: str) -> list[int]:
    """Cumulative byte offset at the end of each token of ``text``."""
    tk = _tiktoken()
    if tk is not None:
        import numpy as np

        enc, lengths = tk
        ids = np.asarray(enc.encode(text, disallowed_special=()), dtype=np.int64)
        return np.cumsum(lengths[ids]).tolist()  # type: ignore[no-any-return]
    # Estimate: one "token" per 4 characters, expressed in UTF-8 byte offsets.
    out: list[int] = []
    done = 0
    for lo in range(0, len(text), 4):
        done += len(text[lo : lo + 4].encode("utf-8"))
        out.append(done)
    return out
