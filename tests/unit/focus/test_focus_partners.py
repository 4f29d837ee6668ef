"""Structure mechanisms of ``default`` (issue 9, third pass): table rows compared whole, literal
values that ask for a form, compound goal words, drop-downs shown short, the enclosing form."""

from __future__ import annotations

from focus_pages import FILLER, default_view

from pagelens.focus.rules import _LITERAL
from pagelens.focus.terms import compound_parts
from pagelens.focus.units import form_of, page_of, spare_options
from pagelens.observe.textparse import rendering_from_text


def test_extreme_over_a_table_keeps_the_name_cell_after_a_code_cell() -> None:
    page = ["RootWebArea 'Reservoir report'", "\t[1] main ''", "\t\t[2] heading 'Reservoir levels'"]
    # prose that repeats the goal's words, in many paragraphs (a listing of prose, not values)
    for i in range(30):
        page += [f"\t\t[{300 + i}] paragraph ''",
                 f"\t\t\tStaticText 'Reservoir paragraph {i}: every reservoir level rose or fell this year, as usual.'"]
    page += ["\t\t[3] table ''", "\t\t\t[4] row ''", "\t\t\t\t[5] columnheader 'Code'",
             "\t\t\t\t[6] columnheader 'Reservoir'", "\t\t\t\t[7] columnheader 'Change this year'"]
    names = ["Alder Lake", "Birch Water", "Fallow Mere", "Cobble Pond", "Dunmere", "Elmstead", "Gorse Tarn",
             "Hollin Dam", "Ivybridge Pool", "Jasper Flats"]  # (middle rows come last: both ends first)
    for i, name in enumerate(names):
        change = "41.5%" if name == "Fallow Mere" else f"{i + 1}.{i}%"
        page += [f"\t\t\t[{10 + i}] row ''", f"\t\t\t\t[{40 + i}] cell 'R{i:02d}'", f"\t\t\t\t[{70 + i}] cell '{name}'",
                 f"\t\t\t\t[{100 + i}] cell '{change}'"]
    page += FILLER
    text, pruning = default_view(page, "Which reservoir rose the most this year?")
    assert pruning > 0.3
    assert "Fallow Mere" in text and "41.5%" in text  # the row's readable name with its value


def test_a_literal_value_in_an_acting_goal_keeps_the_unnamed_fields() -> None:
    page = ["RootWebArea 'Router'", "\t[1] main ''", "\t\t[2] heading 'Static routes'"]
    page += FILLER[:30]
    page += ["\t\t[3] LayoutTable ''", "\t\t\t[4] LayoutTableRow ''", "\t\t\t\t[5] LayoutTableCell 'Gateway'",
             "\t\t\t\t[6] textbox '' (label?: '. . .'), clickable", "\t\t\t\tStaticText '.'",
             "\t\t\t\t[7] textbox '' (label?: '.'), clickable", "\t\t\t\t[8] button 'Apply', clickable"]
    page += FILLER[30:]
    text, _ = default_view(page, "Route traffic through 10.20.30.40")
    assert "[6] textbox" in text and "[8] button 'Apply'" in text


def test_literal_values_are_recognised_by_shape() -> None:
    for goal in ("use 10.0.0.5", "write to ana@example.net", "call 0201234567", "set it to 58,500"):
        assert _LITERAL.search(goal), goal
    for goal in ("open page 3", "the 2019 report", "version 1.2.3", "buy it for $1,200"):
        assert not _LITERAL.search(goal), goal


def test_compound_goal_words_split_into_page_words() -> None:
    assert {"book", "shelf"} <= compound_parts("Order the bookshelf")
    assert compound_parts("Open the cart") == set()  # short words are not split
    assert compound_parts("x" * 100_000) == set()  # a huge token is no compound (and costs nothing)
    page = ["RootWebArea 'Furniture'", "\t[1] main ''", "\t\t[2] heading 'Oak units'"]
    page += FILLER
    page += ["\t\t[3] list ''", "\t\t\t[4] listitem ''", "\t\t\t\tStaticText 'Shelf depth: 31 cm'"]
    page += FILLER
    text, _ = default_view(page, "How deep is this bookshelf?")
    assert "Shelf depth: 31 cm" in text


def test_a_kept_drop_down_shows_its_first_selected_and_named_options_only() -> None:
    cities = [f"{a}{b}mor" for a in "BDFGKLMNPRST" for b in "aeiou"][:30]  # distinct one-word names
    page = ["RootWebArea 'Booking'", "\t[1] main ''", "\t\t[2] form ''", "\t\t\t[3] LabelText ''",
            "\t\t\t\tStaticText 'Destination'", f"\t\t\t[4] combobox 'Destination' value='{cities[25]}'",
            "\t\t\t\t[5] MenuListPopup ''"]
    page += [f"\t\t\t\t\t[{10 + i}] option '{c}'" + (", selected" if c == cities[25] else ", selected=false")
             for i, c in enumerate(cities)]
    page += ["\t\t\t[6] button 'Search', clickable"]
    page += FILLER * 2
    spare = spare_options(page_of(rendering_from_text("\n".join(page))))
    assert len(spare) == 30 - 3 - 1
    text, _ = default_view(page, f"Choose {cities[17]} as the destination")
    for shown in (17, 25, 0):  # named, selected, first
        assert f"'{cities[shown]}'" in text
    assert "combobox 'Destination'" in text and f"'{cities[9]}'" not in text and f"'{cities[28]}'" not in text


def test_the_enclosing_form_is_a_fields_form_not_its_date_widget() -> None:
    page = ["RootWebArea 'Leave'", "\t[1] main ''", "\t\t[2] form ''", "\t\t\t[3] textbox 'Reason'",
            "\t\t\t[4] Date 'First day'", "\t\t\t\t[5] spinbutton 'Month'", "\t\t\t\t[6] button 'Show date picker'",
            "\t\t\t[7] button 'Submit request'"]
    p = page_of(rendering_from_text("\n".join(page)))
    month = next(i for i, ln in enumerate(p.lines) if ln.name == "Month")
    from pagelens.focus.units import UnitLimits

    f = form_of(p, month, UnitLimits())
    assert f is not None and p.lines[f].role == "form"


def test_a_row_of_a_table_with_td_headers_brings_its_column_names() -> None:
    from pagelens.focus.units import header_row, page_of
    from pagelens.observe.textparse import rendering_from_text

    rows = ["\t\t[3] row ''", "\t\t\t[4] columnheader 'Channel Status'",
            "\t\t[5] row ''", "\t\t\t[6] cell 'Channel'", "\t\t\t[7] cell 'Received Level'", "\t\t\t[8] cell 'Lock'"]
    for i in range(20):
        rows += [f"\t\t[{100 + 4 * i}] row ''", f"\t\t\t[{101 + 4 * i}] cell '{i + 1}'",
                 f"\t\t\t[{102 + 4 * i}] cell '{i / 10:.1f} dBmV'", f"\t\t\t[{103 + 4 * i}] cell 'Locked'"]
    page = page_of(rendering_from_text("\n".join(["RootWebArea 'Modem'", "\t[2] table ''", *rows])))
    cell = next(i for i, ln in enumerate(page.lines) if ln.name == "1.2 dBmV")
    names = [page.lines[j].name for j in header_row(page, cell)]
    assert "Channel Status" in names and "Received Level" in names and "Channel" in names
    # a first row that holds numbers is data, not a header
    plain = ["\t\t[5] row ''", "\t\t\t[6] cell 'a'", "\t\t\t[7] cell '1'", "\t\t\t[8] cell 'b'",
             "\t\t[9] row ''", "\t\t\t[10] cell 'c'", "\t\t\t[11] cell '2'", "\t\t\t[12] cell 'd'"]
    page = page_of(rendering_from_text("\n".join(["RootWebArea 'T'", "\t[2] table ''", *plain])))
    assert header_row(page, next(i for i, ln in enumerate(page.lines) if ln.name == "c")) == []
