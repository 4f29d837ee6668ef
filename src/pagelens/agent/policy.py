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

    def __init__(self, plan: Sequence[PlanStep], *, name: str = "scripted") -> None:
        self.plan = tuple(plan)
        self.name = name
        self.cursor = 0
        self.focus_misses: list[str] = []
        self._issued: list[_Issued] = []

    def decide(self, ctx: StepContext) -> PolicyReply:
        self._advance(ctx.feedback)
        view = ctx.view
        lines = view.rendering.lines
        shown = view.focused.kept if view.focused is not None else None
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

    def _advance(self, feedback: Sequence[Feedback]) -> None:
        for issued, fb in zip(self._issued, feedback):
            if issued.unseen and fb.action == issued.action:
                self.focus_misses.append(issued.unseen)  # it ran on a target the view did not show
            if not fb.ok or fb.action != issued.action:
                break
            self.cursor += issued.covers
        self._issued = []
