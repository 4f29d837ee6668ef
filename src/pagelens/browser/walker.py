"""Live page → :class:`~pagelens.types.Observation`, through pagelens' own in-page walker.

The fast path of issue 13 (``BrowserConfig.extraction = "walker"``): ``walker.js`` (package
data) computes, in one pass over the DOM (open shadow roots and same-origin iframes included),
what Chromium's accessibility tree would say — role, accessible name, value, description,
states, box, visibility, concealment — and returns one JSON string of column arrays. The main
document is walked through the observer's CDP session (:meth:`WalkerObserver._walk_main`: the
function installed once per document and called by a CDP handle, the reply also carrying the
in-view interactive elements' backend node ids for the vision path's boxes, long results read
in slices, a very long one followed by a garbage collection in the page that nothing waits for:
:func:`_collect_page_garbage`); cross-origin iframes are walked through their own
:class:`~playwright.sync_api.Frame` (``evaluate``) and spliced under their ``<iframe>`` node.
The walker itself needs no particular Playwright (BrowserGym's pinned 1.44 included).

The column format and the build of the nodes: :mod:`pagelens.browser.walker_columns`; the
scripts: :mod:`pagelens.browser.walker_source`; a node back to its element:
:mod:`pagelens.browser.walker_refs`.

Element ids: the walker numbers elements per document in a ``WeakMap`` kept on a
non-enumerable window property (the page's DOM is not marked), each document with a random
token; :class:`~pagelens.browser.ids.IdRegistry` maps (token, number) to the short ids, so an
element keeps its id while it exists and a new document never reuses an old id.
:func:`resolve_ref` turns a node back into a Playwright locator for the executor.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any

from pagelens.browser.driving import bounded_supported, shallow
from pagelens.browser.extract import PageObserver
from pagelens.browser.walker_columns import MAIN, Walk, build_nodes, parse_walk
from pagelens.browser.walker_refs import KEY
from pagelens.browser.walker_source import walker_js
from pagelens.browser.watchdog import Deadline
from pagelens.gcpause import gc_paused
from pagelens.types import Observation

if TYPE_CHECKING:
    from playwright.sync_api import CDPSession, Frame, Page

#: Roles whose in-view elements get a CDP backend id (the vision path's interactive elements;
#: clickable nodes are asked for too), at most WANT_MAX of them.
WANT_ROLES = frozenset({
    "button", "checkbox", "combobox", "link", "listbox", "menuitem", "menuitemcheckbox", "menuitemradio", "option",
    "radio", "searchbox", "slider", "spinbutton", "switch", "tab", "textbox", "treeitem", "DisclosureTriangle",
    "ColorWell", "date", "DateTime", "InputTime", "image", "Canvas",
})
WANT_MAX = 200


class WalkerObserver(PageObserver):
    """Observes one page with the in-page walker; same contract as :class:`PageObserver`."""

    def __init__(self, page: Page, *, timeout_s: float = 30.0) -> None:
        super().__init__(page, timeout_s=timeout_s)
        self.frames_by_token: dict[str, Frame] = {}
        self._walker_fn: str | None = None  # CDP handle of the walker function's holder in the current document
        self._wanted_backend: list[int | None] = []  # backend ids of the last walk's wanted elements
        # A CDP call into a renderer that died never answers (Playwright's evaluate raised
        # "Target crashed"): the page's crash event is remembered and checked before each walk,
        # and ends the call in flight when it comes while the call waits (:meth:`_send`).
        self._renderer_died = False
        self._in_flight: asyncio.Future[Any] | None = None
        page.on("crash", self._on_crash)
        page.on("domcontentloaded", self._on_document)  # a new document after a crash lives in a new renderer

    def _on_crash(self, _page: object) -> None:
        self._renderer_died = True
        if self._in_flight is not None:
            self._in_flight.cancel()

    def _on_document(self, _page: object) -> None:
        self._renderer_died = False

    def close(self, *, detach: bool = False) -> None:
        self._walker_fn = None
        super().close(detach=detach)

    def observe(self, *, deadline: Deadline | None = None) -> Observation:
        # No separate liveness probe (the CDP observer's ``wait_for_function``: on a new document
        # it first installs Playwright's injected script, 50-100 ms): the walk is itself the first
        # call into the page, and a main thread that never answers it is ended from outside, by
        # the watchdog :meth:`~pagelens.browser.session.Episode.observe` runs on the deadline.
        deadline = deadline or Deadline(self.timeout_s)
        t0 = time.perf_counter()
        timings: dict[str, float] = {}
        if FREED_HEAP.due:  # the previous page was huge: give back what its tree and view freed
            FREED_HEAP.release()

        t = time.perf_counter()
        js = walker_js()
        frame_errors: dict[str, str] = {}
        raw_main = self._walk_main()
        timings["walker"] = time.perf_counter() - t

        with gc_paused():
            t = time.perf_counter()
            walks = [parse_walk(raw_main)]
            del raw_main  # a big page's JSON string (tens of MB) is not kept while the nodes are built
            timings["parse"] = time.perf_counter() - t
            # (handed over in a list that _finish empties: see _finish's note on Playwright's stacks)
            return self._finish(walks, js, deadline, timings, t0, frame_errors)

    def _walk_main(self) -> str | bytes:
        """The main document's walk, through this observer's CDP session (one per page, opened
        once), in one round trip: the call itself on a document walked before, and for a new
        document one ``Runtime.evaluate`` that installs the walker and walks at once.

        The walker function is compiled once per document and kept behind a CDP handle (the
        first reply's, :data:`_INSTALL`: never stored where the page's scripts could reach or
        replace it); later observations call it by that handle (:data:`_CALL`), so 45-67 kB of
        source are not sent and compiled again and its compiled code stays warm. A new document
        makes the handle stale: the call fails and the walker is installed again. The reply
        carries the JSON string and, by Chromium's deep serialization, the backend node ids of
        the wanted elements (:attr:`_wanted_backend`). A result longer than :data:`CHUNK`
        characters stays in the page behind the reply's handle and is read in slices, so no
        protocol message (renderer, driver, Python) carries all of it.

        A call into a dead renderer never answers: a crash event that comes while a call waits
        ends that call (:meth:`_send`), so a walk needs no round trip before it to deliver a
        pending one. (Where Playwright's layout is not the known one, the calls are plain and
        ``wait_for_timeout(0)``, one driver round trip, delivers it first on a page whose session
        is open; opening the session is such a round trip.)"""
        from playwright.sync_api import Error as PlaywrightError

        fresh = self._main is None
        cdp = shallow(self._main_session)
        if not fresh and not self._renderer_died and not bounded_supported(cdp):
            shallow(self.page.wait_for_timeout, 0)  # delivers a pending crash event
        if self._renderer_died:
            raise PlaywrightError("Target crashed: the page's renderer process died")
        opts: dict[str, Any] = {"want": sorted(WANT_ROLES), "wantMax": WANT_MAX, "collectAbove": COLLECT_ABOVE}
        res = self._call_walker(cdp, opts)
        if _asks_collection(res):
            # a huge document's first walk: the garbage of its loading goes first (waited for: the
            # renderer runs the collection as a task of its own, after calls already queued)
            self._collect(cdp)
            res = self._call_walker(cdp, {**opts, "collectAbove": 0})
        self.last_sessions = {MAIN: cdp}
        items = ((res.get("result") or {}).get("deepSerializedValue") or {}).get("value") or []
        if len(items) < 2:
            raise PlaywrightError("the walker returned no result")
        self._wanted_backend = []
        for item in (items[1].get("value") or []) if isinstance(items[1], dict) else []:
            value = item.get("value") if isinstance(item, dict) else None
            backend = value.get("backendNodeId") if isinstance(value, dict) else None
            self._wanted_backend.append(backend if isinstance(backend, int) else None)
        out = items[0].get("value") if isinstance(items[0], dict) else None
        if isinstance(out, str):
            return out
        handle = (res.get("result") or {}).get("objectId")
        if not handle:
            raise PlaywrightError("the walker's result has no handle")
        parts: list[str | bytes] = []
        chars = 0
        while True:  # slices until the page says the last one was read
            part = _value(self._send(cdp, "Runtime.callFunctionOn", {
                "objectId": handle, "functionDeclaration": _SLICE, "returnByValue": True, "silent": True,
                "arguments": [{"value": CHUNK * len(parts)}, {"value": CHUNK}]}))
            if not isinstance(part, list) or len(part) != 3 or not isinstance(part[0], str):
                raise PlaywrightError("the walker's result was lost between two reads")
            last, huge = bool(part[1]), isinstance(part[2], int) and part[2] > PURGE_CHARS
            chars += len(part[0])
            parts.append(_utf8(part[0]))
            del part
            if huge and len(parts) == 1 and not last and GC_BEFORE_READ:
                # the walk's garbage goes before the rest is read (the string stays: the reply holds
                # it), so Chromium is not at its largest while Python and the driver receive it
                _collect_page_garbage(cdp)
            if last:
                if huge:
                    _collect_page_garbage(cdp)  # (the string itself and the slices' garbage)
                    FREED_HEAP.due = True
                try:
                    return _joined(parts)
                finally:
                    parts.clear()  # (this frame outlives the call: see _finish)

    def _send(self, cdp: CDPSession, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """``cdp.send(method, params)``, ended by the page's crash event if it comes first.

        The call runs as its own task on Playwright's loop (its async implementation, as
        :func:`~pagelens.browser.driving.bounded` runs one), which :meth:`_on_crash` cancels: a
        crash event already on its way is dispatched while the call waits, and ends it at once
        ("Target crashed") instead of leaving it to the watchdog at the deadline. Made from a
        greenlet of its own (:func:`~pagelens.browser.driving.shallow`); the reply is the
        protocol's dictionary, not walked again by the sync API's result mapping."""
        from playwright.sync_api import Error as PlaywrightError

        if self._renderer_died:
            raise PlaywrightError("Target crashed: the page's renderer process died")
        if not bounded_supported(cdp):
            result: dict[str, Any] = shallow(cdp.send, method, params)
            return result

        async def run() -> Any:
            inner = asyncio.ensure_future(cdp._impl_obj.send(method, params))  # type: ignore[attr-defined]
            outer = asyncio.current_task()
            for attr in ("__pw_stack__", "__pw_stack_trace__"):  # (Playwright's call metadata)
                if hasattr(outer, attr):
                    setattr(inner, attr, getattr(outer, attr))
            self._in_flight = inner
            try:
                return await inner
            finally:
                self._in_flight = None

        try:
            result = shallow(cdp._sync, run())  # type: ignore[attr-defined]
        except asyncio.CancelledError:
            raise PlaywrightError("Target crashed: the page's renderer process died while observed") from None
        return result

    def _collect(self, cdp: CDPSession) -> None:
        """Have the page's renderer collect its garbage, and wait until it has (a page gone meanwhile:
        nothing to collect; the walk that follows reports it)."""
        from playwright.sync_api import Error as PlaywrightError

        try:
            self._send(cdp, "HeapProfiler.collectGarbage", {})
        except PlaywrightError:
            pass

    def _call_walker(self, cdp: CDPSession, opts: dict[str, Any]) -> dict[str, Any]:
        """One call of the walker: by its handle (:data:`_CALL`), or installing it in a document that
        has none yet (:data:`_INSTALL`)."""
        from playwright.sync_api import Error as PlaywrightError

        reply = {"silent": True, "objectGroup": _GROUP, "serializationOptions": {"serialization": "deep", "maxDepth": 2}}
        if self._walker_fn is not None:
            try:
                res: dict[str, Any] = self._send(cdp, "Runtime.callFunctionOn", {
                    "objectId": self._walker_fn, "functionDeclaration": _CALL,
                    "arguments": [{"value": opts}, {"value": CHUNK}], **reply})
            except PlaywrightError:  # a new document since (its handle is gone): install again
                self._walker_fn = None
            else:
                _value(res)
                return res
        expression = _INSTALL.format(walker=walker_js(), opts=json.dumps(opts), chunk=int(CHUNK))
        res = self._send(cdp, "Runtime.evaluate", {"expression": expression, **reply})
        self._walker_fn = (res.get("result") or {}).get("objectId")
        _value(res)
        return res

    def _finish(self, walks: list[Walk], js: str, deadline: Deadline, timings: dict[str, float], t0: float,
                frame_errors: dict[str, str]) -> Observation:
        """The observation from the main document's walk (``walks``' one item, taken out of it) and
        the cross-origin frames' own walks.

        Playwright's sync API keeps the Python stack of its last call (``inspect.stack()``, for its
        error messages) until its next call: the frames of this observation's last call into the
        page (the walk, its last slice, an iframe's walk) outlive it with their locals, through
        the caller's ``focus_view``. So the walks, their slices and the merge's tables are emptied
        here once the nodes are built, not left to the frames' end (~25 MB of columns and UTF-8
        slices at 100,000 elements, otherwise held while focus ranks the page)."""
        from playwright.sync_api import Error as PlaywrightError

        main = walks.pop()
        parsed: list[tuple[Frame, Walk]] = [(self.page.main_frame, main)]

        # cross-origin iframes: walk their Frame, splice under the iframe node
        t = time.perf_counter()
        spliced: dict[tuple[int, int], Walk] = {}  # (walk index, iframe node) -> child walk
        k = 0
        while k < len(parsed):
            frame, walk = parsed[k]
            if walk.iframes:
                wanted = {ref: node for node, ref in walk.iframes}
                for child in frame.child_frames:
                    if deadline.expired():
                        break
                    if child.url.startswith("chrome-error://"):
                        frame_errors[child.url] = "frame failed to load (blocked or unreachable)"
                        continue  # Chromium's own error page is not page content
                    try:
                        ref = shallow(shallow(child.frame_element).evaluate,
                                      f"(e) => {{ const s = e.ownerDocument.defaultView['{KEY}']; "
                                      "return s ? (s.ids.get(e) || 0) : 0; }")
                    except PlaywrightError as exc:
                        frame_errors[child.url or "iframe"] = _first_line(exc)
                        continue
                    node = wanted.get(int(ref or 0))
                    if node is None:
                        continue
                    try:
                        raw = shallow(child.evaluate, js, {})
                    except PlaywrightError as exc:
                        frame_errors[child.url or "iframe"] = _first_line(exc)
                        continue
                    spliced[(k, node)] = parse_walk(raw)
                    del raw
                    parsed.append((child, spliced[(k, node)]))
            token = walk.docs[0][1] if walk.docs else "?"
            for node in walk.loading:  # said, not dropped in silence (e.g. the depths of 200 nested iframes)
                frame_errors[f"iframe:{token}:{node}"] = ("iframe document still loading when observed "
                                                         "(its content may be missing)")
            k += 1
        timings["frames"] = time.perf_counter() - t

        t = time.perf_counter()
        index_of = {id(w): i for i, (_, w) in enumerate(parsed)}
        self.frames_by_token = {}
        for frame, w in parsed:
            for _, token, _, _, _ in w.docs:
                self.frames_by_token[token] = frame
        t = time.perf_counter()
        backend = self._backend_ids(main, deadline)
        timings["backend_ids"] = time.perf_counter() - t

        t = time.perf_counter()
        nodes = build_nodes(main, parsed, index_of, spliced, self.ids, backend)
        timings["build"] = time.perf_counter() - t
        timings["extract"] = time.perf_counter() - t0
        focused = None
        for n in nodes:
            if n.eid is not None and n.prop("focused") is True:
                focused = n.eid
        keys = [f"w:{tok}" for _, w in parsed for _, tok, _, _, _ in w.docs]
        tokens = (MAIN, *keys[1:]) if keys else (MAIN,)
        del main, walk, w
        parsed.clear()
        spliced.clear()
        return Observation(
            url=self.page.url,
            title=nodes[0].name if nodes else "",
            nodes=tuple(nodes),
            focused=focused,
            frames=tokens,
            frame_errors=frame_errors,
            timings=timings,
        )


    def _backend_ids(self, main: Walk, deadline: Deadline) -> dict[int, int]:
        """CDP backend node ids of the main walk's wanted nodes (in-view interactive elements,
        at most :data:`WANT_MAX`): what :func:`pagelens.browser.dom.content_box` and the vision
        path's boxes need. They came in the walk's own reply (Chromium's deep serialization of
        the walker's array of those elements gives each one's ``backendNodeId``)."""
        return {node: b for node, b in zip(main.wanted, self._wanted_backend) if b is not None}


#: Characters of the walker's result per CDP message (a longer result is read in slices).
CHUNK = 1 << 20
#: A walk whose result is longer than this many characters (about 50,000 elements and more)
#: is followed by a garbage collection in the page (:func:`_collect_page_garbage`).
PURGE_CHARS = 2 * CHUNK
_GROUP = "pagelens-walker"
#: A new document: install the walker and walk, in one evaluation. The reply is
#: ``[json, wanted elements, {h: {s: json}}, holder]``, with the JSON string in the first place when
#: it is at most ``chunk`` long, else only in the third, below the serialization depth (read by
#: _SLICE); the holder (fourth place, kept by the first reply for the document's lifetime) walks
#: again (_CALL). Each walk empties the previous reply's first three places (CDP keeps a handle to
#: each reply until the document goes: a few bytes each).
#: The first walk of a document of more than ``opts.collectAbove`` elements (when that is above 0)
#: does not walk: its reply is ``[null, [], null, holder, true]``, and the observer has the page
#: collected and calls again (:data:`COLLECT_ABOVE`).
_INSTALL = """(() => {{ const f = ({walker}); let last = null, counted = false;
  const holder = {{ run(opts, chunk) {{
    if (last) {{ last[0] = null; last[1] = []; last[2] = null; last = null; }}
    if (!counted && opts.collectAbove > 0) {{ counted = true;
      if (document.getElementsByTagName("*").length > opts.collectAbove) {{ last = [null, [], null, holder, true]; return last; }} }}
    const sink = {{}}; opts.sink = sink; const out = f(opts); const small = out.length <= chunk;
    const reply = [small ? out : null, sink.wanted || [], {{ h: {{ s: small ? null : out }} }}, holder];
    last = reply; return reply; }} }};
  return holder.run({opts}, {chunk}); }})()"""
#: Run on the document's first reply: walk again through its holder.
_CALL = "function (opts, chunk) { return this[3].run(opts, chunk); }"
#: Run on a reply: ``[slice, last?, length]``; the last slice drops the string from the page.
_SLICE = """function (a, n) { const h = this[2] && this[2].h; const s = h && h.s; if (typeof s !== "string") return null;
  const last = a + n >= s.length; const part = s.slice(a, a + n); const len = s.length; if (last) this[2] = null;
  return [part, last, len]; }"""
#: A main document of more elements than this is collected before its first walk, and the walk waits
#: for the collection: a freshly loaded page keeps the garbage of its loading (Blink's heap on the
#: generated 100,000-element page: ~280 MB of objects after load, ~175 after a collection) and the walk
#: adds its own on top; the walk's allocations make V8 and Blink collect during the walk anyway, but
#: the heap pages stay committed. Collected first, the renderer peaked 85-100 MB lower during that
#: page's walk (5 alternated pairs, observed right after load), for ~2 s of collection that the walk
#: mostly gets back (it no longer collects). Not waited for, the collection (a task the renderer posts
#: for itself) ran after the walk and gave nothing (h14). Counting the elements costs the page a few
#: milliseconds at 100,000 elements; a smaller document (every corpus page) is walked at once.
COLLECT_ABOVE = 65_536
#: After the first slice of a result longer than :data:`PURGE_CHARS`, ask the page for a collection
#: before reading the rest (the remaining reads wait for it: ~0.3-2 s on a 100,000-element page).
GC_BEFORE_READ = True


def _utf8(part: str) -> str | bytes:
    """A slice of the walker's result as UTF-8 bytes (what the JSON parser reads anyway): a big
    page's text (mostly one- or two-byte UTF-8) takes 1-2 bytes a character instead of Python's
    2-4 for a string holding any non-Latin-1 character, while the slices are held and joined. A
    slice that cut a surrogate pair in two stays a string (:func:`_joined`)."""
    try:
        return part.encode("utf-8")
    except UnicodeEncodeError:
        return part


def _joined(parts: list[str | bytes]) -> str | bytes:
    """The slices as one JSON text: bytes when every slice is, else a string as before."""
    if all(isinstance(p, bytes) for p in parts):
        return b"".join(parts)  # type: ignore[arg-type]
    return "".join(p.decode("utf-8") if isinstance(p, bytes) else p for p in parts)


def _asks_collection(res: dict[str, Any]) -> bool:
    """Whether the walker's reply is :data:`_INSTALL`'s "collect first" (a fifth place, true)."""
    items = ((res.get("result") or {}).get("deepSerializedValue") or {}).get("value") or []
    return len(items) > 4 and isinstance(items[4], dict) and items[4].get("value") is True


def _value(res: dict[str, Any]) -> Any:
    """The value of a ``Runtime`` reply; an exception in the page raises (as Playwright's
    ``evaluate`` would)."""
    from playwright.sync_api import Error as PlaywrightError

    exc = res.get("exceptionDetails")
    if exc:
        text = (exc.get("exception") or {}).get("description") or exc.get("text") or "exception"
        raise PlaywrightError(f"the walker failed in the page: {str(text).splitlines()[0]}")
    return (res.get("result") or {}).get("value")


def _collect_page_garbage(cdp: CDPSession) -> None:
    """Ask the page's renderer to collect its garbage, without waiting for it.

    A big walk leaves its transient objects in the page (the JSON string, the column arrays,
    the style and rect objects of every element: on a 100,000-element page the renderer holds
    ~150 MB more after the walk than after a collection, and does not give it back for a long
    time). Asked for as soon as the result is read, the collection runs in the renderer while
    Python builds the tree and focus ranks it, so Chromium's memory drops before those peak.
    Nothing waits for the answer (Playwright's no-reply send, which its sync API does not
    expose: skipped when the driver has none); a call into the page made before the collection
    ends waits for it (seconds on a 100,000-element page on a loaded machine)."""
    import inspect

    from playwright.sync_api import Error as PlaywrightError

    send = getattr(getattr(getattr(cdp, "_impl_obj", None), "_channel", None), "send_no_reply", None)
    if not callable(send):
        return
    args: dict[str, Any] = {"params": {"method": "HeapProfiler.collectGarbage", "params": {}}}
    try:
        if "timeout_calculator" in inspect.signature(send).parameters:  # (Playwright ≥ 1.5x)
            args["timeout_calculator"] = None
        send("send", **args)
    except (PlaywrightError, TypeError, ValueError):
        pass  # a page that went away has no garbage to collect; a driver whose private send differs: skipped


class FreedHeap:
    """Python's side of the same: after a huge page, this process' next observation empties the
    caches earlier pages filled and returns the freed heap to the OS (:func:`pagelens.heap.release`:
    per-text caches, cached page analyses nothing else holds, glibc ``malloc_trim(0)``). The
    allocator would reuse that memory for the next tree anyway, so the process' own peak barely
    moves; what moves is its size *during the next walk*, when Chromium holds the most."""

    def __init__(self) -> None:
        self.due = False

    def release(self) -> None:
        from pagelens import heap

        self.due = False
        heap.release()


#: One per process (the heap is the process'): :meth:`WalkerObserver.observe` releases it when due.
FREED_HEAP = FreedHeap()


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
