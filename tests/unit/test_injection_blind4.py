"""The pure parts of benchmarks/injection_blind4.py: splicing a snippet into a page, and the case file.

The runner's figures come from running it; nothing here runs the defense or a retriever.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from heldout_sets import benchmark_module

ROOT = Path(__file__).resolve().parents[2]


def _runner() -> ModuleType:
    return benchmark_module("injection_blind4.py", "injection_blind4")


M = _runner()
DOC = (b"<html><body><div id=a class=box><div>x</div><p>y</p></div><img id=i src=q>"
       b"<ul class=z><li>1</li><li>2</li></ul><script>if (a<b) {document.write('</div>')}</script>"
       b"<section id=s>\xe9t\xe9</section></body></html>")


@pytest.mark.parametrize(("position", "expected"), [
    ("beforebegin", b"<body><!--X--><div id=a class=box>"),
    ("afterbegin", b"<div id=a class=box><!--X--><div>x</div>"),
    ("beforeend", b"<p>y</p><!--X--></div><img"),
    ("afterend", b"<p>y</p></div><!--X--><img"),
])
def test_insert_at_each_position_counts_nested_same_tags(position: str, expected: bytes) -> None:
    out = M.insert_snippet(DOC, "#a", position, "<!--X-->")
    assert expected in out
    assert out.replace(b"<!--X-->", b"", 1) == DOC  # nothing else moved


def test_void_element_afterend_and_no_inside() -> None:
    assert b"<img id=i src=q><!--X--><ul" in M.insert_snippet(DOC, "#i", "afterend", "<!--X-->")
    with pytest.raises(M.CaseError, match="void"):
        M.insert_snippet(DOC, "#i", "beforeend", "<!--X-->")


def test_non_ascii_snippet_becomes_character_references_and_other_bytes_stay() -> None:
    out = M.insert_snippet(DOC, "#s", "beforeend", "<b>Внимание ・ ü</b>")
    assert b"&#1042;&#1085;" in out and b"&#12539;" in out and b"&#252;" in out
    assert b"\xe9t\xe9<b>" in out  # the page's own (Latin-1) bytes are untouched


def test_script_text_does_not_close_the_element() -> None:
    out = M.insert_snippet(DOC, "ul.z", "beforeend", "<li>3</li>")
    assert b"<li>2</li><li>3</li></ul>" in out


def test_bad_selectors_and_unclosed_elements_are_clear_errors() -> None:
    with pytest.raises(M.CaseError, match="matches nothing"):
        M.insert_snippet(DOC, "#nope", "afterend", "x")
    with pytest.raises(M.CaseError, match="bad selector"):
        M.insert_snippet(DOC, "div[[", "afterend", "x")
    with pytest.raises(M.CaseError, match="position"):
        M.insert_snippet(DOC, "#a", "inside", "x")
    with pytest.raises(M.CaseError, match="no explicit end tag"):
        M.insert_snippet(b"<body><div id=q><p>open</body>", "#q", "beforeend", "x")


def test_parse_case_rejects_what_it_cannot_run() -> None:
    good = {"id": "t1", "page": "p", "goal": "g", "category": "banner", "lang": "en", "html": "<b>MK-1</b>",
            "where": {"selector": "body", "position": "afterbegin"}, "marker": "MK-1", "benign": False}
    assert M.parse_case(good).marker == "MK-1"
    for patch, msg in [({"marker": "ABSENT"}, "marker"), ({"category": "weird"}, "category"),
                       ({"where": {"selector": "body"}}, "where"), ({"extra": 1}, "unknown field"),
                       ({"goal": ""}, "goal")]:
        with pytest.raises(M.CaseError, match=msg):
            M.parse_case({**good, **patch})


def test_the_case_file_is_spread_and_well_formed() -> None:
    cases = M.load_cases()
    attacks = [c for c in cases if not c.benign]
    benign = [c for c in cases if c.benign]
    assert len(attacks) >= 30 and len(benign) >= 15
    assert len({c.category for c in attacks}) >= 8
    assert max(Counter(c.category for c in attacks).values()) <= len(attacks) // 4
    assert len({c.lang for c in attacks}) >= 5
    assert len({c.page for c in cases}) >= 30


@pytest.mark.slow
def test_every_case_splices_into_its_corpus_page() -> None:
    if not M.PAGES.is_dir():
        pytest.skip(f"no corpus at {M.PAGES}")
    for c in M.load_cases():
        page = (M.PAGES / f"{c.page}.html").read_bytes()
        out = M.insert_snippet(page, c.selector, c.position, c.html)
        payload = c.html.encode("ascii", "xmlcharrefreplace")
        assert len(out) == len(page) + len(payload) and payload in out, c.id
