"""What the agent is sent instead of a whole view: a line diff, or the view with known runs folded.

Both work on :class:`Shown` lines (what the agent saw, ids already carried, so unchanged lines
are textually equal); only the in-viewport mark (``visible``) changing is not a change
(scrolling would otherwise list every line it moved; the agent keeps its copy of such lines).

* :func:`diff_views` — hunks of added (``+``), removed (``-``, a run summarised by its first and
  last line) and changed (``~``, same id, new text) lines, each after an anchor line the agent
  has already seen;
* :func:`fold_view` — the new view with every run of lines the agent already has folded into
  one ``= N lines as before: A … B`` line: a new page of the same site (the same header,
  navigation, filters) costs its new lines only, and nothing gone has to be listed;
* :func:`mark_new` — the whole view, elements not shown before marked ``*``.

``compact=True`` (the agent loop's ``observe="delta"``) is the same content in fewer tokens:
one space per nesting level instead of a tab, a folded run written ``= [A] +N`` (line ``A`` of
the last view and the ``N`` lines after it) and folded whenever that line is cheaper than the
run (even a single line), anchors named by id (``@ after [12]``), and no ``clickable`` mark on a
control (a link, a button, a field: the role says it); the MCP server sends it too (and
shortens it further at output: :mod:`pagelens.mcp.terse`). The default is tabs and
``= N lines as before: A … B``. :func:`with_value` is a known edit (a fill's read-back in the
agent's copy), :func:`without_value_echo` drops a field's text node that repeats its value.

Lines are aligned by :func:`pagelens.focus.delta.align.matching_blocks` (near-linear on big views).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pagelens import tokens
from pagelens.focus.delta.align import matching_blocks, opcodes
# (the terse text's rules live in :mod:`pagelens.focus.lean`: a focused view with ``terse`` uses them too)
from pagelens.focus.lean import CHECKABLE as _CHECKABLE
from pagelens.focus.lean import REDUNDANT_CLICKABLE as _REDUNDANT_CLICKABLE
from pagelens.focus.lean import SELECTABLE as _SELECTABLE
from pagelens.focus.lean import UNCHECKED as _UNCHECKED
from pagelens.focus.lean import UNSELECTED as _UNSELECTED
from pagelens.focus.lean import placeholder_text

if TYPE_CHECKING:
    from pagelens.focus.view import PageView

__all__ = ["COMPACT_FOLD_HEAD", "FOLD_HEAD", "Delta", "DeltaLine", "Shown", "as_the_agent_has", "diff_views",
           "fold_view", "indent_of", "mark_new", "render", "same_text", "shown_lines", "with_value", "without_value_echo"]

_LEAD_ID = re.compile(r"^\[(\d{1,9})\] ")
_EXCERPT = 60
_VISIBLE = re.compile(r", visible(?=,|$)")
#: Shortest run of unchanged lines worth folding (a fold line costs about as much as one line).
_MIN_FOLD = 2
#: Header of a folded view (the MCP plan driver and the prompts recognise it).
FOLD_HEAD = "New view; '= N lines as before: A … B' stands for N lines of your last view, unchanged:"
#: Header of a compact folded view.
COMPACT_FOLD_HEAD = "New view ('= [A] +N': [A] and the N lines after it in your last view):"


#: A field's line up to its value: ``[23] textbox 'First name'`` (`` value='…'`` after it, if any).
_FIELD = re.compile(r"^(\[\d{1,9}\] \S+ '[^']*')(?: value='[^']*')?(?=,|$)")


def with_value(text: str, value: str) -> str | None:
    """A field's line ``text`` as it reads once the field holds ``value`` (a known edit: the agent
    was told what a fill or a selection read back); ``None`` when it is not such a line or the
    value cannot be written in it (a quote). Both sides of a delta apply the same rule."""
    value = " ".join(value.split())
    m = _FIELD.match(text)
    if m is None or "'" in value:
        return None
    return m.group(1) + (f" value='{value}'" if value else "") + text[m.end():]


_VALUE = re.compile(r"^\[\d{1,9}\] \S+ '[^']*' value='([^']*)'")


def without_value_echo(lines: Sequence[Shown]) -> tuple[Shown, ...]:
    """``lines`` without a field's text node that only repeats its value (``[9] searchbox 'Search'
    value='tea'`` and, under it, ``StaticText 'tea'``): the field's line says it."""
    out: list[Shown] = []
    for k, ln in enumerate(lines):
        if k and ln.depth == lines[k - 1].depth + 1 and ln.text.startswith("StaticText '"):
            m = _VALUE.match(lines[k - 1].text)
            if m is not None and m.group(1) and ln.text == f"StaticText '{m.group(1)}'":
                continue
        out.append(ln)
    return tuple(out)


def indent_of(compact: bool) -> str:
    """One nesting level: a tab, or (compact) one space (a tab costs more tokens per line)."""
    return " " if compact else "\t"


@dataclass(frozen=True, slots=True)
class Shown:
    """One line as the agent saw it: its text (what views are compared by) and the typed
    values its terse form is made from."""

    depth: int
    text: str
    eid: str | None = None
    role: str = ""  # the rendered line's role ("" for a placeholder or a line of foreign text)
    pid: str | None = None  # a placeholder's id (``p7``)
    pruned: int = 0  # a placeholder: how many lines it stands for

    def rendered(self, indent: str = "\t") -> str:
        return indent * self.depth + self.text

    def own(self, terse: bool = False) -> str:
        """The line's text; ``terse``: a placeholder as ``[p7] …42``, a text node as its
        quoted text (``'Only 3 left'``, not ``StaticText 'Only 3 left'``), a checkbox or radio
        without ``checked=false``, an option (or tab, row…) without ``selected=false``."""
        if terse:
            if self.pid is not None and self.pruned:
                return placeholder_text(self.pruned, self.pid)
            if self.role == "StaticText" and self.text.startswith("StaticText '"):
                return self.text[len("StaticText "):]
            if self.role in _CHECKABLE:  # no ``checked`` mark on a checkbox or radio: it is not checked
                return _UNCHECKED.sub("", self.text, count=1)
            if self.role in _SELECTABLE:  # likewise ``selected``: an option without it is not selected
                return _UNSELECTED.sub("", self.text, count=1)
        return self.text

    def sent(self, compact: bool, text: str | None = None, *, terse: bool = False, mark: bool = False) -> str:
        """The line as the agent is sent it (``text``: instead of the line's own; ``mark``: ``*``
        before it, an element not shown before); compact: nested by spaces, a control's
        redundant ``clickable`` left out; ``terse``: see :meth:`own`."""
        text = self.own(terse) if text is None else text
        if mark:
            text = "*" + text
        if not compact:
            return "\t" * self.depth + text
        return " " * self.depth + _REDUNDANT_CLICKABLE.sub(r"\1", text, count=1)


def render(lines: Sequence[Shown], *, compact: bool = False, terse: bool = False) -> str:
    """The lines as text, nested by tabs or (compact) by single spaces."""
    return "\n".join(ln.sent(compact, terse=terse) for ln in lines)


def shown_lines(view: PageView) -> tuple[Shown, ...]:
    """The lines ``view`` shows (focused lines with their placeholders, or the whole rendering)."""
    by_no = {ln.no: ln for ln in view.rendering.lines}
    if view.focused is None:
        return tuple(Shown(ln.depth, ln.text, ln.eid, ln.role) for ln in view.rendering.lines)
    out = []
    for ol in view.focused.lines:
        src = by_no.get(ol.no) if ol.no is not None else None
        if src is not None:
            out.append(Shown(ol.depth, ol.text, src.eid, src.role))
        else:
            out.append(Shown(ol.depth, ol.text, pid=ol.pid, pruned=ol.pruned))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class DeltaLine:
    op: str  # "@" anchor, "+" added, "-" removed (a run), "~" changed
    text: str


@dataclass(frozen=True, slots=True)
class Delta:
    lines: tuple[DeltaLine, ...]
    added: int
    removed: int
    changed: int
    since: str = ""  # "" for the last view, else the label of the earlier view it is against

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def text(self) -> str:
        base = f"your earlier view {self.since}" if self.since else "your last view"
        head = f"Changes since {base} (+{self.added} -{self.removed} ~{self.changed}; @ = after):"
        if self.empty:
            return f"No change since {base}."
        return head + "\n" + "\n".join(f"{ln.op} {ln.text}" for ln in self.lines)


def _excerpt(line: Shown, terse: bool = False) -> str:
    text = line.own(terse)
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "…"


def same_text(text: str) -> str:
    """A line's text as compared between views (the in-viewport mark left out)."""
    return _VISIBLE.sub("", text)


def diff_views(before: Sequence[Shown], after: Sequence[Shown], *, since: str = "", compact: bool = False,
               terse: bool = False) -> Delta:
    """What turns ``before`` into ``after`` (both with carried ids); a line whose only change
    is its ``visible`` mark is not a change. ``compact``: see the module docstring."""
    a = [same_text(ln.rendered()) for ln in before]
    b = [same_text(ln.rendered()) for ln in after]
    out: list[DeltaLine] = []
    added = removed = changed = 0
    for tag, i1, i2, j1, j2 in opcodes(a, b):
        if tag == "equal":
            continue
        prev = before[i1 - 1] if i1 > 0 else None
        anchor = ("at the top" if prev is None else
                  f"after {_short_ref(prev, terse) if compact else _excerpt(prev, terse)}")
        out.append(DeltaLine("@", anchor))
        old = list(before[i1:i2])
        new = list(after[j1:j2])
        by_id = {ln.eid: ln for ln in old if ln.eid is not None}
        kept_old: set[int] = set()
        new_ops: list[DeltaLine] = []
        for ln in new:
            prev = by_id.get(ln.eid) if ln.eid is not None else None
            if prev is not None:
                kept_old.add(id(prev))
                new_ops.append(DeltaLine("~", ln.sent(compact, terse=terse)))
                changed += 1
            else:
                new_ops.append(DeltaLine("+", ln.sent(compact, terse=terse)))
                added += 1
        gone = [ln for ln in old if id(ln) not in kept_old]
        removed += len(gone)
        out.extend(_removed_runs(old, kept_old, compact, terse))
        out.extend(new_ops)
    return Delta(tuple(out), added, removed, changed, since)


def as_the_agent_has(before: Sequence[Shown], after: Sequence[Shown]) -> tuple[Shown, ...]:
    """``after`` as the agent has it once sent a delta or a folded view against ``before``:
    lines that changed only their ``visible`` mark keep the text the agent saw."""
    a = [same_text(ln.rendered()) for ln in before]
    b = [same_text(ln.rendered()) for ln in after]
    out = list(after)
    for i, j, n in matching_blocks(a, b):
        out[j:j + n] = before[i:i + n]
    return tuple(out)


def fold_view(before: Sequence[Shown], after: Sequence[Shown], *, seen: frozenset[str] | None = None,
              since: str = "", compact: bool = False, terse: bool = False, head: str | None = None) -> str:
    """``after`` with every run of at least ``_MIN_FOLD`` lines unchanged since ``before``
    folded into ``= N lines as before: A … B`` (A and B: the run's first and last line as
    the agent has them, by id when they have one). ``seen``: mark elements not seen yet ``*``.

    ``compact``: a run is written ``= [A] +N`` (``= [A]`` for one line), single spaces nest,
    and a run of any length is folded when its fold line costs fewer tokens than its lines.
    ``terse``: lines in their terse form (:meth:`Shown.own`); ``head``: the first line instead of
    the default header (against the last view only: a fold against an earlier view says which)."""
    a = [same_text(ln.rendered()) for ln in before]
    b = [same_text(ln.rendered()) for ln in after]
    shortest = 1 if compact else _MIN_FOLD
    indent = indent_of(compact)
    folds: dict[int, tuple[int, int]] = {}  # start in after -> (start in before, length)
    for i, j, n in matching_blocks(a, b):
        if n >= shortest:
            folds[j] = (i, n)
    _moved_folds(before, a, b, folds, shortest)
    if compact:
        folds = _extended(folds, a, b)
    default = COMPACT_FOLD_HEAD if compact else FOLD_HEAD
    out = [head if head and not since else
           default if not since else default.replace("your last view", f"your earlier view {since}")]
    j = 0
    while j < len(after):
        if j in folds:
            i, n = folds[j]
            while n >= shortest and _ref(before[i]) is None:  # a fold starts at a unique line
                out.append(before[i].sent(compact, terse=terse))  # (as the agent has it: the same but for ``visible``)
                i, j, n = i + 1, j + 1, n - 1
            if n < shortest:
                continue
            first, last = before[i], before[i + n - 1]
            if not compact:
                out.append(indent * first.depth + f"= {n} lines as before: {_short_ref(first, terse)} … {_short_ref(last, terse)}")
            else:
                line = indent * first.depth + f"= {_ref(first)}" + (f" +{n - 1}" if n > 1 else "")
                run = before[i:i + n]
                if tokens.count(line) < tokens.count("\n".join(ln.sent(compact, terse=terse) for ln in run)):
                    out.append(line)
                else:
                    out.extend(ln.sent(compact, terse=terse) for ln in run)
            j += n
            continue
        ln = after[j]
        out.append(ln.sent(compact, terse=terse, mark=seen is not None and _new(ln, seen)))
        j += 1
    return "\n".join(out)


def _moved_folds(before: Sequence[Shown], a: Sequence[str], b: Sequence[str],
                 folds: dict[int, tuple[int, int]], shortest: int = _MIN_FOLD) -> None:
    """Add to ``folds`` the runs of ``b`` outside them that the agent has elsewhere in ``a`` (rows
    of a re-sorted table, a block moved up): a run starts at a line with an id that occurs once
    in ``before`` and extends while the lines agree, up to the next fold."""
    at: dict[str, int] = {}
    for i, ln in enumerate(before):
        if _ref(ln) is not None:
            at[a[i]] = -1 if a[i] in at else i
    j = 0
    while j < len(b):
        if j in folds:
            j += folds[j][1]
            continue
        i = at.get(b[j], -1)
        n = 0
        if i >= 0:
            while i + n < len(a) and j + n < len(b) and a[i + n] == b[j + n] and (n == 0 or j + n not in folds):
                n += 1
        if n >= shortest:
            folds[j] = (i, n)
            j += n
        else:
            j += 1


def _extended(folds: dict[int, tuple[int, int]], a: Sequence[str], b: Sequence[str]) -> dict[int, tuple[int, int]]:
    """``folds`` with each run continued while the lines after it agree on both sides (the
    alignment may have paired the next line elsewhere, a look-alike ``▲`` of another post):
    a fold names only its first line, so one run is cheaper than two, and a run cut off at a
    line without an id would have to be sent from there to its next id. A fold a longer run
    overlaps keeps its rest (from where the longer run ends)."""
    starts = sorted(folds)
    out: dict[int, tuple[int, int]] = {}
    j = k = 0
    while k < len(starts):
        s = starts[k]
        i, n = folds[s]
        if s < j:  # overlapped by the run before: its rest, if any
            if s + n <= j:
                k += 1
                continue
            i, n, s = i + (j - s), n - (j - s), j
        while s + n < len(b) and i + n < len(a) and a[i + n] == b[s + n]:
            n += 1
        out[s] = (i, n)
        j = s + n
        k += 1
    return out


def _removed_runs(old: list[Shown], kept: set[int], compact: bool = False, terse: bool = False) -> list[DeltaLine]:
    runs: list[list[Shown]] = [[]]
    for ln in old:
        if id(ln) in kept:
            runs.append([])
        else:
            runs[-1].append(ln)
    out = []
    for run in runs:
        if len(run) == 1:
            out.append(DeltaLine("-", run[0].sent(compact, terse=terse)))
        elif len(run) > 1:
            out.append(DeltaLine("-", f"{len(run)} lines: {_short_ref(run[0], terse)} … {_short_ref(run[-1], terse)}"))
    return out


_LEAD_PID = re.compile(r"^\[(p\d{1,9})\] ")


def _ref(line: Shown) -> str | None:
    """``[12]`` / ``[p3]``: the unique handle of a line that leads with an element or placeholder id."""
    if line.eid is not None and line.text.startswith(f"[{line.eid}]"):
        return f"[{line.eid}]"
    m = _LEAD_PID.match(line.text)
    return f"[{m.group(1)}]" if m else None


def _short_ref(line: Shown, terse: bool = False) -> str:
    """A line by its id when it has one, else by its text (shortened)."""
    return _ref(line) or _excerpt(line, terse)


def _new(line: Shown, seen: frozenset[str]) -> bool:
    """An element line the agent has not been shown before (marked ``*``)."""
    return line.eid is not None and line.eid not in seen and _LEAD_ID.match(line.text) is not None


def mark_new(lines: Sequence[Shown], seen: frozenset[str], *, compact: bool = False, terse: bool = False) -> str:
    """The lines as text, elements the agent has not been shown before marked with ``*``."""
    return "\n".join(ln.sent(compact, terse=terse, mark=_new(ln, seen)) for ln in lines)

