"""The only module that launches Chromium.

A :class:`BrowserSession` owns one Playwright driver and one headless Chromium with a fresh
profile; each :meth:`BrowserSession.episode` gets its own browser context and page, so
episodes never share cookies or storage. Closing the session (or leaving its ``with``
block, or a crash) leaves no Chromium process behind.
"""

from __future__ import annotations

import threading
import weakref
from functools import cached_property
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urlsplit

from pagelens.browser.chromium import JIT_ARGS, OFFLINE_ARGS, find_chromium, launch_args
from pagelens.browser.watchdog import Deadline, kill_tree, processes, wait_gone, watchdog
from pagelens.config import BrowserConfig
from pagelens.errors import (
    BrowserCrashed,
    BrowserError,
    PageError,
    PagelensError,
    PageNotHTML,
    PageTimeout,
    PageUnreachable,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright

    from pagelens.browser.extract import PageObserver
    from pagelens.browser.page import Tab
    from pagelens.types import Observation

_LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
_LOCAL_SCHEMES = {"data", "blob", "about", "file", "chrome-error"}
_HTML_TYPES = ("text/html", "application/xhtml+xml", "text/plain", "application/xml", "text/xml")


def is_local_url(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in _LOCAL_SCHEMES:
        return True
    host = (parts.hostname or "").lower()
    return host in _LOOPBACK or host.startswith("127.")


class _Driver(threading.local):
    """Playwright's sync driver, shared by the sessions of one thread.

    Playwright allows one sync driver per thread, so sessions opened while another is open
    (a test's own session inside a shared fixture, a benchmark beside a demo) share it; it
    stops when the last session of the thread closes.
    """

    def __init__(self) -> None:
        self.pw: Playwright | None = None
        self.users = 0

    def acquire(self) -> Playwright:
        if self.pw is None:
            from playwright.sync_api import sync_playwright

            self.pw = sync_playwright().start()
        self.users += 1
        return self.pw

    def release(self) -> None:
        self.users -= 1
        if self.users <= 0 and self.pw is not None:
            pw, self.pw, self.users = self.pw, None, 0
            try:
                pw.stop()
            except Exception:  # noqa: BLE001, S110 - the driver may already be gone
                pass


_driver = _Driver()


class BrowserSession:
    """One Chromium, driven by Playwright's sync API. Use as a context manager."""

    def __init__(self, config: BrowserConfig | None = None) -> None:
        self.config = config or BrowserConfig()
        self._pw: Playwright | None = None
        self._browser: Browser | None = None
        self._crashed = threading.Event()
        self._killed: str | None = None  # why the watchdog stopped the browser, if it did
        self._pids: list[int] = []  # the browser process(es) this session launched
        self.executable: str | None = None

    # -- lifecycle -------------------------------------------------------------------
    def start(self) -> Self:
        if self._browser is not None:
            return self
        self.executable = find_chromium(self.config.executable, headless=self.config.headless)
        from playwright.sync_api import Error as PlaywrightError

        self._pw = _driver.acquire()
        before = set(self._driver_children())
        try:
            self._browser = self._pw.chromium.launch(
                executable_path=self.executable,
                headless=self.config.headless,
                # every non-loopback request goes to a proxy that refuses it at once, loopback
                # bypasses it: far cheaper than routing each request through Python (a
                # 478-request page loaded 2.4x faster)
                args=launch_args(OFFLINE_ARGS, JIT_ARGS, _BLACKHOLE_ARGS if self.config.block_external else (), self.config.extra_args),
                timeout=30_000,
            )
        except PlaywrightError as exc:
            _driver.release()
            self._pw = None
            raise BrowserError(f"could not launch Chromium at {self.executable}: {_first_line(exc)}") from None
        self._browser.on("disconnected", lambda _b: self._crashed.set())
        self._pids = [p for p in self._driver_children() if p not in before]
        self._crashed.clear()
        self._killed = None
        _LIVE.add(self)
        return self

    def close(self) -> None:
        browser, pw = self._browser, self._pw
        self._browser, self._pw = None, None
        _LIVE.discard(self)
        if browser is not None:
            # a renderer stuck in a script can make a graceful close wait for ever
            with watchdog(self.config.close_timeout_s, self.kill):
                try:
                    browser.close()
                except Exception:  # noqa: BLE001, S110 - already gone is fine
                    pass
        if pw is not None:
            _driver.release()
        if self._pids:
            wait_gone(self._pids, 2.0) or kill_tree(self._pids)
            self._pids = []

    def kill(self, reason: str = "stopped") -> None:
        """End this session's Chromium at once (SIGKILL, whole process tree); safe from any thread.

        A Playwright call blocked on the browser fails right after; the next
        :meth:`episode` starts a fresh browser.
        """
        self._killed = reason
        kill_tree(self._pids)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def crashed(self) -> bool:
        return self._crashed.is_set()

    def ensure_alive(self) -> Self:
        """Launch a fresh Chromium if this one died, so that a sweep goes on after a crash
        (the crashed episode itself has already ended with its error)."""
        self._restart_if_killed()  # crashed, or stopped by the observation watchdog
        return self

    def connected(self) -> bool:
        """False once the browser process is gone (even before Playwright's event says so)."""
        return self._browser is not None and self._browser.is_connected()

    @property
    def killed(self) -> str | None:
        """Why the watchdog stopped this session's browser (``None`` if it did not)."""
        return self._killed

    @property
    def browser(self) -> Browser:
        if self._browser is None:
            raise BrowserError("browser session is not started")
        if self.crashed:
            raise BrowserCrashed("the Chromium process is gone")
        return self._browser

    def chromium_pids(self) -> list[int]:
        """Process ids of the Chromium browser processes launched by this thread's driver
        (for orphan checks). Empty when the session is closed."""
        if self._pw is None:
            return []
        return self._driver_children()

    def _driver_children(self) -> list[int]:
        transport = getattr(getattr(self._pw, "_impl_obj", None), "_connection", None)
        proc = getattr(getattr(transport, "_transport", None), "_proc", None)
        driver = getattr(proc, "pid", None)
        if driver is None:
            return []
        return [pid for pid, ppid in processes() if ppid == driver]

    def _restart_if_killed(self) -> None:
        if self._browser is not None and (self._killed is not None or self.crashed):
            self.close()
            self.start()


    # -- episodes --------------------------------------------------------------------
    def episode(self) -> Episode:
        """A fresh browser context and page; close it (or use ``with``) when done."""
        from playwright.sync_api import Error as PlaywrightError

        self._restart_if_killed()
        try:
            context = self.browser.new_context(
                viewport={"width": self.config.viewport_width, "height": self.config.viewport_height},
                service_workers="block",
            )
        except PlaywrightError as exc:
            raise self._translate(exc) from None
        context.set_default_timeout(self.config.navigation_timeout_s * 1000)
        if self.config.extraction == "walker":
            from pagelens.browser.walker_source import click_hook_js

            context.add_init_script(click_hook_js())  # click listeners, which the walker cannot see otherwise
        page = context.new_page()
        return Episode(self, context, page)

    def _translate(self, exc: Exception) -> PagelensError:
        if self._killed is not None:
            return PageTimeout(self._killed)
        if self.crashed:
            return BrowserCrashed("the Chromium process died")
        return BrowserError(_first_line(exc))

    def translate(self, exc: Exception) -> BrowserCrashed | PageError:
        """A driver error that escaped a page operation: the browser died, or the page failed."""
        if self.crashed:
            return BrowserCrashed(_first_line(exc))
        return PageError(_first_line(exc))


#: A proxy on the discard port (connections refused at once) for everything but loopback.
_BLACKHOLE_ARGS = ("--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=127.0.0.1;localhost;[::1]")


def driver_errors() -> tuple[type[Exception], ...]:
    """The browser driver's own exception types, for code that calls the driver through this
    package and must map what escapes (``except driver_errors() as exc: session.translate(exc)``)."""
    from playwright.sync_api import Error as PlaywrightError

    return (PlaywrightError,)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


#: Chromium's network error codes (the only machine-readable part of a failed navigation)
#: -> what they mean for the user. Matched once, here, at the browser boundary.
_NET_ERRORS = {
    "ERR_TOO_MANY_REDIRECTS": (PageUnreachable, "redirect loop (the server keeps redirecting)"),
    "ERR_CONNECTION_REFUSED": (PageUnreachable, "connection refused (nothing listens on that port)"),
    "ERR_EMPTY_RESPONSE": (PageUnreachable, "the server closed the connection without an answer"),
    "ERR_CONNECTION_RESET": (PageUnreachable, "the server reset the connection"),
    "ERR_INVALID_HTTP_RESPONSE": (PageUnreachable, "the server's answer is not valid HTTP"),
    "ERR_FILE_NOT_FOUND": (PageUnreachable, "no such file"),
    "ERR_ABORTED": (PageNotHTML, "navigation aborted (a download or a non-displayable response?)"),
}


def _content_type(headers: dict[str, str]) -> str:
    """A response's media type, lower case (``text/html`` when it names none)."""
    return (headers.get("content-type") or "text/html").split(";")[0].strip().lower()


def _is_html(ctype: str) -> bool:
    return not ctype or ctype.startswith(_HTML_TYPES) or ctype.endswith("+xml")


def _navigation_error(url: str, message: str) -> PageError:
    if "Download is starting" in message:
        return PageNotHTML(f"{url}: the server sends a download (attachment), not a page")
    for code, (kind, meaning) in _NET_ERRORS.items():
        if code in message:
            return kind(f"{url}: {meaning}")
    return PageUnreachable(f"{url}: {message}")


class Episode:
    """One browser context + page, and the observer that keeps element ids stable."""

    def __init__(self, session: BrowserSession, context: BrowserContext, page: Page) -> None:
        self.session = session
        self.context = context
        self.page = page
        self._observer: PageObserver | None = None
        if session.config.extraction == "walker":
            self.observer  # noqa: B018 - made now: its crash listener must see a crash before the first observation

    @cached_property
    def tab(self) -> Tab:
        """The page as everything above the browser package drives it (:mod:`pagelens.browser.page`)."""
        from pagelens.browser.page import Tab

        return Tab(self.page, self.session, sessions=lambda: self.observer.last_sessions)

    @property
    def observer(self) -> PageObserver:
        if self._observer is None:
            from pagelens.browser.extract import PageObserver

            timeout_s = self.session.config.extract_timeout_s
            if self.session.config.extraction == "walker":
                from pagelens.browser.walker import WalkerObserver

                self._observer = WalkerObserver(self.page, timeout_s=timeout_s)
            else:
                self._observer = PageObserver(self.page, timeout_s=timeout_s)
        return self._observer

    def goto(self, url: str, *, wait_until: str = "load") -> dict[str, Any]:
        """Navigate; raise a :class:`PageError` if the main document cannot be shown.

        A page whose ``load`` event never fires (a script or asset that never finishes) is
        still observed once its DOM exists: the result says ``load_timeout``.
        """
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        timeout_ms = self.session.config.navigation_timeout_s * 1000
        if self.session.config.block_external and not is_local_url(url):
            raise PageUnreachable(f"{url}: only 127.0.0.1 pages can be observed (network requests are blocked)")
        info: dict[str, Any] = {"url": url, "load_timeout": False}
        answered = False
        document_type = ""  # the main document's Content-Type, when its response came

        def on_response(response: Any) -> None:
            nonlocal answered, document_type
            if response.frame == self.page.main_frame:
                answered = True
                if response.request.is_navigation_request():
                    document_type = _content_type(response.headers)

        self.page.on("response", on_response)
        try:
            response = self.page.goto(url, wait_until=wait_until, timeout=timeout_ms)  # type: ignore[arg-type]
        except PlaywrightTimeout:
            secs = f"{timeout_ms / 1000:g} s"
            if not answered:  # (the old document, about:blank, would pass the check below)
                raise PageTimeout(f"{url}: the server did not answer within {secs}") from None
            # the document may exist even though "load" never fired
            try:
                self.page.wait_for_load_state("domcontentloaded", timeout=2000)
            except PlaywrightError:
                raise PageTimeout(f"{url}: the server answered but no document was ready within {secs}") from None
            info["load_timeout"] = True
            return info
        except PlaywrightError as exc:
            if self.session.crashed:
                raise BrowserCrashed("the Chromium process died during navigation") from None
            if document_type and not _is_html(document_type):  # a browser that aborts what it cannot show
                raise PageNotHTML(f"{url}: not an HTML page (Content-Type: {document_type})") from None
            raise _navigation_error(url, _first_line(exc)) from None
        finally:
            self.page.remove_listener("response", on_response)
        if response is not None:
            info["status"] = response.status
            if response.status >= 400:
                raise PageUnreachable(f"{url}: HTTP {response.status}")
            ctype = _content_type(response.headers)
            info["content_type"] = ctype
            if not _is_html(ctype):
                raise PageNotHTML(f"{url}: not an HTML page (Content-Type: {ctype})")
        return info

    def observe(self, *, timeout_s: float | None = None) -> Observation:
        """Observe the page within ``timeout_s`` (default ``BrowserConfig.extract_timeout_s``).

        The deadline holds whatever the page does: past it, a watchdog stops the browser
        (the next :meth:`BrowserSession.episode` starts a new one) and
        :class:`~pagelens.errors.PageTimeout` says so.
        """
        from playwright.sync_api import Error as PlaywrightError

        seconds = self.session.config.extract_timeout_s if timeout_s is None else timeout_s
        reason = (
            f"{self.page.url}: observation did not finish within its {seconds:g} s deadline "
            "(the page's main thread is busy or Chromium is stuck); the browser was stopped"
        )
        with watchdog(seconds + _GRACE_S, lambda: self.session.kill(reason)) as dog:
            try:
                return self.observer.observe(deadline=Deadline(seconds))
            except PlaywrightError as exc:
                if dog.fired:
                    raise PageTimeout(reason) from None
                raise self.session._translate(exc) from None

    @property
    def url(self) -> str:
        """The page's current URL."""
        return self.page.url

    def pause(self, ms: float) -> None:
        """Let the page run for ``ms`` milliseconds (timers, late content)."""
        try:
            self.page.wait_for_timeout(ms)
        except driver_errors() as exc:
            raise self.session._translate(exc) from None

    def wait_until_idle(self, timeout_ms: float = 3000) -> bool:
        """Wait until the page stops marking itself busy (``<html data-busy="1">`` while a fetch
        is pending, as the bundled sites do); False when it did not within ``timeout_ms``. Never raises."""
        try:
            self.page.wait_for_function("() => (document.documentElement.dataset.busy || '0') === '0'",
                                        timeout=timeout_ms)
        except driver_errors():
            return False
        return True

    def close(self) -> None:
        if self._observer is not None:
            self._observer.close()
        if self.session.killed is not None or self.session.crashed:
            return  # the context went with the browser
        with watchdog(self.session.config.close_timeout_s, lambda: self.session.kill("context close hung")):
            try:
                self.context.close()
            except Exception:  # noqa: BLE001, S110 - context already gone with a crashed browser
                pass

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: Time the cooperative deadline inside the observer gets before the watchdog kills the browser.
_GRACE_S = 1.0

#: Sessions with a running browser (for :func:`kill_all`, e.g. on Ctrl-C).
_LIVE: weakref.WeakSet[BrowserSession] = weakref.WeakSet()


def kill_all(reason: str = "interrupted") -> list[int]:
    """Kill every running browser of this process's sessions (safe from a signal handler)."""
    pids: list[int] = []
    for session in list(_LIVE):
        pids.extend(session._pids)
        session.kill(reason)
    return pids
