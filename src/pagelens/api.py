"""The small public API for one-shot use: observe a page, optionally focused on a goal."""

from __future__ import annotations

import time
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pagelens import tokens
from pagelens.config import BrowserConfig, RenderConfig
from pagelens.focus.apply import FocusResult, focus
from pagelens.focus.base import FocusQuery
from pagelens.types import Observation, Rendering

if TYPE_CHECKING:
    from pagelens.browser.session import BrowserSession
    from pagelens.focus.base import Retriever


@dataclass(frozen=True)
class PageView:
    """One observation of a page: the tree, its full rendering and (optionally) its focus."""

    observation: Observation
    rendering: Rendering
    full_tokens: int
    focused: FocusResult | None = None
    timings: Mapping[str, float] = field(default_factory=dict)

    def text(self) -> str:
        return self.focused.text() if self.focused is not None else self.rendering.text()


def render_observation(obs: Observation, *, refined: bool = False, config: RenderConfig | None = None) -> Rendering:
    if refined:
        from pagelens.observe.refine import refine

        return refine(obs, config)
    from pagelens.observe.render import render

    return render(obs, config)


def focus_view(
    obs: Observation,
    *,
    goal: str | None = None,
    retriever: Retriever | str | None = None,
    refined: bool = False,
    history: tuple[str, ...] = (),
    defense: bool = True,
    render_config: RenderConfig | None = None,
    timings: Mapping[str, float] | None = None,
) -> PageView:
    """Render ``obs`` and focus it on ``goal`` (``default`` retriever when a goal is given)."""
    t = time.perf_counter()
    rendering = render_observation(obs, refined=refined, config=render_config)
    all_timings = dict(timings or obs.timings)
    all_timings["render"] = time.perf_counter() - t
    full_tokens = tokens.count(rendering.text())
    result: FocusResult | None = None
    if retriever is None and goal:
        retriever = "default"
    from pagelens.focus.registry import is_reference, make_retriever

    if retriever is not None and not is_reference(retriever):
        if isinstance(retriever, str):
            retriever = make_retriever(retriever)
        t = time.perf_counter()
        result = focus(rendering, FocusQuery(goal=goal or "", history=history), retriever, defense=defense,
                       full_tokens=full_tokens)
        all_timings["focus"] = time.perf_counter() - t
    return PageView(obs, rendering, full_tokens, result, all_timings)


def observe(
    target: str,
    *,
    goal: str | None = None,
    retriever: Retriever | str | None = None,
    refined: bool = False,
    inject: str | None = None,
    defense: bool = True,
    session: BrowserSession | None = None,
    browser_config: BrowserConfig | None = None,
    render_config: RenderConfig | None = None,
    timeout_s: float | None = None,
) -> PageView:
    """Open ``target`` (a 127.0.0.1 URL or a local HTML file) in headless Chromium and observe it.

    ``timeout_s`` bounds the observation (default ``BrowserConfig.extract_timeout_s``): past
    it the browser is stopped and :class:`~pagelens.errors.PageTimeout` is raised.

    A local file is served over 127.0.0.1 (``inject`` is inserted after its ``<body>``).
    Raises :class:`~pagelens.errors.PageError` when the page cannot be observed.
    """
    from pagelens.browser.serve import serve_file
    from pagelens.browser.session import BrowserSession
    from pagelens.errors import PageError

    with ExitStack() as stack:
        url = target
        local: Path | None = None
        if "://" not in target:
            local = Path(target)
            _check_local_file(local)
            url = stack.enter_context(serve_file(local, inject=inject))
        if session is None:
            session = stack.enter_context(BrowserSession(browser_config))
        episode = stack.enter_context(session.episode())
        t = time.perf_counter()
        try:
            nav = episode.goto(url)
            goto_s = time.perf_counter() - t
            obs = episode.observe(timeout_s=timeout_s)
        except PageError as exc:
            if local is None:
                raise
            # name the file the user gave, not the 127.0.0.1 address it was served on
            raise type(exc)(str(exc).replace(url, str(local))) from None
        timings = {"goto": goto_s, **obs.timings}
        view = focus_view(obs, goal=goal, retriever=retriever, refined=refined, defense=defense,
                          render_config=render_config, timings=timings)
        if nav.get("load_timeout"):
            view.timings["load_timeout"] = 1.0  # type: ignore[index]
        return view


def _check_local_file(path: Path) -> None:
    """A clear error for a local target that cannot be served as a page."""
    import os

    from pagelens.errors import PageUnreachable

    if path.is_dir():
        raise PageUnreachable(f"{path}: is a directory, not an HTML file")
    if not path.exists():
        raise PageUnreachable(f"{path}: no such file (and not a URL)")
    if not path.is_file():
        raise PageUnreachable(f"{path}: not a regular file")
    if not os.access(path, os.R_OK):
        raise PageUnreachable(f"{path}: not readable (permission denied)")
