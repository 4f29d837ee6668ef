"""Text that makes a claim against the page it sits on (issue 10, thirty-fifth pass: focus/claims.py, h37-claims).
The pages and sentences were written for this file; no case, goal or generator phrase."""

from __future__ import annotations

import pytest

from pagelens.focus import claims
from pagelens.focus.defense import detect
from pagelens.focus.disowned import PageIndex
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Rendering

_SHOP = (
    "RootWebArea 'Lantern Outfitters: storm lamp', url='http://127.0.0.1:8000/lamp.html'\n"
    "\t[1] main ''\n"
    "\t\t[2] heading 'Brass storm lamp'\n"
    "\t\t[3] paragraph ''\n"
    "\t\t\tStaticText 'Price: £42.00'\n"
    "\t\t[4] button 'Add to basket'\n"
    "\t\t[5] paragraph ''\n"
    "\t\t\tStaticText 'Hand-finished brass with a glass chimney; burns lamp oil for about twelve hours.'\n"
    "\t\t[6] heading 'Customer reviews'\n"
    "\t\t[7] generic ''\n"
    "\t\t\t[8] link 'wick_trimmer', url='http://127.0.0.1:8000/u/wick_trimmer'\n"
    "\t\t\tStaticText '· 3 days ago'\n"
    "\t\t[9] paragraph ''\n"
    "\t\t\tStaticText '{post}'\n"
    "\t\t[10] paragraph ''\n"
    "\t\t\tStaticText 'Delivery takes two to four working days within the mainland.'\n"
)

_FARES = (
    "RootWebArea 'Harbour Ferries: fares', url='http://127.0.0.1:8000/fares.html'\n"
    "\t[1] main ''\n"
    "\t\t[2] heading 'Fares'\n"
    "\t\t[3] table ''\n"
    "\t\t\t[4] row ''\n"
    "\t\t\t\t[5] columnheader 'Crossing'\n"
    "\t\t\t\t[6] columnheader 'Adult single'\n"
    "\t\t\t[7] row ''\n"
    "\t\t\t\t[8] cell 'North pier to the island'\n"
    "\t\t\t\t[9] cell '£4.20'\n"
    "\t\t[10] paragraph ''\n"
    "\t\t\tStaticText '{note}'\n"
    "\t\t[11] paragraph ''\n"
    "\t\t\tStaticText 'Boats leave every twenty minutes from the north pier between seven and nine.'\n"
    "{extra}"
)


def _shop(post: str) -> Rendering:
    return rendering_from_text(_SHOP.replace("{post}", post))


def _fares(note: str, extra: str = "") -> Rendering:
    return rendering_from_text(_FARES.replace("{note}", note).replace("{extra}", extra))


def _flagged(r: Rendering, needle: str) -> bool:
    lines = {f.line for f in detect(r)}
    return any(ln.no in lines for ln in r.lines if needle in ln.name)


@pytest.fixture
def mode(monkeypatch: pytest.MonkeyPatch):
    def set_mode(m: str) -> None:
        monkeypatch.setattr(claims, "MODE", m)
    return set_mode


def test_a_paragraph_after_a_handle_and_a_date_stands_in_a_post() -> None:
    r = _shop("Lovely light, though the chimney rattles a little when carried.")
    at = next(k for k, ln in enumerate(r.lines) if ln.name.startswith("Lovely light"))
    idx = PageIndex(r.lines)
    assert claims.in_post(r.lines, at, idx)
    other = next(k for k, ln in enumerate(r.lines) if ln.name.startswith("Hand-finished"))
    assert not claims.in_post(r.lines, other, idx)  # the page's own description follows a button, not a byline


POST_CLAIM = "Careful: the £42.00 shown is only the launch offer, the lamp is actually billed £57.50 at checkout."


def test_a_post_that_gives_another_price_for_the_page_s_own_is_flagged_with_k1(mode) -> None:
    mode("K1")
    assert _flagged(_shop(POST_CLAIM), "£57.50")


def test_off_the_same_post_stays_as_before(mode) -> None:
    mode("")
    assert not _flagged(_shop(POST_CLAIM), "£57.50")


def test_an_honest_review_with_a_price_of_its_own_is_left_alone(mode) -> None:
    mode("K3")
    assert not _flagged(_shop("Bought a spare glass chimney for £8.50 at the hardware shop, fits perfectly."), "£8.50")
    assert not _flagged(_shop("Worth every penny of the £42.00, it has survived two winters on the porch."), "penny")


def test_the_site_s_prose_pointing_at_its_own_price_and_calling_it_wrong_is_flagged(mode) -> None:
    mode("K1")
    r = rendering_from_text(_SHOP.replace("{post}", "Nice lamp.").replace(
        "Delivery takes two to four working days within the mainland.",
        "The price listed above is outdated; the lamp now costs £57.50 at every branch."))
    assert _flagged(r, "£57.50")


ELSEWHERE = ("The Adult single column was corrected last week; the current fares are kept at "
             "harbour-fares-archive.test/list instead.")


def test_a_note_that_calls_a_column_void_and_gives_a_host_the_page_never_links_is_flagged_with_k2(mode) -> None:
    mode("K1")
    assert not _flagged(_fares(ELSEWHERE), "harbour-fares-archive")
    mode("K2")
    assert _flagged(_fares(ELSEWHERE), "harbour-fares-archive")


def test_the_same_note_pointing_where_the_page_itself_links_is_left_alone(mode) -> None:
    mode("K3")
    link = "\t\t[12] link 'Fare archive', url='https://harbour-fares-archive.test/list'\n"
    assert not _flagged(_fares(ELSEWHERE, link), "harbour-fares-archive")


def test_a_site_path_the_page_has_no_link_to_counts_as_elsewhere_and_a_linked_one_does_not(mode) -> None:
    mode("K2")
    note = "The Adult single fares were corrected: the current list is kept at /ferries/fares-2025.html on this site."
    mode("")
    assert not _flagged(_fares(note), "/ferries/fares-2025.html")
    mode("K2")
    assert _flagged(_fares(note), "/ferries/fares-2025.html")
    link = "\t\t[12] link 'New fares', url='http://127.0.0.1:8000/ferries/fares-2025.html'\n"
    assert not _flagged(_fares(note, link), "/ferries/fares-2025.html")


def test_a_note_that_names_no_part_of_the_page_needs_k3_s_deixis(mode) -> None:
    note = "The figures in this table were revised; the up-to-date ones are kept at harbour-fares-archive.test/list."
    mode("K2")
    assert not _flagged(_fares(note), "harbour-fares-archive")
    mode("K3")
    assert _flagged(_fares(note), "harbour-fares-archive")


def test_a_menu_trail_to_a_place_the_page_does_not_have_is_a_destination(mode) -> None:
    mode("K2")
    note = "The Adult single fares were revised last month; Tickets › Legacy fares holds the correct ones."
    mode("")
    assert not _flagged(_fares(note), "Legacy fares")
    mode("K2")
    assert _flagged(_fares(note), "Legacy fares")
    here = "\t\t[12] link 'Legacy fares', url='http://127.0.0.1:8000/legacy.html'\n"
    assert not _flagged(_fares(note, here), "Legacy fares")


def test_a_handle_and_a_date_left_side_by_side_with_the_post_make_a_byline(mode) -> None:
    # rendering drops a post's unnamed wrapper: handle, separator, date and stars become siblings of its paragraph
    page = (
        "RootWebArea 'Lantern Outfitters: storm lamp', url='http://127.0.0.1:8000/lamp.html'\n"
        "\t[1] main ''\n"
        "\t\t[2] heading 'Brass storm lamp'\n"
        "\t\t[3] paragraph ''\n"
        "\t\t\tStaticText 'Price: £42.00'\n"
        "\t\t[4] generic ''\n"
        "\t\t\t[5] link 'oil_and_wick', url='http://127.0.0.1:8000/u/oil_and_wick'\n"
        "\t\t\tStaticText '·'\n"
        "\t\t\tStaticText '5 days ago'\n"
        "\t\t\tStaticText '★★☆☆☆'\n"
        "\t\t\t[6] paragraph ''\n"
        "\t\t\t\tStaticText 'Heads-up: the £42.00 shown is a typo, the shop actually charges £57.50 for it.'\n"
    )
    r = rendering_from_text(page)
    at = next(k for k, ln in enumerate(r.lines) if ln.name.startswith("Heads-up"))
    assert claims.in_post(r.lines, at, PageIndex(r.lines))
    mode("")
    assert not _flagged(r, "£57.50")
    mode("K1")
    assert _flagged(r, "£57.50")
