"""Every tool answer under a hard token cap (pure).

An answer is a few sections (what the action did, the signals, a view or a delta). When it is
longer than the cap, the view is cut at a line boundary and the rest is kept as numbered
parts the client can ask for (``observe(part=2)``); the note says so, and names the narrower
tools. Nothing an answer shows is ever silently dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pagelens import tokens

__all__ = ["Answer", "compose", "part_answer", "split_parts"]

#: Tokens kept free for the note that says how to get more.
_NOTE_RESERVE = 90


@dataclass(frozen=True, slots=True)
class Answer:
    text: str
    tokens: int
    parts: tuple[str, ...] = ()  # the whole view, cut to the cap: part 1 is in ``text``


def split_parts(text: str, budget: int) -> tuple[str, ...]:
    """``text`` cut at line boundaries into parts of at most ``budget`` tokens (a longer line is cut)."""
    lines = text.split("\n")
    counts = tokens.count_many(lines)
    parts: list[str] = []
    cur: list[str] = []
    used = 0
    for line, n in zip(lines, counts):
        n += 1
        if n > budget:  # a single huge line (an inline blob): cut it by characters
            line = line[: max(20, len(line) * budget // max(n, 1) - 20)] + " …(line cut)"
            n = tokens.count(line) + 1
        if cur and used + n > budget:
            parts.append("\n".join(cur))
            cur, used = [], 0
        cur.append(line)
        used += n
    if cur:
        parts.append("\n".join(cur))
    return tuple(parts) or ("",)


def compose(head: Sequence[str], view: str | None, *, cap: int, more: str) -> Answer:
    """``head`` sections, then ``view``, within ``cap`` tokens; ``more`` names the narrower tools."""
    head_text = "\n".join(s for s in head if s)
    text = head_text if view is None else (f"{head_text}\n{view}" if head_text else view)
    n = tokens.count(text)
    if n <= cap:
        return Answer(text, n)
    head_tokens = tokens.count(head_text) if head_text else 0
    if view is None or head_tokens + _NOTE_RESERVE >= cap:
        # nothing to page through (or the head alone is too long): cut the text itself
        cut = split_parts(text, max(cap - _NOTE_RESERVE, 20))
        note = f"[answer cut to the {cap}-token cap: {len(cut)} parts, this is part 1; {more}]"
        out = f"{cut[0]}\n{note}"
        return Answer(out, tokens.count(out), cut)
    parts = split_parts(view, cap - head_tokens - _NOTE_RESERVE)
    view_tokens = tokens.count(view)
    note = (f"[view cut to the {cap}-token cap: part 1 of {len(parts)} shown ({view_tokens} tokens in all). "
            f"Next part: observe(part=2). {more}]")
    out = f"{head_text}\n{parts[0]}\n{note}" if head_text else f"{parts[0]}\n{note}"
    return Answer(out, tokens.count(out), parts)


def part_answer(parts: Sequence[str], k: int, *, cap: int, more: str) -> Answer:
    """Part ``k`` (1-based) of a cut view."""
    if not 1 <= k <= len(parts):
        text = f"there is no part {k}: the last view has {len(parts)} part(s)."
        return Answer(text, tokens.count(text))
    nxt = f" Next part: observe(part={k + 1})." if k < len(parts) else " This is the last part."
    note = f"[part {k} of {len(parts)} of the last view.{nxt} {more}]"
    text = f"{parts[k - 1]}\n{note}"
    n = tokens.count(text)
    if n > cap:  # parts were cut for a longer head; never exceed the cap
        return compose((), text, cap=cap, more=more)
    return Answer(text, n)
