"""Shared pieces of the synthetic-page focus tests: prose filler and ``default``'s view of a page."""

from __future__ import annotations

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesRetriever
from pagelens.observe.textparse import rendering_from_text

#: Sixty lines of prose that share no word with the tests' goals (they give the budget something to drop).
FILLER = [f"\t\tStaticText 'Filler sentence number {i} about something else entirely, with many words.'"
          for i in range(60)]


def default_view(page: list[str], goal: str) -> tuple[str, float]:
    """(focused text, pruning) of ``default`` on a page given as tab-indented tree lines, no defense."""
    res = focus(rendering_from_text("\n".join(page)), FocusQuery(goal), RulesRetriever(), defense=False)
    assert res.error is None
    return res.text(), res.pruning
