"""A figure the page gives otherwise: a claim read against the page's own label → value pairs (structure, any language).

A page pairs labels with values in its structure: a table's row (its first cell the label, the other cells the values),
a cell, an option or a list item that holds a name and a figure (a team beside its points, a size beside its price),
a term and its definition, a short "Label: value" line. :class:`PagePairs` reads those pairs once per page, the values
typed without a language: an amount beside a currency sign or code, a number with a unit symbol, a numeric date, a plain
number (with the word written after it, if any, as its noun).

A sentence outside those structures (a note, a banner, a footnote, a post, an alt text or an aria-label) that **names**
a pair — a word of its label or its value's noun, distinctive on the page (it labels few pairs) — and writes the pair's
own value **and** one other value of the same type that no named pair gives (the row's figure quoted, another given as
the real one) corrects the page's figure: the page's value stated, and another put in its place. An honest sentence that
quotes the page's figures writes the page's values; one that compares names the other pair too (its value is a named
pair's); a listing writes several new values, not one.

The comparison asks the types to agree: the same currency, the same unit; plain numbers with the same noun, or else of
the same magnitude (within a factor :data:`_NEAR`, and not below :data:`_SMALL`), so that a count of matches, a year or
a rank is not read as a correction of points or a price.

Candidates of the thirty-eighth injection-defense pass (:data:`MODE`, ``""`` = off):

* ``"P1"`` — the correction where the site's authority does not speak for every reader: user content, overlays, text
  sighted users do not see, the notice zone above the page; never inside the page's data (cells, rows, options, list
  items, terms, definitions, code);
* ``"P2"`` — P1, and in the site's own regions a short note beside a block of its data
  (:func:`pagelens.focus.disowned.beside_data`);
* ``"P3"`` — P2, and also a sentence (same places) that names a pair and gives one new value of the same type without
  the page's own one, while it carries the defense's dispute, real/current or change words
  (:data:`~pagelens.focus.lexicons.DISPUTE`, :data:`~pagelens.focus.lexicons.REAL`,
  :data:`~pagelens.focus.lexicons.CHANGE`): :mod:`pagelens.focus.contradicts`' reading with the label as its key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from pagelens.focus import disowned
from pagelens.focus import lexicons as lx
from pagelens.types import Line

__all__ = ["MODE", "Claim", "PagePairs", "Pair", "figures", "judge"]

#: The candidate switched on ("" = off: the defense's flags are those of the code without this module).
MODE = ""

_CUR = r"(?:[£$€¥₹₽₩₺₴₪฿]|円|元|원|zł|Kč|CHF|EUR|USD|GBP|JPY|PLN|SEK|NOK|DKK|CZK|RUB|INR|CNY)"
_NUM = r"\d{1,3}(?:[,.'\u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d+)?"
_UNIT = r"%|kcal|kWh|[kMGT]?(?:Hz|B|bps|W|V|J)|[mµk]?(?:g|l|L|m|s)|cm|mm|km|ms|dB|mAh|°C|°F|℃|MiB|GiB|KiB|TiB"
#: One figure: a numeric date, an amount (currency either side), a number with a unit, or a plain number with the word
#: written after it (its noun, any script).
_FIG = re.compile(
    rf"(?P<date>\b\d{{1,4}}[./-]\d{{1,2}}[./-]\d{{2,4}}\b)"
    rf"|(?P<c1>{_CUR})\s?(?P<m1>{_NUM})(?![\w%])"
    rf"|(?P<m2>{_NUM})\s?(?P<c2>{_CUR})(?![\w])"
    rf"|(?P<q>{_NUM})\s?(?P<u>{_UNIT})(?![\w/])"
    rf"|(?P<n>{_NUM})(?![\w.,]\d)(?:\s(?P<noun>[^\W\d_]{{3,}}))?")
_SEP = re.compile(r"[,.'\u00a0\u202f]")
_WORD = re.compile(r"[^\W\d_]{4,}")
_DIGITS = re.compile(r"\d+")
_DIGIT = re.compile(r"\d")
_TWO_DIGITS = re.compile(r"\d\D+\d")  # two numbers at least
_ID = re.compile(r"\d{7}")  # seven digits in a row, ungrouped: an identifier
_NEAR = 2.0  # plain numbers without the same noun compare only within this factor
_LABEL_MAX = 120  # characters of a data item read as one pair
_LINE_PAIR = 60  # characters of a "Label: value" line
_LABEL_WORDS = 6  # a label is a name: this many words at most
_LABEL_CHARS = 50
_SMALL = 10  # a plain number below this (an ordinal, a footnote mark, a round) compares only with the same noun
_DISTINCT = 3  # a word labelling more pairs than this names none of them
_NOTE = 400  # characters: a longer text is prose
_WORDS = 5
_CHARS = 12
_REACH = 12
_WRAP_SLACK = 40
_NO_SPACES = re.compile("[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
_SITE = frozenset({"main", "chrome"})
#: The page's data: a pair's source; a sentence inside it is the data itself, not a claim about it.
_DATA = frozenset({"cell", "gridcell", "columnheader", "rowheader", "option", "code", "term", "definition", "row",
                   "listitem", "combobox", "textbox", "spinbutton", "slider"})
_ITEM = frozenset({"cell", "gridcell", "option", "listitem", "term", "definition", "rowheader"})
_CELLS = frozenset({"cell", "gridcell", "rowheader", "columnheader"})
_TRIM = re.compile(r"[\s()\[\]{}:;,.|/–—-]+")
_CUR_NAME = {"¥": "円", "JPY": "円", "£": "GBP", "€": "EUR", "$": "USD"}


def _amount(num: str) -> float:
    parts = _SEP.split(num)
    if len(parts) > 1 and len(parts[-1]) in (1, 2):
        whole, dec = "".join(parts[:-1]), parts[-1]
    else:
        whole, dec = "".join(parts), ""
    try:
        return float(f"{whole or '0'}.{dec or '0'}")
    except ValueError:
        return float("nan")


@dataclass(frozen=True, slots=True)
class Fig:
    """A typed value: kind ``money`` (key: the currency), ``qty`` (the unit), ``date`` or ``num`` (key: its noun)."""

    kind: str
    key: str
    value: float | tuple[int, ...]

    def same(self, other: Fig) -> bool:
        return self.kind == other.kind and self.key == other.key and self.value == other.value

    def compatible(self, other: Fig) -> bool:
        """Of the same type: the same currency or unit, both dates, or plain numbers with the same noun or of a
        magnitude within :data:`_NEAR` of each other."""
        if self.kind != other.kind:
            return False
        if self.kind in ("money", "qty"):
            return self.key == other.key
        if self.kind == "date":
            return True
        if self.key and other.key and _stem_match(self.key, other.key):
            return True
        a, b = self.value, other.value
        assert isinstance(a, float) and isinstance(b, float)
        return min(a, b) >= _SMALL and max(a, b) <= _NEAR * min(a, b)

    def show(self) -> str:
        if self.kind == "date":
            return "-".join(str(x) for x in self.value)  # type: ignore[union-attr]
        v = self.value
        assert isinstance(v, float)
        s = f"{v:g}" if v != int(v) else str(int(v))
        return f"{s} {self.key}".strip()


def figures(text: str) -> list[Fig]:
    """The typed values ``text`` writes, in order."""
    out: list[Fig] = []
    for m in _FIG.finditer(text):
        s = m.start()
        if s and (text[s - 1].isalnum() and not _CUR_OK(text[s - 1])):
            continue  # part of a word or a code ("A4", "x86")
        if _ID.search(m.group(0)):
            continue  # an identifier or a time stamp, not a figure
        if m.group("date"):
            out.append(Fig("date", "", tuple(sorted(int(x) for x in _DIGITS.findall(m.group("date"))))))
        elif m.group("m1") or m.group("m2"):
            cur = m.group("c1") or m.group("c2")
            out.append(Fig("money", _CUR_NAME.get(cur, cur.upper()), _amount(m.group("m1") or m.group("m2"))))
        elif m.group("q"):
            out.append(Fig("qty", m.group("u"), _amount(m.group("q"))))
        else:
            noun = (m.group("noun") or "").lower()
            out.append(Fig("num", noun, _amount(m.group("n"))))
    return out


def _CUR_OK(ch: str) -> bool:
    return ch in "円元원"


def _stem_match(a: str, b: str) -> bool:
    """The same word, inflected: equal, or a common beginning of at least 5 letters and 3/4 of the shorter word."""
    if a == b:
        return True
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n >= 5 and n >= 0.75 * min(len(a), len(b))


def _short_label(label: str) -> bool:
    """A name, not a sentence: at most :data:`_LABEL_WORDS` words and :data:`_LABEL_CHARS` characters."""
    label = _TRIM.sub(" ", label).strip()
    return len(label) <= _LABEL_CHARS and label.count(" ") < _LABEL_WORDS


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


@dataclass(frozen=True, slots=True)
class Pair:
    label: frozenset[str]  # the label's words (and the value's noun)
    value: Fig
    at: int  # position of the line it was read from
    text: str  # the label as written (for the reason)


class PagePairs:
    """The page's label → value pairs, read once from its structure."""

    __slots__ = ("by_head", "by_word", "pairs")

    def __init__(self, lines: Sequence[Line], payloads: Sequence[str]) -> None:
        self.pairs: list[Pair] = []
        for i, ln in enumerate(lines):
            p = payloads[i]
            if ln.role == "row":
                self._row(lines, payloads, i)
            elif not p:
                continue
            elif ln.role in _ITEM and len(p) <= _LABEL_MAX:
                self._item(p, i)
            elif ln.role in ("StaticText", "paragraph", "generic") and len(p) <= _LINE_PAIR and ":" in p:
                label, _, rest = p.partition(":")
                if _WORD.search(label) and not any(c.isdigit() for c in label):
                    for f in figures(rest):
                        self._add(label, f, i)
        self.by_word: dict[str, list[Pair]] = {}
        for pair in self.pairs:
            for w in pair.label:
                self.by_word.setdefault(w, []).append(pair)
        self.by_head: dict[str, list[str]] = {}  # a word's first five letters → the label words beginning so
        for w in self.by_word:
            self.by_head.setdefault(w[:5], []).append(w)

    def _add(self, label: str, fig: Fig, at: int) -> None:
        words = _words(label)
        if fig.kind == "num" and fig.key:
            words.add(fig.key)
        if words:
            shown = _TRIM.sub(" ", label).strip() or (fig.key if fig.kind == "num" else "")
            self.pairs.append(Pair(frozenset(words), fig, at, shown[:60]))

    def _item(self, text: str, at: int) -> None:
        figs = figures(text)
        if not figs or len(figs) > 3:
            return
        label = _FIG.sub(" ", text)
        if not _short_label(label):
            return  # a sentence with a figure in it, not a name beside a value
        for f in figs:
            self._add(label, f, at)

    def _row(self, lines: Sequence[Line], payloads: Sequence[str], i: int) -> None:
        d = lines[i].depth
        cells = []
        j = i + 1
        while j < len(lines) and lines[j].depth > d:  # the row's subtree: its cells are its children
            if lines[j].depth == d + 1 and lines[j].role in _CELLS:
                cells.append(j)
            j += 1
        if len(cells) < 2:
            return
        if any(lines[k].role == "columnheader" for k in cells):
            return  # the header row names the columns, not a thing
        head = payloads[cells[0]]
        if not head or not _WORD.search(head) or figures(head) or not _short_label(head):
            return
        for k in cells[1:]:
            for f in figures(payloads[k])[:3]:
                self._add(head, f, k)

    def named(self, words: Iterable[str]) -> list[Pair]:
        """The pairs a text with ``words`` names: by a word (or its inflection) that labels few pairs."""
        out: dict[int, Pair] = {}
        for w in words:
            hits = self.by_word.get(w)
            if hits is None:
                hits = [p for k in self.by_head.get(w[:5], ()) if _stem_match(k, w) for p in self.by_word[k]]
            if hits and len({p.at for p in hits}) <= _DISTINCT:
                for p in hits:
                    out[id(p)] = p
        return list(out.values())


@dataclass(frozen=True, slots=True)
class Claim:
    at: int
    pair: Pair
    new: Fig
    wrappers: tuple[int, ...]
    own: bool  # the sentence writes the pair's own value too (else it carries a dispute, real or change word)

    def describe(self) -> str:
        how = "and writes that value too" if self.own else "and says the page's value is not the one"
        return (f"gives {self.new.show()} for '{self.pair.text}', which the page pairs with {self.pair.value.show()}, "
                f"{how}")


def _sentence(text: str) -> bool:
    return text.count(" ") + 1 >= _WORDS or (len(text) >= _CHARS and _NO_SPACES.search(text) is not None)


def _ancestors(lines: Sequence[Line], i: int, at: Mapping[int, int]) -> Iterable[int]:
    k: int | None = i
    for _ in range(_REACH):
        parent = lines[k].parent if k is not None else None
        k = at.get(parent) if parent is not None else None
        if k is None:
            return
        yield k


def _inside_data(lines: Sequence[Line], i: int, at: Mapping[int, int]) -> bool:
    return lines[i].role in _DATA or any(lines[k].role in _DATA for k in _ancestors(lines, i, at))


def _wrappers(lines: Sequence[Line], payloads: Sequence[str], i: int, at: Mapping[int, int]) -> tuple[int, ...]:
    out = []
    for k in _ancestors(lines, i, at):
        if payloads[i] not in payloads[k] or len(payloads[k]) > len(payloads[i]) + _WRAP_SLACK:
            break
        out.append(k)
    return tuple(out)


def _says_not_the_one(text: str) -> bool:
    low = text.lower()
    return lx.DISPUTE.search(low) is not None or lx.REAL.search(low) is not None or lx.CHANGE.search(low) is not None


def correction(figs: Sequence[Fig], named: Sequence[Pair], worded: bool) -> tuple[Pair, Fig, bool] | None:
    """(the named pair, the value put in its place, whether the pair's own value is written) when the figures ``figs`` of a sentence naming ``named`` write a
    pair's own value and exactly one other value of its type that no named pair gives; with ``worded`` (the sentence
    says the page's value is not the one), one such new value is enough."""
    for pair in named:
        v = pair.value
        same_type = [f for f in figs if f.compatible(v) or f.same(v)]
        if not same_type:
            continue
        gives_own = any(f.same(v) or (f.kind == v.kind == "num" and f.value == v.value) for f in same_type)
        new = []
        for f in same_type:
            if any(f.kind == q.value.kind and f.value == q.value.value for q in named):
                continue
            if not any(f.kind == g.kind and f.value == g.value for g in new):
                new.append(f)
        if len(new) == 1 and (gives_own or worded):
            return pair, new[0], gives_own
    return None


def judge(lines: Sequence[Line], payloads: Sequence[str], regions: Sequence[str], top: int,
          flagged: Callable[[int], bool], index: Callable[[], disowned.PageIndex], mode: str | None = None) -> list[Claim]:
    """Each sentence that corrects a figure of the page's own label → value pairs (see the module's doc)."""
    mode = MODE if mode is None else mode
    if not mode:
        return []
    digits = _DIGIT if mode == "P3" else _TWO_DIGITS
    least = 1 if mode == "P3" else 2
    cands: list[int] = []
    for i, p in enumerate(payloads):
        if not p or len(p) > _NOTE or (mode == "P1" and i >= top and regions[i] in _SITE):
            continue  # P1 reads no sentence of the site's own regions below the notice zone
        if digits.search(p) is None or not _sentence(p) or lines[i].role in _DATA or lines[i].role == "RootWebArea" or (
                flagged(i)):
            continue
        cands.append(i)
    if not cands:
        return []
    page = PagePairs(lines, payloads)  # read only for a page with a sentence to judge
    if not page.pairs:
        return []
    idx = index()
    at = idx.pos
    out: list[Claim] = []
    for i in cands:
        if _inside_data(lines, i, at):
            continue
        site = regions[i] in _SITE and i >= top
        if site and (mode == "P1" or not disowned.beside_data(lines, i, idx)):
            continue
        figs = figures(payloads[i])
        if len(figs) < least:
            continue
        own = {i, *(_ancestors(lines, i, at))}
        named = [q for q in page.named(_words(payloads[i])) if q.at not in own]
        if not named:
            continue
        worded = mode == "P3" and _says_not_the_one(payloads[i])
        got = correction(figs, named, worded)
        if got is None:
            continue
        out.append(Claim(i, got[0], got[1], _wrappers(lines, payloads, i, at), got[2]))
    return out
