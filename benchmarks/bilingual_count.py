"""Count the goals of a focus_tail group written in another language than their page (h35-dict, issue 9).

    PYTHONPATH=src .venv/bin/python benchmarks/bilingual_count.py --group dev31 --cache runs/rp31 --json runs/out/x.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from focus_tail import load  # noqa: E402
from realpage_goals import renderings  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--group", required=True)
    ap.add_argument("--cache", type=Path, default=Path("runs/rp"))
    ap.add_argument("--pages", type=Path, default=HERE.parent.parent / "shared" / "corpus" / "realpages")
    ap.add_argument("--json", type=Path, required=True)
    args = ap.parse_args()
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.crossing import language_of, page_language
    from pagelens.focus.rules import RulesConfig

    cfg = RulesConfig()
    goals = load(args.group)
    parsed = renderings(goals, args.cache, args.pages)
    rows = []
    for g in goals:
        pa = analysis_of(parsed[g["page"]], cfg.limits, cfg.unit_text_chars)
        gl, pl = language_of(g["goal"]), page_language(pa)
        rows.append({"set": g["set"], "page": g["page"], "goal_lang": gl, "page_lang": pl, "lexical_lang": pa.lang,
                     "crosses": bool(gl and pl and gl != pl)})
    args.json.write_text(json.dumps(rows))
    c = Counter((r["goal_lang"], r["page_lang"]) for r in rows if r["crosses"])
    print(f"{args.group}: goals {len(rows)}, crossing {sum(c.values())}: {dict(c.most_common())}")
    print("page languages (lexical):", dict(Counter(r["lexical_lang"] for r in rows).most_common()))


if __name__ == "__main__":
    main()
