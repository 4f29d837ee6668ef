from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pagelens.agent.trace import (
    STATUSES,
    StepRecord,
    Summary,
    TraceWriter,
    diagnose,
    read_trace,
)


def _step(step: int, **changes: Any) -> StepRecord:
    return replace(StepRecord(step, "action", f'click("{step}")', "done", "ok", page_action=True), **changes)


def test_statuses_are_the_named_ones() -> None:
    assert {"success", "failure", "max_steps", "budget", "parse_error_limit", "browser_crashed",
            "page_error", "timeout"} <= set(STATUSES)


def test_diagnose_counts_tokens_and_observations() -> None:
    steps = [
        _step(1, obs_tokens=100, full_tokens=1000, changes=("url",), signals=(("url", "a -> b"),), reobserved=True,
              reobserve_reason="signal", view_added=30, view_removed=20),
        _step(2, obs_index=1, obs_tokens=80, full_tokens=900),
        _step(3, obs_index=1, obs_age=1, full_tokens=900),
        StepRecord(4, "parse_error", None, "parse_error", "no Action: line"),
    ]
    d = diagnose(steps, observations=2)
    assert (d.steps, d.observations, d.obs_tokens_sent, d.full_tokens_every_step) == (3, 2, 180, 2800)
    assert d.observations_per_step == pytest.approx(2 / 3)
    assert d.signals == {"url": 1}
    assert d.stale_incidents == () and d.missed_changes == ()


def test_a_failed_action_on_an_old_observation_is_a_stale_incident() -> None:
    steps = [
        _step(1, full_tokens=10),
        _step(2, obs_age=1, status="invalid", signals=(("action_failure", "x"),), reobserved=True),
        _step(3, obs_index=1, status="failed"),  # failed on a fresh observation: not stale
        _step(4, obs_index=1, obs_age=1, status="failed", page_action=False),  # read_text: not a page action
    ]
    assert diagnose(steps, 2).stale_incidents == (2,)


def test_missed_changes_are_found_in_hindsight() -> None:
    steps = [
        # every-step style: signal-free step, re-observed, the view changed -> missed
        _step(1, changes=("text",), reobserved=True, reobserve_reason="every-step", view_added=2),
        # signal-free step whose page changed; the next observation came from a failure only -> missed
        _step(2, changes=("node_count",)),
        _step(3, status="invalid", signals=(("action_failure", "x"),), reobserved=True, view_removed=1),
        # a change explained by a URL signal in the window -> not missed
        _step(4, changes=("node_count",)),
        _step(5, signals=(("url", "a -> b"),), reobserved=True, view_added=40),
        # signal-free, re-observed, identical view -> not missed
        _step(6, reobserved=True),
    ]
    assert diagnose(steps, 5).missed_changes == (1, 2)


def test_writer_flushes_every_line_and_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "trace.jsonl"
    writer = TraceWriter(path)
    writer.step(_step(1, signals=(("url", "a -> b"),), timings={"execute": 0.1}))
    # readable before close: a crash after this point loses nothing
    steps, summary = read_trace(path)
    assert summary is None and steps[0]["signals"] == [["url", "a -> b"]] and steps[0]["type"] == "step"
    d = diagnose([_step(1)], 1)
    writer.summary(Summary("t1", "success", True, "cart matches", "done", "signals", "default", "scripted", 1.5, d))
    writer.close()
    steps, summary = read_trace(path)
    assert summary is not None and summary["status"] == "success"
    assert summary["diagnostics"]["observations_per_step"] == 1.0
    assert all(json.loads(line) for line in path.read_text().splitlines())


def test_no_path_writes_nothing() -> None:
    with TraceWriter(None) as writer:
        writer.step(_step(1))


def test_read_trace_rejects_garbage(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "step"}\nnot json\n')
    with pytest.raises(ValueError, match="bad.jsonl:2"):
        read_trace(path)


def test_trace_records_hold_references_not_trees() -> None:
    """Issue 13 item 5: a step record keeps the observation's hash and the name of its side
    file, never the tree, its rendering or the view (which would keep a page alive per step)."""
    from dataclasses import asdict, fields

    from pagelens.agent.trace import Diagnostics

    tree_types = ("Observation", "Rendering", "PageView", "FocusResult", "Line", "Node", "HybridView", "bytes")
    for cls in (StepRecord, Summary, Diagnostics):
        for f in fields(cls):
            annotation = f.type if isinstance(f.type, str) else repr(f.type)
            assert not any(t in annotation for t in tree_types), (cls.__name__, f.name, annotation)
    record = _step(1, obs_hash="0123456789abcdef", obs_ref="trace.jsonl.d/obs-000.txt")
    assert {f.name for f in fields(StepRecord)} >= {"obs_hash", "obs_ref"}
    assert len(json.dumps({"type": "step", **asdict(record)})) < 2_000
