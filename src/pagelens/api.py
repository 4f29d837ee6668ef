"""The small public API for one-shot use: observe a page, optionally focused on a goal."""

from __future__ import annotations

import time
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from pagelens.focus.view import PageView, focus_view, render_observation

if TYPE_CHECKING:
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig, RenderConfig
    from pagelens.focus.base import Retriever
    from pagelens.focus.recover import Recovery
    from pagelens.focus.recover_semantic import Embedder

__all__ = ["PageView", "expand", "focus_view", "observe", "render_observation", "search_page"]


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


def expand(view: PageView, placeholder: str, *, start: int = 0, max_tokens: int | None = None) -> Recovery:
    """The lines placeholder ``placeholder`` (``"p7"`` for ``[p7] ... 42 lines pruned ...``) of
    ``view``'s focused observation stands for, with their ancestors, capped in tokens.

    Answers from ``view`` alone (no browser). An unknown id comes back as a
    :class:`~pagelens.focus.recover.Recovery` with ``error`` set. See :func:`pagelens.focus.recover.expand`.
    """
    from pagelens.focus.recover import DEFAULT_MAX_TOKENS
    from pagelens.focus.recover import expand as _expand

    return _expand(view.rendering, view.focused, placeholder, start=start,
                   max_tokens=DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens)


def search_page(view: PageView, text: str, *, max_tokens: int | None = None, max_hits: int | None = None,
                semantic: Embedder | bool | None = None) -> Recovery:
    """Lines of ``view``'s full rendering (pruned ones included) that match ``text``, with their
    ancestors, capped in tokens and lines. Answers from ``view`` alone (no browser).

    See :func:`pagelens.focus.recover.search_page` for the matching rules and ``semantic``.
    """
    from pagelens.focus.recover import DEFAULT_MAX_HITS, DEFAULT_MAX_TOKENS
    from pagelens.focus.recover import search_page as _search

    return _search(view.rendering, text, focused=view.focused,
                   max_tokens=DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens,
                   max_hits=DEFAULT_MAX_HITS if max_hits is None else max_hits, semantic=semantic)


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
