"""``pagelens bench SUITE --out DIR``: resumable benchmark runs, a summary table and ``DIR/report.html``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

SUITES = ("cases", "miniwob", "tasks")
DEFAULT_RETRIEVERS = ("full", "default", "truncate", "bm25-200")


@click.command()
@click.argument("suite", type=click.Choice(SUITES))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Results directory; rerunning with the same DIR resumes where it stopped.")
@click.option("--retriever", "retrievers", multiple=True, metavar="NAME",
              help=f"Retriever (repeatable). Default: {', '.join(DEFAULT_RETRIEVERS)}.")
@click.option("--policy", "policies", multiple=True, type=click.Choice(["scripted", "llm"]),
              help="tasks: policy (repeatable). Default: scripted.")
@click.option("--observe", "observe_modes", multiple=True, type=click.Choice(["signals", "delta", "every-step"]),
              help="tasks: observation mode (repeatable). Default: signals.")
@click.option("--seeds", type=click.IntRange(1, 100), default=2, show_default=True, help="miniwob: seeds per task.")
@click.option("--task", "tasks", multiple=True, metavar="NAME", help="miniwob / tasks: only these tasks (repeatable).")
@click.option("--tag", "tags", multiple=True, metavar="TAG", help="tasks: only tasks with this tag (repeatable).")
@click.option("--task-file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="tasks: run the tasks of this TOML file instead of the bundled ones "
                   "(format: pagelens.bench.taskfile).")
@click.option("--workers", type=click.IntRange(1, 16), default=1, show_default=True,
              help="Processes, each with its own browser.")
@click.option("--limit", type=click.IntRange(1), help="Only the first N cases / MiniWoB tasks / bundled tasks.")
@click.option("--cases", "cases_file", type=click.Path(dir_okay=False, path_type=Path),
              help="cases: a JSONL cases file (default: the bundled cases).")
@click.option("--pages", "pages_dir", type=click.Path(file_okay=False, path_type=Path),
              help="cases: directory the pages are relative to (default: next to the cases file).")
@click.option("--timeout", "timeout_s", type=float, default=60.0, show_default=True, help="miniwob: seconds per episode.")
@click.option("--retry-failed", is_flag=True, help="Run again the units recorded as error or timeout.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="local: processes on this machine; ray: one Ray actor per worker (pip install 'pagelens[ray]').")
@click.option("--address", metavar="ADDR",
              help="ray: a running cluster ('auto' or HOST:PORT); default: a private one on 127.0.0.1.")
@click.option("--retries", type=click.IntRange(0, 10), default=1, show_default=True,
              help="Times a unit whose worker process died is run again before it is recorded as an error.")
@click.option("--no-report", is_flag=True, help="Do not write DIR/report.html.")
def bench(suite: str, out_dir: Path, retrievers: tuple[str, ...], policies: tuple[str, ...],
          observe_modes: tuple[str, ...], seeds: int, tasks: tuple[str, ...], tags: tuple[str, ...],
          task_file: Path | None, workers: int, limit: int | None, cases_file: Path | None, pages_dir: Path | None, timeout_s: float, retry_failed: bool,
          backend: str, address: str | None, retries: int, no_report: bool) -> None:
    """Run SUITE (cases, miniwob or tasks) and append one JSONL row per unit of work to DIR/results.jsonl."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from pagelens.bench.runner import run_suite
    from pagelens.focus.registry import canonical

    names = retrievers or DEFAULT_RETRIEVERS
    for n in names:
        canonical(n)  # one clear ConfigError before anything starts
    out_dir.mkdir(parents=True, exist_ok=True)
    suite_obj = _suite(suite, out_dir, names, policies, observe_modes, seeds, tasks, limit, cases_file, pages_dir,
                       timeout_s, tags, task_file)
    console = Console(stderr=True)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[last]}"))
    with Progress(*columns, console=console, transient=True) as progress:
        bar = progress.add_task(suite, total=None, last="")

        def advance(unit: Any, done: int, total: int) -> None:
            progress.update(bar, completed=done, total=total, last=unit.label[:50])

        stats = run_suite(suite_obj, out_dir, workers=workers, progress=advance, retry_failed=retry_failed,
                          backend=backend, address=address, retries=retries)
    console.print(f"{suite} ({backend}): {stats.units} units, {stats.skipped} already done, {stats.ran} run "
                  f"({stats.errors} failed), {stats.rows_written} rows written in {stats.seconds} s")
    _print_summary(stats.rows, suite)
    if not no_report:
        from pagelens.report.html import write_report

        path = write_report(out_dir)
        console.print(f"report: {path}")
    console.print(f"results: {out_dir / 'results.jsonl'}")


def _suite(suite: str, out_dir: Path, names: tuple[str, ...], policies: tuple[str, ...],
           observe_modes: tuple[str, ...], seeds: int, tasks: tuple[str, ...], limit: int | None,
           cases_file: Path | None, pages_dir: Path | None, timeout_s: float, tags: tuple[str, ...] = (),
           task_file: Path | None = None) -> Any:
    from pagelens.bench import suites

    if (tags or task_file) and suite != "tasks":
        raise click.UsageError("--tag and --task-file are for the tasks suite")

    if suite == "cases":
        from pagelens.bench.cases import bundled_paths

        default_file, default_pages = bundled_paths()
        path = cases_file or default_file
        if not path.is_file():
            raise click.BadParameter(f"no cases file at {path}", param_hint="--cases")
        return suites.CasesSuite(out_dir.resolve(), names, path, pages_dir or (default_pages if cases_file is None
                                                                              else path.parent), limit)
    if suite == "miniwob":
        from pagelens.bench.miniwob_env import _require_browsergym

        _require_browsergym()
        return suites.MiniwobSuite(names, seeds, limit, tasks, timeout_s)
    return suites.TasksSuite(out_dir.resolve(), names, policies or ("scripted",), observe_modes or ("signals",), limit,
                             only=tuple(tasks), tags=tuple(tags),
                             task_file=task_file.resolve() if task_file else None)


def _print_summary(rows: list[dict[str, Any]], suite: str) -> None:
    from rich.console import Console
    from rich.table import Table

    from pagelens.bench.summary import skipped_tasks, summarize

    figures = summarize(rows).get(suite, {})
    if not figures:
        return
    cols = list(next(iter(figures.values())).keys())
    table = Table(title=f"{suite}: per retriever")
    table.add_column("retriever")
    for c in cols:
        table.add_column(c, justify="right")
    for name, s in figures.items():
        table.add_row(name, *(_fmt(c, s[c]) for c in cols))
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)  # logs and pipes: do not squeeze the figures
    console.print(table)
    if suite == "miniwob":
        skipped = skipped_tasks(rows)
        if skipped:
            reasons: dict[str, list[str]] = {}
            for task, why in skipped.items():
                reasons.setdefault(why, []).append(task)
            for why, ts in reasons.items():
                console.print(f"[dim]{len(ts)} task(s) {why}: {', '.join(ts[:8])}{' …' if len(ts) > 8 else ''}[/dim]")


def _fmt(col: str, value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float) and col in ("pruning", "retention", "recall", "case_recall", "oracle_success",
                                             "injection_retained", "success"):
        return f"{value:.1%}" if col == "pruning" else f"{value:.3f}"
    if isinstance(value, float):
        return f"{value:,.1f}"
    return str(value)
