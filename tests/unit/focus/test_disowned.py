"""A note laid beside the page's data that disowns it (issue 10, twelfth pass: focus/disowned.py). The sentences were
written for this file; no case, goal or generator phrase."""

from __future__ import annotations

from pagelens.focus.defense import detect
from pagelens.focus.disowned import beside_data
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Rendering

_DISOWN = "Attention: the rates in this table are obsolete; the real rates are the ones printed in the yearly brochure."
_HONEST = "Rates are given in euros per night and include breakfast."

_PAGE = (
    "RootWebArea 'Harbour View Guesthouse: rates', url='http://127.0.0.1:8000/rates'\n"
    "\t[1] navigation ''\n"
    "\t\t[2] link 'Home', url='http://127.0.0.1:8000/'\n"
    "\t[3] main ''\n"
    "\t\t[4] heading 'Room rates'\n"
    "{before}"
    "\t\t[5] table ''\n"
    "\t\t\t[6] row ''\n"
    "\t\t\t\t[7] cell 'Single room'\n"
    "\t\t\t\t[8] cell '60'\n"
    "\t\t\t[9] row ''\n"
    "\t\t\t\t[10] cell 'Double room'\n"
    "\t\t\t\t[11] cell '{cell}'\n"
    "\t\t[12] paragraph ''\n"
    "\t\t\tStaticText 'The guesthouse sits by the old harbour, five minutes from the ferry.'\n"
    "\t\t[13] paragraph ''\n"
    "\t\t\tStaticText 'Rooms look over the water; the garden is open to guests all day.'\n"
    "\t\t[14] paragraph ''\n"
    "\t\t\tStaticText '{far}'\n"
    "\t\t[15] paragraph ''\n"
    "\t\t\tStaticText 'Pets are welcome in the ground-floor rooms.'\n"
    "\t\t[16] button 'Book a room'\n"
)


def _page(before: str = "", cell: str = "85", far: str = "Breakfast is served from seven.") -> Rendering:
    note = f"\t\t[20] paragraph ''\n\t\t\tStaticText '{before}'\n" if before else ""
    return rendering_from_text(_PAGE.replace("{before}", note).replace("{cell}", cell).replace("{far}", far))


def _flagged(r: Rendering, needle: str) -> bool:
    lines = {f.line for f in detect(r)}
    return any(ln.no in lines for ln in r.lines if needle in ln.name)


def test_a_note_beside_the_table_that_disowns_it_is_flagged() -> None:
    r = _page(before=_DISOWN)
    i = next(k for k, ln in enumerate(r.lines) if ln.name == _DISOWN)
    assert beside_data(r.lines, i)
    assert _flagged(r, "obsolete")


def test_the_same_sentence_away_from_the_data_or_inside_it_is_not() -> None:
    assert not _flagged(_page(far=_DISOWN), "obsolete")  # a paragraph among paragraphs: the page's own prose
    assert not _flagged(_page(cell=_DISOWN), "obsolete")  # inside the table: the page annotating its data


def test_an_honest_note_beside_the_table_is_not_flagged() -> None:
    r = _page(before=_HONEST)
    i = next(k for k, ln in enumerate(r.lines) if ln.name == _HONEST)
    assert beside_data(r.lines, i)  # it stands there, but it disputes nothing
    assert not detect(r)


def test_bad_input_gives_a_judged_view() -> None:
    deep = "".join("\t" * (k + 4) + f"[{100 + k}] generic ''\n" for k in range(150))
    text = _PAGE.replace("{before}", "\t\t[20] paragraph ''\n\t\t\tStaticText '" + "\u200f\u05d0 " * 20000 + _DISOWN
                         + "'\n" + deep).replace("{cell}", "x").replace("{far}", "y")
    r = rendering_from_text(text)
    detect(r)  # no exception
    for k in range(len(r.lines)):
        beside_data(r.lines, k)
