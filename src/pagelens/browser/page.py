"""The page as pagelens drives it: one episode's tab behind a small typed API.

Everything above the browser package reaches the page through a :class:`Tab`
(``episode.tab``), never through Playwright: scripts (:meth:`Tab.evaluate`, :meth:`Tab.poll`,
:meth:`Tab.wait_for`), loading (:meth:`Tab.goto`, :meth:`Tab.go_back`,
:meth:`Tab.wait_for_load`, :meth:`Tab.pause`), the mouse and keyboard at CSS points,
screenshots, init scripts, frames (:class:`Frame`), elements (:mod:`pagelens.browser.dom`:
by observation node, by role, by CSS selector) and the element under a point
(:mod:`pagelens.browser.point`).

Every driver call runs inside :meth:`Tab.driving <pagelens.browser.driving.Driver.driving>`,
the one place where Playwright's errors become the project's (:mod:`pagelens.errors`; the
table is in :mod:`pagelens.browser.driving`): a caller above the browser package catches
``PageError``/``ActionError`` (and lets ``BrowserCrashed`` end the episode), never Playwright.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pagelens.browser.dom import Element, MarkedElement, resolve_and_run
from pagelens.browser.driving import BrowserState, Driver, Frame, Polling, bounded, bounded_supported
from pagelens.browser.point import PointHit, element_at
from pagelens.errors import ActionError

if TYPE_CHECKING:
    from PIL.Image import Image
    from playwright.sync_api import Page as PwPage

    from pagelens.browser.dom import Sessions
    from pagelens.browser.screenshot import Screenshot, ScreenshotConfig
    from pagelens.types import Node

__all__ = ["Frame", "LoadState", "Tab"]

LoadState = Literal["load", "domcontentloaded", "networkidle"]


class Tab(Driver):
    """One page of one episode (``episode.tab``), every call time-bounded and translated."""

    def __init__(self, page: PwPage, session: BrowserState | None = None, *,
                 sessions: Callable[[], Sessions] | None = None) -> None:
        super().__init__(page, session)
        #: the observer's CDP sessions of the last observation (for elements by observation id)
        self._sessions = sessions

    # -- state -------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return self._pw.url

    def title(self) -> str:
        with self.driving("read the title"):
            return self._pw.title()

    @property
    def viewport(self) -> tuple[int, int] | None:
        """The viewport in CSS pixels (``None``: the window decides)."""
        vp = self._pw.viewport_size
        return (int(vp["width"]), int(vp["height"])) if vp else None

    @property
    def closed(self) -> bool:
        return self._pw.is_closed()

    @property
    def main_frame(self) -> Frame:
        return Frame(self, self._pw.main_frame)

    @property
    def frames(self) -> tuple[Frame, ...]:
        """The main frame first, then every child frame (document order)."""
        with self.driving("list the frames"):
            pw = self._pw
            return (Frame(self, pw.main_frame), *(Frame(self, f) for f in pw.frames[1:]))

    # -- scripts -----------------------------------------------------------------------------
    def evaluate(self, js: str, arg: Any = None, *, timeout_ms: float | None = None) -> Any:
        """Run ``js`` (a function expression) in the main frame; its JSON result. ``timeout_ms``:
        given up after that long even when the page's main thread is stuck
        (:class:`~pagelens.errors.PageTimeout`; one round trip, :func:`~pagelens.browser.driving.bounded`)."""
        return self.main_frame.evaluate(js, arg, timeout_ms=timeout_ms)

    def poll(self, js: str, arg: Any = None, *, timeout_ms: float, polling: Polling = 50) -> Any:
        """The first truthy result of ``js`` in the main frame (polled), bounded by ``timeout_ms``
        even when the page's main thread is stuck; one read: :meth:`evaluate` with ``timeout_ms``."""
        return self.main_frame.poll(js, arg, timeout_ms=timeout_ms, polling=polling)

    def wait_for(self, js: str, arg: Any = None, *, timeout_ms: float, polling: Polling = "raf") -> None:
        """Wait until ``js`` returns something truthy (or resolves) in the main frame."""
        with self.driving("wait for the page"):
            self._pw.wait_for_function(js, arg=arg, timeout=timeout_ms, polling=polling)

    def add_init_script(self, js: str) -> None:
        """Run ``js`` in every document this episode's context opens from now on."""
        with self.driving("install a page script"):
            self._pw.context.add_init_script(script=js)

    # -- loading -----------------------------------------------------------------------------
    def wait_for_load(self, state: LoadState = "domcontentloaded", *, timeout_ms: float | None = None) -> None:
        with self.driving(f"wait for {state}"):
            self._pw.wait_for_load_state(state, timeout=timeout_ms)

    def pause(self, ms: float) -> None:
        """Let the page run for ``ms`` milliseconds (timers, late content)."""
        with self.driving("wait"):
            self._pw.wait_for_timeout(ms)

    def goto(self, url: str, *, timeout_ms: float | None = None, wait_until: LoadState = "domcontentloaded") -> int | None:
        """Navigate; the main document's HTTP status (``None``: no response, e.g. same-document)."""
        with self.driving(f"open {url}"):
            response = self._pw.goto(url, timeout=timeout_ms, wait_until=wait_until)
        return None if response is None else response.status

    def go_back(self, *, timeout_ms: float | None = None, wait_until: LoadState = "domcontentloaded") -> None:
        with self.driving("go back"):
            self._pw.go_back(timeout=timeout_ms, wait_until=wait_until)

    def guard_navigations(self, allows: Callable[[str], bool], blocked: Callable[[str], None]) -> None:
        """Abort every navigation this episode's pages start (scripts, forms, pop-ups) to a URL that
        ``allows`` refuses, telling ``blocked`` its URL; the page stays where it was."""
        def handle(route: Any) -> None:
            request = route.request
            try:
                if request.is_navigation_request() and not allows(request.url):
                    blocked(request.url)
                    route.abort("aborted")  # cancels the navigation; "blockedbyclient" would commit an error page
                    return
                route.fallback()
            except Exception:  # noqa: BLE001, S110 - the page or context closed meanwhile (a browser error)
                pass

        with self.driving("install the navigation guard"):
            self._pw.context.route("**/*", handle)

    def rewrite_documents(self, rewrite: Callable[[bytes], bytes]) -> None:
        """From now on, every HTML document this page loads reaches it as ``rewrite(body)``
        (subresources and non-HTML documents pass unchanged)."""
        def handle(route: Any) -> None:
            if route.request.resource_type != "document":
                route.fallback()
                return
            response = route.fetch()
            if "html" not in response.headers.get("content-type", ""):
                route.fulfill(response=response)
                return
            route.fulfill(response=response, body=rewrite(response.body()))

        with self.driving("install a document rewrite"):
            self._pw.route("**/*", handle)

    def clear_cookies(self) -> None:
        with self.driving("clear cookies"):
            self._pw.context.clear_cookies()

    # -- mouse and keyboard (CSS pixels of the top viewport) ----------------------------------
    def click_at(self, x: float, y: float, *, timeout_ms: float | None = None) -> None:
        """Click the real mouse at (x, y); ``timeout_ms``: given up after that long even when the
        page's main thread does not take the events (:class:`~pagelens.errors.PageTimeout`)."""
        self._mouse("click", x, y, f"click at ({x:.0f}, {y:.0f})", timeout_ms)

    def move_to(self, x: float, y: float, *, timeout_ms: float | None = None) -> None:
        """Move the real mouse to (x, y) (``timeout_ms``: as for :meth:`click_at`)."""
        self._mouse("move", x, y, f"move the mouse to ({x:.0f}, {y:.0f})", timeout_ms)

    def _mouse(self, verb: Literal["click", "move"], x: float, y: float, what: str, timeout_ms: float | None) -> None:
        with self.driving(what):
            mouse = self._pw.mouse
            if timeout_ms is not None and bounded_supported(mouse):
                bounded(mouse, lambda impl: getattr(impl, verb)(x, y), timeout_ms, what)
            else:
                getattr(mouse, verb)(x, y)

    def wheel(self, dx: float, dy: float) -> None:
        with self.driving("turn the mouse wheel"):
            self._pw.mouse.wheel(dx, dy)

    def press_key(self, key: str) -> None:
        """Press ``key`` (``Enter``, ``Control+a`` ...) on whatever has focus."""
        with self.driving(f"press {key}"):
            self._pw.keyboard.press(key)

    def insert_text(self, text: str) -> None:
        with self.driving("type text"):
            self._pw.keyboard.insert_text(text)

    # -- pictures ----------------------------------------------------------------------------
    def screenshot(self, config: ScreenshotConfig | None = None, *, raw: bool = False) -> Screenshot | Image:
        """A capped viewport screenshot (:func:`pagelens.browser.screenshot.capture`)."""
        from pagelens.browser.screenshot import capture

        with self.driving("take a screenshot"):
            return capture(self._pw, config, raw=raw)

    def screenshot_bytes(self, *, kind: Literal["png", "jpeg"] = "png", quality: int | None = None,
                         full_page: bool = False, timeout_ms: float = 10_000) -> bytes:
        """The encoded screenshot as the browser renders it, in CSS pixels (no cap): the viewport,
        or the whole page; ``quality`` only for JPEG."""
        with self.driving("take a screenshot"):
            return self._pw.screenshot(type=kind, quality=quality if kind == "jpeg" else None, full_page=full_page,
                                       scale="css", timeout=timeout_ms)

    # -- elements ----------------------------------------------------------------------------
    def element(self, node: Node, *, timeout_ms: float | None = None) -> MarkedElement:
        """The element of an observation node, tagged in its renderer; raises :class:`ElementGone`
        (:class:`~pagelens.errors.PageTimeout` when the page does not answer within ``timeout_ms``).
        Call :meth:`~pagelens.browser.dom.MarkedElement.release` when done."""
        return self.element_with(node, "", timeout_ms=timeout_ms)[0]

    def element_with(self, node: Node, js: str, arg: Any = None, *,
                     timeout_ms: float | None = None) -> tuple[MarkedElement, Any]:
        """:meth:`element`, and ``js(element, arg)``'s result (a function of the element) when the
        element is in the main document (None otherwise): for a node of the in-page walker, in the
        same page call as the tagging."""
        if self._sessions is None:
            raise ActionError("this tab has no observer: elements by observation id need episode.tab")
        return resolve_and_run(self, self._sessions(), node, js, arg, timeout_ms=timeout_ms)

    def by_role(self, role: str, name: str, *, nth: int = 0, exact: bool = True) -> Element:
        """The ``nth`` element with this ARIA role and accessible name (as the accessibility tree names it)."""
        loc = self._pw.get_by_role(role, name=name, exact=exact).nth(nth)  # type: ignore[arg-type]
        return Element(self, loc, f"{role} {name!r}" + (f" #{nth}" if nth else ""))

    def css(self, selector: str) -> Element:
        """The elements matching a CSS selector (``count``/``nth``/``first`` pick among them)."""
        return Element(self, self._pw.locator(selector), selector)

    def element_at(self, x: float, y: float, *, max_depth: int = 4) -> PointHit | None:
        """The element under the CSS point (x, y), iframes and open shadow roots included."""
        with self.driving(f"find the element at ({x:.0f}, {y:.0f})"):
            return element_at(self, x, y, max_depth=max_depth)


