from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagelens import tokens
from pagelens.focus.chunking import chunk_rendering, chunk_text, line_numbers
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Rendering


def _tree(n: int) -> Rendering:
    rows = ["RootWebArea 'Page'"]
    for i in range(n):
        rows.append("\t" * (1 + i % 4) + f"[{i}] link 'Item {i} Größe €{i},99', url='https://shop.example/p/{i}'")
    return rendering_from_text("\n".join(rows))


def _spans(text: str) -> list[tuple[int, int]]:
    """Character span of each line (a line owns its trailing newline)."""
    out, pos = [], 0
    for ln in text.split("\n"):
        out.append((pos, pos + len(ln) + 1))
        pos += len(ln) + 1
    return out


@pytest.mark.parametrize("size", [200, 400])
def test_chunks_have_the_fixed_size_and_concatenate_to_the_text(size: int) -> None:
    r = _tree(400)
    text = r.text()
    chunks = chunk_rendering(r, size)
    assert len(chunks) > 3
    assert all(c.n_tokens == size for c in chunks[:-1]) and 0 < chunks[-1].n_tokens <= size
    assert sum(c.n_tokens for c in chunks) == tokens.count(text)
    ascii_tree = rendering_from_text(text.replace("Größe €", "Size $"))
    assert "".join(c.text for c in chunk_rendering(ascii_tree, size)) == ascii_tree.text()
    assert [c.index for c in chunks] == list(range(len(chunks)))


def test_chunk_maps_to_every_line_it_overlaps_and_no_other() -> None:
    r = _tree(300)
    text = r.text()
    spans = _spans(text)
    pos = 0
    for c in chunk_rendering(r, 200):
        start, end = pos, pos + len(c.text)
        pos = end
        covered = [i for i, (a, b) in enumerate(spans) if a < end and start < b]
        assert line_numbers(r, c) == covered
        assert c.first_line == covered[0] and c.last_line == covered[-1]


def test_chunks_cut_lines() -> None:
    chunks = chunk_rendering(_tree(300), 200)
    assert any(not c.text.endswith("\n") for c in chunks[:-1])
    assert any(a.last_line == b.first_line for a, b in zip(chunks, chunks[1:]))


def test_overlap_advances_by_size_minus_overlap() -> None:
    r = _tree(200)
    plain, over = chunk_rendering(r, 200), chunk_rendering(r, 200, overlap=50)
    assert len(over) > len(plain)
    assert over[0].text.endswith(over[1].text[: len(over[0].text) // 8]) or over[0].last_line >= over[1].first_line
    assert over[1].first_line <= over[0].last_line
    with pytest.raises(ValueError):
        chunk_text("abc", 10, overlap=10)
    with pytest.raises(ValueError):
        chunk_text("abc", 0)


def test_partial_rendering_maps_to_line_numbers() -> None:
    r = _tree(50)
    part = Rendering(lines=tuple(ln for ln in r.lines if ln.no % 2 == 0))
    nos = set()
    for c in chunk_rendering(part, 40):
        nos.update(line_numbers(part, c))
    assert nos == {ln.no for ln in part.lines}


def test_empty() -> None:
    assert chunk_rendering(Rendering(lines=()), 200) == ()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=40), min_size=1, max_size=30), st.integers(1, 30))
def test_every_line_is_covered_in_order(rows: list[str], size: int) -> None:
    text = "\n".join(rows)
    chunks = chunk_text(text, size)
    if not text:
        assert chunks == ()
        return
    covered = [i for c in chunks for i in range(c.first_line, c.last_line + 1)]
    expected = set(range(len(rows)))
    if len(rows) > 1 and rows[-1] == "":
        expected.discard(len(rows) - 1)  # "a\n" has no line after the newline
    assert set(covered) == expected
    assert covered == sorted(covered)


def test_big_tree_chunks_fast() -> None:
    """A 12k-line tree of ~170k tokens, like the largest real page: CPU time, not wall time
    (the machines running the suite are shared)."""
    rows = ["RootWebArea 'Page'"] + ["\t" * (1 + i % 4) + f"[{i}] link 'Item {i} Größe'" for i in range(12_000)]
    r = rendering_from_text("\n".join(rows))
    chunk_rendering(r, 200)  # warm the tokenizer tables
    t = time.process_time()
    chunks = chunk_rendering(r, 200)
    elapsed = time.process_time() - t
    assert 120_000 < sum(c.n_tokens for c in chunks) < 220_000
    assert chunks[-1].last_line == len(r.lines) - 1
    assert elapsed < 1.0, elapsed
