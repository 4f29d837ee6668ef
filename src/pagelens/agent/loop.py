"""The agent loop: observe → decide → execute the planned sequence → signals → trace.

``observe_mode="signals"`` runs a policy's whole action sequence without looking at the page
again until the :class:`~pagelens.signals.detector.SignalDetector` fires (or the policy asks
for a fresh look); ``"delta"`` does the same, but a re-observation is sent as the changes
since the last view, or as the new view with the lines the policy already has folded
(:mod:`pagelens.focus.delta`; ids of unchanged elements are carried across documents)
whenever that is cheaper than the view, all in the tracker's compact text (single-space
nesting, folds ``= [A] +N``; the prompt shows exactly what was sent); ``"every-step"`` re-observes after every action and runs only the first
action of each reply (the classic one-observation-per-action agent). The detector runs in
both modes, so an every-step trace also shows what signal-driven observation would have missed.

Every error ends up in exactly one place:

* feed back and retry — a reply that cannot be parsed (``parse_error``, at most
  ``max_parse_errors`` in a row), an invalid or failed action, a planning command that does
  not apply, a budget refusal (the feedback says so; three in a row end the episode);
* end the episode with a named status — ``success`` / ``failure`` (the task's judge after
  ``stop``; ``stopped`` when the task has no judge), ``max_steps``, ``budget``, ``parse_error_limit``,
  ``browser_crashed``, ``page_error``, ``timeout``, ``llm_error``;
* raise — programming errors (and anything unexpected), after the trace is flushed.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from pagelens.actions.executor import VIEW, Budgets, Executor, Feedback
from pagelens.actions.guard import OriginGuard
from pagelens.actions.spec import VISION_ACTIONS, Action
from pagelens.agent.context import PolicyReply, StepContext
from pagelens.agent.planner import PlanTree, pivotal_context
from pagelens.agent.policy import Policy
from pagelens.agent.stages import attribute
from pagelens.agent.trace import (
    Diagnostics,
    EpisodeStatus,
    StepRecord,
    Summary,
    TraceWriter,
    diagnose,
)
from pagelens.errors import ActionError, BrowserCrashed, LLMError, PageError
from pagelens.focus.notices import after_action
from pagelens.focus.view import PageView, focus_view
from pagelens.signals.detector import PAGE_ACTIONS, Signal, SignalDetector

if TYPE_CHECKING:
    from pagelens.browser.screenshot import ScreenshotConfig
    from pagelens.browser.session import BrowserSession, Episode
    from pagelens.focus.base import Retriever
    from pagelens.focus.delta import ViewTracker
    from pagelens.focus.notices import Solicited
    from pagelens.task import Task
    from pagelens.vision.crosscheck import CrossCheck
    from pagelens.vision.hybrid import HybridView
    from pagelens.vision.verify import Verifier

__all__ = ["DELTA_FOCUS_BUDGET", "EpisodeResult", "ObserveMode", "run_task"]

ObserveMode = Literal["signals", "delta", "every-step"]
#: The focus budget of ``observe_mode="delta"`` (a share of the full tree, as ``focus_budget``).
#: A delta loop sends a page's view once and then only its changes, so the first view of each
#: task is most of what it sends (62% on the bundled tasks at the retriever's 25%); what that
#: view leaves out stays reachable with search_page/expand, whose answers are counted like a
#: view. Recall at this share and the cost of the misses: BENCHMARKS.md, "Delta observations,
#: third pass".
DELTA_FOCUS_BUDGET = 0.15
_MAX_BUDGET_REFUSALS = 3
_MAX_EMPTY_REPLIES = 3
_LATE_CONTENT_MS = 500
_MAX_REPLY_CHARS = 4000
_MAX_VERIFIER_REFUSALS = 2
#: reads cross-checked against the screenshot (OCR) when screenshots are on
_OCR_CHECKED = frozenset({"read_text", "stop"})
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


def run_task(task: Task, *, policy: Policy, retriever: Retriever, session: BrowserSession,
             observe_mode: ObserveMode = "signals", trace_path: str | Path | None = None,
             budgets: Budgets | None = None, max_parse_errors: int = 3, timeout_s: float = 600.0,
             vision: ScreenshotConfig | None = None, pixels: bool = False,
             verifier: Verifier | None = None, focus_budget: float | None = None,
             guard: bool = True) -> EpisodeResult:
    """Run ``task`` from its start page with ``policy``, showing it pages focused by ``retriever``
    (the reference retriever, ``make_retriever("full")``, shows the raw full tree);
    ``task.setup`` runs first, ``task.judge`` after the policy stops.

    ``vision``: every observation also takes a capped screenshot and the hybrid element list
    (the policy gets the last ``vision.keep_last`` of them); ``pixels``: a perceptual hash of
    the screen joins the DOM fingerprint of every action. With a ``trace_path``, the evidence
    the stage attribution points at (observation texts, prompts, screenshots) is written
    beside it, in ``<trace>.d/``. ``verifier``: before a ``stop`` is accepted, an independent
    fresh-context call checks the answer against the final screen; a ``NO`` is fed back (the
    stop becomes ``invalid``) at most ``_MAX_VERIFIER_REFUSALS`` times. ``guard``: refuse navigation
    off the origins the task allows — its start page's, those its goal names and
    ``task.allowed_origins`` (see :mod:`pagelens.actions.guard`).

    ``focus_budget``: the share of the full tree's tokens each focused view may spend
    (:attr:`~pagelens.focus.base.FocusQuery.budget`; None: the retriever's own operating point,
    or :data:`DELTA_FOCUS_BUDGET` with ``observe_mode="delta"``).
    """
    if observe_mode not in ("signals", "delta", "every-step"):
        raise ValueError(f"unknown observe mode {observe_mode!r}")
    if isinstance(retriever, str):
        raise TypeError("run_task takes a Retriever (pagelens.make_retriever(name)), not a name")
    started = time.perf_counter()
    if task.setup is not None:
        task.setup()
    with TraceWriter(trace_path) as trace:
        run = _Run(task, policy, observe_mode, retriever, trace, budgets or Budgets(), max_parse_errors,
                   started + timeout_s, focus_budget)
        run.evidence = Evidence(Path(str(trace_path) + ".d")) if trace_path is not None else None
        run.vision, run.pixels, run.verifier = vision, pixels, verifier
        run.guard = guard
        try:
            status, detail, answer = run.run(session)
        finally:
            run.flush()
        diagnostics = diagnose(run.records, run.observations)
        stages = attribute(run.records, status, detail, diagnostics)
        summary = Summary(task.id, status, status == "success", detail, answer, observe_mode, retriever.name,
                          policy.name, round(time.perf_counter() - started, 3), diagnostics, _usage(policy),
                          stages.as_dict())
        trace.summary(summary)
    return EpisodeResult(task.id, status, status == "success", detail, answer, diagnostics, tuple(run.records),
                         summary.seconds, Path(trace_path) if trace_path is not None else None)


class _Run:
    def __init__(self, task: Task, policy: Policy, mode: ObserveMode, retriever: Retriever,
                 trace: TraceWriter, budgets: Budgets, max_parse_errors: int, deadline: float,
                 focus_budget: float | None = None) -> None:
        self.task, self.policy, self.mode, self.retriever, self.trace = task, policy, mode, retriever, trace
        self.budgets, self.max_parse_errors, self.deadline = budgets, max_parse_errors, deadline
        self.plan = PlanTree(task.goal)
        self.records: list[StepRecord] = []
        self.pending: StepRecord | None = None  # the last step, until we know if it was re-observed
        self.observations = 0
        self.view: PageView | None = None
        self.observed_at = 0
        self.age = 0  # actions run since the observation
        self.unsent_tokens = 0  # tokens of an observation the policy has not been shown yet
        self.tracker: ViewTracker | None = None
        if mode == "delta":
            from pagelens.focus.delta import ViewTracker

            self.tracker = ViewTracker(compact=True)
        self.delta: str | None = None  # the current observation as sent: changes since the previous view
        self.sent_text: str | None = None  # the current observation as sent, when it is a whole view
        self.base_text = ""  # the previous view, when the current one was sent as a delta
        self.keys: frozenset[str] = frozenset()
        #: what the last view told about its notices, marked when the policy acted on the page since: the
        #: dialogs, pop-ups and live regions its own actions opened are shown whole (pagelens.focus.notices)
        self.solicited: Solicited | None = None
        self.step = 0
        self.vision: ScreenshotConfig | None = None
        self.guard = True  # origin allowlist on (run_task sets it)
        self.pixels = False
        self.evidence: Evidence | None = None
        self.executor: Executor | None = None
        self.screens: deque[HybridView] = deque(maxlen=1)
        self.unsent_image_tokens = 0
        self.obs_hash = self.obs_ref = self.shot_ref = ""
        self.verifier: Verifier | None = None
        self.verifier_refusals = 0
        self.focus_budget = DELTA_FOCUS_BUDGET if focus_budget is None and mode == "delta" else focus_budget
        self.revealed: frozenset[int] = frozenset()  # lines of the view brought back by expand/search_page

    # -- the episode -------------------------------------------------------------------------
    def run(self, session: BrowserSession) -> tuple[EpisodeStatus, str, str | None]:
        from pagelens.browser.session import driver_errors

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
        except driver_errors() as exc:  # escaped a page operation: the browser package says which
            error = session.translate(exc)
            return ("browser_crashed" if isinstance(error, BrowserCrashed) else "page_error"), str(error), None
        finally:
            if episode is not None:
                episode.close()

    def _loop(self, episode: Episode) -> tuple[EpisodeStatus, str, str | None]:
        origins = OriginGuard.for_task(self.task.start_url, self.task.goal, self.task.allowed_origins or ())
        executor = self.executor = Executor(episode, self.budgets, guard=origins if self.guard else None)
        detector = SignalDetector(episode)
        episode.goto(self.task.start_url)
        if self.vision is not None:
            self.screens = deque(maxlen=max(1, self.vision.keep_last))
            if self.pixels:
                from pagelens.vision.mask import HysteresisWatch

                executor.pixels = HysteresisWatch()
                executor.pixels.arm(episode)
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
                              self.budgets.max_steps - self.step, self._screen(), self._screens(),
                              self.revealed, self.delta, self.base_text, self.sent_text)
            t0 = time.perf_counter()
            reply = self.policy.decide(ctx)
            decide_s = time.perf_counter() - t0
            evidence = self._reply_evidence(reply)
            if reply.parse_error is not None:
                self.flush()
                self.step += 1
                parse_errors += 1
                self._emit(StepRecord(self.step, "parse_error", None, "parse_error", reply.parse_error,
                                      obs_index=self.observations - 1, obs_age=self.age, obs_tokens=self._take_tokens(),
                                      url=self.view.observation.url, timings={"decide": round(decide_s, 4)},
                                      **evidence))
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
                    episode.pause(_LATE_CONTENT_MS * empty)
                self._observe(episode, detector, "policy")
                feedback, signals = (), ()
                continue
            empty = 0
            ran: list[Feedback] = []
            signals = ()
            for action in reply.actions[:1] if self.mode == "every-step" else reply.actions:
                self.step += 1
                t1 = time.perf_counter()
                fb = executor.execute(action, self.view.observation, view=self.view)
                execute_s = time.perf_counter() - t1
                if fb.status not in ("invalid", "budget"):  # (an action refused before it ran touched nothing)
                    self.solicited = after_action(self.solicited, action.name)
                if fb.status == "control":
                    fb = self._control(fb)
                if action.name == "stop" and fb.status == "control":
                    fb = self._verify(episode, fb)
                ocr: tuple[CrossCheck, ...] = ()
                if self.vision is not None and action.name in _OCR_CHECKED and fb.status in ("done", "control"):
                    fb, ocr = self._ocr_check(episode, action, fb)
                t2 = time.perf_counter()
                signals = () if action.name == "stop" else detector.check(fb)
                detect_s = time.perf_counter() - t2
                ran.append(fb)
                self.flush()
                self.pending = StepRecord(
                    self.step, "action", action.render(), fb.status, fb.message, action.name in PAGE_ACTIONS,
                    fb.changes, tuple((s.kind, s.detail) for s in signals), self.observations - 1, self.age,
                    self._take_tokens(), self.view.full_tokens, url=episode.url,
                    timings={"decide": round(decide_s, 4), "execute": round(execute_s, 4),
                             "detect": round(detect_s, 4)},
                    point=_point(action), ocr=ocr, **evidence)
                decide_s, evidence = 0.0, self._reply_evidence(None)
                if action.name in VIEW and fb.ok:  # its lines are part of what the policy has seen now
                    self.revealed |= frozenset(fb.detail.get("revealed", ()))
                    self.unsent_tokens += int(fb.detail.get("tokens", 0))
                self.plan.record(self.step, action.render(), fb.message,
                                 pivotal_context(self.view.rendering, reply.pivotal) if action is reply.actions[0] else ())
                self.age += action.name not in VIEW  # reading the view again does not age it
                if action.name == "stop" and fb.status == "control":
                    answer = str(action.args.get("answer", ""))
                    if self.task.judge is None:
                        raise _End("stopped", "the policy stopped; the task has no judge", answer)
                    episode.wait_until_idle()  # let in-flight requests land before judging
                    verdict = self.task.judge(answer)
                    raise _End("success" if verdict.success else "failure", verdict.detail, answer)
                refusals = refusals + 1 if fb.status == "budget" else 0
                if refusals >= _MAX_BUDGET_REFUSALS:
                    raise _End("budget", f"{refusals} budget refusals in a row: {fb.message}")
                # the rest of a sequence is dropped after a failure, a refusal or a signal
                if self.step >= self.budgets.max_steps or not fb.ok or (signals and self.mode != "every-step"):
                    break
            feedback = tuple(ran)
            if self.mode == "every-step" and not all(fb.action.name in VIEW for fb in ran):
                # (a view action reads the last observation again: re-observing would replace it)
                self._observe(episode, detector, "every-step")
            elif signals:
                self._observe(episode, detector, "signal")

    # -- helpers -----------------------------------------------------------------------------
    def _observe(self, episode: Episode, detector: SignalDetector, reason: str) -> None:
        t0 = time.perf_counter()
        obs = episode.observe()
        history = tuple(e.action for e in self.plan.scoped_history()[-5:])
        view = focus_view(obs, goal=self.task.goal, retriever=self.retriever, history=history,
                          budget=self.focus_budget, solicited=self.solicited)
        self.solicited = view.focused.solicited if view.focused is not None else None
        sent: int | None = None
        if self.tracker is not None:
            update = self.tracker.update(view, label=f"after step {self.step}")
            view, sent = update.view, update.tokens
            self.delta, self.base_text = ((update.text, update.base_text) if update.kind in ("delta", "fold")
                                          else (None, ""))
            self.sent_text = update.text if update.kind == "view" else None
            if self.evidence is not None:  # what the policy was sent, named by its form
                self.evidence.write(f"sent-{self.observations:03d}-{update.kind}.txt", update.text.encode("utf-8"))
        detector.arm(obs)
        keys = _view_keys(view)
        if self.pending is not None:
            self.pending = replace(self.pending, reobserved=True, reobserve_reason=reason,
                                   view_added=len(keys - self.keys), view_removed=len(self.keys - keys),
                                   timings={**self.pending.timings, "observe": round(time.perf_counter() - t0, 4)})
        self.view, self.keys, self.observed_at, self.age = view, keys, self.step, 0
        self.revealed = frozenset()
        self.observations += 1
        # added, not set: a view the policy answered without an action (it asked to look again)
        # was sent too, and no step record has taken its tokens yet
        self.unsent_tokens += sent if sent is not None else (
            view.focused.focused_tokens if view.focused is not None else view.full_tokens)
        self._record_observation(episode, view)

    # -- vision and evidence -------------------------------------------------------------------
    def _record_observation(self, episode: Episode, view: PageView) -> None:
        text = view.text()
        self.obs_hash = hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]
        n = self.observations - 1
        self.obs_ref = self.evidence.write(f"obs-{n:03d}.txt", text.encode("utf-8")) if self.evidence else ""
        self.shot_ref = ""
        if self.vision is None:
            return
        from pagelens.vision.hybrid import capture_hybrid

        hybrid = capture_hybrid(episode, view.observation, self.vision)
        self.screens.append(hybrid)
        if self.executor is not None:
            self.executor.screen = hybrid.screenshot.geometry
        self.unsent_image_tokens = sum(h.tokens("openai") for h in self.screens)
        if self.evidence is not None:
            self.shot_ref = self.evidence.write(f"obs-{n:03d}.{hybrid.screenshot.format}", hybrid.screenshot.data)

    def _screen(self) -> HybridView | None:
        return self.screens[-1] if self.vision is not None and self.screens else None

    def _screens(self) -> tuple[HybridView, ...]:
        return tuple(self.screens) if self.vision is not None else ()

    def _reply_evidence(self, reply: PolicyReply | None) -> dict[str, Any]:
        """Evidence fields of the next step record (the reply only on a reply's first step)."""
        tokens, self.unsent_image_tokens = self.unsent_image_tokens, 0
        out: dict[str, Any] = {"obs_hash": self.obs_hash, "obs_ref": self.obs_ref, "screenshot": self.shot_ref,
                               "image_tokens": tokens}
        if reply is not None:
            out["reply"] = reply.text[:_MAX_REPLY_CHARS]
            if reply.prompt and self.evidence is not None:
                out["prompt_ref"] = self.evidence.write(f"prompt-{self.step + 1:03d}.txt", reply.prompt.encode("utf-8"))
        return out

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

    def _verify(self, episode: Episode, fb: Feedback) -> Feedback:
        """The independent verifier's word on a stop (a refusal is fed back, bounded)."""
        if self.verifier is None or self.verifier_refusals >= _MAX_VERIFIER_REFUSALS:
            return fb
        answer = str(fb.action.args.get("answer", ""))
        screen = None
        if self.vision is not None:
            from pagelens.vision.hybrid import capture_hybrid

            screen = capture_hybrid(episode, episode.observe(), self.vision)
        verdict = self.verifier.check(self.task.goal, answer, screen, self.view.text() if self.view else "")
        if verdict.ok:
            return fb
        self.verifier_refusals += 1
        return replace(fb, ok=False, status="invalid",
                       message=f"{fb.action.render()}: an independent check of the final screen does not support "
                               f"this answer ({verdict.reason}). Look again, then stop with a corrected answer.")

    def _ocr_check(self, episode: Episode, action: Action, fb: Feedback) -> tuple[Feedback, tuple[CrossCheck, ...]]:
        """Cross-check a read (read_text's numbers, a stop's answer) with OCR of the screen; the
        verdicts join the feedback (:mod:`pagelens.vision.crosscheck`). No OCR installed: no check."""
        from pagelens.vision.crosscheck import check_read
        from pagelens.vision.hybrid import capture_screen
        from pagelens.vision.ocr import OcrUnavailable

        screen = self._screen()
        if screen is None:
            return fb, ()
        fresh = self.age == 0  # the last screenshot still shows the page (nothing acted since)
        box = None
        source: Literal["read_text", "answer"] = "answer"
        text = str(action.args.get("answer", ""))
        if action.name == "read_text":
            source, text = "read_text", str(fb.detail.get("text", ""))
            el = screen.by_eid().get(str(action.args.get("id_or_label", "")).strip().strip("[]")) if fresh else None
            box = (el.x, el.y, el.w, el.h) if el is not None else None
        shot = screen.screenshot if fresh else capture_screen(episode, self.vision)
        try:
            checks = check_read(source, text, shot.data, box=box)
        except OcrUnavailable:
            return fb, ()
        if not checks:
            return fb, ()
        message = fb.message + " " + " ".join(c.sentence() for c in checks)
        return replace(fb, message=message, detail=MappingProxyType({**fb.detail, "ocr": checks})), checks

    def _emit(self, record: StepRecord) -> None:
        self.records.append(record)
        self.trace.step(record)

    def flush(self) -> None:
        if self.pending is not None:
            record, self.pending = self.pending, None
            self._emit(record)


class Evidence:
    """Side files of one trace (observation texts, prompts, screenshots), referenced by name."""

    def __init__(self, root: Path) -> None:
        self.root = root
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)

    def write(self, name: str, data: bytes) -> str:
        (self.root / name).write_bytes(data)
        return f"{self.root.name}/{name}"


def _point(action: Action) -> tuple[int, int] | None:
    if action.name in VISION_ACTIONS and "x" in action.args and "y" in action.args:
        return int(action.args["x"]), int(action.args["y"])
    return None


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


def _usage(policy: Policy) -> dict[str, object]:
    model = getattr(policy, "model", None)
    usage = getattr(model, "usage", None)
    return usage.as_dict() if usage is not None and hasattr(usage, "as_dict") else {}
