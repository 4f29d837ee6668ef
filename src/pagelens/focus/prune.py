"""A smaller budget where the fused order is sure of its first units (issue 9, forty-third focus pass).

:func:`pagelens.focus.budget.budget_of` gives every goal at least :attr:`~pagelens.focus.rules.RulesConfig.floor_tokens`
(800) and the certainty rule (:mod:`pagelens.focus.certainty`) two shares, 0.20 for a sure order and 0.40 otherwise.
Two switches, read only here (all off by default: the budget is then :func:`budget_of`'s exactly):

* :attr:`~pagelens.focus.rules.RulesConfig.sure2_at` (> 0: on) — an order of the learned fusion whose ``gap`` (the
  first unit's log-odds over the tenth's) is at least this is *very* sure: its share is
  :attr:`~pagelens.focus.rules.RulesConfig.sure2_share` instead of the sure share;
* :attr:`~pagelens.focus.rules.RulesConfig.sure_floor_share` (> 0: on) — a sure order's floor is
  ``clamp(sure_floor_share × total, sure_floor_min, floor)`` (``floor``: :func:`floor_of`) instead of ``floor_tokens``: on a small or medium
  page a goal whose first units are certain is not given 800 tokens (nor the whole page below 800 tokens).

Both read only how sure the order is (its log-odds), never the goal's or the page's words, and neither applies to a
``FocusQuery.budget`` (a share the caller asked for) or an order that was not judged (RRF).
"""

from __future__ import annotations

from typing import Any

from pagelens.focus.budget import budget_of, floor_of, query_share, share_of
from pagelens.focus.certainty import Certainty, share_for

__all__ = ["budget_for", "is_sure"]


def is_sure(cfg: Any, cert: Certainty, judged: bool) -> bool:
    """The certainty rule's own "sure" (``certain_by`` at ``certain_at``), for a judged order only."""
    if not (cfg.certain_by and judged):
        return False
    return share_for(cert, cfg.certain_by, cfg.certain_at, 1.0, 0.0) == 1.0


def budget_for(cfg: Any, query_budget: float | None, cert: Certainty, judged: bool, total: int) -> int:
    """The token budget of one goal: :func:`budget_of` of :func:`share_of`, with the switches of the module's
    docstring applied when on (``query_budget``: ``FocusQuery.budget``; a share asked that way turns both off)."""
    asked = query_share(query_budget)
    share = share_of(cfg, asked, cert, judged)
    if asked is not None or (cfg.sure2_at <= 0 and cfg.sure_floor_share <= 0) or not is_sure(cfg, cert, judged):
        return budget_of(cfg, share, total)
    if cfg.sure2_at > 0 and cert.gap >= cfg.sure2_at:
        share = cfg.sure2_share
    floor = None
    if cfg.sure_floor_share > 0:
        floor = min(max(cfg.sure_floor_share * total, cfg.sure_floor_min), floor_of(cfg, total))
    return budget_of(cfg, share, total, floor)
