"""Clean pages with regions from a given ``src`` tree (h35-ugc): ``defense_fp.py``'s cache holds renderings whose regions
were computed when they were captured, so a change of :mod:`pagelens.observe.provenance` does not reach them. This keeps
the *observations* instead and renders them with the tree on ``PYTHONPATH``.

    # once: observations of every clean page (sites captured with Chromium; corpus from a focus cache such as runs/rp22)
    PYTHONPATH=src .venv/bin/python benchmarks/ugc_clean.py capture --obs runs/clean-obs --rp runs/rp22
    # per tree: a defense_fp.py cache of renderings with that tree's regions
    PYTHONPATH=SRC .venv/bin/python benchmarks/ugc_clean.py render --obs runs/clean-obs --out runs/dcache-X
    # regions before -> after, lines (two caches made by ``render``)
    .venv/bin/python benchmarks/ugc_clean.py diff runs/dcache-base runs/dcache-X
"""

from __future__ import annotations

import argparse
import pickle
import shutil
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _key(key: str) -> str:
    return key.replace("/", "_").replace("?", "_").replace("&", "_").replace(":", "_")[:180] + ".pkl"


def capture(obs_dir: Path, rp: Path) -> None:
    import defense_fp

    import pagelens.api

    obs_dir.mkdir(parents=True, exist_ok=True)
    for p in sorted(rp.glob("*.obs.pickle")):  # the corpus pages as the focus tools saw them
        shutil.copyfile(p, obs_dir / _key(f"corpus/{p.name.removesuffix('.obs.pickle')}"))
    pagelens.api.render_observation = lambda obs: obs  # capture() then stores the observation itself
    defense_fp.capture("sites", obs_dir, defense_fp.CORPUS, 0.5)


def render(obs_dir: Path, out: Path) -> None:
    from pagelens.api import render_observation

    out.mkdir(parents=True, exist_ok=True)
    for p in sorted(obs_dir.glob("*.pkl")):
        (out / p.name).write_bytes(pickle.dumps(render_observation(pickle.loads(p.read_bytes()))))


def diff(before: Path, after: Path) -> None:
    moved: Counter[tuple[str, str]] = Counter()
    pages: Counter[tuple[str, str]] = Counter()
    total = 0
    for p in sorted(before.glob("*.pkl")):
        a, b = pickle.loads(p.read_bytes()), pickle.loads((after / p.name).read_bytes())
        seen = set()
        for x, y in zip(a.lines, b.lines, strict=True):
            total += 1
            if x.region != y.region:
                moved[(x.region, y.region)] += 1
                seen.add((x.region, y.region))
        for k in seen:
            pages[k] += 1
    print(f"lines: {total}")
    print("| region before → after | lines | pages |\n|---|---|---|")
    for (x, y), n in moved.most_common():
        print(f"| {x} → {y} | {n} | {pages[(x, y)]} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("capture")
    c.add_argument("--obs", type=Path, required=True)
    c.add_argument("--rp", type=Path, required=True)
    r = sub.add_parser("render")
    r.add_argument("--obs", type=Path, required=True)
    r.add_argument("--out", type=Path, required=True)
    d = sub.add_parser("diff")
    d.add_argument("before", type=Path)
    d.add_argument("after", type=Path)
    a = ap.parse_args(argv)
    if a.cmd == "capture":
        capture(a.obs, a.rp)
    elif a.cmd == "render":
        render(a.obs, a.out)
    else:
        diff(a.before, a.after)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
