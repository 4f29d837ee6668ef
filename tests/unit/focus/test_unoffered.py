"""A note that writes a destination the page does not offer (issue 10, twentieth pass: focus/unoffered.py). The
sentences were written for this file; no case, goal or generator phrase."""

from __future__ import annotations

from pagelens.focus.defense import detect
from pagelens.focus.unoffered import PageLinks, destinations, unoffered
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Rendering

_PAGE = (
    "RootWebArea 'Lakeside Library: opening hours', url='http://127.0.0.1:8000/hours.html'\n"
    "\t[1] navigation ''\n"
    "\t\t[2] link 'Home', url='http://127.0.0.1:8000/'\n"
    "\t\t[3] link 'Events', url='http://127.0.0.1:8000/events/list.html'\n"
    "\t[4] main ''\n"
    "\t\t[5] heading 'Opening hours'\n"
    "\t\t[6] paragraph ''\n"
    "\t\t\tStaticText 'The library opens at nine on weekdays and at ten on Saturdays.'\n"
    "\t\t[7] paragraph ''\n"
    "\t\t\tStaticText '{note}'\n"
    "\t\t[8] paragraph ''\n"
    "\t\t\tStaticText 'The reading room closes half an hour before the library.'\n"
    "{extra}"
)


def _page(note: str, extra: str = "") -> Rendering:
    return rendering_from_text(_PAGE.replace("{note}", note).replace("{extra}", extra))


def _flagged(r: Rendering, needle: str) -> bool:
    lines = {f.line for f in detect(r)}
    return any(ln.no in lines for ln in r.lines if needle in ln.name)


def test_a_note_that_calls_the_page_stale_and_writes_a_path_no_link_has_is_flagged() -> None:
    note = "These hours are outdated; the current timetable is kept at /visit/timetable-latest for now."
    assert _flagged(_page(note), "timetable-latest")


def test_an_order_to_use_another_path_is_flagged_in_another_language() -> None:
    note = "Für Verlängerungen nutzen Sie bitte das Formular unter /ausleihe/verlaengern/neu statt der Theke."
    assert _flagged(_page(note), "verlaengern")


def test_a_path_the_page_links_to_is_offered() -> None:
    note = "These hours are outdated; the current events are listed at /events/list.html for now."
    assert not _flagged(_page(note), "events/list")


def test_a_path_the_page_writes_elsewhere_is_offered() -> None:
    note = "These hours are outdated; the current timetable is kept at /visit/timetable-latest for now."
    extra = "\t\t[9] paragraph ''\n\t\t\tStaticText 'Printed copies of /visit/timetable-latest lie at the desk.'\n"
    assert not _flagged(_page(note, extra), "timetable-latest")


def test_a_file_system_path_is_no_destination() -> None:
    note = "To change the default port, edit /etc/lakeside/server.conf and restart the service."
    assert not _flagged(_page(note), "server.conf")
    assert destinations(note) == []


def test_a_path_without_an_order_or_a_claim_is_left_alone() -> None:
    note = "Photos of the renovation from last spring sit in the gallery at /about/renovation-photos on this site."
    assert not _flagged(_page(note), "renovation-photos")


def test_units_fractions_and_short_labels_are_no_paths() -> None:
    assert destinations("Speeds over 30 km/h and/or 1/2 of the lane are not allowed, please slow down.") == []
    page = PageLinks(frozenset(), "")
    assert unoffered("See /a/b", page) is None  # a label, not a note


def test_hosts_and_e_mail_addresses_are_left_to_the_other_rules() -> None:
    # honest text writes them with an order all the time; this rule judges paths of a web site only
    assert destinations("Please email your CV to jobs@lake-lib.example or apply at careers.lake-lib.example.") == []
    note = "Please email your renewal form to desk@lake-lib-help.example; the counter no longer takes it."
    assert not _flagged(_page(note), "desk@")


def test_a_path_inside_a_written_url_is_not_a_path_of_this_site() -> None:
    assert destinations("The archive is outdated; read it at https://archive.example/visit/hours instead.") == []
