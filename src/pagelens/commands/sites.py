"""``pagelens sites serve``: run the bundled sites in the foreground."""

from __future__ import annotations

import threading

import click


@click.group()
def sites() -> None:
    """The bundled benchmark sites (shop, forum, admin, attacker)."""


@sites.command()
@click.option("--seed", type=int, default=0, show_default=True, help="Data seed.")
@click.option("--port-base", type=click.IntRange(1024, 65530), default=None,
              help="Fixed ports: shop=N, forum=N+1, admin=N+2, attacker=N+3 (default: ephemeral).")
@click.option("--session-ttl", type=float, default=3600.0, show_default=True, help="Login session lifetime (s).")
def serve(seed: int, port_base: int | None, session_ttl: float) -> None:
    """Serve the sites on 127.0.0.1 and print their URLs; stop with Ctrl-C."""
    from pagelens.bench.sites import start_sites

    with start_sites(seed=seed, port_base=port_base, session_ttl=session_ttl) as running:
        for name in running.names:
            click.echo(f"{name:9} {running.base_url(name)}")
        click.echo("site: specs resolve against these URLs; Ctrl-C to stop")
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            click.echo("stopping")
