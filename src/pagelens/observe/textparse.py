"""Parse an already-rendered tree (ours, or BrowserGym's ``axtree_txt``) back into lines.

This lets every retriever work on text produced elsewhere — a BrowserGym observation, a
recorded fixture, a unit test — through the same :class:`~pagelens.types.Rendering` value.
"""

from __future__ import annotations

import re
from typing import Any

from pagelens.types import ElementId, Line, Rendering

# "[12] button 'Add'" | "[a3] link "x"" | "StaticText 'foo'" | "generic"
_VALUE = re.compile(r"(?:^|,|\s)value='([^']*)'")
_URL = re.compile(r", url='([^']*)'")
_LABEL = re.compile(r" \(label\?: '([^']*)'\)")
_STATE = re.compile(r"^[A-Za-z][\w-]*(?:=(?:'[^']*'|[^',]*))?$")
_LINE = re.compile(r"^(?:\[(?P<eid>[^\]\s]+)\]\s+)?(?P<role>[A-Za-z][\w-]*)(?:\s+(?P<q>['\"])(?P<name>.*?)(?P=q)(?=$|,|\s+value=))?")


def _typed(text: str, head_end: int, role: str) -> dict[str, Any]:
    """value, states, url and inferred label of a rendered line (this module is the edge where
    foreign text becomes typed lines; nothing past it parses text)."""
    if role == "StaticText":
        return {}
    rest = text[head_end:]
    out: dict[str, Any] = {}
    if (m := _VALUE.search(rest)) is not None:
        out["value"] = m.group(1)
    if (m := _URL.search(rest)) is not None:
        out["url"] = m.group(1)
    if (m := _LABEL.search(rest)) is not None:
        out["label"] = m.group(1)
    states = tuple(p.strip() for p in _URL.sub("", _VALUE.sub("", _LABEL.sub("", rest))).split(",")
                   if _STATE.match(p.strip()))
    if states:
        out["states"] = states
    return out


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
        lines.append(Line(no=no, depth=depth, text=stripped, node=no, role=role, eid=eid, parent=parent, name=name,
                          **_typed(stripped, m.end() if m else len(stripped), role)))
        stack.append((depth, no))
    return Rendering(lines=tuple(lines))
