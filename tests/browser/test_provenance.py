"""Provenance on real Chromium: every rendered line carries the region its text comes from."""

from __future__ import annotations

import pytest

from pagelens.observe.render import render

pytestmark = pytest.mark.browser


def _region(lines, needle: str, role: str | None = None) -> str:  # type: ignore[no-untyped-def]
    hits = [ln for ln in lines if needle in ln.name and (role is None or ln.role == role)]
    assert hits, needle
    return hits[0].region


def test_regions_of_a_page(episode, pages_server) -> None:  # type: ignore[no-untyped-def]
    episode.goto(pages_server.url("provenance.html"))
    obs = episode.observe()
    lines = render(obs).lines
    text = render(obs).text()
    assert _region(lines, "Home of the desk shop") == "chrome"
    assert _region(lines, "Chairs") == "chrome"
    assert _region(lines, "Contact the desk shop") == "chrome"
    assert _region(lines, "Solid walnut") == "main"
    # text a sighted user does not see: clipped, off-screen, same colour, transparent
    for hidden in ("Text for screen readers only", "Text pushed off the screen", "White text on white ground",
                   "Fully transparent text"):
        assert _region(lines, hidden) == "unseen", (hidden, text)
    # an aria-label mostly absent from the button's visible text; an image's alternative text
    assert _region(lines, "never tell anyone", "button") == "unseen"
    assert _region(lines, "A photo of the desk") == "unseen"
    # repeated articles with an author, a date and a rating are user content
    assert _region(lines, "Sturdy desk.") == "user"
    assert _region(lines, "Arrived late.") == "user"
    # a dialog the page opened
    assert _region(lines, "Join our list") == "overlay"
    assert _region(lines, "Close", "button") == "overlay"
    nodes = {n.name: n for n in obs.nodes if n.role == "StaticText"}
    assert nodes["Solid walnut, 120 cm wide."].concealed == ""


def test_text_under_an_overlay_is_marked_covered(episode, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.serve import StaticServer

    (tmp_path / "covered.html").write_text(
        "<body style='margin:0'><p>Plain paragraph under the sheet</p><p>Second line under the sheet</p>"
        "<div style='position:fixed;top:0;left:0;width:100%;height:300px;background:#fff;z-index:9'>"
        "<p>The sheet on top</p><button>Dismiss</button></div>"
        "<div style='height:2000px'></div><p style='margin-top:0'>Far below, not covered</p></body>")
    with StaticServer(tmp_path) as server:
        episode.goto(server.url("covered.html"))
        obs = episode.observe()
    texts = {n.name: n.concealed for n in obs.nodes if n.role == "StaticText"}
    assert texts["Plain paragraph under the sheet"] == "covered"
    assert texts["Second line under the sheet"] == "covered"
    assert texts["The sheet on top"] == "" and texts["Far below, not covered"] == ""
    lines = render(obs).lines
    assert _region(lines, "Plain paragraph under the sheet") == "unseen"
    assert _region(lines, "The sheet on top") != "unseen"


_OVERLAY_PAGE = (
    "<body style='margin:0'><header><nav style='position:fixed;top:0;width:100%;height:60px;background:#fff'>"
    "<a href='/'>Home link</a></nav></header><main style='margin-top:80px'><p>Price of the lamp: 40 EUR</p>"
    "<p style='font-size:0'>Zero font sentence</p>"
    "<div style='font-size:0'><span style='font-size:15px;display:inline-block'>Inline block sentence</span></div>"
    "<p style='text-indent:-9999px'>Indented away sentence</p>"
    "<div style='clip-path:inset(50%);position:absolute;width:300px;height:40px'>Clipped path sentence</div></main>"
    "<div style='position:fixed;inset:0;background:rgba(0,0,0,.5);z-index:900'>"
    "<div style='margin:150px auto;width:400px;background:#fff;padding:10px'><header><h2>Pop-up title</h2></header>"
    "<p>Pop-up sentence</p>"
    "<button>Dismiss</button></div></div></body>")


@pytest.mark.parametrize("extraction", ["walker", "cdp"])
def test_an_overlay_without_a_dialog_role_and_css_hidden_text(tmp_path, extraction: str) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig

    (tmp_path / "overlay.html").write_text(_OVERLAY_PAGE)
    with StaticServer(tmp_path) as server, BrowserSession(BrowserConfig(extraction=extraction)) as session, \
            session.episode() as episode:
        episode.goto(server.url("overlay.html"))
        obs = episode.observe()
    lines = render(obs).lines
    assert _region(lines, "Pop-up sentence") == "overlay"
    assert _region(lines, "Dismiss", "button") == "overlay"
    assert _region(lines, "Home link") == "chrome"  # a fixed navigation bar is the site's own chrome
    assert _region(lines, "Price of the lamp") == "main"
    for hidden in ("Zero font sentence", "Indented away sentence", "Clipped path sentence"):
        assert _region(lines, hidden) == "unseen", (extraction, hidden)
    assert _region(lines, "Inline block sentence") == "main"  # a child that sets its own font size is seen
