"""The MCP tools, generated from :class:`~pagelens.actions.spec.ActionSpec` values (pure; no MCP import).

Page actions (``click``, ``fill`` … ``read_text``) are the agent's own specs from
:data:`pagelens.actions.spec.ACTIONS`: the same names, parameter docs and descriptions the
prompt shows, so the two cannot drift. ``navigate`` is the ``goto`` spec under the name MCP
clients expect. The server's own tools (``observe``, ``set_goal``, ``screenshot``, ``close``)
are specs of the same type, declared here. A call is parsed into a typed
:class:`~pagelens.actions.spec.Action` and validated by the same :func:`validate` as a model's
reply; a bad call is a message, never an exception.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from pagelens.actions.spec import ACTIONS, Action, ActionSpec, ArgValue, Param, validate

__all__ = ["PAGE_TOOLS", "TOOLS", "ToolCall", "input_schema", "parse_call", "tool_description"]

#: MCP tool name -> the action spec it runs (page actions: the agent's own specs).
PAGE_TOOLS: Mapping[str, str] = MappingProxyType({
    "navigate": "goto", "click": "click", "fill": "fill", "select_option": "select_option", "press": "press",
    "hover": "hover", "scroll": "scroll", "go_back": "go_back", "find_text": "find_text", "read_text": "read_text",
})
#: Tools added when the library has them (recoverable pruning): spec name -> tool name.
OPTIONAL_PAGE_TOOLS: Mapping[str, str] = MappingProxyType({"search_page": "search_page", "expand": "expand"})

_NAVIGATE = replace(
    ACTIONS["goto"],
    name="navigate",
    params=(Param("url", "str", "a full URL (http://127.0.0.1:8000/...) or a path of the current site like /cart"),),
    doc="Open a URL. Only allowed origins are reached (by default loopback); others are refused.",
    example='navigate("http://127.0.0.1:8000/")',
)

_OWN: tuple[ActionSpec, ...] = (
    ActionSpec(
        "observe",
        (
            Param("goal", "str", "what you are trying to do; focuses the view (else the server's goal)", False),
            Param("retriever", "str", "focus method: default, bm25-400, truncate, none ...", False),
            Param("full", "bool", "the whole tree instead of the focused view (cut to the cap; use part)", False),
            Param("part", "int", "which part of a view longer than the cap (1, 2, ...)", False),
        ),
        "Look at the page now: what changed since your last view, or the focused view of the goal when that is "
        "shorter (elements new since your last view are marked *); with goal, retriever or full: that view, whole. "
        "Actions already answer with what changed, so call this only to look again or to read more.",
        'observe(goal="Find the shipping cost")',
    ),
    ActionSpec(
        "set_goal",
        (Param("goal", "str", "the task in plain words"),),
        "Set the goal the views are focused on (until changed). Answers with the page focused on it.",
        'set_goal("Add the cheapest lamp to the cart")',
    ),
    ActionSpec(
        "screenshot",
        (Param("full_page", "bool", "the whole page instead of the viewport", False),),
        "A PNG screenshot of the page (downscaled to the server's size cap).",
        "screenshot()",
    ),
    ActionSpec("close", (), "Close the browser page of this session (the next call opens a fresh one).", "close()"),
)


def _specs() -> dict[str, ActionSpec]:
    out: dict[str, ActionSpec] = {}
    for tool, spec_name in PAGE_TOOLS.items():
        out[tool] = _NAVIGATE if tool == "navigate" else ACTIONS[spec_name]
    for spec_name, tool in OPTIONAL_PAGE_TOOLS.items():
        if spec_name in ACTIONS:
            out[tool] = ACTIONS[spec_name]
    for spec in _OWN:
        out[spec.name] = spec
    return out


#: Every tool the server lists, in a stable order.
TOOLS: Mapping[str, ActionSpec] = MappingProxyType(_specs())

_JSON_TYPES = {"id": "string", "str": "string", "int": "integer", "bool": "boolean", "enum": "string"}


def _param_schema(p: Param) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": _JSON_TYPES[p.type], "description": p.doc}
    if p.type == "id":
        schema["pattern"] = r"^\d{1,9}$"
    if p.type == "enum":
        schema["enum"] = list(p.choices)
    return schema


def input_schema(spec: ActionSpec) -> dict[str, Any]:
    """The JSON schema of a tool's arguments (unknown arguments are refused)."""
    return {
        "type": "object",
        "properties": {p.name: _param_schema(p) for p in spec.params},
        "required": [p.name for p in spec.params if p.required],
        "additionalProperties": False,
    }


def tool_description(spec: ActionSpec) -> str:
    return f"{spec.doc} Example: {spec.example}"


@dataclass(frozen=True, slots=True)
class ToolCall:
    tool: str
    action: Action  # the spec's action (``goto`` for navigate)


def parse_call(tool: str, arguments: Mapping[str, Any] | None) -> ToolCall | str:
    """A typed call, or the message explaining why the call is not valid."""
    spec = TOOLS.get(tool)
    if spec is None:
        return f"unknown tool {tool!r}; the tools are: {', '.join(TOOLS)}"
    args: dict[str, ArgValue] = {}
    for key, value in (arguments or {}).items():
        p = spec.param(key)
        if p is None:
            return f"{tool} has no argument {key!r}; usage: {spec.signature()}, e.g. {spec.example}"
        if p.type == "id" and isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # clients often send [12] as the number 12
        if p.type == "id" and isinstance(value, str):
            value = value.strip().strip("[]").strip()
        if not isinstance(value, str | int | bool):
            return f"{tool}: {key} must be a {_JSON_TYPES[p.type]}, not {type(value).__name__}"
        args[key] = value
    name = PAGE_TOOLS.get(tool, tool)
    action = Action(name, args)
    if name in ACTIONS:
        problem = validate(action)
        if problem:
            return problem.replace(f"{name}(", f"{tool}(") if tool != name else problem
        return ToolCall(tool, action)
    problem = _validate_own(spec, action)
    return problem or ToolCall(tool, action)


def _validate_own(spec: ActionSpec, action: Action) -> str | None:
    usage = f"usage: {spec.signature()}, e.g. {spec.example}"
    for p in spec.params:
        if p.name not in action.args:
            if p.required:
                return f"{spec.name} needs {p.name} ({p.doc}); {usage}"
            continue
        v = action.args[p.name]
        ok = {"str": isinstance(v, str), "bool": isinstance(v, bool),
              "int": isinstance(v, int) and not isinstance(v, bool)}.get(p.type, True)
        if not ok:
            return f"{spec.name}: {p.name} must be a {_JSON_TYPES[p.type]}; {usage}"
    return None
