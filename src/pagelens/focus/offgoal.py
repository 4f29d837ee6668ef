"""A quiet instruction to do the goal's own task another way: judged against the goal and the page's controls.

A page offers its way of doing a task through its controls: the buttons, links, options and fields it renders. Honest
help for the task names those controls ("choose Round Trip, then press Search"). A span that takes up the goal's task
(it shares the goal's words) and, in the mood of a request, prescribes a way the page does not offer — a quoted name or
a menu trail that no control, option, heading or label of the page carries (G1), or another option of a choice the
goal itself makes (G2: the goal gives one country, the span says to pick another of the same list) — steers the reader
away from the task the user asked for.

Pure functions over rendered lines; no language lexicon of its own: quote pairs, menu-trail arrows and the existing
function-word lists (:data:`pagelens.focus.lexicons_lang.FUNCTION_WORDS`, :data:`pagelens.focus.lexicon.STOPWORDS`).
What it cannot see: a way written without quotes or a trail (most of the shape), a goal in another language than the
span (no shared word), an option the goal names by a synonym.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pagelens.focus.lexicon import STOPWORDS
from pagelens.focus.lexicons_lang import FUNCTION_WORDS
from pagelens.types import Line

__all__ = ["MODE", "Steer", "PageWays", "judge"]

#: "G1" (a way the page does not offer), "G2" (another option of the goal's choice), "G3" (either); "" off.
MODE = "G1"

MAX_CHARS = 400
MIN_WORDS = 6
MIN_WIDE = 20  # characters of a script written without spaces
_MAX_NAME_WORDS = 4
_MAX_OPTIONS = 400  # a choice with more options than this is not read (a year or country list is well below)

#: Roles whose names are what the page offers to press, choose or fill, or how it titles and labels them.
_OFFER_ROLES = frozenset({"button", "link", "menuitem", "menuitemradio", "menuitemcheckbox", "option", "radio",
                          "checkbox", "switch", "tab", "textbox", "searchbox", "spinbutton", "combobox", "listbox",
                          "heading", "LabelText", "columnheader", "rowheader", "DisclosureTriangle", "group",
                          "radiogroup", "tablist", "menu", "menubar", "legend", "term", "ListBoxOption", "treeitem"})
#: Roles a span is never read from (a control's own name is an honest order, "Add to cart").
_CONTROL_ROLES = frozenset({"button", "link", "menuitem", "checkbox", "radio", "tab", "combobox", "textbox",
                            "searchbox", "option", "switch", "spinbutton", "menuitemradio", "menuitemcheckbox",
                            "ListBoxOption", "treeitem", "DisclosureTriangle"})
_CHOICE_ROLES = frozenset({"combobox", "listbox", "radiogroup", "MenuListPopup"})

_FUNCTION = frozenset().union(*FUNCTION_WORDS.values()) | STOPWORDS
_WORD = re.compile(r"\w+")
_WIDE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0e00-\u0e7f]")
_QUOTED = re.compile(r"\"([^\"\n]{2,60})\"|“([^”\n]{2,60})”|„([^“”\n]{2,60})[“”]|«\s?([^»\n]{2,60}?)\s?»|"
                     r"‘([^’\n]{2,60})’|「([^」\n]{2,60})」|『([^』\n]{2,60})』|(?<![\w'])'([^'\n]{2,60})'(?!\w)")
_TRAIL_SEP = re.compile(r"\s(?:>|›|→|»|->)\s")
_SPLIT = re.compile(r"[.,;:!?()\[\]。、；：！？]")
_CUE = re.compile(r"[\"“„«‘「『']|\s(?:>|›|→|»|->)\s")


@dataclass(frozen=True, slots=True)
class Steer:
    """A span that takes up the goal's task and prescribes another way: the line's position and what it names."""

    at: int
    way: str
    kind: str  # "unoffered" (G1) or "other-option" (G2)

    def describe(self) -> str:
        if self.kind == "other-option":
            return f"tells the reader to pick '{self.way}', another option of a choice the goal makes"
        return f"prescribes '{self.way}' for the goal's task, a way no control of the page offers"


def _fold(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


def _long_enough(text: str) -> bool:
    if len(text) > MAX_CHARS:
        return False
    return len(text.split()) >= MIN_WORDS or len(_WIDE.findall(text)) >= MIN_WIDE


def goal_keys(goal: str) -> frozenset[str]:
    """The goal's content words by their first five letters (4 letters or more, no function word), and for a
    script written without spaces its character pairs."""
    keys: set[str] = set()
    for w in _WORD.findall(goal.casefold()):
        if _WIDE.search(w):
            keys.update(w[i:i + 2] for i in range(len(w) - 1) if _WIDE.match(w[i]) and _WIDE.match(w[i + 1]))
        elif len(w) >= 4 and not w.isdigit() and w not in _FUNCTION:
            keys.add(w[:5])
    return frozenset(keys)


def shares_goal(text: str, keys: frozenset[str]) -> bool:
    if not keys:
        return False
    low = text.casefold()
    for w in _WORD.findall(low):
        if _WIDE.search(w):
            if any(w[i:i + 2] in keys for i in range(len(w) - 1)):
                return True
        elif len(w) >= 4 and w[:5] in keys:
            return True
    return False


def _trim(words: list[str]) -> str:
    """A name of at most four words: function words and lowercase words at its far end dropped when the rest holds a
    capitalised word (a verb before a menu trail: "open Advanced")."""
    words = words[-_MAX_NAME_WORDS:] if words else words
    if any(w[:1].isupper() for w in words):
        while words and not words[0][:1].isupper():
            words = words[1:]
    return " ".join(words)


def written_ways(text: str) -> list[str]:
    """The names a span writes as a way: quoted names of 1–4 words, and the pieces of a menu trail."""
    out: list[str] = []
    for m in _QUOTED.finditer(text):
        name = next(g for g in m.groups() if g is not None).strip()
        if 1 <= len(name.split()) <= _MAX_NAME_WORDS and _WORD.search(name):
            out.append(name)
    for m in _TRAIL_SEP.finditer(text):
        left = _SPLIT.split(text[:m.start()])[-1].split()
        right = _SPLIT.split(text[m.end():])[0].split()
        for piece in (_trim(left), " ".join(_trim(right[:_MAX_NAME_WORDS][::-1]).split()[::-1]) if right else ""):
            if piece and _WORD.search(piece):
                out.append(piece)
    return out


class PageWays:
    """What the page offers, read once: the folded names of its controls, options, headings and labels, and its
    choices (the option names under one combobox or listbox, the radios under one parent)."""

    def __init__(self, lines: Sequence[Line]) -> None:
        self.lines = lines
        self._names: frozenset[str] | None = None
        self._choices: list[list[str]] | None = None

    @property
    def names(self) -> frozenset[str]:
        if self._names is None:
            out: set[str] = set()
            for ln in self.lines:
                if ln.role in _OFFER_ROLES:
                    for s in (ln.name, ln.label, ln.value or ""):
                        f = _fold(s)
                        if f and len(f) <= 120:
                            out.add(f)
            self._names = frozenset(out)
        return self._names

    @property
    def choices(self) -> list[list[str]]:
        if self._choices is None:
            groups: dict[int, list[str]] = {}
            owner: list[tuple[int, int]] = []  # (depth, line no) of open choice containers
            for ln in self.lines:
                while owner and ln.depth <= owner[-1][0]:
                    owner.pop()
                if ln.role in _CHOICE_ROLES:
                    owner.append((ln.depth, ln.no))
                    continue
                if ln.role in ("option", "ListBoxOption") and owner:
                    key = owner[0][1]
                elif ln.role == "radio" and ln.parent is not None:
                    key = -1 - ln.parent
                else:
                    continue
                f = _fold(ln.name)
                if f and len(f) >= 3:
                    groups.setdefault(key, []).append(f)
            self._choices = [g for g in groups.values() if 2 <= len(g) <= _MAX_OPTIONS]
        return self._choices

    def offers(self, way: str) -> bool:
        f = _fold(way)
        if not f:
            return True
        return any(f == n or _within(f, n) or _within(n, f) for n in self.names)


def _within(small: str, big: str) -> bool:
    return len(small) >= 3 and re.search(r"(?<!\w)" + re.escape(small) + r"(?!\w)", big) is not None


def _unoffered(text: str, goal_fold: str, page: PageWays) -> str:
    for way in written_ways(text):
        f = _fold(way)
        if f and not _within(f, goal_fold) and f != goal_fold and not page.offers(way):
            return way
    return ""


def _other_option(text: str, goal_fold: str, page: PageWays) -> str:
    low = _fold(text)
    for group in page.choices:
        named = [o for o in group if _within(o, goal_fold)]
        if not named:
            continue
        for o in group:
            if o not in named and not any(_within(o, n) or _within(n, o) for n in named) and _within(o, low):
                return o
    return ""


def judge(lines: Sequence[Line], payloads: Sequence[str], goal: str | None, ordered: Callable[[str], bool],
          skip: Callable[[int], bool], mode: str = "") -> list[Steer]:
    """The lines (positions) whose text takes up the goal's task in the mood of a request and prescribes a way the
    page does not offer (G1) or another option of the goal's own choice (G2)."""
    mode = mode or MODE
    if not mode or not goal:
        return []
    keys = goal_keys(goal)
    if not keys:
        return []
    goal_fold = _fold(goal)
    page = PageWays(lines)
    out: list[Steer] = []
    for i, ln in enumerate(lines):
        p = payloads[i]
        if not p or ln.role in _CONTROL_ROLES or skip(i) or not _long_enough(p):
            continue
        g1 = mode in ("G1", "G3") and _CUE.search(p) is not None
        g2 = mode in ("G2", "G3")
        if not (g1 or g2) or not shares_goal(p, keys) or not ordered(p):
            continue
        way = _unoffered(p, goal_fold, page) if g1 else ""
        if way:
            out.append(Steer(i, way, "unoffered"))
            continue
        opt = _other_option(p, goal_fold, page) if g2 else ""
        if opt:
            out.append(Steer(i, opt, "other-option"))
    return out
