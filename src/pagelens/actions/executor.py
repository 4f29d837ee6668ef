"""Typed action → the page → :class:`Feedback` the model sees next.

One :meth:`Executor.execute` call is the execution and feedback half of a round trip:

1. the action is checked against its spec and its ids against the observation the model
   saw ("id 99 is not in the current observation" → ``invalid``);
2. budgets are enforced here, not in the prompt: a step budget, a reload budget (``goto``
   of the current URL), a cap on the same action repeated on an unchanged page, and a
   ``read_text`` cap; each refusal is a ``budget`` result with an explanation;
3. planning actions (note/stop/branch/prune) never touch the page: ``control`` results;
   view actions (expand/search_page) never touch it either: they are answered from the
   observation the model was shown (:mod:`pagelens.focus.recover`), the answer's lines in
   ``Feedback.detail["block"]`` and the line numbers shown in ``detail["revealed"]``;
4. element actions resolve the node's backend id in its renderer, tag the element and act
   on it through the episode's tab (:mod:`pagelens.browser.page`: actionability checks
   included, every call time-bounded);
5. the page is fingerprinted before and after, the second time as soon as the action's effects
   are visible (:mod:`pagelens.actions.settle`: no navigation under way, no request the action
   started in flight, a frame without DOM mutations; no fixed sleep); the feedback names the changes, or says
   "no visible change" and what is under the click point. The tab's errors (already the
   project's, :mod:`pagelens.errors`) become ``failed`` results here;
   :class:`~pagelens.errors.BrowserCrashed` is raised.

Model output is never executed: actions dispatch to the plain functions in
:data:`pagelens.actions.ops.HANDLERS`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from urllib.parse import urldefrag, urljoin, urlsplit

from pagelens.actions.coords import COORD_HANDLERS
from pagelens.actions.fingerprint import HASH_LIMIT, Fingerprint, diff, from_page, take
from pagelens.actions.guard import OriginGuard
from pagelens.actions.ops import HANDLERS as _PAGE_HANDLERS
from pagelens.actions.ops import PROBED, Ctx, Outcome, Status
from pagelens.actions.settle import BEFORE_JS, BEFORE_OPTIONS_JS, BEFORE_PROBE_JS, NET_JS, settled
from pagelens.actions.spec import ACTIONS, ID_PATTERN, VISION_ACTIONS, Action, validate
from pagelens.actions.targets import ElementGone, Target
from pagelens.errors import ActionError, ActionInterrupted, PageError, PageTimeout

if TYPE_CHECKING:
    from pagelens.actions.pixels import PixelWatch
    from pagelens.browser.screenshot import Geometry
    from pagelens.browser.session import Episode
    from pagelens.focus.view import PageView
    from pagelens.types import Node, Observation

__all__ = ["CONTROL", "HANDLERS", "VIEW", "Budgets", "Executor", "Feedback", "handled_actions"]

#: Every page-action handler: element/page actions, then the coordinate actions (vision).
HANDLERS: Mapping[str, Any] = MappingProxyType({**_PAGE_HANDLERS, **COORD_HANDLERS})
#: Planning actions: handed back to the agent loop, never run on the page.
CONTROL = frozenset({"note", "stop", "branch", "prune"})
#: View actions: answered from the last observation, never run on the page.
VIEW = frozenset({"expand", "search_page"})
_LOOPBACK = {"localhost", "127.0.0.1", "::1"}
_EMPTY: Mapping[str, Any] = MappingProxyType({})


def handled_actions() -> frozenset[str]:
    """Every action name the executor can run (checked against ACTIONS by a test)."""
    return frozenset(HANDLERS) | CONTROL | VIEW


@dataclass(frozen=True, slots=True)
class Budgets:
    max_steps: int = 30
    max_reloads: int = 3
    max_repeats: int = 3
    max_read_text: int = 5
    max_recover: int = 20  # expand + search_page calls per episode


@dataclass(frozen=True, slots=True)
class Feedback:
    action: Action
    ok: bool
    status: Status
    message: str  # exactly what the model is told
    changes: tuple[str, ...] = ()
    before: Fingerprint | None = None
    after: Fingerprint | None = None
    started_ms: float = 0.0  # page clock (Date.now()); host clock when the page was not touched
    ended_ms: float = 0.0
    detail: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    #: what :attr:`Executor.after_js` returned, read in the page right after settling (None: not run)
    page_state: Any = None


class Executor:
    """Runs typed actions on one episode's page and keeps the episode's budgets."""

    def __init__(self, episode: Episode, budgets: Budgets = Budgets(), *, timeout_s: float = 5.0,
                 guard: OriginGuard | None = None) -> None:
        self.episode = episode
        self.guard = guard  # origin allowlist (pagelens.actions.guard); None: any local origin
        if guard is not None:
            guard.install(episode)
        # the request counter the settling waits on, in every new document from its first script
        # (the current one gets it with the first fingerprint)
        episode.tab.add_init_script(NET_JS)
        self.budgets = budgets
        self.timeout_ms = timeout_s * 1000
        self.steps = 0
        self.reloads = 0
        self.read_text_calls = 0
        self.recover_calls = 0
        self._repeat: tuple[str, int, Fingerprint] | None = None  # (action, times unchanged, page after)
        self._find_state: dict[tuple[str, str], int] = {}
        #: geometry of the screenshot the model last saw (coordinate actions); None: default cap
        self.screen: Geometry | None = None
        #: optional pixel-change watch: a screenshot hash before/after each page action
        self.pixels: PixelWatch | None = None
        #: optional page script (a function expression) run right after a page action settled, in the
        #: same call as the fingerprint; its result is ``Feedback.page_state`` (the signal detector's read)
        self.after_js: str = ""

    # -- public ----------------------------------------------------------------------------
    def execute(self, action: Action, observation: Observation, *, view: PageView | None = None) -> Feedback:
        """Run ``action``; ``view`` (the observation as the model was shown it) answers view actions."""
        self.steps += 1
        problem = validate(action)
        if problem:
            return self._plain(action, "invalid", problem)
        b = self.budgets
        if self.steps > b.max_steps and action.name != "stop":
            return self._plain(action, "budget", f"step budget used up ({b.max_steps} actions); {action.render()} "
                                                 "was not run. Finish now with stop(\"<answer>\") using what you know.")
        if action.name in CONTROL:
            return self._plain(action, "control", f"{action.render()}: recorded.", detail=dict(action.args))
        if action.name in VIEW:
            return self._recover(action, view)
        handler = HANDLERS.get(action.name)
        if handler is None:  # spec and executor disagree: a bug, not a model error
            raise ActionError(f"the executor has no handler for {action.name!r}")

        node, problem = self._node(action, observation)
        if problem:
            return self._plain(action, "invalid", problem)
        if self.guard is not None and node is not None and action.name in ("click", "dblclick", "press"):
            target = self.guard.link_target(node, observation)
            if target is not None and not self.guard.allows(target, self.episode.tab.url):
                return self._plain(action, "invalid", f"{action.render()}: refused: this link leads to "
                                   f"{self.guard.refusal(target)}")
        run = action
        if action.name == "goto":
            url = self._local_url(str(action.args["url"]))
            if url is None:
                return self._plain(action, "invalid", f"{action.render()}: goto only opens pages of this site "
                                                      "(a path like /cart, or a 127.0.0.1/localhost URL).")
            if self.guard is not None and not self.guard.allows(url):
                return self._plain(action, "invalid", f"{action.render()}: refused: {self.guard.refusal(url)}")
            if urldefrag(url)[0] == urldefrag(self.episode.tab.url)[0]:
                if self.reloads >= b.max_reloads:
                    return self._plain(action, "budget", f"reload budget used up: the page was already reloaded "
                                       f"{b.max_reloads} times and reloading again will not help. Try another way, "
                                       "or stop with what you know.")
                self.reloads += 1
            run = Action("goto", {"url": url})
        if action.name == "read_text":
            if self.read_text_calls >= b.max_read_text:
                return self._plain(action, "budget", f"read_text budget used up ({b.max_read_text} calls per task); "
                                                     "use the observation instead.")
            self.read_text_calls += 1
        return self._run(action, run, node)

    def _recover(self, action: Action, view: PageView | None) -> Feedback:
        from pagelens.focus.recover import expand, search_page

        if view is None:
            return self._plain(action, "failed", f"{action.render()}: failed: there is no observation to read.")
        if self.recover_calls >= self.budgets.max_recover:
            return self._plain(action, "budget", f"expand/search_page budget used up ({self.budgets.max_recover} "
                                                 "calls per task); act on what you have seen.")
        self.recover_calls += 1
        args = action.args
        if action.name == "expand":
            rec = expand(view.rendering, view.focused, str(args["placeholder"]), start=int(args.get("start", 0)))
        else:
            rec = search_page(view.rendering, str(args["text"]), focused=view.focused)
        if not rec.ok:
            return self._plain(action, "invalid", f"{action.render()}: {rec.error}")
        detail = {"block": rec.text(), "revealed": tuple(sorted(rec.revealed)), "tokens": rec.tokens,
                  "matched": rec.matched, "total": rec.total, "capped": rec.capped}
        return self._plain(action, "done", f"{action.render()}: {rec.note}", detail=detail)

    # -- checks ------------------------------------------------------------------------------
    def _node(self, action: Action, observation: Observation) -> tuple[Node | None, str | None]:
        spec = ACTIONS[action.name]
        by_eid = observation.by_eid()
        for p in spec.params:
            if p.type == "id":
                eid = str(action.args[p.name])
                node = by_eid.get(eid)  # type: ignore[call-overload]
                if node is None:
                    return None, f"id {eid} is not in the current observation; use an id shown in brackets."
                return node, None
        if action.name == "read_text":
            value = str(action.args["id_or_label"]).strip().strip("[]").strip()
            if ID_PATTERN.fullmatch(value) and value in by_eid:
                return by_eid[value], None  # type: ignore[index]
        return None, None

    def _local_url(self, raw: str) -> str | None:
        url = urljoin(self.episode.tab.url, raw.strip())
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        if parts.scheme in ("http", "https") and (host in _LOOPBACK or host.startswith("127.")):
            return url
        return None

    def _repeat_blocked(self, key: str, before: Fingerprint) -> bool:
        r = self._repeat
        return r is not None and r[0] == key and r[1] >= self.budgets.max_repeats and not diff(r[2], before)

    # -- running -----------------------------------------------------------------------------
    def _run(self, action: Action, run: Action, node: Node | None) -> Feedback:
        tab = self.episode.tab
        key = action.render()
        target: Target | None = None
        before: Fingerprint | None = None
        try:
            probe: Mapping[str, Any] | None = None
            # the element probe (click, fill, hover) or a drop-down's options (select_option) with the
            # fingerprint before the action: one page call with the element's tagging (an element of
            # the main document; a child frame's element cannot read the main document)
            first = BEFORE_PROBE_JS if run.name in PROBED else BEFORE_OPTIONS_JS if run.name == "select_option" else ""
            both = None
            if node is not None:
                target, both = tab.element_with(node, first, HASH_LIMIT, timeout_ms=self.timeout_ms) if first \
                    else (tab.element(node, timeout_ms=self.timeout_ms), None)
            frame = target.frame if target else None
            if isinstance(both, dict):
                before, probe = from_page(both["fp"]), both["probe"]
            else:
                before = take(tab, frame, timeout_s=self.timeout_ms / 1000, js=BEFORE_JS)
            if self._repeat_blocked(key, before):
                return self._plain(action, "budget", f"{key} was already tried {self.budgets.max_repeats} times in a "
                                   "row on this unchanged page, so it was not run again. Do something different "
                                   "(another element, scroll, go_back) or stop.", before=before)
            if self.pixels is not None:
                self.pixels.before(tab)
            try:
                outcome = HANDLERS[run.name](Ctx(tab, run, target, self.timeout_ms, self._find_state, self.screen,
                                                 probe))
            except (ElementGone, ActionInterrupted) as exc:
                # the element or its document went away while the action ran: the action's own effect
                # (a click that re-renders its button or navigates) or something else? The fingerprints say.
                outcome = self._vanished(node, exc)
            # the action the handler left to this call (a fill or a selection in the page), the settling,
            # the fingerprint after it, the detector's read, the element's read-back the handler asked for
            # and the element's unmarking: one page call (an element of the main document)
            mark = target.marker if target is not None and target.frame.is_main else None
            act = (outcome.act, outcome.act_arg) if outcome.act else None
            if act is not None and mark is None:  # (handlers act in the page only on the main document's elements)
                raise ActionError(f"{action.name}: an in-page action needs an element of the main document")
            done = settled(tab, frame, since_ms=before.clock_ms, timeout_ms=self.timeout_ms, after_js=self.after_js,
                           mark=mark, element_js=outcome.read_after, act=act,
                           watched=first == BEFORE_PROBE_JS and isinstance(both, dict))
            if done.unmarked and target is not None:
                target.unmarked()
            after, page_state = done.fingerprint, done.page_state
            if outcome.finish is not None:
                read = done.element if mark is not None else self._read_after(target, outcome.read_after)
                outcome = outcome.finish(read, done.acted)
            if outcome.detail.get("vanished") and diff(before, after):  # the page changed: the action worked
                outcome = Outcome("done", f"([{node.eid if node else '?'}] itself was removed or replaced meanwhile.)")
            if self.pixels is not None:
                outcome = self.pixels.after(tab, outcome)
        except ElementGone as exc:
            return self._failed(action, key, before, f"element [{node.eid if node else '?'}] {exc}; "
                                                     "observe the page again.")
        except PageTimeout as exc:
            answers = self._answers()
            if not answers and target is not None:
                target.unmarked()  # (a page that does not answer keeps the marker: no call to wait on)
            why = f"timed out after {self.timeout_ms / 1000:.0f} s ({exc})."
            if not answers and "main thread" not in why:
                why += " The page no longer answers: its main thread is busy (a script that never yields?)."
            return self._failed(action, key, before, why, unresponsive=not answers)
        except (PageError, ActionError) as exc:  # the browser refused, the page moved on or cannot be read
            return self._failed(action, key, before, str(exc))
        finally:
            if target is not None:
                target.release()
        return self._finish(action, key, outcome, before, after, page_state)

    def _read_after(self, target: Target | None, js: str) -> Any:
        """``js`` on the element acted on (one outside the main document), as the settling's call
        reads it: ``{"value": ...}``, None when it is gone."""
        if target is None or not js:
            return None
        try:
            return {"value": target.evaluate(js, timeout_ms=self.timeout_ms)}
        except ElementGone:
            return None

    def _answers(self) -> bool:
        """Whether the page's main thread still answers (after a time-out: a page stuck in a script
        is a different failure from an action that timed out on a live page)."""
        try:
            self.episode.tab.evaluate("() => 1", timeout_ms=min(1000.0, self.timeout_ms))
        except PageTimeout:
            return False
        except (PageError, ActionError):
            return True  # it answered something (e.g. the document is being replaced)
        return True

    @staticmethod
    def _vanished(node: Node | None, exc: ActionError) -> Outcome:
        """The outcome of an action whose element (or document) went away while it ran, until the
        fingerprint after it says whether the page changed (then: done, with the changes)."""
        if isinstance(exc, ElementGone):
            why = f"element [{node.eid if node else '?'}] {exc}"
        else:
            why = str(exc)
        return Outcome("failed", f"{why}; observe the page again.", MappingProxyType({"vanished": True}))

    def _finish(self, action: Action, key: str, outcome: Outcome, before: Fingerprint, after: Fingerprint,
                page_state: Any = None) -> Feedback:
        changes = diff(_own_focus(before, after, outcome.own_focus), after, hover=outcome.hover) + outcome.changes
        status: Status = outcome.status or ("done" if changes else "no_change")
        if status == "done":
            text = f"{key}: done." + (f" Changes: {'; '.join(changes)}." if changes else "")
            # a coordinate action always says what was under its point
            shown = outcome.status == "done" or action.name in VISION_ACTIONS
            text += f" {outcome.message}" if outcome.message and shown else ""
        elif status == "no_change":
            text = f"{key}: no visible change." + (f" {outcome.message}" if outcome.message else "")
        else:
            text = f"{key}: failed: {outcome.message}"
        if status in ("no_change", "failed") and not changes:
            count = self._repeat[1] + 1 if self._repeat and self._repeat[0] == key else 1
            self._repeat = (key, count, after)
        else:
            self._repeat = None
        return Feedback(action, status in ("done", "no_change"), status, text, changes, before, after,
                        before.clock_ms, after.clock_ms, outcome.detail, page_state)

    def _failed(self, action: Action, key: str, before: Fingerprint | None, why: str, *,
                unresponsive: bool = False) -> Feedback:
        if before is not None:
            count = self._repeat[1] + 1 if self._repeat and self._repeat[0] == key else 1
            self._repeat = (key, count, before)
        now = before.clock_ms if before else time.time() * 1000
        # detail["unresponsive"]: the page's main thread no longer answers (a script that never yields)
        detail = MappingProxyType({"unresponsive": True}) if unresponsive else _EMPTY
        return Feedback(action, False, "failed", f"{key}: failed: {why}", (), before, None, now, now, detail)

    def _plain(self, action: Action, status: Status, message: str, *, before: Fingerprint | None = None,
               detail: Mapping[str, Any] | None = None) -> Feedback:
        now = time.time() * 1000
        return Feedback(action, status in ("control", "done"), status, message, (), before, None, now, now,
                        MappingProxyType(dict(detail or {})))


def _own_focus(before: Fingerprint, after: Fingerprint, key: str | None) -> Fingerprint:
    """``before`` with focus (main page or frame) already on the element acted on."""
    if key is None:
        return before
    if after.focus == key:
        before = replace(before, focus=key)
    if before.frame_fp is not None and after.frame_fp is not None and after.frame_fp[6] == key:
        before = replace(before, frame_fp=(*before.frame_fp[:6], key))
    return before

