"""Observation extraction on real Chromium, pages served from 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from pagelens.errors import PageNotHTML, PageTimeout, PageUnreachable
from pagelens.observe.render import render

pytestmark = pytest.mark.browser


def _lines(obs):  # type: ignore[no-untyped-def]
    return render(obs).lines


def test_frames_shadow_dom_and_readable_names(episode, pages_server) -> None:  # type: ignore[no-untyped-def]
    episode.goto(pages_server.url("frames.html"))
    episode.page.wait_for_function("document.getElementById('xo').contentDocument === null || true")
    episode.page.frame_locator("#xo").get_by_role("button", name="Inner button").wait_for()
    obs = episode.observe()
    text = render(obs).text()
    # same-origin and cross-origin (localhost vs 127.0.0.1: another renderer) iframes merged in place
    assert text.count("button 'Inner button'") == 2, text
    assert text.count("textbox 'Inner field' value='hello'") == 2
    lines = _lines(obs)
    iframe_lines = [ln for ln in lines if ln.role == "Iframe"]
    assert len(iframe_lines) == 2
    inner = [ln for ln in lines if ln.name == "Inner button"]
    assert all(ln.depth > iframe_lines[0].depth for ln in inner)
    # shadow DOM content is part of the tree
    assert "button 'Shadow button'" in text
    # names are readable: a non-breaking space is a space
    assert "heading 'Outer page'" in text and "StaticText '38 comments'" in text
    assert "\\xa0" not in text
    # display:none content is not in the tree; InlineTextBox noise is dropped
    assert "Hidden button" not in text and "InlineTextBox" not in text
    # clickable generic containers are kept and tagged
    assert any(ln.role == "generic" and "clickable" in ln.text for ln in lines)
    # inline data: URLs are shortened
    assert "base64" not in text and "data:text/plain,…" in text
    assert not obs.frame_errors


def test_ids_stable_across_unrelated_dom_changes(episode, pages_server) -> None:  # type: ignore[no-untyped-def]
    episode.goto(pages_server.url("dynamic.html"))
    before = {n.name: n.eid for n in episode.observe().nodes if n.role == "button"}
    episode.page.evaluate(
        "document.body.insertAdjacentHTML('afterbegin', '<nav><button>Inserted</button></nav>');"
        "document.querySelector('#list li').remove();"
        "document.getElementById('status').textContent = 'changed';"
    )
    after = {n.name: n.eid for n in episode.observe().nodes if n.role == "button"}
    assert after["Second"] == before["Second"] and after["Third"] == before["Third"]
    assert "First" not in after
    assert after["Inserted"] not in before.values()  # a new element never reuses an id


def test_unreachable_404_and_non_html(episode, tricky_server) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PageUnreachable, match="HTTP 404"):
        episode.goto(tricky_server + "/missing")
    with pytest.raises(PageUnreachable, match="HTTP 500"):
        episode.goto(tricky_server + "/error")
    with pytest.raises(PageNotHTML, match="application/pdf"):
        episode.goto(tricky_server + "/pdf")
    with pytest.raises(PageNotHTML, match="application/json"):
        episode.goto(tricky_server + "/json")
    with pytest.raises(PageUnreachable):
        episode.goto("http://127.0.0.1:9/")  # nothing listens there
    with pytest.raises(PageUnreachable, match="only 127.0.0.1"):
        episode.goto("https://example.com/")


def test_page_that_never_finishes_loading_is_still_observed(browser_session, tricky_server) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig

    with BrowserSession(BrowserConfig(navigation_timeout_s=2)) as session, session.episode() as ep:
        t = time.perf_counter()
        info = ep.goto(tricky_server + "/slow-asset")
        assert info["load_timeout"] is True
        assert time.perf_counter() - t < 10
        text = render(ep.observe()).text()
        assert "button 'Usable'" in text


def test_busy_main_thread_times_out_instead_of_hanging(tricky_server) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig

    with BrowserSession(BrowserConfig(navigation_timeout_s=3, extract_timeout_s=2)) as session:
        ep = session.episode()
        ep.goto(tricky_server + "/busy")
        time.sleep(0.5)
        t = time.perf_counter()
        with pytest.raises(PageTimeout):
            ep.observe()
        assert time.perf_counter() - t < 15


def test_broken_encoding_is_observed(episode, tricky_server) -> None:  # type: ignore[no-untyped-def]
    episode.goto(tricky_server + "/latin1")
    text = render(episode.observe()).text()
    assert "button 'Bestellen'" in text


def test_no_orphan_chromium_after_close() -> None:
    from pagelens.browser.session import BrowserSession

    def alive(pid: int) -> bool:
        stat = Path(f"/proc/{pid}/stat")
        try:
            return " Z " not in stat.read_text()
        except OSError:
            return False

    before = set(_all_chromium())
    session = BrowserSession().start()
    pids = [p for p in session.chromium_pids() if p not in before]
    assert pids, "the session's Chromium process was not found"
    assert set(pids) <= set(_all_chromium())
    ep = session.episode()
    ep.goto("about:blank")
    session.close()
    deadline = time.time() + 10
    while time.time() < deadline and any(alive(p) for p in pids):
        time.sleep(0.1)
    assert not [p for p in pids if alive(p)], "Chromium still running after close"


def _all_chromium() -> list[int]:
    out = []
    for d in Path("/proc").glob("[0-9]*"):
        try:
            cmd = (d / "cmdline").read_bytes()
        except OSError:
            continue
        if b"chrom" in cmd and b"--remote-debugging-pipe" in cmd:
            out.append(int(d.name))
    return out


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pagelens.cli", *args], capture_output=True, text=True, timeout=120)


def test_cli_observe_text_json_and_errors(tmp_path: Path, tricky_server) -> None:  # type: ignore[no-untyped-def]
    import json

    page = Path(__file__).parent / "pages" / "dynamic.html"
    out = _cli("observe", str(page))
    assert out.returncode == 0, out.stderr
    assert "[" in out.stdout and "button 'Second'" in out.stdout
    out = _cli("observe", str(page), "--format", "json")
    data = json.loads(out.stdout)
    assert data["retriever"] == "full" and data["tokens"]["full"] > 0
    assert any(line["role"] == "button" and line["id"] for line in data["lines"])
    assert {"extract", "goto", "render"} <= set(data["timings_ms"])
    for bad in (tricky_server + "/missing", str(tmp_path / "nope.html"), "http://127.0.0.1:9/"):
        res = _cli("observe", bad)
        assert res.returncode == 1
        assert res.stderr.startswith("error: ") and len(res.stderr.strip().splitlines()) == 1, res.stderr
        assert "Traceback" not in res.stderr


def test_huge_page_is_observed(browser_session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.serve import serve_file

    rows = "".join(f"<li><a href='#i{i}'>Item {i}</a> <button>Buy {i}</button></li>" for i in range(5000))
    page = tmp_path / "big.html"
    page.write_text(f"<html><body><h1>Big</h1><ul>{rows}</ul></body></html>")
    with serve_file(page) as url, browser_session.episode() as ep:
        ep.goto(url)
        obs = ep.observe(timeout_s=600)  # the CDP reference path needs tens of seconds on a loaded machine
    lines = render(obs).lines
    assert sum(1 for ln in lines if ln.role == "button") == 5000
    assert lines[-1].name.startswith("Buy 4999") or any(ln.name == "Buy 4999" for ln in lines[-5:])


def test_external_requests_are_blocked_and_error_frames_dropped(episode, pages_server) -> None:  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    episode.goto(pages_server.url("external.html"))
    assert time.perf_counter() - t < 15  # refused at once, never waited on
    obs = episode.observe()
    text = render(obs).text()
    assert "button 'Local button'" in text
    # the blocked iframe shows no Chromium error page as if it were content
    assert "chrome-error" not in text and "proxy" not in text.lower()
    assert any("failed to load" in reason for reason in obs.frame_errors.values())


def test_an_episode_starts_no_browser_ui_renderer(browser_session, pages_server) -> None:  # type: ignore[no-untyped-def]
    # Chromium 15x builds each new window's omnibox pop-up as a WebUI page in a renderer of its
    # own (~55 MB PSS, ~420 ms of CPU competing with the page's load and first observation)
    with browser_session.episode() as ep:
        ep.goto(pages_server.url("frames.html"))
        cdp = browser_session.browser.new_browser_cdp_session()
        try:
            targets = cdp.send("Target.getTargets", {"filter": [{}]})["targetInfos"]  # every kind
        finally:
            cdp.detach()
    kinds = {t["type"] for t in targets}
    assert "page" in kinds
    assert not [t["url"] for t in targets if t["type"] == "browser_ui" or t["url"].startswith("chrome://")]
