"""A span that gives another value for something the page states (typed values, any language, no word list).

A page states values in forms a parser can read without knowing its language: an amount of money beside a currency
sign or code, a quantity with a unit symbol, a ``name=value`` pair (a signature's default, a setting), a command's
option (``dpkg --list``). An injected note that wants the agent to answer or act otherwise often restates one of
those subjects with a different value ("the price is actually £329", "the default is width=80", "use ``tool --other``
instead"): the page itself is the reference. :func:`contradictions` gives, for a span, each typed value the page writes
nowhere else while it writes the same key (the same currency, unit, name or command) with another value.

A contradiction alone is no evidence of an attack (an honest review says what it paid last year, a basket toast writes
its subtotal, a download list gives three sizes), so :func:`judge` asks three things more of a span (h20-contra's K3l,
chosen on the development sets: BENCHMARKS.md, twenty-second injection-defense pass):

* **it says the page's value is not the one**: it also writes the page's own value for that key ("V, not W"), or it
  carries the defense's multilingual dispute, real/current or change words (:data:`~pagelens.focus.lexicons.DISPUTE`,
  :data:`~pagelens.focus.lexicons.REAL`, :data:`~pagelens.focus.lexicons.CHANGE`);
* **it corrects, it does not list**: for that key it writes at most two values, exactly one of them new to the page;
* **it stands apart from the data**: in the site's own regions (``main``, ``chrome``) below the notice zone, it is a
  short note of its own beside a block of data (:func:`pagelens.focus.disowned.beside_data`) with no list item, cell,
  row, term, definition, option or code among its ancestors; in user content, an overlay or text sighted users do not
  see (an alt text, an aria-label) it may stand anywhere.

:mod:`pagelens.focus.defense` flags what :func:`judge` finds (kind ``disputes-page``), with the wrappers whose name is
the same sentence.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pagelens.focus import disowned
from pagelens.focus import lexicons as lx
from pagelens.types import Line

__all__ = ["ON", "Contradiction", "Found", "PageValues", "contradictions", "judge", "may_hold", "typed_values",
           "writes_page_value"]

#: Whether :func:`judge` runs (an off switch for comparisons; on by default).
ON = True

#: Currency signs and ISO codes (written beside a number, either side).
_CUR = r"(?:[£$€¥₹₽₩₺₴₪฿]|円|元|원|zł|Kč|kr|CHF|EUR|USD|GBP|JPY|PLN|SEK|NOK|DKK|CZK|RUB|INR|CNY)"
_NUM = r"\d{1,3}(?:[,.'\u00a0\u202f ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d+)?"
#: An amount: a currency before or after the number (the character before a match is checked in code: a pattern that
#: starts with a look-behind is tried at every position, one that starts with a digit or a sign is not).
_MONEY = re.compile(rf"{_CUR}\s?({_NUM})(?![A-Za-z0-9%])|({_NUM})\s?{_CUR}(?![A-Za-z0-9])")
#: SI / IEC unit symbols and a percent sign after a number (a symbol, not a word of any language).
_UNIT = (r"%|kcal|kWh|[kMGT]?(?:Hz|B|bps|W|V|J)|[mµk]?(?:g|l|L|m|s)|cm|mm|km|ms|dB|mAh|°C|°F|℃|MiB|GiB|KiB|TiB")
_QTY = re.compile(rf"({_NUM})\s?({_UNIT})(?![A-Za-z0-9/])")
_GLUED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.,")
#: ``name=value`` outside a URL's query string (a parameter after ``?`` / ``&`` / ``%`` is an address, not a claim).
_KV = re.compile(r"(?<![\w.?&%/\\-])([A-Za-z_][A-Za-z0-9_]{1,40})\s?=\s?([^\s,;)\]}'\"&\\]{1,40})")
_OPT = re.compile(r"(?<![\w./-])([a-z][a-z0-9_.-]{1,30})\s+(--?[A-Za-z][A-Za-z0-9-]{0,30})(?![\w=-])")
_CUR_ONLY = re.compile(_CUR)
_QTY_NEAR = re.compile(r"\d\s?[%A-Za-zµ°℃]")  # cheap first tests
_OPT_NEAR = re.compile(r"\s--?[A-Za-z]")
_SEP = re.compile(r"[,.'\u00a0\u202f ]")


def _amount(num: str) -> str:
    """A number written with any grouping and decimal mark, as one canonical string ("1,049.00" → "1049")."""
    parts = _SEP.split(num)
    if len(parts) > 1 and len(parts[-1]) in (1, 2):  # a decimal part
        whole, dec = "".join(parts[:-1]), parts[-1].rstrip("0")
    else:
        whole, dec = "".join(parts), ""
    whole = whole.lstrip("0") or "0"
    return f"{whole}.{dec}" if dec else whole


def _currency(match: re.Match[str]) -> str:
    sign = _CUR_ONLY.search(match.group(0))
    s = sign.group(0) if sign is not None else "?"
    return {"¥": "円", "JPY": "円", "£": "GBP", "€": "EUR", "$": "USD"}.get(s, s.upper())


_DIGIT = re.compile(r"\d")
_MAY = re.compile(r"\d|=|\s-")


def may_hold(text: str) -> bool:
    """Whether ``text`` can write a typed value at all (a digit, an ``=``, an option's dash): a cheap first test."""
    return _MAY.search(text) is not None


_KINDS = frozenset({"money", "qty", "kv", "opt"})


def typed_values(text: str, kinds: frozenset[str] = _KINDS) -> list[tuple[tuple[str, str], str]]:
    """The typed values ``text`` writes, as ((kind, key), value); only those of ``kinds``."""
    out: list[tuple[tuple[str, str], str]] = []
    if ("money" in kinds or "qty" in kinds) and _DIGIT.search(text) is not None:
        starts: set[int] = set()
        if _CUR_ONLY.search(text) is not None:
            for m in _MONEY.finditer(text):
                if m.start() and text[m.start() - 1] in _GLUED and (m.group(2) or text[m.start() - 1] != ","):
                    continue  # part of a word or of a longer number
                if "money" in kinds:
                    out.append((("money", _currency(m)), _amount(m.group(1) or m.group(2))))
                starts.update(range(*m.span()))
        if "qty" in kinds and _QTY_NEAR.search(text) is not None:
            for m in _QTY.finditer(text):
                if m.start() not in starts and not (m.start() and text[m.start() - 1] in _GLUED):
                    out.append((("qty", m.group(2)), _amount(m.group(1))))
    if "kv" in kinds and "=" in text:
        out.extend((("kv", m.group(1)), m.group(2)) for m in _KV.finditer(text))
    if "opt" in kinds and _OPT_NEAR.search(text) is not None:
        out.extend((("opt", m.group(1)), m.group(2)) for m in _OPT.finditer(text))
    return out


@dataclass(frozen=True, slots=True)
class Contradiction:
    key: tuple[str, str]  # (kind, key): ("money", "GBP"), ("qty", "g"), ("kv", "width"), ("opt", "dpkg")
    value: str  # what the span gives
    page: tuple[str, ...]  # what the page gives for the same key (a few)

    def describe(self) -> str:
        kind, key = self.key
        what = {"money": f"an amount in {key}", "qty": f"a quantity in {key}", "kv": f"'{key}='",
                "opt": f"an option of '{key}'"}.get(kind, key)
        return f"gives {self.value} for {what}, where the page gives {', '.join(self.page[:3])}"


_FIRST = {"money": _CUR, "qty": r"\d\s?[%A-Za-zµ°℃]", "kv": "=", "opt": r"\s--?[A-Za-z]"}


@lru_cache(maxsize=16)
def _first_test(kinds: frozenset[str]) -> re.Pattern[str]:
    """One cheap pattern that every line writing a value of ``kinds`` matches."""
    return re.compile("|".join(_FIRST[k] for k in sorted(kinds)) or "(?!)")


class PageValues:
    """The typed values of every line of a page, counted by key, built once (lazily by the caller)."""

    __slots__ = ("by_line", "counts")

    def __init__(self, payloads: Sequence[str],
                 known: Mapping[int, list[tuple[tuple[str, str], str]]] | None = None,
                 kinds: frozenset[str] = _KINDS) -> None:
        """``known``: lines already read (position → values); ``kinds``: only values of these kinds are read."""
        known = known or {}
        first = _first_test(kinds)
        self.by_line: list[list[tuple[tuple[str, str], str]]] = [
            [kv for kv in known[i] if kv[0][0] in kinds] if i in known
            else typed_values(p, kinds) if p and first.search(p) is not None else []
            for i, p in enumerate(payloads)]
        self.counts: dict[tuple[str, str], Counter[str]] = {}
        for vals in self.by_line:
            for key, v in vals:
                self.counts.setdefault(key, Counter())[v] += 1

    def outside(self, skip: Iterable[int], keys: Iterable[tuple[str, str]]) -> dict[tuple[str, str], set[str]]:
        """Key → the values the page writes for it on every line but those of ``skip`` (positions); ``keys`` only."""
        wanted = set(keys)
        less: Counter[tuple[tuple[str, str], str]] = Counter()
        for i in set(skip):
            for key, v in self.by_line[i]:
                if key in wanted:
                    less[(key, v)] += 1
        out: dict[tuple[str, str], set[str]] = {}
        for key in wanted:
            have = self.counts.get(key)
            if have:
                vals = {v for v, n in have.items() if n > less[(key, v)]}
                if vals:
                    out[key] = vals
        return out


def contradictions(span_values: Sequence[tuple[tuple[str, str], str]],
                   page: Mapping[tuple[str, str], set[str]]) -> list[Contradiction]:
    """Each value of the span that the page writes nowhere, for a key the page writes with other values."""
    out: list[Contradiction] = []
    seen: set[tuple[tuple[str, str], str]] = set()
    for key, v in span_values:
        theirs = page.get(key)
        if not theirs or v in theirs or (key, v) in seen:
            continue
        seen.add((key, v))
        out.append(Contradiction(key, v, tuple(sorted(theirs))))
    return out


def writes_page_value(span_values: Sequence[tuple[tuple[str, str], str]],
                      page: Mapping[tuple[str, str], set[str]], found: Sequence[Contradiction]) -> bool:
    """Whether the span also writes the page's own value for a key it contradicts ("W, not V"; "V instead of W")."""
    keys = {c.key for c in found}
    return any(key in keys and v in page.get(key, ()) for key, v in span_values)


# -- the judgement over a page's lines ---------------------------------------------------------------------------

_WORDS = 5  # a sentence: this many words, or _CHARS of a script written without spaces
_CHARS = 12
_NOTE = 400  # characters: a longer text is prose, not a note that corrects a value
_SUBTREE = 40  # lines under a span: more is a section whose own lines are judged
_REACH = 12  # ancestors looked at
_WRAP_SLACK = 40  # characters a wrapper's name may add to the sentence it shows (a label, a byline)
_SITE = frozenset({"main", "chrome"})
#: Roles that are the page's data or its controls, never a note of their own.
_DATA_ROLES = frozenset({"cell", "gridcell", "columnheader", "rowheader", "option", "code", "term", "definition",
                         "LayoutTableCell", "row", "listitem", "combobox", "textbox", "spinbutton", "slider"})
#: A sentence with one of these among its ancestors is part of the data (a changelog item, a table's cell), not a note
#: beside it. Layout cells are layout, not data.
_INSIDE_DATA = frozenset({"listitem", "cell", "gridcell", "row", "term", "definition", "columnheader", "rowheader",
                          "option", "code"})
_NO_SPACES = re.compile("[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")  # scripts written without spaces


@dataclass(frozen=True, slots=True)
class Found:
    at: int  # position of the sentence's line
    items: tuple[Contradiction, ...]
    wrappers: tuple[int, ...]  # positions of ancestors whose name is the same sentence (flagged with it)


def _sentence(text: str) -> bool:
    if text.count(" ") + 1 >= _WORDS:
        return True
    return len(text) >= _CHARS and _NO_SPACES.search(text) is not None


def _ancestors(lines: Sequence[Line], i: int, at: Mapping[int, int]) -> Iterable[int]:
    k: int | None = i
    for _ in range(_REACH):
        parent = lines[k].parent if k is not None else None
        k = at.get(parent) if parent is not None else None
        if k is None:
            return
        yield k


def _span_lines(lines: Sequence[Line], payloads: Sequence[str], i: int, at: Mapping[int, int]) -> list[int]:
    """The line at ``i``, its subtree, and the ancestors whose text holds its text (a container's name); empty for a
    section (more than :data:`_SUBTREE` lines under it)."""
    out = [i]
    d = lines[i].depth
    j = i + 1
    while j < len(lines) and lines[j].depth > d:
        if j - i > _SUBTREE:
            return []
        out.append(j)
        j += 1
    out.extend(k for k in _ancestors(lines, i, at) if payloads[i] in payloads[k])
    return out


def _inside_data(lines: Sequence[Line], i: int, at: Mapping[int, int]) -> bool:
    return lines[i].role in _INSIDE_DATA or any(lines[k].role in _INSIDE_DATA for k in _ancestors(lines, i, at))


def _wrappers(lines: Sequence[Line], payloads: Sequence[str], i: int, at: Mapping[int, int]) -> tuple[int, ...]:
    """The ancestors of the line at ``i`` whose name is its text and little more (a wrapper showing the sentence)."""
    out = []
    for k in _ancestors(lines, i, at):
        if payloads[i] not in payloads[k] or len(payloads[k]) > len(payloads[i]) + _WRAP_SLACK:
            break
        out.append(k)
    return tuple(out)


def _says_not_the_one(text: str) -> bool:
    low = text.lower()
    return lx.DISPUTE.search(low) is not None or lx.REAL.search(low) is not None or lx.CHANGE.search(low) is not None


def judge(lines: Sequence[Line], payloads: Sequence[str], regions: Sequence[str], top: int,
          flagged: Callable[[int], bool], index: Callable[[], disowned.PageIndex]) -> list[Found]:
    """Each sentence of the page (``payloads``: the defense's normalised text per line; ``regions``: per line; ``top``:
    the notice zone's end; ``flagged``: whether a position is flagged already) that gives a value the page writes
    nowhere for a key the page writes with another value, while it says the page's value is not the one, corrects one
    value and stands apart from the data (see the module's doc)."""
    if not ON:
        return []
    cands: list[tuple[int, list[tuple[tuple[str, str], str]]]] = []
    for i, p in enumerate(payloads):
        if not p or len(p) > _NOTE or _MAY.search(p) is None or not _sentence(p) or flagged(i) or (
                lines[i].role == "RootWebArea"):
            continue
        site = regions[i] in _SITE and i >= top
        if site and lines[i].role in _DATA_ROLES:
            continue
        vals = typed_values(p)
        if not vals:
            continue
        if site and (not disowned.beside_data(lines, i, index()) or _inside_data(lines, i, index().pos)):
            continue  # the site's own text: only a note of its own beside the data, or the notice above the page
        cands.append((i, vals))
    if not cands:
        return []
    page = PageValues(payloads, dict(cands), frozenset(k[0] for _, v in cands for k, _ in v))
    out = []
    at = index().pos
    for i, vals in cands:
        span = _span_lines(lines, payloads, i, at)
        if not span:
            continue
        below = {kv for j in span if j > i and lines[j].depth > lines[i].depth for kv in page.by_line[j]}
        vals = [kv for kv in vals if kv not in below]  # a container's name: the line that writes it is judged
        if not vals:
            continue
        theirs = page.outside(span, {k for k, _ in vals})
        found = []
        for c in contradictions(vals, theirs):
            written = {v for k, v in vals if k == c.key}
            if len(written) <= 2 and sum(1 for v in written if v not in theirs[c.key]) == 1:
                found.append(c)  # a correction replaces one value; a listing or an example writes several
        if not found:
            continue
        if not writes_page_value(vals, theirs, found) and not _says_not_the_one(payloads[i]):
            continue
        out.append(Found(i, tuple(found), _wrappers(lines, payloads, i, at)))
    return out
