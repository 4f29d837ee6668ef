"""The one retriever seam.

A :class:`Retriever` reads the goal (and optionally recent actions) and a numbered
:class:`~pagelens.types.Rendering`, and returns the line numbers to keep. Everything else
— ancestors, always-kept lines, placeholders, failure fallback, defense — is done once, for
every retriever, by :func:`pagelens.focus.apply.focus`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pagelens.types import Rendering

if TYPE_CHECKING:
    from pagelens.focus.notices import Solicited


@dataclass(frozen=True, slots=True)
class FocusQuery:
    goal: str
    history: tuple[str, ...] = ()  # recent actions, newest last; retrievers may ignore it
    #: Share of the full tree's tokens the focused view may spend (0 < budget <= 1); None means
    #: the retriever's own default operating point. Retrievers that cannot honour it ignore it.
    #: ``default`` clamps it to a floor and a ceiling in tokens and may spend four small allowances on top (up
    #: to 35% more: :attr:`~pagelens.focus.rules.RulesConfig.nearby_share`, ``unfit_after``, ``passage``, ``complete``).
    budget: float | None = None
    #: What the previous observation of this page told about its notices (dialogs, pop-ups, live regions) and
    #: whether the agent acted on an element since (:mod:`pagelens.focus.notices`): the notices the agent opened
    #: are shown whole, the others as their controls with their text folded. None: the agent opened none.
    #: Retrievers ignore it (the focus stage applies it).
    solicited: Solicited | None = None


@dataclass(frozen=True, slots=True)
class Selection:
    """What a retriever chose: line numbers of the full rendering to keep."""

    keep: frozenset[int]
    #: Free-form, JSON-serialisable details for traces: LLM calls, scores, chunking ...
    info: Mapping[str, Any] = field(default_factory=dict)
    #: How the focus stage may shorten the view's structural lines (:mod:`pagelens.focus.lean`: ``"ph"``
    #: placeholders, ``"anc"`` ancestors shown short, ``"ph+anc"``; ``""``: as they are)
    lean: str = ""


@runtime_checkable
class Retriever(Protocol):
    """Select the lines of ``rendering`` that the goal needs.

    May raise anything: :func:`pagelens.focus.apply.focus` turns every failure into the
    full tree plus a recorded reason, so a retriever never needs to guard itself.
    """

    @property
    def name(self) -> str: ...

    def select(self, query: FocusQuery, rendering: Rendering) -> Selection: ...
