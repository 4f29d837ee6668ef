"""AgentOccam's planning tree: branch into subplans, prune back, history scoped to the plan.

The task itself is plan 0, the root. ``branch(parent_id, intent)`` opens a subplan under any
live plan and makes it active; ``prune(plan_id, reason)`` abandons ``plan_id`` with its whole
subtree (as :mod:`pagelens.actions.spec` documents it) and, when the active plan was inside
that subtree, resumes ``plan_id``'s parent — AgentOccam's "return to a previous plan state".

History is recorded against the plan that was active when the step ran. The history shown to
the policy (:meth:`PlanTree.history_text`) holds only the steps of the active plan and its
ancestors, so work done in abandoned plans leaves the prompt. Past pages are never replayed
whole: each step keeps only its *pivotal* elements (ids the policy named) with their
ancestors, siblings and a few descendants, cut from that step's rendering
(:func:`pivotal_context`).

Plan ids are plain ints; every invalid request raises :class:`~pagelens.errors.ActionError`,
which the loop turns into ``invalid`` feedback.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from pagelens.errors import ActionError
from pagelens.types import ElementId, Line, Rendering

__all__ = ["HistoryEntry", "PlanNode", "PlanTree", "pivotal_context"]

PlanStatus = Literal["active", "open", "pruned"]
_MAX_DESCENDANTS = 6
_MAX_SIBLINGS = 2  # on each side


@dataclass(frozen=True, slots=True)
class PlanNode:
    id: int
    parent: int | None
    intent: str
    status: PlanStatus = "open"  # "open": live but not the active plan
    reason: str = ""  # why it was pruned
    step: int = 0  # the step at which it was created


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    step: int
    plan: int
    action: str  # the rendered action, e.g. "click('12')"
    outcome: str  # one line of feedback
    pivotal: tuple[str, ...] = ()  # indented lines cut from that step's page


class PlanTree:
    """The plan tree of one episode (mutable state; its nodes and entries are frozen)."""

    def __init__(self, goal: str) -> None:
        self._nodes: dict[int, PlanNode] = {0: PlanNode(0, None, goal, "active")}
        self._active = 0
        self._history: list[HistoryEntry] = []

    # -- reading ---------------------------------------------------------------------------
    @property
    def active(self) -> PlanNode:
        return self._nodes[self._active]

    @property
    def nodes(self) -> tuple[PlanNode, ...]:
        return tuple(self._nodes.values())

    def node(self, plan_id: int) -> PlanNode:
        try:
            return self._nodes[plan_id]
        except KeyError:
            raise ActionError(f"there is no plan {plan_id}; plans: {', '.join(map(str, self._nodes))}") from None

    def path(self, plan_id: int | None = None) -> tuple[int, ...]:
        """Ids from the root down to ``plan_id`` (the active plan by default)."""
        out: list[int] = []
        cur: int | None = self._active if plan_id is None else plan_id
        while cur is not None:
            out.append(cur)
            cur = self._nodes[cur].parent
        return tuple(reversed(out))

    def children(self, plan_id: int) -> tuple[PlanNode, ...]:
        return tuple(n for n in self._nodes.values() if n.parent == plan_id)

    def subtree(self, plan_id: int) -> tuple[int, ...]:
        out, todo = [], [plan_id]
        while todo:
            cur = todo.pop()
            out.append(cur)
            todo.extend(n.id for n in self.children(cur))
        return tuple(sorted(out))

    # -- planning commands -----------------------------------------------------------------
    def branch(self, parent_id: int, intent: str, *, step: int = 0) -> int:
        parent = self.node(parent_id)
        if parent.status == "pruned":
            raise ActionError(f"plan {parent_id} was pruned ({parent.reason or 'no reason given'}); branch from a live plan")
        intent = " ".join(intent.split())
        if not intent:
            raise ActionError("branch needs an intent: what the new subplan should achieve")
        new_id = max(self._nodes) + 1
        self._nodes[new_id] = PlanNode(new_id, parent_id, intent, "open", step=step)
        self._activate(new_id)
        return new_id

    def prune(self, plan_id: int, reason: str) -> int:
        """Prune as described in the module docstring; returns the plan now active."""
        node = self.node(plan_id)
        if node.status == "pruned":
            raise ActionError(f"plan {plan_id} is already pruned")
        if node.parent is None:
            raise ActionError("the root plan (the task itself) cannot be pruned; use stop to give up")
        reason = " ".join(reason.split()) or "no reason given"
        doomed = self.subtree(plan_id)
        resume_needed = self._active in doomed
        for nid in doomed:
            if self._nodes[nid].status != "pruned":
                self._nodes[nid] = replace(self._nodes[nid], status="pruned", reason=reason)
        if resume_needed:
            self._active = node.parent  # the old active node is pruned now: no status to reset
            self._nodes[node.parent] = replace(self._nodes[node.parent], status="active")
        return self._active

    def _activate(self, plan_id: int) -> None:
        old = self._nodes[self._active]
        if old.status == "active":
            self._nodes[self._active] = replace(old, status="open")
        self._nodes[plan_id] = replace(self._nodes[plan_id], status="active")
        self._active = plan_id

    # -- history ---------------------------------------------------------------------------
    def record(self, step: int, action: str, outcome: str, pivotal: Iterable[str] = ()) -> HistoryEntry:
        entry = HistoryEntry(step, self._active, action, " ".join(outcome.split()), tuple(pivotal))
        self._history.append(entry)
        return entry

    @property
    def history(self) -> tuple[HistoryEntry, ...]:
        """Every entry, pruned plans included (for traces)."""
        return tuple(self._history)

    def scoped_history(self) -> tuple[HistoryEntry, ...]:
        """Entries recorded under the active plan or one of its ancestors."""
        keep = set(self.path())
        return tuple(e for e in self._history if e.plan in keep)

    # -- text for the prompt ---------------------------------------------------------------
    def tree_text(self) -> str:
        lines: list[str] = []

        def walk(nid: int, depth: int) -> None:
            n = self._nodes[nid]
            mark = {"active": " <- active", "open": "", "pruned": f" [pruned: {n.reason}]"}[n.status]
            lines.append("\t" * depth + f"[{n.id}] {n.intent}{mark}")
            for child in self.children(nid):
                walk(child.id, depth + 1)

        walk(0, 0)
        return "\n".join(lines)

    def history_text(self, max_entries: int = 12, max_pivotal_entries: int = 3) -> str:
        """The scoped history, oldest first; only the latest entries keep their page lines."""
        entries = self.scoped_history()[-max_entries:]
        if not entries:
            return "(no actions yet)"
        out: list[str] = []
        with_lines = {id(e) for e in entries[-max_pivotal_entries:]}
        for e in entries:
            out.append(f"step {e.step} (plan {e.plan}): {e.action} -> {e.outcome}")
            if e.pivotal and id(e) in with_lines:
                out.extend("\t" + ln for ln in e.pivotal)
        return "\n".join(out)


def pivotal_context(rendering: Rendering, ids: Iterable[str]) -> tuple[str, ...]:
    """The lines of the named elements with their ancestors, siblings and first descendants,
    in page order and indented as on the page (AgentOccam's pivotal-node replay)."""
    lines = rendering.lines
    pos = {ln.no: i for i, ln in enumerate(lines)}
    by_eid = {ln.eid: i for i, ln in enumerate(lines) if ln.eid is not None}
    keep: set[int] = set()
    for eid in ids:
        i = by_eid.get(ElementId(str(eid).strip("[] ")))
        if i is None:
            continue
        ln = lines[i]
        keep.update(_subtree(lines, i, _MAX_DESCENDANTS))
        parent = ln.parent
        siblings = [j for j, other in enumerate(lines) if other.parent == parent and other.depth == ln.depth]
        at = siblings.index(i)
        keep.update(siblings[max(0, at - _MAX_SIBLINGS) : at + _MAX_SIBLINGS + 1])  # the nearest ones
        while parent is not None and parent in pos:
            keep.add(pos[parent])
            parent = lines[pos[parent]].parent
    return tuple("\t" * lines[i].depth + lines[i].text for i in sorted(keep))


def _subtree(lines: tuple[Line, ...], i: int, limit: int) -> list[int]:
    out = [i]
    j = i + 1
    while j < len(lines) and lines[j].depth > lines[i].depth and len(out) <= limit:
        out.append(j)
        j += 1
    return out
