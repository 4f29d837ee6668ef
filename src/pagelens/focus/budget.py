"""The token budget of ``default``'s selection (:mod:`pagelens.focus.rules`).

A budget is a share of the page's full-tree tokens, at least a floor, at most a ceiling and never more than the
page (:func:`budget_of`). The share (:func:`share_of`) is the query's own when it gives one; else, by default, one
that follows how sure the fitted fusion is of its first units (:mod:`pagelens.focus.certainty`); else
:attr:`~pagelens.focus.rules.RulesConfig.budget`.
"""

from __future__ import annotations

from typing import Protocol

from pagelens.focus.certainty import Certainty, share_for

__all__ = ["BudgetConfig", "budget_of", "floor_of", "query_share", "share_of"]


class BudgetConfig(Protocol):
    """The fields of :class:`pagelens.focus.rules.RulesConfig` a budget reads (see their comments there; read only)."""

    @property
    def budget(self) -> float: ...
    @property
    def floor_tokens(self) -> int: ...
    @property
    def floor_share(self) -> float: ...
    @property
    def floor_min(self) -> int: ...
    @property
    def ceiling_tokens(self) -> int: ...
    @property
    def small_share(self) -> float: ...
    @property
    def small_min(self) -> int: ...
    @property
    def certain_by(self) -> str: ...
    @property
    def certain_at(self) -> float: ...
    @property
    def certain_share(self) -> float: ...
    @property
    def unsure_share(self) -> float: ...


def floor_of(cfg: BudgetConfig, total: int) -> float:
    """The budget's floor on a page of ``total`` tokens: :attr:`~pagelens.focus.rules.RulesConfig.floor_tokens`, or, with
    :attr:`~pagelens.focus.rules.RulesConfig.floor_share` set, ``floor_share × total`` clamped to [``floor_min``, ``floor_tokens``]."""
    if cfg.floor_share <= 0:
        return float(cfg.floor_tokens)
    return float(min(max(cfg.floor_share * total, cfg.floor_min), cfg.floor_tokens))


def budget_of(cfg: BudgetConfig, share: float, total: int, floor: float | None = None) -> int:
    """The token budget on a page of ``total`` tokens (above ``small_page_tokens``): ``share × total`` within the
    floor (:func:`floor_of`, or ``floor`` when given) and ``ceiling_tokens``, never above the page; a page the floor
    would keep whole gets ``clamp(small_share × total, small_min, total)`` when
    :attr:`~pagelens.focus.rules.RulesConfig.small_share` is set."""
    low = floor_of(cfg, total) if floor is None else floor
    budget = int(min(max(share * total, low), cfg.ceiling_tokens, total))
    if cfg.small_share > 0 and budget >= total:
        return int(min(max(cfg.small_share * total, cfg.small_min), total))
    return budget


def query_share(budget: float | None) -> float | None:
    """A ``FocusQuery.budget`` that is a share of the page (0 < share ≤ 1), else None."""
    return budget if budget is not None and 0 < budget <= 1 else None


def share_of(cfg: BudgetConfig, asked: float | None, cert: Certainty, judged: bool) -> float:
    """The share for one goal: the query's own (``asked``, :func:`query_share`); else, when
    :attr:`~pagelens.focus.rules.RulesConfig.certain_by` is set and ``cert`` was read from the learned fusion's log-odds (``judged``:
    its threshold is in their units), the certainty's share; else :attr:`~pagelens.focus.rules.RulesConfig.budget`."""
    if asked is not None:
        return asked
    if cfg.certain_by and judged:
        return share_for(cert, cfg.certain_by, cfg.certain_at, cfg.certain_share, cfg.unsure_share)
    return cfg.budget
