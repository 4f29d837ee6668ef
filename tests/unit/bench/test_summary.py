"""Summaries count what the rows say: error rows written by the runner (no retriever field) count."""

from __future__ import annotations

from pagelens.bench.runner import Unit, error_rows
from pagelens.bench.summary import key_fields, summarize


def test_error_rows_count_under_their_retriever() -> None:
    ok = {"key": "cases:0:default", "suite": "cases", "status": "ok", "retriever": "default", "kept_items": [True],
          "pruning": 0.5, "latency_ms": 3.0}
    unit = Unit("case 1", ("cases:1:default", "cases:1:llm:defender"), 1)
    errors = error_rows(unit, frozenset(unit.keys), "cases", "PageError: broken page")
    figures = summarize([ok, *errors])["cases"]
    assert figures["default"]["cases"] == 1 and figures["default"]["errors"] == 1
    assert figures["llm:defender"] == {**figures["llm:defender"], "cases": 0, "errors": 1}


def test_task_error_rows_keep_policy_and_mode() -> None:
    row = error_rows(Unit("t", ("tasks:shop-x:scripted:signals:bm25-400",), None),
                     frozenset({"tasks:shop-x:scripted:signals:bm25-400"}), "tasks", "worker process died")[0]
    fields = key_fields(row)
    assert (fields["task"], fields["policy"], fields["observe"], fields["retriever"]) == (
        "shop-x", "scripted", "signals", "bm25-400")
    assert summarize([row])["tasks"]["bm25-400 / scripted / signals"]["errors"] == 1


def test_rows_of_unknown_shape_pass_unchanged() -> None:
    assert key_fields({"key": "odd", "suite": "other", "x": 1}) == {"key": "odd", "suite": "other", "x": 1}
