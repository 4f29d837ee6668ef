"""MiniWoB++ oracle retention: does a focused view keep every element a correct solution touches?

For one (task, seed) episode:

1. set the task up on a fresh browser context and take the BrowserGym observation (the same
   extraction :class:`browsergym.core.env.BrowserEnv` runs), flattened as GenericAgent does;
2. install capture-phase listeners (click, mousedown, input, change, keydown, focus) in every
   frame, run the oracle — the task's ``cheat()`` when it implements one, else a scripted
   solution from :mod:`pagelens.bench.miniwob_solutions` — and record, per event, the chain of
   BrowserGym ids (``bid`` attribute) from the target up; the touched element is the nearest one
   whose ``[bid]`` line is in the observation;
3. read the reward from the task's own ``validate``;
4. per retriever, focus the observation on the goal: *retained* when every touched element
   that was in the observation is still a kept line; plus pruning.

One Chromium serves every episode (a new context each, :class:`~pagelens.browser.borrowed.BorrowedBrowser`
on BrowserGym's own Playwright driver): BrowserGym's own env launches two
browsers per reset, which costs 20 s on a loaded machine. The task classes, their setup and
validation, and the observation extraction are BrowserGym's. A task that raises, hangs past
``timeout_s`` or has no oracle becomes a row with ``status`` ``error``/``timeout``/``skipped``.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Self

from pagelens.bench.browsergym_wrapper import axtree_txt
from pagelens.errors import ActionError, PageError
from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.observe.textparse import rendering_from_text
from pagelens.types import Rendering

if TYPE_CHECKING:
    from pagelens.browser.borrowed import BorrowedBrowser
    from pagelens.focus.base import Retriever

__all__ = ["EpisodeOutcome", "MiniwobHarness", "RetrieverOutcome", "task_names", "touched_eids"]

_LISTEN_JS = r"""() => {
  if (window.__pagelensTouched) return;
  window.__pagelensTouched = [];
  const chain = (node) => {
    const out = [];
    let e = node;
    while (e && out.length < 10) {
      if (e.nodeType === 1 && e.hasAttribute('bid')) out.push(e.getAttribute('bid'));
      e = e.parentElement || (e.getRootNode && e.getRootNode().host) || null;
    }
    return out;
  };
  for (const type of ['click', 'mousedown', 'input', 'change', 'keydown', 'focus']) {
    window.addEventListener(type, (ev) => {
      const target = ev.composedPath ? ev.composedPath()[0] : ev.target;
      if (target && target.nodeType === 1) window.__pagelensTouched.push({type, chain: chain(target)});
    }, true);
  }
}"""
_COLLECT_JS = "() => window.__pagelensTouched || []"


class EpisodeTimeout(Exception):
    pass


@dataclass(frozen=True, slots=True)
class RetrieverOutcome:
    retriever: str
    retained: bool | None  # None when nothing touched was in the observation
    pruning: float
    focused_tokens: int
    missing: tuple[str, ...] = ()  # touched ids the focused view dropped
    focus_error: str | None = None


@dataclass(frozen=True, slots=True)
class EpisodeOutcome:
    task: str
    seed: int
    status: str  # ok | skipped | error | timeout
    reason: str = ""
    goal: str = ""
    oracle: str = ""  # cheat | scripted
    success: bool | None = None  # the oracle solved the task (reward > 0)
    touched: tuple[str, ...] = ()  # touched ids present in the observation
    touched_elsewhere: int = 0  # events whose element was not in the observation
    full_tokens: int = 0
    seconds: float = 0.0
    retrievers: tuple[RetrieverOutcome, ...] = field(default=())

    def rows(self, retrievers: Sequence[str]) -> list[dict[str, Any]]:
        """One flat row per retriever name (an episode that did not run still gets its rows)."""
        base = {k: v for k, v in asdict(self).items() if k != "retrievers"}
        base["touched"] = list(self.touched)
        by_name = {r.retriever: r for r in self.retrievers}
        out = []
        for name in retrievers:
            r = by_name.get(name)
            if r is None:
                out.append({**base, "retriever": name, "retained": None, "pruning": None, "focused_tokens": None,
                            "missing": [], "focus_error": None})
            else:
                out.append({**base, **asdict(r), "missing": list(r.missing)})
        return out


def task_names() -> list[str]:
    """The MiniWoB++ tasks browsergym-miniwob registers, by subdomain (``click-test``)."""
    from browsergym.miniwob import ALL_MINIWOB_TASKS

    return [cls.subdomain for cls in ALL_MINIWOB_TASKS]


def oracle_kind(task_cls: type) -> str | None:
    from browsergym.core.task import AbstractBrowserTask

    from pagelens.bench.miniwob_solutions import SOLUTIONS

    if getattr(task_cls, "cheat", None) is not AbstractBrowserTask.cheat:
        return "cheat"
    if getattr(task_cls, "subdomain", None) in SOLUTIONS:
        return "scripted"
    return None


def touched_eids(events: Sequence[dict[str, Any]], rendering: Rendering) -> tuple[tuple[str, ...], int]:
    """(ids in the observation the events touched, in first-touch order; events with none)."""
    present = {str(ln.eid) for ln in rendering.lines if ln.eid is not None}
    found: list[str] = []
    elsewhere = 0
    for ev in events:
        hit = next((b for b in ev.get("chain", ()) if b in present), None)
        if hit is None:
            elsewhere += 1
        elif hit not in found:
            found.append(hit)
    return tuple(found), elsewhere


def score(rendering: Rendering, goal: str, touched: tuple[str, ...], retrievers: Sequence[Retriever]) -> list[RetrieverOutcome]:
    out = []
    for retriever in retrievers:
        result = focus(rendering, FocusQuery(goal=goal), retriever)
        kept = {str(rendering.lines[no].eid) for no in result.kept if rendering.lines[no].eid is not None}
        missing = tuple(b for b in touched if b not in kept)
        out.append(RetrieverOutcome(retriever.name, (not missing) if touched else None, round(result.pruning, 4),
                                    result.focused_tokens, missing, result.error))
    return out


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise :class:`EpisodeTimeout` after ``seconds`` (main thread only; elsewhere a no-op)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def fire(signum: int, frame: Any) -> None:
        raise EpisodeTimeout(f"episode exceeded {seconds:.0f} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class MiniwobHarness:
    """Serves the MiniWoB++ pages, owns one Chromium, runs episodes. Use as a context manager."""

    def __init__(self, *, timeout_s: float = 60.0) -> None:
        self.timeout_s = timeout_s
        self._stack = ExitStack()
        self._browser: BorrowedBrowser | None = None
        self._classes: dict[str, type] = {}

    def __enter__(self) -> Self:
        from pagelens.bench.miniwob_env import prepare_browsergym_env, serve_miniwob

        url = self._stack.enter_context(serve_miniwob())
        prepare_browsergym_env(miniwob_url=url)
        from browsergym.miniwob import ALL_MINIWOB_TASKS

        self._classes = {cls.subdomain: cls for cls in ALL_MINIWOB_TASKS}
        return self

    def __exit__(self, *exc: object) -> None:
        self._close_browser()
        self._stack.close()

    def _launch(self) -> BorrowedBrowser:
        """Chromium on BrowserGym's own driver (its task classes take that driver's pages)."""
        if self._browser is None:
            from browsergym.core import _get_global_playwright
            from browsergym.core.constants import BROWSERGYM_ID_ATTRIBUTE

            from pagelens.browser.borrowed import BorrowedBrowser

            self._browser = BorrowedBrowser(_get_global_playwright(), args=["--disable-features=OverlayScrollbars"],
                                            test_id_attribute=BROWSERGYM_ID_ATTRIBUTE)
        return self._browser

    def _close_browser(self) -> None:
        if self._browser is not None:
            self._browser.close()
            self._browser = None

    def run(self, task: str, seed: int, retrievers: Sequence[Retriever]) -> EpisodeOutcome:
        """One episode; never raises for task failures (the outcome's status says what happened)."""
        t0 = time.perf_counter()
        cls = self._classes.get(task)
        if cls is None:
            return EpisodeOutcome(task, seed, "skipped", "not a registered browsergym-miniwob task")
        kind = oracle_kind(cls)
        if kind is None:
            return EpisodeOutcome(task, seed, "skipped", "no oracle (browsergym-miniwob has no cheat(); no scripted solution)")
        outcome = self._attempt(cls, task, seed, kind, retrievers, t0)
        if outcome.status == "error":  # a loaded machine misses the task's 5 s timeouts now and then
            outcome = self._attempt(cls, task, seed, kind, retrievers, time.perf_counter())
        return outcome

    def _attempt(self, cls: type, task: str, seed: int, kind: str, retrievers: Sequence[Retriever],
                 t0: float) -> EpisodeOutcome:
        try:
            with _deadline(self.timeout_s):
                return self._episode(cls, task, seed, kind, retrievers, t0)
        except EpisodeTimeout as exc:
            self._close_browser()  # the page may be wedged: start clean next time
            return EpisodeOutcome(task, seed, "timeout", str(exc), oracle=kind, seconds=time.perf_counter() - t0)
        except Exception as exc:  # noqa: BLE001 - one task's failure never ends the run
            if self._browser is not None and not self._browser.connected:
                self._close_browser()
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            return EpisodeOutcome(task, seed, "error", f"{type(exc).__name__}: {message}"[:300], oracle=kind,
                                  seconds=time.perf_counter() - t0)

    def _episode(self, cls: type, task: str, seed: int, kind: str, retrievers: Sequence[Retriever],
                 t0: float) -> EpisodeOutcome:
        instance = cls(seed=seed)
        # ``page`` is BrowserGym's (its task classes and extraction take it as it is); pagelens
        # itself acts through ``tab``
        with self._launch().page(viewport=instance.viewport, timeout_ms=instance.timeout) as (page, tab):
            goal, _info = instance.setup(page=page)
            goal = goal if isinstance(goal, str) else " ".join(str(m.get("text", "")) for m in goal)
            tab.wait_for_load("domcontentloaded")
            rendering = rendering_from_text(axtree_txt(extract_obs(page)))
            for frame in tab.frames:
                frame.evaluate(_LISTEN_JS)
            if kind == "cheat":
                instance.cheat(page, [])
            else:
                from pagelens.bench.miniwob_solutions import SOLUTIONS

                SOLUTIONS[task](tab, goal)
            tab.pause(100)  # let the task's handlers finish
            events: list[dict[str, Any]] = []
            for frame in tab.frames:
                try:
                    events.extend(frame.evaluate(_COLLECT_JS))
                except (PageError, ActionError):  # a frame that navigated away took its records along
                    continue
            reward, _done, _msg, _vinfo = instance.validate(page, [])
            instance.teardown()
        touched, elsewhere = touched_eids(events, rendering)
        full_text = rendering.text()
        from pagelens import tokens

        outcomes = score(rendering, goal, touched, retrievers)
        return EpisodeOutcome(task, seed, "ok", "" if touched else "the oracle touched nothing in the observation",
                              goal, kind, float(reward) > 0, touched, elsewhere, tokens.count(full_text),
                              round(time.perf_counter() - t0, 3), tuple(outcomes))


def extract_obs(page: Any) -> dict[str, Any]:
    """The parts of BrowserGym's observation the flattened tree needs (as ``BrowserEnv._get_obs``);
    ``page``: BrowserGym's Playwright page (:meth:`BorrowedBrowser.page <pagelens.browser.borrowed.BorrowedBrowser.page>`)."""
    from browsergym.core.observation import (
        _post_extract,
        _pre_extract,
        extract_dom_extra_properties,
        extract_dom_snapshot,
        extract_merged_axtree,
    )

    _pre_extract(page, tags_to_mark="standard_html", lenient=True)
    try:
        dom = extract_dom_snapshot(page)
        axtree = extract_merged_axtree(page)
        extra = extract_dom_extra_properties(dom, scale_factor=getattr(page, "_bgym_scale_factor", 1.0))
    finally:
        _post_extract(page)
    return {"axtree_object": axtree, "extra_element_properties": extra}
