"""Run a test's browser work on a daemon thread with a deadline: a call that hangs fails the test
instead of hanging the suite (or its process at exit)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")


def within(seconds: float, fn: Callable[[], _T]) -> _T:
    """``fn()`` on a daemon thread; AssertionError when it has not returned after ``seconds``."""
    out: queue.SimpleQueue[tuple[bool, object]] = queue.SimpleQueue()

    def run() -> None:
        try:
            out.put((True, fn()))
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            out.put((False, exc))

    threading.Thread(target=run, name="test-within", daemon=True).start()
    try:
        ok, value = out.get(timeout=seconds)
    except queue.Empty:
        raise AssertionError(f"still running after {seconds:g} s: a call hung") from None
    if not ok:
        raise value  # type: ignore[misc]
    return value  # type: ignore[return-value]
