"""One observation, rendered and focused: the value every stage above ``focus`` works on.

:class:`PageView` bundles an :class:`~pagelens.types.Observation`, its full numbered
:class:`~pagelens.types.Rendering` and (optionally) the :class:`~pagelens.focus.apply.FocusResult`
of a retriever; :func:`focus_view` makes one. The agent loop, the policies and the harness use
it from here; :mod:`pagelens.api` re-exports it for users.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pagelens import tokens
from pagelens.focus.apply import FocusResult, focus
from pagelens.focus.base import FocusQuery
from pagelens.gcpause import gc_paused
from pagelens.types import Observation, Rendering

if TYPE_CHECKING:
    from pagelens.config import RenderConfig
    from pagelens.focus.base import Retriever
    from pagelens.focus.notices import Solicited

__all__ = ["PageView", "focus_view", "render_observation"]


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
    budget: float | None = None,
    solicited: Solicited | None = None,
) -> PageView:
    """Render ``obs`` and focus it on ``goal`` (``default`` retriever when a goal is given).

    ``budget``: the share of the full tree's tokens the focused view may spend (0 < budget <= 1,
    :attr:`~pagelens.focus.base.FocusQuery.budget`); retrievers that cannot honour it ignore it.
    ``solicited``: the previous view's ``focused.solicited``, marked ``acted_on()`` when the agent acted on an
    element since (:mod:`pagelens.focus.notices`): the dialogs, pop-ups and live regions it opened are shown whole.
    """
    if budget is not None and not 0 < budget <= 1:
        from pagelens.errors import ConfigError

        raise ConfigError(f"budget is a share of the full tree's tokens (0 < budget <= 1), not {budget!r}")
    t = time.perf_counter()
    rendering = render_observation(obs, refined=refined, config=render_config)
    all_timings = dict(timings or obs.timings)
    all_timings["render"] = time.perf_counter() - t
    result: FocusResult | None = None
    if retriever is None and goal:
        retriever = "default"
    from pagelens.focus.registry import is_reference, make_retriever

    if retriever is not None and not is_reference(retriever):
        if isinstance(retriever, str):
            retriever = make_retriever(retriever)
        counted = tokens.count_soon(rendering.text())  # (meanwhile, focus)
        t = time.perf_counter()
        # no cyclic GC meanwhile: the analysis makes several containers per line and no cycles,
        # and each generation-2 pass rescans the whole tree (a fifth of focus on 50k+ pages)
        with gc_paused():
            result = focus(rendering, FocusQuery(goal=goal or "", history=history, budget=budget, solicited=solicited), retriever,
                           defense=defense, full_tokens=counted)
        all_timings["focus"] = time.perf_counter() - t
        full_tokens = result.full_tokens
    else:
        full_tokens = tokens.count(rendering.text())
    return PageView(obs, rendering, full_tokens, result, all_timings)
