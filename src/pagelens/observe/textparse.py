"""Parse an already-rendered tree (ours, or BrowserGym's ``axtree_txt``) back into lines.

This lets every retriever work on text produced elsewhere — a BrowserGym observation, a
recorded fixture, a unit test — through the same :class:`~pagelens.types.Rendering` value.
"""

from __future__ import annotations

import re

from pagelens.types import ElementId, Line, Rendering

# "[12] button 'Add'" | "[a3] link "x"" | "StaticText 'foo'" | "generic"
_LINE = re.compile(r"^(?:\[(?P<eid>[^\]\s]+)\]\s+)?(?P<role>[A-Za-z][\w-]*)(?:\s+(?P<q>['\"])(?P<name>.*?)(?P=q)(?=$|,|\s+value=))?")


def rendering_from_text(text: str) -> Rendering:
    """Build a :class:`Rendering` from tab-indented lines.

    Depth is the number of leading tabs; the parent of a line is the nearest previous line
    with a smaller depth. Node indexes are the line numbers (there is no DOM behind them).
    """
    lines: list[Line] = []
    stack: list[tuple[int, int]] = []  # (depth, line no)
    for raw in text.splitlines():
        if not raw.strip():
            continue
        stripped = raw.lstrip("\t")
        depth = len(raw) - len(stripped)
        stripped = stripped.strip()
        m = _LINE.match(stripped)
        role = m.group("role") if m else "StaticText"
        eid = ElementId(m.group("eid")) if m and m.group("eid") else None
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parent = stack[-1][1] if stack else None
        no = len(lines)
        name = (m.group("name") or "") if m else stripped
        lines.append(Line(no=no, depth=depth, text=stripped, node=no, role=role, eid=eid, parent=parent, name=name))
        stack.append((depth, no))
    return Rendering(lines=tuple(lines))
