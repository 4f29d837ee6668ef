"""Playwright's errors become the project's, in one place: :meth:`Driver.driving`.

Every call the browser package makes on a page for the layers above runs inside
``driving(what)``; ``what`` names the operation in the message. The first matching row wins::

    the browser process died (or was killed)          BrowserCrashed
    the tab or its browser context was closed          PageClosed
    a time budget ran out                              PageTimeout
    a navigation replaced the document mid-call        ActionInterrupted
    the frame was removed mid-call                     ActionInterrupted
    the element was removed from the page              ElementGone
    anything else the browser refused                  ActionError (the driver's first line)

:class:`Frame` (one frame of a page) lives here too, so that elements
(:mod:`pagelens.browser.dom`) and hit tests (:mod:`pagelens.browser.point`) can name frames
without importing the tab (:mod:`pagelens.browser.page`) that builds on them.

A page script with a time bound (:meth:`Frame.evaluate` with ``timeout_ms``) is one protocol
call, cut off from outside the page: :func:`bounded` runs Playwright's own call on its event
loop under :func:`asyncio.wait_for`, so a page whose main thread never answers (a script that
loops forever) costs the caller ``timeout_ms`` and a :class:`~pagelens.errors.PageTimeout`, not
a hung call; the abandoned request is cancelled on the client side (Playwright drops its late
answer). Where Playwright's layout is not the known one, the same bound comes from
``wait_for_function`` (three round trips instead of one).
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from pagelens.errors import (
    ActionError,
    ActionInterrupted,
    BrowserCrashed,
    ElementGone,
    PageClosed,
    PagelensError,
    PageTimeout,
)

if TYPE_CHECKING:
    from playwright.sync_api import Frame as PwFrame
    from playwright.sync_api import Page as PwPage

__all__ = ["Driver", "Frame", "Polling", "bounded", "bounded_supported", "first_line", "shallow", "translate"]

Polling = float | Literal["raf"]
T = TypeVar("T")


class BrowserState(Protocol):
    """What translation needs to know of the session (:class:`~pagelens.browser.session.BrowserSession`)."""

    @property
    def crashed(self) -> bool: ...

    @property
    def killed(self) -> str | None: ...

    def connected(self) -> bool: ...


#: Playwright's words (lower case) for a call the page cut short: its messages are the only
#: machine-readable part, matched here, once, at the boundary.
_INTERRUPTED = (
    ("execution context was destroyed", "the page navigated while this ran (its document was replaced)"),
    ("cannot find context with specified id", "the page navigated while this ran (its document was replaced)"),
    ("frame was detached", "the frame was removed from the page while this ran"),
    ("navigation interrupted", "another navigation started while this one ran"),
)
_GONE = ("element is not attached to the dom", "node is detached from document", "could not find node with given id",
         "no node with given id found")
_CLOSED = ("has been closed", "target closed")


#: Playwright prefixes its messages with the API call ("Locator.click: ..."): the caller's
#: ``what`` says that better.
_API_PREFIX = re.compile(r"^[A-Z][A-Za-z]*\.[a-z_]+: ")


def first_line(exc: BaseException) -> str:
    """The first line of an error's message, without Playwright's API-call prefix."""
    lines = str(exc).strip().splitlines()
    return _API_PREFIX.sub("", lines[0]) if lines else type(exc).__name__


def _browser_lost(session: BrowserState | None) -> str | None:
    """Why the session's browser is gone (``None``: it is alive, or there is no session)."""
    if session is None:
        return None
    if session.killed is not None:
        return session.killed
    if session.crashed or not session.connected():
        return "the Chromium process died"
    return None


def translate(exc: Exception, what: str, *, session: BrowserState | None = None,
              page: PwPage | None = None) -> PagelensError:
    """The project error for a driver error raised while doing ``what`` (see the module table)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    line = first_line(exc)
    low = line.casefold()
    lost = _browser_lost(session)
    if lost is not None:
        return BrowserCrashed(f"{what}: {lost} ({line})")
    if (page is not None and page.is_closed()) or any(c in low for c in _CLOSED):
        return PageClosed(f"{what}: the page was closed (its tab or browser context is gone)")
    if isinstance(exc, PlaywrightTimeout):
        return PageTimeout(f"{what}: {line}")
    for needle, meaning in _INTERRUPTED:
        if needle in low:
            return ActionInterrupted(f"{what}: {meaning}")
    if any(g in low for g in _GONE):
        return ElementGone("was removed from the page while the browser worked on it")
    return ActionError(line)


def bounded_supported(pw_obj: Any) -> bool:
    """True when :func:`bounded` can run ``pw_obj``'s calls in one round trip (Playwright's sync
    objects keep their async implementation and their loop: true of 1.44 to 1.5x)."""
    return callable(getattr(pw_obj, "_sync", None)) and getattr(pw_obj, "_impl_obj", None) is not None


def bounded(pw_obj: Any, call: Callable[[Any], Awaitable[Any]], timeout_ms: float, what: str) -> Any:
    """``call(pw_obj's async implementation)`` on Playwright's loop, given up after ``timeout_ms``
    (:class:`~pagelens.errors.PageTimeout`) whatever the page does. The call runs as its own task
    (with the caller's stack for Playwright's protocol metadata), cancelled at the deadline, which
    cancels its protocol callback: the page's late answer, if any, is dropped. Made from a
    greenlet of its own (:func:`shallow`)."""
    import asyncio

    async def run() -> Any:
        inner = asyncio.ensure_future(call(pw_obj._impl_obj))
        outer = asyncio.current_task()
        for attr in ("__pw_stack__", "__pw_stack_trace__"):  # (Playwright's call metadata)
            if hasattr(outer, attr):
                setattr(inner, attr, getattr(outer, attr))
        return await asyncio.wait_for(inner, max(timeout_ms, 1.0) / 1000)

    try:
        return shallow(pw_obj._sync, run())
    except TimeoutError:
        raise PageTimeout(f"{what}: the page did not answer within {timeout_ms / 1000:g} s "
                          "(its main thread is busy: a script that never yields?)") from None


def shallow(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``call(*args, **kwargs)``, one Playwright sync call, made from a greenlet of its own.

    Playwright's sync API captures the caller's whole Python stack on every call, for its error
    messages and protocol metadata: ``inspect.stack()`` twice (each frame's source line looked
    up) and ``traceback.extract_stack()`` twice, 0.3-0.5 ms per call at the depth of an agent's
    loop and more in a server, while the page waits for the message. A greenlet's stack starts
    at its own first frame, so the capture reads a few frames. Playwright makes sync calls from
    greenlets of its own (its event handlers run in one each); errors and results come back
    through ``switch`` as from a plain call. Without greenlet (never with Playwright): a plain call."""
    try:
        from greenlet import greenlet
    except ImportError:  # pragma: no cover - Playwright's sync API needs greenlet
        return call(*args, **kwargs)
    result: T = greenlet(call).switch(*args, **kwargs)
    return result


class Driver:
    """A Playwright page and the session it belongs to; the base of :class:`~pagelens.browser.page.Tab`."""

    def __init__(self, page: PwPage, session: BrowserState | None = None) -> None:
        self._pw = page
        self._session = session
        self._ended = 0  # main-frame navigations that ended (document parsed, or the request failed)
        self._watching = False

    # -- navigations that end (the settling after an action waits on them) ------------------
    def navigations_ended(self) -> int:
        """How many main-frame navigations have ended (their new document fired
        ``DOMContentLoaded``, or their request failed) since this was first asked."""
        if not self._watching:
            def parsed(_: Any) -> None:
                self._ended += 1

            def failed(request: Any) -> None:
                try:
                    if request.is_navigation_request() and request.frame.parent_frame is None:
                        self._ended += 1
                except Exception:  # noqa: BLE001, S110 - the frame or page went away meanwhile (a browser error)
                    pass

            with self.driving("watch navigations"):
                self._pw.on("domcontentloaded", parsed)
                self._pw.on("requestfailed", failed)
            self._watching = True
        return self._ended

    def wait_navigation_end(self, after: int, *, timeout_ms: float) -> bool:
        """Wait until a main-frame navigation ends after :meth:`navigations_ended` returned
        ``after`` (event-driven: the page's ``domcontentloaded`` event; the counter also catches
        one dispatched just before a waiter was set, and failed requests, within 50 ms);
        False when ``timeout_ms`` ran out first."""
        self.navigations_ended()
        deadline = time.monotonic() + timeout_ms / 1000
        while self._ended <= after:
            left = (deadline - time.monotonic()) * 1000
            if left <= 0:
                return False
            try:
                with self.driving("wait for the next document"):
                    self._pw.wait_for_event("domcontentloaded", timeout=min(left, 50.0))
            except PageTimeout:
                pass
        return True

    @contextmanager
    def driving(self, what: str) -> Iterator[None]:
        """Run driver calls; a Playwright error leaves as a :mod:`pagelens.errors` error."""
        from playwright.sync_api import Error as PlaywrightError

        try:
            yield
        except PlaywrightError as exc:
            raise translate(exc, what, session=self._session, page=self._pw) from None


class Frame:
    """One frame of a page (the main frame or an iframe's document)."""

    __slots__ = ("_pw", "_tab")

    def __init__(self, tab: Driver, frame: PwFrame) -> None:
        self._tab = tab
        self._pw = frame

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Frame) and other._pw == self._pw

    def __hash__(self) -> int:
        return hash(self._pw)

    def __repr__(self) -> str:
        return f"Frame({self.url!r})"

    @property
    def url(self) -> str:
        return self._pw.url

    @property
    def is_main(self) -> bool:
        return self._pw.parent_frame is None

    @property
    def detached(self) -> bool:
        return self._pw.is_detached()

    def evaluate(self, js: str, arg: Any = None, *, timeout_ms: float | None = None,
                 what: str = "run a page script") -> Any:
        """Run ``js`` (a function expression) in this frame; its JSON result. ``timeout_ms``:
        bounded even when the page's main thread is stuck (one round trip, see :func:`bounded`);
        None: as long as the page takes. ``what`` names the call in error messages."""
        with self._tab.driving(what):
            if timeout_ms is None:
                return self._pw.evaluate(js, arg)
            if bounded_supported(self._pw):
                return bounded(self._pw, lambda impl: impl.evaluate(js, arg), timeout_ms, what)
        # another Playwright: a poll's bound (its first result, falsy ones included)
        wrapped = f"async (a) => ({{v: await ({js})(a)}})"
        return self.poll(wrapped, arg, timeout_ms=timeout_ms)["v"]

    def poll(self, js: str, arg: Any = None, *, timeout_ms: float, polling: Polling = 50) -> Any:
        """The first truthy result of ``js`` in this frame, bounded by ``timeout_ms``."""
        with self._tab.driving("wait for a page script"):
            handle = self._pw.wait_for_function(js, arg=arg, timeout=timeout_ms, polling=polling)
            try:
                return handle.json_value()
            finally:
                handle.dispose()

    def fill_element_from(self, js: str, text: str, *, timeout_ms: float) -> bool:
        """Fill the element ``js`` returns (as a user edit: input/change fire); False when it returns none."""
        with self._tab.driving("fill the focused field"):
            handle = self._pw.evaluate_handle(js).as_element()
            if handle is None:
                return False
            try:
                handle.fill(text, timeout=timeout_ms)
            finally:
                handle.dispose()
            return True
