"""Parse the line ranges an LLM retriever answered with. Pure functions, no I/O.

Models spell ranges in many ways; all of these mean lines 3..7 and 12 (inclusive)::

    [(3, 7), (12, 12)]        3-7, 12        3–7 and 12        lines 3 to 7, line 12
    "3:7", "12"               {"ranges": [[3, 7], [12, 12]]}   [[3,7],[12]]
    3-7                        <- one per line
    12

A reply that reasons first and then gives an ``Answer:`` section is read from its last
answer section only, so line numbers mentioned in the reasoning do not leak in. Reasoning
wrapped in ``<think>...</think>`` is dropped. Out-of-bounds ranges are clamped (or dropped
when wholly outside), reversed ranges are swapped, overlaps merge; every repair is reported
as a *problem* so the caller can record it or retry with a hint.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

__all__ = ["format_ranges", "parse_ranges", "to_ranges"]

_MAX_DIGITS = 9
_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n?(.*?)\n?```\s*$", re.DOTALL)
_ANSWER = re.compile(
    r"(?i)\b(?:final\s+answer|answer|relevant\s+(?:line\s+)?ranges|line\s+ranges|relevant\s+lines|"
    r"lines\s+to\s+keep|selected\s+lines|ranges)\b\s*[*_]*\s*[:：=]"
)
_NONE = re.compile(r"(?i)^\W*(?:none|nothing|no\s+(?:relevant\s+)?lines?|n/?a|\[\s*\])\W*$")
_NUM = r"(?<!\w)[Ll]?(\d+)(?!\w)"
_BRACKET_PAIR = re.compile(r"[(\[]\s*[Ll]?(\d+)\s*[,;:]\s*[Ll]?(\d+)\s*[)\]]")
_RANGE = re.compile(
    _NUM + r"\s*(?:-|–|—|:|\.\.\.?|\bto\b|\bthrough\b|\bthru\b|\buntil\b)\s*(?:lines?\s+)?" + _NUM
)
_FLOAT = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
_SINGLE = re.compile(_NUM)
_JSON_KEYS = ("ranges", "line_ranges", "lines", "relevant_lines", "selected_lines", "answer")

Pair = tuple[int, int]


def _int(digits: str, problems: list[str]) -> int | None:
    if len(digits) > _MAX_DIGITS:
        problems.append(f"number {digits[:12]}... is too large, ignored")
        return None
    return int(digits)


def _pairs_from_text(section: str, problems: list[str]) -> list[Pair]:
    pairs: list[Pair] = []

    def take(pattern: re.Pattern[str], text: str, two: bool) -> str:
        def repl(m: re.Match[str]) -> str:
            a = _int(m.group(1), problems)
            b = _int(m.group(2), problems) if two else a
            if a is not None and b is not None:
                pairs.append((a, b))
            return " "

        return pattern.sub(repl, text)

    for m in _FLOAT.finditer(section):
        problems.append(f"non-integer line number {m.group(0)!r} ignored")
    rest = _FLOAT.sub(" ", section)
    rest = take(_BRACKET_PAIR, rest, True)
    rest = take(_RANGE, rest, True)
    take(_SINGLE, rest, False)
    return pairs


def _pairs_from_json_items(items: list[Any], problems: list[str]) -> list[Pair]:
    pairs: list[Pair] = []
    for item in items:
        if isinstance(item, bool):
            problems.append(f"ignored non-numeric item {item!r}")
        elif isinstance(item, int):
            pairs.append((item, item))
        elif isinstance(item, str):
            found = _pairs_from_text(item, problems)
            if not found:
                problems.append(f"ignored non-numeric item {item[:40]!r}")
            pairs.extend(found)
        elif isinstance(item, list) and item and all(isinstance(x, int) and not isinstance(x, bool) for x in item):
            if len(item) == 1:
                pairs.append((item[0], item[0]))
            elif len(item) == 2:
                pairs.append((item[0], item[1]))
            else:
                problems.append(f"item {item[:6]!r} has more than two numbers; read as single lines")
                pairs.extend((x, x) for x in item)
        elif (isinstance(item, dict) and isinstance(start := item.get("start"), int)
              and isinstance(end := item.get("end", start), int)):
            pairs.append((start, end))
        else:
            problems.append(f"ignored non-numeric item {str(item)[:40]!r}")
    return pairs


def _from_json(text: str, problems: list[str]) -> tuple[list[Pair], bool] | None:
    """Pairs from a reply that is JSON as a whole; None when it is not JSON."""
    text = text.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    if not text or text[0] not in "[{":
        return None
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    if isinstance(value, dict):
        for key in _JSON_KEYS:
            if key in value:
                value = value[key]
                break
        else:
            problems.append(f"JSON answer has none of the keys {', '.join(_JSON_KEYS)}")
            return [], False
    if isinstance(value, str):
        if _NONE.match(value.strip() or "none"):
            return [], True
        return _pairs_from_text(value, problems), False
    if isinstance(value, int) and not isinstance(value, bool):
        return [(value, value)], False
    if not isinstance(value, list):
        problems.append(f"JSON ranges are a {type(value).__name__}, not a list")
        return [], False
    if not value:
        return [], True  # an explicit empty list: "nothing relevant"
    # A bare pair like [3, 7] is a range, as in the list-of-pairs form.
    if len(value) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
        return [(value[0], value[1])], False
    return _pairs_from_json_items(value, problems), False


def _embedded_json_object(text: str, problems: list[str]) -> tuple[list[Pair], bool] | None:
    start, end = text.find("{"), text.rfind("}")
    if start == -1 or end <= start:
        return None
    scratch: list[str] = []
    found = _from_json(text[start : end + 1], scratch)
    if found is None or (not found[0] and not found[1]):
        return None
    problems.extend(scratch)
    return found


def _raw_pairs(text: str, problems: list[str]) -> tuple[list[Pair], bool]:
    """(pairs, explicit_none) before validation."""
    body = _THINK.sub(" ", text).strip()
    if not body and text.strip():
        body = re.sub(r"(?i)</?think>", " ", text).strip()  # everything was inside <think>
    if not body:
        problems.append("empty answer")
        return [], False
    whole = _from_json(body, problems)
    if whole is not None:
        return whole
    answers = list(_ANSWER.finditer(body))
    if answers:
        section = body[answers[-1].end() :].strip()
        if not section:
            problems.append("the 'Answer:' section is empty")
            return [], False
        if _NONE.match(section):
            return [], True
        in_json = _from_json(section, problems)
        if in_json is not None:
            return in_json
        return _pairs_from_text(section, problems), False
    embedded = _embedded_json_object(body, problems)
    if embedded is not None:
        return embedded
    if _NONE.match(body):
        return [], True
    return _pairs_from_text(body, problems), False


def parse_ranges(text: str, n_lines: int) -> tuple[set[int], list[str]]:
    """Line numbers (0-based, inclusive ranges) named by ``text``, and the problems found.

    Never raises. An empty set with no problems means the model explicitly answered
    "none"; an empty set with problems means the answer was unusable.
    """
    problems: list[str] = []
    if n_lines <= 0:
        return set(), ["there are no lines to select"]
    pairs, explicit_none = _raw_pairs(text, problems)
    if not pairs and not explicit_none and not problems:
        problems.append("no line numbers found")
    last = n_lines - 1
    keep: set[int] = set()
    for a, b in pairs:
        if a > b:
            problems.append(f"reversed range {a}-{b} read as {b}-{a}")
            a, b = b, a
        if b < 0 or a > last:
            problems.append(f"range {a}-{b} is outside 0-{last}, dropped")
            continue
        if a < 0 or b > last:
            problems.append(f"range {a}-{b} clamped to {max(a, 0)}-{min(b, last)}")
            a, b = max(a, 0), min(b, last)
        keep.update(range(a, b + 1))
    return keep, problems


def to_ranges(lines: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted, merged inclusive ranges: {3,4,5,9} -> [(3, 5), (9, 9)]."""
    out: list[tuple[int, int]] = []
    for n in sorted(set(lines)):
        if out and n == out[-1][1] + 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def format_ranges(lines: Iterable[int]) -> str:
    """Compact text form: ``3-5, 9``."""
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in to_ranges(lines))
