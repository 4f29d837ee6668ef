"""The bundled tasks as :class:`pagelens.task.Task` values: the harness uses the agent like any user.

:func:`bind_task` turns a bundled definition (:class:`pagelens.bench.tasks.Task`) into the seam
the agent loop knows: the ``site:`` start spec resolved against the running sites, the sites'
reset as ``setup``, the server-state checker as ``judge``. :func:`run_bundled` is the one call
the CLI, the demo, the suites and the tests make.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pagelens.bench.sites import ATTACKER, Sites, resolve_site_url
from pagelens.bench.tasks import Task as BundledTask
from pagelens.bench.tasks import check_task
from pagelens.task import Task, Verdict

if TYPE_CHECKING:
    from pagelens.actions.executor import Budgets
    from pagelens.agent.loop import EpisodeResult, ObserveMode
    from pagelens.agent.policy import Policy
    from pagelens.browser.screenshot import ScreenshotConfig
    from pagelens.browser.session import BrowserSession
    from pagelens.focus.base import Retriever
    from pagelens.vision.verify import Verifier

__all__ = ["bind_task", "run_bundled"]


def bind_task(task: BundledTask, sites: Sites | None) -> Task:
    """``task`` on the running ``sites``: reset before the start page, judged from server state.

    A task whose start is a plain URL (a user's task file) needs no sites (``None``); it is judged
    by its answer alone, or not at all when it names no check.
    """
    if task.start.startswith("site:") and sites is None:
        raise ValueError(f"task {task.id} runs on the bundled sites: start them first")

    def judge(answer: str) -> Verdict:
        states = {name: sites.state(name) for name in sites.names} if sites is not None else {}
        result = check_task(task, states, answer)
        return Verdict(result.ok, result.detail)

    origins: tuple[str, ...] | None = None
    if sites is not None and task.start.startswith("site:"):
        names = task.origins if task.origins is not None else tuple(n for n in sites.names if n != ATTACKER)
        origins = tuple(sites.base_url(n) if n in sites.names else n for n in names)
    elif task.origins is not None:
        origins = task.origins
    start = resolve_site_url(sites, task.start) if sites is not None else task.start
    return Task(task.goal, start, id=task.id, allowed_origins=origins, judge=judge if task.check else None,
                setup=sites.reset if sites is not None else None)


def run_bundled(task: BundledTask, *, policy: Policy, sites: Sites | None, session: BrowserSession,
                retriever: Retriever | str = "default", observe_mode: ObserveMode = "signals",
                trace_path: str | Path | None = None, budgets: Budgets | None = None,
                max_parse_errors: int = 3, timeout_s: float = 600.0, vision: ScreenshotConfig | None = None,
                pixels: bool = False, verifier: Verifier | None = None,
                focus_budget: float | None = None) -> EpisodeResult:
    """Run a bundled task on the running sites (reset first) and judge it from their state
    (``vision``/``pixels``/``verifier``: see :func:`pagelens.agent.loop.run_task`)."""
    from pagelens.agent.loop import run_task
    from pagelens.focus.registry import make_retriever

    built = make_retriever(retriever) if isinstance(retriever, str) else retriever
    return run_task(bind_task(task, sites), policy=policy, retriever=built, session=session,
                    observe_mode=observe_mode, trace_path=trace_path, budgets=budgets,
                    max_parse_errors=max_parse_errors, timeout_s=timeout_s, vision=vision, pixels=pixels,
                    verifier=verifier, focus_budget=focus_budget)
