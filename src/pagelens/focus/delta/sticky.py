"""Sticky focus: a re-observation keeps to what the agent was shown (pure; no browser).

A focused view is a ranked fill of a token budget. When the page changes a little (a row
removed, a counter updated), the budget the change frees is spent again, on lines the last
view had pruned and that did not change: a header link, a table's column headers. The agent
never asked for them and they are not news, yet a delta or a fold has to send them.

:func:`sticky_view` restrains a new focused view against the agent's last one:

* an element the last observation had, unchanged (the same line, ids carried), that the agent's
  last view left pruned stays pruned (with its unchanged text nodes) — unless it names the goal (two of its words are goal
  terms, or its only word is one: the focus may have missed it the first time, a row the
  goal names) or every view must show it (the focused element, a dialog, an error);
* new and changed lines are the focus's choice, as before.

Lines the agent has are not kept back in when the focus drops them: in a re-sorted list the
agent's copy would keep an earlier item's button ahead of the new first item's (tried: the
plan of "add the best-rated product" clicked the wrong one).

What stays pruned is in the view's placeholders: ``expand`` and ``search_page`` reach it.
Pruning reveals nothing: a redaction marker or a warning stays, a redacted control the agent
was never shown may be pruned; a focus that fell back to the whole tree is left as it is.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from pagelens import tokens
from pagelens.focus.delta.formats import same_text

if TYPE_CHECKING:
    from pagelens.focus.apply import OutputLine
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
    """``line`` names the goal: two of its words are goal terms, or its only word is one (a
    row named like the goal's item, "Add to cart" for a goal that adds to the cart; not a
    "Best rated" link for a goal about the lowest-rated review: one shared word of two)."""
    if not terms:
        return False
    from pagelens.focus.lexicon import STOPWORDS
    from pagelens.focus.terms import terms_of

    goal = {t for t in terms if t[0] not in "§+"}
    text = " ".join(p for p in (line.name, line.value or "", line.label) if p)
    own = {t for t in terms_of(text) if t[0] not in "§+" and t not in STOPWORDS}
    shared = own & goal
    return len(shared) >= 2 or (len(shared) == 1 and len(own) == 1)


def sticky_view(view: PageView, carried: PageView, *, had: Collection[str], shown: Collection[str],
                terms: frozenset[str]) -> PageView:
    """``view`` (raw ids) restrained to what the agent was shown (see the module docstring).

    ``carried``: the same view with ids carried from the last one (its lines pair with
    ``view``'s by position); ``had``: :func:`known_texts` of the last view; ``shown``: the lines
    the agent has (``same_text``); ``terms``: :func:`goal_terms`.
    """
    from pagelens.focus.apply import always_kept, compact_text, placeholder_map, with_ancestors

    f = view.focused
    if f is None or f.error is not None:
        return view
    lines = view.rendering.lines
    if len(carried.rendering.lines) != len(lines):
        return view
    # a line as the last view's rendering would have it, and as this view would send it (a
    # redacted control, a line shown short: the focus's text)
    texts = [same_text(compact_text(ln.text, ln.url)) for ln in carried.rendering.lines]
    sent = {ol.no: same_text(ol.text) for ol in (carried.focused.lines if carried.focused is not None else ())
            if ol.no is not None}
    always = always_kept(view.rendering)
    # an element by its (carried) id; a text node only with its element (the same words elsewhere
    # on a new page, a price, are not the line the agent had)
    def unasked(ln: Line, t: str) -> bool:  # kept now, unchanged, and left pruned in the agent's last view
        return (ln.no in f.kept and ln.no not in always and t in had and sent.get(ln.no, t) not in shown
                and not _names(ln, terms))

    drop = {ln.no for ln, t in zip(lines, texts) if ln.eid is not None and unasked(ln, t)}
    drop |= {ln.no for ln, t in zip(lines, texts) if ln.eid is None and ln.parent in drop and unasked(ln, t)}
    drop -= with_ancestors(view.rendering, set(f.kept) - drop)  # what the lines that stay hang from
    if not drop:
        return view
    out = _pruned(f.lines, drop)
    text = "\n".join(f.indent * ln.depth + ln.text for ln in out)
    focused = replace(f, lines=out, kept=frozenset(ln.no for ln in out if ln.no is not None),
                      focused_tokens=tokens.count(text), placeholders=placeholder_map(view.rendering, out, f.hidden))
    return replace(view, focused=focused)


def _pruned(lines: Sequence[OutputLine], drop: Collection[int]) -> tuple[OutputLine, ...]:
    """``lines`` (a focused view, tiling its rendering) with the ``drop`` lines pruned: each run of
    them and of the placeholders next to them one placeholder; placeholders renumbered ``p1, p2,
    ...`` in document order (as the focus numbers them). Redaction markers and warnings stay."""
    from pagelens.focus.apply import OutputLine, placeholder_text, renumbered

    runs: list[OutputLine | list[int]] = []  # a line kept as it is, or [depth, lines pruned]
    for ol in lines:
        if (ol.no is not None and ol.no in drop) or (ol.no is None and ol.pid is not None and not ol.folded):
            n = 1 if ol.no is not None else ol.pruned
            last = runs[-1] if runs else None
            if isinstance(last, list):
                last[1] += n
            else:
                runs.append([ol.depth, n])
        else:
            runs.append(ol)
    out: list[OutputLine] = []
    placeholders = 0
    # a lean view's placeholders (:mod:`pagelens.focus.lean`) stay lean
    from pagelens.focus.lean import is_placeholder
    from pagelens.focus.lean import placeholder_text as lean_text

    lean = any(not ol.folded and is_placeholder(ol.text, ol.pruned, ol.pid) for ol in lines)
    for item in runs:
        if isinstance(item, list):
            placeholders += 1
            pid = f"p{placeholders}"
            text = lean_text(item[1], pid) if lean else placeholder_text(item[1], pid)
            out.append(OutputLine(item[0], text, None, item[1], pid))
        elif item.folded and item.pid is not None:  # a folded notice's placeholder keeps its lines, renumbered
            placeholders += 1
            out.append(renumbered(item, f"p{placeholders}"))
        else:
            placeholders += item.pid is not None
            out.append(item)
    return tuple(out)
