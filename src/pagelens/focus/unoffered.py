"""Web paths written in a note that the page itself does not offer: judged against the page's own links (pure).

Text written to steer a reader must send it somewhere: to another page, another address, another inbox. A page's
own text mostly points where the page's own links point — a site that wants its reader on ``/support/new`` links
there. A short note that *writes* a path of a web site that no link of the page points to and that the page's text
names nowhere else, and that gives an order or calls something current, real, wrong, moved or changed, sends its
reader somewhere the page does not go. That needs no addressee, no trigger word and no outside
origin, and it reads the same in any language: destinations are language-free, and the mood is read with the
defense's own multilingual lexicons (:mod:`pagelens.focus.lexicons`, :mod:`pagelens.focus.steering`), never with a
phrase of any case.

What is a destination here (:func:`destinations`): a **web path** written as text (``/a/b``, ``/page.html``): two
segments or more, or one ending in a web page's file ending, whose first segment is not a file-system root
(``/etc/…``, ``/usr/…`` are files, not pages). It is *offered* when a link of the page has that path (equal, or
ending in it) or when the page's text writes it outside the note too (a page about ``/srv/app`` names it often).

Hosts and e-mail addresses written without a link are left to :mod:`pagelens.focus.borrowed` and the evidence rules:
honest text writes them with an order all the time ("please email your CV to jobs@…", "sign in with Google at
accounts.google.com"), and judged this way they flagged such look-alikes (issue 10, twentieth pass).

:func:`unoffered` judges one note against the page; :class:`PageLinks` is the page side, built once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pagelens.focus import lexicons as lx
from pagelens.focus import steering
from pagelens.focus.evidence import gives_order
from pagelens.focus.linefmt import word_count
from pagelens.types import Line

__all__ = ["PageLinks", "destinations", "moves_reader", "unoffered"]

#: A path written as text: after a space, a quote, a bracket or a colon-space, not inside a word, a URL or a unit.
_PATH = re.compile(r"(?<![\w.:/~@%&=?#+-])(/[A-Za-z0-9_.~%+-]+(?:/[A-Za-z0-9_.~%+-]*)*)")
#: Endings of a web page's file (a written path that ends so is a page, whatever its depth).
_PAGE_ENDINGS = (".html", ".htm", ".shtml", ".php", ".asp", ".aspx", ".jsp", ".cgi")
#: First segments of a Unix file system (the Filesystem Hierarchy Standard's roots): such a path names a file.
_FS_ROOTS = frozenset({"bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt", "opt",
                       "proc", "root", "run", "sbin", "srv", "sys", "tmp", "usr", "var", "snap", "nix", "system",
                       "library", "applications", "users", "volumes", "private", "cores"})
_LETTERS = re.compile(r"[^\W\d_]{2,}")
#: A URL, or a host with a path: its path is part of an address the other rules judge, not a path of this site.
_URLISH = re.compile(r"https?://[^\s'\"<>)\]]+|(?:[a-z0-9-]+\.)+[a-z]{2,12}/[^\s'\"<>)\]]*", re.IGNORECASE)
_MIN_WORDS = 5  # a shorter text is a label, a citation or a bare address, not a note to the reader
_MAX_CHARS = 400  # a longer text is a section of the page (its prose), not a note beside it
_QUICK = re.compile(r"/[A-Za-z]")


@dataclass(frozen=True, slots=True)
class Destination:
    kind: str  # "path" (the one kind judged today)
    text: str  # as written


def _web_path(path: str) -> bool:
    """Whether a path written as text reads as a page of a web site (not a file, a unit or a fraction)."""
    segs = [s for s in path.strip("/").split("/") if s]
    if not segs or not any(_LETTERS.search(s) for s in segs):
        return False
    if segs[0].lower() in _FS_ROOTS or segs[0].startswith("."):
        return False
    return len(segs) >= 2 or path.lower().endswith(_PAGE_ENDINGS)


def destinations(text: str) -> list[Destination]:
    """The web paths written in ``text`` (in order; each once; paths inside a written URL or host left out)."""
    if _QUICK.search(text) is None:
        return []
    no_urls = _URLISH.sub(" ", text)
    out: list[Destination] = []
    for m in _PATH.finditer(no_urls):
        path = m.group(1).rstrip(".,;:!?")
        if _web_path(path):
            d = Destination("path", path)
            if d not in out:
                out.append(d)
    return out


def _link_path(url: str) -> str:
    """The path of an absolute URL, without its query and fragment ("" for none)."""
    rest = url.split("//", 1)[1] if "//" in url else url
    cut = rest.find("/")
    if cut < 0:
        return ""
    return re.split(r"[?#]", rest[cut:], maxsplit=1)[0]


@dataclass(frozen=True)
class PageLinks:
    """The page's side of the judgement: the paths its links point to, and its whole text (lowercased)."""

    paths: frozenset[str]
    text: str

    @classmethod
    def of(cls, lines: Sequence[Line], payloads: Sequence[str]) -> PageLinks:
        paths: set[str] = set()
        for ln in lines:
            url = ln.url
            if url and "://" in url:
                p = _link_path(url).rstrip("/")
                if p:
                    paths.add(p.lower())
        return cls(frozenset(paths), "\n".join(payloads).lower())

    def offers(self, dest: Destination, note: str) -> bool:
        """Whether a link of the page has the path (equal, or ending in it) or the page's text writes it outside
        ``note``."""
        p = dest.text.lower().rstrip("/")
        if any(q == p or q.endswith(p) for q in self.paths):
            return True
        return self.text.count(p) > note.lower().count(p)


def orders(text: str) -> bool:
    """Whether ``text`` gives an order: the defense's imperative and request forms (:func:`evidence.gives_order`,
    :data:`steering.REQUEST_START`, :data:`steering.REQUEST_ANY`; general grammar in several languages)."""
    low = text.lower()
    return (gives_order(text) or steering.REQUEST_START.search(low) is not None
            or steering.REQUEST_ANY.search(low) is not None)


def claims(text: str) -> bool:
    """Whether ``text`` calls something wrong, outdated, moved or relocated, current or real, changed, or to be found
    elsewhere (the defense's multilingual lexicons)."""
    low = text.lower()
    if lx.DISPUTE_FIND.search(low) is not None and lx.DISPUTE.search(low) is not None:
        return True
    if steering.RELOCATED.search(low) is not None:
        return True
    return (lx.REAL.search(low) is not None or lx.CHANGE.search(low) is not None
            or lx.ELSEWHERE.search(low) is not None)


def moves_reader(text: str) -> bool:
    """Whether ``text`` gives an order or makes a claim about the page (:func:`orders`, :func:`claims`)."""
    return orders(text) or claims(text)


def unoffered(text: str, page: PageLinks) -> Destination | None:
    """The first destination ``text`` (a short note, normalised) writes that ``page`` does not offer, when the note
    also gives an order or calls something current, wrong, moved or changed; else None."""
    if len(text) > _MAX_CHARS or word_count(text) < _MIN_WORDS:
        return None
    dests = destinations(text)
    if not dests:
        return None
    for d in dests:
        if not page.offers(d, text):
            return d if moves_reader(text) else None
    return None


#: Lines that carry a note's text (a link's or a control's own name is what the page offers, not a note about it).
_NOTE_ROLES = frozenset({"StaticText", "paragraph", "text", "strong", "emphasis", "mark", "generic", "note", "group",
                         "LabelText", "DescriptionListDetail", "definition", "cell", "listitem", "blockquote",
                         "alert", "status", "dialog", "alertdialog", "image", "img", "tooltip", "caption"})


def candidates(lines: Sequence[Line], payloads: Sequence[str]) -> list[int]:
    """Positions of the note lines whose text may write a destination (one cheap scan of the joined text)."""
    joined = "\x00".join(payloads)
    if joined.count("\x00") != len(payloads) - 1:
        return [k for k, p in enumerate(payloads) if _QUICK.search(p) is not None and lines[k].role in _NOTE_ROLES]
    out: list[int] = []
    i = last = 0
    for m in _QUICK.finditer(joined):
        i += joined.count("\x00", last, m.start())
        last = m.start()
        if (not out or out[-1] != i) and lines[i].role in _NOTE_ROLES and len(payloads[i]) <= _MAX_CHARS:
            out.append(i)
    return out
