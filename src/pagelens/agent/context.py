"""What a policy is given and what it returns: :class:`StepContext` and :class:`PolicyReply`.

Plain values shared by the loop, the policies (:mod:`pagelens.agent.policy`) and the prompt
builder (:mod:`pagelens.agent.prompts`), so neither of those two imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pagelens.actions.spec import Action

if TYPE_CHECKING:
    from pagelens.actions.executor import Feedback
    from pagelens.focus.view import PageView
    from pagelens.signals.detector import Signal
    from pagelens.vision.hybrid import HybridView

__all__ = ["PolicyReply", "StepContext"]


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
    #: the hybrid view (screenshot + element boxes) of the observation, when vision is on
    screen: HybridView | None = None
    #: the last k screenshots, oldest first, the latest included (``ScreenshotConfig.keep_last``)
    screens: tuple[HybridView, ...] = ()
    #: lines of ``view``'s full rendering brought back by expand/search_page since it was taken:
    #: shown to the policy now, so their ids are valid for its next action
    revealed: frozenset[int] = frozenset()
    #: observe="delta": the observation was sent as these changes against ``base_text`` (the
    #: view the policy saw before); ``view`` is what they add up to.
    delta: str | None = None
    base_text: str = ""
    #: observe="delta": the whole view exactly as it was sent (the compact text of
    #: :class:`~pagelens.focus.delta.ViewTracker`); None: ``view.text()``
    view_text: str | None = None


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
    #: the prompt exactly as sent (LLM policies), kept as evidence in the trace's side files
    prompt: str = ""
