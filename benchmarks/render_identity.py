"""Check that two source trees render and focus cached observations identically (issue 13, h6-render).

For every pickled observation: the full rendering (every ``Line`` field, ``Rendering.text()``),
the refined rendering, the full tree's token count and the ``default`` focus of the page's goal
(kept lines, the focused text, its tokens, placeholders, flags) are computed under each
``PYTHONPATH`` in a child process and compared field by field.

    .venv/bin/python benchmarks/render_identity.py --baseline /tmp/renderbase/src --candidate src \
        /work/main/runs/b5/cache-main/*.obs.pickle runs/rs-cache/gen-*.obs.pickle

Prints one line per differing page (and the first differing line) and exits 1 if any differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _digest(paths: list[str], out: str) -> None:
    """Runs in the child: what the given source tree makes of each observation."""
    import dataclasses

    sys.path.insert(0, str(HERE))
    from render_scale import goal_for

    from pagelens import tokens
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.registry import make_retriever
    from pagelens.observe.refine import refine
    from pagelens.observe.render import render

    retriever = make_retriever("default")
    res: dict[str, Any] = {}
    for p in paths:
        obs = pickle.loads(Path(p).read_bytes())
        r = render(obs)
        ref = refine(obs)
        full = tokens.count(r.text())
        goal = goal_for(Path(p).name)
        fr = focus(r, FocusQuery(goal=goal), retriever, defense=True, full_tokens=full)
        res[Path(p).name] = {
            "lines": [dataclasses.astuple(ln) for ln in r.lines],
            "text": hashlib.sha1(r.text().encode("utf-8", "surrogatepass")).hexdigest(),
            "refined": [dataclasses.astuple(ln) for ln in ref.lines],
            "refined_text": hashlib.sha1(ref.text().encode("utf-8", "surrogatepass")).hexdigest(),
            "full_tokens": full,
            "focus": {"kept": sorted(fr.kept), "text": fr.text(), "tokens": fr.focused_tokens,
                      "placeholders": dict(fr.placeholders), "hidden": sorted(fr.hidden),
                      "redacted": sorted(fr.redacted), "flags": [repr(f) for f in fr.flags], "error": fr.error,
                      "lines": [dataclasses.astuple(ln) for ln in fr.lines]},
        }
    Path(out).write_bytes(pickle.dumps(res))


def _run(src: str, paths: list[str]) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile(suffix=".pickle") as fh:
        env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
        subprocess.run([sys.executable, __file__, "_digest", fh.name, *paths], env=env, check=True)
        data: dict[str, Any] = pickle.loads(Path(fh.name).read_bytes())
        return data


def _first_diff(a: list[Any], b: list[Any]) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i}: {x!r} != {y!r}"
    return f"lengths {len(a)} != {len(b)}"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "_digest":
        _digest(sys.argv[3:], sys.argv[2])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--candidate", required=True)
    ap.add_argument("pickles", nargs="+")
    args = ap.parse_args()
    base = _run(args.baseline, args.pickles)
    cand = _run(args.candidate, args.pickles)
    bad = 0
    for page in base:
        b, c = base[page], cand[page]
        diffs = [k for k in b if b[k] != c[k]]
        if diffs:
            bad += 1
            k = diffs[0]
            detail = _first_diff(b[k], c[k]) if isinstance(b[k], list) else f"{str(b[k])[:200]} != {str(c[k])[:200]}"
            print(f"DIFF {page}: {diffs}; {k}: {detail}")
    lines = sum(len(v["lines"]) for v in base.values())
    print(json.dumps({"pages": len(base), "lines": lines, "differing_pages": bad}))
    raise SystemExit(1 if bad else 0)


if __name__ == "__main__":
    main()
