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
   same id, new text) lines, each after an anchor line the agent has already seen. Only the
   in-viewport mark (``visible``) changing is not a change: scrolling would otherwise list
   every line it moved; the agent keeps its copy of such lines.
3. :func:`fold_view` — the new view with every run of lines the agent already has (from its
   last view) folded into one ``= N lines as before: A … B`` line: a new page of the same
   site (the same header, navigation, filters) costs its new lines only, and nothing gone
   has to be listed.

Placeholder ids (``[p3] ... 12 lines pruned ...``) are carried too: a pruned run that stands
for the same lines as a placeholder the agent was shown keeps that placeholder's id, so a
shifted numbering is never a change, and ``expand("p3")`` keeps meaning what it meant.

:class:`ViewTracker` keeps what one agent (one MCP client, one episode) has been shown and
answers each new view with the delta, the folded view or the view, whichever costs fewer tokens.

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

__all__ = ["Delta", "DeltaLine", "Shown", "Update", "ViewTracker", "carry_ids", "diff_views", "fold_view",
           "mark_new", "shown_lines"]

#: Above this many node pairs, only ids of the same document are carried (alignment is quadratic).
MAX_ALIGN_CELLS = 30_000_000
#: Ids handed out when a carried id would collide with an element that came back (rare).
_FALLBACK_BASE = 900_000_000
_LEAD_ID = re.compile(r"^\[(\d{1,9})\] ")
_ANY_ID = re.compile(r"\[(\d{1,9})\]")
_EXCERPT = 60
_VISIBLE = re.compile(r", visible(?=,|$)")
#: Shortest run of unchanged lines worth folding (a fold line costs about as much as one line).
_MIN_FOLD = 2
#: Header of a folded view (the MCP plan driver and the prompts recognise it).
FOLD_HEAD = "New view; '= N lines as before: A … B' stands for N lines of your last view, unchanged:"


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
        head = f"Changes since {base} (+{self.added} -{self.removed} ~{self.changed}; @ = after):"
        if self.empty:
            return f"No change since {base}."
        return head + "\n" + "\n".join(f"{ln.op} {ln.text}" for ln in self.lines)


def _excerpt(line: Shown) -> str:
    text = line.text
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "…"


def _same(text: str) -> str:
    """A line's text as compared between views (the in-viewport mark left out)."""
    return _VISIBLE.sub("", text)


def diff_views(before: Sequence[Shown], after: Sequence[Shown], *, since: str = "") -> Delta:
    """What turns ``before`` into ``after`` (both with carried ids); a line whose only change
    is its ``visible`` mark is not a change."""
    a = [_same(ln.rendered()) for ln in before]
    b = [_same(ln.rendered()) for ln in after]
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


def as_the_agent_has(before: Sequence[Shown], after: Sequence[Shown]) -> tuple[Shown, ...]:
    """``after`` as the agent has it once sent a delta or a folded view against ``before``:
    lines that changed only their ``visible`` mark keep the text the agent saw."""
    a = [_same(ln.rendered()) for ln in before]
    b = [_same(ln.rendered()) for ln in after]
    out = list(after)
    for i, j, n in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        out[j:j + n] = before[i:i + n]
    return tuple(out)


def fold_view(before: Sequence[Shown], after: Sequence[Shown], *, seen: frozenset[str] | None = None,
              since: str = "") -> str:
    """``after`` with every run of at least ``_MIN_FOLD`` lines unchanged since ``before``
    folded into ``= N lines as before: A … B`` (A and B: the run's first and last line as
    the agent has them, by id when they have one). ``seen``: mark elements not seen yet ``*``."""
    a = [_same(ln.rendered()) for ln in before]
    b = [_same(ln.rendered()) for ln in after]
    folds: dict[int, tuple[int, int]] = {}  # start in after -> (start in before, length)
    for i, j, n in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        if n >= _MIN_FOLD:
            folds[j] = (i, n)
    head = FOLD_HEAD if not since else FOLD_HEAD.replace("your last view", f"your earlier view {since}")
    out = [head]
    j = 0
    while j < len(after):
        if j in folds:
            i, n = folds[j]
            while n >= _MIN_FOLD and _ref(before[i]) is None:  # a fold starts at a unique line
                out.append(before[i].rendered())  # (as the agent has it: the same but for ``visible``)
                i, j, n = i + 1, j + 1, n - 1
            if n < _MIN_FOLD:
                continue
            first, last = before[i], before[i + n - 1]
            out.append("\t" * first.depth + f"= {n} lines as before: {_short_ref(first)} … {_short_ref(last)}")
            j += n
            continue
        ln = after[j]
        text = ln.text
        if seen is not None and ln.eid is not None and ln.eid not in seen and _LEAD_ID.match(text):
            text = "*" + text
        out.append("\t" * ln.depth + text)
        j += 1
    return "\n".join(out)


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


_LEAD_PID = re.compile(r"^\[(p\d{1,9})\] ")


def _ref(line: Shown) -> str | None:
    """``[12]`` / ``[p3]``: the unique handle of a line that leads with an element or placeholder id."""
    if line.eid is not None and line.text.startswith(f"[{line.eid}]"):
        return f"[{line.eid}]"
    m = _LEAD_PID.match(line.text)
    return f"[{m.group(1)}]" if m else None


def _short_ref(line: Shown) -> str:
    """A line by its id when it has one, else by its text (shortened)."""
    return _ref(line) or _excerpt(line)


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
    text: str  # what the agent is sent: the delta, the folded view or the view
    kind: str  # "view" (first look, or the view was cheapest), "delta" or "fold" (both need ``base_text``)
    tokens: int  # tokens of ``text``
    view_tokens: int  # tokens the view would have cost
    delta: Delta | None = None
    base_text: str = ""  # for a delta or a fold: the view it is against, as the agent has it


@dataclass(frozen=True, slots=True)
class _Seen:
    obs: Observation
    mapping: dict[str, str]
    shown: tuple[Shown, ...]  # as the agent has it
    label: str


@dataclass(frozen=True, slots=True)
class _Option:
    tokens: int
    view: PageView
    mapping: dict[str, str]
    has: tuple[Shown, ...]
    kind: str
    text: str
    delta: Delta | None = None
    base_text: str = ""
    pids: Mapping[tuple[object, ...], str] | None = None
    next_pid: int = 0


class ViewTracker:
    """What one agent has been shown; :meth:`update` answers each new view (not thread-safe).

    The base of a delta is the last view, or an earlier view of the same address (a page the
    agent comes back to: the front page after signing in, a list after ``go_back``), whichever
    gives the smaller answer; the answer says which it is.
    """

    def __init__(self, *, mark: bool = False, keep: int = 8, fold: bool = True) -> None:
        self.mark = mark  # mark elements not seen before with "*" when the whole view is sent
        self.keep = keep
        self.fold = fold  # also offer the folded view
        self._history: list[_Seen] = []
        self._seen: set[str] = set()
        self._pids: dict[tuple[object, ...], str] = {}  # what a placeholder stood for -> its id
        self._next_pid = 0

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
        self._pids.clear()
        self._next_pid = 0

    def _last(self) -> tuple[Observation | None, dict[str, str]]:
        return (self._history[-1].obs, self._history[-1].mapping) if self._history else (None, {})

    def carry(self, view: PageView) -> PageView:
        """``view`` with ids carried from the last view (without recording it as shown)."""
        prev, mapping = self._last()
        obs, _ = carry_ids(prev, mapping, view.observation)
        carried = view if obs is view.observation else _re_render(view, obs)
        return _carry_pids(carried, dict(self._pids), self._next_pid)[0]

    def update(self, view: PageView, *, allow_delta: bool = True, label: str = "") -> Update:
        """Record ``view`` as shown; ``label`` names it in later deltas (e.g. "step 3")."""
        _, last_map = self._last()
        bases: list[_Seen | None] = [self._history[-1] if self._history else None]
        if allow_delta and self._history:
            here = _page_key(view.observation.url)
            bases += [h for h in reversed(self._history[:-1]) if _page_key(h.obs.url) == here][:_EARLIER_BASES]
        options: list[_Option] = []
        view_tokens = 0
        seen = frozenset(self._seen)
        for base in bases:
            obs, mapping = carry_ids(base.obs if base else None, last_map, view.observation)
            carried = view if obs is view.observation else _re_render(view, obs)
            carried, pids, next_pid = _carry_pids(carried, dict(self._pids), self._next_pid)
            lines = shown_lines(carried)
            if not options:  # the view itself, with ids carried from the last view
                text = mark_new(lines, seen) if self.mark and self._history else carried.text()
                view_tokens = tokens.count(text)
                options.append(_Option(view_tokens, carried, mapping, lines, "view", text, pids=pids,
                                       next_pid=next_pid))
            if not allow_delta or base is None:
                continue
            since = base.label if base is not bases[0] else ""
            base_text = "\n".join(ln.rendered() for ln in base.shown)
            has = as_the_agent_has(base.shown, lines)
            delta = diff_views(base.shown, lines, since=since)
            delta_text = delta.text()
            options.append(_Option(tokens.count(delta_text), carried, mapping, has, "delta", delta_text, delta,
                                   base_text, pids, next_pid))
            if self.fold and not delta.empty:
                folded = fold_view(base.shown, lines, seen=seen if self.mark else None, since=since)
                options.append(_Option(tokens.count(folded), carried, mapping, has, "fold", folded, None,
                                       base_text, pids, next_pid))
        best = min(options, key=lambda o: o.tokens)
        if best.pids is not None:
            self._pids, self._next_pid = dict(best.pids), best.next_pid
        self._history.append(_Seen(best.view.observation, best.mapping, best.has,
                                   label or best.view.observation.url))
        del self._history[: -self.keep]
        self._history = _usable(self._history)
        self._seen.update(ln.eid for ln in best.has if ln.eid is not None)
        return Update(best.view, best.text, best.kind, best.tokens, view_tokens, best.delta, best.base_text)


def _carry_pids(view: PageView, known: dict[tuple[object, ...], str], next_pid: int,
                ) -> tuple[PageView, dict[tuple[object, ...], str], int]:
    """``view`` with each placeholder renamed to the id of an earlier placeholder that stood for
    the same lines (by element id, else text), fresh ids above every id handed out otherwise."""
    focused = view.focused
    if focused is None or not focused.placeholders:
        return view, known, next_pid
    from pagelens.focus.apply import placeholder_text

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
    if all(k == v for k, v in rename.items()):
        return view, known, next_pid
    lines = tuple(replace(ol, pid=rename[ol.pid], text=placeholder_text(ol.pruned, rename[ol.pid]))
                  if ol.pid is not None and ol.pid in rename else ol for ol in focused.lines)
    placeholders = {rename[p]: run for p, run in focused.placeholders.items()}
    return replace(view, focused=replace(focused, lines=lines, placeholders=placeholders)), known, next_pid


def _run_sig(run: Sequence[int], by_no: Mapping[int, Line]) -> tuple[object, ...]:
    out: list[object] = []
    for no in run:
        ln = by_no.get(no)
        if ln is not None:
            out.append(ln.eid if ln.eid is not None else ln.text[:80])
    return tuple(out)


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
