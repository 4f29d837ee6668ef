from __future__ import annotations

import pytest

from pagelens.agent.planner import PlanTree, pivotal_context
from pagelens.errors import ActionError
from pagelens.types import ElementId, Line, Rendering


def test_branch_makes_the_new_plan_active() -> None:
    tree = PlanTree("Buy a lamp")
    a = tree.branch(0, "Find the lamp", step=1)
    b = tree.branch(a, "Open its page", step=2)
    assert (a, b) == (1, 2)
    assert tree.active.id == b
    assert tree.path() == (0, 1, 2)
    assert [n.status for n in tree.nodes] == ["open", "open", "active"]


def test_prune_abandons_the_subtree_and_resumes_the_parent() -> None:
    tree = PlanTree("goal")
    a = tree.branch(0, "route A")
    a1 = tree.branch(a, "A, step 1")
    assert tree.prune(a, "route A is a dead end") == 0
    assert tree.active.id == 0
    assert tree.node(a).status == tree.node(a1).status == "pruned"
    assert tree.node(a1).reason == "route A is a dead end"
    b = tree.branch(0, "route B")
    assert tree.active.id == b and tree.node(0).status == "open"
    assert "[pruned: route A is a dead end]" in tree.tree_text()
    assert "route B <- active" in tree.tree_text()


def test_pruning_a_side_plan_keeps_the_active_one() -> None:
    tree = PlanTree("goal")
    a = tree.branch(0, "A")
    b = tree.branch(0, "B")
    assert tree.prune(a, "not needed") == b
    assert tree.active.id == b


@pytest.mark.parametrize(
    "call",
    [
        lambda t: t.branch(7, "x"),
        lambda t: t.branch(0, "   "),
        lambda t: t.prune(0, "give up"),
        lambda t: t.prune(9, "no such plan"),
    ],
)
def test_invalid_planning_commands_raise_action_error(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ActionError):
        call(PlanTree("goal"))


def test_branching_from_a_pruned_plan_is_refused() -> None:
    tree = PlanTree("goal")
    a = tree.branch(0, "A")
    tree.prune(a, "dead end")
    with pytest.raises(ActionError, match="pruned"):
        tree.branch(a, "again")
    with pytest.raises(ActionError, match="already pruned"):
        tree.prune(a, "twice")


def test_history_is_scoped_to_the_active_plan() -> None:
    tree = PlanTree("goal")
    tree.record(1, 'click("3")', "done")
    a = tree.branch(0, "A")
    tree.record(2, 'click("5")', "done: url changed")
    tree.prune(a, "wrong page")
    b = tree.branch(0, "B")
    tree.record(3, 'fill("9", "x")', "done")
    assert [e.step for e in tree.scoped_history()] == [1, 3]
    assert [e.plan for e in tree.history] == [0, a, b]
    text = tree.history_text()
    assert 'click("5")' not in text and 'fill("9", "x")' in text
    assert PlanTree("g").history_text() == "(no actions yet)"


def _rendering() -> Rendering:
    rows = [  # (depth, eid, role, name, parent line)
        (0, None, "RootWebArea", "Shop", None),
        (1, "1", "navigation", "Menu", 0),
        (2, "2", "link", "Home", 1),
        (1, "3", "list", "Products", 0),
        *[(2, str(10 + i), "listitem", f"item {i}", 3) for i in range(5)],
        (3, "30", "button", "Add to cart", 8),  # inside item 4 (line 8)
        (4, None, "StaticText", "Add", 9),
        *[(2, str(10 + i), "listitem", f"item {i}", 3) for i in range(5, 8)],
    ]
    lines = []
    for no, (depth, eid, role, name, parent) in enumerate(rows):
        label = f"[{eid}] {role} '{name}'" if eid else f"{role} '{name}'"
        lines.append(Line(no, depth, label, no, role, ElementId(eid) if eid else None, parent, name))
    return Rendering(tuple(lines))


def test_pivotal_context_keeps_ancestors_nearest_siblings_and_descendants() -> None:
    out = pivotal_context(_rendering(), ["14"])
    texts = [ln.strip() for ln in out]
    assert texts[0] == "RootWebArea 'Shop'" and "[3] list 'Products'" in texts
    assert [t for t in texts if "listitem" in t] == [f"[{10 + i}] listitem 'item {i}'" for i in range(2, 7)]
    assert "[30] button 'Add to cart'" in texts and "StaticText 'Add'" in texts  # descendants of [14]
    assert "[2] link 'Home'" not in texts
    assert out[1].startswith("\t[3]")  # indentation preserved
    assert pivotal_context(_rendering(), ["999"]) == ()
    assert pivotal_context(_rendering(), ["[2]"])[-1].strip() == "[2] link 'Home'"


def test_history_replays_pivotal_lines_only_for_recent_entries() -> None:
    tree = PlanTree("goal")
    for step in range(1, 6):
        tree.record(step, f'click("{step}")', "done", pivotal=(f"\t[{step}] button 'b{step}'",))
    text = tree.history_text(max_entries=4, max_pivotal_entries=2)
    assert "step 1" not in text and "step 2 " in text
    assert "[3] button" not in text and "[4] button 'b4'" in text and "[5] button 'b5'" in text
