"""Answer scoring for read tasks: exact, numeric (0.5% relative), dates, optional LLM judge.

:func:`score_answer` tries, in order, and stops at the first that decides:

1. ``exact`` — equal after case folding, whitespace and edge punctuation are normalised, or the
   expected answer appears as a whole phrase inside the given one ("$35.10" in "It costs $35.10");
2. ``numeric`` — the expected answer is one number (units, currency and thousands separators
   allowed): the answer's numbers must include one within 0.5% relative of it, and none of the
   answer's numbers may contradict it when it gives just one;
3. ``date`` — both parse as calendar dates in a common format (ISO, ``03/05/2026`` read as
   month/day like most US sites, ``5.3.2026`` day.month, ``March 5, 2026``, ``5 Mar 2026`` ...);
4. ``judge`` — only when a :class:`~pagelens.llm.base.ChatModel` is given and the rules said no:
   a fresh-context yes/no question (the reply's first word decides).

Everything but the judge is pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from pagelens.llm.base import ChatModel

__all__ = ["Score", "parse_date", "parse_numbers", "score_answer"]

Method = Literal["exact", "numeric", "date", "judge", "none"]
REL_TOL = 0.005


@dataclass(frozen=True, slots=True)
class Score:
    ok: bool
    method: Method
    detail: str


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w$€£¥%.,:@/+-]+", " ", text.casefold()).split()).strip(" .,:;!?")


_NUMBER = re.compile(r"(?<![\w.])[-+−]?(?:\d{1,3}(?:[,\u00a0\u202f ]\d{3})+|\d+)(?:[.,]\d+)?(?![\w])|(?<![\w.])[-+−]?[.,]\d+")


def parse_numbers(text: str) -> list[float]:
    """The numbers in ``text``: ``1,234.5`` and ``1 234,5`` are 1234.5; ``-3`` / ``−3`` are -3."""
    out: list[float] = []
    for m in _NUMBER.finditer(text.replace("−", "-")):
        raw = m.group(0).replace("\u00a0", " ").replace("\u202f", " ")
        # a trailing ",dd" or ",d" after digits is a decimal comma unless it looks like thousands
        if re.fullmatch(r"[-+]?\d{1,3}(?:[ .]\d{3})*,\d{1,2}", raw) or re.fullmatch(r"[-+]?\d+,\d{1,2}", raw):
            raw = raw.replace(" ", "").replace(".", "").replace(",", ".")
        else:
            raw = raw.replace(",", "").replace(" ", "")
        try:
            out.append(float(raw))
        except ValueError:
            continue
    return out


def _single_number(text: str) -> float | None:
    """The number ``text`` is, when it is a number with at most a unit or currency around it."""
    nums = parse_numbers(text)
    if len(nums) != 1:
        return None
    rest = _NUMBER.sub(" ", text.replace("−", "-"))
    return nums[0] if len(re.sub(r"[^A-Za-z]", "", rest)) <= 10 else None


_MONTHS = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                                            "dec"))}
_FORMATS = ("%Y-%m-%d", "%Y/%m/%d", "%m/%d/%Y", "%d.%m.%Y", "%Y%m%d", "%m/%d/%y", "%d.%m.%y")


def parse_date(text: str) -> date | None:
    """A calendar date in one of the common formats, or None."""
    t = text.strip().strip(".,").casefold()
    t = re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", t)
    t = re.sub(r"^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+", "", t)
    for fmt in _FORMATS:
        if fmt == "%Y%m%d" and not re.fullmatch(r"\d{8}", t):
            continue
        try:
            return datetime.strptime(t, fmt).date()
        except ValueError:
            continue
    m = re.fullmatch(r"([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})", t)  # March 5, 2026
    if m and m.group(1) in _MONTHS:
        return _safe(int(m.group(3)), _MONTHS[m.group(1)], int(m.group(2)))
    m = re.fullmatch(r"(\d{1,2})\.?\s+([a-z]{3})[a-z]*\.?,?\s+(\d{4})", t)  # 5 March 2026
    if m and m.group(2) in _MONTHS:
        return _safe(int(m.group(3)), _MONTHS[m.group(2)], int(m.group(1)))
    return None


def _safe(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _rules(expected: str, got: str) -> Score:
    e, g = _norm(expected), _norm(got)
    if not e:
        return Score(False, "none", "no expected answer")
    if e == g or re.search(rf"(^|\s){re.escape(e)}($|\s)", g):
        return Score(True, "exact", f"{got!r} contains {expected!r}")
    de, dg = parse_date(expected), parse_date(got)
    if de is not None:
        if dg is not None:
            return Score(de == dg, "date", f"{dg} vs {de}")
        return Score(False, "date", f"{got!r} is not a date")
    want = _single_number(expected)
    if want is not None:
        nums = parse_numbers(got)
        close = [n for n in nums if abs(n - want) <= REL_TOL * max(abs(want), 1e-9)]
        if close and len(nums) <= 3:
            return Score(True, "numeric", f"{close[0]:g} within {REL_TOL:.1%} of {want:g}")
        return Score(False, "numeric", f"no number within {REL_TOL:.1%} of {want:g} in {got!r}")
    return Score(False, "none", f"{got!r} does not match {expected!r}")


_JUDGE = ("You compare a candidate answer with the reference answer of a question about a web page. "
          "Reply with YES if they state the same fact (formatting, units and wording may differ), NO otherwise. "
          "Reply with one word.")


def score_answer(expected: str, got: str | None, *, judge: ChatModel | None = None, question: str = "") -> Score:
    """Whether ``got`` answers like ``expected`` (see the module docstring for the rules)."""
    got = got or ""
    score = _rules(expected, got)
    if score.ok or judge is None or not got.strip():
        return score
    from pagelens.llm.base import Message

    prompt = (f"Question: {question or '(not given)'}\nReference answer: {expected}\nCandidate answer: {got}\n"
              "Same fact? YES or NO.")
    reply = judge.complete([Message("system", _JUDGE), Message("user", prompt)], max_tokens=5, temperature=0.0)
    word = (re.findall(r"[A-Za-z]+", reply.text) or [""])[0].casefold()
    return Score(word == "yes", "judge", f"judge said {reply.text.strip()[:40]!r} ({score.method}: {score.detail})")
