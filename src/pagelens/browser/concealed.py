"""Text the accessibility tree exposes but a sighted user does not see (pure, over a DOM snapshot).

Part of the provenance of a line (see :mod:`pagelens.observe.provenance`): an injection often
hides from the human and speaks only to the agent. From one ``DOMSnapshot.captureSnapshot``
document with the computed styles in :data:`STYLES`, :func:`concealment` names, per backend node
id, why its text is not seen:

* ``offscreen`` — its box lies entirely left of or above the document;
* ``tiny`` — it sits inside a box of at most 2 px in one dimension that clips its content
  (the "visually hidden" pattern), inside a clip / clip-path that leaves nothing or a transform
  that scales it to nothing, or its own font is under 3 px (``font-size:0``);
* ``offscreen`` also covers a ``text-indent`` that pushes the text out of its box;
* ``transparent`` — its effective opacity (the product over its ancestors) or its text colour's
  alpha is (near) zero;
* ``same-colour`` — its text colour is (near) the colour of the nearest opaque background (a contrast
  ratio under :data:`FAINT`: light grey on white is still read, #f6f6f6 on white is not);
* ``covered`` — an opaque box painted later (an overlay, a modal, a banner) that is neither its
  ancestor nor its descendant contains its whole box: the text is there, under something else
  (needs the snapshot's ``paintOrders``; without them nothing is marked covered).

Nothing here needs a browser: the snapshot is plain data. The cost is one pass over the layout.
"""

from __future__ import annotations

import re
from typing import Any

#: Computed styles to request, in this order (``visibility`` first: extract reads it by position).
STYLES = ("visibility", "opacity", "color", "background-color", "overflow-x", "font-size", "clip-path", "clip",
          "text-indent", "transform", "position", "z-index")
_FONT, _CLIP_PATH, _CLIP, _INDENT, _TRANSFORM, _POSITION, _Z = range(5, 12)
#: A clip-path that leaves nothing to see (inset of half the box or more, a zero circle or point polygon).
_CLIP_NONE = re.compile(r"^(?:inset\(\s*(?:[5-9]\d|100)%|circle\(\s*0(?:px|%)?[\s)]|ellipse\(\s*0(?:px|%)?[\s)]|"
                        r"polygon\(\s*0(?:px|%)?\s+0(?:px|%)?\s*\)$)")
_SCALED_AWAY = re.compile(r"^matrix\((?:0,|(?:[^,]+, ){3}0,)")
_NUM = re.compile(r"-?[\d.]+")
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
        hid = text_hidden(get, i, b) if i in style else ""
        clipped_tiny[i] = tiny_here or hid == "tiny" or (clipped_tiny[p] if has_parent else False)
        reason = ""
        if (b is not None and (b[0] + b[2] <= 0 or b[1] + b[3] <= 0) and (b[2] > 0 or b[3] > 0)) or hid == "offscreen":
            reason = "offscreen"
        elif clipped_tiny[i] or hid == "small":
            reason = "tiny"
        elif opacity[i] < 0.05:
            reason = "transparent"
        elif i in style:
            fg = _colour(get(i, 2))
            if fg is not None:
                if fg[3] < 0.05:
                    reason = "transparent"
                else:
                    if max(abs(fg[k] - background[i][k]) for k in range(3)) <= 40 and faint(fg, background[i]):
                        reason = "same-colour"
        if reason:
            out[backend[i]] = reason
    _covered(backend, parents, layout, box, background, style, out)
    return out


#: A contrast ratio (WCAG 2) under this between a text's colour and its background: nobody reads it.
FAINT = 1.15


def _lum(c: tuple[float, float, float]) -> float:
    def f(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else float(((v + 0.055) / 1.055) ** 2.4)
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2])


def faint(fg: tuple[float, float, float, float], bg: tuple[float, float, float, float]) -> bool:
    """Whether text of colour ``fg`` (its alpha blended over ``bg``) has a contrast ratio under :data:`FAINT`."""
    a = fg[3]
    mix = (a * fg[0] + (1 - a) * bg[0], a * fg[1] + (1 - a) * bg[1], a * fg[2] + (1 - a) * bg[2])
    l1, l2 = _lum(mix), _lum(bg[:3])
    return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05) < FAINT


def text_hidden(get: Any, i: int, b: tuple[float, float, float, float] | None) -> str:
    """Text hidden by CSS that the box and colour tests miss (mirrors ``walker.js`` ``textHidden``): "tiny"
    (a clip or clip-path leaving nothing, a transform scaling to nothing: the whole subtree), "small" (its
    own font under 3 px; children set their own), "offscreen" (a text-indent out of its box), else ""."""
    if _float(get(i, _FONT).removesuffix("px"), 16.0) < 3:
        return "small"
    cp = get(i, _CLIP_PATH)
    if cp and cp != "none" and _CLIP_NONE.match(cp):
        return "tiny"
    if get(i, _POSITION) in ("absolute", "fixed") and get(i, _CLIP).startswith("rect("):
        v = [float(x) for x in _NUM.findall(get(i, _CLIP))]
        if len(v) == 4 and (v[2] - v[0] <= 2 or v[1] - v[3] <= 2):
            return "tiny"
    ti = get(i, _INDENT)
    if ti and ti != "0px" and b is not None:
        n = _float(ti.removesuffix("px"), 0.0)
        if (n < 0 and b[0] + n + b[2] <= 0) or (n > 0 and n >= b[2] and get(i, 4) not in ("", "visible")):
            return "offscreen"
    if b is not None and (b[2] == 0 or b[3] == 0) and _SCALED_AWAY.match(get(i, _TRANSFORM)):
        return "tiny"
    return ""


#: Landmarks and widgets that are the page's own chrome even when fixed on screen (never an overlay).
_CHROME_TAGS = frozenset({"HEADER", "NAV", "FOOTER", "MAIN"})
_CHROME_ROLES = frozenset({"banner", "navigation", "contentinfo", "main", "menubar", "menu", "listbox", "tooltip",
                           "search"})
#: What an overlay may not hold (a modal's own <header>/<footer> are no landmarks there).
_INNER_TAGS = frozenset({"NAV", "MAIN"})
_INNER_ROLES = frozenset({"banner", "navigation", "main", "menubar", "search"})
_OV_SHARE, _OV_SMALL = 0.5, 60


def overlay_nodes(doc: dict[str, Any], strings: list[str], viewport: tuple[float, float, float, float]) -> set[int]:
    """Backend node ids inside an overlay the page laid over its content (mirrors ``walker.js`` ``markOverlays``):
    a ``position:fixed`` box at least :data:`_BAR_MIN_W` x :data:`_BAR_MIN_H`, or an absolutely positioned opaque
    one with a z-index, at least :data:`_OVERLAY_MIN_W` x :data:`_OVERLAY_MIN_H`, mostly inside ``viewport`` (x, y, w, h in document
    coordinates), holding no landmark or menu and not most of the document."""
    nodes = doc["nodes"]
    backend: list[int] = nodes["backendNodeId"]
    parents: list[int] = nodes.get("parentIndex", [])
    names: list[int] = nodes.get("nodeName", [])
    attrs: list[list[int]] = nodes.get("attributes", [])
    layout = doc["layout"]
    n = len(backend)

    def text(k: int) -> str:
        return strings[k] if 0 <= k < len(strings) else ""

    cands: dict[int, bool] = {}
    vx, vy, vw, vh = viewport
    for node_index, bounds, styles in zip(layout["nodeIndex"], layout["bounds"], layout["styles"]):
        if len(styles) <= _Z:
            continue
        pos = text(styles[_POSITION])
        if pos not in ("fixed", "absolute"):
            continue
        x, y, w, h = (float(v) for v in bounds[:4])
        if (w < _BAR_MIN_W or h < _BAR_MIN_H) if pos == "fixed" else (w < _OVERLAY_MIN_W or h < _OVERLAY_MIN_H):
            continue
        if pos == "absolute":
            bg = _colour(text(styles[3]))
            if _float(text(styles[_Z]), 0.0) <= 0 or bg is None or bg[3] <= 0.5:
                continue
        ix = min(x + w, vx + vw) - max(x, vx)
        iy = min(y + h, vy + vh) - max(y, vy)
        if ix > 0 and iy > 0 and ix * iy >= 0.5 * w * h:
            cands[node_index] = True
    if not cands:
        return set()
    # bottom-up: subtree sizes and whether a subtree holds chrome (children follow their parent)
    size = [1] * n
    chrome = [False] * n  # the node is chrome itself
    holds = [False] * n  # its subtree holds navigation or the main content
    for i in range(n):
        tag = text(names[i]) if i < len(names) else ""
        role = ""
        if i < len(attrs):
            a = attrs[i]
            for k in range(0, len(a) - 1, 2):
                if text(a[k]) == "role":
                    role = text(a[k + 1]).strip().lower()
        chrome[i] = tag in _CHROME_TAGS or role in _CHROME_ROLES
        holds[i] = tag in _INNER_TAGS or role in _INNER_ROLES
    for i in range(n - 1, 0, -1):
        p = parents[i] if i < len(parents) else -1
        if 0 <= p < i:
            size[p] += size[i]
            holds[p] = holds[p] or holds[i]
    inside = [False] * n
    out: set[int] = set()
    for i in range(n):
        p = parents[i] if i < len(parents) else -1
        holds_page = size[i] > _OV_SMALL and size[i] > _OV_SHARE * n
        if (0 <= p < i and inside[p]) or (i in cands and not chrome[i] and not holds[i] and not holds_page):
            inside[i] = True
        if inside[i]:
            out.add(backend[i])
    return out


#: An overlay is an opaque box at least this large (CSS px): small opaque boxes (buttons, badges)
#: cover nothing that matters; at most this many of the latest-painted overlays are considered.
_OVERLAY_MIN_W, _OVERLAY_MIN_H, _MAX_OVERLAYS = 150.0, 60.0, 16
#: A box fixed to the viewport counts from this size (a thin cookie bar, a toast: ``walker.js`` BAR_W x BAR_H).
_BAR_MIN_W, _BAR_MIN_H = 120.0, 24.0


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
