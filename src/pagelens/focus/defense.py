"""A deterministic prompt-injection detector over a rendered tree: provenance × general evidence.

Web pages can carry text written for the agent rather than for the user. :func:`detect` judges
*where* a span of text comes from and *what it does*, never how one attack is worded:

1. **Where** — each line carries its region (:mod:`pagelens.observe.provenance`): the site's
   chrome, its main content, user-generated content, an overlay, or text a sighted user does not
   see. A span needs less evidence in a review, a pop-up or hidden text (``_NEEDS``) than in the
   site's own content: the same sentence weighs more in a review than in the site's help.
2. **What** — :func:`pagelens.focus.evidence.evidence` measures, in any language, whom the span
   addresses, its mood, whether it dismisses the reader's instructions, speaks of the reader's
   user, steers off-site or towards credentials, disputes the page, or imitates the observation
   format. A span is flagged when it is *anchored* (it has something only text written to an
   automated reader has) and its points reach its region's bar.
3. **Spans** — each line alone; runs of two or three adjacent text siblings (rendering splits
   paragraphs); and whole blocks — user posts, dialogs, live regions — judged as one text.

A link or image whose own ``url=`` leads off-site (an ad) counts as an off-site destination, and a
span that repeats the goal's words to an addressed reader gets one more point (goal drift reuses
the goal's words). Flags name one of :data:`KINDS`; :func:`pagelens.focus.apply.focus` replaces
flagged text with one marker line and keeps the controls (a pop-up's close button).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pagelens.focus import lexicons as lx
from pagelens.focus.evidence import Evidence, domain, drifts, evidence, gate, normalise, orders_now, points, steers
from pagelens.types import Line, Region, Rendering

__all__ = ["KINDS", "DefenseReport", "Flag", "detect", "judge_text"]

KINDS = ("imitates-format", "overrides-instructions", "addresses-agent", "relays-user-wishes", "steers-offsite",
         "disputes-page", "changes-the-task")

#: Points a span needs, by region: less where honest text rarely speaks to anyone.
_NEEDS: dict[str, int] = {"user": 3, "overlay": 3, "unseen": 3, "main": 4, "chrome": 4}
#: Regions whose text the site did not write for every reader (or nobody sees): an unaddressed order that
#: steers off-site (:func:`~pagelens.focus.evidence.steers`) or changes the task is enough there.
_FOREIGN = frozenset({"user", "overlay", "unseen"})
_RANK: dict[str, int] = {"main": 0, "chrome": 1, "overlay": 2, "user": 3, "unseen": 4}
_BLOCK_ROLES = frozenset({"article", "comment", "listitem", "generic", "group", "region", "section", "blockquote",
                          "dialog", "alertdialog", "status", "alert", "log", "marquee", "note", "complementary",
                          "paragraph"})
_TEXT_ROLES = frozenset({"StaticText", "text", "strong", "emphasis", "mark", "link", "LineBreak", "superscript",
                         "subscript", "paragraph", "generic"})
_LABEL_ROLES = frozenset({"heading", "tab", "menuitem", "columnheader", "rowheader", "term"})
_MAX_BLOCK = 60  # lines: a bigger container is a page section, not one post or pop-up
_MAX_OVERLAY = 200  # a pop-up is one unit however long (a cookie dialog with its settings)
_PREFIX = re.compile(r"^(?:\[[^\]\s]+\]\s+)?[A-Za-z][\w-]*\s*")
_QUOTED = re.compile(r"""^(['"])((?:\\.|(?!\1).)*)\1(.*)$""", re.DOTALL)
_URL_PROP = re.compile(r"\b(?:url|href|src)=(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+)")
_LINE_URL = re.compile(r"\b(?:url|href|src)=['\"](https?://[^'\"]+)")
_STATE_PROPS = re.compile(r",\s*(?:clickable|visible|focused|required|disabled|modal|atomic|busy|checked|selected|"
                          r"expanded(?:=false)?|live='[^']*'|relevant='[^']*'|hasPopup='[^']*'|"
                          r"autocomplete='[^']*'|orientation='[^']*'|level=\d+)\b")
_LIVE = re.compile(r"\blive='(?!off)")
_WHERE = {"user": "user content", "overlay": "an overlay", "unseen": "text hidden from sighted users",
          "chrome": "the site's chrome", "main": "the main content"}
_MAX_TEXT = 4000  # characters judged per span (a huge aria-label is judged on its head)


@dataclass(frozen=True, slots=True)
class Flag:
    line: int  # Line.no
    kind: str  # one of KINDS
    reason: str
    excerpt: str
    region: str = "main"


@lru_cache(maxsize=16384)
def _payload(line_text: str) -> str:
    """What a line says, without its ``[id] role`` prefix, state flags and link targets."""
    rest = _PREFIX.sub("", line_text, count=1) if _PREFIX.match(line_text) else line_text
    m = _QUOTED.match(rest)
    if m:  # unquote the name so that text split over sibling lines joins up
        rest = m.group(2) + " " + m.group(3)
    if "=" in rest:
        rest = _URL_PROP.sub(" ", rest)
    if ", " in rest:
        rest = _STATE_PROPS.sub("", rest)
    return normalise(rest[:_MAX_TEXT])


def home_domains(rendering: Rendering) -> frozenset[str]:
    """The page's own domains: its address, what its chrome (navigation, banner, footer) links to,
    and any domain it links to at least three times."""
    seen: Counter[str] = Counter()
    home: set[str] = set()
    for ln in rendering.lines:
        if "=" not in ln.text:
            continue
        for m in _LINE_URL.finditer(ln.text):
            d = domain(m.group(1))
            seen[d] += 1
            if ln.role == "RootWebArea" or ln.region == "chrome":
                home.add(d)
    home |= {d for d, c in seen.items() if c >= 3}
    if not home and seen:
        home.add(seen.most_common(1)[0][0])
    return frozenset(home)


def _kind(ev: Evidence) -> str:
    if ev.imitation:
        return "imitates-format"
    if ev.override:
        return "overrides-instructions"
    if ev.principal == 2:
        return "relays-user-wishes"
    if ev.addressed == 2:
        return "addresses-agent"
    if ev.disputes == 2:
        return "disputes-page"
    return "steers-offsite"


def _shares_goal(text: str, goal: str | None) -> bool:
    if not goal:
        return False
    words = set(re.findall(r"\w{4,}", goal.lower()))
    found = words & set(re.findall(r"\w{4,}", text.lower()))
    return len(found) >= 2 and len(found) >= 0.3 * len(words)


def judge_text(text: str, region: Region | str = "main", *, goal: str | None = None,
               home: frozenset[str] = frozenset(), offsite_target: bool = False,
               label: bool = False, normalised: bool = False) -> tuple[str, str] | None:
    """(kind, reason) when ``text`` standing in ``region`` is judged to be written to the agent, else None.

    ``label``: the text is the site's own heading or tab label (a product name like "AI assistant: ask
    anything" reads as a vocative), so in the main content or chrome it needs one point more."""
    if not normalised:
        text = normalise(text[:_MAX_TEXT])
    foreign = region in _FOREIGN
    ev = evidence(text, home)
    if goal and (foreign or ev.addressed or ev.principal):
        shared = _shares_goal(text, goal)
        if shared and (drifts(text, shared, strict=not foreign)
                       or (foreign and bool(ev.offsite) and (ev.order or ev.modal)
                           and (ev.elsewhere or lx.CHANGE.search(text.lower()) is not None))):
            return "changes-the-task", (f"restates the goal while announcing that the task changed or moved (in "
                                        f"{_WHERE.get(region, region)})")
    if region == "unseen" and orders_now(text):
        return "addresses-agent", "gives an urgent order in text hidden from sighted users"
    if ev == Evidence():
        return None
    pts, anchored = points(ev)
    if not anchored and foreign and (steers(ev) or (region == "unseen" and ev.order and (
            ev.secrecy or ev.override or ev.principal or ev.addressed))):
        anchored, pts = True, max(pts, _NEEDS[region])  # nobody sees it, yet it gives orders to someone
    if not anchored:
        return None
    if offsite_target and not ev.offsite and (ev.addressed or ev.order or ev.credential):
        pts += 1  # a link or image leading off-site whose text speaks to the reader: an ad
    if ev.addressed and _shares_goal(text, goal):
        pts += 1  # a note to the reader that repeats the user's own task is steering that task
    if pts < _NEEDS.get(region, 4) + (label and region in ("main", "chrome")):
        return None
    return _kind(ev), f"{'; '.join(ev.reasons())} (in {_WHERE.get(region, region)}, {pts} points)"


def _offsite_target(line: Line, home: frozenset[str]) -> bool:
    return bool(home) and "=" in line.text and any(domain(u) not in home for u in _LINE_URL.findall(line.text))


def _worst(regions: Iterable[str]) -> str:
    return max(regions, key=lambda r: _RANK.get(r, 0), default="main")


def detect(rendering: Rendering, goal: str | None = None) -> tuple[Flag, ...]:
    """Flag the lines of ``rendering`` that carry text aimed at the agent."""
    lines = rendering.lines
    home = home_domains(rendering)
    payloads = [_payload(ln.text) for ln in lines]
    regions = _live_regions(lines)
    gated = [bool(p) and (gate(p, regions[i] in _FOREIGN) or (regions[i] == "unseen" and lx.URGENT_NOW.search(p) is not None))
             for i, p in enumerate(payloads)]
    if goal:  # goal drift needs no trigger word of its own, only a change word in foreign text
        gated = [g or (bool(p) and lx.CHANGE.search(p) is not None) for g, p in zip(gated, payloads)]
    flags: dict[int, Flag] = {}

    def flag(idx: Iterable[int], verdict: tuple[str, str], excerpt: str, region: str) -> None:
        for i in idx:
            flags.setdefault(lines[i].no, Flag(lines[i].no, verdict[0], verdict[1], excerpt[:160], region))

    # 1. every line alone
    for i, ln in enumerate(lines):
        if gated[i]:
            v = judge_text(payloads[i], regions[i], goal=goal, home=home, offsite_target=_offsite_target(ln, home),
                           label=ln.role in _LABEL_ROLES, normalised=True)
            if v:
                flag([i], v, payloads[i], regions[i])
    # 2. paragraphs rendered as sibling text lines: windows of three (two when the run is two lines long or
    #    the middle piece is long). Evidence only grows with the text, so a window of three stands for the
    #    two windows of two inside it; only windows with a piece past the gate are judged.
    def judge_window(window: list[int]) -> None:
        if any(lines[i].no in flags for i in window) or not any(gated[i] for i in window):
            return
        joined = " ".join(payloads[i] for i in window if payloads[i])
        region = _worst(regions[i] for i in window)
        v = judge_text(joined, region, goal=goal, home=home, normalised=True)
        if v:
            flag([i for i in window if payloads[i]], (v[0], v[1] + " (across adjacent lines)"), joined, region)

    for run in _text_runs(rendering):
        if len(run) == 2:
            judge_window(run)
            continue
        for a in range(len(run) - 2):
            window = run[a : a + 3]
            if not any(gated[i] for i in window):
                continue
            if len(payloads[window[1]]) > 300:
                judge_window(window[:2])
                judge_window(window[1:])
            else:
                judge_window(window)
    # 3. blocks (user posts, dialogs, live regions) judged as one text; the block's root is flagged
    for i, ln in enumerate(lines):
        live = "live='" in ln.text and bool(_LIVE.search(ln.text))
        if not (live or (ln.role in _BLOCK_ROLES and ln.region in ("user", "overlay", "unseen"))):
            continue
        if ln.no in flags:
            continue
        end = i + 1
        cap = _MAX_OVERLAY if ln.region == "overlay" else _MAX_BLOCK
        while end < len(lines) and lines[end].depth > ln.depth and end - i <= cap:
            end += 1
        if end - i > cap or (end - i < 2 and not live):
            continue
        if not any(gated[j] for j in range(i, end)):
            continue
        parts = [payloads[j] for j in range(i, end) if payloads[j]]
        joined = " ".join(parts)[:_MAX_TEXT]
        region = _worst([ln.region, *(lines[j].region for j in range(i, end)), "unseen" if live else "main"])
        if live:
            region = _worst([region, "overlay"])
        v = judge_text(joined, region, goal=goal, home=home, normalised=True)
        if v:
            flag([i], (v[0], v[1] + f" (the whole {ln.role})"), joined, region)
    return tuple(sorted(flags.values(), key=lambda f: f.line))


def _live_regions(lines: tuple[Line, ...]) -> list[str]:
    """Each line's region, with the text inside a live region (role alert/status/log/marquee or
    ``live=`` polite/assertive) judged like an overlay's: announced to the reader, not the page's content."""
    out: list[str] = []
    live_depth: int | None = None
    for ln in lines:
        if live_depth is not None and ln.depth <= live_depth:
            live_depth = None
        if live_depth is None and ("live='" in ln.text and _LIVE.search(ln.text) is not None):
            live_depth = ln.depth
        out.append(_worst((ln.region, "overlay")) if live_depth is not None else ln.region)
    return out


def _text_runs(rendering: Rendering) -> list[list[int]]:
    """Runs of consecutive text-like siblings (positions in ``rendering.lines``)."""
    groups: dict[int | None, list[int]] = {}
    for i, ln in enumerate(rendering.lines):
        groups.setdefault(ln.parent, []).append(i)
    runs: list[list[int]] = []
    for kids in groups.values():
        cur: list[int] = []
        for i in [*kids, -1]:
            if i >= 0 and rendering.lines[i].role in _TEXT_ROLES:
                cur.append(i)
                continue
            if len(cur) > 1:
                runs.append(cur)
            cur = []
    return runs


@dataclass(frozen=True, slots=True)
class DefenseReport:
    """The flags of one observation, summarised for traces and JSON output."""

    flags: tuple[Flag, ...] = ()

    @classmethod
    def of(cls, rendering: Rendering, goal: str | None = None) -> DefenseReport:
        return cls(detect(rendering, goal))

    def __bool__(self) -> bool:
        return bool(self.flags)

    @property
    def lines(self) -> frozenset[int]:
        return frozenset(f.line for f in self.flags)

    def by_kind(self) -> dict[str, int]:
        counts = Counter(f.kind for f in self.flags)
        return {k: counts[k] for k in KINDS if counts[k]}

    def summary(self) -> str:
        if not self.flags:
            return "no injection suspected"
        kinds = ", ".join(f"{k} ×{n}" for k, n in self.by_kind().items())
        return f"{len(self.lines)} line(s) flagged as possible prompt injection: {kinds}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "flagged_lines": sorted(self.lines),
            "by_kind": self.by_kind(),
            "summary": self.summary(),
            "flags": [{"line": f.line, "kind": f.kind, "reason": f.reason, "excerpt": f.excerpt, "region": f.region}
                      for f in self.flags],
        }
