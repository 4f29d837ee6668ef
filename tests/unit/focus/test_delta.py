"""Delta observations on hand-built observations (no browser)."""

from __future__ import annotations

import re

from pagelens import tokens
from pagelens.focus.delta import (
    COMPACT_FOLD_HEAD,
    FOLD_HEAD,
    Shown,
    ViewTracker,
    as_the_agent_has,
    carry_ids,
    diff_views,
    fold_view,
    render,
    shown_lines,
)
from pagelens.focus.delta.formats import same_text
from pagelens.focus.view import focus_view
from pagelens.types import ElementId, Node, Observation


def _obs(url: str, *specs: tuple[int | None, str, str, str | None]) -> Observation:
    """specs: (parent, role, name, eid) in pre-order."""
    nodes = []
    depth: dict[int, int] = {}
    for i, (parent, role, name, eid) in enumerate(specs):
        d = 0 if parent is None else depth[parent] + 1
        depth[i] = d
        nodes.append(Node(index=i, parent=parent, depth=d, eid=ElementId(eid) if eid else None, role=role, name=name))
    return Observation(url=url, title="t", nodes=tuple(nodes))


HEADER = [(None, "RootWebArea", "Shop", None), (0, "navigation", "Main", "1"), (1, "link", "Home", "2"),
          (1, "link", "Cart", "3")]


def test_ids_carry_over_to_a_new_document_with_the_same_header() -> None:
    first = _obs("http://127.0.0.1/a", *HEADER, (0, "heading", "Lamps", "4"), (0, "link", "Edit", "5"))
    # a new document: every raw id is fresh
    second = _obs("http://127.0.0.1/b", (None, "RootWebArea", "Shop", None), (0, "navigation", "Main", "11"),
                  (1, "link", "Home", "12"), (1, "link", "Cart", "13"), (0, "heading", "Your cart", "14"),
                  (0, "button", "Pay", "15"))
    _, m1 = carry_ids(None, {}, first)
    carried, m2 = carry_ids(first, m1, second)
    ids = {n.name: n.eid for n in carried.nodes if n.eid}
    assert (ids["Main"], ids["Home"], ids["Cart"]) == ("1", "2", "3")  # the header kept its ids
    assert ids["Pay"] == "15"  # a new element keeps its fresh id
    assert m2["12"] == "2" and m2["15"] == "15"
    assert len(set(m2.values())) == len(m2)  # never two elements with one id


def test_persisting_element_keeps_its_id_and_never_lends_it() -> None:
    first = _obs("http://127.0.0.1/a", *HEADER)
    _, m1 = carry_ids(None, {}, first)
    # same document: [3] is still there but moved; a look-alike "Cart" link appears where it was
    second = _obs("http://127.0.0.1/a", (None, "RootWebArea", "Shop", None), (0, "navigation", "Main", "1"),
                  (1, "link", "Home", "2"), (1, "link", "Cart", "9"), (0, "link", "Cart", "3"))
    carried, _ = carry_ids(first, m1, second)
    by_id = {n.eid: n for n in carried.nodes if n.eid}
    assert by_id["3"].depth == 1  # the persisted element (moved under the root)
    assert len(by_id) == 4


def test_diff_lists_added_removed_and_changed_lines() -> None:
    before = [Shown(0, "RootWebArea 'Shop'"), Shown(1, "[2] textbox 'Qty' value='1'", "2"),
              Shown(1, "[3] button 'Add'", "3"), Shown(1, "[4] link 'Help'", "4")]
    after = [Shown(0, "RootWebArea 'Shop'"), Shown(1, "[2] textbox 'Qty' value='3'", "2"),
             Shown(1, "[3] button 'Add'", "3"), Shown(1, "[7] dialog 'Added to cart'", "7")]
    delta = diff_views(before, after)
    assert (delta.added, delta.removed, delta.changed) == (1, 1, 1)
    text = delta.text()
    assert "~ \t[2] textbox 'Qty' value='3'" in text
    assert "+ \t[7] dialog 'Added to cart'" in text
    assert "- \t[4] link 'Help'" in text
    body = [ln for ln in text.splitlines()[1:] if not ln.startswith("@")]
    assert not any("[3] button 'Add'" in ln for ln in body)  # unchanged: not repeated (only as an anchor)
    assert diff_views(after, after).empty


def test_tracker_sends_the_smaller_of_delta_and_view() -> None:
    items = [(0, "listitem", f"Product number {i} with a long descriptive name", str(10 + i)) for i in range(40)]
    page = _obs("http://127.0.0.1/list", (None, "RootWebArea", "Shop", None), *items)
    tracker = ViewTracker()
    first = tracker.update(focus_view(page))
    assert first.kind == "view" and first.delta is None
    changed = _obs("http://127.0.0.1/list", (None, "RootWebArea", "Shop", None), *items,
                   (0, "alert", "Saved", "99"))
    second = tracker.update(focus_view(changed))
    assert second.kind == "delta" and second.tokens < second.view_tokens
    assert "+ \t[99] alert 'Saved'" in second.text
    other = _obs("http://127.0.0.1/other", (None, "RootWebArea", "Login", None), (0, "button", "Go", "200"))
    third = tracker.update(focus_view(other))
    assert third.kind == "view"  # a small new page: the view is cheaper than the delta
    assert "[200] button 'Go'" in third.text


def test_tracker_deltas_against_an_earlier_view_of_the_same_address() -> None:
    items = [(0, "link", f"Post title {i} about something", str(10 + i)) for i in range(30)]
    front = _obs("http://127.0.0.1/", (None, "RootWebArea", "Front", None), *items)
    login = _obs("http://127.0.0.1/login", (None, "RootWebArea", "Login", None), (0, "textbox", "User", "100"))
    back = _obs("http://127.0.0.1/", (None, "RootWebArea", "Front", None),
                *[(0, "link", name, str(int(eid) + 500)) for _, _, name, eid in items], (0, "button", "Me", "600"))
    tracker = ViewTracker()
    tracker.update(focus_view(front), label="step 0")
    tracker.update(focus_view(login), label="step 1")
    update = tracker.update(focus_view(back), label="step 2")
    assert update.kind == "delta" and "earlier view step 0" in update.text
    ids = {n.name: n.eid for n in update.view.observation.nodes if n.eid}
    assert ids["Post title 0 about something"] == "10"  # the ids the agent saw on the front page
    assert update.base_text.startswith("RootWebArea 'Front'")


def test_an_llm_prompt_in_delta_mode_shows_the_base_view_and_the_changes() -> None:
    from pagelens.agent.context import StepContext
    from pagelens.agent.prompts import build_messages

    view = focus_view(_obs("http://127.0.0.1/", (None, "RootWebArea", "Shop", None), (0, "button", "Pay", "5")))
    ctx = StepContext("pay", 2, view, 1, True, delta="Changes since your last view (+1 -0 ~0): ...",
                      base_text="RootWebArea 'Shop'\n\t[4] link 'Old'")
    user = build_messages(ctx)[1].content
    assert "# The page as you saw it before\nRootWebArea 'Shop'\n\t[4] link 'Old'" in user
    assert "what changed since then\nChanges since your last view" in user
    plain = build_messages(StepContext("pay", 2, view, 1, True))[1].content
    assert "[5] button 'Pay'" in plain and "saw it before" not in plain


def test_only_the_visible_mark_changing_is_not_a_change() -> None:
    before = [Shown(0, "RootWebArea 'Shop'"), Shown(1, "[2] link 'Home', clickable, visible", "2"),
              Shown(1, "[3] button 'Add', clickable", "3")]
    after = [Shown(0, "RootWebArea 'Shop'"), Shown(1, "[2] link 'Home', clickable", "2"),
             Shown(1, "[3] button 'Add', clickable, visible", "3"), Shown(1, "[4] alert 'Saved', visible", "4")]
    delta = diff_views(before, after)
    assert (delta.added, delta.removed, delta.changed) == (1, 0, 0)
    assert "[2]" not in "\n".join(ln.text for ln in delta.lines if ln.op != "@")
    has = as_the_agent_has(before, after)  # the agent keeps its own copy of the unchanged lines
    assert has[1].text == "[2] link 'Home', clickable, visible" and has[3].text == "[4] alert 'Saved', visible"


def test_a_folded_view_names_the_runs_the_agent_has_and_lists_the_rest() -> None:
    header = [Shown(0, "RootWebArea 'Shop'")] + [Shown(1, f"[{i}] link 'Menu {i}'", str(i)) for i in range(1, 9)]
    before = header + [Shown(1, f"[{i}] link 'Old item {i}'", str(i)) for i in range(20, 40)]
    after = header + [Shown(1, "[50] heading 'Cart'", "50"), Shown(1, "[51] button 'Pay'", "51")]
    text = fold_view(before, after)
    assert text.splitlines()[0] == FOLD_HEAD
    assert "= 8 lines as before: [1] … [8]" in text  # the run starts at a line with an id
    assert "RootWebArea 'Shop'" in text and "[51] button 'Pay'" in text
    assert "Old item" not in text  # nothing gone is listed


def _runs(update: object) -> dict[tuple[str | None, ...], str]:
    """What each placeholder of a view stands for (the element ids of its lines) -> its id."""
    view = update.view  # type: ignore[attr-defined]
    by_no = {ln.no: ln for ln in view.rendering.lines}
    return {tuple(by_no[n].eid for n in run): pid for pid, run in view.focused.placeholders.items()}


def test_placeholders_keep_their_ids_when_they_stand_for_the_same_lines() -> None:
    from pagelens.focus.registry import make_retriever

    items = [(0, "listitem", f"Item {i} of a long listing of things", str(10 + i)) for i in range(60)]
    page = _obs("http://127.0.0.1/list", (None, "RootWebArea", "Shop", None), (0, "button", "Pay now", "5"), *items)
    tracker = ViewTracker()
    r = make_retriever("default")
    first = tracker.update(focus_view(page, goal="Pay now", retriever=r))
    before = _runs(first)
    assert before
    # new pruned lines above: the focus numbers placeholders from the top, so every id would shift
    news = [(0, "listitem", f"Promoted thing number {i} for sale", str(200 + i)) for i in range(30)]
    grown = _obs("http://127.0.0.1/list", (None, "RootWebArea", "Shop", None), *news,
                 (0, "button", "Pay now", "5"), *items)
    second = tracker.update(focus_view(grown, goal="Pay now", retriever=r))
    after = _runs(second)
    same = [run for run in before if run in after]
    assert same and all(after[run] == before[run] for run in same)  # same lines, same placeholder id
    assert len(set(after.values())) == len(after)  # ids stay unique
    new_pids = [pid for run, pid in after.items() if run not in before]
    assert new_pids and not set(new_pids) & set(before.values())  # a new run gets a fresh id


def test_tracker_keeps_only_the_views_a_later_delta_can_use() -> None:
    """Each kept view holds a whole observation: on one address, three (the last view and the
    two earlier bases an update looks at), not one per step; other addresses keep their own two."""
    items = [(0, "link", f"Result {i}", str(10 + i)) for i in range(20)]
    tracker = ViewTracker()
    for step in range(10):
        page = _obs(f"http://127.0.0.1/list?page={step}", (None, "RootWebArea", "List", None), *items,
                    (0, "heading", f"Page {step}", str(900 + step)))
        tracker.update(focus_view(page), label=f"step {step}")
    kept = [seen.obs for seen in tracker._history]
    assert len(kept) == 3
    assert [o.url.rsplit("=", 1)[1] for o in kept] == ["7", "8", "9"]  # the latest ones, in order
    login = _obs("http://127.0.0.1/login", (None, "RootWebArea", "Login", None), (0, "textbox", "User", "100"))
    tracker.update(focus_view(login), label="step 10")
    back = _obs("http://127.0.0.1/list?page=0", (None, "RootWebArea", "List", None), *items,
                (0, "button", "More", "950"))
    update = tracker.update(focus_view(back), label="step 11")
    assert update.kind == "delta"  # an earlier view of the list is still a base after the detour
    assert len(tracker._history) <= 1 + 2 * 2


def test_earlier_views_of_huge_pages_are_bounded_by_their_nodes_not_only_their_number() -> None:
    """Three views of one 120,000-node page: the last and one earlier base are kept (the two
    earlier ones would hold 240,000 nodes); small pages keep both earlier bases."""
    from pagelens.focus.delta import tracker as tr

    node = Node(0, None, 0, None, "RootWebArea", "Big")

    def seen(url: str, n: int) -> tr._Seen:
        return tr._Seen(Observation(url, "Big", (node,) * n), {}, (), url)

    def ids(views: list[tr._Seen]) -> list[int]:
        return [id(v) for v in views]

    big = [seen("http://127.0.0.1/big", 120_000) for _ in range(3)]
    assert ids(tr._usable(big)) == ids(big[1:])
    small = [seen("http://127.0.0.1/small", 1_000) for _ in range(4)]
    assert ids(tr._usable(small)) == ids(small[1:])  # the last and the two earlier bases of its address
    mixed = [seen("http://127.0.0.1/a", 170_000), seen("http://127.0.0.1/b", 40_000), big[2]]
    assert ids(tr._usable(mixed)) == ids(mixed[1:])  # the older tree does not fit beside the newer


def test_a_pruned_run_whose_lines_changed_keeps_the_placeholder_id_of_its_place() -> None:
    from pagelens.focus.registry import make_retriever

    def page(word: str, first: int) -> Observation:
        items = [(0, "listitem", f"{word} {i} of a long listing of things", str(first + i)) for i in range(60)]
        return _obs("http://127.0.0.1/list", (None, "RootWebArea", "Shop", None), (0, "button", "Pay now", "5"),
                    *items)

    tracker = ViewTracker()
    r = make_retriever("default")
    first = tracker.update(focus_view(page("Item", 10), goal="Pay now", retriever=r))
    before = _runs(first)
    assert len(before) == 1
    # the listing re-rendered with other items (other lines pruned at the same place)
    second = tracker.update(focus_view(page("Offer", 300), goal="Pay now", retriever=r))
    after = _runs(second)
    assert list(after.values()) == list(before.values())  # the same placeholder id, for the new lines
    assert list(after) != list(before)
    delta = diff_views(shown_lines(first.view), shown_lines(second.view)).text()
    assert "Offer 0" in delta and "pruned" not in delta  # "lines pruned here" did not change
    pid = next(iter(after.values()))
    assert second.view.focused is not None and set(second.view.focused.placeholders) == {pid}


def _unfold(base: list[str], folded: str) -> list[str]:
    """The view an agent rebuilds from a compact folded view and its copy of the last view."""
    lead = re.compile(r"^ *\*?(\[p?\d+\]) ")
    index = {m.group(1): k for k, ln in enumerate(base) if (m := lead.match(ln))}
    out: list[str] = []
    for raw in folded.splitlines()[1:]:
        m = re.match(r"^ *= (\[p?\d+\])(?: \+(\d+))?$", raw)
        if m:
            k = index[m.group(1)]
            out += base[k:k + 1 + int(m.group(2) or 0)]
        else:
            out.append(raw)
    return out


def test_a_compact_folded_view_rebuilds_the_new_view_from_the_last_one() -> None:
    header = [Shown(0, "RootWebArea 'Shop'")] + [Shown(1, f"[{i}] link 'Menu entry {i}', clickable", str(i))
                                                 for i in range(1, 7)]
    rows = [[Shown(2, f"[{r}0] row 'Order {r}'", f"{r}0"), Shown(3, "StaticText 'shipped'"),
             Shown(3, f"[{r}1] link 'Details of order {r}', clickable", f"{r}1")] for r in range(1, 6)]
    before = [*header, Shown(1, "[7] table 'Orders'", "7"), *[ln for row in rows for ln in row],
              Shown(1, "[90] button 'Next page', visible", "90"), Shown(1, "[p1] ... 4 lines pruned ...")]
    moved = [rows[4], rows[0], rows[1], rows[2], rows[3]]  # the table re-sorted
    after = [*header, Shown(1, "[7] table 'Orders'", "7"), *[ln for row in moved for ln in row],
             Shown(1, "[90] button 'Next page'", "90"), Shown(1, "[95] alert 'Sorted by date', visible", "95"),
             Shown(1, "[p1] ... 4 lines pruned ...")]
    folded = fold_view(before, after, compact=True)
    assert folded.splitlines()[0] == COMPACT_FOLD_HEAD
    base = render(before, compact=True).split("\n")
    assert [same_text(ln) for ln in _unfold(base, folded)] == [same_text(ln.sent(True)) for ln in after]
    assert "= [1] +6" in folded  # header and table line: one line
    assert "\n = [90]\n" in folded  # a single unchanged line with an id costs less folded
    assert " [95] alert 'Sorted by date', visible" in folded and "\t" not in folded
    assert tokens.count(folded) < tokens.count(fold_view(before, after)) < tokens.count(render(after))


def test_compact_text_leaves_out_only_the_clickable_mark_a_control_needs_not() -> None:
    lines = [Shown(0, "[1] link 'Home', clickable, visible", "1"), Shown(1, "[2] generic 'Card', clickable", "2"),
             Shown(1, "[3] textbox 'Qty' value='1', clickable, focused", "3"), Shown(1, "StaticText 'clickable'")]
    assert render(lines, compact=True).split("\n") == [
        "[1] link 'Home', visible", " [2] generic 'Card', clickable", " [3] textbox 'Qty' value='1', focused",
        " StaticText 'clickable'"]
    assert render(lines) == "\n".join(ln.rendered() for ln in lines)  # the default text is the focus's


def test_a_compact_delta_anchors_by_id_and_nests_by_spaces() -> None:
    before = [Shown(0, "RootWebArea 'Shop'"), Shown(1, "[2] textbox 'Quantity of this lamp' value='1'", "2"),
              Shown(1, "[3] button 'Add to cart', clickable", "3")]
    after = [*before[:2], Shown(1, "[3] button 'Add to cart', clickable", "3"), Shown(2, "[7] alert 'Added'", "7")]
    compact = diff_views(before, after, compact=True).text()
    assert compact.splitlines()[1:] == ["@ after [3]", "+   [7] alert 'Added'"]
    assert "@ after [3] button 'Add to cart', clickable" in diff_views(before, after).text()  # the default


def test_a_compact_tracker_sends_space_nested_views_and_bases() -> None:
    items = [(0, "listitem", f"Product number {i} with a long descriptive name", str(10 + i)) for i in range(40)]
    page = _obs("http://127.0.0.1/list", (None, "RootWebArea", "Shop", None), *items)
    tracker = ViewTracker(compact=True)
    first = tracker.update(focus_view(page))
    assert first.text == first.view.text().replace("\t", " ") and first.tokens < tokens.count(first.view.text())
    changed = _obs("http://127.0.0.1/list", (None, "RootWebArea", "Shop", None), *items, (0, "alert", "Saved", "99"))
    second = tracker.update(focus_view(changed))
    assert second.kind == "delta" and "+  [99] alert 'Saved'" in second.text
    assert second.base_text == first.text  # the view as the agent has it, in the same text
