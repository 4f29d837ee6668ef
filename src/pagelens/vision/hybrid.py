"""One hybrid observation: the capped screenshot + the interactive-element list (+ marks).

It sits beside the (focused) accessibility tree, never instead of it: the element ids are
the tree's ids, so a policy may ``click("12")`` from the tree or ``click_at(x, y)`` from
the picture. The text part is bounded (at most :data:`~pagelens.vision.elements.MAX_ELEMENTS`
lines); the image part is counted in tokens per provider formula.
"""

from __future__ import annotations

import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pagelens.browser.screenshot import Screenshot, ScreenshotConfig, encode
from pagelens.vision.elements import ScreenElement, element_boxes, render_elements
from pagelens.vision.tokens import Provider, image_tokens

if TYPE_CHECKING:
    from pagelens.browser.session import BrowserSession, Episode
    from pagelens.focus.base import Retriever
    from pagelens.focus.view import PageView
    from pagelens.types import Observation

__all__ = ["HybridView", "capture_hybrid", "capture_screen", "observe_hybrid"]


@dataclass(frozen=True, slots=True)
class HybridView:
    screenshot: Screenshot  # what the model receives (marks drawn in when marks=True)
    elements: tuple[ScreenElement, ...]
    marks: bool
    seconds: float  # screenshot + boxes (+ overlay)

    def text(self) -> str:
        return render_elements(self.elements, self.screenshot.geometry)

    def tokens(self, provider: Provider = "openai") -> int:
        g = self.screenshot.geometry
        return image_tokens(g.width, g.height, provider)

    def by_eid(self) -> dict[str, ScreenElement]:
        return {e.eid: e for e in self.elements}

    def write(self, path: str | Path) -> Path:
        """Write the image (its format follows the screenshot's, whatever the suffix)."""
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(self.screenshot.data)
        return out


def capture_hybrid(episode: Episode, observation: Observation, config: ScreenshotConfig | None = None, *,
                   marks: bool = False) -> HybridView:
    """Screenshot ``episode``'s page and box the interactive elements of ``observation``
    (which must be the episode's latest observation: its CDP sessions resolve the ids)."""
    cfg = config or ScreenshotConfig()
    t0 = time.perf_counter()
    shot = episode.tab.screenshot(cfg)
    assert isinstance(shot, Screenshot)
    elements = element_boxes(episode.observer.last_sessions, observation, shot.geometry)
    if marks:
        from pagelens.vision.marks import draw_marks

        img = draw_marks(shot.image(), elements)
        shot = Screenshot(encode(img, cfg.format, cfg.quality), cfg.format, shot.geometry, shot.seconds, shot.taken_ms)
    return HybridView(shot, elements, marks, time.perf_counter() - t0)


def capture_screen(episode: Episode, config: ScreenshotConfig | None = None) -> Screenshot:
    """Just the capped screenshot of ``episode``'s page (no element boxes, no observation)."""
    shot = episode.tab.screenshot(config or ScreenshotConfig())
    assert isinstance(shot, Screenshot)
    return shot


def observe_hybrid(target: str, *, config: ScreenshotConfig | None = None, marks: bool = False,
                   goal: str | None = None, retriever: Retriever | str | None = None, refined: bool = False,
                   defense: bool = True, session: BrowserSession | None = None) -> tuple[PageView, HybridView]:
    """Like :func:`pagelens.api.observe`, plus the hybrid view of the same moment."""
    from pagelens.browser.serve import serve_file
    from pagelens.browser.session import BrowserSession
    from pagelens.errors import PageUnreachable
    from pagelens.focus.view import focus_view

    with ExitStack() as stack:
        url = target
        if "://" not in target:
            path = Path(target)
            if not path.is_file():
                raise PageUnreachable(f"{target}: no such file (and not a URL)")
            url = stack.enter_context(serve_file(path))
        if session is None:
            session = stack.enter_context(BrowserSession())
        episode = stack.enter_context(session.episode())
        episode.goto(url)
        obs = episode.observe()
        hybrid = capture_hybrid(episode, obs, config, marks=marks)
        view = focus_view(obs, goal=goal, retriever=retriever, refined=refined, defense=defense)
        return view, hybrid
