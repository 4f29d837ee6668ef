"""``pagelens run TASK`` / ``pagelens run --url URL --goal TEXT`` (one episode, end to end) and
``pagelens tasks`` (the bundled list)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pagelens.focus.registry import NAMES

if TYPE_CHECKING:
    from contextlib import ExitStack

    from rich.table import Table

    from pagelens.agent.loop import EpisodeResult
    from pagelens.bench.tasks import Task as BundledTask
    from pagelens.llm.openai_compat import OpenAICompatModel


def _writable_target(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Fail as a usage error (before any browser starts) when the file cannot be written."""
    import os
    from pathlib import Path

    if value is None:
        return None
    parent = Path(value).expanduser().resolve().parent
    if not parent.is_dir():
        raise click.BadParameter(f"{value}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise click.BadParameter(f"{value}: directory {parent} is not writable")
    return value


_TASK_FILE_HELP = "Tasks from this TOML file instead of the bundled ones (format: pagelens.bench.taskfile)."


def _catalog(seed: int, task_file: str | None) -> tuple[BundledTask, ...]:
    """The bundled tasks, or a user's task file (a TaskFileError names the file and field)."""
    if task_file is not None:
        from pagelens.bench.taskfile import load_task_file

        return load_task_file(task_file, seed)
    from pagelens.bench.task_defs import load_tasks

    return load_tasks(seed)


@click.command()
@click.option("--seed", type=int, default=0, show_default=True, help="Data seed of the sites and tasks.")
@click.option("--task-file", type=click.Path(exists=True, dir_okay=False), help=_TASK_FILE_HELP)
def tasks(seed: int, task_file: str | None) -> None:
    """List the bundled tasks (or a task file's): id, site, kind, plan length, tags and goal."""
    from rich.console import Console
    from rich.table import Table

    table = Table(show_lines=False)
    table.add_column("id", no_wrap=True)
    for col in ("site", "kind", "steps", "tags", "goal"):
        table.add_column(col, overflow="fold")
    for t in _catalog(seed, task_file):
        table.add_row(t.id, t.site or "-", t.kind, str(len(t.plan)), ",".join(t.tags), t.goal)
    Console().print(table)


@click.command()
@click.argument("task_id", metavar="[TASK]", required=False)
@click.option("--url", help="Run on this page instead of a bundled task (a 127.0.0.1 URL or a local HTML file).")
@click.option("--goal", help="The goal for --url, in plain words.")
@click.option("--policy", "policy_name", type=click.Choice(["scripted", "llm"]), default=None,
              help="scripted: the task's reference plan (the default for TASK); llm: an OpenAI-compatible model "
                   "(the default, and the only choice, for --url).")
@click.option("--model", help="Model name for --policy llm (else PAGELENS_LLM_MODEL).")
@click.option("--base-url", help="Endpoint root with /v1 for --policy llm (else PAGELENS_LLM_BASE_URL).")
@click.option("--observe", "observe_mode", type=click.Choice(["signals", "delta", "every-step"]), default="signals",
              show_default=True, help="Re-observe when a signal fires, or after every action.")
@click.option("--retriever", default="default", show_default=True, metavar="NAME", help=f"One of: {', '.join(NAMES)}.")
@click.option("--seed", type=int, default=0, show_default=True, help="Data seed of the sites and tasks.")
@click.option("--task-file", type=click.Path(exists=True, dir_okay=False), help=_TASK_FILE_HELP)
@click.option("--trace", "trace_path", type=click.Path(dir_okay=False, writable=True), callback=_writable_target,
              help="Write the JSONL trace here.")
@click.option("--max-steps", type=click.IntRange(1, 500), default=30, show_default=True)
def run(task_id: str | None, url: str | None, goal: str | None, policy_name: str | None, model: str | None,
        base_url: str | None, observe_mode: str, retriever: str, seed: int, task_file: str | None,
        trace_path: str | None, max_steps: int) -> None:
    """Run the agent on one bundled TASK (judged from the sites' server state), on a TASK of
    --task-file FILE, or on any page with --url URL --goal TEXT (the LLM policy; the episode ends
    when it stops)."""
    from contextlib import ExitStack

    from rich.console import Console

    from pagelens.actions.executor import Budgets
    from pagelens.agent.loop import run_task
    from pagelens.agent.policy import LLMPolicy, Policy, ScriptedPolicy
    from pagelens.browser.session import BrowserSession
    from pagelens.focus.registry import make_retriever
    from pagelens.task import Task

    if (task_id is None) == (url is None):
        raise click.UsageError("give a bundled TASK or --url URL --goal TEXT (not both)")
    if url is not None and task_file is not None:
        raise click.UsageError("--task-file names its tasks' pages; give a TASK of it, not --url")
    if url is not None and not (goal or "").strip():
        raise click.UsageError("--url needs --goal TEXT")
    if url is not None and policy_name == "scripted":
        raise click.UsageError("--policy scripted replays a bundled task's plan; use --policy llm with --url")
    built = make_retriever(retriever)  # ConfigError (one line) before anything starts
    console = Console()
    budgets = Budgets(max_steps=max_steps)
    mode = observe_mode  # click.Choice keeps it to the two modes
    with ExitStack() as stack:
        if url is not None:
            assert goal is not None
            policy: Policy = LLMPolicy(_model(model, base_url))
            task = Task(goal, _page_url(url, stack), id="url")
            console.print(f"[bold]{task.start_url}[/bold]: {task.goal}")
            session = stack.enter_context(BrowserSession())
            result = run_task(task, policy=policy, retriever=built, session=session,
                              observe_mode=mode, trace_path=trace_path, budgets=budgets)  # type: ignore[arg-type]
        else:
            from pagelens.bench.bind import run_bundled
            from pagelens.bench.sites import start_sites
            catalog = _catalog(seed, task_file)
            bundled = {t.id: t for t in catalog}.get(task_id or "")
            if bundled is None:
                see = f"`pagelens tasks --task-file {task_file}`" if task_file else "`pagelens tasks`"
                raise click.BadParameter(f"unknown task {task_id!r}; see {see}", param_hint="TASK")
            if policy_name != "llm" and not bundled.plan:
                raise click.UsageError(f"task {bundled.id} has no plan to replay: use --policy llm")
            policy = LLMPolicy(_model(model, base_url)) if policy_name == "llm" else ScriptedPolicy(bundled.plan)
            console.print(f"[bold]{bundled.id}[/bold]: {bundled.goal}")
            on_sites = bundled.start.startswith("site:")
            sites = stack.enter_context(start_sites(seed)) if on_sites else None
            session = stack.enter_context(BrowserSession())
            result = run_bundled(bundled, policy=policy, observe_mode=mode, retriever=built,  # type: ignore[arg-type]
                                 sites=sites, session=session, trace_path=trace_path, budgets=budgets)
    console.print(_steps_table(result))
    d = result.diagnostics
    colour = "green" if result.success or result.status == "stopped" else "red"
    console.print(f"[{colour}]{result.status}[/{colour}]: {result.detail}" + (
        f" (answer {result.answer!r})" if result.answer else ""))
    saved = 1 - d.obs_tokens_sent / d.full_tokens_every_step if d.full_tokens_every_step else 0.0
    console.print(f"observations/steps: {d.observations}/{d.steps} ({d.observations_per_step:.2f}); observation tokens "
                  f"sent {d.obs_tokens_sent:,} vs full tree every step {d.full_tokens_every_step:,} ({saved:.0%} saved); "
                  f"stale incidents {len(d.stale_incidents)}, missed changes {len(d.missed_changes)}; "
                  f"{result.seconds:.1f} s")
    if trace_path:
        console.print(f"trace: {trace_path}")
    if not (result.success or result.status == "stopped"):
        raise SystemExit(1)


def _page_url(target: str, stack: ExitStack) -> str:
    """A URL as given, or a local HTML file served on 127.0.0.1 for the episode."""
    from pathlib import Path

    from pagelens.browser.serve import serve_file
    from pagelens.errors import PageUnreachable

    if "://" in target:
        return target
    path = Path(target)
    if not path.is_file():
        raise PageUnreachable(f"{target}: no such file (and not a URL)")
    return str(stack.enter_context(serve_file(path)))


def _model(model: str | None, base_url: str | None) -> OpenAICompatModel:
    from pagelens.llm.base import LLMConfig
    from pagelens.llm.openai_compat import OpenAICompatModel

    if model and base_url:
        return OpenAICompatModel(LLMConfig.model_validate({"base_url": base_url, "model": model}))
    env = LLMConfig.from_env()  # ConfigError names what is missing
    return OpenAICompatModel(env.model_copy(update={"base_url": base_url or env.base_url, "model": model or env.model}))


def _steps_table(result: EpisodeResult) -> Table:
    from rich.table import Table

    table = Table(title=f"{result.task_id} ({len(result.steps)} steps)")
    for col in ("#", "action", "feedback", "signals", "observed", "tokens full / sent"):
        table.add_column(col, overflow="fold", justify="right" if col.startswith(("#", "tokens")) else "left")
    for s in result.steps:
        signals = "; ".join(f"{k}: {_cut(d, 40)}" for k, d in s.signals) or "-"
        observed = s.reobserve_reason if s.reobserved else "-"
        message = s.message.removeprefix(f"{s.action}: ") if s.action else s.message
        table.add_row(str(s.step), s.action or "(unparsed reply)", f"{s.status}: {_cut(message, 70)}", signals,
                      observed, f"{s.full_tokens:,} / {s.obs_tokens:,}")
    return table


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
