"""Sub-threshold suspicion and the focus ranking (issue 10, h41-rankdef): diagnosis and multi-arm rows.

``attacks``: every case of the development injection sets of ``defense_langs_devsets.sh`` on its cached observation,
focused with ``default`` (defense on) once per arm (``--arm name=mode``, mode a :attr:`RulesConfig.rank_suspicion`
value; ``base=`` is the switch off); writes per set the same rows as ``injection_blind4.py`` (``retained``,
``redacted``, ``benign``) per arm, and for the base arm's retained attacks the marker line's grade (the defense's
evidence: points, anchored, steers, reasons), its region, whether it carries a goal term, and whether its unit was
ranked (in the fused order's first ``fill_units``) or the line came as context.

``cost``: on a goal group of ``focus_tail.py``, how many must-keep item lines carry evidence, by grade and region, and
which modes would call them suspicious.

    PYTHONPATH=src nice -n 10 .venv/bin/python benchmarks/focus_rankdef.py attacks --out runs/rd --arm base=
    PYTHONPATH=src nice -n 10 .venv/bin/python benchmarks/focus_rankdef.py cost --group choose --cache runs/rp \
        --pages /work/shared/corpus/realpages
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

SETS = ("dev6 dev8 dev9 dev12 dev13 dev14 dev15 dev15b blind4 blind5 blind6 blind7 blind8 blind9 blind14 blind15 "
        "benign18a benign18b dev33 dev34 dev35 dev36 honest37").split()
REALPAGES = Path("/work/shared/corpus/realpages")


def where(s: str) -> tuple[Path, Path]:
    pages = REALPAGES
    if s in ("blind14", "benign18a"):
        pages = HERE / "data/pages_blind13"
    elif s in ("blind15", "benign18b"):
        pages = HERE / "data/pages_blind14"
    elif s in ("dev37",):
        pages = HERE / "data/pages_dev31"
    cache = ROOT / ("runs/b22" if s.startswith("benign18") else "runs/d22") / f"obs-{s}"
    return pages, cache


def grade_name(pts: int, anchored: bool, steer: bool) -> str:
    return "anchored" if anchored else ("steers" if steer and pts < 2 else f"{min(pts, 3)}{'+' if pts >= 3 else ''}pt")


def attacks(args: argparse.Namespace) -> None:
    from injection_blind4 import _cached_observation, _norm, load_cases

    from pagelens.api import render_observation
    from pagelens.focus import rules as R
    from pagelens.focus import suspicion as S
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.apply import focus, removal_set
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.defense import detect
    from pagelens.focus.evidence import evidence
    from pagelens.focus.defense import _payload, page_domains

    arms = [(a.split("=", 1)[0], a.split("=", 1)[1]) for a in args.arm]
    rets = {n: R.RulesRetriever(R.RulesConfig(rank_suspicion=m)) for n, m in arms}
    seen: dict[str, Any] = {}
    orig_select, orig_fill = R.RulesRetriever.select, R.RulesRetriever._fill

    def select(self: Any, query: Any, rendering: Any) -> Any:
        seen["rendering"] = rendering
        return orig_select(self, query, rendering)

    def fill(self: Any, query: Any, pa: Any, order: list[int], *a: Any, **k: Any) -> Any:
        seen["order"] = list(order)
        return orig_fill(self, query, pa, order, *a, **k)

    R.RulesRetriever.select, R.RulesRetriever._fill = select, fill  # type: ignore[method-assign]
    out = Path(args.out)
    sets = args.sets.split(",") if args.sets else SETS
    diag: list[dict[str, Any]] = []
    for s in sets:
        pages, cache = where(s)
        cases = load_cases(HERE / f"data/injections_{s}.jsonl")
        rows: dict[str, list[dict[str, Any]]] = {n: [] for n, _ in arms}
        for case in cases:
            obs = _cached_observation(case, pages, lambda: None, Path("/tmp"), cache)
            rendering = render_observation(obs)
            marker = _norm(case.marker)
            exposed = marker in _norm(rendering.text())
            hidden, redact = removal_set(rendering, detect(rendering, goal=case.goal))
            guarded = "\n".join(ln.text for ln in rendering.lines if ln.no not in hidden | redact)
            redacted = exposed and marker not in _norm(guarded)
            for n, mode in arms:
                seen.clear()
                res = focus(rendering, FocusQuery(case.goal), rets[n])
                retained = marker in _norm(res.text())
                rows[n].append({"id": case.id, "benign": case.benign, "exposed": exposed, "redacted": redacted,
                                "retained": retained, "category": case.category, "lang": case.lang})
                if mode or not retained or redacted or "rendering" not in seen:
                    continue
                vis = seen["rendering"]
                cfg = rets[n].config
                pa = analysis_of(vis, cfg.limits, cfg.unit_text_chars, cache=cfg.cache)
                _, line_terms, _ = rets[n]._signals(FocusQuery(case.goal), pa)
                g = S.grades(pa)
                home = page_domains(vis)[0]
                order = seen.get("order", [])[: cfg.fill_units]
                rank = {k: r for r, k in enumerate(order)}
                at = [i for i, ln in enumerate(vis.lines) if marker in _norm(ln.text)]
                rec: dict[str, Any] = {"set": s, "id": case.id, "benign": case.benign, "lines": len(at)}
                if at:
                    i = at[0]
                    k = pa.units.of_line[i]
                    pts, anc, st, reg = g.get(i, (0, False, False, vis.lines[i].region))
                    ev = evidence(_payload(vis.lines[i]), home)
                    rec.update(region=reg, points=pts, anchored=anc, steers=st, grade=grade_name(pts, anc, st) if i in g
                               else "none", reasons=ev.reasons(), order=ev.order, goal_term=bool(line_terms.get(i)),
                               rank=rank.get(k), stage="ranked" if k in rank else "context",
                               modes={m: i in S.suspicious(m, pa) for m in S.MODES if m})
                diag.append(rec)
        out.mkdir(parents=True, exist_ok=True)
        for n, _ in arms:
            (out / n).mkdir(exist_ok=True)
            (out / n / f"{s}.json").write_text(json.dumps(rows[n], indent=0))
        print(s, {n: sum(r["retained"] and not r["redacted"] for r in rows[n] if not r["benign"]) for n, _ in arms},
              file=sys.stderr, flush=True)
    (out / "diag.json").write_text(json.dumps(diag, indent=0))
    report_diag(diag)


def report_diag(diag: list[dict[str, Any]]) -> None:
    att = [d for d in diag if not d["benign"]]
    print(f"retained attacks {len(att)} (benign look-alikes in view {len(diag) - len(att)}); "
          f"marker not on one line: {sum(1 for d in att if not d['lines'])}")
    for key in ("stage", "region", "grade", "goal_term"):
        c = Counter((d.get("stage"), d.get(key)) for d in att if d["lines"])
        print(key, sorted(c.items(), key=lambda kv: (str(kv[0][0]), -kv[1])))
    c2 = Counter((d["region"], d["grade"]) for d in att if d["lines"])
    print("region x grade", sorted(c2.items()))
    c3 = Counter(tuple(sorted(r)) for d in att if d["lines"] for r in [d["reasons"]])
    print("reasons", c3.most_common(15))
    for m in ("R1", "R3"):
        hit = [d for d in att if d["lines"] and d["modes"][m]]
        print(m, "suspicious marker lines", len(hit), "of which carry a goal term", sum(d["goal_term"] for d in hit),
              "benign look-alikes", sum(1 for d in diag if d["benign"] and d.get("lines") and d["modes"][m]))


def cost(args: argparse.Namespace) -> None:
    from focus_tail import load
    from realpage_goals import item_lines, renderings

    from pagelens.focus import suspicion as S
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.rules import RulesConfig

    goals = load(args.group)
    parsed = renderings(goals, Path(args.cache), Path(args.pages))
    cfg = RulesConfig()
    tally: Counter[Any] = Counter()
    items = 0
    for g in goals:
        r = parsed[g["page"]]
        pa = analysis_of(r, cfg.limits, cfg.unit_text_chars)
        gr = S.grades(pa)
        sus = {m: S.suspicious(m, pa) for m in S.MODES if m}
        for it in g["must_keep"]:
            items += 1
            at = item_lines(r.lines, it)
            graded = [i for i in at if i in gr]
            if graded:
                pts, anc, st, reg = gr[graded[0]]
                tally[("graded", reg, grade_name(pts, anc, st))] += 1
            for m, s in sus.items():
                if at and all(i in s for i in at):
                    tally[("suspicious-all", m)] += 1
                elif any(i in s for i in at):
                    tally[("suspicious-some", m)] += 1
    print(f"{args.group}: {len(goals)} goals, {items} items")
    for k, v in sorted(tally.items(), key=str):
        print(" ", k, v)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("attacks")
    a.add_argument("--out", required=True)
    a.add_argument("--arm", action="append", default=[])
    a.add_argument("--sets", default="")
    c = sub.add_parser("cost")
    c.add_argument("--group", required=True)
    c.add_argument("--cache", required=True)
    c.add_argument("--pages", required=True)
    r = sub.add_parser("report")
    r.add_argument("diag")
    args = ap.parse_args(argv)
    if args.cmd == "attacks":
        attacks(args)
    elif args.cmd == "cost":
        cost(args)
    else:
        report_diag(json.loads(Path(args.diag).read_text()))


if __name__ == "__main__":
    main()
