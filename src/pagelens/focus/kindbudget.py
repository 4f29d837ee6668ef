"""A budget share that follows what the goal asks (issue 9, forty-first focus pass; off by default).

A goal that asks for a fact ("What is the warranty?", "¿Cuánto cuesta?", "Wann öffnet das Amt?") needs its
answer *and* the text around it, often ranked a little lower than the words it shares with the goal; a goal
that orders an action or a place to go ("Add it to the cart", "Go to the returns page") needs one control or
link, which the ranker usually puts first. :func:`kind_factor` moves the budget share between the two: a
question's share × (1 + ``fact``), any other goal's × (1 − ``act``) (:attr:`.rules.RulesConfig.kind_fact`,
:attr:`.rules.RulesConfig.kind_act`; both 0: off, every goal keeps its share).

The goal's kind is read from its text only, in any language: a question mark at its end (``?``, ``？``,
Arabic ``؟``), an opening ``¿``, or an interrogative first word (:func:`pagelens.focus.terms.is_question`, which
knows English, German, French and Spanish). Nothing here reads a label or the page's words.
"""

from __future__ import annotations

from pagelens.focus.terms import is_question

__all__ = ["asks_fact", "kind_factor", "kind_share"]

_MARKS = ("؟", "⸮")  # the Arabic (Persian, Urdu) question mark and the reversed one


def asks_fact(goal: str) -> bool:
    """The goal asks for a fact (a question) rather than orders an action or a navigation."""
    text = goal.strip()
    if not text:
        return False
    if is_question(text) or text.startswith("¿") or text.endswith(_MARKS):
        return True
    return False


def kind_factor(goal: str, fact: float, act: float) -> float:
    """The factor on a goal's budget share: ``1 + fact`` for a question, ``1 - act`` for any other goal (none given: 1)."""
    if (fact == 0 and act == 0) or not goal.strip():  # off, or no goal to read (no shift)
        return 1.0
    return 1.0 + fact if asks_fact(goal) else max(1.0 - act, 0.0)


def kind_share(share: float, goal: str, fact: float, act: float, total: int = 0, min_tokens: int = 0,
               max_tokens: int = 0) -> float:
    """``share × kind_factor`` on a page of ``total`` tokens within [``min_tokens``, ``max_tokens``) (0: no bound);
    ``share`` unchanged outside that band or when both shifts are 0. Never above 1."""
    if (fact == 0 and act == 0) or (min_tokens and total < min_tokens) or (max_tokens and total >= max_tokens):
        return share
    return min(share * kind_factor(goal, fact, act), 1.0)
