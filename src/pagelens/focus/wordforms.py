"""How a page may write a goal word that it never writes as the goal does — each a fallback
for goal words no unit carries, adding the goal's term (weakly where noted) to the units and
lines that write it that way; in place, on the ranker's hit maps:

* :func:`compound_heads_in` — a concept a page not in English writes only as the first word
  of compounds (:func:`pagelens.focus.matcher.compound_heads`);
* :func:`loanwords_in` — an English word the page writes as a katakana loanword (:mod:`.kana`);
* :func:`abbreviations_in` — a measurement's abbreviated unit after a number (:mod:`.facts`);
* :func:`cognates_in` — the page's own spelling of the word, or its English spelling for a goal in another
  language (:mod:`.cognates`);
* :func:`translations_in` — the word's translation into the page's language, for a goal written in another
  language than its page (:mod:`.bilingual`, FreeDict dictionaries).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import pairwise

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.cognates import LATIN_WORD, MIN_LETTERS
from pagelens.focus.facts import abbreviation_hits
from pagelens.focus.kana import loanword_index, loanwords
from pagelens.focus.lexicon import STOPWORDS
from pagelens.focus.matcher import compound_heads
from pagelens.focus.terms import WORD, _stem, normalise, without_quotes


def compound_heads_in(pa: PageAnalysis, weights: dict[str, float], unit_hits: list[set[str]],
                      line_terms: dict[int, frozenset[str]]) -> None:
    """A goal concept that a page not in English never writes as a word is looked for as the
    first word of its compounds ("size" -> "Größenberater"; :func:`.matcher.compound_heads`);
    in place. Only then: a concept the page does write stays with its own words (on a city
    portal, "Stadt" opens dozens of compounds)."""
    carried = set().union(*unit_hits) if unit_hits else set()
    missing = {t[1:] for t in weights if t[0] == "§" and t not in carried}
    found = compound_heads(missing) if missing else None
    if found is None:
        return
    pattern, concept_of = found
    units = pa.units
    for k, text in enumerate(pa.norm_texts):
        if not pattern.search(text):
            continue
        for j in units.members[k]:
            got = {concept_of[m.group(1)] for m in pattern.finditer(normalise(pa.line_texts[j]))}
            if got:
                line_terms[j] = line_terms[j] | got
                unit_hits[k] |= got


def loanwords_in(goal: str, pa: PageAnalysis, weights: dict[str, float], own_terms: set[str],
                 unit_hits: list[set[str]], line_terms: dict[int, frozenset[str]], weight: float) -> None:
    """A goal word that no unit carries counts, weakly, where the page writes it as a
    katakana loanword ("gift" on ``ギフトとして購入``, :mod:`.kana`); in place."""
    if not loanword_index(pa):
        return
    carried = set().union(*unit_hits) if unit_hits else set()
    seq = [w for w in WORD.findall(normalise(without_quotes(goal)))
           if w.isascii() and w.isalpha() and w not in STOPWORDS]
    words = {w: _stem(w) for w in seq if len(w) >= 4}
    words = {w: t for w, t in words.items() if t in own_terms and t not in carried}
    for a, b in pairwise(seq):  # two goal words one katakana run may write as one
        if (a in words or b in words) and len(a) >= 3 and len(b) >= 3:
            words[a + b] = words.get(a) or words[b]
    for w, t in words.items():
        found = loanwords(pa, w)
        if not found:
            continue
        weights[t] = min(weights.get(t, 1.0), weight)
        for k, run in found:
            unit_hits[k].add(t)
            for j in pa.units.members[k]:
                if run in normalise(pa.line_texts[j]):
                    line_terms[j] = line_terms[j] | {t}


def abbreviations_in(goal: str, pa: PageAnalysis, own_terms: set[str], unit_hits: list[set[str]],
                     line_terms: dict[int, frozenset[str]]) -> None:
    """A measurement's abbreviated unit counts as the goal word it shortens ("kms" for
    "kilometres", :func:`pagelens.focus.facts.abbreviation_hits`); in place."""
    words = {w: _stem(w) for w in WORD.findall(normalise(without_quotes(goal)))
             if len(w) >= 5 and w.isalpha() and w not in STOPWORDS}
    words = {w: t for w, t in words.items() if t in own_terms}
    for k, ts in abbreviation_hits(pa, words).items():
        unit_hits[k] |= ts
        for j in pa.units.members[k]:
            if any(ch.isdigit() for ch in pa.line_texts[j]):
                line_terms[j] = line_terms[j] | ts


def _credit(t: str, weight: float, weights: dict[str, float], unit_hits: list[set[str]],
            line_terms: dict[int, frozenset[str]], where: Iterable[tuple[int, Iterable[int]]]) -> None:
    """The goal term ``t`` counts at most ``weight`` and is carried by the units and lines of ``where``
    ((unit, its lines that write it) pairs); in place."""
    weights[t] = min(weights.get(t, 1.0), weight)
    for k, lines in where:
        unit_hits[k].add(t)
        for j in lines:
            line_terms[j] = line_terms[j] | {t}


def cognates_in(goal: str, pa: PageAnalysis, weights: dict[str, float], own_terms: set[str],
                unit_hits: list[set[str]], line_terms: dict[int, frozenset[str]], weight: float) -> None:
    """A goal word that no unit carries counts, weakly, where a page not in English spells it
    its own way (:mod:`.cognates`: "calendar" on a "Kalender" link), or where an English page
    spells a word of a goal written in another language its English way; in place."""
    carried = set().union(*unit_hits) if unit_hits else set()
    words = {w: _stem(w) for w in WORD.findall(normalise(without_quotes(goal)))
             if len(w) >= MIN_LETTERS and w.isalpha() and w not in STOPWORDS}
    unseen = {w: t for w, t in words.items() if t in own_terms and t not in carried}
    if not unseen:
        return
    vocab = pa.words()
    for w, t in unseen.items():
        cognates = vocab.cognates(w)
        if not cognates:
            continue
        found = set(cognates)
        _credit(t, weight, weights, unit_hits, line_terms,
                ((k, [j for j in pa.units.members[k]
                      if found & set(LATIN_WORD.findall(normalise(pa.line_texts[j])))])
                 for c in cognates for k in vocab.units_of[c]))


@lru_cache(maxsize=1)
def _function_words() -> frozenset[str]:
    from pagelens.focus.lexicons_lang import FUNCTION_WORDS

    return frozenset().union(*FUNCTION_WORDS.values())


def translations_in(goal: str, pa: PageAnalysis, weights: dict[str, float], own_terms: set[str],
                    unit_hits: list[set[str]], line_terms: dict[int, frozenset[str]], *, senses: int,
                    weight: float, phrases: bool, least: int) -> dict[str, float]:
    """A goal in another language than the page: a goal word no unit carries counts where the page has one of
    its translations (:mod:`.bilingual`, FreeDict dictionaries), at the translation's weight; in place. Returns
    the translations found, with their weights, for BM25's query ({} when the goal does not cross or no
    dictionary of the pair is installed: then nothing changes)."""
    from pagelens.focus import bilingual

    goal = without_quotes(goal)
    skip = _function_words()
    words = {w: _stem(w) for w in WORD.findall(normalise(goal)) if len(w) >= 3 and w.isalpha()
             and w not in STOPWORDS and w not in skip}
    words = {w: t for w, t in words.items() if t in own_terms}
    if not words:
        return {}
    carried = set().union(*unit_hits) if unit_hits else set()
    try:
        found = bilingual.translate_goal(goal, pa, words, carried, senses=senses, weight=weight, phrases=phrases,
                                         least=least)
    except Exception:  # noqa: BLE001 - a dictionary is a help, never a failure: base behaviour
        return {}
    extra: dict[str, float] = {}
    for t, w, where, tr in found:
        _credit(t, w, weights, unit_hits, line_terms, where)
        extra[tr] = max(extra.get(tr, 0.0), w)
    return extra
