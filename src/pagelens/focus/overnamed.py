"""Names that say more than a name: a sentence added to a control's or an image's name sighted users do not see (pure).

An ``aria-label``, a ``title`` or an image's ``alt`` names its element: "Print recipe", "Save this recipe to your
recipe box", "The television seen from the side". Text written for the agent in the site's own register uses the same
attributes to add a *statement* to a name — "See all formats. The price on this page applies to …", "Print recipe.
Bake at …" — which a sighted user never reads and a screen reader reads as the control's name. Its shape holds in any
language and phrasing: a short head (a name of at most :data:`_HEAD` words), a sentence end (a full stop, a question or
exclamation mark or a semicolon after a word), then a sentence of its own (at least :data:`_TAIL_WORDS` words). A
colon or a dash is no such break: titles are written "Title: a subtitle" and "Site – what it is".

Read on the controls whose name sighted users do not see (provenance's ``unseen`` region: an ``aria-label`` absent
from the visible text) and on images (their alternative text). An honest name is one phrase — an icon button's
label, an image's description, a product option with its price — or a sentence from its first word (a checkbox's
"I have read …", a screen-reader hint "Categories, you are currently on …"), and has no short head before a second
sentence. An image's name that gives an order or states an obligation (:func:`orders`, six words or more) is folded
the same way, its first three words kept: a description of an image asks nothing of its reader (controls are left
out there: "Add … to cart" is an honest control's name). What :func:`overnamed` finds is folded like a sentence hidden from sighted users
(:mod:`pagelens.focus.notices`, kind ``named``): the element keeps its place and its head, the rest is behind the
placeholder, and ``expand`` shows it. It is not a verdict of injection (nothing is flagged).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pagelens.focus import lexicons as lx
from pagelens.focus.evidence import gives_order
from pagelens.focus.linefmt import word_count
from pagelens.types import Line

__all__ = ["head_end", "orders", "overnamed"]

_CONTROLS = frozenset({"link", "button", "menuitem", "tab", "checkbox", "radio", "option", "switch"})
_IMAGES = frozenset({"img", "image"})
_HEAD = 5  # words: a name
_TAIL_WORDS = 6  # words of the sentence added after it
_TAIL_CHARS = 30
_MIN = _TAIL_CHARS + 4  # characters a name needs before it is read at all
#: A sentence end after a name: a word of two letters or more (or a closing bracket) then . ! ? or ; and a space; or
#: the CJK marks.
_BREAK = re.compile(r"(?:[^\W\d_]{2}|\))[.!?;]\s|[。！？；]")


def head_end(name: str) -> int:
    """Where the name's head ends (a character offset) when ``name`` is a short name followed by a sentence of its
    own, else 0."""
    if len(name) < _MIN:
        return 0
    m = _BREAK.search(name)
    if m is None:
        return 0
    if word_count(name[: m.end()].strip()) > _HEAD:
        return 0
    tail = name[m.end():].strip()
    if len(tail) < _TAIL_CHARS or word_count(tail) < _TAIL_WORDS:
        return 0
    return m.end()


def overnamed(lines: Sequence[Line], skip: frozenset[int] = frozenset(),
              text: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """(position, characters of the name's head to keep) of the controls named for screen readers alone and the
    images whose name is a short name followed by a sentence of its own (see the module); ``skip``: positions already
    judged; ``text``: the positions of the lines with a name to read (:func:`pagelens.focus.outofplace.texts`), when
    the caller has them."""
    out: list[tuple[int, int]] = []
    for i in (range(len(lines)) if text is None else text):
        ln = lines[i]
        if i in skip or len(ln.name) < _MIN:
            continue
        if ln.role in _IMAGES or (ln.role in _CONTROLS and ln.region == "unseen"):
            keep = head_end(ln.name) or (ln.role in _IMAGES and orders(ln.name))
            if keep:
                out.append((i, keep))
    return out


_ORDER_WORDS = 6  # words an image's name needs before an order in it is read
_ORDER_HEAD = re.compile(r"\S+(?:\s+\S+){0,2}")  # the head kept: its first three words


def orders(name: str) -> int:
    """Where the head of an image's name ends (its first three words) when the name gives an order or states an
    obligation (:func:`pagelens.focus.evidence.gives_order`, :data:`pagelens.focus.lexicons.MODAL`) in six words or
    more, else 0: an image's alternative text describes the image, it has nothing to ask of its reader."""
    if word_count(name) < _ORDER_WORDS:
        return 0
    if not (gives_order(name) or lx.MODAL.search(name.lower()) is not None):
        return 0
    m = _ORDER_HEAD.search(name)
    return m.end() if m else 0
