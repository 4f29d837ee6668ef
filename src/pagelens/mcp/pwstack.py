"""Playwright's per-call stack capture without reading source files (the MCP server's process).

Every call of Playwright's sync API records the caller's stack for the protocol's metadata
(``apiName`` and the frames' file, line and function): ``inspect.stack()``, which also reads
each frame's source line (a ``stat`` of every file on the stack, ``linecache``) — 3 ms per call
at the MCP worker's stack depth on an idle machine, 10 ms and more under load, and a fill or a
click is eight to twelve Playwright calls. Playwright uses only the frame objects and their
file name, line and function (``_connection._extract_stack_trace_information_from_stack``),
so :func:`light_stack` gives it exactly those, without the source context.

:func:`install` swaps the ``inspect`` that Playwright's modules look ``stack`` up in for one
whose ``stack`` is :func:`light_stack`; everything else is the real module. It is idempotent,
and does nothing when Playwright's layout is not the expected one (another version): then the
calls cost what they cost, nothing breaks.
"""

from __future__ import annotations

import inspect
import sys
import types
from typing import Any

__all__ = ["install", "installed", "light_stack"]

_MODULES = ("_sync_base", "_connection", "_network")


def light_stack(context: int = 1) -> list[inspect.FrameInfo]:
    """``inspect.stack()`` of the caller without source lines (``code_context`` and ``index``
    None): the frame, its code's file name, the line and the function's name."""
    out = []
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        out.append(inspect.FrameInfo(frame, code.co_filename, frame.f_lineno, code.co_name, None, None))
        frame = frame.f_back
    return out


class _Inspect(types.ModuleType):
    """The ``inspect`` module as Playwright's modules see it: ``stack`` is :func:`light_stack`."""

    stack = staticmethod(light_stack)

    def __getattr__(self, name: str) -> Any:
        return getattr(inspect, name)


_LIGHT = _Inspect("inspect")


def _modules() -> list[types.ModuleType]:
    from importlib import import_module

    found = []
    for name in _MODULES:
        try:
            module = import_module(f"playwright._impl.{name}")
        except ImportError:
            return []
        if getattr(module, "inspect", None) not in (inspect, _LIGHT):
            return []
        found.append(module)
    return found


def install() -> bool:
    """Give Playwright's modules :func:`light_stack`; False when their layout is not the known one."""
    modules = _modules()
    for module in modules:
        module.inspect = _LIGHT  # type: ignore[attr-defined]
    return bool(modules)


def installed() -> bool:
    modules = _modules()
    return bool(modules) and all(m.inspect is _LIGHT for m in modules)  # type: ignore[attr-defined]
