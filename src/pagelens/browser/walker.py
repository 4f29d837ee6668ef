"""Live page → :class:`~pagelens.types.Observation`, through pagelens' own in-page walker.

The fast path of issue 13 (``BrowserConfig.extraction = "walker"``): ``walker.js`` (package
data) computes, in one pass over the DOM (open shadow roots and same-origin iframes included),
what Chromium's accessibility tree would say — role, accessible name, value, description,
states, box, visibility, concealment — and returns one JSON string of column arrays. The main
document is walked through the observer's CDP session (:meth:`WalkerObserver._walk_main`: the
function installed once per document and called by a CDP handle, the reply also carrying the
in-view interactive elements' backend node ids for the vision path's boxes, long results read
in slices); cross-origin iframes are walked through their own
:class:`~playwright.sync_api.Frame` (``evaluate``) and spliced under their ``<iframe>`` node.
The walker itself needs no particular Playwright (BrowserGym's pinned 1.44 included).

Column format of one walk (``i`` is a node's position; nodes are in pre-order):

* ``S`` string table; ``R[i]``/``N[i]`` role/name string index; ``V``/``D`` (node, value /
  description string index) pairs; ``P[i]`` distance back to the parent (0 for a root);
* ``F[i]`` the element's number in its document (0 for text), ``B`` the boxes in document
  coordinates, four numbers per node except those with flag 16 (its parent's box);
  ``G[i]`` flags: 1 rendered, 2 clickable, 4 ``visibility:hidden``, 16 box of the parent,
  bits 8-10 the concealment code (:data:`_CONCEAL`), 2048 inside an overlay the page laid over its content;
* ``Q`` flat triples (node, property-name string index, value), in emission order;
* ``X`` pairs (iframe node, element number) of iframes whose document could not be read
  in-page (cross-origin); ``DOCS`` quintuples (root node, token, url, scrollX, scrollY);
* ``W`` the nodes whose backend id the observer asks for; ``LD`` iframe nodes whose document
  was still loading when walked (reported in ``frame_errors``); ``FL`` (start, end) ranges of the
  nodes emitted inside an out-of-flow box (``position`` fixed, sticky or absolute, at least
  150 x 60 px), innermost first: :attr:`~pagelens.types.Node.floating` numbers the outermost ones.

Element ids: the walker numbers elements per document in a ``WeakMap`` kept on a
non-enumerable window property (the page's DOM is not marked), each document with a random
token; :class:`~pagelens.browser.ids.IdRegistry` maps (token, number) to the short ids, so an
element keeps its id while it exists and a new document never reuses an old id.
:func:`resolve_ref` turns a node back into a Playwright locator for the executor.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from pagelens.browser.extract import PageObserver
from pagelens.browser.watchdog import Deadline
from pagelens.gcpause import gc_paused
from pagelens.types import ElementId, Node, Observation, PropValue

if TYPE_CHECKING:
    from playwright.sync_api import Frame, Page

MAIN = "main"
KEY = "__pagelensWalker"
_CONCEAL = ("", "offscreen", "tiny", "transparent", "same-colour", "covered")
_TEXT_ROLES = frozenset({"StaticText", "ListMarker"})
#: Roles whose in-view elements get a CDP backend id (the vision path's interactive elements;
#: clickable nodes are asked for too), at most WANT_MAX of them.
WANT_ROLES = frozenset({
    "button", "checkbox", "combobox", "link", "listbox", "menuitem", "menuitemcheckbox", "menuitemradio", "option",
    "radio", "searchbox", "slider", "spinbutton", "switch", "tab", "textbox", "treeitem", "DisclosureTriangle",
    "ColorWell", "date", "DateTime", "InputTime", "image", "Canvas",
})
WANT_MAX = 200


def _json_loads() -> Callable[[str], Any]:
    try:
        import orjson  # the `fast` extra
    except ImportError:
        return json.loads
    return orjson.loads


_loads = _json_loads()


@lru_cache(maxsize=1)
def click_hook_js() -> str:
    """The init script that records click listeners for the walker (``click_hook.js``)."""
    return resources.files("pagelens.browser").joinpath("click_hook.js").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def walker_js() -> str:
    """The walker's source (package data, read once): ``walker.js`` with ``walker_names.js``
    (the accessible-name part) spliced in at its ``@include`` line."""
    files = resources.files("pagelens.browser")
    main = files.joinpath("walker.js").read_text(encoding="utf-8")
    names = files.joinpath("walker_names.js").read_text(encoding="utf-8")
    return main.replace("  /* @include walker_names.js */", names, 1)


@dataclass(frozen=True, slots=True)
class _Walk:
    """One frame's parsed columns (still positional; :func:`_build` makes the nodes)."""

    strings: list[str]
    parent: list[int]
    role: list[int]
    name: list[int]
    value: list[int]
    desc: list[int]
    ref: list[int]
    box: list[float]
    flags: list[int]
    props: dict[int, list[tuple[str, PropValue]]]
    iframes: list[tuple[int, int]]  # (iframe node, element number) not walked in-page
    docs: list[tuple[int, str, str, float, float]]  # (root node, token, url, scroll x, scroll y)
    viewport: tuple[float, float]
    ms: float
    wanted: list[int]  # nodes whose CDP backend id the observer asked for (see _backend_ids)
    loading: list[int]  # iframe nodes whose document was still loading when walked
    floats: list[int]  # per node: the number (1-based, this walk) of the outermost out-of-flow box holding it


def parse_walk(raw: str) -> _Walk:
    """Parse the walker's JSON string (the edge: nothing past here sees raw columns)."""
    d: dict[str, Any] = _loads(raw)
    strings: list[str] = d["S"]
    q: list[Any] = d["Q"]
    props: dict[int, list[tuple[str, PropValue]]] = {}
    for k in range(0, len(q) - 2, 3):
        v = q[k + 2]
        if isinstance(v, (bool, int, float, str)):
            props.setdefault(int(q[k]), []).append((strings[q[k + 1]], v))
    x: list[int] = d["X"]
    docs_raw: list[Any] = d["DOCS"]
    docs = [(int(docs_raw[k]), strings[docs_raw[k + 1]], strings[docs_raw[k + 2]], float(docs_raw[k + 3]),
             float(docs_raw[k + 4])) for k in range(0, len(docs_raw) - 4, 5)]
    vp = d.get("vp") or [1280, 720]
    # undo the compact encoding (see walker.js emit): absolute parents, dense values and boxes
    dp: list[int] = d["P"]
    parent = [i - x if x else -1 for i, x in enumerate(dp)]
    n = len(dp)
    value = [-1] * n
    vv: list[int] = d["V"]
    for k in range(0, len(vv) - 1, 2):
        value[vv[k]] = vv[k + 1]
    desc = [-1] * n
    dd: list[int] = d["D"]
    for k in range(0, len(dd) - 1, 2):
        desc[dd[k]] = dd[k + 1]
    flags: list[int] = d["G"]
    packed: list[float] = d["B"]
    box: list[float] = [0.0] * (4 * n)
    j = 0
    for i in range(n):
        if flags[i] & 16:
            p = 4 * parent[i]
            box[4 * i: 4 * i + 4] = box[p: p + 4]
        else:
            box[4 * i: 4 * i + 4] = packed[j: j + 4]
            j += 4
    return _Walk(strings, parent, d["R"], d["N"], value, desc, d["F"], box, flags, props,
                 [(int(x[k]), int(x[k + 1])) for k in range(0, len(x) - 1, 2)], docs,
                 (float(vp[0]), float(vp[1])), float(d.get("ms", 0.0)), list(d.get("W") or ()),
                 list(d.get("LD") or ()), _floats(d.get("FL") or (), n))


def _floats(ranges: Any, n: int) -> list[int]:
    """Per node, the number of the outermost ``FL`` range holding it (0: none). Ranges nest or are disjoint."""
    out = [0] * n if ranges else []
    spans = sorted((int(ranges[k]), -int(ranges[k + 1])) for k in range(0, len(ranges) - 1, 2))
    box, end = 0, -1
    for lo, neg in spans:
        hi = min(-neg, n)
        if lo < end:
            continue  # inside an outer box already numbered
        box += 1
        end = hi
        for i in range(max(lo, 0), hi):
            out[i] = box
    return out


class WalkerObserver(PageObserver):
    """Observes one page with the in-page walker; same contract as :class:`PageObserver`."""

    def __init__(self, page: Page, *, timeout_s: float = 30.0) -> None:
        super().__init__(page, timeout_s=timeout_s)
        self.frames_by_token: dict[str, Frame] = {}
        self._walker_fn: str | None = None  # CDP handle of the walker function's holder in the current document
        self._wanted_backend: list[int | None] = []  # backend ids of the last walk's wanted elements
        # A CDP call into a renderer that died never answers (Playwright's evaluate raised
        # "Target crashed"): the page's crash event is remembered and checked before each walk.
        self._renderer_died = False
        page.on("crash", self._on_crash)
        page.on("domcontentloaded", self._on_document)  # a new document after a crash lives in a new renderer

    def _on_crash(self, _page: object) -> None:
        self._renderer_died = True

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

        t = time.perf_counter()
        js = walker_js()
        frame_errors: dict[str, str] = {}
        raw_main = self._walk_main()
        walks: list[tuple[Frame, str]] = [(self.page.main_frame, raw_main)]
        timings["walker"] = time.perf_counter() - t

        with gc_paused():
            return self._finish(raw_main, js, deadline, timings, t0, frame_errors, walks)

    def _walk_main(self) -> str:
        """The main document's walk, through this observer's CDP session (one per page, opened
        once), in one round trip when the walker is installed (two for a new document).

        The walker function is compiled once per document: its first observation evaluates the
        source and keeps a CDP handle to it (never stored where the page's scripts could reach
        or replace it); later observations call it by that handle, so 60 kB of source are not
        sent and compiled again and its compiled code stays warm. A new document makes the
        handle stale: the call fails and the function is installed again. (Playwright's
        ``evaluate`` would also install its own utility script in every new document first.)
        The reply carries the JSON string and, by Chromium's deep serialization, the backend
        node ids of the wanted elements (:attr:`_wanted_backend`). A result longer than
        :data:`CHUNK` characters stays in the page behind the reply's handle and is read in
        slices, so no protocol message (renderer, driver, Python) carries all of it."""
        from playwright.sync_api import Error as PlaywrightError

        if not self._renderer_died:
            self.page.wait_for_timeout(0)  # one driver round trip (~1 ms): delivers a pending crash event
        if self._renderer_died:
            raise PlaywrightError("Target crashed: the page's renderer process died")
        cdp = self._main_session()
        call = {"functionDeclaration": _CALL, "silent": True, "objectGroup": _GROUP,
                "arguments": [{"value": {"want": sorted(WANT_ROLES), "wantMax": WANT_MAX}}, {"value": CHUNK}],
                "serializationOptions": {"serialization": "deep", "maxDepth": 2}}
        res: dict[str, Any] | None = None
        if self._walker_fn is not None:
            try:
                res = cdp.send("Runtime.callFunctionOn", {"objectId": self._walker_fn, **call})
            except PlaywrightError:  # a new document since (its handle is gone): install again
                self._walker_fn = None
        if res is None:
            holder = cdp.send("Runtime.evaluate", {"expression": f"({{ f: ({walker_js()}) }})", "silent": True,
                                                   "objectGroup": _GROUP})
            _value(holder)
            self._walker_fn = holder["result"]["objectId"]
            res = cdp.send("Runtime.callFunctionOn", {"objectId": self._walker_fn, **call})
        _value(res)
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
        parts: list[str] = []
        while True:  # slices until the page says the last one was read
            part = _value(cdp.send("Runtime.callFunctionOn", {
                "objectId": handle, "functionDeclaration": _SLICE, "returnByValue": True, "silent": True,
                "arguments": [{"value": CHUNK * len(parts)}, {"value": CHUNK}]}))
            if not isinstance(part, list) or len(part) != 2 or not isinstance(part[0], str):
                raise PlaywrightError("the walker's result was lost between two reads")
            parts.append(part[0])
            if part[1]:
                return "".join(parts)

    def _finish(self, raw_main: str, js: str, deadline: Deadline, timings: dict[str, float], t0: float,
                frame_errors: dict[str, str], walks: list[tuple[Frame, str]]) -> Observation:
        from playwright.sync_api import Error as PlaywrightError

        t = time.perf_counter()
        main = parse_walk(raw_main)
        parsed: list[tuple[Frame, _Walk]] = [(self.page.main_frame, main)]
        timings["parse"] = time.perf_counter() - t

        # cross-origin iframes: walk their Frame, splice under the iframe node
        t = time.perf_counter()
        spliced: dict[tuple[int, int], _Walk] = {}  # (walk index, iframe node) -> child walk
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
                        ref = child.frame_element().evaluate(f"(e) => {{ const s = e.ownerDocument.defaultView['{KEY}']; "
                                                             "return s ? (s.ids.get(e) || 0) : 0; }")
                    except PlaywrightError as exc:
                        frame_errors[child.url or "iframe"] = _first_line(exc)
                        continue
                    node = wanted.get(int(ref or 0))
                    if node is None:
                        continue
                    try:
                        raw = child.evaluate(js, {})
                    except PlaywrightError as exc:
                        frame_errors[child.url or "iframe"] = _first_line(exc)
                        continue
                    walks.append((child, raw))
                    cw = parse_walk(raw)
                    spliced[(k, node)] = cw
                    parsed.append((child, cw))
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
        nodes = _build(main, parsed, index_of, spliced, self.ids, backend)
        timings["build"] = time.perf_counter() - t
        timings["extract"] = time.perf_counter() - t0
        focused = None
        for n in nodes:
            if n.eid is not None and n.prop("focused") is True:
                focused = n.eid
        keys = [f"w:{tok}" for _, w in parsed for _, tok, _, _, _ in w.docs]
        tokens = (MAIN, *keys[1:]) if keys else (MAIN,)
        return Observation(
            url=self.page.url,
            title=nodes[0].name if nodes else "",
            nodes=tuple(nodes),
            focused=focused,
            frames=tokens,
            frame_errors=frame_errors,
            timings=timings,
        )


    def _backend_ids(self, main: _Walk, deadline: Deadline) -> dict[int, int]:
        """CDP backend node ids of the main walk's wanted nodes (in-view interactive elements,
        at most :data:`WANT_MAX`): what :func:`pagelens.browser.dom.content_box` and the vision
        path's boxes need. They came in the walk's own reply (Chromium's deep serialization of
        the walker's array of those elements gives each one's ``backendNodeId``)."""
        return {node: b for node, b in zip(main.wanted, self._wanted_backend) if b is not None}


#: Characters of the walker's result per CDP message (a longer result is read in slices).
CHUNK = 1 << 20
_GROUP = "pagelens-walker"
#: Run on the holder of the walker function (``this.f``): walk; reply ``[json, wanted elements,
#: {h: {s: json}}]`` with the JSON string in the first place when it is at most ``chunk`` long, else
#: only in the third, below the serialization depth (read by _SLICE). The previous reply's arrays
#: are emptied (CDP keeps a handle to each reply until the document goes: a few bytes each).
_CALL = """function (opts, chunk) { if (this.last) { this.last.length = 0; this.last = null; }
  const sink = {}; opts.sink = sink; const out = this.f(opts); const small = out.length <= chunk;
  const reply = [small ? out : null, sink.wanted || [], { h: { s: small ? null : out } }];
  this.last = reply; return reply; }"""
#: Run on a reply: ``[slice, last?]``; the last slice drops the string from the page.
_SLICE = """function (a, n) { const h = this[2] && this[2].h; const s = h && h.s; if (typeof s !== "string") return null;
  const last = a + n >= s.length; const part = s.slice(a, a + n); if (last) this.length = 0; return [part, last]; }"""


def _value(res: dict[str, Any]) -> Any:
    """The value of a ``Runtime`` reply; an exception in the page raises (as Playwright's
    ``evaluate`` would)."""
    from playwright.sync_api import Error as PlaywrightError

    exc = res.get("exceptionDetails")
    if exc:
        text = (exc.get("exception") or {}).get("description") or exc.get("text") or "exception"
        raise PlaywrightError(f"the walker failed in the page: {str(text).splitlines()[0]}")
    return (res.get("result") or {}).get("value")


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _build(main: _Walk, parsed: list[tuple[Any, _Walk]], index_of: dict[int, int],
           spliced: dict[tuple[int, int], _Walk], ids: Any, backend: dict[int, int] | None = None) -> list[Node]:
    """Merge the walks into document-ordered :class:`Node` values (cross-origin frames spliced).

    The hot loop of a big page (one iteration per node): per-walk lookups are hoisted, the
    :class:`Node` is built with positional arguments (its field order), and a node's frame,
    token and scroll are inherited by parent position instead of rebuilt."""
    out: list[Node] = []
    append = out.append
    main_token = main.docs[0][1] if main.docs else ""
    id_for = ids.id_for
    text_roles = _TEXT_ROLES
    conceal_names = _CONCEAL

    def emit_walk(w: _Walk, parent: int | None, depth0: int, top: bool) -> None:
        wi = index_of[id(w)]
        s = w.strings
        doc_roots = {root: (tok, sx, sy) for root, tok, _, sx, sy in w.docs}
        vw, vh = w.viewport
        n = len(w.parent)
        pos = [0] * n  # walk position -> Observation index
        depth = [0] * n
        doc_of = [0] * n  # walk position -> index into docs_info
        docs_info: list[tuple[str, str, str, float, float]] = [("", "", "", 0.0, 0.0)]  # (token, frame, id key, sx, sy)
        w_parent, w_role, w_name, w_value, w_desc, w_ref, w_box, w_flags = (
            w.parent, w.role, w.name, w.value, w.desc, w.ref, w.box, w.flags)
        props = w.props
        floats = w.floats
        float_base = 1000 * wi  # box numbers stay distinct across the walks of several frames
        back = (backend or {}) if w is main else {}
        roles = [s[r] for r in w_role]
        has_children = bool(spliced)
        for i in range(n):
            p = w_parent[i]
            if i in doc_roots:
                tok, dsx, dsy = doc_roots[i]
                docs_info.append((tok, MAIN if (top and tok == main_token) else f"w:{tok}", f"w:{tok}", dsx, dsy))
                d = doc_of[i] = len(docs_info) - 1
            else:
                d = doc_of[i] = doc_of[p]
            tok, frame, key, sx, sy = docs_info[d]
            if p < 0:
                par = parent
                dep = depth0
            else:
                par = pos[p]
                dep = depth[p] + 1
            depth[i] = dep
            role = roles[i]
            flags = w_flags[i]
            rendered = bool(flags & 1)
            visible = False
            if rendered:
                b4 = 4 * i
                bw = w_box[b4 + 2]
                bh = w_box[b4 + 3]
                if bw > 0 and bh > 0:
                    if frame == MAIN:
                        x = w_box[b4]
                        y = w_box[b4 + 1]
                        ix = min(x + bw, sx + vw) - max(x, sx)
                        iy = min(y + bh, sy + vh) - max(y, sy)
                        visible = ix > 0 and iy > 0 and ix * iy >= 0.5 * bw * bh
                    else:
                        visible = True
            ref = w_ref[i]
            eid: ElementId | None = None
            ref_s: str | None = None
            is_text = role in text_roles
            if ref and not is_text and role != "RootWebArea":
                eid = id_for(key, ref)
                ref_s = f"{tok}:{ref}"
            idx = len(out)
            pos[i] = idx
            v = w_value[i]
            dsc = w_desc[i]
            pr = props.get(i)
            append(Node(
                idx, par, dep, eid, role, s[w_name[i]], None if v < 0 else s[v], "" if dsc < 0 else s[dsc],
                tuple(pr) if pr else (), frame, back.get(i), visible,
                rendered or is_text or role == "RootWebArea", bool(flags & 2), False, conceal_names[(flags >> 8) & 7],
                ref_s, bool(flags & 2048), (floats[i] + float_base) if floats and floats[i] else 0,
            ))
            if has_children:
                child = spliced.get((wi, i))
                if child is not None:
                    emit_walk(child, idx, dep + 1, False)

    emit_walk(main, None, 0, True)
    return out


# -- actions: a walker node back to a locator ------------------------------------------------
_MARK = """([key, token, n, attr, nonce]) => {
  const s = window[key];
  if (!s || s.token !== token) return null;
  const e = s.find(n);
  if (!e) return null;
  e.setAttribute(attr, nonce);
  return e.localName;
}"""
_UNMARK = "([attr, nonce]) => { for (const e of document.querySelectorAll(`[${attr}=\"${nonce}\"]`)) e.removeAttribute(attr); }"


def resolve_ref(page: Page, node: Node, attr: str) -> tuple[Frame, str, str]:
    """Mark the element of a walker node with a fresh nonce in ``attr``; return (frame, tag, nonce).

    Raises :class:`LookupError` when no frame holds it any more (the caller maps that to its
    own error)."""
    from playwright.sync_api import Error as PlaywrightError

    if node.ref is None:
        raise LookupError("not a walker node")
    token, _, num = node.ref.partition(":")
    nonce = secrets.token_hex(6)
    frames = [page.main_frame, *page.frames[1:]] if node.frame == MAIN else [*page.frames[1:], page.main_frame]
    for frame in frames:
        try:
            tag = frame.evaluate(_MARK, [KEY, token, int(num), attr, nonce])
        except PlaywrightError:
            continue
        if isinstance(tag, str):
            return frame, tag, nonce
    raise LookupError("no longer on the page")


def unmark(frame: Frame, attr: str, nonce: str) -> None:
    """Remove the nonce attribute again (best effort)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        frame.evaluate(_UNMARK, [attr, nonce])
    except PlaywrightError:
        pass
