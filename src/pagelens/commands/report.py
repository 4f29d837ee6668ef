"""``pagelens report DIR``: write ``DIR/report.html`` from a bench results directory."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("out_dir", metavar="DIR", type=click.Path(exists=True, file_okay=False, path_type=Path))
def report(out_dir: Path) -> None:
    """Render DIR/results.jsonl (from `pagelens bench`) as a self-contained DIR/report.html."""
    from pagelens.report.html import write_report

    if not (out_dir / "results.jsonl").is_file():
        raise click.BadParameter(f"no results.jsonl in {out_dir}", param_hint="DIR")
    click.echo(f"report: {write_report(out_dir)}")
