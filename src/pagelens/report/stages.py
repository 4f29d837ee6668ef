"""Report parts built from task traces: the per-stage table and per-step screenshots.

Stage counts come from each trace's summary (``stages``, :mod:`pagelens.agent.stages`).
For steps with a coordinate action and a screenshot, a copy of the screenshot with the
action's point drawn is written next to the report (files, never inlined, so the report
stays small); without Pillow the plain screenshot is linked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pagelens.agent.stages import STAGES

__all__ = ["StageRow", "StepShot", "stage_rows", "step_shots"]

MAX_SHOTS = 60


@dataclass(frozen=True, slots=True)
class StageRow:
    label: str
    runs: int
    failed_runs: int
    steps: Mapping[str, int]  # stage -> failed steps
    episodes: Mapping[str, int]  # stage -> failed episodes


@dataclass(frozen=True, slots=True)
class StepShot:
    label: str
    step: int
    action: str
    status: str
    stage: str
    image: str  # path relative to the report


def _load(out_dir: Path, rel: str) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    path = (out_dir / rel).resolve()
    if out_dir.resolve() not in path.parents or not path.is_file():
        return [], None
    steps, summary = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if rec.get("type") == "summary":
            summary = rec
        elif rec.get("type") == "step":
            steps.append(rec)
    return steps, summary


def _task_rows(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [r for r in rows if r.get("suite") == "tasks" and r.get("trace")]


def stage_rows(out_dir: Path, rows: Sequence[Mapping[str, Any]]) -> list[StageRow]:
    """Failed steps and episodes by stage, per retriever / policy / observe mode."""
    acc: dict[str, dict[str, Any]] = {}
    for r in _task_rows(rows):
        _, summary = _load(out_dir, str(r["trace"]))
        if summary is None:
            continue
        label = f"{r.get('retriever')} / {r.get('policy', summary.get('policy'))} / {r.get('observe')}"
        a = acc.setdefault(label, {"runs": 0, "failed": 0, "steps": dict.fromkeys(STAGES, 0),
                                   "episodes": dict.fromkeys(STAGES, 0)})
        a["runs"] += 1
        stages = summary.get("stages") or {}
        for stage, n in (stages.get("counts") or {}).items():
            if stage in a["steps"]:
                a["steps"][stage] += int(n)
        ep = stages.get("episode")
        if ep and ep.get("stage") in a["episodes"]:
            a["failed"] += 1
            a["episodes"][ep["stage"]] += 1
    return [StageRow(k, v["runs"], v["failed"], v["steps"], v["episodes"]) for k, v in acc.items()]


def step_shots(out_dir: Path, rows: Sequence[Mapping[str, Any]], *, limit: int = MAX_SHOTS) -> list[StepShot]:
    """Screenshots of coordinate-action steps with the point drawn (written under ``shots/``)."""
    out: list[StepShot] = []
    shots = out_dir / "shots"
    for r in _task_rows(rows):
        trace_rel = Path(str(r["trace"]))
        steps, summary = _load(out_dir, str(trace_rel))
        stage_of = {s.get("step"): s.get("stage") for s in ((summary or {}).get("stages") or {}).get("steps", [])}
        for s in steps:
            if len(out) >= limit:
                return out
            if not s.get("screenshot") or not s.get("point"):
                continue
            src = (out_dir / trace_rel.parent / str(s["screenshot"])).resolve()
            if out_dir.resolve() not in src.parents or not src.is_file():
                continue
            name = f"{trace_rel.stem}-{int(s['step']):03d}.png"
            rel = f"shots/{name}"
            try:
                from pagelens.vision.marks import draw_point

                shots.mkdir(exist_ok=True)
                (shots / name).write_bytes(draw_point(src.read_bytes(), int(s["point"][0]), int(s["point"][1])))
            except ImportError:
                rel = str(src.relative_to(out_dir.resolve()))
            out.append(StepShot(str(r.get("task")), int(s["step"]), str(s.get("action")), str(s.get("status")),
                                str(stage_of.get(s.get("step")) or "-"), rel))
    return out
