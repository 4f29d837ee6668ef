"""Pattern builders and finders for the defense's lexicons (pure).

* :func:`trie` / :func:`word_start_trie`: an alternation of words shaped as a trie (each first character tested once);
* :class:`Stems`: a word-start trie that scans a text of ASCII (and caseless punctuation) without its CJK stems;
* :class:`Folded`: a pattern that searches such a text without the alternatives of other scripts and, when the text
  has no capital, without case folding (the same matches, groups and spans; :func:`narrow_script` tells such texts).

The lexicons themselves (which words, in which languages) are :mod:`pagelens.focus.lexicons`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from re import _parser  # type: ignore[attr-defined]  # the stdlib's parser (private: typeshed has no stub)
from typing import Any

__all__ = ["Folded", "StemSet", "Stems", "narrow_script", "trie", "word_start_trie"]


def trie(words: list[str] | tuple[str, ...]) -> str:
    """A regex matching any of ``words``, shaped as a trie ("a(?:gent|ssist)") so that a scan tests each
    first character once instead of every alternative at every position (several times faster)."""
    root: dict[str, dict] = {}
    for w in set(words):
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict[str, dict]) -> str:
        ends = "" in node
        alts = [re.escape(ch) + build(sub) for ch, sub in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if ends else body

    return build(root)

def word_start_trie(words: list[str] | tuple[str, ...]) -> str:
    """:func:`trie`, tried at word starts only (a fifth of the positions; CJK stems, in unsegmented
    text, anywhere)."""
    wide = [w for w in words if any(c >= "\u3000" for c in w)]
    narrow = [w for w in words if w not in wide]
    return "(?<!\\w)(?:" + trie(narrow) + ")" + ("|" + trie(wide) if wide else "")


class Stems:
    """A :func:`word_start_trie` finder that scans an ASCII text without its CJK stems.

    The CJK alternative of the full pattern is tried at every position of every text; an ASCII text cannot hold
    any of those stems, so it is scanned with the rest alone (the same matches, 2-6 times faster). ``str.isascii``
    is a flag of the string object in CPython: the choice costs nothing."""

    __slots__ = ("full", "narrow", "narrow_words", "pattern")

    def __init__(self, words: tuple[str, ...]) -> None:
        wide = [w for w in words if any(c >= "\u3000" for c in w)]
        self.full = re.compile(word_start_trie(words))
        #: the stems :attr:`narrow` looks for (:class:`StemSet` reads them)
        self.narrow_words = tuple(w for w in words if w not in wide)
        self.narrow = re.compile("(?<!\\w)(?:" + trie(list(self.narrow_words)) + ")")
        self.pattern = self.full.pattern

    def _for(self, text: str) -> re.Pattern[str]:
        return self.narrow if narrow_script(text) else self.full

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._for(text).search(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self._for(text).finditer(text, pos, endpos)


class StemSet:
    """Which of several :class:`Stems` finders would find a stem in a text, told by one scan.

    :meth:`hits` answers ``tuple(f.search(low) is not None for f in finders)`` for a text of ASCII and caseless
    punctuation (:func:`narrow_script`: each finder scans it with its :attr:`~Stems.narrow` pattern), and None for any
    other text (the caller asks each finder). One pattern visits the word starts where some finder's stem begins
    (a zero-width match: every such start is visited, none is skipped by an earlier match) and tells, in one optional
    lookahead group per finder, whether that finder's stems begin there: a finder's narrow pattern matches at a
    position exactly when its lookahead does, and can match only at such a word start. Made on first use."""

    __slots__ = ("_rx", "finders")

    def __init__(self, finders: tuple[Stems, ...]) -> None:
        self.finders = finders
        self._rx: re.Pattern[str] | None = None

    def _make(self) -> re.Pattern[str]:
        words = [w for f in self.finders for w in f.narrow_words]
        if not all(f.narrow_words for f in self.finders):  # a finder without narrow stems matches everywhere
            raise ValueError("every finder needs a stem of its own")
        groups = "".join(f"(?=(?P<f{k}>{trie(list(f.narrow_words))}))?" for k, f in enumerate(self.finders))
        self._rx = re.compile("(?<!\\w)(?=" + trie(words) + ")" + groups)
        return self._rx

    def hits(self, low: str) -> tuple[bool, ...] | None:
        spans = self.spans(low)
        return None if spans is None else tuple(bool(found) for found in spans)

    def spans(self, low: str) -> list[list[tuple[int, int]]] | None:
        """Per finder, the (start, end) of each match ``finditer(low)`` gives (matches do not overlap: a stem that
        starts inside the one before is skipped, as ``finditer`` skips it); None as :meth:`hits`. The match a
        finder's lookahead holds at a position is the one its pattern matches there (the same alternation)."""
        if not narrow_script(low):
            return None
        rx = self._rx or self._make()
        n = len(self.finders)
        out: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        ends = [0] * n
        for m in rx.finditer(low):
            at = m.start()
            for k, g in enumerate(m.groups()):
                if g is not None and at >= ends[k]:
                    ends[k] = at + len(g)
                    out[k].append((at, ends[k]))
        return out


#: Characters other than the capitals A-Z that IGNORECASE lets match a lowercase ASCII letter (İ ı → i, ſ → s,
#: the Kelvin sign → k): a pattern holding none of them matches a lowercased ASCII text the same without the flag.
_ASCII_TWINS = frozenset({0x130, 0x131, 0x17F, 0x212A})
#: Blocks of punctuation and symbols without case (no character folds into or out of them): general punctuation
#: (curly quotes, dashes, bullets), arrows, mathematical and technical symbols, box drawing, shapes, dingbats. Prose
#: in English holds them often; no stem of another script is made of them.
_INERT = ((0x2000, 0x206F), (0x2190, 0x23FF), (0x2500, 0x27BF))
#: A character other than ASCII and :data:`_INERT`: what a text needs before a word of another script can match.
_BEYOND = re.compile("[^\\x00-\\x7f" + "".join(f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in _INERT) + "]")


def _folds_into_ascii(items: Any) -> bool:
    """Whether a parsed pattern (``re._parser``) has a literal, a range or a set member that matches some
    lowercase ASCII letter only through case folding (a capital, or one of :data:`_ASCII_TWINS`); True as well
    for a construct this walk does not know (then the pattern keeps its flag)."""
    for op, av in items:
        if op in (_parser.LITERAL, _parser.NOT_LITERAL):
            if 65 <= av <= 90 or av in _ASCII_TWINS:
                return True
        elif op is _parser.RANGE:
            lo, hi = av
            if (lo <= 90 and hi >= 65) or any(lo <= c <= hi for c in _ASCII_TWINS):
                return True
        elif op is _parser.IN:
            if _folds_into_ascii(av):
                return True
        elif op is _parser.BRANCH:
            if any(_folds_into_ascii(alt) for alt in av[1]):
                return True
        elif op in (_parser.MAX_REPEAT, _parser.MIN_REPEAT, _parser.POSSESSIVE_REPEAT):
            if _folds_into_ascii(av[2]):
                return True
        elif op is _parser.SUBPATTERN:
            if _folds_into_ascii(av[3]):
                return True
        elif op in (_parser.ASSERT, _parser.ASSERT_NOT):
            if _folds_into_ascii(av[1]):
                return True
        elif op is _parser.ATOMIC_GROUP:
            if _folds_into_ascii(av):
                return True
        elif op is _parser.GROUPREF_EXISTS:
            if _folds_into_ascii(av[1]) or (av[2] is not None and _folds_into_ascii(av[2])):
                return True
        elif op not in (_parser.AT, _parser.ANY, _parser.CATEGORY, _parser.NEGATE, _parser.GROUPREF):
            return True
    return False


def _needs_other_script(items: Any, fold: bool) -> bool:
    """Whether every match of a parsed pattern holds (or asserts) a character outside ASCII and :data:`_INERT`: a
    literal, or a set of such characters only, in the sequence itself, in a group, a repeat of at least one, a
    lookaround or every branch. ``fold``: IGNORECASE is on (then :data:`_ASCII_TWINS` may match an ASCII letter: they
    do not count)."""

    def other(c: int) -> bool:
        return c > 127 and not any(lo <= c <= hi for lo, hi in _INERT) and not (fold and c in _ASCII_TWINS)

    def other_range(lo: int, hi: int) -> bool:
        return lo > 127 and not any(a <= hi and lo <= b for a, b in _INERT) and not (
            fold and any(lo <= c <= hi for c in _ASCII_TWINS))

    for op, av in items:
        if op is _parser.LITERAL and other(av):
            return True
        if op is _parser.IN and av and all(
                (o is _parser.LITERAL and other(a)) or (o is _parser.RANGE and other_range(*a)) for o, a in av):
            return True
        if op is _parser.SUBPATTERN and _needs_other_script(av[3], fold):
            return True
        if op in (_parser.MAX_REPEAT, _parser.MIN_REPEAT, _parser.POSSESSIVE_REPEAT) and av[0] >= 1 and _needs_other_script(
                av[2], fold):
            return True
        if op is _parser.ATOMIC_GROUP and _needs_other_script(av, fold):
            return True
        if op is _parser.ASSERT and _needs_other_script(av[1], fold):
            return True
        if op is _parser.BRANCH and all(_needs_other_script(alt, fold) for alt in av[1]):
            return True
    return False


def _alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of a pattern's source: split at each ``|`` outside groups and sets."""
    out: list[str] = []
    depth, start, i, in_set = 0, 0, 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_set:
            in_set = c != "]"
        elif c == "[":
            in_set = True
            i += 2 if pattern.startswith("^]", i + 1) else 1 if pattern.startswith("]", i + 1) else 0
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    return out


def _ascii_source(pattern: str, flags: int) -> str | None:
    """``pattern`` without its top-level alternatives that cannot match an ASCII text (each needs a character of
    another script: Cyrillic, CJK ...), in their order; None when none can be dropped, or when dropping could change
    a match's groups (the pattern has groups) or the split is not the pattern's own (verbose flags)."""
    if flags & re.VERBOSE or re.compile(pattern, flags).groups:
        return None
    alts = _alternatives(pattern)
    if len(alts) < 2 or "|".join(alts) != pattern:
        return None
    fold = bool(flags & re.IGNORECASE)
    keep = [a for a in alts if not _needs_other_script(_parser.parse(a, flags), fold)]
    if len(keep) == len(alts):
        return None
    return "|".join(keep) if keep else "(?!)"


#: The last two texts :func:`_plain` looked at, and what they are (the patterns of one span are tried on the same
#: text one after another, often in several windows, and on its lowercase in turn: each is looked at once).
_LAST_PLAIN: tuple[str, int] = ("", 2)
_LAST_PLAIN2: tuple[str, int] = ("", 2)


def _plain(text: str) -> int:
    """0 when ``text`` holds a character outside ASCII and :data:`_INERT` (a letter of another script), 2 when it
    holds none and no capital letter either (a lowercased text), else 1."""
    global _LAST_PLAIN, _LAST_PLAIN2
    last = _LAST_PLAIN
    if last[0] is text:
        return last[1]
    other = _LAST_PLAIN2
    if other[0] is text:
        _LAST_PLAIN, _LAST_PLAIN2 = other, last
        return other[1]
    level = (2 if text.lower() == text else 1) if text.isascii() or _BEYOND.search(text) is None else 0
    _LAST_PLAIN, _LAST_PLAIN2 = (text, level), last
    return level


def narrow_script(text: str) -> bool:
    """Whether ``text`` holds only ASCII and caseless punctuation or symbols (:data:`_INERT`: curly quotes, dashes,
    bullets, arrows): then no word of another script can match in it."""
    return text.isascii() or _plain(text) > 0


class Folded:
    """A pattern that searches an ASCII text without what cannot match there: other scripts, and case folding.

    "ASCII" here allows the caseless punctuation and symbols of :data:`_INERT` (curly quotes, dashes, bullets):

    * On such a text, a top-level alternative that needs a character of another script (a Cyrillic or CJK word)
      cannot match: it is left out (a pattern without groups only, so that matches and spans stay the same).
    * On such a text without a capital letter (a lowercased text: what most callers pass), a case-insensitive
      pattern with no capital of its own (nor a letter that folds to an ASCII one, :data:`_ASCII_TWINS`) matches
      exactly the same without IGNORECASE: the same matches, groups and spans (nothing folds into :data:`_INERT`).

    Unicode case folding makes every literal slower (2-4 times on this module's patterns), and each alternative is
    tried at every position, so such texts are searched with these twins; any other text with the pattern as
    written. The twins are made on first use (an import compiles only the pattern as written, as before).
    ``pattern`` and ``flags`` are the pattern's own."""

    __slots__ = ("_twins", "flags", "full", "groupindex", "groups", "pattern")

    def __init__(self, pattern: str, flags: int = re.IGNORECASE) -> None:
        self.full = re.compile(pattern, flags)
        self.pattern, self.flags = self.full.pattern, self.full.flags
        self.groups, self.groupindex = self.full.groups, self.full.groupindex
        self._twins: tuple[re.Pattern[str], re.Pattern[str]] | None = None

    def _make_twins(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        """(for a text of :func:`_plain` level 1, for level 2), made once (two threads may both make them: the same)."""
        source = _ascii_source(self.pattern, self.flags)
        ascii_ = self.full if source is None else re.compile(source, self.flags)
        plain = ascii_
        if self.flags & re.IGNORECASE and not _folds_into_ascii(_parser.parse(self.pattern, self.flags)):
            plain = re.compile(self.pattern if source is None else source, self.flags & ~re.IGNORECASE)
        self._twins = (ascii_, plain)
        return self._twins

    @property
    def ascii(self) -> re.Pattern[str]:
        """The pattern for a text of ASCII (and caseless punctuation) with capitals."""
        return (self._twins or self._make_twins())[0]

    @property
    def plain(self) -> re.Pattern[str]:
        """The pattern for such a text without capitals."""
        return (self._twins or self._make_twins())[1]

    def _for(self, text: str) -> re.Pattern[str]:
        level = _plain(text)
        if not level:
            return self.full
        return (self._twins or self._make_twins())[level - 1]

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._for(text).search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._for(text).match(text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._for(text).fullmatch(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self._for(text).finditer(text, pos, endpos)

    def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self._for(text).findall(text, pos, endpos)

    def split(self, text: str, maxsplit: int = 0) -> list[str | Any]:
        return self._for(text).split(text, maxsplit)

    def sub(self, repl: Any, text: str, count: int = 0) -> str:
        return self._for(text).sub(repl, text, count)
