"""One MCP client's browser: typed tool calls in, capped text answers out (synchronous).

A :class:`Browsing` owns one Chromium (started on the first call that needs a page), one
episode (context + page), the executor with its budgets, the signal detector and the
:class:`~pagelens.focus.delta.ViewTracker` of what this client has been shown. Every call
runs on the one thread that created the browser (Playwright's sync API is thread-bound):
:mod:`pagelens.mcp.server` runs all calls of a client on one worker thread, in order.

Each action answers with what really happened — the executor's verified feedback, the
signals that fired (one line: the feedback and the view carry the details) — and, only when
a signal fired, the cheapest of the new view, the delta against the last view this client
saw, or the new view with the lines the client has folded (:mod:`pagelens.focus.delta`).
The view is extracted once per answer. Every answer is under the token cap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from pydantic import BaseModel, ConfigDict, Field

from pagelens.actions.executor import VIEW
from pagelens.actions.spec import Action
from pagelens.errors import BrowserCrashed, BrowserError, PageError, PagelensError, PageTimeout
from pagelens.focus.notices import after_action
from pagelens.mcp.brief import action_head, relative_url, signal_note
from pagelens.mcp.respond import Answer, compose, part_answer
from pagelens.mcp.terse import terse_block
from pagelens.mcp.tools import TOOLS, ToolCall

if TYPE_CHECKING:
    from pagelens.actions.executor import Executor
    from pagelens.browser.session import BrowserSession, Episode
    from pagelens.focus.base import Retriever
    from pagelens.focus.delta import ViewTracker
    from pagelens.focus.notices import Solicited
    from pagelens.focus.recover import SearchCorpus
    from pagelens.focus.view import PageView
    from pagelens.signals.detector import SignalDetector

__all__ = ["Browsing", "McpConfig", "Reply", "signal_note"]

_LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


class McpConfig(BaseModel):
    """Server configuration (CLI flags, or the ``PAGELENS_MCP_*`` environment of the client's entry)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    chromium: str | None = None
    headless: bool = True
    viewport_width: int = Field(default=1280, ge=200, le=7680)
    viewport_height: int = Field(default=720, ge=200, le=4320)
    #: Origins ``navigate`` may open (``http://127.0.0.1:8000``); empty: any loopback origin.
    allowed_origins: tuple[str, ...] = ()
    retriever: str = "default"
    goal: str | None = None
    #: Actions per session (the executor's step budget).
    budget: int = Field(default=500, ge=1)
    #: Hard cap on the tokens (o200k) of every answer.
    cap: int = Field(default=3000, ge=300)
    #: Tokens a goal-focused view in an answer aims at (the ``default`` retriever's ceiling; the
    #: library's own is for a loop that reads every view whole). What it leaves out stays reachable:
    #: ``search_page`` searches the whole tree, ``expand`` opens a pruned run, ``observe(full=true)``.
    #: 0: the retriever's own budget (up to the cap).
    view_cap: int = Field(default=500, ge=0)
    action_timeout_s: float = Field(default=5.0, gt=0)
    navigation_timeout_s: float = Field(default=15.0, gt=0)
    screenshot_max_bytes: int = Field(default=800_000, ge=10_000)
    #: search_page also matches by meaning (sentence embeddings; the first miss loads the model).
    semantic_search: bool = False
    #: The ``visible`` (in the viewport) mark on view lines. Off by default: every action scrolls its
    #: element into view itself, and the mark costs two tokens on most lines of a page's first view.
    visible_marks: bool = False


@dataclass(frozen=True, slots=True)
class Reply:
    text: str
    is_error: bool = False
    image: bytes | None = None  # PNG or JPEG
    image_type: str = "image/png"
    tokens: int = 0
    kind: str = ""  # "view", "delta", "" (no page text)


#: The folded view's header, as MCP answers write it (the server's instructions explain the fold).
FOLD_HEAD_SHORT = "New view, folded:"


def _capped(retriever: Retriever | str, view_cap: int) -> Retriever | str:
    """``retriever`` with its token ceiling lowered to ``view_cap`` (the rules retriever only: the
    others have their own fixed sizes). An MCP answer is read whole by the client's model, and a
    target the compact view leaves out is one ``search_page`` away."""
    from dataclasses import replace

    from pagelens.focus.rules import RulesRetriever

    if not view_cap or not isinstance(retriever, RulesRetriever):
        return retriever
    cfg = retriever.config
    ceiling = min(cfg.ceiling_tokens, view_cap)
    # no gap closing on top of the ceiling (RulesConfig.gap_tokens adds its runs beyond the budget):
    # a short pruned run is one expand away, and the cap is what this answer promises
    return RulesRetriever(replace(cfg, ceiling_tokens=ceiling, floor_tokens=min(cfg.floor_tokens, ceiling),
                                  gap_tokens=0))


class _CallError(Exception):
    """A call that cannot run as asked: answered as a tool error, the server keeps serving."""


class Browsing:
    def __init__(self, config: McpConfig | None = None) -> None:
        self.config = config or McpConfig()
        self.goal = self.config.goal
        self.calls = 0
        self._session: BrowserSession | None = None
        self._episodes_opened = 0
        self._episode: Episode | None = None
        self._executor: Executor | None = None
        #: what the last view told about its notices, marked when the client acted on the page since
        self._solicited: Solicited | None = None
        self._detector: SignalDetector | None = None
        self._tracker: ViewTracker | None = None
        self._view: PageView | None = None  # the last view this client saw (carried ids)
        self._parts: tuple[str, ...] = ()
        self._corpus: SearchCorpus | None = None  # the last view's lines as search_page matches them
        self._retrievers: dict[str, Retriever | str] = {}
        from pagelens.config import RenderConfig

        self._render_config = RenderConfig(with_visible=self.config.visible_marks)

    # -- lifecycle -------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self._session is not None

    @property
    def episodes_opened(self) -> int:
        """How many episodes this client has opened: a browser's processes change only when one
        opens (the first starts the browser, a later one restarts a killed or crashed one)."""
        return self._episodes_opened

    def chromium_pids(self) -> list[int]:
        return self._session.chromium_pids() if self._session is not None else []

    def close(self) -> None:
        """Close the page and the browser (idempotent)."""
        self._close_episode()
        if self._session is not None:
            session, self._session = self._session, None
            session.close()

    def _close_episode(self) -> None:
        if self._episode is not None:
            episode, self._episode = self._episode, None
            episode.close()
        self._executor = self._detector = None
        self._view, self._parts, self._corpus, self._solicited = None, (), None, None
        if self._tracker is not None:
            self._tracker.forget()

    def _ensure_episode(self) -> Episode:
        from pagelens.actions.executor import Budgets, Executor
        from pagelens.browser.session import BrowserSession
        from pagelens.config import BrowserConfig
        from pagelens.focus.delta import ViewTracker
        from pagelens.signals.detector import SignalDetector

        if self._session is not None and self._session.crashed:
            self.close()
        if self._session is None:
            from pagelens.mcp.pwstack import install

            install()  # Playwright's per-call stack capture without source reads (pagelens.mcp.pwstack)
            c = self.config
            self._session = BrowserSession(BrowserConfig(
                executable=c.chromium, headless=c.headless, viewport_width=c.viewport_width,
                viewport_height=c.viewport_height, navigation_timeout_s=c.navigation_timeout_s,
                extract_timeout_s=max(c.navigation_timeout_s, 2 * c.action_timeout_s))).start()
        if self._episode is None:
            self._episode = self._session.episode()  # (may start a new browser: one killed or crashed)
            self._episodes_opened += 1
            budget = self.config.budget
            self._executor = Executor(self._episode, Budgets(max_steps=budget, max_reloads=budget, max_read_text=budget,
                                                             max_recover=budget), timeout_s=self.config.action_timeout_s)
            self._detector = SignalDetector(self._episode, timeout_ms=self.config.action_timeout_s * 1000)
            self._executor.after_js = self._detector.read_js  # the detector's read in the settle call
            if self._tracker is None:
                self._tracker = ViewTracker(mark=False, compact=True, echo=False, sticky=True, terse=True,
                                            fold_head=FOLD_HEAD_SHORT)  # one space a level, '= [A] +N' folds
        return self._episode

    # -- calls -------------------------------------------------------------------------------
    def call(self, call: ToolCall) -> Reply:
        self.calls += 1
        try:
            handler = getattr(self, f"_tool_{call.tool}")
            return handler(call.action)  # type: ignore[no-any-return]
        except _CallError as exc:
            return self._error(str(exc))
        except BrowserCrashed as exc:
            self.close()
            return self._error(f"{call.tool}: the browser crashed ({exc}); the next call starts a new one.")
        except PageTimeout as exc:  # a hung renderer hangs the next page of its site too: new browser
            self.close()
            return self._error(f"{call.tool}: {exc}. The browser was restarted; navigate(url) opens a fresh page.")
        except PageError as exc:
            return self._error(f"{call.tool}: {exc}")
        except BrowserError as exc:
            self.close()
            return self._error(f"{call.tool}: {exc}")
        except PagelensError as exc:
            return self._error(f"{call.tool}: {exc}")

    def _error(self, text: str) -> Reply:
        answer = compose((text,), None, cap=self.config.cap, more=self._more())
        return Reply(answer.text, True, tokens=answer.tokens)

    def _more(self) -> str:
        tools = ["observe(goal=...)"] + [t for t in ("search_page(text)", "expand(pid)") if t.split("(")[0] in TOOLS]
        return "Narrower: " + ", ".join(tools) + "."

    def _page(self) -> Episode:
        if self._episode is None or self._view is None:
            raise _CallError("no page is open yet: call navigate(url) first.")
        return self._episode

    # -- observation -----------------------------------------------------------------------
    def _retriever(self, name: str) -> Retriever | str:
        if name not in self._retrievers:
            from pagelens.focus.registry import NAMES, is_reference, make_retriever

            if name not in NAMES and name != "full":
                raise _CallError(f"unknown retriever {name!r}; use one of: {', '.join(NAMES)}")
            made: Retriever | str = name if is_reference(name) else make_retriever(name)
            self._retrievers[name] = _capped(made, self.config.view_cap)
        return self._retrievers[name]

    def _look(self, *, goal: str | None = None, retriever: str | None = None, full: bool = False,
              allow_delta: bool = True) -> tuple[str, int, str]:
        """Observe now; (text to send, its tokens, "view" or "delta"). Records it as seen."""
        from pagelens.focus.view import focus_view

        episode = self._page() if self._view is not None else self._episode
        assert episode is not None and self._tracker is not None and self._detector is not None
        obs = episode.observe()
        goal = goal if goal is not None else self.goal
        rc = self._render_config
        if full:
            view = focus_view(obs, render_config=rc)
        elif goal or (retriever and retriever not in ("none", "full")):
            view = focus_view(obs, goal=goal, retriever=self._retriever(retriever or self.config.retriever),
                              render_config=rc, solicited=self._solicited)
        else:  # no goal: the refined tree (tables as rows, folded option lists)
            view = focus_view(obs, refined=True, render_config=rc)
        self._detector.arm(obs)
        self._solicited = view.focused.solicited if view.focused is not None else None
        update = self._tracker.update(view, allow_delta=allow_delta, label=f"(call {self.calls})",
                                      goal=goal)
        self._view = update.view
        return update.text, update.tokens, update.kind

    def _answer(self, head: list[str], *, look: bool, allow_delta: bool = True, is_error: bool = False,
                **look_args: Any) -> Reply:
        view_text, kind = None, ""
        if look:
            known = self._view.observation.url if self._view is not None else None
            view_text, _, kind = self._look(allow_delta=allow_delta, **look_args)
            assert self._view is not None
            url = self._view.observation.url
            # the address, unless the client has it: the head names it, or it is the last view's
            named = url == known or any(url in h or f"now at {relative_url(url, url)}" in h for h in head)
            if kind == "view" and not named:
                view_text = f"Page: {url}\n{view_text}"
        answer: Answer = compose(head, view_text, cap=self.config.cap, more=self._more())
        self._parts = answer.parts
        return Reply(answer.text, is_error, tokens=answer.tokens, kind=kind)

    # -- tools -------------------------------------------------------------------------------
    def _tool_navigate(self, action: Action) -> Reply:
        episode = self._ensure_episode()
        raw = str(action.args["url"]).strip()
        here = episode.tab.url
        base = here if here.startswith("http") else ""
        url = urljoin(base, raw) if base else raw
        problem = self._origin_problem(url)
        if problem:
            return self._error(f"navigate({raw!r}): {problem}")
        info = episode.goto(url)
        head = f"opened {episode.tab.url}"
        if info.get("load_timeout"):
            head += (f" (the page did not finish loading within {self.config.navigation_timeout_s:.0f} s; "
                     "shown as it is now)")
        return self._answer([head + "."], look=True)

    def _origin_problem(self, url: str) -> str | None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            return f"only http(s) URLs can be opened, not {parts.scheme or 'a relative path'!r} (no page is open yet)."
        origin = f"{parts.scheme}://{parts.netloc}".lower()
        allowed = tuple(o.rstrip("/").lower() for o in self.config.allowed_origins)
        if allowed:
            if origin not in allowed:
                return f"{origin} is not an allowed origin (allowed: {', '.join(allowed)})."
        elif (parts.hostname or "").lower() not in _LOOPBACK and not (parts.hostname or "").startswith("127."):
            return f"{origin} is not an allowed origin (this server reaches loopback pages only)."
        return None

    def _act(self, action: Action) -> Reply:
        self._page()
        assert self._executor is not None and self._detector is not None and self._view is not None
        if action.name == "goto":
            url = urljoin(self._page().tab.url, str(action.args["url"]))
            problem = self._origin_problem(url)
            if problem:
                return self._error(f"{action.render()}: {problem}")
        if action.name in VIEW:  # expand / search_page: answered from the last view, the page untouched
            return self._recover(action)
        fb = self._executor.execute(action, self._view.observation)
        if fb.status in ("invalid", "budget"):
            return self._error(fb.message)
        if fb.detail.get("unresponsive"):  # a script that never yields: the page cannot be read any more
            raise PageTimeout(f"{fb.message} The page's main thread no longer answers")
        self._solicited = after_action(self._solicited, action.name)  # what appears now, the client opened
        signals = self._detector.check(fb)
        self._known_edit(action, fb)
        # a look only when the page may differ from the client's last view: a failure alone on a
        # page whose fingerprint did not move (the feedback says what went wrong) needs none
        unchanged = fb.before is not None and fb.after is not None and not fb.changes
        look = any(s.kind != "action_failure" for s in signals) or (bool(signals) and not unchanged)
        head = [action_head(fb, view_follows=look), signal_note(signals, fb)]
        return self._answer(head, look=look, is_error=fb.status == "failed")

    def _known_edit(self, action: Action, fb: Any) -> None:
        """A fill or selection whose answer tells the client what the field now holds: the
        client's copy of the last view reads so (the server's instructions say it), and the
        next view leaves the field's line out when it did not change otherwise."""
        detail = fb.detail or {}
        value = detail.get("value", detail.get("selected"))
        eid = str(action.args.get("id", ""))
        if (self._tracker is None or not fb.ok or value is None or action.name not in ("fill", "select_option")
                or not any(f"[{eid}] now {verb}" in fb.message for verb in ("contains", "shows"))
                or detail.get("enter")):  # Enter may have sent the form: the next page is another one
            return
        self._tracker.known_value(eid, str(value))

    def _recover(self, action: Action) -> Reply:
        """expand / search_page on the client's last view (the page untouched). search_page by
        words only (phrase, words, BM25) unless ``--semantic-search``: loading the embedding model
        on a miss takes seconds, and an MCP call must stay quick. The answer carries the lines
        only, without the context lines the client's view has (:mod:`pagelens.mcp.terse`)."""
        from pagelens.focus.recover import DEFAULT_MAX_TOKENS, SearchCorpus, expand, search_page

        view = self._view
        assert view is not None and self._tracker is not None
        limit = self.config.cap - 200
        if action.name == "expand":
            rec = expand(view.rendering, view.focused, str(action.args["placeholder"]),
                         start=int(action.args.get("start", 0)), max_tokens=min(limit, DEFAULT_MAX_TOKENS))
        else:
            # best first, within half the view cap: an agent searching for a name needs the best few
            budget = max(200, self.config.view_cap // 2) if self.config.view_cap else self.config.cap
            if self._corpus is None or not self._corpus.of(view.rendering, view.focused):
                self._corpus = SearchCorpus(view.rendering, view.focused)  # (the view's lines, prepared once)
            rec = search_page(view.rendering, str(action.args["text"]), focused=view.focused,
                              semantic=None if self.config.semantic_search else False, max_tokens=min(budget, limit),
                              corpus=self._corpus)
        if not rec.ok:
            return self._error(f"{action.render()}: {rec.error}")
        block = terse_block(rec, view.rendering, self._tracker.known_by_id)
        note = rec.note.removeprefix(f"{rec.request}: ")  # expand's note names the placeholder the call names
        if rec.methods:  # how the matches were found: the library's trace detail, not the client's
            note = note.replace(f" (matched by {', '.join(rec.methods)})", "", 1)
        return self._answer([f"{action.render()}: {note}"] + ([block] if block else []), look=False)

    _tool_click = _tool_fill = _tool_select_option = _tool_press = _tool_hover = _act
    _tool_scroll = _tool_go_back = _tool_find_text = _tool_read_text = _act
    _tool_search_page = _tool_expand = _act

    def _tool_observe(self, action: Action) -> Reply:
        args = action.args
        if "part" in args and not ({"goal", "retriever", "full"} & set(args)):
            if not self._parts:
                return self._error("observe(part=...): the last answer was not cut; there are no parts.")
            answer = part_answer(self._parts, int(args["part"]), cap=self.config.cap, more=self._more())
            return Reply(answer.text, tokens=answer.tokens, kind="view")
        self._page()
        goal = str(args["goal"]) if "goal" in args else None
        retriever = str(args["retriever"]) if "retriever" in args else None
        # a plain look again answers with what changed since the view this client has; a new goal,
        # retriever or the full tree is a different view: sent whole
        plain = goal is None and retriever is None and not args.get("full", False)
        reply = self._answer([], look=True, allow_delta=plain, goal=goal, retriever=retriever,
                             full=bool(args.get("full", False)))
        if "part" in args and int(args["part"]) > 1 and self._parts:
            answer = part_answer(self._parts, int(args["part"]), cap=self.config.cap, more=self._more())
            return Reply(answer.text, tokens=answer.tokens, kind="view")
        return reply

    def _tool_set_goal(self, action: Action) -> Reply:
        self.goal = str(action.args["goal"]).strip() or None
        head = f"set_goal: the views are now focused on {self.goal!r}." if self.goal else "set_goal: goal cleared."
        if self._view is None:
            return self._answer([head + " (No page is open yet: navigate(url) next.)"], look=False)
        return self._answer([head], look=True, allow_delta=False)

    def _tool_screenshot(self, action: Action) -> Reply:
        from pagelens.errors import PagelensError

        tab = self._page().tab
        cap = self.config.screenshot_max_bytes
        full = bool(action.args.get("full_page", False))
        try:
            shot = tab.screenshot_bytes(kind="png", full_page=full)
            kind = "image/png"
            if len(shot) > cap:
                shot, kind = tab.screenshot_bytes(kind="jpeg", quality=60, full_page=full), "image/jpeg"
            if len(shot) > cap and full:
                shot = tab.screenshot_bytes(kind="jpeg", quality=50, full_page=False)
                full = False
        except PagelensError as exc:
            raise _CallError(f"screenshot failed: {str(exc).splitlines()[0]}") from None
        if len(shot) > cap:
            return self._error(f"screenshot: {len(shot)} bytes even as a JPEG of the viewport, above the "
                               f"{cap}-byte cap.")
        what = "whole page" if full else "viewport"
        return Reply(f"screenshot of the {what} of {tab.url} ({kind}, {len(shot)} bytes).", image=shot,
                     image_type=kind)

    def _tool_close(self, action: Action) -> Reply:
        had = self._episode is not None
        self._close_episode()
        return Reply("close: the page was closed; navigate(url) opens a new one." if had else "close: no page was open.")
