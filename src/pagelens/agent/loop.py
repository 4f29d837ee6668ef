"""The agent loop: observe → decide → execute the planned sequence → signals → trace.

``observe_mode="signals"`` runs a policy's whole action sequence without looking at the page
again until the :class:`~pagelens.signals.detector.SignalDetector` fires (or the policy asks
for a fresh look); ``"every-step"`` re-observes after every action and runs only the first
action of each reply (the classic one-observation-per-action agent). The detector runs in
both modes, so an every-step trace also shows what signal-driven observation would have missed.

Every error ends up in exactly one place:

* feed back and retry — a reply that cannot be parsed (``parse_error``, at most
  ``max_parse_errors`` in a row), an invalid or failed action, a planning command that does
  not apply, a budget refusal (the feedback says so; three in a row end the episode);
* end the episode with a named status — ``success`` / ``failure`` (judged from the sites'
  server state after ``stop``), ``max_steps``, ``budget``, ``parse_error_limit``,
  ``browser_crashed``, ``page_error``, ``timeout``, ``llm_error``;
* raise — programming errors (and anything unexpected), after the trace is flushed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pagelens.actions.executor import Budgets, Executor, Feedback
from pagelens.actions.guard import OriginGuard
from pagelens.agent.planner import PlanTree, pivotal_context
from pagelens.agent.policy import Policy, StepContext
from pagelens.agent.trace import (
    Diagnostics,
    EpisodeStatus,
    StepRecord,
    Summary,
    TraceWriter,
    diagnose,
)
from pagelens.api import PageView, focus_view
from pagelens.errors import ActionError, BrowserCrashed, LLMError, PageError
from pagelens.signals.detector import PAGE_ACTIONS, Signal, SignalDetector

if TYPE_CHECKING:
    from pagelens.bench.sites import Sites
    from pagelens.bench.tasks import Task
    from pagelens.browser.session import BrowserSession, Episode
    from pagelens.focus.base import Retriever

__all__ = ["EpisodeResult", "ObserveMode", "run_task"]

ObserveMode = Literal["signals", "every-step"]
_MAX_BUDGET_REFUSALS = 3
_MAX_EMPTY_REPLIES = 3
_LATE_CONTENT_MS = 500
#: Fields whose text child is their value: typing into them is not an element appearing.
_FIELDS = frozenset({"textbox", "searchbox", "spinbutton", "combobox", "date", "time", "datetime"})


@dataclass(frozen=True, slots=True)
class EpisodeResult:
    task_id: str
    status: EpisodeStatus
    success: bool
    detail: str
    answer: str | None
    diagnostics: Diagnostics
    steps: tuple[StepRecord, ...]
    seconds: float
    trace_path: Path | None


class _End(Exception):
    def __init__(self, status: EpisodeStatus, detail: str, answer: str | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.answer = status, detail, answer


def run_task(task: Task, *, policy: Policy, observe_mode: ObserveMode = "signals", retriever: str = "default",
             sites: Sites, session: BrowserSession, trace_path: str | Path | None = None,
             budgets: Budgets | None = None, max_parse_errors: int = 3, timeout_s: float = 600.0,
             guard: bool = True) -> EpisodeResult:
    """Run ``task`` from its start page with ``policy``; the sites are reset first.

    ``guard``: refuse navigation off the origins the task allows (its start page's and those its goal
    names; see :mod:`pagelens.actions.guard`)."""
    if observe_mode not in ("signals", "every-step"):
        raise ValueError(f"unknown observe mode {observe_mode!r}")
    started = time.perf_counter()
    sites.reset()
    with TraceWriter(trace_path) as trace:
        run = _Run(task, policy, observe_mode, retriever, sites, trace, budgets or Budgets(), max_parse_errors,
                   started + timeout_s, guard)
        try:
            status, detail, answer = run.run(session)
        finally:
            run.flush()
        diagnostics = diagnose(run.records, run.observations)
        summary = Summary(task.id, status, status == "success", detail, answer, observe_mode, retriever, policy.name,
                          round(time.perf_counter() - started, 3), diagnostics, _usage(policy))
        trace.summary(summary)
    return EpisodeResult(task.id, status, status == "success", detail, answer, diagnostics, tuple(run.records),
                         summary.seconds, Path(trace_path) if trace_path is not None else None)


class _Run:
    def __init__(self, task: Task, policy: Policy, mode: ObserveMode, retriever: str, sites: Sites,
                 trace: TraceWriter, budgets: Budgets, max_parse_errors: int, deadline: float,
                 guard: bool = True) -> None:
        self.guard = guard
        self.task, self.policy, self.mode, self.sites, self.trace = task, policy, mode, sites, trace
        self.budgets, self.max_parse_errors, self.deadline = budgets, max_parse_errors, deadline
        self.retriever: Retriever | str = retriever
        if retriever not in ("none", "full"):
            from pagelens.focus.registry import make_retriever

            self.retriever = make_retriever(retriever)
        self.plan = PlanTree(task.goal)
        self.records: list[StepRecord] = []
        self.pending: StepRecord | None = None  # the last step, until we know if it was re-observed
        self.observations = 0
        self.view: PageView | None = None
        self.observed_at = 0
        self.age = 0  # actions run since the observation
        self.unsent_tokens = 0  # tokens of an observation the policy has not been shown yet
        self.keys: frozenset[str] = frozenset()
        self.step = 0

    # -- the episode -------------------------------------------------------------------------
    def run(self, session: BrowserSession) -> tuple[EpisodeStatus, str, str | None]:
        from playwright.sync_api import Error as PlaywrightError

        episode: Episode | None = None
        try:
            episode = session.episode()
            return self._loop(episode)
        except _End as end:
            return end.status, end.detail, end.answer
        except BrowserCrashed as exc:
            return "browser_crashed", str(exc), None
        except PageError as exc:
            return "page_error", str(exc), None
        except LLMError as exc:
            return "llm_error", str(exc), None
        except PlaywrightError as exc:  # untranslated: decide by whether Chromium is still there
            if session.crashed:
                return "browser_crashed", str(exc).splitlines()[0], None
            return "page_error", str(exc).splitlines()[0], None
        finally:
            if episode is not None:
                episode.close()

    def _loop(self, episode: Episode) -> tuple[EpisodeStatus, str, str | None]:
        from pagelens.bench.sites import resolve_site_url

        start = resolve_site_url(self.sites, self.task.start)
        guard = OriginGuard.for_task(start, self.task.goal) if self.guard else None
        executor = Executor(episode, self.budgets, guard=guard)
        detector = SignalDetector(episode)
        episode.goto(start)
        self._observe(episode, detector, "start")
        feedback: tuple[Feedback, ...] = ()
        signals: tuple[Signal, ...] = ()
        parse_error: str | None = None
        parse_errors = refusals = empty = 0
        while True:
            if self.step >= self.budgets.max_steps:
                raise _End("max_steps", f"no stop after {self.budgets.max_steps} steps")
            if time.perf_counter() > self.deadline:
                raise _End("timeout", f"the episode took longer than its time limit ({self.step} steps)")
            assert self.view is not None
            ctx = StepContext(self.task.goal, self.step + 1, self.view, self.observed_at, self.age == 0, feedback,
                              signals, self.plan.tree_text(), self.plan.history_text(), parse_error,
                              self.budgets.max_steps - self.step)
            t0 = time.perf_counter()
            reply = self.policy.decide(ctx)
            decide_s = time.perf_counter() - t0
            if reply.parse_error is not None:
                self.flush()
                self.step += 1
                parse_errors += 1
                self._emit(StepRecord(self.step, "parse_error", None, "parse_error", reply.parse_error,
                                      obs_index=self.observations - 1, obs_age=self.age, obs_tokens=self._take_tokens(),
                                      url=self.view.observation.url, timings={"decide": round(decide_s, 4)}))
                if parse_errors >= self.max_parse_errors:
                    raise _End("parse_error_limit", f"{parse_errors} replies in a row could not be parsed: "
                                                    f"{reply.parse_error}")
                parse_error, feedback, signals = reply.parse_error, (), ()
                continue
            parse_errors, parse_error = 0, None
            if not reply.actions:
                empty += 1
                if empty > _MAX_EMPTY_REPLIES or not reply.needs_observation:
                    raise _End("failure", f"the policy has no action: {reply.thought or reply.text}")
                if self.age == 0:  # a fresh look did not show it: give late content (timers) a moment
                    episode.page.wait_for_timeout(_LATE_CONTENT_MS * empty)
                self._observe(episode, detector, "policy")
                feedback, signals = (), ()
                continue
            empty = 0
            ran: list[Feedback] = []
            signals = ()
            for action in reply.actions[:1] if self.mode == "every-step" else reply.actions:
                self.step += 1
                t1 = time.perf_counter()
                fb = executor.execute(action, self.view.observation)
                execute_s = time.perf_counter() - t1
                if fb.status == "control":
                    fb = self._control(fb)
                t2 = time.perf_counter()
                signals = () if action.name == "stop" else detector.check(fb)
                detect_s = time.perf_counter() - t2
                ran.append(fb)
                self.flush()
                self.pending = StepRecord(
                    self.step, "action", action.render(), fb.status, fb.message, action.name in PAGE_ACTIONS,
                    fb.changes, tuple((s.kind, s.detail) for s in signals), self.observations - 1, self.age,
                    self._take_tokens(), self.view.full_tokens, url=episode.page.url,
                    timings={"decide": round(decide_s, 4), "execute": round(execute_s, 4),
                             "detect": round(detect_s, 4)})
                decide_s = 0.0
                self.plan.record(self.step, action.render(), fb.message,
                                 pivotal_context(self.view.rendering, reply.pivotal) if action is reply.actions[0] else ())
                self.age += 1
                if action.name == "stop" and fb.status == "control":
                    answer = str(action.args.get("answer", ""))
                    verdict = self._judge(episode, answer)
                    raise _End("success" if verdict[0] else "failure", verdict[1], answer)
                refusals = refusals + 1 if fb.status == "budget" else 0
                if refusals >= _MAX_BUDGET_REFUSALS:
                    raise _End("budget", f"{refusals} budget refusals in a row: {fb.message}")
                # the rest of a sequence is dropped after a failure, a refusal or a signal
                if self.step >= self.budgets.max_steps or not fb.ok or (signals and self.mode == "signals"):
                    break
            feedback = tuple(ran)
            if self.mode == "every-step":
                self._observe(episode, detector, "every-step")
            elif signals:
                self._observe(episode, detector, "signal")

    # -- helpers -----------------------------------------------------------------------------
    def _observe(self, episode: Episode, detector: SignalDetector, reason: str) -> None:
        t0 = time.perf_counter()
        obs = episode.observe()
        history = tuple(e.action for e in self.plan.scoped_history()[-5:])
        view = focus_view(obs, goal=self.task.goal, retriever=self.retriever, history=history)
        detector.arm(obs)
        keys = _view_keys(view)
        if self.pending is not None:
            self.pending = replace(self.pending, reobserved=True, reobserve_reason=reason,
                                   view_added=len(keys - self.keys), view_removed=len(self.keys - keys),
                                   timings={**self.pending.timings, "observe": round(time.perf_counter() - t0, 4)})
        self.view, self.keys, self.observed_at, self.age = view, keys, self.step, 0
        self.observations += 1
        self.unsent_tokens = view.focused.focused_tokens if view.focused is not None else view.full_tokens

    def _take_tokens(self) -> int:
        tokens, self.unsent_tokens = self.unsent_tokens, 0
        return tokens

    def _control(self, fb: Feedback) -> Feedback:
        """Apply branch/prune to the plan tree; a command that does not apply becomes invalid."""
        name, args = fb.action.name, fb.action.args
        try:
            if name == "branch":
                new = self.plan.branch(_plan_id(args["parent_id"]), str(args["intent"]), step=self.step)
                return replace(fb, message=f"{fb.action.render()}: plan {new} created and active.")
            if name == "prune":
                active = self.plan.prune(_plan_id(args["plan_id"]), str(args["reason"]))
                return replace(fb, message=f"{fb.action.render()}: pruned; plan {active} is active again.")
        except ActionError as exc:
            return replace(fb, ok=False, status="invalid", message=f"{fb.action.render()}: {exc}")
        return fb

    def _judge(self, episode: Episode, answer: str) -> tuple[bool, str]:
        from pagelens.bench.tasks import check_task

        _quiesce(episode)
        states = {name: self.sites.state(name) for name in self.sites.names}
        result = check_task(self.task, states, answer)
        return result.ok, result.detail

    def _emit(self, record: StepRecord) -> None:
        self.records.append(record)
        self.trace.step(record)

    def flush(self) -> None:
        if self.pending is not None:
            record, self.pending = self.pending, None
            self._emit(record)


def _plan_id(raw: object) -> int:
    try:
        return int(str(raw).strip().strip("[]"))
    except ValueError:
        raise ActionError(f"plan ids are numbers like 0 or 2, not {raw!r}") from None


def _view_keys(view: PageView) -> frozenset[str]:
    """What the agent was shown, as element ids (text lines by their text, a field's value
    text left out): comparing two of these says whether elements appeared or disappeared,
    ignoring value and state changes."""
    kept = view.focused.kept if view.focused is not None else None
    lines = view.rendering.lines
    roles = {ln.no: ln.role.casefold() for ln in lines}
    return frozenset(f"#{ln.eid}" if ln.eid is not None else f"t:{ln.text}"
                     for ln in lines if (kept is None or ln.no in kept)
                     and not (ln.eid is None and roles.get(ln.parent if ln.parent is not None else -1) in _FIELDS))


def _quiesce(episode: Episode) -> None:
    """Let in-flight requests land before the server state is judged (the bundled sites mark
    ``<html data-busy="1">`` while a fetch is pending); never fails."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        episode.page.wait_for_function("() => (document.documentElement.dataset.busy || '0') === '0'", timeout=3000)
    except PlaywrightError:
        pass


def _usage(policy: Policy) -> dict[str, object]:
    model = getattr(policy, "model", None)
    usage = getattr(model, "usage", None)
    return usage.as_dict() if usage is not None and hasattr(usage, "as_dict") else {}
