"""The lines an MCP answer sends, in fewer tokens (pure; output only).

The views, deltas and folds come from :class:`~pagelens.focus.delta.ViewTracker` in its compact
text (one space per nesting level, ``= [A] +N`` folds, no ``clickable`` on a control). Two more
rewrites, made on the text sent and never on what the tracker compares:

* a placeholder ``[p7] ... 42 lines pruned ...`` is sent as ``[p7] 42 pruned``;
* a text node ``StaticText 'Only 3 left'`` is sent as its quoted text, ``'Only 3 left'``.

The blocks ``expand`` and ``search_page`` answer with (tab-nested, from the last view) are
sent in the same text. Every line keeps its id, so folds, anchors and ``expand(pid)`` still
name them; the server's instructions say how to read the text.
"""

from __future__ import annotations

import re

from pagelens.focus.delta.formats import Shown

__all__ = ["terse", "terse_block"]

_VISIBLE = re.compile(r", visible(?=,|$)")
_PLACEHOLDER = re.compile(r"(\[p\d{1,9}\] )\.\.\. (\d+) lines? pruned \.\.\.")
#: A text node's role where a line (after its indentation, a ``+ ``/``- ``/``~ `` op, a ``*`` mark)
#: or a removed run's excerpt (``- 3 lines: StaticText 'a' … StaticText 'b'``) starts.
_STATIC = re.compile(r"(^[ \t]*|^[+~-] [ \t]*|: |… |after )StaticText (?=')", re.MULTILINE)


def terse(text: str) -> str:
    """``text`` with placeholders and text nodes shortened (see the module docstring)."""
    return _STATIC.sub(r"\1", _PLACEHOLDER.sub(r"\1\2 pruned", text))


def terse_block(text: str, known: frozenset[str] = frozenset()) -> str:
    """A tab-nested block (``expand``, ``search_page``) in the compact text, shortened; a line the
    client's last view has (``known``: its lines, unindented) and names by id (or the root line)
    is left out where it only leads to
    the lines under it (the page's root, the section the matches are in: the client has them,
    by id, in its copy)."""
    rows = []
    for line in text.split("\n"):
        body = line.lstrip("\t")
        rows.append((len(line) - len(body), body))
    out: list[str] = []
    for k, (depth, body) in enumerate(rows):
        if not body:
            out.append(body)
            continue
        leads = k + 1 < len(rows) and rows[k + 1][0] > depth and bool(rows[k + 1][1])
        if leads and body.startswith(("[", "RootWebArea ")) and _bare(body) in known:  # an id: the client finds it
            continue
        out.append(Shown(depth, body).sent(True))
    return terse("\n".join(out))


def _bare(line: str) -> str:
    return _VISIBLE.sub("", line)
