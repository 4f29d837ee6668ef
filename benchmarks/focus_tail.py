"""The items no budget recovers (issue 9, twenty-second focus pass): per-item runs and the tail's diagnosis.

``run`` focuses every goal of a group of sets with each retriever at each budget (the same ``focus()``, defense
on, as ``realpage_goals.py``) and writes, per goal, which must-keep items each arm kept and its pruning.
``diagnose`` reads such a file and, for the *tail* (items ``default`` misses at the large budget), records the
item's kind, the goal's kind and languages, where the item's unit ranks under each signal and in the fused order,
whether bm25-400 keeps it, and whether a kept unit is its partner. ``compare`` sums items and pruning per arm.

    PYTHONPATH=src .venv/bin/python benchmarks/focus_tail.py run --group choose --cache runs/rp \
        --arm default@0.29 --arm default@0.60 --arm bm25-400 --json runs/tail/base.json
    PYTHONPATH=src .venv/bin/python benchmarks/focus_tail.py diagnose runs/tail/base.json --cache runs/rp
    .venv/bin/python benchmarks/focus_tail.py compare runs/tail/base.json runs/tail/cand.json

Groups: ``choose`` = the corpus goal files of :data:`focus_learn.FILES` (2,054 goals) + dev-18; ``check`` =
blind-14 + blind-15 (run once, aggregates only). No held-out file is read.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from realpage_goals import item_lines, items_ok, renderings  # noqa: E402

DATA = HERE / "data"
CORPUS_FILES = (DATA / "realpage_goals.jsonl", DATA / "realpage_goals_dev6.jsonl", DATA / "realpage_goals_dev8.jsonl",
                *(DATA / f"realpage_goals_blind{i}.jsonl" for i in range(3, 9)))
GROUPS = {
    "choose": (*CORPUS_FILES, DATA / "realpage_goals_dev18.jsonl"),
    "check": (DATA / "realpage_goals_blind14.jsonl", DATA / "realpage_goals_blind15.jsonl"),
    "dev31": (DATA / "realpage_goals_dev31.jsonl",),  # development data (small web-app pages), stop 31
    "dev35": (DATA / "realpage_goals_dev35.jsonl",),  # development data (long documentation pages), stop 35
    "dev36": (DATA / "realpage_goals_dev36.jsonl",),  # development data (long documentation pages), stop 36
    "dev37": (DATA / "realpage_goals_dev37.jsonl",),  # development data (read goals on varied pages), stop 37
    "dev38": (DATA / "realpage_goals_dev38.jsonl",),  # development data (varied pages, a-m / npm), stop 38
}


def load(group: str) -> list[dict]:
    return [json.loads(line) for path in GROUPS[group] for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def _arm(spec: str) -> tuple[str, float | None]:
    name, _, budget = spec.partition("@")
    return name, float(budget) if budget else None


def _retriever(name: str) -> Any:
    """A registry name, or ``default+field=value,field=value`` (a :class:`RulesConfig` with those fields)."""
    from pagelens.focus.registry import make_retriever

    if "+" not in name:
        return make_retriever(name)
    import dataclasses

    from pagelens.focus.rules import RulesConfig, RulesRetriever

    types = {f.name: f.type for f in dataclasses.fields(RulesConfig)}
    kw: dict[str, Any] = {}
    for pair in name.split("+", 1)[1].split(","):
        key, _, value = pair.partition("=")
        t = types[key]
        kw[key] = ((value.lower() == "true") if t in (bool, "bool") else int(value) if t in (int, "int")
                   else value if t in (str, "str", "str | None") else float(value))
    return RulesRetriever(RulesConfig(**kw))


def run(args: argparse.Namespace) -> None:
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    goals = load(args.group)
    parsed = renderings(goals, args.cache, args.pages)
    out = []
    arms = [(a, *_arm(a)) for a in args.arm]
    rets = {name: _retriever(name) for _, name, _ in arms}
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.rules import RulesConfig

    cfg0 = RulesConfig()
    totals: dict[str, int] = {}
    for g in goals:
        r = parsed[g["page"]]
        if g["page"] not in totals:  # the full tree's tokens the budget is a share of (for the page-size bands)
            totals[g["page"]] = analysis_of(r, cfg0.limits, cfg0.unit_text_chars).page.total
        row: dict[str, Any] = {"set": g["set"], "page": g["page"], "goal": g["goal"], "kind": g.get("kind"),
                               "must_keep": g["must_keep"], "tokens": totals[g["page"]], "arms": {}}
        for label, name, budget in arms:
            res = focus(r, FocusQuery(g["goal"], budget=budget), rets[name])
            row["arms"][label] = {"ok": items_ok(r, res, g["must_keep"]), "pruning": res.pruning,
                                  "view": hashlib.sha1(res.text().encode()).hexdigest()[:16]}  # the kept lines, to compare runs
            if "certainty" in res.info:  # how sure the fused order was (:mod:`pagelens.focus.certainty`)
                row["arms"][label]["certainty"] = res.info["certainty"]
                row["arms"][label]["budget_tokens"] = res.info.get("budget_tokens")
        out.append(row)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out))
    print(summary(out))


def summary(rows: list[dict]) -> str:
    arms = list(rows[0]["arms"]) if rows else []
    sets = sorted({r["set"] for r in rows})
    out = ["| arm | goals | items kept / items | item recall | case recall | mean pruning |", "|---|---|---|---|---|---|"]
    for a in arms:
        kept = sum(sum(r["arms"][a]["ok"]) for r in rows)
        items = sum(len(r["arms"][a]["ok"]) for r in rows)
        cases = sum(all(r["arms"][a]["ok"]) for r in rows)
        pr = statistics.mean(r["arms"][a]["pruning"] for r in rows)
        out.append(f"| {a} | {len(rows)} | {kept} / {items} | {kept / items:.3f} | {cases / len(rows):.3f} | {pr:.2%} |")
    per = ["", "per set, items kept: " + "; ".join(
        f"{s} " + "/".join(str(sum(sum(r["arms"][a]["ok"]) for r in rows if r["set"] == s)) for a in arms)
        for s in sets)]
    return "\n".join(out + per)


# -- diagnosis ---------------------------------------------------------------------------------------
def item_kind(page: Any, i: int, goal_kind: str | None) -> str:
    from pagelens.focus.units import ACTION_ROLES, CONTROL_ROLES, HEADING_ROLES, row_of

    ln = page.lines[i]
    role = ln.role
    in_row = row_of(page, i) is not None
    if role in CONTROL_ROLES or (role in ACTION_ROLES and role != "link"):
        return "per-row control" if in_row else "control"
    if role == "link":
        if in_row:
            return "per-row control"
        return "heading/link for navigation" if goal_kind == "navigate" else "link (act/read)"
    if role in HEADING_ROLES:
        return "heading/link for navigation"
    if role in ("cell", "gridcell", "rowheader", "columnheader") or in_row:
        return "table cell"
    if role in ("term", "definition", "DescriptionListTerm", "DescriptionListDetail"):
        return "value beside its label"
    name = ln.name.strip()
    if len(name) <= 60:
        p = page.parents[i]
        sib = [j for j in range(p + 1, page.ends[p]) if page.parents[j] == p and j != i] if p >= 0 else []
        if sib and len(name) <= 60:
            return "value beside its label"
    return "prose"


def diagnose(args: argparse.Namespace) -> None:
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.crossing import crosses
    from pagelens.focus.lexical import guess_language
    from pagelens.focus.rules import RulesConfig, RulesRetriever, _ranked
    from pagelens.focus.units import HEADING_ROLES

    rows = json.loads(args.json_in.read_text())
    big, small = args.big, args.small
    tail = [(r, j) for r in rows for j, ok in enumerate(r["arms"][big]["ok"]) if not ok]
    lost29 = sum(1 for r in rows for ok in r["arms"][small]["ok"] if not ok)
    print(f"items {sum(len(r['must_keep']) for r in rows)}; missed at {small}: {lost29}; missed at {big} (the tail): {len(tail)}")
    parsed = renderings([r for r, _ in tail], args.cache, args.pages)
    cfg = RulesConfig()
    ret = RulesRetriever(cfg)
    out = []
    for r, j in tail:
        m = r["must_keep"][j]
        rend = parsed[r["page"]]
        pa = analysis_of(rend, cfg.limits, cfg.unit_text_chars)
        page, units = pa.page, pa.units
        q = FocusQuery(r["goal"])
        signals, _lt, unseen, fused = ret.fused(q, pa)
        order, _ = ret._learned(q, pa, signals, fused, unseen, _ranked(fused))
        hits = item_lines(rend.lines, m)
        rec: dict[str, Any] = {"set": r["set"], "page": r["page"], "goal": r["goal"], "goal_kind": r["kind"],
                               "item": m, "found": bool(hits), "bm25_400": r["arms"].get("bm25-400", {}).get("ok", [None] * 9)[j],
                               "page_lang": pa.lang, "goal_lang": guess_language([r["goal"]]), "crosses": crosses(r["goal"], pa),
                               "n_units": len(units.heads), "page_tokens": page.total,
                               "budget_capped": page.total * float(big.partition("@")[2] or 0.29) > cfg.ceiling_tokens}
        if hits:
            i = hits[0]
            k = units.of_line[i]
            rec["kind"] = item_kind(page, i, r["kind"])
            rec["unit"] = k
            rec["ranks"] = {n: (list(s).index(k) if k in s else None) for n, s in signals.items()}
            rec["fused_rank"] = order.index(k) if k in order else None
            rec["ranked_by_any"] = any(v is not None for v in rec["ranks"].values())
            res = focus(rend, FocusQuery(r["goal"], budget=float(big.partition("@")[2] or 0) or None), ret)
            kept_pos = {p for p, ln in enumerate(rend.lines) if ln.no in res.kept}
            near = [kk for kk in (k - 1, k + 1) if 0 <= kk < len(units.heads)]
            rec["neighbour_kept"] = any(set(units.members[kk]) & kept_pos for kk in near)
            rec["neighbour_ranked"] = [(order.index(kk) if kk in order else None) for kk in near]
            rec["parent_kept"] = page.parents[units.heads[k]] in kept_pos
            pos = {kk: n for n, kk in enumerate(order)}
            heads = units.heads
            up = []  # the item's unit's ancestors: their size and the best fused rank of a unit inside them
            for a in list(page.ancestors(heads[k]))[:8]:
                inside = [pos[kk] for kk in range(len(heads)) if a <= heads[kk] < page.ends[a] and kk in pos]
                up.append([page.subtree_tokens(a), min(inside) if inside else None])
            rec["up"] = up
            rec["unit_tokens"] = page.subtree_tokens(heads[k])
            rec["dist_top"] = [min((abs(kk - k) for kk in order[:n]), default=None) for n in (3, 5, 10, 20)]
            hd = [h for h in range(len(heads)) if page.lines[heads[h]].role in HEADING_ROLES]
            sec = max((h for h in hd if h <= k), default=None)  # the unit holding the nearest heading before it
            rec["section_rank"] = pos.get(sec) if sec is not None else None
            nxt = min((h for h in hd if h > k), default=len(heads))
            rec["section_top_rank"] = min((pos[kk] for kk in range(sec if sec is not None else 0, nxt) if kk in pos), default=None)
            rec["section_units"] = nxt - (sec if sec is not None else 0)
        out.append(rec)
    args.out.write_text(json.dumps(out, indent=1))
    found = [x for x in out if x["found"]]
    print(f"tail items found on the page: {len(found)} / {len(out)}")
    for key in ("kind", "goal_kind", "crosses", "ranked_by_any", "bm25_400", "neighbour_kept"):
        print(key, dict(Counter(str(x.get(key)) for x in found).most_common()))
    sig: Counter[str] = Counter()
    for x in found:
        for n, v in x["ranks"].items():
            if v is not None:
                sig[n] += 1
    print("ranked by signal (any rank):", dict(sig.most_common()))
    fr = [x["fused_rank"] for x in found if x["fused_rank"] is not None]
    print("fused rank when ranked: n", len(fr), "median", statistics.median(fr) if fr else None)


BANDS = ((0, 800, "< 800"), (800, 1500, "800-1,500"), (1500, 3000, "1,500-3,000"), (3000, 6000, "3,000-6,000"),
         (6000, 10**12, "> 6,000"))
#: the bands of pages kept whole today (twenty-eighth focus pass, ``bands --small``)
SMALL_BANDS = ((0, 400, "< 400"), (400, 600, "400-600"), (600, 800, "600-800"), (800, 1500, "800-1,500"),
               (1500, 10**12, ">= 1,500"))


def bands(args: argparse.Namespace) -> None:
    """Items kept and mean pruning per arm in each page-size band (the full tree's tokens, ``run``'s ``tokens``)."""
    rows = [r for f in args.files for r in json.loads(Path(f).read_text())]
    arms = list(rows[0]["arms"]) if rows else []
    print("| band (tokens) | goals | items | " + " | ".join(f"{a} kept / pruning" for a in arms) + " |")
    print("|---|---|---|" + "---|" * len(arms))
    for lo, hi, name in (*(SMALL_BANDS if args.small else BANDS), (0, 10**12, "all")):
        rs = [r for r in rows if lo <= r["tokens"] < hi]
        if not rs:
            continue
        cells = [f"{sum(sum(r['arms'][a]['ok']) for r in rs)} / {statistics.mean(r['arms'][a]['pruning'] for r in rs):.1%}"
                 for a in arms]
        print(f"| {name} | {len(rs)} | {sum(len(r['must_keep']) for r in rs)} | " + " | ".join(cells) + " |")


def compare(args: argparse.Namespace) -> None:
    for f in args.files:
        rows = json.loads(Path(f).read_text())
        print(f"## {f}")
        print(summary(rows))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("run")
    a.add_argument("--group", choices=sorted(GROUPS), required=True)
    a.add_argument("--arm", action="append", required=True, help="retriever[@budget]")
    a.add_argument("--json", type=Path, required=True)
    d = sub.add_parser("diagnose")
    d.add_argument("json_in", type=Path)
    d.add_argument("--big", default="default@0.60")
    d.add_argument("--small", default="default@0.29")
    d.add_argument("--out", type=Path, default=Path("runs/tail/diagnosis.json"))
    c = sub.add_parser("compare")
    c.add_argument("files", nargs="+")
    b = sub.add_parser("bands", help="items kept and mean pruning per page-size band")
    b.add_argument("files", nargs="+")
    b.add_argument("--small", action="store_true", help="the bands below 1,500 tokens (< 400, 400-600, 600-800, ...)")
    for p in (a, d):
        p.add_argument("--cache", type=Path, default=Path("runs/rp"))
        p.add_argument("--pages", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "realpages")
    args = ap.parse_args()
    {"run": run, "diagnose": diagnose, "compare": compare, "bands": bands}[args.cmd](args)


if __name__ == "__main__":
    main()
