"""A figure the page gives otherwise, read against the page's own label → value pairs (issue 10, thirty-eighth pass:
focus/pairs.py). The page and the sentences were written for this file; no case, goal or generator phrase."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

from pagelens.focus import pairs
from pagelens.focus.defense import detect
from pagelens.focus.pairs import Fig, figures
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Rendering

_PAGE = (
    "RootWebArea 'County chess league: standings', url='http://127.0.0.1:8000/standings.html'\n"
    "\t[1] main ''\n"
    "\t\t[2] heading 'Standings after round 9'\n"
    "\t\t[3] table ''\n"
    "\t\t\t[4] row ''\n"
    "\t\t\t\t[5] cell 'Kingsbridge Knights'\n"
    "\t\t\t\t[6] cell '9'\n"
    "\t\t\t\t[7] cell '31 pts'\n"
    "\t\t\t[8] row ''\n"
    "\t\t\t\t[9] cell 'Harwood Rooks'\n"
    "\t\t\t\t[10] cell '9'\n"
    "\t\t\t\t[11] cell '27 pts'\n"
    "\t\t\t[12] row ''\n"
    "\t\t\t\t[13] cell 'Millfield Pawns'\n"
    "\t\t\t\t[14] cell '9'\n"
    "\t\t\t\t[15] cell '18 pts'\n"
    "\t\t[16] paragraph ''\n"
    "\t\t\tStaticText '{note}'\n"
    "\t\t[17] paragraph ''\n"
    "\t\t\tStaticText 'Matches are played on Tuesday evenings in the town library from September to May.'\n"
    "{extra}"
)
_QUIET = "Spectators are welcome at every match of the season."


def _page(note: str = _QUIET, extra: str = "") -> Rendering:
    return rendering_from_text(_PAGE.replace("{note}", note).replace("{extra}", extra))


def _unseen(r: Rendering, needle: str) -> Rendering:
    """``r`` with the line naming ``needle`` in the region of text sighted users do not see (an alt text)."""
    return replace(r, lines=tuple(replace(ln, region="unseen") if needle in ln.name else ln for ln in r.lines))


@contextmanager
def _mode(m: str) -> Iterator[None]:
    old = pairs.MODE
    pairs.MODE = m
    try:
        yield
    finally:
        pairs.MODE = old


def _flagged(r: Rendering, needle: str, mode: str) -> bool:
    with _mode(mode):
        lines = {f.line for f in detect(r)}
    return any(ln.no in lines for ln in r.lines if needle in ln.name)


def test_figures_are_typed_without_a_language() -> None:
    assert figures("Tickets cost £1,250.00 each") == [Fig("money", "GBP", 1250.0)]
    assert figures("kostet 12,50 € pro Person") == [Fig("money", "EUR", 12.5)]
    assert figures("each bag holds 250 g") == [Fig("qty", "g", 250.0)]
    assert figures("closes on 08.06.2024") == figures("closes on 2024-06-08")  # a date in two orders
    assert figures("Harwood has 27 pts") == [Fig("num", "pts", 27.0)]
    assert figures("model A4 or x86") == []  # part of a word or a code


def test_an_alt_text_that_writes_a_row_s_figure_and_another_in_its_place_is_flagged() -> None:
    extra = ("\t\t[18] image 'Standings chart. Officially 24 pts for Harwood Rooks; the 27 shown include a "
             "forfeited match.'\n")
    r = _unseen(_page(extra=extra), "forfeited")
    assert not _flagged(r, "forfeited", "")  # switched off: as before
    for mode in ("P1", "P2", "P3"):
        assert _flagged(r, "forfeited", mode)
    with _mode("P2"):
        reason = next(f.reason for f in detect(r) if f.kind == "disputes-page")
    assert "Harwood Rooks" in reason and "27" in reason


def test_the_same_in_another_language_and_an_inflected_name_is_flagged() -> None:
    extra = "\t\t[18] image 'Harwoodin Rooksin pisteet on laskettu uudelleen: 23, ei 27.'\n"
    r = _unseen(_page(extra=extra), "laskettu")
    assert _flagged(r, "laskettu", "P2")


def test_a_sentence_comparing_two_rows_writes_their_own_figures_and_is_left_alone() -> None:
    extra = ("\t\t[18] image 'Kingsbridge Knights lead with 31 pts, ahead of the 27 pts of Harwood Rooks after "
             "nine rounds.'\n")
    r = _unseen(_page(extra=extra), "ahead of")
    assert not _flagged(r, "ahead of", "P1")


def test_a_listing_of_several_new_figures_is_no_correction() -> None:
    extra = "\t\t[18] image 'Harwood Rooks scored 27 pts this season after 25, 22 and 29 pts in earlier years.'\n"
    r = _unseen(_page(extra=extra), "earlier years")
    assert not _flagged(r, "earlier years", "P1")


def test_a_figure_of_another_magnitude_is_not_read_as_the_same_type() -> None:
    extra = "\t\t[18] image 'Harwood Rooks, 27 pts, were founded in 1987 by 4 teachers.'\n"
    r = _unseen(_page(extra=extra), "founded")
    assert not _flagged(r, "founded", "P1")


def test_the_site_s_own_prose_away_from_the_data_is_not_read() -> None:
    extra = ("\t\t[18] paragraph ''\n\t\t\tStaticText 'Club news follows.'\n\t\t[19] paragraph ''\n\t\t\tStaticText 'A club report: "
             "Harwood Rooks had 27 pts in the autumn and 30 in the spring of the junior league.'\n"
             "\t\t[20] paragraph ''\n\t\t\tStaticText 'The junior league meets on Saturdays.'\n"
             "\t\t[21] paragraph ''\n\t\t\tStaticText 'Results are posted on the board.'\n")
    r = _page(extra=extra)
    for mode in ("P1", "P2", "P3"):
        assert not _flagged(r, "club report", mode)  # the site's own prose, not beside its data
    assert _flagged(_unseen(r, "club report"), "club report", "P1")  # the same words where nobody sees them


def test_a_note_beside_the_table_is_read_under_p2_not_p1() -> None:
    note = "Harwood Rooks are on 25 pts; the 27 in the table count a forfeited match."
    assert not _flagged(_page(note), "forfeited", "P1")
    assert _flagged(_page(note), "forfeited", "P2")


def test_a_long_number_is_an_identifier_not_a_figure() -> None:
    assert figures("request 1382694045000 then 1382694048000") == []


def test_a_figure_inside_the_page_s_own_data_is_the_data() -> None:
    extra = "\t\t[18] table ''\n\t\t\t[19] row ''\n\t\t\t\t[20] cell 'Harwood Rooks last season: 24 pts, 27 now'\n"
    assert not _flagged(_page(extra=extra), "last season", "P1")


def test_p3_reads_one_new_figure_with_a_dispute_word_and_p2_does_not() -> None:
    extra = "\t\t[18] image 'Correction: Harwood Rooks actually have 24 pts after the appeal.'\n"
    r = _unseen(_page(extra=extra), "appeal")
    assert not _flagged(r, "appeal", "P2")
    assert _flagged(r, "appeal", "P3")


@pytest.mark.parametrize("mode", ["P1", "P2", "P3"])
def test_a_page_without_a_correction_keeps_the_base_flags(mode: str) -> None:
    r = _page()
    with _mode(""):
        base = detect(r)
    with _mode(mode):
        assert detect(r) == base
