"""Element and placeholder ids that survive a re-render (pure; no browser).

:func:`carry_ids`: an element that is still in the same document keeps its id (the id registry
already does that). An element of a *new* document that sits where an element of the previous
observation sat, with the same role, name and depth (a site's header, navigation, footer, the
unchanged fields of a re-rendered form), takes over that element's id; everything else keeps
its fresh id. The alignment is :func:`pagelens.focus.delta.align.matching_blocks` over the two
node sequences (near-linear; exact ``difflib`` on small pages), so repeated items (rows of
"Edit" links) are paired by order, never by name alone. An id handed over always points at an
element of the current page: the executor resolves ids against the current observation.

:func:`carry_pids`: a pruned run that stands for the same lines as a placeholder the agent was
shown keeps that placeholder's id, so a shifted numbering is never a change and
``expand("p3")`` keeps meaning what it meant. :func:`re_render`: a view with the new ids in
its text.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from pagelens.focus.delta.align import matching_blocks
from pagelens.focus.delta.formats import Shown, same_text, shown_lines
from pagelens.types import ElementId, Line, Node, Observation, Rendering

if TYPE_CHECKING:
    from pagelens.focus.view import PageView

__all__ = ["align_nodes", "carry_ids", "carry_pids", "place_pids", "re_render"]

#: Ids handed out when a carried id would collide with an element that came back (rare).
_FALLBACK_BASE = 900_000_000
_ANY_ID = re.compile(r"\[(\d{1,9})\]")
_PID = re.compile(r"^\[(p\d{1,9})\] ")


def _node_key(node: Node) -> tuple[int, str, str]:
    return node.depth, node.role, " ".join(node.name.split())[:200]


def align_nodes(prev: Sequence[Node], a: Sequence[Hashable], new: Sequence[Node], b: Sequence[Hashable],
                ) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` of nodes of ``prev`` and ``new`` (pre-order) that are the same element, by their
    keys ``a`` and ``b``: first every subtree that occurs once, identical, on both sides (top-down:
    a moved block — a re-sorted table's row, a panel moved up — pairs whole, wherever it went),
    then the rest in order (:func:`~pagelens.focus.delta.align.matching_blocks`: repeated items,
    rows of "Edit" links, pair by order)."""
    sig_a, size_a = _subtrees(prev, a)
    sig_b, size_b = _subtrees(new, b)
    once_a: dict[int, int] = {}
    for i, sig in enumerate(sig_a):
        once_a[sig] = -1 if sig in once_a else i
    count_b: dict[int, int] = {}
    for sig in sig_b:
        count_b[sig] = count_b.get(sig, 0) + 1
    pairs: list[tuple[int, int]] = []
    used_a = [False] * len(a)
    used_b = [False] * len(b)
    j = 0
    while j < len(b):
        i = once_a.get(sig_b[j], -1)
        n = size_b[j]
        if i >= 0 and count_b[sig_b[j]] == 1 and not used_a[i] and size_a[i] == n \
                and all(a[i + k] == b[j + k] for k in range(n)):
            for k in range(n):
                pairs.append((i + k, j + k))
                used_a[i + k] = used_b[j + k] = True
            j += n
            continue
        j += 1
    rest_a = [i for i in range(len(a)) if not used_a[i]]
    rest_b = [j for j in range(len(b)) if not used_b[j]]
    for i, j, n in matching_blocks([a[i] for i in rest_a], [b[j] for j in rest_b]):
        pairs += [(rest_a[i + k], rest_b[j + k]) for k in range(n)]
    return pairs


def _subtrees(nodes: Sequence[Node], keys: Sequence[Hashable]) -> tuple[list[int], list[int]]:
    """Per node (pre-order): a hash of its subtree's keys and shape, and the subtree's size."""
    children: list[list[int]] = [[] for _ in nodes]
    for k, node in enumerate(nodes):
        if node.parent is not None and 0 <= node.parent < k:
            children[node.parent].append(k)
    sig = [0] * len(nodes)
    size = [1] * len(nodes)
    for k in range(len(nodes) - 1, -1, -1):
        kids = children[k]
        sig[k] = hash((keys[k], tuple(sig[c] for c in kids)))
        size[k] += sum(size[c] for c in kids)
    return sig, size


def carry_ids(previous: Observation | None, raw_to_alias: Mapping[str, str], new: Observation,
              ) -> tuple[Observation, dict[str, str]]:
    """``new`` with ids carried over from ``previous`` (already carried), and the new raw→shown map.

    ``raw_to_alias`` maps the raw ids of ``previous`` (as the observer issued them) to the ids
    the agent was shown. The result's map covers every element of ``new``.
    """
    persisted: dict[str, str] = {}
    for node in new.nodes:
        if node.eid is not None and node.eid in raw_to_alias:
            persisted[node.eid] = raw_to_alias[node.eid]
    mapping = dict(persisted)
    if previous is not None:
        taken = set(persisted.values())
        prev_nodes = previous.nodes
        new_nodes = new.nodes
        # a persisted element only matches itself; free elements match by role, name, depth
        a = [(*_node_key(n), n.eid if n.eid in taken else "") for n in prev_nodes]
        b = [(*_node_key(n), persisted.get(n.eid, "") if n.eid is not None else "") for n in new_nodes]
        for i, j in align_nodes(prev_nodes, a, new_nodes, b):
            old, cur = prev_nodes[i], new_nodes[j]
            if old.eid is None or cur.eid is None or cur.eid in persisted or old.eid in taken:
                continue
            mapping[cur.eid] = old.eid
            taken.add(old.eid)
    used = set(mapping.values())
    fallback = _FALLBACK_BASE
    for node in new.nodes:
        if node.eid is None or node.eid in mapping:
            continue
        if node.eid in used:  # an element came back whose old id a look-alike has taken
            while str(fallback) in used:
                fallback += 1
            mapping[node.eid] = str(fallback)
        else:
            mapping[node.eid] = node.eid
        used.add(mapping[node.eid])
    if all(k == v for k, v in mapping.items()):
        return new, mapping
    nodes = tuple(replace(n, eid=ElementId(mapping[n.eid])) if n.eid is not None else n for n in new.nodes)
    focused = ElementId(mapping[new.focused]) if new.focused is not None and new.focused in mapping else new.focused
    return replace(new, nodes=nodes, focused=focused), mapping



def carry_pids(view: PageView, known: dict[tuple[object, ...], str], next_pid: int,
                ) -> tuple[PageView, dict[tuple[object, ...], str], int]:
    """``view`` with each placeholder renamed to the id of an earlier placeholder that stood for
    the same lines (by element id, else text), fresh ids above every id handed out otherwise."""
    focused = view.focused
    if focused is None or not focused.placeholders:
        return view, known, next_pid
    by_no = {ln.no: ln for ln in view.rendering.lines}
    if not known and next_pid == 0:  # the first view: its own numbering stands
        next_pid = 1 + max(int(p[1:]) for p in focused.placeholders)
        sigs = {pid: _run_sig(run, by_no) for pid, run in focused.placeholders.items()}
        return view, {sig: pid for pid, sig in sigs.items()}, next_pid
    rename: dict[str, str] = {}
    taken: set[str] = set()
    for pid, run in focused.placeholders.items():
        sig = _run_sig(run, by_no)
        old = known.get(sig)
        if old is None or old in taken:
            old = f"p{next_pid}"
            next_pid += 1
        rename[pid] = old
        taken.add(old)
        known[sig] = old
    return _rename_pids(view, rename), known, next_pid


def place_pids(before: Sequence[Shown], view: PageView, known: dict[tuple[object, ...], str], fresh_from: int,
               ) -> tuple[PageView, dict[tuple[object, ...], str]]:
    """``view`` (pids already carried by :func:`carry_pids`) with each placeholder that got a fresh
    id (``p{fresh_from}`` or above) renamed to the id of the placeholder the agent was shown at
    the same place (``before``: the lines as the agent has them, aligned with pids left out),
    when that id is free in ``view``: the pruned lines changed, but "something pruned here" did
    not, and a placeholder that keeps its text keeps a folded run whole."""
    focused = view.focused
    if focused is None or not focused.placeholders:
        return view, known
    after = shown_lines(view)
    a = [_no_pid(ln) for ln in before]
    b = [_no_pid(ln) for ln in after]
    used = set(focused.placeholders)
    rename: dict[str, str] = {}
    for i, j, n in matching_blocks(a, b):
        for k in range(n):
            new_pid, old_pid = _pid_of(after[j + k]), _pid_of(before[i + k])
            if new_pid is None or old_pid is None or new_pid == old_pid or old_pid in used \
                    or int(new_pid[1:]) < fresh_from:
                continue
            rename[new_pid] = old_pid
            used.add(old_pid)
    if not rename:
        return view, known
    by_no = {ln.no: ln for ln in view.rendering.lines}
    for pid, old_pid in rename.items():
        known[_run_sig(focused.placeholders[pid], by_no)] = old_pid
    return _rename_pids(view, rename), known


def _no_pid(line: Shown) -> str:
    return "\t" * line.depth + _PID.sub("[p] ", same_text(line.text), count=1)


def _pid_of(line: Shown) -> str | None:
    m = _PID.match(line.text) if line.eid is None else None
    return m.group(1) if m else None


def _rename_pids(view: PageView, rename: Mapping[str, str]) -> PageView:
    from pagelens.focus.apply import renumbered

    focused = view.focused
    if focused is None or all(k == v for k, v in rename.items()):
        return view
    lines = tuple(renumbered(ol, rename[ol.pid]) if ol.pid is not None and ol.pid in rename else ol
                  for ol in focused.lines)
    placeholders = {rename.get(p, p): run for p, run in focused.placeholders.items()}
    return replace(view, focused=replace(focused, lines=lines, placeholders=placeholders))


def _run_sig(run: Sequence[int], by_no: Mapping[int, Line]) -> tuple[object, ...]:
    out: list[object] = []
    for no in run:
        ln = by_no.get(no)
        if ln is not None:
            out.append(ln.eid if ln.eid is not None else ln.text[:80])
    return tuple(out)



def re_render(view: PageView, obs: Observation) -> PageView:
    """``view`` for the re-identified observation: same lines and selection, new ids in the text."""
    by_index = obs.nodes
    if view.rendering.refined:  # rows name their controls inline: swap every id the map changed
        old_nodes = view.observation.nodes
        swap = {str(o.eid): str(n.eid) for o, n in zip(old_nodes, by_index) if o.eid is not None and o.eid != n.eid}
        return _swap_all(view, obs, swap)
    lines = tuple(_re_id(ln, by_index[ln.node].eid) for ln in view.rendering.lines)
    rendering = Rendering(lines, view.rendering.refined)
    focused = view.focused
    if focused is not None:
        by_no = {ln.no: ln for ln in lines}
        old_by_no = {ln.no: ln for ln in view.rendering.lines}
        out = []
        for ol in focused.lines:
            new_line: Line | None = by_no.get(ol.no) if ol.no is not None else None
            old_line = old_by_no.get(ol.no) if ol.no is not None else None
            if new_line is not None and old_line is not None and old_line.eid != new_line.eid:
                out.append(replace(ol, text=_swap_id(ol.text, old_line.eid, new_line.eid)))
            else:
                out.append(ol)
        focused = replace(focused, lines=tuple(out))
    return replace(view, observation=obs, rendering=rendering, focused=focused)


def _swap_all(view: PageView, obs: Observation, swap: Mapping[str, str]) -> PageView:
    def sub(text: str) -> str:
        return _ANY_ID.sub(lambda m: f"[{swap.get(m.group(1), m.group(1))}]", text)

    lines = tuple(replace(ln, text=sub(ln.text), eid=ElementId(swap.get(ln.eid, ln.eid)) if ln.eid else None)
                  for ln in view.rendering.lines)
    focused = view.focused
    if focused is not None:
        focused = replace(focused, lines=tuple(replace(ol, text=sub(ol.text)) for ol in focused.lines))
    return replace(view, observation=obs, rendering=Rendering(lines, True), focused=focused)


def _re_id(line: Line, eid: ElementId | None) -> Line:
    if line.eid == eid:
        return line
    return replace(line, eid=eid, text=_swap_id(line.text, line.eid, eid))


def _swap_id(text: str, old: str | None, new: str | None) -> str:
    if old is None or new is None:
        return text
    prefix = f"[{old}] "
    if text.startswith(prefix):
        return f"[{new}] " + text[len(prefix):]
    return text
