"""Run BrowserGym's MiniWoB++ tasks offline, on the system's Chromium.

BrowserGym launches Chromium itself (twice: the task browser and the chat browser) through
Playwright's *default* executable, which ``playwright install`` would download, and reads
the task pages from ``MINIWOB_URL``. Offline, neither exists. :func:`prepare_browsergym_env`
fixes both without touching BrowserGym:

* ``PLAYWRIGHT_BROWSERS_PATH`` points at a private directory holding a symlink at the path
  the installed Playwright expects for its pinned Chromium revision (read from
  ``playwright/driver/package/browsers.json``, e.g. ``chromium-1117/chrome-linux/chrome``
  for 1.44), pointing at the Chromium found by :func:`pagelens.browser.chromium.find_chromium`.
* ``MINIWOB_URL`` is the ``miniwob`` package's task directory (``file://…/`` by default, or
  the URL yielded by :func:`serve_miniwob`, which serves it on 127.0.0.1).

Call it before BrowserGym starts its global Playwright driver (the driver reads
``PLAYWRIGHT_BROWSERS_PATH`` once, when it starts)::

    with serve_miniwob() as url:
        prepare_browsergym_env(miniwob_url=url)
        env = gymnasium.make("browsergym/miniwob.click-test")

Users of :class:`pagelens.bench.browsergym_wrapper.FocusedObservation` need neither: the
wrapper calls :func:`ensure_browsergym_env`, which fills in only what is missing (Playwright's
pinned Chromium when it is not installed, ``MINIWOB_URL`` when unset: the installed pages served
on 127.0.0.1 while any wrapper is open).

browsergym-miniwob 0.14.3 implements no ``cheat()`` for its tasks (the base class raises
``NotImplementedError``), so :data:`ORACLES` holds small scripted solutions for a few tasks,
expressed as BrowserGym actions so that they go through ``env.step`` like an agent's.
``python -m pagelens.bench.miniwob_env [task ...]`` runs them and prints timings.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Protocol

from pagelens.browser.chromium import find_chromium
from pagelens.errors import ConfigError, MissingDependency


class Page(Protocol):
    """What the scripted solutions use of the page BrowserGym drives (its own Playwright page:
    pagelens holds none, so no Playwright import here)."""

    def locator(self, selector: str) -> Any: ...

__all__ = [
    "ORACLES",
    "ensure_browsergym_env",
    "miniwob_html_dir",
    "oracle_actions",
    "playwright_chromium_path",
    "prepare_browsergym_env",
    "serve_miniwob",
]


def _require_browsergym() -> None:
    for module, package in (("browsergym.miniwob", "browsergym-miniwob"), ("miniwob", "miniwob")):
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:  # parent package (browsergym) missing
            found = False
        if not found:
            raise MissingDependency(package, "browsergym")


def miniwob_html_dir() -> Path:
    """The directory holding the MiniWoB++ task pages (``…/miniwob/html/miniwob``)."""
    _require_browsergym()
    spec = importlib.util.find_spec("miniwob")
    assert spec is not None and spec.submodule_search_locations
    html = Path(next(iter(spec.submodule_search_locations))) / "html" / "miniwob"
    if not (html / "click-test.html").is_file():
        raise MissingDependency("miniwob", "browsergym")
    return html


def _default_cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "pagelens" / "ms-playwright"


def playwright_chromium_path(browsers_path: Path) -> Path:
    """Where the installed Playwright looks for its pinned Chromium under ``browsers_path``."""
    spec = importlib.util.find_spec("playwright")
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependency("playwright", "browsergym")
    manifest = Path(next(iter(spec.submodule_search_locations))) / "driver" / "package" / "browsers.json"
    try:
        browsers = json.loads(manifest.read_text())["browsers"]
        revision = next(b["revision"] for b in browsers if b["name"] == "chromium")
    except (OSError, KeyError, StopIteration, json.JSONDecodeError) as exc:
        raise ConfigError(f"cannot read Playwright's pinned Chromium revision from {manifest}: {exc}") from None
    # the layout of playwright/driver/package/lib/server/registry/index.js for Linux
    return browsers_path / f"chromium-{revision}" / "chrome-linux" / "chrome"


def _link(link: Path, target: str) -> None:
    if link.is_symlink() and os.readlink(link) == target:
        return
    link.parent.mkdir(parents=True, exist_ok=True)
    tmp = link.with_name(f".{link.name}.{os.getpid()}")
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(target)
    tmp.replace(link)  # atomic: concurrent callers never see a missing link


def prepare_browsergym_env(
    *,
    miniwob_url: str | None = None,
    chromium: str | None = None,
    cache_dir: str | Path | None = None,
    apply: bool = True,
) -> dict[str, str]:
    """Make BrowserGym + MiniWoB++ runnable offline; return the environment variables.

    ``miniwob_url`` defaults to the ``file://`` URL of the packaged task pages; a trailing
    ``/`` is added if missing (BrowserGym appends ``<task>.html``). ``chromium`` defaults to
    :func:`find_chromium`; ``cache_dir`` (where the symlink lives) to
    ``$XDG_CACHE_HOME/pagelens/ms-playwright``. With ``apply`` (the default) the variables
    are also written to ``os.environ``, which BrowserGym and its Playwright driver read.
    """
    _require_browsergym()
    executable = os.path.realpath(find_chromium(chromium))
    browsers = Path(cache_dir) if cache_dir is not None else _default_cache_dir()
    _link(playwright_chromium_path(browsers), executable)
    url = miniwob_url or miniwob_html_dir().as_uri()
    if not url.endswith("/"):
        url += "/"
    env = {"PLAYWRIGHT_BROWSERS_PATH": str(browsers), "MINIWOB_URL": url}
    if apply:
        os.environ.update(env)
    return env


@contextmanager
def serve_miniwob() -> Iterator[str]:
    """Serve the MiniWoB++ pages on 127.0.0.1; yield ``MINIWOB_URL`` (trailing ``/``)."""
    from pagelens.browser.serve import StaticServer

    html = miniwob_html_dir()
    with StaticServer(html.parent) as server:
        yield server.url(html.name) + "/"


class _SharedServer:
    """The MiniWoB++ server :func:`ensure_browsergym_env` started, and how many callers use it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0
        self.stack: ExitStack | None = None


_MINIWOB = _SharedServer()


def _playwright_root() -> Path:
    return Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache" / "ms-playwright")


def ensure_browsergym_env(*, miniwob: bool = True, chromium: str | None = None) -> Callable[[], None]:
    """Fill in what BrowserGym needs here and is missing; return the function that undoes it.

    * Playwright's pinned Chromium: when ``PLAYWRIGHT_BROWSERS_PATH`` is unset and the default
      location holds no browser (``playwright install`` cannot work offline), a symlink to the
      Chromium :func:`find_chromium` picks (``PAGELENS_CHROMIUM``, then Debian's) is made in
      pagelens's cache and ``PLAYWRIGHT_BROWSERS_PATH`` set to it (permanent for the process: the
      Playwright driver reads it once).
    * With ``miniwob`` and ``MINIWOB_URL`` unset: the ``miniwob`` package's pages are served on
      127.0.0.1 and ``MINIWOB_URL`` points there, shared by every caller until the last one
      calls the returned function (the server stops and ``MINIWOB_URL`` is removed again).

    A variable the user set is never changed. Call before the environment's first ``reset``.
    """
    _require_browsergym()
    if "PLAYWRIGHT_BROWSERS_PATH" not in os.environ and not playwright_chromium_path(_playwright_root()).exists():
        cache = _default_cache_dir()
        _link(playwright_chromium_path(cache), os.path.realpath(find_chromium(chromium)))
        os.environ["PLAYWRIGHT_BROWSERS_PATH"] = str(cache)
    if not miniwob:
        return lambda: None
    shared = _MINIWOB
    with shared.lock:
        if shared.stack is None and os.environ.get("MINIWOB_URL"):
            return lambda: None  # the user's own MINIWOB_URL
        if shared.stack is None:
            stack = ExitStack()
            os.environ["MINIWOB_URL"] = stack.enter_context(serve_miniwob())
            shared.stack = stack
        shared.users += 1
    released = threading.Event()

    def release() -> None:
        if released.is_set():
            return
        released.set()
        with shared.lock:
            shared.users -= 1
            if shared.users == 0 and shared.stack is not None:
                stack, shared.stack = shared.stack, None
                os.environ.pop("MINIWOB_URL", None)
                stack.close()

    return release


# -- scripted solutions ----------------------------------------------------------------------
#: task name -> function(page, goal) returning the BrowserGym actions that solve the task.
Oracle = Callable[[Page, str], list[str]]

_BID = "bid"  # browsergym.core.constants.BROWSERGYM_ID_ATTRIBUTE


def _bid(page: Page, selector: str) -> str:
    bid = page.locator(selector).first.get_attribute(_BID)
    if not bid:
        raise ConfigError(f"no element with a BrowserGym id matches {selector!r}")
    return bid


def _quoted(goal: str) -> str:
    m = re.search(r'"([^"]*)"', goal)
    if m is None:
        raise ConfigError(f"goal has no quoted text: {goal!r}")
    return m.group(1)


def _click_test(page: Page, goal: str) -> list[str]:
    return [f'click("{_bid(page, "#subbtn")}")']


def _click_button(page: Page, goal: str) -> list[str]:
    text = _quoted(goal)  # Click on the "Ok" button.
    buttons = page.locator("#area button")
    for i in range(buttons.count()):
        b = buttons.nth(i)
        if (b.text_content() or "").strip() == text:
            return [f'click("{b.get_attribute(_BID)}")']
    raise ConfigError(f"no button {text!r} on the page")


def _enter_text(page: Page, goal: str) -> list[str]:
    text = _quoted(goal)  # Enter "Kasie" into the text field and press Submit.
    return [f'fill("{_bid(page, "#tt")}", {json.dumps(text)})', f'click("{_bid(page, "#subbtn")}")']


def _focus_text(page: Page, goal: str) -> list[str]:
    return [f'click("{_bid(page, "#tt")}")']


ORACLES: dict[str, Oracle] = {
    "click-test": _click_test,
    "click-button": _click_button,
    "enter-text": _enter_text,
    "focus-text": _focus_text,
}


def oracle_actions(task: str, page: Page, goal: str) -> list[str]:
    """The scripted solution of ``task`` (``click-test`` or ``miniwob.click-test``)."""
    name = task.removeprefix("browsergym/").removeprefix("miniwob.")
    try:
        return ORACLES[name](page, goal)
    except KeyError:
        raise ConfigError(f"no scripted solution for {name!r}; known: {', '.join(sorted(ORACLES))}") from None


def _main(argv: list[str] | None = None) -> int:  # pragma: no cover - manual check
    """Run tasks with their scripted solution; print reward and timings as JSON lines."""
    import sys
    import time

    tasks = (argv if argv is not None else sys.argv[1:]) or ["click-test", "click-button"]
    with serve_miniwob() as url:
        print(json.dumps(prepare_browsergym_env(miniwob_url=url)))
        import browsergym.miniwob  # noqa: F401 - registers the tasks
        import gymnasium as gym

        for task in tasks:
            t = time.perf_counter()
            env = gym.make(f"browsergym/miniwob.{task}", pre_observation_delay=0.0)
            made = time.perf_counter() - t
            try:
                t = time.perf_counter()
                obs, _info = env.reset(seed=0)
                reset = time.perf_counter() - t
                page = env.unwrapped.page  # type: ignore[attr-defined]
                steps, reward, done = [], 0.0, False
                for action in oracle_actions(task, page, obs["goal"]):
                    t = time.perf_counter()
                    obs, r, done, _trunc, _info = env.step(action)
                    reward = float(r)
                    steps.append(round(time.perf_counter() - t, 3))
                    if obs["last_action_error"]:
                        print(f"{task}: action error: {obs['last_action_error']}", file=sys.stderr)
                print(json.dumps({"task": task, "goal": obs["goal"], "reward": reward, "done": done,
                                  "make_s": round(made, 3), "reset_s": round(reset, 3), "step_s": steps}))
            finally:
                env.close()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())
