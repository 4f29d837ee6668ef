"""h16-focus: the cross-language slice of the development goals, and where default's misses go.

    PYTHONPATH=src nice -n 10 .venv/bin/python runs/slice16.py OUT.json [key=value RulesConfig settings...]

Slice: a goal is "cross-language" when its script differs from the page's (CJK / Cyrillic / Latin /
other, by letter counts) or, both Latin, when the stop-word language guessed for the goal
(pagelens.focus.lexical.guess_language on the goal text) differs from the page's (PageAnalysis.lang,
the same guess on the page's units). Development data only: focus_learn.FILES.
"""
import json, re, sys, time, statistics
from dataclasses import replace
from pathlib import Path
sys.path.insert(0, "benchmarks")
import focus_learn as fl
from pagelens.bench.cases import MustKeep, item_kept
from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.registry import make_retriever
from pagelens.focus.rules import RulesRetriever, RulesConfig
from pagelens.focus.analysis import analysis_of, unit_heads
from pagelens.focus.lexical import guess_language

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_CYR = re.compile(r"[\u0400-\u04ff]")
_LAT = re.compile(r"[A-Za-z\u00c0-\u024f]")
_OTHER = re.compile(r"[\u0370-\u03ff\u0590-\u06ff\u0900-\u0dff\u0e00-\u0e7f]")

def script(texts):
    s = "".join(texts)[:20000]
    c = {"cjk": len(_CJK.findall(s)) * 2, "cyrillic": len(_CYR.findall(s)), "latin": len(_LAT.findall(s)),
         "other": len(_OTHER.findall(s))}
    return max(c, key=c.get)

def main():
    out = Path(sys.argv[1])
    extra = {}
    for kv in sys.argv[2:]:
        k, v = kv.split("=")
        if k == "oof":
            extra[k] = True
            continue
        d = getattr(RulesConfig(), k)
        extra[k] = (v.lower() in ("1", "true")) if isinstance(d, bool) else type(d)(v)
    goals = fl.load_goals()
    rend = fl.renderings(Path("runs/realpages"), {g["page"] for g in goals})
    oof = extra.pop("oof", None)  # "oof=1": each page's family-left-out fold model (runs/learn16/oof)
    ret = RulesRetriever(replace(RulesConfig(), **extra))
    fold = fl.folds([g["page"] for g in goals], by="family")
    rets = {f: RulesRetriever(replace(RulesConfig(), fusion_model=f"runs/learn16/oof/gbdt_family{f}.json", **extra))
            for f in set(fold.values())} if oof else None
    bm = make_retriever("bm25-400")
    cfg = ret.config
    rows = []
    page_info = {}
    t0 = time.time()
    for n, g in enumerate(sorted(goals, key=lambda g: (g["page"], g["id"]))):
        r = rend[g["page"]]
        if rets:
            ret = rets[fold[g["page"]]]
        if g["page"] not in page_info:
            pa = analysis_of(r, cfg.limits, cfg.unit_text_chars)
            page_info[g["page"]] = (pa.lang, script(pa.units.texts[:400]))
        plang, pscript = page_info[g["page"]]
        gscript = script([g["goal"]])
        glang = guess_language([g["goal"]]) if gscript == "latin" else gscript
        cross = gscript != pscript or (gscript == "latin" and glang != plang)
        items = [MustKeep(role=m["role"], name=m["name"]) for m in g["must_keep"]]

        def score(res):
            kept = [ln for ln in r.lines if ln.no in res.kept]
            shown = [ln.text for ln in res.lines if ln.no is not None]
            return [item_kept(m, kept, shown) for m in items]

        q = FocusQuery(g["goal"])
        res = focus(r, q, ret)
        ok = score(res)
        okb = score(focus(r, q, bm))
        row = {"id": g["id"], "set": g["set"], "page": g["page"], "kind": g.get("kind"), "goal": g["goal"],
               "plang": plang, "pscript": pscript, "glang": glang, "gscript": gscript, "cross": cross,
               "items": len(ok), "kept": sum(ok), "bm_kept": sum(okb), "pruning": res.pruning,
               "bm_pruning": focus(r, q, bm).pruning if False else None}
        # lexical evidence: goal words no unit carries
        pa = analysis_of(r, cfg.limits, cfg.unit_text_chars)
        signals, _lt, unseen, fused = ret.fused(q, pa)
        from pagelens.focus.terms import query_terms
        w, _ = query_terms(q)
        content = [t for t in w if t[0] not in "§+"]
        row["terms"] = len(content)
        row["unseen"] = len([t for t in content if t in unseen])
        if not all(ok) and pa.page.total > cfg.small_page_tokens:
            sel = ret.select(q, r)
            row["budget"] = sel.info.get("budget_tokens")
            row["spent"] = sel.info.get("spent_tokens")
            okd = score(focus(r, q, ret, defense=False))
            up = unit_heads(pa.page, cfg.limits)
            index = {u: k for k, u in enumerate(pa.units.heads)}
            miss = []
            for m, a, d in zip(g["must_keep"], ok, okd):
                if a:
                    continue
                js = fl.matching_lines(pa.page.lines, m)
                ks = {index.get(up[j]) for j in js} - {None}
                sel_kept = any(pa.page.lines[j].no in sel.keep for j in js)
                spent_frac = (row["spent"] or 0) / max(1, row["budget"] or 1)
                if d:
                    why = "defense"
                elif not js:
                    why = "absent"
                elif sel_kept:
                    why = "selected, lost after"
                elif not any(k in fused for k in ks):
                    why = "unranked"
                else:
                    why = "ranked, not reached"
                miss.append({"item": m, "why": why, "budget_unspent": spent_frac < 0.9,
                             "ranks": sorted(list(fused).index(k) if False else 0 for k in ks)[:1]})
            row["miss"] = miss
        rows.append(row)
        if n % 200 == 0:
            print(n, f"{time.time()-t0:.0f}s", file=sys.stderr, flush=True)
    out.write_text(json.dumps(rows))

main()
