"""Reference plans: steps in the :mod:`pagelens.actions.spec` vocabulary, targets by role + name.

A :class:`PlanStep` is an action of the one action space (``click``, ``fill``, ``press``, ``goto``,
``stop`` ...) whose element is named by a :class:`Target` (ARIA role and accessible name) instead
of an observation id: :class:`~pagelens.agent.policy.ScriptedPolicy` resolves the target against
each live observation and issues the plain :class:`~pagelens.actions.spec.Action`. The arguments
are the action's own (``text`` for fill, ``option`` for select_option ...), checked against its
spec when the step is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from pagelens.actions.spec import ACTIONS, Action, ArgValue, validate

__all__ = ["PlanStep", "Target"]

_PLAN_ACTIONS = frozenset(name for name, spec in ACTIONS.items() if not spec.control) | {"stop"}


@dataclass(frozen=True, slots=True)
class Target:
    """An element by ARIA role and accessible name (exact), the ``nth`` match in document order."""

    role: str
    name: str
    nth: int = 0


@dataclass(frozen=True, slots=True)
class PlanStep:
    action: str  # a name in pagelens.actions.spec.ACTIONS
    target: Target | None = None
    args: Mapping[str, ArgValue] = field(default_factory=lambda: MappingProxyType({}))
    #: ``"checked"``: the step is a click that only runs when the element is not checked yet.
    ensure: Literal["checked"] | None = None

    def __post_init__(self) -> None:
        if self.action not in _PLAN_ACTIONS:
            raise ValueError(f"unknown plan action {self.action!r}; expected one of {', '.join(sorted(_PLAN_ACTIONS))}")
        object.__setattr__(self, "args", MappingProxyType(dict(self.args)))
        spec = ACTIONS[self.action]
        takes_id = spec.param("id") is not None
        if takes_id and self.target is None:
            raise ValueError(f"{self.action} needs a target")
        if self.target is not None and not takes_id and self.action != "press":
            raise ValueError(f"{self.action} takes no target")
        if "id" in self.args:
            raise ValueError("a plan step names its element by target, not by id")
        if self.ensure is not None and self.action != "click":
            raise ValueError("ensure='checked' is for click steps")
        problem = validate(Action(self.action, {**({"id": "0"} if takes_id else {}), **self.args}))
        if problem:
            raise ValueError(f"plan step {self}: {problem}")

    @property
    def value(self) -> str | None:
        """The step's one text argument (fill text, option, key, URL, answer), if any."""
        for key in ("text", "option", "key", "url", "answer", "direction"):
            if key in self.args:
                return str(self.args[key])
        return None

    def action_for(self, eid: str | None) -> Action:
        """The concrete action, on element ``eid`` when the step has a target that takes an id."""
        takes_id = ACTIONS[self.action].param("id") is not None
        return Action(self.action, {**({"id": eid} if takes_id and eid is not None else {}), **self.args})

    def __str__(self) -> str:
        parts: list[str] = ["check" if self.ensure == "checked" else self.action]
        if self.target is not None:
            parts.append(f"{self.target.role} {self.target.name!r}" + (f" #{self.target.nth}" if self.target.nth else ""))
        parts.extend(repr(v) for v in self.args.values())
        return " ".join(parts)
