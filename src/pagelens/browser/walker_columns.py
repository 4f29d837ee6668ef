"""The walker's column format, decoded into :class:`~pagelens.types.Node` values (no browser here).

Column format of one walk (``i`` is a node's position; nodes are in pre-order):

* ``S`` string table; ``R[i]``/``N[i]`` role/name string index; ``V``/``D`` (node, value /
  description string index) pairs; ``P[i]`` distance back to the parent (0 for a root);
* ``F[i]`` the element's number in its document (0 for text), ``B`` the boxes in document
  coordinates, four numbers per node except those with flag 16 (its parent's box);
  ``G[i]`` flags: 1 rendered, 2 clickable, 4 ``visibility:hidden``, 16 box of the parent,
  bits 8-10 the concealment code (:data:`_CONCEAL`), 2048 inside an overlay the page laid over its content;
* ``Q`` flat triples (node, property-name string index, value), in emission order;
* ``X`` pairs (iframe node, element number) of iframes whose document could not be read
  in-page (cross-origin); ``DOCS`` quintuples (root node, token, url, scrollX, scrollY);
* ``W`` the nodes whose backend id the observer asks for; ``LD`` iframe nodes whose document
  was still loading when walked (reported in ``frame_errors``); ``FL`` (start, end) ranges of the
  nodes emitted inside an out-of-flow box (``position`` fixed, sticky or absolute, at least
  150 x 60 px), innermost first: :attr:`~pagelens.types.Node.floating` numbers the outermost ones.

:func:`parse_walk` is the edge that reads the raw JSON string; :func:`build_nodes` merges the
parsed walks (cross-origin frames spliced under their ``<iframe>`` node) into document order.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from pagelens.types import ElementId, Node, PropValue

MAIN = "main"
_CONCEAL = ("", "offscreen", "tiny", "transparent", "same-colour", "covered")
_TEXT_ROLES = frozenset({"StaticText", "ListMarker"})


def _json_loads() -> Callable[[str | bytes], Any]:
    try:
        import orjson  # the `fast` extra
    except ImportError:
        return json.loads
    return orjson.loads


_loads = _json_loads()


@dataclass(frozen=True, slots=True)
class Walk:
    """One frame's parsed columns (still positional; :func:`_build` makes the nodes). The numeric
    columns are typed arrays, not lists: a list holds an int object (28 bytes + its pointer) per
    number above 256, ~40 MB for the seven columns and boxes of a 155k-node page, alive while
    its nodes are built — the moment a big observation's memory peaks."""

    strings: list[str]
    parent: array[int]
    role: array[int]
    name: array[int]
    value: array[int]
    desc: array[int]
    ref: array[int]
    box: array[float]
    flags: array[int]
    props: dict[int, tuple[tuple[str, PropValue], ...]]  # node -> its properties (see _props)
    iframes: list[tuple[int, int]]  # (iframe node, element number) not walked in-page
    docs: list[tuple[int, str, str, float, float]]  # (root node, token, url, scroll x, scroll y)
    viewport: tuple[float, float]
    ms: float
    wanted: list[int]  # nodes whose CDP backend id the observer asked for (see _backend_ids)
    loading: list[int]  # iframe nodes whose document was still loading when walked
    floats: list[int]  # per node: the number (1-based, this walk) of the outermost out-of-flow box holding it


def _props(q: list[Any], strings: list[str]) -> dict[int, tuple[tuple[str, PropValue], ...]]:
    """Each node's (name, value) properties from the flat triples. Most nodes of a big page carry
    one of a few combinations ("focusable", "level 2", "selected false" ...): a combination with
    no string value is one shared tuple, not a tuple per node (the observation is what stays
    in memory while focus runs)."""
    lists: dict[int, list[tuple[str, PropValue]]] = {}
    for k in range(0, len(q) - 2, 3):
        v = q[k + 2]
        if isinstance(v, (bool, int, float, str)):
            lists.setdefault(int(q[k]), []).append((strings[q[k + 1]], v))
    shared: dict[tuple[object, ...], tuple[tuple[str, PropValue], ...]] = {}
    out: dict[int, tuple[tuple[str, PropValue], ...]] = {}
    for node, pairs in lists.items():
        got = tuple(pairs)
        if not any(isinstance(v, str) for _, v in pairs):
            key = tuple((n, type(v), v) for n, v in pairs)  # True == 1: the type tells them apart
            got = shared.setdefault(key, got)
        out[node] = got
    return out


def parse_walk(raw: str | bytes) -> Walk:
    """Parse the walker's JSON text, a string or its UTF-8 bytes (the edge: nothing past here sees
    raw columns)."""
    d: dict[str, Any] = _loads(raw)
    strings: list[str] = d["S"]
    props = _props(d.pop("Q"), strings)  # (each column leaves the parsed dict once converted: freed as we go)
    x: list[int] = d["X"]
    docs_raw: list[Any] = d["DOCS"]
    docs = [(int(docs_raw[k]), strings[docs_raw[k + 1]], strings[docs_raw[k + 2]], float(docs_raw[k + 3]),
             float(docs_raw[k + 4])) for k in range(0, len(docs_raw) - 4, 5)]
    vp = d.get("vp") or [1280, 720]
    # undo the compact encoding (see walker.js emit): absolute parents, dense values and boxes
    dp: list[int] = d.pop("P")
    parent = array("q", [i - x if x else -1 for i, x in enumerate(dp)])
    n = len(dp)
    del dp
    value = array("q", [-1]) * n
    vv: list[int] = d.pop("V")
    for k in range(0, len(vv) - 1, 2):
        value[vv[k]] = vv[k + 1]
    desc = array("q", [-1]) * n
    dd: list[int] = d.pop("D")
    for k in range(0, len(dd) - 1, 2):
        desc[dd[k]] = dd[k + 1]
    flags = array("q", d.pop("G"))
    packed = array("d", d.pop("B"))
    box = array("d", [0.0]) * (4 * n)
    j = 0
    for i in range(n):
        if flags[i] & 16:
            p = 4 * parent[i]
            box[4 * i: 4 * i + 4] = box[p: p + 4]
        else:
            box[4 * i: 4 * i + 4] = packed[j: j + 4]
            j += 4
    del packed, vv, dd
    role, name, ref = array("q", d.pop("R")), array("q", d.pop("N")), array("q", d.pop("F"))
    return Walk(strings, parent, role, name, value, desc, ref, box, flags, props,
                 [(int(x[k]), int(x[k + 1])) for k in range(0, len(x) - 1, 2)], docs,
                 (float(vp[0]), float(vp[1])), float(d.get("ms", 0.0)), list(d.get("W") or ()),
                 list(d.get("LD") or ()), _floats(d.get("FL") or (), n))


def _floats(ranges: Any, n: int) -> list[int]:
    """Per node, the number of the outermost ``FL`` range holding it (0: none). Ranges nest or are disjoint."""
    out = [0] * n if ranges else []
    spans = sorted((int(ranges[k]), -int(ranges[k + 1])) for k in range(0, len(ranges) - 1, 2))
    box, end = 0, -1
    for lo, neg in spans:
        hi = min(-neg, n)
        if lo < end:
            continue  # inside an outer box already numbered
        box += 1
        end = hi
        for i in range(max(lo, 0), hi):
            out[i] = box
    return out


#: :class:`Node`'s fields, in order, as :func:`_node_maker` sets them.
_NODE_FIELDS = ("index", "parent", "depth", "eid", "role", "name", "value", "description", "properties", "frame",
                "backend_id", "visible", "rendered", "clickable", "ignored", "concealed", "ref", "overlay", "floating")


def _node_maker() -> Callable[..., Node]:
    """A constructor of :class:`Node` with its positional arguments, 2-4x faster than its own.

    A frozen dataclass' ``__init__`` sets each of its 19 fields through ``object.__setattr__``
    (a generic attribute lookup per field), 3-5 µs a node: ~0.5 s of a 155,000-node page's build
    and a tenth of a 1,500-node page's observation in Python. This one writes the slots through
    their descriptors (what ``object.__setattr__`` ends up calling). The value is the same
    ``Node`` (equal, same hash, same type, same pickling). Should ``Node``'s fields ever differ
    from :data:`_NODE_FIELDS`, ``Node`` itself is returned."""
    if tuple(f.name for f in fields(Node)) != _NODE_FIELDS:
        return Node
    new = object.__new__
    (s_index, s_parent, s_depth, s_eid, s_role, s_name, s_value, s_description, s_properties, s_frame, s_backend_id,
     s_visible, s_rendered, s_clickable, s_ignored, s_concealed, s_ref, s_overlay, s_floating) = (
        Node.__dict__[f].__set__ for f in _NODE_FIELDS)

    def make(index: int, parent: int | None, depth: int, eid: ElementId | None, role: str, name: str,
             value: str | None, description: str, properties: tuple[tuple[str, PropValue], ...], frame: str,
             backend_id: int | None, visible: bool, rendered: bool, clickable: bool, ignored: bool, concealed: str,
             ref: str | None, overlay: bool, floating: int) -> Node:
        node: Node = new(Node)
        s_index(node, index)
        s_parent(node, parent)
        s_depth(node, depth)
        s_eid(node, eid)
        s_role(node, role)
        s_name(node, name)
        s_value(node, value)
        s_description(node, description)
        s_properties(node, properties)
        s_frame(node, frame)
        s_backend_id(node, backend_id)
        s_visible(node, visible)
        s_rendered(node, rendered)
        s_clickable(node, clickable)
        s_ignored(node, ignored)
        s_concealed(node, concealed)
        s_ref(node, ref)
        s_overlay(node, overlay)
        s_floating(node, floating)
        return node

    return make


make_node = _node_maker()


def build_nodes(main: Walk, parsed: list[tuple[Any, Walk]], index_of: dict[int, int],
           spliced: dict[tuple[int, int], Walk], ids: Any, backend: dict[int, int] | None = None) -> list[Node]:
    """Merge the walks into document-ordered :class:`Node` values (cross-origin frames spliced).

    The hot loop of a big page (one iteration per node): per-walk lookups are hoisted, the
    :class:`Node` is built with positional arguments (its field order), and a node's frame,
    token and scroll are inherited by parent position instead of rebuilt."""
    out: list[Node] = []
    append = out.append
    main_token = main.docs[0][1] if main.docs else ""
    id_for = ids.id_for
    text_roles = _TEXT_ROLES
    conceal_names = _CONCEAL
    node_of = make_node

    def emit_walk(w: Walk, parent: int | None, depth0: int, top: bool) -> None:
        wi = index_of[id(w)]
        s = w.strings
        doc_roots = {root: (tok, sx, sy) for root, tok, _, sx, sy in w.docs}
        vw, vh = w.viewport
        n = len(w.parent)
        pos = [0] * n  # walk position -> Observation index
        depth = [0] * n
        doc_of = [0] * n  # walk position -> index into docs_info
        docs_info: list[tuple[str, str, str, float, float]] = [("", "", "", 0.0, 0.0)]  # (token, frame, id key, sx, sy)
        w_parent, w_role, w_name, w_value, w_desc, w_ref, w_box, w_flags = (
            w.parent, w.role, w.name, w.value, w.desc, w.ref, w.box, w.flags)
        props = w.props
        floats = w.floats
        float_base = 1000 * wi  # box numbers stay distinct across the walks of several frames
        back = (backend or {}) if w is main else {}
        roles = [s[r] for r in w_role]
        has_children = bool(spliced)
        for i in range(n):
            p = w_parent[i]
            if i in doc_roots:
                tok, dsx, dsy = doc_roots[i]
                docs_info.append((tok, MAIN if (top and tok == main_token) else f"w:{tok}", f"w:{tok}", dsx, dsy))
                d = doc_of[i] = len(docs_info) - 1
            else:
                d = doc_of[i] = doc_of[p]
            tok, frame, key, sx, sy = docs_info[d]
            if p < 0:
                par = parent
                dep = depth0
            else:
                par = pos[p]
                dep = depth[p] + 1
            depth[i] = dep
            role = roles[i]
            flags = w_flags[i]
            rendered = bool(flags & 1)
            visible = False
            if rendered:
                b4 = 4 * i
                bw = w_box[b4 + 2]
                bh = w_box[b4 + 3]
                if bw > 0 and bh > 0:
                    if frame == MAIN:
                        x = w_box[b4]
                        y = w_box[b4 + 1]
                        ix = min(x + bw, sx + vw) - max(x, sx)
                        iy = min(y + bh, sy + vh) - max(y, sy)
                        visible = ix > 0 and iy > 0 and ix * iy >= 0.5 * bw * bh
                    else:
                        visible = True
            ref = w_ref[i]
            eid: ElementId | None = None
            ref_s: str | None = None
            is_text = role in text_roles
            if ref and not is_text and role != "RootWebArea":
                eid = id_for(key, ref)
                ref_s = f"{tok}:{ref}"
            idx = len(out)
            pos[i] = idx
            v = w_value[i]
            dsc = w_desc[i]
            pr = props.get(i)
            append(node_of(
                idx, par, dep, eid, role, s[w_name[i]], None if v < 0 else s[v], "" if dsc < 0 else s[dsc],
                pr or (), frame, back.get(i), visible,
                rendered or is_text or role == "RootWebArea", bool(flags & 2), False, conceal_names[(flags >> 8) & 7],
                ref_s, bool(flags & 2048), (floats[i] + float_base) if floats and floats[i] else 0,
            ))
            if has_children:
                child = spliced.get((wi, i))
                if child is not None:
                    emit_walk(child, idx, dep + 1, False)

    emit_walk(main, None, 0, True)
    return out
