"""What a kept unit may bring as its context (h40-context; :attr:`.rules.RulesConfig.context_guard`, off by default).

The fill keeps lines for two reasons: a unit ranked on its own (its own lines), or a line brought as the *context*
of a kept unit — its partners (label and value, row key and column header, a heading's lead, small neighbours, a
form's submit button), a question's answer context, the form of a field, the units beside the best ones
(:mod:`.nearby`), the neighbourhood of the leftover budget, and the short runs the gap closer shows. Context passes
read the tree's structure only; they never ask where a line's text comes from. An attack that no signal ranks can
enter the view that way, beside the value it sits next to. A guard, read by those passes:

* ``C1`` — provenance: a context line in text the site did not write for every reader (user content, an overlay,
  text sighted users do not see: :data:`FOREIGN`) is brought only by a kept unit that itself has a line in that
  region (a post's own label and value travel together; a post beside the site's value does not); a unit beside
  a best unit, likewise; a short gap's line only when a shown line bounding its run is in its region;
* ``C2`` — evidence: a context line, in any region, whose own text the defense's evidence anchors
  (:func:`pagelens.focus.evidence.points`: something only text written to an automated reader has) is not brought,
  though the defense did not flag it (its points stayed under its region's bar: no threshold is lowered);
* ``C3`` — ``C1``, and inside a ranked unit the same rule for the unit's own lines: a line in a foreign region
  other than the unit head's, that carries no goal term of its own, is context the unit brings, not what ranked it.

Reads regions, goal-term hits, positions and (``C2``) the defense's evidence of a line's own text; no word list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pagelens.focus.analysis import PageAnalysis
from pagelens.types import Line

#: Regions whose text the site did not write for every reader (as :data:`pagelens.focus.defense._FOREIGN`).
FOREIGN = frozenset({"user", "overlay", "unseen"})
MODES = ("C1", "C2", "C3")


class Guard:
    """The context guard of one selection (``mode`` one of :data:`MODES`)."""

    def __init__(self, mode: str, pa: PageAnalysis, line_terms: Mapping[int, Any] | None = None,
                 lines: Sequence[Line] | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"context_guard is one of {MODES} or empty, not {mode!r}")
        self.mode, self.pa = mode, pa
        self.hit = line_terms or {}
        # the regions of the rendering being focused (``lines``: the analysis may be a cached one of the same
        # content, whose key leaves regions out)
        self.lines = tuple(lines) if lines is not None else pa.page.lines
        self.regions = [ln.region for ln in self.lines]
        self._home: frozenset[str] | None = None
        self._anchored: dict[int, bool] = {}

    # -- one line ---------------------------------------------------------------------------------------
    def _own_regions(self, u: int) -> set[str]:
        page = self.pa.page
        return {self.regions[j] for j in range(u, page.ends[u])}

    def anchored(self, j: int) -> bool:
        """Whether the defense's evidence anchors line ``j``'s own text (memoised per line)."""
        got = self._anchored.get(j)
        if got is None:
            from pagelens.focus.defense import _payload, page_domains
            from pagelens.focus.evidence import evidence, points
            from pagelens.types import Rendering

            if self._home is None:
                self._home = page_domains(Rendering(lines=self.lines))[0]
            text = _payload(self.lines[j])
            got = bool(text) and points(evidence(text, self._home))[1]
            self._anchored[j] = got
        return got

    def admits(self, j: int, regions: set[str]) -> bool:
        """Whether context line ``j`` may come with a kept unit whose own lines are in ``regions``."""
        if self.mode == "C2":
            return not self.anchored(j)
        r = self.regions[j]
        return r not in FOREIGN or r in regions

    # -- the passes -------------------------------------------------------------------------------------
    def tries(self, u: int, own: list[int], tries: Sequence[list[int]]) -> list[list[int]]:
        """The fill's spans for the unit headed at ``u`` (its own lines first, then its context): context lines
        the guard does not admit left out; with ``C3`` the unit's own foreign lines too (:meth:`own`)."""
        regions = self._own_regions(u)
        mine = set(own)
        kept_own = set(self.own(u, own))
        return [[j for j in span if (j in kept_own if j in mine else self.admits(j, regions))] for span in tries]

    def own(self, u: int, span: Iterable[int]) -> list[int]:
        """A ranked unit's own lines; ``C3``: without its lines in a foreign region other than its head's that
        carry no goal term."""
        span = list(span)
        if self.mode != "C3":
            return span
        head = self.regions[u]
        return [j for j in span if self.regions[j] not in FOREIGN or self.regions[j] == head or self.hit.get(j)]

    def adding(self, add: Callable[[Iterable[int]], None]) -> Callable[[Iterable[int]], None]:
        """``add`` for the cores pass (a unit's subtree or member lines, its first line first): ``C3`` drops the
        unit's foreign lines as :meth:`own` does."""
        if self.mode != "C3":
            return add

        def guarded(span: Iterable[int]) -> None:
            span = list(span)
            add(self.own(min(span), span) if span else span)
        return guarded

    def unit(self, k: int, j: int) -> bool:
        """Whether unit ``j`` may come beside kept unit ``k`` (:mod:`.nearby`): each of its lines admitted."""
        page, heads = self.pa.page, self.pa.units.heads
        regions = self._own_regions(heads[k])
        return all(self.admits(i, regions) for i in range(heads[j], page.ends[heads[j]]))

    def gap_skip(self, keep: set[int], spare: frozenset[int]) -> _Skip:
        """Lines the gap closer must not show (:func:`.gaps.close_gaps`' ``skip``, asked only of short runs between
        shown lines): ``spare``, and the lines not admitted beside the shown lines that bound their run."""
        return _Skip(self, keep, spare)


class _Skip:
    """A lazy ``skip`` set for :func:`.gaps.close_gaps`: a line is judged only when the gap closer asks."""

    def __init__(self, guard: Guard, keep: set[int], spare: frozenset[int]) -> None:
        self.guard, self.keep, self.spare = guard, keep, spare
        self._shown: list[bool] | None = None

    def _bounds(self, i: int) -> list[int]:
        """The shown positions nearest ``i`` before and after it (a run is at most a few lines)."""
        if self._shown is None:
            from pagelens.focus.gaps import shown_positions

            self._shown = shown_positions(self.guard.pa.page, self.keep)
        shown, out = self._shown, []
        for step in (-1, 1):
            j = i + step
            while 0 <= j < len(shown) and not shown[j] and abs(j - i) <= 4:
                j += step
            if 0 <= j < len(shown) and shown[j]:
                out.append(j)
        return out

    def __contains__(self, i: object) -> bool:
        if i in self.spare:
            return True
        g = self.guard
        assert isinstance(i, int)
        if g.mode == "C2":
            return g.anchored(i)
        r = g.regions[i]
        return r in FOREIGN and not any(g.regions[b] == r for b in self._bounds(i))


def guard_of(mode: str, pa: PageAnalysis, line_terms: Mapping[int, Any] | None = None,
             lines: Sequence[Line] | None = None) -> Guard | None:
    """The guard for ``mode`` over the rendering ``lines`` (None when ``mode`` is empty: every pass as before)."""
    return Guard(mode, pa, line_terms, lines) if mode else None


__all__ = ["FOREIGN", "MODES", "Guard", "guard_of"]
