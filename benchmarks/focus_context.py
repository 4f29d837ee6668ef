"""Which focus stage brings a retained attack's marker line into the view (h40-context; diagnosis, no choice).

For every case of an injection set (on its cached observations, ``injection_blind4.py``'s cache), the ``default``
focus with the defense on is run with a traced copy of the retriever's fill: every kept line is tagged with the
stage that added it first — ``skeleton``, ``extra`` (a form's fields, a listing's compared values), ``core`` (the cores
pass: a ranked unit's own lines), ``own`` (the fill: a ranked unit's own lines), ``partners`` (label/value, row key and
column header, heading lead, neighbours, submit buttons), ``answer`` (a question's answer context), ``form``, then the
passes beyond the budget, ``nearby``, ``unfit``, ``leftover``, ``sections``, ``gaps``; outside the retriever,
``whole`` (small page kept whole), ``always`` (dialogs, alerts, focused or invalid lines), ``notice`` (a folded
notice's shown lines), ``ancestor`` (a kept line's ancestor, shown short) and ``cheap`` (a pruned run cheaper than its
placeholder). For a retained attack the marker line's stage, its provenance region and whether the line's own unit
was kept on its own rank (``core`` or ``own``) are reported; ``--arm`` runs the candidate switches as well.

    PYTHONPATH=src python benchmarks/focus_context.py --out runs/ctx --arm base= --arm C1=C1 --arm C2=C2 --arm C3=C3
    python benchmarks/focus_context.py --report runs/ctx/base          # a folder of one arm

Each arm's folder holds one JSON per set with ``injection_blind4.py``'s fields (``id``, ``benign``, ``exposed``,
``redacted``, ``retained``), so ``defense_langs_sum.py base=runs/ctx/base C1=runs/ctx/C1`` sums them as well.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

SETS = ("dev6", "dev8", "dev9", "dev12", "dev13", "dev14", "dev15", "dev15b", "blind4", "blind5", "blind6", "blind7",
        "blind8", "blind9", "blind14", "blind15", "benign18a", "benign18b", "dev33", "dev34", "dev35", "dev36")
RANKED = ("core", "own")


def set_paths(s: str, root: Path) -> tuple[Path, Path, Path]:
    """(cases, pages, observation cache) of a development set, as ``defense_langs_devsets.sh`` runs it."""
    pages = Path("/work/shared/corpus/realpages")
    if s in ("blind14", "benign18a"):
        pages = root / "benchmarks/data/pages_blind13"
    if s in ("blind15", "benign18b"):
        pages = root / "benchmarks/data/pages_blind14"
    cache = root / ("runs/b22" if s.startswith("benign18") else "runs/d22") / f"obs-{s}"
    return root / f"benchmarks/data/injections_{s}.jsonl", pages, cache


def traced_retriever(config: Any = None) -> Any:
    """A ``RulesRetriever`` whose selection records, per kept line number, the stage that added it first
    (``.trace``), the stage of every line's unit being kept on its rank (``.ranked_units``)."""
    import pagelens.focus.nearby as nearby
    import pagelens.focus.rules as rules
    import pagelens.focus.sections as sections
    import pagelens.focus.unfit as unfit
    from pagelens.focus.cores import cores_first
    from pagelens.focus.units import (TEXT_ENTRY_ROLES, form_of, following, label_value, partners)

    class Traced(rules.RulesRetriever):
        def select(self, query: Any, rendering: Any) -> Any:
            self.trace: dict[int, str] = {}
            self.ranked_units: set[int] = set()
            self._pa, self._hit = None, {}  # (set by the fill; a small page kept whole has none)
            self._pos: dict[int, str] = {}
            self._rendering = rendering
            originals = (nearby.bring, unfit.after_fill, nearby.leftover, sections.by_config, rules.close_gaps)

            def wrap(fn: Any, stage: str, keep_at: int) -> Any:
                def run(*a: Any, **kw: Any) -> Any:
                    keep = a[keep_at] if len(a) > keep_at else kw["keep"]
                    before = set(keep)
                    out = fn(*a, **kw)
                    self._mark(set(keep) - before, stage)
                    return out
                return run

            nearby.bring = wrap(originals[0], "nearby", 1)
            unfit.after_fill = wrap(originals[1], "unfit", 1)
            nearby.leftover = wrap(originals[2], "leftover", 1)
            sections.by_config = wrap(originals[3], "sections", 2)
            rules.close_gaps = wrap(originals[4], "gaps", 1)
            try:
                sel = super().select(query, rendering)
            finally:
                nearby.bring, unfit.after_fill, nearby.leftover, sections.by_config, rules.close_gaps = originals
            if sel.info.get("reason") == "small page kept whole":
                self.trace = {no: "whole" for no in sel.keep}
            else:
                lines = rendering.lines
                self.trace = {lines[i].no: st for i, st in self._pos.items()}
            return sel

        def _mark(self, positions: Any, stage: str) -> None:
            for i in positions:
                self._pos.setdefault(i, stage)

        def _fill(self, query: Any, pa: Any, order: list[int], budget: int, extra: list[int],
                  line_terms: Any = None, guard: Any = None) -> tuple[set[int], int, int]:
            # a copy of RulesRetriever._fill (7aaf284) whose ``add`` tags the lines it adds with a stage
            from pagelens.focus.terms import is_question
            from pagelens.focus.units import SHORT_COST, PLACEHOLDER_COST

            cfg = self.config
            page, units = pa.page, pa.units
            keep: set[int] = set()
            shown_anc: set[int] = set()
            spent = 0
            hit = line_terms or {}
            self._hit = hit
            self._pa = pa
            spare = pa.spare
            stage = ["skeleton"]

            def add(span: Any) -> None:
                nonlocal spent
                for j in span:
                    if j in keep or (j in spare and not hit.get(j)):
                        continue
                    keep.add(j)
                    self._pos.setdefault(j, stage[0])
                    spent += page.cost[j] + 1
                    shown_anc.discard(j)
                    for a in page.ancestors(j):
                        if a in keep or a in shown_anc:
                            break
                        shown_anc.add(a)
                        spent += SHORT_COST

            def cost_of(span: Any) -> int:
                c = PLACEHOLDER_COST
                seen_anc: set[int] = set()
                for j in span:
                    if j in keep or (j in spare and not hit.get(j)):
                        continue
                    c += page.cost[j] + 1
                    for a in page.ancestors(j):
                        if a in keep or a in shown_anc or a in seen_anc:
                            break
                        seen_anc.add(a)
                        c += SHORT_COST
                return c

            add(self._skeleton(pa, int(budget * cfg.skeleton_share), cost_of))
            stage[0] = "extra"
            add(extra)
            if cfg.fill_units > 0:
                order = order[: cfg.fill_units]
            if cfg.core_share > 0 and (cfg.core_max_budget <= 0 or budget <= cfg.core_max_budget):
                stage[0] = "core"
                skipped: list[int] = []

                def add_core(span: Any) -> None:
                    span = list(span)
                    self.ranked_units.update(pa.units.of_line[j] for j in span)
                    (add if guard is None else guard.adding(add))(span)

                cores_first(pa, order, int(budget * cfg.core_share), add_core, cost_of, lambda: spent, skipped)
                if cfg.unfit_share > 0 and skipped:
                    from pagelens.focus.unfit import skipped_back

                    skipped_back(pa, skipped, int(budget * cfg.unfit_share), add_core, cost_of, lambda: spent)
            question = is_question(query.goal)
            acting = not question
            chosen = 0
            for rank, k in enumerate(order):
                if spent >= budget:
                    break
                u = units.heads[k]
                own = list(range(u, page.ends[u]))
                parts = [("own", own), ("partners", partners(page, u, cfg.limits))]
                if cfg.label_value_tokens > 0:
                    parts.append(("partners", label_value(page, u, cfg.label_value_tokens)))
                if question and rank < cfg.answer_units:
                    parts.append(("answer", following(page, page.ends[u], cfg.answer_context_tokens)))
                span = [j for _, p in parts for j in p]
                tries: list[tuple[list[int], list[tuple[str, list[int]]]]] = [
                    (span, parts), (own, [("own", own)]), (units.members[k], [("own", units.members[k])])]
                if acting and any(page.lines[j].role in TEXT_ENTRY_ROLES for j in own):
                    f = form_of(page, u, cfg.limits)
                    if f is not None:
                        fl = list(range(f, page.ends[f]))
                        tries.insert(0, (span + fl, [*parts, ("form", fl)]))
                if guard is not None:  # the same lines as rules' guard.tries, tagged
                    allowed = [set(t) for t in guard.tries(u, own, [t for t, _ in tries])]
                    tries = [([j for j in t if j in ok], [(st, [j for j in p if j in ok]) for st, p in tagged])
                             for (t, tagged), ok in zip(tries, allowed)]
                for span, tagged in tries:
                    if spent + cost_of(span) <= budget * 1.05:
                        for st, p in tagged:
                            stage[0] = st
                            if st == "own":
                                self.ranked_units.add(k)
                            add(p)
                        chosen += 1
                        break
            return keep, spent, chosen

    return Traced(config)


def norm(text: str) -> str:
    from injection_blind4 import _norm

    return _norm(text)


def marker_stage(case: Any, rendering: Any, retriever: Any) -> dict[str, Any]:
    """The case's focused view (defense on) and, when the marker is in it, the stage and region of its line."""
    from pagelens.focus.apply import always_kept, focus, removal_set
    from pagelens.focus.base import FocusQuery

    marker = norm(case.marker)
    res = focus(rendering, FocusQuery(goal=case.goal), retriever, defense=True)
    text = norm(res.text())
    hidden, redact = removal_set(rendering, res.flags)
    guarded = norm("\n".join(ln.text for ln in rendering.lines if ln.no not in hidden | redact))
    row: dict[str, Any] = {"id": case.id, "category": case.category, "benign": case.benign,
                           "exposed": marker in norm(rendering.text()), "retained": marker in text,
                           "redacted": marker in norm(rendering.text()) and marker not in guarded,
                           "redacted_lines": len(res.redacted), "hidden_lines": len(res.hidden)}
    if not row["retained"]:
        return row
    by_no = {ln.no: ln for ln in rendering.lines}
    hits = [ol.no for ol in res.lines if ol.no is not None and marker in norm(ol.text)]
    if not hits and any(ol.no is None and marker in norm(ol.text) for ol in res.lines):
        row["stage"], row["region"] = "placeholder", "none"
        return row
    if not hits:
        row["stage"], row["region"] = "none", "none"  # across lines, or inside a placeholder's text
        return row
    no = hits[0]
    trace = getattr(retriever, "trace", {})
    if no in trace:
        stage = trace[no]
    elif no in always_kept(rendering):
        stage = "always"
    elif _is_ancestor(rendering, no, set(trace)):
        stage = "ancestor"
    else:
        stage = "other"  # a folded notice's shown lines, or a pruned run cheaper than its placeholder
    ln = by_no[no]
    row.update(stage=stage, region=ln.region, role=ln.role, line_chars=len(ln.text),
               own_rank=_own_ranked(retriever, rendering, no), **_line_facts(retriever, no))
    return row


def _line_facts(retriever: Any, no: int) -> dict[str, Any]:
    """Whether the marker line carries a goal term itself, its unit's head region, and the unit's rank in the order."""
    r, pa = getattr(retriever, "_rendering", None), getattr(retriever, "_pa", None)
    if r is None or pa is None:
        return {}
    pos = next((i for i, ln in enumerate(r.lines) if ln.no == no), None)
    if pos is None:
        return {}
    k = pa.units.of_line[pos]
    head = pa.units.heads[k] if k >= 0 else pos
    return {"line_hit": bool(retriever._hit.get(pos)), "head_region": r.lines[head].region,
            "unit_hit": any(retriever._hit.get(j) for j in (pa.units.members[k] if k >= 0 else [pos])),
            "unit_regions": sorted({r.lines[j].region for j in range(head, pa.page.ends[head])})}


def _is_ancestor(rendering: Any, no: int, kept: set[int]) -> bool:
    by_no = {ln.no: ln for ln in rendering.lines}
    for k in kept:
        ln = by_no.get(k)
        while ln is not None and ln.parent is not None:
            if ln.parent == no:
                return True
            ln = by_no.get(ln.parent)
    return False


def _own_ranked(retriever: Any, rendering: Any, no: int) -> bool:
    """Whether the marker line's unit was kept on its own rank (the cores pass or the fill's own lines)."""
    from pagelens.focus.analysis import analysis_of

    cfg = retriever.config
    r = getattr(retriever, "_rendering", None)
    if r is None:
        return False
    pa = analysis_of(r, cfg.limits, cfg.unit_text_chars, cache=cfg.cache)
    pos = next((i for i, ln in enumerate(r.lines) if ln.no == no), None)
    if pos is None:
        return False
    k = pa.units.of_line[pos]
    if k < 0:  # a line without text: the unit of its nearest ancestor with one
        a = pa.page.parents[pos]
        while a >= 0 and pa.units.of_line[a] < 0:
            a = pa.page.parents[a]
        k = pa.units.of_line[a] if a >= 0 else -1
    return k in retriever.ranked_units


def run_set(s: str, root: Path, arms: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Per arm (name -> RulesConfig), the rows of set ``s``: each case's observation loaded once for every arm."""
    from injection_blind4 import _cached_observation, load_cases

    cases_f, pages, cache = set_paths(s, root)
    rows: dict[str, list[dict[str, Any]]] = {a: [] for a in arms}
    retrievers = {a: traced_retriever(c) for a, c in arms.items()}

    def no_browser() -> Any:
        raise RuntimeError("observation not cached")

    import pagelens.focus.defense as defense
    from pagelens.focus.view import render_observation

    detect = defense.detect
    last: list[Any] = []

    def once(rendering: Any, goal: str | None = None) -> Any:  # the defense judges a case once for every arm
        if not last or last[0] is not rendering or last[1] != goal:
            last[:] = [rendering, goal, detect(rendering, goal=goal)]
        return last[2]

    defense.detect = once
    try:
        for case in load_cases(cases_f):
            obs = _cached_observation(case, pages, no_browser, root / "runs/ctx-work", cache)
            rendering = render_observation(obs)
            for a, retriever in retrievers.items():
                row = marker_stage(case, rendering, retriever)
                row["set"] = s
                rows[a].append(row)
    finally:
        defense.detect = detect
    return rows


def report(folder: Path) -> str:
    rows = [r for s in SETS if (folder / f"{s}.json").exists() for r in json.loads((folder / f"{s}.json").read_text())]
    att = [r for r in rows if not r["benign"] and r["retained"] and not r["redacted"]]
    ben = [r for r in rows if r["benign"] and r["retained"]]
    out = [f"attacks retained {len(att)} of {sum(not r['benign'] for r in rows)}; benign in view {len(ben)} of "
           f"{sum(r['benign'] for r in rows)}", "", "| stage | attacks | of which own unit ranked | regions | benign |",
           "|---|---|---|---|---|"]
    for st, n in Counter(r["stage"] for r in att + ben).most_common():
        a = [r for r in att if r["stage"] == st]
        regs = Counter(r["region"] for r in a)
        out.append(f"| {st} | {len(a)} | {sum(bool(r.get('own_rank')) for r in a)} | "
                   f"{', '.join(f'{k} {v}' for k, v in regs.most_common())} | "
                   f"{sum(r['stage'] == st for r in ben)} |")
    out += ["", "| region | attacks | context (not own unit ranked) | benign |", "|---|---|---|---|"]
    for reg, n in Counter(r["region"] for r in att).most_common():
        a = [r for r in att if r["region"] == reg]
        out.append(f"| {reg} | {n} | {sum(not r.get('own_rank') for r in a)} | "
                   f"{sum(r['region'] == reg for r in ben)} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--arm", action="append", default=[],
                    help="NAME=MODE: an arm with RulesConfig.context_guard=MODE ('' = base); default: base only")
    ap.add_argument("--report", type=Path)
    a = ap.parse_args(argv)
    if a.report:
        print(report(a.report))
        return 0
    from pagelens.focus.rules import RulesConfig

    arms = {n: RulesConfig(context_guard=m) for n, m in (x.split("=", 1) for x in a.arm or ["base="])}
    root = HERE.parent
    for n in arms:
        (a.out / n).mkdir(parents=True, exist_ok=True)
    for s in a.set or SETS:
        rows = run_set(s, root, arms)
        for n, rs in rows.items():
            (a.out / n / f"{s}.json").write_text(json.dumps(rs, indent=0))
        print(s, *(f"{n} {sum(r['retained'] and not r['redacted'] and not r['benign'] for r in rs)}"
                   for n, rs in rows.items()), flush=True)
    for n in arms:
        print(f"## {n}")
        print(report(a.out / n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
