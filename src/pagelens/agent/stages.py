"""Stage attribution (WebFovea): which stage of the round trip each failure belongs to.

Every failed step, and the episode when it did not succeed, gets one stage and its evidence:

``parsing``      the reply could not be turned into a valid action (no Action block, unknown
                 action, wrong argument types); evidence: the raw reply and the parser's error;
``execution``    a valid action did not work on the page (``failed``: covered, hidden, timed
                 out, nothing under the point) or had no effect (``no_change``);
``feedback``     the action's feedback said nothing changed while the next observation showed
                 a change nothing else explains (a missed change, found in hindsight);
``observation``  the decision rested on what the model was (not) shown: an id not in its
                 observation, an action on a stale observation, or a wrong final answer after
                 steps that all worked;
``guardrail``    a budget or limit refused or ended it (step, reload, repeat, read_text budgets,
                 max steps, timeout).

Pure: the trace records and diagnostics are enough (the evidence fields point at the side
files holding the observation text, prompt and screenshot).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pagelens.agent.trace import Diagnostics, StepRecord

__all__ = ["STAGES", "Attribution", "StageReport", "attribute"]

Stage = Literal["parsing", "execution", "feedback", "observation", "guardrail"]
STAGES: tuple[str, ...] = ("parsing", "execution", "feedback", "observation", "guardrail")
_NOT_IN_OBSERVATION = "is not in the current observation"
_VERIFIER_REFUSED = "an independent check of the final screen"


@dataclass(frozen=True, slots=True)
class Attribution:
    step: int | None  # None: the episode
    stage: Stage
    evidence: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class StageReport:
    steps: tuple[Attribution, ...]
    episode: Attribution | None

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(STAGES, 0)
        for a in self.steps:
            out[a.stage] += 1
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "counts": self.counts(),
            "steps": [{"step": a.step, "stage": a.stage, **a.evidence} for a in self.steps],
            "episode": None if self.episode is None else {"stage": self.episode.stage, **self.episode.evidence},
        }


def _evidence(s: StepRecord, why: str) -> dict[str, Any]:
    return {"why": why, "action": s.action, "status": s.status, "message": s.message[:300], "reply": s.reply[:600],
            "prompt_ref": s.prompt_ref, "obs_hash": s.obs_hash, "obs_ref": s.obs_ref, "screenshot": s.screenshot,
            "point": s.point, "obs_age": s.obs_age}


def _step_stage(s: StepRecord, missed: frozenset[int]) -> tuple[Stage, str] | None:
    if s.kind == "parse_error":
        return "parsing", "the reply could not be parsed into an action"
    if s.status == "budget":
        return "guardrail", "a budget refused the action"
    if s.status == "invalid":
        if _VERIFIER_REFUSED in s.message:
            return "guardrail", "the independent verifier did not accept the answer"
        if _NOT_IN_OBSERVATION in s.message:
            return "observation", "the action named an element that was not in the observation it was shown"
        return "parsing", "the action did not match its specification"
    if s.status == "failed":
        if s.page_action and s.obs_age > 0:
            return "observation", "the action failed on an observation older than the previous action (stale)"
        return "execution", "the action could not be carried out on the page"
    if s.step in missed:
        return "feedback", "the feedback reported no change the next observation then showed"
    if s.status == "no_change" and s.page_action:
        return "execution", "the action ran but had no visible effect"
    return None


_GUARDRAIL_END = frozenset({"max_steps", "budget", "timeout"})
_EXECUTION_END = frozenset({"browser_crashed", "page_error"})


def attribute(steps: Sequence[StepRecord], status: str, detail: str, diagnostics: Diagnostics) -> StageReport:
    """Stages of the failed steps and of the episode (None when it succeeded)."""
    missed = frozenset(diagnostics.missed_changes)
    out: list[Attribution] = []
    for s in steps:
        got = _step_stage(s, missed)
        if got is not None:
            out.append(Attribution(s.step, got[0], _evidence(s, got[1])))
    if status == "success":
        return StageReport(tuple(out), None)
    last = out[-1] if out else None
    ev: dict[str, Any] = {"status": status, "detail": detail[:300]}
    stage: Stage
    if status == "parse_error_limit" or status == "llm_error":
        stage = "parsing"
    elif status in _GUARDRAIL_END:
        stage = "guardrail"
    elif status in _EXECUTION_END:
        stage = "execution"
    elif last is not None:  # a failure after failed steps: the last one's stage
        stage, ev["from_step"] = last.stage, last.step
    else:  # every step worked and the result is still wrong: what was seen (or read) misled it
        stage = "observation"
        final = next((s for s in reversed(steps) if s.kind == "action"), None)
        if final is not None:
            ev.update(obs_ref=final.obs_ref, obs_hash=final.obs_hash, screenshot=final.screenshot, reply=final.reply[:600])
    return StageReport(tuple(out), Attribution(None, stage, ev))
