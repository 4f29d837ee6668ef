"""Playwright's errors -> the project's tree (pagelens.browser.driving), without a browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from pagelens.browser.driving import first_line, translate
from pagelens.errors import (
    ActionError,
    ActionInterrupted,
    BrowserCrashed,
    ElementGone,
    PageClosed,
    PageTimeout,
)


class _Session:
    def __init__(self, *, crashed: bool = False, killed: str | None = None, connected: bool = True) -> None:
        self.crashed, self.killed, self._connected = crashed, killed, connected

    def connected(self) -> bool:
        return self._connected


@pytest.mark.parametrize(("message", "kind", "says"), [
    ("Locator.click: Execution context was destroyed, most likely because of a navigation", ActionInterrupted,
     "click [3]: the page navigated while this ran"),
    ("Frame.evaluate: Frame was detached", ActionInterrupted, "click [3]: the frame was removed"),
    ("ElementHandle.fill: Element is not attached to the DOM", ElementGone, "was removed from the page"),
    ("Page.goto: Target page, context or browser has been closed", PageClosed, "click [3]: the page was closed"),
    ("Locator.select_option: Error: Element is not a <select> element\n=== logs ===", ActionError,
     "Error: Element is not a <select> element"),
])
def test_driver_messages_become_project_errors(message: str, kind: type, says: str) -> None:
    err = translate(PlaywrightError(message), "click [3]", session=_Session())
    assert type(err) is kind and says in str(err)
    assert "Locator." not in str(err) and "===" not in str(err)


def test_a_timeout_is_page_timeout_and_a_dead_browser_wins() -> None:
    err = translate(PlaywrightTimeout("Locator.click: Timeout 500ms exceeded.\nCall log: ..."), "click [3]")
    assert type(err) is PageTimeout and str(err) == "click [3]: Timeout 500ms exceeded."
    for session in (_Session(crashed=True), _Session(connected=False), _Session(killed="observation hung")):
        err = translate(PlaywrightError("Execution context was destroyed"), "fill [4]", session=session)
        assert isinstance(err, BrowserCrashed) and str(err).startswith("fill [4]: ")
    assert "observation hung" in str(translate(PlaywrightError("x"), "w", session=_Session(killed="observation hung")))


def test_first_line() -> None:
    assert first_line(PlaywrightError("Page.goto: net::ERR_FAILED\nmore")) == "net::ERR_FAILED"
    assert first_line(PlaywrightError("")) == "Error"
