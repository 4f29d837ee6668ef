"""``pagelens demo``: the main job on the embedded default, no API key needed.

Serves a bundled shop page on 127.0.0.1, observes it in headless Chromium, and shows the
full tree's size next to what the LLM-free ``default`` retriever keeps for a goal.
"""

from __future__ import annotations

import time
from importlib import resources

import click

DEMO_GOAL = "Add the cheapest Basswell wireless headphones to the cart"


@click.command()
@click.option("--goal", default=DEMO_GOAL, show_default=True)
@click.option("--retriever", default="default", show_default=True)
def demo(goal: str, retriever: str) -> None:
    """Observe a bundled page and focus it on a goal with the embedded default retriever."""
    from rich.console import Console
    from rich.table import Table

    from pagelens.api import focus_view
    from pagelens.browser.serve import serve_file
    from pagelens.browser.session import BrowserSession

    console = Console()
    page = resources.files("pagelens.assets").joinpath("demo_shop.html")
    with resources.as_file(page) as path, serve_file(path) as url, BrowserSession() as session:
        with session.episode() as episode:
            episode.goto(url)
            time.sleep(0.5)  # let the page's cookie banner appear, as it would for an agent
            obs = episode.observe()
            view = focus_view(obs, goal=goal, retriever=retriever)
    assert view.focused is not None
    fr = view.focused
    console.rule(f"[bold]focused observation[/] — goal: {goal}")
    console.print(fr.text(), markup=False, highlight=False, soft_wrap=True)
    table = Table(title="What the agent sees")
    for col in ("", "lines", "o200k tokens"):
        table.add_column(col, justify="right" if col else "left")
    table.add_row("full tree", str(len(view.rendering)), str(fr.full_tokens))
    table.add_row(f"focused ({fr.retriever})", str(len(fr.kept)), str(fr.focused_tokens))
    console.print(table)
    console.print(
        f"pruned {fr.pruning:.0%} of the tokens; extract {obs.timings.get('extract', 0) * 1000:.0f} ms, "
        f"focus {view.timings.get('focus', 0) * 1000:.0f} ms"
        + (f"; focus failed: {fr.error}" if fr.error else "")
    )
