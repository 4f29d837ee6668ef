"""The action space, defined once.

Every action the model may use is one :class:`ActionSpec` in :data:`ACTIONS`. The same
entry feeds the prompt (:func:`prompt_doc`), the parser (names, arity, types), the
executor (one handler per entry, checked by a test) and the feedback (canonical
rendering with :meth:`Action.render`). An action described in one place but missing in
another fails silently in practice, so nothing here is duplicated elsewhere.

The space is deliberately small (AgentOccam): element actions, a few page actions, two
text tools (``find_text``, ``read_text``), two view actions (``expand``, ``search_page``) that
answer from the last observation (:mod:`pagelens.focus.recover`) without touching the page,
and four planning actions (``note``, ``stop``, ``branch``, ``prune``) that never touch the
page either: the executor hands them back to the agent loop as ``control`` results.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

__all__ = [
    "ACTIONS",
    "ID_PATTERN",
    "VISION_ACTIONS",
    "Action",
    "ActionSpec",
    "ArgValue",
    "Param",
    "ParamType",
    "prompt_doc",
    "render_value",
    "validate",
]

ParamType = Literal["id", "str", "int", "bool", "enum"]
ArgValue = str | int | bool

#: Element ids are the numbers the observation shows in brackets, e.g. ``[12]``.
ID_PATTERN = re.compile(r"\d{1,9}")


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: ParamType
    doc: str
    required: bool = True
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionSpec:
    name: str
    params: tuple[Param, ...]
    doc: str
    example: str
    #: Planning actions (note/stop/branch/prune): returned to the loop, never run on the page.
    control: bool = False
    #: View actions (expand/search_page): answered from the last observation, never run on the page.
    view: bool = False
    #: Element actions whose handler starts by probing the element (visible? covered? editable?):
    #: the executor runs that probe with the fingerprint before the action, in one page call.
    probe: bool = False

    def param(self, name: str) -> Param | None:
        for p in self.params:
            if p.name == name:
                return p
        return None

    def signature(self) -> str:
        parts = []
        for p in self.params:
            if p.required:
                parts.append(p.name)
            elif p.type == "bool":
                parts.append(f"{p.name}=False")
            else:
                parts.append(f"{p.name}=…")
        return f"{self.name}({', '.join(parts)})"


def _frozen_args(args: Mapping[str, ArgValue]) -> Mapping[str, ArgValue]:
    return MappingProxyType(dict(args))


@dataclass(frozen=True, slots=True)
class Action:
    """One typed action. ``args`` holds only the arguments given (optional ones may be absent)."""

    name: str
    args: Mapping[str, ArgValue] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", _frozen_args(self.args))

    def _key(self) -> tuple[str, tuple[tuple[str, str, ArgValue], ...]]:
        # typed: True and 1 are different arguments
        return self.name, tuple(sorted((k, type(v).__name__, v) for k, v in self.args.items()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def render(self) -> str:
        """Canonical text, e.g. ``click("12")`` or ``fill("3", "a, \\"b\\"", enter=True)``.

        Required arguments are positional (in spec order, while none is missing), the rest
        are keywords. :func:`pagelens.actions.parser.parse` reads this back exactly.
        """
        spec = ACTIONS.get(self.name)
        order = [p.name for p in spec.params] if spec else []
        parts: list[str] = []
        done: set[str] = set()
        positional = True
        for pname in order:
            p = spec.param(pname) if spec else None
            if p is None or not p.required:
                continue
            if positional and pname in self.args:
                parts.append(render_value(self.args[pname]))
                done.add(pname)
            else:
                positional = False
        keys = [k for k in order if k not in done] + [k for k in self.args if k not in order]
        for k in keys:
            if k in self.args:
                parts.append(f"{k}={render_value(self.args[k])}")
        return f"{self.name}({', '.join(parts)})"

    def __str__(self) -> str:
        return self.render()


def render_value(v: ArgValue) -> str:
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, int):
        return str(v)
    return json.dumps(v, ensure_ascii=False)


def _p(name: str, type_: ParamType, doc: str, required: bool = True, choices: tuple[str, ...] = ()) -> Param:
    return Param(name, type_, doc, required, choices)


_ID = _p("id", "id", "the element's number from the observation, e.g. \"12\" for [12]")

_SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("click", (_ID,), "Click the element [id] (link, button, checkbox, tab ...).", 'click("12")',
               probe=True),
    ActionSpec(
        "fill",
        (
            _ID,
            _p("text", "str", "the complete new value (replaces what is in the field)"),
            _p("enter", "bool", "press Enter afterwards (e.g. to submit a search)", required=False),
        ),
        "Replace the content of the text field [id] with text. The field's real value is read back to you.",
        'fill("7", "blue shoes", enter=True)',
        probe=True,
    ),
    ActionSpec(
        "select_option",
        (_ID, _p("option", "str", "the visible label (or value) of the option")),
        "Choose an option of the drop-down [id]. If it does not exist, the available options are listed.",
        'select_option("9", "Large")',
    ),
    ActionSpec("hover", (_ID,), "Move the mouse over [id] to reveal a tooltip or menu.", 'hover("15")',
               probe=True),
    ActionSpec(
        "press",
        (_p("key", "str", "a key or combination: Enter, Tab, Escape, ArrowDown, Control+a"),),
        "Press a key on the element that has keyboard focus.",
        'press("Escape")',
    ),
    ActionSpec(
        "scroll",
        (
            _p("direction", "enum", "up or down", choices=("up", "down")),
            _p("amount", "int", "pixels (default: most of one screen)", required=False),
        ),
        "Scroll the page (or its main scrolling area).",
        'scroll("down")',
    ),
    ActionSpec("go_back", (), "Go back to the previous page.", "go_back()"),
    ActionSpec(
        "goto",
        (_p("url", "str", "a path on this site like /cart, or a full 127.0.0.1/localhost URL"),),
        "Open a URL of this site. Other sites are refused. Re-opening the current URL counts as a reload.",
        'goto("/search?q=lamp")',
    ),
    ActionSpec(
        "find_text",
        (_p("text", "str", "the words to look for (case-insensitive)"),),
        "Like Ctrl+F: scroll the next occurrence of text into view (child frames too). Returns no text; "
        "look at the next observation.",
        'find_text("Shipping policy")',
    ),
    ActionSpec(
        "read_text",
        (_p("id_or_label", "str", "an element number, or a label printed next to the value"),),
        "Return up to 600 characters of page text at the element or near the label, to verify a value "
        "you already saw. Characters drawn by a private font come back as \"?\".",
        'read_text("Order total")',
    ),
    ActionSpec(
        "expand",
        (
            _p("placeholder", "str", 'a placeholder id from the observation, e.g. "p7" for [p7] ... 42 lines pruned ...'),
            _p("start", "int", "skip this many of its lines (to page through a long one)", required=False),
        ),
        "Show the lines a placeholder stands for, with their context. Their ids can be used in your next actions.",
        'expand("p7")', view=True,
    ),
    ActionSpec(
        "search_page",
        (_p("text", "str", "the words to look for (any case and accents; whole phrase first, then words)"),),
        "List the lines of the last observation, pruned ones included, that match text, with their context. Their "
        "ids can be used in your next actions. (find_text scrolls the page; this only reads the observation.)",
        'search_page("Add to cart")', view=True,
    ),
    ActionSpec(
        "note", (_p("text", "str", "what to remember"),), "Write down a fact for later steps.",
        'note("Order #1042 costs $35.10")', control=True,
    ),
    ActionSpec(
        "stop", (_p("answer", "str", "the final answer (\"\" if none)"),),
        "Finish the task with your answer.", 'stop("$35.10")', control=True,
    ),
    ActionSpec(
        "branch",
        (_p("parent_id", "str", "the plan step to refine"), _p("intent", "str", "the new sub-plan")),
        "Start a sub-plan under plan step parent_id.", 'branch("0", "Find the order list")', control=True,
    ),
    ActionSpec(
        "prune",
        (_p("plan_id", "str", "the plan step to abandon"), _p("reason", "str", "why it failed")),
        "Abandon plan step plan_id and go back to its parent.",
        'prune("1", "No order list on this page")', control=True,
    ),
)

# -- coordinate actions (vision): screenshot pixels, mapped by pagelens.actions.coords ---------
_X = _p("x", "int", "pixels from the left edge of the screenshot")
_Y = _p("y", "int", "pixels from the top edge of the screenshot")
_VISION_SPECS: tuple[ActionSpec, ...] = (
    ActionSpec("click_at", (_X, _Y), "Click the point (x, y) of the screenshot. The element under the point is "
               "reported back.", "click_at(310, 236)"),
    ActionSpec("hover_at", (_X, _Y), "Move the mouse to the point (x, y) of the screenshot (tooltips, charts, "
               "menus).", "hover_at(512, 300)"),
    ActionSpec(
        "scroll_at",
        (_X, _Y, _p("direction", "enum", "up or down", choices=("up", "down")),
         _p("amount", "int", "pixels (default: most of one screen)", required=False)),
        "Scroll whatever is under the point (x, y) (a list, a map, or the page).", 'scroll_at(700, 400, "down")',
    ),
    ActionSpec(
        "type_at",
        (_X, _Y, _p("text", "str", "the complete new value (replaces what is in the field)"),
         _p("enter", "bool", "press Enter afterwards", required=False)),
        "Click the text field at (x, y) and replace its content with text; the field's value is read back.",
        'type_at(400, 120, "blue shoes", enter=True)',
    ),
)
#: Coordinate actions are offered only when the observation has a screenshot.
VISION_ACTIONS = frozenset(s.name for s in _VISION_SPECS)
_SPECS = _SPECS + _VISION_SPECS

ACTIONS: Mapping[str, ActionSpec] = MappingProxyType({s.name: s for s in _SPECS})


def validate(action: Action) -> str | None:
    """Why ``action`` does not match its spec (a message for the model), or None when it does."""
    spec = ACTIONS.get(action.name)
    if spec is None:
        return f"unknown action {action.name!r}; use one of: {', '.join(ACTIONS)}"
    usage = f"usage: {spec.signature()}, e.g. {spec.example}"
    for key in action.args:
        if spec.param(key) is None:
            return f"{action.name} has no argument {key!r}; {usage}"
    for p in spec.params:
        if p.name not in action.args:
            if p.required:
                return f"{action.name} needs {p.name} ({p.doc}); {usage}"
            continue
        v = action.args[p.name]
        problem = _type_problem(p, v)
        if problem:
            return f"{action.name}: {p.name} {problem}; {usage}"
    return None


def _type_problem(p: Param, v: ArgValue) -> str | None:
    if p.type == "id":
        if not isinstance(v, str) or not ID_PATTERN.fullmatch(v):
            return 'must be an element number like "12" (the number in brackets)'
    elif p.type == "str":
        if not isinstance(v, str):
            return "must be text in double quotes"
    elif p.type == "int":
        if isinstance(v, bool) or not isinstance(v, int):
            return "must be a whole number"
    elif p.type == "bool":
        if not isinstance(v, bool):
            return "must be True or False"
    elif p.type == "enum" and (not isinstance(v, str) or v not in p.choices):
        return f"must be one of: {', '.join(p.choices)}"
    return None


def prompt_doc(*, vision: bool = False) -> str:
    """The action documentation shown to the model, generated from :data:`ACTIONS`
    (coordinate actions only with ``vision=True``: the model then sees a screenshot)."""
    lines = [
        (
            "Reply with a short \"Thought:\" and then \"Action:\" followed by one or more actions, one per "
            "line; they run in order. Element ids are the numbers in brackets in the observation. Put text in "
            "double quotes."
        ),
        "",
        "Page actions:",
    ]
    for spec in _SPECS:
        if spec.control or spec.view or (spec.name in VISION_ACTIONS and not vision):
            continue
        lines.append(_doc_line(spec))
    lines += ["", "View actions (they answer from the last observation; the page is not touched):"]
    for spec in _SPECS:
        if spec.view:
            lines.append(_doc_line(spec))
    lines += ["", "Planning actions (they do not touch the page):"]
    for spec in _SPECS:
        if spec.control:
            lines.append(_doc_line(spec))
    return "\n".join(lines)


def _doc_line(spec: ActionSpec) -> str:
    params = "; ".join(f"{p.name}: {p.doc}" for p in spec.params if p.type != "id")
    extra = f" ({params})" if params else ""
    return f"- {spec.signature()}: {spec.doc}{extra} Example: {spec.example}"
