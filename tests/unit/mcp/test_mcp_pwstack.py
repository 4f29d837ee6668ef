"""The light stack Playwright's calls record in the MCP server gives Playwright what the full
one gives it: the same frames, files, lines and API name (its error messages start with it)."""

from __future__ import annotations

import inspect

from playwright._impl import _connection, _sync_base

from pagelens.mcp.pwstack import install, installed, light_stack


def _parsed(stack: list[inspect.FrameInfo]) -> object:
    return _connection._extract_stack_trace_information_from_stack(stack, False)


def test_the_light_stack_gives_playwright_the_same_metadata_as_inspect_stack() -> None:
    def capture() -> tuple[list[inspect.FrameInfo], list[inspect.FrameInfo]]:
        return light_stack(), inspect.stack()  # (the same line: the same frames)

    light, full = capture()
    assert [(f.filename, f.lineno, f.function) for f in light] == [(f.filename, f.lineno, f.function) for f in full]
    assert [f.frame for f in light] == [f.frame for f in full]
    assert _parsed(light) == _parsed(full)
    assert all(f.code_context is None for f in light)  # no source read


def test_install_swaps_only_the_stack_of_playwrights_inspect() -> None:
    assert install() and installed() and install()  # idempotent
    seen = _sync_base.inspect
    assert seen is not inspect and seen.stack is light_stack
    assert seen.FrameInfo is inspect.FrameInfo and seen.isfunction is inspect.isfunction


def test_the_light_extract_stack_keeps_the_frames_and_reads_lines_only_when_formatted() -> None:
    import traceback

    from pagelens.mcp.pwstack import light_extract_stack

    def capture() -> tuple[traceback.StackSummary, traceback.StackSummary]:
        return light_extract_stack(), traceback.extract_stack()  # (the same line: the same frames)

    light, full = capture()
    assert [(f.filename, f.lineno, f.name) for f in light] == [(f.filename, f.lineno, f.name) for f in full]
    assert light[-1]._line is None  # type: ignore[attr-defined]  # not read yet
    assert traceback.format_list(light)[-10:] == traceback.format_list(full)[-10:]  # an error message's lines
    assert install() and _sync_base.traceback.extract_stack is light_extract_stack
    assert _connection.traceback.format_list is traceback.format_list
