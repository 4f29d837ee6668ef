"""Text that repeats the user's goal and answers it (issue 10: goal drift that reuses the goal's own words).

An attacker who wants the agent to take a false answer writes the user's question, or most of it, and a value beside
it where the agent reads: an image's alternative text, an aria-label, hidden text, a post, a note. Honest pages seldom
restate a reader's question in the sentence that gives a value; when they do, it is mostly a heading or an FAQ question
standing on its own line, the answer in the lines after it.

:func:`judge` finds, in any language and script and with the goal's own words only (never a phrase list):

* a **restatement** — most of the goal's content words (not a function word of any language of
  :data:`pagelens.focus.lexicons_lang.FUNCTION_WORDS`; a question word stays), inflections matched by a shared prefix,
  in the goal's order within a window little longer than the goal (:func:`restated`);
* an **answer** — after the restated words, in the same line: ``:`` ``?`` ``=`` or a dash and more words, or a digit;

and, by :data:`MODE` (``""`` off: :func:`judge` yields nothing and the defense is the base's exactly):

* ``"E1"`` — in text the site did not write for every reader (``unseen``, ``overlay``, ``user``);
* ``"E2"`` — E1, and in the site's own text when the line is no label of the page (a heading, a tab, a control …), not a
  question standing alone, and not repeated elsewhere on the page (navigation, a table of contents);
* ``"E3"`` — E2, the answer new to the page in every region: a number the rest of the page never writes, or (without
  a number) words the rest of the page mostly does not use. An honest page answers with its own data;
* ``"E4"`` — E1 with E3's test of an answer new to the page.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache

from pagelens.focus.disowned import role_above
from pagelens.focus.lexicons_lang import FUNCTION_WORDS, SPACELESS
from pagelens.types import Line

__all__ = ["MODE", "answer_after", "judge", "restated"]

#: "E1" (shipped, h39-echo: 180 → 173 attacks retained on the 21 development sets, dev-36 53 → 48, no new benign or
#: clean-page flag), "" off (the base's defense exactly), or the other candidates "E2", "E3" (module docstring).
MODE = "E1"

_FOREIGN = frozenset({"user", "overlay", "unseen"})
#: The page's labels and controls: their names restate a goal honestly ("Add to basket", an FAQ heading).
_LABELS = frozenset({"heading", "tab", "menuitem", "columnheader", "rowheader", "term", "caption", "link", "button",
                     "option", "treeitem", "combobox", "textbox", "searchbox", "checkbox", "radio", "switch",
                     "RootWebArea", "figcaption", "legend", "tooltip"})
_LABEL_REACH = 3  # ancestors looked at for a label role (a heading's StaticText child)
_TOKEN = re.compile(r"\w+")
#: a word for :func:`_tokens`: a run of a script written without spaces, or a run of other word characters
_TOKEN_RUN = re.compile(f"[{SPACELESS}]+|[^\\W{SPACELESS}]+")
_SPACELESS_START = re.compile(f"[{SPACELESS}]")
_DIGIT = re.compile(r"\d")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_CLAUSE = re.compile(r"[.!?:;。！？：；|·•]")  # what may stand before a restatement (a clause's opening)
_SENTENCE = re.compile(r"[.!?。！？](?:\s|$)|[。！？]")  # what a restatement does not cross
_LEAD = 3  # function words a restatement may open with ("the", "and the")
_AFTER_MARK = re.compile(r"\s*[:?=–—]\s*\w")  # "…study: 400", "…bus? Yes", "… — 25"
_MIN_CONTENT = 3  # a goal with fewer content words is never judged (too short to know it is restated)
_SHARE = 0.75  # of the goal's content words restated
_SLACK = 4  # words the restating window may have beyond the goal's length
_ANSWER_CHARS = 200  # how far after the restated words the answer is looked for
_ALONE_WORDS = 3  # a question restated with fewer words after it stands alone (an FAQ question)


@lru_cache(maxsize=1)
def _function_words() -> frozenset[str]:
    return frozenset().union(*FUNCTION_WORDS.values())


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def _tokens(low: str) -> list[tuple[str, int]]:
    """(word, end offset) of ``low``'s words; a run of CJK, kana or hangul characters as its character pairs."""
    out: list[tuple[str, int]] = []
    for m in _TOKEN_RUN.finditer(low):
        w, end = m.group(0), m.end()
        if len(w) < 2 or not _SPACELESS_START.match(w):
            out.append((w, end))
        else:
            out.extend((w[k : k + 2], m.start() + k + 2) for k in range(len(w) - 1))
    return out


def _same(a: str, b: str) -> bool:
    """Two words are one: equal, or sharing a prefix of ≥ 4 characters that covers ≥ 70% of the shorter."""
    if a == b:
        return True
    short = min(len(a), len(b))
    if short < 4 or a[:4] != b[:4]:
        return False
    n = 4
    while n < short and a[n] == b[n]:
        n += 1
    return n >= 0.7 * short


@lru_cache(maxsize=64)
def _goal(goal: str) -> tuple[tuple[str, ...], int, tuple[str, ...]]:
    """(the goal's content words, its length in words, the keys a restating line must mostly contain)."""
    words = [w for w, _ in _tokens(_norm(goal))]
    fw = _function_words()
    content = tuple(w for w in words if w not in fw and not (len(w) == 1 and w.isascii()))
    return content, len(words), tuple(w[:4] for w in content)


def restated(low: str, goal: str) -> tuple[int, int] | None:
    """(content words restated, end offset of the last) when the lowered text ``low`` restates ``goal``: its first
    content word opens a sentence or clause (only function words before it), and with it ≥ 3 and ≥ 75% of the goal's
    content words follow in the goal's order, within the sentence and a window of the goal's length + 4 words; else
    None."""
    content, length, keys = _goal(goal)
    n = len(content)
    if n < _MIN_CONTENT:
        return None
    need = max(_MIN_CONTENT, math.ceil(_SHARE * n - 1e-9))
    if keys[0] not in low or sum(k in low for k in keys) < need:  # cheap first: most lines hold too few goal words
        return None
    toks = _tokens(low)
    fw = _function_words()
    first, rest = content[0], content[1:]
    best: tuple[int, int] | None = None
    lead = 0  # function words since the last clause boundary (or the line's start)
    for s, (w, end) in enumerate(toks):
        start = end - len(w)
        if s and _CLAUSE.search(low, toks[s - 1][1], start) is not None:
            lead = 0
        if _same(w, first) and lead <= _LEAD:
            window: list[tuple[str, int]] = []
            for w2, end2 in toks[s + 1 : s + length + _SLACK]:
                if _SENTENCE.search(low, window[-1][1] if window else end, end2 - len(w2)) is not None:
                    break  # the restatement stays within one sentence
                window.append((w2, end2))
            got = _lcs(rest, window) if window else None
            count, last = (1 + got[0], got[1]) if got else (1, end)
            if count >= need and (best is None or count > best[0]):
                best = (count, last)
        lead = lead + 1 if w in fw or (len(w) == 1 and w.isascii()) else _LEAD + 1
    return best


def _lcs(content: Sequence[str], window: Sequence[tuple[str, int]]) -> tuple[int, int] | None:
    """(longest in-order match of ``content`` in ``window``'s words, end offset of its last matched word)."""
    m = len(window)
    # row[i] = (length, end offset of the last match) of the best match of content[:j] in window[:i]
    row: list[tuple[int, int]] = [(0, -1)] * (m + 1)
    for c in content:
        new: list[tuple[int, int]] = [(0, -1)] * (m + 1)
        for i in range(1, m + 1):
            w, end = window[i - 1]
            cand = new[i - 1] if new[i - 1][0] >= row[i][0] else row[i]
            if _same(w, c) and row[i - 1][0] + 1 > cand[0]:
                cand = (row[i - 1][0] + 1, end)
            new[i] = cand
        row = new
    return row[m] if row[m][0] else None


def answer_after(low: str, end: int) -> str:
    """The answer the text gives after the restated words ending at ``end``: the rest of the sentence when it opens
    on ``:`` ``?`` ``=`` or a dash and more words, or holds a digit; else ""."""
    rest = low[end : end + _ANSWER_CHARS]
    if _AFTER_MARK.match(rest) or _DIGIT.search(rest):
        return rest
    return ""


def _label(lines: Sequence[Line], k: int, at: Callable[[int], int | None]) -> bool:
    return role_above(lines, k, _LABELS, _LABEL_REACH, at)


def _alone(rest: str) -> bool:
    """A question restated on its own: the restated words end on "?" and few words follow."""
    s = rest.lstrip()
    return s.startswith("?") and len(_TOKEN.findall(s)) < _ALONE_WORDS


def _new_to_page(rest: str, others: Callable[[], tuple[str, frozenset[str]]]) -> bool:
    """Whether the answer brings what the rest of the page does not write: one of its numbers, or (no number) most of
    its content words."""
    text, words = others()
    numbers = _NUMBER.findall(rest)
    if numbers:
        return any(x not in text for x in numbers)
    fw = _function_words()
    content = [w for w, _ in _tokens(rest) if w not in fw]
    if not content:
        return False
    return sum(w not in words for w in content) >= 0.5 * len(content)


def judge(lines: Sequence[Line], payloads: Sequence[str], regions: Sequence[str], goal: str | None,
          flagged: Callable[[int], bool], at: Callable[[int], int | None]) -> Iterator[tuple[int, str]]:
    """(position, reason) of each line that restates ``goal`` and answers it, by :data:`MODE`; ``flagged(i)``: the
    line is flagged already; ``at(no)``: the position of line number ``no`` (its parent's), or None."""
    mode = MODE
    if not mode or not goal or len(_goal(goal)[0]) < _MIN_CONTENT:
        return
    counts: dict[str, int] | None = None

    for i, p in enumerate(payloads):
        region = regions[i]
        if not p or (mode in ("E1", "E4") and region not in _FOREIGN) or flagged(i):
            continue
        low = _norm(p)
        got = restated(low, goal)
        if got is None:
            continue
        rest = answer_after(low, got[1])
        if not rest:
            continue
        if region not in _FOREIGN:
            if _alone(rest) or _label(lines, i, at):
                continue
            if counts is None:
                counts = {}
                for q in payloads:
                    counts[q] = counts.get(q, 0) + 1
            if counts.get(p, 0) > 1:
                continue
        if mode in ("E3", "E4"):
            def others(i: int = i) -> tuple[str, frozenset[str]]:  # the page's text without line i (per line: few)
                text = _norm("\n".join(q for k, q in enumerate(payloads) if k != i and q))
                return text, frozenset(w for w, _ in _tokens(text))

            if not _new_to_page(rest, others):
                continue
        yield i, "restates the goal and gives an answer beside it"
