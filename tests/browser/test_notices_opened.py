"""A dialog the agent opened keeps its text; a cookie bar it did not open shows its controls only (real Chromium,
the real agent loop, a scripted policy: only the LLM is faked)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pagelens.actions.spec import Action
from pagelens.agent.context import PolicyReply, StepContext
from pagelens.agent.loop import run_task
from pagelens.browser.serve import StaticServer
from pagelens.focus.registry import make_retriever
from pagelens.task import Task

pytestmark = pytest.mark.browser
PAGES = Path(__file__).parent / "pages" / "layouts"


class _Deleter:
    """Clicks the button named ``Delete my list``, then stops; keeps every view it was shown."""

    name = "deleter"

    def __init__(self) -> None:
        self.views: list[str] = []

    def decide(self, ctx: StepContext) -> PolicyReply:
        text = ctx.view.text()
        self.views.append(text)
        m = re.search(r"\[(\w+)\] button 'Delete my list'", text)
        if len(self.views) == 1 and m:
            return PolicyReply(f"click {m.group(1)}", (Action("click", {"id": m.group(1)}),))
        return PolicyReply("stop", (Action("stop", {"answer": "done"}),))


def test_a_confirmation_dialog_the_agent_opened_keeps_its_text(browser_session) -> None:  # type: ignore[no-untyped-def]
    policy = _Deleter()
    with StaticServer(PAGES) as server:
        task = Task(goal="Delete my saved chairs list", start_url=server.url("confirm_opened.html"))
        run_task(task, policy=policy, retriever=make_retriever("default"), session=browser_session,
                 observe_mode="every-step", timeout_s=60)
    assert len(policy.views) == 2, policy.views
    first, second = policy.views
    # the cookie bar was there when the page opened: its controls, not its text, in both views
    for view in (first, second):
        assert "zqcookieprose" not in view and re.search(r"\] button 'Accept'", view), view
    # the dialog appeared after the agent's click: shown whole, text and buttons
    assert "zqconfirmprose" in second, second
    assert re.search(r"\] button 'Keep them'", second), second


def test_the_mcp_server_shows_the_dialog_its_client_opened() -> None:
    """The same page through the MCP server's tool calls (in process: the stdio transport is tested elsewhere)."""
    from pagelens.mcp.browsing import Browsing, McpConfig
    from pagelens.mcp.tools import parse_call

    browsing = Browsing(McpConfig(goal="Delete my saved chairs list", headless=True))
    try:
        with StaticServer(PAGES) as server:
            call = parse_call("navigate", {"url": server.url("confirm_opened.html")})
            assert not isinstance(call, str)
            first = browsing.call(call).text
            m = re.search(r"\[(\w+)\] button 'Delete my list'", first)
            assert m and "zqcookieprose" not in first and "zqconfirmprose" not in first, first
            click = parse_call("click", {"id": m.group(1)})
            assert not isinstance(click, str)
            second = browsing.call(click).text
    finally:
        browsing.close()
    assert "zqconfirmprose" in second, second
    assert "zqcookieprose" not in second, second


def test_a_closed_session_forgets_that_its_client_acted() -> None:
    """After ``close()`` (a fresh browser context) nothing the client did before counts: a live region on the next
    page it opens was not opened by it, and is folded like any notice of a first observation."""
    from pagelens.mcp.browsing import Browsing, McpConfig
    from pagelens.mcp.tools import parse_call

    def call(name: str, args: dict[str, str]) -> str:
        parsed = parse_call(name, args)
        assert not isinstance(parsed, str), parsed
        return browsing.call(parsed).text

    browsing = Browsing(McpConfig(goal="Which garden tools are for sale?", headless=True))
    try:
        with StaticServer(PAGES) as server:
            first = call("navigate", {"url": server.url("quiet_button.html")})
            m = re.search(r"\[(\w+)\] button 'Sort by title'", first)
            assert m, first
            clicked = call("click", {"id": m.group(1)})  # a button that changes nothing: no new view
            assert "no visible change" in clicked and "view" not in clicked.lower(), clicked
            browsing.close()
            fresh = call("navigate", {"url": server.url("status_in_flow.html")})
    finally:
        browsing.close()
    assert "Leaf rake" in fresh, fresh
    assert "zqstatusprose" not in fresh, fresh  # the status region's text is folded behind its placeholder
