"""Overlays of any layout (issue 10, h9): the walker reports out-of-flow boxes, provenance judges which are overlays.

The walker's own overlay mark needs a fixed box, or an absolute one that is opaque and raised, mostly in view.
These pop-ups have none of that — sticky without a role, absolute deep in the main content with no z-index and
no background, inside a shadow root, inside a same-origin iframe — and are overlays all the same; a carousel's
absolutely positioned slides and a sticky navigation bar are not.
"""

from __future__ import annotations

import pytest

from pagelens.observe.render import render

pytestmark = pytest.mark.browser

_FILL = "".join(f"<p>Shelf paragraph {i} about oak boards and how the shop cuts them.</p>" for i in range(12))
_PAGE = f"""<!doctype html><html><body style="margin:0">
<nav style="position:sticky;top:0;height:70px;background:#eee"><a href="/">Home link</a> <a href="/b">Boards link</a></nav>
<main><h1>Oak boards</h1>{_FILL}
<div style="position:sticky;top:8px;width:420px;height:120px;border:1px solid #999">
  <h2>Sticky heading</h2><p>Sticky box sentence without any role.</p><button>Got it</button></div>
<section style="position:relative">
  <div style="position:absolute;top:600px;left:10px;width:400px;height:110px;border:1px solid #999">
    <p>Deep absolute box sentence, transparent and not raised.</p><button>Later</button><button>No</button></div>
</section>
<div id="host" style="position:absolute;top:40px;left:40px;width:380px;height:100px"></div>
<script>document.getElementById("host").attachShadow({{mode:"open"}}).innerHTML =
  "<p>Shadow box sentence.</p><a href='#x'>Fine</a><a href='#y'>Never</a>";</script>
<iframe style="position:absolute;top:200px;left:300px;width:400px;height:140px"
  srcdoc="<p>Framed box sentence.</p><button>Okay</button>"></iframe>
<div style="position:relative;height:200px">
  <div style="position:absolute;left:0;top:0;width:300px;height:150px"><p>Slide one sentence.</p></div>
  <div style="position:absolute;left:320px;top:0;width:300px;height:150px"><p>Slide two sentence.</p></div>
</div>
<p>Plain closing paragraph.</p>
</main></body></html>"""


def _line(lines, needle: str):  # type: ignore[no-untyped-def]
    hits = [ln for ln in lines if needle in ln.name]
    assert hits, needle
    return hits[0]


def test_out_of_flow_boxes_are_reported_and_judged(episode, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.serve import StaticServer

    (tmp_path / "floating.html").write_text(_PAGE)
    with StaticServer(tmp_path) as server:
        episode.goto(server.url("floating.html"))
        episode.page.wait_for_timeout(100)
        obs = episode.observe()
    lines = render(obs).lines
    pops = ("Sticky box sentence", "Deep absolute box sentence", "Shadow box sentence", "Framed box sentence")
    boxes = set()
    for needle in pops:
        ln = _line(lines, needle)
        node = obs.nodes[ln.node]
        assert node.floating, needle  # the walker's fact: inside an out-of-flow box
        assert not node.overlay, needle  # ... that its layout-only overlay mark misses
        assert ln.region in ("overlay", "unseen"), needle  # unseen: text's own concealment still wins
        boxes.add(node.floating)
    assert len(boxes) == len(pops)  # one box each
    # a series of floating boxes under one parent is a layout (a carousel), not a pop-up
    for needle in ("Slide one sentence", "Slide two sentence"):
        ln = _line(lines, needle)
        assert obs.nodes[ln.node].floating and ln.region == "main", needle
    # a sticky navigation bar is the site's chrome; text in the flow has no box
    assert _line(lines, "Home link").region == "chrome"
    plain = _line(lines, "Plain closing paragraph")
    assert plain.region == "main" and obs.nodes[plain.node].floating == 0
    # a pop-up's control stays in the overlay too (it is kept when the text is redacted)
    for control in ("Got it", "Later", "Fine", "Okay"):
        assert [ln.region for ln in lines if ln.eid is not None and ln.name == control] == ["overlay"], control
