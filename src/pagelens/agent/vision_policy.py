"""A scripted vision policy for the bundled tasks: the reference plan, acted out in pixels.

:class:`ScriptedVisionPolicy` resolves each plan step like :class:`ScriptedPolicy` (role +
name against the observation), then acts through the hybrid list instead of the element id:
``click`` → ``click_at`` the centre of the element's box, ``fill`` → ``type_at``, ``hover`` →
``hover_at``. An element with no box in the screenshot (scrolled out of view, zero size) keeps
its element action, and says so in ``fallbacks``. One action per reply: coordinates are only
valid for the screenshot they were read from, so the loop should observe every step.

A value the plan read from the page text that the loop's OCR check found drawn differently
on the screen (an obfuscating font: ``read_text`` feedback says "the screen shows ...") is
answered as the screen shows it, as WebFovea's agent reads obfuscated-font digits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from pagelens.actions.spec import Action
from pagelens.agent.policy import PolicyReply, ScriptedPolicy, StepContext

if TYPE_CHECKING:
    from pagelens.agent.plan import PlanStep
    from pagelens.vision.elements import ScreenElement

__all__ = ["ScriptedVisionPolicy", "to_coordinates"]


def to_coordinates(action: Action, boxes: dict[str, ScreenElement]) -> Action | None:
    """The coordinate form of an element action, or None when it has none (or no box)."""
    eid = str(action.args.get("id", ""))
    box = boxes.get(eid)
    if box is None or action.name not in ("click", "fill", "hover"):
        return None
    x, y = box.centre
    if action.name == "click":
        return Action("click_at", {"x": x, "y": y})
    if action.name == "hover":
        return Action("hover_at", {"x": x, "y": y})
    args: dict[str, str | int | bool] = {"x": x, "y": y, "text": str(action.args["text"])}
    if action.args.get("enter"):
        args["enter"] = True
    return Action("type_at", args)


class ScriptedVisionPolicy:
    name = "scripted-vision"

    def __init__(self, plan: Sequence[PlanStep]) -> None:
        self.inner = ScriptedPolicy(plan, name=self.name)
        self.translated: dict[Action, Action] = {}  # coordinate action -> the element action it stands for
        self.coordinate_actions = 0
        self.fallbacks: list[str] = []
        #: page-text value -> what the screen shows instead (OCR checks that disagreed)
        self.screen_values: dict[str, str] = {}

    @property
    def focus_misses(self) -> list[str]:
        return self.inner.focus_misses

    def decide(self, ctx: StepContext) -> PolicyReply:
        # the inner policy tracks progress by its own (element) actions: show it those
        feedback = tuple(replace(fb, action=self.translated.get(fb.action, fb.action)) for fb in ctx.feedback)
        for fb in ctx.feedback:
            for check in fb.detail.get("ocr", ()):
                if check.verdict == "disagree" and check.screen:
                    self.screen_values[check.value] = check.screen
        reply = self.inner.decide(replace(ctx, feedback=feedback))
        if not reply.actions or ctx.screen is None:
            return reply
        first = reply.actions[0]
        if first.name == "stop" and str(first.args.get("answer", "")) in self.screen_values:
            # the value came from the page text, but the screen shows another: answer what is shown
            shown = Action("stop", {"answer": self.screen_values[str(first.args["answer"])]})
            self.translated[shown] = first
            return replace(reply, text=f"Thought: {reply.thought}\nAction:\n{shown.render()}", actions=(shown,))
        coords = to_coordinates(first, ctx.screen.by_eid())
        if coords is None:
            if first.name in ("click", "fill", "hover"):
                self.fallbacks.append(first.render())
            return replace(reply, actions=(first,))
        self.translated[coords] = first
        self.coordinate_actions += 1
        text = f"Thought: {reply.thought}\nAction:\n{coords.render()}"
        return replace(reply, text=text, actions=(coords,), pivotal=())
