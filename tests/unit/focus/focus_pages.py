"""Shared pieces of the synthetic-page focus tests: typed renderings, prose filler and ``default``'s view of a page."""

from __future__ import annotations

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesRetriever
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import ElementId, Line, Rendering


def typed_rendering(specs: list[tuple[int, str, str]]) -> Rendering:
    """(depth, role, name) -> typed lines, parents from depth."""
    lines: list[Line] = []
    stack: list[tuple[int, int]] = []
    for no, (depth, role, name) in enumerate(specs):
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parent = stack[-1][1] if stack else None
        eid = ElementId(str(no)) if role not in ("StaticText", "generic") else None
        head = f"[{eid}] {role} '{name}'" if eid else f"{role} '{name}'"
        lines.append(Line(no=no, depth=depth, text=head, node=no, role=role, eid=eid, parent=parent, name=name))
        stack.append((depth, no))
    return Rendering(lines=tuple(lines))


#: Sixty lines of prose that share no word with the tests' goals (they give the budget something to drop).
FILLER = [f"\t\tStaticText 'Filler sentence number {i} about something else entirely, with many words.'"
          for i in range(60)]


def default_view(page: list[str], goal: str) -> tuple[str, float]:
    """(focused text, pruning) of ``default`` on a page given as tab-indented tree lines, no defense."""
    res = focus(rendering_from_text("\n".join(page)), FocusQuery(goal), RulesRetriever(), defense=False)
    assert res.error is None
    return res.text(), res.pruning
