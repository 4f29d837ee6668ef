"""One ActionSpec, four consumers: prompt, parser, executor, feedback must agree.

Parametrised over the union of every name any side knows, so an action missing from one
side (documented but not executable, executable but never described ...) fails its own case.
"""

from __future__ import annotations

import dataclasses

import pytest

from pagelens.actions.executor import CONTROL, HANDLERS, VIEW, handled_actions
from pagelens.actions.parser import parse
from pagelens.actions.spec import ACTIONS, VISION_ACTIONS, Action, prompt_doc, validate

ALL_NAMES = sorted(set(ACTIONS) | set(handled_actions()) | set(HANDLERS) | set(CONTROL) | set(VIEW))


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_action_is_specified_documented_parsed_and_executed(name: str) -> None:
    assert name in ACTIONS, f"the executor handles {name!r} but ACTIONS has no spec for it"
    spec = ACTIONS[name]
    doc = prompt_doc(vision=name in VISION_ACTIONS)
    assert spec.signature() in doc, f"{name} is not documented in the prompt"
    assert spec.example in doc
    result = parse(f"Thought: use {name}.\nAction: {spec.example}")
    assert result.error is None, result.error
    assert [a.name for a in result.actions] == [name]
    assert validate(result.actions[0]) is None
    assert result.actions[0].render() == spec.example, "the example is not in canonical form"
    assert name in handled_actions(), f"{name} is in ACTIONS but the executor has no handler"
    assert (name in CONTROL) == spec.control, f"{name}: control flag and executor disagree"
    assert (name in VIEW) == spec.view, f"{name}: view flag and executor disagree"
    assert not (spec.view and spec.control), f"{name}: an action is a view action or a planning action, not both"
    assert (name in HANDLERS) != (spec.control or spec.view), f"{name}: a page action needs a page handler (and only it)"


def test_coordinate_actions_are_documented_only_with_a_screenshot() -> None:
    plain, vision = prompt_doc(), prompt_doc(vision=True)
    assert VISION_ACTIONS == {"click_at", "hover_at", "scroll_at", "type_at"}
    for name in VISION_ACTIONS:
        assert f"- {ACTIONS[name].signature()}" not in plain and f"- {ACTIONS[name].signature()}" in vision
    assert plain in vision.replace("".join(ln + "\n" for ln in vision.splitlines()
                                           if any(ln.startswith(f"- {n}(") for n in VISION_ACTIONS)), "")


def test_executor_handles_exactly_the_specified_actions() -> None:
    assert handled_actions() == frozenset(ACTIONS)


def test_probed_actions_come_from_the_specs_and_are_element_actions() -> None:
    from pagelens.actions.ops import HANDLERS as PAGE_HANDLERS
    from pagelens.actions.ops import PROBED

    assert {"click", "fill", "hover"} <= PROBED == {n for n, s in ACTIONS.items() if s.probe}
    for name in PROBED:  # the probe needs an element, and a handler that reads it
        assert name in PAGE_HANDLERS and any(p.type == "id" for p in ACTIONS[name].params), name


def test_specs_are_well_formed() -> None:
    for name, spec in ACTIONS.items():
        assert spec.name == name and spec.doc and spec.example
        names = [p.name for p in spec.params]
        assert len(names) == len(set(names))
        seen_optional = False
        for p in spec.params:
            assert p.doc
            assert (p.type == "enum") == bool(p.choices)
            if not p.required:
                seen_optional = True
            else:
                assert not seen_optional, f"{name}: required {p.name} after an optional parameter"


def test_values_are_frozen_and_hashable() -> None:
    a = Action("fill", {"id": "3", "text": "x", "enter": True})
    b = Action("fill", {"text": "x", "enter": True, "id": "3"})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.name = "click"  # type: ignore[misc]
    with pytest.raises(TypeError):
        a.args["id"] = "4"  # type: ignore[index]
    assert Action("fill", {"id": "3", "text": "1"}) != Action("fill", {"id": "3", "text": 1})  # type: ignore[dict-item]
    spec = ACTIONS["click"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.doc = ""  # type: ignore[misc]


def test_validate_messages_name_the_syntax() -> None:
    assert "usage: fill(id, text, enter=False)" in (validate(Action("fill", {"id": "3"})) or "")
    assert "must be one of: up, down" in (validate(Action("scroll", {"direction": "left"})) or "")
    assert "unknown action" in (validate(Action("exec", {"code": "1"})) or "")
    assert validate(Action("click", {"id": "abc"})) is not None
    assert validate(Action("click", {"id": "12", "x": 1})) is not None
