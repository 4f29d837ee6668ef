"""How a kept line is shown when it is there only to hold the tree together."""

from __future__ import annotations

from pagelens.types import Line

#: An ancestor shown short keeps this many words of its name.
SHORT_WORDS = 6
_SHORT_CHARS = 48


def short_name(name: str, words: int = SHORT_WORDS) -> str:
    parts = name.split()
    cut = " ".join(parts[:words])
    if len(cut) > _SHORT_CHARS:
        cut = cut[:_SHORT_CHARS].rstrip()
    return cut + ("…" if cut != name else "")


def word_count(text: str) -> int:
    """Words of ``text``; a text with fewer than two spaces (Japanese, Chinese) counts one word per three characters."""
    spaces = text.count(" ")
    return spaces + 1 if spaces >= 2 else len(text) // 3


def short_text(line: Line) -> str:
    """``[id] role 'first few words…'`` — no value, no properties."""
    if line.name:
        head = f"{line.role} '{short_name(line.name)}'"
    else:
        head = line.role if line.role == "generic" else f"{line.role} ''"
    return f"[{line.eid}] {head}" if line.eid is not None else head
