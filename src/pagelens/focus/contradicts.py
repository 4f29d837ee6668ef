"""A span that gives another value for something the page states (typed values, any language, no word list).

A page states values in forms a parser can read without knowing its language: an amount of money beside a currency
sign or code, a quantity with a unit symbol, a ``name=value`` pair (a signature's default, a setting), a command's
option (``dpkg --list``). An injected note that wants the agent to answer or act otherwise often restates one of
those subjects with a different value ("the price is actually £329", "the default is width=80", "use ``tool --other``
instead"): the page itself is the reference. :func:`contradictions` gives, for a span, each typed value the page writes
nowhere else while it writes the same key (the same currency, unit, name or command) with another value.

The verdict lies with the caller (:mod:`pagelens.focus.defense`): a contradiction alone is no evidence of an attack (an
honest review says what it paid last year, a basket toast writes its subtotal), so it is combined with what the span
says of the page's value and with where the span stands.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Contradiction", "PageValues", "contradictions", "may_hold", "typed_values", "writes_page_value"]

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
