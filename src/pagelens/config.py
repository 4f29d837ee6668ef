"""Typed configuration values (pydantic, frozen, unknown keys rejected)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BrowserConfig(_Frozen):
    executable: str | None = None  # else PAGELENS_CHROMIUM, else discovery
    headless: bool = True
    viewport_width: int = Field(default=1280, ge=200, le=7680)
    viewport_height: int = Field(default=720, ge=200, le=4320)
    #: Abort every request whose host is not loopback (pages must render offline).
    block_external: bool = True
    navigation_timeout_s: float = Field(default=20.0, gt=0)
    #: Deadline of one observation (all frames). Enforced from outside the blocked call: past
    #: it a watchdog stops the browser and the observation raises ``PageTimeout``.
    extract_timeout_s: float = Field(default=30.0, gt=0)
    #: Closing a context or the browser waits at most this long, then its processes are killed.
    close_timeout_s: float = Field(default=5.0, gt=0)
    #: More Chromium switches, after pagelens' own (``browser.chromium``: offline switches and a later V8
    #: Maglev tier, ``JIT_ARGS``). ``--disable-features``/``--enable-features``/``--js-flags`` given here are
    #: merged into pagelens' (a caller's V8 flag comes last and wins, e.g.
    #: ``--js-flags=--invocation-count-for-maglev=400`` restores V8's default).
    extra_args: tuple[str, ...] = ()
    #: How a page is read: ``"walker"`` (pagelens' in-page JS walker: one ``evaluate`` per frame,
    #: the default since it agrees with the reference on every interactive element of the corpus)
    #: or ``"cdp"`` (Chromium's own accessibility tree and DOM snapshot: the reference).
    extraction: Literal["cdp", "walker"] = "walker"


class RenderConfig(_Frozen):
    """How an observation becomes text. Defaults stay comparable to BrowserGym's
    ``flatten_axtree_to_str`` with clickable/visible tags, names rendered readably."""

    with_clickable: bool = True
    with_visible: bool = True
    skip_generic: bool = True
    remove_redundant_text: bool = True
    #: Inline ``data:`` URIs are shortened to their media type: they are never useful to an
    #: agent and can be half of a page's tokens. ``False`` reproduces them verbatim.
    shorten_data_urls: bool = True
    max_name_chars: int = Field(default=2000, ge=20)
