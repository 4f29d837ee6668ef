"""Signal-driven observation vs observing every step, on every bundled task.

Each task runs twice with the scripted policy (the task's reference plan, targets resolved
against the live observation), in one process, one Chromium and one set of sites:

* **baseline**: ``--observe every-step`` with the full tree (retriever ``none``) — the classic
  agent that reads the whole page after every action. Its success rate must be 100%: a
  failure here is a broken task or a broken loop, and is reported with its reason;
* **sdo**: ``--observe signals`` with the ``default`` focus — re-observe only when a signal
  fires, and show the focused view;
* **delta**: ``--observe delta`` with the ``default`` focus — the same signals, but a
  re-observation is sent as the changes since the last view when that is cheaper
  (:mod:`pagelens.focus.delta`), at the loop's delta operating point
  (:data:`pagelens.agent.loop.DELTA_FOCUS_BUDGET`);
* **delta-strict** (opt-in, ``--configs``): the same, but the policy may act only on elements
  it was shown (the view, and what its ``search_page``/``expand`` calls brought back, whose
  tokens count): what a focus miss costs an agent that cannot see past the view.

Reported per configuration: success rate, observation tokens sent per episode (and what a
full-tree-every-step agent would have been sent on the same steps), observations per step,
wall time per step, stale-observation incidents, missed changes found in hindsight and, for
the sdo run, plan targets missing from the focused view. Prints a Markdown table; ``--json``
also writes every episode.

    .venv/bin/python benchmarks/agent_sdo.py [--tasks shop-search-qty,forum-upvote] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

CONFIGS = (("baseline", "every-step", "none"), ("sdo", "signals", "default"), ("delta", "delta", "default"),
           ("delta-strict", "delta", "default"))
#: Configurations whose policy may act only on what it was shown (recovering with search_page/expand).
STRICT = frozenset({"delta-strict"})
#: Run unless --configs names others (delta-strict is opt-in: it answers a different question).
DEFAULT_CONFIGS = ("baseline", "sdo", "delta")


@dataclass
class Row:
    config: str
    task: str
    status: str
    success: bool
    detail: str
    steps: int
    observations: int
    obs_tokens: int
    full_every_step: int
    seconds: float
    stale: int
    missed: int
    focus_misses: list[str] = field(default_factory=list)
    view_actions: int = 0  # search_page/expand calls of a strict policy (their tokens are in obs_tokens)


def run(task_ids: list[str] | None, seed: int, trace_dir: Path | None, configs: list[str] | None = None,
        focus_budget: float | None = None) -> list[Row]:
    from pagelens.agent.policy import ScriptedPolicy
    from pagelens.bench.bind import run_bundled
    from pagelens.bench.sites import start_sites
    from pagelens.bench.task_defs import load_tasks
    from pagelens.browser.session import BrowserSession

    tasks = [t for t in load_tasks(seed) if task_ids is None or t.id in task_ids]
    rows: list[Row] = []
    with start_sites(seed) as sites:
        session = BrowserSession().start()
        try:
            for name, mode, retriever in CONFIGS:
                if name not in (configs if configs is not None else DEFAULT_CONFIGS):
                    continue
                for task in tasks:
                    if session.crashed:  # one crash must not sink the rest of the run
                        session.close()
                        session = BrowserSession().start()
                    strict = name in STRICT
                    policy = ScriptedPolicy(task.plan, view_only=strict, recover=strict)
                    trace = trace_dir / f"{name}-{task.id}.jsonl" if trace_dir else None
                    r = run_bundled(task, policy=policy, observe_mode=mode, retriever=retriever, sites=sites,
                                    session=session, trace_path=trace,
                                    focus_budget=focus_budget if retriever != "none" else None)
                    d = r.diagnostics
                    rows.append(Row(name, task.id, r.status, r.success, r.detail, d.steps, d.observations,
                                    d.obs_tokens_sent, d.full_tokens_every_step, r.seconds, len(d.stale_incidents),
                                    len(d.missed_changes), list(policy.focus_misses), len(policy.recoveries)))
                    mark = "ok " if r.success else "FAIL"
                    print(f"{mark} {name:8} {task.id:28} {r.status:10} steps={d.steps:2} obs={d.observations:2} "
                          f"tokens={d.obs_tokens_sent:7} {r.seconds:6.1f}s", file=sys.stderr, flush=True)
        finally:
            session.close()
    return rows


def table(rows: list[Row]) -> str:
    out = [
        ("| config | observe | retriever | tasks | success | obs tokens / episode (mean) | full-tree every-step "
         "tokens / episode | share of baseline tokens | observations / step | wall s / step | stale incidents | missed changes | focus misses | view actions / episode |"),
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    base_rows = {r.task: r.obs_tokens for r in rows if r.config == "baseline"}
    for name, mode, retriever in CONFIGS:
        rs = [r for r in rows if r.config == name]
        if not rs:
            continue
        steps = sum(r.steps for r in rs)
        paired = [r for r in rs if r.task in base_rows]
        share = (f"{100 * sum(r.obs_tokens for r in paired) / max(1, sum(base_rows[r.task] for r in paired)):.1f}%"
                 if paired else "-")
        out.append(
            f"| {name} | {mode} | {retriever} | {len(rs)} | {sum(r.success for r in rs)}/{len(rs)} "
            f"({100 * sum(r.success for r in rs) / len(rs):.0f}%) | {statistics.mean(r.obs_tokens for r in rs):,.0f} "
            f"| {statistics.mean(r.full_every_step for r in rs):,.0f} | {share} | {sum(r.observations for r in rs) / steps:.2f} "
            f"| {sum(r.seconds for r in rs) / steps:.2f} | {sum(r.stale for r in rs)} | {sum(r.missed for r in rs)} "
            f"| {sum(len(r.focus_misses) for r in rs)} | {sum(r.view_actions for r in rs) / len(rs):.2f} |")
    failures = [r for r in rows if not r.success]
    if failures:
        out += ["", "Failures:", ""]
        out += [f"- {r.config} `{r.task}`: {r.status} — {r.detail}" for r in failures]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", help="comma-separated task ids (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="write every episode here")
    parser.add_argument("--traces", type=Path, help="write one JSONL trace per episode into this directory")
    parser.add_argument("--configs", help="comma-separated configurations to run, of "
                        + ", ".join(c[0] for c in CONFIGS) + " (default: " + ", ".join(DEFAULT_CONFIGS) + ")")
    parser.add_argument("--focus-budget", type=float, help="FocusQuery.budget of every focused view (default: "
                        "the loop's own operating point per observe mode)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    configs = args.configs.split(",") if args.configs else None
    rows = run(args.tasks.split(",") if args.tasks else None, args.seed, args.traces, configs, args.focus_budget)
    print(table(rows))
    print(f"\n({len(rows)} episodes in {time.perf_counter() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in rows], indent=1))
    baseline = [r for r in rows if r.config == "baseline"]
    return 0 if all(r.success for r in baseline) else 1


if __name__ == "__main__":
    sys.exit(main())
