"""Recoverable pruning on the bundled tasks: starved focus, with and without expand/search_page.

Every configuration runs the scripted policy (each task's reference plan) in signals mode, in
one process, one Chromium and one set of sites. The policy may act **only on elements in the
view it was shown** (``view_only``), as an LLM would: the focused lines, plus the lines an
``expand``/``search_page`` brought back. Without recovery, a target missing from the view
ends the episode (the policy has nothing to act on); with recovery it first calls
``search_page`` with the words of the plan step's target, then expands placeholders in order.

Configurations (``--configs`` picks some; ``full`` is the reference of extra steps/tokens):

* ``full``: the full tree (retriever ``none``): every target is in view;
* ``starved`` / ``starved+recover``: ``truncate`` with ``FocusQuery.budget`` = ``--budget``
  (3% of the full tree's tokens by default);
* ``truncate`` / ``truncate+recover``: ``truncate`` at its own budget (5,000 tokens, the paper's);
* ``default`` / ``default+recover``: the ``default`` ranker at its own operating point;
* ``default@budget`` / ``default@budget+recover``: ``default`` with the budget (only meaningful
  once the ranker honours ``FocusQuery.budget``).

Reported per configuration: success, steps, extra steps vs ``full`` on the same task, view
actions, observation tokens sent per episode (recovered lines included), extra tokens vs
``full``, tokens brought back by recovery, and the shown share of the full tree.

    .venv/bin/python benchmarks/agent_recover.py [--limit 5] [--budget 0.03] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pagelens.agent.trace import StepRecord

#: name -> (retriever, budget or None (own operating point) or "arg" (the --budget), recover)
CONFIGS: dict[str, tuple[str, str | None, bool]] = {
    "full": ("none", None, False),
    "starved": ("truncate", "arg", False),
    "starved+recover": ("truncate", "arg", True),
    "truncate": ("truncate", None, False),
    "truncate+recover": ("truncate", None, True),
    "default": ("default", None, False),
    "default+recover": ("default", None, True),
    "default@budget": ("default", "arg", False),
    "default@budget+recover": ("default", "arg", True),
}
DEFAULT_CONFIGS = ("full", "starved", "starved+recover", "truncate", "truncate+recover", "default", "default+recover")
MAX_STEPS = 60  # the same for every configuration: recovery adds steps, it must not run out of them


@dataclass
class Row:
    config: str
    task: str
    status: str
    success: bool
    detail: str
    steps: int
    view_actions: int
    observations: int
    obs_tokens: int
    recovered_tokens: int
    full_tokens_every_step: int
    #: tokens of the observations shown / their full trees' tokens (None: no step was taken)
    shown_share: float | None
    seconds: float


def run(config_names: list[str], task_ids: list[str] | None, limit: int | None, budget: float, seed: int,
        trace_dir: Path | None) -> list[Row]:
    from pagelens.actions.executor import Budgets
    from pagelens.bench.bind import run_bundled
    from pagelens.agent.policy import ScriptedPolicy
    from pagelens.bench.sites import start_sites
    from pagelens.bench.task_defs import load_tasks
    from pagelens.browser.session import BrowserSession

    tasks = [t for t in load_tasks(seed) if task_ids is None or t.id in task_ids][:limit]
    rows: list[Row] = []
    with start_sites(seed) as sites:
        session = BrowserSession().start()
        try:
            for name in config_names:
                retriever, share, recover = CONFIGS[name]
                focus_budget = budget if share == "arg" else None
                for task in tasks:
                    if session.crashed:
                        session.close()
                        session = BrowserSession().start()
                    policy = ScriptedPolicy(task.plan, view_only=True, recover=recover)
                    trace = trace_dir / f"{name}-{task.id}.jsonl" if trace_dir else None
                    r = run_bundled(task, policy=policy, observe_mode="signals", retriever=retriever, sites=sites,
                                 session=session, trace_path=trace, budgets=Budgets(max_steps=MAX_STEPS),
                                 focus_budget=focus_budget)
                    d = r.diagnostics
                    views = sum(1 for s in r.steps if s.action and s.action.split("(")[0] in ("expand", "search_page"))
                    seen = [s for s in r.steps if s.obs_tokens and s.full_tokens and not _after_view(r.steps, s)]
                    share_of_full = sum(s.obs_tokens for s in seen) / sum(s.full_tokens for s in seen) if seen else None
                    rows.append(Row(name, task.id, r.status, r.success, r.detail, d.steps, views, d.observations,
                                    d.obs_tokens_sent, policy.recovered_tokens, d.full_tokens_every_step,
                                    share_of_full, r.seconds))
                    mark = "ok " if r.success else "FAIL"
                    print(f"{mark} {name:24} {task.id:28} {r.status:10} steps={d.steps:2} views={views:2} "
                          f"tokens={d.obs_tokens_sent:7} {r.seconds:6.1f}s", file=sys.stderr, flush=True)
        finally:
            session.close()
    return rows


def _after_view(steps: Sequence[StepRecord], s: StepRecord) -> bool:
    """A step whose obs_tokens include recovered lines (it follows a view action)."""
    i = steps.index(s)
    prev = steps[i - 1] if i else None
    return prev is not None and bool(prev.action) and str(prev.action).split("(")[0] in ("expand", "search_page")


def _share(rs: list[Row]) -> str:
    shares = [r.shown_share for r in rs if r.shown_share is not None]
    return f"{statistics.mean(shares):.1%}" if shares else "—"


def table(rows: list[Row], config_names: list[str], budget: float) -> str:
    ref = {r.task: r for r in rows if r.config == "full"}
    out = [
        ("| config | retriever | budget | recovery | tasks | success | steps / episode | extra steps vs full "
         "| view actions / episode | obs tokens / episode | vs full | recovered tokens / episode | view share |"),
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in config_names:
        rs = [r for r in rows if r.config == name]
        if not rs:
            continue
        retriever, share, recover = CONFIGS[name]
        ok = [r for r in rs if r.success and r.task in ref]
        extra = statistics.mean(r.steps - ref[r.task].steps for r in ok) if ok and name != "full" else 0.0
        full_tokens = statistics.mean(ref[r.task].obs_tokens for r in rs) if all(r.task in ref for r in rs) else 0
        tok = statistics.mean(r.obs_tokens for r in rs)
        vs = f"{tok / full_tokens:.1%}" if full_tokens else "—"
        out.append(
            f"| {name} | {retriever} | {f'{budget:.0%}' if share == 'arg' else 'own'} | {'yes' if recover else 'no'} "
            f"| {len(rs)} | {sum(r.success for r in rs)}/{len(rs)} ({100 * sum(r.success for r in rs) / len(rs):.0f}%) "
            f"| {statistics.mean(r.steps for r in rs):.1f} | {extra:+.1f} (successes) "
            f"| {statistics.mean(r.view_actions for r in rs):.1f} | {tok:,.0f} | {vs} "
            f"| {statistics.mean(r.recovered_tokens for r in rs):,.0f} | {_share(rs)} |")
    failures = [r for r in rows if not r.success]
    if failures:
        out += ["", "Failures:", ""]
        out += [f"- {r.config} `{r.task}`: {r.status} — {r.detail[:160]}" for r in failures]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--configs", help=f"comma-separated, from {', '.join(CONFIGS)} "
                                          f"(default: {','.join(DEFAULT_CONFIGS)})")
    parser.add_argument("--tasks", help="comma-separated task ids (default: all)")
    parser.add_argument("--limit", type=int, help="only the first N tasks")
    parser.add_argument("--budget", type=float, default=0.03, help="the starved share of the full tree (0.03)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="write every episode here")
    parser.add_argument("--traces", type=Path, help="write one JSONL trace per episode into this directory")
    args = parser.parse_args(argv)
    names = args.configs.split(",") if args.configs else list(DEFAULT_CONFIGS)
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        parser.error(f"unknown config(s) {', '.join(unknown)}; choose from {', '.join(CONFIGS)}")
    if not 0 < args.budget <= 1:
        parser.error("--budget is a share of the full tree: 0 < budget <= 1")
    started = time.perf_counter()
    rows = run(names, args.tasks.split(",") if args.tasks else None, args.limit, args.budget, args.seed, args.traces)
    print(table(rows, names, args.budget))
    print(f"\n({len(rows)} episodes in {time.perf_counter() - started:.0f} s)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
