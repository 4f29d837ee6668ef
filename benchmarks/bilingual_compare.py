"""Base against a candidate on one focus_tail group: all items, cross-language items, by half (h35-dict, issue 9).

    .venv/bin/python benchmarks/bilingual_compare.py runs/out/base_choose.json runs/out/c1_choose.json \
        --count runs/out/count_choose.json

Each file is ``focus_tail.py run`` output with one arm; ``--count`` is ``bilingual_count.py``'s output for the same
group (the page's language per goal, same order). A goal is cross-language when its language, read from one function
word (:func:`pagelens.focus.bilingual.goal_language`), is known and differs from the page's. Halves: pages split by
the parity of the first byte of sha1(page name).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
from pathlib import Path


def half(page: str) -> int:
    return hashlib.sha1(page.encode()).digest()[0] % 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", type=Path)
    ap.add_argument("cand", type=Path)
    ap.add_argument("--count", type=Path, required=True)
    args = ap.parse_args()
    from pagelens.focus.bilingual import goal_language

    base, cand, count = (json.loads(p.read_text()) for p in (args.base, args.cand, args.count))
    assert len(base) == len(cand) == len(count)
    arm_b, arm_c = next(iter(base[0]["arms"])), next(iter(cand[0]["arms"]))
    rows = []
    for b, c, n in zip(base, cand, count, strict=True):
        assert b["goal"] == c["goal"] and b["page"] == n["page"]
        gl = goal_language(b["goal"], least=1)
        cross = bool(gl and n["page_lang"] and gl != n["page_lang"])
        rows.append((half(b["page"]), cross, b["arms"][arm_b], c["arms"][arm_c]))

    def line(name: str, sel: list) -> str:
        items = sum(len(b["ok"]) for _, _, b, _ in sel)
        kb = sum(sum(b["ok"]) for _, _, b, _ in sel)
        kc = sum(sum(c["ok"]) for _, _, _, c in sel)
        pb = statistics.mean(b["pruning"] for _, _, b, _ in sel) if sel else 0.0
        pc = statistics.mean(c["pruning"] for _, _, _, c in sel) if sel else 0.0
        changed = sum(b["view"] != c["view"] for _, _, b, c in sel)
        return f"| {name} | {len(sel)} | {items} | {kb} | {kc} | {kc - kb:+d} | {pb:.2%} | {pc:.2%} | {changed} |"

    print(f"base {args.base.name} vs {args.cand.name} ({arm_c})")
    print("| goals | n | items | base kept | cand kept | Δ | base pruning | cand pruning | views changed |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(line("all", rows))
    print(line("same language or unknown", [r for r in rows if not r[1]]))
    for h in (0, 1):
        print(line(f"cross-language, half {h}", [r for r in rows if r[1] and r[0] == h]))
    print(line("cross-language, both", [r for r in rows if r[1]]))


if __name__ == "__main__":
    main()
