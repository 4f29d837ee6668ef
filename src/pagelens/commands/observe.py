"""``pagelens observe``: open a page in headless Chromium and print what an agent would see."""

from __future__ import annotations

import json
import sys

import click

from pagelens.focus.registry import NAMES


@click.command()
@click.argument("target", metavar="URL_OR_FILE")
@click.option("--goal", help="Task goal; focuses the tree (with the 'default' retriever unless --retriever).")
@click.option("--retriever", metavar="NAME", help=f"One of: {', '.join(NAMES)} (default: none, or default with --goal).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--refined", is_flag=True, help="AgentOccam-style refined rendering (tables as Markdown, folded lists).")
@click.option("--budget", type=click.IntRange(min=1), default=5000, show_default=True, help="Token budget of the 'truncate' retriever.")
@click.option("--no-defense", is_flag=True, help="Do not remove suspected prompt-injection lines.")
@click.option("--inject", metavar="HTML", help="Insert this HTML after <body> (local files only).")
@click.option(
    "--timeout", "timeout_s", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
    help="Deadline of the observation (default 30). Past it the browser is stopped and an error says so.",
)
@click.option("--screenshot", "screenshot", metavar="FILE", help="Write the capped screenshot (vision extra) and print "
              "the interactive elements with their boxes in screenshot pixels.")
@click.option("--marks", is_flag=True, help="With --screenshot: draw Set-of-Mark boxes and ids on the image.")
@click.option("--extraction", type=click.Choice(["cdp", "walker"]), default=None,
              help="How the page is read: pagelens' in-page walker (one JS pass per frame, the default) or "
                   "Chromium's accessibility tree over CDP (the reference, slower on big pages).")
def observe(
    target: str,
    goal: str | None,
    retriever: str | None,
    fmt: str,
    refined: bool,
    budget: int,
    no_defense: bool,
    inject: str | None,
    timeout_s: float | None,
    screenshot: str | None = None,
    marks: bool = False,
    extraction: str | None = None,
) -> None:
    """Observe URL_OR_FILE (a 127.0.0.1 URL or a local HTML file served on 127.0.0.1)."""
    from pagelens.api import observe as observe_page
    from pagelens.focus.registry import make_retriever

    chosen = None
    if retriever is not None:
        chosen = make_retriever(retriever, budget=budget)
    elif goal:
        chosen = make_retriever("default")
    if screenshot:
        from pagelens.vision.command import observe_screenshot

        observe_screenshot(target, screenshot, marks=marks, goal=goal, retriever=chosen, refined=refined)
        return
    browser_config = None
    if extraction is not None:
        from pagelens.config import BrowserConfig

        browser_config = BrowserConfig(extraction=extraction)  # type: ignore[arg-type]
    view = observe_page(
        target, goal=goal, retriever=chosen, refined=refined, defense=not no_defense, inject=inject, timeout_s=timeout_s,
        browser_config=browser_config,
    )
    if fmt == "text":
        sys.stdout.write(view.text() + "\n")
        if view.focused is not None and view.focused.error:
            click.echo(f"note: focusing failed, full tree shown ({view.focused.error})", err=True)
        return
    obs = view.observation
    by_node = obs.nodes
    fr = view.focused
    shown = fr.kept if fr is not None else None
    payload = {
        "url": obs.url,
        "title": obs.title,
        "retriever": fr.retriever if fr is not None else "full",
        "refined": refined,
        "tokens": {
            "full": view.full_tokens,
            "focused": fr.focused_tokens if fr is not None else view.full_tokens,
            "pruning": round(fr.pruning, 4) if fr is not None else 0.0,
        },
        "lines": [
            {
                "no": ln.no,
                "id": ln.eid,
                "role": ln.role,
                "name": ln.name,
                "depth": ln.depth,
                "text": ln.text,
                "visible": by_node[ln.node].visible,
                "clickable": by_node[ln.node].clickable,
                "region": ln.region,
            }
            for ln in view.rendering.lines
            if shown is None or ln.no in shown
        ],
        "focused_text": fr.text() if fr is not None else None,
        "focus_error": fr.error if fr is not None else None,
        "flags": [
            {"line": f.line, "kind": f.kind, "reason": f.reason, "excerpt": f.excerpt,
             "region": getattr(f, "region", "main")} for f in (fr.flags if fr else ())
        ],
        "defense_unprotected": fr.unprotected if fr is not None else None,
        "frame_errors": dict(obs.frame_errors),
        "timings_ms": {k: round(v * 1000, 2) for k, v in view.timings.items()},
        "focused_element": obs.focused,
    }
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
