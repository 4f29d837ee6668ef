"""Steering judged from the page itself, in any language: addresses that borrow the page's name, and text in
another language than the page that sends its reader to an address the page never uses (pure).

The lexicons of :mod:`pagelens.focus.evidence` read what a span says; they reach the languages and phrasings
they list. Two things a steering span carries need no word list, because the page itself is the reference:

* **a borrowed address** — a host written in the text, neither the page's own domain nor one it links to,
  whose name is built on the site's name or the page's subject plus something else
  (``<site>-archive.…``, ``<subject>-live.…``, ``<site>-verify.…``). An honest page links to its own and its
  partners' sites; it has no reason to spell out a look-alike of itself that it never links. The site's
  official address (its name alone) is not borrowed.
* **a span in another language than the page** that writes an address the page never links: most of its
  words occur nowhere else on the page (the page's vocabulary is the reference, whatever the languages).

Both need a written address that the page's own links never use; both are prose (several words), not a bare
URL, a citation or a list of file names. Reference codes are not evidence (see :mod:`pagelens.focus.steering`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from pagelens.focus.evidence import domain

__all__ = ["PageIdentity", "borrowed_host", "foreign_words", "judge", "lines_with_hosts", "prose", "written_hosts"]

#: A host name written as text ("name-part.tld", "a.b.tld"), not inside a longer word or an e-mail's local part, and
#: not followed at once by an argument list: ``module.func(`` is a call written in code, not an address.
_HOST = re.compile(r"(?<![\w@.-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,12})(?![\w(-])")
#: Endings that make a "host" a file name (a written file is not a destination).
_FILE_ENDINGS = frozenset({"html", "htm", "php", "asp", "aspx", "jsp", "js", "css", "png", "jpg", "jpeg", "gif",
                           "svg", "webp", "pdf", "txt", "json", "xml", "zip", "gz", "exe", "dmg", "apk", "doc",
                           "docx", "xls", "xlsx", "csv", "mp3", "mp4", "md", "py", "rb", "java", "ts"})
_QUICK = re.compile(r"[a-z0-9]\.[a-z]{2}", re.IGNORECASE)  # what any written host holds (a cheap first test)
_PARTS = re.compile(r"[a-z]{3,}")
_WORD = re.compile(r"\w+")
_TITLE_WORD = re.compile(r"[^\W\d_]{4,}")
_MIN_WORDS = 5  # a span shorter than this is a label, a citation or a bare address, not a sentence to the reader
_FOREIGN_SHARE = 0.6  # the share of a span's distinct words that the rest of the page never uses
_COMMON = 40  # the page's commonest words: its language's function words
_MIN_PAGE_CHARS = 2500  # a page with less text than this is no reference for its own language
_SPAN_CHARS = 600  # characters of a span read for its language (a huge aria-label costs no more than a sentence)
_SAMPLE = 8_000  # characters of the page's text its commonest words are counted on


def lines_with_hosts(payloads: Sequence[str]) -> list[int]:
    """Positions of the texts in ``payloads`` that may hold a written host: one scan of the page's joined text
    (not one regex call per line), its matches mapped back to their texts by counting the separators between."""
    joined = "\x00".join(payloads)
    if joined.count("\x00") != len(payloads) - 1:  # a text holding the separator itself: test each text alone
        return [k for k, p in enumerate(payloads) if _QUICK.search(p) is not None]
    out: list[int] = []
    i = last = 0
    for m in _QUICK.finditer(joined):
        i += joined.count("\x00", last, m.start())
        last = m.start()
        if not out or out[-1] != i:
            out.append(i)
    return out


def written_hosts(text: str) -> list[str]:
    """The host names written in ``text`` (lowercased), file names left out."""
    if _QUICK.search(text) is None:
        return []
    low = text.lower()
    return [h for h in _HOST.findall(low)
            if h.rsplit(".", 1)[1] not in _FILE_ENDINGS and not h[0].isdigit() and len(domain(h).split(".", 1)[0]) >= 3]


_CJK = re.compile("[\u3040-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def _words(text: str) -> list[str]:
    """The words of ``text`` (lowercased; numbers left out; a run of CJK characters read as its pairs)."""
    words = [w for w in _WORD.findall(text.lower()) if not w.isdigit()]
    if _CJK.search(text) is None:
        return words
    out: list[str] = []
    for w in words:
        if len(w) > 2 and _CJK.search(w) is not None:
            out.extend(w[i : i + 2] for i in range(len(w) - 1))
        else:
            out.append(w)
    return out


@dataclass
class PageIdentity:
    """What a page calls itself and where it links: its own domains, the domains of its links, the name parts
    of those domains and the words of its title; and, built on first use, its text and its commonest words."""

    home: frozenset[str]
    linked: frozenset[str]
    names: frozenset[str]
    labels: frozenset[str]
    payloads: Sequence[str]
    _text: str | None = field(default=None, repr=False)
    _common: frozenset[str] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, home: frozenset[str], linked: frozenset[str], title: str, payloads: Sequence[str]) -> PageIdentity:
        """``home``: the page's own domains; ``linked``: every domain its links lead to
        (:func:`pagelens.focus.defense.page_domains`)."""
        names: set[str] = set()
        labels = {d.split(".", 1)[0] for d in home}
        labels = {label for label in labels if label.strip("0123456789")}  # a loopback or IP origin has no name
        for label in list(labels):
            names.add(label)
            names.update(_PARTS.findall(label))
            labels.update(part for part in _PARTS.findall(label) if len(part) >= 5)  # katzen-forum: katzen
        names.update(w.lower() for w in _TITLE_WORD.findall(title) if w.isascii())
        return cls(home, linked, frozenset(n for n in names if len(n) >= 3), frozenset(labels), payloads)

    def unused(self, host: str) -> bool:
        """The host is neither the page's own domain nor one of the domains its links lead to."""
        d = domain(host)
        return bool(d) and d not in self.home and d not in self.linked

    def text(self) -> str:
        """The page's text, lowercased (built once, on the first span that needs it)."""
        if self._text is None:
            self._text = "\n".join(self.payloads).lower()
        return self._text

    def common(self) -> frozenset[str]:
        """The page's :data:`_COMMON` commonest words, numbers left out, counted on its first :data:`_SAMPLE`
        characters (the function words of its language show up early on any page)."""
        if self._common is None:
            counts = Counter(_words(self.text()[:_SAMPLE]))
            self._common = frozenset(w for w, _ in counts.most_common(_COMMON))
        return self._common


def borrowed_host(host: str, page: PageIdentity) -> bool:
    """Whether ``host`` (unused by the page) is named after the site or the page's subject plus something else:
    a look-alike, not the site's own or official address (whose name is the brand alone)."""
    if not page.unused(host):
        return False
    label = domain(host).split(".", 1)[0]
    if label in page.names:
        return False  # the brand's own name alone: an official address, or another site that happens to share it
    parts = _PARTS.findall(label)
    # a part of its name is the site's name or a word of the page's title; or the site's name lies inside it, or
    # one of its parts inside the site's name (brandname-x.…, brand-x.… for brandnews.…)
    return (any(p in page.names for p in parts)
            or any(len(h) >= 4 and (h in label or any(len(p) >= 4 and p in h for p in parts)) for h in page.labels))


def foreign_words(text: str, page: PageIdentity, hosts: Sequence[str]) -> bool:
    """Whether ``text`` is in another language than the page: at least :data:`_MIN_WORDS` words besides its
    addresses and codes (a word holding a digit, a reference code, is unique to any text: never evidence), most of
    which (:data:`_FOREIGN_SHARE`) no other text of the page uses."""
    low = low_full = text[:_SPAN_CHARS].lower()  # the span's own share of the page's text, its addresses included
    for h in hosts:
        low = low.replace(h, " ")
    words = {w for w in _words(low) if not any(ch.isdigit() for ch in w)}
    if len(words) < _MIN_WORDS:
        return False
    page_text = page.text()
    if len(page_text) - len(text) < _MIN_PAGE_CHARS:
        return False
    # it lacks the page's commonest words (its language's function words: "the", "de", "の", whatever it is)
    if len(words & page.common()) > 1:
        return False
    # and most of its words are its alone: the page's text holds them (anywhere, inside other words too) no more
    # often than the span itself does (one C-speed count per word, no tokenising of the page; stops once decided)
    need, left = _FOREIGN_SHARE * len(words), len(words)
    alone = 0
    for w in words:
        alone += page_text.count(w) <= low_full.count(w)
        left -= 1
        if alone >= need or alone + left < need:
            break
    return alone >= need


def prose(text: str) -> bool:
    """At least :data:`_MIN_WORDS` words: a sentence, not a label or a bare address."""
    return len(_WORD.findall(text)) >= _MIN_WORDS


def judge(text: str, page: PageIdentity, *, foreign: bool,
          written: Sequence[str] | None = None) -> tuple[str, str] | None:
    """(kind, reason) when ``text`` (normalised) steers its reader to an address the page never uses: prose in
    another language than the page (or unlike any of its other text) that writes such an address; or one that
    writes an address borrowing the site's or the page's name, where the site did not write the text for every
    reader (``foreign``: user content, an overlay, hidden text, a notice bar). In the site's own text a look-alike
    address is not enough: a site announcing its own new address writes exactly that. ``written``: the text's
    :func:`written_hosts`, when the caller has them."""
    if "." not in text or not prose(text):
        return None
    hosts = [h for h in (written_hosts(text) if written is None else written) if page.unused(h)]
    if not hosts:
        return None
    if foreign_words(text, page, hosts):
        return "steers-offsite", (f"writes an address the page never links ({hosts[0]}) in words no other text of "
                                  "the page uses (another language than the page's)")
    if not foreign:
        return None  # the site announcing its own new address is its own business (a move notice)
    host = next((h for h in hosts if borrowed_host(h, page)), None)
    if host is not None:
        return "steers-offsite", f"writes an address named after this site or page that the page never links ({host})"
    return None
