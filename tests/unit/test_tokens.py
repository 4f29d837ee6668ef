"""The token counter: exact o200k counts from a lean encoder (no Python rank table)."""

from __future__ import annotations

import pickle

import pytest

from pagelens import tokens


def _tiktoken_or_skip() -> None:
    if not tokens.backend().startswith("tiktoken"):
        pytest.skip(f"token counter is {tokens.backend()}")


def test_counts_equal_tiktokens_registered_encoding() -> None:
    _tiktoken_or_skip()
    import tiktoken

    full = tiktoken.get_encoding(tokens.ENCODING)
    texts = ["", "hello world", "[12] button 'Add to cart', clickable", "Größe: 12,99 € — 送料無料",
             "<|endoftext|> text", "x" * 70_000 + " tail"]
    for text in texts:
        assert tokens.count(text) == len(full.encode(text, disallowed_special=()))
    assert tokens.count_many(texts) == [len(full.encode(t, disallowed_special=())) for t in texts]


def test_the_counters_encoder_keeps_no_rank_table_and_leaves_the_registry_alone() -> None:
    _tiktoken_or_skip()
    import tiktoken

    enc = tokens.encoding()
    assert enc is not None
    full = tiktoken.get_encoding(tokens.ENCODING)
    if enc is full:
        pytest.skip("the registry's encoding was built before pagelens' counter: it is shared as it is")
    assert not enc._mergeable_ranks  # the ~27 MB dict is gone
    assert len(full._mergeable_ranks) > 100_000  # everyone else's encoding is untouched
    again = pickle.loads(pickle.dumps(enc))  # pickles as the registry's (full) encoding
    assert again is full
    ranks = tokens.mergeable_ranks()  # a caller's own copy, loaded on demand
    assert ranks == full._mergeable_ranks


def test_count_soon_gives_the_count_of_short_and_long_texts() -> None:
    short = "Buy now for 12 euros"
    long = "\n".join(f"\t[{i}] link 'Item {i}: a fairly long product name'" for i in range(2000))
    assert len(long) >= tokens.SOON_CHARS > len(short)
    for text in (short, long, ""):
        pending = tokens.count_soon(text)
        assert pending() == tokens.count(text) and pending() == tokens.count(text)  # (asked twice: same answer)
