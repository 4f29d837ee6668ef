"""The blocks ``expand`` and ``search_page`` answer with, in the server's terse text (pure).

Views, deltas and folds come from :class:`~pagelens.focus.delta.ViewTracker` with
``compact=True, terse=True``: one space per nesting level, ``= [A] +N`` folds, no ``clickable``
on a control, a placeholder as ``[p7] …42`` and a text node as its quoted text — each line
made from its typed values (:meth:`~pagelens.focus.delta.formats.Shown.own`), never by
rewriting text. A recovery's lines (:class:`~pagelens.focus.recover.RecoveredLine`) are sent
the same way, without what the client has (:func:`block_lines`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from pagelens.focus.delta.formats import Shown, without_value_echo

if TYPE_CHECKING:
    from pagelens.focus.recover import Recovery
    from pagelens.types import Rendering

__all__ = ["block_lines", "terse_block"]


def block_lines(recovery: Recovery, rendering: Rendering, known: Mapping[str, str] | None = None) -> list[Shown]:
    """The recovered lines the client is sent: ``known`` maps the element ids of its last view to
    their lines as it has them (unindented, ``visible`` marks off).

    Left out: a line the client has by id that only leads to the lines under it (an ancestor
    shown for context, or a match whose descendants match too), the page's root line, and a
    field's text node that only repeats the field's value. (A match the client has is sent whole:
    sent as ``= [12]`` it broke a client whose copy had missed a fold against an earlier view.)"""
    known = known or {}
    by_no = {ln.no: ln for ln in rendering.lines}
    lines = without_value_echo([Shown(ln.depth, ln.text, str(ln.eid) if ln.eid is not None else None,
                                      src.role if (src := by_no.get(ln.no)) is not None else "")
                                for ln in recovery.lines])
    out = []
    for k, ln in enumerate(lines):
        leads = k + 1 < len(lines) and lines[k + 1].depth > ln.depth
        has = ln.eid is not None and ln.eid in known
        if leads and (has or (ln.role == "RootWebArea" and ln.depth == 0)):
            continue  # the client has it, by id, in its copy
        out.append(ln)
    return out


def terse_block(recovery: Recovery, rendering: Rendering, known: Mapping[str, str] | None = None) -> str:
    """:func:`block_lines` as text: nested by single spaces, each line in its terse form."""
    return "\n".join(ln.sent(True, terse=True) for ln in block_lines(recovery, rendering, known))
