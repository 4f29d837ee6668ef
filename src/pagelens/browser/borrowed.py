"""A Chromium on another library's Playwright driver, for harnesses built on that library.

BrowserGym starts one process-wide Playwright driver of its own and hands its task classes
Playwright pages (``setup(page)``, ``cheat(page)``, ``validate(page)``). A harness around it
(:mod:`pagelens.bench.miniwob`) launches Chromium on that driver through a
:class:`BorrowedBrowser`; for each episode it gets the library's page — an opaque object it
passes on untouched — and a :class:`~pagelens.browser.page.Tab` over the same page for what
pagelens does itself. Playwright stays inside the browser package.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from pagelens.browser.chromium import JIT_ARGS, OFFLINE_ARGS, find_chromium, launch_args
from pagelens.browser.driving import first_line
from pagelens.browser.page import Tab
from pagelens.errors import BrowserError

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

__all__ = ["BorrowedBrowser"]


class BorrowedBrowser:
    """One headless Chromium launched on ``driver`` (a started sync Playwright), launched lazily
    and again after it died."""

    def __init__(self, driver: Playwright, *, args: Sequence[str] = (), test_id_attribute: str | None = None) -> None:
        self._driver = driver
        self._args = tuple(args)
        self._test_id = test_id_attribute
        self._browser: Browser | None = None

    @property
    def connected(self) -> bool:
        return self._browser is not None and self._browser.is_connected()

    def _launch(self) -> Browser:
        from playwright.sync_api import Error as PlaywrightError

        if self._browser is None or not self._browser.is_connected():
            try:
                if self._test_id:
                    self._driver.selectors.set_test_id_attribute(self._test_id)
                self._browser = self._driver.chromium.launch(executable_path=find_chromium(headless=True), headless=True,
                                                             args=launch_args(OFFLINE_ARGS, JIT_ARGS, self._args))
            except PlaywrightError as exc:
                raise BrowserError(f"could not launch Chromium: {first_line(exc)}") from None
        return self._browser

    @contextmanager
    def page(self, *, viewport: dict[str, int] | None = None, timeout_ms: float | None = None) -> Iterator[tuple[Any, Tab]]:
        """A fresh context and page: (the library's Playwright page, a :class:`Tab` over it)."""
        from playwright.sync_api import Error as PlaywrightError

        try:
            context = self._launch().new_context(viewport=viewport)  # type: ignore[arg-type]
            if timeout_ms is not None:
                context.set_default_timeout(timeout_ms)
            page = context.new_page()
        except PlaywrightError as exc:
            raise BrowserError(f"could not open a page: {first_line(exc)}") from None
        try:
            yield page, Tab(page)
        finally:
            try:
                context.close()
            except Exception:  # noqa: BLE001, S110 - gone with the browser
                pass

    def close(self) -> None:
        if self._browser is not None:
            try:
                self._browser.close()
            except Exception:  # noqa: BLE001, S110 - already gone
                pass
            self._browser = None
