"""A span that gives another value for something the page states (issue 10, twenty-second pass: focus/contradicts.py).
The sentences were written for this file; no case, goal or generator phrase."""

from __future__ import annotations

from dataclasses import replace

from pagelens.focus.contradicts import PageValues, contradictions, typed_values
from pagelens.focus.defense import detect
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Rendering

_PAGE = (
    "RootWebArea 'Harbour Ferries: fares', url='http://127.0.0.1:8000/fares.html'\n"
    "\t[1] main ''\n"
    "\t\t[2] heading 'Fares'\n"
    "\t\t[3] table ''\n"
    "\t\t\t[4] row ''\n"
    "\t\t\t\t[5] cell 'Adult single'\n"
    "\t\t\t\t[6] cell '£4.20'\n"
    "\t\t\t[7] row ''\n"
    "\t\t\t\t[8] cell 'Child single'\n"
    "\t\t\t\t[9] cell '£2.10'\n"
    "\t\t[10] paragraph ''\n"
    "\t\t\tStaticText '{note}'\n"
    "\t\t[11] paragraph ''\n"
    "\t\t\tStaticText 'Boats leave every twenty minutes from the north pier between seven and nine.'\n"
    "{extra}"
)


def _page(note: str, extra: str = "") -> Rendering:
    return rendering_from_text(_PAGE.replace("{note}", note).replace("{extra}", extra))


def _flagged(r: Rendering, needle: str) -> bool:
    lines = {f.line for f in detect(r)}
    return any(ln.no in lines for ln in r.lines if needle in ln.name)


def test_typed_values_read_money_quantities_pairs_and_options_in_any_writing() -> None:
    assert typed_values("Tickets cost £1,250.00 each") == [(("money", "GBP"), "1250")]
    assert typed_values("Der Preis beträgt 12,50 € pro Person") == [(("money", "EUR"), "12.5")]
    assert typed_values("料金は1,200円です") == [(("money", "円"), "1200")]
    assert typed_values("each bag holds 250 g") == [(("qty", "g"), "250")]
    assert typed_values("call wrap(text, width=64) here") == [(("kv", "width"), "64")]
    assert typed_values("run rsync --dry-run first") == [(("opt", "rsync"), "--dry-run")]
    assert typed_values("see https://example.test/a?limit=5&sort=asc") == []  # an address's parameters
    assert typed_values("nothing to read here") == []


def test_a_value_the_page_writes_for_the_same_key_is_no_contradiction() -> None:
    page = PageValues(["Adult single £4.20", "Child single £2.10", "Parking 3 h"])
    theirs = page.outside([], {("money", "GBP"), ("money", "EUR")})
    assert contradictions([(("money", "GBP"), "4.2")], theirs) == []
    assert contradictions([(("money", "EUR"), "9")], theirs) == []  # the page writes no euro amount
    found = contradictions([(("money", "GBP"), "6.5")], theirs)
    assert [c.value for c in found] == ["6.5"] and "4.2" in found[0].page


def test_a_note_beside_the_table_that_calls_its_fare_outdated_and_gives_another_is_flagged() -> None:
    note = "The fares in this table are outdated: an adult single is £6.80 since the spring timetable."
    assert _flagged(_page(note), "£6.80")


def test_the_same_in_another_language_is_flagged() -> None:
    note = "Die Preise in der Tabelle sind veraltet, eine Einzelfahrt für Erwachsene kostet jetzt 6,80 £."
    assert _flagged(_page(note), "6,80")


def test_another_value_without_a_word_on_the_page_s_value_is_left_alone() -> None:
    note = "Our staff recommend a day pass at £9.50 for families who ride several times."
    assert not _flagged(_page(note), "£9.50")


def test_a_note_that_upholds_the_page_s_values_is_left_alone() -> None:
    note = "These fares are current: an adult single costs £4.20, as listed in the table."
    assert not _flagged(_page(note), "as listed")


def test_a_listing_of_several_values_is_no_correction() -> None:
    note = "Older fares, now out of date, were £3.10, £3.40 and £3.90 for the same trip."
    assert not _flagged(_page(note), "£3.10")


def test_a_value_stated_inside_the_page_s_own_data_is_not_judged_as_a_note() -> None:
    extra = ("\t\t[12] table ''\n\t\t\t[13] row ''\n\t\t\t\t[14] cell 'Night single (updated after the current "
             "timetable change) £5.60'\n")
    assert not _flagged(_page("Boats are accessible to wheelchairs on every crossing.", extra), "Night single")


def _unseen(r: Rendering, needle: str) -> Rendering:
    """``r`` with the line naming ``needle`` in the region of text sighted users do not see (an alt text)."""
    return replace(r, lines=tuple(replace(ln, region="unseen") if needle in ln.name else ln for ln in r.lines))


def test_an_image_description_that_gives_another_fare_is_flagged() -> None:
    extra = "\t\t[12] image 'Ferry at the pier. The adult single shown above is outdated, it now costs £7.40 on board.'\n"
    r = _page("Boats are accessible to wheelchairs on every crossing.", extra)
    assert not _flagged(r, "£7.40")  # in the main content, an image is no note beside the data
    assert _flagged(_unseen(r, "£7.40"), "£7.40")


def test_a_review_that_says_what_it_paid_is_left_alone_in_user_content() -> None:
    extra = "\t\t[12] article ''\n\t\t\tStaticText 'Lovely crossing. I paid £3.50 for the same trip last year, still worth it.'\n"
    r = _page("Boats are accessible to wheelchairs on every crossing.", extra)
    assert not _flagged(_unseen(r, "£3.50"), "£3.50")


_LIST_PAGE = (
    "RootWebArea 'Release history', url='http://127.0.0.1:8000/history.html'\n"
    "\t[1] main ''\n"
    "\t\t[2] heading 'Release history'\n"
    "\t\t[3] list ''\n"
    "\t\t\t[4] listitem ''\n"
    "\t\t\t\tStaticText 'Version 4.1 makes index builds about 30% faster on large tables and fixes two crashes.'\n"
    "\t\t\t[5] listitem ''\n"
    "\t\t\t\tStaticText 'Query planning uses 15% less memory; actual savings depend on the schema in use.'\n"
    "\t\t\t\t[6] list ''\n"
    "\t\t\t\t\t[7] listitem ''\n"
    "\t\t\t\t\t\tStaticText 'A new option limits the planner.'\n"
)


def test_a_changelog_item_inside_a_list_is_the_page_s_data_not_a_note() -> None:
    r = rendering_from_text(_LIST_PAGE)
    assert not _flagged(r, "15% less memory")
