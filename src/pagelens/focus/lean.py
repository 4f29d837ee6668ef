"""A focused view's structural lines in fewer tokens: placeholders and ancestors shown short.

A focused view spends part of its tokens on lines no goal needs: the placeholders that stand for pruned runs
(``[p7] ... 42 lines pruned ...``, 10 tokens) and the ancestors kept only to hold the tree together
(:func:`pagelens.focus.linefmt.short_text`). A *lean* view renders them shorter, with the same ids:

* ``ph`` — a placeholder as ``[p7] …42`` (the form the MCP server sends, :mod:`pagelens.mcp.terse`; 5 tokens):
  its id and its count stay, so ``expand("p7")`` brings back the same lines (the placeholder map is by id);
* ``anc`` — an ancestor shown short keeps :data:`LEAN_WORDS` words of its name, and an unnamed one no ``''``
  (``[7] listitem``): its id, role and place in the tree stay;
* ``terse`` — a kept line in the terse form the MCP server and the compact delta already send
  (:meth:`pagelens.focus.delta.formats.Shown.own` with ``terse=True``, and the compact text's rule): a text node
  as its quoted text (``'Only 3 left'``), no ``clickable`` on a control (its role says it), no ``checked=false``
  on a checkbox or ``selected=false`` on an option; its id, role (but a text node's) and every other mark stay;
* ``nest`` — the view nested by one space per level instead of a tab (:attr:`pagelens.focus.apply.FocusResult.indent`;
  the compact delta's indentation): a run of tabs costs two tokens where the spaces cost one.

A retriever asks for it (:attr:`pagelens.focus.base.Selection.lean`); :func:`pagelens.focus.apply.focus`
may override it (``lean=``). Nothing here reads a word of the page; it only shortens lines the renderer makes.
"""

from __future__ import annotations

import re

from pagelens.focus.linefmt import short_name
from pagelens.types import Line

__all__ = ["LEAN_WORDS", "PARTS", "ancestor_text", "indent_of", "is_placeholder", "parts", "placeholder_text",
           "terse_text"]

#: Roles that are controls by definition: their ``clickable`` mark says nothing (compact and terse text).
CONTROLS = ("link", "button", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
            "menuitemradio", "option", "treeitem", "combobox", "textbox", "searchbox", "spinbutton", "slider")
REDUNDANT_CLICKABLE = re.compile(r"^(\*?\[\d{1,9}\] (?:" + "|".join(CONTROLS) + r") '.*?'(?: value='.*?')?), clickable(?=,|$)")
#: Roles whose ``checked=false`` the terse text leaves out (no mark: not checked).
CHECKABLE = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})
UNCHECKED = re.compile(r", checked=false(?=,|$)")
#: Roles whose ``selected=false`` the terse text leaves out (no mark: not selected).
SELECTABLE = frozenset({"option", "tab", "treeitem", "gridcell", "row"})
UNSELECTED = re.compile(r", selected=false(?=,|$)")

#: What a lean view may shorten (``"ph+anc"``: both).
PARTS = frozenset({"ph", "anc", "terse", "nest"})
#: An ancestor shown short in a lean view keeps this many words of its name (6 otherwise).
LEAN_WORDS = 3


def parts(spec: str) -> frozenset[str]:
    """``"ph+anc"`` -> ``{"ph", "anc"}`` (``""``: nothing shortened); an unknown part is a :class:`ConfigError`."""
    out = frozenset(p for p in spec.replace(",", "+").split("+") if p)
    if not out <= PARTS:
        from pagelens.errors import ConfigError

        raise ConfigError(f"unknown lean view part(s) {sorted(out - PARTS)}; known: {sorted(PARTS)}")
    return out


def placeholder_text(n: int, pid: str) -> str:
    """``[p7] …42``: the placeholder's id and how many lines it stands for."""
    return f"[{pid}] …{n}"


def is_placeholder(text: str, n: int, pid: str | None) -> bool:
    """Whether a placeholder line's ``text`` is the lean form of its ``n`` lines and id (a view made lean keeps
    that form when its placeholders are renumbered or rebuilt)."""
    return pid is not None and text == placeholder_text(n, pid)


def ancestor_text(line: Line) -> str:
    """``[id] role 'first words…'``, or ``[id] role`` when it has no name."""
    head = f"{line.role} '{short_name(line.name, LEAN_WORDS)}'" if line.name else line.role
    return f"[{line.eid}] {head}" if line.eid is not None else head


def terse_text(role: str, text: str) -> str:
    """A kept line's (compact) ``text`` in the terse form (``role``: the line's), as the compact delta sends it
    (:meth:`pagelens.focus.delta.formats.Shown.own` with ``terse=True``, then its compact rule): a text node as its
    quoted text, no ``checked=false`` / ``selected=false``, no ``clickable`` on a control."""
    if role == "StaticText" and text.startswith("StaticText '"):
        text = text[len("StaticText "):]
    elif role in CHECKABLE:
        text = UNCHECKED.sub("", text, count=1)
    elif role in SELECTABLE:
        text = UNSELECTED.sub("", text, count=1)
    return REDUNDANT_CLICKABLE.sub(r"\1", text, count=1)


def indent_of(lean: frozenset[str]) -> str:
    """One nesting level of a view with these lean parts: a space with ``nest``, else a tab."""
    return " " if "nest" in lean else "\t"
