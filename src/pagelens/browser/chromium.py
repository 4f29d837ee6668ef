"""Find a Chromium executable that Playwright can drive.

Order: an explicit path (config / argument) → ``PAGELENS_CHROMIUM`` → for a headless launch,
Chromium's headless shell when installed (Debian's ``chromium-headless-shell``) → known Debian and
distribution paths → ``chromium``/``chromium-browser``/``google-chrome`` on ``PATH``.
Debian's ``/usr/bin/chromium`` is a shell wrapper; the real binary behind it is preferred.

The headless shell is Chromium's own content/Blink build without the browser's UI layer (no
profile services, extensions, sync, omnibox; the binary Playwright itself launches for headless
Chromium): the same engine and version, with fewer and smaller processes beside the renderer.
A headed launch needs the full browser.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from pathlib import Path

from pagelens.errors import BrowserNotFound

ENV_VAR = "PAGELENS_CHROMIUM"

_KNOWN = (
    "/usr/lib/chromium/chromium",  # Debian / Ubuntu package (real binary)
    "/usr/lib64/chromium-browser/chromium-browser",  # Fedora
    "/usr/lib/chromium-browser/chromium-browser",
    "/opt/google/chrome/chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
)
_ON_PATH = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: Chromium's headless shell, preferred for headless launches (a browser with no UI to show).
_HEADLESS_KNOWN = ("/usr/lib/chromium/chromium-headless-shell",)  # Debian's chromium-headless-shell (real binary)
_HEADLESS_ON_PATH = ("chromium-headless-shell",)

#: Flags that keep Chromium quiet and offline-safe (no background traffic to closed networks).
#: The omnibox pop-up features: Chromium 15x's headless mode builds each new window's (so each
#: browser context's) omnibox pop-up as a WebUI page in a renderer of its own (~55 MB PSS, ~420 ms
#: of CPU per context, most of it right after the page's ``load``: while it is first observed).
OFFLINE_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-default-apps",
    "--disable-extensions",
    "--mute-audio",
    "--disable-features=Translate,MediaRouter,OptimizationHints,WebUIOmniboxPopup,WebUIOmniboxAimPopup",
)

#: V8's mid tier (Maglev) later: a function is compiled by Maglev after 3,000 calls instead of V8's
#: default 400 (the top tier's own threshold is unchanged). An observation is a short burst of
#: JavaScript in a renderer that has never run it (every browser context has renderers of its
#: own): on a small page the walker's helpers pass 400 calls early, and Maglev compiles them on
#: the renderer's worker threads for a walk that ends before the compiled code pays back
#: (~10 ms of worker CPU competing with the walk for the cores on a 1k-element page). On big
#: pages the hot functions pass 3,000 calls early in the walk, so they are compiled all the same.
#: It changes when a page's code is compiled, never what it computes. A caller's own
#: ``--js-flags`` are appended after these (:func:`launch_args`), so they can set it back.
JIT_ARGS = ("--js-flags=--invocation-count-for-maglev=3000",)

#: Switches whose values are lists: every occurrence is merged into one flag (Chromium reads only
#: the last of repeated switches), with the separator of each list.
_LISTS = {"--disable-features": ",", "--enable-features": ",", "--js-flags": " "}


def launch_args(*groups: Iterable[str]) -> list[str]:
    """The flags of ``groups`` in order, with every ``--disable-features=`` (and
    ``--enable-features=``, ``--js-flags=``) merged into one flag at the place of its first
    occurrence: Chromium reads only the last of repeated switches, so a caller's
    ``--disable-features=X`` would otherwise silently re-enable what :data:`OFFLINE_ARGS`
    disables (and a caller's ``--js-flags`` drop :data:`JIT_ARGS`). Feature names are kept once;
    V8 flags are kept in order, repeats included (V8 reads them left to right: a later value of a
    flag wins, so the caller's come last and prevail)."""
    out: list[str] = []
    merged: dict[str, list[str]] = {}
    for arg in (a for g in groups for a in g):
        key, sep, value = arg.partition("=")
        if sep and key in _LISTS:
            if key not in merged:
                merged[key] = []
                out.append(key)
            items = [v for v in value.split(_LISTS[key]) if v]
            if key == "--js-flags":
                merged[key].extend(items)
            else:
                merged[key].extend(v for v in items if v not in merged[key])
        else:
            out.append(arg)
    return [f"{a}={_LISTS[a].join(merged[a])}" if a in merged else a for a in out]


def _usable(path: str | os.PathLike[str]) -> bool:
    p = Path(path)
    return p.is_file() and os.access(p, os.X_OK)


def find_chromium(explicit: str | None = None, *, headless: bool = False) -> str:
    """Return the path of a Chromium executable or raise :class:`BrowserNotFound`.

    ``headless``: the launch has no window, so Chromium's headless shell is taken when it is
    installed (an explicit path and ``PAGELENS_CHROMIUM`` still come first); otherwise, and for
    a headed launch, the full browser."""
    if explicit:
        if _usable(explicit):
            return str(explicit)
        raise BrowserNotFound(f"Chromium not found at configured path {explicit!r}")
    env = os.environ.get(ENV_VAR)
    if env:
        if _usable(env):
            return env
        raise BrowserNotFound(f"{ENV_VAR}={env!r} is not an executable file")
    if headless and (shell := _first(_HEADLESS_KNOWN, _HEADLESS_ON_PATH)):
        return shell
    if found := _first(_KNOWN, _ON_PATH):
        return found
    raise BrowserNotFound(
        "no Chromium found: install it (Debian: apt-get install -y chromium) "
        f"or set {ENV_VAR} to its executable"
    )


def _first(known: Iterable[str], on_path: Iterable[str]) -> str | None:
    """The first usable of the ``known`` paths, else of the names found on ``PATH``."""
    for candidate in known:
        if _usable(candidate):
            return candidate
    for name in on_path:
        found = shutil.which(name)
        if found:
            return found
    return None
