"""What the MCP server sends, in fewer tokens, stays readable by a client that follows its
instructions: the plan driver rebuilds the server's copy of the view line by line (no browser)."""

from __future__ import annotations

from pagelens import tokens
from pagelens.bench.mcp_plans import Episode, PagelensPlanAgent
from pagelens.focus.delta import ViewTracker
from pagelens.focus.delta.formats import Shown, with_value, without_value_echo
from pagelens.focus.view import focus_view
from pagelens.mcp.browsing import FOLD_HEAD_SHORT
from pagelens.mcp.terse import terse, terse_block
from pagelens.types import ElementId, Node, Observation


def _obs(url: str, *specs: tuple[int | None, str, str, str | None, str | None]) -> Observation:
    """specs: (parent, role, name, eid, value) in pre-order."""
    nodes, depth = [], {}
    for i, (parent, role, name, eid, value) in enumerate(specs):
        depth[i] = 0 if parent is None else depth[parent] + 1
        nodes.append(Node(index=i, parent=parent, depth=depth[i], eid=ElementId(eid) if eid else None, role=role,
                          name=name, value=value))
    return Observation(url=url, title="t", nodes=tuple(nodes))


def test_placeholders_and_text_nodes_are_shortened_everywhere_a_client_reads_them() -> None:
    text = ("  [p7] ... 42 lines pruned ...\n  StaticText 'Only 3 left'\n- 3 lines: StaticText 'a' … [9]\n"
            "@ after StaticText 'Only…'\n  [4] link 'StaticText ' + x'")
    assert terse(text).split("\n") == ["  [p7] 42 pruned", "  'Only 3 left'", "- 3 lines: 'a' … [9]",
                                       "@ after 'Only…'", "  [4] link 'StaticText ' + x'"]
    assert tokens.count(terse(text)) < tokens.count(text)


def test_a_block_leaves_out_only_known_lines_by_id_that_lead_to_others() -> None:
    block = ("RootWebArea 'Shop', focused\n\t[44] main ''\n\t\t[21] form ''\n\t\t\tStaticText 'Department'\n"
             "\t\t\t[29] combobox 'Department', clickable\n\t\t\t\tMenuListPopup ''\n\t\t\t\t\t[30] option 'Any'")
    known = frozenset({"RootWebArea 'Shop', focused", "[44] main ''", "MenuListPopup ''", "[30] option 'Any'"})
    assert terse_block(block, known).split("\n") == [
        "  [21] form ''",  # not in the client's view: kept
        "   'Department'", "   [29] combobox 'Department'",  # a control: no clickable mark
        "    MenuListPopup ''",  # no id: the client could not tell which one it is
        "     [30] option 'Any'"]  # a known leaf is what was found: kept


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
    tracker = ViewTracker(mark=True, compact=True, echo=False)
    agent = PagelensPlanAgent(None, Episode("t", "pagelens"))  # type: ignore[arg-type]
    first = tracker.update(focus_view(_form(filled=False)))
    agent.absorb(terse(first.text))
    assert tracker.known_value("21", "Tariq") and not tracker.known_value("99", "x")
    agent.known_edit("21", 'done. [21] now contains "Tariq".')
    second = tracker.update(focus_view(_form(filled=True)))
    assert second.kind in ("fold", "delta")
    text = terse(second.text)
    if second.kind == "fold":  # as the server sends it
        text = FOLD_HEAD_SHORT + "\n" + text.split("\n", 1)[1]
    agent.absorb(text)
    assert agent.lines == [ln.lstrip(" ") for ln in terse(tracker.last_text).split("\n")]
    assert "Tariq" not in text  # the edited field and its echo: folded or left out
    assert "[50] alert" in text
