"""Cognates: a goal word that no unit carries, found in the page's own spelling of it.

English goals over pages in other Latin-script languages name many things with words that
the page spells its own way ("calendar" / "Kalender", "articles" / "Artikel", "contrast" /
"Kontrast", "category" / "catégorie", "telephone" / "Telefon"). No stemmer joins them and no
lexicon lists them all. Both sides are folded to a rough spelling (accents dropped, ``k``/``c``,
``ph``/``f``, ``y``/``i``, ``z``/``c``, doubled letters once, a common ending dropped) and a page
word counts as the goal word's cognate when the two share their first two folded letters and
their edit distance is at most a quarter of the longer one (one edit under eight letters).

Only for goal words of 5+ letters that occur nowhere on the page (the lexical signals see the
others), against the page's words of 5+ letters, bucketed by their first two folded letters:
a few dozen comparisons per unseen word. Pure functions, no page object.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

_ENDINGS = ("ungen", "ung", "ions", "ion", "en", "er", "es", "e", "s", "o", "a")
_DOUBLE = re.compile(r"(.)\1+")
MIN_LETTERS = 5


@lru_cache(maxsize=50_000)
def spelling(word: str) -> str:
    """A rough, language-neutral spelling of a lowercase word (its ending kept)."""
    w = unicodedata.normalize("NFKD", word.replace("ß", "ss"))
    w = "".join(ch for ch in w if not unicodedata.combining(ch))
    w = w.replace("ph", "f").replace("th", "t").replace("k", "c").replace("y", "i").replace("z", "c")
    return _DOUBLE.sub(r"\1", w)


@lru_cache(maxsize=50_000)
def fold(word: str) -> str:
    """:func:`spelling` without a common inflectional ending."""
    w = spelling(word)
    for e in _ENDINGS:
        if len(w) - len(e) >= MIN_LETTERS - 1 and w.endswith(e):
            return w[: -len(e)]
    return w


def _distance(a: str, b: str, cap: int) -> int:
    """Levenshtein distance of ``a`` and ``b``, or ``cap + 1`` once it must exceed ``cap``."""
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        low = i
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            low = min(low, cur[j])
        if low > cap:
            return cap + 1
        prev = cur
    return prev[-1]


def is_cognate(goal_word: str, page_word: str) -> bool:
    """Two words spelled alike once folded: equal with or without their endings, or within
    one edit in four letters (one for words under eight), starting alike."""
    a, b = spelling(goal_word), spelling(page_word)
    sa, sb = fold(goal_word), fold(page_word)
    if a == b or sa == sb:
        return True
    if a[:2] != b[:2]:
        return False
    cap = max(1, max(len(a), len(b)) // 4)
    return min(_distance(a, b, cap), _distance(sa, sb, cap)) <= cap


def compound_head(goal_word: str, page_word: str) -> bool:
    """``page_word`` is a compound (4+ letters longer than the goal word's stem) that begins with
    a cognate of ``goal_word``: German, Dutch and Nordic compounds put their modifier first."""
    a, b = fold(goal_word), spelling(page_word)
    if len(b) < len(a) + 4 or a[:2] != b[:2]:
        return False
    return any(_distance(a, b[: len(a) + d], 1) <= 1 for d in (-1, 0, 1))


class Vocabulary:
    """The words of a page's units (5+ letters, Latin script), bucketed for cognate look-up."""

    def __init__(self, unit_texts: Iterable[str]) -> None:
        units_of: dict[str, list[int]] = {}
        for k, text in enumerate(unit_texts):
            for w in set(LATIN_WORD.findall(text)):
                units_of.setdefault(w, []).append(k)
        self.units_of = units_of
        buckets: dict[str, list[str]] = {}
        for w in units_of:
            buckets.setdefault(fold(w)[:2], []).append(w)
        self.buckets = buckets

    def cognates(self, goal_word: str) -> list[str]:
        """The page's words that are cognates of ``goal_word`` (lowercase, normalised), or
        compounds that begin with one ("school" / "Schulferien", "park" + "Parkplatz" for 5+ letters)."""
        if len(goal_word) < MIN_LETTERS or not goal_word.isalpha():
            return []
        return [w for w in self.buckets.get(fold(goal_word)[:2], ())
                if w != goal_word and (is_cognate(goal_word, w) or compound_head(goal_word, w))]


LATIN_WORD = re.compile(rf"\b[a-zà-ÿœß]{{{MIN_LETTERS},}}\b")
