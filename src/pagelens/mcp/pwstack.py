"""Playwright's per-call stack capture without reading source files (the MCP server's process).

Every call of Playwright's sync API records the caller's stack for the protocol's metadata
(``apiName`` and the frames' file, line and function): ``inspect.stack()``, which also reads
each frame's source line (a ``stat`` of every file on the stack, ``linecache``) — 3 ms per call
at the MCP worker's stack depth on an idle machine, 10 ms and more under load, and a fill or a
click is eight to twelve Playwright calls. Playwright uses only the frame objects and their
file name, line and function (``_connection._extract_stack_trace_information_from_stack``),
so :func:`light_stack` gives it exactly those, without the source context. Each call also
keeps ``traceback.extract_stack()`` for the message of an error it may raise, and that checks
every file on the stack against the disk (``linecache.checkcache``: a ``stat`` each) and reads
each frame's line; :func:`light_extract_stack` keeps the same frames and reads a line only when
an error message is written.

:func:`install` swaps the ``inspect`` and ``traceback`` that Playwright's modules look ``stack``
and ``extract_stack`` up in for ones whose functions are the light ones; everything else is the
real module. It is idempotent, and does nothing when Playwright's layout is not the expected
one (another version): then the calls cost what they cost, nothing breaks.
"""

from __future__ import annotations

import inspect
import sys
import traceback
import types
from typing import Any

__all__ = ["install", "installed", "light_extract_stack", "light_stack"]

_MODULES = ("_sync_base", "_connection", "_network")
#: Playwright's modules that keep ``traceback.extract_stack()`` per call.
_TB_MODULES = ("_sync_base", "_connection")


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


def light_extract_stack(f: types.FrameType | None = None, limit: int | None = None) -> traceback.StackSummary:
    """``traceback.extract_stack()`` without touching the disk: the same frames (oldest first),
    each line read from the source only when asked (an error message formats it)."""
    frame: types.FrameType | None = sys._getframe(1) if f is None else f
    out: list[traceback.FrameSummary] = []
    while frame is not None and (limit is None or len(out) < limit):
        code = frame.f_code
        out.append(traceback.FrameSummary(code.co_filename, frame.f_lineno, code.co_name, lookup_line=False))
        frame = frame.f_back
    out.reverse()
    return traceback.StackSummary.from_list(out)


class _Traceback(types.ModuleType):
    """The ``traceback`` module as Playwright's modules see it: ``extract_stack`` is light."""

    extract_stack = staticmethod(light_extract_stack)

    def __getattr__(self, name: str) -> Any:
        return getattr(traceback, name)


class _Inspect(types.ModuleType):
    """The ``inspect`` module as Playwright's modules see it: ``stack`` is :func:`light_stack`."""

    stack = staticmethod(light_stack)

    def __getattr__(self, name: str) -> Any:
        return getattr(inspect, name)


_LIGHT = _Inspect("inspect")
_LIGHT_TB = _Traceback("traceback")


def _modules(names: tuple[str, ...], attr: str, real: types.ModuleType, light: types.ModuleType) -> list[types.ModuleType]:
    from importlib import import_module

    found = []
    for name in names:
        try:
            module = import_module(f"playwright._impl.{name}")
        except ImportError:
            return []
        if getattr(module, attr, None) not in (real, light):
            return []
        found.append(module)
    return found


def install() -> bool:
    """Give Playwright's modules :func:`light_stack` (and :func:`light_extract_stack`); False when
    their layout is not the known one."""
    modules = _modules(_MODULES, "inspect", inspect, _LIGHT)
    for module in modules:
        module.inspect = _LIGHT  # type: ignore[attr-defined]
    for module in _modules(_TB_MODULES, "traceback", traceback, _LIGHT_TB) if modules else ():
        module.traceback = _LIGHT_TB  # type: ignore[attr-defined]
    return bool(modules)


def installed() -> bool:
    modules = _modules(_MODULES, "inspect", inspect, _LIGHT)
    return bool(modules) and all(m.inspect is _LIGHT for m in modules)  # type: ignore[attr-defined]
