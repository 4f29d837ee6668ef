"""The process' heap between big pages: caches that let go of what earlier pages left in them, and
glibc's ``malloc_trim`` (issue 13 item 5).

A long-lived process (an agent, the MCP server, a benchmark worker) keeps per-text and per-page
caches filled by the pages it saw. After a huge page (the walker's result longer than
:data:`pagelens.browser.walker.PURGE_CHARS`, ~50,000 elements and more) those caches hold tens of
megabytes of that page's texts, and their entries, scattered over the allocator's arenas, keep
whole arenas of the freed tree resident: the process enters the next big walk (when Chromium
holds the most) hundreds of megabytes above a fresh one. :func:`release` empties every cache
that registered itself (:func:`watch`) and returns the freed heap to the OS; the walker calls it
at the start of the observation after a huge page (:class:`pagelens.browser.walker.FreedHeap`).
A cache only drops what nothing else holds: a page the caller still keeps stays cached.

No import-time side effects: a cache registers itself the first time it stores something.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["release", "trim", "watch"]

_releasers: list[Callable[[], None]] = []
_lock = threading.Lock()
_trim: Any = None  # glibc's malloc_trim, False where the C library has none (looked up once)


def watch(releaser: Callable[[], None]) -> None:
    """Have :func:`release` call ``releaser`` (once, however often this is called with it)."""
    with _lock:
        if releaser not in _releasers:
            _releasers.append(releaser)


def release() -> None:
    """Empty every watched cache, collect what they held in cycles (a cached page analysis holds
    indexes that point back at it), then :func:`trim` (~0.1-0.2 s after a 50,000-element page)."""
    import gc

    with _lock:
        releasers = list(_releasers)
    for releaser in releasers:
        releaser()
    gc.collect()
    trim()


def trim() -> None:
    """Return the C heap's free memory to the OS (glibc ``malloc_trim(0)``: 1-2 ms after a
    100,000-element page; nothing where the C library has no such call)."""
    global _trim
    if _trim is None:
        _trim = _malloc_trim() or False
    if _trim:
        _trim(0)


def _malloc_trim() -> Any:
    import ctypes

    try:
        return ctypes.CDLL(None).malloc_trim  # the process' own C library (glibc has it; musl, macOS do not)
    except (OSError, AttributeError, TypeError):
        return None
