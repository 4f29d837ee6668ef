from __future__ import annotations

from collections.abc import Sequence

from pagelens.actions.executor import Feedback
from pagelens.actions.spec import Action
from pagelens.agent.plan import PlanStep, Target
from pagelens.agent.policy import LLMPolicy, ScriptedPolicy, StepContext, resolve_target
from pagelens.api import PageView
from pagelens.llm.base import Completion, Message, ResponseFormat
from pagelens.types import ElementId, Line, Observation, Rendering

ROWS = [  # eid, role, name, extra
    ("1", "searchbox", "Search products", ""),
    ("2", "button", "Add to cart", ""),
    ("3", "button", "Add to cart", ""),
    ("4", "checkbox", "I agree to the terms", ", checked=false"),
    ("5", "checkbox", "Newsletter", ", checked"),
    ("6", "link", "Acme Pro Lamp (black)", ""),
    ("7", "combobox", "Country", ""),
    ("8", "Date", "Start date", ""),
]


def _view(rows: Sequence[tuple[str, str, str, str]] = ROWS) -> PageView:
    lines = tuple(Line(i, 1, f"[{eid}] {role} '{name}'{extra}", i, role, ElementId(eid), None, name)
                  for i, (eid, role, name, extra) in enumerate(rows))
    return PageView(Observation("http://127.0.0.1/", "t", ()), Rendering(lines), 100)


def _ctx(feedback: tuple[Feedback, ...] = (), view: PageView | None = None, fresh: bool = True) -> StepContext:
    return StepContext("goal", 1, view or _view(), 0, fresh, feedback)


def _ok(action: Action, ok: bool = True) -> Feedback:
    return Feedback(action, ok, "done" if ok else "failed", "")


def test_resolve_target_exact_then_contains_case_insensitive_nth() -> None:
    lines = _view().rendering.lines
    assert resolve_target(lines, Target("button", "add to CART", 1)) == lines[2]
    assert resolve_target(lines, Target("link", "Acme Pro Lamp")) == lines[5]  # contains
    assert resolve_target(lines, Target("button", "Add to cart", 2)) is None
    assert resolve_target(lines, Target("link", "Add to cart")) is None  # role must match
    assert resolve_target(lines, Target("textbox", "Start date")) == lines[7]  # Chromium's role for type=date


def test_scripted_policy_resolves_merges_skips_and_resumes() -> None:
    plan = (
        PlanStep("fill", Target("searchbox", "Search products"), {"text": "lamp"}),
        PlanStep("press", Target("searchbox", "Search products"), {"key": "Enter"}),
        PlanStep("click", Target("checkbox", "Newsletter"), ensure="checked"),  # already checked: skipped
        PlanStep("click", Target("checkbox", "I agree to the terms"), ensure="checked"),
        PlanStep("select_option", Target("combobox", "Country"), {"option": "Portugal"}),
        PlanStep("click", Target("button", "Place order")),  # not on this page yet
        PlanStep("stop", args={"answer": "done"}),
    )
    policy = ScriptedPolicy(plan)
    reply = policy.decide(_ctx())
    assert reply.actions == (
        Action("fill", {"id": "1", "text": "lamp", "enter": True}),
        Action("click", {"id": "4"}),
        Action("select_option", {"id": "7", "option": "Portugal"}),
    )
    assert "Place order" in reply.thought and not reply.needs_observation
    # only the first two ran (a signal cut the sequence): resume at the select, re-resolved
    fb = (_ok(reply.actions[0]), _ok(reply.actions[1]))
    reply = policy.decide(_ctx(fb, fresh=False))
    assert policy.cursor == 4 and reply.actions[0].name == "select_option"
    # the select failed: it is tried again; the unresolvable click now asks for a fresh look
    reply = policy.decide(_ctx((_ok(reply.actions[0], ok=False),), fresh=False))
    assert policy.cursor == 4
    reply = policy.decide(_ctx((_ok(reply.actions[0]),), fresh=False))
    assert reply.actions == () and reply.needs_observation
    page2 = _view([("9", "button", "Place order", "")])
    reply = policy.decide(_ctx((), page2))
    assert reply.actions == (Action("click", {"id": "9"}), Action("stop", {"answer": "done"}))


class _FakeModel:
    def __init__(self, replies: list[str]) -> None:
        self.replies = replies
        self.seen: list[str] = []

    def complete(self, messages: Sequence[Message], *, max_tokens: int | None = None, temperature: float = 0.0,
                 response_format: ResponseFormat | None = None, timeout: float | None = None) -> Completion:
        self.seen.append(messages[-1].content)
        return Completion(self.replies.pop(0), 10, 5, 0.01, "fake", None, "stop")


def test_llm_policy_parses_and_reports_errors_without_raising() -> None:
    model = _FakeModel(["no action here", 'Thought: the lamp [6] matters\nAction:\nclick("6")\nstop("ok")'])
    policy = LLMPolicy(model)
    bad = policy.decide(_ctx())
    assert bad.parse_error and bad.actions == ()
    good = policy.decide(StepContext("goal", 2, _view(), 0, True, parse_error=bad.parse_error))
    assert good.parse_error is None and [a.name for a in good.actions] == ["click", "stop"]
    assert good.pivotal == ("6",) and good.usage["prompt_tokens"] == 10
    assert "could not be used" in model.seen[1] and "[6] link 'Acme Pro Lamp (black)'" in model.seen[1]
    assert "# Task\ngoal" in model.seen[0]


def test_focus_misses_count_only_steps_that_ran_on_an_unseen_target() -> None:
    from dataclasses import replace

    from pagelens.focus.apply import FocusResult

    plan = (PlanStep("click", Target("link", "Acme Pro Lamp")), PlanStep("click", Target("button", "Add to cart")),
            PlanStep("stop", args={"answer": "done"}))
    focused = replace(_view(), focused=FocusResult("default", (), frozenset({0, 5}), 100, 10))  # no cart button
    cut = ScriptedPolicy(plan)
    first = cut.decide(_ctx(view=focused))
    assert [a.name for a in first.actions] == ["click", "click", "stop"]
    cut.decide(_ctx((_ok(first.actions[0]),), view=focused))  # a signal cut the sequence after the link
    assert cut.focus_misses == []  # the unseen button was resolved ahead, never clicked from that view
    ran = ScriptedPolicy(plan)
    first = ran.decide(_ctx(view=focused))
    ran.decide(_ctx((_ok(first.actions[0]), _ok(first.actions[1])), view=focused))
    assert ran.focus_misses == ["click button 'Add to cart'"]
