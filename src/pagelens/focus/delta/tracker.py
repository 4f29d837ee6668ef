"""What one agent has been shown, and the cheapest answer to each new view.

:class:`ViewTracker` keeps the views one agent (one MCP client, one episode) has been shown
and answers each new view with the delta, the folded view or the view, whichever costs fewer
tokens (:mod:`pagelens.focus.delta.formats`), with ids carried across documents
(:mod:`pagelens.focus.delta.ids`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pagelens import tokens
from pagelens.focus.delta.formats import (
    Delta,
    Shown,
    as_the_agent_has,
    diff_views,
    fold_view,
    mark_new,
    render,
    same_text,
    shown_lines,
    with_value,
    without_value_echo,
)
from pagelens.focus.delta.ids import carry_ids, carry_pids, place_pids, re_render
from pagelens.focus.delta.sticky import goal_terms, known_texts, sticky_view
from pagelens.types import Observation

if TYPE_CHECKING:
    from pagelens.focus.view import PageView

__all__ = ["Update", "ViewTracker"]


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
    had: frozenset[str] = frozenset()  # every line of the view's rendering (sticky focus only)


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

    def __init__(self, *, mark: bool = False, keep: int = 8, fold: bool = True, compact: bool = False,
                 echo: bool = True, sticky: bool = False, terse: bool = False, fold_head: str | None = None) -> None:
        self.mark = mark  # mark elements not seen before with "*" when the whole view is sent
        self.keep = keep
        self.fold = fold  # also offer the folded view
        #: the compact text (:mod:`~pagelens.focus.delta.formats`): views, deltas and folds nested
        #: by single spaces, folds as ``= [A] +N``; off: the tab-nested view text of the focus
        self.compact = compact
        #: off: a field's text node that only repeats its value is left out of every view (its
        #: line says the value; the MCP server); on: the focus's lines as they are
        self.echo = echo
        #: restrain each new focused view to what the agent was shown (:mod:`~pagelens.focus.delta.sticky`;
        #: the MCP server): unchanged lines its last view pruned stay pruned unless they name the goal
        self.sticky = sticky
        #: (compact only) lines sent in their terse form (:meth:`~pagelens.focus.delta.formats.Shown.own`:
        #: ``[p7] …42``, a text node as its quoted text), made from the typed lines, never by
        #: rewriting the text; ``fold_head``: a folded view's first line instead of the default
        self.terse = terse and compact
        self.fold_head = fold_head
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
        return render(self._history[-1].shown, compact=self.compact, terse=self.terse) if self._history else ""

    @property
    def known_by_id(self) -> dict[str, str]:
        """The element lines of the last view as the agent has them, by id (``visible`` marks off)."""
        if not self._history:
            return {}
        return {ln.eid: same_text(ln.text) for ln in self._history[-1].shown if ln.eid is not None}

    @property
    def known_lines(self) -> frozenset[str]:
        """The lines of the last view as the agent has them (unindented, ``visible`` marks off)."""
        return frozenset(_VISIBLE.sub("", ln.text) for ln in self._history[-1].shown) if self._history else frozenset()

    def forget(self) -> None:
        """Start over: the next update is sent as a whole view (a new episode, a new client)."""
        self._history.clear()
        self._seen.clear()
        self._pids.clear()
        self._next_pid = 0

    def known_value(self, eid: str, value: str) -> bool:
        """The agent was told element ``eid`` now holds ``value`` (a fill's or a selection's
        read-back): its copy of the last view reads so (:func:`~pagelens.focus.delta.formats.with_value`),
        and the next delta or fold against it leaves that line out when it is unchanged since."""
        if not self._history:
            return False
        last = self._history[-1]
        lead = f"[{eid}] "
        for k, ln in enumerate(last.shown):
            if ln.text.startswith(lead):
                new = with_value(ln.text, value)
                if new is None or new == ln.text:
                    return False
                shown = last.shown[:k] + (replace(ln, text=new),) + last.shown[k + 1:]
                self._history[-1] = replace(last, shown=shown)
                return True
        return False

    def _last(self) -> tuple[Observation | None, dict[str, str]]:
        return (self._history[-1].obs, self._history[-1].mapping) if self._history else (None, {})

    def carry(self, view: PageView) -> PageView:
        """``view`` with ids carried from the last view (without recording it as shown)."""
        prev, mapping = self._last()
        obs, _ = carry_ids(prev, mapping, view.observation)
        carried = view if obs is view.observation else re_render(view, obs)
        return carry_pids(carried, dict(self._pids), self._next_pid)[0]

    def update(self, view: PageView, *, allow_delta: bool = True, label: str = "", goal: str | None = None) -> Update:
        """Record ``view`` as shown; ``label`` names it in later deltas (e.g. "step 3"). ``goal``:
        what the view was focused on (a sticky tracker keeps lines that name it)."""
        _, last_map = self._last()
        carried_from: dict[int, tuple[Observation, dict[str, str]]] = {}  # carry_ids by base (one alignment each)

        def carried_ids(base: _Seen | None) -> tuple[Observation, dict[str, str]]:
            key = id(base)
            if key not in carried_from:
                carried_from[key] = carry_ids(base.obs if base else None, last_map, view.observation)
            return carried_from[key]

        if self.sticky and allow_delta and self._history and view.focused is not None:
            view = self._restrained(view, goal, carried_ids(self._history[-1]))  # (the same observation)
        bases: list[_Seen | None] = [self._history[-1] if self._history else None]
        if allow_delta and self._history:
            here = _page_key(view.observation.url)
            bases += [h for h in reversed(self._history[:-1]) if _page_key(h.obs.url) == here][:_EARLIER_BASES]
        options: list[_Option] = []
        view_tokens = 0
        seen = frozenset(self._seen)
        for base in bases:
            obs, mapping = carried_ids(base)
            carried = view if obs is view.observation else re_render(view, obs)
            carried, pids, next_pid = carry_pids(carried, dict(self._pids), self._next_pid)
            if base is not None:
                carried, pids = place_pids(base.shown, carried, pids, self._next_pid)
            lines = shown_lines(carried) if self.echo else without_value_echo(shown_lines(carried))
            if not options:  # the view itself, with ids carried from the last view
                if self.mark and self._history:
                    text = mark_new(lines, seen, compact=self.compact, terse=self.terse)
                else:
                    text = render(lines, compact=True, terse=self.terse) if self.compact else carried.text()
                view_tokens = tokens.count(text)
                options.append(_Option(view_tokens, carried, mapping, lines, "view", text, pids=pids,
                                       next_pid=next_pid))
            if not allow_delta or base is None:
                continue
            since = base.label if base is not bases[0] else ""
            base_text = render(base.shown, compact=self.compact, terse=self.terse)
            has = as_the_agent_has(base.shown, lines)
            delta = diff_views(base.shown, lines, since=since, compact=self.compact, terse=self.terse)
            delta_text = delta.text()
            options.append(_Option(tokens.count(delta_text), carried, mapping, has, "delta", delta_text, delta,
                                   base_text, pids, next_pid))
            if self.fold and not delta.empty:
                folded = fold_view(base.shown, lines, seen=seen if self.mark else None, since=since,
                                   compact=self.compact, terse=self.terse, head=self.fold_head)
                options.append(_Option(tokens.count(folded), carried, mapping, has, "fold", folded, None,
                                       base_text, pids, next_pid))
        best = min(options, key=lambda o: o.tokens)
        if best.pids is not None:
            self._pids, self._next_pid = dict(best.pids), best.next_pid
        had = known_texts(best.view) if self.sticky else frozenset()
        self._history.append(_Seen(best.view.observation, best.mapping, best.has,
                                   label or best.view.observation.url, had))
        del self._history[: -self.keep]
        self._history = _usable(self._history)
        self._seen.update(ln.eid for ln in best.has if ln.eid is not None)
        return Update(best.view, best.text, best.kind, best.tokens, view_tokens, best.delta, best.base_text)


    def _restrained(self, view: PageView, goal: str | None, carried_ids: tuple[Observation, dict[str, str]]) -> PageView:
        """``view`` kept to what the client was shown (:func:`sticky_view`); ``carried_ids``: its
        observation with ids carried from the last view (:func:`carry_ids`)."""
        last = self._history[-1]
        obs, _ = carried_ids
        carried = view if obs is view.observation else re_render(view, obs)
        shown = frozenset(same_text(ln.text) for ln in last.shown)
        return sticky_view(view, carried, had=last.had, shown=shown, terms=goal_terms(goal))


_VISIBLE = re.compile(r", visible(?=,|$)")


def _usable(history: list[_Seen]) -> list[_Seen]:
    """The views a later :meth:`ViewTracker.update` can still use, in order: the last one and,
    per address, the two latest before it (the only earlier bases ``update`` looks at). Each
    holds a whole observation, so an agent on one page keeps three trees, not ``keep``; and the
    earlier ones hold at most :data:`_EARLIER_NODES_MAX` nodes in all (newest first), so on a
    100,000-element page it keeps two trees, not three."""
    kept = [history[-1]]
    per_page: dict[str, int] = {}
    room = _EARLIER_NODES_MAX
    for seen in reversed(history[:-1]):
        key = _page_key(seen.obs.url)
        size = len(seen.obs.nodes)
        if (len(history) <= 3 or per_page.get(key, 0) < _EARLIER_BASES) and size <= room:
            per_page[key] = per_page.get(key, 0) + 1
            room -= size
            kept.append(seen)
    return kept[::-1]


#: Nodes the earlier views (all but the last) may hold in all: each is a whole tree (~0.5 KB a
#: node), kept only as a base for a later delta.
_EARLIER_NODES_MAX = 200_000


#: Earlier views of the same address an update may delta against (besides the last view).
_EARLIER_BASES = 2


def _page_key(url: str) -> str:
    return url.split("#", 1)[0].split("?", 1)[0]

