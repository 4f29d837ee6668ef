"""What the MCP server sends, in fewer tokens, stays readable by a client that follows its
instructions: the terse text is made from the typed lines (no rewriting of text), and the plan
driver rebuilds the server's copy of the view line by line (no browser)."""

from __future__ import annotations

from dataclasses import dataclass

from pagelens import tokens
from pagelens.bench.mcp_plans import Episode, PagelensPlanAgent
from pagelens.focus.base import FocusQuery, Selection
from pagelens.focus.delta import ViewTracker
from pagelens.focus.delta.formats import Shown, with_value, without_value_echo
from pagelens.focus.recover import RecoveredLine, Recovery
from pagelens.focus.view import focus_view
from pagelens.mcp.browsing import FOLD_HEAD_SHORT
from pagelens.mcp.terse import block_lines, terse_block
from pagelens.types import ElementId, Node, Observation, Rendering


def _obs(url: str, *specs: tuple[int | None, str, str, str | None, str | None]) -> Observation:
    """specs: (parent, role, name, eid, value) in pre-order."""
    nodes, depth = [], {}
    for i, (parent, role, name, eid, value) in enumerate(specs):
        depth[i] = 0 if parent is None else depth[parent] + 1
        nodes.append(Node(index=i, parent=parent, depth=depth[i], eid=ElementId(eid) if eid else None, role=role,
                          name=name, value=value))
    return Observation(url=url, title="t", nodes=tuple(nodes))


def _tracker() -> ViewTracker:
    return ViewTracker(mark=False, compact=True, echo=False, sticky=True, terse=True, fold_head=FOLD_HEAD_SHORT)


def _client() -> PagelensPlanAgent:
    return PagelensPlanAgent(None, Episode("t", "pagelens"))  # type: ignore[arg-type]


def _copy(tracker: ViewTracker) -> list[str]:
    """The server's copy of the client's view, as the client holds it (nesting included)."""
    return tracker.last_text.split("\n")


def test_the_terse_form_comes_from_the_typed_line_not_from_its_text() -> None:
    assert Shown(2, "[p7] ... 42 lines pruned ...", pid="p7", pruned=42).sent(True, terse=True) == "  [p7] …42"
    assert Shown(1, "StaticText 'Only 3 left'", role="StaticText").sent(True, terse=True) == " 'Only 3 left'"
    # a link named like a text node, a text that looks like a placeholder: their own text
    assert Shown(0, "[4] link 'StaticText ' + x'", "4", "link").sent(True, terse=True) == "[4] link 'StaticText ' + x'"
    assert Shown(0, "StaticText '[p1] ... 2 lines pruned ...'", role="StaticText").own(True) == \
        "'[p1] ... 2 lines pruned ...'"
    assert Shown(0, "[p7] ... 42 lines pruned ...", pid="p7", pruned=42).own() == "[p7] ... 42 lines pruned ..."
    box = Shown(0, "[5] checkbox 'Zephyr', checked=false, focused", "5", "checkbox")
    assert box.own(True) == "[5] checkbox 'Zephyr', focused" and box.own() == box.text
    assert Shown(0, "[6] checkbox 'A', checked", "6", "checkbox").own(True) == "[6] checkbox 'A', checked"
    assert Shown(0, "[7] button 'x', checked=false", "7", "button").own(True).endswith("checked=false")
    opt = Shown(3, "[52] option 'Berlin', selected=false", "52", "option")
    assert opt.own(True) == "[52] option 'Berlin'" and opt.own() == opt.text
    assert Shown(3, "[51] option 'Any', selected", "51", "option").own(True) == "[51] option 'Any', selected"
    assert Shown(0, "[8] link 'x', selected=false", "8", "link").own(True).endswith("selected=false")
    long = Shown(1, "StaticText 'Only 3 left'", role="StaticText")
    assert tokens.count(long.sent(True, terse=True)) < tokens.count(long.sent(True))


def test_a_block_leaves_out_only_known_lines_by_id_that_lead_to_others() -> None:
    texts = [(0, "RootWebArea 'Shop', focused", None, True), (1, "[44] main ''", "44", True),
             (2, "[21] form ''", "21", True), (3, "StaticText 'Department'", None, False),
             (3, "[29] combobox 'Department', clickable", "29", False), (4, "MenuListPopup ''", None, True),
             (5, "[30] option 'Any'", "30", False), (3, "[31] searchbox 'Q' value='tea'", "31", False),
             (4, "StaticText 'tea'", None, False)]
    roles = ["RootWebArea", "main", "form", "StaticText", "combobox", "MenuListPopup", "option", "searchbox",
             "StaticText"]
    from pagelens.types import Line

    rendering = Rendering(tuple(Line(no=k, depth=d, text=t, node=k, role=roles[k], eid=ElementId(e) if e else None)
                                for k, (d, t, e, _) in enumerate(texts)))
    rec = Recovery("search", "Department", tuple(RecoveredLine(k, d, t, ElementId(e) if e else None, c)
                                                 for k, (d, t, e, c) in enumerate(texts)))
    known = {"44": "[44] main ''", "30": "[30] option 'Any'", "31": "[31] searchbox 'Q'"}
    assert [ln.text for ln in block_lines(rec, rendering, known)] == [
        "[21] form ''", "StaticText 'Department'", "[29] combobox 'Department', clickable", "MenuListPopup ''",
        "[30] option 'Any'", "[31] searchbox 'Q' value='tea'"]
    assert terse_block(rec, rendering, known).split("\n") == [
        "  [21] form ''",  # not in the client's view: kept
        "   'Department'", "   [29] combobox 'Department'",  # a text node quoted; a control: no clickable mark
        "    MenuListPopup ''",  # no id: the client could not tell which one it is
        "     [30] option 'Any'",  # a known leaf is what was found: kept
        "   [31] searchbox 'Q' value='tea'"]  # changed since the client's copy: whole; its echo left out


def test_a_known_edit_and_a_value_echo_leave_the_fields_out_of_the_next_view() -> None:
    assert with_value("[23] textbox 'First name', required", "Tariq") == "[23] textbox 'First name' value='Tariq', required"
    assert with_value("[23] textbox 'First name' value='x'", "") == "[23] textbox 'First name'"
    assert with_value("StaticText 'x'", "y") is None and with_value("[2] textbox 'A'", "it's") is None
    echo = [Shown(0, "[9] searchbox 'Search' value='tea'", "9"), Shown(1, "StaticText 'tea'"),
            Shown(1, "StaticText 'tea'")]
    assert without_value_echo(echo) == (echo[0], echo[2])  # the second one is not under the field


def _form(*, filled: bool) -> Observation:
    specs: list[tuple[int | None, str, str, str | None, str | None]] = [
        (None, "RootWebArea", "Records", None, None), (0, "form", "", "2", None)]
    for k in range(6):
        specs.append((1, "LabelText", "", None, None))
        specs.append((len(specs) - 1, "StaticText", f"Field {k}", None, None))
        specs.append((1, "textbox", f"Field {k}", str(20 + k), "Tariq" if filled and k == 1 else None))
        if filled and k == 1:
            specs.append((len(specs) - 1, "StaticText", "Tariq", None, None))  # the field's own text
    specs.append((1, "button", "Create", "40", None))
    if filled:
        specs.append((0, "alert", "1 problem with your submission", "50", None))
    return _obs("http://127.0.0.1/new", *specs)


def test_the_plan_driver_rebuilds_the_servers_copy_after_a_known_edit_and_a_fold() -> None:
    tracker = _tracker()
    agent = _client()
    first = tracker.update(focus_view(_form(filled=False)))
    assert "StaticText" not in first.text and "'Field 0'" in first.text  # text nodes quoted
    agent.absorb(first.text)
    assert agent.lines == _copy(tracker)
    assert tracker.known_value("21", "Tariq") and not tracker.known_value("99", "x")
    agent.known_edit("21", 'done. [21] now contains "Tariq".')
    second = tracker.update(focus_view(_form(filled=True)))
    assert second.kind in ("fold", "delta")
    if second.kind == "fold":  # the server's own header
        assert second.text.startswith(FOLD_HEAD_SHORT + "\n")
    agent.absorb(second.text)
    assert agent.lines == _copy(tracker)
    assert "Tariq" not in second.text  # the edited field and its echo: folded or left out
    assert "[50] alert" in second.text


@dataclass(frozen=True)
class _Pick:
    """A retriever that keeps the lines whose name is in ``names`` (a focus whose budget the
    test decides)."""

    names: frozenset[str]
    name: str = "pick"

    def select(self, query: FocusQuery, rendering: Rendering) -> Selection:
        return Selection(frozenset(ln.no for ln in rendering.lines if ln.name in self.names))


def _cart(*rows: str) -> Observation:
    specs: list[tuple[int | None, str, str, str | None, str | None]] = [
        (None, "RootWebArea", "Your cart", None, None), (0, "banner", "", "2", None),
        (1, "link", "Home", "3", None), (1, "link", "Help", "4", None), (1, "link", "Careers", "5", None),
        (0, "table", "Items", "10", None), (5, "row", "", "11", None),
        (6, "columnheader", "Product", "12", None), (6, "columnheader", "Price", "13", None)]
    for k, row in enumerate(rows):
        specs.append((5, "row", "", str(20 + 10 * k), None))
        specs.append((len(specs) - 1, "cell", row, str(21 + 10 * k), None))
        specs.append((len(specs) - 2, "button", f"Remove {row}", str(22 + 10 * k), None))
    specs.append((5, "StaticText", f"{len(rows)} items", None, None))
    return _obs("http://127.0.0.1/cart", *specs)


def test_a_sticky_view_does_not_resend_what_the_last_view_had_pruned_unless_the_goal_names_it() -> None:
    goal = "Remove the Kestrel Bands from the cart"
    rows = ("Mirabel Rope", "Kestrel Bands", "Solstice Mat")
    first_pick = _Pick(frozenset({"Mirabel Rope", "Remove Mirabel Rope", "3 items", "Items"}))
    # the reloaded page: one row gone, the freed budget spent on lines the first view had pruned
    # (two header links, the column headers) and on the row the goal names
    second_pick = _Pick(first_pick.names | {"Help", "Careers", "Product", "Price", "Kestrel Bands",
                                            "Remove Kestrel Bands", "2 items"})
    tracker = _tracker()
    agent = _client()
    first = tracker.update(focus_view(_cart(*rows), goal=goal, retriever=first_pick))
    agent.absorb(first.text)
    assert "Help" not in first.text and "Kestrel" not in first.text
    reload = focus_view(_cart(rows[1], rows[2]), goal=goal, retriever=second_pick)
    plain = ViewTracker(mark=False, compact=True, echo=False, terse=True)
    plain.update(focus_view(_cart(*rows), goal=goal, retriever=first_pick))
    unrestrained = plain.update(reload)
    update = tracker.update(reload, goal=goal)
    for text in ("Help", "Careers", "Product", "Price"):  # unchanged, pruned before, not in the goal
        assert text in unrestrained.text and text not in update.text
    assert "button 'Remove Kestrel Bands'" in update.text  # pruned before, but the goal names it
    assert "'2 items'" in update.text  # changed: the focus's choice
    assert update.tokens < unrestrained.tokens
    agent.absorb(update.text)
    assert agent.lines == _copy(tracker)  # the client rebuilds the server's copy, line by line
    assert not any("Mirabel" in ln for ln in agent.lines)
    # a new goal is a different view: no restraint
    assert "Help" in tracker.update(reload, allow_delta=False, goal=goal).text


def test_pruning_a_line_merges_it_with_the_placeholders_next_to_it_and_keeps_markers() -> None:
    from pagelens.focus.apply import OutputLine, placeholder_text
    from pagelens.focus.delta.sticky import _pruned

    lines = (OutputLine(0, "RootWebArea 'x'", 0), OutputLine(1, placeholder_text(2, "p1"), None, 2, "p1"),
             OutputLine(1, "[3] link 'Help'", 3), OutputLine(1, placeholder_text(1, "p2"), None, 1, "p2"),
             OutputLine(1, "[redacted: instructions to the agent in the page text]", None, 1),
             OutputLine(1, "[6] button 'Go'", 6), OutputLine(1, "[7] link 'Careers'", 7),
             OutputLine(1, placeholder_text(3, "p3"), None, 3, "p3"))
    out = _pruned(lines, {3, 7})
    assert [(ln.text, ln.pruned) for ln in out] == [
        ("RootWebArea 'x'", 0), ("[p1] ... 4 lines pruned ...", 4),  # p1, [3], p2: one run
        ("[redacted: instructions to the agent in the page text]", 1), ("[6] button 'Go'", 0),
        ("[p2] ... 4 lines pruned ...", 4)]  # renumbered in document order
    assert sum(ln.pruned or 1 for ln in out) == sum(ln.pruned or 1 for ln in lines)  # still tiles the rendering


def test_the_driver_reads_terse_placeholders_near_the_goal() -> None:
    agent = _client()
    agent.lines = ["RootWebArea 'Toaster'", " [5] region 'Customer reviews (6)'", "  [p3] …25", "  [p4] …2",
                   " [9] list 'Related'", "  [p5] …40"]
    assert agent.pruned_near("Who wrote the lowest-rated customer review?") == ["p3", "p4"]


#: A product page as the server folded it (recorded from a run of the bundled shop): the lowest
#: rated review's article is pruned whole under the reviews region, other runs sit next to lines
#: that share words with the question, and the root line names the product.
_PRODUCT = """RootWebArea 'Zephyr Deluxe Toaster · Lumen Market', focused
 [p1] …8
 [p27] …5
 [696] heading 'Zephyr Deluxe Toaster'
 [699] paragraph ''
  [700] image 'Rated 3.2 out of 5'
  '3.2 (6 reviews)'
 [464] form ''
  [p28] …26
 [726] region 'Customer reviews (6)'
  [727] heading 'Customer reviews (6)'
  [redacted: instructions to the agent in text hidden from sighted users]
  [733] article ''
   [p29] …23
  [748] article ''
   [749] heading 'Mediocre'
   [750] paragraph ''
    [751] image 'Rated 2 out of 5'
    'by Ravi Q. on 2023-04-29'
   [752] paragraph ''
    'Customer service answered within a day.'
  [753] article ''
   [p30] …16
 [764] list 'Related products'
  [p31] …51
  [801] listitem ''
   [802] article 'Quanta Heavy-Duty Toaster'
    [803] link 'Quanta Heavy-Duty Toaster'
     [804] heading 'Quanta Heavy-Duty Toaster'
    [p22] …2
    [806] paragraph ''
     '(5 reviews)'
   [p33] …121""".splitlines()


def test_the_driver_opens_the_runs_of_the_section_the_question_is_about_by_the_trees_nesting() -> None:
    from pagelens.bench.mcp_plans import pruned_in_sections, section_of

    k = _PRODUCT.index("   [p29] …23")
    # what the run is part of, nearest first: its article, the heading that opens the region, the
    # region, the page's heading (the nearest heading of each level above it)
    assert section_of(_PRODUCT, k) == ["[733] article ''", "[727] heading 'Customer reviews (6)'",
                                       "[726] region 'Customer reviews (6)'", "[696] heading 'Zephyr Deluxe Toaster'"]
    goal = "Who wrote the lowest-rated customer review of the Zephyr Deluxe Toaster?"
    # the two runs of the reviews region, the longer first; not the related toaster's (its article
    # shares only 'toaster', a word of the page's title: the page the question is about, not the part)
    assert pruned_in_sections(_PRODUCT, goal) == ["p29", "p30"]
    # the related list's runs, longer first; the one inside an article last (its nearest lines do not say it)
    assert pruned_in_sections(_PRODUCT, "Which toasters are related?") == ["p33", "p31", "p22"]
    # without the nesting (a copy unindented) only the heading right above a run says anything:
    # the run of the second review article is lost to the first review's own heading
    assert pruned_in_sections([ln.lstrip(" ") for ln in _PRODUCT], goal) == ["p29"]


def test_the_driver_opens_a_short_run_inside_the_section_named_like_its_target() -> None:
    from pagelens.bench.mcp_plans import pruned_under

    assert pruned_under(_PRODUCT, "Quanta Heavy-Duty Toaster") == ["p22"]  # inside the article named so
    assert pruned_under(_PRODUCT, "Quanta") == []  # a section whose name only contains it: not that one
    assert pruned_under(_PRODUCT, "Customer reviews (6)") == []  # its runs are long: searched instead
    assert pruned_under(_PRODUCT, "Customer reviews (6)", max_lines=30) == ["p29", "p30"]  # in page order
    assert pruned_under(_PRODUCT, "Zephyr Deluxe Toaster · Lumen Market") == []  # the root: the page, not a section


def test_the_driver_reads_a_search_match_it_has_from_its_copy() -> None:
    agent = _client()
    agent.lines = ["RootWebArea 'Forum'", "[40] button 'Downvote'", "[p2] …9"]
    assert agent.block("search_page(\"Downvote\"): 3 matching lines.\n = [40]\n  [51] button 'Downvote'") == [
        "search_page(\"Downvote\"): 3 matching lines.", "[40] button 'Downvote'", "[51] button 'Downvote'"]
