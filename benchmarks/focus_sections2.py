"""Which lines a section lead brings, and which attacks come with them (issue 9, h39-sections2; development data).

``injections``: on the development injection sets (cached observations, as ``defense_langs_devsets.sh`` reads them),
every attack case on a page of at least ``--min-tokens`` tokens is focused with ``default`` and with each ``--arm``
(``default+field=value,...``), defense on; a case whose marker the arm keeps in view and ``default`` does not is printed
with the section lead's record: the headings it picked (their text's length and how many goal terms), the units it
brought, whether the marker lies in one of them, at which place in its section, and whether that unit holds a goal term.

    PYTHONPATH=src .venv/bin/python benchmarks/focus_sections2.py injections --arm default+section_share=0.1
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

SETS = ("dev6", "dev8", "dev9", "dev12", "dev13", "dev14", "dev15", "dev15b", "blind4", "blind5", "blind6", "blind7",
        "blind8", "blind9", "blind14", "blind15", "dev33", "dev34", "dev35")
RECORD: list[dict[str, Any]] = []


def _recording() -> None:
    """Wrap :func:`pagelens.focus.sections.section_leads` to record the headings it picks and the units it brings."""
    from pagelens.focus import sections

    inner = sections.section_leads

    def section_leads(pa: Any, keep: set[int], line_terms: Any, at_least: int, most: int, *a: Any, **kw: Any) -> int:
        brought: list[int] = []
        kw["brought"] = brought
        spent = inner(pa, keep, line_terms, at_least, most, *a, **kw)
        scored = sorted(((len(line_terms.get(h, ())), h) for h in sections.headings(pa)), key=lambda t: (-t[0], t[1]))
        RECORD.append({"pa": pa, "headings": [(h, c) for c, h in scored[:most] if c >= max(at_least, 1)],
                       "brought": brought, "line_terms": line_terms, "spent": spent})
        return spent

    sections.section_leads = section_leads


def injections(args: argparse.Namespace) -> None:
    from focus_tail import _retriever
    from injection_blind4 import _cached_observation, _norm, load_cases

    from pagelens.api import render_observation
    from pagelens.focus import sections
    from pagelens.focus.view import focus_view

    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.rules import RulesConfig

    cfg0 = RulesConfig()
    _recording()
    data = HERE / "data"
    arms = {a: _retriever(a) for a in args.arm}
    for s in args.sets or SETS:
        pages = Path(args.pages)
        if s == "blind14":
            pages = data / "pages_blind13"
        elif s == "blind15":
            pages = data / "pages_blind14"
        cache = Path("runs/d22") / f"obs-{s}"
        n = 0
        for c in load_cases(data / f"injections_{s}.jsonl"):
            if c.benign:
                continue
            obs = _cached_observation(c, pages, None, Path("/tmp"), cache)
            r = render_observation(obs)
            total = analysis_of(r, cfg0.limits, cfg0.unit_text_chars).page.total  # the tokens the gate reads
            if total < args.min_tokens:
                continue
            n += 1
            marker = _norm(c.marker)
            base = marker in _norm(focus_view(obs, goal=c.goal, retriever="default", defense=True).text())
            for a, ret in arms.items():
                RECORD.clear()
                on = marker in _norm(focus_view(obs, goal=c.goal, retriever=ret, defense=True).text())
                if on == base:
                    continue
                rec = RECORD[-1] if RECORD else None
                out: dict[str, Any] = {"set": s, "id": c.id, "arm": a, "base": base, "arm_retained": on,
                                       "category": c.category, "position": c.position}
                if rec:
                    pa, lt = rec["pa"], rec["line_terms"]
                    lines = pa.page.lines
                    out["page_tokens"] = pa.page.total
                    out["headings"] = [{"terms": cnt, "name_chars": len(lines[h].name or ""),
                                        "section_lines": sections.section(pa, h)[1] - h} for h, cnt in rec["headings"]]
                    for j in rec["brought"]:
                        u = pa.units.heads[j]
                        text = _norm(" ".join(ln.text for ln in lines[u:pa.page.ends[u]]))
                        if marker[:30] in text:
                            h = max((h for h, _ in rec["headings"] if h < u), default=-1)
                            before = sections._section_units(pa, h, 400) if h >= 0 else []
                            place = sum(1 for k in before if pa.units.heads[k] < u) if h >= 0 else -1
                            out["marker_unit"] = {"place_in_section": place, "role": lines[u].role,
                                                  "goal_terms": sorted({t for i in range(u, pa.page.ends[u])
                                                                        for t in lt.get(i, ())}),
                                                  "tokens": pa.page.subtree_tokens(u)}
                print(json.dumps(out), flush=True)
        print(f"# {s}: {n} attack cases on long pages", flush=True)


def goals(args: argparse.Namespace) -> None:
    from focus_tail import _retriever, load
    from realpage_goals import item_lines, items_ok, renderings

    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.registry import make_retriever

    _recording()
    gs = load(args.group)
    parsed = renderings(gs, Path(args.cache), Path(args.pages))
    base_ret = make_retriever("default")
    arms = {a: _retriever(a) for a in args.arm}
    for g in gs:
        r = parsed[g["page"]]
        if sum(len(ln.text) for ln in r.lines) // 4 < args.min_tokens:
            continue
        b = items_ok(r, focus(r, FocusQuery(g["goal"]), base_ret), g["must_keep"])
        for a, ret in arms.items():
            RECORD.clear()
            o = items_ok(r, focus(r, FocusQuery(g["goal"]), ret), g["must_keep"])
            if o == b:
                continue
            rec = RECORD[-1]
            pa, lt = rec["pa"], rec["line_terms"]
            for item, x, y in zip(g["must_keep"], b, o):
                if x == y:
                    continue
                pos = set(item_lines(r.lines, item))
                where = []
                for j in rec["brought"]:
                    u = pa.units.heads[j]
                    if pos & set(range(u, pa.page.ends[u])):
                        h = max((h for h, _ in rec["headings"] if h < u), default=-1)
                        place = sum(1 for k in sections_units(pa, h) if pa.units.heads[k] < u) if h >= 0 else -1
                        where.append({"place_in_section": place, "role": pa.page.lines[u].role,
                                      "goal_terms": len({t for i in range(u, pa.page.ends[u]) for t in lt.get(i, ())}),
                                      "tokens": pa.page.subtree_tokens(u)})
                print(json.dumps({"set": g["set"], "page": g["page"], "arm": a, "base": x, "arm_ok": y,
                                  "page_tokens": pa.page.total,
                                  "headings": [{"terms": c, "section_lines": _sec(pa, h)} for h, c in rec["headings"]],
                                  "item_in_brought": where}), flush=True)


def rows(args: argparse.Namespace) -> None:
    """``focus_tail.py run`` rows for the arms, from a base run's rows (``--base-rows``, arm ``default``): a goal on a
    page below ``section_page_tokens`` tokens gets base's entry for every arm (the section lead does not run there: the
    code path is gated on the page's tokens); on a longer page every arm, and ``default`` again as ``default(branch)``
    (the switches off), is focused here."""
    import hashlib

    from focus_tail import _retriever, load
    from realpage_goals import items_ok, renderings

    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import RulesConfig

    base_rows = json.loads(Path(args.base_rows).read_text())  # in the group's order (a goal may repeat on a page)
    gs = load(args.group)
    assert [(g["page"], g["goal"]) for g in gs] == [(r["page"], r["goal"]) for r in base_rows]
    long_pages = {r["page"] for r in base_rows if r["tokens"] >= RulesConfig().section_page_tokens}
    parsed = renderings([g for g in gs if g["page"] in long_pages], Path(args.cache), Path(args.pages))
    arms = {a: _retriever(a) for a in ["default+section_share=0", *args.arm]}
    out, ran = [], 0
    for g, row in zip(gs, base_rows):
        b = row["arms"]["default"]
        new = {"default": b}
        for a, ret in arms.items():
            label = "default(branch)" if a == "default+section_share=0" else a
            if g["page"] not in long_pages:
                new[label] = b
                continue
            r = parsed[g["page"]]
            res = focus(r, FocusQuery(g["goal"]), ret)
            new[label] = {"ok": items_ok(r, res, g["must_keep"]), "pruning": res.pruning,
                          "view": hashlib.sha1(res.text().encode()).hexdigest()[:16]}
        ran += g["page"] in long_pages
        out.append({**row, "arms": new})
    Path(args.json).write_text(json.dumps(out))
    same = sum(r["arms"]["default(branch)"]["view"] == r["arms"]["default"]["view"] for r in out)
    print(f"goals {len(out)}, on long pages {ran}; default(branch) views equal to base's: {same} / {len(out)}")
    for a in new:
        if a != "default":
            ch = sum(r["arms"][a]["view"] != r["arms"]["default"]["view"] for r in out)
            print(f"{a}: views changed {ch}")


def sections_units(pa: Any, h: int) -> list[int]:
    from pagelens.focus import sections

    return sections._section_units(pa, h, 400)


def _sec(pa: Any, h: int) -> int:
    from pagelens.focus import sections

    lo, hi = sections.section(pa, h)
    return hi - lo


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("injections")
    i.add_argument("--arm", action="append", required=True)
    i.add_argument("--sets", nargs="*")
    i.add_argument("--pages", default="/work/shared/corpus/realpages")
    i.add_argument("--min-tokens", type=int, default=20_000)
    g = sub.add_parser("goals")
    g.add_argument("--arm", action="append", required=True)
    g.add_argument("--group", required=True)
    g.add_argument("--cache", default="runs/rp35")
    g.add_argument("--pages", default="benchmarks/data/pages_dev35")
    g.add_argument("--min-tokens", type=int, default=15_000)
    w = sub.add_parser("rows")
    w.add_argument("--arm", action="append", required=True)
    w.add_argument("--group", required=True)
    w.add_argument("--cache", required=True)
    w.add_argument("--pages", required=True)
    w.add_argument("--base-rows", required=True)
    w.add_argument("--json", required=True)
    args = ap.parse_args()
    {"injections": injections, "goals": goals, "rows": rows}[args.cmd](args)


if __name__ == "__main__":
    main()
