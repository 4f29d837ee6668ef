"""The browser seam on real Chromium: ``episode.tab`` turns every Playwright error into a project error."""

from __future__ import annotations

import pytest

from pagelens.actions.executor import Executor
from pagelens.actions.spec import Action
from pagelens.browser.session import BrowserSession
from pagelens.errors import (
    ActionError,
    ActionInterrupted,
    BrowserCrashed,
    ElementGone,
    PageClosed,
    PageTimeout,
)
from pagelens.types import Node, Observation
from tests.browser._threaded import within

pytestmark = pytest.mark.browser


def _node(obs: Observation, role: str, name: str) -> Node:
    return next(n for n in obs.nodes if n.eid is not None and n.role == role and n.name.startswith(name))


@pytest.fixture()
def main(episode, pages_server):  # type: ignore[no-untyped-def]
    episode.goto(pages_server.url("actions_main.html"))
    return episode, episode.observe()


def test_an_element_removed_after_resolution_is_element_gone(main) -> None:  # type: ignore[no-untyped-def]
    ep, obs = main
    el = ep.tab.element(_node(obs, "button", "Vanishing"))
    try:
        assert el.tag == "button" and el.frame.is_main
        ep.tab.evaluate("() => document.getElementById('vanish').remove()")
        with pytest.raises(ElementGone, match="was removed from the page before it could be clicked"):
            el.click(timeout_ms=400)
    finally:
        el.release()
    # resolving it again fails at once: its DOM node is gone
    with pytest.raises(ElementGone, match="no longer on the page"):
        ep.tab.element(_node(obs, "button", "Vanishing"))


def test_elements_act_and_read_through_the_seam(main) -> None:  # type: ignore[no-untyped-def]
    ep, obs = main
    counter = ep.tab.element(_node(obs, "button", "Click me"))
    try:
        counter.click(timeout_ms=2000)
        assert counter.text() == "Clicked 1 times"
    finally:
        counter.release()
    ep.tab.css("#size").select_option("Large", by="label")
    assert ep.tab.css("#size").evaluate("(e) => e.value") == "Large"
    ep.tab.by_role("checkbox", "Gift wrap").check()
    assert ep.tab.evaluate("() => document.getElementById('gift').checked") is True
    with pytest.raises(ActionError, match="select_option|not a <select>|Element is not"):
        ep.tab.css("#name").select_option("x", timeout_ms=500)


def test_a_navigation_during_a_script_is_action_interrupted(main, pages_server) -> None:  # type: ignore[no-untyped-def]
    ep, _obs = main
    target = pages_server.url("actions_next.html")
    with pytest.raises(ActionInterrupted, match="the page navigated while this ran"):
        ep.tab.evaluate("(url) => { setTimeout(() => { location.href = url; }, 50); return new Promise(() => {}); }",
                        target)
    for _ in range(50):  # the navigation commits a moment later
        if ep.tab.url == target:
            break
        ep.tab.pause(100)
    assert ep.tab.url == target


def test_a_navigation_during_a_click_fails_with_feedback(main, pages_server) -> None:  # type: ignore[no-untyped-def]
    """The target never stops moving and the page navigates while Playwright's click waits for it to
    be stable: the element's click says it went away, not a driver exception. The executor, which
    has just found the button receiving the pointer at its centre, clicks it at once (as a user
    would: it does nothing)."""
    ep, obs = main
    node = _node(obs, "button", "Does nothing")
    ep.tab.evaluate("() => document.getElementById('noop').animate([{transform: 'translateX(0)'}, "
                    "{transform: 'translateX(40px)'}], {duration: 300, iterations: Infinity})")
    fb = Executor(ep, timeout_s=3.5).execute(Action("click", {"id": str(node.eid)}), obs)
    assert fb.status == "no_change" and fb.ok, fb.message
    ep.tab.evaluate("(url) => { setTimeout(() => { location.href = url; }, 1500); }", pages_server.url("actions_next.html"))
    element = ep.tab.element(node)
    with pytest.raises(ElementGone, match="was removed from the page before it could be clicked"):
        element.click(timeout_ms=3500)


def test_a_closed_page_is_page_closed(browser_session, pages_server) -> None:  # type: ignore[no-untyped-def]
    with browser_session.episode() as ep:
        ep.goto(pages_server.url("actions_main.html"))
        button = ep.tab.css("#counter")
        ep.page.close()  # the test holds the Playwright page; library code never does
        with pytest.raises(PageClosed, match="the page was closed"):
            ep.tab.evaluate("() => 1")
        with pytest.raises(PageClosed, match="open .*the page was closed"):
            ep.tab.goto(pages_server.url("actions_next.html"))
        with pytest.raises(PageClosed):
            button.click(timeout_ms=500)
        assert ep.tab.closed


def test_a_time_budget_is_page_timeout(main) -> None:  # type: ignore[no-untyped-def]
    ep, _obs = main
    with pytest.raises(PageTimeout, match="wait for the page: Timeout 200ms exceeded"):
        ep.tab.wait_for("() => false", timeout_ms=200)


def test_a_bounded_page_script_is_one_call_and_gives_up_on_a_frozen_page(pages_server) -> None:  # type: ignore[no-untyped-def]
    """``evaluate(timeout_ms=...)``: the result of one protocol call (falsy results too), and on a
    page whose main thread loops for ever a PageTimeout after the bound, call after call (the page
    is asked again; nothing waits on the abandoned call). Run on its own thread and browser: a hung
    call fails the test instead of hanging the suite."""
    from pagelens.browser.driving import bounded_supported

    def go() -> list[object]:
        out: list[object] = []
        with BrowserSession() as session:
            ep = session.episode()
            ep.goto(pages_server.url("actions_main.html"))
            assert bounded_supported(ep.page.main_frame)  # (the one-call path, not the wait_for_function fallback)
            out += [ep.tab.evaluate(js, timeout_ms=2000) for js in ("() => null", "() => 0", "() => false", "() => [1]")]
            ep.tab.evaluate("() => { setTimeout(() => { while (true) {} }, 0); }")
            for _ in range(2):
                try:
                    ep.tab.evaluate("() => 1", timeout_ms=300)
                    out.append("answered")
                except PageTimeout as exc:
                    out.append(str(exc))
            session.kill("the test's page froze")
        return out

    out = within(60, go)
    assert out[:4] == [None, 0, False, [1]]
    assert all("did not answer within 0.3 s" in str(o) and "main thread" in str(o) for o in out[4:]), out


def test_a_dead_browser_is_browser_crashed(pages_server) -> None:  # type: ignore[no-untyped-def]
    with BrowserSession() as session, session.episode() as ep:
        ep.goto(pages_server.url("actions_main.html"))
        session.kill("killed by the test")
        with pytest.raises(BrowserCrashed, match="run a page script: killed by the test"):
            ep.tab.evaluate("() => 1")


def test_element_at_reports_the_frame(episode, pages_server) -> None:  # type: ignore[no-untyped-def]
    episode.goto(pages_server.url("actions_main.html"))
    box = episode.tab.css("#counter").evaluate("(e) => { const r = e.getBoundingClientRect(); "
                                               "return [r.left + r.width / 2, r.top + r.height / 2]; }")
    hit = episode.tab.element_at(*box)
    assert hit is not None and hit.frame.is_main and hit.frame_url == ""
    assert hit.role == "button" and hit.clickable and '"Click me"' in hit.description


def test_rewrite_documents_changes_html_documents_only(episode, pages_server) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.serve import inject_after_body

    episode.tab.rewrite_documents(lambda body: inject_after_body(body, '<p id="added">added by the test</p>'))
    episode.goto(pages_server.url("frames.html"))
    texts = [f.evaluate("() => document.getElementById('added')?.textContent ?? null") for f in episode.tab.frames]
    assert texts[0] == "added by the test"
    assert len(texts) > 1 and all(t == "added by the test" for t in texts)  # iframe documents are documents too


def test_screenshot_bytes_png_and_jpeg(episode, pages_server) -> None:  # type: ignore[no-untyped-def]
    episode.goto(pages_server.url("actions_main.html"))
    png = episode.tab.screenshot_bytes()
    jpeg = episode.tab.screenshot_bytes(kind="jpeg", quality=50, full_page=True)
    assert png.startswith(b"\x89PNG") and jpeg.startswith(b"\xff\xd8")


def test_the_launched_chromium_carries_the_launchs_v8_flags(browser_session) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.chromium import JIT_ARGS

    wanted = [f for a in JIT_ARGS for f in a.split("=", 1)[1].split(" ")]
    pids = browser_session.chromium_pids()
    assert pids
    for pid in pids:
        with open(f"/proc/{pid}/cmdline", encoding="utf-8") as fh:
            args = fh.read().split("\0")
        js = [a for a in args if a.startswith("--js-flags=")]
        assert len(js) == 1 and all(f in js[0].split("=", 1)[1].split(" ") for f in wanted), js
