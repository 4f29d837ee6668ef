"""The names a page gives itself (pure): what a host written bare is judged against.

A host written as text without scheme, path or port ("example-shop.com") is an address the reader may be sent to;
but a page also writes *its own* name that way ("Welcome to LWN.net"), and a page saved or served elsewhere does not
link itself absolutely, so its own domains (:func:`pagelens.focus.defense.page_domains`) may not hold it. The page
says who it is elsewhere: its title, the site name in its banner (the first link or image there, its headings) and
its first heading, and the host of its own address. :func:`site_names` reads those names; a bare host whose
registrable label is one of them is the page's own (:func:`pagelens.focus.evidence.with_names` carries them beside the
page's domains). The rendered tree holds no ``<meta>`` (no ``og:site_name``) and only resolved link targets, so a
relative link's base is the page's own host, which its domains hold already.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from pagelens.types import Line

__all__ = ["site_names"]

_WORD = re.compile(r"[a-z0-9]+")
_BANNER_LOOK = 40  # lines of a banner read at most (its logo and name come first)
_HEAD_LOOK = 400  # lines walked at most for the page's first heading
_JOIN = 3  # consecutive words joined into one name at most ("Hacker News" -> "hackernews")
_MIN = 3  # characters a name needs


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def _names(text: str) -> set[str]:
    """The words of ``text`` (ASCII-folded, lower case) and their runs of up to :data:`_JOIN` joined."""
    words = _WORD.findall(_fold(text))
    out: set[str] = set()
    for k in range(len(words)):
        for n in range(1, _JOIN + 1):
            if k + n <= len(words):
                name = "".join(words[k : k + n])
                if len(name) >= _MIN and not name.isdigit():
                    out.add(name)
    return out


def site_names(lines: Sequence[Line], home: frozenset[str]) -> frozenset[str]:
    """The names the page gives itself: the labels of its own domains (``home``), the words of its title, of its
    first heading and of its banner's first link, first image and headings (and their runs joined: a two-word
    name written as one host label)."""
    out: set[str] = {d.split(".", 1)[0] for d in home if d.split(".", 1)[0].strip("0123456789")}
    texts: list[str] = []
    heading = False
    for k, ln in enumerate(lines[:_HEAD_LOOK]):
        if ln.role == "RootWebArea":
            texts.append(ln.name)
        elif ln.role == "heading" and not heading:
            heading = True
            texts.append(ln.name or _child_text(lines, k))
        elif ln.role == "banner":
            texts.extend(_banner(lines, k))
    for t in texts:
        out |= _names(t)
    return frozenset(out)


def _child_text(lines: Sequence[Line], k: int) -> str:
    d = lines[k].depth
    parts = []
    j = k + 1
    while j < len(lines) and lines[j].depth > d and j - k <= 6:
        parts.append(lines[j].name)
        j += 1
    return " ".join(parts)


def _banner(lines: Sequence[Line], k: int) -> list[str]:
    """The banner's first link and first image names, and its headings' (the site's logo and name)."""
    d = lines[k].depth
    out: list[str] = []
    link = img = False
    j = k + 1
    while j < len(lines) and lines[j].depth > d and j - k <= _BANNER_LOOK:
        ln = lines[j]
        if ln.role == "link" and not link:
            link = True
            out.append(ln.name)
        elif ln.role in ("img", "image") and not img:
            img = True
            out.append(ln.name)
        elif ln.role == "heading":
            out.append(ln.name or _child_text(lines, j))
        j += 1
    return out
