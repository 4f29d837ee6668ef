"""The walker's compact column format, parsed without a browser (walker.js ``emit`` writes it)."""

from __future__ import annotations

import json

from pagelens.browser.ids import IdRegistry
from pagelens.browser.walker_columns import build_nodes, parse_walk


def _raw() -> str:
    # root (0) > link (1, own box) > text (2, the link's box: flag 16); root > textbox (3) with a value
    return json.dumps({
        "S": ["", "RootWebArea", "Doc", "link", "Home", "StaticText", "textbox", "Name", "Ada", "tok", "http://x/"],
        "P": [0, 1, 1, 3], "R": [1, 3, 5, 6], "N": [2, 4, 4, 7], "V": [3, 8], "D": [],
        "F": [0, 1, 0, 2], "B": [0, 0, 0, 0, 10, 20, 30, 40, 10, 100, 200, 20],
        "G": [1, 3, 1 | 16, 1 | (5 << 8)], "Q": [1, 0, True], "X": [], "DOCS": [0, 9, 10, 0, 0], "W": [1],
        "vp": [1280, 720], "ms": 1.5,
    })


def test_parents_values_and_inherited_boxes_are_unpacked() -> None:
    w = parse_walk(_raw())
    assert list(w.parent) == [-1, 0, 1, 0]
    assert list(w.value) == [-1, -1, -1, 8] and list(w.desc) == [-1, -1, -1, -1]
    assert list(w.box[4:8]) == [10, 20, 30, 40] and list(w.box[8:12]) == [10, 20, 30, 40]  # the text has its link's box
    assert list(w.box[12:16]) == [10, 100, 200, 20]
    assert w.wanted == [1]


def test_nodes_carry_backend_ids_only_where_cdp_gave_one() -> None:
    w = parse_walk(_raw())
    nodes = build_nodes(w, [(None, w)], {id(w): 0}, {}, IdRegistry(), {1: 77})
    link, text, field = nodes[1], nodes[2], nodes[3]
    assert (link.role, link.name, link.backend_id, link.visible) == ("link", "Home", 77, True)
    assert text.eid is None and text.backend_id is None and text.parent == 1
    assert (field.value, field.concealed, field.backend_id) == ("Ada", "covered", None)


def test_the_fast_node_constructor_makes_the_same_node() -> None:
    import dataclasses
    import pickle

    from pagelens.browser.walker_columns import make_node
    from pagelens.types import ElementId, Node

    assert make_node is not Node  # Node's fields are the ones the fast constructor sets
    args = (3, 1, 2, ElementId("a7"), "link", "Home", "v", "d", (("focusable", True),), "main", 42, True, True,
            True, False, "tiny", "tok:7", True, 5)
    fast, slow = make_node(*args), Node(*args)
    assert type(fast) is Node and fast == slow and hash(fast) == hash(slow)
    assert [getattr(fast, f.name) for f in dataclasses.fields(Node)] == list(args)
    assert pickle.loads(pickle.dumps(fast)) == slow
    try:
        fast.name = "other"  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a node made fast must stay frozen")


def test_the_json_text_as_utf8_bytes_parses_the_same() -> None:
    raw = _raw().replace('"Ada"', '"Ad\\u00e9 \\u4e2d \\ud83d\\ude00"')  # escapes, as JSON.stringify may write
    text = json.dumps(json.loads(raw), ensure_ascii=False)  # and the same characters written raw
    assert parse_walk(text.encode("utf-8")) == parse_walk(text) == parse_walk(raw)


def test_slices_are_kept_as_bytes_unless_one_cuts_a_surrogate_pair() -> None:
    from pagelens.browser.walker import _joined, _utf8

    text = '{"S": ["caf\u00e9 \U0001f600"]}'
    parts = [_utf8(text[:5]), _utf8(text[5:])]
    assert all(isinstance(p, bytes) for p in parts) and _joined(parts) == text.encode("utf-8")
    # a JavaScript slice can end between the two halves of a pair: each half comes as a lone surrogate
    cut = ['{"S": ["\ud83d', '\ude00"]}']
    parts = [_utf8(p) for p in cut]
    assert isinstance(parts[0], str) and isinstance(parts[1], str)
    assert _joined([_utf8('{"a": 1, '), *parts]) == '{"a": 1, ' + "".join(cut)  # the string, as before
