"""``pagelens eval-cases``: recall vs pruning of retrievers on labeled cases."""

from __future__ import annotations

from pathlib import Path

import click

BUNDLED = "bundled"


@click.command("eval-cases")
@click.argument("cases_file", required=False, metavar="CASES.jsonl")
@click.option("--pages", "pages_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Directory the cases' pages are relative to (default: the cases file's directory).")
@click.option("--retriever", "retrievers", multiple=True, metavar="NAME",
              help="Retriever to evaluate (repeatable). Default: full, default, truncate, bm25-200, bm25-400.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=Path("eval-cases.json"), show_default=True)
@click.option("--dump", "dump_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--settle", type=float, default=1.0, show_default=True, help="Seconds to wait after load before observing.")
@click.option("--limit", type=int, help="Only the first N cases.")
@click.option("--no-defense", is_flag=True, help="Do not remove suspected injection lines.")
@click.option("--cache", "obs_cache", type=click.Path(file_okay=False, path_type=Path),
              help="Keep each case's observation here and reuse it on later runs (no browser for cached cases).")
@click.option("--budget", type=float, help="FocusQuery.budget for every case (share of the full tree's tokens).")
def eval_cases(cases_file: str | None, pages_dir: Path | None, retrievers: tuple[str, ...], out: Path,
               dump_dir: Path | None, settle: float, limit: int | None, no_defense: bool,
               obs_cache: Path | None, budget: float | None) -> None:
    """Evaluate retrievers on CASES.jsonl (default: the bundled cases)."""
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from pagelens.bench.cases import bundled_paths, load_cases
    from pagelens.bench.evalcases import run_cases, write_result
    from pagelens.focus.registry import make_retriever

    if cases_file is None or cases_file == BUNDLED:
        path, default_pages = bundled_paths()
    else:
        path = Path(cases_file)
        default_pages = path.parent
    cases = load_cases(path)[:limit] if limit else load_cases(path)
    names = retrievers or ("full", "default", "truncate", "bm25-200", "bm25-400")
    built = [make_retriever(n) for n in names]
    console = Console(stderr=True)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("cases", total=len(cases))
        result = run_cases(
            cases, built, pages_dir=pages_dir or default_pages, dump_dir=dump_dir, settle_s=settle,
            progress=lambda n, c: progress.update(task, completed=n, description=f"{c.page[:40]}"),
            defense=not no_defense, obs_cache=obs_cache, budget=budget,
        )
    write_result(result, out)
    table = Table(title=f"{len(cases)} cases from {path.name} ({result['seconds']} s)")
    for col in ("retriever", "recall", "case_recall", "pruning", "injection_retained", "p50 ms", "p95 ms", "fallbacks"):
        table.add_column(col, justify="left" if col == "retriever" else "right")
    for name, s in result["retrievers"].items():
        inj = "-" if s["injection_retained"] is None else f"{s['injection_retained']:.2f}"
        table.add_row(name, f"{s['recall']:.3f}", f"{s['case_recall']:.3f}", f"{s['pruning']:.1%}", inj,
                      f"{s['p50_ms']:.1f}", f"{s['p95_ms']:.1f}", str(s["focus_failures"]))
    Console().print(table)
    if result["page_failures"]:
        console.print(f"[red]{len(result['page_failures'])} case page(s) could not be observed[/]")
        for f in result["page_failures"][:10]:
            console.print(f"  case {f['case']}: {f['error']}")
    console.print(f"results: {out}")
