"""``pagelens mcp``: serve pagelens to an MCP client (stdio by default, or streamable HTTP on 127.0.0.1).

Every option can also come from the client's server entry as an environment variable
``PAGELENS_MCP_<OPTION>`` (e.g. ``PAGELENS_MCP_GOAL``, ``PAGELENS_MCP_CAP``).
"""

from __future__ import annotations

import click

from pagelens.focus.registry import NAMES


@click.command(context_settings={"auto_envvar_prefix": "PAGELENS_MCP"})
@click.option("--http", "http_port", type=int, metavar="PORT", help="Serve streamable HTTP on 127.0.0.1:PORT/mcp "
              "instead of stdio.")
@click.option("--chromium", metavar="PATH", help="Chromium executable (else PAGELENS_CHROMIUM, else discovery).")
@click.option("--headless/--headed", default=True, show_default=True)
@click.option("--viewport", default="1280x720", show_default=True, metavar="WxH")
@click.option("--allow-origin", "allowed_origins", multiple=True, metavar="ORIGIN",
              help="An origin navigate may open, e.g. http://127.0.0.1:8000 (repeatable; default: any loopback).")
@click.option("--goal", help="The task the views are focused on (clients can change it with set_goal).")
@click.option("--retriever", default="default", show_default=True, type=click.Choice(NAMES), help="Focus method.")
@click.option("--budget", type=int, default=500, show_default=True, help="Actions per session (executor budget).")
@click.option("--cap", type=int, default=3000, show_default=True, help="Hard token cap (o200k) of every answer.")
@click.option("--view-cap", type=int, default=500, show_default=True,
              help="Tokens a goal-focused view in an answer aims at (0: the retriever's own budget, up to --cap); "
                   "the rest stays reachable with search_page, expand and observe(full=true).")
@click.option("--action-timeout", type=float, default=5.0, show_default=True, help="Seconds per action.")
@click.option("--navigation-timeout", type=float, default=15.0, show_default=True, help="Seconds per navigation.")
@click.option("--semantic-search/--no-semantic-search", default=False, show_default=True,
              help="search_page also matches by meaning (needs the embedding extra; the first miss loads the model).")
@click.option("--visible-marks/--no-visible-marks", default=False, show_default=True,
              help="Mark view lines in the viewport 'visible' (actions scroll their element into view themselves).")
def mcp(http_port: int | None, chromium: str | None, headless: bool, viewport: str, allowed_origins: tuple[str, ...],
        goal: str | None, retriever: str, budget: int, cap: int, view_cap: int, action_timeout: float,
        navigation_timeout: float, semantic_search: bool, visible_marks: bool) -> None:
    """Serve a focused, signal-driven browser to an MCP client."""
    from pydantic import ValidationError

    from pagelens.errors import ConfigError, MissingDependency

    try:
        import mcp as _sdk  # noqa: F401
    except ModuleNotFoundError:
        raise MissingDependency("mcp", "mcp") from None
    from pagelens.mcp.browsing import McpConfig
    from pagelens.mcp.server import run_http, run_stdio

    try:
        width, height = (int(x) for x in viewport.lower().split("x"))
        config = McpConfig(chromium=chromium, headless=headless, viewport_width=width, viewport_height=height,
                           allowed_origins=allowed_origins, goal=goal, retriever=retriever, budget=budget, cap=cap,
                           view_cap=view_cap,
                           action_timeout_s=action_timeout, navigation_timeout_s=navigation_timeout,
                           semantic_search=semantic_search, visible_marks=visible_marks)
    except (ValueError, ValidationError) as exc:
        raise ConfigError(f"invalid option: {str(exc).splitlines()[0]}") from None
    if http_port is not None:
        run_http(config, port=http_port)
    else:
        run_stdio(config)
