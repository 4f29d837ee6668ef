"""The in-page walker (``BrowserConfig.extraction="walker"``) on real Chromium, pages on 127.0.0.1.

Each test reads the page with the walker and checks names, roles, states, frames, shadow DOM
and hidden text against what the page says; the CDP reference reads the same page where the
two must agree; actions run through the executor on walker ids.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from pagelens.actions.executor import Executor
from pagelens.actions.spec import Action
from pagelens.browser.extract import PageObserver
from pagelens.browser.session import BrowserSession, Episode
from pagelens.browser.walker import WalkerObserver
from pagelens.config import BrowserConfig
from pagelens.observe.render import render
from pagelens.types import Node, Observation

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def walker_session() -> Iterator[BrowserSession]:
    with BrowserSession(BrowserConfig(extraction="walker")) as session:
        yield session


@pytest.fixture()
def page(walker_session, pages_server) -> Iterator[tuple[Episode, Observation]]:  # type: ignore[no-untyped-def]
    with walker_session.episode() as ep:
        ep.goto(pages_server.url("walker.html"))
        ep.page.frame_locator("#cross").locator("button").wait_for()
        yield ep, ep.observe()


def node(obs: Observation, role: str, name: str) -> Node:
    for n in obs.nodes:
        if n.role == role and n.name == name:
            return n
    raise AssertionError(f"no {role} {name!r} in {[(n.role, n.name) for n in obs.nodes if n.eid]}")


def test_the_episode_uses_the_walker(page) -> None:  # type: ignore[no-untyped-def]
    ep, obs = page
    assert isinstance(ep.observer, WalkerObserver)
    assert {"walker", "backend_ids", "build", "extract"} <= set(obs.timings)
    # elements are the walker's own references; in-view interactive ones also carry a CDP
    # backend id (for the vision path's boxes), text never does
    assert all(n.ref is not None for n in obs.nodes if n.eid is not None and n.frame == "main" and n.role != "RootWebArea")
    assert all(n.backend_id is None for n in obs.nodes if n.role == "StaticText")
    with_ids = [n for n in obs.nodes if n.backend_id is not None]
    assert with_ids and all(n.visible or n.frame != "main" for n in with_ids)  # same-origin iframes: rendered


def test_backend_ids_give_the_vision_path_its_boxes(page) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.dom import content_box

    ep, obs = page
    n = next(n for n in obs.nodes if n.backend_id is not None and n.role == "button")
    box = content_box(ep.observer.last_sessions, n)
    want = ep.page.evaluate("""([key, num]) => { const e = window[key].find(num); const r = e.getBoundingClientRect();
                                return [r.left, r.top, r.width, r.height]; }""", ["__pagelensWalker", int(n.ref.split(":")[1])])
    assert box is not None
    assert all(abs(a - b) <= 2 for a, b in zip(box, want, strict=True))
    assert obs.title == "Walker page" and obs.nodes[0].role == "RootWebArea"


def test_accessible_names(page) -> None:  # type: ignore[no-untyped-def]
    _, obs = page
    fields = {n.name for n in obs.nodes if n.role == "textbox"}
    # aria-labelledby (two ids), aria-label, label[for], wrapping label, placeholder, title, shadow label
    assert {"Billing address", "Coupon code", "E-mail", "Phone", "Search the shop", "Postal code",
            "Shadow field"} <= fields
    assert node(obs, "link", "Cart icon").eid is not None  # a link named by its image's alt
    assert node(obs, "heading", "Walker test").prop("level") == 1  # name from content across a span
    assert node(obs, "navigation", "Primary")
    assert node(obs, "checkbox", "I agree").prop("checked") == "true"
    assert node(obs, "button", "Press the div").clickable  # role=button with a click handler


def test_roles_and_states(page) -> None:  # type: ignore[no-untyped-def]
    _, obs = page
    assert node(obs, "button", "Details").prop("expanded") is False
    assert node(obs, "button", "Cannot press").prop("disabled") is True
    assert node(obs, "textbox", "E-mail").prop("required") is True
    assert node(obs, "radio", "Radio one").prop("checked") == "false"
    assert node(obs, "radio", "Radio two").prop("checked") == "true"
    combo = node(obs, "combobox", "Size")
    assert combo.value == "Large"
    assert node(obs, "option", "Large").prop("selected") is True
    assert node(obs, "textbox", "Phone").value == "555"
    roles = Counter(n.role for n in obs.nodes)
    assert roles["columnheader"] == 2 and roles["cell"] == 2 and roles["listitem"] == 2 and roles["ListMarker"] == 2


def test_hidden_text(page) -> None:  # type: ignore[no-untyped-def]
    _, obs = page
    texts = {n.name for n in obs.nodes if n.role == "StaticText"}
    assert "Visible text" in texts
    assert not texts & {"display-none text", "aria-hidden text", "visibility-hidden text"}
    sr = node(obs, "StaticText", "screen-reader text")  # in the tree, but a sighted user does not see it
    assert sr.concealed == "tiny"
    assert node(obs, "StaticText", "Visible text").concealed == ""


def test_frames_and_shadow_dom(page) -> None:  # type: ignore[no-untyped-def]
    _, obs = page
    frame_buttons = [n for n in obs.nodes if n.role == "button" and n.name == "Frame button"]
    assert len(frame_buttons) == 2  # same-origin iframe (in-page) and cross-origin one (own Frame)
    assert all(n.frame != "main" and n.eid is not None for n in frame_buttons)
    assert len({n.frame for n in frame_buttons}) == 2
    iframes = [n for n in obs.nodes if n.role == "Iframe"]
    for iframe, button in zip(iframes, frame_buttons):
        assert button.parent is not None and obs.nodes[button.parent].parent == iframe.index  # under its iframe
    assert node(obs, "button", "Shadow button").frame == "main"


def test_ids_are_stable_and_actionable(page) -> None:  # type: ignore[no-untyped-def]
    ep, obs = page
    again = ep.observe()
    assert [(n.eid, n.role, n.name) for n in obs.nodes if n.eid] == [(n.eid, n.role, n.name) for n in again.nodes if n.eid]
    ex = Executor(ep)
    fb = ex.execute(Action("click", {"id": str(node(obs, "button", "Details").eid)}), obs)
    assert fb.status == "done", fb.message
    fb = ex.execute(Action("fill", {"id": str(node(obs, "textbox", "Shadow field").eid), "text": "in the shadow"}), obs)
    assert fb.status == "done", fb.message
    assert ep.page.evaluate("document.getElementById('host').shadowRoot.querySelector('input').value") == "in the shadow"
    cross = [n for n in obs.nodes if n.role == "button" and n.name == "Frame button"][-1]
    fb = ex.execute(Action("click", {"id": str(cross.eid)}), obs)
    assert fb.status == "done", fb.message
    after = ep.observe()
    assert node(after, "button", "Opened").eid == node(obs, "button", "Details").eid  # same element, same id
    assert node(after, "button", "Opened").prop("expanded") is True
    assert any(n.name == "Frame clicked" and n.role == "button" for n in after.nodes)
    assert ep.page.evaluate("document.querySelectorAll('[data-pagelens-target]').length") == 0  # marks removed


def test_a_new_document_never_reuses_ids(page, pages_server) -> None:  # type: ignore[no-untyped-def]
    ep, obs = page
    before = {n.eid for n in obs.nodes if n.eid}
    ep.goto(pages_server.url("walker.html"))
    fresh = ep.observe()
    assert before.isdisjoint({n.eid for n in fresh.nodes if n.eid})
    gone = node(obs, "button", "Details")
    fb = Executor(ep).execute(Action("click", {"id": str(gone.eid)}), obs)
    assert fb.status == "failed" and "no longer on the page" in fb.message, fb.message


def test_agrees_with_the_cdp_reference(page) -> None:  # type: ignore[no-untyped-def]
    ep, _ = page
    cdp = render(PageObserver(ep.page).observe())
    walk = render(WalkerObserver(ep.page).observe())
    assert Counter((ln.role, ln.name) for ln in cdp.lines) == Counter((ln.role, ln.name) for ln in walk.lines)


def test_text_under_an_opaque_overlay_is_marked_covered(walker_session, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.serve import StaticServer

    (tmp_path / "covered.html").write_text(
        "<body style='margin:0'><p>Plain paragraph under the sheet</p><p>Second line under the sheet</p>"
        "<div style='position:fixed;top:0;left:0;width:100%;height:300px;background:#fff;z-index:9'>"
        "<p>The sheet on top</p><button>Dismiss</button></div>"
        "<div style='position:absolute;top:400px;left:0;width:50%;height:100px;background:rgba(0,0,0,0.3)'>glass</div>"
        "<p style='margin-top:300px'>Under a see-through box</p>"
        "<div style='height:2000px'></div><p style='margin-top:0'>Far below, not covered</p></body>")
    with StaticServer(tmp_path) as server, walker_session.episode() as ep:
        ep.goto(server.url("covered.html"))
        obs = ep.observe()
    texts = {n.name: n.concealed for n in obs.nodes if n.role == "StaticText"}
    assert texts["Plain paragraph under the sheet"] == "covered"
    assert texts["Second line under the sheet"] == "covered"
    assert texts["The sheet on top"] == "" and texts["Far below, not covered"] == ""
    assert texts["Under a see-through box"] == ""  # not opaque: not an overlay
    assert render(obs).lines  # renders


def test_build_passes_node_fields_in_declaration_order() -> None:
    """walker_columns.build_nodes constructs Node positionally (its hot loop): this pins the field order it assumes."""
    from dataclasses import fields

    assert [f.name for f in fields(Node)] == [
        "index", "parent", "depth", "eid", "role", "name", "value", "description", "properties", "frame",
        "backend_id", "visible", "rendered", "clickable", "ignored", "concealed", "ref", "overlay", "floating",
    ]


def _lines(obs: Observation) -> list[tuple[object, ...]]:
    return [(n.role, n.name, n.value, n.parent, n.eid, n.visible, n.properties, n.backend_id is not None)
            for n in obs.nodes]


def test_a_long_result_read_in_slices_equals_one_message(page, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser import walker

    ep, obs = page
    one = ep.observe()
    monkeypatch.setattr(walker, "CHUNK", 997)  # a few kB page: several slices, one cut mid-string
    sliced = ep.observe()
    assert _lines(sliced) == _lines(one) and len(one.nodes) > 50
    assert node(sliced, "button", "Details").eid == node(obs, "button", "Details").eid


def test_the_page_cannot_replace_the_walker(walker_session, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The walker is called through a CDP handle, not a window property: a page that plants a fake
    walker (on the property the state lives in) or changes it between two observations is still
    read by pagelens' own code; a navigation installs the walker again in the new document."""
    from pagelens.browser.serve import StaticServer

    fake = ("const f = () => JSON.stringify({S:['', 'RootWebArea', 'Fake'], P:[0], R:[1], N:[2], V:[], D:[], F:[0],"
            " B:[0,0,1,1], G:[1], Q:[], X:[], DOCS:[], W:[], LD:[], vp:[1280,720], ms:0});")
    (tmp_path / "plant.html").write_text(
        f"<title>Real</title><script>{fake} Object.defineProperty(window, '__pagelensWalker', "
        "{value: {walk: f, ids: new WeakMap(), next: 1, token: 'x', find: () => null}, writable: true});"
        "</script><button>Real button</button>")
    (tmp_path / "other.html").write_text("<title>Other</title><button>Second page</button>")
    with StaticServer(tmp_path) as server, walker_session.episode() as ep:
        ep.goto(server.url("plant.html"))
        first = ep.observe()
        ep.page.evaluate(f"() => {{ {fake} window.__pagelensWalker.walk = f; window.__pagelensWalker.out = f(); }}")
        second = ep.observe()
        ep.goto(server.url("other.html"))
        third = ep.observe()
    for obs in (first, second):
        node(obs, "button", "Real button")
        assert not any(n.name == "Fake" for n in obs.nodes)
    node(third, "button", "Second page")
    assert not any(n.name == "Real button" for n in third.nodes)


def test_a_renderer_dead_before_the_first_observation_is_an_error_not_a_hang(walker_session, pages_server) -> None:  # type: ignore[no-untyped-def]
    """A renderer that died before the page's first observation is reported at once, not waited
    on until the deadline: the episode's observer exists from the start, so its crash listener
    saw the crash (an observer made at the first observation missed it and hung in its first
    call until the watchdog stopped the browser)."""
    import time

    from pagelens.errors import PagelensError

    with walker_session.episode() as ep:
        ep.goto(pages_server.url("walker.html"))
        with ep.page.expect_event("crash", timeout=15_000):
            try:
                ep.page.goto("chrome://crash", timeout=5000)
            except Exception:  # noqa: BLE001, S110 - the navigation itself fails with the crash
                pass
        t = time.monotonic()
        with pytest.raises(PagelensError, match="(?i)crash"):
            ep.observe(timeout_s=30)
        assert time.monotonic() - t < 10
    walker_session.ensure_alive()


def test_one_round_trip_per_observation_of_a_walked_document(page, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A document walked before is walked again by one driver round trip, the CDP call itself (no
    crash-delivery round trip before it: a crash ends the call in flight); a new document by one
    evaluation that installs and walks (no separate install)."""
    from playwright._impl._connection import Connection

    ep, _ = page
    sent: list[str] = []
    real = Connection._send_message_to_server

    def send(self, obj, method, params, no_reply=False):  # type: ignore[no-untyped-def]
        if method in ("send", "waitForTimeout") and not no_reply:  # CDP calls, and the old crash-delivery trip
            sent.append(params.get("method", method))
        return real(self, obj, method, params, no_reply)

    monkeypatch.setattr(Connection, "_send_message_to_server", send)
    ep.observe()
    assert sent == ["Runtime.callFunctionOn"]
    sent.clear()
    ep.page.reload()
    ep.page.frame_locator("#cross").locator("button").wait_for()
    sent.clear()
    obs = ep.observe()
    assert sent == ["Runtime.callFunctionOn", "Runtime.evaluate"]  # the stale handle fails, then one install+walk
    node(obs, "button", "Details")


def test_a_renderer_that_dies_during_a_walk_ends_it_at_once(walker_session, pages_server) -> None:  # type: ignore[no-untyped-def]
    """The renderer of a page walked before dies while the next walk waits for its busy main
    thread: the crash event ends the call in flight (a call into a dead renderer never answers;
    before, only the watchdog ended it, at the deadline)."""
    import os
    import signal
    import threading
    import time
    from pathlib import Path

    from pagelens.browser.watchdog import descendants
    from pagelens.errors import PagelensError

    with walker_session.episode() as ep:
        ep.goto(pages_server.url("walker.html"))
        ep.observe()
        renderers = [p for p in descendants(walker_session.chromium_pids())
                     if b"--type=renderer" in Path(f"/proc/{p}/cmdline").read_bytes()]
        ep.page.evaluate("() => { setTimeout(() => { const t = Date.now(); while (Date.now() - t < 20000); }, 0); }")
        ep.page.wait_for_timeout(100)  # the page's main thread is now busy for 20 s

        def kill() -> None:
            time.sleep(0.5)
            for pid in renderers:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

        threading.Thread(target=kill, daemon=True).start()
        t = time.monotonic()
        with pytest.raises(PagelensError, match="(?i)crash"):
            ep.observe(timeout_s=30)
        assert time.monotonic() - t < 10
    walker_session.ensure_alive()


def _garbage_page(tmp_path, monkeypatch) -> list[object]:  # type: ignore[no-untyped-def]
    """garbage.html in ``tmp_path`` (300 links, and an array the page dropped, held only by a WeakRef,
    which only a full collection clears); the sessions the walker asks for a collection through."""
    from pagelens.browser import walker

    (tmp_path / "garbage.html").write_text(
        "<body><ul>" + "".join(f"<li><a href='#{i}'>item {i}</a></li>" for i in range(300)) + "</ul>"
        "<script>window.dropped = new WeakRef(new Array(400000).fill(7));</script></body>")
    asked: list[object] = []
    real = walker._collect_page_garbage
    monkeypatch.setattr(walker, "_collect_page_garbage", lambda cdp: (asked.append(cdp), real(cdp)))
    return asked


@pytest.mark.parametrize("long_result", [True, False])
def test_a_long_walk_is_followed_by_a_garbage_collection_in_the_page(walker_session, tmp_path, monkeypatch,
                                                                      long_result) -> None:  # type: ignore[no-untyped-def]
    """A walk whose result is longer than PURGE_CHARS asks the renderer for a collection, without
    waiting for it, after its first slice (before the rest is read) and after the last; a short one
    does not. The collection runs: an array the page dropped (held only by a WeakRef, which only a
    full collection clears) is gone by the page's next call, and the result read after it is whole."""
    from pagelens.browser import walker
    from pagelens.browser.serve import StaticServer

    asked = _garbage_page(tmp_path, monkeypatch)
    monkeypatch.setattr(walker, "CHUNK", 4096)
    monkeypatch.setattr(walker, "PURGE_CHARS", 8192 if long_result else 10**9)
    with StaticServer(tmp_path) as server, walker_session.episode() as ep:
        ep.goto(server.url("garbage.html"))
        ep.page.wait_for_timeout(50)  # (a WeakRef's target is kept until the task that made it ends)
        obs = ep.observe()
        assert len(obs.nodes) > 600
        collected = ep.page.evaluate("() => window.dropped.deref() === undefined")
    assert len(asked) == (2 if long_result else 0)
    assert [n for n in obs.nodes if n.role == "link"][-1].name == "item 299"
    if long_result:
        assert collected
    assert walker.FREED_HEAP.due is long_result  # the next observation returns Python's freed heap
    walker.FREED_HEAP.release()
    assert not walker.FREED_HEAP.due


def test_the_walk_is_not_held_after_the_observation(walker_session, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Playwright keeps the Python stack of its last call until its next one: the observation's
    parsed walk and the slices its result was read in are emptied before ``observe()`` returns, so
    nothing of them is held while the caller focuses the tree (no further call into the page)."""
    import gc

    from pagelens.browser import walker
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.walker_columns import Walk

    (tmp_path / "long.html").write_text(
        "<body><ul>" + "".join(f"<li><a href='#{i}'>item {i}</a></li>" for i in range(300)) + "</ul></body>")
    monkeypatch.setattr(walker, "CHUNK", 4096)  # (read in slices)
    with StaticServer(tmp_path) as server, walker_session.episode() as ep:
        ep.goto(server.url("long.html"))
        obs = ep.observe()
        gc.collect()
        walks = sum(type(o) is Walk for o in gc.get_objects())  # type(): no __class__ property read
        slices = sum(1 for o in gc.get_objects()
                     if type(o) is list and len(o) >= 2 and all(isinstance(x, bytes) and len(x) >= 4096 for x in o[:-1]))
        assert [n for n in obs.nodes if n.role == "link"][-1].name == "item 299"
    assert (walks, slices) == (0, 0)


@pytest.mark.parametrize("collect_above", [100, 10**6])
def test_a_huge_document_is_collected_before_its_first_walk(walker_session, tmp_path, monkeypatch,
                                                            collect_above) -> None:  # type: ignore[no-untyped-def]
    """The first walk of a document of more than COLLECT_ABOVE elements has the renderer collect
    its garbage first, and waits for it: an array the page dropped is gone although no collection
    follows this short walk; once per document (the next observation of it does not ask again, a reloaded
    document does). The observation is the one made without the collection; a smaller document is
    walked at once."""
    from pagelens.browser import walker
    from pagelens.browser.serve import StaticServer

    (tmp_path / "garbage.html").write_text(
        "<body><ul>" + "".join(f"<li><a href='#{i}'>item {i}</a></li>" for i in range(300)) + "</ul>"
        "<script>window.dropped = new WeakRef(new Array(400000).fill(7));</script></body>")
    asked: list[object] = []
    real = walker.WalkerObserver._collect
    monkeypatch.setattr(walker.WalkerObserver, "_collect", lambda self, cdp: (asked.append(cdp), real(self, cdp)))
    monkeypatch.setattr(walker, "PURGE_CHARS", 10**9)  # (no collection after the walk)
    rows = []
    huge = collect_above < 600  # (the page has ~600 elements)
    with StaticServer(tmp_path) as server:
        for above in (collect_above, 0):
            monkeypatch.setattr(walker, "COLLECT_ABOVE", above)
            with walker_session.episode() as ep:
                ep.goto(server.url("garbage.html"))
                ep.page.wait_for_timeout(50)  # (a WeakRef's target is kept until the task that made it ends)
                obs = ep.observe()
                rows.append([(n.role, n.name, n.parent, n.depth, n.eid, n.ref and n.ref.split(":")[1]) for n in obs.nodes])
                if above:
                    collected = ep.page.evaluate("() => window.dropped.deref() === undefined")
                    assert len(asked) == huge
                    if huge:
                        assert collected
                    ep.observe()  # the same document again: no second collection
                    assert len(asked) == huge
                    ep.page.reload()
                    ep.observe()  # a new document: counted again
                    assert len(asked) == 2 * huge
    assert rows[0] == rows[1] and len(rows[0]) > 600


def test_the_collection_is_asked_for_through_either_private_send() -> None:
    """Playwright 1.44's no-reply send takes (method, params); later ones (method,
    timeout_calculator, params): both get the CDP command; a driver without one is skipped."""
    from types import SimpleNamespace

    from pagelens.browser.walker import _collect_page_garbage

    got: list[tuple[object, ...]] = []

    def old(method, params=None):  # type: ignore[no-untyped-def]
        got.append((method, params))

    def new(method, timeout_calculator, params=None, is_internal=False):  # type: ignore[no-untyped-def]
        got.append((method, timeout_calculator, params))

    for send in (old, new):
        _collect_page_garbage(SimpleNamespace(_impl_obj=SimpleNamespace(_channel=SimpleNamespace(send_no_reply=send))))
    _collect_page_garbage(SimpleNamespace())  # type: ignore[arg-type]
    command = {"method": "HeapProfiler.collectGarbage", "params": {}}
    assert got == [("send", command), ("send", None, command)]
