"""Policies: what to do next, given one :class:`StepContext`.

``Policy`` is the seam (one method, ``decide``). Two implementations:

* :class:`LLMPolicy` — prompts a :class:`~pagelens.llm.base.ChatModel` (goal, plan tree,
  scoped history, last feedback, signals as statements, the focused observation, the action
  docs) and parses the reply into typed actions. A reply that cannot be parsed comes back
  with ``parse_error`` set; the loop feeds it to the next call (bounded), it never raises.
* :class:`ScriptedPolicy` — follows a reference plan (:mod:`pagelens.agent.plan`). Each
  :class:`~pagelens.agent.plan.Target` is resolved lazily, against the observation of the
  call (role equal; name exact, then contained, case-insensitive; ``nth``). It returns every
  upcoming step it can resolve now, as one sequence; the loop runs it until a signal fires.
  Progress is read back from the feedback of the actions the loop actually ran, so a
  sequence cut short by a signal is resumed, re-resolved, after the re-observation. A step it
  cannot resolve on a stale observation asks for a fresh one (``needs_observation``).
  With ``view_only=True`` it acts, as an LLM would, only on elements in the view it was shown
  (the focused lines, plus lines an ``expand``/``search_page`` brought back); with
  ``recover=True`` too, a target missing from that view is looked for with ``search_page``
  (the target's name), then by expanding placeholders in order, before it acts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from pagelens.actions.spec import Action
from pagelens.agent.context import PolicyReply, StepContext
from pagelens.agent.plan import PlanStep, Target

if TYPE_CHECKING:
    from pagelens.actions.executor import Feedback
    from pagelens.llm.base import ChatModel
    from pagelens.types import Line

__all__ = ["LLMPolicy", "Policy", "PolicyReply", "ScriptedPolicy", "StepContext", "resolve_target"]

_ID_MENTION = re.compile(r"\[(\d{1,9})\]")
_CHECKED = re.compile(r", checked(?:=true)?(?:,|$)")
#: ARIA roles (as plans and Playwright name them) -> Chromium's roles for the same elements.
_ROLE_ALIASES = {"textbox": frozenset({"textbox", "date", "datetime", "inputtime", "time", "month", "week"})}


class Policy(Protocol):
    name: str

    def decide(self, ctx: StepContext) -> PolicyReply: ...


# -- LLM -------------------------------------------------------------------------------------
class LLMPolicy:
    """A policy backed by a chat model. Endpoint failures raise :class:`~pagelens.errors.LLMError`."""

    def __init__(self, model: ChatModel, *, max_tokens: int = 800, temperature: float = 0.0,
                 name: str = "llm") -> None:
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.name = name

    def decide(self, ctx: StepContext) -> PolicyReply:
        from pagelens.actions.parser import parse
        from pagelens.agent.prompts import build_messages

        messages = build_messages(ctx)
        completion = self.model.complete(messages, max_tokens=self.max_tokens, temperature=self.temperature)
        usage = {"prompt_tokens": completion.prompt_tokens, "completion_tokens": completion.completion_tokens,
                 "latency_s": completion.latency_s}
        result = parse(completion.text)
        error = result.error
        if error is None and not result.actions:
            error = "the reply has no action"
        pivotal = tuple(dict.fromkeys(
            [*_ID_MENTION.findall(result.thought), *(str(a.args["id"]) for a in result.actions if "id" in a.args)]))
        prompt = "\n\n".join(f"## {m.role}" + (f" (+{len(m.images)} image(s))" if m.images else "") + f"\n{m.content}"
                             for m in messages)
        return PolicyReply(completion.text, result.actions if error is None else (), result.thought, error, usage,
                           pivotal=pivotal, prompt=prompt)


# -- scripted --------------------------------------------------------------------------------
def resolve_target(lines: Sequence[Line], target: Target) -> Line | None:
    """The ``nth`` element line with the target's role whose name equals the target's name
    (case-insensitive), else the ``nth`` whose name contains it; None when there is none.
    A ``textbox`` target also matches Chromium's date/time field roles (``Date`` ...)."""
    roles = _ROLE_ALIASES.get(target.role.casefold(), frozenset({target.role.casefold()}))
    name = " ".join(target.name.split()).casefold()
    candidates = [ln for ln in lines if ln.eid is not None and ln.role.casefold() in roles]
    exact = [ln for ln in candidates if ln.name.casefold() == name]
    if len(exact) > target.nth:
        return exact[target.nth]
    contains = [ln for ln in candidates if name in ln.name.casefold()]
    return contains[target.nth] if len(contains) > target.nth else None


@dataclass(frozen=True, slots=True)
class _Issued:
    action: Action
    covers: int  # plan steps this action accomplishes (fill + press Enter = 2; skipped checks)
    unseen: str = ""  # the plan step, when its target was not in the focused view


class ScriptedPolicy:
    """Replays a reference plan of :class:`~pagelens.agent.plan.PlanStep` values.

    ``focus_misses`` lists the plan steps *executed* on a target that was missing from the
    focused view (but present on the page): an LLM shown that view could not have acted on it.
    Steps resolved ahead but never run from that view (the sequence was cut by a signal and
    re-planned on a new observation) do not count.
    """

    def __init__(self, plan: Sequence[PlanStep], *, name: str = "scripted", view_only: bool = False,
                 recover: bool = False, max_recover_per_step: int = 6) -> None:
        self.plan = tuple(plan)
        self.name = name
        self.cursor = 0
        self.focus_misses: list[str] = []
        self.view_only = view_only
        self.recover = recover
        self.max_recover_per_step = max_recover_per_step
        #: view actions issued, as ``(plan step index, rendered action)``
        self.recoveries: list[tuple[int, str]] = []
        self.recovered_tokens = 0  # tokens of the lines view actions brought back (sent to the policy)
        self._tried: tuple[int, object, set[str]] = (-1, None, set())  # (cursor, view, view actions tried)
        self._issued: list[_Issued] = []

    def decide(self, ctx: StepContext) -> PolicyReply:
        self._advance(ctx.feedback)
        view = ctx.view
        lines = view.rendering.lines
        shown = view.focused.kept | ctx.revealed if view.focused is not None else None
        issued: list[_Issued] = []
        i = self.cursor
        skipped = 0
        missing = ""
        while i < len(self.plan):
            step = self.plan[i]
            if step.action == "stop":
                issued.append(_Issued(step.action_for(None), skipped + 1))
                break
            if step.target is None:
                issued.append(_Issued(step.action_for(None), skipped + 1))
                skipped, i = 0, i + 1
                continue
            line = resolve_target(lines, step.target)
            if line is None:
                missing = f"no element matches {step} on the current observation"
                break
            unseen = str(step) if shown is not None and line.no not in shown else ""
            if unseen and self.view_only:
                if not issued and self.recover:
                    action = self._recovery(ctx, i, step)
                    if action is not None:
                        issued.append(_Issued(action, 0))
                        break
                missing = f"{step} is not in the view"
                break
            eid = str(line.eid)
            nxt = self.plan[i + 1] if i + 1 < len(self.plan) else None
            if step.ensure == "checked" and _CHECKED.search(line.text):
                skipped, i = skipped + 1, i + 1  # already checked: clicking would uncheck it
                continue
            if step.action == "fill" and nxt is not None and nxt.action == "press" and nxt.target == step.target \
                    and nxt.value == "Enter":
                issued.append(_Issued(Action("fill", {"id": eid, **step.args, "enter": True}), skipped + 2, unseen))
                skipped, i = 0, i + 2
                continue
            # a key on an element is pressed where the focus is (clicking first would change state)
            issued.append(_Issued(step.action_for(eid), skipped + 1, unseen))
            skipped, i = 0, i + 1
        self._issued = issued
        actions = tuple(x.action for x in issued)
        thought = f"plan step {self.cursor + 1}/{len(self.plan)}" + (f"; then: {missing}" if missing else "")
        text = "Thought: " + thought + "\nAction:\n" + "\n".join(a.render() for a in actions)
        return PolicyReply(text, actions, thought, needs_observation=bool(missing) and not actions,
                           pivotal=tuple(str(a.args["id"]) for a in actions if "id" in a.args))

    def _recovery(self, ctx: StepContext, i: int, step: PlanStep) -> Action | None:
        """The next view action to find plan step ``i``'s target: search its name, then expand
        the view's placeholders in order (paging through long ones); None when all were tried."""
        if self._tried[0] != self.cursor or self._tried[1] is not ctx.view:
            self._tried = (self.cursor, ctx.view, set())
        tried = self._tried[2]
        if len(tried) >= self.max_recover_per_step:
            return None
        candidates: list[Action] = []
        if step.target is not None and step.target.name.strip():
            candidates.append(Action("search_page", {"text": step.target.name}))
        focused = ctx.view.focused
        for ol in focused.lines if focused is not None else ():
            if ol.pid is None:
                continue
            size = len(focused.placeholders.get(ol.pid, ())) if focused is not None else 0
            candidates.append(Action("expand", {"placeholder": ol.pid}))
            candidates += [Action("expand", {"placeholder": ol.pid, "start": k}) for k in self._pages(ctx, ol.pid, size)]
        for action in candidates:
            if action.render() not in tried:
                tried.add(action.render())
                self.recoveries.append((i, action.render()))
                return action
        return None

    @staticmethod
    def _pages(ctx: StepContext, pid: str, size: int) -> list[int]:
        """Where the later pages of a capped expand start, read back from the expand feedback."""
        starts: list[int] = []
        for fb in ctx.feedback:
            if fb.action.name == "expand" and str(fb.action.args.get("placeholder")) == pid and fb.detail.get("capped"):
                shown = len(fb.detail.get("matched", ()))
                nxt = int(fb.action.args.get("start", 0)) + shown
                if 0 < nxt < size:
                    starts.append(nxt)
        return starts

    def _advance(self, feedback: Sequence[Feedback]) -> None:
        for issued, fb in zip(self._issued, feedback):
            if issued.covers == 0:  # a view action: no plan step done
                self.recovered_tokens += int(fb.detail.get("tokens", 0)) if fb.ok else 0
                continue
            if issued.unseen and fb.action == issued.action:
                self.focus_misses.append(issued.unseen)  # it ran on a target the view did not show
            if not fb.ok or fb.action != issued.action:
                break
            self.cursor += issued.covers
        self._issued = []
