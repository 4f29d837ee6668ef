"""Which binary a real session launches: Chromium's headless shell for a headless session when it
is installed (Debian's ``chromium-headless-shell``), the full browser when ``PAGELENS_CHROMIUM`` or
the config names it. Read from the launched process itself (``/proc/PID/exe``)."""

from __future__ import annotations

import os

import pytest

from pagelens.browser import chromium
from pagelens.browser.chromium import ENV_VAR, find_chromium
from pagelens.browser.session import BrowserSession
from pagelens.config import BrowserConfig

pytestmark = pytest.mark.browser

SHELL = next((p for p in chromium._HEADLESS_KNOWN if os.access(p, os.X_OK)), None)
needs_shell = pytest.mark.skipif(SHELL is None, reason="Chromium's headless shell is not installed "
                                 "(Debian: apt-get install -y chromium-headless-shell)")


def _launched(session: BrowserSession, before: set[int]) -> set[str]:
    """The executables of the browser processes the session started (the thread's driver may
    also run a shared fixture's browser, there before), as the kernel sees them."""
    pids = set(session.chromium_pids()) - before
    assert pids
    return {os.path.realpath(f"/proc/{pid}/exe") for pid in pids}


def _running() -> set[int]:
    return {int(p) for p in os.listdir("/proc") if p.isdigit()}


def _observes(session: BrowserSession, url: str) -> None:
    with session.episode() as ep:
        ep.goto(url)
        obs = ep.observe()
    assert any(n.role == "button" for n in obs.nodes)


@needs_shell
def test_a_headless_session_runs_the_headless_shell(monkeypatch: pytest.MonkeyPatch, pages_server) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv(ENV_VAR, raising=False)
    before = _running()
    with BrowserSession() as session:
        assert session.executable == SHELL
        assert _launched(session, before) == {os.path.realpath(SHELL)}
        _observes(session, pages_server.url("actions_main.html"))


def test_pagelens_chromium_chooses_the_full_browser(monkeypatch: pytest.MonkeyPatch, pages_server) -> None:  # type: ignore[no-untyped-def]
    full = find_chromium(headless=False)
    monkeypatch.setenv(ENV_VAR, full)
    before = _running()
    with BrowserSession() as session:
        assert session.executable == full
        assert _launched(session, before) == {os.path.realpath(full)}
        _observes(session, pages_server.url("actions_main.html"))


def test_the_configured_executable_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    full = find_chromium(headless=False)
    monkeypatch.setenv(ENV_VAR, SHELL or full)
    before = _running()
    with BrowserSession(BrowserConfig(executable=full)) as session:
        assert _launched(session, before) == {os.path.realpath(full)}
