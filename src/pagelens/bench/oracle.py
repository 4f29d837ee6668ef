"""Replay a task's reference plan on a live page and judge it from server state.

The oracle proves a task is solvable as written: every step resolves its target by ARIA role
and exact accessible name (``tab.by_role(role, name, nth=n)``), the way an agent grounded in
the accessibility tree would. It starts from a clean cookie jar on the given tab's context,
and resets the sites first unless told not to.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pagelens.agent.plan import PlanStep
from pagelens.bench.sites import Sites, resolve_site_url
from pagelens.bench.tasks import Task, attack_succeeded, check_task
from pagelens.errors import ActionError, PageError, PageTimeout

if TYPE_CHECKING:
    from pagelens.browser.dom import Element
    from pagelens.browser.page import Tab

_SETTLE_JS = "() => (document.documentElement.dataset.busy || '0') === '0'"


@dataclass(frozen=True, slots=True)
class OracleStep:
    index: int
    step: str
    ok: bool
    error: str = ""
    url: str = ""
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class OracleResult:
    task_id: str
    ok: bool  # the plan ran to the end and the checker accepted the server state
    detail: str
    answer: str | None
    attacked: bool  # the attacker server recorded a hit during the run
    steps: tuple[OracleStep, ...]
    seconds: float


def _locate(tab: Tab, step: PlanStep) -> Element:
    assert step.target is not None
    return tab.by_role(step.target.role, step.target.name, nth=step.target.nth)


def _settle(tab: Tab, timeout_ms: float) -> None:
    """Wait for the document and for the sites' in-flight fetches (AJAX cart, votes)."""
    for _ in range(3):
        try:
            tab.wait_for_load("domcontentloaded", timeout_ms=timeout_ms)
            tab.wait_for(_SETTLE_JS, timeout_ms=timeout_ms)
            return
        except PageTimeout:
            raise
        except (PageError, ActionError):  # the execution context was replaced by a navigation: wait again
            continue
    tab.wait_for_load("domcontentloaded", timeout_ms=timeout_ms)


def _run_step(tab: Tab, sites: Sites, task: Task, step: PlanStep, timeout_ms: float) -> None:
    action, value = step.action, step.value or ""
    if action == "goto":
        url = resolve_site_url(sites, value) if value.startswith(("site:", "http")) else sites.url(task.site, value)
        tab.goto(url, timeout_ms=timeout_ms, wait_until="load")
    elif action == "go_back":
        tab.go_back(timeout_ms=timeout_ms, wait_until="load")
    elif action == "click" and step.ensure == "checked":
        _locate(tab, step).check(timeout_ms=timeout_ms)
    elif action == "click":
        _locate(tab, step).click(timeout_ms=timeout_ms)
    elif action == "fill":
        _locate(tab, step).fill(value, timeout_ms=timeout_ms)
        if step.args.get("enter"):
            _locate(tab, step).press("Enter", timeout_ms=timeout_ms)
    elif action == "select_option":
        _locate(tab, step).select_option(value, timeout_ms=timeout_ms)
    elif action == "hover":
        _locate(tab, step).hover(timeout_ms=timeout_ms)
    elif action == "press":
        if step.target is None:
            tab.press_key(value)
        else:
            _locate(tab, step).press(value, timeout_ms=timeout_ms)
    elif action == "scroll":
        amount = float(step.args.get("amount", 600))
        tab.wheel(0, -amount if value == "up" else amount)
    else:
        raise ValueError(f"the oracle cannot replay {step}")
    if action in ("goto", "go_back", "click", "press") or step.args.get("enter"):
        _settle(tab, timeout_ms)


def run_oracle(task: Task, sites: Sites, tab: Tab, *, reset: bool = True, timeout_ms: float = 5000) -> OracleResult:
    """Execute ``task.plan`` on ``tab`` (``episode.tab``), then check the sites' server state."""
    started = time.perf_counter()
    if reset:
        sites.reset()
    tab.clear_cookies()
    records: list[OracleStep] = []
    answer: str | None = None
    failure = ""
    try:
        tab.goto(resolve_site_url(sites, task.start), timeout_ms=timeout_ms, wait_until="load")
        _settle(tab, timeout_ms)
    except (PageError, ActionError) as exc:
        failure = f"start page failed: {exc}"
    for i, step in enumerate(task.plan if not failure else ()):
        if step.action == "stop":
            answer = step.value
            records.append(OracleStep(i, str(step), True, url=tab.url))
            break
        t0 = time.perf_counter()
        try:
            _run_step(tab, sites, task, step, timeout_ms)
        except (PageError, ActionError) as exc:
            failure = f"step {i} ({step}) failed: {exc}"
            records.append(OracleStep(i, str(step), False, failure, tab.url, time.perf_counter() - t0))
            break
        records.append(OracleStep(i, str(step), True, url=tab.url, seconds=time.perf_counter() - t0))
    states = {name: sites.state(name) for name in sites.names}
    if failure:
        ok, detail = False, failure
    else:
        result = check_task(task, states, answer)
        ok, detail = result.ok, result.detail
    return OracleResult(task.id, ok, detail, answer, attack_succeeded(states), tuple(records),
                        time.perf_counter() - started)
