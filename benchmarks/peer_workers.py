"""Workers of ``observe_peers.py``: one long-lived process per tool, each in its own venv.

Started as ``PYTHON peer_workers.py TOOL --chromium EXE``. Only the standard library is
imported at the top, so the same file runs under pagelens' venv (tools ``pagelens``,
``walker``, ``browsergym``), browser-use's venv (``browser-use``) and a current
Playwright's venv (``playwright``) without the venvs ever mixing.

Protocol (JSON lines): the worker reads requests on stdin
``{"url", "goal", "deadline_s", "out"}`` and answers on the file descriptor that was its
stdout when it started (anything a library prints goes to stderr instead):

* ``{"ready": true, "versions": {...}}`` once the browser is up;
* per request ``{"loaded": true, "load_s"}`` after the page loaded (the orchestrator's
  deadline clock starts there), then ``{"ok": true, "observe_s", "focus_s", "total_s",
  "texts": {"full": path, "sent": path}, ...}`` or ``{"ok": false, "error"}``.

Every tool loads the page into a fresh browser context (browser-use: a fresh navigation of
its one tab) and times only the observation of the loaded page.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: Non-loopback traffic goes to a closed proxy port and fails at once, inside Chromium (the
#: same flags for every tool, as in compare_browsergym.py).
PROXY_ARGS = ["--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=127.0.0.1;localhost;[::1]"]
QUIET_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--no-first-run", "--disable-quic",
              # as pagelens' own launch (and so BrowserGym's here): no omnibox pop-up WebUI renderer per
              # window (Chromium 15x headless builds one for every new context: ~420 ms of CPU, ~55 MB PSS)
              "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"]
VIEWPORT = {"width": 1280, "height": 720}


class Channel:
    """The protocol's output: the original stdout; fd 1 is pointed at stderr."""

    def __init__(self) -> None:
        self._out = os.fdopen(os.dup(1), "w", buffering=1)
        os.dup2(2, 1)
        sys.stdout = sys.stderr

    def send(self, msg: dict[str, Any]) -> None:
        self._out.write(json.dumps(msg) + "\n")
        self._out.flush()


def _write(out: str, kind: str, text: str) -> str:
    path = f"{out}.{kind}.txt"
    Path(path).write_text(text, encoding="utf-8")
    return path


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


def _requests() -> Any:
    for line in sys.stdin:
        if line.strip():
            yield json.loads(line)


# ------------------------------------------------------------------------------------------
# pagelens (reference CDP path, or the walker), BrowserGym: pagelens' venv
# ------------------------------------------------------------------------------------------
def _walker_support() -> str | None:
    """How this checkout selects the walker extraction ("observe", "config"), or None."""
    import inspect

    from pagelens.browser.session import Episode
    from pagelens.config import BrowserConfig

    if "extraction" in inspect.signature(Episode.observe).parameters:
        return "observe"
    if "extraction" in BrowserConfig.model_fields:
        return "config"
    return None


def run_pagelens(chan: Channel, chromium: str, tool: str) -> None:
    from pagelens.api import focus_view
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig

    how = _walker_support() if tool == "walker" else None
    if tool == "walker" and how is None:
        chan.send({"ready": False, "error": "this checkout has no extraction='walker' (h-walker not merged yet)"})
        return
    extra: dict[str, Any] = {"extraction": "walker"} if how == "config" else {}
    if tool == "pagelens" and "extraction" in BrowserConfig.model_fields:
        extra = {"extraction": "cdp"}  # the reference, whatever the checkout's default is
    config = BrowserConfig(executable=chromium, block_external=False, extra_args=tuple(PROXY_ARGS),
                           navigation_timeout_s=120, extract_timeout_s=600, **extra)
    with BrowserSession(config) as session:
        chan.send({"ready": True, "versions": {"pagelens": _version("pagelens"), "playwright": _version("playwright"),
                                               "extraction": "walker" if tool == "walker" else "cdp"}})
        for req in _requests():
            try:
                with session.episode() as ep:
                    t = time.perf_counter()
                    ep.goto(req["url"])
                    chan.send({"loaded": True, "load_s": time.perf_counter() - t})
                    t0 = time.perf_counter()
                    kw: dict[str, Any] = {"extraction": "walker"} if how == "observe" else {}
                    obs = ep.observe(timeout_s=req["deadline_s"], **kw)
                    t1 = time.perf_counter()
                    view = focus_view(obs, goal=req["goal"])
                    t2 = time.perf_counter()
                chan.send({"ok": True, "observe_s": t1 - t0, "focus_s": t2 - t1, "total_s": t2 - t0,
                           "render_s": view.timings.get("render"), "focus_only_s": view.timings.get("focus"),
                           "nodes": len(obs.nodes), "stages": {k: v for k, v in obs.timings.items()},
                           "texts": {"full": _write(req["out"], "full", view.rendering.text()),
                                     "sent": _write(req["out"], "sent", view.text())}})
                # the next page's peak must not include this page's tree and view, held only by
                # these names until they are rebound after the next observation
                del obs, view
            except Exception as exc:  # noqa: BLE001 - every failure is a reported figure
                chan.send({"ok": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}",
                           "timeout": type(exc).__name__ == "PageTimeout"})


def run_browsergym(chan: Channel, chromium: str) -> None:
    sys.path.insert(0, str(HERE))
    from compare_browsergym import observe_browsergym

    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig

    config = BrowserConfig(executable=chromium, block_external=False, extra_args=tuple(PROXY_ARGS),
                           navigation_timeout_s=120, extract_timeout_s=600)
    with BrowserSession(config) as session:
        chan.send({"ready": True, "versions": {"browsergym-core": _version("browsergym-core"),
                                               "playwright": _version("playwright")}})
        for req in _requests():
            try:
                with session.episode() as ep:
                    t = time.perf_counter()
                    ep.goto(req["url"])
                    chan.send({"loaded": True, "load_s": time.perf_counter() - t})
                    t0 = time.perf_counter()
                    text = observe_browsergym(ep.page)
                    t1 = time.perf_counter()
                path = _write(req["out"], "full", text)
                chan.send({"ok": True, "observe_s": t1 - t0, "focus_s": 0.0, "total_s": t1 - t0,
                           "texts": {"full": path, "sent": path}})
            except Exception as exc:  # noqa: BLE001
                chan.send({"ok": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}"})


# ------------------------------------------------------------------------------------------
# Playwright's ARIA snapshot: a current Playwright's venv
# ------------------------------------------------------------------------------------------
def run_playwright(chan: Channel, chromium: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=[*QUIET_ARGS, *PROXY_ARGS])
        chan.send({"ready": True, "versions": {"playwright": _version("playwright")}})
        for req in _requests():
            try:
                ctx = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
                try:
                    page = ctx.new_page()
                    t = time.perf_counter()
                    page.goto(req["url"], wait_until="load", timeout=120_000)
                    chan.send({"loaded": True, "load_s": time.perf_counter() - t})
                    t0 = time.perf_counter()
                    text = page.locator("body").aria_snapshot(timeout=req["deadline_s"] * 1000)
                    t1 = time.perf_counter()
                finally:
                    ctx.close()
                path = _write(req["out"], "full", text)
                chan.send({"ok": True, "observe_s": t1 - t0, "focus_s": 0.0, "total_s": t1 - t0,
                           "texts": {"full": path, "sent": path}})
            except Exception as exc:  # noqa: BLE001
                chan.send({"ok": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}",
                           "timeout": type(exc).__name__ == "TimeoutError"})
        browser.close()


# ------------------------------------------------------------------------------------------
# browser-use's DOM serializer: browser-use's venv
# ------------------------------------------------------------------------------------------
def run_browser_use(chan: Channel, chromium: str) -> None:
    for key, value in {"ANONYMIZED_TELEMETRY": "false", "BROWSER_USE_CLOUD_SYNC": "false",
                       "BROWSER_USE_DISABLE_EXTENSIONS": "1", "BROWSER_USE_LOGGING_LEVEL": "warning"}.items():
        os.environ.setdefault(key, value)
    import asyncio

    asyncio.run(_browser_use(chan, chromium))


async def _browser_use(chan: Channel, chromium: str) -> None:
    import asyncio

    from browser_use import BrowserProfile, BrowserSession
    from browser_use.agent.prompts import AgentMessagePrompt
    from browser_use.browser.events import NavigateToUrlEvent
    from browser_use.dom.service import DomService
    from browser_use.dom.views import DEFAULT_INCLUDE_ATTRIBUTES

    # what AgentMessagePrompt cuts the element text to before sending it (its default)
    cap = int(__import__("inspect").signature(AgentMessagePrompt.__init__).parameters["max_clickable_elements_length"].default)
    profile = BrowserProfile(executable_path=chromium, headless=True, enable_default_extensions=False,
                             args=[*QUIET_ARGS, *PROXY_ARGS], viewport=VIEWPORT, window_size=VIEWPORT,
                             highlight_elements=False, dom_highlight_elements=False, keep_alive=False)
    session = BrowserSession(browser_profile=profile)
    await session.start()
    chan.send({"ready": True, "versions": {"browser-use": _version("browser-use"), "cdp-use": _version("cdp-use")}})
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            t = time.perf_counter()
            event = session.event_bus.dispatch(NavigateToUrlEvent(url=req["url"]))
            await event
            await event.event_result(raise_if_any=True, raise_if_none=False)
            chan.send({"loaded": True, "load_s": time.perf_counter() - t})
            t0 = time.perf_counter()
            state, _, timing = await asyncio.wait_for(DomService(session).get_serialized_dom_tree(),
                                                      timeout=req["deadline_s"])
            text = state.llm_representation(include_attributes=DEFAULT_INCLUDE_ATTRIBUTES)
            t1 = time.perf_counter()
            chan.send({"ok": True, "observe_s": t1 - t0, "focus_s": 0.0, "total_s": t1 - t0,
                       "elements": len(state.selector_map), "truncated_at": cap,
                       "stages": {k: v / 1000 for k, v in timing.items() if k.endswith("_ms")},
                       "texts": {"full": _write(req["out"], "full", text),
                                 "sent": _write(req["out"], "sent", text[:cap])}})
            del state, text  # (as in run_pagelens: not held while the next page is observed)
        except Exception as exc:  # noqa: BLE001
            chan.send({"ok": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}",
                       "timeout": isinstance(exc, asyncio.TimeoutError), "traceback": traceback.format_exc()[-800:]})
    await session.kill()


def main() -> int:
    if len(sys.argv) < 4 or "--chromium" not in sys.argv or sys.argv[1].startswith("-"):
        print(__doc__.splitlines()[2].strip(), file=sys.stderr)  # the usage line
        return 0 if {"-h", "--help"} & set(sys.argv) else 2
    tool = sys.argv[1]
    chromium = sys.argv[sys.argv.index("--chromium") + 1]
    chan = Channel()
    try:
        if tool in ("pagelens", "walker", "walker-base"):
            run_pagelens(chan, chromium, "walker" if tool == "walker-base" else tool)
        elif tool == "browsergym":
            run_browsergym(chan, chromium)
        elif tool == "playwright":
            run_playwright(chan, chromium)
        elif tool == "browser-use":
            run_browser_use(chan, chromium)
        else:
            chan.send({"ready": False, "error": f"unknown tool {tool!r}"})
            return 2
    except Exception as exc:  # noqa: BLE001 - the orchestrator reports it
        chan.send({"ready": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}",
                   "traceback": traceback.format_exc()[-1500:]})
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
