"""The episode trace: one JSON line per step, a summary line at the end.

Every line is flushed as soon as it is written, so a crash (of the browser, or of the whole
process) never loses the steps already taken. The summary carries a named status and the
observation-level diagnostics that terminal success hides (SDO §3.1, "trace diagnostics"):

* observations taken vs steps, observation tokens sent vs what a full-tree-every-step agent
  would have been sent;
* stale-observation incidents — a page action that failed (``failed`` / ``invalid``) while
  the agent was acting on an observation older than its previous action;
* missed changes found in hindsight — a signal-free step after which the next observation
  differed from the previous one (elements appeared or disappeared) although nothing that
  fired in between explains it (no URL change, new widget or exogenous event).

Record shapes (``"type"`` tells them apart)::

    {"type": "step", "step": 3, "kind": "action", "action": "click('12')", "status": "done", ...}
    {"type": "summary", "status": "success", "success": true, "diagnostics": {...}, ...}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, Self

if TYPE_CHECKING:
    from pagelens.vision.crosscheck import CrossCheck

__all__ = [
    "EXPLAINING_SIGNALS",
    "STATUSES",
    "Diagnostics",
    "EpisodeStatus",
    "StepRecord",
    "Summary",
    "TraceWriter",
    "diagnose",
    "read_trace",
]

EpisodeStatus = Literal[
    "success", "failure", "stopped", "max_steps", "budget", "parse_error_limit", "browser_crashed", "page_error",
    "timeout", "llm_error",
]
STATUSES: tuple[str, ...] = EpisodeStatus.__args__  # type: ignore[attr-defined]
StepKind = Literal["action", "parse_error"]
#: Signals that account for a changed page on re-observation (a failure does not: it only
#: says the agent's belief was wrong).
EXPLAINING_SIGNALS = frozenset({"url", "new_widget", "exogenous"})
_FAILED = frozenset({"failed", "invalid"})


@dataclass(frozen=True, slots=True)
class StepRecord:
    step: int
    kind: StepKind
    action: str | None  # rendered action; None for a parse error
    status: str  # feedback status (done, no_change, failed, invalid, budget, control) or parse_error
    message: str
    page_action: bool = False  # the action touched the page (not note/branch/prune/stop/read)
    changes: tuple[str, ...] = ()  # fingerprint diff, e.g. ("url", "node_count")
    signals: tuple[tuple[str, str], ...] = ()  # (kind, detail) fired after the action
    obs_index: int = 0  # which observation (0-based) the action was decided on
    obs_age: int = 0  # actions executed since that observation, before this one
    obs_tokens: int = 0  # tokens of the observation sent with this step's decision (0: reused)
    full_tokens: int = 0  # tokens of the full tree of the page the decision was made on
    reobserved: bool = False  # a new observation was taken right after this step
    reobserve_reason: str = ""  # "signal", "every-step" or "policy"
    view_added: int = 0  # on re-observation: elements added vs the previous observation
    view_removed: int = 0
    url: str = ""
    timings: Mapping[str, float] = field(default_factory=dict)  # seconds: decide, execute, detect, observe
    image_tokens: int = 0  # estimated tokens of the screenshots sent with this decision (OpenAI formula)
    screenshot: str = ""  # file of the screenshot the decision was made on (relative to the trace)
    point: tuple[int, int] | None = None  # a coordinate action's point, in that screenshot's pixels
    # evidence for stage attribution (pagelens.agent.stages): what the model was shown and said
    reply: str = ""  # the policy's raw reply (capped), for the first action of a reply / a parse error
    prompt_ref: str = ""  # file holding the prompt (relative to the trace), when the policy reported one
    obs_hash: str = ""  # sha1 of the observation text the decision was made on
    obs_ref: str = ""  # file holding that text (relative to the trace)
    #: OCR cross-checks of what this step read (read_text's numbers, a stop's answer) against
    #: the screenshot, when screenshots are on (pagelens.vision.crosscheck)
    ocr: tuple[CrossCheck, ...] = ()


@dataclass(frozen=True, slots=True)
class Diagnostics:
    steps: int
    observations: int
    obs_tokens_sent: int
    full_tokens_every_step: int  # full-tree tokens of the page behind every step
    stale_incidents: tuple[int, ...]  # step numbers
    missed_changes: tuple[int, ...]  # step numbers
    signals: Mapping[str, int] = field(default_factory=dict)  # kind -> count

    @property
    def observations_per_step(self) -> float:
        return self.observations / self.steps if self.steps else 0.0


@dataclass(frozen=True, slots=True)
class Summary:
    task: str
    status: EpisodeStatus
    success: bool
    detail: str
    answer: str | None
    observe_mode: str
    retriever: str
    policy: str
    seconds: float
    diagnostics: Diagnostics
    usage: Mapping[str, Any] = field(default_factory=dict)  # LLM usage, when an LLM was used
    #: stage attribution of every failed step and of the episode (pagelens.agent.stages)
    stages: Mapping[str, Any] = field(default_factory=dict)


def diagnose(steps: Sequence[StepRecord], observations: int) -> Diagnostics:
    """Observation-level diagnostics of one episode (pure: the trace records are enough)."""
    actions = [s for s in steps if s.kind == "action"]
    stale = tuple(s.step for s in actions if s.page_action and s.status in _FAILED and s.obs_age > 0)
    missed: list[int] = []
    for i, s in enumerate(actions):
        if s.signals:
            continue
        nxt = next((j for j in range(i, len(actions)) if actions[j].reobserved), None)
        if nxt is None:
            continue
        window = actions[i : nxt + 1]
        explained = any(kind in EXPLAINING_SIGNALS for w in window for kind, _ in w.signals)
        changed = actions[nxt].view_added + actions[nxt].view_removed > 0
        if changed and not explained and (s.changes or nxt == i):
            missed.append(s.step)
    counts: dict[str, int] = {}
    for s in actions:
        for kind, _ in s.signals:
            counts[kind] = counts.get(kind, 0) + 1
    return Diagnostics(
        steps=len(actions),
        observations=observations,
        obs_tokens_sent=sum(s.obs_tokens for s in steps),
        full_tokens_every_step=sum(s.full_tokens for s in actions),
        stale_incidents=stale,
        missed_changes=tuple(missed),
        signals=counts,
    )


class TraceWriter:
    """Appends JSON lines to ``path`` (or nowhere, for ``None``), flushing every line."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path is not None else None
        self._fh: IO[str] | None = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = self.path.open("w", encoding="utf-8")

    def _write(self, record: Mapping[str, Any]) -> None:
        if self._fh is None:
            return
        self._fh.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        self._fh.flush()

    def step(self, record: StepRecord) -> None:
        self._write({"type": "step", **asdict(record)})

    def summary(self, summary: Summary) -> None:
        data = asdict(summary)
        data["diagnostics"]["observations_per_step"] = round(summary.diagnostics.observations_per_step, 4)
        self._write({"type": "summary", **data})

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_trace(path: str | Path) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """(step records, summary or None) from a trace file; raises ValueError on a bad line."""
    steps: list[dict[str, Any]] = []
    summary: dict[str, Any] | None = None
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: not JSON ({exc.msg})") from None
        if rec.get("type") == "summary":
            summary = rec
        else:
            steps.append(rec)
    return steps, summary
