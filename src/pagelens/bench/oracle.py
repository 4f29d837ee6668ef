"""Replay a task's reference plan on a live page and judge it from server state.

The oracle proves a task is solvable as written: every step resolves its target with
Playwright role locators (``get_by_role(role, name=..., exact=True).nth(n)``), the way an
agent grounded in the accessibility tree would. It starts from a clean cookie jar on the given
page's context, and resets the sites first unless told not to.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from pagelens.agent.plan import PlanStep
from pagelens.bench.sites import Sites, resolve_site_url
from pagelens.bench.tasks import Task, attack_succeeded, check_task

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


def _locate(page: Page, step: PlanStep) -> Locator:
    assert step.target is not None
    return page.get_by_role(step.target.role, name=step.target.name, exact=True).nth(step.target.nth)  # type: ignore[arg-type]


def _settle(page: Page, timeout_ms: float) -> None:
    """Wait for the document and for the sites' in-flight fetches (AJAX cart, votes)."""
    for _ in range(3):
        try:
            page.wait_for_load_state("domcontentloaded", timeout=timeout_ms)
            page.wait_for_function(_SETTLE_JS, timeout=timeout_ms)
            return
        except PlaywrightTimeout:
            raise
        except PlaywrightError:  # the execution context was replaced by a navigation: wait again
            continue
    page.wait_for_load_state("domcontentloaded", timeout=timeout_ms)


def _run_step(page: Page, sites: Sites, task: Task, step: PlanStep, timeout_ms: float) -> None:
    action, value = step.action, step.value or ""
    if action == "goto":
        url = resolve_site_url(sites, value) if value.startswith(("site:", "http")) else sites.url(task.site, value)
        page.goto(url, timeout=timeout_ms)
    elif action == "go_back":
        page.go_back(timeout=timeout_ms)
    elif action == "click" and step.ensure == "checked":
        _locate(page, step).check(timeout=timeout_ms)
    elif action == "click":
        _locate(page, step).click(timeout=timeout_ms)
    elif action == "fill":
        _locate(page, step).fill(value, timeout=timeout_ms)
        if step.args.get("enter"):
            _locate(page, step).press("Enter", timeout=timeout_ms)
    elif action == "select_option":
        _locate(page, step).select_option(value, timeout=timeout_ms)
    elif action == "hover":
        _locate(page, step).hover(timeout=timeout_ms)
    elif action == "press":
        if step.target is None:
            page.keyboard.press(value)
        else:
            _locate(page, step).press(value, timeout=timeout_ms)
    elif action == "scroll":
        amount = float(step.args.get("amount", 600))
        page.mouse.wheel(0, -amount if value == "up" else amount)
    else:
        raise ValueError(f"the oracle cannot replay {step}")
    if action in ("goto", "go_back", "click", "press") or step.args.get("enter"):
        _settle(page, timeout_ms)


def run_oracle(task: Task, sites: Sites, page: Page, *, reset: bool = True, timeout_ms: float = 5000) -> OracleResult:
    """Execute ``task.plan`` on ``page``, then check the sites' server state."""
    started = time.perf_counter()
    if reset:
        sites.reset()
    page.context.clear_cookies()
    records: list[OracleStep] = []
    answer: str | None = None
    failure = ""
    try:
        page.goto(resolve_site_url(sites, task.start), timeout=timeout_ms)
        _settle(page, timeout_ms)
    except PlaywrightError as exc:
        failure = f"start page failed: {exc.message.splitlines()[0]}"
    for i, step in enumerate(task.plan if not failure else ()):
        if step.action == "stop":
            answer = step.value
            records.append(OracleStep(i, str(step), True, url=page.url))
            break
        t0 = time.perf_counter()
        try:
            _run_step(page, sites, task, step, timeout_ms)
        except PlaywrightError as exc:
            failure = f"step {i} ({step}) failed: {exc.message.splitlines()[0]}"
            records.append(OracleStep(i, str(step), False, failure, page.url, time.perf_counter() - t0))
            break
        records.append(OracleStep(i, str(step), True, url=page.url, seconds=time.perf_counter() - t0))
    states = {name: sites.state(name) for name in sites.names}
    if failure:
        ok, detail = False, failure
    else:
        result = check_task(task, states, answer)
        ok, detail = result.ok, result.detail
    return OracleResult(task.id, ok, detail, answer, attack_succeeded(states), tuple(records),
                        time.perf_counter() - started)
