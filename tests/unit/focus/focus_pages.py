"""Shared pieces of the synthetic-page focus tests: typed renderings, prose filler and ``default``'s view of a page."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from pagelens.focus.analysis import PageAnalysis, analysis_of
from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import ElementId, Line, Rendering


def typed_rendering(specs: list[tuple[int, str, str]]) -> Rendering:
    """(depth, role, name) -> typed lines, parents from depth."""
    lines: list[Line] = []
    stack: list[tuple[int, int]] = []
    for no, (depth, role, name) in enumerate(specs):
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parent = stack[-1][1] if stack else None
        eid = ElementId(str(no)) if role not in ("StaticText", "generic") else None
        head = f"[{eid}] {role} '{name}'" if eid else f"{role} '{name}'"
        lines.append(Line(no=no, depth=depth, text=head, node=no, role=role, eid=eid, parent=parent, name=name))
        stack.append((depth, no))
    return Rendering(lines=tuple(lines))


#: Sixty lines of prose that share no word with the tests' goals (they give the budget something to drop).
FILLER = [f"\t\tStaticText 'Filler sentence number {i} about something else entirely, with many words.'"
          for i in range(60)]


def default_view(page: list[str], goal: str) -> tuple[str, float]:
    """(focused text, pruning) of ``default`` on a page given as tab-indented tree lines, no defense."""
    res = focus(rendering_from_text("\n".join(page)), FocusQuery(goal), RulesRetriever(), defense=False)
    assert res.error is None
    return res.text(), res.pruning


def card_page() -> list[tuple[int, str, str]]:
    """Six cards under ``main``, one line each ("Card 0 short" …); the third one ("Card 2") is long."""
    specs = [(0, "RootWebArea", "Console"), (1, "main", "")]
    for i in range(6):
        specs.append((2, "paragraph", ""))
        specs.append((3, "StaticText", f"Card {i} " + ("long text " * 30 if i == 2 else "short")))
    return specs


@dataclass
class FillHarness:
    """The fill's callbacks over :func:`card_page`'s analysis: ``add`` keeps lines, ``cost_of`` prices the lines
    not kept yet, ``spent`` is what the kept lines cost, ``shown`` the card numbers kept, ``head_of`` a card
    number's unit."""

    pa: PageAnalysis
    head_of: dict[str, int]
    kept: set[int] = field(default_factory=set)

    @classmethod
    def of_cards(cls) -> FillHarness:
        cfg = RulesConfig()
        pa = analysis_of(typed_rendering(card_page()), cfg.limits, cfg.unit_text_chars, cache=False)
        page, units = pa.page, pa.units
        head_of = {page.lines[units.heads[k] + 1].name.split()[1]: k for k in range(len(units.heads))
                   if page.lines[units.heads[k]].role == "paragraph"}
        return cls(pa, head_of)

    def add(self, span: Iterable[int]) -> None:
        self.kept.update(span)

    def cost_of(self, span: Iterable[int]) -> int:
        return sum(self.pa.page.cost[j] + 1 for j in span if j not in self.kept)

    def spent(self) -> int:
        return sum(self.pa.page.cost[j] + 1 for j in self.kept)

    def shown(self) -> set[str]:
        page = self.pa.page
        return {page.lines[j].name.split()[1] for j in self.kept if page.lines[j].role == "StaticText"}

    def tokens_of(self, card: str) -> int:
        return self.pa.page.subtree_tokens(self.pa.units.heads[self.head_of[card]])

    def callbacks(self) -> tuple[Callable[[Iterable[int]], None], Callable[[Iterable[int]], int], Callable[[], int]]:
        return self.add, self.cost_of, self.spent
