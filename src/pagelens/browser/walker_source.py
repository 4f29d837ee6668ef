"""The in-page scripts of the walker extraction, read once from package data.

``walker.js`` with ``walker_names.js`` spliced in is sent to every new document the observer
walks (about 67 kB with its comments). With the ``fast`` extra, ``rjsmin`` strips comments and
indentation first (a whitespace- and comment-only minifier that knows JavaScript's regex and
string literals): 45 kB, one message that fits a pipe buffer on its way through Playwright's
driver, and less for the renderer to parse. Without it the source is sent as written.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def click_hook_js() -> str:
    """The init script that records click listeners for the walker (``click_hook.js``)."""
    return resources.files("pagelens.browser").joinpath("click_hook.js").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def walker_js() -> str:
    """The walker's source (package data, read once): ``walker.js`` with ``walker_names.js``
    (the accessible-name part) spliced in at its ``@include`` line, minified when ``rjsmin``
    is installed."""
    files = resources.files("pagelens.browser")
    main = files.joinpath("walker.js").read_text(encoding="utf-8")
    names = files.joinpath("walker_names.js").read_text(encoding="utf-8")
    return _minify(main.replace("  /* @include walker_names.js */", names, 1))


def _minify(source: str) -> str:
    try:
        import rjsmin  # the `fast` extra
    except ImportError:
        return source
    out: str = rjsmin.jsmin(source)
    return out
