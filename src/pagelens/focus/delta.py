"""Delta observations: tell an agent what changed since the last view it saw, not the page again.

Two pure steps, both on typed values:

1. :func:`carry_ids` — element ids that survive a re-render. An element that is still in the
   same document keeps its id (the id registry already does that). An element of a *new*
   document that sits where an element of the previous observation sat, with the same role,
   name and depth (a site's header, navigation, footer, the unchanged fields of a re-rendered
   form), takes over that element's id; everything else keeps its fresh id. The alignment is
   :class:`difflib.SequenceMatcher` over the two node sequences, so repeated items (rows of
   "Edit" links) are paired by order, never by name alone. An id handed over always points at
   an element of the current page: the executor resolves ids against the current observation.
2. :func:`diff_views` — the line diff of what the agent was shown before and what it would be
   shown now (both with carried ids, so unchanged lines are textually equal): hunks of added
   (``+``), removed (``-``, a run summarised by its first and last line) and changed (``~``,
   same id, new text) lines, each after an anchor line the agent has already seen.

:class:`ViewTracker` keeps what one agent (one MCP client, one episode) has been shown and
answers each new view with the delta or the view, whichever costs fewer tokens.

    tracker = ViewTracker()
    update = tracker.update(view)          # view: a PageView of the raw observation
    update.view                            # the same view with carried ids (act on these)
    update.text                            # what to send: the delta or the view
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pagelens import tokens
from pagelens.types import ElementId, Line, Node, Observation, Rendering

if TYPE_CHECKING:
    from pagelens.focus.view import PageView

__all__ = ["Delta", "DeltaLine", "Shown", "Update", "ViewTracker", "carry_ids", "diff_views", "mark_new",
           "shown_lines"]

#: Above this many node pairs, only ids of the same document are carried (alignment is quadratic).
MAX_ALIGN_CELLS = 30_000_000
#: Ids handed out when a carried id would collide with an element that came back (rare).
_FALLBACK_BASE = 900_000_000
_LEAD_ID = re.compile(r"^\[(\d{1,9})\] ")
_ANY_ID = re.compile(r"\[(\d{1,9})\]")
_EXCERPT = 60


# -- 1. carrying ids across documents ---------------------------------------------------------
def _node_key(node: Node) -> tuple[int, str, str]:
    return node.depth, node.role, " ".join(node.name.split())[:200]


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
        if len(prev_nodes) * len(new_nodes) <= MAX_ALIGN_CELLS:
            # a persisted element only matches itself; free elements match by role, name, depth
            a = [(*_node_key(n), n.eid if n.eid in taken else "") for n in prev_nodes]
            b = [(*_node_key(n), persisted.get(n.eid, "") if n.eid is not None else "") for n in new_nodes]
            matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)  # type: ignore[arg-type]
            for block in matcher.get_matching_blocks():
                for k in range(block.size):
                    old, cur = prev_nodes[block.a + k], new_nodes[block.b + k]
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


# -- 2. the line diff -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Shown:
    """One line as the agent saw it."""

    depth: int
    text: str
    eid: str | None = None

    def rendered(self) -> str:
        return "\t" * self.depth + self.text


def shown_lines(view: PageView) -> tuple[Shown, ...]:
    """The lines ``view`` shows (focused lines with their placeholders, or the whole rendering)."""
    by_no = {ln.no: ln for ln in view.rendering.lines}
    if view.focused is None:
        return tuple(Shown(ln.depth, ln.text, ln.eid) for ln in view.rendering.lines)
    out = []
    for ol in view.focused.lines:
        src = by_no.get(ol.no) if ol.no is not None else None
        out.append(Shown(ol.depth, ol.text, src.eid if src is not None else None))
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
        head = (f"Changes since {base} (+{self.added} -{self.removed} ~{self.changed}; @ = after this line; "
                "other lines unchanged, same ids):")
        if self.empty:
            return f"No change since {base}."
        return head + "\n" + "\n".join(f"{ln.op} {ln.text}" for ln in self.lines)


def _excerpt(line: Shown) -> str:
    text = line.text
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "…"


def diff_views(before: Sequence[Shown], after: Sequence[Shown], *, since: str = "") -> Delta:
    """What turns ``before`` into ``after`` (both with carried ids)."""
    a = [ln.rendered() for ln in before]
    b = [ln.rendered() for ln in after]
    out: list[DeltaLine] = []
    added = removed = changed = 0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        anchor = f"after {_excerpt(before[i1 - 1])}" if i1 > 0 else "at the top"
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
                new_ops.append(DeltaLine("~", ln.rendered()))
                changed += 1
            else:
                new_ops.append(DeltaLine("+", ln.rendered()))
                added += 1
        gone = [ln for ln in old if id(ln) not in kept_old]
        removed += len(gone)
        out.extend(_removed_runs(old, kept_old))
        out.extend(new_ops)
    return Delta(tuple(out), added, removed, changed, since)


def _removed_runs(old: list[Shown], kept: set[int]) -> list[DeltaLine]:
    runs: list[list[Shown]] = [[]]
    for ln in old:
        if id(ln) in kept:
            runs.append([])
        else:
            runs[-1].append(ln)
    out = []
    for run in runs:
        if len(run) == 1:
            out.append(DeltaLine("-", run[0].rendered()))
        elif len(run) > 1:
            out.append(DeltaLine("-", f"{len(run)} lines: {_short_ref(run[0])} … {_short_ref(run[-1])}"))
    return out


def _short_ref(line: Shown) -> str:
    """A line by its id when it has one, else by its text (shortened)."""
    if line.eid is not None and line.text.startswith(f"[{line.eid}]"):
        return f"[{line.eid}]"
    return _excerpt(line)


def mark_new(lines: Sequence[Shown], seen: frozenset[str]) -> str:
    """The lines as text, elements the agent has not been shown before marked with ``*``."""
    out = []
    for ln in lines:
        text = ln.text
        if ln.eid is not None and ln.eid not in seen and _LEAD_ID.match(text):
            text = "*" + text
        out.append("\t" * ln.depth + text)
    return "\n".join(out)


# -- the tracker ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Update:
    view: PageView  # the new view with carried ids: act on these ids
    text: str  # what the agent is sent: the delta or the view
    kind: str  # "view" (first look, or the view was cheaper) or "delta"
    tokens: int  # tokens of ``text``
    view_tokens: int  # tokens the view would have cost
    delta: Delta | None = None
    base_text: str = ""  # for a delta: the view it is against, as the agent has it


@dataclass(frozen=True, slots=True)
class _Seen:
    obs: Observation
    mapping: dict[str, str]
    shown: tuple[Shown, ...]
    label: str


class ViewTracker:
    """What one agent has been shown; :meth:`update` answers each new view (not thread-safe).

    The base of a delta is the last view, or an earlier view of the same address (a page the
    agent comes back to: the front page after signing in, a list after ``go_back``), whichever
    gives the smaller delta; the delta says which it is.
    """

    def __init__(self, *, mark: bool = False, keep: int = 8) -> None:
        self.mark = mark  # mark elements not seen before with "*" when the whole view is sent
        self.keep = keep
        self._history: list[_Seen] = []
        self._seen: set[str] = set()

    @property
    def has_view(self) -> bool:
        return bool(self._history)

    @property
    def last_text(self) -> str:
        """The last view as the agent has it (delta applied)."""
        return "\n".join(ln.rendered() for ln in self._history[-1].shown) if self._history else ""

    def forget(self) -> None:
        """Start over: the next update is sent as a whole view (a new episode, a new client)."""
        self._history.clear()
        self._seen.clear()

    def _last(self) -> tuple[Observation | None, dict[str, str]]:
        return (self._history[-1].obs, self._history[-1].mapping) if self._history else (None, {})

    def carry(self, view: PageView) -> PageView:
        """``view`` with ids carried from the last view (without recording it as shown)."""
        prev, mapping = self._last()
        obs, _ = carry_ids(prev, mapping, view.observation)
        return view if obs is view.observation else _re_render(view, obs)

    def update(self, view: PageView, *, allow_delta: bool = True, label: str = "") -> Update:
        """Record ``view`` as shown; ``label`` names it in later deltas (e.g. "step 3")."""
        _, last_map = self._last()
        bases: list[_Seen | None] = [self._history[-1] if self._history else None]
        if allow_delta and self._history:
            here = _page_key(view.observation.url)
            bases += [h for h in reversed(self._history[:-1]) if _page_key(h.obs.url) == here][:_EARLIER_BASES]
        options: list[tuple[int, PageView, dict[str, str], tuple[Shown, ...], Delta | None, str, str]] = []
        view_tokens = 0
        for base in bases:
            obs, mapping = carry_ids(base.obs if base else None, last_map, view.observation)
            carried = view if obs is view.observation else _re_render(view, obs)
            lines = shown_lines(carried)
            if not options:  # the view itself, with ids carried from the last view
                text = mark_new(lines, frozenset(self._seen)) if self.mark and self._history else carried.text()
                view_tokens = tokens.count(text)
                options.append((view_tokens, carried, mapping, lines, None, text, ""))
            if not allow_delta or base is None:
                continue
            delta = diff_views(base.shown, lines, since=base.label if base is not bases[0] else "")
            delta_text = delta.text()
            base_text = "\n".join(ln.rendered() for ln in base.shown)
            options.append((tokens.count(delta_text), carried, mapping, lines, delta, delta_text, base_text))
        cost, carried, mapping, lines, chosen, text, base_text = min(options, key=lambda o: o[0])
        self._history.append(_Seen(carried.observation, mapping, lines, label or carried.observation.url))
        del self._history[: -self.keep]
        self._history = _usable(self._history)
        self._seen.update(ln.eid for ln in lines if ln.eid is not None)
        return Update(carried, text, "delta" if chosen is not None else "view", cost, view_tokens, chosen, base_text)


def _usable(history: list[_Seen]) -> list[_Seen]:
    """The views a later :meth:`ViewTracker.update` can still use, in order: the last one and,
    per address, the two latest before it (the only earlier bases ``update`` looks at). Each
    holds a whole observation, so an agent on one page keeps three trees, not ``keep``."""
    if len(history) <= 3:
        return history
    per_page: dict[str, int] = {}
    kept = [history[-1]]
    for seen in reversed(history[:-1]):
        key = _page_key(seen.obs.url)
        if per_page.get(key, 0) < _EARLIER_BASES:
            per_page[key] = per_page.get(key, 0) + 1
            kept.append(seen)
    return kept[::-1]


#: Earlier views of the same address an update may delta against (besides the last view).
_EARLIER_BASES = 2


def _page_key(url: str) -> str:
    return url.split("#", 1)[0].split("?", 1)[0]


def _re_render(view: PageView, obs: Observation) -> PageView:
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
