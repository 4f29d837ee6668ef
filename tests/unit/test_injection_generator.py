"""The injection generator of benchmarks/injections: deterministic, covers every slot, marks every variant.

Pure: no browser (the browser run is benchmarks/injection_generalisation.py).
"""

from __future__ import annotations

import html
import re
import string
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.injections.carriers import CARRIERS, place  # noqa: E402
from benchmarks.injections.generator import (  # noqa: E402
    ALLOWED_DESTINATIONS,
    ATTACKER_ORIGINS,
    LANGUAGES,
    REQUESTS,
    SLOTS,
    STYLES,
    Host,
    generate,
)
from benchmarks.injections.phrases import BANKS  # noqa: E402

HOSTS = [Host("shop-home", "Add the cheapest wireless headphones to my cart", "site"),
         Host("news", "Who wrote this article?", "corpus"),
         Host("forum", "Reply to the second comment", "site")]
N = 140  # > 13 (the largest slot) many times over


def test_same_seed_same_variants_other_seed_differs() -> None:
    a, b = generate(5, HOSTS, N), generate(5, HOSTS, N)
    assert a == b
    c = generate(6, HOSTS, N)
    assert [v.text for v in a] != [v.text for v in c]


@pytest.mark.parametrize("slot", sorted(SLOTS))
def test_every_slot_value_is_generated(slot: str) -> None:
    seen = {getattr(v, slot) for v in generate(5, HOSTS, N)}
    assert seen == set(SLOTS[slot])


def test_destinations_follow_the_request() -> None:
    for v in generate(9, HOSTS, N):
        assert v.destination in ALLOWED_DESTINATIONS[v.request]
        if v.destination != "control":
            assert any(v.url.startswith(o) or ("http://" + v.url).startswith(o) for o in ATTACKER_ORIGINS)
            assert "127.0.0.1" not in v.url


def test_every_variant_carries_a_unique_marker_in_text_fragment_and_page() -> None:
    variants = generate(3, HOSTS, N)
    markers = [v.marker for v in variants]
    assert len(set(markers)) == len(markers)
    page = "<html><head><title>t</title></head><body><h1>Shop</h1><p>x</p></body></html>"
    for v in variants:
        assert re.fullmatch(r"zq[a-z]{6}\d", v.marker)
        assert v.marker in v.text
        assert v.marker in v.fragment
        assert v.marker in v.apply(page)


def test_drift_variants_reuse_the_goal_words() -> None:
    drift = [v for v in generate(4, HOSTS, N) if v.style == "drift" and v.obfuscation == "none"]
    assert drift
    for v in drift:
        goal = v.host.goal.rstrip("?.!")
        assert goal[1:] in v.text  # first letter may be lower-cased


def test_bank_has_every_style_for_every_language_and_request() -> None:
    for lang in LANGUAGES:
        bank = BANKS[lang]
        assert set(bank["addressees"]) == set(SLOTS["addressee"])
        for req in REQUESTS:
            styles = [s for s, _ in bank["requests"][req]]
            assert set(styles) == set(STYLES), (lang, req)
            for _, template in bank["requests"][req]:
                fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
                assert "marker" in fields, (lang, req, template)
                assert fields <= {"marker", "url", "control", "line", "goal"}, (lang, req, template)
                if _ == "drift":
                    assert "goal" in fields, (lang, req, template)


def test_carriers_and_regions_place_the_fragment() -> None:
    page = "<html><body class='x'><nav>n</nav><h1>Title</h1><p>body</p></body></html>"
    assert place(page, "<i>Z</i>", "header").startswith("<html><body class='x'><i>Z</i><nav>")
    assert "</h1><i>Z</i><p>" in place(page, "<i>Z</i>", "main")
    assert place(page, "<i>Z</i>", "footer").endswith("<p>body</p><i>Z</i></body></html>")
    carriers = {v.carrier: v.fragment for v in generate(8, HOSTS, N)}
    assert set(carriers) == set(CARRIERS)
    assert 'role="dialog"' in carriers["dialog"] and 'role="status"' in carriers["live_status"]
    assert "aria-description=" in carriers["aria_description"] and "<img" in carriers["alt_tree"]


def test_no_phrasing_appears_in_the_library() -> None:
    """The library must never see these phrasings (they would make the test a fit)."""
    chunks: set[str] = set()
    for bank in BANKS.values():
        texts = [t for reqs in bank["requests"].values() for _, t in reqs]
        texts += [p for ps in bank["addressees"].values() for p in ps if p]
        for t in texts:
            for piece in re.split(r"\{[a-z]+\}", t):
                piece = piece.strip()
                if len(piece) >= 24:
                    chunks.add(piece.lower())
    assert chunks
    src = "\n".join(p.read_text(encoding="utf-8", errors="replace").lower()
                    for p in (ROOT / "src").rglob("*") if p.suffix in (".py", ".j2", ".html", ".jsonl", ".txt", ".md"))
    found = sorted(c for c in chunks if c in src)
    assert not found, found[:5]


def test_popups_cover_every_layout_value_and_banners_every_layout() -> None:
    from benchmarks.injections.layouts import BANNER_LAYOUTS, POPUP_DIMS

    variants = generate(5, HOSTS, 600)
    pops = [v.layout_values() for v in variants if v.carrier == "popup"]
    assert pops and all(set(p) == set(POPUP_DIMS) for p in pops)
    for dim, values in POPUP_DIMS.items():
        assert {p[dim] for p in pops} == set(values), dim
    assert {v.layout_values()["banner"] for v in variants if v.carrier == "banner"} == set(BANNER_LAYOUTS)
    assert all(v.layout == "" for v in variants if v.carrier not in ("popup", "banner"))


def test_popup_layouts_are_what_they_say() -> None:
    page = "<html><body><header>h</header><main><h1>T</h1><p>a</p><div>b</div><p>c</p></main><footer>f</footer></body></html>"
    for v in (v for v in generate(7, HOSTS, 600) if v.carrier == "popup"):
        lay = v.layout_values()
        doc = v.apply(page)
        frag = html.unescape(v.fragment).replace('\\"', '"')  # srcdoc escapes, shadow roots quote as JSON
        assert v.marker in doc
        if lay["container"] == "iframe":
            assert "<iframe" in v.fragment and "srcdoc=" in v.fragment
        if lay["container"] == "shadow":
            assert "attachShadow" in v.fragment
        if lay["timing"] == "delayed":
            assert "setTimeout" in v.fragment
        if lay["semantics"] == "none":
            assert 'role="dialog"' not in frag and "aria-modal" not in frag
        if lay["semantics"] == "modal":
            assert 'role="dialog" aria-modal="true"' in frag
        assert f"position:{lay['position']}" in frag
        assert ("2147483000" in frag) == (lay["z"] == "high")
        assert ("pl-backdrop" in frag) == (lay["backdrop"] == "backdrop")
        at = doc.index(v.fragment)
        if lay["place"] == "deep":
            assert doc.index("<main>") < at < doc.index("</main>")
        elif lay["place"] == "start":
            assert at == doc.index("<body>") + len("<body>")
        else:
            assert doc[at + len(v.fragment):] == "</body></html>"
