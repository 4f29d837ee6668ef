"""The near-linear alignment under delta observations, on generated sequences and trees (no browser)."""

from __future__ import annotations

import difflib
import random
from itertools import pairwise

from pagelens.focus.delta import Shown, carry_ids, fold_view
from pagelens.focus.delta.align import matching_blocks, matching_pairs, opcodes
from pagelens.types import ElementId, Node, Observation


def _check_pairs(a: list[object], b: list[object], pairs: list[tuple[int, int]]) -> None:
    assert all(a[i] == b[j] for i, j in pairs)
    assert all(i0 < i1 and j0 < j1 for (i0, j0), (i1, j1) in pairwise(pairs))


def test_small_inputs_align_exactly_as_difflib() -> None:
    rng = random.Random(3)
    for _ in range(30):
        a = [rng.choice("abcde") for _ in range(rng.randint(0, 40))]
        b = [rng.choice("abcde") for _ in range(rng.randint(0, 40))]
        want = difflib.SequenceMatcher(None, a, b, autojunk=False)
        assert matching_blocks(a, b) == [tuple(m) for m in want.get_matching_blocks()]
        assert opcodes(a, b) == want.get_opcodes()


def test_large_inputs_pair_equal_items_in_order_and_find_most_of_difflibs_matches() -> None:
    rng = random.Random(5)
    a = [f"row {i}" if i % 3 else "Edit" for i in range(3000)]
    b = list(a)
    for k in rng.sample(range(3000), 900):  # 30% of the lines change
        b[k] = f"new {k}"
    del b[100:140]
    b[2000:2000] = ["inserted"] * 25
    pairs = matching_pairs(a, b, small=10_000)  # force the anchored path
    _check_pairs(a, b, pairs)
    want = sum(m.size for m in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    assert len(pairs) >= 0.98 * want
    blocks = matching_blocks(a, b, small=10_000)
    assert blocks[-1] == (len(a), len(b), 0)
    assert sum(n for _, _, n in blocks) == len(pairs)
    ops = opcodes(a, b, small=10_000)  # the opcodes rebuild b from a
    rebuilt: list[str] = []
    for tag, i1, i2, j1, j2 in ops:
        rebuilt += a[i1:i2] if tag == "equal" else b[j1:j2]
    assert rebuilt == b


def test_no_unique_items_still_pairs_repeats_by_order() -> None:
    a = ["Edit", "Delete"] * 800
    b = ["Edit", "Delete", "Edit"] * 500
    pairs = matching_pairs(a, b, small=1_000)
    _check_pairs(a, b, pairs)  # type: ignore[arg-type]
    assert len(pairs) >= 800  # a weaker alignment than difflib's here, but in order, and every row paired once


def _listing(url: str, names: list[str], first_id: int) -> Observation:
    """A page: a header, then one row per name (row > link name, button Edit, text), in pre-order."""
    nodes = [Node(index=0, parent=None, depth=0, eid=None, role="RootWebArea", name="Admin")]

    def add(parent: int, role: str, name: str, with_id: bool = True) -> int:
        k = len(nodes)
        nodes.append(Node(index=k, parent=parent, depth=nodes[parent].depth + 1,
                          eid=ElementId(str(first_id + k)) if with_id else None, role=role, name=name))
        return k

    nav = add(0, "navigation", "Main")
    for label in ("Home", "Users", "Settings"):
        add(nav, "link", label)
    table = add(0, "table", "People")
    for name in names:
        row = add(table, "row", "")
        add(row, "link", name)
        add(row, "button", "Edit")
        add(row, "StaticText", "active", with_id=False)
    return Observation(url=url, title="t", nodes=tuple(nodes))


def test_carry_ids_on_a_big_page_whose_listing_changes_completes_and_is_correct() -> None:
    rng = random.Random(11)
    old_names = [f"person {i}" for i in range(750)]  # 3,006 nodes
    new_names = [f"person {i}" if rng.random() < 0.2 else f"renamed {i}" for i in range(750)]  # 80% change
    rng.shuffle(new_names[:100])  # and the first hundred rows are re-sorted
    before = _listing("http://127.0.0.1/people", old_names, 0)
    after = _listing("http://127.0.0.1/people", new_names, 10_000)  # a new document: fresh raw ids
    _, first_map = carry_ids(None, {}, before)
    carried, mapping = carry_ids(before, first_map, after)
    old_by_id = {n.eid: n for n in before.nodes if n.eid is not None}
    ids = [n.eid for n in carried.nodes if n.eid is not None]
    assert len(ids) == len(set(ids)) == len(mapping)  # never two elements with one id
    for node in carried.nodes:  # a carried id names an element with the same role, name and depth
        old = old_by_id.get(node.eid) if node.eid is not None else None
        if old is not None:
            assert (old.role, old.name, old.depth) == (node.role, node.name, node.depth)
    by_name = {n.name: n.eid for n in carried.nodes if n.role == "link"}
    assert by_name["Users"] == old_by_id_name(before, "Users")  # the header kept its ids
    kept = [name for name in new_names if name.startswith("person")]
    assert all(by_name[name] == old_by_id_name(before, name) for name in kept)  # unchanged rows, moved or not
    assert all(int(by_name[name]) >= 10_000 for name in new_names if name.startswith("renamed"))


def old_by_id_name(obs: Observation, name: str) -> str | None:
    return next((n.eid for n in obs.nodes if n.name == name and n.role == "link"), None)


def test_a_re_sorted_block_is_folded_where_it_went() -> None:
    head = [Shown(0, "RootWebArea 'People'"), Shown(1, "[1] table 'People'", "1")]
    rows = [[Shown(2, f"[{10 * k}] row ''", str(10 * k)), Shown(3, f"[{10 * k + 1}] link 'p{k}'", str(10 * k + 1)),
             Shown(3, f"[{10 * k + 2}] button 'Edit'", str(10 * k + 2))] for k in range(1, 6)]
    before = head + [ln for r in rows for ln in r]
    after = head + [ln for r in rows[::-1] for ln in r]  # sorted the other way
    folded = fold_view(before, after)
    assert folded.count("= 3 lines as before") >= 4  # every moved row is one line, not three
    assert "[21] link 'p2'" not in folded
