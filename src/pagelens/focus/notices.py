"""Notices the agent did not open are shown as controls, not prose (the structural half of the defense).

Text evidence (whom a span addresses, its mood, where it steers: :mod:`pagelens.focus.evidence`) is judged on
phrasings, and no list of phrasings covers every page. What holds on any page is *where the text stands and who
asked for it*: a dialog, a pop-up or cookie layer the page laid over its content (provenance's ``overlay`` region,
whatever its markup: :mod:`pagelens.observe.provenance`), a live region (role ``status``, ``alert``, ``log``,
``marquee``, ``timer``, or ``aria-live`` polite / assertive), or a **notice bar above the page** — the sentences
standing above the page's own content (before its banner, navigation, main landmark, first heading, form or table:
:func:`notice_zone`), where a site-wide announcement is inserted and where text in the site's own register can steer
a reader without naming one — that the agent did not open speaks to whoever reads the page, unasked. Whatever it
says, the focused view shows it as:

* one **head** line, its role and the first words of its name (``[12] dialog 'Your privacy…'``);
* its **controls** — buttons, fields, options, and links that stay on the page's own site (an off-site link is
  part of what the notice says) — each name judged by the injection defense like any line and cut to a few words;
* **one placeholder** for all its other text (``[p3] ... 9 lines of text in a pop-up the agent did not open,
  folded ...``): ``expand("p3")`` and ``search_page`` bring it back, through the defense (flagged lines stay hidden).

**Opened by the agent** (:func:`opened`): a notice that was not in the previous observation of the same document
(one element id in common) and is there after the agent acted on an element since (click, fill, select, press,
hover: :data:`ACTING`); a notice the agent had opened that is still there; a live region present before whose text
changed after such an action (its answer to the agent); on a new document the agent's action led to (a form it
submitted, a link it clicked), a live region in the page's flow (not a pop-up: the server's answer to the
submission, "1 problem with your submission"). Such notices are kept whole, as dialogs always were. The
caller carries a :class:`Solicited` from one observation to the next (``FocusResult.solicited``, marked with
:meth:`Solicited.acted_on` after an acting action, passed back as ``FocusQuery.solicited``). Without one (a first
observation, a page opened by ``goto``, a benchmark) nothing counts as opened. The full view that
:func:`pagelens.focus.apply.focus` falls back to folds the same way (it is the defended view); the reference
retriever ``full`` skips the focus stage and with it the whole defense.

Failure modes (documented, not hidden): a pop-up a page times to appear on *any* click, or one that happens to
appear right after the agent's action, counts as opened (its text is still judged by the text defense), and so
does an in-flow live region on any page the agent reached by acting (clicking a link included); an error alert
the server renders into a floating box on the page a form submission led to is folded (the invalid fields stay,
:func:`pagelens.focus.apply.always_kept`); a notice that is part of the page's flow
(a static box after the footer, a note inside the main content) is no overlay and is not folded; a bar line must be a
sentence (six words or more and a sentence end: a masthead, a title or a byline above a page without landmarks is
not one), so a one-line announcement without a full stop stays in view; on the 139 cached clean corpus and site
pages one bar is found (an old-browser warning); a live region holding more than
:data:`_MAX_LIVE` lines or a landmark is the page's content announced on update (a results list), and a dialog
holding most of the page (a full-page modal that *is* the page) is the page, not a notice: the text defense alone
judges them.

**Sentences out of place** (:mod:`pagelens.focus.outofplace`): a sentence hidden from sighted users, and one in another
language than the page that states a figure or asks something, are folded the same way (kinds ``hidden`` and
``foreign``, ``[p4] ... 1 line of text hidden from sighted users, folded ...``); no action "opens" them, and a table cell
named after the sentence or a field that took it for its inferred label shows it as "…". A sentence added after a
short name sighted users do not see (:mod:`pagelens.focus.overnamed`, kind ``named``) leaves its element in place with
its name cut to its head; the placeholder follows the element (``expand`` shows the whole name), as it follows a
control whose name alone was cut.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from pagelens.focus import outofplace, overnamed
from pagelens.focus.linefmt import short_name, word_count
from pagelens.types import Line

__all__ = ["ACTING", "Fold", "Folding", "Notice", "Solicited", "after_action", "find", "fold", "notice_zone", "opened"]

DIALOG_ROLES = frozenset({"dialog", "alertdialog"})
LIVE_ROLES = frozenset({"status", "alert", "log", "marquee", "timer"})
#: What a notice keeps: the elements the agent may act on (a link only when it stays on the page's site).
CONTROL_ROLES = frozenset({"button", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "checkbox", "radio",
                           "switch", "tab", "combobox", "textbox", "searchbox", "spinbutton", "slider", "option",
                           "listbox", "ListBoxOption", "MenuListOption"})
#: Actions on an element of the page: a notice that appears after one was opened by the agent.
ACTING = frozenset({"click", "fill", "select_option", "hover", "press", "click_at", "hover_at", "type_at"})
#: A live region holding more lines, or a landmark, is the page's content announced on update, not a notice.
_MAX_LIVE = 40
_LIVE_NOT = frozenset({"main", "navigation", "banner", "contentinfo", "article", "feed", "table", "grid", "form",
                       "search", "complementary"})
_PAGE_LINES = 60  # a dialog longer than this holding most of the page's lines is the page itself
_CONTROL_WORDS = 6  # a control's name is cut to this many words
_HEAD_WORDS = 5
_TEXTY = frozenset({"StaticText", "paragraph", "heading", "strong", "emphasis", "text", "LineBreak", "mark"})
_KIND_WORDS = {"dialog": "a dialog", "overlay": "a pop-up", "live": "a live region",
               "bar": "a notice above the page"}
#: Sentences out of place on the page (:mod:`pagelens.focus.outofplace`): folded like a notice, never "opened".
_OUT_OF_PLACE = {"hidden": "hidden from sighted users", "foreign": "in another language than the page",
                 "named": "added to a name sighted users do not see"}
#: Roles that open the page's own content: a notice bar is what stands above the first of them.
_PAGE_START = frozenset({"banner", "navigation", "main", "heading", "article", "search", "form", "table"})
_NOTICE_MAX = 40  # lines: a notice bar is short
#: What opens the main landmark's own content: a notice about it stands above the first of these.
_MAIN_START = _PAGE_START | {"list", "figure", "region", "grid", "feed", "DescriptionList"}
#: A line of a notice bar that is prose (a sentence the site announces), not a label: at least this many words
#: (a text without spaces, Japanese or Chinese, counts one word per three characters) and characters.
_BAR_WORDS = 6
_BAR_CHARS = 30
_BAR_TEXT = frozenset({"StaticText", "paragraph", "text", "strong", "emphasis", "mark"})
#: A sentence end: a word of two letters or more (or a closing bracket) then a full stop, question or exclamation
#: mark and a space or the end; or the CJK marks. A title, a masthead or a byline ("F. Kooman") has none.
_SENTENCE_END = re.compile(r"(?:[^\W\d_]{2}|\))[.!?](?:\s|$)|[。！？]")


@dataclass(frozen=True, slots=True)
class Notice:
    start: int  # position of its first line in ``rendering.lines``
    end: int  # one past its last line
    kind: str  # "dialog", "overlay" (a pop-up without a dialog role), "live", "bar", or out of place: "hidden",
    #            "foreign", "named"
    key: str  # its identity across observations of one document (an element id when it has one)
    text: int  # a hash of its text (a live region's change)
    keep: int = 0  # kind "named": the characters of the element's name shown (its head; :mod:`~pagelens.focus.overnamed`)


@dataclass(frozen=True, slots=True)
class Solicited:
    """What one observation tells the next about its notices (see the module docstring)."""

    acted: bool = False  # the agent acted on an element of the page since this observation
    seen: frozenset[str] = frozenset()  # the element ids of this observation (the same document has one in common)
    present: tuple[tuple[str, int], ...] = ()  # (key, text hash) of its notices
    opened: frozenset[str] = frozenset()  # the keys of those the agent had opened

    def acted_on(self) -> Solicited:
        """The same state, after the agent acted on an element of the page."""
        return self if self.acted else replace(self, acted=True)


@dataclass(frozen=True, slots=True)
class Fold:
    """How one notice the agent did not open is shown."""

    notice: Notice
    root: int  # the line number of its first line
    shown: tuple[int, ...]  # line numbers always shown: the head and the controls
    folded: tuple[int, ...]  # line numbers of its text, behind one placeholder (and the cut controls, whole)
    texts: Mapping[int, str] = field(default_factory=dict)  # line number -> the text shown instead (cut names)

    def placeholder(self, pid: str | None) -> str:
        n = len(self.folded)
        lines = f"{n} line{'s' if n != 1 else ''} of text"
        odd = _OUT_OF_PLACE.get(self.notice.kind)
        if odd is not None:
            return (f"[{pid}] " if pid else "") + f"... {lines} {odd}, folded ..."
        where = _KIND_WORDS.get(self.notice.kind, "a notice")
        return (f"[{pid}] " if pid else "") + f"... {lines} in {where} the agent did not open, folded ..."


@dataclass(frozen=True, slots=True)
class Folding:
    folds: tuple[Fold, ...] = ()
    whole: frozenset[int] = frozenset()  # line numbers of the notices the agent opened (always shown whole)
    state: Solicited = field(default_factory=Solicited)  # what the next observation is told

    @property
    def folded(self) -> frozenset[int]:
        """Lines not shown in place (their placeholder stands for them)."""
        return frozenset(n for f in self.folds for n in f.folded if n not in f.shown)


def is_live(line: Line) -> bool:
    """A live region: an announcing role, or ``aria-live`` polite / assertive."""
    return line.role in LIVE_ROLES or any(st.startswith("live='") and not st.startswith("live='off")
                                          for st in line.states)


def _end(lines: Sequence[Line], i: int) -> int:
    depth, j = lines[i].depth, i + 1
    while j < len(lines) and lines[j].depth > depth:
        j += 1
    return j


def _kind(lines: Sequence[Line], i: int, end: int) -> str | None:
    ln = lines[i]
    if ln.role in DIALOG_ROLES:  # one holding most of the page is the page (as provenance judges a floating box)
        return None if end - i > _PAGE_LINES and end - i > 0.5 * len(lines) else "dialog"
    if ln.region == "overlay":
        return "overlay"
    if is_live(ln) and ln.role != "RootWebArea":
        if end - i > _MAX_LIVE or end - i > 0.25 * len(lines):
            return None
        if any(x.role in _LIVE_NOT for x in lines[i + 1 : end]):
            return None
        return "live"
    return None


def find(lines: Sequence[Line]) -> tuple[Notice, ...]:
    """The outermost notices of a rendering (nested ones belong to the outer one), in document order.

    Adjacent overlay lines under one parent are one pop-up (a box the tree does not show as a line of its own)."""
    out: list[Notice] = []
    i, n = 0, len(lines)
    main = -1
    while i < n:
        ln = lines[i]
        if not (ln.role in DIALOG_ROLES or ln.region == "overlay" or ln.role in LIVE_ROLES or (ln.states and is_live(ln))):
            if main < 0 and ln.role == "main":
                main = i
            i += 1  # (most lines: no subtree walk)
            continue
        end = _end(lines, i)
        kind = _kind(lines, i, end)
        if kind is None:
            i = end if lines[i].role in DIALOG_ROLES else i + 1  # a dialog that is the page: none inside it either
            continue
        if kind == "overlay":
            parent = lines[i].parent
            while end < n and lines[end].region == "overlay" and lines[end].parent == parent \
                    and lines[end].role not in DIALOG_ROLES:
                end = _end(lines, end)
        out.append(_notice(lines, i, end, kind, f"{kind}:{lines[i].role}:{lines[i].depth}:{lines[i].name[:40]}"))
        i = end
    bars = [b for b in (_bar(lines, range(min(notice_zone(lines), out[0].start if out else n))),
                        _bar(lines, _main_top(lines, main)) if main >= 0 else None)
            if b is not None and not any(nt.start <= b.start < nt.end or b.start <= nt.start < b.end for nt in out)]
    found = [*bars, *out]
    inside = frozenset(k for nt in found for k in range(nt.start, nt.end))
    text = outofplace.texts(lines)
    hid = [i for i in outofplace.hidden(lines, text) if i not in inside]
    named = overnamed.overnamed(lines, inside | frozenset(hid), text)  # (cut at its head: before "foreign")
    strange = outofplace.foreign(lines, inside | frozenset(hid) | frozenset(i for i, _ in named), text)
    found += [_notice(lines, i, i + 1, "hidden", f"hidden:{lines[i].name[:40]}") for i in hid]
    found += [replace(_notice(lines, i, i + 1, "named", f"named:{lines[i].name[:40]}"), keep=keep)
              for i, keep in named]
    found += [_notice(lines, i, i + 1, "foreign", f"foreign:{lines[i].name[:40]}") for i in strange]
    return tuple(sorted(found, key=lambda nt: nt.start)) if len(found) > len(out) else tuple(out)


def _main_top(lines: Sequence[Line], main: int) -> range:
    """The lines inside the main landmark at ``main`` above its own first heading, list, table, form or article:
    the top of the main content, where a notice about it is inserted (at most :data:`_NOTICE_MAX` lines; none when
    no such block starts that near the top)."""
    depth, j = lines[main].depth, main + 1
    while j < len(lines) and lines[j].depth > depth and j - main <= _NOTICE_MAX:
        if lines[j].role in _MAIN_START:
            return range(main + 1, j)
        j += 1
    return range(0)  # a main landmark with no heading or block near its top: its prose is its content


def notice_zone(lines: Sequence[Line]) -> int:
    """How many lines, from the top, stand above the page's own content (before its banner, navigation, main
    landmark or first heading): where a site-wide notice bar is inserted. 0 when that is more than a short bar."""
    for i, ln in enumerate(lines):
        if ln.role in _PAGE_START or ln.region == "chrome":
            return i if i <= _NOTICE_MAX else 0
    return 0


def _wordy(line: Line) -> bool:
    """A text line of :data:`_BAR_WORDS` words or more (a label or a title is shorter)."""
    return line.role in _BAR_TEXT and len(line.name) >= _BAR_CHARS and word_count(line.name) >= _BAR_WORDS


def _parent_at(lines: Sequence[Line], i: int) -> int | None:
    """The position of ``lines[i]``'s parent (a few steps back: a parent precedes its children)."""
    parent = lines[i].parent
    if parent is None:
        return None
    for j in range(i - 1, max(-1, i - _NOTICE_MAX - 1), -1):
        if lines[j].no == parent:
            return j
    return None


def _ends_in_block(lines: Sequence[Line], i: int, zone: range) -> bool:
    """Whether the sentence ``lines[i]`` starts ends in a later piece of the same small block (a sentence split by a
    link: "… see the" [link] ". More words.")."""
    j = i + 1
    while j < zone.stop and j - i <= _NOTICE_MAX and lines[j].depth >= lines[i].depth:
        if lines[j].parent == lines[i].parent and _SENTENCE_END.search(lines[j].name) is not None:
            return True
        j += 1
    return False


def _bar(lines: Sequence[Line], zone: range) -> Notice | None:
    """A notice bar: the sentences of ``zone`` (lines of :data:`_BAR_WORDS` words or more whose sentence ends in them or
    in a later piece of their block; not the site's chrome), from the first to the last and the small blocks they
    stand in, as one notice."""
    prose = [i for i in zone if lines[i].region != "chrome" and _wordy(lines[i]) and (
        _SENTENCE_END.search(lines[i].name) is not None or _ends_in_block(lines, i, zone))]
    if not prose:
        return None
    start, end = prose[0], prose[-1] + 1
    for i in (prose[0], prose[-1]):  # the whole block a sentence stands in (its pieces beside a link), when small
        block = _parent_at(lines, i)
        if block is not None and block >= zone.start and lines[block].depth > 0 and lines[block].region != "chrome":
            block_end = _end(lines, block)
            if block_end <= zone.stop:  # inside the zone: not a landmark holding the page's content
                start, end = min(start, block), max(end, block_end)
    return _notice(lines, start, end, "bar", f"bar:{lines[start].name[:40]}")


def _notice(lines: Sequence[Line], start: int, end: int, kind: str, unnamed: str) -> Notice:
    """The notice of ``lines[start:end]``: its key is its first element id (``unnamed`` when none has one), its
    text a checksum of its lines."""
    unit = lines[start:end]
    first = next((x.eid for x in unit if x.eid is not None), None)
    text = zlib.crc32("\n".join(x.text for x in unit).encode("utf-8", "surrogatepass"))
    return Notice(start, end, kind, first if first is not None else unnamed, text)


def opened(notices: Sequence[Notice], lines: Sequence[Line], before: Solicited | None) -> frozenset[str]:
    """The keys of the notices the agent opened (see the module docstring)."""
    if before is None or not notices or not before.seen:
        return frozenset()
    if not any(ln.eid is not None and ln.eid in before.seen for ln in lines):
        if not before.acted:
            return frozenset()  # another document the agent did not act its way to: it opened nothing there
        # the document the agent's own action led to (a form it submitted): a live region in the page's flow is
        # the answer to that action (the server's "1 problem with your submission"); a dialog or a pop-up is not
        return frozenset(nt.key for nt in notices if nt.kind == "live" and lines[nt.start].region != "overlay")
    present = dict(before.present)
    out: set[str] = set()
    for nt in notices:
        if nt.kind in _OUT_OF_PLACE:
            continue  # a hidden or foreign sentence is not something an action opens
        new = nt.key not in present or (nt.kind == "live" and present[nt.key] != nt.text)
        if nt.key in before.opened or (before.acted and new):
            out.add(nt.key)
    return frozenset(out)


def after_action(state: Solicited | None, action: str) -> Solicited | None:
    """``state`` once the agent ran ``action`` (an action's name) on the page: marked acted on when the action
    touched an element (:data:`ACTING`), else as it was. (An action refused before it ran touches nothing: the
    caller passes only actions that ran.)"""
    return state.acted_on() if state is not None and action in ACTING else state


def _control(line: Line, home: Callable[[], frozenset[str]]) -> bool:
    if line.eid is None or line.role not in CONTROL_ROLES:
        return False
    if line.role != "link" or not line.url or not line.url.startswith(("http://", "https://")):
        return True
    from pagelens.focus.evidence import domain

    return domain(line.url) in home()


def _cut(line: Line, words: int) -> str | None:
    """The line's text with its name cut to ``words`` words, None when it is short already."""
    short = short_name(line.name, words)
    return None if short == line.name else _renamed(line, short)


def _renamed(line: Line, short: str) -> str:
    """The line's text with ``short`` in place of its name."""
    name = line.name
    at = line.text.find(name)
    if at < 0:
        return f"[{line.eid}] {line.role} '{short}'" if line.eid is not None else f"{line.role} '{short}'"
    return line.text[:at] + short + line.text[at + len(name):]


def fold(lines: Sequence[Line], before: Solicited | None, *, home: Callable[[], frozenset[str]],
         hidden: frozenset[int] | set[int] = frozenset()) -> Folding:
    """How the notices of ``lines`` are shown, and what the next observation is told.

    ``home``: gives the page's own domains (asked only when a notice holds an absolute link: one that leads
    elsewhere is part of the notice's text); ``hidden``: lines the injection defense removed (never shown, never
    folded)."""
    notices = find(lines)
    known: list[frozenset[str]] = []

    def home_once() -> frozenset[str]:
        if not known:
            known.append(home())
        return known[0]

    mine = opened(notices, lines, before)
    state = Solicited(seen=frozenset(ln.eid for ln in lines if ln.eid is not None),
                      present=tuple((nt.key, nt.text) for nt in notices), opened=mine)
    folds: list[Fold] = []
    whole: set[int] = set()
    for nt in notices:
        unit = lines[nt.start : nt.end]
        if nt.key in mine:
            whole.update(ln.no for ln in unit)
            continue
        shown: list[int] = []
        folded: list[int] = []
        texts: dict[int, str] = {}
        root = unit[0]
        if nt.kind == "named":  # the element keeps its place and its name's head; the sentence added is folded
            if root.no not in hidden:
                texts[root.no] = _renamed(root, root.name[: nt.keep].rstrip() + "…")
                folds.append(Fold(nt, root.no, (root.no,), (root.no,), texts))
            continue
        if len(unit) > 1 and root.role not in _TEXTY and root.no not in hidden:
            shown.append(root.no)  # the head
            cut = _cut(root, _HEAD_WORDS)
            if cut is not None:
                texts[root.no] = cut
                folded.append(root.no)
            start = 1
        else:
            start = 0
        for ln in unit[start:]:
            if ln.no in hidden:
                continue
            if _control(ln, home_once):
                shown.append(ln.no)
                cut = _cut(ln, _CONTROL_WORDS)
                if cut is not None:
                    texts[ln.no] = cut
                    folded.append(ln.no)  # expand shows its whole name
            elif ln.name or ln.value or ln.label or ln.role in _TEXTY:
                folded.append(ln.no)
        if not folded:
            continue  # nothing to fold: the notice is its controls
        if nt.kind in _OUT_OF_PLACE:  # the lines that repeat the sentence show "…" instead (expand shows them whole)
            repeats = outofplace.repeats(lines, nt.start)
            texts.update(repeats)
            shown.extend(repeats)
            folded.extend(repeats)
        folds.append(Fold(nt, root.no, tuple(shown), tuple(folded), texts))
    return Folding(tuple(folds), frozenset(whole), state)
