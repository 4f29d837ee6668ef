"""The ``pagelens`` command line.

Subcommands live in :mod:`pagelens.commands` (the shell, on top of every layer) and are
imported only when invoked, so ``pagelens --help`` stays fast and optional extras are never
imported by accident.
Each entry below is ``name -> "module:attribute"`` naming a :class:`click.Command`.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from pagelens.errors import PagelensError

COMMANDS: dict[str, str] = {
    "observe": "pagelens.commands.observe:observe",
    "sites": "pagelens.commands.sites:sites",
    "demo": "pagelens.commands.demo:demo",
    "eval-cases": "pagelens.commands.eval_cases:eval_cases",
    "run": "pagelens.commands.run:run",
    "tasks": "pagelens.commands.run:tasks",
    "bench": "pagelens.commands.bench:bench",
    "report": "pagelens.commands.report:report",
    # further subcommands register here, one line each
}


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=_LazyGroup)
@click.version_option(package_name="pagelens")
def cli() -> None:
    """pagelens: decide what an LLM web agent sees, and when."""


def main(argv: list[str] | None = None) -> None:
    """Console entry point: pagelens errors become one clear line and exit status 1."""
    from pagelens.browser.watchdog import install_interrupt_guard

    install_interrupt_guard()  # Ctrl-C ends the command within ~1.5 s, leaving no Chromium
    try:
        cli.main(args=argv, standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except PagelensError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("PAGELENS_DEBUG"):
            raise
        click.echo(f"error: internal error ({type(exc).__name__}: {exc}); set PAGELENS_DEBUG=1 for details", err=True)
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
