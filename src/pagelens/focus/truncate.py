"""Bottom truncation: the GenericAgent-BT baseline of the FocusAgent paper.

Keep lines from the top of the rendering while the rendered text (with its indentation)
stays within ``budget_tokens`` o200k tokens; delete everything after. The goal is ignored.
A query with a :attr:`~pagelens.focus.base.FocusQuery.budget` (a share of the tree's tokens)
overrides ``budget_tokens`` with that share of the rendering handed to the retriever (the
focused view then drops ``url=`` properties, so it usually spends less than the share).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import accumulate

from pagelens import tokens
from pagelens.focus.base import FocusQuery, Selection
from pagelens.types import Rendering

__all__ = ["TruncateRetriever", "truncate_prefix"]


def _render(rendering: Rendering, n: int) -> str:
    return "\n".join("\t" * ln.depth + ln.text for ln in rendering.lines[:n])


def truncate_prefix(rendering: Rendering, budget_tokens: int) -> tuple[int, int]:
    """Longest prefix of lines whose rendered text fits the budget: ``(n_lines, n_tokens)``.

    Per-line counts give a first guess (o200k merges a newline with the next line's tabs,
    so their sum is close but not exact); the exact count of the rendered prefix settles it.
    """
    if budget_tokens < 0:
        raise ValueError(f"budget_tokens must be >= 0, got {budget_tokens}")
    lines = rendering.lines
    if not lines:
        return 0, 0
    per_line = tokens.count_many(["\t" * ln.depth + ln.text for ln in lines])
    cum = list(accumulate(c + 1 for c in per_line))  # +1: the newline joining lines
    n = sum(1 for c in cum if c - 1 <= budget_tokens)
    used = tokens.count(_render(rendering, n))
    while n > 0 and used > budget_tokens:
        n -= 1
        used = tokens.count(_render(rendering, n))
    # Grow by galloping then bisecting: each probe is one exact count of at most ~budget tokens.
    step = 1
    while n < len(lines):
        probe = min(n + step, len(lines))
        c = tokens.count(_render(rendering, probe))
        if c <= budget_tokens:
            n, used, step = probe, c, step * 2
        elif step == 1:
            break
        else:
            step = 1
    return n, used


@dataclass(frozen=True, slots=True)
class TruncateRetriever:
    """Keep the top of the tree up to ``budget_tokens`` (GenericAgent-BT with a 5k budget)."""

    budget_tokens: int = 5000
    name: str = field(init=False)

    def __post_init__(self) -> None:
        if self.budget_tokens < 0:
            raise ValueError(f"budget_tokens must be >= 0, got {self.budget_tokens}")
        object.__setattr__(self, "name", "truncate")  # the registry's name; the budget is in info

    def select(self, query: FocusQuery, rendering: Rendering) -> Selection:
        budget = self.budget_tokens
        if query.budget is not None:
            budget = int(query.budget * tokens.count(rendering.text()))
        n, used = truncate_prefix(rendering, budget)
        deleted = len(rendering.lines) - n
        return Selection(
            keep=frozenset(ln.no for ln in rendering.lines[:n]),
            info={
                "budget_tokens": budget,
                "budget_share": query.budget,
                "kept_tokens": used,
                "kept_lines": n,
                "deleted_lines": deleted,
                "note": f"deleted {deleted} lines",
            },
        )
