"""The fourteenth pass' opt-in candidates for filling ``default``'s budget (all off by default;
BENCHMARKS.md "Focus, fourteenth pass"): an order by evidence per token and a label's value run.
(The third, a small container kept whole, was removed by the fifteenth pass: by construction or
by its figures it never kept more.)"""

from __future__ import annotations

import numpy as np
from focus_pages import typed_rendering as _rendering

from pagelens.focus import learned
from pagelens.focus.units import label_value, page_of


class _Fixed:
    """A stand-in model: the scores it is given, by row."""

    def __init__(self, scores: list[float]) -> None:
        self.scores = np.asarray(scores)

    def score(self, x: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        x = x if rows is None else x[rows]
        return self.scores[x[:, 0].astype(int)]


def test_a_cost_weight_orders_by_evidence_per_token() -> None:
    x = np.zeros((3, len(learned.FEATURES)))
    x[:, 0] = [0, 1, 2]  # the stand-in model reads its row number here
    col = learned.FEATURES.index("log_tokens")
    x[:, col] = np.log1p([400, 12, 60])
    model = _Fixed([2.0, 1.0, 1.5])
    assert learned.learned_order(model, x) == [0, 2, 1]  # type: ignore[arg-type]
    assert learned.learned_order(model, x, cost_weight=1.0) == [1, 2, 0]  # type: ignore[arg-type]
    assert learned.learned_order(model, x, [0, 2], cost_weight=1.0) == [2, 0]  # type: ignore[arg-type]


def test_a_label_brings_the_run_it_announces() -> None:
    specs = [(0, "RootWebArea", "Paper"), (1, "generic", ""), (2, "heading", "A title"), (2, "StaticText", "Authors:")]
    specs += [(2, "link", f"Author number {i}") for i in range(30)]
    specs += [(2, "StaticText", "Subjects:"), (2, "link", "Some subject")]
    page = page_of(_rendering(specs))
    label = next(i for i, ln in enumerate(page.lines) if ln.name == "Authors:")
    got = label_value(page, label, 60)
    assert got and got[0] == label + 1 and all(page.lines[j].role == "link" for j in got)
    assert sum(page.cost[j] + 1 for j in got[:-1]) < 60  # stops once the tokens are spent
    assert len(label_value(page, label, 10_000)) == 30  # ...or at the next label
    assert label_value(page, label - 1, 60) == []  # a heading is no label
    assert label_value(page, label, 0) == []
