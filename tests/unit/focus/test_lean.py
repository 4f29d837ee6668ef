"""A lean view (:mod:`pagelens.focus.lean`): the same lines, ids and recovery, its structural lines shorter."""

from __future__ import annotations

import pytest

from pagelens import tokens
from pagelens.errors import ConfigError
from pagelens.focus.apply import focus, renumbered
from pagelens.focus.base import FocusQuery, Selection
from pagelens.focus.lean import parts
from pagelens.focus.recover import expand
from pagelens.focus.rules import RulesConfig
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Rendering

TREE = "\n".join([
    "RootWebArea 'Shop', focused",
    "\t[1] navigation 'Main'",
    *[f"\t\t[{10 + i}] link 'Category {i}'" for i in range(30)],
    "\t[2] main ''",
    "\t\t[3] region 'Our very best headphones of the whole season, on sale'",
    "\t\t\t[4] article ''",
    "\t\t\t\t[5] link 'Aurora Wireless'",
    "\t\t\t\tStaticText '$49.99'",
    "\t\t\t\t[6] button 'Add to cart'",
    *[f"\t\tStaticText 'Filler paragraph number {i} about nothing in particular'" for i in range(30)],
])


class Pick:
    name = "pick"

    def __init__(self, keep: set[int], lean: str = "") -> None:
        self.keep, self.lean = keep, lean

    def select(self, query: FocusQuery, rendering: Rendering) -> Selection:
        return Selection(keep=frozenset(self.keep), lean=self.lean)


def _no(r: Rendering, fragment: str) -> int:
    return next(ln.no for ln in r.lines if fragment in ln.text)


def test_parts() -> None:
    assert parts("") == frozenset() and parts("ph+anc") == {"ph", "anc"} and parts("ph") == {"ph"}
    with pytest.raises(ConfigError):
        parts("ph+tabs")


def test_lean_view_same_lines_ids_and_recovery_fewer_tokens() -> None:
    r = rendering_from_text(TREE)
    keep = {_no(r, "Add to cart")}
    plain = focus(r, "buy", Pick(keep), defense=False)
    lean = focus(r, "buy", Pick(keep, "ph+anc"), defense=False)
    # the same lines shown, the same placeholder ids standing for the same lines
    assert lean.kept == plain.kept and lean.placeholders == plain.placeholders
    assert [ol.no for ol in lean.lines] == [ol.no for ol in plain.lines]
    assert [ol.depth for ol in lean.lines] == [ol.depth for ol in plain.lines]
    text = lean.text()
    assert "\t[p1] …31\n\t[2] main" in text and "lines pruned" not in text
    assert "\t\t\t[4] article\n" in text  # an unnamed ancestor: no ''
    assert "\t\t[3] region 'Our very best…'" in text  # a named one: three words
    assert "\t\t\t\t[6] button 'Add to cart'" in text  # a chosen line as it is
    assert lean.focused_tokens < plain.focused_tokens
    # expand brings back the same lines from either view
    for pid in plain.placeholders:
        assert expand(r, lean, pid).text() == expand(r, plain, pid).text()


def test_focus_override_and_renumbering() -> None:
    r = rendering_from_text(TREE)
    keep = {_no(r, "Add to cart")}
    assert "lines pruned" in focus(r, "buy", Pick(keep, "ph"), defense=False, lean="").text()
    assert "[p1] …31" in focus(r, "buy", Pick(keep), defense=False, lean="ph").text()
    ph = next(ol for ol in focus(r, "buy", Pick(keep, "ph"), defense=False).lines if ol.pid == "p1")
    assert renumbered(ph, "p9").text == "[p9] …31" and renumbered(ph, "p9").pid == "p9"


def test_default_asks_for_its_configured_lean_view() -> None:
    from pagelens.focus.rules import RulesRetriever

    r = rendering_from_text(TREE)
    # shipped (BENCHMARKS.md, 25th pass; terse and nest since the 37th)
    assert RulesConfig().lean_view == "ph+anc+terse+nest" and RulesConfig().budget == 0.30
    cfg = RulesConfig(small_page_tokens=0, floor_tokens=1, budget=0.05, lean_view="")
    assert "lines pruned" in focus(r, "add the Aurora to the cart", RulesRetriever(cfg), defense=False).text()
    res = focus(r, "add the Aurora to the cart", RulesRetriever(RulesConfig(small_page_tokens=0, floor_tokens=1,
                                                                        budget=0.05, lean_view="ph")), defense=False)
    assert "lines pruned" not in res.text() and "…" in res.text()
    assert tokens.count(res.text()) == res.focused_tokens


def test_sticky_pruning_keeps_a_lean_view_lean() -> None:
    from pagelens.focus.delta.sticky import _pruned

    r = rendering_from_text(TREE)
    keep = {_no(r, "Add to cart"), _no(r, "Aurora Wireless")}
    for lean, want in (("ph", "[p2] …"), ("", " pruned ...")):
        res = focus(r, "buy", Pick(keep, lean), defense=False)
        out = _pruned(res.lines, {_no(r, "Aurora Wireless")})
        assert any(ol.pid == "p2" and want in ol.text for ol in out), [ol.text for ol in out]
