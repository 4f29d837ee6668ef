"""Signal-Driven Observation: decide after every action, at zero LLM cost, whether the agent
must look at the page again.

Four signals (SDO §3.1) plus a fail-safe:

``url``            the main document navigated (fragment-only changes ignored) or was replaced
                   by a new document at the same URL (a form re-rendered by the server);
``new_widget``     a visible ``dialog`` / ``alertdialog`` / ``dialog[open]`` / ``listbox`` /
                   ``menu`` or an ``aria-expanded=true`` element that was not there when the
                   detector was armed (checked with one JS query, not an AX extraction);
``action_failure`` a page action came back ``failed``, ``invalid`` or ``no_change``;
``exogenous``      DOM mutations or ``input``/``change`` events outside every agent action
                   window ``[started_ms, ended_ms + settle_ms]`` (timers, pushes, late scripts);
``detector_error`` the page could not be asked (mid-navigation, hung): re-observe to be safe.

The page side (:file:`mutations.js`) is installed with ``episode.tab.add_init_script`` so every
new document records from its first script, and is evaluated into the current document when
missing. Mutations are timestamped with the page clock (``Date.now()``), the same clock as
the executor's ``started_ms`` / ``ended_ms``. Only the main frame is watched.

    detector = SignalDetector(episode)
    obs = episode.observe(); detector.arm(obs)
    feedback = executor.execute(action, obs)
    signals = detector.check(feedback)      # () -> keep executing the planned sequence
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urldefrag

from pagelens.errors import ActionError, PageClosed, PageError, PageTimeout

if TYPE_CHECKING:
    from pagelens.actions.executor import Feedback
    from pagelens.browser.session import Episode
    from pagelens.types import Observation

__all__ = ["PAGE_ACTIONS", "Signal", "SignalDetector", "SignalKind"]

SignalKind = Literal["url", "new_widget", "action_failure", "exogenous", "detector_error"]
#: Actions that touch the page; only their failures are a signal (a refused note is not).
PAGE_ACTIONS = frozenset({"click", "fill", "select_option", "hover", "press", "scroll", "go_back", "goto",
                          "click_at", "hover_at", "scroll_at", "type_at"})
_FAILURE_STATUSES = frozenset({"failed", "invalid", "no_change"})
_MAX_SAMPLES = 3


@dataclass(frozen=True, slots=True)
class Signal:
    kind: SignalKind
    detail: str

    def statement(self) -> str:
        """The signal as a plain sentence for the model."""
        lead = {
            "url": "The page changed address",
            "new_widget": "New interactive content appeared",
            "action_failure": "The last action did not work as planned",
            "exogenous": "The page changed on its own (not because of your action)",
            "detector_error": "The page could not be checked after the action",
        }[self.kind]
        return f"{lead}: {self.detail}."


@lru_cache(maxsize=1)
def _script() -> str:
    return resources.files("pagelens.signals").joinpath("mutations.js").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _probe_js() -> str:
    return (
        "() => {\n" + _script() + "\nconst s = window.__pagelensSDO;\n"
        "return Object.assign(s.drain(), {widgets: s.widgets()});\n}"
    )


@dataclass(frozen=True, slots=True)
class _Widget:
    wid: int
    kind: str
    name: str


class SignalDetector:
    """Watches one episode's page; :meth:`arm` after each observation, :meth:`check` after each action."""

    def __init__(self, episode: Episode, *, settle_ms: float = 300.0, max_windows: int = 16,
                 timeout_ms: float = 5000.0) -> None:
        self._episode = episode
        self.settle_ms = settle_ms
        self.timeout_ms = timeout_ms  # a read of a page whose main thread does not answer gives up after this
        self._installed = False
        self._url = ""
        self._doc = ""
        self._widgets: frozenset[int] = frozenset()
        self._windows: deque[tuple[float, float]] = deque(maxlen=max_windows)

    # -- page side -------------------------------------------------------------------------
    def _install(self) -> None:
        if not self._installed:
            self._episode.tab.add_init_script(_script())
            self._installed = True

    def _read(self) -> dict[str, Any] | None:
        """Drain the page buffer and list widgets; None if the page cannot be asked now.

        A dead browser (:class:`~pagelens.errors.BrowserCrashed`) or a closed tab
        (:class:`~pagelens.errors.PageClosed`) is raised: there is nothing to re-observe. A page
        that does not answer within :attr:`timeout_ms` (its main thread stuck) is None at once."""
        tab = self._episode.tab
        for attempt in range(3):
            try:
                state = tab.evaluate(_probe_js(), timeout_ms=self.timeout_ms)
                return state if isinstance(state, dict) else None
            except PageClosed:
                raise
            except PageTimeout:
                return None
            except (PageError, ActionError):
                if attempt < 2:  # most likely a navigation replaced the execution context
                    try:
                        tab.wait_for_load("domcontentloaded", timeout_ms=2000)
                    except PageClosed:
                        raise
                    except (PageError, ActionError):
                        pass
        return None

    @property
    def read_js(self) -> str:
        """The page read :meth:`check` needs, as a function expression: an executor that runs it
        right after an action settled (``Executor.after_js``) saves the detector its own call
        (:meth:`check` takes it from ``Feedback.page_state``)."""
        self._install()
        return _probe_js()

    # -- the two calls ---------------------------------------------------------------------
    def arm(self, observation: Observation | None = None) -> None:
        """Take the page as it is now (just observed) as the baseline; forget old windows."""
        self._install()
        state = self._read()
        if state is None:
            self._url, self._doc, self._widgets = (observation.url if observation else ""), "", frozenset()
        else:
            self._url = observation.url if observation is not None else str(state["url"])
            self._doc = str(state["doc"])
            self._widgets = frozenset(int(w["wid"]) for w in state["widgets"])
        self._windows.clear()

    def check(self, feedback: Feedback) -> tuple[Signal, ...]:
        """Signals fired by the action behind ``feedback`` (and by anything since arming)."""
        signals: list[Signal] = []
        action = feedback.action
        if action.name in PAGE_ACTIONS and feedback.status in _FAILURE_STATUSES:
            signals.append(Signal("action_failure", f"{action.render()} -> {feedback.status}: {_short(feedback.message)}"))
        self._windows.append((float(feedback.started_ms), float(feedback.ended_ms) + self.settle_ms))
        given = getattr(feedback, "page_state", None)
        state = given if isinstance(given, dict) and "doc" in given else self._read()
        if state is None:
            signals.append(Signal("detector_error", "the page did not answer (still navigating or busy)"))
            return tuple(signals)
        url, doc = str(state["url"]), str(state["doc"])
        if urldefrag(url)[0] != urldefrag(self._url)[0]:
            signals.append(Signal("url", f"{self._url} -> {url}"))
        elif self._doc and doc != self._doc:
            signals.append(Signal("url", f"{url} was reloaded (a new document at the same address)"))
        else:
            new = [_Widget(int(w["wid"]), str(w["kind"]), str(w["name"])) for w in state["widgets"]
                   if int(w["wid"]) not in self._widgets]
            if new:
                shown = "; ".join(f"{w.kind} {w.name!r}" for w in new[:_MAX_SAMPLES])
                more = f" and {len(new) - _MAX_SAMPLES} more" if len(new) > _MAX_SAMPLES else ""
                signals.append(Signal("new_widget", shown + more))
            exo = [e for e in state["events"] if not self._in_window(float(e["t"]))]
            n = sum(int(e.get("n") or 1) for e in exo)
            if state.get("dropped") and not (self._in_window(float(state["dropFirst"]))
                                             and self._in_window(float(state["dropLast"]))):
                n += int(state["dropped"])
            if n:
                targets = list(dict.fromkeys(f"{e['kind']} on {e['target']}" for e in exo))[:_MAX_SAMPLES]
                signals.append(Signal("exogenous", f"{n} change{'s' if n != 1 else ''} ({', '.join(targets) or 'many'})"))
        return tuple(signals)

    def _in_window(self, t: float) -> bool:
        return any(start <= t <= end for start, end in self._windows)


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
