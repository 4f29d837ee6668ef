"""Sentences out of place on their page: hidden from sighted users, or in another language than the page (pure).

Text written for the agent in the site's own register carries no addressee, no order to "the AI" and no outside
address: no lexicon finds it. Two things it often carries hold on any page and in any phrasing, because they are
about *where the sentence stands*, not about its words:

* **a sentence the page hides from people but not from the tree** (:func:`hidden`) — a text line whose own text is
  concealed by layout or colour (off-screen, clipped to nothing, zero-size font, transparent, the colour of its
  background: provenance's ``unseen`` region for a text line, :mod:`pagelens.browser.concealed`), six words or
  more ending in a full stop (or twelve words or more), standing amid shown text: the nearest text before and after
  it is seen (a hidden *section* — a collapsed list, a carousel's other slides — is the page's content kept for
  later, and stays). A sighted user does not read it, so an agent reading the
  page like one loses nothing when it is folded; screen-reader labels ("opens in a new window", "4.5 out of 5
  stars") are short and have no sentence end, and stay. Text covered by an overlay is ``unseen`` too: a page where
  most of the text is unseen is a page under a modal, and nothing is folded there (:data:`_COVERED_SHARE`);
* **a sentence in another language than its page** (:func:`foreign`) — written in another script than the page's
  (Cyrillic on a Latin page, Korean on an English one, Latin on a Japanese one: out of place whatever it says), or in
  the page's script with the function words of another language (:mod:`pagelens.focus.lexicons_lang`) while it asks
  something of its reader: it states a figure, writes an address, gives an order or names a kind of secret (what a
  steer needs). A quotation (a ``blockquote``), a language switcher (links: controls are never folded) and a sentence
  in the page's own language stay; so does a same-script sentence that asks nothing (a review in another language).
  The site's chrome (its banner, navigation, footer) is its own business and is left alone; an image's alternative
  text and the other text sighted users do not see are read too, and so is the text a container shows as its own
  name when no text line lies under it (a table cell, a tooltip, a list item: :func:`carriers`).

Both are folded like a notice the agent did not open (:mod:`pagelens.focus.notices`: one placeholder, ``expand``
and ``search_page`` bring the text back through the defense); neither is a verdict of injection (nothing is
flagged or redacted). The cost is one pass over the text lines; a language is computed only for sentences.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pagelens.focus import lexicons as lx
from pagelens.focus import lexicons_lang as ll
from pagelens.focus.evidence import gives_order
from pagelens.focus.linefmt import word_count
from pagelens.focus.uncollected import secret_kinds
from pagelens.types import Line

__all__ = ["PageLanguage", "foreign", "hidden", "repeats", "texts"]

_TEXT = frozenset({"StaticText", "text"})
_IMAGES = frozenset({"img", "image"})
_READ = _TEXT | _IMAGES
#: Controls whose accessible name sighted users do not see (an aria-label absent from their visible text: provenance's
#: ``unseen``) are read too; a folded control stays, its name cut to a few words (:mod:`pagelens.focus.notices`).
_CONTROLS = frozenset({"link", "button", "menuitem", "tab", "checkbox", "radio", "option", "switch"})
_WORDS = 6
_CHARS = 30
_LONG = 12  # words: a hidden text this long is prose even without a full stop
#: A sentence end (as :data:`pagelens.focus.notices._SENTENCE_END`): a word of two letters or a bracket, then . ! ?
_SENTENCE_END = re.compile(r"(?:[^\W\d_]{2}|\))[.!?](?:\s|$)|[。！？]")
#: More than this share of a page's text lines unseen: the page is under a modal or an overlay (covered), not hiding
#: a sentence among what it shows.
_COVERED_SHARE = 0.3
#: A figure (an amount, a count, a date, a time) standing alone: not part of a word or a code ("KMA2291", "mp3").
_FIGURE = re.compile(r"(?<![\w.,])[$€£¥₩]?\d[\d.,:/]*(?![\w])")
_SAMPLE = 4_000  # characters of the page's text its language and script are read on
_SPREAD = 600  # lines (about) the sample is drawn from, evenly over the page
_QUOTE_ROLES = frozenset({"blockquote", "code", "pre", "math"})
#: Where a sentence in another language is read: the page's content and what sighted users do not see (an image's
#: alternative text, a hidden sentence of a hidden section); the site's chrome is its own business; overlays and bars
#: are notices already.
_REGIONS = frozenset({"main", "user", "unseen"})
_MIN_LETTERS = 12  # letters in another script before a sentence counts as written in it
_SPAN = 600  # characters of a sentence read for its language
_LEAD = 3  # function words of another language (and three times the page's own) before a sentence is in it


def _sentence(line: Line) -> bool:
    name = line.name
    if len(name) < _CHARS:
        return False
    words = word_count(name)
    return words >= _WORDS and (words >= _LONG or _SENTENCE_END.search(name) is not None)


def texts(lines: Sequence[Line]) -> list[int]:
    """Positions of the text lines, images and controls named for screen readers alone that have a text (what
    :func:`hidden` and :func:`foreign` read: pass it to both)."""
    return [i for i, ln in enumerate(lines)
            if ln.name and (ln.role in _READ or (ln.role in _CONTROLS and ln.region == "unseen"))]


#: Containers the rendering names after the text they hold when no text line of their own lies under them (a table
#: cell, a tooltip, a list item, a paragraph): that name is text the page shows, read for its language like a line.
_CARRIERS = frozenset({"cell", "gridcell", "tooltip", "listitem", "paragraph", "note", "definition", "caption"})
_CARRIER_REACH = 8  # lines looked at under a container for a named text line


def carriers(lines: Sequence[Line]) -> list[int]:
    """Positions of the containers (:data:`_CARRIERS`) with a name and no named text line among their first
    descendants: the text they show is their name alone."""
    out: list[int] = []
    n = len(lines)
    for i, ln in enumerate(lines):
        if not ln.name or ln.role not in _CARRIERS:
            continue
        j, named = i + 1, False
        while j < n and lines[j].depth > ln.depth and j - i <= _CARRIER_REACH:
            if lines[j].role in _TEXT and lines[j].name:
                named = True
                break
            j += 1
        if not named:
            out.append(i)
    return out


def hidden(lines: Sequence[Line], text: Sequence[int] | None = None) -> list[int]:
    """Positions of the text lines whose own text sighted users do not see and that are prose (see the module);
    ``text``: the page's :func:`texts`, when the caller has them."""
    text = [i for i in (texts(lines) if text is None else text) if lines[i].role in _TEXT]
    unseen = [i for i in text if lines[i].region == "unseen"]
    found = [i for i in unseen if _sentence(lines[i])]
    if not found or len(unseen) > _COVERED_SHARE * len(text):
        return []
    return [i for i in found if _amid_shown(lines, i)]


_REACH = 12  # lines looked at either side of a hidden sentence for the nearest text


def _amid_shown(lines: Sequence[Line], i: int) -> bool:
    """Whether the nearest text before and after the hidden sentence at ``i`` (a line with a name of its own) is shown
    to sighted users: a sentence hidden amid what the page shows, not a hidden section (a collapsed list, the slides
    of a carousel, whose every piece is hidden)."""
    for step in (-1, 1):
        k = i + step
        while 0 <= k < len(lines) and abs(k - i) <= _REACH:
            if lines[k].name and lines[k].role != "RootWebArea":
                if lines[k].region == "unseen":
                    return False
                break
            k += step
    return True


def _quoted(lines: Sequence[Line]) -> set[int]:
    """Positions of the lines inside a quotation, code or formula (not the page's own voice)."""
    out: set[int] = set()
    for i in [i for i, ln in enumerate(lines) if ln.role in _QUOTE_ROLES]:
        depth, j = lines[i].depth, i + 1
        while j < len(lines) and lines[j].depth > depth:
            out.add(j)
            j += 1
    return out


class PageLanguage:
    """The script and the languages of a page's text (read once, on a sample), and whether a sentence is in
    another language."""

    __slots__ = ("languages", "own", "script")

    own: re.Pattern[str] | None  # any of the page's own function words, as a word

    def __init__(self, lines: Sequence[Line]) -> None:
        parts: list[str] = []
        size = 0
        # lines spread over the whole page (not its head alone: an English menu above a Japanese page's content)
        for ln in lines[:: max(1, len(lines) // _SPREAD)]:
            if ln.role in _TEXT and ln.region in ("main", "user", "chrome") and ln.name:
                parts.append(ln.name)
                size += len(ln.name)
                if size >= _SAMPLE:
                    break
        sample = " ".join(parts)
        self.script = ll.script(sample, limit=_SAMPLE)[0]
        counts = ll.hits(ll.words(sample)) if self.script == "latin" else {}
        top = max(counts.values(), default=0)
        #: every language whose function words come near the leader's (a bilingual page has two)
        self.languages = frozenset(lang for lang, n in counts.items() if n >= 0.5 * top and n >= 5)
        own = sorted(frozenset().union(*(ll.FUNCTION_WORDS[lang] for lang in self.languages)), key=lambda w: (-len(w), w))
        self.own = re.compile(r"\b(?:" + "|".join(map(re.escape, own)) + r")\b") if own else None

    def other(self, text: str) -> str:
        """"script" when ``text`` (a sentence) is written in another script than the page, "language" when it is in
        the page's script but another language's function words lead in it, else ""."""
        if not self.script:
            return ""
        s, letters = ll.script(text)
        if s and s != self.script:
            return "script" if letters >= _MIN_LETTERS else ""
        if s != "latin" or not self.languages:
            return ""
        low = text[:_SPAN].lower()  # (a huge text is judged on its head, as a sentence)
        if self.own is not None:
            found = self.own.finditer(low)
            if next(found, None) is not None and next(found, None) is not None:
                return ""  # (most sentences: two of the page's own function words, found in one scan)
        counts = ll.hits(ll.words(low))
        own = max((counts.get(lang, 0) for lang in self.languages), default=0)
        lead = ll.language({k: v for k, v in counts.items() if k not in self.languages}, least=_LEAD)
        return "language" if lead and counts[lead] >= _LEAD * max(own, 1) else ""


def _asks(text: str) -> bool:
    """A figure, a written address, an order or a kind of secret (what a sentence needs to steer its reader)."""
    text = text[:_SPAN]
    if _FIGURE.search(text) is not None:
        return True
    return lx.has_dest(text) or gives_order(text) or bool(secret_kinds(text.lower(), text))


def foreign(lines: Sequence[Line], skip: frozenset[int] = frozenset(), text: Sequence[int] | None = None) -> list[int]:
    """Positions of the text lines in the page's main or user content that are sentences in another language than
    the page and ask something of their reader (see the module); ``skip``: positions already judged; ``text``: the
    page's :func:`texts`, when the caller has them."""
    text = texts(lines) if text is None else text
    cands = [i for i in (*text, *carriers(lines)) if lines[i].region in _REGIONS and i not in skip and _sentence(lines[i])]
    if not cands:
        return []
    page = PageLanguage(lines)
    if not page.script:
        return []
    quoted = _quoted(lines)
    out: list[int] = []
    for i in cands:
        name = lines[i].name
        other = page.other(name) if i not in quoted else ""
        if other == "script" or (other == "language" and _asks(name)):
            out.append(i)
    return out


_LABEL_REACH = 6  # lines either side of a sentence where a field may have taken it for its label (render's window)
_UP = 4  # containers looked at above a sentence


def repeats(lines: Sequence[Line], i: int) -> dict[int, str]:
    """Line number -> the text to show instead, for the lines that repeat the sentence at ``i`` in a name or a label:
    its containers named after it (a table cell named after its text) and the fields beside it that took it for their
    inferred label (``label?:``), the sentence shown as "…"."""
    sentence = lines[i].name
    out: dict[int, str] = {}
    for k in range(max(0, i - _LABEL_REACH), min(len(lines), i + _LABEL_REACH + 1)):
        if lines[k].label == sentence and sentence in lines[k].text:
            out[lines[k].no] = lines[k].text.replace(sentence, "…")
    parent, j = lines[i].parent, i
    for _ in range(_UP):
        while j > 0 and lines[j].no != parent:
            j -= 1  # a parent precedes its children
        if parent is None or lines[j].no != parent:
            break
        if lines[j].name:  # a paragraph or a group without a name of its own: look further up
            if sentence not in lines[j].text:
                break
            out[lines[j].no] = lines[j].text.replace(sentence, "…")
        parent = lines[j].parent
    return out
