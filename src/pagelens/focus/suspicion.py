"""Sub-threshold suspicion in the focus ranking (issue 10; :attr:`.rules.RulesConfig.rank_suspicion`).

The injection defense (:mod:`pagelens.focus.defense`) redacts a span only when its evidence reaches its region's bar.
Below the bar the evidence (an addressee, an order, a dismissal, a claimed role, an off-site steer, a dispute …,
:func:`pagelens.focus.evidence.evidence`) was computed and thrown away, and the ranker never saw it: a line that repeats
the user's goal words beside such evidence was ranked like the page's answer. This module grades each line of the
page the retriever reads with the evidence the defense already computed (the same text, the same memo: the defense's
own judgement of the line alone is a cache hit), and says which lines are *suspicious*. No threshold of the defense is
lowered and nothing is redacted: a suspicious line only stops counting as a goal-word hit for its unit's rank.

Modes (``""``: off, the base behaviour exactly):

* ``R1`` — a line whose evidence anchors (what only text written to an automated reader has) or weighs at least
  :data:`_STRONG` points, in any region: its goal words are not hits for its unit (lexical signals), and a unit whose
  every goal-word hit lay on such lines loses its BM25 score too. It can be kept by other signals (its controls, the
  page's prior, a neighbour's partners), not by repeating the goal.
* ``R2`` — R1's lines, and their units ranked after every unit without one (the fused order partitioned, stable).
* ``R3`` — R1 graded by region: in text the site did not write for every reader (user content, overlays, unseen text)
  any evidence of an order, an addressee, a dismissal, a claimed role or an off-site steer counts; in the site's own
  main text and chrome only an anchored span counts.

General in any language: the grades are the defense's (lexicons of every language it reads), the regions provenance's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pagelens.focus.analysis import PageAnalysis
    from pagelens.types import Line

MODES = ("", "R1", "R2", "R3")
_STRONG = 2  # points: two pieces of evidence together (an order and an addressee, a role and a dismissal …)
_FOREIGN = frozenset({"user", "overlay", "unseen"})


def grades(pa: PageAnalysis) -> dict[int, tuple[int, bool, bool, str]]:
    """Per line position with any evidence: (points, anchored, steers, region), from the defense's own functions.
    Goal-independent: built once per page analysis (kept in ``pa.indexes``)."""
    got = pa.indexes.get("suspicion")
    if got is None:
        got = pa.indexes["suspicion"] = _grades(pa.page.lines)
    return got


def _grades(lines: Sequence[Line]) -> dict[int, tuple[int, bool, bool, str]]:
    from pagelens.focus import lexicons as lx
    from pagelens.focus.defense import _live_regions, _payload, page_domains
    from pagelens.focus.evidence import NO_EVIDENCE, evidence, gate, points, steers
    from pagelens.types import Rendering

    home = page_domains(Rendering(lines=tuple(lines)))[0]
    regions = _live_regions(tuple(lines))
    out: dict[int, tuple[int, bool, bool, str]] = {}
    for i, ln in enumerate(lines):
        p = _payload(ln)
        if not p:
            continue
        region = regions[i]
        if not (gate(p, region in _FOREIGN) or (region == "unseen" and lx.URGENT_NOW.search(p) is not None)):
            continue  # the defense's own gate: no stem any evidence needs (most lines)
        ev = evidence(p, home)
        if ev is NO_EVIDENCE:
            continue
        pts, anchored = points(ev)
        steer = steers(ev)
        if pts or anchored or steer:
            out[i] = (pts, anchored, steer, region)
    return out


def suspicious(mode: str, pa: PageAnalysis) -> frozenset[int]:
    """The line positions whose goal words do not count for their unit's rank under ``mode`` (empty when off).
    Goal-independent like :func:`grades`: kept in ``pa.indexes`` per mode (``mute`` and ``after`` both ask)."""
    if not mode:
        return frozenset()
    if mode not in MODES:
        raise ValueError(f"unknown rank_suspicion mode {mode!r}")
    key = f"suspicion:{mode}"
    got = pa.indexes.get(key)
    if got is None:
        out = set()
        for i, (pts, anchored, steer, region) in grades(pa).items():
            if mode == "R3":
                hit = anchored or (region in _FOREIGN and (pts > 0 or steer))
            else:
                hit = anchored or pts >= _STRONG or (steer and region in _FOREIGN)
            if hit:
                out.add(i)
        got = pa.indexes[key] = frozenset(out)
    return got


def mute(mode: str, pa: PageAnalysis, line_terms: dict[int, frozenset[str]], unit_hits: list[set[str]]
         ) -> tuple[int, ...]:
    """Take the goal-word hits of ``mode``'s suspicious lines out of ``line_terms`` and of their units' hits (a phrase
    or a compound part stays only when a line left in the unit writes it). Returns the units that had hits and have
    none left: their lexical score is to be taken away too."""
    sus = suspicious(mode, pa)
    if not sus:
        return ()
    members, of_line, texts = pa.units.members, pa.units.of_line, pa.line_texts
    emptied = []
    for k in sorted({of_line[i] for i in sus if of_line[i] >= 0 and line_terms.get(i)}):
        left = [j for j in members[k] if j not in sus]
        own = set().union(*(line_terms.get(j, frozenset()) for j in left))
        low = " ".join(texts[j] for j in left).lower()
        had = bool(unit_hits[k])
        unit_hits[k] = {t for t in unit_hits[k] if t in own or t.lstrip('"') in low}
        if had and not unit_hits[k]:
            emptied.append(k)
    for i in sus:
        if i in line_terms:
            line_terms[i] = frozenset()
    return tuple(emptied)


def after(mode: str, pa: PageAnalysis) -> frozenset[int]:
    """The units that hold a suspicious line (R2: ranked after every other unit, never brought by the passage pass)."""
    of_line = pa.units.of_line
    return frozenset(of_line[i] for i in suspicious(mode, pa) if of_line[i] >= 0)


def demoted(mode: str, pa: PageAnalysis, order: list[int]) -> tuple[list[int], frozenset[int]]:
    """R2: ``order`` with the units of :func:`after` moved behind every other (stable), and those units; any other
    mode: ``order`` unchanged and no unit."""
    bad = after(mode, pa) if mode == "R2" else frozenset()
    return ([*(k for k in order if k not in bad), *(k for k in order if k in bad)] if bad else order), bad
