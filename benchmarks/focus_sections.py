"""Where the leftover budget goes, and what a section would bound (issue 9, h38-sections; development data).

``goals``: for every goal of a ``focus_tail.py`` group, ``default``'s selection with the leftover pass
(:func:`pagelens.focus.nearby.leftover`) recorded: the units it added, the best unit that brought each, and whether
the unit lies in that best unit's :func:`~pagelens.focus.nearby.section`; with ``--rows`` (a ``focus_tail.py run``
file with the arms ``default`` and ``default+leftover_reach=0``), which of the items only the leftover keeps lie in a
unit it added in or out of its section.
``injections``: the same for the attack cases of injection runs whose marker only the leftover keeps in view (cases
retained in ``--on`` and not in ``--off``, two ``defense_langs_devsets.sh`` output folders).

    PYTHONPATH=src .venv/bin/python benchmarks/focus_sections.py goals --group choose --cache runs/rp \\
        --pages /work/shared/corpus/realpages --rows runs/tail/diag_choose.json
    PYTHONPATH=src .venv/bin/python benchmarks/focus_sections.py injections --on runs/inj/base --off runs/inj/off
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

RECORD: list[tuple[int, int, int, bool]] = []  # (best unit, added unit, tokens, in its section)


def _recording() -> None:
    """Swap :func:`pagelens.focus.nearby.leftover` for a copy that records what it adds (same choices)."""
    from pagelens.focus import nearby
    from pagelens.focus.cores import take_own_lines

    def leftover(pa: Any, keep: set[int], order: Any, best: int, reach: int, max_tokens: int, allowance: int,
                 *, bounded: bool = False) -> int:
        heads, page = pa.units.heads, pa.page
        n = len(heads)
        if best <= 0 or reach <= 0 or allowance <= 0:
            return 0
        tops = [k for k in order[:best] if heads[k] in keep]
        scope = {k: nearby.section(pa, heads[k]) for k in tops}
        spent = 0
        for d in range(1, reach + 1):
            for k in tops:
                lo, hi = scope[k]
                for j in (k + d, k - d):
                    if 0 <= j < n and heads[j] not in keep and page.subtree_tokens(heads[j]) <= max_tokens:
                        if bounded and not lo <= heads[j] < hi:
                            continue
                        got = take_own_lines(pa, keep, j, spent, allowance, spare=False)
                        if got:
                            RECORD.append((k, j, got, lo <= heads[j] < hi))
                        spent += got
        return spent

    nearby.leftover = leftover


def goals(args: argparse.Namespace) -> None:
    from focus_tail import load
    from realpage_goals import item_lines, renderings

    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import RulesConfig, RulesRetriever

    _recording()
    rows = {(r["page"], r["goal"]): r for r in json.loads(args.rows.read_text())} if args.rows else {}
    gs = load(args.group)
    parsed = renderings(gs, args.cache, args.pages)
    ret = RulesRetriever(RulesConfig())
    cfg = ret.config
    spent_in = spent_out = goals_with = 0
    by_set: Counter[str] = Counter()
    gained: list[dict] = []
    for g in gs:
        r = parsed[g["page"]]
        RECORD.clear()
        ret.select(FocusQuery(g["goal"]), r)
        got = list(RECORD)
        if got:
            goals_with += 1
            by_set[g["set"]] += 1
        spent_in += sum(t for *_, t, ins in got if ins)
        spent_out += sum(t for *_, t, ins in got if not ins)
        row = rows.get((g["page"], g["goal"]))
        if not row:
            continue
        on, off = row["arms"]["default"]["ok"], row["arms"]["default+leftover_reach=0"]["ok"]
        pa = analysis_of(r, cfg.limits, cfg.unit_text_chars)
        for item, a, b in zip(g["must_keep"], on, off):
            if a == b:
                continue
            pos = set(item_lines(r.lines, item))
            where = [("in" if ins else "out", d_k) for k, j, _, ins in got
                     for d_k in [j - k] if pos & set(range(pa.units.heads[j], pa.page.ends[pa.units.heads[j]]))]
            gained.append({"set": g["set"], "page": g["page"], "kept_by_leftover": a and not b,
                           "added_units": where or "not an added unit", "page_tokens": pa.page.total})
    print(f"goals: {len(gs)}; the leftover pass added units on {goals_with} ({dict(by_set)})")
    print(f"tokens it spent: in the best unit's section {spent_in}, outside it {spent_out}")
    for x in gained:
        print(json.dumps(x))


def injections(args: argparse.Namespace) -> None:
    from injection_blind4 import _cached_observation, _norm, load_cases

    from pagelens.api import render_observation
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import RulesConfig, RulesRetriever

    _recording()
    ret = RulesRetriever(RulesConfig())
    data = HERE / "data"
    for f in sorted(args.on.glob("*.json")):
        s = f.stem
        off = args.off / f.name
        if not off.exists():
            continue
        a = {r["id"]: r for r in json.loads(f.read_text())}
        b = {r["id"]: r for r in json.loads(off.read_text())}
        diff = [i for i in a if not a[i]["benign"] and (a[i]["retained"] and not a[i]["redacted"])
                != (b.get(i, {}).get("retained") and not b.get(i, {}).get("redacted"))]
        if not diff:
            continue
        pages = Path("/work/shared/corpus/realpages")
        if s in ("blind14", "benign18a"):
            pages = data / "pages_blind13"
        elif s in ("blind15", "benign18b"):
            pages = data / "pages_blind14"
        cache = Path("runs/b22" if s.startswith("benign") else "runs/d22") / f"obs-{s}"
        cases = {c.id: c for c in load_cases(data / f"injections_{s}.jsonl")}
        for i in diff:
            c = cases[i]
            obs = _cached_observation(c, pages, None, Path("/tmp"), cache)
            r = render_observation(obs)
            RECORD.clear()
            ret.select(FocusQuery(c.goal), r)
            from pagelens.focus.analysis import analysis_of

            pa = analysis_of(r, ret.config.limits, ret.config.unit_text_chars)
            marker = _norm(c.marker)
            hits = []
            for k, j, _, ins in RECORD:
                u = pa.units.heads[j]
                text = _norm(" ".join(ln.text for ln in r.lines[u:pa.page.ends[u]]))
                if marker[:30] in text:
                    hits.append(("in" if ins else "out", j - k))
            print(json.dumps({"set": s, "id": i, "on": a[i]["retained"], "off": b[i]["retained"],
                              "added_units_with_marker": hits or "none (brought otherwise)"}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("goals")
    g.add_argument("--group", required=True)
    g.add_argument("--cache", type=Path, default=Path("runs/rp"))
    g.add_argument("--pages", type=Path, required=True)
    g.add_argument("--rows", type=Path)
    i = sub.add_parser("injections")
    i.add_argument("--on", type=Path, required=True)
    i.add_argument("--off", type=Path, required=True)
    args = ap.parse_args()
    goals(args) if args.cmd == "goals" else injections(args)


if __name__ == "__main__":
    main()
