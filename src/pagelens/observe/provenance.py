"""Where each rendered line's text comes from: its region (pure, over an observation).

The injection defense weighs the same sentence differently by where it stands: an instruction
in the site's own help text is ordinary, the same instruction inside a review is someone
talking to the agent. :func:`regions` gives every line one :data:`~pagelens.types.Region`:

* ``overlay`` — inside a dialog or alert dialog, inside a box the page laid over its content
  without a dialog role (a position:fixed or high-z pop-up, cookie layer or chat box: the browser
  shell marks its nodes :attr:`~pagelens.types.Node.overlay`), or inside a box that is what any
  overlay is whatever its layout (:func:`floating_overlays`): out of the document flow (fixed,
  sticky or absolute: :attr:`~pagelens.types.Node.floating`), not the page's chrome (no landmark,
  menu or list box in or around it), not most of the page, and not one of a series of such boxes
  (a carousel's slides, a masonry grid's cards);
* ``user`` — inside a block of user-generated content: an article, comment, list item, group
  or generic container that carries an author, a date or a rating and repeats among its
  siblings (or is an article/comment of its own), and the value of a text field;
* ``chrome`` — inside the page's banner, navigation or contentinfo (footer) landmarks;
* ``unseen`` — text a sighted user does not see: concealed by layout or colour
  (:mod:`pagelens.browser.concealed`), an image's alternative text, or an accessible name of
  four or more words that is mostly absent from the element's own visible text (an aria-label);
* ``main`` — everything else.

The innermost container decides (a review inside the main content is ``user``), ``overlay``
beats everything, and ``unseen`` is about the line's own text, so it overrides its container.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from pagelens.types import Line, Observation, Region

_CHROME_ROLES = frozenset({"banner", "navigation", "contentinfo"})
_OVERLAY_ROLES = frozenset({"dialog", "alertdialog"})
_BLOCK_ROLES = frozenset({"article", "comment", "listitem", "generic", "group", "region", "section", "blockquote"})
_SELF_BLOCK_ROLES = frozenset({"article", "comment"})
_FIELD_ROLES = frozenset({"textbox", "searchbox"})
_IMAGE_ROLES = frozenset({"img", "image", "graphics-symbol"})
_TEXT_ROLES = frozenset({"StaticText", "ListMarker"})
_MAX_BLOCK_LINES = 400  # a "block" holding more than this is a page section, not one post

_MONTHS = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
           r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|januar|februar|märz|mai|juni|juli|oktober|dezember|janvier|février|"
           r"mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|enero|febrero|marzo|abril|mayo|junio|julio|"
           r"agosto|septiembre|octubre|noviembre|diciembre|января|февраля|марта|апреля|мая|июня|июля|августа|сентября|"
           r"октября|ноября|декабря")
_UNITS = (r"s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|d|days?|w|weeks?|mo|months?|y|yr|years?|"
          r"minuten?|stunden?|tagen?|wochen?|monaten?|jahren?|heures?|jours?|semaines?|mois|ans?|horas?|días?|semanas?|"
          r"meses|años?|минут\w*|час\w*|дн\w*|недел\w*|месяц\w*|год\w*|лет")
_DATE = re.compile(
    rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b\d{{1,2}}[./]\d{{1,2}}[./]\d{{2,4}}\b|\b(?:{_MONTHS})\.?\s+\d{{1,2}}\b|"
    rf"\b\d{{1,2}}\.?\s+(?:{_MONTHS})\b|\b\d+\s*(?:{_UNITS})\s+ago\b|\b(?:vor|il\s+y\s+a|hace)\s+\d+\s*(?:{_UNITS})\b|"
    rf"\b\d+\s*(?:{_UNITS})\s+назад|\d{{4}}\s*[年년]\s*\d{{1,2}}\s*[月월]\s*\d{{1,2}}\s*[日일]?|\d+\s*(?:秒|分|時間|日|週間|か月|ヶ月|年|小时|天|周|个月)前|\b(?:yesterday|gestern|hier|ayer|вчера)\b",
    re.IGNORECASE)
#: The ages and dates :data:`_DATE` reads, for readers of bylines elsewhere (:mod:`pagelens.focus.roles`).
AGE_OR_DATE = _DATE
_RATING = re.compile(
    r"[★☆⭐]|\b\d(?:[.,]\d)?\s*(?:out\s+of|of|von|sur|de|из)\s+5\b|\b\d(?:[.,]\d)?\s*/\s*(?:5|10)\b|"
    r"\b\d+\s+(?:points?|votes?|upvotes?|likes?|helpful|punkte|stimmen|votos|голос\w*)\b|\bstars?\b|\bsterne\b|"
    r"\b[ée]toiles?\b|\bestrellas?\b|\bзв[её]зд\w*",
    re.IGNORECASE)
_AUTHOR_URL = re.compile(r"url='[^']*/(?:users?|u|profiles?|members?|authors?|people|accounts?|~)[/=][^']+'", re.IGNORECASE)
_AUTHOR_TEXT = re.compile(r"(?:^|\s)(?:by|posted\s+by|written\s+by|von|par|por|автор|投稿者)\s+@?\w", re.IGNORECASE)
_WORD = re.compile(r"\w+")




# The marks above, split for speed (a line is scanned twice, by patterns that start on a literal, so that the
# regex engine skips the positions that cannot start a match): every mark but a few words holds a digit and
# lies within a few characters of it, so the digit patterns run only in windows around the digits.
_NUM_MARK = re.compile(
    rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b\d{{1,2}}[./]\d{{1,2}}[./]\d{{2,4}}\b|\b(?:{_MONTHS})\.?\s+\d{{1,2}}\b|"
    rf"\b\d{{1,2}}\.?\s+(?:{_MONTHS})\b|\b\d+\s*(?:{_UNITS})\s+ago\b|\b(?:vor|il\s+y\s+a|hace)\s+\d+\s*(?:{_UNITS})\b|"
    rf"\b\d+\s*(?:{_UNITS})\s+назад|\d{{4}}\s*[年년]\s*\d{{1,2}}\s*[月월]\s*\d{{1,2}}\s*[日일]?|"
    rf"\d+\s*(?:秒|分|時間|日|週間|か月|ヶ月|年|小时|天|周|个月)前|"
    r"\b\d(?:[.,]\d)?\s*(?:out\s+of|of|von|sur|de|из)\s+5\b|\b\d(?:[.,]\d)?\s*/\s*(?:5|10)\b|"
    r"\b\d+\s+(?:points?|votes?|upvotes?|likes?|helpful|punkte|stimmen|votos|голос\w*)\b",
    re.IGNORECASE)
#: The marks without a digit; each alternative opens on a literal (its word start is checked after the match).
_WORD_MARK = re.compile(r"(?:yesterday|gestern|hier|ayer|вчера)\b|[★☆⭐]|stars?\b|sterne\b|[ée]toiles?\b|estrellas?\b|"
                        r"зв[её]зд|(?:by|posted\s+by|written\s+by|von|par|por|автор|投稿者)\s+@?\w", re.IGNORECASE)
#: Literal stems every ``_WORD_MARK`` hit holds, searched in the lowercased text (a literal alternation is
#: scanned fast; the same words with IGNORECASE or a word-start check are several times slower).
_WORD_STEMS = re.compile("yesterday|gestern|hier|ayer|вчера|★|☆|⭐|star|sterne|toile|estrella|звезд|звёзд|by|von|par|por|"
                         "автор|投稿者")
_DIGITS = re.compile(r"\d+")
_SHORT = 96  # characters: a shorter text is searched whole
_BEFORE, _AFTER = 16, 32  # characters a digit mark reaches before its first digit and after its last
_WORD_TAIL = re.compile(r"\w*")


def _word_marks(text: str) -> bool:
    """``_WORD_MARK`` with its word starts: an author word after a space (or at the start), any other word
    after a non-word character, a star anywhere. A rejected hit is retried one character on."""
    at = 0
    while (m := _WORD_MARK.search(text, at)) is not None:
        i = m.start()
        if text[i] in "★☆⭐":
            return True
        prev = text[i - 1] if i else " "
        if prev.isspace() if any(c.isspace() for c in m.group()) else not (prev.isalnum() or prev == "_"):
            return True
        at = i + 1
    return False


def _digit_marks(text: str) -> bool:
    if _DIGITS.search(text) is None:
        return False
    if len(text) <= _SHORT:
        return _NUM_MARK.search(text) is not None
    spans: list[list[int]] = []
    for m in _DIGITS.finditer(text):
        lo, hi = max(0, m.start() - _BEFORE), m.end() + _AFTER
        if spans and lo <= spans[-1][1]:
            spans[-1][1] = hi
        else:
            spans.append([lo, hi])
    for lo, hi in spans:
        if hi < len(text):  # end the window at a word's end: a word cut short could end a match it does not
            tail = _WORD_TAIL.match(text, hi)
            hi = tail.end() if tail else hi
        if _NUM_MARK.search(text, lo, min(hi, len(text))) is not None:
            return True
    return False


@lru_cache(maxsize=1 << 15)
def _text_marks(text: str) -> bool:
    """Whether ``text`` shows a date, a rating or an author (cached: pages repeat their texts)."""
    return _digit_marks(text) or (_WORD_STEMS.search(text.lower()) is not None and _word_marks(text))


_TIME_ROLES = frozenset({"time"})  # the HTML <time> element: a post's date whatever its language


def _has_marks(line: Line) -> bool:
    """Whether the line shows an author, a date or a rating (as :data:`_DATE`, :data:`_RATING`,
    :data:`_AUTHOR_URL` or :data:`_AUTHOR_TEXT` find them)."""
    if line.role in _TIME_ROLES:
        return True
    if "url='" in line.text and _AUTHOR_URL.search(line.text):
        return True
    return _text_marks(line.name or line.text)


def _label_only(line: Line, visible_text: str) -> bool:
    """A long accessible name mostly absent from the element's own visible text (an aria-label)."""
    words = _WORD.findall(line.name.lower())
    if len(words) < 4:
        return False
    seen = set(_WORD.findall(visible_text.lower()))
    return sum(w in seen for w in words) < 0.5 * len(words)


def _descendant_text(obs: Observation) -> list[str]:
    """Per node index: the text of its StaticText descendants (what a sighted user reads in it), capped."""
    nodes = obs.nodes
    text = [""] * len(nodes)
    for node in reversed(nodes):  # children come after their parent: fold upwards
        own = node.name if node.role in _TEXT_ROLES and not node.concealed else ""
        acc = (own + " " + text[node.index]).strip() if own else text[node.index]
        if node.parent is not None and acc:
            p = node.parent
            if len(text[p]) < 4000:
                text[p] = (text[p] + " " + acc).strip() if text[p] else acc
    return text


def regions(obs: Observation, lines: Sequence[Line]) -> list[Region]:
    """The region of each line (same order). Pure; never raises (see :func:`regions_checked`)."""
    return regions_checked(obs, lines)[0]


def regions_checked(obs: Observation, lines: Sequence[Line]) -> tuple[list[Region], str | None]:
    """(regions, error): the regions of :func:`regions`, and why they are only structural when the full
    judgement failed on this input (``None`` when it did not). A failure never costs the view: the lines
    then get the regions their roles alone give (:func:`structural_regions`), and the caller can say that
    the defense ran on weaker provenance."""
    try:
        return _regions(obs, lines), None
    except Exception as exc:  # noqa: BLE001 - provenance never costs the agent its view
        why = f"{type(exc).__name__}: {str(exc)[:120]}"
    try:
        return structural_regions(lines), why
    except Exception as exc:  # noqa: BLE001 - malformed lines: every line stays main, and that is said
        return ["main"] * len(lines), f"{why}; then {type(exc).__name__}: {str(exc)[:80]}"


def structural_regions(lines: Sequence[Line]) -> list[Region]:
    """The regions that line roles alone give (no node, no text marks): dialogs are overlays, articles and
    comments user content, banner/navigation/footer landmarks chrome, images' names unseen."""
    pos = {ln.no: i for i, ln in enumerate(lines)}
    out: list[Region] = []
    inherited: list[Region] = []
    for ln in lines:
        j = pos.get(ln.parent) if ln.parent is not None else None
        up: Region = inherited[j] if j is not None and j < len(inherited) else "main"
        if up != "overlay":
            if ln.role in _OVERLAY_ROLES:
                up = "overlay"
            elif ln.role in _SELF_BLOCK_ROLES:
                up = "user"
            elif ln.role in _CHROME_ROLES and up == "main":
                up = "chrome"
        inherited.append(up)
        out.append("unseen" if ln.name and ln.role in _IMAGE_ROLES else up)
    return out


#: Roles that make a floating box the page's own chrome or widget rather than something laid over the page.
_FLOAT_CHROME = frozenset({"banner", "navigation", "contentinfo", "main", "menubar", "menu", "listbox", "tooltip",
                           "search", "tree", "grid", "table", "toolbar", "tablist", "combobox"})
#: Ancestors that make it part of the chrome (a header's drop-down, a menu's fly-out); the main landmark is no chrome.
_FLOAT_UNDER = _FLOAT_CHROME - {"main", "table", "grid", "tree"}
_FLOAT_MAX_LINES, _FLOAT_SHARE = 200, 0.5  # a floating box holding more is the page itself (an app shell)
#: A box that *is* one of these is part of the layout it sticks in (a sticky table cell or row, a sticky heading of a
#: long list), not something laid over the page.
_FLOAT_SELF = frozenset({"cell", "gridcell", "columnheader", "rowheader", "row", "rowgroup", "heading", "term"})
_SHAPE = 8  # lines whose roles give a box's shape (boxes of one shape under one parent are a series)


def floating_overlays(obs: Observation, lines: Sequence[Line], pos: dict[int, int]) -> set[int]:
    """Positions of the lines inside a floating box judged an overlay (see the module docstring): the walker
    reports which nodes lie in an out-of-flow box, this judges whether the box is laid over the page.

    A box is the set of lines whose node has the same :attr:`~pagelens.types.Node.floating` number; its
    head is its first line, its parent the head's parent line. It is an overlay when it shows text, holds
    no chrome role (:data:`_FLOAT_CHROME`), stands under no chrome landmark, is not most of the page, and
    no other floating box of the same shape (the roles of its first lines) hangs from the same parent, or from a
    sibling of its parent of the same role (a series of boxes — a carousel's slides, each in its own list item, a
    masonry grid's cards — is a layout, not a pop-up)."""
    nodes = obs.nodes
    boxes: dict[int, list[int]] = {}
    for i, ln in enumerate(lines):
        node = nodes[ln.node] if 0 <= ln.node < len(nodes) else None
        if node is not None and node.floating:
            boxes.setdefault(node.floating, []).append(i)
    if not boxes:
        return set()
    heads: dict[int, int | None] = {k: lines[v[0]].parent for k, v in boxes.items()}
    series: dict[int, list[tuple[object, ...]]] = {}
    for k, v in boxes.items():
        shape = tuple(lines[i].role for i in v[:_SHAPE])
        head = heads[k]
        keys: list[tuple[object, ...]] = [(head, shape)]
        j = pos.get(head) if head is not None else None
        if j is not None:  # cousins: the same shape under parents of one role that share a parent
            keys.append((lines[j].parent, lines[j].role, shape))
        series[k] = keys
    siblings: dict[tuple[object, ...], int] = {}
    for keys in series.values():
        for key in keys:
            siblings[key] = siblings.get(key, 0) + 1
    out: set[int] = set()
    n = len(lines)
    for k, members in boxes.items():
        if len(members) > _FLOAT_MAX_LINES or len(members) > _FLOAT_SHARE * n or any(
                siblings[key] > 1 for key in series[k]):
            continue
        if not any(lines[i].role == "StaticText" for i in members):
            continue
        head_line = lines[members[0]]
        if head_line.role in _FLOAT_SELF and all(lines[i].depth > head_line.depth for i in members[1:]):
            continue  # the box is one cell, row or heading (its only root), not a box holding one
        if any(lines[i].role in _FLOAT_CHROME for i in members):
            continue
        up, chrome = heads[k], False
        while up is not None and (j := pos.get(up)) is not None:
            if lines[j].role in _FLOAT_UNDER:
                chrome = True
                break
            up = lines[j].parent
        if not chrome:
            out.update(members)
    return out


def _regions(obs: Observation, lines: Sequence[Line]) -> list[Region]:
    n = len(lines)
    pos = {ln.no: i for i, ln in enumerate(lines)}
    floated = floating_overlays(obs, lines, pos)
    # bottom-up: whether a subtree carries author/date/rating marks, and its size
    marks = [_has_marks(ln) for ln in lines]
    size = [1] * n
    for i in range(n - 1, -1, -1):
        p = lines[i].parent
        j = pos.get(p) if p is not None else None
        if j is not None:
            marks[j] = marks[j] or marks[i]
            size[j] += size[i]
    # a block of user content: marked, not the whole page, and repeated among its siblings (or an article)
    sib_roles: dict[tuple[int | None, str], int] = {}
    for i, ln in enumerate(lines):
        if ln.role in _BLOCK_ROLES and marks[i]:
            key = (ln.parent, ln.role)
            sib_roles[key] = sib_roles.get(key, 0) + 1
    block = [
        ln.role in _BLOCK_ROLES and marks[i] and size[i] <= _MAX_BLOCK_LINES
        and (ln.role in _SELF_BLOCK_ROLES or sib_roles.get((ln.parent, ln.role), 0) >= 2)
        for i, ln in enumerate(lines)
    ]
    visible_text = _descendant_text(obs)
    nodes = obs.nodes
    out: list[Region] = []
    inherited: list[Region] = []  # the container region each line hands to its children
    for i, ln in enumerate(lines):
        j = pos.get(ln.parent) if ln.parent is not None else None
        up: Region = inherited[j] if j is not None else "main"
        node = nodes[ln.node] if 0 <= ln.node < len(nodes) else None
        if up != "overlay":
            if ln.role in _OVERLAY_ROLES or (node is not None and node.overlay) or i in floated:
                up = "overlay"
            elif block[i]:
                up = "user"
            elif ln.role in _CHROME_ROLES and up == "main":
                up = "chrome"
        inherited.append(up)
        own: Region = up
        if node is not None and ln.name and (
                node.concealed or ln.role in _IMAGE_ROLES
                or (ln.role not in _TEXT_ROLES and _label_only(ln, visible_text[ln.node]))):
            own = "unseen"
        if own == up and ln.role in _FIELD_ROLES and node is not None and node.value and up != "overlay":
            own = "user"
        out.append(own)
    return out
