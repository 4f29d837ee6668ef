"""Text the accessibility tree exposes but a sighted user does not see (pure, over a DOM snapshot).

Part of the provenance of a line (see :mod:`pagelens.observe.provenance`): an injection often
hides from the human and speaks only to the agent. From one ``DOMSnapshot.captureSnapshot``
document with the computed styles in :data:`STYLES`, :func:`concealment` names, per backend node
id, why its text is not seen:

* ``offscreen`` — its box lies entirely left of or above the document;
* ``tiny`` — it sits inside a box of at most 2 px in one dimension that clips its content
  (the "visually hidden" pattern);
* ``transparent`` — its effective opacity (the product over its ancestors) or its text colour's
  alpha is (near) zero;
* ``same-colour`` — its text colour is (near) the colour of the nearest opaque background;
* ``covered`` — an opaque box painted later (an overlay, a modal, a banner) that is neither its
  ancestor nor its descendant contains its whole box: the text is there, under something else
  (needs the snapshot's ``paintOrders``; without them nothing is marked covered).

Nothing here needs a browser: the snapshot is plain data. The cost is one pass over the layout.
"""

from __future__ import annotations

import re
from typing import Any

#: Computed styles to request, in this order (``visibility`` first: extract reads it by position).
STYLES = ("visibility", "opacity", "color", "background-color", "overflow-x")
_RGBA = re.compile(r"rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)")
_WHITE = (255.0, 255.0, 255.0, 1.0)


def _colour(raw: str) -> tuple[float, float, float, float] | None:
    m = _RGBA.match(raw.strip())
    if not m:
        return None
    r, g, b = (float(m.group(i)) for i in (1, 2, 3))
    a_raw = m.group(4)
    a = 1.0 if a_raw is None else (float(a_raw[:-1]) / 100 if a_raw.endswith("%") else float(a_raw))
    return r, g, b, a


def _float(raw: str, default: float) -> float:
    try:
        return float(raw)
    except ValueError:
        return default


def concealment(doc: dict[str, Any], strings: list[str]) -> dict[int, str]:
    """backend node id -> reason its content is not seen (only concealed nodes are listed)."""
    nodes = doc["nodes"]
    backend: list[int] = nodes["backendNodeId"]
    parents: list[int] = nodes.get("parentIndex", [])
    layout = doc["layout"]
    n = len(backend)
    # per DOM node index: box and styles (nodes without a layout object inherit from their parent)
    box: dict[int, tuple[float, float, float, float]] = {}
    style: dict[int, list[str]] = {}
    for node_index, bounds, styles in zip(layout["nodeIndex"], layout["bounds"], layout["styles"]):
        box[node_index] = tuple(float(v) for v in bounds[:4])  # type: ignore[assignment]
        style[node_index] = [strings[s] if 0 <= s < len(strings) else "" for s in styles]

    def get(i: int, k: int) -> str:
        st = style.get(i)
        return st[k] if st is not None and k < len(st) else ""

    opacity = [1.0] * n
    background: list[tuple[float, float, float, float]] = [_WHITE] * n
    clipped_tiny = [False] * n
    out: dict[int, str] = {}
    for i in range(n):  # snapshot nodes are in document order: a parent precedes its children
        p = parents[i] if i < len(parents) else -1
        has_parent = 0 <= p < i
        op = _float(get(i, 1), 1.0) if i in style else 1.0
        opacity[i] = op * (opacity[p] if has_parent else 1.0)
        bg = _colour(get(i, 3)) if i in style else None
        background[i] = bg if bg is not None and bg[3] > 0.5 else (background[p] if has_parent else _WHITE)
        b = box.get(i)
        tiny_here = (b is not None and (b[2] <= 2 or b[3] <= 2) and get(i, 4) not in ("", "visible"))
        clipped_tiny[i] = tiny_here or (clipped_tiny[p] if has_parent else False)
        reason = ""
        if b is not None and (b[0] + b[2] <= 0 or b[1] + b[3] <= 0) and (b[2] > 0 or b[3] > 0):
            reason = "offscreen"
        elif clipped_tiny[i]:
            reason = "tiny"
        elif opacity[i] < 0.05:
            reason = "transparent"
        elif i in style:
            fg = _colour(get(i, 2))
            if fg is not None:
                if fg[3] < 0.05:
                    reason = "transparent"
                else:
                    if max(abs(fg[k] - background[i][k]) for k in range(3)) <= 8:
                        reason = "same-colour"
        if reason:
            out[backend[i]] = reason
    _covered(backend, parents, layout, box, background, style, out)
    return out


#: An overlay is an opaque box at least this large (CSS px): small opaque boxes (buttons, badges)
#: cover nothing that matters; at most this many of the latest-painted overlays are considered.
_OVERLAY_MIN_W, _OVERLAY_MIN_H, _MAX_OVERLAYS = 150.0, 60.0, 16


def _covered(backend: list[int], parents: list[int], layout: dict[str, Any],
             box: dict[int, tuple[float, float, float, float]], background: list[tuple[float, float, float, float]],
             style: dict[int, list[str]], out: dict[int, str]) -> None:
    paint = layout.get("paintOrders")
    if not paint:
        return
    order = dict(zip(layout["nodeIndex"], paint))
    overlays = []
    for i, b in box.items():
        st = style.get(i)
        bg = _colour(st[3]) if st is not None and len(st) > 3 else None
        if bg is not None and bg[3] > 0.9 and b[2] >= _OVERLAY_MIN_W and b[3] >= _OVERLAY_MIN_H and i in order:
            overlays.append((order[i], i, b))
    if not overlays:
        return
    overlays = sorted(overlays, reverse=True)[:_MAX_OVERLAYS]

    def chain(i: int) -> set[int]:
        seen: set[int] = set()
        while 0 <= i < len(parents) and i not in seen and len(seen) < 512:
            seen.add(i)
            i = parents[i]
        return seen

    overlay_ids = {i for _, i, _ in overlays}
    for i, b in box.items():
        if backend[i] in out or b[2] <= 0 or b[3] <= 0 or i in overlay_ids:
            continue
        mine = order.get(i)
        if mine is None:
            continue
        ancestors: set[int] | None = None
        for p_order, j, ob in overlays:
            if p_order <= mine:
                break  # sorted: no later overlay is painted above this box
            if not (ob[0] <= b[0] and ob[1] <= b[1] and b[0] + b[2] <= ob[0] + ob[2] and b[1] + b[3] <= ob[1] + ob[3]):
                continue
            if ancestors is None:
                ancestors = chain(i)
            if j in ancestors or i in chain(j):
                continue  # its own container, or inside it
            out[backend[i]] = "covered"
            break
