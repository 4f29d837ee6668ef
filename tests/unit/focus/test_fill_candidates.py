"""The fourteenth pass' opt-in candidates for filling ``default``'s budget (all off by default;
BENCHMARKS.md "Focus, fourteenth pass"): an order by evidence per token, a small container kept
whole when a second of its units is kept, and a label's value run."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from focus_pages import typed_rendering as _rendering

from pagelens.focus import learned
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.focus.units import label_value, page_of


class _Fixed:
    """A stand-in model: the scores it is given, by row."""

    def __init__(self, scores: list[float]) -> None:
        self.scores = np.asarray(scores)

    def score(self, x: np.ndarray) -> np.ndarray:
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


def _listing() -> list[tuple[int, str, str]]:
    specs = [(0, "RootWebArea", "Catalogue"), (1, "main", ""), (2, "list", "")]
    for i in range(14):
        word = "zephyr" if i in (2, 9) else "plain"
        specs += [(3, "listitem", ""), (4, "StaticText", f"Row {i} is a {word} thing with a few more words")]
    specs += [(2, "paragraph", "")]
    specs += [(3, "StaticText", f"Filler sentence number {i} about something else entirely, with many words.")
              for i in range(300)]
    return specs


def test_a_second_kept_unit_of_a_small_container_keeps_it_whole() -> None:
    r = _rendering(_listing())
    middle = next(ln.no for ln in r.lines if ln.name.startswith("Row 5 "))
    goal = FocusQuery("Which ones are zephyr?")
    base = RulesRetriever(replace(RulesConfig(), fusion="rrf")).select(goal, r)
    whole = RulesRetriever(replace(RulesConfig(), fusion="rrf", complete_tokens=600)).select(goal, r)
    zephyr = {ln.no for ln in r.lines if "zephyr" in ln.name}
    assert zephyr <= base.keep and zephyr <= whole.keep
    assert middle not in base.keep and middle in whole.keep
    small = RulesRetriever(replace(RulesConfig(), fusion="rrf", complete_tokens=100)).select(goal, r)
    assert middle not in small.keep  # the list costs more than 100 tokens


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
