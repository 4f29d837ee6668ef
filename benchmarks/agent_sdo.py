"""Signal-driven observation vs observing every step, on every bundled task.

Each task runs twice with the scripted policy (the task's reference plan, targets resolved
against the live observation), in one process, one Chromium and one set of sites:

* **baseline**: ``--observe every-step`` with the full tree (retriever ``none``) — the classic
  agent that reads the whole page after every action. Its success rate must be 100%: a
  failure here is a broken task or a broken loop, and is reported with its reason;
* **sdo**: ``--observe signals`` with the ``default`` focus — re-observe only when a signal
  fires, and show the focused view.

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

CONFIGS = (("baseline", "every-step", "none"), ("sdo", "signals", "default"))


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


def run(task_ids: list[str] | None, seed: int, trace_dir: Path | None) -> list[Row]:
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
                for task in tasks:
                    if session.crashed:  # one crash must not sink the rest of the run
                        session.close()
                        session = BrowserSession().start()
                    policy = ScriptedPolicy(task.plan)
                    trace = trace_dir / f"{name}-{task.id}.jsonl" if trace_dir else None
                    r = run_bundled(task, policy=policy, observe_mode=mode, retriever=retriever, sites=sites,
                                    session=session, trace_path=trace)
                    d = r.diagnostics
                    rows.append(Row(name, task.id, r.status, r.success, r.detail, d.steps, d.observations,
                                    d.obs_tokens_sent, d.full_tokens_every_step, r.seconds, len(d.stale_incidents),
                                    len(d.missed_changes), list(policy.focus_misses)))
                    mark = "ok " if r.success else "FAIL"
                    print(f"{mark} {name:8} {task.id:28} {r.status:10} steps={d.steps:2} obs={d.observations:2} "
                          f"tokens={d.obs_tokens_sent:7} {r.seconds:6.1f}s", file=sys.stderr, flush=True)
        finally:
            session.close()
    return rows


def table(rows: list[Row]) -> str:
    out = [
        ("| config | observe | retriever | tasks | success | obs tokens / episode (mean) | full-tree every-step "
         "tokens / episode | observations / step | wall s / step | stale incidents | missed changes | focus misses |"),
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, mode, retriever in CONFIGS:
        rs = [r for r in rows if r.config == name]
        if not rs:
            continue
        steps = sum(r.steps for r in rs)
        out.append(
            f"| {name} | {mode} | {retriever} | {len(rs)} | {sum(r.success for r in rs)}/{len(rs)} "
            f"({100 * sum(r.success for r in rs) / len(rs):.0f}%) | {statistics.mean(r.obs_tokens for r in rs):,.0f} "
            f"| {statistics.mean(r.full_every_step for r in rs):,.0f} | {sum(r.observations for r in rs) / steps:.2f} "
            f"| {sum(r.seconds for r in rs) / steps:.2f} | {sum(r.stale for r in rs)} | {sum(r.missed for r in rs)} "
            f"| {sum(len(r.focus_misses) for r in rs)} |")
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
    args = parser.parse_args(argv)
    started = time.perf_counter()
    rows = run(args.tasks.split(",") if args.tasks else None, args.seed, args.traces)
    print(table(rows))
    print(f"\n({len(rows)} episodes in {time.perf_counter() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in rows], indent=1))
    baseline = [r for r in rows if r.config == "baseline"]
    return 0 if baseline and all(r.success for r in baseline) else 1


if __name__ == "__main__":
    sys.exit(main())
