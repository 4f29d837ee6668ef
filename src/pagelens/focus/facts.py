"""Short facts: a compact unit that names what a question asks about and holds a value.

A question about a page ("how much does it cost?", "how many kilometres?") is answered by a
short line or cell — a label with its value (``Preis: 159,90 Euro``, ``28,604 kms``,
``Life Hours : 20,000``) — while long prose around it repeats the goal's words and outranks it
by sheer mass. Two page-independent mechanisms, no word list:

* :func:`fact_scores` — a ``facts`` signal: units whose text is short and carries a goal term,
  ranked by the goal's term mass *per token*, a unit that also holds a number first;
* :func:`abbreviation_hits` — a unit written after a number (``kms``, ``hrs``, ``cm``) counts as
  the goal word it abbreviates: same first letter, its letters in the word in order
  (``kms`` in *kilometres*, ``hrs`` in *hours*); only short letter runs right after a digit.

Per page, the number-unit tokens are collected once (kept while the page analysis lives).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from pagelens.focus.analysis import PageAnalysis

#: A number followed by a short letter run: the unit of a measurement ("28,604 kms", "5 hrs").
_NUMBER_UNIT = re.compile(r"\d[\d.,]*\s?([^\W\d_]{1,4})\b")
_DIGIT = re.compile(r"\d")

def number_units(pa: PageAnalysis) -> dict[str, list[int]]:
    """``token -> units`` for every short letter run written right after a number on the page."""
    got: dict[str, list[int]] | None = pa.indexes.get("number_units")
    if got is None:
        got = {}
        for k, text in enumerate(pa.norm_texts):
            if not _DIGIT.search(text):
                continue
            for tok in set(_NUMBER_UNIT.findall(text)):
                if len(tok) >= 2:
                    got.setdefault(tok, []).append(k)
        pa.indexes["number_units"] = got
    return got


def abbreviates(short: str, word: str) -> bool:
    """``short`` (2-4 letters) abbreviates ``word``: same first letter, its letters in order."""
    if not 2 <= len(short) <= 4 or len(word) < len(short) + 2 or short[0] != word[0]:
        return False
    pos = 1
    for ch in short[1:]:
        pos = word.find(ch, pos)
        if pos < 0:
            return False
        pos += 1
    return True


def abbreviation_hits(pa: PageAnalysis, words: dict[str, str]) -> dict[int, set[str]]:
    """``unit -> goal terms`` a unit carries as a measurement's abbreviated unit.
    ``words``: the goal's words (5+ letters) and their terms."""
    out: dict[int, set[str]] = {}
    if not words:
        return out
    for tok, ks in number_units(pa).items():
        for w, t in words.items():
            if tok != w and abbreviates(tok, w):
                for k in ks:
                    out.setdefault(k, set()).add(t)
    return out


def fact_scores(pa: PageAnalysis, unit_hits: list[set[str]], line_terms: dict[int, frozenset[str]],
                mass: Callable[[Iterable[str]], float], max_tokens: int = 30,
                max_unit_tokens: int = 40) -> dict[int, float]:
    """Units by term mass per token — of the unit when it is small, else of its best short line
    carrying goal terms; a text that holds a number (or a line whose next line does: a label
    over its value) ranks as if its mass were half again as large."""
    page, units = pa.page, pa.units
    out: dict[int, float] = {}
    for k, hits in enumerate(unit_hits):
        if not hits:
            continue
        members = units.members[k]
        best = 0.0
        tokens = page.subtree_tokens(units.heads[k])
        if tokens <= max_unit_tokens:  # a small unit as a whole (its hits inside words too)
            best = mass(hits) * (1.5 if _DIGIT.search(pa.norm_texts[k]) else 1.0) / (1.0 + tokens / 12.0)
        for n, j in enumerate(members):
            got = hits if len(members) == 1 else line_terms.get(j, frozenset()) & hits
            cost = page.cost[j]
            if not got or cost > max_tokens:
                continue
            valued = _DIGIT.search(pa.line_texts[j]) or (
                n + 1 < len(members) and _DIGIT.search(pa.line_texts[members[n + 1]]))
            score = mass(got) * (1.5 if valued else 1.0) / (1.0 + cost / 12.0)
            best = max(best, score)
        if best > 0:
            out[k] = best
    return out
