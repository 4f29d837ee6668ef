"""What kind of answer a goal wants and what kind of value a unit holds: feature pairs of :mod:`.learned`.

A question asks for an amount ("how much", "what does it cost"), a date, a count, a person or a
way to reach someone; the page answers with a value of that kind, often in a unit that shares no
word with the goal (a size in megabytes for "how large is the file"). The goal's side comes from the
concept terms the goal already carries (:func:`pagelens.focus.terms.query_terms`: question words
and answer concepts in several languages); the unit's side from the shape of its text (a currency
or a unit of measure after a number, a date, a short line holding one number, a byline, a phone
number or an e-mail address). No feature is a word: the model learns which pairs matter
(:data:`ANSWER_FEATURES`, computed only for a model that reads them).
"""

from __future__ import annotations

import re

import numpy as np

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.terms import AMOUNT, BYLINE, DATE_VALUE, is_phone
from pagelens.types import Line

#: The kinds of answer, in feature order.
ANSWER_KINDS = ("amount", "date", "count", "person", "contact")
#: A goal's answer concepts (:data:`pagelens.focus.terms.ANSWER_CONCEPTS`) -> the kind of value.
KIND_OF_CONCEPT = {"price": "amount", "amount": "amount", "quantity": "amount", "date": "date", "count": "count",
                   "author": "person", "phone": "contact", "email": "contact", "address": "contact"}
ANSWER_FEATURES = (*(f"asks_{k}" for k in ANSWER_KINDS), *(f"holds_{k}" for k in ANSWER_KINDS), "holds_asked",
                   "asked_near")
_COUNT = re.compile(r"^\D{0,20}\d[\d,.]*\D{0,30}$")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.\w{2,}")


def is_count(ln: Line) -> bool:
    """A short line holding one number ("38 comments", "4 records", "(12)"): :mod:`.rules`' ``kind`` signal."""
    name = ln.name
    return 0 < len(name) <= 40 and bool(_COUNT.match(name))


def asked_kinds(goal_terms: set[str] | frozenset[str]) -> tuple[str, ...]:
    """The kinds of answer a goal's terms ask for (its ``§`` concepts), in :data:`ANSWER_KINDS` order."""
    got = {KIND_OF_CONCEPT[t[1:]] for t in goal_terms if t[:1] == "§" and t[1:] in KIND_OF_CONCEPT}
    return tuple(k for k in ANSWER_KINDS if k in got)


def unit_kinds(pa: PageAnalysis) -> np.ndarray:
    """Per unit, whether its lines hold a value of each kind (``len(units) x len(ANSWER_KINDS)``),
    goal-free, once per page."""
    got = pa.indexes.get("answer_kinds")
    if isinstance(got, np.ndarray):
        return got
    lines = pa.page.lines
    out = np.zeros((len(pa.units.heads), len(ANSWER_KINDS)))
    for k, members in enumerate(pa.units.members):
        text = pa.norm_texts[k]
        out[k, 3] = float(any(BYLINE.match(lines[j].name.lower()) for j in members if lines[j].name))
        if not any(ch.isdigit() for ch in text) and "@" not in text:
            continue  # no figure, no address: only a byline can be there
        out[k, 0] = float(AMOUNT.search(text) is not None)
        out[k, 1] = float(DATE_VALUE.search(text) is not None)
        out[k, 2] = float(any(0 < len(lines[j].name) <= 40 and _COUNT.match(lines[j].name) for j in members))
        out[k, 4] = float(is_phone(text) or _EMAIL.search(text) is not None)
    pa.indexes["answer_kinds"] = out
    return out


def answer_features(pa: PageAnalysis, asks: tuple[str, ...]) -> np.ndarray:
    """The :data:`ANSWER_FEATURES` of every unit for a goal asking for ``asks``, but the last
    (``asked_near``: :func:`pagelens.focus.learned.features` fills it from ``holds_asked``)."""
    held = unit_kinds(pa)
    n = len(held)
    if not n:
        return np.zeros((0, len(ANSWER_FEATURES) - 1))
    want = np.asarray([float(k in asks) for k in ANSWER_KINDS])
    match = (held * want).max(axis=1)
    return np.column_stack([np.broadcast_to(want, (n, len(ANSWER_KINDS))), held, match])
