"""The pagelens exception tree.

    PagelensError                 root: catch this to catch everything pagelens raises
    ├── ConfigError               invalid configuration or CLI arguments
    ├── BrowserError              Chromium could not be found, launched or driven
    │   ├── BrowserNotFound       no Chromium executable (install hint in the message)
    │   └── BrowserCrashed        the browser process died mid-episode
    ├── PageError                 a page could not be observed or driven
    │   ├── PageUnreachable       connection refused, DNS, 404/5xx on the main document
    │   ├── PageNotHTML           main document is not HTML (a PDF, an image, JSON ...)
    │   ├── PageTimeout           loading, extraction or a page operation exceeded its time budget
    │   └── PageClosed            the tab (or its browser context) was closed while in use
    ├── FocusError                a retriever failed (always caught by ``focus``: never escapes it)
    ├── LLMError                  an LLM endpoint failed (HTTP error, timeout, garbage reply)
    ├── ActionError               a model action could not be parsed, validated or executed
    │   ├── ElementGone           the element an observation id names is no longer in the page
    │   └── ActionInterrupted     a navigation replaced the document (or removed the frame) mid-operation
    ├── ResultsError              benchmark results could not be written (disk full, permissions)
    └── MissingDependency         an optional extra is not installed (install hint in the message)

Third-party errors (Playwright, httpx, ...) are translated into these at the boundary
(Playwright's in :mod:`pagelens.browser.page`) and are never matched by string inside the package.
"""

from __future__ import annotations


class PagelensError(Exception):
    """Root of every error pagelens raises on purpose."""


class ConfigError(PagelensError):
    pass


class BrowserError(PagelensError):
    pass


class BrowserNotFound(BrowserError):
    pass


class BrowserCrashed(BrowserError):
    pass


class PageError(PagelensError):
    pass


class PageUnreachable(PageError):
    pass


class PageNotHTML(PageError):
    pass


class PageTimeout(PageError):
    pass


class PageClosed(PageError):
    """The tab or its browser context was closed (by the page, the user or a test) while in use."""


class FocusError(PagelensError):
    pass


class LLMError(PagelensError):
    pass


class ActionError(PagelensError):
    pass


class ElementGone(ActionError):
    """The element of an observation id is no longer in the page (removed, or its frame gone)."""


class ActionInterrupted(ActionError):
    """A navigation replaced the document, or the frame was removed, while the browser worked on it."""


class ResultsError(PagelensError):
    """Benchmark results could not be written; what was written before stays whole."""


class MissingDependency(PagelensError):
    def __init__(self, package: str, extra: str) -> None:
        super().__init__(
            f"{package} is not installed: pip install 'pagelens[{extra}]'"
        )
        self.package = package
        self.extra = extra
