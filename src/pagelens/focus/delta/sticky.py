"""Sticky focus: a re-observation keeps to what the agent was shown (pure; no browser).

A focused view is a ranked fill of a token budget. When the page changes a little (a row
removed, a counter updated), the budget the change frees is spent again, on lines the last
view had pruned and that did not change: a header link, a table's column headers. The agent
never asked for them and they are not news, yet a delta or a fold has to send them.

:func:`sticky_view` restrains a new focused view against the agent's last one:

* a line the last observation had, unchanged (the same text, ids carried), that the agent's
  last view left pruned stays pruned — unless it names a term of the goal (the focus may
  have missed it the first time: a row the goal names) or every view must show it (the
  focused element, a dialog, an error);
* new and changed lines are the focus's choice, as before.

Lines the agent has are not kept back in when the focus drops them: in a re-sorted list the
agent's copy would keep an earlier item's button ahead of the new first item's (tried: the
plan of "add the best-rated product" clicked the wrong one).

What stays pruned is in the view's placeholders: ``expand`` and ``search_page`` reach it.
Views the injection defense filtered, or a focus that fell back to the whole tree, are left
as they are.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import TYPE_CHECKING

from pagelens import tokens
from pagelens.focus.delta.formats import same_text

if TYPE_CHECKING:
    from pagelens.focus.view import PageView
    from pagelens.types import Line

__all__ = ["goal_terms", "known_texts", "sticky_view"]


def known_texts(view: PageView) -> frozenset[str]:
    """Every line of ``view``'s rendering as a focused view would show it (ids as carried)."""
    from pagelens.focus.apply import compact_text

    return frozenset(same_text(compact_text(ln.text, ln.url)) for ln in view.rendering.lines)


def goal_terms(goal: str | None) -> frozenset[str]:
    """The goal's content terms as the focus weighs them (stems, numbers, concepts; no stop-words)."""
    if not goal:
        return frozenset()
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.terms import query_terms

    return frozenset(query_terms(FocusQuery(goal=goal))[0])


def _names(line: Line, terms: frozenset[str]) -> bool:
    if not terms:
        return False
    from pagelens.focus.terms import terms_of

    return bool(terms_of(" ".join(p for p in (line.name, line.value or "", line.label) if p)) & terms)


def sticky_view(view: PageView, carried: PageView, *, had: Collection[str], shown: Collection[str],
                terms: frozenset[str]) -> PageView:
    """``view`` (raw ids) restrained to what the agent was shown (see the module docstring).

    ``carried``: the same view with ids carried from the last one (its lines pair with
    ``view``'s by position); ``had``: :func:`known_texts` of the last view; ``shown``: the lines
    the agent has (``same_text``); ``terms``: :func:`goal_terms`.
    """
    from pagelens.focus.apply import always_kept, build_lines, compact_text, placeholder_map, with_ancestors

    f = view.focused
    if f is None or f.error is not None or f.flags or f.hidden or f.redacted or f.unprotected is not None:
        return view
    lines = view.rendering.lines
    if len(carried.rendering.lines) != len(lines):
        return view
    texts = [same_text(compact_text(ln.text, ln.url)) for ln in carried.rendering.lines]
    always = always_kept(view.rendering)
    drop = {ln.no for ln, t in zip(lines, texts)
            if ln.no in f.kept and ln.no not in always and t in had and t not in shown and not _names(ln, terms)}
    if not drop:
        return view
    chosen = set(f.kept) - drop
    keep = with_ancestors(view.rendering, chosen)
    by_no = {ln.no: ln for ln in lines}
    full_in_f = {ol.no for ol in f.lines
                 if ol.no is not None and ol.text == compact_text(by_no[ol.no].text, by_no[ol.no].url)}
    # as the focus showed them: a line it showed short stays short; an ancestor kept only to
    # hold the tree together is short
    short = {no for no in keep if no not in full_in_f}
    out = build_lines(view.rendering, keep, compact=True, short=short)
    text = "\n".join("\t" * ln.depth + ln.text for ln in out)
    focused = replace(f, lines=out, kept=frozenset(ln.no for ln in out if ln.no is not None),
                      focused_tokens=tokens.count(text), placeholders=placeholder_map(view.rendering, out))
    return replace(view, focused=focused)
