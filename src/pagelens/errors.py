"""The pagelens exception tree.

    PagelensError                 root: catch this to catch everything pagelens raises
    ├── ConfigError               invalid configuration or CLI arguments
    ├── BrowserError              Chromium could not be found, launched or driven
    │   ├── BrowserNotFound       no Chromium executable (install hint in the message)
    │   └── BrowserCrashed        the browser process died mid-episode
    ├── PageError                 a page could not be observed
    │   ├── PageUnreachable       connection refused, DNS, 404/5xx on the main document
    │   ├── PageNotHTML           main document is not HTML (a PDF, an image, JSON ...)
    │   └── PageTimeout           loading or extraction exceeded its time budget
    ├── FocusError                a retriever failed (always caught by ``focus``: never escapes it)
    ├── LLMError                  an LLM endpoint failed (HTTP error, timeout, garbage reply)
    ├── ActionError               a model action could not be parsed, validated or executed
    ├── ResultsError              benchmark results could not be written (disk full, permissions)
    └── MissingDependency         an optional extra is not installed (install hint in the message)

Third-party errors (Playwright, httpx, ...) are translated into these at the boundary
and are never matched by string inside the package.
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


class FocusError(PagelensError):
    pass


class LLMError(PagelensError):
    pass


class ActionError(PagelensError):
    pass


class ResultsError(PagelensError):
    """Benchmark results could not be written; what was written before stays whole."""


class MissingDependency(PagelensError):
    def __init__(self, package: str, extra: str) -> None:
        super().__init__(
            f"{package} is not installed: pip install 'pagelens[{extra}]'"
        )
        self.package = package
        self.extra = extra
