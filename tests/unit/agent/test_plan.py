"""Plan steps speak the action vocabulary of pagelens.actions.spec."""

from __future__ import annotations

import pytest

from pagelens.actions.spec import Action
from pagelens.agent.plan import PlanStep, Target


def test_plan_step_validation() -> None:
    with pytest.raises(ValueError, match="needs a target"):
        PlanStep("click")
    with pytest.raises(ValueError, match="text"):
        PlanStep("fill", Target("textbox", "Name"))  # fill needs its text argument
    with pytest.raises(ValueError, match="unknown plan action"):
        PlanStep("check", Target("checkbox", "Terms"))  # not an action of the spec
    with pytest.raises(ValueError, match="takes no target"):
        PlanStep("goto", Target("link", "Home"), {"url": "/"})
    with pytest.raises(ValueError, match="by target"):
        PlanStep("click", Target("link", "Home"), {"id": "3"})
    with pytest.raises(ValueError, match="click steps"):
        PlanStep("fill", Target("textbox", "Name"), {"text": "x"}, ensure="checked")


def test_plan_step_becomes_the_spec_action() -> None:
    fill = PlanStep("fill", Target("textbox", "Name"), {"text": "Ada"})
    assert fill.action_for("7") == Action("fill", {"id": "7", "text": "Ada"})
    assert fill.value == "Ada" and str(fill) == "fill textbox 'Name' 'Ada'"
    assert PlanStep("goto", args={"url": "/cart"}).action_for(None) == Action("goto", {"url": "/cart"})
    assert str(PlanStep("click", Target("radio", "Express", 1), ensure="checked")) == "check radio 'Express' #1"
