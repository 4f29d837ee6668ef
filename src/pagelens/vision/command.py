"""``pagelens observe URL --screenshot FILE [--marks]``: the hybrid view from the command line."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from pagelens.focus.base import Retriever

__all__ = ["observe_screenshot"]


def observe_screenshot(target: str, path: str, *, marks: bool, goal: str | None = None,
                       retriever: Retriever | str | None = None, refined: bool = False) -> None:
    from pagelens.vision.hybrid import observe_hybrid
    from pagelens.vision.screenshot import ScreenshotConfig, require_pillow

    require_pillow()
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path else "png"
    fmt = {"jpg": "jpeg", "jpeg": "jpeg", "webp": "webp"}.get(suffix, "png")
    _view, hybrid = observe_hybrid(target, config=ScreenshotConfig(format=fmt), marks=marks,  # type: ignore[arg-type]
                                   goal=goal, retriever=retriever, refined=refined)
    out = hybrid.write(path)
    g = hybrid.screenshot.geometry
    sys.stdout.write(hybrid.text() + "\n")
    click.echo(f"wrote {out} ({g.width}x{g.height} {fmt}{', marks' if marks else ''}; viewport {g.css_width}x"
               f"{g.css_height} CSS px at DPR {g.dpr:g}; ~{hybrid.tokens('openai')} OpenAI / "
               f"~{hybrid.tokens('anthropic')} Anthropic image tokens)", err=True)
