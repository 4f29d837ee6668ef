"""Speaker labels of a quoted chat transcript, told apart by structure and punctuation (any language, no word list).

A transcript quotes turns, each opened by a *speaker label*: a short run of words (one to three, no sentence
punctuation) at the start of the text, of a sentence or of a list item, closed by a colon (the full-width colon
folds to ``:`` in :func:`pagelens.focus.evidence.normalise`; French sets a space before it) with the turn's text
after it (not a digit: ``10:30`` is a time; not ``//``: an address). A text is a transcript when it holds at least
two labelled turns with at least two different labels ("User: … Assistant: … User: …").

A word for the assistant standing as such a label names who speaks, it does not speak to the reader: the
``lexicons_wide`` address rule (a role word beside the user's word or an order word) and the core address rules (a
role noun before a colon and an order, a vocative) read the text without its labels (:func:`unlabelled`). The shape
of a chat ("User: … Assistant: …") anchors a verdict only when a turn carries something for the reader — a dismissal,
an outside address, a credential or data request, the reader's user spoken of, secrecy, a dispute of the page, a
system/admin framing or an address left once the labels are blanked (:func:`pagelens.focus.evidence.evidence`). Fake
turns are judged by what they carry, not by whom their label names.
"""

from __future__ import annotations

import re

__all__ = ["labels", "opens_on_label", "transcript", "unlabelled"]

#: Characters that end what comes before a label: a sentence's end, a closing quote or bracket, a list bullet.
_BOUNDARY = frozenset(".!?…。！？»”\"')]}•·|;।॥؟۔።")
#: A label's words: the first character a letter, then anything but space and punctuation (marks of Indic scripts
#: are not ``\w``); one to three words joined by a space or a hyphen.
_WORD = r"[^\W\d_][^\s.,;:!?()\[\]{}\"“”«»/\\|<>=+*#@&%$~^`]*"
_LABEL = re.compile(rf"{_WORD}(?:[ -]{_WORD}){{0,2}}")
_BULLET = re.compile(r"^(?:[-*>–—]|\d{1,2}[.)])\s+")
_MAX = 32  # characters in a label
_REACH = 48  # characters looked at before a colon


def labels(low: str) -> list[tuple[int, int]]:
    """The (start, end) spans of the speaker labels in ``low`` (normalised text), each with its colon."""
    out: list[tuple[int, int]] = []
    at = low.find(":")
    while at != -1:
        nxt = low[at + 1 : at + 3].lstrip()[:1]
        if nxt and not nxt.isdigit() and nxt not in "/:":
            span = _label_before(low, at)
            if span is not None:
                out.append((span, at + 1))
        at = low.find(":", at + 1)
    return out


def _label_before(low: str, colon: int) -> int | None:
    """Where the label closed by the colon at ``colon`` starts, or None when the colon closes no label."""
    k = colon - 1
    lo = max(0, colon - _REACH)
    while k >= lo and low[k] not in _BOUNDARY and low[k] != ":":
        k -= 1
    if k < lo and lo > 0:
        return None  # no boundary near: inside a long sentence
    if k >= lo and low[k] in ".!?;" and k + 1 < colon and not low[k + 1].isspace() and low[k + 1].isascii():
        return None  # "example.com:", "a.b:" — a Latin sentence's end is followed by a space
    if k >= lo and low[k] == ":":
        return None  # "a: b c:" — the run after another colon is a turn's text, not a label
    start = k + 1
    while start < colon and low[start].isspace():
        start += 1
    bullet = _BULLET.match(low, start, colon)
    if bullet:
        start = bullet.end()
    label = low[start:colon].rstrip()
    if not label or len(label) > _MAX or _LABEL.fullmatch(label) is None:
        return None
    return start


def transcript(low: str) -> list[tuple[int, int]]:
    """The label spans when ``low`` is a transcript (≥ 2 labelled turns, ≥ 2 different labels), else []."""
    found = labels(low)
    if len(found) < 2:
        return []
    names = {low[a:b].rstrip(":").strip() for a, b in found}
    return found if len(names) >= 2 else []


def opens_on_label(low: str) -> str:
    """The label ``low`` opens on ("" for none): a line that may be one turn of a transcript laid out a turn a line."""
    found = labels(low[: _REACH + 2])
    if found and found[0][0] <= 4 and not low[: found[0][0]].strip(" -*>–—"):
        a, b = found[0]
        return low[a:b].rstrip(":").strip()
    return ""


def unlabelled(low: str, spans: list[tuple[int, int]]) -> str:
    """``low`` with the label spans blanked (positions kept)."""
    if not spans:
        return low
    parts: list[str] = []
    pos = 0
    for a, b in spans:
        parts.append(low[pos:a])
        parts.append(" " * (b - a))
        pos = b
    parts.append(low[pos:])
    return "".join(parts)
