"""Which of a goal's terms a text carries — :func:`pagelens.focus.terms.terms_of`, restricted
to one goal, so a page of 10,000 lines is matched in a few tens of milliseconds.

``terms_of`` finds every term of a text (every concept of the lexicon: one large regular
expression); a ranker only needs the goal's. :class:`GoalMatcher` builds, once per goal, the
word stems, joined pairs and the lexicon forms of the goal's concepts only, and recognises the
value kinds (amounts, dates, phone numbers, bylines) only when the goal asks for one.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from pagelens.focus.terms import _CJK, WORD, _stem, normalise, surface, terms_of


@lru_cache(maxsize=1)
def _forms_by_concept() -> dict[str, list[str]]:
    single, phrases = surface()
    out: dict[str, list[str]] = {}
    for w, concepts in single.items():
        for c in concepts:
            out.setdefault(c, []).append(w)
    for form, c in phrases:
        out.setdefault(c, []).append(form)
    return out


@lru_cache(maxsize=32_768)
def words_of(text: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """What every goal's match needs of ``text``, computed once per text for all goals and
    steps: the normalised text, its distinct word terms (stems, whole numbers) and its distinct
    joined pairs. The terms are kept as tuples, not frozensets (a frozenset of 5-18 strings is
    728 bytes before its strings, a tuple 80-184): the 32k entries of a 100,000-element page's
    texts hold 3.6 MB of term containers instead of 21.4. (100k entries kept up to ~80 MB of older
    pages' texts while a big page was observed: hence the bound.)"""
    norm = normalise(text)
    words = WORD.findall(norm)
    terms = tuple(frozenset(w.replace(",", "") if w[0].isdigit() else _stem(w) for w in words))
    joined = tuple(frozenset("+" + _stem(a + b) for a, b in pairwise(words)
                             if a.isalpha() and b.isalpha() and len(a) + len(b) <= 12))
    return norm, terms, joined


def compound_heads(concepts: set[str]) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """A pattern finding the lexicon forms (5+ Latin letters) of ``concepts`` as the first word
    of a compound ("Größen|berater", "Preis|vergleich": German, Dutch and Nordic put the modifier
    first), with the form -> concept map; None when no concept has such a form."""
    forms = _forms_by_concept()
    by_form: dict[str, str] = {}
    for c in sorted(concepts):
        for f in forms.get(c, ()):
            if len(f) >= 5 and f.isalpha() and not _CJK.search(f):
                by_form.setdefault(f, "§" + c)
    if not by_form:
        return None
    alternation = "|".join(re.escape(f) for f in sorted(by_form, key=len, reverse=True))
    return re.compile(rf"(?<!\w)({alternation})(?:e|en|er|es|s|n)?(?=[^\W\d_]{{4,}})"), by_form


_VALUE_KINDS = frozenset({"phone", "amount", "date", "author"})
#: The answer for a text that carries none of the goal's terms (most texts of a big page), shared
#: by the memo's entries instead of an empty frozenset of 216 bytes each (6.5 MB at 100,000 elements)
_NONE: frozenset[str] = frozenset()


class GoalMatcher:
    def __init__(self, weights: dict[str, float], *, inflected: bool = False) -> None:
        """``inflected``: a Latin form also matches with a common inflectional ending ("neu" in
        "Neue", "Artikel" in "Artikeln"), for pages not in English (the lexicon lists the English
        inflections it wants)."""
        self.weights = weights
        self.words = {t for t in weights if t[0] not in "§+"}
        self.joined = {t for t in weights if t[0] == "+"}
        concepts = {t[1:] for t in weights if t[0] == "§"}
        self.value_kinds = concepts & _VALUE_KINDS
        forms = _forms_by_concept()
        by_form: dict[str, set[str]] = {}
        for c in concepts:
            for f in forms.get(c, ()):
                by_form.setdefault(f, set()).add("§" + c)
        self.by_form = by_form
        ordered = sorted(by_form, key=len, reverse=True)
        alternation = "|".join(re.escape(f) for f in ordered if not _CJK.search(f))
        # a form matches as a whole word, or before a non-ASCII letter; a form written in a
        # script without spaces (kana, hanzi, hangul) anywhere: "メール" in "Eメール" or in
        # "確認メール", at the end of a text as well as before more of its script
        spaceless = "|".join(re.escape(f) for f in ordered if _CJK.search(f))
        ending = "(?:e|en|er|es|s|n)?" if inflected else ""
        parts = [rf"(?<!\w)(?:{alternation}){ending}(?!\w)",
                 rf"(?:{alternation})(?=[^\x00-\x7f])"] if alternation else []  # (spaceless forms: below)
        if spaceless:
            parts.append(rf"(?:{spaceless})")
        self.pattern = re.compile("|".join(parts) if parts else r"(?!x)x")
        self._cache: dict[str, frozenset[str]] = {}

    def match(self, text: str) -> frozenset[str]:
        """The goal's terms that ``text`` carries."""
        got = self._cache.get(text)
        if got is not None:
            return got
        norm, terms, joined = words_of(text)
        out: set[str] = self.words.intersection(terms)
        if self.joined:
            out |= self.joined.intersection(joined)
        if self.by_form:
            for m in self.pattern.finditer(norm):
                form = m.group(0)
                if form not in self.by_form:  # an inflected form: the form it starts with
                    form = next((form[:-n] for n in (1, 2) if form[:-n] in self.by_form), "")
                out |= self.by_form.get(form, set())
        if self.value_kinds and any(ch.isdigit() for ch in norm) | ("by" in norm or "von" in norm):
            out |= {t for t in terms_of(text) if t[0] == "§" and t[1:] in self.value_kinds}
        frozen = frozenset(out) if out else _NONE
        if len(self._cache) < 50_000:
            self._cache[text] = frozen
        return frozen
