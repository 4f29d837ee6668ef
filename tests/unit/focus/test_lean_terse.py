"""The thirty-seventh pass (BENCHMARKS.md): the view parts ``terse`` content lines and ``nest`` (one space a level) of
:mod:`pagelens.focus.lean` keep the same lines, ids and recovery in fewer tokens; ``RulesConfig.fill_units`` bounds the fill
by the order's first units and leaves every pruned line recoverable."""

from __future__ import annotations

from pagelens import tokens
from pagelens.focus.apply import focus
from pagelens.focus.lean import parts, terse_text
from pagelens.focus.recover import expand
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Rendering
from tests.unit.focus.test_lean import Pick

TREE = "\n".join([
    "RootWebArea 'Shop', focused",
    "\t[1] navigation 'Main'",
    *[f"\t\t[{10 + i}] link 'Category {i}', clickable" for i in range(30)],
    "\t[2] main ''",
    "\t\t[3] region 'Our very best headphones of the whole season, on sale'",
    "\t\t\t[4] article ''",
    "\t\t\t\t[5] link 'Aurora Wireless', clickable",
    "\t\t\t\tStaticText '$49.99'",
    "\t\t\t\t[7] checkbox 'Gift wrap', checked=false",
    "\t\t\t\t[6] button 'Add to cart', clickable",
    *[f"\t\tStaticText 'Filler paragraph number {i} about nothing in particular'" for i in range(30)],
])


def _nos(r: Rendering, *fragments: str) -> set[int]:
    return {ln.no for ln in r.lines if any(f in ln.text for f in fragments)}


def test_parts_and_terse_text() -> None:
    assert parts("ph+anc+terse+nest") == {"ph", "anc", "terse", "nest"}
    assert terse_text("StaticText", "StaticText '$49.99'") == "'$49.99'"
    assert terse_text("link", "[5] link 'Aurora Wireless', clickable") == "[5] link 'Aurora Wireless'"
    assert terse_text("generic", "[8] generic 'Card', clickable") == "[8] generic 'Card', clickable"  # not a control
    assert terse_text("checkbox", "[7] checkbox 'Gift wrap', checked=false") == "[7] checkbox 'Gift wrap'"
    assert terse_text("checkbox", "[7] checkbox 'Gift wrap', checked=true") == "[7] checkbox 'Gift wrap', checked=true"


def test_terse_and_nest_same_lines_ids_recovery_fewer_tokens() -> None:
    r = rendering_from_text(TREE)
    keep = _nos(r, "Add to cart", "Aurora", "$49.99", "Gift wrap")
    base = focus(r, "buy", Pick(keep, "ph+anc"), defense=False)
    for lean in ("ph+anc+terse", "ph+anc+nest", "ph+anc+terse+nest"):
        res = focus(r, "buy", Pick(keep, lean), defense=False)
        assert res.kept == base.kept and res.placeholders == base.placeholders
        assert [(ol.no, ol.depth, ol.pid) for ol in res.lines] == [(ol.no, ol.depth, ol.pid) for ol in base.lines]
        assert res.focused_tokens < base.focused_tokens and res.focused_tokens == tokens.count(res.text())
        for pid in base.placeholders:  # every pruned run behind the same id, brought back the same
            assert expand(r, res, pid).text() == expand(r, base, pid).text()
    terse = focus(r, "buy", Pick(keep, "ph+anc+terse"), defense=False).text()
    assert "\t\t\t\t'$49.99'\n" in terse and "StaticText" not in terse
    assert "\t\t\t\t[5] link 'Aurora Wireless'\n" in terse and "clickable" not in terse
    assert "\t\t\t\t[7] checkbox 'Gift wrap'\n" in terse
    nest = focus(r, "buy", Pick(keep, "ph+anc+nest"), defense=False)
    assert nest.indent == " " and "\t" not in nest.text() and "\n    [6] button 'Add to cart', clickable" in nest.text()
    assert base.indent == "\t" and "\t\t\t\t[6] button 'Add to cart', clickable" in base.text()


def test_default_ships_terse_and_nest() -> None:
    """``default`` asks for ``ph+anc+terse+nest`` (BENCHMARKS.md, thirty-seventh pass): its view is an explicit one of
    those parts, the same lines as a ``ph+anc`` view in fewer tokens."""
    r = rendering_from_text(TREE)
    cfg = RulesConfig(small_page_tokens=0, floor_tokens=1, budget=0.05)
    assert RulesConfig().lean_view == "ph+anc+terse+nest"
    got = focus(r, "add the Aurora to the cart", RulesRetriever(cfg), defense=False)
    want = focus(r, "add the Aurora to the cart", RulesRetriever(cfg), defense=False, lean="ph+anc+terse+nest")
    before = focus(r, "add the Aurora to the cart", RulesRetriever(cfg), defense=False, lean="ph+anc")
    assert got.text() == want.text() and got.indent == " "
    assert got.kept == before.kept and got.focused_tokens < before.focused_tokens


def test_fill_units_bounds_the_fill() -> None:
    """``fill_units``: the cores pass and the fill read only the order's first units; 0 reads them all."""
    rows = "\n".join(f"\t\t[{100 + i}] row 'Order {i} shipped to customer {i} on the {i}th'" for i in range(200))
    r = rendering_from_text("RootWebArea 'Orders', focused\n\t[1] table 'Orders'\n" + rows)
    goal = "when was order 7 shipped"
    cfg = dict(small_page_tokens=0, floor_tokens=0, budget=0.6, certain_by="")
    every = focus(r, goal, RulesRetriever(RulesConfig(fill_units=0, **cfg)), defense=False)
    few = focus(r, goal, RulesRetriever(RulesConfig(fill_units=3, **cfg)), defense=False)
    assert RulesConfig().fill_units == 120  # shipped (BENCHMARKS.md, thirty-seventh pass)
    assert any("Order 7 shipped" in ol.text for ol in few.lines)  # the first units stay
    assert len(few.kept) < len(every.kept) and few.focused_tokens < every.focused_tokens
    assert few.pruning > every.pruning
    # every pruned line is behind a placeholder id that expand brings back
    behind = {no for nos in few.placeholders.values() for no in nos}
    assert behind | set(few.kept) == {ln.no for ln in r.lines}
    for pid, nos in few.placeholders.items():
        got = expand(r, few, pid, max_tokens=10**6)
        assert {ln.no for ln in got.lines} >= set(nos)
