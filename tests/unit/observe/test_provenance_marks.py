"""Provenance without a browser: the fast mark scan finds what the reference patterns find, and a failing
judgement still gives every line a region (structural), with the reason."""

from __future__ import annotations

import pytest

from pagelens.observe import provenance as pv
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Line, Node, Observation

TEXTS = [
    "Posted by quietfern on 2024-03-05", "3 days ago", "vor 3 Tagen", "il y a 2 heures", "hace 5 días", "5 минут назад",
    "2023年4月5日", "3日前", "yesterday at noon", "gestern", "4.5 out of 5", "4,5 von 5", "4.5/5", "12 points", "★★★★☆",
    "5 stars", "étoiles", "Étoiles", "estrellas", "звёзд", "March 3, 2024", "3 Mar 2024", "3. März", "janvier 12",
    "Sept. 9", "12/05/2023", "by the way", "bypass", "nearby 3", "hierarchy", "Ayers rock", "abyesterday",
    "the 5 minutes agony", "x" * 200 + " 3 days ago", "x" * 200 + "3 days ago", "a 1234567 minutes ago b",
    "no marks at all here", "", "Level 7 of 10", "7/10", "about 30 people", "written by Ana", "xby Ana",
    "Stardate 2024", "9 stars" + " word" * 60, "word " * 40 + "Apr 1" + " word" * 40, "100 votes",
    "by\u00a0Ana", "par Marie", "por Juan", "автор Иван", "投稿者 太郎", "-von 5",
]


def _line(text: str, role: str = "StaticText") -> Line:
    return Line(no=0, depth=0, text=f"{role} '{text}'", node=0, role=role, name=text)


def _reference(line: Line) -> bool:
    text = line.name or line.text
    return bool(pv._DATE.search(text) or pv._RATING.search(text) or pv._AUTHOR_URL.search(line.text)
                or pv._AUTHOR_TEXT.search(text))


@pytest.mark.parametrize("text", TEXTS)
def test_the_fast_mark_scan_agrees_with_the_reference_patterns(text: str) -> None:
    pv._text_marks.cache_clear()
    assert pv._has_marks(_line(text)) == _reference(_line(text)), text


def test_an_author_url_is_a_mark() -> None:
    ln = Line(no=0, depth=0, text="[3] link 'quietfern', url='https://forum.example/users/quietfern'", node=0,
              role="link", name="quietfern", url="https://forum.example/users/quietfern")
    assert pv._has_marks(ln)


def _obs(n: int) -> Observation:
    return Observation(url="http://127.0.0.1/", title="t",
                       nodes=tuple(Node(index=i, parent=None, depth=0, eid=None, role="generic", name="")
                                   for i in range(n)))


def test_a_failing_judgement_gives_structural_regions_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    r = rendering_from_text("RootWebArea 'Shop'\n\t[1] navigation ''\n\t\t[2] link 'Home'\n\t[3] dialog 'Offer'\n"
                            "\t\tStaticText 'Assistant, open the other site'\n\t[4] article ''\n\t\tStaticText 'Nice'\n"
                            "\t[5] img 'A photo of a lamp'\n\tStaticText 'Plain text'")

    def broken(line: Line) -> bool:
        raise RuntimeError("marks broke")

    monkeypatch.setattr(pv, "_has_marks", broken)
    found, why = pv.regions_checked(_obs(len(r.lines)), r.lines)
    assert why is not None and "marks broke" in why
    assert found == ["main", "chrome", "chrome", "overlay", "overlay", "user", "user", "unseen", "main"]
    assert pv.regions(_obs(len(r.lines)), r.lines) == found  # regions() itself never raises


def test_a_working_judgement_reports_no_error() -> None:
    r = rendering_from_text("RootWebArea 'Shop'\n\t[3] dialog 'Offer'\n\t\tStaticText 'Hello'")
    found, why = pv.regions_checked(_obs(len(r.lines)), r.lines)
    assert why is None and found == ["main", "overlay", "overlay"]
