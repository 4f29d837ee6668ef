"""``pagelens demo``: the main job, end to end, on the embedded default — no API key needed.

Starts the bundled shop on 127.0.0.1, runs a multi-step task in headless Chromium with the
scripted policy (the task's oracle plan, resolved against each live observation), the
LLM-free ``default`` retriever and signal-driven observation, prints the step table, then
runs the same task the classic way (full tree, re-observed after every step) to show what
was saved, and writes ``report.html``. With ``PAGELENS_LLM_BASE_URL`` set, the ``llm``
policy drives instead of the scripted one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

DEMO_TASK = "shop-filter-add"


@click.command()
@click.option("--task", "task_id", default=DEMO_TASK, show_default=True, help="A bundled task (see `pagelens tasks`).")
@click.option("--retriever", default="default", show_default=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("runs/demo"),
              show_default=True)
def demo(task_id: str, retriever: str, out_dir: Path) -> None:
    """Run a bundled task with focus + signal-driven observation and show the savings."""
    from rich.console import Console

    from pagelens.actions.executor import Budgets
    from pagelens.agent.policy import LLMPolicy, Policy, ScriptedPolicy
    from pagelens.bench.bind import run_bundled
    from pagelens.bench.sites import start_sites
    from pagelens.bench.task_defs import load_tasks
    from pagelens.browser.session import BrowserSession
    from pagelens.commands.run import _steps_table
    from pagelens.report.html import write_report

    console = Console()
    task = {t.id: t for t in load_tasks(0)}.get(task_id)
    if task is None:
        raise click.BadParameter(f"unknown task {task_id!r}; see `pagelens tasks`", param_hint="--task")
    use_llm = bool(os.environ.get("PAGELENS_LLM_BASE_URL"))
    policy_name = "llm" if use_llm else "scripted"

    def policy() -> Policy:
        if use_llm:
            from pagelens.llm.openai_compat import client_from_env

            return LLMPolicy(client_from_env())
        return ScriptedPolicy(task.plan)

    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "traces").mkdir(exist_ok=True)
    console.print(f"[bold]{task.id}[/bold] ({policy_name} policy): {task.goal}")
    rows = []
    with start_sites(0) as sites, BrowserSession() as session:
        runs = {}
        for mode, ret in (("signals", retriever), ("every-step", "full")):
            trace = out_dir / "traces" / f"{task.id}.{mode}.{ret}.jsonl"
            result = run_bundled(task, policy=policy(), observe_mode=mode, retriever=ret, sites=sites,  # type: ignore[arg-type]
                                 session=session, trace_path=trace, budgets=Budgets(max_steps=30))
            runs[mode] = result
            d = result.diagnostics
            rows.append({"key": f"tasks:{task.id}:{policy_name}:{mode}:{ret}", "suite": "tasks", "status": "ok",
                         "task": task.id, "policy": policy_name, "observe": mode, "retriever": ret,
                         "success": result.success, "episode_status": result.status, "detail": result.detail,
                         "steps": d.steps, "observations": d.observations, "obs_tokens_sent": d.obs_tokens_sent,
                         "full_tokens_every_step": d.full_tokens_every_step, "seconds": result.seconds,
                         "trace": f"traces/{trace.name}"})
    sdo, classic = runs["signals"], runs["every-step"]
    console.print(_steps_table(sdo))
    with (out_dir / "results.jsonl").open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
    report = write_report(out_dir)
    ds, dc = sdo.diagnostics, classic.diagnostics
    share = ds.obs_tokens_sent / dc.obs_tokens_sent if dc.obs_tokens_sent else 0.0
    console.print(
        f"signals + {retriever}: {'success' if sdo.success else sdo.status}, {ds.steps} steps, "
        f"{ds.observations} observations, {ds.obs_tokens_sent:,} observation tokens sent"
    )
    console.print(
        f"every step + full tree: {'success' if classic.success else classic.status}, {dc.steps} steps, "
        f"{dc.observations} observations, {dc.obs_tokens_sent:,} observation tokens sent"
    )
    console.print(f"[bold]the agent read {share:.0%} of the tokens the classic loop sends[/bold] "
                  f"({1 - share:.0%} saved); report: {report}")
    if not sdo.success:
        raise SystemExit(1)
