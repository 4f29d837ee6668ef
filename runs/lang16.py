"""The slice's language test (h16-focus): script by letter counts (CJK / Cyrillic / Latin / other);
for Latin text, the stop-word language (bm25s' lists, as pagelens.focus.lexical) with the most
DISTINCT stop-words, when it has >= 2 and more than 1.2x English's; else English. Goal and page
(all unit texts) each get one; a goal is cross-language when they differ. Writes runs/lang16.json."""
import json, sys
from pathlib import Path
sys.path.insert(0, "benchmarks"); sys.path.insert(0, "runs")
import focus_learn as fl
from pagelens.focus.analysis import analysis_of
from pagelens.focus.rules import RulesConfig
from pagelens.focus.lexical import _stopword_sets, _WORDS
import importlib.util
spec = importlib.util.spec_from_file_location("s16", "runs/slice16.py")
import re
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_CYR = re.compile(r"[\u0400-\u04ff]")
_LAT = re.compile(r"[A-Za-z\u00c0-\u024f]")
def lang(texts):
    s = " ".join(texts)[:40000]
    c = {"cjk": 2 * len(_CJK.findall(s)), "cyrillic": len(_CYR.findall(s)), "latin": len(_LAT.findall(s))}
    sc = max(c, key=c.get)
    if sc != "latin":
        return sc
    ws = set(_WORDS.findall(s.lower()))
    n = {l: len(ws & sw) for l, sw in _stopword_sets().items()}
    best = max(n, key=n.get)
    return best if best != "en" and n[best] >= 2 and n[best] > 1.2 * n["en"] else "en"
goals = fl.load_goals()
rend = fl.renderings(Path("runs/realpages"), {g["page"] for g in goals})
cfg = RulesConfig()
pages = {p: lang(analysis_of(r, cfg.limits, cfg.unit_text_chars).units.texts) for p, r in rend.items()}
out = {"pages": pages, "goals": {g["id"]: lang([g["goal"]]) for g in goals}}
Path("runs/lang16.json").write_text(json.dumps(out))
import collections
print(sorted(collections.Counter(pages.values()).items()), [p for p, l in pages.items() if l != "en"])
print(collections.Counter(out["goals"].values()))
print(sum(out["goals"][g["id"]] != pages[g["page"]] for g in goals), "cross of", len(goals))
