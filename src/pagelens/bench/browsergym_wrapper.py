"""A BrowserGym observation wrapper that shows an agent the focused accessibility tree.

Drop-in for AgentLab-style agents (GenericAgent reads ``obs["axtree_txt"]``)::

    import browsergym.miniwob  # registers the MiniWoB++ tasks
    env = FocusedObservation(gym.make("browsergym/miniwob.click-test"), retriever="default")
    obs, info = env.reset()
    obs["axtree_txt"]        # focused on the goal
    obs["axtree_txt_full"]   # what GenericAgent would have shown
    obs["pagelens"]          # {retriever, full_tokens, focused_tokens, pruning, error, flags}

The full text is made the way GenericAgent makes it: BrowserGym's ``flatten_axtree_to_str``
with ``with_clickable=True, with_visible=True``. Chromium ≥ 120 adds an ``InlineTextBox`` under
every ``StaticText`` that the Chromium pinned by BrowserGym did not; those lines carry no
information and are dropped (``drop_inline_text=False`` keeps them).

The wrapper makes a BrowserGym env runnable on this machine by itself
(:func:`pagelens.bench.miniwob_env.ensure_browsergym_env`): it points Playwright at the system
Chromium when Playwright's own is not installed, and serves MiniWoB++ from the installed
``miniwob`` package on 127.0.0.1 when ``MINIWOB_URL`` is unset (until ``env.close()``).
``prepare=False`` leaves the environment alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pagelens.errors import MissingDependency
from pagelens.focus.apply import FocusResult, focus
from pagelens.focus.base import FocusQuery
from pagelens.observe.textparse import rendering_from_text

if TYPE_CHECKING:
    from pagelens.focus.base import Retriever

__all__ = ["FocusedObservation", "axtree_txt", "focus_axtree_txt", "goal_text"]  # noqa: F822 - built lazily


def _obs_utils() -> Any:
    try:
        from browsergym.utils import obs as bg_obs
    except ImportError:
        raise MissingDependency("browsergym-core", "browsergym") from None
    return bg_obs


def _gymnasium() -> Any:
    try:
        import gymnasium
    except ImportError:
        raise MissingDependency("browsergym-core", "browsergym") from None
    return gymnasium


def goal_text(obs: Mapping[str, Any]) -> str:
    """The goal as text: ``goal_object`` text parts (BrowserGym ≥ 0.14), else legacy ``goal``."""
    parts = obs.get("goal_object")
    if parts:
        texts = [str(p.get("text", "")) for p in parts if isinstance(p, Mapping) and p.get("type") == "text"]
        joined = "\n".join(t for t in texts if t)
        if joined:
            return joined
    goal = obs.get("goal")
    return goal if isinstance(goal, str) else ""


def axtree_txt(obs: Mapping[str, Any], *, drop_inline_text: bool = True) -> str:
    """GenericAgent's ``axtree_txt`` of a BrowserGym observation."""
    bg_obs = _obs_utils()
    ignored = set(bg_obs.IGNORED_AXTREE_ROLES)
    if drop_inline_text:
        ignored.add("InlineTextBox")
    text: str = bg_obs.flatten_axtree_to_str(
        obs["axtree_object"],
        extra_properties=obs.get("extra_element_properties"),
        with_clickable=True,
        with_visible=True,
        ignored_roles=list(ignored),
    )
    return text


def focus_axtree_txt(text: str, goal: str, retriever: Retriever | str, *, defense: bool = True) -> FocusResult:
    """Focus an already flattened tree (``axtree_txt``) on ``goal``; never raises for retriever failures."""
    if isinstance(retriever, str):
        from pagelens.focus.registry import make_retriever

        retriever = make_retriever(retriever)
    return focus(rendering_from_text(text), FocusQuery(goal=goal), retriever, defense=defense)


def pagelens_info(result: FocusResult) -> dict[str, Any]:
    return {
        "retriever": result.retriever,
        "full_tokens": result.full_tokens,
        "focused_tokens": result.focused_tokens,
        "pruning": round(result.pruning, 4),
        "error": result.error,
        "flags": [getattr(f, "line", None) for f in result.flags],
    }


_CLASS: type | None = None


def __getattr__(name: str) -> Any:
    """``FocusedObservation`` is built on first access: gymnasium is imported only then."""
    global _CLASS
    if name != "FocusedObservation":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if _CLASS is None:
        _CLASS = _make_class()
    return _CLASS


def _make_class() -> type:
    base = _gymnasium().ObservationWrapper
    _obs_utils()

    class FocusedObservation(base):  # type: ignore[misc, valid-type]
        """``gymnasium.ObservationWrapper``: ``obs["axtree_txt"]`` becomes the tree focused on the goal.

        ``FocusedObservation(env, retriever="default", defense=True, drop_inline_text=True, prepare=True)``;
        also sets ``obs["axtree_txt_full"]`` and ``obs["pagelens"]`` (see the module docstring).
        """

        def __init__(self, env: Any, retriever: Retriever | str = "default", *, defense: bool = True,
                     drop_inline_text: bool = True, prepare: bool = True) -> None:
            super().__init__(env)
            self._release: Any = None
            env_id = str(getattr(getattr(env, "spec", None), "id", "") or "")
            if prepare and env_id.startswith("browsergym/"):
                from pagelens.bench.miniwob_env import ensure_browsergym_env

                self._release = ensure_browsergym_env(miniwob=env_id.startswith("browsergym/miniwob."))
            if isinstance(retriever, str):
                from pagelens.focus.registry import make_retriever

                retriever = make_retriever(retriever)
            self.retriever = retriever
            self.defense = defense
            self.drop_inline_text = drop_inline_text
            self.last_result: FocusResult | None = None

        def close(self) -> None:
            try:
                super().close()
            finally:
                if self._release is not None:
                    self._release()
                    self._release = None

        def observation(self, observation: Any) -> Any:
            if not isinstance(observation, dict) or "axtree_object" not in observation:
                return observation
            obs = dict(observation)
            full = axtree_txt(obs, drop_inline_text=self.drop_inline_text)
            result = focus_axtree_txt(full, goal_text(obs), self.retriever, defense=self.defense)
            self.last_result = result
            obs["axtree_txt_full"] = full
            obs["axtree_txt"] = result.text()
            obs["pagelens"] = pagelens_info(result)
            return obs

    FocusedObservation.__module__ = __name__
    FocusedObservation.__qualname__ = "FocusedObservation"
    return FocusedObservation
