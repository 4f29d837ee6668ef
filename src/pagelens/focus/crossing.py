"""Whether a goal is written in another language than the page it reads (pure; no model, no library).

A goal's language is its script when that is not Latin, else the language whose function words it uses
(:func:`pagelens.focus.lexicons_lang.language`); a page's is found the same way over its units' text (read
once per page, kept in the analysis). They *differ* only when both are known: a goal of three nouns, or a
page of labels and names, says no language, and is not called crossing.
"""

from __future__ import annotations

from pagelens.focus import lexicons_lang as ll
from pagelens.focus.analysis import PageAnalysis

__all__ = ["crosses", "language_of", "page_language"]

#: a page's language is read from at most this many characters of its units' text
PAGE_CHARS = 20_000
_KEY = "crossing.page_language"


def language_of(text: str, *, limit: int = 400) -> str:
    """``text``'s script when not Latin ("greek", "arabic", "cjk" ...), else the code of the Latin-script language
    whose function words clearly lead ("en", "cs" ...); "" when neither is known."""
    name, letters = ll.script(text, limit=limit)
    if not letters:
        return ""
    if name != "latin":
        return name
    return ll.language(ll.hits(ll.words(text[:limit])))


def page_language(pa: PageAnalysis) -> str:
    """:func:`language_of` over the page's unit texts (their first :data:`PAGE_CHARS` characters), once per page."""
    got = pa.indexes.get(_KEY)
    if got is None:
        parts: list[str] = []
        n = 0
        for t in pa.units.texts:
            parts.append(t)
            n += len(t) + 1
            if n >= PAGE_CHARS:
                break
        got = pa.indexes[_KEY] = language_of(" ".join(parts), limit=PAGE_CHARS)
    return str(got)


def crosses(goal: str, pa: PageAnalysis) -> bool:
    """Is ``goal`` in another language than the page (both known, and they differ)?"""
    mine = language_of(goal)
    if not mine:
        return False
    theirs = page_language(pa)
    return bool(theirs) and theirs != mine
