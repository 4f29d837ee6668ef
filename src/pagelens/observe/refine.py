"""AgentOccam-style refined rendering: fewer, denser lines with the same ids.

* noisy properties stripped (``clickable``, ``visible``, ``url``, ``selected=false`` ...);
* consecutive text pieces of one parent merged; a sibling repeating the previous one dropped;
* tables as Markdown rows (``[7] row | Bayern | 34 | 82 |``), with the controls inside a
  row kept as its children so they can still be targeted;
* option lists folded into their combobox/listbox (``options: S | *M | L``) and menu items
  into their menu (``[31] Profile | [32] Log out``), ids kept;
* list bullets dropped.
"""

from __future__ import annotations

from dataclasses import replace

from pagelens.config import RenderConfig
from pagelens.observe.render import (
    IGNORED_ROLES,
    clean_text,
    format_property,
    infer_labels,
    node_states,
    node_url,
    quote,
)
from pagelens.types import Line, Node, Observation, Rendering

NOISY = frozenset({"url", "focusable", "hasPopup", "roledescription", "atomic", "live", "relevant", "busy", "autocomplete"})
TABLE_ROLES = frozenset({"table", "grid", "treegrid"})
ROW_ROLES = frozenset({"row"})
OPTION_PARENTS = frozenset({"combobox", "listbox", "MenuListPopup"})
MENU_ROLES = frozenset({"menu", "menubar"})
CONTROL_IN_CELL = frozenset({
    "link", "button", "textbox", "checkbox", "radio", "combobox", "searchbox", "spinbutton", "switch", "menuitem",
})


def _props(node: Node) -> list[str]:
    out = []
    for k, v in node.properties:
        if k in NOISY or (k == "selected" and v in (False, "false")):
            continue
        shown = format_property(k, v)
        if shown is not None:
            out.append(shown)
    return out


def _head(node: Node, name: str) -> str:
    head = node.role if (node.role == "generic" and not name) else f"{node.role} {quote(name)}"
    return f"[{node.eid}] {head}" if node.eid is not None else head


def refine(obs: Observation, config: RenderConfig | None = None) -> Rendering:
    config = config or RenderConfig()
    nodes = obs.nodes
    n = len(nodes)
    children: list[list[int]] = [[] for _ in range(n)]
    for node in nodes:
        if node.parent is not None:
            children[node.parent].append(node.index)
    lines: list[Line] = []

    def text_of(i: int) -> str:
        node = nodes[i]
        if node.name:
            return clean_text(node.name, config.max_name_chars)
        parts = [text_of(c) for c in children[i]]
        return " ".join(p for p in parts if p)

    def emit(node: Node, depth: int, parent_line: int | None, text: str, name: str) -> int:
        no = len(lines)
        lines.append(Line(no=no, depth=depth, text=text, node=node.index, role=node.role, eid=node.eid,
                          parent=parent_line, name=name,
                          value=clean_text(node.value, config.max_name_chars) if node.value is not None else None,
                          states=node_states(node), url=node_url(node), frame=node.frame))
        return no

    def controls_under(i: int, depth: int, parent_line: int | None) -> None:
        for c in children[i]:
            cn = nodes[c]
            if cn.role in CONTROL_IN_CELL and cn.eid is not None:
                name = clean_text(cn.name, config.max_name_chars)
                emit(cn, depth, parent_line, ", ".join([_head(cn, name), *_props(cn)]), name)
            else:
                controls_under(c, depth, parent_line)

    # explicit stack: (node index, depth, parent line, previous sibling text holder)
    stack: list[tuple[int, int, int | None]] = [(0, 0, None)] if n else []
    child_parent: int | None
    while stack:
        i, depth, parent_line = stack.pop()
        node = nodes[i]
        role = node.role
        name = clean_text(node.name, config.max_name_chars)
        kids = children[i]
        if role in IGNORED_ROLES or role == "ListMarker":
            continue
        if role in ROW_ROLES:
            cells = [text_of(c) for c in kids]
            md = "| " + " | ".join(c.replace("|", "/") for c in cells) + " |"
            head = f"[{node.eid}] row {md}" if node.eid is not None else f"row {md}"
            no = emit(node, depth, parent_line, head, md)
            controls_under(i, depth + 1, no)
            continue
        if role in OPTION_PARENTS and any(nodes[c].role in ("option", "MenuListPopup") for c in kids):
            opts = []
            for c in kids:
                targets = children[c] if nodes[c].role == "MenuListPopup" else [c]
                for o in targets:
                    on = nodes[o]
                    if on.role == "option":
                        mark = "*" if on.prop("selected") in (True, "true") else ""
                        opts.append(mark + clean_text(on.name, 80))
            if role == "MenuListPopup":
                continue
            parts = [_head(node, name)]
            if node.value is not None:
                parts[0] += f" value={quote(clean_text(node.value, 200))}"
            parts += _props(node)
            parts.append("options: " + " | ".join(opts))
            emit(node, depth, parent_line, ", ".join(parts), name)
            continue
        if role in MENU_ROLES and kids and all(nodes[c].role.startswith("menuitem") for c in kids):
            items = " | ".join(f"[{nodes[c].eid}] {clean_text(nodes[c].name, 80)}" for c in kids)
            emit(node, depth, parent_line, f"{_head(node, name)}: {items}", name)
            continue
        if role == "StaticText":
            text = clean_text(node.name, config.max_name_chars)
            parent = nodes[node.parent] if node.parent is not None else None
            if not text or (parent is not None and text in clean_text(parent.name)):
                continue
            prev = lines[-1] if lines else None
            if prev is not None and prev.role == "StaticText" and prev.depth == depth and prev.parent == parent_line:
                if prev.name == text:
                    continue  # a repeated description
                merged = prev.name + " " + text
                lines[-1] = replace(prev, text=quote(merged).join(("StaticText ", "")), name=merged)
                continue
            emit(node, depth, parent_line, f"StaticText {quote(text)}", text)
            continue
        skip = role in ("none", "Ignored") or (role == "generic" and not name and not _props(node))
        if not skip:
            prev = lines[-1] if lines else None
            parts = [_head(node, name)]
            if node.value is not None:
                parts[0] += f" value={quote(clean_text(node.value, config.max_name_chars))}"
            parts += _props(node)
            text = ", ".join(parts)
            if prev is not None and prev.parent == parent_line and prev.text == text and node.eid is None:
                continue
            no = emit(node, depth, parent_line, text, name)
            child_depth, child_parent = depth + 1, no
        else:
            child_depth, child_parent = depth, parent_line
        for c in reversed(kids):
            stack.append((c, child_depth, child_parent))
    return Rendering(lines=tuple(infer_labels(lines, obs.nodes)), refined=True)
