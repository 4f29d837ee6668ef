"""Deadlines enforced from outside a blocked call, and process trees that can always be ended.

A Playwright sync call cannot be interrupted from its own thread: when a page's script loops
forever, ``CDPSession.send`` (or ``detach``) waits for a renderer that never answers. The
only lever that always works is outside the call: a timer thread that, when the deadline
passes, kills the browser's processes. The blocked call then fails at once (the driver sees
the browser go), and the caller turns that into a clear :class:`~pagelens.errors.PageTimeout`.

Everything here is plain ``/proc`` + signals: no Playwright, no import-time side effects.
"""

from __future__ import annotations

import heapq
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Self


def processes() -> list[tuple[int, int]]:
    """(pid, parent pid) of every process, from /proc (empty where /proc is absent)."""
    out = []
    for d in Path("/proc").glob("[0-9]*"):
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        out.append((int(d.name), int(fields[1])))
    return out


def descendants(roots: Iterable[int]) -> list[int]:
    """``roots`` and every process below them (roots first)."""
    children: dict[int, list[int]] = {}
    for pid, ppid in processes():
        children.setdefault(ppid, []).append(pid)
    out: list[int] = []
    stack = list(roots)
    seen: set[int] = set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        out.append(pid)
        stack.extend(children.get(pid, ()))
    return out


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2 :].split()[0] != "Z"


def kill_tree(roots: Iterable[int]) -> list[int]:
    """SIGKILL ``roots`` and their descendants (children first collected, then all killed)."""
    pids = descendants(roots)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    return pids


def wait_gone(pids: Iterable[int], timeout_s: float) -> bool:
    """Wait until none of ``pids`` is alive; True if they all went in time."""
    pids = list(pids)
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.02)
    return not any(alive(p) for p in pids)


class Deadline:
    """Seconds left until a fixed moment (``None`` = no deadline)."""

    __slots__ = ("end", "seconds")

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.end = None if seconds is None else time.monotonic() + seconds

    def left(self) -> float:
        if self.end is None:
            return float("inf")
        return max(0.0, self.end - time.monotonic())

    def expired(self) -> bool:
        return self.end is not None and time.monotonic() >= self.end


class Watchdog:
    """Runs ``action`` if the ``with`` block outlives ``seconds``.

    Every watchdog of the process is timed by one daemon thread (:class:`_Timers`), started once:
    entering the block is a heap push under a lock, not a new thread whose start the caller
    would wait for (``Thread.start`` waits until the new thread runs: tens of microseconds on an
    idle machine, milliseconds on a loaded one, on every observation). A watchdog that fires runs
    its action on a thread of its own, so one slow action delays no other watchdog."""

    __slots__ = ("_action", "done", "end", "fired", "seconds")

    def __init__(self, seconds: float, action: Callable[[], object]) -> None:
        self.seconds = seconds
        self._action: Callable[[], object] | None = action
        self.fired = False
        self.done = False
        self.end = 0.0

    def _fire(self) -> None:
        action = self._action
        if self.done or action is None:
            return
        self.fired = True
        threading.Thread(target=action, name="pagelens-watchdog-action", daemon=True).start()

    def __enter__(self) -> Self:
        self.end = time.monotonic() + self.seconds
        _TIMERS.arm(self)
        return self

    def __exit__(self, *exc: object) -> None:
        self.done = True
        self._action = None  # (what the action holds — a session, a page — is not kept until the timer's turn)


class _Timers:
    """The one thread that times every :class:`Watchdog`: it sleeps until the earliest armed
    end, and is woken only when a watchdog is armed with an earlier end than that (a watchdog
    left before its end stays in the heap, without its action, until its turn)."""

    def __init__(self) -> None:
        self._pid = os.getpid()
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, Watchdog]] = []
        self._seq = 0
        self._thread: threading.Thread | None = None
        self._wake_at = float("inf")

    def arm(self, dog: Watchdog) -> None:
        if self._pid != os.getpid():  # a forked child: no timer thread, and the lock may be a copy of a held one
            self.__init__()  # type: ignore[misc]
        with self._cond:
            self._seq += 1
            heapq.heappush(self._heap, (dog.end, self._seq, dog))
            if self._thread is None or not self._thread.is_alive():  # (once per process)
                self._thread = threading.Thread(target=self._run, name="pagelens-watchdog", daemon=True)
                self._thread.start()
            elif dog.end < self._wake_at:
                self._cond.notify()

    def _run(self) -> None:
        while True:
            due: list[Watchdog] = []
            with self._cond:
                now = time.monotonic()
                while self._heap and (self._heap[0][2].done or self._heap[0][0] <= now):
                    dog = heapq.heappop(self._heap)[2]
                    if not dog.done:
                        due.append(dog)
                self._wake_at = self._heap[0][0] if self._heap else float("inf")
                if not due:
                    self._cond.wait(None if not self._heap else max(0.0, self._wake_at - now))
                    continue
            for dog in due:
                dog._fire()


_TIMERS = _Timers()


@contextmanager
def watchdog(seconds: float, action: Callable[[], object]) -> Iterator[Watchdog]:
    with Watchdog(seconds, action) as w:
        yield w


def install_interrupt_guard(grace_s: float = 1.5) -> None:
    """Make Ctrl-C always end the process within about ``grace_s`` seconds, leaving no Chromium.

    The first SIGINT raises :class:`KeyboardInterrupt` as usual (normal cleanup runs) and
    arms a timer that, if cleanup is still stuck after ``grace_s``, kills every browser of
    this process's sessions and exits with status 130. A second SIGINT does that at once.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    armed = threading.Event()

    def hard_exit() -> None:
        session = sys.modules.get("pagelens.browser.session")
        if session is not None:
            session.kill_all()
        os.write(2, b"interrupted\n")
        os._exit(130)

    def handler(signum: int, frame: object) -> None:
        if armed.is_set():
            hard_exit()
        armed.set()
        timer = threading.Timer(grace_s, hard_exit)
        timer.daemon = True
        timer.start()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)
