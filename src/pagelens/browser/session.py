"""The only module that launches Chromium.

A :class:`BrowserSession` owns one Playwright driver and one headless Chromium with a fresh
profile; each :meth:`BrowserSession.episode` gets its own browser context and page, so
episodes never share cookies or storage. Closing the session (or leaving its ``with``
block, or a crash) leaves no Chromium process behind.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urlsplit

from pagelens.browser.chromium import OFFLINE_ARGS, find_chromium
from pagelens.config import BrowserConfig
from pagelens.errors import BrowserCrashed, BrowserError, PageNotHTML, PageTimeout, PageUnreachable

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright

    from pagelens.observe.extract import PageObserver
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
        self.executable: str | None = None

    # -- lifecycle -------------------------------------------------------------------
    def start(self) -> Self:
        if self._browser is not None:
            return self
        self.executable = find_chromium(self.config.executable)
        from playwright.sync_api import Error as PlaywrightError

        self._pw = _driver.acquire()
        try:
            self._browser = self._pw.chromium.launch(
                executable_path=self.executable,
                headless=self.config.headless,
                # every non-loopback request goes to a proxy that refuses it at once, loopback
                # bypasses it: far cheaper than routing each request through Python (a
                # 478-request page loaded 2.4x faster)
                args=[*OFFLINE_ARGS, *(_BLACKHOLE_ARGS if self.config.block_external else ()), *self.config.extra_args],
                timeout=30_000,
            )
        except PlaywrightError as exc:
            _driver.release()
            self._pw = None
            raise BrowserError(f"could not launch Chromium at {self.executable}: {_first_line(exc)}") from None
        self._browser.on("disconnected", lambda _b: self._crashed.set())
        return self

    def close(self) -> None:
        browser, pw = self._browser, self._pw
        self._browser, self._pw = None, None
        if browser is not None:
            try:
                browser.close()
            except Exception:  # noqa: BLE001, S110 - already gone is fine
                pass
        if pw is not None:
            _driver.release()

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
        if self._browser is not None and self.crashed:
            self.close()
            self._crashed.clear()
            self.start()
        return self

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
        transport = getattr(getattr(self._pw, "_impl_obj", None), "_connection", None)
        proc = getattr(getattr(transport, "_transport", None), "_proc", None)
        driver = getattr(proc, "pid", None)
        if driver is None:
            return []
        return [pid for pid, ppid in _processes() if ppid == driver]


    # -- episodes --------------------------------------------------------------------
    def episode(self) -> Episode:
        """A fresh browser context and page; close it (or use ``with``) when done."""
        from playwright.sync_api import Error as PlaywrightError

        try:
            context = self.browser.new_context(
                viewport={"width": self.config.viewport_width, "height": self.config.viewport_height},
                service_workers="block",
            )
        except PlaywrightError as exc:
            raise self._translate(exc) from None
        context.set_default_timeout(self.config.navigation_timeout_s * 1000)
        page = context.new_page()
        return Episode(self, context, page)

    def _translate(self, exc: Exception) -> BrowserError:
        if self.crashed:
            return BrowserCrashed("the Chromium process died")
        return BrowserError(_first_line(exc))


#: A proxy on the discard port (connections refused at once) for everything but loopback.
_BLACKHOLE_ARGS = ("--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=127.0.0.1;localhost;[::1]")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


class Episode:
    """One browser context + page, and the observer that keeps element ids stable."""

    def __init__(self, session: BrowserSession, context: BrowserContext, page: Page) -> None:
        self.session = session
        self.context = context
        self.page = page
        self._observer: PageObserver | None = None

    @property
    def observer(self) -> PageObserver:
        if self._observer is None:
            from pagelens.observe.extract import PageObserver

            self._observer = PageObserver(self.page, timeout_s=self.session.config.extract_timeout_s)
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
        try:
            response = self.page.goto(url, wait_until=wait_until, timeout=timeout_ms)  # type: ignore[arg-type]
        except PlaywrightTimeout:
            # the document may exist even though "load" never fired
            try:
                self.page.wait_for_load_state("domcontentloaded", timeout=2000)
            except PlaywrightError:
                raise PageTimeout(f"{url}: no document after {timeout_ms / 1000:.0f}s") from None
            info["load_timeout"] = True
            return info
        except PlaywrightError as exc:
            if self.session.crashed:
                raise BrowserCrashed("the Chromium process died during navigation") from None
            raise PageUnreachable(f"{url}: {_first_line(exc)}") from None
        if response is not None:
            info["status"] = response.status
            if response.status >= 400:
                raise PageUnreachable(f"{url}: HTTP {response.status}")
            ctype = (response.headers.get("content-type") or "text/html").split(";")[0].strip().lower()
            info["content_type"] = ctype
            if ctype and not ctype.startswith(_HTML_TYPES) and not ctype.endswith("+xml"):
                raise PageNotHTML(f"{url}: not an HTML page (Content-Type: {ctype})")
        return info

    def observe(self) -> Observation:
        from playwright.sync_api import Error as PlaywrightError

        try:
            return self.observer.observe()
        except PlaywrightError as exc:
            raise self.session._translate(exc) from None

    def close(self) -> None:
        if self._observer is not None:
            self._observer.close()
        try:
            self.context.close()
        except Exception:  # noqa: BLE001, S110 - context already gone with a crashed browser
            pass

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _processes() -> list[tuple[int, int]]:
    """(pid, parent pid) of every process, from /proc (empty where /proc is absent)."""
    from pathlib import Path

    out = []
    for d in Path("/proc").glob("[0-9]*"):
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        out.append((int(d.name), int(fields[1])))
    return out
