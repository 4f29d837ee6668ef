"""Policies: what to do next, given one :class:`StepContext`.

``Policy`` is the seam (one method, ``decide``). Two implementations:

* :class:`LLMPolicy` — prompts a :class:`~pagelens.llm.base.ChatModel` (goal, plan tree,
  scoped history, last feedback, signals as statements, the focused observation, the action
  docs) and parses the reply into typed actions. A reply that cannot be parsed comes back
  with ``parse_error`` set; the loop feeds it to the next call (bounded), it never raises.
* :class:`ScriptedPolicy` — follows a bundled task's reference plan. Each
  :class:`~pagelens.bench.tasks.Target` is resolved lazily, against the observation of the
  call (role equal; name exact, then contained, case-insensitive; ``nth``). It returns every
  upcoming step it can resolve now, as one sequence; the loop runs it until a signal fires.
  Progress is read back from the feedback of the actions the loop actually ran, so a
  sequence cut short by a signal is resumed, re-resolved, after the re-observation. A step it
  cannot resolve on a stale observation asks for a fresh one (``needs_observation``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pagelens.actions.spec import Action

if TYPE_CHECKING:
    from pagelens.actions.executor import Feedback
    from pagelens.api import PageView
    from pagelens.bench.tasks import PlanStep, Target
    from pagelens.llm.base import ChatModel
    from pagelens.signals.detector import Signal
    from pagelens.types import Line

__all__ = ["LLMPolicy", "Policy", "PolicyReply", "ScriptedPolicy", "StepContext", "resolve_target"]

_ID_MENTION = re.compile(r"\[(\d{1,9})\]")
_CHECKED = re.compile(r", checked(?:=true)?(?:,|$)")
#: ARIA roles (as plans and Playwright name them) -> Chromium's roles for the same elements.
_ROLE_ALIASES = {"textbox": frozenset({"textbox", "date", "datetime", "inputtime", "time", "month", "week"})}


@dataclass(frozen=True, slots=True)
class StepContext:
    goal: str
    step: int  # the number the next action will get (1-based)
    view: PageView  # the latest observation, rendered and focused
    observed_at: int  # the step after which it was taken (0: the start page)
    fresh: bool  # no action has run since it was taken
    feedback: tuple[Feedback, ...] = ()  # what the actions run since the last decision did
    signals: tuple[Signal, ...] = ()  # why the page was re-observed
    plan_text: str = ""
    history_text: str = ""
    parse_error: str | None = None  # why the previous reply could not be used
    remaining_steps: int = 30
    #: observe="delta": the observation was sent as these changes against ``base_text`` (the
    #: view the policy saw before); ``view`` is what they add up to.
    delta: str | None = None
    base_text: str = ""


@dataclass(frozen=True, slots=True)
class PolicyReply:
    text: str
    actions: tuple[Action, ...]
    thought: str = ""
    parse_error: str | None = None
    usage: Mapping[str, float] = field(default_factory=dict)
    #: The policy cannot go on without a fresh observation (its next target is not on the
    #: page it was shown).
    needs_observation: bool = False
    #: Element ids the policy named as important (replayed in the history with their context).
    pivotal: tuple[str, ...] = ()


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

        completion = self.model.complete(build_messages(ctx), max_tokens=self.max_tokens, temperature=self.temperature)
        usage = {"prompt_tokens": completion.prompt_tokens, "completion_tokens": completion.completion_tokens,
                 "latency_s": completion.latency_s}
        result = parse(completion.text)
        error = result.error
        if error is None and not result.actions:
            error = "the reply has no action"
        pivotal = tuple(dict.fromkeys(
            [*_ID_MENTION.findall(result.thought), *(str(a.args["id"]) for a in result.actions if "id" in a.args)]))
        return PolicyReply(completion.text, result.actions if error is None else (), result.thought, error, usage,
                           pivotal=pivotal)


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
    """Replays a reference plan of :class:`~pagelens.bench.tasks.PlanStep` values.

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
                issued.append(_Issued(Action("stop", {"answer": step.value or ""}), skipped + 1))
                break
            if step.target is None:
                action = _untargeted(step)
                if action is None:
                    missing = f"plan step {i} ({step}) has no equivalent action"
                    break
                issued.append(_Issued(action, skipped + 1))
                skipped, i = 0, i + 1
                continue
            line = resolve_target(lines, step.target)
            if line is None:
                missing = f"no element matches {step} on the current observation"
                break
            unseen = str(step) if shown is not None and line.no not in shown else ""
            eid = str(line.eid)
            nxt = self.plan[i + 1] if i + 1 < len(self.plan) else None
            if step.action == "check" and _CHECKED.search(line.text):
                skipped, i = skipped + 1, i + 1  # already checked: clicking would uncheck it
                continue
            if step.action == "fill" and nxt is not None and nxt.action == "press" and nxt.target == step.target \
                    and nxt.value == "Enter":
                issued.append(_Issued(Action("fill", {"id": eid, "text": step.value or "", "enter": True}), skipped + 2,
                                      unseen))
                skipped, i = 0, i + 2
                continue
            issued.append(_Issued(_targeted(step, eid), skipped + 1, unseen))
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


def _targeted(step: PlanStep, eid: str) -> Action:
    value = step.value or ""
    if step.action == "fill":
        return Action("fill", {"id": eid, "text": value})
    if step.action == "select_option":
        return Action("select_option", {"id": eid, "option": value})
    if step.action == "hover":
        return Action("hover", {"id": eid})
    if step.action == "press":  # a key on an element: focus it first by clicking would change state
        return Action("press", {"key": value})
    return Action("click", {"id": eid})  # click, check, scroll-into-view


def _untargeted(step: PlanStep) -> Action | None:
    value = step.value or ""
    if step.action == "goto":
        return Action("goto", {"url": value})
    if step.action == "go_back":
        return Action("go_back")
    if step.action == "press":
        return Action("press", {"key": value})
    if step.action == "scroll":
        amount: dict[str, Any] = {"amount": int(value.strip().lstrip("-"))} if value.strip().lstrip("-").isdigit() else {}
        return Action("scroll", {"direction": "up" if value.strip().startswith("-") else "down", **amount})
    return None
