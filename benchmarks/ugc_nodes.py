"""The node tree around each user-content carrier of the development injection sets (h35-ugc's diagnosis): per ancestor
level up from the carrier (rendered or not), its role, children, siblings with the same child-role signature and with the
same role, and the date/rating/author marks its subtree holds (stops at the first level with a mark). Development data only.

    PYTHONPATH=src .venv/bin/python benchmarks/ugc_nodes.py runs/base     # a defense_langs_devsets.sh output folder
"""

from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import subtle_shapes as ss  # noqa: E402


def _obs_dir(name: str) -> Path:
    return Path("runs/b22" if name.startswith("benign") else "runs/d22") / f"obs-{name}"


def _sig(nodes: Any, kids: dict[int, list[int]], a: int, depth: int = 2) -> str:
    n = nodes[a]
    if depth == 0 or n.role == "StaticText":
        return str(n.role)
    return n.role + "(" + ",".join(_sig(nodes, kids, k, depth - 1) for k in kids.get(a, [])[:6]) + ")"


def _marks(nodes: Any, kids: dict[int, list[int]], a: int, skip: int) -> list[str]:
    from pagelens.observe import provenance as pv

    out, stack = [], [a]
    while stack:
        x = stack.pop()
        if x == skip:
            continue
        n = nodes[x]
        if n.role == "time":
            out.append("time")
        elif n.role == "StaticText" and n.name and pv._text_marks(n.name):
            out.append("txt:" + n.name[:30])
        elif n.role == "link" and isinstance(n.prop("url"), str) and pv._AUTHOR_URL.search(f"url='{n.prop('url')}'"):
            out.append("authorurl")
        stack.extend(kids.get(x, []))
    return out


def _status(case: dict[str, Any], row: dict[str, Any]) -> str:
    if case["benign"]:
        return "BENIGN" + ("-flagged" if row.get("redacted") else "")
    if row.get("redacted"):
        return "CAUGHT"
    return "RETAINED" if row.get("retained") else "dropped"


def main(argv: list[str]) -> int:
    from pagelens.api import render_observation

    rundir = Path(argv[0])
    for name in ss.SETS:
        path = rundir / f"{name}.json"
        if not path.exists():
            continue
        res = {r["id"]: r for r in json.loads(path.read_text())}
        for c in ss.cases(name).values():
            if c["category"] != "user-content":
                continue
            obs = pickle.loads(min(_obs_dir(name).glob(f"{c['id']}-*.pkl")).read_bytes())
            nodes = obs.nodes
            kids: dict[int, list[int]] = {}
            for n in nodes:
                if n.parent is not None:
                    kids.setdefault(n.parent, []).append(n.index)
            marker = c["marker"].lower()
            hit_lines = [ln for ln in render_observation(obs).lines if marker in (ln.name or ln.text).lower()]
            print(f"### {c['id']} [{name}] {_status(c, res.get(c['id'], {}))} "
                  f"region={hit_lines[0].region if hit_lines else '-'}")
            hits = [n.index for n in nodes if n.role == "StaticText" and marker in (n.name or "").lower()]
            if not hits:
                print("   no carrier")
                continue
            a, prev, level = nodes[hits[0]].parent, hits[0], 0
            while a is not None and level < 6:
                m = _marks(nodes, kids, a, prev if level == 0 else -1)
                p = nodes[a].parent
                sibs = kids.get(p, []) if p is not None else []
                sig = _sig(nodes, kids, a)
                print(f"   L{level} {nodes[a].role}{'(ign)' if nodes[a].ignored else ''} kids={len(kids.get(a, []))} "
                      f"sibs={len(sibs)} same-sig={sum(_sig(nodes, kids, k) == sig for k in sibs)} "
                      f"same-role={sum(nodes[k].role == nodes[a].role for k in sibs)} marks={m[:4]} sig={sig[:120]}")
                if m:
                    break
                prev, a, level = a, p, level + 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
