"""How sure the fused order is of its first units, and a budget share that follows it (issue 9).

Every goal gets the same share of the page by default (:attr:`.rules.RulesConfig.budget`). When the order's
first units stand clearly above the rest (a link the goal names, a control it asks for), a small budget
holds what the goal needs; when the scores are flat, more budget buys more of it. This module reads only
the order and its scores (the learned fusion's log-odds, or the RRF scores), never the goal's words:

* ``gap`` — how far the first unit stands above the :data:`GAP_AT`-th: the difference of their log-odds
  (RRF: ``1 - score_n / score_1``);
* ``mass`` — the share of the probability mass (RRF: of the score mass) of the first :data:`MASS_UNITS`
  units among the first :data:`MASS_OF` (1: the first units hold all of it; flat: ``MASS_UNITS / MASS_OF``);
* ``near`` — how many of the first :data:`MASS_OF` units score at least half the first unit's probability
  (RRF: score).

:func:`share_for` maps one of them to a budget share with two levels and a threshold
(:attr:`.rules.RulesConfig.certain_by`, off by default).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MASS_UNITS = 5  # the first this many units' share of the mass...
MASS_OF = 50  # ...among the first this many
GAP_AT = 10  # the gap: the first unit against this one


@dataclass(frozen=True, slots=True)
class Certainty:
    """How sure an order is of its first units (see the module's docstring)."""

    gap: float
    mass: float
    near: int


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def certainty(order: Sequence[int], scores: Mapping[int, float], *, log_odds: bool) -> Certainty:
    """The order's certainty from its units' ``scores`` (log-odds when ``log_odds``, else non-negative
    scores such as RRF's); a unit of ``order`` without a score counts 0 (RRF) or the lowest score seen."""
    head = list(order[:MASS_OF])
    if not head:
        return Certainty(gap=0.0, mass=0.0, near=0)
    at = min(GAP_AT, len(head)) - 1
    if log_odds:
        low = min((scores[k] for k in head if k in scores), default=0.0)
        raw = [float(scores.get(k, low)) for k in head]
        vals = [sigmoid(z) for z in raw]
        gap = raw[0] - raw[at]
    else:
        vals = [max(0.0, float(scores.get(k, 0.0))) for k in head]
        gap = 1.0 - vals[at] / vals[0] if vals[0] > 0 else 0.0
    total = sum(vals)
    best = max(vals)
    mass = sum(vals[:MASS_UNITS]) / total if total > 0 else 0.0
    near = sum(1 for v in vals if best > 0 and v >= 0.5 * best)
    return Certainty(gap=gap, mass=mass, near=near)


def share_for(cert: Certainty, by: str, threshold: float, sure: float, unsure: float) -> float:
    """The budget share: ``sure`` when the measure ``by`` (``"mass"``, ``"gap"``, or ``"near"``: few units
    near the top means sure) says the order is sure at ``threshold``, else ``unsure``."""
    if by == "mass":
        return sure if cert.mass >= threshold else unsure
    if by == "gap":
        return sure if cert.gap >= threshold else unsure
    if by == "near":
        return sure if cert.near <= threshold else unsure
    raise ValueError(f"unknown certainty measure {by[:40]!r}: 'mass', 'gap' or 'near'")
